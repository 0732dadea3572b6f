import CFlipbookKernels

/// Exact coverage where a stroke crosses itself.
///
/// ## The error it removes
///
/// The exact-area rasterizer integrates the winding number over each pixel and takes
/// `min(1, |∫w|)` (``FillRule/nonZero``). A stroke outline (``PathStroker``) keeps the stroke's
/// body on one side of every contour, so where two parts A and B of a stroke cross, the lens
/// A ∩ B has winding 2 and a pixel P gets `∫w = area(P ∩ A) + area(P ∩ B)`. That is right
/// (after the clamp) unless P is partly outside A ∪ B while it also holds part of the lens —
/// the pixels around the lens's four corners, where an edge of A meets an edge of B. There the
/// lens is counted twice: a corner pixel half in the lens and half outside reads as fully
/// covered. On the peers' W7 scene these corners were ~75 % of the pixels off by more than 16
/// levels from the supersampled reference.
///
/// ## The correction
///
/// `area(P ∩ (A ∪ B)) = area(P ∩ A) + area(P ∩ B) − area(P ∩ A ∩ B)`, so subtracting the lens
/// area inside each such pixel from its accumulated winding makes it exact. Near a crossing
/// each part of a stroke is, to far below a pixel, a strip of half-width h around a segment of
/// the flattened centre line; `area(P ∩ A ∩ B)` is then the unit square clipped by four
/// half-planes (two per strip), a convex polygon. ``PathStroker/overlapCorrections(into:)``:
///
/// 1. cuts the flattened centre line (device space) into pieces of at least `max(2h + 2, 8)` px
///    and finds, by a sweep over their boxes sorted by x, pairs of pieces from different parts
///    (more than `2(2h + 2)` px apart along the line: a loop, a figure 8 — not the inside of one
///    bend) holding two centre-line segments that cross;
/// 2. takes the pixels within 1–3 (more for shallower crossings) of each corner of the lens of
///    the two crossing segments' strips, once each, whose centres lie within 0.85 px of an edge
///    of both strips (where the double counting can show); a pixel that two crossings reach is
///    left alone (three parts meet there, and the two-strip model does not hold);
/// 3. for each marked pixel takes, in each part, the centre-line segment nearest the pixel's
///    centre, clips the pixel square by both strips and records `−area` in the rasterizer's units
///    (2¹⁷ per pixel, signed like the outline's winding).
///
/// ``FixedPath/corrections`` (or the `corrections:` argument of the path fill) carries the
/// records, and ``PathRasterizer`` adds them to the cells (`+a` at the pixel's cell, `−a` at the next: the running
/// sum changes at that pixel only) before the sweep — in every band, from the same integers,
/// so bands and threads still give the same bytes.
///
/// The compositor (shape layers under an affine transform) and `CGContext` strokes use it. On
/// the native backend the search and each crossing's pixels are computed by the C twin
/// (`fbk_overlap_crossings`, `fbk_overlap_crossing`: the same operations, the same integers);
/// this code is the reference, and the portable backend's.
/// Left alone (documented limits): strokes without round caps *and* round joins, dashed
/// strokes, transforms that are not similarities (the device stroke is not a strip of constant
/// width), pixels near a cap or a sharp join of either part (the part is not a strip there),
/// crossings at less than 12° (long near-parallel runs), touches (a shared vertex), a third part
/// through the same pixel, parts less than 2(2h + 2) px apart along the line (tight bends and
/// the pivot loops of ``PathStroker``), and strokes past 2²² pair tests or 2¹⁴ crossings (the
/// rest of such a stroke is left as the fill gives it). The whole centre line is searched,
/// also where it is off screen.
extension PathStroker {
    /// The corrections (pixel x, pixel y, value to add to the pixel's accumulated winding, in
    /// units of 2⁻¹⁷ pixel) for the outline of the last ``stroke(_:style:transform:visible:into:)``
    /// call, appended to `out` (see the extension's documentation). Nothing unless that stroke
    /// had round caps and round joins, no dashes, a similarity transform, and drew something.
    public func overlapCorrections(into out: inout [SIMD3<Int32>]) {
        guard let last = lastStroke else { return }
        let t = last.transform
        // A similarity (rotation/reflection × uniform scale + translation) keeps strips strips.
        let s2 = t.a * t.a + t.b * t.b
        guard s2 > 0, abs(t.c * t.c + t.d * t.d - s2) <= 1e-9 * s2, abs(t.a * t.c + t.b * t.d) <= 1e-9 * s2 else { return }
        let h = last.halfWidth * s2.squareRoot()
        guard h > 0, h.isFinite, h < 4096 else { return }
        // Winding sign of the outline: positive ∫w inside for a proper transform (the
        // rasterizer's cover is +dy for edges going down; A runs at +h·N along the path, B back
        // at −h·N), negative under a reflection.
        let sign: Double = t.a * t.d - t.b * t.c > 0 ? -1 : 1

        // geo owns the storage meanwhile (swapped out and back: a copy retained and released
        // each of its arrays, ~1 % of W7)
        var geo = _OverlapGeometry(h: 0)
        swap(&geo, &overlapScratch)
        defer { swap(&geo, &overlapScratch) }
        geo.reset(h: h)
        geo.native = nativeOverlap ?? (RasterBackend.current.effective == .native)
        for sub in subs where sub.drawn && sub.count >= 2 {
            geo.addPolyline(pts, smooth, start: sub.start, count: sub.count, closed: sub.closed, transform: t)
        }
        let first = out.count
        geo.corrections(sign: sign, into: &out)
        Self._dropShared(&out, from: first)
    }

