import ArgumentParser
import Dispatch
import Flipbook
import FlipbookPixels
import FlipbookPNG
import FlipbookRender
import Foundation
import FlipbookScene
import Synchronization

/// `flipbook bench SCENE.json` (or a Lottie file): how fast *this* scene renders, and where the time goes.
///
/// Records the scene exactly as `flipbook render` does (same `Recorder`, same pipeline: the
/// recording thread advances the model, snapshots and composites frame n+1 while writer
/// threads encode and write frame n), to PNG files in a temporary folder that is removed
/// afterwards (or to nowhere with `--format null`), and reports frames per second of the
/// whole recording and, per frame, the time of each stage:
///
/// - **advance**: the model reaching the frame's time (events due, clock, commits);
/// - **snapshot**: the render-tree snapshot (`makeRenderTree()`);
/// - **composite**: the compositor drawing the frame (`--threads` band workers);
/// - **encode**: the sink writing it (PNG encoding + file write; on writer threads).
///
/// Loading the scene (parsing, decoding images, building the layer tree) is reported apart.
/// The benchmark suite of the project itself is another program: `Benchmarks/`.
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Benchmark a scene: frames per second and the time per stage (advance, snapshot, composite, encode).",
        discussion: """
        The scene is recorded as `flipbook render` would (PNG frames go to a temporary folder, \
        removed afterwards). Stage times are per frame (median, mean, max); advance, snapshot \
        and composite run on the recording thread, encode on writer threads at the same time, \
        so frames/s is set by the slowest of the two sides, not by their sum.
        """
    )

    /// Where the frames go.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        /// PNG files in a temporary folder (encode + write timed).
        case png
        /// Nowhere (`NullFrameSink`): the encode stage is only the hand-over.
        case null
    }

    @Argument(help: "The scene file (.json, see docs/scene-format.md) or a Lottie file (JSON or .lottie, by content).")
    var scene: String

    @Option(help: "Frames to record, A..B inclusive (default: the scene's range).")
    var frames: String?

    @Option(help: "Worker threads per stage (default: the number of cores).")
    var threads: Int?

    @Option(help: "png (files in a temporary folder, removed afterwards) or null.")
    var format: Format = .png

    @Option(name: .customLong("png-compression"), help: "PNG preset: fast (default), fastZlib, default or small.")
    var pngCompression: PNGPreset = .fast

    @Flag(help: "Print one JSON object instead of the table.")
    var json = false

    func run() throws {
        let code = execute(RenderIO.standard)
        if code != 0 { throw ExitCode(code) }
    }
}

extension BenchCommand {
    /// Runs the benchmark; returns the exit code (0 ok, 1 invalid scene, 2 usage, 3 output
    /// failed). All printing goes through `io`.
    func execute(_ io: RenderIO) -> Int32 {
        func fail(_ code: Int32, _ message: String) -> Int32 {
            io.err("flipbook bench: " + message + "\n")
            return code
        }
        // 1. Usage.
        var range: ClosedRange<Int>?
        if let f = frames {
            guard let r = RenderPlan.parseRange(f) else {
                return fail(RenderExit.usage, "--frames must be A..B with 0 <= A <= B, e.g. 0..59, got '\(f)'")
            }
            range = r
        }
        if let t = threads, !(1...256).contains(t) { return fail(RenderExit.usage, "--threads must be 1...256, got \(t)") }
        let png = pngCompression.options
        let threads = self.threads ?? ProcessInfo.processInfo.activeProcessorCount

        // 2. Scene and images (timed apart: it is not per frame).
        let loadStart = DispatchTime.now().uptimeNanoseconds
        let builder: SceneBuilder
        var settings: RecordingSettings
        do throws(CLIFailure) {
            let input = try SceneInput.parse(path: scene, displayName: scene, kind: InputKind.of(path: scene))
            settings = input.description.recording
            builder = try input.makeBuilder(settings: settings).builder
        } catch { return fail(error.exitCode, error.message) }
        if let range { settings.frames = range }
        let recorder = builder.makeRecorder(settings: settings)
        let loadSeconds = Double(DispatchTime.now().uptimeNanoseconds - loadStart) / 1e9

        // 3. Output.
        var folder: String?
        let inner: FrameSink
        switch format {
        case .null:
            inner = NullFrameSink()
        case .png:
            let dir = FileManager.default.temporaryDirectory
                .appendingPathComponent("flipbook-bench-\(getpid())-\(UInt32.random(in: 0...UInt32.max))").path
            do { try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true) } catch {
                return fail(RenderExit.outputFailed, "cannot create a temporary folder \(dir): \((error as NSError).localizedDescription)")
            }
            folder = dir
            inner = PNGSequenceSink(directory: dir, options: png)
        }
        defer { if let folder { try? FileManager.default.removeItem(atPath: folder) } }
        let sink = TimedFrameSink(inner)

