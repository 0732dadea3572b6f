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

#pragma STDC FP_CONTRACT OFF
#if defined(__clang__)
#pragma clang fp contract(off)
#endif

#if FBK_X86
FBK_AVX2 intptr_t fbk_gradient_avx2(uint32_t *out, intptr_t n, const uint32_t *table, int kind,
                                    float u0, float v0, float w0, float mu, float mv, float mw,
                                    int32_t before, int32_t after) {
    const __m256 lane = _mm256_setr_ps(0, 1, 2, 3, 4, 5, 6, 7);
    const __m256 zero = _mm256_setzero_ps(), one = _mm256_set1_ps(1.0f);
    const __m256 last = _mm256_set1_ps(1023.0f), half = _mm256_set1_ps(0.5f);
    const __m256 sign = _mm256_set1_ps(-0.0f);
    const __m256 halfPi = _mm256_set1_ps(1.5707963267948966f), pi = _mm256_set1_ps(3.141592653589793f);
    const __m256 invTwoPi = _mm256_set1_ps(1.0f / 6.283185307179586f);
    const __m256 c1 = _mm256_set1_ps(-0.0464964749f), c2 = _mm256_set1_ps(0.15931422f), c3 = _mm256_set1_ps(0.327622764f);
    const __m256 U0 = _mm256_set1_ps(u0), V0 = _mm256_set1_ps(v0), W0 = _mm256_set1_ps(w0);
    const __m256 MU = _mm256_set1_ps(mu), MV = _mm256_set1_ps(mv), MW = _mm256_set1_ps(mw);
    const __m256i vBefore = _mm256_set1_epi32(before), vAfter = _mm256_set1_epi32(after);
    const __m256i vNaN = _mm256_set1_epi32(1026);
    /* An affine map has W = w0 + i*0 = 1 exactly at every pixel, and U/1 = U in IEEE
     * arithmetic: the divisions (the slowest instructions here) are skipped with the same bits. */
    const int affine = mw == 0.0f && w0 == 1.0f;
    intptr_t i = 0;
    for (; i < n; i += 8) {
        __m256 f = _mm256_add_ps(_mm256_set1_ps((float)i), lane);
        __m256 U = _mm256_add_ps(U0, _mm256_mul_ps(f, MU));
        __m256 V = kind == 0 && affine ? U : _mm256_add_ps(V0, _mm256_mul_ps(f, MV));
        __m256 u = U, v = V;
        if (!affine) {
            __m256 W = _mm256_add_ps(W0, _mm256_mul_ps(f, MW));
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
        __m256 nan = _mm256_cmp_ps(t, t, _CMP_UNORD_Q);
        __m256 c = _mm256_blendv_ps(t, zero, nan);
        c = _mm256_blendv_ps(c, zero, _mm256_cmp_ps(c, zero, _CMP_LT_OQ));
        c = _mm256_blendv_ps(c, one, _mm256_cmp_ps(c, one, _CMP_GT_OQ));
        __m256i idx = _mm256_cvttps_epi32(_mm256_add_ps(_mm256_mul_ps(c, last), half));
        if (kind != 2) {
            idx = _mm256_blendv_epi8(idx, vBefore, _mm256_castps_si256(_mm256_cmp_ps(t, zero, _CMP_LT_OQ)));
            idx = _mm256_blendv_epi8(idx, vAfter, _mm256_castps_si256(_mm256_cmp_ps(t, one, _CMP_GT_OQ)));
            idx = _mm256_blendv_epi8(idx, vNaN, _mm256_castps_si256(nan));
        }
        __m256i px = _mm256_i32gather_epi32((const int *)table, idx, 4);
        if (i + 8 <= n) {
            _mm256_storeu_si256((__m256i *)(out + i), px);
        } else {
            _mm256_maskstore_epi32((int *)(out + i), fbk_tail_keep(n - i), px);
        }
    }
    return n;
}
#else
intptr_t fbk_gradient_avx2(uint32_t *out, intptr_t n, const uint32_t *table, int kind,
                           float u0, float v0, float w0, float mu, float mv, float mw,
                           int32_t before, int32_t after) {
    (void)out; (void)n; (void)table; (void)kind; (void)u0; (void)v0; (void)w0; (void)mu; (void)mv; (void)mw;
    (void)before; (void)after;
    return 0;
}
#endif
