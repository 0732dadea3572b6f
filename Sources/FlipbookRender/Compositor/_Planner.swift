import Flipbook
import FlipbookRaster
import Foundation
import Dispatch

/// The planning pass: walks an immutable `RenderLayer` tree once and emits a flat list of
/// device-space `_Op`s (Sendable), so that execution never looks at layers again.
///
/// Geometry (row vectors, as `CATransform3D`): a point `p` of a layer maps to its superlayer by
///
///     local = T(−(bounds.minX + anchor.x·w), −(bounds.minY + anchor.y·h), −anchorPointZ)
///             · transform · T(position.x, position.y, zPosition)
///
/// and a superlayer `P` contributes, for its sublayers, `T(−cₓ, −c_y, 0) · P.sublayerTransform
/// · T(cₓ, c_y, 0)` with `c` = `P`'s anchor point in its bounds (as Core Animation, and as
/// `CALayer._toSuperlayer` in the model; the centre for the default anchor), then its own `local`, up to the root,
/// whose superlayer space is the device scaled by `scale`. The layer plane (z = 0) is then a
/// homography onto the device (`_Homography(planeOf:)`).
struct _Planner {
    let width: Int, height: Int
    let scale: Double
    let mips: _MipCache
    var ops: [_Op] = []
    /// How many `layer(…)` calls are on the stack (see ``maximumDepth``).
    var depth = 0
    /// While a layer's own background and contents are planned inside its clip group (see
    /// `layer`): the clip's pixel bounds. Those draws then cover the layer's whole bounds
    /// without a shape of their own, the group's clip giving the edge (no coverage applied twice).
    var ownClipGroup: _IRect? = nil
    /// The tint of the layer being planned when it is applied to its contents draw directly
    /// (see `layer(…)`: a tinted layer that draws nothing but its contents needs no group).
    var contentsTint: UInt32? = nil
    /// How many shadow offscreens this planner is nested in (`_Planner+Shadow.swift`).
    var shadowNesting = 0
    /// The longer side of the frame being rendered (in a shadow offscreen's planner: of the
    /// real frame, not of the offscreen's larger device). Shadow reach and blur are capped by it
    /// so the work of a frame is bounded by the output (`_Planner+Shadow.swift`).
    var outputSide: Int
    /// In a shadow offscreen's planner: the part of its device the offscreen reads (its `need`);
    /// shadows nested in it are drawn only there. Nil: the whole frame.
    var shadowRegion: _IRect? = nil
    /// Threads the planner may use for a layer's many sublayers (`planSublayers`).
    var parallelism = 1
    /// Emitter particles from their flat records (`_Planner+Particles.swift`); false: through
    /// their nodes (`RenderLayer.sublayers`), the reference the flat path must match.
    var plansParticlesFlat = true
    /// Leaves out clip groups that change nothing (``endClipGroup(_:clip:)``); false keeps them
    /// (tests compare the two).
    var elidesClipGroups = true
    /// The earlier frames' sublayer runs (read only), and the runs this planner made
    /// (`_PlanRuns`); nil plans everything.
    var runs: _PlanRuns? = nil
    var newRuns: [_PlanRuns.Run] = []
    /// Sublayers whose run was reused (statistics, tests).
    var runHits = 0
    /// The shadow offscreens this planner made (and those nested in them): statistics, and the
    /// quantity the work bound of `_Planner+Shadow.swift` limits (tests).
    var offscreenWork = _OffscreenWork()

    /// The deepest layer nesting drawn: sublayers deeper than this (counted from the root, masks
    /// and transition pictures included) are skipped, so an absurdly deep tree cannot overflow
    /// the stack of the thread that renders it. Real layer trees are a few dozen levels deep.
    static let maximumDepth = 256

    var frame: _IRect { _IRect(x0: 0, y0: 0, x1: width, y1: height) }

    init(width: Int, height: Int, scale: Double, mips: _MipCache) {
        self.width = width; self.height = height; self.scale = scale; self.mips = mips
        self.outputSide = max(width, height)
    }

    /// Plans the tree rooted at `root`.
    mutating func plan(root: RenderLayer) {
        let device = CATransform3DMakeScale(CGFloat(scale), CGFloat(scale), 1)
        layer(root, parent: device, clips: [], opacity: 1, offset: (0, 0), ignoreTransition: false)
    }

    /// The layer-to-superlayer matrix, with an extra layer-space translation `offset`
    /// (used by transitions that slide content).
    static func local(_ l: RenderLayer, offset: (Double, Double)) -> CATransform3D {
        local(bounds: l.bounds, anchorPoint: l.anchorPoint, anchorPointZ: l.anchorPointZ, transform: l.transform,
              position: l.position, zPosition: l.zPosition, offset: offset)
    }

    /// `local(_:offset:)` from the values themselves (an emitter particle has no node).
    @inline(__always)
    static func local(bounds b: CGRect, anchorPoint: CGPoint, anchorPointZ: CGFloat, transform: CATransform3D,
                      position: CGPoint, zPosition: CGFloat, offset: (Double, Double)) -> CATransform3D {
        let ax = b.minX + anchorPoint.x * b.width, ay = b.minY + anchorPoint.y * b.height
        let pre = CATransform3DMakeTranslation(CGFloat(offset.0) - ax, CGFloat(offset.1) - ay, -anchorPointZ)
        return pre * transform * CATransform3DMakeTranslation(position.x, position.y, zPosition)
    }

    /// The matrix a layer's sublayers see as their superlayer space, given the layer's own
    /// layer-to-device matrix `m`.
    static func sublayerSpace(_ l: RenderLayer, _ m: CATransform3D) -> CATransform3D {
        if CATransform3DIsIdentity(l.sublayerTransform) { return m }
        let cx = l.bounds.minX + l.anchorPoint.x * l.bounds.width
        let cy = l.bounds.minY + l.anchorPoint.y * l.bounds.height
        return CATransform3DMakeTranslation(-cx, -cy, 0) * l.sublayerTransform
            * CATransform3DMakeTranslation(cx, cy, 0) * m
    }

    static func isFinite(_ r: CGRect) -> Bool {
        r.origin.x.isFinite && r.origin.y.isFinite && r.size.width.isFinite && r.size.height.isFinite
    }

