import Testing
@testable import FlipbookRender
@testable import Flipbook
import FlipbookPixels
import Foundation

/// Reusing the snapshot of an unchanged tree (`RenderTreeReuse`) and the plan of an unchanged
/// snapshot (`Compositor`): the same bytes as building both afresh, and a rebuild after every
/// kind of change a snapshot can show.
@Suite struct StaticTreeReuseTests {
    /// A small tree with every kind of layer content that has its own storage: a background
    /// with rounded corners, a border, contents, a shape layer, a gradient layer, a mask.
    static func tree() -> (root: CALayer, card: CALayer, shape: CAShapeLayer, gradient: CAGradientLayer) {
        let root = CALayer()
        root.bounds = CGRect(x: 0, y: 0, width: 64, height: 48)
        root.position = CGPoint(x: 32, y: 24)
        let card = CALayer()
        card.frame = CGRect(x: 4, y: 4, width: 30, height: 20)
        card.backgroundColor = TestScene.blue
        card.cornerRadius = 5
        card.borderWidth = 1.5
        card.borderColor = TestScene.red
        root.addSublayer(card)
        let shape = CAShapeLayer()
        shape.frame = CGRect(x: 36, y: 4, width: 24, height: 24)
        shape.path = CGPath(ellipseIn: CGRect(x: 2, y: 2, width: 20, height: 20), transform: nil)
        shape.fillColor = TestScene.green
        root.addSublayer(shape)
        let gradient = CAGradientLayer()
        gradient.frame = CGRect(x: 4, y: 28, width: 56, height: 16)
        gradient.colors = [TestScene.red, TestScene.blue]
        root.addSublayer(gradient)
        return (root, card, shape, gradient)
    }

    static func pixels(_ tree: RenderLayer, _ compositor: Compositor? = nil) throws -> PixelBuffer {
        var b = PixelBuffer(width: 64, height: 48)
        try (compositor ?? Compositor(threadCount: 1)).render(tree, into: &b, background: .white)
        return b
    }

    @Test func anUnchangedTreeGivesTheSameSnapshotObject() {
        VirtualRunLoop().run {
            let (root, _, _, _) = Self.tree()
            var reuse = RenderTreeReuse()
            let a = root.makeRenderTree(reusing: &reuse)
            let b = root.makeRenderTree(reusing: &reuse)
            #expect(a === b)
            #expect(reuse.built == 1 && reuse.reused == 1)
            // Another root is not this one's snapshot.
            let other = CALayer()
            #expect(other.makeRenderTree(reusing: &reuse) !== a)
        }
    }

