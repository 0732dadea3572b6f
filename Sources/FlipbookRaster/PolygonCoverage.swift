/// Analytic area coverage of a polygon, one row at a time.
///
/// For every pixel the coverage is the exact area of the pixel square inside the polygon
/// (signed-area accumulation: each edge deposits its area contribution into a row
/// accumulator, and a running sum turns it into coverage), converted to a byte by
/// `round(255 · min(1, |area|))`. Convex polygons (a transformed quad, a quad clipped by a
/// rectangle) are exact; for other shapes the rule is non-zero winding with overlaps clamped.
///
/// Row-band friendly: ``rasterizeRow(_:coverage:scratch:)`` reads only the immutable edge list,
/// so any set of rows can be rasterized in any order, on any thread, with byte-identical results.
public struct PolygonCoverage: Sendable {
    /// One edge, oriented downwards (`y0 < y1`); `direction` is +1 if the polygon edge pointed
    /// down, −1 if up. Coordinates are relative to ``originX``.
    @usableFromInline struct _Edge: Sendable {
        var x0, y0, x1, y1, direction: Double
    }

    @usableFromInline let _edges: [_Edge]
    /// The first column the accumulator covers (clip-limited floor of the smallest x).
    public let originX: Int
    /// Pixel bounds of the polygon, clipped: columns `[minX, maxX)`, rows `[minY, maxY)`.
    public let minX: Int, maxX: Int, minY: Int, maxY: Int

    /// Builds the edge list of the closed polygon `points` (canvas pixel coordinates; pixel
    /// (x, y) is the square [x, x+1) × [y, y+1)), clipped to the rectangle
    /// `[clipX0, clipX1) × [clipY0, clipY1)` (usually the canvas or a band-independent clip).
    /// Returns `nil` when the polygon is empty, degenerate, not finite, or outside the clip.
    public init?(points: [(x: Double, y: Double)], clipX0: Int, clipY0: Int, clipX1: Int, clipY1: Int) {
        guard points.count >= 3, points.allSatisfy({ $0.x.isFinite && $0.y.isFinite }) else { return nil }
        let xs = points.map(\.x), ys = points.map(\.y)
        let bx0 = max(clipX0, pixelFloor(xs.min()!)), bx1 = min(clipX1, pixelCeil(xs.max()!))
        let by0 = max(clipY0, pixelFloor(ys.min()!)), by1 = min(clipY1, pixelCeil(ys.max()!))
        guard bx0 < bx1, by0 < by1 else { return nil }
        let cx0 = Double(bx0), cx1 = Double(bx1)
        var edges: [_Edge] = []
        for i in 0..<points.count {
            let p = points[i], q = points[(i + 1) % points.count]
            // Split at the clip columns so clamping x moves whole sub-edges onto the clip line
            // (a vertical edge there), which keeps the area inside the clip exact.
            var ts: [Double] = [0, 1]
            for cx in [cx0, cx1] where (p.x - cx) * (q.x - cx) < 0 { ts.append((cx - p.x) / (q.x - p.x)) }
            ts.sort()
            for k in 0..<(ts.count - 1) {
                let (ta, tb) = (ts[k], ts[k + 1])
                let ax = min(max(p.x + (q.x - p.x) * ta, cx0), cx1) - cx0, ay = p.y + (q.y - p.y) * ta
                let bx = min(max(p.x + (q.x - p.x) * tb, cx0), cx1) - cx0, by = p.y + (q.y - p.y) * tb
                if ay == by { continue }
                edges.append(ay < by ? _Edge(x0: ax, y0: ay, x1: bx, y1: by, direction: 1)
                                     : _Edge(x0: bx, y0: by, x1: ax, y1: ay, direction: -1))
            }
        }
        guard !edges.isEmpty else { return nil }
        _edges = edges
        originX = bx0
        minX = bx0; maxX = bx1; minY = by0; maxY = by1
    }

