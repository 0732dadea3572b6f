import FlipbookPixels
import FlipbookRaster
import Foundation

/// How glyphs are painted (Apple's `CGTextDrawingMode`).
public enum CGTextDrawingMode: Int32, Sendable {
    case fill, stroke, fillStroke, invisible, fillClip, strokeClip, fillStrokeClip, clip
}

/// Glyph drawing: Core Graphics' low-level text API (a subset) — a font, a size, a text matrix
/// and glyphs at positions. Shaping and line layout are `CATextLayer`'s and Core Text's
/// (`CTLineDraw`, `CTFrameDraw`, which draw through the same geometry); this draws glyphs that
/// are already chosen and placed.
///
/// **Geometry (as Core Graphics).** A glyph's outline, in font units with y up, is scaled by
/// `fontSize / unitsPerEm`, moved to its position (text space), mapped by ``textMatrix``, then
/// by the CTM. In a context whose CTM flips y (a layer's `draw(in:)`, y down as UIKit sets it
/// up) glyphs therefore come out upside down unless the text matrix flips them back —
/// `ctx.textMatrix = CGAffineTransform(scaleX: 1, y: -1)` — exactly as on Apple.
///
/// **Painting.** `.fill` fills with the fill colour (winding rule, exact-area coverage, through
/// the state's alpha, blend mode, shadow and clip), `.stroke` strokes the outlines with the
/// stroke colour and line style, `.fillStroke` does both, `.invisible` only advances. The clip
/// modes are accepted and draw as their non-clip counterparts (chosen: clipping to glyphs is
/// not implemented). The text matrix and position are not part of the saved state (Apple's
/// rule); font, size and drawing mode are.
extension CGContext {
    public func setFont(_ font: CGFont) { _state.font = font }
    public func setFontSize(_ size: CGFloat) { _state.fontSize = size }
    public func setTextDrawingMode(_ mode: CGTextDrawingMode) { _state.textDrawingMode = mode }

    /// Draws `glyphs` of the current font at `positions` (text space: mapped by the text matrix,
    /// whose translation is ``textPosition``). Counts that differ draw the shorter; no font or a
    /// size of 0 draws nothing.
    public func showGlyphs(_ glyphs: [CGGlyph], at positions: [CGPoint]) {
        guard let font = _state.font, _state.fontSize.isFinite, _state.fontSize != 0 else { return }
        let k = Double(_state.fontSize) / Double(font.unitsPerEm)
        let tm = textMatrix
        var path = RasterPath()
        let ctm = _rasterCTM
        for (g, p) in zip(glyphs, positions) where Int(g) < font.numberOfGlyphs {
            // glyph (font units) → text space (size, position) → user space (text matrix) → device (CTM)
            let t = RasterTransform(a: k, b: 0, c: 0, d: k, tx: Double(p.x), ty: Double(p.y))
                .concatenating(RasterTransform(a: Double(tm.a), b: Double(tm.b), c: Double(tm.c), d: Double(tm.d),
                                               tx: Double(tm.tx), ty: Double(tm.ty)))
                .concatenating(ctm)
            path.append(font._outline(UInt32(g)), transform: t)
        }
        _paintGlyphs(path)
    }

    /// Paints device-space glyph outlines as the drawing mode says, filling with `fillColor`
    /// (nil: the state's fill colour).
    func _paintGlyphs(_ path: RasterPath, fillColor: CGColor? = nil) {
        guard !path.isEmpty else { return }
        let mode = _state.textDrawingMode
        if [.fill, .fillStroke, .fillClip, .fillStrokeClip].contains(mode) {
            _fillDevice(path, rule: .winding, color: fillColor ?? _state.fillColor)
        }
        if [.stroke, .fillStroke, .strokeClip, .fillStrokeClip].contains(mode) {
            let p = CGPath(path)
            if let (o, s) = _strokeOutline(of: p, forDrawing: true) {
                _fillDevice(o, rule: .winding, color: _state.strokeColor, coverageScale: s, corrections: _strokeCorrections)
            }
        }
    }

