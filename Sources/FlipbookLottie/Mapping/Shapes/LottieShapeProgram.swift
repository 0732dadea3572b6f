import Foundation
import Flipbook

/// The analysed items of one shape list (a shape layer's `shapes`, a glyph's shapes): every
/// visible shape, group, modifier, repeater and style numbered, each style's and modifier's
/// **scope** found, and the evaluation of the outlines at any frame with Lottie's semantics.
///
/// **Scopes.** Items are listed top-most first. A style (`fl`, `st`, `gf`, `gs`) draws the
/// shapes listed before it in its group, and those of the groups listed before it (all their
/// nested shapes). A modifier (`tm`, `rd`, `pb`, `op`, `zz`) changes the shapes listed before it in its
/// group and nested groups — whatever styles draw them, before or after the modifier (as
/// lottie-web and ThorVG apply them); modifiers apply innermost first, then in list order. A
/// repeater (`rp`) repeats what is listed before it; styles after it draw every copy.
///
/// **Evaluation** (``instances(atFrame:)``): each shape's subpaths in its own coordinates,
/// after its modifiers, with the **links** that take it out to the shape list's coordinates:
/// its groups' transforms and the repeater copies' transforms, innermost first. A style's
/// outline (``path(style:atFrame:selection:allCurves:override:)``) is the union of its
/// shapes, each taken through its links up to the style's own group (whose transform the
/// style's layer inherits from its container layer). Hidden items (`hd`) are left out.
final class LottieShapeProgram: @unchecked Sendable {
    /// The most copies a repeater makes (documented clamp; hostile files ask for 10⁹).
    static let maximumCopies = 1000
    /// The most outlines repeaters may multiply the shapes of one shape list into (a repeater
    /// of a repeater of … 1000 copies each; or 1000 copies of 1000 shapes): a repeater that
    /// would pass it makes only as many copies as fit (at least one), with a warning
    /// (``copyLimits``).
    static let maximumInstances = 10_000
    /// The most layers repeater copies built as layers of their own may multiply into (copies
    /// of copies), each drawing its own outline: see ``LottieRepeaterLayers``.
    static let maximumCopyLayers = 1000

    final class Group {
        let id: Int
        let path: String
        let transform: LottieTransform?
        var nodes: [Node] = []
        init(id: Int, path: String, transform: LottieTransform?) { self.id = id; self.path = path; self.transform = transform }
    }

    enum Node {
        case shape(Int)
        case group(Group)
        case modifier(Int)
        case repeater(Int)
        case style(Int)
        case merge(Int)
    }

    struct Shape {
        var kind: LottieShapeItem.Kind
        var path: String
        /// Modifiers and repeaters applying to it, in the order they apply.
        var modifiers: [Int] = []
        var repeaters: [Int] = []
        /// The groups between it and the shape list, innermost first.
        var groups: [Int] = []
        /// For the outline a merge paths item makes of the shapes before it: the merge.
        var merge: Int?
    }

    enum ModifierKind {
        case trim(LottieTrim)
        case roundedCorners(LottieAnimated<LottieVector>)
        case puckerBloat(LottieAnimated<LottieVector>)
        case offsetPath(amount: LottieAnimated<LottieVector>, lineJoin: Int, miterLimit: LottieAnimated<LottieVector>)
        case zigZag(amplitude: LottieAnimated<LottieVector>, ridges: LottieAnimated<LottieVector>, pointType: LottieAnimated<LottieVector>)
    }

    struct Modifier {
        var kind: ModifierKind
        var path: String
        var scope: [Int] = []
        var isAnimated: Bool {
            switch kind {
            case let .trim(t): return t.start.isAnimated || t.end.isAnimated || t.offset.isAnimated
            case let .roundedCorners(r): return r.isAnimated
            case let .puckerBloat(a): return a.isAnimated
            case let .offsetPath(a, _, ml): return a.isAnimated || ml.isAnimated
            case let .zigZag(a, r, pt): return a.isAnimated || r.isAnimated || pt.isAnimated
            }
        }
        /// True for modifiers whose result on one shape depends on the others.
        var spansShapes: Bool { if case let .trim(t) = kind { return t.individually }; return false }
    }

    struct Repeater {
        var value: LottieRepeater
        var path: String
        var group: Int
        var scope: [Int] = []
        var isAnimated: Bool {
            let t = value.transform
            return value.copies.isAnimated || value.offset.isAnimated || LottieGroupTransform.isGeometryAnimated(t)
        }
    }

