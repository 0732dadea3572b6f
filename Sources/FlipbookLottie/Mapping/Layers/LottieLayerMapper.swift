import Foundation
import Flipbook

/// A composition's layers → a tree of Core Animation layers (the structure lottie-ios's Core
/// Animation engine builds, with ThorVG's rules where the players differ).
///
/// For each drawn Lottie layer of a composition (the file lists them top-most first; Core
/// Animation draws later sublayers on top, so they are added in reverse):
///
///     [matte container]               only when the layer has a track matte (`tt`):
///     │   mask = the matte layer's     its `mask` is the matte source's own chain, read as
///     │          chain                 alpha, inverted alpha, luminance or inverted luminance
///     └─ parent chain                 one transform-only copy per ancestor (`parent`),
///        └─ …                           outermost first: no opacity, no content
///           └─ transform layer          the layer's transform, opacity and masks (`mask`)
///              └─ content                shapes, solid, image, precomp container or text
///
/// The chain's outermost layer carries the in/out `hidden` keyframes; the outermost of all (the
/// matte container when there is one) the blend mode.
///
/// - **Transform**: ``LottieTransformMapper`` (anchorPoint / position / transform factors /
///   opacity). The content sits in the Lottie layer's own coordinates inside it.
/// - **Parenting**: a child inherits its parents' transforms but not their opacity, so each
///   ancestor is repeated as a transform-only layer around the child (lottie-ios does the same).
/// - **In and out points**: a layer is drawn from `ip` to just before `op` (the containing
///   composition's frames): discrete `hidden` keyframes on the outermost layer of its chain,
///   switching `ε` before the frame (so the frame itself is exact). A layer never visible on the
///   timeline is not built.
/// - **Hidden layers** (`hd`) and nulls are not drawn; they still parent others. A layer used
///   as a matte (`td`, or the one a `tt` layer points at) is not drawn itself.
/// - **Precompositions**: a container of `w × h` that clips (`masksToBounds`), holding the
///   precomposition's layers mapped on the clock `clock.precomposed(startTime: st, stretch:
///   sr)`, or, with time remapping, `clock.remapped { tm(f) · fps }` (``LottieClock``).
///   Cycles and nesting deeper than ``maximumPrecompositionDepth`` are not drawn (warned).
/// - **Blend modes** (`bm`): the `compositingFilter` of the outermost layer of the chain (the
///   matte container's when there is a matte), so the layer's whole result is blended.
/// - **Effects**: drop shadow and fill drawn (``LottieEffectMapper``); the others, 3D cameras and
///   unknown layer types are not drawn, one warning per kind.
package final class LottieLayerMapper {
    package let context: LottieMappingContext
    private var images: [String: CGImage?] = [:]
    /// Pixels the tree's images may still decode to (``LottieImageDecoding/maximumPixels`` in all).
    var imagePixelBudget = LottieImageDecoding.Budget()
    private var warnedKinds: Set<String> = []

    /// How deep precompositions may nest (deeper ones are not drawn, with a warning).
    package static let maximumPrecompositionDepth = 32

    package init(context: LottieMappingContext) { self.context = context }

    /// The layer drawing the whole composition: `w × h` at the origin, clipping its content to
    /// the composition (as ThorVG and rlottie do).
    package func makeRootLayer() -> CALayer {
        let c = context.composition
        let root = CALayer()
        root.name = c.name ?? "composition"
        root.anchorPoint = .zero
        root.position = .zero
        root.bounds = CGRect(x: 0, y: 0, width: max(c.width, 0), height: max(c.height, 0))
        root.masksToBounds = true
        for l in mapLayers(c.layers, path: "layers", clock: context.rootClock, precompositions: []) { root.addSublayer(l) }
        return root
    }

    // MARK: One composition

    /// The layers drawing `layers` (one composition's, top-most first), bottom-most first.
    /// `precompositions` are the asset ids being mapped above (cycle detection).
    func mapLayers(_ layers: [LottieLayer], path: String, clock: LottieClock, precompositions: [String]) -> [CALayer] {
        var byIndex: [Int: Int] = [:]
        for (i, l) in layers.enumerated() { if let ind = l.index, byIndex[ind] == nil { byIndex[ind] = i } }
        // Track mattes: the layer named by `tp`, or the one just above.
        var matteSource: [Int: Int] = [:]
        for (i, l) in layers.enumerated() {
            guard let mode = l.matteMode, mode != 0 else { continue }
            guard (1...4).contains(mode) else {
                warnOnce("matte mode", key: "\(mode)", path: "\(path)[\(i)].tt", "track matte mode \(mode) is not a Lottie mode; the layer is drawn without it")
                continue
            }
            let source = l.matteParent.flatMap { byIndex[$0] } ?? (i > 0 ? i - 1 : nil)
            if let source, source != i { matteSource[i] = source }
        }
        let sources = Set(matteSource.values)
        let scope = Scope(layers: layers, byIndex: byIndex, path: path, clock: clock, precompositions: precompositions)
        var out: [CALayer] = []
        for i in layers.indices.reversed() {
            let l = layers[i]
            if l.isMatteSource || sources.contains(i) { continue }
            if context.layerBudgetSpent(path: "\(path)[\(i)]", "this layer and the ones listed before it are") { break }
            let built: CALayer? = context.countingLayers({ () -> CALayer? in
                guard let node = chain(i, in: scope, isMatte: false) else { return nil }
                if let s = matteSource[i], let mode = l.matteMode { return matte(node, source: s, mode: mode, in: scope) }
                return node
            }, layers: { $0.map { [$0] } ?? [] })
            guard let node = built else { continue }
            // On the outermost layer: the layer's whole result (masked, matted) is blended.
            applyBlendMode(l.blendMode, to: node, path: "\(path)[\(i)]")
            out.append(node)
        }
        return out
    }

    /// What the layers of one composition share.
    struct Scope {
        let layers: [LottieLayer]
        let byIndex: [Int: Int]
        let path: String
        let clock: LottieClock
        let precompositions: [String]
    }

    /// Layer `i`'s chain: its transform layer inside its parents' transform-only copies. Nil when
    /// it draws nothing (null, hidden, unsupported, never visible — except as a matte, which is
    /// built hidden so that an empty matte still hides or reveals).
    func chain(_ i: Int, in scope: Scope, isMatte: Bool) -> CALayer? {
        let l = scope.layers[i]
        let lp = "\(scope.path)[\(i)]"
        if l.hidden { return nil }
        switch l.kind {
        case .null: return nil
        case let .other(type):
            let what = type == 13 ? "3D camera layers are not drawn: layers are drawn without perspective"
                : type == 6 ? "audio layers are not played" : "layers of type \(type) are not drawn"
            warnOnce("layer type", key: "\(type)", path: lp, what)
            return nil
        default: break
        }
        let visibility = LottieVisibility(inPoint: l.inPoint, outPoint: l.outPoint, clock: scope.clock)
        if !visibility.isEverVisible && !isMatte { return nil }

        let x = CALayer()
        x.name = l.name
        LottieTransformMapper.apply(l.transform, to: x, options: .init(opacity: true, autoOrient: l.autoOrient),
                                    path: "\(lp).ks", clock: scope.clock, context: context)
        addContent(of: l, to: x, path: lp, in: scope)
        if let m = LottieMaskMapper.makeMask(for: l.masks, path: "\(lp).masksProperties", clock: scope.clock, context: context) {
            x.mask = m.layer
            if m.luminance { LottieMaskModes.set(.luminance, on: x) }
        }
        var drawnEffects: [(index: Int, effect: LottieEffect)] = []
        for (j, e) in l.effects.enumerated() where e.enabled {
            if LottieEffectMapper.drawn.contains(e.type) { drawnEffects.append((j, e)); continue }
            warnOnce("effect", key: "\(e.type)", path: "\(lp).ef[\(j)]",
                     "the effect \(e.name.map { "\"\($0)\" " } ?? "")(type \(e.type)) is not drawn")
        }
        if !drawnEffects.isEmpty {
            // Effects of shape and text layers apply after the transform (their directions are
            // the composition's); a precomposition's, solid's or image's before it.
            let afterTransform: Bool = { switch l.kind { case .shape, .text: return true; default: return false } }()
            LottieEffectMapper.apply(drawnEffects, to: x, rotation: afterTransform ? startRotation(of: i, in: scope) : 0,
                                     path: "\(lp).ef", clock: scope.clock, context: context)
        }

        // Parents, innermost first.
        var node = x
        var seen: Set<Int> = [i]
        var parent = l.parent
        while let p = parent {
            guard let pi = scope.byIndex[p] else {
                context.warn("parent", path: "\(lp).parent", "no layer has index \(p); the layer is drawn without a parent")
                break
            }
            guard seen.insert(pi).inserted else {
                context.warn("parent", path: "\(lp).parent", "the parent chain loops; drawn up to the loop")
                break
            }
            let pl = scope.layers[pi]
            let w = CALayer()
            w.name = "parent \(pl.name ?? String(p))"
            LottieTransformMapper.apply(pl.transform, to: w, options: .init(opacity: false, autoOrient: pl.autoOrient),
                                        path: "\(scope.path)[\(pi)].ks", clock: scope.clock, context: context)
            w.addSublayer(node)
            node = w
            parent = pl.parent
        }
        visibility.apply(to: node, context: context)
        return node
    }

    /// Layer `i`'s rotation and its parents' (degrees, clockwise) at the start of the timeline.
    func startRotation(of i: Int, in scope: Scope) -> Double {
        let f = scope.clock.localFrame(atRoot: scope.clock.start)
        var total = 0.0, seen: Set<Int> = [], next: Int? = i
        while let k = next, seen.insert(k).inserted {
            total += LottieGroupTransform.at(scope.layers[k].transform.rotation.value(atFrame: f), 0)
            next = scope.layers[k].parent.flatMap { scope.byIndex[$0] }
        }
        return total
    }

    /// Layer `node` (a chain) matted by the chain of layer `source`: a container at the
    /// composition's origin whose `mask` is the matte's chain. Nil when nothing can show (an
    /// alpha or luma matte that draws nothing).
    func matte(_ node: CALayer, source: Int, mode: Int, in scope: Scope) -> CALayer? {
        let l = scope.layers[source]
        let isNull: Bool = { if case .null = l.kind { return true }; if case .other = l.kind { return true }; return l.hidden }()
        // A null (or hidden) matte layer mattes nothing: the layer is drawn as it is (ThorVG).
        if isNull { return node }
        let container = CALayer()
        container.name = "matte"
        container.anchorPoint = .zero
        container.position = .zero
        container.bounds = .zero
        container.addSublayer(node)
        if let m = chain(source, in: scope, isMatte: true) {
            container.mask = m
        } else {
            // A matte that draws nothing: alpha and luma hide everything, inverted ones nothing.
            if mode == 1 || mode == 3 { return nil }
            return node
        }
        switch mode {
        case 2: LottieMaskModes.set(.alphaInverted, on: container)
        case 3: LottieMaskModes.set(.luminance, on: container)
        case 4: LottieMaskModes.set(.luminanceInverted, on: container)
        default: break
        }
        return container
    }

    // MARK: Content

    func addContent(of l: LottieLayer, to x: CALayer, path lp: String, in scope: Scope) {
        switch l.kind {
        case let .shape(items):
            for s in LottieShapeMapper.makeLayers(for: items, path: "\(lp).shapes", clock: scope.clock, context: context) {
                x.addSublayer(s)
            }
        case let .solid(color, w, h):
            let s = CALayer()
            s.anchorPoint = .zero
            s.position = .zero
            s.bounds = CGRect(x: 0, y: 0, width: max(w, 0), height: max(h, 0))
            s.backgroundColor = Self.color(hex: color) ?? {
                context.warn("solid color", path: "\(lp).sc", "\"\(color)\" is not a #rrggbb colour; drawn black")
                return CGColor(red: 0, green: 0, blue: 0, alpha: 1)
            }()
            x.addSublayer(s)
        case let .image(refId):
            if let image = imageLayer(refId, path: lp) { x.addSublayer(image) }
        case let .precomposition(refId, w, h):
            if let c = precomposition(refId, width: w, height: h, layer: l, path: lp, in: scope) { x.addSublayer(c) }
        case let .text(text):
            for s in LottieTextMapper.makeLayers(for: text, path: lp, clock: scope.clock, context: context) { x.addSublayer(s) }
        case .null, .other:
            break
        }
    }

    /// `#rrggbb` (or `#rgb`, `#rrggbbaa`) → an opaque colour.
    package static func color(hex: String) -> CGColor? {
        var s = Substring(hex.trimmingCharacters(in: .whitespaces))
        if s.hasPrefix("#") { s = s.dropFirst() }
        if s.count == 3 { s = Substring(s.map { "\($0)\($0)" }.joined()) }
        guard s.count == 6 || s.count == 8, let v = UInt64(s, radix: 16) else { return nil }
        let rgb = s.count == 8 ? v >> 8 : v
        let a = s.count == 8 ? CGFloat(v & 0xFF) / 255 : 1
        return CGColor(red: CGFloat((rgb >> 16) & 0xFF) / 255, green: CGFloat((rgb >> 8) & 0xFF) / 255,
                       blue: CGFloat(rgb & 0xFF) / 255, alpha: a)
    }

    /// An image layer: the asset's bytes decoded once, drawn stretched over the asset's `w × h`.
    func imageLayer(_ refId: String, path lp: String) -> CALayer? {
        guard let asset = context.composition.assets.first(where: { $0.id == refId }),
              case let .image(w, h, _, _, _, data) = asset.kind else {
            context.warn("image", path: "\(lp).refId", "no image asset \"\(refId)\"; the layer draws nothing")
            return nil
        }
        let image: CGImage?
        if let cached = images[refId] {
            image = cached
        } else {
            image = data.flatMap { LottieImageDecoding.decode($0, path: lp, budget: &imagePixelBudget, context: context) }
            images[refId] = image
        }
        guard let image else { return nil }
        let layer = CALayer()
        layer.anchorPoint = .zero
        layer.position = .zero
        layer.bounds = CGRect(x: 0, y: 0, width: w > 0 ? w : CGFloat(image.width), height: h > 0 ? h : CGFloat(image.height))
        layer.contents = image
        return layer
    }

    /// A precomposition instance: a clipping container with the asset's layers on their clock.
    func precomposition(_ refId: String, width w: Double, height h: Double, layer l: LottieLayer,
                        path lp: String, in scope: Scope) -> CALayer? {
        guard let k = context.composition.assets.firstIndex(where: { $0.id == refId }),
              case let .precomposition(layers, _) = context.composition.assets[k].kind else {
            context.warn("precomposition", path: "\(lp).refId", "no precomposition \"\(refId)\"; the layer draws nothing")
            return nil
        }
        if scope.precompositions.contains(refId) {
            context.warn("precomposition cycle", path: "\(lp).refId", "precomposition \"\(refId)\" contains itself; the inner instance is not drawn")
            return nil
        }
        if scope.precompositions.count >= Self.maximumPrecompositionDepth {
            context.warn("precomposition depth", path: "\(lp).refId",
                         "precompositions nest deeper than \(Self.maximumPrecompositionDepth); the inner ones are not drawn")
            return nil
        }
        let clock: LottieClock
        if let tm = l.timeRemap {
            let fps = context.composition.frameRate
            clock = scope.clock.remapped { f in max(tm.value(atFrame: f).first ?? 0, 0) * fps }
        } else {
            clock = scope.clock.precomposed(startTime: l.startTime, stretch: l.timeStretch != 0 ? l.timeStretch : 1)
        }
        let container = CALayer()
        container.name = "precomposition \(refId)"
        container.anchorPoint = .zero
        container.position = .zero
        container.bounds = CGRect(x: 0, y: 0, width: max(w, 0), height: max(h, 0))
        container.masksToBounds = true
        for sub in mapLayers(layers, path: "assets[\(k)].layers", clock: clock, precompositions: scope.precompositions + [refId]) {
            container.addSublayer(sub)
        }
        return container
    }

    // MARK: Blend modes and warnings

    /// `bm` → the Core Image blend mode name Flipbook composites (`compositingFilter`).
    package static let blendModeNames: [Int: String] = [
        1: "multiplyBlendMode", 2: "screenBlendMode", 3: "overlayBlendMode", 4: "darkenBlendMode",
        5: "lightenBlendMode", 6: "colorDodgeBlendMode", 7: "colorBurnBlendMode", 8: "hardLightBlendMode",
        9: "softLightBlendMode", 10: "differenceBlendMode", 11: "exclusionBlendMode", 12: "hueBlendMode",
        13: "saturationBlendMode", 14: "colorBlendMode", 15: "luminosityBlendMode", 16: "plusLighter",
    ]

    func applyBlendMode(_ bm: Int, to layer: CALayer, path: String) {
        guard bm != 0 else { return }
        if let name = Self.blendModeNames[bm] {
            layer.compositingFilter = name
        } else {
            warnOnce("blend mode", key: "\(bm)", path: "\(path).bm", bm == 17 ? "the hard mix blend mode is drawn as normal"
                     : "blend mode \(bm) is not a Lottie blend mode; drawn as normal")
        }
    }

    /// One warning per kind of thing (`feature` and `key`), at its first path.
    func warnOnce(_ feature: String, key: String, path: String, _ message: String) {
        guard warnedKinds.insert("\(feature)/\(key)").inserted else { return }
        context.warn(feature, path: path, message)
    }
}
