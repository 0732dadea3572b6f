import Testing
@testable import Flipbook

@Suite struct TimingModelTests {
    func near(_ a: Double, _ b: Double, _ e: Double = 1e-9) -> Bool { abs(a - b) <= e }

    @Test func localTimeFormula() {
        let m = _TimingModel(beginTime: 2, duration: 1, speed: 2, timeOffset: 0.25)
        #expect(m.localTime(fromParent: 3) == 2.25)            // (3 − 2)·2 + 0.25
        #expect(m.parentTime(fromLocal: 2.25) == 3)
        let s = m.evaluate(parentTime: 2.25)                   // local 0.75
        #expect(s.phase == .active && near(s.iterationTime, 0.75) && s.iteration == 0)
    }

    @Test func fillModes() {
        for (mode, before, after) in [(CAMediaTimingFillMode.removed, false, false), (.forwards, false, true),
                                      (.backwards, true, false), (.both, true, true)] {
            let m = _TimingModel(beginTime: 1, duration: 2, fillMode: mode)
            let b = m.evaluate(parentTime: 0.5), a = m.evaluate(parentTime: 4)
            #expect(b.phase == .before && b.hasValue == before && b.iterationTime == 0)
            #expect(a.phase == .after && a.hasValue == after && a.iterationTime == 2 && a.fraction == 1)
            #expect(a.isRemoved == !after)
        }
        // Exactly at the end: after, at the end value.
        let e = _TimingModel(duration: 2).evaluate(parentTime: 2)
        #expect(e.phase == .after && e.iterationTime == 2)
    }

    @Test func fractionalAndInfiniteRepeat() {
        let m = _TimingModel(duration: 1, repeatCount: 2.5, fillMode: .forwards)
        #expect(m.activeDuration == 2.5)
        let s = m.evaluate(parentTime: 1.25)
        #expect(s.iteration == 1 && near(s.iterationTime, 0.25))
        let end = m.evaluate(parentTime: 10)
        #expect(end.phase == .after && end.iteration == 2 && near(end.iterationTime, 0.5))
        let two = _TimingModel(duration: 1, repeatCount: 2).evaluate(parentTime: 2)
        #expect(two.iteration == 1 && two.iterationTime == 1)   // ends on the last iteration's end
        let inf = _TimingModel(duration: 0.5, repeatCount: .infinity)
        let far = inf.evaluate(parentTime: 1000.2)
        #expect(far.phase == .active && far.iteration == 2000 && near(far.iterationTime, 0.2, 1e-6))
        // repeatCount 0 = one iteration.
        #expect(_TimingModel(duration: 1).activeDuration == 1)
    }

    @Test func repeatDuration() {
        let m = _TimingModel(duration: 1, repeatDuration: 1.75, fillMode: .forwards)
        #expect(m.evaluate(parentTime: 1.5).iteration == 1)
        let end = m.evaluate(parentTime: 3)
        #expect(end.phase == .after && end.iteration == 1 && near(end.iterationTime, 0.75))
    }

    @Test func autoreverses() {
        let m = _TimingModel(duration: 1, repeatCount: 2, autoreverses: true, fillMode: .forwards)
        #expect(m.activeDuration == 4)
        let fwd = m.evaluate(parentTime: 0.25)
        #expect(!fwd.isReversed && near(fwd.iterationTime, 0.25))
        let back = m.evaluate(parentTime: 1.25)     // mirrored: 2 − 1.25
        #expect(back.isReversed && near(back.iterationTime, 0.75) && back.iteration == 0)
        let second = m.evaluate(parentTime: 2.5)
        #expect(second.iteration == 1 && !second.isReversed && near(second.iterationTime, 0.5))
        let end = m.evaluate(parentTime: 5)         // ends back at the start
        #expect(end.phase == .after && end.iteration == 1 && end.iterationTime == 0 && end.isReversed)
    }

    @Test func speedZeroFreezesAtTimeOffset() {
        let m = _TimingModel(beginTime: 5, duration: 2, speed: 0, timeOffset: 0.5)
        for p in [0.0, 5, 100] {
            let s = m.evaluate(parentTime: p)
            #expect(s.phase == .active && s.iterationTime == 0.5)
        }
        #expect(m.parentTime(fromLocal: 1) == 5)
    }

    @Test func negativeSpeedPlaysBackwards() {
        // Local time runs from 2 down to 0 over parent time [1, 2].
        let m = _TimingModel(beginTime: 1, duration: 2, speed: -2, timeOffset: 2, fillMode: .both)
        #expect(near(m.evaluate(parentTime: 1.25).iterationTime, 1.5))
        let early = m.evaluate(parentTime: 0.5)     // local 3: past the end
        #expect(early.phase == .after && early.iterationTime == 2)
        let late = m.evaluate(parentTime: 3)        // local −2: before (filled backwards)
        #expect(late.phase == .before && late.hasValue && late.iterationTime == 0)
    }

    @Test func zeroDurationAndNaN() {
        let z = _TimingModel(duration: 0, fillMode: .forwards)
        #expect(z.evaluate(parentTime: 1).phase == .after && z.evaluate(parentTime: 1).fraction == 1)
        #expect(z.evaluate(parentTime: -1).phase == .before)
        let n = _TimingModel(duration: 1).evaluate(parentTime: .nan)
        #expect(n.phase == .active && n.iterationTime == 0)
        #expect(_TimingModel(duration: .nan).activeDuration == 0)
    }

    @Test func layerChainSpeedInheritance() {
        let root = _TimingModel(speed: 2)
        let child = _TimingModel(beginTime: 1, speed: 3, timeOffset: 0.5)
        let chain = [root, child]
        // media 2 → root 4 → child (4 − 1)·3 + 0.5 = 9.5
        #expect(_TimingModel._localTime(fromMediaTime: 2, chain: chain) == 9.5)
        #expect(_TimingModel._mediaTime(fromLocalTime: 9.5, chain: chain) == 2)
        #expect(_TimingModel._effectiveSpeed(chain: chain) == 6)
        // An animation under that layer: begins at child time 9.5, 3 s long → at media 2.25 it is
        // 1.5 s in (0.25 media s × 6).
        let anim = _TimingModel(beginTime: 9.5, duration: 3)
        let s = anim.evaluate(parentTime: _TimingModel._localTime(fromMediaTime: 2.25, chain: chain))
        #expect(near(s.iterationTime, 1.5))
        // convertTime between siblings and to / from media time (empty chain).
        let other = [root, _TimingModel(beginTime: 0, speed: 0.5)]
        #expect(_TimingModel._convertTime(9.5, from: chain, to: other) == 2)   // media 2 → root 4 → 2
        #expect(_TimingModel._convertTime(9.5, from: chain, to: []) == 2)
        #expect(_TimingModel._convertTime(2, from: [], to: chain) == 9.5)
    }

    @Test func scrubbingWithFrozenRoot() {
        // A root with speed 0 and timeOffset T shows its subtree at time T whatever the media time.
        let root = _TimingModel(speed: 0, timeOffset: 0.75)
        let anim = _TimingModel(beginTime: 0.5, duration: 1)
        for media in [0.0, 3, 99] {
            let t = _TimingModel._localTime(fromMediaTime: media, chain: [root])
            #expect(anim.evaluate(parentTime: t).iterationTime == 0.25)
        }
    }
}
