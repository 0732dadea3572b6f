import Foundation
import Testing
@testable import FlipbookRaster

/// Balanced flattening (`PathFlattening.balanced`): interior points sit ⅔ of their chords'
/// sagitta outside the curve, so the polyline crosses the curve — its area error is ~0 and its
/// largest distance from the curve is ⅔ of the tolerance — and a sink that asks for refined ends
/// gets first and last chords that follow the curve's end tangents.
struct BalancedFlatteningTests {
    /// The flattened polyline of one subpath (`PolylineCollector`, PathStrokerTests.swift).
    typealias Points = PolylineCollector

    static func circle(_ r: Double) -> RasterPath {
        var p = RasterPath(); p.addEllipse(cx: 0, cy: 0, rx: r, ry: r); return p
    }

    static func polygonArea(_ pts: [RasterPoint]) -> Double {
        var a = 0.0
        for i in pts.indices { let p = pts[i], q = pts[(i + 1) % pts.count]; a += p.x * q.y - q.x * p.y }
        return abs(a) / 2
    }

    /// The curve's radius at angle φ, from a dense flattening of the same path (tol 10⁻⁶ px).
    static func radius(of dense: [(Double, Double)], at phi: Double) -> Double {
        var lo = 0, hi = dense.count - 1
        if phi <= dense[lo].0 || phi >= dense[hi].0 { return dense[phi <= dense[lo].0 ? lo : hi].1 }
        while hi - lo > 1 { let m = (lo + hi) / 2; if dense[m].0 <= phi { lo = m } else { hi = m } }
        let (a0, r0) = dense[lo], (a1, r1) = dense[hi]
        return r0 + (r1 - r0) * (phi - a0) / (a1 - a0)
    }

    /// Against the curve itself (a dense flattening of the same four cubics): every vertex and
    /// every chord midpoint within ⅔·tol (+1 %), nearly all vertices outside the curve and
    /// nearly all chord midpoints inside it, and the polygon's area error under 15 % of what
    /// inscribed chords at the same tolerance lose.
    @Test(arguments: [10.0, 40.0, 200.0])
    func circleStraddlesItsCurve(r: Double) {
        let tol = PathFlattening.defaultTolerance
        func polyline(_ t: Double) -> [RasterPoint] {
            var s = Points()
            Self.circle(r).flatten(tolerance: t, into: &s)
            var pts = s.pts
            if let f = pts.first, let l = pts.last, f == l { pts.removeLast() }
            return pts
        }
        let pts = polyline(tol), fine = polyline(1e-6)
        let dense = fine.map { (atan2($0.y, $0.x), ($0 * $0).sum().squareRoot()) }.sorted { $0.0 < $1.0 }
        func offset(_ p: RasterPoint) -> Double {
            (p * p).sum().squareRoot() - Self.radius(of: dense, at: atan2(p.y, p.x))
        }
        var outside = 0, inside = 0
        for i in pts.indices {
            let p = pts[i], q = pts[(i + 1) % pts.count]
            let dv = offset(p), dm = offset(0.5 * (p + q))
            #expect(abs(dv) <= 2.0 / 3.0 * tol * 1.01, "vertex \(i): \(dv)")
            #expect(abs(dm) <= 2.0 / 3.0 * tol * 1.01, "midpoint \(i): \(dm)")
            if dv > 0 { outside += 1 }
            if dm < 0 { inside += 1 }
        }
        #expect(outside >= pts.count - 4)     // the 4 curve ends lie on the curve
        #expect(inside >= pts.count - 8)      // the chords at the curve ends may not dip inside
        // Inscribed chords lose ⅔·tol of the radius on average: a relative area of (4/3)·tol/r.
        let exact = Self.polygonArea(fine), inscribedLoss = 4.0 / 3.0 * tol / r
        let err = abs(Self.polygonArea(pts) - exact) / exact
        #expect(err < 0.15 * inscribedLoss, "\(err) vs inscribed \(inscribedLoss)")
    }

    /// The distance from `q` to the polyline `dense` (the nearest of its segments).
    static func distance(_ q: RasterPoint, to dense: [RasterPoint]) -> Double {
        dense.indices.dropLast().map { distanceToSegment(q, dense[$0], dense[$0 + 1]) }.min() ?? .infinity
    }

