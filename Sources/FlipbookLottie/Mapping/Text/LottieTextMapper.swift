import Foundation
import Flipbook

/// A text layer's `t` → the layers that draw it.
///
/// **Layers.** Each distinct text document (`t.d.k[]`) becomes one plain `CALayer` at the
/// Lottie layer's origin holding a fill `CAShapeLayer` (the document's `fc`) and, when the
/// document has a stroke (`sc` with `sw` > 0), a stroke `CAShapeLayer` (width `sw`, round
/// joins, butt caps, miter limit 4, as lottie-web draws text strokes) above the fill when `of`
/// (stroke over fill) is true, below it otherwise. Both share one static path: the whole
/// document's outline, built once (no per-frame work).
///
/// **Outline.** From the file's glyph shapes (``LottieGlyphText``) when `chars` has every
/// character of the document's font, else from the font's own outlines (``LottieFontText``,
/// the font found by ``LottieFontResolver``; a missing font is drawn with the bundled
/// DejaVu Sans and warned about). Both place characters with ``LottieTextLayout``: origin at
/// the first line's baseline, justification about x = 0, `lh` between baselines, tracking,
/// box text wrapped in its box.
///
/// **Documents over time.** Documents are hold keyframes: with more than one, each document
/// layer gets a `hidden` keyframe animation on the root timeline (`CAKeyframeAnimation`
/// with hold steps at the documents' frames), so exactly one is shown at any frame.
///
/// **Warned, drawn static:** text animators (`t.a`: range selectors moving, colouring or
/// fading characters), text on a path (`t.p`), justified paragraphs (`j` 3–6: left-aligned),
/// a font that is not installed (DejaVu Sans), a font style that is not installed (the
/// family's regular face), glyph shapes other than paths, rectangles and ellipses.
package enum LottieTextMapper {
    /// The layers drawing `text`, in the Lottie layer's own coordinate space (y down, before
    /// its transform). `path` is the layer's JSON path (`layers[3]`).
    package static func makeLayers(for text: LottieTextData, path: String, clock: LottieClock,
                                   context: LottieMappingContext) -> [CALayer] {
        if text.animatorCount > 0 {
            context.warn("text animator", path: "\(path).t.a",
                         "\(text.animatorCount) text animator(s) not applied: the text is drawn without their per-character offsets, colours and opacity")
        }
        if text.hasPath {
            context.warn("text on a path", path: "\(path).t.p", "the text is drawn on its baseline, not along the mask path")
        }
        let entries = text.documents.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }
            .map(\.element)
        guard !entries.isEmpty else { return [] }
        // One layer per distinct document.
        var documents: [LottieTextDocument] = []
        var documentOfEntry: [Int] = []
        for e in entries {
            if let i = documents.firstIndex(of: e.document) {
                documentOfEntry.append(i)
            } else {
                documentOfEntry.append(documents.count)
                documents.append(e.document)
            }
        }
        let layers = documents.map { makeLayer(for: $0, path: path, context: context) }
        guard layers.count > 1 else { return layers }
        for (k, layer) in layers.enumerated() {
            let hidden = LottieAnimated(keyframes: entries.indices.map { i in
                LottieKeyframe(time: entries[i].time, value: [documentOfEntry[i] == k ? 0.0 : 1.0], hold: true)
            })
            context.apply(LottieAnimationBuilder.track(keyPath: "hidden", hidden, clock: clock) { $0[0] >= 0.5 },
                          to: layer, keyPath: "hidden")
        }
        return layers
    }

    /// The layer drawing one document (see the type's documentation).
    static func makeLayer(for document: LottieTextDocument, path: String, context: LottieMappingContext) -> CALayer {
        let container = CALayer()
        container.name = "text"
        container.anchorPoint = .zero
        let docPath = "\(path).t.d"
        guard document.size.isFinite, document.size > 0, !document.text.isEmpty else { return container }
        if (3...6).contains(document.justification) {
            context.warn("justified text", path: docPath, "justified paragraphs are drawn left-aligned (as lottie-web and ThorVG draw them)")
        }
        let composition = context.composition
        let entry = composition.fonts.first { $0.name == document.fontName }
        var missing: String?
        let outline: CGPath
        if let glyphs = LottieGlyphText.glyphs(for: document, in: composition, missing: &missing) {
            let ascent = entry?.ascent ?? LottieFontText.ascentPercent(
                of: LottieFontResolver.resolve(name: document.fontName, in: composition.fonts).font)
            var unsupported = Set<String>()
            outline = LottieGlyphText.path(for: document, glyphs: glyphs, ascent: ascent * document.size / 100,
                                           unsupported: &unsupported)
            if !unsupported.isEmpty {
                context.warn("glyph shapes", path: "chars", "glyph items \(unsupported.sorted().joined(separator: ", ")) are not drawn")
            }
        } else {
            let name = LottieFontResolver.describe(name: document.fontName, in: composition.fonts)
            if let missing {
                context.warn("glyphs", path: "chars",
                             "no glyph for \"\(missing)\" in font \(name): text in that font is drawn with the font's outlines")
            }
            let (font, match) = LottieFontResolver.resolve(name: document.fontName, in: composition.fonts)
            switch match {
            case .exact: break
            case .familyOnly:
                context.warn("font style", path: docPath, "font \(name) is not installed: drawn with the regular face of its family")
            case .missing:
                context.warn("font", path: docPath, "font \(name) is neither bundled nor installed: drawn with DejaVu Sans")
            }
            let ascent = entry?.ascent ?? LottieFontText.ascentPercent(of: font)
            outline = LottieFontText.path(for: document, font: font, ascent: ascent * document.size / 100)
        }
        let fill = document.fillColor.flatMap(color).map { c -> CAShapeLayer in
            let l = shapeLayer(outline)
            l.fillColor = c
            return l
        }
        let stroke = document.strokeColor.flatMap(color).flatMap { c -> CAShapeLayer? in
            guard document.strokeWidth.isFinite, document.strokeWidth > 0 else { return nil }
            let l = shapeLayer(outline)
            l.fillColor = nil
            l.strokeColor = c
            l.lineWidth = document.strokeWidth
            l.lineJoin = .round
            l.lineCap = .butt
            l.miterLimit = 4
            return l
        }
        let ordered = document.strokeOverFill ? [fill, stroke] : [stroke, fill]
        for case let l? in ordered { container.addSublayer(l) }
        return container
    }

    private static func shapeLayer(_ path: CGPath) -> CAShapeLayer {
        let l = CAShapeLayer()
        l.anchorPoint = .zero
        l.path = path
        return l
    }

    /// A document colour (`fc`, `sc`: 0–1, or 0–255 in some old exports) as a `CGColor`; alpha
    /// 1 unless a fourth component is given.
    static func color(_ c: [Double]) -> CGColor? {
        guard c.count >= 3, c.prefix(4).allSatisfy(\.isFinite) else { return nil }
        let scale = c.prefix(3).contains { $0 > 1 } ? 255.0 : 1.0
        func unit(_ v: Double) -> Double { min(max(v / scale, 0), 1) }
        let a = c.count >= 4 ? min(max(c[3] > 1 ? c[3] / 255 : c[3], 0), 1) : 1
        return CGColor(red: unit(c[0]), green: unit(c[1]), blue: unit(c[2]), alpha: a)
    }
}
