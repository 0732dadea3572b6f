import Testing
import Foundation
@testable import FlipbookLottie
import Flipbook
import FlipbookRender
import FlipbookPixels

/// Text documents over time (hold keyframes → `hidden` keyframe animations on the root
/// timeline) and the warnings of what is drawn static (animators, text on a path, justified
/// paragraphs).
@Suite struct TextDocumentTests {
    typealias S = TextTestSupport

    /// Documents "A" from frame 0 and "I" from frame 50 (10 fps, root timeline 0…100): "A" is
    /// shown up to frame 49, "I" from frame 50 on, through the mapper's animations played on
    /// the virtual clock.
    @Test func theDocumentChangesAtItsKeyframe() throws {
        let text = LottieTextData(documents: [.init(time: 0, document: S.document("A")),
                                              .init(time: 50, document: S.document("I"))])
        let loop = VirtualRunLoop()
        let inks: [(Int, Int, Int, Int)?] = try loop.run {
            // Layers belong to the run loop they are made in: map inside it.
            let (layers, context) = S.map(text)
            #expect(layers.count == 2)
            #expect(layers[0].isHidden == false && layers[1].isHidden == true)
            let root = S.root(layers, origin: CGPoint(x: 20, y: 50))
            loop.attach(root)
            loop.endTurn()
            let t0 = loop.currentTime
            for (layer, animations) in context.animatedLayers {
                for (i, a) in animations.enumerated() {
                    a.fillMode = .both; a.isRemovedOnCompletion = false
                    layer.add(a, forKey: "text\(i)")
                }
            }
            loop.endTurn()
            return try [0.0, 4.9, 5.0, 9.9].map { t in
                let p = try Compositor(threadCount: 1).render(root.makeRenderTree(at: t0 + t), width: 200, height: 100)
                return S.ink(p).map { ($0.minX, $0.minY, $0.maxX, $0.maxY) }
            }
        }
        let a = (20, 36, 32, 50), i = (22, 36, 26, 50)
        #expect(inks[0]! == a && inks[1]! == a)
        #expect(inks[2]! == i && inks[3]! == i)
    }

    /// Past 64 distinct documents, two computed shape layers draw the document of the frame:
    /// documents 0…69 at frames 0…69 alternate "A" and "I", their fill's green is the index,
    /// and their stroke goes over the fill for indices 0, 1 (mod 4), under it for 2, 3.
    @Test func manyDocumentsAreDrawnByComputedLayers() throws {
        let entries = (0..<70).map { i in
            LottieTextData.Entry(time: Double(i), document: S.document(i % 2 == 0 ? "A" : "I") {
                $0.fillColor = [1, Double(i) / 255, 0]; $0.strokeColor = [0, 0, 1]; $0.strokeWidth = 4
                $0.strokeOverFill = i % 4 < 2
            })
        }
        let loop = VirtualRunLoop()
        let frames: [PixelBuffer] = try loop.run {
            let (layers, context) = S.map(LottieTextData(documents: entries))
            #expect(layers.count == 1 && layers[0].sublayers?.count == 2)
            #expect(layers[0].sublayers?.allSatisfy { $0 is LottieComputedShapeLayer } == true)
            let root = S.root(layers, origin: CGPoint(x: 20, y: 50))
            loop.attach(root)
            loop.endTurn()
            let t0 = loop.currentTime
            for (layer, animations) in context.animatedLayers {
                for (i, a) in animations.enumerated() {
                    a.fillMode = .both; a.isRemovedOnCompletion = false
                    layer.add(a, forKey: "text\(i)")
                }
            }
            loop.endTurn()
            return try [10.0, 11, 12, 67, 69, 90].map { f in
                try Compositor(threadCount: 1).render(root.makeRenderTree(at: t0 + f / 10), width: 200, height: 100)
            }
        }
        // Frame 10: "A", fill over stroke: the edge pixel inside is the fill (green 10).
        #expect(S.pixel(frames[0], 26, 43) == [255, 10, 0, 255])
        #expect(S.pixel(frames[0], 21, 43) == [255, 10, 0, 255])
        #expect(S.pixel(frames[0], 18, 43) == [0, 0, 255, 255])
        // Frame 11: "I" (22…26, stroke 2 out).
        #expect(S.ink(frames[1])! == (20, 34, 28, 52))
        // Frame 12: "A", stroke over fill.
        #expect(S.pixel(frames[2], 21, 43) == [0, 0, 255, 255])
        #expect(S.pixel(frames[2], 26, 43) == [255, 12, 0, 255])
        // Frame 67: "I", fill over stroke (green 67); 69: stroke over the whole 4-px stem.
        #expect(S.pixel(frames[3], 24, 43) == [255, 67, 0, 255])
        #expect(S.pixel(frames[4], 24, 43) == [0, 0, 255, 255])
        // After the last keyframe: the last document.
        #expect(frames[5] == frames[4])
    }

