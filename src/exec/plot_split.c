/*
 * exec/plot_split.c: a plot element's using expressions evaluated by the ranks together.
 *
 * The SPMD interpreter runs a plot command on every rank, so without this every rank
 * evaluates every row: with P ranks the data pass of a frame costs P times its work and
 * does not get faster with more ranks. When the expressions are pure (pv_code_is_pure:
 * no assignment, no rand(), only pure functions and voxel()/palette()), each rank
 * evaluates its share of the rows (runs of PV_DATA_SPLIT_RUN dealt round-robin), the
 * voxel() reads of all ranks go in one exchange, and one allgather gives every rank every
 * value, which is then handed to the callback in row order: the same points, bit for bit,
 * as the evaluation of all rows on every rank (ARCH-21 in docs/ARCHITECTURE.md).
 *
 * Anything a rank cannot do alone (an evaluation error, a voxel() call that took another
 * branch than its recording, out of memory) is agreed on, and then every rank evaluates
 * every row as before, which reports the error where it always has.
 */
#include "plot.h"

#include "gridcmd.h"
#include "gridset.h"

#include <limits.h>
#include <math.h>
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

/* The events and values of one split pass, in order. */
typedef struct split_rec {
    pv_ctx *ctx;
    int nvals;           /* values a point (-1: no point yet) */
    bool ragged;         /* points of different widths: cannot be shared */
    unsigned char *ev;   /* per event: 0 point, 1 block end, 2 set end */
    size_t nev, capev;
    double *val;         /* nvals a point, placeholders NaN */
    size_t nval, capval;
    size_t npts;
} split_rec;

static pv_status record_event(void *ud, pv_data_event ev, const pv_data_point *pt)
{
    split_rec *r = ud;
    if (!PV_GROW(r->ctx, r->ev, r->capev, r->nev + 1)) return PV_ENOMEM;
    if (ev != PV_DATA_POINT) {
        r->ev[r->nev++] = ev == PV_DATA_BLOCK_END ? 1 : 2;
        return PV_OK;
    }
    if (r->nvals < 0) r->nvals = pt->nvals;
    if (pt->nvals != r->nvals) {
        r->ragged = true;
        return PV_OK;
    }
    if (!PV_GROW(r->ctx, r->val, r->capval, r->nval + (size_t)pt->nvals)) return PV_ENOMEM;
    memcpy(r->val + r->nval, pt->vals, (size_t)pt->nvals * sizeof *pt->vals);
    r->nval += (size_t)pt->nvals;
    r->ev[r->nev++] = 0;
    r->npts++;
    return PV_OK;
}

static void rec_free(split_rec *r)
{
    pv_free(r->ctx, r->ev, r->capev);
    pv_free(r->ctx, r->val, r->capval * sizeof *r->val);
    memset(r, 0, sizeof *r);
}

static pv_status ignore_event(void *ud, pv_data_event ev, const pv_data_point *pt)
{
    (void)ud, (void)ev, (void)pt;
    return PV_OK;
}

/* Can this element be evaluated in shares? *calls_ext: it calls voxel() or palette(). */
static bool splittable(pv_interp *I, const pv_data_spec *ds, bool *calls_ext)
{
    bool any_expr = false;
    *calls_ext = false;
    if (I->ctx->nranks < 2 || ds->matrix != PV_MATRIX_NONE || ds->binary) return false;
    /* bare columns alone cost nothing to read */
    return pv_plot_specs_pure(I, ds, &any_expr, calls_ext) && any_expr;
}

/* Points of share r among npts dealt in runs of PV_DATA_SPLIT_RUN over P shares. */
static size_t share_points(size_t npts, int P, int r)
{
    size_t run = PV_DATA_SPLIT_RUN, nruns = (npts + run - 1) / run, n = 0;
    for (size_t j = (size_t)r; j < nruns; j += (size_t)P)
        n += j + 1 < nruns ? run : npts - j * run;
    return n;
}

/* Every rank's own values to every rank: the placeholders of rec->val filled in. */
static pv_status share_values(pv_ctx *ctx, split_rec *rec)
{
    int P = ctx->nranks, me = ctx->rank, nv = rec->nvals;
    size_t run = PV_DATA_SPLIT_RUN, npts = rec->npts, nruns = (npts + run - 1) / run;
    int *cnt = malloc(2 * (size_t)P * sizeof *cnt);
    double *mine = malloc((share_points(npts, P, me) * (size_t)nv + 1) * sizeof *mine);
    double *all = malloc((rec->nval + 1) * sizeof *all);
    pv_status st = cnt && mine && all ? PV_OK : PV_ENOMEM;
    if (st == PV_OK) {
        int *displ = cnt + P;
        for (int r = 0; r < P; r++) {
            cnt[r] = (int)(share_points(npts, P, r) * (size_t)nv);
            displ[r] = r ? displ[r - 1] + cnt[r - 1] : 0;
        }
        size_t n = 0;
        for (size_t j = (size_t)me; j < nruns; j += (size_t)P) {
            size_t len = (j + 1 < nruns ? run : npts - j * run) * (size_t)nv;
            memcpy(mine + n, rec->val + j * run * (size_t)nv, len * sizeof *mine);
            n += len;
        }
        if (MPI_Allgatherv(mine, cnt[me], MPI_DOUBLE, all, cnt, displ, MPI_DOUBLE,
                           ctx->comm) != MPI_SUCCESS)
            st = PV_EMPI;
        /* run j sits in rank j % P's part, after that rank's earlier runs */
        for (size_t j = 0; j < nruns && st == PV_OK; j++) {
            int r = (int)(j % (size_t)P);
            size_t len = (j + 1 < nruns ? run : npts - j * run) * (size_t)nv;
            memcpy(rec->val + j * run * (size_t)nv, all + displ[r], len * sizeof *all);
            displ[r] += (int)len;
        }
    }
    free(cnt);
    free(mine);
    free(all);
    return st;
}

