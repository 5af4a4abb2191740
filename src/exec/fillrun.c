/*
 * exec/fillrun.c: a vfill / vgfill session fed in pieces (fillrun.h): the value expression
 * compiled for the grid kernel's lanes, the kernel run per piece, and the collective end
 * (failures located, gnuplot's result lines).
 */
#include "fillrun.h"

#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

struct pv_fill_run {
    pv_interp *I;
    pv_grid *g;
    const pv_code *code;       /* the value expression */
    pv_vcode *vc;              /* its vector form, or NULL: scalar fallback */
    pv_vscratch **scratch;     /* one per thread */
    double **lanes;            /* one per thread: ncols x PV_FILL_MAX_LANES gathered columns */
    int nthreads;
    int ncols;                 /* columns per source */
    int nslots;                /* 2 + ncols */
    bool grid_units;           /* vgfill: GridDistance is set too */
    unsigned kernel_flags;
    pv_fill_eval_fn fn;
    /* the piece being filled */
    const double *cols;
    const int64_t *order;
    int64_t base;
    const int64_t *lines;      /* the sources' $0, or NULL: their order */
    /* the earliest failing lane of this rank (file order) */
    int failed;
    int64_t fail_order, fail_line;
    double fail_dist[2];       /* VoxelDistance, GridDistance of that lane */
    double fail_cols[PV_USING_MAX];
    pv_fill_local acc;
    double secs;
};

static int64_t order_of(const pv_fill_run *F, size_t src)
{
    return F->order ? F->order[src] : F->base + (int64_t)src;
}

static int64_t line_of(const pv_fill_run *F, size_t src)
{
    return F->lines ? F->lines[src] : order_of(F, src);
}

/* Remember the earliest failing source, so every rank can re-evaluate the same lane
 * serially at the end and report gnuplot's located error. */
static void note_failure(pv_fill_run *F, size_t src, double dist, double gdist)
{
    int64_t o = order_of(F, src);
#pragma omp critical(pv_fill_fail)
    if (!F->failed || o < F->fail_order) {
        F->failed = 1;
        F->fail_order = o;
        F->fail_line = line_of(F, src);
        F->fail_dist[0] = dist;
        F->fail_dist[1] = gdist;
        memcpy(F->fail_cols, F->cols + src * (size_t)F->ncols,
               (size_t)F->ncols * sizeof *F->fail_cols);
    }
}

static void eval_vector(void *ud, int tid, const size_t *src, size_t step, size_t n,
                        const double *dist, const double *gdist, double *out)
{
    pv_fill_run *F = ud;
    pv_vinput in[2 + PV_USING_MAX];
    in[0] = (pv_vinput){dist, 1};
    in[1] = (pv_vinput){gdist, 1};
    if (step == 0) { /* one source: its columns are constants over the lanes */
        const double *cols = F->cols + src[0] * (size_t)F->ncols;
        for (int k = 2; k < F->nslots; k++)
            in[k] = (pv_vinput){&cols[k - 2], 0};
    } else { /* a source per lane: its columns gathered into lanes */
        double *lanes = F->lanes[tid];
        for (int k = 2; k < F->nslots; k++) {
            double *col = lanes + (size_t)(k - 2) * PV_FILL_MAX_LANES;
            for (size_t i = 0; i < n; i++)
                col[i] = F->cols[src[i * step] * (size_t)F->ncols + (size_t)(k - 2)];
            in[k] = (pv_vinput){col, 1};
        }
    }
    pv_veval(F->vc, F->scratch[tid], n, in, out);
    if (pv_vscratch_take_error(F->scratch[tid])) {
        size_t k = 0;
        while (k + 1 < n && !isnan(out[k]))
            k++;
        note_failure(F, src[k * step], dist[k], gdist ? gdist[k] : 0.0);
    }
}

/* Scalar fallback: the interpreter's environment is shared, so one thread at a time. */
static void eval_scalar(void *ud, int tid, const size_t *src, size_t step, size_t n,
                        const double *dist, const double *gdist, double *out)
{
    pv_fill_run *F = ud;
    (void)tid;
    const char *strs[PV_USING_MAX] = {0};
#pragma omp critical(pv_fill_scalar)
    {
        for (size_t k = 0; k < n; k++) {
            const size_t s = src[k * step];
            pv_row row = {F->ncols, F->cols + s * (size_t)F->ncols, strs, NULL, line_of(F, s),
                          0, 0};
            pv_env_set_row(F->I->env, &row);
            pv_value d = pv_real(dist[k]), v = {0};
            pv_env_set(F->I->env, "VoxelDistance", &d);
            if (F->grid_units) {
                pv_value gd = pv_real(gdist[k]);
                pv_env_set(F->I->env, "GridDistance", &gd);
            }
            if (F->failed || pv_eval(F->I->env, F->code, &v) != PV_OK) {
                if (!F->failed)
                    note_failure(F, s, dist[k], gdist ? gdist[k] : 0.0);
                out[k] = 0;
                continue;
            }
            out[k] = (v.type == PV_V_INT || v.type == PV_V_CMPLX) ? pv_value_real(&v) : (double)NAN;
            pv_value_free(&v);
        }
        pv_env_set_row(F->I->env, NULL);
    }
}

