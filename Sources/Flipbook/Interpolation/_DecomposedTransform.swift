import Foundation
import FlipbookGraphics
/// A `CATransform3D` split into translate / scale / skew / perspective / rotation (a unit
/// quaternion), so that transforms interpolate as motions rather than element-wise blends: a
/// 0 → 180° z rotation at 50 % is a 90° rotation, not a matrix collapsed to a line.
///
/// The algorithm is the "unmatrix" of Graphics Gems II as used by CSS Transforms Level 2, in
/// Core Animation's row-vector layout (translation in `m41…m43`, perspective in column 4):
///
///     M = Scale · Skew · Rotation · Translation · Perspective        (row vectors: left first)
///     Skew = [1 0 0; xy 1 0; xz yz 1],  Perspective = I with column 4 = (p0, p1, p2, p3)
///
/// Differences from the CSS text, all for robustness: a zero scale along one axis (e.g. scale
/// 0 → 1) does not fail — the missing basis row is rebuilt as the cross product of the others
/// (or a unit axis) and its scale recorded as 0; quaternion slerp takes the shorter arc (as
/// Chromium does). Only `m44 == 0`, non-finite elements or a singular matrix with perspective
/// make decomposition fail; interpolation then falls back to element-wise.
package struct _DecomposedTransform: Sendable, Hashable {
    public var translate: [Double] = [0, 0, 0]
    public var scale: [Double] = [1, 1, 1]
    /// Shears xy, xz, yz.
    public var skew: [Double] = [0, 0, 0]
    public var perspective: [Double] = [0, 0, 0, 1]
    /// (x, y, z, w); `rotation(θ about u)` ↔ `(u·sin(θ/2), cos(θ/2))`, θ as in CATransform3DMakeRotation.
    public var quaternion: [Double] = [0, 0, 0, 1]

    public init() {}

    public init?(_ t: CATransform3D) {
        guard t.isFinite, t.m44 != 0 else { return nil }
        var m = (0..<4).map { i in (0..<4).map { j in Double(t.elements[i * 4 + j]) / Double(t.m44) } }
        // Perspective: solve (column 4) = LT · p for p, where LT is m with column 4 = (0,0,0,1).
        if m[0][3] != 0 || m[1][3] != 0 || m[2][3] != 0 {
            var lt = m
            for i in 0..<3 { lt[i][3] = 0 }
            lt[3][3] = 1
            guard let inv = CATransform3D(lt.flatMap { $0.map { CGFloat($0) } })._inverse else { return nil }
            let e = inv.elements.map(Double.init)
            let rhs = [m[0][3], m[1][3], m[2][3], m[3][3]]
            perspective = (0..<4).map { i in (0..<4).reduce(0) { $0 + e[i * 4 + $1] * rhs[$1] } }
            for i in 0..<3 { m[i][3] = 0 }
            m[3][3] = 1
        }
        translate = [m[3][0], m[3][1], m[3][2]]
        var row = (0..<3).map { i in [m[i][0], m[i][1], m[i][2]] }
        // Rows of zero length (a zero scale) are rebuilt so the basis stays orthonormal.
        var zero = [false, false, false]
        for i in 0..<3 where _len(row[i]) < 1e-12 {
            zero[i] = true
            let c = _cross(row[(i + 1) % 3], row[(i + 2) % 3])
            row[i] = _len(c) > 1e-12 ? c : [i == 0 ? 1 : 0, i == 1 ? 1 : 0, i == 2 ? 1 : 0]
        }
        scale[0] = _len(row[0]); row[0] = _norm(row[0])
        skew[0] = _dot(row[0], row[1]); row[1] = _comb(row[1], row[0], -skew[0])
        scale[1] = _len(row[1]); row[1] = _norm(row[1])
        if scale[1] != 0 { skew[0] /= scale[1] }
        skew[1] = _dot(row[0], row[2]); row[2] = _comb(row[2], row[0], -skew[1])
        skew[2] = _dot(row[1], row[2]); row[2] = _comb(row[2], row[1], -skew[2])
        scale[2] = _len(row[2]); row[2] = _norm(row[2])
        if scale[2] != 0 { skew[1] /= scale[2]; skew[2] /= scale[2] }
        if _dot(row[0], _cross(row[1], row[2])) < 0 {
            for i in 0..<3 { scale[i] = -scale[i]; row[i] = row[i].map { -$0 } }
        }
        for i in 0..<3 where zero[i] { scale[i] = 0 }
        var q = [0.5 * max(1 + row[0][0] - row[1][1] - row[2][2], 0).squareRoot(),
                 0.5 * max(1 - row[0][0] + row[1][1] - row[2][2], 0).squareRoot(),
                 0.5 * max(1 - row[0][0] - row[1][1] + row[2][2], 0).squareRoot(),
                 0.5 * max(1 + row[0][0] + row[1][1] + row[2][2], 0).squareRoot()]
        if row[2][1] > row[1][2] { q[0] = -q[0] }
        if row[0][2] > row[2][0] { q[1] = -q[1] }
        if row[1][0] > row[0][1] { q[2] = -q[2] }
        let n = _len4(q)
        quaternion = n > 0 ? q.map { $0 / n } : [0, 0, 0, 1]
    }

    /// `Scale · Skew · Rotation · Translation · Perspective`.
    public var recomposed: CATransform3D {
        let (x, y, z, w) = (quaternion[0], quaternion[1], quaternion[2], quaternion[3])
        let r: [[Double]] = [
            [1 - 2 * (y * y + z * z), 2 * (x * y + z * w), 2 * (x * z - y * w)],
            [2 * (x * y - z * w), 1 - 2 * (x * x + z * z), 2 * (y * z + x * w)],
            [2 * (x * z + y * w), 2 * (y * z - x * w), 1 - 2 * (x * x + y * y)]]
        // Rows of Scale·Skew·Rotation: row_i = s_i · (r_i + Σ skew · earlier rows).
        let rows: [[Double]] = [
            r[0].map { $0 * scale[0] },
            (0..<3).map { scale[1] * (r[1][$0] + skew[0] * r[0][$0]) },
            (0..<3).map { scale[2] * (r[2][$0] + skew[1] * r[0][$0] + skew[2] * r[1][$0]) }]
        var lt = CATransform3DIdentity
        lt.m11 = rows[0][0]; lt.m12 = rows[0][1]; lt.m13 = rows[0][2]
        lt.m21 = rows[1][0]; lt.m22 = rows[1][1]; lt.m23 = rows[1][2]
        lt.m31 = rows[2][0]; lt.m32 = rows[2][1]; lt.m33 = rows[2][2]
        lt.m41 = translate[0]; lt.m42 = translate[1]; lt.m43 = translate[2]
        if perspective == [0, 0, 0, 1] { return lt }
        var p = CATransform3DIdentity
        p.m14 = perspective[0]; p.m24 = perspective[1]; p.m34 = perspective[2]; p.m44 = perspective[3]
        return lt * p
    }

    /// The rotation angle in radians, in [0, π] after shortest-arc normalisation.
    public var rotationAngle: Double { 2 * acos(min(1, abs(quaternion[3]))) }

    /// Decompose both, interpolate (quaternions by slerp), recompose. Falls back to element-wise
    /// interpolation when either matrix does not decompose.
    public static func interpolate(_ a: CATransform3D, _ b: CATransform3D, _ f: Double) -> CATransform3D {
        if f == 0 { return a }
        if f == 1 { return b }
        guard let da = _DecomposedTransform(a), let db = _DecomposedTransform(b) else {
            return CATransform3D(zip(a.elements, b.elements).map { $0 + ($1 - $0) * CGFloat(f) })
        }
        var r = _DecomposedTransform()
        r.translate = zip(da.translate, db.translate).map { $0 + ($1 - $0) * f }
        r.scale = zip(da.scale, db.scale).map { $0 + ($1 - $0) * f }
        r.skew = zip(da.skew, db.skew).map { $0 + ($1 - $0) * f }
        r.perspective = zip(da.perspective, db.perspective).map { $0 + ($1 - $0) * f }
        r.quaternion = slerp(da.quaternion, db.quaternion, f)
        return r.recomposed
    }

    /// Spherical linear interpolation along the shorter arc; extrapolates for f ∉ [0, 1].
    public static func slerp(_ a: [Double], _ b0: [Double], _ f: Double) -> [Double] {
        var b = b0
        var dot = _dot4(a, b)
        if dot < 0 { b = b.map { -$0 }; dot = -dot }
        dot = min(dot, 1)
        if dot > 1 - 1e-12 {   // (nearly) the same rotation: normalised lerp
            let l = zip(a, b).map { $0 + ($1 - $0) * f }
            let n = _len4(l)
            return n > 0 ? l.map { $0 / n } : a
        }
        let theta = acos(dot), s = sin(theta)
        let wa = sin((1 - f) * theta) / s, wb = sin(f * theta) / s
        return zip(a, b).map { wa * $0 + wb * $1 }
    }

    /// `t` "to the power k": translation·k, skew·k, perspective·k, sign-preserving scale^k,
    /// rotation angle·k. For rotations and translations alone this equals concatenating `t`
    /// k times. Non-decomposable transforms scale element-wise.
    public static func power(_ t: CATransform3D, _ k: Double) -> CATransform3D {
        guard let d = _DecomposedTransform(t) else { return CATransform3D(t.elements.map { $0 * CGFloat(k) }) }
        var r = d
        r.translate = d.translate.map { $0 * k }
        r.skew = d.skew.map { $0 * k }
        r.perspective = [d.perspective[0] * k, d.perspective[1] * k, d.perspective[2] * k, 1]
        r.scale = d.scale.map { $0 < 0 ? -pow(-$0, k) : pow($0, k) }
        let angle = 2 * acos(max(-1, min(1, d.quaternion[3])))
        let axisLen = _len(Array(d.quaternion[0..<3]))
        if axisLen > 1e-15 {
            let half = angle * k / 2
            r.quaternion = d.quaternion[0..<3].map { $0 / axisLen * sin(half) } + [cos(half)]
        }
        return r.recomposed
    }
}

@inline(__always) func _dot(_ a: [Double], _ b: [Double]) -> Double { a[0] * b[0] + a[1] * b[1] + a[2] * b[2] }
@inline(__always) func _dot4(_ a: [Double], _ b: [Double]) -> Double { a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3] }
@inline(__always) func _len(_ a: [Double]) -> Double { _dot(a, a).squareRoot() }
@inline(__always) func _len4(_ a: [Double]) -> Double { _dot4(a, a).squareRoot() }
@inline(__always) func _norm(_ a: [Double]) -> [Double] { let l = _len(a); return l > 0 ? a.map { $0 / l } : a }
@inline(__always) func _comb(_ a: [Double], _ b: [Double], _ k: Double) -> [Double] { [a[0] + k * b[0], a[1] + k * b[1], a[2] + k * b[2]] }
@inline(__always) func _cross(_ a: [Double], _ b: [Double]) -> [Double] {
    [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
}
