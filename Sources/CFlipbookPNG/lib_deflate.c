/*
 * lib_deflate.c — PNG filtering, then libdeflate or ISA-L for the zlib stream.
 *
 * Why libraries here: libdeflate beats zlib at every level (smaller and faster), and its
 * level 12 (near-optimal parsing) is the smallest deflate measured; ISA-L's igzip level 1 is
 * SIMD-fast (3.6 GB/s on the flat UI frame). Own code stays only where it measurably wins
 * (fast_deflate.c). Measurements and choices: docs/png.md.
 *
 * Filters are chosen per frame, not per row by default: on UI-like frames `none` compresses
 * best (long LZ77 matches on repeated glyphs and flat runs survive unfiltered), on smooth
 * gradients `up`/`paeth` do (the residuals are small and repetitive). No cheap per-row
 * statistic predicts that, so the choice is made by *compressing a sample*: a few bands of
 * consecutive rows (so vertical matches and `up` see real neighbours), once per candidate
 * filter, at a cheap level; the smallest wins.
 */
#include "lib_deflate.h"
#include "scratch.h"

#include <isa-l/igzip_lib.h>
#include <libdeflate.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- filters */

/* PNG's Paeth predictor (spec 9.4): the neighbour (left a, above b, upper-left c) closest to
 * p = a + b − c, ties in the order a, b, c. Written without branches, as selects: with
 * pa = |p − a| = |b − c|, pb = |p − b| = |a − c|, pc = |p − c| = |a + b − 2c|, the winner of
 * (a, b) is taken first (a on a tie), then compared with c (the pair wins a tie). The spec's
 * `if pa ≤ pb and pa ≤ pc: a elif pb ≤ pc: b else c` gives the same in every case: when
 * pa ≤ pb the pair's value is a, and a loses only to pc < pa ≤ pb, i.e. to c. Selects
 * instead of branches matter: on real frames the branches are unpredictable (the branchy
 * version cost ~4 ms on a 64-row sample of W3b, more than compressing it), and clang
 * vectorises the select form. */
static inline uint8_t paeth(int a, int b, int c) {
    int pa = abs(b - c), pb = abs(a - c), pc = abs(a + b - 2 * c);
    int ab = pa <= pb ? a : b, pab = pa <= pb ? pa : pb;
    return (uint8_t)(pab <= pc ? ab : c);
}

/* One filter into d[0..n) (no filter byte). prev == NULL means a zero row above. */
static void filter_one(uint8_t *restrict d, const uint8_t *restrict cur, const uint8_t *restrict prev,
                       size_t n, int bpp, int type) {
    size_t i;
    switch (type) {
    case FBLD_NONE:
        memcpy(d, cur, n);
        break;
    case FBLD_SUB: /* x − left */
        for (i = 0; i < (size_t)bpp && i < n; i++) d[i] = cur[i];
        for (; i < n; i++) d[i] = (uint8_t)(cur[i] - cur[i - bpp]);
        break;
    case FBLD_UP: /* x − above */
        if (!prev) { memcpy(d, cur, n); break; }
        for (i = 0; i < n; i++) d[i] = (uint8_t)(cur[i] - prev[i]);
        break;
    case FBLD_AVG: /* x − floor((left + above) / 2) */
        for (i = 0; i < (size_t)bpp && i < n; i++) d[i] = (uint8_t)(cur[i] - ((prev ? prev[i] : 0) >> 1));
        for (; i < n; i++) d[i] = (uint8_t)(cur[i] - ((cur[i - bpp] + (prev ? prev[i] : 0)) >> 1));
        break;
    default: /* FBLD_PAETH: x − paeth(left, above, upper-left) */
        for (i = 0; i < (size_t)bpp && i < n; i++) d[i] = (uint8_t)(cur[i] - (prev ? prev[i] : 0));
        if (prev) for (; i < n; i++) d[i] = (uint8_t)(cur[i] - paeth(cur[i - bpp], prev[i], prev[i - bpp]));
        else for (; i < n; i++) d[i] = (uint8_t)(cur[i] - cur[i - bpp]); /* paeth(a, 0, 0) = a */
        break;
    }
}

/* libpng's heuristic cost of a filtered row: Σ |(int8_t)byte|. */
static uint64_t row_cost(const uint8_t *d, size_t n) {
    uint64_t s = 0;
    for (size_t i = 0; i < n; i++) s += (uint64_t)abs((int)(int8_t)d[i]);
    return s;
}

