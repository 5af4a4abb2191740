/*
 * Ghost plane exchange (grid.h pv_grid_ghost_upper) at any rank count: every rank with
 * planes [z0, z1), z1 < n, must receive exactly the global plane z1; the last rank and
 * ranks without planes (n < ranks, e.g. n = 2 on 3 ranks) get none. Voxel values are a
 * function of the global index, so each rank knows what plane z1 must hold. A small chunk
 * size exercises the split into several messages.
 */
#include "pv_test.h"
#include "grid_int.h"

#include <stdlib.h>

static float value(int64_t n, int64_t ix, int64_t iy, int64_t iz)
{
    return (float)((iz * n + iy) * n + ix) + 0.25f;
}

static void run(pv_ctx *ctx, int64_t n, size_t chunk)
{
    pv_grid *g = pv_grid_create(ctx, "$g", n);
    PV_CHECK(g != NULL);
    if (!g) return;
    for (int64_t iz = g->z0; iz < g->z1; iz++)
        for (int64_t iy = 0; iy < n; iy++)
            for (int64_t ix = 0; ix < n; ix++)
                g->data[pv_grid_local_index(g, ix, iy, iz)] = value(n, ix, iy, iz);
    size_t count = (size_t)(n * n);
    float *buf = malloc((count + 1) * sizeof *buf);
    for (size_t k = 0; k <= count; k++) buf[k] = -1.0f;
    bool has = true;
    pv_status st = chunk ? pv_grid_ghost_upper_chunked(ctx, g, buf, &has, chunk)
                         : pv_grid_ghost_upper(ctx, g, buf, &has);
    PV_CHECK(st == PV_OK);
    bool expect = g->z1 > g->z0 && g->z1 < n;
    PV_CHECK(has == expect);
    int64_t bad = 0;
    for (int64_t iy = 0; iy < n; iy++)
        for (int64_t ix = 0; ix < n; ix++) {
            float want = expect ? value(n, ix, iy, g->z1) : -1.0f;
            if (buf[iy * n + ix] != want) bad++;
        }
    PV_CHECK_EQ(bad, 0);
    PV_CHECK(buf[count] == -1.0f); /* nothing written past the plane */
    /* the slab is untouched by sending */
    for (int64_t iz = g->z0; iz < g->z1; iz++)
        for (int64_t iy = 0; iy < n; iy++)
            for (int64_t ix = 0; ix < n; ix++)
                if (g->data[pv_grid_local_index(g, ix, iy, iz)] != value(n, ix, iy, iz)) bad++;
    PV_CHECK_EQ(bad, 0);
    free(buf);
    pv_grid_destroy(ctx, g);
}

int main(int argc, char **argv)
{
    int prov;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &prov);
    pv_options opt = {0};
    opt.log_level = PV_LOG_WARN;
    pv_ctx *ctx = pv_ctx_create(MPI_COMM_WORLD, &opt);

    /* n below, at and above the rank count; n = 2 leaves a rank empty at 3 ranks */
    const int64_t sizes[] = {1, 2, 3, 5, 7, 16};
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
        run(ctx, sizes[s], 0); /* the public call: one message per plane here */
        run(ctx, sizes[s], 7); /* several messages, the last one short */
        run(ctx, sizes[s], 1); /* one float per message */
    }

    /* a rank needing a ghost without a buffer: every rank fails, none hangs */
    pv_grid *g = pv_grid_create(ctx, "$e", 4);
    bool has = true;
    float *buf = malloc(16 * sizeof *buf);
    bool needs = g->z1 > g->z0 && g->z1 < 4;
    pv_status st = pv_grid_ghost_upper(ctx, g, needs && ctx->rank == 0 ? NULL : buf, &has);
    PV_CHECK(ctx->nranks == 1 ? st == PV_OK : st == PV_EINTERNAL);
    PV_CHECK(!has || ctx->nranks == 1);
    if (ctx->nranks > 1) PV_CHECK(ctx->err_msg && strstr(ctx->err_msg, "receive buffer"));
    pv_err_clear(ctx);
    free(buf);
    pv_grid_destroy(ctx, g);

    int fails = pv_test_failures, all = 0;
    MPI_Allreduce(&fails, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    int rc = ctx->rank == 0 ? pv_test_result("grid_ghost_mpi") : (all ? 1 : 0);
    pv_ctx_destroy(ctx);
    MPI_Finalize();
    return all ? 1 : rc;
}
