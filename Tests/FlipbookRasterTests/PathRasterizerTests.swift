import Testing
#if canImport(Glibc)
import Glibc
#endif
import FlipbookTestSupport
@testable import FlipbookRaster

/// Fills `path` into a dense bitmap over `clip` (default: 64×64 at the origin).
func rasterize(_ path: RasterPath, rule: FillRule = .nonZero, clip: RasterClip = RasterClip(width: 64, height: 64),
               backend: RasterBackend? = nil, rasterizer: PathRasterizer = PathRasterizer()) -> CoverageBitmap {
    var bm = CoverageBitmap(x: clip.x0, y: clip.y0, width: clip.x1 - clip.x0, height: clip.y1 - clip.y0)
    rasterizer.backend = backend
    rasterizer.fill(path, rule: rule, clip: clip, into: &bm)
    return bm
}

/// Exact expected coverage, computed by hand in the comments. Byte rule:
/// byte = ⌊255·a + ½⌋ for a covered area a that is a multiple of 2^-17 (round half up).
@Suite struct PathRasterizerTests {
    @Test func unitSquareOnPixelGrid() {
        var p = RasterPath(); p.addRect(x: 3, y: 4, width: 1, height: 1)
        let bm = rasterize(p)
        #expect(bm[3, 4] == 255)
        for (x, y) in [(2, 4), (4, 4), (3, 3), (3, 5)] { #expect(bm[x, y] == 0) }
        #expect(bm.area == 1)
    }

    @Test func unitSquareAtHalfPixelOffset() {
        // each of the 4 pixels holds a quarter: ⌊255/4 + ½⌋ = ⌊64.25⌋ = 64
        var p = RasterPath(); p.addRect(x: 3.5, y: 4.5, width: 1, height: 1)
        let bm = rasterize(p)
        for (x, y) in [(3, 4), (4, 4), (3, 5), (4, 5)] { #expect(bm[x, y] == 64) }
        #expect(bm[5, 5] == 0 && bm[2, 4] == 0)
    }

    @Test func halfPlanesAtKnownOffsets() {
        // y = 10.25: row 10 covered 0.75 → ⌊191.25 + ½⌋ = 191; rows below 255, above 0
        var p = RasterPath(); p.addRect(x: 0, y: 10.25, width: 64, height: 30)
        var bm = rasterize(p)
        #expect(bm[7, 10] == 191 && bm[7, 11] == 255 && bm[7, 9] == 0)
        // y = 10.3 is quantised to 10 + 77/256 (⌊76.8 + ½⌋ = 77): row 10 covered 179/256 =
        // 0.69921875 → ⌊178.30 + ½⌋ = 178. (An exact 0.7 would be 178.5 → 179; 24.8 fixed point
        // cannot hold 10.3, and the rasterizer does not pretend to.)
        p = RasterPath(); p.addRect(x: 0, y: 10.3, width: 64, height: 30)
        bm = rasterize(p)
        #expect(bm[30, 10] == 178 && bm[30, 11] == 255)
        // x = 5.5: column 5 covered 0.5 → 127.5, half up → 128; x = 5.75: 0.25 → 64
        p = RasterPath(); p.addRect(x: 5.5, y: 0, width: 40, height: 64)
        bm = rasterize(p)
        #expect(bm[5, 20] == 128 && bm[6, 20] == 255 && bm[4, 20] == 0)
        p = RasterPath(); p.addRect(x: 5.75, y: 0, width: 40, height: 64)
        bm = rasterize(p)
        #expect(bm[5, 33] == 64)
        // the right edge at 45.75 covers column 45 by 0.75
        #expect(bm[45, 33] == 191 && bm[46, 33] == 0)
    }

    @Test func triangles() {
        // (0,0) (4,0) (0,4): pixels with i + j ≤ 2 are full, i + j = 3 are cut corner to corner (½ → 128)
        var p = RasterPath(); p.addPolygon([RasterPoint(0, 0), RasterPoint(4, 0), RasterPoint(0, 4)])
        var bm = rasterize(p)
        for j in 0..<5 { for i in 0..<5 {
            let expected: UInt8 = i + j <= 2 ? 255 : (i + j == 3 ? 128 : 0)
            #expect(bm[i, j] == expected, "pixel \(i),\(j)")
        } }
        // (0,0) (4,0) (0,2): the edge y = (4 − x)/2 crosses x = 1, 2, 3 at y = 1.5, 1, 0.5.
        // (0,0), (1,0) full; (0,1): ∫ = (2 + 1.5)/2 − 1 = 0.75 → 191; (1,1): (1.5 + 1)/2 − 1 = 0.25 → 64;
        // (2,0): (1 + 0.5)/2 = 0.75 → 191; (3,0): 0.25 → 64.
        p = RasterPath(); p.addPolygon([RasterPoint(0, 0), RasterPoint(4, 0), RasterPoint(0, 2)])
        bm = rasterize(p)
        #expect(bm[0, 0] == 255 && bm[1, 0] == 255 && bm[0, 1] == 191 && bm[1, 1] == 64)
        #expect(bm[2, 0] == 191 && bm[3, 0] == 64 && bm[2, 1] == 0 && bm[3, 1] == 0 && bm[4, 0] == 0)
        let expectedArea: Double = 2 + 510.0 / 255     // 2 + (191 + 64 + 191 + 64)/255
        #expect(bm.area == expectedArea)
    }

    /// Within 0.1 % of πr² (flattening is balanced across the curve, so the polygon's area is
    /// nearly the curve's; the cubic circle itself is ~0.03 % large).
    @Test func circleAreaWithinOneThousandth() {
        for (cx, cy, r) in [(50.3, 40.7, 30.0), (64.0, 64.0, 50.0), (40.25, 50.6, 36.5)] {
            var p = RasterPath(); p.addEllipse(cx: cx, cy: cy, rx: r, ry: r)
            let bm = rasterize(p, clip: RasterClip(width: 128, height: 128))
            let exact = Double.pi * r * r
            #expect(abs(bm.area - exact) / exact < 0.001, "r=\(r): \(bm.area) vs \(exact)")
            #expect(bm[Int(cx), Int(cy)] == 255)
        }
    }

    /// A pentagram drawn in one stroke: its centre pentagon has winding 2.
    static func star(cx: Double = 32, cy: Double = 32, r: Double = 28) -> RasterPath {
        var p = RasterPath()
        for k in 0..<5 {
            let a = (-90.0 + Double(k) * 144.0) * Double.pi / 180
            let q = RasterPoint(cx + r * cos(a), cy + r * sin(a))
            if k == 0 { p.move(to: q) } else { p.line(to: q) }
        }
        p.close()
        return p
    }

    @Test func evenOddVersusNonZeroOnAStar() {
        let p = Self.star()
        let nz = rasterize(p, rule: .nonZero), eo = rasterize(p, rule: .evenOdd)
        // the centre pentagon (inradius r·cos 72°·… ≈ 8.7 px): winding 2
        for (x, y) in [(31, 31), (32, 32), (30, 33)] {
            #expect(nz[x, y] == 255, "non-zero centre \(x),\(y)")
            #expect(eo[x, y] == 0, "even-odd centre \(x),\(y)")
        }
        // a star point (winding 1): filled by both
        #expect(nz[32, 8] == 255 && eo[32, 8] == 255)
        // outside: neither
        #expect(nz[2, 2] == 0 && eo[2, 2] == 0)
    }

    @Test func pathWithAHole() {
        // outer square clockwise, inner square counter-clockwise: a hole under both rules
        var p = RasterPath()
        p.addPolygon([RasterPoint(4, 4), RasterPoint(36, 4), RasterPoint(36, 36), RasterPoint(4, 36)])
        p.addPolygon([RasterPoint(12.5, 12.5), RasterPoint(12.5, 28.5), RasterPoint(28.5, 28.5), RasterPoint(28.5, 12.5)])
        for rule in [FillRule.nonZero, .evenOdd] {
            let bm = rasterize(p, rule: rule)
            #expect(bm[20, 20] == 0 && bm[6, 6] == 255)
            #expect(bm[12, 20] == 128)                 // the hole's left edge at 12.5 halves column 12
            // 60 half pixels on the hole's sides (127.5 → 128), 4 corners at ¾ (191.25 → 191)
            let expected: Double = 768 + 29.0 / 255
            #expect(bm.area == expected)
        }
        // the same inner square clockwise: non-zero fills the hole (winding 2), even-odd keeps it
        var q = RasterPath()
        q.addPolygon([RasterPoint(4, 4), RasterPoint(36, 4), RasterPoint(36, 36), RasterPoint(4, 36)])
        q.addPolygon([RasterPoint(12.5, 12.5), RasterPoint(28.5, 12.5), RasterPoint(28.5, 28.5), RasterPoint(12.5, 28.5)])
        #expect(rasterize(q, rule: .nonZero)[20, 20] == 255)
        #expect(rasterize(q, rule: .evenOdd)[20, 20] == 0)
        #expect(rasterize(q, rule: .evenOdd)[12, 20] == 128)
    }

    @Test func interiorRunsComeOutAsSolidSpans() {
        var p = RasterPath(); p.addRect(x: 2.5, y: 2, width: 40, height: 10)
        let bm = rasterize(p)
        // each of the 10 rows: a partial pixel, a coverage chunk, then a solid run
        #expect(bm.solidPixels >= 10 * 24)
        #expect(bm.area == 390 + 20 * 128 / 255.0)    // columns 2 and 42 half covered: 127.5 → 128
    }

    @Test func clippingEqualsTheWholeRenderInsideTheClip() {
        var p = RasterPath(); p.addEllipse(cx: 30.3, cy: 29.6, rx: 25, ry: 18)
        p.addPolygon([RasterPoint(-40, 50), RasterPoint(90, 10), RasterPoint(70, 62)])
        let whole = rasterize(p)
        let clip = RasterClip(x0: 13, y0: 9, x1: 41, y1: 37)
        let part = rasterize(p, clip: clip)
        for y in clip.y0..<clip.y1 { for x in clip.x0..<clip.x1 { #expect(part[x, y] == whole[x, y]) } }
        // and nothing outside it was reported
        var counting = CoverageBitmap(width: 64, height: 64)
        PathRasterizer().fill(p, clip: clip, into: &counting)
        for y in 0..<64 { for x in 0..<64 where !(clip.x0..<clip.x1).contains(x) || !(clip.y0..<clip.y1).contains(y) {
            #expect(counting[x, y] == 0)
        } }
    }

    /// A random path: polygons and cubics, partly outside the canvas on every side.
    static func randomPath(_ rng: inout SplitMix64) -> RasterPath {
        var p = RasterPath()
        func pt(_ rng: inout SplitMix64) -> RasterPoint { RasterPoint(-30 + 160 * rng.unit(), -30 + 160 * rng.unit()) }
        for _ in 0..<(1 + Int(rng.next() % 3)) {
            p.move(to: pt(&rng))
            for _ in 0..<(2 + Int(rng.next() % 6)) {
                switch rng.next() % 3 {
                case 0: p.line(to: pt(&rng))
                case 1: p.quad(to: pt(&rng), control: pt(&rng))
                default: p.cubic(to: pt(&rng), control1: pt(&rng), control2: pt(&rng))
                }
            }
            p.close()
        }
        return p
    }

    /// A random polygon whose points lie on a grid of `1/steps` px: lines that start, end or
    /// cross rows and columns exactly on pixel boundaries (the line walk's ties) are common.
    static func randomGridPolygon(_ rng: inout SplitMix64, steps: Int) -> RasterPath {
        var p = RasterPath()
        func pt(_ rng: inout SplitMix64) -> RasterPoint {
            RasterPoint(Double(Int(rng.next() % UInt64(160 * steps))) / Double(steps) - 30,
                        Double(Int(rng.next() % UInt64(160 * steps))) / Double(steps) - 30)
        }
        for _ in 0..<(1 + Int(rng.next() % 3)) {
            p.move(to: pt(&rng))
            for _ in 0..<(2 + Int(rng.next() % 8)) { p.line(to: pt(&rng)) }
            p.close()
        }
        return p
    }

    /// THE determinism requirement: a pixel's byte does not depend on the band or clip that
    /// contains it.
    /// (Both line walks: the C one of the native backend and the Swift reference.)
    @Test(arguments: [0, 1, 4, 32], [RasterBackend.native, .portable])
    func bandsAndClipsGiveIdenticalBytes(gridSteps: Int, backend: RasterBackend) {
        var rng = SplitMix64(seed: 12 &+ UInt64(gridSteps))
        let W = 100, H = 100
        let r = PathRasterizer()
        r.backend = backend
        var failures: [String] = []
        for trial in 0..<40 {
            let p = gridSteps == 0 ? Self.randomPath(&rng) : Self.randomGridPolygon(&rng, steps: gridSteps)
            for rule in [FillRule.nonZero, .evenOdd] {
                let whole = rasterize(p, rule: rule, clip: RasterClip(width: W, height: H), backend: backend, rasterizer: r)
                for band in [1, 2, 3, 7, 64] {
                    var banded = CoverageBitmap(width: W, height: H)
                    var y = 0
                    while y < H {
                        r.fill(p, rule: rule, clip: RasterClip(x0: 0, y0: y, x1: W, y1: min(H, y + band)), into: &banded)
                        y += band
                    }
                    if banded.bytes != whole.bytes { failures.append("trial \(trial) \(rule) band \(band)") }
                }
                // random sub-rectangles (columns too)
                for _ in 0..<4 {
                    let x0 = Int(rng.next() % 90), y0 = Int(rng.next() % 90)
                    let clip = RasterClip(x0: x0, y0: y0, x1: x0 + 1 + Int(rng.next() % UInt64(W - x0)),
                                          y1: y0 + 1 + Int(rng.next() % UInt64(H - y0)))
                    let part = rasterize(p, rule: rule, clip: clip, backend: backend, rasterizer: r)
                    var ok = true
                    for yy in clip.y0..<clip.y1 { for xx in clip.x0..<clip.x1 where part[xx, yy] != whole[xx, yy] { ok = false } }
                    if !ok { failures.append("trial \(trial) \(rule) clip \(clip)") }
                }
            }
        }
        #expect(failures.isEmpty, "\(failures.prefix(6))")
    }

    @Test(.enabled(if: RasterBackend.nativeAvailable))
    func nativeAndPortableRasterizeIdentically() {
        var rng = SplitMix64(seed: 99)
        for _ in 0..<10 {
            let p = Self.randomPath(&rng)
            for rule in [FillRule.nonZero, .evenOdd] {
                let a = rasterize(p, rule: rule, clip: RasterClip(width: 100, height: 100), backend: .portable)
                let b = rasterize(p, rule: rule, clip: RasterClip(width: 100, height: 100), backend: .native)
                #expect(a.bytes == b.bytes)
            }
        }
    }

    @Test func degenerateAndHostileInput() {
        var p = RasterPath()
        #expect(rasterize(p).area == 0)                             // empty
        p.move(to: 3, 3); p.line(to: 10, 3); p.close()              // zero area
        #expect(rasterize(p).area == 0)
        var q = RasterPath(); q.addPolygon([RasterPoint(1, 1), RasterPoint(.nan, 4), RasterPoint(9, 9)])
        #expect(rasterize(q).area == 0)                             // non-finite: not drawn
        var huge = RasterPath()                                     // far outside on the left: a half-plane
        huge.addPolygon([RasterPoint(-1e12, 10), RasterPoint(20.5, 10), RasterPoint(20.5, 20), RasterPoint(-1e12, 20)])
        let bm = rasterize(huge)
        #expect(bm[0, 15] == 255 && bm[20, 15] == 128 && bm[21, 15] == 0)
        // a shape entirely left of the clip still winds the rows to its right
        var left = RasterPath(); left.addRect(x: -50, y: 5, width: 10, height: 5)
        #expect(rasterize(left).area == 0)
    }

    @Test func transformIsAppliedBeforeFlattening() {
        var p = RasterPath(); p.addRect(x: 0, y: 0, width: 1, height: 1)
        var bm = CoverageBitmap(width: 64, height: 64)
        PathRasterizer().fill(p, transform: .scale(10, 5).concatenating(.translation(3, 4)), clip: RasterClip(width: 64, height: 64), into: &bm)
        #expect(bm.area == 50 && bm[3, 4] == 255 && bm[12, 8] == 255 && bm[13, 8] == 0)
    }

    /// A sink that takes rows whole (``CoverageSink/prefersDenseRows``), checking what the
    /// protocol promises of them: one row per call at most, rows increasing, first and last
    /// byte not 0.
    struct DenseRows: CoverageSink {
        var bitmap: CoverageBitmap
        var lastRow = Int.min, problems: [String] = [], denseCalls = 0
        static var prefersDenseRows: Bool { true }
        mutating func denseRow(y: Int, x: Int, coverage: UnsafeBufferPointer<UInt8>) {
            denseCalls += 1
            if y <= lastRow { problems.append("row \(y) after \(lastRow)") }
            if coverage.isEmpty || coverage.first == 0 || coverage.last == 0 { problems.append("row \(y): zero end") }
            lastRow = y
            bitmap.coverageSpan(y: y, x: x, coverage: coverage)
        }
        mutating func coverageSpan(y: Int, x: Int, coverage: UnsafeBufferPointer<UInt8>) { bitmap.coverageSpan(y: y, x: x, coverage: coverage) }
        mutating func constantSpan(y: Int, x: Int, count: Int, coverage: UInt8) { bitmap.constantSpan(y: y, x: x, count: count, coverage: coverage) }
    }

    /// The native sweep's dense rows (`fbk_sweep_rows_avx2`: runs, gaps and ends found in C)
    /// against the sweep's spans: the same pixels and bytes, on canvases wide enough for rows of
    /// several bitmap words, clipped on every side, both rules, both kinds of random path.
    @Test(.enabled(if: RasterBackend.nativeAvailable))
    func denseRowsMatchSpans() {
        var rng = SplitMix64(seed: 77)
        let r = PathRasterizer()
        r.backend = .native
        var failures: [String] = [], dense = 0
        for trial in 0..<60 {
            let p = trial % 2 == 0 ? Self.randomPath(&rng) : Self.randomGridPolygon(&rng, steps: 4)
            let sx = 1 + Double(rng.next() % 12)                 // up to ~1900 px wide
            let t = RasterTransform(a: sx, b: 0, c: 0, d: 1, tx: 0, ty: 0)
            let W = Int(160 * sx) + 40, H = 140
            for rule in [FillRule.nonZero, .evenOdd] {
                for k in 0..<3 {
                    let clip = k == 0 ? RasterClip(width: W, height: H)
                        : RasterClip(x0: Int(rng.next() % UInt64(W / 2)), y0: Int(rng.next() % 60),
                                     x1: W / 2 + Int(rng.next() % UInt64(W / 2)), y1: 70 + Int(rng.next() % 70))
                    var spans = CoverageBitmap(x: clip.x0, y: clip.y0, width: clip.x1 - clip.x0, height: clip.y1 - clip.y0)
                    r.fill(p, rule: rule, transform: t, clip: clip, into: &spans)
                    var rows = DenseRows(bitmap: CoverageBitmap(x: clip.x0, y: clip.y0, width: clip.x1 - clip.x0, height: clip.y1 - clip.y0))
                    r.fill(p, rule: rule, transform: t, clip: clip, into: &rows)
                    dense += rows.denseCalls
                    if rows.bitmap.bytes != spans.bytes { failures.append("trial \(trial) \(rule) clip \(clip)") }
                    failures += rows.problems.prefix(2).map { "trial \(trial): \($0)" }
                }
            }
        }
        #expect(failures.isEmpty, "\(failures.prefix(6))")
        #expect(dense > 10_000)                                 // the dense path did run
    }

}