int fbld_filter_row(uint8_t *dst, const uint8_t *cur, const uint8_t *prev, size_t n, int bpp, int type,
                    uint8_t *scratch) {
    if (type != FBLD_ADAPTIVE) {
        dst[0] = (uint8_t)type;
        filter_one(dst + 1, cur, prev, n, bpp, type);
        return type;
    }
    uint64_t best = UINT64_MAX;
    int best_type = FBLD_NONE;
    for (int t = FBLD_NONE; t <= FBLD_PAETH; t++) {
        filter_one(scratch + 1, cur, prev, n, bpp, t);
        uint64_t c = row_cost(scratch + 1, n);
        if (c < best) { best = c; best_type = t; scratch[0] = (uint8_t)t; memcpy(dst, scratch, n + 1); }
    }
    return best_type;
}

/* The image's rows as `channels`-byte pixels: either the caller's rows (channels 4) or a
 * packed copy (channels 3 drops byte 4), made one row at a time into `pack`. */
static const uint8_t *row_at(const uint8_t *rgba, size_t stride, uint32_t y, uint32_t width, int channels,
                             uint8_t *pack) {
    const uint8_t *s = rgba + (size_t)y * stride;
    if (channels == 4) return s;
    /* 4-byte copies advancing by 3: each writes one byte past its pixel, which the next
     * overwrites; the last pixel is copied by 3 bytes (`pack` holds n + 1 bytes anyway). */
    uint8_t *d = pack;
    for (uint32_t x = 0; x + 1 < width; x++, s += 4, d += 3) memcpy(d, s, 4);
    d[0] = s[0]; d[1] = s[1]; d[2] = s[2];
    return pack;
}

/* Filters rows [y0, y1) into dst (1 + n bytes each) with `type`. `rowa`/`rowb` are two
 * n-byte packing buffers (RGB), `scratch` n + 1 bytes (adaptive). */
static void filter_rows(uint8_t *dst, const uint8_t *rgba, size_t stride, uint32_t width, int channels,
                        uint32_t y0, uint32_t y1, int type, uint8_t *rowa, uint8_t *rowb, uint8_t *scratch) {
    size_t n = (size_t)width * (size_t)channels;
    const uint8_t *prev = y0 > 0 ? row_at(rgba, stride, y0 - 1, width, channels, rowb) : NULL;
    for (uint32_t y = y0; y < y1; y++) {
        uint8_t *pack = (y & 1) ? rowb : rowa; /* never the buffer `prev` points into */
        if (prev == pack) pack = pack == rowa ? rowb : rowa;
        const uint8_t *cur = row_at(rgba, stride, y, width, channels, pack);
        fbld_filter_row(dst, cur, prev, n, channels, type, scratch);
        dst += n + 1;
        prev = cur;
    }
}

/* ---------------------------------------------------------------- compressors */

/* Worst case of a zlib stream of `len` bytes: stored blocks (5 bytes per 65,535) + header
 * and trailer, with room to spare for ISA-L, which finishes a block before it can fall back. */
static size_t zlib_bound(size_t len) { return len + len / 8 + 5 * (len / 65535 + 1) + 1024; }

/* libdeflate: one call. Returns the stream length, 0 when memory ran out. */
static size_t deflate_libdeflate(const uint8_t *in, size_t len, int level, uint8_t *out, size_t cap) {
    struct libdeflate_compressor *c = libdeflate_alloc_compressor(level);
    if (!c) return 0;
    size_t n = libdeflate_zlib_compress(c, in, len, out, cap);
    libdeflate_free_compressor(c);
    return n;
}

/* The level buffer igzip needs (hash table and token space): the library's default size. */
static const uint32_t isal_level_size[4] = {ISAL_DEF_LVL0_DEFAULT, ISAL_DEF_LVL1_DEFAULT, ISAL_DEF_LVL2_DEFAULT,
                                            ISAL_DEF_LVL3_DEFAULT};

/* ISA-L igzip, zlib framing (IGZIP_ZLIB: header, Adler-32 trailer). `lb` is a level buffer of
 * isal_level_size[level] bytes (the caller's, so that judging several candidates does not map
 * and unmap it each time: that churn cost more than the compression on W3b's sample). Returns
 * the stream length, 0 when it did not finish (then the caller uses libdeflate, which never
 * fails with a large enough buffer). */
