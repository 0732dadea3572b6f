import Foundation
import Flipbook

/// What a Lottie animation holds and which of its features Flipbook draws exactly — the facts
/// `flipbook info anim.json` prints, as values.
///
///     let report = try LottieAnimation.load(filepath: "logo.json").inspection()
///     report.frameCount                     // 179
///     report.layers[.shape]                 // 45
///     report.features.filter { !$0.isExact } // what may look different from After Effects
///
/// **Counting.** Layers are counted by type over the whole file: the main composition's and
/// every precomposition asset's, each asset once however many layers use it. Features are
/// counted over the same layers, skipping hidden layers and hidden shape items (which are not
/// drawn, as the mapping skips them); a feature's ``Feature/firstPath`` is the JSON path of its
/// first use.
///
/// **Exactness.** ``warnings`` are the warnings a ``LottieAnimationLayer`` of this animation
/// reports — the parser's and the layer mapping's, computed by mapping the animation once — so
/// `info` and `render` agree. A feature is marked not drawn exactly (``Feature/isExact`` false)
/// when a warning of its kind is among them; warnings that belong to no listed feature (a
/// parent index no layer has, say) stay in ``warnings``.
public struct LottieInspection: Sendable, Hashable {
    // MARK: The composition

    /// `nm` and `v` (the Bodymovin version that wrote the file).
    public var name: String?
    public var version: String?
    /// `w`, `h` in points.
    public var width: Double, height: Double
    /// `fr`.
    public var framerate: Double
    /// `ip` and `op` (exclusive).
    public var startFrame: Double, endFrame: Double
    /// Frames rendered at the file's rate: `op − ip` rounded up (at least 1), as
    /// ``LottieRendering/Scene/frameCount``.
    public var frameCount: Int
    /// `(op − ip) / fr` seconds.
    public var duration: Double
    /// `ddd` on the root.
    public var is3D: Bool

    // MARK: Contents

    /// Lottie layer types (`ty`).
    public enum LayerType: String, Sendable, Hashable, CaseIterable {
        case precomposition, solid, image, null, shape, text, audio, camera, other
    }

    /// Layers by type, over the main composition and every precomposition asset.
    public var layers: [LayerType: Int]
    /// All layers counted in ``layers``.
    public var layerCount: Int { layers.values.reduce(0, +) }

    /// A precomposition asset.
    public struct Precomposition: Sendable, Hashable {
        public var id: String
        /// Its own layers (not counting nested precompositions' layers).
        public var layerCount: Int
        /// Its own `fr`, when given.
        public var framerate: Double?
        /// Precomposition layers referring to it.
        public var uses: Int
    }
    public var precompositions: [Precomposition]

    /// An image asset.
    public struct Image: Sendable, Hashable {
        public var id: String
        /// `w`, `h` as the file gives them.
        public var width: Double, height: Double
        /// True for a `data:` URI in the file; false for a file (`u` + `p`) beside the JSON or
        /// inside the dotLottie archive.
        public var isEmbedded: Bool
        /// `u` + `p` for a file; nil when embedded.
        public var file: String?
        /// The image's bytes were found (and begin like PNG or JPEG); false: not drawn.
        public var isLoaded: Bool
        /// Bytes of the image data (0 when not loaded).
        public var byteCount: Int
    }
    public var images: [Image]

    /// A marker (`markers[]`).
    public struct Marker: Sendable, Hashable {
        public var name: String
        /// `tm`, `dr` in frames.
        public var frame: Double, duration: Double
    }
    public var markers: [Marker]

    /// A font of `fonts.list`.
    public struct Font: Sendable, Hashable {
        /// `fName` (what text documents name), `fFamily`, `fStyle`.
        public var name: String, family: String, style: String
        /// Glyphs of this family and style in the file's `chars` (text in this font is drawn
        /// from them when every character has one).
        public var glyphs: Int
        /// How the font's outlines are found: `exact` (bundled or installed), `familyOnly`
        /// (the family's regular face), `missing` (the bundled default, DejaVu Sans).
        public var availability: Availability
        public enum Availability: String, Sendable, Hashable { case exact, familyOnly, missing }
    }
    public var fonts: [Font]
    /// Glyphs in `chars`.
    public var glyphCount: Int

