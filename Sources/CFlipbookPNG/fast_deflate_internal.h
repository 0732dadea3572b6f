#ifndef FLIPBOOK_FAST_DEFLATE_INTERNAL_H
#define FLIPBOOK_FAST_DEFLATE_INTERNAL_H
/* Shared by fast_deflate.c (filter, parser, driver), fast_block.c (block writer) and
 * fast_huffman.c (code lengths). */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define FBFD_MAX_SYMBOLS 288 /* literal/length alphabet incl. the two unused codes */

typedef struct fbfd_pm_item {
    uint64_t w;
    int32_t ref; /* >= 0: leaf (index into the sorted symbols); < 0: package -(k+1) */
} fbfd_pm_item;

/* Scratch for package-merge: one list per level, each at most 2n-2 items. */
typedef struct fbfd_pm {
    fbfd_pm_item item[15][2 * FBFD_MAX_SYMBOLS];
    int count[15];
} fbfd_pm;

/* Optimal code lengths of at most `maxbits` (≤ 15) bits for the n symbols' frequencies.
 * Zero-frequency symbols get length 0; a single used symbol gets length 1. */
void fbfd_lengths(fbfd_pm *pm, const uint32_t *freq, int n, int maxbits, uint8_t *lens);

/* Canonical deflate codes for the lengths, bit-reversed for an LSB-first bit writer. */
void fbfd_codes(const uint8_t *lens, int n, uint16_t *codes);

#define FBFD_WINDOW 32768       /* deflate's match window */
#define FBFD_HASH_BITS 12       /* 4,096-entry table of pixel positions (16 KiB: stays in L1) */

static inline uint32_t ld32(const uint8_t *p) { uint32_t v; memcpy(&v, p, 4); return v; }
static inline uint64_t ld64(const uint8_t *p) { uint64_t v; memcpy(&v, p, 8); return v; }
static inline void st64(uint8_t *p, uint64_t v) { memcpy(p, &v, 8); }

/* Length → code index (0…28), distance-1 → distance code: `(d-1) < 256 ? small[d-1] :
 * large[(d-1) >> 7]` (from distance code 16 on, every code spans a multiple of 128). */
typedef struct fbfd_tables {
    uint8_t len_code[259];
    uint8_t dist_small[256];
    uint8_t dist_large[256];
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

/* Fills the length-code and distance-code lookup tables (fast_block.c). */
void fbfd_make_tables(fbfd_tables *t);

/* Writes the current tokens as one block covering the filtered bytes f[start, end): dynamic
 * Huffman, or stored blocks when those are no bigger (fast_block.c). */
void fbfd_block(fbfd *e, const uint8_t *f, size_t start, size_t end, int final);

#endif
