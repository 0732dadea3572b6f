/*
 * stroke_overlap.c -- the per-pixel work of one stroke self-crossing (FlipbookRaster
 * Path/StrokeOverlap.swift, `_OverlapGeometry.crossing`, is the reference and has the maths):
 * the pixels around the four corners of the lens of two crossing centre-line segments' strips,
 * those whose centres lie near an edge of both strips, each one's nearest segment in each part,
 * and the area of the pixel inside both strips. The same operations in the same order as the
 * Swift code, with floating-point contraction off (no fused multiply-adds: Swift does not
 * contract), so the corrections are the same integers (`StrokeOverlapTests` compares the lists).
 *
 * With AVX-512 the nearest segment of a pixel is found in one pass over the (up to 7) segments
 * of a part, one per lane: the same distances (each lane the scalar formula, clamps as selects)
 * and the same choice (the first segment at the least distance).
 */
#include "flipbook_kernels.h"
#include "fbk_avx2.h"
#include <math.h>
#include <stdlib.h>

#if defined(__clang__)
#pragma clang fp contract(off)
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif
#pragma STDC FP_CONTRACT OFF

typedef struct { double x, y; } P2;

/* Swift's min / max (`y < x ? y : x`, `y >= x ? y : x`) */
static inline double smin(double x, double y) { return y < x ? y : x; }
static inline double smax(double x, double y) { return y >= x ? y : x; }
static inline double dot2(P2 a, P2 b) { return a.x * b.x + a.y * b.y; }

typedef struct {
    P2 a, b, ab; double invL2;
    P2 n; double c;
    int cornerA, cornerB;
} seg_t;

/* a part's segments, also laid out lane by lane (8 lanes, `count` used) */
typedef struct {
    seg_t s[7];
    int count;
    double ax[8], ay[8], abx[8], aby[8], inv[8];
} segset_t;

static inline P2 pt(const double *p, intptr_t k) { P2 r = { p[2 * k], p[2 * k + 1] }; return r; }

/* segment k's next point (the closing segment wraps to its subpath's start) */
static inline intptr_t next_of(const fbk_overlap_sub *sb, intptr_t k) {
    return k + 1 < sb->start + sb->count ? k + 1 : sb->start;
}

/* `segmentsAround`: segment k and up to three on each side within the window along the line */
static void segments_around(const fbk_overlap_geometry *g, intptr_t k, double h, segset_t *set) {
    const fbk_overlap_sub *sb = &g->subs[g->sub[k]];
    const intptr_t segments = sb->closed ? sb->count : sb->count - 1;
    const double window = smin(2 * h + 10, 4 * h + 3);
    int m = 0;
    for (int o = -3; o <= 3; o++) {
        intptr_t q = k - sb->start + o;
        if (sb->closed) q = (q % segments + segments) % segments;
        else if (q < 0 || q >= segments) continue;
        if (o != 0) {
            const double d = fabs(g->arc[sb->start + q] - g->arc[k]);
            if ((sb->closed ? smin(d, sb->length - d) : d) > window) continue;
        }
        const intptr_t gi = sb->start + q, nx = next_of(sb, gi);
        const P2 a = pt(g->p, gi), b = pt(g->p, nx);
        const P2 ab = { b.x - a.x, b.y - a.y };
        const double l2 = ab.x * ab.x + ab.y * ab.y;
        if (!(l2 > 0)) continue;
        const double len = sqrt(l2);
        const P2 u = { ab.x / len, ab.y / len }, n = { -u.y, u.x };
        seg_t s = { a, b, ab, 1 / l2, n, n.x * a.x + n.y * a.y, g->corner[gi] != 0, g->corner[nx] != 0 };
        set->s[m] = s;
        set->ax[m] = a.x; set->ay[m] = a.y; set->abx[m] = ab.x; set->aby[m] = ab.y; set->inv[m] = s.invL2;
        m++;
    }
    set->count = m;
    for (int i = m; i < 8; i++) { set->ax[i] = 0; set->ay[i] = 0; set->abx[i] = 0; set->aby[i] = 0; set->inv[i] = 0; }
}

