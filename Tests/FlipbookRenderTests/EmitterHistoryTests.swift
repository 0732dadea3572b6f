import Testing
import FlipbookTesting
@testable import FlipbookRender
@testable import Flipbook
import FlipbookPixels
import Foundation

/// What a particle reads is sampled at its birth: an emitter stopped or changed later leaves
/// the particles already alive as they were (the history of `CAEmitterLayer`), and
/// `emitterCells.<name>.<key>` key paths read, set and animate cells.
@Suite struct EmitterHistoryTests {
    static let background = RGBA8(r: 20, g: 22, b: 28, a: 255)

    static func render(_ root: CALayer, at t: Double) throws -> PixelBuffer {
        try Compositor(threadCount: 1).render(root.makeRenderTree(at: t), width: 160, height: 120, background: background)
    }

    static func emitter(of root: CALayer) -> CAEmitterLayer { root.sublayers![0] as! CAEmitterLayer }

    /// Particle positions of an emitter's snapshot (its particle nodes), sorted.
    static func positions(_ e: CAEmitterLayer, at t: Double) -> [CGPoint] {
        (e.makeRenderTree(at: t).particles?.items.map(\.position) ?? []).sorted { ($0.x, $0.y) < ($1.x, $1.y) }
    }

    /// SAConfettiView's `stopConfetti()` is `emitter?.birthRate = 0`: on iOS the confetti
    /// already falling keeps falling until its lifetime ends; only new births stop. Stopped at
    /// t = 1 s (actions disabled: no implicit fade), every later frame equals — byte for byte —
    /// the same confetti whose cells emit only for the first second (`duration` just under 1),
    /// and 0.5 s later the 3 × 12 particles born before the stop are all on screen.
    @Test func stoppingKeepsTheParticlesAlreadyBorn() throws {
        let loop = VirtualRunLoop()
        try loop.run {
            let root = EmitterLayerTests.confetti(loop)
            let e = Self.emitter(of: root)
            loop.advance(to: 1)
            CATransaction.setDisableActions(true)
            e.birthRate = 0
            loop.endTurn()
            #expect(e.makeRenderTree(at: 1.5).particles?.items.count == 36)
            #expect(e.makeRenderTree(at: 4.1).particles == nil)     // all dead after their 3 s

            let refLoop = VirtualRunLoop()
            let reference = refLoop.run { EmitterLayerTests.confetti(refLoop) }
            for c in Self.emitter(of: reference).emitterCells! { c.duration = 1 - 1e-9 }
            for t in [0.5, 1.0, 1.5, 2.5, 3.9] {
                let expected = try refLoop.run { try Self.render(reference, at: t) }
                #expect(try Self.render(root, at: t) == expected, "t = \(t)")
            }
            #expect(try Self.render(root, at: 1.5) != Self.render(root, at: 2.5))
        }
    }

    /// The same stop on a live layer, exactly as SAConfettiView does it (no transaction): the
    /// change animates implicitly (Flipbook's `birthRate` is animatable, as Apple documents it),
    /// so births fade out over 0.25 s. The particles born before 1 s are where they are when
    /// the stop is abrupt, a few more were born during the fade, and they all stay after the
    /// implicit animation is gone.
    @Test func anImplicitFadeOnlyAddsTheParticlesBornWhileItRuns() {
        func stopped(disablingActions: Bool) -> (VirtualRunLoop, CAEmitterLayer) {
            let loop = VirtualRunLoop()
            let e = loop.run {
                let e = Self.emitter(of: EmitterLayerTests.confetti(loop))
                loop.advance(to: 1)
                if disablingActions { CATransaction.setDisableActions(true) }
                e.birthRate = 0
                loop.endTurn()
                return e
            }
            return (loop, e)
        }
        let (abruptLoop, abrupt) = stopped(disablingActions: true)
        let (fadeLoop, fade) = stopped(disablingActions: false)
        fadeLoop.run {
            #expect(fade.animation(forKey: "birthRate") != nil)
            fadeLoop.advance(to: 1.6)                                // the fade ended at 1.25 and was removed
            #expect(fade.animation(forKey: "birthRate") == nil)
        }
        let before = abruptLoop.run { Self.positions(abrupt, at: 1.6) }
        let after = fadeLoop.run { Self.positions(fade, at: 1.6) }
        #expect(before.count == 36)
        #expect(after.count > 36 && after.count <= 36 + 9, "\(after.count)")   // ≤ 3 cells × 12/s × 0.25 s
        #expect(before.allSatisfy { p in after.contains { abs($0.x - p.x) < 1e-9 && abs($0.y - p.y) < 1e-9 } })
        // None born after the fade: when those born before 1 s are gone only the fade's are
        // left (3 s lifetimes), then none.
        #expect(fadeLoop.run { fade.makeRenderTree(at: 3.95).particles?.items.count ?? 0 } == after.count - 36)
        #expect(fadeLoop.run { fade.makeRenderTree(at: 4.3).particles } == nil)
    }

