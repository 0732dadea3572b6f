import Foundation
extension _PathElement {
    /// Moves `current` / `subpathStart` past this element.
    func _advance(current: inout CGPoint, subpathStart: inout CGPoint) {
        switch self {
        case let .moveToPoint(p): current = p; subpathStart = p
        case let .addLineToPoint(p), let .addQuadCurveToPoint(_, p), let .addCurveToPoint(_, _, p): current = p
        case .closeSubpath: current = subpathStart
        }
    }
}

/// One piece of a path with its start point, in cubic form (lines and quadratics are raised to
/// cubics exactly: a line's control points sit at ⅓ and ⅔, a quadratic's at p0 + ⅔(c − p0) and
/// p3 + ⅔(c − p3)). A `.jump` is a `moveTo` inside the path: zero length, lands on `p3`.
package struct _PathSegment: Hashable, Sendable {
    public enum Kind: Hashable, Sendable { case jump, line, quad, cubic }
    public var kind: Kind
    public var p0: CGPoint, p1: CGPoint, p2: CGPoint, p3: CGPoint

    /// B(u) = (1−u)³p0 + 3(1−u)²u·p1 + 3(1−u)u²·p2 + u³p3; a jump is at p3 for every u > 0.
    public func point(at u: Double) -> CGPoint {
        if kind == .jump { return u > 0 ? p3 : p0 }
        let v = 1 - u
        let a = v * v * v, b = 3 * v * v * u, c = 3 * v * u * u, d = u * u * u
        return CGPoint(x: a * p0.x + b * p1.x + c * p2.x + d * p3.x, y: a * p0.y + b * p1.y + c * p2.y + d * p3.y)
    }

    /// B′(u); falls back to the chord when the derivative vanishes (cusps, coincident controls).
    public func tangent(at u: Double) -> CGPoint {
        let v = 1 - u
        let a = 3 * v * v, b = 6 * v * u, c = 3 * u * u
        let d = CGPoint(x: a * (p1.x - p0.x) + b * (p2.x - p1.x) + c * (p3.x - p2.x),
                        y: a * (p1.y - p0.y) + b * (p2.y - p1.y) + c * (p3.y - p2.y))
        if abs(d.x) + abs(d.y) > 1e-12 { return d }
        return CGPoint(x: p3.x - p0.x, y: p3.y - p0.y)
    }

    /// Subdivisions needed for chord error ≤ `tolerance` (Wang's formula for cubics:
    /// n = ⌈√(¾·M / tol)⌉ with M the largest second difference of the control points), 1…1024.
    public func subdivisions(tolerance: Double) -> Int {
        if kind == .jump || kind == .line { return 1 }
        let d1 = hypot(p0.x - 2 * p1.x + p2.x, p0.y - 2 * p1.y + p2.y)
        let d2 = hypot(p1.x - 2 * p2.x + p3.x, p1.y - 2 * p2.y + p3.y)
        let m = Double(max(d1, d2))
        let tol = tolerance > 0 && tolerance.isFinite ? tolerance : 0.1
        let n = (0.75 * m / tol).squareRoot().rounded(.up)
        guard n.isFinite else { return 1 }
        return Int(min(max(n, 1), 1024))
    }

    /// Arc length, from a flattening at tolerance 1e-4.
    public var length: Double {
        if kind == .jump { return 0 }
        let n = subdivisions(tolerance: 1e-4)
        var prev = p0, sum = 0.0
        for i in 1...n { let q = point(at: Double(i) / Double(n)); sum += Double(hypot(q.x - prev.x, q.y - prev.y)); prev = q }
        return sum
    }
}

