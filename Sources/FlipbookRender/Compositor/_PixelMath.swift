/// Scalar pixel arithmetic of the compositor (the minimal kernels it needs until
/// FlipbookRaster's SIMD kernels are wired in). One rounding rule everywhere:
///
///     scale(c, k) = round(c · k / 255) = div255(c · k),   div255(x) = (t + (t >> 8)) >> 8, t = x + 128
///     over(s, d)  = s + scale(d, 255 − s.a)                (premultiplied source-over)
///
/// Bilinear sampling uses 8-bit weights exactly as the peers' reference (`ref-c`):
/// `fx = min(255, ⌊(sx − ⌊sx⌋)·256⌋)`, `top = c00·(256−fx) + c10·fx` (same for the bottom row),
/// `c = (top·(256−fy) + bot·fy + 32768) >> 16`.
/// Pixels are `UInt32` read little-endian: `0xAABBGGRR`.

enum _PixelMath {
    static let lowMask: UInt32 = 0x00FF_00FF

    /// Every channel of `p` times `k / 255`, rounded to nearest (exact `div255`). `k ≤ 255`.
    @inline(__always)
    static func scale(_ p: UInt32, _ k: UInt32) -> UInt32 {
        var rb = (p & lowMask) &* k &+ 0x0080_0080
        rb = ((rb &+ ((rb >> 8) & lowMask)) >> 8) & lowMask
        var ag = ((p >> 8) & lowMask) &* k &+ 0x0080_0080
        ag = ((ag &+ ((ag >> 8) & lowMask)) >> 8) & lowMask
        return rb | (ag << 8)
    }

    /// Premultiplied source-over.
    @inline(__always)
    static func over(_ s: UInt32, _ d: UInt32) -> UInt32 {
        let ia = 255 &- (s >> 24)
        if ia == 0 { return s }
        if ia == 255 { return d }
        return s &+ scale(d, ia)
    }

    /// Per-channel saturating add (the `plus` group mode).
    @inline(__always)
    static func plus(_ s: UInt32, _ d: UInt32) -> UInt32 {
        var out: UInt32 = 0
        var shift: UInt32 = 0
        while shift < 32 {
            let v = min(255, ((s >> shift) & 0xFF) &+ ((d >> shift) & 0xFF))
            out |= v << shift
            shift &+= 8
        }
        return out
    }

    /// `div255(a · b)` for 8-bit values.
    @inline(__always)
    static func mul8(_ a: UInt32, _ b: UInt32) -> UInt32 {
        let t = a &* b &+ 128
        return (t &+ (t >> 8)) >> 8
    }

    /// Bilinear blend of four texels with 8-bit weights `fx, fy ∈ 0…255` (rule above).
    @inline(__always)
    static func bilinear(_ p00: UInt32, _ p10: UInt32, _ p01: UInt32, _ p11: UInt32,
                         _ fx: UInt32, _ fy: UInt32) -> UInt32 {
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

    /// Premultiplied packed pixel from straight `CGColor` components (clamped to [0, 1]),
    /// times `opacity`: `a = round(α·255)`, `c = premultiply(round(c·255), a)`.
    static func premultipliedColor(r: Double, g: Double, b: Double, a: Double) -> UInt32 {
        func q(_ v: Double) -> UInt8 { v.isFinite ? UInt8((min(max(v, 0), 1) * 255).rounded()) : 0 }
        let px = RGBA8(straightR: q(r), g: q(g), b: q(b), a: q(a))
        return px.packed
    }
}

import FlipbookPixels
