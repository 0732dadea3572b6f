import CFlipbookKernels

/// The rows of a closed polygon that only two vertical edges cross — the straight middle of an
/// axis-aligned (rounded) rectangle — whose coverage ``PathRasterizer`` can write without
/// accumulating cells: the same bytes, computed per row in O(1).
///
/// In such a row (every sub-pixel row of it inside both edges' y-ranges, no other non-horizontal
/// edge reaching into it) the accumulation of ``PathRasterizer`` gives, for the left edge at
/// fixed-point `XL` and the right one at `XR` (24.8, opposite directions), the running sums
///
///     column ⌊XL/256⌋:             512·(256 − fxL)        (fxL = XL mod 256)
///     columns strictly between:     2^17                   (a whole pixel)
///     column ⌊XR/256⌋:             512·fxR
///     both in one column:           512·(XR − XL)
///
/// and 0 elsewhere, for either fill rule — exactly what ``emit(clip:into:)`` sends (as constant
/// spans; a coverage byte depends only on the running sum, see ``CoverageAccumulation``). The
/// row range is found from the polygon's fixed-point vertices (`⌊256·v + ½⌋`, the rasterizer's
/// own rounding), so it is exact whatever the coordinates.
public struct StraightRows: Sendable, Hashable {
    /// Pixel rows `y0 ..< y1`.
    public var y0: Int, y1: Int
    /// The two vertical edges, 24.8 fixed point, `left < right`.
    public var left: Int, right: Int

    /// The polygon's bounds in pixels `(minX, minY, maxX, maxY)` (set by ``init(polygon:)``; nil
    /// when made by hand): the rasterizer then need not scan the path for them.
    public var bounds: SIMD4<Double>?

    public init(y0: Int, y1: Int, left: Int, right: Int, bounds: SIMD4<Double>? = nil) {
        self.y0 = y0; self.y1 = y1; self.left = left; self.right = right; self.bounds = bounds
    }

    /// The straight rows of the closed polygon `points` (device pixels; the last point joins the
    /// first), or nil when it has none: no pair of opposite vertical edges spans a whole pixel
    /// row free of other edges.
    public init?(polygon points: [RasterPoint]) {
        let n = points.count
        guard n >= 4 else { return nil }
        var b = SIMD4<Double>(.infinity, .infinity, -.infinity, -.infinity)
        for p in points {
            guard p.x.isFinite && p.y.isFinite else { return nil }
            b = SIMD4(Swift.min(b.x, p.x), Swift.min(b.y, p.y), Swift.max(b.z, p.x), Swift.max(b.w, p.y))
        }
        guard b.x.isFinite, b.y.isFinite, b.z.isFinite, b.w.isFinite else { return nil }   // (NaN fails too)
        guard let s = withUnsafeTemporaryAllocation(of: (Int, Int).self, capacity: n, { fx -> StraightRows? in
            for i in 0..<n { fx[i] = (PathRasterizer._fixed(points[i].x), PathRasterizer._fixed(points[i].y)) }
            return Self.find(UnsafeBufferPointer(fx))
        }) else { return nil }
        self = s
        bounds = b
    }

