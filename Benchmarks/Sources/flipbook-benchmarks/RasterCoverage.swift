import FlipbookPixels
import FlipbookRaster
import Foundation

/// `raster`: the path rasterizer alone on the W6b and W7 scenes (coverage only: flatten +
/// accumulate + sweep into a sink that sums the bytes, W7's strokes including their outlines),
/// the stroke outlines alone, and bands of 64 rows (each item offered to every band it meets, as
/// the compositor does). The numbers in docs/rasterizer.md.
extension BenchWorkloads {
    /// Sums coverage (so nothing is optimised away).
    struct SumSink: CoverageSink {
        var sum: UInt64 = 0
        mutating func coverageSpan(y: Int, x: Int, coverage: UnsafeBufferPointer<UInt8>) {
            var s: UInt64 = 0
            for c in coverage { s &+= UInt64(c) }
            sum &+= s
        }
        mutating func constantSpan(y: Int, x: Int, count: Int, coverage: UInt8) {
            sum &+= UInt64(count) &* UInt64(coverage)
        }
    }

    func rasterCoverage() throws -> [BenchResult] {
        try PeersVectorScenes.checkVectors()
        let r = PathRasterizer(), st = PathStroker()
        var outline = RasterPath()
        outline.reserveCapacity(verbs: 1 << 14, points: 1 << 14)
        let W = PeersVectorScenes.width, H = PeersVectorScenes.height
        let full = RasterClip(width: W, height: H)
        var rows: [BenchResult] = []
        func fillOrStroke(_ it: VectorItem, clip: RasterClip, _ s: inout SumSink) {
            if it.kind == .fill { r.fill(it.path, rule: .nonZero, clip: clip, into: &s) } else {
                outline.removeAll()
                st.stroke(it.path, style: StrokeStyle(width: it.width, cap: .round, join: .round), into: &outline)
                r.fill(outline, rule: .nonZero, clip: clip, into: &s)
            }
        }
        for (name, items, peersCovered) in [("w6b", PeersVectorScenes.w6b(), Double(Self.w6bCovered)),
                                            ("w7", PeersVectorScenes.w7(), Double(Self.w7Covered))] {
            var total: UInt64 = 0
            let cov = benchLoop(warmups: warmups, frames: frames) {
                var s = SumSink()
                for it in items { fillOrStroke(it, clip: full, &s) }
                total = s.sum
            }
            let covered = Double(total) / 255
            rows.append(result("raster-\(name)", cov, pixels: Int(covered), threads: 1,
                               note: "coverage only, \(BenchReport.fixed(cov.medianMs * 1000 / Double(items.count), 2)) µs/item, covered px \(BenchReport.fixed((covered / peersCovered - 1) * 100, 3)) % vs ref-ss"))
            if name == "w7" {
                let o = benchLoop(warmups: warmups, frames: frames) {
                    for it in items where it.kind == .stroke {
                        outline.removeAll()
                        st.stroke(it.path, style: StrokeStyle(width: it.width, cap: .round, join: .round), into: &outline)
                    }
                }
                rows.append(result("raster-w7-outlines", o, pixels: 0, threads: 1, note: "the 500 stroke outlines alone"))
            }
            let banded = benchLoop(warmups: 1, frames: max(3, frames / 3)) {
                var s = SumSink()
                var y = 0
                while y < H {
                    let clip = RasterClip(x0: 0, y0: y, x1: W, y1: min(H, y + 64))
                    for it in items {
                        guard let b = it.path.controlBounds else { continue }
                        let grow = it.width / 2 + 1
                        if b.maxY + grow < Double(clip.y0) || b.minY - grow > Double(clip.y1) { continue }
                        fillOrStroke(it, clip: clip, &s)
                    }
                    y += 64
                }
            }
            rows.append(result("raster-\(name)-bands", banded, pixels: Int(covered), threads: 1,
                               note: "coverage only, 17 bands of 64 rows, items re-offered per band"))
        }
        return rows + rasterQuads()
    }

    /// `raster-quads`: W6a's 10,000 rotated 32×32 quads as the compositor rasterizes them
    /// (fixed-point polygons, bands of 32 rows), coverage only.
    func rasterQuads() -> [BenchResult] {
        let r = PathRasterizer()
        let W = PeersVectorScenes.width, H = PeersVectorScenes.height
        var rows: [BenchResult] = []
        let quads: [FixedPolygon] = PeersVectorScenes.w6a().compactMap { l in
            let t = l.angle * Double.pi / 180, c = cos(t), s = sin(t)
            let pts = [(-16.0, -16.0), (16.0, -16.0), (16.0, 16.0), (-16.0, 16.0)].map { (x, y) in
                RasterPoint(l.cx + c * x - s * y, l.cy + s * x + c * y)
            }
            return FixedPolygon(polygon: pts)
        }
        var quadSum: UInt64 = 0
        let q = benchLoop(warmups: warmups, frames: frames) {
            var s = SumSink()
            for p in quads {
                let b = p.bounds
                var y = max(0, Int(b.y.rounded(.down)) - 1) & ~31
                while y < min(H, Int(b.w.rounded(.up)) + 1) {
                    r.fill(p, rule: .nonZero, clip: RasterClip(x0: 0, y0: y, x1: W, y1: min(H, y + 32)), straight: nil, into: &s)
                    y += 32
                }
            }
            quadSum = s.sum
        }
        rows.append(result("raster-w6a-quads", q, pixels: Int(Double(quadSum) / 255), threads: 1,
                           note: "coverage only, the 10,000 W6a quads in bands of 32 rows, \(BenchReport.fixed(q.medianMs * 1000 / 10_000, 3)) µs/quad"))
        return rows
    }
}
