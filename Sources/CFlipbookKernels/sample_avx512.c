/*
 * sample_avx512.c -- the fused affine sampler (sample -> [tint] -> opacity/coverage ->
 * source-over) with AVX-512BW, 16 pixels per block. Bit-identical to fbk_affine_avx2 /
 * fbk_affine_tint_avx2 in sample_avx2.c (and so to ImageSampler+Scalar.swift): lane for lane
 * the same operations on the same values, in the same 16-bit layout per 128-bit lane
 * (unpacklo/hi_epi8 against zero: lane L holds pixels 4L..4L+3), the same bilinear formula
 * (sample_avx2.c's header), the same div255 and source-over (fbk_avx2.h, blend_avx512.c).
 *
 * Differences from the AVX2 loop, none of which changes a byte:
 *  - the lanes' start coordinates are formed in vector registers (64-bit lanes, then split
 *    into hi/lo 32-bit halves), not through a stack array;
 *  - the last n mod 16 pixels are one k-masked block (masked loads of the destination and the
 *    coverage, masked store; lanes past the end read no texel), not a copy through a buffer;
 *  - "every footprint inside" (the paired-load fast path) is asked of the lanes that are drawn
 *    only; the others are pointed at texel (0, 0), whose footprint is then inside too;
 *  - a block whose 16 coverage bytes are 0, or whose lanes see no texel, is skipped (the AVX2
 *    loop skips the same pixels 8 at a time: skipped pixels are left as they are either way,
 *    which is what source-over of a zero source gives);
 *  - the destination lines of the blocks after the first are prefetched on entry (W6a: 2-3 %
 *    of the frame; prefetching the span's last pixel too measured no better).
 * Callers check fbk_cpu_has_avx512bw() (RasterBackend.avx512Available).
 */
#include "fbk_avx2.h"
#include <math.h>

#if FBK_X86
#define FBK_AVX512S __attribute__((target("avx2,avx512f,avx512bw")))
#define FBK_AVX512S_INLINE __attribute__((target("avx2,avx512f,avx512bw"), always_inline)) static inline

#ifndef FBK_PF
#define FBK_PF 64 /* prefetch distance in pixels, as sample_avx2.c */
#endif

FBK_AVX512S_INLINE __m512i s_div255(__m512i x) {
    return _mm512_mulhi_epu16(_mm512_add_epi16(x, _mm512_set1_epi16(128)), _mm512_set1_epi16(257));
}

/* a 16-byte pshufb table repeated in the four 128-bit lanes */
FBK_AVX512S_INLINE __m512i s_lanes(__m128i t) { return _mm512_broadcast_i32x4(t); }

/* per-pixel dwords (0..255) -> u16 per channel in the 16-bit layout (fbk_spread_k, 4 lanes) */
FBK_AVX512S_INLINE void s_spread(__m512i k32, __m512i *lo, __m512i *hi) {
    const __m512i ml = s_lanes(_mm_setr_epi8(0, -1, 0, -1, 0, -1, 0, -1, 4, -1, 4, -1, 4, -1, 4, -1));
    const __m512i mh = s_lanes(_mm_setr_epi8(8, -1, 8, -1, 8, -1, 8, -1, 12, -1, 12, -1, 12, -1, 12, -1));
    *lo = _mm512_shuffle_epi8(k32, ml);
    *hi = _mm512_shuffle_epi8(k32, mh);
}

