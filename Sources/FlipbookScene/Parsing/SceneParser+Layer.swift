import Flipbook
/// Layer objects, `actions` dictionaries and `style`.
extension SceneParser {
    /// Keys a layer object accepts: every `CALayer` property plus the tree and behaviour keys.
    static let layerKeys = [
        "name", "bounds", "position", "frame", "anchorPoint", "anchorPointZ", "zPosition", "transform",
        "sublayerTransform", "backgroundColor", "cornerRadius", "maskedCorners", "borderWidth", "borderColor",
        "opacity", "isHidden", "masksToBounds", "isDoubleSided", "allowsGroupOpacity", "contents",
        "contentsRect", "contentsCenter", "contentsGravity", "contentsScale", "minificationFilter",
        "magnificationFilter", "shadowColor", "shadowOpacity", "shadowOffset", "shadowRadius",
        "mask", "sublayers", "animations", "actions", "style", "class",
        "allowsEdgeAntialiasing", "isGeometryFlipped", "cornerCurve",
    ] + shapeLayerKeys + gradientLayerKeys + replicatorLayerKeys + emitterLayerKeys + textLayerKeys

    /// The keys of `CATextLayer`'s own properties (allowed with `"class": "text"`).
    static let textLayerKeys = ["string", "font", "fontSize", "foregroundColor", "isWrapped", "truncationMode", "alignmentMode"]

    /// The keys of `CAEmitterLayer`'s own properties (allowed with `"class": "emitter"`).
    static let emitterLayerKeys = ["emitterCells", "birthRate", "lifetime", "velocity", "scale", "spin", "seed",
                                   "emitterPosition", "emitterZPosition", "emitterSize", "emitterDepth",
                                   "emitterShape", "emitterMode", "renderMode"]

    /// The keys of `CAReplicatorLayer`'s own properties (allowed with `"class": "replicator"`).
    static let replicatorLayerKeys = ["instanceCount", "instanceDelay", "instanceTransform", "instanceColor",
                                      "instanceRedOffset", "instanceGreenOffset", "instanceBlueOffset",
                                      "instanceAlphaOffset", "preservesDepth"]

    /// The keys of `CAGradientLayer`'s own properties (allowed with `"class": "gradient"`).
    static let gradientLayerKeys = ["colors", "locations", "startPoint", "endPoint", "type"]

    /// The keys of `CAShapeLayer`'s own properties (allowed with `"class": "shape"`).
    static let shapeLayerKeys = [
        "path", "fillColor", "fillRule", "strokeColor", "lineWidth", "miterLimit", "lineCap", "lineJoin",
        "lineDashPattern", "lineDashPhase", "strokeStart", "strokeEnd",
    ]

