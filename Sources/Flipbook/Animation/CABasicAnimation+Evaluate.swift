import Foundation
/// Evaluation of `CABasicAnimation` (Apple's documented from/to/by rules).
///
/// | set              | interpolates                                 |
/// |------------------|----------------------------------------------|
/// | from, to         | from → to                                    |
/// | from, by         | from → from + by                             |
/// | by, to           | to − by → to                                 |
/// | from             | from → base                                  |
/// | to               | base → to                                    |
/// | by               | base → base + by                             |
/// | none             | base → base                                  |
///
/// (`from, to, by` all set: `by` is ignored, as Apple documents from+to as taking precedence.)
/// `base` is the presentation value so far. In additive mode a missing endpoint is the additive
/// zero instead of `base` (the result is added to `base` anyway), so `by`-only additive animates
/// base → base + by like the non-additive form. Values of unsupported types switch from the
/// start value to the end value halfway.
///
/// Swift cannot override a class method from an extension, so the model's `CABasicAnimation`
/// body forwards: `package override func _evaluate(at:iteration:base:) -> Any? { _evaluateBasic(…) }`.
extension CABasicAnimation {
    /// The basic animation's value at iteration-local time `t`. `progress` overrides the eased
    /// fraction (``CASpringAnimation`` passes its physics progress; nil = timing function of t).
    package func _evaluateBasic(at t: CFTimeInterval, iteration: Int, base: Any?, progress: Double? = nil) -> Any? {
        let p = progress ?? _progress(at: t)
        let b = _AnimValue(base)
        let from = _AnimValue(fromValue), to = _AnimValue(toValue), by = _AnimValue(byValue)
        guard let (start, end) = _endpoints(from: from, to: to, by: by, base: b) else {
            // Unsupported value types: switch halfway between whatever was given.
            if fromValue == nil && toValue == nil && byValue == nil { return base }
            return p < 0.5 ? (fromValue ?? base) : (toValue ?? base)
        }
        return _compose(_AnimValue.interpolate(start, end, p), end: end, iteration: iteration, base: base)
    }

    /// (start, end) per the table above; nil when nothing can be boxed.
    func _endpoints(from: _AnimValue?, to: _AnimValue?, by: _AnimValue?, base: _AnimValue?) -> (_AnimValue, _AnimValue)? {
        switch (from, to, by) {
        case let (f?, t?, _): return (f, t)
        case let (f?, nil, y?): return (f, f.adding(y) ?? f)
        case let (nil, t?, y?): return (t.subtracting(y) ?? t, t)
        case let (f?, nil, nil): return (f, _implicit(base: base, like: f))
        case let (nil, t?, nil): return (_implicit(base: base, like: t), t)
        case let (nil, nil, y?):
            let s = _implicit(base: base, like: y)
            return (s, s.adding(y) ?? s)
        case (nil, nil, nil):
            guard let base else { return nil }
            let s = isAdditive ? Self._zero(like: base) : base
            return (s, s)
        }
    }
}
