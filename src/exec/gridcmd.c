/*
 * Voxel-grid commands (gnuplot-voxel.md §1–5 and pvox decisions 1–6).
 *
 * The grid table is identical on every rank (SPMD); only the voxels are distributed.
 * voxel(x,y,z) reads are collective (the owning rank's value reaches everyone), so they
 * work in any expression every rank evaluates. vfill reads its sources on every rank from
 * the broadcast bytes, evaluates x:y:z:radius per row, and hands the value expression to
 * the grid kernel compiled for the vector VM (VoxelDistance, GridDistance and the row's
 * columns are its lane inputs); expressions the vector VM cannot take run through the
 * scalar VM one batch at a time.
 */
#include "gridcmd.h"
#include "ckpt.h"

#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#define MAX_FILL_COLS PV_USING_MAX /* columns of a source row kept for the value spec */

struct pv_gridset {
    pv_grid **grid;        /* in creation order */
    size_t ngrid;
    int active;            /* index into grid[], -1: none */
    bool pending[3];       /* `set vxrange` before any grid (decision 2) */
    double pend_lo[3], pend_hi[3];
    bool filling;          /* a fill kernel is running: voxel() must not be collective */
    int voxel_in_fill;     /* voxel() was called by a fill's value expression */
    /* batched voxel() reads of one plot element (pv_gridset_batch_*) */
    int batch;             /* 0 off, 1 recording calls, 2 replaying answers */
    pv_grid *batch_grid;   /* the grid every recorded call read (NULL: none yet) */
    bool batch_mixed;      /* calls read different grids: no batching */
    double *bx, *by, *bz, *bv;
    size_t bn, bcap, bnext;
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
    gs->bn = gs->bnext = 0;
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

void pv_gridset_batch_end(pv_interp *I)
{
    pv_gridset *gs = gs_of(I);
    gs->batch = 0;
    gs->bn = gs->bnext = 0;
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

/* ---- voxel() ------------------------------------------------------------------------ */

static pv_status need_ranges(pv_interp *I, pv_grid *g)
{
    if (pv_grid_has_ranges(g))
        return PV_OK;
    return pv_err(I->ctx, PV_ESCRIPT,
                  "voxel grid %s has no ranges: set vxrange, vyrange and vzrange (or fixed "
                  "x/y/z ranges and fill it) first", g->name);
}

/* Room for more recorded voxel() points (the three coordinate arrays grow together). */
static bool grow_batch(pv_gridset *gs)
{
    size_t nc = gs->bcap ? 2 * gs->bcap : 1024;
    double **arr[3] = {&gs->bx, &gs->by, &gs->bz};
    for (int k = 0; k < 3; k++) {
        double *p = realloc(*arr[k], nc * sizeof *p);
        if (!p)
            return false;
        *arr[k] = p;
    }
    gs->bcap = nc;
    return true;
}

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
        if (gs->bn == gs->bcap && !grow_batch(gs))
            return pv_err(I->ctx, PV_ENOMEM, "out of memory");
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

static void set_distance_vars(pv_interp *I, double vd)
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
    set_distance_vars(I, 0);
    return gs;
}

static void drop_all(pv_interp *I, pv_gridset *gs)
{
    free(gs->bx), free(gs->by), free(gs->bz), free(gs->bv);
    gs->bx = gs->by = gs->bz = gs->bv = NULL;
    gs->bn = gs->bcap = gs->bnext = 0;
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
    set_distance_vars(I, 0);
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

/* ---- first use: ranges inherited from fixed x/y/z ranges (§2) ----------------------- */

static pv_status ensure_ranges(pv_interp *I, pv_grid *g, pv_cursor *c, size_t off)
{
    for (int a = 0; a < 3; a++) {
        if (!isnan(g->min[a]) && !isnan(g->max[a]))
            continue;
        double lo, hi;
        if (!pv_exec_axis_fixed_range(I, a, &lo, &hi)) {
            c->pos = c->pos; /* keep cursor; locate at the command */
            return pv_source_error(I->ctx, PV_ESCRIPT, c->tl->src, off,
                                   "grid limits must be set before use");
        }
        pv_grid_set_range(g, a, lo, hi);
    }
    return PV_OK;
}

/* ---- set vgrid $name {size N} ------------------------------------------------------- */

/* Re-report the error a lower layer recorded (grid/: no source location) at the script
 * position `off`. */
static pv_status locate_error(pv_interp *I, pv_cursor *c, size_t off, const char *fallback)
{
    char *msg = I->ctx->err_msg ? strdup(I->ctx->err_msg) : NULL;
    pv_status code = I->ctx->err_code ? I->ctx->err_code : PV_ENOMEM;
    pv_err_clear(I->ctx);
    pv_status st = pv_source_error(I->ctx, code, c->tl->src, off, "%s", msg ? msg : fallback);
    free(msg);
    return st;
}

static pv_status set_vgrid_run(pv_interp *I, pv_cursor *c, bool exec)
{
    const pv_token *t = pv_cur_peek(c);
    if (t->kind != PV_TK_DOLLAR)
        return pv_cur_error(c, PV_ESYNTAX, "syntax: set vgrid $<gridname> {size <N>}");
    char *name = t->sval;
    size_t name_off = t->start;
    pv_cur_next(c);
    pv_code *size_expr = NULL;
    size_t size_off = 0;
    if (pv_cur_accept_word(c, "size")) {
        size_off = pv_cur_offset(c);
        pv_status st = pv_parse_expr(c, &size_expr);
        if (st != PV_OK)
            return st;
    }
    pv_status st = pv_exec_expect_end(c);
    if (st != PV_OK || !exec) {
        pv_code_destroy(size_expr);
        return st;
    }
    int64_t n = -1;
    if (size_expr) {
        st = pv_eval_int(I->env, size_expr, &n);
        pv_code_destroy(size_expr);
        if (st != PV_OK)
            return st;
        if (n < 2)
            return pv_source_error(I->ctx, PV_ERANGE, c->tl->src, size_off,
                                   "vgrid size must be an integer of at least 2");
    }
    pv_gridset *gs = gs_of(I);
    int k = find_index(gs, name);
    if (k >= 0) {
        pv_grid *g = gs->grid[k];
        gs->active = k;
        if (n > 0 && n != g->n) {
            st = pv_grid_resize(I->ctx, g, n);
            if (st != PV_OK) {
                remove_at(I, gs, k);
                return locate_error(I, c, name_off, "cannot resize grid");
            }
        }
        return PV_OK;
    }
    /* A datablock of the same name is replaced by the grid (E02i). */
    pv_env_remove_datablock(I->env, name);
    pv_grid *g = pv_grid_create(I->ctx, name, n > 0 ? n : 100);
    if (!g)
        return locate_error(I, c, name_off, "cannot create grid");
    if ((st = pv_gridset_adopt(I, g, true)) != PV_OK)
        return st;
    for (int a = 0; a < 3; a++)
        if (gs->pending[a]) {
            pv_grid_set_range(g, a, gs->pend_lo[a], gs->pend_hi[a]);
            gs->pending[a] = false;
        }
    return PV_OK;
}

static pv_status unset_vgrid_run(pv_interp *I, pv_cursor *c, bool exec)
{
    const pv_token *t = pv_cur_peek(c);
    if (t->kind != PV_TK_DOLLAR)
        return pv_cur_error(c, PV_ESYNTAX, "syntax: unset vgrid $<gridname>");
    char *name = t->sval;
    size_t off = t->start;
    pv_cur_next(c);
    pv_status st = pv_exec_expect_end(c);
    if (st != PV_OK || !exec)
        return st;
    int k = find_index(gs_of(I), name);
    if (k < 0)
        return pv_source_error(I->ctx, PV_ESCRIPT, c->tl->src, off, "no such vgrid");
    remove_at(I, gs_of(I), k);
    return PV_OK;
}

/* gnuplot prints these statistics with two significant digits, NaN as "nan". */
static void fmt2g(char *buf, size_t len, double v)
{
    snprintf(buf, len, "%.2g", v); /* glibc prints nan, -nan, inf, -inf as gnuplot does */
}

pv_status pv_cmd_show_vgrid(pv_interp *I, pv_cursor *c, bool exec)
{
    pv_status st = pv_exec_expect_end(c);
    if (st != PV_OK || !exec)
        return st;
    pv_gridset *gs = gs_of(I);
    for (size_t k = 0; k < gs->ngrid; k++) {
        pv_grid *g = gs->grid[k];
        char buf[1024];
        int len = snprintf(buf, sizeof buf, "\t%s:%s\n\t\tsize %lld X %lld X %lld\n", g->name,
                           (int)k == gs->active ? "\t(active)" : "", (long long)g->n,
                           (long long)g->n, (long long)g->n);
        if (pv_grid_has_ranges(g))
            len += snprintf(buf + len, sizeof buf - (size_t)len,
                            "\t\tvxrange [%g:%g]  vyrange[%g:%g]  vzrange[%g:%g]\n", g->min[0],
                            g->max[0], g->min[1], g->max[1], g->min[2], g->max[2]);
        else
            len += snprintf(buf + len, sizeof buf - (size_t)len, "\t\tgrid ranges not set\n");
        /* gnuplot shows statistics only once the grid has been used (ranges set). */
        if (pv_grid_has_ranges(g)) {
            pv_grid_stats s;
            st = pv_grid_stats_compute(I->ctx, g, &s);
            if (st != PV_OK)
                return st;
            char a[32], b[32], m[32], d[32];
            fmt2g(a, sizeof a, s.min);
            fmt2g(b, sizeof b, s.max);
            fmt2g(m, sizeof m, s.mean);
            fmt2g(d, sizeof d, s.stddev);
            len += snprintf(buf + len, sizeof buf - (size_t)len,
                            "\t\tnon-zero voxel values:  min %s max %s  mean %s stddev %s\n"
                            "\t\tnumber of zero voxels:  %lld   (%.2f%%)\n",
                            a, b, m, d, (long long)s.nzero,
                            100.0 * (double)s.nzero / (double)s.ntotal);
        }
        pv_msg(I->ctx, "%s", buf);
    }
    pv_msg(I->ctx, "\n"); /* gnuplot ends the list (even an empty one) with a blank line */
    return PV_OK;
}

/* ---- set vxrange [a:b] -------------------------------------------------------------- */

static pv_status set_vrange_run(pv_interp *I, pv_cursor *c, bool exec, int axis)
{
    pv_code *lo = NULL, *hi = NULL;
    pv_status st = PV_OK;
    if (!pv_cur_accept_op(c, "["))
        return pv_cur_error(c, PV_ESYNTAX, "expecting '['");
    if ((st = pv_parse_expr(c, &lo)) != PV_OK)
        goto out;
    if (!pv_cur_accept_op(c, ":")) {
        st = pv_cur_error(c, PV_ESYNTAX, "expecting ':'");
        goto out;
    }
    if ((st = pv_parse_expr(c, &hi)) != PV_OK)
        goto out;
    if (!pv_cur_accept_op(c, "]")) {
        st = pv_cur_error(c, PV_ESYNTAX, "expecting ']'");
        goto out;
    }
    if ((st = pv_exec_expect_end(c)) != PV_OK || !exec)
        goto out;
    double a, b;
    if ((st = pv_eval_real(I->env, lo, &a)) != PV_OK || (st = pv_eval_real(I->env, hi, &b)))
        goto out;
    pv_grid *g = active_grid(I);
    if (g) {
        pv_grid_set_range(g, axis, a, b);
    } else {
        pv_gridset *gs = gs_of(I);
        gs->pending[axis] = true;
        gs->pend_lo[axis] = a;
        gs->pend_hi[axis] = b;
    }
out:
    pv_code_destroy(lo);
    pv_code_destroy(hi);
    return st;
}

/* ---- vclear {$name} ---------------------------------------------------------------- */

static pv_status vclear_run(pv_interp *I, pv_cursor *c, bool exec)
{
    const pv_token *t = pv_cur_peek(c);
    const char *name = NULL;
    size_t off = t->start;
    if (t->kind == PV_TK_DOLLAR) {
        name = t->sval;
        pv_cur_next(c);
    }
    pv_status st = pv_exec_expect_end(c);
    if (st != PV_OK || !exec)
        return st;
    pv_grid *g = name ? pv_gridset_find(I, name) : active_grid(I);
    if (name && !g)
        return pv_source_error(I->ctx, PV_ESCRIPT, c->tl->src, off, "no such voxel grid");
    if (g)
        pv_grid_clear(I->ctx, g);
    return PV_OK;
}

/* ---- voxel(x,y,z) = expr ------------------------------------------------------------ */

bool pv_is_voxel_assignment(const pv_cursor *c)
{
    const pv_token *t = pv_cur_peek(c);
    if (t->kind != PV_TK_NAME || strcmp(t->sval, "voxel") != 0)
        return false;
    const pv_token *p = pv_cur_peek_at(c, 1);
    if (p->kind != PV_TK_OP || strcmp(p->op, "(") != 0)
        return false;
    /* find the matching ')' and require '=' after it */
    int depth = 0;
    for (size_t k = 1; c->pos + k < c->end; k++) {
        const pv_token *u = pv_cur_peek_at(c, k);
        if (u->kind != PV_TK_OP)
            continue;
        if (!strcmp(u->op, "(") || !strcmp(u->op, "["))
            depth++;
        else if (!strcmp(u->op, ")") || !strcmp(u->op, "]")) {
            if (--depth == 0) {
                const pv_token *eq = pv_cur_peek_at(c, k + 1);
                return eq->kind == PV_TK_OP && strcmp(eq->op, "=") == 0;
            }
        }
    }
    return false;
}

static pv_status voxel_assign_run(pv_interp *I, pv_cursor *c, bool exec)
{
    size_t off = pv_cur_offset(c);
    pv_code *e[4] = {NULL, NULL, NULL, NULL};
    pv_status st = PV_OK;
    pv_cur_next(c); /* voxel */
    pv_cur_next(c); /* ( */
    for (int k = 0; k < 3 && st == PV_OK; k++) {
        st = pv_parse_expr(c, &e[k]);
        if (st == PV_OK && !pv_cur_accept_op(c, k < 2 ? "," : ")"))
            st = pv_cur_error(c, PV_ESYNTAX, "syntax: voxel(x,y,z) = newvalue");
    }
    if (st == PV_OK && !pv_cur_accept_op(c, "="))
        st = pv_cur_error(c, PV_ESYNTAX, "syntax: voxel(x,y,z) = newvalue");
    if (st == PV_OK)
        st = pv_parse_expr(c, &e[3]);
    if (st == PV_OK)
        st = pv_exec_expect_end(c);
    if (st != PV_OK || !exec)
        goto out;
    pv_grid *g = active_grid(I);
    if (!g) {
        st = pv_source_error(I->ctx, PV_ESCRIPT, c->tl->src, off, "vgrid must be set before use");
        goto out;
    }
    if ((st = ensure_ranges(I, g, c, off)) != PV_OK)
        goto out;
    double p[3];
    for (int k = 0; k < 3 && st == PV_OK; k++)
        st = pv_eval_real(I->env, e[k], &p[k]);
    pv_value v = {0};
    if (st == PV_OK)
        st = pv_eval(I->env, e[3], &v);
    if (st != PV_OK)
        goto out;
    double x;
    if (v.type == PV_V_UNDEF) {
        size_t s0, s1;
        pv_code_span(e[3], &s0, &s1);
        st = pv_source_error(I->ctx, PV_ESCRIPT, c->tl->src, s0, "undefined value");
        goto out;
    }
    x = v.type == PV_V_STR ? 0.0 : pv_value_real(&v); /* a string stores 0 (E18) */
    pv_value_free(&v);
    bool inside;
    pv_grid_write(g, p[0], p[1], p[2], (float)x, &inside);
    if (!inside)
        pv_source_warn(I->ctx, c->tl->src, off, "voxel out of range");
out:
    for (int k = 0; k < 4; k++)
        pv_code_destroy(e[k]);
    return st;
}

/* ---- vfill / vgfill ------------------------------------------------------------------ */

typedef struct fill_rows {
    pv_fill_source *src;   /* x, y, z, radius per accepted row */
    double *cols;          /* MAX_FILL_COLS values per row */
    size_t n, cap;
    int ncols;             /* most columns seen in a row (<= MAX_FILL_COLS) */
} fill_rows;

static pv_status collect_row(void *ud, const double *vals, int nvals, const pv_row *row)
{
    fill_rows *R = ud;
    if (nvals < 4)
        return PV_OK;
    for (int k = 0; k < 4; k++)
        if (isnan(vals[k]))
            return PV_OK; /* rows with undefined coordinates are skipped */
    if (R->n == R->cap) {
        size_t cap = R->cap ? R->cap * 2 : 256;
        pv_fill_source *s = realloc(R->src, cap * sizeof *s);
        if (s)
            R->src = s;
        double *cl = realloc(R->cols, cap * MAX_FILL_COLS * sizeof *cl);
        if (cl)
            R->cols = cl;
        if (!s || !cl)
            return PV_ENOMEM;
        R->cap = cap;
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

static pv_status run_fill(pv_interp *I, pv_cursor *c, pv_grid *g, pv_data_spec *ds,
                          pv_code *value, bool grid_units, size_t off)
{
    pv_ctx *ctx = I->ctx;
    char *text = NULL;
    size_t len = 0;
    pv_status st = PV_OK;
    if (ds->kind == PV_DS_FILE) {
        st = pv_read_file_bcast(ctx, ds->name, &text, &len);
        if (st != PV_OK)
            return st;
    }
    if (!ctx->opt.quiet)
        pv_msg(ctx, "%s from %s :\n", grid_units ? "vgfill" : "vfill",
               ds->kind == PV_DS_PLUS ? "+" : ds->kind == PV_DS_PLUSPLUS ? "++" : ds->name);
    /* Iterate with the four coordinate specs only; the value spec runs per voxel. */
    pv_data_spec coords = *ds;
    coords.nusing = 4;
    fill_rows R = {0};
    pv_sampling samp;
    pv_exec_sampling(I, ds, &samp);
    st = pv_data_iterate(I->env, &coords, text, len, &samp, 4, collect_row, &R);
    free(text);
    if (st == PV_ENOMEM)
        st = pv_err(ctx, PV_ENOMEM, "out of memory reading vfill sources");
    if (st != PV_OK)
        goto out;
    /* the brick line gnuplot prints for each source in the grid until one modifies a
     * voxel (a source modifies one exactly when its brick is not empty) */
    for (size_t k = 0; k < R.n && !ctx->opt.quiet; k++) {
        int64_t idx[3];
        if (!pv_grid_index(g, R.src[k].x, R.src[k].y, R.src[k].z, idx))
            continue;
        double r = R.src[k].radius;
        long long b[3];
        for (int a = 0; a < 3; a++)
            b[a] = 2 * (long long)floor(grid_units ? r : r / g->delta[a]) + 1;
        pv_msg(ctx, "\tradius %g gives a brick of %lld voxels on x, %lld voxels on y, %lld "
                    "voxels on z\n", r, b[0], b[1], b[2]);
        if (b[0] > 0 && b[1] > 0 && b[2] > 0)
            break;
    }
    /* compile the value spec for lanes */
    fill_eval F = {I, &R, value, NULL, NULL, 2 + R.ncols, 0, 0, {0, 0}, grid_units};
    const char *slots[2 + MAX_FILL_COLS];
    char colname[MAX_FILL_COLS][8];
    slots[0] = "VoxelDistance";
    slots[1] = "GridDistance";
    for (int k = 0; k < R.ncols; k++) {
        snprintf(colname[k], sizeof colname[k], "$%d", k + 1);
        slots[2 + k] = colname[k];
    }
    int nthreads = omp_get_max_threads();
    pv_fill_eval_fn fn = eval_scalar;
    if (pv_vcompile(I->env, value, F.nslots, slots, &F.vc) == PV_OK) {
        F.scratch = calloc((size_t)nthreads, sizeof *F.scratch);
        bool ok = F.scratch != NULL;
        for (int t = 0; ok && t < nthreads; t++)
            ok = (F.scratch[t] = pv_vscratch_create(F.vc, PV_FILL_MAX_LANES)) != NULL;
        if (ok)
            fn = eval_vector;
    }
    pv_err_clear(ctx); /* a failed vector compile is not an error: the scalar path runs */
    pv_fill_result res;
    double t0 = MPI_Wtime();
    pv_gridset *gs = gs_of(I);
    gs->filling = true;
    gs->voxel_in_fill = 0;
    /* GridDistance lanes cost a second sqrt per voxel: only when the value can read them */
    unsigned fill_flags = grid_units ? PV_FILL_GRID_UNITS : 0u;
    size_t v0, v1;
    pv_code_span(value, &v0, &v1);
    const char *vtext = c->tl->src->text;
    for (size_t k = v0; k + 12 <= v1 && k + 12 <= c->tl->src->len; k++)
        if (memcmp(vtext + k, "GridDistance", 12) == 0)
            fill_flags |= PV_FILL_NEED_GRIDDIST;
    st = pv_grid_fill(ctx, g, R.src, R.n, fill_flags, fn, &F, &res);
    gs->filling = false;
    double t1 = MPI_Wtime();
    int flags[2] = {F.failed, gs->voxel_in_fill}, any[2] = {0, 0};
    MPI_Allreduce(flags, any, 2, MPI_INT, MPI_MAX, ctx->comm);
    int anyfail = any[0];
    if (st == PV_OK && any[1]) {
        size_t s0, s1;
        pv_code_span(value, &s0, &s1);
        st = pv_source_error(ctx, PV_ESCRIPT, c->tl->src, s0,
                             "voxel() cannot be used in a %s value expression (it would read "
                             "the grid being filled)", grid_units ? "vgfill" : "vfill");
    } else if (st == PV_OK && anyfail) {
        /* Re-evaluate the earliest failing lane serially, identically on every rank, so
         * the located error is the scalar evaluator's own. */
        pv_err_clear(ctx);
        struct { double src; int rank; } mine = {F.failed ? (double)F.fail_src : HUGE_VAL,
                                                  ctx->rank}, first;
        MPI_Allreduce(&mine, &first, 1, MPI_DOUBLE_INT, MPI_MINLOC, ctx->comm);
        MPI_Bcast(F.fail_dist, 2, MPI_DOUBLE, first.rank, ctx->comm);
        size_t fs = (size_t)first.src;
        const double *cols = R.cols + fs * MAX_FILL_COLS;
        const char *strs[MAX_FILL_COLS] = {0};
        pv_row row = {R.ncols, cols, strs, NULL, (int64_t)fs, 0, 0};
        pv_env_set_row(I->env, &row);
        pv_value d = pv_real(F.fail_dist[0]), gd = pv_real(F.fail_dist[1]), v = {0};
        pv_env_set(I->env, "VoxelDistance", &d);
        if (grid_units)
            pv_env_set(I->env, "GridDistance", &gd);
        st = pv_eval(I->env, value, &v);
        pv_env_set_row(I->env, NULL);
        pv_value_free(&v);
        if (st == PV_OK)
            st = pv_source_error(ctx, PV_ESCRIPT, c->tl->src, off,
                                 "vfill value expression failed");
    }
    if (st == PV_OK) {
        if (res.points_used == 0)
            pv_source_warn(ctx, c->tl->src, ds->name_off,
                           "Skipping data file with no valid points");
        if (!ctx->opt.quiet)
            pv_msg(ctx, "\tnumber of points input:    %8lld\n\tnumber of voxels modified: %8lld\n",
                   (long long)res.points_used, (long long)res.voxels_modified);
        set_distance_vars(I, res.last_distance);
        double secs = t1 - t0;
        pv_log(ctx, PV_LOG_INFO, "grid", "%s: %lld voxel updates in %.3f s (%.1f M/s, %s path)",
               grid_units ? "vgfill" : "vfill", (long long)res.voxels_modified, secs,
               secs > 0 ? (double)res.voxels_modified / secs / 1e6 : 0.0,
               fn == eval_vector ? "vector" : "scalar");
        /* The checksum proves bit-identical grids across rank and thread counts; it costs
         * a pass over the grid, so only when info messages are shown (-v). */
        if (ctx->opt.log_level >= PV_LOG_INFO) {
            pv_grid_stats gst;
            if (pv_grid_stats_compute(ctx, g, &gst) == PV_OK)
                pv_log(ctx, PV_LOG_INFO, "grid", "%s checksum %016llx", g->name,
                       (unsigned long long)gst.checksum);
        }
    }
    if (F.scratch)
        for (int t = 0; t < nthreads; t++)
            pv_vscratch_destroy(F.scratch[t]);
    free(F.scratch);
    pv_vcode_destroy(F.vc);
out:
    free(R.src);
    free(R.cols);
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
    pv_grid *g = active_grid(I);
    if (!g) {
        st = pv_source_error(I->ctx, PV_ESCRIPT, c->tl->src, A->off, "no current voxel grid");
        goto out;
    }
    if ((st = ensure_ranges(I, g, c, A->off)) != PV_OK)
        goto out;
    /* decision 3: a bare column as the 5th spec means ($N) */
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

static pv_status vfill_run(pv_interp *I, pv_cursor *c, bool exec)
{
    return fill_cmd(I, c, exec, false);
}

static pv_status vgfill_run(pv_interp *I, pv_cursor *c, bool exec)
{
    return fill_cmd(I, c, exec, true);
}

/* ---- entry points: grid changes are counted for --checkpoint / --resume (ckpt.h) ------ */

/* Run a grid-changing command: skipped (parsed only) while a resumed run replays the
 * changes its checkpoint holds, else run and counted; `save` asks for a checkpoint. */
#define GRID_CHANGE(call_check, call_run, save)                                            \
    do {                                                                                   \
        if (exec && pv_ckpt_skip_change(I))                                                \
            return call_check;                                                             \
        pv_status st_ = call_run;                                                          \
        if (st_ == PV_OK && exec)                                                          \
            st_ = pv_ckpt_changed(I, save);                                                \
        return st_;                                                                        \
    } while (0)

pv_status pv_cmd_set_vgrid(pv_interp *I, pv_cursor *c, bool exec)
{
    const pv_token *t = pv_cur_peek(c);
    const char *name = t->kind == PV_TK_DOLLAR ? t->sval : NULL;
    pv_grid *g = name ? pv_gridset_find(I, name) : NULL;
    int64_t before = g ? g->n : -1;
    if (exec && pv_ckpt_skip_change(I)) {
        /* replaying: the grid came from the checkpoint; only make it active again */
        pv_status st = set_vgrid_run(I, c, false);
        int k = name ? find_index(gs_of(I), name) : -1;
        if (st == PV_OK && k >= 0)
            gs_of(I)->active = k;
        return st;
    }
    pv_status st = set_vgrid_run(I, c, exec);
    if (st == PV_OK && exec) {
        g = name ? pv_gridset_find(I, name) : NULL;
        st = pv_ckpt_changed(I, g && before > 0 && g->n != before);
    }
    return st;
}

pv_status pv_cmd_unset_vgrid(pv_interp *I, pv_cursor *c, bool exec)
{
    GRID_CHANGE(unset_vgrid_run(I, c, false), unset_vgrid_run(I, c, exec), false);
}

pv_status pv_cmd_set_vrange(pv_interp *I, pv_cursor *c, bool exec, int axis)
{
    GRID_CHANGE(set_vrange_run(I, c, false, axis), set_vrange_run(I, c, exec, axis), false);
}

pv_status pv_cmd_vclear(pv_interp *I, pv_cursor *c, bool exec)
{
    GRID_CHANGE(vclear_run(I, c, false), vclear_run(I, c, exec), true);
}

pv_status pv_cmd_voxel_assign(pv_interp *I, pv_cursor *c, bool exec)
{
    GRID_CHANGE(voxel_assign_run(I, c, false), voxel_assign_run(I, c, exec), false);
}

pv_status pv_cmd_vfill(pv_interp *I, pv_cursor *c, bool exec)
{
    GRID_CHANGE(vfill_run(I, c, false), vfill_run(I, c, exec), true);
}

pv_status pv_cmd_vgfill(pv_interp *I, pv_cursor *c, bool exec)
{
    GRID_CHANGE(vgfill_run(I, c, false), vgfill_run(I, c, exec), true);
}