    /// 100 000 document keyframes (the parser's limit) map in time linear in their number:
    /// one layer pair, two frame animations.
    @Test func aHundredThousandDocumentsMapQuickly() {
        let entries = (0..<100_000).map { (i: Int) -> LottieTextData.Entry in
            var d = S.document(i % 3 == 0 ? "AI" : "IA")
            d.size = 10 + Double(i % 1000)
            return LottieTextData.Entry(time: Double(i) / 1000, document: d)
        }
        let (layers, context) = S.map(LottieTextData(documents: entries))
        #expect(layers.count == 1 && context.animatedLayers.count == 2)
    }

    /// A document that comes back is the same layer: "A", "I", "A" → two layers.
    @Test func repeatedDocumentsShareALayer() {
        let text = LottieTextData(documents: [.init(time: 0, document: S.document("A")),
                                              .init(time: 20, document: S.document("I")),
                                              .init(time: 40, document: S.document("A"))])
        let (layers, context) = S.map(text)
        #expect(layers.count == 2)
        #expect(context.animatedLayers.count == 2)
        let hidden = context.animatedLayers.first { $0.layer === layers[0] }?.animations.first as? CAKeyframeAnimation
        #expect(hidden?.keyPath == "hidden")
        // Shown, hidden from frame 20, shown again from frame 40.
        #expect(hidden?.values?.compactMap { $0 as? Bool } == [false, false, true, true, false, false])
    }

    /// One document: no animation.
    @Test func oneDocumentHasNoAnimation() {
        let (layers, context) = S.map(S.document("AI"))
        #expect(layers.count == 1 && layers[0].isHidden == false)
        #expect(context.animatedLayers.isEmpty)
    }

    /// Animators and text on a path: one warning each, naming the path; the text is still drawn.
    @Test func animatorsAndPathsWarnAndTheTextIsDrawn() throws {
        var text = LottieTextData(documents: [.init(time: 0, document: S.document("AI")),
                                              .init(time: 30, document: S.document("IA"))])
        text.animatorCount = 2
        text.hasPath = true
        let (layers, context) = S.map(text)
        #expect(context.warnings.map(\.feature) == ["text animator", "text on a path"])
        #expect(context.warnings.map(\.path) == ["layers[3].t.a", "layers[3].t.p"])
        let p = try S.render([layers[0]], origin: CGPoint(x: 20, y: 50))
        #expect(S.ink(p)! == (20, 36, 40, 50))
    }

    /// Justified paragraphs (`j` 3–6) are drawn left-aligned, with a warning.
    @Test func justifiedParagraphsWarn() throws {
        let (layers, context) = S.map(S.document("AI") { $0.justification = 4 })
        #expect(context.warnings.map(\.feature) == ["justified text"])
        #expect(S.ink(try S.render(layers, origin: CGPoint(x: 20, y: 50)))! == (20, 36, 40, 50))
    }

    /// Empty text and a size of 0 or NaN draw nothing (and do not fail).
    @Test func degenerateDocumentsDrawNothing() throws {
        for d in [S.document(""), S.document("AI", size: 0), S.document("AI", size: .nan)] {
            let (layers, _) = S.map(d)
            #expect(S.ink(try S.render(layers, origin: CGPoint(x: 20, y: 50))) == nil)
        }
        #expect(S.map(LottieTextData(documents: [])).layers.isEmpty)
    }
}
