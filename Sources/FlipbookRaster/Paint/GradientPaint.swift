import CFlipbookKernels
import Foundation
import FlipbookPixels

/// One colour stop of a gradient: a location (0…1 along the gradient) and a straight
/// (unpremultiplied) sRGB colour with components in 0…1.
public struct GradientStop: Sendable, Hashable {
    public var location: Double
    public var r: Double, g: Double, b: Double, a: Double
    public init(location: Double, r: Double, g: Double, b: Double, a: Double) {
        self.location = location; self.r = r; self.g = g; self.b = b; self.a = a
    }
}

/// A gradient's colours sampled at ``resolution`` evenly spaced positions of `t ∈ [0, 1]`,
/// premultiplied RGBA8 (`RGBA8.packed`).
///
/// **Interpolation.** Between two stops the straight (unpremultiplied) components are
/// interpolated linearly, then premultiplied with ``PixelMath/premultipliedColor(r:g:b:a:)``
/// — as Core Graphics does, so a ramp from opaque red to transparent *black* darkens in the
/// middle exactly as it does on Apple (use a transparent red to fade red out). Before the
/// first stop the first colour holds, after the last the last. Stops are taken in order of
/// location (a stable sort: equal locations keep their order and make a hard edge).
///
/// **Resolution.** 1024 entries: the position is quantized to 1/1023 (round to nearest),
/// finer than the 8-bit output can show along any ramp up to 1023 px per colour unit step.
/// No dithering: every pixel is a pure function of its position, so frames are byte-identical
/// on every run and thread count (banding on very long, very flat ramps is the price).
public struct GradientRamp: Sendable, Equatable {
    public static let resolution = 1024
    /// `resolution` colours, then three more the SIMD path indexes directly: the first colour
    /// (before the start, extended), the last (after the end, extended) and transparent.
    public let table: [UInt32]
    /// Whether every colour a position can select — the ramp and its extended first and last
    /// colours — has alpha 255 (the compositor's occlusion test).
    public let isOpaque: Bool

    /// A ramp from a process-wide cache keyed by the stops (a frame of 200 gradient layers
    /// spent 8 % rebuilding them): at most 512 ramps are kept, all dropped when full. Only
    /// speed depends on it — a ramp is a pure function of its stops.
    public static func cached(_ stops: [GradientStop]) -> GradientRamp {
        _cacheLock.lock(); defer { _cacheLock.unlock() }
        if let r = _cache[stops] { return r }
        let r = GradientRamp(stops: stops)
        if _cache.count >= 512 { _cache.removeAll(keepingCapacity: true) }
        _cache[stops] = r
        return r
    }
    nonisolated(unsafe) private static var _cache: [[GradientStop]: GradientRamp] = [:]
    private static let _cacheLock = NSLock()

    public init(stops unsorted: [GradientStop]) {
        let stops = unsorted.enumerated().sorted { ($0.element.location, $0.offset) < ($1.element.location, $1.offset) }.map(\.element)
        var t = [UInt32](repeating: 0, count: Self.resolution)
        guard let first = stops.first, let last = stops.last else { table = t + [0, 0, 0]; isOpaque = false; return }
        var k = 0
        for i in 0..<Self.resolution {
            let x = Double(i) / Double(Self.resolution - 1)
            let c: (Double, Double, Double, Double)
            if x <= first.location { c = (first.r, first.g, first.b, first.a) }
            else if x >= last.location { c = (last.r, last.g, last.b, last.a) }
            else {
                while k + 1 < stops.count - 1 && stops[k + 1].location <= x { k += 1 }
                while k > 0 && stops[k].location > x { k -= 1 }
                let s0 = stops[k], s1 = stops[k + 1]
                let span = s1.location - s0.location
                let f = span > 0 ? (x - s0.location) / span : 1
                c = (s0.r + (s1.r - s0.r) * f, s0.g + (s1.g - s0.g) * f, s0.b + (s1.b - s0.b) * f, s0.a + (s1.a - s0.a) * f)
            }
            t[i] = PixelMath.premultipliedColor(r: c.0, g: c.1, b: c.2, a: c.3)
        }
        table = t + [t[0], t[Self.resolution - 1], 0]
        isOpaque = t.allSatisfy { $0 >> 24 == 255 }
    }
}

