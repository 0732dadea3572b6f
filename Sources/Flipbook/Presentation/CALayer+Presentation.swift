import Foundation
import FlipbookGraphics
/// The presentation layer: what Core Animation shows at the current media time.
///
/// `presentation()` copies the model (`_makePresentationCopy(of:)`: `init(layer:)` of the nearest
/// Flipbook class — see `CALayer.init(layer:)`, "Presentation copies")
/// and applies every committed animation stored on the layer, in the order added:
///
/// 1. the layer's local time `T` at the run loop's current time (`_localTime(atMediaTime:)`:
///    the layer's and its ancestors' `beginTime`/`speed`/`timeOffset`);
/// 2. for each stored copy that is committed (scheduled, or finished and kept because
///    `isRemovedOnCompletion` is false): `state = _TimingModel(anim).evaluate(parentTime: T)`;
///    `hasValue == false` (before/after without the matching `fillMode`) → not applied;
/// 3. a property animation reads the current presentation value at its key path (the model
///    value, or what earlier animations on that key made of it), evaluates
///    `_evaluate(at: state.iterationTime, iteration: state.iteration, base:)` (additive ones
///    add to `base` there) and writes the result back through the key-path machinery
///    (`position.x`, `bounds.size`, `transform.rotation.z`, … are read-modify-write of the
///    top-level value); a keyframe animation with a `rotationMode` then sets
///    `transform.rotation.z` to the path's tangent angle;
/// 4. a group applies its children (``CAAnimationGroup/_children(atGroupTime:)``) at the
///    group's iteration time, each child as in 3;
/// 5. a `contents` animation yields a ``ContentsCrossfade``: the copy keeps it in
///    `_contentsCrossfade` and its `contents` is the image that dominates (`from` below
///    fraction ½, `to` from ½ on). Transitions do not change values (the render snapshot
///    carries them).
///
/// Chosen: uncommitted changes are visible in the model values the copy starts from (Flipbook
/// has no separate render-server copy of the model), but animations added in the open
/// transaction are not applied until it commits. The copy has no tree (no superlayer,
/// sublayers or mask) and setting values on it runs no actions.
extension CALayer {
    /// A copy of the layer with every running animation applied at the current media time of
    /// its run loop; nil for a layer never committed (no outermost commit since it was
    /// created). On a presentation copy (or a model standing in for one while it draws),
    /// returns itself. For a layer of your own subclass it is nil unless the class conforms to
    /// ``FlipbookPresentationCopying``: the copy is an instance of the nearest Flipbook class
    /// (see `CALayer.init(layer:)`, "Presentation copies").
    final func _presentation() -> Self? {
        if _modelLayer != nil || _isStandingInForPresentation { return self }
        guard _runLoop._commitCount > _createdAtCommit else { return nil }
        return _presentationCopy(layerTime: _currentLocalTime) as? Self
    }

    /// The model layer: self, or for a presentation copy the layer it was made from.
    final func _model() -> Self { (_modelLayer as? Self) ?? self }

    /// A presentation copy with the animations applied at the layer's local time `layerTime`;
    /// of the `committed` state instead of the model when one is given.
    final func _presentationCopy(layerTime: CFTimeInterval, committed: _CommittedLayer? = nil) -> CALayer {
        let p: CALayer
        if let own = type(of: self) as? any FlipbookPresentationCopying.Type {
            p = own.init(layer: self)                                // Apple's way: the class's init(layer:)
        } else {
            p = type(of: self)._makePresentationCopy(of: self)      // the nearest Flipbook class
        }
        p._modelLayer = self
        if let c = committed { p._state = c.state; p._extras = c.extras }
        for (_, a) in committed?.animations ?? _animations where a._applies(committed: committed != nil) {
            let s = _TimingModel(a).evaluate(parentTime: layerTime)
            guard s.hasValue else { continue }
            p._applyAnimation(a, state: s)
        }
        return p
    }

    /// Applies one animation (already known to have a value) to this presentation copy.
    final func _applyAnimation(_ a: CAAnimation, state s: _TimingState) {
        switch a {
        case let g as CAAnimationGroup:
            for c in g._children(atGroupTime: s.iterationTime) { _applyAnimation(c.animation, state: c.state) }
        case let pa as CAPropertyAnimation:
            guard let kp = pa.keyPath, !kp.isEmpty else { return }
            let base = _presentationBase(forKeyPath: kp)
            if let v = pa._evaluate(at: s.iterationTime, iteration: s.iteration, base: base) {
                _storePresented(v, forKeyPath: kp)
                if !_presentationNeedsDisplay, _modelClass != CALayer.self, _animatedKeyNeedsDisplay(kp) {
                    _presentationNeedsDisplay = true   // a custom key that needs display: the snapshot redraws the copy
                }
            }
            if let k = pa as? CAKeyframeAnimation, let angle = k._rotationAngle(at: s.iterationTime) {
                try? _trySetValue(CGFloat(angle), forKeyPath: "transform.rotation.z")
            }
        default:
            break
        }
    }

    /// The current presentation value at `keyPath` (nil when the path does not resolve).
    final func _presentationBase(forKeyPath kp: String) -> Any? {
        if kp == "contents" { return _state.contents }
        return try? _tryValue(forKeyPath: kp)
    }

    /// Writes an evaluated value back. A value the key cannot take (an animation of the wrong
    /// type, which Core Animation ignores) is not written; the reason is said once per process
    /// on standard error, never silently.
    final func _storePresented(_ v: Any, forKeyPath kp: String) {
        if kp == "contents" {
            if let x = v as? ContentsCrossfade {
                _contentsCrossfade = x
                _state.contents = x.clampedFraction < 0.5 ? x.from : x.to
            } else {
                _contentsCrossfade = nil
                _state.contents = _AnimValue._unwrap(v) as? CGImage
            }
            return
        }
        do { try _trySetValue(_AnimValue._unwrap(v), forKeyPath: kp) } catch {
            // A key path that names nothing was said when the animation was added.
            if case LayerKVCError.unknownKeyPathComponent? = error as? LayerKVCError { return }
            _AnimationDiagnostics.sayOnce("an animation of '\(kp)' on a \(type(of: _model())) produced a value it cannot take (\(CALayer._why(error))); that value is ignored")
        }
    }
}
