/*
 * Grid storage, ranges, index mapping, reads and writes, statistics.
 *
 * Invariants: g->data holds planes [z0, z1) of this rank, x fastest; delta is always
 * (max-min)/(n-1) of the current ranges and size (DEC-5: gnuplot keeps a stale
 * delta, we do not). The index rule is gnuplot's ceil((c-min)/delta) computed exactly so,
 * in double, with no reciprocal (GP-3), so voxel() values match to the bit.
 */
#include "pvox/grid.h"
#include "pvox/checksum.h"

#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

static void human_bytes(double b, char *buf, size_t len)
{
    const char *unit[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB", "ZiB", "YiB"};
    int u = 0;
    while (b >= 1024.0 && u < 8) {
        b /= 1024.0;
        u++;
    }
    /* beyond yobibytes: three digits and an exponent, so the unit always fits */
    snprintf(buf, len, b < 1e6 ? "%.1f %s" : "%.3g %s", b, unit[u]);
}

/* Collective check that every rank can hold its slab of an n³ grid. */
static pv_status check_memory(pv_ctx *ctx, const char *name, int64_t n)
{
    size_t need;
    bool ok = pv_decomp_slab_bytes(n, ctx->nranks, ctx->rank, &need);
    size_t budget = pv_mem_budget(ctx);
    size_t avail = budget > ctx->mem_current ? budget - ctx->mem_current : 0;
    int fail = (!ok || need > avail) ? 1 : 0, any = 0;
    MPI_Allreduce(&fail, &any, 1, MPI_INT, MPI_MAX, ctx->comm);
    if (!any)
        return PV_OK;
    /* Every rank composes the same message from the smallest budget. */
    double davail = (double)avail, min_avail = 0;
    MPI_Allreduce(&davail, &min_avail, 1, MPI_DOUBLE, MPI_MIN, ctx->comm);
    double total = (double)n * (double)n * (double)n * sizeof(float);
    double per_rank = total / ctx->nranks;
    char b1[48], b2[48], b3[48];
    human_bytes(total, b1, sizeof b1);
    human_bytes(per_rank, b2, sizeof b2);
    human_bytes(min_avail, b3, sizeof b3);
    /* A rank holds whole planes: the ranks needed are ceil(n / planes that fit). */
    double plane_bytes = (double)n * (double)n * sizeof(float);
    double planes_fit = floor(min_avail / plane_bytes);
    double ranks_needed = planes_fit >= 1 ? ceil((double)n / planes_fit) : HUGE_VAL;
    if (isfinite(ranks_needed))
        return pv_err(ctx, PV_ENOMEM,
                      "grid %s of %lld^3 voxels needs %s (%s per rank on %d rank%s) but a rank "
                      "has only %s available; run on at least %.0f ranks with that much memory "
                      "each (the limit is the smallest of --max-memory, the job's memory "
                      "limit and the node's available memory, shared by its ranks)",
                      name, (long long)n, b1, b2, ctx->nranks, ctx->nranks == 1 ? "" : "s", b3,
                      ranks_needed);
    return pv_err(ctx, PV_ENOMEM, "grid %s of %lld^3 voxels needs %s, more than %s per rank",
                  name, (long long)n, b1, b3);
}

/* Allocate this rank's slab, zeroed. A slab is fresh memory from the kernel (calloc of a
 * large block maps new pages), which reads as zero without being written: the pages are
 * first touched by the fill that follows, with its threads, rather than by a pass of
 * zeros and then the fill (at 1024^3 on a VM the first touch of 2 GiB takes 1.5-15 s, the
 * kernel zeroing pages the host must provide; a second pass over them added 0.1 s). */
static pv_status alloc_slab(pv_ctx *ctx, pv_grid *g, int64_t n)
{
    pv_decomp_slab(n, ctx->nranks, ctx->rank, &g->z0, &g->z1);
    g->n = n;
    size_t count = (size_t)(g->z1 - g->z0) * (size_t)n * (size_t)n;
    g->nbytes = count * sizeof(float);
    g->data = count ? pv_calloc(ctx, count, sizeof(float)) : NULL;
    if (count && !g->data)
        return PV_ENOMEM;
    g->version++;
    return PV_OK;
}

static void update_delta(pv_grid *g)
{
    for (int a = 0; a < 3; a++)
        g->delta[a] = (g->max[a] - g->min[a]) / (double)(g->n - 1);
}

pv_grid *pv_grid_create(pv_ctx *ctx, const char *name, int64_t n)
{
    if (pv_status_agree(ctx, check_memory(ctx, name, n)) != PV_OK)
        return NULL;
    pv_grid *g = calloc(1, sizeof *g);
    char *nm = strdup(name);
    pv_status st = (g && nm) ? PV_OK : pv_err(ctx, PV_ENOMEM, "out of memory");
    if (st == PV_OK) {
        g->name = nm;
        for (int a = 0; a < 3; a++)
            g->min[a] = g->max[a] = g->delta[a] = NAN;
        st = alloc_slab(ctx, g, n);
    }
    if (pv_status_agree(ctx, st) != PV_OK) {
        if (g)
            pv_free(ctx, g->data, g->nbytes);
        free(g);
        free(nm);
        return NULL;
    }
    return g;
}

void pv_grid_destroy(pv_ctx *ctx, pv_grid *g)
{
    if (!g)
        return;
    pv_free(ctx, g->data, g->nbytes);
    free(g->name);
    free(g);
}

pv_status pv_grid_resize(pv_ctx *ctx, pv_grid *g, int64_t n)
{
    /* Release first so the old slab does not count against the new one. */
    pv_free(ctx, g->data, g->nbytes);
    g->data = NULL;
    g->nbytes = 0;
    pv_status st = pv_status_agree(ctx, check_memory(ctx, g->name, n));
    if (st == PV_OK)
        st = pv_status_agree(ctx, alloc_slab(ctx, g, n));
    if (st != PV_OK) {
        g->n = 0;
        g->z0 = g->z1 = 0;
        return st;
    }
    update_delta(g);
    g->version++;
    return PV_OK;
}

void pv_grid_clear(pv_ctx *ctx, pv_grid *g)
{
    (void)ctx;
    g->version++;
    int64_t nplanes = g->z1 - g->z0;
    size_t plane = (size_t)g->n * (size_t)g->n;
    float *data = g->data;
#pragma omp parallel for schedule(static) default(none) shared(data, nplanes, plane)
    for (int64_t p = 0; p < nplanes; p++)
        memset(data + (size_t)p * plane, 0, plane * sizeof(float));
}

void pv_grid_set_range(pv_grid *g, int axis, double min, double max)
{
    g->min[axis] = min;
    g->max[axis] = max;
    g->delta[axis] = (max - min) / (double)(g->n - 1);
}

bool pv_grid_has_ranges(const pv_grid *g)
{
    for (int a = 0; a < 3; a++)
        if (isnan(g->min[a]) || isnan(g->max[a]))
            return false;
    return true;
}

bool pv_grid_axis_index(const pv_grid *g, int axis, double c, int64_t *i)
{
    /* Inclusive test; NaN ranges and NaN coordinates fail it. */
    if (!(c >= g->min[axis] && c <= g->max[axis]))
        return false;
    double k = ceil((c - g->min[axis]) / g->delta[axis]);
    if (!(k >= 0 && k <= (double)(g->n - 1)))
        return false;
    *i = (int64_t)k;
    return true;
}

bool pv_grid_index(const pv_grid *g, double x, double y, double z, int64_t idx[3])
{
    /* pv_grid_axis_index on each axis; the three divisions are independent, so they are
     * issued together before any test (a data file's rows pass here once each) */
    const double c[3] = {x, y, z};
    double q[3];
    for (int a = 0; a < 3; a++)
        q[a] = (c[a] - g->min[a]) / g->delta[a];
    const double top = (double)(g->n - 1);
    for (int a = 0; a < 3; a++) {
        if (!(c[a] >= g->min[a] && c[a] <= g->max[a]))
            return false;
        double k = ceil(q[a]);
        if (!(k >= 0 && k <= top))
            return false;
        idx[a] = (int64_t)k;
    }
    return true;
}

pv_status pv_grid_read(pv_ctx *ctx, const pv_grid *g, double x, double y, double z,
                       double *out)
{
    return pv_grid_read_many(ctx, g, 1, &x, &y, &z, out);
}

pv_status pv_grid_read_many(pv_ctx *ctx, const pv_grid *g, size_t n, const double *x,
                            const double *y, const double *z, double *out)
{
    /* Every rank knows every index; owners fill their values, others leave 0, and one
     * MAX-free SUM reduction would mix NaNs, so owners write and the rest contribute
     * -inf into a MAX reduction. NaN voxels travel as a flag. */
    double *val = calloc(2 * n + 1, sizeof(double));
    if (!val)
        return pv_status_agree(ctx, pv_err(ctx, PV_ENOMEM, "out of memory"));
    double *res = val + n;
    for (size_t k = 0; k < n; k++) {
        int64_t idx[3];
        val[k] = -HUGE_VAL;
        if (!pv_grid_index(g, x[k], y[k], z[k], idx)) {
            out[k] = NAN;
            continue;
        }
        if (idx[2] >= g->z0 && idx[2] < g->z1) {
            float v = g->data[pv_grid_local_index(g, idx[0], idx[1], idx[2])];
            /* Encode NaN as +inf's neighbour: +inf is reserved, real +inf maps to DBL_MAX
             * only in transit, so use a separate flag instead: NaN → +inf. */
            val[k] = isnan(v) ? HUGE_VAL : (double)v;
        }
    }
    int rc = MPI_Allreduce(val, res, (int)n, MPI_DOUBLE, MPI_MAX, ctx->comm);
    if (rc != MPI_SUCCESS) {
        free(val);
        return pv_err(ctx, PV_EMPI, "MPI_Allreduce failed in voxel lookup");
    }
    for (size_t k = 0; k < n; k++) {
        int64_t idx[3];
        if (!pv_grid_index(g, x[k], y[k], z[k], idx))
            continue;
        out[k] = res[k];
        if (res[k] == HUGE_VAL) {
            /* A stored +inf and a stored NaN both arrive as +inf: disambiguate with the
             * owner's float, broadcast only in this rare case. */
            int owner = pv_decomp_owner(g->n, ctx->nranks, idx[2]);
            double v = 0;
            if (ctx->rank == owner)
                v = (double)g->data[pv_grid_local_index(g, idx[0], idx[1], idx[2])];
            MPI_Bcast(&v, 1, MPI_DOUBLE, owner, ctx->comm);
            out[k] = v;
        }
    }
    free(val);
    return PV_OK;
}

void pv_grid_write(pv_grid *g, double x, double y, double z, float v, bool *inside)
{
    int64_t idx[3];
    *inside = pv_grid_index(g, x, y, z, idx);
    g->version++;
    if (*inside && idx[2] >= g->z0 && idx[2] < g->z1)
        g->data[pv_grid_local_index(g, idx[0], idx[1], idx[2])] = v;
}

pv_status pv_grid_stats_compute(pv_ctx *ctx, const pv_grid *g, pv_grid_stats *st)
{
    size_t plane = (size_t)g->n * (size_t)g->n;
    int64_t nplanes = g->z1 - g->z0;
    const float *data = g->data;
    /* Exact sums per plane in a fixed order, then planes summed in plane order on every
     * rank via an allgather of the per-plane partials, so the mean does not depend on
     * the rank count. */
    double *part = calloc((size_t)g->n * 4 + 1, sizeof(double));
    if (!part)
        return pv_status_agree(ctx, pv_err(ctx, PV_ENOMEM, "out of memory"));
    double *local = part;              /* [n][4]: count_nz, sum, sumsq, nzero */
    double lmin = HUGE_VAL, lmax = -HUGE_VAL;
#pragma omp parallel for schedule(static) default(none) \
    shared(data, plane, nplanes, local, g) reduction(min : lmin) reduction(max : lmax)
    for (int64_t p = 0; p < nplanes; p++) {
        const float *v = data + (size_t)p * plane;
        double cnt = 0, sum = 0, sq = 0, zero = 0;
        for (size_t i = 0; i < plane; i++) {
            double d = (double)v[i];
            if (d == 0) {
                zero += 1;
                continue;
            }
            cnt += 1;
            sum += d;
            sq += d * d;
            if (d < lmin) lmin = d;
            if (d > lmax) lmax = d;
        }
        int64_t iz = g->z0 + p;
        local[iz * 4 + 0] = cnt;
        local[iz * 4 + 1] = sum;
        local[iz * 4 + 2] = sq;
        local[iz * 4 + 3] = zero;
    }
    uint64_t hsum = pv_checksum_slab(data, g->n, g->z0, g->z1); /* pvox/checksum.h */
    /* Each plane's partials live on exactly one rank; others hold zeros, so a SUM
     * reduction is exact (x + 0 = x). */
    MPI_Allreduce(MPI_IN_PLACE, part, (int)(g->n * 4), MPI_DOUBLE, MPI_SUM, ctx->comm);
    MPI_Allreduce(MPI_IN_PLACE, &lmin, 1, MPI_DOUBLE, MPI_MIN, ctx->comm);
    MPI_Allreduce(MPI_IN_PLACE, &lmax, 1, MPI_DOUBLE, MPI_MAX, ctx->comm);
    MPI_Allreduce(MPI_IN_PLACE, &hsum, 1, MPI_UINT64_T, MPI_SUM, ctx->comm);
    double cnt = 0, sum = 0, sq = 0, zero = 0;
    for (int64_t iz = 0; iz < g->n; iz++) {
        cnt += part[iz * 4 + 0];
        sum += part[iz * 4 + 1];
        sq += part[iz * 4 + 2];
        zero += part[iz * 4 + 3];
    }
    free(part);
    st->ntotal = g->n * g->n * g->n;
    st->nzero = (int64_t)zero;
    st->checksum = hsum;
    if (cnt == 0) {
        st->min = st->max = 0;
    } else {
        st->min = lmin;
        st->max = lmax;
    }
    if (cnt < 2) {
        st->mean = st->stddev = NAN;
    } else {
        st->mean = sum / cnt;
        double var = (sq - sum * sum / cnt) / (cnt - 1);
        /* rounding can leave a tiny negative variance: that is 0; but inf - inf stays
         * -nan, which gnuplot shows too */
        st->stddev = isfinite(var) && var < 0 ? 0 : sqrt(var);
    }
    return PV_OK;
}
