import Foundation
import Flipbook

/// A shape group's transform (`tr`: anchor `a`, position `p`, scale `s`, rotation `r`, skew
/// `sk` about axis `sa`, opacity `o`) as a matrix, and as the container layer of the group.
///
/// The matrix maps the group's coordinates to its parent's, as lottie-web composes it: move
/// the anchor to the origin, scale, skew, rotate (degrees, clockwise on screen), move to the
/// position:
///
///     M = translate(p) · rotate(r) · skew(sk, sa) · scale(s / 100) · translate(−a)
///
/// with `skew(sk, sa) = rotate(sa) · shearX(tan(−sk)) · rotate(−sa)` applied right to left
/// (lottie-web's `skewFromAxis(−sk, sa)`).
///
/// **The container layer** (``makeContainer(_:clock:context:path:)``) has a zero-size `bounds`
/// whose origin is the anchor, so its sublayers' coordinates are the group's and the anchor
/// sits at the layer's `position`:
/// - static transform: `transform` = the matrix above without the translations, `position` = p;
/// - animated, no skew: real Core Animation keyframes with the file's easing — `position`
///   (or `position.x` / `position.y` when the dimensions ease differently or are split),
///   `bounds.origin` for the anchor, `transform.scale.x`, `transform.scale.y` and
///   `transform.rotation.z` (all three together when any animates, so each presentation writes
///   every component of the scale-then-rotate decomposition);
/// - animated with a skew: a ``LottieComputedContainerLayer`` computing the whole matrix from
///   the frame (exact at every frame).
/// The group's opacity is the layer's `opacity` (a track when animated), with
/// `allowsGroupOpacity` off: it multiplies each style drawn inside, as ThorVG and After
/// Effects do, rather than fading the group as one picture.
enum LottieGroupTransform {
    static func at(_ v: LottieVector, _ i: Int, _ fallback: Double = 0) -> Double {
        i < v.count && v[i].isFinite ? v[i] : fallback
    }

    static func position(_ t: LottieTransform, atFrame f: Double) -> CGPoint {
        switch t.position {
        case let .combined(p):
            let v = p.value(atFrame: f)
            return CGPoint(x: at(v, 0), y: at(v, 1))
        case let .split(x, y):
            return CGPoint(x: at(x.value(atFrame: f), 0), y: at(y.value(atFrame: f), 0))
        }
    }

    static func positionIsAnimated(_ t: LottieTransform) -> Bool {
        switch t.position {
        case let .combined(p): return p.isAnimated
        case let .split(x, y): return x.isAnimated || y.isAnimated
        }
    }

    /// True when the matrix (not the opacity) changes with time.
    static func isGeometryAnimated(_ t: LottieTransform?) -> Bool {
        guard let t else { return false }
        return t.anchor.isAnimated || positionIsAnimated(t) || t.scale.isAnimated || t.rotation.isAnimated
            || (t.skew?.isAnimated ?? false) || (t.skewAxis?.isAnimated ?? false)
    }

    /// The linear part: rotate · skew · scale (no translations).
    static func linear(_ t: LottieTransform, atFrame f: Double) -> CGAffineTransform {
        let s = t.scale.value(atFrame: f)
        let sx = at(s, 0, 100) / 100, sy = at(s, 1, at(s, 0, 100)) / 100
        var m = CGAffineTransform(scaleX: sx, y: sy)
        let sk = t.skew.map { at($0.value(atFrame: f), 0) } ?? 0
        if sk != 0 {
            let sa = (t.skewAxis.map { at($0.value(atFrame: f), 0) } ?? 0) * .pi / 180
            let shear = CGAffineTransform(a: 1, b: 0, c: tan(-sk * .pi / 180), d: 1, tx: 0, ty: 0)
            m = m.concatenating(CGAffineTransform(rotationAngle: sa)).concatenating(shear)
                .concatenating(CGAffineTransform(rotationAngle: -sa))
        }
        let r = at(t.rotation.value(atFrame: f), 0) * .pi / 180
        if r != 0 { m = m.concatenating(CGAffineTransform(rotationAngle: r)) }
        return m
    }

    /// The group's matrix at local frame `f` (identity for no transform).
    static func matrix(_ t: LottieTransform?, atFrame f: Double) -> CGAffineTransform {
        guard let t else { return .identity }
        let a = t.anchor.value(atFrame: f), p = position(t, atFrame: f)
        return CGAffineTransform(translationX: -at(a, 0), y: -at(a, 1))
            .concatenating(linear(t, atFrame: f))
            .concatenating(CGAffineTransform(translationX: p.x, y: p.y))
    }

    static func opacity(_ t: LottieTransform?, atFrame f: Double) -> Double {
        guard let t else { return 1 }
        return min(max(at(t.opacity.value(atFrame: f), 0, 100) / 100, 0), 1)
    }

