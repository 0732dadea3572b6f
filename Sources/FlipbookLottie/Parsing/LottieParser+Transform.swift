/// Transforms: a layer's `ks`, a group's `tr` item, a repeater's `tr`.
extension LottieParser {
    /// Every value is optional and defaults to identity (anchor and position `[0, 0]`, scale
    /// `[100, 100]`, rotation 0, opacity 100). Position is one property `p`, or split: `p`
    /// with `"s": true` and `x`, `y` properties, or `px`, `py` beside it (older exports).
    /// Rotation is `r`, or `rz` (3D layers). `so`/`eo` are read for repeaters.
    static func transform(_ node: _LottieNode, _ cx: _LottieParseContext) throws(LottieError) -> LottieTransform {
        let o = try node.object()
        var t = LottieTransform()
        t.anchor = try vector(o, "a", cx, default: [0, 0], minimumCount: 2)
        if let p = o["p"] {
            let po = try p.object()
            if try po["s"]?.flag() == true {
                t.position = .split(x: try vector(try po.required("x", "the x position (split position)"), cx),
                                    y: try vector(try po.required("y", "the y position (split position)"), cx))
            } else {
                t.position = .combined(try vector(p, cx, minimumCount: 2))
            }
        } else if let px = o["px"], let py = o["py"] {
            t.position = .split(x: try vector(px, cx), y: try vector(py, cx))
        }
        t.scale = try vector(o, "s", cx, default: [100, 100], minimumCount: 2)
        if let r = o["r"] ?? o["rz"] { t.rotation = try vector(r, cx) }
        if let rx = o["rx"] { t.rotationX = try vector(rx, cx) }
        if let ry = o["ry"] { t.rotationY = try vector(ry, cx) }
        t.opacity = try vector(o, "o", cx, default: [100])
        if let sk = o["sk"] { t.skew = try vector(sk, cx) }
        if let sa = o["sa"] { t.skewAxis = try vector(sa, cx) }
        if let so = o["so"] { t.startOpacity = try vector(so, cx) }
        if let eo = o["eo"] { t.endOpacity = try vector(eo, cx) }
        return t
    }
}
