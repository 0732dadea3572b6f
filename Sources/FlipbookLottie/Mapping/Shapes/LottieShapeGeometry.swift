import Foundation
import Flipbook

/// The outlines of Lottie's parametric shapes at a frame, as After Effects builds them: the
/// vertex order, start point and direction decide where trims start and how even-odd fills
/// combine, so they follow the players that match After Effects.
///
/// - **Rectangle** (`rc`, lottie-web's `convertRectToPath`): centre `p`, size `s`, corner radius
///   `r` clamped to half the smaller side. It starts on the right edge at the top corner
///   (`(right, top + r)`) and runs **clockwise** on screen (down the right edge first); `d: 3`
///   runs counter-clockwise from the same point (along the top edge first). Square corners give
///   4 vertices, rounded ones 8 (each corner a cubic quarter-arc with handles `r·κ`).
/// - **Ellipse** (`el`): four cubic quarter-arcs starting at the top, clockwise (right, bottom,
///   left), handles `κ = 0.5519` of the radii; `d: 3` goes top, left, bottom, right.
/// - **Star** (`sr`, `sy: 1`), as lottie-android, lottie-ios and ThorVG build it: points start
///   at the top (−90° + rotation), outer and inner radius alternating, clockwise; roundness
///   gives each vertex tangents perpendicular to its radius of length
///   `radius · roundness · 1.7082 / points` (lottie-ios' `0.47829 / 0.28`); a **fractional**
///   point count draws a partial last point (its radius between the inner and outer one), as
///   After Effects does.
/// - **Polygon** (`sy: 2`): `⌊points⌋` vertices from the top, tangents
///   `radius · roundness · (2π / points) / 4`.
///   Stars and polygons have at most ``maximumPoints`` points.
/// - **Free path** (`sh`): the bezier as the file gives it (its `d` is ignored, as by
///   lottie-web and ThorVG: the vertices are already in drawing order).
enum LottieShapeGeometry {
    /// The cubic handle length of a quarter circle, as lottie-web's `roundCorner`.
    static let kappa = 0.5519

    /// The most points a star or polygon is drawn with (documented clamp, warned by
    /// ``LottieShapeProgram``: a hostile `pt` of 10⁹ cannot make unbounded work).
    static let maximumPoints = 10_000.0

    /// A shape item's subpaths at local frame `f`; nil for items that are not shapes.
    static func paths(of kind: LottieShapeItem.Kind, atFrame f: Double) -> [LottieBezier]? {
        switch kind {
        case let .rectangle(r):
            let p = r.position.value(atFrame: f), s = r.size.value(atFrame: f)
            return [rectangle(center: point(p), size: CGSize(width: at(s, 0), height: at(s, 1)),
                              roundness: at(r.roundness.value(atFrame: f), 0), reversed: r.reversed)]
        case let .ellipse(e):
            let p = e.position.value(atFrame: f), s = e.size.value(atFrame: f)
            return [ellipse(center: point(p), size: CGSize(width: at(s, 0), height: at(s, 1)), reversed: e.reversed)]
        case let .polystar(s):
            let center = point(s.position.value(atFrame: f))
            let points = at(s.points.value(atFrame: f), 0)
            let outer = at(s.outerRadius.value(atFrame: f), 0)
            let outerRound = at(s.outerRoundness.value(atFrame: f), 0) / 100
            let rotation = at(s.rotation.value(atFrame: f), 0)
            if s.isStar {
                let inner = s.innerRadius.map { at($0.value(atFrame: f), 0) } ?? 0
                let innerRound = (s.innerRoundness.map { at($0.value(atFrame: f), 0) } ?? 0) / 100
                return [star(center: center, points: points, outerRadius: outer, innerRadius: inner,
                             outerRoundness: outerRound, innerRoundness: innerRound, rotation: rotation, reversed: s.reversed)]
            }
            return [polygon(center: center, points: points, radius: outer, roundness: outerRound, rotation: rotation, reversed: s.reversed)]
        case let .path(bezier, _):
            return [bezier.value(atFrame: f)]
        default:
            return nil
        }
    }

