import CFlipbookKernels
import Flipbook
import FlipbookRaster
import FlipbookPixels
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

/// Per-worker scratch, reused across bands and frames: group buffers, the path rasterizer,
/// a coverage row (constant spans below 255) and two coverage masks (draws with several shapes).
///
/// One worker's: its properties skip the dynamic exclusivity checks (read per draw and band).
final class _WorkerScratch: @unchecked Sendable {
    @exclusivity(unchecked) var groups: [UnsafeMutablePointer<UInt32>] = []
    @exclusivity(unchecked) var groupCapacity = 0
    @exclusivity(unchecked) var coverage: UnsafeMutablePointer<UInt8>
    /// A second coverage row (`_SolidPainter`'s opacity × coverage).
    @exclusivity(unchecked) var folded: UnsafeMutablePointer<UInt8>
    /// A third one (`_RowSink`'s gathered row).
    @exclusivity(unchecked) var rowCoverage: UnsafeMutablePointer<UInt8>
    /// A row of pixels (`_TintedPainter`'s sampled and tinted texels).
    @exclusivity(unchecked) var samples: UnsafeMutablePointer<UInt32>
    @exclusivity(unchecked) var coverageCapacity: Int
    let rasterizer = PathRasterizer()
    @exclusivity(unchecked) var masks: UnsafeMutablePointer<UInt8>
    @exclusivity(unchecked) var maskCapacity = 0
    @exclusivity(unchecked) var interiors: UnsafeMutablePointer<(Int, Int)>
    @exclusivity(unchecked) var interiorCapacity = 0
    /// The block owners (``_OcclusionMap``) of the band being run, set by the compositor.
    @exclusivity(unchecked) var occlusion = _OcclusionMap()
    /// The rank (1-based position in the band's op list) of the draw being run when it is at
    /// group depth 0 and the band's occlusion map is in use; 0 otherwise (nothing skipped).
    @exclusivity(unchecked) var occlusionRank: UInt32 = 0
    /// Whether ``run(_:draws:indices:frame:scratch:)`` uses ``occlusion`` (set by the
    /// compositor around a band it built the map for).
    @exclusivity(unchecked) var occlusionInUse = false

    init() {
        coverageCapacity = 0
        coverage = UnsafeMutablePointer<UInt8>.allocate(capacity: 1)
        folded = UnsafeMutablePointer<UInt8>.allocate(capacity: 1)
        rowCoverage = UnsafeMutablePointer<UInt8>.allocate(capacity: 1)
        samples = UnsafeMutablePointer<UInt32>.allocate(capacity: 1)
        masks = UnsafeMutablePointer<UInt8>.allocate(capacity: 1)
        interiors = UnsafeMutablePointer<(Int, Int)>.allocate(capacity: 1)
    }

    deinit {
        coverage.deallocate()
        folded.deallocate()
        rowCoverage.deallocate()
        samples.deallocate()
        masks.deallocate()
        interiors.deallocate()
        for g in groups { g.deallocate() }
    }

    /// Two masks of `count` bytes each (`masks` and `masks + count`), grown as needed.
    func masks(_ count: Int) -> UnsafeMutablePointer<UInt8> {
        if maskCapacity < 2 * count {
            masks.deallocate()
            maskCapacity = 2 * count
            masks = .allocate(capacity: maskCapacity)
        }
        return masks
    }

    /// A coverage row of at least `width` bytes and interior slots for `rows` rows.
    func rows(width: Int, rows: Int) {
        if coverageCapacity < width {
            coverage.deallocate()
            coverage = .allocate(capacity: width)
            folded.deallocate()
            folded = .allocate(capacity: width)
            rowCoverage.deallocate()
            rowCoverage = .allocate(capacity: width)
            samples.deallocate()
            samples = .allocate(capacity: width)
            coverageCapacity = width
        }
        if interiorCapacity < rows {
            interiors.deallocate()
            interiors = .allocate(capacity: rows)
            interiorCapacity = rows
        }
    }

