import Testing
@testable import Flipbook
import Foundation

@Suite struct AuditTransactionTests {
    @Test func defaultsOutsideAnyTransaction() {
        withRunLoop { _ in
            #expect(CATransaction.animationDuration() == 0.25)
            #expect(CATransaction.disableActions() == false)
            #expect(CATransaction.animationTimingFunction() == nil)
        }
    }

    @Test func disableActionsInheritedByNested() {
        withRunLoop { loop in
            let l = liveLayer(loop)
            CATransaction.begin()
            CATransaction.setDisableActions(true)
            CATransaction.begin()
            #expect(CATransaction.disableActions())
            l.opacity = 0.3
            CATransaction.commit()
            CATransaction.commit()
            loop.endTurn()
            #expect(l.animationKeys() == nil)
        }
    }

    @Test func completionWithoutAnimationsAndNested() {
        withRunLoop { loop in
            var log: [String] = []
            CATransaction.begin()
            CATransaction.setCompletionBlock { log.append("outer") }
            CATransaction.begin()
            CATransaction.setCompletionBlock { log.append("inner") }
            CATransaction.commit()
            #expect(log.isEmpty)
            CATransaction.commit()
            loop.endTurn()
            // Apple: "invoked immediately" when no animation was added; the order of two such
            // blocks is undocumented (Flipbook: the order their groups were created, outer first).
            #expect(log == ["outer", "inner"])
        }
    }

    @Test func flushCommitsNow() {
        withRunLoop { loop in
            let l = liveLayer(loop)
            l.opacity = 0.3
            CATransaction.flush()
            #expect(l.animation(forKey: "opacity")?.beginTime == 0)
            #expect(loop._stack.isEmpty)
        }
    }
}
