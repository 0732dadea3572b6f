/// Per-pixel and per-row coverage of `_Shape`s (see `_Shape` for the formulas).
enum _Coverage {
    /// Row spans of a shape on row `y` (pixel centres at `y + ½`): pixels that may be
    /// covered, `[lo, hi)`, and pixels that are certainly fully covered, `[flo, fhi)`
    /// (empty for rounded shapes). Conservative by one pixel; exactness comes from the
    /// per-pixel formula, so any span decision gives the same bytes.
    @inline(__always)
    static func rowSpans(_ s: _Shape, y: Int) -> (lo: Int, hi: Int, flo: Int, fhi: Int) {
        let yc = Double(y) + 0.5
        var lo = -1e9, hi = 1e9, flo = -1e9, fhi = 1e9
        for e in s.edges {
            let k = e.ny * yc + e.c
            if e.nx > 1e-12 {
                lo = max(lo, (-0.5 - k) / e.nx); flo = max(flo, (0.5 - k) / e.nx)
            } else if e.nx < -1e-12 {
                hi = min(hi, (-0.5 - k) / e.nx); fhi = min(fhi, (0.5 - k) / e.nx)
            } else {
                if k <= -0.5 { return (0, 0, 0, 0) }
                if k < 0.5 { flo = 1e9; fhi = -1e9 }
            }
        }
        let b = s.bounds
        let l = max(b.x0, Int(max(lo, -1e9).rounded(.down)) - 1)
        let h = min(b.x1, Int(min(hi, 1e9).rounded(.up)) + 1)
        if h <= l { return (0, 0, 0, 0) }
        if s.rounded != nil || fhi <= flo { return (l, h, l, l) }
        let fl = max(l, Int(max(flo, -1e9).rounded(.up)) + 1)
        let fh = min(h, Int(min(fhi, 1e9).rounded(.down)) - 1)
        return fh > fl ? (l, h, fl, fh) : (l, h, l, l)
    }

    /// Coverage of pixel `(x, y)` in 0…1.
    @inline(__always)
    static func at(_ s: _Shape, x: Int, y: Int) -> Double {
        let xc = Double(x) + 0.5, yc = Double(y) + 0.5
        if let r = s.rounded, let c = corner(r, xc, yc) { return c }
        var cov = 1.0
        for e in s.edges {
            let d = e.nx * xc + e.ny * yc + e.c + 0.5
            if d <= 0 { return 0 }
            if d < 1 { cov *= d }
        }
        return cov
    }

    /// Coverage from a rounded corner's arc, or nil when the pixel centre is not in a corner
    /// square (then the straight edges decide).
    @inline(__always)
    static func corner(_ r: _RoundedRect, _ xc: Double, _ yc: Double) -> Double? {
        let inv = r.inverse
        let (U, V, W) = inv.apply(xc, yc)
        guard W > 0 else { return 0 }
        let u = U / W, v = V / W
        let cx: Double, cy: Double, rad: Double
        if u < r.x0 + r.rTL && v < r.y0 + r.rTL && r.rTL > 0 {
            (cx, cy, rad) = (r.x0 + r.rTL, r.y0 + r.rTL, r.rTL)
        } else if u > r.x1 - r.rTR && v < r.y0 + r.rTR && r.rTR > 0 {
            (cx, cy, rad) = (r.x1 - r.rTR, r.y0 + r.rTR, r.rTR)
        } else if u > r.x1 - r.rBR && v > r.y1 - r.rBR && r.rBR > 0 {
            (cx, cy, rad) = (r.x1 - r.rBR, r.y1 - r.rBR, r.rBR)
        } else if u < r.x0 + r.rBL && v > r.y1 - r.rBL && r.rBL > 0 {
            (cx, cy, rad) = (r.x0 + r.rBL, r.y1 - r.rBL, r.rBL)
        } else {
            return nil
        }
        let dx = u - cx, dy = v - cy
        let dist = (dx * dx + dy * dy).squareRoot()
        if dist == 0 { return 1 }
        // d(u,v)/d(x,y) of the homography, then the gradient of |p − c| in device space.
        let dux = (inv.m.0 - u * inv.m.6) / W, duy = (inv.m.1 - u * inv.m.7) / W
        let dvx = (inv.m.3 - v * inv.m.6) / W, dvy = (inv.m.4 - v * inv.m.7) / W
        let nu = dx / dist, nv = dy / dist
        let gx = nu * dux + nv * dvx, gy = nu * duy + nv * dvy
        let g = (gx * gx + gy * gy).squareRoot()
        guard g > 0, g.isFinite else { return 0 }
        return min(max((rad - dist) / g + 0.5, 0), 1)
    }

    /// Quantised coverage of a draw at a pixel: `round(255 · Π shapes · (1 − hole))`.
    @inline(__always)
    static func draw(_ d: _Draw, x: Int, y: Int) -> UInt32 {
        var c = 1.0
        for s in d.shapes {
            c *= at(s, x: x, y: y)
            if c == 0 { return 0 }
        }
        if let h = d.hole { c *= 1 - at(h, x: x, y: y) }
        return UInt32((c * 255).rounded())
    }

    /// `draw(d, x:, y:)` for the pixels `[x0, x1)` of row `y`, written to `out[x − x0]`.
    ///
    /// The common case — one straight-edged shape, no hole (a transformed layer quad) — runs the
    /// same expressions in the same order with the edge list pinned once per row, so the bytes
    /// are those of the per-pixel formula; everything else falls back to it.
    static func drawRow(_ d: _Draw, y: Int, x0: Int, x1: Int, into out: UnsafeMutablePointer<UInt8>) {
        if d.shapes.count == 1, d.hole == nil, d.shapes[0].rounded == nil {
            let yc = Double(y) + 0.5
            d.shapes[0].edges.withUnsafeBufferPointer { edges in
                for x in x0..<x1 {
                    let xc = Double(x) + 0.5
                    var cov = 1.0
                    for e in edges {
                        let dd = e.nx * xc + e.ny * yc + e.c + 0.5
                        if dd <= 0 { cov = 0; break }
                        if dd < 1 { cov *= dd }
                    }
                    // round(v) (half away from zero) without the libm call: v ≥ 0, so
                    // Int(v) = ⌊v⌋ and v − ⌊v⌋ is exact (Sterbenz), hence the same byte.
                    let v = cov * 255, t = Int(v)
                    out[x - x0] = UInt8(truncatingIfNeeded: t + (v - Double(t) >= 0.5 ? 1 : 0))
                }
            }
            return
        }
        for x in x0..<x1 { out[x - x0] = UInt8(draw(d, x: x, y: y)) }
    }
}
