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
    /// **Axis-aligned CTM, no shadow** (a layer's backing store, the common case): each glyph's
    /// coverage comes from the font's mask cache — rasterized once per (glyph, device size,
    /// position on the subpixel grid in x and y) by the exact-area rasterizer — and the masks of
    /// one line and colour are summed (saturating) into one coverage buffer composited once
    /// through the state's alpha, blend mode and clip. Glyph origins are rounded to the nearest
    /// point of the grid (``_GlyphMaskCache/gridShift(pixelsPerEm:)``: 1/4 px for large text,
    /// down to 1/64 px for small text; within 1/1024 em of exact from 8 px per em up); glyphs
    /// that do not overlap get exactly their union's coverage; where two glyphs overlap the sum
    /// clamps at full coverage.
    /// **Otherwise** (rotation, skew, a shadow): glyphs of one colour are filled as one path at
    /// their exact positions.
    ///
    /// `quantized` (`CATextLayer.allowsFontSubpixelQuantization`): glyph origins are rounded to
    /// the nearest quarter pixel in x and y whatever the size — the grid of large text, coarser
    /// than small text's (so a glyph may sit up to 1/8 px from exact, and fewer masks are made:
    /// at most 16 per glyph and size). Only the mask path quantizes; the exact path has no grid.
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
        var placed: [(mask: _GlyphMaskCache.Mask, x: Int, y: Int)] = []
        var current: CGColor? = nil
        var baseline = Double.nan
        let surface = _surfaceRect
        func flush() {
            defer { placed.removeAll(keepingCapacity: true) }
            guard !placed.isEmpty else { return }
            var r = _IRect(x0: Int.max, y0: Int.max, x1: Int.min, y1: Int.min)
            for p in placed {
                r.x0 = min(r.x0, p.x + p.mask.x); r.y0 = min(r.y0, p.y + p.mask.y)
                r.x1 = max(r.x1, p.x + p.mask.x + p.mask.w); r.y1 = max(r.y1, p.y + p.mask.y + p.mask.h)
            }
            r = r.intersection(surface)
            guard !r.isEmpty else { return }
            let w = r.x1 - r.x0
            var bytes = [UInt8](repeating: 0, count: w * (r.y1 - r.y0))
            bytes.withUnsafeMutableBufferPointer { out in
                for p in placed {
                    let mx = p.x + p.mask.x, my = p.y + p.mask.y
                    let x0 = max(mx, r.x0), x1 = min(mx + p.mask.w, r.x1)
                    let y0 = max(my, r.y0), y1 = min(my + p.mask.h, r.y1)
                    guard x0 < x1, y0 < y1 else { continue }
                    p.mask.bytes.withUnsafeBufferPointer { src in
                        for y in y0..<y1 {
                            let s = (y - my) * p.mask.w - mx, d = (y - r.y0) * w - r.x0
                            for x in x0..<x1 {
                                let v = UInt16(out[d + x]) + UInt16(src[s + x])
                                out[d + x] = v > 255 ? 255 : UInt8(v)
                            }
                        }
                    }
                }
            }
            let color = current ?? defaultColor
            let c = PixelMath.premultipliedColor(r: Double(color.red), g: Double(color.green), b: Double(color.blue),
                                                 a: Double(color.alpha) * Double(_state.alpha))
            let mode = _state.blendMode._raster
            if c >> 24 == 0, mode == .normal { return }
            guard mode == .normal else {
                _composite(_Coverage(rect: r, bytes: bytes), source: .solid(c), mode: mode, shadow: nil)
                return
            }
            // Source-over: the solid painter's rows (AVX2 `solidOver` with coverage, the clip folded in).
            var rr = r
            if let clip = _state.clip { rr = rr.intersection(clip.bounds) }
            guard !rr.isEmpty else { return }
            defer { _didDraw(rr) }
            let scratch = _scratchRow(rr.width + 8)
            let s = _surface
            func paint(_ clipBytes: UnsafePointer<UInt8>?, _ clipWidth: Int) {
                var sink = _SolidPaintSink(base: s.base, stride: s.stride, rowWidth: s.width, color: RGBA8(packed: c),
                                           clip: clipBytes, clipWidth: clipWidth, threshold: !_antialias, scale: 255, scratch: scratch)
                bytes.withUnsafeBufferPointer { b in
                    for y in rr.y0..<rr.y1 {
                        let row = UnsafeBufferPointer(rebasing: b[((y - r.y0) * w + rr.x0 - r.x0)..<((y - r.y0) * w + rr.x1 - r.x0)])
                        sink.coverageSpan(y: y, x: rr.x0, coverage: row)
                    }
                }
            }
            if let clip = _state.clip {
                clip.bytes.withUnsafeBufferPointer { paint($0.baseAddress, clip.width) }
            } else {
                paint(nil, 0)
            }
        }
        // The grid of the last glyph's size (a line's glyphs mostly share one).
        var gridSize = Double.nan, shiftX = 2, shiftY = 2, stepsX = 4.0, stepsY = 4.0
        layout.glyphs.withUnsafeBufferPointer { glyphs in
        for g in glyphs {
            if !CGColor._same(g.color, current) || g.y != baseline { flush(); current = g.color; baseline = g.y }
            if g.size != gridSize {
                gridSize = g.size
                shiftX = quantized ? _GlyphMaskCache.quantizedShift : _GlyphMaskCache.gridShift(pixelsPerEm: g.size * sx)
                shiftY = quantized ? _GlyphMaskCache.quantizedShift : _GlyphMaskCache.gridShift(pixelsPerEm: g.size * sy)
                stepsX = Double(1 &<< shiftX); stepsY = Double(1 &<< shiftY)
            }
            // Device position of the glyph origin rounded to the nearest grid point (steps of
            // 1/2^shift px), split into whole pixels and steps: q = ⌊X·2^shift + ½⌋,
            // ix = q >> shift (floor, also below 0), fx = q & (2^shift − 1).
            let X = sx * (Double(origin.x) + g.x) + tx, Y = sy * (Double(origin.y) + g.y) + ty
            guard X.isFinite, Y.isFinite, abs(X) < 1e9, abs(Y) < 1e9 else { continue }
            let qx = Int((X * stepsX + 0.5).rounded(.down)), qy = Int((Y * stepsY + 0.5).rounded(.down))
            let ix = qx &>> shiftX, iy = qy &>> shiftY
            let fx = UInt8(truncatingIfNeeded: qx & (1 &<< shiftX &- 1)), fy = UInt8(truncatingIfNeeded: qy & (1 &<< shiftY &- 1))
            let k = g.size / Double(g.font.unitsPerEm)
            guard let mask = g.font._masks.mask(g.font, glyph: g.glyph, kx: k * sx, ky: k * sy, fx: fx, fy: fy,
                                                shiftX: shiftX, shiftY: shiftY) else {
                // too big to cache: the exact path
                flush()
                let t = RasterTransform(a: k * sx, b: 0, c: 0, d: -k * sy, tx: X, ty: Y)
                _fillDevice(g.font._outline(g.glyph).applying(t), rule: .winding, color: current ?? defaultColor)
                continue
            }
            if mask.w > 0 { placed.append((mask, ix, iy)) }
        }
        }
        flush()
    }
}

