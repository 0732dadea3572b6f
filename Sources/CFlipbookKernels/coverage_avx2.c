/*
 * coverage_avx2.c -- the accumulation -> coverage pass of the path rasterizer, AVX2 (target
 * attribute, runtime checked by the Swift side with fbk_cpu_has_avx2()). Bit-identical to the
 * Swift scalar twin `CoverageAccumulation._accumulateScalar` (Path/CoverageAccumulation.swift).
 *
 * acc[i] holds the signed area + cover deposits of cell i in units of 1/2^17 of a pixel (see
 * docs/rasterizer.md). The pass is an inclusive prefix sum (wrapping int32) seeded with carry:
 *   s_i = carry + acc[0] + ... + acc[i]
 * then, per cell:
 *   non-zero:  v = max(0, min(|s_i|, 2^17))        (|INT32_MIN| wraps to INT32_MIN -> 0)
 *   even-odd:  v = s_i & (2^18 - 1); v = min(v, 2^18 - v)
 *   cov[i]   = (v * 255 + 2^16) >> 17              (round half up of 255 * v / 2^17)
 * and acc[i] = 0 (the rasterizer's buffers are all-zero between shapes). Returns s_{n-1}
 * (carry when n == 0).
 *
 * Prefix sum of 8 int32 in a __m256i: two in-lane byte shifts (by 4 and 8 bytes) give the
 * prefix sums of each 128-bit half; the low half's total (element 3) is then broadcast into the
 * high half and added.
 */
#include "fbk_avx2.h"

#if FBK_X86
FBK_AVX2_INLINE int32_t acc_run(int32_t *acc, uint8_t *cov, intptr_t n, int32_t carry, int even_odd) {
    const __m256i zero = _mm256_setzero_si256();
    const __m256i full = _mm256_set1_epi32(1 << 17);
    const __m256i two = _mm256_set1_epi32(1 << 18);
    const __m256i wrap = _mm256_set1_epi32((1 << 18) - 1);
    const __m256i half = _mm256_set1_epi32(1 << 16);
    const __m256i last = _mm256_set1_epi32(7);
    /* byte 0 of each dword -> the low 4 bytes of its 128-bit half */
    const __m256i pick = _mm256_setr_epi8(0, 4, 8, 12, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
                                          0, 4, 8, 12, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1);
    const __m256i join = _mm256_setr_epi32(0, 4, 0, 0, 0, 0, 0, 0);
    __m256i c = _mm256_set1_epi32(carry);
    intptr_t i = 0;
    for (; i + 8 <= n; i += 8) {
        __m256i x = _mm256_loadu_si256((const __m256i *)(acc + i));
        _mm256_storeu_si256((__m256i *)(acc + i), zero);
        x = _mm256_add_epi32(x, _mm256_slli_si256(x, 4));
        x = _mm256_add_epi32(x, _mm256_slli_si256(x, 8));
        __m256i lo = _mm256_permute2x128_si256(x, x, 0x08); /* (0, low half) */
        x = _mm256_add_epi32(x, _mm256_shuffle_epi32(lo, 0xFF));
        x = _mm256_add_epi32(x, c);
        c = _mm256_permutevar8x32_epi32(x, last);
        __m256i v;
        if (even_odd) {
            v = _mm256_and_si256(x, wrap);
            v = _mm256_min_epi32(v, _mm256_sub_epi32(two, v));
        } else {
            v = _mm256_max_epi32(_mm256_min_epi32(_mm256_abs_epi32(x), full), zero);
        }
        /* v * 255 = (v << 8) - v; v <= 2^17 so no overflow */
        v = _mm256_sub_epi32(_mm256_slli_epi32(v, 8), v);
        v = _mm256_srli_epi32(_mm256_add_epi32(v, half), 17);
        __m256i b = _mm256_permutevar8x32_epi32(_mm256_shuffle_epi8(v, pick), join);
        _mm_storel_epi64((__m128i *)(cov + i), _mm256_castsi256_si128(b));
    }
    int32_t s = _mm256_cvtsi256_si32(c);
    for (; i < n; i++) {
        s = (int32_t)((uint32_t)s + (uint32_t)acc[i]);
        acc[i] = 0;
        cov[i] = fbk_coverage_byte(s, even_odd);
    }
    return s;
}

