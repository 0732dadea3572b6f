import CFlipbookKernels

/// Fused image span samplers: for each destination pixel of a span, sample the source image,
/// multiply by opacity (and coverage), and source-over onto the destination, in one pass
/// (no temporary buffer).
///
/// Sampling rule (docs/kernels.md): destination pixel centre (x+0.5, y+0.5)
/// maps through the inverse transform to (u, v); bilinear filtering interpolates the four texels
/// around (u − 0.5, v − 0.5) with 8-bit weights. Then, per channel,
///
///     k = coverage == nil ? opacity : div255(opacity · coverage[i])
///     Sca' = div255(S · k);  Dca' = min(255, Sca' + div255(Dca · (255 − Sa')))
///
/// Spans: `row` points at pixel x = 0 of destination row `y`; pixels `[x0, x1)` are drawn;
/// `coverage[i]` (if given) belongs to pixel `x0 + i`. A pixel's result depends only on
/// (x, y), never on how a row is split into spans or a frame into bands.
public enum ImageSampler {
    /// Fixed-point scale of the affine coordinates (32.32, Int64).
    @usableFromInline static let _one: Double = 4_294_967_296

    /// Draws `[x0, x1)` of row `y` from `image` under an affine inverse transform.
    ///
    /// Coordinates are 32.32 fixed point: `U(x) = U₀ + x·ΔU` with `U₀ = round(2³²·u(0))` and
    /// `ΔU = round(2³²·a)` computed once per row, so a pixel's sample position is exact
    /// integer arithmetic (error < 2⁻¹⁹ texel over 16384 pixels). The bilinear weight is the
    /// top 8 fraction bits (`fx = ⌊frac·256⌋`, as ref-c). Transforms that minify more than
    /// 16384× or place the image beyond ±2²⁸ texels are not drawn.
    @inlinable
    public static func drawAffineSpan(row: UnsafeMutablePointer<UInt32>, y: Int, x0: Int, x1: Int,
                                      image: RasterImage, inverse t: AffineInverse,
                                      filter: SampleFilter = .bilinear, edge: EdgeMode = .decal,
                                      opacity: UInt8 = 255, coverage: UnsafePointer<UInt8>? = nil,
                                      backend: RasterBackend = .current) {
        guard x1 > x0, x0 >= 0, x1 <= 1 << 15, opacity > 0,
              let start = affineRow(y: y, inverse: t, filter: filter) else { return }
        drawAffineSpan(row: row, start: start, x0: x0, x1: x1, image: image, filter: filter, edge: edge,
                       opacity: opacity, coverage: coverage, backend: backend)
    }

    /// The fixed-point sample position of pixel x = 0 of row `y` and its per-pixel step — the
    /// per-row half of `drawAffineSpan(row:y:…)`, for callers that draw several spans of a row
    /// (compute it once per row, then call `drawAffineSpan(row:start:…)` per span; the bytes
    /// are those of the one-call form). `nil` when the row is not drawn (limits above).
    @inlinable
    public static func affineRow(y: Int, inverse t: AffineInverse, filter: SampleFilter = .bilinear) -> AffineRowStart? {
        guard abs(t.a) < _stepLimit, abs(t.d) < _stepLimit else { return nil }
        return _rowStart(y: y, t, shift: filter == .bilinear ? 0.5 : 0.0,
                         du: _roundedInt64(t.a * _one), dv: _roundedInt64(t.d * _one))
    }

    /// The per-pixel step's limit (`affineRow`): 2^14 texels.
    @usableFromInline static let _stepLimit: Double = 16_384

    /// Row `y`'s start with the step `(du, dv)` already converted: the texel-space position of
    /// pixel x = 0, `u = a·0.5 + (b·py + c) − shift` (and v), nil beyond 2^28 texels.
    @inlinable @inline(__always)
    package static func _rowStart(y: Int, _ t: AffineInverse, shift: Double, du: Int64, dv: Int64) -> AffineRowStart? {
        let py = Double(y) + 0.5
        let u0 = t.a * 0.5 + (t.b * py + t.c) - shift
        let v0 = t.d * 0.5 + (t.e * py + t.f) - shift
        let limit = Double(1 << 28)
        guard abs(u0) < limit, abs(v0) < limit else { return nil }
        return AffineRowStart(u: _roundedInt64(u0 * _one), v: _roundedInt64(v0 * _one), du: du, dv: dv)
    }

