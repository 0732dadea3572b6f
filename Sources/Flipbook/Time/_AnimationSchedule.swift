import Foundation
/// When a stored animation's callbacks are due, in media time, from the full timing model.
///
/// The one place the model decides when `animationDidStart` and `animationDidStop(finished:
/// true)` are due. With the animation's timing `m` (`_TimingModel`) its active interval is
/// local time `[0, A]` (`A` = `_TimingModel/activeDuration`: repeatCount, repeatDuration,
/// autoreverses). In the layer's time that is between
///
///     p₀ = m.parentTime(fromLocal: 0)     and     p_A = m.parentTime(fromLocal: A)
///
/// (`(local − timeOffset) / speed + beginTime`; a negative speed swaps them). Both are mapped to
/// media time through the layer's timing chain (its own and its ancestors' `beginTime`, `speed`,
/// `timeOffset`). Then
///
///     start = max(earlier of the two, commit time)
///     stop  = max(later of the two,   commit time)        (nil when infinite: never stops)
///
/// An animation whose speed is 0, or on a layer whose time is frozen (a `speed` 0 in the chain),
/// never stops; it starts at the commit when its (frozen) local time is inside the active
/// interval. Choice: the times are computed at the commit from the layer timing in effect then;
/// changing an ancestor's timing later does not move callbacks already scheduled.
enum _AnimationSchedule {
    /// Media times of the start and stop callbacks of a stored copy committed at `commit`
    /// (its `beginTime` already resolved). Nil = never.
    static func callbackTimes(of a: CAAnimation, commit: CFTimeInterval) -> (start: CFTimeInterval?, stop: CFTimeInterval?) {
        let m = _TimingModel(a)
        let chain = a._layer?._timingChain ?? []
        let frozen = m.speed == 0 || chain.contains { $0.speed == 0 }
        let active = m.activeDuration
        if frozen {
            let layerTime = _TimingModel._localTime(fromMediaTime: commit, chain: chain)
            let phase = m.evaluate(parentTime: layerTime).phase
            return (phase == .active ? commit : nil, nil)
        }
        let p0 = m.parentTime(fromLocal: 0), pA = m.parentTime(fromLocal: active)
        var m0 = _TimingModel._mediaTime(fromLocalTime: p0, chain: chain)
        var mA = active.isInfinite
            ? (m.speed * _TimingModel._effectiveSpeed(chain: chain) > 0 ? .infinity : -.infinity)
            : _TimingModel._mediaTime(fromLocalTime: pA, chain: chain)
        if m0.isNaN { m0 = commit }
        if mA.isNaN { mA = commit }
        let lo = min(m0, mA), hi = max(m0, mA)
        return (max(lo, commit), hi.isFinite ? max(hi, commit) : nil)
    }

    /// The media time at which the active duration of a committed stored copy ends (∞: never).
    static func endTime(of a: CAAnimation) -> CFTimeInterval {
        callbackTimes(of: a, commit: -.infinity).stop ?? .infinity
    }
}