    /// Removes every pixel that two or more crossings corrected (entries from `first` on): there
    /// three or more parts of the stroke meet (two crossings a pixel or two apart, a third part
    /// over a lens), the two-strip model of each correction does not hold, and subtracting both
    /// lenses could take away coverage that is there. Such pixels keep the plain fill's value.
    static func _dropShared(_ out: inout [SIMD3<Int32>], from first: Int) {
        guard out.count - first > 1 else { return }
        out[first...].sort { ($0.y, $0.x) < ($1.y, $1.x) }
        var w = first, i = first
        while i < out.count {
            var j = i + 1
            while j < out.count && out[j].x == out[i].x && out[j].y == out[i].y { j += 1 }
            if j == i + 1 { out[w] = out[i]; w += 1 }
            i = j
        }
        out.removeSubrange(w...)
    }
}

/// The centre lines of one stroke in device space and the search of `overlapCorrections`.
struct _OverlapGeometry {
    var h: Double
    /// All polyline points; per point its subpath, arc length and whether it is a corner
    /// (a sharp join, or an end of an open polyline).
    var p: [RasterPoint] = []
    var sub: [Int32] = []
    var arc: [Double] = []
    var corner: [Bool] = []
    /// Per subpath: first point, count, closed, total length.
    var subs: [(start: Int, count: Int, closed: Bool, length: Double)] = []
    /// Pieces: runs of segments (segment k: point k → k + 1, or the closing one), with boxes.
    var pieces: [(sub: Int, k0: Int, k1: Int, box: SIMD4<Double>)] = []
    /// `subs` and `pieces` as the C code reads them (`fbk_overlap_sub`, `fbk_overlap_piece`),
    /// and its scratch (`fbk_overlap_crossings`' keys, boxes and pairs).
    var csubs: [fbk_overlap_sub] = [], cpieces: [fbk_overlap_piece] = []
    var ckeys: [Int64] = [], cboxes: [Double] = [], cpairs: [Int64] = []
    /// A crossing's pixels by the C twin of `crossing` (`fbk_overlap_crossing`, the same
    /// corrections) rather than the Swift code: the native backend.
    var native = false

    init(h: Double) { self.h = h }

    /// Empties the arrays, keeping their storage.
    mutating func reset(h: Double) {
        self.h = h
        p.removeAll(keepingCapacity: true); sub.removeAll(keepingCapacity: true)
        arc.removeAll(keepingCapacity: true); corner.removeAll(keepingCapacity: true)
        subs.removeAll(keepingCapacity: true); pieces.removeAll(keepingCapacity: true)
        csubs.removeAll(keepingCapacity: true); cpieces.removeAll(keepingCapacity: true)
    }

