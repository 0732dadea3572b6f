import Flipbook
/// Animation objects (`"class": "basic" | "keyframe" | "spring" | "group" | "transition"`).
extension SceneParser {
    static let timingKeys = ["class", "key", "beginTime", "duration", "speed", "timeOffset", "repeatCount",
                             "repeatDuration", "autoreverses", "fillMode", "timingFunction", "isRemovedOnCompletion"]
    static let propertyKeys = ["keyPath", "isAdditive", "isCumulative", "valueFunction"]
    static let basicKeys = ["fromValue", "toValue", "byValue"]
    static let keyframeKeys = ["values", "path", "keyTimes", "timingFunctions", "calculationMode", "rotationMode",
                               "tensionValues", "continuityValues", "biasValues"]
    static let springKeys = ["mass", "stiffness", "damping", "initialVelocity"]
    static let valueFunctions = ["rotateX", "rotateY", "rotateZ", "scale", "scaleX", "scaleY", "scaleZ",
                                 "translate", "translateX", "translateY", "translateZ"]

    /// - Parameter actionKey: for an action's animation, the event key; the animation may then
    ///   omit `keyPath` (Core Animation fills it in) and its values are typed by that key.
    static func animation(_ n: _SceneNode, _ ctx: _SceneParseContext, requiresKeyPath: Bool,
                          actionKey: String? = nil) throws(SceneError) -> AnimationDescription {
        guard case .object = n.json.value else { throw n.expected("an animation object") }
        let classNode = try (try n.object(allowed: timingKeys + propertyKeys + basicKeys + keyframeKeys + springKeys
                                              + ["animations", "type", "subtype", "startProgress", "endProgress"]))
            .required("class", "basic, keyframe, spring, group or transition")
        let cls = try classNode.choice(["basic", "keyframe", "spring", "group", "transition"], "animation class")
        var allowed = timingKeys
        switch cls {
        case "basic": allowed += propertyKeys + basicKeys
        case "keyframe": allowed += propertyKeys + keyframeKeys
        case "spring": allowed += propertyKeys + basicKeys + springKeys
        case "group": allowed += ["animations"]
        default: allowed += ["type", "subtype", "startProgress", "endProgress"]
        }
        let o = try n.object(allowed: allowed)

        let kind: AnimationDescription.Kind
        switch cls {
        case "basic", "spring":
            let (fields, valueKind) = try property(o, requiresKeyPath: requiresKeyPath, actionKey: actionKey)
            var b = AnimationDescription.BasicAnimation(property: fields)
            func val(_ key: String) throws(SceneError) -> SceneValue? {
                guard let v = o[key] else { return nil }
                guard let valueKind else { throw v.fail("\"\(key)\" needs a \"keyPath\" to know its type") }
                return try value(v, valueKind, ctx)
            }
            b.fromValue = try val("fromValue"); b.toValue = try val("toValue"); b.byValue = try val("byValue")
            if cls == "basic" { kind = .basic(b) } else {
                var s = AnimationDescription.SpringAnimation(basic: b)
                s.mass = try positive(o["mass"]); s.stiffness = try positive(o["stiffness"])
                s.damping = try nonNegative(o["damping"]); s.initialVelocity = try o["initialVelocity"]?.number()
                kind = .spring(s)
            }
        case "keyframe":
            kind = .keyframe(try keyframe(o, ctx, requiresKeyPath: requiresKeyPath, actionKey: actionKey))
        case "group":
            var members: [AnimationDescription] = []
            for item in try o.required("animations", "the grouped animations").array() {
                members.append(try animation(item, ctx, requiresKeyPath: true))
            }
            kind = .group(members)
        default:
            var t = AnimationDescription.TransitionAnimation(
                type: (try o["type"]?.choice(["fade", "moveIn", "push", "reveal"], "transition type"))
                    .map(CATransitionType.init(rawValue:)) ?? .fade)
            t.subtype = (try o["subtype"]?.choice(["fromLeft", "fromRight", "fromTop", "fromBottom"], "transition subtype"))
                .map(CATransitionSubtype.init(rawValue:))
            t.startProgress = try o["startProgress"]?.number(in: 0...1, "a progress between 0 and 1")
            t.endProgress = try o["endProgress"]?.number(in: 0...1, "a progress between 0 and 1")
            if let s = t.startProgress, let e = t.endProgress, e < s {
                throw o["endProgress"]!.fail("endProgress (\(_SceneNode.format(e))) must not be less than startProgress (\(_SceneNode.format(s)))")
            }
            kind = .transition(t)
        }

        var a = AnimationDescription(key: try o["key"]?.string(), kind: kind)
        a.beginTime = try o["beginTime"]?.number()
        a.duration = try nonNegative(o["duration"])
        a.speed = try o["speed"]?.number()
        a.timeOffset = try o["timeOffset"]?.number()
        if let r = o["repeatCount"] {
            let c = try r.numberOrInfinity()
            guard c >= 0 else { throw r.fail("expected a repeat count >= 0, got \(_SceneNode.format(c))") }
            a.repeatCount = c
        }
        a.repeatDuration = try nonNegative(o["repeatDuration"])
        a.autoreverses = try o["autoreverses"]?.bool()
        a.fillMode = try o["fillMode"].map { v throws(SceneError) in
            CAMediaTimingFillMode(rawValue: try v.choice(["removed", "forwards", "backwards", "both"], "fill mode"))
        }
        a.timingFunction = try o["timingFunction"].map(timingFunction)
        a.isRemovedOnCompletion = try o["isRemovedOnCompletion"]?.bool()
        return a
    }

    static func positive(_ n: _SceneNode?) throws(SceneError) -> Double? {
        guard let n else { return nil }
        let v = try n.number()
        guard v > 0 else { throw n.fail("expected a number > 0, got \(_SceneNode.format(v))") }
        return v
    }

    /// `keyPath`, `isAdditive`, `isCumulative`, `valueFunction`, and the kind of the values.
    static func property(_ o: _SceneObject, requiresKeyPath: Bool, actionKey: String?) throws(SceneError)
        -> (AnimationDescription.PropertyFields, SceneValueKind?) {
        var f = AnimationDescription.PropertyFields()
        var kind: SceneValueKind?
        if let k = o["keyPath"] {
            f.keyPath = try keyPath(k)
            kind = SceneKeyPath.kinds[f.keyPath!]
        } else if requiresKeyPath {
            throw o.node.fail("missing required key \"keyPath\" (the animated property)")
        } else if let actionKey, let k = SceneKeyPath.canonical(actionKey) {
            kind = SceneKeyPath.kinds[k]
        }
        f.isAdditive = try o["isAdditive"]?.bool()
        f.isCumulative = try o["isCumulative"]?.bool()
        if let v = o["valueFunction"] {
            f.valueFunction = CAValueFunctionName(rawValue: try v.choice(valueFunctions, "value function"))
            // A value function's values are its inputs: one number (rotateZ, scaleX …), or
            // [x, y, z] for `scale` and `translate`.
            kind = f.valueFunction == .scale || f.valueFunction == .translate ? .vector3 : .number
        }
        return (f, kind)
    }
}
