/*
 * gradient_avx2.c -- the gradient paint's per-pixel positions and ramp lookups, 8 pixels per
 * step (AVX2, runtime checked by the Swift side). Bit-identical to the Swift scalar reference
 * `GradientPaint.shadeScalar` (FlipbookRaster/Paint/GradientPaint.swift): the same Float32
 * operations in the same order, no fused multiply-add (FP contraction is off in this file).
 *
 * Pixel i of the block starting at column offset `i0` (pixels x0 + i0 ... of the row):
 *   f = (float)(i0 + k), U = u0 + f*mu, V = v0 + f*mv, W = w0 + f*mw, u = U/W, v = V/W
 *   axial: t = u;  radial: t = sqrt(u*u + v*v)
 *   conic: t = atan2(v, u)/(2*pi) wrapped to [0, 1) (the Swift file's polynomial, step for step)
 *   index = trunc(clamp(t, 0, 1) * 1023 + 0.5); NaN reads as 0
 *   axial/radial: t < 0 -> `before`, t > 1 -> `after`, NaN -> 1026 (transparent)
 * then out = table[index] (1027 entries: the ramp, first, last, transparent).
 * The last n mod 8 pixels are computed as a full block and stored with a lane mask (lanes past
 * n are neither written nor read). Returns n.
 */
#include "fbk_avx2.h"
#include <math.h>

#pragma STDC FP_CONTRACT OFF
#if defined(__clang__)
#pragma clang fp contract(off)
#endif

#if FBK_X86
/* The loop-invariant values of one call. */
typedef struct {
    __m256 U0, V0, W0, MU, MV, MW;
    __m256i vBefore, vAfter;
} grad_setup;

FBK_AVX2 static inline grad_setup grad_init(float u0, float v0, float w0, float mu, float mv, float mw,
                                            int32_t before, int32_t after) {
    grad_setup g;
    g.U0 = _mm256_set1_ps(u0); g.V0 = _mm256_set1_ps(v0); g.W0 = _mm256_set1_ps(w0);
    g.MU = _mm256_set1_ps(mu); g.MV = _mm256_set1_ps(mv); g.MW = _mm256_set1_ps(mw);
    g.vBefore = _mm256_set1_epi32(before); g.vAfter = _mm256_set1_epi32(after);
    return g;
}

/* The ramp indices of pixels i ... i + 7 (see the top of the file). `kind` and `affine` are
 * constants in every instantiation (the callers switch once per call, not per block). */
