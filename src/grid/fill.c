/*
 * vfill / vgfill kernel (gnuplot-voxel.md §5.2 and §5.4).
 *
 * For each source in file order: centre node C by the ceil rule (sources outside the grid
 * are skipped), a brick of half-width floor(r/delta) per axis (floor(r) in grid units for
 * vgfill) around C, clipped to the grid; every node of the brick within distance r, and C
 * always, receives value(VoxelDistance) added to its float.
 *
 * Parallel shape: sources are binned by the planes of this rank's slab that their brick
 * meets (CSR lists in file order); OpenMP threads take whole planes, so no two threads
 * touch one voxel and each voxel receives its sources in file order: the grid is
 * bit-identical for any rank and thread count. Inside a plane, the nodes a source updates
 * are gathered into batches of lanes and the value expression is evaluated once per batch
 * (the caller's vector VM), never once per voxel.
 */
#include "pvox/grid.h"

#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#define FILL_LANES PV_FILL_MAX_LANES /* lanes per batch: its 4 arrays stay in L1/L2 */

typedef struct brick {
    int64_t c[3];   /* centre node */
    int64_t lo[3];  /* first node of the brick, clipped */
    int64_t hi[3];  /* last node of the brick, clipped (hi < lo: empty) */
    bool used;      /* the point lies inside the grid */
} brick;

static void make_brick(const pv_grid *g, const pv_fill_source *s, bool grid_units, brick *b)
{
    b->used = pv_grid_index(g, s->x, s->y, s->z, b->c);
    if (!b->used)
        return;
    for (int a = 0; a < 3; a++) {
        double hw = grid_units ? floor(s->radius) : floor(s->radius / g->delta[a]);
        /* Negative radius: empty brick (gnuplot modifies nothing, not even C). */
        if (!(hw >= 0)) {
            b->lo[a] = 1;
            b->hi[a] = 0;
            continue;
        }
        double lo = (double)b->c[a] - hw, hi = (double)b->c[a] + hw;
        b->lo[a] = lo < 0 ? 0 : (int64_t)lo;
        b->hi[a] = hi > (double)(g->n - 1) ? g->n - 1 : (int64_t)hi;
    }
}

typedef struct lanes {
    double dist[FILL_LANES];   /* VoxelDistance */
    double gdist[FILL_LANES];  /* GridDistance */
    double val[FILL_LANES];    /* evaluated values */
    size_t idx[FILL_LANES];    /* local voxel index */
    size_t n;
} lanes;

static void flush(lanes *L, float *data, pv_fill_eval_fn eval, void *ud, int tid, size_t src)
{
    if (L->n == 0)
        return;
    eval(ud, tid, src, L->n, L->dist, L->gdist, L->val);
    for (size_t k = 0; k < L->n; k++) {
        /* gnuplot adds the double value to the float voxel: sum in double, round once. */
        data[L->idx[k]] = (float)((double)data[L->idx[k]] + L->val[k]);
    }
    L->n = 0;
}

/* The nodes of one source's brick in plane iz; returns how many were updated, and raises
 * *last_in_plane to the largest ix*n+iy updated (with its distance).
 *
 * Each row segment is done in two passes the compiler can vectorise: distances for the
 * whole segment, then either the whole segment (every node inside the sphere: the common
 * case for large radii) or the nodes that pass the sphere test are kept as lanes. The
 * distance is computed as ((dx*dx + dy*dy) + dz*dz) in that order for every node, so it
 * is the same double whichever path keeps it. */
