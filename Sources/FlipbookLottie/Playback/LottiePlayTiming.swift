import Foundation
import Flipbook

/// The timing of what a ``LottieAnimationLayer`` shows — paused on a frame, or playing a range
/// — as the one `CAAnimationGroup` each animated layer of its tree gets.
///
/// Every animation the mapping builds spans the **root timeline**: the composition's frames
/// `start ..< end` (`ip`, `op`) over `(end − start) / fps` seconds (``LottieClock``). A group
/// wraps one layer's animations and carries the play:
///
/// - **Playing** `from → to` at speed `s`: the group's `duration` is `|to − from| / fps`, its
///   `speed` `s`, `repeatCount` / `autoreverses` from the loop mode, `timeOffset` the time into
///   the first iteration it starts at, `beginTime` the layer time the play starts, `fillMode`
///   `.both` and kept on completion (the last frame stays). Inside it every animation is shifted
///   so that group time 0 is frame `from`: forwards (`from < to`) with `beginTime =
///   −(from − start) / fps`; backwards with `speed = −1` and `timeOffset = (from − start) /
///   fps`, so the children's time runs from `from` down to `to` while the group's runs up. The
///   children fill both ways (a range may end on the timeline's last frame).
/// - **Paused** on frame `f`: `speed = 0` and `timeOffset = (f − start) / fps` over the whole
///   timeline: frozen there, whatever the time.
///
/// A frame of a play at layer time `t` is the group's iteration time mapped back
/// (``frame(atLayerTime:)``), from Flipbook's own timing model, so what the layer reports and
/// what it draws agree.
package struct LottiePlayTiming: Equatable {
    /// Root frames per second, and the root timeline's first frame and the frame after its last.
    package var fps: Double
    package var start: Double
    package var end: Double
    package var mode: Mode

    package enum Mode: Equatable {
        case paused(frame: Double)
        /// `timeOffset`: seconds (of group time) into the first iteration; `beginTime`: the
        /// layer time the play starts.
        case playing(from: Double, to: Double, speed: Double, repeatCount: Float, autoreverses: Bool,
                     timeOffset: Double, beginTime: Double)
    }

    package init(fps: Double, start: Double, end: Double, mode: Mode) {
        self.fps = fps > 0 && fps.isFinite ? fps : 30
        self.start = start; self.end = max(end, start); self.mode = mode
    }

    /// The timeline's length in seconds (one frame at least, so a one-frame composition still
    /// has a timeline).
    package var duration: Double { max(end - start, 1) / fps }

    /// The group timing (no children) of the current mode.
    package func makeGroup() -> CAAnimationGroup {
        let g = CAAnimationGroup()
        g.fillMode = .both
        g.isRemovedOnCompletion = false
        switch mode {
        case let .paused(f):
            g.speed = 0
            g.duration = duration
            g.timeOffset = (min(max(f, start), end) - start) / fps
        case let .playing(from, to, speed, repeatCount, autoreverses, timeOffset, beginTime):
            g.duration = max(abs(to - from) / fps, 1e-9)
            g.speed = Float(speed)
            g.repeatCount = repeatCount
            g.autoreverses = autoreverses
            g.timeOffset = timeOffset
            g.beginTime = beginTime
        }
        return g
    }

    /// The group of `animations` (each copied and shifted as the type's notes say).
    package func group(of animations: [CAAnimation]) -> CAAnimationGroup {
        let g = makeGroup()
        g.animations = animations.map { a in
            let c = a.copy() as! CAAnimation
            c.fillMode = .both
            c.beginTime = 0
            c.speed = 1
            c.timeOffset = 0
            if case let .playing(from, to, _, _, _, _, _) = mode {
                if from <= to {
                    c.beginTime = -(from - start) / fps
                } else {
                    c.speed = -1
                    c.timeOffset = (from - start) / fps
                }
            }
            return c
        }
        return g
    }

    /// The timing model of the group (for the time it shows and when it ends).
    var model: _TimingModel { _TimingModel(makeGroup()) }

    /// The frame shown at layer time `t`.
    package func frame(atLayerTime t: Double) -> Double {
        switch mode {
        case let .paused(f): return min(max(f, start), end)
        case let .playing(from, to, _, _, _, _, _):
            let s = model.evaluate(parentTime: t)
            let u = s.iterationTime * fps
            return from <= to ? from + u : from - u
        }
    }

    /// The layer time at which the play ends; nil when paused or playing forever (or frozen at
    /// speed 0).
    package var endLayerTime: Double? {
        guard case .playing = mode else { return nil }
        let m = model
        let a = m.activeDuration
        guard a.isFinite, m.speed != 0 else { return nil }
        return m.parentTime(fromLocal: m.speed > 0 ? a : 0)
    }
}
