import Foundation

/// Reuses the previous render snapshot of a tree that has not changed since it was taken.
///
/// A snapshot is a pure function of (tree, time). In a tree where nothing moves with time —
/// no layer holds a stored animation (scheduled, pending or finished and kept: counted
/// conservatively, whatever its timing), and there is no `CAEmitterLayer` (its particles move
/// whatever the model does) — the time drops out. And every change a snapshot could see (a
/// property through the one change path, a sublayer or mask edit, an animation added or
/// removed, a `display()` storing new contents) bumps the run loop's render generation. So
/// while the generation is the one the last snapshot was built at, that snapshot *is* the
/// snapshot of now, and ``CALayer/makeRenderTree(reusing:)`` returns it without walking the
/// tree. A compositor given the same snapshot object again reuses its plan as well
/// (`Compositor`), so a static tree recorded frame after frame costs about what drawing it
/// costs.
///
/// Not reused (built again every time): a tree with any stored animation or emitter, and a
/// tree with a layer that belongs to another run loop than the root (its changes would bump
/// that loop's count).
///
/// **Subtrees too.** In a tree that does move (a spinner over a static screen), each layer
/// keeps the node of its last reusing build when its whole subtree is time-independent
/// (`CALayer._cachedRenderNode`), and the next reusing build takes that node instead of
/// walking the subtree; any change clears the changed layer's kept node and its ancestors'
/// (`_saveCommittedState`). Nodes are immutable, so one node in two snapshots is safe (a
/// snapshot's teardown leaves shared subtrees alone). Only `makeRenderTree(reusing:)` uses
/// them; a replicator's extra instances are always built afresh.
package struct RenderTreeReuse {
    var tree: RenderLayer?
    var root: CALayer?
    var loop: VirtualRunLoop?
    var generation: UInt64 = 0
    /// Snapshots built and reused so far.
    package internal(set) var built = 0, reused = 0

    package init() {}

    /// Whether a snapshot is kept (the last one built could be returned again): a caller that
    /// also keeps per-snapshot work (a compositor's plan) need not when this is false.
    package var keepsSnapshot: Bool { tree != nil }

    /// Forgets the kept snapshot.
    package mutating func reset() { tree = nil; root = nil; loop = nil }
}

extension CALayer {
    /// No stored animation, not an emitter, of `loop`: the layer's own part of its node does not
    /// move with time, and its changes are counted by `loop` (``RenderTreeReuse``).
    @inline(__always)
    final func _isTimeIndependent(in loop: VirtualRunLoop) -> Bool {
        _animations.isEmpty && !(self is CAEmitterLayer) && _runLoop === loop
    }

    /// ``makeRenderTree()``, or the snapshot `reuse` kept from the previous call on this layer
    /// when nothing a snapshot could show has changed since and nothing in the tree moves with
    /// time (see ``RenderTreeReuse``). The same value either way.
    package func makeRenderTree(reusing reuse: inout RenderTreeReuse) -> RenderLayer {
        let loop = _runLoop
        if let tree = reuse.tree, reuse.root === self, reuse.loop === loop, reuse.generation == loop._renderGeneration {
            reuse.reused += 1
            return tree
        }
        let generation = loop._renderGeneration
        let tree = _makeRenderTree(at: loop.currentTime, committed: false, keepingIn: loop)
        reuse.built += 1
        // The root's node is kept exactly when nothing in the tree moves with time. Building
        // changes nothing (see `makeRenderTree(at:)`); checked anyway: a build that changed the
        // model is not kept.
        if !tree.isKept || loop._renderGeneration != generation {
            reuse.reset()
        } else {
            reuse.tree = tree; reuse.root = self; reuse.loop = loop; reuse.generation = generation
        }
        return tree
    }
}
