import Testing
@testable import Flipbook
import FlipbookPixels
import Foundation

// Every code listing of the seed documents (Apple's chapter 6; the two posts on actions and on
// CATransaction), in Swift against Flipbook.

/// 000: "disable position's implicit animation" by overriding action(forKey:).
final class NoPositionLayer: CALayer {
    override func action(forKey event: String) -> CAAction? {
        if event == "position" { return nil }
        return super.action(forKey: event)
    }
}

/// 000: the same switch through a custom KVC flag.
final class SwitchableLayer: CALayer {
    override func action(forKey event: String) -> CAAction? {
        if event == "position", value(forKey: "suppressPositionAnimation") != nil { return nil }
        return super.action(forKey: event)
    }
}

/// 000: `defaultActionForKey:` answering contents with a push from the left.
final class PushContentsLayer: CALayer {
    override class func defaultAction(forKey event: String) -> CAAction? {
        if event == "contents" {
            let tr = CATransition()
            tr.type = .push
            tr.subtype = .fromLeft
            return tr
        }
        return super.defaultAction(forKey: event)
    }
}

func image(_ w: Int, _ h: Int) -> CGImage { CGImage(pixelBuffer: PixelBuffer(width: w, height: h)) }

@Suite struct SeedListingTests {
    /// Apple Listing 6-1: the delegate swaps new contents in with a push transition.
    @Test func listing6_1DelegateAnswersContentsWithPushTransition() {
        final class Delegate: CALayerDelegate {
            func action(for layer: CALayer, forKey key: String) -> CAAction? {
                guard key == "contents" else { return nil }
                let theAnimation = CATransition()
                theAnimation.duration = 1.0
                theAnimation.timingFunction = CAMediaTimingFunction(name: .easeIn)
                theAnimation.type = .push
                theAnimation.subtype = .fromRight
                return theAnimation
            }
        }
        withRunLoop { loop in
            let layer = liveLayer(loop)
            let delegate = Delegate()
            layer.delegate = delegate
            let before = image(2, 2), after = image(3, 3)
            CATransaction.setDisableActions(true)
            layer.contents = before
            loop.endTurn()
            #expect(layer.animationKeys() == nil)
            layer.contents = after
            let t = layer.animation(forKey: "contents") as? CATransition
            #expect(t?.type == .push && t?.subtype == .fromRight && t?.duration == 1)
            #expect(t?.timingFunction == CAMediaTimingFunction(name: .easeIn))
            #expect(t?._fromSnapshot?.contents === before)
            loop.endTurn()
            loop.advance(to: 0.5)
            let tree = layer.makeRenderTree()
            #expect(tree.contents === after)
            #expect(tree.transition?.type == .push && tree.transition?.subtype == .fromRight)
            // The transition's easeIn (0.42, 0, 1, 1) applied to half its time: 0.31536.
            #expect(abs((tree.transition?.progress ?? 0) - 0.3153568) < 1e-6)
            #expect(tree.transition?.from.contents === before)
            loop.advance(to: 1)
            #expect(layer.animationKeys() == nil)
            #expect(layer.makeRenderTree().transition == nil)
        }
    }

    /// Apple Listing 6-2: disable actions while removing a layer.
    @Test func listing6_2DisablingActionsWhileRemovingALayer() {
        withRunLoop { loop in
            let root = liveRoot(loop)
            let aLayer = CALayer(), bLayer = CALayer()
            root.addSublayer(aLayer); root.addSublayer(bLayer)
            loop.endTurn()
            let fadeOut = RecordingAction()
            aLayer.actions = [kCAOnOrderOut: fadeOut]
            bLayer.actions = [kCAOnOrderOut: fadeOut]
            let rootAction = RecordingAction()
            root.actions = ["sublayers": rootAction]

            CATransaction.begin()
            CATransaction.setValue(true, forKey: kCATransactionDisableActions)
            aLayer.removeFromSuperlayer()
            CATransaction.commit()
            #expect(fadeOut.runs.isEmpty && rootAction.runs.isEmpty)
            #expect(aLayer.superlayer == nil)

            bLayer.removeFromSuperlayer()            // actions enabled: both run
            #expect(fadeOut.runs == [kCAOnOrderOut])
            #expect(rootAction.runs == ["sublayers"])
        }
    }

    /// 000: overriding action(forKey:) suppresses position; other keys still animate.
    @Test func overrideSuppressesPosition() {
        withRunLoop { loop in
            let root = liveRoot(loop)
            let layer = NoPositionLayer()
            root.addSublayer(layer)
            loop.endTurn()
            layer.position = CGPoint(x: 100, y: 100)
            layer.opacity = 0.5
            #expect(layer.animationKeys() == ["opacity"])
        }
    }

    /// 000: `[layer setValue:@YES forKey:@"suppressPositionAnimation"]`.
    @Test func customKVCFlagSuppressesPosition() {
        withRunLoop { loop in
            let root = liveRoot(loop)
            let layer = SwitchableLayer()
            root.addSublayer(layer)
            loop.endTurn()
            layer.position = CGPoint(x: 10, y: 10)
            #expect(layer.animationKeys() == ["position"])
            layer.removeAllAnimations()
            layer.setValue(true, forKey: "suppressPositionAnimation")
            layer.position = CGPoint(x: 100, y: 100)
            #expect(layer.animationKeys() == nil)
            #expect(layer.position == CGPoint(x: 100, y: 100))
        }
    }

