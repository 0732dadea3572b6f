/// The rounding rules of Flipbook's pixel arithmetic, in one place.
///
/// Every rule rounds to the **nearest** integer. Dividing by 255 never produces an exact tie
/// (255 is odd), so there is no tie-breaking to specify for ``div255(_:)`` and
/// ``premultiply(_:alpha:)``. `docs/rounding.md` derives each formula.
public enum PixelRounding {
    /// `round(x / 255)` for `0 <= x <= 255 * 255 + 127`, exactly, without a division:
    ///
    ///     t = x + 128;  result = (t + (t >> 8)) >> 8
    @inlinable @inline(__always)
    public static func div255(_ x: UInt32) -> UInt32 {
        let t = x &+ 128
        return (t &+ (t >> 8)) >> 8
    }

    /// Straight → premultiplied: `c' = round(c · a / 255) = (c · a + 127) / 255` (integer
    /// division), the rule `PixelBuffer.testPattern` and the reference renderings use.
    @inlinable @inline(__always)
    public static func premultiply(_ c: UInt8, alpha a: UInt8) -> UInt8 {
        UInt8((UInt32(c) * UInt32(a) + 127) / 255)
    }

    /// Premultiplied → straight: `c = ⌊(c' · 255 + ⌊a / 2⌋) / a⌋`, clamped to 255; `0` when `a == 0`.
    ///
    /// This is round-to-nearest of `c' · 255 / a` (ties, possible only for even `a`, round up).
    /// It is the exact inverse of ``premultiply(_:alpha:)`` on its image: for every straight
    /// `c` and alpha `a`, `premultiply(unpremultiply(premultiply(c, a), a), a) == premultiply(c, a)`,
    /// and opaque pixels (`a == 255`) pass through unchanged. PNG encoding relies on this for
    /// lossless round trips.
    @inlinable @inline(__always)
    public static func unpremultiply(_ c: UInt8, alpha a: UInt8) -> UInt8 {
        if a == 0 { return 0 }
        if a == 255 { return c }
        let v = (UInt32(c) * 255 + UInt32(a) / 2) / UInt32(a)
        return UInt8(min(v, 255))
    }
}