    /// One feature of the format the file uses (a shape kind, a modifier, a matte mode …).
    public struct Feature: Sendable, Hashable {
        /// `trim path`, `gradient fill (radial)`, `track matte luma`, `expression` …
        public var name: String
        /// Uses counted (items, layers or properties, by feature).
        public var count: Int
        /// The JSON path of the first use.
        public var firstPath: String
        /// The warnings of this kind (empty when drawn exactly).
        public var warnings: [LottieWarning]
        /// Whether Flipbook draws every use exactly.
        public var isExact: Bool { warnings.isEmpty }
    }
    /// The features used, in order of first use.
    public var features: [Feature]
    /// Every warning of the animation, as ``LottieAnimationLayer/warnings`` lists them.
    public var warnings: [LottieWarning]
}

extension LottieAnimation {
    /// The animation's contents and feature inventory (``LottieInspection``). Maps the
    /// animation once, on a private run loop, to collect the layer mapping's warnings.
    public func inspection() -> LottieInspection {
        let warnings = VirtualRunLoop().run { LottieAnimationLayer(animation: self, logger: .silent).warnings }
        return inspection(warnings: warnings)
    }

    /// The inventory with `warnings` known already (those of a ``LottieAnimationLayer`` of this
    /// animation).
    public func inspection(warnings: [LottieWarning]) -> LottieInspection {
        _LottieInventory(composition: composition, warnings: warnings).make()
    }
}

/// Walks a composition for ``LottieInspection``.
struct _LottieInventory {
    let composition: LottieComposition
    let warnings: [LottieWarning]

    /// A feature being counted: the warning kinds it owns, and whether a warning must also
    /// point at one of its uses (for features split by mode, whose warnings share a kind).
    private struct Tally {
        var name: String
        var count = 0
        var firstPath: String
        var paths: Set<String> = []
        var prefixes: Set<String> = []
        var kinds: Set<String>
        var byPath: Bool

        func owns(_ w: LottieWarning) -> Bool {
            kinds.contains(w.feature) && (!byPath || paths.contains(w.path) || prefixes.contains { w.path.hasPrefix($0) })
        }
    }
    private final class Tallies {
        var order: [String] = []
        var byName: [String: Tally] = [:]
        /// Counts a use at `path`. `byPath`: the feature owns only warnings of its `kinds` at
        /// `path`, `otherPaths` or under `prefixes`.
        func add(_ name: String, _ path: String, kinds: Set<String> = [], byPath: Bool = false, count: Int = 1,
                 otherPaths: [String] = [], prefixes: [String] = []) {
            if byName[name] == nil {
                order.append(name)
                byName[name] = Tally(name: name, firstPath: path, kinds: kinds, byPath: byPath)
            }
            byName[name]!.count += count
            if byPath {
                byName[name]!.paths.insert(path)
                byName[name]!.paths.formUnion(otherPaths)
                byName[name]!.prefixes.formUnion(prefixes)
            }
        }
    }

