/* fbk_avx2.h -- private AVX2 helpers shared by the kernel files (not part of the public header). */
#ifndef FBK_AVX2_H
#define FBK_AVX2_H
#include "flipbook_kernels.h"
#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#define FBK_X86 1
#include <immintrin.h>
#define FBK_AVX2 __attribute__((target("avx2")))
#define FBK_AVX2_INLINE __attribute__((target("avx2"), always_inline)) static inline

/* exact round(x / 255) on u16 lanes, x <= 65025 */
FBK_AVX2 static inline __m256i fbk_div255_16(__m256i x) {
    return _mm256_mulhi_epu16(_mm256_add_epi16(x, _mm256_set1_epi16(128)), _mm256_set1_epi16(257));
}

/* per-pixel 32-bit values (0..255) -> u16 per channel in the 16-bit layout (lo: px 0,1|4,5; hi: 2,3|6,7) */
FBK_AVX2 static inline void fbk_spread_k(__m256i k32, __m256i *lo, __m256i *hi) {
    const __m256i ml = _mm256_setr_epi8(0, -1, 0, -1, 0, -1, 0, -1, 4, -1, 4, -1, 4, -1, 4, -1,
                                        0, -1, 0, -1, 0, -1, 0, -1, 4, -1, 4, -1, 4, -1, 4, -1);
    const __m256i mh = _mm256_setr_epi8(8, -1, 8, -1, 8, -1, 8, -1, 12, -1, 12, -1, 12, -1, 12, -1,
                                        8, -1, 8, -1, 8, -1, 8, -1, 12, -1, 12, -1, 12, -1, 12, -1);
    *lo = _mm256_shuffle_epi8(k32, ml);
    *hi = _mm256_shuffle_epi8(k32, mh);
}

/* Source-over in the 16-bit layout: d' = min(255, s + div255(d * (255 - s.a))) per channel. */
FBK_AVX2 static inline __m256i fbk_over16(__m256i slo, __m256i shi, __m256i d) {
    const __m256i amask = _mm256_setr_epi8(6, 7, 6, 7, 6, 7, 6, 7, 14, 15, 14, 15, 14, 15, 14, 15,
                                           6, 7, 6, 7, 6, 7, 6, 7, 14, 15, 14, 15, 14, 15, 14, 15);
    const __m256i c255 = _mm256_set1_epi16(255);
    __m256i z = _mm256_setzero_si256();
    __m256i ialo = _mm256_sub_epi16(c255, _mm256_shuffle_epi8(slo, amask));
    __m256i iahi = _mm256_sub_epi16(c255, _mm256_shuffle_epi8(shi, amask));
    __m256i dlo = fbk_div255_16(_mm256_mullo_epi16(_mm256_unpacklo_epi8(d, z), ialo));
    __m256i dhi = fbk_div255_16(_mm256_mullo_epi16(_mm256_unpackhi_epi8(d, z), iahi));
    return _mm256_packus_epi16(_mm256_add_epi16(slo, dlo), _mm256_add_epi16(shi, dhi));
}
#endif
#endif
