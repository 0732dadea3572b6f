import Foundation
/// A single-keyframe animation of a property (Apple's `CABasicAnimation`).
///
/// Which values are used (Apple's rules, evaluated by the animation math):
/// from+to, from+by (to = from + by), by+to (from = to − by), from only (to = the current
/// presentation value), to only (from = the current presentation value), by only (relative to
/// the current value), none (previous presentation value to the current one).
///
/// The implicit action for an animatable property is one of these with `fromValue` = the old
/// model value and `toValue` = the new one.
open class CABasicAnimation: CAPropertyAnimation {
    open var fromValue: Any?
    open var toValue: Any?
    open var byValue: Any?

    package override func _copyState(from other: CAAnimation) {
        super._copyState(from: other)
        guard let o = other as? CABasicAnimation else { return }
        fromValue = o.fromValue; toValue = o.toValue; byValue = o.byValue
    }

    /// See `CABasicAnimation+Evaluate.swift` for the from/to/by rules.
    package override func _evaluate(at t: CFTimeInterval, iteration: Int, base: Any?) -> Any? {
        _evaluateBasic(at: t, iteration: iteration, base: base)
    }
}
