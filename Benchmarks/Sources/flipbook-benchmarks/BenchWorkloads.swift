import Dispatch
import Flipbook
import FlipbookPixels
import FlipbookPNG
import FlipbookRender
import Foundation
import Synchronization
import FlipbookPixels

/// The named workloads of the benchmark suite, each run through the real pipeline: a
/// `RenderLayer` tree rendered by `Compositor` (planning + execution), PNG through
/// `FlipbookPNG`. Each returns its result rows; `save` receives the last frame to write.
struct BenchWorkloads {
    var frames: Int
    var warmups: Int
    var threads: Int
    /// Frames of the end-to-end sequence.
    var sequence: Int
    var save: (String, PixelBuffer) -> Void

    static let size = (w: PeerWorkloads.canvasWidth, h: PeerWorkloads.canvasHeight)

    func result(_ name: String, _ stats: BenchStats, pixels: Int, threads: Int, variant: String = "", note: String = "") -> BenchResult {
        BenchResult(name: name, variant: variant, stats: stats, pixels: pixels, threads: threads,
                    peakRSS: BenchClock.peakRSS(), load: BenchClock.loadAverage(), note: note)
    }

    /// Times `tree` (each frame starts from `background`, or from the previous frame when nil
    /// after one filled frame, as the harness's W2) and returns the stats and the last frame.
    func renderLoop(_ tree: RenderLayer, width: Int = size.w, height: Int = size.h, scale: Double = 1,
                    threads: Int, clear: Bool, reusePlans: Bool = true) throws -> (BenchStats, PixelBuffer) {
        let compositor = Compositor(threadCount: threads)
        compositor.reusesPlans = reusePlans
        var buffer = PixelBuffer(width: width, height: height)
        buffer.fill(PeerWorkloads.background)
        let bg: RGBA8? = clear ? PeerWorkloads.background : nil
        let stats = try benchLoop(warmups: warmups, frames: frames) {
            try compositor.render(tree, into: &buffer, scale: CGFloat(scale), background: bg)
        }
        return (stats, buffer)
    }

    func w1() throws -> [BenchResult] {
        let (s, frame) = try renderLoop(PeerWorkloads.w1(), threads: threads, clear: true)
        save("w1", frame)
        return [result("w1", s, pixels: BenchScenes.w1Covered, threads: threads)]
    }

    func w2() throws -> [BenchResult] {
        let tree = PeerWorkloads.w2()
        let (s, _) = try renderLoop(tree, threads: threads, clear: false)
        // The saved frame is one blend over the background (what the peers save), not the
        // accumulation of all timed frames.
        var one = PixelBuffer(width: Self.size.w, height: Self.size.h)
        one.fill(PeerWorkloads.background)
        try Compositor(threadCount: threads).render(tree, into: &one, background: nil)
        save("w2", one)
        return [result("w2", s, pixels: BenchScenes.w2Covered, threads: threads)]
    }

    func w4() throws -> [BenchResult] {
        let (s, frame) = try renderLoop(PeerWorkloads.w4(), threads: threads, clear: true)
        save("w4", frame)
        return [result("w4", s, pixels: BenchScenes.w4Covered, threads: threads)]
    }

    /// W3: PNG encode of Flipbook's W1 frame with each preset. Presets slower than 2 s per
    /// encode are timed 5 times (the harness does the same for libpng level 9).
    func w3() throws -> [BenchResult] {
        let frame = try Compositor(threadCount: threads).render(PeerWorkloads.w1(), width: Self.size.w, height: Self.size.h,
                                                                background: PeerWorkloads.background)
        return try encodePresets(frame, prefix: "w3")
    }

    /// Where W3b's frame is looked for: `$FLIPBOOK_UI_FRAME`, else the peers harness next to the
    /// checkout (`../shared/peers/fixtures/ui-frame.png`, from the project root).
    static var uiFramePath: String {
        ProcessInfo.processInfo.environment["FLIPBOOK_UI_FRAME"] ?? "../shared/peers/fixtures/ui-frame.png"
    }