    func prepare(width: Int, bandHeight: Int) {
        rows(width: width, rows: bandHeight)
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
    /// The device bounds of each draw of `ops` (nil for group pushes and pops), computed once per
    /// frame so that a band can pass over the draws it does not meet without copying them: a
    /// frame of 10,000 small layers has 10,000 draws and every band used to copy each one (its
    /// shapes and paint retained and released) only to find it elsewhere.
    static func drawBounds(_ ops: [_Op]) -> [_IRect?] {
        ops.map { op in
            if case .draw(let d) = op { return d.bounds }
            return nil
        }
    }

    /// Runs `ops` over the band `frame`. `drawBounds` (from ``drawBounds(_:)``), when given,
    /// skips the draws that miss the band — the same bytes, since such a draw paints nothing
    /// (group pushes and pops always run: the group stack must stay balanced).
    static func run(_ ops: [_Op], drawBounds: [_IRect?]? = nil, frame: _Target, scratch: _WorkerScratch) {
        if let db = drawBounds {
            var list: [Int32] = []
            for i in ops.indices where !(db[i].map { $0.intersection(frame.rect).isEmpty } ?? false) { list.append(Int32(i)) }
            run(ops, indices: list, frame: frame, scratch: scratch)
        } else {
            run(ops, indices: ops.indices.map { Int32($0) }, frame: frame, scratch: scratch)
        }
    }

    /// The ops of each band of `bandHeight` rows (`bands` of them, from row 0), in order: the
    /// draws whose bounds meet the band, and every group push and pop. Built once per frame, so
    /// a band visits only its own draws — with 10,000 small layers and 68 bands, scanning the
    /// whole list per band (and its bounds, a cache miss each) cost more than some draws.
    static func bandLists(_ ops: [_Op], bandHeight: Int, bands: Int) -> [[Int32]] {
        var lists = [[Int32]](repeating: [], count: bands)
        for i in ops.indices {
            if case .draw(let d) = ops[i] {
                let b = d.bounds
                if b.isEmpty { continue }
                let first = max(0, b.y0 / bandHeight), last = min(bands - 1, (b.y1 - 1) / bandHeight)
                if first > last { continue }
                for k in first...last { lists[k].append(Int32(i)) }
            } else {
                for k in 0..<bands { lists[k].append(Int32(i)) }
            }
        }
        return lists
    }

    /// Runs the ops at `indices` (increasing; draws that miss the band may be left out — they
    /// paint nothing there — but every push and pop must be present).
    static func run(_ ops: [_Op], indices: [Int32], frame: _Target, scratch: _WorkerScratch) {
        run(ops, draws: unmanagedDraws(ops), indices: indices, frame: frame, scratch: scratch)
    }

    /// Each op's draw as an unretained reference (nil for the other ops): the band loop
    /// borrows a draw from the list (which keeps it alive) instead of matching it out of the
    /// op, which retained and released it per draw and band (~3 % of a static W6b frame).
    static func unmanagedDraws(_ ops: [_Op]) -> [Unmanaged<_Draw>?] {
        ops.map { op in
            if case .draw(let d) = op { return Unmanaged.passUnretained(d) }
            return nil
        }
    }

    /// ``run(_:indices:frame:scratch:)`` with `draws = unmanagedDraws(ops)` (kept with a plan).
    static func run(_ ops: [_Op], draws: [Unmanaged<_Draw>?], indices: [Int32], frame: _Target, scratch: _WorkerScratch) {
        var stack: [_Target] = [frame]
        // Each level's pixels that hold values: the band for the frame, a group's push bounds
        // ∩ the band (the rest of a group buffer is stale; see `zero(_:outside:within:)`).
        var valid: [_IRect] = [frame.rect]
        let count = indices.count
        // Occlusion (`_OcclusionMap`): draws at depth 0 carry their rank; ranks the map could not
        // record (past UInt16.max − 1) are 0, which skips nothing.
        let occluding = scratch.occlusionInUse
        defer { scratch.occlusionRank = 0 }
        for (k, j) in indices.enumerated() {
            let i = Int(j)
            // Prefetch: the draw three ahead (its object), the next one's contents (its object
            // arrived a step or two ago). Hints only: the same bytes with or without them.
            if k + 3 < count, let u = draws[Int(indices[k + 3])] { fbk_prefetch(u.toOpaque(), 2) }
            if k + 1 < count, let u = draws[Int(indices[k + 1])] { u._withUnsafeGuaranteedRef { $0.prefetchContents() } }
            if let u = draws[i] {
                let t = stack[stack.count - 1]
                if occluding { scratch.occlusionRank = stack.count == 1 && k < Int(UInt16.max) - 1 ? UInt32(k + 1) : 0 }
                u._withUnsafeGuaranteedRef { draw($0, into: t, scratch: scratch) }
                continue
            }
            if occluding { scratch.occlusionRank = 0 }
            switch ops[i] {
            case .draw(let d):
                draw(d, into: stack[stack.count - 1], scratch: scratch)
            case .push(let b):
                let t = _Target(base: scratch.group(stack.count - 1), stride: frame.stride, rect: frame.rect)
                let r = b.intersection(frame.rect)
                for y in r.y0..<max(r.y0, r.y1) { (t.row(y) + r.x0).update(repeating: 0, count: r.x1 - r.x0) }
                stack.append(t)
                valid.append(r)
            case .pop(let b, let alpha, let mode, let maskMode, let clip):
                let src = stack.removeLast(), srcValid = valid.removeLast()
                var mask: _Target? = nil, maskValid = _IRect.empty
                if maskMode != nil { mask = stack.removeLast(); maskValid = valid.removeLast() }
                var r = b.intersection(frame.rect)
                if case .blend(let m) = mode, !m.isBounded {
                    // An unbounded operator (copy, sourceIn…) acts on the whole backdrop group:
                    // where the group drew nothing its source is transparent.
                    r = valid[valid.count - 1]
                    zero(src, outside: srcValid, within: r)
                }
                // An inverted mask (or an unbounded mode) reads the mask outside where it drew.
                if let mask { zero(mask, outside: maskValid, within: r) }
                var coverage: UnsafeMutablePointer<UInt8>? = nil
                if !clip.isEmpty {
                    for s in clip { if let p = s.pixelRect { r = r.intersection(p) } }
                    if clip.contains(where: { $0.pixelRect == nil }), !r.isEmpty { coverage = coverageMask(clip, r, scratch) }
                }
                if mask != nil, mode == .over, !r.isEmpty {
                    scratch.rows(width: r.x1 - r.x0, rows: 1)
                    composite(src, mask: mask, maskMode: maskMode ?? .alpha, onto: stack[stack.count - 1], rect: r,
                              alpha: alpha, mode: mode, coverage: coverage, factors: scratch.folded)
                } else {
                    composite(src, mask: mask, maskMode: maskMode ?? .alpha, onto: stack[stack.count - 1], rect: r,
                              alpha: alpha, mode: mode, coverage: coverage)
                }
            case .tint(let b, let c):
                let t = stack[stack.count - 1], r = b.intersection(frame.rect)
                for y in r.y0..<max(r.y0, r.y1) { SpanBlend.modulate(t.row(y) + r.x0, count: r.x1 - r.x0, tint: c) }
            }
        }
    }

    /// Zeroes `t`'s pixels in `r` outside `valid` (a group buffer's stale pixels, where its
    /// push did not clear it, before they are read as transparent).
    static func zero(_ t: _Target, outside valid: _IRect, within r: _IRect) {
        let v = valid.intersection(r)
        if r.isEmpty || v == r { return }    // the usual case: nothing outside
        for y in r.y0..<r.y1 {
            let row = t.row(y)
            if v.isEmpty || y < v.y0 || y >= v.y1 {
                (row + r.x0).update(repeating: 0, count: r.x1 - r.x0)
                continue
            }
            if v.x0 > r.x0 { (row + r.x0).update(repeating: 0, count: v.x0 - r.x0) }
            if r.x1 > v.x1 { (row + v.x1).update(repeating: 0, count: r.x1 - v.x1) }
        }
    }

    /// Puts a group back: `k = alpha` (× the mask's factor `maskMode.factor(m)` — its alpha,
    /// luminance or their inverse —, × the clip coverage `coverage`, a dense mask over `r`,
    /// each with exact rounding), s' = div255(s·k), then
    ///
    /// - over: d' = min(255, s' + div255(d·(255 − s'.a)));
    /// - plus: d' = min(255, s' + d);
    /// - blend(m): d' = `BlendModes.blend(s', d, mode: m)` (W3C blend modes and Porter–Duff
    ///   operators, rounded once; docs/compositor.md, "Blend modes").
    ///
    /// A masked source-over given `factors` (a row of at least `r`'s width, scratch) runs as the
    /// span kernel: each row's per-pixel `k` is gathered into `factors` — the mask's factor, or
    /// with a clip `div255(div255(alpha · factor) · coverage)` — and `SpanBlend.sourceOver` does
    /// `k = div255(opacity · factors[i])`, skips k = 0, `d' = over(scale(s, k), d)`: the loop
    /// below exactly (`div255(255 · x) = x`, scaling by 255 is the identity; tested against it).
    static func composite(_ src: _Target, mask: _Target?, maskMode: _LayerMaskMode = .alpha, onto dst: _Target,
                          rect r: _IRect, alpha: UInt32, mode: _GroupMode, coverage: UnsafeMutablePointer<UInt8>? = nil,
                          factors: UnsafeMutablePointer<UInt8>? = nil) {
        if r.isEmpty { return }
        let w = r.x1 - r.x0
        if let mask, let f = factors, mode == .over {
            for y in r.y0..<r.y1 {
                maskFactors(mask.row(y) + r.x0, count: w, mode: maskMode, into: f)
                if let c = coverage.map({ $0 + (y - r.y0) * w }) {
                    for i in 0..<w {
                        f[i] = UInt8(truncatingIfNeeded: PixelMath.mul8(PixelMath.mul8(alpha, UInt32(f[i])), UInt32(c[i])))
                    }
                    SpanBlend.sourceOver(dst.row(y) + r.x0, source: src.row(y) + r.x0, count: w, opacity: 255, coverage: f)
                } else {
                    SpanBlend.sourceOver(dst.row(y) + r.x0, source: src.row(y) + r.x0, count: w, opacity: UInt8(alpha), coverage: f)
                }
            }
            return
        }
        if mask == nil && mode == .over {
            // Plain group opacity (and clip): the SIMD span kernel, same formula as the loop below.
            for y in r.y0..<r.y1 {
                SpanBlend.sourceOver(dst.row(y) + r.x0, source: src.row(y) + r.x0, count: w, opacity: UInt8(alpha),
                                     coverage: coverage.map { UnsafePointer($0 + (y - r.y0) * w) })
            }
            return
        }
        if case .blend(let m) = mode {
            blend(src, mask: mask, maskMode: maskMode, onto: dst, rect: r, alpha: alpha, mode: m, coverage: coverage)
            return
        }
        let plus = mode == .plus
        for y in r.y0..<r.y1 {
            let s = src.row(y), d = dst.row(y), m = mask?.row(y)
            let c = coverage.map { $0 + (y - r.y0) * w - r.x0 }
            for x in r.x0..<r.x1 {
                var k = alpha
                if let m { k = PixelMath.mul8(k, maskMode.factor(m[x])) }
                if let c { k = PixelMath.mul8(k, UInt32(c[x])) }
                if k == 0 { continue }
                let p = k == 255 ? s[x] : PixelMath.scale(s[x], k)
                d[x] = plus ? PixelMath.plus(p, d[x]) : PixelMath.over(p, d[x])
            }
        }
    }

    /// `out[i] = mode.factor(m[i])` for `count` mask pixels (the mode resolved once per row).
    @inline(__always)
    static func maskFactors(_ m: UnsafeMutablePointer<UInt32>, count: Int, mode: _LayerMaskMode, into out: UnsafeMutablePointer<UInt8>) {
        switch mode {
        case .alpha:
            for i in 0..<count { out[i] = UInt8(truncatingIfNeeded: m[i] >> 24) }
        case .alphaInverted:
            for i in 0..<count { out[i] = UInt8(truncatingIfNeeded: 255 &- (m[i] >> 24)) }
        case .luminance:
            for i in 0..<count { out[i] = UInt8(truncatingIfNeeded: _LayerMaskMode.luminance(m[i])) }
        case .luminanceInverted:
            for i in 0..<count { out[i] = UInt8(truncatingIfNeeded: 255 &- _LayerMaskMode.luminance(m[i])) }
        }
    }

    /// `composite` with a blend mode (scalar: `BlendModes.blend` per pixel; no allocation, the
    /// mode resolved per pixel by a switch the optimizer hoists where it can). A transparent
    /// source pixel leaves a bounded mode's destination alone (skipped).
    static func blend(_ src: _Target, mask: _Target?, maskMode: _LayerMaskMode, onto dst: _Target, rect r: _IRect,
                      alpha: UInt32, mode: RasterBlendMode, coverage: UnsafeMutablePointer<UInt8>?) {
        let w = r.x1 - r.x0
        let bounded = mode.isBounded
        for y in r.y0..<r.y1 {
            let s = src.row(y), d = dst.row(y), m = mask?.row(y)
            let c = coverage.map { $0 + (y - r.y0) * w - r.x0 }
            for x in r.x0..<r.x1 {
                var k = alpha
                if let m { k = PixelMath.mul8(k, maskMode.factor(m[x])) }
                if let c { k = PixelMath.mul8(k, UInt32(c[x])) }
                let p = k == 255 ? s[x] : k == 0 ? 0 : PixelMath.scale(s[x], k)
                if p == 0 && bounded { continue }
                d[x] = BlendModes.blend(p, d[x], mode: mode)
            }
        }
    }

    /// Draws one op over the band's rows: its shapes are rasterized (`PathRasterizer`, clipped
    /// to the band ∩ the draw's bounds) into a `_PaintSink` that hands the spans to the painter:
    /// solid interiors (coverage 255) without a mask, everything else with its coverage bytes.
    /// Everything that does not depend on the row (the paint, the sampler set-up, the texture
    /// pointer) is resolved once per draw, not per span.
    static func draw(_ d: _Draw, into t: _Target, scratch: _WorkerScratch) {
        let r = d.bounds.intersection(t.rect)
        if r.isEmpty || d.alpha == 0 { return }
        scratch.rows(width: r.x1 - r.x0, rows: r.y1 - r.y0)
        if case .particles(let batch) = d.paint {
            particles(batch, alpha: d.alpha, into: t, scratch: scratch)
            return
        }
        // The image paint read in place in its box (`_ImagePaintBox`: no copy retaining the
        // texture, the same object for every particle of an emitter, from every worker).
        if case .image(let box) = d.paint, let kind = _FastImage.kind(box, x0: r.x0, x1: r.x1) {
            if let tint = box.paint.tint {
                // A tinted image (an emitter particle): sampler, tint and painter resolved once
                // per draw (`_TintedPainter`), not per span.
                box.withFastRaster { raster in
                    let fast = _FastImage(box, kind: kind, raster: raster, alpha: 255)
                    var p = _TintedPainter(fast: fast, tint: tint, alpha: d.alpha, samples: scratch.samples)
                    cover(d, r, t, scratch, &p, tile: 0)
                }
                return
            }
            box.withFastRaster { raster in
                let fast = _FastImage(box, kind: kind, raster: raster, alpha: d.alpha)
                guard kind == .affine, fast.translate == nil else {
                    var p = _FastPainter(fast: fast)
                    cover(d, r, t, scratch, &p, tile: 0)
                    return
                }
                // Rotated/scaled images: each row's fixed-point start is computed once (a row is
                // drawn as several spans), interior spans go in column tiles (see `cover`).
                // A narrow draw on AVX-512 goes to the row kernel, which computes each row's start
                // itself (`fbk_affine_rows_avx512`): no starts array (W6a: the Swift row loops
                // were 9 % of the frame).
                guard let setup = ImageSampler._rowSetup(fast.affine, filter: fast.filter) else { return }
                if r.x1 - r.x0 <= rowModeWidth && fast.backend.effective == .native && RasterBackend.avx512Available {
                    var p = _AffinePainter(fast: fast, setup: setup, starts: nil, y0: r.y0)
                    cover(d, r, t, scratch, &p, tile: tileWidth)
                    return
                }
                let n = r.y1 - r.y0
                withUnsafeTemporaryAllocation(of: AffineRowStart?.self, capacity: n) { starts in
                    ImageSampler.affineRows(y0: r.y0, y1: r.y1, inverse: fast.affine, filter: fast.filter, into: starts.baseAddress!)
                    var p = _AffinePainter(fast: fast, setup: setup, starts: starts.baseAddress!, y0: r.y0)
                    cover(d, r, t, scratch, &p, tile: tileWidth)
                }
            }
            return
        }
        if case .solid(let c) = d.paint {
            var p = _SolidPainter(color: c, alpha: d.alpha, folded: scratch.folded,
                                  occlusion: scratch.occlusionRank != 0 ? scratch.occlusion.view(rank: scratch.occlusionRank) : nil)
            cover(d, r, t, scratch, &p, tile: 0)
            return
        }
        if case .gradient(let g) = d.paint, RasterBackend.current.effective == .native, g.kind != .twoCircle {
            // Resolved once per draw: the ramp pinned, the map's row start computed per span.
            g.ramp.table.withUnsafeBufferPointer { table in
                var p = _GradientPainter(paint: g, table: table.baseAddress!, alpha: d.alpha,
                                         occlusion: scratch.occlusionRank != 0 ? scratch.occlusion.view(rank: scratch.occlusionRank) : nil)
                cover(d, r, t, scratch, &p, tile: 0)
            }
            return
        }
        var p = _GenericPainter(paint: d.paint, alpha: d.alpha)
        cover(d, r, t, scratch, &p, tile: 0)
    }

    /// A particle batch's records that meet the band, in order, each painted as the tinted
    /// image draw it stands for: the steps of `draw` for that draw (kind `.affine`, the
    /// `_TintedPainter`, `cover` with no tiles, `coverRows` with its one polygon outline), the
    /// outline read from the batch's flat points. (`scratch.rows` was sized by the batch's
    /// bounds, which hold every record's.)
    static func particles(_ batch: _ParticleBatch, alpha: UInt32, into t: _Target, scratch: _WorkerScratch) {
        let band = t.rect
        batch.points.withUnsafeBufferPointer { points in
            batch.records.withUnsafeBufferPointer { records in
                batch.textures.withUnsafeBufferPointer { textures in
                    if textures.count == 1 {
                        // One sprite at one level (the usual batch): its texture pinned once.
                        textures[0].withFastRaster { raster in
                            for i in records.indices {
                                particle(records.baseAddress! + i, raster, points, band: band, alpha: alpha, into: t, scratch: scratch)
                            }
                        }
                        return
                    }
                    for i in records.indices {
                        let q = records.baseAddress! + i
                        if q.pointer(to: \.bounds)!.pointee.intersection(band).isEmpty { continue }
                        textures[Int(q.pointer(to: \.texture)!.pointee)].withFastRaster { raster in
                            particle(q, raster, points, band: band, alpha: alpha, into: t, scratch: scratch)
                        }
                    }
                }
            }
        }
    }

    /// One record of a particle batch (nothing when it misses the band).
    @inline(__always)
    static func particle(_ q: UnsafePointer<_ParticleBatch.Record>, _ raster: RasterImage, _ points: UnsafeBufferPointer<Int32>,
                         band: _IRect, alpha: UInt32, into t: _Target, scratch: _WorkerScratch) {
        let r = q.pointer(to: \.bounds)!.pointee.intersection(band)
        if r.isEmpty { return }
        let start = Int(q.pointer(to: \.start)!.pointee), count = Int(q.pointer(to: \.count)!.pointee)
        let outline = UnsafeBufferPointer(rebasing: points[start..<(start + count)])
        let outlineBounds = q.pointer(to: \.outlineBounds)!.pointee
        let fast = _FastImage(inverse: q.pointer(to: \.inverse)!.pointee, nearest: false, kind: .affine, raster: raster, alpha: 255)
        var p = _TintedPainter(fast: fast, tint: q.pointer(to: \.tint)!.pointee, alpha: alpha, samples: scratch.samples)
        let clip = RasterClip(x0: r.x0, y0: r.y0, x1: r.x1, y1: r.y1)
        withUnsafePointer(to: &p) { pp in
            if r.x1 - r.x0 <= rowModeWidth || _TintedPainter.prefersRows {
                var sink = _RowSink(painter: pp, target: t, buffer: scratch.rowCoverage, x0: r.x0)
                scratch.rasterizer.fill(fixedPoints: outline, bounds: outlineBounds, rule: .nonZero, clip: clip, into: &sink)
                sink.flush()
            } else {
                var sink = _PaintSink(painter: pp, target: t, constant: scratch.coverage, interiors: nil, y0: r.y0)
                scratch.rasterizer.fill(fixedPoints: outline, bounds: outlineBounds, rule: .nonZero, clip: clip, into: &sink)
                sink.flush()
            }
        }
    }

    /// Width of the column tiles in which interior spans of sampled images are drawn.
    static let tileWidth = 64
    /// Draws at most this wide are painted a whole row per painter call (`_RowSink`).
    static let rowModeWidth = 64

    /// Rasterizes the draw's coverage over `r` and paints it with `painter`.
    ///
    /// With `tile > 0` the first solid interior span of each row is kept and drawn after the
    /// rest, tile by tile: for each column range `[X, X + tile)`, every row of the band. A
    /// rotated layer's texels for a `tile × bandHeight` block are a small compact patch of the
    /// texture that stays in L1, where a whole row walks a long diagonal through it. Samplers
    /// give a pixel the same bytes however its row is split, so the tiling changes only the
    /// order of work.
    @inline(__always)
    static func cover<P: _Painter>(_ d: _Draw, _ r: _IRect, _ t: _Target, _ scratch: _WorkerScratch, _ painter: inout P, tile: Int) {
        let n = r.y1 - r.y0
        let interiors = scratch.interiors
        if tile > 0 { for i in 0..<n { interiors[i] = (0, 0) } }
        // The sink reaches the painter through a pointer: no copies (and reference counting) of
        // the painter's image state per span.
        if r.x1 - r.x0 <= rowModeWidth || P.prefersRows {
            // A narrow draw (a small layer): each row's spans gathered into one coverage row and
            // painted by one call — with ~3 spans per row of 10–45 px, the per-call set-up of
            // the samplers cost more than the pixels. (Narrower than a column tile: no tiling.)
            withUnsafePointer(to: &painter) { pp in
                var sink = _RowSink(painter: pp, target: t, buffer: scratch.rowCoverage, x0: r.x0)
                coverRows(d, r, scratch, &sink)
            }
            return
        }
        withUnsafePointer(to: &painter) { pp in
            var sink = _PaintSink(painter: pp, target: t, constant: scratch.coverage, interiors: tile > 0 ? interiors : nil, y0: r.y0)
            coverRows(d, r, scratch, &sink)
        }
        guard tile > 0 else { return }
        var xmin = Int.max, xmax = Int.min
        for i in 0..<n where interiors[i].1 > interiors[i].0 {
            xmin = min(xmin, interiors[i].0); xmax = max(xmax, interiors[i].1)
        }
        var X = xmin
        while X < xmax {
            let X1 = X + tile
            for y in r.y0..<r.y1 {
                let (b, c) = interiors[y - r.y0]
                let lo = max(b, X), hi = min(c, X1)
                if hi > lo { painter.span(y, lo, hi, t.row(y), nil) }
            }
            X = X1
        }
    }

    /// The coverage part of `cover`: shapes → `sink`.
    @inline(__always)
    static func coverRows<S: _FlushingSink>(_ d: _Draw, _ r: _IRect, _ scratch: _WorkerScratch, _ sink: inout S) {
        defer { sink.flush() }
        // Whole-pixel rectangles only narrow the rows and columns (coverage 255 inside, 0
        // outside: the rasterizer would give the same bytes); the others are rasterized.
        var rect = r, rasterized = 0, single = 0
        d.shapes.withUnsafeBufferPointer { shapes in       // fields read in place, no copies of the paths
            for i in shapes.indices {
                let pr = (shapes.baseAddress! + i).pointer(to: \.pixelRect)!.pointee
                if let p = pr { rect = rect.intersection(p) } else {
                    // An aliased shape goes through the mask (thresholded there): counted as two.
                    rasterized += (shapes.baseAddress! + i).pointer(to: \.aliased)!.pointee ? 2 : 1
                    single = i
                }
            }
        }
        if rect.isEmpty { return }
        let clip = RasterClip(x0: rect.x0, y0: rect.y0, x1: rect.x1, y1: rect.y1)
        switch rasterized {
        case 0:
            for y in rect.y0..<rect.y1 { sink.constantSpan(y: y, x: rect.x0, count: rect.x1 - rect.x0, coverage: 255) }
        case 1:
            d.shapes.withUnsafeBufferPointer { shapes in
                let sp = shapes.baseAddress! + single
                let fp = sp.pointer(to: \.fixed)!
                if fp.pointee != nil {
                    // Read in place (an `if let` copy retained and released the points per fill).
                    UnsafeRawPointer(fp).withMemoryRebound(to: FixedPolygon.self, capacity: 1) { poly in
                        scratch.rasterizer.fill(polygonAt: poly, rule: sp.pointer(to: \.rule)!.pointee, clip: clip,
                                                straight: sp.pointer(to: \.straight)!.pointee, into: &sink)
                    }
                } else if let flat = sp.pointer(to: \.flat)!.pointee {
                    scratch.rasterizer.fill(flat, rule: sp.pointer(to: \.rule)!.pointee, clip: clip, into: &sink)
                } else {
                    scratch.rasterizer.fill(sp.pointer(to: \.path)!.pointee, rule: sp.pointer(to: \.rule)!.pointee, clip: clip,
                                            straight: sp.pointer(to: \.straight)!.pointee, into: &sink)
                }
            }
        default:
            // Several shapes: a dense mask over `rect` (`coverageMask`), replayed as spans.
            let w = rect.x1 - rect.x0
            let a = coverageMask(d.shapes, rect, scratch)
            for y in rect.y0..<rect.y1 {
                let m = a + (y - rect.y0) * w
                var x = 0
                while x < w {
                    let v = m[x]
                    var e = x + 1
                    if v == 0 || v == 255 {
                        while e < w && m[e] == v { e += 1 }
                        if v == 255 { sink.constantSpan(y: y, x: rect.x0 + x, count: e - x, coverage: 255) }
                    } else {
                        while e < w && m[e] != 0 && m[e] != 255 { e += 1 }
                        sink.coverageSpan(y: y, x: rect.x0 + x, coverage: UnsafeBufferPointer(start: m + x, count: e - x))
                    }
                    x = e
                }
            }
        }
    }

}

extension _BandExecutor {
    /// The coverage of `shapes` (those that are not whole-pixel rectangles; the caller narrows
    /// `rect` by those) as a dense mask over `rect` in the worker's scratch: each rasterized,
    /// several multiplied with exact rounding, `c = div255(c₀·c₁)` (`PixelMath.mul8`).
    static func coverageMask(_ shapes: [_Shape], _ rect: _IRect, _ scratch: _WorkerScratch) -> UnsafeMutablePointer<UInt8> {
        let w = rect.x1 - rect.x0, count = w * (rect.y1 - rect.y0)
        let a = scratch.masks(count), b = a + count
        let clip = RasterClip(x0: rect.x0, y0: rect.y0, x1: rect.x1, y1: rect.y1)
        var first = true
        for s in shapes where s.pixelRect == nil {
            let m = first ? a : b
            m.update(repeating: 0, count: count)
            var ms = CoverageMaskSink(base: m, x0: rect.x0, y0: rect.y0, width: w)
            if let fixed = s.fixed {
                scratch.rasterizer.fill(fixed, rule: s.rule, clip: clip, straight: nil, into: &ms)
            } else if let flat = s.flat {
                scratch.rasterizer.fill(flat, rule: s.rule, clip: clip, into: &ms)
            } else {
                scratch.rasterizer.fill(s.path, rule: s.rule, clip: clip, into: &ms)
            }
            if s.aliased {
                for i in 0..<count { m[i] = m[i] >= 128 ? 255 : 0 }
            }
            if !first {
                // Branch-free, so it vectorises: div255(0 · b) = 0 leaves the zeros as they are.
                for i in 0..<count { a[i] = UInt8(truncatingIfNeeded: PixelMath.mul8(UInt32(a[i]), UInt32(b[i]))) }
            }
            first = false
        }
        return a
    }
}

/// Paints one span `[x0, x1)` of row `y` (coverage nil = 255 everywhere).
protocol _Painter {
    func span(_ y: Int, _ x0: Int, _ x1: Int, _ row: UnsafeMutablePointer<UInt32>, _ coverage: UnsafeMutablePointer<UInt8>?)
    /// Paint whole rows (`_RowSink`) at any width: one call per row instead of one per span.
    static var prefersRows: Bool { get }
    /// Rows `y ..< y + n` with coverage (`CoverageSink.denseRows`): row `i` is the span from
    /// `x + starts[i]` of `counts[i]` pixels (none when 0) with the coverage at
    /// `coverage + i·stride + starts[i]`. Default: `span` per row.
    func rows(_ y: Int, _ n: Int, _ x: Int, _ starts: UnsafePointer<Int>, _ counts: UnsafePointer<Int>,
              _ coverage: UnsafePointer<UInt8>, _ stride: Int, _ target: _Target)
    /// A painter of one colour over `target` says so (`CoverageSink.solidTarget`: the sweep then
    /// paints it itself). Default nil.
    func solidTarget(_ target: _Target) -> SolidTarget?
}

extension _Painter {
    static var prefersRows: Bool { false }
    func solidTarget(_ target: _Target) -> SolidTarget? { nil }
    @inline(__always)
    func rows(_ y: Int, _ n: Int, _ x: Int, _ starts: UnsafePointer<Int>, _ counts: UnsafePointer<Int>,
              _ coverage: UnsafePointer<UInt8>, _ stride: Int, _ target: _Target) {
        spanByRow(y, n, x, starts, counts, coverage, stride, target)
    }

