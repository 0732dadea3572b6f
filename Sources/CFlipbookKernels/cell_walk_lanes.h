/*
 * cell_walk_lanes.h -- private to cell_walk.c and cell_walk_avx512.c: the queues of the lane
 * walks. fbk_add_contours queues each line that lies inside the clip's columns (the walks'
 * fast path) with the state the scalar walk starts from; eight lines are then walked at once,
 * one per 64-bit lane (cell_walk_avx512.c), with the same integers as fbk_walk_rows /
 * fbk_walk_columns, so the cells are the same.
 */
#ifndef FBK_CELL_WALK_LANES_H
#define FBK_CELL_WALK_LANES_H
#include "flipbook_kernels.h"

/* The lane walks' divisions go through doubles (exact below 2^52): lines whose extents are
 * below 2^22 sub-pixels (16,384 px) on both axes are queued; longer ones are walked at once
 * by the scalar code (their products exceed that bound). */
#define FBK_LANE_EXTENT (1ll << 22)
/* A queue holding fewer lines than this when its shape ends is walked by the scalar code: a
 * lane walk runs as many steps as its longest line, and with one or two lines (a rotated
 * image's sides, 32 rows each) that costs more than walking them one by one (W6a's lines
 * 2-4x slower; 5 measured best on W6a, W6b and W7). */
#define FBK_LANE_MIN 5

/* Steep lines (|dx| <= dy): the arguments of fbk_walk_rows. Room for 16: the vector set-up
 * appends up to 8 lines at once to a queue holding at most 7. */
typedef struct {
    int64_t xa[16], ya[16], dx[16], dy[16], dir[16], adx[16], xs[16], top[16], xe[16], bot[16], w[16];
    int n;
} fbk_rows_lanes;

/* Flat lines (|dx| > dy): the arguments of fbk_walk_columns (cl: the last column). */
typedef struct {
    int64_t xa[16], ya[16], dx[16], dy[16], dir[16], adx[16], xs[16], top[16], xe[16], bot[16], cl[16], w[16];
    int n;
} fbk_columns_lanes;

/* Walk the first min(n, 8) queued lines (n >= 1) into the cells; the rest move to the front.
 * AVX-512 F, BW, DQ and VL: callers check fbk_cpu_has_lane_walk(). */
void fbk_walk_rows_lanes_avx512(const fbk_cells *cells, fbk_rows_lanes *q);
void fbk_walk_columns_lanes_avx512(const fbk_cells *cells, fbk_columns_lanes *q);

/* fbk_add_contours' loop with the lanes: each run of 8 edges of a contour set up at once
 * (filtered against the rows, oriented, cut to them, sorted steep / flat and appended to the
 * queues); the edges that need the scalar code's care (left of, or reaching outside, the
 * clip's columns; vertical; too long) and each contour's last edges through fbk_line_lanes. */
void fbk_add_contours_lanes_avx512(const fbk_cells *cells, const int32_t *points, const int32_t *ends,
                                   intptr_t contours, fbk_rows_lanes *rq, fbk_columns_lanes *cq);

/* One line as fbk_add_contours_with(lanes: 1) takes it (cell_walk.c). */
void fbk_line_lanes(const fbk_cells *cells, int64_t x0, int64_t y0, int64_t x1, int64_t y1,
                    fbk_rows_lanes *rq, fbk_columns_lanes *cq);

#endif
