import Testing
@testable import Flipbook
import Foundation

// The listings of the CATransaction post (003), in Swift against Flipbook.

@Suite struct SeedTransactionListingTests {
    /// Implicit transaction: a change on a live layer animates for 0.25 s; explicit
    /// begin/commit around it behaves the same.
    @Test func implicitAndExplicitTransactionsAnimateAlike() {
        withRunLoop { loop in
            let layer = liveLayer(loop)
            layer.backgroundColor = CGColor(red: 1, green: 1, blue: 0, alpha: 1)
            #expect(layer.animation(forKey: "backgroundColor")?.duration == 0.25)
            loop.advance(to: 1)
            CATransaction.begin()
            layer.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
            CATransaction.commit()
            let a = layer.animation(forKey: "backgroundColor") as? CABasicAnimation
            #expect(a?.duration == 0.25 && a?.beginTime == 1)
            #expect(a?.fromValue as? CGColor == CGColor(red: 1, green: 1, blue: 0, alpha: 1))
        }
    }

    /// Duration 2 and a completion block; the block runs when the 2 s animation ends.
    @Test func durationAndCompletionBlock() {
        withRunLoop { loop in
            let layer = liveLayer(loop)
            var log: [Double] = []
            CATransaction.begin()
            CATransaction.setAnimationDuration(2)
            CATransaction.setCompletionBlock { log.append(CACurrentMediaTime()) }
            layer.backgroundColor = CGColor(gray: 0.5, alpha: 1)
            CATransaction.commit()
            loop.advance(to: 1.99)
            #expect(log.isEmpty)
            loop.advance(to: 3)
            #expect(log == [2])
        }
    }

    /// A completion block set *after* the change does not wait for it (the post's warning
    /// about order): it runs at the end of the commit's turn.
    @Test func completionBlockOnlyWaitsForLaterAnimations() {
        withRunLoop { loop in
            let layer = liveLayer(loop)
            var at: [Double] = []
            CATransaction.begin()
            layer.opacity = 0.5
            CATransaction.setCompletionBlock { at.append(CACurrentMediaTime()) }
            CATransaction.commit()
            loop.endTurn()
            #expect(at == [0])
        }
    }

    /// Changes made inside a completion block form a new transaction (1 s, starting at 2).
    @Test func changesInsideTheCompletionBlockFormANewTransaction() {
        withRunLoop { loop in
            let layer = liveLayer(loop)
            CATransaction.begin()
            CATransaction.setAnimationDuration(2)
            CATransaction.setCompletionBlock {
                CATransaction.setAnimationDuration(1)
                layer.backgroundColor = CGColor(red: 0, green: 1, blue: 1, alpha: 1)
            }
            layer.backgroundColor = CGColor(red: 1, green: 1, blue: 0, alpha: 1)
            CATransaction.commit()
            loop.advance(to: 2)
            let a = layer.animation(forKey: "backgroundColor")
            #expect(a?.duration == 1 && a?.beginTime == 2)
            #expect(loop._stack.isEmpty)
        }
    }

    /// Nested transactions: the inner cornerRadius change inherits the outer 2 s (Apple; the
    /// post claims 0.25 s), and the completion block moves the layer afterwards in 1 s.
    @Test func nestedTransactionsWithCompletionBlocks() {
        withRunLoop { loop in
            let layer = liveLayer(loop)
            CATransaction.setDisableActions(true)
            layer.frame = CGRect(x: 100, y: 100, width: 100, height: 100)
            loop.endTurn()
            var completed: [Double] = []
            CATransaction.begin()
            CATransaction.setAnimationDuration(2)
            CATransaction.setCompletionBlock {
                completed.append(CACurrentMediaTime())
                CATransaction.setAnimationDuration(1)
                layer.frame = CGRect(x: 50, y: 100, width: 100, height: 100)
            }
            layer.backgroundColor = CGColor(red: 1, green: 1, blue: 0, alpha: 1)
            CATransaction.begin()
            layer.cornerRadius = 20
            CATransaction.commit()
            CATransaction.commit()
            #expect(layer.animation(forKey: "backgroundColor")?.duration == 2)
            #expect(layer.animation(forKey: "cornerRadius")?.duration == 2)
            loop.advance(to: 1)
            #expect(completed.isEmpty)
            loop.advance(to: 2)
            #expect(completed == [2])
            let move = layer.animation(forKey: "position") as? CABasicAnimation
            #expect(move?.duration == 1 && move?.beginTime == 2)
            #expect(move?.fromValue as? CGPoint == CGPoint(x: 150, y: 150))
            #expect(move?.toValue as? CGPoint == CGPoint(x: 100, y: 150))
            #expect(layer.animation(forKey: "bounds") == nil)   // same size: no change
            loop.advance(to: 3)
            #expect(layer.animationKeys() == nil)
        }
    }

    /// A nested transaction's own completion block waits only for its own animations.
    @Test func nestedCompletionBlocksAreIndependent() {
        withRunLoop { loop in
            let layer = liveLayer(loop)
            var log: [String] = []
            CATransaction.begin()
            CATransaction.setAnimationDuration(2)
            CATransaction.setCompletionBlock { log.append("outer @\(CACurrentMediaTime())") }
            layer.opacity = 0
            CATransaction.begin()
            CATransaction.setAnimationDuration(0.5)
            CATransaction.setCompletionBlock { log.append("inner @\(CACurrentMediaTime())") }
            layer.cornerRadius = 4
            CATransaction.commit()
            CATransaction.commit()
            loop.advance(to: 5)
            // The outer group also waits for the inner animation (it was added inside it).
            #expect(log == ["inner @0.5", "outer @2.0"])
        }
    }

    /// The explicit cornerRadius animation with a custom curve, in a transaction that sets the
    /// duration and timing function: it takes both (it set neither), and replaces the implicit
    /// animation the model change made under the same key.
    @Test func explicitAnimationTakesTheTransactionsDurationAndCurve() {
        withRunLoop { loop in
            let layer = liveLayer(loop)
            let rec = Recorder()
            let timingFunction = CAMediaTimingFunction(controlPoints: 0.65, -0.55, 0.27, 1.55)
            CATransaction.begin()
            CATransaction.setAnimationDuration(1.0)
            CATransaction.setAnimationTimingFunction(timingFunction)
            let cornerAnimation = CABasicAnimation(keyPath: "cornerRadius")
            cornerAnimation.fromValue = CGFloat(62.5)
            cornerAnimation.toValue = CGFloat(30)
            cornerAnimation.delegate = rec
            layer.actions = ["cornerRadius": NSNull()]
            layer.cornerRadius = 30
            layer.actions = nil
            #expect(layer.animationKeys() == nil)
            layer.cornerRadius = 31                       // implicit, then replaced
            layer.add(cornerAnimation, forKey: "cornerRadius")
            CATransaction.commit()
            let a = layer.animation(forKey: "cornerRadius") as? CABasicAnimation
            #expect(a?.fromValue as? CGFloat == 62.5)
            #expect(a?.duration == 1 && a?.timingFunction == timingFunction)
            #expect(layer.animationKeys() == ["cornerRadius"])
            loop.advance(to: 1)
            #expect(rec.log == ["start ? @0.0", "stop ? true @1.0"])
        }
    }
}
