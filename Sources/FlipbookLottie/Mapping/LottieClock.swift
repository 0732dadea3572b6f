import Foundation
import Flipbook

/// Where a layer's local Lottie frames fall on the root timeline.
///
/// Every `CAAnimation` the mapper builds lives on **one timeline**: the root composition's
/// frames `start ..< end` (its `ip`, `op`), played in `(end − start) / fps` seconds, key times
/// being fractions of that span. A precomposition's start time (`st`) and stretch (`sr`) are
/// affine maps of time and are folded into its layers' key times exactly (as lottie-ios's
/// Core Animation engine does); time remapping (`tm`) is not affine, so below a remapped
/// precomposition a clock carries the local frame sampled at every root frame, and the
/// animations built under it are sampled there too (exact at every whole frame, linear in
/// between). The ``LottieAnimationLayer`` then wraps each layer's animations in one group that
/// carries the play range, speed and loop mode.
package struct LottieClock: Sendable, Equatable {
    /// Root frames per second.
    package var fps: Double
    /// The root timeline's first frame and the frame after its last (`ip`, `op`).
    package var start: Double
    package var end: Double
    /// local frame → root frame: `root = local × scale + offset` (when ``remapped`` is nil).
    package var scale: Double = 1
    package var offset: Double = 0
    /// Under time remapping: the local frame at root frame `start + i`, for i = 0 … ⌈end − start⌉.
    package var remapped: [Double]?

    package init(fps: Double, start: Double, end: Double) {
        self.fps = fps; self.start = start; self.end = end
    }

    /// The root timeline's length in seconds.
    package var duration: Double { (end - start) / fps }

    /// True when local frames map to root frames by an increasing affine map.
    package var isAffine: Bool { remapped == nil && scale > 0 }

    /// The local frame shown at root frame `r`.
    package func localFrame(atRoot r: Double) -> Double {
        if let remapped, !remapped.isEmpty {
            let x = min(max(r - start, 0), Double(remapped.count - 1))
            let i = Int(x.rounded(.down)), f = x - Double(i)
            if f == 0 || i + 1 >= remapped.count { return remapped[i] }
            return remapped[i] + (remapped[i + 1] - remapped[i]) * f
        }
        return scale != 0 ? (r - offset) / scale : offset
    }

    /// The root frame at which local frame `l` is shown (affine clocks only).
    package func rootFrame(forLocal l: Double) -> Double { l * scale + offset }

    /// The key time (fraction of the timeline) of root frame `r`.
    package func keyTime(forRoot r: Double) -> Double { end > start ? (r - start) / (end - start) : 0 }

    /// The clock of a precomposition's layers, for a precomposition layer on this clock with
    /// start time `st` and stretch `sr`: the precomposition's frame `c` is this clock's local
    /// frame `c × sr + st`.
    package func precomposed(startTime st: Double, stretch sr: Double) -> LottieClock {
        var c = self
        if let remapped {
            c.remapped = remapped.map { sr != 0 ? ($0 - st) / sr : 0 }
        } else {
            c.scale = scale * sr
            c.offset = st * scale + offset
        }
        return c
    }

    /// The clock of a time-remapped precomposition: `childFrame(parentLocal)` gives the
    /// precomposition's frame for this clock's local frame (the layer's `tm` evaluated there,
    /// in seconds, times the frame rate).
    package func remapped(_ childFrame: (Double) -> Double) -> LottieClock {
        var c = self
        let n = Int((end - start).rounded(.up))
        c.remapped = (0...max(n, 0)).map { i in childFrame(localFrame(atRoot: start + Double(i))) }
        c.scale = 1; c.offset = 0
        return c
    }
}
