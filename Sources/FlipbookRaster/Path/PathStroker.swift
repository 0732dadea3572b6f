#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How a path is stroked (the CoreGraphics / SVG parameters).
public struct StrokeStyle: Sendable, Hashable {
    public enum Cap: Sendable, Hashable { case butt, round, square }
    public enum Join: Sendable, Hashable { case miter, round, bevel }

    /// Line width in the path's (user) units. ≤ 0 or non-finite draws nothing.
    public var width: Double
    public var cap: Cap
    public var join: Join
    /// Miter joins whose miter length / width exceeds this (1/sin(φ/2) for the angle φ between
    /// the segments) are drawn as bevels. CoreGraphics' default is 10.
    public var miterLimit: Double
    /// Dash pattern: alternating on/off lengths in user units, starting with "on". An odd
    /// count is repeated (as CoreGraphics and SVG do); empty, any negative length or a zero
    /// total means solid. Zero-length "on" dashes draw their caps (dots with round caps).
    public var dashes: [Double]
    /// Distance into the dash pattern at which the path starts.
    public var dashPhase: Double

    /// The most dashes one stroke is cut into (after culling to the visible rectangle). A
    /// pattern finer than that over the visible length is stroked solid instead — Skia's
    /// choice too: at that density the dashes are far below a pixel and the outline would
    /// cost memory in proportion to the path's length, not the picture's.
    public static let maximumDashCount = 1_000_000

    public init(width: Double = 1, cap: Cap = .butt, join: Join = .miter, miterLimit: Double = 10,
                dashes: [Double] = [], dashPhase: Double = 0) {
        self.width = width; self.cap = cap; self.join = join; self.miterLimit = miterLimit
        self.dashes = dashes; self.dashPhase = dashPhase
    }
}

/// Turns a stroked path into a closed outline that, **filled with the non-zero rule**, is the
/// stroke.
///
/// ## Construction
///
/// 1. The path is flattened in user space with `tolerance / transform.maxScale`, so the outline
///    is within ``tolerance`` device pixels of the exact offset curve. Coincident points (closer
///    than 1e-9 units) are merged: zero-length segments disappear.
/// 2. Dashes cut the polylines by arc length (``StrokeStyle/dashes``, ``StrokeStyle/dashPhase``);
///    on a closed subpath a dash running over the start joins the first dash.
/// 3. Each polyline is offset by h = width/2 on both sides: side A = P + h·N, side B = P − h·N,
///    N = (−d.y, d.x) the normal of the segment direction d. An open polyline becomes ONE
///    contour: A forwards, end cap, B backwards, start cap; a closed one two contours: A
///    forwards and B backwards. Every contour therefore has the stroke's body on the same side
///    of its direction of travel, so overlapping parts (self-crossing paths, dashes, dots) add
///    up with the same sign and never cancel into holes under non-zero.
/// 4. Joins. At each vertex, turning by θ (cos θ = d₁·d₂, sin θ = |d₁ × d₂|):
///    - the **outer** side gets the join: bevel (the two offset points), miter (plus the tip
///      V + σh(N₁+N₂)/(1 + cos θ) when 1/cos(θ/2) ≤ miterLimit, else bevel), or round (an arc of
///      radius h about V, flattened to the tolerance). Vertices *inside* a curve always join
///      round: the offset of a smooth curve is smooth, and this is exactly the Minkowski sum of
///      the flattened polyline with a disk. A round join whose miter point lies within the
///      tolerance of its arc (h(1/cos(θ/2) − 1) ≤ tol: nearly every vertex of a flattened curve)
///      is that one point instead of the two offset ends: the outline then lies outside the
///      exact offset at vertices and inside it along chords, instead of wholly inside, and has a
///      third fewer points (W7's stroke outlines: 436,000 → 301,000 points a frame).
///    - the **inner** side meets at the intersection X of the two offset lines, found at
///      e = h·tan(θ/2) = h·sin θ/(1 + cos θ) back from each offset end, when both segments are
///      long enough (e fits in what remains of them). Then the outline is exact and has no
///      overlap. Otherwise (tight curves whose radius is below h, very short segments) it goes
///      offset end → V → next offset start, the usual robust "pivot": this adds a small loop of
///      winding 2 inside the stroke body, which non-zero fills as 1.
/// 5. Caps: butt (nothing), square (the offset ends pushed out by h along d), round (a half circle
///    of radius h). A subpath that has segments but zero length draws both caps around its point:
///    a disk of diameter width (round), a width × width square aligned with the x axis (square),
///    nothing (butt). A lone move-to draws nothing.
/// 6. **Hairlines**: if the device width (width × √|det M|) is below 1 px, the outline is built
///    for a device width of exactly 1 and ``stroke(_:style:transform:into:)`` returns the
///    device width as a coverage scale: the caller multiplies its opacity (or the coverage) by
///    it. A 0.25 px line is thus a 1 px line at a quarter of the alpha — the usual
///    approximation, which keeps thin lines from vanishing between pixel centres.
///
/// What exact-area filling of this outline cannot do: where the stroke overlaps itself inside
/// one pixel (a self-crossing, the pivot loops of tight curves) the pixel's ∫winding counts the
/// overlap twice before the clamp to 1, so such pixels can be slightly over-covered; see
/// docs/rasterizer.md.
///
/// A stroker reuses its scratch arrays (no allocation per stroke once they have grown); it is
/// not thread-safe: one per thread.
public final class PathStroker {
    /// Device-pixel tolerance for flattening the path and the round joins/caps.
    public var tolerance: Double = PathFlattening.defaultTolerance

