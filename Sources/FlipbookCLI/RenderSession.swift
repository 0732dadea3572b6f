import Dispatch
import Flipbook
import FlipbookRender
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif
import FlipbookScene

/// One `render` run: Ctrl-C handling, progress, the recording, the summary.
struct RenderSession {
    var target: RenderTarget
    var settings: RecordingSettings
    var builder: SceneBuilder
    var plan: RenderPlan
    var resume: Bool
    var quiet: Bool
    var io: RenderIO

    func run() -> Int32 {
        let stop = Atomic<Bool>(false)
        let interrupt = io.handlesInterrupt ? _Interrupt.install { stop.store(true, ordering: .relaxed) } : nil
        defer { interrupt?.remove() }
        let progress = quiet || plan.progress == .none ? nil : RenderProgressPrinter(io: io, total: settings.frames.count, style: plan.progress)
        let asked = Atomic<Int>(0)
        let stopAfter = io.stopAfter
        var options = RecordingOptions(threads: plan.threads)
        options.shouldStop = {
            if let n = stopAfter, asked.add(1, ordering: .relaxed).newValue > n { return true }
            return stop.load(ordering: .relaxed)
        }
        if resume, let png = target.sink as? PNGSequenceSink { options.skip = { png.isFrameComplete($0) } }
        if let progress { options.progress = { progress.update($0) } }

        let recorder = builder.makeRecorder(settings: settings)
        let result: RecordingResult
        do { result = try recorder.record(to: target.sink, options: options) } catch {
            progress?.finishLine()
            io.err("flipbook render: \(error.description)\n")
            if case let .sink(e) = error, e.isOutputFailure { return RenderExit.outputFailed }
            return RenderExit.invalidInput
        }
        progress?.finishLine()
        if result.cancelled {
            let by = interrupt.map { " by \($0.signalName)" } ?? ""
            if target.format == .png && !(target.sink is PNGFileSink) {
                // The files actually in place: frames still being encoded at the interrupt were
                // abandoned (docs/recording.md), so the sink's count is the truth.
                let written = (target.sink as? PNGSequenceSink)?.framesWritten ?? result.framesWritten
                io.err("flipbook render: interrupted\(by) after \(written) frames; every file written is complete"
                       + " (run again with --resume to continue)\n")
            } else if target.format == .null || target.location == "-" {
                io.err("flipbook render: interrupted\(by) after \(result.framesWritten) frames\n")
            } else {
                // A stream, a video or a single PNG is one file: an interrupted one is removed, not
                // left half-written.
                io.err("flipbook render: interrupted\(by) after \(result.framesWritten) frames; the incomplete "
                       + "\(target.format.rawValue) file was removed\n")
            }
            return interrupt?.exitCode ?? RenderExit.interrupted
        }
        if !quiet { io.err(summary(result)) }
        return RenderExit.ok
    }

    /// `rendered 60 frames (0..59, 2 skipped) in 1.93 s, 31.1 frames/s, 12.4 MB → out/frame_%05d.png`
    func summary(_ r: RecordingResult) -> String {
        var s = "rendered \(r.framesWritten) frames (\(r.frames.lowerBound)..\(r.frames.upperBound)"
        if r.framesSkipped > 0 { s += ", \(r.framesSkipped) already complete" }
        s += ") in " + String(format: "%.2f s, %.1f frames/s", r.elapsed, r.framesPerSecond)
        if target.format != .null {
            s += ", " + Self.bytes(target.bytesWritten) + " → " + (target.location == "-" ? "stdout" : target.location)
        }
        s += "\n"
        if target.format == .null, !r.renderTimes.isEmpty {
            let t = r.renderTimes.sorted()
            let n = t.count
            let median = n % 2 == 1 ? t[n / 2] : (t[n / 2 - 1] + t[n / 2]) / 2
            let mean = t.reduce(0, +) / Double(n)
            s += String(format: "render time per frame: min %.2f ms, median %.2f ms, mean %.2f ms, max %.2f ms\n",
                        t[0] * 1000, median * 1000, mean * 1000, t[n - 1] * 1000)
        }
        return s
    }

    static func bytes(_ n: Int) -> String {
        if n < 1000 { return "\(n) B" }
        if n < 1_000_000 { return String(format: "%.1f kB", Double(n) / 1e3) }
        return String(format: "%.1f MB", Double(n) / 1e6)
    }
}

