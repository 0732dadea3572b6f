/*
 * sample_avx2.c -- fused image samplers (sample -> opacity/coverage -> source-over), AVX2.
 * Bit-identical to Sources/FlipbookRaster/ImageSampler+Scalar.swift.
 *
 * Bilinear with 8-bit weights fx, fy in 0...255 (docs/kernels.md):
 *   v = (c00*(256-fx)*(256-fy) + c10*fx*(256-fy) + c01*(256-fx)*fy + c11*fx*fy + 32768) >> 16
 * computed without intermediate rounding, so evaluation order does not matter:
 *   col0 = c00*256 + (c01-c00)*fy            (exact in u16: <= 65280; mullo wraps correctly)
 *   v    = (col0*(256-fx) + col1*fx + 32768) >> 16
 *        = (madd((col0-32768, col1-32768), (256-fx, fx)) + 2^23 + 2^15) >> 16
 * because (256-fx) + fx = 256, so the signed bias costs exactly 32768*256 = 2^23.
 */
#include "fbk_avx2.h"

#if FBK_X86
/* 4 texels per pixel + weights -> bilinear result in the 16-bit layout */
FBK_AVX2_INLINE void bilerp(__m256i p00, __m256i p10, __m256i p01, __m256i p11, __m256i fx,
                                   __m256i fy, __m256i *slo, __m256i *shi) {
    __m256i z = _mm256_setzero_si256(), flip = _mm256_set1_epi16((short)0x8000);
    __m256i fylo, fyhi;
    fbk_spread_k(fy, &fylo, &fyhi);
    __m256i a, b;
    a = _mm256_unpacklo_epi8(p00, z); b = _mm256_unpacklo_epi8(p01, z);
    __m256i c0lo = _mm256_xor_si256(_mm256_add_epi16(_mm256_slli_epi16(a, 8), _mm256_mullo_epi16(_mm256_sub_epi16(b, a), fylo)), flip);
    a = _mm256_unpackhi_epi8(p00, z); b = _mm256_unpackhi_epi8(p01, z);
    __m256i c0hi = _mm256_xor_si256(_mm256_add_epi16(_mm256_slli_epi16(a, 8), _mm256_mullo_epi16(_mm256_sub_epi16(b, a), fyhi)), flip);
    a = _mm256_unpacklo_epi8(p10, z); b = _mm256_unpacklo_epi8(p11, z);
    __m256i c1lo = _mm256_xor_si256(_mm256_add_epi16(_mm256_slli_epi16(a, 8), _mm256_mullo_epi16(_mm256_sub_epi16(b, a), fylo)), flip);
    a = _mm256_unpackhi_epi8(p10, z); b = _mm256_unpackhi_epi8(p11, z);
    __m256i c1hi = _mm256_xor_si256(_mm256_add_epi16(_mm256_slli_epi16(a, 8), _mm256_mullo_epi16(_mm256_sub_epi16(b, a), fyhi)), flip);
    /* weights per pixel: low half 256-fx (for col0), high half fx (for col1) */
    __m256i wx = _mm256_or_si256(_mm256_slli_epi32(fx, 16), _mm256_sub_epi32(_mm256_set1_epi32(256), fx));
    __m256i bias = _mm256_set1_epi32(0x808000);
    __m256i r0 = _mm256_srai_epi32(_mm256_add_epi32(_mm256_madd_epi16(_mm256_unpacklo_epi16(c0lo, c1lo), _mm256_shuffle_epi32(wx, 0x00)), bias), 16);
    __m256i r1 = _mm256_srai_epi32(_mm256_add_epi32(_mm256_madd_epi16(_mm256_unpackhi_epi16(c0lo, c1lo), _mm256_shuffle_epi32(wx, 0x55)), bias), 16);
    __m256i r2 = _mm256_srai_epi32(_mm256_add_epi32(_mm256_madd_epi16(_mm256_unpacklo_epi16(c0hi, c1hi), _mm256_shuffle_epi32(wx, 0xAA)), bias), 16);
    __m256i r3 = _mm256_srai_epi32(_mm256_add_epi32(_mm256_madd_epi16(_mm256_unpackhi_epi16(c0hi, c1hi), _mm256_shuffle_epi32(wx, 0xFF)), bias), 16);
    *slo = _mm256_packs_epi32(r0, r1);
    *shi = _mm256_packs_epi32(r2, r3);
}


