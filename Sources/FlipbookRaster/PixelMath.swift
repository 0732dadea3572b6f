import FlipbookPixels

/// Per-pixel arithmetic of every scalar path in Flipbook: the portable twins of the SIMD kernels
/// and the compositor's own per-pixel loops (package access). Packed premultiplied pixels
/// (`0xAABBGGRR`, see ``RGBA8/packed``) and THE rounding rule, ``PixelRounding/div255(_:)``.
///
/// These functions are the scalar definition that the AVX2 kernels reproduce bit for bit
/// (docs/rounding.md). They work on two channels at once: `p & 0x00FF00FF` holds R and B,
/// `(p >> 8) & 0x00FF00FF` holds G and A, each in a 16-bit half. Products `c · k` (both <= 255)
/// stay below 2¹⁶ and `t + (t >> 8) <= 65407` for `t = c · k + 128`, so no carry crosses a
/// half and each half is exactly `div255` of its channel (the portable SIMD kernel's argument).
@usableFromInline
package enum PixelMath {
    @inlinable static var lowMask: UInt32 { 0x00FF_00FF }

    /// `div255` of both 16-bit halves of `x` (each half <= 255 · 255).
    @inlinable @inline(__always)
    static func div255x2(_ x: UInt32) -> UInt32 {
        let t = x &+ 0x0080_0080
        return ((t &+ ((t >> 8) & lowMask)) >> 8) & lowMask
    }

    /// `min(255, v)` on both 16-bit halves of `v` (each half <= 510).
    @inlinable @inline(__always)
    static func saturate2(_ v: UInt32) -> UInt32 {
        let over = (v >> 8) & 0x0001_0001
        return (v | (over &* 0xFF)) & lowMask
    }

    /// Every channel scaled by `k/255`, rounded: `c' = div255(c · k)` (`k` in 0...255).
    @inlinable @inline(__always)
    package static func scale(_ p: UInt32, _ k: UInt32) -> UInt32 {
        div255x2((p & lowMask) &* k) | (div255x2(((p >> 8) & lowMask) &* k) << 8)
    }

    /// `div255(a · b)` for 8-bit values: the combined factor of an opacity and a coverage byte,
    /// or of two coverages.
    @inlinable @inline(__always)
    package static func mul8(_ a: UInt32, _ b: UInt32) -> UInt32 {
        PixelRounding.div255(a &* b)
    }

    /// Source-over of premultiplied `s` onto `d`:
    ///
    ///     Dca' = min(255, Sca + div255(Dca · (255 − Sa)))     (every channel, alpha included)
    ///
    /// The `min` never acts on valid premultiplied input (`Sca <= Sa`); it makes invalid input
    /// saturate the same way in every backend (AVX2's `packus`).
    @inlinable @inline(__always)
    package static func over(_ s: UInt32, _ d: UInt32) -> UInt32 {
        let ia = 255 &- (s >> 24)
        if ia == 0 { return s }   // opaque source: div255(Dca · 0) = 0 and Sca <= 255
        if s == 0 { return d }    // transparent source: div255(Dca · 255) = Dca
        let rb = saturate2((s & lowMask) &+ div255x2((d & lowMask) &* ia))
        let ag = saturate2(((s >> 8) & lowMask) &+ div255x2(((d >> 8) & lowMask) &* ia))
        return rb | (ag << 8)
    }

    /// Per-channel saturating add `min(255, Sca + Dca)` (the compositor's `plus` group mode).
    @inlinable @inline(__always)
    package static func plus(_ s: UInt32, _ d: UInt32) -> UInt32 {
        saturate2((s & lowMask) &+ (d & lowMask)) | (saturate2(((s >> 8) & lowMask) &+ ((d >> 8) & lowMask)) << 8)
    }

    /// Bilinear interpolation with 8-bit weights `fx, fy` in 0...255 (the rule of the scalar reference compositor Flipbook is checked against, `docs/kernels.md`),
    /// per channel, one rounding at the end:
    ///
    ///     v = (c00·(256−fx)·(256−fy) + c10·fx·(256−fy) + c01·(256−fx)·fy + c11·fx·fy + 32768) >> 16
    ///
    /// `p10` is the texel right of `p00`, `p01` the one below. Evaluated as
    /// `top = c00·(256−fx) + c10·fx` (<= 65280, two channels per word), the same for the bottom
    /// row, then `(top·(256−fy) + bottom·fy + 32768) >> 16` in 64 bits (a channel per 32-bit half).
    @inlinable @inline(__always)
    package static func bilinear(_ p00: UInt32, _ p10: UInt32, _ p01: UInt32, _ p11: UInt32,
                                 fx: UInt32, fy: UInt32) -> UInt32 {
        let ifx = 256 &- fx
        let tRB = (p00 & lowMask) &* ifx &+ (p10 & lowMask) &* fx
        let tAG = ((p00 >> 8) & lowMask) &* ifx &+ ((p10 >> 8) & lowMask) &* fx
        let bRB = (p01 & lowMask) &* ifx &+ (p11 & lowMask) &* fx
        let bAG = ((p01 >> 8) & lowMask) &* ifx &+ ((p11 >> 8) & lowMask) &* fx
        let ify = UInt64(256 &- fy), fy64 = UInt64(fy)
        @inline(__always) func spread(_ v: UInt32) -> UInt64 { UInt64(v & 0xFFFF) | (UInt64(v >> 16) << 32) }
        let rb = (spread(tRB) &* ify &+ spread(bRB) &* fy64 &+ 0x0000_8000_0000_8000) >> 16
        let ag = (spread(tAG) &* ify &+ spread(bAG) &* fy64 &+ 0x0000_8000_0000_8000) >> 16
        let rb32 = UInt32(truncatingIfNeeded: rb & 0xFF) | (UInt32(truncatingIfNeeded: (rb >> 32) & 0xFF) << 16)
        let ag32 = UInt32(truncatingIfNeeded: ag & 0xFF) | (UInt32(truncatingIfNeeded: (ag >> 32) & 0xFF) << 16)
        return rb32 | (ag32 << 8)
    }

    /// Channel-wise product of two packed pixels: `div255(p_c · t_c)` for each of r, g, b, a —
    /// a premultiplied pixel tinted by a premultiplied colour stays premultiplied (each
    /// colour channel ≤ alpha on both sides).
    @inlinable
    package static func modulate(_ p: UInt32, _ t: UInt32) -> UInt32 {
        var out: UInt32 = 0
        for shift in stride(from: 0 as UInt32, through: 24, by: 8) {
            let v = PixelRounding.div255(((p >> shift) & 0xFF) * ((t >> shift) & 0xFF))
            out |= v << shift
        }
        return out
    }

    /// Premultiplied packed pixel from straight colour components (each clamped to [0, 1],
    /// non-finite as 0): `a = round(α·255)`, `c = premultiply(round(c·255), a)`.
    package static func premultipliedColor(r: Double, g: Double, b: Double, a: Double) -> UInt32 {
        func q(_ v: Double) -> UInt8 { v.isFinite ? UInt8((min(max(v, 0), 1) * 255).rounded()) : 0 }
        return RGBA8(straightR: q(r), g: q(g), b: q(b), a: q(a)).packed
    }
}
