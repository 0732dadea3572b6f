/*
 * fast_deflate.c — filter + LZ77 + dynamic-Huffman deflate for PNG rows (see docs/png.md).
 *
 * Pipeline for one image, one strip of whole rows (≥ FBFD_BLOCK bytes filtered) at a time:
 *   1. Filter the strip's rows into a buffer that also keeps the previous 32 KiB (the match
 *      window): filter byte + width·bpp bytes per row, `sub` for row 0 and `up` for the
 *      rest (per-byte subtraction mod 256, SWAR on 4-byte pixels).
 *   2. Update Adler-32 (the zlib trailer) over the filtered bytes.
 *   3. Parse into tokens, one pixel at a time: at each pixel start compare two candidates
 *      8 bytes at a time, the previous pixel (distance bpp: runs, including the zero runs
 *      that `up` makes of repeated rows) and the last pixel with the same value from a
 *      small hash table (tiles, repeats within 32 KiB); keep the longer if it reaches
 *      FBFD_MIN_MATCH (FBFD_MIN_HASH_MATCH for the hash candidate), else emit the pixel's
 *      bytes as literals. Matches may run across rows, never past the strip.
 *   4. Write the strip as one block (fast_block.c): dynamic Huffman codes from its counts
 *      (length-limited Huffman, fast_huffman.c), or stored blocks when those are no bigger.
 */
#include "fast_deflate.h"
#include "fast_deflate_internal.h"
#include "scratch.h"

#include <libdeflate.h>
#include <stdlib.h>
#include <string.h>

#define FBFD_MIN_MATCH 6        /* bytes; shorter matches are emitted as literals */
#ifndef FBFD_MIN_HASH_MATCH
#define FBFD_MIN_HASH_MATCH 12  /* bytes, for hash-table matches: shorter ones lose on noisy rows */
#endif
#define FBFD_BLOCK (1u << 17)   /* filtered bytes per strip = deflate block (whole rows) */
#define FBFD_HASH_LONG 32       /* hash matches this long are real repeats (tiles, glyph rows) */
#define FBFD_HASH_SHARE 64      /* a strip keeps the hash table when such matches cover ≥ 1/64 */

/* ---------------------------------------------------------------- parser */

/* Length of the common prefix of a and b, at most `limit`. */
static inline size_t fbfd_match_len(const uint8_t *a, const uint8_t *b, size_t limit) {
    size_t n = 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    while (n + 8 <= limit) {
        uint64_t x = ld64(a + n) ^ ld64(b + n);
        if (x) return n + ((size_t)__builtin_ctzll(x) >> 3);
        n += 8;
    }
#endif
    while (n < limit && a[n] == b[n]) n++;
    return n;
}

static void fbfd_flush_block(fbfd *e, const uint8_t *f, size_t start, size_t end, int final) {
    fbfd_block(e, f, start, end, final);
    e->ntok = 0;
    memset(e->lfreq, 0, sizeof e->lfreq);
    memset(e->dfreq, 0, sizeof e->dfreq);
    memset(e->lit, 0, sizeof e->lit);
}

/* Tokenizes f[start, end) (whole rows of `rowlen` bytes, pixels of `bpp` bytes; f[0, start)
 * is history, at least the 32 KiB window or everything since the image began). `pos0` is
 * the absolute stream position of f[0]: the hash table holds absolute positions.
 * `use_hash` (a constant at each call: the function is inlined twice) says whether the hash
 * candidate is looked at; without it only runs (the previous pixel) are matched. Returns the
 * bytes covered by hash-table matches, which decides whether the next strip uses the table
 * (fbfd_compress_image). */