/* Interior fast path: every lane's 2x2 footprint is inside the image, so each row pair
 * (p00,p10) / (p01,p11) is one unaligned 8-byte load (the gathers were the bottleneck).
 * Pixel k and k+4 share a vector (lane 0 / lane 1), matching the 16-bit layout after packs. */
FBK_AVX2_INLINE void bilerp_pairs(const fbk_image *img, __m256i x0, __m256i y0, __m256i fx,
                                         __m256i fy, __m256i *slo, __m256i *shi) {
    const uint32_t *base = img->pixels;
    const intptr_t S = img->stride;
    int32_t idx[8];
    _mm256_storeu_si256((__m256i *)idx, _mm256_add_epi32(_mm256_mullo_epi32(y0, _mm256_set1_epi32(img->stride)), x0));
    /* bytes [r0 g0 b0 a0 r1 g1 b1 a1] -> u16 [r0 r1 g0 g1 b0 b1 a0 a1] (zero-extended) */
    const __m256i order = _mm256_setr_epi8(0, -1, 4, -1, 1, -1, 5, -1, 2, -1, 6, -1, 3, -1, 7, -1,
                                           0, -1, 4, -1, 1, -1, 5, -1, 2, -1, 6, -1, 3, -1, 7, -1);
    const __m256i flip = _mm256_set1_epi16((short)0x8000), bias = _mm256_set1_epi32(0x808000);
    __m256i wx = _mm256_or_si256(_mm256_slli_epi32(_mm256_sub_epi32(_mm256_set1_epi32(256), fx), 0),
                                 _mm256_slli_epi32(fx, 16));
    __m256i r[4];
    for (int k = 0; k < 4; k++) {
        const uint32_t *a = base + idx[k], *b = base + idx[k + 4];
        __m256i top = _mm256_set_m128i(_mm_loadl_epi64((const __m128i *)b), _mm_loadl_epi64((const __m128i *)a));
        __m256i bot = _mm256_set_m128i(_mm_loadl_epi64((const __m128i *)(b + S)), _mm_loadl_epi64((const __m128i *)(a + S)));
        top = _mm256_shuffle_epi8(top, order);
        bot = _mm256_shuffle_epi8(bot, order);
        const __m256i fsel = _mm256_set1_epi16((short)(0xFF00 | (k * 4)));  /* byte k*4 of each lane, zero high */
        __m256i fyk = _mm256_shuffle_epi8(fy, fsel);
        __m256i col = _mm256_xor_si256(_mm256_add_epi16(_mm256_slli_epi16(top, 8),
                                       _mm256_mullo_epi16(_mm256_sub_epi16(bot, top), fyk)), flip);
        __m256i wk = _mm256_shuffle_epi8(wx, _mm256_set1_epi32((int)(0x03020100u + 0x04040404u * (uint32_t)k)));
        r[k] = _mm256_srai_epi32(_mm256_add_epi32(_mm256_madd_epi16(col, wk), bias), 16);
    }
    *slo = _mm256_packs_epi32(r[0], r[1]);
    *shi = _mm256_packs_epi32(r[2], r[3]);
}

/* 1 when every lane has 0 <= x0 < w-1 and 0 <= y0 < h-1 */
FBK_AVX2_INLINE int all_inside(const fbk_image *img, __m256i x0, __m256i y0) {
    __m256i m1 = _mm256_set1_epi32(-1);
    __m256i in = _mm256_and_si256(_mm256_and_si256(_mm256_cmpgt_epi32(x0, m1), _mm256_cmpgt_epi32(_mm256_set1_epi32(img->width - 1), x0)),
                                  _mm256_and_si256(_mm256_cmpgt_epi32(y0, m1), _mm256_cmpgt_epi32(_mm256_set1_epi32(img->height - 1), y0)));
    return _mm256_movemask_epi8(in) == -1;
}

