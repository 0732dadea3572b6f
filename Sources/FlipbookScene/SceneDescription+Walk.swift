/// One walk over everything a scene describes, for the passes that collect from it (images,
/// fonts, names, counts).
extension SceneDescription {
    /// Calls `layer` for every layer description — the root, masks and sublayers, and layers
    /// added by timeline events (also inside nested transactions and completions) — parents
    /// before children, in file order; and `step` for every timeline step, in order.
    package func forEachDescription(layer: (LayerDescription) -> Void, step: (StepDescription) -> Void = { _ in }) {
        func visit(_ l: LayerDescription) {
            layer(l)
            if let m = l.mask { visit(m.value) }
            l.sublayers.forEach(visit)
        }
        func visit(_ t: TransactionDescription) {
            for s in t.steps {
                step(s)
                switch s {
                case let .add(a): if case let .new(l) = a.source { visit(l) }
                case let .transaction(n): visit(n)
                default: break
                }
            }
            if let c = t.completion { visit(c.value) }
        }
        visit(root)
        timeline.forEach { visit($0.transaction) }
    }
}