/* bilerp of sample_avx2.c on 16 pixels: 4 texels per pixel (gathered) + weights */
FBK_AVX512S_INLINE void s_bilerp(__m512i p00, __m512i p10, __m512i p01, __m512i p11, __m512i fx,
                                 __m512i fy, __m512i *slo, __m512i *shi) {
    const __m512i z = _mm512_setzero_si512(), flip = _mm512_set1_epi16((short)0x8000);
    __m512i fylo, fyhi;
    s_spread(fy, &fylo, &fyhi);
    __m512i a, b;
    a = _mm512_unpacklo_epi8(p00, z); b = _mm512_unpacklo_epi8(p01, z);
    __m512i c0lo = _mm512_xor_si512(_mm512_add_epi16(_mm512_slli_epi16(a, 8), _mm512_mullo_epi16(_mm512_sub_epi16(b, a), fylo)), flip);
    a = _mm512_unpackhi_epi8(p00, z); b = _mm512_unpackhi_epi8(p01, z);
    __m512i c0hi = _mm512_xor_si512(_mm512_add_epi16(_mm512_slli_epi16(a, 8), _mm512_mullo_epi16(_mm512_sub_epi16(b, a), fyhi)), flip);
    a = _mm512_unpacklo_epi8(p10, z); b = _mm512_unpacklo_epi8(p11, z);
    __m512i c1lo = _mm512_xor_si512(_mm512_add_epi16(_mm512_slli_epi16(a, 8), _mm512_mullo_epi16(_mm512_sub_epi16(b, a), fylo)), flip);
    a = _mm512_unpackhi_epi8(p10, z); b = _mm512_unpackhi_epi8(p11, z);
    __m512i c1hi = _mm512_xor_si512(_mm512_add_epi16(_mm512_slli_epi16(a, 8), _mm512_mullo_epi16(_mm512_sub_epi16(b, a), fyhi)), flip);
    __m512i wx = _mm512_or_si512(_mm512_slli_epi32(fx, 16), _mm512_sub_epi32(_mm512_set1_epi32(256), fx));
    const __m512i bias = _mm512_set1_epi32(0x808000);
    __m512i r0 = _mm512_srai_epi32(_mm512_add_epi32(_mm512_madd_epi16(_mm512_unpacklo_epi16(c0lo, c1lo), _mm512_shuffle_epi32(wx, 0x00)), bias), 16);
    __m512i r1 = _mm512_srai_epi32(_mm512_add_epi32(_mm512_madd_epi16(_mm512_unpackhi_epi16(c0lo, c1lo), _mm512_shuffle_epi32(wx, 0x55)), bias), 16);
    __m512i r2 = _mm512_srai_epi32(_mm512_add_epi32(_mm512_madd_epi16(_mm512_unpacklo_epi16(c0hi, c1hi), _mm512_shuffle_epi32(wx, 0xAA)), bias), 16);
    __m512i r3 = _mm512_srai_epi32(_mm512_add_epi32(_mm512_madd_epi16(_mm512_unpackhi_epi16(c0hi, c1hi), _mm512_shuffle_epi32(wx, 0xFF)), bias), 16);
    *slo = _mm512_packs_epi32(r0, r1);
    *shi = _mm512_packs_epi32(r2, r3);
}

/* 4 unaligned 8-byte loads -> the low halves of the four 128-bit lanes */
FBK_AVX512S_INLINE __m512i s_load4(const uint32_t *a, const uint32_t *b, const uint32_t *c, const uint32_t *d) {
    __m256i lo = _mm256_set_m128i(_mm_loadl_epi64((const __m128i *)b), _mm_loadl_epi64((const __m128i *)a));
    __m256i hi = _mm256_set_m128i(_mm_loadl_epi64((const __m128i *)d), _mm_loadl_epi64((const __m128i *)c));
    return _mm512_inserti64x4(_mm512_castsi256_si512(lo), hi, 1);
}

/* bilerp_pairs of sample_avx2.c on 16 pixels: every footprint is inside, so each pixel's top
 * pair (p00, p10) and bottom pair (p01, p11) are single 8-byte loads. Pass k handles pixels
 * k, 4+k, 8+k, 12+k (lane L: pixel 4L+k), which packs_epi32 turns into the 16-bit layout. */
