/* fbk_avx512.h -- private AVX-512 helpers shared by the kernel files (blend_avx512.c,
 * coverage_avx512.c; not part of the public header). Include after fbk_avx2.h, under FBK_X86. */
#ifndef FBK_AVX512_H
#define FBK_AVX512_H
#include "fbk_avx2.h"
#if FBK_X86
#define FBK_AVX512 __attribute__((target("avx512f,avx512bw")))
#define FBK_AVX512_INLINE __attribute__((target("avx512f,avx512bw"), always_inline)) static inline

FBK_AVX512_INLINE __m512i div255_512(__m512i x) {
    return _mm512_mulhi_epu16(_mm512_add_epi16(x, _mm512_set1_epi16(128)), _mm512_set1_epi16(257));
}

/* One colour's constants for solid_blend16: its channels in the 16-bit layout, and the
 * shuffles that spread a pixel's alpha, and a pixel's coverage k (one per 32-bit lane, as
 * cvtepu8_epi32 gives them), over its 4 channels -- per 128-bit lane, pixels 4L and 4L+1 (lo)
 * and 4L+2, 4L+3 (hi), as unpacklo/hi_epi8 lay them out. An empty asm keeps each shuffle one
 * vpshufb (not vpshuflw + vpshufhw: measured slower). */
typedef struct { __m512i clo, amask, klo_idx, khi_idx; } fbk_solid512;

FBK_AVX512_INLINE fbk_solid512 fbk_solid512_make(uint32_t color) {
    fbk_solid512 s;
    s.clo = _mm512_unpacklo_epi8(_mm512_set1_epi32((int)color), _mm512_setzero_si512());
    s.amask = _mm512_broadcast_i32x4(_mm_setr_epi8(6, 7, 6, 7, 6, 7, 6, 7, 14, 15, 14, 15, 14, 15, 14, 15));
    s.klo_idx = _mm512_broadcast_i32x4(_mm_setr_epi8(0, -1, 0, -1, 0, -1, 0, -1, 4, -1, 4, -1, 4, -1, 4, -1));
    s.khi_idx = _mm512_broadcast_i32x4(_mm_setr_epi8(8, -1, 8, -1, 8, -1, 8, -1, 12, -1, 12, -1, 12, -1, 12, -1));
    __asm__("" : "+v"(s.amask), "+v"(s.klo_idx), "+v"(s.khi_idx));
    return s;
}

/* 16 pixels d under the colour, scaled per pixel by k (coverage 0...255, one per 32-bit lane)
 * when `scaled`: s' = div255(color * k), d' = min(255, s' + d - div255(d * s'.a)) per channel */
FBK_AVX512_INLINE __m512i solid_blend16(const fbk_solid512 *c, __m512i d, __m512i k, int scaled) {
    const __m512i z = _mm512_setzero_si512();
    __m512i slo = c->clo, shi = c->clo;
    if (scaled) {
        slo = div255_512(_mm512_mullo_epi16(c->clo, _mm512_shuffle_epi8(k, c->klo_idx)));
        shi = div255_512(_mm512_mullo_epi16(c->clo, _mm512_shuffle_epi8(k, c->khi_idx)));
    }
    const __m512i dlo = _mm512_unpacklo_epi8(d, z), dhi = _mm512_unpackhi_epi8(d, z);
    const __m512i plo = div255_512(_mm512_mullo_epi16(dlo, _mm512_shuffle_epi8(slo, c->amask)));
    const __m512i phi = div255_512(_mm512_mullo_epi16(dhi, _mm512_shuffle_epi8(shi, c->amask)));
    return _mm512_packus_epi16(_mm512_sub_epi16(_mm512_add_epi16(slo, dlo), plo),
                               _mm512_sub_epi16(_mm512_add_epi16(shi, dhi), phi));
}

/* Solid colour, optional coverage: s' = mask ? div255(color * mask[i]) : color, then over.
 * Every block, the last one included, is 16 pixels under a k-mask (maskz loads, masked store):
 * the short spans of small shapes' edges cost one block, not a scalar tail. */
FBK_AVX512_INLINE void solid_over16(uint32_t *dst, uint32_t color, const uint8_t *mask, intptr_t n) {
    if (n <= 0 || color == 0) return;
    const fbk_solid512 c = fbk_solid512_make(color);
    for (intptr_t i = 0; i < n; i += 16) {
        const intptr_t r = n - i;
        const __mmask16 k = r >= 16 ? (__mmask16)0xFFFF : (__mmask16)((1u << r) - 1u);
        __m512i m = _mm512_setzero_si512();
        if (mask) {
            __m128i m8 = _mm512_castsi512_si128(_mm512_maskz_loadu_epi8((__mmask64)k, mask + i));
            if (_mm_testz_si128(m8, m8)) continue;              /* nothing covered */
            m = _mm512_cvtepu8_epi32(m8);
        }
        const __m512i d = _mm512_maskz_loadu_epi32(k, dst + i);
        _mm512_mask_storeu_epi32(dst + i, k, solid_blend16(&c, d, m, mask != 0));
    }
}

#endif
#endif
