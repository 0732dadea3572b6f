import Testing
import FlipbookTesting
@testable import FlipbookRender
@testable import Flipbook
import FlipbookPixels
import Foundation

/// `CAEmitterLayer` / `CAEmitterCell`: Apple's defaults, particles as a function of time
/// (counts, motion, colour), the same frame whatever was rendered before, a bounded answer to
/// a hostile birth rate, and reference frames of a confetti burst.
@Suite struct EmitterLayerTests {
    /// A 6×6 opaque white square image.
    static let dot: CGImage = {
        var pb = PixelBuffer(width: 6, height: 6)
        pb.fill(RGBA8(r: 255, g: 255, b: 255, a: 255))
        return CGImage(pixelBuffer: pb)
    }()

    @Test func defaultsAreApples() {
        VirtualRunLoop().run {
            let e = CAEmitterLayer()
            #expect(e.birthRate == 1 && e.lifetime == 1 && e.velocity == 1 && e.scale == 1 && e.spin == 1 && e.seed == 0)
            #expect(e.emitterShape == .point && e.emitterMode == .volume && e.renderMode == .unordered)
            #expect(e.emitterPosition == .zero && e.emitterSize == .zero && e.emitterCells == nil && !e.preservesDepth)
            let c = CAEmitterCell()
            #expect(c.birthRate == 0 && c.lifetime == 0 && c.scale == 1 && c.isEnabled && c.velocity == 0)
            #expect(c.color == CGColor(red: 1, green: 1, blue: 1, alpha: 1) && c.contentsRect == CGRect(x: 0, y: 0, width: 1, height: 1))
            #expect(CAEmitterCell.defaultValue(forKey: "scale") as? CGFloat == 1)
            e.setValue(2, forKey: "birthRate")
            #expect(e.birthRate == 2)
        }
    }

    static func emitter(rate: Float = 10, life: Float = 1, velocity: CGFloat = 0, configure: (CAEmitterCell) -> Void = { _ in }) -> CAEmitterLayer {
        let e = CAEmitterLayer()
        e.frame = CGRect(x: 0, y: 0, width: 200, height: 100)
        e.emitterPosition = CGPoint(x: 20, y: 50)
        let c = CAEmitterCell()
        c.birthRate = rate
        c.lifetime = life
        c.velocity = velocity
        c.contents = dot
        configure(c)
        e.emitterCells = [c]
        return e
    }

    /// 10 per second living 1 s: ten particles on screen at any time after the first second;
    /// the newest at the emitter, the oldest 100 · 0.9 = 90 points along +x.
    @Test func countsAndMotionFollowTheClosedForm() {
        VirtualRunLoop().run {
            let e = Self.emitter(velocity: 100)
            let nodes = e.makeRenderTree(at: 2).sublayers
            #expect(nodes.count == 10)
            let xs = nodes.map { $0.position.x }.sorted()
            #expect(abs(xs.first! - 20) < 1e-9 && abs(xs.last! - 110) < 1e-9)
            // Acceleration: ½·g·a² downwards (y down), and the colour speed fades alpha.
            let g = Self.emitter(rate: 1, life: 10) { c in c.yAcceleration = 40; c.alphaSpeed = -0.25 }
            let p = g.makeRenderTree(at: 2).sublayers.first { abs($0.position.y - 50) > 1e-9 }!   // born at 0: age 2
            #expect(abs(p.position.y - (50 + 0.5 * 40 * 4)) < 1e-9)
            #expect(abs(Double(p.tint!.alpha) - 0.5) < 1e-6)
        }
    }

