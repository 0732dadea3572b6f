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
}