FBK_AVX512S_INLINE void s_bilerp_pairs(const fbk_image *img, __m512i x0, __m512i y0, __m512i fx,
                                       __m512i fy, __m512i *slo, __m512i *shi) {
    const uint32_t *base = img->pixels;
    const intptr_t S = img->stride;
    int32_t idx[16];
    _mm512_storeu_si512((void *)idx, _mm512_add_epi32(_mm512_mullo_epi32(y0, _mm512_set1_epi32(img->stride)), x0));
    const __m512i order = s_lanes(_mm_setr_epi8(0, -1, 4, -1, 1, -1, 5, -1, 2, -1, 6, -1, 3, -1, 7, -1));
    const __m512i flip = _mm512_set1_epi16((short)0x8000), bias = _mm512_set1_epi32(0x808000);
    __m512i wx = _mm512_or_si512(_mm512_sub_epi32(_mm512_set1_epi32(256), fx), _mm512_slli_epi32(fx, 16));
    __m512i r[4];
    /* unrolled: as a loop, clang kept r[] on the stack and the shuffle constants in a register
     * stepped per pass */
#pragma clang loop unroll(full)
    for (int k = 0; k < 4; k++) {
        const uint32_t *a = base + idx[k], *b = base + idx[k + 4], *c = base + idx[k + 8], *d = base + idx[k + 12];
        __m512i top = s_load4(a, b, c, d);
        __m512i bot = s_load4(a + S, b + S, c + S, d + S);
        top = _mm512_shuffle_epi8(top, order);
        bot = _mm512_shuffle_epi8(bot, order);
        __m512i fyk = _mm512_shuffle_epi8(fy, _mm512_set1_epi16((short)(0xFF00 | (k * 4))));
        __m512i col = _mm512_xor_si512(_mm512_add_epi16(_mm512_slli_epi16(top, 8),
                                       _mm512_mullo_epi16(_mm512_sub_epi16(bot, top), fyk)), flip);
        __m512i wk = _mm512_shuffle_epi8(wx, _mm512_set1_epi32((int)(0x03020100u + 0x04040404u * (uint32_t)k)));
        r[k] = _mm512_srai_epi32(_mm512_add_epi32(_mm512_madd_epi16(col, wk), bias), 16);
    }
    *slo = _mm512_packs_epi32(r[0], r[1]);
    *shi = _mm512_packs_epi32(r[2], r[3]);
}

/* lanes with 0 <= x0 < w-1 and 0 <= y0 < h-1 (unsigned compares: w, h < 2^31) */
FBK_AVX512S_INLINE __mmask16 s_inside(const fbk_image *img, __m512i x0, __m512i y0) {
    __mmask16 kx = _mm512_cmplt_epu32_mask(x0, _mm512_set1_epi32(img->width - 1));
    return _mm512_mask_cmplt_epu32_mask(kx, y0, _mm512_set1_epi32(img->height - 1));
}

/* gather4 of sample_avx2.c on 16 lanes; `valid` limits the lanes read */
FBK_AVX512S_INLINE int s_gather4(const fbk_image *img, __m512i x0, __m512i y0, int clamp, __mmask16 valid,
                                 __m512i *p00, __m512i *p10, __m512i *p01, __m512i *p11) {
    const int *base = (const int *)img->pixels;
    const __m512i one = _mm512_set1_epi32(1);
    const __m512i W = _mm512_set1_epi32(img->width), H = _mm512_set1_epi32(img->height);
    __m512i x1 = _mm512_add_epi32(x0, one), y1 = _mm512_add_epi32(y0, one);
    __mmask16 k00, k10, k01, k11;
    if (clamp) {
        x1 = _mm512_min_epi32(x1, _mm512_sub_epi32(W, one));
        y1 = _mm512_min_epi32(y1, _mm512_sub_epi32(H, one));
        k00 = k10 = k01 = k11 = valid;
    } else {
        __mmask16 mx0 = _mm512_mask_cmplt_epu32_mask(valid, x0, W);
        __mmask16 mx1 = _mm512_mask_cmplt_epu32_mask(valid, x1, W);
        __mmask16 my0 = _mm512_cmplt_epu32_mask(y0, H);
        __mmask16 my1 = _mm512_cmplt_epu32_mask(y1, H);
        k00 = mx0 & my0; k10 = mx1 & my0; k01 = mx0 & my1; k11 = mx1 & my1;
        if ((k00 | k10 | k01 | k11) == 0) return 0;
    }
    const __m512i S = _mm512_set1_epi32(img->stride);
    __m512i r0 = _mm512_mullo_epi32(y0, S), r1 = _mm512_mullo_epi32(y1, S);
    const __m512i z = _mm512_setzero_si512();
    *p00 = _mm512_mask_i32gather_epi32(z, k00, _mm512_add_epi32(r0, x0), base, 4);
    *p10 = _mm512_mask_i32gather_epi32(z, k10, _mm512_add_epi32(r0, x1), base, 4);
    *p01 = _mm512_mask_i32gather_epi32(z, k01, _mm512_add_epi32(r1, x0), base, 4);
    *p11 = _mm512_mask_i32gather_epi32(z, k11, _mm512_add_epi32(r1, x1), base, 4);
    return 1;
}