    /// Each change is made after a snapshot was kept; the next call must build again and show
    /// the change (its pixels equal a fresh `makeRenderTree()`'s and differ from before).
    @Test func everyKindOfChangeBuildsAgain() throws {
        typealias Parts = (root: CALayer, card: CALayer, shape: CAShapeLayer, gradient: CAGradientLayer)
        let changes: [(String, (Parts) -> Void)] = [
            ("backgroundColor", { $0.card.backgroundColor = TestScene.green }),
            ("cornerRadius", { $0.card.cornerRadius = 10 }),
            ("position", { $0.card.position = CGPoint(x: 30, y: 20) }),
            ("transform", { $0.card.transform = CATransform3DMakeRotation(0.3, 0, 0, 1) }),
            ("opacity", { $0.card.opacity = 0.5 }),
            ("isHidden", { $0.card.isHidden = true }),
            ("contents", { $0.card.contents = TestScene.image(2, 2, .black) }),
            ("shape path", { $0.shape.path = CGPath(rect: CGRect(x: 0, y: 0, width: 10, height: 10), transform: nil) }),
            ("shape fillColor", { $0.shape.fillColor = TestScene.red }),
            ("gradient colors", { $0.gradient.colors = [TestScene.green, TestScene.green] }),
            ("gradient type", { $0.gradient.type = .radial }),
            ("addSublayer", { p in
                let l = CALayer(); l.frame = CGRect(x: 0, y: 0, width: 8, height: 8); l.backgroundColor = TestScene.red
                p.root.addSublayer(l)
            }),
            ("insert below", { p in
                let l = CALayer(); l.frame = CGRect(x: 0, y: 0, width: 40, height: 40); l.backgroundColor = TestScene.red
                p.root.insertSublayer(l, at: 0)
            }),
            ("removeFromSuperlayer", { $0.shape.removeFromSuperlayer() }),
            ("sublayers =", { $0.root.sublayers = [$0.gradient] }),
            ("move to another parent", { $0.card.addSublayer($0.shape) }),
            ("mask", { p in
                let m = CALayer(); m.frame = CGRect(x: 0, y: 0, width: 10, height: 30); m.backgroundColor = TestScene.red
                p.root.mask = m
            }),
            ("KVC", { $0.card.setValue(3.0, forKey: "borderWidth") }),
            ("display", { p in
                let d = _ReusePainter()
                p.card.delegate = d
                p.card.setNeedsDisplay()
                p.card.displayIfNeeded()
                p.card.delegate = nil
            }),
        ]
        for (name, change) in changes {
            try VirtualRunLoop().run {
                let parts = Self.tree()
                var reuse = RenderTreeReuse()
                let before = parts.root.makeRenderTree(reusing: &reuse)
                let compositor = Compositor(threadCount: 1)
                let beforePixels = try Self.pixels(before, compositor)
                CATransaction.begin()
                CATransaction.setDisableActions(true)
                change(parts)
                CATransaction.commit()
                let after = parts.root.makeRenderTree(reusing: &reuse)
                #expect(after !== before, "\(name)")
                let afterPixels = try Self.pixels(after, compositor)
                #expect(!compositor.reusedPlan, "\(name)")
                let freshPixels = try Self.pixels(parts.root.makeRenderTree())
                #expect(afterPixels == freshPixels, "\(name)")
                #expect(afterPixels != beforePixels, "\(name): the change shows")
                // And once more with nothing changed: reused again.
                #expect(parts.root.makeRenderTree(reusing: &reuse) === after, "\(name)")
            }
        }
    }

    /// A stored animation (even a finished one kept by `fillMode`), or an emitter anywhere in
    /// the tree: the snapshot moves with time, so it is built every time.
    @Test func animatedTreesAndEmittersAreBuiltEveryTime() {
        VirtualRunLoop().run {
            let (root, card, _, _) = Self.tree()
            let a = CABasicAnimation(keyPath: "opacity")
            a.fromValue = 0; a.toValue = 1; a.duration = 1
            a.fillMode = .forwards; a.isRemovedOnCompletion = false
            card.add(a, forKey: "fade")
            var reuse = RenderTreeReuse()
            let s1 = root.makeRenderTree(reusing: &reuse), s2 = root.makeRenderTree(reusing: &reuse)
            #expect(s1 !== s2 && reuse.reused == 0)
            card.removeAnimation(forKey: "fade")
            let s3 = root.makeRenderTree(reusing: &reuse)
            #expect(root.makeRenderTree(reusing: &reuse) === s3)

            let emitter = CAEmitterLayer()
            emitter.emitterPosition = CGPoint(x: 20, y: 20)
            let cell = CAEmitterCell()
            cell.contents = TestScene.image(2, 2, .black)
            cell.birthRate = 10; cell.lifetime = 1; cell.velocity = 10
            emitter.emitterCells = [cell]
            card.addSublayer(emitter)
            let e1 = root.makeRenderTree(reusing: &reuse), e2 = root.makeRenderTree(reusing: &reuse)
            #expect(e1 !== e2)
        }
    }

