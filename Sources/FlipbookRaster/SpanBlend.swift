import CFlipbookKernels
import FlipbookPixels

/// Span kernels on premultiplied RGBA8 rows: fill and source-over.
///
/// A *span* is `count` consecutive pixels given by a pointer to the first one (any alignment).
/// Pixels are `UInt32` words in memory order R,G,B,A (little-endian `0xAABBGGRR`, the
/// ``RGBA8/packed`` value). Nothing here knows about layers: the compositor computes where a
/// span starts and what opacity and coverage apply.
///
/// Every function takes a `backend` (default ``RasterBackend/current``); `.native` and
/// `.portable` give bit-identical results. Rounding: ``PixelRounding/div255(_:)`` everywhere
/// (docs/rounding.md).
public enum SpanBlend {
    /// `dst[i] = color` for `i` in `0..<count`.
    @inlinable
    public static func fill(_ dst: UnsafeMutablePointer<UInt32>, count: Int, color: RGBA8,
                            backend: RasterBackend = .current) {
        guard count > 0 else { return }
        if backend.effective == .native {
            fbk_fill_avx2(dst, count, color.packed)
        } else {
            dst.update(repeating: color.packed, count: count)
        }
    }

    /// Source-over of a premultiplied source span onto `dst`, with a constant `opacity` and an
    /// optional per-pixel `coverage` (one byte per pixel, `coverage[i]` for `dst[i]`):
    ///
    ///     k    = coverage == nil ? opacity : div255(opacity · coverage[i])
    ///     Sca' = div255(Sca · k)                          // Sca' = Sca·α
    ///     Dca' = min(255, Sca' + div255(Dca · (255 − Sa')))   // Dca' = Sca·α + Dca·(1 − Sa·α)
    ///
    /// With `opacity == 255` and no coverage the first step is the identity. This is the
    /// identity / integer-translation image path: point `source` at the first source pixel.
    @inlinable
    public static func sourceOver(_ dst: UnsafeMutablePointer<UInt32>, source: UnsafePointer<UInt32>,
                                  count: Int, opacity: UInt8 = 255, coverage: UnsafePointer<UInt8>? = nil,
                                  backend: RasterBackend = .current) {
        guard count > 0, opacity > 0 else { return }
        if backend.effective == .native {
            if coverage == nil && RasterBackend.avx512Available {
                fbk_over_avx512(dst, source, count, UInt32(opacity))
            } else {
                fbk_over_avx2(dst, source, coverage, count, UInt32(opacity))
            }
        } else if coverage == nil {
            let done = _sourceOverSIMD(dst, source: source, count: count, opacity: UInt32(opacity))
            _sourceOverScalar(dst + done, source: source + done, count: count - done, opacity: UInt32(opacity), coverage: nil)
        } else {
            _sourceOverScalar(dst, source: source, count: count, opacity: UInt32(opacity), coverage: coverage)
        }
    }

    /// Source-over of one solid premultiplied `color`, optionally times a per-pixel coverage:
    ///
    ///     Sca' = coverage == nil ? Sca : div255(Sca · coverage[i])
    ///     Dca' = min(255, Sca' + div255(Dca · (255 − Sa')))
    ///
    /// For a layer's background colour with opacity α, pass `color` already scaled by α
    /// (`div255(c · α)` per channel) or fold α into the coverage.
    @inlinable
    public static func solidOver(_ dst: UnsafeMutablePointer<UInt32>, color: RGBA8, count: Int,
                                 coverage: UnsafePointer<UInt8>? = nil, backend: RasterBackend = .current) {
        guard count > 0, color.packed != 0 else { return }
        if backend.effective == .native {
            // Single pixels (the edges of small shapes) go to the scalar twin (bit-identical);
            // everything else to the AVX2 kernel, whose last partial vector is a masked load and
            // store (it used to copy the tail through a stack buffer: two memcpy calls).
            // With AVX-512BW every span, its last partial block included, is k-masked blocks of
            // 16 (no scalar tail).
            if RasterBackend.avx512Available {
                fbk_solid_over_avx512(dst, color.packed, coverage, count)
            } else if count == 1 {
                _solidOverScalar(dst, color: color.packed, count: 1, coverage: coverage)
            } else {
                fbk_solid_over_avx2(dst, color.packed, coverage, count)
            }
        } else {
            _solidOverScalar(dst, color: color.packed, count: count, coverage: coverage)
        }
    }

