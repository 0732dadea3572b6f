/// `timeline` events, transactions and their steps.
extension SceneParser {
    static let transactionKeys = ["duration", "timingFunction", "disableActions", "do", "completion"]

    /// `{"at": t, <transaction keys>}`.
    static func event(_ n: _SceneNode, _ ctx: _SceneParseContext) throws(SceneError) -> EventDescription {
        let o = try n.object(allowed: ["at"] + transactionKeys)
        let at = try o.required("at", "the event's time in seconds").number()
        return EventDescription(time: at, transaction: try transaction(o, ctx))
    }

    static func transaction(_ o: _SceneObject, _ ctx: _SceneParseContext) throws(SceneError) -> TransactionDescription {
        var t = TransactionDescription()
        t.duration = try nonNegative(o["duration"])
        t.timingFunction = try o["timingFunction"].map(timingFunction)
        t.disableActions = try o["disableActions"]?.bool()
        if let steps = o["do"] {
            for item in try steps.array() { t.steps.append(try step(item, ctx)) }
        }
        if let c = o["completion"] {
            t.completion = Box(try transaction(c.object(allowed: transactionKeys), ctx))
        }
        return t
    }

    /// One step; its kind is given by which of `set`, `add`, `remove`, `animate`,
    /// `removeAnimation`, `transaction` it has.
    static func step(_ n: _SceneNode, _ ctx: _SceneParseContext) throws(SceneError) -> StepDescription {
        let kinds = ["set", "add", "remove", "animate", "removeAnimation", "transaction"]
        guard case let .object(members) = n.json.value else { throw n.expected("a step object") }
        let present = kinds.filter { k in members.contains { $0.key == k } }
        guard present.count == 1 else {
            if present.isEmpty, let m = members.first(where: { !["layer", "to", "index", "key", "animation"].contains($0.key) }) {
                _ = try n.object(allowed: kinds + ["layer", "to", "index", "key", "animation"])
                throw n.fail("unknown step \"\(m.key)\"", line: m.keyLine)
            }
            throw n.fail(present.isEmpty ? "expected a step: one of \(kinds.joined(separator: ", "))"
                                         : "expected one step per object, got \(present.joined(separator: " and "))")
        }
        switch present[0] {
        case "set":
            let o = try n.object(allowed: ["set", "layer"])
            let name = try layerReference(o.required("layer", "the name of the layer to change"), ctx)
            var props: [PropertyValue] = []
            for m in try o.required("set", "").dictionary() {
                let k = try keyPath(m.key, m.value)
                props.append(PropertyValue(k, try value(m.value, SceneKeyPath.kinds[k]!, ctx)))
            }
            return .set(layer: name, properties: props)
        case "add":
            let o = try n.object(allowed: ["add", "to", "index"])
            let a = o["add"]!
            let source: LayerAddition.Source
            if case .string = a.json.value { source = .existing(try layerReference(a, ctx)) } else {
                source = .new(try layer(a, ctx, isRoot: false))
            }
            let parent = try o["to"].map { p throws(SceneError) in try layerReference(p, ctx) } ?? "root"
            var index: Int?
            if let i = o["index"] {
                index = try i.integer()
                guard index! >= 0 else { throw i.fail("expected an index >= 0, got \(index!)") }
            }
            return .add(LayerAddition(source: source, parent: parent, index: index, line: n.json.line))
        case "remove":
            let o = try n.object(allowed: ["remove"])
            return .remove(layer: try layerReference(o["remove"]!, ctx))
        case "animate":
            let o = try n.object(allowed: ["animate", "key", "animation"])
            let name = try layerReference(o["animate"]!, ctx)
            var a = try animation(o.required("animation", "the animation to add"), ctx, requiresKeyPath: true)
            if let k = o["key"] {
                guard a.key == nil else { throw k.fail("the key is given twice (here and in the animation)") }
                a.key = try k.string()
            }
            return .addAnimation(layer: name, animation: a)
        case "removeAnimation":
            let o = try n.object(allowed: ["removeAnimation", "key"])
            return .removeAnimation(layer: try layerReference(o["removeAnimation"]!, ctx), key: try o["key"]?.string())
        default:
            let o = try n.object(allowed: ["transaction"])
            let inner = o["transaction"]!
            return .transaction(try transaction(inner.object(allowed: transactionKeys), ctx))
        }
    }

    /// A layer name that must be declared somewhere in the scene (checked at the end).
    static func layerReference(_ n: _SceneNode, _ ctx: _SceneParseContext) throws(SceneError) -> String {
        let name = try n.string()
        ctx.reference(name, at: n)
        return name
    }
}
