/*
 * blend_avx512.c -- source-over with a constant opacity (no coverage), AVX-512, 16 pixels per
 * block. Every path is bit-identical to fbk_over_avx2 (and so to the Swift twins):
 *   s' = div255(s * opacity), d' = min(255, s' + div255(d * (255 - s'.a))),
 * div255(x) = mulhi_epu16(x + 128, 257). The last n mod 16 pixels go to fbk_over_avx2.
 * Callers check fbk_cpu_has_avx512bw().
 *
 * fbk_over_avx512bw (AVX-512BW): the 16-bit layout per 128-bit lane (unpacklo/hi_epi8 against
 * zero, packus restores pixel order), evaluated as d' = min(255, s' + d - div255(d * s'.a)),
 * which is the same number: div255 rounds x/255 half up, and d*a/255 is never exactly n + 1/2
 * (2*d*a = 255*(2n+1) has no solution: the left side is even, the right odd), so
 * round(d - d*a/255) = d - round(d*a/255) for every d, a in 0...255 (premultiplied or not).
 * The sum s' + d is formed while the product is computed, which shortens the dependency chain.
 *
 * fbk_over_avx512vbmi (AVX-512 VBMI): 16 vector instructions per block instead of 23, and a
 * shorter chain of them. W2 through the compositor: 0.240-0.254 -> 0.210-0.223 ms per 1080p
 * frame (docs/performance-history/2026-11-27-sessions.md).
 *  - s' = T[s] for every byte, T[v] = div255(v * opacity) built once per call (16 bits at a
 *    time): two 128-entry vpermi2b lookups, the byte's top bit chooses (vpmovb2m + blend).
 *  - The destination stays in place as even and odd bytes: de = d & 0x00FF00FF (R, B) and
 *    do = (d >> 8) & 0x00FF00FF (G, A), two 16-bit channels per 32-bit pixel. One vpmulld by
 *    inv = 255 - s'.a (a 32-bit lane, no broadcast) gives both products, R*inv + (B*inv << 16):
 *    each is at most 255*255 < 2^16, so neither spills into the other, nor does the + 128 of
 *    div255 (65025 + 128 < 2^16).
 *  - One vpermt2b interleaves the even and odd results back into pixels, and vpaddusb adds s'
 *    with the min(255, ...) (s' + q <= 510).
 *  - The lookups for block i + 1 are issued before block i's blend (software pipelining): the
 *    blend then waits on its own loads only, not on the lookups (measured 7 % faster).
 *  - Tried and slower: the table's upper half by symmetry (T[v] = k - T[255 - v]) with one
 *    lookup and a masked subtract; masked lookups instead of the blend; a GFNI sign mask;
 *    interleaving by shift and OR; inv computed from s with multiplies; prefetching.
 * Opacity 255 skips the lookups (s' = s).
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

FBK_AVX512 void fbk_over_avx512bw(uint32_t *dst, const uint32_t *src, intptr_t n, uint32_t opacity) {
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


#define FBK_VBMI __attribute__((target("avx512f,avx512bw,avx512vbmi")))
#define FBK_VBMI_INLINE __attribute__((target("avx512f,avx512bw,avx512vbmi"), always_inline)) static inline

/* t[c] holds T[64c ... 64c + 63], T[v] = div255(v * k): each 64 values widened to 16 bits
 * (unpack against zero), scaled, and packed back (packus undoes the unpack's order). */
