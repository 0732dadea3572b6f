import Foundation
/// Where a timed object is, relative to its active interval, in its **local** time.
///
/// With a negative `speed`, local time runs backwards as parent time advances, so `.before`
/// (local time < 0) then comes *after* the active interval in parent time.
package enum _TimingPhase: Sendable, Hashable {
    /// Local time before 0.
    case before
    /// Local time inside the active duration `[0, activeDuration)` (or exactly at 0).
    case active
    /// Local time at or past the end of the active duration.
    case after
}

/// The result of evaluating a timing at one parent time (see `_TimingModel/evaluate(parentTime:)`).
package struct _TimingState: Sendable, Hashable {
    public var phase: _TimingPhase
    /// True when the object shows a value: during `.active`, or filled (`fillMode` backwards/both
    /// in `.before`, forwards/both in `.after`). False is the contract's "removed" phase: the
    /// animation contributes nothing (the model value shows).
    public var hasValue: Bool
    /// Local time `(parentTime − beginTime) × speed + timeOffset`, unclamped.
    public var localTime: CFTimeInterval
    /// The iteration-local time in `[0, duration]`, already mirrored for the backwards half of an
    /// autoreversing iteration; this is what `_evaluate(at:iteration:base:)` takes. Clamped to the
    /// start (`.before`) or the end of the last iteration (`.after`).
    public var iterationTime: CFTimeInterval
    /// Zero-based iteration index (for `isCumulative`); an autoreversing cycle is one iteration.
    public var iteration: Int
    /// True in the backwards half of an autoreversing iteration.
    public var isReversed: Bool
    /// `iterationTime / duration` (0 when `duration` ≤ 0), before any timing function.
    public var fraction: Double

    /// The contract's four phases collapsed: `.removed` when there is no value.
    public var isRemoved: Bool { !hasValue }
}

