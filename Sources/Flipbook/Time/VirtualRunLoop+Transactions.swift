import Foundation
/// The transaction stack of a run loop (what `CATransaction`'s class methods act on).
extension VirtualRunLoop {
    /// The innermost transaction, opening the implicit one if none is open.
    @discardableResult
    func _ensureTransaction() -> _Transaction {
        if let t = _stack.last { return t }
        let t = _Transaction(isImplicit: true)
        _stack.append(t)
        return t
    }

    func _begin() { _stack.append(_Transaction(isImplicit: false)) }

    /// Commits the innermost explicit transaction; unbalanced commits are ignored.
    func _commitExplicit() {
        guard let top = _stack.last, !top.isImplicit else { return }
        if _stack.count == 1 {
            _layoutAndDisplayBeforeCommit()
            // Layout or drawing code that committed the transaction itself (unbalanced) did it.
            guard _stack.count == 1, _stack.last === top else { return }
        }
        _stack.removeLast()
        if let parent = _stack.last {
            parent.pending += top.pending
            parent.groups += top.groups
            if parent.isImplicit, parent.flushRequested, _stack.count == 1 { _commitImplicitIfAlone() }
        } else {
            _commitOutermost(top)
        }
    }

    func _flush() {
        guard let bottom = _stack.first, bottom.isImplicit else { return }
        if _stack.count == 1 { _commitImplicitIfAlone() } else { bottom.flushRequested = true }
    }

    /// Commits the implicit transaction when it is the only one open.
    func _commitImplicitIfAlone() {
        guard _stack.count == 1, let t = _stack.first, t.isImplicit else { return }
        _layoutAndDisplayBeforeCommit()
        guard _stack.count == 1, _stack.first === t else { return }
        _stack.removeLast()
        _commitOutermost(t)
    }

    /// Before an outermost commit, with its transaction still open (so what layout and drawing
    /// change is part of the commit, as in Apple's `CATransaction` commit): the layout pass
    /// (`_layoutPass()`, see `CALayer+Layout.swift`), then the display pass —
    /// `displayIfNeeded()` of every layer marked since the last pass, in the order marked.
    /// Layers marked for display during the display pass wait for the next commit.
    func _layoutAndDisplayBeforeCommit() {
        if !_needsLayout.isEmpty { _layoutPass() }
        guard !_needsDisplay.isEmpty else { return }
        let layers = _needsDisplay
        _needsDisplay = []
        for l in layers { l.layer?.displayIfNeeded() }
    }

    /// The outermost commit: the changed layers' values become their committed state, the
    /// tree becomes live, begin times resolve, callbacks are scheduled, completion groups are
    /// sealed. (Layout and display ran just before: `_layoutAndDisplayBeforeCommit()`.) Layers
    /// still marked for layout or display get an implicit transaction, so the next turn does them.
    func _commitOutermost(_ t: _Transaction) {
        for l in _changedSinceCommit { l.layer?._committed = nil }
        _changedSinceCommit = []
        _commitCount += 1
        if _treeDirty {
            _treeDirty = false
            for root in rootLayers { root._markLive() }
        }
        for anim in t.pending where anim._phase == .pending {
            _schedule(anim)
            // An emitter keeps the animations of its values (the particles born while one runs
            // keep what it gave them).
            (anim._layer as? CAEmitterLayer)?._recordAnimation(anim)
        }
        for g in t.groups {
            g.sealed = true
            _fireIfDone(g)
        }
        if !_needsDisplay.isEmpty || !_needsLayout.isEmpty { _ensureTransaction() }
    }

    // MARK: Values

    /// The innermost value for `key` (inheritance walks outwards).
    func _lookup(_ key: String) -> Any? {
        for t in _stack.reversed() { if let v = t.values[key] { return v } }
        return nil
    }

    var _animationDuration: CFTimeInterval {
        (_lookup(kCATransactionAnimationDuration) as? CFTimeInterval) ?? CATransaction._defaultAnimationDuration
    }

    var _animationTimingFunction: CAMediaTimingFunction? {
        _lookup(kCATransactionAnimationTimingFunction) as? CAMediaTimingFunction
    }

    var _disableActions: Bool { (_lookup(kCATransactionDisableActions) as? Bool) ?? false }

    func _transactionValue(forKey key: String) -> Any? {
        switch key {
        case kCATransactionAnimationDuration: return _animationDuration
        case kCATransactionDisableActions: return _disableActions
        case kCATransactionAnimationTimingFunction: return _animationTimingFunction
        case kCATransactionCompletionBlock: return _stack.last?.currentGroup?.block
        default: return _lookup(key)
        }
    }

    func _setTransactionValue(_ value: Any?, forKey key: String) {
        let t = _ensureTransaction()
        switch key {
        case kCATransactionAnimationDuration:
            if let d = _KVCCoercion.double(value), d.isFinite { t.values[key] = d }
        case kCATransactionDisableActions:
            if let b = _KVCCoercion.bool(value) { t.values[key] = b }
        case kCATransactionAnimationTimingFunction:
            if value == nil { t.values[key] = Optional<CAMediaTimingFunction>.none as Any }
            else if let f = value as? CAMediaTimingFunction { t.values[key] = f }
        case kCATransactionCompletionBlock:
            if value == nil { _setCompletionBlock(nil) }
            else if let b = value as? () -> Void { _setCompletionBlock(b) }
        default:
            t.values[key] = value
        }
    }

    /// Replaces the block of the current group if no animation joined it yet; otherwise starts
    /// a new group (the old one keeps its block and its animations).
    func _setCompletionBlock(_ block: (() -> Void)?) {
        let t = _ensureTransaction()
        if let g = t.currentGroup, !g.everUsed {
            g.block = block
        } else {
            let g = _CompletionGroup(block: block)
            t.currentGroup = g
            t.groups.append(g)
        }
    }

    // MARK: Lock

    func _lockTree() { _treeLock.lock(); _lockDepth += 1 }

    func _unlockTree() {
        guard _lockDepth > 0 else { return }
        _lockDepth -= 1
        _treeLock.unlock()
    }
}