FBK_AVX2 int32_t fbk_accumulate_avx2(int32_t *acc, uint8_t *cov, intptr_t n, int32_t carry,
                                     int even_odd) {
    return acc_run(acc, cov, n, carry, even_odd);
}

/* The first / one past the last non-zero byte of cov[a ..< b) (a < b), or -1 / a when all are
 * zero: 8 bytes at a time (reading cov[a ..< a + 8k], k the groups that hold [a, b) -- the
 * caller's buffer covers whole groups of 8 from a). */
static inline intptr_t first_nonzero(const uint8_t *cov, intptr_t a, intptr_t b) {
    for (intptr_t g = a; g < b; g += 8) {
        uint64_t w = fbk_load_u64(cov + g);
        if (b - g < 8) w &= (1ull << ((b - g) * 8)) - 1;
        if (w) return g + (__builtin_ctzll(w) >> 3);
    }
    return -1;
}
static inline intptr_t end_nonzero(const uint8_t *cov, intptr_t a, intptr_t b) {
    intptr_t g = a + ((b - 1 - a) & ~(intptr_t)7);     /* the group holding b - 1 */
    uint64_t keep = b - g == 8 ? ~0ull : (1ull << ((b - g) * 8)) - 1;
    for (;; g -= 8, keep = ~0ull) {
        uint64_t w = fbk_load_u64(cov + g) & keep;
        if (w) return g + 8 - (__builtin_clzll(w) >> 3);
        if (g == a) return a;
    }
}

/* One row of fbk_sweep_rows_avx2 (flipbook_kernels.h): returns the count, the start in *start. */
FBK_AVX2_INLINE intptr_t sweep_row(int32_t *acc, uint64_t *bits, intptr_t words, intptr_t width,
                                   int even_odd, uint8_t *cov, intptr_t *start) {
    int32_t carry = 0;
    intptr_t x = 0, s = -1, e = 0;
    fbk_runs runs = fbk_runs_of(bits, words);
    intptr_t cx0, cx1;
    while (fbk_next_run(&runs, &cx0, &cx1)) {
        /* the gap before the run: the running sum's byte */
        fbk_dense_gap(cov, x, cx0 < width ? cx0 : width, fbk_coverage_byte(carry, even_odd), &s, &e);
        carry = acc_run(acc + cx0, cov + cx0, cx1 - cx0, carry, even_odd);
        intptr_t lim = cx1 < width ? cx1 : width;
        if (lim > cx0) {
            intptr_t f = s < 0 ? first_nonzero(cov, cx0, lim) : cx0;
            if (f >= 0) {
                intptr_t l = end_nonzero(cov, cx0, lim);
                if (l > cx0) {
                    if (s < 0) s = f;
                    e = l;
                }
            }
        }
        x = cx1;
    }
    if (carry != 0) fbk_dense_gap(cov, x, width, fbk_coverage_byte(carry, even_odd), &s, &e);
    *start = s < 0 ? 0 : s;
    return s < 0 ? 0 : e - s;
}

FBK_AVX2 void fbk_sweep_rows_avx2(int32_t *acc, uint64_t *bits, intptr_t stride, intptr_t words, intptr_t width,
                                  intptr_t n, int even_odd, uint8_t *cov, intptr_t *starts, intptr_t *counts) {
    for (intptr_t i = 0; i < n; i++)
        counts[i] = sweep_row(acc + i * stride, bits + i * words, words, width, even_odd, cov + i * stride, starts + i);
}
#else
int32_t fbk_accumulate_avx2(int32_t *acc, uint8_t *cov, intptr_t n, int32_t carry, int even_odd) {
    (void)acc; (void)cov; (void)n; (void)even_odd;
    return carry;
}
void fbk_sweep_rows_avx2(int32_t *acc, uint64_t *bits, intptr_t stride, intptr_t words, intptr_t width,
                         intptr_t n, int even_odd, uint8_t *cov, intptr_t *starts, intptr_t *counts) {
    (void)acc; (void)bits; (void)stride; (void)words; (void)width; (void)even_odd; (void)cov; (void)starts;
    for (intptr_t i = 0; i < n; i++) counts[i] = 0;
}
#endif