    func make() -> LottieInspection {
        let c = composition
        let t = Tallies()
        var layerCounts: [LottieInspection.LayerType: Int] = [:]
        var uses: [String: Int] = [:]

        func count(_ layers: [LottieLayer]) {
            for l in layers {
                let type: LottieInspection.LayerType
                switch l.kind {
                case let .precomposition(refId, _, _): type = .precomposition; uses[refId, default: 0] += 1
                case .solid: type = .solid
                case .image: type = .image
                case .null: type = .null
                case .shape: type = .shape
                case .text: type = .text
                case let .other(ty): type = ty == 6 ? .audio : ty == 13 ? .camera : .other
                }
                layerCounts[type, default: 0] += 1
            }
        }
        count(c.layers)
        walkLayers(c.layers, path: "layers", t)
        for (k, a) in c.assets.enumerated() {
            if case let .precomposition(layers, _) = a.kind {
                count(layers)
                walkLayers(layers, path: "assets[\(k)].layers", t)
            }
        }
        let precompositions: [LottieInspection.Precomposition] = c.assets.compactMap { a in
            guard case let .precomposition(layers, fr) = a.kind else { return nil }
            return .init(id: a.id, layerCount: layers.count, framerate: fr, uses: uses[a.id] ?? 0)
        }
        let images: [LottieInspection.Image] = c.assets.compactMap { a in
            guard case let .image(w, h, u, p, embedded, data) = a.kind else { return nil }
            return .init(id: a.id, width: w, height: h, isEmbedded: embedded, file: embedded ? nil : u + p,
                         isLoaded: data != nil, byteCount: data?.count ?? 0)
        }
        let fonts: [LottieInspection.Font] = c.fonts.map { f in
            let glyphs = c.glyphs.filter { $0.family == f.family && $0.style == f.style }.count
            let availability: LottieInspection.Font.Availability
            switch LottieFontResolver.resolve(name: f.name, in: c.fonts).match {
            case .exact: availability = .exact
            case .familyOnly: availability = .familyOnly
            case .missing: availability = .missing
            }
            return .init(name: f.name, family: f.family, style: f.style, glyphs: glyphs, availability: availability)
        }
        let features: [LottieInspection.Feature] = t.order.map { name in
            let tally = t.byName[name]!
            let mine = warnings.filter(tally.owns)
            return .init(name: name, count: tally.count, firstPath: tally.firstPath, warnings: mine)
        }
        let frames = max(1, Int((c.outPoint - c.inPoint).rounded(.up)))
        return LottieInspection(
            name: c.name, version: c.version, width: c.width, height: c.height, framerate: c.frameRate,
            startFrame: c.inPoint, endFrame: c.outPoint, frameCount: frames,
            duration: (c.outPoint - c.inPoint) / c.frameRate, is3D: c.is3D,
            layers: layerCounts, precompositions: precompositions, images: images,
            markers: c.markers.map { .init(name: $0.name, frame: $0.frame, duration: $0.duration) },
            fonts: fonts, glyphCount: c.glyphs.count, features: features, warnings: warnings)
    }

    // MARK: Layers

    /// Blend mode names by `bm` (the After Effects names).
    static let blendModes: [Int: String] = [
        1: "multiply", 2: "screen", 3: "overlay", 4: "darken", 5: "lighten", 6: "color dodge", 7: "color burn",
        8: "hard light", 9: "soft light", 10: "difference", 11: "exclusion", 12: "hue", 13: "saturation",
        14: "color", 15: "luminosity", 16: "add", 17: "hard mix",
    ]
    static let maskModes: [String: String] = ["a": "add", "s": "subtract", "i": "intersect", "l": "lighten",
                                              "d": "darken", "f": "difference"]
    static let matteModes: [Int: String] = [1: "alpha", 2: "alpha inverted", 3: "luma", 4: "luma inverted"]

