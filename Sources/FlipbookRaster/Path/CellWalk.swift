import CFlipbookKernels

/// The accumulation of one line into the cell buffer: the line is walked through the cells it
/// crosses, and each piece inside one cell deposits its area and cover (``PathRasterizer``,
/// step 3).
///
/// ## The walk
///
/// A line (oriented downwards, winding `w = ±1`) is cut at every row boundary and every column
/// boundary it crosses. Where it crosses them comes from two exact integer sequences of the line
/// alone (its original 24.8 fixed-point end points `(xa, ya)`, `(xb, yb)`, `dx = xb − xa`,
/// `dy = yb − ya`, `|dx| = adx`, direction `dir = sign(dx)`):
///
///     X(y) = xa + ⌊dx·(y − ya) / dy⌋          x where the line reaches row boundary y
///     Y(b) = ya + ⌊dy·dir·(b − xa) / adx⌋     y where it reaches column boundary b
///
/// — both the floor of the true value. Successive boundaries are 256 apart, so each sequence is
/// stepped as a quotient + remainder (`⌊(n + 256·k)/d⌋`: add the step's quotient, add its
/// remainder, carry one when the remainder reaches `d`), no division per step.
///
/// - A **steep** line (`adx ≤ dy`) is walked row by row. In one row x moves by at most a column,
///   so the row holds one piece, or two when the next column boundary's `Y(b)` lies inside the row
///   (`Y(b) < row end`: the crossing at `(b, Y(b))` splits it). The body has no loop and no
///   data-dependent branch: a row without a crossing is the same code with an empty second piece.
/// - A **flat** line (`adx > dy`) is walked column by column: in one column y moves by less than a
///   row, so the column holds one piece, or two when the next row boundary `yr ≤ Y(end of column)`
///   (the crossing at `(X(yr), yr)` splits it).
///
/// Because both sequences are floors of the true crossing points, every piece lies inside its cell
/// (`0 ≤ fx₀ + fx₁ ≤ 512`) and the pieces of a row add up to exactly the line's height in that
/// row: the area is exact up to the 1/256 px of the fixed-point positions.
///
/// ## Bands and clips give the same bytes
///
/// Every crossing is a value of X or Y, so a row's pieces are the same integers whichever band or
/// clip holds the row:
/// - a walk starts at the first visible row boundary `(X(top), top)` in the cell the whole line's
///   walk is in there (for a steep line going left from exactly a column boundary that is the cell
///   right of it, until `Y(b)`);
/// - a flat walk that ends at a band's last row ends in the column where the whole walk crosses
///   that row: the column holding `X(bot)` or, going right, when `X(bot)` is exactly that
///   column's far boundary and the line reaches the boundary above `bot`, the next one (a piece
///   of width 0 there: ``_lastColumn(_:_:_:_:_:_:_:_:)``);
/// - a line entering from left of the clip starts at `(0, Y(0))` (relative to the buffer's
///   first column) and the rows it spends left of the clip fold into cell 0 (`acc[0] += dy·512`:
///   everything it deposits there only matters through the running sum); a line leaving the clip
///   on the right stops at `(limit, Y(limit))`, a line leaving on the left stops at `(0, Y(0))` and
///   folds the rest.
///
/// (Tested: whole renders against bands of 1…64 rows and random clips, `PathRasterizerTests`.)
extension _Cells {
    /// Adds the line (x0, y0) → (x1, y1), 24.8 fixed-point device coordinates, to the buffer:
    /// with the native backend through `fbk_add_line` (cell_walk.c, the same walk in C — clang
    /// keeps its state in registers), else through ``_addLine(_:_:_:_:)``.
    @inlinable @inline(__always)
    func addLine(_ x0: Int, _ y0: Int, _ x1: Int, _ y1: Int) {
        // A line wholly above or below the buffer's rows adds nothing: decided here, inlined,
        // before the call (most of a shape's edges miss most of the bands it is drawn in; a
        // call per such edge cost W6b ~10 %).
        if (y0 <= yMinSub && y1 <= yMinSub) || (y0 >= yMaxSub && y1 >= yMaxSub) { return }
        if let n = native { fbk_add_line(n, Int64(x0), Int64(y0), Int64(x1), Int64(y1)); return }
        _addLine(x0, y0, x1, y1)
    }

