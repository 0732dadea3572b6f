import FlipbookRaster
import Foundation

/// How glyphs are painted (Apple's `CGTextDrawingMode`).
public enum CGTextDrawingMode: Int32, Sendable {
    case fill, stroke, fillStroke, invisible, fillClip, strokeClip, fillStrokeClip, clip
}

/// Glyph drawing: Core Graphics' low-level text API (a subset) — a font, a size, a text matrix
/// and glyphs at positions. Shaping and line layout are `CATextLayer`'s (or Core Text's, which
/// Flipbook does not have); this draws glyphs that are already chosen and placed.
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

    /// Draws `glyphs` of the current font at `positions` (text space, relative to
    /// ``textPosition``). Counts that differ draw the shorter; no font or a size of 0 draws
    /// nothing.
    public func showGlyphs(_ glyphs: [CGGlyph], at positions: [CGPoint]) {
        guard let font = _state.font, _state.fontSize.isFinite, _state.fontSize != 0 else { return }
        let k = Double(_state.fontSize) / Double(font.unitsPerEm)
        let tm = textMatrix, tp = textPosition
        var path = RasterPath()
        let ctm = _rasterCTM
        for (g, p) in zip(glyphs, positions) where Int(g) < font.numberOfGlyphs {
            // glyph (font units) → text space → user space (text matrix) → device (CTM)
            let q = CGPoint(x: p.x + tp.x, y: p.y + tp.y)
            let t = RasterTransform(a: k, b: 0, c: 0, d: k, tx: Double(q.x), ty: Double(q.y))
                .concatenating(RasterTransform(a: Double(tm.a), b: Double(tm.b), c: Double(tm.c), d: Double(tm.d),
                                               tx: Double(tm.tx), ty: Double(tm.ty)))
                .concatenating(ctm)
            path.append(font._outline(UInt32(g)), transform: t)
        }
        _paintGlyphs(path)
    }

    /// Paints device-space glyph outlines as the drawing mode says.
    func _paintGlyphs(_ path: RasterPath) {
        guard !path.isEmpty else { return }
        let mode = _state.textDrawingMode
        if [.fill, .fillStroke, .fillClip, .fillStrokeClip].contains(mode) {
            _fillDevice(path, rule: .winding, color: _state.fillColor)
        }
        if [.stroke, .fillStroke, .strokeClip, .fillStrokeClip].contains(mode) {
            let p = CGPath(path)
            if let (o, s) = _strokeOutline(of: p, forDrawing: true) {
                _fillDevice(o, rule: .winding, color: _state.strokeColor, coverageScale: s)
            }
        }
    }

    /// Draws a laid-out text (y down, `origin` its top-left in user space) with the fill
    /// colour for glyphs whose style has no colour. Glyphs of one colour are filled as one path
    /// (one coverage pass, overlapping glyphs counted once, as Core Text draws a run).
    package func _drawText(_ layout: TextLayout, at origin: CGPoint, defaultColor: CGColor) {
        let ctm = _rasterCTM
        var path = RasterPath()
        var current: CGColor? = nil
        func flush() {
            guard !path.isEmpty else { return }
            _fillDevice(path, rule: .winding, color: current ?? defaultColor)
            path.removeAll()
        }
        for g in layout.glyphs {
            if g.color?._rgba != current?._rgba { flush(); current = g.color }
            let k = g.size / Double(g.font.unitsPerEm)
            let t = RasterTransform(a: k, b: 0, c: 0, d: -k, tx: Double(origin.x) + g.x, ty: Double(origin.y) + g.y)
                .concatenating(ctm)
            path.append(g.font._outline(g.glyph), transform: t)
        }
        flush()
    }
}