    /// Curves whose curvature varies along them (the quarter counts of `cubicInterior`, with
    /// their mixed piece lengths at the quarter boundaries), a quadratic, and a short curve that
    /// one chord would cover: every vertex and chord middle within ⅔·tol (+2 %) of the curve,
    /// refined ends on it.
    @Test(arguments: [false, true])
    func everyKindOfCurveStaysWithinTwoThirds(refine: Bool) {
        let tol = PathFlattening.defaultTolerance
        var paths: [RasterPath] = []
        var p = RasterPath(); p.move(to: RasterPoint(0, 0))
        p.cubic(to: RasterPoint(60, 0), control1: RasterPoint(200, 0), control2: RasterPoint(20, 90)); paths.append(p)
        p = RasterPath(); p.move(to: RasterPoint(5, 5))
        p.cubic(to: RasterPoint(120, 10), control1: RasterPoint(8, 80), control2: RasterPoint(100, -70)); paths.append(p)
        p = RasterPath(); p.move(to: RasterPoint(0, 0))
        p.quad(to: RasterPoint(80, 0), control: RasterPoint(30, 70)); paths.append(p)
        p = RasterPath(); p.move(to: RasterPoint(0, 0))
        p.quad(to: RasterPoint(3, 0), control: RasterPoint(1.5, 0.35)); paths.append(p)          // sagitta 0.175·… one chord would be 0.0875 off
        p = RasterPath(); p.move(to: RasterPoint(0, 0))
        p.cubic(to: RasterPoint(4, 0), control1: RasterPoint(1, 0.12), control2: RasterPoint(3, 0.12)); paths.append(p)
        // the first cubic takes the quarter counts
        let (p0, p1, p2, p3) = (RasterPoint(0, 0), RasterPoint(200, 0), RasterPoint(20, 90), RasterPoint(60, 0))
        let n = PathFlattening.cubicPieces(p0, p1, p2, p3, tolerance: tol)
        var all = Points(); PathFlattening.cubicInterior(p0, p1, p2, p3, tolerance: tol, into: &all)
        #expect(n >= 8 && all.pts.count + 1 < n, "quarter counts: \(all.pts.count + 1) pieces of \(n)")
        for path in paths {
            var s = Points(); s.refinesCurveEnds = refine
            path.flatten(tolerance: tol, into: &s)
            var fine = Points(); path.flatten(tolerance: 1e-6, into: &fine)
            #expect(s.pts.count >= 3)                 // never a lone chord here
            for i in 0..<(s.pts.count - 1) {
                let dv = Self.distance(s.pts[i], to: fine.pts), dm = Self.distance(0.5 * (s.pts[i] + s.pts[i + 1]), to: fine.pts)
                #expect(dv <= 2.0 / 3.0 * tol * 1.02, "vertex \(i): \(dv)")
                #expect(dm <= 2.0 / 3.0 * tol * 1.02, "midpoint \(i): \(dm)")
            }
            if refine {
                #expect(Self.distance(s.pts[1], to: fine.pts) < 1e-4)
                #expect(Self.distance(s.pts[s.pts.count - 2], to: fine.pts) < 1e-4)
            }
        }
    }

    /// The rasterized circle's area equals the flattened curve's within 0.01 % (the inscribed
    /// polygon at this tolerance: ~0.2 % small).
    @Test func rasterizedCircleAreaIsUnbiased() {
        var p = RasterPath(); p.addEllipse(cx: 64.3, cy: 60.7, rx: 50, ry: 50)
        var bm = CoverageBitmap(width: 128, height: 128)
        PathRasterizer().fill(p, rule: .nonZero, clip: RasterClip(width: 128, height: 128), into: &bm)
        var s = Points()
        p.flatten(tolerance: 1e-6, into: &s)
        let exact = Self.polygonArea(s.pts)
        #expect(abs(bm.area - exact) / exact < 1e-4, "\(bm.area) vs \(exact)")
    }

