#ifndef FLIPBOOK_KERNELS_H
#define FLIPBOOK_KERNELS_H
/// Native SIMD kernels (AVX2 behind a runtime CPU check). Every kernel here has a portable
/// Swift twin in FlipbookRaster (`*+Scalar.swift`); tests compare them bit for bit.
///
/// Conventions shared by every kernel (see docs/kernels.md and docs/rounding.md):
///  - pixels are premultiplied RGBA8, one `uint32_t` each, little-endian 0xAABBGGRR
///    (bytes R,G,B,A); the maths is channel-order agnostic except that alpha is byte 3;
///  - `n` is a pixel count (>= 0); pointers may be unaligned;
///  - `opacity` and coverage bytes are 0...255 (255 = opaque);
///  - every division by 255 is `div255(x) = round(x / 255)`, exact;
///  - callers must check `fbk_cpu_has_avx2()` before calling an `_avx2` function.
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// 1 when the CPU (and OS) support AVX2, else 0.
int fbk_cpu_has_avx2(void);

/// fbk_cpu_has_avx2(), asked once per process: -1 until then.
extern int fbk_cpu_avx2_state;

/// A CPU flag cached in `*state` (-1 until asked): an inlined load, `probe` only the first
/// time (or in a racing call: every call returns the same value). Kernel dispatch runs per span.
static inline int fbk_cached_flag(int *state, int (*probe)(void)) {
    int s = __atomic_load_n(state, __ATOMIC_RELAXED);
    if (s < 0) {
        s = probe();
        __atomic_store_n(state, s, __ATOMIC_RELAXED);
    }
    return s;
}

/// Asks for the cache line holding `p` (and the `lines - 1` after it) ahead of use: a hint with
/// no effect on any result, and none for an invalid address (a prefetch never faults).
static inline void fbk_prefetch(const void *p, int lines) {
    for (int k = 0; k < lines; k++) __builtin_prefetch((const char *)p + 64 * k, 0, 3);
}

/// fbk_cpu_has_avx2(), cached.
static inline int fbk_cpu_avx2_cached(void) { return fbk_cached_flag(&fbk_cpu_avx2_state, fbk_cpu_has_avx2); }

/// A source image for the samplers. `stride` is in pixels (bytesPerRow / 4).
/// Requires width, height >= 1 and stride * height < 2^31 (gather indices are int32).
/// `border` = 1 promises a one-texel border around the image that repeats its edge texels:
/// texels (x, y) for x in [-1, width] and y in [-1, height] are readable and equal the texel
/// at the clamped coordinates. A clamp-to-edge bilinear sampler can then read every pixel's
/// 2x2 footprint with two 8-byte loads (no gathers at the edges); the values are the same.
typedef struct {
    const uint32_t *pixels;
    int32_t width;
    int32_t height;
    int32_t stride;
    int32_t border;
} fbk_image;

/// dst[i] = color for i in [0, n).
void fbk_fill_avx2(uint32_t *dst, intptr_t n, uint32_t color);

/// Source-over of a premultiplied span with a constant opacity and an optional per-pixel
/// coverage (`mask` may be NULL):  k = mask ? div255(opacity * mask[i]) : opacity,
/// s' = div255(s * k) per channel, d' = min(255, s' + div255(d * (255 - s'.a))).
void fbk_over_avx2(uint32_t *dst, const uint32_t *src, const uint8_t *mask, intptr_t n,
                   uint32_t opacity);

/// Tint in place: p[i] = div255(p[i] * tint) per channel (a premultiplied colour multiplier:
/// an emitter particle's colour, a replicator instance's). Scalar twin: SpanBlend's
/// `_modulateScalar` (PixelMath.modulate per pixel).
void fbk_modulate_avx2(uint32_t *p, intptr_t n, uint32_t tint);

/// 1 when the CPU (and OS) support AVX-512F and AVX-512BW, else 0.
int fbk_cpu_has_avx512bw(void);

