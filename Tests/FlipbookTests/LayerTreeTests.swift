import Testing
@testable import Flipbook
import Foundation

@Suite struct LayerTreeTests {
    @Test func insertionVariantsAndMoves() {
        let p = CALayer(), a = CALayer(), b = CALayer(), c = CALayer(), d = CALayer()
        a.name = "a"; b.name = "b"; c.name = "c"; d.name = "d"
        p.addSublayer(a)
        p.insertSublayer(b, at: 0)
        p.insertSublayer(c, above: b)
        p.insertSublayer(d, below: a)
        #expect(p.sublayers?.map(\.name) == ["b", "c", "d", "a"])
        p.insertSublayer(a, at: 99)                     // clamped; a moves (no duplicate)
        #expect(p.sublayers?.map(\.name) == ["b", "c", "d", "a"])
        p.insertSublayer(a, below: nil)
        #expect(p.sublayers?.first === a)
        p.insertSublayer(b, above: CALayer())           // not a sublayer: on top
        #expect(p.sublayers?.last === b)
        let q = CALayer()
        q.addSublayer(c)                                // moving to another parent
        #expect(c.superlayer === q && p.sublayers?.count == 3)
        p.sublayers = [d]
        #expect(p.sublayers?.count == 1 && a.superlayer == nil)
        p.sublayers = nil
        #expect(p.sublayers == nil && d.superlayer == nil)
    }

    @Test func cyclesAreRefused() {
        let a = CALayer(), b = CALayer(), c = CALayer()
        a.addSublayer(b); b.addSublayer(c)
        c.addSublayer(a)
        a.addSublayer(a)
        c.mask = a
        #expect(a.superlayer == nil && c.sublayers == nil && c.mask == nil)
    }

    @Test func replaceAndMask() {
        let p = CALayer(), a = CALayer(), b = CALayer(), m = CALayer()
        p.addSublayer(a)
        p.replaceSublayer(a, with: b)
        #expect(p.sublayers?.first === b && a.superlayer == nil && b.superlayer === p)
        p.replaceSublayer(a, with: m)                   // a is no sublayer: nothing
        #expect(p.sublayers?.count == 1)
        p.addSublayer(m)
        p.mask = m                                      // a mask has no superlayer
        #expect(p.mask === m && m.superlayer == nil && p.sublayers?.count == 1)
        m.removeFromSuperlayer()
        #expect(p.mask == nil)
    }

    @Test func onOrderInWhenJoiningALiveTreeAndOnAttach() {
        withRunLoop { loop in
            let root = CALayer(), child = CALayer()
            let rootAction = RecordingAction(), childAction = RecordingAction()
            root.actions = [kCAOnOrderIn: rootAction, kCAOnOrderOut: rootAction]
            child.actions = [kCAOnOrderIn: childAction, kCAOnOrderOut: childAction]
            root.addSublayer(child)               // not attached: no order-in
            #expect(childAction.runs.isEmpty)
            loop.attach(root)
            #expect(rootAction.runs == [kCAOnOrderIn])
            child.removeFromSuperlayer()
            root.addSublayer(child)
            #expect(childAction.runs == [kCAOnOrderOut, kCAOnOrderIn])
            loop.detach(root)
            #expect(rootAction.runs == [kCAOnOrderIn, kCAOnOrderOut])
            #expect(loop.rootLayers.isEmpty)
        }
    }

    @Test func frameFromBoundsPositionAnchorAndTransform() {
        let l = CALayer()
        l.bounds = CGRect(x: 0, y: 0, width: 100, height: 40)
        l.position = CGPoint(x: 50, y: 50)
        #expect(l.frame == CGRect(x: 0, y: 30, width: 100, height: 40))
        l.anchorPoint = .zero
        #expect(l.frame == CGRect(x: 50, y: 50, width: 100, height: 40))
        l.anchorPoint = CGPoint(x: 0.5, y: 0.5)
        l.transform = CATransform3DMakeScale(2, 0.5, 1)
        #expect(l.frame == CGRect(x: -50, y: 40, width: 200, height: 20))
        l.frame = CGRect(x: 10, y: 10, width: 100, height: 100)   // through the transform
        #expect(l.bounds.size == CGSize(width: 50, height: 200))
        #expect(l.frame == CGRect(x: 10, y: 10, width: 100, height: 100))
        l.transform = CATransform3DMakeRotation(.pi / 2, 0, 0, 1)
        let f = l.frame
        #expect(abs(f.width - 200) < 1e-9 && abs(f.height - 50) < 1e-9)
    }