/* clamp_coord of sample_avx2.c: clamp to [0, lim-1], zero the weight where clamped */
FBK_AVX512S_INLINE void s_clamp_coord(__m512i *c, __m512i *f, int32_t lim) {
    __m512i cc = _mm512_min_epi32(_mm512_max_epi32(*c, _mm512_setzero_si512()), _mm512_set1_epi32(lim - 1));
    *f = _mm512_maskz_mov_epi32(_mm512_cmpeq_epi32_mask(cc, *c), *f);
    *c = cc;
}

/* The clamp of a bordered image (fbk_image.border): coordinates to [-1, lim-1], the weight
 * zeroed where clamped. Every 2x2 footprint is then inside the border, and each lane reads
 * the same values as s_clamp_coord + s_gather4's clamp: a lane at -1 or at lim-1 reads one
 * edge texel twice (the border repeats it), and two equal texels give that texel whatever the
 * weight -- (a<<8 + 0*f), then madd of two equal columns with weights summing to 256. */
FBK_AVX512S_INLINE void s_clamp_border(__m512i *c, __m512i *f, int32_t lim) {
    __m512i cc = _mm512_min_epi32(_mm512_max_epi32(*c, _mm512_set1_epi32(-1)), _mm512_set1_epi32(lim - 1));
    *f = _mm512_maskz_mov_epi32(_mm512_cmpeq_epi32_mask(cc, *c), *f);
    *c = cc;
}

/* [tint] + opacity/coverage scale + source-over of 16 pixels under `keep` (tail: masked
 * destination load and store; `mask` bytes past the span are not read). */
FBK_AVX512S_INLINE void s_finish(uint32_t *dst, __m512i slo, __m512i shi, const uint8_t *mask,
                                 uint32_t opacity, const __m512i *tint, __mmask16 keep, int tail) {
    if (tint) {
        slo = s_div255(_mm512_mullo_epi16(slo, *tint));
        shi = s_div255(_mm512_mullo_epi16(shi, *tint));
    }
    if (mask) {
        __m128i m8 = tail ? _mm512_castsi512_si128(_mm512_maskz_loadu_epi8((__mmask64)keep, mask))
                          : _mm_loadu_si128((const __m128i *)mask);
        __m512i m = _mm512_cvtepu8_epi32(m8);
        __m512i k = s_div255(_mm512_mullo_epi16(m, _mm512_set1_epi32((int)opacity)));
        __m512i klo, khi;
        s_spread(k, &klo, &khi);
        slo = s_div255(_mm512_mullo_epi16(slo, klo));
        shi = s_div255(_mm512_mullo_epi16(shi, khi));
    } else if (opacity != 255) {
        const __m512i k = _mm512_set1_epi16((short)opacity);
        slo = s_div255(_mm512_mullo_epi16(slo, k));
        shi = s_div255(_mm512_mullo_epi16(shi, k));
    }
    __m512i amask = s_lanes(_mm_setr_epi8(6, 7, 6, 7, 6, 7, 6, 7, 14, 15, 14, 15, 14, 15, 14, 15));
    __asm__("" : "+v"(amask)); /* one vpshufb per broadcast (fbk_over16) */
    const __m512i z = _mm512_setzero_si512();
    __m512i d = tail ? _mm512_maskz_loadu_epi32(keep, dst) : _mm512_loadu_si512((const void *)dst);
    __m512i dlo = _mm512_unpacklo_epi8(d, z), dhi = _mm512_unpackhi_epi8(d, z);
    __m512i plo = s_div255(_mm512_mullo_epi16(dlo, _mm512_shuffle_epi8(slo, amask)));
    __m512i phi = s_div255(_mm512_mullo_epi16(dhi, _mm512_shuffle_epi8(shi, amask)));
    __m512i out = _mm512_packus_epi16(_mm512_sub_epi16(_mm512_add_epi16(slo, dlo), plo),
                                      _mm512_sub_epi16(_mm512_add_epi16(shi, dhi), phi));
    if (tail) _mm512_mask_storeu_epi32(dst, keep, out);
    else _mm512_storeu_si512((void *)dst, out);
}