    /// `rows` as one `span` per row (the default, and a painter's own fallback).
    @inline(__always)
    func spanByRow(_ y: Int, _ n: Int, _ x: Int, _ starts: UnsafePointer<Int>, _ counts: UnsafePointer<Int>,
                   _ coverage: UnsafePointer<UInt8>, _ stride: Int, _ target: _Target) {
        for i in 0..<n where counts[i] > 0 {
            let x0 = x + starts[i]
            span(y + i, x0, x0 + counts[i], target.row(y + i), UnsafeMutablePointer(mutating: coverage + i * stride + starts[i]))
        }
    }
}

/// A gradient through the fused AVX2 kernel (`fbk_gradient_over_avx2`: the colours of
/// `fbk_gradient_avx2`, bit-identical to `GradientPaint.shadeScalar`, source-over with the
/// draw's alpha and the coverage in the same pass). The same bytes as `_SpanPainter.gradient`.
/// Only plain values (no ramp array, so copies of the painter retain nothing).
struct _GradientPainter: _Painter {
    let m: (Float, Float, Float, Float, Float, Float, Float, Float, Float)
    let table: UnsafePointer<UInt32>
    let alpha: UInt32
    let code: Int32, before: Int32, after: Int32
    /// The AVX-512 build of the kernel (same bytes): positions 16 at a time.
    let wide: Bool
    /// The band's occlusion map as plain pointers, with this draw's rank (`_OcclusionView`):
    /// blocks a later opaque draw covers are skipped.
    let occlusion: _OcclusionView?
    /// Whole rows (`_RowSink`): one kernel call per row, edges and interior, instead of three
    /// (the 1–3 px edge spans of a rotated shape cost more in call set-up and partial blocks
    /// than in pixels: −10–13 % of the gradient workload). The row's colours are then computed
    /// from its first covered pixel (`GradientPaint`'s rule: positions from the painted span's
    /// start), so pixels of rotated shapes can differ by ±1 from the span-by-span painting.
    static var prefersRows: Bool { true }

