import Flipbook
import Foundation

/// Layers and values: ``LayerDescription`` → `CALayer`, ``SceneValue`` → the KVC value.
extension SceneBuilder {
    /// Builds `d` and its subtree (mask, sublayers), registering named layers. Call inside a
    /// transaction with actions disabled: properties are set before `actions`/`style`, and the
    /// explicit animations are added last.
    func makeLayer(_ d: LayerDescription) -> CALayer {
        let layer: CALayer
        switch d.layerClass {
        case .shape: layer = CAShapeLayer()
        case .gradient: layer = CAGradientLayer()
        case .replicator: layer = CAReplicatorLayer()
        case .transform: layer = CATransformLayer()
        case .emitter: layer = CAEmitterLayer()
        case .text: layer = CATextLayer()
        case .layer: layer = CALayer()
        }
        if let n = d.name { layer.name = n; layersByName[n] = layer }
        apply(d, to: layer)
        if let m = d.mask { layer.mask = makeLayer(m.value) }
        for s in d.sublayers { layer.addSublayer(makeLayer(s)) }
        if let a = d.actions { layer.actions = actions(a) }
        if let s = d.style { layer.style = style(s) }
        for a in d.animations { layer.add(animation(a, eventKey: nil), forKey: a.key) }
        return layer
    }

    /// The layer named `name`: built already, or built now from its description (a layer named
    /// by an event before the event that declares it runs).
    func existingLayer(_ name: String) -> CALayer? {
        if let l = layersByName[name] { return l }
        guard let d = descriptionsByName[name] else { return nil }
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        let l = makeLayer(d)
        CATransaction.commit()
        return l
    }

    /// Sets every property `d` gives, in dependency order (bounds and anchor before `frame`).
    func apply(_ d: LayerDescription, to l: CALayer) {
        if let v = d.bounds { l.bounds = v }
        if let v = d.anchorPoint { l.anchorPoint = v }
        if let v = d.position { l.position = v }
        if let v = d.anchorPointZ { l.anchorPointZ = CGFloat(v) }
        if let v = d.zPosition { l.zPosition = CGFloat(v) }
        if let v = d.transform { l.transform = v }
        if let v = d.frame { l.frame = v }
        if let v = d.sublayerTransform { l.sublayerTransform = v }
        if let v = d.backgroundColor { l.backgroundColor = v }
        if let v = d.cornerRadius { l.cornerRadius = CGFloat(v) }
        if let v = d.maskedCorners { l.maskedCorners = v }
        if let v = d.borderWidth { l.borderWidth = CGFloat(v) }
        if let v = d.borderColor { l.borderColor = v }
        if let v = d.opacity { l.opacity = Float(v) }
        if let v = d.isHidden { l.isHidden = v }
        if let v = d.masksToBounds { l.masksToBounds = v }
        if let v = d.isDoubleSided { l.isDoubleSided = v }
        if let v = d.allowsGroupOpacity { l.allowsGroupOpacity = v }
        if let v = d.allowsEdgeAntialiasing { l.allowsEdgeAntialiasing = v }
        if let v = d.isGeometryFlipped { l.isGeometryFlipped = v }
        if let v = d.cornerCurve { l.cornerCurve = v }
        if let v = d.contents { l.contents = images[v.resolvedPath] }
        if let v = d.contentsRect { l.contentsRect = v }
        if let v = d.contentsCenter { l.contentsCenter = v }
        if let v = d.contentsGravity { l.contentsGravity = v }
        if let v = d.contentsScale { l.contentsScale = CGFloat(v) }
        if let v = d.minificationFilter { l.minificationFilter = v }
        if let v = d.magnificationFilter { l.magnificationFilter = v }
        if let v = d.shadowColor { l.shadowColor = v }
        if let v = d.shadowOpacity { l.shadowOpacity = Float(v) }
        if let v = d.shadowOffset { l.shadowOffset = v }
        if let v = d.shadowRadius { l.shadowRadius = CGFloat(v) }
        if let shape = l as? CAShapeLayer { applyShape(d, to: shape) }
        if let gradient = l as? CAGradientLayer { applyGradient(d, to: gradient) }
        if let text = l as? CATextLayer { applyText(d, to: text) }
        if let r = l as? CAReplicatorLayer {
            if let v = d.instanceCount { r.instanceCount = v }
            if let v = d.instanceDelay { r.instanceDelay = v }
            if let v = d.instanceTransform { r.instanceTransform = v }
            if let v = d.instanceColor { r.instanceColor = v }
            if let v = d.instanceRedOffset { r.instanceRedOffset = Float(v) }
            if let v = d.instanceGreenOffset { r.instanceGreenOffset = Float(v) }
            if let v = d.instanceBlueOffset { r.instanceBlueOffset = Float(v) }
            if let v = d.instanceAlphaOffset { r.instanceAlphaOffset = Float(v) }
            if let v = d.preservesDepth { r.preservesDepth = v }
        }
        if let e = l as? CAEmitterLayer { applyEmitter(d, to: e) }
    }

