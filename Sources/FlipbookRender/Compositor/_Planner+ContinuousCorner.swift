import Flipbook
import Foundation

/// `cornerCurve = .continuous`: Apple's smooth ("squircle") corner.
///
/// **Source of the curve.** Apple does not publish it. Flipbook uses the widely used reverse
/// engineering of iOS's rounded rectangle published by PaintCode ("Code for iOS 7 rounded
/// rectangles", paintcodeapp.com/news/code-for-ios-7-rounded-rectangles): each corner of
/// radius `r` leaves the straight edge 1.52866483·r before the corner (the value
/// `CALayer.cornerCurveExpansionFactor(.continuous)` returns on Apple) and is made of three
/// cubic Béziers joined by two short lines. In corner units — `α` along the edge the outline
/// arrives by, `β` along the edge it leaves by, both measured from the corner in radii:
///
///     (1.52866483, 0)
///     curve c1 (1.08849323, 0) c2 (0.86840689, 0) → (0.66993427, 0.06549600)
///     line → (0.63149399, 0.07491100)
///     curve c1 (0.37282392, 0.16905899) c2 (0.16905899, 0.37282392) → (0.07491100, 0.63149399)
///     line → (0.06549600, 0.66993427)
///     curve c1 (0, 0.86840689) c2 (0, 1.08849323) → (0, 1.52866483)
///
/// **When it does not fit** (1.52866483·r above half the shorter side — PaintCode instead
/// shrinks the radius, which would turn a capsule into a rounded rectangle), Flipbook blends
/// each control point towards the same steps of a circular corner by the least fraction `f`
/// that makes the corner fit: `r·(1.52866483·(1 − f) + f)` = half the shorter side. At
/// `r` = half the shorter side the corner is circular, so a continuous capsule is a capsule.
/// (Apple's own degradation is not published; this is Flipbook's rule.)
extension _Planner {
    static let continuousReach = 1.52866483

    /// The five steps (three curves, two lines) as `[c1, c2, end]` control points (lines: the
    /// end three times), continuous and circular (a quarter circle as one cubic, κ = 0.5523).
    static let continuousSteps: [[(Double, Double)]] = [
        [(1.08849323, 0), (0.86840689, 0), (0.66993427, 0.06549600)],
        [(0.63149399, 0.07491100), (0.63149399, 0.07491100), (0.63149399, 0.07491100)],
        [(0.37282392, 0.16905899), (0.16905899, 0.37282392), (0.07491100, 0.63149399)],
        [(0.06549600, 0.66993427), (0.06549600, 0.66993427), (0.06549600, 0.66993427)],
        [(0, 0.86840689), (0, 1.08849323), (0, 1.52866483)],
    ]
    static let circularSteps: [[(Double, Double)]] = {
        let k = 1 - 0.5522847498
        return [
            [(1, 0), (1, 0), (1, 0)],
            [(1, 0), (1, 0), (1, 0)],
            [(k, 0), (0, k), (0, 1)],
            [(0, 1), (0, 1), (0, 1)],
            [(0, 1), (0, 1), (0, 1)],
        ]
    }()

    /// The blend fraction towards circular that makes a corner of radius `r` fit in `half`
    /// (half the shorter side): 0 when the full continuous corner fits.
    static func continuousBlend(r: Double, half: Double) -> Double {
        guard r > 0, continuousReach * r > half else { return 0 }
        return min(1, max(0, (continuousReach * r - half) / ((continuousReach - 1) * r)))
    }

    /// The corner's outline in layer space, from the point on the arriving edge to the point on
    /// the leaving edge: corner point `c`, unit vectors `uIn` (back along the arriving edge) and
    /// `uOut` (along the leaving edge), radius `r`, blend `f`, `n` chords per curve.
    static func continuousCorner(_ c: (Double, Double), uIn: (Double, Double), uOut: (Double, Double),
                                 r: Double, f: Double, n: Int, into out: inout [(Double, Double)]) {
        @inline(__always) func point(_ p: (Double, Double)) -> (Double, Double) {
            (c.0 + r * (p.0 * uIn.0 + p.1 * uOut.0), c.1 + r * (p.0 * uIn.1 + p.1 * uOut.1))
        }
        @inline(__always) func mix(_ a: (Double, Double), _ b: (Double, Double)) -> (Double, Double) {
            (a.0 + (b.0 - a.0) * f, a.1 + (b.1 - a.1) * f)
        }
        var p0 = point(mix((continuousReach, 0), (1, 0)))
        out.append(p0)
        for (s, step) in continuousSteps.enumerated() {
            let q = (0..<3).map { point(mix(step[$0], circularSteps[s][$0])) }
            if s == 1 || s == 3 {          // the short lines
                out.append(q[2]); p0 = q[2]; continue
            }
            for i in 1...n {
                let t = Double(i) / Double(n), u = 1 - t
                let a = u * u * u, b = 3 * u * u * t, cc = 3 * u * t * t, d = t * t * t
                out.append((a * p0.0 + b * q[0].0 + cc * q[1].0 + d * q[2].0, a * p0.1 + b * q[0].1 + cc * q[1].1 + d * q[2].1))
            }
            p0 = q[2]
        }
    }
}
