import Testing
@testable import Flipbook
import Foundation

/// A snapshot as text: every value the compositor reads, the subtree, and a transition with its
/// progress and its "before" picture (recursively). Images print by identity.
func describe(_ n: RenderLayer) -> String {
    var s = "\(n.name ?? "-") b\(n.bounds) p\(n.position) z\(n.zPosition) a\(n.anchorPoint) o\(n.opacity) h\(n.isHidden)"
    s += " t\(n.transform) bg\(String(describing: n.backgroundColor)) r\(n.cornerRadius) bw\(n.borderWidth)"
    s += " c\(n.contents.map { "\(ObjectIdentifier($0))" } ?? "nil") cr\(n.contentsRect)"
    if let x = n.contentsCrossfade { s += " xf\(x.clampedFraction)" }
    if let t = n.transition { s += " [\(t.type.rawValue) \(t.subtype?.rawValue ?? "-") \(t.progress) from: \(describe(t.from))]" }
    if let m = n.mask { s += " mask{\(describe(m))}" }
    return s + " {" + n.sublayers.map(describe).joined(separator: "; ") + "}"
}

/// The images of `runScene` (shared, so that both runs print the same identities).
private let sceneImages = (image(2, 2), image(3, 3), image(4, 4))

/// A tree with implicit animations and transitions, driven through fixed steps; `probe` runs
/// between the steps (e.g. building snapshots). Returns the snapshots at five later times, as
/// text.
private func runScene(probe: (CALayer, VirtualRunLoop) -> Void) -> [String] {
    let loop = VirtualRunLoop()
    return loop.run {
        let (a, b, c) = sceneImages
        let root = liveRoot(loop)
        let card = CALayer(), dot = CALayer()
        card.name = "card"; dot.name = "dot"
        CATransaction.setDisableActions(true)
        card.frame = CGRect(x: 0, y: 0, width: 100, height: 50)
        card.contents = a
        dot.frame = CGRect(x: 10, y: 10, width: 5, height: 5)
        card.addSublayer(dot)
        root.addSublayer(card)
        loop.endTurn()
        probe(root, loop)
        loop.advance(to: 0.1)
        dot.position = CGPoint(x: 80, y: 20)                 // implicit 0.25 s
        loop.endTurn()
        probe(root, loop)
        loop.advance(to: 0.2)
        probe(root, loop)
        // An explicit transition added after changes in the same transaction, while the dot
        // is moving: its before picture is the committed card, the dot at 0.2.
        CATransaction.setDisableActions(true)
        card.contents = b
        dot.backgroundColor = .white
        let push = CATransition(); push.type = .push; push.subtype = .fromRight; push.duration = 1
        card.add(push, forKey: "swap")
        loop.endTurn()
        probe(root, loop)
        loop.advance(to: 0.7)
        probe(root, loop)
        // An action-driven transition while the first is in flight.
        let fade = CATransition(); fade.duration = 0.5
        card.actions = ["contents": fade]
        card.contents = c
        loop.endTurn()
        probe(root, loop)
        var out: [String] = []
        for t in [0.7, 0.8, 1.0, 1.3, 2.0] {
            loop.advance(to: t)
            out.append(describe(root.makeRenderTree()))
        }
        return out
    }
}