    func applyEmitter(_ d: LayerDescription, to e: CAEmitterLayer) {
        let n = d.emitterNumbers
        if let v = n["birthRate"] { e.birthRate = Float(v) }
        if let v = n["lifetime"] { e.lifetime = Float(v) }
        if let v = n["velocity"] { e.velocity = Float(v) }
        if let v = n["scale"] { e.scale = Float(v) }
        if let v = n["spin"] { e.spin = Float(v) }
        if let v = n["seed"] { e.seed = UInt32(v) }
        if let v = n["emitterZPosition"] { e.emitterZPosition = CGFloat(v) }
        if let v = n["emitterDepth"] { e.emitterDepth = CGFloat(v) }
        if let v = d.emitterPosition { e.emitterPosition = v }
        if let v = d.emitterSize { e.emitterSize = v }
        if let v = d.emitterShape { e.emitterShape = v }
        if let v = d.emitterMode { e.emitterMode = v }
        if let v = d.renderMode { e.renderMode = v }
        if let v = d.preservesDepth { e.preservesDepth = v }
        if let cells = d.emitterCells { e.emitterCells = cells.map(makeCell) }
    }

    func makeCell(_ d: EmitterCellDescription) -> CAEmitterCell {
        let c = CAEmitterCell()
        c.name = d.name
        if let v = d.isEnabled { c.isEnabled = v }
        for (k, v) in d.numbers {
            switch k {
            case "birthRate": c.birthRate = Float(v)
            case "lifetime": c.lifetime = Float(v)
            case "lifetimeRange": c.lifetimeRange = Float(v)
            case "emissionLatitude": c.emissionLatitude = CGFloat(v)
            case "emissionLongitude": c.emissionLongitude = CGFloat(v)
            case "emissionRange": c.emissionRange = CGFloat(v)
            case "velocity": c.velocity = CGFloat(v)
            case "velocityRange": c.velocityRange = CGFloat(v)
            case "xAcceleration": c.xAcceleration = CGFloat(v)
            case "yAcceleration": c.yAcceleration = CGFloat(v)
            case "zAcceleration": c.zAcceleration = CGFloat(v)
            case "scale": c.scale = CGFloat(v)
            case "scaleRange": c.scaleRange = CGFloat(v)
            case "scaleSpeed": c.scaleSpeed = CGFloat(v)
            case "spin": c.spin = CGFloat(v)
            case "spinRange": c.spinRange = CGFloat(v)
            case "redRange": c.redRange = Float(v)
            case "greenRange": c.greenRange = Float(v)
            case "blueRange": c.blueRange = Float(v)
            case "alphaRange": c.alphaRange = Float(v)
            case "redSpeed": c.redSpeed = Float(v)
            case "greenSpeed": c.greenSpeed = Float(v)
            case "blueSpeed": c.blueSpeed = Float(v)
            case "alphaSpeed": c.alphaSpeed = Float(v)
            case "contentsScale": c.contentsScale = CGFloat(v)
            case "beginTime": c.beginTime = v
            case "duration": c.duration = v
            default: break
            }
        }
        if let v = d.color { c.color = v }
        if let v = d.contents { c.contents = images[v.resolvedPath] }
        if let v = d.contentsRect { c.contentsRect = v }
        if !d.emitterCells.isEmpty { c.emitterCells = d.emitterCells.map(makeCell) }
        return c
    }

