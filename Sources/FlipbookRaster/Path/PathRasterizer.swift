import CFlipbookKernels
import FlipbookPixels

/// A clip rectangle in whole pixels: columns `x0..<x1`, rows `y0..<y1`. The compositor passes
/// one band of rows × the canvas columns (or a tighter clip); see ``PathRasterizer``.
public struct RasterClip: Sendable, Hashable {
    public var x0, y0, x1, y1: Int
    public init(x0: Int, y0: Int, x1: Int, y1: Int) { self.x0 = x0; self.y0 = y0; self.x1 = x1; self.y1 = y1 }
    public init(width: Int, height: Int) { self.init(x0: 0, y0: 0, x1: width, y1: height) }
    public var isEmpty: Bool { x1 <= x0 || y1 <= y0 }
}

/// Where the rasterizer's output goes: one row at a time (rows in increasing y), spans in
/// increasing x, never overlapping. Pixels not mentioned have coverage 0.
public protocol CoverageSink {
    /// Pixels `x ..< x + coverage.count` of row `y` have the given coverage bytes (0...255;
    /// the first and last are never 0, inner ones may be). The buffer is only valid during the
    /// call.
    mutating func coverageSpan(y: Int, x: Int, coverage: UnsafeBufferPointer<UInt8>)
    /// Pixels `x ..< x + count` of row `y` all have coverage `coverage` (1...255). Interior runs
    /// of a shape come here with `coverage == 255`: a painter's opaque fast path.
    mutating func constantSpan(y: Int, x: Int, count: Int, coverage: UInt8)
    /// Whether the sink takes each row whole (``denseRow(y:x:coverage:)``) rather than as
    /// spans: a sink that paints a row with one call (a small layer's row) gets it without
    /// gathering spans, and the sweep skips finding them. Default `false`.
    static var prefersDenseRows: Bool { get }
    /// Pixels `x ..< x + coverage.count` of row `y` have the given coverage bytes, and the
    /// row's other pixels have coverage 0 (the first and last byte are never 0; inner ones may
    /// be 0 or 255). Sent instead of a row's spans when ``prefersDenseRows``; the default
    /// passes it on as a ``coverageSpan(y:x:coverage:)``.
    mutating func denseRow(y: Int, x: Int, coverage: UnsafeBufferPointer<UInt8>)
    /// Rows `y ..< y + count` whole, at once, when ``prefersDenseRows``: row `i` is
    /// ``denseRow(y:x:coverage:)`` of `y + i`, `x + starts[i]` and the `counts[i]` bytes at
    /// `coverage + i·stride + starts[i]` (`counts[i] == 0`: the row has no coverage). The
    /// default sends each row to `denseRow`; a sink that can paint several rows in one call
    /// (the compositor's image layers) takes them here. The buffers are valid during the call.
    mutating func denseRows(y: Int, count: Int, x: Int, starts: UnsafePointer<Int>, counts: UnsafePointer<Int>,
                            coverage: UnsafePointer<UInt8>, stride: Int)
    /// Where a sink that paints one colour source-over through the coverage paints it
    /// (``SolidColorSink``, the compositor's solid fills): with it, on the native backend with
    /// AVX-512, the sweep paints each run of cells as it accumulates it and a shape's interior
    /// without a coverage mask, and calls neither `denseRows` nor the span methods (but for the
    /// rows of ``StraightRows``). Default nil.
    var solidTarget: SolidTarget? { get }
}

extension CoverageSink {
    @inlinable public static var prefersDenseRows: Bool { false }
    @inlinable public var solidTarget: SolidTarget? { nil }
    @inlinable public mutating func denseRow(y: Int, x: Int, coverage: UnsafeBufferPointer<UInt8>) {
        coverageSpan(y: y, x: x, coverage: coverage)
    }
    @inlinable public mutating func denseRows(y: Int, count: Int, x: Int, starts: UnsafePointer<Int>,
                                              counts: UnsafePointer<Int>, coverage: UnsafePointer<UInt8>, stride: Int) {
        for i in 0..<count where counts[i] > 0 {
            denseRow(y: y + i, x: x + starts[i], coverage: UnsafeBufferPointer(start: coverage + i * stride + starts[i], count: counts[i]))
        }
    }
}