/* Compile the value for lanes (VoxelDistance, GridDistance, $1..$ncols); the scalar
 * evaluator when the vector VM cannot take it. */
static void compile_value(pv_fill_run *F)
{
    const char *slots[2 + PV_USING_MAX];
    char colname[PV_USING_MAX][16]; /* "$" and any int (-Wformat-truncation at -O0/-O1) */
    slots[0] = "VoxelDistance";
    slots[1] = "GridDistance";
    for (int k = 0; k < F->ncols; k++) {
        snprintf(colname[k], sizeof colname[k], "$%d", k + 1);
        slots[2 + k] = colname[k];
    }
    F->fn = eval_scalar;
    if (pv_vcompile(F->I->env, F->code, F->nslots, slots, &F->vc) == PV_OK) {
        F->scratch = calloc((size_t)F->nthreads, sizeof *F->scratch);
        bool ok = F->scratch != NULL;
        F->lanes = calloc((size_t)F->nthreads, sizeof *F->lanes);
        ok = ok && F->lanes != NULL;
        for (int t = 0; ok && t < F->nthreads; t++)
            ok = (F->scratch[t] = pv_vscratch_create(F->vc, PV_FILL_MAX_LANES)) != NULL &&
                 (F->lanes[t] = malloc(((size_t)F->ncols + 1) * PV_FILL_MAX_LANES *
                                       sizeof(double))) != NULL;
        if (ok)
            F->fn = eval_vector;
    }
    pv_err_clear(F->I->ctx); /* a failed vector compile is not an error: the scalar path runs */
}

pv_status pv_fill_run_begin(pv_interp *I, pv_grid *g, pv_code *value, bool grid_units,
                            int ncols, pv_fill_run **out)
{
    *out = NULL;
    pv_fill_run *F = calloc(1, sizeof *F);
    if (!F)
        return pv_err(I->ctx, PV_ENOMEM, "out of memory");
    F->I = I;
    F->g = g;
    F->code = value;
    F->nthreads = omp_get_max_threads();
    F->ncols = ncols < 0 ? 0 : ncols > PV_USING_MAX ? PV_USING_MAX : ncols;
    F->nslots = 2 + F->ncols;
    F->grid_units = grid_units;
    /* GridDistance lanes cost a second sqrt per voxel: only when the value can read them */
    F->kernel_flags = grid_units ? PV_FILL_GRID_UNITS : 0u;
    if (pv_code_uses_name(value, "GridDistance"))
        F->kernel_flags |= PV_FILL_NEED_GRIDDIST;
    pv_fill_local_init(&F->acc);
    compile_value(F);
    pv_gridset_fill_begin(I);
    *out = F;
    return PV_OK;
}

pv_status pv_fill_run_piece(pv_fill_run *F, const pv_fill_source *src, const double *cols,
                            size_t n, const int64_t *order, int64_t base, unsigned flags)
{
    F->cols = cols;
    F->order = order;
    F->base = base;
    double t0 = MPI_Wtime();
    pv_status st = pv_grid_fill_local(F->I->ctx, F->g, src, n, order, base,
                                      F->kernel_flags | flags, F->fn, F, &F->acc);
    F->secs += MPI_Wtime() - t0;
    F->cols = NULL;
    F->order = NULL;
    F->lines = NULL;
    return st;
}

void pv_fill_run_lines(pv_fill_run *F, const int64_t *lines)
{
    F->lines = lines;
}

void pv_fill_run_account(pv_fill_run *F, const pv_fill_local *acc, double secs)
{
    pv_fill_local_merge(&F->acc, acc);
    F->secs += secs;
}

bool pv_fill_run_vector(const pv_fill_run *F)
{
    return F->fn == eval_vector;
}

/* A lane failed somewhere: re-evaluate the earliest failing lane (file order) serially,
 * identically on every rank, so the located error is the scalar evaluator's own. */
static pv_status locate_failure(pv_fill_run *F, pv_cursor *c, size_t off)
{
    pv_ctx *ctx = F->I->ctx;
    pv_interp *I = F->I;
    pv_err_clear(ctx);
    struct { double order; int rank; } mine = {F->failed ? (double)F->fail_order : HUGE_VAL,
                                               ctx->rank}, first;
    MPI_Allreduce(&mine, &first, 1, MPI_DOUBLE_INT, MPI_MINLOC, ctx->comm);
    double buf[3 + PV_USING_MAX];
    buf[0] = F->fail_dist[0];
    buf[1] = F->fail_dist[1];
    memcpy(buf + 2, F->fail_cols, sizeof F->fail_cols);
    buf[2 + PV_USING_MAX] = (double)F->fail_line;
    MPI_Bcast(buf, 3 + PV_USING_MAX, MPI_DOUBLE, first.rank, ctx->comm);
    const char *strs[PV_USING_MAX] = {0};
    pv_row row = {F->ncols, buf + 2, strs, NULL, (int64_t)buf[2 + PV_USING_MAX], 0, 0};
    pv_env_set_row(I->env, &row);
    pv_value d = pv_real(buf[0]), gd = pv_real(buf[1]), v = {0};
    pv_env_set(I->env, "VoxelDistance", &d);
    if (F->grid_units)
        pv_env_set(I->env, "GridDistance", &gd);
    pv_status st = pv_eval(I->env, F->code, &v);
    pv_env_set_row(I->env, NULL);
    pv_value_free(&v);
    if (st == PV_OK)
        st = pv_source_error(ctx, PV_ESCRIPT, c->tl->src, off, "vfill value expression failed");
    return st;
}

