import Foundation
import Flipbook

/// Offset paths (`op`): each subpath moved outwards by `a` points (inwards when negative), its
/// corners joined as `lj` says (1 miter, up to the miter limit `ml`; 2 round; 3 bevel).
///
/// The construction follows lottie-web's `OffsetPathModifier` and ThorVG's offset modifier:
/// - every segment is offset on its own: a straight one by moving its ends along its normal;
///   a curve is cut at its inflection points and halved until each piece turns by less than
///   about 23°, and each piece is replaced by the cubic whose control polygon is the piece's
///   control polygon with each side moved by the amount (Tiller–Hanson; close to the true
///   offset curve at that flatness);
/// - where two offset segments no longer meet, an **outer** corner (the path turns away from
///   the offset side) gets the join, an **inner** one (the offsets cross) is cut at the
///   crossing of the two end tangents, as ThorVG does;
/// - "outwards" does not depend on the direction the shape is drawn (ThorVG's rule: the sign
///   of the subpath's area picks the side), so a reversed (`d: 3`) shape grows too;
/// - an open subpath becomes the closed outline around it (forwards along one side, back
///   along the other, the ends joined with the line join), as lottie-web draws it.
enum LottieOffsetPath {
    /// `b` offset by `amount` with line join `lineJoin` (1, 2, 3) and miter limit `miterLimit`
    /// (the miter's length over the offset, as for strokes).
    static func offset(_ b: LottieBezier, amount: Double, lineJoin: Int, miterLimit: Double) -> LottieBezier {
        guard amount != 0, amount.isFinite else { return b }
        var segments = b.cubics.filter { !($0.isLine && $0.p0 == $0.p3) }
        // A subpath of more segments than this is left as it is (each may become 64 pieces).
        guard !segments.isEmpty, segments.count <= 100_000, segments.allSatisfy({ [$0.p0, $0.c1, $0.c2, $0.p3].allSatisfy { $0.x.isFinite && $0.y.isFinite } })
        else { return b }
        var side = 1.0
        if b.closed {
            side = signedArea(segments) >= 0 ? 1 : -1
        } else {
            // The way back along the other side.
            segments += segments.reversed().map { LottieCubic(p0: $0.p3, c1: $0.c2, c2: $0.c1, p3: $0.p0) }
        }
        let d = amount * side
        var out: [LottieCubic] = []
        for segment in segments {
            var piece = offsetSegment(segment, d)
            guard !piece.isEmpty else { continue }
            if !out.isEmpty {
                join(&out, next: piece[0], offset: d, lineJoin: lineJoin, miterLimit: miterLimit)
                piece[0].moveStart(to: out[out.count - 1].p3)
            }
            out += piece
        }
        guard !out.isEmpty else { return b }
        // The closing corner, back to the first piece (whose start an inner corner moves).
        join(&out, next: out[0], offset: d, lineJoin: lineJoin, miterLimit: miterLimit)
        out[0].moveStart(to: out[out.count - 1].p3)
        var result = LottieBezier(openCubics: out)
        // Closed: the last vertex is the first one again.
        let inLast = result.inTangents.removeLast()
        result.vertices.removeLast()
        result.outTangents.removeLast()
        result.inTangents[0] = inLast
        result.closed = true
        return result
    }

    /// Twice the signed area of the control polygons (positive: clockwise on screen, y down).
    static func signedArea(_ s: [LottieCubic]) -> Double {
        var a = 0.0
        for c in s {
            for (p, q) in [(c.p0, c.c1), (c.c1, c.c2), (c.c2, c.p3)] { a += p.x * q.y - p.y * q.x }
        }
        return a
    }

    /// The offset side's unit normal of direction `t`: `(t.y, −t.x)` (for a clockwise shape,
    /// the outside), times the signed distance.
    static func normal(_ t: CGPoint, _ d: Double) -> CGPoint {
        let len = hypot(t.x, t.y)
        guard len > 0 else { return .zero }
        return CGPoint(x: t.y / len * d, y: -t.x / len * d)
    }

    // MARK: Segments