        // 4. Frames.
        let result: RecordingResult
        do { result = try recorder.record(to: sink, options: RecordingOptions(threads: threads)) } catch {
            io.err("flipbook bench: \(error.description)\n")
            if case let .sink(e) = error, e.isOutputFailure { return RenderExit.outputFailed }
            return RenderExit.invalidInput
        }
        let report = BenchSceneReport(
            scene: scene, settings: settings, threads: threads,
            format: format == .png ? "png \(pngCompression.rawValue)" : "null", loadSeconds: loadSeconds, result: result,
            stages: [("advance", result.advanceTimes), ("snapshot", result.snapshotTimes),
                     ("composite", result.renderTimes), ("encode", sink.writeTimes)])
        io.out(json ? report.json() : report.table())
        return RenderExit.ok
    }
}

/// A sink that forwards to another and times each `write` (encoding + writing a frame).
final class TimedFrameSink: FrameSink {
    private let inner: FrameSink
    private let times = Mutex<[Double]>([])

    init(_ inner: FrameSink) { self.inner = inner }

    /// Seconds of each write, in completion order.
    var writeTimes: [Double] { times.withLock { $0 } }

    var acceptsConcurrentWrites: Bool { inner.acceptsConcurrentWrites }
    func begin(_ format: FrameSinkFormat) throws(FrameSinkError) { try inner.begin(format) }
    func write(frame index: Int, _ image: PixelBuffer, time: Double) throws(FrameSinkError) {
        let t0 = DispatchTime.now().uptimeNanoseconds
        try inner.write(frame: index, image, time: time)
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e9
        times.withLock { $0.append(seconds) }
    }
    func finish() throws(FrameSinkError) { try inner.finish() }
    func cancel() { inner.cancel() }
}

/// What `flipbook bench` prints: a table, or one JSON object.
struct BenchSceneReport {
    var scene: String
    var settings: RecordingSettings
    var threads: Int
    var format: String
    var loadSeconds: Double
    var result: RecordingResult
    /// Per-stage seconds per frame, in pipeline order.
    var stages: [(name: String, seconds: [Double])]

    struct Summary: Equatable {
        var median: Double, mean: Double, min: Double, max: Double, total: Double
        init(_ v: [Double]) {
            let s = v.sorted(), n = s.count
            median = n == 0 ? 0 : n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2
            total = s.reduce(0, +)
            mean = n == 0 ? 0 : total / Double(n)
            min = s.first ?? 0
            max = s.last ?? 0
        }
    }

    func table() -> String {
        let r = result
        var out = "flipbook bench \(scene): \(r.framesWritten) frames (\(r.frames.lowerBound)..\(r.frames.upperBound)), "
            + "\(settings.pixelWidth)×\(settings.pixelHeight), \(threads) thread\(threads == 1 ? "" : "s"), \(format)\n"
        out += String(format: "%.3f s, %.1f frames/s (scene loaded in %.1f ms)\n", r.elapsed, r.framesPerSecond, loadSeconds * 1000)
        out += "stage      | median ms |   mean ms |    max ms |  total s\n"
        for (name, seconds) in stages {
            let s = Summary(seconds)
            out += name.padding(toLength: 10, withPad: " ", startingAt: 0)
                + String(format: " | %9.3f | %9.3f | %9.3f | %8.3f\n", s.median * 1000, s.mean * 1000, s.max * 1000, s.total)
        }
        return out
    }

    /// `{"scene": …, "frames": …, "frames_per_s": …, "stages": {"advance": {"median_ms": …}, …}}`.
    func json() -> String {
        func num(_ v: Double) -> String { v.isFinite ? String(format: "%.4f", v) : "null" }
        let r = result
        var lines = [
            "\"scene\": \(Self.quote(scene))",
            "\"frames\": {\"first\": \(r.frames.lowerBound), \"last\": \(r.frames.upperBound), \"written\": \(r.framesWritten)}",
            "\"width\": \(settings.pixelWidth)", "\"height\": \(settings.pixelHeight)",
            "\"threads\": \(threads)", "\"format\": \(Self.quote(format))",
            "\"load_ms\": \(num(loadSeconds * 1000))", "\"elapsed_s\": \(num(r.elapsed))",
            "\"frames_per_s\": \(num(r.framesPerSecond))",
        ]
        let stageLines = stages.map { name, seconds -> String in
            let s = Summary(seconds)
            return "    \(Self.quote(name)): {\"median_ms\": \(num(s.median * 1000)), \"mean_ms\": \(num(s.mean * 1000)), "
                + "\"min_ms\": \(num(s.min * 1000)), \"max_ms\": \(num(s.max * 1000)), \"total_ms\": \(num(s.total * 1000)), "
                + "\"frames\": \(seconds.count)}"
        }
        lines.append("\"stages\": {\n" + stageLines.joined(separator: ",\n") + "\n  }")
        return "{\n  " + lines.joined(separator: ",\n  ") + "\n}\n"
    }

    static func quote(_ s: String) -> String {
        var out = "\""
        for c in s.unicodeScalars {
            switch c {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            default:
                if c.value < 0x20 { out += String(format: "\\u%04x", c.value) } else { out.unicodeScalars.append(c) }
            }
        }
        return out + "\""
    }
}