FBK_AVX2_INLINE __m256i grad_index(const grad_setup *g, intptr_t i, int kind, int affine, int simple) {
    const __m256 lane = _mm256_setr_ps(0, 1, 2, 3, 4, 5, 6, 7);
    const __m256 zero = _mm256_setzero_ps(), one = _mm256_set1_ps(1.0f);
    const __m256 last = _mm256_set1_ps(1023.0f), half = _mm256_set1_ps(0.5f);
    const __m256 sign = _mm256_set1_ps(-0.0f);
    const __m256 halfPi = _mm256_set1_ps(1.5707963267948966f), pi = _mm256_set1_ps(3.141592653589793f);
    const __m256 invTwoPi = _mm256_set1_ps(1.0f / 6.283185307179586f);
    const __m256 c1 = _mm256_set1_ps(-0.0464964749f), c2 = _mm256_set1_ps(0.15931422f), c3 = _mm256_set1_ps(0.327622764f);
    __m256 f = _mm256_add_ps(_mm256_set1_ps((float)i), lane);
    __m256 U = _mm256_add_ps(g->U0, _mm256_mul_ps(f, g->MU));
    __m256 V = kind == 0 && affine ? U : _mm256_add_ps(g->V0, _mm256_mul_ps(f, g->MV));
    __m256 u = U, v = V;
    if (!affine) {
        __m256 W = _mm256_add_ps(g->W0, _mm256_mul_ps(f, g->MW));
        u = _mm256_div_ps(U, W);
        v = _mm256_div_ps(V, W);
    }
    __m256 t;
    if (kind == 0) {
        t = u;
    } else if (kind == 1) {
        t = _mm256_sqrt_ps(_mm256_add_ps(_mm256_mul_ps(u, u), _mm256_mul_ps(v, v)));
    } else {
        __m256 uneg = _mm256_cmp_ps(u, zero, _CMP_LT_OQ), vneg = _mm256_cmp_ps(v, zero, _CMP_LT_OQ);
        __m256 ax = _mm256_blendv_ps(u, _mm256_xor_ps(u, sign), uneg);
        __m256 ay = _mm256_blendv_ps(v, _mm256_xor_ps(v, sign), vneg);
        __m256 steep = _mm256_cmp_ps(ay, ax, _CMP_GT_OQ);
        __m256 mx = _mm256_blendv_ps(ax, ay, steep), mn = _mm256_blendv_ps(ay, ax, steep);
        __m256 a = _mm256_div_ps(mn, mx);
        a = _mm256_blendv_ps(a, zero, _mm256_cmp_ps(mx, zero, _CMP_EQ_OQ));
        __m256 s = _mm256_mul_ps(a, a);
        __m256 r = _mm256_add_ps(_mm256_mul_ps(c1, s), c2);
        r = _mm256_sub_ps(_mm256_mul_ps(r, s), c3);
        r = _mm256_add_ps(_mm256_mul_ps(_mm256_mul_ps(r, s), a), a);
        r = _mm256_blendv_ps(r, _mm256_sub_ps(halfPi, r), steep);
        r = _mm256_blendv_ps(r, _mm256_sub_ps(pi, r), uneg);
        r = _mm256_blendv_ps(r, _mm256_xor_ps(r, sign), vneg);
        t = _mm256_mul_ps(r, invTwoPi);
        t = _mm256_blendv_ps(t, _mm256_add_ps(t, one), _mm256_cmp_ps(t, zero, _CMP_LT_OQ));
    }
    /* `simple`: the caller has shown that every t of the call is a number in [0, 1] (see
     * grad_simple), where the clamps and the before/after/NaN selects below change nothing. */
    if (simple) return _mm256_cvttps_epi32(_mm256_add_ps(_mm256_mul_ps(t, last), half));
    __m256 nan = _mm256_cmp_ps(t, t, _CMP_UNORD_Q);
    __m256 c = _mm256_blendv_ps(t, zero, nan);
    c = _mm256_blendv_ps(c, zero, _mm256_cmp_ps(c, zero, _CMP_LT_OQ));
    c = _mm256_blendv_ps(c, one, _mm256_cmp_ps(c, one, _CMP_GT_OQ));
    __m256i idx = _mm256_cvttps_epi32(_mm256_add_ps(_mm256_mul_ps(c, last), half));
    if (kind != 2) {
        idx = _mm256_blendv_epi8(idx, g->vBefore, _mm256_castps_si256(_mm256_cmp_ps(t, zero, _CMP_LT_OQ)));
        idx = _mm256_blendv_epi8(idx, g->vAfter, _mm256_castps_si256(_mm256_cmp_ps(t, one, _CMP_GT_OQ)));
        idx = _mm256_blendv_epi8(idx, _mm256_set1_epi32(1026), _mm256_castps_si256(nan));
    }
    return idx;
}

/* table[idx] for 8 lanes. Eight scalar loads measured faster than vpgatherdd on Zen 4 (a
 * 160-pixel microbenchmark: 0.27 vs 0.39 ns/pixel); every index is in 0 ... 1026. */
FBK_AVX2_INLINE __m256i grad_lookup(const uint32_t *table, __m256i idx) {
#if FBK_GRADIENT_GATHER
    return _mm256_i32gather_epi32((const int *)table, idx, 4);
#else
    __m128i lo = _mm256_castsi256_si128(idx), hi = _mm256_extracti128_si256(idx, 1);
    uint64_t a = (uint64_t)_mm_cvtsi128_si64(lo), b = (uint64_t)_mm_extract_epi64(lo, 1);
    uint64_t c = (uint64_t)_mm_cvtsi128_si64(hi), d = (uint64_t)_mm_extract_epi64(hi, 1);
    return _mm256_setr_epi32((int)table[(uint32_t)a], (int)table[a >> 32], (int)table[(uint32_t)b], (int)table[b >> 32],
                             (int)table[(uint32_t)c], (int)table[c >> 32], (int)table[(uint32_t)d], (int)table[d >> 32]);
#endif
}