/// A gradient paint: for each device pixel, a position `t` along the gradient, then the ramp's
/// colour at `t` (premultiplied). Knows nothing of layers: the caller gives the map from
/// device pixel centres to **gradient space** `(u, v)`, a homography `m` (row-major 3×3, `U =
/// m0·x + m1·y + m2`, `V = m3·x + …`, `W = m6·x + …`, `u = U/W`, `v = V/W`), chosen so that
///
/// - ``Kind/axial``: `t = u` (start at u = 0, end at u = 1);
/// - ``Kind/radial``: `t = √(u² + v²)` (the unit circle is the end; an ellipse in layer space);
/// - ``Kind/conic``: `t = atan2(v, u) / 2π`, wrapped to `[0, 1)` (the +u axis is t = 0; angles
///   increase from +u towards +v — clockwise on a y-down screen).
/// - ``Kind/twoCircle``: Core Graphics' radial gradient between circle `(c₀, r₀)` at t = 0 and
///   `(c₁, r₁)` at t = 1 (``circles``, gradient-space units): `t` is the largest value with
///   `|p − c(t)| = r(t)`, `r(t) ≥ 0`, inside the drawn range (`[0, 1]`, widened by the extend
///   flags) — PDF's rule; no such `t` paints nothing. Scalar only (no SIMD path).
///
/// Outside `[0, 1]` (axial and radial) the end colours extend when `extendsBefore`/
/// `extendsAfter` are set (`CAGradientLayer`; Core Graphics' `drawsBeforeStartLocation`/
/// `drawsAfterEndLocation`), else nothing is painted there (transparent).
///
/// **Arithmetic.** Float32 throughout, in one fixed order, so the SIMD path (``shade(y:x0:count:into:)``,
/// eight pixels at a time) and the scalar reference (``shadeScalar(y:x0:count:into:)``) give
/// the same bytes (tested over spans 0…67 long): per row `U₀ = m0·(x₀+½) + m1·(y+½) + m2`
/// (likewise `V₀`, `W₀`), per pixel `U = U₀ + i·m0`; `index = Int(t·1023 + ½)`. `atan2` is a
/// polynomial (|error| < 1.2·10⁻⁵ rad, far below one ramp step) evaluated identically in both.
public struct GradientPaint: Sendable {
    public enum Kind: Sendable, Equatable { case axial, radial, conic, twoCircle }
    public var kind: Kind
    public var m: (Float, Float, Float, Float, Float, Float, Float, Float, Float)
    public var ramp: GradientRamp
    public var extendsBefore: Bool
    public var extendsAfter: Bool
    /// `(c₀x, c₀y, r₀, c₁x, c₁y, r₁)` for ``Kind/twoCircle``; zeros otherwise.
    public var circles: (Float, Float, Float, Float, Float, Float) = (0, 0, 0, 0, 0, 0)

    public init(kind: Kind, deviceToGradient m: [Double], ramp: GradientRamp, extendsBefore: Bool = true, extendsAfter: Bool = true) {
        precondition(m.count == 9)
        self.kind = kind
        self.m = (Float(m[0]), Float(m[1]), Float(m[2]), Float(m[3]), Float(m[4]), Float(m[5]), Float(m[6]), Float(m[7]), Float(m[8]))
        self.ramp = ramp; self.extendsBefore = extendsBefore; self.extendsAfter = extendsAfter
    }

    static let last = Float(GradientRamp.resolution - 1)
    static let twoPi: Float = 6.283185307179586
    static let halfPi: Float = 1.5707963267948966
    static let pi: Float = 3.141592653589793

    /// The row's start values `(U₀, V₀, W₀)` at pixel centre `(x0 + ½, y + ½)`.
    @inline(__always)
    public func rowStart(y: Int, x0: Int) -> (Float, Float, Float) { Self.rowStart(m, y: y, x0: x0) }

