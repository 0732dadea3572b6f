import Foundation
import FlipbookGraphics
/// `CGPath` values (`CAShapeLayer.path`, `shadowPath`): a linear blend of the control points.
///
/// Two paths interpolate (and add, subtract) point by point when their element structures
/// match: the same element kinds (move, line, quadratic, cubic, close) in the same order. Paths
/// whose structures differ do not: the value switches from the first to the second at fraction ½
/// (the rule for every value that cannot interpolate; Apple documents the result as undefined).
extension CGPath {
    /// Whether `self` and `other` have the same element kinds in the same order.
    package func _hasSameStructure(as other: CGPath) -> Bool {
        guard elements.count == other.elements.count else { return false }
        for (a, b) in zip(elements, other.elements) {
            switch (a, b) {
            case (.moveToPoint, .moveToPoint), (.addLineToPoint, .addLineToPoint),
                 (.addQuadCurveToPoint, .addQuadCurveToPoint), (.addCurveToPoint, .addCurveToPoint),
                 (.closeSubpath, .closeSubpath): continue
            default: return false
            }
        }
        return true
    }

    /// Every point of the path, element by element (the `_withPoints` order).
    package var _points: [CGPoint] {
        var out: [CGPoint] = []
        out.reserveCapacity(elements.count * 2)
        for e in elements {
            switch e {
            case let .moveToPoint(p), let .addLineToPoint(p): out.append(p)
            case let .addQuadCurveToPoint(c, p): out += [c, p]
            case let .addCurveToPoint(c1, c2, p): out += [c1, c2, p]
            case .closeSubpath: break
            }
        }
        return out
    }

    /// A path with this path's structure and the points `pts` (as many as ``_points``).
    package func _withPoints(_ pts: [CGPoint]) -> CGPath {
        var i = 0
        func next() -> CGPoint { defer { i += 1 }; return i < pts.count ? pts[i] : .zero }
        var out: [_PathElement] = []
        out.reserveCapacity(elements.count)
        for e in elements {
            switch e {
            case .moveToPoint: out.append(.moveToPoint(next()))
            case .addLineToPoint: out.append(.addLineToPoint(next()))
            case .addQuadCurveToPoint: let c = next(); out.append(.addQuadCurveToPoint(control: c, to: next()))
            case .addCurveToPoint:
                let c1 = next(), c2 = next()
                out.append(.addCurveToPoint(control1: c1, control2: c2, to: next()))
            case .closeSubpath: out.append(.closeSubpath)
            }
        }
        return CGPath(elements: out)
    }

    /// The point-wise combination of two paths of the same structure (nil otherwise).
    package func _zipPoints(_ other: CGPath, _ f: (CGPoint, CGPoint) -> CGPoint) -> CGPath? {
        guard _hasSameStructure(as: other) else { return nil }
        return _withPoints(zip(_points, other._points).map(f))
    }
}

extension _AnimValue {
    static func _lerpPath(_ p: CGPath, _ q: CGPath, _ f: Double) -> CGPath? {
        let k = CGFloat(f)
        return p._zipPoints(q) { a, b in CGPoint(x: a.x + (b.x - a.x) * k, y: a.y + (b.y - a.y) * k) }
    }
}
