#ifndef FLIPBOOK_PNG_H
#define FLIPBOOK_PNG_H
/*
 * The C shim over libpng used by FlipbookPNG.
 *
 * Design rules (see docs/png.md):
 *   - Every setjmp/longjmp stays inside shim.c: each entry point installs its own jump buffer,
 *     and libpng's error text is copied into the caller's `fbpng_error.message`. A function
 *     returns 0 on success and a non-zero `fbpng_status` on failure; it never prints, never
 *     aborts, and frees everything it allocated before returning an error.
 *   - libpng warnings are swallowed (a no-op warning handler): nothing reaches stderr.
 *   - Memory handed back to Swift (decoded pixels, encoded bytes, text) is malloc'd here and
 *     released with the matching fbpng_free_* function.
 *   - Names are prefixed `fbpng_` so nothing collides with libpng's own `png_` namespace.
 */
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Why a call failed. Mirrors `PNGError.Kind` on the Swift side.
typedef enum fbpng_status {
    FBPNG_OK = 0,
    FBPNG_NOT_PNG = 1,      ///< the data does not start with the 8-byte PNG signature
    FBPNG_TRUNCATED = 2,    ///< the data ends before the image does
    FBPNG_CORRUPT = 3,      ///< libpng rejected the data (bad CRC, bad chunk, bad zlib stream ...)
    FBPNG_TOO_LARGE = 4,    ///< the header claims a side above the caller's limit
    FBPNG_INVALID_ARGUMENT = 5, ///< the caller asked for something impossible (0-sized image ...)
    FBPNG_OUT_OF_MEMORY = 6,
} fbpng_status;

/// The message buffer every entry point fills on failure (NUL-terminated, truncated to fit).
typedef struct fbpng_error {
    char message[256];
} fbpng_error;

/// One text chunk: keyword (1–79 Latin-1 bytes) and text, both NUL-terminated. Written as
/// tEXt (Latin-1). When read, `utf8` is 1 for iTXt chunks (UTF-8 text), 0 for tEXt/zTXt.
typedef struct fbpng_text {
    const char *key;
    const char *text;
    int utf8;
} fbpng_text;

/// What the IHDR (and the tEXt/tRNS chunks before the image data) say.
typedef struct fbpng_header {
    uint32_t width;
    uint32_t height;
    int bit_depth;      ///< 1, 2, 4, 8 or 16
    int color_type;     ///< PNG colour type: 0 gray, 2 RGB, 3 palette, 4 gray+alpha, 6 RGBA
    int interlaced;     ///< 1 for Adam7
    int has_trns;       ///< 1 when a tRNS chunk is present
    int text_count;     ///< number of entries in `texts`
    fbpng_text *texts;  ///< owned; free the header with fbpng_free_header
} fbpng_header;

/// Reads the header and the text chunks that precede the image data (nothing is decoded).
/// `max_dimension` bounds width and height (checked before libpng allocates anything).
/// Walks the chunks from byte 8 to IEND without decoding: each declared length must fit in the
/// remaining bytes and be below 2^31; with `verify_crc`, each CRC must match. Data after IEND is
/// ignored. FBPNG_OK, FBPNG_TRUNCATED or FBPNG_CORRUPT (message in `err`).
int fbpng_check_chunks(const uint8_t *data, size_t size, int verify_crc, fbpng_error *err);

int fbpng_read_header(const uint8_t *data, size_t size, uint32_t max_dimension,
                      fbpng_header *out, fbpng_error *err);
void fbpng_free_header(fbpng_header *header);

/// Decodes any valid PNG to *straight* (unassociated) RGBA8, 4 bytes per pixel, rows packed
/// (`width * 4` bytes per row). Palette, gray and low bit depths are expanded, tRNS becomes
/// alpha, 16-bit samples are scaled with round(v * 255 / 65535) (png_set_scale_16), Adam7 is
/// de-interlaced. gAMA/cHRM/iCCP/sRGB are ignored: samples are passed through as stored.
/// On success `*pixels` is a malloc'd block of `width * height * 4` bytes (fbpng_free).
int fbpng_decode_rgba8(const uint8_t *data, size_t size, uint32_t max_dimension,
                       uint32_t *width, uint32_t *height, uint8_t **pixels, fbpng_error *err);