    /// A tree that moves (one layer animates): the snapshot is built every time, but the static
    /// subtrees' nodes are the same objects from build to build, the moving layer's and its
    /// ancestors' are new, and the pixels are a fresh build's at each time.
    @Test func staticSubtreesOfAMovingTreeAreShared() throws {
        let loop = VirtualRunLoop()
        try loop.run {
            let (root, card, shape, gradient) = Self.tree()
            let group = CALayer()
            group.frame = CGRect(x: 0, y: 0, width: 64, height: 48)
            let spinner = CALayer()
            spinner.frame = CGRect(x: 50, y: 34, width: 10, height: 10)
            spinner.backgroundColor = TestScene.green
            group.addSublayer(spinner)
            root.addSublayer(group)
            let spin = CABasicAnimation(keyPath: "transform.rotation.z")
            spin.fromValue = 0; spin.toValue = Double.pi; spin.duration = 1; spin.repeatCount = .infinity
            spinner.add(spin, forKey: "spin")
            CATransaction.flush()
            var reuse = RenderTreeReuse()
            var previous: RenderLayer? = nil
            for t in [0.1, 0.3, 0.55] {
                loop.advance(to: t)
                let tree = root.makeRenderTree(reusing: &reuse)
                let fresh = root.makeRenderTree()
                let a = try Self.pixels(tree), b = try Self.pixels(fresh)
                #expect(a == b, "t = \(t)")
                if let previous {
                    #expect(tree !== previous)
                    let now = tree.ownSublayers, before = previous.ownSublayers
                    #expect(now.count == 4 && before.count == 4)
                    #expect(now[0] === before[0] && now[1] === before[1] && now[2] === before[2], "the card, shape and gradient nodes are kept")
                    #expect(now[3] !== before[3], "the group holding the spinner is rebuilt")
                }
                previous = tree
            }
            #expect(card._cachedRenderNode != nil && shape._cachedRenderNode != nil && gradient._cachedRenderNode != nil)
            #expect(spinner._cachedRenderNode == nil && group._cachedRenderNode == nil && root._cachedRenderNode == nil)
        }
    }

    /// A change deep in a kept subtree (a mask's property, a grandchild's) clears the kept nodes
    /// up to the root, through the mask's owner; siblings stay kept.
    @Test func aDeepChangeRebuildsItsAncestorsOnly() throws {
        try VirtualRunLoop().run {
            let (root, card, shape, _) = Self.tree()
            let mask = CALayer()
            mask.frame = CGRect(x: 0, y: 0, width: 20, height: 20)
            mask.backgroundColor = TestScene.red
            card.mask = mask
            let dot = CALayer()
            dot.frame = CGRect(x: 2, y: 2, width: 4, height: 4)
            dot.backgroundColor = TestScene.red
            shape.addSublayer(dot)
            var reuse = RenderTreeReuse()
            let first = root.makeRenderTree(reusing: &reuse)
            #expect(card._cachedRenderNode != nil && mask._cachedRenderNode != nil && dot._cachedRenderNode != nil)
            CATransaction.begin(); CATransaction.setDisableActions(true)
            mask.opacity = 0.25
            CATransaction.commit()
            #expect(mask._cachedRenderNode == nil && card._cachedRenderNode == nil && root._cachedRenderNode == nil)
            #expect(shape._cachedRenderNode != nil && dot._cachedRenderNode != nil)
            let second = root.makeRenderTree(reusing: &reuse)
            #expect(second !== first && second.ownSublayers[1] === first.ownSublayers[1])
            let p2 = try Self.pixels(second), f2 = try Self.pixels(root.makeRenderTree()), p1 = try Self.pixels(first)
            #expect(p2 == f2 && p2 != p1)
            CATransaction.begin(); CATransaction.setDisableActions(true)
            dot.backgroundColor = TestScene.blue
            CATransaction.commit()
            #expect(dot._cachedRenderNode == nil && shape._cachedRenderNode == nil && card._cachedRenderNode != nil)
            let third = root.makeRenderTree(reusing: &reuse)
            #expect(third.ownSublayers[0] === second.ownSublayers[0])
            let p3 = try Self.pixels(third), f3 = try Self.pixels(root.makeRenderTree())
            #expect(p3 == f3 && p3 != p2)
        }
    }

