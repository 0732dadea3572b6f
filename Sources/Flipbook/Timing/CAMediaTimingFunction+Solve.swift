import Foundation
/// The cubic Bézier solver: the `y` of the timing curve for a given `x` (time fraction).
///
/// The curve is `B(s) = 3(1−s)²s·P1 + 3(1−s)s²·P2 + s³` for `s ∈ [0, 1]` (P0 = (0,0), P3 = (1,1)),
/// written in polynomial form per axis as `((a·s + b)·s + c)·s` with
///
///     c = 3·p1,  b = 3·(p2 − p1) − c,  a = 1 − c − b
///
/// Because x1, x2 ∈ [0, 1] (clamped at construction), `x(s)` is monotone non-decreasing, so for
/// every `x ∈ [0, 1]` there is one parameter `s` with `x(s) = x`. We find it with Newton's method
/// (8 steps, accepted at |x(s) − x| < 1e-12 where |dx/ds| > 1e-3) and fall back to bisection (which always converges)
/// when the derivative vanishes or Newton leaves [0, 1]. The answer is `y(s)`; it may leave
/// [0, 1] for overshooting control points such as (0.65, −0.55, 0.27, 1.55).
///
/// **Outside [0, 1]** the curve is extended linearly along its end tangents, as Chromium's
/// `gfx::CubicBezier` does: for `x < 0`, `y = x · startSlope`, where startSlope is `y1/x1`
/// (or `y2/x2` when x1 = 0, or 0 when both are 0); for `x > 1`, `y = 1 + (x − 1) · endSlope` with
/// endSlope `(y2 − 1)/(x2 − 1)` (or `(y1 − 1)/(x1 − 1)` when x2 = 1, or 0). NaN gives NaN-free 0.
extension CAMediaTimingFunction {
    @usableFromInline
    struct _Coefficients {
        @usableFromInline let ax, bx, cx, ay, by, cy: Double

        @inlinable init(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) {
            cx = 3 * x1; bx = 3 * (x2 - x1) - cx; ax = 1 - cx - bx
            cy = 3 * y1; by = 3 * (y2 - y1) - cy; ay = 1 - cy - by
        }

        @inlinable func x(_ s: Double) -> Double { ((ax * s + bx) * s + cx) * s }
        @inlinable func y(_ s: Double) -> Double { ((ay * s + by) * s + cy) * s }
        @inlinable func dx(_ s: Double) -> Double { (3 * ax * s + 2 * bx) * s + cx }

        /// The parameter `s ∈ [0, 1]` with `x(s) = x` (x already in [0, 1]).
        @inlinable func parameter(forX x: Double) -> Double {
            // Newton from s = x: quadratic convergence on the usual curves.
            // y's error is about (dy/ds)/(dx/ds)·|x error|, so Newton only answers where the
            // slope dx/ds is not tiny; near-vertical spots go to bisection on s itself.
            var s = x
            for _ in 0..<8 {
                let err = self.x(s) - x
                let d = dx(s)
                if abs(err) < 1e-12 && abs(d) > 1e-3 { return s }
                if abs(d) < 1e-6 { break }
                let next = s - err / d
                if !(next >= 0 && next <= 1) { break }
                s = next
            }
            // Bisection on s: x(s) is monotone on [0, 1]; 64 halvings pin s to double precision.
            var lo = 0.0, hi = 1.0
            for _ in 0..<64 {
                let mid = (lo + hi) / 2
                let v = self.x(mid)
                if v == x { return mid }
                if v < x { lo = mid } else { hi = mid }
            }
            return (lo + hi) / 2
        }
    }

    @usableFromInline var _coefficients: _Coefficients {
        _Coefficients(Double(c1x), Double(c1y), Double(c2x), Double(c2y))
    }

    /// The slope dy/dx of the straight extension before x = 0.
    package var _startSlope: Double {
        if c1x > 0 { return Double(c1y) / Double(c1x) }
        if c2x > 0 { return Double(c2y) / Double(c2x) }
        return 0
    }

    /// The slope dy/dx of the straight extension after x = 1.
    package var _endSlope: Double {
        if c2x < 1 { return (Double(c2y) - 1) / (Double(c2x) - 1) }
        if c1x < 1 { return (Double(c1y) - 1) / (Double(c1x) - 1) }
        return 0
    }

    /// The eased fraction `y` for the time fraction `x`, exact to better than 1e-6 inside [0, 1]
    /// and extrapolated linearly outside (see the type's notes). NaN input gives 0.
    package func _solve(_ x: Double) -> Double {
        guard !x.isNaN else { return 0 }
        if x <= 0 { return x == 0 ? 0 : x * _startSlope }
        if x >= 1 { return x == 1 ? 1 : 1 + (x - 1) * _endSlope }
        if c1x == c1y && c2x == c2y { return x }   // the linear curve: y = x exactly
        let k = _coefficients
        return k.y(k.parameter(forX: x))
    }

    /// Float convenience: `_solve` rounded to `Float`.
    package func _value(atTime x: Float) -> Float { Float(_solve(Double(x))) }
}
