import Foundation
import FlipbookGraphics
/// A rectangle of content in a tree, with geometry, appearance and animations (Apple's `CALayer`).
///
/// **Storage.** Built-in properties live in one `_LayerState` struct (typed, fast to read);
/// custom KVC keys in `_extras`. Every setter — typed or KVC — goes through
/// `_change(_:old:new:apply:)`: if the new value equals the old one nothing happens;
/// otherwise `_willChange(key:old:new:)` runs the action search while the old value is still in
/// place, the value is stored, and the action found is run (an animation adds itself).
///
/// **Run loop.** A layer belongs to the ``VirtualRunLoop`` that was current when it was created: its
/// changes join that run loop's transactions and its animations run on that clock.
///
/// **Live.** A layer is live (``isLive``) when it is in a tree whose root was attached with
/// ``VirtualRunLoop/attach(_:)`` and an outermost commit has happened since it joined. Only live
/// layers get the implicit animation; actions found by the search run for any layer.
open class CALayer: NSObject {
    var _state = _LayerState()
    /// Custom KVC values (keys that are not built-in properties).
    var _extras: [String: Any] = [:]
    var _sublayers: [CALayer] = []
    weak var _superlayer: CALayer?
    var _mask: CALayer?
    /// The layer whose `mask` this layer is (a mask has no superlayer, as on Apple).
    weak var _maskOwner: CALayer?
    /// Stored animation copies, in the order added.
    var _animations: [(key: String, animation: CAAnimation)] = []
    /// The run loop this layer belongs to.
    package let _runLoop: VirtualRunLoop
    var _isAttachedRoot = false
    var _wasCommittedLive = false
    var _needsDisplayFlag = false
    /// The snapshot taken by the action search just before a change whose action is a
    /// `CATransition`; consumed by `add(_:forKey:)`.
    var _transitionFrom: RenderLayer?
    /// What the layer was at its run loop's last outermost commit, saved at its first change
    /// since (nil when unchanged since the commit, or never committed): the "before" picture
    /// of a `CATransition` (see `_CommittedLayer`).
    var _committed: _CommittedLayer?
    /// Set on presentation copies: the model layer they were made from (`model()` answers it).
    /// A presentation copy's setters store values without transactions or actions.
    var _modelLayer: CALayer?
    /// Presentation copies only: the `contents` cross-fade in flight (see `ContentsCrossfade`).
    package internal(set) var _contentsCrossfade: ContentsCrossfade?
    /// The run loop's outermost-commit count when the layer was created: `presentation()` is nil
    /// until a later commit (the layer was "never committed").
    var _createdAtCommit: Int

    /// The layer's delegate (weak, as on Apple).
    open weak var delegate: CALayerDelegate?
    /// Actions by key: step 2 of the action search. `NSNull()` ends the search with no action.
    open var actions: [String: CAAction]?
    /// Step 3 of the action search: `style["actions"]` (a dictionary of actions), then the
    /// nested `style["style"]` dictionaries, recursively.
    open var style: [AnyHashable: Any]?

    /// A new layer with default values, belonging to ``VirtualRunLoop/current``.
    public override init() {
        _runLoop = VirtualRunLoop.current
        _createdAtCommit = _runLoop._commitCount
        super.init()
        if type(of: self) != CALayer.self { _applySubclassDefaults() }
    }

    /// A copy of `layer`'s model values (for presentation copies): no tree, no animations, no
    /// actions are run. Subclasses override to copy their own properties and call super.
    /// `required` because `presentation()` makes the copy through `type(of: self)`, so a
    /// subclass's presentation copy is of the subclass (write `required init(layer: Any)`).
    public required init(layer: Any) {
        let other = layer as? CALayer
        _runLoop = other?._runLoop ?? VirtualRunLoop.current
        _createdAtCommit = other?._createdAtCommit ?? _runLoop._commitCount
        super.init()
        guard let other else { return }
        _state = other._state
        _extras = other._extras
        delegate = other.delegate
        actions = other.actions
        style = other.style
    }

    /// Apple's default value for a built-in key (or nil); subclasses override to give custom
    /// keys defaults or to change built-in ones (applied at init).
    open class func defaultValue(forKey key: String) -> Any? {
        guard let entry = _LayerKeyTable.entries[_LayerKeyTable.canonical(key)] else { return nil }
        return entry.getState?(_LayerKeyTable.defaultLayerState)
    }

    /// Whether changing `key` should mark the layer as needing display (false for every
    /// built-in key; subclasses override for their own keys).
    open class func needsDisplay(forKey key: String) -> Bool { false }

    /// For subclasses: the built-in keys whose `defaultValue(forKey:)` differs from CALayer's.
    private func _applySubclassDefaults() {
        for (key, entry) in _LayerKeyTable.entries {
            guard let setState = entry.setState, let v = type(of: self).defaultValue(forKey: key) else { continue }
            try? setState(&_state, v)
        }
    }

    // MARK: Overridable entry points (declared here: extension members cannot be overridden)

    /// Finds the action for `event`: delegate → `actions` → `style` (recursively) →
    /// `defaultAction(forKey:)` → the implicit action (see `_searchAction(forKey:)`).
    /// Override as on Apple: return nil to suppress, else call `super`.
    open func action(forKey event: String) -> CAAction? { _searchAction(forKey: event) }

    /// Step 4 of the action search; CALayer's answer is always nil. Subclasses override.
    open class func defaultAction(forKey event: String) -> CAAction? { nil }

    /// KVC read: built-in keys, then custom keys, then `defaultValue(forKey:)` (see `CALayer+KVC.swift`).
    open func value(forKey key: String) -> Any? { _value(forKey: key) }