static inline __attribute__((always_inline)) size_t
fbfd_parse_impl(fbfd *e, const uint8_t *f, size_t start, size_t end, size_t rowlen, size_t bpp, size_t pos0,
                const int use_hash) {
    const uint32_t mask = bpp >= 4 ? 0xFFFFFFFFu : (1u << (8 * bpp)) - 1;
    uint32_t *tok = e->tok + e->ntok;
    uint32_t (*lit)[256] = e->lit;
    size_t i = start, hashed = 0;
    for (size_t rs = start; rs < end; rs += rowlen) {
        size_t re = rs + rowlen;
        if (i == rs) { *tok++ = f[i] | 1u << 24; lit[3][f[i]]++; i++; } /* the filter byte */
        while (i < re) {
            /* Matches stop at the end of the strip: the next rows are not filtered yet. */
            size_t limit = end - i < 258 ? end - i : 258, best = 0, dist = bpp;
            if (!use_hash && limit >= 8 && i >= bpp) {
                /* Runs only: the previous pixel, 8 bytes at a time, extended when all 8 match. */
                uint64_t xr = ld64(f + i) ^ ld64(f + i - bpp);
                best = xr ? (size_t)__builtin_ctzll(xr) >> 3 : 8 + fbfd_match_len(f + i + 8, f + i - bpp + 8, limit - 8);
            } else if (limit >= 8 && i >= bpp) {
                /* Two candidates, compared 8 bytes at a time without branching: the previous
                 * pixel (runs) and the hash table's last pixel with the same value. */
                uint64_t here = ld64(f + i);
                uint32_t v = (uint32_t)here & mask;
                uint32_t h = (v * 0x9E3779B1u) >> (32 - FBFD_HASH_BITS);
                size_t c = (size_t)e->hash[h] - pos0; /* wraps to huge when empty or older than f[0] */
                e->hash[h] = (int32_t)(pos0 + i);
                int ok = c < i && i - c <= FBFD_WINDOW;
                size_t cand = ok ? c : i - bpp;
                uint64_t xr = here ^ ld64(f + i - bpp), xh = here ^ ld64(f + cand);
                size_t lr = xr ? (size_t)__builtin_ctzll(xr) >> 3 : 8;
                size_t lh = xh ? (size_t)__builtin_ctzll(xh) >> 3 : 8;
                lh = lh >= FBFD_MIN_HASH_MATCH || lh == 8 ? lh : 0; /* short hash matches lose on noise */
                if (lh > lr) { best = lh; dist = i - cand; } else best = lr;
                if (best == 8) { /* long match: extend the better candidate */
                    size_t lr2 = lr == 8 ? 8 + fbfd_match_len(f + i + 8, f + i - bpp + 8, limit - 8) : lr;
                    size_t lh2 = lh == 8 ? 8 + fbfd_match_len(f + i + 8, f + cand + 8, limit - 8) : lh;
                    if (lh2 > lr2) { best = lh2; dist = i - cand; } else { best = lr2; dist = bpp; }
                    if (dist != bpp && best < FBFD_MIN_HASH_MATCH) best = 0;
                }
            } else if (i >= bpp) {
                best = fbfd_match_len(f + i, f + i - bpp, limit);
            }
            if (best >= FBFD_MIN_MATCH) {
                *tok++ = FBFD_MATCH | (uint32_t)best << 16 | (uint32_t)dist;
                if (use_hash && dist != bpp && best >= FBFD_HASH_LONG) hashed += best;
                e->lfreq[257 + e->t.len_code[best]]++;
                e->dfreq[fbfd_dist_code(&e->t, (uint32_t)dist)]++;
                i += best;
            } else if (re - i >= bpp) { /* one whole pixel of literals */
                *tok++ = (ld32(f + i) & 0xFFFFFFu) | 3u << 24;
                lit[0][f[i]]++; lit[1][f[i + 1]]++; lit[2][f[i + 2]]++;
                if (bpp == 4) { *tok++ = f[i + 3] | 1u << 24; lit[3][f[i + 3]]++; }
                i += bpp;
            } else { /* the tail of a row after a match ended off the pixel grid */
                for (; i < re; i++) { *tok++ = f[i] | 1u << 24; lit[3][f[i]]++; }
            }
        }
    }
    e->ntok = (size_t)(tok - e->tok);
    return hashed;
}

static size_t fbfd_parse(fbfd *e, const uint8_t *f, size_t start, size_t end, size_t rowlen, size_t bpp,
                         size_t pos0, int use_hash) {
    return use_hash ? fbfd_parse_impl(e, f, start, end, rowlen, bpp, pos0, 1)
                    : fbfd_parse_impl(e, f, start, end, rowlen, bpp, pos0, 0);
}

/* ---------------------------------------------------------------- filter, Adler-32 */

/* Per-byte a - b mod 256 on four packed bytes (no borrow between bytes). */
static inline uint32_t fbfd_sub4(uint32_t a, uint32_t b) {
    return ((a | 0x80808080u) - (b & 0x7F7F7F7Fu)) ^ ((a ^ ~b) & 0x80808080u);
}

