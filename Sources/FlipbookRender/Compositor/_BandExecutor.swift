import FlipbookRaster
/// A device-space window onto pixels: pixel `(x, y)` of the device lives at
/// `base[(y − rect.y0) · stride + (x − rect.x0)]` for `(x, y)` in `rect`.

struct _Target {
    var base: UnsafeMutablePointer<UInt32>
    var stride: Int
    var rect: _IRect
    @inline(__always) func row(_ y: Int) -> UnsafeMutablePointer<UInt32> {
        base + (y - rect.y0) * stride - rect.x0
    }
}

/// Per-worker scratch, reused across bands and frames: group buffers and a coverage row.
final class _WorkerScratch: @unchecked Sendable {
    var groups: [UnsafeMutablePointer<UInt32>] = []
    var groupCapacity = 0
    var coverage: UnsafeMutablePointer<UInt8>
    var coverageCapacity: Int

    init() {
        coverageCapacity = 0
        coverage = UnsafeMutablePointer<UInt8>.allocate(capacity: 1)
    }

    deinit {
        coverage.deallocate()
        for g in groups { g.deallocate() }
    }

    func prepare(width: Int, bandHeight: Int) {
        if coverageCapacity < width {
            coverage.deallocate()
            coverage = .allocate(capacity: width)
            coverageCapacity = width
        }
        let need = width * bandHeight
        if groupCapacity < need {
            for g in groups { g.deallocate() }
            groups = []
            groupCapacity = need
        }
    }

    func group(_ depth: Int) -> UnsafeMutablePointer<UInt32> {
        while groups.count <= depth { groups.append(.allocate(capacity: groupCapacity)) }
        return groups[depth]
    }
}

/// Runs the op list over one band of rows. Every pixel's result depends only on its
/// coordinates and the ops, never on the band split, so any thread count gives the same bytes.
enum _BandExecutor {
    static func run(_ ops: [_Op], frame: _Target, scratch: _WorkerScratch) {
        var stack: [_Target] = [frame]
        for op in ops {
            switch op {
            case .draw(let d):
                draw(d, into: stack[stack.count - 1], coverage: scratch.coverage)
            case .push(let b):
                let t = _Target(base: scratch.group(stack.count - 1), stride: frame.stride, rect: frame.rect)
                let r = b.intersection(frame.rect)
                for y in r.y0..<max(r.y0, r.y1) { (t.row(y) + r.x0).update(repeating: 0, count: r.x1 - r.x0) }
                stack.append(t)
            case .pop(let b, let alpha, let mode, let masked):
                let src = stack.removeLast()
                var mask: _Target? = nil
                if masked { mask = stack.removeLast() }
                composite(src, mask: mask, onto: stack[stack.count - 1], rect: b.intersection(frame.rect),
                          alpha: alpha, mode: mode)
            }
        }
    }

    static func composite(_ src: _Target, mask: _Target?, onto dst: _Target, rect r: _IRect,
                          alpha: UInt32, mode: _GroupMode) {
        if r.isEmpty { return }
        if mask == nil && mode == .over {
            // Plain group opacity: the SIMD span kernel, same formula as the loop below
            // (`k = alpha`, s' = div255(s·k), d' = min(255, s' + div255(d·(255 − s'.a)))).
            for y in r.y0..<r.y1 {
                SpanBlend.sourceOver(dst.row(y) + r.x0, source: src.row(y) + r.x0, count: r.x1 - r.x0, opacity: UInt8(alpha))
            }
            return
        }
        for y in r.y0..<r.y1 {
            let s = src.row(y), d = dst.row(y), m = mask?.row(y)
            for x in r.x0..<r.x1 {
                var k = alpha
                if let m { k = PixelMath.mul8(k, m[x] >> 24) }
                if k == 0 { continue }
                let p = k == 255 ? s[x] : PixelMath.scale(s[x], k)
                d[x] = mode == .over ? PixelMath.over(p, d[x]) : PixelMath.plus(p, d[x])
            }
        }
    }

    /// Draws one op over the band's rows. Per row: the shapes' conservative spans give the
    /// possibly-covered pixels `[lo, hi)` and the certainly-full ones `[flo, fhi)`; only the two
    /// edge runs get per-pixel coverage, the interior goes to the painter with coverage nil.
    /// Everything that does not depend on the row (the paint, the sampler set-up, the texture
    /// pointer) is resolved once per draw, not per span.
    static func draw(_ d: _Draw, into t: _Target, coverage: UnsafeMutablePointer<UInt8>) {
        let r = d.bounds.intersection(t.rect)
        if r.isEmpty || d.alpha == 0 { return }
        if case .image(let img) = d.paint, let kind = _FastImage.kind(img, x0: r.x0, x1: r.x1) {
            img.texture.withRasterImage { raster in
                let fast = _FastImage(img, kind: kind, raster: raster, alpha: d.alpha)
                guard kind == .affine, fast.translate == nil else {
                    rows(d, r, t, coverage) { y, x0, x1, row, cov in fast.span(y: y, x0: x0, x1: x1, row: row, coverage: cov) }
                    return
                }
                // Rotated/scaled images: each row's fixed-point start is computed once (a row is
                // drawn as several spans), interior spans go in column tiles (see `rows`).
                let n = r.y1 - r.y0
                withUnsafeTemporaryAllocation(of: AffineRowStart?.self, capacity: n) { starts in
                    for y in r.y0..<r.y1 {
                        starts.initializeElement(at: y - r.y0, to: ImageSampler.affineRow(y: y, inverse: fast.affine, filter: fast.filter))
                    }
                    rows(d, r, t, coverage, tile: tileWidth) { y, x0, x1, row, cov in
                        if let start = starts[y - r.y0] { fast.affineSpan(start: start, x0: x0, x1: x1, row: row, coverage: cov) }
                    }
                }
            }
            return
        }
        let paint = d.paint, alpha = d.alpha
        rows(d, r, t, coverage) { y, x0, x1, row, cov in
            _SpanPainter.span(paint, alpha: alpha, y: y, x0: x0, x1: x1, row: row, coverage: cov)
        }
    }

