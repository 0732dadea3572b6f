import Foundation
import Flipbook

/// A repeater (`rp`) → the layers of the items before it, `⌊c⌋` times.
///
/// Copy `k` (0 … c−1) is transformed by ``LottieShapeProgram/repeaterTransform(_:multiplier:atFrame:)``
/// with multiplier `k + o` and drawn with opacity `so + (eo − so) · k / (c − 1)` (percent; the
/// first copy has the start opacity, the last the end opacity, as the Lottie specification and
/// lottie-web define them). Composite `m: 1` ("above", the default) stacks copy 0 on top, `m: 2`
/// puts it at the bottom. Copies are clamped to ``LottieShapeProgram/maximumCopies`` with a
/// warning; further where the outlines would pass ``LottieShapeProgram/maximumInstances``
/// (``LottieShapeProgram/copyLimits``), or copies built as layers inside others built as layers
/// would pass ``LottieShapeProgram/maximumCopyLayers`` (both warned); and no copy is built past
/// the mapping's layer budget (``LottieMappingContext/maximumLayers``).
///
/// - **`CAReplicatorLayer`** when Core Animation's replication is the repeater's: count,
///   offset, transform and opacities static, copy `k`'s transform a power of one step —
///   `translate(p)` alone (no rotation, 100 % scale) or a rotation/scale about the anchor alone
///   (position 0; uniform scale or no rotation) — and the copies identical (no trim that spans
///   shapes applies after the repeater). The content is one layer transformed to the first
///   instance, `instanceTransform` the step (its inverse when copy 0 stacks on top, counting
///   from the last copy), `instanceColor`'s alpha the first instance's opacity and
///   `instanceAlphaOffset` the per-copy change (Lottie's opacities are linear in `k`).
/// - **Copies built explicitly** otherwise: one container per copy (up to the most copies the
///   timeline shows), its transform and opacity static or, when the repeater animates, a
///   ``LottieComputedContainerLayer`` computing them per frame and hiding copies past `⌊c⌋`.
enum LottieRepeaterLayers {
    static func make(_ r: Int, builder: LottieShapeLayerBuilder, selection: [Int: Int],
                     content: ([Int: Int]) -> [CALayer]) -> [CALayer] {
        let program = builder.program, clock = builder.clock, context = builder.context
        let rep = program.repeaters[r]
        let value = rep.value
        let f0 = builder.startFrame
        var maxCopies = maximumCopies(value, clock: clock)
        if maxCopies.requested > Double(LottieShapeProgram.maximumCopies) {
            context.warn("repeater copies", path: rep.path,
                         "\(_LottieNode.format(maxCopies.requested)) copies asked; clamped to \(LottieShapeProgram.maximumCopies)")
        }
        // Within the program's bound on outlines (warned there).
        maxCopies.count = min(maxCopies.count, program.copyLimits[r])
        guard maxCopies.count > 0 else { return [] }
        // A replicator's copies are drawn by the compositor: its content is built once.
        builder.copyCounts[r] = 1
        if let replicator = replicator(r, builder: builder, selection: selection, maximumCount: maxCopies.count, content: content) {
            return [replicator]
        }
        // Copies built as layers inside copies built as layers: at most
        // `maximumCopyLayers` in all (each copy's outline is picked out of all the outlines).
        let outer = selection.keys.reduce(1) { $0 * max(builder.copyCounts[$1] ?? 1, 1) }
        let allowed = max(1, LottieShapeProgram.maximumCopyLayers / outer)
        if maxCopies.count > allowed {
            context.warn("repeater copies", path: rep.path,
                         "\(maxCopies.count) copies inside \(outer) copies of enclosing repeaters; clamped to \(allowed) (at most \(LottieShapeProgram.maximumCopyLayers) copies built as layers in all)")
            maxCopies.count = allowed
        }
        builder.copyCounts[r] = maxCopies.count
        let animated = rep.isAnimated || (value.transform.startOpacity?.isAnimated ?? false) || (value.transform.endOpacity?.isAnimated ?? false)
        /// Copy `k`: a container transformed to it, holding the layers of its content.
        func makeCopy(_ k: Int) -> CALayer? {
            var sel = selection
            sel[r] = k
            let layers = content(sel)
            guard !layers.isEmpty else { return nil }
            let container: CALayer
            if animated {
                let c = LottieComputedContainerLayer()
                LottieGroupTransform.configure(c)
                let limit = maxCopies.count
                LottieShapeLayers.installFrame(c, clock: clock, context: context) { l, f in
                    let n = min(program.copies(repeater: r, atFrame: f), limit)
                    let o = LottieGroupTransform.at(value.offset.value(atFrame: f), 0)
                    l.transform = CATransform3DMakeAffineTransform(
                        LottieShapeProgram.repeaterTransform(value.transform, multiplier: Double(k) + o, atFrame: f))
                    l.opacity = Float(opacity(value, copy: k, of: n, atFrame: f))
                    l.isHidden = k >= n
                }
                container = c
            } else {
                container = CALayer()
                LottieGroupTransform.configure(container)
                let o = LottieGroupTransform.at(value.offset.value(atFrame: f0), 0)
                container.transform = CATransform3DMakeAffineTransform(
                    LottieShapeProgram.repeaterTransform(value.transform, multiplier: Double(k) + o, atFrame: f0))
                container.opacity = Float(opacity(value, copy: k, of: maxCopies.count, atFrame: f0))
            }
            for l in layers { container.addSublayer(l) }
            return container
        }
        var copies: [CALayer] = []
        for k in 0..<maxCopies.count {
            if k > 0, context.layerBudgetSpent(path: rep.path, "copies \(k) to \(maxCopies.count - 1) are") { break }
            if let copy = context.countingLayers({ makeCopy(k) }, layers: { $0.map { [$0] } ?? [] }) { copies.append(copy) }
        }
        // Bottom-most first: copy 0 on top when stacking "above".
        return value.stacksAbove ? copies.reversed() : copies
    }

