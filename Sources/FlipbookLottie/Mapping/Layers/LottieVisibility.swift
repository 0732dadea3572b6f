import Foundation
import Flipbook

/// A layer's in and out points (`ip`, `op`, in the containing composition's frames: drawn for
/// `ip ≤ frame < op`, as ThorVG and lottie-web decide) → discrete `hidden` keyframes on the
/// root timeline.
///
/// Each switch is placed `ε` (``LottieAnimationBuilder/holdEpsilon`` of the timeline) before
/// its frame, so that the frame itself — however its time rounds — shows the new state: a layer
/// with `ip = 10` is drawn at frame 10 and not at 9.99. On an affine clock the switches fall at
/// the root frames of `ip` and `op`; under time remapping (or a reversed stretch) the state is
/// taken at every whole root frame (``LottieTransformMapper/sampleTimes(_:)``) and switches
/// just before the first frame that differs.
package struct LottieVisibility {
    /// `hidden` at the timeline's start.
    package var initiallyHidden: Bool
    /// The `hidden` animation; nil when the state never changes on the timeline.
    package var animation: CAKeyframeAnimation?
    /// False when the layer is hidden over the whole timeline.
    package var isEverVisible: Bool

    package init(inPoint ip: Double, outPoint op: Double, clock: LottieClock) {
        func visible(local f: Double) -> Bool { f >= ip && f < op }
        // (root frame, visible from there on)
        var states: [(root: Double, visible: Bool)] = [(clock.start, false)]
        if clock.isAffine {
            states[0].visible = visible(local: clock.localFrame(atRoot: clock.start))
            for r in [clock.rootFrame(forLocal: ip), clock.rootFrame(forLocal: op)].sorted()
            where r > clock.start && r < clock.end {
                let v = visible(local: clock.localFrame(atRoot: r))
                if v != states[states.count - 1].visible { states.append((r, v)) }
            }
        } else {
            states[0].visible = visible(local: clock.localFrame(atRoot: clock.start))
            for r in LottieTransformMapper.sampleTimes(clock).roots.dropFirst() where r < clock.end {
                let v = visible(local: clock.localFrame(atRoot: r))
                if v != states[states.count - 1].visible { states.append((r, v)) }
            }
        }
        initiallyHidden = !states[0].visible
        isEverVisible = states.contains { $0.visible }
        guard states.count > 1 else { animation = nil; return }
        let a = CAKeyframeAnimation(keyPath: "hidden")
        a.calculationMode = .discrete
        a.values = states.map { !$0.visible }
        let eps = LottieAnimationBuilder.holdEpsilon
        var times: [Double] = [0]
        for s in states.dropFirst() { times.append(max(clock.keyTime(forRoot: s.root) - eps, times[times.count - 1])) }
        a.keyTimes = times.map { NSNumber(value: $0) }
        a.duration = clock.duration
        animation = a
    }

    /// Sets `layer.isHidden` for the timeline's start and registers the animation.
    package func apply(to layer: CALayer, context: LottieMappingContext) {
        layer.isHidden = initiallyHidden
        if let animation { context.add(animation, to: layer) }
    }
}
