import Testing
@testable import Flipbook
import Foundation

@Suite struct BasicEvaluateTests {
    func anim(from: Any? = nil, to: Any? = nil, by: Any? = nil, duration: Double = 1) -> CABasicAnimation {
        let a = CABasicAnimation(keyPath: "x")
        a.fromValue = from; a.toValue = to; a.byValue = by; a.duration = duration
        return a
    }
    func value(_ a: CABasicAnimation, _ t: Double, base: Any? = CGFloat(100), iteration: Int = 0) -> CGFloat? {
        a._evaluate(at: t, iteration: iteration, base: base) as? CGFloat
    }

    @Test func sixCombinations() {
        #expect(value(anim(from: CGFloat(0), to: CGFloat(10)), 0.5) == 5)          // from → to
        #expect(value(anim(from: CGFloat(0), by: CGFloat(4)), 0.5) == 2)           // from → from+by
        #expect(value(anim(to: CGFloat(10), by: CGFloat(4)), 0.5) == 8)            // to−by → to
        #expect(value(anim(from: CGFloat(0)), 0.5) == 50)                           // from → base
        #expect(value(anim(to: CGFloat(0)), 0.25) == 75)                            // base → to
        #expect(value(anim(by: CGFloat(20)), 0.5) == 110)                          // base → base+by
        #expect(value(anim(), 0.5) == 100)                                          // base → base
        #expect(anim()._evaluate(at: 0.5, iteration: 0, base: nil) == nil)
        #expect(value(anim(from: CGFloat(0), to: CGFloat(10), by: CGFloat(99)), 1) == 10)   // by ignored
    }

    @Test func timingFunctionAppliedToFraction() {
        let a = anim(from: CGFloat(0), to: CGFloat(100), duration: 2)
        a.timingFunction = CAMediaTimingFunction(name: .easeIn)
        let expected = CAMediaTimingFunction(name: .easeIn)._solve(0.25) * 100
        #expect(abs(value(a, 0.5)! - expected) < 1e-9)
        a.timingFunction = CAMediaTimingFunction(controlPoints: 0.65, -0.55, 0.27, 1.55)
        #expect(value(a, 0.4)! < 0)            // overshoots below the start early on
    }

    @Test func additiveAndCumulative() {
        let add = anim(from: CGFloat(0), to: CGFloat(10))
        add.isAdditive = true
        #expect(value(add, 0.5) == 105)
        let byOnly = anim(by: CGFloat(10)); byOnly.isAdditive = true
        #expect(value(byOnly, 0.5) == 105)     // zero → by, added to base
        let cum = anim(from: CGFloat(0), to: CGFloat(10)); cum.isCumulative = true
        #expect(value(cum, 0.5, iteration: 0) == 5)
        #expect(value(cum, 0.5, iteration: 2) == 25)   // + 2 × end value
        let pt = CABasicAnimation(keyPath: "position")
        pt.fromValue = CGPoint(x: 0, y: 0); pt.toValue = CGPoint(x: 10, y: 20); pt.duration = 1; pt.isAdditive = true
        #expect(pt._evaluate(at: 0.5, iteration: 0, base: CGPoint(x: 1, y: 1)) as? CGPoint == CGPoint(x: 6, y: 11))
    }

    @Test func valueFunctionRotateZ() {
        let a = CABasicAnimation(keyPath: "transform")
        a.valueFunction = CAValueFunction(name: .rotateZ)
        a.fromValue = 0.0; a.toValue = Double.pi; a.duration = 1
        let m = a._evaluate(at: 0.5, iteration: 0, base: CATransform3DIdentity) as! CATransform3D
        let r = CATransform3DMakeRotation(.pi / 2, 0, 0, 1)
        for (x, y) in zip(m.elements, r.elements) { #expect(abs(x - y) < 1e-12) }
        // Cumulative rotation keeps turning: iteration 1 at t = 0.5 is 3π/2.
        a.isCumulative = true
        let m2 = a._evaluate(at: 0.5, iteration: 1, base: CATransform3DIdentity) as! CATransform3D
        #expect(abs(m2.m12 - sin(1.5 * .pi)) < 1e-12)
        // Additive: concatenated with the base (rotation first, then the base's translation).
        a.isCumulative = false; a.isAdditive = true
        let m3 = a._evaluate(at: 0.5, iteration: 0, base: CATransform3DMakeTranslation(7, 0, 0)) as! CATransform3D
        #expect(abs(m3.m41 - 7) < 1e-12 && abs(m3.m12 - 1) < 1e-12)
        // Scale with one value scales uniformly; translate pads with zeros.
        #expect(CAValueFunction(name: .scale)!._transform([2]) == CATransform3DMakeScale(2, 2, 2))
        #expect(CAValueFunction(name: .translate)!._transform([1, 2]) == CATransform3DMakeTranslation(1, 2, 0))
    }

    @Test func colorAndTypeFollowsBase() {
        let a = CABasicAnimation(keyPath: "backgroundColor")
        a.fromValue = CGColor(red: 1, green: 0, blue: 0, alpha: 1); a.toValue = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
        a.duration = 0.25
        let c = a._evaluate(at: 0.125, iteration: 0, base: CGColor.white) as! CGColor
        #expect(c.rgba == [0.5, 0, 0.5, 1])
        let d = anim(from: 0.0, to: 10.0)   // Doubles animating a Float property come back as Float
        #expect(d._evaluate(at: 0.5, iteration: 0, base: Float(0)) as? Float == 5)
        let zero = anim(from: CGFloat(0), to: CGFloat(10), duration: 0)   // 0 → Apple's 0.25 s
        #expect(value(zero, 0.125) == 5)
        let odd = anim(from: "a", to: "b")
        #expect(odd._evaluate(at: 0.6, iteration: 0, base: "z") as? String == "b")
    }
}