    /// `affineRow(y:inverse:filter:)` for rows `y0 ..< y1` into `starts[0 ..< y1 − y0]`: the same
    /// values (each row's start is the same expression of `y`), with the per-pixel step, which
    /// does not depend on the row, converted once instead of per row.
    @inlinable
    public static func affineRows(y0: Int, y1: Int, inverse t: AffineInverse, filter: SampleFilter = .bilinear,
                                  into starts: UnsafeMutablePointer<AffineRowStart?>) {
        guard let (shift, du, dv) = _rowSetup(t, filter: filter) else {
            for y in y0..<y1 { (starts + (y - y0)).initialize(to: nil) }
            return
        }
        for y in y0..<y1 { (starts + (y - y0)).initialize(to: _rowStart(y: y, t, shift: shift, du: du, dv: dv)) }
    }

    /// What every row start of `t` shares: the filter's half-texel shift and the per-pixel step
    /// in 32.32 fixed point; nil when the step is too large to draw (every row's start is nil
    /// then). `affineRows` = this, then `_rowStart` per row.
    @inlinable @inline(__always)
    package static func _rowSetup(_ t: AffineInverse, filter: SampleFilter) -> (shift: Double, du: Int64, dv: Int64)? {
        guard abs(t.a) < _stepLimit, abs(t.d) < _stepLimit else { return nil }
        return (filter == .bilinear ? 0.5 : 0.0, _roundedInt64(t.a * _one), _roundedInt64(t.d * _one))
    }

    /// `Int64(x.rounded())` (to nearest, ties away from zero) for finite `|x| < 2⁶³`, without
    /// a call into libm's `round` (four per row of a rotated image: it showed in profiles of
    /// 10,000 small particles). Exact: `i = trunc(x)` by the conversion, `f = x − i` is exact
    /// (the fraction of a double is a double), and
    ///
    ///     round(x) = i + 1 if f ≥ ½,  i − 1 if f ≤ −½,  else i.
    @inlinable @inline(__always)
    package static func _roundedInt64(_ x: Double) -> Int64 {
        let i = Int64(x)
        let f = x - Double(i)
        // Branch-free (the fractions are random: a branch mispredicts half the time).
        let up: Int64 = f >= 0.5 ? 1 : 0, down: Int64 = f <= -0.5 ? 1 : 0
        return i &+ up &- down
    }

    /// ``drawAffineSpan(row:start:x0:x1:image:filter:edge:opacity:coverage:backend:)`` for each of
    /// `spans` (destination pixels, fixed-point start and coverage per span, `n ≤ 0` skipped; one
    /// image, per-pixel step, filter, edge and opacity for all): the same bytes as a call per span,
    /// the kernel's set-up paid once. The caller applies the per-span guard of
    /// `drawAffineSpan` (`x0 ≥ 0`, `x1 ≤ 2^15`) when it builds the spans.
    @inlinable
    package static func drawAffineSpans(_ spans: UnsafePointer<fbk_affine_span>, count: Int, du: Int64, dv: Int64,
                                        image: RasterImage, filter: SampleFilter, edge: EdgeMode, opacity: UInt8,
                                        backend: RasterBackend) {
        guard count > 0, opacity > 0 else { return }
        let bilinear = filter == .bilinear, clamp = edge == .clamp
        if backend.effective == .native {
            var img = image._c
            if RasterBackend.avx512Available {
                fbk_affine_spans_avx512(spans, count, &img, du, dv, bilinear ? 1 : 0, clamp ? 1 : 0, UInt32(opacity))
            } else {
                fbk_affine_spans_avx2(spans, count, &img, du, dv, bilinear ? 1 : 0, clamp ? 1 : 0, UInt32(opacity))
            }
            return
        }
        for k in 0..<count where spans[k].n > 0 {
            let sp = spans[k]
            _affineScalar(sp.dst, n: sp.n, image: image, u: sp.u, v: sp.v, du: du, dv: dv, bilinear: bilinear,
                          clamp: clamp, opacity: UInt32(opacity), coverage: sp.mask)
        }
    }

