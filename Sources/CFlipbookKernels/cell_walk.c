/*
 * cell_walk.c -- the path rasterizer's line accumulation: one line walked through the cells it
 * crosses (FlipbookRaster Path/CellWalk.swift is the reference, with the maths; this is the
 * same walk, and the twin test compares the two cell buffers bit for bit). Plain C, no ISA-specific code: clang keeps the walks' state in registers where the
 * Swift build spilled it (W7's accumulation 35 % faster in a harness fed W7's lines).
 *
 * Units: x, y in 24.8 fixed point (absolute device coordinates, |x|, |y| <= 2^29 as
 * PathRasterizer's conversion clamps them: the products below then fit in 64 bits); acc[] in
 * 2^-17 pixel; the bitmap has one bit per 8 cells (see PathRasterizer.swift).
 *
 * C details: values that may be negative (rows above the origin, leftward lines) are scaled by
 * `* 256`, never `<< 8` (a left shift of a negative value is undefined before C23); `>> 8` of a
 * negative value and the int32 conversion in fbk_add are implementation-defined, and every
 * compiler this builds with (clang, gcc) shifts arithmetically and wraps. The step quotients
 * are computed lazily here (only for lines long enough to use them), which the Swift walk does
 * not bother with: the values it computes and never uses differ, the cells do not.
 */
#include "flipbook_kernels.h"
#include "cell_walk_lanes.h"
#include "fbk_avx2.h"  /* FBK_X86 */

typedef int64_t I;

static inline I fbk_floor_div(I n, I d) { I q = n / d; return (n % d != 0 && n < 0) ? q - 1 : q; }
static inline I fbk_min(I a, I b) { return a < b ? a : b; }
static inline I fbk_max(I a, I b) { return a > b ? a : b; }

/* the walks are inlined into each caller: a call per line with a dozen arguments cost ~10 %
 * of W7's accumulation */
#define FBK_WALK static inline __attribute__((always_inline))

/* *p += v as wrapping int32 arithmetic (the accumulation pass reads the cells as such; a signed
 * overflow would be undefined in C, and a hostile path can pile thousands of edges on a cell) */
static inline void fbk_add(int32_t *p, I v) { *p = (int32_t)((uint32_t)*p + (uint32_t)v); }

/* one piece of signed height wh (w * dy) with x-fraction sum f (0...512) into cell c of a row */
static inline void fbk_deposit(const fbk_cells *C, I row_base, I c, I wh, I f) {
    int32_t *p = C->acc + row_base + c;
    fbk_add(p, wh * (512 - f));
    fbk_add(p + 1, wh * f);
}

/* marks cell c's chunk of 8 in a row's bitmap */
static inline void fbk_mark(const fbk_cells *C, I bits_base, I c) {
    C->bits[bits_base + (c >> 9)] |= 1ull << ((c >> 3) & 63);
}

/* rows y0 ..< y1 of a line left of the clip: dy*512 into each row's cell 0 */
static void fbk_fold(const fbk_cells *b, I y0, I y1, I w) {
    I y = y0;
    while (y < y1) {
        I r = y >> 8, yn = fbk_min((r + 1) * 256, y1), row = r - b->oy;
        fbk_add(b->acc + row * b->stride, w * (yn - y) * 512);
        b->bits[row * b->words] |= 1;
        y = yn;
    }
}

static void fbk_vertical(const fbk_cells *b, I x, I top, I bot, I w) {
    I c = x >> 8, fx = 2 * (x - (c << 8));
    uint64_t bit_a = 1ull << ((c >> 3) & 63), bit_b = 1ull << (((c + 1) >> 3) & 63);
    I word_a = c >> 9, word_b = (c + 1) >> 9;
    I y = top, r = y >> 8;
    while (y < bot) {
        if (r >= b->skip0 && r < b->skip1) { r = b->skip1; y = r * 256; continue; }
        I yn = fbk_min((r + 1) * 256, bot), row = r - b->oy, h = w * (yn - y);
        int32_t *p = b->acc + row * b->stride + c;
        fbk_add(p, h * (512 - fx));
        fbk_add(p + 1, h * fx);
        b->bits[row * b->words + word_a] |= bit_a;
        b->bits[row * b->words + word_b] |= bit_b;
        y = yn; r++;
    }
}

