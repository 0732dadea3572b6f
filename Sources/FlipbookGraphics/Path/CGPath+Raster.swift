import Foundation
import FlipbookRaster

extension RasterPath {
    /// A `CGPath`'s elements as a raster path in the same coordinates (the form the rasterizer
    /// and the stroker in `FlipbookRaster` take).
    package init(_ path: CGPath) {
        self.init()
        reserveCapacity(verbs: path.elements.count, points: path.elements.count * 2)
        for e in path.elements {
            switch e {
            case let .moveToPoint(p): move(to: RasterPoint(Double(p.x), Double(p.y)))
            case let .addLineToPoint(p): line(to: RasterPoint(Double(p.x), Double(p.y)))
            case let .addQuadCurveToPoint(c, p):
                quad(to: RasterPoint(Double(p.x), Double(p.y)), control: RasterPoint(Double(c.x), Double(c.y)))
            case let .addCurveToPoint(c1, c2, p):
                cubic(to: RasterPoint(Double(p.x), Double(p.y)), control1: RasterPoint(Double(c1.x), Double(c1.y)),
                      control2: RasterPoint(Double(c2.x), Double(c2.y)))
            case .closeSubpath: close()
            }
        }
    }
}
