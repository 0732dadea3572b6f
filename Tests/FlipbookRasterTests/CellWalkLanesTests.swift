import Testing
import CFlipbookKernels
import FlipbookTestSupport
@testable import FlipbookRaster

/// The lane walks (`cell_walk_avx512.c`: eight lines at once, one per AVX-512 lane) against the
/// scalar C walks they stand for: `fbk_add_contours_with` with lanes on and off gives the same
/// cells and the same bitmap, bit for bit. (The scalar C walk is itself the twin of the Swift
/// reference: `CellWalkTwinTests`.)
@Suite(.enabled(if: fbk_cpu_has_lane_walk() != 0, "needs AVX-512 F, BW, DQ and VL"))
struct CellWalkLanesTests {
    /// A cell buffer as `PathRasterizer` makes one (with its slack cells after the last row).
    final class Buffer {
        let acc: UnsafeMutablePointer<Int32>, bits: UnsafeMutablePointer<UInt64>
        var native: fbk_cells
        let count: Int, wordCount: Int

        init(ox: Int, oy: Int, width: Int, height: Int) {
            let stride = (width + 1 + 7) & ~7, words = ((stride >> 3) + 63) >> 6
            count = stride * height + PathRasterizer.laneSlack; wordCount = words * height
            acc = .allocate(capacity: count); acc.initialize(repeating: 0, count: count)
            bits = .allocate(capacity: wordCount); bits.initialize(repeating: 0, count: wordCount)
            native = fbk_cells(acc: acc, bits: bits, stride: stride, words: words, width: width, oy: oy,
                               x_min_sub: Int64(ox << 8), x_max_sub: Int64((ox + width) << 8),
                               y_min_sub: Int64(oy << 8), y_max_sub: Int64((oy + height) << 8), skip0: 0, skip1: 0)
        }
        deinit { acc.deallocate(); bits.deallocate() }

        func add(_ points: [Int32], ends: [Int32], lanes: Bool) {
            points.withUnsafeBufferPointer { p in
                ends.withUnsafeBufferPointer { e in
                    fbk_add_contours_with(&native, p.baseAddress, e.baseAddress, e.count, lanes ? 1 : 0)
                }
            }
        }
        var accArray: [Int32] { Array(UnsafeBufferPointer(start: acc, count: count)) }
        var bitsArray: [UInt64] { Array(UnsafeBufferPointer(start: bits, count: wordCount)) }
    }

    /// Both walks over the same contours into fresh buffers: a description of the first
    /// difference, or nil.
    static func compare(_ points: [Int32], _ ends: [Int32], ox: Int, oy: Int, width: Int, height: Int) -> String? {
        let a = Buffer(ox: ox, oy: oy, width: width, height: height)
        let b = Buffer(ox: ox, oy: oy, width: width, height: height)
        a.add(points, ends: ends, lanes: false)
        b.add(points, ends: ends, lanes: true)
        let (x, y) = (a.accArray, b.accArray)
        if let i = x.indices.first(where: { x[$0] != y[$0] }) { return "cell \(i): \(x[i]) vs \(y[i])" }
        if a.bitsArray != b.bitsArray { return "bitmap" }
        return nil
    }

