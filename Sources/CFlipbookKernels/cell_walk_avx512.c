/*
 * cell_walk_avx512.c -- the line walks of cell_walk.c eight lines at a time, one line per
 * 64-bit lane of an AVX-512 register (AVX-512 F, BW, DQ, VL; fbk_cpu_lane_walk() says when).
 *
 * Why: the scalar walk's step is a dozen dependent selects and sums over ~28 live values, more
 * than x86's 16 registers hold, and half of W7's walk time was per-line set-up (four integer
 * divisions) and the loop exits of lines four steps long. Eight lines in lanes keep every value
 * in one of 32 vector registers, share the set-up and the loop, and divide in doubles.
 *
 * Same integers as the scalar walks (fbk_walk_rows, fbk_walk_columns), so the same cells:
 *  - every step computes the values the scalar step computes, lane by lane, with selects
 *    (masks) where the scalar code has ternaries, for the lanes still walking (`act`);
 *  - a quotient floor(n / d) (d > 0) comes from the double division rounded down, then one
 *    correction step either way so that 0 <= n - q*d < d: doubles hold n and d exactly below
 *    2^53, the rounded quotient is then within one of the true one (the lines queued here have
 *    extents below 2^22 sub-pixels: every numerator is below 2^46);
 *  - the step quotients the scalar walk computes only for lines long enough to use them are
 *    computed for every lane (a line too short never reaches the step that uses them; the Swift
 *    walk, the reference, computes them always too);
 *  - the deposits are then added by scalar code, lane after lane, in a fixed order: integer
 *    addition (wrapping int32, as fbk_add) makes the order irrelevant, and two lanes touching
 *    the same cells in one step simply add one after the other.
 * A steep step's two pieces touch at most three neighbouring cells, base = min(c, c2):
 *     c2 == c:      [b1 + b2, a1 + a2, 0]
 *     c2 == c + 1:  [b1, a1 + b2, a2]
 *     c2 == c - 1:  [b2, a2 + b1, a1]          (a = h*f, b = h*512 - a = h*(512 - f))
 * added as one 16-byte load-add-store (the fourth cell gets 0: the buffer has slack cells
 * after its last row, PathRasterizer's allocation). A flat step's pieces are in row r and
 * (after a row crossing) row r + 1, two cells each: one 8-byte add per row. The bitmap bits
 * are those of the scalar walk (lo and hi cell of a steep step; c and c + 1 of each row of a
 * flat step), ORed per word.
 *
 * The twin test (CellWalkLanesTests) compares the cells and bitmaps of fbk_add_contours_with
 * with lanes on and off, over random and hostile lines.
 */
#include "cell_walk_lanes.h"
#include "fbk_avx2.h"
#include <math.h>

#if FBK_X86
#define FBK_LANES __attribute__((target("avx512f,avx512bw,avx512dq,avx512vl,avx2")))
#define FBK_LANES_INLINE __attribute__((target("avx512f,avx512bw,avx512dq,avx512vl,avx2"), always_inline)) static inline

/* after a walk of the first 8 lines (or all, when fewer): the rest to the front, field by
 * field (each an int64_t[16]) */
FBK_LANES_INLINE void fbk_shift8(int64_t *f) { _mm512_storeu_si512(f, _mm512_loadu_si512(f + 8)); }
#define FBK_LANES_SHIFT_ROWS(q) do {                                                             \
        if ((q)->n > 8) {                                                                        \
            fbk_shift8((q)->xa); fbk_shift8((q)->ya); fbk_shift8((q)->dx); fbk_shift8((q)->dy);  \
            fbk_shift8((q)->dir); fbk_shift8((q)->adx); fbk_shift8((q)->xs); fbk_shift8((q)->top); \
            fbk_shift8((q)->xe); fbk_shift8((q)->bot); fbk_shift8((q)->w);                       \
            (q)->n -= 8;                                                                         \
        } else {                                                                                 \
            (q)->n = 0;                                                                          \
        }                                                                                        \
    } while (0)
#define FBK_LANES_SHIFT_COLUMNS(q) do {                                                          \
        if ((q)->n > 8) fbk_shift8((q)->cl);                                                     \
        FBK_LANES_SHIFT_ROWS(q);                                                                 \
    } while (0)

/* floor(n / d) for 0 < d, |n| < 2^52, with n - q*d in [0, d) */
FBK_LANES_INLINE __m512i fbk_v_floordiv(__m512i n, __m512i d, __m512i *rem) {
    __m512d q = _mm512_div_pd(_mm512_cvtepi64_pd(n), _mm512_cvtepi64_pd(d));
    __m512i qi = _mm512_cvtpd_epi64(_mm512_roundscale_pd(q, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC));
    __m512i r = _mm512_sub_epi64(n, _mm512_mullo_epi64(qi, d));
    __mmask8 lo = _mm512_cmplt_epi64_mask(r, _mm512_setzero_si512());
    qi = _mm512_mask_sub_epi64(qi, lo, qi, _mm512_set1_epi64(1)); r = _mm512_mask_add_epi64(r, lo, r, d);
    __mmask8 hi = _mm512_cmpge_epi64_mask(r, d);
    qi = _mm512_mask_add_epi64(qi, hi, qi, _mm512_set1_epi64(1)); r = _mm512_mask_sub_epi64(r, hi, r, d);
    *rem = r;
    return qi;
}

