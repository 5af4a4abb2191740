/*
 * exec/plot_table.c: table output of plot commands, as gnuplot 5.4.4 writes it.
 *
 *   - `plot ... with table` writes each point's evaluated using values (table_event;
 *     undefined values as "nan") to the `set table` destination, else to stdout;
 *   - any other plot or splot while `set table` is on is tabulated as gnuplot's
 *     print_table() / print_3dtable() do: the curves are collected per element and
 *     written after the whole command (pv_plot_write_curves);
 *   - `set table` / `unset table` choose and close the destination.
 */
#include "plot.h"

#include "pvox/mesh.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* =====================================================================================
 * `with table`
 * ===================================================================================== */

typedef struct table_ctx {
    pv_interp *I;
    pv_out *out;
    pv_out stdout_out;
    char *line;
    size_t cap;
} table_ctx;

static pv_status table_event(void *ud, pv_data_event ev, const pv_data_point *pt)
{
    table_ctx *T = ud;
    if (ev != PV_DATA_POINT) return PV_OK; /* gnuplot's table has no blank lines here */
    size_t need = 1;
    for (int k = 0; k < pt->nvals; k++)
        need += 40 + (pt->strs && pt->strs[k] ? strlen(pt->strs[k]) : 0);
    if (!PV_GROW(T->I->ctx, T->line, T->cap, need)) return T->I->ctx->err_code;
    /* gnuplot 5.4.4 writes a datablock as `"str" or " %g"` fields joined by " \t", and a
     * file or stdout as `" str" or " %g"` fields joined by "\t" */
    bool block = T->out->kind == PV_OUT_DATABLOCK;
    size_t len = 0;
    for (int k = 0; k < pt->nvals; k++) {
        const char *sep = k ? (block ? " \t" : "\t") : "";
        double v = pt->vals[k];
        if (pt->strs && pt->strs[k])
            len += (size_t)snprintf(T->line + len, T->cap - len, "%s%s%s", sep, block ? "" : " ",
                                    pt->strs[k]);
        else if (isnan(v))
            len += (size_t)snprintf(T->line + len, T->cap - len, "%s nan", sep);
        else
            len += (size_t)snprintf(T->line + len, T->cap - len, "%s %g", sep, v);
    }
    T->line[len] = '\0';
    return pv_out_line(T->I, T->out, T->line);
}

/* Record the column count of the first row, then stop (PV_EEXIT as a sentinel). */
static pv_status first_row_cols(void *ud, pv_data_event ev, const pv_data_point *pt)
{
    if (ev != PV_DATA_POINT) return PV_OK;
    *(int *)ud = pt->row ? pt->row->ncols : pt->nvals;
    return PV_EEXIT;
}

pv_status pv_plot_write_table(pv_interp *I, pv_cursor *c, const plot_state *ps,
                              const pv_data_spec *ds)
{
    table_ctx T = {I, I->table_on ? &I->table_out : NULL, {.kind = PV_OUT_STDOUT}, NULL, 0};
    if (!T.out) T.out = &T.stdout_out;
    pv_status st = PV_OK;
    if (ds->kind == PV_DS_DATABLOCK && T.out->kind == PV_OUT_DATABLOCK && T.out->name &&
        strcmp(T.out->name, ds->name) == 0)
        return pv_source_error(I->ctx, PV_ESCRIPT, c->tl->src, ds->name_off,
                               "input and output datablock are the same");
    element_input in;
    if ((st = pv_plot_open_input(I, c, ps, ds, &in)) != PV_OK)
        return st;
    int ndefault = ps->is_splot ? 3 : 2;
    if (ds->nusing == 0 && (ds->kind == PV_DS_FILE || ds->kind == PV_DS_DATABLOCK)) {
        /* gnuplot tabulates every column of the first row (rows with fewer are dropped) */
        int ncols = 0;
        st = pv_exec_data_pass(I, &in.src, ds, &in.opts, &in.samp, 1, false, first_row_cols,
                               &ncols);
        if (st == PV_EEXIT) st = PV_OK;
        if (ncols > PV_USING_MAX) ncols = PV_USING_MAX;
        if (ncols > 0) ndefault = ncols;
    }
    if (st == PV_OK)
        st = pv_plot_iterate(I, ds, &in.opts, &in.src, &in.samp, ndefault, table_event, &T);
    pv_exec_input_close(&in.src);
    pv_free(I->ctx, T.line, T.cap);
    return st;
}