/* An igzip stream with zlib framing at `level`, using the level buffer `lb`. */
static void isal_start(struct isal_zstream *st, int level, uint8_t *lb) {
    isal_deflate_init(st);
    st->level = (uint32_t)level;
    st->level_buf = lb;
    st->level_buf_size = isal_level_size[level];
    st->gzip_flag = IGZIP_ZLIB;
}

static size_t deflate_isal(const uint8_t *in, size_t len, int level, uint8_t *lb, uint8_t *out, size_t cap) {
    if (len > 0xFFFFFFFFu || cap > 0xFFFFFFFFu) return 0;
    struct isal_zstream st;
    isal_start(&st, level, lb);
    st.end_of_stream = 1;
    st.flush = NO_FLUSH;
    st.next_in = (uint8_t *)in;
    st.avail_in = (uint32_t)len;
    st.next_out = out;
    st.avail_out = (uint32_t)cap;
    int r = isal_deflate(&st);
    if (r != COMP_OK || st.internal_state.state != ZSTATE_END) return 0;
    return st.total_out;
}

/* ISA-L, streamed: rows are filtered a strip at a time (whole rows, ≥ 256 KiB) into one
 * buffer that igzip consumes before the next strip is filtered (it keeps its own 32 KiB
 * history). So the filtered image is never materialised: no 6–8 MB buffer to fault in and
 * write, and igzip reads bytes that are still in cache. Returns the stream length and the
 * stream in `*out` (scratch slot FB_SCRATCH_OUT), 0 on failure (memory, or igzip not
 * finishing). The strip buffer and igzip's level buffer share the FB_SCRATCH_WORK slot. */
static size_t isal_stream_image(const uint8_t *rgba, uint32_t width, uint32_t height, size_t stride,
                                int channels, int level, int type, uint8_t *rowa, uint8_t *rowb,
                                uint8_t *scratch, uint8_t **out) {
    const uint32_t *level_size = isal_level_size;
    size_t rl = (size_t)width * (size_t)channels + 1, len = rl * height, cap = zlib_bound(len);
    uint32_t strip = (uint32_t)(((size_t)256 << 10) / rl + 1);
    if (strip > height) strip = height;
    *out = NULL;
    if (cap > 0xFFFFFFFFu) return 0;
    size_t blen = (rl * strip + 63) & ~(size_t)63; /* the level buffer after it, 64-byte aligned */
    uint8_t *buf = fb_scratch_take(FB_SCRATCH_WORK, blen + level_size[level]), *z = fb_scratch_take(FB_SCRATCH_OUT, cap);
    uint8_t *lb = buf && level_size[level] ? buf + blen : NULL;
    size_t result = 0;
    if (!buf || !z) goto done;
    struct isal_zstream st;
    isal_start(&st, level, lb);
    st.flush = NO_FLUSH;
    st.next_out = z;
    st.avail_out = (uint32_t)cap;
    for (uint32_t y = 0; y < height; y += strip) {
        uint32_t y1 = height - y < strip ? height : y + strip;
        filter_rows(buf, rgba, stride, width, channels, y, y1, type, rowa, rowb, scratch);
        st.next_in = buf;
        st.avail_in = (uint32_t)(rl * (y1 - y));
        st.end_of_stream = y1 == height;
        if (isal_deflate(&st) != COMP_OK || st.avail_in != 0) goto done;
    }
    if (st.internal_state.state != ZSTATE_END) goto done;
    result = st.total_out;
    *out = z;
    z = NULL;
done:
    fb_scratch_release(FB_SCRATCH_WORK, buf);
    fb_scratch_release(FB_SCRATCH_OUT, z);
    return result;
}

/* `lb`: an ISA-L level buffer for `level` when library is FBLD_ISAL. */
static size_t compress_with(int library, int level, uint8_t *lb, const uint8_t *in, size_t len, uint8_t *out,
                            size_t cap) {
    size_t n = library == FBLD_ISAL ? deflate_isal(in, len, level, lb, out, cap) : 0;
    if (n == 0) n = deflate_libdeflate(in, len, library == FBLD_ISAL ? 1 : level, out, cap);
    return n;
}

/* ---------------------------------------------------------------- the image */

/* Sample for the filter choice: bands of 16 consecutive rows, evenly spaced: 4 (6 % of a
 * 1080-row frame) for libdeflate's fast levels, 2 for ISA-L, 16 (24 %) for levels ≥ 10, where the encode costs
 * seconds and a wrong choice costs more (W3 at level 12: paeth 1,649,142 bytes, up 1,670,321;
 * 4 bands chose up). The whole image when it is small (≤ the sample, or ≤ 256 KiB filtered),
 * so the choice is exact there. */