/// fbk_cpu_has_avx512bw(), and the environment variable FLIPBOOK_AVX512 is not "off", asked
/// once per process: -1 until then.
extern int fbk_cpu_avx512_state;
int fbk_cpu_avx512_allowed(void);

/// fbk_cpu_avx512_allowed(), cached.
static inline int fbk_cpu_avx512_cached(void) { return fbk_cached_flag(&fbk_cpu_avx512_state, fbk_cpu_avx512_allowed); }

/// fbk_solid_over_avx2, 16 pixels per block with AVX-512BW; the last n mod 16 pixels are one
/// k-masked block (pixels past the end are neither read nor written). Bit-identical.
/// Callers must check fbk_cpu_has_avx512bw().
void fbk_solid_over_avx512(uint32_t *dst, uint32_t color, const uint8_t *mask, intptr_t n);

/// One span of fbk_solid_spans_*: n pixels at dst, coverage mask or NULL.
typedef struct {
    uint32_t *dst;
    intptr_t n;
    const uint8_t *mask;
} fbk_span;

/// fbk_solid_over_avx512 (or fbk_solid_over_avx2; the scalar twin for a single pixel, as
/// SpanBlend.solidOver does) of each span in turn with one colour: the same bytes as one call
/// per span, the set-up paid once (the rows of small layers). Spans with n <= 0 are skipped.
/// fbk_solid_spans_avx512 needs AVX-512BW (fbk_cpu_has_avx512bw()), fbk_solid_spans_avx2 AVX2.
void fbk_solid_spans_avx512(const fbk_span *spans, intptr_t count, uint32_t color);
void fbk_solid_spans_avx2(const fbk_span *spans, intptr_t count, uint32_t color);

/// fbk_over_avx2 without a mask, 16 pixels per block with AVX-512 (bit-identical; the last
/// n mod 16 pixels run fbk_over_avx2): fbk_over_avx512vbmi where the CPU has AVX-512 VBMI,
/// else fbk_over_avx512bw. Callers must check fbk_cpu_has_avx512bw().
void fbk_over_avx512(uint32_t *dst, const uint32_t *src, intptr_t n, uint32_t opacity);
/// The AVX-512BW kernel of fbk_over_avx512 (16-bit lanes).
void fbk_over_avx512bw(uint32_t *dst, const uint32_t *src, intptr_t n, uint32_t opacity);
/// The AVX-512 VBMI kernel of fbk_over_avx512 (a byte table for the opacity, even and odd
/// bytes in place). Callers must check fbk_cpu_has_avx512vbmi().
void fbk_over_avx512vbmi(uint32_t *dst, const uint32_t *src, intptr_t n, uint32_t opacity);
/// 1 when the CPU has AVX-512F, BW and VBMI, else 0.
int fbk_cpu_has_avx512vbmi(void);
extern int fbk_cpu_avx512vbmi_state;
/// fbk_cpu_has_avx512vbmi(), cached.
static inline int fbk_cpu_avx512vbmi_cached(void) { return fbk_cached_flag(&fbk_cpu_avx512vbmi_state, fbk_cpu_has_avx512vbmi); }

/// fbk_affine_avx2 / fbk_affine_tint_avx2, 16 pixels per block with AVX-512BW: the same
/// arguments and the same bytes; the last n mod 16 pixels are one k-masked block (pixels past
/// the end are neither read nor written). Callers must check fbk_cpu_has_avx512bw().
void fbk_affine_avx512(uint32_t *dst, intptr_t n, const fbk_image *img, int64_t u, int64_t v,
                       int64_t du, int64_t dv, int bilinear, int clamp, uint32_t opacity,
                       const uint8_t *mask);
void fbk_affine_tint_avx512(uint32_t *dst, intptr_t n, const fbk_image *img, int64_t u, int64_t v,
                            int64_t du, int64_t dv, int bilinear, int clamp, uint32_t opacity,
                            const uint8_t *mask, uint32_t tint);

