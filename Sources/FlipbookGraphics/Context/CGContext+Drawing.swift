import Foundation
import FlipbookPixels
import FlipbookRaster

// MARK: Public drawing calls

extension CGContext {
    /// Fills the current path with the fill colour under `rule` (every subpath closed), then
    /// empties the path.
    public func fillPath(using rule: CGPathFillRule = .winding) {
        Self._loadRaster(_path, into: &_fillPath)
        _clearPath()
        _fillDevice(_fillPath, rule: rule, color: _state.fillColor)
    }

    /// Strokes the current path with the stroke colour and line style, then empties the path.
    public func strokePath() {
        let scale = _strokeIntoOutline(_path, forDrawing: true)
        _clearPath()
        if let scale { _fillDevice(_outline, rule: .winding, color: _state.strokeColor, coverageScale: scale, corrections: _strokeCorrections) }
    }

    /// Paints the current path as `mode` says (fill, then stroke for the combined modes; each
    /// with its own shadow, as Core Graphics), then empties the path.
    public func drawPath(using mode: CGPathDrawingMode) {
        switch mode {
        case .fill: fillPath(using: .winding)
        case .eoFill: fillPath(using: .evenOdd)
        case .stroke: strokePath()
        case .fillStroke, .eoFillStroke:
            Self._loadRaster(_path, into: &_fillPath)
            _fillDevice(_fillPath, rule: mode == .fillStroke ? .winding : .evenOdd, color: _state.fillColor)
            strokePath()
        }
    }

    /// Fills `rect` (user space) with the fill colour. The current path is untouched.
    public func fill(_ rect: CGRect) { fill([rect]) }

    /// Fills the rectangles (one shape, winding rule: overlaps are painted once).
    public func fill(_ rects: [CGRect]) {
        let p = CGMutablePath(); p.addRects(rects, transform: _state.ctm)
        _fillDevice(RasterPath(p), rule: .winding, color: _state.fillColor)
    }

    /// Strokes `rect` with the current line style. The current path is untouched.
    public func stroke(_ rect: CGRect) {
        let p = CGMutablePath(); p.addRect(rect, transform: _state.ctm)
        if let (o, s) = _strokeOutline(of: p, forDrawing: true) {
            _fillDevice(o, rule: .winding, color: _state.strokeColor, coverageScale: s, corrections: _strokeCorrections)
        }
    }

    /// Strokes `rect` with line width `width` (the state's width is unchanged).
    public func stroke(_ rect: CGRect, width: CGFloat) {
        let saved = _state.lineWidth
        _state.lineWidth = max(width, 0)
        stroke(rect)
        _state.lineWidth = saved
    }

    /// Fills the ellipse inscribed in `rect`; empties the current path (as on Apple).
    public func fillEllipse(in rect: CGRect) {
        beginPath(); addEllipse(in: rect); fillPath()
    }

    /// Strokes the ellipse inscribed in `rect`; empties the current path (as on Apple).
    public func strokeEllipse(in rect: CGRect) {
        beginPath(); addEllipse(in: rect); strokePath()
    }

    /// Strokes the segments `points[0]–points[1]`, `points[2]–points[3]`, … (an odd last point is
    /// ignored); empties the current path (Apple: equivalent to move/addLine pairs + strokePath).
    public func strokeLineSegments(between points: [CGPoint]) {
        beginPath()
        var i = 0
        while i + 1 < points.count { move(to: points[i]); addLine(to: points[i + 1]); i += 2 }
        strokePath()
    }

    /// Makes the pixels under `rect` transparent (Core Graphics' clear: respects the CTM and the
    /// clip, antialiased edges leave partial alpha; ignores blend mode, alpha and shadow).
    public func clear(_ rect: CGRect) {
        let p = CGMutablePath(); p.addRect(rect, transform: _state.ctm)
        guard let cov = _shapeCoverage(RasterPath(p), rule: .nonZero, scale: 1, within: _surfaceRect) else { return }
        _composite(cov, source: .solid(0), mode: .clear, shadow: nil)
    }

    /// Intersects the clip with the current path filled under `rule`, then empties the path
    /// (Apple's `clip(using:)`). Antialiased: the clip is a coverage mask.
    public func clip(using rule: CGPathFillRule = .winding) {
        let p = _path; _path = CGMutablePath()
        _intersectClip(RasterPath(p), rule: rule == .winding ? .nonZero : .evenOdd)
    }

    /// Intersects the clip with `rect` (user space). The current path is untouched.
    public func clip(to rect: CGRect) { clip(to: [rect]) }

    /// Intersects the clip with the union of `rects`.
    public func clip(to rects: [CGRect]) {
        let p = CGMutablePath(); p.addRects(rects, transform: _state.ctm)
        _intersectClip(RasterPath(p), rule: .nonZero)
    }

