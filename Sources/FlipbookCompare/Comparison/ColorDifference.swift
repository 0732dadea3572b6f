#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import FlipbookPixels
import Foundation

/// The perceptual difference between two premultiplied pixels, as used by
/// ``Tolerance/perceptual(_:)``.
///
/// ## Definition
/// 1. Each pixel is composited over **opaque black** and over **opaque white**. On premultiplied
///    bytes this is exact integer arithmetic: over black the colour is `c'`, over white it is
///    `c' + (255 − a)`. Using both backgrounds makes alpha count: a transparent pixel and an
///    opaque white one agree over white but not over black.
/// 2. Each composited colour is read as **sRGB** (IEC 61966-2-1 transfer function), converted to
///    linear RGB, to CIE XYZ (sRGB primaries, D65) and to **CIELAB** (D65 white
///    `Xn = 0.95047, Yn = 1, Zn = 1.08883`).
/// 3. The difference over one background is **CIEDE2000** ΔE₀₀ with `kL = kC = kH = 1`
///    (Sharma, Wu & Dalal 2005). The pixel's ΔE is the **larger** of the two backgrounds.
///
/// ΔE₀₀ ≈ 1 is a just-noticeable difference; anti-aliasing that moves an edge by a fraction of
/// a pixel typically changes edge pixels by well under 1 ΔE per 1/255 of coverage change, so a
/// threshold of 1–2 ignores rounding noise while catching any visible colour change.
public enum ColorDifference {
    /// A CIELAB colour (L in 0...100).
    public struct Lab: Sendable, Hashable {
        public var l: Double, a: Double, b: Double
        public init(l: Double, a: Double, b: Double) { self.l = l; self.a = a; self.b = b }
    }

    /// `sRGB byte → linear` for every byte value.
    @usableFromInline
    static let _linear: [Double] = (0..<256).map { i in
        let c = Double(i) / 255
        return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
    }

    /// CIELAB of an opaque sRGB colour given as bytes.
    public static func lab(r: UInt8, g: UInt8, b: UInt8) -> Lab {
        let lr = _linear[Int(r)], lg = _linear[Int(g)], lb = _linear[Int(b)]
        let x = (0.4124564 * lr + 0.3575761 * lg + 0.1804375 * lb) / 0.95047
        let y = (0.2126729 * lr + 0.7151522 * lg + 0.0721750 * lb) / 1.0
        let z = (0.0193339 * lr + 0.1191920 * lg + 0.9503041 * lb) / 1.08883
        // f(t) = ∛t above (6/29)³, else the linear segment t / (3·(6/29)²) + 4/29.
        func f(_ t: Double) -> Double {
            t > 216.0 / 24389.0 ? cbrt(t) : t * (841.0 / 108.0) + 4.0 / 29.0
        }
        let fx = f(x), fy = f(y), fz = f(z)
        return Lab(l: 116 * fy - 16, a: 500 * (fx - fy), b: 200 * (fy - fz))
    }

    /// CIEDE2000 ΔE₀₀ between two CIELAB colours (`kL = kC = kH = 1`).
    public static func ciede2000(_ p: Lab, _ q: Lab) -> Double {
        let deg = Double.pi / 180
        let pow25_7 = 6_103_515_625.0  // 25⁷
        let c1 = (p.a * p.a + p.b * p.b).squareRoot(), c2 = (q.a * q.a + q.b * q.b).squareRoot()
        let cBar = (c1 + c2) / 2
        let cBar7 = pow(cBar, 7)
        let g = 0.5 * (1 - (cBar7 / (cBar7 + pow25_7)).squareRoot())
        let a1 = (1 + g) * p.a, a2 = (1 + g) * q.a
        let c1p = (a1 * a1 + p.b * p.b).squareRoot(), c2p = (a2 * a2 + q.b * q.b).squareRoot()
        func hue(_ b: Double, _ a: Double) -> Double {
            if a == 0 && b == 0 { return 0 }
            let h = atan2(b, a) / deg
            return h < 0 ? h + 360 : h
        }
        let h1 = hue(p.b, a1), h2 = hue(q.b, a2)

        let dL = q.l - p.l
        let dC = c2p - c1p
        var dh = 0.0
        if c1p * c2p != 0 {
            dh = h2 - h1
            if dh > 180 { dh -= 360 } else if dh < -180 { dh += 360 }
        }
        let dH = 2 * (c1p * c2p).squareRoot() * sin(dh * deg / 2)

        let lBar = (p.l + q.l) / 2
        let cBarP = (c1p + c2p) / 2
        var hBar = h1 + h2
        if c1p * c2p != 0 {
            if abs(h1 - h2) <= 180 { hBar = (h1 + h2) / 2 }
            else if h1 + h2 < 360 { hBar = (h1 + h2 + 360) / 2 }
            else { hBar = (h1 + h2 - 360) / 2 }
        }
        let t = 1 - 0.17 * cos((hBar - 30) * deg) + 0.24 * cos(2 * hBar * deg)
            + 0.32 * cos((3 * hBar + 6) * deg) - 0.20 * cos((4 * hBar - 63) * deg)
        let dTheta = 30 * exp(-((hBar - 275) / 25) * ((hBar - 275) / 25))
        let cBarP7 = pow(cBarP, 7)
        let rC = 2 * (cBarP7 / (cBarP7 + pow25_7)).squareRoot()
        let l50 = (lBar - 50) * (lBar - 50)
        let sL = 1 + 0.015 * l50 / (20 + l50).squareRoot()
        let sC = 1 + 0.045 * cBarP
        let sH = 1 + 0.015 * cBarP * t
        let rT = -sin(2 * dTheta * deg) * rC
        let l = dL / sL, c = dC / sC, h = dH / sH
        return max(0, l * l + c * c + h * h + rT * c * h).squareRoot()
    }

