import Foundation
import Testing
@testable import FlipbookRaster
import FlipbookTestSupport

/// ``PathStroker/overlapCorrections(into:)``: where a stroke crosses itself, the pixels around
/// the lens are covered as the union of the two parts, not as the sum of both.
@Suite struct StrokeOverlapTests {
    static func reference(_ pts: [RasterPoint], h: Double, width: Int, height: Int) -> [Double] {
        SupersampledStroke.coverage(pts.map { ($0.x, $0.y) }, halfWidth: h, width: width, height: height)
    }

    static func outline(_ pts: [RasterPoint], h: Double, transform: RasterTransform = .identity) -> (RasterPath, [SIMD3<Int32>]) {
        var path = RasterPath()
        path.move(to: pts[0])
        for p in pts.dropFirst() { path.line(to: p) }
        let stroker = PathStroker()
        var outline = RasterPath()
        stroker.stroke(path, style: StrokeStyle(width: 2 * h, cap: .round, join: .round), transform: transform, into: &outline)
        var list: [SIMD3<Int32>] = []
        stroker.overlapCorrections(into: &list)
        return (outline, list)
    }

    static func render(_ pts: [RasterPoint], h: Double, width: Int, height: Int, corrected: Bool,
                       clip: RasterClip? = nil) -> CoverageBitmap {
        let (outline, list) = outline(pts, h: h)
        var fixed = FixedPath()
        fixed.set(outline)
        if corrected { fixed.corrections = list }
        var bmp = CoverageBitmap(width: width, height: height)
        PathRasterizer().fill(fixed, rule: .nonZero, clip: clip ?? RasterClip(width: width, height: height), into: &bmp)
        return bmp
    }

    /// (pixels off by more than 16 levels, largest difference) against the reference.
    static func errors(_ bmp: CoverageBitmap, _ ref: [Double], width: Int, height: Int) -> (Int, Double) {
        var worst = 0.0, over16 = 0
        for y in 0..<height {
            for x in 0..<width {
                let d = abs(Double(bmp[x, y]) - 255 * ref[y * width + x])
                worst = max(worst, d)
                if d > 16 { over16 += 1 }
            }
        }
        return (over16, worst)
    }

    /// A Z whose first and last strokes cross: the corners of the lens are over-covered (by up to
    /// 65 levels for a 2 px line); with the corrections no pixel is off by more than 5 levels from
    /// a 32 × 32 supersampled reference.
    @Test(arguments: [1.0, 2.3, 3.0])
    func crossingStrokesMatchTheSupersampledReference(h: Double) {
        let pts = [RasterPoint(5.3, 6.1), RasterPoint(40.7, 38.2), RasterPoint(41.2, 5.6), RasterPoint(4.9, 37.4)]
        let (w, hgt) = (48, 44)
        let ref = Self.reference(pts, h: h, width: w, height: hgt)
        let before = Self.errors(Self.render(pts, h: h, width: w, height: hgt, corrected: false), ref, width: w, height: hgt)
        let after = Self.errors(Self.render(pts, h: h, width: w, height: hgt, corrected: true), ref, width: w, height: hgt)
        // measured: h = 1: 65.2 → 4.2 levels at worst; 2.3: 15.5 → 4.4; 3: 8.7 → 4.4
        #expect(before.1 >= 8, "the uncorrected lens corners are over-covered (\(before))")
        #expect(after.0 == 0 && after.1 <= 5, "corrected: \(after.0) pixels off by more than 16, worst \(after.1)")
    }

    /// A stroke that does not cross itself gets no corrections (a bend is not a crossing).
    @Test func aBendIsNotACrossing() {
        let pts = [RasterPoint(5, 30), RasterPoint(20, 5), RasterPoint(35, 30), RasterPoint(36, 31)]
        #expect(Self.outline(pts, h: 3).1.isEmpty)
    }

