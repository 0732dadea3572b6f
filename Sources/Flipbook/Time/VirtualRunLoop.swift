import Foundation
/// The owner of a virtual media clock, a transaction stack, the live layer trees and the queue of
/// pending animation callbacks: Flipbook's stand-in for the main run loop and the render server.
///
/// There is no wall time anywhere. Whoever owns a run loop (a test, the recorder) drives it:
///
///     let loop = VirtualRunLoop()
///     loop.run {
///         let root = CALayer()
///         loop.attach(root)          // root of a live tree
///         loop.endTurn()             // commit: root is now live
///         root.opacity = 0           // implicit transaction, implicit 0.25 s animation
///         loop.endTurn()             // commits it at t = 0: animationDidStart is due
///         loop.advance(to: 0.25)     // delivers animationDidStop(finished: true) at 0.25
///     }
///
/// **Which run loop is current** (``current``): the one bound to the current task with
/// `run(_:)`; otherwise one per thread, created on first use. Tests running in parallel each
/// make their own run loop and bind it, so they never share a clock or a transaction stack.
/// A layer remembers the run loop that was current when it was created and always uses it
/// (its transaction, its clock); a layer tree belongs to one run loop.
///
/// **Memory**: a layer refers to its run loop and a run loop to its attached roots, so a tree
/// attached with ``attach(_:)`` lives as long as the run loop *and* the run loop as long as any
/// of its layers — ``detach(_:)`` the root when done with it. A ``Recorder`` does this itself for
/// a tree it attached.
///
/// **Thread confinement**: a run loop is not thread-safe; use it from one thread (or one task)
/// at a time, or bracket access with `CATransaction.lock()`/`unlock()`.
public final class VirtualRunLoop: @unchecked Sendable {
    /// The run loop bound to the current task by `run(_:)`.
    @TaskLocal static var _taskCurrent: VirtualRunLoop?
    private static let _threadKey = "org.flipbook.VirtualRunLoop.current"

    /// The current task's bound run loop, else this thread's own (created on first use).
    public static var current: VirtualRunLoop {
        if let loop = _taskCurrent { return loop }
        let dict = Thread.current.threadDictionary
        if let loop = dict[_threadKey] as? VirtualRunLoop { return loop }
        let loop = VirtualRunLoop()
        dict[_threadKey] = loop
        return loop
    }

    /// The media time, in seconds. Starts at `startTime`; only ``advance(to:)`` moves it.
    public internal(set) var currentTime: CFTimeInterval

    /// The roots of the live trees (see ``attach(_:)``).
    public internal(set) var rootLayers: [CALayer] = []

    // Transactions (innermost last).
    var _stack: [_Transaction] = []
    // Pending callbacks, sorted by (time, id).
    var _events: [_Event] = []
    var _nextEventID = 1
    // A layer joined a live tree since the last outermost commit.
    var _treeDirty = false
    /// Bumped whenever a layer may leave or join an attached tree other than as a new leaf
    /// (removal, detaching, a mask change, a subtree inserted, a root attached or detached):
    /// a layer's cached `_isInAttachedTree` answer is valid while it was computed in this epoch.
    var _treeEpoch = 0
    // Layers that asked for display since the last commit. Pending work holds its layers
    // weakly (see `_WeakLayer`).
    var _needsDisplay: [_WeakLayer] = []
    // Layers that asked for layout since the last layout pass.
    var _needsLayout: [_WeakLayer] = []
    // CATransaction.lock()
    let _treeLock = NSRecursiveLock()
    var _lockDepth = 0
    // Unique keys for animations added with a nil key.
    var _anonymousKeyCounter = 0
    /// Number of outermost commits so far (a layer created before one has been committed).
    var _commitCount = 0
    /// Bumped by every change a render snapshot could see (``CALayer/_saveCommittedState()``,
    /// which the one change path, tree edits, mask changes and animation edits all call): a
    /// snapshot of a tree without animations or emitters stays valid while it is unchanged (see
    /// ``RenderTreeReuse``).
    package var _renderGeneration: UInt64 = 0
    /// Layers that saved their committed state since the last outermost commit (which drops it).
    var _changedSinceCommit: [_WeakLayer] = []

    /// A run loop whose clock reads `startTime` (0 by default).
    public init(startTime: CFTimeInterval = 0) {
        currentTime = startTime.isFinite ? startTime : 0
    }