/// One span of fbk_affine_spans_*: n pixels at dst, sampling from (u, v), coverage mask or NULL.
typedef struct {
    uint32_t *dst;
    intptr_t n;
    int64_t u, v;
    const uint8_t *mask;
} fbk_affine_span;

/// fbk_affine_avx2 / fbk_affine_avx512 of each span in turn (spans[k].dst, .n, .u, .v, .mask;
/// the image, steps, filter, edge and opacity shared): the same bytes as one call per span, with
/// the per-call set-up paid once -- the rows of a small rotated layer are 20-45 pixels, and the
/// set-up was a fifth of their cost. Spans with n <= 0 are skipped.
void fbk_affine_spans_avx2(const fbk_affine_span *spans, intptr_t count, const fbk_image *img,
                           int64_t du, int64_t dv, int bilinear, int clamp, uint32_t opacity);
void fbk_affine_spans_avx512(const fbk_affine_span *spans, intptr_t count, const fbk_image *img,
                             int64_t du, int64_t dv, int bilinear, int clamp, uint32_t opacity);

/// Rows of one rotated or scaled image draw, with coverage (a small layer's dense rows): row i
/// (device row y + i) is the span from x + starts[i] of counts[i] pixels (none when 0) with the
/// coverage at coverage + i*cov_stride + starts[i], drawn at dst + i*dst_stride + x + starts[i]
/// (dst: device row y, pixel 0). Each row's fixed-point start is computed here, the doubles of
/// ImageSampler._rowStart (FlipbookRaster): py = y + 0.5, u0 = a*0.5 + (b*py + c) - shift,
/// v0 = d*0.5 + (e*py + f) - shift, unfused; rows with |u0| or |v0| >= 2^28 (or NaN) skipped; u0
/// and v0 times 2^32 rounded to nearest, ties away from zero. A row is then fbk_affine_avx512 of
/// its span (guarded as drawAffineSpan: x0 >= 0, x1 <= 2^15). The bytes of the Swift row loop
/// (ImageSampler.affineRows, then fbk_affine_spans_avx512).
typedef struct {
    uint32_t *dst;
    intptr_t dst_stride;
    intptr_t y, n, x;
    const intptr_t *starts, *counts;
    const uint8_t *coverage;
    intptr_t cov_stride;
    double a, b, c, d, e, f, shift;
    int64_t du, dv;
} fbk_affine_rows;

void fbk_affine_rows_avx512(const fbk_affine_rows *rows, const fbk_image *img, int bilinear, int clamp,
                            uint32_t opacity);
/// fbk_affine_rows_avx512 with a tint: each row as fbk_affine_tint_avx512 draws its span (the
/// sampled colour times the premultiplied tint, per channel, before the opacity, coverage and
/// source-over). Scalar twin: ImageSampler.drawTintedAffineSpan's portable path, row by row,
/// with ImageSampler.affineRow's starts (an emitter particle's rows, one call per particle).
void fbk_affine_tint_rows_avx512(const fbk_affine_rows *rows, const fbk_image *img, int bilinear, int clamp,
                                 uint32_t opacity, uint32_t tint);
/// fbk_affine_rows_avx512's start of row y on its own: 1 and (*u, *v), or 0 for a row it skips.
/// (Tests compare it with ImageSampler._rowStart; x86 builds only.)
int fbk_affine_row_start(const fbk_affine_rows *rows, intptr_t y, int64_t *u, int64_t *v);

/// Source-over of one solid premultiplied colour with an optional coverage mask:
/// s' = mask ? div255(color * mask[i]) : color, then source-over as above.
void fbk_solid_over_avx2(uint32_t *dst, uint32_t color, const uint8_t *mask, intptr_t n);