    static func layer(_ n: _SceneNode, _ ctx: _SceneParseContext, isRoot: Bool) throws(SceneError) -> LayerDescription {
        let o = try n.object(allowed: layerKeys)
        var l = LayerDescription()
        if let c = o["class"] {
            l.layerClass = SceneLayerClass(rawValue: try c.choice(SceneLayerClass.allCases.map(\.rawValue), "layer class"))!
        }
        if l.layerClass != .shape, let k = shapeLayerKeys.first(where: { o.has($0) }) {
            throw o[k]!.fail("\"\(k)\" is a shape-layer property; add \"class\": \"shape\" to this layer")
        }
        if l.layerClass != .emitter, let k = emitterLayerKeys.first(where: { o.has($0) }) {
            throw o[k]!.fail("\"\(k)\" is an emitter-layer property; add \"class\": \"emitter\" to this layer")
        }
        if l.layerClass != .replicator, l.layerClass != .emitter || !o.has("preservesDepth"),
           let k = replicatorLayerKeys.first(where: { o.has($0) }) {
            throw o[k]!.fail("\"\(k)\" is a replicator-layer property; add \"class\": \"replicator\" to this layer")
        }
        if l.layerClass != .gradient, let k = gradientLayerKeys.first(where: { o.has($0) }) {
            throw o[k]!.fail("\"\(k)\" is a gradient-layer property; add \"class\": \"gradient\" to this layer")
        }
        if l.layerClass != .text, let k = textLayerKeys.first(where: { o.has($0) }) {
            throw o[k]!.fail("\"\(k)\" is a text-layer property; add \"class\": \"text\" to this layer")
        }
        if isRoot {
            for k in ["name", "bounds", "position", "frame", "sublayers"] where o.has(k) {
                throw o[k]!.fail(k == "sublayers" ? "the root's sublayers go in the top-level \"layers\""
                                                  : "the root layer's \(k) is set by the output settings")
            }
        }
        if let v = o["name"] {
            let name = try v.string()
            guard !name.isEmpty else { throw v.fail("expected a non-empty name") }
            try ctx.declare(name, at: v)
            l.name = name
        }
        if let f = o["frame"] {
            for k in ["bounds", "position"] where o.has(k) { throw f.fail("give \"frame\" or \"\(k)\", not both") }
            l.frame = try rect(f)
        }
        l.bounds = try o["bounds"].map(rect)
        l.position = try o["position"].map(point)
        l.anchorPoint = try o["anchorPoint"].map(point)
        l.anchorPointZ = try o["anchorPointZ"]?.number()
        l.zPosition = try o["zPosition"]?.number()
        l.transform = try o["transform"].map(transform)
        l.sublayerTransform = try o["sublayerTransform"].map(transform)
        if let v = o["backgroundColor"] { l.backgroundColor = .some(try color(v, allowsNull: true)) }
        l.cornerRadius = try nonNegative(o["cornerRadius"])
        l.maskedCorners = try o["maskedCorners"].map(corners)
        l.borderWidth = try nonNegative(o["borderWidth"])
        if let v = o["borderColor"] { l.borderColor = .some(try color(v, allowsNull: true)) }
        l.opacity = try o["opacity"]?.number(in: 0...1, "an opacity between 0 and 1")
        l.isHidden = try o["isHidden"]?.bool()
        l.masksToBounds = try o["masksToBounds"]?.bool()
        l.isDoubleSided = try o["isDoubleSided"]?.bool()
        l.allowsGroupOpacity = try o["allowsGroupOpacity"]?.bool()
        l.allowsEdgeAntialiasing = try o["allowsEdgeAntialiasing"]?.bool()
        l.isGeometryFlipped = try o["isGeometryFlipped"]?.bool()
        if let v = o["cornerCurve"] { l.cornerCurve = CALayerCornerCurve(rawValue: try v.choice(["circular", "continuous"], "corner curve")) }
        if let v = o["contents"], !v.isNull { l.contents = try ctx.image(v) }
        l.contentsRect = try o["contentsRect"].map(rect)
        l.contentsCenter = try o["contentsCenter"].map(rect)
        if case let .gravity(g)? = try o["contentsGravity"].map({ v throws(SceneError) in try value(v, .gravity, ctx) }) { l.contentsGravity = g }
        if let v = o["contentsScale"] {
            let s = try v.number()
            guard s > 0 else { throw v.fail("expected a positive contents scale, got \(_SceneNode.format(s))") }
            l.contentsScale = s
        }
        if case let .filter(f)? = try o["minificationFilter"].map({ v throws(SceneError) in try value(v, .filter, ctx) }) { l.minificationFilter = f }
        if case let .filter(f)? = try o["magnificationFilter"].map({ v throws(SceneError) in try value(v, .filter, ctx) }) { l.magnificationFilter = f }
        if let v = o["shadowColor"] { l.shadowColor = .some(try color(v, allowsNull: true)) }
        l.shadowOpacity = try o["shadowOpacity"]?.number(in: 0...1, "an opacity between 0 and 1")
        l.shadowOffset = try o["shadowOffset"].map(size)
        l.shadowRadius = try nonNegative(o["shadowRadius"])
        try shapeProperties(o, ctx, into: &l)
        try gradientProperties(o, ctx, into: &l)
        if l.layerClass == .text { try textProperties(o, ctx, into: &l) }
        if let v = o["instanceCount"] {
            let n = try v.number()
            guard n >= 0, n <= 10_000, n == n.rounded() else { throw v.fail("expected a whole number of instances from 0 to 10000, got \(_SceneNode.format(n))") }
            l.instanceCount = Int(n)
        }
        l.instanceDelay = try o["instanceDelay"]?.number()
        l.instanceTransform = try o["instanceTransform"].map(transform)
        if let v = o["instanceColor"] { l.instanceColor = .some(try color(v, allowsNull: true)) }
        l.instanceRedOffset = try o["instanceRedOffset"]?.number()
        l.instanceGreenOffset = try o["instanceGreenOffset"]?.number()
        l.instanceBlueOffset = try o["instanceBlueOffset"]?.number()
        l.instanceAlphaOffset = try o["instanceAlphaOffset"]?.number()
        l.preservesDepth = try o["preservesDepth"]?.bool()
        if l.layerClass == .emitter { try emitterProperties(o, ctx, into: &l) }
        if let m = o["mask"] { l.mask = Box(try layer(m, ctx, isRoot: false)) }
        if let s = o["sublayers"] {
            for item in try s.array() { l.sublayers.append(try layer(item, ctx, isRoot: false)) }
        }
        if let a = o["animations"] {
            for item in try a.array() { l.animations.append(try animation(item, ctx, requiresKeyPath: true)) }
        }
        if let a = o["actions"] { l.actions = try actions(a, ctx) }
        if let s = o["style"] { l.style = try style(s, ctx) }
        return l
    }

