/*
 * blend_avx512.c -- source-over with a constant opacity (no coverage), AVX-512BW, 16 pixels
 * per block. Bit-identical to fbk_over_avx2 (and so to the Swift twins): the same 16-bit layout
 * per 128-bit lane (unpacklo/hi_epi8 against zero, packus restores pixel order), the same
 * div255 = mulhi_epu16(x + 128, 257), the same source-over
 *   s' = div255(s * opacity), d' = min(255, s' + div255(d * (255 - s'.a))).
 * The last n mod 16 pixels go to fbk_over_avx2. Callers check fbk_cpu_has_avx512bw().
 */
#include "fbk_avx2.h"

#if FBK_X86
#define FBK_AVX512 __attribute__((target("avx512f,avx512bw")))

FBK_AVX512 static inline __m512i div255_512(__m512i x) {
    return _mm512_mulhi_epu16(_mm512_add_epi16(x, _mm512_set1_epi16(128)), _mm512_set1_epi16(257));
}

FBK_AVX512 void fbk_over_avx512(uint32_t *dst, const uint32_t *src, intptr_t n, uint32_t opacity) {
    if (n <= 0 || opacity == 0) return;
    const __m512i z = _mm512_setzero_si512(), c255 = _mm512_set1_epi16(255);
    const __m512i k = _mm512_set1_epi16((short)opacity);
    /* alpha (u16 lane 3 of each pixel) broadcast over its 4 channels, per 128-bit lane */
    const __m512i amask = _mm512_broadcast_i32x4(_mm_setr_epi8(6, 7, 6, 7, 6, 7, 6, 7, 14, 15, 14, 15, 14, 15, 14, 15));
    intptr_t i = 0;
    for (; i + 16 <= n; i += 16) {
        __m512i s = _mm512_loadu_si512((const void *)(src + i));
        __m512i d = _mm512_loadu_si512((const void *)(dst + i));
        __m512i slo = _mm512_unpacklo_epi8(s, z), shi = _mm512_unpackhi_epi8(s, z);
        if (opacity != 255) {
            slo = div255_512(_mm512_mullo_epi16(slo, k));
            shi = div255_512(_mm512_mullo_epi16(shi, k));
        }
        __m512i ialo = _mm512_sub_epi16(c255, _mm512_shuffle_epi8(slo, amask));
        __m512i iahi = _mm512_sub_epi16(c255, _mm512_shuffle_epi8(shi, amask));
        __m512i dlo = div255_512(_mm512_mullo_epi16(_mm512_unpacklo_epi8(d, z), ialo));
        __m512i dhi = div255_512(_mm512_mullo_epi16(_mm512_unpackhi_epi8(d, z), iahi));
        _mm512_storeu_si512((void *)(dst + i), _mm512_packus_epi16(_mm512_add_epi16(slo, dlo), _mm512_add_epi16(shi, dhi)));
    }
    if (i < n) fbk_over_avx2(dst + i, src + i, NULL, n - i, opacity);
}

int fbk_cpu_has_avx512bw(void) {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw");
}
#else
void fbk_over_avx512(uint32_t *dst, const uint32_t *src, intptr_t n, uint32_t opacity) {
    (void)dst; (void)src; (void)n; (void)opacity;
}
int fbk_cpu_has_avx512bw(void) { return 0; }
#endif
