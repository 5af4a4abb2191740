/*
 * exec/gridset.c: the grid table of an interpreter and voxel() (gridset.h).
 *
 * voxel(x,y,z) reads are collective (the owning rank's value reaches everyone), so they
 * work in any expression every rank evaluates; a plot element's reads are batched into
 * one exchange (pv_gridset_batch_*).
 */
#include "gridset.h"

#include <limits.h>
#include <math.h>
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

struct pv_gridset {
    pv_grid **grid;        /* in creation order */
    size_t ngrid;          /* untracked (malloc): it lives as long as the interpreter, and
                            * tracked memory would count against the grids' memory check */
    int active;            /* index into grid[], -1: none */
    bool pending[3];       /* `set vxrange` before any grid (DEC-2) */
    double pend_lo[3], pend_hi[3];
    bool filling;          /* a fill kernel is running: voxel() must not be collective */
    int voxel_in_fill;     /* voxel() was called by a fill's value expression */
    /* batched voxel() reads of one plot element (pv_gridset_batch_*) */
    int batch;             /* 0 off, 1 recording calls, 2 replaying answers */
    pv_grid *batch_grid;   /* the grid every recorded call read (NULL: none yet) */
    bool batch_mixed;      /* calls read different grids: no batching */
    bool batch_split;      /* ranks record their own rows: replay never reads collectively */
    bool batch_diverged;   /* (split) a replayed call differed from its recording */
    double *bx, *by, *bz;  /* recorded points (tracked memory: bcap[k] slots each; freed
                            * when the batch ends, so no grid's memory check sees them) */
    double *bv;            /* their values (malloc'd, bn) */
    size_t bn, bcap[3], bnext;
};

static pv_gridset *gs_of(pv_interp *I) { return I->grids; }

static pv_grid *active_grid(pv_interp *I)
{
    pv_gridset *gs = gs_of(I);
    return gs->active >= 0 ? gs->grid[gs->active] : NULL;
}

pv_grid *pv_gridset_find(pv_interp *I, const char *name)
{
    pv_gridset *gs = gs_of(I);
    for (size_t k = 0; k < gs->ngrid; k++)
        if (strcmp(gs->grid[k]->name, name) == 0)
            return gs->grid[k];
    return NULL;
}

static int find_index(pv_gridset *gs, const char *name)
{
    for (size_t k = 0; k < gs->ngrid; k++)
        if (strcmp(gs->grid[k]->name, name) == 0)
            return (int)k;
    return -1;
}

void pv_gridset_batch_begin(pv_interp *I)
{
    pv_gridset *gs = gs_of(I);
    gs->batch = 1;
    gs->batch_grid = NULL;
    gs->batch_mixed = false;
    gs->batch_split = false;
    gs->batch_diverged = false;
    gs->bn = gs->bnext = 0;
}

void pv_gridset_batch_begin_split(pv_interp *I)
{
    pv_gridset_batch_begin(I);
    gs_of(I)->batch_split = true;
}

bool pv_gridset_batch_diverged(pv_interp *I) { return gs_of(I)->batch_diverged; }

/* Every rank's recorded points, in rank order, into one list (pv_alloc'd 3 x total
 * doubles, x then y then z); *first is where this rank's own start. Collective. */
static pv_status gather_points(pv_interp *I, pv_gridset *gs, double **all, size_t *total,
                               size_t *first)
{
    pv_ctx *ctx = I->ctx;
    int P = ctx->nranks;
    int *cnt = calloc(2 * (size_t)P, sizeof *cnt);
    unsigned long long mine = gs->bn, sum = 0;
    int ok = cnt != NULL && gs->bn <= INT_MAX, all_ok = 0;
    MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, ctx->comm);
    MPI_Allreduce(&mine, &sum, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, ctx->comm);
    if (!all_ok || sum > INT_MAX) {
        free(cnt);
        return pv_status_agree(ctx, pv_err(ctx, PV_ENOMEM, "too many voxel() reads in one plot"));
    }
    int n = (int)gs->bn, *displ = cnt + P;
    MPI_Allgather(&n, 1, MPI_INT, cnt, 1, MPI_INT, ctx->comm);
    for (int r = 1; r < P; r++) displ[r] = displ[r - 1] + cnt[r - 1];
    *total = (size_t)sum;
    *first = (size_t)displ[ctx->rank];
    *all = pv_alloc(ctx, 3 * (*total ? *total : 1) * sizeof **all);
    pv_status st = pv_status_agree(ctx, *all ? PV_OK : pv_err(ctx, PV_ENOMEM, "out of memory"));
    if (st == PV_OK) {
        const double *mine3[3] = {gs->bx, gs->by, gs->bz};
        for (int k = 0; k < 3 && st == PV_OK; k++)
            if (MPI_Allgatherv(mine3[k], n, MPI_DOUBLE, *all + (size_t)k * *total, cnt, displ,
                               MPI_DOUBLE, ctx->comm) != MPI_SUCCESS)
                st = pv_err(ctx, PV_EMPI, "MPI_Allgatherv failed in voxel lookup");
    }
    if (st != PV_OK && *all) {
        pv_free(ctx, *all, 3 * (*total ? *total : 1) * sizeof **all);
        *all = NULL;
    }
    free(cnt);
    return st;
}

