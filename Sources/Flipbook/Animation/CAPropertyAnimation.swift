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

    /// An animation of `path`.
    public convenience init(keyPath path: String?) {
        self.init()
        self.keyPath = path
    }

    open override func _copyState(from other: CAAnimation) {
        super._copyState(from: other)
        guard let o = other as? CAPropertyAnimation else { return }
        keyPath = o.keyPath; isAdditive = o.isAdditive; isCumulative = o.isCumulative
    }
}