    struct Style {
        var kind: LottieShapeItem.Kind
        var path: String
        var group: Group
        var scope: [Int] = []
    }

    struct Merge {
        var mode: Int
        var path: String
        var group: Int
        /// The shape standing for the merged outline.
        var shape: Int
        var scope: [Int] = []
    }

    private(set) var root: Group
    private(set) var groups: [Group] = []
    private(set) var shapes: [Shape] = []
    private(set) var modifiers: [Modifier] = []
    private(set) var repeaters: [Repeater] = []
    private(set) var styles: [Style] = []
    private(set) var merges: [Merge] = []
    /// The most copies each repeater makes: ``maximumCopies``, or fewer where the outlines
    /// before it times its copies would pass ``maximumInstances``.
    private(set) var copyLimits: [Int] = []

    /// Analyses `items` (JSON path `path`), warning on `context` about items not drawn exactly.
    init(items: [LottieShapeItem], path: String, context: LottieMappingContext?) {
        root = Group(id: 0, path: path, transform: nil)
        groups = [root]
        root = build(items, path: path, id: 0, transform: nil, context: context)
        groups[0] = root
        _ = walk(root, groupChain: [])
        copyLimits = Array(repeating: Self.maximumCopies, count: repeaters.count)
        _ = countInstances(root, context: context)
    }

    /// The most outlines `g` evaluates to (repeaters at their largest keyframe count), setting
    /// ``copyLimits`` and warning where a repeater would pass ``maximumInstances``.
    private func countInstances(_ g: Group, context: LottieMappingContext?) -> Int {
        var count = 0
        for node in g.nodes {
            switch node {
            case .shape, .merge: count += 1
            case let .group(h): count += countInstances(h, context: context)
            case let .repeater(r):
                let asked = repeaters[r].value.copies.keyframes.map { LottieShapeGeometry.at($0.value, 0) }.max() ?? 0
                let copies = asked.isFinite && asked >= 1 ? Int(min(asked, Double(Self.maximumCopies)).rounded(.down)) : 0
                let allowed = min(max(1, Self.maximumInstances / max(count, 1)), Self.maximumCopies)
                copyLimits[r] = allowed
                if count > 0, copies > allowed {
                    context?.warn("repeater copies", path: repeaters[r].path,
                                  "\(copies) copies of \(count) outlines would make \(copies * count); clamped to \(allowed) copies (at most \(Self.maximumInstances) outlines)")
                }
                count *= min(copies, allowed)
            case .modifier, .style: break
            }
        }
        return count
    }