    /// A moving tree (a spinner, a parent that slides, 300 static tiles: the parallel planning
    /// path on two threads) rendered frame after frame by one compositor, which reuses the op
    /// runs of the sublayer nodes the snapshot kept: every frame equals a compositor that plans
    /// from scratch, runs are reused from the second frame on, and a kept node under a parent
    /// that moved is planned again (its inputs changed).
    @Test(arguments: [1, 2])
    func subtreeRunsAreReusedWithTheSameBytes(threads: Int) throws {
        let loop = VirtualRunLoop()
        try loop.run {
            let root = CALayer()
            root.bounds = CGRect(x: 0, y: 0, width: 96, height: 64)
            root.position = CGPoint(x: 48, y: 32)
            for i in 0..<300 {
                let t = CALayer()
                t.frame = CGRect(x: Double(i % 20) * 4.7, y: Double(i / 20) * 4.1, width: 5.5, height: 4.5)
                t.backgroundColor = CGColor(red: Double(i % 7) / 7, green: 0.5, blue: Double(i % 3) / 3, alpha: 0.8)
                t.cornerRadius = 1.5
                if i % 50 == 0 { t.borderWidth = 1; t.borderColor = TestScene.red }
                root.addSublayer(t)
            }
            let slider = CALayer()                      // moves: its static child is kept, replanned
            slider.frame = CGRect(x: 10, y: 40, width: 30, height: 20)
            slider.opacity = 0.6
            let child = CALayer()
            child.frame = CGRect(x: 2, y: 2, width: 12, height: 12)
            child.backgroundColor = TestScene.blue
            child.shadowOpacity = 0.8; child.shadowRadius = 2
            slider.addSublayer(child)
            root.addSublayer(slider)
            let clip = CALayer()                        // clipped children: planned every time
            clip.frame = CGRect(x: 60, y: 36, width: 20, height: 20)
            clip.masksToBounds = true; clip.cornerRadius = 6
            let inner = CALayer()
            inner.frame = CGRect(x: -5, y: -5, width: 20, height: 20)
            inner.backgroundColor = TestScene.green
            clip.addSublayer(inner)
            root.addSublayer(clip)
            let spinner = CALayer()
            spinner.frame = CGRect(x: 84, y: 50, width: 8, height: 8)
            spinner.backgroundColor = TestScene.red
            root.addSublayer(spinner)
            let spin = CABasicAnimation(keyPath: "transform.rotation.z")
            spin.fromValue = 0; spin.toValue = Double.pi; spin.duration = 1; spin.repeatCount = .infinity
            spinner.add(spin, forKey: "spin")
            let slide = CABasicAnimation(keyPath: "position.x")
            slide.fromValue = 20; slide.toValue = 40; slide.beginTime = 0.3; slide.duration = 0.4
            slider.add(slide, forKey: "slide")
            CATransaction.flush()
            let compositor = Compositor(threadCount: threads, bandHeight: 16)
            let fresh = Compositor(threadCount: threads, bandHeight: 16)
            fresh.reusesPlans = false
            var reuse = RenderTreeReuse()
            var reused: [Int] = []
            for t in [0.05, 0.1, 0.2, 0.35, 0.5, 0.8, 0.9] {
                loop.advance(to: t)
                let tree = root.makeRenderTree(reusing: &reuse)
                var a = PixelBuffer(width: 96, height: 64), b = PixelBuffer(width: 96, height: 64)
                try compositor.render(tree, into: &a, background: .white)
                try fresh.render(tree, into: &b, background: .white)
                #expect(a == b, "t = \(t), \(threads) threads")
                reused.append(compositor.sublayerRunsReused)
            }
            #expect(reused[0] == 0 && reused.dropFirst().allSatisfy { $0 >= 300 }, "\(reused)")
            // While the slider moves (0.35, 0.5) its run is not reused; the 300 tiles' are.
            #expect(reused[3] < reused[2] && reused[4] < reused[2], "\(reused)")
            #expect(fresh.sublayerRunsReused == 0)
        }
    }

