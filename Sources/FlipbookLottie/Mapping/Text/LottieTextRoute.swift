import Foundation
import Flipbook

/// How one text document is drawn: from the file's glyph shapes or from a font, with the
/// ascent box text hangs from. Immutable and `Sendable`, so outlines can also be built at
/// presentation time (``LottieComputedText``).
package struct LottieTextRoute: Sendable {
    package enum Kind: Sendable {
        /// The file's `chars` of the document's font: each character's flattened outline
        /// (100 units to the em) and advance (`w`).
        case glyphs(LottieGlyphText.Table)
        /// A bundled or installed font (or the bundled default).
        case font(CGFont)
    }
    package var kind: Kind
    /// The font's ascent in percent of the size (`fonts.list[].ascent`, else the font's own).
    package var ascentPercent: Double

    /// The outline of `document` (see ``LottieGlyphText`` and ``LottieFontText``).
    package func outline(of document: LottieTextDocument) -> CGPath {
        guard document.size.isFinite, document.size > 0, !document.text.isEmpty else { return CGMutablePath() }
        let ascent = ascentPercent * document.size / 100
        switch kind {
        case let .glyphs(table): return LottieGlyphText.path(for: document, table: table, ascent: ascent)
        case let .font(font): return LottieFontText.path(for: document, font: font, ascent: ascent)
        }
    }

    /// Chooses routes for the documents of one text layer and records, once each, the warnings
    /// they bring (a missing font or style, a character without a glyph, glyph items not
    /// drawn, justified paragraphs). Per-font work (the glyph table, the font lookup) is done
    /// once per font name, so a layer with many documents costs one pass over their text.
    package struct Planner {
        let context: LottieMappingContext
        /// The text layer's JSON path (`layers[3]`).
        let path: String
        private var tables: [String: LottieGlyphText.Table?] = [:]
        private var fonts: [String: CGFont] = [:]

        package init(context: LottieMappingContext, path: String) { self.context = context; self.path = path }

        package mutating func route(for document: LottieTextDocument) -> LottieTextRoute {
            let composition = context.composition
            let name = document.fontName
            let entry = composition.fonts.first { $0.name == name }
            if (3...6).contains(document.justification) {
                context.warn("justified text", path: "\(path).t.d", "justified paragraphs are drawn left-aligned (as lottie-web and ThorVG draw them)")
            }
            if tables[name] == nil {
                let t = LottieGlyphText.Table(fontName: name, composition: composition)
                tables[name] = .some(t)
                if let t, !t.unsupported.isEmpty {
                    context.warn("glyph shapes", path: "chars", "glyph items \(t.unsupported.sorted().joined(separator: ", ")) are not drawn")
                }
            }
            if let table = tables[name] ?? nil {
                if let missing = table.firstMissingCharacter(in: document) {
                    context.warn("glyphs", path: "chars",
                                 "no glyph for \"\(missing)\" in font \(LottieFontResolver.describe(name: name, in: composition.fonts)): text in that font is drawn with the font's outlines")
                } else {
                    // No ascent in the file: the font's own if it is here (quietly: it is not drawn).
                    let ascent = entry?.ascent
                        ?? LottieFontText.ascentPercent(of: LottieFontResolver.resolve(name: name, in: composition.fonts).font)
                    return LottieTextRoute(kind: .glyphs(table), ascentPercent: ascent)
                }
            }
            let f = font(name)
            return LottieTextRoute(kind: .font(f), ascentPercent: entry?.ascent ?? LottieFontText.ascentPercent(of: f))
        }

        /// The font named `name` (looked up once; warned about when missing).
        private mutating func font(_ name: String) -> CGFont {
            if let f = fonts[name] { return f }
            let fontsList = context.composition.fonts
            let (f, match) = LottieFontResolver.resolve(name: name, in: fontsList)
            let described = LottieFontResolver.describe(name: name, in: fontsList)
            switch match {
            case .exact: break
            case .familyOnly:
                context.warn("font style", path: "\(path).t.d", "font \(described) is not installed: drawn with the regular face of its family")
            case .missing:
                context.warn("font", path: "\(path).t.d", "font \(described) is neither bundled nor installed: drawn with DejaVu Sans")
            }
            fonts[name] = f
            return f
        }
    }
}