    /// True when the layer itself draws something (background, contents, border or shadow).
    static func drawsOwnContent(_ l: RenderLayer) -> Bool {
        (l.backgroundColor.map { $0.alpha > 0 } ?? false) || l.contents != nil
            || (l.borderWidth > 0 && (l.borderColor.map { $0.alpha > 0 } ?? false))
            || (l.shadowOpacity > 0 && (l.shadowColor.map { $0.alpha > 0 } ?? false))
            || drawsShape(l)  // CAShapeLayer (_Planner+Shape.swift)
            || !(l.gradient?.colors.isEmpty ?? true)  // CAGradientLayer (_Planner+Gradient.swift)
    }

    /// Number of drawing layers in the subtree, counted up to `limit`.
    static func drawingCount(_ l: RenderLayer, limit: Int, depth: Int = 0) -> Int {
        if l.isHidden || !(l.opacity > 0) || depth >= maximumDepth { return 0 }
        var n = drawsOwnContent(l) ? 1 : 0
        if l.transition != nil { n += 1 }
        // Particles (each draws its contents, nothing else) counted without building their nodes.
        if let p = l.particles, depth + 1 < maximumDepth { n += min(p.items.count, max(0, limit - n)) }
        for s in l.ownSublayers where n < limit { n += drawingCount(s, limit: limit - n, depth: depth + 1) }
        return n
    }

    /// True when `masksToBounds` would clip more than one draw of `l` (its own background or
    /// contents, drawing sublayers): then the clip is applied once, to a group. A single drawing
    /// sublayer counts once even when it draws several things.
    static func clipsSeveralDraws(_ l: RenderLayer) -> Bool {
        var n = (l.backgroundColor.map { $0.alpha > 0 } ?? false) || l.contents != nil ? 1 : 0
        if drawsShape(l) { n += 1 }  // CAShapeLayer (_Planner+Shape.swift)
        if !(l.gradient?.colors.isEmpty ?? true) { n += 1 }  // CAGradientLayer
        if let p = l.particles { n += min(p.items.count, max(0, 2 - n)) }
        for s in l.ownSublayers where n < 2 { n += drawingCount(s, limit: 2 - n) }
        return n >= 2
    }

    /// Closes a clip group opened at `index`: its content composited once, multiplied by the
    /// coverage of `clip` (several shapes multiply, as in a draw).
    ///
    /// **No group when it changes nothing.** When every clip covers all of the content fully
    /// (inside each shape's ``_Shape/interior``) and the group's own drawings — its draws and
    /// the nested groups it composites, by source-over — touch pairwise disjoint pixels, each
    /// pixel receives at most one `x` (a value that does not depend on the pixel below:
    /// `over(x, d)`). Through the group it is `over(over(x, 0), d) = over(x, d)` (`over(x, 0)
    /// = x` exactly; the pop's clip coverage is 255 there and opacity 255 scales by 1), drawn
    /// directly it is `over(x, d)`: the same bytes, without clearing and compositing the
    /// group's pixels. The push is then taken out and no pop added.
    mutating func endClipGroup(_ index: Int, clip: [_Shape]) {
        var content = _IRect.empty
        for op in ops[(index + 1)...] { content = content.union(op.bounds) }
        content = content.intersection(frame)
        if elidesClipGroups, Self.clipChangesNothing(ops[(index + 1)...], content: content, clip: clip) {
            ops.remove(at: index)
            return
        }
        for c in clip { content = content.intersection(c.bounds) }
        ops[index] = .push(bounds: content)
        ops.append(.pop(bounds: content, alpha: 255, mode: .over, mask: nil, clip: clip))
    }

    /// Whether a clip group over `inner` (its ops, after the push) can be left out (see
    /// ``endClipGroup(_:clip:)``): every clip fully covers `content`, no tint acts on the
    /// group itself, every nested group it composites is source-over, and the footprints of
    /// its draws and nested groups (their bounds, which nothing they write leaves) are
    /// pairwise disjoint. At most 64 footprints are compared (else: keep the group).
    static func clipChangesNothing(_ inner: ArraySlice<_Op>, content: _IRect, clip: [_Shape]) -> Bool {
        if content.isEmpty { return false }
        for c in clip where !coversFully(c, content) { return false }
        var footprints: [_IRect] = []
        var depth = 0
        for op in inner {
            switch op {
            case .draw(let d):
                if depth == 0 {
                    // A particle batch is its particles' draws, which may overlap each other.
                    if case .particles(let b) = d.paint {
                        if footprints.count + b.records.count > 64 { return false }
                        for r in b.records { footprints.append(r.bounds) }
                    } else {
                        footprints.append(d.bounds)
                    }
                }
            case .push:
                depth += 1
            case .pop(let b, _, let mode, let mask, _):
                depth -= mask == nil ? 1 : 2
                if depth == 0 {
                    guard mode == .over else { return false }
                    footprints.append(b)
                }
            case .tint:
                if depth == 0 { return false }
            }
            if footprints.count > 64 { return false }
        }
        guard depth == 0 else { return false }
        for i in footprints.indices {
            let a = footprints[i]
            if a.isEmpty { continue }
            for j in footprints.indices where j > i {
                if !a.intersection(footprints[j]).isEmpty { return false }
            }
        }
        return true
    }

    /// Whether every pixel of `r` has coverage 255 in `c`: inside its ``_Shape/interior``, or —
    /// for a polygon outline filled non-zero — the rectangle of those pixels, grown by one
    /// fixed-point unit, lies strictly on the inner side of every edge of the fixed-point
    /// polygon the rasterizer fills. Then no edge crosses those pixels and each point of them
    /// has winding number ≥ 1 (strictly left, or right, of every edge: each edge subtends a
    /// positive angle), so each pixel is fully covered.
    static func coversFully(_ c: _Shape, _ r: _IRect) -> Bool {
        if let full = c.interior, full.intersection(r) == r { return true }
        guard c.rule == .nonZero, c.flat == nil, let poly = c.fixed, !r.isEmpty else { return false }
        let x0 = Int64(r.x0) * 256 - 1, y0 = Int64(r.y0) * 256 - 1, x1 = Int64(r.x1) * 256 + 1, y1 = Int64(r.y1) * 256 + 1
        let corners = [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
        let p = poly.points, n = p.count / 2
        guard n >= 3 else { return false }
        var side = 0
        for i in 0..<n {
            let j = (i + 1) % n
            let ax = Int64(p[2 * i]), ay = Int64(p[2 * i + 1]), bx = Int64(p[2 * j]), by = Int64(p[2 * j + 1])
            if ax == bx && ay == by { continue }
            for (cx, cy) in corners {
                let cross = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax)
                if cross == 0 { return false }
                let s = cross > 0 ? 1 : -1
                if side == 0 { side = s } else if s != side { return false }
            }
        }
        return side != 0
    }

