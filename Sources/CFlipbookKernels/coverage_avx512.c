/*
 * coverage_avx512.c -- fbk_sweep_rows_avx2 (coverage_avx2.c) with AVX-512 F, BW, DQ and VL:
 * the same rows, bytes, starts and counts (the callers check fbk_cpu_has_lane_walk()).
 *
 * Two differences in how, none in what:
 *  - 16 cells per block (the AVX2 pass does 8): the inclusive prefix sum of a block is four
 *    lane shifts and adds (valignd against zero by 1, 2, 4 and 8 cells), then the running sum
 *    is added and its last lane broadcast for the next block -- the only step one block waits
 *    on the previous for. The per-cell formula is coverage_avx2.c's:
 *      non-zero:  v = max(0, min(|s|, 2^17));  even-odd: v = s & (2^18 - 1), v = min(v, 2^18 - v)
 *      byte     = (v * 255 + 2^16) >> 17
 *  - a row's first and last covered pixel come from each block's mask of non-zero bytes
 *    (cells at or past `width` left out), where the AVX2 sweep scans the bytes again.
 *
 * fbk_sweep_rows_solid_avx512 paints the rows with one colour as it sweeps them (the solid
 * colour sink's rows without coverage rows in between): a block of 16 cells with its coverage
 * values still in their lanes as the per-pixel k, a gap between runs -- a shape's interior --
 * with the colour scaled by the gap's byte and no mask. s' = div255(color * k) either way, so
 * the bytes are those of painting the dense rows (SolidColorSinkTests).
 */
#include "fbk_avx2.h"

#if FBK_X86
#include "fbk_avx512.h"
#define FBK_COV512 __attribute__((target("avx512f,avx512bw,avx512dq,avx512vl")))
#define FBK_COV512_INLINE __attribute__((target("avx512f,avx512bw,avx512dq,avx512vl"), always_inline)) static inline

/* Block i of a run: the 16 cells at acc (k: all 16, or the first 8 -- a run is whole groups
 * of 8) zeroed and turned into their coverage values 0...255, one per 32-bit lane; *c holds the
 * running sum in every lane, before and after. */
FBK_COV512_INLINE __m512i cov_block16(int32_t *acc, __mmask16 k, __m512i *c, int even_odd) {
    const __m512i zero = _mm512_setzero_si512();
    __m512i x = _mm512_maskz_loadu_epi32(k, acc);
    _mm512_mask_storeu_epi32(acc, k, zero);
    x = _mm512_add_epi32(x, _mm512_alignr_epi32(x, zero, 15));
    x = _mm512_add_epi32(x, _mm512_alignr_epi32(x, zero, 14));
    x = _mm512_add_epi32(x, _mm512_alignr_epi32(x, zero, 12));
    x = _mm512_add_epi32(x, _mm512_alignr_epi32(x, zero, 8));
    x = _mm512_add_epi32(x, *c);
    *c = _mm512_permutexvar_epi32(_mm512_set1_epi32(15), x);   /* masked-off cells added 0: lane 15 = the last sum */
    __m512i v;
    if (even_odd) {
        v = _mm512_and_si512(x, _mm512_set1_epi32((1 << 18) - 1));
        v = _mm512_min_epi32(v, _mm512_sub_epi32(_mm512_set1_epi32(1 << 18), v));
    } else {
        v = _mm512_max_epi32(_mm512_min_epi32(_mm512_abs_epi32(x), _mm512_set1_epi32(1 << 17)), zero);
    }
    return _mm512_srli_epi32(_mm512_add_epi32(_mm512_sub_epi32(_mm512_slli_epi32(v, 8), v), _mm512_set1_epi32(1 << 16)), 17);
}

/* cells acc[0 ..< n) (n a multiple of 8) into bytes cov[0 ..< n), zeroing them; the running sum
 * from `carry` is returned. Non-zero bytes of cells below `lim` (relative) widen [*s, *e)
 * (positions relative to the row: `base` is the run's first cell). */
FBK_COV512_INLINE int32_t acc_run16(int32_t *acc, uint8_t *cov, intptr_t n, int32_t carry, int even_odd,
                                   intptr_t base, intptr_t lim, intptr_t *s, intptr_t *e) {
    __m512i c = _mm512_set1_epi32(carry);
    for (intptr_t i = 0; i < n; i += 16) {
        const __mmask16 k = n - i >= 16 ? (__mmask16)0xFFFF : (__mmask16)0x00FF;   /* n - i is 8 or >= 16 */
        const __m512i v = cov_block16(acc + i, k, &c, even_odd);
        _mm_mask_storeu_epi8(cov + i, k, _mm512_cvtepi32_epi8(v));
        /* non-zero bytes of cells below lim */
        const intptr_t room = lim - i;
        const __mmask16 in = room >= 16 ? (__mmask16)0xFFFF : room <= 0 ? (__mmask16)0 : (__mmask16)((1u << room) - 1u);
        const __mmask16 nz = _mm512_test_epi32_mask(v, v) & k & in;
        if (nz) {
            if (*s < 0) *s = base + i + __builtin_ctz(nz);
            *e = base + i + 32 - __builtin_clz((unsigned)nz);
        }
    }
    return _mm_cvtsi128_si32(_mm512_castsi512_si128(c));
}

