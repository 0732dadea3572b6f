import CFlipbookKernels
import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import FlipbookRaster
import FlipbookTestSupport

/// Strokes `path` and fills the outline (non-zero) into a 64×64 bitmap.
func strokeBitmap(_ path: RasterPath, _ style: StrokeStyle, size: Int = 64) -> (CoverageBitmap, Double) {
    var outline = RasterPath()
    let scale = PathStroker().stroke(path, style: style, into: &outline)
    return (rasterize(outline, rule: .nonZero, clip: RasterClip(width: size, height: size)), scale)
}

/// The flattened polyline of a path (tolerance 0.005 px, the peers' reference).
struct PolylineCollector: FlattenSink {
    var pts: [RasterPoint] = []
    var refinesCurveEnds = false
    mutating func moveTo(_ p: RasterPoint) { pts.append(p) }
    mutating func lineTo(_ p: RasterPoint, smooth: Bool) { pts.append(p) }
    mutating func endSubpath(closed: Bool) {}
}

/// Supersampled coverage of "within h of the polyline" (round caps and joins: the Minkowski sum),
/// n×n samples per pixel — the peers' ref-ss definition of a round stroke.
func referenceRoundStroke(_ pts: [RasterPoint], h: Double, x: Int, y: Int, n: Int = 16) -> Double {
    // segments that can reach the pixel (a 1-point polyline is a disk)
    let c = RasterPoint(Double(x) + 0.5, Double(y) + 0.5)
    var near: [(RasterPoint, RasterPoint)] = []
    for i in 0..<max(1, pts.count - 1) {
        let a = pts[i], b = pts[min(i + 1, pts.count - 1)]
        if distanceToSegment(c, a, b) <= h + 0.75 { near.append((a, b)) }
    }
    if near.isEmpty { return 0 }
    var inside = 0
    for sy in 0..<n { for sx in 0..<n {
        let p = RasterPoint(Double(x) + (Double(sx) + 0.5) / Double(n), Double(y) + (Double(sy) + 0.5) / Double(n))
        for (a, b) in near where distanceToSegment(p, a, b) <= h { inside += 1; break }
    } }
    return Double(inside) / Double(n * n)
}

func distanceToSegment(_ p: RasterPoint, _ a: RasterPoint, _ b: RasterPoint) -> Double {
    let ab = b - a
    let l2 = (ab * ab).sum()
    let t = l2 > 0 ? max(0, min(1, ((p - a) * ab).sum() / l2)) : 0
    let d = p - (a + t * ab)
    return (d * d).sum().squareRoot()
}

@Suite struct PathStrokerTests {
    static func line(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) -> RasterPath {
        var p = RasterPath(); p.move(to: x0, y0); p.line(to: x1, y1); return p
    }
    static func corner() -> RasterPath {           // right angle at (30, 10), turning down
        var p = RasterPath(); p.move(to: 10, 10); p.line(to: 30, 10); p.line(to: 30, 30); return p
    }

    @Test func buttCap() {
        // (10,20)→(30,20), width 4: exactly [10,30] × [18,22]
        let (bm, scale) = strokeBitmap(Self.line(10, 20, 30, 20), StrokeStyle(width: 4, cap: .butt))
        #expect(scale == 1)
        #expect(bm.area == 80)
        #expect(bm[10, 18] == 255 && bm[29, 21] == 255 && bm[9, 20] == 0 && bm[30, 20] == 0 && bm[20, 17] == 0 && bm[20, 22] == 0)
    }

    @Test func squareCap() {
        // pushed out by h = 2 at both ends: [8,32] × [18,22]
        let (bm, _) = strokeBitmap(Self.line(10, 20, 30, 20), StrokeStyle(width: 4, cap: .square))
        #expect(bm.area == 96)
        #expect(bm[8, 19] == 255 && bm[31, 20] == 255 && bm[7, 20] == 0 && bm[32, 20] == 0)
    }