    /// 000: an animation in `actions` with duration 5 runs 5 s inside a 1 s transaction.
    @Test func explicitDurationBeatsTheTransaction() {
        withRunLoop { loop in
            let layer = liveLayer(loop)
            let rec = Recorder()
            let ba = CABasicAnimation()
            ba.duration = 5
            ba.delegate = rec
            ba.setValue("ba", forKey: "tag")
            layer.actions = ["position": ba]
            CATransaction.setAnimationDuration(1)
            layer.position = CGPoint(x: 100, y: 100)
            let stored = layer.animation(forKey: "position") as? CABasicAnimation
            #expect(stored?.duration == 5 && stored !== ba && stored?.keyPath == "position")
            #expect(ba.keyPath == nil)                // the original is untouched
            loop.advance(to: 10)
            #expect(rec.log == ["start ba @0.0", "stop ba true @5.0"])
            // A duration of 0 takes the transaction's.
            let zero = CABasicAnimation()
            zero.delegate = rec
            zero.setValue("zero", forKey: "tag")
            layer.actions = ["position": zero]
            CATransaction.setAnimationDuration(1)
            layer.position = .zero
            #expect(layer.animation(forKey: "position")?.duration == 1)
            loop.advance(to: 20)
            #expect(rec.log.suffix(2) == ["start zero @10.0", "stop zero true @11.0"])
        }
    }

    /// 000: the delegate builds a "wag" keyframe path from the transaction value `newP`.
    @Test func wagFromTransactionValue() {
        final class Delegate: CALayerDelegate {
            func action(for layer: CALayer, forKey key: String) -> CAAction? {
                guard key == "position" else { return nil }
                let oldP = layer.position
                guard let newP = CATransaction.value(forKey: "newP") as? CGPoint else { return nil }
                let d = ((oldP.x - newP.x) * (oldP.x - newP.x) + (oldP.y - newP.y) * (oldP.y - newP.y)).squareRoot()
                let r = d / 3.0
                let theta = atan2(newP.y - oldP.y, newP.x - oldP.x)
                let wag = 10 * CGFloat.pi / 180.0
                let p1 = CGPoint(x: oldP.x + r * cos(theta + wag), y: oldP.y + r * sin(theta + wag))
                let p2 = CGPoint(x: oldP.x + r * 2 * cos(theta - wag), y: oldP.y + r * 2 * sin(theta - wag))
                let anim = CAKeyframeAnimation()
                anim.values = [oldP, p1, p2, newP]
                return anim
            }
        }
        withRunLoop { loop in
            let layer = liveLayer(loop)
            let delegate = Delegate()
            layer.delegate = delegate
            let newP = CGPoint(x: 300, y: 300)
            CATransaction.setValue(newP, forKey: "newP")
            layer.position = newP
            let anim = layer.animation(forKey: "position") as? CAKeyframeAnimation
            #expect(anim?.keyPath == "position")
            let values = anim?.values as? [CGPoint] ?? []
            #expect(values.first == .zero && values.last == newP)
            let r = (2 * 300.0 * 300.0).squareRoot() / 3
            let p1 = values.count > 1 ? values[1] : .zero
            #expect(abs(p1.x - r * cos(.pi / 4 + .pi / 18)) < 1e-9 && abs(p1.y - r * sin(.pi / 4 + .pi / 18)) < 1e-9)
            #expect(anim?.duration == 0.25)
            // Presentation: 4 evenly spaced keyframes over 0.25 s, linear (no curve was set and the
            // transaction has none): at 0.25 / 3 the layer sits on p1, at 0.125 halfway p1 → p2.
            loop.endTurn()
            loop.advance(to: 0.25 / 3)
            let atP1 = layer.presentation()?.position ?? .zero
            #expect(abs(atP1.x - p1.x) < 1e-6 && abs(atP1.y - p1.y) < 1e-6)
            #expect(layer.position == newP)                  // the model already holds newP
            let p2 = values.count > 2 ? values[2] : .zero
            loop.advance(to: 0.125)
            let mid = layer.presentation()?.position ?? .zero
            #expect(abs(mid.x - (p1.x + p2.x) / 2) < 1e-6 && abs(mid.y - (p1.y + p2.y) / 2) < 1e-6)
            loop.advance(to: 0.25)
            #expect(layer.presentation()?.position == newP)
            // Without the transaction value the delegate declines and the implicit basic runs.
            loop.endTurn()
            layer.position = .zero
            #expect(layer.animation(forKey: "position") is CABasicAnimation)
        }
    }