    /// Intersects the clip with `mask` drawn into `rect` (Apple's `clip(to:mask:)`): outside
    /// `rect` everything is clipped; inside, each pixel keeps the fraction of the mask sampled
    /// there (bilinear unless `interpolationQuality` is `.none`, image upright as in
    /// ``draw(_:in:)``). The fraction is the mask's **alpha**; an image whose every pixel is opaque
    /// counts as an image **without alpha** and its **gray level** is used instead
    /// (`(77·R + 150·G + 29·B + 128) >> 8`, white = keep) — Flipbook's `CGImage` has no alpha-info
    /// flag, so this is how a grayscale mask is recognised.
    public func clip(to rect: CGRect, mask: CGImage) {
        let p = CGMutablePath(); p.addRect(rect, transform: _state.ctm)
        guard let cov = _shapeCoverage(RasterPath(p), rule: .nonZero, scale: 1, within: _surfaceRect),
              let inv = _imageInverse(mask, in: rect) else { _setEmptyClip(); return }
        let opaque = mask.pixelBuffer.bytes.withUnsafeBytes { raw -> Bool in
            let px = raw.bindMemory(to: UInt32.self)
            return !px.contains { $0 >> 24 != 255 }
        }
        var values = cov
        let filter: SampleFilter = _state.interpolationQuality == .none ? .nearest : .bilinear
        mask.pixelBuffer.withRasterImage { img in
            var row = [UInt32](repeating: 0, count: cov.rect.width)
            row.withUnsafeMutableBufferPointer { rb in
                for y in cov.rect.y0..<cov.rect.y1 {
                    rb.update(repeating: 0)
                    ImageSampler.drawAffineSpan(row: rb.baseAddress! - cov.rect.x0, y: y, x0: cov.rect.x0, x1: cov.rect.x1,
                                                image: img, inverse: inv, filter: filter, edge: .clamp)
                    let j = (y - cov.rect.y0) * cov.rect.width
                    for i in 0..<cov.rect.width {
                        let s = rb[i]
                        let m: UInt32 = opaque
                            ? (77 * (s & 0xFF) + 150 * ((s >> 8) & 0xFF) + 29 * ((s >> 16) & 0xFF) + 128) >> 8
                            : s >> 24
                        values.bytes[j + i] = UInt8(PixelRounding.div255(UInt32(values.bytes[j + i]) * m))
                    }
                }
            }
        }
        _intersectClip(values)
    }

    /// Draws `image` scaled into `rect` (user space) with the global alpha, blend mode, shadow and
    /// clip. Filtering: bilinear (nearest for `interpolationQuality == .none`), edges decided by
    /// the rect's exact coverage (texels clamped).
    ///
    /// **Orientation (Core Graphics'):** the image's first row goes to `rect.maxY`, its first
    /// column to `rect.minX`. In a bitmap context (y up) it is therefore upright; in a layer's
    /// `draw(in:)` context (y down, as UIKit's) it is upside down, which is why iOS code drawing a
    /// `CGImage` there flips the CTM first — that flip ports unchanged.
    ///
    /// `byTiling: true` repeats the image (each copy the size of `rect`, one of them at `rect`)
    /// over the whole clip, sampled with wrap-around at the tile edges.
    public func draw(_ image: CGImage, in rect: CGRect, byTiling: Bool = false) {
        guard image.width > 0, image.height > 0, let inv = _imageInverse(image, in: rect) else { return }
        let path: RasterPath
        if byTiling {
            var full = RasterPath(); full.addRect(x: 0, y: 0, width: Double(width), height: Double(height)); path = full
        } else {
            let p = CGMutablePath(); p.addRect(rect, transform: _state.ctm); path = RasterPath(p)
        }
        let filter: SampleFilter = _state.interpolationQuality == .none ? .nearest : .bilinear
        let alpha8 = UInt8((Double(_state.alpha) * 255).rounded())
        guard alpha8 > 0 else { return }
        let within = _state.shadow == nil ? _surfaceRect : _shadowSourceRect(_state.shadow!)
        guard let cov = _shapeCoverage(path, rule: .nonZero, scale: 1, within: within) else { return }
        _composite(cov, source: .image(image, inv, filter, alpha8, tiled: byTiling), mode: _state.blendMode._raster, shadow: _state.shadow)
    }

    /// Starts a transparency layer (Apple's `beginTransparencyLayer(auxiliaryInfo:)`;
    /// `auxiliaryInfo` is ignored, as Core Graphics does). Drawing goes to a fully transparent
    /// backdrop until ``endTransparencyLayer()``. The graphics state is saved; inside the layer
    /// alpha is 1, the blend mode normal, the shadow off and the clip the whole bitmap (the
    /// saved clip is applied once, when the layer is composited). Layers nest.
    public func beginTransparencyLayer(auxiliaryInfo: NSDictionary?) {
        _layers.append((_surface, _state, _saved.count))
        _surface = _Surface(width: width, height: height)
        _state.alpha = 1; _state.blendMode = .normal; _state.shadow = nil; _state.clip = nil
    }

