/// Shape items: a shape layer's `shapes`, a group's `it`, a glyph's `data.shapes`.
extension LottieParser {
    static func shapeItems(_ node: _LottieNode, _ cx: _LottieParseContext) throws(LottieError) -> [LottieShapeItem] {
        var out: [LottieShapeItem] = []
        for s in try node.array() { out.append(try shapeItem(s, cx)) }
        return out
    }

    /// One item, by its `ty`. Types Flipbook does not know (`tw`, `zz`, `no` …) are kept as
    /// ``LottieShapeItem/Kind/unknown(type:)`` for the mapping to warn about.
    ///
    /// Defaults where real files omit values (lottie-ios's): opacity 100, rectangle roundness 0,
    /// line cap and join round (2), miter limit 4, fill rule non-zero, gradient type linear,
    /// trim start 0 / end 100 / offset 0, repeater copies 0 and offset 0 stacking above,
    /// merge mode 1, star roundness and rotation 0.
    static func shapeItem(_ node: _LottieNode, _ cx: _LottieParseContext) throws(LottieError) -> LottieShapeItem {
        let o = try node.object()
        let type = try o.required("ty", "the shape item type (gr, rc, el, sr, sh, fl, st, gf, gs, tm, rd, rp, mm, op, pb, tr …)").string()
        let name = try o["nm"]?.string()
        let hidden = try o["hd"]?.flag() ?? false
        let reversed = try o["d"].map { (d) throws(LottieError) in try d.isNumber ? d.integer() == 3 : false } ?? false
        let kind: LottieShapeItem.Kind
        switch type {
        case "gr":
            var items = try o["it"].map { (it) throws(LottieError) in try shapeItems(it, cx) } ?? []
            var transform: LottieTransform?
            if let i = items.lastIndex(where: { if case .transform = $0.kind { return true } else { return false } }),
               case let .transform(t) = items[i].kind {
                transform = t
                items.remove(at: i)
            }
            kind = .group(items: items, transform: transform)
        case "rc":
            kind = .rectangle(LottieRectangle(position: try vector(o, "p", cx, default: [0, 0], minimumCount: 2),
                                              size: try vector(try o.required("s", "the rectangle's size"), cx, minimumCount: 2),
                                              roundness: try vector(o, "r", cx, default: [0]), reversed: reversed))
        case "el":
            kind = .ellipse(LottieEllipse(position: try vector(o, "p", cx, default: [0, 0], minimumCount: 2),
                                          size: try vector(try o.required("s", "the ellipse's size"), cx, minimumCount: 2),
                                          reversed: reversed))
        case "sr":
            let isStar = try (o["sy"]?.integer() ?? 1) != 2
            kind = .polystar(LottiePolystar(
                isStar: isStar,
                position: try vector(o, "p", cx, default: [0, 0], minimumCount: 2),
                outerRadius: try vector(try o.required("or", "the outer radius"), cx),
                outerRoundness: try vector(o, "os", cx, default: [0]),
                innerRadius: isStar ? try vector(try o.required("ir", "the star's inner radius"), cx) : nil,
                innerRoundness: isStar ? try vector(o, "is", cx, default: [0]) : nil,
                rotation: try vector(o, "r", cx, default: [0]),
                points: try vector(try o.required("pt", "the number of points"), cx),
                reversed: reversed))
        case "sh":
            kind = .path(try bezierProperty(try o.required("ks", "the path"), cx), reversed: reversed)
        case "fl":
            kind = .fill(LottieFill(color: try color(try o.required("c", "the fill colour"), cx),
                                    opacity: try vector(o, "o", cx, default: [100]),
                                    evenOdd: try o["r"]?.integer() == 2))
        case "st":
            kind = .stroke(LottieStroke(color: try color(try o.required("c", "the stroke colour"), cx),
                                        opacity: try vector(o, "o", cx, default: [100]),
                                        style: try strokeStyle(o, cx)))
        case "gf":
            kind = .gradientFill(LottieGradientFill(gradient: try gradient(o, cx), opacity: try vector(o, "o", cx, default: [100]),
                                                    evenOdd: try o["r"]?.integer() == 2))
        case "gs":
            kind = .gradientStroke(LottieGradientStroke(gradient: try gradient(o, cx), opacity: try vector(o, "o", cx, default: [100]),
                                                        style: try strokeStyle(o, cx)))
        case "tm":
            kind = .trim(LottieTrim(start: try vector(o, "s", cx, default: [0]), end: try vector(o, "e", cx, default: [100]),
                                    offset: try vector(o, "o", cx, default: [0]), individually: try o["m"]?.integer() == 2))
        case "rd":
            kind = .roundedCorners(radius: try vector(try o.required("r", "the corner radius"), cx))
        case "rp":
            let tr = try o["tr"].map { (t) throws(LottieError) in try transform(t, cx) } ?? LottieTransform()
            kind = .repeater(LottieRepeater(copies: try vector(o, "c", cx, default: [0]), offset: try vector(o, "o", cx, default: [0]),
                                            stacksAbove: try (o["m"]?.integer() ?? 1) != 2, transform: tr))
        case "mm":
            kind = .merge(mode: try o["mm"]?.integer() ?? 1)
        case "op":
            kind = .offsetPath(amount: try vector(o, "a", cx, default: [0]), lineJoin: try o["lj"]?.integer() ?? 1,
                               miterLimit: try vector(o, "ml", cx, default: [4]))
        case "pb":
            kind = .puckerBloat(amount: try vector(o, "a", cx, default: [0]))
        case "zz":
            kind = .zigZag(amplitude: try vector(o, "s", cx, default: [0]), ridges: try vector(o, "r", cx, default: [0]),
                           pointType: try vector(o, "pt", cx, default: [1]))
        case "tr":
            kind = .transform(try transform(node, cx))
        default:
            kind = .unknown(type: type)
        }
        return LottieShapeItem(name: name, hidden: hidden, kind: kind)
    }

