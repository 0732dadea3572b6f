import Testing
@testable import Flipbook
import Foundation

@Suite struct KeyframeTests {
    func kf(_ values: [Any]?, _ mode: CAAnimationCalculationMode = .linear, keyTimes: [Double]? = nil) -> CAKeyframeAnimation {
        let a = CAKeyframeAnimation(keyPath: "x")
        a.values = values; a.calculationMode = mode; a.duration = 1
        a.keyTimes = keyTimes?.map { NSNumber(value: $0) }
        return a
    }
    func v(_ a: CAKeyframeAnimation, _ t: Double, base: Any? = CGFloat(-1), iteration: Int = 0) -> CGFloat? {
        a._evaluate(at: t, iteration: iteration, base: base) as? CGFloat
    }
    let three: [Any] = [CGFloat(0), CGFloat(10), CGFloat(30)]

    @Test func linearWithKeyTimesAndSegmentTiming() {
        let a = kf(three, keyTimes: [0, 0.25, 1])
        #expect(v(a, 0.125) == 5 && v(a, 0.25) == 10 && v(a, 0.625) == 20 && v(a, 1) == 30)
        let even = kf(three)
        #expect(v(even, 0.25) == 5 && v(even, 0.75) == 20)
        even.timingFunctions = [CAMediaTimingFunction(name: .easeIn)]   // only segment 0; segment 1 linear
        #expect(abs(v(even, 0.25)! - 10 * CAMediaTimingFunction(name: .easeIn)._solve(0.5)) < 1e-9)
        #expect(v(even, 0.75) == 20)
    }

    @Test func malformedKeyTimesFallBackToEvenSpacing() {
        for bad: [Double] in [[0, 1], [0.1, 0.5, 1], [0, 0.5, 0.9], [0, 0.8, 0.4, 1], [0, .nan, 1], [0, 0.5, 1, 1]] {
            let a = kf(three, keyTimes: bad)
            #expect(a._effectiveKeyTimes(count: 3) == [0, 0.5, 1], "\(bad)")
            #expect(v(a, 0.75) == 20)
        }
        #expect(kf(three, keyTimes: [0, 0.5, 0.5])._effectiveKeyTimes(count: 3) == [0, 0.5, 1])  // not ending at 1
        #expect(kf(three, keyTimes: [0, 0, 1])._effectiveKeyTimes(count: 3) == [0, 0, 1])         // repeated time is fine
        #expect(v(kf(three, keyTimes: [0, 0, 1]), 0) == 10)                                       // zero-length segment
    }

    @Test func emptyAndSingleValues() {
        #expect(kf([])._evaluate(at: 0.5, iteration: 0, base: CGFloat(7)) == nil)
        #expect(kf(nil)._evaluate(at: 0.5, iteration: 0, base: CGFloat(7)) == nil)
        #expect(v(kf([CGFloat(4)]), 0.5) == 4)
        #expect(v(kf(["junk", CGFloat(4)]), 0.9) == 4)       // unboxable entries are dropped
    }

    @Test func discrete() {
        let a = kf(three, .discrete)                         // even: 0, ⅓, ⅔
        #expect(v(a, 0.2) == 0 && v(a, 0.4) == 10 && v(a, 0.7) == 30 && v(a, 1) == 30)
        let k = kf(three, .discrete, keyTimes: [0, 0.1, 0.2, 1])   // n + 1 entries
        #expect(v(k, 0.05) == 0 && v(k, 0.15) == 10 && v(k, 0.5) == 30)
        let bad = kf(three, .discrete, keyTimes: [0.5, 0.6, 0.7])
        #expect(v(bad, 0.4) == 10)                           // fell back to thirds
    }

    @Test func pacedSpacesByDistance() {
        let a = kf(three, .paced, keyTimes: [0, 0.9, 1])     // keyTimes ignored
        // Distances 10 and 20: key times 0, ⅓, 1.
        #expect(abs(v(a, 1.0 / 3)! - 10) < 1e-9 && abs(v(a, 2.0 / 3)! - 20) < 1e-9 && abs(v(a, 0.5)! - 15) < 1e-9)
        let same = kf([CGFloat(1), CGFloat(1), CGFloat(1)], .paced)
        #expect(v(same, 0.5) == 1)
    }

