import Foundation
import FlipbookRaster

// MARK: Arcs

extension CGMutablePath {
    /// Appends an arc of the circle of `radius` about `center` from `startAngle` to `endAngle`
    /// (Apple's `addArc(center:radius:startAngle:endAngle:clockwise:transform:)`).
    ///
    /// Angles are radians in the path's own coordinates: angle θ is the point
    /// `center + radius·(cos θ, sin θ)`, **before** `transform`. `clockwise: true` means the angle
    /// *decreases* from `startAngle` to `endAngle`; `false` means it increases (Core Graphics'
    /// math, whose names assume y up). In Flipbook's y-down drawing space a decreasing angle turns
    /// visually **counter-clockwise** on screen — exactly what the same call does in a UIKit
    /// (flipped) context on iOS; `UIBezierPath(arcCenter:…clockwise:)` uses the opposite flag.
    ///
    /// **Sweep.** `Δ = endAngle − startAngle`, taken in the requested direction (increasing for
    /// `clockwise: false`, decreasing for `true`):
    /// - `Δ = 0` is the start point alone;
    /// - a non-zero `Δ` whose size is a whole multiple of 2π is **one full circle** in the
    ///   requested direction, *whichever direction `Δ` points* — so `0 → 2π` is a full circle with
    ///   `clockwise: true` as well as with `false`;
    /// - a `Δ` of 2π or more in the requested direction is one full circle too (Core Graphics'
    ///   and the canvas rule);
    /// - any other `Δ` is reduced modulo 2π into the requested direction: `(0, 2π)` increasing,
    ///   `(−2π, 0)` decreasing.
    ///
    /// Why not Core Graphics' documented arithmetic, under which `0 → 2π` with `clockwise: true`
    /// would be a single point: on iOS that call draws a full circle, and real code reaches it —
    /// `UIBezierPath(arcCenter:radius:startAngle: 0, endAngle: 2 * .pi, clockwise: false)` (the
    /// flag inverted by UIKit's flipped space) is how NVActivityIndicatorView's circles and rings
    /// and ProgressHUD's dots are built, and they are visibly drawn on iOS. Chromium's canvas
    /// `arc()` makes the same choice for the same reason ("some web sites use
    /// `arc(x, y, r, 0, 2*Math.PI, true)` to draw circle"). A size within 1e-9 rad of a multiple
    /// of 2π counts as one (angles such as `−π/2 … 3π/2` are computed in floating point).
    ///
    /// If the path is not empty a line joins the current point to the arc's start; otherwise the
    /// arc starts a subpath there. The arc is cubic Béziers of at most 90° each
    /// (control distance `4/3·tan(φ/4)·radius`, radial error < 0.03 %).
    public func addArc(center: CGPoint, radius: CGFloat, startAngle: CGFloat, endAngle: CGFloat, clockwise: Bool,
                       transform: CGAffineTransform = .identity) {
        let delta = Self._arcSweep(Double(endAngle) - Double(startAngle), decreasing: clockwise)
        _appendArc(center: center, radius: Double(radius), start: Double(startAngle), sweep: delta, transform: transform)
    }

    /// Appends an arc from `startAngle` sweeping `delta` radians (positive: increasing angle),
    /// Apple's `addRelativeArc(center:radius:startAngle:delta:transform:)`. The sweep follows
    /// ``addArc(center:radius:startAngle:endAngle:clockwise:transform:)``'s rule in the
    /// direction of `delta`'s sign: a whole multiple of 2π is one full circle (`4π` goes round
    /// once, not twice), any other size is reduced modulo 2π. Line to the start or new subpath as
    /// that method.
    public func addRelativeArc(center: CGPoint, radius: CGFloat, startAngle: CGFloat, delta: CGFloat,
                               transform: CGAffineTransform = .identity) {
        let d = Double(delta)
        _appendArc(center: center, radius: Double(radius), start: Double(startAngle),
                   sweep: Self._arcSweep(d, decreasing: d < 0), transform: transform)
    }