    /// `w`, `lc`, `lj`, `ml` (a number) or `ml2` (a property; its first value), `d` dashes.
    static func strokeStyle(_ o: _LottieObject, _ cx: _LottieParseContext) throws(LottieError) -> LottieStrokeStyle {
        var miterLimit = 4.0
        if let ml = o["ml"] {
            miterLimit = ml.isObject ? try vector(ml, cx).initialValue[0] : try ml.number()
        } else if let ml2 = o["ml2"] {
            miterLimit = try vector(ml2, cx).initialValue[0]
        }
        var dashes: [LottieStrokeStyle.Dash] = []
        if let d = o["d"] {
            for entry in try d.array() {
                let eo = try entry.object()
                dashes.append(LottieStrokeStyle.Dash(kind: try eo["n"]?.string() ?? "d",
                                                     value: try vector(try eo.required("v", "the dash length"), cx)))
            }
        }
        return LottieStrokeStyle(width: try vector(o, "w", cx, default: [1]), lineCap: try o["lc"]?.integer() ?? 2,
                                 lineJoin: try o["lj"]?.integer() ?? 2, miterLimit: miterLimit, dashes: dashes)
    }

    /// The gradient of `gf`/`gs`: `t` (1 linear, 2 radial), `s`, `e`, `h`, `a`, `g: {p, k}`.
    /// Every value of `g.k` must hold the `p` colour stops (`4·p` numbers); `p` ≥ 0; at most
    /// ``LottieLimits/maximumGradientStops`` colour stops, and as many opacity stops (the pairs
    /// after the colour stops).
    static func gradient(_ o: _LottieObject, _ cx: _LottieParseContext) throws(LottieError) -> LottieGradient {
        let g = try o.required("g", "the gradient's colour stops {p, k}")
        let go = try g.object()
        let pNode = try go.required("p", "the number of colour stops")
        let count = try pNode.integer()
        guard count >= 0 else { throw pNode.fail("expected a number of colour stops ≥ 0, got \(count)") }
        let limit = cx.limits.maximumGradientStops
        guard count <= limit else { throw pNode.fail("\(count) colour stops; the limit is \(limit)", kind: .tooLarge) }
        let kNode = try go.required("k", "the colour stops")
        let stops = try vector(kNode, cx)
        for (i, kf) in stops.keyframes.enumerated() {
            let at = stops.keyframes.count > 1 ? " (keyframe \(i))" : ""
            guard kf.value.count >= 4 * count else {
                throw kNode.fail("g.p says \(count) colour stops (\(4 * count) numbers) but the value\(at) has \(kf.value.count)")
            }
            let opacityStops = (kf.value.count - 4 * count) / 2
            guard opacityStops <= limit else {
                throw kNode.fail("the value\(at) has \(opacityStops) opacity stops after its \(count) colour stops; the limit is \(limit)", kind: .tooLarge)
            }
        }
        let isRadial = try (o["t"]?.integer() ?? 1) == 2
        return LottieGradient(isRadial: isRadial,
                              start: try vector(o, "s", cx, default: [0, 0], minimumCount: 2),
                              end: try vector(o, "e", cx, default: [0, 0], minimumCount: 2),
                              highlightLength: try o["h"].map { (h) throws(LottieError) in try vector(h, cx) },
                              highlightAngle: try o["a"].map { (a) throws(LottieError) in try vector(a, cx) },
                              colorStopCount: count, stops: stops)
    }
}
