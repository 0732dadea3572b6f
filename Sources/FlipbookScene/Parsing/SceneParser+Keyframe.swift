import Flipbook
import Foundation
/// `CAKeyframeAnimation` fields and paths.
extension SceneParser {
    static func keyframe(_ o: _SceneObject, _ ctx: _SceneParseContext, requiresKeyPath: Bool,
                         actionKey: String?) throws(SceneError) -> AnimationDescription.KeyframeAnimation {
        let (fields, valueKind) = try property(o, requiresKeyPath: requiresKeyPath, actionKey: actionKey)
        var k = AnimationDescription.KeyframeAnimation(property: fields)
        if let v = o["values"] {
            guard let valueKind else { throw v.fail("\"values\" needs a \"keyPath\" to know their type") }
            var values: [SceneValue] = []
            for item in try v.array() { values.append(try value(item, valueKind, ctx)) }
            guard !values.isEmpty else { throw v.fail("expected at least one value") }
            k.values = values
        }
        if let p = o["path"] {
            if let valueKind, valueKind != .point { throw p.fail("a path animates a point key path (position, anchorPoint …), not \(fields.keyPath ?? "this key")") }
            k.path = try path(p)
        }
        guard k.values != nil || k.path != nil else { throw o.node.fail("a keyframe animation needs \"values\" or \"path\"") }
        let count = k.values?.count
        if let t = o["keyTimes"] {
            var times: [Double] = []
            for item in try t.array() {
                let v = try item.number(in: 0...1, "a key time between 0 and 1")
                if let last = times.last, v < last { throw item.fail("key times must not decrease (\(_SceneNode.format(v)) after \(_SceneNode.format(last)))") }
                times.append(v)
            }
            if k.path == nil, let count, times.count != count {
                throw t.fail("expected \(count) key times (one per value), got \(times.count)")
            }
            k.keyTimes = times
        }
        if let t = o["timingFunctions"] {
            var fns: [TimingFunctionDescription] = []
            for item in try t.array() { fns.append(try timingFunction(item)) }
            if k.path == nil, let count, fns.count != max(count - 1, 0) {
                throw t.fail("expected \(max(count - 1, 0)) timing functions (one per interval between values), got \(fns.count)")
            }
            k.timingFunctions = fns
        }
        k.calculationMode = (try o["calculationMode"]?.choice(["linear", "discrete", "paced", "cubic", "cubicPaced"], "calculation mode"))
            .map(CAAnimationCalculationMode.init(rawValue:))
        k.rotationMode = (try o["rotationMode"]?.choice(["auto", "autoReverse"], "rotation mode"))
            .map(CAAnimationRotationMode.init(rawValue:))
        for (key, assign) in [("tensionValues", 0), ("continuityValues", 1), ("biasValues", 2)] {
            guard let v = o[key] else { continue }
            var numbers: [Double] = []
            for item in try v.array() { numbers.append(try item.number()) }
            if let count, numbers.count != count, k.path == nil {
                throw v.fail("expected \(count) numbers (one per value), got \(numbers.count)")
            }
            switch assign {
            case 0: k.tensionValues = numbers
            case 1: k.continuityValues = numbers
            default: k.biasValues = numbers
            }
        }
        return k
    }

    /// `[{"move": [x, y]}, {"line": [x, y]}, {"quad": [cx, cy, x, y]},
    ///   {"curve": [c1x, c1y, c2x, c2y, x, y]}, "close"]`; the first element must be a move.
    ///
    /// Or a string of SVG path data (`"M10 10 C 20 0, 40 0, 50 10 Z"`, see ``SVGPathData``).
    static func path(_ n: _SceneNode) throws(SceneError) -> CGPath {
        if case let .string(d) = n.json.value {
            do { return try SVGPathData.path(from: d) } catch { throw n.fail(error.description) }
        }
        var out: [_PathElement] = []
        for item in try n.array() {
            if case .string("close") = item.json.value {
                out.append(.closeSubpath)
            } else {
                let o = try item.object(allowed: ["move", "line", "quad", "curve"])
                guard o.members.count == 1, let m = o.members.first else {
                    throw item.fail("expected one of move, line, quad, curve, or \"close\"")
                }
                let v = o[m.key]!
                switch m.key {
                case "move": let p = try v.numbers(count: 2, "a point [x, y]"); out.append(.moveToPoint(CGPoint(x: p[0], y: p[1])))
                case "line": let p = try v.numbers(count: 2, "a point [x, y]"); out.append(.addLineToPoint(CGPoint(x: p[0], y: p[1])))
                case "quad":
                    let p = try v.numbers(count: 4, "4 numbers [cx, cy, x, y]")
                    out.append(.addQuadCurveToPoint(control: CGPoint(x: p[0], y: p[1]), to: CGPoint(x: p[2], y: p[3])))
                default:
                    let p = try v.numbers(count: 6, "6 numbers [c1x, c1y, c2x, c2y, x, y]")
                    out.append(.addCurveToPoint(control1: CGPoint(x: p[0], y: p[1]), control2: CGPoint(x: p[2], y: p[3]), to: CGPoint(x: p[4], y: p[5])))
                }
            }
            if out.count == 1, case .moveToPoint = out[0] {} else if out.count == 1 {
                throw item.fail("a path must start with {\"move\": [x, y]}")
            }
        }
        guard !out.isEmpty else { throw n.fail("expected at least one path element") }
        return CGPath(elements: out)
    }
}