    /// `CAShapeLayer`'s properties (the parser already checked the layer is a shape layer).
    static func shapeProperties(_ o: _SceneObject, _ ctx: _SceneParseContext, into l: inout LayerDescription) throws(SceneError) {
        if let v = o["path"] { l.path = .some(v.isNull ? nil : try shapePath(v)) }
        if let v = o["fillColor"] { l.fillColor = .some(try color(v, allowsNull: true)) }
        if let v = o["strokeColor"] { l.strokeColor = .some(try color(v, allowsNull: true)) }
        if case let .fillRule(r)? = try o["fillRule"].map({ v throws(SceneError) in try value(v, .fillRule, ctx) }) { l.fillRule = r }
        if case let .lineCap(c)? = try o["lineCap"].map({ v throws(SceneError) in try value(v, .lineCap, ctx) }) { l.lineCap = c }
        if case let .lineJoin(j)? = try o["lineJoin"].map({ v throws(SceneError) in try value(v, .lineJoin, ctx) }) { l.lineJoin = j }
        l.lineWidth = try nonNegative(o["lineWidth"])
        l.miterLimit = try nonNegative(o["miterLimit"])
        if case let .numbers(d)? = try o["lineDashPattern"].map({ v throws(SceneError) in try value(v, .numbers, ctx) }) { l.lineDashPattern = .some(d) }
        l.lineDashPhase = try o["lineDashPhase"]?.number()
        l.strokeStart = try o["strokeStart"]?.number(in: 0...1, "a fraction between 0 and 1")
        l.strokeEnd = try o["strokeEnd"]?.number(in: 0...1, "a fraction between 0 and 1")
    }

    /// `CAGradientLayer`'s properties (the parser already checked the layer is a gradient layer).
    static func gradientProperties(_ o: _SceneObject, _ ctx: _SceneParseContext, into l: inout LayerDescription) throws(SceneError) {
        if case let .colors(c)? = try o["colors"].map({ v throws(SceneError) in try value(v, .colors, ctx) }) { l.colors = .some(c) }
        if case let .locations(x)? = try o["locations"].map({ v throws(SceneError) in try value(v, .locations, ctx) }) { l.locations = .some(x) }
        l.startPoint = try o["startPoint"].map(point)
        l.endPoint = try o["endPoint"].map(point)
        if case let .gradientType(t)? = try o["type"].map({ v throws(SceneError) in try value(v, .gradientType, ctx) }) { l.gradientType = t }
    }

    /// `CATextLayer`'s properties (the parser already checked the layer is a text layer).
    static func textProperties(_ o: _SceneObject, _ ctx: _SceneParseContext, into l: inout LayerDescription) throws(SceneError) {
        if let v = o["string"] { l.string = .some(v.isNull ? nil : try v.string()) }
        if let v = o["font"] { l.font = try ctx.font(v) }
        if let v = o["fontSize"] {
            let s = try v.number()
            guard s >= 0, s <= 10_000 else { throw v.fail("expected a font size from 0 to 10000, got \(_SceneNode.format(s))") }
            l.fontSize = s
        }
        if let v = o["foregroundColor"] { l.foregroundColor = .some(try color(v, allowsNull: true)) }
        l.isWrapped = try o["isWrapped"]?.bool()
        if let v = o["truncationMode"] {
            l.truncationMode = CATextLayerTruncationMode(rawValue: try v.choice(["none", "start", "middle", "end"], "truncation mode"))
        }
        if let v = o["alignmentMode"] {
            l.alignmentMode = CATextLayerAlignmentMode(rawValue: try v.choice(["natural", "left", "right", "center", "justified"], "alignment mode"))
        }
    }

