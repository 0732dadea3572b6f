import Flipbook
import FlipbookPixels
import FlipbookRaster
import FlipbookRender
import Foundation
import Synchronization
import Dispatch

/// The peers' many-layers and paths workloads (`../shared/peers/README.md`, W6a, W6b, W7), same
/// generator and order (`PeersVectorScenes`).
///
/// - W6a, W6b: a `CALayer` tree (image layers with `contents`; rounded rects as
///   `backgroundColor` + `cornerRadius`), snapshotted once (`makeRenderTree`) and rendered by
///   `Compositor` every frame, the clear included. Building the tree and the snapshot is setup.
/// - W7: **bypasses the layer model** (`w7-layers` has it: 1,500 `CAShapeLayer`s): the paths
///   go straight through FlipbookRaster's `PathRasterizer` (fills non-zero) and `PathStroker`
///   (round caps and joins, outline rebuilt every frame) into a `SolidColorSink`, on a white
///   canvas cleared every frame.
/// - e2e-w6a, e2e-w6b: the static trees recorded by `Recorder` to the null sink, 1 and 2 threads.
extension BenchWorkloads {
    static let w6aCovered = 10_127_824
    static let w6bCovered = 7_587_428
    static let w7Covered = 4_335_608

    /// The W6a layer tree: 10,000 32×32 layers sharing 64 images, opacity 0.8.
    static func w6aLayers(images: [CGImage]) -> CALayer {
        let root = canvasLayer()
        for (i, l) in PeersVectorScenes.w6a().enumerated() {
            let layer = CALayer()
            layer.bounds = CGRect(x: 0, y: 0, width: 32, height: 32)
            layer.position = CGPoint(x: l.cx, y: l.cy)
            layer.transform = CATransform3DMakeRotation(CGFloat(l.angle * Double.pi / 180), 0, 0, 1)
            layer.opacity = 0.8
            layer.contents = images[i % images.count]
            root.addSublayer(layer)
        }
        return root
    }

    /// The W6b layer tree: 10,000 rounded rectangles (radius 4), colour (R, G, B, 204) / 255.
    static func w6bLayers() -> CALayer {
        let root = canvasLayer()
        for it in PeersVectorScenes.w6b() {
            let (x0, y0, w, h) = (it.raw[0], it.raw[1], it.raw[2], it.raw[3])
            let layer = CALayer()
            layer.bounds = CGRect(x: 0, y: 0, width: w, height: h)
            layer.position = CGPoint(x: x0 + 0.5 * w, y: y0 + 0.5 * h)
            layer.backgroundColor = CGColor(red: CGFloat(it.r) / 255, green: CGFloat(it.g) / 255,
                                            blue: CGFloat(it.b) / 255, alpha: CGFloat(it.a) / 255)
            layer.cornerRadius = 4
            root.addSublayer(layer)
        }
        return root
    }

    static func canvasLayer() -> CALayer {
        let root = CALayer()
        root.bounds = CGRect(x: 0, y: 0, width: 1920, height: 1080)
        root.position = CGPoint(x: 960, y: 540)
        return root
    }

    /// A tree built and snapshotted inside its own run loop.
    static func snapshot(_ build: () -> CALayer) -> RenderLayer {
        let loop = VirtualRunLoop()
        return loop.run { build().makeRenderTree() }
    }

    func w6a() throws -> [BenchResult] {
        try PeersVectorScenes.checkVectors()
        let tree = Self.snapshot { Self.w6aLayers(images: BenchScenes.smallImages()) }
        let (s, frame) = try renderLoop(tree, threads: threads, clear: true)
        save("w6a", frame)
        let (p, _) = try renderLoop(tree, threads: threads, clear: true, reusePlans: false)
        return [result("w6a", s, pixels: Self.w6aCovered, threads: threads,
                       note: "the same snapshot each frame: its plan is reused; \(BenchReport.fixed(10_000 / (s.medianMs / 1000), 0)) layers/s"),
                result("w6a", p, pixels: Self.w6aCovered, threads: threads, variant: "plan each frame",
                       note: "the same, planned anew every frame; \(BenchReport.fixed(10_000 / (p.medianMs / 1000), 0)) layers/s")]
    }

    /// W6b with a new snapshot of the same tree every frame (built before timing): nothing
    /// can be reused, so this is what the reuse bookkeeping costs.
    func w6bFresh() throws -> [BenchResult] {
        let loop = VirtualRunLoop()
        let root = loop.run { Self.w6bLayers() }
        let trees = loop.run { (0..<(warmups + frames)).map { _ in root.makeRenderTree() } }
        var rows: [BenchResult] = []
        for reuse in [true, false] {
            let compositor = Compositor(threadCount: threads)
            compositor.reusesPlans = reuse
            var buffer = PixelBuffer(width: 1920, height: 1080)
            var i = 0
            let s = try benchLoop(warmups: warmups, frames: frames) {
                try compositor.render(trees[i], into: &buffer, background: PeerWorkloads.background)
                i += 1
            }
            rows.append(result("w6b-fresh", s, pixels: Self.w6bCovered, threads: threads, variant: reuse ? "reusesPlans" : "plans only",
                               note: "a new snapshot of the W6b tree every frame"))
        }
        return rows
    }