    /// Adds the polyline `points[start ..< start + count]` mapped by `t` (`smooth[i]` false: a
    /// corner there).
    mutating func addPolyline(_ points: [RasterPoint], _ smooth: [Bool], start s0: Int, count n: Int, closed: Bool,
                              transform t: RasterTransform) {
        let start = p.count, si = subs.count
        let identity = t == .identity
        guard n > 0 else { return }
        // filled through buffers (an `append` per point and array checked uniqueness each time)
        p.append(contentsOf: repeatElement(.zero, count: n)); arc.append(contentsOf: repeatElement(0, count: n))
        sub.append(contentsOf: repeatElement(Int32(si), count: n)); corner.append(contentsOf: repeatElement(false, count: n))
        var s = 0.0, finite = true
        p.withUnsafeMutableBufferPointer { pb in
            arc.withUnsafeMutableBufferPointer { ab in
                corner.withUnsafeMutableBufferPointer { cb in
                    points.withUnsafeBufferPointer { src in
                        smooth.withUnsafeBufferPointer { sm in
                            var prev = RasterPoint.zero
                            for i in 0..<n {
                                let q = identity ? src[s0 + i] : t.apply(src[s0 + i])
                                guard q.x.isFinite && q.y.isFinite else { finite = false; return }
                                if i > 0 { let d = q - prev; s += (d * d).sum().squareRoot() }
                                pb[start + i] = q; ab[start + i] = s; prev = q
                                cb[start + i] = !sm[s0 + i] || (!closed && (i == 0 || i == n - 1))
                            }
                        }
                    }
                }
            }
        }
        // A vertex the flattening did not mark smooth is still no corner when the line turns by
        // less than 20° there: with round joins the stroke there is, to within h·θ²/8, the
        // two segments' strips (a polyline drawn as lines has such a vertex every few pixels).
        if finite && n >= 3 {
            let cos20 = 0.9396926207859084
            p.withUnsafeBufferPointer { pb in
                corner.withUnsafeMutableBufferPointer { cb in
                    let q = pb.baseAddress! + start
                    for i in 0..<n where cb[start + i] && (closed || (i > 0 && i < n - 1)) {
                        let prev = q[i > 0 ? i - 1 : n - 1], next = q[i < n - 1 ? i + 1 : 0]
                        let u = q[i] - prev, v = next - q[i]
                        let uu = (u * u).sum(), vv = (v * v).sum(), uv = (u * v).sum()
                        if uu > 0 && vv > 0 && uv > 0 && uv * uv >= cos20 * cos20 * uu * vv { cb[start + i] = false }
                    }
                }
            }
        }
        guard finite else {                                   // drop the whole polyline
            p.removeSubrange(start...); sub.removeSubrange(start...); arc.removeSubrange(start...)
            corner.removeSubrange(start...)
            return
        }
        var length = s
        if closed { let d = p[start] - p[start + n - 1]; length += (d * d).sum().squareRoot() }
        subs.append((start, n, closed, length))
        csubs.append(fbk_overlap_sub(start: Int64(start), count: Int64(n), closed: closed ? 1 : 0, length: length))
        // Pieces of about 2h + 2 px (at least one segment), boxed around the centre line itself:
        // two pieces can only hold crossing segments where these boxes overlap.
        let target = Swift.max(2 * h + 2, 8)
        let segments = closed ? n : n - 1
        p.withUnsafeBufferPointer { pb in
            arc.withUnsafeBufferPointer { ab in
                let q = pb.baseAddress! + start, a = ab.baseAddress! + start
                var k0 = 0
                while k0 < segments {
                    var k1 = k0 + 1
                    let e = k1 < n ? q[k1] : q[0]
                    var lo = q[k0].replacing(with: e, where: e .< q[k0]), hi = q[k0].replacing(with: e, where: e .> q[k0])
                    let a0 = a[k0]
                    while k1 < segments && a[k1] - a0 < target {
                        let b = k1 + 1 < n ? q[k1 + 1] : q[0]
                        lo = lo.replacing(with: b, where: b .< lo); hi = hi.replacing(with: b, where: b .> hi)
                        k1 += 1
                    }
                    pieces.append((si, start + k0, start + k1, SIMD4(lo.x, lo.y, hi.x, hi.y)))
                    cpieces.append(fbk_overlap_piece(sub: Int64(si), k0: Int64(start + k0), k1: Int64(start + k1),
                                                     box: (lo.x, lo.y, hi.x, hi.y)))
                    k0 = k1
                }
            }
        }
    }