    /// Rows of one draw with their coverage (`fbk_affine_rows_avx512`: each row's start computed
    /// in the kernel, the doubles of `_rowStart`), clamped edges: the bytes of `affineRows` then
    /// ``drawAffineSpans(_:count:du:dv:image:filter:edge:opacity:backend:)`` of the rows' spans.
    /// AVX-512 only (the caller checks `RasterBackend.avx512Available` and the native backend).
    @inlinable
    package static func drawAffineRowsAVX512(_ rows: inout fbk_affine_rows, image: RasterImage, filter: SampleFilter,
                                             opacity: UInt8) {
        guard opacity > 0 else { return }
        var img = image._c
        fbk_affine_rows_avx512(&rows, &img, filter == .bilinear ? 1 : 0, 1, UInt32(opacity))
    }

    /// `drawAffineRowsAVX512` with a tint (`fbk_affine_tint_rows_avx512`): each row as
    /// ``drawTintedAffineSpan(row:start:x0:x1:image:filter:edge:opacity:coverage:tint:scratch:backend:)``
    /// draws its span with clamped edges on the native backend, the row's start computed in the
    /// kernel as `_rowStart` computes it. Callers check `RasterBackend.avx512Available`.
    package static func drawTintedAffineRowsAVX512(_ rows: inout fbk_affine_rows, image: RasterImage, filter: SampleFilter,
                                                   opacity: UInt8, tint: UInt32) {
        guard opacity > 0 else { return }
        var img = image._c
        fbk_affine_tint_rows_avx512(&rows, &img, filter == .bilinear ? 1 : 0, 1, UInt32(opacity), tint)
    }

    /// Draws `[x0, x1)` of a row whose fixed-point start came from `affineRow(y:inverse:filter:)`
    /// (same `filter`): pixel x samples at `(start.u + x·du, start.v + x·dv)`, exact integers.
    @inlinable
    public static func drawAffineSpan(row: UnsafeMutablePointer<UInt32>, start s: AffineRowStart, x0: Int, x1: Int,
                                      image: RasterImage, filter: SampleFilter = .bilinear, edge: EdgeMode = .decal,
                                      opacity: UInt8 = 255, coverage: UnsafePointer<UInt8>? = nil,
                                      backend: RasterBackend = .current) {
        guard x1 > x0, x0 >= 0, x1 <= 1 << 15, opacity > 0 else { return }
        let du = s.du, dv = s.dv
        let u = s.u &+ Int64(x0) &* du
        let v = s.v &+ Int64(x0) &* dv
        let dst = row + x0, n = x1 - x0
        if backend.effective == .native {
            var img = image._c
            if RasterBackend.avx512Available {
                fbk_affine_avx512(dst, n, &img, u, v, du, dv, filter == .bilinear ? 1 : 0,
                                  edge == .clamp ? 1 : 0, UInt32(opacity), coverage)
            } else {
                fbk_affine_avx2(dst, n, &img, u, v, du, dv, filter == .bilinear ? 1 : 0,
                                edge == .clamp ? 1 : 0, UInt32(opacity), coverage)
            }
        } else {
            _affineScalar(dst, n: n, image: image, u: u, v: v, du: du, dv: dv, bilinear: filter == .bilinear,
                          clamp: edge == .clamp, opacity: UInt32(opacity), coverage: coverage)
        }
    }