    /// Random contours of 1–60 edges — polylines wandering through, into, out of and beside
    /// random buffers, on fine, half-pixel and pixel grids (ties at row and column boundaries),
    /// steep and flat, vertical, horizontal and short — several contours per shape, so the lane
    /// queues fill, spill and are flushed both ways (fewer than `FBK_LANE_MIN` lines are walked
    /// one by one).
    @Test func randomContoursGiveTheScalarCells() {
        var rng = SplitMix64(seed: 2026_11_27)
        var mismatches: [String] = []
        for trial in 0..<6_000 {
            let width = 1 + Int(rng.next() % 70), height = 1 + Int(rng.next() % 70)
            let ox = Int(rng.next() % 40) - 20, oy = Int(rng.next() % 40) - 20
            let grid = [1, 1, 1, 128, 256][Int(rng.next() % 5)]
            let reach = trial % 5 == 0 ? 200 : 20              // some shapes far wider than the buffer
            func coordinate(_ o: Int, _ n: Int) -> Int32 {
                let v = Int(rng.next() % UInt64((n + 2 * reach) * 256)) + (o - reach) * 256
                return Int32(v / grid * grid)
            }
            var points: [Int32] = [], ends: [Int32] = []
            for _ in 0..<(1 + Int(rng.next() % 4)) {
                var (px, py) = (coordinate(ox, width), coordinate(oy, height))
                for _ in 0..<(1 + Int(rng.next() % 60)) {
                    points += [px, py]
                    var (x, y) = (coordinate(ox, width), coordinate(oy, height))
                    switch rng.next() % 10 {
                    case 0: x = px                                           // vertical
                    case 1: y = py                                           // horizontal
                    case 2, 3: x = px + Int32(Int(rng.next() % 1_200) - 600) // short: a few cells
                               y = py + Int32(Int(rng.next() % 1_200) - 600)
                    default: break
                    }
                    (px, py) = (x, y)
                }
                ends.append(Int32(points.count / 2))
            }
            if let d = Self.compare(points, ends, ox: ox, oy: oy, width: width, height: height) {
                mismatches.append("trial \(trial) (\(width)×\(height) at \(ox),\(oy), grid \(grid)): \(d)")
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
    }

    /// Lines at and past the lanes' extent (2²² sub-pixels: walked by the scalar code), lines
    /// at the ±2²⁹ clamp, and nearly horizontal and vertical slopes, mixed with short ones in
    /// the same queues.
    @Test func longAndExtremeLinesGiveTheScalarCells() {
        let big: Int32 = 1 << 22, clamp: Int32 = 536_870_912
        var points: [Int32] = [], ends: [Int32] = []
        let shapes: [[Int32]] = [
            [0, 0, big - 1, 300, big - 1, big - 2, 10, big - 2],            // just inside the extent
            [0, 0, big, 300, big + 5, big + 9, 10, big],                    // at and past it
            [-clamp, 100, clamp, 2_000, clamp, clamp, -clamp, -clamp],     // the clamp
            [-100_000, 300, 100_000, 301, 100_000, 2_900, 1_000, -10_000, 1_001, 10_000],
            [0, 256, 5_120, 512, 5_120, 257, 0, 257, 2_560, 0, 2_560, 5_000, -3, -3, 4_000, 4_000],
        ]
        for s in shapes {
            for k in 0..<3 {                                   // short lines around to fill the queues
                points += s.map { $0 > 0 ? $0 &- Int32(k * 37) : $0 &+ Int32(k * 37) }
                ends.append(Int32(points.count / 2))
                points += [300 + Int32(k), 10, 900, 700, 1_500, 100, 2_100, 650, 2_700, 40, 3_300, 800, 3_900, 20]
                ends.append(Int32(points.count / 2))
            }
        }
        for (ox, oy, w, h) in [(2, 1, 17, 13), (-5, -3, 40, 40), (0, 0, 1, 1), (100, 2, 64, 30)] {
            #expect(Self.compare(points, ends, ox: ox, oy: oy, width: w, height: h) == nil, "\((ox, oy, w, h))")
        }
    }

    /// Thousands of edges on the same cells, several in one lane step: the sums wrap around
    /// Int32 alike (one lane after another, as the scalar walk adds them).
    @Test func pileUpsWrapAlike() {
        var points: [Int32] = [], ends: [Int32] = []
        for _ in 0..<3_000 {
            points += [300, 0, 310, 256, 10, 300, 900, 310, 305, 20, 309, 250, 20, 290, 880, 305]
            ends.append(Int32(points.count / 2))
        }
        #expect(Self.compare(points, ends, ox: 0, oy: 0, width: 4, height: 2) == nil)
    }
}

/// `fbk_sweep_rows_avx512` (16-cell blocks, ends from the blocks' masks) and
/// `fbk_sweep_rows_small_avx512` (one bitmap word a row, swept densely) against
/// `fbk_sweep_rows_avx2`: the same starts, counts and coverage bytes in those ranges, and both
/// leave the cells and the bitmap zeroed.
@Suite(.enabled(if: fbk_cpu_has_lane_walk() != 0, "needs AVX-512 F, BW, DQ and VL"))
struct SweepRowsAVX512Tests {
    typealias Sweep = (_ acc: UnsafeMutablePointer<Int32>, _ bits: UnsafeMutablePointer<UInt64>, _ stride: Int, _ words: Int,
                       _ width: Int, _ height: Int, _ evenOdd: Int32, _ cov: UnsafeMutablePointer<UInt8>,
                       _ starts: UnsafeMutablePointer<Int>, _ counts: UnsafeMutablePointer<Int>) -> Void

    /// `trials` random buffers (widths from `widths`, contours reaching past every side: cells
    /// folded into column 0, rows whose sum is not back to 0 at the last cell) swept by
    /// `fbk_sweep_rows_avx2` and by `sweep`; the trials that differ.
    static func compare(seed: UInt64, trials: Int, widths: (Int) -> Int, _ sweep: Sweep) -> [String] {
        var rng = SplitMix64(seed: seed)
        var failures: [String] = []
        for trial in 0..<trials {
            let width = widths(trial) , height = 1 + Int(rng.next() % 40)
            let a = CellWalkLanesTests.Buffer(ox: 0, oy: 0, width: width, height: height)
            let b = CellWalkLanesTests.Buffer(ox: 0, oy: 0, width: width, height: height)
            // random contours, some wider than the buffer (cells folded into column 0)
            var points: [Int32] = [], ends: [Int32] = []
            for _ in 0..<(1 + Int(rng.next() % 3)) {
                for _ in 0..<(3 + Int(rng.next() % 30)) {
                    points += [Int32(Int(rng.next() % UInt64((width + 40) * 256)) - 20 * 256),
                               Int32(Int(rng.next() % UInt64((height + 10) * 256)) - 5 * 256)]
                }
                ends.append(Int32(points.count / 2))
            }
            a.add(points, ends: ends, lanes: false); b.add(points, ends: ends, lanes: false)
            let evenOdd: Int32 = trial % 3 == 0 ? 1 : 0
            let stride = a.native.stride, words = a.native.words
            var covA = [UInt8](repeating: 0, count: stride * height), covB = covA
            var startsA = [Int](repeating: -1, count: height), countsA = startsA, startsB = startsA, countsB = startsA
            fbk_sweep_rows_avx2(a.acc, a.bits, stride, words, width, height, evenOdd, &covA, &startsA, &countsA)
            sweep(b.acc, b.bits, stride, words, width, height, evenOdd, &covB, &startsB, &countsB)
            var same = startsA == startsB && countsA == countsB
            for r in 0..<height where same && countsA[r] > 0 {
                let s = r * stride + startsA[r]
                same = covA[s..<(s + countsA[r])] == covB[s..<(s + countsA[r])]
            }
            if !same { failures.append("trial \(trial) (\(width)×\(height), even-odd \(evenOdd))") }
            if b.accArray.contains(where: { $0 != 0 }) || b.bitsArray.contains(where: { $0 != 0 }) {
                failures.append("trial \(trial): cells left behind")
            }
        }
        return failures
    }

    @Test func theSixteenCellSweepGivesTheEightCellRows() {
        var rng = SplitMix64(seed: 2026_11_27_2)
        let failures = Self.compare(seed: 2026_11_27_1, trials: 3_000,
                                    widths: { 1 + Int(rng.next() % ($0 % 2 == 0 ? 90 : 1_200)) }) {
            fbk_sweep_rows_avx512($0, $1, $2, $3, $4, $5, $6, $7, $8, $9)
        }
        #expect(failures.isEmpty, "\(failures.prefix(5))")
    }

    /// Every width of one bitmap word, the callers' 1…64 most often (the dense sweep of a small
    /// layer's rows).
    @Test func theDenseSmallRowSweepGivesTheRunSweepsRows() {
        var rng = SplitMix64(seed: 2026_11_28_2)
        let failures = Self.compare(seed: 2026_11_28_1, trials: 3_000,
                                    widths: { 1 + Int(rng.next() % ($0 % 4 == 0 ? 510 : 64)) }) {
            #expect($3 == 1)
            fbk_sweep_rows_small_avx512($0, $1, $2, $4, $5, $6, $7, $8, $9)
        }
        #expect(failures.isEmpty, "\(failures.prefix(5))")
    }
}
