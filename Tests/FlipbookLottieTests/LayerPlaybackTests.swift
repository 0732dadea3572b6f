import Testing
import Foundation
import FlipbookPixels
import FlipbookRender
@testable import FlipbookLottie

/// LottieAnimationLayer's playback API on the virtual clock: the frame shown at given times
/// (read from the drawn tree, not only from `currentFrame`), loop modes, speeds, completions.
@Suite struct LayerPlaybackTests {
    /// A 100-frame, 10 fps composition whose solid "a" is at x = frame number.
    static func composition(markers: [LottieMarker] = []) -> LottieComposition {
        var t = LT.transform()
        t.position = .combined(LT.animated(LT.kf(0, [0, 0]), LT.kf(100, [100, 0])))
        var solid = LT.solid(transform: t)
        solid.name = "a"
        var c = LT.composition(w: 200, h: 20, [solid])
        c.markers = markers
        return c
    }

    /// A LottieAnimationLayer attached to its own run loop (time 0), and what it draws.
    final class Player {
        let loop = VirtualRunLoop()
        let layer: LottieAnimationLayer
        /// Completions: (finished, run-loop time).
        var completions: [(Bool, Double)] = []

        init(_ c: LottieComposition = LayerPlaybackTests.composition()) {
            let loop = self.loop
            layer = loop.run {
                let l = LottieAnimationLayer(animation: LottieAnimation(composition: c), logger: .silent)
                loop.attach(l)
                loop.endTurn()
                return l
            }
        }

        /// A completion block recording when it ran.
        func done() -> LottieCompletionBlock {
            { [unowned self] finished in self.completions.append((finished, CACurrentMediaTime())) }
        }

        func run(_ body: () -> Void) { loop.run { body(); loop.endTurn() } }
        func advance(to t: Double) { loop.run { loop.advance(to: t) } }

        /// The frame drawn at time `t`: solid "a"'s x in the composition.
        func drawnFrame(at t: Double) -> Double {
            loop.run {
                let tree = layer.makeRenderTree(at: t)
                func find(_ n: RenderLayer, _ trail: [RenderLayer]) -> [RenderLayer]? {
                    if n.name == "a" { return trail + [n] }
                    for s in n.sublayers { if let r = find(s, trail + [n]) { return r } }
                    return nil
                }
                // Below the animation layer itself: its content is in composition coordinates
                // (bounds = the composition's, so no scale).
                let chain = Array(find(tree, [])!.dropFirst(2))
                let m = chain.reversed().reduce(CATransform3DIdentity) { $0 * LT.localToParent($1) }
                return (LT.apply(m, .zero).x * 1e6).rounded() / 1e6
            }
        }

        func frame() -> Double { loop.run { Double(layer.currentFrame) } }
    }

    @Test func newLayerShowsTheFirstFramePaused() {
        let p = Player()
        #expect(p.layer.bounds == CGRect(x: 0, y: 0, width: 200, height: 20))
        #expect(p.drawnFrame(at: 3) == 0)
        #expect(p.frame() == 0)
        #expect(!p.layer.isAnimationPlaying)
    }

    /// Setting currentFrame pauses there, whatever the time.
    @Test func currentFrameSetAndGet() {
        let p = Player()
        p.run { p.layer.currentFrame = 30 }
        #expect(p.drawnFrame(at: 0) == 30 && p.drawnFrame(at: 50) == 30)
        p.advance(to: 7)
        #expect(p.frame() == 30)
        p.run { p.layer.currentProgress = 0.25 }
        #expect(p.frame() == 25 && p.drawnFrame(at: 7) == 25)
        p.run { p.layer.currentTime = 4.5 }
        #expect(p.frame() == 45 && p.drawnFrame(at: 100) == 45)
    }