    /// A frame's pixels depend only on the scene and its time: with the stop as a recorded
    /// event (implicit fade included), frame 45 (t = 1.5) and frame 34 (mid-fade) rendered
    /// alone equal the same frames of a 0…60 recording, and frame 45 differs from the never
    /// stopped confetti's.
    @Test func aStoppedEmitterRecordsTheSameFramesAlone() throws {
        func record(_ frames: ClosedRange<Int>, stop: Bool = true) throws -> MemoryFrameSink {
            let loop = VirtualRunLoop()
            return try loop.run {
                let root = EmitterLayerTests.confetti(loop)
                loop.detach(root)
                let sink = MemoryFrameSink()
                let rec = Recorder(root: root, settings: RecordingSettings(width: 160, height: 120, fps: 30, frames: frames,
                                                                            background: .white))
                if stop { rec.at(1.0) { Self.emitter(of: root).birthRate = 0 } }
                _ = try rec.record(to: sink)
                return sink
            }
        }
        let full = try record(0...60)
        for n in [34, 45] {
            let alone = try record(n...n)
            #expect(full.image(n) != nil && full.image(n) == alone.image(n), "frame \(n)")
        }
        #expect(try record(45...45, stop: false).image(45) != full.image(45))
    }

    /// Apple samples a particle's lifetime, velocity and starting point when it is born (the
    /// render server simulates each particle from its birth). The layer's `lifetime` raised from
    /// 1 to 3 at t = 1: at t = 1.85 the one particle of the first second still alive (born at
    /// 0.9, 95 points along) keeps its 1 s lifetime, the nine born since live 3 s. Moving the
    /// emitter and doubling `velocity` then leaves those ten where an unchanged emitter has them.
    @Test func laterChangesOnlyReachLaterBirths() {
        let loop = VirtualRunLoop()
        loop.run {
            let e = EmitterLayerTests.emitter(velocity: 100)     // 10 per second, 1 s, from (20, 50) along +x
            let unchanged = EmitterLayerTests.emitter(velocity: 100)
            unchanged.lifetime = 3
            loop.attach(e)
            loop.attach(unchanged)
            loop.endTurn()
            loop.advance(to: 1)
            CATransaction.setDisableActions(true)
            e.lifetime = 3
            loop.endTurn()
            let xs = Self.positions(e, at: 1.85).map(\.x)
            #expect(xs.count == 10)                                // read at the time drawn (before), all 19 lived
            #expect(xs.contains { abs($0 - 115) < 1e-9 })          // born at 0.9: age 0.95
            #expect(!xs.contains { abs($0 - 125) < 1e-6 })         // born at 0.8: its 1 s is over
            #expect(Self.positions(e, at: 1.85) == Self.positions(unchanged, at: 1.85).filter { $0.x <= 115 + 1e-9 })

            loop.advance(to: 1.8)
            let kept = Self.positions(e, at: 2.0)
            CATransaction.setDisableActions(true)
            e.emitterPosition = CGPoint(x: 20, y: 80)
            e.velocity = 2
            loop.endTurn()
            let moved = Self.positions(e, at: 2.0)
            #expect(moved.filter { $0.y == 50 } == kept.filter { $0.x > 40 + 1e-9 })   // born before 1.8: unchanged
            #expect(moved.contains { $0.y == 80 && abs($0.x - (20 + 200 * 0.1)) < 1e-9 })   // born at 1.9, twice as fast
        }
    }

