import Foundation

/// How a recording runs (not what it produces: that is ``RecordingSettings``).
public struct RecordingOptions: Sendable {
    /// Workers per stage: the compositor splits each frame into bands over `threads` workers,
    /// and up to `threads` frames are encoded/written at once (sinks that accept concurrent
    /// writes; streams get one writer). Output bytes never depend on it.
    public var threads: Int
    /// Frames to simulate but not render (`--resume`: already complete on disk). Asked once per
    /// frame after the sink's `begin`, on the recording thread.
    public var skip: (@Sendable (Int) -> Bool)?
    /// Polled before each frame is rendered (and while waiting for a free buffer); returning
    /// `true` stops the recording cleanly: the sink is cancelled and the result says
    /// `cancelled`. Frames in flight are finished — except with a sink that abandons writes in
    /// flight (``PNGSequenceSink``), whose frames still being encoded are dropped rather than
    /// waited for, so an interrupt is prompt however slow the encoder.
    public var shouldStop: (@Sendable () -> Bool)?
    /// Called after each frame is written (from writer threads, one call at a time).
    public var progress: (@Sendable (RecordingProgress) -> Void)?

    public init(threads: Int = ProcessInfo.processInfo.activeProcessorCount,
                skip: (@Sendable (Int) -> Bool)? = nil, shouldStop: (@Sendable () -> Bool)? = nil,
                progress: (@Sendable (RecordingProgress) -> Void)? = nil) {
        self.threads = max(1, threads); self.skip = skip; self.shouldStop = shouldStop; self.progress = progress
    }
}

/// Progress of a recording: frames written so far out of those to render.
public struct RecordingProgress: Sendable, Equatable {
    /// The frame just written.
    public var frame: Int
    /// Frames written so far (this run).
    public var written: Int
    /// Frames this run will render (the range minus skipped frames, as known so far).
    public var total: Int
}

/// What a finished (or stopped) recording did.
public struct RecordingResult: Sendable, Equatable {
    /// The frame range recorded.
    public var frames: ClosedRange<Int>
    /// Frames rendered and handed to the sink.
    public var framesWritten: Int
    /// Frames skipped because `skip` said they were complete.
    public var framesSkipped: Int
    /// True when `shouldStop` stopped the run early.
    public var cancelled: Bool
    /// Wall-clock seconds from `begin` to `finish` (statistics only; never affects output).
    public var elapsed: Double
    /// Compositing time of each rendered frame, seconds, in frame order.
    public var renderTimes: [Double]
    /// Time the model took to reach each rendered frame (the events due, then the clock
    /// advanced to the frame's time: callbacks, commits), seconds, in frame order. Statistics
    /// only, as ``renderTimes`` (`flipbook bench` reports them per stage).
    public var advanceTimes: [Double] = []
    /// Time of each rendered frame's render-tree snapshot (`makeRenderTree()`), seconds, in
    /// frame order.
    public var snapshotTimes: [Double] = []

    /// Frames written per second of wall time.
    public var framesPerSecond: Double { elapsed > 0 ? Double(framesWritten) / elapsed : 0 }
}

/// Why a recording failed.
public enum RecorderError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Settings out of range (fps, scale, size, frames).
    case invalidSettings(String)
    /// The sink failed (`isOutputFailure` → CLI exit code 3).
    case sink(FrameSinkError)
    /// The compositor refused a frame.
    case compositor(CompositorError)
    /// A recorder runs its layer tree's clock forward; it records once.
    case alreadyRecorded

    public var description: String {
        switch self {
        case let .invalidSettings(m): return "invalid recording settings: \(m)"
        case let .sink(e): return e.description
        case let .compositor(e): return e.description
        case .alreadyRecorded: return "this recorder has already recorded; make a new recorder (and layer tree) per recording"
        }
    }
}
