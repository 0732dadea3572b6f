import FlipbookPixels

/// Blend modes beyond source-over, for `CGContext` drawing: the Porter–Duff operators and the
/// separable W3C / PDF blend modes, per pixel on **premultiplied** 8-bit colour.
///
/// Notation: `S`, `D` are source and destination channels (colour premultiplied, or alpha),
/// `Sa`, `Da` the alphas, all in 0…255 standing for 0…1. Every mode computes one integer
/// numerator `N` in units of 1/255² per channel and rounds **once**:
///
///     R = div255(clamp(N, 0, 255·255))                        (THE rounding rule, docs/rounding.md)
///
/// | mode | N (colour channel; alpha channel uses the same with S = Sa, D = Da unless noted) |
/// |---|---|
/// | clear | 0 |
/// | copy | S·255 |
/// | sourceIn | S·Da |
/// | sourceOut | S·(255 − Da) |
/// | sourceAtop | S·Da + D·(255 − Sa) |
/// | destinationOver | D·255 + S·(255 − Da) |
/// | destinationIn | D·Sa |
/// | destinationOut | D·(255 − Sa) |
/// | destinationAtop | D·Sa + S·(255 − Da) |
/// | xor | S·(255 − Da) + D·(255 − Sa) |
/// | plusLighter | (S + D)·255 (saturates at 255) |
/// | plusDarker | alpha: (Sa + Da)·255 saturated → Ra; colour: (Ra − (Da − D) − (Sa − S))·255, ≥ 0 |
///
/// Separable modes (W3C Compositing and Blending Level 1, premultiplied form): alpha
/// `N = (Sa + Da)·255 − Sa·Da` (source-over's), colour `N = S·(255 − Da) + D·(255 − Sa) + B` with
///
/// | mode | B |
/// |---|---|
/// | multiply | S·D |
/// | screen | S·Da + D·Sa − S·D |
/// | darken | min(S·Da, D·Sa) |
/// | lighten | max(S·Da, D·Sa) |
/// | difference | S·Da + D·Sa − 2·min(S·Da, D·Sa) |
/// | exclusion | S·Da + D·Sa − 2·S·D |
/// | hardLight | 2·S ≤ Sa ? 2·S·D : Sa·Da − 2·(Da − D)·(Sa − S) |
/// | overlay | 2·D ≤ Da ? 2·S·D : Sa·Da − 2·(Da − D)·(Sa − S) |
///
/// The other W3C modes — colorDodge, colorBurn, softLight (a division or a square root) and the
/// non-separable hue, saturation, color, luminosity — use the same composite with
/// `B = Sa·Da·B(Cb, Cs)` computed in `Double` on the straight colours `Cs = S/Sa`, `Cb = D/Da`
/// (``BlendModes/blendFloat(_:_:mode:)``, formulas there), and round once to nearest: the exact
/// value up to the `Double` evaluation's ~1e-13, far below the half level.
///
/// `normal` (source-over) is ``PixelMath/over(_:_:)``: `R = min(255, S + div255(D·(255 − Sa)))`,
/// the compositor's rule, so a normal-mode draw here has the bytes of every other source-over.
///
/// Coverage `m` (shape antialiasing × clip) applies after the mode, as a lerp with the
/// destination: `out = div255(R·m + D·(255 − m))` per channel (so `copy`, `clear`, `sourceIn`…
/// act only inside the shape, as in Core Graphics). For `normal` the source is scaled instead,
/// `out = over(scale(S, m), D)` — the same value up to rounding, and SpanBlend's bytes.
public enum RasterBlendMode: Sendable, Hashable, CaseIterable {
    case normal, multiply, screen, overlay, darken, lighten, hardLight, difference, exclusion
    case clear, copy, sourceIn, sourceOut, sourceAtop, destinationOver, destinationIn, destinationOut,
         destinationAtop, xor, plusDarker, plusLighter
    /// Computed in floating point (``BlendModes/blendFloat(_:_:mode:)``).
    case colorDodge, colorBurn, softLight, hue, saturation, color, luminosity

    /// Whether a transparent source leaves the destination as it is (`blend(0, D) == D`): every
    /// mode but clear, copy, sourceIn, sourceOut, destinationIn and destinationAtop, which
    /// clear the destination where the source is transparent. A compositor that applies an
    /// **unbounded** mode to a group must apply it over the whole backdrop, not only where the
    /// group drew.
    @inlinable
    public var isBounded: Bool {
        switch self {
        case .clear, .copy, .sourceIn, .sourceOut, .destinationIn, .destinationAtop: return false
        default: return true
        }
    }