/// Coverage masks of one font's glyphs, keyed by (glyph, device px per font unit in x and y,
/// subpixel offset in x and y). Each is the exact-area coverage of the outline placed at
/// (fx/2^shiftX, fy/2^shiftY) px from a whole-pixel origin. Shared by every thread drawing with
/// the font; at most `limit` masks and `byteLimit` bytes (then it starts over), glyphs larger
/// than 256 px are not cached.
///
/// **The subpixel grid** (``gridShift(pixelsPerEm:)``). A glyph drawn from a mask sits where
/// its origin was rounded to, up to half a grid step from exact, and every edge moves with it:
/// a pixel an edge crosses changes by up to 255 × the shift (px). Averaged over a line of text
/// the error is ∝ (mean shift) / (pixels per em) — halving the step halves it, and text twice
/// the size has half the edge pixels per pixel of area. So the step is a fixed fraction of the
/// em: the coarsest power-of-two fraction of a pixel that is at most 1/512 em (rounding error
/// ≤ 1/1024 em, 2 units of a 2048-unit em), never coarser than 1/4 px nor finer than 1/64 px.
/// 9 pt at scale 2 (18 px per em): 1/32 px; 14 pt at 2: 1/32; 24 pt at 2: 1/16; 36 pt at 2:
/// 1/8; ≥ 128 px per em: 1/4. A finer step costs masks (up to 2^shiftX per glyph and baseline
/// phase), not work per glyph: a warm redraw is still one lookup and one sum per glyph, but the
/// first drawing of small text rasterizes up to one mask per glyph drawn (14 px lines at 1/64
/// px: the text benchmark's cold frame 5.8 → 11.7 ms). docs/text.md ("Small text") has the
/// measurements.
package final class _GlyphMaskCache: @unchecked Sendable {
    struct Key: Hashable {
        let glyph: UInt32; let kx: UInt64; let ky: UInt64; let fx: UInt8; let fy: UInt8; let shiftX: UInt8; let shiftY: UInt8
        /// Two words into the hasher instead of seven fields (a warm redraw hashes one key per glyph).
        func hash(into h: inout Hasher) {
            h.combine(kx ^ (ky << 32 | ky >> 32))
            h.combine(UInt64(glyph) << 32 | UInt64(fx) | UInt64(fy) << 8 | UInt64(shiftX) << 16 | UInt64(shiftY) << 24)
        }
    }
    package final class Mask: Sendable {
        /// Offset of the mask's top-left pixel from the glyph's whole-pixel origin, and size.
        let x: Int, y: Int, w: Int, h: Int
        let bytes: [UInt8]
        init(x: Int, y: Int, w: Int, h: Int, bytes: [UInt8]) { self.x = x; self.y = y; self.w = w; self.h = h; self.bytes = bytes }
    }
    private let lock = NSLock()
    private var masks: [Key: Mask] = [:]
    private var bytes = 0
    /// A redraw needs at most one mask per glyph it draws; with fine grids a page of small text
    /// can need tens of thousands (a cache smaller than one redraw's masks would start over
    /// within every redraw).
    static let limit = 65_536
    /// 16 MiB per font, counting `overhead` bytes of bookkeeping per mask (object, array,
    /// dictionary slot): ~40,000 masks at 14 px, ~250 at the 256 px cut-off.
    static let byteLimit = 16 << 20
    static let overhead = 160

    /// log2 of the subpixel grid's steps per pixel for text of `pixelsPerEm` device pixels per
    /// em on one axis: the smallest `s` in 2…6 with 2^s · pixelsPerEm ≥ 512 (a step of at most
    /// 1/512 em), 6 when none is. See the type's documentation.
    /// The grid of quantized text (`CATextLayer.allowsFontSubpixelQuantization`): quarter
    /// pixels, the coarsest grid ``gridShift(pixelsPerEm:)`` gives.
    static let quantizedShift = 2

    @inline(__always)
    static func gridShift(pixelsPerEm: Double) -> Int {
        var s = 2
        while s < 6, Double(1 << s) * pixelsPerEm < 512 { s += 1 }
        return s
    }

    func mask(_ font: CGFont, glyph: UInt32, kx: Double, ky: Double, fx: UInt8, fy: UInt8, shiftX: Int, shiftY: Int) -> Mask? {
        let key = Key(glyph: glyph, kx: kx.bitPattern, ky: ky.bitPattern, fx: fx, fy: fy,
                      shiftX: UInt8(truncatingIfNeeded: shiftX), shiftY: UInt8(truncatingIfNeeded: shiftY))
        lock.lock()
        if let m = masks[key] { lock.unlock(); return m }
        lock.unlock()
        let outline = font._outline(glyph)
        let t = RasterTransform(a: kx, b: 0, c: 0, d: -ky,
                                tx: Double(fx) / Double(1 << shiftX), ty: Double(fy) / Double(1 << shiftY))
        let path = outline.applying(t)
        let made: Mask
        if let b = path.controlBounds {
            guard b.maxX - b.minX <= 256, b.maxY - b.minY <= 256 else { return nil }
            // The pixels the outline can touch: its control bounds, widened by ⅛ px for the
            // flattened polyline's vertices (up to ⅔ × 0.05 px outside a curve, docs/rasterizer.md).
            // A whole pixel each side (before) only added zero rows and columns to every sum.
            let m = 0.125
            let x0 = pixelFloor(b.minX - m), y0 = pixelFloor(b.minY - m)
            let x1 = pixelCeil(b.maxX + m), y1 = pixelCeil(b.maxY + m)
            var bm = CoverageBitmap(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
            PathRasterizer().fill(path, rule: .nonZero, clip: RasterClip(x0: x0, y0: y0, x1: x1, y1: y1), into: &bm)
            made = Mask(x: x0, y: y0, w: x1 - x0, h: y1 - y0, bytes: bm.bytes)
        } else {
            made = Mask(x: 0, y: 0, w: 0, h: 0, bytes: [])       // no outline (a space)
        }
        lock.lock()
        if masks.count >= Self.limit || bytes + made.bytes.count + Self.overhead > Self.byteLimit {
            masks.removeAll(keepingCapacity: false); bytes = 0
        }
        masks[key] = made
        bytes += made.bytes.count + Self.overhead
        lock.unlock()
        return made
    }
}
