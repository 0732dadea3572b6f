import Foundation
/// The layer tree: sublayers, superlayer, mask, and the actions tree changes trigger.
///
/// Triggers (each runs the action search, unless the transaction disables actions):
/// - the parent's `"sublayers"` key on every insertion and removal;
/// - `kCAOnOrderIn` on a layer that joins a tree whose root is attached to a run loop;
/// - `kCAOnOrderOut` on a layer removed from such a tree (searched after the removal, as on Apple);
/// - `kCATransition` on the parent in `replaceSublayer(_:with:)`, searched before the swap so a
///   `CATransition` action records the parent's rendering before it.
///
/// Bad input is ignored, never a crash: inserting a layer into itself or its own subtree does
/// nothing; indices are clamped to `0…sublayers.count`; a sibling that is not a sublayer means
/// "at the bottom" (`below:`) or "at the top" (`above:`).
///
/// Every insertion and removal marks the parent with `setNeedsLayout()` (as on Apple).
///
/// The `"sublayers"` change passes no old value: holding a reference to the array while it is
/// mutated would copy it on every insertion or removal (quadratic for wide trees).
extension CALayer {
    /// The sublayers, back to front; nil when there are none (as on Apple). Setting replaces them all.
    final var _sublayersValue: [CALayer]? {
        get { _sublayers.isEmpty ? nil : _sublayers }
        set {
            for s in _sublayers { s.removeFromSuperlayer() }
            for s in newValue ?? [] { addSublayer(s) }
        }
    }

    /// A layer whose alpha masks this layer's content (it has no superlayer). KVC key `mask`.
    final var _maskValue: CALayer? {
        get { _mask }
        set {
            if newValue === _mask { return }
            if let n = newValue, n === self || _isDescendantOrSelf(ofPossibleAncestor: n) { return }
            _runLoop._treeEpoch &+= 1
            _change("mask", old: _mask, new: newValue) { me in
                me._mask?._maskOwner = nil
                if let n = newValue {
                    n.removeFromSuperlayer()
                    n._maskOwner?._saveCommittedState()
                    n._maskOwner?._mask = nil
                    n._maskOwner = me
                }
                me._mask = newValue
            }
            if newValue != nil, _isInAttachedTree { _runLoop._treeDirty = true }
        }
    }

    /// Appends `layer` on top of the sublayers (moving it if it already has a superlayer).
    final func _addSublayer(_ layer: CALayer) { _insert(layer, at: _sublayers.count) }

    /// Inserts `layer` at `idx` (clamped).
    final func _insertSublayer(_ layer: CALayer, at idx: UInt32) { _insert(layer, at: Int(idx)) }

    /// Inserts `layer` just below `sibling` (at the bottom when `sibling` is nil or not a sublayer).
    final func _insertSublayer(_ layer: CALayer, below sibling: CALayer?) {
        let i = sibling.flatMap { s in _sublayers.firstIndex { $0 === s } } ?? 0
        _insert(layer, at: i)
    }

    /// Inserts `layer` just above `sibling` (on top when `sibling` is nil or not a sublayer).
    final func _insertSublayer(_ layer: CALayer, above sibling: CALayer?) {
        let i = sibling.flatMap { s in _sublayers.firstIndex { $0 === s }.map { $0 + 1 } } ?? _sublayers.count
        _insert(layer, at: i)
    }

    /// Replaces the sublayer `oldLayer` with `newLayer` (does nothing if `oldLayer` is not a
    /// sublayer). Triggers `kCATransition` on self, then the usual removal/insertion actions.
    final func _replaceSublayer(_ oldLayer: CALayer, with newLayer: CALayer) {
        guard oldLayer !== newLayer, let i = _sublayers.firstIndex(where: { $0 === oldLayer }),
              !_isDescendantOrSelf(ofPossibleAncestor: newLayer) else { return }
        let action = _willChange(key: kCATransition, old: oldLayer, new: newLayer)
        oldLayer.removeFromSuperlayer()
        _insert(newLayer, at: min(i, _sublayers.count))
        if let action { _run(action, forKey: kCATransition) }
    }

    /// Detaches the layer from its superlayer (or from the layer it masks).
    final func _removeFromSuperlayer() {
        if let owner = _maskOwner { owner.mask = nil; return }
        guard let parent = _superlayer, let i = parent._sublayers.firstIndex(where: { $0 === self }) else { return }
        let wasAttached = parent._isInAttachedTree
        _runLoop._treeEpoch &+= 1
        parent._change("sublayers", old: nil, new: nil) { p in
            p._sublayers.remove(at: i)
            self._superlayer = nil
        }
        parent.setNeedsLayout()
        if wasAttached { _runNonPropertyAction(kCAOnOrderOut) }
    }

    // MARK: Internals

    final func _insert(_ layer: CALayer, at index: Int) {
        // A leaf (no sublayers, no mask) cannot be an ancestor of self: the walk up is skipped.
        let leaf = layer._sublayers.isEmpty && layer._mask == nil
        guard layer !== self, leaf || !_isDescendantOrSelf(ofPossibleAncestor: layer) else { return }
        if layer._superlayer != nil || layer._maskOwner != nil { layer._detachQuietly() }
        // A new leaf takes its parent's answer below; anything else may change many answers.
        if !leaf { _runLoop._treeEpoch &+= 1 }
        let i = max(0, min(index, _sublayers.count))
        _change("sublayers", old: nil, new: nil) { p in
            p._sublayers.insert(layer, at: i)
            layer._superlayer = p
        }
        setNeedsLayout()
        let attached = _isInAttachedTree
        if leaf, layer._runLoop === _runLoop { layer._attachedCache = attached; layer._attachedCacheEpoch = _runLoop._treeEpoch }
        if attached {
            _runLoop._treeDirty = true
            layer._runNonPropertyAction(kCAOnOrderIn)
        }
    }

    /// Removes the layer from its parent without actions (it is being moved elsewhere).
    final func _detachQuietly() {
        _runLoop._treeEpoch &+= 1
        if let owner = _maskOwner { owner._saveCommittedState(); owner._mask = nil; _maskOwner = nil }
        if let parent = _superlayer, let i = parent._sublayers.firstIndex(where: { $0 === self }) {
            parent._saveCommittedState()
            parent._sublayers.remove(at: i)
            parent.setNeedsLayout()
        }
        _superlayer = nil
    }

    /// True when self is `candidate` or inside `candidate`'s subtree (so inserting `candidate`
    /// below self would make a cycle).
    final func _isDescendantOrSelf(ofPossibleAncestor candidate: CALayer) -> Bool {
        var l: CALayer? = self
        while let cur = l {
            if cur === candidate { return true }
            l = cur._superlayer ?? cur._maskOwner
        }
        return false
    }

    /// The root of the tree (following masks to their owners).
    final var _root: CALayer {
        var l: CALayer = self
        while let up = l._superlayer ?? l._maskOwner { l = up }
        return l
    }
}
