import Testing
@testable import FlipbookTesting
@testable import FlipbookCompare
import Flipbook
import FlipbookPixels
import Foundation

/// Live layers for the layer-level assertions, each built under the caller's run loop.
enum TestLayers {
    static let red = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
    static let blue = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
    static let green = CGColor(red: 0, green: 1, blue: 0, alpha: 1)

    /// A 16×16-pt blue card (its frame fills a 16×16 image) with a red 8×8 square at (2, 2).
    static func card(square: CGColor = red) -> CALayer {
        let card = CALayer()
        card.bounds = CGRect(x: 0, y: 0, width: 16, height: 16)
        card.position = CGPoint(x: 8, y: 8)
        card.backgroundColor = blue
        let s = CALayer()
        s.frame = CGRect(x: 2, y: 2, width: 8, height: 8)
        s.backgroundColor = square
        card.addSublayer(s)
        return card
    }

    /// A card whose background goes from blue to green through a 1 s `push` transition added
    /// at t = 0 (its "before" picture is the committed blue card; the snapshot taken first
    /// changes nothing).
    static func pushingCard(_ loop: VirtualRunLoop, subtype: CATransitionSubtype) -> CALayer {
        let card = card()
        loop.attach(card)
        loop.endTurn()
        _ = card.makeRenderTree()
        CATransaction.setDisableActions(true)
        card.backgroundColor = green
        let push = CATransition()
        push.type = .push
        push.subtype = subtype
        push.duration = 1
        card.add(push, forKey: "swap")
        return card
    }
}

/// The layer-level assertions; references under `__Snapshots__/LayerRenderingTests/`
/// (recorded once with FLIPBOOK_RECORD=missing, reviewed, committed).
@Suite struct LayerRenderingTests {
    static let size = CGSize(width: 16, height: 16)

