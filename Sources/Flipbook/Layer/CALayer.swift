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
///
/// **Subclassing.** What is `open` on Apple is `open` here, declared in this class body (Swift
/// cannot override members of extensions): the properties (`override var bounds: CGRect {
/// didSet { … } }` sees typed and KVC writes), the tree, animation, display and layout methods,
/// `init(layer:)` (not `required`, as on Apple) and the class methods. A subclass may declare
/// any designated initializers of its own (`init(frame:)` with or without `override init()`);
/// see "Presentation copies" below. Their implementations are the `_`-prefixed `final` members of the extensions.
///
/// **Display and layout.** `setNeedsLayout()` / `setNeedsDisplay()` mark a layer; the end of
/// the turn lays out top-down, then displays (`CALayer+Layout.swift`, `CALayer+Display.swift`).
/// Opt-in to presentation copies of your own class (Flipbook's, not Apple's: Apple needs
/// nothing). On Apple every presentation copy is made by the layer class's `init(layer:)`; Swift
/// on Linux can call an initializer of a class known only at run time through a protocol
/// requirement or a `required` initializer, and `CALayer` cannot make `init(layer:)` required
/// without rejecting subclass shapes real code has (see ``CALayer/init(layer:)``, "Presentation
/// copies"). A class that declares this conformance gets Apple's behaviour exactly: its copies
/// are instances of the class made by its `init(layer:)` (so stored properties it copies there
/// are on the copy), and ``CALayer/presentation()`` returns one.
///
///     final class BadgeLayer: CALayer { … override init(layer: Any) { … } … }
///     extension BadgeLayer: FlipbookPresentationCopying {}
///
/// A `final` class conforms as it is (its `init(layer:)`, inherited or overridden, is the
/// witness); a non-final class must mark its `init(layer:)` `required`.
public protocol FlipbookPresentationCopying: CALayer {
    init(layer: Any)
}

open class CALayer: NSObject {
    var _state = _LayerState()
    /// Custom KVC values (keys that are not built-in properties).
    var _extras: [String: Any] = [:]
    var _sublayers: [CALayer] = []
    weak var _superlayer: CALayer?
    var _mask: CALayer?
    /// The layer whose `mask` this layer is (a mask has no superlayer, as on Apple).
    package weak var _maskOwner: CALayer?
    /// Stored animation copies, in the order added.
    var _animations: [(key: String, animation: CAAnimation)] = []
    /// The run loop this layer belongs to.
    package let _runLoop: VirtualRunLoop
    var _isAttachedRoot = false
    /// `_isInAttachedTree`'s answer and the run-loop tree epoch it was computed in.
    var _attachedCache = false
    var _attachedCacheEpoch = -1
    var _wasCommittedLive = false
    var _needsDisplayFlag = false
    /// Set by the protocol's default `CALayerDelegate.display(_:)`: the delegate does not
    /// implement it (so `display()` draws through `draw(in:)`).
    package var _delegateDisplayIsDefault = false
    /// Presentation copies: an animation of a key that needs display was applied (the render
    /// snapshot has the copy display itself).
    var _presentationNeedsDisplay = false
    /// `setNeedsLayout()` was called and `layoutSublayers()` has not run since.
    var _needsLayoutFlag = false
    /// A descendant (sublayer or mask, at any depth) needs layout (see `CALayer+Layout.swift`).
    var _descendantNeedsLayout = false
    /// The snapshot taken by the action search just before a change whose action is a
    /// `CATransition`; consumed by `add(_:forKey:)`.
    var _transitionFrom: RenderLayer?
    /// What the layer was at its run loop's last outermost commit, saved at its first change
    /// since (nil when unchanged since the commit, or never committed): the "before" picture
    /// of a `CATransition` (see `_CommittedLayer`).
    var _committed: _CommittedLayer?
    /// This layer's render node from the last reusing snapshot build, kept while its subtree
    /// is unchanged and nothing in it moves with time (``RenderTreeReuse``), and the
    /// `contentsAreFlipped` it was built with. Cleared, with every ancestor's, by any change
    /// (`_saveCommittedState`).
    final var _cachedRenderNode: RenderLayer?
    final var _cachedRenderNodeFlipped = false
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

    // MARK: Properties
    //
    // Declared in the class body (not in extensions) so that subclasses can override them as on
    // Apple (`override var bounds: CGRect { didSet { … } }`). Each setter goes through `_set` →
    // the one change path (same value: nothing; else action search, store, run action); KVC
    // writes go through these setters too (the key table holds key paths to them), so an
    // override sees both. The KVC key is given where it differs from the Swift name.

    /// The layer's own coordinate space: origin (scroll offset for sublayers) and size.
    open var bounds: CGRect {
        get { _state.bounds }
        set {
            let old = _state.bounds
            _set(\.bounds, newValue, key: "bounds")
            guard old != _state.bounds, _modelLayer == nil else { return }
            setNeedsLayout()
            if _state.needsDisplayOnBoundsChange { setNeedsDisplay() }
        }
    }