    init(paint: GradientPaint, table: UnsafePointer<UInt32>, alpha: UInt32, occlusion: _OcclusionView? = nil) {
        self.m = paint.m; self.table = table; self.alpha = alpha; self.occlusion = occlusion
        code = paint.kind == .axial ? 0 : paint.kind == .radial ? 1 : 2
        before = paint.extendsBefore ? 1024 : 1026
        after = paint.extendsAfter ? 1025 : 1026
        wide = RasterBackend.avx512Available
    }

    @inline(__always)
    func span(_ y: Int, _ x0: Int, _ x1: Int, _ row: UnsafeMutablePointer<UInt32>, _ coverage: UnsafeMutablePointer<UInt8>?) {
        let n = x1 - x0
        guard n > 0 else { return }
        let (u0, v0, w0) = GradientPaint.rowStart(m, y: y, x0: x0)
        // Without a hidden block on the row (owner nil) this is the plain kernel.
        fbk_gradient_over_occluded(row + x0, coverage, alpha, n, table, code, u0, v0, w0, m.0, m.3, m.6, before, after,
                                   occlusion?.hides(y), x0, occlusion?.rank ?? 0, wide ? 1 : 0)
    }

    /// The rasterizer's dense rows in one kernel call (`fbk_gradient_over_rows`: each row's
    /// start computed in C as `GradientPaint.rowStart` does) — the bytes of `span` per row,
    /// without a Swift-to-C call and a dispatch per row.
    func rows(_ y: Int, _ n: Int, _ x: Int, _ starts: UnsafePointer<Int>, _ counts: UnsafePointer<Int>,
              _ coverage: UnsafePointer<UInt8>, _ stride: Int, _ target: _Target) {
        var mm = m
        withUnsafeBytes(of: &mm) { raw in
            let mp = raw.baseAddress!.assumingMemoryBound(to: Float.self)
            if let occ = occlusion {
                fbk_gradient_over_rows(target.row(y) + x, target.stride, n, y, x, starts, counts, coverage, stride, alpha,
                                       table, code, mp, before, after, occ.owner, occ.rowMax, occ.blocks, occ.y0, occ.rank, wide ? 1 : 0)
            } else {
                fbk_gradient_over_rows(target.row(y) + x, target.stride, n, y, x, starts, counts, coverage, stride, alpha,
                                       table, code, mp, before, after, nil, nil, 0, 0, 0, wide ? 1 : 0)
            }
        }
    }
}

struct _GenericPainter: _Painter {
    let paint: _Paint, alpha: UInt32
    @inline(__always)
    func span(_ y: Int, _ x0: Int, _ x1: Int, _ row: UnsafeMutablePointer<UInt32>, _ coverage: UnsafeMutablePointer<UInt8>?) {
        _SpanPainter.span(paint, alpha: alpha, y: y, x0: x0, x1: x1, row: row, coverage: coverage)
    }
}

/// A solid colour (`_Paint.solid`) with the draw's alpha: `SpanBlend.solidOver` (SIMD) for
/// every span. The same bytes as `_SpanPainter`'s scalar loop: that computes
/// `k = div255(alpha·coverage)` and source-over of `scale(c, k)` (nothing where k = 0), which
/// is `solidOver` of `c` through the coverage bytes `k` (`div255(255·m) = m`, `scale(c, 255) = c`).
struct _SolidPainter: _Painter {
    let color: UInt32, alpha: UInt32
    /// A scratch row for `k` when alpha < 255 (the caller's coverage is left as it is).
    let folded: UnsafeMutablePointer<UInt8>
    let backend = RasterBackend.current
    /// The band's occlusion map seen by this draw (`_OcclusionView`): fully covered spans
    /// (a whole-pixel rectangle's rows, e.g. a background layer) leave out the blocks a later
    /// opaque draw covers. A colour's pixels do not depend on where a span starts.
    var occlusion: _OcclusionView? = nil

