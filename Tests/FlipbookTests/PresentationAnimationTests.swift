import Testing
@testable import Flipbook
import Foundation

/// Every animation class and calculation mode, evaluated through `presentation()` on a live
/// layer at chosen media times (animations are linear unless stated; committed at t = 0).
@Suite struct PresentationAnimationTests {
    /// A live layer at position (100, 100), bounds (10, 10, 20, 20), with `anims` committed at 0,
    /// presented at `t`.
    func present(_ anims: [CAAnimation], at t: CFTimeInterval, _ check: (CALayer, CALayer) -> Void) {
        withRunLoop { loop in
            let l = liveLayer(loop)
            CATransaction.setDisableActions(true)
            l.position = CGPoint(x: 100, y: 100)
            l.bounds = CGRect(x: 10, y: 10, width: 20, height: 20)
            loop.endTurn()
            for (i, a) in anims.enumerated() {
                if a.timingFunction == nil { a.timingFunction = CAMediaTimingFunction(name: .linear) }
                l.add(a, forKey: "k\(i)")
            }
            loop.advance(to: t)
            guard let p = l.presentation() else { Issue.record("no presentation"); return }
            check(l, p)
        }
    }

    func basic(_ keyPath: String, from: Any? = nil, to: Any? = nil, by: Any? = nil, _ d: CFTimeInterval = 1) -> CABasicAnimation {
        let a = CABasicAnimation(keyPath: keyPath)
        a.fromValue = from; a.toValue = to; a.byValue = by; a.duration = d
        return a
    }

    @Test func structKeyPathsWriteBackIntoTheModelValue() {
        present([basic("position.x", from: CGFloat(0), to: CGFloat(50))], at: 0.5) { model, p in
            #expect(p.position == CGPoint(x: 25, y: 100))
            #expect(model.position == CGPoint(x: 100, y: 100))
        }
        present([basic("bounds.size", from: CGSize.zero, to: CGSize(width: 100, height: 50))], at: 0.5) { _, p in
            #expect(p.bounds == CGRect(x: 10, y: 10, width: 50, height: 25))
        }
    }

