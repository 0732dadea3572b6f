import Flipbook
import FlipbookPixels
import FlipbookRender
import Foundation

/// `emitter`: issue 15's particle workload — one `CAEmitterLayer` at 1080p with about 10,000
/// live particles (two cells of 2,500 births/s living 2 s, an 8×8 white image tinted by each
/// cell's colour, spinning, falling from a line along the top), rendered at t = 3 s and on:
/// each frame takes the snapshot (which computes the particles) and composites it, as a
/// recording does. Reported per frame, with `--threads`.
extension BenchWorkloads {
    static func emitterScene() -> CALayer {
        let root = canvasLayer()
        let e = CAEmitterLayer()
        e.frame = root.bounds
        e.emitterPosition = CGPoint(x: 960, y: 0)
        e.emitterShape = .line
        e.emitterSize = CGSize(width: 1920, height: 1)
        e.seed = 15
        var image = PixelBuffer(width: 8, height: 8)
        image.fill(RGBA8(r: 255, g: 255, b: 255, a: 255))
        let piece = CGImage(pixelBuffer: image)
        e.emitterCells = [CGColor(red: 1, green: 0.4, blue: 0.4, alpha: 1), CGColor(red: 0.3, green: 0.75, blue: 1, alpha: 1)].map { color in
            let c = CAEmitterCell()
            c.birthRate = 2500
            c.lifetime = 2
            c.velocity = 300
            c.velocityRange = 150
            c.emissionLongitude = .pi / 2
            c.emissionRange = .pi / 5
            c.yAcceleration = 200
            c.spin = 2
            c.spinRange = 4
            c.color = color
            c.contents = piece
            return c
        }
        root.addSublayer(e)
        return root
    }

    func emitter() throws -> [BenchResult] {
        let loop = VirtualRunLoop()
        let root = loop.run { Self.emitterScene() }
        let compositor = Compositor(threadCount: threads)
        var buffer = PixelBuffer(width: 1920, height: 1080)
        let bg = RGBA8(r: 20, g: 22, b: 28, a: 255)
        var t = 3.0, live = 0
        let s = try loop.run {
            try benchLoop(warmups: warmups, frames: frames) {
                let tree = root.makeRenderTree(at: t)
                try compositor.render(tree, into: &buffer, background: bg)
                t += 1.0 / 60
            }
        }
        // Counted once, untimed: the emitter node's `sublayers` builds a node per particle (the
        // snapshot keeps them as flat records).
        live = loop.run { root.makeRenderTree(at: t - 1.0 / 60).sublayers.first?.sublayers.count ?? 0 }
        save("emitter", buffer)
        return [result("emitter", s, pixels: live * 64, threads: threads,
                       note: "\(live) live particles, snapshot + composite per frame; \(BenchReport.fixed(1000 / s.medianMs, 1)) fps")]
    }
}