    /// The reference line walk (the type's documentation): the portable backend's, and the
    /// twin the C walk is tested against.
    @usableFromInline
    func _addLine(_ x0: Int, _ y0: Int, _ x1: Int, _ y1: Int) {
        if y0 == y1 { return }                            // horizontal: no area, no cover
        var xa = x0, ya = y0, xb = x1, yb = y1, w = 1
        if y0 > y1 { xa = x1; ya = y1; xb = x0; yb = y0; w = -1 }   // orient downwards
        let top = Swift.max(ya, yMinSub), bot = Swift.min(yb, yMaxSub)
        if top >= bot { return }
        if Swift.min(xa, xb) >= xMaxSub { return }      // right of the clip: affects nothing inside
        if Swift.max(xa, xb) <= xMinSub { _fold(top, bot, w); return }   // left: all into cell 0
        xa &-= xMinSub; xb &-= xMinSub                   // x relative to the buffer's first column
        if xa == xb { _vertical(xa, top, bot, w); return }
        let dx = xb &- xa, dy = yb &- ya
        let dir = dx > 0 ? 1 : -1, adx = dx > 0 ? dx : -dx
        let limit = width << 8
        var sx = top == ya ? xa : xa &+ Self._floorDiv(dx &* (top &- ya), dy), sy = top
        var ex = bot == yb ? xb : xa &+ Self._floorDiv(dx &* (bot &- ya), dy)
        // Entering from outside the clip: the walk starts where the line crosses the clip's edge
        // (the whole line's walk passes through that point); the rows it spends left of the clip
        // fold into cell 0.
        if dir > 0 {
            if xa < 0 {
                let yL = ya &+ (dy &* (0 &- xa)) / adx    // Y(0)
                if yL >= bot { _fold(top, bot, w); return }
                if yL >= top { _fold(top, yL, w); sx = 0; sy = yL }
            }
            if sx >= limit { return }
        } else {
            if xa > limit {
                let yR = ya &+ (dy &* (xa &- limit)) / adx   // Y(limit)
                if yR >= bot { return }
                if yR >= top { sx = limit; sy = yR }
            }
            if sx <= 0 { _fold(sy, bot, w); return }
        }
        // Leaving it: the walk ends where the line crosses the clip's edge (xOut); the rest is
        // dropped (right) or folded into cell 0 (left).
        var xOut = -1, foldFrom = bot, ey = bot
        if dir > 0 && xb > limit {
            let yR = ya &+ (dy &* (limit &- xa)) / adx    // Y(limit)
            if yR < bot { xOut = limit; ey = yR }
        } else if dir < 0 && xb < 0 {
            let yL = ya &+ (dy &* xa) / adx               // Y(0)
            if yL < bot { xOut = 0; ey = yL; foldFrom = yL }
        }
        if ey > sy {
            if adx <= dy {
                // a steep walk's last row ends at X(ey) when ey is a row boundary
                if xOut >= 0 { ex = ey & 255 == 0 ? xa &+ Self._floorDiv(dx &* (ey &- ya), dy) : xOut }
                _walkRows(xa, ya, dx, dy, dir, adx, sx, sy, ex, ey, w)
            } else {
                let c0 = dir > 0 ? sx >> 8 : (sx &- 1) >> 8
                let cLast: Int
                if xOut >= 0 { ex = xOut; cLast = dir > 0 ? width &- 1 : 0 }
                else { cLast = Self._lastColumn(xa, ya, dy, dir, adx, c0, ex, ey) }
                _walkColumns(xa, ya, dx, dy, dir, adx, sx, sy, ex, ey, cLast, w)
            }
        }
        if foldFrom < bot { _fold(foldFrom, bot, w) }
    }

    /// The column in which a flat walk to (ex, ey) ends: the column holding ex or — when ex is
    /// exactly on that column's far boundary but the line reaches that boundary above ey (going
    /// right only: ex is a floor) — the next one (the whole line's walk crosses the boundary
    /// first and ends with a piece of width 0 there).
    @inline(__always)
    static func _lastColumn(_ xa: Int, _ ya: Int, _ dy: Int, _ dir: Int, _ adx: Int, _ c0: Int, _ ex: Int, _ ey: Int) -> Int {
        if dir > 0 {
            var cLast = Swift.max(c0, (ex &- 1) >> 8)
            if ex & 255 == 0 && ex >> 8 == cLast &+ 1 && ya &+ (dy &* (ex &- xa)) / adx < ey { cLast &+= 1 }
            return cLast
        }
        // Going left there is no such case: ex ≤ X(ey) (a floor), so the line reaches ex at or
        // below ey — Y(ex) ≥ ey.
        return Swift.min(c0, ex >> 8)
    }

