#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FlipbookPixels

/// Per-corner radii of a rounded rectangle, in the layer's own units (y down: "top" is v = 0).
public struct CornerRadii: Sendable, Hashable {
    public var topLeft, topRight, bottomRight, bottomLeft: Double
    public init(topLeft: Double, topRight: Double, bottomRight: Double, bottomLeft: Double) {
        self.topLeft = topLeft; self.topRight = topRight; self.bottomRight = bottomRight; self.bottomLeft = bottomLeft
    }
    /// The same radius on every corner.
    public init(all r: Double) { self.init(topLeft: r, topRight: r, bottomRight: r, bottomLeft: r) }
}

/// Coverage of a rounded rectangle `[0, width] × [0, height]` in a layer's own space, drawn
/// under an affine transform, as a per-pixel mask (e.g. `cornerRadius` + `masksToBounds`).
///
/// Each destination pixel centre maps through the inverse transform to (u, v); the signed
/// distance to the rounded rectangle (negative inside) is converted to destination pixels with
/// the transform's mean scale `1/√|det(inverse)|`, and
///
///     coverage = round(255 · clamp(0.5 − distancePixels, 0, 1))
///
/// a one-pixel-wide anti-aliasing ramp centred on the edge. A pixel-aligned rectangle edge gives
/// exactly 255 inside and 0 outside. Radii are clamped to `[0, min(width, height) / 2]`.
/// Deterministic (Double arithmetic per pixel, no state), so row bands can be computed anywhere.
public struct RoundedRectCoverage: Sendable {
    public let width: Double, height: Double
    public let radii: CornerRadii
    public let inverse: AffineInverse
    @usableFromInline let _pixelsPerUnit: Double

    /// How computed coverage combines with the bytes already in the mask.
    public enum Mode: Sendable { case replace, multiply }

    /// `inverse` maps canvas points to layer points (see ``AffineInverse``).
    public init(width: Double, height: Double, radii: CornerRadii, inverse: AffineInverse) {
        let w = max(0, width), h = max(0, height), limit = min(w, h) / 2
        func c(_ r: Double) -> Double { r.isFinite ? min(max(r, 0), limit) : 0 }
        self.width = w; self.height = h
        self.radii = CornerRadii(topLeft: c(radii.topLeft), topRight: c(radii.topRight),
                                 bottomRight: c(radii.bottomRight), bottomLeft: c(radii.bottomLeft))
        self.inverse = inverse
        let det = abs(inverse.a * inverse.e - inverse.b * inverse.d)
        _pixelsPerUnit = det > 0 && det.isFinite ? 1 / det.squareRoot() : 0
    }

    /// Signed distance (layer units, negative inside) from (u, v) to the rounded rectangle.
    public func signedDistance(u: Double, v: Double) -> Double {
        let hw = width / 2, hh = height / 2
        let px = u - hw, py = v - hh
        let r = px > 0 ? (py > 0 ? radii.bottomRight : radii.topRight) : (py > 0 ? radii.bottomLeft : radii.topLeft)
        let qx = abs(px) - hw + r, qy = abs(py) - hh + r
        let outside = (max(qx, 0) * max(qx, 0) + max(qy, 0) * max(qy, 0)).squareRoot()
        return min(max(qx, qy), 0) + outside - r
    }

    /// Writes (or multiplies into) `mask[i]` the coverage of pixel `(x0 + i, y)` for `x0..<x1`.
    public func rasterizeRow(_ y: Int, x0: Int, x1: Int, into mask: UnsafeMutablePointer<UInt8>, mode: Mode = .replace) {
        guard x1 > x0 else { return }
        let py = Double(y) + 0.5, t = inverse
        for i in 0..<(x1 - x0) {
            let px = Double(x0 + i) + 0.5
            let u = t.a * px + (t.b * py + t.c), v = t.d * px + (t.e * py + t.f)
            let dist = signedDistance(u: u, v: v) * _pixelsPerUnit
            let c = UInt32((min(max(0.5 - dist, 0), 1) * 255).rounded())
            switch mode {
            case .replace: mask[i] = UInt8(c)
            case .multiply: mask[i] = UInt8(PixelRounding.div255(UInt32(mask[i]) * c))
            }
        }
    }
}