    /// One segment offset by `d`: one cubic per piece.
    static func offsetSegment(_ c: LottieCubic, _ d: Double) -> [LottieCubic] {
        if c.isLine {
            let n = normal(c.p3 - c.p0, d)
            let a = c.p0 + n, b = c.p3 + n
            return [LottieCubic(p0: a, c1: a, c2: b, p3: b)]
        }
        var out: [LottieCubic] = []
        var ts = [0.0] + inflections(c) + [1.0]
        ts = ts.filter { $0 >= 0 && $0 <= 1 }
        for k in 0..<(ts.count - 1) where ts[k + 1] - ts[k] > 1e-6 {
            flatten(c.split(ts[k], ts[k + 1]), d, depth: 0, into: &out)
        }
        return out
    }

    /// Halves `c` until its end tangents differ by less than about 23°, then offsets each piece.
    static func flatten(_ c: LottieCubic, _ d: Double, depth: Int, into out: inout [LottieCubic]) {
        let t0 = startTangent(c), t1 = endTangent(c)
        let l0 = hypot(t0.x, t0.y), l1 = hypot(t1.x, t1.y)
        let cosine = l0 > 0 && l1 > 0 ? (t0.x * t1.x + t0.y * t1.y) / (l0 * l1) : 1
        if cosine < 0.92 && depth < 6 {
            flatten(c.split(0, 0.5), d, depth: depth + 1, into: &out)
            flatten(c.split(0.5, 1), d, depth: depth + 1, into: &out)
            return
        }
        out.append(tillerHanson(c, d))
    }

    static func startTangent(_ c: LottieCubic) -> CGPoint {
        if c.c1 != c.p0 { return c.c1 - c.p0 }
        if c.c2 != c.p0 { return c.c2 - c.p0 }
        return c.p3 - c.p0
    }

    static func endTangent(_ c: LottieCubic) -> CGPoint {
        if c.p3 != c.c2 { return c.p3 - c.c2 }
        if c.p3 != c.c1 { return c.p3 - c.c1 }
        return c.p3 - c.p0
    }

    /// The cubic whose control polygon sides are `c`'s moved by `d` along their normals.
    static func tillerHanson(_ c: LottieCubic, _ d: Double) -> LottieCubic {
        let n0 = normal(startTangent(c), d), n2 = normal(endTangent(c), d)
        let p0 = c.p0 + n0, p3 = c.p3 + n2
        // The middle side (c1 → c2); degenerate when a handle is on its end.
        let mid = c.c2 - c.c1
        guard hypot(mid.x, mid.y) > 1e-9 else {
            return LottieCubic(p0: p0, c1: c.c1 + n0, c2: c.c2 + n2, p3: p3)
        }
        let n1 = normal(mid, d)
        let m0 = c.c1 + n1, m1 = c.c2 + n1
        let c1 = c.c1 == c.p0 ? p0 : (intersection(p0, startTangent(c), m0, mid) ?? (c.c1 + n0))
        let c2 = c.c2 == c.p3 ? p3 : (intersection(p3, endTangent(c), m1, mid) ?? (c.c2 + n2))
        return LottieCubic(p0: p0, c1: c1, c2: c2, p3: p3)
    }

    /// The crossing of the lines `p + s·u` and `q + t·v`; nil when (nearly) parallel.
    static func intersection(_ p: CGPoint, _ u: CGPoint, _ q: CGPoint, _ v: CGPoint) -> CGPoint? {
        let den = u.x * v.y - u.y * v.x
        let scale = hypot(u.x, u.y) * hypot(v.x, v.y)
        guard scale > 0, abs(den) > 1e-9 * scale else { return nil }
        let s = ((q.x - p.x) * v.y - (q.y - p.y) * v.x) / den
        return CGPoint(x: p.x + s * u.x, y: p.y + s * u.y)
    }

    /// The parameters in (0, 1) where `c` changes the way it turns.
    static func inflections(_ c: LottieCubic) -> [Double] {
        // B'(t) × B''(t) = 0: a quadratic in t.
        let a = c.c1 - c.p0, b = c.c2 - c.c1 - a, cc = c.p3 - c.c2 * 3 + c.c1 * 3 - c.p0
        // cross(a + 2bt + cc t², b + cc t) up to constant factors
        let q2 = b.x * cc.y - b.y * cc.x
        let q1 = a.x * cc.y - a.y * cc.x
        let q0 = a.x * b.y - a.y * b.x
        var roots: [Double] = []
        if abs(q2) < 1e-12 {
            if abs(q1) > 1e-12 { roots = [-q0 / q1] }
        } else {
            let disc = q1 * q1 - 4 * q2 * q0
            if disc >= 0 {
                let r = disc.squareRoot()
                roots = [(-q1 - r) / (2 * q2), (-q1 + r) / (2 * q2)]
            }
        }
        return roots.filter { $0 > 1e-4 && $0 < 1 - 1e-4 }.sorted()
    }

