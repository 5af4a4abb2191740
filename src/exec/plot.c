/*
 * exec/plot.c: plot, splot, replot and table output.
 *
 * The full plot syntax used by the article and the experiments is parsed (leading axis
 * ranges, `for [..]` plot-list iteration, `sample [t=a:b]` ranges, data sources through
 * pv_data_spec_parse, `with <style>` and the style clauses). When run, elements `with
 * table` write their evaluated using values exactly as gnuplot 5.4's table output
 * (see table_event; undefined values as "nan"); every other style needs the
 * renderer, which is not built yet: the command is counted and the interpreter reports the
 * count once at the end of the run.
 */
#define _POSIX_C_SOURCE 200809L
#include "exec_int.h"
#include "gridcmd.h"
#include "render.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* One curve of `set table` + plot without `with table` (gnuplot's print_table()). */
typedef struct tcurve {
    bool tabulated;   /* false: `with table` (already written) or not tabulated here */
    bool unsupported; /* splot style gnuplot cannot tabulate (pm3d, linespoints...) */
    char *title;      /* NULL: no "# Curve title" line */
    char **lines;
    size_t n, cap;
} tcurve;

typedef struct plot_state {
    pv_interp *I;
    tcurve *curves;             /* one per element (set table mode) */
    size_t ncurves, capcurves;
    bool is_splot;
    bool needs_render;          /* some element uses a style the renderer would draw */
    int nranges;                /* leading axis ranges parsed */
    bool has_range[2];          /* first two ranges given with both ends (exec) */
    double range[2][2];         /* their values */
    pv_relem *re;               /* splot elements to render (exec) */
    int nre, capre;
    int number;                 /* elements seen so far (1-based numbering) */
} plot_state;

/* =====================================================================================
 * Ranges: [a:b], [t=a:b], [*:b], [], ...
 * ===================================================================================== */

typedef struct range_spec {
    char *var;        /* dummy variable name or NULL */
    pv_code *lo, *hi; /* NULL for `*` or missing */
} range_spec;

static void range_fini(range_spec *r)
{
    free(r->var);
    pv_code_destroy(r->lo);
    pv_code_destroy(r->hi);
    memset(r, 0, sizeof *r);
}

static pv_status range_end(pv_cursor *c, pv_code **out)
{
    *out = NULL;
    if (pv_cur_accept_op(c, "*")) return PV_OK;
    if (pv_cur_is_op(c, ":") || pv_cur_is_op(c, "]")) return PV_OK;
    return pv_parse_expr(c, out);
}

static pv_status parse_range(pv_cursor *c, range_spec *r)
{
    memset(r, 0, sizeof *r);
    pv_cur_next(c); /* [ */
    const pv_token *t = pv_cur_peek(c), *n = pv_cur_peek_at(c, 1);
    if (t->kind == PV_TK_NAME && n->kind == PV_TK_OP && strcmp(n->op, "=") == 0) {
        r->var = strdup(t->sval);
        pv_cur_next(c);
        pv_cur_next(c);
    }
    pv_status st = range_end(c, &r->lo);
    if (st == PV_OK && pv_cur_accept_op(c, ":")) {
        st = range_end(c, &r->hi);
        if (st == PV_OK && pv_cur_accept_op(c, ":")) { /* sampling interval: parsed, unused */
            pv_code *step = NULL;
            st = pv_parse_expr(c, &step);
            pv_code_destroy(step);
        }
    }
    if (st == PV_OK && !pv_cur_accept_op(c, "]"))
        st = pv_cur_error(c, PV_ESYNTAX, "expecting ']'");
    if (st != PV_OK) range_fini(r);
    return st;
}

/* =====================================================================================
 * Style clauses
 * ===================================================================================== */

static const char *const style_names[] = {
    "l$ines", "p$oints", "linesp$oints", "lp", "d$ots", "i$mpulses", "pm3d", "iso$surface",
    "table", "lab$els", "vec$tors", "surf$ace", "ima$ge", "rgbima$ge", "rgba$lpha",
    "st$eps", "fs$teps", "his$teps", "boxes", "filledc$urves", "circ$les", "zerror$fill",
    "err$orbars", "yerr$orbars", "xerr$orbars", "xyerr$orbars", "errorl$ines",
    "yerrorl$ines", "xerrorl$ines", "xyerrorl$ines", "boxe$rrorbars", "boxxy$errorbars",
    "fin$ancebars", "candle$sticks", "ell$ipses", "hist$ograms", "parallel$axes",
    "cont$ourfill", "spider$plot", "boxp$lot", "pol$ygons", "sect$ors",
};

/* An expression argument, or `variable`. */
static pv_status num_arg(pv_cursor *c)
{
    if (pv_cur_accept_word(c, "var$iable")) return PV_OK;
    pv_code *code = NULL;
    pv_status st = pv_parse_expr(c, &code);
    pv_code_destroy(code);
    return st;
}