/* [tint] + opacity/coverage scale + source-over + store of one block (16-bit layout source).
 * `tint` (NULL: none) is the premultiplied tint in the 16-bit layout: s = div255(s * t) per
 * channel first (PixelMath.modulate), as fbk_modulate_avx2 on the sampled colours. */
FBK_AVX2_INLINE void finish(uint32_t *dst, __m256i slo, __m256i shi, const uint8_t *mask,
                                   uint32_t opacity, const __m256i *tint) {
    if (tint) {
        slo = fbk_div255_16(_mm256_mullo_epi16(slo, *tint));
        shi = fbk_div255_16(_mm256_mullo_epi16(shi, *tint));
    }
    fbk_scale16(&slo, &shi, mask, opacity);
    __m256i d = _mm256_loadu_si256((const __m256i *)dst);
    _mm256_storeu_si256((__m256i *)dst, fbk_over16(slo, shi, d));
}

/* taps for integer texel coordinates x0, y0 (x1 = x0+1, y1 = y0+1), decal or clamp.
 * In clamp mode the caller has already clamped x0 to [0, w-1]. `valid` limits the lanes. */
FBK_AVX2_INLINE int gather4(const fbk_image *img, __m256i x0, __m256i y0, int clamp, __m256i valid,
                                   __m256i *p00, __m256i *p10, __m256i *p01, __m256i *p11) {
    const int *base = (const int *)img->pixels;
    __m256i one = _mm256_set1_epi32(1), m1 = _mm256_set1_epi32(-1);
    __m256i W = _mm256_set1_epi32(img->width), H = _mm256_set1_epi32(img->height);
    __m256i S = _mm256_set1_epi32(img->stride);
    __m256i x1 = _mm256_add_epi32(x0, one), y1 = _mm256_add_epi32(y0, one);
    __m256i mx0, mx1, my0, my1;
    if (clamp) {
        x1 = _mm256_min_epi32(x1, _mm256_sub_epi32(W, one));
        y1 = _mm256_min_epi32(y1, _mm256_sub_epi32(H, one));
        mx0 = mx1 = my0 = my1 = valid;
    } else {
        mx0 = _mm256_and_si256(valid, _mm256_and_si256(_mm256_cmpgt_epi32(x0, m1), _mm256_cmpgt_epi32(W, x0)));
        mx1 = _mm256_and_si256(valid, _mm256_and_si256(_mm256_cmpgt_epi32(x1, m1), _mm256_cmpgt_epi32(W, x1)));
        my0 = _mm256_and_si256(_mm256_cmpgt_epi32(y0, m1), _mm256_cmpgt_epi32(H, y0));
        my1 = _mm256_and_si256(_mm256_cmpgt_epi32(y1, m1), _mm256_cmpgt_epi32(H, y1));
    }
    __m256i k00 = _mm256_and_si256(mx0, my0), k10 = _mm256_and_si256(mx1, my0);
    __m256i k01 = _mm256_and_si256(mx0, my1), k11 = _mm256_and_si256(mx1, my1);
    __m256i any = _mm256_or_si256(_mm256_or_si256(k00, k10), _mm256_or_si256(k01, k11));
    if (_mm256_testz_si256(any, any)) return 0;
    __m256i r0 = _mm256_mullo_epi32(y0, S), r1 = _mm256_mullo_epi32(y1, S);
    __m256i z = _mm256_setzero_si256();
    *p00 = _mm256_mask_i32gather_epi32(z, base, _mm256_add_epi32(r0, x0), k00, 4);
    *p10 = _mm256_mask_i32gather_epi32(z, base, _mm256_add_epi32(r0, x1), k10, 4);
    *p01 = _mm256_mask_i32gather_epi32(z, base, _mm256_add_epi32(r1, x0), k01, 4);
    *p11 = _mm256_mask_i32gather_epi32(z, base, _mm256_add_epi32(r1, x1), k11, 4);
    return 1;
}