    private func walkLayers(_ layers: [LottieLayer], path: String, _ t: Tallies) {
        for (i, l) in layers.enumerated() {
            let lp = "\(path)[\(i)]"
            if let mode = l.matteMode, mode != 0 {
                // Mattes are read whether or not the matted layer is hidden (the mapping does too).
                let name = Self.matteModes[mode].map { "track matte \($0)" } ?? "track matte (mode \(mode))"
                t.add(name, "\(lp).tt", kinds: ["matte mode"], byPath: true)
            }
            if l.hidden { t.add("hidden layer", lp); continue }
            switch l.kind {
            case .precomposition:
                t.add("precomposition", lp, kinds: ["precomposition", "precomposition cycle", "precomposition depth"])
                if let tm = l.timeRemap { t.add("time remap", "\(lp).tm"); property(tm, "\(lp).tm", t) }
            case .solid: t.add("solid", lp, kinds: ["solid color"])
            case let .image(refId):
                // Its own warnings (no such asset, not decodable) and its asset's (not found,
                // not an image), not those of images no layer of this kind shows.
                let asset = composition.assets.firstIndex { $0.id == refId }
                t.add("image", lp, kinds: ["image"], byPath: true, otherPaths: ["\(lp).refId"],
                      prefixes: asset.map { ["assets[\($0)]."] } ?? [])
            case .null: break
            case let .shape(items): walkItems(items, path: "\(lp).shapes", t)
            case let .text(text): walkText(text, path: lp, t)
            case let .other(type):
                let name = type == 13 ? "camera layer" : type == 6 ? "audio layer" : "layer type \(type)"
                t.add(name, lp, kinds: ["layer type"], byPath: true)
                continue
            }
            if l.timeStretch != 1 { t.add("time stretch", "\(lp).sr") }
            if l.parent != nil { t.add("parenting", "\(lp).parent", kinds: ["parent"]) }
            if l.is3D { t.add("3D layer", "\(lp).ddd") }
            if l.autoOrient { t.add("auto-orient", "\(lp).ao") }
            if l.blendMode != 0 {
                let name = Self.blendModes[l.blendMode].map { "blend mode \($0)" } ?? "blend mode \(l.blendMode)"
                t.add(name, "\(lp).bm", kinds: ["blend mode"], byPath: true)
            }
            transform(l.transform, path: "\(lp).ks", t)
            for (j, m) in l.masks.enumerated() {
                let mp = "\(lp).masksProperties[\(j)]"
                let name = m.mode == "n" ? "mask none" : Self.maskModes[m.mode].map { "mask \($0)" } ?? "mask (mode \"\(m.mode)\")"
                t.add(name, mp, kinds: ["mask mode"], byPath: true)
                guard m.mode != "n" else { continue }
                if m.inverted { t.add("inverted mask", "\(mp).inv") }
                if m.opacity.isAnimated || m.opacity.initialValue.first != 100 { t.add("mask opacity", "\(mp).o") }
                if m.expansion.isAnimated || m.expansion.initialValue.first != 0 { t.add("mask expansion", "\(mp).x") }
                if let f = m.feather, f.keyframes.contains(where: { $0.value.contains { $0 != 0 } }) {
                    t.add("mask feather", "\(mp).f", kinds: ["mask feather"])
                }
                if m.path.isAnimated { t.add("animated mask path", "\(mp).pt") }
                property(m.path, "\(mp).pt", t)
                property(m.opacity, "\(mp).o", t)
                property(m.expansion, "\(mp).x", t)
                if let f = m.feather { property(f, "\(mp).f", t) }
            }
            for (j, e) in l.effects.enumerated() where e.enabled { t.add("effect", "\(lp).ef[\(j)]", kinds: ["effect"]) }
        }
    }

    private func walkText(_ text: LottieTextData, path lp: String, _ t: Tallies) {
        t.add("text", "\(lp).t", kinds: ["font", "font style", "glyphs", "glyph shapes"])
        if text.documents.count > 1 { t.add("text document keyframes", "\(lp).t.d") }
        if text.animatorCount > 0 { t.add("text animator", "\(lp).t.a", kinds: ["text animator"], count: text.animatorCount) }
        if text.hasPath { t.add("text on a path", "\(lp).t.p", kinds: ["text on a path"]) }
        if text.documents.contains(where: { (3...6).contains($0.document.justification) }) {
            t.add("justified text", "\(lp).t.d", kinds: ["justified text"])
        }
    }

    // MARK: Transforms and keyframes