/* the steep walk (|dx| <= dy): row by row, at most two cells a row, from (xs, top) to
 * (x_end, bot), top < bot; it stays inside the clip's columns (fbk_add_line ends it where the
 * line leaves them). (The statements are as they are for a reason: rewritten with row pointers
 * carried, or the selects nested, clang allocated the loop worse -- W7's walks 10-20 % slower.) */
FBK_WALK void fbk_walk_rows(const fbk_cells *C, I xa, I ya, I dx, I dyT, I dir, I adx, I xs, I top, I x_end,
                            I bot, I w) {
    const I oy = C->oy, stride = C->stride, words = C->words;
    I r = top >> 8, r_last = (bot - 1) >> 8;
    I c = dx > 0 ? xs >> 8 : fbk_min(xs >> 8, C->width - 1);
    I bnd = dx > 0 ? (c + 1) << 8 : c << 8;
    /* column sequence: Y(bnd) = ya + cq, cq + cr/adx = dyT * dist / adx, dist = dir * (bnd - xa) */
    I cn = dyT * (dir * (bnd - xa));
    I cq = cn / adx, cr = cn - cq * adx;
    /* the steps only when a second crossing can come (short lines are most of W6b's and
     * W7's: two divisions saved); without, a crossing moves yc past the end */
    I cq_s = 1ll << 40, cr_s = 0;
    if ((x_end - xs) * dir > 256) { cq_s = (dyT << 8) / adx; cr_s = (dyT << 8) - cq_s * adx; }
    I yc = ya + cq;
    /* row sequence: X(next row boundary) = xa + rq */
    I y = top, x_a = xs;
    I rq = 0, rr = 0, rq_s = 0, rr_s = 0;
    if (r < r_last) {
        I num = dx * ((r + 1) * 256 - ya);
        rq = fbk_floor_div(num, dyT); rr = num - rq * dyT;
        if (r + 1 < r_last) { rq_s = fbk_floor_div(dx * 256, dyT); rr_s = dx * 256 - rq_s * dyT; }   /* 3+ rows */
    }
    I cr_sm = cr_s - adx, rr_sm = rr_s - dyT;
    for (;;) {
        I last = r == r_last;
        I y1 = last ? bot : (r + 1) * 256;
        I x_b = last ? x_end : xa + rq;
        I has = yc < y1;
        I ym = has ? yc : y1, xm = has ? bnd : x_b;
        I c2 = has ? c + dir : c;
        /* piece 1: (x_a, y) -> (xm, ym) in cell c; piece 2: (xm, ym) -> (x_b, y1) in cell c2 */
        I row = r - oy, row_base = row * stride, bits_base = row * words;
        fbk_deposit(C, row_base, c, w * (ym - y), x_a + xm - (c << 9));
        fbk_deposit(C, row_base, c2, w * (y1 - ym), xm + x_b - (c2 << 9));
        I lo = fbk_min(c, c2), hi = fbk_max(c, c2) + 1;
        fbk_mark(C, bits_base, lo); fbk_mark(C, bits_base, hi);
        {   /* past a crossing: the next column boundary and its Y (selects, no branch) */
            I m = -has; c = c2; bnd += (dir * 256) & m;
            I ncr = cr + cr_sm; I k = ncr >= 0; I ncq = cq + cq_s + k; ncr = k ? ncr : ncr + adx;
            cr = has ? ncr : cr; cq = has ? ncq : cq; yc = ya + cq;
        }
        if (last) break;
        y = y1; x_a = x_b; r++;
        rr += rr_sm; I k = rr >= 0; rq += rq_s + k; rr = k ? rr : rr + dyT;
    }
}

/* the flat walk (|dx| > dy): column by column (c .. c_last), at most two rows a column, from
 * (xs, top) to (x_end, bot), top < bot */
