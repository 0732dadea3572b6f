import Foundation
/// Shared steps of every property animation's evaluation (basic, keyframe, spring):
///
///     progress  p = timingFunction(t / duration)             (duration ≤ 0 → Apple's 0.25 s)
///     value     v = interpolate(start, end, p)
///     cumulative  v += iteration × endValue                   (isCumulative, iteration ≥ 1)
///     function    v = valueFunction(v)                       (scalar / 3-vector → CATransform3D)
///     additive    v = base + v                               (transforms: v · base)
///
/// and the result is handed back in the Swift type of `base` (`_AnimValue/toAny(like:)`).
extension CAPropertyAnimation {
    /// The duration evaluation uses: `duration`, or Apple's default 0.25 s when it is ≤ 0 or
    /// not finite (the model normally resolves 0 to the transaction's duration at `add`).
    package var _effectiveDuration: CFTimeInterval {
        (duration > 0 && duration.isFinite) ? duration : 0.25
    }

    /// `timingFunction(t / duration)`, linear without a timing function. NaN → 0.
    package func _progress(at t: CFTimeInterval) -> Double {
        let x = t / _effectiveDuration
        guard !x.isNaN else { return 0 }
        return timingFunction?._solve(x) ?? x
    }

    /// Applies isCumulative, valueFunction and isAdditive to an interpolated value `v` whose
    /// iteration end value is `end`, and converts it to the Swift type of `base`.
    package func _compose(_ v0: _AnimValue, end: _AnimValue?, iteration: Int, base: Any?) -> Any? {
        var v = v0
        if isCumulative, iteration > 0, let end, let step = end.scaled(by: Double(iteration)), let sum = v.adding(step) {
            v = sum
        }
        if let vf = valueFunction, let m = vf._transform(for: v) { v = .transform(m) }
        if isAdditive, let b = _AnimValue(base), let sum = b.adding(v) { v = sum }
        return v.toAny(like: base)
    }

    /// The additive identity shaped like `v` (0, .zero, clear, identity, zeros, nil image).
    package static func _zero(like v: _AnimValue) -> _AnimValue {
        switch v {
        case let .scalar(_, k): return .scalar(0, k)
        case .point: return .point(.zero)
        case .size: return .size(.zero)
        case .rect: return .rect(.zero)
        case let .color(c): return .color(_AnimValue._color([0, 0, 0, 0], gray: c.model == .gray))
        case .transform: return .transform(CATransform3DIdentity)
        case let .numbers(xs, k): return .numbers(Array(repeating: 0, count: xs.count), k)
        case .image, .crossfade: return .image(nil)
        case let .path(p): return .path(p._withPoints(p._points.map { _ in .zero }))
        case let .colors(cs): return .colors(cs.map { _AnimValue._color([0, 0, 0, 0], gray: $0.model == .gray) })
        }
    }

    /// The implicit endpoint when `fromValue`/`toValue` is missing: the base (presentation
    /// value) — or the additive zero in additive mode, or when the base has another shape than
    /// the animation's values (e.g. a scalar rotation with a valueFunction over a transform base).
    func _implicit(base: _AnimValue?, like v: _AnimValue) -> _AnimValue {
        if isAdditive { return Self._zero(like: v) }
        guard let base else { return Self._zero(like: v) }
        switch (base, v) {
        // Arrays of another length (gradient `colors`/`locations` gaining a stop): the base
        // itself, so the animation switches from it to the new array at ½ (Flipbook's rule for
        // values that cannot interpolate) rather than from a made-up zero array.
        case (.numbers, .numbers), (.colors, .colors): return base
        default: break
        }
        guard _AnimValue._sameShape(base, v) else { return Self._zero(like: v) }
        return base
    }
}

extension _AnimValue {
    static func _sameShape(_ a: _AnimValue, _ b: _AnimValue) -> Bool {
        switch (a, b) {
        case (.scalar, .scalar), (.point, .point), (.size, .size), (.rect, .rect), (.color, .color),
             (.transform, .transform), (.image, .image), (.crossfade, .image), (.image, .crossfade): return true
        case let (.numbers(x, _), .numbers(y, _)): return x.count == y.count
        case let (.path(x), .path(y)): return x._hasSameStructure(as: y)
        case let (.colors(x), .colors(y)): return x.count == y.count
        default: return false
        }
    }
}
