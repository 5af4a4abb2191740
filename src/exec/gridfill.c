/*
 * exec/gridfill.c: `vfill` and `vgfill` (GP-5, DEC-3), the fill driver of the grid
 * commands.
 *
 * vfill reads its sources on every rank from the broadcast bytes, evaluates x:y:z:radius
 * per row, and hands the value expression to the grid kernel compiled for the vector VM
 * (VoxelDistance, GridDistance and the row's columns are its lane inputs); expressions the
 * vector VM cannot take run through the scalar VM one batch at a time. run_fill goes
 * through its phases in order: read the sources, report the bricks, compile the value,
 * run the kernel, locate a failure, report.
 */
#include "gridcmd.h"

#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#define MAX_FILL_COLS PV_USING_MAX /* columns of a source row kept for the value spec */

typedef struct fill_rows {
    pv_ctx *ctx;
    pv_fill_source *src;   /* x, y, z, radius per accepted row (tracked: capsrc slots) */
    double *cols;          /* MAX_FILL_COLS values per row (tracked: capcols doubles) */
    size_t n, capsrc, capcols;
    int ncols;             /* most columns seen in a row (<= MAX_FILL_COLS) */
} fill_rows;

static void rows_fini(fill_rows *R)
{
    pv_free(R->ctx, R->src, R->capsrc * sizeof *R->src);
    pv_free(R->ctx, R->cols, R->capcols * sizeof *R->cols);
}

static pv_status collect_row(void *ud, const double *vals, int nvals, const pv_row *row)
{
    fill_rows *R = ud;
    if (nvals < 4)
        return PV_OK;
    for (int k = 0; k < 4; k++)
        if (isnan(vals[k]))
            return PV_OK; /* rows with undefined coordinates are skipped */
    if (!PV_GROW(R->ctx, R->src, R->capsrc, R->n + 1) ||
        !PV_GROW(R->ctx, R->cols, R->capcols, (R->n + 1) * MAX_FILL_COLS)) {
        pv_err_clear(R->ctx); /* run_fill reports it, naming the sources */
        return PV_ENOMEM;
    }
    R->src[R->n] = (pv_fill_source){vals[0], vals[1], vals[2], vals[3]};
    double *cl = R->cols + R->n * MAX_FILL_COLS;
    int nc = row ? row->ncols : 0;
    if (nc > MAX_FILL_COLS)
        nc = MAX_FILL_COLS;
    for (int k = 0; k < MAX_FILL_COLS; k++)
        cl[k] = k < nc ? row->val[k] : (double)NAN;
    if (nc > R->ncols)
        R->ncols = nc;
    R->n++;
    return PV_OK;
}


typedef struct fill_eval {
    pv_interp *I;
    const fill_rows *R;
    const pv_code *code;       /* the value expression */
    pv_vcode *vc;              /* its vector form, or NULL: scalar fallback */
    pv_vscratch **scratch;     /* one per thread */
    int nslots;
    int failed;                /* some lane raised a script error */
    size_t fail_src;           /* the first such source (file order) ... */
    double fail_dist[2];       /* ... and the VoxelDistance, GridDistance of a failing lane */
    bool grid_units;           /* vgfill: GridDistance is set too */
} fill_eval;

/* Remember the earliest failing source, so every rank can re-evaluate the same lane
 * serially afterwards and report gnuplot's located error. */
static void note_failure(fill_eval *F, size_t src, double dist, double gdist)
{
#pragma omp critical(pv_fill_fail)
    if (!F->failed || src < F->fail_src) {
        F->failed = 1;
        F->fail_src = src;
        F->fail_dist[0] = dist;
        F->fail_dist[1] = gdist;
    }
}