    /// True when any property of the shape item is animated.
    static func isAnimated(_ kind: LottieShapeItem.Kind) -> Bool {
        switch kind {
        case let .rectangle(r): return r.position.isAnimated || r.size.isAnimated || r.roundness.isAnimated
        case let .ellipse(e): return e.position.isAnimated || e.size.isAnimated
        case let .polystar(s):
            return s.position.isAnimated || s.outerRadius.isAnimated || s.outerRoundness.isAnimated
                || (s.innerRadius?.isAnimated ?? false) || (s.innerRoundness?.isAnimated ?? false)
                || s.rotation.isAnimated || s.points.isAnimated
        case let .path(b, _): return b.isAnimated
        default: return false
        }
    }

    static func at(_ v: LottieVector, _ i: Int) -> Double { i < v.count && v[i].isFinite ? v[i] : 0 }
    static func point(_ v: LottieVector) -> CGPoint { CGPoint(x: at(v, 0), y: at(v, 1)) }

    /// One vertex with absolute handles (lottie-web's `setTripleAt(v, o, i)`) → relative.
    private struct Builder {
        var b = LottieBezier(closed: true, vertices: [], inTangents: [], outTangents: [])
        mutating func add(_ v: CGPoint, out o: CGPoint, in i: CGPoint) {
            b.vertices.append(v)
            b.outTangents.append(CGPoint(x: o.x - v.x, y: o.y - v.y))
            b.inTangents.append(CGPoint(x: i.x - v.x, y: i.y - v.y))
        }
        mutating func add(_ x: Double, _ y: Double, _ ox: Double, _ oy: Double, _ ix: Double, _ iy: Double) {
            add(CGPoint(x: x, y: y), out: CGPoint(x: ox, y: oy), in: CGPoint(x: ix, y: iy))
        }
    }

    /// lottie-web's rectangle (see the type's notes).
    static func rectangle(center c: CGPoint, size: CGSize, roundness: Double, reversed: Bool) -> LottieBezier {
        let p0 = Double(c.x), p1 = Double(c.y), v0 = Double(size.width) / 2, v1 = Double(size.height) / 2
        let round = max(0, min(v0, v1, roundness))
        let cp = round * (1 - kappa)
        var b = Builder()
        if !reversed {
            b.add(p0 + v0, p1 - v1 + round, p0 + v0, p1 - v1 + round, p0 + v0, p1 - v1 + cp)
            b.add(p0 + v0, p1 + v1 - round, p0 + v0, p1 + v1 - cp, p0 + v0, p1 + v1 - round)
            if round != 0 {
                b.add(p0 + v0 - round, p1 + v1, p0 + v0 - round, p1 + v1, p0 + v0 - cp, p1 + v1)
                b.add(p0 - v0 + round, p1 + v1, p0 - v0 + cp, p1 + v1, p0 - v0 + round, p1 + v1)
                b.add(p0 - v0, p1 + v1 - round, p0 - v0, p1 + v1 - round, p0 - v0, p1 + v1 - cp)
                b.add(p0 - v0, p1 - v1 + round, p0 - v0, p1 - v1 + cp, p0 - v0, p1 - v1 + round)
                b.add(p0 - v0 + round, p1 - v1, p0 - v0 + round, p1 - v1, p0 - v0 + cp, p1 - v1)
                b.add(p0 + v0 - round, p1 - v1, p0 + v0 - cp, p1 - v1, p0 + v0 - round, p1 - v1)
            } else {
                b.add(p0 - v0, p1 + v1, p0 - v0 + cp, p1 + v1, p0 - v0, p1 + v1)
                b.add(p0 - v0, p1 - v1, p0 - v0, p1 - v1 + cp, p0 - v0, p1 - v1)
            }
        } else {
            b.add(p0 + v0, p1 - v1 + round, p0 + v0, p1 - v1 + cp, p0 + v0, p1 - v1 + round)
            if round != 0 {
                b.add(p0 + v0 - round, p1 - v1, p0 + v0 - round, p1 - v1, p0 + v0 - cp, p1 - v1)
                b.add(p0 - v0 + round, p1 - v1, p0 - v0 + cp, p1 - v1, p0 - v0 + round, p1 - v1)
                b.add(p0 - v0, p1 - v1 + round, p0 - v0, p1 - v1 + round, p0 - v0, p1 - v1 + cp)
                b.add(p0 - v0, p1 + v1 - round, p0 - v0, p1 + v1 - cp, p0 - v0, p1 + v1 - round)
                b.add(p0 - v0 + round, p1 + v1, p0 - v0 + round, p1 + v1, p0 - v0 + cp, p1 + v1)
                b.add(p0 + v0 - round, p1 + v1, p0 + v0 - cp, p1 + v1, p0 + v0 - round, p1 + v1)
                b.add(p0 + v0, p1 + v1 - round, p0 + v0, p1 + v1 - round, p0 + v0, p1 + v1 - cp)
            } else {
                b.add(p0 - v0, p1 - v1, p0 - v0 + cp, p1 - v1, p0 - v0, p1 - v1)
                b.add(p0 - v0, p1 + v1, p0 - v0, p1 + v1 - cp, p0 - v0, p1 + v1)
                b.add(p0 + v0, p1 + v1, p0 + v0 - cp, p1 + v1, p0 + v0, p1 + v1)
            }
        }
        return b.b
    }

