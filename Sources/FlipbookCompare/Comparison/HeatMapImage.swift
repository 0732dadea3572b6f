#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import FlipbookPixels

/// How much each pixel changed, as a heat map over a dimmed grayscale copy of the reference:
/// what the review page (``ReviewReport``) shows as "heat map".
///
/// Where ``DiffImage`` says *which* pixels fail, the heat map says *by how much* they changed.
/// The output is opaque and the size of the inputs. For each pixel, with `m` (`0...255`) the
/// largest `|actual − expected|` of its four premultiplied channels:
/// - `m == 0`: ``DiffImage/dimmedGray(_:)`` of the reference (gray `64...159`);
/// - `m > 0`: a colour ramp on a logarithmic scale, so a 1-level change is as visible as a
///   large one: blue `(40, 40, 255)` at `m = 1`, cyan `(0, 200, 255)` at 4, green
///   `(0, 220, 0)` at 16, yellow `(255, 230, 0)` at 64, red `(255, 0, 0)` at 255 (``color(forDelta:)``,
///   linear between the stops in `log₂ m`);
/// - a pixel that changed but is **within tolerance** (the per-pixel test of ``Tolerance``) gets
///   the ramp colour averaged with its gray, so accepted noise shows muted and failures bright.
public enum HeatMapImage {
    /// The heat map of `actual` against `expected`. Throws when the sizes differ.
    public static func make(actual: PixelBuffer, expected: PixelBuffer,
                            tolerance: Tolerance = .exact) throws(ImageComparison.SizeMismatch) -> PixelBuffer {
        guard actual.width == expected.width, actual.height == expected.height else {
            throw ImageComparison.SizeMismatch(expected: (expected.width, expected.height),
                                               actual: (actual.width, actual.height))
        }
        let ramp = _ramp
        var out = PixelBuffer(width: actual.width, height: actual.height)
        for y in 0..<actual.height {
            for x in 0..<actual.width {
                let a = actual[x, y], e = expected[x, y]
                let m = max(DiffImage._d(a.r, e.r), DiffImage._d(a.g, e.g), DiffImage._d(a.b, e.b), DiffImage._d(a.a, e.a))
                let gray = DiffImage.dimmedGray(e)
                if m == 0 {
                    out[x, y] = gray
                } else if DiffImage._matches(a, e, maxDelta: m, tolerance: tolerance) {
                    let c = ramp[m]
                    out[x, y] = RGBA8(r: UInt8((Int(c.r) + Int(gray.r)) / 2), g: UInt8((Int(c.g) + Int(gray.g)) / 2),
                                      b: UInt8((Int(c.b) + Int(gray.b)) / 2), a: 255)
                } else {
                    out[x, y] = ramp[m]
                }
            }
        }
        return out
    }

    /// The ramp's stops: `(log₂ of the delta, colour)`.
    static let _stops: [(Double, RGBA8)] = [
        (0, RGBA8(r: 40, g: 40, b: 255, a: 255)),   // 1
        (2, RGBA8(r: 0, g: 200, b: 255, a: 255)),   // 4
        (4, RGBA8(r: 0, g: 220, b: 0, a: 255)),     // 16
        (6, RGBA8(r: 255, g: 230, b: 0, a: 255)),   // 64
        (log2(255.0), RGBA8(r: 255, g: 0, b: 0, a: 255)),  // 255
    ]

    /// The colour of a change of `delta` (`1...255`; 0 and below give the first stop).
    public static func color(forDelta delta: Int) -> RGBA8 { _ramp[min(max(delta, 0), 255)] }

    /// ``color(forDelta:)`` for every delta, computed once.
    static let _ramp: [RGBA8] = (0...255).map { m in
        let t = log2(Double(max(m, 1)))
        var i = 0
        while i + 2 < _stops.count && t > _stops[i + 1].0 { i += 1 }
        let (t0, c0) = _stops[i], (t1, c1) = _stops[i + 1]
        let f = min(max((t - t0) / (t1 - t0), 0), 1)
        func mix(_ a: UInt8, _ b: UInt8) -> UInt8 { UInt8((Double(a) + (Double(b) - Double(a)) * f).rounded()) }
        return RGBA8(r: mix(c0.r, c1.r), g: mix(c0.g, c1.g), b: mix(c0.b, c1.b), a: 255)
    }
}
