/*
 * Private to the grid module (and its tests).
 */
#ifndef PVOX_GRID_INT_H
#define PVOX_GRID_INT_H

#include "pvox/grid.h"

/* Floats per message of the ghost exchange: 2^28 floats is 1 GiB, below the 2^31-byte
 * message limit of STYLE-8 and far below INT_MAX elements. */
#define PV_GHOST_CHUNK ((size_t)1 << 28)

/* pv_grid_ghost_upper with the plane sent in messages of at most `chunk` floats (chunk >= 1;
 * the same value on every rank). Tests use a small chunk to exercise the split. */
pv_status pv_grid_ghost_upper_chunked(pv_ctx *ctx, const pv_grid *g, float *buf, bool *has,
                                      size_t chunk);

#endif /* PVOX_GRID_INT_H */