    /// The common iOS burst (the answer to "Initial particles from CAEmitterLayer don't start at
    /// emitterPosition"): `emitter.beginTime = CACurrentMediaTime()` with `birthRate` turned on,
    /// off again 0.25 s later. The layer's clock restarts at 0 and only the burst's three
    /// particles exist — in either order of the two assignments (the history's times follow
    /// the layer's timing).
    @Test(arguments: [true, false]) func aBurstAfterRestartingTheClock(beginTimeFirst: Bool) {
        let loop = VirtualRunLoop()
        loop.run {
            let e = EmitterLayerTests.emitter(rate: 10, life: 1, velocity: 100)
            e.birthRate = 0
            loop.attach(e)
            loop.endTurn()
            loop.advance(to: 2)
            CATransaction.setDisableActions(true)
            if beginTimeFirst { e.beginTime = CACurrentMediaTime() }
            e.birthRate = 1
            if !beginTimeFirst { e.beginTime = CACurrentMediaTime() }
            loop.advance(to: 2.25)
            CATransaction.setDisableActions(true)
            e.birthRate = 0
            loop.endTurn()
            #expect(Self.positions(e, at: 2.5).map { Double($0.x) } == [50, 60, 70])   // born at 0, 0.1, 0.2 (local)
            #expect(e.makeRenderTree(at: 3.3).particles == nil)
        }
    }

    /// Apple: "The cell name is used when constructing animation key paths that reference the
    /// cell … `emitterCells.myCellName.redRange`" (`CAEmitterCell.name`). Read and set through
    /// KVC, nested cells through `emitterCells.<a>.emitterCells.<b>`, struct components below a
    /// key; a set is a change like any other (already-born particles keep their rate's births;
    /// the action search runs for the key path); a cell's own `value(forKey:)` covers its
    /// declared properties.
    @Test func cellKeyPathsReadAndSet() {
        let loop = VirtualRunLoop()
        loop.run {
            let root = EmitterLayerTests.confetti(loop)
            let e = Self.emitter(of: root)
            let spark = CAEmitterCell()
            spark.name = "spark"
            spark.birthRate = 4
            e.emitterCells![1].emitterCells = [spark]
            #expect(e.value(forKeyPath: "emitterCells.c0.birthRate") as? Float == 12)
            #expect(e.value(forKeyPath: "emitterCells.c1.emitterCells.spark.birthRate") as? Float == 4)
            #expect(e.value(forKeyPath: "emitterCells.c2") as? CAEmitterCell === e.emitterCells![2])
            #expect(e.value(forKeyPath: "emitterCells.c0.contentsRect.size.width") as? CGFloat == 1)
            #expect(e.value(forKeyPath: "emitterCells.nope.birthRate") == nil)

            loop.advance(to: 1)
            let before = e.makeRenderTree(at: 1.5).particles!.items.count
            e.setValue(0, forKeyPath: "emitterCells.c0.birthRate")
            #expect(e.emitterCells![0].birthRate == 0)                           // the cell object changed, as on Apple
            #expect(e.value(forKeyPath: "emitterCells.c0.birthRate") as? Float == 0)
            // c0's 12 born before the change stay; its 7 births in 1…1.5 (at 12/12 … 18/12 s) are gone.
            #expect(e.makeRenderTree(at: 1.5).particles!.items.count == before - 7)
            e.setValue(NSNumber(value: 9), forKeyPath: "emitterCells.c1.emitterCells.spark.birthRate")
            #expect(spark.birthRate == 9)
            e.setValue(0.5, forKeyPath: "emitterCells.c2.contentsRect.size.width")
            #expect(e.emitterCells![2].contentsRect.width == 0.5)

            // The action search runs for the key path.
            e.actions = ["emitterCells.c2.birthRate": CABasicAnimation()]
            e.setValue(6, forKeyPath: "emitterCells.c2.birthRate")
            #expect((e.animation(forKey: "emitterCells.c2.birthRate") as? CABasicAnimation)?.keyPath == "emitterCells.c2.birthRate")

            // A cell's KVC: declared properties (Apple's key `enabled`), sub-cells by key path.
            let c = CAEmitterCell()
            c.setValue(3, forKey: "lifetime")
            c.setValue(false, forKey: "enabled")
            c.setValue(CGRect(x: 0, y: 0, width: 0.5, height: 1), forKey: "contentsRect")
            c.setValue("v", forKey: "custom")
            #expect(c.lifetime == 3 && !c.isEnabled && c.contentsRect.width == 0.5)
            #expect(c.value(forKey: "lifetime") as? Float == 3 && c.value(forKey: "enabled") as? Bool == false)
            #expect(c.value(forKey: "velocity") as? CGFloat == 0 && c.value(forKey: "custom") as? String == "v")
            c.emitterCells = [spark]
            c.setValue(2, forKeyPath: "emitterCells.spark.scale")
            #expect(spark.scale == 2 && c.value(forKeyPath: "emitterCells.spark.scale") as? CGFloat == 2)
        }
    }

