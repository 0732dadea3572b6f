import Foundation
import FlipbookGraphics
/// An in-between value of a `contents` animation: "image `from` dissolving into image `to`,
/// `fraction` of the way". Core Animation cross-fades animated `contents`; the compositor draws
/// this as `from` with opacity `1 − fraction` and `to` with opacity `fraction`, each laid out by
/// the layer's `contentsGravity` (a nil image draws nothing).
///
/// `fraction` is the animation progress after the timing function, so it can leave [0, 1] with
/// overshooting curves; the compositor should clamp it to [0, 1] when drawing.
public struct ContentsCrossfade: Hashable, Sendable, CustomStringConvertible {
    public var from: CGImage?
    public var to: CGImage?
    public var fraction: Double

    public init(from: CGImage?, to: CGImage?, fraction: Double) {
        self.from = from; self.to = to; self.fraction = fraction
    }

    /// `fraction` clamped to [0, 1] (NaN → 0): the opacity of `to`.
    public var clampedFraction: Double { fraction.isNaN ? 0 : min(max(fraction, 0), 1) }

    public var description: String {
        "ContentsCrossfade(\(from.map(\.description) ?? "nil") → \(to.map(\.description) ?? "nil") at \(fraction))"
    }
}