/* clamp an integer coordinate to [0, lim-1]; the weight is zeroed where it was clamped */
FBK_AVX2_INLINE void clamp_coord(__m256i *c, __m256i *f, int32_t lim) {
    __m256i cc = _mm256_min_epi32(_mm256_max_epi32(*c, _mm256_setzero_si256()), _mm256_set1_epi32(lim - 1));
    *f = _mm256_and_si256(*f, _mm256_cmpeq_epi32(cc, *c));
    *c = cc;
}

/* clamp_coord for a bordered image (fbk_image.border): to [-1, lim-1], the weight zeroed
 * where clamped; every footprint is then inside the border, read as pairs with the values
 * clamp_coord + gather4 read (see s_clamp_border in sample_avx512.c). */
FBK_AVX2_INLINE void clamp_border(__m256i *c, __m256i *f, int32_t lim) {
    __m256i cc = _mm256_min_epi32(_mm256_max_epi32(*c, _mm256_set1_epi32(-1)), _mm256_set1_epi32(lim - 1));
    *f = _mm256_and_si256(*f, _mm256_cmpeq_epi32(cc, *c));
    *c = cc;
}

FBK_AVX2_INLINE int affine_block(uint32_t *dst, const fbk_image *img, __m256i hu, __m256i lu,
                                        __m256i hv, __m256i lv, int bilinear, int clamp,
                                        uint32_t opacity, const uint8_t *mask, const __m256i *tint) {
    __m256i slo, shi, ones = _mm256_set1_epi32(-1);
    if (bilinear) {
        __m256i fx = _mm256_srli_epi32(lu, 24), fy = _mm256_srli_epi32(lv, 24);
        /* Interior blocks first: when every footprint is inside, clamping changes nothing
         * (0 <= x0 < w-1 keeps x0 and fx), so the clamp work is only done at the edges. */
        if (all_inside(img, hu, hv)) {
            bilerp_pairs(img, hu, hv, fx, fy, &slo, &shi);
            finish(dst, slo, shi, mask, opacity, tint);
            return 1;
        }
        if (clamp && img->border) {
            clamp_border(&hu, &fx, img->width); clamp_border(&hv, &fy, img->height);
            bilerp_pairs(img, hu, hv, fx, fy, &slo, &shi);
            finish(dst, slo, shi, mask, opacity, tint);
            return 1;
        }
        if (clamp) { clamp_coord(&hu, &fx, img->width); clamp_coord(&hv, &fy, img->height); }
        if (clamp && all_inside(img, hu, hv)) {
            bilerp_pairs(img, hu, hv, fx, fy, &slo, &shi);
        } else {
            __m256i p00, p10, p01, p11;
            if (!gather4(img, hu, hv, clamp, ones, &p00, &p10, &p01, &p11)) return 0;
            bilerp(p00, p10, p01, p11, fx, fy, &slo, &shi);
        }
    } else {
        __m256i z = _mm256_setzero_si256(), m1 = _mm256_set1_epi32(-1), k;
        if (clamp) {
            hu = _mm256_min_epi32(_mm256_max_epi32(hu, z), _mm256_set1_epi32(img->width - 1));
            hv = _mm256_min_epi32(_mm256_max_epi32(hv, z), _mm256_set1_epi32(img->height - 1));
            k = ones;
        } else {
            k = _mm256_and_si256(_mm256_and_si256(_mm256_cmpgt_epi32(hu, m1), _mm256_cmpgt_epi32(_mm256_set1_epi32(img->width), hu)),
                                 _mm256_and_si256(_mm256_cmpgt_epi32(hv, m1), _mm256_cmpgt_epi32(_mm256_set1_epi32(img->height), hv)));
            if (_mm256_testz_si256(k, k)) return 0;
        }
        __m256i idx = _mm256_add_epi32(_mm256_mullo_epi32(hv, _mm256_set1_epi32(img->stride)), hu);
        __m256i s = _mm256_mask_i32gather_epi32(z, (const int *)img->pixels, idx, k, 4);
        slo = _mm256_unpacklo_epi8(s, z);
        shi = _mm256_unpackhi_epi8(s, z);
    }
    finish(dst, slo, shi, mask, opacity, tint);
    return 1;
}

