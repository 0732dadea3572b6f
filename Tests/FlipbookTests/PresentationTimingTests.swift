import Testing
@testable import Flipbook
import Foundation

/// A linear opacity animation 0 → 1 over `duration`, tagged, with `rec` as delegate.
func fade(_ duration: CFTimeInterval = 1, tag: String = "a", _ rec: Recorder? = nil) -> CABasicAnimation {
    let a = CABasicAnimation(keyPath: "opacity")
    a.fromValue = Float(0); a.toValue = Float(1)
    a.duration = duration
    a.timingFunction = CAMediaTimingFunction(name: .linear)
    a.delegate = rec
    a.setValue(tag, forKey: "tag")
    return a
}

/// The presentation opacity of `layer` at media time `t` (advancing the clock there).
func opacity(_ layer: CALayer, at t: CFTimeInterval) -> Double {
    layer._runLoop.advance(to: t)
    return Double(layer.presentation()?.opacity ?? .nan)
}

func near(_ a: Double, _ b: Double, _ eps: Double = 1e-6) -> Bool { abs(a - b) <= eps }

/// The timing model through real layers: every case asserts presentation values at chosen
/// media times (model opacity is 0.5 throughout, so "no animation value" reads 0.5).
@Suite struct PresentationTimingTests {
    /// Adds `anim` to a live layer with model opacity 0.5 and commits at t = 0.
    func setUp(_ loop: VirtualRunLoop, _ anim: CAAnimation) -> CALayer {
        let layer = liveLayer(loop)
        CATransaction.setDisableActions(true)
        layer.opacity = 0.5
        loop.endTurn()
        layer.add(anim, forKey: "fade")
        loop.endTurn()
        return layer
    }

    @Test func neverCommittedHasNoPresentationAndModelIsSelf() {
        withRunLoop { loop in
            let l = CALayer()
            #expect(l.presentation() == nil)
            l.opacity = 0.25
            loop.endTurn()
            let p = l.presentation()
            #expect(p != nil && p !== l && p?.opacity == 0.25)
            #expect(p?.model() === l && l.model() === l && p?.presentation() === p)
        }
    }

    @Test func plainLinearAndRemovedAfterTheEnd() {
        withRunLoop { loop in
            let rec = Recorder()
            let l = setUp(loop, fade(1, rec))
            #expect(near(opacity(l, at: 0), 0))
            #expect(near(opacity(l, at: 0.25), 0.25))
            #expect(near(opacity(l, at: 0.999), 0.999))
            #expect(near(opacity(l, at: 1), 0.5))           // removed: the model value
            #expect(rec.log == ["start a @0.0", "stop a true @1.0"])
        }
    }

    @Test func beginTimeInTheFutureWithAndWithoutBackwardsFill() {
        withRunLoop { loop in
            let a = fade(1); a.beginTime = 1
            let l = setUp(loop, a)
            #expect(near(opacity(l, at: 0.5), 0.5))          // before: no fill
            #expect(near(opacity(l, at: 1.5), 0.5))          // halfway
            #expect(near(opacity(l, at: 1.75), 0.75))
        }
        withRunLoop { loop in
            let rec = Recorder()
            let a = fade(1, rec); a.beginTime = 1; a.fillMode = .backwards
            let l = setUp(loop, a)
            #expect(near(opacity(l, at: 0.5), 0))            // filled backwards with the start
            #expect(rec.log.isEmpty)
            #expect(near(opacity(l, at: 1.25), 0.25))
            loop.advance(to: 3)
            #expect(rec.log == ["start a @1.0", "stop a true @2.0"])
        }
    }

    @Test func speedTwoHalvesTheActiveTime() {
        withRunLoop { loop in
            let rec = Recorder()
            let a = fade(1, rec); a.speed = 2
            let l = setUp(loop, a)
            #expect(near(opacity(l, at: 0.25), 0.5))
            #expect(near(opacity(l, at: 0.49), 0.98))
            loop.advance(to: 1)
            #expect(rec.log == ["start a @0.0", "stop a true @0.5"])
        }
    }

    @Test func negativeSpeedWithTimeOffsetPlaysBackwards() {
        withRunLoop { loop in
            let rec = Recorder()
            let a = fade(1, rec); a.speed = -1; a.timeOffset = 1
            let l = setUp(loop, a)
            #expect(near(opacity(l, at: 0.25), 0.75))
            #expect(near(opacity(l, at: 0.9), 0.1))
            #expect(near(opacity(l, at: 1.0), 0.5))          // ended
            #expect(rec.log == ["start a @0.0", "stop a true @1.0"])
        }
    }

    @Test func speedZeroFreezesAtTimeOffsetAndNeverStops() {
        withRunLoop { loop in
            let rec = Recorder()
            var completed = false
            CATransaction.begin()
            CATransaction.setCompletionBlock { completed = true }
            let a = fade(1, rec); a.speed = 0; a.timeOffset = 0.3
            let l = setUp(loop, a)
            CATransaction.commit()
            #expect(near(opacity(l, at: 0), 0.3))
            #expect(near(opacity(l, at: 50), 0.3))
            #expect(rec.log == ["start a @0.0"])
            #expect(!completed && l.animationKeys() == ["fade"])
        }
    }