    /// W3b: PNG encode of the peers' UI-like frame (text, flat panels; 1920×1080) with each
    /// preset. The frame is a file of the harness, not of this repository.
    func w3b() throws -> [BenchResult] {
        let path = Self.uiFramePath
        let frame: PixelBuffer
        do { frame = try PNG.decode(contentsOf: path) } catch {
            throw BenchFailure("w3b needs the peers' UI frame: \(error.description) (set FLIPBOOK_UI_FRAME)")
        }
        return try encodePresets(frame, prefix: "w3b")
    }

    /// Each preset on one frame: size, and the median encode time over `frames` (5 when one
    /// encode takes over 2 s). Every output is decoded once and compared with the input.
    func encodePresets(_ frame: PixelBuffer, prefix: String) throws -> [BenchResult] {
        let raw = Double(frame.width * frame.height * 4)
        var rows: [BenchResult] = []
        for (name, options) in [("fast", PNGEncodeOptions.fast), ("default", .default), ("small", .small)] {
            var png: [UInt8] = []
            let first = try BenchClock.measure { png = try PNG.encode(frame, options: options) }
            guard try PNG.decode(png) == frame else { throw BenchFailure("\(prefix)-\(name): output does not decode to the input") }
            let slow = first.wall > 2
            let n = slow ? min(frames, 5) : frames
            let s = try benchLoop(warmups: slow ? 0 : max(0, warmups - 1), frames: n) {
                _ = try PNG.encode(frame, options: options)
            }
            let mbs = raw / (s.medianMs * 1000)
            rows.append(result("\(prefix)-\(name)", s, pixels: frame.width * frame.height, threads: 1,
                               note: "\(png.count) bytes, \(BenchReport.fixed(mbs, 1)) MB/s raw, lossless"))
        }
        return rows
    }

    /// End-to-end through the real pipeline: the animated W1 scene as a `CALayer` tree with
    /// animations (`BenchScenes.animatedW1Recorder`), recorded by `Recorder` for `sequence`
    /// frames on all cores — compositing of frame n+1 overlapping the encoding of frame n — to
    /// PNG files (preset `fast`) or to the null sink. Timed: whole recordings (after one warm-up;
    /// building the layer tree is setup, not timed); ms/frame = recording wall time ÷ frames.
    func endToEnd(toPNG: Bool, runs: Int = 3) throws -> [BenchResult] {
        let images = BenchScenes.w1Images()
        let workers = ProcessInfo.processInfo.activeProcessorCount
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("flipbook-bench-\(getpid())").path
        let n = sequence
        var last = PixelBuffer(width: 1, height: 1)
        func runSequence(_ recorder: Recorder) throws {
            let sink: FrameSink = toPNG ? PNGSequenceSink(directory: dir, options: .fast) : NullFrameSink()
            try recorder.record(to: sink, options: RecordingOptions(threads: workers))
            if toPNG { last = try PNG.decode(contentsOf: (sink as! PNGSequenceSink).path(forFrame: n - 1)) }
        }
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try runSequence(BenchScenes.animatedW1Recorder(frames: n, images: images))  // warm-up
        var wall: [Double] = [], cpu: [Double] = []
        for _ in 0..<runs {
            let recorder = BenchScenes.animatedW1Recorder(frames: n, images: images)
            let t = try BenchClock.measure { try runSequence(recorder) }
            wall.append(t.wall / Double(n)); cpu.append(t.cpu / Double(n))
        }
        if toPNG { save("e2e-png", last) }   // the null sink keeps no pixels
        let s = BenchStats(wall: wall, cpu: cpu)
        return [result(toPNG ? "e2e-png" : "e2e-null", s, pixels: BenchScenes.w1Covered, threads: workers,
                       note: "\(n) frames x \(runs) runs, ms/frame = wall/frames, \(BenchReport.fixed(1000 / s.medianMs, 1)) fps")]
    }
}
