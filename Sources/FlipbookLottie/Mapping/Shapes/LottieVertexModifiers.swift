import Foundation
import Flipbook

/// The modifiers that move vertices and handles of each subpath on its own.
enum LottieVertexModifiers {
    /// Rounded corners (`rd`), as lottie-web's `RoundCornersModifier`: every **sharp** vertex
    /// (both handles zero) — except the ends of an open path — is replaced by two vertices,
    /// `min(radius, half the neighbouring edge)` along each edge from it, joined by a cubic
    /// whose handles reach `(1 − 0.5519)` of the way back to the old corner. Curved vertices
    /// are kept as they are.
    static func roundCorners(_ b: LottieBezier, radius round: Double) -> LottieBezier {
        let n = b.vertices.count
        guard round > 0, n > 1 else { return b }
        let k = LottieShapeGeometry.kappa
        func inT(_ j: Int) -> CGPoint { j < b.inTangents.count ? b.inTangents[j] : .zero }
        func outT(_ j: Int) -> CGPoint { j < b.outTangents.count ? b.outTangents[j] : .zero }
        var v: [CGPoint] = [], ins: [CGPoint] = [], outs: [CGPoint] = []
        func add(_ p: CGPoint, out o: CGPoint, in i: CGPoint) {
            v.append(p); outs.append(CGPoint(x: o.x - p.x, y: o.y - p.y)); ins.append(CGPoint(x: i.x - p.x, y: i.y - p.y))
        }
        for i in 0..<n {
            let cur = b.vertices[i]
            guard inT(i) == .zero, outT(i) == .zero, b.closed || (i != 0 && i != n - 1) else {
                v.append(cur); ins.append(inT(i)); outs.append(outT(i))
                continue
            }
            // Towards the previous vertex.
            let prev = b.vertices[i == 0 ? n - 1 : i - 1]
            var d = hypot(cur.x - prev.x, cur.y - prev.y)
            var t = d > 0 ? min(d / 2, round) / d : 0
            let inP = CGPoint(x: cur.x + (prev.x - cur.x) * t, y: cur.y + (prev.y - cur.y) * t)
            add(inP, out: CGPoint(x: inP.x - (inP.x - cur.x) * k, y: inP.y - (inP.y - cur.y) * k), in: inP)
            // Towards the next one.
            let next = b.vertices[i == n - 1 ? 0 : i + 1]
            d = hypot(cur.x - next.x, cur.y - next.y)
            t = d > 0 ? min(d / 2, round) / d : 0
            let outP = CGPoint(x: cur.x + (next.x - cur.x) * t, y: cur.y + (next.y - cur.y) * t)
            add(outP, out: outP, in: CGPoint(x: outP.x - (outP.x - cur.x) * k, y: outP.y - (outP.y - cur.y) * k))
        }
        return LottieBezier(closed: b.closed, vertices: v, inTangents: ins, outTangents: outs)
    }

    /// Pucker & bloat (`pb`), as lottie-web's `PuckerAndBloatModifier`: with `amount` in
    /// percent, every vertex moves towards the centre of the subpath's vertices by
    /// `amount / 100` and every handle point away from it by the same fraction (pucker < 0,
    /// bloat > 0).
    static func puckerBloat(_ b: LottieBezier, amount: Double) -> LottieBezier {
        let n = b.vertices.count
        guard n > 0, amount != 0, amount.isFinite else { return b }
        let p = amount / 100
        var cx = 0.0, cy = 0.0
        for q in b.vertices { cx += q.x; cy += q.y }
        cx /= Double(n); cy /= Double(n)
        func inT(_ j: Int) -> CGPoint { j < b.inTangents.count ? b.inTangents[j] : .zero }
        func outT(_ j: Int) -> CGPoint { j < b.outTangents.count ? b.outTangents[j] : .zero }
        var out = b
        for i in 0..<n {
            let v = b.vertices[i]
            let o = CGPoint(x: v.x + outT(i).x, y: v.y + outT(i).y), ii = CGPoint(x: v.x + inT(i).x, y: v.y + inT(i).y)
            let nv = CGPoint(x: v.x + (cx - v.x) * p, y: v.y + (cy - v.y) * p)
            let no = CGPoint(x: o.x + (cx - o.x) * -p, y: o.y + (cy - o.y) * -p)
            let ni = CGPoint(x: ii.x + (cx - ii.x) * -p, y: ii.y + (cy - ii.y) * -p)
            out.vertices[i] = nv
            if i < out.outTangents.count { out.outTangents[i] = CGPoint(x: no.x - nv.x, y: no.y - nv.y) }
            if i < out.inTangents.count { out.inTangents[i] = CGPoint(x: ni.x - nv.x, y: ni.y - nv.y) }
        }
        return out
    }