    /// play(fromFrame:toFrame:) at time 1: frame 10 + 10·(t − 1), held at 50 from t = 5; the
    /// completion is called with true at exactly t = 5.
    @Test func playFromFrameToFrame() {
        let p = Player()
        p.advance(to: 1)
        p.run { p.layer.play(fromFrame: 10, toFrame: 50, completion: p.done()) }
        #expect(p.layer.isAnimationPlaying)
        #expect(p.drawnFrame(at: 1) == 10)
        #expect(p.drawnFrame(at: 2.25) == 22.5)
        #expect(p.drawnFrame(at: 5) == 50)
        #expect(p.drawnFrame(at: 9) == 50)
        p.advance(to: 3)
        #expect(p.frame() == 30)
        #expect(p.completions.isEmpty)
        p.advance(to: 10)
        #expect(p.completions.count == 1)
        #expect(p.completions.first?.0 == true && p.completions.first?.1 == 5)
        #expect(!p.layer.isAnimationPlaying)
        #expect(p.frame() == 50)
    }

    /// A range given backwards plays backwards.
    @Test func playBackwardsRange() {
        let p = Player()
        p.run { p.layer.play(fromFrame: 50, toFrame: 10, completion: p.done()) }
        #expect(p.drawnFrame(at: 0) == 50)
        #expect(p.drawnFrame(at: 1) == 40)
        #expect(p.drawnFrame(at: 4) == 10)
        #expect(p.drawnFrame(at: 6) == 10)
        p.advance(to: 6)
        #expect(p.completions.map(\.1) == [4])
    }

    @Test func loopModes() {
        // .loop: 0 → 20 again and again; never completes.
        let loop = Player()
        loop.run { loop.layer.play(fromFrame: 0, toFrame: 20, loopMode: .loop, completion: loop.done()) }
        #expect(loop.drawnFrame(at: 2.5) == 5)
        #expect(loop.drawnFrame(at: 101.5) == 15)
        loop.advance(to: 1000)
        #expect(loop.completions.isEmpty && loop.layer.isAnimationPlaying)
        #expect(loop.layer.loopMode == .loop)

        // .autoReverse: forwards then backwards.
        let auto = Player()
        auto.run { auto.layer.play(fromFrame: 0, toFrame: 20, loopMode: .autoReverse) }
        #expect(auto.drawnFrame(at: 1) == 10)
        #expect(auto.drawnFrame(at: 3) == 10)
        #expect(auto.drawnFrame(at: 4) == 0)
        #expect(auto.drawnFrame(at: 5) == 10)

        // .repeat(2): twice, then held on the last frame; completed at 4 s.
        let twice = Player()
        twice.run { twice.layer.play(fromFrame: 0, toFrame: 20, loopMode: .repeat(2), completion: twice.done()) }
        #expect(twice.drawnFrame(at: 3) == 10)
        #expect(twice.drawnFrame(at: 5) == 20)
        twice.advance(to: 5)
        #expect(twice.completions.map(\.1) == [4] && twice.completions.map(\.0) == [true])

        // .repeat(1.5): ends half-way through the second pass.
        let half = Player()
        half.run { half.layer.play(fromFrame: 0, toFrame: 20, loopMode: .repeat(1.5), completion: half.done()) }
        #expect(half.drawnFrame(at: 9) == 10)
        half.advance(to: 9)
        #expect(half.completions.map(\.1) == [3])

        // .repeatBackwards(1): there and back once (lottie-ios: autoreverses, repeatCount 1).
        let back = Player()
        back.run { back.layer.play(fromFrame: 0, toFrame: 20, loopMode: .repeatBackwards(1), completion: back.done()) }
        #expect(back.drawnFrame(at: 3) == 10)
        #expect(back.drawnFrame(at: 4.5) == 0)
        back.advance(to: 9)
        #expect(back.completions.map(\.1) == [4])
        #expect(back.frame() == 0)
    }