    /// Width of the column tiles in which interior spans of sampled images are drawn.
    static let tileWidth = 64

    /// Runs `span` over the draw's rows in `r` (edge runs with coverage, interiors without).
    ///
    /// With `tile > 0` the interior spans are drawn after the edge runs, tile by tile: for each
    /// column range `[X, X + tile)`, every row of the band. A rotated layer's texels for a
    /// `tile × bandHeight` block are a small compact patch of the texture that stays in L1,
    /// where a whole row walks a long diagonal through it. Samplers give a pixel the same bytes
    /// however its row is split, so the tiling changes only the order of work.
    @inline(__always)
    static func rows(_ d: _Draw, _ r: _IRect, _ t: _Target, _ coverage: UnsafeMutablePointer<UInt8>, tile: Int = 0,
                     _ span: (Int, Int, Int, UnsafeMutablePointer<UInt32>, UnsafeMutablePointer<UInt8>?) -> Void) {
        if tile > 0 {
            withUnsafeTemporaryAllocation(of: (Int, Int).self, capacity: r.y1 - r.y0) { interior in
                var xmin = Int.max, xmax = Int.min
                rowLoop(d, r, t, coverage, span) { y, b, c in
                    interior[y - r.y0] = (b, c)
                    if c > b { xmin = min(xmin, b); xmax = max(xmax, c) }
                }
                var X = xmin
                while X < xmax {
                    let X1 = X + tile
                    for y in r.y0..<r.y1 {
                        let (b, c) = interior[y - r.y0]
                        let lo = max(b, X), hi = min(c, X1)
                        if hi > lo { span(y, lo, hi, t.row(y), nil) }
                    }
                    X = X1
                }
            }
        } else {
            rowLoop(d, r, t, coverage, span) { y, b, c in
                if c > b { span(y, b, c, t.row(y), nil) }
            }
        }
    }

    /// The per-row part of `rows`: edge runs drawn with coverage, the interior `[b, c)` handed
    /// to `interior` (every row of `r` is reported, empty interiors as `b >= c`).
    @inline(__always)
    static func rowLoop(_ d: _Draw, _ r: _IRect, _ t: _Target, _ coverage: UnsafeMutablePointer<UInt8>,
                        _ span: (Int, Int, Int, UnsafeMutablePointer<UInt32>, UnsafeMutablePointer<UInt8>?) -> Void,
                        interior: (Int, Int, Int) -> Void) {
        let hasHole = d.hole != nil
        for y in r.y0..<r.y1 {
            var lo = r.x0, hi = r.x1, flo = r.x0, fhi = r.x1
            for s in d.shapes {
                let sp = _Coverage.rowSpans(s, y: y)
                lo = max(lo, sp.lo); hi = min(hi, sp.hi)
                flo = max(flo, sp.flo); fhi = min(fhi, sp.fhi)
            }
            if hasHole { flo = lo; fhi = lo }
            if hi <= lo { interior(y, 0, 0); continue }
            if fhi <= flo { flo = lo; fhi = lo }
            flo = max(flo, lo); fhi = min(fhi, hi)
            if fhi <= flo { flo = lo; fhi = lo }
            let row = t.row(y)
            // Left edge run [lo, flo): only the pixels with 0 < coverage < 255 need the mask.
            // Leading zeros are skipped and trailing 255s join the interior (a 255 mask gives
            // k = div255(alpha·255) = alpha, a 0 mask draws nothing: the same bytes either way),
            // so a pixel-aligned edge (a full-frame image at an integer offset) becomes one full-row span.
            var b = lo
            if flo > lo {
                _Coverage.drawRow(d, y: y, x0: lo, x1: flo, into: coverage)
                var a = lo
                b = flo
                while a < b && coverage[a - lo] == 0 { a += 1 }
                while b > a && coverage[b - 1 - lo] == 255 { b -= 1 }
                if b > a { span(y, a, b, row, coverage + (a - lo)) }
            }
            // Right edge run [rs, hi): leading 255s join the interior, trailing zeros are skipped.
            let rs = max(fhi, flo)
            var c = rs, e = rs
            if hi > rs {
                _Coverage.drawRow(d, y: y, x0: rs, x1: hi, into: coverage)
                e = hi
                while c < e && coverage[c - rs] == 255 { c += 1 }
                while e > c && coverage[e - 1 - rs] == 0 { e -= 1 }
            }
            // Interior [b, c): [b, flo) and [rs, c) are full by the trimming, [flo, fhi) by rowSpans.
            interior(y, b, c)
            if e > c { span(y, c, e, row, coverage + (c - rs)) }
        }
    }
}
