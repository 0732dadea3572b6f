import Flipbook
import FlipbookPixels
import FlipbookRaster
import FlipbookRender
import Foundation

/// `w7-layers`: the peers' W7 items (`PeersVectorScenes.w7()`, same stream and order) as 1,500
/// `CAShapeLayer`s under one 1920×1080 root, each layer covering the canvas with its path in
/// canvas coordinates: fills non-zero with (R, G, B, 179/255), strokes with (R, G, B, 230/255),
/// the item's width, round caps and joins (W7's parameters). Measured the way the frames are
/// made in a recording: each frame **snapshots the model** (`makeRenderTree()`, the presentation
/// values of 1,500 shape layers) and renders it with `Compositor` (threads = `--threads`) on a
/// white canvas cleared every frame. Compared with `w7` (the same items straight through
/// PathRasterizer / PathStroker / SpanBlend, one thread, no layer model) in the same sitting:
/// the difference is the per-layer overhead (snapshot, planning, band execution).
extension BenchWorkloads {
    /// The W7 tree: 1,500 shape layers under a white-backed canvas root.
    static func w7ShapeLayers() -> CALayer {
        let root = canvasLayer()
        for it in PeersVectorScenes.w7() {
            let color = it.cgColor
            let layer = CAShapeLayer()
            layer.frame = root.bounds
            if it.kind == .fill {
                layer.fillColor = color
            } else {
                layer.fillColor = nil
                layer.strokeColor = color
                layer.lineWidth = CGFloat(it.width)
                layer.lineCap = .round
                layer.lineJoin = .round
            }
            layer.path = it.cgPath
            root.addSublayer(layer)
        }
        return root
    }

    /// `w7-layers` with the compositor's default bands (16 rows), then with one band the height of
    /// the frame (one thread): the second row isolates what re-rasterizing a path in every band
    /// it crosses costs.
    func w7Layers() throws -> [BenchResult] {
        try PeersVectorScenes.checkVectors()
        let loop = VirtualRunLoop()
        let root = loop.run { Self.w7ShapeLayers() }
        // The same frame drawn directly (as `w7`), for the byte comparison in the note.
        var direct = PixelBuffer(width: PeersVectorScenes.width, height: PeersVectorScenes.height)
        VectorPainter().draw(PeersVectorScenes.w7(), into: &direct)
        var rows: [BenchResult] = []
        for (variant, compositor) in [("", Compositor(threadCount: threads)),
                                      ("one band", Compositor(threadCount: 1, bandHeight: PeersVectorScenes.height))] {
            var buffer = PixelBuffer(width: PeersVectorScenes.width, height: PeersVectorScenes.height)
            let white = RGBA8(r: 255, g: 255, b: 255, a: 255)
            let s = try loop.run {
                try benchLoop(warmups: warmups, frames: frames) {
                    try compositor.render(root.makeRenderTree(), into: &buffer, background: white)
                }
            }
            if variant.isEmpty { save("w7-layers", buffer) }
            let (differing, maxDelta) = buffer.difference(from: direct)
            rows.append(result("w7-layers", s, pixels: Self.w7Covered, threads: compositor.threadCount, variant: variant,
                               note: "1,500 CAShapeLayers: snapshot + Compositor (bands of \(compositor.bandHeight)) per frame, \(BenchReport.fixed(1500 / (s.medianMs / 1000), 0)) layers/s; vs w7's frame: \(differing) px differ, max \(maxDelta)"))
        }
        return rows
    }
}