static int64_t fill_plane(const pv_grid *g, const pv_fill_source *s, const brick *b,
                          unsigned flags, int64_t iz, lanes *L, float *data,
                          pv_fill_eval_fn eval, void *ud, int tid, size_t src,
                          int64_t *last_in_plane, double *last_dist)
{
    const int64_t n = g->n;
    const double r = s->radius;
    const bool grid_units = flags & PV_FILL_GRID_UNITS;
    const bool need_g = grid_units || (flags & PV_FILL_NEED_GRIDDIST);
    /* Fractional grid position of the point, for GridDistance. */
    const double gp[3] = {(s->x - g->min[0]) / g->delta[0], (s->y - g->min[1]) / g->delta[1],
                          (s->z - g->min[2]) / g->delta[2]};
    const double vz = g->min[2] + (double)iz * g->delta[2];
    const double dz = vz - s->z, gz = (double)iz - gp[2];
    const double xmin = g->min[0], dxd = g->delta[0], sx = s->x;
    int64_t count = 0;
    for (int64_t iy = b->lo[1]; iy <= b->hi[1]; iy++) {
        const double vy = g->min[1] + (double)iy * g->delta[1];
        const double dy = vy - s->y, gy = (double)iy - gp[1];
        const size_t row = pv_grid_local_index(g, 0, iy, iz);
        const bool centre_row = iy == b->c[1] && iz == b->c[2];
        for (int64_t x0 = b->lo[0]; x0 <= b->hi[0]; x0 += FILL_LANES) {
            int64_t x1 = x0 + FILL_LANES - 1 < b->hi[0] ? x0 + FILL_LANES - 1 : b->hi[0];
            size_t len = (size_t)(x1 - x0 + 1);
            if (L->n + len > FILL_LANES)
                flush(L, data, eval, ud, tid, src);
            size_t base = L->n;
            double *restrict dist = L->dist + base;
            double *restrict gdist = L->gdist + base;
            double dmax = 0;
            for (size_t k = 0; k < len; k++) {
                double dx = (xmin + (double)(x0 + (int64_t)k) * dxd) - sx;
                double d = sqrt(dx * dx + dy * dy + dz * dz);
                dist[k] = d;
                dmax = d > dmax ? d : dmax;
            }
            if (need_g)
                for (size_t k = 0; k < len; k++) {
                    double gx = (double)(x0 + (int64_t)k) - gp[0];
                    gdist[k] = sqrt(gx * gx + gy * gy + gz * gz);
                }
            size_t kept;
            int64_t last_ix;
            double last_d;
            if (!grid_units && dmax <= r) {
                /* the whole segment is inside the sphere */
                for (size_t k = 0; k < len; k++)
                    L->idx[base + k] = row + (size_t)(x0 + (int64_t)k);
                kept = len;
                last_ix = x1;
                last_d = dist[len - 1];
            } else {
                kept = 0;
                last_ix = -1;
                last_d = 0;
                for (size_t k = 0; k < len; k++) {
                    int64_t ix = x0 + (int64_t)k;
                    double test = grid_units ? gdist[k] : dist[k];
                    if (!(test <= r) && !(centre_row && ix == b->c[0]))
                        continue;
                    dist[kept] = dist[k];
                    gdist[kept] = gdist[k];
                    L->idx[base + kept] = row + (size_t)ix;
                    kept++;
                    last_ix = ix;
                    last_d = dist[k];
                }
            }
            L->n += kept;
            count += (int64_t)kept;
            /* gnuplot's loop runs x outermost, then y, then z (its VoxelDistance after a
             * fill is the distance of the update with the largest (x, y, z)). */
            if (kept && last_ix * n + iy > *last_in_plane) {
                *last_in_plane = last_ix * n + iy;
                *last_dist = last_d;
            }
        }
    }
    return count;
}