FBK_LANES void fbk_walk_rows_lanes_avx512(const fbk_cells *C, fbk_rows_lanes *q) {
    const __m512i zero = _mm512_setzero_si512(), one = _mm512_set1_epi64(1);
    const int m = q->n < 8 ? q->n : 8;
    __mmask8 act = (__mmask8)((1u << m) - 1u);
    /* lanes past m: a harmless one-row line (their values are masked off) */
    for (int j = m; j < 8; j++) { q->xa[j] = 0; q->ya[j] = C->y_min_sub; q->dx[j] = 1; q->dy[j] = 256; q->dir[j] = 1; q->adx[j] = 1;
        q->xs[j] = 0; q->top[j] = C->y_min_sub; q->xe[j] = 0; q->bot[j] = C->y_min_sub + 1; q->w[j] = 1; }
    const __m512i xa = _mm512_loadu_si512(q->xa), ya = _mm512_loadu_si512(q->ya), dx = _mm512_loadu_si512(q->dx);
    const __m512i dyT = _mm512_loadu_si512(q->dy), dir = _mm512_loadu_si512(q->dir), adx = _mm512_loadu_si512(q->adx);
    const __m512i xs = _mm512_loadu_si512(q->xs), top = _mm512_loadu_si512(q->top), x_end = _mm512_loadu_si512(q->xe);
    const __m512i bot = _mm512_loadu_si512(q->bot);
    const __mmask8 neg = _mm512_cmplt_epi64_mask(_mm512_loadu_si512(q->w), zero);
    const __mmask8 right = _mm512_cmpgt_epi64_mask(dx, zero);
    __m512i r = _mm512_srai_epi64(top, 8), r_last = _mm512_srai_epi64(_mm512_sub_epi64(bot, one), 8);
    __m512i c = _mm512_srai_epi64(xs, 8);
    c = _mm512_mask_min_epi64(c, (__mmask8)~right, c, _mm512_set1_epi64(C->width - 1));
    __m512i bnd = _mm512_slli_epi64(_mm512_mask_add_epi64(c, right, c, one), 8);
    /* column sequence: cn = dyT * |bnd - xa|, cq = cn / adx */
    __m512i cr, cq = fbk_v_floordiv(_mm512_mullo_epi64(dyT, _mm512_abs_epi64(_mm512_sub_epi64(bnd, xa))), adx, &cr);
    __m512i cr_s, cq_s = fbk_v_floordiv(_mm512_slli_epi64(dyT, 8), adx, &cr_s);
    __m512i yc = _mm512_add_epi64(ya, cq);
    __m512i y = top, x_a = xs;
    __m512i rr, rq = fbk_v_floordiv(_mm512_mullo_epi64(dx, _mm512_sub_epi64(_mm512_slli_epi64(_mm512_add_epi64(r, one), 8), ya)), dyT, &rr);
    __m512i rr_s, rq_s = fbk_v_floordiv(_mm512_slli_epi64(dx, 8), dyT, &rr_s);
    const __m512i cr_sm = _mm512_sub_epi64(cr_s, adx), rr_sm = _mm512_sub_epi64(rr_s, dyT);
    const __m512i dir256 = _mm512_slli_epi64(dir, 8);
    const __m512i vstride = _mm512_set1_epi64(C->stride), vwords = _mm512_set1_epi64(C->words);
    __m512i rel = _mm512_sub_epi64(r, _mm512_set1_epi64(C->oy));
    __m512i row_base = _mm512_mullo_epi64(rel, vstride), bits_base = _mm512_mullo_epi64(rel, vwords);
    const __m512i c63 = _mm512_set1_epi64(63);
    int32_t *acc = C->acc; uint64_t *bits = C->bits;
    __attribute__((aligned(64))) int64_t idx[8], wlo[8], whi[8];
    __attribute__((aligned(64))) uint64_t mlo[8], mhi[8];
    __attribute__((aligned(64))) int32_t win[32];
    for (;;) {
        const __mmask8 last = _mm512_cmpeq_epi64_mask(r, r_last);
        const __m512i y1 = _mm512_mask_mov_epi64(_mm512_slli_epi64(_mm512_add_epi64(r, one), 8), last, bot);
        const __m512i x_b = _mm512_mask_mov_epi64(_mm512_add_epi64(xa, rq), last, x_end);
        const __mmask8 has = _mm512_cmplt_epi64_mask(yc, y1);
        const __m512i ym = _mm512_mask_mov_epi64(y1, has, yc), xm = _mm512_mask_mov_epi64(x_b, has, bnd);
        const __m512i c2 = _mm512_mask_add_epi64(c, has, c, dir);
        __m512i h1 = _mm512_sub_epi64(ym, y), h2 = _mm512_sub_epi64(y1, ym);
        h1 = _mm512_mask_sub_epi64(h1, neg, zero, h1); h2 = _mm512_mask_sub_epi64(h2, neg, zero, h2);
        const __m512i f1 = _mm512_sub_epi64(_mm512_add_epi64(x_a, xm), _mm512_slli_epi64(c, 9));
        const __m512i f2 = _mm512_sub_epi64(_mm512_add_epi64(xm, x_b), _mm512_slli_epi64(c2, 9));
        const __m512i a1 = _mm512_mul_epi32(h1, f1), b1 = _mm512_sub_epi64(_mm512_slli_epi64(h1, 9), a1);
        const __m512i a2 = _mm512_mul_epi32(h2, f2), b2 = _mm512_sub_epi64(_mm512_slli_epi64(h2, 9), a2);
        /* the three cells from base = min(c, c2): c2 == c: [b1+b2, a1+a2, 0]; c2 == c+1:
         * [b1, a1+b2, a2]; c2 == c-1: [b2, a2+b1, a1] */
        const __mmask8 up = _mm512_cmpgt_epi64_mask(c2, c), down = _mm512_cmplt_epi64_mask(c2, c);
        __m512i v0 = _mm512_add_epi64(b1, b2), v1 = _mm512_add_epi64(a1, a2), v2 = zero;
        v0 = _mm512_mask_mov_epi64(v0, up, b1); v0 = _mm512_mask_mov_epi64(v0, down, b2);
        v1 = _mm512_mask_add_epi64(v1, up, a1, b2); v1 = _mm512_mask_add_epi64(v1, down, a2, b1);
        v2 = _mm512_mask_mov_epi64(v2, up, a2); v2 = _mm512_mask_mov_epi64(v2, down, a1);
        const __m512i lo = _mm512_min_epi64(c, c2), hi = _mm512_add_epi64(_mm512_max_epi64(c, c2), one);
        /* inactive lanes: nothing at cell 0 of row 0 */
        _mm512_store_si512(idx, _mm512_maskz_add_epi64(act, row_base, lo));
        const __m256i n0 = _mm512_maskz_cvtepi64_epi32(act, v0), n1 = _mm512_maskz_cvtepi64_epi32(act, v1);
        const __m256i n2 = _mm512_maskz_cvtepi64_epi32(act, v2), nz = _mm256_setzero_si256();
        const __m256i t0 = _mm256_unpacklo_epi32(n0, n1), t1 = _mm256_unpackhi_epi32(n0, n1);
        const __m256i t2 = _mm256_unpacklo_epi32(n2, nz), t3 = _mm256_unpackhi_epi32(n2, nz);
        _mm256_store_si256((__m256i *)(win + 0), _mm256_unpacklo_epi64(t0, t2));   /* lanes 0, 4 */
        _mm256_store_si256((__m256i *)(win + 8), _mm256_unpackhi_epi64(t0, t2));   /* lanes 1, 5 */
        _mm256_store_si256((__m256i *)(win + 16), _mm256_unpacklo_epi64(t1, t3));  /* lanes 2, 6 */
        _mm256_store_si256((__m256i *)(win + 24), _mm256_unpackhi_epi64(t1, t3));  /* lanes 3, 7 */
        const __m512i wl = _mm512_add_epi64(bits_base, _mm512_srai_epi64(lo, 9)), wh = _mm512_add_epi64(bits_base, _mm512_srai_epi64(hi, 9));
        __m512i ml = _mm512_sllv_epi64(one, _mm512_and_si512(_mm512_srai_epi64(lo, 3), c63));
        __m512i mh = _mm512_sllv_epi64(one, _mm512_and_si512(_mm512_srai_epi64(hi, 3), c63));
        const __mmask8 same = _mm512_cmpeq_epi64_mask(wl, wh);
        ml = _mm512_mask_or_epi64(ml, same, ml, mh); mh = _mm512_maskz_mov_epi64((__mmask8)(act & ~same), mh);
        ml = _mm512_maskz_mov_epi64(act, ml);
        _mm512_store_si512(wlo, _mm512_maskz_mov_epi64(act, wl)); _mm512_store_si512(mlo, ml);
        #pragma clang loop unroll(full)
        for (int j = 0; j < 8; j++) {
            int32_t *p = acc + idx[j];
            const __m128i v = _mm_load_si128((const __m128i *)(win + 8 * (j & 3) + 4 * (j >> 2)));
            _mm_storeu_si128((__m128i *)p, _mm_add_epi32(_mm_loadu_si128((const __m128i *)p), v));
            bits[wlo[j]] |= mlo[j];
        }
        if ((__mmask8)(act & ~same)) {
            _mm512_store_si512(whi, _mm512_maskz_mov_epi64(act, wh)); _mm512_store_si512(mhi, mh);
            for (int j = 0; j < 8; j++) bits[whi[j]] |= mhi[j];
        }
        act = (__mmask8)(act & ~last);
        if (!act) break;
        {   /* past a crossing: the next column boundary and its Y */
            __m512i ncr = _mm512_add_epi64(cr, cr_sm);
            const __mmask8 k = _mm512_cmpge_epi64_mask(ncr, zero);
            __m512i ncq = _mm512_mask_add_epi64(_mm512_add_epi64(cq, cq_s), k, _mm512_add_epi64(cq, cq_s), one);
            ncr = _mm512_mask_add_epi64(ncr, (__mmask8)~k, ncr, adx);
            cr = _mm512_mask_mov_epi64(cr, has, ncr); cq = _mm512_mask_mov_epi64(cq, has, ncq);
            yc = _mm512_add_epi64(ya, cq);
            bnd = _mm512_mask_add_epi64(bnd, has, bnd, dir256);
            c = c2;
        }
        y = y1; x_a = x_b; r = _mm512_add_epi64(r, one);
        row_base = _mm512_add_epi64(row_base, vstride); bits_base = _mm512_add_epi64(bits_base, vwords);
        {
            rr = _mm512_add_epi64(rr, rr_sm);
            const __mmask8 k = _mm512_cmpge_epi64_mask(rr, zero);
            rq = _mm512_add_epi64(rq, rq_s); rq = _mm512_mask_add_epi64(rq, k, rq, one);
            rr = _mm512_mask_add_epi64(rr, (__mmask8)~k, rr, dyT);
        }
    }
    FBK_LANES_SHIFT_ROWS(q);
}

