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


/* One Sutherland-Hodgman pass: keep z >= b (above) or z <= b. */
static int clip_pass(const double (*in)[3], int n, double b, bool above, double (*out)[3])
{
    int m = 0;
    for (int i = 0; i < n; i++) {
        const double *p = in[i], *q = in[(i + 1) % n];
        bool pin = above ? p[2] >= b : p[2] <= b, qin = above ? q[2] >= b : q[2] <= b;
        if (pin) {
            out[m][0] = p[0], out[m][1] = p[1], out[m][2] = p[2];
            m++;
        }
        if (pin != qin) {
            double t = (b - p[2]) / (q[2] - p[2]);
            out[m][0] = p[0] + t * (q[0] - p[0]);
            out[m][1] = p[1] + t * (q[1] - p[1]);
            out[m][2] = b;
            m++;
        }
    }
    return m;
}

int pv_scene_clip_z(const double (*in)[3], int n, double zmin, double zmax, double (*out)[3])
{
    double mid[8][3];
    if (n < 3 || n > 6)
        return 0;
    int m = clip_pass(in, n, zmin, true, mid);
    return m < 3 ? 0 : clip_pass((const double(*)[3])mid, m, zmax, false, out);
}