    /// A transparency layer bounded by `rect` (user space): as
    /// ``beginTransparencyLayer(auxiliaryInfo:)`` with the layer clipped to `rect`.
    public func beginTransparencyLayer(in rect: CGRect, auxiliaryInfo: NSDictionary?) {
        beginTransparencyLayer(auxiliaryInfo: auxiliaryInfo)
        clip(to: rect)
    }

    /// Ends the innermost transparency layer: the graphics state saved at `begin` is restored and
    /// the layer is composited onto what lies beneath with that state's alpha, blend mode,
    /// shadow and clip (Apple's `endTransparencyLayer()`). Unbalanced calls do nothing.
    public func endTransparencyLayer() {
        guard let (below, state, depth) = _layers.popLast() else { return }
        let layer = _surface
        _surface = below
        _state = state
        if _saved.count > depth { _saved.removeLast(_saved.count - depth) }
        let alpha8 = UInt8((Double(_state.alpha) * 255).rounded())
        guard alpha8 > 0 else { return }
        var full = RasterPath(); full.addRect(x: 0, y: 0, width: Double(width), height: Double(height))
        guard let cov = _shapeCoverage(full, rule: .nonZero, scale: 1, within: _surfaceRect, antialias: true) else { return }
        _composite(cov, source: .surface(layer, alpha8), mode: _state.blendMode._raster, shadow: _state.shadow)
    }
}

// MARK: The engine

/// Coverage of one shape over a pixel rectangle (row-major, `rect.width` bytes per row); the
/// clip is not applied yet.
struct _Coverage {
    var rect: _IRect
    var bytes: [UInt8]
}

/// What a draw paints before coverage: a solid premultiplied colour (global alpha folded in),
/// an image through an affine inverse, or a transparency layer's pixels (1:1), with the global
/// alpha as a byte.
enum _PaintSource {
    case solid(UInt32)
    case image(CGImage, AffineInverse, SampleFilter, UInt8, tiled: Bool)
    case surface(CGContext._Surface, UInt8)
    /// A gradient (the global alpha as a byte).
    case gradient(GradientPaint, UInt8)
}

extension CGBlendMode {
    /// The raster mode (`BlendModes`' formulas), one for one.
    package var _raster: RasterBlendMode {
        switch self {
        case .normal: return .normal
        case .colorDodge: return .colorDodge
        case .colorBurn: return .colorBurn
        case .softLight: return .softLight
        case .hue: return .hue
        case .saturation: return .saturation
        case .color: return .color
        case .luminosity: return .luminosity
        case .multiply: return .multiply
        case .screen: return .screen
        case .overlay: return .overlay
        case .darken: return .darken
        case .lighten: return .lighten
        case .hardLight: return .hardLight
        case .difference: return .difference
        case .exclusion: return .exclusion
        case .clear: return .clear
        case .copy: return .copy
        case .sourceIn: return .sourceIn
        case .sourceOut: return .sourceOut
        case .sourceAtop: return .sourceAtop
        case .destinationOver: return .destinationOver
        case .destinationIn: return .destinationIn
        case .destinationOut: return .destinationOut
        case .destinationAtop: return .destinationAtop
        case .xor: return .xor
        case .plusDarker: return .plusDarker
        case .plusLighter: return .plusLighter
        }
    }
}

/// The fast path: a solid colour, normal blend, no shadow, painted straight into the bitmap as
/// the rasterizer hands out spans. Coverage (× hairline scale, thresholded without
/// antialiasing, × clip) then `SpanBlend.solidOver` — the same bytes as the general path's
/// `over(scale(S, m), D)`. The common case (`plain`: no clip, no scale, antialiased) passes the
/// rasterizer's coverage bytes to the kernel as they are, and a constant run of partial coverage
/// `k` as the colour scaled once (`solidOver` computes `over(scale(S, k), D)` per pixel either way).
struct _SolidPaintSink: CoverageSink {
    let base: UnsafeMutablePointer<UInt32>
    let stride: Int
    let color: RGBA8
    /// The clip's byte for device pixel (x, y) is `clip[y · clipWidth + x]`.
    let clip: UnsafePointer<UInt8>?
    let clipWidth: Int
    let threshold: Bool
    let scale: UInt32
    /// At least as many bytes as the widest span.
    let scratch: UnsafeMutablePointer<UInt8>
    let plain: Bool
    /// Pixels per row of the bitmap: spans may be widened up to it (see ``padded(_:x:n:cov:)``).
    let rowWidth: Int

