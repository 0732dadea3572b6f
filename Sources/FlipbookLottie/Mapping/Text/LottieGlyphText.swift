import Foundation
import Flipbook

/// Text drawn from the file's own glyph shapes (`chars`): the route After Effects' exports
/// take when "glyphs" are embedded, and the one lottie-web, lottie-ios and ThorVG prefer.
///
/// A document uses it when its font (`f`) is in `fonts.list` and `chars` has a glyph of that
/// font's family and style for every character (after caps). Each character's outline is its
/// glyph's shapes (``LottieGlyphOutline``, 100 units to the em) scaled by `size / 100`
/// (× 0.7 for small caps), placed by ``LottieTextLayout``; the advance is the glyph's `w` ×
/// `size / 100`, plus tracking. All the characters make one static path.
package enum LottieGlyphText {
    /// The glyphs of `document`'s font by character, when `chars` has one for every character
    /// it draws; nil otherwise (`missing` then names a character without a glyph, when the
    /// font has glyphs at all).
    package static func glyphs(for document: LottieTextDocument, in composition: LottieComposition,
                               missing: inout String?) -> [String: LottieGlyph]? {
        guard !composition.glyphs.isEmpty,
              let font = composition.fonts.first(where: { $0.name == document.fontName }) else { return nil }
        var table: [String: LottieGlyph] = [:]
        for g in composition.glyphs where g.family == font.family && g.style == font.style {
            if table[g.character] == nil { table[g.character] = g }
        }
        guard !table.isEmpty else { return nil }
        for case let c? in LottieTextLayout.characters(of: document) where table[c.text] == nil {
            missing = c.text
            return nil
        }
        return table
    }

    /// The outline of `document` drawn with `glyphs`; `ascent` in points (box text).
    /// `unsupported` receives the `ty` of glyph items that are not drawn.
    package static func path(for document: LottieTextDocument, glyphs: [String: LottieGlyph], ascent: Double,
                             unsupported: inout Set<String>) -> CGMutablePath {
        let k = document.size / 100
        func advance(_ c: LottieTextLayout.Character) -> Double {
            let w = glyphs[c.text]?.advance ?? 0
            return (w.isFinite ? w : 0) * k * c.scale
        }
        var outlines: [String: CGPath] = [:]
        func outline(_ c: LottieTextLayout.Character) -> CGPath? {
            if let p = outlines[c.text] { return p }
            guard let g = glyphs[c.text] else { return nil }
            let o = LottieGlyphOutline(g.shapes)
            unsupported.formUnion(o.unsupported)
            outlines[c.text] = o.path
            return o.path
        }
        let layout = LottieTextLayout(document: document, advance: advance)
        let t = LottieTextLayout.tracking(document)
        let path = CGMutablePath()
        for (i, line) in layout.lines.enumerated() {
            let advances = line.map(advance)
            let width = LottieTextLayout.lineWidth(line, advances: advances, tracking: t)
            let origin = LottieTextLayout.origin(ofLine: i, width: width, document: document, ascent: ascent)
            var x = Double(origin.x)
            for (c, a) in zip(line, advances) {
                if let o = outline(c), !o.isEmpty {
                    let s = k * c.scale
                    path.addPath(o, transform: CGAffineTransform(a: s, b: 0, c: 0, d: s, tx: x, ty: origin.y))
                }
                x += a + t
            }
        }
        return path
    }
}