static void eval_vector(void *ud, int tid, size_t src, size_t n, const double *dist,
                        const double *gdist, double *out)
{
    fill_eval *F = ud;
    pv_vinput in[2 + MAX_FILL_COLS];
    in[0] = (pv_vinput){dist, 1};
    in[1] = (pv_vinput){gdist, 1};
    const double *cols = F->R->cols + src * MAX_FILL_COLS;
    for (int k = 2; k < F->nslots; k++)
        in[k] = (pv_vinput){&cols[k - 2], 0};
    pv_veval(F->vc, F->scratch[tid], n, in, out);
    if (pv_vscratch_take_error(F->scratch[tid])) {
        size_t k = 0;
        while (k + 1 < n && !isnan(out[k]))
            k++;
        note_failure(F, src, dist[k], gdist ? gdist[k] : 0.0);
    }
}

/* Scalar fallback: the interpreter's environment is shared, so one thread at a time. */
static void eval_scalar(void *ud, int tid, size_t src, size_t n, const double *dist,
                        const double *gdist, double *out)
{
    fill_eval *F = ud;
    (void)tid;
    (void)gdist;
    const double *cols = F->R->cols + src * MAX_FILL_COLS;
    const char *strs[MAX_FILL_COLS] = {0};
    pv_row row = {F->R->ncols, cols, strs, NULL, (int64_t)src, 0, 0};
#pragma omp critical(pv_fill_scalar)
    {
        pv_env_set_row(F->I->env, &row);
        for (size_t k = 0; k < n; k++) {
            pv_value d = pv_real(dist[k]), v = {0};
            pv_env_set(F->I->env, "VoxelDistance", &d);
            if (F->grid_units) {
                pv_value gd = pv_real(gdist[k]);
                pv_env_set(F->I->env, "GridDistance", &gd);
            }
            if (F->failed || pv_eval(F->I->env, F->code, &v) != PV_OK) {
                if (!F->failed)
                    note_failure(F, src, dist[k], gdist ? gdist[k] : 0.0);
                out[k] = 0;
                continue;
            }
            out[k] = (v.type == PV_V_INT || v.type == PV_V_CMPLX) ? pv_value_real(&v) : (double)NAN;
            pv_value_free(&v);
        }
        pv_env_set_row(F->I->env, NULL);
    }
}

/* ---- run_fill's phases ---------------------------------------------------------- */

/* Read the sources (every rank, from the broadcast bytes) and keep the accepted rows'
 * coordinates, radii and columns. */
static pv_status fill_read_sources(pv_interp *I, pv_cursor *c, pv_data_spec *ds,
                                   bool grid_units, fill_rows *R)
{
    pv_ctx *ctx = I->ctx;
    pv_exec_input in; /* a file that cannot be read: located at its name */
    pv_status st = pv_exec_input_open(I, c, ds, &in);
    if (st != PV_OK)
        return st;
    if (!ctx->opt.quiet)
        pv_msg(ctx, "%s from %s :\n", grid_units ? "vgfill" : "vfill",
               ds->kind == PV_DS_PLUS ? "+" : ds->kind == PV_DS_PLUSPLUS ? "++" : ds->name);
    /* Iterate with the four coordinate specs only; the value spec runs per voxel. */
    pv_data_spec coords = *ds;
    coords.nusing = 4;
    pv_sampling samp;
    pv_exec_sampling(I, ds, &samp);
    st = pv_exec_data_rows(I, &in, &coords, &samp, 4, collect_row, R);
    pv_exec_input_close(&in);
    if (st == PV_ENOMEM)
        st = pv_err(ctx, PV_ENOMEM, "out of memory reading vfill sources");
    return st;
}

/* The brick line gnuplot prints for each source in the grid until one modifies a voxel
 * (a source modifies one exactly when its brick is not empty). */