    /// ``rowStart(y:x0:)`` for a map `m` held elsewhere (painters that keep only plain values).
    @inline(__always)
    public static func rowStart(_ m: (Float, Float, Float, Float, Float, Float, Float, Float, Float),
                                y: Int, x0: Int) -> (Float, Float, Float) {
        let px = Float(x0) + 0.5, py = Float(y) + 0.5
        let u = m.0 * px + m.1 * py + m.2
        let v = m.3 * px + m.4 * py + m.5
        let w = m.6 * px + m.7 * py + m.8
        return (u, v, w)
    }

    // MARK: Scalar reference

    /// `atan2(y, x)` as a polynomial in `a = min/max` (Float; the SIMD path repeats each step).
    @inline(__always)
    static func atan2Scalar(_ y: Float, _ x: Float) -> Float {
        let ax = abs(x), ay = abs(y)
        // max/min written as the SIMD path's selects (the same answer for NaN as well).
        let mx = ay > ax ? ay : ax, mn = ay > ax ? ax : ay
        let a = mx == 0 ? 0 : mn / mx
        let s = a * a
        var r = ((-0.0464964749 * s + 0.15931422) * s - 0.327622764) * s * a + a
        if ay > ax { r = halfPi - r }
        if x < 0 { r = pi - r }
        if y < 0 { r = -r }
        return r
    }

    /// The packed colour for position `t` (NaN → transparent).
    @inline(__always)
    func color(_ t: Float) -> UInt32 {
        if kind == .conic {
            let c = t.isNaN ? 0 : (t < 0 ? 0 : (t > 1 ? 1 : t))
            let i = Int(c * Self.last + 0.5)
            return ramp.table[i]
        }
        if !(t >= 0) { return t.isNaN ? 0 : (extendsBefore ? ramp.table[0] : 0) }
        if t > 1 { return extendsAfter ? ramp.table[GradientRamp.resolution - 1] : 0 }
        return ramp.table[Int(t * Self.last + 0.5)]   // t in [0, 1] here
    }

    /// `t` at one pixel from its gradient-space `(U, V, W)`.
    @inline(__always)
    func position(_ U: Float, _ V: Float, _ W: Float) -> Float {
        let u = U / W, v = V / W
        switch kind {
        case .axial: return u
        case .radial: return (u * u + v * v).squareRoot()
        case .conic:
            var t = Self.atan2Scalar(v, u) * (1 / Self.twoPi)
            if t < 0 { t = t + 1 }
            return t
        case .twoCircle: return twoCircle(u, v)
        }
    }

    /// The two-circle position (see ``Kind/twoCircle``): with `d = c₁ − c₀`, `q = p − c₀`,
    /// `Δr = r₁ − r₀`, solve `a·t² − 2b·t + c = 0` where `a = d·d − Δr²`, `b = q·d + r₀·Δr`,
    /// `c = q·q − r₀²`; keep the largest root with `r(t) ≥ 0` in the drawn range. NaN = none.
    @inline(__always)
    func twoCircle(_ u: Float, _ v: Float) -> Float {
        let (c0x, c0y, r0, c1x, c1y, r1) = circles
        let dx = c1x - c0x, dy = c1y - c0y, dr = r1 - r0
        let qx = u - c0x, qy = v - c0y
        let a = dx * dx + dy * dy - dr * dr
        let b = qx * dx + qy * dy + r0 * dr
        let c = qx * qx + qy * qy - r0 * r0
        let lo: Float = extendsBefore ? -.infinity : 0, hi: Float = extendsAfter ? .infinity : 1
        func ok(_ t: Float) -> Bool { t.isFinite && r0 + t * dr >= 0 && t >= lo && t <= hi }
        if a == 0 {
            guard b != 0 else { return .nan }
            let t = c / (2 * b)
            return ok(t) ? t : .nan
        }
        let disc = b * b - a * c
        guard disc >= 0 else { return .nan }
        let sq = disc.squareRoot()
        let t1 = (b + sq) / a, t2 = (b - sq) / a
        let (big, small) = t1 >= t2 ? (t1, t2) : (t2, t1)
        if ok(big) { return big }
        return ok(small) ? small : .nan
    }

