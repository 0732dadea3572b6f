/*
 * fast_huffman.c — length-limited Huffman code lengths and canonical codes.
 *
 * Code lengths: the symbols are sorted by weight, Huffman's optimal (unlimited) lengths are
 * computed in place (Moffat & Katajainen), and when the deepest code exceeds the limit L
 * (15 bits for deflate's literal/length and distance trees, 7 for the code-length tree) the
 * lengths are clamped to L and the Kraft sum is repaired the way miniz does it: while the
 * code is over-full, one code at L is dropped and the deepest shorter length is split into
 * two one level down; then the lengths are handed out shortest first to the heaviest
 * symbols. That is not optimal under the limit (package-merge is), but close: on W3 the
 * frame grew by 28 bytes of 1,735,494 (0.002 %) while the 144 length computations went
 * from ~0.9 ms (package-merge, which ran on most literal trees: smooth gradients make codes
 * deeper than 15) to ~0.1 ms. When the unlimited code fits, the result is optimal.
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

/* Unlimited optimal (Huffman) code lengths of the m sorted symbols, in place: Moffat and
 * Katajainen's algorithm ("In-place calculation of minimum-redundancy codes", 1995). On entry
 * a[0..m) are the weights in ascending order (m ≥ 2); on exit a[i] is the length of the i-th
 * (non-increasing in i). Three passes: the tree's internal weights and parent pointers in the
 * array's prefix, parent pointers turned into depths, then the leaves counted at each depth.
 * Returns the longest length. */
static uint32_t fbfd_huffman_in_place(uint32_t *a, int m) {
    int root = 0, leaf = 2, next;
    a[0] += a[1];
    for (next = 1; next < m - 1; next++) {
        if (leaf >= m || a[root] < a[leaf]) { a[next] = a[root]; a[root++] = (uint32_t)next; }
        else a[next] = a[leaf++];
        if (leaf >= m || (root < next && a[root] < a[leaf])) { a[next] += a[root]; a[root++] = (uint32_t)next; }
        else a[next] += a[leaf++];
    }
    a[m - 2] = 0;
    for (next = m - 3; next >= 0; next--) a[next] = a[a[next]] + 1;
    int avail = 1, used = 0;
    uint32_t depth = 0, longest = 0;
    root = m - 2;
    next = m - 1;
    while (avail > 0) {
        while (root >= 0 && a[root] == depth) { used++; root--; }
        while (avail > used) { a[next--] = depth; avail--; longest = depth; }
        avail = 2 * used;
        depth++;
        used = 0;
    }
    return longest;
}

void fbfd_lengths(const uint32_t *freq, int n, int maxbits, uint8_t *lens) {
    int sym[FBFD_MAX_SYMBOLS];
    int m = 0;
    memset(lens, 0, (size_t)n);
    for (int s = 0; s < n; s++)
        if (freq[s]) sym[m++] = s;
    if (m == 0) return;
    if (m == 1) { lens[sym[0]] = 1; return; }
    fbfd_sort(sym, freq, m);
    /* Weights fit 32 bits: a block has fewer than 2^31 symbols. */
    uint32_t w[FBFD_MAX_SYMBOLS];
    for (int i = 0; i < m; i++) w[i] = freq[sym[i]];
    if ((int)fbfd_huffman_in_place(w, m) <= maxbits) {
        for (int i = 0; i < m; i++) lens[sym[i]] = (uint8_t)w[i];
        return;
    }
    /* Too deep: clamp to maxbits, then repair the Kraft sum K = Σ 2^(maxbits − len), which
     * the clamp made > 2^maxbits. Each step takes one code from maxbits and one from the
     * deepest shorter length b, and puts two at b + 1: the number of codes stays, K drops by
     * exactly 1 (−1 − 2^(maxbits−b) + 2·2^(maxbits−b−1)). So it ends at K = 2^maxbits, a
     * complete code. The caller guarantees m ≤ 2^maxbits. */
    uint32_t count[16] = {0};
    for (int i = 0; i < m; i++) count[w[i] > (uint32_t)maxbits ? maxbits : w[i]]++;
    uint32_t total = 0;
    for (int b = 1; b <= maxbits; b++) total += count[b] << (maxbits - b);
    while (total != (1u << maxbits)) {
        count[maxbits]--;
        for (int b = maxbits - 1; b > 0; b--)
            if (count[b]) { count[b]--; count[b + 1] += 2; break; }
        total--;
    }
    /* Shortest lengths to the heaviest symbols (the end of the sorted order). */
    int i = m - 1;
    for (int b = 1; b <= maxbits; b++)
        for (uint32_t k = 0; k < count[b]; k++) lens[sym[i--]] = (uint8_t)b;
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
    fbfd_lengths(freq, n, maxbits, lengths);
    return 0;
}
