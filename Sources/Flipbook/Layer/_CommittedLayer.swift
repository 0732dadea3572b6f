/// A layer as its run loop's last outermost commit left it: everything the render snapshot
/// reads (typed values, custom keys, sublayers, mask, stored animations).
///
/// Core Animation draws a `CATransition`'s "before" picture from the render server's copy of
/// the layer: its state as of the previous commit, without the changes of the transaction that
/// adds the transition. Flipbook has no render-server copy. Instead a layer saves this record
/// lazily, at its first change after a commit (``CALayer/_saveCommittedState()``, called by every
/// path that changes what the snapshot reads), and the run loop drops the records at its next
/// outermost commit. In between, ``CALayer/_makeCommittedRenderTree()`` builds a subtree as it
/// was committed: a layer with a record is read from it, a layer without one (unchanged since
/// the commit) as it is.
///
/// So the "before" picture is a function of the model and the time of the change, never of
/// which frames were snapshotted: `makeRenderTree()` writes nothing, and a recording can start
/// at any frame.
///
/// A layer created since the last outermost commit has no committed state; it is read as it
/// is (its current model values).
struct _CommittedLayer {
    let state: _LayerState
    let extras: [String: Any]
    let sublayers: [CALayer]
    let mask: CALayer?
    /// The stored animations at the commit (each was committed then; one removed since keeps
    /// its place here, one that finished and was removed on completion does not).
    var animations: [(key: String, animation: CAAnimation)]
}

extension CALayer {
    /// Saves the layer's committed state before its first change since the last outermost
    /// commit (once per transaction; nothing for presentation copies and for layers created
    /// since that commit). Cost: one copy of the value struct; the arrays and the dictionary
    /// are shared copy-on-write.
    ///
    /// Every call also bumps the run loop's ``VirtualRunLoop/_renderGeneration`` (model layers
    /// only): this is the one place all changes a snapshot could see pass through.
    final func _saveCommittedState() {
        guard _modelLayer == nil, !_isStandingInForPresentation else { return }
        let loop = _runLoop
        loop._renderGeneration &+= 1
        // The kept render nodes of this layer and of every layer whose node contains it. A
        // layer's node is kept only when all its children's are, so an ancestor of a layer
        // without one has none either: the walk stops at the first that has none.
        var l: CALayer? = self
        while let x = l, x._cachedRenderNode != nil {
            x._cachedRenderNode = nil
            l = x._superlayer ?? x._maskOwner
        }
        guard _committed == nil, loop._commitCount != _createdAtCommit else { return }
        _committed = _CommittedLayer(state: _state, extras: _extras, sublayers: _sublayers, mask: _mask,
                                     animations: _animations)
        loop._changedSinceCommit.append(_WeakLayer(self))
    }
}

extension CAAnimation {
    /// Whether a stored copy shows in a snapshot: in the model, once committed (scheduled, or
    /// finished and kept); in a committed state (`committed`), every copy it holds (each was
    /// committed; one removed since still showed at the commit).
    @inline(__always)
    final func _applies(committed: Bool) -> Bool {
        committed ? _phase != .pending : (_phase == .scheduled || _phase == .finished)
    }
}