    init(base: UnsafeMutablePointer<UInt32>, stride: Int, rowWidth: Int, color: RGBA8, clip: UnsafePointer<UInt8>?,
         clipWidth: Int, threshold: Bool, scale: UInt32, scratch: UnsafeMutablePointer<UInt8>) {
        self.base = base; self.stride = stride; self.rowWidth = rowWidth; self.color = color; self.clip = clip
        self.clipWidth = clipWidth; self.threshold = threshold; self.scale = scale; self.scratch = scratch
        plain = clip == nil && scale == 255 && !threshold
    }

    /// `solidOver` of `n` pixels at row pointer `dst` (column `x`) with coverage `cov(i)`, widened
    /// with coverage-0 pixels to whole blocks of 8 when the row has room: `SpanBlend` sends the
    /// `n mod 8` last pixels (all of a span shorter than 8) to its scalar twin, one pixel at a
    /// time, while the AVX2 kernel does 8 at once; a pixel of coverage 0 comes out unchanged
    /// (`over(scale(S, 0), D) = D`), and the two kernels are bit-identical, so the bytes are the
    /// same. Needs `scratch` of `n + 7` bytes.
    @inline(__always)
    func padded(_ dst: UnsafeMutablePointer<UInt32>, x: Int, n: Int, cov: (Int) -> UInt8) {
        let w = (n + 7) & ~7
        let lead: Int
        if x + w <= rowWidth { lead = 0 } else if x + n - w >= 0 { lead = w - n } else {
            for i in 0..<n { scratch[i] = cov(i) }
            SpanBlend.solidOver(dst, color: color, count: n, coverage: scratch); return
        }
        for i in 0..<lead { scratch[i] = 0 }
        for i in 0..<n { scratch[lead + i] = cov(i) }
        for i in (lead + n)..<w { scratch[i] = 0 }
        SpanBlend.solidOver(dst - lead, color: color, count: w, coverage: scratch)
    }

    /// The plain case (no clip, scale or threshold) is painted as the rasterizer sweeps
    /// (`CoverageSink.solidTarget`): the same bytes, no spans.
    var solidTarget: SolidTarget? { plain ? SolidTarget(pixels: base, rowStride: stride, color: color) : nil }

    mutating func coverageSpan(y: Int, x: Int, coverage: UnsafeBufferPointer<UInt8>) {
        let n = coverage.count
        let dst = base + y * stride + x
        if plain {
            if n & 7 == 0 { SpanBlend.solidOver(dst, color: color, count: n, coverage: coverage.baseAddress); return }
            let c = coverage.baseAddress!
            padded(dst, x: x, n: n, cov: { c[$0] })
            return
        }
        var src = UnsafePointer(coverage.baseAddress!)
        if scale != 255 {
            for i in 0..<n { scratch[i] = UInt8(PixelRounding.div255(UInt32(src[i]) * scale)) }
            src = UnsafePointer(scratch)
        }
        if threshold {
            for i in 0..<n { scratch[i] = src[i] >= 128 ? 255 : 0 }
            src = UnsafePointer(scratch)
        }
        if let clip {
            let c = clip + y * clipWidth + x
            for i in 0..<n { scratch[i] = UInt8(PixelRounding.div255(UInt32(src[i]) * UInt32(c[i]))) }
            src = UnsafePointer(scratch)
        }
        SpanBlend.solidOver(dst, color: color, count: n, coverage: src)
    }

    mutating func constantSpan(y: Int, x: Int, count: Int, coverage: UInt8) {
        var k = UInt32(coverage)
        if scale != 255 { k = PixelRounding.div255(k * scale) }
        if threshold { k = k >= 128 ? 255 : 0 }
        guard k != 0 else { return }
        let dst = base + y * stride + x
        if let clip {
            let c = clip + y * clipWidth + x
            if k == 255 {
                SpanBlend.solidOver(dst, color: color, count: count, coverage: c)
            } else {
                for i in 0..<count { scratch[i] = UInt8(PixelRounding.div255(k * UInt32(c[i]))) }
                SpanBlend.solidOver(dst, color: color, count: count, coverage: scratch)
            }
        } else {
            // The whole blocks of 8 with the colour (scaled once: the same bytes as coverage k per
            // pixel), the rest as one padded block with coverage k.
            let body = count & ~7
            if body > 0 {
                SpanBlend.solidOver(dst, color: k == 255 ? color : RGBA8(packed: PixelMath.scale(color.packed, k)), count: body)
            }
            if body < count {
                let k8 = UInt8(k)
                padded(dst + body, x: x + body, n: count - body, cov: { _ in k8 })
            }
        }
    }
}

extension CGContext {
    var _surfaceRect: _IRect { _IRect(x0: 0, y0: 0, x1: width, y1: height) }

