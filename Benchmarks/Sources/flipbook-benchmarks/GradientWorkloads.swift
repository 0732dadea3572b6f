import Flipbook
import FlipbookPixels
import FlipbookRender
import Foundation

/// `grad-axial`, `grad-radial`, `grad-conic`: 200 gradient layers of one type at 1080p (issue
/// 15's gradient workload), defined here and in `Benchmarks/peers-gradients.py` from the same
/// SplitMix64 stream (seed 0x6752_4144, the peers' generator), drawn in the same order on a
/// white canvas cleared every frame:
///
/// - layer `i`: a 160×160 square, centre `(uniform(80, 1840), uniform(80, 1000))`, rotated by
///   `uniform(0, 2π)` about its centre; three stops at 0, 0.5, 1 with opaque colours
///   `(byte(), byte(), byte())` each;
/// - axial: from the square's top-left corner to its bottom-right (`startPoint` (0, 0),
///   `endPoint` (1, 1)); radial: a circle of radius 80 at the centre (`startPoint` (0.5, 0.5),
///   `endPoint` (1, 1)); conic: around the centre from the +x direction (`endPoint` (1, 0.5)).
///
/// Measured as the other layer workloads: the snapshot taken once, the compositor's time per
/// frame (one thread unless `--threads`).
extension BenchWorkloads {
    static let gradientSeed: UInt64 = 0x6752_4144

    struct GradientItem { let cx: Double, cy: Double, angle: Double, colors: [(UInt8, UInt8, UInt8)] }

    static func gradientItems() -> [GradientItem] {
        var r = PeersRandom(seed: gradientSeed)
        return (0..<200).map { _ in
            let cx = r.uniform(80, 1840), cy = r.uniform(80, 1000), a = r.uniform(0, 2 * Double.pi)
            let colors = (0..<3).map { _ in (r.byte(), r.byte(), r.byte()) }
            return GradientItem(cx: cx, cy: cy, angle: a, colors: colors)
        }
    }

    static func gradientLayers(_ type: CAGradientLayerType) -> CALayer {
        let root = canvasLayer()
        for it in gradientItems() {
            let g = CAGradientLayer()
            g.bounds = CGRect(x: 0, y: 0, width: 160, height: 160)
            g.position = CGPoint(x: it.cx, y: it.cy)
            g.transform = CATransform3DMakeRotation(CGFloat(it.angle), 0, 0, 1)
            g.colors = it.colors.map { CGColor(red: CGFloat($0.0) / 255, green: CGFloat($0.1) / 255, blue: CGFloat($0.2) / 255, alpha: 1) }
            g.locations = [0, 0.5, 1]
            g.type = type
            switch type {
            case .radial: g.startPoint = CGPoint(x: 0.5, y: 0.5); g.endPoint = CGPoint(x: 1, y: 1)
            case .conic: g.startPoint = CGPoint(x: 0.5, y: 0.5); g.endPoint = CGPoint(x: 1, y: 0.5)
            default: g.startPoint = .zero; g.endPoint = CGPoint(x: 1, y: 1)
            }
            root.addSublayer(g)
        }
        return root
    }

    func gradients() throws -> [BenchResult] {
        var rows: [BenchResult] = []
        for type in [CAGradientLayerType.axial, .radial, .conic] {
            let tree = Self.snapshot { Self.gradientLayers(type) }
            let compositor = Compositor(threadCount: threads)
            var buffer = PixelBuffer(width: 1920, height: 1080)
            let white = RGBA8(r: 255, g: 255, b: 255, a: 255)
            let s = try benchLoop(warmups: warmups, frames: frames) {
                try compositor.render(tree, into: &buffer, background: white)
            }
            save("grad-\(type.rawValue)", buffer)
            rows.append(result("grad-\(type.rawValue)", s, pixels: 200 * 160 * 160, threads: threads,
                               note: "200 rotated 160×160 \(type.rawValue) gradient layers, 3 stops"))
        }
        return rows
    }
}