    private func build(_ items: [LottieShapeItem], path: String, id: Int, transform: LottieTransform?,
                       context: LottieMappingContext?) -> Group {
        // A `tr` item left among the items (outside a group's last place) transforms the list.
        var transform = transform
        for item in items where !item.hidden { if case let .transform(t) = item.kind { transform = t } }
        let g = Group(id: id, path: path, transform: transform)
        if id < groups.count { groups[id] = g }
        for (i, item) in items.enumerated() where !item.hidden {
            let p = path.isEmpty ? "[\(i)]" : "\(path)[\(i)]"
            switch item.kind {
            case .rectangle, .ellipse, .polystar, .path:
                if case let .polystar(star) = item.kind,
                   let most = star.points.keyframes.map({ LottieShapeGeometry.at($0.value, 0) }).max(),
                   most > LottieShapeGeometry.maximumPoints {
                    context?.warn("polystar points", path: "\(p).pt", "\(_LottieNode.format(most)) points asked; clamped to \(_LottieNode.format(LottieShapeGeometry.maximumPoints))")
                }
                shapes.append(Shape(kind: item.kind, path: p))
                g.nodes.append(.shape(shapes.count - 1))
            case let .group(sub, t):
                let gid = groups.count
                groups.append(g)   // placeholder, replaced in build
                let child = build(sub, path: "\(p).it", id: gid, transform: t, context: context)
                groups[gid] = child
                g.nodes.append(.group(child))
            case .fill, .stroke, .gradientFill, .gradientStroke:
                styles.append(Style(kind: item.kind, path: p, group: g))
                g.nodes.append(.style(styles.count - 1))
            case let .trim(t):
                modifiers.append(Modifier(kind: .trim(t), path: p))
                g.nodes.append(.modifier(modifiers.count - 1))
            case let .roundedCorners(r):
                modifiers.append(Modifier(kind: .roundedCorners(r), path: p))
                g.nodes.append(.modifier(modifiers.count - 1))
            case let .puckerBloat(a):
                modifiers.append(Modifier(kind: .puckerBloat(a), path: p))
                g.nodes.append(.modifier(modifiers.count - 1))
            case let .repeater(r):
                repeaters.append(Repeater(value: r, path: p, group: id))
                g.nodes.append(.repeater(repeaters.count - 1))
            case var .merge(mode):
                // Mode 1 (merge) makes the shapes before it one compound path: one operand for
                // a later merge (lottie-android's MergePathsContent). Modes Lottie does not
                // define are read as 1.
                if !(1...5).contains(mode) {
                    context?.warn("merge mode", path: "\(p).mm", "merge mode \(mode) is not a Lottie mode; read as 1 (merge)")
                    mode = 1
                }
                shapes.append(Shape(kind: item.kind, path: p, merge: merges.count))
                merges.append(Merge(mode: mode, path: p, group: id, shape: shapes.count - 1))
                g.nodes.append(.merge(merges.count - 1))
            case let .offsetPath(amount, lineJoin, miterLimit):
                modifiers.append(Modifier(kind: .offsetPath(amount: amount, lineJoin: lineJoin, miterLimit: miterLimit), path: p))
                g.nodes.append(.modifier(modifiers.count - 1))
            case let .zigZag(amplitude, ridges, pointType):
                modifiers.append(Modifier(kind: .zigZag(amplitude: amplitude, ridges: ridges, pointType: pointType), path: p))
                g.nodes.append(.modifier(modifiers.count - 1))
            case .transform:
                break
            case let .unknown(type):
                let names = ["zz": "zig-zag", "tw": "twist", "no": "no style", "mm": "merge paths"]
                context?.warn(names[type] ?? "shape item \(type)", path: p,
                              "shape item type \"\(type)\" is not drawn; the other items are")
            }
        }
        return g
    }

    /// Records scopes: returns the shapes of `g` (nested ones included), in file order.
    private func walk(_ g: Group, groupChain: [Int]) -> [Int] {
        var ids: [Int] = []
        for node in g.nodes {
            switch node {
            case let .shape(s):
                ids.append(s)
            case let .group(h):
                let sub = walk(h, groupChain: groupChain + [h.id])
                for s in sub { shapes[s].groups.append(h.id) }
                ids += sub
            case let .modifier(m):
                modifiers[m].scope = ids
                for s in ids { shapes[s].modifiers.append(m) }
            case let .repeater(r):
                repeaters[r].scope = ids
                for s in ids { shapes[s].repeaters.append(r) }
            case let .style(s):
                styles[s].scope = ids
            case let .merge(m):
                // The shapes before it become one: styles and modifiers after it see that one.
                merges[m].scope = ids
                ids = [merges[m].shape]
            }
        }
        return ids
    }

    // MARK: Dependencies

    /// What a style's outline depends on.
    struct Dependencies {
        var shapes: Set<Int> = []
        var modifiers: Set<Int> = []
        var groups: Set<Int> = []
        var repeaters: Set<Int> = []
    }

    /// The shapes, modifiers, nested groups and repeaters a style's outline depends on, given
    /// the repeaters whose copies its layers make (`selected`: their transforms are the layers').
    func dependencies(ofStyle s: Int, selected: Set<Int>) -> Dependencies {
        var d = Dependencies()
        let style = styles[s]
        var pending = style.scope
        var mergeGroups: [(shape: Int, group: Int)] = []
        while let id = pending.popLast() {
            guard d.shapes.insert(id).inserted else { continue }
            let shape = shapes[id]
            for m in shape.modifiers where d.modifiers.insert(m).inserted && modifiers[m].spansShapes {
                pending += modifiers[m].scope
            }
            if let m = shape.merge {
                pending += merges[m].scope
                for op in merges[m].scope { mergeGroups.append((op, merges[m].group)) }
            }
        }
        // The groups between a merge's operands and the merge.
        for (op, g) in mergeGroups {
            for h in shapes[op].groups {
                if h == g { break }
                d.groups.insert(h)
            }
        }
        for id in style.scope {
            for g in shapes[id].groups {
                if g == style.group.id { break }
                d.groups.insert(g)
            }
        }
        // Repeaters in the style's group or below it (outer ones are the layers' copies).
        for id in style.scope {
            for r in shapes[id].repeaters where !selected.contains(r)
                && (repeaters[r].group == style.group.id || d.groups.contains(repeaters[r].group)) {
                d.repeaters.insert(r)
            }
        }
        return d
    }