    /// The most ridges a zig-zag puts on one segment (documented clamp; hostile files ask for 10⁹),
    /// and the most points it makes of one subpath (fewer ridges per segment on long paths).
    static let maximumRidges = 1000
    static let maximumZigZagPoints = 100_000

    /// Zig-zag (`zz`), as lottie-web's `ZigZagModifier`: a point at every vertex, moved off the
    /// path by the amplitude across the line from the previous vertex to the next, and
    /// `ridges` points along each segment (at bezier parameters `(i + 1) / (ridges + 1)`, the
    /// segment's handles on its ends put at its thirds), moved along the segment's normal,
    /// alternately to one side and the other. Corner points (`pt: 1`) are sharp; smooth ones
    /// (`pt: 2`) get handles along the path, `chord / (2·(ridges + 1))` long. A closed subpath
    /// ends with its first vertex's point again.
    static func zigZag(_ b: LottieBezier, amplitude: Double, ridges: Int, smooth: Bool) -> LottieBezier {
        let n = b.vertices.count
        let count = b.closed ? n : n - 1
        guard amplitude != 0, count > 0, count < maximumZigZagPoints else { return b }
        let ridges = min(max(ridges, 0), maximumZigZagPoints / count - 1)
        func inT(_ j: Int) -> CGPoint { j < b.inTangents.count ? b.inTangents[j] : .zero }
        func outT(_ j: Int) -> CGPoint { j < b.outTangents.count ? b.outTangents[j] : .zero }
        var v: [CGPoint] = [], ins: [CGPoint] = [], outs: [CGPoint] = []
        let step = Double(2 * (ridges + 1))
        // A point `amplitude · direction` off `p` at `angle` (y up, as lottie-web measures it),
        // with handles `outLength` and `inLength` long across that direction.
        func add(_ p: CGPoint, angle: Double, direction: Double, outLength: Double, inLength: Double) {
            let q = CGPoint(x: p.x + cos(angle) * direction * amplitude, y: p.y - sin(angle) * direction * amplitude)
            let ao = angle - .pi / 2, ai = angle + .pi / 2
            v.append(q)
            outs.append(CGPoint(x: cos(ao) * outLength, y: -sin(ao) * outLength))
            ins.append(CGPoint(x: cos(ai) * inLength, y: -sin(ai) * inLength))
        }
        func corner(_ cur: Int, _ direction: Double) {
            let prev = b.vertices[cur == 0 ? n - 1 : cur - 1], next = b.vertices[(cur + 1) % n], p = b.vertices[cur % n]
            // Perpendicular to prev → next, as an angle with y up.
            let dx = next.x - prev.x, dy = next.y - prev.y
            let angle = -atan2(-dx, dy)
            let prevDist = smooth ? hypot(p.x - prev.x, p.y - prev.y) : 0
            let nextDist = smooth ? hypot(p.x - next.x, p.y - next.y) : 0
            add(p, angle: angle, direction: direction, outLength: nextDist / step, inLength: prevDist / step)
        }
        var direction = -1.0
        corner(0, direction)
        for i in 0..<count {
            let j = (i + 1) % n
            let p0 = b.vertices[i], p3 = b.vertices[j]
            var c1 = CGPoint(x: p0.x + outT(i).x, y: p0.y + outT(i).y), c2 = CGPoint(x: p3.x + inT(j).x, y: p3.y + inT(j).y)
            if c1 == p0 { c1 = CGPoint(x: p0.x + (p3.x - p0.x) / 3, y: p0.y + (p3.y - p0.y) / 3) }
            if c2 == p3 { c2 = CGPoint(x: p0.x + (p3.x - p0.x) * 2 / 3, y: p0.y + (p3.y - p0.y) * 2 / 3) }
            let c = LottieCubic(p0: p0, c1: c1, c2: c2, p3: p3)
            let chord = smooth ? hypot(p3.x - p0.x, p3.y - p0.y) : 0
            direction = -direction
            for k in 0..<ridges {
                let t = Double(k + 1) / Double(ridges + 1)
                let u = 1 - t
                // The derivative, for the normal's angle (atan2(x′, y′), lottie-web's).
                let d = CGPoint(x: 3 * (u * u * (c1.x - p0.x) + 2 * u * t * (c2.x - c1.x) + t * t * (p3.x - c2.x)),
                                y: 3 * (u * u * (c1.y - p0.y) + 2 * u * t * (c2.y - c1.y) + t * t * (p3.y - c2.y)))
                add(c.point(t), angle: atan2(d.x, d.y), direction: direction, outLength: chord / step, inLength: chord / step)
                direction = -direction
            }
            corner(i + 1, direction)
        }
        return LottieBezier(closed: b.closed, vertices: v, inTangents: ins, outTangents: outs)
    }
}
