import CFlipbookKernels

/// A path flattened once (``PathFlattening``, at a tolerance, through a transform) into closed
/// contours of 24.8 fixed-point points (``PathRasterizer``'s own `⌊256·v + ½⌋`), with the
/// polyline's bounds: a path drawn in several bands is then flattened and converted once, not
/// once per band. ``PathRasterizer/fill(_:rule:clip:into:)-(FixedPath,_,_,_)`` gives the bytes of
/// ``PathRasterizer/fill(_:rule:transform:corrections:clip:into:)`` of the path (flattening is a pure
/// function of each curve; the lines the path fill culls before converting them add nothing to
/// the clip's cells; integer addition makes the order of the edges irrelevant).
///
/// `set(_:transform:tolerance:cull:backend:)` reuses the arrays' capacity (one value kept per drawn item
/// allocates nothing once grown).
public struct FixedPath: Sendable {
    /// x₀, y₀, x₁, y₁, … of every contour, in order.
    public private(set) var points: [Int32] = []
    /// For each contour, the index (in points, i.e. pairs) one past its last point. A contour
    /// is closed by an edge from its last point back to its first.
    public private(set) var contourEnds: [Int32] = []
    /// The polyline's bounds in pixels `(minX, minY, maxX, maxY)` (before rounding).
    public private(set) var bounds = SIMD4<Double>(.infinity, .infinity, -.infinity, -.infinity)
    /// Per-pixel corrections (x, y, value) added to the accumulated winding of pixel (x, y), in
    /// units of 2⁻¹⁷ pixel, before the sweep: a stroke's self-crossings
    /// (``PathStroker/overlapCorrections(into:)``). Cleared by `set`.
    public var corrections: [SIMD3<Int32>] = []

    public init() {}

    /// A path from contours already in 24.8 fixed point (`points`, `contourEnds` as the
    /// properties hold them) whose points all lie within `bounds` (pixels; larger bounds give
    /// the same bytes, only a larger buffer). The caller's promise: text draws a line's glyphs
    /// from outlines flattened and converted once per glyph and scale, each moved by whole
    /// 1/256 px (`CGContext._drawText`).
    package init(points: [Int32], contourEnds: [Int32], bounds: SIMD4<Double>) {
        self.points = points; self.contourEnds = contourEnds; self.bounds = bounds
    }

    @inlinable public var isEmpty: Bool { contourEnds.isEmpty }

    /// Flattens `path`; false (and empty) when a point of the polyline is not finite — the path
    /// fill draws nothing then either.
    ///
    /// `cull` (device pixels) replaces curves wholly above, below or right of it by lines, as
    /// the path fill does for the rows and columns of its clip: for a caller that fills only
    /// inside `cull` (a frame, its bands) the bytes are the same, and a path mostly off screen
    /// is not flattened where it cannot be seen.
    ///
    /// `backend`: on the native one the points are converted to fixed point in bulk
    /// (`fbk_fixed_points`); on the portable one, one by one in Swift. The same points either way.
    @discardableResult
    public mutating func set(_ path: RasterPath, transform: RasterTransform = .identity,
                             tolerance: Double = PathFlattening.defaultTolerance, cull: FlattenCull = .none,
                             backend: RasterBackend = .current) -> Bool {
        _fill(native: backend.effective == .native) {
            path.flatten(transform: transform, tolerance: tolerance, cull: cull, into: &$0)
        }
    }

    /// Fills the path from an outline written by `body` (move / line / close, as a
    /// ``RasterPath`` of lines would be flattened: the same points, contours and bounds); empty
    /// when a point is not finite or nothing was written. Clears the corrections.
    mutating func _build(_ body: (inout _OutlineBuilder) -> Void) {
        _fill(native: RasterBackend.current.effective == .native) { sink in
            var b = _OutlineBuilder(sink: sink)
            sink = _Sink(points: [], ends: [])            // (the builder owns the storage meanwhile)
            body(&b)
            if b.open { b.sink.endSubpath(closed: false) }
            sink = b.sink
        }
    }

