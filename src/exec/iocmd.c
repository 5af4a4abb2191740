/*
 * exec/iocmd: `vsave {$grid ...} "file.h5"` and `vload {$grid ...} "file.h5"`, the
 * checkpoint commands (pvox extensions, docs/GNUPLOT.md "pvox decisions"; layout in
 * pvox/h5.h).
 *
 * Both are collective: every rank runs them with the same arguments (SPMD) and moves its
 * own slab; errors come back agreed from io/h5 and are located here at the file name (or
 * at the grid name they concern). vsave without names saves every grid in creation order.
 * vload without names loads every grid of the file in the order it was saved. vload is
 * all or nothing: the grids are read into new grids first and replace or join the table
 * only when every read succeeded, so a failed load changes nothing; the first grid loaded
 * becomes the active one.
 *
 * `vload $g "f.h5" dataset "ez" {order "xyz"} {size N}` loads one 3D numeric dataset of
 * any program (io/h5_dataset.c, README "Bringing your data") into grid $g, created or
 * replaced, the active grid then: a cube of its own size, or of N with the data at
 * [0,nx)x[0,ny)x[0,nz) and zeros elsewhere. A box that is not a cube without `size` is a
 * located error that says how to load or resample it.
 */
#include "iocmd.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gridset.h"
#include "h5src.h"
#include "pvox/h5.h"

typedef struct io_args {
    size_t nnames;
    const char **name;   /* "$name" (borrowed from the tokens; tracked: capname slots) */
    size_t *name_off;    /* source offsets of the names (tracked: capoff slots) */
    size_t capname, capoff;
    size_t file_off;     /* offset of the file name expression */
    char *path;          /* evaluated file name (exec only) */
    /* vload $g "f.h5" dataset "ez" {order "xyz"} {size N}: another program's dataset */
    bool has_dataset, has_order, has_size;
    size_t dataset_off, order_off, size_off; /* offsets of the expressions */
    char *dataset, *order; /* evaluated (exec only) */
    int64_t size;
} io_args;

static void args_fini(pv_interp *I, io_args *a)
{
    pv_free(I->ctx, a->name, a->capname * sizeof *a->name);
    pv_free(I->ctx, a->name_off, a->capoff * sizeof *a->name_off);
    free(a->path);
    free(a->dataset);
    free(a->order);
}

static pv_status add_name(pv_interp *I, pv_cursor *c, io_args *a, const pv_token *t)
{
    for (size_t k = 0; k < a->nnames; k++)
        if (strcmp(a->name[k], t->sval) == 0)
            return pv_cur_error(c, PV_ESYNTAX, "grid %s named twice", t->sval);
    if (!PV_GROW(I->ctx, a->name, a->capname, a->nnames + 1) ||
        !PV_GROW(I->ctx, a->name_off, a->capoff, a->nnames + 1))
        return I->ctx->err_code;
    a->name[a->nnames] = t->sval;
    a->name_off[a->nnames++] = t->start;
    return PV_OK;
}

/* One clause's expression: compiled, and evaluated as a string (out) or an integer. */
static pv_status clause_expr(pv_interp *I, pv_cursor *c, bool exec, size_t *off, char **str,
                             int64_t *num)
{
    *off = pv_cur_offset(c);
    pv_code *code = NULL;
    pv_status st = pv_parse_expr(c, &code);
    if (st == PV_OK && exec) {
        st = str ? pv_eval_string(I->env, code, str) : pv_eval_int(I->env, code, num);
        if (st != PV_OK)
            st = pv_exec_locate(I, c, *off);
    }
    pv_code_destroy(code);
    return st;
}