/// zlib strategies (values are zlib's Z_* constants).
enum {
    FBPNG_STRATEGY_DEFAULT = 0,
    FBPNG_STRATEGY_FILTERED = 1,
    FBPNG_STRATEGY_HUFFMAN_ONLY = 2,
    FBPNG_STRATEGY_RLE = 3,
    FBPNG_STRATEGY_FIXED = 4,
    /// Not zlib: Flipbook's own deflate for image rows (fast_deflate.c) with a fixed filter
    /// choice (`sub` for row 0, `up` after); `level`, `filters`, `mem_level` and
    /// `window_bits` are ignored. libpng still writes every chunk. For interlaced or
    /// test-only outputs it falls back to zlib level 1 Z_RLE with `filters`.
    FBPNG_STRATEGY_FLIPBOOK_FAST = 16,
    /// Not zlib: the shim filters the rows and libdeflate makes the zlib stream (lib_deflate.c);
    /// `level` is libdeflate's, 1–12 (12: near-optimal parsing). `filters`: one bit is used for
    /// every row; FBPNG_FILTER_ALL chooses per frame between none and up (at levels ≥ 10 also
    /// paeth and libpng's per-row heuristic) by compressing a sample of rows with each; other
    /// masks choose among their bits.
    FBPNG_STRATEGY_LIBDEFLATE = 17,
    /// Not zlib: as FBPNG_STRATEGY_LIBDEFLATE with ISA-L's igzip, `level` 0–3; FBPNG_FILTER_ALL
    /// chooses between none and up.
    FBPNG_STRATEGY_ISAL = 18,
    /// Not zlib: per frame, ISA-L level 1 with filter none when a sample of rows compresses
    /// smaller unfiltered than with `up` (flat, UI-like frames), else FBPNG_STRATEGY_FLIPBOOK_FAST.
    /// `level`, `filters`, `mem_level` and `window_bits` are ignored.
    FBPNG_STRATEGY_FAST_AUTO = 19,
};

/// Row filter masks (values are libpng's PNG_FILTER_* bits; ALL lets libpng choose per row).
enum {
    FBPNG_FILTER_NONE = 0x08,
    FBPNG_FILTER_SUB = 0x10,
    FBPNG_FILTER_UP = 0x20,
    FBPNG_FILTER_AVG = 0x40,
    FBPNG_FILTER_PAETH = 0x80,
    FBPNG_FILTER_ALL = 0xF8,
};

/// Output colour type/depth for fbpng_encode. Input rows are always 4 bytes per pixel.
enum {
    FBPNG_OUT_RGBA8 = 0,    ///< colour type 6, 8 bits
    FBPNG_OUT_RGB8 = 1,     ///< colour type 2, 8 bits: the 4th byte of each input pixel is dropped
    FBPNG_OUT_GRAY8 = 2,    ///< colour type 0, 8 bits: input byte 0 of each pixel (test writer)
    FBPNG_OUT_GRAYA8 = 3,   ///< colour type 4, 8 bits: input bytes 0 and 3 (test writer)
    FBPNG_OUT_RGBA16 = 4,   ///< colour type 6, 16 bits: each byte b stored as b * 257 (test writer)
};

typedef struct fbpng_encode_params {
    int level;          ///< zlib level 0–9
    int strategy;       ///< FBPNG_STRATEGY_*
    int filters;        ///< FBPNG_FILTER_* mask
    int mem_level;      ///< zlib memLevel 1–9 (0: libpng's default, 8)
    int window_bits;    ///< zlib windowBits 8–15 (0: libpng's default, 15)
    int output;         ///< FBPNG_OUT_*
    int interlace;      ///< 1: write Adam7
    size_t buffer_size; ///< libpng's IDAT buffer (0: libpng's default 8192)
    const fbpng_text *texts;
    int text_count;
    /// When not NULL, set to the PNG filter type used for every row (0 none … 4 paeth) or 5
    /// (chosen per row), by the libdeflate/ISA-L strategies; -1 otherwise.
    int *chosen_filter;
} fbpng_encode_params;

/// Encodes straight RGBA8 rows (`stride` bytes apart) to a PNG in memory.
/// On success `*out` is a malloc'd block of `*out_size` bytes (fbpng_free).
int fbpng_encode(const uint8_t *rgba, uint32_t width, uint32_t height, size_t stride,
                 const fbpng_encode_params *params, uint8_t **out, size_t *out_size,
                 fbpng_error *err);

void fbpng_free(void *p);

/// Test hook into the `flipbookFast` encoder: the length-limited Huffman code lengths
/// (Huffman, clamped and repaired when too deep) it would use for `n` (≤ 288) symbol frequencies, at most `maxbits` (1–15)
/// bits. Returns 0, or -1 when the arguments are out of range or 2^maxbits < used symbols.
int fbpng_huffman_lengths(const uint32_t *freq, int n, int maxbits, uint8_t *lengths);

/// "libpng 1.6.39, zlib 1.2.13" (for bench output).
const char *fbpng_versions(void);

#ifdef __cplusplus
}
#endif
#endif
