import FlipbookPNG
import Synchronization
import FlipbookPixels

/// One PNG file at a path you name — a still (`flipbook render scene.json --still 1.5s -o poster.png`).
///
/// The recording must be exactly one frame: ``begin(_:)`` refuses a longer range with
/// ``FrameSinkError/notBegun(_:)`` (a second frame would have nowhere to go). Like every file
/// sink, the PNG is written to a temporary next to ``path`` and renamed into place, so the file
/// appears complete or not at all; ``cancel()`` leaves nothing.
public final class PNGFileSink: FrameSink {
    public let path: String
    public let options: PNGEncodeOptions
    public var acceptsConcurrentWrites: Bool { false }

    private struct State {
        var format: FrameSinkFormat?
        var file: _SinkFile?
        var bytes = 0
    }
    private let state = Mutex(State())

    public init(path: String, options: PNGEncodeOptions = .fast) {
        self.path = path; self.options = options
    }

    /// Bytes of PNG written (0 until the frame is written).
    public var bytesWritten: Int { state.withLock { $0.bytes } }

    public func begin(_ format: FrameSinkFormat) throws(FrameSinkError) {
        guard format.frames.count == 1 else {
            throw .notBegun("a single PNG file holds one frame, not \(format.frames.count)")
        }
        _SinkFile.removeStalePartials(of: path)   // left by a killed earlier run
        let file = try _SinkFile(atomicPath: path)   // fails now on a missing or read-only folder
        state.withLock { $0.format = format; $0.file = file }
    }

    public func write(frame index: Int, _ image: PixelBuffer, time: Double) throws(FrameSinkError) {
        guard let format = state.withLock({ $0.format }) else { throw .notBegun("write before begin") }
        try format.check(image, frame: index)
        let data: [UInt8]
        do { data = try PNG.encode(image, options: options) } catch {
            throw .writeFailed(path: path, reason: error.message)
        }
        let r: Result<Void, FrameSinkError> = state.withLock { s in
            do throws(FrameSinkError) {
                guard let file = s.file else { throw .notBegun("write after finish") }
                try file.write(data)
                s.bytes = data.count
                return .success(())
            } catch { return .failure(error) }
        }
        try r.get()
    }

    public func finish() throws(FrameSinkError) {
        let file = state.withLock { s -> _SinkFile? in defer { s.file = nil }; return s.file }
        guard let file else { throw .notBegun("finish before begin") }
        do { try file.commit(sync: false) } catch { file.discard(); throw error }
    }

    public func cancel() {
        state.withLock { s in s.file?.discard(); s.file = nil }
    }
}
