import Foundation
/// The few places where `CALayer`'s machinery asks about the built-in subclasses' own keys
/// (today `CAShapeLayer`). Kept in one file so the hooks in the shared code stay one line each:
///
/// - KVC (`CALayer+KVC.swift`): a subclass key is read and written through its typed entry
///   (coercion, nil handling) instead of being stored as an untyped custom key;
/// - the action search (`CALayer+ActionSearch.swift`): which subclass keys animate implicitly;
/// - the render snapshot (`CALayer+RenderTree.swift`): the shape to draw, from the custom-key
///   storage of the (presentation or committed) values being snapshotted.
extension CALayer {
    /// Sets one field of a built-in subclass's typed state (kept in the custom-key storage and
    /// reached through the computed property `state`) through the layer's one change path:
    /// the action search, the transaction, the committed state, the implicit animation.
    /// `same` decides "no change" (Equatable's `==` unless given).
    final func _setSubclassField<L: CALayer, S, T>(_ state: ReferenceWritableKeyPath<L, S>, _ field: WritableKeyPath<S, T>,
                                                 _ new: T, key: String, same: (T, T) -> Bool) {
        guard let me = self as? L else { return }
        let old = me[keyPath: state][keyPath: field]
        if same(old, new) { return }
        let path = state.appending(path: field)
        _change(key, old: _flattenOptional(old), new: _flattenOptional(new)) { l in (l as? L)?[keyPath: path] = new }
    }

    final func _setSubclassField<L: CALayer, S, T: Equatable>(_ state: ReferenceWritableKeyPath<L, S>, _ field: WritableKeyPath<S, T>,
                                                            _ new: T, key: String) {
        _setSubclassField(state, field, new, key: key, same: ==)
    }

    /// The KVC entry of a key that belongs to this layer's built-in subclass, or nil.
    @inline(__always)
    final func _subclassKeyEntry(_ key: String) -> _LayerKeyEntry? {
        if self is CAShapeLayer { return CAShapeLayer._keyEntries[key]?.entry }
        if self is CAGradientLayer { return CAGradientLayer._keyEntries[key]?.entry }
        if self is CAReplicatorLayer { return CAReplicatorLayer._keyEntries[key]?.entry }
        if self is CAEmitterLayer { return CAEmitterLayer._keyEntries[key] }
        return nil
    }

    /// Whether `key` is a built-in subclass key that animates implicitly.
    @inline(__always)
    final func _subclassAnimatesImplicitly(_ key: String) -> Bool {
        (self is CAShapeLayer && CAShapeLayer._shapeImplicitlyAnimatableKeys.contains(key))
            || (self is CAGradientLayer && CAGradientLayer._gradientImplicitlyAnimatableKeys.contains(key))
            || (self is CAReplicatorLayer && CAReplicatorLayer._replicatorImplicitlyAnimatableKeys.contains(key))
            || (self is CAEmitterLayer && CAEmitterLayer._emitterImplicitlyAnimatableKeys.contains(key))
            || (self is CATextLayer && CATextLayer._textImplicitlyAnimatableKeys.contains(key))
    }

    /// The shape a shape layer draws, from custom-key storage `extras` (the model's, a
    /// presentation copy's or the committed state's); nil for other layers.
    @inline(__always)
    final func _renderShape(extras: [String: Any]) -> RenderShape? {
        guard let shapeLayer = self as? CAShapeLayer else { return nil }
        return RenderShape(shapeLayer._shapeState(in: extras))
    }

    /// The gradient a gradient layer draws, from custom-key storage `extras`; nil for other layers.
    @inline(__always)
    final func _renderGradient(extras: [String: Any]) -> RenderGradient? {
        guard let g = self as? CAGradientLayer else { return nil }
        return RenderGradient(g._gradientState(in: extras))
    }
}

extension CALayer {
    /// `base` with the defaults `cls.defaultValue(forKey:)` gives for a Flipbook layer class's own
    /// keys written in, each through its setter (a key `cls` gives no default, or one that does
    /// not coerce, keeps `base`'s value): the state a subclass that overrides
    /// `defaultValue(forKey:)` starts from. Shared by the shape, gradient, replicator and
    /// emitter layers.
    static func _state<S>(_ base: S, withDefaultsOf cls: CALayer.Type,
                          setters: some Sequence<(key: String, set: (inout S, Any?) throws -> Void)>) -> S {
        var s = base
        for (key, set) in setters {
            guard let v = cls.defaultValue(forKey: key) else { continue }
            try? set(&s, v)
        }
        return s
    }
}