FBK_WALK void fbk_walk_columns(const fbk_cells *C, I xa, I ya, I dx, I dyT, I dir, I adx, I xs, I top, I x_end,
                               I bot, I c_last, I w) {
    const I oy = C->oy, stride = C->stride, words = C->words;
    I c = dx > 0 ? xs >> 8 : (xs - 1) >> 8;
    I r = top >> 8;
    I yr = (r + 1) * 256;
    /* row sequence: X(yr) = xa + rq */
    I num = dx * (yr - ya);
    I rq = fbk_floor_div(num, dyT), rr = num - rq * dyT;
    I rq_s = 0, rr_s = 0;                 /* the steps only when a second crossing can come */
    if (bot - yr >= 256) { rq_s = fbk_floor_div(dx * 256, dyT); rr_s = dx * 256 - rq_s * dyT; }
    /* column sequence: Y at the column's far boundary = ya + cq */
    I bnd = dx > 0 ? (c + 1) << 8 : c << 8;
    I cn = dyT * (dir * (bnd - xa));
    I cq = cn / adx, cr = cn - cq * adx;
    I cq_s = 0, cr_s = 0;
    if ((c_last - c) * dir >= 2) { cq_s = (dyT << 8) / adx; cr_s = (dyT << 8) - cq_s * adx; }   /* 3+ columns */
    I ys = top;
    I cr_sm = cr_s - adx, rr_sm = rr_s - dyT;
    for (;;) {
        I last = c == c_last;
        I xe = last ? x_end : bnd, ye = last ? bot : ya + cq;
        I has = yr <= ye;
        I ym = has ? yr : ye, xm = has ? xa + rq : xe;
        /* piece 1: (xs, ys) -> (xm, ym) in row r; piece 2: (xm, ym) -> (xe, ye) in row r2 (row r
         * with height 0 when there is no crossing) */
        I r2 = r + (yr < ye && has);
        I row = r - oy, row2 = r2 - oy;
        fbk_deposit(C, row * stride, c, w * (ym - ys), xs + xm - (c << 9));
        fbk_deposit(C, row2 * stride, c, w * (ye - ym), xm + xe - (c << 9));
        fbk_mark(C, row * words, c); fbk_mark(C, row * words, c + 1);
        fbk_mark(C, row2 * words, c); fbk_mark(C, row2 * words, c + 1);
        {   /* past a crossing: the next row boundary and its X (selects, no branch) */
            r += has; yr += has << 8;
            I nrr = rr + rr_sm; I k = nrr >= 0; I nrq = rq + rq_s + k; nrr = k ? nrr : nrr + dyT;
            rr = has ? nrr : rr; rq = has ? nrq : rq;
        }
        if (last) break;
        xs = xe; ys = ye; c += dir; bnd += dir * 256;
        cr += cr_sm; I k = cr >= 0; cq += cq_s + k; cr = k ? cr : cr + adx;
    }
}

/* the column after which a flat walk ends at (ex, ey): the column holding ex, or -- when ex is
 * exactly on that column's far boundary but the line reaches that boundary above ey -- the next
 * one (the walk of the whole line crosses the boundary first and ends with a piece of width 0) */
static inline __attribute__((always_inline)) I fbk_last_column(I xa, I ya, I dy, I dir, I adx, I c0, I ex, I ey) {
    if (dir > 0) {
        I c_last = fbk_max(c0, (ex - 1) >> 8);
        if ((ex & 255) == 0 && (ex >> 8) == c_last + 1 && ya + (dy * (ex - xa)) / adx < ey) c_last++;
        return c_last;
    }
    /* going left there is no such case: ex <= X(ey) (a floor), so the line reaches ex at or below
     * ey -- Y(ex) >= ey */
    return fbk_min(c0, ex >> 8);
}

/* a line that reaches outside the clip's columns (fbk_add_line has oriented it, cut it to the
 * rows, made x relative and computed its X at the first and last visible rows) */