/// SIGINT (Ctrl-C), SIGTERM (what batch schedulers and `kill` send) and SIGHUP (a closed
/// terminal) while rendering: the default action (die at once, leaving temporaries) is replaced
/// by telling the recorder to stop; the run then removes what is incomplete and exits with
/// 128 + the signal's number (130, 143, 129: the shell's convention for "killed by").
final class _Interrupt: @unchecked Sendable {
    static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP]
    private let sources: [DispatchSourceSignal]
    /// The first signal received (0: none).
    let received = Atomic<Int32>(0)

    private init(sources: [DispatchSourceSignal]) { self.sources = sources }

    static func install(_ onInterrupt: @escaping @Sendable () -> Void) -> _Interrupt {
        var sources: [DispatchSourceSignal] = []
        let box = _InterruptBox()
        for sig in signals {
            signal(sig, SIG_IGN)
            let s = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            s.setEventHandler {
                box.interrupt?.received.compareExchange(expected: 0, desired: sig, ordering: .relaxed)
                onInterrupt()
            }
            s.resume()
            sources.append(s)
        }
        let i = _Interrupt(sources: sources)
        box.interrupt = i
        return i
    }

    /// The exit code for the signal received: 128 + its number (130 when none was recorded).
    var exitCode: Int32 {
        let sig = received.load(ordering: .relaxed)
        return sig == 0 ? RenderExit.interrupted : 128 + sig
    }

    /// The signal's name for messages.
    var signalName: String {
        switch received.load(ordering: .relaxed) {
        case SIGTERM: return "SIGTERM"
        case SIGHUP: return "SIGHUP"
        default: return "SIGINT"
        }
    }

    func remove() {
        for s in sources { s.cancel() }
        for sig in Self.signals { signal(sig, SIG_DFL) }
    }
}

/// Lets the signal handlers reach the `_Interrupt` they belong to (made after them).
private final class _InterruptBox: @unchecked Sendable {
    weak var interrupt: _Interrupt?
}

/// Progress: `text` on stderr — a redrawn bar with frames/s and ETA on a terminal, otherwise a
/// plain line at every 10 % (so logs stay short and identical in shape); `json` on stdout — one
/// object per line, at most ten a second plus the last:
/// `{"frame":12,"total":90,"fps":41.30,"eta":1.89,"index":11}` (`frame`: frames done this run,
/// `total`: frames this run renders, `fps`: frames done per second of wall time so far, `eta`:
/// seconds left at that rate, `index`: the frame number just written — frames finish in
/// order for streams, in any order for PNG folders).
final class RenderProgressPrinter: @unchecked Sendable {
    private let io: RenderIO
    private let lock = NSLock()
    private let started = DispatchTime.now().uptimeNanoseconds
    private var lastDraw: UInt64 = 0
    private var lastDecile = 0
    private var drew = false
    private let initialTotal: Int
    private let style: ProgressStyle

    init(io: RenderIO, total: Int, style: ProgressStyle = .text) { self.io = io; initialTotal = total; self.style = style }

    func update(_ p: RecordingProgress) {
        lock.lock(); defer { lock.unlock() }
        let now = DispatchTime.now().uptimeNanoseconds
        let seconds = Double(now - started) / 1e9
        let rate = seconds > 0 ? Double(p.written) / seconds : 0
        let total = max(p.total, 1)
        if style == .json {
            guard now - lastDraw > 100_000_000 || p.written == p.total || lastDraw == 0 else { return }
            lastDraw = now
            let eta = rate > 0 ? Double(p.total - p.written) / rate : 0
            io.out(String(format: "{\"frame\":%d,\"total\":%d,\"fps\":%.2f,\"eta\":%.2f,\"index\":%d}\n", p.written, p.total, rate, eta, p.frame))
        } else if io.isTerminal {
            guard now - lastDraw > 100_000_000 || p.written == p.total else { return }
            lastDraw = now
            let width = 30, filled = min(width, width * p.written / total)
            let eta = rate > 0 ? Double(p.total - p.written) / rate : 0
            let bar = String(repeating: "█", count: filled) + String(repeating: "·", count: width - filled)
            io.err(String(format: "\r%@ %d/%d frames  %.1f frames/s  ETA %@ ", bar, p.written, p.total, rate, Self.clock(eta)))
            drew = true
        } else {
            let decile = 10 * p.written / total
            guard decile > lastDecile else { return }
            lastDecile = decile
            io.err(String(format: "%d/%d frames (%d%%), %.1f frames/s\n", p.written, p.total, decile * 10, rate))
        }
    }

    /// Ends the bar's line (terminal only).
    func finishLine() {
        lock.lock(); defer { lock.unlock() }
        if drew { io.err("\n"); drew = false }
    }

    static func clock(_ s: Double) -> String {
        let t = Int(s.rounded())
        return t >= 60 ? "\(t / 60)m\(String(format: "%02d", t % 60))s" : "\(t)s"
    }
}
