import Flipbook
import FlipbookPixels
import FlipbookRender
import Foundation

/// `fuzz-cb`: the compositor fuzz target's tree for the input `[0xcb]` (issue 40; the tree is
/// built as `FuzzTargets.compositor` builds it — 341 layers, 3 sublayers and a mask at every
/// level to depth 4, every layer 556 points wide with a shadow of radius 556 at offset
/// (556, 556)), composited into a 48×40 frame by a new compositor each frame (no kept plan),
/// one thread. Before the work bound of issue 40 it made 1,280 shadow offscreens of 861 million
/// pixels per frame; docs/limits.md ("Work per frame").
extension BenchWorkloads {
    static func fuzzCBTree(_ depth: Int = 0) -> RenderLayer {
        let v: CGFloat = 556
        return RenderLayer(
            bounds: CGRect(x: v, y: v, width: v, height: v), position: CGPoint(x: v, y: v), zPosition: v,
            opacity: 203.0 / 200, masksToBounds: false,
            backgroundColor: CGColor(red: 1, green: 0, blue: 0, alpha: 203.0 / 255),
            cornerRadius: v, borderWidth: v,
            contentsRect: CGRect(x: v, y: v, width: v, height: v),
            shadowOpacity: 1, shadowOffset: CGSize(width: v, height: v), shadowRadius: v,
            mask: depth < 4 ? fuzzCBTree(depth + 1) : nil,
            sublayers: depth < 4 ? (0..<3).map { _ in fuzzCBTree(depth + 1) } : [],
            cornerCurve: .circular)
    }

    func fuzzCB() throws -> [BenchResult] {
        let tree = Self.fuzzCBTree()
        var buffer = PixelBuffer(width: 48, height: 40)
        let s = try benchLoop(warmups: warmups, frames: frames) {
            try Compositor(threadCount: 1).render(tree, into: &buffer, background: .transparent)
        }
        save("fuzz-cb", buffer)
        return [result("fuzz-cb", s, pixels: 48 * 40, threads: 1,
                       note: "the compositor fuzz input [0xcb]: 341 layers, a mask and a 556-px shadow on each, 48×40, planned every frame")]
    }
}
