import FlipbookRaster
import FlipbookPixels
#if canImport(Glibc)
import Glibc
#endif

/// Release-mode timing of the path rasterizer on the peers' W6b and W7 scenes — run by hand,
/// never as a test (no timed assertions anywhere). How to build and run it: docs/rasterizer.md
/// ("Measuring"). Prints ms per frame (median of `frames` after 3 warm-up frames).
enum RasterBench {
    /// Sums coverage (so nothing is optimised away) and counts spans.
    struct SumSink: CoverageSink {
        var sum: UInt64 = 0
        var spans = 0
        mutating func coverageSpan(y: Int, x: Int, coverage: UnsafeBufferPointer<UInt8>) {
            var s: UInt64 = 0
            for c in coverage { s &+= UInt64(c) }
            sum &+= s; spans += 1
        }
        mutating func constantSpan(y: Int, x: Int, count: Int, coverage: UInt8) {
            sum &+= UInt64(count) &* UInt64(coverage); spans += 1
        }
    }

    /// Paints a premultiplied solid colour through the existing span kernels (SpanBlend).
    struct PaintSink: CoverageSink {
        let canvas: UnsafeMutablePointer<UInt32>
        let stride: Int
        var color: RGBA8
        let backend: RasterBackend
        mutating func coverageSpan(y: Int, x: Int, coverage: UnsafeBufferPointer<UInt8>) {
            SpanBlend.solidOver(canvas + y * stride + x, color: color, count: coverage.count,
                                coverage: coverage.baseAddress, backend: backend)
        }
        mutating func constantSpan(y: Int, x: Int, count: Int, coverage: UInt8) {
            let c = coverage == 255 ? color : RGBA8(packed: PixelMath.scale(color.packed, UInt32(coverage)))
            SpanBlend.solidOver(canvas + y * stride + x, color: c, count: count, backend: backend)
        }
    }