/* the segment's checks after the search: out of reach, or near a corner of it: none */
static inline const seg_t *nearest_checks(P2 c, const segset_t *set, int bk, double best, double h) {
    const double reach = h + 0.7072;
    if (bk < 0 || !(best <= reach * reach)) return 0;
    const seg_t *s = &set->s[bk];
    const double lim = (h + 1.5) * (h + 1.5);
    if (s->cornerA) { const P2 v = { c.x - s->a.x, c.y - s->a.y }; if (v.x * v.x + v.y * v.y < lim) return 0; }
    if (s->cornerB) { const P2 v = { c.x - s->b.x, c.y - s->b.y }; if (v.x * v.x + v.y * v.y < lim) return 0; }
    return s;
}

/* `nearest`: the segment of the set nearest c (the first at the least distance) */
static const seg_t *nearest(P2 c, const segset_t *set, double h) {
    double best = INFINITY;
    int bk = -1;
    for (int i = 0; i < set->count; i++) {
        const seg_t *s = &set->s[i];
        const P2 ca = { c.x - s->a.x, c.y - s->a.y };
        const double t = smin(1, smax(0, (ca.x * s->ab.x + ca.y * s->ab.y) * s->invL2));
        const P2 q = { s->a.x + s->ab.x * t, s->a.y + s->ab.y * t };
        const P2 e = { c.x - q.x, c.y - q.y };
        const double d = e.x * e.x + e.y * e.y;
        if (d < best) { best = d; bk = i; }
    }
    return nearest_checks(c, set, bk, best, h);
}

#if FBK_X86
#define FBK_OV512 __attribute__((target("avx512f,avx512dq")))
/* `nearest` with the segments in lanes */
FBK_OV512 static const seg_t *nearest_avx512(P2 c, const segset_t *set, double h) {
    const __m512d cx = _mm512_set1_pd(c.x), cy = _mm512_set1_pd(c.y), zero = _mm512_setzero_pd(), one = _mm512_set1_pd(1);
    const __m512d ax = _mm512_loadu_pd(set->ax), ay = _mm512_loadu_pd(set->ay);
    const __m512d abx = _mm512_loadu_pd(set->abx), aby = _mm512_loadu_pd(set->aby);
    const __m512d dot = _mm512_add_pd(_mm512_mul_pd(_mm512_sub_pd(cx, ax), abx), _mm512_mul_pd(_mm512_sub_pd(cy, ay), aby));
    __m512d t = _mm512_mul_pd(dot, _mm512_loadu_pd(set->inv));
    t = _mm512_mask_blend_pd(_mm512_cmp_pd_mask(t, zero, _CMP_GE_OQ), zero, t);     /* t >= 0 ? t : 0 */
    t = _mm512_mask_blend_pd(_mm512_cmp_pd_mask(t, one, _CMP_LT_OQ), one, t);       /* t < 1 ? t : 1 */
    const __m512d ex = _mm512_sub_pd(cx, _mm512_add_pd(ax, _mm512_mul_pd(abx, t)));
    const __m512d ey = _mm512_sub_pd(cy, _mm512_add_pd(ay, _mm512_mul_pd(aby, t)));
    __m512d d = _mm512_add_pd(_mm512_mul_pd(ex, ex), _mm512_mul_pd(ey, ey));
    const __mmask8 used = (__mmask8)((1u << set->count) - 1u);
    d = _mm512_mask_blend_pd(used, _mm512_set1_pd(INFINITY), d);
    const double best = _mm512_reduce_min_pd(d);
    const __mmask8 at = _mm512_cmp_pd_mask(d, _mm512_set1_pd(best), _CMP_EQ_OQ) & used;
    const int bk = best < INFINITY && at ? __builtin_ctz(at) : -1;
    return nearest_checks(c, set, bk, best, h);
}

/* pass 1 of fbk_overlap_crossing (see there) a row of the window at a time, one pixel per lane:
 * the same doubles (mul, mul, add, sub, abs, sub, abs: no contraction), the same pixels in the
 * same order (compressed stores). Returns m. */
