#ifndef FLIPBOOK_FAST_DEFLATE_INTERNAL_H
#define FLIPBOOK_FAST_DEFLATE_INTERNAL_H
/* Shared between fast_deflate.c (parser, block writer) and fast_huffman.c (code lengths). */
#include <stddef.h>
#include <stdint.h>

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

#endif
