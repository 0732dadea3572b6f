import Foundation
/// Time conversion through a chain of ancestors (layer speed inheritance, `convertTime`).
///
/// A layer's local time is its parent's local time mapped through the layer's own timing
/// (`beginTime`, `speed`, `timeOffset`; layers do not repeat or fill — their `duration` is not
/// used for conversion, as on Apple). A chain is given **root first**: `[root, …, parent, layer]`.
/// The media (global) time is the root's parent time.
///
///     local(layer) = mapₙ(…map₂(map₁(mediaTime)))      mapₖ(p) = (p − beginₖ) × speedₖ + offsetₖ
///
/// so speeds multiply (a root at speed 2 with a child at speed 3 runs the child at 6×) and a
/// `speed = 0` anywhere freezes everything below it at that ancestor's `timeOffset` (frame-exact
/// scrubbing: set the root's speed to 0 and move its `timeOffset`).
extension _TimingModel {
    /// Local time of the last element of `chain` (root first) at media time `mediaTime`.
    package static func _localTime(fromMediaTime mediaTime: CFTimeInterval, chain: [_TimingModel]) -> CFTimeInterval {
        var t = mediaTime
        for m in chain { t = m.localTime(fromParent: t) }
        return t
    }

    /// Media time at which the last element of `chain` (root first) has local time `t`.
    /// A frozen (`speed == 0`) link has no inverse; it maps to its `beginTime`.
    package static func _mediaTime(fromLocalTime t: CFTimeInterval, chain: [_TimingModel]) -> CFTimeInterval {
        var p = t
        for m in chain.reversed() { p = m.parentTime(fromLocal: p) }
        return p
    }

    /// `convertTime(_:from:)` math: a time in the local space of the layer whose chain is `from`
    /// (root first) expressed in the local space of the layer whose chain is `to`. An empty chain
    /// stands for the media time space (Apple's `nil` layer argument). Both directions of
    /// `CALayer.convertTime(_:from:)` / `(_:to:)` are this function with the chains swapped.
    package static func _convertTime(_ t: CFTimeInterval, from: [_TimingModel], to: [_TimingModel]) -> CFTimeInterval {
        _localTime(fromMediaTime: _mediaTime(fromLocalTime: t, chain: from), chain: to)
    }

    /// The rate of the last element's time relative to media time: the product of the speeds.
    package static func _effectiveSpeed(chain: [_TimingModel]) -> Double {
        chain.reduce(1) { $0 * $1.speed }
    }
}