FBK_LANES void fbk_walk_columns_lanes_avx512(const fbk_cells *C, fbk_columns_lanes *q) {
    const __m512i zero = _mm512_setzero_si512(), one = _mm512_set1_epi64(1);
    const int m = q->n < 8 ? q->n : 8;
    __mmask8 act = (__mmask8)((1u << m) - 1u);
    for (int j = m; j < 8; j++) { q->xa[j] = 0; q->ya[j] = C->y_min_sub; q->dx[j] = 2; q->dy[j] = 1; q->dir[j] = 1; q->adx[j] = 2;
        q->xs[j] = 0; q->top[j] = C->y_min_sub; q->xe[j] = 2; q->bot[j] = C->y_min_sub + 1; q->cl[j] = 0; q->w[j] = 1; }
    const __m512i xa = _mm512_loadu_si512(q->xa), ya = _mm512_loadu_si512(q->ya), dx = _mm512_loadu_si512(q->dx);
    const __m512i dyT = _mm512_loadu_si512(q->dy), dir = _mm512_loadu_si512(q->dir), adx = _mm512_loadu_si512(q->adx);
    const __m512i top = _mm512_loadu_si512(q->top), x_end = _mm512_loadu_si512(q->xe);
    const __m512i bot = _mm512_loadu_si512(q->bot), c_last = _mm512_loadu_si512(q->cl);
    __m512i xs = _mm512_loadu_si512(q->xs);
    const __mmask8 neg = _mm512_cmplt_epi64_mask(_mm512_loadu_si512(q->w), zero);
    const __mmask8 right = _mm512_cmpgt_epi64_mask(dx, zero);
    __m512i c = _mm512_srai_epi64(_mm512_mask_sub_epi64(xs, (__mmask8)~right, xs, one), 8);
    __m512i r = _mm512_srai_epi64(top, 8);
    __m512i yr = _mm512_slli_epi64(_mm512_add_epi64(r, one), 8);
    __m512i rr, rq = fbk_v_floordiv(_mm512_mullo_epi64(dx, _mm512_sub_epi64(yr, ya)), dyT, &rr);
    __m512i rr_s, rq_s = fbk_v_floordiv(_mm512_slli_epi64(dx, 8), dyT, &rr_s);
    __m512i bnd = _mm512_slli_epi64(_mm512_mask_add_epi64(c, right, c, one), 8);
    __m512i cr, cq = fbk_v_floordiv(_mm512_mullo_epi64(dyT, _mm512_abs_epi64(_mm512_sub_epi64(bnd, xa))), adx, &cr);
    __m512i cr_s, cq_s = fbk_v_floordiv(_mm512_slli_epi64(dyT, 8), adx, &cr_s);
    __m512i ys = top;
    const __m512i cr_sm = _mm512_sub_epi64(cr_s, adx), rr_sm = _mm512_sub_epi64(rr_s, dyT);
    const __m512i dir256 = _mm512_slli_epi64(dir, 8);
    const __m512i vstride = _mm512_set1_epi64(C->stride), vwords = _mm512_set1_epi64(C->words), voy = _mm512_set1_epi64(C->oy);
    const __m512i c63 = _mm512_set1_epi64(63);
    int32_t *acc = C->acc; uint64_t *bits = C->bits;
    __attribute__((aligned(64))) int64_t i1[8], i2[8], w1[8], w2[8], w3[8], w4[8];
    __attribute__((aligned(64))) uint64_t m1[8], m2[8], m3[8], m4[8];
    __attribute__((aligned(64))) int32_t d1[16], d2[16];    /* lane j's cell pair at 2j */
    for (;;) {
        const __mmask8 last = _mm512_cmpeq_epi64_mask(c, c_last);
        const __m512i xe = _mm512_mask_mov_epi64(bnd, last, x_end), ye = _mm512_mask_mov_epi64(_mm512_add_epi64(ya, cq), last, bot);
        const __mmask8 has = _mm512_cmple_epi64_mask(yr, ye);
        const __m512i ym = _mm512_mask_mov_epi64(ye, has, yr), xm = _mm512_mask_mov_epi64(xe, has, _mm512_add_epi64(xa, rq));
        const __mmask8 down = has & _mm512_cmplt_epi64_mask(yr, ye);      /* r2 = r + 1 */
        __m512i h1 = _mm512_sub_epi64(ym, ys), h2 = _mm512_sub_epi64(ye, ym);
        h1 = _mm512_mask_sub_epi64(h1, neg, zero, h1); h2 = _mm512_mask_sub_epi64(h2, neg, zero, h2);
        const __m512i c9 = _mm512_slli_epi64(c, 9);
        const __m512i f1 = _mm512_sub_epi64(_mm512_add_epi64(xs, xm), c9), f2 = _mm512_sub_epi64(_mm512_add_epi64(xm, xe), c9);
        const __m512i a1 = _mm512_mul_epi32(h1, f1), b1 = _mm512_sub_epi64(_mm512_slli_epi64(h1, 9), a1);
        const __m512i a2 = _mm512_mul_epi32(h2, f2), b2 = _mm512_sub_epi64(_mm512_slli_epi64(h2, 9), a2);
        /* piece 2 has height 0 unless it lies in the next row (no crossing: ym = ye; a crossing
         * at the end: ym = yr = ye): only then is it added */
        const __m512i u0 = b1, u1 = a1;
        const __m512i v0 = _mm512_maskz_mov_epi64((__mmask8)(act & down), b2), v1 = _mm512_maskz_mov_epi64((__mmask8)(act & down), a2);
        const __m512i rowb = _mm512_mullo_epi64(_mm512_sub_epi64(r, voy), vstride);
        const __m512i bitb = _mm512_mullo_epi64(_mm512_sub_epi64(r, voy), vwords);
        const __m512i idx1 = _mm512_maskz_add_epi64(act, rowb, c);
        _mm512_store_si512(i1, idx1);
        _mm512_store_si512(i2, _mm512_mask_add_epi64(idx1, (__mmask8)(act & down), idx1, vstride));
        /* (lo, hi) int32 pairs per lane */
        /* lane j's two cells as one 64-bit value (low: cell c) at d1 + 2j */
        const __m512i lo32 = _mm512_set1_epi64(0xFFFFFFFFll);
        _mm512_store_si512(d1, _mm512_maskz_or_epi64(act, _mm512_and_si512(u0, lo32), _mm512_slli_epi64(u1, 32)));
        _mm512_store_si512(d2, _mm512_or_si512(_mm512_and_si512(v0, lo32), _mm512_slli_epi64(v1, 32)));
        /* marks: c and c + 1 in row r, and in row r + 1 when piece 2 is there */
        const __m512i c1 = _mm512_add_epi64(c, one);
        const __m512i wa = _mm512_add_epi64(bitb, _mm512_srai_epi64(c, 9)), wb = _mm512_add_epi64(bitb, _mm512_srai_epi64(c1, 9));
        const __m512i ma = _mm512_sllv_epi64(one, _mm512_and_si512(_mm512_srai_epi64(c, 3), c63));
        const __m512i mb = _mm512_sllv_epi64(one, _mm512_and_si512(_mm512_srai_epi64(c1, 3), c63));
        const __mmask8 sw = _mm512_cmpeq_epi64_mask(wa, wb);
        const __m512i mab = _mm512_maskz_mov_epi64(act, _mm512_mask_or_epi64(ma, sw, ma, mb));
        const __mmask8 dn = (__mmask8)(act & down);
        _mm512_store_si512(w1, _mm512_maskz_mov_epi64(act, wa)); _mm512_store_si512(m1, mab);
        _mm512_store_si512(w3, _mm512_maskz_add_epi64(dn, wa, vwords)); _mm512_store_si512(m3, _mm512_maskz_mov_epi64(dn, mab));
        #pragma clang loop unroll(full)
        for (int j = 0; j < 8; j++) {
            int32_t *p = acc + i1[j];
            __m128i x = _mm_loadl_epi64((const __m128i *)p);
            _mm_storel_epi64((__m128i *)p, _mm_add_epi32(x, _mm_loadl_epi64((const __m128i *)(d1 + 2 * j))));
            bits[w1[j]] |= m1[j];
        }
        /* piece 2, in the next row: the lanes that cross one */
        for (unsigned m = (unsigned)dn; m; m &= m - 1) {
            const int j = __builtin_ctz(m);
            int32_t *p2 = acc + i2[j];
            __m128i x2 = _mm_loadl_epi64((const __m128i *)p2);
            _mm_storel_epi64((__m128i *)p2, _mm_add_epi32(x2, _mm_loadl_epi64((const __m128i *)(d2 + 2 * j))));
            bits[w3[j]] |= m3[j];
        }
        const __mmask8 split = (__mmask8)(act & ~sw);
        if (split) {
            _mm512_store_si512(w2, _mm512_maskz_mov_epi64(split, wb)); _mm512_store_si512(m2, _mm512_maskz_mov_epi64(split, mb));
            _mm512_store_si512(w4, _mm512_maskz_add_epi64((__mmask8)(split & down), wb, vwords));
            _mm512_store_si512(m4, _mm512_maskz_mov_epi64((__mmask8)(split & down), mb));
            for (int j = 0; j < 8; j++) { bits[w2[j]] |= m2[j]; bits[w4[j]] |= m4[j]; }
        }
        {   /* past a crossing: the next row boundary and its X */
            r = _mm512_mask_add_epi64(r, has, r, one); yr = _mm512_mask_add_epi64(yr, has, yr, _mm512_set1_epi64(256));
            __m512i nrr = _mm512_add_epi64(rr, rr_sm);
            const __mmask8 k = _mm512_cmpge_epi64_mask(nrr, zero);
            __m512i nrq = _mm512_add_epi64(rq, rq_s); nrq = _mm512_mask_add_epi64(nrq, k, nrq, one);
            nrr = _mm512_mask_add_epi64(nrr, (__mmask8)~k, nrr, dyT);
            rr = _mm512_mask_mov_epi64(rr, has, nrr); rq = _mm512_mask_mov_epi64(rq, has, nrq);
        }
        act = (__mmask8)(act & ~last);
        if (!act) break;
        xs = xe; ys = ye; c = _mm512_add_epi64(c, dir); bnd = _mm512_add_epi64(bnd, dir256);
        {
            cr = _mm512_add_epi64(cr, cr_sm);
            const __mmask8 k = _mm512_cmpge_epi64_mask(cr, zero);
            cq = _mm512_add_epi64(cq, cq_s); cq = _mm512_mask_add_epi64(cq, k, cq, one);
            cr = _mm512_mask_add_epi64(cr, (__mmask8)~k, cr, adx);
        }
    }
    FBK_LANES_SHIFT_COLUMNS(q);
}

