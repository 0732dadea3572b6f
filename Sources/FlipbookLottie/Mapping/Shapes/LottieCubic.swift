import Foundation
import Flipbook

/// One cubic segment of a Lottie bezier with absolute control points, and what trims need of
/// it: its arc length and the piece between two arc-length fractions.
struct LottieCubic: Equatable {
    var p0: CGPoint, c1: CGPoint, c2: CGPoint, p3: CGPoint

    func point(_ t: Double) -> CGPoint {
        let u = 1 - t
        let a = u * u * u, b = 3 * u * u * t, c = 3 * u * t * t, d = t * t * t
        return CGPoint(x: a * p0.x + b * c1.x + c * c2.x + d * p3.x, y: a * p0.y + b * c1.y + c * c2.y + d * p3.y)
    }

    /// True when both handles sit on their end points (a straight line).
    var isLine: Bool { c1 == p0 && c2 == p3 }

    /// Cumulative arc lengths at `t = i / n`, `i = 0…n` (n = 1 for lines).
    func lengthTable() -> [Double] {
        if isLine { return [0, hypot(p3.x - p0.x, p3.y - p0.y)] }
        // Chord error below 1e-3 units on the curves Lottie files hold: sample by the
        // control polygon's length, 8…256 steps.
        let poly = hypot(c1.x - p0.x, c1.y - p0.y) + hypot(c2.x - c1.x, c2.y - c1.y) + hypot(p3.x - c2.x, p3.y - c2.y)
        let n = poly.isFinite ? Int(min(max(poly / 2, 8), 256)) : 8   // clamped before Int(): poly may be 1e308
        var table = [0.0]
        table.reserveCapacity(n + 1)
        var prev = p0, sum = 0.0
        for i in 1...n {
            let q = point(Double(i) / Double(n))
            sum += hypot(q.x - prev.x, q.y - prev.y)
            table.append(sum)
            prev = q
        }
        return table
    }

    /// The parameter at arc length `s` (0…total) from a table of `lengthTable()`.
    static func parameter(atLength s: Double, table: [Double]) -> Double {
        let n = table.count - 1
        guard n > 0, let total = table.last, total > 0 else { return 0 }
        if s <= 0 { return 0 }
        if s >= total { return 1 }
        var lo = 0, hi = n
        while hi - lo > 1 { let m = (lo + hi) / 2; if table[m] <= s { lo = m } else { hi = m } }
        let span = table[hi] - table[lo]
        let f = span > 0 ? (s - table[lo]) / span : 0
        return (Double(lo) + f) / Double(n)
    }

    /// The piece between parameters `t0 ≤ t1`, exactly (de Casteljau). A straight line's
    /// parameter is its arc-length fraction (``lengthTable()`` gives it one step, so
    /// ``parameter(atLength:table:)`` is linear): its piece is cut at those fractions of the
    /// chord, not by de Casteljau, whose parameter runs unevenly along a line with both handles
    /// on its ends (`3t² − 2t³`: a trim to 10 % would stop at 2.8 %).
    func split(_ t0: Double, _ t1: Double) -> LottieCubic {
        if t0 <= 0 && t1 >= 1 { return self }
        if isLine {
            let a = Self.mix(p0, p3, max(t0, 0)), b = Self.mix(p0, p3, min(t1, 1))
            return LottieCubic(p0: a, c1: a, c2: b, p3: b)
        }
        var s = self
        if t1 < 1 { s = s.left(t1) }
        if t0 > 0 { s = s.right(t1 > 0 ? min(max(t0 / t1, 0), 1) : 0) }
        return s
    }

    private static func mix(_ a: CGPoint, _ b: CGPoint, _ t: Double) -> CGPoint {
        CGPoint(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t)
    }

    func left(_ t: Double) -> LottieCubic {
        let a = Self.mix(p0, c1, t), b = Self.mix(c1, c2, t), c = Self.mix(c2, p3, t)
        let d = Self.mix(a, b, t), e = Self.mix(b, c, t)
        return LottieCubic(p0: p0, c1: a, c2: d, p3: Self.mix(d, e, t))
    }

    func right(_ t: Double) -> LottieCubic {
        let a = Self.mix(p0, c1, t), b = Self.mix(c1, c2, t), c = Self.mix(c2, p3, t)
        let d = Self.mix(a, b, t), e = Self.mix(b, c, t)
        return LottieCubic(p0: Self.mix(d, e, t), c1: e, c2: c, p3: p3)
    }
}

extension LottieBezier {
    /// The segments in drawing order, with absolute control points (the closing segment last
    /// for a closed bezier).
    var cubics: [LottieCubic] {
        let n = vertices.count
        guard n > 1 || (n == 1 && closed) else { return [] }
        func inT(_ j: Int) -> CGPoint { j < inTangents.count ? inTangents[j] : .zero }
        func outT(_ j: Int) -> CGPoint { j < outTangents.count ? outTangents[j] : .zero }
        let last = closed ? n : n - 1
        var out: [LottieCubic] = []
        out.reserveCapacity(last)
        for j in 0..<last {
            let k = (j + 1) % n
            let a = vertices[j], b = vertices[k], o = outT(j), i = inT(k)
            out.append(LottieCubic(p0: a, c1: CGPoint(x: a.x + o.x, y: a.y + o.y), c2: CGPoint(x: b.x + i.x, y: b.y + i.y), p3: b))
        }
        return out
    }

    /// An open bezier through consecutive cubics (each starting where the previous ends).
    init(openCubics c: [LottieCubic]) {
        var v: [CGPoint] = [], i: [CGPoint] = [], o: [CGPoint] = []
        for (k, s) in c.enumerated() {
            if k == 0 { v.append(s.p0); i.append(.zero); o.append(.zero) }
            o[o.count - 1] = CGPoint(x: s.c1.x - s.p0.x, y: s.c1.y - s.p0.y)
            v.append(s.p3); i.append(CGPoint(x: s.c2.x - s.p3.x, y: s.c2.y - s.p3.y)); o.append(.zero)
        }
        self.init(closed: false, vertices: v, inTangents: i, outTangents: o)
    }

    /// The bezier drawn the other way round (same vertices, reverse order, handles swapped).
    var reversed: LottieBezier {
        let n = vertices.count
        guard n > 1 else { return self }
        func inT(_ j: Int) -> CGPoint { j < inTangents.count ? inTangents[j] : .zero }
        func outT(_ j: Int) -> CGPoint { j < outTangents.count ? outTangents[j] : .zero }
        if closed {
            // Keep the first vertex first: v0, v(n-1), …, v1.
            let order = [0] + (1..<n).reversed()
            return LottieBezier(closed: true, vertices: order.map { vertices[$0] }, inTangents: order.map { outT($0) },
                                outTangents: order.map { inT($0) })
        }
        let order = Array((0..<n).reversed())
        return LottieBezier(closed: false, vertices: order.map { vertices[$0] }, inTangents: order.map { outT($0) },
                            outTangents: order.map { inT($0) })
    }

    /// Appends the bezier to `path` through `t`, every segment as a cubic when `allCurves`
    /// (the same element structure for every value of an animated path, so Core Animation
    /// blends the paths point by point), else straight segments as lines.
    func append(to path: CGMutablePath, transform t: CGAffineTransform, allCurves: Bool) {
        if !allCurves { append(to: path, transform: t); return }
        let n = vertices.count
        guard n > 0 else { return }
        path.move(to: vertices[0], transform: t)
        for c in cubics { path.addCurve(to: c.p3, control1: c.c1, control2: c.c2, transform: t) }
        if closed { path.closeSubpath() }
    }
}