/* vload's clauses after the file name: dataset, order, size, in any order, once each. */
static pv_status parse_dataset_clauses(pv_interp *I, pv_cursor *c, bool exec, io_args *a)
{
    pv_status st = PV_OK;
    for (;;) {
        bool *seen = NULL;
        int which = 0;
        if (pv_cur_is_word(c, "dataset"))
            seen = &a->has_dataset, which = 1;
        else if (pv_cur_is_word(c, "order"))
            seen = &a->has_order, which = 2;
        else if (pv_cur_is_word(c, "size"))
            seen = &a->has_size, which = 3;
        else
            break;
        if (*seen)
            return pv_cur_error(c, PV_ESYNTAX, "duplicated %s", pv_cur_peek(c)->sval);
        *seen = true;
        pv_cur_next(c);
        if (which == 1)
            st = clause_expr(I, c, exec, &a->dataset_off, &a->dataset, NULL);
        else if (which == 2)
            st = clause_expr(I, c, exec, &a->order_off, &a->order, NULL);
        else
            st = clause_expr(I, c, exec, &a->size_off, NULL, &a->size);
        if (st != PV_OK)
            return st;
    }
    if ((a->has_order || a->has_size) && !a->has_dataset)
        return pv_source_error(I->ctx, PV_ESYNTAX, c->tl->src,
                               a->has_order ? a->order_off : a->size_off,
                               "order and size go with dataset: vload $<gridname> \"<file>\" "
                               "dataset \"<name>\" {order \"xyz\"} {size <N>}");
    if (a->has_dataset && a->nnames != 1)
        return pv_source_error(I->ctx, PV_ESYNTAX, c->tl->src, a->dataset_off,
                               "a dataset loads into one grid: vload $<gridname> \"<file>\" "
                               "dataset \"<name>\"");
    return PV_OK;
}

/* `{$name ...} <string expression>` after the command word (and vload's dataset clauses). */
static pv_status parse_args(pv_interp *I, pv_cursor *c, bool exec, const char *cmd, io_args *a)
{
    memset(a, 0, sizeof *a);
    pv_cur_next(c);
    pv_status st;
    while (pv_cur_peek(c)->kind == PV_TK_DOLLAR) {
        if ((st = add_name(I, c, a, pv_cur_peek(c))) != PV_OK)
            return st;
        pv_cur_next(c);
    }
    if (pv_cur_at_end(c) || pv_cur_peek(c)->kind == PV_TK_SEMI ||
        pv_cur_peek(c)->kind == PV_TK_NEWLINE)
        return pv_cur_error(c, PV_ESYNTAX, "syntax: %s {$<gridname> ...} \"<file>\"", cmd);
    st = clause_expr(I, c, exec, &a->file_off, &a->path, NULL);
    if (st == PV_OK && strcmp(cmd, "vload") == 0)
        st = parse_dataset_clauses(I, c, exec, a);
    if (st == PV_OK)
        st = pv_exec_expect_end(c);
    return st;
}

static double mb_per_s(uint64_t bytes, double secs)
{
    return secs > 0 ? (double)bytes / secs / 1e6 : 0.0;
}

/* At -v: the whole-grid checksum (the same line vfill logs), to compare across runs. */
/* The -v grid checksum line, from the checksum the file records (vsave computed it while
 * writing, vload checked the voxels against it while reading: no pass over the grid). */
static void log_checksum(pv_interp *I, const pv_grid *g, uint64_t checksum)
{
    pv_log(I->ctx, PV_LOG_INFO, "grid", "%s checksum %016llx", g->name,
           (unsigned long long)checksum);
}

/* ---- vsave ------------------------------------------------------------------------- */

/* The grids to save: the named ones, or all. NULL with a located error on failure. */
static pv_grid **save_list(pv_interp *I, pv_cursor *c, const io_args *a, size_t *ng)
{
    size_t n = a->nnames ? a->nnames : pv_gridset_count(I);
    *ng = n;
    if (n == 0) {
        pv_source_error(I->ctx, PV_ESCRIPT, c->tl->src, a->file_off, "no voxel grids to save");
        return NULL;
    }
    pv_grid **g = calloc(n, sizeof *g);
    if (!g) {
        pv_err(I->ctx, PV_ENOMEM, "out of memory");
        return NULL;
    }
    for (size_t k = 0; k < n; k++) {
        g[k] = a->nnames ? pv_gridset_find(I, a->name[k]) : pv_gridset_at(I, k);
        if (!g[k]) {
            pv_source_error(I->ctx, PV_ESCRIPT, c->tl->src, a->name_off[k],
                            "no voxel grid named %s", a->name[k]);
            free(g);
            return NULL;
        }
    }
    return g;
}