    /// The corrections are added in every band from the same integers: a fill cut into bands of
    /// 7 rows gives the bytes of the whole fill.
    @Test func bandsGiveTheSameBytes() {
        let pts = [RasterPoint(5.3, 6.1), RasterPoint(40.7, 38.2), RasterPoint(41.2, 5.6), RasterPoint(4.9, 37.4)]
        let (w, hgt) = (48, 44)
        let whole = Self.render(pts, h: 2.3, width: w, height: hgt, corrected: true)
        let (outline, list) = Self.outline(pts, h: 2.3)
        var fixed = FixedPath()
        fixed.set(outline)
        fixed.corrections = list
        var banded = CoverageBitmap(width: w, height: hgt), tiled = CoverageBitmap(width: w, height: hgt)
        let r = PathRasterizer()
        for y0 in stride(from: 0, to: hgt, by: 7) {
            r.fill(fixed, rule: .nonZero, clip: RasterClip(x0: 0, y0: y0, x1: w, y1: min(hgt, y0 + 7)), into: &banded)
            for x0 in stride(from: 0, to: w, by: 9) {   // tiles: corrections left and right of a clip too
                r.fill(fixed, rule: .nonZero, clip: RasterClip(x0: x0, y0: y0, x1: min(w, x0 + 9), y1: min(hgt, y0 + 7)), into: &tiled)
            }
        }
        #expect(banded.bytes == whole.bytes)
        #expect(tiled.bytes == whole.bytes)
    }

    /// Under a reflection (a flipped context's y axis) the outline winds the other way; the
    /// corrections follow the sign: a 2 px line (65 levels off uncorrected) drawn through a
    /// y-flip matches the reference of the unflipped points within 5 levels.
    @Test func aReflectionKeepsTheCorrectionsSign() {
        let pts = [RasterPoint(5.3, 6.1), RasterPoint(40.7, 38.2), RasterPoint(41.2, 5.6), RasterPoint(4.9, 37.4)]
        let (w, hgt) = (48, 44)
        let flip = RasterTransform(a: 1, b: 0, c: 0, d: -1, tx: 0, ty: Double(hgt))
        let flippedPts = pts.map { RasterPoint($0.x, Double(hgt) - $0.y) }
        let (outline, list) = Self.outline(flippedPts, h: 1, transform: flip)
        #expect(!list.isEmpty)
        var fixed = FixedPath()
        fixed.set(outline)
        fixed.corrections = list
        var bmp = CoverageBitmap(width: w, height: hgt)
        PathRasterizer().fill(fixed, rule: .nonZero, clip: RasterClip(width: w, height: hgt), into: &bmp)
        let ref = Self.reference(pts, h: 1, width: w, height: hgt)
        #expect(Self.errors(bmp, ref, width: w, height: hgt).1 <= 5)
    }

    /// Dashed strokes and other caps/joins are left alone (documented limits): no corrections.
    @Test func onlyRoundUndashedStrokesAreCorrected() {
        var path = RasterPath()
        path.move(to: RasterPoint(5.3, 6.1)); path.line(to: RasterPoint(40.7, 38.2))
        path.line(to: RasterPoint(41.2, 5.6)); path.line(to: RasterPoint(4.9, 37.4))
        let stroker = PathStroker()
        var outline = RasterPath(), list: [SIMD3<Int32>] = []
        for style in [StrokeStyle(width: 4.6, cap: .butt, join: .round), StrokeStyle(width: 4.6, cap: .round, join: .miter),
                      StrokeStyle(width: 4.6, cap: .round, join: .bevel),
                      StrokeStyle(width: 4.6, cap: .round, join: .round, dashes: [10, 3])] {
            outline.removeAll()
            stroker.stroke(path, style: style, into: &outline)
            stroker.overlapCorrections(into: &list)
            #expect(list.isEmpty)
        }
        stroker.stroke(path, style: StrokeStyle(width: 4.6, cap: .round, join: .round), into: &outline)
        stroker.overlapCorrections(into: &list)
        #expect(!list.isEmpty)
    }