/// The exact-area path rasterizer: a path (lines, quadratic and cubic Béziers) → coverage
/// spans, for non-zero and even-odd fills, clipped to a rectangle.
///
/// ## How it works (the font-rs / stb_truetype / FreeType "smooth" family)
///
/// 1. **Flatten** every curve to a polyline within ``tolerance`` device pixels
///    (``PathFlattening``), after the transform.
/// 2. **Fixed point.** Every polyline point is rounded to 1/256 px (24.8 fixed point:
///    `X = ⌊256·x + ½⌋`), once, from the point alone.
/// 3. **Accumulate** each line into a cell buffer (one `Int32` per pixel of the shape's bounding
///    box ∩ the clip). A line is cut at every pixel row and column boundary it crosses (the
///    walk of `CellWalk.swift`). For a piece inside one cell that goes down by `dy` sub-pixel rows (1...256;
///    negative if the line goes up) between the sub-pixel x fractions `fx₀, fx₁` (0...256) of
///    that cell:
///
///        acc[c]   += dy · (512 − (fx₀ + fx₁))     — the part of the cell right of the piece
///        acc[c+1] += dy · (fx₀ + fx₁)             — the rest, so every cell right of c gets dy·512
///
///    One pixel of area is 256 · 512 = 2^17. After all lines, the running (prefix) sum of a row
///    of cells is ∫ winding over each pixel, in units of 2^-17 pixel: the signed area of the
///    pixel covered by the shape, counted with winding.
/// 4. **Sweep**: the prefix sum → `|·|` or fold → clamp → byte (``CoverageAccumulation``, SIMD).
///    A bitmap with one bit per 8 cells records which cells were written; the sweep visits only
///    those chunks (zeroing them as it reads, so the buffer is all-zero between shapes), and the
///    runs between them have the constant coverage of the running sum: they come out as
///    ``CoverageSink/constantSpan(y:x:count:coverage:)`` (255 = solid interior), costing nothing
///    per pixel. A stroke across a 300×300 box touches ~3 % of the cells; its cost follows.
///
/// ## Clipping, and why bands give identical bytes
///
/// The buffer covers only `bbox ∩ clip`. A line is cut to the clip's rows, but every cut
/// position — the x where the line crosses a row boundary, `X(y) = x₀ + ⌊(x₁ − x₀)(y − y₀) /
/// (y₁ − y₀)⌋`, and the y where it crosses a column boundary — is computed **from the line's
/// original fixed-point end points**, in exact integer arithmetic. A band boundary is just one
/// of the row boundaries that are cut anyway, so a row's pieces are the same integers whichever
/// band or clip contains the row (the walk's tie rules: `CellWalk.swift`). Columns left of the clip cannot be
/// stored, but everything they deposit only matters through the running sum, so they are folded
/// into the clip's first cell (`acc[0] += dy·512`): the prefix sums from that cell on are the same
/// integers. Columns right of the clip are dropped (they never affect cells to their left).
/// Integer addition is associative, so the order in which lines arrive does not matter either.
/// Hence: **any pixel's coverage byte is bit-identical for any clip or band containing it**
/// (tested: random paths and grid polygons whole vs bands of 1, 2, 3, 7 and 64 rows, and random
/// column clips, on both backends).
///
/// Coordinates are clamped to ±2^21 px (exact only inside that range). Paths with a non-finite
/// point are not drawn.
///
/// A rasterizer owns its buffers and reuses them (no allocation per shape once grown to the
/// largest bounding box it has seen); it is not thread-safe: use one per thread.
public final class PathRasterizer {
    /// Cells allocated past the last row of the cell buffer (always 0): room for the lane walk's
    /// 16-byte adds (`cell_walk_avx512.c`).
    static let laneSlack = 8
    /// Sub-pixel resolution: 8 bits (1/256 px), FreeType's and the usual choice.
    public static let subpixelBits = 8
    /// The largest coordinate magnitude, in pixels (points beyond are clamped).
    public static let coordinateLimit: Double = 2_097_152

