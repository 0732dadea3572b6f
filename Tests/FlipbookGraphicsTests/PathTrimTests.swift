import Testing
@testable import FlipbookGraphics
import Foundation

/// `CGPath._trimmed(from:to:)`: arc-length trimming for `strokeStart` / `strokeEnd`.
@Suite struct PathTrimTests {
    static let ring = CGPath(ellipseIn: CGRect(x: -100, y: -100, width: 200, height: 200))

    /// The angle (degrees, 0…360, y-down) of the trimmed path's end point about the origin.
    func endAngle(_ p: CGPath) -> Double {
        let e = p.currentPoint
        let a = atan2(Double(e.y), Double(e.x)) * 180 / .pi
        return a < 0 ? a + 360 : a
    }

    /// An immutable path is measured once and trimmed from that measure again and again (the
    /// same result as measuring afresh); a mutable one is measured each time, so a change
    /// between two trims is seen.
    @Test func measuredOnceUnlessMutable() {
        let ring = CGPath(ellipseIn: CGRect(x: -100, y: -100, width: 200, height: 200))
        let first = ring._trimmed(from: 0.1, to: 0.6)
        #expect(ring._trimMeasure.withLock { $0 != nil })
        #expect(ring._trimmed(from: 0.1, to: 0.6) == first)
        #expect(ring._trimmed(from: 0.1, to: 0.6) == CGPath(elements: ring.elements)._trimmed(from: 0.1, to: 0.6))
        let m = CGMutablePath()
        m.move(to: .zero); m.addLine(to: CGPoint(x: 10, y: 0))
        #expect(m._trimmed(from: 0, to: 0.5).currentPoint == CGPoint(x: 5, y: 0))
        m.addLine(to: CGPoint(x: 10, y: 10))
        #expect(m._trimmed(from: 0, to: 0.5).currentPoint == CGPoint(x: 10, y: 0))
        #expect(m._trimMeasure.withLock { $0 == nil })
    }

    @Test func ringTrimmedToAFractionEndsAtThatAngle() {
        for (f, expected) in [(0.25, 90.0), (0.1, 36.0), (0.3, 108.0), (0.5, 180.0), (0.8, 288.0), (0.6180339, 222.49)] {
            let t = Self.ring._trimmed(from: 0, to: f)
            #expect(abs(endAngle(t) - expected) < 0.5, "end of ring trimmed to \(f): \(endAngle(t))°")
            // The cut point is on the circle.
            let e = t.currentPoint
            #expect(abs(hypot(Double(e.x), Double(e.y)) - 100) < 0.05)
            #expect(abs(t._length - f * Self.ring._length) < 1e-3)
        }
        // Both ends cut.
        let mid = Self.ring._trimmed(from: 0.25, to: 0.5)
        guard case let .moveToPoint(s)? = mid.elements.first else { Issue.record("no move"); return }
        #expect(abs(s.x) < 1e-9 && abs(s.y - 100) < 1e-9)
        #expect(abs(endAngle(mid) - 180) < 0.5)
        #expect(abs(mid._length - 0.25 * Self.ring._length) < 1e-3)
    }

    @Test func wholeRangeKeepsThePathAndEmptyRangesDrawNothing() {
        #expect(Self.ring._trimmed(from: 0, to: 1) == Self.ring)
        #expect(Self.ring._trimmed(from: -1, to: 2) == Self.ring)
        #expect(Self.ring._trimmed(from: 0, to: 0).isEmpty)
        #expect(Self.ring._trimmed(from: 0.6, to: 0.4).isEmpty)
        #expect(CGMutablePath()._trimmed(from: 0, to: 0.5).isEmpty)
    }