    /// Pixel bounds of a device path's control points (grown by 1), or nil (empty / not finite).
    static func _pixelBounds(_ path: RasterPath) -> _IRect? {
        guard let b = path.controlBounds, b.minX.isFinite, b.minY.isFinite, b.maxX.isFinite, b.maxY.isFinite else { return nil }
        return _IRect(x0: pixelFloor(b.minX) - 1, y0: pixelFloor(b.minY) - 1,
                      x1: pixelCeil(b.maxX) + 1, y1: pixelCeil(b.maxY) + 1)
    }

    /// The shape's coverage over `pathBounds ∩ within` (× `scale`, thresholded without
    /// antialiasing), or nil when empty.
    func _shapeCoverage(_ path: RasterPath, rule: FillRule, scale: Double, within: _IRect, antialias: Bool? = nil,
                        corrections: [SIMD3<Int32>] = []) -> _Coverage? {
        guard let pb = Self._pixelBounds(path) else { return nil }
        let r = pb.intersection(within)
        guard !r.isEmpty else { return nil }
        var bytes = [UInt8](repeating: 0, count: r.width * r.height)
        bytes.withUnsafeMutableBufferPointer { b in
            var sink = CoverageMaskSink(base: b.baseAddress!, x0: r.x0, y0: r.y0, width: r.width)
            _rasterizer.fill(path, rule: rule, transform: .identity, corrections: corrections,
                             clip: RasterClip(x0: r.x0, y0: r.y0, x1: r.x1, y1: r.y1), into: &sink)
        }
        let k = UInt32((min(max(scale, 0), 1) * 255).rounded())
        if k != 255 { for i in bytes.indices { bytes[i] = UInt8(PixelRounding.div255(UInt32(bytes[i]) * k)) } }
        if !(antialias ?? _antialias) { for i in bytes.indices { bytes[i] = bytes[i] >= 128 ? 255 : 0 } }
        return _Coverage(rect: r, bytes: bytes)
    }

    /// Fills a device-space path with `color` through the state's alpha, blend mode, shadow, clip.
    /// `corrections`: a stroke outline's self-crossing corrections (`_strokeCorrections`).
    func _fillDevice(_ path: RasterPath, rule: CGPathFillRule, color: CGColor, coverageScale: Double = 1,
                     corrections: [SIMD3<Int32>] = []) {
        let fr: FillRule = rule == .winding ? .nonZero : .evenOdd
        let c = PixelMath.premultipliedColor(r: Double(color.red), g: Double(color.green), b: Double(color.blue),
                                             a: Double(color.alpha) * Double(_state.alpha))
        let mode = _state.blendMode._raster
        // Transparent source: nothing to do in the modes where a transparent source is the identity.
        if c >> 24 == 0, [.normal, .plusLighter, .destinationOver, .sourceAtop, .xor, .screen, .darken, .lighten,
                          .difference, .exclusion, .multiply, .overlay, .hardLight].contains(mode) { return }
        if mode == .normal, _state.shadow == nil, !_generalPathOnly {
            _fillSolidFast(path, rule: fr, color: c, scale: coverageScale, corrections: corrections)
            return
        }
        let within = _state.shadow == nil ? _surfaceRect : _shadowSourceRect(_state.shadow!)
        guard let cov = _shapeCoverage(path, rule: fr, scale: coverageScale, within: within, corrections: corrections) else { return }
        _composite(cov, source: .solid(c), mode: mode, shadow: _state.shadow)
    }

    func _fillSolidFast(_ path: RasterPath, rule: FillRule, color: UInt32, scale: Double, corrections: [SIMD3<Int32>] = []) {
        guard let pb = Self._pixelBounds(path) else { return }
        var r = pb.intersection(_surfaceRect)
        if let clip = _state.clip { r = r.intersection(clip.bounds) }
        guard !r.isEmpty else { return }
        let k = UInt32((min(max(scale, 0), 1) * 255).rounded())
        guard k > 0 else { return }
        defer { _didDraw(r) }
        let scratch = _scratchRow(r.width + 8)
        let clipRect = RasterClip(x0: r.x0, y0: r.y0, x1: r.x1, y1: r.y1)
        let surface = _surface
        if let clip = _state.clip {
            clip.bytes.withUnsafeBufferPointer { cb in
                var sink = _SolidPaintSink(base: surface.base, stride: surface.stride, rowWidth: surface.width, color: RGBA8(packed: color),
                                           clip: cb.baseAddress, clipWidth: clip.width, threshold: !_antialias, scale: k,
                                           scratch: scratch)
                _rasterizer.fill(path, rule: rule, transform: .identity, corrections: corrections, clip: clipRect, into: &sink)
            }
        } else {
            var sink = _SolidPaintSink(base: surface.base, stride: surface.stride, rowWidth: surface.width, color: RGBA8(packed: color),
                                       clip: nil, clipWidth: 0, threshold: !_antialias, scale: k, scratch: scratch)
            _rasterizer.fill(path, rule: rule, transform: .identity, corrections: corrections, clip: clipRect, into: &sink)
        }
    }

