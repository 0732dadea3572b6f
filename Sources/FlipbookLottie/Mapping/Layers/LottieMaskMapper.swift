import Foundation
import Flipbook

/// A layer's masks (`masksProperties`) → one `mask` layer.
///
/// After Effects combines a layer's masks in order into one coverage `α` (0 before the first,
/// 1 when the first is a subtract mask). Each mask contributes `m = cov · o` — the path's
/// coverage times the mask opacity — or `(1 − cov) · o` when inverted, and its mode says how:
///
/// | mode | α′ | Core Animation |
/// |---|---|---|
/// | add `a` | `α + m − α·m` | a white `CAShapeLayer`, source-over |
/// | subtract `s` | `α · (1 − m)` | `compositingFilter = "destinationOut"` |
/// | intersect `i` | `α · m` | `"destinationIn"` |
/// | lighten `l` | `max(α, m)` | luminance mask, `"lightenBlendMode"` |
/// | darken `d` | `min(α, m)` | luminance mask, `"darkenBlendMode"` |
/// | difference `f` | `α + m − 2·α·m` | luminance mask, `"exclusionBlendMode"` |
/// | none `n` | `α` | skipped |
///
/// Difference is the exclusive or of the coverages, as ThorVG's mask difference composes them
/// (where both are opaque nothing is left, where one is, it is; with partial opacities the
/// "exclusion" formula, not `|α − m|`). lottie-web draws lighten, darken and difference as
/// add; Skottie clips opaque difference masks with the paths' exclusive or.
///
/// The first mask is added to nothing (so, as in ThorVG, a first intersect, lighten, darken or
/// difference mask is the mask itself), except a first subtract mask, which cuts a full layer.
/// Add, subtract and intersect are Porter–Duff operators on the mask layer's **alpha**; the
/// blend modes act on colour only (their alpha is always the union), so when a layer uses
/// lighten, darken or difference the masks are drawn as an opaque **grayscale** image instead
/// (every mask an isolated, opaque group of value `m` — or `1 − m` for subtract, composited
/// with `"multiplyBlendMode"`; add is `"screenBlendMode"`, intersect multiply) and the owner
/// reads its mask's **luminance** (``Result/luminance``).
///
/// - The path is a `path` keyframe animation; the opacity an `opacity` animation.
/// - Inverted masks: an isolated group of a full white rectangle with the path cut out
///   (`"destinationOut"`).
/// - Expansion `x`: the path filled and stroked `2x` wide with round joins (growing), or the
///   stroke cut out of the fill (shrinking); `lineWidth` is animated. An expansion that changes
///   sign is drawn from both at once, sampled per frame.
/// - Feather `f`: approximated by a Gaussian blur of σ = 0.38 f (f the mean of x and y; Skottie's
///   factor, "close enough to After Effects": the 10–90 % ramp of such a blur is about f wide): a layer
///   drawing only its shadow, the mask path as `shadowPath` (warned: not exact).
/// - "Full" is a square of ``everywhere`` points around the layer's origin.
package enum LottieMaskMapper {
    /// The mask layer and how the owner reads it.
    package struct Result {
        package var layer: CALayer
        /// Read the mask's luminance (`_maskMode = .luminance`) rather than its alpha.
        package var luminance: Bool
    }

    /// The half-size of the rectangle standing for "everywhere" (inverted masks, a first
    /// subtract mask, the grayscale backgrounds), in the layer's own points.
    package static let everywhere: CGFloat = 100_000

    /// The mask of `masks` (nil when every mask is `n` or there are none).
    package static func makeMask(for masks: [LottieMask], path: String, clock: LottieClock,
                                 context: LottieMappingContext) -> Result? {
        let active = masks.enumerated().filter { $0.element.mode != "n" }
        guard let firstMode = active.first?.element.mode else { return nil }
        for (i, m) in active where !["a", "s", "i", "l", "d", "f"].contains(m.mode) {
            context.warn("mask mode", path: "\(path)[\(i)]", "mask mode \"\(m.mode)\" is not a Lottie mode; drawn as add")
        }
        for (i, m) in active where isFeathered(m) {
            context.warn("mask feather", path: "\(path)[\(i)].f",
                         "mask feather is approximated by a Gaussian blur of σ = 0.38 × feather"
                         + (m.expansion.keyframes.contains { $0.value.first != 0 } ? "; its expansion is not drawn" : ""))
        }
        let luminance = active.contains { ["l", "d", "f"].contains($0.element.mode) }
        let container = plainLayer()
        container.name = "masks"
        if luminance {
            container.addSublayer(fullRect(gray: firstMode == "s" ? 1 : 0))
        } else if firstMode == "s" {
            container.addSublayer(fullRect(gray: 1))
        }
        for (n, (i, mask)) in active.enumerated() {
            let mode = n == 0 && mask.mode != "s" ? "a" : mask.mode
            let item: CALayer
            if luminance {
                // An opaque gray group of value m (1 − m for subtract).
                let subtract = mode == "s"
                item = plainLayer()
                item.addSublayer(fullRect(gray: subtract ? 1 : 0))
                item.addSublayer(coverage(mask, gray: subtract ? 0 : 1, path: "\(path)[\(i)]", clock: clock, context: context))
                item.compositingFilter = [
                    "a": "screenBlendMode", "s": "multiplyBlendMode", "i": "multiplyBlendMode",
                    "l": "lightenBlendMode", "d": "darkenBlendMode", "f": "exclusionBlendMode",
                ][mode] ?? "screenBlendMode"
            } else {
                item = coverage(mask, gray: 1, path: "\(path)[\(i)]", clock: clock, context: context)
                switch mode {
                case "s": item.compositingFilter = "destinationOut"
                case "i": item.compositingFilter = "destinationIn"
                default: break
                }
            }
            container.addSublayer(item)
        }
        return Result(layer: container, luminance: luminance)
    }

    /// A layer at the owner's origin that draws nothing itself.
    static func plainLayer() -> CALayer {
        let l = CALayer()
        l.anchorPoint = .zero
        l.bounds = .zero
        l.position = .zero
        return l
    }

    /// An opaque gray square of ``everywhere`` points around the origin.
    static func fullRect(gray: CGFloat, alpha: CGFloat = 1) -> CALayer {
        let l = CALayer()
        l.anchorPoint = .zero
        l.position = CGPoint(x: -everywhere, y: -everywhere)
        l.bounds = CGRect(x: 0, y: 0, width: 2 * everywhere, height: 2 * everywhere)
        l.backgroundColor = CGColor(red: gray, green: gray, blue: gray, alpha: alpha)
        return l
    }

    /// The layer drawing one mask's contribution `m` in `gray` (alpha m): the path (grown or
    /// shrunk by the expansion), or the inverse of it, at the mask's opacity.
    static func coverage(_ mask: LottieMask, gray: CGFloat, path: String, clock: LottieClock,
                         context: LottieMappingContext) -> CALayer {
        let color = CGColor(red: gray, green: gray, blue: gray, alpha: 1)
        let shape = expandedShape(mask, color: color, path: path, clock: clock, context: context)
        let out: CALayer
        if mask.inverted {
            // Everything but the path: an isolated group, the path cut out of a full square.
            out = plainLayer()
            out.addSublayer(fullRect(gray: gray))
            shape.compositingFilter = "destinationOut"
            out.addSublayer(shape)
            out.compositingFilter = "sourceOver"   // its own group: the cut stays inside it
        } else {
            out = shape
        }
        context.apply(LottieAnimationBuilder.track(keyPath: "opacity", mask.opacity, clock: clock) {
            NSNumber(value: Float(min(max(($0.first ?? 100) / 100, 0), 1)))
        }, to: out, keyPath: "opacity")
        return out
    }

    /// σ of the blur standing for a feather of 1 point (Skottie's factor).
    static let featherToSigma = 0.38

    /// True when the mask has a feather that is not zero somewhere.
    static func isFeathered(_ m: LottieMask) -> Bool {
        m.feather?.keyframes.contains { $0.value.contains { $0 != 0 } } ?? false
    }

    /// A feathered mask: a layer that draws nothing but its shadow, whose `shadowPath` is the
    /// mask path and whose `shadowRadius` (the Gaussian's σ) is 0.38 × the feather (the mean of
    /// its x and y): the path's coverage blurred — After Effects' feather, approximated.
    static func featheredShape(_ mask: LottieMask, color: CGColor, clock: LottieClock, context: LottieMappingContext) -> CALayer {
        let l = CALayer()
        l.anchorPoint = .zero
        l.bounds = .zero
        l.position = .zero
        l.shadowColor = color
        l.shadowOpacity = 1
        l.shadowOffset = .zero
        context.apply(LottieAnimationBuilder.track(keyPath: "shadowPath", mask.path, clock: clock) { $0.cgPath() as CGPath },
                      to: l, keyPath: "shadowPath")
        if let f = mask.feather {
            context.apply(LottieAnimationBuilder.track(keyPath: "shadowRadius", f, clock: clock) { v in
                let mean = v.isEmpty ? 0 : v.prefix(2).reduce(0, +) / Double(min(v.count, 2))
                return NSNumber(value: max(mean, 0) * featherToSigma)
            }, to: l, keyPath: "shadowRadius")
        }
        return l
    }

    /// The mask path filled in `color`, grown (stroked `2x` wide, round joins) or shrunk (the
    /// stroke cut out) by the expansion `x`; or feathered (``featheredShape(_:color:clock:context:)``).
    static func expandedShape(_ mask: LottieMask, color: CGColor, path: String, clock: LottieClock,
                              context: LottieMappingContext) -> CALayer {
        if isFeathered(mask) { return featheredShape(mask, color: color, clock: clock, context: context) }
        func shapeLayer() -> CAShapeLayer {
            let s = CAShapeLayer()
            s.anchorPoint = .zero
            s.bounds = .zero
            s.position = .zero
            s.lineJoin = .round
            context.apply(LottieAnimationBuilder.track(keyPath: "path", mask.path, clock: clock) { $0.cgPath() as CGPath },
                          to: s, keyPath: "path")
            return s
        }
        let fill = shapeLayer()
        fill.fillColor = color
        let values = mask.expansion.keyframes.map { $0.value.first ?? 0 }
        let grows = values.contains { $0 > 0 }, shrinks = values.contains { $0 < 0 }
        guard grows || shrinks else { return fill }
        // Stroke widths: one track each for growing (2·max(x, 0)) and shrinking (2·max(−x, 0)).
        // A single-signed expansion keeps the file's keyframes and easing; one that changes
        // sign is sampled per whole frame (exact there).
        func widthTrack(sign: Double) -> LottieAnimationBuilder.Track {
            // (A remapped clock samples every property per frame already.)
            let property = grows && shrinks && clock.isAffine ? sampled(mask.expansion, clock: clock) : mask.expansion
            return LottieAnimationBuilder.track(keyPath: "lineWidth", property, clock: clock) {
                NSNumber(value: 2 * max(sign * ($0.first ?? 0), 0))
            }
        }
        if grows {
            fill.strokeColor = color
            context.apply(widthTrack(sign: 1), to: fill, keyPath: "lineWidth")
        }
        guard shrinks else { return fill }
        let group = plainLayer()
        group.addSublayer(fill)
        let cut = shapeLayer()
        cut.fillColor = nil
        cut.strokeColor = color
        cut.compositingFilter = "destinationOut"
        context.apply(widthTrack(sign: -1), to: cut, keyPath: "lineWidth")
        group.addSublayer(cut)
        group.compositingFilter = "sourceOver"   // its own group: the cut stays inside it
        return group
    }

    /// `property` as linear keyframes at every whole root frame of `clock` (in local frames).
    static func sampled(_ property: LottieAnimated<LottieVector>, clock: LottieClock) -> LottieAnimated<LottieVector> {
        let roots = LottieTransformMapper.sampleTimes(clock).roots
        var keyframes: [LottieKeyframe<LottieVector>] = []
        for r in roots {
            let f = clock.localFrame(atRoot: r)
            if let last = keyframes.last, f <= last.time { continue }
            keyframes.append(LottieKeyframe(time: f, value: property.value(atFrame: f)))
        }
        return keyframes.isEmpty ? property : LottieAnimated(keyframes: keyframes)
    }
}
