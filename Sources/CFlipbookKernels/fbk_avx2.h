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

/* 8 coverage bytes as one integer (memcpy: no alignment or aliasing assumptions) */
static inline uint64_t fbk_load_u64(const uint8_t *p) {
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}

/* The last r (1..7) pixels of a span into / out of an 8-pixel buffer without memcpy calls:
 * masked load and store (lanes >= r are neither read nor written; buffer lanes >= r are 0),
 * and the coverage bytes zero-padded. */
FBK_AVX2 static inline __m256i fbk_tail_keep(intptr_t r) {
    return _mm256_cmpgt_epi32(_mm256_set1_epi32((int)r), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
}
FBK_AVX2 static inline void fbk_tail_load(uint32_t *buf, const uint32_t *p, __m256i keep) {
    _mm256_storeu_si256((__m256i *)buf, _mm256_maskload_epi32((const int *)p, keep));
}
FBK_AVX2 static inline void fbk_tail_store(uint32_t *p, const uint32_t *buf, __m256i keep) {
    _mm256_maskstore_epi32((int *)p, keep, _mm256_loadu_si256((const __m256i *)buf));
}
static inline void fbk_tail_mask(uint8_t *mb, const uint8_t *mask, intptr_t r) {
    for (intptr_t k = 0; k < 8; k++) mb[k] = k < r ? mask[k] : 0;
}

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

/* Scales an 8-pixel source, unpacked to 16 bits per channel (slo: pixels 0-1, 4-5; shi: 2-3,
 * 6-7), by k = div255(coverage * opacity) per pixel, or by the constant opacity when there is
 * no coverage mask: Sca' = div255(Sca * k). The products fit 16 bits (255 * 255). */
FBK_AVX2_INLINE void fbk_scale16(__m256i *slo, __m256i *shi, const uint8_t *mask, uint32_t opacity) {
    if (mask) {
        __m256i m = _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)mask));
        /* k = div255(m * opacity): the product fits the low 16 bits of each 32-bit lane */
        __m256i k = fbk_div255_16(_mm256_mullo_epi16(m, _mm256_set1_epi32((int)opacity)));
        __m256i klo, khi;
        fbk_spread_k(k, &klo, &khi);
        *slo = fbk_div255_16(_mm256_mullo_epi16(*slo, klo));
        *shi = fbk_div255_16(_mm256_mullo_epi16(*shi, khi));
    } else if (opacity != 255) {
        __m256i k = _mm256_set1_epi16((short)opacity);
        *slo = fbk_div255_16(_mm256_mullo_epi16(*slo, k));
        *shi = fbk_div255_16(_mm256_mullo_epi16(*shi, k));
    }
}

/* Source-over in the 16-bit layout: d' = min(255, s + div255(d * (255 - s.a))) per channel
 * (the packus_epi16 saturation is the min). s is the already scaled source in the layout of
 * fbk_scale16 (slo, shi), d 8 packed destination pixels; returns 8 packed pixels. */
FBK_AVX2 static inline __m256i fbk_over16(__m256i slo, __m256i shi, __m256i d) {
    /* d' = min(255, s' + div255(d * (255 - s'.a))) evaluated as min(255, s' + d - div255(d * s'.a)):
     * the same number for every d, a in 0...255 (d*a/255 is never exactly n + 1/2, so rounding
     * half up commutes with d - x; blend_avx512.c), with s' + d formed beside the product. */
    __m256i amask = _mm256_setr_epi8(6, 7, 6, 7, 6, 7, 6, 7, 14, 15, 14, 15, 14, 15, 14, 15,
                                     6, 7, 6, 7, 6, 7, 6, 7, 14, 15, 14, 15, 14, 15, 14, 15);
    __asm__("" : "+x"(amask)); /* keep one vpshufb (not vpshuflw + vpshufhw) per broadcast */
    __m256i z = _mm256_setzero_si256();
    __m256i dlo = _mm256_unpacklo_epi8(d, z), dhi = _mm256_unpackhi_epi8(d, z);
    __m256i plo = fbk_div255_16(_mm256_mullo_epi16(dlo, _mm256_shuffle_epi8(slo, amask)));
    __m256i phi = fbk_div255_16(_mm256_mullo_epi16(dhi, _mm256_shuffle_epi8(shi, amask)));
    return _mm256_packus_epi16(_mm256_sub_epi16(_mm256_add_epi16(slo, dlo), plo),
                               _mm256_sub_epi16(_mm256_add_epi16(shi, dhi), phi));
}
#endif
/* The coverage byte of a running sum (coverage_avx2.c's per-cell formula;
 * CoverageAccumulation.coverageByte). */
static inline uint8_t fbk_coverage_byte(int32_t s, int even_odd) {
    int32_t v;
    if (even_odd) {
        v = s & ((1 << 18) - 1);
        if ((1 << 18) - v < v) v = (1 << 18) - v;
    } else {
        v = s < 0 ? (int32_t)(0u - (uint32_t)s) : s;
        if (v > (1 << 17)) v = 1 << 17;
        if (v < 0) v = 0;
    }
    return (uint8_t)((v * 255 + (1 << 16)) >> 17);
}

/* The sweeps' walk over a row's bitmap (one bit per 8 cells): its runs of set bits, in
 * order, each word zeroed as it is read --
 *     fbk_runs r = fbk_runs_of(bits, words);
 *     while (fbk_next_run(&r, &cx0, &cx1)) ...      cells [cx0, cx1) of the row */
typedef struct { uint64_t *bits; intptr_t words, wi; uint64_t word; } fbk_runs;

static inline fbk_runs fbk_runs_of(uint64_t *bits, intptr_t words) {
    fbk_runs r = { bits, words, -1, 0 };
    return r;
}

static inline int fbk_next_run(fbk_runs *r, intptr_t *cx0, intptr_t *cx1) {
    while (!r->word) {
        if (++r->wi >= r->words) return 0;
        r->word = r->bits[r->wi];
        if (r->word) r->bits[r->wi] = 0;
    }
    const int tz = __builtin_ctzll(r->word);
    const uint64_t rest = ~(r->word >> tz);
    const int end = tz + (rest ? __builtin_ctzll(rest) : 64);
    r->word = end >= 64 ? 0 : (r->word >> end) << end;
    *cx0 = r->wi * 512 + tz * 8; *cx1 = r->wi * 512 + (intptr_t)end * 8;
    return 1;
}

/* A dense row's cells [x, ge) between runs: the running sum's byte v, or zeros once the row's
 * covered pixels have begun (before them the bytes are left unspecified); [*s, *e) widened to
 * the covered ones. */
static inline void fbk_dense_gap(uint8_t *cov, intptr_t x, intptr_t ge, uint8_t v, intptr_t *s, intptr_t *e) {
    if (ge <= x) return;
    if (v) {
        memset(cov + x, v, (size_t)(ge - x));
        if (*s < 0) *s = x;
        *e = ge;
    } else if (*s >= 0) {
        memset(cov + x, 0, (size_t)(ge - x));
    }
}

#endif