    @Test func timeOffsetStartsMidwayAndEndsEarly() {
        withRunLoop { loop in
            let rec = Recorder()
            let a = fade(1, rec); a.timeOffset = 0.5
            let l = setUp(loop, a)
            #expect(near(opacity(l, at: 0), 0.5 + 0))        // 0.5 into the animation = 0.5
            #expect(near(opacity(l, at: 0.25), 0.75))
            #expect(near(opacity(l, at: 0.5), 0.5))          // ended → model 0.5
            #expect(rec.log == ["start a @0.0", "stop a true @0.5"])
        }
    }

    @Test func fractionalRepeatCount() {
        withRunLoop { loop in
            let rec = Recorder()
            let a = fade(1, rec); a.repeatCount = 2.5
            let l = setUp(loop, a)
            #expect(near(opacity(l, at: 1.25), 0.25))
            #expect(near(opacity(l, at: 2.4), 0.4))
            #expect(near(opacity(l, at: 2.5), 0.5))
            #expect(rec.log == ["start a @0.0", "stop a true @2.5"])
        }
    }

    @Test func autoreversesAndRepeatDuration() {
        withRunLoop { loop in
            let rec = Recorder()
            let a = fade(1, rec); a.autoreverses = true; a.repeatDuration = 1.5
            let l = setUp(loop, a)
            #expect(near(opacity(l, at: 0.5), 0.5))
            #expect(near(opacity(l, at: 1.25), 0.75))        // on the way back
            #expect(near(opacity(l, at: 1.4), 0.6))
            loop.advance(to: 2)
            #expect(rec.log == ["start a @0.0", "stop a true @1.5"])
        }
        withRunLoop { loop in
            let rec = Recorder()
            let a = fade(1, rec); a.autoreverses = true; a.repeatCount = 2
            let l = setUp(loop, a)
            #expect(near(opacity(l, at: 1.5), 0.5))
            #expect(near(opacity(l, at: 2.25), 0.25))        // second cycle, forwards
            #expect(near(opacity(l, at: 3.75), 0.25))        // second cycle, backwards
            loop.advance(to: 5)
            #expect(rec.log == ["start a @0.0", "stop a true @4.0"])
        }
    }

    @Test func fillForwardsKeepsTheEndOnlyWhenNotRemoved() {
        withRunLoop { loop in
            let a = fade(1); a.fillMode = .forwards; a.isRemovedOnCompletion = false
            let l = setUp(loop, a)
            #expect(near(opacity(l, at: 5), 1))
            #expect(l.animationKeys() == ["fade"])
        }
        withRunLoop { loop in
            let a = fade(1); a.fillMode = .forwards          // removed on completion
            let l = setUp(loop, a)
            #expect(near(opacity(l, at: 5), 0.5))
            #expect(l.animationKeys() == nil)
        }
        withRunLoop { loop in
            let a = fade(1); a.isRemovedOnCompletion = false // kept, but no fill
            let l = setUp(loop, a)
            #expect(near(opacity(l, at: 5), 0.5))
            #expect(l.animationKeys() == ["fade"])
        }
    }

    @Test func removedEarlyStopsUnfinished() {
        withRunLoop { loop in
            let rec = Recorder()
            let l = setUp(loop, fade(1, rec))
            #expect(near(opacity(l, at: 0.4), 0.4))
            l.removeAnimation(forKey: "fade")
            #expect(near(opacity(l, at: 0.4), 0.5))
            loop.advance(to: 2)
            #expect(rec.log == ["start a @0.0", "stop a false @0.4"])
        }
    }

    @Test func layerSpeedGovernsTheSubtree() {
        withRunLoop { loop in
            let root = liveRoot(loop)
            let mid = CALayer(), leaf = CALayer()
            root.addSublayer(mid); mid.addSublayer(leaf)
            mid.speed = 2
            loop.endTurn()
            let rec = Recorder()
            leaf.add(fade(1, rec), forKey: "fade")
            loop.endTurn()
            #expect(near(opacity(leaf, at: 0.25), 0.5))
            #expect(leaf.convertTime(0.25, from: nil) == 0.5)
            #expect(leaf.convertTime(0.5, to: nil) == 0.25)
            #expect(root.convertTime(1, from: leaf) == 0.5)
            loop.advance(to: 1)
            #expect(rec.log == ["start a @0.0", "stop a true @0.5"])
        }
    }

    @Test func frozenRootWithTimeOffsetScrubsFrameExactly() {
        withRunLoop { loop in
            let root = liveRoot(loop)
            root.speed = 0
            let leaf = CALayer()
            root.addSublayer(leaf)
            loop.advance(to: 7)                               // media time is irrelevant now
            leaf.add(fade(1), forKey: "fade")
            loop.endTurn()
            #expect(leaf.animation(forKey: "fade")?.beginTime == 0)   // resolved in layer time
            for frame in 0..<30 {
                CATransaction.setDisableActions(true)
                root.timeOffset = Double(frame) / 30
                loop.endTurn()
                #expect(near(Double(leaf.presentation()?.opacity ?? -1), Double(frame) / 30))
            }
            #expect(near(Double(leaf.makeRenderTree().opacity), 29.0 / 30))
            loop.advance(to: 100)
            #expect(leaf.animationKeys() == ["fade"])          // frozen: never ends
        }
    }
}
