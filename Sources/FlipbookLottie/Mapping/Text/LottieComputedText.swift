import Foundation
import Flipbook

/// A text layer with many documents (more than ``LottieTextMapper/maximumDocumentLayers``
/// distinct ones — a counter, a typed-on caption): two ``LottieComputedShapeLayer``s (the
/// bottom and top of the fill/stroke pair) whose presentation copies pick the document shown
/// at their local frame and draw its outline, built on first use and kept in a small cache.
///
/// One layer per document with `hidden` keyframes (what fewer documents get) would hold every
/// document's outline and evaluate an animation per document at every frame; this keeps the
/// cost of a frame independent of the number of documents, and of a mapping linear in it (the
/// file may have 100 000 document keyframes).
package enum LottieComputedText {
    /// Outlines kept (least recently used dropped first).
    static let cacheSize = 16

    /// The two layers (in a container) drawing `entries` (sorted by time) whose documents are
    /// `documents[documentOfEntry[i]]`, drawn by `routes`.
    static func makeLayer(entries: [LottieTextData.Entry], documents: [LottieTextDocument], documentOfEntry: [Int],
                          routes: [LottieTextRoute], clock: LottieClock, context: LottieMappingContext) -> CALayer {
        let source = Source(times: entries.map(\.time), documentOfEntry: documentOfEntry, documents: documents, routes: routes)
        let container = CALayer()
        container.name = "text"
        container.anchorPoint = .zero
        for top in [false, true] {
            let layer = LottieComputedShapeLayer()
            layer.anchorPoint = .zero
            layer.lineJoin = .round
            layer.lineCap = .butt
            layer.miterLimit = 4
            layer.update = { l, frame in source.draw(l, frame: frame, top: top) }
            let key = LottieComputedShapeLayer.frameKey
            context.apply(LottieAnimationBuilder.frameTrack(keyPath: key, clock: clock), to: layer, keyPath: key)
            layer.display()
            container.addSublayer(layer)
        }
        return container
    }

    /// The documents over time and their outlines (shared by the two layers and every
    /// presentation copy; presentation copies may be drawn on several threads).
    final class Source: @unchecked Sendable {
        let times: [Double]
        let documentOfEntry: [Int]
        let documents: [LottieTextDocument]
        let routes: [LottieTextRoute]
        private let lock = NSLock()
        private var cache: [(index: Int, path: CGPath)] = []

        init(times: [Double], documentOfEntry: [Int], documents: [LottieTextDocument], routes: [LottieTextRoute]) {
            self.times = times; self.documentOfEntry = documentOfEntry; self.documents = documents; self.routes = routes
        }

        /// The document shown at local frame `f`: the last whose time is at or before `f` (the
        /// first before them all).
        func document(atFrame f: Double) -> Int {
            var lo = 0, hi = times.count   // first index with time > f
            while lo < hi {
                let mid = (lo + hi) / 2
                if times[mid] <= f { lo = mid + 1 } else { hi = mid }
            }
            return documentOfEntry[max(lo - 1, 0)]
        }

        func outline(_ k: Int) -> CGPath {
            lock.lock(); defer { lock.unlock() }
            if let i = cache.firstIndex(where: { $0.index == k }) {
                let hit = cache.remove(at: i)
                cache.append(hit)
                return hit.path
            }
            let path = routes[k].outline(of: documents[k])
            cache.append((k, path))
            if cache.count > LottieComputedText.cacheSize { cache.removeFirst() }
            return path
        }

        /// Sets `layer` to draw the fill or stroke (whichever the document puts at the bottom
        /// or the top) of the document at `frame`.
        func draw(_ layer: CAShapeLayer, frame: Double, top: Bool) {
            let k = document(atFrame: frame.isFinite ? frame : 0)
            let d = documents[k]
            let isFill = top != d.strokeOverFill
            let style = LottieTextMapper.Style(d)
            layer.fillColor = nil
            layer.strokeColor = nil
            layer.lineWidth = 0
            if isFill, let fill = style.fill {
                layer.fillColor = fill
            } else if !isFill, let stroke = style.stroke {
                layer.strokeColor = stroke
                layer.lineWidth = style.strokeWidth
            } else {
                layer.path = nil
                return
            }
            layer.path = outline(k)
        }
    }
}
