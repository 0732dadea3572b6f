import Foundation
/// The action search (Apple's "Changing a Layer's Default Behavior").
extension CALayer {
    /// The keys whose change animates implicitly on a live layer: a `CABasicAnimation` from the
    /// old to the new value, with the transaction's duration and timing function.
    /// (`hidden`, `masksToBounds`, `doubleSided` and the non-geometric keys do not animate.)
    package static let _implicitlyAnimatableKeys: Set<String> = [
        "bounds", "position", "zPosition", "anchorPoint", "anchorPointZ", "transform",
        "sublayerTransform", "opacity", "backgroundColor", "cornerRadius", "borderWidth",
        "borderColor", "contents", "contentsRect", "contentsCenter", "shadowColor",
        "shadowOpacity", "shadowOffset", "shadowRadius", "shadowPath",
    ]

    /// The search behind ``CALayer/action(forKey:)``: finds the action for `event`, in this order; a non-nil answer ends the search, and
    /// `NSNull` ends it with no action (nil is returned):
    ///
    /// 1. the delegate's `action(for:forKey:)`;
    /// 2. the `actions` dictionary;
    /// 3. `style["actions"]`, then the nested `style["style"]` dictionaries, recursively;
    /// 4. `type(of: self).defaultAction(forKey:)`;
    /// 5. the implicit action: for an animatable key of a live layer, a `CABasicAnimation`
    ///    whose `fromValue` is the current (old) value.
    ///
    /// Overriding it works as on Apple (return nil to suppress, else call `super`).
    /// The transaction's `disableActions` does not change the answer; it stops actions from
    /// being searched and run when properties change.
    package final func _searchAction(forKey event: String) -> CAAction? {
        if let d = delegate, let a = d.action(for: self, forKey: event) { return a is NSNull ? nil : a }
        if let a = actions?[event] { return a is NSNull ? nil : a }
        if let s = style, let a = CALayer._styleAction(in: s, forKey: event) { return a is NSNull ? nil : a }
        if let a = type(of: self).defaultAction(forKey: event) { return a is NSNull ? nil : a }
        return _implicitAction(forKey: event)
    }

    /// `style["actions"][key]`, else the same search in `style["style"]`, recursively.
    static func _styleAction(in style: [AnyHashable: Any], forKey key: String) -> CAAction? {
        var current: [AnyHashable: Any]? = style
        while let s = current {
            if let actions = s["actions"] {
                if let typed = actions as? [String: CAAction], let a = typed[key] { return a }
                if let loose = actions as? [AnyHashable: Any], let a = loose[key] as? CAAction { return a }
            }
            current = s["style"] as? [AnyHashable: Any]
        }
        return nil
    }

    /// Step 5: the implicit animation, only for animatable keys of live layers.
    ///
    /// `fromValue` is the value on screen: the model value, or — when a committed animation
    /// on the key (or one of its components, `position.x`) is in flight — the presentation
    /// value, so a change made mid-animation continues from where the layer is instead of
    /// jumping back to the old model value (Apple's implicit actions behave this way).
    final func _implicitAction(forKey key: String) -> CAAction? {
        guard CALayer._implicitlyAnimatableKeys.contains(key) || _subclassAnimatesImplicitly(key), isLive else { return nil }
        let anim = CABasicAnimation(keyPath: key)
        anim.fromValue = _isAnimatingOnScreen(key) ? _presentationCopy(layerTime: _currentLocalTime).value(forKey: key) : value(forKey: key)
        anim._isImplicit = true
        return anim
    }

    /// Whether a committed stored property animation on `key` (or a key path below it) exists.
    final func _isAnimatingOnScreen(_ key: String) -> Bool {
        _animations.contains { entry in
            guard entry.animation._phase == .scheduled || entry.animation._phase == .finished else { return false }
            return entry.animation._animatesKey(key)
        }
    }
}

extension CAAnimation {
    /// Whether this animation (or, for a group, one of its children) animates `key` or a key
    /// path below it (`position` for `position.x`).
    final func _animatesKey(_ key: String) -> Bool {
        switch self {
        case let g as CAAnimationGroup:
            return (g.animations ?? []).contains { $0._animatesKey(key) }
        case let p as CAPropertyAnimation:
            guard let kp = p.keyPath else { return false }
            return kp == key || kp.hasPrefix(key + ".")
        default:
            return false
        }
    }
}