    static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
    }

    static func f(_ x: Double, _ digits: Int = 2) -> String {
        var m = 1.0
        for _ in 0..<digits { m *= 10 }
        let v = (x * m).rounded() / m
        return digits == 0 ? String(Int(v)) : String(v)
    }

    static func write(_ path: String, _ data: UnsafeRawBufferPointer) {
        guard let f = fopen(path, "wb") else { return }
        _ = fwrite(data.baseAddress, 1, data.count, f)
        fclose(f)
    }

    static func median(_ xs: [Double]) -> Double { let s = xs.sorted(); return s[s.count / 2] }

    static func time(frames: Int, _ body: () -> Void) -> Double {
        for _ in 0..<3 { body() }
        var ts: [Double] = []
        for _ in 0..<frames { let t0 = now(); body(); ts.append((now() - t0) * 1000) }
        return median(ts)
    }

    /// Draws a scene: fills as they are, strokes through the stroker (outline built every frame:
    /// that is part of the cost), into `sink(item)`.
    static func draw<S: CoverageSink>(_ items: [VectorItem], rasterizer: PathRasterizer, stroker: PathStroker,
                                      outline: inout RasterPath, clip: RasterClip,
                                      sink: (VectorItem) -> S, done: (S) -> Void) {
        for it in items {
            var s = sink(it)
            if it.kind == .fill {
                rasterizer.fill(it.path, rule: .nonZero, clip: clip, into: &s)
            } else {
                outline.removeAll()
                stroker.stroke(it.path, style: StrokeStyle(width: it.width, cap: .round, join: .round), into: &outline)
                rasterizer.fill(outline, rule: .nonZero, clip: clip, into: &s)
            }
            done(s)
        }
    }

    static func run(frames: Int = 15) {
        let be = RasterBackend.current
        let r = PathRasterizer(), st = PathStroker()
        if let t = getenv("RASTER_TOL").flatMap({ Double(String(cString: $0)) }) { r.tolerance = t; st.tolerance = t }
        print("backend \(be), tolerance \(r.tolerance) px")
        let W = PeersVectorScenes.width, H = PeersVectorScenes.height
        let canvas = UnsafeMutablePointer<UInt32>.allocate(capacity: W * H)
        defer { canvas.deallocate() }
        var outline = RasterPath()
        outline.reserveCapacity(verbs: 1 << 14, points: 1 << 14)
        let full = RasterClip(width: W, height: H)
        for (name, items, bg, peersCovered) in [("W6b", PeersVectorScenes.w6b(), RGBA8(r: 32, g: 32, b: 32, a: 255), 7_587_428.0),
                                                ("W7", PeersVectorScenes.w7(), RGBA8(r: 255, g: 255, b: 255, a: 255), 4_335_608.0)] {
            if let only = getenv("RASTER_ONLY").map({ String(cString: $0) }), only != name { continue }
            var total: UInt64 = 0
            let coverage = time(frames: frames) {
                total = 0
                draw(items, rasterizer: r, stroker: st, outline: &outline, clip: full, sink: { _ in SumSink() },
                     done: { total &+= $0.sum })
            }
            let covered = Double(total) / 255
            // strokes' outlines alone (W7)
            var outlineMs = 0.0
            if items.contains(where: { $0.kind == .stroke }) {
                outlineMs = time(frames: frames) {
                    for it in items where it.kind == .stroke {
                        outline.removeAll()
                        st.stroke(it.path, style: StrokeStyle(width: it.width, cap: .round, join: .round), into: &outline)
                    }
                }
            }
            // bands of 64 rows (the compositor's shape): every item is offered to every band it touches
            let banded = time(frames: max(3, frames / 3)) {
                var y = 0
                while y < H {
                    let clip = RasterClip(x0: 0, y0: y, x1: W, y1: min(H, y + 64))
                    for it in items {
                        guard let b = it.path.controlBounds else { continue }
                        let grow = it.width / 2 + 1
                        if b.maxY + grow < Double(clip.y0) || b.minY - grow > Double(clip.y1) { continue }
                        var s = SumSink()
                        if it.kind == .fill { r.fill(it.path, clip: clip, into: &s) } else {
                            outline.removeAll()
                            st.stroke(it.path, style: StrokeStyle(width: it.width, cap: .round, join: .round), into: &outline)
                            r.fill(outline, clip: clip, into: &s)
                        }
                    }
                    y += 64
                }
            }
            // coverage + painting with the existing span kernels
            let paint = time(frames: frames) {
                for i in 0..<(W * H) { canvas[i] = bg.packed }
                draw(items, rasterizer: r, stroker: st, outline: &outline, clip: full,
                     sink: { it in PaintSink(canvas: canvas, stride: W, color: RGBA8(straightR: it.r, g: it.g, b: it.b, a: it.a), backend: be) },
                     done: { _ in })
            }
            if let dir = getenv("RASTER_DUMP").map({ String(cString: $0) }) {
                // one frame as painted above + the scene, for the peers' ref-ss (docs/rasterizer.md)
                write("\(dir)/\(name).ours", UnsafeRawBufferPointer(start: canvas, count: W * H * 4))
                var bytes: [UInt8] = []
                func i32(_ v: Int) { withUnsafeBytes(of: Int32(v).littleEndian) { bytes.append(contentsOf: $0) } }
                func f64(_ v: Double) { withUnsafeBytes(of: v.bitPattern.littleEndian) { bytes.append(contentsOf: $0) } }
                i32(items.count); i32(Int(bg.r)); i32(Int(bg.g)); i32(Int(bg.b)); i32(Int(bg.a))
                for it in items {
                    let rrect = name == "W6b"
                    i32(rrect ? 2 : (it.kind == .fill ? 0 : 1)); i32(it.kind == .fill ? 1 : 0); i32(rrect ? 0 : it.raw.count / 2)
                    bytes.append(contentsOf: [it.r, it.g, it.b, it.a]); f64(it.width)
                    for k in 0..<5 { f64(rrect ? (k < 4 ? it.raw[k] : 4) : 0) }
                    if !rrect { for v in it.raw { f64(v) } }
                }
                bytes.withUnsafeBytes { write("\(dir)/\(name).scene", $0) }
            }
            print("\(name): coverage only \(f(coverage)) ms/frame (\(f(coverage * 1000 / Double(items.count))) µs/item)"
                  + (outlineMs > 0 ? " [stroke outlines alone \(f(outlineMs)) ms]" : "")
                  + "; bands of 64 rows \(f(banded)) ms; coverage + paint \(f(paint)) ms; covered px \(f(covered, 0))"
                  + " (peers' reference \(f(peersCovered, 0)), \(f((covered / peersCovered - 1) * 100, 3)) %)")
        }
    }
}