    /// Refined ends: the first and last chords of a curve turn from its end tangents by about ⅛
    /// of a piece's angle; without the refinement by about ⁵⁄₁₂ of it.
    @Test func refinedEndsFollowTheTangents() {
        let r = 40.0
        var p = RasterPath()
        p.move(to: RasterPoint(r, 0))
        p.addArcQuarter(r)
        for refine in [false, true] {
            var s = Points(); s.refinesCurveEnds = refine
            p.flatten(tolerance: PathFlattening.defaultTolerance, into: &s)
            // the tangents of the counter-clockwise quarter: +y at (r, 0), −x at (0, r)
            let d0 = s.pts[1] - s.pts[0], d1 = s.pts[s.pts.count - 1] - s.pts[s.pts.count - 2]
            let tilt0 = abs(atan2(d0.x, d0.y)), tilt1 = abs(atan2(d1.y, -d1.x))
            let pieces = Double(s.pts.count - 1 - (refine ? 2 : 0))
            let pieceAngle = 0.5 * Double.pi / pieces
            for tilt in [tilt0, tilt1] {
                if refine {                 // ~⅛ of a piece's angle
                    #expect(tilt <= 0.16 * pieceAngle, "tilt \(tilt) vs piece \(pieceAngle)")
                } else {                    // ~⁵⁄₁₂ of it
                    #expect(tilt >= 0.3 * pieceAngle, "tilt \(tilt) vs piece \(pieceAngle)")
                }
            }
        }
    }
}

extension RasterPath {
    /// A quarter circle of radius r about the origin from (r, 0) to (0, r) as one cubic.
    fileprivate mutating func addArcQuarter(_ r: Double) {
        let k = 0.5522847498 * r
        cubic(to: RasterPoint(0, r), control1: RasterPoint(r, k), control2: RasterPoint(k, r))
    }
}

/// Dash ends cut inside a curve are squared to their chord: a dashed stroke with butt caps is
/// flattened at `PathStroker.dashedCapTolerance` of the tolerance, so each cap edge of a dashed
/// circle (r = 40) is within 1.75° of the radius through its middle (half the widest piece's
/// angle bounds it: 1.72°; 1.51° measured; at the full tolerance 2.71° and 2.11°).
struct DashedCapTests {
    static func worstCapTilt(_ stroker: PathStroker) -> Double {
        let r = 40.0, h = 1.5
        var circle = RasterPath(); circle.addEllipse(cx: 0, cy: 0, rx: r, ry: r)
        var outline = RasterPath()
        _ = stroker.stroke(circle, style: StrokeStyle(width: 2 * h, cap: .butt, join: .miter, dashes: [17, 6]), into: &outline)
        // the outline's segments from one side of the stroke to the other are the caps
        var worst = 0.0, caps = 0
        var pts: [RasterPoint] = []
        var pi = 0
        func scan() {
            guard pts.count > 1 else { return }
            for i in pts.indices {
                let a = pts[i], b = pts[(i + 1) % pts.count]
                let ra = (a * a).sum().squareRoot(), rb = (b * b).sum().squareRoot()
                guard abs(abs(ra - rb) - 2 * h) < 0.2 else { continue }
                let d = b - a, m = 0.5 * (a + b)
                let cross = abs(d.x * m.y - d.y * m.x) / ((d * d).sum().squareRoot() * (m * m).sum().squareRoot())
                worst = max(worst, asin(min(1, cross)) * 180 / Double.pi)
                caps += 1
            }
        }
        for v in outline.verbs {
            switch v {
            case .move: scan(); pts = [outline.points[pi]]; pi += 1
            case .line: pts.append(outline.points[pi]); pi += 1
            case .quad: pi += 2
            case .cubic: pi += 3
            case .close: break
            }
        }
        scan()
        #expect(caps >= 20)
        return worst
    }

    @Test func dashEndsAreSquare() {
        #expect(Self.worstCapTilt(PathStroker()) < 1.75)    // measured 1.51°; bound 1.72°
    }

    /// The same dashes at 2.5 × the tolerance (what the default would give without the
    /// dashed-cap share): the tilt this guards against.
    @Test func dashEndsTiltWithoutTheFinerTolerance() {
        let s = PathStroker(); s.tolerance = PathFlattening.defaultTolerance / PathStroker.dashedCapTolerance
        #expect(Self.worstCapTilt(s) > 1.9)                 // measured 2.11°; bound 2.71°
    }
}