    static func find(_ fx: UnsafeBufferPointer<(Int, Int)>) -> StraightRows? {
        let n = fx.count
        // Fixed-point vertices (as the rasterizer rounds them), the two candidate edges.
        var lX = Int.max, lA = 0, lB = 0, rX = Int.min, rA = 0, rB = 0
        var px = fx[n - 1].0, py = fx[n - 1].1
        for (x, y) in fx {
            if x == px && y != py {
                let len = abs(y - py)
                if x < lX || (x == lX && len > abs(lB - lA)) { lX = x; lA = py; lB = y }
                if x > rX || (x == rX && len > abs(rB - rA)) { rX = x; rA = py; rB = y }
            }
            px = x; py = y
        }
        guard lX < rX, (lB > lA) != (rB > rA) else { return nil }   // two edges, opposite directions
        var lo = max(min(lA, lB), min(rA, rB)), hi = min(max(lA, lB), max(rA, rB))
        guard hi - lo >= 256 else { return nil }
        // Every other non-horizontal edge must stay out of (lo, hi): shrink towards its side.
        px = fx[n - 1].0; py = fx[n - 1].1
        for (x, y) in fx {
            let isLeft = x == lX && px == lX && ((py == lA && y == lB) || (py == lB && y == lA))
            let isRight = x == rX && px == rX && ((py == rA && y == rB) || (py == rB && y == rA))
            if y != py && !(isLeft || isRight) {
                let e0 = min(y, py), e1 = max(y, py)
                if e1 > lo && e0 < hi {
                    if e0 + e1 < lo + hi { lo = e1 } else { hi = e0 }
                    if hi <= lo { return nil }
                }
            }
            px = x; py = y
        }
        // (An edge equal to the left or right one but elsewhere cannot exist in a simple polygon;
        // a duplicate would be skipped above and double the winding: rejected by the rasterizer
        // tests that compare these rows with the full sweep.)
        let r0 = -((-lo) >> 8), r1 = hi >> 8          // ⌈lo/256⌉, ⌊hi/256⌋
        guard r1 > r0 else { return nil }
        return StraightRows(y0: r0, y1: r1, left: lX, right: rX)
    }

    /// The coverage byte of a running sum `v` (0...2^17).
    @inlinable @inline(__always)
    static func byte(_ v: Int) -> UInt8 { UInt8(truncatingIfNeeded: (v &* 255 &+ (1 << 16)) >> 17) }

    /// Sends the coverage of rows `y0 ..< y1` ∩ `clip` to `sink`, the same bytes as
    /// ``PathRasterizer/fill(_:rule:transform:corrections:clip:into:)`` of the polygon.
    @inlinable
    public func emit<S: CoverageSink>(clip: RasterClip, into sink: inout S) {
        let ya = Swift.max(y0, clip.y0), yb = Swift.min(y1, clip.y1)
        guard ya < yb else { return }
        let cL = left >> 8, cR = right >> 8
        let fL = left - (cL << 8), fR = right - (cR << 8)
        var firstX = cL, firstByte: UInt8 = 0, lastX = cR, lastByte: UInt8 = 0
        var solid0 = cL, solid1 = cL                    // the 255 run [solid0, solid1)
        if cL == cR {
            firstByte = Self.byte(512 * (fR - fL)); lastByte = 0
        } else {
            firstByte = Self.byte(512 * (256 - fL))
            lastByte = Self.byte(512 * fR)
            solid0 = cL + 1; solid1 = cR
            if firstByte == 255 { solid0 = cL; firstByte = 0 }
        }
        // Clip the three pieces to the columns.
        let x0 = clip.x0, x1 = clip.x1
        if firstX < x0 || firstX >= x1 { firstByte = 0 }
        if lastX < x0 || lastX >= x1 { lastByte = 0 }
        solid0 = Swift.max(solid0, x0); solid1 = Swift.min(solid1, x1)
        if firstByte == 0 { firstX = Int.min }
        if lastByte == 0 { lastX = Int.min }
        if S.prefersDenseRows {
            // Every row is the same: built once, sent whole (the pieces are adjacent, so
            // [s, e) holds no other byte; a sink painting rows then needs no per-row fill).
            var s = Int.max, e = Int.min
            if firstX != Int.min { s = firstX; e = firstX + 1 }
            if solid1 > solid0 { s = Swift.min(s, solid0); e = Swift.max(e, solid1) }
            if lastX != Int.min { s = Swift.min(s, lastX); e = Swift.max(e, lastX + 1) }
            guard s < e else { return }
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: e - s) { buf in
                buf.initialize(repeating: 255)
                if firstX != Int.min { buf[firstX - s] = firstByte }
                if lastX != Int.min { buf[lastX - s] = lastByte }
                // up to 64 rows a call, all reading the one row (stride 0)
                withUnsafeTemporaryAllocation(of: Int.self, capacity: 128) { sc in
                    let starts = sc.baseAddress!, counts = sc.baseAddress! + 64
                    for i in 0..<64 { starts[i] = 0; counts[i] = e - s }
                    var y = ya
                    while y < yb {
                        let k = Swift.min(64, yb - y)
                        sink.denseRows(y: y, count: k, x: s, starts: starts, counts: counts,
                                       coverage: UnsafePointer(buf.baseAddress!), stride: 0)
                        y += k
                    }
                }
            }
            return
        }
        for y in ya..<yb {
            if firstX != Int.min { sink.constantSpan(y: y, x: firstX, count: 1, coverage: firstByte) }
            if solid1 > solid0 { sink.constantSpan(y: y, x: solid0, count: solid1 - solid0, coverage: 255) }
            if lastX != Int.min { sink.constantSpan(y: y, x: lastX, count: 1, coverage: lastByte) }
        }
    }
}