    /// KVC write; bad input is ignored and reported on standard error (see ``LayerKVCError``).
    open func setValue(_ value: Any?, forKey key: String) {
        do { try _trySetValue(value, forKey: key) } catch { _KVCDiagnostics.report(error) }
    }

    /// Whether `p` (in the layer's coordinates) is inside its bounds.
    open func contains(_ p: CGPoint) -> Bool { CALayer._rect(_state.bounds, contains: p) }

    /// `CGRectContainsPoint` (half-open: `minX ≤ x < maxX`, `minY ≤ y < maxY`, negative sizes
    /// standardized) in plain comparisons: Foundation's `CGRect.contains` on Linux traps on
    /// non-finite rectangles, and the model accepts non-finite geometry. NaN anywhere → false.
    static func _rect(_ r: CGRect, contains p: CGPoint) -> Bool {
        let x0 = r.origin.x, x1 = r.origin.x + r.size.width
        let y0 = r.origin.y, y1 = r.origin.y + r.size.height
        return p.x >= min(x0, x1) && p.x < max(x0, x1) && p.y >= min(y0, y1) && p.y < max(y0, y1)
    }

    /// The front-most descendant containing `p` (in the superlayer's coordinates).
    open func hitTest(_ p: CGPoint) -> CALayer? { _hitTest(p) }

    // MARK: The change path

    /// Sets a typed field through the one change path.
    @inline(__always)
    final func _set<T: Equatable>(_ field: WritableKeyPath<_LayerState, T>, _ new: T, key: String) {
        let old = _state[keyPath: field]
        if old == new { return }
        _change(key, old: old, new: new) { $0._state[keyPath: field] = new }
    }

    /// Runs the action search (`_willChange`), applies the change, runs the action found.
    @usableFromInline
    final func _change(_ key: String, old: Any?, new: Any?, apply: (CALayer) -> Void) {
        // Presentation copies store evaluated values: no transaction, no action, no display.
        if _modelLayer != nil { apply(self); return }
        let action = _willChange(key: key, old: old, new: new)
        _saveCommittedState()
        apply(self)
        if type(of: self).needsDisplay(forKey: key) { setNeedsDisplay() }
        if let action { _run(action, forKey: key) }
    }

    /// Opens the implicit transaction if needed and, unless the transaction disables actions,
    /// searches the action for `key` while the old value is still in place. A `CATransition`
    /// action makes the layer record its rendering before the change (its committed state:
    /// `_makeCommittedRenderTree()`).
    @usableFromInline
    final func _willChange(key: String, old: Any?, new: Any?) -> CAAction? {
        _runLoop._ensureTransaction()
        guard !_runLoop._disableActions, let action = action(forKey: key) else { return nil }
        if action is CATransition { _transitionFrom = _makeCommittedRenderTree() }
        if let basic = action as? CABasicAnimation, basic._isImplicit { basic.toValue = new }
        return action
    }

    final func _run(_ action: CAAction, forKey key: String) {
        action.run(forKey: key, object: self, arguments: nil)
        _transitionFrom = nil
    }

    /// Searches and runs the action for an event that is not a property change.
    final func _runNonPropertyAction(_ key: String) {
        guard let action = _willChange(key: key, old: nil, new: nil) else { return }
        _run(action, forKey: key)
    }

    // MARK: Liveness

    /// True when the layer is in a tree attached to its run loop and an outermost commit
    /// happened since it joined (see the type's documentation).
    public var isLive: Bool { _wasCommittedLive && _isInAttachedTree }

    /// Whether the root of this layer's tree (following masks to their owners) is attached.
    final var _isInAttachedTree: Bool {
        var l: CALayer = self
        while let up = l._superlayer ?? l._maskOwner { l = up }
        return l._isAttachedRoot
    }

    /// Marks this subtree (masks included) as committed in a live tree. Iterative (an explicit
    /// stack), so trees of any depth do not overflow the thread's stack.
    final func _markLive() {
        var stack: [CALayer] = [self]
        while let l = stack.popLast() {
            l._wasCommittedLive = true
            if let m = l._mask { stack.append(m) }
            stack.append(contentsOf: l._sublayers)
        }
    }

    /// Tears the subtree down iteratively: a layer about to die (uniquely referenced) hands its
    /// sublayers and mask to an explicit stack before it is released, so releasing a
    /// 100,000-deep tree never nests `deinit`s more than one level. Layers still referenced
    /// elsewhere are left alone (they keep their subtrees).
    deinit {
        guard _mask != nil || !_sublayers.isEmpty else { return }
        var stack = _sublayers
        _sublayers = []
        if let m = _mask { stack.append(m); _mask = nil }
        while var l = stack.popLast() {
            guard isKnownUniquelyReferenced(&l) else { continue }
            stack.append(contentsOf: l._sublayers)
            l._sublayers = []
            if let m = l._mask { stack.append(m); l._mask = nil }
        }
    }

    // MARK: Display

    /// Marks the layer as needing display; `displayIfNeeded()` runs at the next commit.
    open func setNeedsDisplay() {
        guard !_needsDisplayFlag else { return }
        _needsDisplayFlag = true
        _runLoop._needsDisplay.append(self)
    }

    open func needsDisplay() -> Bool { _needsDisplayFlag }

    open func displayIfNeeded() {
        guard _needsDisplayFlag else { return }
        _needsDisplayFlag = false
        display()
    }

    /// Asks the delegate to provide contents (`layerWillDraw(_:)`, then `display(_:)`).
    open func display() {
        delegate?.layerWillDraw(self)
        delegate?.display(self)
    }

    /// Calls the delegate's `layoutSublayers(of:)`.
    open func layoutSublayers() { delegate?.layoutSublayers(of: self) }
}