    /// Flattening tolerance in device pixels (``PathFlattening/defaultTolerance``, 0.05).
    @exclusivity(unchecked) public var tolerance: Double = PathFlattening.defaultTolerance
    /// The kernel implementation; nil = ``RasterBackend/current`` at each fill.
    @exclusivity(unchecked) public var backend: RasterBackend? = nil

    // Unchecked exclusivity: a rasterizer is used by one thread at a time (documented above),
    // and these are read and written once or more per shape per band — the dynamic checks
    // (`swift_beginAccess`) were ~2 % of W6b.
    @exclusivity(unchecked) @usableFromInline var _acc: UnsafeMutablePointer<Int32>
    @exclusivity(unchecked) @usableFromInline var _accCapacity: Int
    @exclusivity(unchecked) @usableFromInline var _bits: UnsafeMutablePointer<UInt64>
    @exclusivity(unchecked) @usableFromInline var _bitsCapacity: Int
    @exclusivity(unchecked) @usableFromInline var _cov: UnsafeMutablePointer<UInt8>
    @exclusivity(unchecked) @usableFromInline var _covCapacity: Int
    /// The C line walk's view of the current shape's buffer (`_Cells.native`).
    @usableFromInline let _native: UnsafeMutablePointer<fbk_cells>

    /// The current shape's cells (set by `_prepare`). A value copied into locals for the hot
    /// loops: class properties would pay a dynamic exclusivity check on every access.
    @exclusivity(unchecked) @usableFromInline var _cells = _Cells()

    public init() {
        _accCapacity = 4096
        _acc = .allocate(capacity: _accCapacity); _acc.initialize(repeating: 0, count: _accCapacity)
        _bitsCapacity = 256
        _bits = .allocate(capacity: _bitsCapacity); _bits.initialize(repeating: 0, count: _bitsCapacity)
        _covCapacity = 1024
        _cov = .allocate(capacity: _covCapacity); _cov.initialize(repeating: 0, count: _covCapacity)
        _native = .allocate(capacity: 1); _native.initialize(to: fbk_cells())
    }

    deinit {
        _acc.deallocate(); _bits.deallocate(); _cov.deallocate(); _native.deallocate()
    }

    /// Fills `path` (through `transform`) with `rule`, clipped to `clip`, and hands the coverage
    /// to `sink` row by row. Every subpath is closed implicitly. `corrections` are added to the
    /// accumulated winding of their pixels before the sweep (a stroke's self-crossings:
    /// ``PathStroker/overlapCorrections(into:)``, ``FixedPath/corrections``).
    @inlinable
    public func fill<S: CoverageSink>(_ path: RasterPath, rule: FillRule = .nonZero,
                                      transform: RasterTransform = .identity, corrections: [SIMD3<Int32>] = [],
                                      clip: RasterClip, into sink: inout S) {
        guard let b = Self._deviceBounds(path, transform), _prepare(b, clip) else { return }
        let cells = _cells
        _accumulate(path, transform, cells)
        if !corrections.isEmpty { cells.addCorrections(corrections) }
        cells.sweep(rule: rule, backend: (backend ?? RasterBackend.current).effective, into: &sink)
    }