    init(color: UInt32, alpha: UInt32, folded: UnsafeMutablePointer<UInt8>, occlusion: _OcclusionView? = nil) {
        self.color = color; self.alpha = alpha; self.folded = folded; self.occlusion = occlusion
    }

    @inline(__always)
    func span(_ y: Int, _ x0: Int, _ x1: Int, _ row: UnsafeMutablePointer<UInt32>, _ coverage: UnsafeMutablePointer<UInt8>?) {
        guard let coverage else {
            let c = RGBA8(packed: alpha == 255 ? color : PixelMath.scale(color, alpha))
            if let occ = occlusion, let owner = occ.hides(y) {
                occ.visibleRuns(owner, x0, x1) { a, b in SpanBlend.solidOver(row + a, color: c, count: b - a, backend: backend) }
                return
            }
            SpanBlend.solidOver(row + x0, color: c, count: x1 - x0, backend: backend)
            return
        }
        if alpha == 255 {
            SpanBlend.solidOver(row + x0, color: RGBA8(packed: color), count: x1 - x0, coverage: UnsafePointer(coverage), backend: backend)
            return
        }
        for i in 0..<(x1 - x0) { folded[i] = UInt8(truncatingIfNeeded: PixelMath.mul8(alpha, UInt32(coverage[i]))) }
        SpanBlend.solidOver(row + x0, color: RGBA8(packed: color), count: x1 - x0, coverage: UnsafePointer(folded), backend: backend)
    }
}

extension _SolidPainter {
    /// At full opacity, the colour over the target's pixels: pixel (x, y) at
    /// `target.row(y) + x`, i.e. `pixels[y · stride + x]` from `base − y0·stride − x0`.
    func solidTarget(_ target: _Target) -> SolidTarget? {
        guard alpha == 255 else { return nil }
        return SolidTarget(pixels: target.base - (target.rect.y0 * target.stride + target.rect.x0),
                           rowStride: target.stride, color: RGBA8(packed: color))
    }

