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

/* Steep lines (|dx| <= dy): the arguments of fbk_walk_rows. */
typedef struct {
    int64_t xa[8], ya[8], dx[8], dy[8], dir[8], adx[8], xs[8], top[8], xe[8], bot[8], w[8];
    int n;
} fbk_rows_lanes;

/* Flat lines (|dx| > dy): the arguments of fbk_walk_columns. */
typedef struct {
    int64_t xa[8], ya[8], dx[8], dy[8], dir[8], adx[8], xs[8], top[8], xe[8], bot[8], cl[8], w[8];
    int n;
} fbk_columns_lanes;

/* Walk the queued lines (1 <= n <= 8) into the cells and empty the queue. AVX-512 F, BW, DQ
 * and VL: callers check fbk_cpu_lane_walk(). */
void fbk_walk_rows_lanes_avx512(const fbk_cells *cells, fbk_rows_lanes *q);
void fbk_walk_columns_lanes_avx512(const fbk_cells *cells, fbk_columns_lanes *q);

#endif
