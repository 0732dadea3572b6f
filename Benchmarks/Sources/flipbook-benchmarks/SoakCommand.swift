import ArgumentParser
import Flipbook
import FlipbookPixels
import FlipbookPNG
import FlipbookRender
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// `flipbook-benchmarks soak`: records ``SoakScene`` at 1920×1080 for `--seconds` of wall time
/// to PNG files **and** an MP4 in one pass, sampling memory and time every `--sample-every`
/// frames, and fails when either grows (issue 40; `make soak`; docs/soak.md).
///
/// - One `Recorder` with one sink, ``SoakSink``, which hands every frame to a
///   `PNGSequenceSink` (a ring: frame `n` is written as file `n mod --ring`, so the disk holds
///   at most `--ring` frames however long the run) and then to an `FFmpegSink` (H.264 MP4, the
///   whole run). The frame index and the virtual clock only rise: the scene is never restarted.
/// - The run stops when `--seconds` have passed (the recorder's `shouldStop`); the sink then
///   finishes both outputs instead of cancelling them.
/// - Every `--sample-every` frames one CSV row: frame, wall seconds, this process's RSS
///   (`VmRSS`), ffmpeg's RSS, wall and CPU milliseconds per frame over the last interval, the
///   1-minute load average.
/// - Verdict (after the run): see ``SoakVerdict``.
struct SoakCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "soak",
        abstract: "Record the soak scene (every layer class, 1080p) to PNG and MP4 for a given time; fail on memory growth or time drift."
    )

    @Option(help: "Wall-clock seconds to record.")
    var seconds: Double = 120

    @Option(help: "Output folder (PNG ring, MP4, CSV).")
    var out: String = "/tmp/flipbook-soak"

    @Option(help: "PNG files in the ring (frame n is written as file n mod ring).")
    var ring: Int = 300

    @Option(help: "Compositor threads (the PNG and MP4 encoding run on one writer thread besides; ffmpeg is a process of its own).")
    var threads: Int = 1

    @Option(help: "Frames between two samples.")
    var sampleEvery: Int = 100

    @Option(help: "Frames of warm-up: memory and time after them are the baseline (at most a quarter of the frames written, so a short run on a slow machine is judged too).")
    var warmupFrames: Int = 500

    @Option(help: "Frames per second of the recording (the virtual clock).")
    var fps: Double = 30

    @Option(help: "H.264 quality (CRF) of the MP4.")
    var crf: Int = 28

    @Option(help: "The CSV file (default OUT/soak.csv).")
    var csv: String?

    @Option(help: "Keep this many KiB more per frame, on purpose (checks that the memory rule fails a leaking run).")
    var injectLeakKib: Int = 0

    @Option(help: "Start at this frame (the recorder seeks: events before it run, no frame before it is drawn). Comparing a run from 0 with one from a late frame in the same sitting separates drift from the machine's load.")
    var firstFrame: Int = 0

    func run() throws {
        guard seconds > 0, ring > 0, sampleEvery > 0, warmupFrames >= 0, threads > 0, firstFrame >= 0 else {
            throw BenchFailure("--seconds, --ring, --sample-every and --threads must be positive, --first-frame not negative")
        }
        try FileManager.default.createDirectory(atPath: out + "/frames", withIntermediateDirectories: true)
        let csvPath = csv ?? out + "/soak.csv"
        let mp4Path = out + "/soak.mp4"

        let loop = VirtualRunLoop()
        let handles = loop.run { SoakScene.make() }
        // Enough frames that the time limit, not the range, ends the run (a frame takes well
        // over 1 ms at 1080p); events up to the range's end, scheduled up front.
        let frameCount = max(1000, Int(seconds * 1000))
        let settings = RecordingSettings(width: SoakScene.width, height: SoakScene.height, fps: fps,
                                         frames: firstFrame...(firstFrame + frameCount - 1),
                                         background: CGColor(red: 0, green: 0, blue: 0, alpha: 1))
        let recorder = Recorder(root: handles.root, settings: settings)
        let horizon = Double(firstFrame + frameCount) / fps
        var k = 1
        while Double(k) * SoakScene.eventInterval < horizon {
            let n = k
            recorder.at(Double(n) * SoakScene.eventInterval) { SoakScene.event(n, handles) }
            k += 1
        }

        let png = PNGSequenceSink(directory: out + "/frames", options: .fast)
        let mp4 = FFmpegSink(path: mp4Path, encoding: FFmpegEncoding(container: .mp4, codec: .h264, quality: crf))
        let sink = try SoakSink(png: png, mp4: mp4, ring: ring, sampleEvery: sampleEvery, csvPath: csvPath,
                                leakBytesPerFrame: max(0, injectLeakKib) * 1024)
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(seconds * 1e9)
        soakSay("soak: \(Int(SoakScene.width))×\(Int(SoakScene.height)) at \(fps) fps, \(threads) compositor thread(s), \(Int(seconds)) s;"
              + " PNG ring of \(ring) in \(out)/frames, MP4 \(mp4Path), samples every \(sampleEvery) frames to \(csvPath)")
        let options = RecordingOptions(threads: threads, shouldStop: { @Sendable in
            guard DispatchTime.now().uptimeNanoseconds >= deadline else { return false }
            sink.timeUp()
            return true
        })
        let result: RecordingResult
        do { result = try recorder.record(to: sink, options: options) } catch {
            throw BenchFailure("soak: the recording failed: \(error)")
        }
        if let e = sink.finishError { throw BenchFailure("soak: finishing the outputs failed: \(e)") }
        let samples = sink.samples
        // The warm-up, at most a quarter of the run (whole samples, at least one).
        let written = (samples.last?.frame ?? firstFrame) - firstFrame
        let warmup = min(warmupFrames, max(sampleEvery, written / 4 / sampleEvery * sampleEvery))
        if warmup < warmupFrames { soakSay("soak: a short run: the warm-up is \(warmup) frames instead of \(warmupFrames)") }
        let verdict = SoakVerdict(samples: samples, warmupFrames: firstFrame + warmup)
        soakSay("soak: \(result.framesWritten) frames in \(BenchReport.fixed(result.elapsed, 1)) s"
              + " (\(BenchReport.fixed(Double(result.framesWritten) / result.elapsed, 2)) fps); PNG \(png.bytesWritten / 1_048_576) MiB written in all,"
              + " MP4 \((try? FileManager.default.attributesOfItem(atPath: mp4Path)[.size] as? Int).flatMap { $0 }.map { "\($0 / 1_048_576) MiB" } ?? "missing")")
        for line in verdict.report { soakSay("soak: " + line) }
        if let failure = verdict.failure { throw BenchFailure("soak FAILED: " + failure) }
        soakSay("soak: passed")
    }
}