extension PathRasterizer {
    /// ``fill(_:rule:transform:corrections:clip:into:)`` of a device-space polygon path whose
    /// ``StraightRows`` are `straight` (computed from the same points): one pass over the path in
    /// which its vertical lines skip those rows, and a sweep that writes them directly
    /// (``StraightRows/emit(clip:into:)``). Same bytes as the plain fill.
    @inlinable
    public func fill<S: CoverageSink>(_ path: RasterPath, rule: FillRule = .nonZero, clip: RasterClip,
                                      straight: StraightRows?, into sink: inout S) {
        guard let s = straight, s.y0 < clip.y1, s.y1 > clip.y0 else {
            fill(path, rule: rule, clip: clip, into: &sink)
            return
        }
        if s.y0 <= clip.y0 && clip.y1 <= s.y1 {          // only straight rows: no cells at all
            // (inside the path's bounds, so the rasterizer's buffer would not narrow the columns)
            s.emit(clip: clip, into: &sink)
            return
        }
        let bounds = s.bounds.map { ($0.x, $0.y, $0.z, $0.w) } ?? Self._deviceBounds(path, .identity)
        guard let b = bounds, _prepare(b, clip) else { return }
        var cells = _cells
        cells.setSkip(Swift.max(s.y0, cells.oy), Swift.min(s.y1, cells.oy + cells.height))
        _accumulate(path, .identity, cells)
        cells.sweep(rule: rule, backend: (backend ?? RasterBackend.current).effective, straight: s, into: &sink)
    }
}

/// A closed polygon (device pixels) converted once to the rasterizer's 24.8 fixed point
/// (`⌊256·v + ½⌋`, ``PathRasterizer``'s own rounding) with its bounds: a shape drawn in several
/// bands (the compositor's layer outlines) is not flattened and converted again per band.
/// ``PathRasterizer/fill(_:rule:clip:straight:into:)-(FixedPolygon,_,_,_,_)`` gives the bytes of
/// filling ``RasterPath/init(polygon:)`` of the same points.
public struct FixedPolygon: Sendable {
    /// x₀, y₀, x₁, y₁, … (24.8 fixed point, within ±2^29).
    public let points: [Int32]
    /// The points' bounds in pixels `(minX, minY, maxX, maxY)`.
    public let bounds: SIMD4<Double>

    /// Nil for fewer than 3 points or a non-finite one.
    public init?(polygon pts: [RasterPoint]) {
        guard pts.count >= 3 else { return nil }
        var b = SIMD4<Double>(.infinity, .infinity, -.infinity, -.infinity)
        for p in pts {
            guard p.x.isFinite && p.y.isFinite else { return nil }
            b = SIMD4(Swift.min(b.x, p.x), Swift.min(b.y, p.y), Swift.max(b.z, p.x), Swift.max(b.w, p.y))
        }
        points = [Int32](unsafeUninitializedCapacity: 2 * pts.count) { buf, count in
            for (i, p) in pts.enumerated() {
                buf[2 * i] = Int32(truncatingIfNeeded: PathRasterizer._fixed(p.x))
                buf[2 * i + 1] = Int32(truncatingIfNeeded: PathRasterizer._fixed(p.y))
            }
            count = 2 * pts.count
        }
        bounds = b
    }
}