/// Affine sampler + opacity + coverage + source-over, fused, for n destination pixels.
/// Texel-space coordinates are 32.32 fixed point (int64): pixel i samples at
/// (u + i*du, v + i*dv). `bilinear`: 1 = bilinear of the 4 texels around the point with
/// 8-bit weights (coordinates are already shifted by -0.5), 0 = nearest (texel floor(u)).
/// `clamp`: 1 = clamp-to-edge, 0 = decal (texels outside are transparent).
/// The caller guarantees |u|, |u + n*du| (and the same for v) < 2^62.
void fbk_affine_avx2(uint32_t *dst, intptr_t n, const fbk_image *img, int64_t u, int64_t v,
                     int64_t du, int64_t dv, int bilinear, int clamp, uint32_t opacity,
                     const uint8_t *mask);

/// fbk_affine_avx2 with a tint: each sampled colour s becomes div255(s * tint) per channel
/// (premultiplied tint, PixelMath.modulate) before the opacity, coverage and source-over.
/// The same bytes as sampling onto transparent pixels, fbk_modulate_avx2, then fbk_over_avx2
/// (scalar twin: ImageSampler.drawTintedAffineSpan's portable path).
void fbk_affine_tint_avx2(uint32_t *dst, intptr_t n, const fbk_image *img, int64_t u, int64_t v,
                          int64_t du, int64_t dv, int bilinear, int clamp, uint32_t opacity,
                          const uint8_t *mask, uint32_t tint);

/// Projective bilinear sampler, fused like fbk_affine_avx2. For pixel i (px = x0 + i + 0.5):
///   X = m[0]*px + rowX,  Y = m[3]*px + rowY,  Q = m[6]*px + rowQ   (no FMA),
///   r = 1/Q, sx = X*r - 0.5, sy = Y*r - 0.5; the pixel is drawn only when Q > 0 and
///   (decal) -1 < sx < w, -1 < sy < h, or (clamp) sx, sy are not NaN (then clamped to the image).
/// Fixed point: t = floor(sx*256); texel x = t >> 8, weight fx = t & 255 (same for y).
void fbk_projective_avx2(uint32_t *dst, intptr_t n, const fbk_image *img, const double *m9,
                         double x0, double rowX, double rowY, double rowQ, int clamp,
                         uint32_t opacity, const uint8_t *mask);

/// The path rasterizer's accumulation -> coverage pass over n cells (FlipbookRaster
/// Path/CoverageAccumulation.swift is the scalar twin; docs/rasterizer.md the maths):
/// s_i = carry + acc[0] + ... + acc[i] (wrapping int32, units of 2^-17 pixel);
/// non-zero: v = max(0, min(|s_i|, 2^17)); even-odd (even_odd != 0): v = s_i & (2^18 - 1),
/// v = min(v, 2^18 - v); cov[i] = (255 v + 2^16) >> 17; acc[i] = 0. Returns s_{n-1}
/// (carry when n == 0).
int32_t fbk_accumulate_avx2(int32_t *acc, uint8_t *cov, intptr_t n, int32_t carry, int even_odd);

/// The rasterizer's sweep as dense coverage rows (`_Cells.sweepDense`, for a sink that prefers
/// dense rows), rows 0 ..< n: in row i (cells at acc + i*stride, `words` uint64 of its bitmap at
/// bits + i*words, one bit per 8 cells) the runs of marked cells are accumulated as
/// fbk_accumulate_avx2 does, in order, with one running sum, the gaps between them (up to
/// `width`) filled with the running sum's byte, and the cells read and the bits zeroed. Row i's
/// coverage goes to cov + i*stride (`cov` holds n*stride bytes): bytes s ..< s + counts[i], s =
/// starts[i] the first pixel whose byte is not 0 and s + counts[i] - 1 the last (counts[i] = 0:
/// no coverage). Bytes outside those ranges are unspecified. The same pixels and bytes as the
/// sweep's spans (tested). One call for a shape's rows in a band: a call per row spent a third
/// of its time in set-up on 10,000 small layers.
void fbk_sweep_rows_avx2(int32_t *acc, uint64_t *bits, intptr_t stride, intptr_t words, intptr_t width,
                         intptr_t n, int even_odd, uint8_t *cov, intptr_t *starts, intptr_t *counts);