    /// The reference: premultiplied colours of pixels `x0 ..< x0 + count` of row `y` into `out`.
    public func shadeScalar(y: Int, x0: Int, count: Int, into out: UnsafeMutablePointer<UInt32>) {
        let (u0, v0, w0) = rowStart(y: y, x0: x0)
        for i in 0..<count {
            let fi = Float(i)
            out[i] = color(position(u0 + fi * m.0, v0 + fi * m.3, w0 + fi * m.6))
        }
    }

    // MARK: SIMD

    /// Eight pixels at a time, the tail by the scalar code. `.native`: the AVX2 kernel
    /// (`fbk_gradient_avx2`); `.portable`: Swift SIMD. Both repeat the operations of
    /// ``shadeScalar(y:x0:count:into:)`` lane by lane (tested bit for bit).
    public func shade(y: Int, x0: Int, count: Int, into out: UnsafeMutablePointer<UInt32>,
                      backend: RasterBackend = .current) {
        if kind == .twoCircle { shadeScalar(y: y, x0: x0, count: count, into: out); return }
        let (u0, v0, w0) = rowStart(y: y, x0: x0)
        var i = 0
        if backend.effective == .native {
            let code: Int32 = kind == .axial ? 0 : kind == .radial ? 1 : 2
            i = ramp.table.withUnsafeBufferPointer { table in
                fbk_gradient_avx2(out, count, table.baseAddress!, code, u0, v0, w0, m.0, m.3, m.6,
                                  extendsBefore ? 1024 : 1026, extendsAfter ? 1025 : 1026)
            }
        } else {
            i = _shadeSIMD(u0: u0, v0: v0, w0: w0, count: count, into: out)
        }
        for j in i..<max(i, count) {
            let fj = Float(j)
            out[j] = color(position(u0 + fj * m.0, v0 + fj * m.3, w0 + fj * m.6))
        }
    }