    /// True when the style's outline changes with time.
    func isAnimated(_ d: Dependencies) -> Bool {
        d.shapes.contains { LottieShapeGeometry.isAnimated(shapes[$0].kind) }
            || d.modifiers.contains { modifiers[$0].isAnimated }
            || d.groups.contains { LottieGroupTransform.isGeometryAnimated(groups[$0].transform) }
            || d.repeaters.contains { repeaters[$0].isAnimated }
    }

    // MARK: Evaluation

    /// Where a shape's outline is taken to reach the shape list's coordinates.
    enum Link: Equatable {
        /// Out of group `id` (its transform).
        case group(Int)
        /// Copy `k` of repeater `r` (its transform for that copy).
        case copy(repeater: Int, k: Int, CGAffineTransform)
    }

    struct Instance {
        var shape: Int
        var paths: [LottieBezier]
        var links: [Link]
    }

    private let lock = NSLock()
    private var cache: [(frame: Double, skipping: Set<Int>, instances: [Instance])] = []

    /// Every shape's outline at local frame `f`, without the modifiers in `skipping` (cached
    /// for the last few requests: the layers of one shape list ask for the same frame in turn).
    func instances(atFrame f: Double, skipping: Set<Int> = []) -> [Instance] {
        lock.lock()
        if let hit = cache.first(where: { $0.frame == f && $0.skipping == skipping }) { lock.unlock(); return hit.instances }
        lock.unlock()
        let result = evaluate(root, f, override: nil, skipping: skipping)
        lock.lock()
        cache.append((f, skipping, result))
        if cache.count > 6 { cache.removeFirst() }
        lock.unlock()
        return result
    }

    /// `override`: a shape drawn with this bezier instead of its own value (key values of a
    /// path animation).
    /// `atLeast`: repeater → a copy index it must produce whatever its count at `f`.
    private func evaluate(_ g: Group, _ f: Double, override: (shape: Int, bezier: LottieBezier)?,
                          skipping: Set<Int> = [], atLeast: [Int: Int] = [:]) -> [Instance] {
        var out: [Instance] = []
        for node in g.nodes {
            switch node {
            case let .shape(s):
                let paths: [LottieBezier]
                if let o = override, o.shape == s { paths = [o.bezier] } else { paths = LottieShapeGeometry.paths(of: shapes[s].kind, atFrame: f) ?? [] }
                out.append(Instance(shape: s, paths: paths, links: []))
            case let .group(h):
                var sub = evaluate(h, f, override: override, skipping: skipping, atLeast: atLeast)
                for i in sub.indices { sub[i].links.append(.group(h.id)) }
                out += sub
            case let .modifier(m):
                guard !skipping.contains(m) else { continue }
                let scope = Set(modifiers[m].scope)
                if out.allSatisfy({ scope.contains($0.shape) }) {
                    apply(modifiers[m], to: &out, atFrame: f)
                } else {
                    // Shapes a merge consumed stay for the styles before it, unmodified.
                    let indices = out.indices.filter { scope.contains(out[$0].shape) }
                    var part = indices.map { out[$0] }
                    apply(modifiers[m], to: &part, atFrame: f)
                    for (i, inst) in zip(indices, part) { out[i] = inst }
                }
            case let .merge(m):
                // Each shape before the merge is one operand, each in its own right (its inside by
                // its own non-zero winding, so two copies of an outline drawn in opposite
                // directions do not cancel); a mode-1 merge before it made its shapes one.
                let merge = merges[m]
                let scope = Set(merge.scope)
                var operands: [[LottiePathBoolean.Ring]] = []
                var compound: [LottieBezier] = []
                for inst in out where scope.contains(inst.shape) {
                    var t = CGAffineTransform.identity
                    for link in inst.links {
                        switch link {
                        case let .group(id): t = t.concatenating(LottieGroupTransform.matrix(groups[id].transform, atFrame: f))
                        case let .copy(_, _, mt): t = t.concatenating(mt)
                        }
                    }
                    if merge.mode == 1 {
                        compound += inst.paths.map { Self.transformed($0, by: t) }
                        continue
                    }
                    operands.append(inst.paths.map { LottiePathBoolean.flatten($0, transform: t) })
                }
                if merge.mode == 1 {
                    out.append(Instance(shape: merge.shape, paths: compound, links: []))
                } else {
                    let loops = LottiePathBoolean.combine(operands, mode: merge.mode)
                    out.append(Instance(shape: merge.shape, paths: loops.map(LottiePathBoolean.bezier), links: []))
                }
            case let .repeater(r):
                let rep = repeaters[r].value
                // At most `maximumInstances` outlines (warned when the program was built; the
                // second bound only matters where easing overshoots the keyframes' counts); at
                // least the copy a layer stands for (`atLeast`).
                let bounded = min(copies(repeater: r, atFrame: f), max(1, Self.maximumInstances / max(out.count, 1)))
                let n = max(bounded, atLeast[r].map { min($0, copyLimits[r] - 1) + 1 } ?? 0)
                let offset = LottieShapeGeometry.at(rep.offset.value(atFrame: f), 0)
                var copies: [Instance] = []
                copies.reserveCapacity(out.count * n)
                for k in 0..<n {
                    let m = Self.repeaterTransform(rep.transform, multiplier: Double(k) + offset, atFrame: f)
                    for var inst in out { inst.links.append(.copy(repeater: r, k: k, m)); copies.append(inst) }
                }
                out = copies
            case .style:
                break
            }
        }
        return out
    }

