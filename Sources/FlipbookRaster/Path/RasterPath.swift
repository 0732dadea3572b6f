/// A point of a ``RasterPath`` in device pixels (x right, y down; pixel (i, j) is the square
/// [i, i+1) × [j, j+1), its centre at (i + 0.5, j + 0.5)).
public typealias RasterPoint = SIMD2<Double>

/// A 2-D affine transform, `x' = a·x + c·y + tx`, `y' = b·x + d·y + ty` (the CGAffineTransform
/// layout, so the compositor can copy one field by field).
public struct RasterTransform: Sendable, Hashable {
    public var a, b, c, d, tx, ty: Double

    public init(a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) {
        self.a = a; self.b = b; self.c = c; self.d = d; self.tx = tx; self.ty = ty
    }

    public static let identity = RasterTransform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)

    public static func translation(_ tx: Double, _ ty: Double) -> RasterTransform {
        RasterTransform(a: 1, b: 0, c: 0, d: 1, tx: tx, ty: ty)
    }

    public static func scale(_ sx: Double, _ sy: Double) -> RasterTransform {
        RasterTransform(a: sx, b: 0, c: 0, d: sy, tx: 0, ty: 0)
    }

    /// A rotation by `radians` (clockwise on the y-down canvas, as CoreGraphics' y-up
    /// counter-clockwise rotation looks after the flip).
    public static func rotation(_ radians: Double) -> RasterTransform {
        let (s, co) = (sin(radians), cos(radians))
        return RasterTransform(a: co, b: s, c: -s, d: co, tx: 0, ty: 0)
    }

    /// `self` then `t` (points go through `self` first).
    public func concatenating(_ t: RasterTransform) -> RasterTransform {
        RasterTransform(a: a * t.a + b * t.c, b: a * t.b + b * t.d,
                        c: c * t.a + d * t.c, d: c * t.b + d * t.d,
                        tx: tx * t.a + ty * t.c + t.tx, ty: tx * t.b + ty * t.d + t.ty)
    }

    @inlinable public func apply(_ p: RasterPoint) -> RasterPoint {
        RasterPoint(a * p.x + c * p.y + tx, b * p.x + d * p.y + ty)
    }

    /// The largest factor by which the transform stretches a length (the larger singular
    /// value): flatten in user space with `tolerance / maxScale` to keep device-space error.
    public var maxScale: Double {
        let p = (a * a + b * b + c * c + d * d) / 2
        let q = ((a * a + b * b - c * c - d * d) / 2)
        let r = a * c + b * d
        return (p + (q * q + r * r).squareRoot()).squareRoot()
    }
}

/// A vector path: subpaths of lines, quadratic and cubic Béziers, in device pixels (or any
/// user space, with a ``RasterTransform`` given when it is filled or stroked).
///
/// Storage is two flat arrays — `verbs` and `points` — so a path is built once and replayed
/// without allocation; `removeAll(keepingCapacity:)` reuses it. Points per verb:
/// `move` 1, `line` 1, `quad` 2 (control, end), `cubic` 3 (c1, c2, end), `close` 0.
/// A `close` draws a line back to the subpath's first point; filling closes every subpath
/// implicitly (as CoreGraphics does).
public struct RasterPath: Sendable, Equatable {
    public enum Verb: UInt8, Sendable {
        case move, line, quad, cubic, close
    }

    public private(set) var verbs: [Verb] = []
    public private(set) var points: [RasterPoint] = []

    public init() {}

    public var isEmpty: Bool { verbs.isEmpty }

    public mutating func removeAll(keepingCapacity: Bool = true) {
        verbs.removeAll(keepingCapacity: keepingCapacity)
        points.removeAll(keepingCapacity: keepingCapacity)
    }

    public mutating func reserveCapacity(verbs v: Int, points p: Int) {
        verbs.reserveCapacity(v)
        points.reserveCapacity(p)
    }

    public mutating func move(to p: RasterPoint) { verbs.append(.move); points.append(p) }
    public mutating func line(to p: RasterPoint) { verbs.append(.line); points.append(p) }
    public mutating func quad(to p: RasterPoint, control c: RasterPoint) {
        verbs.append(.quad); points.append(c); points.append(p)
    }
    public mutating func cubic(to p: RasterPoint, control1 c1: RasterPoint, control2 c2: RasterPoint) {
        verbs.append(.cubic); points.append(c1); points.append(c2); points.append(p)
    }
    public mutating func close() { verbs.append(.close) }

    public mutating func move(to x: Double, _ y: Double) { move(to: RasterPoint(x, y)) }
    public mutating func line(to x: Double, _ y: Double) { line(to: RasterPoint(x, y)) }

    /// Appends every subpath of `other`, through `transform`.
    public mutating func append(_ other: RasterPath, transform: RasterTransform = .identity) {
        verbs.append(contentsOf: other.verbs)
        if transform == .identity { points.append(contentsOf: other.points) }
        else { for p in other.points { points.append(transform.apply(p)) } }
    }

