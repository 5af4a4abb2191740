/*
 * exec/gridset: the table of voxel grids of an interpreter (GP-1 to GP-5) and the
 * voxel() function that reads them. The table is identical on every rank (SPMD); only the
 * voxels are distributed (grid/). A leaf of exec: it calls util.c only.
 */
#ifndef PV_EXEC_GRIDSET_H
#define PV_EXEC_GRIDSET_H

#include "exec_int.h"
#include "pvox/grid.h"

typedef struct pv_gridset pv_gridset;

/* Create the grid table, register voxel() and create VoxelDistance. */
pv_gridset *pv_gridset_create(pv_interp *I);
void pv_gridset_destroy(pv_interp *I, pv_gridset *gs);
/* `reset session`: drop every grid and pending range, recreate VoxelDistance. */
void pv_gridset_reset(pv_interp *I);
/* `undefine $name`, `unset vgrid`: destroy that grid and drop it from the table (if it
 * was active, none is then); true if it existed. */
bool pv_gridset_undefine(pv_interp *I, const char *name);
/* A fill kernel is running (expressions are evaluated per voxel, no collectives). */
bool pv_gridset_filling(const pv_interp *I);
/* The grid named `name`, or NULL. */
pv_grid *pv_gridset_find(pv_interp *I, const char *name);
/* Grids in creation order: count and k-th. */
size_t pv_gridset_count(pv_interp *I);
pv_grid *pv_gridset_at(pv_interp *I, size_t k);
/* The active grid (the one `set vgrid` named last), or NULL. */
pv_grid *pv_gridset_active(pv_interp *I);
/* Make the grid named `name` the active one; false if there is none. */
bool pv_gridset_activate(pv_interp *I, const char *name);
/* Take ownership of g (from pv_grid_create): it replaces a grid of the same name (in
 * that grid's place) or is appended; it becomes the active grid if make_active. On
 * failure (out of memory) g is destroyed. */
pv_status pv_gridset_adopt(pv_interp *I, pv_grid *g, bool make_active);

/* `set vxrange` with no grid yet (DEC-2): the range waits for the next new grid. */
void pv_gridset_pend_range(pv_interp *I, int axis, double lo, double hi);
/* Give g the waiting ranges (and forget them). */
void pv_gridset_take_pending(pv_interp *I, pv_grid *g);
/* First use of g: axes without a range take the fixed x/y/z plot range (GP-2), else a
 * located error at `off`. */
pv_status pv_gridset_ensure_ranges(pv_interp *I, pv_grid *g, pv_cursor *c, size_t off);

/* A fill kernel runs between begin and end: voxel() must not be collective there (it
 * answers undefined and is noted). End returns whether the fill's value called it. */
void pv_gridset_fill_begin(pv_interp *I);
bool pv_gridset_fill_end(pv_interp *I);
/* Set VoxelDistance (after a fill: the last distance; 0 initially). */
void pv_gridset_set_distance(pv_interp *I, double vd);

/* Batched voxel() reads (ARCH-1): evaluate a plot element's rows once with voxel()
 * recording its points (answering 0), fetch every recorded point in one collective
 * exchange, then evaluate the rows again with voxel() answering from the batch. A call
 * that differs from the recording (a value took another branch) reads directly,
 * collectively. *batched is false when nothing was recorded or the calls read different
 * grids: then evaluate normally. Collective. */
void pv_gridset_batch_begin(pv_interp *I);
pv_status pv_gridset_batch_fetch(pv_interp *I, bool *batched);
void pv_gridset_batch_end(pv_interp *I);

/* The same for a split evaluation (each rank evaluates its own rows, plot_split.c): the
 * ranks record different points; pv_gridset_batch_fetch_split answers each rank's own
 * (collective; *ok false on every rank when the calls read different grids). voxel()
 * then never reads collectively: a call that differs from the recording answers NaN and
 * is noted, pv_gridset_batch_diverged tells (this rank only), and the caller evaluates
 * again without splitting. */
void pv_gridset_batch_begin_split(pv_interp *I);
pv_status pv_gridset_batch_fetch_split(pv_interp *I, bool *ok);
bool pv_gridset_batch_diverged(pv_interp *I);

#endif