    /// Per stroke: the most pair tests (of piece boxes, and of the segments of two pieces), and
    /// the most crossings corrected (far above any drawn stroke's; W7's 500 strokes have 1,431
    /// crossings in all).
    static let maxPairTests = 1 << 22, maxCrossings = 1 << 14

    /// ⌊256·x⌋ + 2³², a non-negative integer monotone in x (|x| < 10⁷ here: device centre lines
    /// of finite strokes; beyond, clamped).
    @inline(__always)
    static func _sortKey(_ x: Double) -> Int {
        Int((Swift.min(Swift.max(x, -1e7), 1e7) * 256).rounded(.down)) + (1 << 32)
    }

    static func length(_ a: RasterPoint, _ b: RasterPoint) -> Double { let d = b - a; return (d * d).sum().squareRoot() }

    /// Segment k's end points (k is a global point index; the closing segment wraps).
    func segment(_ k: Int) -> (RasterPoint, RasterPoint) {
        let sb = subs[Int(sub[k])]
        let next = k + 1 < sb.start + sb.count ? k + 1 : sb.start
        return (p[k], p[next])
    }

    /// The arc length along their subpath between two pieces' stretches (0 when they touch;
    /// around a closed subpath the shorter way).
    func arcGap(_ i: Int, _ j: Int) -> Double {
        let sb = subs[pieces[i].sub]
        func range(_ q: Int) -> (Double, Double) {
            let pc = pieces[q]
            let end = pc.k1 < sb.start + sb.count ? arc[pc.k1] : sb.length   // the closing segment ends at L
            return (arc[pc.k0], end)
        }
        let (a0, a1) = range(i), (b0, b1) = range(j)
        let gap = Swift.max(0, Swift.max(b0 - a1, a0 - b1))
        return sb.closed ? Swift.min(gap, Swift.max(0, sb.length - Swift.max(a1, b1) + Swift.min(a0, b0))) : gap
    }

    /// Whether the segments a0a1 and b0b1 cross properly: each one's end points strictly on
    /// opposite sides of the other's line. A touch (an end point on the other segment — two
    /// parts meeting at a shared vertex, which may turn back rather than cross) is not a
    /// crossing, so a crossing exactly at a vertex is left uncorrected rather than guessed.
    static func segmentsCross(_ a0: RasterPoint, _ a1: RasterPoint, _ b0: RasterPoint, _ b1: RasterPoint) -> Bool {
        func cross(_ u: RasterPoint, _ v: RasterPoint) -> Double { u.x * v.y - u.y * v.x }
        let da = a1 - a0, db = b1 - b0
        let d0 = cross(da, b0 - a0), d1 = cross(da, b1 - a0), d2 = cross(db, a0 - b0), d3 = cross(db, a1 - b0)
        return ((d0 > 0 && d1 < 0) || (d0 < 0 && d1 > 0)) && ((d2 > 0 && d3 < 0) || (d2 < 0 && d3 > 0))
    }

    mutating func corrections(sign: Double, into out: inout [SIMD3<Int32>]) {
        guard pieces.count >= 2 else { return }
        if native { return nativeCorrections(sign: sign, into: &out) }
        let h = h, apart = 2 * h + 2
        // 1. Pairs of pieces whose boxes overlap, by a sweep in x over the boxes sorted by
        //    ⌊256·minX⌋ (a plain integer sort: key << 24 | index); the sweep runs while a box's
        //    key is ≤ ⌊256·maxX⌋ of the current one — every box that overlaps in x, and a few
        //    within 1/256 px that do not (the exact tests below reject those).
        guard pieces.count < 1 << 24 else { return }
        var keys = pieces.indices.map { Self._sortKey(pieces[$0].box.x) << 24 | $0 }
        keys.sort()
        // the boxes in sweep order, with their keys' x part, read sequentially by the scan
        let boxes = keys.map { pieces[$0 & 0xFF_FFFF].box }
        let xs = keys.map { $0 >> 24 }
        // Budgets: a hostile path (thousands of segments all crossing one another) would ask for
        // a quadratic number of pair tests and crossings; past these, the rest of the stroke is
        // left uncorrected (what the fill alone gives).
        var pairBudget = Self.maxPairTests, crossingBudget = Self.maxCrossings
        for oi in keys.indices {
            let i = keys[oi] & 0xFF_FFFF
            let bi = boxes[oi], limit = Self._sortKey(bi.z)
            var oj = oi + 1
            while oj < keys.count, xs[oj] <= limit {
                pairBudget -= 1
                if pairBudget < 0 { return }
                let bj = boxes[oj]
                let j = keys[oj] & 0xFF_FFFF; oj += 1
                guard bj.y <= bi.w, bi.y <= bj.w else { continue }
                // different parts: pieces of one subpath far apart along it
                // one bend, not two parts (pieces are ≥ `apart` long, but for a subpath's last)
                if pieces[i].sub == pieces[j].sub, abs(i - j) <= 1 || arcGap(i, j) <= 2 * apart { continue }
                // the two centre-line segments that cross (each crossing is found once: by the
                // pair of pieces holding its two segments)
                var ka = -1, kb = -1
                search: for a in pieces[i].k0..<pieces[i].k1 {
                    let (a0, a1) = segment(a)
                    for b in pieces[j].k0..<pieces[j].k1 {
                        pairBudget -= 1                       // (a piece can hold many tiny segments)
                        if pairBudget < 0 { return }
                        let (b0, b1) = segment(b)
                        if Self.segmentsCross(a0, a1, b0, b1) { ka = a; kb = b; break search }
                    }
                }
                guard ka >= 0 else { continue }
                crossingBudget -= 1
                if crossingBudget < 0 { return }
                crossing(ka, kb, sign: sign, into: &out)
            }
        }
    }