/// A pure evaluator of `CAMediaTiming` (no references to layers or animations, so the model can
/// call it from anywhere and tests can drive it directly). All formulas: `docs/timing.md`.
///
///     local      t  = (parentTime − beginTime) × speed + timeOffset
///     cycle      c  = autoreverses ? 2·duration : duration
///     active     A  = repeatDuration > 0 ? repeatDuration
///                   : (repeatCount == 0 ? 1 : repeatCount) × c          (∞ when repeatCount = ∞)
///     iteration  i  = floor(t / c),  u = t − i·c
///     time          = u ≤ duration ? u : 2·duration − u                  (the mirrored half)
///
/// At exactly the end of the active duration the state is `.after` with the time of the end of
/// the last iteration (so `repeatCount = 2` ends with iteration 1 at `duration`, not iteration 2
/// at 0). When both `repeatDuration` and `repeatCount` are set (undefined on Apple) we use
/// `repeatDuration`. `duration` ≤ 0 or non-finite: a zero-length active interval (`.after` from
/// local time 0 on, time 0, fraction 1). NaN times evaluate as local time 0.
package struct _TimingModel: Sendable, Hashable {
    public var beginTime: CFTimeInterval
    public var duration: CFTimeInterval
    public var speed: Double
    public var timeOffset: CFTimeInterval
    public var repeatCount: Double
    public var repeatDuration: CFTimeInterval
    public var autoreverses: Bool
    public var fillMode: CAMediaTimingFillMode

    public init(beginTime: CFTimeInterval = 0, duration: CFTimeInterval = 0, speed: Double = 1,
                timeOffset: CFTimeInterval = 0, repeatCount: Double = 0, repeatDuration: CFTimeInterval = 0,
                autoreverses: Bool = false, fillMode: CAMediaTimingFillMode = .removed) {
        self.beginTime = beginTime; self.duration = duration; self.speed = speed
        self.timeOffset = timeOffset; self.repeatCount = repeatCount
        self.repeatDuration = repeatDuration; self.autoreverses = autoreverses; self.fillMode = fillMode
    }

    /// A snapshot of any `CAMediaTiming` object's properties.
    public init(_ t: any CAMediaTiming) {
        self.init(beginTime: t.beginTime, duration: t.duration, speed: Double(t.speed),
                  timeOffset: t.timeOffset, repeatCount: Double(t.repeatCount),
                  repeatDuration: t.repeatDuration, autoreverses: t.autoreverses, fillMode: t.fillMode)
    }

    // MARK: Time conversion (layers and animations alike)

    /// `(parentTime − beginTime) × speed + timeOffset`. Speed 0 freezes time at `timeOffset`.
    @inlinable
    public func localTime(fromParent p: CFTimeInterval) -> CFTimeInterval {
        if speed == 0 { return timeOffset }
        return (p - beginTime) * speed + timeOffset
    }

    /// The inverse: `(local − timeOffset) / speed + beginTime`. With `speed == 0` every parent
    /// time maps to the same local time, so there is no inverse; we return `beginTime`.
    @inlinable
    public func parentTime(fromLocal t: CFTimeInterval) -> CFTimeInterval {
        if speed == 0 { return beginTime }
        return (t - timeOffset) / speed + beginTime
    }

    // MARK: Durations

    /// One iteration: `duration`, doubled when autoreversing.
    public var cycleDuration: CFTimeInterval {
        guard duration > 0, duration.isFinite else { return 0 }
        return autoreverses ? 2 * duration : duration
    }

    /// The active duration (possibly `.infinity`).
    public var activeDuration: CFTimeInterval {
        let c = cycleDuration
        guard c > 0 else { return 0 }
        if repeatDuration > 0 { return repeatDuration }
        if repeatCount.isNaN || repeatCount <= 0 { return c }
        return repeatCount.isInfinite ? .infinity : repeatCount * c
    }

    // MARK: Evaluation

    /// The phase and iteration-local time at `parentTime`.
    public func evaluate(parentTime: CFTimeInterval) -> _TimingState {
        var t = localTime(fromParent: parentTime)
        if t.isNaN { t = 0 }
        let d = (duration > 0 && duration.isFinite) ? duration : 0
        let active = activeDuration
        let fillsBackwards = fillMode == .backwards || fillMode == .both
        let fillsForwards = fillMode == .forwards || fillMode == .both
        if d == 0 {
            if t < 0 { return _TimingState(phase: .before, hasValue: fillsBackwards, localTime: t, iterationTime: 0, iteration: 0, isReversed: false, fraction: 0) }
            return _TimingState(phase: .after, hasValue: fillsForwards, localTime: t, iterationTime: 0, iteration: 0, isReversed: false, fraction: 1)
        }
        if t < 0 {
            return _TimingState(phase: .before, hasValue: fillsBackwards, localTime: t, iterationTime: 0, iteration: 0, isReversed: false, fraction: 0)
        }
        if t >= active {
            var s = position(at: active, end: true)
            s.phase = .after; s.hasValue = fillsForwards; s.localTime = t
            return s
        }
        var s = position(at: t, end: false)
        s.localTime = t
        return s
    }

    /// Iteration index and mirrored time for an active time `a ∈ [0, active]`. With `end`, a time
    /// exactly on an iteration boundary belongs to the iteration that just finished.
    func position(at a: CFTimeInterval, end: Bool) -> _TimingState {
        let d = duration, c = cycleDuration
        var i = (a / c).rounded(.down)
        // ∞/∞ (an infinite cycle — 2 × 1e308 overflows — at an infinite local time) is NaN:
        // count it as the first iteration instead of trapping in `Int(i)` below.
        if i.isNaN { i = 0 }
        if end && i > 0 && a == i * c { i -= 1 }
        var u = a - i * c
        if u < 0 { u = 0 }
        if u > c { u = c }
        var reversed = false
        var time = u
        if autoreverses && u > d { reversed = true; time = 2 * d - u }
        if time > d { time = d }
        let index = i >= Double(Int.max) ? Int.max : Int(i)
        return _TimingState(phase: .active, hasValue: true, localTime: a, iterationTime: time,
                            iteration: index, isReversed: reversed, fraction: time / d)
    }
}