    /// Where the anchor point sits in the superlayer's coordinates.
    open var position: CGPoint {
        get { _state.position }
        set { _set(\.position, newValue, key: "position") }
    }

    /// The position on the z axis (also orders siblings when drawing).
    open var zPosition: CGFloat {
        get { _state.zPosition }
        set { _set(\.zPosition, newValue, key: "zPosition") }
    }

    /// The point of the bounds (unit coordinates) placed at `position`, and the centre of `transform`.
    open var anchorPoint: CGPoint {
        get { _state.anchorPoint }
        set { _set(\.anchorPoint, newValue, key: "anchorPoint") }
    }

    /// The anchor point's z component.
    open var anchorPointZ: CGFloat {
        get { _state.anchorPointZ }
        set { _set(\.anchorPointZ, newValue, key: "anchorPointZ") }
    }

    /// Applied about the anchor point, relative to the superlayer.
    open var transform: CATransform3D {
        get { _state.transform }
        set { _set(\.transform, newValue, key: "transform") }
    }

    /// Applied to the sublayers, about this layer's anchor point.
    open var sublayerTransform: CATransform3D {
        get { _state.sublayerTransform }
        set { _set(\.sublayerTransform, newValue, key: "sublayerTransform") }
    }

    /// Fills the bounds (inside the corner radius).
    open var backgroundColor: CGColor? {
        get { _state.backgroundColor }
        set { _set(\.backgroundColor, newValue, key: "backgroundColor") }
    }

    /// Radius of the rounded corners of the background and border (and of the clip).
    open var cornerRadius: CGFloat {
        get { _state.cornerRadius }
        set { _set(\.cornerRadius, newValue, key: "cornerRadius") }
    }

    /// Which corners `cornerRadius` rounds.
    open var maskedCorners: CACornerMask {
        get { _state.maskedCorners }
        set { _set(\.maskedCorners, newValue, key: "maskedCorners") }
    }

    /// Width of the border drawn inside the bounds.
    open var borderWidth: CGFloat {
        get { _state.borderWidth }
        set { _set(\.borderWidth, newValue, key: "borderWidth") }
    }

    /// Colour of the border (opaque black by default).
    open var borderColor: CGColor? {
        get { _state.borderColor }
        set { _set(\.borderColor, newValue, key: "borderColor") }
    }

    /// Opacity 0…1 of the layer and its sublayers.
    open var opacity: Float {
        get { _state.opacity }
        set { _set(\.opacity, newValue, key: "opacity") }
    }

    /// Hidden layers (and their sublayers) are not drawn. Becoming hidden also triggers `kCAOnOrderOut`, becoming visible `kCAOnOrderIn`. KVC key `hidden`.
    open var isHidden: Bool {
        get { _state.isHidden }
        set {
            let was = _state.isHidden
            _set(\.isHidden, newValue, key: "hidden")
            if was != _state.isHidden, _isInAttachedTree { _runNonPropertyAction(newValue ? kCAOnOrderOut : kCAOnOrderIn) }
        }
    }

    /// Clips sublayers and contents to the (rounded) bounds.
    open var masksToBounds: Bool {
        get { _state.masksToBounds }
        set { _set(\.masksToBounds, newValue, key: "masksToBounds") }
    }

    /// When false the layer is not drawn when facing away. KVC key `doubleSided`.
    open var isDoubleSided: Bool {
        get { _state.isDoubleSided }
        set { _set(\.isDoubleSided, newValue, key: "doubleSided") }
    }

    /// Composites the subtree as one group before applying `opacity`.
    open var allowsGroupOpacity: Bool {
        get { _state.allowsGroupOpacity }
        set { _set(\.allowsGroupOpacity, newValue, key: "allowsGroupOpacity") }
    }

    /// The part of `contents` (unit coordinates) that is drawn.
    open var contentsRect: CGRect {
        get { _state.contentsRect }
        set { _set(\.contentsRect, newValue, key: "contentsRect") }
    }

    /// The stretchable centre of `contents` (unit coordinates; nine-part scaling).
    open var contentsCenter: CGRect {
        get { _state.contentsCenter }
        set { _set(\.contentsCenter, newValue, key: "contentsCenter") }
    }

    /// How `contents` is placed in the bounds.
    open var contentsGravity: CALayerContentsGravity {
        get { _state.contentsGravity }
        set { _set(\.contentsGravity, newValue, key: "contentsGravity") }
    }

    /// Pixels of `contents` per point.
    open var contentsScale: CGFloat {
        get { _state.contentsScale }
        set { _set(\.contentsScale, newValue, key: "contentsScale") }
    }

    /// Filter used when `contents` is drawn smaller.
    open var minificationFilter: CALayerContentsFilter {
        get { _state.minificationFilter }
        set { _set(\.minificationFilter, newValue, key: "minificationFilter") }
    }

    /// Filter used when `contents` is drawn larger.
    open var magnificationFilter: CALayerContentsFilter {
        get { _state.magnificationFilter }
        set { _set(\.magnificationFilter, newValue, key: "magnificationFilter") }
    }

