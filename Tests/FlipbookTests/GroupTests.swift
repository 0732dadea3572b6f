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
}