    /// Draws a laid-out text (y down, `origin` its top-left in user space) with the fill
    /// colour for glyphs whose style has no colour.
    ///
    /// **Axis-aligned CTM, no shadow** (a layer's backing store, the common case): each run of
    /// glyphs with one baseline and colour (a line, usually) is **one path**: every glyph's
    /// outline, scaled to device pixels, flattened and rounded to the rasterizer's 1/256 px
    /// relative to the glyph origin once per font, glyph and scale (``_GlyphFixedOutlines``),
    /// moved to the glyph's device origin rounded to the nearest 1/256 px — filled with the
    /// non-zero rule by the exact-area rasterizer (overlapping glyphs' areas add, clamped at full
    /// coverage) and painted through the state's alpha, blend mode and clip. The lines' coverage
    /// is kept with the layout (``_TextRasterCache``) while it is drawn with the same CTM,
    /// origin and bitmap size: a redraw paints it without touching a glyph, and is byte-identical
    /// to the first drawing (the same coverage, painted the same way).
    /// **Otherwise** (rotation, skew, a shadow): glyphs of one colour are filled as one path at
    /// their exact positions.
    ///
    /// `quantized` (`CATextLayer.allowsFontSubpixelQuantization`): glyph origins are rounded to
    /// the nearest quarter pixel in x and y instead (up to 1/8 px from exact). Only the
    /// axis-aligned path quantizes.
    package func _drawText(_ layout: TextLayout, at origin: CGPoint, defaultColor: CGColor, quantized: Bool = false) {
        let m = _state.ctm
        if m.b == 0, m.c == 0, m.a > 0, m.d > 0, m.a.isFinite, m.d.isFinite, m.tx.isFinite, m.ty.isFinite,
           _state.shadow == nil {
            _drawTextMasked(layout, at: origin, defaultColor: defaultColor, quantized: quantized)
            return
        }
        let ctm = _rasterCTM
        var path = RasterPath()
        var current: CGColor? = nil
        func flush() {
            guard !path.isEmpty else { return }
            _fillDevice(path, rule: .winding, color: current ?? defaultColor)
            path.removeAll()
        }
        for g in layout.glyphs {
            if !CGColor._same(g.color, current) { flush(); current = g.color }
            let k = g.size / Double(g.font.unitsPerEm)
            let t = RasterTransform(a: k, b: 0, c: 0, d: -k, tx: Double(origin.x) + g.x, ty: Double(origin.y) + g.y)
                .concatenating(ctm)
            path.append(g.font._outline(g.glyph), transform: t)
        }
        flush()
    }

    private func _drawTextMasked(_ layout: TextLayout, at origin: CGPoint, defaultColor: CGColor, quantized: Bool) {
        let m = _state.ctm
        let (sx, sy, tx, ty) = (Double(m.a), Double(m.d), Double(m.tx), Double(m.ty))
        let cache = layout._raster
        let key = _TextRasterKey(a: sx.bitPattern, d: sy.bitPattern, tx: tx.bitPattern, ty: ty.bitPattern,
                                 ox: Double(origin.x).bitPattern, oy: Double(origin.y).bitPattern,
                                 width: width, height: height, quantized: quantized)
        let runs = cache.runs(layout.glyphs)
        for (i, run) in runs.enumerated() {
            let cov: _LineCoverage
            if let c = cache.line(i, key: key) {
                cov = c
            } else {
                cov = _rasterizeLine(layout.glyphs, run.range, origin: origin, sx: sx, sy: sy, tx: tx, ty: ty, quantized: quantized)
                cache.keep(i, cov, key: key)
            }
            _paintLine(cov, color: run.color ?? defaultColor)
        }
    }

