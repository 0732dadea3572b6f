/*
 * shim.c — the only place Flipbook talks to libpng.
 *
 * Error handling: libpng reports fatal errors by calling the error function and then
 * longjmp-ing to the jump buffer of the png struct. Every entry point below sets that jump
 * buffer itself, so no longjmp ever crosses into Swift. Anything allocated while libpng may
 * jump lives in a context struct (not in locals, whose values are indeterminate after a
 * longjmp unless volatile), and the jump target frees it.
 */
#include "flipbook_png.h"
#include "fast_deflate.h"
#include "lib_deflate.h"
#include "scratch.h"

#include <libdeflate.h>

#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

/* ---------------------------------------------------------------- errors */

/* Shared by reader and writer contexts: the first member of both. */
typedef struct fb_errstate {
    fbpng_error *err;
    int status; /* set before png_error() to pick a kind; FBPNG_CORRUPT otherwise */
} fb_errstate;

static void fb_set_error(fbpng_error *err, const char *msg) {
    if (!err) return;
    snprintf(err->message, sizeof err->message, "%s", msg ? msg : "unknown libpng error");
}

static void fb_error_fn(png_structp png, png_const_charp msg) {
    fb_errstate *st = (fb_errstate *)png_get_error_ptr(png);
    if (st) {
        if (st->status == FBPNG_OK) st->status = FBPNG_CORRUPT;
        fb_set_error(st->err, msg);
    }
    png_longjmp(png, 1);
}

/* Warnings (unknown chunks, benign oddities) are dropped: the library never writes to stderr. */
static void fb_warning_fn(png_structp png, png_const_charp msg) {
    (void)png; (void)msg;
}

void fbpng_free(void *p) { free(p); }

const char *fbpng_versions(void) {
    static char buf[96];
    snprintf(buf, sizeof buf, "libpng %s, zlib %s", png_get_libpng_ver(NULL), ZLIB_VERSION); /* header version: no direct -lz dependency */
    return buf;
}

/* ---------------------------------------------------------------- reading */

typedef struct fb_reader {
    fb_errstate st;
    const uint8_t *data;
    size_t size, pos;
    png_structp png;
    png_infop info;
    uint8_t *pixels;   /* owned until handed to the caller */
    png_bytep *rows;
} fb_reader;

static void fb_read_fn(png_structp png, png_bytep out, size_t n) {
    fb_reader *r = (fb_reader *)png_get_io_ptr(png);
    if (n > r->size - r->pos) {
        r->st.status = FBPNG_TRUNCATED;
        png_error(png, "truncated PNG: the data ends before the image does");
    }
    memcpy(out, r->data + r->pos, n);
    r->pos += n;
}

