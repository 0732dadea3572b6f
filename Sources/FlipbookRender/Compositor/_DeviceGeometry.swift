import Flipbook
import FlipbookRaster

/// A 3×3 homography in **column-vector** form, `[X Y W]ᵀ = H · [u v 1]ᵀ`, in `Double`.
///
/// The compositor turns every layer's 4×4 `CATransform3D` chain (row vectors) into one of
/// these: the plane z = 0 of the layer mapped to the device, ignoring the output z (Core
/// Animation flattens into the screen). Row `[m14 m24 m44]` is the perspective row; a point
/// is in front of the eye when `W > 0`.

struct _Homography: Sendable, Equatable {
    var m: (Double, Double, Double, Double, Double, Double, Double, Double, Double)

    init(_ a: Double, _ b: Double, _ c: Double, _ d: Double, _ e: Double, _ f: Double,
                    _ g: Double, _ h: Double, _ i: Double) {
        m = (a, b, c, d, e, f, g, h, i)
    }

    static func == (l: _Homography, r: _Homography) -> Bool {
        l.m.0 == r.m.0 && l.m.1 == r.m.1 && l.m.2 == r.m.2 && l.m.3 == r.m.3 && l.m.4 == r.m.4
            && l.m.5 == r.m.5 && l.m.6 == r.m.6 && l.m.7 == r.m.7 && l.m.8 == r.m.8
    }

    static let identity = _Homography(1, 0, 0, 0, 1, 0, 0, 0, 1)

    /// The layer-plane (z = 0) part of a row-vector `CATransform3D`:
    /// `X = u·m11 + v·m21 + m41`, `Y = u·m12 + v·m22 + m42`, `W = u·m14 + v·m24 + m44`.
    init(planeOf t: CATransform3D) {
        self.init(Double(t.m11), Double(t.m21), Double(t.m41),
                  Double(t.m12), Double(t.m22), Double(t.m42),
                  Double(t.m14), Double(t.m24), Double(t.m44))
    }

    func apply(_ x: Double, _ y: Double) -> (Double, Double, Double) {
        (m.0 * x + m.1 * y + m.2, m.3 * x + m.4 * y + m.5, m.6 * x + m.7 * y + m.8)
    }

    var isAffine: Bool { m.6 == 0 && m.7 == 0 && m.8 == 1 }
    var isFinite: Bool {
        m.0.isFinite && m.1.isFinite && m.2.isFinite && m.3.isFinite && m.4.isFinite
            && m.5.isFinite && m.6.isFinite && m.7.isFinite && m.8.isFinite
    }

    var determinant: Double {
        m.0 * (m.4 * m.8 - m.5 * m.7) - m.1 * (m.3 * m.8 - m.5 * m.6) + m.2 * (m.3 * m.7 - m.4 * m.6)
    }

    /// The inverse (adjugate / determinant), or nil when singular or not finite.
    var inverse: _Homography? {
        let det = determinant
        guard det != 0, det.isFinite else { return nil }
        let r = 1 / det
        let h = _Homography(
            (m.4 * m.8 - m.5 * m.7) * r, (m.2 * m.7 - m.1 * m.8) * r, (m.1 * m.5 - m.2 * m.4) * r,
            (m.5 * m.6 - m.3 * m.8) * r, (m.0 * m.8 - m.2 * m.6) * r, (m.2 * m.3 - m.0 * m.5) * r,
            (m.3 * m.7 - m.4 * m.6) * r, (m.1 * m.6 - m.0 * m.7) * r, (m.0 * m.4 - m.1 * m.3) * r)
        guard h.isFinite else { return nil }
        // Normalise so that an affine map keeps its bottom row exactly (0, 0, 1).
        if h.m.6 == 0 && h.m.7 == 0 && h.m.8 != 0 && h.m.8 != 1 {
            let s = 1 / h.m.8
            return _Homography(h.m.0 * s, h.m.1 * s, h.m.2 * s, h.m.3 * s, h.m.4 * s, h.m.5 * s, 0, 0, 1)
        }
        return h
    }

    /// `a · b` (apply `b` first, then `a`).
    static func * (a: _Homography, b: _Homography) -> _Homography {
        let x = a.m, y = b.m
        return _Homography(
            x.0 * y.0 + x.1 * y.3 + x.2 * y.6, x.0 * y.1 + x.1 * y.4 + x.2 * y.7, x.0 * y.2 + x.1 * y.5 + x.2 * y.8,
            x.3 * y.0 + x.4 * y.3 + x.5 * y.6, x.3 * y.1 + x.4 * y.4 + x.5 * y.7, x.3 * y.2 + x.4 * y.5 + x.5 * y.8,
            x.6 * y.0 + x.7 * y.3 + x.8 * y.6, x.6 * y.1 + x.7 * y.4 + x.8 * y.7, x.6 * y.2 + x.7 * y.5 + x.8 * y.8)
    }

    /// The affine map `(u, v) ↦ (sx·u + tx, sy·v + ty)`.
    static func scaleTranslate(sx: Double, sy: Double, tx: Double, ty: Double) -> _Homography {
        _Homography(sx, 0, tx, 0, sy, ty, 0, 0, 1)
    }
}