FBK_OV512 static int near_pixels_avx512(const int64_t *cx, const int64_t *cy, int corners, int64_t r, P2 na, double ca,
                                        P2 nb, double cb, double h, int64_t *px_, int64_t *py_) {
    const __m512d nax = _mm512_set1_pd(na.x), nay = _mm512_set1_pd(na.y), nbx = _mm512_set1_pd(nb.x), nby = _mm512_set1_pd(nb.y);
    const __m512d vca = _mm512_set1_pd(ca), vcb = _mm512_set1_pd(cb), vh = _mm512_set1_pd(h), lim = _mm512_set1_pd(0.85);
    const __m512d half = _mm512_set1_pd(0.5);
    const __m512i iota = _mm512_setr_epi64(0, 1, 2, 3, 4, 5, 6, 7);
    const __mmask8 width = (__mmask8)((1u << (2 * r + 1)) - 1u);
    int m = 0;
    for (int ci = 0; ci < corners; ci++) {
        const __m512i vpx = _mm512_add_epi64(_mm512_set1_epi64(cx[ci] - r), iota);
        const __m512d cxv = _mm512_add_pd(_mm512_cvtepi64_pd(vpx), half);
        const __m512d ta = _mm512_mul_pd(nax, cxv), tb = _mm512_mul_pd(nbx, cxv);
        for (int64_t py = cy[ci] - r; py <= cy[ci] + r; py++) {
            __mmask8 keep = width;
            for (int e = 0; e < ci; e++)     /* a pixel an earlier corner's window holds: once */
                if (llabs(cy[e] - py) <= r)
                    keep &= (__mmask8)~(_mm512_cmpge_epi64_mask(vpx, _mm512_set1_epi64(cx[e] - r)) &
                                        _mm512_cmple_epi64_mask(vpx, _mm512_set1_epi64(cx[e] + r)));
            if (!keep) continue;
            const __m512d cyv = _mm512_set1_pd((double)py + 0.5);
            const __m512d da = _mm512_abs_pd(_mm512_sub_pd(_mm512_abs_pd(_mm512_sub_pd(_mm512_add_pd(ta, _mm512_mul_pd(nay, cyv)), vca)), vh));
            const __m512d db = _mm512_abs_pd(_mm512_sub_pd(_mm512_abs_pd(_mm512_sub_pd(_mm512_add_pd(tb, _mm512_mul_pd(nby, cyv)), vcb)), vh));
            const __mmask8 near = keep & _mm512_cmp_pd_mask(da, lim, _CMP_LE_OQ) & _mm512_cmp_pd_mask(db, lim, _CMP_LE_OQ);
            if (!near) continue;
            _mm512_mask_compressstoreu_epi64(px_ + m, near, vpx);
            const int k = __builtin_popcount(near);
            for (int i = 0; i < k; i++) py_[m + i] = py;
            m += k;
        }
    }
    return m;
}
#endif

/* `lensArea`: the unit pixel at (x, y) inside both strips, by Sutherland-Hodgman */
static double lens_area(double x, double y, P2 nA, double cA, P2 nB, double cB, double h) {
    const double dA = cA - (nA.x * x + nA.y * y), dB = cB - (nB.x * x + nB.y * y);
    const P2 normals[4] = { nA, { -nA.x, -nA.y }, nB, { -nB.x, -nB.y } };
    const double limits[4] = { dA + h, -dA + h, dB + h, -dB + h };
    int cutting[4], cuts = 0;
    for (int k = 0; k < 4; k++) {
        const P2 n = normals[k];
        const double limit = limits[k];
        const double f0 = -limit, f1 = n.x - limit, f2 = n.x + n.y - limit, f3 = n.y - limit;
        const int inside = (f0 <= 0) + (f1 <= 0) + (f2 <= 0) + (f3 <= 0);
        if (inside == 0) return 0;
        if (inside == 4) continue;
        cutting[cuts++] = k;
    }
    if (cuts == 0) return 1;
    P2 buf[32];
    P2 *src = buf, *dst = buf + 16;
    src[0] = (P2){ 0, 0 }; src[1] = (P2){ 1, 0 }; src[2] = (P2){ 1, 1 }; src[3] = (P2){ 0, 1 };
    int count = 4;
    for (int ci = 0; ci < cuts; ci++) {
        const P2 n = normals[cutting[ci]];
        const double limit = limits[cutting[ci]];
        int m = 0;
        P2 P = src[count - 1];
        double fp = n.x * P.x + n.y * P.y - limit;
        for (int j = 0; j < count; j++) {
            const P2 Q = src[j];
            const double fq = n.x * Q.x + n.y * Q.y - limit;
            if ((fp < 0 && fq > 0) || (fp > 0 && fq < 0)) {
                const double t = fp / (fp - fq);
                dst[m++] = (P2){ P.x + (Q.x - P.x) * t, P.y + (Q.y - P.y) * t };
            }
            if (fq <= 0) dst[m++] = Q;
            P = Q; fp = fq;
        }
        if (m < 3) return 0;
        P2 *tmp = src; src = dst; dst = tmp; count = m;
    }
    double area = 0;
    P2 P = src[count - 1];
    for (int j = 0; j < count; j++) {
        const P2 Q = src[j];
        area += P.x * Q.y - Q.x * P.y;
        P = Q;
    }
    return smax(0, smin(1, fabs(area) / 2));
}