    /// lottie-web's ellipse (see the type's notes).
    static func ellipse(center c: CGPoint, size: CGSize, reversed: Bool) -> LottieBezier {
        let p0 = Double(c.x), p1 = Double(c.y), s0 = Double(size.width) / 2, s1 = Double(size.height) / 2
        let k = kappa, d = reversed ? -1.0 : 1.0
        var b = Builder()
        b.add(p0, p1 - s1, p0 + d * s0 * k, p1 - s1, p0 - d * s0 * k, p1 - s1)
        b.add(p0 + d * s0, p1, p0 + d * s0, p1 + s1 * k, p0 + d * s0, p1 - s1 * k)
        b.add(p0, p1 + s1, p0 - d * s0 * k, p1 + s1, p0 + d * s0 * k, p1 + s1)
        b.add(p0 - d * s0, p1, p0 - d * s0, p1 - s1 * k, p0 - d * s0, p1 + s1 * k)
        return b.b
    }

    /// The star (see the type's notes): lottie-android's `createStarPath`, as ThorVG and
    /// lottie-ios port it, in doubles. `points` may be fractional.
    static func star(center c: CGPoint, points ptsCnt: Double, outerRadius: Double, innerRadius: Double,
                     outerRoundness: Double, innerRoundness: Double, rotation: Double, reversed: Bool) -> LottieBezier {
        let magic = 0.47829 / 0.28
        guard ptsCnt.isFinite, ptsCnt > 0 else { return LottieBezier(closed: true, vertices: [], inTangents: [], outTangents: []) }
        let count = min(ptsCnt, maximumPoints)
        let direction = reversed ? -1.0 : 1.0
        var angle = (rotation - 90) * .pi / 180
        let anglePerPoint = 2 * Double.pi / count
        let halfAnglePerPoint = anglePerPoint / 2
        let partial = count - count.rounded(.down)
        let numPoints = Int(count.rounded(.up)) * 2
        var partialRadius = 0.0
        if partial != 0 { angle += halfAnglePerPoint * (1 - partial) * direction }
        var x: Double, y: Double
        if partial != 0 {
            partialRadius = innerRadius + partial * (outerRadius - innerRadius)
            x = partialRadius * cos(angle); y = partialRadius * sin(angle)
            angle += anglePerPoint * partial / 2 * direction
        } else {
            x = outerRadius * cos(angle); y = outerRadius * sin(angle)
            angle += halfAnglePerPoint * direction
        }
        let rounded = innerRoundness != 0 || outerRoundness != 0
        var vertices = [CGPoint(x: x, y: y)]
        var outs = [CGPoint.zero], ins = [CGPoint.zero]
        var longSegment = false
        for i in 0..<numPoints {
            var radius = longSegment ? outerRadius : innerRadius
            var dTheta = halfAnglePerPoint
            if partialRadius != 0 && i == numPoints - 2 { dTheta = anglePerPoint * partial / 2 }
            if partialRadius != 0 && i == numPoints - 1 { radius = partialRadius }
            let px = x, py = y
            x = radius * cos(angle); y = radius * sin(angle)
            if rounded {
                let t1 = atan2(py, px) - .pi / 2 * direction, t2 = atan2(y, x) - .pi / 2 * direction
                let r1 = longSegment ? innerRoundness : outerRoundness, r2 = longSegment ? outerRoundness : innerRoundness
                let rad1 = longSegment ? innerRadius : outerRadius, rad2 = longSegment ? outerRadius : innerRadius
                var c1 = CGPoint(x: rad1 * r1 * magic * cos(t1) / count, y: rad1 * r1 * magic * sin(t1) / count)
                var c2 = CGPoint(x: rad2 * r2 * magic * cos(t2) / count, y: rad2 * r2 * magic * sin(t2) / count)
                if partial != 0 && (i == 0 || i == numPoints - 1) {
                    c1 = CGPoint(x: c1.x * partial, y: c1.y * partial); c2 = CGPoint(x: c2.x * partial, y: c2.y * partial)
                }
                outs[outs.count - 1] = CGPoint(x: -c1.x, y: -c1.y)
                vertices.append(CGPoint(x: x, y: y)); ins.append(c2); outs.append(.zero)
            } else {
                vertices.append(CGPoint(x: x, y: y)); ins.append(.zero); outs.append(.zero)
            }
            angle += dTheta * direction
            longSegment.toggle()
        }
        // The last vertex is the first again (ThorVG's `_close`): fold it into the first.
        vertices.removeLast()
        ins[0] = ins.removeLast()
        outs.removeLast()
        return LottieBezier(closed: true, vertices: vertices.map { CGPoint(x: $0.x + c.x, y: $0.y + c.y) },
                            inTangents: ins, outTangents: outs)
    }