    @Test func theCompositorReusesThePlanOfTheSameSnapshotWithTheSameBytes() throws {
        let tree = VirtualRunLoop().run { Self.tree().root.makeRenderTree() }
        let other = VirtualRunLoop().run { () -> RenderLayer in
            let t = Self.tree(); t.card.backgroundColor = TestScene.red; return t.root.makeRenderTree()
        }
        for threads in [1, 2, 3] {
            let c = Compositor(threadCount: threads, bandHeight: 8)
            let fresh = Compositor(threadCount: threads, bandHeight: 8)
            fresh.reusesPlans = false
            let first = try Self.pixels(tree, c)
            #expect(!c.reusedPlan)
            let second = try Self.pixels(tree, c)
            #expect(c.reusedPlan)
            let third = try Self.pixels(tree, fresh)
            #expect(first == second && second == third)
            #expect(!fresh.reusedPlan)
            // Another snapshot, then another size: planned again.
            let o1 = try Self.pixels(other, c), o2 = try Self.pixels(other, fresh)
            #expect(o1 == o2)
            #expect(!c.reusedPlan)
            var big = PixelBuffer(width: 80, height: 60)
            try c.render(other, into: &big, background: .white)
            #expect(!c.reusedPlan)
            var bigFresh = PixelBuffer(width: 80, height: 60)
            try fresh.render(other, into: &bigFresh, background: .white)
            #expect(big == bigFresh)
            // A different scale is another plan too.
            try c.render(other, into: &big, scale: 2, background: .white)
            #expect(!c.reusedPlan)
        }
    }

    /// A recording with static stretches, changes made by events (with and without implicit
    /// animations) and a layer added mid-way: every frame equals the frame recorded alone
    /// (which builds its one snapshot from scratch), and the static stretches did reuse.
    @Test func aRecordingWithStaticStretchesEqualsFramesRenderedAlone() throws {
        func scene(_ frames: ClosedRange<Int>) -> Recorder {
            VirtualRunLoop().run {
                let (root, card, shape, _) = Self.tree()
                let rec = Recorder(root: root, settings: RecordingSettings(width: 64, height: 48, scale: 1, fps: 10,
                                                                            frames: frames, background: .white))
                rec.at(0.5) { CATransaction.setDisableActions(true); card.backgroundColor = TestScene.green }
                rec.at(0.95) {
                    CATransaction.setDisableActions(true)
                    let l = CALayer(); l.frame = CGRect(x: 50, y: 30, width: 10, height: 10); l.backgroundColor = TestScene.red
                    root.addSublayer(l)
                }
                rec.at(1.2) { shape.position = CGPoint(x: 40, y: 20) }     // implicit: 0.25 s
                return rec
            }
        }
        let full = MemoryFrameSink()
        let rec = scene(0...19)
        try rec.record(to: full)
        #expect(rec._snapshotsTaken == 20)
        #expect(rec._snapshotsReused >= 12, "static stretches 0–4, 5–9, 10–11, 15–19 reuse")
        #expect(rec._plansReused == rec._snapshotsReused)
        let frames = (0...19).compactMap { full.image($0) }
        #expect(Set(frames).count >= 5)
        for n in 0...19 {
            let alone = MemoryFrameSink()
            try scene(n...n).record(to: alone)
            #expect(alone.image(n) == full.image(n), "frame \(n)")
        }
        // A scene with an animation that never ends reuses nothing (and keeps no plan).
        let animated = seekScene(frames: 0...5)
        try animated.record(to: NullFrameSink())
        #expect(animated._snapshotsReused == 0 && animated._plansReused == 0)
        // The change at 0.5 s shows from frame 5 on (the card's centre pixel).
        let at = { (n: Int) in full.image(n).map { $0[10, 10] } }
        #expect(at(4) != at(5) && at(5) == at(9))
    }
}

/// Draws a red square (the "display" change of `everyKindOfChangeBuildsAgain`).
private final class _ReusePainter: NSObject, CALayerDelegate {
    func draw(_ layer: CALayer, in ctx: CGContext) {
        ctx.setFillColor(TestScene.red); ctx.fill(CGRect(x: 0, y: 0, width: 10, height: 10))
    }
}