/* affine_block of sample_avx2.c on 16 lanes; `keep` (tail only) are the lanes drawn */
FBK_AVX512S_INLINE void s_block(uint32_t *dst, const fbk_image *img, __m512i hu, __m512i lu, __m512i hv,
                                __m512i lv, int bilinear, int clamp, uint32_t opacity, const uint8_t *mask,
                                const __m512i *tint, __mmask16 keep, int tail) {
    __m512i slo, shi;
    const __mmask16 all = tail ? keep : (__mmask16)0xFFFF;
    if (bilinear) {
        __m512i fx = _mm512_srli_epi32(lu, 24), fy = _mm512_srli_epi32(lv, 24);
        if (clamp && img->border) {
            s_clamp_border(&hu, &fx, img->width);
            s_clamp_border(&hv, &fy, img->height);
            if (tail) { hu = _mm512_maskz_mov_epi32(keep, hu); hv = _mm512_maskz_mov_epi32(keep, hv); }
            s_bilerp_pairs(img, hu, hv, fx, fy, &slo, &shi);
        } else if ((s_inside(img, hu, hv) & all) == all) {
            if (tail) { hu = _mm512_maskz_mov_epi32(keep, hu); hv = _mm512_maskz_mov_epi32(keep, hv); }
            s_bilerp_pairs(img, hu, hv, fx, fy, &slo, &shi);
        } else {
            if (clamp) { s_clamp_coord(&hu, &fx, img->width); s_clamp_coord(&hv, &fy, img->height); }
            if (clamp && (s_inside(img, hu, hv) & all) == all) {
                if (tail) { hu = _mm512_maskz_mov_epi32(keep, hu); hv = _mm512_maskz_mov_epi32(keep, hv); }
                s_bilerp_pairs(img, hu, hv, fx, fy, &slo, &shi);
            } else {
                __m512i p00, p10, p01, p11;
                if (!s_gather4(img, hu, hv, clamp, all, &p00, &p10, &p01, &p11)) return;
                s_bilerp(p00, p10, p01, p11, fx, fy, &slo, &shi);
            }
        }
    } else {
        const __m512i z = _mm512_setzero_si512();
        __mmask16 k;
        if (clamp) {
            hu = _mm512_min_epi32(_mm512_max_epi32(hu, z), _mm512_set1_epi32(img->width - 1));
            hv = _mm512_min_epi32(_mm512_max_epi32(hv, z), _mm512_set1_epi32(img->height - 1));
            k = all;
        } else {
            k = _mm512_mask_cmplt_epu32_mask(all, hu, _mm512_set1_epi32(img->width));
            k = _mm512_mask_cmplt_epu32_mask(k, hv, _mm512_set1_epi32(img->height));
            if (k == 0) return;
        }
        __m512i idx = _mm512_add_epi32(_mm512_mullo_epi32(hv, _mm512_set1_epi32(img->stride)), hu);
        __m512i s = _mm512_mask_i32gather_epi32(z, k, idx, (const int *)img->pixels, 4);
        slo = _mm512_unpacklo_epi8(s, z);
        shi = _mm512_unpackhi_epi8(s, z);
    }
    s_finish(dst, slo, shi, mask, opacity, tint, keep, tail);
}

/* 32.32 lanes as (hi, lo) 32-bit halves: add (dh, dl) with the carry of the low half */
FBK_AVX512S_INLINE void s_step(__m512i *h, __m512i *l, __m512i dh, __m512i dl) {
    __m512i nl = _mm512_add_epi32(*l, dl);
    __mmask16 carry = _mm512_cmplt_epu32_mask(nl, dl);
    *h = _mm512_mask_add_epi32(_mm512_add_epi32(*h, dh), carry, _mm512_add_epi32(*h, dh), _mm512_set1_epi32(1));
    *l = nl;
}

/* lanes k = 0..15 of c + k*dc (mod 2^64) as hi and lo 32-bit halves */
FBK_AVX512S_INLINE void s_lanes64(int64_t c, int64_t dc, __m512i *h, __m512i *l) {
    const __m512i k = _mm512_setr_epi64(0, 1, 2, 3, 4, 5, 6, 7);
    const uint64_t d = (uint64_t)dc;
    /* k*d = k*lo(d) + (k*hi(d) << 32) mod 2^64 */
    __m512i kd = _mm512_add_epi64(_mm512_mul_epu32(k, _mm512_set1_epi64((long long)(uint32_t)d)),
                                  _mm512_slli_epi64(_mm512_mul_epu32(k, _mm512_set1_epi64((long long)(d >> 32))), 32));
    __m512i a = _mm512_add_epi64(_mm512_set1_epi64((long long)c), kd);
    __m512i b = _mm512_add_epi64(a, _mm512_set1_epi64((long long)(d * 8u)));
    const __m512i odd = _mm512_setr_epi32(1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31);
    const __m512i even = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
    *h = _mm512_permutex2var_epi32(a, odd, b);
    *l = _mm512_permutex2var_epi32(a, even, b);
}