    /// ``fill(_:rule:transform:corrections:clip:into:)`` of a device-space path (no transform) whose points
    /// all lie in `bounds` = (minX, minY, maxX, maxY) and are finite — the caller's promise (a
    /// path drawn in many bands computes them once instead of the rasterizer scanning the points
    /// per band). Bounds larger than the path's give the same bytes (the buffer is only larger).
    @inlinable
    public func fill<S: CoverageSink>(_ path: RasterPath, rule: FillRule = .nonZero, clip: RasterClip,
                                      bounds: SIMD4<Double>, into sink: inout S) {
        guard !path.points.isEmpty, bounds.x.isFinite, bounds.y.isFinite, bounds.z.isFinite, bounds.w.isFinite,
              _prepare((bounds.x, bounds.y, bounds.z, bounds.w), clip) else { return }
        let cells = _cells
        _accumulate(path, .identity, cells)
        cells.sweep(rule: rule, backend: (backend ?? RasterBackend.current).effective, into: &sink)
    }

    // MARK: Bounds and buffers

    @inlinable
    static func _deviceBounds(_ path: RasterPath, _ t: RasterTransform) -> (Double, Double, Double, Double)? {
        if path.points.isEmpty { return nil }
        var x0 = Double.infinity, y0 = Double.infinity, x1 = -Double.infinity, y1 = -Double.infinity
        var finite = true
        let identity = t == .identity
        for q in path.points {
            let p = identity ? q : t.apply(q)
            finite = finite && p.x.isFinite && p.y.isFinite
            x0 = Swift.min(x0, p.x); x1 = Swift.max(x1, p.x)
            y0 = Swift.min(y0, p.y); y1 = Swift.max(y1, p.y)
        }
        return finite ? (x0, y0, x1, y1) : nil
    }

    /// Sets up the buffer for a shape whose device bounds are `b`: the pixels of the bounds
    /// (grown by one pixel each side, so rounding can never push a point outside) ∩ `clip`.
    @usableFromInline
    func _prepare(_ b: (Double, Double, Double, Double), _ clip: RasterClip) -> Bool {
        let lim = Self.coordinateLimit
        let bx0 = pixelFloor(Swift.min(Swift.max(b.0, -lim), lim)) - 1
        let by0 = pixelFloor(Swift.min(Swift.max(b.1, -lim), lim)) - 1
        let bx1 = pixelCeil(Swift.min(Swift.max(b.2, -lim), lim)) + 1
        let by1 = pixelCeil(Swift.min(Swift.max(b.3, -lim), lim)) + 1
        let x0 = Swift.max(bx0, clip.x0), x1 = Swift.min(bx1, clip.x1)
        let y0 = Swift.max(by0, clip.y0), y1 = Swift.min(by1, clip.y1)
        guard x0 < x1, y0 < y1 else { return false }
        var c = _Cells()
        c.ox = x0; c.oy = y0; c.width = x1 - x0; c.height = y1 - y0
        c.stride = (c.width + 1 + 7) & ~7
        c.words = ((c.stride >> 3) + 63) >> 6
        c.xMinSub = x0 << 8; c.xMaxSub = x1 << 8
        c.yMinSub = y0 << 8; c.yMaxSub = y1 << 8
        // + laneSlack: the lane walk (fbk_walk_rows_lanes_avx512) adds a step's cells as one 16-byte
        // write, whose last cells may lie past the last row's cells (it adds 0 there)
        let needAcc = c.stride * c.height + Self.laneSlack, needBits = c.words * c.height
        if needAcc > _accCapacity {
            _acc.deallocate()
            _accCapacity = Swift.max(needAcc, _accCapacity * 2)
            _acc = .allocate(capacity: _accCapacity); _acc.initialize(repeating: 0, count: _accCapacity)
        }
        if needBits > _bitsCapacity {
            _bits.deallocate()
            _bitsCapacity = Swift.max(needBits, _bitsCapacity * 2)
            _bits = .allocate(capacity: _bitsCapacity); _bits.initialize(repeating: 0, count: _bitsCapacity)
        }
        if c.stride * c.covRows > _covCapacity {
            _cov.deallocate()
            _covCapacity = Swift.max(c.stride * c.covRows, _covCapacity * 2)
            _cov = .allocate(capacity: _covCapacity); _cov.initialize(repeating: 0, count: _covCapacity)
        }
        c.acc = _acc; c.bits = _bits; c.cov = _cov
        if (backend ?? RasterBackend.current).effective == .native {
            _native.pointee = fbk_cells(acc: _acc, bits: _bits, stride: c.stride, words: c.words, width: c.width, oy: c.oy,
                                        x_min_sub: Int64(c.xMinSub), x_max_sub: Int64(c.xMaxSub),
                                        y_min_sub: Int64(c.yMinSub), y_max_sub: Int64(c.yMaxSub), skip0: 0, skip1: 0)
            c.native = _native
        }
        _cells = c
        return true
    }