    // MARK: Groups

    mutating func beginGroup() -> Int {
        ops.append(.push(bounds: .empty))
        return ops.count - 1
    }

    /// Closes the group opened at `index` (and, when `maskIndex` is given, the mask group
    /// opened before it, read as `maskMode`): bounds are the union of everything drawn inside —
    /// within the mask's, unless the mask is inverted (then the content shows where the mask
    /// draws nothing).
    mutating func endGroup(_ index: Int, alpha: UInt32, mode: _GroupMode, maskIndex: Int? = nil,
                           maskMode: _LayerMaskMode = .alpha) {
        var content = _IRect.empty
        for op in ops[(index + 1)...] { content = content.union(op.bounds) }
        content = content.intersection(frame)
        ops[index] = .push(bounds: content)
        if let m = maskIndex {
            var maskBounds = _IRect.empty
            for op in ops[(m + 1)..<index] { maskBounds = maskBounds.union(op.bounds) }
            ops[m] = .push(bounds: maskBounds.intersection(frame))
            if !maskMode.isInverted { content = content.intersection(maskBounds) }
        }
        ops.append(.pop(bounds: content, alpha: alpha, mode: mode, mask: maskIndex == nil ? nil : maskMode, clip: []))
    }

    /// How `l`'s group is composited: its compositing filter's mode, else `plus` for an
    /// additive particle, else source-over.
    static func groupMode(_ l: RenderLayer) -> _GroupMode {
        let m = filterMode(l)
        return m == .over && l.blendsAdditively ? .plus : m
    }

    /// The group mode of `l.compositingMode` alone (plusLighter is the `plus` group mode, its
    /// exact equal: `div255((S + D)·255)` clamped is `min(255, S + D)`).
    static func filterMode(_ l: RenderLayer) -> _GroupMode {
        switch l.compositingMode {
        case .normal: return .over
        case .plusLighter: return .plus
        case let m: return .blend(m._raster)
        }
    }

    // MARK: The tree walk

    mutating func layer(_ l: RenderLayer, parent: CATransform3D, clips: [_Shape], opacity inherited: Double,
                        offset: (Double, Double), ignoreTransition: Bool) {
        guard !l.isHidden, l.opacity > 0, l.opacity.isFinite, inherited > 0, depth < Self.maximumDepth else { return }
        depth += 1
        defer { depth -= 1 }
        let m = Self.local(l, offset: offset) * parent
        guard m.isFinite, Self.isFinite(l.bounds), l.bounds.width >= 0, l.bounds.height >= 0 else { return }
        if let t = l.transition, !ignoreTransition {
            transition(l, t, parent: parent, clips: clips, opacity: inherited, offset: offset)
            return
        }
        let own = Double(min(l.opacity, 1))
        if l.isTransformLayer {
            // CATransformLayer planned on its own (the root, a mask, a transition's picture, a
            // tinted replicator instance; one in a superlayer's sublayers is lifted into its
            // rendering context instead, `_Planner+RenderingContext.swift`): nothing of its own
            // (no background, contents, border, shadow, mask or masksToBounds), its opacity on
            // each sublayer separately (no group), the sublayers by depth in device space, with
            // those of nested transform layers — in a group only when tinted.
            let tinted = !(l.tint?.isIdentity ?? true)
            let groupIndex = tinted ? beginGroup() : nil
            let sub = Self.sublayerSpace(l, m)
            let opacity = tinted ? 1 : inherited * own
            if let members = contextMembers(l.sublayers, parent: sub, context: sub, opacity: opacity) {
                planMembers(members, clips: clips)
            } else {
                planSublayers(Self.depthOrder(l.sublayers, parent: sub), parent: sub, clips: clips, opacity: opacity)
            }
            closeGroups(l, groupIndex, nil, inherited: inherited, own: own, mode: l.blendsAdditively ? .plus : .over)
            return
        }
        var tinted = !(l.tint?.isIdentity ?? true)
        // A tinted layer whose only drawing is its contents (an emitter particle): the tint goes
        // into the image paint — no offscreen group (values as a group's up to rounding order).
        var directTint: UInt32? = nil
        if tinted, let t = l.tint, Self.tintsContentsDirectly(l) {
            directTint = PixelMath.premultipliedColor(r: Double(t.red), g: Double(t.green), b: Double(t.blue), a: Double(t.alpha))
            tinted = false
        }
        // A compositing filter's mode applies to the layer's group; within a transition's
        // pictures (`ignoreTransition`) it is left to the transition's group.
        let mode = ignoreTransition ? (l.blendsAdditively ? .plus : .over) : Self.groupMode(l)
        let group = (l.allowsGroupOpacity && own < 1 && Self.drawingCount(l, limit: 2) > 1) || l.mask != nil || tinted
            || mode != .over
        var maskIndex: Int? = nil
        if let mask = l.mask {
            maskIndex = beginGroup()
            layer(mask, parent: m, clips: [], opacity: 1, offset: (0, 0), ignoreTransition: false)
        }
        let groupIndex = group ? beginGroup() : nil
        let drawOpacity = group ? 1 : inherited * own
        let h = _Homography(planeOf: m)
        let culled = !l.isDoubleSided && h.determinant < 0
        let drawsOwn = !culled && h.determinant != 0
        if drawsOwn { shadow(l, h, m, clips: clips, opacity: drawOpacity) }
        // masksToBounds: the clip is applied once to the composited content (own background and
        // contents, sublayers) when more than one draw is under it — an offscreen group whose
        // pop multiplies it by the clip's coverage (with the inherited clips of ancestors that
        // are not groups), as Core Animation's implicit mask; so at the anti-aliased edge a lower
        // draw cannot show through an upper one. With a single draw the clip is multiplied into
        // that draw (same result, no offscreen pass).
        var childClips = clips
        var clipGroup: (index: Int, shapes: [_Shape])? = nil
        if l.masksToBounds {
            guard let s = shape(l.bounds, h, radii: radii(l), continuous: Self.continuous(l), aliased: Self.aliasedEdges(l)) else {
                closeGroups(l, groupIndex, maskIndex, inherited: inherited, own: own, mode: mode)
                return
            }
            // Not when a sublayer blends with the backdrop: an offscreen group of the clip's
            // own would hide it (Core Animation clips rectangles without one). The clip then
            // goes into each draw, as for a single one.
            if Self.clipsSeveralDraws(l) && !l.blendsInSubtree {
                clipGroup = (beginGroup(), clips + [s])
                childClips = []
                ownClipGroup = s.bounds
            } else {
                childClips.append(s)
            }
        }
        if drawsOwn {
            background(l, h, clips: clipGroup == nil ? clips : [], opacity: drawOpacity)
            gradient(l, h, clips: clipGroup == nil ? clips : [], opacity: drawOpacity)
            contentsTint = directTint
            contents(l, h, clips: clipGroup == nil ? clips : [], opacity: drawOpacity)
            contentsTint = nil
            shapeLayer(l, h, clips: clipGroup == nil ? (l.masksToBounds ? childClips : clips) : [], opacity: drawOpacity)
        }
        ownClipGroup = nil
        let sub = Self.sublayerSpace(l, m)
        if let p = l.particles, !l.sortsSublayersByDepth, plansParticlesFlat {
            // An emitter's particles (`_Planner+Particles.swift`), where the stable z sort of
            // `sublayers` (particles first, all at z = 0) puts them: after the sublayers below 0.
            let own = Self.drawOrder(l.ownSublayers)
            let split = own.firstIndex { ($0.zPosition.isFinite ? $0.zPosition : 0) >= 0 } ?? own.count
            planSublayers(Array(own[..<split]), parent: sub, clips: childClips, opacity: drawOpacity)
            particles(p, parent: sub, clips: childClips, opacity: drawOpacity)
            planSublayers(Array(own[split...]), parent: sub, clips: childClips, opacity: drawOpacity)
        } else if l.particles == nil,
                  let members = contextMembers(l.sublayers, parent: sub,
                                               context: l.sortsSublayersByDepth ? sub : Self.sublayerSpace(l, CATransform3DIdentity),
                                               opacity: drawOpacity) {
            // Transform-layer sublayers: their sublayers are drawn here, sorted by depth with
            // this layer's others — it is their rendering context (`_Planner+RenderingContext.swift`).
            planMembers(members, clips: childClips)
        } else {
            let order = l.sortsSublayersByDepth ? Self.depthOrder(l.sublayers, parent: sub) : Self.drawOrder(l.sublayers)
            planSublayers(order, parent: sub, clips: childClips, opacity: drawOpacity)
        }
        if let g = clipGroup { endClipGroup(g.index, clip: g.shapes) }
        if drawsOwn { border(l, h, clips: clips, opacity: drawOpacity) }
        closeGroups(l, groupIndex, maskIndex, inherited: inherited, own: own, mode: mode)
    }