    /// The particles at time t do not depend on the frames rendered before: a recording of
    /// frames 0…60 and one of frame 45 alone give frame 45 the same bytes; t = 0.5, 1, 2 s
    /// through the recorder equal the snapshots at those times.
    @Test func framesAreAFunctionOfTime() throws {
        let loop = VirtualRunLoop()
        try loop.run {
            let e = Self.emitter(rate: 40, life: 1.5, velocity: 60) { c in
                c.emissionRange = .pi; c.velocityRange = 30; c.spin = 2; c.spinRange = 3; c.scaleRange = 0.5
                c.redRange = 0.5; c.greenRange = 0.5
            }
            e.seed = 7
            loop.attach(e)
            loop.endTurn()
            let comp = Compositor(threadCount: 1)
            var frames: [PixelBuffer] = []
            for t in [0.5, 1.0, 2.0] {
                frames.append(try comp.render(e.makeRenderTree(at: loop.currentTime + t), width: 200, height: 100))
            }
            // Rendering other times first changes nothing.
            _ = try comp.render(e.makeRenderTree(at: loop.currentTime + 7.3), width: 200, height: 100)
            #expect(try comp.render(e.makeRenderTree(at: loop.currentTime + 1.0), width: 200, height: 100) == frames[1])
            #expect(try Compositor(threadCount: 3, bandHeight: 9).render(e.makeRenderTree(at: loop.currentTime + 2.0), width: 200, height: 100) == frames[2])
            #expect(frames[0] != frames[1])
        }
        // Through the recorder, each in a scene of its own (a recorder drives its tree's clock).
        func record(_ frames: ClosedRange<Int>) throws -> MemoryFrameSink {
            let l = VirtualRunLoop()
            return try l.run {
                let e = Self.emitter(rate: 40, life: 1.5, velocity: 60) { c in c.emissionRange = .pi; c.spin = 2 }
                e.seed = 7
                let sink = MemoryFrameSink()
                _ = try Recorder(root: e, settings: RecordingSettings(width: 200, height: 100, fps: 30, frames: frames)).record(to: sink)
                return sink
            }
        }
        let full = try record(0...60), alone = try record(45...45)
        #expect(full.image(45) != nil && full.image(45) == alone.image(45))
        #expect(full.image(15) != full.image(45))
    }

    /// A hostile birth rate and lifetime: at most 100,000 particles, in bounded time.
    @Test func hostileRatesAreBounded() {
        VirtualRunLoop().run {
            let e = Self.emitter(rate: 1e9, life: 1e9)
            #expect(e.makeRenderTree(at: 5).sublayers.count == CAEmitterLayer.maximumParticlesPerCell)
            let inf = Self.emitter(rate: .infinity, life: .nan)
            #expect(inf.makeRenderTree(at: 5).sublayers.isEmpty)
        }
    }

    /// Confetti: a line emitter at the top, coloured squares falling and spinning.
    static func confetti(_ loop: VirtualRunLoop) -> CALayer {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 160, height: 120)
        let e = CAEmitterLayer()
        e.frame = root.bounds
        e.emitterPosition = CGPoint(x: 80, y: -5)
        e.emitterShape = .line
        e.emitterSize = CGSize(width: 160, height: 1)
        e.seed = 3
        var cells: [CAEmitterCell] = []
        for (i, color) in [CGColor(red: 1, green: 0.3, blue: 0.3, alpha: 1), CGColor(red: 0.3, green: 0.8, blue: 1, alpha: 1),
                           CGColor(red: 1, green: 0.85, blue: 0.2, alpha: 1)].enumerated() {
            let c = CAEmitterCell()
            c.name = "c\(i)"
            c.birthRate = 12
            c.lifetime = 3
            c.velocity = 40
            c.velocityRange = 20
            c.emissionLongitude = .pi / 2
            c.emissionRange = .pi / 6
            c.yAcceleration = 30
            c.spin = 3
            c.spinRange = 4
            c.scale = 1
            c.scaleRange = 0.4
            c.color = color
            c.contents = dot
            cells.append(c)
        }
        e.emitterCells = cells
        root.addSublayer(e)
        loop.attach(root)
        loop.endTurn()
        return root
    }

    @Test func confettiFrames() {
        let loop = VirtualRunLoop()
        loop.run {
            let root = Self.confetti(loop)
            let t0 = loop.currentTime
            assertRenderings(of: root, at: [t0 + 0.5, t0 + 1, t0 + 2], size: CGSize(width: 160, height: 120),
                             background: RGBA8(r: 20, g: 22, b: 28, a: 255), named: "confetti")
        }
    }
}

extension EmitterLayerTests {
    /// Births along a line emitter spread over the whole line (the hash is uniform enough that
    /// 300 particles fill each fifth of it).
    @Test func lineEmitterSpreadsUniformly() {
        VirtualRunLoop().run {
            let e = Self.emitter(rate: 100, life: 10)
            e.emitterShape = .line
            e.emitterSize = CGSize(width: 200, height: 0)
            e.emitterPosition = CGPoint(x: 100, y: 50)
            let xs = e.makeRenderTree(at: 3).sublayers.map { Double($0.position.x) }
            #expect(xs.count == 301)          // births at 0, 0.01, …, 3.0 (the one at t itself has age 0)
            var bins = [Int](repeating: 0, count: 5)
            for x in xs { bins[min(4, max(0, Int(x / 40)))] += 1 }
            #expect(bins.allSatisfy { $0 > 40 && $0 < 80 }, "\(bins)")
        }
    }
}