FBK_AVX2_INLINE void grad_colors(uint32_t *out, intptr_t n, const uint32_t *table, const grad_setup *g,
                                 int kind, int affine, int simple) {
    for (intptr_t i = 0; i < n; i += 8) {
        __m256i px = grad_lookup(table, grad_index(g, i, kind, affine, simple));
        if (i + 8 <= n) {
            _mm256_storeu_si256((__m256i *)(out + i), px);
        } else {
            _mm256_maskstore_epi32((int *)(out + i), fbk_tail_keep(n - i), px);
        }
    }
}

/* Whether every lane the call computes (pixels 0 ... last, the last partial block whole) has a
 * position t that is a number in [0, 1], so that index = trunc(t*1023 + 0.5) as it is:
 *  - axial, affine: U = u0 + f*mu is monotone in f (each rounding is monotone), so t lies
 *    between its values at f = 0 and f = last, computed here with the kernel's operations;
 *  - conic, affine: t is in [0, 1] for any finite u, v (the wrap; mx = 0 is handled), and u,
 *    v are finite when u0, v0 and the ends are (|u|, |v| bounded far below the float range).
 * Radial and projective maps take the full path. */
static inline int grad_simple(int kind, int affine, intptr_t n, float u0, float v0, float mu, float mv) {
    if (!affine || n <= 0) return 0;
    float last = (float)(((n + 7) & ~(intptr_t)7) - 1);
    if (kind == 0) {
        float u1 = u0 + last * mu;
        return u0 >= 0.0f && u0 <= 1.0f && u1 >= 0.0f && u1 <= 1.0f;
    }
    if (kind == 2) {
        float u1 = u0 + last * mu, v1 = v0 + last * mv;
        const float big = 1e30f;
        return fabsf(u0) < big && fabsf(v0) < big && fabsf(u1) < big && fabsf(v1) < big;
    }
    return 0;
}

/* One instantiation per (kind, affine, simple) that occurs: the switch runs once per call. */
#define GRAD_DISPATCH(F, ...) do { \
    const int affine = mw == 0.0f && w0 == 1.0f; \
    const int simple = grad_simple(kind, affine, n, u0, v0, mu, mv); \
    switch (kind * 4 + affine * 2 + simple) { \
    case 0: F(__VA_ARGS__, 0, 0, 0); break; \
    case 2: F(__VA_ARGS__, 0, 1, 0); break; \
    case 3: F(__VA_ARGS__, 0, 1, 1); break; \
    case 4: F(__VA_ARGS__, 1, 0, 0); break; \
    case 6: F(__VA_ARGS__, 1, 1, 0); break; \
    case 8: F(__VA_ARGS__, 2, 0, 0); break; \
    case 10: F(__VA_ARGS__, 2, 1, 0); break; \
    default: F(__VA_ARGS__, 2, 1, 1); break; \
    } \
} while (0)

FBK_AVX2 intptr_t fbk_gradient_avx2(uint32_t *out, intptr_t n, const uint32_t *table, int kind,
                                    float u0, float v0, float w0, float mu, float mv, float mw,
                                    int32_t before, int32_t after) {
    /* An affine map has W = w0 + i*0 = 1 exactly at every pixel, and U/1 = U in IEEE
     * arithmetic: the divisions (the slowest instructions here) are skipped with the same bits. */
    grad_setup g = grad_init(u0, v0, w0, mu, mv, mw, before, after);
    GRAD_DISPATCH(grad_colors, out, n, table, &g);
    return n;
}

/* Source-over of 8 source pixels s onto d, scaled per pixel by div255(mask * opacity) (or by
 * the opacity without a mask): fbk_over_avx2's block, step for step. */
FBK_AVX2_INLINE __m256i grad_over_block(__m256i s, __m256i d, const uint8_t *mask, uint32_t opacity) {
    __m256i z = _mm256_setzero_si256();
    __m256i slo = _mm256_unpacklo_epi8(s, z), shi = _mm256_unpackhi_epi8(s, z);
    fbk_scale16(&slo, &shi, mask, opacity);
    return fbk_over16(slo, shi, d);
}

/* grad_over_block with the 8 coverage bytes as a value (fbk_scale16's mask branch, the same
 * operations on the same bytes). */