    /// Device pixel offset of a shadow (rounded; y down) and its blur padding.
    static func _shadowGeometry(_ s: _Shadow) -> (dx: Int, dy: Int, sigma: Double, pad: Int) {
        let sigma = Double(s.blur) / 2
        let dx = Double(s.offset.width).isFinite ? Int(Double(s.offset.width).rounded()) : 0
        let dy = Double(s.offset.height).isFinite ? Int(Double(s.offset.height).rounded()) : 0
        return (dx, dy, sigma, GaussianBlur.padding(sigma: sigma))
    }

    /// The pixels of a shape that can matter with shadow `s`: the bitmap, and the bitmap moved
    /// back by the offset and grown by the blur padding (shapes outside cast shadows inside).
    func _shadowSourceRect(_ s: _Shadow) -> _IRect {
        let g = Self._shadowGeometry(s)
        let shifted = _IRect(x0: -g.dx - g.pad, y0: -g.dy - g.pad, x1: width - g.dx + g.pad, y1: height - g.dy + g.pad)
        return _IRect(x0: min(0, shifted.x0), y0: min(0, shifted.y0), x1: max(width, shifted.x1), y1: max(height, shifted.y1))
    }

    /// Fills `row[0..<n]` with the source pixels of device row `y`, columns `x0..<x0+n`
    /// (premultiplied, global alpha **not** applied for images / layers).
    func _sourceRow(_ source: _PaintSource, y: Int, x0: Int, n: Int, into row: UnsafeMutablePointer<UInt32>, image: RasterImage?) {
        switch source {
        case let .solid(c): row.update(repeating: c, count: n)
        case let .image(_, inv, filter, _, tiled) where tiled:
            Self._tiledRow(image!, inv, filter, y: y, x0: x0, n: n, into: row)
        case let .image(_, inv, filter, _, _):
            row.update(repeating: 0, count: n)
            // Sample in coordinates shifted so that x0 is local 0 (the sampler needs x ≥ 0).
            let shifted = AffineInverse(a: inv.a, b: inv.b, c: inv.c + inv.a * Double(x0), d: inv.d, e: inv.e, f: inv.f + inv.d * Double(x0))
            ImageSampler.drawAffineSpan(row: row, y: y, x0: 0, x1: n, image: image!, inverse: shifted, filter: filter, edge: .clamp)
        case let .gradient(p, _):
            p.shade(y: y, x0: x0, count: n, into: row)
        case let .surface(s, _):
            for i in 0..<n {
                let x = x0 + i
                row[i] = (x >= 0 && x < s.width && y >= 0 && y < s.height) ? s.row(y)[x] : 0
            }
        }
    }

    /// Tiled sampling (scalar): the affine sampler's rule (pixel centres, bilinear weights from
    /// the top 8 fraction bits, `PixelMath.bilinear`; nearest: the texel containing the point)
    /// with texel indices wrapped modulo the image size.
    static func _tiledRow(_ img: RasterImage, _ t: AffineInverse, _ filter: SampleFilter, y: Int, x0: Int, n: Int,
                          into row: UnsafeMutablePointer<UInt32>) {
        let w = img.width, h = img.height
        @inline(__always) func wrap(_ i: Int, _ m: Int) -> Int { let r = i % m; return r < 0 ? r + m : r }
        @inline(__always) func texel(_ x: Int, _ y: Int) -> UInt32 { img.pixels[wrap(y, h) * img.stridePixels + wrap(x, w)] }
        let py = Double(y) + 0.5
        for i in 0..<n {
            let px = Double(x0 + i) + 0.5
            let u = t.a * px + (t.b * py + t.c), v = t.d * px + (t.e * py + t.f)
            guard u.isFinite, v.isFinite, abs(u) < 1e12, abs(v) < 1e12 else { row[i] = 0; continue }
            if filter == .nearest {
                row[i] = texel(Int(u.rounded(.down)), Int(v.rounded(.down)))
            } else {
                let tu = Int(((u - 0.5) * 256).rounded(.down)), tv = Int(((v - 0.5) * 256).rounded(.down))
                let ix = tu >> 8, iy = tv >> 8
                row[i] = PixelMath.bilinear(texel(ix, iy), texel(ix + 1, iy), texel(ix, iy + 1), texel(ix + 1, iy + 1),
                                            fx: UInt32(tu & 255), fy: UInt32(tv & 255))
            }
        }
    }