    /// The sweep actually drawn for an angle difference `delta` in the requested direction (see
    /// ``addArc(center:radius:startAngle:endAngle:clockwise:transform:)``): 0 stays 0; a size that
    /// is a whole multiple of 2π (within 1e-9 rad), or 2π or more in the requested direction, is
    /// ±2π in the requested direction; anything else is reduced into `(0, 2π)` or `(−2π, 0)`. Non-finite input is returned as it is (the
    /// arc is then dropped).
    static func _arcSweep(_ delta: Double, decreasing: Bool) -> Double {
        guard delta.isFinite, delta != 0 else { return delta }
        let twoPi = 2 * Double.pi, eps = 1e-9
        let full = decreasing ? -twoPi : twoPi
        if (delta < 0) == decreasing, abs(delta) >= twoPi - eps { return full }
        let r = fmod(abs(delta), twoPi)                      // in [0, 2π)
        if r < eps || twoPi - r < eps { return full }
        // The signed remainder, moved into the requested direction.
        var d = fmod(delta, twoPi)                           // same sign as delta, |d| in (0, 2π)
        if decreasing, d > 0 { d -= twoPi }
        if !decreasing, d < 0 { d += twoPi }
        return d
    }

    func _appendArc(center: CGPoint, radius r: Double, start: Double, sweep: Double, transform t: CGAffineTransform) {
        guard start.isFinite, sweep.isFinite, r.isFinite else { return }
        let cx = Double(center.x), cy = Double(center.y)
        func pt(_ a: Double) -> CGPoint { CGPoint(x: cx + r * cos(a), y: cy + r * sin(a)) }
        if elements.isEmpty { move(to: pt(start), transform: t) } else { addLine(to: pt(start), transform: t) }
        guard sweep != 0, r != 0 else { return }
        let n = max(1, Int((abs(sweep) / (Double.pi / 2) - 1e-9).rounded(.up)))
        let step = sweep / Double(n)
        let k = 4.0 / 3.0 * tan(step / 4)
        var a0 = start
        for i in 1...n {
            let a1 = i == n ? start + sweep : start + step * Double(i)
            let p0 = (cos(a0), sin(a0)), p1 = (cos(a1), sin(a1))
            let c1 = CGPoint(x: cx + r * (p0.0 - k * p0.1), y: cy + r * (p0.1 + k * p0.0))
            let c2 = CGPoint(x: cx + r * (p1.0 + k * p1.1), y: cy + r * (p1.1 - k * p1.0))
            addCurve(to: pt(a1), control1: c1, control2: c2, transform: t)
            a0 = a1
        }
    }

    /// Appends a line from the current point towards `tangent1End` and an arc of `radius`
    /// tangent to the lines current point → `tangent1End` and `tangent1End` → `tangent2End`
    /// (Apple's `addArc(tangent1End:tangent2End:radius:transform:)`, PostScript's `arct`). The
    /// path ends at the arc's second tangent point (not at `tangent2End`).
    ///
    /// Degenerate cases (Flipbook's choice, as the HTML canvas `arcTo`): an empty path first
    /// moves to `tangent1End`; if the current point equals `tangent1End`, the three points are
    /// collinear or `radius` is 0, only a line to `tangent1End` is added. The current point is
    /// taken back through `transform` (identity if it is not invertible) so the construction
    /// happens in the coordinates of the arguments.
    public func addArc(tangent1End: CGPoint, tangent2End: CGPoint, radius: CGFloat, transform: CGAffineTransform = .identity) {
        if elements.isEmpty { move(to: tangent1End, transform: transform); return }
        let inv = transform._isInvertible ? transform.inverted() : .identity
        let p0 = currentPoint.applying(inv)
        let t1 = tangent1End, t2 = tangent2End
        let v1 = (Double(p0.x - t1.x), Double(p0.y - t1.y)), v2 = (Double(t2.x - t1.x), Double(t2.y - t1.y))
        let l1 = hypot(v1.0, v1.1), l2 = hypot(v2.0, v2.1)
        let r = Double(radius)
        let cross = v1.0 * v2.1 - v1.1 * v2.0
        guard l1 > 1e-12, l2 > 1e-12, r > 0, abs(cross) > 1e-12 * l1 * l2 else {
            addLine(to: t1, transform: transform); return
        }
        let u1 = (v1.0 / l1, v1.1 / l1), u2 = (v2.0 / l2, v2.1 / l2)
        let cosT = max(-1, min(1, u1.0 * u2.0 + u1.1 * u2.1))
        let theta = acos(cosT)                       // angle at tangent1End between the two lines
        let d = r / tan(theta / 2)                   // from tangent1End to each tangent point
        let bis = (u1.0 + u2.0, u1.1 + u2.1), bl = hypot(bis.0, bis.1)
        let h = r / sin(theta / 2)
        let c = CGPoint(x: Double(t1.x) + bis.0 / bl * h, y: Double(t1.y) + bis.1 / bl * h)
        let a = CGPoint(x: Double(t1.x) + u1.0 * d, y: Double(t1.y) + u1.1 * d)
        let b = CGPoint(x: Double(t1.x) + u2.0 * d, y: Double(t1.y) + u2.1 * d)
        let a0 = atan2(Double(a.y - c.y), Double(a.x - c.x)), a1 = atan2(Double(b.y - c.y), Double(b.x - c.x))
        var sweep = a1 - a0
        while sweep > Double.pi { sweep -= 2 * Double.pi }
        while sweep <= -Double.pi { sweep += 2 * Double.pi }
        _appendArc(center: c, radius: r, start: a0, sweep: sweep, transform: transform)
    }
}