FBK_AVX2_INLINE __m256i grad_over_block_m(__m256i s, __m256i d, uint64_t mask8, uint32_t opacity) {
    __m256i z = _mm256_setzero_si256();
    __m256i slo = _mm256_unpacklo_epi8(s, z), shi = _mm256_unpackhi_epi8(s, z);
    __m256i m = _mm256_cvtepu8_epi32(_mm_cvtsi64_si128((long long)mask8));
    __m256i k = fbk_div255_16(_mm256_mullo_epi16(m, _mm256_set1_epi32((int)opacity)));
    __m256i klo, khi;
    fbk_spread_k(k, &klo, &khi);
    slo = fbk_div255_16(_mm256_mullo_epi16(slo, klo));
    shi = fbk_div255_16(_mm256_mullo_epi16(shi, khi));
    return fbk_over16(slo, shi, d);
}

/* The first r (1 ... 7) coverage bytes, zero-padded to 8, read with two overlapping loads
 * (nothing past p[r - 1]; a byte-wise copy through a stack buffer cost a store-forwarding
 * stall on the 8-byte reload: ~15 ns per row). */
static inline uint64_t grad_tail_bytes(const uint8_t *p, intptr_t r) {
    if (r >= 4) {
        uint32_t a, b;
        memcpy(&a, p, 4); memcpy(&b, p + r - 4, 4);
        return a | ((uint64_t)b << (8 * (r - 4)));
    }
    if (r >= 2) {
        uint16_t a, b;
        memcpy(&a, p, 2); memcpy(&b, p + r - 2, 2);
        return a | ((uint64_t)b << (8 * (r - 2)));
    }
    return p[0];
}

/* Occlusion (fbk_gradient_over_occluded_avx2): `owner` is the row's block owners (block b holds
 * pixels 8b ... 8b + 7 of the frame row), `ox` the frame column of the call's pixel 0, `rank` the
 * draw's. The 8 pixels i ... i + 7 of the call are skipped (left as they are) when both blocks
 * holding them are owned by a later draw (owner > rank): that draw paints all of them opaquely
 * afterwards, so nothing painted here could show. NULL: nothing is skipped. */
typedef struct {
    const uint16_t *owner;
    intptr_t ox;
    uint32_t rank;
} grad_occ;

FBK_AVX2_INLINE int grad_hidden(const grad_occ *o, intptr_t i) {
    return o && o->owner[(o->ox + i) >> 3] > o->rank && o->owner[(o->ox + i + 7) >> 3] > o->rank;
}

/* Pixels i0 ... n - 1 (i0 a multiple of 8; positions counted from pixel 0 of the call). */
FBK_AVX2_INLINE void grad_over_at(intptr_t i0, uint32_t *dst, const uint8_t *mask, uint32_t opacity, intptr_t n,
                                  const uint32_t *table, const grad_setup *g, const grad_occ *occ,
                                  int kind, int affine, int simple) {
    const __m256i amask = _mm256_set1_epi32((int)0xFF000000u);
    intptr_t i = i0;
    for (; i + 8 <= n; i += 8) {
        uint64_t m = ~(uint64_t)0;
        if (grad_hidden(occ, i)) continue;
        if (mask) {
            m = fbk_load_u64(mask + i);
            if (m == 0) continue; /* nothing covered (fbk_over_avx2 skips it too) */
        }
        __m256i px = grad_lookup(table, grad_index(g, i, kind, affine, simple));
        /* Opaque source, full coverage, opacity 255: s' = s, d' = s + div255(d * 0) = s. */
        if (m == ~(uint64_t)0 && opacity == 255 && _mm256_testc_si256(px, amask)) {
            _mm256_storeu_si256((__m256i *)(dst + i), px);
            continue;
        }
        __m256i d = _mm256_loadu_si256((const __m256i *)(dst + i));
        _mm256_storeu_si256((__m256i *)(dst + i), mask ? grad_over_block_m(px, d, m, opacity) : grad_over_block(px, d, NULL, opacity));
    }
    if (i < n) { /* the last 1 ... 7 pixels: fbk_over_avx2's tail (zero-padded mask, masked d) */
        intptr_t r = n - i;
        uint64_t m = mask ? grad_tail_bytes(mask + i, r) : 0;
        if (mask && m == 0) return; /* nothing covered: the pixels stay as they are */
        __m256i keep = fbk_tail_keep(r);
        __m256i px = _mm256_and_si256(grad_lookup(table, grad_index(g, i, kind, affine, simple)), keep);
        __m256i d = _mm256_maskload_epi32((const int *)(dst + i), keep);
        __m256i out = mask ? grad_over_block_m(px, d, m, opacity) : grad_over_block(px, d, NULL, opacity);
        _mm256_maskstore_epi32((int *)(dst + i), keep, out);
    }
}

