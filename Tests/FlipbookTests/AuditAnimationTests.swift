import Testing
@testable import Flipbook
import Foundation

/// Audit probes: animation behaviour an iOS developer relies on, checked against Apple's
/// documented behaviour (each test names the rule it pins).
@Suite struct AuditAnimationTests {
    /// A live layer whose model opacity is `opacity`, changed without animation, at t = 0.
    func layer(_ loop: VirtualRunLoop, opacity: Float = 0.5) -> CALayer {
        let l = liveLayer(loop)
        CATransaction.setDisableActions(true)
        l.opacity = opacity
        loop.endTurn()
        return l
    }

    /// Only `toValue`: interpolates from the current presentation value (Apple's table).
    @Test func toValueOnlyStartsAtThePresentationValue() {
        withRunLoop { loop in
            let l = layer(loop, opacity: 0.2)
            let a = CABasicAnimation(keyPath: "opacity")
            a.toValue = Float(1); a.duration = 1
            a.timingFunction = CAMediaTimingFunction(name: .linear)
            l.add(a, forKey: "x")
            loop.endTurn()
            #expect(near(opacity(l, at: 0), 0.2, 1e-6))
            #expect(near(opacity(l, at: 0.5), 0.6, 1e-6))
        }
    }

    /// `isRemovedOnCompletion = false` + `.forwards` keeps the end value after the end.
    @Test func forwardsFillHoldsTheEndValue() {
        withRunLoop { loop in
            let l = layer(loop)
            let a = fade(1)
            a.isRemovedOnCompletion = false; a.fillMode = .forwards
            l.add(a, forKey: "f")
            loop.endTurn()
            #expect(near(opacity(l, at: 5), 1))
            #expect(l.animationKeys() == ["f"])
        }
    }

    /// `.backwards` with `beginTime = CACurrentMediaTime() + 1` shows the from value before it starts.
    @Test func backwardsFillWithAFutureBeginTime() {
        withRunLoop { loop in
            let l = layer(loop)
            loop.advance(to: 3)
            let a = fade(1)
            a.beginTime = CACurrentMediaTime() + 1
            a.fillMode = .backwards
            l.add(a, forKey: "b")
            loop.endTurn()
            #expect(near(opacity(l, at: 3.5), 0))
            #expect(near(opacity(l, at: 4.5), 0.5))
            let c = fade(1)
            c.beginTime = l.convertTime(CACurrentMediaTime(), from: nil) + 1
            l.add(c, forKey: "c")
            loop.endTurn()
            #expect(near(opacity(l, at: 5.0), 0.5))
            #expect(near(opacity(l, at: 5.75), 0.25))
        }
    }

    /// Changing a property again mid-animation starts the new implicit animation from the
    /// presentation value, never jumping back to the old model value.
    @Test func implicitRetargetStartsFromThePresentationValue() {
        withRunLoop { loop in
            let l = layer(loop, opacity: 0)
            CATransaction.setAnimationDuration(1)
            CATransaction.setAnimationTimingFunction(CAMediaTimingFunction(name: .linear))
            l.opacity = 1
            loop.endTurn()
            loop.advance(to: 0.5)
            #expect(near(Double(l.presentation()!.opacity), 0.5))
            CATransaction.setAnimationDuration(1)
            CATransaction.setAnimationTimingFunction(CAMediaTimingFunction(name: .linear))
            l.opacity = 0
            loop.endTurn()
            // Apple: fromValue is the presentation value (0.5), so no jump to the model's 1.
            #expect(near(Double(l.presentation()!.opacity), 0.5, 1e-6))
            #expect(near(opacity(l, at: 1.0), 0.25, 1e-6))
        }
    }

