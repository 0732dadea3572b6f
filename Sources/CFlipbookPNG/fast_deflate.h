#ifndef FLIPBOOK_FAST_DEFLATE_H
#define FLIPBOOK_FAST_DEFLATE_H
/*
 * fast_deflate — a deflate encoder specialised for PNG image rows (private to CFlipbookPNG).
 *
 * It filters the rows itself (`sub` for row 0, `up` for every other row), then writes one
 * complete zlib stream (RFC 1950 header, RFC 1951 blocks, Adler-32 trailer) of the filtered
 * bytes. The shim hands that stream to libpng as IDAT data. See docs/png.md for the design.
 */
#include <stddef.h>
#include <stdint.h>

/// Filters and compresses an image. `rgba` holds 4-byte pixels, rows `stride` bytes apart;
/// `channels` is 4 (write all bytes: colour type 6) or 3 (drop the 4th byte: colour type 2).
/// On success returns 0 and a zlib stream in `*out` (`*out_size` bytes; this thread's
/// FB_SCRATCH_OUT buffer, see scratch.h: give it back with fb_scratch_release); returns -1
/// when memory runs out (nothing is leaked) and -2 for invalid arguments.
int fbfd_compress_image(const uint8_t *rgba, uint32_t width, uint32_t height, size_t stride,
                        int channels, uint8_t **out, size_t *out_size);

#endif