extension StraightRows {
    /// ``init(polygon:)`` from the polygon's fixed-point points (the same rows).
    public init?(_ poly: FixedPolygon) {
        let n = poly.points.count / 2
        guard n >= 4 else { return nil }
        guard let s = withUnsafeTemporaryAllocation(of: (Int, Int).self, capacity: n, { fx -> StraightRows? in
            poly.points.withUnsafeBufferPointer { p in
                for i in 0..<n { fx[i] = (Int(p[2 * i]), Int(p[2 * i + 1])) }
            }
            return Self.find(UnsafeBufferPointer(fx))
        }) else { return nil }
        self = s
        bounds = poly.bounds
    }
}

extension PathRasterizer {
    /// ``fill(_:rule:clip:straight:into:)`` of `RasterPath(polygon:)` of the points `poly` was
    /// made from, with `straight` from the same points (or nil): the same bytes. The edges go
    /// to the cells as they are (no flattening, no conversion); edges outside the clip's rows
    /// or right of it add nothing there, as in the path fill, whose culling only saves work.
    @inlinable
    public func fill<S: CoverageSink>(_ poly: FixedPolygon, rule: FillRule = .nonZero, clip: RasterClip,
                                      straight: StraightRows?, into sink: inout S) {
        withUnsafePointer(to: poly) { fill(polygonAt: $0, rule: rule, clip: clip, straight: straight, into: &sink) }
    }

    /// ``fill(_:rule:clip:straight:into:)-(FixedPolygon,_,_,_,_)`` of the polygon at `poly`,
    /// read in place: a caller holding many polygons (the compositor's draws) does not copy
    /// each value out, which retains and releases its points array per fill.
    @inlinable @inline(__always)
    public func fill<S: CoverageSink>(polygonAt poly: UnsafePointer<FixedPolygon>, rule: FillRule = .nonZero,
                                      clip: RasterClip, straight: StraightRows?, into sink: inout S) {
        var skip: StraightRows? = nil
        if let s = straight, s.y0 < clip.y1, s.y1 > clip.y0 {
            if s.y0 <= clip.y0 && clip.y1 <= s.y1 {      // only straight rows: no cells at all
                s.emit(clip: clip, into: &sink)
                return
            }
            skip = s
        }
        poly.pointer(to: \.points)!.pointee.withUnsafeBufferPointer { p in
            _fill(fixedPoints: p, bounds: poly.pointer(to: \.bounds)!.pointee, rule: rule, clip: clip, skip: skip, into: &sink)
        }
    }

    /// ``fill(polygonAt:rule:clip:straight:into:)`` with no straight rows, of a polygon given
    /// as its fixed-point points (`FixedPolygon.points`, at least 3 points) and their bounds
    /// (`FixedPolygon.bounds`): the same bytes. For callers that keep many small polygons in
    /// one flat array (the compositor's particle batches) instead of an array each.
    @inlinable @inline(__always)
    public func fill<S: CoverageSink>(fixedPoints p: UnsafeBufferPointer<Int32>, bounds: SIMD4<Double>,
                                      rule: FillRule = .nonZero, clip: RasterClip, into sink: inout S) {
        _fill(fixedPoints: p, bounds: bounds, rule: rule, clip: clip, skip: nil, into: &sink)
    }

    /// The polygon fills' common part: cells from the points' edges, swept (rows of `skip`
    /// excepted, which the caller's straight rows paint).
    @inlinable @inline(__always)
    func _fill<S: CoverageSink>(fixedPoints p: UnsafeBufferPointer<Int32>, bounds b: SIMD4<Double>, rule: FillRule,
                                clip: RasterClip, skip: StraightRows?, into sink: inout S) {
        guard _prepare((b.x, b.y, b.z, b.w), clip) else { return }
        var cells = _cells
        if let s = skip {
            cells.setSkip(Swift.max(s.y0, cells.oy), Swift.min(s.y1, cells.oy + cells.height))
        }
        let n = p.count / 2
        if let native = cells.native {
            fbk_add_polygon(native, p.baseAddress, n)
        } else {
            var px = Int(p[2 * n - 2]), py = Int(p[2 * n - 1])
            for i in 0..<n {
                let x = Int(p[2 * i]), y = Int(p[2 * i + 1])
                cells.addLine(px, py, x, y)
                px = x; py = y
            }
        }
        cells.sweep(rule: rule, backend: (backend ?? RasterBackend.current).effective, straight: skip, into: &sink)
    }
}