    /// Sublayers at least this many are planned in chunks on `parallelism` threads.
    static let parallelSublayers = 256

    /// How far (device px) a circular corner's polygon may stray from the arc, either side
    /// (balanced chords, see `devicePolygon`): 0.025 px — 5 chords for W6b's 4 px corners where
    /// inscribed chords within 0.02 px took 8.
    static let cornerTolerance: Double = 0.025
    /// The chord count of a continuous corner's curves: the arc rule at this tolerance,
    /// independent of ``PathFlattening/defaultTolerance`` (the corner's points lie on its
    /// curves, so its chords are inscribed — unlike paths' balanced flattening, which may use a
    /// looser tolerance for the same error).
    static let continuousCornerTolerance: Double = 0.02

    /// Plans `layers` (already in drawing order) as sublayers: one after the other, or — when
    /// there are many and threads to spare — in contiguous chunks, each by a planner of its own
    /// with this one's state, on several threads, their op lists appended in order. A sublayer's
    /// ops depend only on the sublayer and the state passed down (groups it opens it closes, and
    /// the op list holds no indices), so the list is the same op for op: the same bytes.
    mutating func planSublayers(_ layers: [RenderLayer], parent: CATransform3D, clips: [_Shape], opacity: Double) {
        guard parallelism > 1, layers.count >= Self.parallelSublayers else {
            for s in layers { sublayer(s, parent: parent, clips: clips, opacity: opacity) }
            return
        }
        planInChunks(layers.count) { p, range in
            for i in range { p.sublayer(layers[i], parent: parent, clips: clips, opacity: opacity) }
        }
    }

    /// `layer(s, …)` of a sublayer, or the run it was planned into last frame with the same
    /// inputs (`_PlanRuns`).
    mutating func sublayer(_ s: RenderLayer, parent: CATransform3D, clips: [_Shape], opacity: Double) {
        guard let runs, s.isKept, clips.isEmpty, s.transition == nil, s.particles == nil else {
            layer(s, parent: parent, clips: clips, opacity: opacity, offset: (0, 0), ignoreTransition: false)
            return
        }
        let key = _PlanRuns.Key(parent: parent, opacity: opacity, depth: depth, shadowNesting: shadowNesting)
        if let run = runs.run(of: s, key) {
            runHits += 1
            ops.append(contentsOf: run)
            return
        }
        let start = ops.count
        layer(s, parent: parent, clips: clips, opacity: opacity, offset: (0, 0), ignoreTransition: false)
        newRuns.append(_PlanRuns.Run(node: s, key: key, ops: Array(ops[start...]), frame: runs.frame))
    }

