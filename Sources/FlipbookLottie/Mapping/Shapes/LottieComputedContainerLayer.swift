import Foundation
import Flipbook

/// A plain container layer whose own geometry (transform, opacity, visibility) is computed
/// from its **local Lottie frame** at presentation time — for a group transform no Core
/// Animation key path carries exactly (an animated skew, rotation or scale under a skew) and
/// for repeater copies whose count, offset or transform animate. Its sublayers are ordinary
/// layers with their own animations.
///
/// Same mechanism as ``LottieComputedShapeLayer``: the custom animatable key ``frameKey``
/// needs display, so each presentation copy whose frame animates runs ``display()``, which
/// calls ``update`` with that frame on the copy (nothing is drawn: the layer has no contents).
final class LottieComputedContainerLayer: CALayer, FlipbookPresentationCopying {
    static let frameKey = LottieComputedShapeLayer.frameKey

    /// Sets the layer's geometry for a frame on the layer it is handed.
    var update: (@Sendable (CALayer, Double) -> Void)?

    override init() { super.init() }

    override init(layer: Any) {
        super.init(layer: layer)
        if let other = layer as? LottieComputedContainerLayer { update = other.update }
    }

    required init?(coder: NSCoder) { nil }

    override class func needsDisplay(forKey key: String) -> Bool {
        key == frameKey || super.needsDisplay(forKey: key)
    }

    var lottieFrame: Double {
        get { (value(forKey: Self.frameKey) as? NSNumber)?.doubleValue ?? 0 }
        set { setValue(NSNumber(value: newValue), forKey: Self.frameKey) }
    }

    override func display() { update?(self, lottieFrame) }
}