/* A colour: rgb "name"|variable, palette {frac f|cb v|z}, variable, bgnd, black, lt N, N. */
static pv_status color_spec(pv_cursor *c)
{
    if (pv_cur_accept_word(c, "rgb$color")) {
        if (pv_cur_accept_word(c, "var$iable")) return PV_OK;
        return num_arg(c);
    }
    if (pv_cur_accept_word(c, "pal$ette")) {
        if (pv_cur_accept_word(c, "frac") || pv_cur_accept_word(c, "cb")) return num_arg(c);
        pv_cur_accept_word(c, "z");
        return PV_OK;
    }
    if (pv_cur_accept_word(c, "var$iable") || pv_cur_accept_word(c, "bgnd") ||
        pv_cur_accept_word(c, "black") || pv_cur_accept_word(c, "backg$round"))
        return PV_OK;
    if (pv_cur_accept_word(c, "lt") || pv_cur_accept_word(c, "linet$ype") ||
        pv_cur_accept_word(c, "ls") || pv_cur_accept_word(c, "lines$tyle"))
        return num_arg(c);
    return num_arg(c);
}

static bool starts_number(const pv_cursor *c)
{
    const pv_token *t = pv_cur_peek(c);
    return t->kind == PV_TK_INT || t->kind == PV_TK_REAL || pv_cur_is_op(c, "(") ||
           pv_cur_is_op(c, "-") || pv_cur_is_op(c, ".");
}

static pv_status fill_style(pv_cursor *c)
{
    pv_status st = PV_OK;
    for (;;) {
        if (pv_cur_accept_word(c, "trans$parent") || pv_cur_accept_word(c, "e$mpty") ||
            pv_cur_accept_word(c, "nobo$rder"))
            continue;
        if (pv_cur_accept_word(c, "s$olid") || pv_cur_accept_word(c, "p$attern")) {
            if (starts_number(c) && (st = num_arg(c)) != PV_OK) return st;
            continue;
        }
        if (pv_cur_accept_word(c, "bo$rder")) {
            if (pv_cur_accept_word(c, "lc") || pv_cur_accept_word(c, "linec$olor")) {
                if ((st = color_spec(c)) != PV_OK) return st;
            } else if (pv_cur_accept_word(c, "lt") || pv_cur_accept_word(c, "linet$ype")) {
                if ((st = num_arg(c)) != PV_OK) return st;
            } else if (starts_number(c) && (st = num_arg(c)) != PV_OK) {
                return st;
            }
            continue;
        }
        return PV_OK;
    }
}

/* The pv_plot_style of a style word (index into style_names). */
static pv_plot_style style_of(const char *name)
{
    if (!strcmp(name, "l$ines")) return PV_STYLE_LINES;
    if (!strcmp(name, "p$oints")) return PV_STYLE_POINTS;
    if (!strcmp(name, "linesp$oints") || !strcmp(name, "lp")) return PV_STYLE_LINESPOINTS;
    if (!strcmp(name, "d$ots")) return PV_STYLE_DOTS;
    if (!strcmp(name, "i$mpulses")) return PV_STYLE_IMPULSES;
    if (!strcmp(name, "pm3d")) return PV_STYLE_PM3D;
    if (!strcmp(name, "surf$ace")) return PV_STYLE_SURFACE;
    if (!strcmp(name, "iso$surface")) return PV_STYLE_ISOSURFACE;
    return PV_STYLE_OTHER;
}

/* A numeric clause argument: evaluated into *v when running with a style record, else
 * only parsed. `variable` sets *var (if var is non-NULL). */
static pv_status num_value(pv_interp *I, pv_cursor *c, bool exec, double *v, bool *var)
{
    if (pv_cur_accept_word(c, "var$iable")) {
        if (var) *var = true;
        return PV_OK;
    }
    pv_code *code = NULL;
    pv_status st = pv_parse_expr(c, &code);
    if (st == PV_OK && exec && v) st = pv_eval_real(I->env, code, v);
    pv_code_destroy(code);
    return st;
}

/* Parse the clauses after the data source up to `,` or the end. *is_table is set when the
 * style is `table`. With rs (running a rendered splot) the style clauses are recorded. */
