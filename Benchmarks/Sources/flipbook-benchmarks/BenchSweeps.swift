import Flipbook
import FlipbookRender
import Foundation

/// Scaling sweeps: how the cost of a frame grows with one parameter, the rest held fixed.
/// Every point is a separate `renderLoop` (warm-ups, then timed frames, frames start from the
/// background). Mpix/s counts covered pixels (each layer's area inside the frame).
extension BenchWorkloads {
    /// 1 … 10,000 small 32×32 layers (rotated, opacity 0.8) on 1080p, `threads` workers.
    func sweepLayers() throws -> [BenchResult] {
        let images = BenchScenes.smallImages()
        return try [1, 10, 100, 1000, 10_000].map { n in
            let (s, _) = try renderLoop(BenchScenes.manyLayers(n, images: images), threads: threads, clear: true)
            return result("sweep-layers", s, pixels: n * 1024, threads: threads, variant: "layers=\(n)")
        }
    }

    /// W1 drawn at 480p … 4K (the scene scaled by `height / 1080`; covered pixels scale by its square).
    func sweepResolution() throws -> [BenchResult] {
        try [480, 720, 1080, 1440, 2160].map { h in
            let scale = Double(h) / 1080
            let w = Int((1920 * scale).rounded())
            let (s, _) = try renderLoop(PeerWorkloads.w1(), width: w, height: h, scale: scale, threads: threads, clear: true)
            let covered = Int((Double(BenchScenes.w1Covered) * scale * scale).rounded())
            return result("sweep-resolution", s, pixels: covered, threads: threads, variant: "\(w)x\(h)")
        }
    }

    /// W1 with 1 … all cores (and one more, to show oversubscription).
    func sweepThreads() throws -> [BenchResult] {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        return try Array(1...(cores + 1)).map { t in
            let (s, _) = try renderLoop(PeerWorkloads.w1(), threads: t, clear: true)
            return result("sweep-threads", s, pixels: BenchScenes.w1Covered, threads: t, variant: "threads=\(t)")
        }
    }

    /// W1's 64 layers under 1 … 32 nested containers: plain (geometry chain only) and with
    /// group opacity at every level (one offscreen group per level).
    func sweepDepth() throws -> [BenchResult] {
        var rows: [BenchResult] = []
        for groups in [false, true] {
            for d in [1, 2, 4, 8, 16, 32] where !(groups && d == 1) {
                let (s, _) = try renderLoop(BenchScenes.deepW1(depth: d, groups: groups), threads: threads, clear: true)
                rows.append(result("sweep-depth", s, pixels: BenchScenes.w1Covered, threads: threads,
                                   variant: groups ? "depth=\(d) groups" : "depth=\(d)"))
            }
        }
        return rows
    }
}
