import FlipbookPixels
/// Where rendered frames go: PNG files, a Y4M stream, an ffmpeg pipe, memory, or nowhere.
///
/// ## Protocol
/// The recorder calls, in this order:
/// 1. ``begin(_:)`` once, with the frame size, rate and range. Output files are created (as
///    temporaries) here, so an unwritable folder or a missing program fails *before* any
///    frame is rendered.
/// 2. ``write(frame:_:time:)`` once per frame of the range. Sinks whose
///    ``acceptsConcurrentWrites`` is `false` (streams) must receive frames in increasing index
///    order from one thread at a time; those where it is `true` (PNG files) may be called from
///    several threads at once, in any order.
/// 3. ``finish()`` once after the last frame: flushes and moves the output into place. Or
///    ``cancel()`` (Ctrl-C, an error): stops and removes unfinished output. Frames already
///    complete (PNG files) stay, so a `--resume` run continues.
///
/// Frames are premultiplied RGBA8 of exactly ``FrameSinkFormat/width`` × ``FrameSinkFormat/height``.
/// Every sink is a `Sendable` class (its state behind a lock), so the recorder can hand it
/// to encoder threads.
public protocol FrameSink: AnyObject, Sendable {
    /// Whether ``write(frame:_:time:)`` may be called concurrently and out of order.
    var acceptsConcurrentWrites: Bool { get }
    func begin(_ format: FrameSinkFormat) throws(FrameSinkError)
    /// Writes frame `index` (absolute, within ``FrameSinkFormat/frames``) shown at `time` seconds.
    func write(frame index: Int, _ image: PixelBuffer, time: Double) throws(FrameSinkError)
    func finish() throws(FrameSinkError)
    /// Abandons the output; never throws, safe to call at any point (also after a failure).
    func cancel()
}

/// What a sink is told at ``FrameSink/begin(_:)``.
public struct FrameSinkFormat: Sendable, Hashable {
    /// Frame size in pixels.
    public var width: Int
    public var height: Int
    /// Frames per second.
    public var fps: Double
    /// The frame indices that will be written (inclusive).
    public var frames: ClosedRange<Int>

    public init(width: Int, height: Int, fps: Double, frames: ClosedRange<Int>) {
        self.width = width; self.height = height; self.fps = fps; self.frames = frames
    }

    /// `fps` as a fraction `numerator / denominator` with denominator ≤ 1001: exact for whole
    /// rates (`30 → 30/1`), the NTSC rates (`29.97… → 30000/1001`) and decimals (`12.5 → 25/2`,
    /// reduced); others use the best
    /// continued-fraction approximation.
    public var fpsFraction: (numerator: Int, denominator: Int) {
        if fps.rounded() == fps { return (Int(fps), 1) }
        for d in [1001, 1000, 100, 10] {
            let n = (fps * Double(d)).rounded()
            if abs(n / Double(d) - fps) < 1e-9 * fps || (d == 1001 && abs(n / 1001 - fps) < 1e-6) {
                var (a, b) = (Int(n), d)
                while b != 0 { (a, b) = (b, a % b) }
                return (Int(n) / a, d / a)
            }
        }
        // Continued fraction, stopping before the denominator exceeds 1001.
        var (h0, h1, k0, k1) = (0, 1, 1, 0)
        var x = fps
        for _ in 0..<32 {
            let a = Int(x.rounded(.down))
            let (h2, k2) = (a * h1 + h0, a * k1 + k0)
            if k2 > 1001 { break }
            (h0, h1, k0, k1) = (h1, h2, k1, k2)
            let frac = x - Double(a)
            if frac < 1e-12 { break }
            x = 1 / frac
        }
        return (h1, max(k1, 1))
    }

    /// Checks that `image` has this format's size.
    func check(_ image: PixelBuffer, frame: Int) throws(FrameSinkError) {
        guard image.width == width, image.height == height else {
            throw .wrongFrameSize(frame: frame, expected: "\(width)×\(height)", got: "\(image.width)×\(image.height)")
        }
    }
}

/// Why a sink failed. Output failures (everything except ``invalidPattern`` and
/// ``wrongFrameSize``/``notBegun``, which are programming or usage errors) map to the CLI's
/// exit code 3. ``description`` is one line naming the path or program and the cause.
public enum FrameSinkError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A file-name pattern without exactly one integer conversion (`frame_%05d.png`).
    case invalidPattern(pattern: String, reason: String)
    /// The output file could not be created: missing or read-only folder, permissions.
    case cannotCreate(path: String, reason: String)
    /// The disk (or quota) is full.
    case diskFull(path: String)
    /// Any other failure writing, syncing or renaming `path`.
    case writeFailed(path: String, reason: String)
    /// An external program (`ffmpeg`) is not on `PATH`.
    case missingProgram(name: String, searched: String)
    /// The external program failed; `stderr` is the end of what it printed.
    case programFailed(name: String, status: String, stderr: String)
    /// A frame of the wrong size.
    case wrongFrameSize(frame: Int, expected: String, got: String)
    /// `write`/`finish` before `begin` or after `finish`/`cancel`, or out of order on a stream.
    case notBegun(String)

    public var description: String {
        switch self {
        case let .invalidPattern(p, r): return "invalid file-name pattern \"\(p)\": \(r)"
        case let .cannotCreate(p, r): return "\(p): cannot create the file: \(r)"
        case let .diskFull(p): return "\(p): no space left on the device"
        case let .writeFailed(p, r): return "\(p): write failed: \(r)"
        case let .missingProgram(n, s) where s.hasPrefix("not executable: "):
            return "\(n) was found at \(s.dropFirst("not executable: ".count)) but it is not executable (chmod +x it, or put an executable \(n) earlier on PATH)"
        case let .missingProgram(n, s):
            return "\(n) was not found on PATH (searched \(s.isEmpty ? "nothing: PATH is empty" : s)); install \(n) or choose another format (png, y4m)"
        case let .programFailed(n, st, e):
            return "\(n) failed (\(st))" + (e.isEmpty ? "" : ":\n" + e)
        case let .wrongFrameSize(f, e, g): return "frame \(f) is \(g), expected \(e)"
        case let .notBegun(m): return "frame sink misuse: \(m)"
        }
    }

    /// True for failures of the output itself (the CLI's exit code 3).
    public var isOutputFailure: Bool {
        switch self {
        case .cannotCreate, .diskFull, .writeFailed, .missingProgram, .programFailed: return true
        case .invalidPattern, .wrongFrameSize, .notBegun: return false
        }
    }
}

/// A sink whose ``FrameSink/cancel()`` may run while writes are in flight on other threads:
/// after it returns no file is being written and none will be (a later `write` is dropped).
/// The recorder then abandons frames still being encoded instead of waiting for them.
protocol _AbandonsWritesInFlight: FrameSink {}