    /// 000: a subclass's defaultAction(forKey:) pushes new contents in from the left, live or not.
    @Test func defaultActionPushesContentsFromTheLeft() {
        withRunLoop { loop in
            let layer = PushContentsLayer()       // standalone: found actions still run
            layer.contents = image(1, 1)
            let t = layer.animation(forKey: "contents") as? CATransition
            #expect(t?.type == .push && t?.subtype == .fromLeft)
            #expect(t?.duration == 0.25)
            #expect(t?._fromSnapshot?.contents == nil)
            loop.endTurn()
            #expect(t?.beginTime == 0)
        }
    }

    /// 000: the delegate makes a layer "pop" in when it joins a tree (kCAOnOrderIn).
    @Test func popInOnOrderIn() {
        final class Delegate: CALayerDelegate {
            func action(for lay: CALayer, forKey key: String) -> CAAction? {
                guard key == kCAOnOrderIn else { return nil }
                let anim1 = CABasicAnimation(keyPath: "opacity")
                anim1.fromValue = Float(0)
                anim1.toValue = lay.opacity
                let anim2 = CABasicAnimation(keyPath: "transform")
                anim2.toValue = CATransform3DScale(lay.transform, 1.1, 1.1, 1.0)
                anim2.autoreverses = true
                anim2.duration = 0.1
                let group = CAAnimationGroup()
                group.animations = [anim1, anim2]
                group.duration = 0.2
                return group
            }
        }
        withRunLoop { loop in
            let root = liveRoot(loop)
            let lay = CALayer()
            lay.opacity = 0.8
            let delegate = Delegate()
            lay.delegate = delegate
            let rec = Recorder()
            root.addSublayer(lay)
            let group = lay.animation(forKey: kCAOnOrderIn) as? CAAnimationGroup
            #expect(group?.duration == 0.2 && group?.animations?.count == 2)
            let a1 = group?.animations?.first as? CABasicAnimation
            #expect(a1?.toValue as? Float == 0.8)
            let a2 = group?.animations?.last as? CABasicAnimation
            #expect(a2?.toValue as? CATransform3D == CATransform3DMakeScale(1.1, 1.1, 1))
            group?.delegate = rec
            loop.endTurn()
            // t = 0.05: opacity (linear child over the group's 0.2 s) 0.8 × 0.25 = 0.2; the scale
            // child (0.1 s, autoreversing, linear) is halfway up: 1.05.
            loop.advance(to: 0.05)
            let p = lay.presentation()
            #expect(abs(Double(p?.opacity ?? 0) - 0.2) < 1e-6)
            #expect(abs(Double(p?.transform.m11 ?? 0) - 1.05) < 1e-9 && abs(Double(p?.transform.m22 ?? 0) - 1.05) < 1e-9)
            // t = 0.15: opacity 0.6; the scale child is on its way back: 1.05 again.
            loop.advance(to: 0.15)
            let q = lay.presentation()
            #expect(abs(Double(q?.opacity ?? 0) - 0.6) < 1e-6)
            #expect(abs(Double(q?.transform.m11 ?? 0) - 1.05) < 1e-9)
            loop.advance(to: 0.2)
            #expect(lay.animationKeys() == nil)
            // The delegate was set on the stored copy before the commit, so it hears both.
            #expect(rec.log == ["start ? @0.0", "stop ? true @0.2"])
        }
    }

    /// 000: fade out with a transaction flag; the completion block removes the layer.
    @Test func byebyeFadeOutThenRemove() {
        final class Delegate: CALayerDelegate {
            func action(for layer: CALayer, forKey key: String) -> CAAction? {
                guard key == "opacity", CATransaction.value(forKey: "byebye") != nil else { return nil }
                let anim1 = CABasicAnimation(keyPath: "opacity")
                anim1.fromValue = layer.opacity
                anim1.toValue = Float(0)
                let anim2 = CABasicAnimation(keyPath: "transform")
                anim2.toValue = CATransform3DScale(layer.transform, 0.1, 0.1, 1.0)
                let group = CAAnimationGroup()
                group.animations = [anim1, anim2]
                group.duration = 0.2
                return group
            }
        }
        withRunLoop { loop in
            let root = liveRoot(loop)
            let layer = CALayer()
            root.addSublayer(layer)
            loop.endTurn()
            let delegate = Delegate()
            layer.delegate = delegate
            CATransaction.setCompletionBlock { layer.removeFromSuperlayer() }
            CATransaction.setValue(true, forKey: "byebye")
            layer.opacity = 0
            #expect(layer.animation(forKey: "opacity") is CAAnimationGroup)
            loop.endTurn()
            // t = 0.1: the children take the group's 0.2 s and the transaction's default curve
            // is not set (nil = linear): opacity 1 → 0 is at 0.5; scale 1 → 0.1 decomposed is 0.55.
            loop.advance(to: 0.1)
            let p = layer.presentation()
            #expect(abs(Double(p?.opacity ?? 0) - 0.5) < 1e-6)
            #expect(abs(Double(p?.transform.m11 ?? 0) - 0.55) < 1e-9)
            #expect(layer.opacity == 0)
            loop.advance(to: 0.19)
            #expect(layer.superlayer === root)
            loop.advance(to: 0.2)
            #expect(layer.superlayer == nil)
            #expect(root.sublayers == nil)
        }
    }
}