/// An integer pixel rectangle `[x0, x1) × [y0, y1)`.

struct _IRect: Sendable, Equatable {
    var x0: Int, y0: Int, x1: Int, y1: Int
    init(x0: Int, y0: Int, x1: Int, y1: Int) { self.x0 = x0; self.y0 = y0; self.x1 = x1; self.y1 = y1 }
    static let empty = _IRect(x0: 0, y0: 0, x1: 0, y1: 0)
    var isEmpty: Bool { x1 <= x0 || y1 <= y0 }
    func intersection(_ o: _IRect) -> _IRect {
        let r = _IRect(x0: max(x0, o.x0), y0: max(y0, o.y0), x1: min(x1, o.x1), y1: min(y1, o.y1))
        return r.isEmpty ? .empty : r
    }
    func union(_ o: _IRect) -> _IRect {
        if isEmpty { return o }
        if o.isEmpty { return self }
        return _IRect(x0: min(x0, o.x0), y0: min(y0, o.y0), x1: max(x1, o.x1), y1: max(y1, o.y1))
    }
    func outset(_ d: Int) -> _IRect { isEmpty ? self : _IRect(x0: x0 - d, y0: y0 - d, x1: x1 + d, y1: y1 + d) }
}

/// Clipping of a layer quad in homogeneous space, *before* the perspective divide.
///
/// The quad's corners `(X, Y, W)` are clipped (Sutherland–Hodgman) against five planes:
/// `W ≥ ε` (in front of the eye) and a guard rectangle `-g ≤ x ≤ width + g`,
/// `-g ≤ y ≤ height + g` written without the divide (`X + g·W ≥ 0`, …). Only then is each
/// vertex divided by `W`. Geometry behind the eye is therefore removed instead of being
/// projected through infinity, and every surviving coordinate is bounded.
enum _HomogeneousClip {
    static let epsilon = 1e-6
    static let guardBand = 4.0

    struct Vertex { var x: Double, y: Double, w: Double }

    /// Clips the polygon `pts` of the layer plane (a closed loop) mapped by `h`; returns the
    /// device-space points, or an empty array when nothing is in front and inside. Lines of the
    /// layer plane stay lines under a homography, so a polyline flattened in layer space is
    /// still a polyline after the divide.
    /// `clipPolygon` for an affine `h` when every vertex is inside the guard rectangle (W = 1,
    /// nothing to clip): the same points (`x / 1 = x`), mapped in place (no other array); false,
    /// with `pts` untouched, when a vertex is outside (then `clipPolygon` does the work).
    static func affineInside(_ pts: inout [RasterPoint], by h: _Homography,
                             width: Double, height: Double) -> Bool {
        let g = guardBand
        for c in pts {
            let p = h.apply(c.x, c.y)
            // The five planes of `clipPolygon` with W = p.2 (exactly 1 for an affine map).
            guard p.2 - epsilon >= 0, p.0 + g * p.2 >= 0, (width + g) * p.2 - p.0 >= 0,
                  p.1 + g * p.2 >= 0, (height + g) * p.2 - p.1 >= 0 else { return false }
        }
        pts.withUnsafeMutableBufferPointer { b in
            for i in b.indices {
                let p = h.apply(b[i].x, b[i].y)
                b[i] = RasterPoint(p.0 / p.2, p.1 / p.2)
            }
        }
        return true
    }

    static func clipPolygon(_ pts: [(Double, Double)], by h: _Homography,
                            width: Double, height: Double) -> [(x: Double, y: Double)] {
        var poly: [Vertex] = pts.map { c in
            let p = h.apply(c.0, c.1)
            return Vertex(x: p.0, y: p.1, w: p.2)
        }
        let g = guardBand
        var out: [Vertex] = []
        for plane in 0..<5 {
            if poly.isEmpty { break }
            // f(v) ≥ 0 is inside.
            @inline(__always) func f(_ v: Vertex) -> Double {
                switch plane {
                case 0: return v.w - epsilon
                case 1: return v.x + g * v.w
                case 2: return (width + g) * v.w - v.x
                case 3: return v.y + g * v.w
                default: return (height + g) * v.w - v.y
                }
            }
            var inside = true
            for v in poly where f(v) < 0 { inside = false; break }
            if inside { continue }
            out.removeAll(keepingCapacity: true)
            out.reserveCapacity(poly.count + 2)
            for i in 0..<poly.count {
                let a = poly[i], b = poly[(i + 1) % poly.count]
                let fa = f(a), fb = f(b)
                if fa >= 0 {
                    out.append(a)
                    if fb < 0 {
                        let t = fa / (fa - fb)
                        out.append(Vertex(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t, w: a.w + (b.w - a.w) * t))
                    }
                } else if fb >= 0 {
                    let t = fa / (fa - fb)
                    out.append(Vertex(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t, w: a.w + (b.w - a.w) * t))
                }
            }
            swap(&poly, &out)
        }
        guard poly.count >= 3 else { return [] }
        return poly.map { (x: $0.x / $0.w, y: $0.y / $0.w) }
    }
}