    // MARK: Accumulation

    /// Converts a device coordinate to 24.8 fixed point: ⌊256·v + ½⌋ (round half up), clamped
    /// to ±2^29 (±2^21 px); NaN → the limit. A pure function of `v`.
    @inlinable @inline(__always)
    package static func _fixed(_ v: Double) -> Int {
        let lim = 536_870_912.0        // 2^29
        var s = v * 256
        s = s < lim ? s : lim          // NaN → lim
        s = s > -lim ? s : -lim
        // truncation of a positive number is floor: shift into positives, add ½, truncate
        return Int(s + 1_073_741_824.5) - 1_073_741_824
    }

    /// Polyline → fixed-point lines → cells. A line with both ends above the buffer's rows,
    /// both below, or both right of its columns (by more than a pixel, so by every rounding) adds
    /// nothing (`addLine` would return at once): it is skipped before its points are converted,
    /// so a band pays little for the parts of a shape it does not show. Lines left of the buffer
    /// are not skipped (their cover folds into the first column).
    @usableFromInline
    struct _FixedSink: FlattenSink {
        @usableFromInline let r: _Cells
        @usableFromInline var sx = 0, sy = 0, cx = 0, cy = 0
        /// The current point in pixels; `cx, cy` hold its fixed-point value when `fixedValid`.
        @usableFromInline var px = 0.0, py = 0.0, fixedValid = true
        @usableFromInline let minY: Double, maxY: Double, maxX: Double
        @inlinable init(_ r: _Cells) {
            self.r = r
            minY = Double(r.oy - 1); maxY = Double(r.oy + r.height + 1); maxX = Double(r.ox + r.width + 1)
        }
        @inlinable mutating func moveTo(_ p: RasterPoint) {
            cx = PathRasterizer._fixed(p.x); cy = PathRasterizer._fixed(p.y); sx = cx; sy = cy
            px = p.x; py = p.y; fixedValid = true
        }
        @inlinable mutating func lineTo(_ p: RasterPoint, smooth: Bool) {
            if (p.y < minY && py < minY) || (p.y > maxY && py > maxY) || (p.x > maxX && px > maxX) {
                px = p.x; py = p.y; fixedValid = false
                return
            }
            if !fixedValid { cx = PathRasterizer._fixed(px); cy = PathRasterizer._fixed(py) }
            let x = PathRasterizer._fixed(p.x), y = PathRasterizer._fixed(p.y)
            r.addLine(cx, cy, x, y)
            cx = x; cy = y; px = p.x; py = p.y; fixedValid = true
        }
        @inlinable mutating func endSubpath(closed: Bool) {
            if !fixedValid { cx = PathRasterizer._fixed(px); cy = PathRasterizer._fixed(py) }
            r.addLine(cx, cy, sx, sy)
        }
    }

    @usableFromInline
    func _accumulate(_ path: RasterPath, _ transform: RasterTransform, _ cells: _Cells) {
        var sink = _FixedSink(cells)
        // Curves wholly above, below or right of the buffer (1 px margin) contribute nothing to
        // its cells, so they are not flattened (a band costs in proportion to what it shows).
        let cull = FlattenCull(minY: Double(cells.oy - 1), maxY: Double(cells.oy + cells.height + 1),
                               maxX: Double(cells.ox + cells.width + 1))
        path.flatten(transform: transform, tolerance: tolerance, cull: cull, into: &sink)
    }
}