    /// One centre-line segment near a crossing, ready for the per-pixel tests: its end points,
    /// direction ab with 1/|ab|², unit normal n with n·a, and whether each end is a corner.
    @usableFromInline
    struct _Segment {
        var a: RasterPoint, b: RasterPoint, ab: RasterPoint, invL2: Double
        var n: RasterPoint, c: Double
        var cornerA: Bool, cornerB: Bool
    }

    /// Up to 7 segments: segment k and the three on each side along its subpath that start
    /// within 2h + 10 px of it along the line (not the other part), in `buf`; returns the count.
    func segmentsAround(_ k: Int, into buf: UnsafeMutablePointer<_Segment>) -> Int {
        let sb = subs[Int(sub[k])]
        let segments = sb.closed ? sb.count : sb.count - 1
        // Stay in this part: the crossing's other part lies more than 2(2h + 2) px away along the
        // line (the pair filter of `corrections`), so segments starting within 2(2h + 2) − 1 px
        // of segment k are this part's; 2h + 10 px is enough to reach the lens corners.
        let window = Swift.min(2 * h + 10, 4 * h + 3)
        var m = 0
        for o in -3...3 {
            var q = k - sb.start + o
            if sb.closed { q = (q % segments + segments) % segments } else if q < 0 || q >= segments { continue }
            if o != 0 {
                let d = abs(arc[sb.start + q] - arc[k])
                if (sb.closed ? Swift.min(d, sb.length - d) : d) > window { continue }
            }
            let g = sb.start + q
            let next = g + 1 < sb.start + sb.count ? g + 1 : sb.start
            let a = p[g], b = p[next], ab = b - a, l2 = (ab * ab).sum()
            guard l2 > 0 else { continue }
            let u = ab / l2.squareRoot(), n = RasterPoint(-u.y, u.x)
            buf[m] = _Segment(a: a, b: b, ab: ab, invL2: 1 / l2, n: n, c: (n * a).sum(), cornerA: corner[g], cornerB: corner[next])
            m += 1
        }
        return m
    }

    /// The segment of `set` nearest `c`; nil when `c` lies near a corner (sharp join or open
    /// end) of it, or further than h + √½ from it (the pixel cannot reach the strip).
    @inline(__always)
    func nearest(_ c: RasterPoint, in set: UnsafeMutablePointer<_Segment>, count: Int) -> _Segment? {
        var best = Double.infinity, bk = -1
        for i in 0..<count {
            let s = set[i]
            let t = Swift.min(1, Swift.max(0, ((c - s.a) * s.ab).sum() * s.invL2))
            let e = c - (s.a + s.ab * t), d = (e * e).sum()
            if d < best { best = d; bk = i }
        }
        let reach = h + 0.7072
        guard bk >= 0, best <= reach * reach else { return nil }
        let s = set[bk]
        // near a corner the part is not a strip (a cap, a round join)
        let lim = (h + 1.5) * (h + 1.5)
        if s.cornerA, ((c - s.a) * (c - s.a)).sum() < lim { return nil }
        if s.cornerB, ((c - s.b) * (c - s.b)).sum() < lim { return nil }
        return s
    }