static pv_status parse_clauses(pv_interp *I, pv_cursor *c, plot_state *ps, bool *is_table,
                               bool exec, char **title, bool *notitle, const char **style,
                               pv_rstyle *rs)
{
    pv_status st = PV_OK;
    bool ex = exec && rs != NULL;
    while (st == PV_OK && !pv_cur_at_end(c) && !pv_cur_is_op(c, ",")) {
        if (pv_cur_accept_word(c, "w$ith")) {
            size_t k, n = sizeof style_names / sizeof style_names[0];
            for (k = 0; k < n; k++)
                if (pv_cur_is_word(c, style_names[k])) break;
            if (k == n)
                return pv_cur_error(c, PV_ESYNTAX, "unrecognized plot type");
            if (strcmp(style_names[k], "table") == 0) {
                if (ps->is_splot)
                    return pv_cur_error(c, PV_ESYNTAX,
                                        "use `plot with table` rather than `splot with table`");
                *is_table = true;
            }
            *style = style_names[k];
            pv_cur_next(c);
            if (rs) {
                rs->has_style = true;
                rs->style = style_of(style_names[k]);
                rs->style_name = style_names[k];
            }
            /* `above T` / `below T` only right after the style word (gnuplot-voxel §6.1) */
            if (pv_cur_is_word(c, "above") || pv_cur_is_word(c, "below")) {
                bool below = pv_cur_is_word(c, "below");
                pv_cur_next(c);
                double v = 0;
                st = num_value(I, c, ex, &v, NULL);
                if (rs && !below) rs->has_above = true, rs->above = v;
            }
        } else if (pv_cur_accept_word(c, "t$itle")) {
            if (pv_cur_accept_word(c, "col$umnheader") || pv_cur_accept_word(c, "columnh$ead")) {
                if (pv_cur_is_op(c, "(")) st = num_arg(c);
            } else if (exec && (I->table_on || rs) && !pv_cur_is_word(c, "var$iable")) {
                pv_value v = {0};
                if ((st = pv_exec_expr(I, c, true, &v)) == PV_OK && v.type == PV_V_STR) {
                    free(*title);
                    *title = strdup(v.s);
                    *notitle = false;
                }
                pv_value_free(&v);
            } else {
                st = num_arg(c);
            }
        } else if (pv_cur_accept_word(c, "not$itle")) {
            *notitle = true;
            if (pv_cur_peek(c)->kind == PV_TK_STRING) pv_cur_next(c);
        } else if (pv_cur_accept_word(c, "ax$es") || pv_cur_accept_word(c, "ax$is") ||
                   pv_cur_accept_word(c, "s$mooth")) {
            if (pv_cur_peek(c)->kind != PV_TK_NAME)
                return pv_cur_error(c, PV_ESYNTAX, "expecting a name");
            pv_cur_next(c);
        } else if (pv_cur_accept_word(c, "lc") || pv_cur_accept_word(c, "linec$olor")) {
            if (rs) st = pv_settings_parse_color(I->env, c, ex, &rs->lp.lc);
            else st = color_spec(c);
        } else if (pv_cur_accept_word(c, "fc") || pv_cur_accept_word(c, "fillc$olor")) {
            if (rs) st = pv_settings_parse_color(I->env, c, ex, &rs->fc);
            else st = color_spec(c);
        } else if (pv_cur_accept_word(c, "tc") || pv_cur_accept_word(c, "textc$olor")) {
            st = color_spec(c);
        } else if (pv_cur_accept_word(c, "lt") || pv_cur_accept_word(c, "linet$ype")) {
            if (rs) {
                pv_color col = {0};
                if ((st = pv_settings_parse_color(I->env, c, ex, &col)) == PV_OK && ex) {
                    if (col.kind == PV_COLOR_LT) rs->lp.lt = col.lt;
                    rs->lp.lc = col;
                }
            } else {
                st = color_spec(c);
            }
        } else if (pv_cur_accept_word(c, "fs") || pv_cur_accept_word(c, "fill$style")) {
            size_t from = c->pos;
            st = fill_style(c);
            if (st == PV_OK && rs) {
                /* re-read what fill_style accepted: transparent / solid A / empty */
                rs->has_fill = true;
                rs->fill.kind = PV_FILL_SOLID;
                rs->fill.density = 1;
                size_t to = c->pos;
                c->pos = from;
                while (c->pos < to) {
                    if (pv_cur_accept_word(c, "trans$parent")) rs->fill.transparent = true;
                    else if (pv_cur_accept_word(c, "e$mpty")) rs->fill.kind = PV_FILL_EMPTY;
                    else if (pv_cur_accept_word(c, "s$olid")) {
                        rs->fill.kind = PV_FILL_SOLID;
                        if (c->pos < to && starts_number(c))
                            st = num_value(I, c, ex, &rs->fill.density, NULL);
                    } else pv_cur_next(c);
                    if (st != PV_OK) break;
                }
                c->pos = to;
            }
        } else if (pv_cur_accept_word(c, "pt") || pv_cur_accept_word(c, "pointt$ype")) {
            double v = 0;
            bool var = false;
            if (rs && pv_cur_peek(c)->kind == PV_TK_STRING) {
                pv_cur_next(c);
                rs->lp.pt = -4; /* a character point type: nothing drawn (§6.1) */
            } else {
                st = num_value(I, c, ex, &v, &var);
                if (rs && ex) rs->lp.pt = var ? -3 : (int)v;
            }
        } else if (pv_cur_accept_word(c, "ps") || pv_cur_accept_word(c, "points$ize")) {
            double v = 0;
            bool var = false;
            st = num_value(I, c, ex, &v, &var);
            if (rs && ex) rs->lp.ps = var ? -2 : v;
        } else if (pv_cur_accept_word(c, "lw") || pv_cur_accept_word(c, "linew$idth")) {
            double v = 0;
            st = num_value(I, c, ex, &v, NULL);
            if (rs && ex) rs->lp.lw = v;
        } else if (pv_cur_accept_word(c, "pi") || pv_cur_accept_word(c, "pointi$nterval")) {
            double v = 0;
            st = num_value(I, c, ex, &v, NULL);
            if (rs && ex) rs->lp.pi = (int)v;
        } else if (pv_cur_accept_word(c, "lev$el")) {
            double v = 0;
            st = num_value(I, c, ex, &v, NULL);
            if (rs && ex) rs->has_level = true, rs->level = v;
        } else if (pv_cur_accept_word(c, "dt") || pv_cur_accept_word(c, "dasht$ype") ||
                   pv_cur_accept_word(c, "ls") || pv_cur_accept_word(c, "lines$tyle") ||
                   pv_cur_accept_word(c, "pn") || pv_cur_accept_word(c, "pointn$umber")) {
            st = num_arg(c);
        } else if (pv_cur_is_word(c, "above") || pv_cur_is_word(c, "below")) {
            return pv_cur_error(c, PV_ESYNTAX, "unexpected or unrecognized token: %s",
                                pv_cur_is_word(c, "above") ? "above" : "below");
        } else if (pv_cur_accept_word(c, "pal$ette") || pv_cur_accept_word(c, "nohidden3d") ||
                   pv_cur_accept_word(c, "nocon$tours") || pv_cur_accept_word(c, "nosur$face") ||
                   pv_cur_accept_word(c, "var$iable") || pv_cur_accept_word(c, "filled") ||
                   pv_cur_accept_word(c, "nohead") || pv_cur_accept_word(c, "head$s") ||
                   pv_cur_accept_word(c, "enh$anced") || pv_cur_accept_word(c, "noenh$anced")) {
            /* flags */
        } else {
            return pv_exec_expect_end(c);
        }
    }
    return st;
}