FBK_COV512_INLINE intptr_t sweep_row512(int32_t *acc, uint64_t *bits, intptr_t words, intptr_t width,
                                       int even_odd, uint8_t *cov, intptr_t *start) {
    int32_t carry = 0;
    intptr_t x = 0, s = -1, e = 0;
    fbk_runs runs = fbk_runs_of(bits, words);
    intptr_t cx0, cx1;
    while (fbk_next_run(&runs, &cx0, &cx1)) {
        fbk_dense_gap(cov, x, cx0 < width ? cx0 : width, fbk_coverage_byte(carry, even_odd), &s, &e);
        carry = acc_run16(acc + cx0, cov + cx0, cx1 - cx0, carry, even_odd, cx0, width - cx0, &s, &e);
        x = cx1;
    }
    if (carry != 0) fbk_dense_gap(cov, x, width, fbk_coverage_byte(carry, even_odd), &s, &e);
    *start = s < 0 ? 0 : s;
    return s < 0 ? 0 : e - s;
}

FBK_COV512 void fbk_sweep_rows_avx512(int32_t *acc, uint64_t *bits, intptr_t stride, intptr_t words, intptr_t width,
                                      intptr_t n, int even_odd, uint8_t *cov, intptr_t *starts, intptr_t *counts) {
    for (intptr_t i = 0; i < n; i++)
        counts[i] = sweep_row512(acc + i * stride, bits + i * words, words, width, even_odd, cov + i * stride, starts + i);
}
/* fbk_sweep_rows_small_avx512: the rows of a buffer one bitmap word wide (stride <= 512 cells;
 * the callers use it for clips of at most 64 columns -- a small layer's rows), swept densely: the
 * cells from the first marked group of 8 to the last, 16 at a time, unmarked ones included (they
 * hold 0, so the running sum passes them unchanged and their bytes are the gap's byte the run
 * sweep writes), then the gap to `width` after the last group when the sum is not back to 0.
 * No run walk, no separate scan for the ends: the row's first and last non-zero byte below
 * `width` come from the blocks' masks. The same bytes in [start, start + count), the same starts
 * and counts, the cells and bitmap zeroed alike (CoverageAccumulationTests compare the sweeps). */
FBK_COV512_INLINE intptr_t sweep_row_small(int32_t *acc, uint64_t *bits, intptr_t width, int even_odd,
                                           uint8_t *cov, intptr_t *start) {
    const uint64_t w = bits[0];
    if (!w) { *start = 0; return 0; }
    bits[0] = 0;
    const intptr_t x0 = (intptr_t)__builtin_ctzll(w) * 8, x1 = (intptr_t)(64 - __builtin_clzll(w)) * 8;
    intptr_t s = -1, e = 0;
    /* the whole stretch as one run (the groups between hold zeros) */
    const int32_t carry = acc_run16(acc + x0, cov + x0, x1 - x0, 0, even_odd, x0, width - x0, &s, &e);
    if (carry != 0) fbk_dense_gap(cov, x1, width, fbk_coverage_byte(carry, even_odd), &s, &e);
    *start = s < 0 ? 0 : s;
    return s < 0 ? 0 : e - s;
}

FBK_COV512 void fbk_sweep_rows_small_avx512(int32_t *acc, uint64_t *bits, intptr_t stride, intptr_t width, intptr_t n,
                                            int even_odd, uint8_t *cov, intptr_t *starts, intptr_t *counts) {
    for (intptr_t i = 0; i < n; i++)
        counts[i] = sweep_row_small(acc + i * stride, bits + i, width, even_odd, cov + i * stride, starts + i);
}

/* color with every channel scaled by v/255, rounded (PixelMath.scale; the mask path's
 * div255(color * m) for a constant m) */
static inline uint32_t fbk_scale_color(uint32_t color, uint32_t v) {
    uint32_t out = 0;
    for (int sh = 0; sh < 32; sh += 8) {
        const uint32_t x = ((color >> sh) & 255u) * v + 128u;
        out |= ((x + (x >> 8)) >> 8) << sh;
    }
    return out;
}