    /// Runs `body` over `0..<n` in up to 4 × `parallelism` contiguous chunks on several threads,
    /// each chunk with a planner of its own that has this one's state (size, scale, mips, depth,
    /// shadow nesting, particle planning), and appends the chunks' ops in chunk order (moved,
    /// `_OpMoves`): the list `body` would give run over the whole range on this planner.
    mutating func planInChunks(_ n: Int, _ body: @Sendable (inout _Planner, Range<Int>) -> Void) {
        let chunks = min(n, 4 * parallelism)
        let (width, height, scale, mips, depth, shadowNesting) = (width, height, scale, mips, depth, shadowNesting)
        let (outputSide, shadowRegion) = (outputSide, shadowRegion)
        let flat = plansParticlesFlat, elides = elidesClipGroups
        let runs = runs
        let results = _ChunkOps(count: chunks)
        DispatchQueue.concurrentPerform(iterations: chunks) { c in
            var p = _Planner(width: width, height: height, scale: scale, mips: mips)
            p.depth = depth; p.shadowNesting = shadowNesting; p.plansParticlesFlat = flat; p.runs = runs
            p.elidesClipGroups = elides
            p.outputSide = outputSide; p.shadowRegion = shadowRegion
            body(&p, (c * n / chunks)..<((c + 1) * n / chunks))
            results.set(c, p.ops, p.newRuns, hits: p.runHits, work: p.offscreenWork)
        }
        runHits += results.hits.reduce(0, +)
        for w in results.work { offscreenWork.add(w) }
        for chunkRuns in results.takeRuns() { newRuns += chunkRuns }
        var lists = results.take()
        _OpMoves.concatenate(&ops, &lists)
    }

    /// Sublayers in drawing order: by `zPosition` (non-finite as 0), stable for equal values
    /// (the tree walk's rule, also used for the shadow offscreens).
    static func drawOrder(_ sublayers: [RenderLayer]) -> [RenderLayer] {
        // Already in order (all equal, the usual case): the stable sort would return it as is.
        var ordered = true, last = -Double.infinity
        for s in sublayers {
            let z = s.zPosition.isFinite ? Double(s.zPosition) : 0
            if z < last { ordered = false; break }
            last = z
        }
        if ordered { return sublayers }
        return sublayers.enumerated().sorted { a, b in
            let za = a.element.zPosition.isFinite ? a.element.zPosition : 0
            let zb = b.element.zPosition.isFinite ? b.element.zPosition : 0
            return za != zb ? za < zb : a.offset < b.offset
        }.map(\.element)
    }

    /// Sublayers from far to near (`CATransformLayer`, `preservesDepth`): each sublayer's anchor
    /// point through its layer-to-device matrix (`anchorDepth`), ascending homogeneous depth
    /// `z / w` (larger z is nearer the viewer in Core Animation), ties in sublayer order; points
    /// behind the eye (`w ≤ 0`) first. (With transform-layer sublayers the members of the
    /// rendering context are sorted instead, `contextMembers`.)
    static func depthOrder(_ sublayers: [RenderLayer], parent: CATransform3D) -> [RenderLayer] {
        guard sublayers.count > 1 else { return sublayers }
        let keyed = sublayers.enumerated().map { i, s in (i, anchorDepth(s, parent: parent)) }
        return keyed.sorted { $0.1 != $1.1 ? $0.1 < $1.1 : $0.0 < $1.0 }.map { sublayers[$0.0] }
    }

    /// `s`'s anchor point through `local(s) · parent`: homogeneous depth `z / w` (larger is
    /// nearer the viewer), −∞ when behind the eye (`w ≤ 0`) or not finite.
    static func anchorDepth(_ s: RenderLayer, parent: CATransform3D) -> Double {
        let m = local(s, offset: (0, 0)) * parent
        let b = s.bounds
        let x = Double(b.minX + s.anchorPoint.x * b.width), y = Double(b.minY + s.anchorPoint.y * b.height)
        let z = Double(s.anchorPointZ)
        let zz = x * Double(m.m13) + y * Double(m.m23) + z * Double(m.m33) + Double(m.m43)
        let ww = x * Double(m.m14) + y * Double(m.m24) + z * Double(m.m34) + Double(m.m44)
        return ww > 0 && (zz / ww).isFinite ? zz / ww : -Double.infinity
    }

    mutating func closeGroups(_ l: RenderLayer, _ groupIndex: Int?, _ maskIndex: Int?, inherited: Double, own: Double,
                              mode: _GroupMode = .over) {
        if let g = groupIndex, let t = l.tint, !t.isIdentity, !Self.tintsContentsDirectly(l) {
            // The instance's colour multiplier on the group's pixels, before it is composited.
            var content = _IRect.empty
            for op in ops[(g + 1)...] { content = content.union(op.bounds) }
            let c = PixelMath.premultipliedColor(r: Double(t.red), g: Double(t.green), b: Double(t.blue), a: Double(t.alpha))
            ops.append(.tint(bounds: content.intersection(frame), color: c))
        }
        if let g = groupIndex {
            endGroup(g, alpha: Self.alpha(inherited * own), mode: mode, maskIndex: maskIndex, maskMode: l.maskMode)
        }
    }

    /// Whether `layer(…)` applies `l`'s tint to its contents draw (no group, no tint op).
    static func tintsContentsDirectly(_ l: RenderLayer) -> Bool {
        !l.hasSublayers && l.mask == nil && l.contents != nil && l.contentsCrossfade == nil && !l.blendsAdditively
            && !(l.backgroundColor.map { $0.alpha > 0 } ?? false) && l.borderWidth <= 0 && l.shadowOpacity <= 0
            && l.shape == nil && l.gradient == nil && !l.masksToBounds
    }

    /// `round(opacity · 255)` clamped to 0…255.
    static func alpha(_ o: Double) -> UInt32 {
        o.isFinite ? UInt32((min(max(o, 0), 1) * 255).rounded()) : 0
    }

    /// Corner radii `(TL, TR, BR, BL)` from `cornerRadius` (clamped to half the shorter side)
    /// and `maskedCorners`.
    func radii(_ l: RenderLayer) -> (Double, Double, Double, Double) {
        let r0 = Double(l.cornerRadius)
        guard r0.isFinite, r0 > 0 else { return (0, 0, 0, 0) }
        let r = min(r0, Double(min(l.bounds.width, l.bounds.height)) / 2)
        let c = l.maskedCorners
        return (c.contains(.layerMinXMinYCorner) ? r : 0, c.contains(.layerMaxXMinYCorner) ? r : 0,
                c.contains(.layerMaxXMaxYCorner) ? r : 0, c.contains(.layerMinXMaxYCorner) ? r : 0)
    }

