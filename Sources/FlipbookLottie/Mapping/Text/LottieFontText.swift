import Foundation
import Flipbook
import FlipbookGraphics

/// Text drawn from a font's outlines: the route for documents whose file has no glyph shapes
/// for them (`chars` absent or incomplete).
///
/// Each line is laid out by Flipbook's text engine — the one behind `CATextLayer` and Core
/// Text's `CTLine` (HarfBuzz shaping with the font's kerning, ligatures and marks, the
/// bundled fallback fonts for characters the font lacks, bidirectional reordering) — with
/// the tracking as Core Text's kern (after every character), and its glyphs' outlines
/// (`CGFont.path(for:)`, font units, y up) are placed at the line's origin from
/// ``LottieTextLayout`` and scaled to the size, y flipped. Box text wraps on the characters'
/// own advances, as lottie-web measures them.
///
/// Why outlines in a `CAShapeLayer` rather than a `CATextLayer`: a text layer draws into a
/// backing store at its `contentsScale` (a Lottie scaled up by its transforms would be
/// blurred), lays lines out at the font's own line height and from the top of its bounds, and
/// has no outline stroke; After Effects' text has a line pitch (`lh`), a baseline origin, a
/// stroke drawn over or under the fill, and is vector at every scale. Outline paths give all
/// of that exactly, with the same layer structure as glyph-shaped text.
package enum LottieFontText {
    /// The outline of `document` drawn with `font`; `ascent` in points (box text).
    package static func path(for document: LottieTextDocument, font: CGFont, ascent: Double) -> CGMutablePath {
        let size = document.size
        let t = LottieTextLayout.tracking(document)
        // Per-character advances for wrapping box text (no kerning between characters).
        func advance(_ c: LottieTextLayout.Character) -> Double {
            guard let scalar = c.text.unicodeScalars.first else { return 0 }
            var f = font, g = font.glyph(for: scalar)
            if g == 0 { f = CGFont.bundledDefault; g = f.glyph(for: scalar) }
            var a: Int32 = 0
            _ = f.getGlyphAdvances(glyphs: &g, count: 1, advances: &a)
            return Double(a) / Double(max(f.unitsPerEm, 1)) * size * c.scale
        }
        let layout = LottieTextLayout(document: document, advance: advance)
        let styles = [TextStyle(font: font, size: size, kern: t), TextStyle(font: font, size: size * 0.7, kern: t)]
        let path = CGMutablePath()
        for (i, line) in layout.lines.enumerated() {
            var scalars: [UInt32] = [], styleOf: [Int] = []
            for c in line {
                for s in c.text.unicodeScalars { scalars.append(s.value); styleOf.append(c.scale == 1 ? 0 : 1) }
            }
            guard !scalars.isEmpty else { continue }
            let shaped = TextLayout(scalars: scalars, styleOf: styleOf, styles: styles, width: 0, height: 0,
                                    wrapped: false, truncation: .none, alignment: .left)
            guard let first = shaped.lines.first else { continue }
            let hasInk = line.contains { !$0.isSpace }
            let width = hasInk ? max(0, first.width - t) : 0
            let origin = LottieTextLayout.origin(ofLine: i, width: width, document: document, ascent: ascent)
            for g in shaped.glyphs {
                guard let outline = g.font.path(for: CGGlyph(truncatingIfNeeded: g.glyph)), !outline.isEmpty else { continue }
                let k = g.size / Double(max(g.font.unitsPerEm, 1))
                path.addPath(outline, transform: CGAffineTransform(a: k, b: 0, c: 0, d: -k,
                                                                   tx: Double(origin.x) + g.x,
                                                                   ty: Double(origin.y) + g.y - first.baseline))
            }
        }
        return path
    }

    /// The font's ascent as a percentage of the size (Lottie's `fonts.list[].ascent` unit).
    package static func ascentPercent(of font: CGFont) -> Double {
        Double(font.ascent) / Double(max(font.unitsPerEm, 1)) * 100
    }
}