    /// `CAEmitterLayer`'s properties and cells.
    static func emitterProperties(_ o: _SceneObject, _ ctx: _SceneParseContext, into l: inout LayerDescription) throws(SceneError) {
        for k in ["birthRate", "lifetime", "velocity", "scale", "spin", "seed", "emitterZPosition", "emitterDepth"] {
            if let v = o[k] { l.emitterNumbers[k] = try v.number() }
        }
        if let v = l.emitterNumbers["seed"], !(v >= 0 && v <= Double(UInt32.max) && v == v.rounded()) {
            throw o["seed"]!.fail("expected a whole number from 0 to 4294967295, got \(_SceneNode.format(v))")
        }
        l.emitterPosition = try o["emitterPosition"].map(point)
        l.emitterSize = try o["emitterSize"].map(size)
        if let v = o["emitterShape"] { l.emitterShape = CAEmitterLayerEmitterShape(rawValue: try v.choice(["point", "line", "rectangle", "cuboid", "circle", "sphere"], "emitter shape")) }
        if let v = o["emitterMode"] { l.emitterMode = CAEmitterLayerEmitterMode(rawValue: try v.choice(["points", "outline", "surface", "volume"], "emitter mode")) }
        if let v = o["renderMode"] { l.renderMode = CAEmitterLayerRenderMode(rawValue: try v.choice(["unordered", "oldestFirst", "oldestLast", "backToFront", "additive"], "render mode")) }
        if let v = o["emitterCells"] {
            l.emitterCells = []
            for item in try v.array() { l.emitterCells!.append(try emitterCell(item, ctx)) }
        }
    }

    /// One `CAEmitterCell` object (nested cells in its own `emitterCells`).
    static func emitterCell(_ n: _SceneNode, _ ctx: _SceneParseContext) throws(SceneError) -> EmitterCellDescription {
        let o = try n.object(allowed: EmitterCellDescription.numberKeys + ["name", "enabled", "isEnabled", "color", "contents", "contentsRect", "emitterCells"])
        var c = EmitterCellDescription()
        c.name = try o["name"]?.string()
        c.isEnabled = try (o["isEnabled"] ?? o["enabled"])?.bool()
        for k in EmitterCellDescription.numberKeys {
            guard let v = o[k] else { continue }
            let x = try scalar(v)
            if ["birthRate", "lifetime", "contentsScale"].contains(k), !(x >= 0) {
                throw v.fail("expected a number >= 0, got \(_SceneNode.format(x))")
            }
            c.numbers[k] = x
        }
        if let v = o["color"] { c.color = .some(try color(v, allowsNull: true)) }
        if let v = o["contents"], !v.isNull { c.contents = try ctx.image(v) }
        c.contentsRect = try o["contentsRect"].map(rect)
        if let v = o["emitterCells"] { for item in try v.array() { c.emitterCells.append(try emitterCell(item, ctx)) } }
        return c
    }

    static func nonNegative(_ n: _SceneNode?) throws(SceneError) -> Double? {
        guard let n else { return nil }
        let v = try n.number()
        guard v >= 0 else { throw n.fail("expected a number >= 0, got \(_SceneNode.format(v))") }
        return v
    }

    /// `{"event key": null | animation, …}`. Keys are action event names: property key paths
    /// (`position`, `opacity` …) or `onOrderIn`, `onOrderOut`, `onLayout`, `onDraw`, `contents`,
    /// `sublayers`, and any custom key (Core Animation allows any string).
    static func actions(_ n: _SceneNode, _ ctx: _SceneParseContext) throws(SceneError) -> [String: ActionDescription] {
        var out: [String: ActionDescription] = [:]
        for m in try n.dictionary() {
            guard !m.key.isEmpty else { throw m.value.fail("an action key must not be empty", line: m.keyLine) }
            out[m.key] = m.value.isNull ? ActionDescription.none : .animation(try animation(m.value, ctx, requiresKeyPath: false, actionKey: m.key))
        }
        return out
    }

    /// `{"actions": {…}, "style": {…}, "<key path>": value, …}`.
    static func style(_ n: _SceneNode, _ ctx: _SceneParseContext) throws(SceneError) -> StyleDescription {
        var s = StyleDescription()
        for m in try n.dictionary() {
            switch m.key {
            case "actions": s.actions = try actions(m.value, ctx)
            case "style": s.style = Box(try style(m.value, ctx))
            default:
                guard let k = SceneKeyPath.canonical(m.key) else {
                    var msg = "unknown key \"\(m.key)\"; a style holds \"actions\", \"style\" and property key paths"
                    if let near = _SceneNode.suggestion(for: m.key, in: Array(SceneKeyPath.kinds.keys).sorted() + ["actions", "style"]) {
                        msg = "unknown key \"\(m.key)\" (did you mean \"\(near)\"?)"
                    }
                    throw n.fail(msg, line: m.keyLine)
                }
                s.properties.append(PropertyValue(k, try value(m.value, SceneKeyPath.kinds[k]!, ctx)))
            }
        }
        return s
    }
}
