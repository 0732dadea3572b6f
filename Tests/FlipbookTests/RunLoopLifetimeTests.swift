import Foundation
import Testing
@testable import Flipbook

/// A run loop's pending work (display, layout, changed-since-commit) must not keep layers
/// alive: a layer refers to its run loop, so a strong list made a cycle that kept every layer
/// changed and dropped before a commit — and its run loop, fonts and images — for good
/// (found by LeakSanitizer in the font fuzz target: ~50 KB per text layer; see `_WeakLayer`).
@Suite struct RunLoopLifetimeTests {
    @Test func layersChangedAndDroppedBeforeACommitAreFreed() {
        weak var text: CATextLayer?
        weak var shape: CAShapeLayer?
        weak var loop: VirtualRunLoop?
        do {
            let l = VirtualRunLoop()
            loop = l
            l.run {
                let t = CATextLayer()
                t.string = "Hello"
                t.fontSize = 12          // an implicit animation, pending in the transaction
                t.setNeedsDisplay()
                t.setNeedsLayout()
                text = t
                let s = CAShapeLayer()
                s.path = CGPath(rect: CGRect(x: 0, y: 0, width: 4, height: 4), transform: nil)
                s.addSublayer(CALayer())
                shape = s
            }
        }
        #expect(text == nil)
        #expect(shape == nil)
        #expect(loop == nil)
    }

    /// What is still held is still drawn: a layer changed, kept by its owner and committed
    /// later gets its display pass and its committed state as before.
    @Test func heldLayersStillGetTheirPendingWork() {
        final class Counting: CALayer {
            nonisolated(unsafe) var draws = 0
            override func draw(in ctx: CGContext) { draws += 1 }
        }
        let l = VirtualRunLoop()
        let layer = l.run { () -> Counting in
            let c = Counting()
            c.bounds = CGRect(x: 0, y: 0, width: 8, height: 8)
            c.setNeedsDisplay()
            return c
        }
        l.run { l.endTurn() }
        #expect(layer.draws == 1)
    }
}
