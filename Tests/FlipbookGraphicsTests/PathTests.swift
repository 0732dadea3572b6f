import Testing
import Foundation
@testable import FlipbookGraphics

@Suite struct PathTests {
    @Test func rectBoundsAndLength() {
        let p = CGPath(rect: CGRect(x: 10, y: 20, width: 30, height: 40))
        #expect(p.boundingBox == CGRect(x: 10, y: 20, width: 30, height: 40))
        #expect(abs(p._length - 140) < 1e-9)
        #expect(p._segments.count == 4)                          // 3 lines + closing line
        #expect(p._flattened().first?.last == CGPoint(x: 10, y: 20))
        #expect(CGMutablePath().boundingBox.isNull && CGMutablePath().isEmpty)
    }

    @Test func ellipseLengthAndTightBounds() {
        let c = CGPath(ellipseIn: CGRect(x: 0, y: 0, width: 20, height: 20))
        #expect(abs(c._length - 2 * .pi * 10) < 0.01)          // κ-approximated circle
        let b = c.boundingBoxOfPath
        #expect(abs(b.minX) < 1e-3 && abs(b.maxX - 20) < 1e-3 && abs(b.maxY - 20) < 1e-3)
        let flat = c._flattened(tolerance: 0.01)[0]
        for q in flat { #expect(abs(hypot(q.x - 10, q.y - 10) - 10) < 0.01) }
    }

    @Test func curveControlPointsInBoundingBoxButNotTightBox() {
        let m = CGMutablePath()
        m.move(to: .zero)
        m.addQuadCurve(to: CGPoint(x: 10, y: 0), control: CGPoint(x: 5, y: 10))
        #expect(m.boundingBox.height == 10)                     // includes the control point
        #expect(abs(m.boundingBoxOfPath.height - 5) < 1e-3)     // the curve peaks at 5
        #expect(m.currentPoint == CGPoint(x: 10, y: 0))
        // Quadratic arc length vs. a fine independent polyline.
        var len = 0.0, prev = CGPoint.zero
        for i in 1...20000 {
            let u = Double(i) / 20000
            let q = CGPoint(x: 2 * (1 - u) * u * 5 + u * u * 10, y: 2 * (1 - u) * u * 10)
            len += hypot(q.x - prev.x, q.y - prev.y); prev = q
        }
        #expect(abs(m._length - len) < 1e-3)
    }

    @Test func samplingByArcLength() {
        let m = CGMutablePath()
        m.addLines(between: [.zero, CGPoint(x: 10, y: 0), CGPoint(x: 10, y: 10)])
        let s = m._sample(atArcLength: 15)!
        #expect(s.point == CGPoint(x: 10, y: 5) && abs(s.angle - .pi / 2) < 1e-12)
        #expect(m._sample(atArcLength: -3)!.point == .zero)
        #expect(m._sample(atArcLength: 99)!.point == CGPoint(x: 10, y: 10))
        #expect(CGMutablePath()._sample(atArcLength: 1) == nil)
        // A second subpath is a jump: zero length.
        m.move(to: CGPoint(x: 100, y: 100)); m.addLine(to: CGPoint(x: 100, y: 110))
        #expect(abs(m._length - 30) < 1e-9)
        #expect(m._sample(atArcLength: 25)!.point == CGPoint(x: 100, y: 105))
        #expect(m._flattened().count == 2)
    }

    @Test func roundedRectAndTransforms() {
        let r = CGPath(roundedRect: CGRect(x: 0, y: 0, width: 100, height: 50), cornerWidth: 10, cornerHeight: 10)
        // Four straight sides shortened by the corners, plus four quarter circles.
        #expect(abs(r._length - (2 * 80 + 2 * 30 + 2 * .pi * 10)) < 0.02)
        #expect(r.boundingBox == CGRect(x: 0, y: 0, width: 100, height: 50))
        let big = CGPath(roundedRect: CGRect(x: 0, y: 0, width: 10, height: 10), cornerWidth: 50, cornerHeight: 50)
        #expect(abs(big._length - .pi * 10) < 0.02)             // clamped to a circle
        let moved = CGPath(rect: CGRect(x: 0, y: 0, width: 1, height: 1), transform: CGAffineTransform(translationX: 5, y: 5))
        #expect(moved.boundingBox == CGRect(x: 5, y: 5, width: 1, height: 1))
        let copy = moved.mutableCopy()!; copy.addPath(r)
        #expect(copy.elements.count == moved.elements.count + r.elements.count && copy != moved)
    }

    @Test func degenerateInputStaysTotal() {
        let m = CGMutablePath()
        m.addLine(to: CGPoint(x: 3, y: 4))                      // no move: starts at (0, 0)
        #expect(m._length == 5)
        m.addCurve(to: CGPoint(x: 3, y: 4), control1: CGPoint(x: 3, y: 4), control2: CGPoint(x: 3, y: 4))
        #expect(m._length == 5)
        let n = CGMutablePath(); n.move(to: CGPoint(x: CGFloat.nan, y: 0)); n.addLine(to: .zero)
        _ = n._flattened(); _ = n._sample(atArcLength: 1)         // no crash
    }
}
