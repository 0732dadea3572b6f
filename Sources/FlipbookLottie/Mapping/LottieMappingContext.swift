import Foundation
import Flipbook

/// What mapping a composition produces besides the layers: each layer's animations (the
/// ``LottieAnimationLayer`` wraps them in one group per layer carrying the play range and loop
/// mode) and the warnings. One context per mapped tree; used on one thread.
package final class LottieMappingContext {
    package let composition: LottieComposition
    /// Warnings, in the order found; one per feature and path.
    package private(set) var warnings: [LottieWarning] = []
    private var warned: Set<LottieWarning> = []
    /// Layers with animations, in the order first animated, and their animations.
    package private(set) var animatedLayers: [(layer: CALayer, animations: [CAAnimation])] = []
    private var indexOfLayer: [ObjectIdentifier: Int] = [:]

    package init(composition: LottieComposition, maximumLayers: Int = LottieMappingContext.maximumLayers) {
        self.composition = composition
        self.layerBudget = maximumLayers
    }

    // MARK: Layer budget

    /// The most Core Animation layers one mapped tree may have, each replicator instance
    /// counted (hostile input: a hundred instances of a precomposition whose repeater makes a
    /// thousand copies would otherwise build hundreds of thousands of layers — gigabytes, and
    /// seconds a frame; the four test fixtures map to 88 to 382 layers). Past it, the Lottie
    /// layers (and repeater copies) still to be built are left out, with a warning.
    package static let maximumLayers = 10_000

    /// This tree's bound (``maximumLayers`` unless a test lowers it).
    package let layerBudget: Int
    /// The layers built and counted so far.
    package private(set) var layerCount = 0

    /// True when the budget is spent: warns (once per feature and path) that what `path`
    /// names is left out.
    package func layerBudgetSpent(path: String, _ what: String) -> Bool {
        guard layerCount >= layerBudget else { return false }
        warn("layer budget", path: path, "the animation maps to more than \(layerBudget) layers; \(what) left out")
        return true
    }

    /// Builds layers with `body` and counts them: the layers returned with their whole
    /// subtrees (sublayers and masks), those counted by a nested call included once.
    package func countingLayers<T>(_ body: () -> T, layers: (T) -> [CALayer]) -> T {
        let before = layerCount
        let result = body()
        let inside = layerCount - before
        let total = layers(result).reduce(0) { $0 + Self.subtreeSize($1) }
        layerCount = before + max(inside, total)
        return result
    }

    /// The layers of `layer`'s tree as drawn: itself, its mask's and its sublayers' trees,
    /// a replicator's sublayers once per instance (each instance is built anew every frame).
    package static func subtreeSize(_ layer: CALayer) -> Int {
        var n = 0
        for s in layer.sublayers ?? [] { n += subtreeSize(s) }
        if let r = layer as? CAReplicatorLayer { n *= max(r.instanceCount, 1) }
        if let m = layer.mask { n += subtreeSize(m) }
        return n + 1
    }

    /// The clock of the root composition.
    package var rootClock: LottieClock {
        LottieClock(fps: composition.frameRate, start: composition.inPoint, end: composition.outPoint)
    }

    /// Records a warning (once per feature and path).
    package func warn(_ feature: String, path: String, _ message: String) {
        let w = LottieWarning(feature: feature, path: path, message: message)
        if warned.insert(w).inserted { warnings.append(w) }
    }

    /// Adds `animation` to the animations of `layer` (installed by the animation layer).
    package func add(_ animation: CAAnimation, to layer: CALayer) {
        if let i = indexOfLayer[ObjectIdentifier(layer)] {
            animatedLayers[i].animations.append(animation)
        } else {
            indexOfLayer[ObjectIdentifier(layer)] = animatedLayers.count
            animatedLayers.append((layer, [animation]))
        }
    }

    /// Sets `keyPath` of `layer` to the track's value at the timeline's start and registers its
    /// animation, if any.
    package func apply(_ track: LottieAnimationBuilder.Track, to layer: CALayer, keyPath: String) {
        layer.setValue(track.initialValue, forKeyPath: keyPath)
        if let a = track.animation { add(a, to: layer) }
    }
}
