import Foundation
import Flipbook

/// A text layer's `t` → the layers that draw it.
///
/// **Layers.** Each distinct text document (`t.d.k[]`) becomes one plain `CALayer` at the
/// Lottie layer's origin holding a fill `CAShapeLayer` (the document's `fc`; none without
/// one) and, when the document has a stroke (`sc` with `sw` > 0), a stroke `CAShapeLayer`
/// (width `sw`, round joins, butt caps, miter limit 4, as lottie-web draws text strokes)
/// above the fill when `of` (stroke over fill) is true, below it otherwise. Both share one
/// static path: the whole document's outline, built once (no per-frame work).
///
/// **Outline.** From the file's glyph shapes (``LottieGlyphText``) when `chars` has every
/// character of the document's font, else from the font's own outlines (``LottieFontText``,
/// the font found by ``LottieFontResolver``; a missing font is drawn with the bundled
/// DejaVu Sans and warned about). Both place characters with ``LottieTextLayout``: origin at
/// the first line's baseline, justification about x = 0, `lh` between baselines, tracking,
/// box text wrapped in its box.
///
/// **Documents over time.** Documents are hold keyframes. With more than one, each document
/// layer gets a `hidden` keyframe animation on the root timeline (`CAKeyframeAnimation`, hold
/// steps at the frames where it is shown or replaced), so exactly one is shown at any frame.
/// Past ``maximumDocumentLayers`` distinct documents, one pair of computed shape layers draws
/// the document of the presentation frame instead (``LottieComputedText``).
///
/// **Warned, drawn static:** text animators (`t.a`: range selectors moving, colouring or
/// fading characters), text on a path (`t.p`), justified paragraphs (`j` 3–6: left-aligned),
/// a font that is not installed (DejaVu Sans), a font style that is not installed (the
/// family's regular face), glyph shapes other than paths, rectangles and ellipses.
package enum LottieTextMapper {
    /// The most distinct documents drawn as one layer each (see the type's documentation).
    package static let maximumDocumentLayers = 64

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
        let entries = text.documents.enumerated()
            .sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element)
        guard !entries.isEmpty else { return [] }
        // The distinct documents, in order of first use.
        var documents: [LottieTextDocument] = []
        var indexOfDocument: [LottieTextDocument: Int] = [:]
        let documentOfEntry = entries.map { e -> Int in
            if let i = indexOfDocument[e.document] { return i }
            indexOfDocument[e.document] = documents.count
            documents.append(e.document)
            return documents.count - 1
        }
        var planner = LottieTextRoute.Planner(context: context, path: path)
        let routes = documents.map { planner.route(for: $0) }
        if documents.count > maximumDocumentLayers {
            return [LottieComputedText.makeLayer(entries: entries, documents: documents, documentOfEntry: documentOfEntry,
                                                 routes: routes, clock: clock, context: context)]
        }
        let layers = zip(documents, routes).map { makeLayer(for: $0, outline: $1.outline(of: $0)) }
        guard layers.count > 1 else { return layers }
        // Each layer's visibility changes where its document starts or ends being shown.
        var keyframes = [[LottieKeyframe<LottieVector>]](repeating: [], count: layers.count)
        for k in layers.indices {
            keyframes[k].append(LottieKeyframe(time: entries[0].time, value: [documentOfEntry[0] == k ? 0 : 1], hold: true))
        }
        for i in entries.indices.dropFirst() where documentOfEntry[i] != documentOfEntry[i - 1] {
            keyframes[documentOfEntry[i - 1]].append(LottieKeyframe(time: entries[i].time, value: [1], hold: true))
            keyframes[documentOfEntry[i]].append(LottieKeyframe(time: entries[i].time, value: [0], hold: true))
        }
        for (layer, k) in zip(layers, keyframes) {
            context.apply(LottieAnimationBuilder.track(keyPath: "hidden", LottieAnimated(keyframes: k), clock: clock) { $0[0] >= 0.5 },
                          to: layer, keyPath: "hidden")
        }
        return layers
    }

    /// The layer drawing one document's `outline` (see the type's documentation).
    static func makeLayer(for document: LottieTextDocument, outline: CGPath) -> CALayer {
        let container = CALayer()
        container.name = "text"
        container.anchorPoint = .zero
        guard !outline.isEmpty else { return container }
        let style = Style(document)
        let fill = style.fill.map { c -> CAShapeLayer in
            let l = shapeLayer(outline)
            l.fillColor = c
            return l
        }
        let stroke = style.stroke.map { c -> CAShapeLayer in
            let l = shapeLayer(outline)
            l.fillColor = nil
            l.strokeColor = c
            l.lineWidth = style.strokeWidth
            l.lineJoin = .round
            l.lineCap = .butt
            l.miterLimit = 4
            return l
        }
        for case let l? in document.strokeOverFill ? [fill, stroke] : [stroke, fill] { container.addSublayer(l) }
        return container
    }

    private static func shapeLayer(_ path: CGPath) -> CAShapeLayer {
        let l = CAShapeLayer()
        l.anchorPoint = .zero
        l.path = path
        return l
    }

    /// A document's paint: fill colour, stroke colour and width (nil stroke when `sc` is absent
    /// or `sw` is not positive).
    package struct Style {
        package var fill: CGColor?
        package var stroke: CGColor?
        package var strokeWidth: Double

        package init(_ document: LottieTextDocument) {
            fill = document.fillColor.flatMap(Self.color)
            let w = document.strokeWidth
            strokeWidth = w.isFinite && w > 0 ? w : 0
            stroke = strokeWidth > 0 ? document.strokeColor.flatMap(Self.color) : nil
        }

        /// A document colour (`fc`, `sc`: 0–1, or 0–255 in some old exports) as a `CGColor`;
        /// alpha 1 unless a fourth component is given.
        package static func color(_ c: [Double]) -> CGColor? {
            guard c.count >= 3, c.prefix(4).allSatisfy(\.isFinite) else { return nil }
            let scale = c.prefix(3).contains { $0 > 1 } ? 255.0 : 1.0
            func unit(_ v: Double) -> Double { min(max(v / scale, 0), 1) }
            let a = c.count >= 4 ? min(max(c[3] > 1 ? c[3] / 255 : c[3], 0), 1) : 1
            return CGColor(red: unit(c[0]), green: unit(c[1]), blue: unit(c[2]), alpha: a)
        }
    }
}
