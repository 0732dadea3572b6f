import Testing
@testable import Flipbook
import Foundation

@Suite struct AnimationLifecycleTests {
    func tagged(_ tag: String, _ rec: Recorder, duration: Double = 1) -> CABasicAnimation {
        let a = CABasicAnimation(keyPath: "opacity")
        a.duration = duration
        a.delegate = rec
        a.setValue(tag, forKey: "tag")
        return a
    }

    @Test func addStoresAResolvedCopy() {
        withRunLoop { loop in
            let layer = CALayer()
            loop.advance(to: 3)
            let a = CABasicAnimation()
            a.fromValue = 1
            layer.add(a, forKey: "fade")
            let stored = layer.animation(forKey: "fade") as? CABasicAnimation
            #expect(stored !== a && stored?.fromValue as? Int == 1)
            #expect(stored?.keyPath == "fade" && a.keyPath == nil)
            #expect(stored?.beginTime == 0)            // resolved at commit
            loop.endTurn()
            #expect(stored?.beginTime == 3 && a.beginTime == 0)
            #expect(stored?.duration == 0.25)
        }
    }

    @Test func keysOrderReplacementAndNilKey() {
        withRunLoop { loop in
            let layer = CALayer(), rec = Recorder()
            layer.add(tagged("a", rec), forKey: "a")
            layer.add(tagged("b", rec), forKey: "b")
            layer.add(CABasicAnimation(keyPath: "opacity"), forKey: nil)
            #expect(layer.animationKeys()?.count == 3)
            #expect(Array(layer.animationKeys()!.prefix(2)) == ["a", "b"])
            loop.endTurn()
            layer.add(tagged("a2", rec), forKey: "a")    // replaces, old stops unfinished
            #expect(layer.animationKeys()?.last == "a")
            loop.endTurn()
            #expect(rec.log.contains("stop a false @0.0"))
            layer.removeAllAnimations()
            #expect(layer.animationKeys() == nil)
        }
    }