pv_status pv_gridset_batch_fetch_split(pv_interp *I, bool *ok)
{
    pv_gridset *gs = gs_of(I);
    pv_ctx *ctx = I->ctx;
    /* the grid every rank's calls read: its index, or -1 (no call) / -2 (mixed) */
    int idx = -1;
    if (gs->batch_mixed) idx = -2;
    else if (gs->batch_grid)
        for (size_t k = 0; k < gs->ngrid; k++)
            if (gs->grid[k] == gs->batch_grid) idx = (int)k;
    /* one reduction (max): the largest index, minus the smallest, any rank mixed */
    int send[3] = {idx, idx >= 0 ? -idx : INT_MIN, idx == -2}, got[3];
    MPI_Allreduce(send, got, 3, MPI_INT, MPI_MAX, ctx->comm);
    *ok = false;
    gs->batch = 2; /* replay even when nothing was recorded: a call then counts as diverged */
    gs->bnext = 0;
    if (got[2] || (got[0] >= 0 && -got[1] != got[0])) return PV_OK;
    if (got[0] < 0) { /* no rank recorded a call */
        gs->bn = 0;
        *ok = true;
        return PV_OK;
    }
    pv_grid *g = gs->grid[got[0]];
    double *all = NULL;
    size_t total = 0, first = 0;
    pv_status st = gather_points(I, gs, &all, &total, &first);
    if (st != PV_OK) return st;
    double *vals = malloc((total ? total : 1) * sizeof *vals);
    free(gs->bv);
    gs->bv = malloc((gs->bn ? gs->bn : 1) * sizeof *gs->bv);
    st = pv_status_agree(ctx, vals && gs->bv ? PV_OK : pv_err(ctx, PV_ENOMEM, "out of memory"));
    if (st == PV_OK)
        st = pv_grid_read_many(ctx, g, total, all, all + total, all + 2 * total, vals);
    if (st == PV_OK) {
        memcpy(gs->bv, vals + first, gs->bn * sizeof *vals);
        gs->batch_grid = g;
        *ok = true;
    }
    free(vals);
    pv_free(ctx, all, 3 * (total ? total : 1) * sizeof *all);
    pv_log(ctx, PV_LOG_DEBUG, "grid", "voxel(): %zu reads of all ranks answered in one exchange",
           total);
    return st;
}

pv_status pv_gridset_batch_fetch(pv_interp *I, bool *batched)
{
    pv_gridset *gs = gs_of(I);
    *batched = gs->batch == 1 && gs->bn > 0 && !gs->batch_mixed;
    if (!*batched) {
        gs->batch = 0;
        return PV_OK;
    }
    free(gs->bv);
    gs->bv = malloc(gs->bn * sizeof *gs->bv);
    pv_status st = gs->bv ? PV_OK : PV_ENOMEM;
    st = pv_status_agree(I->ctx, st == PV_OK ? st : pv_err(I->ctx, st, "out of memory"));
    if (st != PV_OK) {
        gs->batch = 0;
        return st;
    }
    st = pv_grid_read_many(I->ctx, gs->batch_grid, gs->bn, gs->bx, gs->by, gs->bz, gs->bv);
    gs->batch = st == PV_OK ? 2 : 0;
    gs->bnext = 0;
    pv_log(I->ctx, PV_LOG_DEBUG, "grid", "voxel(): %zu reads answered in one exchange", gs->bn);
    return st;
}

static void free_batch(pv_interp *I, pv_gridset *gs)
{
    pv_free(I->ctx, gs->bx, gs->bcap[0] * sizeof *gs->bx);
    pv_free(I->ctx, gs->by, gs->bcap[1] * sizeof *gs->by);
    pv_free(I->ctx, gs->bz, gs->bcap[2] * sizeof *gs->bz);
    gs->bx = gs->by = gs->bz = NULL;
    gs->bcap[0] = gs->bcap[1] = gs->bcap[2] = 0;
}

void pv_gridset_batch_end(pv_interp *I)
{
    pv_gridset *gs = gs_of(I);
    gs->batch = 0;
    gs->bn = gs->bnext = 0;
    free_batch(I, gs);
}

