/*
 * exec/gridio.c: the glue between the grid table and the HDF5 files (gridio.h), shared
 * by vsave/vload (iocmd.c) and checkpoints (ckpt.c).
 */
#include "gridio.h"

#include <math.h>

pv_h5_grid pv_io_grid_desc(const pv_grid *g)
{
    return (pv_h5_grid){g->name, g->n, {g->min[0], g->min[1], g->min[2]},
                        {g->max[0], g->max[1], g->max[2]}, g->z0, g->z1, g->data};
}

pv_grid *pv_io_read_grid(pv_interp *I, pv_h5_file *f, const pv_h5_entry *e,
                         pv_h5_stats *stats)
{
    pv_grid *g = pv_grid_create(I->ctx, e->name, e->n);
    if (!g)
        return NULL;
    for (int ax = 0; ax < 3; ax++)
        if (!isnan(e->min[ax]) && !isnan(e->max[ax]))
            pv_grid_set_range(g, ax, e->min[ax], e->max[ax]);
    if (pv_h5_read(I->ctx, f, e->name, g->z0, g->z1, g->data, stats) != PV_OK) {
        pv_grid_destroy(I->ctx, g);
        return NULL;
    }
    g->version++;
    return g;
}
