/*
 * blend_avx512.c -- source-over with a constant opacity (no coverage), AVX-512BW, 16 pixels
 * per block. Bit-identical to fbk_over_avx2 (and so to the Swift twins): the same 16-bit layout
 * per 128-bit lane (unpacklo/hi_epi8 against zero, packus restores pixel order), the same
 * div255 = mulhi_epu16(x + 128, 257), the same source-over
 *   s' = div255(s * opacity), d' = min(255, s' + div255(d * (255 - s'.a))),
 * evaluated as d' = min(255, s' + d - div255(d * s'.a)), which is the same number:
 * div255 rounds x/255 half up, and d*a/255 is never exactly n + 1/2 (2*d*a = 255*(2n+1) has
 * no solution: the left side is even, the right odd), so round(d - d*a/255) = d - round(d*a/255)
 * for every d, a in 0...255 (premultiplied or not). The sum s' + d is formed while the product
 * is computed, which shortens the dependency chain (W2: -8 % on this kernel, docs/performance.md).
 * The last n mod 16 pixels go to fbk_over_avx2. Callers check fbk_cpu_has_avx512bw().
 */
#include "fbk_avx2.h"
#include <stdlib.h>
#include <string.h>

#if FBK_X86
#include "fbk_avx512.h"

/* 16 pixels: s (scaled by k when scale) over d. amask broadcasts each pixel's alpha (u16 lane 3)
 * over its 4 channels, per 128-bit lane. */
FBK_AVX512_INLINE __m512i over16(__m512i s, __m512i d, __m512i k, __m512i amask, int scale) {
    const __m512i z = _mm512_setzero_si512();
    __m512i slo = _mm512_unpacklo_epi8(s, z), shi = _mm512_unpackhi_epi8(s, z);
    if (scale) {
        slo = div255_512(_mm512_mullo_epi16(slo, k));
        shi = div255_512(_mm512_mullo_epi16(shi, k));
    }
    __m512i dlo = _mm512_unpacklo_epi8(d, z), dhi = _mm512_unpackhi_epi8(d, z);
    __m512i plo = div255_512(_mm512_mullo_epi16(dlo, _mm512_shuffle_epi8(slo, amask)));
    __m512i phi = div255_512(_mm512_mullo_epi16(dhi, _mm512_shuffle_epi8(shi, amask)));
    /* s' + d <= 510 and d >= div255(d*a): no wrap in u16; packus saturates to 255 */
    return _mm512_packus_epi16(_mm512_sub_epi16(_mm512_add_epi16(slo, dlo), plo),
                               _mm512_sub_epi16(_mm512_add_epi16(shi, dhi), phi));
}

FBK_AVX512 void fbk_over_avx512(uint32_t *dst, const uint32_t *src, intptr_t n, uint32_t opacity) {
    if (n <= 0 || opacity == 0) return;
    const __m512i k = _mm512_set1_epi16((short)opacity);
    __m512i amask = _mm512_broadcast_i32x4(_mm_setr_epi8(6, 7, 6, 7, 6, 7, 6, 7, 14, 15, 14, 15, 14, 15, 14, 15));
    /* An empty asm hides the constant, so the compiler keeps one vpshufb per broadcast instead
     * of rewriting it as vpshuflw + vpshufhw (two instructions; measured slower). */
    __asm__("" : "+v"(amask));
    intptr_t i = 0;
    if (opacity != 255) {
        for (; i + 16 <= n; i += 16)
            _mm512_storeu_si512((void *)(dst + i), over16(_mm512_loadu_si512((const void *)(src + i)),
                                                          _mm512_loadu_si512((const void *)(dst + i)), k, amask, 1));
    } else {
        for (; i + 16 <= n; i += 16)
            _mm512_storeu_si512((void *)(dst + i), over16(_mm512_loadu_si512((const void *)(src + i)),
                                                          _mm512_loadu_si512((const void *)(dst + i)), k, amask, 0));
    }
    if (i < n) fbk_over_avx2(dst + i, src + i, NULL, n - i, opacity);
}

FBK_AVX512 void fbk_solid_over_avx512(uint32_t *dst, uint32_t color, const uint8_t *mask, intptr_t n) {
    solid_over16(dst, color, mask, n);
}

FBK_AVX512 void fbk_solid_spans_avx512(const fbk_span *sp, intptr_t count, uint32_t color) {
    for (intptr_t k = 0; k < count; k++) solid_over16(sp[k].dst, color, sp[k].mask, sp[k].n);
}

int fbk_cpu_avx512_state = -1;
int fbk_cpu_avx512_allowed(void) {
    const char *v = getenv("FLIPBOOK_AVX512");
    if (v && strcmp(v, "off") == 0) return 0;
    return fbk_cpu_has_avx512bw();
}

int fbk_cpu_has_avx512bw(void) {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw");
}
#else
void fbk_solid_over_avx512(uint32_t *dst, uint32_t color, const uint8_t *mask, intptr_t n) {
    (void)dst; (void)color; (void)mask; (void)n;
}
void fbk_solid_spans_avx512(const fbk_span *sp, intptr_t count, uint32_t color) {
    (void)sp; (void)count; (void)color;
}
int fbk_cpu_avx512_state = -1;
int fbk_cpu_avx512_allowed(void) { return 0; }
void fbk_over_avx512(uint32_t *dst, const uint32_t *src, intptr_t n, uint32_t opacity) {
    (void)dst; (void)src; (void)n; (void)opacity;
}
int fbk_cpu_has_avx512bw(void) { return 0; }
#endif
