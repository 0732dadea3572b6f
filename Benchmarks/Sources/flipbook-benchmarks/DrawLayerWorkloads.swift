import Flipbook
import FlipbookPixels
import FlipbookRaster
import FlipbookRender
import Foundation

/// `w7-draw`: the peers' W7 items (`PeersVectorScenes.w7()`, same stream and order) drawn by ONE
/// 1920×1080 layer with Core Graphics calls — each item `addPath` of its `CGPath`, then
/// `setFillColor` + `fillPath()` (non-zero, (R, G, B, 179/255)) or `setStrokeColor`,
/// `setLineWidth`, `setLineCap(.round)`, `setLineJoin(.round)` + `strokePath()` ((R, G, B,
/// 230/255)) — into one `CGContext`. A frame is what `display()` does for a drawing layer: a
/// new transparent premultiplied RGBA8 context of the layer's size, the layer's drawing,
/// `contents = ctx.makeImage()`; then the tree is snapshotted and composited on a white canvas
/// cleared every frame (one thread). The layer overrides `draw(in:)` and a frame calls
/// `display()`, which makes the context, calls `draw(in:)` and sets `contents`. Compared with `w7`
/// (the same items straight through PathRasterizer / PathStroker / SpanBlend) in one sitting.
extension BenchWorkloads {
    /// A layer that draws every W7 item in `draw(in:)`.
    final class W7DrawLayer: CALayer {
        struct Item {
            var path: CGPath
            var color: CGColor
            var stroke: Bool
            var width: CGFloat
        }
        var items: [Item] = []

        override func draw(in ctx: CGContext) {
            for it in items {
                ctx.addPath(it.path)
                if it.stroke {
                    ctx.setStrokeColor(it.color)
                    ctx.setLineWidth(it.width)
                    ctx.setLineCap(.round)
                    ctx.setLineJoin(.round)
                    ctx.strokePath()
                } else {
                    ctx.setFillColor(it.color)
                    ctx.fillPath()
                }
            }
        }
    }

    static func w7DrawItems() -> [W7DrawLayer.Item] {
        PeersVectorScenes.w7().map { it in
            W7DrawLayer.Item(path: it.cgPath, color: it.cgColor, stroke: it.kind == .stroke, width: CGFloat(it.width))
        }
    }

    func w7Draw() throws -> [BenchResult] {
        try PeersVectorScenes.checkVectors()
        let loop = VirtualRunLoop()
        let (root, layer) = loop.run { () -> (CALayer, W7DrawLayer) in
            let root = Self.canvasLayer()
            let layer = W7DrawLayer()
            layer.frame = root.bounds
            layer.items = Self.w7DrawItems()
            root.addSublayer(layer)
            return (root, layer)
        }
        let compositor = Compositor(threadCount: 1)
        let white = RGBA8(r: 255, g: 255, b: 255, a: 255)
        var buffer = PixelBuffer(width: PeersVectorScenes.width, height: PeersVectorScenes.height)
        let s = try loop.run {
            try benchLoop(warmups: warmups, frames: frames) {
                layer.display()
                try compositor.render(root.makeRenderTree(), into: &buffer, background: white)
            }
        }
        // The drawing alone (context + draw + makeImage), for the per-call cost.
        let d = loop.run { benchLoop(warmups: 1, frames: max(3, frames / 2)) { layer.display() } }
        save("w7-draw", buffer)
        var direct = PixelBuffer(width: PeersVectorScenes.width, height: PeersVectorScenes.height)
        VectorPainter().draw(PeersVectorScenes.w7(), into: &direct)
        let (differing, maxDelta) = buffer.difference(from: direct)
        return [result("w7-draw", s, pixels: Self.w7Covered, threads: 1,
                       note: "one layer, 1,500 items drawn with CGContext calls in draw(in:); display() (new CGContext + draw(in:) + contents), then snapshot + Compositor on white; vs w7's frame: \(differing) px differ, max \(maxDelta)"),
                result("w7-draw", d, pixels: Self.w7Covered, threads: 1, variant: "draw only",
                       note: "new 1920x1080 CGContext + 1,500 CGContext fills/strokes + makeImage(), no compositing")]
    }
}
