import Testing
@testable import Flipbook
import Foundation

/// A `CABasicAnimation` with no `fromValue`/`toValue`/`byValue`, found by the action search for a
/// property change, animates from the value on screen to the new model value (Apple: "between
/// the previous value of keyPath in the target layer's presentation layer and the current value
/// of keyPath in the render layer"). Checked through `presentation()` values, not callbacks.
@Suite struct EndpointlessActionTests {
    /// An endpoint-less 5 s linear animation.
    func fiveSeconds() -> CABasicAnimation {
        let ba = CABasicAnimation()
        ba.duration = 5
        ba.timingFunction = CAMediaTimingFunction(name: .linear)
        return ba
    }

    /// Sets `position.x` 0 → 100 inside a 1 s transaction at t = 0, then reads the presentation
    /// value at 0, 2.5, 5 and 6 s.
    func run(_ layer: CALayer, _ loop: VirtualRunLoop) -> [CGFloat?] {
        CATransaction.begin()
        CATransaction.setAnimationDuration(1)
        layer.position = CGPoint(x: 100, y: 0)
        CATransaction.commit()
        var xs: [CGFloat?] = []
        for t in [0, 2.5, 5, 6] {
            loop.advance(to: t)
            xs.append(layer.presentation()?.position.x)
        }
        return xs
    }

    /// The seed's listing: `ba.duration = 5; layer.actions = ["position": ba]`, then a 1 s
    /// transaction moves the layer — it still runs 5 s.
    @Test func theSeedsFiveSecondCaseMovesForFiveSeconds() {
        withRunLoop { loop in
            let layer = liveLayer(loop)
            let ba = fiveSeconds()
            layer.actions = ["position": ba]
            #expect(run(layer, loop) == [0, 50, 100, 100])
            // The user's object is unchanged.
            #expect(ba.fromValue == nil && ba.toValue == nil && ba.byValue == nil && ba.keyPath == nil)
        }
    }

    final class Delegate: CALayerDelegate {
        let action: CAAction
        init(_ action: CAAction) { self.action = action }
        func action(for layer: CALayer, forKey event: String) -> CAAction? { event == "position" ? action : nil }
    }

    final class Defaulting: CALayer {
        nonisolated(unsafe) static var action: CAAction?
        override class func defaultAction(forKey event: String) -> CAAction? { event == "position" ? action : nil }
    }

    final class Overriding: CALayer {
        var custom: CAAction?
        override func action(forKey event: String) -> CAAction? { event == "position" ? custom : super.action(forKey: event) }
    }

    /// Every stage of the action search gives the same motion.
    @Test func everyStageOfTheSearch() {
        withRunLoop { loop in
            let root = liveRoot(loop)
            func live(_ l: CALayer) -> CALayer { root.addSublayer(l); loop.endTurn(); return l }
            var delegates: [Delegate] = []
            let viaDelegate = live(CALayer())
            let d = Delegate(fiveSeconds()); delegates.append(d); viaDelegate.delegate = d
            let viaActions = live(CALayer()); viaActions.actions = ["position": fiveSeconds()]
            let viaStyle = live(CALayer()); viaStyle.style = ["style": ["actions": ["position": fiveSeconds()]]]
            Defaulting.action = fiveSeconds()
            let viaDefault = live(Defaulting())
            let viaOverride = Overriding(); viaOverride.custom = fiveSeconds(); _ = live(viaOverride)
            for (name, layer) in [("delegate", viaDelegate), ("actions", viaActions), ("style", viaStyle),
                                  ("defaultAction", viaDefault), ("override", viaOverride)] {
                let start = loop.currentTime
                CATransaction.begin()
                layer.position = CGPoint(x: 100, y: 0)
                CATransaction.commit()
                loop.advance(to: start + 2.5)
                #expect(onScreen(layer)?.position.x == 50, "\(name)")
                loop.advance(to: start + 5)
            }
            _ = delegates
        }
    }

    /// A change while an earlier animation of the key is in flight starts from where the layer
    /// is on screen, not from the old model value.
    @Test func aChangeInFlightStartsFromTheScreen() {
        withRunLoop { loop in
            let layer = liveLayer(loop)
            layer.actions = ["position": fiveSeconds()]
            CATransaction.begin()
            layer.position = CGPoint(x: 100, y: 0)
            CATransaction.commit()
            loop.advance(to: 2.5)                                     // on screen: x = 50
            CATransaction.begin()
            layer.position = CGPoint(x: 0, y: 0)                      // back to 0, from 50
            CATransaction.commit()
            #expect(layer.presentation()?.position.x == 50)
            loop.advance(to: 5)                                       // halfway: 50 → 0
            #expect(layer.presentation()?.position.x == 25)
        }
    }

    /// Animations that carry an endpoint keep Apple's table (`toValue` only: base → to), a
    /// keyframe animation runs its own values, and an endpoint-less animation added with
    /// `add(_:forKey:)` outside a change moves nothing.
    @Test func animationsWithValuesAreUnchanged() {
        withRunLoop { loop in
            let layer = liveLayer(loop)
            let to = fiveSeconds(); to.toValue = CGPoint(x: 200, y: 0)
            let kf = CAKeyframeAnimation(); kf.values = [CGPoint(x: 0, y: 0), CGPoint(x: 10, y: 0)]; kf.duration = 5
            layer.actions = ["position": to, "bounds": kf]
            CATransaction.begin()
            layer.position = CGPoint(x: 100, y: 0)
            CATransaction.commit()
            loop.advance(to: 2.5)
            #expect(layer.presentation()?.position.x == 150)          // base (100) → 200, halfway
            let plain = liveLayer(loop)
            plain.add(fiveSeconds(), forKey: "x")
            loop.endTurn()
            loop.advance(to: loop.currentTime + 1)
            #expect(plain.presentation()?.position == plain.position)
        }
    }
}