    /// A hostile stroke — 3,000 random points in a 40 px box, a crossing at nearly every pair of
    /// segments — stops at the budgets: at most `maxCrossings` crossings' worth of corrections.
    @Test func budgetsBoundAHostileStroke() {
        var rng = SplitMix64(seed: 7)
        var path = RasterPath()
        path.move(to: RasterPoint(20, 20))
        for _ in 0..<3000 { path.line(to: RasterPoint(40 * rng.unit(), 40 * rng.unit())) }
        let stroker = PathStroker()
        var outline = RasterPath(), list: [SIMD3<Int32>] = []
        stroker.stroke(path, style: StrokeStyle(width: 2, cap: .round, join: .round), into: &outline)
        stroker.overlapCorrections(into: &list)
        #expect(!list.isEmpty)
        // at most one entry per pixel (a pixel two crossings reach is dropped), in the 44 px box
        #expect(list.count <= 44 * 44)
        // the budgets run out at the same test in the C search and the Swift one
        for native in [false, true] {
            let twin = PathStroker()
            twin.nativeOverlap = native
            var o = RasterPath(), l: [SIMD3<Int32>] = []
            twin.stroke(path, style: StrokeStyle(width: 2, cap: .round, join: .round), into: &o)
            twin.overlapCorrections(into: &l)
            #expect(l == list, "native \(native)")
        }
        // A dense spiral of 40,000 tiny segments: thousands of segments per 8 px piece, every
        // piece's box overlapping its neighbours' — the segment tests count against the budget.
        var spiral = RasterPath()
        spiral.move(to: RasterPoint(200, 200))
        for i in 1...40_000 {
            let t = Double(i) * 0.01, rad = 5 + 0.004 * Double(i)
            spiral.line(to: RasterPoint(200 + rad * cos(t) + 0.001 * Double(i % 7), 200 + rad * sin(t)))
        }
        outline.removeAll(); list.removeAll()
        stroker.stroke(spiral, style: StrokeStyle(width: 2, cap: .round, join: .round), into: &outline)
        stroker.overlapCorrections(into: &list)
        #expect(list.count <= 400 * 400)
    }

    /// The pair budget counts every piece the x-sweep reaches, not only those whose boxes also
    /// overlap in y: a 48,000 px vertical line (6,000 pieces in one column, ~18 M box pairs
    /// reached, two overlapping a piece) spends it before the sweep gets to a crossing loop
    /// right of it — in the C search (its y tests eight at a time in AVX-512 lanes, or one at a
    /// time with `FLIPBOOK_AVX512=off`) as in the Swift one. The loop alone is corrected.
    @Test func thePairBudgetCountsEveryPieceTheSweepReaches() {
        var loop = RasterPath()
        loop.move(to: RasterPoint(100, 48_000))
        for p in [RasterPoint(140, 48_040), RasterPoint(140, 48_000), RasterPoint(100, 48_040)] { loop.line(to: p) }
        var path = RasterPath()
        path.move(to: RasterPoint(0, 0))
        for i in 1...6_000 { path.line(to: RasterPoint(0.001 * Double(i % 2), 8 * Double(i))) }
        for p in [RasterPoint(100, 48_000), RasterPoint(140, 48_040), RasterPoint(140, 48_000), RasterPoint(100, 48_040)] {
            path.line(to: p)
        }
        let style = StrokeStyle(width: 2, cap: .round, join: .round)
        var lists: [[SIMD3<Int32>]] = []
        for (p, native) in [(loop, false), (path, false), (path, true)] {
            let stroker = PathStroker()
            stroker.nativeOverlap = native
            var outline = RasterPath(), list: [SIMD3<Int32>] = []
            stroker.stroke(p, style: style, into: &outline)
            stroker.overlapCorrections(into: &list)
            lists.append(list)
        }
        #expect(!lists[0].isEmpty, "the loop crosses itself")
        #expect(lists[1].isEmpty, "the budget ran out before the loop")
        #expect(lists[2] == lists[1])
    }

