import Testing
@testable import Flipbook
import Foundation

/// A layer subclass whose class-level default answers one key.
final class DefaultActionLayer: CALayer {
    nonisolated(unsafe) static var answer: CAAction?
    override class func defaultAction(forKey event: String) -> CAAction? {
        event == "zPosition" ? answer : super.defaultAction(forKey: event)
    }
}

@Suite struct ActionSearchTests {
    @Test func searchOrderDelegateActionsStyleDefaultImplicit() {
        withRunLoop { loop in
            let root = liveRoot(loop)
            let layer = DefaultActionLayer()
            root.addSublayer(layer)
            loop.endTurn()
            let fromDelegate = RecordingAction(), fromActions = RecordingAction()
            let fromStyle = RecordingAction(), fromDefault = RecordingAction()
            let delegate = ClosureDelegate { _, key in key == "zPosition" ? fromDelegate : nil }
            layer.delegate = delegate
            layer.actions = ["zPosition": fromActions]
            layer.style = ["actions": ["zPosition": fromStyle]]
            DefaultActionLayer.answer = fromDefault
            defer { DefaultActionLayer.answer = nil }
            #expect(layer.action(forKey: "zPosition") as? RecordingAction === fromDelegate)
            layer.delegate = nil
            #expect(layer.action(forKey: "zPosition") as? RecordingAction === fromActions)
            layer.actions = nil
            #expect(layer.action(forKey: "zPosition") as? RecordingAction === fromStyle)
            layer.style = nil
            #expect(layer.action(forKey: "zPosition") as? RecordingAction === fromDefault)
            DefaultActionLayer.answer = nil
            let implicit = layer.action(forKey: "zPosition") as? CABasicAnimation
            #expect(implicit?.keyPath == "zPosition")
            #expect(implicit?.fromValue as? CGFloat == 0)
            _ = delegate
        }
    }

    @Test func nsNullEndsTheSearchAtEveryStep() {
        withRunLoop { loop in
            let layer = liveLayer(loop)
            let later = RecordingAction()
            layer.style = ["actions": ["opacity": later]]
            #expect(layer.action(forKey: "opacity") as? RecordingAction === later)
            layer.actions = ["opacity": NSNull()]
            #expect(layer.action(forKey: "opacity") == nil)
            layer.actions = nil
            let delegate = ClosureDelegate { _, _ in NSNull() }
            layer.delegate = delegate
            #expect(layer.action(forKey: "opacity") == nil)
            #expect(delegate.asked == ["opacity"])
            layer.delegate = nil
            layer.style = ["actions": ["opacity": NSNull()]]
            #expect(layer.action(forKey: "opacity") == nil)   // the implicit step is not reached
            // A nil answer from the delegate continues the search.
            layer.style = nil
            let silent = ClosureDelegate()                     // held: `delegate` is weak
            layer.delegate = silent
            #expect(layer.action(forKey: "opacity") is CABasicAnimation)
            #expect(layer.delegate === silent && silent.asked == ["opacity"])   // it was asked, answered nil
        }
    }

    @Test func styleIsSearchedRecursivelyThroughNestedStyleDictionaries() {
        withRunLoop { _ in
            let layer = CALayer()
            let deep = RecordingAction(), shallow = RecordingAction()
            layer.style = ["style": ["style": ["actions": ["glow": deep]]]]
            #expect(layer.action(forKey: "glow") as? RecordingAction === deep)
            layer.style = ["actions": ["glow": shallow], "style": ["actions": ["glow": deep]]]
            #expect(layer.action(forKey: "glow") as? RecordingAction === shallow)
            layer.style = ["actions": ["other": shallow], "style": ["actions": ["glow": deep]]]
            #expect(layer.action(forKey: "glow") as? RecordingAction === deep)
            layer.style = ["style": ["nothing": 1]]
            #expect(layer.action(forKey: "glow") == nil)
        }
    }

    @Test func caLayerDefaultActionIsNil() {
        for key in ["opacity", "position", "contents", kCAOnOrderIn, kCATransition, "custom"] {
            #expect(CALayer.defaultAction(forKey: key) == nil)
        }
    }

    @Test func foundActionsRunForStandaloneLayersButTheImplicitOneDoesNot() {
        withRunLoop { loop in
            let standalone = CALayer()
            #expect(!standalone.isLive)
            #expect(standalone.action(forKey: "opacity") == nil)
            standalone.opacity = 0.5
            #expect(standalone.animationKeys() == nil)
            let action = RecordingAction()
            standalone.actions = ["opacity": action]
            standalone.opacity = 0.25
            #expect(action.runs == ["opacity"])
            loop.endTurn()
            #expect(standalone.animationKeys() == nil)
        }
    }