    /// `drawAffineSpan(row:start:…)` with a tint: each sampled colour `s` becomes
    /// `div255(s · tint)` per channel (premultiplied tint, `PixelMath.modulate`) before the
    /// opacity, coverage and source-over — an emitter particle's colour. Defined as three passes
    /// over `scratch` (at least `x1 − x0` pixels):
    ///
    ///     scratch = 0;  sample onto scratch (opacity 255, no coverage)   // = the samples
    ///     SpanBlend.modulate(scratch, tint)
    ///     SpanBlend.sourceOver(row, scratch, opacity, coverage)
    ///
    /// which the portable backend runs as written and the native one in one fused pass
    /// (`fbk_affine_tint_avx2`: the same operations on the same values, bit-identical).
    package static func drawTintedAffineSpan(row: UnsafeMutablePointer<UInt32>, start s: AffineRowStart, x0: Int, x1: Int,
                                             image: RasterImage, filter: SampleFilter, edge: EdgeMode,
                                             opacity: UInt8, coverage: UnsafePointer<UInt8>?, tint: UInt32,
                                             scratch: UnsafeMutablePointer<UInt32>, backend: RasterBackend = .current) {
        guard x1 > x0, x0 >= 0, x1 <= 1 << 15, opacity > 0 else { return }
        let n = x1 - x0
        if backend.effective == .native {
            let u = s.u &+ Int64(x0) &* s.du, v = s.v &+ Int64(x0) &* s.dv
            var img = image._c
            if RasterBackend.avx512Available {
                fbk_affine_tint_avx512(row + x0, n, &img, u, v, s.du, s.dv, filter == .bilinear ? 1 : 0,
                                       edge == .clamp ? 1 : 0, UInt32(opacity), coverage, tint)
            } else {
                fbk_affine_tint_avx2(row + x0, n, &img, u, v, s.du, s.dv, filter == .bilinear ? 1 : 0,
                                     edge == .clamp ? 1 : 0, UInt32(opacity), coverage, tint)
            }
            return
        }
        scratch.update(repeating: 0, count: n)
        drawAffineSpan(row: scratch - x0, start: s, x0: x0, x1: x1, image: image, filter: filter, edge: edge,
                       opacity: 255, coverage: nil, backend: backend)
        SpanBlend.modulate(scratch, count: n, tint: tint, backend: backend)
        SpanBlend.sourceOver(row + x0, source: scratch, count: n, opacity: opacity, coverage: coverage, backend: backend)
    }

    /// Draws `[x0, x1)` of row `y` from `image` under a projective inverse transform, bilinear.
    ///
    /// Per pixel (Double, no fused multiply-add, identical in both backends):
    ///
    ///     px = x + 0.5;  X = m0·px + (m1·py + m2);  Y = m3·px + (m4·py + m5);  Q = m6·px + (m7·py + m8)
    ///     r = 1 / Q;  sx = X·r − 0.5;  sy = Y·r − 0.5
    ///
    /// Only pixels with `Q > 0` are drawn (points behind the viewer are skipped); with `.decal`
    /// also only `-1 < sx < w`, `-1 < sy < h`. Weights: `t = ⌊256·sx⌋`, texel `t >> 8`,
    /// `fx = t & 255`.
    @inlinable
    public static func drawProjectiveSpan(row: UnsafeMutablePointer<UInt32>, y: Int, x0: Int, x1: Int,
                                          image: RasterImage, inverse: ProjectiveInverse,
                                          edge: EdgeMode = .decal, opacity: UInt8 = 255,
                                          coverage: UnsafePointer<UInt8>? = nil,
                                          backend: RasterBackend = .current) {
        guard x1 > x0, x0 >= 0, x1 <= 1 << 24, opacity > 0 else { return }
        let m = inverse._m
        let py = Double(y) + 0.5
        let rowX = m.1 * py + m.2, rowY = m.4 * py + m.5, rowQ = m.7 * py + m.8
        let dst = row + x0, n = x1 - x0
        if backend.effective == .native {
            var img = image._c
            withUnsafeBytes(of: m) { raw in
                fbk_projective_avx2(dst, n, &img, raw.baseAddress!.assumingMemoryBound(to: Double.self), Double(x0),
                                    rowX, rowY, rowQ, edge == .clamp ? 1 : 0, UInt32(opacity), coverage)
            }
        } else {
            _projectiveScalar(dst, n: n, image: image, m0: m.0, m3: m.3, m6: m.6, x0: x0, rowX: rowX,
                              rowY: rowY, rowQ: rowQ, clamp: edge == .clamp, opacity: UInt32(opacity),
                              coverage: coverage)
        }
    }
}

/// Fixed-point (32.32) sample position of pixel x = 0 of one row and the step per pixel
/// (`ImageSampler.affineRow`).
public struct AffineRowStart: Sendable, Hashable {
    public var u: Int64, v: Int64, du: Int64, dv: Int64
    @inlinable
    public init(u: Int64, v: Int64, du: Int64, dv: Int64) { self.u = u; self.v = v; self.du = du; self.dv = dv }
}