/* =====================================================================================
 * Table output
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
    if (need > T->cap) {
        char *nl = realloc(T->line, need);
        if (!nl) return pv_err(T->I->ctx, PV_ENOMEM, "out of memory");
        T->line = nl, T->cap = need;
    }
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

/* `set datafile` and the dummy names, as the data module wants them. */
static void data_opts(pv_interp *I, pv_data_opts *o, char sep[2])
{
    const pv_settings *s = I->set;
    memset(o, 0, sizeof *o);
    sep[0] = s->datafile.separator, sep[1] = '\0';
    o->separator = sep[0] ? sep : NULL;
    o->missing = s->datafile.missing;
    o->commentschars = s->datafile.commentschars;
    o->dummy[0] = s->dummy[0][0] ? s->dummy[0] : NULL;
    o->dummy[1] = s->dummy[1][0] ? s->dummy[1] : NULL;
}

/* Sampling for '+' / '++' from the settings; '+' samples the x range (gnuplot);
 * leading plot ranges override. */
static void fill_sampling(pv_interp *I, const plot_state *ps, const pv_data_spec *ds,
                          pv_sampling *s)
{
    pv_exec_sampling(I, ds, s);
    if (ds->kind == PV_DS_PLUS) { /* plot and splot '+' sample x (gnuplot 5.4.4) */
        const pv_range *x = &I->set->range[PV_AX_X];
        s->u_min = x->auto_min ? -10.0 : x->min; /* gnuplot's autoscaled default */
        s->u_max = x->auto_max ? 10.0 : x->max;
    }
    if (ps->has_range[0]) s->u_min = ps->range[0][0], s->u_max = ps->range[0][1];
    if (ps->has_range[1]) s->v_min = ps->range[1][0], s->v_max = ps->range[1][1];
}

/* What reading one element needs: the file's bytes (rank 0 reads, every rank receives),
 * the '+'/'++' sampling and the `set datafile` options. */
typedef struct element_input {
    char *data;
    size_t len;
    pv_sampling samp;
    pv_data_opts opts;
    char sep[2];         /* opts.separator points here: do not copy the struct */
} element_input;

static pv_status open_input(pv_interp *I, pv_cursor *c, const plot_state *ps,
                            const pv_data_spec *ds, element_input *in)
{
    memset(in, 0, sizeof *in);
    if (ds->kind == PV_DS_FILE) {
        pv_status st = pv_exec_read_file(I, c, ds->name_off, ds->name, &in->data, &in->len);
        if (st != PV_OK) return st;
    }
    fill_sampling(I, ps, ds, &in->samp);
    data_opts(I, &in->opts, in->sep);
    return PV_OK;
}

static pv_status ignore_event(void *ud, pv_data_event ev, const pv_data_point *pt)
{
    (void)ud, (void)ev, (void)pt;
    return PV_OK;
}

/* pv_data_iterate_ex with the voxel() reads of the using specs batched (decision 1):
 * a first pass records the points voxel() is asked for, one collective exchange answers
 * them all, and the real pass takes the answers from the batch. */
static pv_status iterate_batched(pv_interp *I, const pv_data_spec *ds, const pv_data_opts *opts,
                                 const char *data, size_t len, const pv_sampling *samp,
                                 int ndefault, pv_data_event_fn fn, void *ud)
{
    bool batched = false;
    pv_status st = PV_OK;
    if (pv_gridset_count(I) > 0 && ds->nusing > 0) {
        pv_gridset_batch_begin(I);
        int32_t seed[2];
        pv_env_get_seed(I->env, seed); /* rand() in a spec must not advance twice */
        pv_status pst = pv_data_iterate_ex(I->env, ds, opts, data, len, samp, ndefault, false,
                                           ignore_event, NULL);
        pv_env_set_seed(I->env, seed);
        if (pst == PV_OK) st = pv_gridset_batch_fetch(I, &batched);
        else pv_err_clear(I->ctx); /* the real pass reports it */
        if (!batched) pv_gridset_batch_end(I);
    }
    if (st == PV_OK)
        st = pv_data_iterate_ex(I->env, ds, opts, data, len, samp, ndefault, false, fn, ud);
    if (batched) pv_gridset_batch_end(I);
    return st;
}

