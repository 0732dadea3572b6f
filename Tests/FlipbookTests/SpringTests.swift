import Testing
@testable import Flipbook
import Foundation

@Suite struct SpringTests {
    @Test func appleDefaults() {
        let s = CASpringAnimation(keyPath: "position.x")
        #expect(s.mass == 1 && s.stiffness == 100 && s.damping == 10 && s.initialVelocity == 0)
        #expect(s._dampingRatio == 0.5 && s._omega0 == 10)
    }

    @Test func underDampedClosedForm() {
        let s = CASpringAnimation()   // ζ = 0.5, ω₀ = 10
        let wd = 10 * (0.75).squareRoot()
        for t in [0.05, 0.2, 0.37, 1.0] {
            let x = exp(-5 * t) * (cos(wd * t) + 5 / wd * sin(wd * t))
            #expect(abs(s._displacement(at: t) - x) < 1e-12)
        }
        s.fromValue = CGFloat(0); s.toValue = CGFloat(100); s.duration = 2
        let v = s._evaluate(at: 0.37, iteration: 0, base: CGFloat(0)) as! CGFloat
        #expect(abs(v - 100 * (1 - s._displacement(at: 0.37))) < 1e-9)
        #expect(v > 100)                                     // overshoots
        s.timingFunction = CAMediaTimingFunction(name: .easeIn)   // ignored by springs
        #expect(s._evaluate(at: 0.37, iteration: 0, base: CGFloat(0)) as! CGFloat == v)
    }

    @Test func criticalAndOverDamped() {
        let c = CASpringAnimation(); c.damping = 20          // ζ = 1
        c.initialVelocity = 3
        #expect(abs(c._displacement(at: 0.3) - exp(-3) * (1 + 7 * 0.3)) < 1e-12)
        let o = CASpringAnimation(); o.damping = 50          // ζ = 2.5
        // By default (Apple's `allowsOverdamping == false`) it moves as the critical spring…
        #expect(abs(o._displacement(at: 0.4) - exp(-4) * (1 + 10 * 0.4)) < 1e-12)
        // …and simulates ζ = 2.5 when overdamping is allowed.
        o.allowsOverdamping = true
        #expect((o.copy() as! CASpringAnimation).allowsOverdamping)
        #expect(CASpringAnimation(perceptualDuration: 0.5, bounce: -0.3).allowsOverdamping)
        #expect(!CASpringAnimation(perceptualDuration: 0.5, bounce: 0.3).allowsOverdamping)
        let r1 = -10 * (2.5 - (5.25).squareRoot()), r2 = -10 * (2.5 + (5.25).squareRoot())
        let c2 = -r1 / (r2 - r1), c1 = 1 - c2
        #expect(abs(o._displacement(at: 0.4) - (c1 * exp(r1 * 0.4) + c2 * exp(r2 * 0.4))) < 1e-12)
        #expect(abs(o._displacement(at: 0) - 1) < 1e-12)
        // The over-damped spring never crosses the target.
        for i in 1...100 { #expect(o._displacement(at: Double(i) / 20) > 0) }
    }

    @Test func settlingDuration() {
        let s = CASpringAnimation()
        // Under-damped: envelope √(1 + B²)·e^(−5t) = 0.001 with B = 5/ω_d.
        let b = 5 / (10 * (0.75).squareRoot())
        let expected = log((1 + b * b).squareRoot() / 0.001) / 5
        #expect(abs(s.settlingDuration - expected) < 1e-12)
        for t in stride(from: expected, through: expected + 3, by: 0.01) { #expect(abs(s._displacement(at: t)) <= 0.001) }
        let c = CASpringAnimation(); c.damping = 20
        let tc = c.settlingDuration
        #expect(abs(c._displacement(at: tc) - 0.001) < 1e-9)   // critical: monotone, so exactly at ε
        let undamped = CASpringAnimation(); undamped.damping = 0
        #expect(undamped.settlingDuration == .infinity)
        let bad = CASpringAnimation(); bad.mass = 0
        #expect(bad.settlingDuration == 0 && bad._displacement(at: 0.1) == 0)
    }

    @Test func perceptualInit() {
        let s = CASpringAnimation(perceptualDuration: 0.5, bounce: 0.3)
        #expect(s.mass == 1)
        #expect(abs(s.stiffness - pow(2 * .pi / 0.5, 2)) < 1e-9)   // ≈ 157.91
        #expect(abs(s._dampingRatio - 0.7) < 1e-12)
        #expect(s.duration == s.settlingDuration && s.perceptualDuration == 0.5 && s.bounce == 0.3)
        let over = CASpringAnimation(perceptualDuration: 1, bounce: -0.5)
        #expect(abs(over._dampingRatio - 2) < 1e-12)
        let critical = CASpringAnimation(perceptualDuration: 1, bounce: 0)
        #expect(abs(critical._dampingRatio - 1) < 1e-12)
        let copy = s.copy() as! CASpringAnimation
        #expect(copy.stiffness == s.stiffness && copy.bounce == 0.3)
    }
}
