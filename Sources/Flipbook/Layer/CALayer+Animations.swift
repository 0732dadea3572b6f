import Foundation
import FlipbookGraphics
import FlipbookPixels
/// Adding, finding and removing animations.
extension CALayer {
    /// Adds a copy of `anim` under `key` (replacing — and stopping, `finished: false` — any
    /// animation already under that key; a nil key gets a unique one).
    ///
    /// The stored copy is resolved against the transaction in effect (the innermost one of this
    /// layer's run loop, opening the implicit one if needed):
    /// - a property animation with a nil `keyPath` takes `key`;
    /// - `duration` ≤ 0 (or not finite) becomes the transaction's `animationDuration()`;
    /// - a nil `timingFunction` becomes the transaction's timing function;
    /// - `beginTime` 0 becomes the commit time of the outermost transaction (written into the copy);
    /// - a `CATransition` records the layer's rendering before the change (`_fromSnapshot`):
    ///   the snapshot the action search took, else the layer's committed state (as of the last
    ///   outermost commit, without this transaction's changes) at the current time.
    /// Explicit settings of the animation are never overridden.
    final func _add(_ anim: CAAnimation, forKey key: String?) {
        let copy = anim.copy(with: nil) as! CAAnimation
        let loop = _runLoop
        loop._ensureTransaction()
        let key = key ?? { loop._anonymousKeyCounter += 1; return "_flipbook.anonymous.\(loop._anonymousKeyCounter)" }()
        if let p = copy as? CAPropertyAnimation, p.keyPath == nil { p.keyPath = key }
        if !(copy.duration > 0) || !copy.duration.isFinite { copy.duration = loop._animationDuration }
        if copy.timingFunction == nil { copy.timingFunction = loop._animationTimingFunction }
        if let g = copy as? CAAnimationGroup { g._resolveChildDurations() }
        if let t = copy as? CATransition { t._fromSnapshot = _transitionFrom ?? _makeCommittedRenderTree() }
        _checkAnimatedKeyPaths(copy)
        _saveCommittedState()
        if let i = _animations.firstIndex(where: { $0.key == key }) {
            let old = _animations.remove(at: i).animation
            (self as? CAEmitterLayer)?._recordAnimationRemoved(old)
            loop._animationRemovedEarly(old)
        }
        copy._layer = self
        copy._key = key
        _animations.append((key, copy))
        loop._registerPending(copy)
    }

    /// The stored copy under `key` (treat it as read-only, as on Apple).
    final func _animation(forKey key: String) -> CAAnimation? {
        _animations.first { $0.key == key }?.animation
    }

    /// The keys of the stored animations in the order added; nil when there are none.
    final func _animationKeys() -> [String]? {
        _animations.isEmpty ? nil : _animations.map(\.key)
    }

    /// Removes the animation under `key`; if it had not finished its delegate gets
    /// `animationDidStop(_:finished: false)` at the end of the turn.
    final func _removeAnimation(forKey key: String) {
        guard let i = _animations.firstIndex(where: { $0.key == key }) else { return }
        _saveCommittedState()
        let anim = _animations.remove(at: i).animation
        (self as? CAEmitterLayer)?._recordAnimationRemoved(anim)
        _runLoop._animationRemovedEarly(anim)
    }

    /// Removes every animation (see ``removeAnimation(forKey:)``).
    final func _removeAllAnimations() {
        let all = _animations
        if !all.isEmpty { _saveCommittedState() }
        _animations = []
        for (_, a) in all {
            (self as? CAEmitterLayer)?._recordAnimationRemoved(a)
            _runLoop._animationRemovedEarly(a)
        }
    }

    /// Drops a stored copy whose active duration ended (no callback here). Not a change of the
    /// model (the render server drops it too): it leaves the committed state as well.
    final func _dropStoredAnimation(_ anim: CAAnimation) {
        (self as? CAEmitterLayer)?._recordAnimationRemoved(anim)
        _animations.removeAll { $0.animation === anim }
        _committed?.animations.removeAll { $0.animation === anim }
    }

    /// The stored copies, in the order added (for the presentation and the render snapshot).
    package var _storedAnimations: [(key: String, animation: CAAnimation)] { _animations }

    /// Says once per process on standard error, for each key path of `anim` (children of groups
    /// included) that Core Animation would not animate on this layer — a component that names
    /// nothing, such as `transform.scale.q` or `position.z` — that the animation is ignored.
    /// Custom top-level keys are never reported: any key can be animated (KVC storage).
    final func _checkAnimatedKeyPaths(_ anim: CAAnimation) {
        if let g = anim as? CAAnimationGroup {
            for c in g.animations ?? [] { _checkAnimatedKeyPaths(c) }
            return
        }
        guard let pa = anim as? CAPropertyAnimation, let kp = pa.keyPath else { return }
        if kp.isEmpty {
            _AnimationDiagnostics.sayOnce("\(type(of: anim)) has an empty key path; it animates nothing")
            return
        }
        do { _ = try _tryValue(forKeyPath: kp) } catch {
            _AnimationDiagnostics.sayOnce("\(type(of: anim)) on key path '\(kp)' of a \(type(of: self)): \(Self._why(error)); the animation is ignored")
        }
    }

    static func _why(_ error: Error) -> String {
        if case let LayerKVCError.unknownKeyPathComponent(_, component)? = error as? LayerKVCError {
            return "'\(component)' is not a component Core Animation knows there"
        }
        return "\(error)"
    }
}

/// One line on standard error per distinct message per process (an animation is evaluated at
/// every frame; its problem is said once).
package enum _AnimationDiagnostics {
    package static let said = _SaidOnce()
    static func sayOnce(_ message: String) {
        if said.first(message) { StandardStreams.error("Flipbook: \(message)\n") }
    }
}