    /// Empties the path (keeping its storage) and the corrections, lets `body` write the points
    /// into a ``_Sink``, and keeps them with their bounds; false (and empty) when a point is not
    /// finite or nothing was written. What ``set(_:transform:tolerance:cull:backend:)`` and
    /// ``_build(_:)`` share. `native`: the points converted in bulk in C, else one by one.
    @discardableResult
    private mutating func _fill(native: Bool, _ body: (inout _Sink) -> Void) -> Bool {
        corrections.removeAll(keepingCapacity: true)
        var sink = _Sink(points: points, ends: contourEnds)
        points = []; contourEnds = []                     // (the sink owns the storage meanwhile)
        sink.points.removeAll(keepingCapacity: true); sink.ends.removeAll(keepingCapacity: true)
        if native {
            // Points are gathered on the stack and converted in bulk (`_Sink.flush`).
            withUnsafeTemporaryAllocation(of: RasterPoint.self, capacity: _Sink.pendingCapacity) { buf in
                sink.pending = buf.baseAddress
                body(&sink)
                sink.flush()
                sink.pending = nil
            }
        } else {
            body(&sink)
        }
        points = sink.points; contourEnds = sink.ends; bounds = sink.bounds
        if !sink.finite || !bounds.x.isFinite {
            points.removeAll(keepingCapacity: true); contourEnds.removeAll(keepingCapacity: true)
            bounds = SIMD4(.infinity, .infinity, -.infinity, -.infinity)
            return false
        }
        return true
    }

    /// An outline's moves, lines and closes into ``_Sink``, with `RasterPath.flatten`'s subpath
    /// rule (a move ends the open subpath; a close ends it closed).
    struct _OutlineBuilder: _OutlineSink {
        var sink: _Sink
        var open = false
        var start = RasterPoint(0, 0)
        mutating func move(to p: RasterPoint) {
            if open { sink.endSubpath(closed: false) }
            sink.moveTo(p); start = p; open = true
        }
        mutating func line(to p: RasterPoint) {
            if !open { sink.moveTo(start); open = true }
            sink.lineTo(p, smooth: false)
        }
        mutating func close() {
            if open { sink.endSubpath(closed: true); open = false }
        }
        mutating func lines(_ points: UnsafeBufferPointer<RasterPoint>, reversed: Bool, transform: RasterTransform?) {
            guard !points.isEmpty else { return }
            if !open { sink.moveTo(start); open = true }
            sink.addAll(points, reversed: reversed, transform: transform)
        }
    }

    struct _Sink: FlattenSink {
        var points: [Int32], ends: [Int32]
        var bounds = SIMD4<Double>(.infinity, .infinity, -.infinity, -.infinity)
        var finite = true
        /// Points not yet converted (`_fill`'s stack buffer of `pendingCapacity`: the native
        /// backend, converted in bulk by `fbk_fixed_points`), or nil: each point converted in
        /// Swift as it comes (`add`, the portable backend).
        var pending: UnsafeMutablePointer<RasterPoint>? = nil
        var pendingCount = 0
        static let pendingCapacity = 128

        init(points: [Int32], ends: [Int32]) { self.points = points; self.ends = ends }

        /// Converts the pending points (`addAll`: the conversion in C, no per-point appends).
        mutating func flush() {
            guard pendingCount > 0, let pending else { return }
            let n = pendingCount
            pendingCount = 0
            addAll(UnsafeBufferPointer(start: pending, count: n), reversed: false, transform: nil)
        }

        @inline(__always) mutating func put(_ p: RasterPoint) {
            guard let pending else { add(p); return }
            pending[pendingCount] = p
            pendingCount += 1
            if pendingCount == Self.pendingCapacity { flush() }
        }

