/*
 * exec/gridfill.c: `vfill` and `vgfill` (GP-5, DEC-3), the fill driver of the grid
 * commands.
 *
 * Parses the command, then hands the source to its reader: 3D arrays (fill_array.c), text
 * files split over the ranks (fill_text.c), or here every other source (datablocks,
 * pipes, inline data, '+', '++'), whose rows every rank reads from the broadcast bytes,
 * evaluating x:y:z:radius per row, and fills as one piece of a fill session
 * (fillrun.h: the value compiled for the kernel's lanes, failures located, gnuplot's
 * result lines).
 */
#include "fillrun.h"

#include <math.h>
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

/* Every rank holds every source: one piece, counted on rank 0. */
static pv_status run_fill(pv_interp *I, pv_cursor *c, pv_grid *g, pv_data_spec *ds,
                          pv_code *value, bool grid_units, size_t off)
{
    if (pv_fill_array_applies(I, ds))
        return pv_fill_array_run(I, c, g, ds, value, grid_units, off);
    if (pv_fill_text_applies(I, ds))
        return pv_fill_text_run(I, c, g, ds, value, grid_units, off);
    fill_rows R = {0};
    R.ctx = I->ctx;
    /* every rank parses the sources itself: one that fails (out of memory) must not
     * leave the others in the fill's reductions */
    pv_status st = pv_status_agree(I->ctx, fill_read_sources(I, c, ds, grid_units, &R));
    if (st != PV_OK) {
        rows_fini(&R);
        return st;
    }
    pv_fill_report_bricks(I, g, R.src, R.n, grid_units);
    pv_fill_run *run;
    st = pv_fill_run_begin(I, g, value, grid_units, R.ncols, &run);
    if (st == PV_OK) {
        /* the table keeps MAX_FILL_COLS columns per row; the session reads R.ncols */
        double *cols = R.cols;
        if (R.ncols < MAX_FILL_COLS && R.n > 0) {
            for (size_t k = 0; k < R.n; k++)
                memmove(R.cols + k * (size_t)R.ncols, R.cols + k * MAX_FILL_COLS,
                        (size_t)R.ncols * sizeof *R.cols);
        }
        unsigned flags = PV_FILL_PROGRESS | (I->ctx->rank == 0 ? 0u : PV_FILL_NO_COUNT);
        st = pv_fill_run_piece(run, R.src, cols, R.n, NULL, 0, flags);
        st = pv_fill_run_end(run, c, ds, off, st);
    } else {
        st = pv_status_agree(I->ctx, st);
    }
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
