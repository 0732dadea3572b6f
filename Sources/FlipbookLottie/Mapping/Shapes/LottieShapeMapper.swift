import Foundation
import Flipbook

/// Shape items (a shape layer's `shapes`, a glyph's shapes) → the layers that draw them.
///
/// The layer tree mirrors the items (``LottieShapeProgram`` says which shapes each item
/// touches):
/// - a **group** (`gr`) → a container layer carrying its transform and opacity
///   (``LottieGroupTransform``), its items' layers inside; groups that draw nothing are left out;
/// - a **style** (`fl`, `st`, `gf`, `gs`) → one layer drawing the union of the shapes listed
///   before it (``LottieShapeLayers``, ``LottieGradientGeometry``), placed at the style's
///   position in the stacking order (items are top-most first, so a style listed later is
///   drawn below);
/// - shapes and modifiers → the outlines of those layers;
/// - a **repeater** (`rp`) → the layers of the items before it, repeated
///   (``LottieRepeaterLayers``).
enum LottieShapeMapper {}

extension LottieShapeMapper {
    /// The layers drawing `items`, bottom-most first, in the Lottie layer's own coordinate
    /// space (y down, before the layer's transform). `path` is the items' JSON path
    /// (`layers[3].shapes`), for warnings; animations are registered on `context` on `clock`'s
    /// timeline.
    package static func makeLayers(for items: [LottieShapeItem], path: String, clock: LottieClock,
                                   context: LottieMappingContext) -> [CALayer] {
        let program = LottieShapeProgram(items: items, path: path, context: context)
        let builder = LottieShapeLayerBuilder(program: program, clock: clock, context: context)
        let content = builder.layers(of: program.root, upTo: program.root.nodes.count, selection: [:])
        guard let t = program.root.transform, !content.isEmpty else { return content }
        let container = LottieGroupTransform.makeContainer(t, clock: clock, context: context, path: path)
        for l in content { container.addSublayer(l) }
        return [container]
    }
}

/// Builds the layers of one ``LottieShapeProgram``.
final class LottieShapeLayerBuilder {
    let program: LottieShapeProgram
    let clock: LottieClock
    let context: LottieMappingContext
    /// The local frame at the timeline's start (the model layers' values).
    let startFrame: Double
    /// The copies each repeater's layers make (set as they are built; nested repeaters are
    /// bounded by their product, ``LottieShapeProgram/maximumInstances``).
    var copyCounts: [Int: Int] = [:]

    init(program: LottieShapeProgram, clock: LottieClock, context: LottieMappingContext) {
        self.program = program; self.clock = clock; self.context = context
        startFrame = clock.localFrame(atRoot: clock.start)
    }

    /// The layers of `g`'s first `n` nodes, bottom-most first. `selection`: the repeater
    /// copies these layers stand for.
    func layers(of g: LottieShapeProgram.Group, upTo n: Int, selection: [Int: Int]) -> [CALayer] {
        // The last repeater repeats everything before it.
        if let j = g.nodes[0..<n].lastIndex(where: { if case .repeater = $0 { return true }; return false }),
           case let .repeater(r) = g.nodes[j] {
            var out: [CALayer] = []
            for node in g.nodes[(j + 1)..<n].reversed() { out += layers(of: node, selection: selection) }
            out += LottieRepeaterLayers.make(r, builder: self, selection: selection) { sel in
                self.layers(of: g, upTo: j, selection: sel)
            }
            return out
        }
        var out: [CALayer] = []
        for node in g.nodes[0..<n].reversed() { out += layers(of: node, selection: selection) }
        return out
    }

    private func layers(of node: LottieShapeProgram.Node, selection: [Int: Int]) -> [CALayer] {
        switch node {
        case let .group(h):
            let content = layers(of: h, upTo: h.nodes.count, selection: selection)
            guard !content.isEmpty else { return [] }
            let container = LottieGroupTransform.makeContainer(h.transform, clock: clock, context: context, path: h.path)
            for l in content { container.addSublayer(l) }
            return [container]
        case let .style(s):
            return styleLayers(s, selection: selection)
        default:
            return []
        }
    }

