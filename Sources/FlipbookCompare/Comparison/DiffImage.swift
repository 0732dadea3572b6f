import FlipbookPixels
/// Draws where two images differ, over a dimmed grayscale copy of the reference.
///
/// The output is opaque and the size of the inputs. For each pixel:
/// - **unchanged**: the reference composited over white, converted to luma
///   `Y = (77·R + 150·G + 29·B + 128) >> 8` (Rec. 601 weights in 8.8 fixed point) and dimmed to
///   `64 + (Y · 3) >> 3`, a low-contrast gray in `64...159`, so highlights stand out;
/// - **differs beyond tolerance**: magenta `(255, 0, 255)` for the smallest difference fading to
///   red `(255, 0, 0)` for the largest: `blue = 255 − (255 · (m − 1)) / 254` where `m` (`1...255`)
///   is the pixel's largest channel delta; even a 1-level change is fully saturated magenta;
/// - **changed but within tolerance**: teal `(0, 160, 160)`, so accepted noise is visible too.
public enum DiffImage {
    /// The diff of `actual` against `expected`, judged with `tolerance` (the same per-pixel test
    /// as ``ImageComparison``). Throws when the sizes differ.
    public static func make(actual: PixelBuffer, expected: PixelBuffer,
                            tolerance: Tolerance = .exact) throws(ImageComparison.SizeMismatch) -> PixelBuffer {
        guard actual.width == expected.width, actual.height == expected.height else {
            throw ImageComparison.SizeMismatch(expected: (expected.width, expected.height),
                                               actual: (actual.width, actual.height))
        }
        var out = PixelBuffer(width: actual.width, height: actual.height)
        for y in 0..<actual.height {
            for x in 0..<actual.width {
                let a = actual[x, y], e = expected[x, y]
                let m = max(_d(a.r, e.r), _d(a.g, e.g), _d(a.b, e.b), _d(a.a, e.a))
                let color: RGBA8
                if m == 0 {
                    color = dimmedGray(e)
                } else if _matches(a, e, maxDelta: m, tolerance: tolerance) {
                    color = RGBA8(r: 0, g: 160, b: 160, a: 255)
                } else {
                    color = RGBA8(r: 255, g: 0, b: UInt8(255 - (255 * (m - 1)) / 254), a: 255)
                }
                out[x, y] = color
            }
        }
        return out
    }

    /// The dimmed grayscale of a premultiplied pixel composited over white.
    @inlinable
    public static func dimmedGray(_ p: RGBA8) -> RGBA8 {
        let w = Int(255 - p.a)
        let r = Int(p.r) + w, g = Int(p.g) + w, b = Int(p.b) + w
        let luma = (77 * r + 150 * g + 29 * b + 128) >> 8
        let v = UInt8(64 + (luma * 3) >> 3)
        return RGBA8(r: v, g: v, b: v, a: 255)
    }

    @inline(__always) static func _d(_ x: UInt8, _ y: UInt8) -> Int { abs(Int(x) - Int(y)) }

    /// The per-pixel test of ``Tolerance`` (shared with ``ImageComparison``'s definition).
    static func _matches(_ a: RGBA8, _ e: RGBA8, maxDelta: Int, tolerance: Tolerance) -> Bool {
        if maxDelta <= tolerance.maxChannelDelta { return true }
        if let limit = tolerance.maxDeltaE, ColorDifference.deltaE(a, e) <= limit { return true }
        return false
    }
}