/* acc_run16 painting as it goes: each block's 16 coverage values, still in their lanes, are the
 * per-pixel k of solid_over16 (s' = div255(color * k), then over) for the pixels below `lim` --
 * no bytes stored and loaded back (a masked store forwards to no load: the blend waited ~20
 * cycles a block on it). */
FBK_COV512_INLINE int32_t acc_paint16(int32_t *acc, uint32_t *dst, intptr_t n, int32_t carry, int even_odd,
                                     intptr_t lim, uint32_t color) {
    const fbk_solid512 col = fbk_solid512_make(color);
    __m512i c = _mm512_set1_epi32(carry);
    for (intptr_t i = 0; i < n; i += 16) {
        const __mmask16 k = n - i >= 16 ? (__mmask16)0xFFFF : (__mmask16)0x00FF;   /* n - i is 8 or >= 16 */
        const __m512i v = cov_block16(acc + i, k, &c, even_odd);
        const intptr_t room = lim - i;
        const __mmask16 in = room >= 16 ? (__mmask16)0xFFFF : room <= 0 ? (__mmask16)0 : (__mmask16)((1u << room) - 1u);
        const __mmask16 paint = _mm512_test_epi32_mask(v, v) & k & in;
        if (!paint) continue;                               /* nothing covered */
        const __m512i d = _mm512_maskz_loadu_epi32(paint, dst + i);
        _mm512_mask_storeu_epi32(dst + i, paint, solid_blend16(&col, d, v, 1));
    }
    return _mm_cvtsi128_si32(_mm512_castsi512_si128(c));
}

/* A row of fbk_sweep_rows_solid_avx512: the runs as sweep_row512 accumulates them, painted as
 * they come -- a run through its coverage bytes, a gap (the running sum's constant byte v) with
 * the colour scaled by v and no mask. */
FBK_COV512_INLINE void sweep_row_solid(int32_t *acc, uint64_t *bits, intptr_t words, intptr_t width, int even_odd,
                                      uint32_t *dst, uint32_t color) {
    int32_t carry = 0;
    intptr_t x = 0;
    fbk_runs runs = fbk_runs_of(bits, words);
    intptr_t cx0, cx1;
    while (fbk_next_run(&runs, &cx0, &cx1)) {
        const intptr_t ge = cx0 < width ? cx0 : width;
        const uint8_t v = fbk_coverage_byte(carry, even_odd);
        if (ge > x && v) solid_over16(dst + x, v == 255 ? color : fbk_scale_color(color, v), NULL, ge - x);
        carry = acc_paint16(acc + cx0, dst + cx0, cx1 - cx0, carry, even_odd, width - cx0, color);
        x = cx1;
    }
    const uint8_t v = fbk_coverage_byte(carry, even_odd);
    if (x < width && v) solid_over16(dst + x, v == 255 ? color : fbk_scale_color(color, v), NULL, width - x);
}

FBK_COV512 void fbk_sweep_rows_solid_avx512(int32_t *acc, uint64_t *bits, intptr_t stride, intptr_t words, intptr_t width,
                                            intptr_t n, int even_odd, uint32_t *dst, intptr_t dst_stride, uint32_t color) {
    for (intptr_t i = 0; i < n; i++)
        sweep_row_solid(acc + i * stride, bits + i * words, words, width, even_odd, dst + i * dst_stride, color);
}

#else
void fbk_sweep_rows_avx512(int32_t *acc, uint64_t *bits, intptr_t stride, intptr_t words, intptr_t width,
                           intptr_t n, int even_odd, uint8_t *cov, intptr_t *starts, intptr_t *counts) {
    (void)acc; (void)bits; (void)stride; (void)words; (void)width; (void)even_odd; (void)cov; (void)starts;
    for (intptr_t i = 0; i < n; i++) counts[i] = 0;
}
void fbk_sweep_rows_small_avx512(int32_t *acc, uint64_t *bits, intptr_t stride, intptr_t width, intptr_t n,
                                 int even_odd, uint8_t *cov, intptr_t *starts, intptr_t *counts) {
    (void)acc; (void)bits; (void)stride; (void)width; (void)even_odd; (void)cov; (void)starts;
    for (intptr_t i = 0; i < n; i++) counts[i] = 0;
}
void fbk_sweep_rows_solid_avx512(int32_t *acc, uint64_t *bits, intptr_t stride, intptr_t words, intptr_t width,
                                 intptr_t n, int even_odd, uint32_t *dst, intptr_t dst_stride, uint32_t color) {
    (void)acc; (void)bits; (void)stride; (void)words; (void)width; (void)n; (void)even_odd;
    (void)dst; (void)dst_stride; (void)color;
}
#endif