/* affine_loop of sample_avx2.c, 16 pixels per block, specialised on constant (bilinear, clamp) */
FBK_AVX512S_INLINE void s_loop(uint32_t *dst, intptr_t n, const fbk_image *img, int64_t u, int64_t v,
                               int64_t du, int64_t dv, int bilinear, int clamp, uint32_t opacity,
                               const uint8_t *mask, const __m512i *tint) {
    __m512i HU, LU, HV, LV;
    s_lanes64(u, du, &HU, &LU);
    s_lanes64(v, dv, &HV, &LV);
    const uint64_t su = (uint64_t)du * 16u, sv = (uint64_t)dv * 16u;
    const __m512i dHU = _mm512_set1_epi32((int32_t)(su >> 32)), dLU = _mm512_set1_epi32((int32_t)(uint32_t)su);
    const __m512i dHV = _mm512_set1_epi32((int32_t)(sv >> 32)), dLV = _mm512_set1_epi32((int32_t)(uint32_t)sv);
    /* prefetch: the points sample_avx2.c prefetches (PF pixels ahead, one per 8 pixels) */
    const char *pbase = (const char *)img->pixels;
    const intptr_t pstride = (intptr_t)img->stride * 4;
    const uint64_t pdu = (uint64_t)du * 8u, pdv = (uint64_t)dv * 8u;
    uint64_t pu = (uint64_t)u + (uint64_t)FBK_PF * (uint64_t)du, pv = (uint64_t)v + (uint64_t)FBK_PF * (uint64_t)dv;
    intptr_t i = 0;
    /* The destination lines of the blocks after the first, requested now: a small rotated layer's
     * rows land anywhere in the frame, so they come from L3 or memory, and this lets their
     * misses overlap the first block's work (the first block's own load is issued at once).
     * A short-row microbenchmark of W6a's spans: -10 to -15 %. Prefetches change no result. */
    for (intptr_t j = 16; j < n; j += 16) _mm_prefetch((const char *)(dst + j), _MM_HINT_T0);
    /* texels ahead only for a texture that may not be in L1 (more than 16 KB): a small layer's
     * whole texture is, and the prefetches' address arithmetic was then pure cost */
    const int pf = bilinear && (intptr_t)img->stride * img->height > 4096;
    for (; i + 16 <= n; i += 16) {
        if (pf) {
            for (int h = 0; h < 2; h++) {
                const char *p = (const char *)((uintptr_t)pbase + (uintptr_t)((intptr_t)(int32_t)(pv >> 32) * pstride
                                                                              + (intptr_t)(int32_t)(pu >> 32) * 4));
                _mm_prefetch(p, _MM_HINT_T0);
                _mm_prefetch(p + pstride, _MM_HINT_T0);
                pu += pdu; pv += pdv;
            }
        }
        if (!(mask && _mm_testz_si128(_mm_loadu_si128((const __m128i *)(mask + i)), _mm_set1_epi8(-1))))
            s_block(dst + i, img, HU, LU, HV, LV, bilinear, clamp, opacity, mask ? mask + i : NULL, tint, 0xFFFF, 0);
        s_step(&HU, &LU, dHU, dLU);
        s_step(&HV, &LV, dHV, dLV);
    }
    if (i < n) {
        const __mmask16 keep = (__mmask16)((1u << (n - i)) - 1u);
        s_block(dst + i, img, HU, LU, HV, LV, bilinear, clamp, opacity, mask ? mask + i : NULL, tint, keep, 1);
    }
}

FBK_AVX512S_INLINE void s_affine(uint32_t *dst, intptr_t n, const fbk_image *img, int64_t u, int64_t v,
                                 int64_t du, int64_t dv, int bilinear, int clamp, uint32_t opacity,
                                 const uint8_t *mask, const __m512i *tint) {
    fbk_image im = *img;
    if (bilinear) {
        if (clamp) s_loop(dst, n, &im, u, v, du, dv, 1, 1, opacity, mask, tint);
        else s_loop(dst, n, &im, u, v, du, dv, 1, 0, opacity, mask, tint);
    } else {
        if (clamp) s_loop(dst, n, &im, u, v, du, dv, 0, 1, opacity, mask, tint);
        else s_loop(dst, n, &im, u, v, du, dv, 0, 0, opacity, mask, tint);
    }
}