    /// Rows at full opacity through one kernel call (`SpanBlend.solidOverRows`), the same
    /// bytes as `span` per row; with an opacity below 255 (coverage folded per row into one
    /// scratch row) row by row.
    func rows(_ y: Int, _ n: Int, _ x: Int, _ starts: UnsafePointer<Int>, _ counts: UnsafePointer<Int>,
              _ coverage: UnsafePointer<UInt8>, _ stride: Int, _ target: _Target) {
        guard alpha == 255 else { return spanByRow(y, n, x, starts, counts, coverage, stride, target) }
        SpanBlend.solidOverRows(target.row(y) + x, rowStride: target.stride, count: n, starts: starts, counts: counts,
                                coverage: coverage, stride: stride, color: RGBA8(packed: color), backend: backend)
    }
}

struct _FastPainter: _Painter {
    let fast: _FastImage
    @inline(__always)
    func span(_ y: Int, _ x0: Int, _ x1: Int, _ row: UnsafeMutablePointer<UInt32>, _ coverage: UnsafeMutablePointer<UInt8>?) {
        fast.span(y: y, x0: x0, x1: x1, row: row, coverage: coverage)
    }
}

struct _AffinePainter: _Painter {
    let fast: _FastImage
    /// `ImageSampler._rowSetup` of the draw: the filter's shift and the per-pixel step.
    let setup: (shift: Double, du: Int64, dv: Int64)
    /// Each row's start from `ImageSampler.affineRows` (a wide draw: a row is drawn as several
    /// spans), or nil: computed where a row is drawn (`start(_:)`, the row kernel).
    let starts: UnsafeMutablePointer<AffineRowStart?>?
    let y0: Int

