/*
 * exec/gridcmd.c: the voxel-grid commands of the language (GP-1 to GP-5, DEC-1 to DEC-6):
 * set/unset/show vgrid, set vxrange/vyrange/vzrange, vclear and voxel(x,y,z) = expr.
 * vfill and vgfill are in gridfill.c, the grid table and voxel() in gridset.c. Every rank
 * runs these commands with the same arguments (SPMD).
 */
#include "gridcmd.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- set vgrid $name {size N} ------------------------------------------------------- */

/* Locate the error a lower layer recorded (grid/: no source location) at the script
 * position `off`; with none recorded, `fallback` (out of memory). */
static pv_status locate_grid_error(pv_interp *I, pv_cursor *c, size_t off, const char *fallback)
{
    if (I->ctx->err_code == PV_OK)
        return pv_source_error(I->ctx, PV_ENOMEM, c->tl->src, off, "%s", fallback);
    return pv_exec_locate(I, c, off);
}

pv_status pv_cmd_set_vgrid(pv_interp *I, pv_cursor *c, bool exec)
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
        if (st == PV_OK && I->replaying) /* the grid came from the checkpoint */
            pv_gridset_activate(I, name);
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
    pv_grid *old = pv_gridset_find(I, name);
    if (old) {
        pv_gridset_activate(I, name);
        if (n > 0 && n != old->n) {
            st = pv_grid_resize(I->ctx, old, n);
            if (st != PV_OK) {
                pv_gridset_undefine(I, name);
                return locate_grid_error(I, c, name_off, "cannot resize grid");
            }
            I->grid_resized = true; /* a checkpoint is due (ckpt.c) */
        }
        return PV_OK;
    }
    /* A datablock of the same name is replaced by the grid (GP-1.2). */
    pv_env_remove_datablock(I->env, name);
    pv_grid *g = pv_grid_create(I->ctx, name, n > 0 ? n : 100);
    if (!g)
        return locate_grid_error(I, c, name_off, "cannot create grid");
    if ((st = pv_gridset_adopt(I, g, true)) != PV_OK)
        return st;
    pv_gridset_take_pending(I, g);
    return PV_OK;
}

pv_status pv_cmd_unset_vgrid(pv_interp *I, pv_cursor *c, bool exec)
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
    if (!pv_gridset_undefine(I, name))
        return pv_source_error(I->ctx, PV_ESCRIPT, c->tl->src, off, "no such vgrid");
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
    size_t ngrid = pv_gridset_count(I);
    for (size_t k = 0; k < ngrid; k++) {
        pv_grid *g = pv_gridset_at(I, k);
        char buf[1024];
        int len = snprintf(buf, sizeof buf, "\t%s:%s\n\t\tsize %lld X %lld X %lld\n", g->name,
                           g == pv_gridset_active(I) ? "\t(active)" : "", (long long)g->n,
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

pv_status pv_cmd_set_vrange(pv_interp *I, pv_cursor *c, bool exec, int axis)
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
    pv_grid *g = pv_gridset_active(I);
    if (g)
        pv_grid_set_range(g, axis, a, b);
    else
        pv_gridset_pend_range(I, axis, a, b);
out:
    pv_code_destroy(lo);
    pv_code_destroy(hi);
    return st;
}

/* ---- vclear {$name} ---------------------------------------------------------------- */

pv_status pv_cmd_vclear(pv_interp *I, pv_cursor *c, bool exec)
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
    pv_grid *g = name ? pv_gridset_find(I, name) : pv_gridset_active(I);
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

pv_status pv_cmd_voxel_assign(pv_interp *I, pv_cursor *c, bool exec)
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
    pv_grid *g = pv_gridset_active(I);
    if (!g) {
        st = pv_source_error(I->ctx, PV_ESCRIPT, c->tl->src, off, "vgrid must be set before use");
        goto out;
    }
    if ((st = pv_gridset_ensure_ranges(I, g, c, off)) != PV_OK)
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
    x = v.type == PV_V_STR ? 0.0 : pv_value_real(&v); /* a string stores 0 (GP-4.2) */
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