// MARK: Apple's pointer-transform initializers and copies

extension CGPath {
    /// A rectangle path (Apple's `CGPath(rect:transform:)`, whose `transform` is an
    /// `UnsafePointer<CGAffineTransform>?`: pass `nil` or `&t`). The value-taking
    /// `CGPath(rect:transform: CGAffineTransform)` overload is Flipbook's convenience.
    public convenience init(rect: CGRect, transform: UnsafePointer<CGAffineTransform>? = nil) {
        self.init(rect: rect, transform: transform?.pointee ?? .identity)
    }

    /// An ellipse path (Apple's `CGPath(ellipseIn:transform:)`, pointer transform).
    public convenience init(ellipseIn rect: CGRect, transform: UnsafePointer<CGAffineTransform>? = nil) {
        self.init(ellipseIn: rect, transform: transform?.pointee ?? .identity)
    }

    /// A rounded-rectangle path (Apple's `CGPath(roundedRect:cornerWidth:cornerHeight:transform:)`,
    /// pointer transform).
    public convenience init(roundedRect rect: CGRect, cornerWidth: CGFloat, cornerHeight: CGFloat,
                            transform: UnsafePointer<CGAffineTransform>? = nil) {
        self.init(roundedRect: rect, cornerWidth: cornerWidth, cornerHeight: cornerHeight, transform: transform?.pointee ?? .identity)
    }

    /// An immutable copy with every point mapped by `transform` (nil: unchanged), Apple's
    /// `copy(using:)`. Never nil here.
    public func copy(using transform: UnsafePointer<CGAffineTransform>?) -> CGPath? {
        CGPath(elements: _mapped(transform?.pointee ?? .identity))
    }

    /// A mutable copy with every point mapped by `transform` (Apple's `mutableCopy(using:)`).
    public func mutableCopy(using transform: UnsafePointer<CGAffineTransform>?) -> CGMutablePath? {
        let m = CGMutablePath(); m.elements = _mapped(transform?.pointee ?? .identity); return m
    }

    func _mapped(_ t: CGAffineTransform) -> [_PathElement] {
        if t == .identity { return elements }
        return elements.map { e in
            switch e {
            case let .moveToPoint(p): return .moveToPoint(p.applying(t))
            case let .addLineToPoint(p): return .addLineToPoint(p.applying(t))
            case let .addQuadCurveToPoint(c, p): return .addQuadCurveToPoint(control: c.applying(t), to: p.applying(t))
            case let .addCurveToPoint(c1, c2, p): return .addCurveToPoint(control1: c1.applying(t), control2: c2.applying(t), to: p.applying(t))
            case .closeSubpath: return .closeSubpath
            }
        }
    }

    /// A path from a raster path's verbs and points.
    package convenience init(_ raster: RasterPath) {
        var out: [_PathElement] = []
        out.reserveCapacity(raster.verbs.count)
        var i = 0
        let pts = raster.points
        func p(_ k: Int) -> CGPoint { CGPoint(x: pts[k].x, y: pts[k].y) }
        for v in raster.verbs {
            switch v {
            case .move: out.append(.moveToPoint(p(i))); i += 1
            case .line: out.append(.addLineToPoint(p(i))); i += 1
            case .quad: out.append(.addQuadCurveToPoint(control: p(i), to: p(i + 1))); i += 2
            case .cubic: out.append(.addCurveToPoint(control1: p(i), control2: p(i + 1), to: p(i + 2))); i += 3
            case .close: out.append(.closeSubpath)
            }
        }
        self.init(elements: out)
    }
}

// MARK: Containment