    /// A closed figure 8 drawn as 48 lines (the wrap-around of a closed subpath; vertices that
    /// turn by a few degrees are not corners): 13 levels off uncorrected, within 5 corrected.
    @Test func closedFigureEight() {
        var pts: [RasterPoint] = []
        for k in 0..<48 {
            let t = (Double(k) + 0.5) / 48 * 2 * Double.pi      // no vertex at the crossing
            pts.append(RasterPoint(24 + 18 * sin(t), 20 + 14 * sin(t) * cos(t)))
        }
        var path = RasterPath()
        path.move(to: pts[0])
        for p in pts.dropFirst() { path.line(to: p) }
        path.close()
        let stroker = PathStroker()
        var outline = RasterPath(), list: [SIMD3<Int32>] = []
        stroker.stroke(path, style: StrokeStyle(width: 2, cap: .round, join: .round), into: &outline)
        stroker.overlapCorrections(into: &list)
        #expect(!list.isEmpty)
        var plain = FixedPath()
        plain.set(outline)
        var fixed = plain
        fixed.corrections = list
        let (w, hgt) = (48, 40)
        var a = CoverageBitmap(width: w, height: hgt), b = CoverageBitmap(width: w, height: hgt)
        PathRasterizer().fill(plain, rule: .nonZero, clip: RasterClip(width: w, height: hgt), into: &a)
        PathRasterizer().fill(fixed, rule: .nonZero, clip: RasterClip(width: w, height: hgt), into: &b)
        let ref = Self.reference(pts + [pts[0]], h: 1, width: w, height: hgt)
        let before = Self.errors(a, ref, width: w, height: hgt), after = Self.errors(b, ref, width: w, height: hgt)
        #expect(before.1 > 10 && after.1 <= 5, "before \(before), after \(after)")   // measured: 13.4 → 2.0
    }

    /// Random strokes at every scale, with hostile values (NaN, huge, tiny widths) among them:
    /// correcting never traps, and the corrected fill is deterministic across band clips.
    /// The C twin of a crossing's pixel work (`fbk_overlap_crossing`, with AVX-512 lanes when
    /// the CPU has them — `FLIPBOOK_AVX512=off` runs its scalar code) against the Swift code:
    /// the same corrections, in the same order, on random strokes — lines and cubics, widths
    /// from 0.1 to 40, scales from 1 to 10⁶ px, transforms that rotate, reflect and scale, W7's
    /// loops of 300 px — of which many cross themselves many times.
    @Test func theCCrossingGivesTheSwiftCorrections() {
        var rng = SplitMix64(seed: 2026_11_27)
        var compared = 0, mismatches: [Int] = []
        for case_ in 0..<400 {
            let scale = [1.0, 10, 300, 300, 1e3, 1e6][case_ % 6]
            var path = RasterPath()
            path.move(to: RasterPoint(32 + scale * (rng.unit() - 0.5), 32 + scale * (rng.unit() - 0.5)))
            for _ in 0..<(2 + case_ % 9) {
                let p = RasterPoint(32 + scale * (rng.unit() - 0.5), 32 + scale * (rng.unit() - 0.5))
                if case_ % 3 != 1 {
                    path.cubic(to: p, control1: RasterPoint(32 + scale * (rng.unit() - 0.5), 32 + scale * (rng.unit() - 0.5)),
                               control2: RasterPoint(32 + scale * (rng.unit() - 0.5), 32 + scale * (rng.unit() - 0.5)))
                } else {
                    path.line(to: p)
                }
            }
            if case_ % 11 == 0 { path.close() }
            let width = [0.1, 1, 2.5, 6, 40, 3.3][case_ % 6]
            let angle = Double(case_) * 0.7, k = [1.0, 0.5, 2][case_ % 3]
            var t = RasterTransform(a: k * cos(angle), b: k * sin(angle), c: -k * sin(angle), d: k * cos(angle), tx: 5, ty: -3)
            if case_ % 4 == 3 { t = RasterTransform(a: t.a, b: t.b, c: -t.c, d: -t.d, tx: t.tx, ty: t.ty) }   // a reflection
            if case_ % 5 == 0 { t = .identity }
            var lists: [[SIMD3<Int32>]] = []
            for native in [false, true] {
                let stroker = PathStroker()
                stroker.nativeOverlap = native
                var outline = RasterPath(), list: [SIMD3<Int32>] = []
                stroker.stroke(path, style: StrokeStyle(width: width, cap: .round, join: .round), transform: t, into: &outline)
                stroker.overlapCorrections(into: &list)
                lists.append(list)
            }
            if !lists[0].isEmpty { compared += 1 }
            if lists[0] != lists[1] { mismatches.append(case_) }
        }
        #expect(mismatches.isEmpty, "cases \(mismatches.prefix(8))")
        #expect(compared >= 100, "only \(compared) strokes had corrections")
    }

