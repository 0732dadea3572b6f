/*
 * fast_block.c — the deflate block writer of fast_deflate (see fast_deflate.c, docs/png.md).
 *
 * One block per strip: code lengths from the block's counts (length-limited Huffman, fast_huffman.c),
 * the exact size of a dynamic block computed from the counts, and either that block (header
 * with run-length-coded code lengths, then the tokens, then end-of-block) or stored blocks
 * when those are no bigger. Bits go through the 64-bit writer `put`/`flush`.
 */
#include "fast_deflate_internal.h"

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

void fbfd_make_tables(fbfd_tables *t) {
    memset(t, 0, sizeof *t);
    for (int c = 0; c < 29; c++)
        for (int l = len_base[c]; l < len_base[c] + (1 << len_extra[c]) && l <= 258; l++) t->len_code[l] = (uint8_t)c;
    t->len_code[258] = 28; /* 258 has its own code (285), not 284 + 31 */
    for (int c = 0; c < 30; c++)
        for (int d = dist_base[c]; d < dist_base[c] + (1 << dist_extra[c]); d++) {
            if (d - 1 < 256) t->dist_small[d - 1] = (uint8_t)c;
            else t->dist_large[(d - 1) >> 7] = (uint8_t)c;
        }
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
void fbfd_block(fbfd *e, const uint8_t *f, size_t start, size_t end, int final) {
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
    fbfd_lengths(lf, 286, 15, ll);
    fbfd_lengths(df, 30, 15, dl);

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
    fbfd_lengths(cf, 19, 7, cll);
    int hclen = 19;
    while (hclen > 4 && !cll[cl_order[hclen - 1]]) hclen--;

    /* Exact size of the dynamic block in bits, against stored blocks. */
    uint64_t size = 3 + 14 + 3 * (uint64_t)hclen;
    size += (uint64_t)clf[16] * 2 + (uint64_t)clf[17] * 3 + (uint64_t)clf[18] * 7;
    for (int i = 0; i < 19; i++) size += (uint64_t)clf[i] * cll[i];
    for (int i = 0; i < 286; i++) size += (uint64_t)e->lfreq[i] * ll[i];
    for (int i = 0; i < 29; i++) size += (uint64_t)e->lfreq[257 + i] * len_extra[i];
    for (int i = 0; i < 30; i++) size += (uint64_t)e->dfreq[i] * (dl[i] + dist_extra[i]);
    size_t raw = end - start, pieces = raw / 65535 + 1;
    uint64_t stored_bits = 8 * (uint64_t)raw + pieces * (3 + 7 + 32);
    if (size >= stored_bits) {
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
    /* Per-block tables that fold a symbol's code with its length (and a match length's
     * extra bits) into one value. */
    uint32_t lit_code[256]; /* code | length << 16 */
    for (int b = 0; b < 256; b++) lit_code[b] = lc[b] | (uint32_t)ll[b] << 16;
    uint32_t len_bits[512], len_n[512]; /* length symbol + extra bits, and their count; 0 off 3…258 */
    memset(len_bits, 0, sizeof len_bits);
    memset(len_n, 0, sizeof len_n);
    for (int l = 3; l <= 258; l++) {
        int c = e->t.len_code[l];
        len_bits[l] = lc[257 + c] | (uint32_t)(l - len_base[c]) << ll[257 + c];
        len_n[l] = ll[257 + c] + len_extra[c];
    }
    uint32_t dist_sym[30]; /* code | length << 16 */
    for (int k = 0; k < 30; k++) dist_sym[k] = dc[k] | (uint32_t)dl[k] << 16;
    /* The token loop has no data-dependent branch: each token's bits are computed both as
     * literals and as a match, and a mask picks one (literal groups and matches alternate
     * irregularly on gradients; the branchy loop lost most of its time to mispredictions).
     * Literal groups are joined before they meet the bit buffer, so the serial chain
     * (bits |= v << nbits; nbits += n) is paid once per token. The bit writer stays in
     * locals: stores through `out` (a byte pointer) may alias anything, so fields of `e`
     * would be reloaded after every flush. */
    const uint32_t *tok = e->tok;
    const fbfd_tables *tab = &e->t;
    uint8_t *out = e->out;
    size_t len = e->len, ntok = e->ntok;
    uint64_t bits = e->bits;
    unsigned nbits = e->nbits;
#define PUT(v, n) (bits |= (uint64_t)(v) << nbits, nbits += (n))
#define FLUSH() (st64(out + len, bits), len += nbits >> 3, bits >>= nbits & ~7u, nbits &= 7)
    for (size_t i = 0; i < ntok; i++) {
        uint32_t t = tok[i];
        if (t < FBFD_MATCH) { /* 1–3 literal bytes, the 2nd and 3rd masked off by the count */
            uint32_t cnt = t >> 24;
            uint32_t a = lit_code[t & 0xFF];
            uint32_t b = lit_code[(t >> 8) & 0xFF] & (0u - (cnt >> 1));
            uint32_t c = lit_code[(t >> 16) & 0xFF] & (0u - (uint32_t)(cnt == 3));
            unsigned na = a >> 16, nb = b >> 16, nc = c >> 16;
            PUT((uint64_t)(a & 0xFFFF) | (uint64_t)(b & 0xFFFF) << na | (uint64_t)(c & 0xFFFF) << (na + nb),
                na + nb + nc); /* ≤ 45 bits */
        } else { /* length, then distance */
            uint32_t l = (t >> 16) & 0x1FF, d = t & 0xFFFF;
            uint32_t k = (uint32_t)fbfd_dist_code(tab, d), ds = dist_sym[k];
            uint64_t dv = (uint64_t)(ds & 0xFFFF) | (uint64_t)(d - dist_base[k]) << (ds >> 16);
            PUT((uint64_t)len_bits[l] | dv << len_n[l], len_n[l] + (ds >> 16) + dist_extra[k]); /* ≤ 48 */
        }
        FLUSH(); /* nbits ≤ 7 + 48 before: the shift is at most 48 */
    }
#undef PUT
#undef FLUSH
    e->len = len;
    e->bits = bits;
    e->nbits = nbits;
    put(e, lc[256], ll[256]);
    flush(e);
}