/// One CSV row.
struct SoakSample {
    var frame: Int
    var wall: Double
    var rssMiB: Double
    var ffmpegRSSMiB: Double
    var wallMsPerFrame: Double
    var cpuMsPerFrame: Double
    var load1: Double

    static let header = "frame,wall_s,rss_mib,ffmpeg_rss_mib,wall_ms_per_frame,cpu_ms_per_frame,load1"
    var row: String {
        [String(frame), BenchReport.fixed(wall, 2), BenchReport.fixed(rssMiB, 1), BenchReport.fixed(ffmpegRSSMiB, 1),
         BenchReport.fixed(wallMsPerFrame, 2), BenchReport.fixed(cpuMsPerFrame, 2), BenchReport.fixed(load1, 2)].joined(separator: ",")
    }
}

/// The soak's sink: each frame to the PNG ring, then to ffmpeg, then (every `sampleEvery`
/// frames) a sample. A stream (`acceptsConcurrentWrites` false): the recorder's one writer
/// thread calls it in frame order, while the recording thread composites the next frame.
final class SoakSink: FrameSink, @unchecked Sendable {
    let png: PNGSequenceSink
    let mp4: FFmpegSink
    let ring: Int
    let sampleEvery: Int
    let leakBytesPerFrame: Int
    private let csv: FileHandle
    private struct State {
        var samples: [SoakSample] = []
        var leaked: [[UInt8]] = []
        var start = 0.0, lastWall = 0.0, lastCPU = 0.0
        var timeUp = false
        var finishError: FrameSinkError?
    }
    private let state = Mutex(State())
    var acceptsConcurrentWrites: Bool { false }