FBK_AVX512S void fbk_affine_avx512(uint32_t *dst, intptr_t n, const fbk_image *img, int64_t u, int64_t v,
                                   int64_t du, int64_t dv, int bilinear, int clamp, uint32_t opacity,
                                   const uint8_t *mask) {
    if (n <= 0 || opacity == 0) return;
    s_affine(dst, n, img, u, v, du, dv, bilinear, clamp, opacity, mask, NULL);
}

FBK_AVX512S void fbk_affine_tint_avx512(uint32_t *dst, intptr_t n, const fbk_image *img, int64_t u, int64_t v,
                                        int64_t du, int64_t dv, int bilinear, int clamp, uint32_t opacity,
                                        const uint8_t *mask, uint32_t tint) {
    if (n <= 0 || opacity == 0) return;
    const __m512i t = _mm512_unpacklo_epi8(_mm512_set1_epi32((int)tint), _mm512_setzero_si512());
    s_affine(dst, n, img, u, v, du, dv, bilinear, clamp, opacity, mask, &t);
}
/* fbk_affine_avx512 per span, the (bilinear, clamp) switch and the image copy once per call */
FBK_AVX512S void fbk_affine_spans_avx512(const fbk_affine_span *sp, intptr_t count, const fbk_image *img,
                             int64_t du, int64_t dv, int bilinear, int clamp, uint32_t opacity) {
    if (opacity == 0) return;
    fbk_image im = *img;
#define FBK_SPANS(B, C) \
    for (intptr_t k = 0; k < count; k++) \
        if (sp[k].n > 0) s_loop(sp[k].dst, sp[k].n, &im, sp[k].u, sp[k].v, du, dv, B, C, opacity, sp[k].mask, NULL);
    if (bilinear) {
        if (clamp) { FBK_SPANS(1, 1) } else { FBK_SPANS(1, 0) }
    } else {
        if (clamp) { FBK_SPANS(0, 1) } else { FBK_SPANS(0, 0) }
    }
#undef FBK_SPANS
}

/* ImageSampler._roundedInt64: trunc, then one step away from zero when the fraction is at least
 * one half (|x| < 2^63) */
static inline int64_t s_round64(double x) {
    const int64_t i = (int64_t)x;
    const double f = x - (double)i;
    return i + (f >= 0.5) - (f <= -0.5);
}

/* ImageSampler._rowStart's doubles, unfused (Swift does not contract a*b + c) */
static inline int s_row_start(const fbk_affine_rows *r, intptr_t y, int64_t *u, int64_t *v) {
#pragma clang fp contract(off)
    const double py = (double)y + 0.5;
    const double u0 = r->a * 0.5 + (r->b * py + r->c) - r->shift;
    const double v0 = r->d * 0.5 + (r->e * py + r->f) - r->shift;
    const double limit = 268435456.0;     /* 2^28 */
    if (!(fabs(u0) < limit && fabs(v0) < limit)) return 0;
    *u = s_round64(u0 * 4294967296.0);
    *v = s_round64(v0 * 4294967296.0);
    return 1;
}

/* the kernel's row start on its own (tests: against ImageSampler._rowStart) */
int fbk_affine_row_start(const fbk_affine_rows *r, intptr_t y, int64_t *u, int64_t *v) {
    return s_row_start(r, y, u, v);
}

/* fbk_affine_rows_avx512 and fbk_affine_tint_rows_avx512: the rows, each sampled (and tinted
 * when tint is given) as fbk_affine_avx512 / fbk_affine_tint_avx512 draw one span */
