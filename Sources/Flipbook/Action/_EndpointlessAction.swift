import Foundation

/// A `CABasicAnimation` (or `CASpringAnimation`) found by the action search for a property
/// change, with `fromValue`, `toValue` and `byValue` all nil.
///
/// Apple: with all three nil, a basic animation "interpolates between the previous value of
/// keyPath in the target layer's presentation layer and the current value of keyPath in the
/// render layer". Run as the action of a change, that is from the value on screen before the
/// change to the new model value — the seed's `ba.duration = 5; layer.actions = ["position":
/// ba]` moves the layer over 5 s. (Added with `add(_:forKey:)` outside a change, previous and
/// current are the same value: nothing moves, as on Apple.)
///
/// The user's object is never changed: the layer runs a **copy** whose `fromValue` is the value
/// on screen before the change — the presentation value when a committed animation of the key
/// is in flight, else the old model value (the rule of the implicit action) — and whose
/// `toValue` is the model value after it. Keyframe animations carry their own values and are
/// run as they are.
struct _EndpointlessAction {
    let animation: CABasicAnimation
    let keyPath: String
    let from: Any?

    /// Nil unless `action` is such an animation; reads the on-screen value of its key path
    /// (`keyPath`, or the event `key` when it has none) — call before the change is applied.
    init?(action: CAAction, key: String, layer: CALayer) {
        guard let basic = action as? CABasicAnimation, !basic._isImplicit,
              basic.fromValue == nil, basic.toValue == nil, basic.byValue == nil else { return nil }
        let kp = (basic.keyPath?.isEmpty == false ? basic.keyPath : nil) ?? key
        guard let top = kp.split(separator: ".", maxSplits: 1).first.map(String.init) else { return nil }
        animation = basic
        keyPath = kp
        from = layer._isAnimatingOnScreen(top)
            ? layer._presentationCopy(layerTime: layer._currentLocalTime).value(forKeyPath: kp)
            : layer.value(forKeyPath: kp)
    }

    /// The copy to run, with `fromValue` = the value before the change and `toValue` = the model
    /// value now (after the change).
    func resolved(layer: CALayer) -> CABasicAnimation {
        let c = animation.copy() as! CABasicAnimation
        c.fromValue = from
        c.toValue = layer.value(forKeyPath: keyPath)
        return c
    }
}
