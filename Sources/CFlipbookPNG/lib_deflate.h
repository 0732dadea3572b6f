#ifndef FLIPBOOK_LIB_DEFLATE_H
#define FLIPBOOK_LIB_DEFLATE_H
/*
 * lib_deflate — PNG image data through the well-kept deflate libraries (private to CFlipbookPNG).
 *
 * The rows are filtered here (one filter for the whole frame, or libpng's per-row heuristic),
 * then one zlib stream (RFC 1950) is made by libdeflate (levels 1–12) or by Intel ISA-L's
 * igzip (levels 0–3). The shim frames the stream as IDAT chunks through libpng, as it does
 * for fast_deflate.c. Why each preset uses which library, and the measurements: docs/png.md.
 */
#include <stddef.h>
#include <stdint.h>

/// PNG filter types (the filter byte written before each row), plus the per-row heuristic.
enum {
    FBLD_NONE = 0, FBLD_SUB = 1, FBLD_UP = 2, FBLD_AVG = 3, FBLD_PAETH = 4,
    /// Not a PNG filter byte: each row gets the filter whose output has the smallest sum of
    /// |signed bytes| (libpng's heuristic, "minimum sum of absolute differences").
    FBLD_ADAPTIVE = 5,
};

/// Which library makes the zlib stream.
enum { FBLD_LIBDEFLATE = 0, FBLD_ISAL = 1 };

/// Filters and compresses an image. `rgba` holds 4-byte pixels, rows `stride` bytes apart;
/// `channels` 4 keeps every byte (colour type 6), 3 drops each pixel's 4th byte (type 2).
/// `candidates` is a bit set of `1 << FBLD_*`: one bit uses that filter for every row; more
/// bits try each on a sample of rows and keep the one whose sample compresses smallest.
/// `level`: libdeflate 1–12, ISA-L 0–3. On success returns 0, a zlib stream in `*out`
/// (`*out_size` bytes; this thread's FB_SCRATCH_OUT buffer: give it back with
/// `fb_scratch_release(FB_SCRATCH_OUT, *out)` before the next encode on this thread) and,
/// when `chosen` is not NULL, the filter used. Returns -1
/// when memory runs out and -2 for invalid arguments; nothing is leaked.
int fbld_compress_image(const uint8_t *rgba, uint32_t width, uint32_t height, size_t stride,
                        int channels, int library, int level, unsigned candidates,
                        uint8_t **out, size_t *out_size, int *chosen);

/// The filter `fbld_compress_image` would choose for these `candidates` (FBLD_* type), -1 when
/// memory runs out, -2 for invalid arguments. The `fast` preset uses it to pick an encoder.
int fbld_choose_filter(const uint8_t *rgba, uint32_t width, uint32_t height, size_t stride, int channels,
                       int library, int level, unsigned candidates);

/// Filters one row of `n` bytes (`bpp` bytes per pixel) into `dst`: the filter byte, then `n`
/// filtered bytes. `prev` is the previous row unfiltered, or NULL for the first row (PNG
/// treats it as zeros). `type` is FBLD_NONE…FBLD_PAETH or FBLD_ADAPTIVE; `scratch` (n + 1
/// bytes) is needed for FBLD_ADAPTIVE only. Returns the filter byte written.
int fbld_filter_row(uint8_t *dst, const uint8_t *cur, const uint8_t *prev, size_t n, int bpp, int type,
                    uint8_t *scratch);

#endif