    @Test func animationsOnOneKeyComposeInOrderAndAdditiveAdds() {
        let additive = basic("position.x", by: CGFloat(10))
        additive.isAdditive = true
        present([basic("position.x", from: CGFloat(0), to: CGFloat(50)), additive], at: 0.5) { _, p in
            #expect(p.position.x == 30)                     // 25, then + 5
        }
        // Reversed order: the non-additive one replaces what the additive one made.
        let additive2 = basic("position.x", by: CGFloat(10))
        additive2.isAdditive = true
        present([additive2, basic("position.x", from: CGFloat(0), to: CGFloat(50))], at: 0.5) { _, p in
            #expect(p.position.x == 25)
        }
        // Additive on its own adds to the model value.
        let alone = basic("position", from: CGPoint.zero, to: CGPoint(x: 20, y: -40))
        alone.isAdditive = true
        present([alone], at: 0.25) { _, p in #expect(p.position == CGPoint(x: 105, y: 90)) }
    }

    @Test func transformKeyPathsAndValueFunction() {
        present([basic("transform.rotation.z", from: CGFloat(0), to: CGFloat.pi / 2)], at: 0.5) { _, p in
            #expect(near(Double(p.transform.m11), cos(.pi / 4), 1e-9) && near(Double(p.transform.m12), sin(.pi / 4), 1e-9))
            #expect(near(Double(p.value(forKeyPath: "transform.rotation.z") as? CGFloat ?? 0), .pi / 4, 1e-9))
        }
        present([basic("transform.scale", from: CGFloat(1), to: CGFloat(3))], at: 0.5) { _, p in
            #expect(near(Double(p.transform.m11), 2, 1e-9) && near(Double(p.transform.m22), 2, 1e-9) && near(Double(p.transform.m33), 2, 1e-9))
        }
        let vf = basic("transform", from: CGFloat(0), to: CGFloat.pi)
        vf.valueFunction = CAValueFunction(name: .rotateZ)
        present([vf], at: 0.5) { _, p in
            #expect(near(Double(p.transform.m11), 0, 1e-9) && near(Double(p.transform.m12), 1, 1e-9))
        }
        // A whole-transform animation rotates (decomposed), not an element-wise blend.
        present([basic("transform", from: CATransform3DIdentity, to: CATransform3DMakeRotation(.pi / 2, 0, 0, 1))], at: 0.5) { _, p in
            #expect(near(Double(p.transform.m11), cos(.pi / 4), 1e-9) && near(Double(p.transform.m12), sin(.pi / 4), 1e-9))
        }
    }

    func keyframes(_ mode: CAAnimationCalculationMode, _ values: [CGFloat], keyTimes: [Double]? = nil) -> CAKeyframeAnimation {
        let k = CAKeyframeAnimation(keyPath: "position.x")
        k.values = values; k.calculationMode = mode; k.duration = 1
        k.keyTimes = keyTimes?.map { NSNumber(value: $0) }
        return k
    }

    @Test func everyCalculationMode() {
        present([keyframes(.linear, [0, 80, 100], keyTimes: [0, 0.8, 1])], at: 0.4) { _, p in #expect(near(Double(p.position.x), 40, 1e-9)) }
        present([keyframes(.linear, [0, 80, 100], keyTimes: [0, 0.8, 1])], at: 0.9) { _, p in #expect(near(Double(p.position.x), 90, 1e-9)) }
        present([keyframes(.discrete, [0, 10, 40])], at: 0.5) { _, p in #expect(p.position.x == 10) }
        present([keyframes(.discrete, [0, 10, 40])], at: 0.7) { _, p in #expect(p.position.x == 40) }
        // Paced: distances 10 and 30 → key times 0, ¼, 1: constant speed, 40 × p.
        present([keyframes(.paced, [0, 10, 40])], at: 0.125) { _, p in #expect(near(Double(p.position.x), 5, 1e-9)) }
        present([keyframes(.paced, [0, 10, 40])], at: 0.5) { _, p in #expect(near(Double(p.position.x), 20, 1e-9)) }
        // Cubic (Catmull–Rom): segment 1 at u = 0.2: h = (0.896, 0.128, 0.104, −0.032),
        // tangents 15 and 15 → 8.96 + 1.92 + 3.12 − 0.48 = 13.52 (linear would give 14).
        present([keyframes(.cubic, [0, 10, 30, 40])], at: 0.4) { _, p in #expect(near(Double(p.position.x), 13.52, 1e-9)) }
        // Cubic paced: constant-speed key times (distances 10, 20, 10 → 0, ¼, ¾, 1), same spline:
        // at p = 0.5 segment 1, u = ½: 0.5·10 + 0.125·15 + 0.5·30 − 0.125·15 = 20.
        present([keyframes(.cubicPaced, [0, 10, 30, 40])], at: 0.5) { _, p in #expect(near(Double(p.position.x), 20, 1e-9)) }
    }

    @Test func keyframePathWithRotationMode() {
        for (mode, sign) in [(CAAnimationRotationMode.rotateAuto, 1.0), (.rotateAutoReverse, -1.0)] {
            let path = CGMutablePath()
            path.move(to: .zero); path.addLine(to: CGPoint(x: 100, y: 100))
            let k = CAKeyframeAnimation(keyPath: "position")
            k.path = path; k.rotationMode = mode; k.duration = 1
            present([k], at: 0.5) { _, p in
                #expect(near(Double(p.position.x), 50, 1e-9) && near(Double(p.position.y), 50, 1e-9))
                #expect(near(Double(p.transform.m11), sign * cos(.pi / 4), 1e-9))
                #expect(near(Double(p.transform.m12), sign * sin(.pi / 4), 1e-9))
            }
        }
    }

    @Test func springAgainstTheClosedForm() {
        // m = 1, k = 100, c = 10: ζ = ½, ω₀ = 10, ω_d = 10·√¾.
        // x(0.3) = e^(−1.5)(cos(0.3ω_d) + 5/ω_d · sin(0.3ω_d)); value = 100(1 − x) = 112.4354767…
        let s = CASpringAnimation(keyPath: "position.x")
        s.fromValue = CGFloat(0); s.toValue = CGFloat(100)
        s.mass = 1; s.stiffness = 100; s.damping = 10
        s.duration = s.settlingDuration
        let wd = 10 * 0.75.squareRoot()
        let x = exp(-1.5) * (cos(0.3 * wd) + 5 / wd * sin(0.3 * wd))
        present([s], at: 0.3) { _, p in
            #expect(near(Double(p.position.x), 100 * (1 - x), 1e-9))
            #expect(near(Double(p.position.x), 112.43547674, 1e-6))
        }
    }

    @Test func groupClipsALongerChild() {
        func group(fill: Bool) -> CAAnimationGroup {
            let g = CAAnimationGroup()
            let child = CABasicAnimation(keyPath: "opacity")
            child.fromValue = Float(0); child.toValue = Float(1); child.duration = 2
            g.animations = [child]
            g.duration = 1
            if fill { g.fillMode = .forwards; g.isRemovedOnCompletion = false }
            return g
        }
        present([group(fill: false)], at: 0.5) { _, p in #expect(near(Double(p.opacity), 0.25)) }
        present([group(fill: false)], at: 1.5) { _, p in #expect(p.opacity == 1) }     // removed
        // Filled: the child holds what it had at the group's end (0.5), never reaching 1.
        present([group(fill: true)], at: 3) { _, p in #expect(near(Double(p.opacity), 0.5)) }
    }

    @Test func cumulativeRepeatAccumulates() {
        let a = basic("position.x", from: CGFloat(0), to: CGFloat(10))
        a.isCumulative = true; a.repeatCount = 3
        present([a], at: 0.5) { _, p in #expect(near(Double(p.position.x), 5, 1e-9)) }
        present([a], at: 1.5) { _, p in #expect(near(Double(p.position.x), 15, 1e-9)) }
        present([a], at: 2.5) { _, p in #expect(near(Double(p.position.x), 25, 1e-9)) }
    }

    @Test func contentsCrossFade() {
        let a = image(2, 2), b = image(3, 3)
        let anim = basic("contents", from: a, to: b)
        present([anim], at: 0.25) { model, p in
            #expect(p.contents as? CGImage === a)
            #expect(p._contentsCrossfade == ContentsCrossfade(from: a, to: b, fraction: 0.25))
            let r = model.makeRenderTree()
            #expect(r.contentsCrossfade?.from === a && r.contentsCrossfade?.to === b)
            #expect(r.contentsCrossfade?.fraction == 0.25)
        }
        present([anim], at: 0.75) { model, p in
            #expect(p.contents as? CGImage === b)
            #expect(model.makeRenderTree().contentsCrossfade?.fraction == 0.75)
        }
    }

    @Test func keyframesOnColorsAndPresentationOfACustomKey() {
        let k = CAKeyframeAnimation(keyPath: "backgroundColor")
        k.values = [CGColor(red: 1, green: 0, blue: 0, alpha: 1), CGColor(red: 0, green: 0, blue: 1, alpha: 1)]
        k.duration = 1
        let custom = basic("wobble", from: CGFloat(0), to: CGFloat(8))
        present([k, custom], at: 0.25) { _, p in
            #expect(p.backgroundColor == CGColor(red: 0.75, green: 0, blue: 0.25, alpha: 1))
            #expect(p.value(forKey: "wobble") as? CGFloat == 2)
        }
    }

    @Test func shadowPathIsTypedAndReachesTheSnapshot() {
        withRunLoop { loop in
            let l = liveLayer(loop)
            let path = CGPath(rect: CGRect(x: 0, y: 0, width: 4, height: 2))
            l.shadowPath = path
            #expect(l.shadowPath === path && l.value(forKey: "shadowPath") as? CGPath === path)
            #expect(l.animation(forKey: "shadowPath") != nil)      // implicit action, as on Apple
            loop.advance(to: 1)
            #expect(l.makeRenderTree().shadowPath == path)
            CATransaction.setDisableActions(true)
            l.shadowPath = nil
            #expect(l.makeRenderTree().shadowPath == nil)
        }
    }

    @Test func snapshotCopiesAMutableShadowPath() {
        withRunLoop { loop in
            let l = liveLayer(loop)
            CATransaction.setDisableActions(true)
            let path = CGMutablePath()
            path.addRect(CGRect(x: 0, y: 0, width: 4, height: 2))
            l.shadowPath = path
            #expect(l.shadowPath === path)                          // the model keeps the object
            let snapshot = l.makeRenderTree().shadowPath
            #expect(snapshot != nil && !(snapshot is CGMutablePath) && snapshot == path)
            path.addRect(CGRect(x: 10, y: 10, width: 1, height: 1))
            #expect(snapshot?.elements.count == 5)                  // unchanged by the later edit
            #expect(l.makeRenderTree().shadowPath?.elements.count == 10)
        }
    }
}
