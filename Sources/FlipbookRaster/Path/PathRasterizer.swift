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
///    box ∩ the clip). A line is cut at every pixel row it crosses and, inside a row, at every
///    pixel column. For a piece inside one cell that goes down by `dy` sub-pixel rows (1...256;
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
/// (y₁ − y₀)⌋` — is computed **from the line's original fixed-point end points**, in exact
/// integer arithmetic. A band boundary is just one of the row boundaries that are cut anyway, so
/// a row's pieces (and the column cuts inside it, computed from the piece's end points) are the
/// same integers whichever band or clip contains the row. Columns left of the clip cannot be
/// stored, but everything they deposit only matters through the running sum, so they are folded
/// into the clip's first cell (`acc[0] += dy·512`): the prefix sums from that cell on are the same
/// integers. Columns right of the clip are dropped (they never affect cells to their left).
/// Integer addition is associative, so the order in which lines arrive does not matter either.
/// Hence: **any pixel's coverage byte is bit-identical for any clip or band containing it**
/// (tested: random paths whole vs bands of 1, 2, 3, 7 and 64 rows, and random column clips).
///
/// Coordinates are clamped to ±2^21 px (exact only inside that range). Paths with a non-finite
/// point are not drawn.
///
/// A rasterizer owns its buffers and reuses them (no allocation per shape once grown to the
/// largest bounding box it has seen); it is not thread-safe: use one per thread.
public final class PathRasterizer {
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
    }

    deinit {
        _acc.deallocate(); _bits.deallocate(); _cov.deallocate()
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
        let needAcc = c.stride * c.height, needBits = c.words * c.height
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
        if c.stride > _covCapacity {
            _cov.deallocate()
            _covCapacity = Swift.max(c.stride, _covCapacity * 2)
            _cov = .allocate(capacity: _covCapacity); _cov.initialize(repeating: 0, count: _covCapacity)
        }
        c.acc = _acc; c.bits = _bits; c.cov = _cov
        _cells = c
        return true
    }

    // MARK: Accumulation

    /// Converts a device coordinate to 24.8 fixed point: ⌊256·v + ½⌋ (round half up), clamped
    /// to ±2^29 (±2^21 px); NaN → the limit. A pure function of `v`.
    @inlinable @inline(__always)
    static func _fixed(_ v: Double) -> Int {
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
    /// hands to ``StraightRows/emit(clip:into:)`` instead (empty unless `fill(…straight:…)`).
    @usableFromInline var skip0 = 0, skip1 = 0
    @usableFromInline init() {}

    /// Adds the line (x0, y0) → (x1, y1), 24.8 fixed-point device coordinates, to the buffer.
    @usableFromInline
    func addLine(_ x0: Int, _ y0: Int, _ x1: Int, _ y1: Int) {
        if y0 == y1 { return }                            // horizontal: no area, no cover
        var xa = x0, ya = y0, xb = x1, yb = y1, w = 1
        if y0 > y1 { xa = x1; ya = y1; xb = x0; yb = y0; w = -1 }   // orient downwards
        let top = Swift.max(ya, yMinSub), bot = Swift.min(yb, yMaxSub)
        if top >= bot { return }
        if Swift.min(xa, xb) >= xMaxSub { return }     // right of the clip: affects nothing inside
        if Swift.max(xa, xb) <= xMinSub {              // left of the clip: fold into cell 0
            var y = top
            while y < bot {
                let r = y >> 8, yn = Swift.min((r + 1) << 8, bot)
                let row = r - oy
                acc[row * stride] &+= Int32(truncatingIfNeeded: w * (yn - y) * 512)
                bits[row * words] |= 1
                y = yn
            }
            return
        }
        let dx = xb - xa, dyT = yb - ya
        var y = top
        var r = y >> 8
        if dx == 0 {                                     // vertical: one cell per row, no division
            while y < bot {
                if r >= skip0 && r < skip1 {                 // straight rows: written by the sweep
                    r = skip1; y = r << 8
                    continue
                }
                let yn = Swift.min((r + 1) << 8, bot)
                let row = r - oy
                _rowPiece(row * stride, row * words, xa - xMinSub, y - (r << 8), xa - xMinSub, yn - (r << 8), w)
                y = yn; r += 1
            }
            return
        }
        // X(y) = xa + ⌊dx·(y − ya) / dyT⌋, always from the original end points. Between row
        // boundaries y advances by 256, so the quotient is stepped exactly: with
        // dx·256 = qStep·dyT + rStep (0 ≤ rStep < dyT) the pair (q, rem) of ⌊num / dyT⌋ moves by
        // (qStep, rStep) plus a carry — the same integers as dividing at every row.
        var x = top == ya ? xa : xa + Self._floorDiv(dx * (top - ya), dyT)
        var yn = Swift.min((r + 1) << 8, bot)
        if yn >= bot {                                   // within one row
            let row = r - oy
            let xn = bot == yb ? xb : xa + Self._floorDiv(dx * (bot - ya), dyT)
            _rowPiece(row * stride, row * words, x - xMinSub, y - (r << 8), xn - xMinSub, bot - (r << 8), w)
            return
        }
        var num = dx * (yn - ya)
        var q = Self._floorDiv(num, dyT)
        var rem = num - q * dyT
        let qStep = Self._floorDiv(dx << 8, dyT), rStep = (dx << 8) - qStep * dyT
        while true {
            let xn = yn == yb ? xb : xa + q
            let row = r - oy
            _rowPiece(row * stride, row * words, x - xMinSub, y - (r << 8), xn - xMinSub, yn - (r << 8), w)
            x = xn; y = yn; r += 1
            if y >= bot { break }
            yn = Swift.min((r + 1) << 8, bot)
            if yn == (r + 1) << 8 {
                // The carry without a branch: it follows the slope's remainder, which a branch
                // predictor cannot learn (W6a's and W7's edges mispredicted it row after row).
                rem += rStep
                let carry = rem >= dyT ? 1 : 0
                q += qStep + carry
                rem -= carry * dyT
            } else {
                num = dx * (yn - ya)
                q = Self._floorDiv(num, dyT)
                rem = num - q * dyT
            }
        }
    }

    @inlinable @inline(__always)
    static func _floorDiv(_ n: Int, _ d: Int) -> Int {   // d > 0
        let q = n / d
        return (n % d != 0 && n < 0) ? q - 1 : q
    }

    /// One row's piece of a line: from (x0, t0) to (x1, t1), x relative to the buffer's first
    /// column in 1/256 px, t the sub-pixel row inside the pixel row (0...256), t1 > t0.
    @inline(__always)
    func _rowPiece(_ rowBase: Int, _ bitsBase: Int, _ x0: Int, _ t0: Int, _ x1: Int, _ t1: Int, _ w: Int) {
        let dy = t1 - t0
        let limit = width << 8
        if x0 == x1 {
            let c = x0 >> 8
            _cell(rowBase, bitsBase, c, w * dy, 2 * (x0 - (c << 8)))
            return
        }
        if x0 < x1 {
            if x1 <= 0 { _cell(rowBase, bitsBase, -1, w * dy, 0); return }
            if x0 >= limit { return }
            let c0 = x0 >> 8, c1 = (x1 - 1) >> 8
            if c0 == c1 {
                _cell(rowBase, bitsBase, c0, w * dy, x0 + x1 - (c0 << 9))
                return
            }
            let ddx = x1 - x0
            var xp = x0, tp = t0, c = c0
            if c < 0 {                                     // the part left of the clip folds
                let te = t0 + dy * (0 - x0) / ddx
                _cell(rowBase, bitsBase, -1, w * (te - t0), 0)
                xp = 0; tp = te; c = 0
            }
            let cEnd = Swift.min(c1, width - 1)
            while c <= cEnd {
                let xe = c == c1 ? x1 : (c + 1) << 8
                let te = c == c1 ? t1 : t0 + dy * (xe - x0) / ddx
                _cell(rowBase, bitsBase, c, w * (te - tp), xp + xe - (c << 9))
                xp = xe; tp = te; c += 1
            }
        } else {
            if x0 <= 0 { _cell(rowBase, bitsBase, -1, w * dy, 0); return }
            if x1 >= limit { return }
            let c0 = (x0 - 1) >> 8, c1 = x1 >> 8
            if c0 == c1 {
                _cell(rowBase, bitsBase, c0, w * dy, x0 + x1 - (c0 << 9))
                return
            }
            let ddx = x0 - x1
            var xp = x0, tp = t0, c = c0
            if c >= width {                               // the part right of the clip is dropped
                let xe = limit
                tp = t0 + dy * (x0 - xe) / ddx
                xp = xe; c = width - 1
            }
            while c >= c1 {
                if c < 0 {                                 // the rest is left of the clip
                    _cell(rowBase, bitsBase, -1, w * (t1 - tp), 0)
                    return
                }
                let xe = c == c1 ? x1 : c << 8
                let te = c == c1 ? t1 : t0 + dy * (x0 - xe) / ddx
                _cell(rowBase, bitsBase, c, w * (te - tp), xp + xe - (c << 9))
                xp = xe; tp = te; c -= 1
            }
        }
    }

    /// Deposits a piece of signed height `dyw` with x-fraction sum `fxSum` (0...512) into cell
    /// `c` (see the type's documentation). c < 0 folds into cell 0; c ≥ width is dropped.
    @inline(__always)
    func _cell(_ rowBase: Int, _ bitsBase: Int, _ c: Int, _ dyw: Int, _ fxSum: Int) {
        if dyw == 0 { return }
        if c < 0 {
            acc[rowBase] &+= Int32(truncatingIfNeeded: dyw * 512)
            bits[bitsBase] |= 1
            return
        }
        if c >= width { return }
        let p = acc + rowBase + c
        p[0] &+= Int32(truncatingIfNeeded: dyw * (512 - fxSum))
        p[1] &+= Int32(truncatingIfNeeded: dyw * fxSum)
        let c1 = c + 1
        bits[bitsBase + (c >> 9)] |= 1 &<< UInt64((c >> 3) & 63)
        bits[bitsBase + (c1 >> 9)] |= 1 &<< UInt64((c1 >> 3) & 63)
    }

    // MARK: Sweep

    @inlinable
    func sweep<S: CoverageSink>(rule: FillRule, backend be: RasterBackend, straight: StraightRows? = nil, into sink: inout S) {
        let evenOdd = rule == .evenOdd
        let acc = acc, bits = bits, cov = cov
        let width = width, stride = stride, words = words, ox = ox, oy = oy
        let skip0 = skip0, skip1 = skip1
        for row in 0..<height {
            let rowAcc = acc + row * stride, rowBits = bits + row * words
            let y = oy + row
            if y >= skip0 && y < skip1 {
                if y == skip0, let straight {
                    straight.emit(clip: RasterClip(x0: ox, y0: skip0, x1: ox + width, y1: skip1), into: &sink)
                }
                // Nothing should be here; keep the buffer all-zero whatever was written.
                for wi in 0..<words where rowBits[wi] != 0 {
                    (rowAcc + (wi << 9)).update(repeating: 0, count: Swift.min(512, stride - (wi << 9)))
                    rowBits[wi] = 0
                }
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