static pv_status write_table(pv_interp *I, pv_cursor *c, const plot_state *ps,
                             const pv_data_spec *ds)
{
    table_ctx T = {I, I->table_on ? &I->table_out : NULL, {PV_OUT_STDOUT, NULL, NULL}, NULL, 0};
    if (!T.out) T.out = &T.stdout_out;
    pv_status st = PV_OK;
    if (ds->kind == PV_DS_DATABLOCK && T.out->kind == PV_OUT_DATABLOCK && T.out->name &&
        strcmp(T.out->name, ds->name) == 0)
        return pv_source_error(I->ctx, PV_ESCRIPT, c->tl->src, ds->name_off,
                               "input and output datablock are the same");
    element_input in;
    if ((st = open_input(I, c, ps, ds, &in)) != PV_OK)
        return st;
    int ndefault = ps->is_splot ? 3 : 2;
    if (ds->nusing == 0 && (ds->kind == PV_DS_FILE || ds->kind == PV_DS_DATABLOCK)) {
        /* gnuplot tabulates every column of the first row (rows with fewer are dropped) */
        int ncols = 0;
        st = pv_data_iterate_ex(I->env, ds, &in.opts, in.data, in.len, &in.samp, 1, false,
                                first_row_cols,
                                &ncols);
        if (st == PV_EEXIT) st = PV_OK;
        if (ncols > PV_USING_MAX) ncols = PV_USING_MAX;
        if (ncols > 0) ndefault = ncols;
    }
    if (st == PV_OK)
        st = iterate_batched(I, ds, &in.opts, in.data, in.len, &in.samp, ndefault, table_event, &T);
    free(in.data);
    free(T.line);
    return st;
}

/* =====================================================================================
 * set table + plot of other styles: gnuplot 5.4.4's print_table() format
 * ===================================================================================== */

static pv_status add_curve(plot_state *ps, bool tabulated, char *title)
{
    if (ps->ncurves == ps->capcurves) {
        size_t nc = ps->capcurves ? 2 * ps->capcurves : 4;
        tcurve *n = realloc(ps->curves, nc * sizeof *n);
        if (!n) {
            free(title);
            return pv_err(ps->I->ctx, PV_ENOMEM, "out of memory");
        }
        ps->curves = n, ps->capcurves = nc;
    }
    ps->curves[ps->ncurves++] = (tcurve){tabulated, false, title, NULL, 0, 0};
    return PV_OK;
}