    /// The polygon (see the type's notes): `⌊points⌋` vertices.
    static func polygon(center c: CGPoint, points: Double, radius: Double, roundness: Double, rotation: Double,
                        reversed: Bool) -> LottieBezier {
        guard points.isFinite, points >= 1 else { return LottieBezier(closed: true, vertices: [], inTangents: [], outTangents: []) }
        let n = Int(min(points, maximumPoints).rounded(.down))
        let direction = reversed ? -1.0 : 1.0
        let anglePerPoint = 2 * Double.pi / Double(n)
        let handle = anglePerPoint * radius * roundness * 0.25
        var vertices: [CGPoint] = [], ins: [CGPoint] = [], outs: [CGPoint] = []
        var angle = (rotation - 90) * .pi / 180
        for _ in 0..<n {
            let x = radius * cos(angle), y = radius * sin(angle)
            let t = atan2(y, x) - .pi / 2 * direction
            let h = CGPoint(x: handle * cos(t), y: handle * sin(t))
            vertices.append(CGPoint(x: x + c.x, y: y + c.y))
            ins.append(h)
            outs.append(CGPoint(x: -h.x, y: -h.y))
            angle += anglePerPoint * direction
        }
        return LottieBezier(closed: true, vertices: vertices, inTangents: ins, outTangents: outs)
    }
}