    func applyGradient(_ d: LayerDescription, to l: CAGradientLayer) {
        if let v = d.colors { l.colors = v.map { $0.map { $0 as Any } } }
        if let v = d.locations { l.locations = v.map { $0.map { NSNumber(value: $0) } } }
        if let v = d.startPoint { l.startPoint = v }
        if let v = d.endPoint { l.endPoint = v }
        if let v = d.gradientType { l.type = v }
    }

    func applyText(_ d: LayerDescription, to l: CATextLayer) {
        if let v = d.string { l.string = v }
        switch d.font {
        case let .name(n)?: l.font = CGFont(n)
        case let .file(_, resolved, index)?: l.font = CGFont(contentsOfFile: resolved, index: index)
        case nil: break
        }
        if let v = d.fontSize { l.fontSize = CGFloat(v) }
        if let v = d.foregroundColor { l.foregroundColor = v }
        if let v = d.isWrapped { l.isWrapped = v }
        if let v = d.truncationMode { l.truncationMode = v }
        if let v = d.alignmentMode { l.alignmentMode = v }
    }

    func applyShape(_ d: LayerDescription, to l: CAShapeLayer) {
        if let v = d.path { l.path = v }
        if let v = d.fillColor { l.fillColor = v }
        if let v = d.fillRule { l.fillRule = v }
        if let v = d.strokeColor { l.strokeColor = v }
        if let v = d.lineWidth { l.lineWidth = CGFloat(v) }
        if let v = d.miterLimit { l.miterLimit = CGFloat(v) }
        if let v = d.lineCap { l.lineCap = v }
        if let v = d.lineJoin { l.lineJoin = v }
        if let v = d.lineDashPattern { l.lineDashPattern = v.map { $0.map { NSNumber(value: $0) } } }
        if let v = d.lineDashPhase { l.lineDashPhase = CGFloat(v) }
        if let v = d.strokeStart { l.strokeStart = CGFloat(v) }
        if let v = d.strokeEnd { l.strokeEnd = CGFloat(v) }
    }

    /// The value `layer.setValue(_:forKeyPath:)` and animations take for `v`: numbers as
    /// `Double`, structs as themselves, colours and images as objects (`nil` for `null`),
    /// `vector3` as `[Double]` (value-function input).
    func value(_ v: SceneValue) -> Any? {
        switch v {
        case let .number(x): return x
        case let .point(p): return p
        case let .size(s): return s
        case let .rect(r): return r
        case let .color(c): return c
        case let .transform(t): return t
        case let .bool(b): return b
        case let .image(i): return i.flatMap { images[$0.resolvedPath] }
        case let .gravity(g): return g
        case let .filter(f): return f
        case let .corners(c): return c
        case let .string(s): return s
        case let .vector3(x, y, z): return [x, y, z]
        case let .path(p): return p
        case let .numbers(n): return n.map { $0.map { NSNumber(value: $0) } }
        case let .fillRule(r): return r
        case let .lineCap(c): return c
        case let .lineJoin(j): return j
        case let .colors(c): return c.map { $0.map { $0 as Any } }
        case let .locations(l): return l.map { $0.map { NSNumber(value: $0) } }
        case let .gradientType(t): return t
        }
    }

    /// An `actions` dictionary: `null` → `NSNull()` (ends the search with no action).
    func actions(_ a: [String: ActionDescription]) -> [String: CAAction] {
        var out: [String: CAAction] = [:]
        for (key, action) in a {
            switch action {
            case .none: out[key] = NSNull()
            case let .animation(d): out[key] = animation(d, eventKey: key)
            }
        }
        return out
    }

    /// A `style` dictionary: default values by key path, `"actions"`, nested `"style"`.
    func style(_ s: StyleDescription) -> [AnyHashable: Any] {
        var out: [AnyHashable: Any] = [:]
        for p in s.properties { out[p.keyPath] = value(p.value) ?? NSNull() }
        if let a = s.actions { out["actions"] = actions(a) }
        if let n = s.style { out["style"] = style(n.value) }
        return out
    }
}
