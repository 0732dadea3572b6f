import Foundation
/// Layer time: every layer is a `CAMediaTiming` object whose timing maps its parent's time to
/// its own, so a layer's `speed`, `timeOffset` and `beginTime` govern its whole subtree.
///
///     local(layer) = (local(parent) − beginTime) × speed + timeOffset     (speed 0: timeOffset)
///
/// The parent of a layer in time is its superlayer, or for a mask the layer it masks; the
/// root's parent time is the media time (``VirtualRunLoop/currentTime``). Layers only convert time:
/// their `duration`, `repeatCount`, `autoreverses` and `fillMode` are not used (as on Apple).
extension CALayer {
    /// The layer's own time mapping (only `beginTime`, `speed`, `timeOffset` matter), read from
    /// the stored values (not through the overridable properties: the snapshot reads state).
    package final var _timing: _TimingModel {
        _TimingModel(beginTime: _state.beginTime, duration: 0, speed: Double(_state.speed), timeOffset: _state.timeOffset)
    }

    /// True when the layer's mapping is the identity (begin 0, speed 1, offset 0): the common
    /// case, which the snapshot builder skips.
    package final var _hasIdentityTiming: Bool { _state.speed == 1 && _state.beginTime == 0 && _state.timeOffset == 0 }

    /// The timing parent: the superlayer, or the owner of a mask.
    final var _timeParent: CALayer? { _superlayer ?? _maskOwner }

    /// The timing chain, root first, ending with this layer.
    package final var _timingChain: [_TimingModel] {
        var chain: [_TimingModel] = []
        var l: CALayer? = self
        while let x = l { chain.append(x._timing); l = x._timeParent }
        return chain.reversed()
    }

    /// This layer's local time at media time `t`.
    package final func _localTime(atMediaTime t: CFTimeInterval) -> CFTimeInterval {
        var l: CALayer? = self
        var links: [CALayer] = []
        while let x = l { if !x._hasIdentityTiming { links.append(x) }; l = x._timeParent }
        var time = t
        for x in links.reversed() { time = x._timing.localTime(fromParent: time) }
        return time
    }

    /// The media time at which this layer's local time is `t` (a frozen ancestor, `speed` 0,
    /// has no inverse and maps to its `beginTime`).
    package final func _mediaTime(fromLocalTime t: CFTimeInterval) -> CFTimeInterval {
        _TimingModel._mediaTime(fromLocalTime: t, chain: _timingChain)
    }

    /// The layer's local time now (at its run loop's current time).
    package final var _currentLocalTime: CFTimeInterval { _localTime(atMediaTime: _runLoop.currentTime) }

    /// Converts `t` from the time space of layer `l` (nil: media time) to this layer's.
    final func _convertTime(_ t: CFTimeInterval, from l: CALayer?) -> CFTimeInterval {
        _TimingModel._convertTime(t, from: l?._timingChain ?? [], to: _timingChain)
    }

    /// Converts `t` from this layer's time space to that of layer `l` (nil: media time).
    final func _convertTime(_ t: CFTimeInterval, to l: CALayer?) -> CFTimeInterval {
        _TimingModel._convertTime(t, from: _timingChain, to: l?._timingChain ?? [])
    }
}
