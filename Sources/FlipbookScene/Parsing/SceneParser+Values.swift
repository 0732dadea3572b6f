import Flipbook
import Foundation
/// Property values: numbers, points, colours, transforms, timing functions …
extension SceneParser {
    static func point(_ n: _SceneNode) throws(SceneError) -> CGPoint {
        let v = try n.numbers(count: 2, "a point [x, y]")
        return CGPoint(x: v[0], y: v[1])
    }

    static func size(_ n: _SceneNode) throws(SceneError) -> CGSize {
        let v = try n.numbers(count: 2, "a size [width, height]")
        return CGSize(width: v[0], height: v[1])
    }

    static func rect(_ n: _SceneNode) throws(SceneError) -> CGRect {
        let v = try n.numbers(count: 4, "a rectangle [x, y, width, height]")
        return CGRect(x: v[0], y: v[1], width: v[2], height: v[3])
    }

    /// A scalar: a number, or `{"degrees": d}` converted to radians (`d · π / 180`).
    static func scalar(_ n: _SceneNode) throws(SceneError) -> Double {
        if case .object = n.json.value {
            let o = try n.object(allowed: ["degrees"])
            return try o.required("degrees", "an angle in degrees").number() * .pi / 180
        }
        return try n.number()
    }

    /// `"#rrggbb"`, `"#rrggbbaa"`, `"clear"`, `"black"`, `"white"`, or 3–4 numbers in 0…1.
    /// `null` gives `nil` when `allowsNull`.
    static func color(_ n: _SceneNode, allowsNull: Bool) throws(SceneError) -> CGColor? {
        let expectation = "a colour (\"#rrggbb\", \"#rrggbbaa\" or [r, g, b, a] with components 0…1)"
        switch n.json.value {
        case .null:
            guard allowsNull else { throw n.expected(expectation) }
            return nil
        case let .string(s):
            switch s {
            case "clear": return CGColor(srgbRed: 0, green: 0, blue: 0, alpha: 0)
            case "black": return CGColor(srgbRed: 0, green: 0, blue: 0, alpha: 1)
            case "white": return CGColor(srgbRed: 1, green: 1, blue: 1, alpha: 1)
            default: break
            }
            let hex = Array(s.utf8.dropFirst())
            guard s.hasPrefix("#"), hex.count == 6 || hex.count == 8,
                  let value = UInt32(String(decoding: hex, as: UTF8.self), radix: 16) else {
                throw n.fail("invalid colour \"\(s)\"; expected \"#rrggbb\" or \"#rrggbbaa\" (hex digits)")
            }
            let v = hex.count == 6 ? value << 8 | 0xFF : value
            func c(_ shift: UInt32) -> Double { Double((v >> shift) & 0xFF) / 255 }
            return CGColor(srgbRed: c(24), green: c(16), blue: c(8), alpha: c(0))
        case let .array(items):
            guard items.count == 3 || items.count == 4 else {
                throw n.fail("expected a colour [r, g, b] or [r, g, b, a], got \(items.count) elements")
            }
            var c: [Double] = []
            for (i, item) in items.enumerated() {
                c.append(try n.element(i, item).number(in: 0...1, "a colour component between 0 and 1"))
            }
            return CGColor(srgbRed: c[0], green: c[1], blue: c[2], alpha: c.count == 4 ? c[3] : 1)
        default:
            throw n.expected(expectation)
        }
    }

    /// 16 numbers (row-major `m11 … m44`), `"identity"`, or a list of operations applied in
    /// order (the first listed acts first: the matrix is `op₁ · op₂ · …`).
    static func transform(_ n: _SceneNode) throws(SceneError) -> CATransform3D {
        if case .string("identity") = n.json.value { return CATransform3DIdentity }
        guard case let .array(items) = n.json.value else {
            throw n.expected("a transform (16 numbers, \"identity\" or a list of operations)")
        }
        if items.isEmpty { return CATransform3DIdentity }
        if case .number = items[0].value {
            return CATransform3D(try n.numbers(count: 16, "16 numbers").map { CGFloat($0) })
        }
        var m = CATransform3DIdentity
        for op in try n.array() { m = m * (try operation(op)) }
        return m
    }