    /// `corrections` with the search in C (`fbk_overlap_crossings`: the same sweep, tests,
    /// budgets and order) and each crossing through `nativeCrossing`.
    mutating func nativeCorrections(sign: Double, into out: inout [SIMD3<Int32>]) {
        let n = cpieces.count
        // the scratch moved out of self for the call (mutated inside a borrow of self, the
        // arrays were copied — 256 KB a stroke)
        var keys = ckeys, boxes = cboxes, pairs = cpairs
        ckeys = []; cboxes = []; cpairs = []
        // Sized to what the search can write, left uninitialized (it writes before it reads):
        // at most one crossing per pair of pieces, and `maxCrossings` in all. (A fresh stroker
        // used to zero 2 · 2¹⁴ pairs, 256 KB, for its first stroke.)
        if keys.count < n {
            keys = Array(unsafeUninitializedCapacity: n) { $1 = n }
            boxes = Array(unsafeUninitializedCapacity: 4 * n) { $1 = 4 * n }
        }
        let slots = 2 * Swift.min(Self.maxCrossings, Swift.max(1, n * (n - 1) / 2))
        if pairs.count < slots { pairs = Array(unsafeUninitializedCapacity: slots) { $1 = slots } }
        let found = withGeometry { g in
            cpieces.withUnsafeBufferPointer { pc in
                keys.withUnsafeMutableBufferPointer { kb in
                    boxes.withUnsafeMutableBufferPointer { bb in
                        pairs.withUnsafeMutableBufferPointer { pb in
                            fbk_overlap_crossings(g, pc.baseAddress, n, h, kb.baseAddress, bb.baseAddress, pb.baseAddress)
                        }
                    }
                }
            }
        }
        for k in 0..<found { nativeCrossing(Int(pairs[2 * k]), Int(pairs[2 * k + 1]), sign: sign, into: &out) }
        ckeys = keys; cboxes = boxes; cpairs = pairs
    }

    /// The geometry as the C code reads it, valid during `body`.
    func withGeometry<R>(_ body: (UnsafePointer<fbk_overlap_geometry>) -> R) -> R {
        p.withUnsafeBytes { pb in
            arc.withUnsafeBufferPointer { ab in
                sub.withUnsafeBufferPointer { sb in
                    corner.withUnsafeBytes { cb in
                        csubs.withUnsafeBufferPointer { ub in
                            var g = fbk_overlap_geometry(p: pb.baseAddress!.assumingMemoryBound(to: Double.self),
                                                         arc: ab.baseAddress, sub: sb.baseAddress,
                                                         corner: cb.baseAddress!.assumingMemoryBound(to: UInt8.self),
                                                         subs: ub.baseAddress)
                            return body(&g)
                        }
                    }
                }
            }
        }
    }

    /// `crossing` by its C twin (`fbk_overlap_crossing`, stroke_overlap.c: the same operations
    /// in the same order without floating-point contraction, each pixel's nearest segments in
    /// AVX-512 lanes when the CPU has them), so the same corrections
    /// (`StrokeOverlapTests.theCCrossingGivesTheSwiftCorrections`).
    func nativeCrossing(_ ka: Int, _ kb: Int, sign: Double, into out: inout [SIMD3<Int32>]) {
        withUnsafeTemporaryAllocation(of: Int32.self, capacity: 3 * 4 * 49) { buf in
            let n = withGeometry { g in fbk_overlap_crossing(g, ka, kb, h, sign, fbk_cpu_lane_walk_cached(), buf.baseAddress) }
            for i in 0..<n { out.append(SIMD3(buf[3 * i], buf[3 * i + 1], buf[3 * i + 2])) }
        }
    }