    /// The share of ``tolerance`` the curves of a dashed stroke with butt or square caps are
    /// flattened to (0.4: 0.02 px at the default). A dash end cut inside a curve is squared to
    /// its chord, which turns from the curve by up to half a piece's angle: on a 40 px radius
    /// circle at most 1.72° (2.71° at the full tolerance). Joins and caps keep ``tolerance``.
    public static let dashedCapTolerance = 0.4

    // Flattened polylines: points, per-point "smooth" flags, subpaths.
    struct Sub { var start: Int; var count: Int; var closed: Bool; var drawn: Bool; var dir: RasterPoint }
    var pts: [RasterPoint] = []
    var smooth: [Bool] = []
    var subs: [Sub] = []
    // Dash output.
    var dpts: [RasterPoint] = []
    var dsmooth: [Bool] = []
    var dsubs: [Sub] = []
    // Per polyline.
    var dirs: [RasterPoint] = []
    var lens: [Double] = []
    var sideA: [RasterPoint] = []
    var sideB: [RasterPoint] = []
    var scratch: [RasterPoint] = []
    /// The last stroke's user half-width and transform when its outline came from `pts` (not
    /// dashed) with round caps and round joins — what `overlapCorrections(into:)` reads; nil
    /// otherwise.
    var lastStroke: (halfWidth: Double, transform: RasterTransform)? = nil
    /// `overlapCorrections(into:)`'s arrays, kept between strokes.
    var overlapScratch = _OverlapGeometry(h: 0)
    /// Whether `overlapCorrections(into:)` takes a crossing's pixels through the C twin
    /// (`fbk_overlap_crossing`); nil: on the native backend (tests set it to compare the two).
    var nativeOverlap: Bool? = nil

    public init() {}

    /// The widest stroke drawn, in device pixels (2²³: four times the rasterizer's coordinate
    /// limit, so every pixel a wider stroke would cover is still covered).
    public static let maximumDeviceWidth: Double = 8_388_608

    /// Appends the stroke outline of `path` (user space, mapped by `transform`) to `outline`, in
    /// device space. Returns the coverage scale: 1, or the device width for hairlines (< 1), or
    /// 0 when nothing is drawn. Fill the outline with ``FillRule/nonZero``.
    ///
    /// `visible` (device pixels), when given, is the only part of the outline the caller will
    /// fill: dashes wholly outside it (with room for caps and miters) are skipped by arithmetic
    /// on the pattern instead of being built, so a dashed path a billion units long costs what
    /// its visible part costs. The pixels inside `visible` are the same with or without it.
    @discardableResult
    public func stroke(_ path: RasterPath, style: StrokeStyle, transform: RasterTransform = .identity,
                       visible: RasterClip? = nil, into outline: inout RasterPath) -> Double {
        _stroke(path, style: style, transform: transform, visible: visible, into: &outline)
    }

    /// ``stroke(_:style:transform:visible:into:)-(_,_,_,_,RasterPath)``, the outline written
    /// straight into `fixed` (replacing its contents and clearing its corrections): the bytes
    /// of `FixedPath.set` of the outline, without building the outline as a path first. `fixed`
    /// is empty when nothing is drawn or a point is not finite.
    @discardableResult
    public func stroke(_ path: RasterPath, style: StrokeStyle, transform: RasterTransform = .identity,
                       visible: RasterClip? = nil, into fixed: inout FixedPath) -> Double {
        var k = 0.0
        fixed._build { sink in k = _stroke(path, style: style, transform: transform, visible: visible, into: &sink) }
        return k
    }