    /// Colour of the shadow (opaque black by default).
    open var shadowColor: CGColor? {
        get { _state.shadowColor }
        set { _set(\.shadowColor, newValue, key: "shadowColor") }
    }

    /// Opacity of the shadow (0: no shadow).
    open var shadowOpacity: Float {
        get { _state.shadowOpacity }
        set { _set(\.shadowOpacity, newValue, key: "shadowOpacity") }
    }

    /// Offset of the shadow ((0, −3) by default, as on Apple).
    open var shadowOffset: CGSize {
        get { _state.shadowOffset }
        set { _set(\.shadowOffset, newValue, key: "shadowOffset") }
    }

    /// Blur radius of the shadow.
    open var shadowRadius: CGFloat {
        get { _state.shadowRadius }
        set { _set(\.shadowRadius, newValue, key: "shadowRadius") }
    }

    /// A name for debugging and for finding layers.
    open var name: String? {
        get { _state.name }
        set { _set(\.name, newValue, key: "name") }
    }

    /// When true a bounds change calls `setNeedsDisplay()`.
    open var needsDisplayOnBoundsChange: Bool {
        get { _state.needsDisplayOnBoundsChange }
        set { _set(\.needsDisplayOnBoundsChange, newValue, key: "needsDisplayOnBoundsChange") }
    }

    /// CAMediaTiming: the layer's begin time in its superlayer's time.
    open var beginTime: CFTimeInterval {
        get { _state.beginTime }
        set { _set(\.beginTime, newValue, key: "beginTime") }
    }

    /// CAMediaTiming.
    open var duration: CFTimeInterval {
        get { _state.duration }
        set { _set(\.duration, newValue, key: "duration") }
    }

    /// CAMediaTiming: rate of the layer's time (and its animations').
    open var speed: Float {
        get { _state.speed }
        set { _set(\.speed, newValue, key: "speed") }
    }

    /// CAMediaTiming.
    open var timeOffset: CFTimeInterval {
        get { _state.timeOffset }
        set { _set(\.timeOffset, newValue, key: "timeOffset") }
    }

    /// CAMediaTiming.
    open var repeatCount: Float {
        get { _state.repeatCount }
        set { _set(\.repeatCount, newValue, key: "repeatCount") }
    }

    /// CAMediaTiming.
    open var repeatDuration: CFTimeInterval {
        get { _state.repeatDuration }
        set { _set(\.repeatDuration, newValue, key: "repeatDuration") }
    }

    /// CAMediaTiming.
    open var autoreverses: Bool {
        get { _state.autoreverses }
        set { _set(\.autoreverses, newValue, key: "autoreverses") }
    }

    /// CAMediaTiming.
    open var fillMode: CAMediaTimingFillMode {
        get { _state.fillMode }
        set { _set(\.fillMode, newValue, key: "fillMode") }
    }

    /// The image drawn in the bounds. Typed `Any?` as on Apple; Flipbook draws a `CGImage`.
    /// Setting anything else is ignored (with a message on standard error), like any other
    /// wrong-typed KVC value.
    open var contents: Any? {
        get { _state.contents }
        set {
            if newValue == nil { _set(\.contents, nil, key: "contents"); return }
            guard let image = newValue as? CGImage else {
                _KVCDiagnostics.report(.wrongType(key: "contents", expected: "CGImage", got: newValue))
                return
            }
            _set(\.contents, image, key: "contents")
        }
    }

    /// The shape of the shadow, in the layer's coordinates (nil: the shadow follows the
    /// layer's composited alpha). A typed property like the others, also reachable as the KVC
    /// key `shadowPath`, and animatable like Apple's (the implicit action covers it; paths do
    /// not interpolate, the value switches halfway).
    open var shadowPath: CGPath? {
        get { _state.shadowPath }
        set { _set(\.shadowPath, newValue, key: "shadowPath") }
    }

    // MARK: Derived geometry, tree, animations, time, presentation
    //
    // Overridable declarations; the implementations are the `_`-prefixed final members of
    // `CALayer+Geometry.swift`, `CALayer+Tree.swift`, `CALayer+Animations.swift`,
    // `CALayer+Timing.swift` and `CALayer+Presentation.swift` (documented there).

    /// The layer's rectangle in its superlayer's coordinates (see `_frame`): the bounding box of
    /// the bounds under `transform` about the anchor point, placed at `position`. Setting it sets
    /// `bounds` then `position` through their (overridable) setters.
    ///
    /// With a `transform` that is not the identity, Apple leaves `frame` undefined; Flipbook
    /// answers the bounding box above (chosen, and documented in docs/porting.md).
    open var frame: CGRect {
        get { _frame }
        set { _frame = newValue }
    }

    /// The sublayers, back to front; nil when there are none (as on Apple). Setting replaces them all.
    open var sublayers: [CALayer]? {
        get { _sublayersValue }
        set { _sublayersValue = newValue }
    }

    /// The parent layer, nil for a root (and for a mask).
    open var superlayer: CALayer? { _superlayer }

