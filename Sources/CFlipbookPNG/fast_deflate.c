/*
 * fast_deflate.c — filter + LZ77 + dynamic-Huffman deflate for PNG rows (see docs/png.md).
 *
 * Pipeline for one image:
 *   1. Filter every row into one buffer F (filter byte + width·bpp bytes per row): `sub` for
 *      row 0, `up` for the rest (per-byte subtraction mod 256, SWAR on 4-byte pixels).
 *   2. Adler-32 of F (the zlib trailer).
 *   3. Parse F into tokens, one pixel at a time: at each pixel start try a match at distance
 *      bpp (the previous pixel: runs, including the zero runs that `up` makes of repeated
 *      rows) and one candidate from a small hash table of earlier pixels (tiles, repeats
 *      within the 32 KiB window); keep the longer if it is at least FBFD_MIN_MATCH bytes,
 *      else emit the pixel's bytes as literals. Matches may run across rows.
 *   4. Every ~FBFD_BLOCK bytes of F: build length-limited Huffman codes from the block's
 *      symbol counts (package-merge, 15 bits; 7 for the code-length code), compute the
 *      block's exact size, and write it as a dynamic block, or as stored blocks when that
 *      is smaller (incompressible data grows by 5 bytes per 64 KiB, plus headers).
 * The bit writer keeps 64 bits and stores 8 bytes at a time (the output has 8 bytes of slack).
 */
#include "fast_deflate.h"
#include "fast_deflate_internal.h"

#include <stdlib.h>
#include <string.h>

#define FBFD_HASH_BITS 12       /* 16 KiB table: stays in L1 */
#define FBFD_MIN_MATCH 6        /* bytes; shorter matches are emitted as literals */
#ifndef FBFD_MIN_HASH_MATCH
#define FBFD_MIN_HASH_MATCH 12  /* bytes, for hash-table matches: shorter ones lose on noisy rows */
#endif
#define FBFD_BLOCK (1u << 17)   /* filtered bytes per strip = deflate block (whole rows) */
#define FBFD_WINDOW 32768

static inline uint32_t ld32(const uint8_t *p) { uint32_t v; memcpy(&v, p, 4); return v; }
static inline uint64_t ld64(const uint8_t *p) { uint64_t v; memcpy(&v, p, 8); return v; }
static inline void st64(uint8_t *p, uint64_t v) { memcpy(p, &v, 8); }

/* ---------------------------------------------------------------- static tables */

static const uint16_t len_base[29] = {3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31,
                                      35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258};
static const uint8_t len_extra[29] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2,
                                      3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};
static const uint16_t dist_base[30] = {1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193,
                                       257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145,
                                       8193, 12289, 16385, 24577};
static const uint8_t dist_extra[30] = {0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6,
                                       7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13};
static const uint8_t cl_order[19] = {16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15};

/* Length → code index (0…28), distance-1 → distance code: `(d-1) < 256 ? small[d-1] :
 * large[(d-1) >> 7]` (from distance code 16 on, every code spans a multiple of 128). */
typedef struct fbfd_tables {
    uint8_t len_code[259];
    uint8_t dist_small[256];
    uint8_t dist_large[256];
} fbfd_tables;

static void fbfd_make_tables(fbfd_tables *t) {
    for (int c = 0; c < 29; c++)
        for (int l = len_base[c]; l < len_base[c] + (1 << len_extra[c]) && l <= 258; l++) t->len_code[l] = (uint8_t)c;
    t->len_code[258] = 28; /* 258 has its own code (285), not 284 + 31 */
    for (int c = 0; c < 30; c++)
        for (int d = dist_base[c]; d < dist_base[c] + (1 << dist_extra[c]); d++) {
            if (d - 1 < 256) t->dist_small[d - 1] = (uint8_t)c;
            else t->dist_large[(d - 1) >> 7] = (uint8_t)c;
        }
}

static inline int fbfd_dist_code(const fbfd_tables *t, uint32_t d) {
    return d - 1 < 256 ? t->dist_small[d - 1] : t->dist_large[(d - 1) >> 7];
}

/* ---------------------------------------------------------------- encoder state */

