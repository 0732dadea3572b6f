import Foundation
/// Layout: `setNeedsLayout()` → (end of the turn) `layoutSublayers()`, top-down, before display.
///
/// **Marking.** `setNeedsLayout()` marks the layer, queues it on its run loop (opening the
/// implicit transaction, so the end of the turn commits) and flags its ancestors as having a
/// descendant that needs layout (stopping at the first ancestor already flagged; a mask's
/// ancestor is the layer it masks). As on Apple, a layer marks itself when its `bounds` change
/// (origin or size) and when a sublayer is added or removed. Presentation copies are never
/// marked.
///
/// **The layout pass** runs at the outermost commit, with the transaction still open (changes
/// made by `layoutSublayers()` — new frames, which may animate implicitly in a live tree — are
/// part of the commit), before the display pass: for each queued layer still flagged, the
/// highest flagged ancestor is found and its subtree is laid out **top-down** (a layer's
/// `layoutSublayers()` runs before its sublayers are visited, so a sublayer whose bounds the
/// parent changed is laid out in the same pass; only flagged branches are walked, with an
/// explicit stack, so deep trees cost no stack and unchanged branches cost nothing). Layers
/// marked outside the part being walked during the pass are laid out in another round; after
/// 16 rounds whatever is still marked waits for the next commit (chosen: a guard against
/// layouts that mark each other forever; Apple does not document one).
///
/// **`layoutIfNeeded()`** lays out now: from the highest ancestor (self included) that needs
/// layout, the flagged part of its subtree, as in the pass.
///
/// Layout managers (`layoutManager`, `CAConstraintLayoutManager`) and autoresizing are macOS
/// only: not provided. `layoutSublayers()` calls the delegate's `layoutSublayers(of:)`.
extension CALayer {
    /// The layer's parent for layout: its superlayer, or the layer it masks.
    final var _layoutParent: CALayer? { _superlayer ?? _maskOwner }

    /// Whether the layer or one of its descendants needs layout.
    final var _hasLayoutFlag: Bool { _needsLayoutFlag || _descendantNeedsLayout }

    /// `setNeedsLayout()`: marks, queues, flags the ancestors.
    final func _markNeedsLayout() {
        guard _modelLayer == nil, !_isStandingInForPresentation else { return }
        _runLoop._ensureTransaction()
        if !_needsLayoutFlag {
            _needsLayoutFlag = true
            _runLoop._needsLayout.append(_WeakLayer(self))
        }
        var up = _layoutParent
        while let u = up, !u._hasLayoutFlag {
            u._descendantNeedsLayout = true
            up = u._layoutParent
        }
    }

    /// The highest layer above (or at) self through flagged layers: `flagged` decides which
    /// ancestors count (any flag for the pass; needing layout itself for `layoutIfNeeded()`).
    final func _layoutTop(through flagged: (CALayer) -> Bool) -> CALayer {
        var top: CALayer = self
        while let up = top._layoutParent, flagged(up) { top = up }
        return top
    }

    /// Lays out the flagged part of the subtree of `self`, top-down (explicit stack).
    final func _layoutFlaggedSubtree() {
        var stack: [CALayer] = [self]
        while let l = stack.popLast() {
            if l._needsLayoutFlag {
                l._needsLayoutFlag = false
                l.layoutSublayers()
            }
            // Cleared after the layer's own layout: sublayers it marks stop their flagging here.
            l._descendantNeedsLayout = false
            // Children after the layer's own layout (which may have marked them), first on top
            // of the stack so siblings are visited in order; the mask first.
            for s in l._sublayers.reversed() where s._hasLayoutFlag { stack.append(s) }
            if let m = l._mask, m._hasLayoutFlag { stack.append(m) }
        }
    }
}

extension VirtualRunLoop {
    /// The layout pass (see `CALayer+Layout.swift`): rounds over the queued layers, at most 16.
    func _layoutPass() {
        var rounds = 0
        while !_needsLayout.isEmpty, rounds < 16 {
            rounds += 1
            let queued = _needsLayout
            _needsLayout = []
            for case let l? in queued.map(\.layer) where l._hasLayoutFlag {
                l._layoutTop(through: { $0._hasLayoutFlag })._layoutFlaggedSubtree()
            }
        }
    }
}
