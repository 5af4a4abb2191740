/*
 * exec/gridcmd: the voxel-grid commands of the language (gnuplot-voxel.md §1–5):
 * set/unset/show vgrid, set vxrange/vyrange/vzrange, vclear, vfill, vgfill,
 * voxel(x,y,z) = expr, and the voxel() function. Grids live distributed (grid/); every
 * rank runs these commands with the same arguments (SPMD).
 */
#ifndef PV_EXEC_GRIDCMD_H
#define PV_EXEC_GRIDCMD_H

#include "exec_int.h"
#include "pvox/grid.h"

typedef struct pv_gridset pv_gridset;

/* Create the grid table, register voxel() and create VoxelDistance. */
pv_gridset *pv_gridset_create(pv_interp *I);
void pv_gridset_destroy(pv_interp *I, pv_gridset *gs);
/* `reset session`: drop every grid and pending range, recreate VoxelDistance. */
void pv_gridset_reset(pv_interp *I);
/* `undefine $name`: remove that grid if there is one; true if it existed. */
bool pv_gridset_undefine(pv_interp *I, const char *name);
/* The grid named `name`, or NULL. */
pv_grid *pv_gridset_find(pv_interp *I, const char *name);
/* Grids in creation order: count and k-th. */
size_t pv_gridset_count(pv_interp *I);
pv_grid *pv_gridset_at(pv_interp *I, size_t k);
/* The active grid (the one `set vgrid` named last), or NULL. */
pv_grid *pv_gridset_active(pv_interp *I);
/* Take ownership of g (from pv_grid_create): it replaces a grid of the same name (in
 * that grid's place) or is appended; it becomes the active grid if make_active. On
 * failure (out of memory) g is destroyed. */
pv_status pv_gridset_adopt(pv_interp *I, pv_grid *g, bool make_active);

/* Batched voxel() reads (ARCHITECTURE.md decision 1): evaluate a plot element's rows once
 * with voxel() recording its points (answering 0), fetch every recorded point in one
 * collective exchange, then evaluate the rows again with voxel() answering from the
 * batch. A call that differs from the recording (a value took another branch) reads
 * directly, collectively. *batched is false when nothing was recorded or the calls read
 * different grids: then evaluate normally. Collective. */
void pv_gridset_batch_begin(pv_interp *I);
pv_status pv_gridset_batch_fetch(pv_interp *I, bool *batched);
void pv_gridset_batch_end(pv_interp *I);

/* Statement handlers (cursor just after the command word, or at `voxel` for the
 * assignment). */
pv_status pv_cmd_set_vgrid(pv_interp *I, pv_cursor *c, bool exec);
pv_status pv_cmd_unset_vgrid(pv_interp *I, pv_cursor *c, bool exec);
pv_status pv_cmd_show_vgrid(pv_interp *I, pv_cursor *c, bool exec);
/* axis 0, 1, 2 for vxrange, vyrange, vzrange */
pv_status pv_cmd_set_vrange(pv_interp *I, pv_cursor *c, bool exec, int axis);
pv_status pv_cmd_vclear(pv_interp *I, pv_cursor *c, bool exec);
pv_status pv_cmd_vfill(pv_interp *I, pv_cursor *c, bool exec);
pv_status pv_cmd_vgfill(pv_interp *I, pv_cursor *c, bool exec);
/* True if the statement at c is `voxel ( ... ) = ...`. */
bool pv_is_voxel_assignment(const pv_cursor *c);
pv_status pv_cmd_voxel_assign(pv_interp *I, pv_cursor *c, bool exec);

#endif