static uint32_t be32(const uint8_t *p) {
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

/* Walks the chunk structure from byte 8 to IEND without inflating anything: every chunk's
 * declared length must fit in the bytes that remain (so no chunk can make libpng allocate more
 * than the file holds: a 44-byte file whose tEXt claims 2 GB is "truncated" here, before any
 * allocation), the length must be below 2^31 (PNG's limit), and — with verify_crc — each CRC
 * must match. Bytes after IEND are ignored (accepted, as by libpng and browsers). */
int fbpng_check_chunks(const uint8_t *data, size_t size, int verify_crc, fbpng_error *err) {
    size_t pos = 8;
    while (pos + 8 <= size) {
        uint32_t len = be32(data + pos);
        const uint8_t *type = data + pos + 4;
        char name[5] = { 0 };
        for (int i = 0; i < 4; i++) name[i] = (type[i] >= 32 && type[i] < 127) ? (char)type[i] : '?';
        char msg[240];
        if (len > 0x7fffffffu) {
            snprintf(msg, sizeof msg, "corrupt PNG: chunk \"%s\" at byte %zu claims %u bytes (above 2^31 - 1)", name, pos, len);
            fb_set_error(err, msg);
            return FBPNG_CORRUPT;
        }
        if ((size_t)len + 12 > size - pos) {
            snprintf(msg, sizeof msg, "truncated PNG: chunk \"%s\" at byte %zu claims %u bytes, but only %zu remain",
                     name, pos, len, size - pos - 8 < (size_t)len ? size - pos - 8 : (size_t)len);
            fb_set_error(err, msg);
            return FBPNG_TRUNCATED;
        }
        if (verify_crc) {
            uLong crc = crc32(0L, Z_NULL, 0);
            crc = crc32(crc, type, 4 + len);
            if ((uint32_t)crc != be32(data + pos + 8 + len)) {
                snprintf(msg, sizeof msg, "corrupt PNG: CRC error in chunk \"%s\" at byte %zu", name, pos);
                fb_set_error(err, msg);
                return FBPNG_CORRUPT;
            }
        }
        if (memcmp(type, "IEND", 4) == 0) return FBPNG_OK;
        pos += 12 + (size_t)len;
    }
    fb_set_error(err, "truncated PNG: the data ends before the IEND chunk");
    return FBPNG_TRUNCATED;
}

/* Checks the signature and (our own check, before libpng allocates anything) the size the
 * IHDR claims and the chunk lengths. Returns FBPNG_OK or a status with the message filled in. */
static int fb_precheck(const uint8_t *data, size_t size, uint32_t max_dim, fbpng_error *err) {
    if (size < 8 || png_sig_cmp((png_const_bytep)data, 0, 8) != 0) {
        fb_set_error(err, "not a PNG file (missing the PNG signature)");
        return FBPNG_NOT_PNG;
    }
    if (size < 33) { /* signature 8 + IHDR chunk 25 */
        fb_set_error(err, "truncated PNG: the data ends inside the IHDR header");
        return FBPNG_TRUNCATED;
    }
    if (memcmp(data + 12, "IHDR", 4) == 0) {
        uint32_t w = be32(data + 16), h = be32(data + 20);
        if (w > max_dim || h > max_dim) {
            char msg[200];
            snprintf(msg, sizeof msg, "PNG header claims %ux%u pixels, above the limit of %u pixels per side",
                     w, h, max_dim);
            fb_set_error(err, msg);
            return FBPNG_TOO_LARGE;
        }
    }
    return fbpng_check_chunks(data, size, 0, err);
}

/* Creates the libpng read structs; strict CRC checking on every chunk and the user limits. */
static int fb_reader_open(fb_reader *r, const uint8_t *data, size_t size, uint32_t max_dim,
                          fbpng_error *err) {
    memset(r, 0, sizeof *r);
    r->st.err = err;
    r->data = data;
    r->size = size;
    r->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &r->st, fb_error_fn, fb_warning_fn);
    if (!r->png) { fb_set_error(err, "out of memory creating the PNG reader"); return FBPNG_OUT_OF_MEMORY; }
    r->info = png_create_info_struct(r->png);
    if (!r->info) {
        png_destroy_read_struct(&r->png, NULL, NULL);
        fb_set_error(err, "out of memory creating the PNG reader");
        return FBPNG_OUT_OF_MEMORY;
    }
    png_set_read_fn(r->png, r, fb_read_fn);
    png_set_user_limits(r->png, max_dim, max_dim);
    /* A bad CRC is an error in any chunk, critical or ancillary (libpng would only warn for
     * ancillary chunks by default). */
    png_set_crc_action(r->png, PNG_CRC_ERROR_QUIT, PNG_CRC_ERROR_QUIT);
    return FBPNG_OK;
}

static void fb_reader_close(fb_reader *r) {
    if (r->png) png_destroy_read_struct(&r->png, &r->info, NULL);
    free(r->rows);
    r->rows = NULL;
    free(r->pixels); /* NULL once handed over */
    r->pixels = NULL;
}

