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
    /// The glyphs of one font, flattened once: outlines and advances by character.
    package struct Table: Sendable {
        package var outlines: [String: CGPath] = [:]
        package var advances: [String: Double] = [:]
        /// The `ty` of glyph items that are not drawn.
        package var unsupported: Set<String> = []

        /// The glyphs of the font named `fontName` (a `fonts.list` entry's family and style);
        /// nil when the font is not listed or `chars` has none of its glyphs.
        package init?(fontName: String, composition: LottieComposition) {
            guard !composition.glyphs.isEmpty,
                  let font = composition.fonts.first(where: { $0.name == fontName }) else { return nil }
            for g in composition.glyphs where g.family == font.family && g.style == font.style && advances[g.character] == nil {
                let o = LottieGlyphOutline(g.shapes)
                outlines[g.character] = o.path
                advances[g.character] = g.advance.isFinite ? g.advance : 0
                unsupported.formUnion(o.unsupported)
            }
            if advances.isEmpty { return nil }
        }

        /// The first character of `document` (after caps) without a glyph; nil when all have one.
        package func firstMissingCharacter(in document: LottieTextDocument) -> String? {
            for case let c? in LottieTextLayout.characters(of: document) where advances[c.text] == nil { return c.text }
            return nil
        }
    }

    /// The outline of `document` drawn with `table`; `ascent` in points (box text).
    package static func path(for document: LottieTextDocument, table: Table, ascent: Double) -> CGMutablePath {
        let k = document.size / 100
        func advance(_ c: LottieTextLayout.Character) -> Double { (table.advances[c.text] ?? 0) * k * c.scale }
        let layout = LottieTextLayout(document: document, advance: advance)
        let t = LottieTextLayout.tracking(document)
        let path = CGMutablePath()
        for (i, line) in layout.lines.enumerated() {
            let advances = line.map(advance)
            let width = LottieTextLayout.lineWidth(line, advances: advances, tracking: t)
            let origin = LottieTextLayout.origin(ofLine: i, width: width, document: document, ascent: ascent)
            var x = Double(origin.x)
            for (c, a) in zip(line, advances) {
                if let o = table.outlines[c.text], !o.isEmpty {
                    let s = k * c.scale
                    path.addPath(o, transform: CGAffineTransform(a: s, b: 0, c: 0, d: s, tx: x, ty: origin.y))
                }
                x += a + t
            }
        }
        return path
    }
}