/* 32.32 coordinate as (hi: int32, lo: uint32) lane pairs; add (dh, dl) with carry */
FBK_AVX2_INLINE void step64(__m256i *h, __m256i *l, __m256i dh, __m256i dl) {
    const __m256i sign = _mm256_set1_epi32((int)0x80000000u);
    __m256i nl = _mm256_add_epi32(*l, dl);
    /* carry where nl < dl (unsigned) */
    __m256i carry = _mm256_cmpgt_epi32(_mm256_xor_si256(dl, sign), _mm256_xor_si256(nl, sign));
    *h = _mm256_sub_epi32(_mm256_add_epi32(*h, dh), carry);
    *l = nl;
}

#ifndef FBK_PF
#define FBK_PF 64 /* prefetch distance in pixels */
#endif

/* The loop, specialised by the caller on constant (bilinear, clamp) so no flag is tested per block. */
FBK_AVX2_INLINE void affine_loop(uint32_t *dst, intptr_t n, const fbk_image *img, int64_t u, int64_t v,
                                 int64_t du, int64_t dv, int bilinear, int clamp, uint32_t opacity,
                                 const uint8_t *mask, const __m256i *tint) {
    int32_t hu[8], hv[8];
    uint32_t lu[8], lv[8];
    for (int k = 0; k < 8; k++) {
        uint64_t U = (uint64_t)u + (uint64_t)k * (uint64_t)du, V = (uint64_t)v + (uint64_t)k * (uint64_t)dv;
        hu[k] = (int32_t)(U >> 32); lu[k] = (uint32_t)U;
        hv[k] = (int32_t)(V >> 32); lv[k] = (uint32_t)V;
    }
    __m256i HU = _mm256_loadu_si256((const __m256i *)hu), LU = _mm256_loadu_si256((const __m256i *)lu);
    __m256i HV = _mm256_loadu_si256((const __m256i *)hv), LV = _mm256_loadu_si256((const __m256i *)lv);
    uint64_t su = (uint64_t)du * 8u, sv = (uint64_t)dv * 8u;
    __m256i dHU = _mm256_set1_epi32((int32_t)(su >> 32)), dLU = _mm256_set1_epi32((int32_t)(uint32_t)su);
    __m256i dHV = _mm256_set1_epi32((int32_t)(sv >> 32)), dLV = _mm256_set1_epi32((int32_t)(uint32_t)sv);
    /* Software prefetch of the texel rows PF pixels ahead: a rotated layer walks its texture
     * diagonally, which the hardware prefetchers do not follow, and 64 layers of 256×256 (16 MB
     * of textures) come from L3 / memory (the same scene with one shared texture runs ~40%
     * faster). 64 px ahead measured best (16: -3%, 24: -6%, 64: -12% CPU on that scene; 128
     * worse). Prefetches never
     * fault and change no result; addresses outside the image are harmless. */
    const char *pbase = (const char *)img->pixels;
    const intptr_t pstride = (intptr_t)img->stride * 4;
    uint64_t pu = (uint64_t)u + (uint64_t)FBK_PF * (uint64_t)du, pv = (uint64_t)v + (uint64_t)FBK_PF * (uint64_t)dv;
    intptr_t i = 0;
    for (; i + 8 <= n; i += 8) {
        if (bilinear) {
            /* integer address arithmetic: the point may lie outside the image */
            const char *p = (const char *)((uintptr_t)pbase + (uintptr_t)((intptr_t)(int32_t)(pv >> 32) * pstride
                                                                          + (intptr_t)(int32_t)(pu >> 32) * 4));
            _mm_prefetch(p, _MM_HINT_T0);
            _mm_prefetch(p + pstride, _MM_HINT_T0);
            pu += su; pv += sv;
        }
        if (!(mask && fbk_load_u64(mask + i) == 0))
            affine_block(dst + i, img, HU, LU, HV, LV, bilinear, clamp, opacity, mask ? mask + i : NULL, tint);
        step64(&HU, &LU, dHU, dLU);
        step64(&HV, &LV, dHV, dLV);
    }
    if (i < n) {
        intptr_t r = n - i;
        __m256i keep = fbk_tail_keep(r);
        uint32_t db[8];
        uint8_t mb[8] = {0};
        fbk_tail_load(db, dst + i, keep);
        if (mask) fbk_tail_mask(mb, mask + i, r);
        if (affine_block(db, img, HU, LU, HV, LV, bilinear, clamp, opacity, mask ? mb : NULL, tint))
            fbk_tail_store(dst + i, db, keep);
    }
}