    /// The device shape of `rect` (layer space) under `h`, or nil when nothing of it is in
    /// front of the eye and near the frame, or it is degenerate.
    func shape(_ rect: CGRect, _ h: _Homography, radii: (Double, Double, Double, Double) = (0, 0, 0, 0),
               continuous: Bool = false, aliased: Bool = false) -> _Shape? {
        guard let outer = devicePolygon(rect, h, radii: radii, continuous: continuous, reversed: false) else { return nil }
        var pixelRect: _IRect? = nil
        var interior: _IRect? = nil
        let p = outer.points
        if p.count == 4, p.allSatisfy({ $0.x.isFinite && $0.y.isFinite }),
           (p[0].x == p[1].x && p[1].y == p[2].y && p[2].x == p[3].x && p[3].y == p[0].y)
            || (p[0].y == p[1].y && p[1].x == p[2].x && p[2].y == p[3].y && p[3].x == p[0].x) {
            let x0 = p.map(\.x).min()!, x1 = p.map(\.x).max()!, y0 = p.map(\.y).min()!, y1 = p.map(\.y).max()!
            if p.allSatisfy({ $0.x == $0.x.rounded() && $0.y == $0.y.rounded() }) {
                pixelRect = _IRect(x0: Int(x0), y0: Int(y0), x1: Int(x1), y1: Int(y1)).intersection(frame)
                interior = pixelRect
            } else if max(abs(x0), abs(x1), abs(y0), abs(y1)) < 1e9 {
                // The whole pixels inside an axis-aligned rectangle: each is covered exactly
                // (area 1 → 255; the fixed-point edges round to the nearest 1/256, never
                // across the integer that bounds them).
                let r = _IRect(x0: Int(x0.rounded(.up)), y0: Int(y0.rounded(.up)),
                               x1: Int(x1.rounded(.down)), y1: Int(y1.rounded(.down))).intersection(frame)
                interior = r.isEmpty ? nil : r
            }
        }
        // The outline in fixed point once (the executor fills it in every band it meets, without
        // flattening and converting it again); the path only when there is none.
        let fixed = pixelRect == nil ? FixedPolygon(polygon: p) : nil
        let path = fixed == nil ? RasterPath(polygon: p) : RasterPath()
        // Axis-aligned (no rotation or shear): the straight middle rows skip the cell sweep.
        let straight = pixelRect == nil && h.isAffine && h.m.1 == 0 && h.m.3 == 0 ? fixed.flatMap { StraightRows($0) } : nil
        return _Shape(path: path, rule: .nonZero, bounds: outer.bounds, pixelRect: pixelRect, straight: straight,
                      fixed: fixed, aliased: aliased && pixelRect == nil, interior: interior)
    }

    /// Whether `l`'s rounded corners use the continuous curve (`cornerCurve == .continuous`).
    static func continuous(_ l: RenderLayer) -> Bool { l.cornerCurve == .continuous }

    /// Whether `l`'s own edges are drawn aliased: `allowsEdgeAntialiasing` false, or no edge
    /// left in `edgeAntialiasingMask` (a partial mask antialiases all four edges: per-edge
    /// aliasing is not implemented).
    static func aliasedEdges(_ l: RenderLayer) -> Bool {
        !l.allowsEdgeAntialiasing || l.edgeAntialiasingMask.isEmpty
    }