typedef struct fbfd {
    fbfd_tables t;
    uint8_t *out;       /* output, `cap` bytes, 8 of them slack for the 64-bit stores */
    size_t len, cap;
    uint64_t bits;      /* pending bits, LSB first */
    unsigned nbits;     /* < 64 between calls */
    uint16_t *tok;      /* block tokens: literal byte; or 256 + length, then distance */
    size_t ntok;
    uint32_t lfreq[FBFD_MAX_SYMBOLS], dfreq[30];
    uint32_t lit[4][256]; /* literal counts by byte of the pixel (no store-forwarding chains) */
    int32_t hash[1 << FBFD_HASH_BITS];
    fbfd_pm pm;
} fbfd;

static inline void put(fbfd *e, uint64_t v, unsigned n) { e->bits |= v << e->nbits; e->nbits += n; }
static inline void flush(fbfd *e) { /* after: nbits < 8 */
    st64(e->out + e->len, e->bits);
    e->len += e->nbits >> 3;
    e->bits = (e->nbits & ~7u) == 64 ? 0 : e->bits >> (e->nbits & ~7u);
    e->nbits &= 7;
}

/* ---------------------------------------------------------------- blocks */

/* Stored blocks for the block's raw bytes f[start, end): ≤ 65535 bytes each. */
static void fbfd_stored(fbfd *e, const uint8_t *f, size_t start, size_t end, int final) {
    do {
        size_t n = end - start > 65535 ? 65535 : end - start;
        put(e, (final && start + n == end) ? 1 : 0, 3); /* BFINAL, BTYPE 00 */
        put(e, 0, (8 - (e->nbits & 7)) & 7);           /* pad to a byte */
        put(e, n | (uint64_t)(~n & 0xFFFF) << 16, 32); /* LEN, NLEN */
        flush(e);
        memcpy(e->out + e->len, f + start, n);
        e->len += n;
        start += n;
    } while (start < end);
}

