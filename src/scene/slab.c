/*
 * scene/slab: which world-z slab a rank draws, and clipping polygons to it.
 */
#include "pvox/scene.h"

#include <math.h>

void pv_scene_slab(const pv_grid *g, double zmin, double zmax, int nranks, int rank,
                   double *zlo, double *zhi)
{
    double lo, hi;
    if (g && pv_grid_has_ranges(g)) {
        int64_t a0, a1;
        pv_decomp_slab(g->n, nranks, rank, &a0, &a1);
        /* the boundary between two ranks: the node of the upper rank's first plane */
        lo = g->min[2] + (double)a0 * g->delta[2];
        hi = g->min[2] + (double)a1 * g->delta[2];
        if (a1 == a0) /* a rank without planes draws nothing */
            hi = lo;
    } else {
        lo = zmin + (zmax - zmin) * rank / nranks;
        hi = zmin + (zmax - zmin) * (rank + 1) / nranks;
    }
    *zlo = rank == 0 ? -HUGE_VAL : lo;
    *zhi = rank == nranks - 1 ? HUGE_VAL : hi;
    if (rank == nranks - 1 && rank > 0 && g && pv_grid_has_ranges(g)) {
        int64_t a0, a1;
        pv_decomp_slab(g->n, nranks, rank, &a0, &a1);
        if (a1 == a0)
            *zlo = *zhi = HUGE_VAL; /* empty last rank: nothing (the previous one is open) */
    }
}