    /// Whether the mode is computed in floating point (``BlendModes/blendFloat(_:_:mode:)``).
    @inlinable
    var isFloat: Bool {
        switch self {
        case .colorDodge, .colorBurn, .softLight, .hue, .saturation, .color, .luminosity: return true
        default: return false
        }
    }
}

public enum BlendModes {
    /// One premultiplied pixel `s` blended onto `d` with `mode` (no coverage). Packed
    /// `0xAABBGGRR` (``RGBA8/packed``).
    @inlinable
    public static func blend(_ s: UInt32, _ d: UInt32, mode: RasterBlendMode) -> UInt32 {
        if mode == .normal { return PixelMath.over(s, d) }
        if mode.isFloat { return blendFloat(s, d, mode: mode) }
        let sa = Int(s >> 24), da = Int(d >> 24)
        var out: UInt32 = 0
        for shift in stride(from: 0, through: 24, by: 8) {
            let sc = Int((s >> UInt32(shift)) & 0xFF), dc = Int((d >> UInt32(shift)) & 0xFF)
            let isAlpha = shift == 24
            let n = numerator(sc, dc, sa, da, isAlpha: isAlpha, mode: mode)
            out |= PixelRounding.div255(UInt32(min(max(n, 0), 255 * 255))) << UInt32(shift)
        }
        return out
    }

    /// `N` of the table above for one channel.
    @inlinable
    static func numerator(_ s: Int, _ d: Int, _ sa: Int, _ da: Int, isAlpha: Bool, mode: RasterBlendMode) -> Int {
        switch mode {
        case .normal: return s * 255 + d * (255 - sa)
        case .clear: return 0
        case .copy: return s * 255
        case .sourceIn: return s * da
        case .sourceOut: return s * (255 - da)
        case .sourceAtop: return s * da + d * (255 - sa)
        case .destinationOver: return d * 255 + s * (255 - da)
        case .destinationIn: return d * sa
        case .destinationOut: return d * (255 - sa)
        case .destinationAtop: return d * sa + s * (255 - da)
        case .xor: return s * (255 - da) + d * (255 - sa)
        case .plusLighter: return (s + d) * 255
        case .plusDarker:
            let ra = min(255, sa + da)
            if isAlpha { return ra * 255 }
            return max(0, ra - (da - d) - (sa - s)) * 255
        default: break
        }
        if isAlpha { return (sa + da) * 255 - sa * da }
        let base = s * (255 - da) + d * (255 - sa)
        let b: Int
        switch mode {
        case .multiply: b = s * d
        case .screen: b = s * da + d * sa - s * d
        case .darken: b = min(s * da, d * sa)
        case .lighten: b = max(s * da, d * sa)
        case .difference: b = s * da + d * sa - 2 * min(s * da, d * sa)
        case .exclusion: b = s * da + d * sa - 2 * s * d
        case .hardLight: b = 2 * s <= sa ? 2 * s * d : sa * da - 2 * (da - d) * (sa - s)
        case .overlay: b = 2 * d <= da ? 2 * s * d : sa * da - 2 * (da - d) * (sa - s)
        default: b = 0
        }
        return base + b
    }

    /// `blend` then the coverage lerp `out = div255(R·m + D·(255 − m))` (normal: `over(scale(S, m), D)`).
    @inlinable
    public static func blend(_ s: UInt32, _ d: UInt32, mode: RasterBlendMode, coverage m: UInt8) -> UInt32 {
        if m == 0 { return d }
        if mode == .normal { return PixelMath.over(m == 255 ? s : PixelMath.scale(s, UInt32(m)), d) }
        let r = blend(s, d, mode: mode)
        if m == 255 { return r }
        let k = UInt32(m), ik = 255 - k
        var out: UInt32 = 0
        for shift in stride(from: UInt32(0), through: 24, by: 8) {
            let rc = (r >> shift) & 0xFF, dc = (d >> shift) & 0xFF
            out |= PixelRounding.div255(rc * k + dc * ik) << shift
        }
        return out
    }

    /// Blends `count` source pixels onto `dst` (coverage per pixel, or 255 when nil).
    @inlinable
    public static func blendSpan(_ dst: UnsafeMutablePointer<UInt32>, source: UnsafePointer<UInt32>, count: Int,
                                 coverage: UnsafePointer<UInt8>?, mode: RasterBlendMode) {
        for i in 0..<count {
            dst[i] = blend(source[i], dst[i], mode: mode, coverage: coverage?[i] ?? 255)
        }
    }
}
