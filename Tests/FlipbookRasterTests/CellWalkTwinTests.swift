import Testing
import CFlipbookKernels
import FlipbookTestSupport
@testable import FlipbookRaster

/// The C line walk (`fbk_add_line`, cell_walk.c) against the Swift reference
/// (`_Cells._addLine`, Path/CellWalk.swift): the same cells and the same bitmap, bit for bit.
/// (Plain C: it runs on every CPU, so these run everywhere.)
@Suite struct CellWalkTwinTests {
    /// A cell buffer over columns `ox ..< ox + width`, rows `oy ..< oy + height`, with both
    /// walks' views of it.
    final class Buffer {
        let acc: UnsafeMutablePointer<Int32>, bits: UnsafeMutablePointer<UInt64>
        let native: UnsafeMutablePointer<fbk_cells>
        var cells = _Cells()
        let count: Int, wordCount: Int

        init(ox: Int, oy: Int, width: Int, height: Int, skip: (Int, Int)? = nil) {
            var c = _Cells()
            c.ox = ox; c.oy = oy; c.width = width; c.height = height
            c.stride = (width + 1 + 7) & ~7
            c.words = ((c.stride >> 3) + 63) >> 6
            c.xMinSub = ox << 8; c.xMaxSub = (ox + width) << 8
            c.yMinSub = oy << 8; c.yMaxSub = (oy + height) << 8
            count = c.stride * height; wordCount = c.words * height
            acc = .allocate(capacity: count); acc.initialize(repeating: 0, count: count)
            bits = .allocate(capacity: wordCount); bits.initialize(repeating: 0, count: wordCount)
            c.acc = acc; c.bits = bits
            native = .allocate(capacity: 1)
            native.initialize(to: fbk_cells(acc: acc, bits: bits, stride: c.stride, words: c.words, width: width, oy: oy,
                                            x_min_sub: Int64(c.xMinSub), x_max_sub: Int64(c.xMaxSub),
                                            y_min_sub: Int64(c.yMinSub), y_max_sub: Int64(c.yMaxSub), skip0: 0, skip1: 0))
            cells = c
            if let (s0, s1) = skip { cells.native = native; cells.setSkip(s0, s1); cells.native = nil }
        }
        deinit { acc.deallocate(); bits.deallocate(); native.deallocate() }

        func addSwift(_ x0: Int, _ y0: Int, _ x1: Int, _ y1: Int) { cells._addLine(x0, y0, x1, y1) }
        func addC(_ x0: Int, _ y0: Int, _ x1: Int, _ y1: Int) { fbk_add_line(native, Int64(x0), Int64(y0), Int64(x1), Int64(y1)) }
        var accArray: [Int32] { Array(UnsafeBufferPointer(start: acc, count: count)) }
        var bitsArray: [UInt64] { Array(UnsafeBufferPointer(start: bits, count: wordCount)) }
    }

    /// Random lines — through, into, out of and beside random buffers, on a fine grid and on
    /// pixel and half-pixel grids (ties at row and column boundaries), steep and flat, some
    /// vertical or horizontal — one line per buffer pair, then whole polylines.
    @Test func theCWalkEqualsTheSwiftReference() {
        var rng = SplitMix64(seed: 2026_11_26)
        var mismatches: [String] = []
        for trial in 0..<20_000 {
            let width = 1 + Int(rng.next() % 40), height = 1 + Int(rng.next() % 40)
            let ox = Int(rng.next() % 30) - 15, oy = Int(rng.next() % 30) - 15
            let skip: (Int, Int)? = trial % 7 == 0 ? (oy + Int(rng.next() % UInt64(height)), oy + height) : nil
            let a = Buffer(ox: ox, oy: oy, width: width, height: height, skip: skip)
            let b = Buffer(ox: ox, oy: oy, width: width, height: height, skip: skip)
            let grid = [1, 1, 128, 256][Int(rng.next() % 4)]   // 1/256, 1/2 or 1 px steps
            func coordinate(_ o: Int, _ n: Int) -> Int {
                let v = Int(rng.next() % UInt64((n + 40) * 256)) + (o - 20) * 256
                return v / grid * grid
            }
            let lines = 1 + Int(rng.next() % 12)
            var px = coordinate(ox, width), py = coordinate(oy, height)
            for k in 0..<lines {
                var x = coordinate(ox, width), y = coordinate(oy, height)
                switch rng.next() % 8 {
                case 0: x = px                                // vertical
                case 1: y = py                                // horizontal
                case 2: y = py + Int(rng.next() % 300)        // short: a row or two
                default: break
                }
                a.addSwift(px, py, x, y); b.addC(px, py, x, y)
                if k == lines - 1 || trial % 3 != 0 { px = x; py = y } else { px = coordinate(ox, width); py = coordinate(oy, height) }
            }
            if a.accArray != b.accArray || a.bitsArray != b.bitsArray {
                mismatches.append("trial \(trial) (\(width)×\(height) at \(ox),\(oy), grid \(grid))")
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
    }

    /// Long and extreme lines: coordinates at the ±2^29 clamp, lines spanning thousands of
    /// columns across a small buffer, nearly horizontal and nearly vertical slopes.
    @Test func extremeLinesAgree() {
        let cases: [(Int, Int, Int, Int)] = [
            (-536_870_912, 100, 536_870_912, 2_000), (536_870_912, -536_870_912, -536_870_912, 536_870_912),
            (-100_000, 300, 100_000, 301), (100_000, 300, -100_000, 2_900), (1_000, -10_000, 1_001, 10_000),
            (2_560, 0, 2_560, 5_000), (0, 256, 5_120, 512), (5_120, 256, 0, 257), (-3, -3, 4_000, 4_000),
        ]
        for (x0, y0, x1, y1) in cases {
            let a = Buffer(ox: 2, oy: 1, width: 17, height: 13)
            let b = Buffer(ox: 2, oy: 1, width: 17, height: 13)
            a.addSwift(x0, y0, x1, y1); b.addC(x0, y0, x1, y1)
            a.addSwift(x1, y1, x0, y0 + 77); b.addC(x1, y1, x0, y0 + 77)
            #expect(a.accArray == b.accArray, "\((x0, y0, x1, y1))")
            #expect(a.bitsArray == b.bitsArray, "\((x0, y0, x1, y1))")
        }
    }

    /// Thousands of edges on the same cells: the sums wrap around Int32 in both walks alike
    /// (the accumulation pass reads them as wrapping integers).
    @Test func pileUpsWrapAlike() {
        let a = Buffer(ox: 0, oy: 0, width: 4, height: 2)
        let b = Buffer(ox: 0, oy: 0, width: 4, height: 2)
        for _ in 0..<30_000 {
            a.addSwift(300, 0, 310, 256); b.addC(300, 0, 310, 256)      // a steep piece in cell 1
            a.addSwift(10, 300, 900, 310); b.addC(10, 300, 900, 310)    // a flat one across row 1
        }
        #expect(a.accArray == b.accArray)
        // 30,000 × 256 × (512 − 98) is past Int32.max: the cell did wrap
        #expect(Int(a.accArray[1]) == Int(Int32(truncatingIfNeeded: 30_000 * 256 * (512 - 98))))
        #expect(30_000 * 256 * (512 - 98) > Int(Int32.max))
    }
}
