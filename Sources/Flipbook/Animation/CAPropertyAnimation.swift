import Foundation
/// An animation of one layer property named by a key path (Apple's `CAPropertyAnimation`).
///
/// A nil `keyPath` is filled with the key the animation is added under (`add(_:forKey:)`), so an
/// animation returned from an action search animates the property that triggered it.
open class CAPropertyAnimation: CAAnimation {
    /// The animated key path (`"position"`, `"transform.rotation.z"`, …).
    open var keyPath: String?
    /// When true the animated value is added to the current presentation value.
    open var isAdditive: Bool = false
    /// When true each repeat builds on the end value of the previous one.
    open var isCumulative: Bool = false
    /// Maps the animated scalar or array to a transform (e.g. `.rotateZ`), as on Apple.
    open var valueFunction: CAValueFunction?

    /// An animation of `path`.
    public convenience init(keyPath path: String?) {
        self.init()
        self.keyPath = path
    }

    /// Apple's defaults for `additive` and `cumulative` (false; also under the Swift names
    /// `isAdditive`, `isCumulative`), then `CAAnimation`'s. `keyPath` and `valueFunction`: nil.
    open override class func defaultValue(forKey key: String) -> Any? {
        switch key {
        case "additive", "isAdditive", "cumulative", "isCumulative": return false
        default: return super.defaultValue(forKey: key)
        }
    }

    package override func _copyState(from other: CAAnimation) {
        super._copyState(from: other)
        guard let o = other as? CAPropertyAnimation else { return }
        keyPath = o.keyPath; isAdditive = o.isAdditive; isCumulative = o.isCumulative
        valueFunction = o.valueFunction
    }

    /// The animated value at iteration-local time `t` (0…duration, before the timing function),
    /// for iteration `iteration` (for `isCumulative`), given `base` — the presentation value so
    /// far (the model value, or the result of earlier animations on the same key). Returns the
    /// new presentation value; nil leaves `base` unchanged. Subclasses override.
    package func _evaluate(at t: CFTimeInterval, iteration: Int, base: Any?) -> Any? { base }
}