    func w6b() throws -> [BenchResult] {
        try PeersVectorScenes.checkVectors()
        let tree = Self.snapshot { Self.w6bLayers() }
        let (s, frame) = try renderLoop(tree, threads: threads, clear: true)
        save("w6b", frame)
        let (p, _) = try renderLoop(tree, threads: threads, clear: true, reusePlans: false)
        return [result("w6b", s, pixels: Self.w6bCovered, threads: threads,
                       note: "the same snapshot each frame: its plan is reused; \(BenchReport.fixed(10_000 / (s.medianMs / 1000), 0)) layers/s"),
                result("w6b", p, pixels: Self.w6bCovered, threads: threads, variant: "plan each frame",
                       note: "the same, planned anew every frame; \(BenchReport.fixed(10_000 / (p.medianMs / 1000), 0)) layers/s")]
    }

    /// W7: bands of 96 rows over `threads` threads (`VectorPainter`; `FLIPBOOK_W7_BAND=N` for
    /// other heights: 64 → 96 → 136 measured 74 → 71 → 70–74 ms, the whole frame as one band 92–118).
    func w7() throws -> [BenchResult] {
        try PeersVectorScenes.checkVectors()
        let items = PeersVectorScenes.w7()
        let band = ProcessInfo.processInfo.environment["FLIPBOOK_W7_BAND"].flatMap { Int($0) } ?? 96
        let painter = VectorPainter(threads: threads, bandHeight: band)
        var buffer = PixelBuffer(width: PeersVectorScenes.width, height: PeersVectorScenes.height)
        let s = benchLoop(warmups: warmups, frames: frames) { painter.draw(items, into: &buffer) }
        save("w7", buffer)
        return [result("w7", s, pixels: Self.w7Covered, threads: threads,
                       note: "the items straight through PathRasterizer + PathStroker + SpanBlend, no layer model (w7-layers: as CAShapeLayers; w7-draw: through draw(in:)), \(BenchReport.fixed(1500 / (s.medianMs / 1000), 0)) paths/s")]
    }

    /// The static W6a / W6b tree recorded for `n` frames to the null sink with 1 and 2 threads.
    /// With `moving`, one more layer spins above the tree (an activity indicator over a static
    /// screen): the snapshot is built every frame, its static subtrees' nodes kept.
    func endToEndStatic(_ name: String, moving: Bool = false) throws -> [BenchResult] {
        let images = BenchScenes.smallImages()
        let n = min(sequence, 20)
        func recorder() -> Recorder {
            let loop = VirtualRunLoop()
            let root = loop.run {
                let root = name == "w6a" ? Self.w6aLayers(images: images) : Self.w6bLayers()
                if moving {
                    let spinner = CALayer()
                    spinner.frame = CGRect(x: 940, y: 520, width: 40, height: 40)
                    spinner.backgroundColor = CGColor(red: 0.2, green: 0.4, blue: 0.9, alpha: 1)
                    spinner.cornerRadius = 8
                    let spin = CABasicAnimation(keyPath: "transform.rotation.z")
                    spin.fromValue = 0; spin.toValue = 2 * Double.pi; spin.duration = 1; spin.repeatCount = .infinity
                    spinner.add(spin, forKey: "spin")
                    root.addSublayer(spinner)
                }
                return root
            }
            let bg = PeerWorkloads.background
            let settings = RecordingSettings(width: 1920, height: 1080, fps: 30, frames: 0...(n - 1),
                                             background: CGColor(red: CGFloat(bg.r) / 255, green: CGFloat(bg.g) / 255,
                                                                 blue: CGFloat(bg.b) / 255, alpha: 1))
            return Recorder(root: root, settings: settings)
        }
        var rows: [BenchResult] = []
        for t in [1, 2] {
            try recorder().record(to: NullFrameSink(), options: RecordingOptions(threads: t))   // warm-up
            var wall: [Double] = [], cpu: [Double] = []
            for _ in 0..<2 {
                let r = recorder()
                let m = try BenchClock.measure { try r.record(to: NullFrameSink(), options: RecordingOptions(threads: t)) }
                wall.append(m.wall / Double(n)); cpu.append(m.cpu / Double(n))
            }
            let s = BenchStats(wall: wall, cpu: cpu)
            rows.append(result("e2e-\(name)", s, pixels: name == "w6a" ? Self.w6aCovered : Self.w6bCovered, threads: t,
                               variant: moving ? "+ spinner" : "",
                               note: "\(moving ? "static tree + one spinning layer" : "static tree"), \(n) frames x 2 runs to the null sink, \(BenchReport.fixed(1000 / s.medianMs, 1)) fps"))
        }
        return rows
    }
}