__attribute__((noinline))
static void fbk_add_line_clipped(const fbk_cells *b, I xa, I ya, I xb, I yb, I dx, I dy, I dir, I adx,
                                 I top, I bot, I sx, I ex, I w) {
    const I limit = b->width << 8;
    I sy = top, ey = bot;
    /* entering from outside the clip: start where the line crosses its edge */
    if (dir > 0) {
        if (xa < 0) {
            const I y_l = ya + (dy * (0 - xa)) / adx;
            if (y_l >= bot) { fbk_fold(b, top, bot, w); return; }
            if (y_l >= top) { fbk_fold(b, top, y_l, w); sx = 0; sy = y_l; }
        }
        if (sx >= limit) return;
    } else {
        if (xa > limit) {
            const I y_r = ya + (dy * (xa - limit)) / adx;
            if (y_r >= bot) return;
            if (y_r >= top) { sx = limit; sy = y_r; }
        }
        if (sx <= 0) { fbk_fold(b, sy, bot, w); return; }
    }
    /* leaving it: end where the line crosses the edge (x_out); the rest is dropped (right) or
     * folded into cell 0 (left) */
    I x_out = -1, fold_from = bot;
    if (dir > 0 && xb > limit) {
        const I y_r = ya + (dy * (limit - xa)) / adx;
        if (y_r < bot) { x_out = limit; ey = y_r; }
    } else if (dir < 0 && xb < 0) {
        const I y_l = ya + (dy * xa) / adx;
        if (y_l < bot) { x_out = 0; ey = y_l; fold_from = y_l; }
    }
    if (ey > sy) {
        if (adx <= dy) {
            /* a steep walk's last row ends at X(ey) when ey is a row boundary */
            if (x_out >= 0) ex = (ey & 255) == 0 ? xa + fbk_floor_div(dx * (ey - ya), dy) : x_out;
            fbk_walk_rows(b, xa, ya, dx, dy, dir, adx, sx, sy, ex, ey, w);
        } else {
            const I c0 = dir > 0 ? sx >> 8 : (sx - 1) >> 8;
            I c_last;
            if (x_out >= 0) { ex = x_out; c_last = dir > 0 ? b->width - 1 : 0; }
            else c_last = fbk_last_column(xa, ya, dy, dir, adx, c0, ex, ey);
            fbk_walk_columns(b, xa, ya, dx, dy, dir, adx, sx, sy, ex, ey, c_last, w);
        }
    }
    if (fold_from < bot) fbk_fold(b, fold_from, bot, w);
}

/* one line: the walks' fast paths (inside the clip's columns) into the lane queues when given
 * (rq, cq; the queue is walked when full), else at once */
