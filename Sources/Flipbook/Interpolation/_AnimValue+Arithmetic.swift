import Foundation
import FlipbookGraphics
/// Interpolation and the vector-space operations animations need:
///
/// - `interpolate(a, b, f)` = `a + (b − a)·f` component-wise (transforms: see
///   `_DecomposedTransform`; images: a ``ContentsCrossfade``).
/// - `adding` / `subtracting` / `scaled(by:)` for `byValue`, `isAdditive` and `isCumulative`.
///   Transforms do not add element-wise: `a.adding(b)` is the concatenation `b · a` (apply `b` in
///   `a`'s space first, then `a` — CSS's "underlying value, then the animation's" order),
///   `a.subtracting(b)` = `b⁻¹ · a` (so that `a.subtracting(b).adding(b) == a`), and `scaled(by: k)` scales the decomposed parts
///   (translation·k, rotation angle·k, scale^k), so `rotation(θ).scaled(by: 2)` = `rotation(2θ)`.
///   Colours add component-wise (alpha too). Images cannot add: those return nil.
/// - `distance(to:)` for paced keyframes: Euclidean over the components (transforms: over the
///   16 matrix elements; images: 0 between equal images, else 1).
extension _AnimValue {
    /// `a + (b − a)·f`; values that cannot interpolate switch at f = ½.
    public static func interpolate(_ a: _AnimValue, _ b: _AnimValue, _ f: Double) -> _AnimValue {
        guard f.isFinite else { return a }
        switch (a, b) {
        case let (.scalar(x, k), .scalar(y, _)): return .scalar(x + (y - x) * f, k)
        case let (.point(p), .point(q)):
            return .point(CGPoint(x: lerp(p.x, q.x, f), y: lerp(p.y, q.y, f)))
        case let (.size(p), .size(q)):
            return .size(CGSize(width: lerp(p.width, q.width, f), height: lerp(p.height, q.height, f)))
        case let (.rect(p), .rect(q)):
            return .rect(CGRect(x: lerp(p.origin.x, q.origin.x, f), y: lerp(p.origin.y, q.origin.y, f),
                                width: lerp(p.width, q.width, f), height: lerp(p.height, q.height, f)))
        case let (.color(p), .color(q)):
            return .color(_AnimValue._color(zip(p.rgba, q.rgba).map { lerp($0, $1, f) }, gray: p.model == .gray && q.model == .gray))
        case let (.transform(p), .transform(q)): return .transform(_DecomposedTransform.interpolate(p, q, f))
        case let (.numbers(xs, k), .numbers(ys, _)) where xs.count == ys.count:
            return .numbers(zip(xs, ys).map { $0 + ($1 - $0) * f }, k)
        case let (.image(p), .image(q)):
            if f <= 0 { return a }
            if f >= 1 { return b }
            return .crossfade(ContentsCrossfade(from: p, to: q, fraction: f))
        case let (.path(p), .path(q)):
            if let m = _lerpPath(p, q, f) { return .path(m) }
            return f < 0.5 ? a : b
        case let (.colors(ps), .colors(qs)) where ps.count == qs.count:
            return .colors(zip(ps, qs).map { p, q in
                _AnimValue._color(zip(p.rgba, q.rgba).map { lerp($0, $1, f) }, gray: p.model == .gray && q.model == .gray)
            })
        default:
            return f < 0.5 ? a : b
        }
    }

    /// `self + other`, or nil when the two cannot add.
    public func adding(_ other: _AnimValue) -> _AnimValue? { _combine(other, sign: 1) }

    /// `self − other`, or nil when the two cannot subtract.
    public func subtracting(_ other: _AnimValue) -> _AnimValue? { _combine(other, sign: -1) }

    func _combine(_ o: _AnimValue, sign s: Double) -> _AnimValue? {
        switch (self, o) {
        case let (.scalar(x, k), .scalar(y, _)): return .scalar(x + s * y, k)
        case let (.point(p), .point(q)): return .point(CGPoint(x: p.x + s * q.x, y: p.y + s * q.y))
        case let (.size(p), .size(q)): return .size(CGSize(width: p.width + s * q.width, height: p.height + s * q.height))
        case let (.rect(p), .rect(q)):
            return .rect(CGRect(x: p.origin.x + s * q.origin.x, y: p.origin.y + s * q.origin.y,
                                width: p.width + s * q.width, height: p.height + s * q.height))
        case let (.color(p), .color(q)):
            return .color(_AnimValue._color(zip(p.rgba, q.rgba).map { $0 + s * $1 }, gray: p.model == .gray && q.model == .gray))
        case let (.numbers(xs, k), .numbers(ys, _)) where xs.count == ys.count:
            return .numbers(zip(xs, ys).map { $0 + s * $1 }, k)
        case let (.transform(a), .transform(b)):
            if s > 0 { return .transform(b * a) }
            guard let inv = b._inverse else { return nil }
            return .transform(inv * a)
        case let (.path(p), .path(q)):
            return p._zipPoints(q) { CGPoint(x: $0.x + s * $1.x, y: $0.y + s * $1.y) }.map { .path($0) }
        case let (.colors(ps), .colors(qs)) where ps.count == qs.count:
            return .colors(zip(ps, qs).map { p, q in
                _AnimValue._color(zip(p.rgba, q.rgba).map { $0 + s * $1 }, gray: p.model == .gray && q.model == .gray)
            })
        default: return nil
        }
    }