    @Test func defaultRendererIsTheCompositor() throws {
        let tree = VirtualRunLoop().run { TestLayers.card().makeRenderTree() }
        let image = try LayerRenderer.default.render(tree, 16, 16)
        #expect(image[0, 0] == RGBA8(r: 0, g: 0, b: 255, a: 255))
        #expect(image[5, 5] == RGBA8(r: 255, g: 0, b: 0, a: 255))
        // Scale 2: 32×32 pixels, the square covers pixels 4..<20.
        let r = LayerRenderer.Request(width: 32, height: 32, scale: 2, background: .white)
        let big = try LayerRenderer.default.renderRequest(tree, r)
        #expect(big.width == 32 && big[4, 4] == RGBA8(r: 255, g: 0, b: 0, a: 255) && big[3, 3].b == 255)
        #expect(throws: SnapshotError.render("the compositor refused the frame: invalid device scale 0.0: it must be finite and greater than 0")) {
            try LayerRenderer.default.renderRequest(tree, LayerRenderer.Request(width: 4, height: 4, scale: 0))
        }
    }

    @Test func identicalLayerPasses() {
        let loop = VirtualRunLoop()
        loop.run {
            let outcome = assertRendering(of: TestLayers.card(), at: 0, size: Self.size, named: "card")
            #expect(!outcome.isFailure)
            // Scale 2 has its own 32×32 reference.
            let hi = assertRendering(of: TestLayers.card(), at: 0, size: Self.size, scale: 2, named: "card-2x")
            #expect(!hi.isFailure)
        }
    }

    @Test func changedLayerFailsWithNumbers() {
        VirtualRunLoop().run {
            let changed = TestLayers.card(square: TestLayers.green)   // 64 pixels red → green
            withKnownIssue {
                let outcome = assertRendering(of: changed, at: 0, size: Self.size, named: "card", record: .never,
                                              testName: "identicalLayerPasses()")
                guard case .different(let c, let reference, let artifacts) = outcome else {
                    Issue.record("expected .different, got \(outcome)"); return
                }
                #expect(c.maxChannelDelta == 255 && c.differingPixelCount == 64 && c.pixelCount == 256)
                // MSE = 64 px · 2 channels · 255² / (4 · 256) → PSNR = 10·log10(255²/MSE) = 10·log10(8).
                #expect(abs(c.psnr - 10 * _libmLog10(8)) < 1e-9)
                let bounds = c.differenceBounds
                #expect(bounds?.x == 2 && bounds?.y == 2 && bounds?.width == 8 && bounds?.height == 8)
                #expect(reference.hasSuffix("__Snapshots__/LayerRenderingTests/identicalLayerPasses.card.png"))
                #expect(artifacts.count == 3)
            } matching: { issue in
                issue.comments.contains { $0.rawValue.contains("max channel Δ 255, 64 of 256 pixels differ (25%; allowed 0), PSNR 9.03 dB") }
            }
        }
    }

    @Test func sequenceListsExactlyTheDifferingFrames() {
        let times: [CFTimeInterval] = [0, 0.5, 1]
        // The reference sequence: push from the left, recorded at 0, ½ and 1 s.
        let loop = VirtualRunLoop()
        loop.run {
            let card = TestLayers.pushingCard(loop, subtype: .fromLeft)
            let results = assertRenderings(of: card, at: times, size: Self.size, named: "push")
            #expect(results.map(\.name) == ["push.t0", "push.t0.5", "push.t1"])
            #expect(results.allSatisfy { !$0.outcome.isFailure })
            #expect(loop.currentTime == 1)
        }
        // From the right instead: same first (old) and last (new) picture, different middle.
        let other = VirtualRunLoop()
        other.run {
            let card = TestLayers.pushingCard(other, subtype: .fromRight)
            withKnownIssue {
                let results = assertRenderings(of: card, at: times, size: Self.size, named: "push", record: .never,
                                               testName: "sequenceListsExactlyTheDifferingFrames()")
                #expect(results.map(\.outcome.isFailure) == [false, true, false])
                // Halfway, both show half of each card, mirrored; the red square's columns 0–1
                // and 10–15 (rows 2–9) are red in both: 256 − 8·8 = 192 pixels differ.
                #expect(results[1].outcome.comparison?.differingPixelCount == 192)
            } matching: { issue in
                let text = issue.comments.map(\.rawValue).joined()
                return text.hasPrefix("1 of 3 frames differ: push.t0.5\n") && text.contains("• push.t0.5:")
                    && !text.contains("• push.t0:") && !text.contains("• push.t1:")
            }
        }
    }

    @Test func timeBeforeTheClockIsAFailureNotASilentRender() throws {
        let loop = VirtualRunLoop()
        try loop.run {
            let card = TestLayers.card()
            loop.advance(to: 2)
            #expect(throws: SnapshotError.render("cannot render at t = 1: the layer's run loop is already at t = 2 and its clock never goes back (use one run loop per test)")) {
                try LayerRenderer.default.frame(of: card, at: 1, size: Self.size)
            }
            withKnownIssue {
                let results = assertRenderings(of: card, at: [3, 3], size: Self.size, named: "x", record: .never)
                #expect(results.map(\.name) == ["(all frames)"])
            } matching: { $0.comments.contains { $0.rawValue.contains("strictly increasing") } }
            #expect(loop.currentTime == 2)   // nothing was rendered, the clock did not move
            _ = try LayerRenderer.default.frame(of: card, at: 2.5, size: Self.size)
            #expect(loop.currentTime == 2.5)
        }
    }

    @Test func pixelSizeRoundsUpButToleratesFloatNoise() throws {
        #expect(try LayerRenderer.pixelSize(of: CGSize(width: 16, height: 9), scale: 1) == (16, 9))
        #expect(try LayerRenderer.pixelSize(of: CGSize(width: 10.5, height: 3.3), scale: 2) == (21, 7))
        #expect(try LayerRenderer.pixelSize(of: CGSize(width: 0.1 * 3 * 10, height: 1), scale: 1) == (3, 1))
        #expect(throws: SnapshotError.render("invalid width 0.0 pt at scale 1.0: the image must be at least 1 pixel")) {
            try LayerRenderer.pixelSize(of: CGSize(width: 0, height: 4), scale: 1)
        }
        #expect(throws: SnapshotError.render("invalid scale nan: it must be finite and greater than 0")) {
            try LayerRenderer.pixelSize(of: CGSize(width: 4, height: 4), scale: .nan)
        }
        #expect(throws: SnapshotError.render("height 20000.0 pt at scale 1.0 is 20000.0 pixels; it must be 1…16384")) {
            try LayerRenderer.pixelSize(of: CGSize(width: 4, height: 20000), scale: 1)
        }
    }

    @Test func frameNames() {
        #expect(LayerRenderer.frameName("push", at: 0) == "push.t0")
        #expect(LayerRenderer.frameName("push", at: 0.125) == "push.t0.125")
        #expect(LayerRenderer.frameName("push", at: 2) == "push.t2")
        #expect(LayerRenderer.frameName("push", at: 1.5) == "push.t1.5")
    }
}
