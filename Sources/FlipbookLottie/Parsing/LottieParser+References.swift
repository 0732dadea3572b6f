/// Checks that need the whole document: precomposition references, cycles, expanded size.
extension LottieParser {
    /// - a precomposition layer whose `refId` names no precomposition asset draws nothing (the
    ///   layer mapping warns, naming the `refId`); an image layer's names an image asset (a
    ///   warning otherwise: the layer draws nothing);
    /// - no precomposition contains itself, directly or through others (an error naming the
    ///   `refId` that closes the cycle), in any asset, used or not;
    /// - the main composition, with every precomposition layer counted together with its
    ///   asset's layers (recursively, once per instance), has at most
    ///   ``LottieLimits/maximumExpandedLayers`` layers.
    static func checkReferences(_ c: LottieComposition, _ cx: _LottieParseContext) throws(LottieError) {
        var precompositions: [String: Int] = [:]  // id → its own layer count
        var images: Set<String> = []
        for a in c.assets {
            switch a.kind {
            case let .precomposition(layers, _): precompositions[a.id] = layers.count
            case .image: images.insert(a.id)
            }
        }
        var edges: [String?: [(refId: String, node: _LottieNode)]] = [:]
        for r in cx.precompReferences {
            // A missing precomposition is drawn as nothing, as the players do (real files carry
            // such dangling layers); the layer mapping warns about it.
            guard precompositions[r.refId] != nil else { continue }
            edges[r.owner, default: []].append((r.refId, r.node))
        }
        for r in cx.imageReferences where !images.contains(r.refId) {
            cx.warn("image", r.node, "no image asset with id \"\(r.refId)\"; the layer draws nothing")
        }

        // Depth-first, iteratively (a chain of thousands of assets must not exhaust the stack):
        // 1 = on the current path, 2 = done; `expanded` saturates just above the limit.
        let limit = cx.limits.maximumExpandedLayers
        if c.layers.count > limit, let layers = cx.rootLayers {
            throw layers.fail("\(c.layers.count) layers; the limit is \(limit)", kind: .tooLarge)
        }
        var state: [String?: Int] = [:]
        var expanded: [String?: Int] = [:]
        var roots: [String?] = [nil]
        roots += c.assets.compactMap { if case .precomposition = $0.kind { return $0.id } else { return nil } }
        for root in roots where state[root] == nil {
            var stack: [(id: String?, next: Int, total: Int)] = [(root, 0, root.flatMap { precompositions[$0] } ?? c.layers.count)]
            state[root] = 1
            while !stack.isEmpty {
                let top = stack[stack.count - 1]
                let out = edges[top.id] ?? []
                if top.next < out.count {
                    let edge = out[top.next]
                    stack[stack.count - 1].next += 1
                    switch state[edge.refId] {
                    case 1:
                        let start = stack.firstIndex { $0.id == edge.refId } ?? 0
                        let chain = stack[start...].compactMap(\.id) + [edge.refId]
                        throw edge.node.fail("precomposition \"\(edge.refId)\" contains itself (\(chain.joined(separator: " → ")))")
                    case 2:
                        stack[stack.count - 1].total = min(limit + 1, top.total + expanded[edge.refId]!)
                        if top.id == nil, stack[stack.count - 1].total > limit { throw tooManyLayers(edge.node, limit) }
                    default:
                        state[edge.refId] = 1
                        stack.append((edge.refId, 0, precompositions[edge.refId]!))
                    }
                } else {
                    state[top.id] = 2
                    expanded[top.id] = min(limit + 1, top.total)
                    stack.removeLast()
                    if var parent = stack.last {
                        parent.total = min(limit + 1, parent.total + top.total)
                        stack[stack.count - 1] = parent
                        if parent.id == nil, parent.total > limit { throw tooManyLayers(edges[nil]![parent.next - 1].node, limit) }
                    }
                }
            }
        }
    }

    static func tooManyLayers(_ node: _LottieNode, _ limit: Int) -> LottieError {
        node.fail("with this precomposition the animation has more than \(limit) layers (each precomposition layer counted with its asset's layers); the limit is \(limit)", kind: .tooLarge)
    }
}