    // MARK: Outline routes

    enum PathRoute {
        case fixed(CGPath)
        /// A path animation: the one animated free path's shape id.
        case keyframes(Int)
        case computed
    }

    func route(style s: Int, dependencies d: LottieShapeProgram.Dependencies, selection: [Int: Int]) -> PathRoute {
        guard program.isAnimated(d) else {
            return .fixed(program.path(style: s, atFrame: startFrame, selection: selection))
        }
        let animatedShapes = d.shapes.filter { LottieShapeGeometry.isAnimated(program.shapes[$0].kind) }
        guard d.modifiers.isEmpty, animatedShapes.count == 1, let id = animatedShapes.first,
              !d.shapes.contains(where: { program.shapes[$0].merge != nil }),
              !d.groups.contains(where: { LottieGroupTransform.isGeometryAnimated(program.groups[$0].transform) }),
              !d.repeaters.contains(where: { program.repeaters[$0].isAnimated }),
              case let .path(bezier, _) = program.shapes[id].kind else { return .computed }
        let first = bezier.keyframes[0].value
        guard bezier.keyframes.allSatisfy({ $0.value.vertices.count == first.vertices.count && $0.value.closed == first.closed })
        else { return .computed }
        return .keyframes(id)
    }

    /// Sets `layer`'s outline by `route`; for `.computed`, `extra` also runs at each frame.
    /// `skip`: modifiers drawn another way (a trim as `strokeStart`/`strokeEnd`), left out of
    /// every key value.
    func applyPath(_ route: PathRoute, style s: Int, selection: [Int: Int], skipping skip: Set<Int> = [], to layer: CAShapeLayer,
                   extra: (@Sendable (CAShapeLayer, Double) -> Void)? = nil) {
        let program = self.program
        switch route {
        case let .fixed(p):
            layer.path = p
        case let .keyframes(id):
            guard case let .path(bezier, _) = program.shapes[id].kind else { return }
            let f0 = startFrame
            let track = LottieAnimationBuilder.track(keyPath: "path", bezier, clock: clock) { b in
                program.path(style: s, atFrame: f0, selection: selection, allCurves: true, override: (id, b), skipping: skip)
            }
            context.apply(track, to: layer, keyPath: "path")
        case .computed:
            break
        }
    }

    // MARK: Styles

    func styleLayers(_ s: Int, selection: [Int: Int]) -> [CALayer] {
        let style = program.styles[s]
        guard !style.scope.isEmpty else { return [] }
        let d = program.dependencies(ofStyle: s, selected: Set(selection.keys))
        switch style.kind {
        case let .fill(fill):
            return [solidLayer(s, d, selection, color: fill.color, opacity: fill.opacity, evenOdd: fill.evenOdd, stroke: nil)]
        case let .stroke(stroke):
            return [solidLayer(s, d, selection, color: stroke.color, opacity: stroke.opacity, evenOdd: false, stroke: stroke.style)]
        case let .gradientFill(g):
            return [gradientLayer(s, d, selection, gradient: g.gradient, opacity: g.opacity, evenOdd: g.evenOdd, stroke: nil)]
        case let .gradientStroke(g):
            return [gradientLayer(s, d, selection, gradient: g.gradient, opacity: g.opacity, evenOdd: false, stroke: g.style)]
        default:
            return []
        }
    }