/* One split attempt. *done false: every rank evaluates every row instead (agreed). */
static pv_status try_split(pv_interp *I, const pv_data_spec *ds, const pv_data_opts *opts,
                           pv_exec_input *src, const pv_sampling *samp, int ndefault,
                           bool calls_ext, pv_data_event_fn fn, void *ud, bool *done)
{
    pv_ctx *ctx = I->ctx;
    pv_data_opts so = *opts;
    so.split_size = ctx->nranks;
    so.split_rank = ctx->rank;
    split_rec rec = {ctx, -1, false, NULL, 0, 0, NULL, 0, 0, 0};
    bool fetched = true;
    *done = false;
    /* a rank that failed alone earlier in this command (building its elements) waits in
     * an agreement: meet it there before this split's own reductions */
    pv_status st = pv_status_agree(ctx, PV_OK);
    if (st != PV_OK) return st;
    if (calls_ext) { /* record this rank's voxel() points, then one exchange for all */
        pv_gridset_batch_begin_split(I);
        st = pv_exec_data_pass(I, src, ds, &so, samp, ndefault, false, ignore_event, NULL);
        int bad = st != PV_OK, any_bad = 0;
        MPI_Allreduce(&bad, &any_bad, 1, MPI_INT, MPI_MAX, ctx->comm);
        st = PV_OK;
        if (any_bad) fetched = false;
        else st = pv_gridset_batch_fetch_split(I, &fetched);
    }
    if (st == PV_OK && fetched)
        st = pv_exec_data_pass(I, src, ds, &so, samp, ndefault, false, record_event, &rec);
    /* agree: everyone succeeded, alone, with the same points */
    long long mine[3] = {0, 0, 0}, agreed[3];
    bool failed = !fetched || st != PV_OK || rec.ragged ||
                  (calls_ext && pv_gridset_batch_diverged(I));
    mine[0] = failed;
    mine[1] = (long long)rec.npts, mine[2] = -(long long)rec.npts;
    MPI_Allreduce(mine, agreed, 3, MPI_LONG_LONG, MPI_MAX, ctx->comm);
    if (calls_ext) pv_gridset_batch_end(I);
    bool fits = rec.nval <= (size_t)INT_MAX;
    if (agreed[0] || agreed[1] != -agreed[2] || !fits) {
        pv_err_clear(ctx); /* the evaluation of every row reports it */
        rec_free(&rec);
        pv_log(ctx, PV_LOG_DEBUG, "plot", "split evaluation not possible: every rank evaluates every row");
        return PV_OK;
    }
    *done = true;
    st = pv_status_agree(ctx, rec.npts && rec.nvals > 0 ? share_values(ctx, &rec) : PV_OK);
    if (st != PV_OK) {
        rec_free(&rec);
        return st == PV_ENOMEM ? pv_err(ctx, st, "out of memory sharing plot data")
                               : pv_err(ctx, st, "MPI_Allgatherv failed sharing plot data");
    }
    pv_log(ctx, PV_LOG_DEBUG, "plot", "%zu points evaluated in %d shares", rec.npts, ctx->nranks);
    const double *v = rec.val;
    for (size_t e = 0; e < rec.nev && st == PV_OK; e++) {
        if (rec.ev[e] != 0) {
            st = fn(ud, rec.ev[e] == 1 ? PV_DATA_BLOCK_END : PV_DATA_SET_END, NULL);
            continue;
        }
        pv_data_point pt = {v, NULL, rec.nvals, NULL, 0, false};
        st = fn(ud, PV_DATA_POINT, &pt);
        v += rec.nvals;
    }
    rec_free(&rec);
    return st;
}

pv_status pv_plot_iterate_values(pv_interp *I, const pv_data_spec *ds,
                                 const pv_data_opts *opts, pv_exec_input *src,
                                 const pv_sampling *samp, int ndefault, pv_data_event_fn fn,
                                 void *ud)
{
    bool calls_ext = false, done = false;
    if (splittable(I, ds, &calls_ext)) {
        pv_status st = try_split(I, ds, opts, src, samp, ndefault, calls_ext, fn, ud, &done);
        if (done || st != PV_OK) return st;
    }
    return pv_plot_iterate(I, ds, opts, src, samp, ndefault, fn, ud);
}
