import Foundation
import Flipbook

/// A `CAShapeLayer` whose path and style are computed from its **local Lottie frame** at
/// presentation time: the mapper's answer for what no Core Animation property expresses (trims
/// on fills, trims that wrap, rounded corners and merge paths of animated shapes, animated
/// dash patterns, polystars with animated point counts, …). It is still a vector shape layer:
/// the compositor strokes and fills its path at the output's resolution.
///
/// How: the layer has a custom animatable key, ``frameKey`` (`"lottieFrame"`), animated on the
/// root timeline by ``LottieAnimationBuilder/frameTrack(keyPath:clock:)``, and
/// `needsDisplay(forKey:)` answers true for it, so every presentation copy whose frame is
/// animated runs ``display()``, which calls ``update`` with the frame. `update` sets `path`
/// (and any other property) on the layer it is given — on the copy, for that frame only.
/// The model layer is updated once when the frame is set (the value before playing).
package final class LottieComputedShapeLayer: CAShapeLayer, FlipbookPresentationCopying {
    /// The custom key holding the local Lottie frame.
    package static let frameKey = "lottieFrame"

    /// Computes the layer's presentation for a frame: sets `path`, and whatever else it
    /// varies, on the layer it is handed.
    package var update: (@Sendable (CAShapeLayer, Double) -> Void)?

    package override init() { super.init() }

    package override init(layer: Any) {
        super.init(layer: layer)
        if let other = layer as? LottieComputedShapeLayer { update = other.update }
    }

    required init?(coder: NSCoder) { nil }

    package override class func needsDisplay(forKey key: String) -> Bool {
        key == frameKey || super.needsDisplay(forKey: key)
    }

    /// The local frame (the key's value; 0 when unset).
    package var lottieFrame: Double {
        get { (value(forKey: Self.frameKey) as? NSNumber)?.doubleValue ?? 0 }
        set { setValue(NSNumber(value: newValue), forKey: Self.frameKey) }
    }

    /// Computes the path for the current frame instead of drawing a backing store.
    package override func display() { update?(self, lottieFrame) }
}