/// The cell buffer of one shape: geometry + the rasterizer's buffers. Methods only write
/// through the pointers, so the struct is copied freely into locals.
@usableFromInline
struct _Cells {
    @usableFromInline var acc = UnsafeMutablePointer<Int32>(bitPattern: 8)!
    @usableFromInline var bits = UnsafeMutablePointer<UInt64>(bitPattern: 8)!
    @usableFromInline var cov = UnsafeMutablePointer<UInt8>(bitPattern: 8)!
    @usableFromInline var ox = 0, oy = 0, width = 0, height = 0, stride = 0, words = 0
    @usableFromInline var xMinSub = 0, xMaxSub = 0, yMinSub = 0, yMaxSub = 0
    /// Pixel rows `skip0 ..< skip1` (absolute) that vertical lines do not enter and the sweep
    /// hands to ``StraightRows/emit(clip:into:)`` instead (empty unless `fill(…straight:…)`;
    /// set them with ``setSkip(_:_:)``).
    @usableFromInline var skip0 = 0, skip1 = 0
    /// Rows of coverage `cov` holds (`stride` bytes each): the dense sweep's chunk.
    @inlinable var covRows: Int { Swift.min(height, Self.denseChunk) }
    /// Rows the dense sweep hands to C at once (`fbk_sweep_rows_avx2`).
    @usableFromInline static let denseChunk = 32
    /// The same geometry for the C line walk (`fbk_add_line`), or nil when the portable backend
    /// runs the Swift reference walk (``addLine(_:_:_:_:)``).
    @usableFromInline var native: UnsafeMutablePointer<fbk_cells>? = nil
    @usableFromInline init() {}

    /// Sets the rows vertical lines leave to the sweep (here and in `native`).
    @usableFromInline
    mutating func setSkip(_ s0: Int, _ s1: Int) {
        skip0 = s0; skip1 = s1
        native?.pointee.skip0 = s0; native?.pointee.skip1 = s1
    }

    // MARK: Sweep