/* =====================================================================================
 * set table + plot of other styles: gnuplot 5.4.4's print_table() format
 * ===================================================================================== */

pv_status pv_plot_add_curve(plot_state *ps, bool tabulated, char *title)
{
    pv_ctx *ctx = ps->I->ctx;
    if (!PV_GROW(ctx, ps->curves, ps->capcurves, ps->ncurves + 1))
        return ctx->err_code; /* the title stays the caller's */
    ps->curves[ps->ncurves++] = (tcurve){tabulated, false, false, title, NULL, 0, 0};
    return PV_OK;
}

static pv_status curve_line_at(plot_state *ps, size_t k, const char *line)
{
    tcurve *t = &ps->curves[k];
    if (!PV_GROW(ps->I->ctx, t->lines, t->cap, t->n + 1)) return ps->I->ctx->err_code;
    if (!(t->lines[t->n] = strdup(line))) return pv_err(ps->I->ctx, PV_ENOMEM, "out of memory");
    t->n++;
    return PV_OK;
}

static pv_status curve_line(plot_state *ps, const char *line)
{
    return curve_line_at(ps, ps->ncurves - 1, line);
}

/* gnuplot's output_number(): the axis format "% h" then a space; NaN as " NaN" */
static size_t table_number(char *buf, size_t cap, double v)
{
    if (isnan(v)) return (size_t)snprintf(buf, cap, " NaN ");
    return (size_t)snprintf(buf, cap, "% g ", v);
}

static bool outside(pv_interp *I, const plot_state *ps, int axis, double v)
{
    double lo, hi;
    if (axis < 2 && ps->has_range[axis]) lo = ps->range[axis][0], hi = ps->range[axis][1];
    else if (!pv_exec_axis_fixed_range(I, axis, &lo, &hi)) return false;
    if (lo > hi) { double t = lo; lo = hi; hi = t; }
    return v < lo || v > hi;
}

/* A splot table row: x y z and the type without a space; undefined as 0 0 0 u (a
 * function's hole keeps its x and y: keep_xy). */
static void splot_row(plot_state *ps, const double *vals, int nvals, bool keep_xy, char *line,
                      size_t cap)
{
    double v[3] = {0.0, 0.0, 0.0};
    for (int k = 0; k < 3; k++) v[k] = k < nvals ? vals[k] : (double)NAN;
    bool undef = isnan(v[0]) || isnan(v[1]) || isnan(v[2]);
    if (undef) {
        if (!keep_xy || isnan(v[0]) || isnan(v[1])) v[0] = v[1] = 0.0;
        v[2] = 0.0;
    }
    size_t n = 0;
    for (int k = 0; k < 3; k++) n += table_number(line + n, cap - n, v[k]);
    char type = undef ? 'u' : outside(ps->I, ps, 0, v[0]) || outside(ps->I, ps, 1, v[1]) ||
                                      outside(ps->I, ps, 2, v[2]) ? 'o' : 'i';
    snprintf(line + n, cap - n, "%c", type);
}

pv_status pv_plot_tabulate_function(plot_state *ps, size_t k, const pv_scene_elem *e)
{
    ps->curves[k].forward = true;
    size_t nscan = e->grid_scans > 0 ? e->grid_scans : e->nscan;
    char line[160];
    pv_status st = PV_OK;
    for (size_t sc = 0; sc < nscan && st == PV_OK; sc++) {
        if (sc > 0) st = curve_line_at(ps, k, "");
        for (size_t r = sc == 0 ? 0 : e->scan[sc - 1]; r < e->scan[sc] && st == PV_OK; r++) {
            splot_row(ps, e->vals + r * (size_t)e->ncols, e->ncols, true, line, sizeof line);
            st = curve_line_at(ps, k, line);
        }
    }
    return st;
}

static pv_status curve_event(void *ud, pv_data_event ev, const pv_data_point *pt)
{
    plot_state *ps = ud;
    tcurve *t = &ps->curves[ps->ncurves - 1];
    if (ev != PV_DATA_POINT) {
        /* a blank line of the input is reproduced (and counted as a point) */
        if (t->n > 0 && t->lines[t->n - 1][0] != '\0') return curve_line(ps, "");
        return PV_OK;
    }
    char line[160];
    if (ps->is_splot) {
        splot_row(ps, pt->vals, pt->nvals, false, line, sizeof line);
        return curve_line(ps, line);
    }
    double x, y;
    if (pt->nvals >= 2) x = pt->vals[0], y = pt->vals[1];
    else x = pt->row ? (double)pt->row->line : (double)t->n, y = pt->nvals ? pt->vals[0] : (double)NAN;
    size_t len = table_number(line, sizeof line, x);
    len += table_number(line + len, sizeof line - len, y);
    char type = isnan(x) || isnan(y) ? 'u'
                : outside(ps->I, ps, 0, x) || outside(ps->I, ps, 1, y) ? 'o' : 'i';
    snprintf(line + len, sizeof line - len, " %c", type);
    return curve_line(ps, line);
}

