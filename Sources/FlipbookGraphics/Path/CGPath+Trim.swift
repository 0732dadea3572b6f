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
        if f0 <= 0 && f1 >= 1 { return self is CGMutablePath ? _copy() : self }
        guard f1 > f0 else { return CGPath(elements: []) }
        let subs = _measuredTrimSubpaths()
        let total = subs.reduce(0) { $0 + $1.length }
        guard total > 0, total.isFinite else { return CGPath(elements: []) }
        let s0 = f0 * total, s1 = f1 * total
        // Pieces shorter than this are rounding noise at a segment boundary (a cut at exactly
        // the end of a segment must not leave a zero-length curve after it).
        let noise = 1e-9 * total
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
                guard hi - lo > noise || (len == 0 && lo == hi && x0 >= s0 && x1 <= s1) else { continue }
                if seg.kind == .line || seg.kind == .jump {
                    // Lines: the cut points as weighted means (exact at whole-number lengths).
                    let p = lo <= x0 ? seg.p0 : Self._along(seg.p0, seg.p3, lo - x0, len)
                    let q = hi >= x1 ? seg.p3 : Self._along(seg.p0, seg.p3, hi - x0, len)
                    if !started { out.append(.moveToPoint(p)); started = true }
                    out.append(.addLineToPoint(q))
                    continue
                }
                let u0 = lo - x0 <= noise ? 0 : seg._parameter(atLength: lo - x0, total: len)
                let u1 = x1 - hi <= noise ? 1 : seg._parameter(atLength: hi - x0, total: len)
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

    /// ``_trimSubpaths()``, measured once per immutable path (a shape layer trimmed frame after
    /// frame with `strokeStart`/`strokeEnd` keeps its path: measuring every curve's arc length
    /// was most of the trim); a `CGMutablePath` can change, so it is measured every time.
    func _measuredTrimSubpaths() -> [_TrimSubpath] {
        if self is CGMutablePath { return _trimSubpaths() }
        if let kept = _trimMeasure.withLock({ $0 }) { return kept }
        let measured = _trimSubpaths()
        _trimMeasure.withLock { $0 = measured }
        return measured
    }

    /// The subpaths with their original elements (a leading move included), their segments in
    /// cubic form (a closing line when the subpath closes away from its start) and lengths.
    func _trimSubpaths() -> [_TrimSubpath] {
        var result: [_TrimSubpath] = []
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

/// One subpath measured for trimming: its elements, segments, their lengths and the total.
typealias _TrimSubpath = (elements: [_PathElement], segments: [_PathSegment], lengths: [Double], length: Double)

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

extension CGPath {
    /// The path with the first and last curve of every open subpath split `length` (arc length)
    /// from the subpath's ends, so the end pieces are tiny curves. Same geometry, exactly.
    ///
    /// For butt and square caps: the stroker orients a cap along the last flattened chord, which
    /// on a curve is tilted from the true tangent by ⁵⁄₁₂ of the chord's angle (≈ 2.2° on a 40-px
    /// ring at the default 0.05 px tolerance); a final piece of arc length ℓ is one chord tilted by about
    /// ℓ / 2r instead (0.04° for ℓ = 0.05 px, r = 40 px), so caps end perpendicular to the
    /// curve as Core Graphics draws them. Lines, closed subpaths and curves shorter than
    /// 2·`length` are left as they are.
    package func _withFineEnds(length: Double) -> CGPath {
        guard length > 0, length.isFinite else { return self }
        var out: [_PathElement] = []
        out.reserveCapacity(elements.count + 4)
        var changed = false
        var i = 0
        let els = elements
        func isMove(_ e: _PathElement) -> Bool { if case .moveToPoint = e { return true }; return false }
        while i < els.count {
            var j = i + 1
            while j < els.count, els[j] != .closeSubpath, !isMove(els[j]) { j += 1 }
            let closed = j < els.count && els[j] == .closeSubpath
            if closed { j += 1 }
            var sub = Array(els[i..<j])
            if !closed, sub.count >= 2, case let .moveToPoint(s) = sub[0] {
                // The last element first (indices of the first stay valid).
                var prev = s
                for e in sub.dropLast() { if let p = e._endPoint { prev = p } }
                if let seg = Self._cubicSegment(sub[sub.count - 1], from: prev) {
                    let l = seg.length
                    if l > 2 * length {
                        let u = seg._parameter(atLength: l - length, total: l)
                        let a = seg._left(at: u), b = seg._right(at: u)
                        sub.replaceSubrange((sub.count - 1)..., with: [
                            .addCurveToPoint(control1: a.p1, control2: a.p2, to: a.p3),
                            .addCurveToPoint(control1: b.p1, control2: b.p2, to: b.p3)])
                        changed = true
                    }
                }
                if let seg = Self._cubicSegment(sub[1], from: s) {
                    let l = seg.length
                    if l > 2 * length {
                        let u = seg._parameter(atLength: length, total: l)
                        let a = seg._left(at: u), b = seg._right(at: u)
                        sub.replaceSubrange(1...1, with: [
                            .addCurveToPoint(control1: a.p1, control2: a.p2, to: a.p3),
                            .addCurveToPoint(control1: b.p1, control2: b.p2, to: b.p3)])
                        changed = true
                    }
                }
            }
            out += sub
            i = j
        }
        return changed ? CGPath(elements: out) : self
    }

    /// A quadratic or cubic element starting at `p0` in cubic form; nil for other elements.
    static func _cubicSegment(_ e: _PathElement, from p0: CGPoint) -> _PathSegment? {
        switch e {
        case let .addQuadCurveToPoint(c, p):
            return _PathSegment(kind: .quad, p0: p0, p1: _mix(p0, c, 2.0 / 3), p2: _mix(p, c, 2.0 / 3), p3: p)
        case let .addCurveToPoint(c1, c2, p):
            return _PathSegment(kind: .cubic, p0: p0, p1: c1, p2: c2, p3: p)
        default: return nil
        }
    }
}

extension _PathElement {
    /// The point the element ends on (nil for a close).
    var _endPoint: CGPoint? {
        switch self {
        case let .moveToPoint(p), let .addLineToPoint(p), let .addQuadCurveToPoint(_, p), let .addCurveToPoint(_, _, p): return p
        case .closeSubpath: return nil
        }
    }
}
