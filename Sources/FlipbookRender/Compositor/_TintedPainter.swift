import CFlipbookKernels
import FlipbookPixels
import FlipbookRaster

/// A tinted image draw (`_ImagePaint.tint`: an emitter particle, whose colour multiplies its
/// contents without an offscreen group) painted with everything resolved once per draw: the
/// texture pinned, the fused sampler set up (`_FastImage`), the tint and the scratch row.
///
/// Per span `[x0, x1)` of row `y`, three passes over a scratch row `s`:
///
///     s[x]   = sample(x, y)                    // the sampler at opacity 255 onto transparent
///     s[x]   = div255(s[x] · tint)             // per channel (SpanBlend.modulate, SIMD)
///     row[x] = over(s[x] · div255(alpha · coverage[x]), row[x])   // SpanBlend.sourceOver
///
/// The same operations, in the same order, as `_SpanPainter.image`'s tinted branch (which
/// it replaces for images the fused samplers draw), so the same bytes: source-over onto a
/// transparent pixel is the source itself, `modulate(0, t) = 0` (the branch skipped zero
/// texels), and a sampler gives a pixel the same value however its row is split into spans.
/// What it saves is per-span work: the paint's enum payload copied (retaining the texture),
/// the texture pinned, the sampler rebuilt and a temporary row allocated, for every span of
/// every one of 10,000 particles.
struct _TintedPainter: _Painter {
    let fast: _FastImage
    /// Premultiplied tint `(R·A, G·A, B·A, A)`.
    let tint: UInt32
    /// The draw's opacity 0…255.
    let alpha: UInt32
    /// The worker's scratch row (`_WorkerScratch.samples`), at least as wide as the draw.
    let samples: UnsafeMutablePointer<UInt32>
    let backend = RasterBackend.current
    /// `ImageSampler._rowSetup` of the draw when the rows go to the row kernel (`rows`: native
    /// backend with AVX-512, a rotated or scaled image), else nil.
    let setup: (shift: Double, du: Int64, dv: Int64)?

    init(fast: _FastImage, tint: UInt32, alpha: UInt32, samples: UnsafeMutablePointer<UInt32>) {
        self.fast = fast; self.tint = tint; self.alpha = alpha; self.samples = samples
        setup = fast.kind == .affine && fast.translate == nil && backend.effective == .native && RasterBackend.avx512Available
            ? ImageSampler._rowSetup(fast.affine, filter: fast.filter) : nil
    }

    /// The rows of a rotated or scaled image in one kernel call (`fbk_affine_tint_rows_avx512`),
    /// each row's start computed there as `ImageSampler.affineRow` computes it (a step too large
    /// for `_rowSetup` draws no row, as `affineRow` is then nil for every row): the bytes of
    /// `span` per row. Otherwise `span` per row.
    func rows(_ y: Int, _ n: Int, _ x: Int, _ rowStarts: UnsafePointer<Int>, _ counts: UnsafePointer<Int>,
              _ coverage: UnsafePointer<UInt8>, _ stride: Int, _ target: _Target) {
        guard fast.kind == .affine, fast.translate == nil, backend.effective == .native, RasterBackend.avx512Available else {
            return spanByRow(y, n, x, rowStarts, counts, coverage, stride, target)
        }
        guard let setup else { return }
        let t = fast.affine
        var args = fbk_affine_rows(dst: target.row(y), dst_stride: target.stride, y: y, n: n, x: x,
                                   starts: rowStarts, counts: counts, coverage: coverage, cov_stride: stride,
                                   a: t.a, b: t.b, c: t.c, d: t.d, e: t.e, f: t.f, shift: setup.shift,
                                   du: setup.du, dv: setup.dv)
        ImageSampler.drawTintedAffineRowsAVX512(&args, image: fast.raster, filter: fast.filter, opacity: UInt8(alpha), tint: tint)
    }

    @inline(__always)
    func span(_ y: Int, _ x0: Int, _ x1: Int, _ row: UnsafeMutablePointer<UInt32>, _ coverage: UnsafeMutablePointer<UInt8>?) {
        let n = x1 - x0
        guard n > 0 else { return }
        if fast.kind == .affine, fast.translate == nil {
            // Rotated or scaled (a spinning particle): the three passes below in one
            // (`ImageSampler.drawTintedAffineSpan`, fused on the native backend). A row the
            // sampler does not draw (`affineRow` nil) leaves the scratch transparent below,
            // which paints nothing.
            if let start = ImageSampler.affineRow(y: y, inverse: fast.affine, filter: fast.filter) {
                ImageSampler.drawTintedAffineSpan(row: row, start: start, x0: x0, x1: x1, image: fast.raster, filter: fast.filter,
                                                  edge: .clamp, opacity: UInt8(alpha), coverage: coverage.map { UnsafePointer($0) },
                                                  tint: tint, scratch: samples, backend: backend)
            }
            return
        }
        samples.update(repeating: 0, count: n)
        fast.span(y: y, x0: x0, x1: x1, row: samples - x0, coverage: nil)
        SpanBlend.modulate(samples, count: n, tint: tint, backend: backend)
        SpanBlend.sourceOver(row + x0, source: samples, count: n, opacity: UInt8(alpha),
                             coverage: coverage.map { UnsafePointer($0) }, backend: backend)
    }
}