enum { SAMPLE_BAND_ROWS = 16 };
/* Bands in the sample: 16 at levels ≥ 10, 4 for libdeflate below, 2 for ISA-L — the judge of
 * the `fast` preset, where the choice is between two very different outcomes (W3: `none`
 * 2× larger; W3b: `up` 20 % larger) and 4 bands cost 2.0 ms of a ~12 ms W3 encode (ISA-L
 * is slow on unfiltered gradients), 2 bands 1.0 ms, with the same choice on W3 and W3b. */
static uint32_t sample_band_count(int library, int level) { return level >= 10 ? 16 : library == FBLD_ISAL ? 2 : 4; }

/* Work areas: `work` must hold the sample (≤ the filtered image) and `zwork` its stream (≤
 * zlib_bound of the image); fbld_compress_image lends its own image buffers, so the pages the
 * choice touches are the ones the encode writes next (allocating apart cost W3b's `default`
 * ~2.5 ms more than the choice itself: fresh mappings to fault in and give back). */
static int choose_filter(const uint8_t *rgba, uint32_t width, uint32_t height, size_t stride, int channels,
                         int library, int level, unsigned candidates, uint8_t *rowa, uint8_t *rowb,
                         uint8_t *scratch, uint8_t *work, uint8_t *zwork) {
    size_t rl = (size_t)width * (size_t)channels + 1;
    uint32_t sample_bands = sample_band_count(library, level);
    int whole = height <= sample_bands * SAMPLE_BAND_ROWS || rl * height <= (size_t)256 << 10;
    uint32_t bands = whole ? 1 : sample_bands, band = whole ? height : SAMPLE_BAND_ROWS;
    size_t len = rl * band * bands, cap = zlib_bound(len);
    /* The sample is compressed at a cheap level of the same library: the ranking of filters
     * hardly depends on the level, the cost does. libdeflate level 1 below level 10 (on W3 the
     * sample ranks up first at levels 1 and 4; on W3b none wins at every level), level 6 for
     * the near-optimal levels 10–12, where the encode takes seconds and a better choice is
     * worth it (W3: paeth, 1,649,142 bytes, where up gives 1,670,321). Judging with ISA-L
     * instead looked cheaper (0.3 ms for the choice alone on W3b) but made the libdeflate
     * encode after it ~2 ms slower on this AMD EPYC guest (whole encode +3.4 ms vs +1.3 ms
     * with libdeflate level 1 as judge, thread CPU time, alternated runs), so each library
     * judges for itself. */
    int eval_library = library;
    int eval_level = library == FBLD_ISAL ? level : level < 10 ? 1 : 6;
    /* igzip's level buffer, once for all candidates. */
    size_t lbsize = eval_library == FBLD_ISAL ? isal_level_size[eval_level] : 0;
    uint8_t *lb = lbsize ? malloc(lbsize) : NULL, *buf = work, *z = zwork;
    int best_type = -1;
    if (lbsize && !lb) return -1;
    size_t best = SIZE_MAX;
    for (int t = FBLD_NONE; t <= FBLD_ADAPTIVE; t++) {
        if (!(candidates & (1u << t))) continue;
        uint8_t *d = buf;
        for (uint32_t b = 0; b < bands; b++) {
            /* band b starts at (h − band)·(2b + 1) / (2·bands): centred in its slice */
            uint32_t y0 = whole ? 0 : (uint32_t)(((uint64_t)(height - band) * (2 * b + 1)) / (2 * bands));
            filter_rows(d, rgba, stride, width, channels, y0, y0 + band, t, rowa, rowb, scratch);
            d += rl * band;
        }
        size_t n = compress_with(eval_library, eval_level, lb, buf, len, z, cap);
        if (n == 0) { best_type = -1; goto done; }
        if (n < best) { best = n; best_type = t; }
    }
done:
    free(lb);
    return best_type;
}