    @inline(__always)
    func start(_ y: Int) -> AffineRowStart? {
        if let starts { return starts[y - y0] }
        return ImageSampler._rowStart(y: y, fast.affine, shift: setup.shift, du: setup.du, dv: setup.dv)
    }

    @inline(__always)
    func span(_ y: Int, _ x0: Int, _ x1: Int, _ row: UnsafeMutablePointer<UInt32>, _ coverage: UnsafeMutablePointer<UInt8>?) {
        if let start = start(y) { fast.affineSpan(start: start, x0: x0, x1: x1, row: row, coverage: coverage) }
    }

    /// The rows' spans through one kernel call: `fbk_affine_rows_avx512` (each row's start
    /// computed there, as `ImageSampler._rowStart`) when the starts were not computed, else
    /// `ImageSampler.drawAffineSpans`. The same bytes as `span` per row (each row's start and
    /// guard as `drawAffineSpan` has them).
    func rows(_ y: Int, _ n: Int, _ x: Int, _ rowStarts: UnsafePointer<Int>, _ counts: UnsafePointer<Int>,
              _ coverage: UnsafePointer<UInt8>, _ stride: Int, _ target: _Target) {
        if starts == nil && fast.backend.effective == .native && RasterBackend.avx512Available {
            let t = fast.affine
            var args = fbk_affine_rows(dst: target.row(y), dst_stride: target.stride, y: y, n: n, x: x,
                                       starts: rowStarts, counts: counts, coverage: coverage, cov_stride: stride,
                                       a: t.a, b: t.b, c: t.c, d: t.d, e: t.e, f: t.f, shift: setup.shift,
                                       du: setup.du, dv: setup.dv)
            ImageSampler.drawAffineRowsAVX512(&args, image: fast.raster, filter: fast.filter, opacity: fast.opacity)
            return
        }
        withUnsafeTemporaryAllocation(of: fbk_affine_span.self, capacity: n) { buf in
            let spans = buf.baseAddress!
            var m = 0, du: Int64 = 0, dv: Int64 = 0
            for i in 0..<n where counts[i] > 0 {
                let yy = y + i
                guard let start = start(yy) else { continue }
                let x0 = x + rowStarts[i], x1 = x0 + counts[i]
                let mask = coverage + i * stride + rowStarts[i]
                if m > 0 && (start.du != du || start.dv != dv) {      // (one draw: never; kept exact)
                    fast.affineSpan(start: start, x0: x0, x1: x1, row: target.row(yy), coverage: UnsafeMutablePointer(mutating: mask))
                    continue
                }
                guard x0 >= 0, x1 <= 1 << 15 else { continue }          // drawAffineSpan's guard
                du = start.du; dv = start.dv
                spans[m] = fbk_affine_span(dst: target.row(yy) + x0, n: x1 - x0, u: start.u &+ Int64(x0) &* du,
                                           v: start.v &+ Int64(x0) &* dv, mask: mask)
                m += 1
            }
            ImageSampler.drawAffineSpans(spans, count: m, du: du, dv: dv, image: fast.raster, filter: fast.filter,
                                         edge: .clamp, opacity: fast.opacity, backend: fast.backend)
        }
    }
}

/// The rasterizer's coverage → painter spans. Solid runs (255) are merged while adjacent
/// (the 255 ends of a `coverageSpan` included) and painted without a mask; other constant runs
/// are expanded into the coverage row; coverage spans go to the masked painters. A 255 mask byte
/// gives `k = div255(alpha·255) = alpha` and a 0 byte draws nothing, so how a row is split into
/// spans never changes its bytes. With `interiors`, each row's first solid run is stored
/// (for `cover`'s column tiles) instead of painted.
struct _PaintSink<P: _Painter>: CoverageSink {
    let painter: UnsafePointer<P>
    let target: _Target
    let constant: UnsafeMutablePointer<UInt8>
    let interiors: UnsafeMutablePointer<(Int, Int)>?
    let y0: Int
    var py = Int.min, px0 = 0, px1 = 0