    /// animationSpeed scales time; a negative speed plays the range backwards.
    @Test func animationSpeed() {
        let fast = Player()
        fast.run { fast.layer.animationSpeed = 2; fast.layer.play(fromFrame: 0, toFrame: 40, completion: fast.done()) }
        #expect(fast.drawnFrame(at: 1) == 20)
        fast.advance(to: 5)
        #expect(fast.completions.map(\.1) == [2])

        let reverse = Player()
        reverse.run { reverse.layer.animationSpeed = -1; reverse.layer.play(fromFrame: 0, toFrame: 40) }
        #expect(reverse.drawnFrame(at: 0) == 40)
        #expect(reverse.drawnFrame(at: 1) == 30)

        // Changing the speed during a play continues from the frame shown.
        let change = Player()
        change.run { change.layer.play(fromFrame: 0, toFrame: 80, completion: change.done()) }
        change.advance(to: 2)
        change.run { change.layer.animationSpeed = 2 }
        #expect(change.drawnFrame(at: 2) == 20)
        #expect(change.drawnFrame(at: 3) == 40)
        change.advance(to: 10)
        #expect(change.completions.map(\.0) == [true] && change.completions.map(\.1) == [5])
    }

    /// An interrupted play completes with false at the time it is interrupted; pause keeps the
    /// frame, stop returns to the first frame, and play() resumes from the paused frame.
    @Test func interruptionPauseStopAndResume() {
        let p = Player()
        p.run { p.layer.play(fromFrame: 0, toFrame: 50, completion: p.done()) }
        p.advance(to: 2)
        p.run { p.layer.pause() }
        #expect(p.completions.count == 1 && p.completions[0].0 == false && p.completions[0].1 == 2)
        #expect(p.drawnFrame(at: 8) == 20 && !p.layer.isAnimationPlaying)

        // Resume: play() starts from the paused frame (it is inside the range) to the end.
        p.run { p.layer.play(completion: p.done()) }
        #expect(p.drawnFrame(at: 3) == 30)
        p.advance(to: 3)
        // Another play interrupts it.
        p.run { p.layer.play(fromFrame: 60, toFrame: 70, completion: p.done()) }
        p.advance(to: 3)
        #expect(p.completions.count == 2 && p.completions[1].0 == false && p.completions[1].1 == 3)
        p.advance(to: 3.5)
        p.run { p.layer.stop() }
        #expect(p.completions.count == 3 && p.completions[2] == (false, 3.5))
        #expect(p.drawnFrame(at: 10) == 0)

        // Changing the loop mode during a play continues it from the frame shown (no
        // completion); a play that sets the loop mode interrupts the one in flight once
        // (false) and, starting inside its range, resumes from the frame shown (5 → 10).
        p.run { p.layer.play(fromFrame: 0, toFrame: 30, completion: p.done()) }
        p.advance(to: 4)
        p.run { p.layer.loopMode = .repeat(2) }
        #expect(p.completions.count == 3 && p.drawnFrame(at: 4) == 5 && p.drawnFrame(at: 7) == 5)
        p.run { p.layer.play(fromFrame: 0, toFrame: 10, loopMode: .playOnce, completion: p.done()) }
        p.advance(to: 4.5)
        #expect(p.completions.count == 5 && p.completions[3] == (false, 4) && p.completions[4] == (true, 4.5))
        p.advance(to: 5)

        // Setting currentFrame interrupts too.
        p.run { p.layer.play(fromFrame: 0, toFrame: 30, completion: p.done()) }
        p.advance(to: 6)
        p.run { p.layer.currentFrame = 77 }
        #expect(p.completions.count == 6 && p.completions[5] == (false, 6))
    }

    /// Markers: play(fromMarker:toMarker:) and play(marker:).
    @Test func markers() {
        let c = Self.composition(markers: [LottieMarker(name: "intro", frame: 10, duration: 20), LottieMarker(name: "outro", frame: 60, duration: 5)])
        let p = Player(c)
        #expect(p.layer.frameTime(forMarker: "outro") == 60)
        #expect(p.layer.progressTime(forMarker: "intro") == 0.1)
        p.run { p.layer.play(fromMarker: "intro", toMarker: "outro", completion: p.done()) }
        #expect(p.drawnFrame(at: 0) == 10 && p.drawnFrame(at: 2) == 30 && p.drawnFrame(at: 6) == 60)
        p.advance(to: 6)
        #expect(p.completions.map(\.1) == [5])

        let q = Player(c)
        q.run { q.layer.play(marker: "intro", completion: q.done()) }
        #expect(q.drawnFrame(at: 1) == 20 && q.drawnFrame(at: 9) == 30)
        q.run { q.layer.play(fromMarker: "intro", toMarker: "outro", playEndMarkerFrame: false) }
        #expect(q.drawnFrame(at: 9) == 59)

        // Unknown markers: nothing happens.
        let r = Player(c)
        r.run { r.layer.play(toMarker: "nope", completion: r.done()) }
        #expect(!r.layer.isAnimationPlaying && r.completions.isEmpty)
    }