FBK_AVX512S_INLINE void s_rows(const fbk_affine_rows *r, const fbk_image *img, int bilinear, int clamp,
                               uint32_t opacity, const __m512i *tint) {
    fbk_image im = *img;
    const int64_t du = r->du, dv = r->dv;
    /* The rows' starts first, 64 rows at a time: computed as each row came, their ~40-cycle
     * chain (convert, multiply-adds, round) stood between one row's blocks and the next
     * (W6a 2 % slower than the Swift loop before the kernel). */
    int64_t us[64], vs[64];
    uint8_t ok[64];
    for (intptr_t i0 = 0; i0 < r->n; i0 += 64) {
        const intptr_t m = r->n - i0 < 64 ? r->n - i0 : 64;
        for (intptr_t k = 0; k < m; k++) ok[k] = (uint8_t)(r->counts[i0 + k] > 0 && s_row_start(r, r->y + i0 + k, &us[k], &vs[k]));
#define FBK_ROWS(B, C) \
        for (intptr_t k = 0; k < m; k++) { \
            if (!ok[k]) continue; \
            const intptr_t i = i0 + k; \
            const intptr_t x0 = r->x + r->starts[i], x1 = x0 + r->counts[i]; \
            if (x0 < 0 || x1 > (1 << 15)) continue; \
            const int64_t u = (int64_t)((uint64_t)us[k] + (uint64_t)x0 * (uint64_t)du); \
            const int64_t v = (int64_t)((uint64_t)vs[k] + (uint64_t)x0 * (uint64_t)dv); \
            s_loop(r->dst + i * r->dst_stride + x0, x1 - x0, &im, u, v, du, dv, B, C, opacity, \
                   r->coverage + i * r->cov_stride + r->starts[i], tint); \
        }
        if (bilinear) {
            if (clamp) { FBK_ROWS(1, 1) } else { FBK_ROWS(1, 0) }
        } else {
            if (clamp) { FBK_ROWS(0, 1) } else { FBK_ROWS(0, 0) }
        }
#undef FBK_ROWS
    }
}

FBK_AVX512S void fbk_affine_rows_avx512(const fbk_affine_rows *r, const fbk_image *img, int bilinear, int clamp,
                                        uint32_t opacity) {
    if (opacity == 0) return;
    s_rows(r, img, bilinear, clamp, opacity, NULL);
}

FBK_AVX512S void fbk_affine_tint_rows_avx512(const fbk_affine_rows *r, const fbk_image *img, int bilinear, int clamp,
                                             uint32_t opacity, uint32_t tint) {
    if (opacity == 0) return;
    const __m512i t = _mm512_unpacklo_epi8(_mm512_set1_epi32((int)tint), _mm512_setzero_si512());
    s_rows(r, img, bilinear, clamp, opacity, &t);
}
#else
void fbk_affine_avx512(uint32_t *dst, intptr_t n, const fbk_image *img, int64_t u, int64_t v, int64_t du,
                       int64_t dv, int bilinear, int clamp, uint32_t opacity, const uint8_t *mask) {
    (void)dst; (void)n; (void)img; (void)u; (void)v; (void)du; (void)dv; (void)bilinear; (void)clamp;
    (void)opacity; (void)mask;
}
void fbk_affine_tint_avx512(uint32_t *dst, intptr_t n, const fbk_image *img, int64_t u, int64_t v, int64_t du,
                            int64_t dv, int bilinear, int clamp, uint32_t opacity, const uint8_t *mask,
                            uint32_t tint) {
    (void)dst; (void)n; (void)img; (void)u; (void)v; (void)du; (void)dv; (void)bilinear; (void)clamp;
    (void)opacity; (void)mask; (void)tint;
}
void fbk_affine_spans_avx512(const fbk_affine_span *sp, intptr_t count, const fbk_image *img,
                             int64_t du, int64_t dv, int bilinear, int clamp, uint32_t opacity) {
    (void)sp; (void)count; (void)img; (void)du; (void)dv; (void)bilinear; (void)clamp; (void)opacity;
}
int fbk_affine_row_start(const fbk_affine_rows *r, intptr_t y, int64_t *u, int64_t *v) {
    (void)r; (void)y; (void)u; (void)v;
    return 0;
}
void fbk_affine_rows_avx512(const fbk_affine_rows *rows, const fbk_image *img, int bilinear, int clamp,
                            uint32_t opacity) {
    (void)rows; (void)img; (void)bilinear; (void)clamp; (void)opacity;
}
void fbk_affine_tint_rows_avx512(const fbk_affine_rows *rows, const fbk_image *img, int bilinear, int clamp,
                                 uint32_t opacity, uint32_t tint) {
    (void)rows; (void)img; (void)bilinear; (void)clamp; (void)opacity; (void)tint;
}
#endif
