import FlipbookPixels

/// The W3C blend modes that divide or take a square root (colorDodge, colorBurn, softLight) and
/// the non-separable ones (hue, saturation, color, luminosity), from the W3C Compositing and
/// Blending Level 1 specification, §5.1 (the composite) and §5.3–5.8 (the blend functions).
///
/// The composite, on premultiplied `cs`, `cb` (0…1) with alphas `αs`, `αb` and the straight
/// colours `Cs = cs/αs`, `Cb = cb/αb` (0 where the alpha is 0: that term is multiplied by it):
///
///     co = cs·(1 − αb) + cb·(1 − αs) + αs·αb·B(Cb, Cs)
///     αo = αs + αb − αs·αb
///
/// In bytes (`S`, `D`, `Sa`, `Da` in 0…255): every colour channel is
/// `round((S·(255 − Da) + D·(255 − Sa) + Sa·Da·B) / 255)`, evaluated in `Double` and rounded once
/// to nearest, clamped to 0…255; the alpha is the integer `div255((Sa + Da)·255 − Sa·Da)` of the
/// separable modes. `co ≤ αo` holds for the exact values and rounding is monotonic, so the
/// result stays a valid premultiplied pixel.
///
/// Blend functions (per channel for the separable ones, `Cb` the backdrop, `Cs` the source):
///
///     colorDodge  Cb = 0 ? 0 : Cs = 1 ? 1 : min(1, Cb / (1 − Cs))
///     colorBurn   Cb = 1 ? 1 : Cs = 0 ? 0 : 1 − min(1, (1 − Cb) / Cs)
///     softLight   Cs ≤ ½ ? Cb − (1 − 2·Cs)·Cb·(1 − Cb)
///                        : Cb + (2·Cs − 1)·(D(Cb) − Cb),  D(x) = x ≤ ¼ ? ((16x − 12)·x + 4)·x : √x
///
/// Non-separable (on the colour as a whole; `Lum(C) = 0.3·R + 0.59·G + 0.11·B`, `Sat(C) =
/// max − min`):
///
///     hue         SetLum(SetSat(Cs, Sat(Cb)), Lum(Cb))
///     saturation  SetLum(SetSat(Cb, Sat(Cs)), Lum(Cb))
///     color       SetLum(Cs, Lum(Cb))
///     luminosity  SetLum(Cb, Lum(Cs))
///
///     SetLum(C, l)   C + (l − Lum(C)), then ClipColor
///     ClipColor(C)   L = Lum(C), n = min, x = max:
///                    n < 0 ⇒ C = L + (C − L)·L / (L − n);  x > 1 ⇒ C = L + (C − L)·(1 − L) / (x − L)
///     SetSat(C, s)   max − min > 0 ? (C − min)·s / (max − min) : 0   (per channel: max ↦ s, min ↦ 0)
extension BlendModes {
    /// One premultiplied pixel `s` onto `d` with one of the floating-point modes (see above).
    @inlinable
    static func blendFloat(_ s: UInt32, _ d: UInt32, mode: RasterBlendMode) -> UInt32 {
        let sa = s >> 24, da = d >> 24
        let alpha = PixelRounding.div255((sa + da) &* 255 &- sa &* da)
        let S = SIMD3<Double>(Double(s & 0xFF), Double((s >> 8) & 0xFF), Double((s >> 16) & 0xFF))
        let D = SIMD3<Double>(Double(d & 0xFF), Double((d >> 8) & 0xFF), Double((d >> 16) & 0xFF))
        let fsa = Double(sa), fda = Double(da)
        let one = SIMD3<Double>(repeating: 1)
        // Straight colours (clamped: an invalid premultiplied channel above its alpha reads as 1).
        let cs = sa == 0 ? SIMD3<Double>.zero : pointwiseMin(S / fsa, one)
        let cb = da == 0 ? SIMD3<Double>.zero : pointwiseMin(D / fda, one)
        let b: SIMD3<Double>
        switch mode {
        case .colorDodge: b = SIMD3(colorDodge(cb.x, cs.x), colorDodge(cb.y, cs.y), colorDodge(cb.z, cs.z))
        case .colorBurn: b = SIMD3(colorBurn(cb.x, cs.x), colorBurn(cb.y, cs.y), colorBurn(cb.z, cs.z))
        case .softLight: b = SIMD3(softLight(cb.x, cs.x), softLight(cb.y, cs.y), softLight(cb.z, cs.z))
        case .hue: b = setLum(setSat(cs, sat(cb)), lum(cb))
        case .saturation: b = setLum(setSat(cb, sat(cs)), lum(cb))
        case .color: b = setLum(cs, lum(cb))
        default: b = setLum(cb, lum(cs))          // luminosity
        }
        let v = (S * (255 - fda) + D * (255 - fsa) + (fsa * fda) * b) / 255
        return channel(v.x) | (channel(v.y) << 8) | (channel(v.z) << 16) | (alpha << 24)
    }

    /// `round(v)` clamped to 0…255 (NaN, impossible for byte inputs, gives 0).
    @inlinable @inline(__always)
    static func channel(_ v: Double) -> UInt32 {
        let r = v.rounded(.toNearestOrAwayFromZero)
        return r >= 255 ? 255 : r > 0 ? UInt32(r) : 0
    }

    @inlinable @inline(__always)
    static func colorDodge(_ cb: Double, _ cs: Double) -> Double {
        if cb == 0 { return 0 }
        if cs >= 1 { return 1 }
        return min(1, cb / (1 - cs))
    }

    @inlinable @inline(__always)
    static func colorBurn(_ cb: Double, _ cs: Double) -> Double {
        if cb >= 1 { return 1 }
        if cs == 0 { return 0 }
        return 1 - min(1, (1 - cb) / cs)
    }

    @inlinable @inline(__always)
    static func softLight(_ cb: Double, _ cs: Double) -> Double {
        if cs <= 0.5 { return cb - (1 - 2 * cs) * cb * (1 - cb) }
        let d = cb <= 0.25 ? ((16 * cb - 12) * cb + 4) * cb : cb.squareRoot()
        return cb + (2 * cs - 1) * (d - cb)
    }

    @inlinable @inline(__always)
    static func lum(_ c: SIMD3<Double>) -> Double { 0.3 * c.x + 0.59 * c.y + 0.11 * c.z }

    @inlinable @inline(__always)
    static func sat(_ c: SIMD3<Double>) -> Double { c.max() - c.min() }

    @inlinable @inline(__always)
    static func clipColor(_ c: SIMD3<Double>) -> SIMD3<Double> {
        let l = lum(c), n = c.min(), x = c.max()
        var c = c
        if n < 0, l - n > 0 { c = l + (c - l) * (l / (l - n)) }
        if x > 1, x - l > 0 { c = l + (c - l) * ((1 - l) / (x - l)) }
        return c
    }

    @inlinable @inline(__always)
    static func setLum(_ c: SIMD3<Double>, _ l: Double) -> SIMD3<Double> {
        clipColor(c + (l - lum(c)))
    }

    @inlinable @inline(__always)
    static func setSat(_ c: SIMD3<Double>, _ s: Double) -> SIMD3<Double> {
        let n = c.min(), range = c.max() - n
        guard range > 0 else { return .zero }
        return (c - n) * (s / range)
    }
}