    /// The layer works inside any tree, with its own animatable geometry, and a Recorder's
    /// frame k is the tree at k / fps.
    @Test func recordsInsideALayerTree() throws {
        let loop = VirtualRunLoop()
        let (root, anim) = loop.run { () -> (CALayer, LottieAnimationLayer) in
            let root = CALayer()
            root.bounds = CGRect(x: 0, y: 0, width: 100, height: 20)
            root.position = CGPoint(x: 50, y: 10)
            let c = Self.composition()
            let anim = LottieAnimationLayer(animation: LottieAnimation(composition: c), logger: .silent)
            anim.frame = CGRect(x: 0, y: 0, width: 100, height: 10)   // half size: aspect fit
            root.addSublayer(anim)
            anim.play()
            return (root, anim)
        }
        let sink = MemoryFrameSink()
        let recorder = Recorder(root: root, settings: RecordingSettings(width: 100, height: 20, fps: 10, frames: 0...30, background: nil))
        recorder.at(2) {
            // The layer's own opacity animates like any layer's.
            anim.opacity = 0.5
        }
        _ = try recorder.record(to: sink)
        // Frame 20: composition frame 20 → the red 10×10 solid at x = 20, drawn at half scale
        // (5×5 at x = 10 … 15, y = 0 … 5).
        let f20 = sink.frames[20].image
        #expect(f20[12, 2].r == 255 && f20[12, 2].a == 255)
        #expect(f20[16, 2].a == 0 && f20[9, 2].a == 0 && f20[12, 6].a == 0)
        #expect(sink.frames[5].image[4, 2].r == 255)
        // After the implicit 0.25 s fade to 0.5 (started at 2 s), frame 30 is half transparent.
        #expect(abs(Int(sink.frames[30].image[17, 2].a) - 128) <= 1)
    }
}

/// The render helper of the command line and the benchmarks.
@Suite struct LottieRenderingTests {
    /// Fitted into 100 × 100, a 200 × 20 composition is drawn at half size, centred
    /// vertically (y 45 … 55); frame k is the tree at k / fps.
    @Test func fitCentresAndFrameKIsAtKOverFps() throws {
        let loop = VirtualRunLoop()
        let scene = loop.run {
            LottieRendering.scene(for: LottieAnimation(composition: LayerPlaybackTests.composition()),
                                  size: .fit(width: 100, height: 100), background: CGColor(red: 0, green: 0, blue: 1, alpha: 1),
                                  logger: .silent)
        }
        #expect(scene.frameCount == 100 && scene.framerate == 10 && scene.size == CGSize(width: 100, height: 100))
        #expect(scene.time(ofFrame: 40) == 4)
        let px = try loop.run { try Compositor(threadCount: 1).render(scene.root.makeRenderTree(at: scene.time(ofFrame: 40)), width: 100, height: 100) }
        // Composition frame 40: the 10 × 10 solid at x = 40 → 20 … 25, y 45 … 50.
        #expect(px.rgba(22, 47) == [255, 0, 0, 255])
        #expect(px.rgba(26, 47) == [0, 0, 255, 255])
        #expect(px.rgba(22, 51) == [0, 0, 255, 255])

        let scaled = loop.run {
            LottieRendering.scene(for: LottieAnimation(composition: LayerPlaybackTests.composition()), size: .scale(2), logger: .silent)
        }
        #expect(scaled.size == CGSize(width: 400, height: 40))
        let big = try loop.run { try Compositor(threadCount: 1).render(scaled.root.makeRenderTree(at: scaled.time(ofFrame: 10)), width: 400, height: 40) }
        #expect(big.rgba(21, 10) == [255, 0, 0, 255] && big.rgba(41, 10)[3] == 0 && big.rgba(39, 19) == [255, 0, 0, 255])
    }
}
