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
/// | difference `f` | `|α − m|` | luminance mask, `"differenceBlendMode"` |
/// | none `n` | `α` | skipped |
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
        for (i, m) in active where m.feather.map({ $0.keyframes.contains { $0.value.contains { $0 != 0 } } }) ?? false {
            context.warn("mask feather", path: "\(path)[\(i)].f", "mask feather is not drawn: the mask has a hard edge")
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
                    "l": "lightenBlendMode", "d": "darkenBlendMode", "f": "differenceBlendMode",
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

    /// The mask path filled in `color`, grown (stroked `2x` wide, round joins) or shrunk (the
    /// stroke cut out) by the expansion `x`.
    static func expandedShape(_ mask: LottieMask, color: CGColor, path: String, clock: LottieClock,
                              context: LottieMappingContext) -> CALayer {
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