    @inlinable
    func sweep<S: CoverageSink>(rule: FillRule, backend be: RasterBackend, straight: StraightRows? = nil, into sink: inout S) {
        let evenOdd = rule == .evenOdd
        let acc = acc, bits = bits, cov = cov
        let width = width, stride = stride, words = words, ox = ox, oy = oy
        let skip0 = skip0, skip1 = skip1
        if be == .native {
            // a solid colour painted as the rows are swept (AVX-512), else dense rows if wanted
            let target = fbk_cpu_lane_walk_cached() != 0 ? sink.solidTarget : nil
            if S.prefersDenseRows || target != nil {
                sweepDense(evenOdd: evenOdd, straight: straight, target: target, into: &sink)
                return
            }
        }
        for row in 0..<height {
            let rowAcc = acc + row * stride, rowBits = bits + row * words
            let y = oy + row
            if y >= skip0 && y < skip1 {
                straightRow(row, straight: straight, into: &sink)
                continue
            }
            var carry: Int32 = 0
            var x = 0
            for wi in 0..<words {
                var word = rowBits[wi]
                if word == 0 { continue }
                rowBits[wi] = 0
                while word != 0 {
                    let tz = word.trailingZeroBitCount
                    let run = (~(word >> UInt64(tz))).trailingZeroBitCount
                    let end = tz + run
                    word = end >= 64 ? 0 : (word >> UInt64(end)) << UInt64(end)
                    let cx0 = (wi << 9) + (tz << 3), cx1 = (wi << 9) + (end << 3)
                    if carry != 0 {
                        let gapEnd = Swift.min(cx0, width)
                        if gapEnd > x {
                            let v = CoverageAccumulation.coverageByte(carry, evenOdd: evenOdd)
                            if v != 0 { sink.constantSpan(y: y, x: ox + x, count: gapEnd - x, coverage: v) }
                        }
                    }
                    carry = CoverageAccumulation.accumulate(rowAcc + cx0, coverage: cov + cx0, count: cx1 - cx0,
                                                            carry: carry, rule: rule, backend: be)
                    var s = cx0, e = Swift.min(cx1, width)
                    // Trim the zero ends 8 bytes at a time (the run is whole groups of 8 from
                    // cx0, all written by the pass; bytes at or past `e` do not count): the
                    // same s and e as a byte loop, which was half of the sweep on W7.
                    while s < e {
                        let w = UInt64(littleEndian: UnsafeRawPointer(cov + s).loadUnaligned(as: UInt64.self))
                        if w != 0 { s += w.trailingZeroBitCount >> 3; break }
                        s += 8
                    }
                    if s < e {
                        var g = (e - 1) & ~7                     // the group holding e − 1 (≥ cx0)
                        var mask: UInt64 = e - g == 8 ? ~0 : (1 &<< UInt64((e - g) << 3)) &- 1
                        while true {
                            let w = UInt64(littleEndian: UnsafeRawPointer(cov + g).loadUnaligned(as: UInt64.self)) & mask
                            if w != 0 { e = g + 8 - (w.leadingZeroBitCount >> 3); break }
                            g -= 8; mask = ~0                    // ends by s's group: cov[s] ≠ 0
                        }
                    }
                    if s < e { sink.coverageSpan(y: y, x: ox + s, coverage: UnsafeBufferPointer(start: cov + s, count: e - s)) }
                    x = cx1
                }
            }
            if carry != 0 && x < width {
                let v = CoverageAccumulation.coverageByte(carry, evenOdd: evenOdd)
                if v != 0 { sink.constantSpan(y: y, x: ox + x, count: width - x, coverage: v) }
            }
        }
    }

    /// A row in the straight range `skip0 ..< skip1` (both sweeps): at its first row the
    /// straight rows are sent (``StraightRows/emit(clip:into:)``); no cell of such a row should
    /// be written, and any that was is cleared, so the buffer stays all-zero.
    @inlinable @inline(__always)
    func straightRow<S: CoverageSink>(_ row: Int, straight: StraightRows?, into sink: inout S) {
        if oy + row == skip0, let straight {
            straight.emit(clip: RasterClip(x0: ox, y0: skip0, x1: ox + width, y1: skip1), into: &sink)
        }
        let rowAcc = acc + row * stride, rowBits = bits + row * words
        for wi in 0..<words where rowBits[wi] != 0 {
            (rowAcc + (wi << 9)).update(repeating: 0, count: Swift.min(512, stride - (wi << 9)))
            rowBits[wi] = 0
        }
    }

