import Flipbook
import Foundation

/// Records a layer tree over time into a ``FrameSink``: Flipbook's offline "screen".
///
///     let loop = VirtualRunLoop()
///     let root = loop.run { () -> CALayer in
///         let root = CALayer()
///         root.bounds = CGRect(x: 0, y: 0, width: 320, height: 180)
///         root.position = CGPoint(x: 160, y: 90)
///         return root
///     }
///     let recorder = Recorder(root: root, settings: RecordingSettings(width: 320, height: 180, duration: 2))
///     recorder.at(0.5) { root.backgroundColor = .white }      // implicit 0.25 s animation
///     try recorder.record(to: PNGSequenceSink(directory: "out"))
///
/// ## What frame n is
/// For every frame index `n` of ``RecordingSettings/frames``, in order, on the calling thread
/// with the tree's run loop bound (`loop.run`):
/// 1. every ``at(_:_:)`` closure due at or before `t = start + n / fps` runs at its own time:
///    `loop.advance(to: eventTime)` (callbacks due earlier are delivered first), the closure,
///    `loop.endTurn()` (its changes commit as one transaction at `eventTime`);
/// 2. `loop.advance(to: t)` delivers the callbacks due up to `t` and ends the turn;
/// 3. unless `n` is skipped: `root.makeRenderTree()` snapshots the tree (presentation values
///    at `t`), which is composited and handed to the sink. When nothing in the tree changed
///    since the last snapshot and nothing in it moves with time (no stored animation, no
///    emitter), that snapshot is the same value and is used again, and the compositor reuses
///    its plan: a static stretch of a recording costs the drawing alone (`RenderTreeReuse`).
///
/// The model changes only through events and callbacks, each at its own time, and the
/// snapshot is a pure function of the tree and the time (it writes nothing; a `CATransition`'s
/// "before" picture is recorded when it is added). So a recording that starts at frame N
/// seeks: its first turn runs the events and callbacks due up to `t(N)` and no frame before N
/// is snapshotted; skipped frames are not snapshotted either. **Frame n's pixels depend only
/// on the scene and n**: frames 50…99 rendered alone equal the same frames of a 0…99 run. A
/// long render splits across processes by range (`docs/recording.md`).
///
/// A recorder moves its tree's clock forward, so it records once.
public final class Recorder {
    /// The root of the recorded tree (attached to its run loop by ``record(to:options:)`` when
    /// it is not attached yet).
    public let root: CALayer
    /// The run loop the tree belongs to (the root's).
    public var runLoop: VirtualRunLoop { root._runLoop }
    public var settings: RecordingSettings

    struct _Scheduled {
        let time: Double
        let body: () -> Void
    }
    var _events: [_Scheduled] = []
    var _recorded = false
    /// How many render snapshots `record` took (one per frame composited: none for the frames
    /// before the range or skipped ones).
    var _snapshotsTaken = 0
    /// How many of those were the previous frame's snapshot again (an unchanged tree without
    /// animations or emitters; see `RenderTreeReuse`).
    var _snapshotsReused = 0
    /// How many frames the compositor drew from the previous frame's plan.
    var _plansReused = 0

    public init(root: CALayer, settings: RecordingSettings) {
        self.root = root; self.settings = settings
    }

    /// Schedules `body` at media time `time` (seconds). It runs on the recording thread with the
    /// tree's run loop current; its layer changes form the implicit transaction committed right
    /// after it (wrap them in `CATransaction.begin()/commit()` to set a duration, a timing
    /// function, `disableActions` or a completion block). Closures due at the same time run in
    /// the order they were scheduled; a time before the clock runs at the current time.
    public func at(_ time: Double, _ body: @escaping () -> Void) {
        _events.append(_Scheduled(time: time, body: body))
    }

    /// The scheduled events, stably sorted by time.
    var _sortedEvents: [_Scheduled] {
        _events.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element)
    }
}

extension Recorder {
    /// Runs `body` on the tree's run loop with the tree live: attached (and committed, so
    /// implicit animations run from now on) when it is not yet, and released at the end —
    /// however `body` ends — when attached here (`VirtualRunLoop._releaseTree`): a server
    /// recording scene after scene keeps no memory. Shared by ``record(to:options:)`` and
    /// `snapshots(atFrames:_:)`.
    func _withLiveTree<R>(_ body: () throws -> R) rethrows -> R {
        let loop = runLoop, root = self.root
        var attachedHere = false
        defer { if attachedHere { loop.run { loop._releaseTree(root) } } }
        return try loop.run {
            if !loop.rootLayers.contains(where: { $0 === root }) {
                attachedHere = true
                loop.attach(root)
                CATransaction.begin(); CATransaction.commit()
            }
            return try body()
        }
    }

    /// Moves the clock to `t`: every scheduled event due by then runs at its own time (then its
    /// turn ends), then `loop.advance(to: t)`. `next` indexes `events` (sorted) and advances.
    /// Seeking costs the events before `t`, not the frames.
    static func _advance(_ loop: VirtualRunLoop, to t: Double, events: [_Scheduled], next: inout Int) {
        while next < events.count, events[next].time <= t {
            loop.advance(to: events[next].time)
            events[next].body()
            loop.endTurn()
            next += 1
        }
        loop.advance(to: t)
    }
}
