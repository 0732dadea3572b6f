import Synchronization
import FlipbookPixels

/// Keeps every frame in memory, by index: for tests.
public final class MemoryFrameSink: FrameSink {
    public struct Frame: Sendable, Equatable {
        public var index: Int
        public var time: Double
        public var image: PixelBuffer
    }

    private struct State {
        var format: FrameSinkFormat?
        var frames: [Int: Frame] = [:]
        var finished = false, cancelled = false
    }
    private let state = Mutex(State())

    public init() {}
    public var acceptsConcurrentWrites: Bool { true }

    public func begin(_ format: FrameSinkFormat) throws(FrameSinkError) { state.withLock { $0.format = format } }

    public func write(frame index: Int, _ image: PixelBuffer, time: Double) throws(FrameSinkError) {
        let r: Result<Void, FrameSinkError> = state.withLock { s in
            guard let f = s.format, !s.finished, !s.cancelled else { return .failure(.notBegun("write outside begin … finish")) }
            do throws(FrameSinkError) { try f.check(image, frame: index) } catch { return .failure(error) }
            s.frames[index] = Frame(index: index, time: time, image: image)
            return .success(())
        }
        try r.get()
    }

    public func finish() throws(FrameSinkError) { state.withLock { $0.finished = true } }
    public func cancel() { state.withLock { $0.cancelled = true } }

    /// The format given to `begin`.
    public var format: FrameSinkFormat? { state.withLock { $0.format } }
    /// Frames received, sorted by index.
    public var frames: [Frame] { state.withLock { $0.frames.values.sorted { $0.index < $1.index } } }
    /// The image of frame `index`, if received.
    public func image(_ index: Int) -> PixelBuffer? { state.withLock { $0.frames[index]?.image } }
    public var isFinished: Bool { state.withLock { $0.finished } }
    public var isCancelled: Bool { state.withLock { $0.cancelled } }
}

/// Discards frames, only counting them: for benchmarking the renderer (`--format null`).
public final class NullFrameSink: FrameSink {
    private let count = Atomic<Int>(0)
    public init() {}
    public var acceptsConcurrentWrites: Bool { true }
    public func begin(_ format: FrameSinkFormat) throws(FrameSinkError) {}
    public func write(frame index: Int, _ image: PixelBuffer, time: Double) throws(FrameSinkError) {
        count.add(1, ordering: .relaxed)
    }
    public func finish() throws(FrameSinkError) {}
    public func cancel() {}
    /// Frames received.
    public var framesWritten: Int { count.load(ordering: .relaxed) }
}