intptr_t fbk_overlap_crossing(const fbk_overlap_geometry *g, intptr_t ka, intptr_t kb, double h, double sign,
                              int lanes, int32_t *out) {
    const fbk_overlap_sub *sa = &g->subs[g->sub[ka]], *sbb = &g->subs[g->sub[kb]];
    const P2 a0 = pt(g->p, ka), a1 = pt(g->p, next_of(sa, ka)), b0 = pt(g->p, kb), b1 = pt(g->p, next_of(sbb, kb));
    const P2 da = { a1.x - a0.x, a1.y - a0.y }, db = { b1.x - b0.x, b1.y - b0.y };
    const double la = sqrt(da.x * da.x + da.y * da.y), lb = sqrt(db.x * db.x + db.y * db.y);
    const P2 ua = { da.x / la, da.y / la }, ub = { db.x / lb, db.y / lb };
    const double sinT = ua.x * ub.y - ua.y * ub.x;
    if (!(fabs(sinT) >= 0.2) || !isfinite(sinT)) return 0;
    const P2 na = { -ua.y, ua.x }, nb = { -ub.y, ub.x };
    const double ca = dot2(na, a0), cb = dot2(nb, b0);
    const double det = na.x * nb.y - na.y * nb.x;
    const int64_t r = fabs(sinT) > 0.5 ? 1 : fabs(sinT) > 0.3 ? 2 : 3;
    int64_t cx[4], cy[4];
    int corners = 0;
    for (int q = 0; q < 4; q++) {
        const double r0 = ca + ((q & 1) == 0 ? -h : h), r1 = cb + ((q & 2) == 0 ? -h : h);
        const double x = (r0 * nb.y - na.y * r1) / det, y = (na.x * r1 - r0 * nb.x) / det;
        if (!isfinite(x) || !isfinite(y) || !(fabs(x) < 1e7) || !(fabs(y) < 1e7)) continue;
        cx[corners] = (int64_t)floor(x); cy[corners] = (int64_t)floor(y);
        corners++;
    }
    if (corners == 0) return 0;
    /* pass 1: the pixels within r of a corner, once, whose centres are near an edge of both */
    int64_t px_[4 * 49], py_[4 * 49];
    int m = 0;
#if FBK_X86
    if (lanes) m = near_pixels_avx512(cx, cy, corners, r, na, ca, nb, cb, h, px_, py_);
    else
#endif
    for (int ci = 0; ci < corners; ci++) {
        for (int64_t py = cy[ci] - r; py <= cy[ci] + r; py++) {
            for (int64_t px = cx[ci] - r; px <= cx[ci] + r; px++) {
                int seen = 0;
                for (int e = 0; e < ci; e++)
                    if (llabs(cx[e] - px) <= r && llabs(cy[e] - py) <= r) { seen = 1; break; }
                if (seen) continue;
                const P2 c = { (double)px + 0.5, (double)py + 0.5 };
                const int near = fabs(fabs(dot2(na, c) - ca) - h) <= 0.85 && fabs(fabs(dot2(nb, c) - cb) - h) <= 0.85;
                px_[m] = px; py_[m] = py; m += near;
            }
        }
    }
    if (m == 0) return 0;
    /* pass 2: each pixel's nearest segment in each part; pass 3: its lens area */
    segset_t setA, setB;
    segments_around(g, ka, h, &setA); segments_around(g, kb, h, &setB);
    const seg_t *SA[4 * 49], *SB[4 * 49];
    int64_t qx[4 * 49], qy[4 * 49];
    int n = 0;
    for (int i = 0; i < m; i++) {
        const P2 c = { (double)px_[i] + 0.5, (double)py_[i] + 0.5 };
#if FBK_X86
        const seg_t *sA = lanes ? nearest_avx512(c, &setA, h) : nearest(c, &setA, h);
        if (!sA) continue;
        const seg_t *sB = lanes ? nearest_avx512(c, &setB, h) : nearest(c, &setB, h);
#else
        (void)lanes;
        const seg_t *sA = nearest(c, &setA, h);
        if (!sA) continue;
        const seg_t *sB = nearest(c, &setB, h);
#endif
        if (!sB) continue;
        SA[n] = sA; SB[n] = sB; qx[n] = px_[i]; qy[n] = py_[i]; n++;
    }
    intptr_t w = 0;
    for (int i = 0; i < n; i++) {
        const double area = lens_area((double)qx[i], (double)qy[i], SA[i]->n, SA[i]->c, SB[i]->n, SB[i]->c, h);
        const double v = round(sign * area * 131072);
        if (v != 0) { out[3 * w] = (int32_t)qx[i]; out[3 * w + 1] = (int32_t)qy[i]; out[3 * w + 2] = (int32_t)v; w++; }
    }
    return w;
}