    /// Composites a shape: shadow first (if any), then the source through `cov` × clip with `mode`.
    func _composite(_ cov: _Coverage, source: _PaintSource, mode: RasterBlendMode, shadow: _Shadow?) {
        let run = { (img: RasterImage?) in
            if let shadow { self._drawShadow(cov, source: source, shadow: shadow, mode: mode, image: img) }
            self._drawSource(cov, source: source, mode: mode, image: img)
        }
        if case let .image(image, _, _, _, _) = source { image.pixelBuffer.withRasterImage { run($0) } } else { run(nil) }
    }

    func _drawSource(_ cov: _Coverage, source: _PaintSource, mode: RasterBlendMode, image: RasterImage?) {
        var r = cov.rect.intersection(_surfaceRect)
        if let clip = _state.clip { r = r.intersection(clip.bounds) }
        guard !r.isEmpty else { return }
        defer { _didDraw(r) }
        let alpha8: UInt32
        switch source {
        case .solid: alpha8 = 255
        case let .image(_, _, _, a, _), let .surface(_, a), let .gradient(_, a): alpha8 = UInt32(a)
        }
        let n = r.width
        let row = UnsafeMutablePointer<UInt32>.allocate(capacity: n); defer { row.deallocate() }
        let m = UnsafeMutablePointer<UInt8>.allocate(capacity: n); defer { m.deallocate() }
        let clip = _state.clip
        for y in r.y0..<r.y1 {
            let cj = (y - cov.rect.y0) * cov.rect.width + (r.x0 - cov.rect.x0)
            var any = false
            for i in 0..<n {
                var v = UInt32(cov.bytes[cj + i])
                if let clip { v = PixelRounding.div255(v * UInt32(clip.bytes[y * clip.width + r.x0 + i])) }
                if mode == .normal, alpha8 != 255 { v = PixelRounding.div255(v * alpha8) }
                m[i] = UInt8(v); any = any || v != 0
            }
            guard any else { continue }
            if mode == .normal {
                // The span kernels compute exactly over(scale(S, m), D) with m (alpha folded in) as
                // coverage: the same bytes as BlendModes, vectorised.
                let dst = _surface.row(y)
                switch source {
                case let .solid(c):
                    SpanBlend.solidOver(dst + r.x0, color: RGBA8(packed: c), count: n, coverage: m); continue
                case let .image(_, inv, filter, _, tiled) where !tiled:
                    ImageSampler.drawAffineSpan(row: dst, y: y, x0: r.x0, x1: r.x1, image: image!, inverse: inv, filter: filter,
                                                edge: .clamp, opacity: 255, coverage: m)
                    continue
                case let .surface(s, _) where r.x1 <= s.width && y < s.height:
                    SpanBlend.sourceOver(dst + r.x0, source: s.row(y) + r.x0, count: n, opacity: 255, coverage: m); continue
                case let .gradient(p, _):
                    p.shade(y: y, x0: r.x0, count: n, into: row)
                    SpanBlend.sourceOver(dst + r.x0, source: row, count: n, opacity: 255, coverage: m); continue
                default: break
                }
            }
            _sourceRow(source, y: y, x0: r.x0, n: n, into: row, image: image)
            if mode != .normal, alpha8 != 255 { for i in 0..<n { row[i] = PixelMath.scale(row[i], alpha8) } }
            BlendModes.blendSpan(_surface.row(y) + r.x0, source: row, count: n, coverage: m, mode: mode)
        }
    }

