import Testing
import Foundation
@testable import Flipbook

@Suite struct TransactionTests {
    @Test func defaultsOutsideAnyTransaction() {
        withRunLoop { _ in
            #expect(CATransaction.animationDuration() == 0.25)
            #expect(CATransaction.disableActions() == false)
            #expect(CATransaction.animationTimingFunction() == nil)
            #expect(CATransaction.completionBlock() == nil)
            #expect(CATransaction.value(forKey: kCATransactionAnimationDuration) as? Double == 0.25)
            #expect(CATransaction.value(forKey: "custom") == nil)
        }
    }

    @Test func nestedTransactionsInheritAndRestore() {
        withRunLoop { _ in
            CATransaction.begin()
            CATransaction.setAnimationDuration(2)
            CATransaction.setDisableActions(true)
            let f = CAMediaTimingFunction(name: .easeIn)
            CATransaction.setAnimationTimingFunction(f)
            CATransaction.setValue(CGPoint(x: 1, y: 2), forKey: "newP")
            CATransaction.begin()
            #expect(CATransaction.animationDuration() == 2)     // Apple: inherited
            #expect(CATransaction.disableActions())
            #expect(CATransaction.animationTimingFunction() == f)
            #expect(CATransaction.value(forKey: "newP") as? CGPoint == CGPoint(x: 1, y: 2))
            CATransaction.setAnimationDuration(5)
            CATransaction.setAnimationTimingFunction(nil)
            #expect(CATransaction.animationDuration() == 5)
            #expect(CATransaction.animationTimingFunction() == nil)
            CATransaction.commit()
            #expect(CATransaction.animationDuration() == 2)
            #expect(CATransaction.animationTimingFunction() == f)
            CATransaction.commit()
            #expect(CATransaction.animationDuration() == 0.25)
            #expect(CATransaction.value(forKey: "newP") == nil)
        }
    }

    @Test func keyedAccessCoercesTheFourKeys() {
        withRunLoop { loop in
            CATransaction.begin()
            CATransaction.setValue(true as NSNumber, forKey: kCATransactionDisableActions)
            #expect(CATransaction.disableActions())
            CATransaction.setValue(3, forKey: kCATransactionAnimationDuration)   // Int
            #expect(CATransaction.animationDuration() == 3)
            CATransaction.setValue("nonsense", forKey: kCATransactionAnimationDuration)  // ignored
            #expect(CATransaction.animationDuration() == 3)
            var ran = false
            CATransaction.setValue({ ran = true } as () -> Void, forKey: kCATransactionCompletionBlock)
            #expect(CATransaction.completionBlock() != nil)
            CATransaction.commit()
            loop.endTurn()
            #expect(ran)
        }
    }

    @Test func emptyStackOperationsDoNotCrash() {
        withRunLoop { loop in
            CATransaction.commit()
            CATransaction.commit()
            CATransaction.flush()
            CATransaction.unlock()
            CATransaction.lock()
            CATransaction.lock()
            CATransaction.unlock()
            CATransaction.unlock()
            CATransaction.unlock()
            loop.endTurn()
            #expect(loop._stack.isEmpty)
        }
    }

    @Test func aChangeOutsideBeginOpensAnImplicitTransactionCommittedAtEndOfTurn() {
        withRunLoop { loop in
            let layer = CALayer()
            #expect(loop._stack.isEmpty)
            layer.opacity = 0.5
            #expect(loop._stack.count == 1 && loop._stack[0].isImplicit)
            CATransaction.begin()           // nests inside the implicit one
            #expect(loop._stack.count == 2)
            CATransaction.commit()
            #expect(loop._stack.count == 1)
            loop.endTurn()
            #expect(loop._stack.isEmpty)
        }
    }

    @Test func flushCommitsTheImplicitTransactionNowOrAfterNestedOnes() {
        withRunLoop { loop in
            let layer = CALayer()
            layer.opacity = 0.5
            CATransaction.flush()
            #expect(loop._stack.isEmpty)
            layer.opacity = 0.25
            CATransaction.begin()
            CATransaction.flush()
            #expect(loop._stack.count == 2)
            CATransaction.commit()
            #expect(loop._stack.isEmpty)
        }
    }

    @Test func completionBlockRunsImmediatelyWhenNoAnimationWasAdded() {
        withRunLoop { loop in
            var runs = 0
            CATransaction.begin()
            CATransaction.setCompletionBlock { runs += 1 }
            CALayer().opacity = 0        // standalone: no implicit animation
            CATransaction.commit()
            #expect(runs == 0)           // delivered at the end of the turn
            loop.endTurn()
            #expect(runs == 1)
            loop.advance(by: 1)
            #expect(runs == 1)
        }
    }

    @Test func transactionsArePerThread() async {
        let loop = VirtualRunLoop()
        loop.run {
            CATransaction.begin()
            CATransaction.setAnimationDuration(3)
            CATransaction.setValue("main", forKey: "who")
            final class Box: @unchecked Sendable { var seen: [String] = [] }
            let box = Box()
            let done = DispatchSemaphore(value: 0)
            let thread = Thread {
                // A plain thread has its own run loop and transaction stack.
                box.seen.append("\(CATransaction.animationDuration())")
                box.seen.append("\(CATransaction.value(forKey: "who") as? String ?? "nil")")
                CATransaction.begin()
                CATransaction.setAnimationDuration(9)
                box.seen.append("\(CATransaction.animationDuration())")
                CATransaction.commit()
                box.seen.append(VirtualRunLoop.current === loop ? "same" : "other")
                done.signal()
            }
            thread.start()
            done.wait()
            #expect(box.seen == ["0.25", "nil", "9.0", "other"])
            #expect(CATransaction.animationDuration() == 3)
            CATransaction.commit()
        }
    }

    @Test func parallelRunLoopsHaveIndependentClocks() async {
        await withTaskGroup(of: Double.self) { group in
            for i in 1...4 {
                group.addTask {
                    let loop = VirtualRunLoop()
                    return loop.run {
                        loop.advance(to: Double(i))
                        return CACurrentMediaTime()
                    }
                }
            }
            var got: [Double] = []
            for await t in group { got.append(t) }
            #expect(got.sorted() == [1, 2, 3, 4])
        }
    }

    @Test func clockNeverGoesBackAndIgnoresNonFiniteTimes() {
        withRunLoop { loop in
            loop.advance(to: 2)
            loop.advance(to: 1)
            loop.advance(to: .nan)
            loop.advance(by: .infinity)
            #expect(loop.currentTime == 2)
            #expect(CACurrentMediaTime() == 2)
        }
    }
}