/* The statistics gnuplot prints, VoxelDistance, and at -v the timing and checksum. */
static void report(pv_fill_run *F, pv_cursor *c, const pv_data_spec *ds,
                   const pv_fill_result *res)
{
    pv_ctx *ctx = F->I->ctx;
    if (res->points_used == 0)
        pv_source_warn(ctx, c->tl->src, ds->name_off, "Skipping data file with no valid points");
    if (!ctx->opt.quiet)
        pv_msg(ctx, "\tnumber of points input:    %8lld\n\tnumber of voxels modified: %8lld\n",
               (long long)res->points_used, (long long)res->voxels_modified);
    pv_gridset_set_distance(F->I, res->last_distance);
    double secs = 0;
    MPI_Allreduce(&F->secs, &secs, 1, MPI_DOUBLE, MPI_MAX, ctx->comm);
    pv_log(ctx, PV_LOG_INFO, "grid", "%s: %lld voxel updates in %.3f s (%.1f M/s, %s path)",
           F->grid_units ? "vgfill" : "vfill", (long long)res->voxels_modified, secs,
           secs > 0 ? (double)res->voxels_modified / secs / 1e6 : 0.0,
           F->fn == eval_vector ? "vector" : "scalar");
    /* The checksum proves bit-identical grids across rank and thread counts; it costs a
     * pass over the grid, so only when info messages are shown (-v). */
    if (ctx->opt.log_level >= PV_LOG_INFO) {
        pv_grid_stats gst;
        if (pv_grid_stats_compute(ctx, F->g, &gst) == PV_OK)
            pv_log(ctx, PV_LOG_INFO, "grid", "%s checksum %016llx", F->g->name,
                   (unsigned long long)gst.checksum);
    }
}

static void destroy(pv_fill_run *F)
{
    for (int t = 0; t < F->nthreads; t++) {
        if (F->scratch)
            pv_vscratch_destroy(F->scratch[t]);
        if (F->lanes)
            free(F->lanes[t]);
    }
    free(F->scratch);
    free(F->lanes);
    pv_vcode_destroy(F->vc);
    free(F);
}

pv_status pv_fill_run_end(pv_fill_run *F, pv_cursor *c, const pv_data_spec *ds, size_t off,
                          pv_status st)
{
    pv_ctx *ctx = F->I->ctx;
    int flags[2] = {F->failed, pv_gridset_fill_end(F->I)}, any[2] = {0, 0};
    st = pv_status_agree(ctx, st);
    if (st == PV_OK) {
        MPI_Allreduce(flags, any, 2, MPI_INT, MPI_MAX, ctx->comm);
        if (any[1]) {
            size_t s0, s1;
            pv_code_span(F->code, &s0, &s1);
            st = pv_source_error(ctx, PV_ESCRIPT, c->tl->src, s0,
                                 "voxel() cannot be used in a %s value expression (it would "
                                 "read the grid being filled)",
                                 F->grid_units ? "vgfill" : "vfill");
        } else if (any[0]) {
            st = locate_failure(F, c, off);
        }
    }
    if (st == PV_OK) {
        pv_fill_result res;
        pv_fill_local_reduce(ctx, &F->acc, &res);
        report(F, c, ds, &res);
    }
    destroy(F);
    return st;
}

bool pv_fill_report_bricks(pv_interp *I, const pv_grid *g, const pv_fill_source *src,
                           size_t n, bool grid_units)
{
    pv_ctx *ctx = I->ctx;
    for (size_t k = 0; k < n; k++) {
        int64_t idx[3];
        if (!pv_grid_index(g, src[k].x, src[k].y, src[k].z, idx))
            continue;
        double r = src[k].radius;
        long long b[3];
        for (int a = 0; a < 3; a++)
            b[a] = 2 * (long long)floor(grid_units ? r : r / g->delta[a]) + 1;
        if (!ctx->opt.quiet)
            pv_msg(ctx, "\tradius %g gives a brick of %lld voxels on x, %lld voxels on y, "
                        "%lld voxels on z\n", r, b[0], b[1], b[2]);
        if (b[0] > 0 && b[1] > 0 && b[2] > 0)
            return true;
    }
    return false;
}