/* Writes the block of the current tokens, covering F[start, end). */
static void fbfd_block(fbfd *e, const uint8_t *f, size_t start, size_t end, int final) {
    uint8_t ll[FBFD_MAX_SYMBOLS], dl[30], cll[19];
    uint16_t lc[FBFD_MAX_SYMBOLS], dc[30], clc[19];
    for (int b = 0; b < 256; b++) e->lfreq[b] += e->lit[0][b] + e->lit[1][b] + e->lit[2][b] + e->lit[3][b];
    e->lfreq[256] = 1; /* end of block */
    /* Every tree gets at least two codes (a complete code, which every inflater accepts). */
    uint32_t lf[FBFD_MAX_SYMBOLS], df[30];
    memcpy(lf, e->lfreq, sizeof lf);
    memcpy(df, e->dfreq, sizeof df);
    int used = 0;
    for (int i = 0; i < 30; i++) used += df[i] != 0;
    if (used < 2) { if (!df[0]) df[0] = 1; else df[1] = 1; if (used == 0) df[1] = 1; }
    lf[0] |= lf[0] == 0; /* with EOB: at least two literal/length codes */
    fbfd_lengths(&e->pm, lf, 286, 15, ll);
    fbfd_lengths(&e->pm, df, 30, 15, dl);

    int hlit = 286, hdist = 30;
    while (hlit > 257 && !ll[hlit - 1]) hlit--;
    while (hdist > 1 && !dl[hdist - 1]) hdist--;
    /* Run-length code the concatenated lengths with symbols 16 (repeat previous 3–6),
     * 17 (zeros 3–10), 18 (zeros 11–138). Each entry: symbol | extra value << 8. */
    uint8_t all[286 + 30];
    uint16_t cls[286 + 30];
    int n = 0, total = hlit + hdist;
    memcpy(all, ll, (size_t)hlit);
    memcpy(all + hlit, dl, (size_t)hdist);
    uint32_t clf[19] = {0};
    for (int i = 0; i < total;) {
        int v = all[i], r = 1;
        while (i + r < total && all[i + r] == v) r++;
        i += r;
        if (v == 0) {
            while (r >= 11) { int k = r > 138 ? 138 : r; cls[n++] = (uint16_t)(18 | (k - 11) << 8); clf[18]++; r -= k; }
            if (r >= 3) { cls[n++] = (uint16_t)(17 | (r - 3) << 8); clf[17]++; r = 0; }
        } else {
            cls[n++] = (uint16_t)v; clf[v]++; r--;
            while (r >= 3) { int k = r > 6 ? 6 : r; cls[n++] = (uint16_t)(16 | (k - 3) << 8); clf[16]++; r -= k; }
        }
        while (r-- > 0) { cls[n++] = (uint16_t)v; clf[v]++; }
    }
    uint32_t cf[19];
    memcpy(cf, clf, sizeof cf);
    int clused = 0;
    for (int i = 0; i < 19; i++) clused += cf[i] != 0;
    if (clused < 2) { if (!cf[0]) cf[0] = 1; else cf[1] = 1; }
    fbfd_lengths(&e->pm, cf, 19, 7, cll);
    int hclen = 19;
    while (hclen > 4 && !cll[cl_order[hclen - 1]]) hclen--;

    /* Exact size of the dynamic block in bits, against stored blocks. */
    uint64_t bits = 3 + 14 + 3 * (uint64_t)hclen;
    bits += (uint64_t)clf[16] * 2 + (uint64_t)clf[17] * 3 + (uint64_t)clf[18] * 7;
    for (int i = 0; i < 19; i++) bits += (uint64_t)clf[i] * cll[i];
    for (int i = 0; i < 286; i++) bits += (uint64_t)e->lfreq[i] * ll[i];
    for (int i = 0; i < 29; i++) bits += (uint64_t)e->lfreq[257 + i] * len_extra[i];
    for (int i = 0; i < 30; i++) bits += (uint64_t)e->dfreq[i] * (dl[i] + dist_extra[i]);
    size_t raw = end - start, pieces = raw / 65535 + 1;
    uint64_t stored_bits = 8 * (uint64_t)raw + pieces * (3 + 7 + 32);
    if (bits >= stored_bits) {
        fbfd_stored(e, f, start, end, final);
        return;
    }

    fbfd_codes(ll, 286, lc);
    fbfd_codes(dl, 30, dc);
    fbfd_codes(cll, 19, clc);
    put(e, final ? 5 : 4, 3); /* BFINAL, BTYPE 10 (dynamic) */
    put(e, (uint64_t)(hlit - 257) | (uint64_t)(hdist - 1) << 5 | (uint64_t)(hclen - 4) << 10, 14);
    flush(e);
    for (int i = 0; i < hclen; i++) { put(e, cll[cl_order[i]], 3); if ((i & 7) == 7) flush(e); }
    flush(e);
    for (int i = 0; i < n; i++) {
        int s = cls[i] & 0xFF, x = cls[i] >> 8;
        put(e, clc[s], cll[s]);
        if (s >= 16) put(e, (uint64_t)x, s == 16 ? 2 : s == 17 ? 3 : 7);
        flush(e);
    }
    const uint16_t *tok = e->tok;
    for (size_t i = 0; i < e->ntok; i++) {
        uint32_t t = tok[i];
        if (t < 256) {
            put(e, lc[t], ll[t]);
            /* Up to three literals (3 × 15 bits) fit before a flush. */
            if (i + 1 < e->ntok && tok[i + 1] < 256) { t = tok[++i]; put(e, lc[t], ll[t]); }
            if (i + 1 < e->ntok && tok[i + 1] < 256) { t = tok[++i]; put(e, lc[t], ll[t]); }
        } else {
            uint32_t l = t - 256, d = tok[++i];
            int c = e->t.len_code[l];
            put(e, lc[257 + c], ll[257 + c]);
            put(e, l - len_base[c], len_extra[c]);
            int k = fbfd_dist_code(&e->t, d);
            put(e, dc[k], dl[k]);
            put(e, d - dist_base[k], dist_extra[k]);
        }
        flush(e);
    }
    put(e, lc[256], ll[256]);
    flush(e);
}

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
 * the absolute stream position of f[0]: the hash table holds absolute positions. */
