import Foundation
import Flipbook

/// The layer of one style item — fill, stroke, gradient fill or gradient stroke — drawing its
/// outline in its group's coordinates.
///
/// **The outline** (``PathRoute``):
/// - nothing it draws changes with time → a static `path`, built once;
/// - exactly one free path (`sh`) animates, with the same vertex count in every keyframe, no
///   modifier applies and the groups and repeaters in between are static → a `path`
///   `CAKeyframeAnimation` with the file's key times and easing (each key value is the whole
///   outline with that keyframe's path, every segment a cubic so Core Animation blends them
///   point by point, exactly as Lottie interpolates vertices);
/// - anything else (animated rectangles, ellipses, stars, modifiers, nested group transforms,
///   several animated paths) → a ``LottieComputedShapeLayer`` computing the outline from the
///   frame with ``LottieShapeProgram`` (exact at every frame).
///
/// **Solid styles** → a `CAShapeLayer` (`fillColor` or `strokeColor`, the other nil): colour
/// (0–1 components), `opacity` (the style's 0–100 opacity, as the layer's opacity: one paint, so
/// the same thing) and `lineWidth` are tracks with the file's easing; the fill rule is `r`; caps
/// (`lc` 1 butt, 2 round, 3 square), joins (`lj` 1 miter, 2 round, 3 bevel) and the miter
/// limit are set as they are.
///
/// **Dashes** (`d`: dash, gap, … and an offset `o`): `lineDashPattern` and `lineDashPhase`. An
/// animated offset alone is a `lineDashPhase` track; animated lengths are computed per frame
/// (the layer is a ``LottieComputedShapeLayer`` setting `lineDashPattern`). An odd number of
/// lengths repeats the list (SVG's rule, lottie-web's output); lengths summing to 0 draw a solid
/// line.
///
/// **Trims on a stroke** map to `strokeStart` / `strokeEnd` tracks when Core Animation's trim is
/// Lottie's: one trim, the stroke's only modifier, on one shape of one subpath, offset 0, the
/// start never after the end at any frame and groups in between without shear or non-uniform
/// scale (arc-length fractions are kept). Every other trim is part of the computed outline.
enum LottieShapeLayers {
    /// Makes `layer` compute itself from its local frame: registers the frame track on
    /// `context` and runs `update` once for the model (the frame at the timeline's start).
    static func installFrame(_ layer: CALayer, clock: LottieClock, context: LottieMappingContext,
                             update: @escaping @Sendable (CALayer, Double) -> Void) {
        if let l = layer as? LottieComputedContainerLayer { l.update = update }
        if let l = layer as? LottieComputedShapeLayer { l.update = { update($0, $1) } }
        if let l = layer as? LottieComputedGradientLayer { l.update = update }
        if let l = layer as? LottieRadialGradientLayer { l.update = update }
        let key = LottieComputedShapeLayer.frameKey
        context.apply(LottieAnimationBuilder.frameTrack(keyPath: key, clock: clock), to: layer, keyPath: key)
        update(layer, clock.localFrame(atRoot: clock.start))
    }

    /// A layer whose coordinates are its superlayer's (zero bounds at the origin).
    static func configure(_ layer: CALayer) {
        layer.anchorPoint = .zero
        layer.bounds = .zero
        layer.position = .zero
    }

    static func cgColor(_ v: LottieVector) -> CGColor {
        func c(_ i: Int) -> CGFloat { CGFloat(min(max(LottieGroupTransform.at(v, i), 0), 1)) }
        return CGColor(red: c(0), green: c(1), blue: c(2), alpha: 1)
    }

    static func opacityValue(_ v: LottieVector) -> NSNumber {
        NSNumber(value: Float(min(max(LottieGroupTransform.at(v, 0, 100) / 100, 0), 1)))
    }

    // MARK: Strokes

    static func lineCap(_ lc: Int) -> CAShapeLayerLineCap { lc == 1 ? .butt : lc == 3 ? .square : .round }
    static func lineJoin(_ lj: Int) -> CAShapeLayerLineJoin { lj == 1 ? .miter : lj == 3 ? .bevel : .round }

    /// The dash lengths and phase at a frame (nil: solid).
    static func dashes(_ style: LottieStrokeStyle, atFrame f: Double) -> (pattern: [NSNumber]?, phase: CGFloat) {
        var lengths: [Double] = [], phase = 0.0
        for d in style.dashes {
            let v = LottieGroupTransform.at(d.value.value(atFrame: f), 0)
            if d.kind == "o" { phase = v } else { lengths.append(v) }
        }
        guard !lengths.isEmpty, lengths.allSatisfy({ $0 >= 0 }), lengths.reduce(0, +) > 0 else { return (nil, 0) }
        if lengths.count % 2 == 1 { lengths += lengths }
        return (lengths.map { NSNumber(value: $0) }, CGFloat(phase))
    }

    static func dashLengthsAnimated(_ style: LottieStrokeStyle) -> Bool {
        style.dashes.contains { $0.kind != "o" && $0.value.isAnimated }
    }

    static func dashOffset(_ style: LottieStrokeStyle) -> LottieAnimated<LottieVector>? {
        style.dashes.first { $0.kind == "o" }?.value
    }

    /// Sets the stroke parameters of `layer` (a stroke layer or a gradient stroke's mask):
    /// width track, cap, join, miter limit, static dashes and the dash phase track.
    static func applyStroke(_ style: LottieStrokeStyle, to layer: CAShapeLayer, clock: LottieClock, context: LottieMappingContext) {
        let width = LottieAnimationBuilder.track(keyPath: "lineWidth", style.width, clock: clock) {
            NSNumber(value: max(LottieGroupTransform.at($0, 0), 0))
        }
        context.apply(width, to: layer, keyPath: "lineWidth")
        layer.lineCap = lineCap(style.lineCap)
        layer.lineJoin = lineJoin(style.lineJoin)
        layer.miterLimit = CGFloat(style.miterLimit.isFinite ? max(style.miterLimit, 1) : 4)
        guard !style.dashes.isEmpty, !dashLengthsAnimated(style) else { return }
        let (pattern, phase) = dashes(style, atFrame: clock.localFrame(atRoot: clock.start))
        layer.lineDashPattern = pattern
        layer.lineDashPhase = phase
        if pattern != nil, let offset = dashOffset(style), offset.isAnimated {
            let track = LottieAnimationBuilder.track(keyPath: "lineDashPhase", offset, clock: clock) {
                NSNumber(value: LottieGroupTransform.at($0, 0))
            }
            context.apply(track, to: layer, keyPath: "lineDashPhase")
        }
    }

    /// The largest stroke width over the property's keyframes (for gradient bounds).
    static func maximumWidth(_ style: LottieStrokeStyle) -> Double {
        style.width.keyframes.map { max(LottieGroupTransform.at($0.value, 0), 0) }.max() ?? 0
    }
}