    func _stroke<O: _OutlineSink>(_ path: RasterPath, style: StrokeStyle, transform: RasterTransform,
                                  visible: RasterClip?, into outline: inout O) -> Double {
        lastStroke = nil
        guard style.width > 0, style.width.isFinite else { return 0 }
        let det = abs(transform.a * transform.d - transform.b * transform.c)
        let scale = transform.maxScale
        guard det > 0, det.isFinite, scale > 0 else { return 0 }
        var width = style.width
        var coverageScale = 1.0
        let deviceWidth = width * det.squareRoot()
        if deviceWidth < 1 {
            width = 1 / det.squareRoot()
            coverageScale = deviceWidth
        } else if deviceWidth > Self.maximumDeviceWidth {
            // Wider than the rasterizer's coordinate range (±2²¹ px) can show: drawn as this
            // width. Left alone, a 1e300 width makes every round join and every smooth vertex
            // of a flattened curve an arc of the maximum chord count (found by the scene fuzz
            // target: over 1 GiB for one frame).
            width = Self.maximumDeviceWidth / det.squareRoot()
        }
        // Dashes with butt or square caps: a dash end cut inside a curve is squared to its
        // chord, which turns from the curve by about half a piece's angle (the curve ends are
        // refined, the cuts cannot be) — flattened at ``dashedCapTolerance`` of the tolerance,
        // the pieces' angle shrinks by its square root.
        let tol = (tolerance > 0 ? tolerance : PathFlattening.defaultTolerance) / scale
        let curveTol = style.cap != .round && Self.dashPattern(style.dashes) != nil ? tol * Self.dashedCapTolerance : tol

        // 1. Flatten in user space.
        var c = Collector(refinesCurveEnds: style.cap != .round, pts: pts, smooth: smooth, subs: subs)
        pts = []; smooth = []; subs = []
        c.pts.removeAll(keepingCapacity: true); c.smooth.removeAll(keepingCapacity: true); c.subs.removeAll(keepingCapacity: true)
        path.flatten(transform: .identity, tolerance: curveTol, into: &c)
        pts = c.pts; smooth = c.smooth; subs = c.subs

        // 2. Dashes.
        var usePts = pts, useSmooth = smooth, useSubs = subs
        if let pattern = Self.dashPattern(style.dashes),
           dash(pattern: pattern, phase: style.dashPhase,
                cull: Self.userCullBox(visible, transform, margin: width / 2 * (max(style.miterLimit, 1) + 1) + 2 * tol)) {
            usePts = dpts; useSmooth = dsmooth; useSubs = dsubs
        } else if style.join == .round && style.cap == .round {
            lastStroke = (width / 2, transform)
        }

        // 3-5. Offset each polyline.
        var ctx = Offsetter(h: width / 2, style: style, tol: tol, transform: transform,
                            dirs: dirs, lens: lens, sideA: sideA, sideB: sideB, scratch: scratch)
        dirs = []; lens = []; sideA = []; sideB = []; scratch = []
        for s in useSubs where s.drawn {
            ctx.strokePolyline(usePts, useSmooth, s, into: &outline)
        }
        dirs = ctx.dirs; lens = ctx.lens; sideA = ctx.sideA; sideB = ctx.sideB; scratch = ctx.scratch
        return coverageScale
    }

    /// The user-space box (minX, minY, maxX, maxY) covering the device rectangle `visible`,
    /// grown by `margin` user units; nil when there is nothing to cull by.
    static func userCullBox(_ visible: RasterClip?, _ t: RasterTransform, margin: Double) -> (Double, Double, Double, Double)? {
        guard let v = visible, margin.isFinite else { return nil }
        let det = t.a * t.d - t.b * t.c
        guard det != 0, det.isFinite else { return nil }
        // inverse of (x, y) ↦ (a x + c y + tx, b x + d y + ty)
        func inv(_ X: Double, _ Y: Double) -> (Double, Double) {
            let x = X - t.tx, y = Y - t.ty
            return ((t.d * x - t.c * y) / det, (-t.b * x + t.a * y) / det)
        }
        let cs = [inv(Double(v.x0), Double(v.y0)), inv(Double(v.x1), Double(v.y0)),
                  inv(Double(v.x0), Double(v.y1)), inv(Double(v.x1), Double(v.y1))]
        let box = (cs.map(\.0).min()! - margin, cs.map(\.1).min()! - margin,
                   cs.map(\.0).max()! + margin, cs.map(\.1).max()! + margin)
        guard box.0.isFinite, box.1.isFinite, box.2.isFinite, box.3.isFinite else { return nil }
        return box
    }