static pv_status do_vsave(pv_interp *I, pv_cursor *c, const io_args *a)
{
    size_t ng;
    pv_grid **g = save_list(I, c, a, &ng);
    pv_h5_grid *d = g ? calloc(ng, sizeof *d) : NULL;
    uint64_t *sums = g ? calloc(ng, sizeof *sums) : NULL;
    /* a rank short of memory stops the others before the collective save */
    pv_status ast = !g            ? I->ctx->err_code
                    : !d || !sums ? pv_err(I->ctx, PV_ENOMEM, "out of memory")
                                  : PV_OK;
    if ((ast = pv_status_agree(I->ctx, ast)) != PV_OK) {
        free(sums);
        free(d);
        free(g);
        return ast;
    }
    for (size_t k = 0; k < ng; k++)
        d[k] = pv_io_grid_desc(g[k]);
    pv_h5_opts opt = {0};
    opt.script = c->tl->src->name;
    opt.checksums = sums;
    /* the active grid, when saved, gives the /VTKHDF ImageData its geometry */
    const pv_grid *act = pv_gridset_active(I);
    opt.vtk_grid = act ? act->name : NULL;
    /* testing hook (tests/io): let the write itself meet a full disk */
    opt.skip_space_check = getenv("PVOX_H5_NO_SPACE_CHECK") != NULL;
    pv_h5_stats s;
    pv_status st = pv_h5_save_all(I->ctx, a->path, d, ng, &opt, &s);
    if (st != PV_OK) {
        st = pv_exec_locate(I, c, a->file_off);
    } else {
        pv_log(I->ctx, PV_LOG_INFO, "h5",
               "vsave %s: %zu grid%s, %llu bytes in %.3f s (%.1f MB/s; transfers %.3f s, "
               "%lld calls/rank, %s)", a->path, ng, ng == 1 ? "" : "s",
               (unsigned long long)s.bytes, s.seconds, mb_per_s(s.bytes, s.seconds),
               s.io_seconds, (long long)s.ncalls,
               s.all_collective ? "collective" : "NOT collective");
        for (size_t k = 0; k < ng; k++)
            log_checksum(I, g[k], sums[k]);
    }
    free(sums);
    free(d);
    free(g);
    return st;
}

/* ---- vload ------------------------------------------------------------------------- */

/* Entries to load: the named ones, or every one in the file. Each must be loadable.
 * Checked identically on every rank (the metadata is the same everywhere). */
static pv_status load_list(pv_interp *I, pv_cursor *c, const io_args *a, pv_h5_file *f,
                           const pv_h5_entry ***out, size_t *ng)
{
    const pv_h5_info *info = pv_h5_file_info(f);
    size_t n = a->nnames ? a->nnames : info->ngrids;
    *ng = n;
    *out = NULL;
    if (n == 0)
        return pv_source_error(I->ctx, PV_EIO, c->tl->src, a->file_off, "%s: no grids in the file",
                               a->path);
    const pv_h5_entry **e = calloc(n, sizeof *e);
    if (!e)
        return pv_err(I->ctx, PV_ENOMEM, "out of memory");
    pv_status st = PV_OK;
    for (size_t k = 0; k < n && st == PV_OK; k++) {
        e[k] = a->nnames ? pv_h5_find(f, a->name[k]) : &info->grids[k];
        size_t off = a->nnames ? a->name_off[k] : a->file_off;
        if (!e[k])
            st = pv_source_error(I->ctx, PV_EIO, c->tl->src, off, "%s: no grid %s", a->path,
                                 a->name[k]);
        else if (e[k]->problem)
            st = pv_source_error(I->ctx, PV_EIO, c->tl->src, off, "%s: /grids/%s %s", a->path,
                                 e[k]->name, e[k]->problem);
    }
    if (st != PV_OK) {
        free(e);
        return st;
    }
    *out = e;
    return PV_OK;
}

static pv_grid *load_one(pv_interp *I, pv_cursor *c, const io_args *a, pv_h5_file *f,
                         const pv_h5_entry *e, pv_h5_stats *total)
{
    pv_h5_stats s;
    pv_grid *g = pv_io_read_grid(I, f, e, &s);
    if (!g) {
        pv_exec_locate(I, c, a->file_off);
        return NULL;
    }
    total->seconds += s.seconds;
    total->io_seconds += s.io_seconds;
    total->bytes += s.bytes;
    total->ncalls += s.ncalls;
    total->all_collective = total->all_collective && s.all_collective;
    return g;
}