    /// The trim a stroke can draw with `strokeStart` / `strokeEnd` (see ``LottieShapeLayers``),
    /// and the outline without it.
    func strokeTrim(_ s: Int, _ d: LottieShapeProgram.Dependencies, selection: [Int: Int]) -> LottieTrim? {
        guard d.modifiers.count == 1, let m = d.modifiers.first, case let .trim(trim) = program.modifiers[m].kind,
              !trim.offset.isAnimated, LottieGroupTransform.at(trim.offset.initialValue, 0).truncatingRemainder(dividingBy: 360) == 0,
              program.styles[s].scope.count == 1, d.repeaters.isEmpty,
              !trim.individually || program.modifiers[m].scope.count == 1 else { return nil }
        let id = program.styles[s].scope[0]
        if case let .path(b, _) = program.shapes[id].kind, b.keyframes.contains(where: { $0.value.vertices.isEmpty }) { return nil }
        // Arc-length fractions survive only similarities.
        for g in d.groups {
            let m = LottieGroupTransform.matrix(program.groups[g].transform, atFrame: startFrame)
            let sx = m.a * m.a + m.b * m.b, sy = m.c * m.c + m.d * m.d, dot = m.a * m.c + m.b * m.d
            if abs(sx - sy) > 1e-9 * max(sx, 1) || abs(dot) > 1e-9 * max(sx, 1) { return nil }
        }
        // Start never after the end, at every frame of the timeline.
        var r = clock.start
        while r <= clock.end {
            let f = clock.localFrame(atRoot: r)
            let a = LottieGroupTransform.at(trim.start.value(atFrame: f), 0), b = LottieGroupTransform.at(trim.end.value(atFrame: f), 0)
            if a > b { return nil }
            r += 1
        }
        return trim
    }

    func solidLayer(_ s: Int, _ d: LottieShapeProgram.Dependencies, _ selection: [Int: Int], color: LottieAnimated<LottieVector>,
                    opacity: LottieAnimated<LottieVector>, evenOdd: Bool, stroke: LottieStrokeStyle?) -> CALayer {
        let program = self.program
        var deps = d
        let trim = stroke != nil ? strokeTrim(s, d, selection: selection) : nil
        var skipped: Set<Int> = []
        if trim != nil, let m = d.modifiers.first { skipped = [m]; deps.modifiers = [] }
        let skip = skipped
        let route: PathRoute = skip.isEmpty ? route(style: s, dependencies: deps, selection: selection)
            : routeSkipping(skip, style: s, dependencies: deps, selection: selection)
        let dashesAnimated = stroke.map(LottieShapeLayers.dashLengthsAnimated) ?? false
        let computed: Bool = { if case .computed = route { return true }; return dashesAnimated }()
        let layer: CAShapeLayer = computed ? LottieComputedShapeLayer() : CAShapeLayer()
        LottieShapeLayers.configure(layer)
        layer.name = program.styles[s].path
        let colorTrack = LottieAnimationBuilder.track(keyPath: stroke == nil ? "fillColor" : "strokeColor", color, clock: clock) {
            LottieShapeLayers.cgColor($0)
        }
        if let stroke {
            layer.fillColor = nil
            context.apply(colorTrack, to: layer, keyPath: "strokeColor")
            LottieShapeLayers.applyStroke(stroke, to: layer, clock: clock, context: context)
        } else {
            layer.strokeColor = nil
            context.apply(colorTrack, to: layer, keyPath: "fillColor")
            layer.fillRule = evenOdd ? .evenOdd : .nonZero
        }
        context.apply(LottieAnimationBuilder.track(keyPath: "opacity", opacity, clock: clock, convert: LottieShapeLayers.opacityValue),
                      to: layer, keyPath: "opacity")
        if let trim { applyTrim(trim, to: layer) }
        applyPath(route, style: s, selection: selection, skipping: skip, to: layer)
        if computed {
            let pathComputed: Bool = { if case .computed = route { return true }; return false }()
            let strokeStyle = stroke
            LottieShapeLayers.installFrame(layer, clock: clock, context: context) { l, f in
                guard let l = l as? CAShapeLayer else { return }
                if pathComputed { l.path = program.path(style: s, atFrame: f, selection: selection, skipping: skip) }
                if dashesAnimated, let strokeStyle {
                    let (pattern, phase) = LottieShapeLayers.dashes(strokeStyle, atFrame: f)
                    l.lineDashPattern = pattern
                    l.lineDashPhase = phase
                }
            }
        }
        return layer
    }