    /// The part [v0, v1] (distances from `a`) of the segment a → a + u·len inside `box`
    /// (Liang–Barsky); v0 > v1 when it misses.
    @inline(__always)
    static func visibleSpan(_ a: RasterPoint, _ u: RasterPoint, _ len: Double, _ box: (Double, Double, Double, Double)?) -> (Double, Double) {
        guard let box else { return (0, len) }
        var t0 = 0.0, t1 = len
        for (p, d, lo, hi) in [(a.x, u.x, box.0, box.2), (a.y, u.y, box.1, box.3)] {
            if d == 0 {
                if p < lo || p > hi { return (1, 0) }
            } else {
                var e0 = (lo - p) / d, e1 = (hi - p) / d
                if e0 > e1 { swap(&e0, &e1) }
                t0 = max(t0, e0); t1 = min(t1, e1)
            }
        }
        return t0 <= t1 ? (t0, t1) : (1, 0)
    }

    /// The pattern to use, or nil for a solid stroke.
    static func dashPattern(_ d: [Double]) -> [Double]? {
        guard !d.isEmpty, d.allSatisfy({ $0 >= 0 && $0.isFinite }) else { return nil }
        let p = d.count % 2 == 1 ? d + d : d
        let total = p.reduce(0, +)
        return total > 0 ? p : nil
    }

    // MARK: Flattening into polylines

    struct Collector: FlattenSink {
        /// Butt and square caps take their direction from the end chords: refined ends keep
        /// them square to the curve. A round cap does not depend on it.
        var refinesCurveEnds = false
        var pts: [RasterPoint]
        var smooth: [Bool]
        var subs: [Sub]
        var start = 0
        var drawn = false
        var dir = RasterPoint(1, 0)

        mutating func moveTo(_ p: RasterPoint) {
            start = pts.count
            pts.append(p); smooth.append(false)
            drawn = false
        }
        mutating func lineTo(_ p: RasterPoint, smooth s: Bool) {
            drawn = true
            let last = pts[pts.count - 1]
            let d = p - last
            if (d * d).sum() <= 1e-18 {                 // coincident: merge (a corner wins)
                smooth[smooth.count - 1] = smooth[smooth.count - 1] && s
                return
            }
            pts.append(p); smooth.append(s)
        }
        mutating func endSubpath(closed: Bool) {
            var n = pts.count - start
            if closed && n > 1 {
                let d = pts[start] - pts[pts.count - 1]
                if (d * d).sum() <= 1e-18 {                // the closing segment has zero length
                    smooth[start] = smooth[start] && smooth[pts.count - 1]
                    pts.removeLast(); smooth.removeLast(); n -= 1
                }
            }
            // a closed polyline needs 2 distinct points; a closed 1-point one is a dot
            subs.append(Sub(start: start, count: n, closed: closed && n >= 2, drawn: drawn, dir: dir))
        }
    }

    // MARK: Dashing