    @Test func liveMeansAttachedAndCommitted() {
        withRunLoop { loop in
            let root = CALayer()
            let child = CALayer()
            root.addSublayer(child)
            loop.attach(root)
            #expect(!child.isLive)               // attached, not yet committed
            child.opacity = 0.5
            #expect(child.animationKeys() == nil)
            loop.endTurn()
            #expect(child.isLive && root.isLive)
            child.opacity = 0.25                  // now animates implicitly, 0.25 s
            let anim = child.animation(forKey: "opacity") as? CABasicAnimation
            #expect(anim?.fromValue as? Float == 0.5)
            #expect(anim?.toValue as? Float == 0.25)
            #expect(anim?.duration == 0.25)
            #expect(anim?.keyPath == "opacity")
            child.removeFromSuperlayer()
            #expect(!child.isLive)
            child.opacity = 1
            #expect(child.animation(forKey: "opacity") === anim)   // not replaced
        }
    }

    @Test func settingTheSameValueTriggersNothing() {
        withRunLoop { loop in
            let layer = liveLayer(loop)
            let delegate = ClosureDelegate()
            layer.delegate = delegate
            layer.position = .zero
            layer.opacity = 1
            layer.backgroundColor = nil
            layer.setValue(nil, forKey: "custom")
            layer.setValue(1.0, forKey: "opacity")
            #expect(delegate.asked.isEmpty)
            layer.setValue(3, forKey: "custom")
            layer.setValue(3, forKey: "custom")
            layer.position = CGPoint(x: 1, y: 0)
            layer.position = CGPoint(x: 1, y: 0)
            #expect(delegate.asked == ["custom", "position"])
        }
    }

    @Test func customKeysTriggerTheSearch() {
        withRunLoop { _ in
            let layer = CALayer()
            let action = RecordingAction()
            layer.actions = ["wobble": action]
            layer.setValue(CGFloat(3), forKey: "wobble")
            #expect(action.runs == ["wobble"])
            #expect(layer.value(forKey: "wobble") as? CGFloat == 3)
        }
    }

    @Test func disableActionsSuppressesRunningButNotTheAnswer() {
        withRunLoop { loop in
            let layer = liveLayer(loop)
            let action = RecordingAction()
            layer.actions = ["opacity": action]
            CATransaction.begin()
            CATransaction.setDisableActions(true)
            layer.opacity = 0
            #expect(action.runs.isEmpty)
            #expect(layer.action(forKey: "opacity") as? RecordingAction === action)
            layer.actions = nil
            #expect(layer.action(forKey: "opacity") is CABasicAnimation)
            layer.opacity = 0.5
            #expect(layer.animationKeys() == nil)
            CATransaction.commit()
            layer.opacity = 0.75
            #expect(layer.animationKeys() == ["opacity"])
        }
    }

    @Test func treeTriggers() {
        withRunLoop { loop in
            let root = liveRoot(loop)
            let parentDelegate = ClosureDelegate(), childDelegate = ClosureDelegate()
            let parent = CALayer(), child = CALayer(), other = CALayer()
            parent.delegate = parentDelegate
            child.delegate = childDelegate
            parent.addSublayer(child)                 // parent not in a live tree yet
            #expect(parentDelegate.asked == ["sublayers"])
            #expect(childDelegate.asked.isEmpty)
            root.addSublayer(parent)
            #expect(parentDelegate.asked == ["sublayers", kCAOnOrderIn])
            loop.endTurn()
            child.isHidden = true
            child.isHidden = false
            #expect(childDelegate.asked == ["hidden", kCAOnOrderOut, "hidden", kCAOnOrderIn])
            childDelegate.asked = []
            parent.replaceSublayer(child, with: other)
            #expect(parentDelegate.asked.suffix(3) == [kCATransition, "sublayers", "sublayers"])
            #expect(childDelegate.asked == [kCAOnOrderOut])
            #expect(parent.sublayers?.first === other && child.superlayer == nil)
        }
    }

    @Test func implicitAnimationUsesTransactionDurationAndTimingFunction() {
        withRunLoop { loop in
            let layer = liveLayer(loop)
            let f = CAMediaTimingFunction(name: .easeOut)
            CATransaction.begin()
            CATransaction.setAnimationDuration(2)
            CATransaction.setAnimationTimingFunction(f)
            layer.position = CGPoint(x: 10, y: 20)
            CATransaction.commit()
            let a = layer.animation(forKey: "position") as? CABasicAnimation
            #expect(a?.duration == 2)
            #expect(a?.timingFunction == f)
            #expect(a?.fromValue as? CGPoint == .zero)
            #expect(a?.toValue as? CGPoint == CGPoint(x: 10, y: 20))
        }
    }
}