    /// Rows `y0 ..< y1` (sub-pixel) of a line left of the clip: `dy·512` into each row's cell 0.
    @inline(__always)
    func _fold(_ y0: Int, _ y1: Int, _ w: Int) {
        var y = y0
        while y < y1 {
            let r = y >> 8, yn = Swift.min((r + 1) << 8, y1)
            let row = r &- oy
            acc[row &* stride] &+= Int32(truncatingIfNeeded: w &* (yn &- y) &* 512)
            bits[row &* words] |= 1
            y = yn
        }
    }

    /// A vertical line at x (relative, 0 < x < limit): one piece per row, rows `skip0 ..< skip1`
    /// left to the sweep (``StraightRows``).
    @inline(__always)
    func _vertical(_ x: Int, _ top: Int, _ bot: Int, _ w: Int) {
        let c = x >> 8
        let fx = 2 &* (x &- (c << 8))
        let bitA = 1 &<< UInt64((c >> 3) & 63), wordA = c >> 9
        let bitB = 1 &<< UInt64(((c &+ 1) >> 3) & 63), wordB = (c &+ 1) >> 9
        var y = top
        var r = y >> 8
        while y < bot {
            if r >= skip0 && r < skip1 {                 // straight rows: written by the sweep
                r = skip1; y = r << 8
                continue
            }
            let yn = Swift.min((r + 1) << 8, bot)
            let row = r &- oy
            let h = w &* (yn &- y)
            Self._deposit(acc + row &* stride, c, h, fx)
            bits[row &* words &+ wordA] |= bitA
            bits[row &* words &+ wordB] |= bitB
            y = yn; r &+= 1
        }
    }

    /// One piece of signed height `h` (w·dy) with x-fraction sum `f` (0...512) into cell `c` of
    /// the row at `row` (the type's documentation; cell_walk.c's `fbk_deposit`).
    @inline(__always)
    static func _deposit(_ row: UnsafeMutablePointer<Int32>, _ c: Int, _ h: Int, _ f: Int) {
        row[c] &+= Int32(truncatingIfNeeded: h &* (512 &- f))
        row[c &+ 1] &+= Int32(truncatingIfNeeded: h &* f)
    }

    /// Marks cell c's chunk of 8 in a row's bitmap.
    @inline(__always)
    func _mark(_ rowBits: UnsafeMutablePointer<UInt64>, _ c: Int) {
        rowBits[c >> 9] |= 1 &<< UInt64((c >> 3) & 63)
    }

    /// The steep walk (see the type's documentation) from (sx, sy) to (ex, ey), sy < ey.
    /// It stays inside the clip's columns (`_addLine` ends it where the line leaves them).
    @inline(__always)
    func _walkRows(_ xa: Int, _ ya: Int, _ dx: Int, _ dy: Int, _ dir: Int, _ adx: Int,
                   _ sx: Int, _ sy: Int, _ ex: Int, _ ey: Int, _ w: Int) {
        var r = sy >> 8
        let rLast = (ey &- 1) >> 8
        // the cell the walk is in at (sx, sy), and the next column boundary on its way
        var c = dir > 0 ? sx >> 8 : Swift.min(sx >> 8, width &- 1)
        var bnd = dir > 0 ? (c &+ 1) << 8 : c << 8
        // column sequence: yc = Y(bnd) = ya + cq, cq + cr/adx = dy·dist/adx
        let cn = dy &* (dir &* (bnd &- xa))
        var cq = cn / adx, cr = cn &- cq &* adx
        let cqS = (dy << 8) / adx, crS = (dy << 8) &- cqS &* adx, crSm = crS &- adx
        // row sequence: X(next row boundary) = xa + rq
        var rq = 0, rr = 0, rqS = 0, rrSm = 0
        if r < rLast {
            let num = dx &* (((r &+ 1) << 8) &- ya)
            rq = Self._floorDiv(num, dy); rr = num &- rq &* dy
            rqS = Self._floorDiv(dx << 8, dy); rrSm = (dx << 8) &- rqS &* dy &- dy
        }
        let step = dir << 8
        var y = sy, xA = sx
        var pa = acc + ((r &- oy) &* stride), pb = bits + ((r &- oy) &* words)
        while true {
            let last = r == rLast
            let y1 = last ? ey : (r &+ 1) << 8
            let xB = last ? ex : xa &+ rq
            let yc = ya &+ cq
            let has = yc < y1
            let ym = has ? yc : y1, xm = has ? bnd : xB
            let c2 = has ? c &+ dir : c
            // piece 1: (xA, y) → (xm, ym) in cell c; piece 2: (xm, ym) → (xB, y1) in cell c2
            let h1 = w &* (ym &- y), f1 = xA &+ xm &- (c << 9)
            let h2 = w &* (y1 &- ym), f2 = xm &+ xB &- (c2 << 9)
            // (debug builds check the walk's invariants: the cells and row inside the buffer,
            // each piece inside its cell and going down)
            assert(c >= 0 && c < width && c2 >= 0 && c2 < width && r >= oy && r < oy &+ height)
            assert(f1 >= 0 && f1 <= 512 && f2 >= 0 && f2 <= 512 && ym >= y && y1 >= ym)
            Self._deposit(pa, c, h1, f1)
            Self._deposit(pa, c2, h2, f2)
            _mark(pb, Swift.min(c, c2)); _mark(pb, Swift.max(c, c2) &+ 1)
            // past the crossing: the next column boundary and its Y
            let ncr = cr &+ crSm, k = ncr >= 0 ? 1 : 0
            let ncq = cq &+ cqS &+ k
            cr = has ? (k != 0 ? ncr : ncr &+ adx) : cr
            cq = has ? ncq : cq
            bnd = has ? bnd &+ step : bnd
            c = c2
            if last { break }
            y = y1; xA = xB; r &+= 1
            pa += stride; pb += words
            rr &+= rrSm
            let kr = rr >= 0 ? 1 : 0
            rq &+= rqS &+ kr
            rr = kr != 0 ? rr : rr &+ dy
        }
    }