static void fbfd_parse(fbfd *e, const uint8_t *f, size_t start, size_t end, size_t rowlen, size_t bpp,
                       size_t pos0) {
    const uint32_t mask = bpp >= 4 ? 0xFFFFFFFFu : (1u << (8 * bpp)) - 1;
    uint16_t *tok = e->tok + e->ntok;
    uint32_t (*lit)[256] = e->lit;
    size_t i = start;
    for (size_t rs = start; rs < end; rs += rowlen) {
        size_t re = rs + rowlen;
        if (i == rs) { *tok++ = f[i]; lit[3][f[i]]++; i++; } /* the filter byte */
        while (i < re) {
            /* Matches stop at the end of the strip: the next rows are not filtered yet. */
            size_t limit = end - i < 258 ? end - i : 258, best = 0, dist = bpp;
            if (limit >= 8 && i >= bpp) {
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
                tok[0] = (uint16_t)(256 + best);
                tok[1] = (uint16_t)dist;
                tok += 2;
                e->lfreq[257 + e->t.len_code[best]]++;
                e->dfreq[fbfd_dist_code(&e->t, (uint32_t)dist)]++;
                i += best;
            } else if (re - i >= bpp) { /* one whole pixel of literals */
                tok[0] = f[i]; tok[1] = f[i + 1]; tok[2] = f[i + 2];
                lit[0][f[i]]++; lit[1][f[i + 1]]++; lit[2][f[i + 2]]++;
                if (bpp == 4) { tok[3] = f[i + 3]; lit[3][f[i + 3]]++; }
                tok += bpp;
                i += bpp;
            } else { /* the tail of a row after a match ended off the pixel grid */
                for (; i < re; i++) { *tok++ = f[i]; lit[3][f[i]]++; }
            }
        }
    }
    e->ntok = (size_t)(tok - e->tok);
}

/* ---------------------------------------------------------------- filter, Adler-32 */

/* Per-byte a - b mod 256 on four packed bytes (no borrow between bytes). */
static inline uint32_t fbfd_sub4(uint32_t a, uint32_t b) {
    return ((a | 0x80808080u) - (b & 0x7F7F7F7Fu)) ^ ((a ^ ~b) & 0x80808080u);
}

/* Filters rows [y0, y1) into f (one filter byte + w·bpp bytes per row). */
static void fbfd_filter(const uint8_t *rgba, uint32_t w, uint32_t y0, uint32_t y1, size_t stride, size_t bpp,
                        uint8_t *f) {
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
            for (uint32_t x = 0; x < w; x++) {
                uint32_t v = fbfd_sub4(ld32(cur + 4 * (size_t)x), ld32(up + 4 * (size_t)x));
                memcpy(d + x * 3, &v, 4);
            }
        }
    }
}

/* Adler-32 (RFC 1950): a = 1 + Σ bytes, b = Σ a, both mod 65521. Per 32-byte chunk,
 * b += 32·a + Σ (32-j)·p[j] and a += Σ p[j]; reduced every 5536 bytes (≤ zlib's NMAX 5552,
 * so b cannot overflow 32 bits). */
static uint32_t fbfd_adler_update(uint32_t adler, const uint8_t *p, size_t n) {
    uint32_t a = adler & 0xFFFF, b = adler >> 16;
    while (n > 0) {
        size_t k = n < 5536 ? n : 5536;
        n -= k;
        while (k >= 32) {
            uint32_t s = 0, ws = 0;
            for (int j = 0; j < 32; j++) { s += p[j]; ws += (uint32_t)(32 - j) * p[j]; }
            b += 32 * a + ws;
            a += s;
            p += 32;
            k -= 32;
        }
        while (k--) { a += *p++; b += a; }
        a %= 65521;
        b %= 65521;
    }
    return b << 16 | a;
}

/* Adler-32 state carried across strips. */
static uint32_t fbfd_adler_update(uint32_t adler, const uint8_t *p, size_t n);

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
    size_t fcap = FBFD_WINDOW + strip + 8; /* slack: 4-byte stores in the filter, loads in the parser */
    uint8_t *f = malloc(fcap);
    fbfd *e = malloc(sizeof *e);
    uint16_t *tok = malloc((strip + 8) * sizeof *tok);
    size_t cap = n + n / 1024 + 1024 + 8; /* ≥ stored size: 5 bytes per 65535 + headers */
    uint8_t *o = malloc(cap);
    if (!f || !e || !tok || !o) { free(f); free(e); free(tok); free(o); return -1; }
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
    for (uint32_t y = 0; y < height; y += strip_rows) {
        uint32_t y1 = height - y < strip_rows ? height : y + strip_rows;
        size_t bytes = (size_t)(y1 - y) * rowlen;
        if (used + bytes > FBFD_WINDOW + strip) { /* keep only the last window as history */
            memmove(f, f + used - FBFD_WINDOW, FBFD_WINDOW);
            pos0 += used - FBFD_WINDOW;
            used = FBFD_WINDOW;
        }
        fbfd_filter(rgba, width, y, y1, stride, bpp, f + used);
        adler = fbfd_adler_update(adler, f + used, bytes);
        fbfd_parse(e, f, used, used + bytes, rowlen, bpp, pos0);
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
    free(f); free(e); free(tok);
    return 0;
}