    /// The corrections of the crossing of centre-line segments ka and kb (see the type's
    /// documentation): the pixels around the four lens corners of the two strips.
    func crossing(_ ka: Int, _ kb: Int, sign: Double, into out: inout [SIMD3<Int32>]) {
        let h = h
        let (a0, a1) = segment(ka), (b0, b1) = segment(kb)
        let ua = (a1 - a0) / Self.length(a0, a1), ub = (b1 - b0) / Self.length(b0, b1)
        let sinT = ua.x * ub.y - ua.y * ub.x
        guard abs(sinT) >= 0.2, sinT.isFinite else { return }
        let na = RasterPoint(-ua.y, ua.x), nb = RasterPoint(-ub.y, ub.x)
        let ca = (na * a0).sum(), cb = (nb * b0).sum()
        let det = na.x * nb.y - na.y * nb.x
        // the edges of A and B stay within a pixel of each other over ~1/sin θ px
        let r = abs(sinT) > 0.5 ? 1 : abs(sinT) > 0.3 ? 2 : 3
        var corners = (SIMD2<Int>.zero, SIMD2<Int>.zero, SIMD2<Int>.zero, SIMD2<Int>.zero)
        var cornerCount = 0
        withUnsafeMutableBytes(of: &corners) { raw in
            let cs = raw.baseAddress!.assumingMemoryBound(to: SIMD2<Int>.self)
            for q in 0..<4 {
                // na·X = ca ± h, nb·X = cb ± h
                let r0 = ca + (q & 1 == 0 ? -h : h), r1 = cb + (q & 2 == 0 ? -h : h)
                let x = (r0 * nb.y - na.y * r1) / det, y = (na.x * r1 - r0 * nb.x) / det
                guard x.isFinite, y.isFinite, abs(x) < 1e7, abs(y) < 1e7 else { continue }
                cs[cornerCount] = SIMD2(Int(x.rounded(.down)), Int(y.rounded(.down)))
                cornerCount += 1
            }
        }
        guard cornerCount > 0 else { return }
        // In three passes over the pixels, each a loop of independent iterations (the work of
        // one pixel overlaps the next's; interleaved, the tests' mispredicted branches kept
        // flushing it): the pixels that pass the edge tests, in order; their nearest segments;
        // their lens areas. The same pixels, values and order as one pass.
        let side = 2 * r + 1
        withUnsafeTemporaryAllocation(of: SIMD2<Int>.self, capacity: 4 * side * side) { pix in
        withUnsafeTemporaryAllocation(of: SIMD4<Double>.self, capacity: 8 * side * side) { lines in
        withUnsafeTemporaryAllocation(of: _Segment.self, capacity: 14) { buf in
            let setA = buf.baseAddress!, setB = buf.baseAddress! + 7
            var m = 0
            withUnsafeBytes(of: corners) { raw in
                let cs = raw.baseAddress!.assumingMemoryBound(to: SIMD2<Int>.self)
                // each pixel within r (Chebyshev) of a lens corner, once
                for ci in 0..<cornerCount {
                    let k = cs[ci]
                    for py in (k.y - r)...(k.y + r) {
                        for px in (k.x - r)...(k.x + r) {
                            var seen = false
                            for e in 0..<ci where abs(cs[e].x - px) <= r && abs(cs[e].y - py) <= r { seen = true; break }
                            if seen { continue }
                            let c = RasterPoint(Double(px) + 0.5, Double(py) + 0.5)
                            // Only a pixel crossed by an edge of A and an edge of B can count the
                            // lens twice (fully inside either part, the clamp is exact; outside
                            // one, there is no lens): its centre within √½ of both edge lines
                            // (+ 0.14 for the bend of the curve over a few pixels).
                            let near = abs(abs((na * c).sum() - ca) - h) <= 0.85 && abs(abs((nb * c).sum() - cb) - h) <= 0.85
                            pix[m] = SIMD2(px, py); m &+= near ? 1 : 0
                        }
                    }
                }
            }
            guard m > 0 else { return }
            let countA = segmentsAround(ka, into: setA), countB = segmentsAround(kb, into: setB)
            // each pixel's strips: the nearest segment of each part (none near a corner of it)
            var n = 0
            for i in 0..<m {
                let c = RasterPoint(Double(pix[i].x) + 0.5, Double(pix[i].y) + 0.5)
                guard let sA = nearest(c, in: setA, count: countA), let sB = nearest(c, in: setB, count: countB) else { continue }
                pix[n] = pix[i]; lines[2 * n] = SIMD4(sA.n.x, sA.n.y, sA.c, 0); lines[2 * n + 1] = SIMD4(sB.n.x, sB.n.y, sB.c, 0)
                n += 1
            }
            for i in 0..<n {
                let a = lines[2 * i], b = lines[2 * i + 1]
                let area = Self.lensArea(x: Double(pix[i].x), y: Double(pix[i].y), RasterPoint(a.x, a.y), a.z,
                                         RasterPoint(b.x, b.y), b.z, h: h)
                let v = (sign * area * 131_072).rounded()
                if v != 0 { out.append(SIMD3(Int32(pix[i].x), Int32(pix[i].y), Int32(v))) }
            }
        }
        }
        }
    }