    /// One run's glyphs as one path — each glyph's fixed-point outline (``_GlyphFixedOutlines``)
    /// moved to its device origin rounded to the nearest 1/256 px (to the nearest 1/4 px when
    /// `quantized`) — filled with the non-zero rule by the exact-area rasterizer, clipped to the
    /// bitmap.
    private func _rasterizeLine(_ glyphs: [PlacedGlyph], _ range: Range<Int>, origin: CGPoint,
                                sx: Double, sy: Double, tx: Double, ty: Double, quantized: Bool) -> _LineCoverage {
        var points: [Int32] = [], ends: [Int32] = []
        points.reserveCapacity(range.count * 80)
        ends.reserveCapacity(range.count * 2)
        var b = (Int.max, Int.max, Int.min, Int.min)
        let (gx0, gy0, gx1, gy1) = (-(1 << 8), -(1 << 8), (width + 1) << 8, (height + 1) << 8)
        var table: _GlyphFixedOutlines.Table? = nil
        var tableFont: ObjectIdentifier? = nil, tableSize = Double.nan
        glyphs.withUnsafeBufferPointer { g in
            for j in range {
                let X = sx * (Double(origin.x) + g[j].x) + tx, Y = sy * (Double(origin.y) + g[j].y) + ty
                guard X.isFinite, Y.isFinite, abs(X) < 1e6, abs(Y) < 1e6 else { continue }
                // the origin in 1/256 px, rounded to nearest (half up); quantized: to the nearest quarter pixel
                let qx = quantized ? Int((X * 4 + 0.5).rounded(.down)) << 6 : Int((X * 256 + 0.5).rounded(.down))
                let qy = quantized ? Int((Y * 4 + 0.5).rounded(.down)) << 6 : Int((Y * 256 + 0.5).rounded(.down))
                // the table of the glyph's font and size (a run's glyphs mostly share one)
                if tableFont != ObjectIdentifier(g[j].font) || tableSize != g[j].size {
                    let font = g[j].font, k = g[j].size / Double(font.unitsPerEm)
                    table = font._fixedOutlines.table(font, kx: k * sx, ky: k * sy)
                    tableFont = ObjectIdentifier(font); tableSize = g[j].size
                }
                table!.append(g[j].glyph, dx: qx, dy: qy, points: &points, ends: &ends, bounds: &b)
            }
        }
        guard !ends.isEmpty, b.0 <= b.2, b.2 > gx0, b.0 < gx1, b.3 > gy0, b.1 < gy1 else { return _LineCoverage() }
        let fp = FixedPath(points: points, contourEnds: ends,
                           bounds: SIMD4(Double(b.0) / 256, Double(b.1) / 256, Double(b.2) / 256, Double(b.3) / 256))
        var sink = _LineCoverageSink()
        _rasterizer.fill(fp, rule: .nonZero, clip: RasterClip(width: width, height: height), into: &sink)
        return sink.finish()
    }

    /// Paints a line's coverage with `color` through the state's alpha, blend mode and clip:
    /// source-over of a solid colour without a clip (the common case) as the rows' spans in one
    /// call of the solid-span kernel (`SpanBlend.solidOverSpans`, the solid painter's
    /// `solidOver` per row); otherwise the solid paint sink's rows or the general compositor.
    private func _paintLine(_ cov: _LineCoverage, color: CGColor) {
        guard !cov.rect.isEmpty else { return }
        let c = PixelMath.premultipliedColor(r: Double(color.red), g: Double(color.green), b: Double(color.blue),
                                             a: Double(color.alpha) * Double(_state.alpha))
        let mode = _state.blendMode._raster
        if c >> 24 == 0, mode == .normal { return }
        let s = _surface
        guard mode == .normal else {
            let r = cov.rect, w = r.width
            var bytes = [UInt8](repeating: 0, count: w * r.height)
            for row in cov.rows {
                let d = (Int(row.y) - r.y0) * w + Int(row.x) - r.x0
                for k in 0..<Int(row.z) { bytes[d + k] = cov.bytes[Int(row.w) + k] }
            }
            _composite(_Coverage(rect: r, bytes: bytes), source: .solid(c), mode: mode, shadow: nil)
            return
        }
        if _state.clip == nil, _antialias {
            defer { _didDraw(cov.rect) }
            cov.rows.withUnsafeBufferPointer { rows in
                cov.bytes.withUnsafeBufferPointer { bytes in
                    SpanBlend.solidOverCoverageRows(s.base, rowStride: s.stride, rows: rows, coverage: bytes.baseAddress!,
                                                    color: RGBA8(packed: c))
                }
            }
            return
        }
        var rr = cov.rect
        if let clip = _state.clip { rr = rr.intersection(clip.bounds) }
        guard !rr.isEmpty else { return }
        defer { _didDraw(rr) }
        let scratch = _scratchRow(cov.rect.width + 8)
        func paint(_ clipBytes: UnsafePointer<UInt8>?, _ clipWidth: Int) {
            var sink = _SolidPaintSink(base: s.base, stride: s.stride, rowWidth: s.width, color: RGBA8(packed: c),
                                       clip: clipBytes, clipWidth: clipWidth, threshold: !_antialias, scale: 255, scratch: scratch)
            cov.bytes.withUnsafeBufferPointer { b in
                for row in cov.rows where Int(row.y) >= rr.y0 && Int(row.y) < rr.y1 {
                    let x0 = max(Int(row.x), rr.x0), x1 = min(Int(row.x + row.z), rr.x1)
                    guard x0 < x1 else { continue }
                    let o = Int(row.w) + x0 - Int(row.x)
                    sink.coverageSpan(y: Int(row.y), x: x0, coverage: UnsafeBufferPointer(rebasing: b[o..<(o + x1 - x0)]))
                }
            }
        }
        if let clip = _state.clip {
            clip.bytes.withUnsafeBufferPointer { paint($0.baseAddress, clip.width) }
        } else {
            paint(nil, 0)
        }
    }
}