FBK_AVX2 void fbk_affine_avx2(uint32_t *dst, intptr_t n, const fbk_image *img, int64_t u, int64_t v,
                              int64_t du, int64_t dv, int bilinear, int clamp, uint32_t opacity,
                              const uint8_t *mask) {
    if (n <= 0 || opacity == 0) return;
    fbk_image im = *img;
    if (bilinear) {
        if (clamp) affine_loop(dst, n, &im, u, v, du, dv, 1, 1, opacity, mask, NULL);
        else affine_loop(dst, n, &im, u, v, du, dv, 1, 0, opacity, mask, NULL);
    } else {
        if (clamp) affine_loop(dst, n, &im, u, v, du, dv, 0, 1, opacity, mask, NULL);
        else affine_loop(dst, n, &im, u, v, du, dv, 0, 0, opacity, mask, NULL);
    }
}

/* fbk_affine_avx2 with the sampled colours tinted before the opacity and coverage (one pass
 * instead of sample onto transparent -> fbk_modulate_avx2 -> fbk_over_avx2: the same
 * operations on the same values, so the same bytes). */
FBK_AVX2 void fbk_affine_tint_avx2(uint32_t *dst, intptr_t n, const fbk_image *img, int64_t u, int64_t v,
                                   int64_t du, int64_t dv, int bilinear, int clamp, uint32_t opacity,
                                   const uint8_t *mask, uint32_t tint) {
    if (n <= 0 || opacity == 0) return;
    fbk_image im = *img;
    const __m256i t = _mm256_unpacklo_epi8(_mm256_set1_epi32((int)tint), _mm256_setzero_si256());
    if (bilinear) {
        if (clamp) affine_loop(dst, n, &im, u, v, du, dv, 1, 1, opacity, mask, &t);
        else affine_loop(dst, n, &im, u, v, du, dv, 1, 0, opacity, mask, &t);
    } else {
        if (clamp) affine_loop(dst, n, &im, u, v, du, dv, 0, 1, opacity, mask, &t);
        else affine_loop(dst, n, &im, u, v, du, dv, 0, 0, opacity, mask, &t);
    }
}

