/// When a stored animation's active duration ends, in its layer's (= the run loop's) time.
///
/// The one place the model decides when `animationDidStop(finished: true)` is due, so the
/// integration with the full timing model (`_TimingModel`) swaps only this.
///
///     iterations = repeatCount == 0 ? 1 : repeatCount          (∞ allowed)
///     local      = repeatDuration > 0 ? repeatDuration
///                                     : duration × iterations × (autoreverses ? 2 : 1)
///     end        = beginTime + local / |speed|                  (speed 0: never ends)
///
/// `timeOffset` shifts where in its timeline the animation starts but not how long it runs.
enum _AnimationSchedule {
    static func activeDuration(of a: CAAnimation) -> CFTimeInterval {
        let iterations = a.repeatCount == 0 ? 1 : Double(max(a.repeatCount, 0))
        let local = a.repeatDuration > 0
            ? a.repeatDuration
            : max(a.duration, 0) * iterations * (a.autoreverses ? 2 : 1)
        let speed = abs(Double(a.speed))
        guard speed > 0, speed.isFinite else { return .infinity }
        return local / speed
    }

    static func endTime(of a: CAAnimation) -> CFTimeInterval {
        a.beginTime + activeDuration(of: a)
    }
}
