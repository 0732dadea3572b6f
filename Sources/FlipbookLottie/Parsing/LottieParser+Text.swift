/// Text layers (`t`), fonts (`fonts.list`) and glyphs (`chars`).
extension LottieParser {
    /// `t`: `d.k[]` text document keyframes `{t, s}` (required, at least one), `m.a` grouping
    /// alignment, `a[]` animators (counted), `p` path options (`p.m` set: text on a path).
    static func textData(_ node: _LottieNode, _ cx: _LottieParseContext) throws(LottieError) -> LottieTextData {
        let o = try node.object()
        let d = try o.required("d", "the text documents {k: [{t, s}]}")
        let k = try (try d.object()).required("k", "the text document keyframes")
        let items = try k.array()
        guard !items.isEmpty else { throw k.fail("expected at least one text document keyframe") }
        guard items.count <= cx.limits.maximumKeyframes else {
            throw k.fail("\(items.count) keyframes; the limit is \(cx.limits.maximumKeyframes) per property", kind: .tooLarge)
        }
        var entries: [LottieTextData.Entry] = []
        for item in items {
            let io = try item.object()
            let t = try io["t"]?.number() ?? 0
            if let last = entries.last, t < last.time, let tn = io["t"] {
                throw tn.fail("keyframe times must not decrease: \(_LottieNode.format(t)) after \(_LottieNode.format(last.time))")
            }
            entries.append(.init(time: t, document: try textDocument(try io.required("s", "the text document"))))
        }
        var data = LottieTextData(documents: entries)
        if let m = o["m"], let a = try m.object()["a"] { data.alignment = try vector(a, cx, minimumCount: 2).initialValue }
        if let a = o["a"] { data.animatorCount = try a.array().count }
        if let p = o["p"] { data.hasPath = try p.object().has("m") }
        return data
    }

    /// `d.k[].s`: `t`, `f`, `s` required; `j`, `tr`, `lh`, `ls`, `fc`, `sc` (colours, 0–255
    /// scaled like shape colours), `sw`, `of`, `sz`, `ps`, `ca` optional.
    static func textDocument(_ node: _LottieNode) throws(LottieError) -> LottieTextDocument {
        let o = try node.object()
        var doc = LottieTextDocument(text: try o.required("t", "the text").string(),
                                     fontName: try o.required("f", "the font name (fonts.list[].fName)").string(),
                                     size: try o.required("s", "the font size").number())
        doc.justification = try o["j"]?.integer() ?? 0
        doc.tracking = try o["tr"]?.number() ?? 0
        doc.lineHeight = try o["lh"]?.number()
        doc.baselineShift = try o["ls"]?.number() ?? 0
        if let fc = o["fc"] { doc.fillColor = normalizedColor(try vectorValue(fc, minimumCount: 3)) }
        if let sc = o["sc"] { doc.strokeColor = normalizedColor(try vectorValue(sc, minimumCount: 3)) }
        doc.strokeWidth = try o["sw"]?.number() ?? 0
        doc.strokeOverFill = try o["of"]?.flag() ?? false
        if let sz = o["sz"] { doc.boxSize = try vectorValue(sz, minimumCount: 2) }
        if let ps = o["ps"] { doc.boxPosition = try vectorValue(ps, minimumCount: 2) }
        doc.caps = try o["ca"]?.integer() ?? 0
        return doc
    }

    /// `fonts: {list: [{fName, fFamily, fStyle, ascent, fPath, origin}]}`: `fName` required,
    /// `fFamily` defaults to it, `fStyle` to "".
    static func fonts(_ node: _LottieNode) throws(LottieError) -> [LottieFont] {
        guard let list = try node.object()["list"] else { return [] }
        var out: [LottieFont] = []
        for f in try list.array() {
            let o = try f.object()
            let name = try o.required("fName", "the font's name").string()
            out.append(LottieFont(name: name, family: try o["fFamily"]?.string() ?? name, style: try o["fStyle"]?.string() ?? "",
                                  ascent: try o["ascent"]?.number(), path: try o["fPath"]?.string(), origin: try o["origin"]?.integer()))
        }
        return out
    }

    /// `chars[]`: `ch`, `size`, `w` required; `fFamily`, `style` default ""; `data.shapes`
    /// default empty.
    static func glyphs(_ node: _LottieNode, _ cx: _LottieParseContext) throws(LottieError) -> [LottieGlyph] {
        var out: [LottieGlyph] = []
        for g in try node.array() {
            let o = try g.object()
            var shapes: [LottieShapeItem] = []
            if let data = o["data"], let s = try data.object()["shapes"] { shapes = try shapeItems(s, cx) }
            out.append(LottieGlyph(character: try o.required("ch", "the character").string(),
                                   family: try o["fFamily"]?.string() ?? "", style: try o["style"]?.string() ?? "",
                                   size: try o.required("size", "the size the glyph is drawn at").number(),
                                   advance: try o.required("w", "the glyph's advance").number(), shapes: shapes))
        }
        return out
    }
}