/* --- the search for crossings (`_OverlapGeometry.corrections`' pair sweep) --- */

/* ⌊256·x⌋ + 2³² for x clamped to ±10⁷ (`_sortKey`) */
static inline int64_t sort_key(double x) {
    const double lo = -1e7 >= x ? -1e7 : x;
    const double v = 1e7 < lo ? 1e7 : lo;
    return (int64_t)floor(v * 256) + ((int64_t)1 << 32);
}

/* ascending sort of distinct keys (quicksort, median of three, insertion sort below 16: qsort's
 * call per comparison cost more than the whole search) */
static void sort_keys(int64_t *k, intptr_t n) {
    while (n > 16) {
        const int64_t a = k[0], b = k[n / 2], c = k[n - 1];
        const int64_t pivot = a < b ? (b < c ? b : (a < c ? c : a)) : (a < c ? a : (b < c ? c : b));
        intptr_t i = 0, j = n - 1;
        for (;;) {
            while (k[i] < pivot) i++;
            while (k[j] > pivot) j--;
            if (i >= j) break;
            const int64_t t = k[i]; k[i] = k[j]; k[j] = t;
            i++; j--;
        }
        /* [0, j] <= pivot <= [j + 1, n): recurse on the smaller side, loop on the larger */
        if (j + 1 < n - j - 1) { sort_keys(k, j + 1); k += j + 1; n -= j + 1; }
        else { sort_keys(k + j + 1, n - j - 1); n = j + 1; }
    }
    for (intptr_t i = 1; i < n; i++) {
        const int64_t v = k[i];
        intptr_t j = i;
        while (j > 0 && k[j - 1] > v) { k[j] = k[j - 1]; j--; }
        k[j] = v;
    }
}

/* ascending sort of distinct keys, n small: a counting pass into <= n buckets by value (the
 * pieces of a stroke spread over its width), then insertion sort over the nearly sorted result
 * (moves within a bucket only). The keys are distinct, so any correct sort gives this order;
 * quicksort's data-dependent branches cost ~13 ns a key here (2 % of W7). Larger n: sort_keys. */
#define FBK_BUCKET_SORT_MAX 512
static void sort_keys_small(int64_t *k, intptr_t n) {
    int64_t lo = k[0], hi = k[0];
    for (intptr_t i = 1; i < n; i++) { lo = k[i] < lo ? k[i] : lo; hi = k[i] > hi ? k[i] : hi; }
    /* bucket = (k - lo) >> shift, below 2^t <= n buckets (t = floor(log2 n)) */
    const uint64_t range = (uint64_t)(hi - lo);
    const int bits = range ? 64 - __builtin_clzll(range) : 0, t = 63 - __builtin_clzll((uint64_t)n);
    const int shift = bits > t ? bits - t : 0;
    const intptr_t buckets = (intptr_t)1 << t;
    int32_t count[FBK_BUCKET_SORT_MAX + 1];
    int64_t tmp[FBK_BUCKET_SORT_MAX];
    for (intptr_t b = 0; b <= buckets; b++) count[b] = 0;
    for (intptr_t i = 0; i < n; i++) count[(intptr_t)((uint64_t)(k[i] - lo) >> shift) + 1]++;
    for (intptr_t b = 1; b <= buckets; b++) count[b] += count[b - 1];
    for (intptr_t i = 0; i < n; i++) tmp[count[(intptr_t)((uint64_t)(k[i] - lo) >> shift)]++] = k[i];
    for (intptr_t i = 0; i < n; i++) {
        const int64_t v = tmp[i];
        intptr_t j = i;
        while (j > 0 && k[j - 1] > v) { k[j] = k[j - 1]; j--; }
        k[j] = v;
    }
}