static void fill_report_bricks(pv_interp *I, const pv_grid *g, const fill_rows *R,
                               bool grid_units)
{
    pv_ctx *ctx = I->ctx;
    for (size_t k = 0; k < R->n && !ctx->opt.quiet; k++) {
        int64_t idx[3];
        if (!pv_grid_index(g, R->src[k].x, R->src[k].y, R->src[k].z, idx))
            continue;
        double r = R->src[k].radius;
        long long b[3];
        for (int a = 0; a < 3; a++)
            b[a] = 2 * (long long)floor(grid_units ? r : r / g->delta[a]) + 1;
        pv_msg(ctx, "\tradius %g gives a brick of %lld voxels on x, %lld voxels on y, %lld "
                    "voxels on z\n", r, b[0], b[1], b[2]);
        if (b[0] > 0 && b[1] > 0 && b[2] > 0)
            break;
    }
}

/* Compile the value spec for lanes (VoxelDistance, GridDistance, $1..$ncols); the scalar
 * evaluator when the vector VM cannot take it. F->vc and F->scratch are set on success. */
static pv_fill_eval_fn fill_compile(pv_interp *I, fill_eval *F, int nthreads)
{
    const char *slots[2 + MAX_FILL_COLS];
    char colname[MAX_FILL_COLS][16]; /* "$" and any int (-Wformat-truncation at -O0/-O1) */
    slots[0] = "VoxelDistance";
    slots[1] = "GridDistance";
    for (int k = 0; k < F->R->ncols; k++) {
        snprintf(colname[k], sizeof colname[k], "$%d", k + 1);
        slots[2 + k] = colname[k];
    }
    pv_fill_eval_fn fn = eval_scalar;
    if (pv_vcompile(I->env, F->code, F->nslots, slots, &F->vc) == PV_OK) {
        F->scratch = calloc((size_t)nthreads, sizeof *F->scratch);
        bool ok = F->scratch != NULL;
        for (int t = 0; ok && t < nthreads; t++)
            ok = (F->scratch[t] = pv_vscratch_create(F->vc, PV_FILL_MAX_LANES)) != NULL;
        if (ok)
            fn = eval_vector;
    }
    pv_err_clear(I->ctx); /* a failed vector compile is not an error: the scalar path runs */
    return fn;
}

/* Run the grid kernel. *anyfail: some lane on some rank failed; *voxel_called: the value
 * called voxel() somewhere (both agreed over the ranks). */
static pv_status fill_run_kernel(pv_interp *I, pv_grid *g, fill_eval *F, pv_fill_eval_fn fn,
                                 pv_fill_result *res, double *secs, bool *anyfail,
                                 bool *voxel_called)
{
    pv_ctx *ctx = I->ctx;
    /* GridDistance lanes cost a second sqrt per voxel: only when the value can read them */
    unsigned fill_flags = F->grid_units ? PV_FILL_GRID_UNITS : 0u;
    if (pv_code_uses_name(F->code, "GridDistance"))
        fill_flags |= PV_FILL_NEED_GRIDDIST;
    double t0 = MPI_Wtime();
    pv_gridset_fill_begin(I);
    pv_status st = pv_grid_fill(ctx, g, F->R->src, F->R->n, fill_flags, fn, F, res);
    int flags[2] = {F->failed, pv_gridset_fill_end(I)}, any[2] = {0, 0};
    *secs = MPI_Wtime() - t0;
    MPI_Allreduce(flags, any, 2, MPI_INT, MPI_MAX, ctx->comm);
    *anyfail = any[0] != 0;
    *voxel_called = any[1] != 0;
    return st;
}

/* A lane failed: re-evaluate the earliest failing lane serially, identically on every
 * rank, so the located error is the scalar evaluator's own. */