    /// The flat walk (see the type's documentation) from (sx, sy) to (ex, ey), sy < ey, ending
    /// in column `cLast`.
    @inline(__always)
    func _walkColumns(_ xa: Int, _ ya: Int, _ dx: Int, _ dy: Int, _ dir: Int, _ adx: Int,
                      _ sx: Int, _ sy: Int, _ ex: Int, _ ey: Int, _ cLast: Int, _ w: Int) {
        var c = dir > 0 ? sx >> 8 : (sx &- 1) >> 8
        var r = sy >> 8
        var yr = (r &+ 1) << 8
        // row sequence: X(yr) = xa + rq
        let num = dx &* (yr &- ya)
        var rq = Self._floorDiv(num, dy), rr = num &- rq &* dy
        let rqS = Self._floorDiv(dx << 8, dy), rrSm = (dx << 8) &- rqS &* dy &- dy
        // column sequence: Y(bnd) = ya + cq at the column's far boundary
        var bnd = dir > 0 ? (c &+ 1) << 8 : c << 8
        let cn = dy &* (dir &* (bnd &- xa))
        var cq = cn / adx, cr = cn &- cq &* adx
        let cqS = (dy << 8) / adx, crSm = (dy << 8) &- cqS &* adx &- adx
        let step = dir << 8
        var xs = sx, ys = sy
        var pa = acc + ((r &- oy) &* stride), pb = bits + ((r &- oy) &* words)
        while true {
            let last = c == cLast
            let xe = last ? ex : bnd, ye = last ? ey : ya &+ cq
            let has = yr <= ye
            let ym = has ? yr : ye, xm = has ? xa &+ rq : xe
            // piece 1: (xs, ys) → (xm, ym) in row r; piece 2: (xm, ym) → (xe, ye) in the next
            // row (nothing when ym == ye: then it stays in row r with height 0)
            let down = has && yr < ye
            let pa2 = down ? pa + stride : pa, pb2 = down ? pb + words : pb
            let cb = c << 9
            let h1 = w &* (ym &- ys), f1 = xs &+ xm &- cb
            let h2 = w &* (ye &- ym), f2 = xm &+ xe &- cb
            assert(c >= 0 && c < width && r >= oy && r < oy &+ height && (!down || r &+ 1 < oy &+ height))
            assert(f1 >= 0 && f1 <= 512 && f2 >= 0 && f2 <= 512 && ym >= ys && ye >= ym)
            Self._deposit(pa, c, h1, f1)
            Self._deposit(pa2, c, h2, f2)
            _mark(pb, c); _mark(pb, c &+ 1)
            _mark(pb2, c); _mark(pb2, c &+ 1)
            if has {
                r &+= 1; yr &+= 256
                pa += stride; pb += words
                rr &+= rrSm
                let kr = rr >= 0 ? 1 : 0
                rq &+= rqS &+ kr
                rr = kr != 0 ? rr : rr &+ dy
            }
            if last { break }
            xs = xe; ys = ye; c &+= dir; bnd &+= step
            cr &+= crSm
            let k = cr >= 0 ? 1 : 0
            cq &+= cqS &+ k
            cr = k != 0 ? cr : cr &+ adx
        }
    }

    @inlinable @inline(__always)
    static func _floorDiv(_ n: Int, _ d: Int) -> Int {   // d > 0
        let q = n / d
        return (n % d != 0 && n < 0) ? q - 1 : q
    }
}
