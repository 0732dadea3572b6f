import Foundation

/// Animated properties: `{"a": 0|1, "k": value | [keyframe], "x": expression}`.
extension LottieParser {
    /// Reads an animated property through `value`, which reads one value (the static `k`, or
    /// a keyframe's `s`/`e`).
    ///
    /// - `k` is keyframes when it is a non-empty array whose first element is an object with a
    ///   `t` (whatever `a` says: files with `a: 0` and keyframes exist, and `a: 1` with a static
    ///   value); otherwise it is the static value.
    /// - A keyframe's value is its `s`; without `s` it is the previous keyframe's `e` (the old
    ///   format's end value; the last keyframe often has only `t`), else the previous
    ///   keyframe's value. The first keyframe must have `s`.
    /// - Keyframe times must not decrease; at most ``LottieLimits/maximumKeyframes`` keyframes.
    /// - `x` (an expression) is kept and warned about: it is not evaluated.
    static func animated<V>(_ node: _LottieNode, _ cx: _LottieParseContext,
                            value: (_LottieNode) throws(LottieError) -> V) throws(LottieError) -> LottieAnimated<V> {
        let o = try node.object()
        var expression: String?
        if let x = o["x"] {
            expression = try x.string()
        }
        let k = try o.required("k", "the value or keyframes")
        if expression != nil {
            let keyframed: Bool = { if case let .array(items) = k.json.value, items.first?["t"] != nil { return true }; return false }()
            cx.warn("expression", node, keyframed ? "expression not evaluated; its keyframes are used" : "expression not evaluated; its static value is used")
        }
        guard case let .array(items) = k.json.value, let first = items.first, first["t"] != nil else {
            return LottieAnimated(keyframes: [LottieKeyframe(time: 0, value: try value(k))], expression: expression)
        }
        guard items.count <= cx.limits.maximumKeyframes else {
            throw k.fail("\(items.count) keyframes; the limit is \(cx.limits.maximumKeyframes) per property", kind: .tooLarge)
        }
        var keyframes: [LottieKeyframe<V>] = []
        keyframes.reserveCapacity(items.count)
        var previousEnd: V?
        for (i, item) in items.enumerated() {
            let kn = k.element(i, item)
            let ko = try kn.object()
            let tNode = try ko.required("t", "the keyframe's frame")
            let t = try tNode.number()
            if let last = keyframes.last, t < last.time {
                throw tNode.fail("keyframe times must not decrease: \(_LottieNode.format(t)) after \(_LottieNode.format(last.time))")
            }
            let v: V
            if let s = ko["s"] {
                v = try value(s)
            } else if let e = previousEnd {
                v = e
            } else if let last = keyframes.last {
                v = last.value
            } else {
                throw kn.fail("missing required key \"s\" (the keyframe's value)")
            }
            previousEnd = try ko["e"].map { (e) throws(LottieError) in try value(e) }
            var keyframe = LottieKeyframe(time: t, value: v)
            keyframe.hold = try ko["h"]?.flag() ?? false
            keyframe.outEase = try ease(ko["o"])
            keyframe.inEase = try ease(ko["i"])
            keyframe.spatialOut = try ko["to"]?.numbers()
            keyframe.spatialIn = try ko["ti"]?.numbers()
            keyframes.append(keyframe)
        }
        return LottieAnimated(keyframes: keyframes, expression: expression)
    }

    /// An easing handle `{"x": n | [n…], "y": n | [n…]}`: one point per dimension when arrays
    /// are given (the shorter list's last entry repeated), one point for all otherwise. Empty
    /// when absent or when either list is empty.
    static func ease(_ node: _LottieNode?) throws(LottieError) -> [CGPoint] {
        guard let node else { return [] }
        let o = try node.object()
        let xs = try o["x"]?.numbers() ?? []
        let ys = try o["y"]?.numbers() ?? []
        guard !xs.isEmpty, !ys.isEmpty else { return [] }
        return (0..<max(xs.count, ys.count)).map { i in
            CGPoint(x: xs[min(i, xs.count - 1)], y: ys[min(i, ys.count - 1)])
        }
    }

    // MARK: Typed properties

