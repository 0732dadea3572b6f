import Flipbook
import Foundation
import SnapshotTesting

extension Snapshotting where Value == CALayer, Format == SnapshotImage {
    /// A snapshot strategy for comparing layers based on pixel equality.
    ///
    /// ``` swift
    /// // Match reference perfectly.
    /// assertSnapshot(of: layer, as: .image)
    ///
    /// // Allow for a 1% pixel difference.
    /// assertSnapshot(of: layer, as: .image(precision: 0.99))
    /// ```
    public static var image: Snapshotting { .image() }

    /// A snapshot strategy for comparing layers based on pixel equality.
    ///
    /// The picture is what iOS's strategy draws, `layer.render(in:)` into an image renderer of
    /// `layer.bounds` at scale 1: the **model** tree (animations play no part) in the layer's
    /// own space (its own position, anchor point and transform play no part), `bounds.size`
    /// pixels with fractional sides rounded up, `bounds.origin` at the top-left pixel, y down,
    /// on transparent. The layer is laid out first (`setNeedsLayout()`, `layoutIfNeeded()`).
    /// References are PNG files named by swift-snapshot-testing
    /// (`__Snapshots__/<TestFile>/<test>.<n>.png`).
    ///
    /// - Parameters:
    ///   - precision: The percentage of pixels that must match.
    ///   - perceptualPrecision: The percentage a pixel must match the source pixel to be
    ///     considered a match: its CIE94 ΔE must be at most `(1 − perceptualPrecision) × 100`.
    ///     98–99% mimics the precision of the human eye.
    public static func image(precision: Float = 1, perceptualPrecision: Float = 1) -> Snapshotting {
        SimplySnapshotting.image(precision: precision, perceptualPrecision: perceptualPrecision)
            .pullback { (layer: CALayer) in LayerSnapshotRenderer.modelImage(of: layer) }
    }

    /// Beyond Apple's: the presentation tree `time` seconds after the commit this makes.
    ///
    /// Commits on the layer's own virtual run loop (`VirtualRunLoop.endTurn()`; first attaching
    /// the layer's tree as a root when its topmost layer is not attached yet), advances that run
    /// loop to the commit's time plus `time` (delivering the callbacks due on the way), and draws
    /// the layer's **presentation** tree at that time as ``image`` draws the model: the
    /// presentation bounds' size and origin, the layer's own space, transparent. So `time` counts
    /// from that commit whatever the clock read before — implicit animations of changes made
    /// since the last commit start at it — and the model (values, animations, tree) is left as it
    /// was.
    ///
    /// ``` swift
    /// layer.opacity = 0                                   // an implicit 0.25 s fade
    /// assertSnapshot(of: layer, as: .image(at: 0.125))    // half way
    /// ```
    ///
    /// **The run loop's clock moves** and never goes back: a second `.image(at:)` of the same
    /// tree commits again at the clock's new time, so its `time` counts from there. A `time`
    /// that is negative or not finite gives a snapshot that fails with the reason.
    ///
    /// - Parameters:
    ///   - time: Seconds after the commit, `≥ 0`.
    ///   - precision: The percentage of pixels that must match.
    ///   - perceptualPrecision: The percentage a pixel must match the source pixel to be
    ///     considered a match (see ``image(precision:perceptualPrecision:)``).
    public static func image(at time: CFTimeInterval, precision: Float = 1, perceptualPrecision: Float = 1) -> Snapshotting {
        SimplySnapshotting.image(precision: precision, perceptualPrecision: perceptualPrecision)
            .pullback { (layer: CALayer) in LayerSnapshotRenderer.presentationImage(of: layer, at: time) }
    }
}
