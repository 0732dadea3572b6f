/*
 * fast_huffman.c — length-limited Huffman code lengths (package-merge) and canonical codes.
 *
 * Package-merge (Larmore & Hirschberg) gives optimal code lengths under a maximum length L:
 * start from the symbols sorted by weight; L-1 times, pair adjacent items of the previous
 * list into "packages" (weight = sum) and merge them with the original leaves (leaves first
 * on equal weight). Select the first 2n-2 items of the last list; a symbol's code length is
 * the number of selected items (across all levels) that contain it.
 *
 * Because packages are formed from adjacent pairs in order, the items selected at each level
 * are always a *prefix* of that level's list: if the first p packages are selected at level
 * l, exactly the first 2p items of level l-1 are. So the lengths come from one walk down the
 * levels, counting leaves in each prefix. Work: O(n·L) with n ≤ 288, L ≤ 15.
 */
#include "fast_deflate_internal.h"
#include "flipbook_png.h"

#include <stdlib.h>

#include <string.h>

/* Sorts symbol indices by (weight, symbol), deterministic: keys weight << 9 | symbol sorted
 * by a bottom-up merge sort (n ≤ 288: O(n log n), no recursion, called 3 times per block). */
static void fbfd_sort(int *sym, const uint32_t *freq, int m) {
    uint64_t a[FBFD_MAX_SYMBOLS], b[FBFD_MAX_SYMBOLS], *src = a, *dst = b;
    for (int i = 0; i < m; i++) a[i] = (uint64_t)freq[sym[i]] << 9 | (uint64_t)sym[i];
    for (int width = 1; width < m; width *= 2) {
        for (int lo = 0; lo < m; lo += 2 * width) {
            int mid = lo + width < m ? lo + width : m, hi = lo + 2 * width < m ? lo + 2 * width : m;
            int i = lo, j = mid, k = lo;
            while (i < mid && j < hi) dst[k++] = src[i] <= src[j] ? src[i++] : src[j++];
            while (i < mid) dst[k++] = src[i++];
            while (j < hi) dst[k++] = src[j++];
        }
        uint64_t *t = src; src = dst; dst = t;
    }
    for (int i = 0; i < m; i++) sym[i] = (int)(src[i] & 511);
}

void fbfd_lengths(fbfd_pm *pm, const uint32_t *freq, int n, int maxbits, uint8_t *lens) {
    int sym[FBFD_MAX_SYMBOLS];
    int m = 0;
    memset(lens, 0, (size_t)n);
    for (int s = 0; s < n; s++)
        if (freq[s]) sym[m++] = s;
    if (m == 0) return;
    if (m == 1) { lens[sym[0]] = 1; return; }
    fbfd_sort(sym, freq, m);

    /* Level 0: the leaves. Item ref >= 0: leaf index into sym; ref < 0: package -(k+1),
     * made of items 2k and 2k+1 of the level below. */
    int cap = 2 * m - 2; /* nothing past the first 2n-2 items can ever be selected */
    for (int i = 0; i < m; i++) { pm->item[0][i].w = freq[sym[i]]; pm->item[0][i].ref = i; }
    pm->count[0] = m;
    for (int l = 1; l < maxbits; l++) {
        const fbfd_pm_item *prev = pm->item[l - 1];
        fbfd_pm_item *cur = pm->item[l];
        int packages = pm->count[l - 1] / 2, i = 0, k = 0, c = 0;
        while (c < cap && (i < m || k < packages)) {
            uint64_t pw = k < packages ? prev[2 * k].w + prev[2 * k + 1].w : UINT64_MAX;
            if (i < m && (uint64_t)freq[sym[i]] <= pw) { cur[c].w = freq[sym[i]]; cur[c].ref = i; i++; }
            else { cur[c].w = pw; cur[c].ref = -(k + 1); k++; }
            c++;
        }
        pm->count[l] = c;
    }
    /* Walk the selected prefixes from the top level down. */
    int selected = cap;
    for (int l = maxbits - 1; l >= 0; l--) {
        int packages = 0;
        for (int i = 0; i < selected; i++) {
            int ref = pm->item[l][i].ref;
            if (ref >= 0) lens[sym[ref]]++;
            else packages++;
        }
        selected = 2 * packages;
    }
}

void fbfd_codes(const uint8_t *lens, int n, uint16_t *codes) {
    uint16_t count[16] = {0}, next[16];
    for (int s = 0; s < n; s++) count[lens[s]]++;
    count[0] = 0;
    uint16_t code = 0;
    for (int b = 1; b < 16; b++) { code = (uint16_t)((code + count[b - 1]) << 1); next[b] = code; }
    for (int s = 0; s < n; s++) {
        int len = lens[s];
        if (!len) { codes[s] = 0; continue; }
        /* Deflate sends Huffman codes most-significant bit first; the bit writer is LSB
         * first, so store each code bit-reversed. */
        uint32_t c = next[len]++, r = 0;
        for (int b = 0; b < len; b++) { r = (r << 1) | (c & 1); c >>= 1; }
        codes[s] = (uint16_t)r;
    }
}

int fbpng_huffman_lengths(const uint32_t *freq, int n, int maxbits, uint8_t *lengths) {
    if (!freq || !lengths || n < 1 || n > FBFD_MAX_SYMBOLS || maxbits < 1 || maxbits > 15) return -1;
    int used = 0;
    for (int i = 0; i < n; i++) used += freq[i] != 0;
    if (used > (1 << maxbits)) return -1;
    fbfd_pm *pm = malloc(sizeof *pm);
    if (!pm) return -1;
    fbfd_lengths(pm, freq, n, maxbits, lengths);
    free(pm);
    return 0;
}
