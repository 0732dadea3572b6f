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
