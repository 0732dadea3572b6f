import Foundation
import Flipbook

/// A layer transform (`ks`) → the geometry and animations of one Core Animation layer.
///
/// After Effects (and lottie-web, ThorVG) place a layer's content by
///
///     p ↦ p · T(−a) · S · K · Rz · Ry · Rx · T(p)          (row vectors, applied left to right)
///
/// — anchor `a` subtracted, scale `s`, skew `K` (skew `sk` about the skew axis `sa`), rotation
/// (`r` or `rz`, plus the auto-orient angle; `ry`, `rx` of 3D layers), position `p`. The layer
/// that carries it (a "transform layer": the content, masks and parent chains sit inside it):
///
/// | part | property | animation |
/// |---|---|---|
/// | anchor | `anchorPoint` over `bounds` = (0, 0, 1, 1), so the unit anchor point *is* the anchor in points | `anchorPoint` keyframes (`anchorPoint.x` / `.y` when the dimensions ease differently) |
/// | position | `position` | `position` keyframes; `position.x` / `.y` for split positions (`p.s`) or per-dimension easing; spatial segments sampled per frame (``LottieAnimationBuilder``) |
/// | scale, skew, rotations | `transform` | one `transform` keyframe animation **per factor**, each with a `CAValueFunction` (`scale` or `scaleX`/`scaleY`, `rotateZ`, `rotateY`, `rotateX`) |
/// | opacity | `opacity` (0–1) | `opacity` keyframes |
///
/// The factors compose exactly (no decomposition, so negative and zero scales and any rotation
/// survive): the factor applied **last** to points (`Rx`, or the last one present) is a plain
/// animation that replaces the model transform, and every other factor is **additive**: an
/// additive transform animation's value `v` is composed as `v · base`, i.e. applied to points
/// *before* what is already there. So adding them from the last factor to the first builds
/// `S · K · Rz · Ry · Rx`. Static factors between animated ones become constant additive
/// animations (consecutive ones merged); when nothing in the transform animates, the model
/// `transform` alone holds the product and there is no animation.
///
/// Computed per whole frame (exact at every frame, linearly interpolated between): an animated
/// skew or skew axis (no value function expresses a shear: sampled `transform` matrices) and
/// the auto-orient angle (the direction of the position path's tangent, as ThorVG computes it:
/// a `rotateZ` animation of sampled angles, unwrapped so the layer never spins the long way).
package enum LottieTransformMapper {
    /// What parts of a transform a layer takes: a transform-only copy (a parent in a parent
    /// chain) takes no opacity.
    package struct Options {
        package var opacity = true
        package var autoOrient = false
        package init(opacity: Bool = true, autoOrient: Bool = false) { self.opacity = opacity; self.autoOrient = autoOrient }
    }

    /// Sets `layer`'s geometry to `t` at the timeline's start and registers the animations on
    /// `context`. `layer`'s sublayers are then in the Lottie layer's own coordinates.
    package static func apply(_ t: LottieTransform, to layer: CALayer, options: Options = Options(),
                              path: String, clock: LottieClock, context: LottieMappingContext) {
        layer.bounds = CGRect(x: 0, y: 0, width: 1, height: 1)
        applyPoint(t.anchor, keyPath: "anchorPoint", to: layer, clock: clock, context: context)
        switch t.position {
        case let .combined(p):
            applyPoint(p, keyPath: "position", to: layer, clock: clock, context: context)
        case let .split(x, y):
            context.apply(LottieAnimationBuilder.track(keyPath: "position.x", x, clock: clock) { NSNumber(value: $0.first ?? 0) },
                          to: layer, keyPath: "position.x")
            context.apply(LottieAnimationBuilder.track(keyPath: "position.y", y, clock: clock) { NSNumber(value: $0.first ?? 0) },
                          to: layer, keyPath: "position.y")
        }
        applyTransform(t, to: layer, autoOrient: options.autoOrient, clock: clock, context: context)
        if options.opacity {
            context.apply(LottieAnimationBuilder.track(keyPath: "opacity", t.opacity, clock: clock) {
                NSNumber(value: Float(min(max(($0.first ?? 100) / 100, 0), 1)))
            }, to: layer, keyPath: "opacity")
        }
    }

    /// A 2-D point property (`anchorPoint`, `position`): one `CGPoint` animation, or one per
    /// dimension when the file eases x and y differently.
    static func applyPoint(_ p: LottieAnimated<LottieVector>, keyPath: String, to layer: CALayer,
                           clock: LottieClock, context: LottieMappingContext) {
        if p.keyframes.contains(where: { $0.hasPerDimensionEasing }) {
            for (d, axis) in ["x", "y"].enumerated() {
                context.apply(LottieAnimationBuilder.track(keyPath: "\(keyPath).\(axis)", p, clock: clock, dimension: d) {
                    NSNumber(value: d < $0.count ? $0[d] : 0)
                }, to: layer, keyPath: "\(keyPath).\(axis)")
            }
        } else {
            context.apply(LottieAnimationBuilder.track(keyPath: keyPath, p, clock: clock) { point($0) }, to: layer, keyPath: keyPath)
        }
    }

    static func point(_ v: LottieVector) -> CGPoint {
        CGPoint(x: v.count > 0 ? v[0] : 0, y: v.count > 1 ? v[1] : 0)
    }

    // MARK: The transform factors

    /// One factor of `S · K · Rz · Ry · Rx`: its value at the timeline's start and its
    /// animations (value-function animations of `transform`, not yet marked additive); none
    /// when it does not change.
    struct Factor {
        var initial: CATransform3D
        var animations: [CAKeyframeAnimation]
    }

    static func applyTransform(_ t: LottieTransform, to layer: CALayer, autoOrient: Bool,
                               clock: LottieClock, context: LottieMappingContext) {
        var factors = [scaleFactor(t.scale, clock: clock)]
        if let sk = t.skew {
            factors.append(skewFactor(sk, axis: t.skewAxis ?? LottieAnimated([0]), clock: clock))
        }
        factors.append(rotationFactor(t.rotation, function: .rotateZ, clock: clock))
        if autoOrient, let orient = orientFactor(t.position, clock: clock) { factors.append(orient) }
        if let ry = t.rotationY { factors.append(rotationFactor(ry, function: .rotateY, clock: clock)) }
        if let rx = t.rotationX { factors.append(rotationFactor(rx, function: .rotateX, clock: clock)) }

        let product = factors.reduce(CATransform3DIdentity) { $0 * $1.initial }
        layer.transform = product
        guard factors.contains(where: { !$0.animations.isEmpty }) else { return }
        // From the last factor to the first: the first animation replaces the model value, the
        // others are additive (composed before it). Static runs become one constant animation.
        var pendingStatic: CATransform3D? = nil
        var first = true
        func emit(_ a: CAKeyframeAnimation) {
            a.isAdditive = !first
            first = false
            context.add(a, to: layer)
        }
        func flushStatic() {
            guard let m = pendingStatic else { return }
            pendingStatic = nil
            // An identity factor changes nothing, first or not (the next animation then replaces
            // the model value itself).
            if m == CATransform3DIdentity { return }
            emit(constant(m, clock: clock))
        }
        for f in factors.reversed() {
            if f.animations.isEmpty {
                // Static factors gather in application order: this one is applied before the
                // ones already pending.
                pendingStatic = f.initial * (pendingStatic ?? CATransform3DIdentity)
                continue
            }
            flushStatic()
            for a in f.animations { emit(a) }
        }
        flushStatic()
    }

    /// A constant `transform` animation (a static factor between animated ones).
    static func constant(_ m: CATransform3D, clock: LottieClock) -> CAKeyframeAnimation {
        let a = CAKeyframeAnimation(keyPath: "transform")
        a.values = [NSValue(caTransform3D: m)]
        a.duration = clock.duration
        return a
    }

    /// A `transform` animation of `track` through `function`.
    static func valueFunctionAnimation(_ track: LottieAnimationBuilder.Track, _ function: CAValueFunctionName) -> CAKeyframeAnimation? {
        guard let a = track.animation else { return nil }
        a.keyPath = "transform"
        a.valueFunction = CAValueFunction(name: function)
        return a
    }

    /// `s` (percent) → `scale` (or `scaleX` and `scaleY` when the dimensions ease differently).
    static func scaleFactor(_ s: LottieAnimated<LottieVector>, clock: LottieClock) -> Factor {
        func sx(_ v: LottieVector) -> Double { (v.first ?? 100) / 100 }
        func sy(_ v: LottieVector) -> Double { (v.count > 1 ? v[1] : v.first ?? 100) / 100 }
        let v0 = s.value(atFrame: clock.localFrame(atRoot: clock.start))
        let initial = CATransform3DMakeScale(sx(v0), sy(v0), 1)
        if s.keyframes.contains(where: { $0.hasPerDimensionEasing }) {
            let x = LottieAnimationBuilder.track(keyPath: "transform", s, clock: clock, dimension: 0) { NSNumber(value: sx($0)) }
            let y = LottieAnimationBuilder.track(keyPath: "transform", s, clock: clock, dimension: 1) { NSNumber(value: sy($0)) }
            return Factor(initial: initial, animations: [valueFunctionAnimation(x, .scaleX), valueFunctionAnimation(y, .scaleY)].compactMap { $0 })
        }
        let track = LottieAnimationBuilder.track(keyPath: "transform", s, clock: clock) { [sx($0), sy($0), 1.0] }
        return Factor(initial: initial, animations: [valueFunctionAnimation(track, .scale)].compactMap { $0 })
    }

    /// Degrees (clockwise on screen for z) → `rotateZ` / `rotateY` / `rotateX` in radians.
    static func rotationFactor(_ r: LottieAnimated<LottieVector>, function: CAValueFunctionName, clock: LottieClock) -> Factor {
        let track = LottieAnimationBuilder.track(keyPath: "transform", r, clock: clock) { NSNumber(value: ($0.first ?? 0) * .pi / 180) }
        let angle = ((track.initialValue as? NSNumber)?.doubleValue ?? 0)
        let initial = CAValueFunction(name: function)?._transform([angle]) ?? CATransform3DIdentity
        return Factor(initial: initial, animations: [valueFunctionAnimation(track, function)].compactMap { $0 })
    }

    /// The skew matrix of After Effects (ThorVG's and lottie-web's): a shear by `tan(−sk)`
    /// along the skew axis `sa` (degrees), i.e. `Rz(sa) · shear · Rz(−sa)`.
    package static func skewMatrix(skew sk: Double, axis sa: Double) -> CATransform3D {
        let t = tan(-sk * .pi / 180)
        let axis = -sa * .pi / 180
        let c = cos(axis), s = sin(axis)
        let a = s * c * t, b = c * c * t, cc = s * s * t
        var m = CATransform3DIdentity
        m.m11 = 1 - a; m.m12 = -cc
        m.m21 = b; m.m22 = 1 + a
        return m
    }

    /// Skew: static → a static factor; animated → `transform` matrices sampled at every whole
    /// root frame (exact there, interpolated in between).
    static func skewFactor(_ sk: LottieAnimated<LottieVector>, axis sa: LottieAnimated<LottieVector>, clock: LottieClock) -> Factor {
        func matrix(atRoot r: Double) -> CATransform3D {
            let f = clock.localFrame(atRoot: r)
            return skewMatrix(skew: sk.value(atFrame: f).first ?? 0, axis: sa.value(atFrame: f).first ?? 0)
        }
        let initial = matrix(atRoot: clock.start)
        guard sk.isAnimated || sa.isAnimated || !clock.isAffine else { return Factor(initial: initial, animations: []) }
        let (times, roots) = sampleTimes(clock)
        let values = roots.map { matrix(atRoot: $0) }
        guard values.contains(where: { $0 != initial }) else { return Factor(initial: initial, animations: []) }
        let a = CAKeyframeAnimation(keyPath: "transform")
        a.values = values.map { NSValue(caTransform3D: $0) }
        a.keyTimes = times.map { NSNumber(value: $0) }
        a.duration = clock.duration
        return Factor(initial: initial, animations: [a])
    }

    /// The most samples a per-frame sampled track takes: a longer timeline is sampled every
    /// `⌈frames / maximumSamples⌉` frames (a bound for hostile `op`; 100 000 frames is
    /// 55 minutes at 30 fps).
    package static let maximumSamples = 100_000

    /// Key times and root frames of every whole root frame of the timeline (and its ends), or
    /// of every n-th one past ``maximumSamples``.
    static func sampleTimes(_ clock: LottieClock) -> (keyTimes: [Double], roots: [Double]) {
        var roots = [clock.start]
        let step = max(1, ((clock.end - clock.start) / Double(maximumSamples)).rounded(.up))
        var r = clock.start.rounded(.down) + step
        while r < clock.end { roots.append(r); r += step }
        if clock.end > clock.start { roots.append(clock.end) }
        return (roots.map { clock.keyTime(forRoot: $0) }, roots)
    }

    /// Auto-orient: the layer turns with the direction of its motion. The angle is the
    /// position path's tangent at each whole frame (ThorVG's rule: a spatial segment's bezier
    /// tangent, a straight segment's direction; before the first keyframe the first segment's,
    /// after the last the last's); split positions use the direction of the velocity. Nil when
    /// the position does not move.
    static func orientFactor(_ p: LottieTransform.Position, clock: LottieClock) -> Factor? {
        func angle(atLocal f: Double) -> Double? {
            switch p {
            case let .combined(pos): return tangentAngle(pos, atFrame: f)
            case let .split(x, y):
                guard x.isAnimated || y.isAnimated else { return nil }
                let h = 0.01
                var dx = (x.value(atFrame: f + h).first ?? 0) - (x.value(atFrame: f).first ?? 0)
                var dy = (y.value(atFrame: f + h).first ?? 0) - (y.value(atFrame: f).first ?? 0)
                if dx == 0 && dy == 0 {
                    dx = (x.value(atFrame: f).first ?? 0) - (x.value(atFrame: f - h).first ?? 0)
                    dy = (y.value(atFrame: f).first ?? 0) - (y.value(atFrame: f - h).first ?? 0)
                }
                return dx == 0 && dy == 0 ? 0 : atan2(dy, dx)
            }
        }
        let (times, roots) = sampleTimes(clock)
        var angles: [Double] = []
        for r in roots {
            guard var a = angle(atLocal: clock.localFrame(atRoot: r)) else { return nil }
            if let last = angles.last {
                // Unwrap: the nearest turn to the previous sample.
                while a - last > .pi { a -= 2 * .pi }
                while a - last < -.pi { a += 2 * .pi }
            }
            angles.append(a)
        }
        let initial = CATransform3DMakeRotation(angles.first ?? 0, 0, 0, 1)
        guard angles.contains(where: { $0 != angles[0] }) else { return Factor(initial: initial, animations: []) }
        let a = CAKeyframeAnimation(keyPath: "transform")
        a.values = angles.map { NSNumber(value: $0) }
        a.keyTimes = times.map { NSNumber(value: $0) }
        a.duration = clock.duration
        a.valueFunction = CAValueFunction(name: .rotateZ)
        return Factor(initial: initial, animations: [a])
    }

    /// The direction (radians, y down) of the position path at frame `f`; nil when the
    /// property has one keyframe.
    static func tangentAngle(_ p: LottieAnimated<LottieVector>, atFrame f: Double) -> Double? {
        let kf = p.keyframes
        guard kf.count > 1 else { return nil }
        let k: Int, u: Double
        if let s = p.segment(atFrame: f) { (k, u) = s } else if f <= kf[0].time { (k, u) = (0, 0) } else { (k, u) = (kf.count - 2, 1) }
        let a = kf[k], b = kf[k + 1]
        let p0 = point(a.value), p3 = point(b.value)
        guard a.hasSpatialTangents else { return atan2(p3.y - p0.y, p3.x - p0.x) }
        let to = a.spatialOut ?? [0, 0], ti = a.spatialIn ?? [0, 0]
        let c1 = CGPoint(x: p0.x + (to.count > 0 ? to[0] : 0), y: p0.y + (to.count > 1 ? to[1] : 0))
        let c2 = CGPoint(x: p3.x + (ti.count > 0 ? ti[0] : 0), y: p3.y + (ti.count > 1 ? ti[1] : 0))
        // The tangent at the arc-length fraction the easing gives (a cusp's tangent falls back
        // to the chord).
        let progress = min(max(a.easedProgress(u, dimension: 0), 0), 1)
        let path = CGMutablePath()
        path.move(to: p0)
        path.addCurve(to: p3, control1: c1, control2: c2)
        return path._sample(atArcLength: progress * path._length)?.angle ?? atan2(p3.y - p0.y, p3.x - p0.x)
    }
}
