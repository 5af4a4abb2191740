/*
 * exec/gridio: a grid this rank holds as the h5 module describes it, and a grid created
 * from a file entry. Shared by vsave/vload (iocmd.c) and checkpoints (ckpt.c).
 */
#ifndef PV_EXEC_GRIDIO_H
#define PV_EXEC_GRIDIO_H

#include "exec_int.h"

#include "pvox/grid.h"
#include "pvox/h5.h"

/* The h5 module's description of a grid this rank holds (borrows g's name and slab). */
pv_h5_grid pv_io_grid_desc(const pv_grid *g);
/* Create the grid of entry e (memory check, its ranges) and read this rank's slab from f.
 * Collective. NULL on failure with the agreed error recorded (no source location);
 * `stats` may be NULL. */
pv_grid *pv_io_read_grid(pv_interp *I, pv_h5_file *f, const pv_h5_entry *e,
                         pv_h5_stats *stats);

#endif
