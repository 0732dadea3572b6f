import Flipbook
import Foundation
import FlipbookPixels

/// Timeline events: each ``TransactionDescription`` runs as one explicit `CATransaction`.
extension SceneBuilder {
    /// Runs `t` now (on the recording thread, the tree's run loop current):
    ///
    ///     CATransaction.begin()
    ///     setAnimationDuration / setAnimationTimingFunction / setDisableActions   (those given)
    ///     setCompletionBlock { run(completion) }     — set first, so it covers every step (the
    ///                                                  builder held weakly: no cycle)
    ///     steps, in order (each property change runs the action search)
    ///     CATransaction.commit()
    func run(_ t: TransactionDescription) {
        CATransaction.begin()
        if let d = t.duration { CATransaction.setAnimationDuration(d) }
        if let f = t.timingFunction { CATransaction.setAnimationTimingFunction(f.timingFunction) }
        if let b = t.disableActions { CATransaction.setDisableActions(b) }
        if let c = t.completion {
            let inner = c.value
            // Weak: the block lives in the transaction's completion group, which the layers'
            // animations keep; a strong builder here made a cycle (builder → layers →
            // animations → group → block → builder) that kept the whole scene alive whenever
            // a recording ended before the group completed (LeakSanitizer, scene fuzz target).
            CATransaction.setCompletionBlock { [weak self] in self?.run(inner) }
        }
        for step in t.steps { run(step) }
        CATransaction.commit()
    }

    private func run(_ step: StepDescription) {
        switch step {
        case let .set(name, properties):
            guard let l = existingLayer(name) else { return }
            for p in properties { l.setValue(value(p.value), forKeyPath: p.keyPath) }
        case let .add(a):
            guard let parent = existingLayer(a.parent) else { return }
            let child: CALayer?
            switch a.source {
            case let .new(d):
                if let n = d.name, let built = layersByName[n] { child = built }
                else {
                    // Built with actions disabled; inserting it below runs onOrderIn under the event's transaction.
                    CATransaction.begin()
                    CATransaction.setDisableActions(true)
                    child = makeLayer(d)
                    CATransaction.commit()
                }
            case let .existing(n): child = existingLayer(n)
            }
            guard let child else { return }
            // A cycle (a layer into itself, a parent into its child, a layer into its own mask's
            // tree) is ignored by Core Animation; say so, with the scene line.
            var up: CALayer? = parent
            while let u = up, u !== child { up = u.superlayer ?? u._maskOwner }
            if up === child {
                let name = layersByName.first { $0.value === child }?.key ?? "a layer"
                StandardStreams.error("flipbook: \(file)\(a.line.map { ":\($0)" } ?? ""): timeline: adding \"\(name)\" to \"\(a.parent)\" would put it inside itself; the step is ignored\n")
                return
            }
            if let i = a.index { parent.insertSublayer(child, at: UInt32(max(0, min(i, parent.sublayers?.count ?? 0)))) }
            else { parent.addSublayer(child) }
        case let .remove(name):
            existingLayer(name)?.removeFromSuperlayer()
        case let .addAnimation(name, d):
            existingLayer(name)?.add(animation(d, eventKey: nil), forKey: d.key)
        case let .removeAnimation(name, key):
            guard let l = existingLayer(name) else { return }
            if let key { l.removeAnimation(forKey: key) } else { l.removeAllAnimations() }
        case let .transaction(n):
            run(n)
        }
    }
}