    /// `self × k` (used for `iteration × end value` in cumulative animations), or nil for images.
    public func scaled(by k: Double) -> _AnimValue? {
        switch self {
        case let .scalar(x, kind): return .scalar(x * k, kind)
        case let .point(p): return .point(CGPoint(x: p.x * k, y: p.y * k))
        case let .size(p): return .size(CGSize(width: p.width * k, height: p.height * k))
        case let .rect(p): return .rect(CGRect(x: p.origin.x * k, y: p.origin.y * k, width: p.width * k, height: p.height * k))
        case let .color(c): return .color(_AnimValue._color(c.rgba.map { $0 * k }, gray: c.model == .gray))
        case let .numbers(xs, kind): return .numbers(xs.map { $0 * k }, kind)
        case let .transform(t): return .transform(_DecomposedTransform.power(t, k))
        case .image, .crossfade: return nil
        case let .path(p): return .path(p._withPoints(p._points.map { CGPoint(x: $0.x * k, y: $0.y * k) }))
        case let .colors(cs): return .colors(cs.map { _AnimValue._color($0.rgba.map { $0 * k }, gray: $0.model == .gray) })
        }
    }

    /// The Euclidean distance between two values of the same case (∞ for mismatched cases, so
    /// paced timing gives them no special weight — callers treat non-finite distances as 0).
    public func distance(to o: _AnimValue) -> Double {
        if let a = _vector, let b = o._vector, a.count == b.count {
            return zip(a, b).reduce(0) { $0 + ($1.0 - $1.1) * ($1.0 - $1.1) }.squareRoot()
        }
        switch (self, o) {
        case let (.transform(a), .transform(b)):
            return zip(a.elements, b.elements).reduce(0) { $0 + Double(($1.0 - $1.1) * ($1.0 - $1.1)) }.squareRoot()
        case let (.image(a), .image(b)): return a == b ? 0 : 1
        case let (.path(a), .path(b)) where a._hasSameStructure(as: b):
            return zip(a._points, b._points).reduce(0) { $0 + Double(($1.0.x - $1.1.x) * ($1.0.x - $1.1.x) + ($1.0.y - $1.1.y) * ($1.0.y - $1.1.y)) }.squareRoot()
        default: return .infinity
        }
    }

    /// The components of vector-like values (scalars, points, sizes, rects, colours as RGBA,
    /// number arrays); nil for transforms and images. Used by cubic keyframe splines.
    package var _vector: [Double]? {
        switch self {
        case let .scalar(x, _): return [x]
        case let .point(p): return [Double(p.x), Double(p.y)]
        case let .size(s): return [Double(s.width), Double(s.height)]
        case let .rect(r): return [Double(r.origin.x), Double(r.origin.y), Double(r.width), Double(r.height)]
        case let .color(c): return c.rgba.map(Double.init)
        case let .numbers(xs, _): return xs
        case let .colors(cs): return cs.flatMap { $0.rgba.map(Double.init) }
        default: return nil
        }
    }

    /// A value of the same case as `self` with components `v` (from `_vector`).
    package func _withVector(_ v: [Double]) -> _AnimValue {
        switch self {
        case let .scalar(_, k): return .scalar(v[0], k)
        case .point: return .point(CGPoint(x: v[0], y: v[1]))
        case .size: return .size(CGSize(width: v[0], height: v[1]))
        case .rect: return .rect(CGRect(x: v[0], y: v[1], width: v[2], height: v[3]))
        case let .color(c): return .color(_AnimValue._color(v.map { CGFloat($0) }, gray: c.model == .gray))
        case let .numbers(_, k): return .numbers(v, k)
        case let .colors(cs):
            return .colors(cs.indices.map { i in
                _AnimValue._color(v[(4 * i)..<(4 * i + 4)].map { CGFloat($0) }, gray: cs[i].model == .gray)
            })
        default: return self
        }
    }

    static func _color(_ c: [CGFloat], gray: Bool) -> CGColor {
        gray ? CGColor(gray: c[0], alpha: c[3]) : CGColor(red: c[0], green: c[1], blue: c[2], alpha: c[3])
    }
}

@inline(__always) private func lerp(_ a: CGFloat, _ b: CGFloat, _ f: Double) -> CGFloat { a + (b - a) * CGFloat(f) }