size_t pv_gridset_count(pv_interp *I) { return gs_of(I)->ngrid; }
pv_grid *pv_gridset_at(pv_interp *I, size_t k) { return k < gs_of(I)->ngrid ? gs_of(I)->grid[k] : NULL; }
pv_grid *pv_gridset_active(pv_interp *I) { return active_grid(I); }

pv_status pv_gridset_adopt(pv_interp *I, pv_grid *g, bool make_active)
{
    pv_gridset *gs = gs_of(I);
    int k = find_index(gs, g->name);
    if (k >= 0) {
        pv_grid_destroy(I->ctx, gs->grid[k]);
        gs->grid[k] = g;
    } else {
        pv_grid **ng = realloc(gs->grid, (gs->ngrid + 1) * sizeof *ng);
        if (!ng) {
            pv_grid_destroy(I->ctx, g);
            return pv_err(I->ctx, PV_ENOMEM, "out of memory");
        }
        gs->grid = ng;
        k = (int)gs->ngrid++;
        gs->grid[k] = g;
    }
    if (make_active)
        gs->active = k;
    return PV_OK;
}

bool pv_gridset_activate(pv_interp *I, const char *name)
{
    pv_gridset *gs = gs_of(I);
    int k = find_index(gs, name);
    if (k >= 0)
        gs->active = k;
    return k >= 0;
}

/* ---- voxel() ------------------------------------------------------------------------ */

static pv_status need_ranges(pv_interp *I, pv_grid *g)
{
    if (pv_grid_has_ranges(g))
        return PV_OK;
    return pv_err(I->ctx, PV_ESCRIPT,
                  "voxel grid %s has no ranges: set vxrange, vyrange and vzrange (or fixed "
                  "x/y/z ranges and fill it) first", g->name);
}

/* Room for one more recorded voxel() point (each coordinate array grows on its own, so
 * its capacity is always the size it was allocated with). */
static bool grow_batch(pv_interp *I, pv_gridset *gs)
{
    size_t need = gs->bn < 1024 ? 1024 : gs->bn + 1;
    double **arr[3] = {&gs->bx, &gs->by, &gs->bz};
    for (int k = 0; k < 3; k++)
        if (!PV_GROW(I->ctx, *arr[k], gs->bcap[k], need))
            return false;
    return true;
}

bool pv_gridset_filling(const pv_interp *I) { return I->grids && ((const pv_gridset *)I->grids)->filling; }

static pv_status builtin_voxel(pv_env *env, void *ud, const pv_value *args, int nargs,
                               pv_value *out)
{
    pv_interp *I = ud;
    (void)env;
    if (gs_of(I)->filling) {
        /* Called per voxel from fill threads: a collective read is impossible there (and
         * would read the grid being written). Flag it; the fill reports a located error. */
        gs_of(I)->voxel_in_fill = 1;
        *out = (pv_value){PV_V_UNDEF, 0, 0.0, 0.0, NULL};
        return PV_OK;
    }
    pv_grid *g = active_grid(I);
    if (!g)
        return pv_err(I->ctx, PV_ESCRIPT, "no active voxel grid");
    if (need_ranges(I, g) != PV_OK)
        return PV_ESCRIPT;
    double p[3];
    for (int k = 0; k < 3 && k < nargs; k++) {
        if (args[k].type == PV_V_STR || args[k].type == PV_V_UNDEF)
            return pv_err(I->ctx, PV_ESCRIPT,
                          "non-numeric string found where a numeric expression was expected");
        p[k] = pv_value_real(&args[k]);
    }
    pv_gridset *gs = gs_of(I);
    if (gs->batch == 1) { /* recording: remember the point, answer 0 for now */
        if (gs->batch_grid && gs->batch_grid != g)
            gs->batch_mixed = true;
        gs->batch_grid = g;
        if ((gs->bn >= gs->bcap[0] || gs->bn >= gs->bcap[1] || gs->bn >= gs->bcap[2]) &&
            !grow_batch(I, gs))
            return I->ctx->err_code;
        gs->bx[gs->bn] = p[0], gs->by[gs->bn] = p[1], gs->bz[gs->bn] = p[2];
        gs->bn++;
        *out = pv_real(0.0);
        return PV_OK;
    }
    if (gs->batch == 2 && gs->bnext < gs->bn && g == gs->batch_grid &&
        gs->bx[gs->bnext] == p[0] && gs->by[gs->bnext] == p[1] && gs->bz[gs->bnext] == p[2]) {
        *out = pv_real(gs->bv[gs->bnext++]);
        return PV_OK;
    }
    if (gs->batch == 2 && gs->batch_split) {
        /* the other ranks are not reading with us: note it, the caller starts over */
        gs->batch_diverged = true;
        *out = pv_real(NAN);
        return PV_OK;
    }
    /* Not batched, or the replay diverged from the recording (a value chose another
     * branch): read directly. Every rank diverges at the same call, so this stays a
     * matched collective. */
    if (gs->batch == 2)
        gs->bnext = gs->bn;
    double v;
    pv_status st = pv_grid_read(I->ctx, g, p[0], p[1], p[2], &v);
    if (st != PV_OK)
        return st;
    *out = pv_real(v);
    return PV_OK;
}