/// fbk_sweep_rows_avx2 with AVX-512 F, BW, DQ and VL (fbk_cpu_has_lane_walk()): the same rows,
/// bytes, starts and counts, 16 cells per block (coverage_avx512.c).
void fbk_sweep_rows_avx512(int32_t *acc, uint64_t *bits, intptr_t stride, intptr_t words, intptr_t width,
                           intptr_t n, int even_odd, uint8_t *cov, intptr_t *starts, intptr_t *counts);

/// fbk_sweep_rows_avx512 for a buffer one bitmap word wide (stride <= 512 cells; used for clips of
/// at most 64 columns): each row's cells from its first marked group to its last swept densely,
/// 16 per block, the ends from the blocks' masks. The same bytes in [start, start + count), starts
/// and counts; the cells and bitmap zeroed alike.
void fbk_sweep_rows_small_avx512(int32_t *acc, uint64_t *bits, intptr_t stride, intptr_t width, intptr_t n,
                                 int even_odd, uint8_t *cov, intptr_t *starts, intptr_t *counts);

/// The sweep of fbk_sweep_rows_avx512 painting as it goes: row i's coverage, source-over of the
/// premultiplied `color` scaled by it (fbk_solid_over_avx512's formula), onto the pixels at
/// dst + i*dst_stride (dst: the pixel of the first row's first cell; the row's first `width`
/// pixels). The bytes of fbk_sweep_rows_avx512 followed by fbk_solid_spans_avx512 on its rows.
void fbk_sweep_rows_solid_avx512(int32_t *acc, uint64_t *bits, intptr_t stride, intptr_t words, intptr_t width,
                                 intptr_t n, int even_odd, uint32_t *dst, intptr_t dst_stride, uint32_t color);

/// One shape's cell buffer (FlipbookRaster `_Cells`): rows of `stride` int32 cells (`width`
/// of them in use, the next one written too), a bitmap of `words` uint64 per row (one bit per
/// 8 cells), the buffer's first row `oy` (pixels) and its clip in 24.8 fixed point; rows
/// `skip0 ..< skip1` are left to the sweep by vertical lines.
typedef struct {
    int32_t *acc;
    uint64_t *bits;
    intptr_t stride, words, width, oy;
    int64_t x_min_sub, x_max_sub, y_min_sub, y_max_sub;
    intptr_t skip0, skip1;
} fbk_cells;

/// Adds the line (x0, y0) -> (x1, y1) (24.8 fixed point, absolute, |x|, |y| <= 2^29 -- the
/// rasterizer's conversion clamps to that; beyond, the walk's products overflow) to the cells: the line walk
/// of FlipbookRaster Path/CellWalk.swift (the reference; a twin test compares the buffers).
/// Plain C: callable on any CPU.
void fbk_add_line(const fbk_cells *cells, int64_t x0, int64_t y0, int64_t x1, int64_t y1);

/// fbk_add_line for every edge of closed contours: `points` holds (x, y) pairs (24.8 fixed
/// point), contour k ends before point `ends[k]` (the first starts at 0) and is closed by its
/// last point -> first point. Edges wholly at or above the cells' first sub-row, or at or below
/// their end, are skipped (they add nothing). One call per shape: a call per edge from Swift
/// cost W6b ~10 %, most of its edges missing the band.
void fbk_add_contours(const fbk_cells *cells, const int32_t *points, const int32_t *ends, intptr_t contours);

/// Points (x0, y0, x1, y1, ... as doubles, n of them; in reverse order when `reversed`) to
/// PathRasterizer's 24.8 fixed point, written to out[0 ..< 2n]: floor(256 v + 1/2) clamped to
/// +-2^29, NaN to 2^29 (PathRasterizer._fixed: the same double operations). bounds (min x, min y,
/// max x, max y) is widened by the points. Returns 1, or 0 when a point is not finite (the
/// caller then drops the whole path: out and bounds are not meaningful). FixedPath's bulk sink.
int fbk_fixed_points(const double *xy, intptr_t n, int reversed, int32_t *out, double *bounds);