/* Appends the lanes `m` of the vectors to a queue's arrays at q->n (register compress, then a
 * plain 8-lane store: a compress straight to memory is slow on some cores). */
FBK_LANES_INLINE void fbk_append(int64_t *field, int n, __mmask8 m, __m512i v) {
    _mm512_storeu_si512(field + n, _mm512_maskz_compress_epi64(m, v));
}

FBK_LANES void fbk_add_contours_lanes_avx512(const fbk_cells *b, const int32_t *points, const int32_t *ends,
                                             intptr_t contours, fbk_rows_lanes *rq, fbk_columns_lanes *cq) {
    const __m512i zero = _mm512_setzero_si512(), one = _mm512_set1_epi64(1), minus1 = _mm512_set1_epi64(-1);
    const __m512i ylo = _mm512_set1_epi64(b->y_min_sub), yhi = _mm512_set1_epi64(b->y_max_sub);
    const __m512i xmin = _mm512_set1_epi64(b->x_min_sub), xmax = _mm512_set1_epi64(b->x_max_sub);
    const __m512i limit = _mm512_set1_epi64((int64_t)b->width << 8), extent = _mm512_set1_epi64(FBK_LANE_EXTENT);
    const __m512i c255 = _mm512_set1_epi64(255);
    /* (x, y) pairs -> x in the low 8 dwords, y in the high 8 */
    const __m512i deint = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 1, 3, 5, 7, 9, 11, 13, 15);
    __attribute__((aligned(64))) int64_t sx0[8], sy0[8], sx1[8], sy1[8];
    int64_t start = 0;
    for (intptr_t k = 0; k < contours; k++) {
        const int64_t end = ends[k];
        int64_t j = start;
        /* edges j .. j + 7 (point i -> point i + 1), all inside the contour */
        for (; j + 8 < end; j += 8) {
            const __m512i d0 = _mm512_permutexvar_epi32(deint, _mm512_loadu_si512(points + 2 * j));
            const __m512i d1 = _mm512_permutexvar_epi32(deint, _mm512_loadu_si512(points + 2 * j + 2));
            const __m512i x0 = _mm512_cvtepi32_epi64(_mm512_castsi512_si256(d0)), y0 = _mm512_cvtepi32_epi64(_mm512_extracti64x4_epi64(d0, 1));
            const __m512i x1 = _mm512_cvtepi32_epi64(_mm512_castsi512_si256(d1)), y1 = _mm512_cvtepi32_epi64(_mm512_extracti64x4_epi64(d1, 1));
            /* fbk_add_contours' test (wholly above or below the rows) and fbk_line's (horizontal) */
            const __mmask8 above = _mm512_cmple_epi64_mask(y0, ylo) & _mm512_cmple_epi64_mask(y1, ylo);
            const __mmask8 below = _mm512_cmpge_epi64_mask(y0, yhi) & _mm512_cmpge_epi64_mask(y1, yhi);
            __mmask8 valid = (__mmask8)(~(above | below) & _mm512_cmpneq_epi64_mask(y0, y1));
            if (!valid) continue;
            /* fbk_line: oriented downwards (w = -1 when the edge goes up), cut to the rows */
            const __mmask8 up = _mm512_cmpgt_epi64_mask(y0, y1);
            __m512i xa = _mm512_mask_mov_epi64(x0, up, x1), xb = _mm512_mask_mov_epi64(x1, up, x0);
            const __m512i ya = _mm512_min_epi64(y0, y1), yb = _mm512_max_epi64(y0, y1);
            const __m512i w = _mm512_mask_mov_epi64(one, up, minus1);
            const __m512i top = _mm512_max_epi64(ya, ylo), bot = _mm512_min_epi64(yb, yhi);
            valid &= _mm512_cmplt_epi64_mask(top, bot);
            const __m512i lo = _mm512_min_epi64(xa, xb), hi = _mm512_max_epi64(xa, xb);
            valid &= _mm512_cmplt_epi64_mask(lo, xmax);                 /* right of the clip: nothing */
            /* left of the clip (folded), vertical: the scalar code */
            __mmask8 scalar = valid & (_mm512_cmple_epi64_mask(hi, xmin) | _mm512_cmpeq_epi64_mask(xa, xb));
            xa = _mm512_sub_epi64(xa, xmin); xb = _mm512_sub_epi64(xb, xmin);
            const __m512i dx = _mm512_sub_epi64(xb, xa), dy = _mm512_sub_epi64(yb, ya), adx = _mm512_abs_epi64(dx);
            const __mmask8 right = _mm512_cmpgt_epi64_mask(dx, zero);
            const __m512i dir = _mm512_mask_mov_epi64(minus1, right, one);
            /* reaching outside the clip's columns, or too long for the lanes' doubles: scalar */
            scalar |= valid & (_mm512_cmplt_epi64_mask(_mm512_sub_epi64(lo, xmin), zero) |
                               _mm512_cmpgt_epi64_mask(_mm512_sub_epi64(hi, xmin), limit) |
                               _mm512_cmpge_epi64_mask(adx, extent) | _mm512_cmpge_epi64_mask(dy, extent));
            const __mmask8 fast = valid & (__mmask8)~scalar;
            if (fast) {
                /* X at the first and last rows: xa + floor(dx (y - ya) / dy) where cut */
                const __m512i dys = _mm512_mask_mov_epi64(one, fast, dy);
                const __mmask8 cut0 = fast & _mm512_cmpneq_epi64_mask(top, ya), cut1 = fast & _mm512_cmpneq_epi64_mask(bot, yb);
                __m512i sx = xa, ex = xb, rem;
                if (cut0) sx = _mm512_mask_add_epi64(xa, cut0, xa, fbk_v_floordiv(_mm512_mullo_epi64(dx, _mm512_sub_epi64(top, ya)), dys, &rem));
                if (cut1) ex = _mm512_mask_add_epi64(xb, cut1, xa, fbk_v_floordiv(_mm512_mullo_epi64(dx, _mm512_sub_epi64(bot, ya)), dys, &rem));
                const __mmask8 steep = fast & _mm512_cmple_epi64_mask(adx, dy), flat = fast & (__mmask8)~steep;
                if (steep) {
                    const int n = rq->n;
                    fbk_append(rq->xa, n, steep, xa); fbk_append(rq->ya, n, steep, ya); fbk_append(rq->dx, n, steep, dx);
                    fbk_append(rq->dy, n, steep, dy); fbk_append(rq->dir, n, steep, dir); fbk_append(rq->adx, n, steep, adx);
                    fbk_append(rq->xs, n, steep, sx); fbk_append(rq->top, n, steep, top); fbk_append(rq->xe, n, steep, ex);
                    fbk_append(rq->bot, n, steep, bot); fbk_append(rq->w, n, steep, w);
                    rq->n = n + __builtin_popcount(steep);
                    if (rq->n >= 8) fbk_walk_rows_lanes_avx512(b, rq);
                }
                if (flat) {
                    /* fbk_last_column: right, max(c0, (ex - 1) >> 8), one more when ex is on that
                     * column's far boundary and the line reaches it above bot; left, min(c0, ex >> 8) */
                    const __m512i c0 = _mm512_srai_epi64(_mm512_mask_sub_epi64(sx, (__mmask8)~right, sx, one), 8);
                    const __m512i ex8 = _mm512_srai_epi64(ex, 8);
                    __m512i cl = _mm512_mask_max_epi64(_mm512_min_epi64(c0, ex8), right, c0, _mm512_srai_epi64(_mm512_sub_epi64(ex, one), 8));
                    const __mmask8 edge = flat & right & _mm512_testn_epi64_mask(ex, c255) &
                                          _mm512_cmpeq_epi64_mask(ex8, _mm512_add_epi64(cl, one));
                    if (edge) {
                        const __m512i adxs = _mm512_mask_mov_epi64(one, edge, adx);
                        const __m512i yq = _mm512_add_epi64(ya, fbk_v_floordiv(_mm512_mullo_epi64(dy, _mm512_sub_epi64(ex, xa)), adxs, &rem));
                        cl = _mm512_mask_add_epi64(cl, edge & _mm512_cmplt_epi64_mask(yq, bot), cl, one);
                    }
                    const int n = cq->n;
                    fbk_append(cq->xa, n, flat, xa); fbk_append(cq->ya, n, flat, ya); fbk_append(cq->dx, n, flat, dx);
                    fbk_append(cq->dy, n, flat, dy); fbk_append(cq->dir, n, flat, dir); fbk_append(cq->adx, n, flat, adx);
                    fbk_append(cq->xs, n, flat, sx); fbk_append(cq->top, n, flat, top); fbk_append(cq->xe, n, flat, ex);
                    fbk_append(cq->bot, n, flat, bot); fbk_append(cq->cl, n, flat, cl); fbk_append(cq->w, n, flat, w);
                    cq->n = n + __builtin_popcount(flat);
                    if (cq->n >= 8) fbk_walk_columns_lanes_avx512(b, cq);
                }
            }
            if (scalar) {
                _mm512_store_si512(sx0, x0); _mm512_store_si512(sy0, y0); _mm512_store_si512(sx1, x1); _mm512_store_si512(sy1, y1);
                for (unsigned m = scalar; m; m &= m - 1) {
                    const int i = __builtin_ctz(m);
                    fbk_line_lanes(b, sx0[i], sy0[i], sx1[i], sy1[i], rq, cq);
                }
            }
        }
        /* the contour's last edges, the closing one included */
        if (end > start) {
            const int64_t sx = points[2 * start], sy = points[2 * start + 1], ylo_ = b->y_min_sub, yhi_ = b->y_max_sub;
            for (; j < end; j++) {
                const int64_t cx = points[2 * j], cy = points[2 * j + 1];
                const int64_t x = j + 1 < end ? points[2 * j + 2] : sx, y = j + 1 < end ? points[2 * j + 3] : sy;
                if (!((y <= ylo_ && cy <= ylo_) || (y >= yhi_ && cy >= yhi_))) fbk_line_lanes(b, cx, cy, x, y, rq, cq);
            }
        }
        start = end;
    }
}

