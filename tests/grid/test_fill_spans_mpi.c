/*
 * The fill kernel's row runs (sphere ∩ row: every node tested in narrow bricks, the run's
 * ends found by a few exact tests in wide ones; C joined to the run or on its own; runs
 * split across evaluation batches; planes walked in row blocks)
 * against a naive reference written independently here: every node of every brick tested
 * one by one in gnuplot's loop order (source, x, y, z), for vfill (user units), vfill with
 * GridDistance lanes and vgfill (grid units), on unequal and far-from-origin ranges, at
 * 1 and 2 threads and any rank count. Voxels must match bit for bit; the update count and
 * the last VoxelDistance (gnuplot's loop order) must match exactly.
 */
#include "pv_test.h"
#include "pvox/grid.h"

#include <math.h>
#include <omp.h>
#include <stdint.h>
#include <stdlib.h>

/* A value that differs for every voxel and source; its first term is the low 12 bits of
 * the distance's mantissa (1/4096 steps), so one ulp of VoxelDistance or GridDistance
 * shows in the float sum; the rest makes the order of sources matter. Reads GridDistance
 * only when asked. */
typedef struct valfn {
    bool use_g;
    int max_lanes_seen;
} valfn;

static double low_bits(double d)
{
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    return (double)(u & 0xfff) / 4096.0;
}

static double value_of(size_t src, double d, double gd, bool use_g)
{
    double v = low_bits(d) + (double)(src % 7 + 1) * 0.37 * d + 1.0 / (1.0 + d);
    return use_g ? v - 0.5 * gd + low_bits(gd) : v;
}

static void eval_val(void *ud, int tid, const size_t *src, size_t step, size_t n,
                        const double *dist,
                     const double *gdist, double *out)
{
    valfn *f = ud;
    (void)tid;
    if (n > PV_FILL_MAX_LANES)
        f->max_lanes_seen = (int)n; /* reported after the fill */
    for (size_t k = 0; k < n; k++)
        out[k] = value_of(src[k * step], dist[k], f->use_g ? gdist[k] : 0.0, f->use_g);
}

/* gnuplot's ceil rule with its inclusive test (GP-3). */
static bool node_of(double c, double mn, double mx, double dl, int64_t n, int64_t *i)
{
    if (!(c >= mn && c <= mx))
        return false;
    double k = ceil((c - mn) / dl);
    if (!(k >= 0 && k <= (double)(n - 1)))
        return false;
    *i = (int64_t)k;
    return true;
}

typedef struct refout {
    int64_t count;
    double last_d;
} refout;

/* Reference over planes [z0, z1) stored in ref (counts and last distance over all planes). */
static refout reference(int64_t n, const double *mn, const double *mx, const double *dl,
                        const pv_fill_source *s, size_t ns, bool gu, bool use_g, int64_t z0,
                        int64_t z1, float *ref)
{
    refout o = {0, 0};
    for (size_t k = 0; k < (size_t)((z1 - z0) * n * n); k++)
        ref[k] = 0;
    for (size_t q = 0; q < ns; q++) {
        double p[3] = {s[q].x, s[q].y, s[q].z}, r = s[q].radius;
        int64_t c[3];
        bool in = true;
        for (int a = 0; a < 3; a++)
            in = in && node_of(p[a], mn[a], mx[a], dl[a], n, &c[a]);
        if (!in)
            continue;
        double hw[3];
        for (int a = 0; a < 3; a++)
            hw[a] = gu ? floor(r) : floor(r / dl[a]);
        if (!(hw[0] >= 0 && hw[1] >= 0 && hw[2] >= 0))
            continue;
        for (int64_t ix = 0; ix < n; ix++) {
            if (fabs((double)(ix - c[0])) > hw[0])
                continue;
            for (int64_t iy = 0; iy < n; iy++) {
                if (fabs((double)(iy - c[1])) > hw[1])
                    continue;
                for (int64_t iz = 0; iz < n; iz++) {
                    if (fabs((double)(iz - c[2])) > hw[2])
                        continue;
                    double dx = (mn[0] + (double)ix * dl[0]) - p[0];
                    double dy = (mn[1] + (double)iy * dl[1]) - p[1];
                    double dz = (mn[2] + (double)iz * dl[2]) - p[2];
                    double d = sqrt(dx * dx + dy * dy + dz * dz);
                    double gx = (double)ix - (p[0] - mn[0]) / dl[0];
                    double gy = (double)iy - (p[1] - mn[1]) / dl[1];
                    double gz = (double)iz - (p[2] - mn[2]) / dl[2];
                    double gd = sqrt(gx * gx + gy * gy + gz * gz);
                    bool centre = ix == c[0] && iy == c[1] && iz == c[2];
                    if (!((gu ? gd : d) <= r) && !centre)
                        continue;
                    o.count++;
                    o.last_d = d;
                    if (iz < z0 || iz >= z1)
                        continue;
                    size_t k = (size_t)(((iz - z0) * n + iy) * n + ix);
                    ref[k] = (float)((double)ref[k] + value_of(q, d, gd, use_g));
                }
            }
        }
    }
    return o;
}