    /// Cuts the polylines into dashes (into `dpts`, `dsmooth`, `dsubs`). Stretches of a segment
    /// outside `cull` are skipped in O(1): an open dash is closed where the stretch starts and
    /// reopened where it ends (both points outside `cull`, whose margin covers caps and
    /// miters), and the pattern position advances by the stretch's length modulo the pattern.
    /// Returns false (stroke solid) past ``StrokeStyle/maximumDashCount`` dashes.
    func dash(pattern: [Double], phase: Double, cull: (Double, Double, Double, Double)?) -> Bool {
        dpts.removeAll(keepingCapacity: true); dsmooth.removeAll(keepingCapacity: true); dsubs.removeAll(keepingCapacity: true)
        let total = pattern.reduce(0, +)
        for s in subs where s.drawn {
            // position in the pattern at the start of every subpath
            var ph = phase.isFinite ? phase.truncatingRemainder(dividingBy: total) : 0
            if ph < 0 { ph += total }
            var k = 0
            while ph > 0 && ph >= pattern[k] { ph -= pattern[k]; k = (k + 1) % pattern.count }
            var remaining = pattern[k] - ph
            var on = k % 2 == 0
            let n = s.count
            if n == 1 {                                     // zero-length subpath: a dot if "on"
                if on {
                    dsubs.append(Sub(start: dpts.count, count: 1, closed: false, drawn: true, dir: s.dir))
                    dpts.append(pts[s.start]); dsmooth.append(false)
                }
                continue
            }
            let firstDash = dsubs.count
            let startsOn = on
            var curStart = -1
            if on { curStart = dpts.count; dpts.append(pts[s.start]); dsmooth.append(false) }
            let segCount = s.closed ? n : n - 1
            var lastDir = RasterPoint(1, 0)
            for i in 0..<segCount {
                let a = pts[s.start + i], b = pts[s.start + (i + 1) % n]
                let d = b - a
                let len = (d * d).sum().squareRoot()
                let u = d / len
                lastDir = u
                var pos = 0.0
                let (v0, v1) = Self.visibleSpan(a, u, len, cull)
                while len - pos > remaining {
                    if pos >= v1 || pos + remaining < v0 {
                        // Skip to the visible part (or the segment's end) without building dashes.
                        let target = pos >= v1 ? len : v0
                        if on {
                            appendDashPoint(a + u * pos, false, curStart)
                            dsubs.append(Sub(start: curStart, count: dpts.count - curStart, closed: false, drawn: true, dir: u))
                            curStart = -1
                        }
                        var dist = (target - pos - remaining).truncatingRemainder(dividingBy: total)
                        on.toggle(); k = (k + 1) % pattern.count; remaining = pattern[k]
                        while dist >= remaining {
                            dist -= remaining
                            on.toggle(); k = (k + 1) % pattern.count; remaining = pattern[k]
                        }
                        remaining -= dist
                        pos = target
                        if on { curStart = dpts.count; dpts.append(a + u * pos); dsmooth.append(false) }
                        continue
                    }
                    guard dsubs.count < StrokeStyle.maximumDashCount else { return false }
                    pos += remaining
                    let q = a + u * pos
                    if on {
                        appendDashPoint(q, false, curStart)
                        dsubs.append(Sub(start: curStart, count: dpts.count - curStart, closed: false, drawn: true, dir: u))
                        curStart = -1
                    } else {
                        curStart = dpts.count
                        dpts.append(q); dsmooth.append(false)
                    }
                    on.toggle()
                    k = (k + 1) % pattern.count
                    remaining = pattern[k]
                }
                remaining -= len - pos
                if on {
                    let bi = (i + 1) % n
                    let isEnd = s.closed ? false : (i + 1 == n - 1)
                    appendDashPoint(b, isEnd ? false : smooth[s.start + bi], curStart)
                }
            }
            if on && curStart >= 0 {
                if s.closed && startsOn && dsubs.count > firstDash {
                    // the last dash runs over the start: prepend it to the first dash
                    let first = dsubs[firstDash]
                    var merged = Array(dpts[curStart..<dpts.count])
                    var mergedSmooth = Array(dsmooth[curStart..<dsmooth.count])
                    mergedSmooth[mergedSmooth.count - 1] = smooth[s.start]
                    merged.append(contentsOf: dpts[(first.start + 1)..<(first.start + first.count)])
                    mergedSmooth.append(contentsOf: dsmooth[(first.start + 1)..<(first.start + first.count)])
                    dpts.removeSubrange(curStart..<dpts.count); dsmooth.removeSubrange(curStart..<dsmooth.count)
                    dsubs[firstDash] = Sub(start: dpts.count, count: merged.count, closed: false, drawn: true, dir: first.dir)
                    dpts.append(contentsOf: merged); dsmooth.append(contentsOf: mergedSmooth)
                } else if s.closed && startsOn && dsubs.count == firstDash {
                    // "on" all the way round: the whole closed subpath
                    dpts.removeSubrange(curStart..<dpts.count); dsmooth.removeSubrange(curStart..<dsmooth.count)
                    dsubs.append(Sub(start: dpts.count, count: n, closed: true, drawn: true, dir: s.dir))
                    dpts.append(contentsOf: pts[s.start..<(s.start + n)]); dsmooth.append(contentsOf: smooth[s.start..<(s.start + n)])
                } else {
                    dsubs.append(Sub(start: curStart, count: dpts.count - curStart, closed: false, drawn: true, dir: lastDir))
                }
            }
        }
        return true
    }

    /// Appends a point to the dash that starts at `start`, unless it repeats the last one (a
    /// dash boundary on a vertex): dashes never contain zero-length segments, and a dash of
    /// zero length stays a single point (a dot).
    func appendDashPoint(_ q: RasterPoint, _ sm: Bool, _ start: Int) {
        if dpts.count > start, let last = dpts.last, last == q {
            dsmooth[dsmooth.count - 1] = dsmooth[dsmooth.count - 1] && sm
            return
        }
        dpts.append(q); dsmooth.append(sm)
    }

    // MARK: Offsetting

    struct Offsetter {
        let h: Double
        let style: StrokeStyle
        let tol: Double
        let transform: RasterTransform
        let identity: Bool
        var dirs: [RasterPoint]
        var lens: [Double]
        var sideA: [RasterPoint]
        var sideB: [RasterPoint]
        var scratch: [RasterPoint]
        /// Angle step of round joins and caps: the chord of an arc of radius h spanning it
        /// deviates from the arc by at most tol (2·acos(1 − tol/h)).
        let arcStep: Double