    init(png: PNGSequenceSink, mp4: FFmpegSink, ring: Int, sampleEvery: Int, csvPath: String, leakBytesPerFrame: Int = 0) throws {
        self.png = png; self.mp4 = mp4; self.ring = ring; self.sampleEvery = sampleEvery
        self.leakBytesPerFrame = leakBytesPerFrame
        guard FileManager.default.createFile(atPath: csvPath, contents: Data((SoakSample.header + "\n").utf8)),
              let h = FileHandle(forWritingAtPath: csvPath) else { throw BenchFailure("cannot create \(csvPath)") }
        h.seekToEndOfFile()
        csv = h
    }

    var samples: [SoakSample] { state.withLock { $0.samples } }
    var finishError: FrameSinkError? { state.withLock { $0.finishError } }
    /// The time limit was reached: ``cancel()`` finishes the outputs instead of abandoning them.
    func timeUp() { state.withLock { $0.timeUp = true } }

    func begin(_ format: FrameSinkFormat) throws(FrameSinkError) {
        try png.begin(FrameSinkFormat(width: format.width, height: format.height, fps: format.fps, frames: 0...(ring - 1)))
        try mp4.begin(format)
        let now = SoakProbe.wall(), cpu = SoakProbe.cpu()
        state.withLock { $0.start = now; $0.lastWall = now; $0.lastCPU = cpu }
    }

    func write(frame index: Int, _ image: PixelBuffer, time: Double) throws(FrameSinkError) {
        try png.write(frame: index % ring, image, time: time)
        try mp4.write(frame: index, image, time: time)
        if leakBytesPerFrame > 0 {   // --inject-leak-kib: resident (written), kept for good
            let block = [UInt8](repeating: UInt8(truncatingIfNeeded: index | 1), count: leakBytesPerFrame)
            state.withLock { $0.leaked.append(block) }
        }
        guard (index + 1) % sampleEvery == 0 else { return }
        let now = SoakProbe.wall(), cpu = SoakProbe.cpu()
        let s: SoakSample = state.withLock { st in
            let s = SoakSample(frame: index + 1, wall: now - st.start, rssMiB: SoakProbe.rssMiB(),
                               ffmpegRSSMiB: SoakProbe.childRSSMiB(named: "ffmpeg"),
                               wallMsPerFrame: (now - st.lastWall) * 1000 / Double(sampleEvery),
                               cpuMsPerFrame: (cpu - st.lastCPU) * 1000 / Double(sampleEvery), load1: SoakProbe.load1())
            st.lastWall = now; st.lastCPU = cpu
            st.samples.append(s)
            return s
        }
        csv.write(Data((s.row + "\n").utf8))
        soakSay("soak: frame \(s.frame), \(Int(s.wall)) s, RSS \(BenchReport.fixed(s.rssMiB, 1)) MiB, "
              + "\(BenchReport.fixed(s.cpuMsPerFrame, 1)) CPU ms/frame, \(BenchReport.fixed(s.wallMsPerFrame, 1)) wall ms/frame, load \(s.load1)")
    }

    func finish() throws(FrameSinkError) {
        try png.finish()
        try mp4.finish()
    }

    func cancel() {
        if state.withLock({ $0.timeUp }) {
            do throws(FrameSinkError) { try finish() } catch {
                state.withLock { $0.finishError = error }
                png.cancel(); mp4.cancel()
            }
        } else {
            png.cancel(); mp4.cancel()
        }
    }
}

/// What the soak reads of the process and the machine.
enum SoakProbe {
    static func wall() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

    /// CPU time of the whole process (every thread), seconds.
    static func cpu() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    /// `VmRSS` of `/proc/<pid>/status` in MiB (0 when unreadable).
    static func rssMiB(pid: String = "self") -> Double {
        guard let s = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return 0 }
        for line in s.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            let kb = line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first.flatMap { Double($0) } ?? 0
            return kb / 1024
        }
        return 0
    }

    /// RSS of this process's child called `name` (the ffmpeg encoder), 0 when there is none.
    static func childRSSMiB(named name: String) -> Double {
        let me = getpid()
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return 0 }
        for e in entries where e.first?.isNumber == true {
            guard let stat = try? String(contentsOfFile: "/proc/\(e)/stat", encoding: .utf8),
                  let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")") else { continue }
            let comm = stat[stat.index(after: open)..<close]
            let rest = stat[stat.index(after: close)...].split(separator: " ")
            // Fields after the name: state, ppid, …
            if comm == name, rest.count > 1, Int32(rest[1]) == me { return rssMiB(pid: e) }
        }
        return 0
    }

    static func load1() -> Double {
        guard let s = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8) else { return 0 }
        return s.split(separator: " ").first.flatMap { Double($0) } ?? 0
    }
}