    /// The path with every point mapped by `t`. Béziers map exactly under affine transforms.
    public func applying(_ t: RasterTransform) -> RasterPath {
        var out = self
        for i in out.points.indices { out.points[i] = t.apply(out.points[i]) }
        return out
    }

    /// The bounding box of all points (control points included; the curves lie inside it),
    /// or nil for an empty path.
    public var controlBounds: (minX: Double, minY: Double, maxX: Double, maxY: Double)? {
        guard let f = points.first else { return nil }
        var lo = f, hi = f
        for p in points { lo = pointwiseMin(lo, p); hi = pointwiseMax(hi, p) }
        return (lo.x, lo.y, hi.x, hi.y)
    }

    // MARK: Shapes

    /// κ = 4(√2 − 1)/3: the cubic control distance (× radius) of a quarter circle. Its radial
    /// error is at most 2.7e-4 × r (0.001 px for the 4 px corners of W6b).
    public static let kappa = 4.0 * (2.0.squareRoot() - 1.0) / 3.0

    /// A closed rectangle, clockwise on the y-down canvas.
    public mutating func addRect(x: Double, y: Double, width w: Double, height h: Double) {
        move(to: x, y); line(to: x + w, y); line(to: x + w, y + h); line(to: x, y + h); close()
    }

    /// A closed rounded rectangle with circular corners of radius `r` (clamped to half the
    /// shorter side), each corner one cubic; clockwise on the y-down canvas.
    public mutating func addRoundedRect(x: Double, y: Double, width w: Double, height h: Double, radius: Double) {
        let r = max(0, min(radius, min(w, h) / 2))
        if r == 0 { addRect(x: x, y: y, width: w, height: h); return }
        let k = r * Self.kappa
        let x1 = x + w, y1 = y + h
        move(to: x + r, y)
        line(to: x1 - r, y)
        cubic(to: RasterPoint(x1, y + r), control1: RasterPoint(x1 - r + k, y), control2: RasterPoint(x1, y + r - k))
        line(to: x1, y1 - r)
        cubic(to: RasterPoint(x1 - r, y1), control1: RasterPoint(x1, y1 - r + k), control2: RasterPoint(x1 - r + k, y1))
        line(to: x + r, y1)
        cubic(to: RasterPoint(x, y1 - r), control1: RasterPoint(x + r - k, y1), control2: RasterPoint(x, y1 - r + k))
        line(to: x, y + r)
        cubic(to: RasterPoint(x + r, y), control1: RasterPoint(x, y + r - k), control2: RasterPoint(x + r - k, y))
        close()
    }

    /// A closed ellipse of 4 cubics starting at (cx + rx, cy), clockwise on the y-down canvas
    /// (the W7 circle when rx = ry).
    public mutating func addEllipse(cx: Double, cy: Double, rx: Double, ry: Double) {
        let kx = rx * Self.kappa, ky = ry * Self.kappa
        move(to: cx + rx, cy)
        cubic(to: RasterPoint(cx, cy + ry), control1: RasterPoint(cx + rx, cy + ky), control2: RasterPoint(cx + kx, cy + ry))
        cubic(to: RasterPoint(cx - rx, cy), control1: RasterPoint(cx - kx, cy + ry), control2: RasterPoint(cx - rx, cy + ky))
        cubic(to: RasterPoint(cx, cy - ry), control1: RasterPoint(cx - rx, cy - ky), control2: RasterPoint(cx - kx, cy - ry))
        cubic(to: RasterPoint(cx + rx, cy), control1: RasterPoint(cx + kx, cy - ry), control2: RasterPoint(cx + rx, cy - ky))
        close()
    }

    /// The closed polygon through `pts` (as `addPolygon` on an empty path), adopting the array
    /// as the path's points (no copy).
    public init(polygon pts: [RasterPoint]) {
        guard !pts.isEmpty else { return }
        if pts.count < Self._polygonVerbs.count {
            verbs = Self._polygonVerbs[pts.count]       // shared: no allocation per polygon
        } else {
            var v = [Verb](repeating: .line, count: pts.count + 1)
            v[0] = .move; v[pts.count] = .close
            verbs = v
        }
        points = pts
    }

    /// The verbs of an `n`-point polygon (move, n − 1 lines, close) for n < 128, built once:
    /// the compositor makes one polygon path per layer shape per frame.
    static let _polygonVerbs: [[Verb]] = (0..<128).map { n in
        guard n > 0 else { return [] }
        var v = [Verb](repeating: .line, count: n + 1)
        v[0] = .move; v[n] = .close
        return v
    }

    /// A closed polygon through `pts`.
    public mutating func addPolygon(_ pts: [RasterPoint]) {
        guard let f = pts.first else { return }
        move(to: f)
        for p in pts.dropFirst() { line(to: p) }
        close()
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