        @inline(__always) mutating func add(_ p: RasterPoint) {
            guard p.x.isFinite && p.y.isFinite else { finite = false; return }
            bounds = SIMD4(Swift.min(bounds.x, p.x), Swift.min(bounds.y, p.y), Swift.max(bounds.z, p.x), Swift.max(bounds.w, p.y))
            points.append(Int32(truncatingIfNeeded: PathRasterizer._fixed(p.x)))
            points.append(Int32(truncatingIfNeeded: PathRasterizer._fixed(p.y)))
        }
        /// `add` of each of `src` (in reverse order when `reversed`), mapped by `transform` unless
        /// nil: the same points, bounds and finiteness, written through one buffer (the storage
        /// grown once, no per-point uniqueness and capacity checks).
        mutating func addAll(_ src: UnsafeBufferPointer<RasterPoint>, reversed: Bool, transform: RasterTransform?) {
            let n = src.count
            guard n > 0 else { return }
            if pending == nil || transform != nil {
                // portable: one by one in Swift; a transformed side: mapped into the pending
                // points (converted in bulk with them)
                for k in 0..<n {
                    let q = src[reversed ? n - 1 - k : k]
                    put(transform.map { $0.apply(q) } ?? q)
                }
                return
            }
            if pendingCount > 0 && src.baseAddress != UnsafePointer(pending) { flush() }
            let old = points.count
            points.append(contentsOf: repeatElement(0, count: 2 * n))      // (geometric growth)
            // (in C: the conversion, the bounds and the finiteness check without per-point calls;
            // a point that is not finite drops the whole path, so what is written then is moot)
            var b = bounds
            let ok = points.withUnsafeMutableBufferPointer { pb in
                withUnsafeMutableBytes(of: &b) { bp in
                    UnsafeRawPointer(src.baseAddress!).withMemoryRebound(to: Double.self, capacity: 2 * n) { xy in
                        fbk_fixed_points(xy, n, reversed ? 1 : 0, pb.baseAddress! + old,
                                         bp.baseAddress!.assumingMemoryBound(to: Double.self))
                    }
                }
            }
            bounds = b
            if ok == 0 { finite = false }
        }
        mutating func moveTo(_ p: RasterPoint) { put(p) }
        mutating func lineTo(_ p: RasterPoint, smooth: Bool) { put(p) }
        mutating func endSubpath(closed: Bool) {
            flush()
            ends.append(Int32(truncatingIfNeeded: points.count / 2))
        }
    }
}

extension PathRasterizer {
    /// Fills a ``FixedPath`` with `rule`, clipped to `clip`: the bytes of the path fill of the
    /// path it was made from (at the same tolerance and transform).
    @inlinable
    public func fill<S: CoverageSink>(_ path: FixedPath, rule: FillRule = .nonZero, clip: RasterClip, into sink: inout S) {
        let b = path.bounds
        guard !path.isEmpty, b.x.isFinite, b.y.isFinite, b.z.isFinite, b.w.isFinite,
              _prepare((b.x, b.y, b.z, b.w), clip) else { return }
        let cells = _cells
        // (Edges wholly above or below the buffer's rows — most edges of a path met by several
        // bands — are skipped before any walk: inside `fbk_add_contours`, or by `addLine`'s
        // inlined test.)
        path.points.withUnsafeBufferPointer { p in
            path.contourEnds.withUnsafeBufferPointer { ends in
                if let native = cells.native {
                    fbk_add_contours(native, p.baseAddress, ends.baseAddress, ends.count)
                    return
                }
                var start = 0
                for e in ends {
                    let end = Int(e)
                    if end > start {
                        let sx = Int(p[2 * start]), sy = Int(p[2 * start + 1])
                        var cx = sx, cy = sy
                        var i = start + 1
                        while i < end {
                            let x = Int(p[2 * i]), y = Int(p[2 * i + 1])
                            cells.addLine(cx, cy, x, y)
                            cx = x; cy = y; i += 1
                        }
                        cells.addLine(cx, cy, sx, sy)
                    }
                    start = end
                }
            }
        }
        if !path.corrections.isEmpty { cells.addCorrections(path.corrections) }
        cells.sweep(rule: rule, backend: (backend ?? RasterBackend.current).effective, into: &sink)
    }
}

extension _Cells {
    /// Adds each correction's value to its pixel's running sum only: `+v` at the pixel's cell,
    /// `−v` at the next (pixels outside the buffer are left alone: one left of the clip would
    /// fold `+v` and `−v` into the same first cell).
    @usableFromInline
    func addCorrections(_ list: [SIMD3<Int32>]) {
        for e in list {
            let row = Int(e.y) - oy, c = Int(e.x) - ox
            guard row >= 0, row < height, c >= 0, c < width else { continue }
            let base = row * stride
            acc[base + c] &+= e.z
            acc[base + c + 1] &-= e.z
            let c1 = c + 1
            bits[row * words + (c >> 9)] |= 1 &<< UInt64((c >> 3) & 63)
            bits[row * words + (c1 >> 9)] |= 1 &<< UInt64((c1 >> 3) & 63)
        }
    }
}
