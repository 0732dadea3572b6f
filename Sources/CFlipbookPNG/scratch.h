#ifndef FLIPBOOK_PNG_SCRATCH_H
#define FLIPBOOK_PNG_SCRATCH_H
/* Per-thread scratch buffers for the encoders (scratch.c).
 *
 * A 1080p frame needs megabytes of working memory per encode (the filtered image for
 * libdeflate, the zlib stream, the token buffer). Allocations that size are fresh mmaps in
 * glibc, so every encode paid the page faults and the kernel's zeroing of those pages — 12 %
 * of a W3b `default` encode (~1.5–2.7 ms). A recorder encodes frame after frame on the same
 * threads, so each thread keeps one buffer per slot for its next encode; the buffers are freed
 * when the thread exits. Requests above FB_SCRATCH_KEEP are plain malloc/free. */
#include <stddef.h>
#include <stdint.h>

#define FB_SCRATCH_KEEP ((size_t)64 << 20) /* a 4K RGBA frame filters to 33 MB */

enum {
    FB_SCRATCH_OUT = 0,  /* a zlib stream handed to shim.c, released after framing */
    FB_SCRATCH_WORK = 1, /* working memory released inside one encoder call */
    FB_SCRATCH_SLOTS = 2
};

/* At least n bytes (contents undefined) for this thread's `slot`, or NULL when memory ran
 * out. One taker per slot at a time. */
uint8_t *fb_scratch_take(int slot, size_t n);

/* Gives back what fb_scratch_take returned (NULL is fine): the kept buffer stays with the
 * thread, anything else is freed — so it is also the right call for plain malloc'd memory. */
void fb_scratch_release(int slot, uint8_t *p);

#endif