int fbld_choose_filter(const uint8_t *rgba, uint32_t width, uint32_t height, size_t stride, int channels,
                       int library, int level, unsigned candidates) {
    if (!rgba || width == 0 || height == 0 || (channels != 3 && channels != 4) || stride < (size_t)width * 4 ||
        candidates == 0 || candidates >= (1u << 6))
        return -2;
    size_t rl = (size_t)width * (size_t)channels + 1;
    /* The sample (choose_filter): the whole image when it is ≤ 256 KiB filtered, else at most
     * 16 bands of 16 rows or the whole image if it has fewer rows. */
    if (height > SIZE_MAX / 2 / rl) return -1;
    uint32_t sample_rows = sample_band_count(library, level) * SAMPLE_BAND_ROWS;
    size_t sample = rl * height <= ((size_t)256 << 10) ? rl * height : rl * (height < sample_rows ? height : sample_rows);
    uint8_t *rows = malloc(3 * rl), *work = malloc(sample), *zwork = malloc(zlib_bound(sample));
    int t = -1;
    if (rows && work && zwork)
        t = choose_filter(rgba, width, height, stride, channels, library, level, candidates, rows, rows + rl,
                          rows + 2 * rl, work, zwork);
    free(rows);
    free(work);
    free(zwork);
    return t;
}

int fbld_compress_image(const uint8_t *rgba, uint32_t width, uint32_t height, size_t stride,
                        int channels, int library, int level, unsigned candidates,
                        uint8_t **out, size_t *out_size, int *chosen) {
    *out = NULL;
    *out_size = 0;
    if (!rgba || width == 0 || height == 0 || (channels != 3 && channels != 4) || stride < (size_t)width * 4 ||
        (library != FBLD_LIBDEFLATE && library != FBLD_ISAL) || candidates == 0 || candidates >= (1u << 6))
        return -2;
    if (library == FBLD_LIBDEFLATE ? (level < 1 || level > 12) : (level < 0 || level > ISAL_DEF_MAX_LEVEL))
        return -2;
    size_t n = (size_t)width * (size_t)channels, rl = n + 1;
    if (height > SIZE_MAX / 2 / rl) return -1;
    size_t len = rl * height, cap = zlib_bound(len);
    uint8_t *rows = malloc(3 * rl); /* two packing rows + the adaptive scratch row */
    uint8_t *raw = NULL, *z = NULL;
    int rc = -1;
    if (!rows) goto fail;
    uint8_t *rowa = rows, *rowb = rows + rl, *scratch = rows + 2 * rl;

    int type = -1;
    for (int t = FBLD_NONE; t <= FBLD_ADAPTIVE; t++)
        if (candidates == (1u << t)) type = t;
    if (type < 0 || library != FBLD_ISAL) {
        /* The whole filtered image and its stream (libdeflate), or the choice's work areas. */
        raw = fb_scratch_take(FB_SCRATCH_WORK, len);
        z = fb_scratch_take(FB_SCRATCH_OUT, cap);
        if (!raw || !z) goto fail;
    }
    if (type < 0) type = choose_filter(rgba, width, height, stride, channels, library, level, candidates, rowa,
                                       rowb, scratch, raw, z);
    if (type < 0) goto fail;

    if (library == FBLD_ISAL) {
        /* isal_stream_image takes both scratch slots itself. */
        fb_scratch_release(FB_SCRATCH_WORK, raw);
        fb_scratch_release(FB_SCRATCH_OUT, z);
        raw = z = NULL;
        uint8_t *streamed = NULL;
        size_t slen = isal_stream_image(rgba, width, height, stride, channels, level, type, rowa, rowb, scratch,
                                        &streamed);
        if (slen > 0) {
            free(rows);
            *out = streamed;
            *out_size = slen;
            if (chosen) *chosen = type;
            return 0;
        }
        /* igzip did not finish (cannot happen with the worst-case buffer, but a library is
         * not ours to assume): libdeflate level 1 on the whole image below. */
    }
    if (!raw) raw = fb_scratch_take(FB_SCRATCH_WORK, len);
    if (!z) z = fb_scratch_take(FB_SCRATCH_OUT, cap);
    if (!raw || !z) goto fail;
    filter_rows(raw, rgba, stride, width, channels, 0, height, type, rowa, rowb, scratch);
    size_t zlen = compress_with(library == FBLD_ISAL ? FBLD_LIBDEFLATE : library, library == FBLD_ISAL ? 1 : level,
                                NULL, raw, len, z, cap);
    if (zlen == 0) goto fail;
    fb_scratch_release(FB_SCRATCH_WORK, raw);
    free(rows);
    *out = z;
    *out_size = zlen;
    if (chosen) *chosen = type;
    return 0;
fail:
    free(rows);
    fb_scratch_release(FB_SCRATCH_WORK, raw);
    fb_scratch_release(FB_SCRATCH_OUT, z);
    return rc;
}