    init(painter: UnsafePointer<P>, target: _Target, constant: UnsafeMutablePointer<UInt8>, interiors: UnsafeMutablePointer<(Int, Int)>?, y0: Int) {
        self.painter = painter; self.target = target; self.constant = constant; self.interiors = interiors; self.y0 = y0
    }

    @inline(__always)
    mutating func flush() {
        guard px1 > px0 else { return }
        if let interiors, interiors[py - y0].1 <= interiors[py - y0].0 {
            interiors[py - y0] = (px0, px1)
        } else {
            painter.pointee.span(py, px0, px1, target.row(py), nil)
        }
        px0 = 0; px1 = 0
    }

    @inline(__always)
    mutating func solid(_ y: Int, _ x0: Int, _ x1: Int) {
        if y == py && x0 == px1 && px1 > px0 { px1 = x1; return }
        flush()
        py = y; px0 = x0; px1 = x1
    }

    /// A solid painter at full opacity paints as the rasterizer sweeps (no tiles of interiors
    /// for it: those are for sampled images).
    var solidTarget: SolidTarget? { interiors == nil ? painter.pointee.solidTarget(target) : nil }

    mutating func constantSpan(y: Int, x: Int, count: Int, coverage: UInt8) {
        if coverage == 255 { solid(y, x, x + count); return }
        constant.update(repeating: coverage, count: count)
        painter.pointee.span(y, x, x + count, target.row(y), constant)
    }

    /// Coverage spans at most this long are painted by one masked call, 255 bytes and all: a
    /// thin stroke's crossing of a row (edge, a few solid pixels, edge) was three painter calls.
    static var shortSpan: Int { 24 }

    mutating func coverageSpan(y: Int, x: Int, coverage: UnsafeBufferPointer<UInt8>) {
        let c = coverage.baseAddress!
        if interiors == nil && coverage.count <= Self.shortSpan {
            painter.pointee.span(y, x, x + coverage.count, target.row(y), UnsafeMutablePointer(mutating: c))
            return
        }
        var s = 0, e = coverage.count
        while s < e && c[s] == 255 { s += 1 }
        if s > 0 { solid(y, x, x + s) }
        if s == e { return }
        while e > s && c[e - 1] == 255 { e -= 1 }
        painter.pointee.span(y, x + s, x + e, target.row(y), UnsafeMutablePointer(mutating: c + s))
        if e < coverage.count { solid(y, x + e, x + coverage.count) }
    }
}

/// A coverage sink the executor flushes after the last span of a draw.
protocol _FlushingSink: CoverageSink {
    mutating func flush()
}

extension _PaintSink: _FlushingSink {}

/// Gathers each row's spans into one dense coverage row (`buffer[x − x0]`, zeros in the gaps)
/// and paints it with one painter call from the first to the last covered pixel. A 255 byte
/// gives `k = alpha` and a 0 byte draws nothing, so the bytes are those of `_PaintSink`.
struct _RowSink<P: _Painter>: _FlushingSink {
    let painter: UnsafePointer<P>
    let target: _Target
    let buffer: UnsafeMutablePointer<UInt8>
    let x0: Int
    var y = Int.min, s = 0, e = 0

    init(painter: UnsafePointer<P>, target: _Target, buffer: UnsafeMutablePointer<UInt8>, x0: Int) {
        self.painter = painter; self.target = target; self.buffer = buffer; self.x0 = x0
    }

    mutating func flush() {
        if e > s { painter.pointee.span(y, s, e, target.row(y), buffer + (s - x0)) }
        s = 0; e = 0
    }

    @inline(__always)
    mutating func begin(_ yy: Int, _ x: Int) {
        if yy != y || x < e || e <= s {
            flush()
            y = yy; s = x; e = x
        } else if x > e {
            (buffer + (e - x0)).update(repeating: 0, count: x - e)
        }
    }

    mutating func constantSpan(y: Int, x: Int, count: Int, coverage: UInt8) {
        begin(y, x)
        (buffer + (x - x0)).update(repeating: coverage, count: count)
        e = x + count
    }

    mutating func coverageSpan(y: Int, x: Int, coverage: UnsafeBufferPointer<UInt8>) {
        begin(y, x)
        (buffer + (x - x0)).update(from: coverage.baseAddress!, count: coverage.count)
        e = x + coverage.count
    }

    /// The rasterizer's rows arrive whole, in chunks (`denseRows`: the native sweep's rows and a
    /// rounded rectangle's straight rows): painted from its buffer, no gathering or copy.
    static var prefersDenseRows: Bool { true }
    // (no `solidTarget`: for a small layer's rows, 10–45 px, painting in the sweep's 16-cell
    // blocks measured 3–6 % slower on W6b than these dense rows)

    mutating func denseRows(y yy: Int, count: Int, x: Int, starts: UnsafePointer<Int>, counts: UnsafePointer<Int>,
                            coverage: UnsafePointer<UInt8>, stride: Int) {
        flush()
        painter.pointee.rows(yy, count, x, starts, counts, coverage, stride, target)
    }
}