    /// Runs `body` with this run loop as ``current`` for the current task (and the code it calls
    /// synchronously). Layers created inside belong to it.
    @discardableResult
    public func run<R>(_ body: () throws -> R) rethrows -> R {
        try VirtualRunLoop.$_taskCurrent.withValue(self) { try body() }
    }

    /// The async variant of `run(_:)`.
    @discardableResult
    public func run<R>(_ body: () async throws -> R) async rethrows -> R {
        try await VirtualRunLoop.$_taskCurrent.withValue(self) { try await body() }
    }

    // MARK: Live trees

    /// Makes `layer` the root of a live tree rendered by this run loop's owner. Its tree becomes
    /// live at the next outermost commit; `layer` receives `kCAOnOrderIn`.
    /// Attaching a layer that has a superlayer or is a mask, or attaching twice, does nothing.
    public func attach(_ layer: CALayer) {
        guard layer.superlayer == nil, layer._maskOwner == nil, !layer._isAttachedRoot else { return }
        layer._isAttachedRoot = true
        _treeEpoch &+= 1
        rootLayers.append(layer)
        _treeDirty = true
        layer._runNonPropertyAction(kCAOnOrderIn)
    }

    /// Removes `layer` from the live roots; it receives `kCAOnOrderOut`.
    public func detach(_ layer: CALayer) {
        guard let i = rootLayers.firstIndex(where: { $0 === layer }) else { return }
        rootLayers.remove(at: i)
        layer._isAttachedRoot = false
        _treeEpoch &+= 1
        layer._runNonPropertyAction(kCAOnOrderOut)
    }

    /// Ends this run loop's hold on `root`'s tree once its owner is done with it (a finished
    /// recording): commits what is open, detaches `root` without running its `kCAOnOrderOut`
    /// action, and drops the callbacks still pending. A layer refers to its run loop and the run
    /// loop to its attached roots and pending work — a cycle that would otherwise keep every
    /// layer, backing store and image of the tree alive after the owner let go. The tree stays
    /// usable; callbacks that were pending are not delivered (when no other root is attached).
    package func _releaseTree(_ root: CALayer) {
        endTurn()
        if let i = rootLayers.firstIndex(where: { $0 === root }) {
            rootLayers.remove(at: i)
            root._isAttachedRoot = false
            _treeEpoch &+= 1
        }
        // Pending callbacks are dropped only when no other tree is attached (they may be
        // another root's animation delegates and completions).
        if rootLayers.isEmpty { _events.removeAll() }
    }

    // MARK: Clock and turns

    /// Ends the current run-loop turn: commits the implicit transaction (unless explicit
    /// transactions are still open) and delivers every callback due at ``currentTime``, in time
    /// order; changes made by callbacks are committed right after each one.
    public func endTurn() {
        _commitImplicitIfAlone()
        _deliverEvents(upTo: currentTime)
    }

    /// Ends the current turn, then moves the clock forward to `time`, stopping at each due
    /// callback: the clock reads the callback's own time while it runs, and each stop ends with
    /// a turn. Times in the past or not finite are ignored (the clock never goes back).
    public func advance(to time: CFTimeInterval) {
        endTurn()
        guard time.isFinite, time > currentTime else { return }
        _deliverEvents(upTo: time)
        currentTime = time
        endTurn()
    }

    /// `advance(to: currentTime + delta)`.
    public func advance(by delta: CFTimeInterval) { advance(to: currentTime + delta) }
}

/// The current media time: ``VirtualRunLoop/currentTime`` of ``VirtualRunLoop/current`` (virtual,
/// deterministic; never wall time).
public func CACurrentMediaTime() -> CFTimeInterval { VirtualRunLoop.current.currentTime }

/// A layer in one of a run loop's pending-work lists (display, layout, changed since the
/// commit), held weakly. A layer refers to its run loop strongly; were the lists strong too, a
/// layer changed and then let go before the next commit — every layer built in
/// `VirtualRunLoop().run { … }` and dropped there — would keep itself, its run loop and
/// everything they hold alive for good (LeakSanitizer, in the font fuzz target: about 50 KB a
/// text layer with its font). A layer no one else holds can never be drawn, so dropping it
/// from pending work changes nothing on screen. Attached roots stay held strongly
/// (``VirtualRunLoop/rootLayers``).
struct _WeakLayer {
    weak var layer: CALayer?
    init(_ layer: CALayer) { self.layer = layer }
}
