#ifndef FLIPBOOK_FAST_DEFLATE_INTERNAL_H
#define FLIPBOOK_FAST_DEFLATE_INTERNAL_H
/* Shared by fast_deflate.c (filter, parser, driver), fast_block.c (block writer) and
 * fast_huffman.c (code lengths). */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define FBFD_MAX_SYMBOLS 288 /* literal/length alphabet incl. the two unused codes */

/* Code lengths of at most `maxbits` (≤ 15) bits for the n symbols' frequencies: Huffman's
 * optimal lengths when they fit, else clamped and repaired (fast_huffman.c). Zero-frequency
 * symbols get length 0; a single used symbol gets length 1. At most 2^maxbits used symbols. */
void fbfd_lengths(const uint32_t *freq, int n, int maxbits, uint8_t *lens);

/* Canonical deflate codes for the lengths, bit-reversed for an LSB-first bit writer. */
void fbfd_codes(const uint8_t *lens, int n, uint16_t *codes);

#define FBFD_WINDOW 32768       /* deflate's match window */
#define FBFD_HASH_BITS 12       /* 4,096-entry table of pixel positions (16 KiB: stays in L1) */

/* Tokens, one uint32 each: literals — up to three bytes in bits 0–23, their count (1–3) in
 * bits 24–25 (a pixel of RGB is one token, of RGBA two) — or a match: FBFD_MATCH | length
 * (3–258) << 16 | distance (1–32768). */
#define FBFD_MATCH 0x80000000u

static inline uint32_t ld32(const uint8_t *p) { uint32_t v; memcpy(&v, p, 4); return v; }
static inline uint64_t ld64(const uint8_t *p) { uint64_t v; memcpy(&v, p, 8); return v; }
static inline void st64(uint8_t *p, uint64_t v) { memcpy(p, &v, 8); }

/* Length → code index (0…28), distance-1 → distance code: `(d-1) < 256 ? small[d-1] :
 * large[(d-1) >> 7]` (from distance code 16 on, every code spans a multiple of 128). */
typedef struct fbfd_tables {
    uint8_t len_code[259];
    uint8_t dist_small[256];
    uint8_t dist_large[512]; /* 256…511: 0, for the writer's branch-free lookups of non-matches */
} fbfd_tables;

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
    uint32_t *tok;      /* block tokens (see FBFD_MATCH) */
    size_t ntok;
    uint32_t lfreq[FBFD_MAX_SYMBOLS], dfreq[30];
    uint32_t lit[4][256]; /* literal counts by byte of the pixel (no store-forwarding chains) */
    int32_t hash[1 << FBFD_HASH_BITS];
} fbfd;

static inline void put(fbfd *e, uint64_t v, unsigned n) { e->bits |= v << e->nbits; e->nbits += n; }
static inline void flush(fbfd *e) { /* after: nbits < 8 */
    st64(e->out + e->len, e->bits);
    e->len += e->nbits >> 3;
    e->bits = (e->nbits & ~7u) == 64 ? 0 : e->bits >> (e->nbits & ~7u);
    e->nbits &= 7;
}

/* Fills the length-code and distance-code lookup tables (fast_block.c). */
void fbfd_make_tables(fbfd_tables *t);

/* Writes the current tokens as one block covering the filtered bytes f[start, end): dynamic
 * Huffman, or stored blocks when those are no bigger (fast_block.c). */
void fbfd_block(fbfd *e, const uint8_t *f, size_t start, size_t end, int final);

#endif
