import Testing
@testable import Flipbook

@Suite struct TimingFunctionTests {
    /// Independent reference: bisection on the parametric form B(s) in plain Double, 200 steps.
    static func reference(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, _ x: Double) -> Double {
        func b(_ p1: Double, _ p2: Double, _ s: Double) -> Double {
            let u = 1 - s
            return 3 * u * u * s * p1 + 3 * u * s * s * p2 + s * s * s
        }
        var lo = 0.0, hi = 1.0
        for _ in 0..<200 {
            let mid = (lo + hi) / 2
            if b(x1, x2, mid) < x { lo = mid } else { hi = mid }
        }
        return b(y1, y2, (lo + hi) / 2)
    }

    @Test func namedControlPoints() {
        func cp(_ n: CAMediaTimingFunctionName) -> [Float] {
            let f = CAMediaTimingFunction(name: n)
            var v: [Float] = [0, 0]
            var out: [Float] = []
            for i in 1...2 { f.getControlPoint(at: i, values: &v); out += v }
            return out
        }
        #expect(cp(.linear) == [0, 0, 1, 1])
        #expect(cp(.easeIn) == [0.42, 0, 1, 1])
        #expect(cp(.easeOut) == [0, 0, 0.58, 1])
        #expect(cp(.easeInEaseOut) == [0.42, 0, 0.58, 1])
        #expect(cp(.default) == [0.25, 0.1, 0.25, 1])
    }

    /// Chromium's ui/gfx/geometry/cubic_bezier_unittest.cc table for (0.25, 0, 0.75, 1), ±1.5e-4.
    @Test func chromiumTable() {
        let f = CAMediaTimingFunction(controlPoints: 0.25, 0, 0.75, 1)
        let table: [(Double, Double)] = [
            (0, 0), (0.05, 0.01136), (0.1, 0.03978), (0.15, 0.079780), (0.2, 0.12803), (0.25, 0.18235),
            (0.3, 0.24115), (0.35, 0.30323), (0.4, 0.36761), (0.45, 0.43345), (0.5, 0.5), (0.6, 0.63238),
            (0.65, 0.69676), (0.7, 0.75884), (0.75, 0.81764), (0.8, 0.87196), (0.85, 0.92021),
            (0.9, 0.96021), (0.95, 0.98863), (1, 1)]
        for (x, y) in table { #expect(abs(f._solve(x) - y) <= 1.5e-4, "x = \(x)") }
    }

    @Test(arguments: [(0.25, 0.1, 0.25, 1.0), (0.42, 0, 0.58, 1), (0.65, -0.55, 0.27, 1.55), (0, 0, 1, 0.5), (0.8, 0, 0.2, 1)])
    func matchesBisectionReferenceTo1e6(_ c: (Double, Double, Double, Double)) {
        let f = CAMediaTimingFunction(controlPoints: Float(c.0), Float(c.1), Float(c.2), Float(c.3))
        // The reference uses the Float-rounded control points the function stores.
        let (x1, y1, x2, y2) = (Double(f.c1x), Double(f.c1y), Double(f.c2x), Double(f.c2y))
        for i in 0...100 {
            let x = Double(i) / 100
            #expect(abs(f._solve(x) - Self.reference(x1, y1, x2, y2, x)) < 1e-6, "x = \(x)")
        }
    }

    @Test func overshootLeavesUnitInterval() {
        let f = CAMediaTimingFunction(controlPoints: 0.65, -0.55, 0.27, 1.55)
        let ys = (0...200).map { f._solve(Double($0) / 200) }
        #expect(ys.min()! < -0.05)
        #expect(ys.max()! > 1.05)
        #expect(f._solve(0) == 0 && f._solve(1) == 1)
    }

    @Test func extrapolatesAlongEndTangents() {
        let ease = CAMediaTimingFunction(name: .default)   // start slope 0.1/0.25 = 0.4; end slope 0
        #expect(abs(ease._solve(-0.5) - (-0.2)) < 1e-7)   // Float control points
        #expect(ease._solve(1.5) == 1)
        let f = CAMediaTimingFunction(controlPoints: 0.65, -0.55, 0.27, 1.55)
        #expect(abs(f._solve(-1) - (0.55 / 0.65)) < 1e-6)          // −1 × (−0.55/0.65)
        #expect(abs(f._solve(2) - (1 + (0.55 / -0.73))) < 1e-6)    // 1 + 1 × (0.55/−0.73)
        let easeIn = CAMediaTimingFunction(name: .easeIn)          // x2 = 1: uses (y1−1)/(x1−1)
        #expect(abs(easeIn._solve(2) - (1 + 1 / 0.58)) < 1e-6)
        let easeOut = CAMediaTimingFunction(name: .easeOut)        // x1 = 0: uses y2/x2
        #expect(abs(easeOut._solve(-1) - (-1 / 0.58)) < 1e-6)
        #expect(CAMediaTimingFunction(name: .linear)._solve(-2) == -2)
        #expect(ease._solve(.nan) == 0)
    }

    @Test func linearIsIdentityAndMonotoneCurvesAreMonotone() {
        let lin = CAMediaTimingFunction(name: .linear)
        for i in 0...10 { #expect(lin._solve(Double(i) / 10) == Double(i) / 10) }
        let f = CAMediaTimingFunction(name: .easeInEaseOut)
        var last = -1.0
        for i in 0...1000 { let y = f._solve(Double(i) / 1000); #expect(y >= last); last = y }
        #expect(abs(f._solve(0.5) - 0.5) < 1e-7)   // symmetric curve (up to Float control points)
        #expect(f._value(atTime: 0.5) == 0.5)
    }
}

extension TimingFunctionTests {
    /// (1, 0, 0, 1) has a vertical tangent at x = 0.5 (x − ½ ∝ (s − ½)³), where y is
    /// ill-conditioned for any double solver; the bisection fallback must still land on ½.
    @Test func verticalTangentIsHandled() {
        let f = CAMediaTimingFunction(controlPoints: 1, 0, 0, 1)
        #expect(abs(f._solve(0.5) - 0.5) < 1e-9)
        #expect(abs(f._solve(0.25) - Self.reference(1, 0, 0, 1, 0.25)) < 1e-6)
    }
}