    /// ``sweep(rule:backend:straight:into:)`` for a sink that takes rows whole, native backend:
    /// up to ``denseChunk`` rows at a time through `fbk_sweep_rows_avx512` / `_avx2` (runs accumulated, gaps
    /// filled and each row's ends found in C; the rows' coverage side by side in `cov`), then
    /// the chunk to ``CoverageSink/denseRows(y:count:x:starts:counts:coverage:stride:)``. The same pixels and
    /// bytes as the spans (`denseRowsMatchSpans`); the straight rows as in the span sweep. With
    /// `target` (the sink's ``CoverageSink/solidTarget``, AVX-512) the rows are painted as they
    /// are swept (`fbk_sweep_rows_solid_avx512`) instead of going to `denseRows`.
    @inlinable
    func sweepDense<S: CoverageSink>(evenOdd: Bool, straight: StraightRows?, target: SolidTarget?, into sink: inout S) {
        let acc = acc, bits = bits, cov = cov
        let width = width, stride = stride, words = words, ox = ox, oy = oy, height = height
        let skip0 = skip0, skip1 = skip1, chunk = covRows
        withUnsafeTemporaryAllocation(of: Int.self, capacity: 2 * chunk) { buf in
            let starts = buf.baseAddress!, counts = buf.baseAddress! + chunk
            var row = 0
            while row < height {
                let y = oy + row
                if y >= skip0 && y < skip1 {
                    straightRow(row, straight: straight, into: &sink)
                    row += 1
                    continue
                }
                var end = Swift.min(height, row + chunk)
                if skip0 > y && skip0 < oy + end { end = skip0 - oy }        // stop at the straight rows
                let n = end - row
                if let t = target {
                    fbk_sweep_rows_solid_avx512(acc + row * stride, bits + row * words, stride, words, width, n,
                                                evenOdd ? 1 : 0, t.pixels + y * t.rowStride + ox, t.rowStride,
                                                t.color.packed)
                    row = end
                    continue
                }
                // (A small layer's rows, at most 64 columns, are swept densely; wider rows by
                // their runs, 16 cells a block. Dense small rows: W6a 39.9–41.9 → 37.1–38.8 ms, W6b
                // 11.5–12.1 → 10.5–11.4, alternated; the run sweep's per-run steps cost more than the
                // interior's blocks on rows this short.)
                if fbk_cpu_lane_walk_cached() == 0 {
                    fbk_sweep_rows_avx2(acc + row * stride, bits + row * words, stride, words, width, n, evenOdd ? 1 : 0,
                                        cov, starts, counts)
                } else if width <= 64 {
                    fbk_sweep_rows_small_avx512(acc + row * stride, bits + row * words, stride, width, n, evenOdd ? 1 : 0,
                                                cov, starts, counts)
                } else {
                    fbk_sweep_rows_avx512(acc + row * stride, bits + row * words, stride, words, width, n, evenOdd ? 1 : 0,
                                          cov, starts, counts)
                }
                sink.denseRows(y: y, count: n, x: ox, starts: starts, counts: counts, coverage: cov, stride: stride)
                row = end
            }
        }
    }
}

/// A dense coverage image: the simplest ``CoverageSink`` (tests, masks, debugging). Pixel (x, y)
/// of the canvas is `bytes[(y − originY)·width + (x − originX)]`; pixels outside are ignored.
public struct CoverageBitmap: CoverageSink, Sendable, Equatable {
    public let originX: Int, originY: Int, width: Int, height: Int
    public var bytes: [UInt8]
    /// Calls received (for tests of the span structure).
    public var coverageSpans = 0, constantSpans = 0, solidPixels = 0

    public init(x: Int = 0, y: Int = 0, width: Int, height: Int) {
        originX = x; originY = y; self.width = width; self.height = height
        bytes = [UInt8](repeating: 0, count: width * height)
    }

    public subscript(x: Int, y: Int) -> UInt8 {
        let (i, j) = (x - originX, y - originY)
        guard i >= 0, i < width, j >= 0, j < height else { return 0 }
        return bytes[j * width + i]
    }

    public mutating func coverageSpan(y: Int, x: Int, coverage: UnsafeBufferPointer<UInt8>) {
        coverageSpans += 1
        let j = y - originY
        guard j >= 0, j < height else { return }
        for (k, c) in coverage.enumerated() {
            let i = x + k - originX
            if i >= 0 && i < width { bytes[j * width + i] = c }
        }
    }

    public mutating func constantSpan(y: Int, x: Int, count: Int, coverage: UInt8) {
        constantSpans += 1
        if coverage == 255 { solidPixels += count }
        let j = y - originY
        guard j >= 0, j < height else { return }
        for k in 0..<count {
            let i = x + k - originX
            if i >= 0 && i < width { bytes[j * width + i] = coverage }
        }
    }

    /// Σ coverage / 255, in pixels.
    public var area: Double { Double(bytes.reduce(0) { $0 + Int($1) }) / 255 }
}