    /// Area of the unit pixel at (x, y) inside both strips {X : |nA·X − cA| ≤ h} and
    /// {X : |nB·X − cB| ≤ h} (unit normals nA, nB): the square clipped by four half-planes
    /// (Sutherland–Hodgman in the pixel's own coordinates, at most 8 vertices, in fixed-size
    /// buffers). Each half-plane is first tested on the square's corners: one that keeps all
    /// four keeps every part of the square and is skipped, one that keeps none leaves nothing;
    /// at a lens corner usually two of the four cut the pixel.
    static func lensArea(x: Double, y: Double, _ nA: RasterPoint, _ cA: Double, _ nB: RasterPoint, _ cB: Double,
                         h: Double) -> Double {
        // half-plane k: n·(u, v) ≤ limit, (u, v) relative to the pixel's top-left corner
        let o = RasterPoint(x, y)
        let dA = cA - (nA * o).sum(), dB = cB - (nB * o).sum()
        let normals = (nA, -nA, nB, -nB)
        let limits = (dA + h, -dA + h, dB + h, -dB + h)
        var cutting = (0, 0, 0, 0), cuts = 0
        for k in 0..<4 {
            let n = k == 0 ? normals.0 : k == 1 ? normals.1 : k == 2 ? normals.2 : normals.3
            let limit = k == 0 ? limits.0 : k == 1 ? limits.1 : k == 2 ? limits.2 : limits.3
            // n·(u, v) at the corners (0,0), (1,0), (1,1), (0,1)
            let f0 = -limit, f1 = n.x - limit, f2 = n.x + n.y - limit, f3 = n.y - limit
            let inside = (f0 <= 0 ? 1 : 0) + (f1 <= 0 ? 1 : 0) + (f2 <= 0 ? 1 : 0) + (f3 <= 0 ? 1 : 0)
            if inside == 0 { return 0 }
            if inside == 4 { continue }
            switch cuts { case 0: cutting.0 = k; case 1: cutting.1 = k; case 2: cutting.2 = k; default: cutting.3 = k }
            cuts += 1
        }
        if cuts == 0 { return 1 }
        return withUnsafeTemporaryAllocation(of: RasterPoint.self, capacity: 32) { buf in
            var src = buf.baseAddress!, dst = buf.baseAddress! + 16
            src[0] = RasterPoint(0, 0); src[1] = RasterPoint(1, 0); src[2] = RasterPoint(1, 1); src[3] = RasterPoint(0, 1)
            var count = 4
            for c in 0..<cuts {
                let k = c == 0 ? cutting.0 : c == 1 ? cutting.1 : c == 2 ? cutting.2 : cutting.3
                let n = k == 0 ? normals.0 : k == 1 ? normals.1 : k == 2 ? normals.2 : normals.3
                let limit = k == 0 ? limits.0 : k == 1 ? limits.1 : k == 2 ? limits.2 : limits.3
                var m = 0
                var P = src[count - 1], fp = n.x * P.x + n.y * P.y - limit
                for j in 0..<count {
                    let Q = src[j], fq = n.x * Q.x + n.y * Q.y - limit
                    // edge P → Q: the crossing point if it changes side, then Q if inside
                    if (fp < 0 && fq > 0) || (fp > 0 && fq < 0) { dst[m] = P + (Q - P) * (fp / (fp - fq)); m += 1 }
                    if fq <= 0 { dst[m] = Q; m += 1 }
                    P = Q; fp = fq
                }
                if m < 3 { return 0 }
                swap(&src, &dst); count = m
            }
            var area = 0.0
            var P = src[count - 1]
            for j in 0..<count {
                let Q = src[j]
                area += P.x * Q.y - Q.x * P.y
                P = Q
            }
            return Swift.max(0, Swift.min(1, abs(area) / 2))
        }
    }
}