    /// `rect`'s outline (corners rounded by `radii`) in layer space, mapped by `h` and clipped in
    /// homogeneous space: device points and their pixel bounds (grown by 1 px, ∩ the frame).
    ///
    /// Circular corner arcs are flattened in layer space into `n` **balanced** chords of equal
    /// angle θ = ½π/n: the arc's two end points lie on the arc, the `n − 1` inner vertices at
    /// `r·f` with `f = (1 + 1/cos(θ/2))/2`, so the polygon runs `r·(f − 1)` outside the arc at
    /// its vertices and `r·(1 − f·cos(θ/2))` (the same to 1e-4 relative) inside it at the
    /// chords' middles, instead of being inscribed (all of the error inside, an area bias).
    /// `n` is chosen so that the sagitta `R·(1 − cos(θ/2))` stays within 2 × ``cornerTolerance``
    /// (0.025 px, so the polygon is within ~0.025 px of the arc) for the arc's device radius
    /// `R`: `r ×` the largest stretch of the linear part under
    /// an affine map; under a projective one, 1.25 × the largest device distance from the
    /// projected centre to the projected arc ends and midpoint (64 chords when part of the arc
    /// is behind the eye). Chords of the layer plane stay straight after the projection, so the
    /// device polyline is exact up to that tolerance. `reversed` walks the outline the other way
    /// (a border's inner edge: opposite winding).
    func devicePolygon(_ rect: CGRect, _ h: _Homography, radii: (Double, Double, Double, Double),
                       continuous: Bool = false, reversed: Bool) -> (points: [RasterPoint], bounds: _IRect)? {
        guard Self.isFinite(rect), rect.width > 0, rect.height > 0, h.isFinite else { return nil }
        let x0 = Double(rect.minX), y0 = Double(rect.minY), x1 = Double(rect.maxX), y1 = Double(rect.maxY)
        // Layer-space points, mapped to device points in place when the map is affine and they
        // are inside the guard band (one array per outline, adopted by the shape's path).
        var layer: [RasterPoint]
        if radii.0 > 0 || radii.1 > 0 || radii.2 > 0 || radii.3 > 0 {
            layer = []
            let corners: [(Double, Double, Double, Double)] = [   // centre x, y, radius, start angle
                (x0 + radii.0, y0 + radii.0, radii.0, Double.pi),
                (x1 - radii.1, y0 + radii.1, radii.1, 1.5 * Double.pi),
                (x1 - radii.2, y1 - radii.2, radii.2, 0),
                (x0 + radii.3, y1 - radii.3, radii.3, 0.5 * Double.pi),
            ]
            let affineScale = h.isAffine
                ? RasterTransform(a: h.m.0, b: h.m.3, c: h.m.1, d: h.m.4, tx: 0, ty: 0).maxScale : 0
            // Balanced chords: the sagitta may reach 2 × cornerTolerance, split evenly outside
            // and inside the arc (see `cornerTolerance`). Counted first, so that the array is
            // allocated at its exact size (it becomes the shape's path).
            var counts = SIMD4<Int>(repeating: 0)
            if !continuous {
                var lastR = -1.0, lastN = 0              // affine: the count depends on r only
                var total = 0
                for (k, (cx, cy, r, a0)) in corners.enumerated() {
                    guard r > 0 else { total += 1; continue }
                    let n = h.isAffine && r == lastR ? lastN
                        : Self.arcChords(cx, cy, r, a0, h, affineScale: affineScale, tolerance: 2 * Self.cornerTolerance)
                    lastR = r; lastN = n
                    counts[k] = n
                    total += n + 1
                }
                layer.reserveCapacity(total)
            }
            // Continuous corners (`_Planner+ContinuousCorner.swift`): corner point, the unit
            // vector back along the arriving edge and along the leaving one, TL TR BR BL.
            let frames: [((Double, Double), (Double, Double), (Double, Double))] = [
                ((x0, y0), (0, 1), (1, 0)), ((x1, y0), (-1, 0), (0, 1)),
                ((x1, y1), (0, -1), (-1, 0)), ((x0, y1), (1, 0), (0, -1)),
            ]
            let half = min(x1 - x0, y1 - y0) / 2
            for (k, (cx, cy, r, a0)) in corners.enumerated() {
                guard r > 0 else { layer.append(RasterPoint(cx, cy)); continue }
                if continuous {
                    let n = Self.arcChords(cx, cy, r, a0, h, affineScale: affineScale, tolerance: Self.continuousCornerTolerance)
                    let (c, uIn, uOut) = frames[k]
                    var pts: [(Double, Double)] = []
                    Self.continuousCorner(c, uIn: uIn, uOut: uOut, r: r, f: Self.continuousBlend(r: r, half: half),
                                          n: max(2, (n + 1) / 2), into: &pts)
                    for q in pts { layer.append(RasterPoint(q.0, q.1)) }
                    continue
                }
                let n = counts[k]
                if n <= _ArcTable.maxChords {
                    // The same values, computed once per (corner, n) for the process.
                    let t = _ArcTable.shared.quarter(k, n)
                    for (c, s) in t { layer.append(RasterPoint(cx + r * c, cy + r * s)) }
                } else {
                    let f = _ArcTable.balance(n)
                    for i in 0...n {
                        let a = a0 + 0.5 * Double.pi * Double(i) / Double(n)
                        let g = i == 0 || i == n ? 1 : f
                        layer.append(RasterPoint(cx + r * (g * cos(a)), cy + r * (g * sin(a))))
                    }
                }
            }
        } else {
            layer = [RasterPoint(x0, y0), RasterPoint(x1, y0), RasterPoint(x1, y1), RasterPoint(x0, y1)]
        }
        if reversed { layer.reverse() }
        let points: [RasterPoint]
        if h.isAffine, _HomogeneousClip.affineInside(&layer, by: h, width: Double(width), height: Double(height)) {
            points = layer
        } else {
            points = _HomogeneousClip.clipPolygon(layer.map { ($0.x, $0.y) }, by: h, width: Double(width), height: Double(height))
                .map { RasterPoint($0.x, $0.y) }
        }
        guard points.count >= 3 else { return nil }
        var area = 0.0
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        for i in 0..<points.count {
            let a = points[i], b = points[i + 1 == points.count ? 0 : i + 1]
            area += a.x * b.y - b.x * a.y
            minX = min(minX, a.x); maxX = max(maxX, a.x); minY = min(minY, a.y); maxY = max(maxY, a.y)
        }
        guard area.isFinite, abs(area) > 1e-9 else { return nil }
        let bounds = _IRect(x0: pixelFloor(minX) - 1, y0: pixelFloor(minY) - 1,
                            x1: pixelCeil(maxX) + 1, y1: pixelCeil(maxY) + 1).intersection(frame)
        guard !bounds.isEmpty else { return nil }
        return (points, bounds)
    }

    /// Chords for a quarter arc (centre `(cx, cy)`, radius `r`, from angle `a0`) under `h`
    /// (see `devicePolygon`).
    static func arcChords(_ cx: Double, _ cy: Double, _ r: Double, _ a0: Double, _ h: _Homography,
                          affineScale: Double, tolerance tol: Double) -> Int {
        var R: Double
        if h.isAffine {
            R = r * affineScale
        } else {
            let c = h.apply(cx, cy)
            guard c.2 > 1e-6 else { return 64 }
            R = 0
            for k in 0...2 {
                let a = a0 + 0.25 * Double.pi * Double(k)
                let p = h.apply(cx + r * cos(a), cy + r * sin(a))
                guard p.2 > 1e-6 else { return 64 }
                let dx = p.0 / p.2 - c.0 / c.2, dy = p.1 / p.2 - c.1 / c.2
                R = max(R, (dx * dx + dy * dy).squareRoot())
            }
            R *= 1.25
        }
        guard R.isFinite, R > tol else { return R.isFinite ? 1 : 64 }
        let theta = 2 * acos(1 - tol / R)
        // For a huge R, 1 − tol/R rounds to 1 and θ to 0: as many chords as allowed (found by
        // the compositor fuzz target: Int(∞) trapped).
        let n = (0.5 * Double.pi / theta).rounded(.up)
        return n.isFinite ? max(1, Int(min(n, 256))) : 256
    }

    /// Appends a draw of `paint` over `own` clipped by `clips`.
    mutating func emit(_ own: _Shape, clips: [_Shape], paint: _Paint, opacity: Double) {
        let a = Self.alpha(opacity)
        guard a > 0 else { return }
        var b = own.bounds
        for c in clips { b = b.intersection(c.bounds) }
        guard !b.isEmpty else { return }
        ops.append(.draw(_Draw(shapes: [own] + clips, paint: paint, alpha: a, bounds: b)))
    }

    static func color(_ c: CGColor?) -> UInt32? {
        guard let c, c.alpha > 0 else { return nil }
        let p = PixelMath.premultipliedColor(r: Double(c.red), g: Double(c.green), b: Double(c.blue), a: Double(c.alpha))
        return p >> 24 == 0 ? nil : p
    }