    @Test func convertAndHitTest() {
        let root = CALayer(), child = CALayer(), grand = CALayer()
        root.bounds = CGRect(x: 0, y: 0, width: 200, height: 200); root.anchorPoint = .zero
        child.frame = CGRect(x: 50, y: 50, width: 100, height: 100)
        grand.frame = CGRect(x: 10, y: 10, width: 20, height: 20)
        root.addSublayer(child); child.addSublayer(grand)
        #expect(grand.convert(CGPoint(x: 0, y: 0), to: root) == CGPoint(x: 60, y: 60))
        #expect(root.convert(CGPoint(x: 65, y: 70), to: grand) == CGPoint(x: 5, y: 10))
        #expect(child.convert(CGPoint(x: 60, y: 60), from: root) == CGPoint(x: 10, y: 10))
        #expect(grand.convert(CGRect(x: 0, y: 0, width: 20, height: 20), to: nil) == CGRect(x: 60, y: 60, width: 20, height: 20))
        #expect(root.hitTest(CGPoint(x: 65, y: 65)) === grand)
        #expect(root.hitTest(CGPoint(x: 55, y: 55)) === child)
        #expect(root.hitTest(CGPoint(x: 5, y: 5)) === root)
        #expect(root.hitTest(CGPoint(x: 500, y: 5)) == nil)
        grand.isHidden = true
        #expect(root.hitTest(CGPoint(x: 65, y: 65)) === child)
        child.bounds.origin = CGPoint(x: 10, y: 0)      // scrolls the sublayers left by 10
        grand.isHidden = false
        #expect(grand.convert(CGPoint.zero, to: root) == CGPoint(x: 50, y: 60))
        child.transform = CATransform3DMakeScale(2, 2, 1)
        #expect(child.convert(CGPoint(x: 10, y: 0), to: root) == CGPoint(x: 0, y: 0))
        #expect(root.hitTest(CGPoint(x: 20, y: 40)) === grand)   // child point (20, 20)
    }

    @Test func renderTreeSnapshotsModelValues() {
        let root = CALayer(), child = CALayer(), mask = CALayer()
        root.bounds = CGRect(x: 0, y: 0, width: 10, height: 10)
        root.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        root.cornerRadius = 2; root.maskedCorners = [.layerMinXMinYCorner]
        root.contentsGravity = .topLeft; root.opacity = 0.5; root.name = "root"
        child.zPosition = 3; child.isHidden = true
        root.addSublayer(child); root.mask = mask
        let t = root.makeRenderTree()
        #expect(t.name == "root" && t.bounds == root.bounds && t.opacity == 0.5)
        #expect(t.backgroundColor == root.backgroundColor && t.cornerRadius == 2)
        #expect(t.maskedCorners == [.layerMinXMinYCorner] && t.contentsGravity == .topLeft)
        #expect(t.sublayers.count == 1 && t.sublayers[0].zPosition == 3 && t.sublayers[0].isHidden)
        #expect(t.mask != nil && t.transition == nil)
    }

    @Test func needsDisplayRunsAtCommit() {
        final class Painter: CALayerDelegate {
            var displayed = 0
            func display(_ layer: CALayer) { displayed += 1 }
        }
        final class Tinted: CALayer {
            override class func needsDisplay(forKey key: String) -> Bool { key == "tint" || super.needsDisplay(forKey: key) }
        }
        withRunLoop { loop in
            let l = Tinted(), painter = Painter()
            l.delegate = painter
            l.setValue(1, forKey: "tint")
            #expect(l.needsDisplay())
            loop.endTurn()
            #expect(painter.displayed == 1 && !l.needsDisplay())
            l.needsDisplayOnBoundsChange = true
            l.bounds = CGRect(x: 0, y: 0, width: 1, height: 1)
            loop.endTurn()
            #expect(painter.displayed == 2)
        }
    }

    @Test func initLayerCopiesModelValues() {
        withRunLoop { _ in
            let l = CALayer()
            l.opacity = 0.3; l.setValue(5, forKey: "custom"); l.addSublayer(CALayer())
            let c = CALayer(layer: l)
            #expect(c.opacity == 0.3 && c.value(forKey: "custom") as? Int == 5)
            #expect(c.sublayers == nil && c._runLoop === l._runLoop)
        }
    }
}

@Suite struct TransitionBeforeStateTests {
    @Test func replaceSublayerRecordsTheParentsRenderingBeforeTheSwap() {
        withRunLoop { loop in
            let root = liveRoot(loop)
            let old = CALayer(), new = CALayer()
            old.name = "old"; new.name = "new"
            root.addSublayer(old)
            loop.endTurn()
            let fade = CATransition()
            fade.duration = 2
            root.actions = [kCATransition: fade]
            root.replaceSublayer(old, with: new)
            let stored = root.animation(forKey: kCATransition) as? CATransition
            #expect(stored?._fromSnapshot?.sublayers.map(\.name) == ["old"])
            loop.advance(to: 0.5)
            let tree = root.makeRenderTree()
            #expect(tree.sublayers.map(\.name) == ["new"])
            #expect(tree.transition?.type == .fade && tree.transition?.progress == 0.25)
        }
    }

    /// The "before" picture of an explicitly added transition is the layer as last committed
    /// (what was shown), not the values changed earlier in the same transaction.
    @Test func explicitTransitionUsesTheCommittedState() {
        withRunLoop { loop in
            let layer = liveLayer(loop)
            layer.backgroundColor = .white
            loop.advance(to: 1)
            let shown = layer.makeRenderTree()
            CATransaction.setDisableActions(true)
            layer.backgroundColor = .black
            layer.add(CATransition(), forKey: "swap")
            let t = layer.animation(forKey: "swap") as? CATransition
            #expect(t?._fromSnapshot?.backgroundColor == shown.backgroundColor)
            #expect(t?._fromSnapshot?.backgroundColor == .white)
        }
    }
}
