import Foundation
import Flipbook

/// Layer effects (`ef`) that Core Animation's own properties express, applied to a Lottie
/// layer's transform layer (whose sublayers are its content and whose `mask` its masks):
///
/// | effect (`ty`) | controls read (index: meaning) | layers |
/// |---|---|---|
/// | drop shadow (25) | 0 colour, 1 opacity 0–255, 2 direction (°, 0 = up, clockwise), 3 distance, 4 softness | the transform layer's `shadowColor`, `shadowOpacity`, `shadowOffset`, `shadowRadius` |
/// | fill (21) | 2 colour, 6 opacity 0–1 | the content in an isolated group (a mask covering everything), a colour layer over it composited `"sourceAtop"` |
///
/// - **Drop shadow**, as Skottie draws it (ThorVG's offset and blur are the same): offset
///   `(d·sin θ, −d·cos θ)`, blur σ = 0.3 × softness. After Effects applies a shape or text
///   layer's effects after its transform and a precomposition's, solid's or image's before it:
///   so for shape and text layers the direction is the composition's (the layer's rotation and
///   its parents', at the start of the timeline, are undone), for the others it turns with the
///   layer. The shadow is the masked content's (a layer with masks gets an inner layer carrying
///   them, so they do not cut the shadow; ThorVG casts the unmasked content's). "Shadow only"
///   is not drawn (warned): the layer shows with its shadow.
/// - **Fill** recolours the content, keeping its coverage: at opacity o the colour covers the
///   content's colours by o (at 1, ThorVG's and After Effects' fill).
/// - Every other effect (Gaussian blur, tint, tritone, stroke, custom, …) is not drawn and
///   warned, once per kind.
/// Effects apply in the file's order; their controls may be animated (sampled per frame when
/// one value is computed from several controls).
enum LottieEffectMapper {
    /// The effect types drawn here.
    static let drawn: Set<Int> = [21, 25]

    /// Applies the drawn effects among `effects` (enabled ones) to the transform layer `x`.
    /// `rotation`: the layer's and its parents' rotation (degrees) at the timeline's start.
    static func apply(_ effects: [(index: Int, effect: LottieEffect)], to x: CALayer, rotation: Double, path: String,
                      clock: LottieClock, context: LottieMappingContext) {
        for (i, e) in effects {
            switch e.type {
            case 21: fill(e, on: x, clock: clock, context: context)
            case 25:
                dropShadow(e, on: x, rotation: rotation, clock: clock, context: context)
                if e.value(5, atFrame: clock.localFrame(atRoot: clock.start), 0) != 0 || (e.values.count > 5 && e.values[5]?.isAnimated == true) {
                    context.warn("effect", path: "\(path)[\(i)]", "the drop shadow's \"shadow only\" is not drawn: the layer shows with its shadow")
                }
            default: break
            }
        }
    }

    /// The control `i` as a property (a constant `fallback` when the file has none).
    static func control(_ e: LottieEffect, _ i: Int, _ fallback: LottieVector) -> LottieAnimated<LottieVector> {
        guard i < e.values.count, let v = e.values[i], !v.keyframes.isEmpty else { return LottieAnimated(fallback) }
        return v
    }

    // MARK: Fill

    static func fill(_ e: LottieEffect, on x: CALayer, clock: LottieClock, context: LottieMappingContext) {
        let group = LottieMaskMapper.plainLayer()
        group.name = "fill effect"
        for s in x.sublayers ?? [] { s.removeFromSuperlayer(); group.addSublayer(s) }
        // Its own group (a layer with a mask is composited offscreen as one; this mask covers
        // everything): the colour lands on the content only.
        group.mask = LottieMaskMapper.fullRect(gray: 1)
        let color = LottieMaskMapper.fullRect(gray: 0)
        color.compositingFilter = "sourceAtop"
        context.apply(LottieAnimationBuilder.track(keyPath: "backgroundColor", control(e, 2, [1, 0, 0, 1]), clock: clock) {
            LottieShapeLayers.cgColor($0)
        }, to: color, keyPath: "backgroundColor")
        context.apply(LottieAnimationBuilder.track(keyPath: "opacity", control(e, 6, [1]), clock: clock) {
            NSNumber(value: Float(min(max(($0.first ?? 1).isFinite ? ($0.first ?? 1) : 1, 0), 1)))
        }, to: color, keyPath: "opacity")
        group.addSublayer(color)
        x.addSublayer(group)
    }

    // MARK: Drop shadow

    static func dropShadow(_ e: LottieEffect, on x: CALayer, rotation: Double, clock: LottieClock, context: LottieMappingContext) {
        if let mask = x.mask {
            // The masks cut the content, not its shadow: they move to an inner layer.
            let inner = LottieMaskMapper.plainLayer()
            inner.name = "masked content"
            for s in x.sublayers ?? [] { s.removeFromSuperlayer(); inner.addSublayer(s) }
            x.mask = nil
            inner.mask = mask
            LottieMaskModes.set(x._maskMode, on: inner)
            LottieMaskModes.set(.alpha, on: x)
            x.addSublayer(inner)
        }
        context.apply(LottieAnimationBuilder.track(keyPath: "shadowColor", control(e, 0, [0, 0, 0, 1]), clock: clock) {
            LottieShapeLayers.cgColor($0)
        }, to: x, keyPath: "shadowColor")
        context.apply(LottieAnimationBuilder.track(keyPath: "shadowOpacity", control(e, 1, [127.5]), clock: clock) {
            let v = $0.first ?? 0
            return NSNumber(value: Float(v.isFinite ? min(max(v / 255, 0), 1) : 0))
        }, to: x, keyPath: "shadowOpacity")
        context.apply(LottieAnimationBuilder.track(keyPath: "shadowRadius", control(e, 4, [0]), clock: clock) {
            let v = $0.first ?? 0
            return NSNumber(value: Double(v.isFinite ? max(v, 0) * 0.3 : 0))
        }, to: x, keyPath: "shadowRadius")
        // The offset, from direction and distance: one property, sampled per frame when either
        // animates.
        let direction = control(e, 2, [135]), distance = control(e, 3, [0])
        func offset(_ f: Double) -> LottieVector {
            let theta = (LottieGroupTransform.at(direction.value(atFrame: f), 0) - rotation) * .pi / 180
            let d = LottieGroupTransform.at(distance.value(atFrame: f), 0)
            return [d * sin(theta), -d * cos(theta)]
        }
        let combined: LottieAnimated<LottieVector>
        if direction.isAnimated || distance.isAnimated {
            let first = min(direction.keyframes[0].time, distance.keyframes[0].time)
            let last = max(direction.keyframes[direction.keyframes.count - 1].time, distance.keyframes[distance.keyframes.count - 1].time)
            let steps = min(max(Int((last - first).rounded(.up)), 1), 10_000)
            combined = LottieAnimated(keyframes: (0...steps).map { k in
                let f = first + (last - first) * Double(k) / Double(steps)
                return LottieKeyframe(time: f, value: offset(f))
            })
        } else {
            combined = LottieAnimated(offset(0))
        }
        context.apply(LottieAnimationBuilder.track(keyPath: "shadowOffset", combined, clock: clock) {
            NSValue(size: CGSize(width: LottieGroupTransform.at($0, 0), height: LottieGroupTransform.at($0, 1)))
        }, to: x, keyPath: "shadowOffset")
    }
}
