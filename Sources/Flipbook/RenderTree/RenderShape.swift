import Foundation
import FlipbookGraphics
/// A `CAShapeLayer`'s shape in a render snapshot: presentation values (animations applied),
/// immutable and `Sendable`. Layer coordinates (y down). The compositor fills `path` with
/// `fillColor` and `fillRule`, then strokes the part of it between `strokeStart` and `strokeEnd`
/// (fractions of its arc length) with `strokeColor` and the line parameters; both are drawn
/// after the layer's contents and before its sublayers.
public struct RenderShape: Sendable, Equatable {
    /// The path (never a `CGMutablePath`); nil draws nothing.
    public let path: CGPath?
    public let fillColor: CGColor?
    public let fillRule: CAShapeLayerFillRule
    public let strokeColor: CGColor?
    public let lineWidth: CGFloat
    public let miterLimit: CGFloat
    public let lineCap: CAShapeLayerLineCap
    public let lineJoin: CAShapeLayerLineJoin
    /// The dash lengths (empty = solid).
    public let lineDashPattern: [CGFloat]
    public let lineDashPhase: CGFloat
    public let strokeStart: CGFloat
    public let strokeEnd: CGFloat

    public init(path: CGPath?, fillColor: CGColor? = .black, fillRule: CAShapeLayerFillRule = .nonZero,
                strokeColor: CGColor? = nil, lineWidth: CGFloat = 1, miterLimit: CGFloat = 10,
                lineCap: CAShapeLayerLineCap = .butt, lineJoin: CAShapeLayerLineJoin = .miter,
                lineDashPattern: [CGFloat] = [], lineDashPhase: CGFloat = 0,
                strokeStart: CGFloat = 0, strokeEnd: CGFloat = 1) {
        self.path = path.map { $0 is CGMutablePath ? $0._copy() : $0 }
        self.fillColor = fillColor; self.fillRule = fillRule; self.strokeColor = strokeColor
        self.lineWidth = lineWidth; self.miterLimit = miterLimit; self.lineCap = lineCap
        self.lineJoin = lineJoin; self.lineDashPattern = lineDashPattern; self.lineDashPhase = lineDashPhase
        self.strokeStart = strokeStart; self.strokeEnd = strokeEnd
    }

    init(_ s: _ShapeState) {
        self.init(path: s.path, fillColor: s.fillColor, fillRule: s.fillRule, strokeColor: s.strokeColor,
                  lineWidth: s.lineWidth, miterLimit: s.miterLimit, lineCap: s.lineCap, lineJoin: s.lineJoin,
                  lineDashPattern: s.lineDashPattern?.map { CGFloat($0.doubleValue) } ?? [],
                  lineDashPhase: s.lineDashPhase, strokeStart: s.strokeStart, strokeEnd: s.strokeEnd)
    }
}