        init(h: Double, style: StrokeStyle, tol: Double, transform: RasterTransform,
             dirs: [RasterPoint], lens: [Double], sideA: [RasterPoint], sideB: [RasterPoint], scratch: [RasterPoint]) {
            self.scratch = scratch
            self.h = h; self.style = style; self.tol = tol; self.transform = transform
            identity = transform == .identity
            self.dirs = dirs; self.lens = lens; self.sideA = sideA; self.sideB = sideB
            arcStep = tol >= h ? Double.pi / 2 : Swift.min(Double.pi / 2, 2 * acos(1 - tol / h))
        }

        /// The most chords one round join or cap is cut into (see ``arc(_:from:angle:into:)``).
        static let maxArcPieces = 16_384

        @inline(__always) func T(_ p: RasterPoint) -> RasterPoint { identity ? p : transform.apply(p) }
        @inline(__always) static func perp(_ d: RasterPoint) -> RasterPoint { RasterPoint(-d.y, d.x) }

        /// Points strictly inside the arc about `c` of radius h from direction `u` turning by
        /// `angle` (signed), appended to `list`.
        func arc(_ c: RasterPoint, from u: RasterPoint, angle: Double, into list: inout [RasterPoint]) {
            Self.arc(c, from: u, angle: angle, h: h, arcStep: arcStep, into: &list)
        }

        /// ``arc(_:from:angle:into:)`` without `self` (so that a side list of `self` can be
        /// appended to in place).
        static func arc(_ c: RasterPoint, from u: RasterPoint, angle: Double, h: Double, arcStep: Double,
                        into list: inout [RasterPoint]) {
            // At most `maxArcPieces` chords: a stroke wider than any canvas (h ≈ 1e12, or a
            // finite 1e300 from a hostile file) would otherwise ask for billions of points — or
            // trap converting an infinite count. At the coordinate limit (2²¹ px) the capped
            // chords still deviate by < 0.04 px.
            let pieces = abs(angle) / arcStep
            guard pieces.isFinite || pieces == .infinity else { return }
            var n = pieces >= Double(Self.maxArcPieces) ? Self.maxArcPieces : Int(pieces.rounded(.up))
            // One chord lies wholly inside the arc, up to the tolerance h(1 − cos(arcStep/2)):
            // past ⅔ of it, two balanced chords (one point) instead.
            if n == 1 && 1 - cos(0.5 * abs(angle)) > (2.0 / 3.0) * (1 - cos(0.5 * arcStep)) { n = 2 }
            guard n > 1 else { return }
            let step = angle / Double(n)
            let (cs, sn) = (cos(step), sin(step))
            // The interior points sit ⅔ of a chord's sagitta h(1 − cos(step/2)) outside the arc,
            // so the chords cross it (no area lost on average; see PathFlattening.balanced).
            let hb = h + (2.0 / 3.0) * h * (1 - cos(0.5 * step))
            var v = u
            for _ in 1..<n {
                v = RasterPoint(v.x * cs - v.y * sn, v.x * sn + v.y * cs)
                list.append(c + hb * v)
            }
        }

        mutating func strokePolyline<O: _OutlineSink>(_ pts: [RasterPoint], _ smooth: [Bool], _ s: Sub, into out: inout O) {
            let n = s.count
            sideA.removeAll(keepingCapacity: true); sideB.removeAll(keepingCapacity: true)
            if n == 1 {                                          // a dot: both caps around one point
                guard style.cap != .butt else { return }
                let p = pts[s.start], d = s.dir, N = Self.perp(d)
                sideA.append(p + h * N); sideB.append(p - h * N)
                emitOpen(p, d, p, d, into: &out)
                return
            }
            dirs.removeAll(keepingCapacity: true); lens.removeAll(keepingCapacity: true)
            let segCount = s.closed ? n : n - 1
            for i in 0..<segCount {
                let d = pts[s.start + (i + 1) % n] - pts[s.start + i]
                let l = (d * d).sum().squareRoot()
                dirs.append(d / l); lens.append(l)
            }
            if s.closed {
                // vertex 0 first (it bounds the last segment's end), then 1..n-1
                var (cA, cB) = join(pts[s.start], dirs[n - 1], dirs[0], availPrevA: lens[n - 1] / 2, availPrevB: lens[n - 1] / 2,
                                    availNext: lens[0] / 2, smooth: smooth[s.start])
                let endA = cA, endB = cB
                for i in 1..<n {
                    let availNext = i == n - 1 ? lens[i] - Swift.max(endA, endB) : lens[i]
                    (cA, cB) = join(pts[s.start + i], dirs[i - 1], dirs[i], availPrevA: lens[i - 1] - cA,
                                    availPrevB: lens[i - 1] - cB, availNext: availNext, smooth: smooth[s.start + i])
                }
                let t: RasterTransform? = identity ? nil : transform
                out.move(to: T(sideA[0]))
                sideA.withUnsafeBufferPointer { out.lines(UnsafeBufferPointer(rebasing: $0.dropFirst()), reversed: false, transform: t) }
                out.close()
                out.move(to: T(sideB[sideB.count - 1]))
                sideB.withUnsafeBufferPointer { out.lines(UnsafeBufferPointer(rebasing: $0.dropLast()), reversed: true, transform: t) }
                out.close()
                return
            }
            let p0 = pts[s.start], pn = pts[s.start + n - 1]
            let N0 = Self.perp(dirs[0]), Nn = Self.perp(dirs[n - 2])
            sideA.append(p0 + h * N0); sideB.append(p0 - h * N0)
            var cA = 0.0, cB = 0.0
            for i in 1..<(n - 1) {
                (cA, cB) = join(pts[s.start + i], dirs[i - 1], dirs[i], availPrevA: lens[i - 1] - cA,
                                availPrevB: lens[i - 1] - cB, availNext: lens[i], smooth: smooth[s.start + i])
            }
            sideA.append(pn + h * Nn); sideB.append(pn - h * Nn)
            emitOpen(p0, dirs[0], pn, dirs[n - 2], into: &out)
        }

