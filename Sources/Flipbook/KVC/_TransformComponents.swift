import Foundation
import FlipbookGraphics
/// A simple decomposition of a `CATransform3D` for the `transform.*` key paths:
/// scale, then rotation (x, then y, then z), then translation, with the perspective column
/// (`m14`, `m24`, `m34`, `m44`) carried unchanged.
///
/// In Core Animation's row-vector convention (`p' = p · M`) the upper 3×3 block is
/// `S · Rx · Ry · Rz`, whose rows are the rows of `Rx · Ry · Rz` scaled by `sx`, `sy`, `sz`, so
/// `s = row lengths` (sx negated when the determinant is negative). With `R = Rx·Ry·Rz`:
///
///     R13 = −sin y            → y = asin(−R13)
///     R12 / R11 = tan z       → z = atan2(R12, R11)
///     R23 / R33 = tan x       → x = atan2(R23, R33)
///     |cos y| ≈ 0 (gimbal lock): z = 0, x = atan2(R21 · sin y, R22)
///
/// Skew does not survive a round trip (the full decomposition is the animation math's).
struct _TransformComponents {
    var translation: (x: CGFloat, y: CGFloat, z: CGFloat)
    var scale: (x: CGFloat, y: CGFloat, z: CGFloat)
    var rotation: (x: CGFloat, y: CGFloat, z: CGFloat)
    var perspective: (m14: CGFloat, m24: CGFloat, m34: CGFloat, m44: CGFloat)

    init(_ t: CATransform3D) {
        translation = (t.m41, t.m42, t.m43)
        perspective = (t.m14, t.m24, t.m34, t.m44)
        var r1 = (t.m11, t.m12, t.m13), r2 = (t.m21, t.m22, t.m23), r3 = (t.m31, t.m32, t.m33)
        func len(_ r: (CGFloat, CGFloat, CGFloat)) -> CGFloat { (r.0 * r.0 + r.1 * r.1 + r.2 * r.2).squareRoot() }
        var sx = len(r1)
        let sy = len(r2), sz = len(r3)
        let det = r1.0 * (r2.1 * r3.2 - r2.2 * r3.1) - r1.1 * (r2.0 * r3.2 - r2.2 * r3.0) + r1.2 * (r2.0 * r3.1 - r2.1 * r3.0)
        if det < 0 { sx = -sx }
        scale = (sx, sy, sz)
        func div(_ r: (CGFloat, CGFloat, CGFloat), _ s: CGFloat) -> (CGFloat, CGFloat, CGFloat) {
            s == 0 ? r : (r.0 / s, r.1 / s, r.2 / s)
        }
        r1 = div(r1, sx); r2 = div(r2, sy); r3 = div(r3, sz)
        let sinY = max(-1, min(1, -r1.2))
        let y = asin(sinY)
        if abs(cos(y)) > 1e-9 {
            rotation = (atan2(r2.2, r3.2), y, atan2(r1.1, r1.0))
        } else {
            rotation = (atan2(r2.0 * sinY, r2.1), y, 0)
        }
    }

    /// Recomposes `S · Rx · Ry · Rz · T` with the perspective column restored.
    var transform: CATransform3D {
        var m = CATransform3DMakeScale(scale.x, scale.y, scale.z)
        m = CATransform3DConcat(m, CATransform3DMakeRotation(rotation.x, 1, 0, 0))
        m = CATransform3DConcat(m, CATransform3DMakeRotation(rotation.y, 0, 1, 0))
        m = CATransform3DConcat(m, CATransform3DMakeRotation(rotation.z, 0, 0, 1))
        m.m41 = translation.x; m.m42 = translation.y; m.m43 = translation.z
        m.m14 = perspective.m14; m.m24 = perspective.m24; m.m34 = perspective.m34; m.m44 = perspective.m44
        return m
    }
}