    /// A stroker used again (the compositor keeps its strokers between shapes and frames, with
    /// their scratch) gives the outline and corrections of a fresh one: random strokes, big and
    /// small, each through one stroker that has stroked all the others before it (with larger
    /// and smaller scratch than it needs) and through a new one.
    @Test func aReusedStrokerGivesAFreshStrokersResults() {
        var rng = SplitMix64(seed: 2026_11_28)
        let reused = PathStroker()
        var compared = 0, mismatches: [Int] = []
        for case_ in 0..<120 {
            let scale = [300.0, 10, 1e3, 40][case_ % 4]
            var path = RasterPath()
            path.move(to: RasterPoint(32 + scale * (rng.unit() - 0.5), 32 + scale * (rng.unit() - 0.5)))
            for _ in 0..<(1 + case_ % 7) {
                path.cubic(to: RasterPoint(32 + scale * (rng.unit() - 0.5), 32 + scale * (rng.unit() - 0.5)),
                           control1: RasterPoint(32 + scale * (rng.unit() - 0.5), 32 + scale * (rng.unit() - 0.5)),
                           control2: RasterPoint(32 + scale * (rng.unit() - 0.5), 32 + scale * (rng.unit() - 0.5)))
            }
            let style = StrokeStyle(width: [1.0, 4, 12, 0.5][case_ % 4], cap: .round, join: .round)
            var results: [(FixedPath, [SIMD3<Int32>])] = []
            for stroker in [reused, PathStroker()] {
                var flat = FixedPath(), list: [SIMD3<Int32>] = []
                stroker.stroke(path, style: style, transform: .identity,
                               visible: RasterClip(x0: -2000, y0: -2000, x1: 2000, y1: 2000), into: &flat)
                stroker.overlapCorrections(into: &list)
                results.append((flat, list))
            }
            if !results[1].1.isEmpty { compared += 1 }
            if results[0].0.points != results[1].0.points || results[0].0.contourEnds != results[1].0.contourEnds
                || results[0].1 != results[1].1 { mismatches.append(case_) }
        }
        #expect(mismatches.isEmpty, "cases \(mismatches.prefix(8))")
        #expect(compared >= 20, "only \(compared) strokes had corrections")
    }

    @Test func randomStrokesAreSafeAndBandIndependent() {
        var rng = SplitMix64(seed: 2026)
        let r = PathRasterizer()
        var corrected = 0
        for case_ in 0..<200 {
            let scale = [1.0, 10, 1e3, 1e6][case_ % 4]
            var path = RasterPath()
            path.move(to: RasterPoint(32 + scale * (rng.unit() - 0.5), 32 + scale * (rng.unit() - 0.5)))
            for k in 0..<(2 + case_ % 7) {
                let p = RasterPoint(32 + scale * (rng.unit() - 0.5), 32 + scale * (rng.unit() - 0.5))
                if case_ % 37 == 5 && k == 1 { path.line(to: RasterPoint(.nan, 3)); continue }
                if case_ % 3 == 0 {
                    path.cubic(to: p, control1: RasterPoint(64 * rng.unit(), 64 * rng.unit()),
                               control2: RasterPoint(64 * rng.unit(), 64 * rng.unit()))
                } else {
                    path.line(to: p)
                }
            }
            let width = [0.1, 1, 2.5, 6, 40][case_ % 5]
            let stroker = PathStroker()
            var outline = RasterPath(), list: [SIMD3<Int32>] = []
            stroker.stroke(path, style: StrokeStyle(width: width, cap: .round, join: .round), into: &outline)
            stroker.overlapCorrections(into: &list)
            var fixed = FixedPath()
            guard fixed.set(outline) else { continue }
            fixed.corrections = list
            if !list.isEmpty { corrected += 1 }
            var whole = CoverageBitmap(width: 64, height: 64), banded = CoverageBitmap(width: 64, height: 64)
            r.fill(fixed, rule: .nonZero, clip: RasterClip(width: 64, height: 64), into: &whole)
            for y0 in stride(from: 0, to: 64, by: 5) {
                for x0 in stride(from: 0, to: 64, by: 11) {
                    r.fill(fixed, rule: .nonZero, clip: RasterClip(x0: x0, y0: y0, x1: min(64, x0 + 11), y1: min(64, y0 + 5)), into: &banded)
                }
            }
            #expect(whole.bytes == banded.bytes, "case \(case_)")
        }
        #expect(corrected >= 20, "only \(corrected) of the random strokes were corrected")
    }