int fbpng_read_header(const uint8_t *data, size_t size, uint32_t max_dimension,
                      fbpng_header *out, fbpng_error *err) {
    memset(out, 0, sizeof *out);
    int status = fb_precheck(data, size, max_dimension, err);
    if (status != FBPNG_OK) return status;
    fb_reader r;
    status = fb_reader_open(&r, data, size, max_dimension, err);
    if (status != FBPNG_OK) return status;
    if (setjmp(png_jmpbuf(r.png))) {
        status = r.st.status;
        fb_reader_close(&r);
        fbpng_free_header(out);
        return status;
    }
    png_read_info(r.png, r.info);
    png_uint_32 w, h;
    int depth, ctype, interlace;
    png_get_IHDR(r.png, r.info, &w, &h, &depth, &ctype, &interlace, NULL, NULL);
    out->width = w;
    out->height = h;
    out->bit_depth = depth;
    out->color_type = ctype;
    out->interlaced = interlace != PNG_INTERLACE_NONE;
    out->has_trns = png_get_valid(r.png, r.info, PNG_INFO_tRNS) != 0;
    png_textp texts = NULL;
    int n = png_get_text(r.png, r.info, &texts, NULL);
    if (n > 0) {
        out->texts = calloc((size_t)n, sizeof(fbpng_text));
        if (!out->texts) { r.st.status = FBPNG_OUT_OF_MEMORY; png_error(r.png, "out of memory copying text chunks"); }
        for (int i = 0; i < n; i++) {
            out->texts[i].key = strdup(texts[i].key ? texts[i].key : "");
            out->texts[i].text = strdup(texts[i].text ? texts[i].text : "");
            out->texts[i].utf8 = texts[i].compression >= PNG_ITXT_COMPRESSION_NONE;
            out->text_count = i + 1;
            if (!out->texts[i].key || !out->texts[i].text) {
                r.st.status = FBPNG_OUT_OF_MEMORY;
                png_error(r.png, "out of memory copying text chunks");
            }
        }
    }
    fb_reader_close(&r);
    return FBPNG_OK;
}

void fbpng_free_header(fbpng_header *header) {
    if (!header) return;
    for (int i = 0; i < header->text_count; i++) {
        free((void *)header->texts[i].key);
        free((void *)header->texts[i].text);
    }
    free(header->texts);
    header->texts = NULL;
    header->text_count = 0;
}