    /// ``solidOver(_:color:count:coverage:backend:)`` of each of `spans` (pixels and coverage per
    /// span, `n ≤ 0` skipped) with one colour: the same bytes as a call per span, the kernel's
    /// set-up paid once (the rows of small layers).
    @inlinable
    package static func solidOverSpans(_ spans: UnsafePointer<fbk_span>, count: Int, color: RGBA8,
                                       backend: RasterBackend = .current) {
        guard count > 0, color.packed != 0 else { return }
        if backend.effective == .native {
            if RasterBackend.avx512Available {
                fbk_solid_spans_avx512(spans, count, color.packed)
            } else {
                fbk_solid_spans_avx2(spans, count, color.packed)
            }
            return
        }
        for k in 0..<count where spans[k].n > 0 {
            _solidOverScalar(spans[k].dst, color: color.packed, count: spans[k].n, coverage: spans[k].mask)
        }
    }

    /// Rows `0 ..< count` of a chunk of dense coverage rows (`CoverageSink.denseRows`) painted
    /// with one colour by one `solidOverSpans` call: row `i`'s `counts[i]` pixels start at
    /// `origin + i·rowStride + starts[i]` (`origin`: the chunk's first row at its `x`), with the
    /// coverage at `coverage + i·stride + starts[i]` (rows with no coverage skipped).
    package static func solidOverRows(_ origin: UnsafeMutablePointer<UInt32>, rowStride: Int, count: Int,
                                      starts: UnsafePointer<Int>, counts: UnsafePointer<Int>,
                                      coverage: UnsafePointer<UInt8>, stride: Int, color: RGBA8,
                                      backend: RasterBackend = .current) {
        withUnsafeTemporaryAllocation(of: fbk_span.self, capacity: count) { buf in
            var m = 0
            for i in 0..<count where counts[i] > 0 {
                buf[m] = fbk_span(dst: origin + i * rowStride + starts[i], n: counts[i], mask: coverage + i * stride + starts[i])
                m += 1
            }
            solidOverSpans(buf.baseAddress!, count: m, color: color, backend: backend)
        }
    }

    /// Rows of coverage painted with one colour by one ``solidOverSpans(_:count:color:backend:)``
    /// call: each of `rows` is (x, y, n, offset) — pixels `x ..< x + n` of row `y`
    /// (`origin + y·rowStride + x`) with the coverage bytes at `coverage + offset` (a text
    /// line's cached coverage, `CGContext._drawText`).
    package static func solidOverCoverageRows(_ origin: UnsafeMutablePointer<UInt32>, rowStride: Int,
                                              rows: UnsafeBufferPointer<SIMD4<Int32>>, coverage: UnsafePointer<UInt8>,
                                              color: RGBA8, backend: RasterBackend = .current) {
        guard !rows.isEmpty else { return }
        withUnsafeTemporaryAllocation(of: fbk_span.self, capacity: rows.count) { buf in
            for (k, r) in rows.enumerated() {
                buf[k] = fbk_span(dst: origin + Int(r.y) * rowStride + Int(r.x), n: Int(r.z), mask: coverage + Int(r.w))
            }
            solidOverSpans(buf.baseAddress!, count: rows.count, color: color, backend: backend)
        }
    }

    /// Multiplies every pixel of the span by a premultiplied tint, channel by channel (the
    /// colour multiplier of an emitter particle or a replicator instance):
    ///
    ///     p'.c = div255(p.c · t.c)     for c in R, G, B, A      (PixelMath.modulate)
    ///
    /// A transparent pixel stays transparent (0 · t = 0).
    package static func modulate(_ p: UnsafeMutablePointer<UInt32>, count: Int, tint: UInt32,
                                 backend: RasterBackend = .current) {
        guard count > 0 else { return }
        if backend.effective == .native {
            fbk_modulate_avx2(p, count, tint)
        } else {
            _modulateScalar(p, count: count, tint: tint)
        }
    }
}
