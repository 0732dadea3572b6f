import Foundation
import Flipbook

/// A Lottie value that the mapper can sample at any frame.
package protocol LottieSampledValue: Sendable, Equatable {
    static func _value(of property: LottieAnimated<Self>, atFrame f: Double) -> Self
    /// True when the segment starting at `keyframe` must be sampled rather than handed to Core
    /// Animation as one timing function (spatial position segments).
    static func _needsSampling(_ keyframe: LottieKeyframe<Self>) -> Bool
}

extension Array: LottieSampledValue where Element == Double {
    package static func _value(of property: LottieAnimated<[Double]>, atFrame f: Double) -> [Double] { property.value(atFrame: f) }
    package static func _needsSampling(_ keyframe: LottieKeyframe<[Double]>) -> Bool { keyframe.hasSpatialTangents && keyframe.value.count >= 2 }
}

extension LottieBezier: LottieSampledValue {
    package static func _value(of property: LottieAnimated<LottieBezier>, atFrame f: Double) -> LottieBezier { property.value(atFrame: f) }
    package static func _needsSampling(_ keyframe: LottieKeyframe<LottieBezier>) -> Bool { false }
}

/// Builds the `CAKeyframeAnimation`s of Lottie properties on the root timeline
/// (``LottieClock``).
///
/// For a property on an affine clock, each keyframe becomes a Core Animation keyframe at key
/// time `(root(tₖ) − start) / (end − start)` with its segment's bezier easing as that
/// segment's `CAMediaTimingFunction` (P1 = `o`, P2 = `i`; of dimension `dimension`). Then:
/// - **holds** (`h: 1`): the value is repeated just before the next key time
///   (`ε = 1e-9` of the timeline), so the jump happens at the next keyframe's frame exactly;
/// - **spatial segments** (position with `to`/`ti`), segments cut by the timeline's ends, and
///   every segment on a remapped clock are **sampled** at each whole root frame (linear in
///   between: exact at every whole frame);
/// - key times start at 0 and end at 1 (the values at the timeline's ends are added), as
///   Core Animation requires for `keyTimes` to be used.
/// A property that does not change over the timeline gives no animation: only its value.
package enum LottieAnimationBuilder {
    /// The result of mapping one property: the value at the timeline's start (for the model
    /// layer) and the animation, nil when the value is constant over the timeline.
    package struct Track {
        package var initialValue: Any
        package var animation: CAKeyframeAnimation?
    }

    /// Hold keyframes' jump: this fraction of the timeline before the next key time.
    package static let holdEpsilon = 1e-9

    /// Maps `property` to an animation of `keyPath` on `clock`'s timeline. `convert` turns a
    /// Lottie value into the Core Animation value (`NSNumber`, `NSValue`, `CGColor`, `CGPath`…);
    /// `dimension` picks whose easing handles are used (the caller splits properties whose
    /// dimensions ease differently into one animation per dimension).
    package static func track<V: LottieSampledValue>(
        keyPath: String, _ property: LottieAnimated<V>, clock: LottieClock, dimension: Int = 0,
        convert: (V) -> Any
    ) -> Track {
        let points = keyPoints(property, clock: clock, dimension: dimension)
        let first = points[0].value
        guard points.count > 1, points.contains(where: { $0.value != first }) else {
            return Track(initialValue: convert(first), animation: nil)
        }
        let a = CAKeyframeAnimation(keyPath: keyPath)
        a.values = points.map { convert($0.value) }
        a.keyTimes = points.map { NSNumber(value: $0.keyTime) }
        let functions = points.dropLast().map { $0.timing ?? CAMediaTimingFunction(name: .linear) }
        if functions.contains(where: { $0 != CAMediaTimingFunction(name: .linear) }) { a.timingFunctions = functions }
        a.calculationMode = .linear
        a.duration = clock.duration
        return Track(initialValue: convert(first), animation: a)
    }

    /// One Core Animation keyframe: key time, value, and the timing of the segment it starts.
    package struct KeyPoint<V> {
        package var keyTime: Double
        package var value: V
        package var timing: CAMediaTimingFunction?
    }

    /// The key points of `property` on `clock`'s timeline (see the type's notes).
    package static func keyPoints<V: LottieSampledValue>(_ property: LottieAnimated<V>, clock: LottieClock, dimension: Int = 0) -> [KeyPoint<V>] {
        let start = clock.start, end = clock.end
        func sample(root r: Double) -> V { V._value(of: property, atFrame: clock.localFrame(atRoot: r)) }
        var out: [KeyPoint<V>] = []
        func emit(_ r: Double, _ v: V, _ timing: CAMediaTimingFunction?) {
            let kt = min(max(clock.keyTime(forRoot: r), 0), 1)
            if let last = out.last, kt < last.keyTime { return }
            out.append(KeyPoint(keyTime: kt, value: v, timing: timing))
        }
        /// Whole root frames strictly inside (a, b), then b's value.
        func sampleRange(_ a: Double, _ b: Double) {
            var r = a.rounded(.down) + 1
            while r < b { emit(r, sample(root: r), nil); r += 1 }
        }
        let kf = property.keyframes
        guard kf.count > 1, end > start else { return [KeyPoint(keyTime: 0, value: sample(root: start), timing: nil)] }
        guard clock.isAffine else {
            // Remapped (or reversed) time: every whole frame.
            emit(start, sample(root: start), nil)
            sampleRange(start, end)
            emit(end, sample(root: end), nil)
            return out
        }
        let roots = kf.map { clock.rootFrame(forLocal: $0.time) }
        // Before the first keyframe: its value from the start.
        emit(start, sample(root: start), nil)
        if roots[0] > start && roots[0] < end { emit(roots[0], kf[0].value, nil) }
        for k in 0..<(kf.count - 1) {
            let r0 = roots[k], r1 = roots[k + 1]
            if r1 <= start || r0 >= end || r1 <= r0 { continue }
            let inside = r0 >= start && r1 <= end
            if kf[k].hold {
                // Hold: the value until just before the next keyframe, then the jump.
                if r0 >= start, clock.keyTime(forRoot: r0) > out[out.count - 1].keyTime { emit(r0, kf[k].value, nil) }
                out[out.count - 1].timing = nil
                if r1 < end {
                    emit(r1 - holdEpsilon * (end - start), kf[k].value, nil)
                    emit(r1, kf[k + 1].value, nil)
                }
                continue
            }
            if inside && !V._needsSampling(kf[k]) {
                // One Core Animation segment with the file's easing: the key point at r0 is
                // already emitted (the previous segment's end, or the first keyframe).
                if out.isEmpty || clock.keyTime(forRoot: r0) > out[out.count - 1].keyTime { emit(r0, kf[k].value, nil) }
                out[out.count - 1].timing = kf[k].timingFunction(dimension: dimension)
                emit(r1, kf[k + 1].value, nil)
            } else {
                // Sampled: spatial, or cut by the timeline's ends.
                let a = max(r0, start), b = min(r1, end)
                sampleRange(a, b)
                emit(b, sample(root: b), nil)
            }
        }
        if out[out.count - 1].keyTime < 1 { emit(end, sample(root: end), nil) }
        out[out.count - 1].timing = nil
        return out
    }

    /// The animation of a layer's local frame number on the timeline (for layers that compute
    /// what they draw from the frame: ``LottieComputedShapeLayer``): linear on an affine clock,
    /// sampled under time remapping.
    package static func frameTrack(keyPath: String, clock: LottieClock) -> Track {
        let property: LottieAnimated<LottieVector>
        if clock.isAffine {
            property = LottieAnimated(keyframes: [
                LottieKeyframe(time: clock.localFrame(atRoot: clock.start), value: [clock.localFrame(atRoot: clock.start)]),
                LottieKeyframe(time: clock.localFrame(atRoot: clock.end), value: [clock.localFrame(atRoot: clock.end)]),
            ])
        } else {
            // Identity keyframes in local time; the remapped clock samples them.
            let frames = clock.remapped ?? [0]
            let lo = frames.min() ?? 0, hi = frames.max() ?? 0
            property = LottieAnimated(keyframes: [LottieKeyframe(time: lo, value: [lo]), LottieKeyframe(time: hi, value: [hi])])
        }
        return track(keyPath: keyPath, property, clock: clock) { NSNumber(value: $0[0]) }
    }
}