    /// Three parts through one point (an X with a vertical line through its crossing): the pixels
    /// that two crossings reach are left as the plain fill gives them, so no pixel gets worse —
    /// subtracting both lenses there took away coverage that was there (up to 155 levels on W7
    /// before the rule).
    @Test func threePartsThroughOnePointAreNotOverCorrected() {
        let pts = [RasterPoint(5.2, 5.4), RasterPoint(40.3, 40.1), RasterPoint(40.6, 5.3), RasterPoint(5.1, 40.4),
                   RasterPoint(22.6, 2.2), RasterPoint(22.9, 43.1)]
        let (w, hgt) = (48, 46)
        let ref = Self.reference(pts, h: 1.2, width: w, height: hgt)
        let plain = Self.render(pts, h: 1.2, width: w, height: hgt, corrected: false)
        let fixed = Self.render(pts, h: 1.2, width: w, height: hgt, corrected: true)
        var worse = 0.0
        for y in 0..<hgt {
            for x in 0..<w {
                let e0 = abs(Double(plain[x, y]) - 255 * ref[y * w + x]), e1 = abs(Double(fixed[x, y]) - 255 * ref[y * w + x])
                worse = max(worse, e1 - e0)
            }
        }
        #expect(worse <= 8, "a corrected pixel got \(worse) levels worse")
        #expect(Self.errors(fixed, ref, width: w, height: hgt).1 < Self.errors(plain, ref, width: w, height: hgt).1)
    }

    /// The clipped-square area of two strips against a 128 × 128 sample count, for random
    /// strips through and near the pixel.
    @Test func lensAreaMatchesSampling() {
        var rng = SplitMix64(seed: 99)
        for _ in 0..<300 {
            let ta = 2 * Double.pi * rng.unit(), tb = 2 * Double.pi * rng.unit()
            let nA = RasterPoint(cos(ta), sin(ta)), nB = RasterPoint(cos(tb), sin(tb))
            let (x, y) = (Double(Int(rng.unit() * 20)), Double(Int(rng.unit() * 20)))
            let centre = RasterPoint(x + 0.5, y + 0.5)
            let h = 0.2 + 2 * rng.unit()
            let cA = (nA * centre).sum() + 3 * (rng.unit() - 0.5), cB = (nB * centre).sum() + 3 * (rng.unit() - 0.5)
            let n = 128
            var inside = 0
            for j in 0..<n {
                for i in 0..<n {
                    let q = RasterPoint(x + (Double(i) + 0.5) / Double(n), y + (Double(j) + 0.5) / Double(n))
                    if abs((nA * q).sum() - cA) <= h && abs((nB * q).sum() - cB) <= h { inside += 1 }
                }
            }
            let area = _OverlapGeometry.lensArea(x: x, y: y, nA, cA, nB, cB, h: h)
            #expect(abs(area - Double(inside) / Double(n * n)) < 0.01, "area \(area), sampled \(Double(inside) / Double(n * n))")
        }
    }
}
