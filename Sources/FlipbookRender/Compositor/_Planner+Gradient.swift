import Flipbook
import FlipbookRaster
import Foundation

extension _Planner {
    /// The gradient of a `CAGradientLayer`: its layer-space geometry (see `CAGradientLayer`)
    /// as a map into the paint's gradient space, composed with the device → layer map.
    mutating func gradient(_ l: RenderLayer, _ h: _Homography, clips: [_Shape], opacity: Double) {
        guard let g = l.gradient, !g.colors.isEmpty, let inv = h.inverse,
              let (kind, toGradient) = Self.gradientSpace(g, bounds: l.bounds) else { return }
        let stops = g.stops.map { s in
            GradientStop(location: Double(s.location), r: Double(s.color.red), g: Double(s.color.green),
                         b: Double(s.color.blue), a: Double(s.color.alpha))
        }
        let m = toGradient * inv
        let values = [m.m.0, m.m.1, m.m.2, m.m.3, m.m.4, m.m.5, m.m.6, m.m.7, m.m.8]
        guard values.allSatisfy(\.isFinite) else { return }
        let paint = GradientPaint(kind: kind, deviceToGradient: values, ramp: Self.ramp(stops))
        if let group = ownClipGroup {
            let a = Self.alpha(opacity)
            if a > 0 { ops.append(.draw(_Draw(shapes: [], paint: .gradient(paint), alpha: a, bounds: group))) }
            return
        }
        guard let s = shape(l.bounds, h, radii: radii(l), continuous: Self.continuous(l), aliased: Self.aliasedEdges(l)) else { return }
        emit(s, clips: clips, paint: .gradient(paint), opacity: opacity)
    }

    /// Layer space → gradient space (`GradientPaint`'s `(u, v)`), or nil when the gradient is
    /// degenerate (equal axial points, zero radial radii, non-finite values): it draws nothing.
    static func gradientSpace(_ g: RenderGradient, bounds b: CGRect) -> (GradientPaint.Kind, _Homography)? {
        let bx = Double(b.minX), by = Double(b.minY), bw = Double(b.width), bh = Double(b.height)
        let sx = bx + Double(g.startPoint.x) * bw, sy = by + Double(g.startPoint.y) * bh
        let ex = bx + Double(g.endPoint.x) * bw, ey = by + Double(g.endPoint.y) * bh
        guard [sx, sy, ex, ey].allSatisfy(\.isFinite) else { return nil }
        let dx = ex - sx, dy = ey - sy
        switch g.type {
        case .radial:
            var rx = abs(dx), ry = abs(dy)
            if rx == 0 { rx = ry }
            if ry == 0 { ry = rx }
            guard rx > 0 else { return nil }
            // u = (x − sx)/rx, v = (y − sy)/ry
            return (.radial, _Homography(1 / rx, 0, -sx / rx, 0, 1 / ry, -sy / ry, 0, 0, 1))
        case .conic:
            let a0 = dx == 0 && dy == 0 ? 0 : atan2(dy, dx)
            let c = cos(a0), s = sin(a0)
            // (u, v) = the offset from the centre rotated by −a0.
            return (.conic, _Homography(c, s, -(sx * c + sy * s), -s, c, sx * s - sy * c, 0, 0, 1))
        default:  // axial (and unknown types, as Apple draws them)
            let l2 = dx * dx + dy * dy
            guard l2 > 0, l2.isFinite else { return nil }
            // u = ((x − sx)·dx + (y − sy)·dy) / |d|², v the perpendicular, scaled alike.
            return (.axial, _Homography(dx / l2, dy / l2, -(sx * dx + sy * dy) / l2,
                                        -dy / l2, dx / l2, (sx * dy - sy * dx) / l2, 0, 0, 1))
        }
    }

    /// The colour ramp of `stops` (`GradientRamp.cached`: built once per distinct stop list).
    static func ramp(_ stops: [GradientStop]) -> GradientRamp { GradientRamp.cached(stops) }
}