        /// One contour: A forwards, end cap, B backwards, start cap.
        mutating func emitOpen<O: _OutlineSink>(_ p0: RasterPoint, _ d0: RasterPoint, _ pn: RasterPoint, _ dn: RasterPoint,
                                                into out: inout O) {
            var capPts = scratch
            scratch = []
            capPts.removeAll(keepingCapacity: true)
            // (each side and cap in one call: a call per point into the fixed-point sink was
            // ~4 % of W7)
            let t: RasterTransform? = identity ? nil : transform
            out.move(to: T(sideA[0]))
            sideA.withUnsafeBufferPointer { out.lines(UnsafeBufferPointer(rebasing: $0.dropFirst()), reversed: false, transform: t) }
            cap(pn, dn, into: &capPts)
            capPts.withUnsafeBufferPointer { out.lines($0, reversed: false, transform: t) }
            sideB.withUnsafeBufferPointer { out.lines($0, reversed: true, transform: t) }
            capPts.removeAll(keepingCapacity: true)
            cap(p0, -d0, into: &capPts)
            capPts.withUnsafeBufferPointer { out.lines($0, reversed: false, transform: t) }
            out.close()
            scratch = capPts
        }

        /// The points between P + hN and P − hN (N = perp(d)) around the end P facing d.
        func cap(_ p: RasterPoint, _ d: RasterPoint, into list: inout [RasterPoint]) {
            let N = Self.perp(d)
            switch style.cap {
            case .butt: break
            case .square:
                list.append(p + h * N + h * d); list.append(p - h * N + h * d)
            case .round:
                // from +N turning by −π through +d to −N
                arc(p, from: N, angle: -Double.pi, into: &list)
            }
        }

        /// The join at V from direction d1 to d2; returns how much of the next segment each side
        /// consumed (the inner side's e when it met at the intersection point).
        mutating func join(_ V: RasterPoint, _ d1: RasterPoint, _ d2: RasterPoint, availPrevA: Double, availPrevB: Double,
                           availNext: Double, smooth: Bool) -> (Double, Double) {
            let N1 = Self.perp(d1), N2 = Self.perp(d2)
            let cross = d1.x * d2.y - d1.y * d2.x
            let dot = (d1 * d2).sum()
            if abs(cross) <= 1e-12 && dot > 0 {                      // straight on
                sideA.append(V + h * N2); sideB.append(V - h * N2)
                return (0, 0)
            }
            let aInner = cross >= 0                                   // turning towards side A
            let sigma: Double = aInner ? -1 : 1                        // the outer side's sign
            let oE = V + sigma * h * N1, oS = V + sigma * h * N2
            let kind: StrokeStyle.Join = smooth ? .round : style.join
            // The side lists are appended to in place (moving one out and back cost a retain and
            // a release per join and side: 5 % of W7).
            if aInner {
                Self.outerJoin(&sideB, V, oE, oS, sigma * N1, N1 + N2, cross, dot, aInner, kind, h, tol, arcStep, style.miterLimit)
            } else {
                Self.outerJoin(&sideA, V, oE, oS, sigma * N1, N1 + N2, cross, dot, aInner, kind, h, tol, arcStep, style.miterLimit)
            }

            // inner side
            let iE = V - sigma * h * N1, iS = V - sigma * h * N2
            let availPrev = aInner ? availPrevA : availPrevB
            let consumed = aInner
                ? Self.innerJoin(&sideA, V, iE, iS, d1, cross, dot, h, availPrev, availNext)
                : Self.innerJoin(&sideB, V, iE, iS, d1, cross, dot, h, availPrev, availNext)
            return aInner ? (consumed, 0) : (0, consumed)
        }