static pv_status fill_locate_failure(pv_interp *I, pv_cursor *c, const fill_eval *F,
                                     size_t off)
{
    pv_ctx *ctx = I->ctx;
    pv_err_clear(ctx);
    struct { double src; int rank; } mine = {F->failed ? (double)F->fail_src : HUGE_VAL,
                                              ctx->rank}, first;
    MPI_Allreduce(&mine, &first, 1, MPI_DOUBLE_INT, MPI_MINLOC, ctx->comm);
    double dist[2] = {F->fail_dist[0], F->fail_dist[1]};
    MPI_Bcast(dist, 2, MPI_DOUBLE, first.rank, ctx->comm);
    size_t fs = (size_t)first.src;
    const double *cols = F->R->cols + fs * MAX_FILL_COLS;
    const char *strs[MAX_FILL_COLS] = {0};
    pv_row row = {F->R->ncols, cols, strs, NULL, (int64_t)fs, 0, 0};
    pv_env_set_row(I->env, &row);
    pv_value d = pv_real(dist[0]), gd = pv_real(dist[1]), v = {0};
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
static void fill_report(pv_interp *I, pv_cursor *c, pv_grid *g, const pv_data_spec *ds,
                        const pv_fill_result *res, double secs, bool grid_units, bool vector)
{
    pv_ctx *ctx = I->ctx;
    if (res->points_used == 0)
        pv_source_warn(ctx, c->tl->src, ds->name_off, "Skipping data file with no valid points");
    if (!ctx->opt.quiet)
        pv_msg(ctx, "\tnumber of points input:    %8lld\n\tnumber of voxels modified: %8lld\n",
               (long long)res->points_used, (long long)res->voxels_modified);
    pv_gridset_set_distance(I, res->last_distance);
    pv_log(ctx, PV_LOG_INFO, "grid", "%s: %lld voxel updates in %.3f s (%.1f M/s, %s path)",
           grid_units ? "vgfill" : "vfill", (long long)res->voxels_modified, secs,
           secs > 0 ? (double)res->voxels_modified / secs / 1e6 : 0.0,
           vector ? "vector" : "scalar");
    /* The checksum proves bit-identical grids across rank and thread counts; it costs a
     * pass over the grid, so only when info messages are shown (-v). */
    if (ctx->opt.log_level >= PV_LOG_INFO) {
        pv_grid_stats gst;
        if (pv_grid_stats_compute(ctx, g, &gst) == PV_OK)
            pv_log(ctx, PV_LOG_INFO, "grid", "%s checksum %016llx", g->name,
                   (unsigned long long)gst.checksum);
    }
}

static pv_status run_fill(pv_interp *I, pv_cursor *c, pv_grid *g, pv_data_spec *ds,
                          pv_code *value, bool grid_units, size_t off)
{
    fill_rows R = {0};
    R.ctx = I->ctx;
    /* every rank parses the sources itself: one that fails (out of memory) must not
     * leave the others in the fill's reductions */
    pv_status st = pv_status_agree(I->ctx, fill_read_sources(I, c, ds, grid_units, &R));
    if (st != PV_OK) {
        rows_fini(&R);
        return st;
    }
    fill_report_bricks(I, g, &R, grid_units);
    fill_eval F = {I, &R, value, NULL, NULL, 2 + R.ncols, 0, 0, {0, 0}, grid_units};
    int nthreads = omp_get_max_threads();
    pv_fill_eval_fn fn = fill_compile(I, &F, nthreads);
    pv_fill_result res;
    double secs;
    bool anyfail, voxel_called;
    st = fill_run_kernel(I, g, &F, fn, &res, &secs, &anyfail, &voxel_called);
    if (st == PV_OK && voxel_called) {
        size_t s0, s1;
        pv_code_span(value, &s0, &s1);
        st = pv_source_error(I->ctx, PV_ESCRIPT, c->tl->src, s0,
                             "voxel() cannot be used in a %s value expression (it would read "
                             "the grid being filled)", grid_units ? "vgfill" : "vfill");
    } else if (st == PV_OK && anyfail) {
        st = fill_locate_failure(I, c, &F, off);
    }
    if (st == PV_OK)
        fill_report(I, c, g, ds, &res, secs, grid_units, fn == eval_vector);
    if (F.scratch)
        for (int t = 0; t < nthreads; t++)
            pv_vscratch_destroy(F.scratch[t]);
    free(F.scratch);
    pv_vcode_destroy(F.vc);
    rows_fini(&R);
    return st;
}

typedef struct fill_args {
    bool grid_units;
    size_t off;
} fill_args;

static pv_status fill_one(pv_interp *I, pv_cursor *c, bool exec, void *ud)
{
    fill_args *A = ud;
    pv_data_spec ds;
    pv_data_spec_init(&ds);
    pv_status st = PV_OK;
    /* `vfill [1:9] '+' using ...`: sample ranges before the source, as in plot */
    if (pv_cur_is_op(c, "["))
        st = pv_data_sample_ranges_parse(c, &ds);
    if (st == PV_OK)
        st = pv_data_spec_parse(c, I->env, exec, &ds);
    if (st != PV_OK)
        goto out;
    if (pv_cur_is_word(c, "w$ith")) {
        st = pv_cur_error(c, PV_ESYNTAX, "%s does not support 'with' options",
                          A->grid_units ? "vgfill" : "vfill");
        goto out;
    }
    if (!pv_cur_at_end(c) && !pv_cur_is_op(c, ",")) {
        st = pv_cur_error(c, PV_ESYNTAX, "unexpected or unrecognized token");
        goto out;
    }
    if (ds.nusing > 5) {
        st = pv_source_error(I->ctx, PV_ESYNTAX, c->tl->src, A->off,
                             "too many columns in using specification");
        goto out;
    }
    if (ds.nusing != 5) {
        st = pv_source_error(I->ctx, PV_ESYNTAX, c->tl->src, A->off,
                             "5th user spec to %s must be an expression",
                             A->grid_units ? "vgfill" : "vfill");
        goto out;
    }
    if (!exec)
        goto out;
    pv_grid *g = pv_gridset_active(I);
    if (!g) {
        st = pv_source_error(I->ctx, PV_ESCRIPT, c->tl->src, A->off, "no current voxel grid");
        goto out;
    }
    if ((st = pv_gridset_ensure_ranges(I, g, c, A->off)) != PV_OK)
        goto out;
    /* DEC-3: a bare column as the 5th spec means ($N) */
    pv_using_entry *v = &ds.using[4];
    pv_code *value = v->expr;
    pv_code *owned = NULL;
    if (v->kind != PV_USE_EXPR || !value) {
        if (v->kind == PV_USE_COLUMN && v->expr == NULL) {
            char buf[32];
            snprintf(buf, sizeof buf, "$%lld", (long long)v->column);
            owned = pv_exec_compile_text(I, buf);
            value = owned;
        }
        if (!value) {
            st = pv_source_error(I->ctx, PV_ESYNTAX, c->tl->src, v->off,
                                 "5th user spec to vfill must be an expression or a column");
            goto out;
        }
    }
    st = run_fill(I, c, g, &ds, value, A->grid_units, A->off);
    pv_code_destroy(owned);
out:
    pv_data_spec_fini(&ds);
    return st;
}

static pv_status fill_cmd(pv_interp *I, pv_cursor *c, bool exec, bool grid_units)
{
    fill_args A = {grid_units, pv_cur_offset(c)};
    if (grid_units && exec && !pv_env_get(I->env, "GridDistance")) {
        pv_value z = pv_real(0);
        pv_env_set(I->env, "GridDistance", &z);
    }
    pv_status st;
    do {
        if (pv_cur_accept_word(c, "for"))
            st = pv_exec_iterate(I, c, exec, fill_one, &A);
        else
            st = fill_one(I, c, exec, &A);
    } while (st == PV_OK && pv_cur_accept_op(c, ","));
    return st;
}

pv_status pv_cmd_vfill(pv_interp *I, pv_cursor *c, bool exec)
{
    return fill_cmd(I, c, exec, false);
}

pv_status pv_cmd_vgfill(pv_interp *I, pv_cursor *c, bool exec)
{
    return fill_cmd(I, c, exec, true);
}