#if defined(__x86_64__)
#include <immintrin.h>
/* `up` for RGB rows with SSSE3: four pixels a step (16 bytes of RGBA from each row, one byte
 * subtraction, a shuffle that drops every 4th byte, one 16-byte store of which 12 count: the
 * 4 bytes after are overwritten by the next step, or by the next row, or land in the strip
 * buffer's slack). Returns the pixels done; the caller finishes the row. */
__attribute__((target("ssse3"))) static uint32_t fbfd_up_rgb_ssse3(const uint8_t *cur, const uint8_t *up,
                                                                   uint32_t w, uint8_t *d) {
    const __m128i pack = _mm_setr_epi8(0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, -1, -1, -1, -1);
    uint32_t x = 0;
    for (; x + 4 <= w; x += 4) {
        __m128i c = _mm_loadu_si128((const __m128i *)(cur + 4 * (size_t)x));
        __m128i u = _mm_loadu_si128((const __m128i *)(up + 4 * (size_t)x));
        _mm_storeu_si128((__m128i *)(d + 3 * (size_t)x), _mm_shuffle_epi8(_mm_sub_epi8(c, u), pack));
    }
    return x;
}
#endif

/* Filters rows [y0, y1) into f (one filter byte + w·bpp bytes per row). */
static void fbfd_filter(const uint8_t *rgba, uint32_t w, uint32_t y0, uint32_t y1, size_t stride, size_t bpp,
                        uint8_t *f) {
#if defined(__x86_64__)
    const int ssse3 = __builtin_cpu_supports("ssse3");
#endif
    size_t rowlen = 1 + (size_t)w * bpp;
    for (uint32_t y = y0; y < y1; y++) {
        const uint8_t *cur = rgba + (size_t)y * stride;
        uint8_t *d = f + (size_t)(y - y0) * rowlen;
        d[0] = y == 0 ? 1 : 2; /* sub for the first row, up for the others */
        d++;
        if (y == 0) {
            uint32_t left = 0;
            for (uint32_t x = 0; x < w; x++) {
                uint32_t p = ld32(cur + 4 * (size_t)x);
                uint32_t v = fbfd_sub4(p, left);
                memcpy(d + x * bpp, &v, 4); /* bpp 3: the 4th byte is overwritten next */
                left = p;
            }
        } else if (bpp == 4) {
            const uint8_t *up = cur - stride;
            for (size_t x = 0; x < (size_t)w * 4; x++) d[x] = (uint8_t)(cur[x] - up[x]);
        } else {
            const uint8_t *up = cur - stride;
            uint32_t x = 0;
#if defined(__x86_64__)
            if (ssse3) x = fbfd_up_rgb_ssse3(cur, up, w, d);
#endif
            for (; x < w; x++) {
                uint32_t v = fbfd_sub4(ld32(cur + 4 * (size_t)x), ld32(up + 4 * (size_t)x));
                memcpy(d + x * 3, &v, 4);
            }
        }
    }
}

/* Adler-32 (RFC 1950: a = 1 + Σ bytes, b = Σ a, both mod 65521) is libdeflate's
 * libdeflate_adler32 (SIMD). It replaced a scalar loop here (32-byte steps,
 * b += 32·a + Σ (32−j)·p[j]) that took ~1.7 ms of a W1 frame: the whole encode got 1.1–1.4 ms
 * faster (W3, thread CPU time, alternated runs, 2026-11-26). */

/* ---------------------------------------------------------------- entry point */