    /// Same key replaces the old animation; its delegate hears `finished: false`.
    @Test func sameKeyReplacesAndStopsTheOld() {
        withRunLoop { loop in
            let l = layer(loop)
            let rec = Recorder()
            l.add(fade(1, tag: "a", rec), forKey: "k")
            loop.endTurn()
            loop.advance(to: 0.5)
            l.add(fade(1, tag: "b", rec), forKey: "k")
            loop.endTurn()
            #expect(l.animationKeys() == ["k"])
            #expect(rec.log == ["start a @0.0", "stop a false @0.5", "start b @0.5"])
            l.add(fade(1), forKey: nil)
            l.add(fade(1), forKey: nil)
            let keys = l.animationKeys() ?? []
            #expect(keys.count == 3 && Set(keys).count == 3 && keys[0] == "k")
        }
    }

    /// Adding animations inside animationDidStop works (and runs on the same clock).
    @Test func addingInsideDidStop() {
        withRunLoop { loop in
            let l = layer(loop)
            final class Chain: CAAnimationDelegate {
                weak var layer: CALayer?
                var n = 0
                func animationDidStop(_ anim: CAAnimation, finished flag: Bool) {
                    n += 1
                    if n < 3 { let a = fade(1); a.delegate = self; layer?.add(a, forKey: "c") }
                }
            }
            let c = Chain(); c.layer = l
            let a = fade(1); a.delegate = c
            l.add(a, forKey: "c")
            loop.endTurn()
            #expect(near(opacity(l, at: 1.5), 0.5))
            #expect(near(opacity(l, at: 2.5), 0.5))
            loop.advance(to: 10)
            #expect(c.n == 3)
        }
    }

    /// Removing the layer from its tree in its own animation's completion block.
    @Test func removeLayerInCompletionBlock() {
        withRunLoop { loop in
            let l = layer(loop)
            let parent = l.superlayer!
            CATransaction.begin()
            CATransaction.setCompletionBlock { l.removeFromSuperlayer(); l.removeAllAnimations() }
            l.add(fade(1), forKey: "x")
            CATransaction.commit()
            loop.advance(to: 2)
            #expect(parent.sublayers == nil)
        }
    }

    /// Removing the animated layer from its tree inside its own animationDidStop.
    @Test func removeLayerInsideDidStop() {
        withRunLoop { loop in
            let l = layer(loop)
            let parent = l.superlayer!
            final class Remover: CAAnimationDelegate {
                weak var layer: CALayer?
                func animationDidStop(_ anim: CAAnimation, finished flag: Bool) {
                    layer?.removeFromSuperlayer()
                    layer?.add(fade(1), forKey: "again")
                }
            }
            let r = Remover(); r.layer = l
            let a = fade(1); a.delegate = r
            l.add(a, forKey: "x")
            loop.endTurn()
            loop.advance(to: 3)
            #expect(parent.sublayers == nil && l.superlayer == nil)
            #expect(l.animationKeys() == nil)   // "again" ran 1…2 off-tree and was removed
        }
    }

    /// convert(_:to:)/(_:from:) round-trip through transforms and a sublayer transform.
    @Test func convertRoundTrips() {
        withRunLoop { _ in
            let root = CALayer(); root.bounds = CGRect(x: 0, y: 0, width: 200, height: 200)
            root.sublayerTransform = CATransform3DMakeScale(2, 2, 1)
            let a = CALayer(); a.frame = CGRect(x: 10, y: 20, width: 50, height: 40)
            a.transform = CATransform3DMakeRotation(0.7, 0, 0, 1)
            let b = CALayer(); b.frame = CGRect(x: 5, y: 5, width: 10, height: 10)
            b.anchorPoint = CGPoint(x: 0, y: 1)
            root.addSublayer(a); a.addSublayer(b)
            let p = CGPoint(x: 3, y: 7)
            let q = b.convert(p, to: root)
            let back = b.convert(q, from: root)
            #expect(near(Double(back.x), 3, 1e-9) && near(Double(back.y), 7, 1e-9))
            let viaNil = root.convert(b.convert(p, to: nil), from: nil)
            #expect(near(Double(viaNil.x), Double(q.x), 1e-9) && near(Double(viaNil.y), Double(q.y), 1e-9))
        }
    }
}
