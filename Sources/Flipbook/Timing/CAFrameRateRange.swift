import Foundation

/// A range of frame rates an animation would like to run at (Apple's `CAFrameRateRange`, the
/// type of `CAAnimation.preferredFrameRateRange`).
///
/// Flipbook accepts it and ignores it: frames are sampled at the recording's own rate (its
/// `fps`), whatever an animation prefers, so output never depends on a hint.
public struct CAFrameRateRange: Equatable, Sendable {
    public var minimum: Float
    public var maximum: Float
    /// The preferred rate, or nil for "no preference".
    public var preferred: Float?

    public init(minimum: Float, maximum: Float, preferred: Float?) {
        self.minimum = minimum; self.maximum = maximum; self.preferred = preferred
    }

    public init(minimum: Float, maximum: Float) {
        self.init(minimum: minimum, maximum: maximum, preferred: nil)
    }

    /// The default: no preference (all zero, as Apple's `CAFrameRateRangeDefault`).
    public static let `default` = CAFrameRateRange(minimum: 0, maximum: 0, preferred: 0)

    /// Apple's comparison method (the same as `==`).
    public func isEqual(to range: CAFrameRateRange) -> Bool { self == range }
}