    /// Computes the coverage of row `y`.
    ///
    /// On return `coverage[i]` is the coverage byte of pixel `span.x0 + i` for `i` in
    /// `0..<span.count`. `coverage` and `scratch` are resized as needed and can be reused
    /// across rows (no allocation after the first row). Returns `nil` when nothing is covered.
    public func rasterizeRow(_ y: Int, coverage: inout [UInt8], scratch: inout [Double]) -> CoverageSpan? {
        guard y >= minY, y < maxY else { return nil }
        let width = maxX - minX
        if scratch.count < width + 2 { scratch = [Double](repeating: 0, count: width + 2) }
        let rowTop = Double(y), rowBottom = rowTop + 1
        let touched: Bool = scratch.withUnsafeMutableBufferPointer { acc in
            for i in 0..<(width + 2) { acc[i] = 0 }
            var any = false
            for e in _edges {
                let top = max(e.y0, rowTop), bottom = min(e.y1, rowBottom)
                guard bottom > top else { continue }
                let slope = (e.x1 - e.x0) / (e.y1 - e.y0)
                let xa = top == e.y0 ? e.x0 : e.x0 + (top - e.y0) * slope
                let xb = bottom == e.y1 ? e.x1 : e.x0 + (bottom - e.y0) * slope
                Self._accumulate(acc.baseAddress!, xa, xb, (bottom - top) * e.direction)
                any = true
            }
            return any
        }
        guard touched else { return nil }
        if coverage.count < width { coverage = [UInt8](repeating: 0, count: width) }
        var first = -1, last = -1, fullStart = -1, fullEnd = -1
        scratch.withUnsafeBufferPointer { acc in
            coverage.withUnsafeMutableBufferPointer { out in
                var sum = 0.0
                for i in 0..<width {
                    sum += acc[i]
                    let c = UInt8(min(1, abs(sum)) * 255 + 0.5)   // round(255 · area)
                    out[i] = c
                    if c != 0 { if first < 0 { first = i }; last = i }
                    if c == 255 {
                        if fullStart < 0 { fullStart = i; fullEnd = i + 1 } else if fullEnd == i { fullEnd = i + 1 }
                    }
                }
                if first > 0 { for i in 0..<(last - first + 1) { out[i] = out[first + i] } }
            }
        }
        guard first >= 0 else { return nil }
        let opaque = fullStart >= 0 ? (minX + fullStart)..<(minX + fullEnd) : (minX + first)..<(minX + first)
        return CoverageSpan(x0: minX + first, x1: minX + last + 1, opaque: opaque)
    }

    /// Deposits the signed area of the segment (xa, top) → (xb, bottom) of one row into `acc`
    /// (cell i = column originX + i), with `d = (bottom − top) · direction`. A running sum of
    /// `acc` is then each pixel's covered area (trapezoid to the segment's right).
    @usableFromInline
    static func _accumulate(_ acc: UnsafeMutablePointer<Double>, _ xa: Double, _ xb: Double, _ d: Double) {
        let l = min(xa, xb), r = max(xa, xb)
        let lf = l.rounded(.down), li = Int(lf)
        let rc = r.rounded(.up), ri = Int(rc)
        if ri <= li + 1 {
            // Inside one column: the column gets the part right of the segment's mean x.
            let xmf = 0.5 * (xa + xb) - lf
            acc[li] += d - d * xmf
            acc[li + 1] += d * xmf
            return
        }
        let s = 1 / (r - l)
        let x0f = l - lf
        let a0 = 0.5 * s * (1 - x0f) * (1 - x0f)     // triangle in the first column
        let x1f = r - rc + 1
        let am = 0.5 * s * x1f * x1f                  // triangle in the last column
        acc[li] += d * a0
        if ri == li + 2 {
            acc[li + 1] += d * (1 - a0 - am)
        } else {
            let a1 = s * (1.5 - x0f)
            acc[li + 1] += d * (a1 - a0)
            if li + 2 < ri - 1 { for xi in (li + 2)..<(ri - 1) { acc[xi] += d * s } }
            let a2 = a1 + Double(ri - li - 3) * s
            acc[ri - 1] += d * (1 - a2 - am)
        }
        acc[ri] += d * am
    }
}

/// The covered part of one row: pixels `[x0, x1)` have coverage (the bytes start at `x0`);
/// `opaque` is a run inside it where coverage is exactly 255 (empty if none), which the
/// compositor can draw without a mask.
public struct CoverageSpan: Sendable, Hashable {
    public var x0: Int
    public var x1: Int
    public var opaque: Range<Int>
    public var count: Int { x1 - x0 }
    public init(x0: Int, x1: Int, opaque: Range<Int>) { self.x0 = x0; self.x1 = x1; self.opaque = opaque }
}