pv_status pv_grid_fill(pv_ctx *ctx, pv_grid *g, const pv_fill_source *src, size_t nsrc,
                       unsigned flags, pv_fill_eval_fn eval, void *ud, pv_fill_result *res)
{
    const bool grid_units = flags & PV_FILL_GRID_UNITS;
    memset(res, 0, sizeof *res);
    int64_t nplanes = g->z1 - g->z0;
    brick *bricks = malloc((nsrc ? nsrc : 1) * sizeof *bricks);
    size_t *start = calloc((size_t)nplanes + 2, sizeof *start);
    size_t *list = NULL;
    pv_status st = (bricks && start) ? PV_OK : pv_err(ctx, PV_ENOMEM, "out of memory");
    /* ---- bin sources by local plane, in file order (CSR) ---- */
    size_t total = 0;
    if (st == PV_OK) {
        for (size_t s = 0; s < nsrc; s++) {
            make_brick(g, &src[s], grid_units, &bricks[s]);
            if (!bricks[s].used)
                continue;
            res->points_used++;
            int64_t lo = bricks[s].lo[2] > g->z0 ? bricks[s].lo[2] : g->z0;
            int64_t hi = bricks[s].hi[2] < g->z1 - 1 ? bricks[s].hi[2] : g->z1 - 1;
            for (int64_t iz = lo; iz <= hi; iz++)
                start[iz - g->z0 + 1]++;
        }
        for (int64_t p = 0; p < nplanes; p++)
            start[p + 1] += start[p];
        total = start[nplanes];
        list = malloc((total ? total : 1) * sizeof *list);
        if (!list)
            st = pv_err(ctx, PV_ENOMEM, "out of memory");
    }
    if (st == PV_OK) {
        size_t *fillpos = calloc((size_t)nplanes + 1, sizeof *fillpos);
        if (!fillpos) {
            st = pv_err(ctx, PV_ENOMEM, "out of memory");
        } else {
            for (size_t s = 0; s < nsrc; s++) {
                if (!bricks[s].used)
                    continue;
                int64_t lo = bricks[s].lo[2] > g->z0 ? bricks[s].lo[2] : g->z0;
                int64_t hi = bricks[s].hi[2] < g->z1 - 1 ? bricks[s].hi[2] : g->z1 - 1;
                for (int64_t iz = lo; iz <= hi; iz++) {
                    size_t p = (size_t)(iz - g->z0);
                    list[start[p] + fillpos[p]++] = s;
                }
            }
            free(fillpos);
        }
    }
    if (pv_status_agree(ctx, st) != PV_OK) {
        free(bricks);
        free(start);
        free(list);
        return PV_ENOMEM;
    }
    /* ---- per-plane work: threads own whole planes ---- */
    int nthreads = omp_get_max_threads();
    lanes *L = malloc((size_t)nthreads * sizeof *L);
    /* Last update per plane: (source, ix*n+iy) so the global last one in gnuplot's loop
     * order (sources in file order, then x, y, z) can be found afterwards. */
    int64_t *last_src = malloc(((size_t)nplanes + 1) * sizeof *last_src);
    int64_t *last_pos = malloc(((size_t)nplanes + 1) * sizeof *last_pos);
    double *last_d = malloc(((size_t)nplanes + 1) * sizeof *last_d);
    st = (L && last_src && last_pos && last_d) ? PV_OK : pv_err(ctx, PV_ENOMEM, "out of memory");
    int64_t modified = 0;
    if (st == PV_OK) {
        float *data = g->data;
#pragma omp parallel default(none) \
    shared(g, src, bricks, start, list, nplanes, L, data, eval, ud, flags, last_src, \
           last_pos, last_d) reduction(+ : modified)
        {
            int tid = omp_get_thread_num();
            lanes *my = &L[tid];
            my->n = 0;
#pragma omp for schedule(dynamic, 1)
            for (int64_t p = 0; p < nplanes; p++) {
                int64_t iz = g->z0 + p;
                last_src[p] = -1;
                for (size_t k = start[p]; k < start[p + 1]; k++) {
                    size_t s = list[k];
                    int64_t lp = -1; /* largest ix*n+iy updated in this plane */
                    double ld = 0;
                    int64_t c = fill_plane(g, &src[s], &bricks[s], flags, iz, my, data,
                                           eval, ud, tid, s, &lp, &ld);
                    flush(my, data, eval, ud, tid, s);
                    modified += c;
                    if (c > 0) {
                        last_src[p] = (int64_t)s;
                        last_pos[p] = lp;
                        last_d[p] = ld;
                    }
                }
            }
        }
    }
    st = pv_status_agree(ctx, st);
    if (st == PV_OK) {
        /* Global last update: highest source index, then highest (x, y, z). */
        int64_t key[2] = {-1, -1};
        double dist = 0;
        for (int64_t p = 0; p < nplanes; p++) {
            if (last_src[p] < 0)
                continue;
            int64_t k1 = last_pos[p] * g->n + (g->z0 + p);
            if (last_src[p] > key[0] || (last_src[p] == key[0] && k1 > key[1])) {
                key[0] = last_src[p];
                key[1] = k1;
                dist = last_d[p];
            }
        }
        int64_t gsrc = -1;
        MPI_Allreduce(&key[0], &gsrc, 1, MPI_INT64_T, MPI_MAX, ctx->comm);
        int64_t mypos = key[0] == gsrc ? key[1] : -1, gpos = -1;
        MPI_Allreduce(&mypos, &gpos, 1, MPI_INT64_T, MPI_MAX, ctx->comm);
        double mine = (gsrc >= 0 && mypos == gpos) ? dist : -HUGE_VAL;
        MPI_Allreduce(&mine, &res->last_distance, 1, MPI_DOUBLE, MPI_MAX, ctx->comm);
        if (gsrc < 0)
            res->last_distance = 0;
        MPI_Allreduce(&modified, &res->voxels_modified, 1, MPI_INT64_T, MPI_SUM, ctx->comm);
    }
    free(L);
    free(last_src);
    free(last_pos);
    free(last_d);
    free(bricks);
    free(start);
    free(list);
    return st;
}