int fbpng_decode_rgba8(const uint8_t *data, size_t size, uint32_t max_dimension,
                       uint32_t *width, uint32_t *height, uint8_t **pixels, fbpng_error *err) {
    *pixels = NULL;
    *width = *height = 0;
    int status = fb_precheck(data, size, max_dimension, err);
    if (status != FBPNG_OK) return status;
    fb_reader r;
    status = fb_reader_open(&r, data, size, max_dimension, err);
    if (status != FBPNG_OK) return status;
    if (setjmp(png_jmpbuf(r.png))) {
        status = r.st.status;
        fb_reader_close(&r);
        return status;
    }
    png_read_info(r.png, r.info);
    png_uint_32 w, h;
    int depth, ctype, interlace;
    png_get_IHDR(r.png, r.info, &w, &h, &depth, &ctype, &interlace, NULL, NULL);
    if (w == 0 || h == 0 || w > max_dimension || h > max_dimension) { /* libpng refuses these too */
        r.st.status = FBPNG_TOO_LARGE;
        png_error(r.png, "PNG header size is outside the accepted range");
    }
    /* Normalise every colour type and depth to 8-bit RGBA (libpng applies these in its own
     * fixed order: expand, tRNS→alpha, 16→8 scaling, gray→RGB, filler). */
    int has_trns = png_get_valid(r.png, r.info, PNG_INFO_tRNS) != 0;
    if (ctype == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(r.png);
    if (ctype == PNG_COLOR_TYPE_GRAY && depth < 8) png_set_expand_gray_1_2_4_to_8(r.png);
    if (has_trns) png_set_tRNS_to_alpha(r.png);
    if (depth == 16) png_set_scale_16(r.png); /* round(v * 255 / 65535), not v >> 8 */
    if (ctype == PNG_COLOR_TYPE_GRAY || ctype == PNG_COLOR_TYPE_GRAY_ALPHA) png_set_gray_to_rgb(r.png);
    if (!(ctype & PNG_COLOR_MASK_ALPHA) && !has_trns) png_set_add_alpha(r.png, 0xFF, PNG_FILLER_AFTER);
    (void)png_set_interlace_handling(r.png);
    png_read_update_info(r.png, r.info);
    if (png_get_rowbytes(r.png, r.info) != (size_t)w * 4) {
        r.st.status = FBPNG_CORRUPT;
        png_error(r.png, "internal error: PNG rows did not expand to RGBA8");
    }
    r.pixels = malloc((size_t)w * h * 4);
    r.rows = malloc((size_t)h * sizeof(png_bytep));
    if (!r.pixels || !r.rows) {
        r.st.status = FBPNG_OUT_OF_MEMORY;
        png_error(r.png, "out of memory allocating the decoded image");
    }
    for (png_uint_32 y = 0; y < h; y++) r.rows[y] = r.pixels + (size_t)y * w * 4;
    png_read_image(r.png, r.rows);
    png_read_end(r.png, NULL); /* checks the rest of the file up to IEND (truncation, CRCs) */
    *pixels = r.pixels;
    *width = w;
    *height = h;
    r.pixels = NULL; /* handed over */
    fb_reader_close(&r);
    return FBPNG_OK;
}

/* ---------------------------------------------------------------- writing */

typedef struct fb_writer {
    fb_errstate st;
    uint8_t *buf;
    size_t len, cap;
    png_structp png;
    png_infop info;
    uint8_t *converted; /* test-only output formats: the image re-laid out for libpng */
    png_bytep *rows;
    png_text *texts;
    uint8_t *zdata; /* FBPNG_STRATEGY_FLIPBOOK_FAST: the zlib stream for the IDAT chunks */
} fb_writer;

static void fb_write_fn(png_structp png, png_bytep data, size_t n) {
    fb_writer *w = (fb_writer *)png_get_io_ptr(png);
    if (n > w->cap - w->len) {
        size_t cap = w->cap ? w->cap : 65536;
        while (n > cap - w->len) cap *= 2;
        uint8_t *nb = realloc(w->buf, cap);
        if (!nb) {
            w->st.status = FBPNG_OUT_OF_MEMORY;
            png_error(png, "out of memory growing the PNG output buffer");
        }
        w->buf = nb;
        w->cap = cap;
    }
    memcpy(w->buf + w->len, data, n);
    w->len += n;
}

static void fb_flush_fn(png_structp png) { (void)png; }

/* One chunk appended straight to the output (after libpng has written everything before it:
 * libpng does not buffer, each piece goes through fb_write_fn as it is made). For the IDAT
 * chunks of a stream we made ourselves: png_write_chunk would copy the data through
 * fb_write_fn as well, but computes the CRC with zlib's crc32 (~0.5 ms per 1.7 MB W3 frame
 * here); libdeflate_crc32 (carry-less multiply) takes a fraction of that. */
static void fb_append_chunk(png_structp png, fb_writer *w, const char type[4], const uint8_t *data, size_t n) {
    uint8_t head[8] = {(uint8_t)(n >> 24), (uint8_t)(n >> 16), (uint8_t)(n >> 8), (uint8_t)n,
                       (uint8_t)type[0], (uint8_t)type[1], (uint8_t)type[2], (uint8_t)type[3]};
    uint32_t crc = libdeflate_crc32(libdeflate_crc32(0, head + 4, 4), data, n);
    uint8_t tail[4] = {(uint8_t)(crc >> 24), (uint8_t)(crc >> 16), (uint8_t)(crc >> 8), (uint8_t)crc};
    fb_write_fn(png, head, 8);
    if (n) fb_write_fn(png, (png_bytep)data, n);
    fb_write_fn(png, tail, 4);
}

static void fb_writer_close(fb_writer *w) {
    if (w->png) png_destroy_write_struct(&w->png, &w->info);
    free(w->buf);
    free(w->converted);
    free(w->rows);
    free(w->texts);
    fb_scratch_release(FB_SCRATCH_OUT, w->zdata); /* the encoders' streams: scratch or malloc'd */
    w->buf = NULL; w->converted = NULL; w->rows = NULL; w->texts = NULL; w->zdata = NULL;
}

/* Re-lays the 4-byte input pixels for the test-only formats (gray, gray+alpha, 16-bit). */
static uint8_t *fb_convert(const uint8_t *rgba, uint32_t width, uint32_t height, size_t stride,
                           int output, size_t *out_stride) {
    size_t bpp = output == FBPNG_OUT_GRAY8 ? 1 : output == FBPNG_OUT_GRAYA8 ? 2 : 8;
    size_t os = (size_t)width * bpp;
    uint8_t *out = malloc(os * height);
    if (!out) return NULL;
    for (uint32_t y = 0; y < height; y++) {
        const uint8_t *s = rgba + (size_t)y * stride;
        uint8_t *d = out + (size_t)y * os;
        for (uint32_t x = 0; x < width; x++, s += 4) {
            if (output == FBPNG_OUT_GRAY8) { *d++ = s[0]; }
            else if (output == FBPNG_OUT_GRAYA8) { *d++ = s[0]; *d++ = s[3]; }
            else { for (int c = 0; c < 4; c++) { *d++ = s[c]; *d++ = s[c]; } } /* b*257, big-endian */
        }
    }
    *out_stride = os;
    return out;
}

int fbpng_encode(const uint8_t *rgba, uint32_t width, uint32_t height, size_t stride,
                 const fbpng_encode_params *p, uint8_t **out, size_t *out_size, fbpng_error *err) {
    *out = NULL;
    *out_size = 0;
    if (width == 0 || height == 0 || width > PNG_USER_WIDTH_MAX || height > PNG_USER_HEIGHT_MAX) {
        char msg[160];
        snprintf(msg, sizeof msg, "cannot encode a %ux%u image: width and height must be at least 1", width, height);
        fb_set_error(err, msg);
        return FBPNG_INVALID_ARGUMENT;
    }
    if (!rgba || stride < (size_t)width * 4) {
        fb_set_error(err, "cannot encode: the pixel rows are shorter than width * 4 bytes");
        return FBPNG_INVALID_ARGUMENT;
    }
    int lib_strategy = p->strategy == FBPNG_STRATEGY_LIBDEFLATE || p->strategy == FBPNG_STRATEGY_ISAL;
    int auto_strategy = p->strategy == FBPNG_STRATEGY_FAST_AUTO;
    int max_level = p->strategy == FBPNG_STRATEGY_LIBDEFLATE ? 12 : p->strategy == FBPNG_STRATEGY_ISAL ? 3 : 9;
    int min_level = p->strategy == FBPNG_STRATEGY_LIBDEFLATE ? 1 : 0;
    if (p->chosen_filter) *p->chosen_filter = -1;
    if (p->level < min_level || p->level > max_level || p->strategy < 0 ||
        (p->strategy > 4 && p->strategy != FBPNG_STRATEGY_FLIPBOOK_FAST && !lib_strategy && !auto_strategy) || (p->filters & ~0xF8) != 0 ||
        p->filters == 0 || p->mem_level < 0 || p->mem_level > 9 || (p->window_bits != 0 &&
        (p->window_bits < 8 || p->window_bits > 15)) || p->output < 0 || p->output > FBPNG_OUT_RGBA16) {
        fb_set_error(err, "cannot encode: compression settings out of range (level 0-9, libdeflate 1-12, ISA-L 0-3, memLevel 1-9, windowBits 8-15)");
        return FBPNG_INVALID_ARGUMENT;
    }
    fb_writer w;
    memset(&w, 0, sizeof w);
    w.st.err = err;
    w.png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &w.st, fb_error_fn, fb_warning_fn);
    if (!w.png) { fb_set_error(err, "out of memory creating the PNG writer"); return FBPNG_OUT_OF_MEMORY; }
    w.info = png_create_info_struct(w.png);
    if (!w.info) {
        fb_writer_close(&w);
        fb_set_error(err, "out of memory creating the PNG writer");
        return FBPNG_OUT_OF_MEMORY;
    }
    if (setjmp(png_jmpbuf(w.png))) {
        int status = w.st.status;
        fb_writer_close(&w);
        return status;
    }
    /* Reserve a guess of the output up front so growth rarely copies (a third of the raw size). */
    w.cap = ((size_t)width * height * 4) / 3 + 4096;
    w.buf = malloc(w.cap);
    if (!w.buf) { w.cap = 0; }
    png_set_write_fn(w.png, &w, fb_write_fn, fb_flush_fn);

    int ctype = PNG_COLOR_TYPE_RGB_ALPHA, depth = 8;
    const uint8_t *src = rgba;
    size_t src_stride = stride;
    switch (p->output) {
    case FBPNG_OUT_RGB8: ctype = PNG_COLOR_TYPE_RGB; break;
    case FBPNG_OUT_GRAY8: ctype = PNG_COLOR_TYPE_GRAY; break;
    case FBPNG_OUT_GRAYA8: ctype = PNG_COLOR_TYPE_GRAY_ALPHA; break;
    case FBPNG_OUT_RGBA16: depth = 16; break;
    default: break;
    }
    if (p->output >= FBPNG_OUT_GRAY8) {
        w.converted = fb_convert(rgba, width, height, stride, p->output, &src_stride);
        if (!w.converted) { w.st.status = FBPNG_OUT_OF_MEMORY; png_error(w.png, "out of memory converting rows"); }
        src = w.converted;
    }
    png_set_IHDR(w.png, w.info, width, height, depth, ctype,
                 p->interlace ? PNG_INTERLACE_ADAM7 : PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    /* The non-zlib strategies make the whole zlib stream themselves; libpng frames it. For
     * interlaced and test-only outputs they fall back to zlib: level 1 Z_RLE for our own
     * deflate, level min(level, 9) Z_FILTERED for the libraries. */
    int own_deflate = p->strategy == FBPNG_STRATEGY_FLIPBOOK_FAST || lib_strategy || auto_strategy;
    int fast_path = own_deflate && !p->interlace && (p->output == FBPNG_OUT_RGB8 || p->output == FBPNG_OUT_RGBA8);
    int zlevel = p->strategy == FBPNG_STRATEGY_FLIPBOOK_FAST || auto_strategy ? 1 : p->level > 9 ? 9 : p->level;
    png_set_compression_level(w.png, zlevel);
    png_set_compression_strategy(w.png, !own_deflate ? p->strategy
                                 : lib_strategy ? FBPNG_STRATEGY_FILTERED : FBPNG_STRATEGY_RLE);
    if (p->mem_level) png_set_compression_mem_level(w.png, p->mem_level);
    if (p->window_bits) png_set_compression_window_bits(w.png, p->window_bits);
    if (p->buffer_size) png_set_compression_buffer_size(w.png, p->buffer_size);
    png_set_filter(w.png, PNG_FILTER_TYPE_BASE, p->filters);
    if (p->text_count > 0) {
        w.texts = calloc((size_t)p->text_count, sizeof(png_text));
        if (!w.texts) { w.st.status = FBPNG_OUT_OF_MEMORY; png_error(w.png, "out of memory for text chunks"); }
        for (int i = 0; i < p->text_count; i++) {
            w.texts[i].compression = PNG_TEXT_COMPRESSION_NONE;
            w.texts[i].key = (png_charp)p->texts[i].key;
            w.texts[i].text = (png_charp)p->texts[i].text;
            w.texts[i].text_length = strlen(p->texts[i].text);
        }
        png_set_text(w.png, w.info, w.texts, p->text_count);
    }
    png_write_info(w.png, w.info); /* signature, IHDR, tEXt */
    if (fast_path) {
        /* Our zlib stream (fast_deflate.c, or libdeflate / ISA-L via lib_deflate.c) as IDAT
         * chunks of `buffer_size` bytes (1 MiB by default) appended by fb_append_chunk, then
         * IEND by libpng. png_write_end would refuse ("No IDATs written") since libpng's own
         * IDAT writer never ran. */
        size_t zlen = 0;
        int channels = p->output == FBPNG_OUT_RGB8 ? 3 : 4, rc;
        if (lib_strategy) {
            /* FBPNG_FILTER_ALL: the library's candidate set (lib_deflate.h); other masks map
             * bit by bit (libpng's NONE 0x08 … PAETH 0x80 are 1 << (3 + type)). */
            int isal = p->strategy == FBPNG_STRATEGY_ISAL;
            unsigned candidates = (unsigned)p->filters >> 3;
            /* Below level 10 the choice is none or up: paeth and libpng's per-row heuristic
             * never won there on W3/W3b (W3 at level 4: paeth 0.5 % smaller than up on the
             * whole frame, but the sample ranks up first) and judging them cost ~15 % of a
             * level-4 encode of W3b. At levels 10–12 (seconds per frame) all four. */
            if (p->filters == FBPNG_FILTER_ALL)
                candidates = isal || p->level < 10
                           ? (1u << FBLD_NONE) | (1u << FBLD_UP)
                           : (1u << FBLD_NONE) | (1u << FBLD_UP) | (1u << FBLD_PAETH) | (1u << FBLD_ADAPTIVE);
            rc = fbld_compress_image(rgba, width, height, stride, channels, isal ? FBLD_ISAL : FBLD_LIBDEFLATE,
                                     p->level, candidates, &w.zdata, &zlen, p->chosen_filter);
        } else {
            /* FAST_AUTO: ISA-L L1 unfiltered wins on flat frames (W3b: 254 KB at ~3 GB/s vs
             * 300 KB at ~1.9 GB/s), fast_deflate on gradients (W3: 1.74 MB at ~700 MB/s vs
             * ISA-L up 2.16 MB at ~540). Whether `none` beats `up` on a 3 % sample (2 bands
             * of 16 rows, ISA-L level 1: 0.2 ms on W3b, 1.0 ms on W3) tells the two apart. */
            int t = auto_strategy ? fbld_choose_filter(rgba, width, height, stride, channels, FBLD_ISAL, 1,
                                                       (1u << FBLD_NONE) | (1u << FBLD_UP))
                                  : FBLD_UP;
            if (t == FBLD_NONE)
                rc = fbld_compress_image(rgba, width, height, stride, channels, FBLD_ISAL, 1, 1u << FBLD_NONE,
                                         &w.zdata, &zlen, p->chosen_filter);
            else if (t < 0)
                rc = t;
            else
                rc = fbfd_compress_image(rgba, width, height, stride, channels, &w.zdata, &zlen);
        }
        if (rc != 0) {
            w.st.status = rc == -1 ? FBPNG_OUT_OF_MEMORY : FBPNG_INVALID_ARGUMENT;
            png_error(w.png, rc == -1 ? "out of memory compressing the image" : "cannot compress the image");
        }
        size_t chunk = p->buffer_size ? p->buffer_size : (size_t)1 << 20;
        for (size_t off = 0; off < zlen; off += chunk)
            fb_append_chunk(w.png, &w, "IDAT", w.zdata + off, zlen - off < chunk ? zlen - off : chunk);
        png_write_chunk(w.png, (png_const_bytep)"IEND", NULL, 0);
        *out = w.buf;
        *out_size = w.len;
        w.buf = NULL; /* handed over */
        fb_writer_close(&w);
        return FBPNG_OK;
    }
    if (p->output == FBPNG_OUT_RGB8) png_set_filler(w.png, 0, PNG_FILLER_AFTER); /* drop byte 4 */
    int passes = png_set_interlace_handling(w.png);
    for (int pass = 0; pass < passes; pass++)
        for (uint32_t y = 0; y < height; y++) png_write_row(w.png, src + (size_t)y * src_stride);
    png_write_end(w.png, w.info);

    *out = w.buf;
    *out_size = w.len;
    w.buf = NULL; /* handed over */
    fb_writer_close(&w);
    return FBPNG_OK;
}