static inline __attribute__((always_inline)) void fbk_line_q(const fbk_cells *b, I x0, I y0, I x1, I y1,
                                                             fbk_rows_lanes *rq, fbk_columns_lanes *cq) {
    if (y0 == y1) return;
    I xa = x0, ya = y0, xb = x1, yb = y1, w = 1;
    if (y0 > y1) { xa = x1; ya = y1; xb = x0; yb = y0; w = -1; }
    const I top = fbk_max(ya, b->y_min_sub), bot = fbk_min(yb, b->y_max_sub);
    if (top >= bot) return;
    if (fbk_min(xa, xb) >= b->x_max_sub) return;
    if (fbk_max(xa, xb) <= b->x_min_sub) { fbk_fold(b, top, bot, w); return; }
    xa -= b->x_min_sub; xb -= b->x_min_sub;
    if (xa == xb) { fbk_vertical(b, xa, top, bot, w); return; }
    const I dx = xb - xa, dy = yb - ya;
    const I dir = dx > 0 ? 1 : -1, adx = dx > 0 ? dx : -dx;
    const I sx = top == ya ? xa : xa + fbk_floor_div(dx * (top - ya), dy);
    const I ex = bot == yb ? xb : xa + fbk_floor_div(dx * (bot - ya), dy);
    if (fbk_min(xa, xb) < 0 || fbk_max(xa, xb) > (b->width << 8)) {
        fbk_add_line_clipped(b, xa, ya, xb, yb, dx, dy, dir, adx, top, bot, sx, ex, w);
        return;
    }
    if (adx <= dy) {
        if (rq && dy < FBK_LANE_EXTENT) {
            const int j = rq->n;
            rq->xa[j] = xa; rq->ya[j] = ya; rq->dx[j] = dx; rq->dy[j] = dy; rq->dir[j] = dir; rq->adx[j] = adx;
            rq->xs[j] = sx; rq->top[j] = top; rq->xe[j] = ex; rq->bot[j] = bot; rq->w[j] = w;
            if (++rq->n == 8) fbk_walk_rows_lanes_avx512(b, rq);
            return;
        }
        fbk_walk_rows(b, xa, ya, dx, dy, dir, adx, sx, top, ex, bot, w);
    } else {
        const I c0 = dir > 0 ? sx >> 8 : (sx - 1) >> 8;
        const I c_last = fbk_last_column(xa, ya, dy, dir, adx, c0, ex, bot);
        if (cq && adx < FBK_LANE_EXTENT) {
            const int j = cq->n;
            cq->xa[j] = xa; cq->ya[j] = ya; cq->dx[j] = dx; cq->dy[j] = dy; cq->dir[j] = dir; cq->adx[j] = adx;
            cq->xs[j] = sx; cq->top[j] = top; cq->xe[j] = ex; cq->bot[j] = bot; cq->cl[j] = c_last; cq->w[j] = w;
            if (++cq->n == 8) fbk_walk_columns_lanes_avx512(b, cq);
            return;
        }
        fbk_walk_columns(b, xa, ya, dx, dy, dir, adx, sx, top, ex, bot, c_last, w);
    }
}

static inline __attribute__((always_inline)) void fbk_line(const fbk_cells *b, I x0, I y0, I x1, I y1) {
    fbk_line_q(b, x0, y0, x1, y1, (fbk_rows_lanes *)0, (fbk_columns_lanes *)0);
}

void fbk_add_line(const fbk_cells *b, int64_t x0, int64_t y0, int64_t x1, int64_t y1) {
    fbk_line(b, x0, y0, x1, y1);
}

int fbk_cpu_lane_walk_state = -1;
int fbk_cpu_has_lane_walk(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_cpu_init();
    return fbk_cpu_avx512_allowed() && __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl");
#else
    return 0;
#endif
}

void fbk_add_contours(const fbk_cells *b, const int32_t *points, const int32_t *ends, intptr_t contours) {
    fbk_add_contours_with(b, points, ends, contours, fbk_cpu_lane_walk_cached());
}

/* what is left in the queues when a shape ends: lane walks when they are full enough to pay */
static void fbk_flush_lanes(const fbk_cells *b, fbk_rows_lanes *rq, fbk_columns_lanes *cq) {
    if (rq->n >= FBK_LANE_MIN) {
        fbk_walk_rows_lanes_avx512(b, rq);
    } else {
        for (int j = 0; j < rq->n; j++)
            fbk_walk_rows(b, rq->xa[j], rq->ya[j], rq->dx[j], rq->dy[j], rq->dir[j], rq->adx[j], rq->xs[j], rq->top[j],
                          rq->xe[j], rq->bot[j], rq->w[j]);
        rq->n = 0;
    }
    if (cq->n >= FBK_LANE_MIN) {
        fbk_walk_columns_lanes_avx512(b, cq);
    } else {
        for (int j = 0; j < cq->n; j++)
            fbk_walk_columns(b, cq->xa[j], cq->ya[j], cq->dx[j], cq->dy[j], cq->dir[j], cq->adx[j], cq->xs[j], cq->top[j],
                             cq->xe[j], cq->bot[j], cq->cl[j], cq->w[j]);
        cq->n = 0;
    }
}