    /// The shadow of a shape: alpha of (source × global alpha × coverage) over the shape's
    /// rectangle, padded, blurred with σ = blur/2, tinted with the shadow colour, moved by the
    /// offset, composited with `mode` under the clip.
    func _drawShadow(_ cov: _Coverage, source: _PaintSource, shadow: _Shadow, mode: RasterBlendMode, image: RasterImage?) {
        let g = Self._shadowGeometry(shadow)
        let w = cov.rect.width + 2 * g.pad, h = cov.rect.height + 2 * g.pad
        guard w > 0, h > 0 else { return }
        let alpha8: UInt32
        switch source {
        case .solid: alpha8 = 255
        case let .image(_, _, _, a, _), let .surface(_, a), let .gradient(_, a): alpha8 = UInt32(a)
        }
        var plane = [UInt8](repeating: 0, count: w * h)
        let n = cov.rect.width
        let row = UnsafeMutablePointer<UInt32>.allocate(capacity: n); defer { row.deallocate() }
        for y in cov.rect.y0..<cov.rect.y1 {
            let j = y - cov.rect.y0
            _sourceRow(source, y: y, x0: cov.rect.x0, n: n, into: row, image: image)
            for i in 0..<n {
                let a = PixelRounding.div255((row[i] >> 24) * UInt32(cov.bytes[j * n + i]))
                plane[(j + g.pad) * w + i + g.pad] = UInt8(alpha8 == 255 ? a : PixelRounding.div255(a * alpha8))
            }
        }
        GaussianBlur.blurAlpha(&plane, width: w, height: h, sigma: g.sigma)
        let sc = shadow.color
        let color = PixelMath.premultipliedColor(r: Double(sc.red), g: Double(sc.green), b: Double(sc.blue), a: Double(sc.alpha))
        // Plane pixel (i, j) lands on device (ox + i, oy + j).
        let ox = cov.rect.x0 - g.pad + g.dx, oy = cov.rect.y0 - g.pad + g.dy
        var r = _IRect(x0: ox, y0: oy, x1: ox + w, y1: oy + h).intersection(_surfaceRect)
        if let clip = _state.clip { r = r.intersection(clip.bounds) }
        guard !r.isEmpty else { return }
        defer { _didDraw(r) }
        let clip = _state.clip
        let dn = r.width
        let src = UnsafeMutablePointer<UInt32>.allocate(capacity: dn); defer { src.deallocate() }
        let m = UnsafeMutablePointer<UInt8>.allocate(capacity: dn); defer { m.deallocate() }
        // The shadow is a shape: its blurred alpha is the coverage (× clip), the shadow colour
        // the source — so in modes such as copy it changes only the pixels it covers.
        src.update(repeating: color, count: dn)
        for y in r.y0..<r.y1 {
            var any = false
            for i in 0..<dn {
                var a = UInt32(plane[(y - oy) * w + (r.x0 + i - ox)])
                if let clip { a = PixelRounding.div255(a * UInt32(clip.bytes[y * clip.width + r.x0 + i])) }
                m[i] = UInt8(a)
                any = any || a != 0
            }
            guard any else { continue }
            BlendModes.blendSpan(_surface.row(y) + r.x0, source: src, count: dn, coverage: m, mode: mode)
        }
    }

    /// Device pixel → image texel inverse for drawing `image` into `rect` (user space) as Core
    /// Graphics does: the image's first row at `rect.maxY`, its last at `rect.minY` (so in the
    /// y-down space of layer drawing it comes out upside down, exactly as on iOS, and iOS code
    /// that flips the CTM first draws it upright here too):
    ///
    ///     u = (x − minX) · w / rect.width,   v = (maxY − y) · h / rect.height
    func _imageInverse(_ image: CGImage, in rect: CGRect) -> AffineInverse? {
        guard rect.width != 0, rect.height != 0, _state.ctm._isInvertible, image.width > 0, image.height > 0 else { return nil }
        let sx = Double(image.width) / Double(rect.width), sy = Double(image.height) / Double(rect.height)
        let toImage = CGAffineTransform(a: sx, b: 0, c: 0, d: -sy, tx: -Double(rect.minX) * sx, ty: Double(rect.maxY) * sy)
        let t = _state.ctm.inverted().concatenating(toImage)
        return AffineInverse(a: Double(t.a), b: Double(t.c), c: Double(t.tx), d: Double(t.b), e: Double(t.d), f: Double(t.ty))
    }

    // MARK: Clipping

    func _intersectClip(_ path: RasterPath, rule: FillRule) {
        guard let cov = _shapeCoverage(path, rule: rule, scale: 1, within: _surfaceRect) else { _setEmptyClip(); return }
        _intersectClip(cov)
    }

    func _setEmptyClip() {
        _state.clip = _ClipMask(bytes: [UInt8](repeating: 0, count: width * height), width: width, bounds: _IRect(x0: 0, y0: 0, x1: 0, y1: 0))
    }

    /// clip ← clip × coverage (0 outside the coverage rectangle).
    func _intersectClip(_ cov: _Coverage) {
        var mask = _state.clip ?? _ClipMask(bytes: [UInt8](repeating: 255, count: width * height), width: width, bounds: _surfaceRect)
        let old = mask.bounds
        let nb = old.intersection(cov.rect)
        mask.bytes.withUnsafeMutableBufferPointer { b in
            // Zero what the old bounds had outside the new ones.
            for y in max(old.y0, 0)..<max(old.y1, max(old.y0, 0)) {
                for x in old.x0..<old.x1 where !(y >= nb.y0 && y < nb.y1 && x >= nb.x0 && x < nb.x1) { b[y * width + x] = 0 }
            }
            if !nb.isEmpty {
                for y in nb.y0..<nb.y1 {
                    for x in nb.x0..<nb.x1 {
                        let c = cov.bytes[(y - cov.rect.y0) * cov.rect.width + (x - cov.rect.x0)]
                        b[y * width + x] = UInt8(PixelRounding.div255(UInt32(b[y * width + x]) * UInt32(c)))
                    }
                }
            }
        }
        mask.bounds = nb.isEmpty ? _IRect(x0: 0, y0: 0, x1: 0, y1: 0) : nb
        _state.clip = mask
    }
}