pv_status pv_plot_tabulate_curve(pv_interp *I, pv_cursor *c, plot_state *ps,
                                 const pv_data_spec *ds)
{
    pv_status st = PV_OK;
    element_input in;
    if ((st = pv_plot_open_input(I, c, ps, ds, &in)) != PV_OK)
        return st;
    st = pv_plot_iterate(I, ds, &in.opts, &in.src, &in.samp, ps->is_splot ? 3 : 2,
                         curve_event, ps);
    pv_exec_input_close(&in.src);
    tcurve *t = &ps->curves[ps->ncurves - 1];
    if (ps->is_splot) return st;
    while (t->n > 0 && t->lines[t->n - 1][0] == '\0') free(t->lines[--t->n]);
    /* gnuplot 5.4.4 drops one trailing undefined point */
    if (t->n > 0) {
        const char *last = t->lines[t->n - 1];
        size_t ll = strlen(last);
        if (ll >= 2 && strcmp(last + ll - 2, " u") == 0) free(t->lines[--t->n]);
    }
    return st;
}

/* splot: gnuplot's print_3dtable() (one "IsoCurve" per data block). */
static pv_status write_surfaces(pv_interp *I, plot_state *ps, pv_out *out)
{
    pv_status st = PV_OK;
    char head[256];
    for (size_t k = 0; k < ps->ncurves && st == PV_OK; k++) {
        tcurve *t = &ps->curves[k];
        if (!t->tabulated) continue;
        snprintf(head, sizeof head, "# Surface %zu of %zu surfaces", k, ps->ncurves);
        if ((st = pv_out_line(I, out, "")) == PV_OK) st = pv_out_line(I, out, head);
        if (st == PV_OK && t->title && *t->title) {
            size_t n = strlen(t->title) + 32;
            char *line = malloc(n);
            if (!line) return pv_err(I->ctx, PV_ENOMEM, "out of memory");
            snprintf(line, n, "# Curve title: \"%s\"", t->title);
            if ((st = pv_out_line(I, out, "")) == PV_OK) st = pv_out_line(I, out, line);
            free(line);
        }
        if (st != PV_OK) break;
        if (t->unsupported) {
            pv_msg(I->ctx, "Tabular output of this 3D plot style not implemented\n");
            continue;
        }
        /* blocks: runs of lines between "" separators */
        size_t nb = 0, *bs = malloc((t->n + 1) * sizeof *bs), *be = malloc((t->n + 1) * sizeof *be);
        if (!bs || !be) {
            free(bs), free(be);
            return pv_err(I->ctx, PV_ENOMEM, "out of memory");
        }
        for (size_t i = 0; i < t->n;) {
            while (i < t->n && t->lines[i][0] == '\0') i++;
            if (i == t->n) break;
            bs[nb] = i;
            while (i < t->n && t->lines[i][0] != '\0') i++;
            be[nb++] = i;
        }
        for (size_t b = 0; b < nb && st == PV_OK; b++) {
            size_t blk = t->forward ? b : nb - 1 - b; /* data: the last block first */
            snprintf(head, sizeof head, "# IsoCurve %zu, %zu points", b, be[blk] - bs[blk]);
            if ((st = pv_out_line(I, out, "")) == PV_OK) st = pv_out_line(I, out, head);
            if (st == PV_OK) st = pv_out_line(I, out, "# x y z type");
            for (size_t i = bs[blk]; i < be[blk] && st == PV_OK; i++)
                st = pv_out_line(I, out, t->lines[i]);
        }
        free(bs), free(be);
        if (st == PV_OK) st = pv_out_line(I, out, "");
    }
    return st;
}