    @Test func startAndStopAreDeliveredInTimeOrder() {
        withRunLoop { loop in
            let layer = CALayer(), rec = Recorder()
            layer.add(tagged("long", rec, duration: 2), forKey: "long")
            let late = tagged("late", rec, duration: 0.5)
            late.beginTime = 0.75
            layer.add(late, forKey: "late")
            layer.add(tagged("short", rec, duration: 0.5), forKey: "short")
            loop.advance(to: 10)
            #expect(rec.log == [
                "start long @0.0", "start short @0.0", "stop short true @0.5",
                "start late @0.75", "stop late true @1.25", "stop long true @2.0",
            ])
        }
    }

    @Test func activeDurationRule() {
        withRunLoop { loop in
            let layer = CALayer(), rec = Recorder()
            let a = tagged("rep", rec)
            a.repeatCount = 2.5; a.autoreverses = true; a.speed = 2      // 1 × 2.5 × 2 / 2
            layer.add(a, forKey: "rep")
            let b = tagged("rd", rec)
            b.repeatDuration = 3; b.repeatCount = 100
            layer.add(b, forKey: "rd")
            let c = tagged("forever", rec)
            c.repeatCount = .infinity
            layer.add(c, forKey: "forever")
            let d = tagged("frozen", rec)
            d.speed = 0
            layer.add(d, forKey: "frozen")
            loop.advance(to: 100)
            #expect(rec.log.filter { $0.hasPrefix("stop") } == ["stop rep true @2.5", "stop rd true @3.0"])
            #expect(layer.animationKeys() == ["forever", "frozen"])
        }
    }

    @Test func removingEarlyDeliversFinishedFalse() {
        withRunLoop { loop in
            let layer = CALayer(), rec = Recorder()
            layer.add(tagged("x", rec), forKey: "x")
            loop.advance(to: 0.5)
            layer.removeAnimation(forKey: "x")
            loop.advance(to: 2)
            #expect(rec.log == ["start x @0.0", "stop x false @0.5"])
            // Removed before its commit: no callbacks at all.
            layer.add(tagged("y", rec), forKey: "y")
            layer.removeAnimation(forKey: "y")
            loop.advance(to: 3)
            #expect(rec.log.count == 2)
            // Removed before its (future) begin time: no start, stop unfinished.
            let z = tagged("z", rec)
            z.beginTime = 10
            layer.add(z, forKey: "z")
            loop.endTurn()
            layer.removeAnimation(forKey: "z")
            loop.advance(to: 20)
            #expect(rec.log.last == "stop z false @3.0")
            #expect(rec.log.count == 3)
        }
    }

    @Test func keptAnimationsStayAfterFinishing() {
        withRunLoop { loop in
            let layer = CALayer(), rec = Recorder()
            let a = tagged("kept", rec)
            a.isRemovedOnCompletion = false
            a.fillMode = .forwards
            layer.add(a, forKey: "kept")
            loop.advance(to: 5)
            #expect(layer.animationKeys() == ["kept"])
            #expect(rec.log == ["start kept @0.0", "stop kept true @1.0"])
            layer.removeAnimation(forKey: "kept")             // already finished: no callback
            loop.endTurn()
            #expect(rec.log.count == 2)
        }
    }

    @Test func completionBlockWaitsForRemovalToo() {
        withRunLoop { loop in
            let layer = CALayer()
            var done: [Double] = []
            CATransaction.begin()
            CATransaction.setCompletionBlock { done.append(CACurrentMediaTime()) }
            layer.add(tagged("a", Recorder(), duration: 10), forKey: "a")
            layer.add(tagged("b", Recorder(), duration: 1), forKey: "b")
            CATransaction.commit()
            loop.advance(to: 2)
            #expect(done.isEmpty)
            layer.removeAnimation(forKey: "a")
            loop.endTurn()
            #expect(done == [2])
        }
    }

    @Test func copiesKeepEveryProperty() {
        let t = CATransition()
        t.type = .reveal; t.subtype = .fromTop; t.startProgress = 0.2; t.endProgress = 0.8
        t.duration = 3; t.speed = 2; t.timeOffset = 1; t.repeatCount = 2; t.repeatDuration = 4
        t.autoreverses = true; t.fillMode = .both; t.isRemovedOnCompletion = false
        t.beginTime = 7; t.timingFunction = CAMediaTimingFunction(name: .linear)
        let c = t.copy() as! CATransition
        #expect(c !== t && c.type == .reveal && c.subtype == .fromTop && c.startProgress == 0.2)
        #expect(c.endProgress == 0.8 && c.duration == 3 && c.speed == 2 && c.timeOffset == 1)
        #expect(c.repeatCount == 2 && c.repeatDuration == 4 && c.autoreverses && c.fillMode == .both)
        #expect(!c.isRemovedOnCompletion && c.beginTime == 7 && c.timingFunction == t.timingFunction)
        let b = CABasicAnimation(keyPath: "position")
        b.fromValue = CGPoint(x: 1, y: 1); b.toValue = 2; b.byValue = 3
        b.isAdditive = true; b.isCumulative = true
        let bc = b.copy() as! CABasicAnimation
        #expect(bc.keyPath == "position" && bc.fromValue as? CGPoint == CGPoint(x: 1, y: 1))
        #expect(bc.toValue as? Int == 2 && bc.byValue as? Int == 3 && bc.isAdditive && bc.isCumulative)
        #expect(CAAnimation().duration == 0 && CAAnimation().speed == 1 && CAAnimation().isRemovedOnCompletion)
        #expect(CATransition().type == .fade && CATransition().endProgress == 1)
    }

    @Test func runningAnAnimationAsAnActionAddsACopy() {
        withRunLoop { _ in
            let layer = CALayer()
            let a = CABasicAnimation()
            a.run(forKey: "opacity", object: layer, arguments: nil)
            #expect((layer.animation(forKey: "opacity") as? CABasicAnimation)?.keyPath == "opacity")
            a.run(forKey: "x", object: "not a layer", arguments: nil)     // ignored
            NSNull().run(forKey: "opacity", object: layer, arguments: nil)
            #expect(layer.animationKeys() == ["opacity"])
        }
    }
}