    /// A layer whose alpha masks this layer's content (it has no superlayer). KVC key `mask`.
    open var mask: CALayer? {
        get { _maskValue }
        set { _maskValue = newValue }
    }

    /// Appends `layer` on top of the sublayers (moving it if it already has a superlayer).
    open func addSublayer(_ layer: CALayer) { _addSublayer(layer) }

    /// Inserts `layer` at `idx` (clamped).
    open func insertSublayer(_ layer: CALayer, at idx: UInt32) { _insertSublayer(layer, at: idx) }

    /// Inserts `layer` just below `sibling` (at the bottom when `sibling` is nil or not a sublayer).
    open func insertSublayer(_ layer: CALayer, below sibling: CALayer?) { _insertSublayer(layer, below: sibling) }

    /// Inserts `layer` just above `sibling` (on top when `sibling` is nil or not a sublayer).
    open func insertSublayer(_ layer: CALayer, above sibling: CALayer?) { _insertSublayer(layer, above: sibling) }

    /// Replaces the sublayer `oldLayer` with `newLayer` (does nothing if `oldLayer` is not a
    /// sublayer). Triggers `kCATransition` on self, then the usual removal/insertion actions.
    open func replaceSublayer(_ oldLayer: CALayer, with newLayer: CALayer) { _replaceSublayer(oldLayer, with: newLayer) }

    /// Detaches the layer from its superlayer (or from the layer it masks).
    open func removeFromSuperlayer() { _removeFromSuperlayer() }

    /// Adds a copy of `anim` under `key` (see `_add(_:forKey:)` for how the copy is resolved
    /// against the transaction).
    open func add(_ anim: CAAnimation, forKey key: String?) { _add(anim, forKey: key) }

    /// The stored copy under `key` (treat it as read-only, as on Apple).
    open func animation(forKey key: String) -> CAAnimation? { _animation(forKey: key) }

    /// The keys of the stored animations in the order added; nil when there are none.
    open func animationKeys() -> [String]? { _animationKeys() }

    /// Removes the animation under `key`; if it had not finished its delegate gets
    /// `animationDidStop(_:finished: false)` at the end of the turn.
    open func removeAnimation(forKey key: String) { _removeAnimation(forKey: key) }

    /// Removes every animation (see ``removeAnimation(forKey:)``).
    open func removeAllAnimations() { _removeAllAnimations() }

    /// Converts `p` from `l`'s coordinates (nil: the root's superlayer space) to this layer's.
    open func convert(_ p: CGPoint, from l: CALayer?) -> CGPoint { _convert(p, from: l) }

    /// Converts `p` from this layer's coordinates to `l`'s (nil: the root's superlayer space).
    open func convert(_ p: CGPoint, to l: CALayer?) -> CGPoint { _convert(p, to: l) }

    /// Converts `r` from `l`'s coordinates (the bounding box of its mapped corners).
    open func convert(_ r: CGRect, from l: CALayer?) -> CGRect { _convert(r, from: l) }

    /// Converts `r` to `l`'s coordinates (the bounding box of its mapped corners).
    open func convert(_ r: CGRect, to l: CALayer?) -> CGRect { _convert(r, to: l) }

    /// Converts `t` from the time space of layer `l` (nil: media time) to this layer's.
    open func convertTime(_ t: CFTimeInterval, from l: CALayer?) -> CFTimeInterval { _convertTime(t, from: l) }

    /// Converts `t` from this layer's time space to that of layer `l` (nil: media time).
    open func convertTime(_ t: CFTimeInterval, to l: CALayer?) -> CFTimeInterval { _convertTime(t, to: l) }

    // MARK: Scrolling (with `CAScrollLayer`)

    /// Scrolls the closest ancestor `CAScrollLayer` (superlayers only) so that `p`, in this
    /// layer's coordinates, lies at its bounds origin (Apple's `scroll(_:)`). Nothing happens
    /// without a scroll layer above.
    open func scroll(_ p: CGPoint) {
        guard let s = _enclosingScrollLayer else { return }
        s.scroll(to: s.convert(p, from: self))
    }

    /// Scrolls the closest ancestor `CAScrollLayer` as little as possible so that `r`, in this
    /// layer's coordinates, is visible (Apple's `scrollRectToVisible(_:)`; see
    /// `CAScrollLayer.scroll(to:)` for the rule).
    open func scrollRectToVisible(_ r: CGRect) {
        guard let s = _enclosingScrollLayer else { return }
        s.scroll(to: s.convert(r, from: self))
    }

    /// The part of the layer not clipped by its closest ancestor scroll layer, in the layer's
    /// own coordinates (Apple's `visibleRect`): `bounds` ∩ that scroll layer's bounds converted
    /// here; `bounds` when there is no scroll layer above. Empty (`.null`) when nothing shows.
    open var visibleRect: CGRect {
        guard let s = _enclosingScrollLayer else { return bounds }
        return bounds.intersection(convert(s.bounds, from: s))
    }