    /// One transform operation object.
    static func operation(_ n: _SceneNode) throws(SceneError) -> CATransform3D {
        let o = try n.object(allowed: ["rotate", "axis", "scale", "translate", "perspective", "matrix"])
        let kinds = ["rotate", "scale", "translate", "perspective", "matrix"].filter { o.has($0) }
        guard kinds.count == 1 else {
            throw n.fail(kinds.isEmpty ? "expected one of rotate, scale, translate, perspective, matrix"
                                       : "expected exactly one operation, got \(kinds.joined(separator: " and "))")
        }
        if o.has("axis"), kinds[0] != "rotate" { throw n.fail("\"axis\" goes with \"rotate\" only") }
        let v = o[kinds[0]]!
        switch kinds[0] {
        case "rotate":
            let degrees = try v.number()
            let axis = try o["axis"].map { a throws(SceneError) in try a.numbers(count: 3, "an axis [x, y, z]") } ?? [0, 0, 1]
            guard axis != [0, 0, 0] else { throw o["axis"]!.fail("the rotation axis must not be [0, 0, 0]") }
            return CATransform3DMakeRotation(degrees * .pi / 180, axis[0], axis[1], axis[2])
        case "scale":
            if case .number = v.json.value { let s = try v.number(); return CATransform3DMakeScale(s, s, 1) }
            let s = try vector(v, "a scale (a number, [sx, sy] or [sx, sy, sz])", default: 1)
            return CATransform3DMakeScale(s[0], s[1], s[2])
        case "translate":
            let t = try vector(v, "a translation [tx, ty] or [tx, ty, tz]", default: 0)
            return CATransform3DMakeTranslation(t[0], t[1], t[2])
        case "perspective":
            let d = try v.number()
            guard d > 0 else { throw v.fail("expected a positive eye distance, got \(_SceneNode.format(d))") }
            var m = CATransform3DIdentity
            m.m34 = -1 / d
            return m
        default:
            return CATransform3D(try v.numbers(count: 16, "16 numbers").map { CGFloat($0) })
        }
    }

    /// 2 or 3 numbers; the third defaults to `default`.
    static func vector(_ n: _SceneNode, _ what: String, default z: Double) throws(SceneError) -> [Double] {
        guard case let .array(items) = n.json.value else { throw n.expected(what) }
        guard items.count == 2 || items.count == 3 else { throw n.fail("expected \(what), got \(items.count) elements") }
        var out: [Double] = []
        for (i, item) in items.enumerated() { out.append(try n.element(i, item).number()) }
        return out.count == 3 ? out : out + [z]
    }

    /// A timing-function name or `[c1x, c1y, c2x, c2y]` (x values in 0…1).
    static func timingFunction(_ n: _SceneNode) throws(SceneError) -> TimingFunctionDescription {
        if case .string = n.json.value {
            let names = ["linear", "easeIn", "easeOut", "easeInEaseOut", "default"]
            return .named(CAMediaTimingFunctionName(rawValue: try n.choice(names, "timing function")))
        }
        guard case .array = n.json.value else {
            throw n.expected("a timing function (a name or [c1x, c1y, c2x, c2y])")
        }
        let p = try n.numbers(count: 4, "4 control-point numbers [c1x, c1y, c2x, c2y]")
        for i in [0, 2] where !(0...1).contains(p[i]) {
            throw n.fail("control-point x values must be between 0 and 1, got \(_SceneNode.format(p[i]))")
        }
        return .controlPoints(p[0], p[1], p[2], p[3])
    }

    static let gravityNames = CALayerContentsGravity.allCases.map(\.rawValue)
    static let filterNames = ["linear", "nearest", "trilinear"]
    static let cornerNames: [String: CACornerMask] = [
        "minXMinY": .layerMinXMinYCorner, "maxXMinY": .layerMaxXMinYCorner,
        "minXMaxY": .layerMinXMaxYCorner, "maxXMaxY": .layerMaxXMaxYCorner,
        "layerMinXMinYCorner": .layerMinXMinYCorner, "layerMaxXMinYCorner": .layerMaxXMinYCorner,
        "layerMinXMaxYCorner": .layerMinXMaxYCorner, "layerMaxXMaxYCorner": .layerMaxXMaxYCorner,
    ]