void pv_gridset_set_distance(pv_interp *I, double vd)
{
    pv_value v = pv_real(vd);
    pv_env_set(I->env, "VoxelDistance", &v);
}

static bool grid_exists(void *ud, const char *name)
{
    return pv_gridset_find(ud, name) != NULL;
}

pv_gridset *pv_gridset_create(pv_interp *I)
{
    pv_gridset *gs = calloc(1, sizeof *gs);
    if (!gs) {
        pv_err(I->ctx, PV_ENOMEM, "out of memory");
        return NULL;
    }
    gs->active = -1;
    I->grids = gs;
    pv_env_set_exists_hook(I->env, grid_exists, I);
    pv_env_register_builtin(I->env, "voxel", 3, builtin_voxel, I);
    pv_gridset_set_distance(I, 0);
    return gs;
}

static void drop_all(pv_interp *I, pv_gridset *gs)
{
    free_batch(I, gs);
    free(gs->bv);
    gs->bv = NULL;
    gs->bn = gs->bnext = 0;
    gs->batch = 0;
    for (size_t k = 0; k < gs->ngrid; k++)
        pv_grid_destroy(I->ctx, gs->grid[k]);
    free(gs->grid);
    gs->grid = NULL;
    gs->ngrid = 0;
    gs->active = -1;
    for (int a = 0; a < 3; a++)
        gs->pending[a] = false;
}

void pv_gridset_destroy(pv_interp *I, pv_gridset *gs)
{
    if (!gs)
        return;
    drop_all(I, gs);
    free(gs);
}

void pv_gridset_reset(pv_interp *I)
{
    drop_all(I, gs_of(I));
    pv_env_register_builtin(I->env, "voxel", 3, builtin_voxel, I);
    pv_gridset_set_distance(I, 0);
}

static void remove_at(pv_interp *I, pv_gridset *gs, int k)
{
    pv_grid_destroy(I->ctx, gs->grid[k]);
    memmove(gs->grid + k, gs->grid + k + 1, (gs->ngrid - (size_t)k - 1) * sizeof *gs->grid);
    gs->ngrid--;
    if (gs->active == k)
        gs->active = -1;
    else if (gs->active > k)
        gs->active--;
}

bool pv_gridset_undefine(pv_interp *I, const char *name)
{
    pv_gridset *gs = gs_of(I);
    int k = find_index(gs, name);
    if (k < 0)
        return false;
    remove_at(I, gs, k);
    return true;
}

/* ---- ranges ------------------------------------------------------------------------- */

void pv_gridset_pend_range(pv_interp *I, int axis, double lo, double hi)
{
    pv_gridset *gs = gs_of(I);
    gs->pending[axis] = true;
    gs->pend_lo[axis] = lo;
    gs->pend_hi[axis] = hi;
}

void pv_gridset_take_pending(pv_interp *I, pv_grid *g)
{
    pv_gridset *gs = gs_of(I);
    for (int a = 0; a < 3; a++)
        if (gs->pending[a]) {
            pv_grid_set_range(g, a, gs->pend_lo[a], gs->pend_hi[a]);
            gs->pending[a] = false;
        }
}

pv_status pv_gridset_ensure_ranges(pv_interp *I, pv_grid *g, pv_cursor *c, size_t off)
{
    for (int a = 0; a < 3; a++) {
        if (!isnan(g->min[a]) && !isnan(g->max[a]))
            continue;
        double lo, hi;
        if (!pv_exec_axis_fixed_range(I, a, &lo, &hi))
            return pv_source_error(I->ctx, PV_ESCRIPT, c->tl->src, off,
                                   "grid limits must be set before use");
        pv_grid_set_range(g, a, lo, hi);
    }
    return PV_OK;
}

/* ---- fills -------------------------------------------------------------------------- */

void pv_gridset_fill_begin(pv_interp *I)
{
    gs_of(I)->filling = true;
    gs_of(I)->voxel_in_fill = 0;
}

bool pv_gridset_fill_end(pv_interp *I)
{
    gs_of(I)->filling = false;
    return gs_of(I)->voxel_in_fill != 0;
}