    /// A number or vector property with at least `minimumCount` numbers per value (1 for
    /// scalars, 2 for points and sizes, 3 for colours): the mapping may index that many.
    /// A value with fewer numbers (a real file's anchor `[9.7]`, say) is padded with zeros, with
    /// a warning, as the players read it; an empty one is an error.
    static func vector(_ node: _LottieNode, _ cx: _LottieParseContext, minimumCount: Int = 1) throws(LottieError) -> LottieAnimated<LottieVector> {
        try animated(node, cx) { (n) throws(LottieError) in try paddedVector(n, cx, minimumCount: minimumCount) }
    }

    static func paddedVector(_ n: _LottieNode, _ cx: _LottieParseContext, minimumCount: Int) throws(LottieError) -> LottieVector {
        let v = try vectorValue(n, minimumCount: 1)
        guard v.count < minimumCount else { return v }
        cx.warn("short value", n, "expected \(minimumCount) numbers, got \(v.count); the missing ones read as 0")
        return v + Array(repeating: 0, count: minimumCount - v.count)
    }

    /// The optional property `key` of `o`, or `fallback` when absent.
    static func vector(_ o: _LottieObject, _ key: String, _ cx: _LottieParseContext, default fallback: LottieVector,
                       minimumCount: Int = 1) throws(LottieError) -> LottieAnimated<LottieVector> {
        guard let n = o[key] else { return LottieAnimated(fallback) }
        return try vector(n, cx, minimumCount: minimumCount)
    }

    static func vectorValue(_ n: _LottieNode, minimumCount: Int) throws(LottieError) -> LottieVector {
        let v = try n.numbers()
        guard v.count >= minimumCount else {
            throw n.fail("expected at least \(minimumCount) \(minimumCount == 1 ? "number" : "numbers"), got \(v.count)")
        }
        return v
    }

    /// A colour property `[r, g, b(, a)]`, 0–1; values written 0–255 (r, g and b all above 1,
    /// lottie-ios's test) are divided by 255 (alpha too when above 1).
    static func color(_ node: _LottieNode, _ cx: _LottieParseContext) throws(LottieError) -> LottieAnimated<LottieVector> {
        try animated(node, cx) { (n) throws(LottieError) in normalizedColor(try paddedVector(n, cx, minimumCount: 3)) }
    }

    static func normalizedColor(_ c: [Double]) -> [Double] {
        guard c.count >= 3, c[0] > 1, c[1] > 1, c[2] > 1 else { return c }
        return c.enumerated().map { $0.offset < 3 || $0.element > 1 ? $0.element / 255 : $0.element }
    }

    /// A bezier shape property (`ks` of a path, `pt` of a mask).
    static func bezierProperty(_ node: _LottieNode, _ cx: _LottieParseContext) throws(LottieError) -> LottieAnimated<LottieBezier> {
        try animated(node, cx) { (n) throws(LottieError) in try bezier(n) }
    }

    /// `{"c": closed, "v": [[x, y]…], "i": […], "o": […]}`, or an array holding one (the
    /// keyframe form `"s": [{…}]`). `i` and `o` default to zero tangents; when given they have
    /// one entry per vertex.
    static func bezier(_ n: _LottieNode) throws(LottieError) -> LottieBezier {
        if n.isArray {
            let items = try n.array()
            guard let first = items.first else { throw n.fail("expected a bezier shape object or an array holding one, got an empty array") }
            return try bezier(first)
        }
        let o = try n.object()
        let closed = try o["c"]?.flag() ?? false
        let vertices = try points(try o.required("v", "the vertices"))
        func tangents(_ key: String, _ what: String) throws(LottieError) -> [CGPoint] {
            guard let t = o[key] else { return Array(repeating: .zero, count: vertices.count) }
            let p = try points(t)
            guard p.count == vertices.count else { throw t.fail("expected \(vertices.count) \(what) (one per vertex), got \(p.count)") }
            return p
        }
        return LottieBezier(closed: closed, vertices: vertices,
                            inTangents: try tangents("i", "in tangents"), outTangents: try tangents("o", "out tangents"))
    }

    /// `[[x, y]…]` (extra coordinates ignored).
    static func points(_ n: _LottieNode) throws(LottieError) -> [CGPoint] {
        var out: [CGPoint] = []
        for p in try n.array() {
            let v = try p.numbers()
            guard v.count >= 2, p.isArray else { throw p.fail("expected a point [x, y], got \(p.isArray ? "\(v.count) number" : p.json.typeDescription)") }
            out.append(CGPoint(x: v[0], y: v[1]))
        }
        return out
    }
}
