/// Layers: `layers[]` of the composition and of precomposition assets.
extension LottieParser {
    /// `owner`: nil for the main composition, else the precomposition asset's id.
    static func layers(_ node: _LottieNode, owner: String?, _ cx: _LottieParseContext) throws(LottieError) -> [LottieLayer] {
        var out: [LottieLayer] = []
        for l in try node.array() { out.append(try layer(l, owner: owner, cx)) }
        return out
    }

    /// One layer. Required: `ty`, `ks` (for the drawn kinds 0–5), and per kind `refId` (precomposition, image), `sc`,
    /// `sw`, `sh` (solid), `t` (text). Defaults: `ip`/`op` the main composition's, `st` 0,
    /// `sr` 1 (0 is refused: layer time would divide by it), a precomposition layer's `w`/`h`
    /// the main composition's size, `shapes` empty.
    static func layer(_ node: _LottieNode, owner: String?, _ cx: _LottieParseContext) throws(LottieError) -> LottieLayer {
        let o = try node.object()
        let type = try o.required("ty", "the layer type: 0 precomposition, 1 solid, 2 image, 3 null, 4 shape, 5 text").integer()
        let kind: LottieLayer.Kind
        switch type {
        case 0:
            let ref = try o.required("refId", "the precomposition asset's id")
            let refId = try ref.identifier()
            cx.precompReferences.append((owner: owner, refId: refId, node: ref))
            kind = .precomposition(refId: refId, width: try o["w"]?.number() ?? cx.compositionWidth,
                                   height: try o["h"]?.number() ?? cx.compositionHeight)
        case 1:
            kind = .solid(color: try o.required("sc", "the solid's colour, \"#rrggbb\"").string(),
                          width: try o.required("sw", "the solid's width").number(),
                          height: try o.required("sh", "the solid's height").number())
        case 2:
            let ref = try o.required("refId", "the image asset's id")
            let refId = try ref.identifier()
            cx.imageReferences.append((refId: refId, node: ref))
            kind = .image(refId: refId)
        case 3:
            kind = .null
        case 4:
            kind = .shape(try o["shapes"].map { (s) throws(LottieError) in try shapeItems(s, cx) } ?? [])
        case 5:
            kind = .text(try textData(try o.required("t", "the text data"), cx))
        default:
            kind = .other(type: type)
        }
        let inPoint = try o["ip"]?.number() ?? cx.compositionInPoint
        let outPoint = try o["op"]?.number() ?? cx.compositionOutPoint
        // Layers that are not drawn (audio, camera, data …) may lack a transform.
        let ks = (0...5).contains(type) ? try o.required("ks", "the layer's transform") : o["ks"]
        var layer = LottieLayer(kind: kind, inPoint: inPoint, outPoint: outPoint,
                                transform: try ks.map { (k) throws(LottieError) in try transform(k, cx) } ?? LottieTransform())
        layer.name = try o["nm"]?.string()
        layer.index = try o["ind"]?.integer()
        layer.parent = try o["parent"]?.integer()
        layer.startTime = try o["st"]?.number() ?? 0
        if let sr = o["sr"] {
            layer.timeStretch = try sr.number()
            guard layer.timeStretch != 0 else { throw sr.fail("expected a non-zero time stretch, got 0") }
        }
        layer.hidden = try o["hd"]?.flag() ?? false
        layer.blendMode = try o["bm"]?.integer() ?? 0
        layer.is3D = try o["ddd"]?.flag() ?? false
        layer.autoOrient = try o["ao"]?.flag() ?? false
        if let m = o["masksProperties"] { layer.masks = try masks(m, cx) }
        layer.matteMode = try o["tt"]?.integer()
        layer.matteParent = try o["tp"]?.integer()
        layer.isMatteSource = try o["td"]?.flag() ?? false
        if let tm = o["tm"] { layer.timeRemap = try vector(tm, cx) }
        if let ef = o["ef"] {
            for e in try ef.array() {
                let eo = try e.object()
                var effect = LottieEffect(type: try eo["ty"]?.integer() ?? -1, name: try eo["nm"]?.string(),
                                          enabled: try eo["en"]?.flag() ?? true)
                // The controls' values: numbers and colours; anything else (pickers, groups) nil.
                if let controls = eo["ef"], controls.isArray {
                    for c in try controls.array() where c.isObject {
                        guard let v = try c.object()["v"] else { continue }
                        effect.values.append(try? vector(v, cx))
                    }
                }
                layer.effects.append(effect)
            }
        }
        layer.className = try o["cl"]?.string()
        return layer
    }

    /// `masksProperties[]`: `mode` (default "a", add), `inv`, `pt` (required), `o`, `x`, `f`.
    static func masks(_ node: _LottieNode, _ cx: _LottieParseContext) throws(LottieError) -> [LottieMask] {
        var out: [LottieMask] = []
        for m in try node.array() {
            let o = try m.object()
            var mask = LottieMask(mode: try o["mode"]?.string() ?? "a",
                                  path: try bezierProperty(try o.required("pt", "the mask's path"), cx))
            mask.inverted = try o["inv"]?.flag() ?? false
            mask.opacity = try vector(o, "o", cx, default: [100])
            mask.expansion = try vector(o, "x", cx, default: [0])
            if let f = o["f"] { mask.feather = try vector(f, cx) }
            mask.name = try o["nm"]?.string()
            out.append(mask)
        }
        return out
    }
}
