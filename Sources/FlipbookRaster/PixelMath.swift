import FlipbookPixels
/// Per-pixel arithmetic shared by every portable kernel: packed premultiplied pixels
/// (`0xAABBGGRR`, see ``RGBA8/packed``) and THE rounding rule, ``PixelRounding/div255(_:)``.
///
/// These functions are the scalar definition that the AVX2 kernels reproduce bit for bit
/// (docs/rounding.md).
@usableFromInline
enum _PixelMath {
    /// Every channel scaled by `k/255`, rounded: `c' = div255(c · k)` (`k` in 0...255).
    @inlinable @inline(__always)
    static func scale(_ p: UInt32, _ k: UInt32) -> UInt32 {
        let r = PixelRounding.div255((p & 0xFF) &* k)
        let g = PixelRounding.div255(((p >> 8) & 0xFF) &* k)
        let b = PixelRounding.div255(((p >> 16) & 0xFF) &* k)
        let a = PixelRounding.div255((p >> 24) &* k)
        return r | g << 8 | b << 16 | a << 24
    }

    /// Source-over of premultiplied `s` onto `d`:
    ///
    ///     Dca' = min(255, Sca + div255(Dca · (255 − Sa)))     (every channel, alpha included)
    ///
    /// The `min` never acts on valid premultiplied input (`Sca <= Sa`); it makes invalid input
    /// saturate the same way in every backend.
    @inlinable @inline(__always)
    static func over(_ s: UInt32, _ d: UInt32) -> UInt32 {
        let ia = 255 &- (s >> 24)
        var out: UInt32 = 0
        var shift: UInt32 = 0
        while shift < 32 {
            let sc = (s >> shift) & 0xFF, dc = (d >> shift) & 0xFF
            out |= min(255, sc &+ PixelRounding.div255(dc &* ia)) << shift
            shift &+= 8
        }
        return out
    }

    /// The combined per-pixel factor of a layer opacity and a coverage byte:
    /// `k = div255(opacity · coverage)`.
    @inlinable @inline(__always)
    static func factor(_ opacity: UInt32, _ coverage: UInt8) -> UInt32 {
        PixelRounding.div255(opacity &* UInt32(coverage))
    }

    /// Bilinear interpolation with 8-bit weights `fx, fy` in 0...255 (the peers' ref-c rule),
    /// per channel, one rounding at the end:
    ///
    ///     v = (c00·(256−fx)·(256−fy) + c10·fx·(256−fy) + c01·(256−fx)·fy + c11·fx·fy + 32768) >> 16
    ///
    /// `p10` is the texel right of `p00`, `p01` the one below.
    @inlinable @inline(__always)
    static func bilinear(_ p00: UInt32, _ p10: UInt32, _ p01: UInt32, _ p11: UInt32,
                         fx: UInt32, fy: UInt32) -> UInt32 {
        let wx0 = 256 &- fx, wy0 = 256 &- fy
        var out: UInt32 = 0
        var shift: UInt32 = 0
        while shift < 32 {
            let top = ((p00 >> shift) & 0xFF) &* wx0 &+ ((p10 >> shift) & 0xFF) &* fx
            let bottom = ((p01 >> shift) & 0xFF) &* wx0 &+ ((p11 >> shift) & 0xFF) &* fx
            out |= ((top &* wy0 &+ bottom &* fy &+ 32768) >> 16) << shift
            shift &+= 8
        }
        return out
    }
}
