import Flipbook
import Synchronization

/// The op runs of earlier frames' sublayers, for a frame that shows some of the same snapshot
/// nodes again (a moving tree whose static subtrees the snapshot kept, see `RenderTreeReuse`).
///
/// Planning a sublayer appends a contiguous run of ops (its groups closed inside the run, so the
/// run holds no positions), and that run is a pure function of the node (immutable) and what
/// its parent hands it: the parent's matrix, the inherited opacity, the nesting depth (the
/// depth limit) and the shadow nesting, with no inherited clip shapes (a sublayer under a
/// `masksToBounds` ancestor is planned every time), at one output size, scale and particle
/// planning (the cache is cleared when those change). So a sublayer node met again with the
/// same inputs gets its run appended instead of being planned; the run's ops are immutable
/// values sharing the same draws. Only nodes the snapshot builder kept (`RenderLayer.isKept`:
/// the ones a later snapshot may show again) are recorded — recording every node of a tree
/// that is new each frame cost more than planning it (a fresh W6b snapshot every frame: 26 →
/// 40 ms) — and nodes with a transition or particles are always planned.
///
/// The table is only read while a frame is planned (from any planning thread); a hit stamps its
/// run with the frame (an atomic store: each node appears once in a snapshot), misses are
/// collected per planner and added after the frame, and runs not used for a frame are dropped
/// once they are as many as the used ones (so the table stays within twice what a frame shows).
final class _PlanRuns: @unchecked Sendable {
    struct Key: Equatable {
        let parent: CATransform3D
        let opacity: Double
        let depth: Int
        let shadowNesting: Int
    }
    final class Run: Sendable {
        /// Held: a node's identity cannot be taken by another while its run is kept.
        let node: RenderLayer
        let key: Key
        let ops: [_Op]
        /// The last frame that used the run.
        let used: Atomic<Int>
        init(node: RenderLayer, key: Key, ops: [_Op], frame: Int) {
            self.node = node; self.key = key; self.ops = ops; used = Atomic(frame)
        }
    }
    struct Settings: Equatable {
        let width: Int, height: Int
        let scale: Double
        let flatParticles: Bool
    }

    private var runs: [ObjectIdentifier: Run] = [:]
    private var settings: Settings?
    /// The frame being planned (stamps).
    private(set) var frame = 0

    /// The run of `node` planned with `key`, stamped as used by this frame, or nil.
    func run(of node: RenderLayer, _ key: Key) -> [_Op]? {
        guard let r = runs[ObjectIdentifier(node)], r.node === node, r.key == key else { return nil }
        r.used.store(frame, ordering: .relaxed)
        return r.ops
    }

    /// Starts a frame; clears the table when the frame settings changed.
    func begin(_ s: Settings) {
        if settings != s { runs = [:]; settings = s }
        frame &+= 1
    }

    /// Adds the frame's new runs and drops unused ones when they have become as many as the
    /// used ones.
    func end(adding new: [Run], used: Int) {
        for r in new { runs[ObjectIdentifier(r.node)] = r }
        let live = used + new.count
        if runs.count > 2 * live + 64 {
            let f = frame
            runs = runs.filter { $0.value.used.load(ordering: .relaxed) == f }
        }
    }

    func clear() { runs = [:]; settings = nil }

    var count: Int { runs.count }
}