/* fbk_fixed_points' whole blocks of four points (cell_walk.c does the rest, from *done): each
 * lane the scalar formula -- v * 256, s < lim ? s : lim (NaN -> lim), s > -lim ? s : -lim, then
 * the truncation of s + 2^30 + 1/2 (in (0, 2^31): a 32-bit conversion) minus 2^30 -- and the
 * bounds as lane-wise minima and maxima reduced at the end (the same values: order does not
 * change a minimum of finite numbers). Returns 0 when a point is not finite. */
FBK_LANES int fbk_fixed_points_avx512(const double *xy, intptr_t n, int reversed, int32_t *out, double *bounds,
                                      intptr_t *done) {
    const __m512d lim = _mm512_set1_pd(536870912.0), nlim = _mm512_set1_pd(-536870912.0);
    const __m512d bias = _mm512_set1_pd(1073741824.5), k256 = _mm512_set1_pd(256), zero = _mm512_setzero_pd();
    const __m256i unbias = _mm256_set1_epi32(1073741824);
    __m512d lo = _mm512_set1_pd(INFINITY), hi = _mm512_set1_pd(-INFINITY);
    __mmask8 finite = 0xFF;
    const intptr_t blocks = n / 4;
    for (intptr_t b = 0; b < blocks; b++) {
        /* points k = 4b ..< 4b + 4 of the output: input points 4b.. (or, reversed, n-1-4b down) */
        __m512d v;
        if (reversed) {
            v = _mm512_loadu_pd(xy + 2 * (n - 4 - 4 * b));
            v = _mm512_shuffle_f64x2(v, v, 0x1B);          /* the four (x, y) pairs in reverse */
        } else {
            v = _mm512_loadu_pd(xy + 8 * b);
        }
        finite &= _mm512_cmp_pd_mask(_mm512_sub_pd(v, v), zero, _CMP_EQ_OQ);
        lo = _mm512_min_pd(lo, v); hi = _mm512_max_pd(hi, v);
        __m512d sv = _mm512_mul_pd(v, k256);
        sv = _mm512_mask_blend_pd(_mm512_cmp_pd_mask(sv, lim, _CMP_LT_OQ), lim, sv);     /* s < lim ? s : lim */
        sv = _mm512_mask_blend_pd(_mm512_cmp_pd_mask(sv, nlim, _CMP_GT_OQ), nlim, sv);   /* s > -lim ? s : -lim */
        const __m256i q = _mm256_sub_epi32(_mm512_cvttpd_epi32(_mm512_add_pd(sv, bias)), unbias);
        _mm256_storeu_si256((__m256i *)(out + 8 * b), q);
    }
    *done = 4 * blocks;
    if (finite != 0xFF) return 0;
    /* x in the even lanes, y in the odd ones */
    const __m512i ev = _mm512_setr_epi64(0, 2, 4, 6, 0, 2, 4, 6), od = _mm512_setr_epi64(1, 3, 5, 7, 1, 3, 5, 7);
    const double mx = _mm512_reduce_min_pd(_mm512_permutexvar_pd(ev, lo)), my = _mm512_reduce_min_pd(_mm512_permutexvar_pd(od, lo));
    const double Mx = _mm512_reduce_max_pd(_mm512_permutexvar_pd(ev, hi)), My = _mm512_reduce_max_pd(_mm512_permutexvar_pd(od, hi));
    bounds[0] = mx < bounds[0] ? mx : bounds[0]; bounds[1] = my < bounds[1] ? my : bounds[1];
    bounds[2] = Mx >= bounds[2] ? Mx : bounds[2]; bounds[3] = My >= bounds[3] ? My : bounds[3];
    return 1;
}

#else
int fbk_fixed_points_avx512(const double *xy, intptr_t n, int reversed, int32_t *out, double *bounds,
                            intptr_t *done) {
    (void)xy; (void)n; (void)reversed; (void)out; (void)bounds; *done = 0;
    return 1;
}
void fbk_walk_rows_lanes_avx512(const fbk_cells *cells, fbk_rows_lanes *q) { (void)cells; q->n = 0; }
void fbk_walk_columns_lanes_avx512(const fbk_cells *cells, fbk_columns_lanes *q) { (void)cells; q->n = 0; }
void fbk_add_contours_lanes_avx512(const fbk_cells *cells, const int32_t *points, const int32_t *ends,
                                   intptr_t contours, fbk_rows_lanes *rq, fbk_columns_lanes *cq) {
    (void)cells; (void)points; (void)ends; (void)contours; (void)rq; (void)cq;
}
#endif