FBK_AVX2_INLINE void proj_half(__m256d px, __m256d m0, __m256d m3, __m256d m6, __m256d rx,
                                      __m256d ry, __m256d rq, double w, double h, int clamp,
                                      __m128i *tx, __m128i *ty, __m128i *valid) {
    __m256d X = _mm256_add_pd(_mm256_mul_pd(m0, px), rx);
    __m256d Y = _mm256_add_pd(_mm256_mul_pd(m3, px), ry);
    __m256d Q = _mm256_add_pd(_mm256_mul_pd(m6, px), rq);
    __m256d r = _mm256_div_pd(_mm256_set1_pd(1.0), Q);
    __m256d half = _mm256_set1_pd(0.5), zero = _mm256_setzero_pd();
    __m256d sx = _mm256_sub_pd(_mm256_mul_pd(X, r), half);
    __m256d sy = _mm256_sub_pd(_mm256_mul_pd(Y, r), half);
    __m256d ok = _mm256_cmp_pd(Q, zero, _CMP_GT_OQ);
    if (clamp) {
        ok = _mm256_and_pd(ok, _mm256_and_pd(_mm256_cmp_pd(sx, sx, _CMP_EQ_OQ), _mm256_cmp_pd(sy, sy, _CMP_EQ_OQ)));
        sx = _mm256_and_pd(ok, sx); sy = _mm256_and_pd(ok, sy);
        sx = _mm256_min_pd(_mm256_max_pd(sx, zero), _mm256_set1_pd(w - 1.0));
        sy = _mm256_min_pd(_mm256_max_pd(sy, zero), _mm256_set1_pd(h - 1.0));
    } else {
        __m256d m1 = _mm256_set1_pd(-1.0);
        ok = _mm256_and_pd(ok, _mm256_and_pd(_mm256_cmp_pd(sx, m1, _CMP_GT_OQ), _mm256_cmp_pd(sy, m1, _CMP_GT_OQ)));
        ok = _mm256_and_pd(ok, _mm256_and_pd(_mm256_cmp_pd(sx, _mm256_set1_pd(w), _CMP_LT_OQ),
                                             _mm256_cmp_pd(sy, _mm256_set1_pd(h), _CMP_LT_OQ)));
        sx = _mm256_and_pd(ok, sx); sy = _mm256_and_pd(ok, sy);
    }
    __m256d k256 = _mm256_set1_pd(256.0);
    *tx = _mm256_cvttpd_epi32(_mm256_floor_pd(_mm256_mul_pd(sx, k256)));
    *ty = _mm256_cvttpd_epi32(_mm256_floor_pd(_mm256_mul_pd(sy, k256)));
    *valid = _mm256_cvtpd_epi32(_mm256_and_pd(ok, _mm256_set1_pd(-1.0))); /* -1 where ok, 0 else */
}

FBK_AVX2_INLINE int proj_block(uint32_t *dst, const fbk_image *img, double xs, const double *m9,
                                      double rowX, double rowY, double rowQ, int clamp,
                                      uint32_t opacity, const uint8_t *mask) {
    __m256d m0 = _mm256_set1_pd(m9[0]), m3 = _mm256_set1_pd(m9[3]), m6 = _mm256_set1_pd(m9[6]);
    __m256d rx = _mm256_set1_pd(rowX), ry = _mm256_set1_pd(rowY), rq = _mm256_set1_pd(rowQ);
    __m256d pa = _mm256_add_pd(_mm256_set1_pd(xs), _mm256_setr_pd(0.5, 1.5, 2.5, 3.5));
    __m256d pb = _mm256_add_pd(_mm256_set1_pd(xs), _mm256_setr_pd(4.5, 5.5, 6.5, 7.5));
    __m128i txa, tya, va, txb, tyb, vb;
    double w = (double)img->width, h = (double)img->height;
    proj_half(pa, m0, m3, m6, rx, ry, rq, w, h, clamp, &txa, &tya, &va);
    proj_half(pb, m0, m3, m6, rx, ry, rq, w, h, clamp, &txb, &tyb, &vb);
    __m256i valid = _mm256_set_m128i(vb, va);
    if (_mm256_testz_si256(valid, valid)) return 0;
    __m256i tx = _mm256_set_m128i(txb, txa), ty = _mm256_set_m128i(tyb, tya);
    __m256i c255 = _mm256_set1_epi32(255);
    __m256i x0 = _mm256_srai_epi32(tx, 8), fx = _mm256_and_si256(tx, c255);
    __m256i y0 = _mm256_srai_epi32(ty, 8), fy = _mm256_and_si256(ty, c255);
    __m256i p00, p10, p01, p11, slo, shi;
    if (_mm256_movemask_epi8(valid) == -1 && all_inside(img, x0, y0)) {
        bilerp_pairs(img, x0, y0, fx, fy, &slo, &shi);
    } else {
        if (!gather4(img, x0, y0, clamp, valid, &p00, &p10, &p01, &p11)) return 0;
        bilerp(p00, p10, p01, p11, fx, fy, &slo, &shi);
    }
    finish(dst, slo, shi, mask, opacity, NULL);
    return 1;
}