static int64_t run_case(pv_ctx *ctx, const char *name, int64_t n, const double *mn,
                        const double *mx, const pv_fill_source *src, size_t ns, unsigned flags)
{
    const bool gu = flags & PV_FILL_GRID_UNITS;
    const bool use_g = flags != 0;
    int64_t bad_total = 0;
    for (int threads = 1; threads <= 2; threads++) {
        omp_set_num_threads(threads);
        pv_grid *g = pv_grid_create(ctx, "$t", n);
        PV_CHECK(g != NULL);
        if (!g)
            return 1;
        for (int a = 0; a < 3; a++)
            pv_grid_set_range(g, a, mn[a], mx[a]);
        float *ref = malloc(sizeof(float) * (size_t)((g->z1 - g->z0) * n * n + 1));
        refout want = reference(n, g->min, g->max, g->delta, src, ns, gu, use_g, g->z0, g->z1,
                                ref);
        valfn f = {use_g, 0};
        pv_fill_result res;
        PV_CHECK(pv_grid_fill(ctx, g, src, ns, flags, eval_val, &f, &res) == PV_OK);
        PV_CHECK_EQ(f.max_lanes_seen, 0);
        int64_t bad = 0;
        for (size_t k = 0; k < (size_t)((g->z1 - g->z0) * n * n); k++)
            if (memcmp(&g->data[k], &ref[k], sizeof(float)) != 0)
                bad++;
        if (bad || res.voxels_modified != want.count || res.last_distance != want.last_d)
            fprintf(stderr, "%s (flags %u, %d threads, rank %d): %lld voxels differ, %lld "
                    "updates (want %lld), last distance %.17g (want %.17g)\n", name, flags,
                    threads, ctx->rank, (long long)bad, (long long)res.voxels_modified,
                    (long long)want.count, res.last_distance, want.last_d);
        PV_CHECK_EQ(bad, 0);
        PV_CHECK_EQ(res.voxels_modified, want.count);
        PV_CHECK(res.last_distance == want.last_d);
        bad_total += bad;
        free(ref);
        pv_grid_destroy(ctx, g);
    }
    return bad_total;
}

static double next_u(unsigned *seed)
{
    *seed = *seed * 1103515245u + 12345u;
    return (double)((*seed >> 8) & 0xffffff) / 16777216.0;
}

/* ns sources in (and a little around) the box; some exactly on nodes, some with radii that
 * equal node distances, zero, negative, NaN or infinite. rmax in the test metric's units. */
static void make_sources(pv_fill_source *s, size_t ns, int64_t n, const double *mn,
                         const double *mx, double rmax, unsigned seed)
{
    for (size_t k = 0; k < ns; k++) {
        double p[3];
        for (int a = 0; a < 3; a++) {
            double u = next_u(&seed);
            double dl = (mx[a] - mn[a]) / (double)(n - 1);
            if (k % 5 == 1) /* exactly on a node */
                p[a] = mn[a] + (double)(int64_t)(u * (double)(n - 1)) * dl;
            else
                p[a] = mn[a] - 0.02 * (mx[a] - mn[a]) + u * 1.04 * (mx[a] - mn[a]);
        }
        double r = next_u(&seed) * rmax;
        if (k % 11 == 3)
            r = (double)(k % 4) * (mx[0] - mn[0]) / (double)(n - 1); /* whole node steps */
        if (k % 13 == 4)
            r = 0;
        if (k % 17 == 5)
            r = -r;
        s[k] = (pv_fill_source){p[0], p[1], p[2], r};
    }
    if (ns > 8) {
        s[6].radius = (double)NAN;
        s[7].radius = (double)INFINITY;
        s[8].radius = 1e300;
    }
}