int fbfd_compress_image(const uint8_t *rgba, uint32_t width, uint32_t height, size_t stride,
                        int channels, uint8_t **out, size_t *out_size) {
    *out = NULL;
    *out_size = 0;
    if (!rgba || width == 0 || height == 0 || (channels != 3 && channels != 4) || stride < (size_t)width * 4)
        return -2;
    size_t bpp = (size_t)channels, rowlen = 1 + (size_t)width * bpp, n = rowlen * height;
    /* Rows are filtered one strip at a time (≥ FBFD_BLOCK bytes of whole rows) into a buffer
     * that also keeps the previous FBFD_WINDOW bytes for matches: small enough to stay in
     * cache, and the image is never copied whole. Each strip is one deflate block. */
    uint32_t strip_rows = (uint32_t)((FBFD_BLOCK + rowlen - 1) / rowlen);
    if (strip_rows > height) strip_rows = height;
    size_t strip = (size_t)strip_rows * rowlen;
    size_t fcap = FBFD_WINDOW + strip + 16; /* slack: 16-byte stores in the filter, loads in the parser */
    /* Working memory (the strip buffer f, the tokens, the encoder state) from this thread's
     * FB_SCRATCH_WORK buffer and the stream from FB_SCRATCH_OUT (scratch.h): no fresh
     * mappings to fault in per frame. */
    size_t fbytes = (fcap + 63) & ~(size_t)63, tbytes = ((strip + 8) * sizeof(uint32_t) + 63) & ~(size_t)63;
    uint8_t *work = fb_scratch_take(FB_SCRATCH_WORK, fbytes + tbytes + sizeof(fbfd));
    size_t cap = n + n / 1024 + 1024 + 8; /* ≥ stored size: 5 bytes per 65535 + headers */
    uint8_t *o = fb_scratch_take(FB_SCRATCH_OUT, cap);
    if (!work || !o) { fb_scratch_release(FB_SCRATCH_WORK, work); fb_scratch_release(FB_SCRATCH_OUT, o); return -1; }
    uint8_t *f = work;
    uint32_t *tok = (uint32_t *)(work + fbytes); /* ≤ one token per byte */
    fbfd *e = (fbfd *)(work + fbytes + tbytes);
    memset(f, 0, fcap);
    fbfd_make_tables(&e->t);
    e->out = o; e->cap = cap; e->len = 0; e->bits = 0; e->nbits = 0;
    e->tok = tok; e->ntok = 0;
    memset(e->lfreq, 0, sizeof e->lfreq);
    memset(e->dfreq, 0, sizeof e->dfreq);
    memset(e->lit, 0, sizeof e->lit);
    memset(e->hash, 0xFF, sizeof e->hash); /* -1: empty */

    o[0] = 0x78; o[1] = 0x01; /* deflate, 32 KiB window, "fastest"; 0x7801 % 31 == 0 */
    e->len = 2;
    uint32_t adler = 1;
    size_t pos0 = 0, used = 0; /* f[0] is stream position pos0; f[0, used) is filled */
    int hash_on = 1;
    unsigned strip_index = 0;
    for (uint32_t y = 0; y < height; y += strip_rows) {
        uint32_t y1 = height - y < strip_rows ? height : y + strip_rows;
        size_t bytes = (size_t)(y1 - y) * rowlen;
        if (used + bytes > FBFD_WINDOW + strip) { /* keep only the last window as history */
            memmove(f, f + used - FBFD_WINDOW, FBFD_WINDOW);
            pos0 += used - FBFD_WINDOW;
            used = FBFD_WINDOW;
        }
        fbfd_filter(rgba, width, y, y1, stride, bpp, f + used);
        adler = libdeflate_adler32(adler, f + used, bytes);
        /* The hash table is worth its cost (a dependent load per pixel: ~5 ms of a W3 frame)
         * only where long repeats farther than one pixel exist: tiles, glyph rows, panels.
         * A strip keeps it when the previous one covered ≥ 1/FBFD_HASH_SHARE of its bytes
         * with hash matches of ≥ FBFD_HASH_LONG bytes (short ones on smooth gradients cost
         * more than they save); without, it is tried again on every 8th strip (stale entries
         * are refused by the window check). Measured (clang -O2, thread CPU time): W3 16.6 →
         * 11.6 ms, 1,738,269 → 1,735,494 bytes; W3b 297,328 → 299,707 bytes (1/32 instead of
         * 1/64 dropped the table on glyph strips: 337 K). */
        int use_hash = hash_on || (strip_index & 7) == 0;
        size_t hashed = fbfd_parse(e, f, used, used + bytes, rowlen, bpp, pos0, use_hash);
        if (use_hash) hash_on = hashed * FBFD_HASH_SHARE >= bytes;
        strip_index++;
        fbfd_flush_block(e, f, used, used + bytes, y1 == height);
        used += bytes;
    }
    put(e, 0, (8 - (e->nbits & 7)) & 7);
    flush(e);
    o[e->len++] = (uint8_t)(adler >> 24);
    o[e->len++] = (uint8_t)(adler >> 16);
    o[e->len++] = (uint8_t)(adler >> 8);
    o[e->len++] = (uint8_t)adler;
    *out = o;
    *out_size = e->len;
    fb_scratch_release(FB_SCRATCH_WORK, work);
    return 0;
}