    private func transform(_ x: LottieTransform, path: String, _ t: Tallies) {
        property(x.anchor, "\(path).a", t)
        switch x.position {
        case let .combined(p): property(p, "\(path).p", t, spatial: true)
        case let .split(px, py):
            t.add("separate position dimensions", "\(path).p")
            property(px, "\(path).p.x", t); property(py, "\(path).p.y", t)
        }
        property(x.scale, "\(path).s", t)
        if x.scale.keyframes.contains(where: { $0.value.count >= 2 && $0.value[0] != $0.value[1] }) {
            t.add("non-uniform scale", "\(path).s")
        }
        property(x.rotation, "\(path).r", t)
        property(x.opacity, "\(path).o", t)
        if x.rotationX != nil || x.rotationY != nil { t.add("3D rotation", "\(path).rx") }
        if let rx = x.rotationX { property(rx, "\(path).rx", t) }
        if let ry = x.rotationY { property(ry, "\(path).ry", t) }
        if let sk = x.skew {
            if sk.isAnimated || sk.initialValue.first.map({ $0 != 0 }) == true { t.add("skew", "\(path).sk") }
            property(sk, "\(path).sk", t)
        }
        if let sa = x.skewAxis { property(sa, "\(path).sa", t) }
        if let so = x.startOpacity { property(so, "\(path).so", t) }
        if let eo = x.endOpacity { property(eo, "\(path).eo", t) }
    }

    /// Counts what an animated property uses: keyframes (hold, eased), motion paths, expressions.
    private func property<V>(_ a: LottieAnimated<V>, _ path: String, _ t: Tallies, spatial: Bool = false) {
        if a.expression != nil { t.add("expression", path, kinds: ["expression"]) }
        guard a.isAnimated else { return }
        t.add("animated property", path)
        let segments = a.keyframes.dropLast()
        if segments.contains(where: \.hold) { t.add("hold keyframes", path) }
        if segments.contains(where: { !$0.hold && Self.isEased($0) }) { t.add("eased keyframes", path) }
        if spatial, segments.contains(where: { k in
            !k.hold && ((k.spatialOut ?? []).contains { $0 != 0 } || (k.spatialIn ?? []).contains { $0 != 0 })
        }) {
            t.add("motion path", path)
        }
    }

    /// A segment whose easing handles are not the straight line.
    static func isEased<V>(_ k: LottieKeyframe<V>) -> Bool {
        zip(k.outEase, k.inEase).contains { o, i in o.x != o.y || i.x != i.y }
    }

    // MARK: Shapes

