/*
 * blend_avx2.c -- fill and source-over spans, AVX2 (target attribute per function, runtime
 * checked by the Swift side with fbk_cpu_has_avx2()). Bit-identical to the Swift scalar
 * twins in Sources/FlipbookRaster/SpanBlend+Scalar.swift.
 *
 * Layout used by every kernel: 8 pixels per __m256i; unpacklo/hi_epi8 against zero give the
 * "16-bit layout": lo = pixels 0,1 | 4,5 and hi = pixels 2,3 | 6,7 (4 channels each, u16);
 * packus_epi16(lo, hi) restores pixel order.
 *
 * div255 (exact round(x/255) for x <= 65025): t = x + 128; (t + (t >> 8)) >> 8
 *   == (t * 257) >> 16 for t < 65536, i.e. _mm256_mulhi_epu16(t, 257). See docs/rounding.md.
 */
#include "fbk_avx2.h"

#if FBK_X86
FBK_AVX2 void fbk_fill_avx2(uint32_t *dst, intptr_t n, uint32_t color) {
    __m256i c = _mm256_set1_epi32((int)color);
    intptr_t i = 0;
    for (; i + 8 <= n; i += 8) _mm256_storeu_si256((__m256i *)(dst + i), c);
    for (; i < n; i++) dst[i] = color;
}

/* One block of 8: s scaled by k (per pixel, from mask and opacity), then over d. */
FBK_AVX2 static inline __m256i over_block(__m256i s, __m256i d, const uint8_t *mask,
                                          uint32_t opacity) {
    __m256i z = _mm256_setzero_si256();
    __m256i slo = _mm256_unpacklo_epi8(s, z), shi = _mm256_unpackhi_epi8(s, z);
    fbk_scale16(&slo, &shi, mask, opacity);
    return fbk_over16(slo, shi, d);
}

FBK_AVX2 void fbk_over_avx2(uint32_t *dst, const uint32_t *src, const uint8_t *mask, intptr_t n,
                            uint32_t opacity) {
    if (n <= 0 || opacity == 0) return;
    intptr_t i = 0;
    if (mask) {
        for (; i + 8 <= n; i += 8) {
            if (fbk_load_u64(mask + i) == 0) continue; /* nothing covered */
            __m256i s = _mm256_loadu_si256((const __m256i *)(src + i));
            __m256i d = _mm256_loadu_si256((const __m256i *)(dst + i));
            _mm256_storeu_si256((__m256i *)(dst + i), over_block(s, d, mask + i, opacity));
        }
    } else {
        for (; i + 8 <= n; i += 8) {
            __m256i s = _mm256_loadu_si256((const __m256i *)(src + i));
            __m256i d = _mm256_loadu_si256((const __m256i *)(dst + i));
            _mm256_storeu_si256((__m256i *)(dst + i), over_block(s, d, NULL, opacity));
        }
    }
    if (i < n) { /* tail: same block maths on a zero-padded copy */
        intptr_t r = n - i;
        __m256i keep = fbk_tail_keep(r);
        uint8_t mb[8] = {0};
        if (mask) fbk_tail_mask(mb, mask + i, r);
        __m256i out = over_block(_mm256_maskload_epi32((const int *)(src + i), keep),
                                 _mm256_maskload_epi32((const int *)(dst + i), keep), mask ? mb : NULL, opacity);
        _mm256_maskstore_epi32((int *)(dst + i), keep, out);
    }
}

FBK_AVX2 static inline __m256i solid_block(__m256i clo, __m256i d, const uint8_t *mask) {
    __m256i slo = clo, shi = clo; /* the colour is the same in both halves */
    if (mask) {
        __m256i m = _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)mask));
        __m256i klo, khi;
        fbk_spread_k(m, &klo, &khi);
        slo = fbk_div255_16(_mm256_mullo_epi16(clo, klo));
        shi = fbk_div255_16(_mm256_mullo_epi16(clo, khi));
    }
    return fbk_over16(slo, shi, d);
}