static pv_status do_vload(pv_interp *I, pv_cursor *c, const io_args *a)
{
    pv_ctx *ctx = I->ctx;
    double t0 = MPI_Wtime();
    pv_h5_file *f = pv_h5_open(ctx, a->path, NULL);
    if (!f)
        return pv_exec_locate(I, c, a->file_off);
    const pv_h5_entry **e = NULL;
    size_t ng = 0;
    pv_status st = load_list(I, c, a, f, &e, &ng);
    pv_grid **g = st == PV_OK ? calloc(ng, sizeof *g) : NULL;
    if (st == PV_OK && !g)
        st = pv_err(ctx, PV_ENOMEM, "out of memory");
    st = pv_status_agree(ctx, st);
    pv_h5_stats total = {0};
    total.all_collective = true;
    for (size_t k = 0; k < ng && st == PV_OK; k++)
        if (!(g[k] = load_one(I, c, a, f, e[k], &total)))
            st = ctx->err_code;
    for (size_t k = 0; k < ng && g; k++) {
        if (st != PV_OK) {
            pv_grid_destroy(ctx, g[k]);
            continue;
        }
        pv_env_remove_datablock(I->env, g[k]->name); /* a grid replaces a datablock */
        if (pv_gridset_adopt(I, g[k], k == 0) != PV_OK)
            st = ctx->err_code; /* adopt destroyed it; destroy the rest */
    }
    if (st == PV_OK) {
        double secs = MPI_Wtime() - t0;
        pv_log(ctx, PV_LOG_INFO, "h5",
               "vload %s: %zu grid%s, %llu bytes in %.3f s (%.1f MB/s; reads %.3f s, "
               "%.1f MB/s, transfers %.3f s, %lld calls/rank, %s)", a->path, ng,
               ng == 1 ? "" : "s", (unsigned long long)total.bytes, secs,
               mb_per_s(total.bytes, secs), total.seconds, mb_per_s(total.bytes, total.seconds),
               total.io_seconds, (long long)total.ncalls,
               total.all_collective ? "collective" : "NOT collective");
        for (size_t k = 0; k < ng && ctx->opt.log_level >= PV_LOG_INFO; k++) {
            /* adopted: owned by the table now; a file written before checksums were
             * stored has none to show: the voxels are hashed */
            pv_grid_stats gst;
            if (e[k]->has_checksum)
                log_checksum(I, g[k], e[k]->checksum);
            else if (pv_grid_stats_compute(ctx, g[k], &gst) == PV_OK)
                log_checksum(I, g[k], gst.checksum);
        }
    }
    pv_h5_close(ctx, f); /* after the entries' checksums were read: e[] points into f */
    free(g);
    free(e);
    return st;
}

/* ---- vload of another program's dataset ----------------------------------------------- */

/* The cube the dataset goes into: `size N`, else its own when it is one. Located errors:
 * a size too small, a box that is not a cube (with the two ways out). */
static pv_status dataset_cube(pv_interp *I, pv_cursor *c, const io_args *a,
                              const pv_h5_dset_info *in, int64_t *n)
{
    const int64_t *e = in->n;
    int64_t big = e[0] > e[1] ? e[0] : e[1];
    big = big > e[2] ? big : e[2];
    if (a->has_size) {
        if (a->size < 2 || a->size < big)
            return pv_source_error(I->ctx, PV_ESCRIPT, c->tl->src, a->size_off,
                                   "size %lld: dataset \"%s\" is %lldx%lldx%lld (x by y by z), "
                                   "the grid must be at least %lld",
                                   (long long)a->size, a->dataset, (long long)e[0],
                                   (long long)e[1], (long long)e[2], (long long)(big > 2 ? big : 2));
        *n = a->size;
        return PV_OK;
    }
    if (e[0] == e[1] && e[1] == e[2] && e[0] >= 2) {
        *n = e[0];
        return PV_OK;
    }
    char order[32] = "";
    if (a->order)
        snprintf(order, sizeof order, " order \"%s\"", a->order);
    return pv_source_error(
        I->ctx, PV_ESCRIPT, c->tl->src, a->dataset_off,
        "%s: dataset \"%s\" is %lldx%lldx%lld (x by y by z), not a cube; load it into a cube "
        "with `size %lld` (zeros beyond it), or resample it: set vgrid %s size %lld; vfill \"%s\" "
        "dataset \"%s\"%s using 1:2:3:(0):4", a->path, a->dataset, (long long)e[0],
        (long long)e[1], (long long)e[2], (long long)(big > 2 ? big : 2), a->name[0],
        (long long)(big > 2 ? big : 2), a->path, a->dataset, order);
}

/* Ranges of the loaded grid: where the file places an axis, its node positions carried
 * on to the cube's size; else those of the grid it replaces; else the ranges `set
 * vxrange` left waiting (DEC-2); else none yet (the first use takes the fixed plot range
 * or says "grid limits must be set before use", as for `set vgrid`). */
