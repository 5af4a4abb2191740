/*
 * vfill kernel at any rank and thread count: every voxel must equal, bit for bit, a naive
 * serial reference written independently here (whole brick scan per source, file order),
 * and the counts must match gnuplot's (GP-5.2: radius 1 → 7 voxels, sqrt(2) → 19,
 * point at 5.3 with radius 1.5 → nodes 5 and 6 only).
 */
#include "pv_test.h"
#include "pvox/grid.h"

#include <math.h>
#include <omp.h>
#include <stdlib.h>

typedef struct dip { const double *charge; } dip;

/* value = q / VoxelDistance or 1e6·q at distance 0 (the article's dipole potential) */
static void eval_dipole(void *ud, int tid, const size_t *src, size_t step, size_t n,
                        const double *dist,
                        const double *gdist, double *out)
{
    (void)tid;
    (void)gdist;
    const dip *d = ud;
    for (size_t k = 0; k < n; k++)
        out[k] = d->charge[src[k * step]] * (dist[k] > 0 ? 1 / dist[k] : 1e6);
}

static void eval_one(void *ud, int tid, const size_t *src, size_t step, size_t n,
                        const double *dist,
                     const double *gdist, double *out)
{
    (void)ud, (void)tid, (void)src, (void)step, (void)dist, (void)gdist;
    for (size_t k = 0; k < n; k++)
        out[k] = 1;
}

/* Naive reference over the full grid, same arithmetic order per voxel. */
static void reference(int64_t n, const double *mn, const double *dl, const pv_fill_source *s,
                      size_t ns, const double *charge, float *ref)
{
    for (size_t k = 0; k < (size_t)(n * n * n); k++)
        ref[k] = 0;
    for (size_t q = 0; q < ns; q++) {
        int64_t c[3] = {0, 0, 0};
        double p[3] = {s[q].x, s[q].y, s[q].z};
        bool in = true;
        for (int a = 0; a < 3; a++) {
            double mx = mn[a] + dl[a] * (double)(n - 1);
            if (!(p[a] >= mn[a] && p[a] <= mx)) in = false;
            else c[a] = (int64_t)ceil((p[a] - mn[a]) / dl[a]);
        }
        if (!in) continue;
        for (int64_t iz = 0; iz < n; iz++)
            for (int64_t iy = 0; iy < n; iy++)
                for (int64_t ix = 0; ix < n; ix++) {
                    int64_t ii[3] = {ix, iy, iz};
                    bool inbrick = true;
                    for (int a = 0; a < 3; a++) {
                        double hw = floor(s[q].radius / dl[a]);
                        if (!(hw >= 0) || llabs(ii[a] - c[a]) > (long long)hw) inbrick = false;
                    }
                    if (!inbrick) continue;
                    double dx = (mn[0] + (double)ix * dl[0]) - p[0];
                    double dy = (mn[1] + (double)iy * dl[1]) - p[1];
                    double dz = (mn[2] + (double)iz * dl[2]) - p[2];
                    double d = sqrt(dx * dx + dy * dy + dz * dz);
                    bool centre = ix == c[0] && iy == c[1] && iz == c[2];
                    if (!(d <= s[q].radius) && !centre) continue;
                    size_t k = (size_t)((iz * n + iy) * n + ix);
                    ref[k] = (float)((double)ref[k] + charge[q] * (d > 0 ? 1 / d : 1e6));
                }
    }
}

static int64_t count_nonzero(pv_ctx *ctx, pv_grid *g)
{
    pv_grid_stats st;
    pv_grid_stats_compute(ctx, g, &st);
    return st.ntotal - st.nzero;
}