    private func apply(_ m: Modifier, to out: inout [Instance], atFrame f: Double) {
        switch m.kind {
        case let .trim(t):
            var shapes = out.map(\.paths)
            LottieTrimModifier.apply(to: &shapes, start: LottieShapeGeometry.at(t.start.value(atFrame: f), 0),
                                     end: LottieShapeGeometry.at(t.end.value(atFrame: f), 0),
                                     offset: LottieShapeGeometry.at(t.offset.value(atFrame: f), 0), individually: t.individually)
            for i in out.indices { out[i].paths = shapes[i] }
        case let .roundedCorners(r):
            let radius = LottieShapeGeometry.at(r.value(atFrame: f), 0)
            guard radius > 0 else { return }
            for i in out.indices { out[i].paths = out[i].paths.map { LottieVertexModifiers.roundCorners($0, radius: radius) } }
        case let .puckerBloat(a):
            let amount = LottieShapeGeometry.at(a.value(atFrame: f), 0)
            for i in out.indices { out[i].paths = out[i].paths.map { LottieVertexModifiers.puckerBloat($0, amount: amount) } }
        case let .offsetPath(a, lineJoin, ml):
            let amount = LottieShapeGeometry.at(a.value(atFrame: f), 0)
            let limit = LottieShapeGeometry.at(ml.value(atFrame: f), 0)
            guard amount != 0 else { return }
            for i in out.indices {
                out[i].paths = out[i].paths.map { LottieOffsetPath.offset($0, amount: amount, lineJoin: lineJoin, miterLimit: limit) }
            }
        case let .zigZag(a, r, pt):
            let amplitude = LottieShapeGeometry.at(a.value(atFrame: f), 0)
            let ridges = LottieShapeGeometry.at(r.value(atFrame: f), 0)
            let smooth = LottieShapeGeometry.at(pt.value(atFrame: f), 0) == 2
            guard amplitude != 0, amplitude.isFinite, ridges.isFinite else { return }
            let n = Int(min(max(ridges.rounded(), 0), Double(LottieVertexModifiers.maximumRidges)))
            for i in out.indices {
                out[i].paths = out[i].paths.map { LottieVertexModifiers.zigZag($0, amplitude: amplitude, ridges: n, smooth: smooth) }
            }
        }
    }

    /// `b` through the affine map `t` (vertices mapped, tangents — offsets — by its linear part).
    static func transformed(_ b: LottieBezier, by t: CGAffineTransform) -> LottieBezier {
        guard t != .identity else { return b }
        let linear = CGAffineTransform(a: t.a, b: t.b, c: t.c, d: t.d, tx: 0, ty: 0)
        return LottieBezier(closed: b.closed, vertices: b.vertices.map { $0.applying(t) },
                            inTangents: b.inTangents.map { $0.applying(linear) }, outTangents: b.outTangents.map { $0.applying(linear) })
    }

    /// The number of copies repeater `r` makes at a frame: ``copies(_:atFrame:)`` within
    /// ``copyLimits``.
    func copies(repeater r: Int, atFrame f: Double) -> Int {
        min(Self.copies(repeaters[r].value, atFrame: f), copyLimits[r])
    }