/// Draws W7-style items (fills non-zero, strokes with round caps and joins) with a solid colour
/// (`SolidColorSink`): the frame W7 times.
///
/// Work is done **band by band** (`bandHeight` rows, all items in order for each band): a band
/// of the canvas stays in L2 while every shape that meets it is painted, where drawing shape by
/// shape over the whole 8 MB canvas missed the cache on every edge pixel (half the sweep's time
/// in perf was the load of the destination pixel). The rasterizer gives a pixel the same bytes
/// for any clip containing it, and each pixel sees the items in the same order, so the frame is
/// byte-identical to a whole-canvas fill and for any thread count. Every item is flattened into
/// a `FixedPath` once per frame (split over the threads; stroke outlines written into it by the
/// stroker directly, with their self-crossing corrections), then bands are handed out
/// dynamically.
final class VectorPainter: @unchecked Sendable {
    let threads: Int
    let bandHeight: Int
    let rasterizers: [PathRasterizer]
    let strokers: [PathStroker]
    /// Per item: its fill path or stroke outline flattened once per frame into fixed point
    /// (`FixedPath`), so that a band does not flatten and convert it again.
    var fixed: [FixedPath] = []
    /// Per item: the bounds of its flattened outline (`FixedPath.bounds`: what is rasterized,
    /// so a band the bounds miss gets nothing from the item), nil for an empty or non-finite path.
    var rows: [SIMD4<Double>?] = []
    let backend = RasterBackend.current

    init(threads: Int = 1, bandHeight: Int = 96) {
        self.threads = max(1, threads)
        self.bandHeight = max(1, bandHeight)
        rasterizers = (0..<self.threads).map { _ in PathRasterizer() }
        strokers = (0..<self.threads).map { _ in PathStroker() }
    }

    func draw(_ items: [VectorItem], background: RGBA8 = RGBA8(r: 255, g: 255, b: 255, a: 255), into buffer: inout PixelBuffer) {
        let w = buffer.width, h = buffer.height, stride = buffer.bytesPerRow / 4
        if fixed.count != items.count {
            rows = Array(repeating: nil, count: items.count)
            fixed = Array(repeating: FixedPath(), count: items.count)
        }
        // Fixed paths and rows, split over the threads; each element is written by
        // one thread only, through the buffers' base addresses.
        let strokeIdx = items.indices.filter { items[$0].kind == .stroke }
        let rowsP = rows.withUnsafeMutableBufferPointer { $0.baseAddress! }
        let fixedP = fixed.withUnsafeMutableBufferPointer { $0.baseAddress! }
        parallel(threads) { k in
            var i = k
            while i < items.count {
                if items[i].kind == .fill {
                    rowsP[i] = fixedP[i].set(items[i].path) ? fixedP[i].bounds : nil
                }
                i += threads
            }
            var j = k
            while j < strokeIdx.count {
                let n = strokeIdx[j], it = items[n]
                strokers[k].stroke(it.path, style: StrokeStyle(width: it.width, cap: .round, join: .round), into: &fixedP[n])
                rowsP[n] = fixedP[n].isEmpty ? nil : fixedP[n].bounds
                strokers[k].overlapCorrections(into: &fixedP[n].corrections)
                j += threads
            }
        }
        let colors = items.map { RGBA8(straightR: $0.r, g: $0.g, b: $0.b, a: $0.a) }
        let bandH = bandHeight, bands = (h + bandH - 1) / bandH
        buffer.withUnsafeMutableBytes { raw in
            let canvas = raw.baseAddress!.assumingMemoryBound(to: UInt32.self)
            let next = Atomic<Int>(0)
            parallel(threads) { k in
                let rasterizer = rasterizers[k]
                while true {
                    let b = next.add(1, ordering: .relaxed).oldValue
                    if b >= bands { break }
                    let y0 = b * bandH, y1 = min(h, y0 + bandH)
                    for y in y0..<y1 { SpanBlend.fill(canvas + y * stride, count: w, color: background, backend: backend) }
                    let clip = RasterClip(x0: 0, y0: y0, x1: w, y1: y1)
                    for i in items.indices {
                        guard let r = rowsP[i], r.y - 1 < Double(y1), r.w + 1 > Double(y0) else { continue }
                        // (the colour alone: a copy of the item retained and released its path)
                        var sink = SolidColorSink(pixels: canvas, rowStride: stride, color: colors[i], backend: backend)
                        rasterizer.fill(fixedP[i], rule: .nonZero, clip: clip, into: &sink)
                    }
                }
            }
        }
    }

    /// Runs `body(k)` for k in 0..<n, on n threads when n > 1.
    func parallel(_ n: Int, _ body: (Int) -> Void) {
        if n == 1 { body(0); return }
        withoutActuallyEscaping(body) { b in
            let box = _Unchecked(b)
            DispatchQueue.concurrentPerform(iterations: n) { box.value($0) }
        }
    }
}

struct _Unchecked<T>: @unchecked Sendable { let value: T; init(_ v: T) { value = v } }