void fbk_line_lanes(const fbk_cells *b, int64_t x0, int64_t y0, int64_t x1, int64_t y1,
                    fbk_rows_lanes *rq, fbk_columns_lanes *cq) {
    fbk_line_q(b, x0, y0, x1, y1, rq, cq);
}

void fbk_add_contours_with(const fbk_cells *b, const int32_t *points, const int32_t *ends, intptr_t contours, int lanes) {
#if !(defined(__x86_64__) || defined(__i386__))
    lanes = 0;                          /* no lane walks built here: the scalar walks */
#endif
    if (lanes) {
        fbk_rows_lanes rows; fbk_columns_lanes columns;
        rows.n = 0; columns.n = 0;
        fbk_add_contours_lanes_avx512(b, points, ends, contours, &rows, &columns);
        fbk_flush_lanes(b, &rows, &columns);
        return;
    }
    /* an edge with both ends at or above the buffer's first sub-row, or both at or below its
     * end, adds nothing: skipped here (most edges of a shape miss most of the bands it meets) */
    const I y_lo = b->y_min_sub, y_hi = b->y_max_sub;
    I start = 0;
    for (intptr_t k = 0; k < contours; k++) {
        const I end = ends[k];
        if (end > start) {
            const I sx = points[2 * start], sy = points[2 * start + 1];
            I cx = sx, cy = sy;
            for (I i = start + 1; i <= end; i++) {
                const I x = i < end ? points[2 * i] : sx, y = i < end ? points[2 * i + 1] : sy;
                if (!((y <= y_lo && cy <= y_lo) || (y >= y_hi && cy >= y_hi))) fbk_line(b, cx, cy, x, y);
                cx = x; cy = y;
            }
        }
        start = end;
    }
}

void fbk_add_polygon(const fbk_cells *b, const int32_t *points, intptr_t n) {
    const int32_t end = (int32_t)n;
    fbk_add_contours(b, points, &end, 1);
}

/* fbk_fixed_points (flipbook_kernels.h): PathRasterizer._fixed per coordinate -- v * 256, then
 * s < lim ? s : lim (NaN -> lim), s > -lim ? s : -lim, then the truncation of s + 2^30 + 1/2
 * (positive: a floor) minus 2^30. Plain C: no contraction is possible (a multiply, then
 * compares, then one add). The bounds follow Swift.min / Swift.max (y < x ? y : x and
 * y >= x ? y : x) point after point. */
static inline int32_t fbk_fixed1(double v) {
    const double lim = 536870912.0;            /* 2^29 */
    double s = v * 256;
    s = s < lim ? s : lim;
    s = s > -lim ? s : -lim;
    return (int32_t)((int64_t)(s + 1073741824.5) - 1073741824);
}

int fbk_fixed_points_avx512(const double *xy, intptr_t n, int reversed, int32_t *out, double *bounds, intptr_t *done);

int fbk_fixed_points(const double *xy, intptr_t n, int reversed, int32_t *out, double *bounds) {
    int finite = 1;
    intptr_t k0 = 0;
#if FBK_X86
    /* four points a block with AVX-512 (cell_walk_avx512.c); the rest here */
    if (n >= 4 && fbk_cpu_lane_walk_cached()) finite = fbk_fixed_points_avx512(xy, n, reversed, out, bounds, &k0);
#endif
    double x0 = bounds[0], y0 = bounds[1], x1 = bounds[2], y1 = bounds[3];
    for (intptr_t k = k0; k < n; k++) {
        const intptr_t i = reversed ? n - 1 - k : k;
        const double x = xy[2 * i], y = xy[2 * i + 1];
        finite &= (x - x == 0) & (y - y == 0);     /* false for NaN and +-infinity */
        x0 = x < x0 ? x : x0; y0 = y < y0 ? y : y0;
        x1 = x >= x1 ? x : x1; y1 = y >= y1 ? y : y1;
        out[2 * k] = fbk_fixed1(x); out[2 * k + 1] = fbk_fixed1(y);
    }
    bounds[0] = x0; bounds[1] = y0; bounds[2] = x1; bounds[3] = y1;
    return finite;
}