    @Test func trimmingMeasuresAllSubpathsTogether() {
        // Two horizontal lines of length 100 and 300 (a jump between them counts 0).
        let m = CGMutablePath()
        m.move(to: CGPoint(x: 0, y: 0)); m.addLine(to: CGPoint(x: 100, y: 0))
        m.move(to: CGPoint(x: 0, y: 50)); m.addLine(to: CGPoint(x: 300, y: 50))
        // 0.5 of 400 = 200: all of the first line, 100 of the second.
        let half = m._trimmed(from: 0, to: 0.5)
        #expect(half.elements == [.moveToPoint(CGPoint(x: 0, y: 0)), .addLineToPoint(CGPoint(x: 100, y: 0)),
                                  .moveToPoint(CGPoint(x: 0, y: 50)), .addLineToPoint(CGPoint(x: 100, y: 50))])
        let tail = m._trimmed(from: 0.125, to: 1)
        #expect(tail.elements == [.moveToPoint(CGPoint(x: 50, y: 0)), .addLineToPoint(CGPoint(x: 100, y: 0)),
                                  .moveToPoint(CGPoint(x: 0, y: 50)), .addLineToPoint(CGPoint(x: 300, y: 50))])
        // A closed square wholly inside the range stays closed; the one cut opens.
        let sq = CGMutablePath()
        sq.addRect(CGRect(x: 0, y: 0, width: 10, height: 10))
        sq.addRect(CGRect(x: 20, y: 0, width: 10, height: 10))
        let t = sq._trimmed(from: 0, to: 0.75)
        #expect(Array(t.elements.prefix(5)) == Array(sq.elements.prefix(5)))
        #expect(Array(t.elements.dropFirst(5)) == [.moveToPoint(CGPoint(x: 20, y: 0)), .addLineToPoint(CGPoint(x: 30, y: 0)),
                                            .addLineToPoint(CGPoint(x: 30, y: 10))])
    }

    @Test func splitCurvesLieOnTheOriginal() {
        let m = CGMutablePath()
        m.move(to: .zero)
        m.addQuadCurve(to: CGPoint(x: 100, y: 0), control: CGPoint(x: 50, y: 80))
        m.addCurve(to: CGPoint(x: 200, y: 0), control1: CGPoint(x: 120, y: -60), control2: CGPoint(x: 180, y: 90))
        let t = m._trimmed(from: 0.2, to: 0.7)
        #expect(abs(t._length - 0.5 * m._length) < 1e-2)
        // Every flattened point of the trimmed path is on the original (within flattening error).
        let original = m._flattened(tolerance: 1e-3).flatMap { $0 }
        for p in t._flattened(tolerance: 0.01).flatMap({ $0 }) {
            let d = original.map { hypot(Double($0.x - p.x), Double($0.y - p.y)) }.min()!
            #expect(d < 0.5)
        }
    }

    @Test func cutsAtSegmentEndsLeaveNoZeroLengthPieces() {
        // 0.25 of a ring is exactly the end of its first curve: one curve, no crumbs after it.
        let t = Self.ring._trimmed(from: 0, to: 0.25)
        #expect(t.elements.count == 2)
        let u = Self.ring._trimmed(from: 0.25, to: 0.5)
        #expect(u.elements.count == 2)
    }

    @Test func fineEndsSplitTheEndCurvesWithoutMovingThePath() {
        let t = Self.ring._trimmed(from: 0, to: 0.3)
        let f = t._withFineEnds(length: 0.05)
        // move, first curve split in two, last curve split in two.
        #expect(f.elements.count == t.elements.count + 2)
        #expect(abs(f._length - t._length) < 1e-6)
        guard case let .addCurveToPoint(_, _, p)? = f.elements.dropFirst().first else { Issue.record("no curve"); return }
        // The first piece is 0.05 long and on the circle.
        #expect(abs(hypot(Double(p.x), Double(p.y)) - 100) < 1e-6)
        #expect(abs(hypot(Double(p.x) - 100, Double(p.y)) - 0.05) < 1e-4)
        #expect(f.currentPoint == t.currentPoint)
        // Lines and closed subpaths are left alone.
        let line = CGMutablePath()
        line.move(to: .zero); line.addLine(to: CGPoint(x: 5, y: 0))
        #expect(line._withFineEnds(length: 1) == line)
        #expect(Self.ring._withFineEnds(length: 1) == Self.ring)
    }
}