int main(int argc, char **argv)
{
    int prov;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &prov);
    pv_options opt = {0};
    opt.log_level = PV_LOG_WARN;
    pv_ctx *ctx = pv_ctx_create(MPI_COMM_WORLD, &opt);
    enum { NS = 120 };
    pv_fill_source src[NS];

    /* unequal deltas on every axis */
    const double mn1[3] = {0, -0.5, 0}, mx1[3] = {2, 1, 0.7};
    make_sources(src, NS, 29, mn1, mx1, 0.6, 777u);
    run_case(ctx, "unequal ranges", 29, mn1, mx1, src, NS, 0u);
    run_case(ctx, "unequal ranges + GridDistance", 29, mn1, mx1, src, NS,
             PV_FILL_NEED_GRIDDIST);
    make_sources(src, NS, 29, mn1, mx1, 7.0, 4242u);
    run_case(ctx, "vgfill", 29, mn1, mx1, src, NS, PV_FILL_GRID_UNITS);

    /* far from the origin: node positions carry large rounding errors */
    const double mn2[3] = {1e6, -3e7, 5e5}, mx2[3] = {1e6 + 1, -3e7 + 0.5, 5e5 + 2};
    make_sources(src, NS, 31, mn2, mx2, 0.7, 99u);
    run_case(ctx, "far ranges", 31, mn2, mx2, src, NS, 0u);

    /* integer nodes: d == r exactly on many nodes (GP-5.2: r = 1 gives 7 voxels,
     * sqrt(2) gives 19) */
    const double mn4[3] = {0, 0, 0}, mx4[3] = {10, 10, 10};
    pv_fill_source exact[8] = {{5, 5, 5, 1},         {5, 5, 5, 1.4142135623730951},
                               {2, 3, 4, 2},         {7, 7, 1, 1.7320508075688772},
                               {3, 8, 6, 3},         {0, 0, 0, 2.23606797749979},
                               {10, 10, 10, 1},      {5.3, 5, 5, 1.5}};
    run_case(ctx, "exact radii", 11, mn4, mx4, exact, 8, 0u);
    run_case(ctx, "exact radii (vgfill)", 11, mn4, mx4, exact, 8, PV_FILL_GRID_UNITS);

    /* radii below one node spacing: one-node sources, batched across sources, mixed with
     * a few larger bricks; many sources share a node (each voxel sums in file order) */
    {
        enum { NP = 5000 };
        pv_fill_source *pts = malloc(NP * sizeof *pts);
        const double mn6[3] = {-1, 0, 0.5}, mx6[3] = {1, 3, 1.5};
        make_sources(pts, NP, 9, mn6, mx6, 0.2, 6502u);
        for (size_t k = 0; k < NP; k++)
            if (k % 97 != 0 && isfinite(pts[k].radius))
                pts[k].radius = fabs(pts[k].radius) * 0.4; /* below every delta */
        run_case(ctx, "one-node sources", 9, mn6, mx6, pts, NP, 0u);
        run_case(ctx, "one-node sources + GridDistance", 9, mn6, mx6, pts, NP,
                 PV_FILL_NEED_GRIDDIST);
        run_case(ctx, "one-node sources (vgfill)", 9, mn6, mx6, pts, NP, PV_FILL_GRID_UNITS);
        free(pts);
    }

    /* bricks wider than 64 nodes: the run ends are searched (narrow rows test every node) */
    const double mn5[3] = {-1, 0, 2}, mx5[3] = {1, 1.5, 3.1};
    make_sources(src, 16, 150, mn5, mx5, 0.6, 31337u);
    run_case(ctx, "wide bricks", 150, mn5, mx5, src, 16, 0u);
    make_sources(src, 16, 150, mn5, mx5, 70.0, 271828u);
    run_case(ctx, "wide bricks (vgfill)", 150, mn5, mx5, src, 16, PV_FILL_GRID_UNITS);

    /* rows longer than one evaluation batch's room, and planes walked in two row blocks
     * (n = 300: blocks of 218 rows); sources around the block edge */
    const double mn3[3] = {0, 0, 0}, mx3[3] = {1, 1, 1};
    pv_fill_source big[6] = {
        {0.5, 0.72, 0.5, 0.12}, {0.2, 0.729, 0.1, 0.01}, {0.9, 0.73, 0.95, 0.02},
        {0.5, 0.7258, 0.5, 0.0}, {0.31, 0.74, 0.5, 0.05}, {0.5, 0.72, 0.5, 0.004}};
    run_case(ctx, "row blocks", 300, mn3, mx3, big, 6, 0u);

    int fails = pv_test_failures, all = 0;
    MPI_Allreduce(&fails, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    int rc = ctx->rank == 0 ? pv_test_result("grid_fill_spans_mpi") : (all ? 1 : 0);
    pv_ctx_destroy(ctx);
    MPI_Finalize();
    return all ? 1 : rc;
}