    /// ``route(style:dependencies:selection:)`` for the outline without the modifiers in `skip`.
    func routeSkipping(_ skip: Set<Int>, style s: Int, dependencies d: LottieShapeProgram.Dependencies,
                       selection: [Int: Int]) -> PathRoute {
        switch route(style: s, dependencies: d, selection: selection) {
        case .fixed: return .fixed(program.path(style: s, atFrame: startFrame, selection: selection, skipping: skip))
        case let other: return other
        }
    }

    func applyTrim(_ trim: LottieTrim, to layer: CAShapeLayer) {
        for (key, v) in [("strokeStart", trim.start), ("strokeEnd", trim.end)] {
            let track = LottieAnimationBuilder.track(keyPath: key, v, clock: clock) {
                NSNumber(value: min(max(LottieGroupTransform.at($0, 0) / 100, 0), 1))
            }
            context.apply(track, to: layer, keyPath: key)
        }
    }

    // MARK: Gradients

    func gradientLayer(_ s: Int, _ d: LottieShapeProgram.Dependencies, _ selection: [Int: Int], gradient: LottieGradient,
                       opacity: LottieAnimated<LottieVector>, evenOdd: Bool, stroke: LottieStrokeStyle?) -> CALayer {
        // The mask: the outline, filled or stroked.
        let mask = solidLayer(s, d, selection, color: LottieAnimated([0, 0, 0]), opacity: LottieAnimated([100]),
                              evenOdd: evenOdd, stroke: stroke) as! CAShapeLayer
        mask.name = nil
        let program = self.program
        let pathAnimated = program.isAnimated(d)
        let pad = stroke.map { st in LottieShapeLayers.maximumWidth(st) / 2 * max(st.miterLimit, 1.5) + 1 } ?? 1
        let widthAnimated = stroke?.width.isAnimated ?? false
        let animated = pathAnimated || widthAnimated || LottieGradientGeometry.isAnimated(gradient)
        let f0 = startFrame
        @Sendable func rect(_ f: Double) -> CGRect {
            let box = program.path(style: s, atFrame: f, selection: selection).boundingBox
            guard !box.isNull, box.minX.isFinite, box.maxY.isFinite else { return .zero }
            return box.insetBy(dx: -pad, dy: -pad)
        }
        let layer: CALayer
        if LottieGradientGeometry.hasHighlight(gradient) {
            let radial = LottieRadialGradientLayer()
            layer = radial
            let lay: @Sendable (CALayer, Double) -> Void = { l, f in
                let r = rect(f)
                l.bounds = r
                l.position = r.origin
                (l as? LottieRadialGradientLayer)?.gradient = LottieGradientGeometry(gradient, atFrame: f)
            }
            radial.anchorPoint = .zero
            radial.contentsScale = animated ? 1 : 2
            if animated {
                LottieShapeLayers.installFrame(radial, clock: clock, context: context, update: lay)
            } else {
                lay(radial, f0)
            }
            radial.display()
        } else if animated {
            let g = LottieComputedGradientLayer()
            layer = g
            g.anchorPoint = .zero
            LottieShapeLayers.installFrame(g, clock: clock, context: context) { l, f in
                guard let l = l as? CAGradientLayer else { return }
                let r = rect(f)
                l.bounds = r
                l.position = r.origin
                LottieGradientGeometry(gradient, atFrame: f).apply(to: l, rect: r)
            }
        } else {
            let g = CAGradientLayer()
            layer = g
            g.anchorPoint = .zero
            let r = rect(f0)
            g.bounds = r
            g.position = r.origin
            LottieGradientGeometry(gradient, atFrame: f0).apply(to: g, rect: r)
        }
        layer.name = program.styles[s].path
        layer.mask = mask
        context.apply(LottieAnimationBuilder.track(keyPath: "opacity", opacity, clock: clock, convert: LottieShapeLayers.opacityValue),
                      to: layer, keyPath: "opacity")
        return layer
    }
}
