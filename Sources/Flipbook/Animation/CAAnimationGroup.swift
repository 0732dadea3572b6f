import Foundation
/// One child of a group at a group-local time: the child and its evaluated timing (phase,
/// iteration-local time, iteration), ready for `child._evaluate(at: state.iterationTime, …)`.
package struct _GroupChildSample {
    public let animation: CAAnimation
    public let state: _TimingState
}

/// Animations that run together in the group's time space (Apple's `CAAnimationGroup`).
///
/// The group's own timing (beginTime, speed, repeat, autoreverse, fill) maps the layer's time to
/// the group's iteration-local time `t ∈ [0, duration]`; each child then maps `t` through its
/// own timing, with `t` as its parent time (a child's `beginTime` is relative to the group's
/// start and is not resolved to the commit time). Because `t` never exceeds the group's
/// duration, a child longer than the group is clipped: it shows what it has at the group's end
/// (if the group fills forwards) and nothing of its later part.
///
/// **The group is a timing parent.** Its `timingFunction` maps the group's iteration-local time
/// before the children see it, as every `CAMediaTiming` parent does on Apple:
///
///     t' = duration · timingFunction(t / duration)        (linear when nil or duration ≤ 0)
///
/// and each child evaluates its own timing (and its own timing function) at `t'`. So an
/// `.easeIn` group of linear children eases them all (SkeletonView's sliding shimmer), and
/// groups with different timing functions over identical children move them differently
/// (ProgressHUD's "circle rotate chase": five groups of the same rotation, each eased by its own
/// curve). An overshooting curve can take `t'` below 0 or past `duration`; it is clipped there
/// like any other group time.
///
/// Chosen where Apple is silent: a child whose `duration` ≤ 0 takes the group's duration.
open class CAAnimationGroup: CAAnimation {
    /// The child animations, evaluated in order.
    open var animations: [CAAnimation]?

    public required init() { super.init() }
    /// Archives are not supported: always nil (see `CAAnimation.init(coder:)`).
    public required init?(coder: NSCoder) { super.init(coder: coder) }

    package override func _copyState(from other: CAAnimation) {
        super._copyState(from: other)
        guard let o = other as? CAAnimationGroup else { return }
        animations = o.animations?.map { $0.copy() as! CAAnimation }
    }

    /// The timing of `child` inside this group (duration ≤ 0 → the group's duration).
    package func _childTiming(_ child: CAAnimation) -> _TimingModel {
        var m = _TimingModel(child)
        if !(m.duration > 0) { m.duration = duration > 0 ? duration : 0.25 }
        return m
    }

    /// The group's time as its children see it: the iteration-local time `t` through the group's
    /// `timingFunction` (`duration · f(t / duration)`; `t` itself without one or without a
    /// positive finite duration).
    package func _easedGroupTime(_ t: CFTimeInterval) -> CFTimeInterval {
        guard let f = timingFunction, duration > 0, duration.isFinite, t.isFinite else { return t }
        return duration * f._solve(t / duration)
    }

    /// The children with a value at group-local time `t` (the group's iteration-local time,
    /// before the group's timing function, which this applies), in order; children in their
    /// "removed" phase are left out.
    package func _children(atGroupTime t: CFTimeInterval) -> [_GroupChildSample] {
        let groupEnd = duration > 0 ? duration : .infinity
        let eased = _easedGroupTime(t.isNaN ? 0 : t)
        let clipped = min(max(eased.isNaN ? 0 : eased, 0), groupEnd)
        return (animations ?? []).compactMap { child in
            let s = _childTiming(child).evaluate(parentTime: clipped)
            return s.hasValue ? _GroupChildSample(animation: child, state: s) : nil
        }
    }

    /// Writes the group's duration into children (of stored copies) whose duration is ≤ 0, so
    /// that each child's own evaluation (`_progress`) uses the same duration as its timing
    /// (`_childTiming(_:)`). Recurses into nested groups.
    func _resolveChildDurations() {
        for c in animations ?? [] {
            if !(c.duration > 0) || !c.duration.isFinite { c.duration = duration > 0 ? duration : 0.25 }
            (c as? CAAnimationGroup)?._resolveChildDurations()
        }
    }
}