int main(int argc, char **argv)
{
    int prov;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &prov);
    pv_options opt = {0};
    opt.log_level = PV_LOG_WARN;
    pv_ctx *ctx = pv_ctx_create(MPI_COMM_WORLD, &opt);

    /* ---- GP-5.2 counts on an 11^3 grid [0:10] ---- */
    pv_grid *g = pv_grid_create(ctx, "$g", 11);
    PV_CHECK(g != NULL);
    for (int a = 0; a < 3; a++) pv_grid_set_range(g, a, 0, 10);
    pv_fill_source pt = {5, 5, 5, 1};
    pv_fill_result res;
    PV_CHECK(pv_grid_fill(ctx, g, &pt, 1, 0u, eval_one, NULL, &res) == PV_OK);
    PV_CHECK_EQ(res.voxels_modified, 7);
    PV_CHECK_EQ(count_nonzero(ctx, g), 7);
    pv_grid_clear(ctx, g);
    pt.radius = sqrt(2.0);
    pv_grid_fill(ctx, g, &pt, 1, 0u, eval_one, NULL, &res);
    PV_CHECK_EQ(res.voxels_modified, 19);
    pv_grid_clear(ctx, g);
    pv_fill_source pt2 = {5.3, 5, 5, 1.5};
    pv_grid_fill(ctx, g, &pt2, 1, 0u, eval_one, NULL, &res);
    PV_CHECK_EQ(res.voxels_modified, 14); /* gnuplot: "number of voxels modified: 14" */
    double v5, v6, v4;
    pv_grid_read(ctx, g, 5, 5, 5, &v5);
    pv_grid_read(ctx, g, 6, 5, 5, &v6);
    pv_grid_read(ctx, g, 4, 5, 5, &v4);
    PV_CHECK(v5 == 1 && v6 == 1 && v4 == 0); /* node 4 is within 1.5 but outside the brick */
    PV_CHECK_NEAR(res.last_distance, 1.22065556157337, 1e-14); /* gnuplot's VoxelDistance */
    pv_grid_clear(ctx, g);
    pv_fill_source outside = {10.5, 5, 5, 3};
    pv_grid_fill(ctx, g, &outside, 1, 0u, eval_one, NULL, &res);
    PV_CHECK_EQ(res.points_used, 0);
    PV_CHECK_EQ(res.voxels_modified, 0);
    pv_fill_source neg = {5, 5, 5, -1};
    pv_grid_fill(ctx, g, &neg, 1, 0u, eval_one, NULL, &res);
    PV_CHECK_EQ(res.voxels_modified, 0);
    pv_grid_destroy(ctx, g);

    /* ---- dipole plus scattered sources, unequal ranges, 1 and 2 threads ---- */
    const int64_t n = 23;
    pv_fill_source src[40];
    double charge[40];
    src[0] = (pv_fill_source){0, 0, 0.75, 2};
    src[1] = (pv_fill_source){0, 0, 0.25, 2};
    charge[0] = 1;
    charge[1] = -1;
    unsigned seed = 12345;
    for (int k = 2; k < 40; k++) {
        seed = seed * 1103515245u + 12345u;
        double u = (seed >> 8) / 16777216.0;
        src[k] = (pv_fill_source){u * 2 - 0.2, 1 - u * 0.9, u * 1.3, 0.05 + 0.3 * u};
        charge[k] = (k % 3) - 1.25;
    }
    double mn[3] = {0, -0.5, 0}, mx[3] = {2, 1, 1};
    double dl[3];
    for (int a = 0; a < 3; a++) dl[a] = (mx[a] - mn[a]) / (double)(n - 1);
    float *ref = malloc(sizeof(float) * (size_t)(n * n * n));
    reference(n, mn, dl, src, 40, charge, ref);
    for (int threads = 1; threads <= 2; threads++) {
        omp_set_num_threads(threads);
        pv_grid *h = pv_grid_create(ctx, "$h", n);
        for (int a = 0; a < 3; a++) pv_grid_set_range(h, a, mn[a], mx[a]);
        dip ud = {charge};
        PV_CHECK(pv_grid_fill(ctx, h, src, 40, 0u, eval_dipole, &ud, &res) == PV_OK);
        int64_t bad = 0;
        for (int64_t iz = h->z0; iz < h->z1; iz++)
            for (int64_t iy = 0; iy < n; iy++)
                for (int64_t ix = 0; ix < n; ix++) {
                    float a = h->data[pv_grid_local_index(h, ix, iy, iz)];
                    float b = ref[(iz * n + iy) * n + ix];
                    if (memcmp(&a, &b, sizeof a) != 0) bad++;
                }
        PV_CHECK_EQ(bad, 0);
        /* batched reads agree with the reference on every rank */
        double xs[5] = {0, 0.5, 2, 1.1, 3}, ys[5] = {-0.5, 0, 1, 0.2, 0}, zs[5] = {0, 0.5, 1, 0.9, 0};
        double got[5];
        PV_CHECK(pv_grid_read_many(ctx, h, 5, xs, ys, zs, got) == PV_OK);
        for (int k = 0; k < 4; k++) {
            int64_t id[3];
            PV_CHECK(pv_grid_index(h, xs[k], ys[k], zs[k], id));
            PV_CHECK(got[k] == (double)ref[(id[2] * n + id[1]) * n + id[0]]);
        }
        PV_CHECK(isnan(got[4]));
        pv_grid_destroy(ctx, h);
    }
    free(ref);

    /* ---- the memory check refuses, on every rank, before allocating ---- */
    ctx->opt.max_memory = (size_t)64 << 20; /* 1024^3 floats need 4 GiB: 64+ ranks */
    pv_grid *big = pv_grid_create(ctx, "$big", 1024);
    PV_CHECK(big == NULL);
    PV_CHECK(ctx->err_code == PV_ENOMEM);
    PV_CHECK(ctx->err_msg && strstr(ctx->err_msg, "ranks") != NULL);
    pv_err_clear(ctx);

    int fails = pv_test_failures, all = 0;
    MPI_Allreduce(&fails, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    int rc = ctx->rank == 0 ? pv_test_result("grid_fill_mpi") : (all ? 1 : 0);
    pv_ctx_destroy(ctx);
    MPI_Finalize();
    return all ? 1 : rc;
}
