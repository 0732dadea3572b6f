import ArgumentParser
import FlipbookPixels
import FlipbookPNG
import FlipbookRaster
import Foundation

/// `flipbook-benchmarks [suite]`: the peers' workloads through the real pipeline, plus PNG, an
/// end-to-end sequence and scaling sweeps. Protocol as `../shared/peers/bench.py`: warm-up frames, then
/// each frame timed on its own (wall and process CPU time), median with min/max; building
/// the layer trees and images is setup and is not timed. Run it on a release build.
struct SuiteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "suite",
        abstract: "Measure compositor, rasterizer and PNG throughput on the peers' workloads (W1 W2 W3 W4 W6a W6b W7), end to end, and scaling sweeps.",
        discussion: """
        Workloads: w1 (64 rotated layers), w2 (full-frame identity blend), w4 (perspective), \
        w3 (PNG encode of the W1 frame, each preset), w3b (the same on the peers' UI frame, \
        ../shared/peers/fixtures/ui-frame.png or $FLIPBOOK_UI_FRAME), e2e (animated W1 to PNG files and to null, \
        all cores), w6a (10,000 rotated image layers), w6b (10,000 rounded-rect layers), w7 (1,000 \
        filled Bézier shapes + 500 round-capped strokes; bypasses the layer model until CAShapeLayer \
        exists), e2e-w6a / e2e-w6b (the static W6 trees recorded to the null sink, 1 and 2 threads), \
        raster (the path rasterizer's coverage alone on W6b and W7), sweep-layers, sweep-resolution, sweep-threads, sweep-depth; `sweeps` = the \
        four sweeps, `all` = everything. Default: w1 w2 w4 w3 w3b e2e w6a w6b w7 e2e-w6a e2e-w6b. Times on a shared machine \
        vary; compare ratios from one run (Benchmarks/side-by-side.sh).
        """
    )

    static let core = ["w1", "w2", "w4", "w3", "w3b", "e2e", "w6a", "w6b", "w7", "e2e-w6a", "e2e-w6b", "w8"]
    static let extra = ["raster", "raster-quads", "w6b-fresh", "w7-layers", "w7-draw", "gradients", "emitter", "text", "fuzz-cb"]
    static let sweeps = ["sweep-layers", "sweep-resolution", "sweep-threads", "sweep-depth"]

    @Option(name: .customLong("workload"), help: "Workload to run (repeatable): w1 w2 w3 w3b w4 e2e w6a w6b w7 e2e-w6a e2e-w6b raster w7-layers w7-draw gradients emitter text fuzz-cb sweep-layers sweep-resolution sweep-threads sweep-depth sweeps all.")
    var workloads: [String] = []

    @Option(help: "Compositor worker threads for w1/w2/w4 and the sweeps (e2e always uses all cores).")
    var threads: Int = 1

    @Option(help: "Timed frames per workload (after the warm-ups).")
    var frames: Int = 30

    @Option(help: "Untimed warm-up frames per workload.")
    var warmups: Int = 3

    @Option(help: "Frames of the end-to-end sequence.")
    var sequence: Int = 60

    @Flag(help: "Print one JSON object instead of the table.")
    var json = false

    @Option(help: "Write each workload's last frame as <DIR>/<name>.png.")
    var save: String?

    func validate() throws {
        guard frames >= 1 else { throw ValidationError("--frames must be at least 1") }
        guard warmups >= 0 else { throw ValidationError("--warmups must be 0 or more") }
        guard threads >= 1 else { throw ValidationError("--threads must be at least 1") }
        guard sequence >= 1 else { throw ValidationError("--sequence must be at least 1") }
        for w in workloads where !(Self.core + Self.extra + Self.sweeps + ["sweeps", "all"]).contains(w) {
            throw ValidationError("unknown workload '\(w)'; known: \((Self.core + Self.extra + Self.sweeps + ["sweeps", "all"]).joined(separator: " "))")
        }
    }

    /// The selected workloads in a fixed order, duplicates removed.
    var selected: [String] {
        var names: Set<String> = []
        for w in workloads.isEmpty ? ["core"] : workloads {
            switch w {
            case "all": names.formUnion(Self.core + Self.extra + Self.sweeps)
            case "sweeps": names.formUnion(Self.sweeps)
            case "core": names.formUnion(Self.core)
            default: names.insert(w)
            }
        }
        return (Self.core + Self.extra + Self.sweeps).filter(names.contains)
    }

    func run() throws {
        if let save {
            do { try FileManager.default.createDirectory(atPath: save, withIntermediateDirectories: true) } catch {
                throw BenchFailure("cannot create --save folder \(save): \(error.localizedDescription)")
            }
        }
        let simd = RasterBackend.current == .native ? (RasterBackend.avx512Available ? "avx2+avx512bw" : "avx2") : "portable"
        let machine = BenchMachine.current(simd: simd)
        let bench = BenchWorkloads(frames: frames, warmups: warmups, threads: threads, sequence: sequence) { name, frame in
            guard let save else { return }
            do { try PNG.write(frame, to: save + "/" + name + ".png", options: .fast) } catch {
                FileHandle.standardError.write(Data("bench: cannot save \(name): \(error)\n".utf8))
            }
        }
        if !json {
            print("flipbook-benchmarks — \(machine.cpu), \(machine.cores) cores, SIMD \(simd), load \(BenchReport.fixed(machine.loadStart, 2)), \(machine.date)")
            print("frames: \(warmups) warm-up + \(frames) timed, one by one; median/min/max wall ms, cpu = process CPU ms (median)")
            print(BenchReport.header)
        }
        var all: [BenchResult] = []
        for name in selected {
            let rows: [BenchResult]
            do {
                switch name {
                case "w1": rows = try bench.w1()
                case "w2": rows = try bench.w2()
                case "w4": rows = try bench.w4()
                case "w3": rows = try bench.w3()
                case "w3b": rows = try bench.w3b()
                case "e2e": rows = try bench.endToEnd(toPNG: true) + bench.endToEnd(toPNG: false)
                case "w6a": rows = try bench.w6a()
                case "w6b": rows = try bench.w6b()
                case "w6b-fresh": rows = try bench.w6bFresh()
                case "w7": rows = try bench.w7()
                case "w7-layers": rows = try bench.w7Layers()
                case "w7-draw": rows = try bench.w7Draw()
                case "gradients": rows = try bench.gradients()
                case "text": rows = try bench.text()
                case "fuzz-cb": rows = try bench.fuzzCB()
                case "emitter": rows = try bench.emitter()
                case "w8": rows = try bench.w8()
                case "e2e-w6a": rows = try bench.endToEndStatic("w6a")
                case "e2e-w6b": rows = try bench.endToEndStatic("w6b") + bench.endToEndStatic("w6b", moving: true)
                case "raster": rows = try bench.rasterCoverage()
                case "raster-quads": rows = bench.rasterQuads()
                case "sweep-layers": rows = try bench.sweepLayers()
                case "sweep-resolution": rows = try bench.sweepResolution()
                case "sweep-threads": rows = try bench.sweepThreads()
                default: rows = try bench.sweepDepth()
                }
            } catch {
                throw BenchFailure("\(name) failed: \(error)")
            }
            if !json { for r in rows { print(BenchReport.row(r)) } }
            all += rows
        }
        if json { print(BenchReport.json(all, machine: machine)) }
    }
}