extension CGPath {
    /// The path as segments. A leading `moveTo` only sets the start; later moves become `.jump`s;
    /// `closeSubpath` becomes a line back to the subpath start (omitted when already there).
    package var _segments: [_PathSegment] {
        var out: [_PathSegment] = []
        var cur = CGPoint.zero, start = CGPoint.zero, first = true
        for e in elements {
            switch e {
            case let .moveToPoint(p):
                if !first { out.append(_PathSegment(kind: .jump, p0: cur, p1: cur, p2: p, p3: p)) }
            case let .addLineToPoint(p):
                out.append(_PathSegment(kind: .line, p0: cur, p1: _mix(cur, p, 1.0 / 3), p2: _mix(cur, p, 2.0 / 3), p3: p))
            case let .addQuadCurveToPoint(c, p):
                out.append(_PathSegment(kind: .quad, p0: cur, p1: _mix(cur, c, 2.0 / 3), p2: _mix(p, c, 2.0 / 3), p3: p))
            case let .addCurveToPoint(c1, c2, p):
                out.append(_PathSegment(kind: .cubic, p0: cur, p1: c1, p2: c2, p3: p))
            case .closeSubpath:
                if cur != start { out.append(_PathSegment(kind: .line, p0: cur, p1: _mix(cur, start, 1.0 / 3), p2: _mix(cur, start, 2.0 / 3), p3: start)) }
            }
            first = false
            e._advance(current: &cur, subpathStart: &start)
        }
        return out
    }

    /// The path as polylines, one per subpath (closed subpaths end at their start point), with
    /// chord error ≤ `tolerance`.
    package func _flattened(tolerance: Double = 0.1) -> [[CGPoint]] {
        var out: [[CGPoint]] = []
        var line: [CGPoint] = []
        var cur = CGPoint.zero, start = CGPoint.zero
        for e in elements {
            if case .moveToPoint = e {
                if line.count > 1 { out.append(line) }
                line = []
            }
            if line.isEmpty { line = [cur] }
            let before = cur
            e._advance(current: &cur, subpathStart: &start)
            switch e {
            case .moveToPoint: line = [cur]
            case .addLineToPoint, .closeSubpath: if cur != before || e != .closeSubpath { line.append(cur) }
            case let .addQuadCurveToPoint(c, p):
                let s = _PathSegment(kind: .quad, p0: before, p1: _mix(before, c, 2.0 / 3), p2: _mix(p, c, 2.0 / 3), p3: p)
                let n = s.subdivisions(tolerance: tolerance)
                for i in 1...n { line.append(s.point(at: Double(i) / Double(n))) }
            case let .addCurveToPoint(c1, c2, p):
                let s = _PathSegment(kind: .cubic, p0: before, p1: c1, p2: c2, p3: p)
                let n = s.subdivisions(tolerance: tolerance)
                for i in 1...n { line.append(s.point(at: Double(i) / Double(n))) }
            }
        }
        if line.count > 1 { out.append(line) }
        return out
    }

    /// Total drawn length (jumps between subpaths count 0).
    package var _length: Double { _segments.reduce(0) { $0 + $1.length } }

    /// The point at arc length `s` from the start (clamped to [0, length]) and the tangent angle
    /// there (`atan2(dy, dx)`, radians, y-down). Nil for a path with no segments.
    package func _sample(atArcLength s: Double) -> (point: CGPoint, angle: Double)? {
        let segs = _segments
        guard let last = segs.last else { return nil }
        var remaining = s.isNaN ? 0 : max(s, 0)
        for seg in segs where seg.kind != .jump {
            let l = seg.length
            if remaining <= l, l > 0 {
                let u = seg._parameter(atLength: remaining, total: l)
                let t = seg.tangent(at: u)
                return (seg.point(at: u), atan2(Double(t.y), Double(t.x)))
            }
            remaining -= l
        }
        let t = last.tangent(at: 1)
        return (last.p3, atan2(Double(t.y), Double(t.x)))
    }
}

extension _PathSegment {
    /// The parameter u where the arc length from p0 reaches `s` (polyline table + linear
    /// interpolation between samples; `total` is ``length``).
    func _parameter(atLength s: Double, total: Double) -> Double {
        if kind == .line || total <= 0 { return total > 0 ? min(max(s / total, 0), 1) : 0 }
        let n = subdivisions(tolerance: 1e-4)
        var prev = p0, acc = 0.0
        for i in 1...n {
            let q = point(at: Double(i) / Double(n))
            let d = Double(hypot(q.x - prev.x, q.y - prev.y))
            if acc + d >= s {
                let k = d > 0 ? (s - acc) / d : 0
                return (Double(i - 1) + k) / Double(n)
            }
            acc += d; prev = q
        }
        return 1
    }
}

@inline(__always) func _mix(_ a: CGPoint, _ b: CGPoint, _ f: Double) -> CGPoint {
    CGPoint(x: a.x + (b.x - a.x) * f, y: a.y + (b.y - a.y) * f)
}