/// fbk_add_contours with the lane walks (cell_walk_avx512.c: eight lines at once, the same
/// cells) when `lanes` is 1 -- the caller checks fbk_cpu_has_lane_walk() -- or the scalar walks
/// alone when 0. fbk_add_contours passes the cached CPU check; tests compare the two.
void fbk_add_contours_with(const fbk_cells *cells, const int32_t *points, const int32_t *ends, intptr_t contours,
                           int lanes);

/// 1 when the lane walks can run: AVX-512 F, BW, DQ and VL, and FLIPBOOK_AVX512 is not "off".
int fbk_cpu_has_lane_walk(void);
extern int fbk_cpu_lane_walk_state;
/// fbk_cpu_has_lane_walk(), cached.
static inline int fbk_cpu_lane_walk_cached(void) { return fbk_cached_flag(&fbk_cpu_lane_walk_state, fbk_cpu_has_lane_walk); }

/// fbk_add_contours of one closed polygon of n points.
void fbk_add_polygon(const fbk_cells *cells, const int32_t *points, intptr_t n);

/// The gradient paint's colours for n pixels, 8 at a time (see gradient_avx2.c and
/// FlipbookRaster's GradientPaint, whose scalar reference it matches bit for bit): `kind` 0 axial,
/// 1 radial, 2 conic; pixel i at U = u0 + i*mu, V = v0 + i*mv, W = w0 + i*mw; `table` holds
/// 1027 colours (ramp, first, last, transparent); `before`/`after` are the indices used
/// outside [0, 1]. Writes all n pixels (the last partial block with a lane mask); returns n.
intptr_t fbk_gradient_avx2(uint32_t *out, intptr_t n, const uint32_t *table, int kind,
                           float u0, float v0, float w0, float mu, float mv, float mw,
                           int32_t before, int32_t after);

/// Gradient + source-over in one pass (no colour buffer): pixel i of `dst` becomes
/// fbk_over_avx2's result for the source colour fbk_gradient_avx2 gives pixel i, with the
/// same `mask` (coverage, may be NULL) and `opacity`; the same bytes as the two calls in turn.
/// Blocks whose 8 colours are opaque, fully covered at opacity 255 are stored without reading
/// `dst` (source-over is then a copy). Masked blocks with all-zero coverage are skipped.
void fbk_gradient_over_avx2(uint32_t *dst, const uint8_t *mask, uint32_t opacity, intptr_t n,
                            const uint32_t *table, int kind,
                            float u0, float v0, float w0, float mu, float mv, float mw,
                            int32_t before, int32_t after);
/// fbk_gradient_over_avx2 built for AVX-512VL/BW (same operations, same bytes; more
/// registers); runs the AVX2 build on a CPU without AVX-512VL/BW. Callers check
/// fbk_cpu_has_avx2().
void fbk_gradient_over_avx512vl(uint32_t *dst, const uint8_t *mask, uint32_t opacity, intptr_t n,
                                const uint32_t *table, int kind,
                                float u0, float v0, float w0, float mu, float mv, float mw,
                                int32_t before, int32_t after);
/// fbk_gradient_over_avx2 (`wide` = 0) or fbk_gradient_over_avx512vl (`wide` = 1) with
/// occlusion: the 8 pixels i ... i + 7 of a full block are left as they are when both 8-pixel
/// frame blocks holding them (block b: frame columns 8b ... 8b + 7) have `owner[b] > rank` — a
/// later draw paints them opaquely. `ox` is the frame column of pixel 0; `owner` the row's block
/// owners (NULL: nothing skipped). Every pixel that is painted gets the bytes of the plain call.
void fbk_gradient_over_occluded(uint32_t *dst, const uint8_t *mask, uint32_t opacity, intptr_t n,
                                const uint32_t *table, int kind,
                                float u0, float v0, float w0, float mu, float mv, float mw,
                                int32_t before, int32_t after,
                                const uint16_t *owner, intptr_t ox, uint32_t rank, int wide);
