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

    package init(composition: LottieComposition) { self.composition = composition }

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
