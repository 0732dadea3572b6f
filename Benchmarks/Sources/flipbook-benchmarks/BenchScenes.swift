import Flipbook
import FlipbookPixels
import FlipbookRender
import Foundation

/// Layer trees for the benchmark suite beyond the three peer scenes (which come from
/// `PeerWorkloads`): the animated W1 sequence and the sweep scenes. Building a tree is setup
/// (not timed) except in the end-to-end sequence, where a recorder would build one per frame too.
enum BenchScenes {
    /// Covered pixels per frame of the peer scenes (`../shared/peers/README.md`, computed
    /// analytically there: the destination quads clipped to the canvas, overlaps counted).
    static let w1Covered = 4_007_915
    static let w2Covered = 2_073_600
    static let w4Covered = 668_755

    /// The 64 W1 layer images `P(256, 256, i)`, made once.
    static func w1Images() -> [CGImage] {
        (0..<64).map { CGImage(pixelBuffer: PixelBuffer.testPattern(width: 256, height: 256, index: $0)) }
    }

    /// W1 with layer `i` turned by an extra `3·t` degrees in frame `t` (the peers' W5 sequence);
    /// `t = 0` is exactly W1.
    static func animatedW1(frame t: Int, images: [CGImage]) -> RenderLayer {
        let layers = (0..<64).map { i -> RenderLayer in
            let col = i % 8, row = i / 8
            let s = 0.75 + 0.5 * (Double(i % 5) / 4)
            let deg = Double(i * 7 + 3 * t)
            let m = CATransform3DRotate(CATransform3DMakeScale(CGFloat(s), CGFloat(s), 1),
                                        CGFloat(deg * Double.pi / 180), 0, 0, 1)
            return RenderLayer(bounds: CGRect(x: 0, y: 0, width: 256, height: 256),
                                 position: CGPoint(x: (Double(col) + 0.5) * 240, y: (Double(row) + 0.5) * 135),
                                 transform: m, opacity: 0.8, contents: images[i])
        }
        return canvas(layers)
    }

    /// The animated W1 scene as the user-facing pipeline sees it (what `make demo` renders):
    /// a `CALayer` tree of the 64 W1 layers on the 1920×1080 background, each turning once every
    /// 2 s through an infinite linear `transform.rotation.z` animation, recorded for `frames`
    /// frames at 30 fps. A recorder records once, so every run builds a fresh one.
    static func animatedW1Recorder(frames: Int, images: [CGImage]) -> Recorder {
        let loop = VirtualRunLoop()
        let root = loop.run { () -> CALayer in
            let root = CALayer()
            root.bounds = CGRect(x: 0, y: 0, width: 1920, height: 1080)
            root.position = CGPoint(x: 960, y: 540)
            for i in 0..<64 {
                let col = i % 8, row = i / 8
                let s = 0.75 + 0.5 * (Double(i % 5) / 4)
                let start = Double(i * 7) * Double.pi / 180
                let l = CALayer()
                l.bounds = CGRect(x: 0, y: 0, width: 256, height: 256)
                l.position = CGPoint(x: (Double(col) + 0.5) * 240, y: (Double(row) + 0.5) * 135)
                l.transform = CATransform3DRotate(CATransform3DMakeScale(CGFloat(s), CGFloat(s), 1), CGFloat(start), 0, 0, 1)
                l.opacity = 0.8
                l.contents = images[i]
                let turn = CABasicAnimation(keyPath: "transform.rotation.z")
                turn.fromValue = start
                turn.toValue = start + 2 * Double.pi
                turn.duration = 2
                turn.repeatCount = .infinity
                turn.timingFunction = CAMediaTimingFunction(name: .linear)
                l.add(turn, forKey: "turn")
                root.addSublayer(l)
            }
            return root
        }
        let background = PeerWorkloads.background
        let settings = RecordingSettings(width: 1920, height: 1080, fps: 30, frames: 0...(frames - 1),
                                         background: CGColor(red: CGFloat(background.r) / 255, green: CGFloat(background.g) / 255,
                                                             blue: CGFloat(background.b) / 255, alpha: 1))
        return Recorder(root: root, settings: settings)
    }

    /// `n` small layers (`P(32, 32, i mod 64)`, opacity 0.8, turned by `7i` degrees) spread
    /// over a 1920×1080 canvas, all fully inside it: covered pixels = `n · 1024`.
    static func manyLayers(_ n: Int, images: [CGImage]) -> RenderLayer {
        let layers = (0..<n).map { i -> RenderLayer in
            let x = 40 + (i * 97) % 1840, y = 40 + (i * 61) % 1000
            return RenderLayer(bounds: CGRect(x: 0, y: 0, width: 32, height: 32),
                                 position: CGPoint(x: x, y: y),
                                 transform: CATransform3DMakeRotation(CGFloat(Double(i * 7) * Double.pi / 180), 0, 0, 1),
                                 opacity: 0.8, contents: images[i % images.count])
        }
        return canvas(layers)
    }

    /// The 64 small images of `manyLayers`.
    static func smallImages() -> [CGImage] {
        (0..<64).map { CGImage(pixelBuffer: PixelBuffer.testPattern(width: 32, height: 32, index: $0)) }
    }

    /// W1's 64 layers under a chain of `depth − 1` full-canvas identity containers (depth 1 =
    /// W1 itself). With `groups`, every container has opacity 0.99 and `allowsGroupOpacity`, so
    /// each level is an offscreen group composited once (Core Animation's group opacity).
    static func deepW1(depth: Int, groups: Bool) -> RenderLayer {
        var node = PeerWorkloads.w1()
        for _ in 1..<max(1, depth) {
            node = RenderLayer(bounds: CGRect(x: 0, y: 0, width: 1920, height: 1080),
                                 position: CGPoint(x: 960, y: 540), opacity: groups ? 0.99 : 1,
                                 allowsGroupOpacity: true, sublayers: [node])
        }
        return node
    }

    static func canvas(_ sublayers: [RenderLayer]) -> RenderLayer {
        RenderLayer(name: "root", bounds: CGRect(x: 0, y: 0, width: 1920, height: 1080),
                      position: CGPoint(x: 960, y: 540), sublayers: sublayers)
    }
}