static inline double cross2(P2 u, P2 v) { return u.x * v.y - u.y * v.x; }

/* `segmentsCross`: each segment's end points strictly on opposite sides of the other's line */
static inline int segments_cross(P2 a0, P2 a1, P2 b0, P2 b1) {
    const P2 da = { a1.x - a0.x, a1.y - a0.y }, db = { b1.x - b0.x, b1.y - b0.y };
    const double d0 = cross2(da, (P2){ b0.x - a0.x, b0.y - a0.y }), d1 = cross2(da, (P2){ b1.x - a0.x, b1.y - a0.y });
    const double d2 = cross2(db, (P2){ a0.x - b0.x, a0.y - b0.y }), d3 = cross2(db, (P2){ a1.x - b0.x, a1.y - b0.y });
    return ((d0 > 0 && d1 < 0) || (d0 < 0 && d1 > 0)) && ((d2 > 0 && d3 < 0) || (d2 < 0 && d3 > 0));
}

/* the stretch of arc length of piece q (the closing segment ends at the subpath's length) */
static inline void piece_range(const fbk_overlap_geometry *g, const fbk_overlap_piece *pc, const fbk_overlap_sub *sb,
                               double *a0, double *a1) {
    *a0 = g->arc[pc->k0];
    *a1 = pc->k1 < sb->start + sb->count ? g->arc[pc->k1] : sb->length;
}

/* `arcGap`: the arc length between two pieces of one subpath (around a closed one the shorter
 * way) */
static double arc_gap(const fbk_overlap_geometry *g, const fbk_overlap_piece *pi, const fbk_overlap_piece *pj) {
    const fbk_overlap_sub *sb = &g->subs[pi->sub];
    double a0, a1, b0, b1;
    piece_range(g, pi, sb, &a0, &a1); piece_range(g, pj, sb, &b0, &b1);
    const double u = b0 - a1, v = a0 - b1;
    const double inner = v >= u ? v : u;
    const double gap = inner >= 0 ? inner : 0;
    if (!sb->closed) return gap;
    const double mx = b1 >= a1 ? b1 : a1, mn = b0 < a0 ? b0 : a0;
    const double w = sb->length - mx + mn;
    const double wrap = w >= 0 ? w : 0;
    return wrap < gap ? wrap : gap;
}

#if FBK_X86
/* The x-sweep's next block for piece oi (`fbk_overlap_crossings`): of the up to 8 pieces from
 * oj, *xcount is how many the sweep reaches (keys sorted, so a prefix: key >> 24 <= limit) and
 * the result marks those of them whose boxes overlap bi in y (the scalar test's doubles: two
 * ordered <=, NaN fails). */
FBK_OV512 static unsigned y_candidates8(const int64_t *keys, const double *y0s, const double *y1s, intptr_t oj,
                                        intptr_t n, int64_t limit, double bi_y0, double bi_y1, int *xcount) {
    const intptr_t left = n - oj;
    const __mmask8 valid = left >= 8 ? (__mmask8)0xFF : (__mmask8)((1u << left) - 1u);
    const __m512i k = _mm512_srai_epi64(_mm512_maskz_loadu_epi64(valid, keys + oj), 24);
    const unsigned xm = valid & _mm512_cmple_epi64_mask(k, _mm512_set1_epi64(limit));
    const int cnt = __builtin_ctz(~xm);                          /* the prefix the sweep reaches */
    *xcount = cnt;
    const __m512d y0 = _mm512_maskz_loadu_pd(valid, y0s + oj), y1 = _mm512_maskz_loadu_pd(valid, y1s + oj);
    const __mmask8 y = _mm512_cmp_pd_mask(y0, _mm512_set1_pd(bi_y1), _CMP_LE_OQ) &
                       _mm512_cmp_pd_mask(_mm512_set1_pd(bi_y0), y1, _CMP_LE_OQ);
    return y & ((1u << cnt) - 1u);
}
#endif