    /// The ΔE of two premultiplied pixels: the larger CIEDE2000 difference over black and over white.
    public static func deltaE(_ p: RGBA8, _ q: RGBA8) -> Double {
        if p == q { return 0 }
        let overBlack = ciede2000(lab(r: p.r, g: p.g, b: p.b), lab(r: q.r, g: q.g, b: q.b))
        let pw = 255 - p.a, qw = 255 - q.a  // c' + (255 − a) ≤ 255 for premultiplied pixels
        let overWhite = ciede2000(
            lab(r: _sat(p.r, pw), g: _sat(p.g, pw), b: _sat(p.b, pw)),
            lab(r: _sat(q.r, qw), g: _sat(q.g, qw), b: _sat(q.b, qw)))
        return max(overBlack, overWhite)
    }

    /// CIE94 ΔE\*₉₄ between a reference and a sample colour, with the graphic-arts weights
    /// (`kL = kC = kH = 1`, `K1 = 0.045`, `K2 = 0.015`) — the difference Core Image's
    /// `CILabDeltaE` reports, and so the one swift-snapshot-testing's `perceptualPrecision`
    /// thresholds on Apple platforms.
    ///
    ///     ΔE94 = √( (ΔL / SL)² + (ΔC / SC)² + (ΔH / SH)² ),
    ///     SL = 1, SC = 1 + K1·C₁, SH = 1 + K2·C₁, ΔH² = Δa² + Δb² − ΔC²
    ///
    /// where `C₁` is the chroma of `reference`: CIE94 is not symmetric, and the reference is
    /// the first argument (as `CILabDeltaE`'s first input image is the reference).
    public static func cie94(_ reference: Lab, _ sample: Lab) -> Double {
        let c1 = (reference.a * reference.a + reference.b * reference.b).squareRoot()
        let c2 = (sample.a * sample.a + sample.b * sample.b).squareRoot()
        let dL = reference.l - sample.l
        let dC = c1 - c2
        let da = reference.a - sample.a, db = reference.b - sample.b
        let dH2 = max(0, da * da + db * db - dC * dC)  // rounding can make it a hair negative
        let sC = 1 + 0.045 * c1, sH = 1 + 0.015 * c1
        return (dL * dL + (dC / sC) * (dC / sC) + dH2 / (sH * sH)).squareRoot()
    }

    /// The CIE94 ΔE of two premultiplied pixels (`reference` first): the larger ``cie94(_:_:)``
    /// difference over opaque black and over opaque white (as ``deltaE(_:_:)`` does for
    /// CIEDE2000). For opaque pixels both backgrounds give the same value, which is Core Image's
    /// `CILabDeltaE` of the two colours; over black alone a transparent pixel and an opaque
    /// black one would not differ at all.
    public static func deltaE94(_ reference: RGBA8, _ sample: RGBA8) -> Double {
        if reference == sample { return 0 }
        let p = reference, q = sample
        let overBlack = cie94(lab(r: p.r, g: p.g, b: p.b), lab(r: q.r, g: q.g, b: q.b))
        if p.a == 255 && q.a == 255 { return overBlack }
        let pw = 255 - p.a, qw = 255 - q.a
        let overWhite = cie94(
            lab(r: _sat(p.r, pw), g: _sat(p.g, pw), b: _sat(p.b, pw)),
            lab(r: _sat(q.r, qw), g: _sat(q.g, qw), b: _sat(q.b, qw)))
        return max(overBlack, overWhite)
    }

    /// `c + w`, saturating (only non-premultiplied input can overflow).
    @inline(__always) static func _sat(_ c: UInt8, _ w: UInt8) -> UInt8 {
        let (s, o) = c.addingReportingOverflow(w)
        return o ? 255 : s
    }
}

/// `log10` from the C library (kept here so every libm import lives in one file).
@inline(__always) func _libmLog10(_ x: Double) -> Double { log10(x) }