/* Write the collected curves (gnuplot writes them after the whole command). */
pv_status pv_plot_write_curves(pv_interp *I, plot_state *ps)
{
    pv_out so = {.kind = PV_OUT_STDOUT};
    pv_out *out = I->table_out.kind == PV_OUT_STDERR ? &so : &I->table_out;
    if (ps->is_splot) return write_surfaces(I, ps, out);
    pv_status st = PV_OK;
    char head[256];
    for (size_t k = 0; k < ps->ncurves && st == PV_OK; k++) {
        tcurve *t = &ps->curves[k];
        if (!t->tabulated) continue;
        snprintf(head, sizeof head, "# Curve %zu of %zu, %zu points", k, ps->ncurves, t->n);
        if ((st = pv_out_line(I, out, "")) == PV_OK) st = pv_out_line(I, out, head);
        if (st == PV_OK && t->title && *t->title) {
            size_t n = strlen(t->title) + 32;
            char *line = malloc(n);
            if (!line) return pv_err(I->ctx, PV_ENOMEM, "out of memory");
            snprintf(line, n, "# Curve title: \"%s\"", t->title);
            st = pv_out_line(I, out, line);
            free(line);
        }
        if (st == PV_OK) st = pv_out_line(I, out, "# x y type");
        for (size_t i = 0; i < t->n && st == PV_OK; i++) st = pv_out_line(I, out, t->lines[i]);
        if (st == PV_OK) st = pv_out_line(I, out, "");
    }
    return st;
}

void pv_plot_free_curves(plot_state *ps)
{
    pv_ctx *ctx = ps->I->ctx;
    for (size_t k = 0; k < ps->ncurves; k++) {
        tcurve *t = &ps->curves[k];
        for (size_t i = 0; i < t->n; i++) free(t->lines[i]);
        pv_free(ctx, t->lines, t->cap * sizeof *t->lines);
        free(t->title);
    }
    pv_free(ctx, ps->curves, ps->capcurves * sizeof *ps->curves);
}

/* =====================================================================================
 * set table / unset table
 * ===================================================================================== */

pv_status pv_cmd_set_table(pv_interp *I, pv_cursor *c, bool exec)
{
    pv_cur_next(c); /* table */
    size_t off = pv_cur_offset(c);
    pv_out_kind kind = PV_OUT_STDOUT;
    char *name = NULL;
    bool append = false;
    pv_status st = PV_OK;
    const pv_token *t = pv_cur_peek(c);
    if (t->kind == PV_TK_DOLLAR) {
        kind = PV_OUT_DATABLOCK;
        name = strdup(t->sval);
        pv_cur_next(c);
    } else if (!pv_cur_at_end(c) && !pv_cur_is_word(c, "app$end") &&
               !pv_cur_is_word(c, "sep$arator")) {
        pv_code *code = NULL;
        if ((st = pv_parse_expr(c, &code)) == PV_OK && exec) {
            st = pv_eval_string(I->env, code, &name);
            if (st == PV_OK) kind = strcmp(name, "-") == 0 ? PV_OUT_STDOUT : PV_OUT_FILE;
            /* a VTK name: isosurface meshes only, written by the mesh writer per splot */
            if (st == PV_OK && kind == PV_OUT_FILE && pv_mesh_format_of(name) != PV_MESH_TEXT)
                kind = PV_OUT_MESH;
        }
        pv_code_destroy(code);
    }
    while (st == PV_OK && !pv_cur_at_end(c)) {
        if (pv_cur_accept_word(c, "app$end")) append = true;
        else if (pv_cur_accept_word(c, "sep$arator")) {
            if (!pv_cur_accept_word(c, "tab") && !pv_cur_accept_word(c, "comma") &&
                !pv_cur_accept_word(c, "space"))
                st = pv_cur_error(c, PV_ESYNTAX, "expecting 'tab', 'comma' or 'space'");
        } else st = pv_exec_expect_end(c);
    }
    if (st == PV_OK && exec) {
        st = pv_out_open(I, &I->table_out, kind, name, append, c, off);
        I->table_on = st == PV_OK;
    }
    free(name);
    return st;
}

pv_status pv_cmd_unset_table(pv_interp *I, pv_cursor *c, bool exec)
{
    size_t off = pv_cur_offset(c);
    pv_cur_next(c);
    pv_status st = pv_exec_expect_end(c);
    if (st == PV_OK && exec) {
        st = pv_out_finish(I, &I->table_out); /* a failed write is this line's error */
        I->table_on = false;
        if (st != PV_OK) return pv_exec_locate(I, c, off);
    }
    return st;
}