        /// The outer side of a join: its end point `oE`, the round / miter / bevel points, its
        /// start point `oS` on the next segment.
        @inline(__always)
        static func outerJoin(_ outer: inout [RasterPoint], _ V: RasterPoint, _ oE: RasterPoint, _ oS: RasterPoint,
                              _ u: RasterPoint, _ nSum: RasterPoint, _ cross: Double, _ dot: Double, _ aInner: Bool,
                              _ kind: StrokeStyle.Join, _ h: Double, _ tol: Double, _ arcStep: Double, _ miterLimit: Double) {
            // The two offset lines' intersection (the miter tip), when they meet.
            let sigma: Double = aInner ? -1 : 1
            let tip: RasterPoint? = 1 + dot > 1e-12 ? V + sigma * h * nSum / (1 + dot) : nil
            // A round join's tip lies h(1/cos(θ/2) − 1) outside its arc: within tol when
            // 2/(1 + cos θ) ≤ (1 + tol/h)². Then that one point stands for the whole join (the
            // common case at the vertices of a flattened curve): one outline point instead of
            // two, and the outline alternates outside the true offset (at vertices) and inside it
            // (along chords) instead of lying wholly inside.
            let m = 1 + tol / h
            if kind == .round, let tip, 2 <= m * m * (1 + dot) {
                outer.append(tip)
                return
            }
            outer.append(oE)
            switch kind {
            case .round:
                // the chord oE–oS alone is within ⅔·tol of the arc when h(1 − cos(θ/2)) ≤ ⅔·tol,
                // i.e. (1 + cos θ)/2 ≥ (1 − ⅔·tol/h)²: no arc points, no atan2 (a longer chord
                // gets balanced arc points, at least one: see `arc`)
                let c = 1 - (2.0 / 3.0) * tol / h
                if tol < h && (1 + dot) / 2 < c * c {
                    let theta = atan2(abs(cross), dot)
                    arc(V, from: u, angle: aInner ? theta : -theta, h: h, arcStep: arcStep, into: &outer)
                }
            case .miter:
                // miter length / width = 1/cos(θ/2) = √(2/(1 + cos θ))
                if let tip, 2 / (1 + dot) <= miterLimit * miterLimit { outer.append(tip) }
            case .bevel:
                break
            }
            outer.append(oS)
        }

        /// The inner side of a join: the two offset lines' intersection when both segments are
        /// long enough (returns how far it reaches back, h·tan(θ/2)), else `iE`, `V`, `iS`.
        @inline(__always)
        static func innerJoin(_ inner: inout [RasterPoint], _ V: RasterPoint, _ iE: RasterPoint, _ iS: RasterPoint,
                              _ d1: RasterPoint, _ cross: Double, _ dot: Double, _ h: Double,
                              _ availPrev: Double, _ availNext: Double) -> Double {
            if 1 + dot > 1e-9 {
                let e = h * abs(cross) / (1 + dot)                  // h·tan(θ/2)
                if e <= availPrev && e <= availNext {
                    inner.append(iE - e * d1)                       // = iS + e·d2, the intersection
                    return e
                }
            }
            inner.append(iE); inner.append(V); inner.append(iS)
            return 0
        }
    }
}

/// Where ``PathStroker`` writes an outline: a ``RasterPath``, or a ``FixedPath`` directly
/// (``FixedPath/_OutlineBuilder``).
protocol _OutlineSink {
    mutating func move(to p: RasterPoint)
    mutating func line(to p: RasterPoint)
    mutating func close()
    /// `line(to:)` of each of `points` in order (in reverse order when `reversed`), each mapped
    /// by `transform` unless it is nil. A sink may take them in one go (`FixedPath`'s builder:
    /// one call per side of a stroke instead of one per point).
    mutating func lines(_ points: UnsafeBufferPointer<RasterPoint>, reversed: Bool, transform: RasterTransform?)
}

extension _OutlineSink {
    mutating func lines(_ points: UnsafeBufferPointer<RasterPoint>, reversed: Bool, transform: RasterTransform?) {
        let n = points.count
        for k in 0..<n {
            let q = points[reversed ? n - 1 - k : k]
            line(to: transform.map { $0.apply(q) } ?? q)
        }
    }
}

extension RasterPath: _OutlineSink {}
