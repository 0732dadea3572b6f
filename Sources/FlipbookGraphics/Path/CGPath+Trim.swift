import Foundation
/// Trimming a path by arc length (`CAShapeLayer.strokeStart` / `strokeEnd`).
extension CGPath {
    /// The part of the path between the fractions `from` and `to` of its total arc length, all
    /// subpaths together (moves between subpaths count 0), each clamped to 0…1.
    ///
    /// - `from ≤ 0` and `to ≥ 1`: the path itself (closed subpaths stay closed: joins, no caps).
    /// - `to ≤ from`, or a path of zero length: an empty path.
    /// - Otherwise a subpath wholly inside the range is kept as it is (closed ones stay closed);
    ///   one cut by the range becomes one open subpath: a move to the cut point, then the
    ///   pieces of its segments, curves split exactly at the cut parameters (de Casteljau), so
    ///   the trimmed path lies on the original. Quadratics come out as the equivalent cubics.
    ///
    /// The cut parameter of a curve is found from its arc-length table (the curve flattened to
    /// 1e-4 units, as ``_sample(atArcLength:)``): on a circle of radius 100 a cut is within
    /// 1e-4° of the exact angle.
    package func _trimmed(from: Double, to: Double) -> CGPath {
        let f0 = from.isNaN ? 0 : min(max(from, 0), 1)
        let f1 = to.isNaN ? 1 : min(max(to, 0), 1)
        if f0 <= 0 && f1 >= 1 { return self is CGMutablePath ? copy() : self }
        guard f1 > f0 else { return CGPath(elements: []) }
        let subs = _trimSubpaths()
        let total = subs.reduce(0) { $0 + $1.length }
        guard total > 0, total.isFinite else { return CGPath(elements: []) }
        let s0 = f0 * total, s1 = f1 * total
        var out: [_PathElement] = []
        var acc = 0.0
        for sub in subs {
            let a = acc, b = acc + sub.length
            acc = b
            guard b > s0, a < s1 else { continue }
            if a >= s0 && b <= s1 {
                out += sub.elements
                continue
            }
            // Cut: the pieces of the segments overlapping [s0, s1].
            var pos = a
            var started = false
            for (seg, len) in zip(sub.segments, sub.lengths) {
                let x0 = pos, x1 = pos + len
                pos = x1
                let lo = max(s0, x0), hi = min(s1, x1)
                guard hi > lo || (len == 0 && lo == hi && x0 >= s0 && x1 <= s1) else { continue }
                if seg.kind == .line || seg.kind == .jump {
                    // Lines: the cut points as weighted means (exact at whole-number lengths).
                    let p = lo <= x0 ? seg.p0 : Self._along(seg.p0, seg.p3, lo - x0, len)
                    let q = hi >= x1 ? seg.p3 : Self._along(seg.p0, seg.p3, hi - x0, len)
                    if !started { out.append(.moveToPoint(p)); started = true }
                    out.append(.addLineToPoint(q))
                    continue
                }
                let u0 = lo <= x0 ? 0 : seg._parameter(atLength: lo - x0, total: len)
                let u1 = hi >= x1 ? 1 : seg._parameter(atLength: hi - x0, total: len)
                let piece = seg._split(from: u0, to: u1)
                if !started { out.append(.moveToPoint(piece.p0)); started = true }
                switch seg.kind {
                case .line, .jump: out.append(.addLineToPoint(piece.p3))
                case .quad, .cubic:
                    out.append(.addCurveToPoint(control1: piece.p1, control2: piece.p2, to: piece.p3))
                }
            }
        }
        return CGPath(elements: out)
    }

    /// The point at distance `s` from `a` towards `b` (`len` = |ab| > 0): `(a·(len − s) + b·s) / len`.
    static func _along(_ a: CGPoint, _ b: CGPoint, _ s: Double, _ len: Double) -> CGPoint {
        CGPoint(x: (a.x * (len - s) + b.x * s) / len, y: (a.y * (len - s) + b.y * s) / len)
    }

    /// The subpaths with their original elements (a leading move included), their segments in
    /// cubic form (a closing line when the subpath closes away from its start) and lengths.
    func _trimSubpaths() -> [(elements: [_PathElement], segments: [_PathSegment], lengths: [Double], length: Double)] {
        var result: [(elements: [_PathElement], segments: [_PathSegment], lengths: [Double], length: Double)] = []
        var els: [_PathElement] = [], segs: [_PathSegment] = []
        var cur = CGPoint.zero, start = CGPoint.zero
        func flush() {
            if !els.isEmpty {
                let lens = segs.map(\.length)
                result.append((els, segs, lens, lens.reduce(0, +)))
            }
            els = []; segs = []
        }
        for e in elements {
            switch e {
            case let .moveToPoint(p):
                flush()
                els = [e]
                cur = p; start = p
                continue
            case let .addLineToPoint(p):
                if els.isEmpty { els = [.moveToPoint(cur)]; start = cur }
                segs.append(_PathSegment(kind: .line, p0: cur, p1: _mix(cur, p, 1.0 / 3), p2: _mix(cur, p, 2.0 / 3), p3: p))
            case let .addQuadCurveToPoint(c, p):
                if els.isEmpty { els = [.moveToPoint(cur)]; start = cur }
                segs.append(_PathSegment(kind: .quad, p0: cur, p1: _mix(cur, c, 2.0 / 3), p2: _mix(p, c, 2.0 / 3), p3: p))
            case let .addCurveToPoint(c1, c2, p):
                if els.isEmpty { els = [.moveToPoint(cur)]; start = cur }
                segs.append(_PathSegment(kind: .cubic, p0: cur, p1: c1, p2: c2, p3: p))
            case .closeSubpath:
                guard !els.isEmpty else { continue }
                if cur != start {
                    segs.append(_PathSegment(kind: .line, p0: cur, p1: _mix(cur, start, 1.0 / 3), p2: _mix(cur, start, 2.0 / 3), p3: start))
                }
                els.append(e)
                cur = start
                flush()
                // A segment after a close starts a new subpath at the same start point.
                continue
            }
            els.append(e)
            e._advance(current: &cur, subpathStart: &start)
        }
        flush()
        return result
    }
}

extension _PathSegment {
    /// The part of the curve between parameters `u0 ≤ u1`, exactly (de Casteljau twice).
    func _split(from u0: Double, to u1: Double) -> _PathSegment {
        if u0 <= 0 && u1 >= 1 { return self }
        // Left part [0, u1].
        var s = self
        if u1 < 1 { s = s._left(at: u1) }
        // Then the right part of that at u0 / u1.
        if u0 > 0 {
            let t = u1 > 0 ? u0 / u1 : 0
            s = s._right(at: min(max(t, 0), 1))
        }
        return s
    }

    func _left(at t: Double) -> _PathSegment {
        let a = _mix(p0, p1, t), b = _mix(p1, p2, t), c = _mix(p2, p3, t)
        let d = _mix(a, b, t), e = _mix(b, c, t), m = _mix(d, e, t)
        return _PathSegment(kind: kind, p0: p0, p1: a, p2: d, p3: m)
    }

    func _right(at t: Double) -> _PathSegment {
        let a = _mix(p0, p1, t), b = _mix(p1, p2, t), c = _mix(p2, p3, t)
        let d = _mix(a, b, t), e = _mix(b, c, t), m = _mix(d, e, t)
        return _PathSegment(kind: kind, p0: m, p1: e, p2: c, p3: p3)
    }
}