    /// Copy `k`'s opacity (0…1) of `n` copies.
    static func opacity(_ r: LottieRepeater, copy k: Int, of n: Int, atFrame f: Double) -> Double {
        let so = r.transform.startOpacity.map { LottieGroupTransform.at($0.value(atFrame: f), 0, 100) } ?? 100
        let eo = r.transform.endOpacity.map { LottieGroupTransform.at($0.value(atFrame: f), 0, 100) } ?? 100
        let o = n > 1 ? so + (eo - so) * Double(k) / Double(n - 1) : so
        return min(max(o / 100, 0), 1)
    }

    /// The most copies shown over the timeline (clamped) and the most asked for.
    static func maximumCopies(_ r: LottieRepeater, clock: LottieClock) -> (count: Int, requested: Double) {
        var requested = r.copies.keyframes.map { LottieGroupTransform.at($0.value, 0) }.max() ?? 0
        if r.copies.isAnimated {
            // Easing may overshoot the keyframes: every whole frame of the timeline too.
            var root = clock.start, samples = 0
            while root <= clock.end && samples < 100_000 {
                requested = max(requested, LottieGroupTransform.at(r.copies.value(atFrame: clock.localFrame(atRoot: root)), 0))
                root += 1; samples += 1
            }
        }
        guard requested.isFinite, requested >= 1 else { return (0, requested.isNaN ? 0 : requested) }
        return (Int(min(requested, Double(LottieShapeProgram.maximumCopies)).rounded(.down)), requested)
    }

    /// The replicator, when its semantics are the repeater's (see the type's notes).
    static func replicator(_ r: Int, builder: LottieShapeLayerBuilder, selection: [Int: Int], maximumCount: Int,
                           content: ([Int: Int]) -> [CALayer]) -> CALayer? {
        let program = builder.program
        let rep = program.repeaters[r]
        let value = rep.value, t = value.transform
        guard !rep.isAnimated, !(t.startOpacity?.isAnimated ?? false), !(t.endOpacity?.isAnimated ?? false) else { return nil }
        // Identical copies: no shape-spanning modifier over the repeater's shapes from outside.
        let scope = Set(rep.scope)
        for m in program.modifiers where m.spansShapes && Set(m.scope).isSuperset(of: scope) { return nil }
        let f = builder.startFrame
        let n = min(LottieShapeProgram.copies(value, atFrame: f), maximumCount)
        guard n > 0 else { return nil }
        let p = LottieGroupTransform.position(t, atFrame: f)
        let s = t.scale.value(atFrame: f)
        let sx = LottieGroupTransform.at(s, 0, 100), sy = LottieGroupTransform.at(s, 1, sx)
        let rotation = LottieGroupTransform.at(t.rotation.value(atFrame: f), 0)
        let translationOnly = rotation == 0 && sx == 100 && sy == 100
        let aboutAnchor = p == .zero && (sx == sy || rotation == 0)
        guard translationOnly || aboutAnchor, sx != 0, sy != 0 else { return nil }
        let offset = LottieGroupTransform.at(value.offset.value(atFrame: f), 0)
        let step = LottieShapeProgram.repeaterTransform(t, multiplier: 1, atFrame: f)
        let layers = content(selection.merging([r: 0]) { $1 })
        guard !layers.isEmpty else { return nil }
        let first = value.stacksAbove ? n - 1 : 0
        let inner = CALayer()
        LottieGroupTransform.configure(inner)
        inner.transform = CATransform3DMakeAffineTransform(
            LottieShapeProgram.repeaterTransform(t, multiplier: Double(first) + offset, atFrame: f))
        for l in layers { inner.addSublayer(l) }
        let replicator = CAReplicatorLayer()
        LottieGroupTransform.configure(replicator)
        replicator.name = rep.path
        replicator.instanceCount = n
        replicator.instanceTransform = CATransform3DMakeAffineTransform(value.stacksAbove ? step.inverted() : step)
        let a0 = opacity(value, copy: first, of: n, atFrame: f)
        let a1 = n > 1 ? opacity(value, copy: value.stacksAbove ? n - 2 : 1, of: n, atFrame: f) : a0
        replicator.instanceColor = CGColor(red: 1, green: 1, blue: 1, alpha: CGFloat(a0))
        replicator.instanceAlphaOffset = Float(a1 - a0)
        replicator.addSublayer(inner)
        return replicator
    }
}
