import Flipbook
import FlipbookRender

/// `flipbook plan --balance area`: shard ranges of (roughly) equal estimated **cost** instead of
/// equal length, for animations whose load varies along the timeline (a busy middle, an empty
/// end).
///
/// The estimate: the recording is sampled at up to ``maximumSamples`` frames spread evenly over
/// it (the model runs to each — events only — and its render tree is snapshotted, nothing is
/// composited), and a frame's cost is
///
///     cost = W × H                     (clearing, encoding and writing the frame)
///          + Σ visible layers: min(area on screen, W × H) + 256     (each layer's pixels + a fixed overhead)
///
/// where a layer's area on screen is its bounds' area times the absolute determinant of the x/y
/// part of its accumulated transform (rotation keeps area, scale multiplies it; perspective is
/// approximated by its linear part). Between samples a frame costs what the nearest sample
/// before it costs. Cuts are placed where the running cost crosses `i/N` of the total.
///
/// The estimate involves floating-point sums (and libm in the transforms), so two machines may
/// disagree in a last bit and place a cut one frame apart: that is why balanced ranges are
/// computed **once**, by `plan`, and handed to the workers as a file (`render --plan
/// plan.json`), never recomputed by each worker.
enum ShardBalance {
    /// How many frames are sampled at most.
    static let maximumSamples = 256
    /// The fixed cost of one visible layer, in pixel units.
    static let layerOverhead = 256.0

    /// The estimated cost of one frame from its render tree (see the type's description).
    static func cost(_ tree: RenderLayer, width: Int, height: Int, scale: Double) -> Double {
        let frame = Double(width * height)
        var total = frame
        func visit(_ l: RenderLayer, _ parentDet: Double) {
            guard !l.isHidden, l.opacity > 0 else { return }
            let t = l.transform
            let det = parentDet * abs(Double(t.m11 * t.m22 - t.m12 * t.m21))
            let draws = l.backgroundColor != nil || l.contents != nil || l.shape != nil || l.gradient != nil
                || l.borderWidth > 0 || (l.shadowOpacity > 0 && l.shadowColor != nil)
            if draws {
                let area = Double(l.bounds.width * l.bounds.height) * det * scale * scale
                total += min(area.isFinite ? area : frame, frame) + layerOverhead
            }
            let st = l.sublayerTransform
            let childDet = det * abs(Double(st.m11 * st.m22 - st.m12 * st.m21))
            for s in l.sublayers { visit(s, childDet) }
        }
        visit(tree, 1)
        return total
    }

    /// The frames sampled for `frames`: up to ``maximumSamples``, evenly spread, the first included.
    static func sampleFrames(_ frames: ClosedRange<Int>) -> [Int] {
        let c = frames.count, k = min(c, maximumSamples)
        return (0..<k).map { frames.lowerBound + $0 * c / k }
    }

    /// `count` contiguous ranges of `frames` with about equal total cost; `samples` are
    /// (frame, cost) pairs in increasing frame order, the first at `frames.lowerBound`. Every
    /// range has at least one frame.
    static func ranges(of frames: ClosedRange<Int>, count: Int, samples: [(frame: Int, cost: Double)]) -> [ClosedRange<Int>] {
        precondition(count >= 1 && count <= frames.count && !samples.isEmpty)
        // Blocks of frames that share a sample's cost.
        var blocks: [(first: Int, last: Int, cost: Double)] = []
        for (i, s) in samples.enumerated() {
            let last = i + 1 < samples.count ? samples[i + 1].frame - 1 : frames.upperBound
            blocks.append((s.frame, last, max(s.cost, 1)))
        }
        let total = blocks.reduce(0.0) { $0 + Double($1.last - $1.first + 1) * $1.cost }
        var cuts: [Int] = []            // the first frame of shards 1…count-1
        var running = 0.0
        var b = 0
        for i in 1..<count {
            let target = total * Double(i) / Double(count)
            while b < blocks.count, running + Double(blocks[b].last - blocks[b].first + 1) * blocks[b].cost < target {
                running += Double(blocks[b].last - blocks[b].first + 1) * blocks[b].cost
                b += 1
            }
            var cut: Int
            if b < blocks.count {
                let into = Int(((target - running) / blocks[b].cost).rounded())
                cut = blocks[b].first + max(0, into)
            } else {
                cut = frames.upperBound
            }
            // Each shard keeps at least one frame, and leaves one for each shard after it.
            let lowest = (cuts.last ?? frames.lowerBound) + 1
            let highest = frames.upperBound - (count - 1 - i)
            cut = min(max(cut, lowest), highest)
            cuts.append(cut)
        }
        var out: [ClosedRange<Int>] = []
        var start = frames.lowerBound
        for c in cuts { out.append(start...(c - 1)); start = c }
        out.append(start...frames.upperBound)
        return out
    }
}