/* The boxes are laid out by coordinate (x0[n], y0[n], x1[n], y1[n]) in sorted order. With the
 * lanes (fbk_cpu_lane_walk_cached()), the x-sweep tests 8 candidates' y-overlap at once and walks
 * only those that pass; the pair budget is charged exactly as the scalar sweep charges it (one
 * test per piece reached, in order, before that piece's segment tests), so both stop at the same
 * test and find the same crossings in the same order. */
intptr_t fbk_overlap_crossings(const fbk_overlap_geometry *g, const fbk_overlap_piece *pieces, intptr_t n, double h,
                               int64_t *keys, double *boxes, int64_t *pairs) {
    if (n < 2 || n >= (1 << 24)) return 0;
    const double apart = 2 * h + 2;
    for (intptr_t i = 0; i < n; i++) keys[i] = sort_key(pieces[i].box[0]) << 24 | i;
    if (n <= FBK_BUCKET_SORT_MAX) sort_keys_small(keys, n); else sort_keys(keys, n);
    double *bx0 = boxes, *by0 = boxes + n, *bx1 = boxes + 2 * n, *by1 = boxes + 3 * n;
    for (intptr_t o = 0; o < n; o++) {
        const fbk_overlap_piece *pc = &pieces[keys[o] & 0xFFFFFF];
        bx0[o] = pc->box[0]; by0[o] = pc->box[1]; bx1[o] = pc->box[2]; by1[o] = pc->box[3];
    }
    int64_t pair_budget = FBK_OVERLAP_MAX_PAIR_TESTS, crossing_budget = FBK_OVERLAP_MAX_CROSSINGS;
    intptr_t found = 0;
#if FBK_X86
    const int lanes = fbk_cpu_lane_walk_cached();
#else
    const int lanes = 0;
#endif
    for (intptr_t oi = 0; oi < n; oi++) {
        const intptr_t i = keys[oi] & 0xFFFFFF;
        const double bi_y0 = by0[oi], bi_y1 = by1[oi];
        const int64_t limit = sort_key(bx1[oi]);
        const fbk_overlap_piece *pi = &pieces[i];
        intptr_t oj = oi + 1;
        for (;;) {
            /* the candidates of the next block (lanes), or of the next piece (scalar) */
            unsigned cand;
            int reach;
#if FBK_X86
            if (lanes) {
                if (oj >= n) break;
                cand = y_candidates8(keys, by0, by1, oj, n, limit, bi_y0, bi_y1, &reach);
            } else
#endif
            {
                if (oj >= n || (keys[oj] >> 24) > limit) break;
                reach = 1;
                cand = by0[oj] <= bi_y1 && bi_y0 <= by1[oj];
            }
            int charged = 0;                               /* pieces of the block paid for */
            while (cand) {
                const int p = __builtin_ctz(cand);
                cand &= cand - 1;
                pair_budget -= p + 1 - charged; charged = p + 1;
                if (pair_budget < 0) return found;
                const intptr_t oc = oj + p;
                const intptr_t j = keys[oc] & 0xFFFFFF;
                const fbk_overlap_piece *pj = &pieces[j];
                /* one bend, not two parts: pieces of one subpath close along it */
                if (pi->sub == pj->sub && (llabs(i - j) <= 1 || arc_gap(g, pi, pj) <= 2 * apart)) continue;
                const fbk_overlap_sub *si = &g->subs[pi->sub], *sj = &g->subs[pj->sub];
                int64_t ka = -1, kb = -1;
                for (int64_t a = pi->k0; a < pi->k1 && ka < 0; a++) {
                    const P2 a0 = pt(g->p, a), a1 = pt(g->p, next_of(si, a));
                    for (int64_t b = pj->k0; b < pj->k1; b++) {
                        if (--pair_budget < 0) return found;
                        if (segments_cross(a0, a1, pt(g->p, b), pt(g->p, next_of(sj, b)))) { ka = a; kb = b; break; }
                    }
                }
                if (ka < 0) continue;
                if (--crossing_budget < 0) return found;
                pairs[2 * found] = ka; pairs[2 * found + 1] = kb;
                found++;
            }
            pair_budget -= reach - charged;
            if (pair_budget < 0) return found;
            if (reach < 8 && lanes) break;                 /* the sweep ended inside the block */
            oj += reach;
        }
    }
    return found;
}