    /// The colours of pixels `x0 ..< x0 + count` of row `y` source-over onto `dst` (pixel `x0`
    /// at `dst[0]`) with `opacity` and the optional per-pixel `coverage`: the bytes of
    /// ``shade(y:x0:count:into:backend:)`` followed by `SpanBlend.sourceOver`. `.native` fuses
    /// the two (`fbk_gradient_over_avx2`: no colour buffer, and opaque fully covered blocks are
    /// stored without reading `dst`); otherwise the two steps in chunks of 256.
    public func shadeOver(y: Int, x0: Int, count: Int, onto dst: UnsafeMutablePointer<UInt32>, opacity: UInt8 = 255,
                          coverage: UnsafePointer<UInt8>? = nil, backend: RasterBackend = .current) {
        guard count > 0, opacity > 0 else { return }
        if backend.effective == .native && kind != .twoCircle {
            _shadeOverNative(y: y, x0: x0, count: count, onto: dst, opacity: opacity, coverage: coverage,
                             avx512: RasterBackend.avx512Available)
            return
        }
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 256) { buf in
            var i = 0
            while i < count {
                let n = min(256, count - i)
                shade(y: y, x0: x0 + i, count: n, into: buf.baseAddress!, backend: backend)
                SpanBlend.sourceOver(dst + i, source: buf.baseAddress!, count: n, opacity: opacity,
                                     coverage: coverage.map { $0 + i }, backend: backend)
                i += n
            }
        }
    }

    /// `shadeOver` through the fused kernel: its AVX-512 build (`fbk_gradient_over_avx512vl`)
    /// or the AVX2 one (the tests run both where the CPU has AVX-512). Not for `.twoCircle`.
    func _shadeOverNative(y: Int, x0: Int, count: Int, onto dst: UnsafeMutablePointer<UInt32>, opacity: UInt8,
                          coverage: UnsafePointer<UInt8>?, avx512: Bool) {
        let (u0, v0, w0) = rowStart(y: y, x0: x0)
        let code: Int32 = kind == .axial ? 0 : kind == .radial ? 1 : 2
        let before: Int32 = extendsBefore ? 1024 : 1026, after: Int32 = extendsAfter ? 1025 : 1026
        ramp.table.withUnsafeBufferPointer { table in
            if avx512 {
                fbk_gradient_over_avx512vl(dst, coverage, UInt32(opacity), count, table.baseAddress!, code, u0, v0, w0,
                                           m.0, m.3, m.6, before, after)
            } else {
                fbk_gradient_over_avx2(dst, coverage, UInt32(opacity), count, table.baseAddress!, code, u0, v0, w0,
                                       m.0, m.3, m.6, before, after)
            }
        }
    }

    /// The portable eight-wide path; returns how many pixels it wrote (whole blocks of 8).
    func _shadeSIMD(u0: Float, v0: Float, w0: Float, count: Int, into out: UnsafeMutablePointer<UInt32>) -> Int {
        typealias F = SIMD8<Float>
        let lane = F(0, 1, 2, 3, 4, 5, 6, 7)
        let last = F(repeating: Self.last)
        let before: Float = extendsBefore ? 1024 : 1026, after: Float = extendsAfter ? 1025 : 1026
        var i = 0
        ramp.table.withUnsafeBufferPointer { table in
            while i + 8 <= count {
                let fi = F(repeating: Float(i)) + lane
                let U = F(repeating: u0) + fi * m.0, V = F(repeating: v0) + fi * m.3, W = F(repeating: w0) + fi * m.6
                let u = U / W, v = V / W
                var t: F
                switch kind {
                case .axial: t = u
                case .radial: t = (u * u + v * v).squareRoot()
                case .twoCircle: t = u   // not reached (scalar above)
                case .conic:
                    // |u|, |v| (a −0 stays −0: only the sign of a zero differs from `abs`, which
                    // changes no comparison below and no ramp index).
                    let ax = u.replacing(with: -u, where: u .< 0), ay = v.replacing(with: -v, where: v .< 0)
                    let mx = ax.replacing(with: ay, where: ay .> ax), mn = ay.replacing(with: ax, where: ay .> ax)
                    let a = (mn / mx).replacing(with: 0, where: mx .== 0)
                    let s = a * a
                    var r = ((-0.0464964749 * s + 0.15931422) * s - 0.327622764) * s * a + a
                    r = r.replacing(with: Self.halfPi - r, where: ay .> ax)
                    r = r.replacing(with: Self.pi - r, where: u .< 0)
                    r = r.replacing(with: -r, where: v .< 0)
                    t = r * (1 / Self.twoPi)
                    t = t.replacing(with: t + 1, where: t .< 0)
                }
                // The table index of each lane, all by selects (the generic pointwiseMin/Max and
                // Float → Int32 vector conversions were most of the time in a profile): inside
                // [0, 1] `trunc(t·1023 + ½)`; before/after the extra entries (1024: first colour,
                // 1025: last, 1026: transparent); NaN transparent (conic: index 0).
                var clamped = t.replacing(with: 0, where: t .!= t)
                clamped = clamped.replacing(with: 0, where: clamped .< 0)
                clamped = clamped.replacing(with: 1, where: clamped .> 1)
                var index = (clamped * last + 0.5).rounded(.towardZero)
                if kind != .conic {
                    index = index.replacing(with: before, where: t .< 0)
                    index = index.replacing(with: after, where: t .> 1)
                    index = index.replacing(with: 1026, where: t .!= t)
                }
                // Exact small integers as floats → their bits: x + 2²³ has x in its low 23 bits.
                let bits = unsafeBitCast(index + 8_388_608, to: SIMD8<UInt32>.self) & 0x7F_FFFF
                for k in 0..<8 { out[i + k] = table[Int(bits[k])] }
                i += 8
            }
        }
        return i
    }
}