    mutating func background(_ l: RenderLayer, _ h: _Homography, clips: [_Shape], opacity: Double) {
        guard let c = Self.color(l.backgroundColor) else { return }
        if let g = ownClipGroup {
            let a = Self.alpha(opacity)
            if a > 0 { ops.append(.draw(_Draw(shapes: [], paint: .solid(c), alpha: a, bounds: g))) }
            return
        }
        guard let s = shape(l.bounds, h, radii: radii(l), continuous: Self.continuous(l), aliased: Self.aliasedEdges(l)) else { return }
        emit(s, clips: clips, paint: .solid(c), opacity: opacity)
    }

    /// The border: the rounded bounds minus the bounds inset by `borderWidth` (radii reduced
    /// by the width), drawn inside the bounds.
    mutating func border(_ l: RenderLayer, _ h: _Homography, clips: [_Shape], opacity: Double) {
        let bw = Double(l.borderWidth)
        let rr = radii(l)
        guard bw > 0, bw.isFinite, let c = Self.color(l.borderColor),
              let outer = devicePolygon(l.bounds, h, radii: rr, continuous: Self.continuous(l), reversed: false) else { return }
        // One path: the outer outline and the inner one walked the other way (non-zero: the
        // ring has winding ±1, the inside 0), instead of a product with a hole's coverage.
        var path = RasterPath()
        path.addPolygon(outer.points)
        let inner = l.bounds.insetBy(dx: CGFloat(bw), dy: CGFloat(bw))
        if inner.width > 0 && inner.height > 0,
           let hole = devicePolygon(inner, h, radii: (max(rr.0 - bw, 0), max(rr.1 - bw, 0), max(rr.2 - bw, 0), max(rr.3 - bw, 0)),
                                    continuous: Self.continuous(l),
                                    reversed: true) {
            path.addPolygon(hole.points)
        }
        emit(_Shape(path: path, rule: .nonZero, bounds: outer.bounds, flat: Self.flattened(path, frame: frame),
                    aliased: Self.aliasedEdges(l)), clips: clips, paint: .solid(c), opacity: opacity)
    }
}

/// The balanced quarter-arc vertices `g·(cos, sin)(a0 + ½π·i/n)` (g = 1 at the two ends,
/// ``balance(_:)`` inside; the planner's corners `k` = 0…3 start at π, 1.5π, 0, ½π) for
/// n ≤ ``maxChords``: the same expressions as computed inline, evaluated once per process
/// instead of per layer and frame.
final class _ArcTable: Sendable {
    static let maxChords = 32
    static let shared = _ArcTable()
    let table: [[(Double, Double)]]

    /// The balanced chords' radius factor for `n` chords per quarter: `(1 + 1/cos(θ/2))/2`,
    /// θ = ½π/n (see `_Planner.devicePolygon`).
    static func balance(_ n: Int) -> Double {
        (1 + 1 / cos(0.25 * Double.pi / Double(n))) / 2
    }

    init() {
        let starts = [Double.pi, 1.5 * Double.pi, 0, 0.5 * Double.pi]
        var t: [[(Double, Double)]] = []
        for k in 0..<4 {
            for n in 0...Self.maxChords {
                if n == 0 { t.append([]); continue }
                let f = Self.balance(n)
                t.append((0...n).map { i in
                    let a = starts[k] + 0.5 * Double.pi * Double(i) / Double(n)
                    let g = i == 0 || i == n ? 1 : f
                    return (g * cos(a), g * sin(a))
                })
            }
        }
        table = t
    }

    @inline(__always)
    func quarter(_ k: Int, _ n: Int) -> [(Double, Double)] { table[k * (Self.maxChords + 1) + n] }
}

/// The op lists of `planSublayers`' chunks: each slot written by one thread, read after all.
final class _ChunkOps: @unchecked Sendable {
    // One slot per chunk, each its own memory: a worker's `set` writes its slot and nothing
    // else. (Elements of arrays stored here would not do: `set` on an array element is a
    // modifying access of the whole array — its buffer reference is read, checked unique and
    // written back — from every worker at once, a data race ThreadSanitizer reports and a lost
    // chunk if the check ever saw a second reference.) `concurrentPerform` returning orders the
    // workers' writes before the reads of `hits`, `work`, `takeRuns` and `take`.
    private let count: Int
    private let lists: UnsafeMutablePointer<[_Op]>
    private let runs: UnsafeMutablePointer<[_PlanRuns.Run]>
    private let hitSlots: UnsafeMutablePointer<Int>
    private let workSlots: UnsafeMutablePointer<_OffscreenWork>
    private var listsTaken = false, runsTaken = false
    init(count: Int) {
        self.count = count
        lists = .allocate(capacity: count); lists.initialize(repeating: [], count: count)
        runs = .allocate(capacity: count); runs.initialize(repeating: [], count: count)
        hitSlots = .allocate(capacity: count); hitSlots.initialize(repeating: 0, count: count)
        workSlots = .allocate(capacity: count); workSlots.initialize(repeating: _OffscreenWork(), count: count)
    }
    deinit {
        lists.deinitialize(count: count); lists.deallocate()
        runs.deinitialize(count: count); runs.deallocate()
        hitSlots.deallocate()
        workSlots.deinitialize(count: count); workSlots.deallocate()
    }
    func set(_ i: Int, _ ops: [_Op], _ newRuns: [_PlanRuns.Run] = [], hits h: Int = 0, work w: _OffscreenWork = _OffscreenWork()) {
        precondition(i >= 0 && i < count)
        lists[i] = ops
        runs[i] = newRuns
        hitSlots[i] = h
        workSlots[i] = w
    }
    /// Each chunk's run hits, in chunk order.
    var hits: [Int] { Array(UnsafeBufferPointer(start: hitSlots, count: count)) }
    /// Each chunk's offscreen work, in chunk order.
    var work: [_OffscreenWork] { Array(UnsafeBufferPointer(start: workSlots, count: count)) }
    /// The chunks' new sublayer runs, handed over (empty after the first call).
    func takeRuns() -> [[_PlanRuns.Run]] {
        if runsTaken { return [] }
        runsTaken = true
        return (0..<count).map { i in var out: [_PlanRuns.Run] = []; swap(&out, &runs[i]); return out }
    }
    /// All the lists, handed over (this holds none after).
    func take() -> [[_Op]] {
        if listsTaken { return [] }
        listsTaken = true
        return (0..<count).map { i in var out: [_Op] = []; swap(&out, &lists[i]); return out }
    }
}
