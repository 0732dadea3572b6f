import FlipbookPNG
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif
import FlipbookPixels

/// Numbered PNG files in a folder: `DIR/frame_00000.png`, `DIR/frame_00001.png` …
///
/// - Each file is encoded in memory with ``PNG/encode(_:options:)`` then written to a
///   temporary name in the same folder and renamed into place, so a file that exists under its
///   final name is always complete (Ctrl-C never leaves a half-written frame). By default the
///   file is not fsync'd (`durable: false`): that costs milliseconds per frame and only
///   matters for power loss, which ``isFrameComplete(_:)`` catches on resume.
/// - Writes may run concurrently for different frames (``acceptsConcurrentWrites``).
/// - Resume: ``isFrameComplete(_:)`` trusts a file only if it fully decodes (libpng reads up to
///   `IEND` and checks every CRC) and has the frame size; anything else is rendered again.
/// - The folder must exist (the CLI creates it); ``begin(_:)`` checks it is writable by creating
///   and removing a probe file, so a read-only folder fails before any rendering.
public final class PNGSequenceSink: FrameSink, _AbandonsWritesInFlight {
    public let directory: String
    public let pattern: FramePattern
    public let options: PNGEncodeOptions
    public let durable: Bool
    public var acceptsConcurrentWrites: Bool { true }

    private let state = Mutex<FrameSinkFormat?>(nil)
    private let gate = _WriteGate()
    private let bytes = Atomic<Int>(0)
    private let frames = Atomic<Int>(0)

    public init(directory: String, pattern: FramePattern = .default, options: PNGEncodeOptions = .fast, durable: Bool = false) {
        self.directory = directory.hasSuffix("/") && directory.count > 1 ? String(directory.dropLast()) : directory
        self.pattern = pattern; self.options = options; self.durable = durable
    }

    /// Path of frame `n`.
    public func path(forFrame n: Int) -> String { directory + "/" + pattern.fileName(n) }

    /// Bytes of PNG written so far.
    public var bytesWritten: Int { bytes.load(ordering: .relaxed) }
    /// Frames written so far.
    public var framesWritten: Int { frames.load(ordering: .relaxed) }

    /// Also removes the temporaries a killed earlier run left in the folder (see
    /// `_SinkFile.removeStalePartials`): a `--resume` after SIGKILL starts clean.
    public func begin(_ format: FrameSinkFormat) throws(FrameSinkError) {
        gate.open()                                        // a sink may record again after a cancel
        _SinkFile.removeStalePartials(in: directory)
        let probe = try _SinkFile(atomicPath: path(forFrame: format.frames.lowerBound))
        probe.discard()
        state.withLock { $0 = format }
    }

    public func write(frame index: Int, _ image: PixelBuffer, time: Double) throws(FrameSinkError) {
        guard let format = state.withLock({ $0 }) else { throw .notBegun("write before begin") }
        try format.check(image, frame: index)
        let path = path(forFrame: index)
        let data: [UInt8]
        do { data = try PNG.encode(image, options: options) } catch {
            throw .writeFailed(path: path, reason: error.message)
        }
        // Interrupted while encoding: the frame is dropped (the recorder abandoned it).
        guard gate.enter() else { throw .notBegun("frame \(index) written after cancel") }
        defer { gate.leave() }
        let file = try _SinkFile(atomicPath: path)
        do {
            try file.write(data)
            try file.commit(sync: durable)
        } catch {
            file.discard()
            throw error
        }
        bytes.add(data.count, ordering: .relaxed)
        frames.add(1, ordering: .relaxed)
    }

    public func finish() throws(FrameSinkError) {
        guard state.withLock({ $0 }) != nil else { throw .notBegun("finish before begin") }
        // Make the directory entries durable once (cheap; per-file fsync is the `durable` option).
        let dfd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if dfd >= 0 { _ = fsync(dfd); close(dfd) }
    }

    /// Complete files stay (they are valid frames). Waits for the files being written to be
    /// renamed into place; frames still being encoded are dropped when their encode returns, so
    /// an interrupt never waits for an encode (seconds for a 4K `small` frame).
    public func cancel() { gate.close() }

    /// True when frame `n`'s file exists, decodes completely and (after ``begin(_:)``) has the
    /// frame size. A truncated, corrupt or wrong-sized file gives `false`.
    public func isFrameComplete(_ n: Int) -> Bool {
        guard let image = try? PNG.decode(contentsOf: path(forFrame: n)) else { return false }
        if let format = state.withLock({ $0 }) {
            return image.width == format.width && image.height == format.height
        }
        return true
    }
}

/// Files being written (between a temporary's creation and its rename) and whether the sink was
/// cancelled: ``close()`` waits for the writes in progress, after which ``enter()`` refuses.
final class _WriteGate: @unchecked Sendable {
    private let cond = NSCondition()
    private var writing = 0
    private var closed = false

    /// True when a write may start (then call ``leave()`` when its file is in place).
    func enter() -> Bool {
        cond.lock(); defer { cond.unlock() }
        if closed { return false }
        writing += 1
        return true
    }

    func leave() {
        cond.lock(); writing -= 1; cond.broadcast(); cond.unlock()
    }

    func close() {
        cond.lock(); closed = true
        while writing > 0 { cond.wait() }
        cond.unlock()
    }

    /// Accepts writes again (a new recording into the same sink).
    func open() {
        cond.lock(); closed = false; cond.unlock()
    }
}
