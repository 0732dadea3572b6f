import Foundation
import Flipbook

/// Boolean operations on filled outlines, for merge paths (`mm`): Flipbook's Core Graphics has
/// none, so the outlines are combined here, exactly up to the flattening of their curves.
///
/// The operands are flattened to closed polygons (chord error ≤ ``tolerance``). Every edge is
/// split where it meets another (crossings, touching vertices, overlapping collinear runs),
/// so the pieces only meet at their ends; a piece is kept when the result is inside on one
/// side of it and outside on the other — each operand's inside decided by its non-zero
/// winding number at points just off the piece's middle — oriented with the inside on its
/// left, duplicates dropped, and the pieces chained into closed loops. The loops are the
/// result's boundary: filled with either rule they cover the result, stroked they draw its
/// outline.
///
/// Modes (After Effects' Merge Paths; the first operand is the top-most shape, the others
/// combined in file order; each shape is an operand in its own right, a mode-1 merge before
/// making its shapes one compound operand): 2 add (union), 3 subtract (the first minus the
/// others), 4 intersect (inside every operand), 5 exclude intersections (inside an odd number of
/// operands). Mode 1 (merge) is the plain compound path and never reaches here.
enum LottiePathBoolean {
    /// The flattening tolerance, in the group's units.
    static let tolerance = 0.02

    typealias Ring = [CGPoint]

    /// The closed polygons of a bezier's subpath (open ones are closed, as a fill closes them).
    static func flatten(_ b: LottieBezier, transform t: CGAffineTransform) -> Ring {
        guard let first = b.vertices.first else { return [] }
        var ring = [first.applying(t)]
        var cubics = b.cubics
        if !b.closed, b.vertices.count > 1 {
            // The fill's closing line.
            cubics.append(LottieCubic(p0: b.vertices[b.vertices.count - 1], c1: b.vertices[b.vertices.count - 1],
                                      c2: first, p3: first))
        }
        for c in cubics {
            let q0 = c.p0.applying(t), q1 = c.c1.applying(t), q2 = c.c2.applying(t), q3 = c.p3.applying(t)
            if c.isLine { ring.append(q3); continue }
            let d1 = hypot(q0.x - 2 * q1.x + q2.x, q0.y - 2 * q1.y + q2.y)
            let d2 = hypot(q1.x - 2 * q2.x + q3.x, q1.y - 2 * q2.y + q3.y)
            let m = max(d1, d2)
            // Clamped as a Double first: a huge (or infinite) m must not overflow Int.
            let steps = (0.75 * m / tolerance).squareRoot().rounded(.up)
            let n = m.isFinite && !steps.isNaN ? Int(min(max(steps, 1), 256)) : 1
            let tc = LottieCubic(p0: q0, c1: q1, c2: q2, p3: q3)
            for i in 1...n { ring.append(tc.point(Double(i) / Double(n))) }
        }
        if ring.count > 1, ring[ring.count - 1] == ring[0] { ring.removeLast() }
        return ring.count >= 3 ? ring : []
    }