    @Test func roundCap() {
        // two half disks of radius 2: area 80 + 4π; pixel (31,19) = [31,32]×[19,20] inside the
        // disk about (30,20) of radius 2 where (x−30)² + (y−20)² ≤ 4
        let (bm, _) = strokeBitmap(Self.line(10, 20, 30, 20), StrokeStyle(width: 4, cap: .round))
        // round caps' arc points sit ⅔ of a chord's sagitta outside the arc (chords within the
        // tolerance, 0.05 px, cross it): only each cap's two end chords, fixed at the segment's
        // offset points, still lose a third of what they would inscribed — 0.045 in all here,
        // where inscribed polygons (8 chords a cap) would lose 0.32
        let exact = 80 + 4 * Double.pi
        #expect(abs(bm.area - exact) <= 0.06, "\(bm.area) vs \(exact)")
        let ref = referenceRoundStroke([RasterPoint(10, 20), RasterPoint(30, 20)], h: 2, x: 31, y: 19, n: 64)
        #expect(abs(Double(bm[31, 19]) - 255 * ref) <= 6)
        #expect(bm[30, 19] == 255 && bm[32, 20] == 0)
    }

    @Test func joins() {
        // right-angle corner at V = (30,10), width 4: outer corner pixel (31,8) = [31,32]×[8,9]
        let miter = strokeBitmap(Self.corner(), StrokeStyle(width: 4, join: .miter)).0
        let bevel = strokeBitmap(Self.corner(), StrokeStyle(width: 4, join: .bevel)).0
        let round = strokeBitmap(Self.corner(), StrokeStyle(width: 4, join: .round)).0
        // miter: the square corner [30,32]×[8,10] is filled
        #expect(miter[31, 8] == 255 && miter[30, 8] == 255)
        // bevel: the line (30,8)–(32,10) cuts (30,8) corner to corner (½ → 128) and misses (31,8)
        #expect(bevel[31, 8] == 0 && bevel[30, 8] == 128)
        // round: the disk of radius 2 about V
        let ref = referenceRoundStroke([RasterPoint(30, 10)], h: 2, x: 31, y: 8, n: 64)
        #expect(abs(Double(round[31, 8]) - 255 * ref) <= 6)
        #expect(round[31, 8] > 0 && round[31, 8] < 255)
        // areas: two 20×4 legs overlapping in a 4×4 square at the corner, minus the inner
        // quarter: the body is the L [10,32]×[8,12] ∪ [28,32]×[8,30] with the outer corner square
        // [30,32]×[8,10] full (miter), half (bevel), a quarter disk (round)
        let body = 22.0 * 4 + 4 * 18 - 4   // L-shape without the outer corner square
        #expect(miter.area == body + 4)
        #expect(bevel.area == body + 2 + 1 / 255.0)   // two half pixels on the bevel round up (127.5 → 128)
        #expect(round.area <= body + Double.pi + 0.02 && round.area >= body + Double.pi - 0.02 * Double.pi)
        // the inner corner (28..30, 12..) is full in all three
        for bm in [miter, bevel, round] { #expect(bm[28, 12] == 255 && bm[29, 11] == 255) }
    }

    @Test func miterLimitSwitchesToBevel() {
        // a right angle has miter length / width = 1/sin 45° = √2 ≈ 1.414
        let over = strokeBitmap(Self.corner(), StrokeStyle(width: 4, join: .miter, miterLimit: 1.5)).0
        let under = strokeBitmap(Self.corner(), StrokeStyle(width: 4, join: .miter, miterLimit: 1.4)).0
        #expect(over[31, 8] == 255)
        #expect(under[31, 8] == 0 && under[30, 8] == 128)
        // a sharp 10° turn: ratio 1/sin 5° ≈ 11.5 > 10 (the default): bevelled, so nothing far beyond the vertex
        var sharp = RasterPath(); sharp.move(to: 5, 30); sharp.line(to: 45, 30)
        let a = 170.0 * Double.pi / 180
        sharp.line(to: 45 + 40 * cos(a), 30 + 40 * sin(a))
        let b10 = strokeBitmap(sharp, StrokeStyle(width: 4, join: .miter)).0
        let m20 = strokeBitmap(sharp, StrokeStyle(width: 4, join: .miter, miterLimit: 20)).0
        #expect(b10[48, 30] == 0 && b10[48, 29] == 0)
        #expect(m20[50, 29] > 0)                  // the tip reaches ~45 + 2·11.5 = 68 px... clipped by 64
    }

    @Test func dashPatternWithPhase() {
        // (0,10)→(40,10), width 2, dashes [4, 2], phase 1: on [0,3], [5,9], [11,15], …
        let (bm, _) = strokeBitmap(Self.line(0, 10, 40, 10), StrokeStyle(width: 2, dashes: [4, 2], dashPhase: 1))
        let on: Set<Int> = [0, 1, 2, 5, 6, 7, 8, 11, 12, 13, 14, 17, 18, 19, 20, 23, 24, 25, 26, 29, 30, 31, 32, 35, 36, 37, 38]
        for x in 0..<40 {
            #expect(bm[x, 9] == (on.contains(x) ? 255 : 0), "x=\(x)")
            #expect(bm[x, 10] == bm[x, 9])
        }
        #expect(bm.area == Double(on.count) * 2)          // [39,41] is off
        // phase 0: on [0,4], [6,10], …; an odd pattern [3] repeats as [3,3]
        let (bm0, _) = strokeBitmap(Self.line(0, 10, 40, 10), StrokeStyle(width: 2, dashes: [3]))
        #expect(bm0[0, 9] == 255 && bm0[2, 9] == 255 && bm0[3, 9] == 0 && bm0[5, 9] == 0 && bm0[6, 9] == 255)
    }

    /// Culling dashes to the visible rectangle keeps every visible pixel: random dashed
    /// polylines and curves reaching far outside a 64×64 window, every cap and join, under a
    /// rotation and scale, agree within one level with and without `visible` (the skip finds
    /// the pattern position in one step, not dash by dash, so a dash end can move by a
    /// rounding error of the arc length).
    @Test func culledDashesDrawTheSamePixels() {
        var rng = SplitMix64(seed: 7)
        func r() -> Double { rng.unit() * 400 - 170 }
        let caps: [StrokeStyle.Cap] = [.butt, .round, .square], joins: [StrokeStyle.Join] = [.miter, .round, .bevel]
        for trial in 0..<60 {
            var p = RasterPath()
            p.move(to: RasterPoint(r(), r()))
            for _ in 0..<6 {
                if rng.unit() < 0.5 { p.line(to: RasterPoint(r(), r())) }
                else { p.cubic(to: RasterPoint(r(), r()), control1: RasterPoint(r(), r()), control2: RasterPoint(r(), r())) }
            }
            if trial % 3 == 0 { p.close() }
            let style = StrokeStyle(width: 1 + rng.unit() * 9, cap: caps[trial % 3], join: joins[(trial / 3) % 3],
                                    miterLimit: 1 + rng.unit() * 12, dashes: [1 + rng.unit() * 12, 1 + rng.unit() * 8],
                                    dashPhase: rng.unit() * 30)
            let t = RasterTransform.rotation(rng.unit() * 6).concatenating(.scale(0.5 + rng.unit(), 0.5 + rng.unit()))
                .concatenating(.translation(32, 32))
            let clip = RasterClip(width: 64, height: 64)
            var full = RasterPath(), culled = RasterPath()
            PathStroker().stroke(p, style: style, transform: t, into: &full)
            PathStroker().stroke(p, style: style, transform: t, visible: clip, into: &culled)
            #expect(culled.points.count <= full.points.count)
            let a = rasterize(full, rule: .nonZero, clip: clip).bytes, b = rasterize(culled, rule: .nonZero, clip: clip).bytes
            let worst = zip(a, b).map { abs(Int($0) - Int($1)) }.max() ?? 0
            #expect(worst <= 1, "trial \(trial)")
        }
    }

    /// A dashed path billions of units long (a hostile scene file) costs what its visible part
    /// costs; with nothing to cull by, a pattern past the dash budget is stroked solid.
    @Test func hugeDashedPathsAreBounded() {
        var rect = RasterPath(); rect.addRect(x: 10, y: 10, width: 40, height: 4_294_967_296)
        var outline = RasterPath()
        PathStroker().stroke(rect, style: StrokeStyle(width: 2, dashes: [8, 6]), visible: RasterClip(width: 64, height: 64),
                             into: &outline)
        #expect(outline.points.count < 2_000)
        let bm = rasterize(outline, rule: .nonZero, clip: RasterClip(width: 64, height: 64))
        #expect(bm[14, 10] == 255 && bm[20, 10] == 0 && bm[28, 10] == 255)  // top edge: on [10,18], off [18,24], on [24,32]
        // No visible rectangle: 10⁸ dashes would be needed; the budget strokes it solid.
        var line = RasterPath(); line.move(to: 0, 10); line.line(to: 1e8, 10)
        var solid = RasterPath()
        PathStroker().stroke(line, style: StrokeStyle(width: 2, dashes: [0.5, 0.5]), into: &solid)
        let sb = rasterize(solid, rule: .nonZero, clip: RasterClip(width: 64, height: 64))
        #expect((0..<64).allSatisfy { sb[$0, 9] == 255 })
    }

    @Test func dashesFollowCornersAndClosedPaths() {
        // a closed square of side 20 (perimeter 80), dashes [10, 10] starting "on" at the start
        // corner: the last dash ends at the start: 4 dashes, each 10 long, width 2, butt
        var sq = RasterPath(); sq.addRect(x: 10, y: 10, width: 20, height: 20)
        let (bm, _) = strokeBitmap(sq, StrokeStyle(width: 2, dashes: [10, 10]))
        #expect(abs(bm.area - 4 * 20) < 1e-9)
        // phase 5: on over s ∈ [75, 80) ∪ [0, 5): the dash over the start corner joins the first
        // (one dash, mitred at the corner, not two butt ends)
        let (bm2, _) = strokeBitmap(sq, StrokeStyle(width: 2, join: .miter, dashes: [10, 10], dashPhase: 5))
        #expect(bm2[9, 9] == 255)                      // the start corner is mitred, not capped
    }

    @Test func zeroLengthSegments() {
        var dot = RasterPath(); dot.move(to: 20, 20); dot.line(to: 20, 20)
        // round caps: a disk of diameter 6
        let (round, _) = strokeBitmap(dot, StrokeStyle(width: 6, cap: .round))
        #expect(round.area <= 9 * Double.pi + 0.02 && round.area >= 9 * Double.pi - 0.02 * 6 * Double.pi)
        #expect(round[20, 20] == 255 && round[19, 19] == 255)
        // butt caps: nothing
        var outline = RasterPath()
        PathStroker().stroke(dot, style: StrokeStyle(width: 6, cap: .butt), into: &outline)
        #expect(outline.isEmpty)
        // square caps: a 6×6 square about the point
        let (square, _) = strokeBitmap(dot, StrokeStyle(width: 6, cap: .square))
        #expect(square.area == 36 && square[17, 17] == 255 && square[22, 22] == 255 && square[16, 20] == 0 && square[23, 20] == 0)
        // a lone move-to draws nothing; coincident points inside a path are ignored
        var lone = RasterPath(); lone.move(to: 5, 5)
        outline.removeAll()
        PathStroker().stroke(lone, style: StrokeStyle(width: 6, cap: .round), into: &outline)
        #expect(outline.isEmpty)
        var dup = RasterPath(); dup.move(to: 10, 20); dup.line(to: 20, 20); dup.line(to: 20, 20); dup.line(to: 30, 20)
        #expect(strokeBitmap(dup, StrokeStyle(width: 4)).0.area == 80)
        // a zero-length dash with round caps is a dot
        let (dots, _) = strokeBitmap(Self.line(4, 30, 60, 30), StrokeStyle(width: 4, cap: .round, dashes: [0, 10]))
        #expect(dots.area <= 24 * Double.pi + 0.05 && dots.area >= 24 * Double.pi - 0.02 * 24 * Double.pi)  // dots at 4, 14, …, 54
    }

    /// A stroke against the supersampled Minkowski-sum reference, pixel by pixel. `maxUnder`
    /// bounds under-coverage (holes); over-coverage by more than 16 is allowed on at most
    /// `maxOverPixels` pixels: where the stroke overlaps itself inside a pixel (a crossing, the
    /// fold at a cusp) exact-area filling counts the overlap twice before clamping — the known
    /// limit of the method (docs/rasterizer.md), also Blend2D's.
    func compareWithReference(_ path: RasterPath, width: Double, maxUnder: Int, maxOverPixels: Int, meanError: Double,
                              sourceLocation: SourceLocation = #_sourceLocation) {
        let (bm, _) = strokeBitmap(path, StrokeStyle(width: width, cap: .round, join: .round))
        var c = PolylineCollector()
        path.flatten(tolerance: 0.005, into: &c)
        var under = 0, over = 0, sum = 0, count = 0
        for y in 0..<64 { for x in 0..<64 {
            let ref = Int((255 * referenceRoundStroke(c.pts, h: width / 2, x: x, y: y, n: 16)).rounded())
            let d = Int(bm[x, y]) - ref
            if ref > 0 || bm[x, y] > 0 { sum += abs(d); count += 1 }
            under = max(under, -d)
            if d > 16 { over += 1 }
        } }
        let mean = Double(sum) / Double(max(count, 1))
        #expect(under <= maxUnder, "under-covered by \(under)", sourceLocation: sourceLocation)
        #expect(over <= maxOverPixels, "\(over) pixels over-covered by > 16", sourceLocation: sourceLocation)
        #expect(mean <= meanError, "mean |Δ| \(mean) over \(count) px", sourceLocation: sourceLocation)
    }

    @Test func cusp() {
        // P0 (10,10), P1 (54,54), P2 (10,54), P3 (54,10): B'(½) = 0, a cusp at (32, 43)
        var p = RasterPath()
        p.move(to: 10, 10)
        p.cubic(to: RasterPoint(54, 10), control1: RasterPoint(54, 54), control2: RasterPoint(10, 54))
        let (bm, _) = strokeBitmap(p, StrokeStyle(width: 5, cap: .round, join: .round))
        #expect(bm[32, 42] == 255 && bm[31, 41] == 255)       // the cusp is covered, no hole
        compareWithReference(p, width: 5, maxUnder: 8, maxOverPixels: 4, meanError: 1.5)
    }

    @Test func tightCurvesAndLoopsMatchTheReference() {
        var loop = RasterPath()                                 // a cubic with a loop (the stroke crosses itself)
        loop.move(to: 8, 40)
        loop.cubic(to: RasterPoint(56, 40), control1: RasterPoint(70, 0), control2: RasterPoint(-6, 0))
        compareWithReference(loop, width: 4, maxUnder: 8, maxOverPixels: 8, meanError: 1.5)   // the crossing's corner pixels
        var tight = RasterPath()                                // radius of curvature below h
        tight.move(to: 10, 50)
        tight.cubic(to: RasterPoint(14, 50), control1: RasterPoint(30, 10), control2: RasterPoint(-6, 10))
        compareWithReference(tight, width: 8, maxUnder: 8, maxOverPixels: 8, meanError: 1.5)   // pivot loops fold inside pixels
        var gentle = RasterPath()                               // no overlap: exact up to flattening
        gentle.move(to: 5, 30)
        gentle.cubic(to: RasterPoint(60, 30), control1: RasterPoint(20, 0), control2: RasterPoint(40, 60))
        compareWithReference(gentle, width: 3, maxUnder: 6, maxOverPixels: 0, meanError: 1.0)
    }

    @Test func hairlines() {
        // width 0.5: drawn 1 px wide, with a coverage scale of 0.5 for the caller
        let (bm, scale) = strokeBitmap(Self.line(10, 20, 30, 20), StrokeStyle(width: 0.5))
        #expect(scale == 0.5)
        #expect(bm.area == 40 * 128 / 255.0 && bm[15, 19] == 128 && bm[15, 20] == 128)   // rows 19, 20 half covered
        var outline = RasterPath()
        #expect(PathStroker().stroke(Self.line(0, 0, 1, 1), style: StrokeStyle(width: 0), into: &outline) == 0)
        #expect(outline.isEmpty)
        // a transform that scales by 4 makes a 0.5-unit line 2 px wide: not a hairline
        #expect(PathStroker().stroke(Self.line(0, 0, 5, 0), style: StrokeStyle(width: 0.5), transform: .scale(4, 4), into: &outline) == 1)
    }

    @Test func closedPathsMakeARing() {
        var sq = RasterPath(); sq.addRect(x: 10, y: 10, width: 20, height: 20)
        let (bm, _) = strokeBitmap(sq, StrokeStyle(width: 4, join: .miter))
        #expect(bm.area == 24 * 24 - 16 * 16)
        #expect(bm[20, 20] == 0 && bm[8, 8] == 255 && bm[11, 11] == 255)
        // the other orientation gives the same ring
        var ccw = RasterPath(); ccw.addPolygon([RasterPoint(10, 10), RasterPoint(10, 30), RasterPoint(30, 30), RasterPoint(30, 10)])
        #expect(strokeBitmap(ccw, StrokeStyle(width: 4, join: .miter)).0.bytes == bm.bytes)
    }
}

extension PathStrokerTests {
    /// The stroker writing straight into a `FixedPath` gives what `FixedPath.set` of its
    /// `RasterPath` outline gives: the same points, contours and bounds, for open and closed
    /// paths, every cap and join, dashes, transforms, hairlines and a non-finite point.
    @Test func strokingIntoAFixedPathIsSettingItFromTheOutline() {
        var rng = SplitMix64(seed: 5)
        let caps: [StrokeStyle.Cap] = [.butt, .round, .square], joins: [StrokeStyle.Join] = [.miter, .round, .bevel]
        for case_ in 0..<60 {
            var path = RasterPath()
            path.move(to: RasterPoint(60 * rng.unit(), 60 * rng.unit()))
            for _ in 0..<(1 + case_ % 5) {
                if rng.unit() < 0.5 {
                    path.line(to: RasterPoint(60 * rng.unit(), 60 * rng.unit()))
                } else {
                    path.cubic(to: RasterPoint(60 * rng.unit(), 60 * rng.unit()), control1: RasterPoint(60 * rng.unit(), 60 * rng.unit()),
                               control2: RasterPoint(60 * rng.unit(), 60 * rng.unit()))
                }
            }
            if case_ % 3 == 0 { path.close(); path.move(to: RasterPoint(10, 10)); path.line(to: RasterPoint(30, 12)) }
            if case_ == 59 { path.line(to: RasterPoint(.nan, 1)) }
            let style = StrokeStyle(width: [0.4, 2, 7][case_ % 3], cap: caps[case_ % 3], join: joins[(case_ / 3) % 3],
                                    dashes: case_ % 4 == 1 ? [5, 2] : [])
            let t = case_ % 2 == 0 ? RasterTransform.identity : RasterTransform(a: 1.5, b: 0.3, c: -0.2, d: 0.9, tx: 4, ty: -3)
            let stroker = PathStroker()
            var outline = RasterPath(), expected = FixedPath(), direct = FixedPath()
            let k0 = stroker.stroke(path, style: style, transform: t, into: &outline)
            let ok = expected.set(outline)
            let k1 = stroker.stroke(path, style: style, transform: t, into: &direct)
            #expect(k0 == k1)
            #expect(direct.points == expected.points && direct.contourEnds == expected.contourEnds, "case \(case_)")
            #expect(ok ? direct.bounds == expected.bounds : direct.isEmpty, "case \(case_)")
        }
    }
}

extension PathStrokerTests {
    /// `fbk_fixed_points` (FixedPath's bulk sink) is `PathRasterizer._fixed` per coordinate and
    /// Swift's min/max fold for the bounds, forwards and reversed: random coordinates, exact
    /// halves of 1/256 (the rounding's ties, either sign), values past the ±2²¹ px clamp, ±0 —
    /// and a NaN or an infinity is reported.
    @Test func theBulkFixedPointConversionIsTheSwiftOne() {
        var rng = SplitMix64(seed: 2026_11_27_5)
        var failures: [String] = []
        for trial in 0..<2_000 {
            let n = 1 + Int(rng.next() % 40)
            var xy: [Double] = (0..<(2 * n)).map { _ in
                switch rng.next() % 6 {
                case 0: return (Double(Int(rng.next() % 20_000)) - 10_000 + 0.5) / 256       // a tie
                case 1: return (rng.unit() - 0.5) * 1e7                                        // past the clamp
                case 2: return rng.next() % 2 == 0 ? 0.0 : -0.0
                default: return (rng.unit() - 0.5) * 4_000
                }
            }
            let bad = trial % 10 == 9
            if bad { xy[Int(rng.next() % UInt64(2 * n))] = [Double.nan, .infinity, -.infinity][trial % 3] }
            let reversed = trial % 2 == 1
            var expected: [Int32] = [], eb = SIMD4<Double>(-5, -5, 5, 5)
            for k in 0..<n {
                let i = reversed ? n - 1 - k : k
                let x = xy[2 * i], y = xy[2 * i + 1]
                expected += [Int32(truncatingIfNeeded: PathRasterizer._fixed(x)), Int32(truncatingIfNeeded: PathRasterizer._fixed(y))]
                eb = SIMD4(Swift.min(eb.x, x), Swift.min(eb.y, y), Swift.max(eb.z, x), Swift.max(eb.w, y))
            }
            var out = [Int32](repeating: 7, count: 2 * n), b = SIMD4<Double>(-5, -5, 5, 5)
            let ok = withUnsafeMutableBytes(of: &b) { bp in
                fbk_fixed_points(xy, n, reversed ? 1 : 0, &out, bp.baseAddress!.assumingMemoryBound(to: Double.self))
            }
            if (ok != 0) == bad { failures.append("trial \(trial): finite \(ok)") }
            if !bad && (out != expected || b != eb) { failures.append("trial \(trial): \(out.prefix(4)) vs \(expected.prefix(4)), \(b) vs \(eb)") }
        }
        #expect(failures.isEmpty, "\(failures.prefix(3))")
    }
}

extension PathStrokerTests {
    /// `FixedPath.set` on the native backend (points converted in bulk in C) and on the portable
    /// one (one by one in Swift) gives the same points, contours and bounds: random paths of
    /// lines, quadratics and cubics, open and closed, through transforms, and a non-finite point.
    @Test func bothBackendsSetTheSameFixedPath() {
        var rng = SplitMix64(seed: 2026_11_27_6)
        var compared = 0
        for case_ in 0..<200 {
            var path = RasterPath()
            for _ in 0..<(1 + case_ % 3) {
                path.move(to: RasterPoint(400 * rng.unit() - 100, 400 * rng.unit() - 100))
                for _ in 0..<(1 + case_ % 7) {
                    let p = RasterPoint(400 * rng.unit() - 100, 400 * rng.unit() - 100)
                    switch rng.next() % 3 {
                    case 0: path.line(to: p)
                    case 1: path.quad(to: p, control: RasterPoint(400 * rng.unit(), 400 * rng.unit()))
                    default: path.cubic(to: p, control1: RasterPoint(400 * rng.unit(), 400 * rng.unit()),
                                        control2: RasterPoint(400 * rng.unit(), 400 * rng.unit()))
                    }
                }
                if rng.next() % 2 == 0 { path.close() }
            }
            if case_ == 199 { path.line(to: RasterPoint(.infinity, 3)) }
            let t = case_ % 2 == 0 ? RasterTransform.identity : RasterTransform(a: 1.3, b: 0.4, c: -0.4, d: 1.3, tx: 7, ty: -2)
            var native = FixedPath(), portable = FixedPath()
            let a = native.set(path, transform: t, backend: .native)
            let b = portable.set(path, transform: t, backend: .portable)
            #expect(a == b, "case \(case_)")
            #expect(native.points == portable.points && native.contourEnds == portable.contourEnds, "case \(case_)")
            #expect(a ? native.bounds == portable.bounds : native.isEmpty, "case \(case_)")
            compared += native.points.count
        }
        #expect(compared > 10_000, "the paths have points to compare (\(compared))")
    }
}