    /// The number of copies at a frame: `⌊c⌋` (as ThorVG and rlottie), 0…``maximumCopies``.
    static func copies(_ r: LottieRepeater, atFrame f: Double) -> Int {
        let c = LottieShapeGeometry.at(r.copies.value(atFrame: f), 0)
        guard c.isFinite, c >= 1 else { return 0 }
        return Int(min(c, Double(maximumCopies)).rounded(.down))
    }

    /// A repeater copy's transform for multiplier `μ` (copy index plus offset), as ThorVG,
    /// rlottie and lottie-web build it: `translate(μ·p + a) · scale(sᵘ) · rotate(μ·r) ·
    /// translate(−a)` — the position steps along a straight line, rotation and scale turn
    /// about the anchor.
    static func repeaterTransform(_ t: LottieTransform, multiplier mu: Double, atFrame f: Double) -> CGAffineTransform {
        let a = LottieShapeGeometry.point(t.anchor.value(atFrame: f))
        let p = LottieGroupTransform.position(t, atFrame: f)
        let s = t.scale.value(atFrame: f)
        let sx = LottieShapeGeometry.at(s, 0) / 100, sy = s.count > 1 ? LottieShapeGeometry.at(s, 1) / 100 : sx
        let r = LottieShapeGeometry.at(t.rotation.value(atFrame: f), 0) * .pi / 180
        return CGAffineTransform(translationX: -a.x, y: -a.y)
            .concatenating(CGAffineTransform(rotationAngle: r * mu))
            .concatenating(CGAffineTransform(scaleX: pow(sx, mu), y: pow(sy, mu)))
            .concatenating(CGAffineTransform(translationX: mu * p.x + a.x, y: mu * p.y + a.y))
    }

    /// The outline a style draws at local frame `f`: its shapes taken through their links up to
    /// the style's group. `selection` names the repeater copies the style's layers stand for
    /// (only that copy's shapes, without the copy's transform: the layers carry it).
    /// `allCurves`: every segment a cubic (uniform structure for path animations).
    func path(style s: Int, atFrame f: Double, selection: [Int: Int] = [:], allCurves: Bool = false,
              override: (shape: Int, bezier: LottieBezier)? = nil, skipping: Set<Int> = []) -> CGPath {
        let out = CGMutablePath()
        let style = styles[s]
        let scope = Set(style.scope)
        let all = override == nil ? instances(atFrame: f, skipping: skipping) : evaluate(root, f, override: override, skipping: skipping)
        var found = false
        for inst in all where scope.contains(inst.shape) {
            guard let t = transform(of: inst, upTo: style.group.id, atFrame: f, selection: selection) else { continue }
            found = true
            for b in inst.paths { b.append(to: out, transform: t, allCurves: allCurves) }
        }
        // A copy the frame does not show (a repeater with fewer copies then — none, say, at a
        // first frame where the count animates up from 0): its outline is still the one it has
        // when shown, so the repeaters are evaluated with at least the selected copies (a static
        // outline built at one frame serves every frame; the copy's container hides it).
        if !found, !selection.isEmpty {
            let forced = evaluate(root, f, override: override, skipping: skipping, atLeast: selection)
            for inst in forced where scope.contains(inst.shape) {
                guard let t = transform(of: inst, upTo: style.group.id, atFrame: f, selection: selection) else { continue }
                for b in inst.paths { b.append(to: out, transform: t, allCurves: allCurves) }
            }
        }
        return out
    }

    /// The transform taking an instance to group `g`'s coordinates; nil when the instance is a
    /// repeater copy other than the selected one.
    func transform(of inst: Instance, upTo g: Int, atFrame f: Double, selection: [Int: Int]) -> CGAffineTransform? {
        var t = CGAffineTransform.identity
        var reached = false
        for link in inst.links {
            switch link {
            case let .group(id):
                if id == g { reached = true }
                if !reached { t = t.concatenating(LottieGroupTransform.matrix(groups[id].transform, atFrame: f)) }
            case let .copy(r, k, m):
                // Past the style's group, a repeater around it still selects which copy these
                // layers stand for (their containers carry the copy's transform).
                if let want = selection[r] {
                    if want != k { return nil }
                } else if !reached {
                    t = t.concatenating(m)
                }
            }
        }
        return t
    }
}
