/// The blend modes and compositing operators written out independently, in floating point, from
/// their definitions — the W3C Compositing and Blending Level 1 specification (§5.1 the
/// composite, §5.3–5.8 the blend functions, §9 Porter–Duff) and Core Graphics' plusDarker —
/// for tests to compare the integer kernels against (which round once: within one level).
///
/// Colours are premultiplied `[r, g, b, a]` in 0…1; the result is not clamped.
public enum BlendReference {
    /// The modes by their Core Graphics names.
    public enum Mode: String, CaseIterable, Sendable {
        case normal, multiply, screen, overlay, darken, lighten, colorDodge, colorBurn, softLight, hardLight
        case difference, exclusion, hue, saturation, color, luminosity
        case clear, copy, sourceIn, sourceOut, sourceAtop, destinationOver, destinationIn, destinationOut
        case destinationAtop, xor, plusDarker, plusLighter
    }

    /// `S` composited onto `D` with `mode`.
    public static func composite(_ S: [Double], onto D: [Double], _ mode: Mode) -> [Double] {
        let sa = S[3], da = D[3]
        func pd(_ fa: Double, _ fb: Double) -> [Double] { (0..<4).map { S[$0] * fa + D[$0] * fb } }
        // co = cs·(1 − αb) + cb·(1 − αs) + αs·αb·B(Cb, Cs), B on straight colours.
        func blended(_ b: [Double]) -> [Double] {
            var out: [Double] = []
            for i in 0..<3 {
                let kept: Double = S[i] * (1 - da) + D[i] * (1 - sa)
                out.append(kept + sa * da * b[i])
            }
            return out + [sa + da - sa * da]
        }
        let cs = straight(S), cb = straight(D)
        func separable(_ B: (Double, Double) -> Double) -> [Double] { blended((0..<3).map { B(cb[$0], cs[$0]) }) }
        switch mode {
        case .normal: return pd(1, 1 - sa)
        case .clear: return [0, 0, 0, 0]
        case .copy: return pd(1, 0)
        case .sourceIn: return pd(da, 0)
        case .sourceOut: return pd(1 - da, 0)
        case .sourceAtop: return pd(da, 1 - sa)
        case .destinationOver: return pd(1 - da, 1)
        case .destinationIn: return pd(0, sa)
        case .destinationOut: return pd(0, 1 - sa)
        case .destinationAtop: return pd(1 - da, sa)
        case .xor: return pd(1 - da, 1 - sa)
        case .plusLighter: return (0..<4).map { min(1, S[$0] + D[$0]) }
        case .plusDarker:
            let ra = min(1, sa + da)
            return (0..<3).map { max(0, ra - (da - D[$0]) - (sa - S[$0])) } + [ra]
        case .multiply: return separable { $0 * $1 }
        case .screen: return separable(screen)
        case .darken: return separable { min($0, $1) }
        case .lighten: return separable { max($0, $1) }
        case .difference: return separable { abs($0 - $1) }
        case .exclusion: return separable { $0 + $1 - 2 * $0 * $1 }
        case .hardLight: return separable(hardLight)
        case .overlay: return separable { b, s in hardLight(s, b) }
        case .colorDodge: return separable { b, s in b == 0 ? 0 : s == 1 ? 1 : min(1, b / (1 - s)) }
        case .colorBurn: return separable { b, s in b == 1 ? 1 : s == 0 ? 0 : 1 - min(1, (1 - b) / s) }
        case .softLight:
            return separable { b, s in
                if s <= 0.5 { return b - (1 - 2 * s) * b * (1 - b) }
                let d = b <= 0.25 ? ((16 * b - 12) * b + 4) * b : b.squareRoot()
                return b + (2 * s - 1) * (d - b)
            }
        case .hue: return blended(setLum(setSat(cs, sat(cb)), lum(cb)))
        case .saturation: return blended(setLum(setSat(cb, sat(cs)), lum(cb)))
        case .color: return blended(setLum(cs, lum(cb)))
        case .luminosity: return blended(setLum(cb, lum(cs)))
        }
    }

    static func straight(_ c: [Double]) -> [Double] { (0..<3).map { c[3] > 0 ? c[$0] / c[3] : 0 } }
    static func screen(_ b: Double, _ s: Double) -> Double { b + s - b * s }
    static func hardLight(_ b: Double, _ s: Double) -> Double { s <= 0.5 ? b * 2 * s : screen(b, 2 * s - 1) }
    static func lum(_ c: [Double]) -> Double { 0.3 * c[0] + 0.59 * c[1] + 0.11 * c[2] }
    static func sat(_ c: [Double]) -> Double { c.max()! - c.min()! }

    /// SetLum then ClipColor (§5.8).
    static func setLum(_ c: [Double], _ l: Double) -> [Double] {
        let d = l - lum(c)
        var c = c.map { $0 + d }
        let L = lum(c), n = c.min()!, x = c.max()!
        if n < 0 { c = c.map { L + ($0 - L) * L / (L - n) } }
        if x > 1 { c = c.map { L + ($0 - L) * (1 - L) / (x - L) } }
        return c
    }

    /// SetSat as the specification writes it: the channels sorted, the largest set to `s`, the
    /// middle one scaled, the smallest 0.
    static func setSat(_ c: [Double], _ s: Double) -> [Double] {
        let order = (0..<3).sorted { c[$0] < c[$1] }
        let (lo, mid, hi) = (order[0], order[1], order[2])
        var out = [0.0, 0, 0]
        if c[hi] > c[lo] {
            out[mid] = (c[mid] - c[lo]) * s / (c[hi] - c[lo])
            out[hi] = s
        }
        return out
    }
}