    /// `"all"` or a list of corner names (`minXMinY` … or Apple's `layerMinXMinYCorner` …).
    static func corners(_ n: _SceneNode) throws(SceneError) -> CACornerMask {
        if case .string("all") = n.json.value { return .all }
        var mask: CACornerMask = []
        for item in try n.array() {
            mask.insert(cornerNames[try item.choice(Array(cornerNames.keys).sorted(), "corner")]!)
        }
        return mask
    }

    /// A value of the given kind.
    static func value(_ n: _SceneNode, _ kind: SceneValueKind, _ ctx: _SceneParseContext) throws(SceneError) -> SceneValue {
        switch kind {
        case .number: return .number(try scalar(n))
        case .point: return .point(try point(n))
        case .size: return .size(try size(n))
        case .rect: return .rect(try rect(n))
        case .color: return .color(try color(n, allowsNull: true))
        case .transform: return .transform(try transform(n))
        case .bool: return .bool(try n.bool())
        case .image: return .image(n.isNull ? nil : try ctx.image(n))
        case .gravity: return .gravity(CALayerContentsGravity(rawValue: try n.choice(gravityNames, "contents gravity")))
        case .filter: return .filter(CALayerContentsFilter(rawValue: try n.choice(filterNames, "filter")))
        case .corners: return .corners(try corners(n))
        case .string: return .string(n.isNull ? nil : try n.string())
        case .vector3:
            let v = try n.numbers(count: 3, "[x, y, z]")
            return .vector3(v[0], v[1], v[2])
        case .path: return .path(n.isNull ? nil : try shapePath(n))
        case .numbers:
            if n.isNull { return .numbers(nil) }
            var out: [Double] = []
            for item in try n.array() {
                let v = try item.number()
                guard v >= 0 else { throw item.fail("expected a dash length >= 0, got \(_SceneNode.format(v))") }
                out.append(v)
            }
            return .numbers(out)
        case .fillRule:
            // The Swift names; Apple's raw values ("non-zero", "even-odd") are accepted too.
            let r = try n.choice(["nonZero", "evenOdd", "non-zero", "even-odd"], "fill rule")
            return .fillRule(r.hasPrefix("non") ? .nonZero : .evenOdd)
        case .lineCap: return .lineCap(CAShapeLayerLineCap(rawValue: try n.choice(["butt", "round", "square"], "line cap")))
        case .lineJoin: return .lineJoin(CAShapeLayerLineJoin(rawValue: try n.choice(["miter", "round", "bevel"], "line join")))
        case .colors:
            if n.isNull { return .colors(nil) }
            var out: [CGColor] = []
            for item in try n.array() {
                guard let c = try color(item, allowsNull: false) else { throw item.expected("a colour") }
                out.append(c)
            }
            return .colors(out)
        case .locations:
            if n.isNull { return .locations(nil) }
            var out: [Double] = []
            for item in try n.array() { out.append(try item.number()) }
            return .locations(out)
        case .gradientType:
            return .gradientType(CAGradientLayerType(rawValue: try n.choice(["axial", "radial", "conic"], "gradient type")))
        }
    }

    /// A canonical key path from a string node.
    static func keyPath(_ n: _SceneNode) throws(SceneError) -> String {
        try keyPath(n.string(), n)
    }

    static func keyPath(_ s: String, _ n: _SceneNode) throws(SceneError) -> String {
        guard let k = SceneKeyPath.canonical(s) else {
            var m = "unknown key path \"\(s)\""
            if let near = _SceneNode.suggestion(for: s, in: Array(SceneKeyPath.kinds.keys).sorted()) { m += " (did you mean \"\(near)\"?)" }
            throw n.fail(m)
        }
        return k
    }
}