FBK_VBMI_INLINE void scale_table(__m512i t[4], uint32_t k) {
    const __m512i z = _mm512_setzero_si512(), kk = _mm512_set1_epi16((short)k);
    const __m512i iota = _mm512_set_epi8(63, 62, 61, 60, 59, 58, 57, 56, 55, 54, 53, 52, 51, 50, 49, 48,
                                         47, 46, 45, 44, 43, 42, 41, 40, 39, 38, 37, 36, 35, 34, 33, 32,
                                         31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17, 16,
                                         15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
    for (int c = 0; c < 4; c++) {
        const __m512i v = _mm512_add_epi8(iota, _mm512_set1_epi8((char)(64 * c)));
        t[c] = _mm512_packus_epi16(div255_512(_mm512_mullo_epi16(_mm512_unpacklo_epi8(v, z), kk)),
                                   div255_512(_mm512_mullo_epi16(_mm512_unpackhi_epi8(v, z), kk)));
    }
}

/* T[s] for each byte: vpermi2b reads index bits 0-6, so the two halves of T are looked up
 * separately and bit 7 of s chooses. */
FBK_VBMI_INLINE __m512i scale16(const __m512i t[4], __m512i s) {
    const __mmask64 upper = _mm512_movepi8_mask(s);
    return _mm512_mask_blend_epi8(upper, _mm512_permutex2var_epi8(t[0], s, t[1]),
                                  _mm512_permutex2var_epi8(t[2], s, t[3]));
}

/* 255 - s'.a in the low byte of each 32-bit lane, zero above */
FBK_VBMI_INLINE __m512i inverse_alpha(__m512i sp) {
    return _mm512_xor_si512(_mm512_srli_epi32(sp, 24), _mm512_set1_epi32(255));
}

/* d' = min(255, s' + div255(d * inv)) for 16 pixels (see the comment at the top);
 * `interleave` is the vpermt2b index taking even bytes from the first operand, odd ones from
 * the second. */
FBK_VBMI_INLINE __m512i over16_vbmi(__m512i sp, __m512i inv, __m512i d, __m512i interleave) {
    const __m512i even = _mm512_set1_epi32(0x00FF00FF), c128 = _mm512_set1_epi16(128), c257 = _mm512_set1_epi16(257);
    const __m512i de = _mm512_and_si512(d, even), dodd = _mm512_srli_epi16(d, 8);
    const __m512i qe = _mm512_mulhi_epu16(_mm512_add_epi16(_mm512_mullo_epi32(de, inv), c128), c257);
    const __m512i qo = _mm512_mulhi_epu16(_mm512_add_epi16(_mm512_mullo_epi32(dodd, inv), c128), c257);
    return _mm512_adds_epu8(sp, _mm512_permutex2var_epi8(qe, interleave, qo));
}

FBK_VBMI void fbk_over_avx512vbmi(uint32_t *dst, const uint32_t *src, intptr_t n, uint32_t opacity) {
    if (n <= 0 || opacity == 0) return;
    /* byte j of a block: j even -> byte j of qe, j odd -> byte j - 1 of qo (index 64 + j - 1) */
    const __m512i interleave = _mm512_set_epi8(126, 62, 124, 60, 122, 58, 120, 56, 118, 54, 116, 52, 114, 50, 112, 48,
                                               110, 46, 108, 44, 106, 42, 104, 40, 102, 38, 100, 36, 98, 34, 96, 32,
                                               94, 30, 92, 28, 90, 26, 88, 24, 86, 22, 84, 20, 82, 18, 80, 16,
                                               78, 14, 76, 12, 74, 10, 72, 8, 70, 6, 68, 4, 66, 2, 64, 0);
    const intptr_t blocks = n / 16;
    /* opacity 255: s' = s, no table (the test is the same for every block: hoisted) */
    const int scaled = opacity != 255;
    __m512i t[4];
    if (scaled) scale_table(t, opacity);
#define FBK_SOURCE(b) (scaled ? scale16(t, _mm512_loadu_si512((const void *)(src + 16 * (b)))) \
                              : _mm512_loadu_si512((const void *)(src + 16 * (b))))
    if (blocks > 0) {
        __m512i sp = FBK_SOURCE(0), inv = inverse_alpha(sp);
        for (intptr_t b = 0; b < blocks; b++) {
            const __m512i cur = sp, cinv = inv;
            if (b + 1 < blocks) { sp = FBK_SOURCE(b + 1); inv = inverse_alpha(sp); }
            _mm512_storeu_si512((void *)(dst + 16 * b),
                                over16_vbmi(cur, cinv, _mm512_loadu_si512((const void *)(dst + 16 * b)), interleave));
        }
    }
#undef FBK_SOURCE
    if (16 * blocks < n) fbk_over_avx2(dst + 16 * blocks, src + 16 * blocks, NULL, n - 16 * blocks, opacity);
}

int fbk_cpu_has_avx512vbmi(void) {
    __builtin_cpu_init();
    return fbk_cpu_has_avx512bw() && __builtin_cpu_supports("avx512vbmi");
}
int fbk_cpu_avx512vbmi_state = -1;

void fbk_over_avx512(uint32_t *dst, const uint32_t *src, intptr_t n, uint32_t opacity) {
    if (fbk_cpu_avx512vbmi_cached()) fbk_over_avx512vbmi(dst, src, n, opacity);
    else fbk_over_avx512bw(dst, src, n, opacity);
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
void fbk_over_avx512bw(uint32_t *dst, const uint32_t *src, intptr_t n, uint32_t opacity) {
    (void)dst; (void)src; (void)n; (void)opacity;
}
void fbk_over_avx512vbmi(uint32_t *dst, const uint32_t *src, intptr_t n, uint32_t opacity) {
    (void)dst; (void)src; (void)n; (void)opacity;
}
int fbk_cpu_has_avx512vbmi(void) { return 0; }
int fbk_cpu_avx512vbmi_state = -1;
int fbk_cpu_has_avx512bw(void) { return 0; }
#endif
