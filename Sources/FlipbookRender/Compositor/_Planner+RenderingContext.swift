import Flipbook
import Foundation

/// Rendering contexts: where the sublayers of a `CATransformLayer` are drawn.
///
/// Every layer but a transform layer **flattens** its subtree into its plane: its sublayers are
/// drawn, in its superlayer's order, as one piece. A transform layer does not ("transform
/// layers do not flatten their sublayers into the plane at Z=0", Apple's `CATransformLayer`
/// documentation): it has no plane of its own, so its sublayers are **lifted** into the
/// nearest flattening ancestor — the *rendering context* — and sorted by depth together with
/// the transform layer's siblings (and, through nested transform layers, with every layer
/// lifted into the same context).
///
/// A context's **members** are its sublayers with each transform layer replaced, recursively,
/// by its sublayers; each member is drawn as an ordinary sublayer with its whole matrix (the
/// transform layers' `local · sublayerTransform` chain included), its inherited opacity
/// multiplied by each lifted-out-of transform layer's own (the transform layer forms no group)
/// and its depth in the context: its anchor point (as `depthOrder`) taken into the context's
/// space, `z / w`. Members are drawn from far to near, ties in tree order.
///
/// The context's space (chosen where Apple is silent):
/// - a flattening layer `P` (a plain layer, a replicator without `preservesDepth`, …): `P`'s
///   sublayer space after its `sublayerTransform` — what `P` flattens, as its own transform
///   and its ancestors' only move the flattened picture. A sibling with a 2-D transform then
///   sorts by its `zPosition`, as `drawOrder` sorts it when no transform layer is involved;
/// - a layer that sorts by depth itself (a replicator with `preservesDepth`, a transform layer
///   planned on its own — the root, a mask, a transition's picture): the device, as
///   `depthOrder` (it flattens nowhere in the pass).
///
/// Contexts without a transform-layer sublayer keep their order (`drawOrder`, `depthOrder`),
/// the same ops as before transform layers were lifted. A transform layer is planned as one
/// piece (`layer(…)`, its own sublayers sorted inside, as it did before) when lifting it would
/// lose something: a transition in flight (its pictures are flat), a tint (a group; the
/// snapshot puts a replicator instance's colour on a plain wrapper node, so only a hand-made
/// node has one), or an emitter superlayer with particles (their place among the sublayers is
/// by `zPosition`, `_Planner+Particles.swift`).
extension _Planner {
    /// A layer drawn as one piece in a rendering context (see above).
    struct _ContextMember: Sendable {
        let layer: RenderLayer
        /// Its superlayer space → device.
        let parent: CATransform3D
        /// The opacity it inherits.
        let opacity: Double
        /// How many transform layers it was lifted out of: planned that many levels deeper
        /// (the depth limit and plan runs see the nesting of the tree).
        let lifted: Int
        /// Its anchor point's `z / w` in the context's space; −∞ behind the eye or not finite.
        let depth: Double
    }

    /// Whether `s`, a transform layer, lifts its sublayers into its superlayer's context
    /// (see above for the ones planned as one piece).
    static func liftsSublayers(_ s: RenderLayer) -> Bool {
        s.isTransformLayer && s.transition == nil && (s.tint?.isIdentity ?? true)
    }

    /// The members of the context whose sublayers are `sublayers` (their superlayer space →
    /// device `parent`, → context space `context`), inheriting `opacity`, from far to near;
    /// nil when none of them is a transform layer to lift (then the caller's order stands).
    func contextMembers(_ sublayers: [RenderLayer], parent: CATransform3D, context: @autoclosure () -> CATransform3D,
                        opacity: Double) -> [_ContextMember]? {
        guard sublayers.contains(where: Self.liftsSublayers) else { return nil }
        var members: [_ContextMember] = []
        collectMembers(sublayers, parent: parent, context: context(), opacity: opacity, lifted: 0, into: &members)
        // Stable: ties keep tree order.
        return members.enumerated().sorted { a, b in
            a.element.depth != b.element.depth ? a.element.depth < b.element.depth : a.offset < b.offset
        }.map(\.element)
    }

    /// Appends the members of `sublayers` in tree order, lifting the sublayers of transform
    /// layers; a transform layer that `layer(…)` would not draw (hidden, transparent, not
    /// finite, past the depth limit) contributes nothing.
    func collectMembers(_ sublayers: [RenderLayer], parent: CATransform3D, context: CATransform3D, opacity: Double,
                        lifted: Int, into members: inout [_ContextMember]) {
        for s in sublayers {
            guard Self.liftsSublayers(s) else {
                members.append(_ContextMember(layer: s, parent: parent, opacity: opacity, lifted: lifted,
                                              depth: Self.anchorDepth(s, parent: context)))
                continue
            }
            // `layer(…)`'s guards, for the transform layer itself.
            guard !s.isHidden, s.opacity > 0, s.opacity.isFinite, opacity > 0,
                  depth + lifted < Self.maximumDepth else { continue }
            let m = Self.local(s, offset: (0, 0)) * parent
            guard m.isFinite, Self.isFinite(s.bounds), s.bounds.width >= 0, s.bounds.height >= 0 else { continue }
            let c = Self.local(s, offset: (0, 0)) * context
            collectMembers(s.sublayers, parent: Self.sublayerSpace(s, m), context: Self.sublayerSpace(s, c),
                           opacity: opacity * Double(min(s.opacity, 1)), lifted: lifted + 1, into: &members)
        }
    }

    /// Plans `members` (in drawing order) as `planSublayers` plans sublayers — in chunks on
    /// several threads when there are many — each at its own matrix, opacity and nesting.
    mutating func planMembers(_ members: [_ContextMember], clips: [_Shape]) {
        guard parallelism > 1, members.count >= Self.parallelSublayers else {
            for m in members { member(m, clips: clips) }
            return
        }
        planInChunks(members.count) { p, range in
            for i in range { p.member(members[i], clips: clips) }
        }
    }

    mutating func member(_ m: _ContextMember, clips: [_Shape]) {
        depth += m.lifted
        defer { depth -= m.lifted }
        sublayer(m.layer, parent: m.parent, clips: clips, opacity: m.opacity)
    }
}
