import Testing
@testable import Flipbook
import Foundation

/// The keyframe animation's cache of boxed values and key times
/// (`CAKeyframeAnimation+Cache.swift`) must never show a stale value: every way of changing
/// `values`, `keyTimes` or `calculationMode` after an evaluation is seen by the next one.
@Suite struct KeyframeCacheTests {
    func kf(_ values: [Any]?) -> CAKeyframeAnimation {
        let a = CAKeyframeAnimation(keyPath: "x")
        a.values = values; a.duration = 1
        return a
    }
    func v(_ a: CAKeyframeAnimation, _ t: Double) -> CGFloat? {
        a._evaluate(at: t, iteration: 0, base: CGFloat(-1)) as? CGFloat
    }

    @Test func settingValuesAgainIsSeen() {
        let a = kf([CGFloat(0), CGFloat(10)])
        #expect(v(a, 0.5) == 5)
        a.values = [CGFloat(0), CGFloat(20)]
        #expect(v(a, 0.5) == 10)
        a.values = nil
        #expect(a._evaluate(at: 0.5, iteration: 0, base: CGFloat(7)) == nil)
        a.values = [CGFloat(4)]
        #expect(v(a, 0.5) == 4)
    }

    @Test func changingOneElementInPlaceIsSeen() {
        let a = kf([CGFloat(0), CGFloat(10)])
        #expect(v(a, 0.5) == 5)
        a.values![1] = CGFloat(30)
        #expect(v(a, 0.5) == 15)
        a.values!.append(CGFloat(0))
        #expect(v(a, 0.5) == 30)
    }

    @Test func keyTimesAndModeChangesAreSeen() {
        let a = kf([CGFloat(0), CGFloat(10), CGFloat(30)])
        #expect(v(a, 0.25) == 5)
        a.keyTimes = [0, 0.25, 1]
        #expect(v(a, 0.25) == 10)
        a.keyTimes![1] = 0.5
        #expect(v(a, 0.25) == 5)
        a.calculationMode = .discrete
        #expect(v(a, 0.25) == 0 && v(a, 0.75) == 10)
        a.keyTimes = nil
        #expect(v(a, 0.4) == 10)   // discrete, even: 0, 1/3, 2/3
    }

    @Test func aMutablePathValueIsReadAsItIsNow() {
        let p = CGMutablePath()
        p.move(to: .zero); p.addLine(to: CGPoint(x: 10, y: 0))
        let a = CAKeyframeAnimation(keyPath: "path")
        a.values = [p, p]; a.duration = 1
        let before = a._evaluate(at: 0.5, iteration: 0, base: nil) as? CGPath
        #expect(before?.currentPoint == CGPoint(x: 10, y: 0))
        p.addLine(to: CGPoint(x: 10, y: 10))
        let after = a._evaluate(at: 0.5, iteration: 0, base: nil) as? CGPath
        #expect(after?.currentPoint == CGPoint(x: 10, y: 10))
    }

    @Test func aCopyEvaluatesItsOwnValues() {
        let a = kf([CGFloat(0), CGFloat(10)])
        #expect(v(a, 0.5) == 5)
        let b = a.copy() as! CAKeyframeAnimation
        b.values = [CGFloat(0), CGFloat(40)]
        #expect(v(a, 0.5) == 5 && v(b, 0.5) == 20)
    }
}