    // MARK: Joins

    /// Joins `out`'s last offset piece to `next`, the following one: nothing when they meet;
    /// an inner corner is cut at the crossing of the two end tangents (the last piece's end
    /// moved there; the caller starts `next` there); an outer corner gets the line join.
    static func join(_ out: inout [LottieCubic], next first: LottieCubic, offset d: Double, lineJoin: Int, miterLimit: Double) {
        guard var last = out.last else { return }
        let a = last.p3, b = first.p0
        guard hypot(b.x - a.x, b.y - a.y) > 1e-6 else { return }
        let ta = endTangent(last), tb = startTangent(first)
        let na = normal(ta, d)
        // Turning towards the offset side: the offsets overlap (an inner corner).
        if tb.x * na.x + tb.y * na.y > 0 {
            if let x = intersection(a, ta, b, tb), hypot(x.x - a.x, x.y - a.y) < 4 * abs(d) + hypot(b.x - a.x, b.y - a.y) {
                last.c2 = last.c2 + (x - last.p3)
                last.p3 = x
                out[out.count - 1] = last
            } else {
                out.append(line(a, b))
            }
            return
        }
        switch lineJoin {
        case 2:
            out += arc(from: a, to: b, center: a - na, radius: abs(d), direction: ta)
        case 3:
            out.append(line(a, b))
        default:
            if let x = intersection(a, ta, b, tb) {
                // The miter's length over the offset: 1 / cos(half the turn).
                let ratio = hypot(x.x - (a.x - na.x), x.y - (a.y - na.y)) / abs(d)
                if ratio <= max(miterLimit, 1) {
                    out.append(line(a, x))
                    out.append(line(x, b))
                    return
                }
            }
            out.append(line(a, b))
        }
    }

    static func line(_ a: CGPoint, _ b: CGPoint) -> LottieCubic { LottieCubic(p0: a, c1: a, c2: b, p3: b) }

    /// The arc of the circle around `center` from `a` to `b` on the side `direction` leaves
    /// `a` towards, as cubics of at most 90° each.
    static func arc(from a: CGPoint, to b: CGPoint, center o: CGPoint, radius r: Double, direction: CGPoint) -> [LottieCubic] {
        let a0 = atan2(a.y - o.y, a.x - o.x)
        var sweep = atan2(b.y - o.y, b.x - o.x) - a0
        // The way `direction` goes from a: counterclockwise (in these axes) when it points
        // along +90° from the radius.
        let ccw = ((a.x - o.x) * direction.y - (a.y - o.y) * direction.x) > 0
        if ccw { while sweep < 0 { sweep += 2 * .pi } } else { while sweep > 0 { sweep -= 2 * .pi } }
        let n = max(1, Int((abs(sweep) / (.pi / 2)).rounded(.up)))
        let step = sweep / Double(n)
        let k = 4.0 / 3.0 * tan(step / 4) * r
        var out: [LottieCubic] = []
        var p = a, angle = a0
        for i in 0..<n {
            let next = angle + step
            let q = i == n - 1 ? b : CGPoint(x: o.x + r * cos(next), y: o.y + r * sin(next))
            let c1 = CGPoint(x: p.x - k * sin(angle), y: p.y + k * cos(angle))
            let c2 = CGPoint(x: q.x + k * sin(next), y: q.y - k * cos(next))
            out.append(LottieCubic(p0: p, c1: c1, c2: c2, p3: q))
            p = q; angle = next
        }
        return out
    }
}

extension LottieCubic {
    /// Moves the start point, its handle with it (a straight piece stays straight).
    fileprivate mutating func moveStart(to p: CGPoint) {
        c1 = CGPoint(x: c1.x + p.x - p0.x, y: c1.y + p.y - p0.y)
        p0 = p
    }
}

private func + (a: CGPoint, b: CGPoint) -> CGPoint { CGPoint(x: a.x + b.x, y: a.y + b.y) }
private func - (a: CGPoint, b: CGPoint) -> CGPoint { CGPoint(x: a.x - b.x, y: a.y - b.y) }
private func * (a: CGPoint, s: Double) -> CGPoint { CGPoint(x: a.x * s, y: a.y * s) }