extension CGPath {
    /// Whether `point` (mapped by `transform` first, as on Apple) is inside the path under `rule`
    /// (Apple's `contains(_:using:transform:)`). Every subpath counts as closed. The test is the
    /// winding number of the path flattened to 0.001 units; points exactly on an edge may go
    /// either way.
    public func contains(_ point: CGPoint, using rule: CGPathFillRule = .winding, transform: CGAffineTransform = .identity) -> Bool {
        let q = point.applying(transform)
        let (px, py) = (Double(q.x), Double(q.y))
        var winding = 0
        for line in _flattened(tolerance: 1e-3) {
            guard line.count > 1 else { continue }
            for i in 0..<line.count {
                let a = line[i], b = line[(i + 1) % line.count]
                let (ax, ay, bx, by) = (Double(a.x), Double(a.y), Double(b.x), Double(b.y))
                if ay <= py {
                    if by > py, (bx - ax) * (py - ay) - (px - ax) * (by - ay) > 0 { winding += 1 }
                } else if by <= py, (bx - ax) * (py - ay) - (px - ax) * (by - ay) < 0 {
                    winding -= 1
                }
            }
        }
        return rule == .winding ? winding != 0 : winding % 2 != 0
    }
}

// MARK: Stroking and dashing

extension CGLineCap { var _raster: StrokeStyle.Cap { self == .round ? .round : self == .square ? .square : .butt } }
extension CGLineJoin { var _raster: StrokeStyle.Join { self == .round ? .round : self == .bevel ? .bevel : .miter } }

extension CGPath {
    /// The outline of the path stroked with these parameters, as a path that, **filled with the
    /// winding rule**, is the stroke (Apple's `copy(strokingWithWidth:lineCap:lineJoin:miterLimit:
    /// transform:)`). The outline is `PathStroker`'s: polygons (curves, round joins and caps
    /// flattened to a 0.002-unit sagitta, their points balanced across the curve), not Béziers as
    /// on Apple; overlaps are kept (fill it non-zero). Then mapped by `transform`.
    public func copy(strokingWithWidth lineWidth: CGFloat, lineCap: CGLineCap, lineJoin: CGLineJoin, miterLimit: CGFloat,
                     transform: CGAffineTransform = .identity) -> CGPath {
        let w = Double(lineWidth)
        guard w > 0, w.isFinite else { return CGPath(elements: []) }
        // The stroker draws sub-pixel widths as 1-unit hairlines; stroke at a scale where the
        // width is at least 2 units and map back.
        let s = max(1, 2 / w)
        var outline = RasterPath()
        let stroker = PathStroker()
        stroker.tolerance = 0.002                      // round joins and caps within 0.002 units
        stroker.stroke(RasterPath(self), style: StrokeStyle(width: w, cap: lineCap._raster, join: lineJoin._raster,
                                                                  miterLimit: Double(miterLimit)),
                             transform: .scale(s, s), into: &outline)
        let back = CGAffineTransform(scaleX: 1 / s, y: 1 / s).concatenating(transform)
        return CGPath(elements: CGPath(outline)._mapped(back))
    }

    /// The outline of `path` stroked with these parameters — Apple's
    /// `CGPath(__byStroking:transform:lineWidth:lineCap:lineJoin:miterLimit:)`, the Swift spelling
    /// of `CGPathCreateCopyByStrokingPath` — exactly as
    /// ``copy(strokingWithWidth:lineCap:lineJoin:miterLimit:transform:)`` makes it (`transform`
    /// nil is the identity). Nil, as the C function's NULL, for a width that is not positive and
    /// finite.
    public convenience init?(__byStroking path: CGPath, transform: UnsafePointer<CGAffineTransform>?, lineWidth: CGFloat,
                             lineCap: CGLineCap, lineJoin: CGLineJoin, miterLimit: CGFloat) {
        guard lineWidth > 0, lineWidth.isFinite else { return nil }
        let outline = path.copy(strokingWithWidth: lineWidth, lineCap: lineCap, lineJoin: lineJoin, miterLimit: miterLimit,
                                transform: transform?.pointee ?? .identity)
        self.init(elements: outline.elements)
    }