    /// The nearest superlayer that is a `CAScrollLayer`.
    final var _enclosingScrollLayer: CAScrollLayer? {
        var l = _superlayer
        while let up = l {
            if let s = up as? CAScrollLayer { return s }
            l = up._superlayer
        }
        return nil
    }

    /// A copy of the layer with every running animation applied at the current media time of
    /// its run loop; nil for a layer never committed. On a presentation copy, returns itself.
    /// (See `CALayer+Presentation.swift`.)
    open func presentation() -> Self? { _presentation() }

    /// The model layer: self, or for a presentation copy the layer it was made from.
    open func model() -> Self { _model() }

    /// A new layer with default values, belonging to ``VirtualRunLoop/current``.
    public override init() {
        _runLoop = VirtualRunLoop.current
        _createdAtCommit = _runLoop._commitCount
        super.init()
        if type(of: self) != CALayer.self { _applySubclassDefaults() }
    }

    /// A copy of `layer`'s model values (Apple's `init(layer:)`): no tree, no animations, no
    /// actions are run. Subclasses override it to copy their own stored properties and call
    /// `super.init(layer:)`, as on Apple: `override init(layer: Any)`. Not `required`, as on
    /// Apple.
    ///
    /// **Presentation copies.** On Apple the Objective-C runtime makes a presentation copy by
    /// calling `init(layer:)` on the layer's own class. Swift without that runtime can construct
    /// an instance of a class known only at run time solely through a `required` initializer, and
    /// no `required` initializer can be inherited by every subclass shape real code has: a
    /// subclass with `override init()` needs `init()` to be a designated initializer of
    /// `CALayer`, and a subclass that declares `init(frame:)`, `override init(layer:)` and
    /// `required init?(coder:)` *without* `override init()` then inherits no required
    /// convenience initializer. (`init?(coder:)` is required, but subclasses commonly implement it
    /// as `fatalError()`.) So Flipbook makes presentation copies **without the subclass's
    /// initializer**: the copy is an instance of the nearest Flipbook class (`CALayer`,
    /// `CAShapeLayer`, `CATextLayer`, …) holding the model's values with the animations applied,
    /// and what the subclass adds runs on the model:
    /// - `draw(in:)` / `display()` for an animating key that needs display run on the model
    ///   layer with the presented values swapped in (no actions, no transaction; restored
    ///   afterwards), so a custom property animates through your drawing code as on Apple;
    /// - `defaultValue(forKey:)` and `needsDisplay(forKey:)` of the model's class answer for the
    ///   copy.
    /// The one visible difference: ``presentation()`` of a layer whose class is your own subclass
    /// returns nil (the copy is not of your class), and your `init(layer:)` is not called for
    /// copies. To get Apple's behaviour exactly — copies of your class made by your
    /// `init(layer:)`, a typed `presentation()` — declare the conformance
    /// `extension MyLayer: FlipbookPresentationCopying {}` (one line; a `final` class conforms as it
    /// is, a non-final one marks its `init(layer:)` `required`).
    public init(layer: Any) {
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

    /// Apple's archive initializer (`NSSecureCoding`), here so that ported subclasses compile
    /// unchanged — both `required init?(coder: NSCoder) { super.init(coder: coder) }` and the
    /// usual `fatalError` body. As on Apple it is `required`: a subclass that declares a
    /// designated initializer of its own must provide it.
    ///
    /// Flipbook does not archive layers (no `encode(with:)`; Core Animation's archive format
    /// is Apple's), so this initializer always fails: it returns nil.
    public required init?(coder: NSCoder) {
        return nil
    }

    /// A presentation copy of `model`: an instance of the nearest Flipbook class made with its
    /// `init(layer:)` (see ``init(layer:)``, "Presentation copies"). Each Flipbook subclass
    /// overrides it to make its own class; your subclasses inherit the override of the Flipbook
    /// class they derive from.
    package class func _makePresentationCopy(of model: CALayer) -> CALayer { CALayer(layer: model) }

    /// The class of the model layer: for a presentation copy, the class of the layer it was made
    /// from (whose `defaultValue(forKey:)` and `needsDisplay(forKey:)` answer for it).
    package final var _modelClass: CALayer.Type { type(of: _modelLayer ?? self) }

    /// True while a model layer stands in for its presentation copy (``_displayAsPresentation(of:)``):
    /// setters store without actions or transactions, as on a copy.
    final var _isStandingInForPresentation = false

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
        if _modelLayer != nil || _isStandingInForPresentation { apply(self); return }
        let action = _willChange(key: key, old: old, new: new)
        // A found CABasicAnimation without endpoints animates from the value on screen before
        // the change to the new model value (see `_EndpointlessAction`); read the former now.
        let endpointless = action.flatMap { _EndpointlessAction(action: $0, key: key, layer: self) }
        _saveCommittedState()
        apply(self)
        if type(of: self).needsDisplay(forKey: key) { setNeedsDisplay() }
        if let endpointless { _run(endpointless.resolved(layer: self), forKey: key) } else if let action { _run(action, forKey: key) }
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
    ///
    /// Cached per layer for the run loop's current tree epoch, and the walk up stops at the
    /// first ancestor with a valid answer: building a 10,000-deep chain one `addSublayer` at
    /// a time is linear, not quadratic (each new leaf asks its parent, which knows).
    final var _isInAttachedTree: Bool {
        let epoch = _runLoop._treeEpoch
        if _attachedCacheEpoch == epoch { return _attachedCache }
        var path: [CALayer] = []
        var l: CALayer = self
        var answer: Bool
        while true {
            if l._attachedCacheEpoch == epoch { answer = l._attachedCache; break }
            path.append(l)
            guard let up = l._superlayer ?? l._maskOwner else { answer = l._isAttachedRoot; break }
            if up._runLoop !== _runLoop {
                // A tree spanning run loops (not a supported shape): answered without caching.
                var top = up
                while let u = top._superlayer ?? top._maskOwner { top = u }
                return top._isAttachedRoot
            }
            l = up
        }
        for x in path { x._attachedCache = answer; x._attachedCacheEpoch = epoch }
        return answer
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

    // MARK: Display (see `CALayer+Display.swift`)

    /// Marks the layer as needing display: `displayIfNeeded()` runs at the next outermost
    /// commit (the end of the turn), after layout. Opens the implicit transaction if none is open.
    open func setNeedsDisplay() { _markNeedsDisplay() }

    /// Marks the layer as needing display. Chosen: the whole layer is redrawn (`r` is not
    /// tracked; Flipbook's backing store is always redrawn whole), so this is `setNeedsDisplay()`.
    open func setNeedsDisplay(_ r: CGRect) { setNeedsDisplay() }

    /// Whether the layer is marked as needing display.
    open func needsDisplay() -> Bool { _needsDisplayFlag }

    /// Displays the layer now (`display()`) if it is marked, and clears the mark.
    open func displayIfNeeded() {
        guard _needsDisplayFlag else { return }
        _needsDisplayFlag = false
        display()
    }

    /// Reloads the layer's contents. Do not call it directly (as on Apple). The default: the
    /// delegate's `display(_:)` if it implements it; else `layerWillDraw(_:)`, a bitmap context
    /// of the bounds at `contentsScale`, ``draw(in:)``, and `contents` = its image. Override
    /// to set `contents` yourself.
    open func display() { _defaultDisplay() }

    /// Draws the layer's content into `ctx` (user space: bounds coordinates, y down, scaled by
    /// `contentsScale`). The default calls the delegate's `draw(_:in:)`. Override to draw.
    open func draw(in ctx: CGContext) { delegate?.draw(self, in: ctx) }

    /// Accepted (Apple's hint to queue drawing commands on a background thread); no effect:
    /// Flipbook draws synchronously, deterministically.
    open var drawsAsynchronously: Bool {
        get { _state.drawsAsynchronously }
        set { _set(\.drawsAsynchronously, newValue, key: "drawsAsynchronously") }
    }

    /// Whether the layer declares itself fully opaque. Accepted and stored (KVC key `opaque`);
    /// chosen: the backing store is still RGBA, cleared to transparent, and the compositor
    /// blends `contents` by their alpha (Apple may drop the alpha channel; pixels a drawing
    /// leaves transparent would be undefined there anyway).
    open var isOpaque: Bool {
        get { _state.isOpaque }
        set { _set(\.isOpaque, newValue, key: "opaque") }
    }

    // MARK: Affine transform, flipping, archiving

    /// `transform` as an affine transform (Apple's `affineTransform()`): the 2-D part of the
    /// matrix (`CATransform3DGetAffineTransform`).
    open func affineTransform() -> CGAffineTransform { CATransform3DGetAffineTransform(transform) }

    /// Sets `transform` from an affine transform (Apple's `setAffineTransform(_:)`; animates like
    /// `transform`).
    open func setAffineTransform(_ m: CGAffineTransform) { transform = CATransform3DMakeAffineTransform(m) }

    /// Whether the geometry of the layer's sublayers is flipped vertically (Apple's
    /// `isGeometryFlipped`, KVC key `geometryFlipped`). Default false; not animatable.
    ///
    /// When true, the sublayers' coordinate space is the layer's bounds reflected about their
    /// horizontal centre line: a sublayer's `position.y` is measured from the bottom edge
    /// (`bounds.maxY`) upwards, and the reflection carries on down the subtree until another
    /// layer flips it back. As Apple documents, the value "does not affect the rendering of the
    /// layer's content": images (`contents`) stay upright wherever they land (the compositor
    /// draws them reflected back, see ``contentsAreFlipped()``), while geometry — positions,
    /// rotations, shape paths, the corners in `maskedCorners` — is reflected. Coordinate
    /// conversions (`convert(_:from:)`, `hitTest(_:)`) use the same geometry.
    ///
    /// Flipbook's layer space is y-down like iOS's, so a macOS layer tree that sets this to get
    /// a top-left origin should not set it here (docs/porting.md).
    open var isGeometryFlipped: Bool {
        get { _state.isGeometryFlipped }
        set { _set(\.isGeometryFlipped, newValue, key: "geometryFlipped") }
    }

    /// Whether the layer's content is implicitly flipped when rendered (Apple's
    /// `contentsAreFlipped()`): true when an odd number of the layer's superlayers (up to the
    /// root; for a mask, its owner's superlayers) have ``isGeometryFlipped`` set. Such a layer's `contents`
    /// image is drawn reflected back so that it stays upright, and its `draw(in:)` context is
    /// given a y-flip (as Apple does), so drawing at y = 0 lands at the edge the layer's
    /// geometry calls y = 0. Do not override it (Apple: "You should not attempt to override
    /// this method").
    open func contentsAreFlipped() -> Bool {
        var flipped = false
        var l: CALayer = _modelLayer ?? self
        while let up = l._superlayer ?? l._maskOwner {
            // A mask lives in its owner's own space (not the sublayer space): the owner's flag
            // does not apply to it, the owner's ancestors' do.
            if l._superlayer === up, up._state.isGeometryFlipped { flipped.toggle() }
            l = up
        }
        return flipped
    }

    // MARK: Filters and extended range
    //
    // Core Image filters do not exist on Linux: these are stored (custom-key storage, so KVC,
    // presentation copies and `init(layer:)` carry them). `compositingFilter`'s blend-mode
    // names are rendered; the other filters are ignored when rendering.

    /// How the layer is composited onto what is behind it: the **name** of a Core Image blend
    /// mode or compositing operator (Apple also takes a `CIFilter`; iOS code usually sets the
    /// name). Default nil: normal source-over.
    ///
    ///     layer.compositingFilter = "multiplyBlendMode"     // or "CIMultiplyBlendMode"
    ///
    /// The layer and its whole subtree are rendered as one isolated group (offscreen, like
    /// group opacity or a mask; its opacity and mask apply to the group), which is then
    /// combined with the backdrop — everything drawn before it, up to the nearest enclosing
    /// group (an ancestor with a mask, group opacity below 1, or a blend mode of its own) — by
    /// the W3C Compositing and Blending formulas on premultiplied colour:
    /// `co = cs·(1 − αb) + cb·(1 − αs) + αs·αb·B(Cb, Cs)`, `αo = αs + αb − αs·αb`.
    ///
    /// Names (case-insensitive, with or without the `CI` prefix and the `BlendMode` /
    /// `Compositing` suffix): multiply, screen, overlay, darken, lighten, colorDodge, colorBurn,
    /// hardLight, softLight, difference, exclusion, hue, saturation, color, luminosity;
    /// `plusL` / `plusLighter` (added, clamped), `plusD` / `plusDarker`; the Porter–Duff
    /// operators sourceOver, sourceIn, sourceOut, sourceAtop, destinationIn, destinationOut,
    /// destinationOver, destinationAtop, xor, copy, clear. Operators that clear where the
    /// layer draws nothing (copy, clear, sourceIn, sourceOut, destinationIn, destinationAtop)
    /// act on the whole backdrop group. `"destinationOut"` on a sublayer of a `mask` cuts that
    /// sublayer's shape out of the mask.
    ///
    /// Anything else (another name, a non-string value) composites normally and is reported
    /// once per process on standard error. Read when the frame is snapshot; not animatable.
    open var compositingFilter: Any? {
        get { _extras["compositingFilter"] }
        set { setValue(newValue, forKey: "compositingFilter") }
    }

    /// Accepted, no effect (Core Image filters applied to the layer and its sublayers). Default nil.
    open var filters: [Any]? {
        get { _extras["filters"] as? [Any] }
        set { setValue(newValue, forKey: "filters") }
    }

    /// Accepted, no effect (Core Image filters applied to the content behind the layer). Default nil.
    open var backgroundFilters: [Any]? {
        get { _extras["backgroundFilters"] as? [Any] }
        set { setValue(newValue, forKey: "backgroundFilters") }
    }

    /// Accepted, no effect: Flipbook's frames are 8-bit sRGB (no extended dynamic range).
    /// Default false.
    open var wantsExtendedDynamicRangeContent: Bool {
        get { _state.wantsExtendedDynamicRangeContent }
        set { _set(\.wantsExtendedDynamicRangeContent, newValue, key: "wantsExtendedDynamicRangeContent") }
    }

    /// Whether `key`'s value would be archived (Apple's `shouldArchiveValue(forKey:)`): true, the
    /// default. Flipbook does not archive layers; the answer is for code that asks.
    open func shouldArchiveValue(forKey key: String) -> Bool { true }

    // MARK: Accepted without visible effect
    //
    // These change how Core Animation renders on a device (caching, GPU formats, edge
    // filtering) but not the picture Flipbook computes: they are stored, KVC-reachable and
    // copied like every property, and have no effect on pixels (docs/porting.md lists them).

    /// Accepted, no effect: Flipbook composites every frame from the model; a rasterized
    /// layer would look the same at `rasterizationScale == contentsScale`.
    open var shouldRasterize: Bool {
        get { _state.shouldRasterize }
        set { _set(\.shouldRasterize, newValue, key: "shouldRasterize") }
    }

    /// Accepted, no effect (see ``shouldRasterize``). Default 1.
    open var rasterizationScale: CGFloat {
        get { _state.rasterizationScale }
        set { _set(\.rasterizationScale, newValue, key: "rasterizationScale") }
    }

    /// Whether the layer's edges are antialiased (Apple's `allowsEdgeAntialiasing`).
    ///
    /// **Default `true`.** Apple reads the default from the app's Info.plist key
    /// `UIViewEdgeAntialiasing` (false without it). Flipbook renders video and test images, where
    /// a rotated layer with stair-stepped edges is never what is wanted, so it behaves as an app
    /// with that key set: true. To match an iOS app without the key, set it to false.
    ///
    /// **False** draws the layer's rectangular edges aliased — background, contents, border and
    /// the `masksToBounds` clip: a pixel is covered or not, decided by thresholding its exact
    /// coverage at one half (≥ 128 of 255). For a pixel that one straight edge crosses this is
    /// exactly "its centre is inside"; where two edges meet in a pixel it is the area rule.
    /// Paths of a `CAShapeLayer` and sublayers keep their own setting.
    open var allowsEdgeAntialiasing: Bool {
        get { _state.allowsEdgeAntialiasing }
        set { _set(\.allowsEdgeAntialiasing, newValue, key: "allowsEdgeAntialiasing") }
    }

    /// Which edges are antialiased when ``allowsEdgeAntialiasing`` is true (Apple's
    /// `edgeAntialiasingMask`). Default: all four. An empty mask draws every edge aliased;
    /// a partial mask is treated as all four (per-edge aliasing is not implemented).
    open var edgeAntialiasingMask: CAEdgeAntialiasingMask {
        get { _state.edgeAntialiasingMask }
        set { _set(\.edgeAntialiasingMask, newValue, key: "edgeAntialiasingMask") }
    }

    /// Accepted, no effect: the `trilinear` filter picks its mip level without a bias.
    open var minificationFilterBias: Float {
        get { _state.minificationFilterBias }
        set { _set(\.minificationFilterBias, newValue, key: "minificationFilterBias") }
    }

    /// Accepted, no effect: the backing store is always 8-bit RGBA. Default `.RGBA8Uint`.
    open var contentsFormat: CALayerContentsFormat {
        get { _state.contentsFormat }
        set { _set(\.contentsFormat, newValue, key: "contentsFormat") }
    }

    /// The curve of the rounded corners (Apple's `cornerCurve`). Default `.circular` (quarter
    /// circles). `.continuous` draws iOS's smooth corner — the curvature eases in from the
    /// straight edge, which the curve leaves 1.52866483·`cornerRadius` before the corner — for
    /// the background, border, contents clip, `masksToBounds` and the shadow alike. Apple does
    /// not publish the curve: Flipbook uses PaintCode's published reverse engineering of iOS's
    /// rounded rectangle, blended towards a circular corner where the full curve does not fit
    /// (so a continuous capsule stays a capsule); see `_Planner+ContinuousCorner.swift`.
    open var cornerCurve: CALayerCornerCurve {
        get { _state.cornerCurve }
        set { _set(\.cornerCurve, newValue, key: "cornerCurve") }
    }

    /// How far past `cornerRadius` a corner of the given curve reaches along each edge
    /// (Apple's `cornerCurveExpansionFactor(_:)`): 1 for `.circular`, 1.52866483 for
    /// `.continuous` (Apple returns ≈ 1.528665).
    open class func cornerCurveExpansionFactor(_ curve: CALayerCornerCurve) -> CGFloat {
        curve == .continuous ? 1.52866483 : 1
    }

    // MARK: Layout (see `CALayer+Layout.swift`)

    /// Marks the layer as needing layout: `layoutSublayers()` runs at the end of the turn (the
    /// next outermost commit), top-down, before display. Called automatically when `bounds`
    /// change and when sublayers are added or removed. Opens the implicit transaction if none is open.
    open func setNeedsLayout() { _markNeedsLayout() }

    /// Whether the layer is marked as needing layout.
    open func needsLayout() -> Bool { _needsLayoutFlag }

    /// Lays out now: from the highest ancestor (self included) that needs layout, every layer
    /// of its subtree that needs layout, top-down.
    open func layoutIfNeeded() {
        guard _hasLayoutFlag || _layoutParent?._needsLayoutFlag == true else { return }
        _layoutTop(through: { $0._needsLayoutFlag })._layoutFlaggedSubtree()
    }

    /// Lays out the sublayers (override to set their frames). The default calls the delegate's
    /// `layoutSublayers(of:)` (layout managers are macOS-only and not provided).
    open func layoutSublayers() { delegate?.layoutSublayers(of: self) }

    /// The layer's preferred size in its superlayer's coordinates: as on Apple (without a
    /// layout manager, which is macOS-only), the size of `bounds` mapped into the superlayer,
    /// that is `frame.size` (the bounding box of the bounds under `transform`).
    open func preferredFrameSize() -> CGSize { _frame.size }
}