/// Rows `y ... y + nrows - 1` of one gradient draw in one call (the rasterizer's dense rows):
/// row i is `counts[i]` pixels (none when 0) from column `x + starts[i]`, at
/// `dst + i*dstStride + starts[i]` with coverage at `coverage + i*coverageStride + starts[i]`.
/// Each row is fbk_gradient_over_occluded with its start computed as GradientPaint.rowStart
/// does (`m` row-major 3x3, the pixel centre (x0 + 0.5, y + 0.5), the same Float operations in
/// the same order): the same bytes as one call per row. `owner` (NULL: no occlusion) is the
/// band's block owners from row `y0`, `blocks` per row, `rowMax` each row's largest owner.
void fbk_gradient_over_rows(uint32_t *dst, intptr_t dstStride, intptr_t nrows, intptr_t y, intptr_t x,
                            const intptr_t *starts, const intptr_t *counts,
                            const uint8_t *coverage, intptr_t coverageStride, uint32_t opacity,
                            const uint32_t *table, int kind, const float *m, int32_t before, int32_t after,
                            const uint16_t *owner, const uint16_t *rowMax, intptr_t blocks, intptr_t y0,
                            uint32_t rank, int wide);


/// One subpath of a stroke's centre line (FlipbookRaster `_OverlapGeometry.subs`): its first
/// point, point count, whether it is closed, and its length.
typedef struct {
    int64_t start, count, closed;
    double length;
} fbk_overlap_sub;

/// A stroke's centre lines in device space (`_OverlapGeometry`): points as (x, y) pairs, per
/// point its arc length, subpath and corner flag (0 / 1), and the subpaths.
typedef struct {
    const double *p;
    const double *arc;
    const int32_t *sub;
    const uint8_t *corner;
    const fbk_overlap_sub *subs;
} fbk_overlap_geometry;

/// A piece of a stroke's centre line (`_OverlapGeometry.pieces`): its subpath, segments
/// k0 ..< k1 (global point indices), and box (min x, min y, max x, max y).
typedef struct {
    int64_t sub, k0, k1;
    double box[4];
} fbk_overlap_piece;

/// `_OverlapGeometry.maxPairTests` and `maxCrossings`: the budgets of one stroke's search.
#define FBK_OVERLAP_MAX_PAIR_TESTS (1 << 22)
#define FBK_OVERLAP_MAX_CROSSINGS (1 << 14)

/// The crossings of a stroke's centre lines, as `_OverlapGeometry.corrections` finds them (the
/// sweep over the pieces' boxes sorted by x, the same tests and budgets, in the same order):
/// (ka, kb) pairs written to `pairs` (room for 2 * FBK_OVERLAP_MAX_CROSSINGS), their count
/// returned. `keys` (n) and `boxes` (4n) are scratch.
intptr_t fbk_overlap_crossings(const fbk_overlap_geometry *geometry, const fbk_overlap_piece *pieces, intptr_t n,
                               double h, int64_t *keys, double *boxes, int64_t *pairs);

/// The corrections of the crossing of centre-line segments ka and kb of a stroke of half-width
/// h (StrokeOverlap.swift's `crossing`, the reference, with the maths): (x, y, value) triples
/// written to `out` (room for 4 * 49), their count returned. `lanes` 1: each pixel's nearest
/// segments found with AVX-512 (the caller checks fbk_cpu_has_lane_walk()); the same result.
intptr_t fbk_overlap_crossing(const fbk_overlap_geometry *geometry, intptr_t ka, intptr_t kb, double h, double sign,
                              int lanes, int32_t *out);

#ifdef __cplusplus
}
#endif
#endif