    /// The container layer of a group with transform `t` (see the type's notes).
    static func makeContainer(_ t: LottieTransform?, clock: LottieClock, context: LottieMappingContext, path: String) -> CALayer {
        let f0 = clock.localFrame(atRoot: clock.start)
        guard let t else {
            let layer = CALayer()
            configure(layer)
            return layer
        }
        let hasSkew = (t.skew?.keyframes.contains { at($0.value, 0) != 0 } ?? false)
        let linearAnimated = t.scale.isAnimated || t.rotation.isAnimated || (t.skew?.isAnimated ?? false)
            || (t.skewAxis?.isAnimated ?? false)
        if hasSkew && linearAnimated {
            let layer = LottieComputedContainerLayer()
            configure(layer)
            LottieShapeLayers.installFrame(layer, clock: clock, context: context) { l, f in
                l.transform = CATransform3DMakeAffineTransform(matrix(t, atFrame: f))
                l.opacity = Float(opacity(t, atFrame: f))
            }
            return layer
        }
        let layer = CALayer()
        configure(layer)
        // Anchor → bounds.origin.
        let a0 = t.anchor.value(atFrame: f0)
        layer.bounds = CGRect(x: at(a0, 0), y: at(a0, 1), width: 0, height: 0)
        if t.anchor.isAnimated {
            let track = LottieAnimationBuilder.track(keyPath: "bounds.origin", t.anchor, clock: clock) {
                NSValue(cgPoint: CGPoint(x: at($0, 0), y: at($0, 1)))
            }
            if let a = track.animation { context.add(a, to: layer) }
        }
        // Position.
        layer.position = position(t, atFrame: f0)
        switch t.position {
        case let .combined(p) where p.isAnimated:
            if p.keyframes.contains(where: \.hasPerDimensionEasing) {
                for (d, key) in ["position.x", "position.y"].enumerated() {
                    let track = LottieAnimationBuilder.track(keyPath: key, p, clock: clock, dimension: d) { NSNumber(value: at($0, d)) }
                    if let a = track.animation { context.add(a, to: layer) }
                }
            } else {
                let track = LottieAnimationBuilder.track(keyPath: "position", p, clock: clock) {
                    NSValue(cgPoint: CGPoint(x: at($0, 0), y: at($0, 1)))
                }
                if let a = track.animation { context.add(a, to: layer) }
            }
        case let .split(x, y):
            for (key, v) in [("position.x", x), ("position.y", y)] where v.isAnimated {
                let track = LottieAnimationBuilder.track(keyPath: key, v, clock: clock) { NSNumber(value: at($0, 0)) }
                if let a = track.animation { context.add(a, to: layer) }
            }
        default:
            break
        }
        // Scale, rotation (and a static skew).
        layer.transform = CATransform3DMakeAffineTransform(linear(t, atFrame: f0))
        if t.scale.isAnimated || t.rotation.isAnimated {
            let scaleX = LottieAnimationBuilder.track(keyPath: "transform.scale.x", t.scale, clock: clock, dimension: 0) {
                NSNumber(value: at($0, 0, 100) / 100)
            }
            let scaleY = LottieAnimationBuilder.track(keyPath: "transform.scale.y", t.scale, clock: clock, dimension: 1) {
                NSNumber(value: at($0, 1, at($0, 0, 100)) / 100)
            }
            let rotation = LottieAnimationBuilder.track(keyPath: "transform.rotation.z", t.rotation, clock: clock) {
                NSNumber(value: at($0, 0) * .pi / 180)
            }
            for (key, track) in [("transform.scale.x", scaleX), ("transform.scale.y", scaleY), ("transform.rotation.z", rotation)] {
                context.add(track.animation ?? constant(keyPath: key, track.initialValue, clock: clock), to: layer)
            }
        }
        // Opacity.
        let o = LottieAnimationBuilder.track(keyPath: "opacity", t.opacity, clock: clock) {
            NSNumber(value: Float(min(max(at($0, 0, 100) / 100, 0), 1)))
        }
        context.apply(o, to: layer, keyPath: "opacity")
        return layer
    }

    /// A keyframe animation holding a track's value over the whole timeline (so the component
    /// is written at every presentation, after the components that animate).
    static func constant(keyPath: String, _ value: Any, clock: LottieClock) -> CAKeyframeAnimation {
        let a = CAKeyframeAnimation(keyPath: keyPath)
        a.values = [value, value]
        a.keyTimes = [0, 1]
        a.duration = clock.duration
        return a
    }

    static func configure(_ layer: CALayer) {
        layer.anchorPoint = .zero
        layer.bounds = .zero
        layer.position = .zero
        layer.allowsGroupOpacity = false
    }
}