@Suite struct SnapshotPurityTests {
    /// Building snapshots — now, at other times, of subtrees, many times or never — changes
    /// nothing that a later snapshot shows, transitions included.
    @Test func snapshotsDoNotChangeLaterSnapshots() {
        let none = runScene { _, _ in }
        let many = runScene { root, loop in
            _ = root.makeRenderTree()
            _ = root.makeRenderTree(at: loop.currentTime + 0.05)
            _ = root.makeRenderTree(at: 0)
            _ = root.makeRenderTree(at: 100)
            for l in root.sublayers ?? [] { _ = l.makeRenderTree() }
            _ = root.sublayers?.first?.presentation()
        }
        #expect(none.count == many.count)
        for (i, (x, y)) in zip(none, many).enumerated() { #expect(x == y, "snapshot \(i)") }
        // The scene does show both transitions, the fade starting from the push in flight.
        #expect(none[1].contains("fade") && none[1].contains("push") && !none[4].contains("fade"))
        #expect(Set(none[0...3]).count == 4)
    }

    /// `makeRenderTree(at:)` evaluates the model at the given time and leaves the clock alone.
    @Test func snapshotAtAnotherTimeIsTheSnapshotAtThatTime() {
        withRunLoop { loop in
            let layer = liveLayer(loop)
            layer.opacity = 0                                   // implicit, 0 … 0.25
            loop.endTurn()
            let early = describe(layer.makeRenderTree(at: 0.1))
            #expect(loop.currentTime == 0)
            loop.advance(to: 0.1)
            #expect(describe(layer.makeRenderTree()) == early)
        }
    }

    /// A transition's before picture is the subtree as last committed: a sublayer added, a
    /// sublayer's value changed and an animation removed earlier in the same transaction do
    /// not show in it; after the commit the saved state is gone.
    @Test func beforePictureIsTheCommittedSubtree() {
        withRunLoop { loop in
            let root = liveRoot(loop)
            let card = CALayer(), old = CALayer()
            card.name = "card"; old.name = "old"
            card.addSublayer(old)
            root.addSublayer(card)
            old.opacity = 0.5
            let spin = CABasicAnimation(keyPath: "opacity")
            spin.fromValue = Float(0); spin.toValue = Float(1); spin.duration = 10
            old.add(spin, forKey: "spin")
            loop.endTurn()
            loop.advance(to: 1)
            let shown = describe(card.makeRenderTree())
            let added = CALayer(); added.name = "added"
            card.addSublayer(added)
            old.opacity = 0.9
            old.removeAnimation(forKey: "spin")
            card.add(CATransition(), forKey: "t")
            let t = card.animation(forKey: "t") as? CATransition
            #expect(t.map { describe($0._fromSnapshot!) } == shown)
            #expect(card._committed != nil && old._committed != nil && added._committed == nil)
            loop.endTurn()
            #expect(card._committed == nil && old._committed == nil && loop._changedSinceCommit.isEmpty)
            // Now committed: the next transition starts from the new state.
            loop.advance(to: 2)
            CATransaction.setDisableActions(true)
            card.backgroundColor = .black
            card.add(CATransition(), forKey: "t2")
            let from = (card.animation(forKey: "t2") as? CATransition)?._fromSnapshot
            #expect(from?.sublayers.map(\.name) == ["old", "added"] && from?.sublayers[0].opacity == 0.9)
            #expect(from?.backgroundColor == nil)
        }
    }

    /// The action search's before picture is the committed state too: an earlier change of the
    /// same layer in the transaction is not in it.
    @Test func actionTransitionStartsFromTheCommittedState() {
        withRunLoop { loop in
            let layer = liveLayer(loop)
            let a = image(2, 2), b = image(3, 3)
            CATransaction.setDisableActions(true)
            layer.contents = a
            loop.endTurn()
            layer.backgroundColor = .white       // implicit animation, same transaction
            layer.actions = ["contents": CATransition()]
            layer.contents = b
            let t = layer.animation(forKey: "contents") as? CATransition
            #expect(t?._fromSnapshot?.contents === a && t?._fromSnapshot?.backgroundColor == nil)
        }
    }

    /// A layer created in the open transaction has no committed state: its before picture is
    /// its current model (a scene's initial transition shows the built layer).
    @Test func newLayerStartsFromItsCurrentModel() {
        withRunLoop { loop in
            let root = liveRoot(loop)
            let layer = CALayer()
            layer.backgroundColor = .white
            root.addSublayer(layer)
            layer.add(CATransition(), forKey: "t")
            let t = layer.animation(forKey: "t") as? CATransition
            #expect(t?._fromSnapshot?.backgroundColor == .white && layer._committed == nil)
        }
    }
}