static void dataset_ranges(pv_interp *I, pv_grid *g, const pv_h5_dset_info *in)
{
    const pv_grid *old = pv_gridset_find(I, g->name);
    if (old) {
        for (int ax = 0; ax < 3; ax++)
            if (!isnan(old->min[ax]) && !isnan(old->max[ax]))
                pv_grid_set_range(g, ax, old->min[ax], old->max[ax]);
    } else {
        pv_gridset_take_pending(I, g);
    }
    for (int ax = 0; ax < 3; ax++)
        if (in->has_range[ax] && in->step[ax] != 0)
            pv_grid_set_range(g, ax, in->min[ax],
                              in->min[ax] + in->step[ax] * (double)(g->n - 1));
}

static pv_status do_vload_dataset(pv_interp *I, pv_cursor *c, const io_args *a)
{
    pv_ctx *ctx = I->ctx;
    double t0 = MPI_Wtime();
    int axis[3];
    if (a->has_order && !pv_h5_order_parse(a->order, axis))
        return pv_source_error(ctx, PV_ESCRIPT, c->tl->src, a->order_off,
                               "order \"%s\" must name the dataset's dimensions slowest first: "
                               "a permutation of \"xyz\" (\"zyx\": x fastest, the default)",
                               a->order);
    pv_h5_opts opt = pv_h5src_opts();
    pv_h5_dataset *d = pv_h5_dataset_open(ctx, a->path, a->dataset, a->order, &opt);
    if (!d)
        return pv_exec_locate(I, c, a->file_off);
    const pv_h5_dset_info *in = pv_h5_dataset_info(d);
    int64_t n = 0;
    pv_status st = pv_status_agree(ctx, dataset_cube(I, c, a, in, &n));
    pv_grid *g = NULL;
    if (st == PV_OK && !(g = pv_grid_create(ctx, a->name[0], n)))
        st = pv_exec_locate(I, c, a->name_off[0]);
    pv_h5_stats s;
    if (st == PV_OK &&
        (st = pv_h5_dataset_read(ctx, d, g->z0, g->z1, g->data, false, n, n, &s)) != PV_OK)
        st = pv_exec_locate(I, c, a->file_off);
    if (st != PV_OK) {
        pv_grid_destroy(ctx, g);
        pv_h5_dataset_close(ctx, d);
        return st;
    }
    dataset_ranges(I, g, in);
    g->version++;
    double secs = MPI_Wtime() - t0;
    pv_log(ctx, PV_LOG_INFO, "h5",
           "vload %s dataset %s (%s, %s, %lldx%lldx%lld dims, order %s%s%s): %s %lld^3, "
           "%llu bytes in %.3f s (%.1f MB/s; reads %.3f s, %lld calls/rank, %s)", a->path,
           in->path, in->type, in->layout, (long long)in->dims[0], (long long)in->dims[1],
           (long long)in->dims[2], a->order ? a->order : "zyx", in->geometry[0] ? ", ranges from " : "",
           in->geometry, g->name, (long long)n, (unsigned long long)s.bytes, secs,
           mb_per_s(s.bytes, secs), s.io_seconds, (long long)s.ncalls,
           s.all_collective ? "collective" : "NOT collective");
    pv_h5_dataset_close(ctx, d);
    pv_env_remove_datablock(I->env, g->name); /* a grid replaces a datablock */
    if ((st = pv_gridset_adopt(I, g, true)) != PV_OK)
        return st;
    if (ctx->opt.log_level >= PV_LOG_INFO) {
        pv_grid_stats gst;
        if (pv_grid_stats_compute(ctx, g, &gst) == PV_OK)
            log_checksum(I, g, gst.checksum);
    }
    return PV_OK;
}

/* ---- handlers ---------------------------------------------------------------------- */

pv_status pv_cmd_vsave(pv_interp *I, pv_cursor *c, bool exec)
{
    io_args a;
    pv_status st = parse_args(I, c, exec, "vsave", &a);
    if (exec) /* each rank parsed alone (a list may fail to grow on one): agree first */
        st = pv_status_agree(I->ctx, st);
    if (st == PV_OK && exec)
        st = do_vsave(I, c, &a);
    args_fini(I, &a);
    return st;
}

pv_status pv_cmd_vload(pv_interp *I, pv_cursor *c, bool exec)
{
    io_args a;
    pv_status st = parse_args(I, c, exec, "vload", &a);
    if (exec) /* each rank parsed alone (a list may fail to grow on one): agree first */
        st = pv_status_agree(I->ctx, st);
    if (st == PV_OK && exec)
        st = a.has_dataset ? do_vload_dataset(I, c, &a) : do_vload(I, c, &a);
    args_fini(I, &a);
    return st;
}
