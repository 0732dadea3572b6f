import Testing
@testable import Flipbook
import Foundation

@Suite struct GroupTests {
    @Test func childrenInGroupTimeClippedToGroupDuration() {
        let short = CABasicAnimation(keyPath: "opacity"); short.duration = 1
        let long = CABasicAnimation(keyPath: "position.x"); long.duration = 4
        long.fromValue = CGFloat(0); long.toValue = CGFloat(400); long.fillMode = .forwards
        let late = CABasicAnimation(keyPath: "bounds"); late.beginTime = 1.5   // duration 0 → group's
        let g = CAAnimationGroup(); g.duration = 2; g.animations = [short, long, late]

        let at05 = g._children(atGroupTime: 0.5)
        #expect(at05.map { $0.animation } == [short, long])          // `late` has not begun
        #expect(at05[1].state.iterationTime == 0.5)

        let at175 = g._children(atGroupTime: 1.75)
        #expect(at175.map { $0.animation } == [long, late])          // `short` ended (fill removed)
        #expect(at175[1].state.iterationTime == 0.25)
        #expect(g._childTiming(late).duration == 2)

        // Past the group's end the group time is clipped: the 4 s child shows its value at 2 s.
        let end = g._children(atGroupTime: 3)
        let v = end[0].animation as! CABasicAnimation
        #expect(v._evaluate(at: end[0].state.iterationTime, iteration: 0, base: CGFloat(0)) as? CGFloat == 200)
    }

    @Test func copyIsDeep() {
        let child = CABasicAnimation(keyPath: "x"); child.duration = 1
        let g = CAAnimationGroup(); g.animations = [child]; g.duration = 3
        let c = g.copy() as! CAAnimationGroup
        #expect(c.duration == 3 && c.animations?.count == 1 && c.animations![0] !== child)
        #expect(CAAnimationGroup()._children(atGroupTime: .nan).isEmpty)
    }

    private func present(_ anims: [CAAnimation], at t: CFTimeInterval) -> CALayer? { presented(anims, at: t) }

    private func slide(_ from: CGFloat = 0, _ to: CGFloat = 100) -> CABasicAnimation {
        let a = CABasicAnimation(keyPath: "position.x")
        a.fromValue = from; a.toValue = to; a.duration = 1
        a.timingFunction = CAMediaTimingFunction(name: .linear)
        return a
    }

    /// Apple: a group is a timing parent — "CAAnimationGroup … the timing function of the group
    /// applies to the group's time space", as for every `CAMediaTiming` object ("Timing
    /// functions… map the local time of the object"). SkeletonView's sliding shimmer is an
    /// `.easeIn` group of linear children and slides eased on iOS.
    @Test func theGroupsTimingFunctionEasesItsChildren() {
        let g = CAAnimationGroup()
        g.animations = [slide()]
        g.duration = 1
        g.timingFunction = CAMediaTimingFunction(name: .easeIn)
        let easeIn = CAMediaTimingFunction(name: .easeIn)._solve(0.5)      // ≈ 0.315
        #expect(abs(easeIn - 0.3153) < 1e-3)
        let x = present([g], at: 0.5)?.position.x ?? -1
        #expect(abs(Double(x) - 100 * easeIn) < 1e-9)                     // not the linear 50
        // The same group with a linear timing function is linear; at the ends the curve is 0 and 1.
        let lin = g.copy() as! CAAnimationGroup
        lin.timingFunction = CAMediaTimingFunction(name: .linear)
        #expect(present([lin], at: 0.5)?.position.x == 50)
        #expect(abs((present([g], at: 0.999)?.position.x ?? -1) - 100) < 1)
        // The child's own curve applies after the group's: easeIn of easeIn.
        let inner = slide(); inner.timingFunction = CAMediaTimingFunction(name: .easeIn)
        let both = CAAnimationGroup(); both.animations = [inner]; both.duration = 1
        both.timingFunction = CAMediaTimingFunction(name: .easeIn)
        let expected = 100 * CAMediaTimingFunction(name: .easeIn)._solve(easeIn)
        #expect(abs(Double(present([both], at: 0.5)?.position.x ?? -1) - expected) < 1e-9)
    }

    /// ProgressHUD's "circle rotate chase": five groups of the same child, each with its own
    /// timing function (control points 0.5, 0.15 + 0.15·i, 0.25, 1), so the dots move apart. At
    /// the same time the five presented values differ; with the old rule they were all equal.
    @Test func groupsWithDifferentCurvesOverTheSameChildDiverge() {
        var xs: [CGFloat] = []
        for i in 0..<5 {
            let g = CAAnimationGroup()
            g.animations = [slide()]
            g.duration = 1
            g.timingFunction = CAMediaTimingFunction(controlPoints: 0.5, 0.15 + 0.15 * Float(i), 0.25, 1)
            xs.append(present([g], at: 0.4)?.position.x ?? -1)
        }
        #expect(Set(xs).count == 5)
        #expect(xs == xs.sorted())          // a higher second control point runs ahead
    }

    /// Nested groups: each level's curve maps the time of the level below.
    @Test func nestedGroupsComposeTheirCurves() {
        let inner = CAAnimationGroup(); inner.animations = [slide()]; inner.duration = 1
        inner.timingFunction = CAMediaTimingFunction(name: .easeOut)
        let outer = CAAnimationGroup(); outer.animations = [inner]; outer.duration = 1
        outer.timingFunction = CAMediaTimingFunction(name: .easeIn)
        let t1 = CAMediaTimingFunction(name: .easeIn)._solve(0.3)
        let t2 = CAMediaTimingFunction(name: .easeOut)._solve(t1)
        #expect(abs(Double(present([outer], at: 0.3)?.position.x ?? -1) - 100 * t2) < 1e-9)
    }
}