    /// The path cut into dashes (Apple's `copy(dashingWithPhase:lengths:transform:)`): `lengths`
    /// alternate on / off, starting with on, repeated (an odd count is used twice, as Core
    /// Graphics); `phase` is how far into the pattern the path starts. Curves stay curves (cut
    /// at the arc-length parameter, de Casteljau). Every subpath restarts the pattern at `phase`
    /// (the PostScript / PDF rule Core Graphics follows). On a closed subpath a dash running over the start is joined
    /// to the first dash. An empty pattern, a negative length or a zero total returns the path
    /// unchanged. Then mapped by `transform`.
    public func copy(dashingWithPhase phase: CGFloat, lengths: [CGFloat], transform: CGAffineTransform = .identity) -> CGPath {
        var pattern = lengths.map(Double.init)
        if pattern.count % 2 == 1 { pattern += pattern }
        let total = pattern.reduce(0, +)
        guard !pattern.isEmpty, pattern.allSatisfy({ $0 >= 0 && $0.isFinite }), total > 0 else {
            return CGPath(elements: _mapped(transform))
        }
        let out = CGMutablePath()
        for sub in _subpathSegments() {
            _dash(sub.segments, closed: sub.closed, pattern: pattern, total: total, phase: Double(phase), into: out)
        }
        return CGPath(elements: out._mapped(transform))
    }

    /// Segments per subpath (a subpath's segments, closed flag); zero-length segments dropped.
    func _subpathSegments() -> [(segments: [_PathSegment], closed: Bool)] {
        var result: [(segments: [_PathSegment], closed: Bool)] = []
        var segs: [_PathSegment] = [], closed = false
        var cur = CGPoint.zero, start = CGPoint.zero
        func flush() { if !segs.isEmpty { result.append((segs, closed)) }; segs = []; closed = false }
        for e in elements {
            let before = cur
            switch e {
            case .moveToPoint: flush()
            case let .addLineToPoint(p):
                if closed { flush() }
                segs.append(_PathSegment(kind: .line, p0: before, p1: _mix(before, p, 1.0 / 3), p2: _mix(before, p, 2.0 / 3), p3: p))
            case let .addQuadCurveToPoint(c, p):
                if closed { flush() }
                segs.append(_PathSegment(kind: .quad, p0: before, p1: _mix(before, c, 2.0 / 3), p2: _mix(p, c, 2.0 / 3), p3: p))
            case let .addCurveToPoint(c1, c2, p):
                if closed { flush() }
                segs.append(_PathSegment(kind: .cubic, p0: before, p1: c1, p2: c2, p3: p))
            case .closeSubpath:
                if before != start {
                    segs.append(_PathSegment(kind: .line, p0: before, p1: _mix(before, start, 1.0 / 3), p2: _mix(before, start, 2.0 / 3), p3: start))
                }
                closed = true
            }
            e._advance(current: &cur, subpathStart: &start)
        }
        flush()
        return result
    }

    func _dash(_ segs: [_PathSegment], closed: Bool, pattern: [Double], total: Double, phase: Double, into out: CGMutablePath) {
        // Position in the pattern.
        var idx = 0
        var into = phase.truncatingRemainder(dividingBy: total)
        if into < 0 { into += total }
        while into >= pattern[idx] { into -= pattern[idx]; idx = (idx + 1) % pattern.count }
        var remaining = pattern[idx] - into            // left in the current dash / gap
        var on = idx % 2 == 0
        let startsOn = on
        var pieces: [[_PathSegment]] = []              // drawn dashes
        var current: [_PathSegment] = []
        for seg in segs {
            let len = seg.length
            guard len > 0 else { continue }
            var u0 = 0.0, s0 = 0.0
            while s0 < len {
                let s1 = min(len, s0 + remaining)
                let u1 = s1 >= len ? 1.0 : seg._parameter(atLength: s1, total: len)
                if on { current.append(seg._split(from: u0, to: u1)) }
                remaining -= s1 - s0
                s0 = s1; u0 = u1
                if remaining <= 1e-12 {
                    if on { pieces.append(current); current = [] }
                    idx = (idx + 1) % pattern.count
                    remaining = pattern[idx]; on = idx % 2 == 0
                }
            }
        }
        let endsInDash = on && !current.isEmpty
        if endsInDash { pieces.append(current) }
        if closed, startsOn, endsInDash, pieces.count > 1 {
            // The last dash runs over the start: join it to the first.
            let last = pieces.removeLast()
            pieces[0] = last + pieces[0]
        }
        for piece in pieces {
            guard let first = piece.first else { continue }
            out.move(to: first.p0)
            for s in piece {
                switch s.kind {
                case .line: out.addLine(to: s.p3)
                default: out.addCurve(to: s.p3, control1: s.p1, control2: s.p2)
                }
            }
        }
    }
}

extension CGAffineTransform {
    /// A non-zero, finite determinant.
    package var _isInvertible: Bool { let det = a * d - b * c; return det != 0 && det.isFinite }
}