    /// `CABasicAnimation(keyPath: "emitterCells.spark.birthRate")` (the cell-name key path of
    /// Apple's `CAEmitterCell.name` documentation) from 0 to 21 over 1 s on a cell whose own
    /// rate is 0: the births integrate the ramp — 10.5 in the second — and those particles
    /// stay after the animation is gone; the presentation copy shows the animated rate without
    /// changing the model's cell.
    @Test func animatingACellKeyPath() {
        let loop = VirtualRunLoop()
        loop.run {
            let e = EmitterLayerTests.emitter(rate: 0, life: 10, velocity: 10)
            e.emitterCells![0].name = "spark"
            loop.attach(e)
            loop.endTurn()
            let a = CABasicAnimation(keyPath: "emitterCells.spark.birthRate")
            a.fromValue = 0
            a.toValue = 21
            a.duration = 1
            e.add(a, forKey: "ramp")
            loop.endTurn()
            loop.advance(to: 0.5)
            #expect(abs((e.presentation()!.value(forKeyPath: "emitterCells.spark.birthRate") as! Float) - 10.5) < 1e-4)
            #expect(e.emitterCells![0].birthRate == 0)
            let mid = e.makeRenderTree(at: 0.5).particles!.items.count
            #expect(mid == 3)                                      // ∫₀^½ 21t dt = 2.625: births 0, 1, 2
            loop.advance(to: 2)
            #expect(e.animation(forKey: "ramp") == nil)
            #expect(e.makeRenderTree(at: 2).particles!.items.count == 11)   // ∫₀¹ 21t dt = 10.5, none since
        }
    }

    /// A hostile scene changes its emitter 1,000 times: the history keeps 256 segments (older
    /// ones are dropped with the births counted before them and the anchor births go on from,
    /// so no later particle moves), and a snapshot costs what 256 segments cost.
    @Test func theHistoryIsBounded() {
        let loop = VirtualRunLoop()
        loop.run {
            let e = EmitterLayerTests.emitter(rate: 10, life: 100, velocity: 10)
            let steady = EmitterLayerTests.emitter(rate: 10, life: 100, velocity: 10)
            loop.attach(e)
            loop.attach(steady)
            loop.endTurn()
            for i in 1...1000 {
                loop.advance(to: Double(i) * 0.01)
                CATransaction.setDisableActions(true)
                e.spin = i.isMultiple(of: 2) ? 1 : 2          // changes nothing births read but the spin
            }
            loop.endTurn()
            let h = e._history!
            #expect(h.closed.count == _EmitterHistory.maximumSegments)
            #expect(h.base.count == 1 && h.base[0].count > 70 && h.base[0].anchor?.eA == 0)   // births go on from t = 0
            // Positions do not depend on spin: the same particles as the steady emitter's, born
            // since the oldest kept segment.
            let kept = Self.positions(e, at: 10.5)
            let all = Self.positions(steady, at: 10.5)
            #expect(kept.count == all.filter { $0.x <= 20 + 10 * (10.5 - h.closed[0].start) + 1e-9 }.count)
            #expect(kept == Array(all.prefix(kept.count)))
        }
    }
}
