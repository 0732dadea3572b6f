import Foundation
import FlipbookGraphics

/// A `CAGradientLayer`'s gradient in a render snapshot (presentation values), immutable and
/// `Sendable`. `colors` holds the `CGColor` elements of the layer's `colors` (others dropped);
/// `locations` is nil for an even spread — also when the layer's `locations` had another count
/// than its colours. Points are in the unit space of the bounds (y down).
public struct RenderGradient: Sendable, Equatable {
    public let type: CAGradientLayerType
    public let colors: [CGColor]
    public let locations: [CGFloat]?
    public let startPoint: CGPoint
    public let endPoint: CGPoint

    public init(type: CAGradientLayerType = .axial, colors: [CGColor], locations: [CGFloat]? = nil,
                startPoint: CGPoint = CGPoint(x: 0.5, y: 0), endPoint: CGPoint = CGPoint(x: 0.5, y: 1)) {
        self.type = type; self.colors = colors
        self.locations = locations.flatMap { $0.count == colors.count ? $0 : nil }
        self.startPoint = startPoint; self.endPoint = endPoint
    }

    init(_ s: _GradientState) {
        let colors = (s.colors ?? []).compactMap { $0 as? CGColor }
        self.init(type: s.type, colors: colors, locations: s.locations?.map { CGFloat($0.doubleValue) },
                  startPoint: s.startPoint, endPoint: s.endPoint)
    }

    /// The stops: `(location, colour)` pairs, evenly spread when `locations` is nil.
    public var stops: [(location: CGFloat, color: CGColor)] {
        let n = colors.count
        return colors.enumerated().map { i, c in
            (locations?[i] ?? (n > 1 ? CGFloat(i) / CGFloat(n - 1) : 0), c)
        }
    }
}