    private func walkItems(_ items: [LottieShapeItem], path: String, _ t: Tallies) {
        for (i, item) in items.enumerated() {
            let p = "\(path)[\(i)]"
            if item.hidden { t.add("hidden shape item", p); continue }
            switch item.kind {
            case let .group(sub, tr):
                t.add("group", p)
                if let tr { transform(tr, path: "\(p).it.tr", t) }
                walkItems(sub, path: "\(p).it", t)
            case let .rectangle(r):
                t.add("rectangle", p)
                if r.roundness.isAnimated || r.roundness.initialValue.first.map({ $0 != 0 }) == true { t.add("rounded rectangle", "\(p).r") }
                property(r.position, "\(p).p", t, spatial: true); property(r.size, "\(p).s", t); property(r.roundness, "\(p).r", t)
            case let .ellipse(e):
                t.add("ellipse", p)
                property(e.position, "\(p).p", t, spatial: true); property(e.size, "\(p).s", t)
            case let .polystar(s):
                t.add(s.isStar ? "star" : "polygon", p)
                let rounded = [s.outerRoundness, s.innerRoundness].contains { r in
                    r.map { $0.isAnimated || $0.initialValue.first.map { $0 != 0 } == true } ?? false
                }
                if rounded { t.add(s.isStar ? "rounded star" : "rounded polygon", "\(p).os") }
                for (k, v) in [("p", s.position), ("or", s.outerRadius), ("os", s.outerRoundness), ("r", s.rotation), ("pt", s.points)] {
                    property(v, "\(p).\(k)", t, spatial: k == "p")
                }
                if let ir = s.innerRadius { property(ir, "\(p).ir", t) }
                if let `is` = s.innerRoundness { property(`is`, "\(p).is", t) }
            case let .path(b, _):
                t.add(b.isAnimated ? "animated path" : "path", p)
                property(b, "\(p).ks", t)
            case let .fill(f):
                t.add(f.evenOdd ? "fill (even-odd)" : "fill", p)
                property(f.color, "\(p).c", t); property(f.opacity, "\(p).o", t)
            case let .stroke(s):
                t.add("stroke", p)
                property(s.color, "\(p).c", t); property(s.opacity, "\(p).o", t)
                strokeStyle(s.style, path: p, t)
            case let .gradientFill(g):
                t.add("gradient fill (\(g.gradient.isRadial ? "radial" : "linear"))", p)
                gradient(g.gradient, path: p, t); property(g.opacity, "\(p).o", t)
                if g.evenOdd { t.add("fill (even-odd)", p) }
            case let .gradientStroke(g):
                t.add("gradient stroke (\(g.gradient.isRadial ? "radial" : "linear"))", p)
                gradient(g.gradient, path: p, t); property(g.opacity, "\(p).o", t)
                strokeStyle(g.style, path: p, t)
            case let .trim(tm):
                t.add(tm.individually ? "trim path (individually)" : "trim path", p)
                property(tm.start, "\(p).s", t); property(tm.end, "\(p).e", t); property(tm.offset, "\(p).o", t)
            case let .roundedCorners(r):
                t.add("rounded corners", p)
                property(r, "\(p).r", t)
            case let .repeater(r):
                t.add("repeater", p, kinds: ["repeater copies"])
                property(r.copies, "\(p).c", t); property(r.offset, "\(p).o", t)
                transform(r.transform, path: "\(p).tr", t)
            case let .merge(mode):
                let names = [1: "merge", 2: "add", 3: "subtract", 4: "intersect", 5: "exclude intersections"]
                t.add("merge paths (\(names[mode] ?? "mode \(mode)"))", p)
            case let .offsetPath(amount, _, miter):
                t.add("offset path", p, kinds: ["offset path"])
                property(amount, "\(p).a", t); property(miter, "\(p).ml", t)
            case let .puckerBloat(a):
                t.add("pucker/bloat", p)
                property(a, "\(p).a", t)
            case let .zigZag(amplitude, ridges, pointType):
                t.add("zig-zag", p, kinds: ["zig-zag"])
                property(amplitude, "\(p).s", t); property(ridges, "\(p).r", t); property(pointType, "\(p).pt", t)
            case let .transform(x):
                transform(x, path: p, t)
            case let .unknown(type):
                // The names the shape mapping warns with.
                let names = ["tw": "twist", "no": "no style"]
                let name = names[type] ?? "shape item \(type)"
                t.add(name, p, kinds: [name])
            }
        }
    }

    private func strokeStyle(_ s: LottieStrokeStyle, path p: String, _ t: Tallies) {
        property(s.width, "\(p).w", t)
        if !s.dashes.isEmpty {
            let animated = s.dashes.contains { $0.value.isAnimated }
            t.add(animated ? "animated dashes" : "dashes", "\(p).d")
            for (k, d) in s.dashes.enumerated() { property(d.value, "\(p).d[\(k)].v", t) }
        }
    }

    private func gradient(_ g: LottieGradient, path p: String, _ t: Tallies) {
        if g.stops.initialValue.count > g.colorStopCount * 4 { t.add("gradient opacity stops", "\(p).g") }
        property(g.start, "\(p).s", t, spatial: true); property(g.end, "\(p).e", t, spatial: true)
        if let h = g.highlightLength {
            if h.isAnimated || h.initialValue.first.map({ $0 != 0 }) == true { t.add("gradient highlight", "\(p).h") }
            property(h, "\(p).h", t)
        }
        if let a = g.highlightAngle { property(a, "\(p).a", t) }
        property(g.stops, "\(p).g.k", t)
    }
}