FBK_AVX2_INLINE void grad_over(uint32_t *dst, const uint8_t *mask, uint32_t opacity, intptr_t n,
                               const uint32_t *table, const grad_setup *g, const grad_occ *occ,
                               int kind, int affine, int simple) {
    grad_over_at(0, dst, mask, opacity, n, table, g, occ, kind, affine, simple);
}

#define FBK_AVX512_INLINE __attribute__((target("avx2,avx512f,avx512vl,avx512bw"), always_inline)) static inline

FBK_AVX512_INLINE __m512 grad_xor16(__m512 a, __m512i b) {
    return _mm512_castsi512_ps(_mm512_xor_si512(_mm512_castps_si512(a), b));
}

/* grad_index for 16 pixels in one 512-bit register: lane for lane the operations of the
 * 8-lane code (the selects as mask blends), so the same indices. p: u0, v0, w0, mu, mv, mw. */
FBK_AVX512_INLINE __m512i grad_index16(intptr_t i, const float *p, int32_t before, int32_t after,
                                       int kind, int affine, int simple) {
    const __m512 lane = _mm512_setr_ps(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    const __m512 zero = _mm512_setzero_ps(), one = _mm512_set1_ps(1.0f);
    const __m512 last = _mm512_set1_ps(1023.0f), half = _mm512_set1_ps(0.5f);
    const __m512i sign = _mm512_set1_epi32((int)0x80000000u);
    const __m512 halfPi = _mm512_set1_ps(1.5707963267948966f), pi = _mm512_set1_ps(3.141592653589793f);
    const __m512 invTwoPi = _mm512_set1_ps(1.0f / 6.283185307179586f);
    const __m512 c1 = _mm512_set1_ps(-0.0464964749f), c2 = _mm512_set1_ps(0.15931422f), c3 = _mm512_set1_ps(0.327622764f);
    __m512 f = _mm512_add_ps(_mm512_set1_ps((float)i), lane);
    __m512 U = _mm512_add_ps(_mm512_set1_ps(p[0]), _mm512_mul_ps(f, _mm512_set1_ps(p[3])));
    __m512 V = kind == 0 && affine ? U : _mm512_add_ps(_mm512_set1_ps(p[1]), _mm512_mul_ps(f, _mm512_set1_ps(p[4])));
    __m512 u = U, v = V;
    if (!affine) {
        __m512 W = _mm512_add_ps(_mm512_set1_ps(p[2]), _mm512_mul_ps(f, _mm512_set1_ps(p[5])));
        u = _mm512_div_ps(U, W);
        v = _mm512_div_ps(V, W);
    }
    __m512 t;
    if (kind == 0) {
        t = u;
    } else if (kind == 1) {
        t = _mm512_sqrt_ps(_mm512_add_ps(_mm512_mul_ps(u, u), _mm512_mul_ps(v, v)));
    } else {
        __mmask16 uneg = _mm512_cmp_ps_mask(u, zero, _CMP_LT_OQ), vneg = _mm512_cmp_ps_mask(v, zero, _CMP_LT_OQ);
        __m512 ax = _mm512_mask_blend_ps(uneg, u, grad_xor16(u, sign));
        __m512 ay = _mm512_mask_blend_ps(vneg, v, grad_xor16(v, sign));
        __mmask16 steep = _mm512_cmp_ps_mask(ay, ax, _CMP_GT_OQ);
        __m512 mx = _mm512_mask_blend_ps(steep, ax, ay), mn = _mm512_mask_blend_ps(steep, ay, ax);
        __m512 a = _mm512_div_ps(mn, mx);
        a = _mm512_mask_blend_ps(_mm512_cmp_ps_mask(mx, zero, _CMP_EQ_OQ), a, zero);
        __m512 s = _mm512_mul_ps(a, a);
        __m512 r = _mm512_add_ps(_mm512_mul_ps(c1, s), c2);
        r = _mm512_sub_ps(_mm512_mul_ps(r, s), c3);
        r = _mm512_add_ps(_mm512_mul_ps(_mm512_mul_ps(r, s), a), a);
        r = _mm512_mask_blend_ps(steep, r, _mm512_sub_ps(halfPi, r));
        r = _mm512_mask_blend_ps(uneg, r, _mm512_sub_ps(pi, r));
        r = _mm512_mask_blend_ps(vneg, r, grad_xor16(r, sign));
        t = _mm512_mul_ps(r, invTwoPi);
        t = _mm512_mask_blend_ps(_mm512_cmp_ps_mask(t, zero, _CMP_LT_OQ), t, _mm512_add_ps(t, one));
    }
    if (simple) return _mm512_cvttps_epi32(_mm512_add_ps(_mm512_mul_ps(t, last), half));
    __mmask16 nan = _mm512_cmp_ps_mask(t, t, _CMP_UNORD_Q);
    __m512 c = _mm512_mask_blend_ps(nan, t, zero);
    c = _mm512_mask_blend_ps(_mm512_cmp_ps_mask(c, zero, _CMP_LT_OQ), c, zero);
    c = _mm512_mask_blend_ps(_mm512_cmp_ps_mask(c, one, _CMP_GT_OQ), c, one);
    __m512i idx = _mm512_cvttps_epi32(_mm512_add_ps(_mm512_mul_ps(c, last), half));
    if (kind != 2) {
        idx = _mm512_mask_blend_epi32(_mm512_cmp_ps_mask(t, zero, _CMP_LT_OQ), idx, _mm512_set1_epi32(before));
        idx = _mm512_mask_blend_epi32(_mm512_cmp_ps_mask(t, one, _CMP_GT_OQ), idx, _mm512_set1_epi32(after));
        idx = _mm512_mask_blend_epi32(nan, idx, _mm512_set1_epi32(1026));
    }
    return idx;
}

/* 16 pixels per step for the indices, then each half as grad_over_at's block; the rest
 * (fewer than 16 pixels) by grad_over_at. */
FBK_AVX512_INLINE void grad_over16(uint32_t *dst, const uint8_t *mask, uint32_t opacity, intptr_t n,
                                   const uint32_t *table, const grad_setup *g, const float *p,
                                   int32_t before, int32_t after, const grad_occ *occ,
                                   int kind, int affine, int simple) {
    const __m256i amask = _mm256_set1_epi32((int)0xFF000000u);
    intptr_t i = 0;
    for (; i + 16 <= n; i += 16) {
        uint64_t m0 = ~(uint64_t)0, m1 = ~(uint64_t)0;
        int h0 = grad_hidden(occ, i), h1 = grad_hidden(occ, i + 8);
        if (h0 && h1) continue;
        if (mask) {
            m0 = fbk_load_u64(mask + i);
            m1 = fbk_load_u64(mask + i + 8);
            if ((m0 | m1) == 0) continue;
        }
        __m512i idx = grad_index16(i, p, before, after, kind, affine, simple);
        for (int h = 0; h < 2; h++) {
            uint64_t m = h ? m1 : m0;
            if (mask && m == 0) continue;
            if (h ? h1 : h0) continue;
            uint32_t *o = dst + i + 8 * h;
            __m256i px = grad_lookup(table, h ? _mm512_extracti64x4_epi64(idx, 1) : _mm512_castsi512_si256(idx));
            if (m == ~(uint64_t)0 && opacity == 255 && _mm256_testc_si256(px, amask)) {
                _mm256_storeu_si256((__m256i *)o, px);
                continue;
            }
            __m256i d = _mm256_loadu_si256((const __m256i *)o);
            _mm256_storeu_si256((__m256i *)o, mask ? grad_over_block_m(px, d, m, opacity) : grad_over_block(px, d, NULL, opacity));
        }
    }
    grad_over_at(i, dst, mask, opacity, n, table, g, occ, kind, affine, simple);
}

FBK_AVX2 static void grad_over_avx2(uint32_t *dst, const uint8_t *mask, uint32_t opacity, intptr_t n,
                                    const uint32_t *table, int kind,
                                    float u0, float v0, float w0, float mu, float mv, float mw,
                                    int32_t before, int32_t after, const grad_occ *occ) {
    if (n <= 0 || opacity == 0) return;
    grad_setup g = grad_init(u0, v0, w0, mu, mv, mw, before, after);
    if (occ) {
        GRAD_DISPATCH(grad_over, dst, mask, opacity, n, table, &g, occ);
    } else {
        GRAD_DISPATCH(grad_over, dst, mask, opacity, n, table, &g, (const grad_occ *)0);
    }
}

FBK_AVX2 void fbk_gradient_over_avx2(uint32_t *dst, const uint8_t *mask, uint32_t opacity, intptr_t n,
                                     const uint32_t *table, int kind,
                                     float u0, float v0, float w0, float mu, float mv, float mw,
                                     int32_t before, int32_t after) {
    grad_over_avx2(dst, mask, opacity, n, table, kind, u0, v0, w0, mu, mv, mw, before, after, 0);
}

/* The same function for AVX-512F/VL/BW: radial and conic positions 16 at a time
 * (grad_index16: the same operations lane for lane, so the same bytes; -2 % radial, -9 %
 * conic on Zen 4 in the gradient benchmark, -15 % / -26 % in a row microbenchmark), axial the
 * 8-lane code with 32 registers. The caller checks fbk_cpu_has_avx512bw(); the VL check is
 * here (every CPU with BW has had VL, but it is a separate CPUID bit): without it the AVX2
 * build runs. */
__attribute__((target("avx2,avx512f,avx512vl,avx512bw")))
static void grad_over_avx512vl(uint32_t *dst, const uint8_t *mask, uint32_t opacity, intptr_t n,
                               const uint32_t *table, int kind,
                               float u0, float v0, float w0, float mu, float mv, float mw,
                               int32_t before, int32_t after, const grad_occ *occ) {
    if (n <= 0 || opacity == 0) return;
    grad_setup g = grad_init(u0, v0, w0, mu, mv, mw, before, after);
    if (kind == 0) { /* axial: 16 lanes measured 3-8 % slower than 8 (it is lookup bound) */
        if (occ) {
            GRAD_DISPATCH(grad_over, dst, mask, opacity, n, table, &g, occ);
        } else {
            GRAD_DISPATCH(grad_over, dst, mask, opacity, n, table, &g, (const grad_occ *)0);
        }
        return;
    }
    const float p[6] = {u0, v0, w0, mu, mv, mw};
    if (occ) {
        GRAD_DISPATCH(grad_over16, dst, mask, opacity, n, table, &g, p, before, after, occ);
    } else {
        GRAD_DISPATCH(grad_over16, dst, mask, opacity, n, table, &g, p, before, after, (const grad_occ *)0);
    }
}

static int grad_has_avx512vl(void) {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512bw");
}

/* Whether the AVX-512 build runs: asked for (`wide`) and the CPU has AVX-512VL/BW. */
static inline int grad_wide(int wide) {
    static int cached = -1;
    return wide && fbk_cached_flag(&cached, grad_has_avx512vl);
}

/* The AVX-512 build (`wide`, from grad_wide) or the AVX2 one: the same bytes. */
static inline void grad_over_any(uint32_t *dst, const uint8_t *mask, uint32_t opacity, intptr_t n,
                                 const uint32_t *table, int kind,
                                 float u0, float v0, float w0, float mu, float mv, float mw,
                                 int32_t before, int32_t after, const grad_occ *occ, int wide) {
    if (wide) {
        grad_over_avx512vl(dst, mask, opacity, n, table, kind, u0, v0, w0, mu, mv, mw, before, after, occ);
    } else {
        grad_over_avx2(dst, mask, opacity, n, table, kind, u0, v0, w0, mu, mv, mw, before, after, occ);
    }
}

void fbk_gradient_over_avx512vl(uint32_t *dst, const uint8_t *mask, uint32_t opacity, intptr_t n,
                                const uint32_t *table, int kind,
                                float u0, float v0, float w0, float mu, float mv, float mw,
                                int32_t before, int32_t after) {
    grad_over_any(dst, mask, opacity, n, table, kind, u0, v0, w0, mu, mv, mw, before, after, 0, grad_wide(1));
}

void fbk_gradient_over_occluded(uint32_t *dst, const uint8_t *mask, uint32_t opacity, intptr_t n,
                                const uint32_t *table, int kind,
                                float u0, float v0, float w0, float mu, float mv, float mw,
                                int32_t before, int32_t after,
                                const uint16_t *owner, intptr_t ox, uint32_t rank, int wide) {
    const grad_occ o = {owner, ox, rank};
    grad_over_any(dst, mask, opacity, n, table, kind, u0, v0, w0, mu, mv, mw, before, after, owner ? &o : 0, grad_wide(wide));
}
/* fbk_gradient_over_rows: rows y ... y + nrows - 1 of one draw in one call (see the header). */
void fbk_gradient_over_rows(uint32_t *dst, intptr_t dstStride, intptr_t nrows, intptr_t y, intptr_t x,
                            const intptr_t *starts, const intptr_t *counts,
                            const uint8_t *coverage, intptr_t coverageStride, uint32_t opacity,
                            const uint32_t *table, int kind, const float *m, int32_t before, int32_t after,
                            const uint16_t *owner, const uint16_t *rowMax, intptr_t blocks, intptr_t y0,
                            uint32_t rank, int wide) {
    const int w = grad_wide(wide);
    for (intptr_t i = 0; i < nrows; i++) {
        const intptr_t n = counts[i];
        if (n <= 0) continue;
        const intptr_t x0 = x + starts[i], yy = y + i;
        /* GradientPaint.rowStart, operation for operation (no contraction in this file). */
        const float px = (float)x0 + 0.5f, py = (float)yy + 0.5f;
        const float u0 = m[0] * px + m[1] * py + m[2];
        const float v0 = m[3] * px + m[4] * py + m[5];
        const float w0 = m[6] * px + m[7] * py + m[8];
        grad_occ o = {0, x0, rank};
        if (owner && rowMax[yy - y0] > rank) o.owner = owner + (yy - y0) * blocks;
        uint32_t *d = dst + i * dstStride + starts[i];
        const uint8_t *c = coverage + i * coverageStride + starts[i];
        grad_over_any(d, c, opacity, n, table, kind, u0, v0, w0, m[0], m[3], m[6], before, after, o.owner ? &o : 0, w);
    }
}
#else
void fbk_gradient_over_rows(uint32_t *dst, intptr_t dstStride, intptr_t nrows, intptr_t y, intptr_t x,
                            const intptr_t *starts, const intptr_t *counts,
                            const uint8_t *coverage, intptr_t coverageStride, uint32_t opacity,
                            const uint32_t *table, int kind, const float *m, int32_t before, int32_t after,
                            const uint16_t *owner, const uint16_t *rowMax, intptr_t blocks, intptr_t y0,
                            uint32_t rank, int wide) {
    (void)dst; (void)dstStride; (void)nrows; (void)y; (void)x; (void)starts; (void)counts; (void)coverage;
    (void)coverageStride; (void)opacity; (void)table; (void)kind; (void)m; (void)before; (void)after; (void)owner;
    (void)rowMax; (void)blocks; (void)y0; (void)rank; (void)wide;
}
void fbk_gradient_over_occluded(uint32_t *dst, const uint8_t *mask, uint32_t opacity, intptr_t n,
                                const uint32_t *table, int kind,
                                float u0, float v0, float w0, float mu, float mv, float mw,
                                int32_t before, int32_t after,
                                const uint16_t *owner, intptr_t ox, uint32_t rank, int wide) {
    (void)dst; (void)mask; (void)opacity; (void)n; (void)table; (void)kind; (void)u0; (void)v0; (void)w0;
    (void)mu; (void)mv; (void)mw; (void)before; (void)after; (void)owner; (void)ox; (void)rank; (void)wide;
}
intptr_t fbk_gradient_avx2(uint32_t *out, intptr_t n, const uint32_t *table, int kind,
                           float u0, float v0, float w0, float mu, float mv, float mw,
                           int32_t before, int32_t after) {
    (void)out; (void)n; (void)table; (void)kind; (void)u0; (void)v0; (void)w0; (void)mu; (void)mv; (void)mw;
    (void)before; (void)after;
    return 0;
}
void fbk_gradient_over_avx2(uint32_t *dst, const uint8_t *mask, uint32_t opacity, intptr_t n,
                            const uint32_t *table, int kind,
                            float u0, float v0, float w0, float mu, float mv, float mw,
                            int32_t before, int32_t after) {
    (void)dst; (void)mask; (void)opacity; (void)n; (void)table; (void)kind; (void)u0; (void)v0; (void)w0;
    (void)mu; (void)mv; (void)mw; (void)before; (void)after;
}
void fbk_gradient_over_avx512vl(uint32_t *dst, const uint8_t *mask, uint32_t opacity, intptr_t n,
                                const uint32_t *table, int kind,
                                float u0, float v0, float w0, float mu, float mv, float mw,
                                int32_t before, int32_t after) {
    (void)dst; (void)mask; (void)opacity; (void)n; (void)table; (void)kind; (void)u0; (void)v0; (void)w0;
    (void)mu; (void)mv; (void)mw; (void)before; (void)after;
}
#endif