FBK_AVX2_INLINE void proj_loop(uint32_t *dst, intptr_t n, const fbk_image *img, const double *m9,
                               double x0, double rowX, double rowY, double rowQ, int clamp,
                               uint32_t opacity, const uint8_t *mask) {
    intptr_t i = 0;
    for (; i + 8 <= n; i += 8) {
        if (mask && fbk_load_u64(mask + i) == 0) continue;
        proj_block(dst + i, img, x0 + (double)i, m9, rowX, rowY, rowQ, clamp, opacity, mask ? mask + i : NULL);
    }
    if (i < n) {
        intptr_t r = n - i;
        __m256i keep = fbk_tail_keep(r);
        uint32_t db[8];
        uint8_t mb[8] = {0};
        fbk_tail_load(db, dst + i, keep);
        if (mask) fbk_tail_mask(mb, mask + i, r);
        if (proj_block(db, img, x0 + (double)i, m9, rowX, rowY, rowQ, clamp, opacity, mask ? mb : NULL))
            fbk_tail_store(dst + i, db, keep);
    }
}

FBK_AVX2 void fbk_projective_avx2(uint32_t *dst, intptr_t n, const fbk_image *img, const double *m9,
                                  double x0, double rowX, double rowY, double rowQ, int clamp,
                                  uint32_t opacity, const uint8_t *mask) {
    if (n <= 0 || opacity == 0) return;
    fbk_image im = *img;
    if (clamp) proj_loop(dst, n, &im, m9, x0, rowX, rowY, rowQ, 1, opacity, mask);
    else proj_loop(dst, n, &im, m9, x0, rowX, rowY, rowQ, 0, opacity, mask);
}
/* fbk_affine_avx2 per span, the (bilinear, clamp) switch and the image copy once per call */
FBK_AVX2 void fbk_affine_spans_avx2(const fbk_affine_span *sp, intptr_t count, const fbk_image *img,
                             int64_t du, int64_t dv, int bilinear, int clamp, uint32_t opacity) {
    if (opacity == 0) return;
    fbk_image im = *img;
#define FBK_SPANS(B, C) \
    for (intptr_t k = 0; k < count; k++) \
        if (sp[k].n > 0) affine_loop(sp[k].dst, sp[k].n, &im, sp[k].u, sp[k].v, du, dv, B, C, opacity, sp[k].mask, NULL);
    if (bilinear) {
        if (clamp) { FBK_SPANS(1, 1) } else { FBK_SPANS(1, 0) }
    } else {
        if (clamp) { FBK_SPANS(0, 1) } else { FBK_SPANS(0, 0) }
    }
#undef FBK_SPANS
}
#else
void fbk_affine_tint_avx2(uint32_t *dst, intptr_t n, const fbk_image *img, int64_t u, int64_t v, int64_t du,
                          int64_t dv, int bilinear, int clamp, uint32_t opacity, const uint8_t *mask,
                          uint32_t tint) {
    (void)dst; (void)n; (void)img; (void)u; (void)v; (void)du; (void)dv; (void)bilinear; (void)clamp;
    (void)opacity; (void)mask; (void)tint;
}
void fbk_affine_avx2(uint32_t *dst, intptr_t n, const fbk_image *img, int64_t u, int64_t v, int64_t du,
                     int64_t dv, int bilinear, int clamp, uint32_t opacity, const uint8_t *mask) {
    (void)dst; (void)n; (void)img; (void)u; (void)v; (void)du; (void)dv; (void)bilinear; (void)clamp;
    (void)opacity; (void)mask;
}
void fbk_projective_avx2(uint32_t *dst, intptr_t n, const fbk_image *img, const double *m9, double x0,
                         double rowX, double rowY, double rowQ, int clamp, uint32_t opacity,
                         const uint8_t *mask) {
    (void)dst; (void)n; (void)img; (void)m9; (void)x0; (void)rowX; (void)rowY; (void)rowQ; (void)clamp;
    (void)opacity; (void)mask;
}
void fbk_affine_spans_avx2(const fbk_affine_span *sp, intptr_t count, const fbk_image *img,
                             int64_t du, int64_t dv, int bilinear, int clamp, uint32_t opacity) {
    (void)sp; (void)count; (void)img; (void)du; (void)dv; (void)bilinear; (void)clamp; (void)opacity;
}
#endif