static pv_status curve_line(plot_state *ps, const char *line)
{
    tcurve *t = &ps->curves[ps->ncurves - 1];
    if (t->n == t->cap) {
        size_t nc = t->cap ? 2 * t->cap : 64;
        char **n = realloc(t->lines, nc * sizeof *n);
        if (!n) return pv_err(ps->I->ctx, PV_ENOMEM, "out of memory");
        t->lines = n, t->cap = nc;
    }
    if (!(t->lines[t->n] = strdup(line))) return pv_err(ps->I->ctx, PV_ENOMEM, "out of memory");
    t->n++;
    return PV_OK;
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
    if (ps->is_splot) { /* x y z and the type without a space; undefined as 0 0 0 u */
        double v[3] = {0.0, 0.0, 0.0};
        for (int k = 0; k < 3; k++) v[k] = k < pt->nvals ? pt->vals[k] : (double)NAN;
        bool undef = isnan(v[0]) || isnan(v[1]) || isnan(v[2]);
        if (undef) v[0] = v[1] = v[2] = 0.0;
        size_t n = 0;
        for (int k = 0; k < 3; k++) n += table_number(line + n, sizeof line - n, v[k]);
        char type = undef ? 'u' : outside(ps->I, ps, 0, v[0]) || outside(ps->I, ps, 1, v[1]) ||
                                          outside(ps->I, ps, 2, v[2]) ? 'o' : 'i';
        snprintf(line + n, sizeof line - n, "%c", type);
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

static pv_status tabulate_curve(pv_interp *I, pv_cursor *c, plot_state *ps,
                                const pv_data_spec *ds)
{
    pv_status st = PV_OK;
    element_input in;
    if ((st = open_input(I, c, ps, ds, &in)) != PV_OK)
        return st;
    st = iterate_batched(I, ds, &in.opts, in.data, in.len, &in.samp, ps->is_splot ? 3 : 2,
                         curve_event, ps);
    free(in.data);
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
            size_t blk = nb - 1 - b; /* gnuplot lists the last block first */
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
static pv_status write_curves(pv_interp *I, plot_state *ps)
{
    pv_out so = {PV_OUT_STDOUT, NULL, NULL};
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

static void free_curves(plot_state *ps)
{
    for (size_t k = 0; k < ps->ncurves; k++) {
        for (size_t i = 0; i < ps->curves[k].n; i++) free(ps->curves[k].lines[i]);
        free(ps->curves[k].lines);
        free(ps->curves[k].title);
    }
    free(ps->curves);
}

/* =====================================================================================
 * Elements
 * ===================================================================================== */

static bool at_data_modifier(const pv_cursor *c)
{
    return pv_cur_is_word(c, "u$sing") || pv_cur_is_word(c, "ev$ery") ||
           pv_cur_is_word(c, "i$ndex");
}

/* Is the element at the cursor a data source (true) or a function (false)? */
static pv_status classify(pv_interp *I, pv_cursor *c, bool exec, bool *is_data)
{
    const pv_token *t = pv_cur_peek(c);
    *is_data = true;
    if (t->kind == PV_TK_STRING || t->kind == PV_TK_DOLLAR) return PV_OK;
    if (exec && t->kind == PV_TK_NAME && !pv_cur_is_op(c, "(")) {
        const pv_value *v = pv_env_get(I->env, t->sval);
        const pv_token *n = pv_cur_peek_at(c, 1);
        if (v && v->type == PV_V_STR && !(n->kind == PV_TK_OP && strcmp(n->op, "(") == 0))
            return PV_OK;
    }
    size_t save = c->pos;
    pv_code *code = NULL;
    pv_status st = pv_parse_expr(c, &code);
    pv_code_destroy(code);
    if (st != PV_OK) return st;
    *is_data = at_data_modifier(c);
    if (*is_data) c->pos = save;
    return PV_OK;
}

/* Rows of one element for the renderer (every rank evaluates the same rows). */
static pv_status collect_event(void *ud, pv_data_event ev, const pv_data_point *pt)
{
    pv_relem *e = ud;
    if (ev != PV_DATA_POINT) {
        if (e->nscan > 0 && e->scan[e->nscan - 1] == e->nrows) return PV_OK; /* empty block */
        if (e->nscan == e->capscan) {
            size_t nc = e->capscan ? 2 * e->capscan : 64;
            size_t *ns = realloc(e->scan, nc * sizeof *ns);
            if (!ns) return PV_ENOMEM;
            e->scan = ns;
            e->capscan = nc;
        }
        e->scan[e->nscan++] = e->nrows;
        return PV_OK;
    }
    if (e->nrows == 0 && e->ncols == 0) e->ncols = pt->nvals;
    if (e->nrows == e->cap) {
        size_t nc = e->cap ? 2 * e->cap : 1024;
        double *nv = realloc(e->vals, nc * (size_t)e->ncols * sizeof *nv);
        if (!nv) return PV_ENOMEM;
        e->vals = nv;
        e->cap = nc;
    }
    double *row = e->vals + e->nrows * (size_t)e->ncols;
    for (int k = 0; k < e->ncols; k++) row[k] = k < pt->nvals ? pt->vals[k] : (double)NAN;
    e->nrows++;
    return PV_OK;
}

/* Classify a rendered splot element and gather its data. */
static pv_status collect_element(pv_interp *I, pv_cursor *c, plot_state *ps, bool is_data,
                                 pv_data_spec *ds, pv_relem *re)
{
    pv_rstyle *rs = &re->rs;
    if (!is_data) {
        re->kind = PV_RE_SKIPPED;
        re->why = "function surfaces (splot f(x,y))";
        return PV_OK;
    }
    pv_grid *g = ds->kind == PV_DS_DATABLOCK ? pv_gridset_find(I, ds->name) : NULL;
    if (g) {
        if (ds->nusing > 0)
            return pv_source_error(I->ctx, PV_ESYNTAX, c->tl->src, ds->name_off,
                                   "a voxel grid takes no using specification");
        if (!pv_grid_has_ranges(g))
            return pv_source_error(I->ctx, PV_ESCRIPT, c->tl->src, ds->name_off,
                                   "grid limits must be set before use");
        re->grid = g;
        if (rs->has_style && rs->style == PV_STYLE_ISOSURFACE && !rs->has_level)
            return pv_source_error(I->ctx, PV_ESYNTAX, c->tl->src, ds->name_off,
                                   "isosurface requires a level");
        if (rs->has_style && rs->style == PV_STYLE_ISOSURFACE) {
            re->kind = PV_RE_SKIPPED;
            re->why = "isosurfaces (with isosurface)";
        } else {
            re->kind = PV_RE_VOXELS; /* any other style falls back to dots (§6.1) */
            if (!rs->has_style || rs->style != PV_STYLE_POINTS) rs->style = PV_STYLE_DOTS;
        }
        return PV_OK;
    }
    if (rs->has_style && rs->style == PV_STYLE_ISOSURFACE)
        return pv_source_error(I->ctx, PV_ESCRIPT, c->tl->src, ds->name_off,
                               "isosurface requires a voxel grid");
    pv_plot_style style = rs->has_style ? rs->style : I->set->style_data;
    rs->style = style;
    if (style == PV_STYLE_POINTS || style == PV_STYLE_DOTS) re->kind = PV_RE_POINTS;
    else if (style == PV_STYLE_PM3D) re->kind = PV_RE_PM3D;
    else {
        re->kind = PV_RE_SKIPPED;
        re->why = rs->style_name && !strcmp(rs->style_name, "l$ines") ? "the lines style"
                  : "this plot style";
        return PV_OK;
    }
    pv_status st = PV_OK;
    element_input in;
    if ((st = open_input(I, c, ps, ds, &in)) != PV_OK) {
        if (st == PV_ENOMEM) return st;
        /* gnuplot warns and plots the other elements (no data at all is an error) */
        pv_err_clear(I->ctx);
        pv_source_warn(I->ctx, c->tl->src, ds->name_off, "Cannot find or open file \"%s\"",
                       ds->name);
        re->kind = PV_RE_SKIPPED;
        re->why = NULL;
        return PV_OK;
    }
    st = iterate_batched(I, ds, &in.opts, in.data, in.len, &in.samp, 3, collect_event, re);
    free(in.data);
    if (st == PV_ENOMEM) st = pv_err(I->ctx, PV_ENOMEM, "out of memory reading plot data");
    if (st == PV_OK && (re->nscan == 0 || re->scan[re->nscan - 1] != re->nrows))
        st = collect_event(re, PV_DATA_BLOCK_END, NULL); /* close the last scan line */
    return st;
}

static pv_status element(pv_interp *I, pv_cursor *c, bool exec, void *ud)
{
    plot_state *ps = ud;
    if (pv_cur_accept_word(c, "for")) return pv_exec_iterate(I, c, exec, element, ud);
    bool is_data = false, is_table = false;
    pv_status st = PV_OK;
    pv_data_spec ds;
    pv_data_spec_init(&ds);
    /* `sample [t=a:b]` / `[t=a:b]` before a source: the data module parses them */
    if (pv_cur_is_op(c, "[")) st = pv_data_sample_ranges_parse(c, &ds);
    if (st == PV_OK && (pv_cur_is_word(c, "sample") || ds.has_sample_range[0])) is_data = true;
    else if (st == PV_OK) st = classify(I, c, exec, &is_data);
    size_t spec_start = c->pos;
    if (st == PV_OK && is_data) st = pv_data_spec_parse(c, I->env, exec, &ds);
    size_t spec_end = c->pos;
    char *title = NULL;
    bool notitle = false;
    const char *style = NULL;
    ps->number++;
    pv_relem *re = NULL;
    if (st == PV_OK && exec && ps->is_splot && !I->table_on) {
        if (ps->nre == ps->capre) {
            int nc = ps->capre ? 2 * ps->capre : 8;
            pv_relem *nr = realloc(ps->re, (size_t)nc * sizeof *nr);
            if (!nr) return pv_err(I->ctx, PV_ENOMEM, "out of memory");
            ps->re = nr;
            ps->capre = nc;
        }
        re = &ps->re[ps->nre];
        memset(re, 0, sizeof *re);
        pv_rstyle_init(&re->rs);
        re->number = ps->number;
        /* gnuplot's default title: the source as written */
        if (spec_end > spec_start) {
            const pv_token *a = &c->tl->tok[spec_start], *b = &c->tl->tok[spec_end - 1];
            title = strndup(c->tl->src->text + a->start, b->end - a->start);
        }
    }
    if (st == PV_OK)
        st = parse_clauses(I, c, ps, &is_table, exec, &title, &notitle, &style,
                           re ? &re->rs : NULL);
    if (st == PV_OK && exec) {
        if (is_table && is_data) {
            st = write_table(I, c, ps, &ds);
            st = st == PV_OK ? add_curve(ps, false, NULL) : st;
        } else if (I->table_on && is_data) {
            /* gnuplot's default title: the source and its modifiers as written */
            if (!title && !notitle && spec_end > spec_start) {
                const pv_token *a = &c->tl->tok[spec_start], *b = &c->tl->tok[spec_end - 1];
                title = strndup(c->tl->src->text + a->start, b->end - a->start);
            }
            if ((st = add_curve(ps, true, notitle ? NULL : title)) == PV_OK) {
                tcurve *t = &ps->curves[ps->ncurves - 1];
                title = NULL;
                /* print_3dtable() knows lines, points, impulses, dots, vectors, image */
                static const char *const ok3d[] = {"l$ines", "p$oints", "i$mpulses", "d$ots",
                                                   "vec$tors", "ima$ge"};
                t->unsupported = ps->is_splot && style != NULL;
                for (size_t k = 0; t->unsupported && k < sizeof ok3d / sizeof ok3d[0]; k++)
                    if (strcmp(style, ok3d[k]) == 0) t->unsupported = false;
                if (!t->unsupported) st = tabulate_curve(I, c, ps, &ds);
            }
        } else {
            ps->needs_render = true;
            if (I->table_on) st = add_curve(ps, false, NULL);
            else if (ps->is_splot && re) {
                re->title = notitle ? NULL : title;
                title = NULL;
                st = collect_element(I, c, ps, is_data, &ds, re);
                if (st == PV_OK) ps->nre++;
                else pv_relem_fini(re);
                re = NULL;
            }
        }
    }
    if (re) pv_relem_fini(re);
    free(title);
    pv_data_spec_fini(&ds);
    return st;
}

/* `replot {, more}`: run the last splot again, with more elements appended. */
static pv_status replot(pv_interp *I, pv_cursor *c, bool exec)
{
    size_t off = pv_cur_offset(c);
    size_t r0 = c->pos < c->end ? c->tl->tok[c->pos].start : 0;
    size_t r1 = c->end > c->pos ? c->tl->tok[c->end - 1].end : r0;
    pv_exec_skip_rest(c);
    if (!exec) return PV_OK;
    if (!I->last_splot)
        return pv_source_error(I->ctx, PV_ESCRIPT, c->tl->src, off, "no previous plot");
    size_t n = strlen(I->last_splot) + (r1 - r0) + 16;
    char *text = malloc(n);
    if (!text) return pv_err(I->ctx, PV_ENOMEM, "out of memory");
    snprintf(text, n, "splot %s %.*s", I->last_splot, (int)(r1 - r0), c->tl->src->text + r0);
    pv_source *src = pv_source_create(I->ctx, c->tl->src->name, text, strlen(text), 1);
    free(text);
    return src ? pv_exec_source(I, src) : PV_ENOMEM;
}

pv_status pv_cmd_plot(pv_interp *I, pv_cursor *c, bool exec)
{
    plot_state ps = {0};
    ps.I = I;
    ps.is_splot = pv_cur_is_word(c, "sp$lot");
    size_t plot_off = pv_cur_offset(c);
    bool is_replot = pv_cur_is_word(c, "rep$lot");
    pv_cur_next(c);
    if (is_replot) return replot(I, c, exec);
    size_t text0 = c->pos < c->end ? c->tl->tok[c->pos].start : 0;
    pv_status st = PV_OK;
    /* leading axis ranges; a first range naming a dummy (`plot [t=0:1] '+'`) is the first
     * element's sample range, parsed by the data module */
    const pv_token *t1 = pv_cur_peek_at(c, 1), *t2 = pv_cur_peek_at(c, 2);
    bool dummy_range = pv_cur_is_op(c, "[") && t1->kind == PV_TK_NAME && t2->kind == PV_TK_OP &&
                       strcmp(t2->op, "=") == 0;
    while (st == PV_OK && !dummy_range && pv_cur_is_op(c, "[")) {
        range_spec r;
        if ((st = parse_range(c, &r)) != PV_OK) break;
        if (exec && ps.nranges < 2 && r.lo && r.hi) {
            double lo, hi;
            if ((st = pv_eval_real(I->env, r.lo, &lo)) == PV_OK &&
                (st = pv_eval_real(I->env, r.hi, &hi)) == PV_OK) {
                ps.has_range[ps.nranges] = true;
                ps.range[ps.nranges][0] = lo, ps.range[ps.nranges][1] = hi;
            }
        }
        ps.nranges++;
        range_fini(&r);
    }
    if (st == PV_OK && pv_cur_at_end(c) && !is_replot)
        return pv_cur_error(c, PV_ESYNTAX, "function to plot expected");
    while (st == PV_OK && !pv_cur_at_end(c)) {
        if ((st = element(I, c, exec, &ps)) != PV_OK) break;
        if (!pv_cur_accept_op(c, ",")) break;
    }
    if (st == PV_OK) st = pv_exec_expect_end(c);
    if (st == PV_OK && exec && I->table_on) st = write_curves(I, &ps);
    if (st == PV_OK && exec && ps.is_splot && c->end > 0) {
        size_t text1 = c->tl->tok[c->end - 1].end;
        char *t = text1 > text0 ? strndup(c->tl->src->text + text0, text1 - text0) : NULL;
        if (t) {
            free(I->last_splot);
            I->last_splot = t;
        }
    }
    if (st == PV_OK && exec && !I->table_on && ps.is_splot && ps.nre > 0) {
        bool any = false, drawable = false;
        for (int k = 0; k < ps.nre; k++) {
            any = any || ps.re[k].kind != PV_RE_SKIPPED || ps.re[k].why;
            drawable = drawable || ps.re[k].kind != PV_RE_SKIPPED;
        }
        if (!any)
            st = pv_source_error(I->ctx, PV_ESCRIPT, c->tl->src, plot_off,
                                 "no functions or data to plot");
        else if (!drawable) /* only what this version cannot draw: no empty picture */
            pv_source_warn(I->ctx, c->tl->src, plot_off,
                           "%s are not drawn by this version of pvox: nothing to draw, "
                           "no picture written", ps.re[0].why);
        else
            st = pv_render_splot(I, c, plot_off, ps.re, ps.nre);
    }
    else if (st == PV_OK && exec && (ps.needs_render || is_replot)) I->plots_skipped++;
    for (int k = 0; k < ps.nre; k++) pv_relem_fini(&ps.re[k]);
    free(ps.re);
    free_curves(&ps);
    return st;
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
    pv_cur_next(c);
    pv_status st = pv_exec_expect_end(c);
    if (st == PV_OK && exec) {
        pv_out_close(I, &I->table_out);
        I->table_on = false;
    }
    return st;
}