    /// The result of `mode` over the operands (each a list of rings), as closed loops.
    static func combine(_ operands: [[Ring]], mode: Int) -> [Ring] {
        let ops = operands.map { $0.filter { $0.count >= 3 } }
        guard !ops.isEmpty else { return [] }
        struct Edge { var a: CGPoint; var b: CGPoint }
        var edges: [Edge] = []
        var owner: [Int] = []
        for (k, rings) in ops.enumerated() {
            for r in rings {
                for i in r.indices {
                    let a = r[i], b = r[(i + 1) % r.count]
                    if a != b { edges.append(Edge(a: a, b: b)); owner.append(k) }
                }
            }
        }
        guard !edges.isEmpty else { return [] }
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        for e in edges {
            minX = min(minX, e.a.x, e.b.x); maxX = max(maxX, e.a.x, e.b.x)
            minY = min(minY, e.a.y, e.b.y); maxY = max(maxY, e.a.y, e.b.y)
        }
        let scale = max(maxX - minX, maxY - minY, 1e-9)
        guard scale.isFinite else { return [] }
        let eps = scale * 1e-9

        // Split points of each edge: (parameter, point), the point shared with the other edge.
        var splits = [[(Double, CGPoint)]](repeating: [], count: edges.count)
        func cross(_ u: CGPoint, _ v: CGPoint) -> Double { u.x * v.y - u.y * v.x }
        func sub(_ u: CGPoint, _ v: CGPoint) -> CGPoint { CGPoint(x: u.x - v.x, y: u.y - v.y) }
        func param(_ p: CGPoint, on e: Edge) -> Double {
            let d = sub(e.b, e.a), l2 = d.x * d.x + d.y * d.y
            return l2 > 0 ? ((p.x - e.a.x) * d.x + (p.y - e.a.y) * d.y) / l2 : 0
        }
        func distance(_ p: CGPoint, to e: Edge) -> Double {
            let d = sub(e.b, e.a), l = hypot(d.x, d.y)
            return l > 0 ? abs(cross(d, sub(p, e.a))) / l : hypot(p.x - e.a.x, p.y - e.a.y)
        }
        /// Records `p` on edge `i` when it falls strictly inside it.
        func mark(_ i: Int, _ p: CGPoint) {
            let t = param(p, on: edges[i])
            let len = hypot(edges[i].b.x - edges[i].a.x, edges[i].b.y - edges[i].a.y)
            if t * len > eps && (1 - t) * len > eps { splits[i].append((t, p)) }
        }
        // Sort edges by min x for a sweep on x.
        let order = edges.indices.sorted { min(edges[$0].a.x, edges[$0].b.x) < min(edges[$1].a.x, edges[$1].b.x) }
        for (oi, i) in order.enumerated() {
            let e = edges[i]
            let eMaxX = max(e.a.x, e.b.x), eMinY = min(e.a.y, e.b.y), eMaxY = max(e.a.y, e.b.y)
            var oj = oi + 1
            while oj < order.count {
                let j = order[oj]
                oj += 1
                let f = edges[j]
                if min(f.a.x, f.b.x) > eMaxX + eps { break }
                if max(f.a.y, f.b.y) < eMinY - eps || min(f.a.y, f.b.y) > eMaxY + eps { continue }
                let r = sub(e.b, e.a), s = sub(f.b, f.a)
                let denom = cross(r, s)
                if abs(denom) <= 1e-12 * hypot(r.x, r.y) * hypot(s.x, s.y) {
                    // Parallel: collinear overlaps split each other at their ends.
                    if distance(f.a, to: e) <= eps || distance(f.b, to: e) <= eps {
                        for p in [f.a, f.b] where distance(p, to: e) <= eps { mark(i, p) }
                        for p in [e.a, e.b] where distance(p, to: f) <= eps { mark(j, p) }
                    }
                    continue
                }
                let qp = sub(f.a, e.a)
                let t = cross(qp, s) / denom, u = cross(qp, r) / denom
                let lr = hypot(r.x, r.y), ls = hypot(s.x, s.y)
                guard t * lr >= -eps, (t - 1) * lr <= eps, u * ls >= -eps, (u - 1) * ls <= eps else { continue }
                // Snap to an end point when the crossing is at one (touching vertices).
                var p = CGPoint(x: e.a.x + r.x * t, y: e.a.y + r.y * t)
                for q in [e.a, e.b, f.a, f.b] where hypot(q.x - p.x, q.y - p.y) <= eps { p = q }
                mark(i, p); mark(j, p)
            }
        }

        // Winding numbers of each operand.
        func winding(_ p: CGPoint, _ k: Int) -> Int {
            var w = 0
            for r in ops[k] {
                for i in r.indices {
                    let a = r[i], b = r[(i + 1) % r.count]
                    if a.y <= p.y {
                        if b.y > p.y && cross(sub(b, a), sub(p, a)) > 0 { w += 1 }
                    } else if b.y <= p.y && cross(sub(b, a), sub(p, a)) < 0 {
                        w -= 1
                    }
                }
            }
            return w
        }
        func inside(_ p: CGPoint) -> Bool {
            let ins = ops.indices.map { winding(p, $0) != 0 }
            switch mode {
            case 3: return ins[0] && !ins.dropFirst().contains(true)
            case 4: return !ins.contains(false)
            case 5: return ins.filter { $0 }.count % 2 == 1
            default: return ins.contains(true)
            }
        }

        struct Key: Hashable { var ax: Double, ay: Double, bx: Double, by: Double }
        var kept: [(CGPoint, CGPoint)] = []
        var seen: Set<Key> = []
        let offset = scale * 1e-7
        for i in edges.indices {
            let pts = [(0.0, edges[i].a)] + splits[i].sorted { $0.0 < $1.0 } + [(1.0, edges[i].b)]
            for k in 0..<(pts.count - 1) {
                let a = pts[k].1, b = pts[k + 1].1
                guard a != b else { continue }
                let d = sub(b, a), l = hypot(d.x, d.y)
                let m = CGPoint(x: (a.x + b.x) / 2, y: (a.y + b.y) / 2)
                let n = CGPoint(x: -d.y / l * offset, y: d.x / l * offset)
                let left = inside(CGPoint(x: m.x + n.x, y: m.y + n.y)), right = inside(CGPoint(x: m.x - n.x, y: m.y - n.y))
                guard left != right else { continue }
                let (p, q) = left ? (a, b) : (b, a)
                if seen.insert(Key(ax: p.x, ay: p.y, bx: q.x, by: q.y)).inserted { kept.append((p, q)) }
            }
        }

        // Chain the pieces into loops.
        struct PointKey: Hashable { var x: Double, y: Double }
        var outgoing: [PointKey: [Int]] = [:]
        for (i, e) in kept.enumerated() { outgoing[PointKey(x: e.0.x, y: e.0.y), default: []].append(i) }
        var used = [Bool](repeating: false, count: kept.count)
        var loops: [Ring] = []
        for start in kept.indices where !used[start] {
            var loop: Ring = []
            var i = start
            while !used[i] {
                used[i] = true
                loop.append(kept[i].0)
                let end = kept[i].1
                guard let next = outgoing[PointKey(x: end.x, y: end.y)]?.first(where: { !used[$0] }) else { break }
                i = next
            }
            if loop.count >= 3 { loops.append(loop) }
        }
        return loops
    }

    /// A ring as a closed polyline bezier.
    static func bezier(_ r: Ring) -> LottieBezier {
        LottieBezier(closed: true, vertices: r, inTangents: r.map { _ in .zero }, outTangents: r.map { _ in .zero })
    }
}