    @Test func cubicIsCatmullRomByDefault() {
        let pts: [Any] = [CGFloat(0), CGFloat(10), CGFloat(0), CGFloat(10)]
        let a = kf(pts, .cubic)
        // Segment 1 (10 → 0) at u = ½: tangents (0 − 0)/2 = 0 at both ends → Hermite midpoint 5.
        #expect(abs(v(a, 0.5)! - 5) < 1e-12)
        // Segment 0 at u = ½: P0 = 0, D0 = ½(10 − 0)·… with duplicated endpoint: D0 = ½·0 + ½·10 = 5;
        // S1 = ½(10 − 0) + ½(0 − 10) = 0 → 0.5·0 + 0.125·5 + 0.5·10 − 0.125·0 = 5.625.
        #expect(abs(v(a, 1.0 / 6)! - 5.625) < 1e-12)
        #expect(v(a, 0) == 0 && abs(v(a, 1)! - 10) < 1e-12)
        // Tension 1 zeroes the tangents: smoothstep.
        a.tensionValues = [1, 1, 1, 1].map { NSNumber(value: $0) }
        #expect(abs(v(a, 1.0 / 12)! - 10 * (3 * 0.0625 - 2 * 0.015625)) < 1e-12)   // u = ¼
        // Bias and continuity enter the tangents: bias 1 makes the outgoing tangent (P1 − P0)·1.
        a.tensionValues = nil; a.biasValues = [0, 1, 0, 0].map { NSNumber(value: $0) }
        // Segment 1 at u = ½: D1 = (1)(2)(1)/2·(10 − 0) + 0 = 10; S2 = ½·(0 − 10) + ½·(10 − 0) = 0.
        #expect(abs(v(a, 0.5)! - (5 + 0.125 * 10)) < 1e-12)
        // Points go component-wise; transforms fall back to linear.
        let p = CAKeyframeAnimation(keyPath: "position"); p.calculationMode = .cubicPaced; p.duration = 1
        p.values = [CGPoint(x: 0, y: 0), CGPoint(x: 10, y: 0), CGPoint(x: 10, y: 10)]
        let q = p._evaluate(at: 0.5, iteration: 0, base: CGPoint.zero) as! CGPoint
        #expect(abs(q.x - 10) < 1e-9 && abs(q.y) < 1e-9)     // paced: halfway = the middle keyframe
    }

    @Test func pathModesAndRotation() {
        let m = CGMutablePath()
        m.addLines(between: [.zero, CGPoint(x: 30, y: 0), CGPoint(x: 30, y: 10)])
        let a = CAKeyframeAnimation(keyPath: "position"); a.path = m; a.duration = 1
        a.values = [CGPoint(x: 999, y: 999)]                 // path wins
        // Linear: each segment gets half the time.
        #expect(a._evaluate(at: 0.25, iteration: 0, base: CGPoint.zero) as? CGPoint == CGPoint(x: 15, y: 0))
        #expect(a._evaluate(at: 0.75, iteration: 0, base: CGPoint.zero) as? CGPoint == CGPoint(x: 30, y: 5))
        // Paced: by arc length (total 40).
        a.calculationMode = .paced
        #expect(a._evaluate(at: 0.5, iteration: 0, base: CGPoint.zero) as? CGPoint == CGPoint(x: 20, y: 0))
        #expect(a._evaluate(at: 0.875, iteration: 0, base: CGPoint.zero) as? CGPoint == CGPoint(x: 30, y: 5))
        // Discrete: vertex to vertex.
        a.calculationMode = .discrete
        #expect(a._evaluate(at: 0.5, iteration: 0, base: CGPoint.zero) as? CGPoint == CGPoint(x: 30, y: 0))
        // Rotation follows the tangent.
        a.calculationMode = .paced
        #expect(a._rotationAngle(at: 0.5) == nil)
        a.rotationMode = .rotateAuto
        #expect(abs(a._rotationAngle(at: 0.25)!) < 1e-12 && abs(a._rotationAngle(at: 0.9)! - .pi / 2) < 1e-12)
        a.rotationMode = .rotateAutoReverse
        #expect(abs(a._rotationAngle(at: 0.25)! - .pi) < 1e-12)
        // Curved path, linear mode: Bézier parameter within the segment.
        let c = CGMutablePath(); c.move(to: .zero); c.addQuadCurve(to: CGPoint(x: 10, y: 0), control: CGPoint(x: 5, y: 10))
        let b = CAKeyframeAnimation(keyPath: "position"); b.path = c; b.duration = 2
        #expect(b._evaluate(at: 1, iteration: 0, base: CGPoint.zero) as? CGPoint == CGPoint(x: 5, y: 5))
        // Empty path falls back to values.
        b.path = CGMutablePath(); b.values = [CGPoint(x: 1, y: 1)]
        #expect(b._evaluate(at: 1, iteration: 0, base: CGPoint.zero) as? CGPoint == CGPoint(x: 1, y: 1))
    }

    @Test func additiveAndCumulative() {
        let a = kf(three)
        a.isCumulative = true
        #expect(v(a, 0.25, iteration: 2) == 65)              // 5 + 2 × 30
        a.isCumulative = false; a.isAdditive = true
        #expect(v(a, 0.25, base: CGFloat(100)) == 105)
    }
}
