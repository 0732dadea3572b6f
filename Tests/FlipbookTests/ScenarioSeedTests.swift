import Testing
@testable import Flipbook
import Foundation

/// The seed scenarios (003, the CATransaction post) end to end: presentation values mid-flight,
/// the render snapshot, and the order and times of callbacks.
@Suite struct ScenarioSeedTests {
    func rgba(_ c: CGColor?) -> [Double] { c?.rgba.map(Double.init) ?? [] }
    func close(_ a: [Double], _ b: [Double], _ eps: Double = 1e-9) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { abs($0 - $1) <= eps }
    }

    /// The implicit colour change: red → blue over the implicit 0.25 s (linear: the transaction
    /// has no curve), half-way at 0.125 in the presentation and in the render snapshot.
    @Test func implicitColourChangeOverAQuarterSecond() {
        withRunLoop { loop in
            let layer = liveLayer(loop)
            CATransaction.setDisableActions(true)
            layer.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
            loop.endTurn()
            layer.backgroundColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
            loop.endTurn()
            loop.advance(to: 0.125)
            #expect(close(rgba(layer.presentation()?.backgroundColor), [0.5, 0, 0.5, 1]))
            #expect(close(rgba(layer.makeRenderTree().backgroundColor), [0.5, 0, 0.5, 1]))
            #expect(close(rgba(layer.backgroundColor), [0, 0, 1, 1]))          // the model
            loop.advance(to: 0.0625)                                           // never back
            #expect(close(rgba(layer.presentation()?.backgroundColor), [0.5, 0, 0.5, 1]))
            loop.advance(to: 0.25)
            #expect(layer.animationKeys() == nil)
            #expect(close(rgba(layer.presentation()?.backgroundColor), [0, 0, 1, 1]))
        }
    }

    /// A 2 s transaction whose completion block starts a 1 s change: red → yellow in [0, 2],
    /// then yellow → cyan in [2, 3]; callbacks in this order at these times.
    @Test func twoSecondTransactionThenOneSecondChangeFromTheCompletionBlock() {
        withRunLoop { loop in
            let layer = liveLayer(loop)
            let rec = Recorder()
            CATransaction.setDisableActions(true)
            layer.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
            loop.endTurn()
            CATransaction.begin()
            CATransaction.setAnimationDuration(2)
            CATransaction.setCompletionBlock {
                rec.log.append("completion @\(CACurrentMediaTime())")
                CATransaction.setAnimationDuration(1)
                layer.backgroundColor = CGColor(red: 0, green: 1, blue: 1, alpha: 1)
                let second = layer.animation(forKey: "backgroundColor")
                second?.delegate = rec
                second?.setValue("second", forKey: "tag")
            }
            layer.backgroundColor = CGColor(red: 1, green: 1, blue: 0, alpha: 1)
            let first = layer.animation(forKey: "backgroundColor")
            first?.delegate = rec
            first?.setValue("first", forKey: "tag")
            CATransaction.commit()
            loop.advance(to: 1)
            #expect(close(rgba(layer.presentation()?.backgroundColor), [1, 0.5, 0, 1]))
            loop.advance(to: 2)
            #expect(close(rgba(layer.presentation()?.backgroundColor), [1, 1, 0, 1]))
            loop.advance(to: 2.5)
            #expect(close(rgba(layer.presentation()?.backgroundColor), [0.5, 1, 0.5, 1]))
            loop.advance(to: 3)
            #expect(close(rgba(layer.presentation()?.backgroundColor), [0, 1, 1, 1]))
            #expect(rec.log == ["start first @0.0", "stop first true @2.0", "completion @2.0",
                                "start second @2.0", "stop second true @3.0"])
        }
    }

    /// The overshooting curve (0.65, −0.55, 0.27, 1.55) on cornerRadius 62.5 → 30 over 1 s:
    /// it first moves away from the target (y < 0), then overshoots it (y > 1). Reference y
    /// values from an independent bisection on the Float-rounded curve:
    /// y(0.2) = −0.0923579, y(0.5) = 0.6437779, y(0.8) = 1.0921186.
    @Test func overshootingTimingFunction() {
        withRunLoop { loop in
            let layer = liveLayer(loop)
            let rec = Recorder()
            CATransaction.setDisableActions(true)
            layer.cornerRadius = 62.5
            loop.endTurn()
            let timingFunction = CAMediaTimingFunction(controlPoints: 0.65, -0.55, 0.27, 1.55)
            CATransaction.begin()
            CATransaction.setAnimationDuration(1.0)
            CATransaction.setAnimationTimingFunction(timingFunction)
            let cornerAnimation = CABasicAnimation(keyPath: "cornerRadius")
            cornerAnimation.fromValue = CGFloat(62.5)
            cornerAnimation.toValue = CGFloat(30)
            cornerAnimation.delegate = rec
            cornerAnimation.setValue("corner", forKey: "tag")
            layer.cornerRadius = 30
            layer.add(cornerAnimation, forKey: "cornerRadius")
            CATransaction.commit()
            let expected: [(CFTimeInterval, Double)] = [(0.2, 65.50163), (0.5, 41.57722), (0.8, 27.00614)]
            for (t, r) in expected {
                loop.advance(to: t)
                #expect(abs(Double(layer.presentation()?.cornerRadius ?? 0) - r) < 1e-4)
                #expect(abs(Double(layer.makeRenderTree().cornerRadius) - r) < 1e-4)
            }
            loop.advance(to: 1)
            #expect(layer.presentation()?.cornerRadius == 30)
            #expect(rec.log == ["start corner @0.0", "stop corner true @1.0"])
        }
    }

    /// The render snapshot mid-animation: opacity 0.5 at t = 0.125 of a 0.25 s fade, in a
    /// subtree, while an un-animated sibling copies its model values.
    @Test func renderSnapshotCarriesPresentationValues() {
        withRunLoop { loop in
            let root = liveRoot(loop)
            let fading = CALayer(), still = CALayer()
            root.addSublayer(fading); root.addSublayer(still)
            still.opacity = 0.3
            loop.endTurn()
            fading.opacity = 0
            loop.endTurn()
            loop.advance(to: 0.125)
            let tree = root.makeRenderTree()
            #expect(tree.sublayers.count == 2)
            #expect(tree.sublayers[0].opacity == 0.5)
            #expect(tree.sublayers[1].opacity == 0.3)
            #expect(fading.makeRenderTree().opacity == 0.5)
        }
    }

    /// A transition's progress takes its timing function and start/end progress: linear,
    /// 0.2 → 0.8 over 1 s is 0.35 at 0.25 s and 0.5 at 0.5 s.
    @Test func transitionProgressUsesStartAndEndProgress() {
        withRunLoop { loop in
            let layer = liveLayer(loop)
            let t = CATransition()
            t.type = .moveIn; t.subtype = .fromTop
            t.duration = 1; t.startProgress = 0.2; t.endProgress = 0.8
            t.timingFunction = CAMediaTimingFunction(name: .linear)
            layer.add(t, forKey: kCATransition)
            CATransaction.setDisableActions(true)
            layer.contents = image(2, 2)
            loop.advance(to: 0.25)
            #expect(abs((layer.makeRenderTree().transition?.progress ?? 0) - 0.35) < 1e-6)
            loop.advance(to: 0.5)
            #expect(abs((layer.makeRenderTree().transition?.progress ?? 0) - 0.5) < 1e-6)
            loop.advance(to: 1)
            #expect(layer.makeRenderTree().transition == nil)
        }
    }

    /// 10,000 layers, one animated: the snapshot has every layer and the animated value.
    @Test func largeTreeSnapshot() {
        withRunLoop { loop in
            let root = liveRoot(loop)
            CATransaction.setDisableActions(true)
            for _ in 0..<10_000 { root.addSublayer(CALayer()) }
            loop.endTurn()
            let animated = root.sublayers![5_000]
            animated.position = CGPoint(x: 100, y: 0)
            loop.endTurn()
            loop.advance(to: 0.125)
            let tree = root.makeRenderTree()
            #expect(tree.sublayers.count == 10_000)
            #expect(tree.sublayers[5_000].position == CGPoint(x: 50, y: 0))
            #expect(tree.sublayers[4_999].position == .zero)
        }
    }
}