FBK_AVX2 void fbk_solid_over_avx2(uint32_t *dst, uint32_t color, const uint8_t *mask, intptr_t n) {
    if (n <= 0 || color == 0) return;
    __m256i clo = _mm256_unpacklo_epi8(_mm256_set1_epi32((int)color), _mm256_setzero_si256());
    intptr_t i = 0;
    for (; i + 8 <= n; i += 8) {
        if (mask && fbk_load_u64(mask + i) == 0) continue;
        __m256i d = _mm256_loadu_si256((const __m256i *)(dst + i));
        _mm256_storeu_si256((__m256i *)(dst + i), solid_block(clo, d, mask ? mask + i : NULL));
    }
    if (i < n) {
        /* The last 1…7 pixels: masked load and store of the pixels (lanes past the end are
           neither read nor written), the coverage bytes through a small buffer. Each lane is
           computed on its own, so the stored lanes are those of a full block. */
        intptr_t r = n - i;
        __m256i lanes = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
        __m256i keep = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)r), lanes);
        uint8_t mb[8];
        if (mask) {
            for (intptr_t k = 0; k < 8; k++) mb[k] = k < r ? mask[i + k] : 0;
            if (fbk_load_u64(mb) == 0) return;
        }
        __m256i d = _mm256_maskload_epi32((const int *)(dst + i), keep);
        _mm256_maskstore_epi32((int *)(dst + i), keep, solid_block(clo, d, mask ? mb : NULL));
    }
}

FBK_AVX2 void fbk_solid_spans_avx2(const fbk_span *sp, intptr_t count, uint32_t color) {
    for (intptr_t k = 0; k < count; k++) fbk_solid_over_avx2(sp[k].dst, color, sp[k].mask, sp[k].n);
}

/* Tint: every channel of every pixel times the tint's channel, p' = div255(p * t) (per channel;
 * PixelMath.modulate). The tint is the same for all pixels, so in the 16-bit layout it is one
 * vector (the 4 channels repeated). Products fit 16 bits (255 * 255). */
FBK_AVX2 void fbk_modulate_avx2(uint32_t *p, intptr_t n, uint32_t tint) {
    if (n <= 0) return;
    __m256i z = _mm256_setzero_si256();
    __m256i t = _mm256_unpacklo_epi8(_mm256_set1_epi32((int)tint), z);
    intptr_t i = 0;
    for (; i + 8 <= n; i += 8) {
        __m256i s = _mm256_loadu_si256((const __m256i *)(p + i));
        __m256i lo = fbk_div255_16(_mm256_mullo_epi16(_mm256_unpacklo_epi8(s, z), t));
        __m256i hi = fbk_div255_16(_mm256_mullo_epi16(_mm256_unpackhi_epi8(s, z), t));
        _mm256_storeu_si256((__m256i *)(p + i), _mm256_packus_epi16(lo, hi));
    }
    if (i < n) { /* tail: masked load and store, lanes >= n - i untouched */
        __m256i keep = fbk_tail_keep(n - i);
        __m256i s = _mm256_maskload_epi32((const int *)(p + i), keep);
        __m256i lo = fbk_div255_16(_mm256_mullo_epi16(_mm256_unpacklo_epi8(s, z), t));
        __m256i hi = fbk_div255_16(_mm256_mullo_epi16(_mm256_unpackhi_epi8(s, z), t));
        _mm256_maskstore_epi32((int *)(p + i), keep, _mm256_packus_epi16(lo, hi));
    }
}
#else
void fbk_modulate_avx2(uint32_t *p, intptr_t n, uint32_t tint) { (void)p; (void)n; (void)tint; }
void fbk_fill_avx2(uint32_t *dst, intptr_t n, uint32_t color) { (void)dst; (void)n; (void)color; }
void fbk_over_avx2(uint32_t *dst, const uint32_t *src, const uint8_t *mask, intptr_t n, uint32_t o) {
    (void)dst; (void)src; (void)mask; (void)n; (void)o;
}
void fbk_solid_over_avx2(uint32_t *dst, uint32_t color, const uint8_t *mask, intptr_t n) {
    (void)dst; (void)color; (void)mask; (void)n;
}
void fbk_solid_spans_avx2(const fbk_span *sp, intptr_t count, uint32_t color) {
    (void)sp; (void)count; (void)color;
}
#endif
