import Foundation
import Testing
@testable import Flipbook

/// Bad and extreme input: never a crash or a hang, and documented results where they exist.
@Suite struct AuditInputTests {
    static let bad: [Double] = [.nan, .infinity, -.infinity, 0, -1, 1e308, -1e308, 5e-324]

    /// Every timing field set to every bad value (alone and with autoreverses): adding,
    /// committing, advancing, presentation and snapshot all survive.
    @Test func nonFiniteTimingNeverCrashes() {
        for v in Self.bad {
            for field in 0..<6 {
                for reverse in [false, true] {
                    withRunLoop { loop in
                        let l = liveLayer(loop)
                        let a = fade(1)
                        a.autoreverses = reverse
                        a.fillMode = .both
                        switch field {
                        case 0: a.duration = v
                        case 1: a.speed = Float(v)
                        case 2: a.timeOffset = v
                        case 3: a.repeatCount = Float(v)
                        case 4: a.repeatDuration = v
                        default: a.beginTime = v
                        }
                        l.add(a, forKey: "x")
                        loop.endTurn()
                        for t in [0.5, 1, 3, 1e9] {
                            loop.advance(to: t)
                            _ = l.presentation()?.opacity
                            _ = l._root.makeRenderTree()
                        }
                    }
                }
            }
        }
    }

    /// An infinite cycle (2 × 1e308 overflows) reached at an infinite local time: the iteration
    /// index is ∞/∞ = NaN, which must not be converted to Int.
    @Test func infiniteCycleAtInfiniteTime() {
        for (offset, speed) in [(CFTimeInterval.infinity, Float(1)), (0, Float.infinity)] {
            let m = _TimingModel(duration: 1e308, speed: Double(speed), timeOffset: offset,
                                 autoreverses: true, fillMode: .both)
            let s = m.evaluate(parentTime: 1)
            #expect(s.phase == .after && s.iteration == 0)
            withRunLoop { loop in
                let l = liveLayer(loop)
                let a = fade(1e308); a.autoreverses = true; a.fillMode = .both
                a.timeOffset = offset; a.speed = speed
                l.add(a, forKey: "x")
                loop.endTurn()
                loop.advance(to: 1)
                _ = l.presentation()?.opacity
            }
        }
    }

    /// speed 0 + a huge timeOffset, infinite repeat with autoreverse, extreme layer timing.
    @Test func extremeButLegalTiming() {
        withRunLoop { loop in
            let l = liveLayer(loop)
            let a = fade(1)
            a.speed = 0; a.timeOffset = 1e300
            l.add(a, forKey: "frozen")
            let b = fade(1)
            b.repeatCount = .infinity; b.autoreverses = true
            l.add(b, forKey: "forever")
            loop.endTurn()
            loop.advance(to: 1.5)
            #expect(near(Double(l.presentation()!.opacity), 0.5))   // second half of cycle 0
            loop.advance(to: 1e12 + 0.25)
            #expect(l.presentation() != nil)
            l.speed = .infinity
            l.timeOffset = .nan
            _ = l.presentation()?.opacity
            _ = l.makeRenderTree()
        }
    }

    /// Non-finite geometry and opacity are accepted and passed through (documented).
    @Test func nonFiniteGeometryIsAccepted() {
        withRunLoop { loop in
            let l = liveLayer(loop)
            l.position = CGPoint(x: CGFloat.nan, y: .infinity)
            l.bounds = CGRect(x: 0, y: 0, width: CGFloat.infinity, height: .nan)
            l.opacity = .nan
            l.transform = CATransform3DMakeScale(.nan, 1, 1)
            loop.advance(to: 1)
            let n = l._root.makeRenderTree().sublayers[0]
            #expect(n.position.x.isNaN && n.bounds.width.isInfinite)
            _ = l.frame
            l.frame = CGRect(x: CGFloat.nan, y: 0, width: 1, height: 1)
            _ = l.convert(CGPoint(x: 1, y: 1), to: nil)
            #expect(l._root.hitTest(CGPoint(x: 1, y: 1)) === l._root)   // the NaN layer is never hit
            #expect(!l.contains(CGPoint(x: 0, y: 0)))
        }
    }

    /// hitTest: `masksToBounds` clips sublayers outside the bounds; hidden layers are skipped.
    @Test func hitTestWithMasksToBounds() {
        withRunLoop { _ in
            let root = CALayer(); root.bounds = CGRect(x: 0, y: 0, width: 100, height: 100)
            root.position = CGPoint(x: 50, y: 50)
            let child = CALayer(); child.frame = CGRect(x: 80, y: 80, width: 50, height: 50)
            root.addSublayer(child)
            #expect(root.hitTest(CGPoint(x: 120, y: 120)) === child)
            #expect(root.hitTest(CGPoint(x: 90, y: 90)) === child)
            #expect(root.contains(CGPoint(x: 100, y: 50)) == false && root.contains(CGPoint(x: 0, y: 0)))
            root.masksToBounds = true
            #expect(root.hitTest(CGPoint(x: 120, y: 120)) == nil)
            #expect(root.hitTest(CGPoint(x: 90, y: 90)) === child)
            child.isHidden = true
            #expect(root.hitTest(CGPoint(x: 90, y: 90)) === root)
        }
    }

    @Test func kvcKeyPathsAndWrongTypes() {
        withRunLoop { _ in
            let l = CALayer()
            l.setValue(CGFloat.pi / 2, forKeyPath: "transform.rotation.z")
            #expect(near(Double((l.value(forKeyPath: "transform.rotation.z") as? CGFloat) ?? 0), .pi / 2, 1e-9))
            l.setValue(2, forKeyPath: "transform.scale.x")
            #expect(near(Double((l.value(forKeyPath: "transform.scale.x") as? CGFloat) ?? 0), 2, 1e-9))
            l.setValue(7, forKeyPath: "position.x")
            l.setValue(30.0, forKeyPath: "bounds.size.width")
            l.setValue(Float(-4), forKeyPath: "shadowOffset.height")
            #expect(l.position.x == 7 && l.bounds.width == 30 && l.shadowOffset.height == -4)
            l.setValue("nope", forKey: "position")
            l.setValue("nope", forKeyPath: "position.x")
            l.setValue(1, forKeyPath: "position.q")
            l.setValue(nil, forKey: "position")
            #expect(l.position.x == 7)
            #expect(l.value(forKey: "neverSet") == nil)
            #expect(CALayer.defaultValue(forKey: "opacity") as? Float == 1)
            #expect(CALayer.defaultValue(forKey: "neverSet") == nil)
            #expect(l.value(forKeyPath: "") == nil && l.value(forKeyPath: "....") == nil)
        }
    }

    /// Cycles and self-insertion are ignored.
    @Test func cyclesAreIgnored() {
        withRunLoop { _ in
            let a = CALayer(), b = CALayer(), c = CALayer()
            a.addSublayer(b); b.addSublayer(c)
            c.addSublayer(a)
            c.mask = a
            b.replaceSublayer(c, with: a)
            a.addSublayer(a)
            #expect(a.superlayer == nil && c.sublayers == nil && c.mask == nil && b.sublayers?.first === c)
        }
    }

    /// Two run loops driven from two threads at the same time do not disturb each other.
    @Test func twoRunLoopsOnTwoThreads() {
        final class Box: @unchecked Sendable { var values: [Double] = [] }
        let boxes = [Box(), Box()]
        let group = DispatchGroup()
        for (i, box) in boxes.enumerated() {
            group.enter()
            Thread {
                let loop = VirtualRunLoop(startTime: Double(i) * 100)
                loop.run {
                    let l = liveLayer(loop)
                    CATransaction.setAnimationDuration(Double(i + 1))
                    CATransaction.setAnimationTimingFunction(CAMediaTimingFunction(name: .linear))
                    l.opacity = 0
                    loop.endTurn()
                    for k in 1...200 {
                        loop.advance(to: Double(i) * 100 + Double(k) / 400)
                        box.values.append(Double(l.presentation()!.opacity))
                    }
                }
                group.leave()
            }.start()
        }
        group.wait()
        #expect(near(boxes[0].values[199], 0.5) && near(boxes[1].values[199], 0.75))
    }
}