/// The soak's pass/fail rule, applied to the samples after the run.
///
/// - **Memory**: the baseline is the RSS of the first sample at or after `warmupFrames` (the
///   caches — glyphs, plans, the emitter's particle history, the malloc arenas of the writer
///   thread — are full by then). Every later sample must stay within
///   `max(1.25 × baseline, baseline + 64 MiB)`: a bound that does not grow with the frame
///   count, so any leak per frame crosses it in a long enough run. The slack is a few frame
///   buffers (a 1080p frame is 7.9 MiB) of allocator noise.
/// - **Time**: the medians of the CPU milliseconds per frame of the first and the last
///   `k = min(10, n / 2)` samples after the warm-up; the late median must be at most 1.5 × the
///   early one. CPU time of this process, not wall time: the machine is shared, and the wall
///   time of a frame measures the neighbours (and ffmpeg, whose pipe sets the pace) as much as
///   Flipbook. Medians, so a burst of load does not decide. Wall time is recorded and plotted.
struct SoakVerdict {
    var report: [String] = []
    var failure: String?

    static func median(_ xs: [Double]) -> Double {
        let s = xs.sorted()
        guard !s.isEmpty else { return .nan }
        return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
    }

    init(samples: [SoakSample], warmupFrames: Int) {
        let after = samples.filter { $0.frame >= warmupFrames }
        guard let base = after.first, after.count >= 2 else {
            failure = "too few samples after the warm-up (\(after.count)); run longer (--seconds) or sample more often"
            return
        }
        let bound = max(base.rssMiB * 1.25, base.rssMiB + 64)
        let maxRSS = after.map(\.rssMiB).max()!
        let last = samples.last!
        report.append("RSS: first sample \(BenchReport.fixed(samples.first!.rssMiB, 1)) MiB, after warm-up (frame \(base.frame)) "
                      + "\(BenchReport.fixed(base.rssMiB, 1)) MiB, end \(BenchReport.fixed(last.rssMiB, 1)) MiB, max \(BenchReport.fixed(maxRSS, 1)) MiB "
                      + "(bound \(BenchReport.fixed(bound, 1)) MiB); ffmpeg end \(BenchReport.fixed(last.ffmpegRSSMiB, 1)) MiB")
        let k = min(10, after.count / 2)
        let early = Self.median(after.prefix(k).map(\.cpuMsPerFrame)), late = Self.median(after.suffix(k).map(\.cpuMsPerFrame))
        let earlyWall = Self.median(after.prefix(k).map(\.wallMsPerFrame)), lateWall = Self.median(after.suffix(k).map(\.wallMsPerFrame))
        report.append("CPU ms/frame, median of \(k) samples: early \(BenchReport.fixed(early, 2)), late \(BenchReport.fixed(late, 2)) "
                      + "(ratio \(BenchReport.fixed(late / early, 3)), bound 1.5); wall ms/frame: early \(BenchReport.fixed(earlyWall, 2)), "
                      + "late \(BenchReport.fixed(lateWall, 2)) (ratio \(BenchReport.fixed(lateWall / earlyWall, 3)), not a criterion)")
        var problems: [String] = []
        if let over = after.first(where: { $0.rssMiB > bound }) {
            problems.append("RSS \(BenchReport.fixed(over.rssMiB, 1)) MiB at frame \(over.frame) is above the bound "
                            + "\(BenchReport.fixed(bound, 1)) MiB (after warm-up \(BenchReport.fixed(base.rssMiB, 1)) MiB)")
        }
        if late > 1.5 * early {
            problems.append("CPU time per frame drifted from \(BenchReport.fixed(early, 2)) ms to \(BenchReport.fixed(late, 2)) ms (> 1.5×)")
        }
        if !problems.isEmpty { failure = problems.joined(separator: "; ") }
    }
}

/// A line on standard output, written at once (not buffered: a log of a long run is current).
func soakSay(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }
