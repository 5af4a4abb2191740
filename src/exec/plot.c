/*
 * exec/plot.c: plot, splot and replot: parsing and dispatch.
 *
 * The full plot syntax gnuplot scripts use is parsed (leading axis ranges, `for [..]`
 * plot-list iteration, `sample [t=a:b]` ranges, data sources through
 * pv_data_spec_parse, `with <style>` and the style clauses). When run, an element either
 * goes to table output (plot_table.c: `with table`, or any element while `set table` is
 * on), or, in a splot, is collected into a pv_scene_elem (its grid or data rows and its
 * style) and the whole splot is drawn by pv_render_splot (render.c). A 2D `plot` of
 * other styles is not drawn: it is counted, and the interpreter reports the count once
 * at the end of the run.
 */
#define _POSIX_C_SOURCE 200809L
#include "plot.h"

#include "gridcmd.h"
#include "render.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* =====================================================================================
 * Ranges: [a:b], [t=a:b], [*:b], [], ...
 * ===================================================================================== */

typedef struct range_spec {
    char *var;        /* dummy variable name or NULL */
    pv_code *lo, *hi; /* NULL for `*` or missing */
    bool star_lo, star_hi; /* the end is `*` (autoscaled) */
} range_spec;

static void range_fini(range_spec *r)
{
    free(r->var);
    pv_code_destroy(r->lo);
    pv_code_destroy(r->hi);
    memset(r, 0, sizeof *r);
}

static pv_status range_end(pv_cursor *c, pv_code **out, bool *star)
{
    *out = NULL;
    *star = pv_cur_accept_op(c, "*");
    if (*star) return PV_OK;
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
    pv_status st = range_end(c, &r->lo, &r->star_lo);
    if (st == PV_OK && pv_cur_accept_op(c, ":")) {
        st = range_end(c, &r->hi, &r->star_hi);
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

/* The axis range *out (a copy of its settings) as the leading command range r sets it: a
 * given end is fixed, `*` autoscaled, an empty end keeps the setting. */
static pv_status override_range(pv_interp *I, const range_spec *r, pv_range *out)
{
    pv_status st = PV_OK;
    double v;
    if (r->lo && (st = pv_eval_real(I->env, r->lo, &v)) == PV_OK) out->min = v, out->auto_min = false;
    if (st == PV_OK && r->hi && (st = pv_eval_real(I->env, r->hi, &v)) == PV_OK)
        out->max = v, out->auto_max = false;
    if (r->star_lo) out->auto_min = true;
    if (r->star_hi) out->auto_max = true;
    return st;
}

/* =====================================================================================
 * Style clauses
 * ===================================================================================== */

/* gnuplot 5.4's plot styles, in its order: the first entry a word abbreviates wins
 * (`w e` is errorbars). The text before `$` is the shortest abbreviation. */
static const char *const style_names[] = {
    "l$ines", "i$mpulses", "p$oints", "linesp$oints", "lp", "d$ots", "yerrorl$ines",
    "errorl$ines", "xerrorl$ines", "xyerrorl$ines", "ye$rrorbars", "e$rrorbars",
    "xe$rrorbars", "xye$rrorbars", "boxes", "hist$ograms", "filledc$urves", "boxer$rorbars",
    "boxx$yerrorbars", "st$eps", "fillst$eps", "fs$teps", "his$teps", "vec$tors",
    "fin$ancebars", "can$dlesticks", "boxplot", "pm$3d", "labels", "ima$ge", "rgbima$ge",
    "rgba$lpha", "cir$cles", "ell$ipses", "sur$face", "parallel$axes", "table",
    "zerror$fill", "isosurface", "spider$plot", "polygon$s",
};

/* What a skipped element of a style is called in its warning ("`with lines`"): static
 * texts, one per style, so that each kind is reported once. */
static const char *style_warning_name(const char *style)
{
    static char names[sizeof style_names / sizeof style_names[0]][32];
    for (size_t k = 0; k < sizeof style_names / sizeof style_names[0]; k++) {
        if (strcmp(style_names[k], style) != 0) continue;
        if (!names[k][0]) {
            char *o = names[k];
            o += sprintf(o, "`with ");
            for (const char *p = style_names[k]; *p; p++)
                if (*p != '$') *o++ = *p;
            strcpy(o, "`");
        }
        return names[k];
    }
    return "this plot style";
}

/* An expression argument, or `variable`. */
static pv_status num_arg(pv_cursor *c)
{
    if (pv_cur_accept_word(c, "var$iable")) return PV_OK;
    pv_code *code = NULL;
    pv_status st = pv_parse_expr(c, &code);
    pv_code_destroy(code);
    return st;
}

/* A colour clause whose value is not recorded (`tc`, and every colour while checking a
 * script or of a plot that is not drawn): gnuplot's colorspec grammar, parsed only:
 * rgb "name"|variable, palette {frac f|cb v|z}, variable, bgnd, black, backg$round,
 * lt|linetype|ls|linestyle N, N. Recorded colours (`lc`, `fc`, `lt` of a drawn splot)
 * go through the settings parser (pv_settings_parse_color / _colorspec). This one is
 * kept because colour names are not checked here, only when a recorded colour is
 * evaluated (the settings parser rejects an unknown name even in check mode). */
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

/* A position `{first|second|graph|screen|character} x, {..} y {, {..} z}` (parsed). The
 * commas belong to the position unless a new plot element follows (a string or a
 * datablock source). */
static pv_status parse_position(pv_cursor *c)
{
    for (int k = 0; k < 3; k++) {
        if (k > 0) {
            const pv_token *n = pv_cur_peek_at(c, 1);
            if (!pv_cur_is_op(c, ",") || n->kind == PV_TK_STRING || n->kind == PV_TK_DOLLAR ||
                (n->kind == PV_TK_NAME && strcmp(n->sval, "for") == 0))
                return PV_OK;
            pv_cur_next(c);
        }
        if (pv_cur_accept_word(c, "fir$st") || pv_cur_accept_word(c, "sec$ond") ||
            pv_cur_accept_word(c, "gr$aph") || pv_cur_accept_word(c, "sc$reen") ||
            pv_cur_accept_word(c, "char$acter") || pv_cur_accept_word(c, "pol$ar")) {}
        pv_status st = num_arg(c);
        if (st != PV_OK) return st;
    }
    return PV_OK;
}

/* The pv_plot_style of a style word (index into style_names). */
static pv_plot_style style_of(const char *name)
{
    if (!strcmp(name, "l$ines")) return PV_STYLE_LINES;
    if (!strcmp(name, "p$oints")) return PV_STYLE_POINTS;
    if (!strcmp(name, "linesp$oints") || !strcmp(name, "lp")) return PV_STYLE_LINESPOINTS;
    if (!strcmp(name, "d$ots")) return PV_STYLE_DOTS;
    if (!strcmp(name, "i$mpulses")) return PV_STYLE_IMPULSES;
    if (!strcmp(name, "pm$3d")) return PV_STYLE_PM3D;
    if (!strcmp(name, "sur$face")) return PV_STYLE_SURFACE;
    if (!strcmp(name, "isosurface")) return PV_STYLE_ISOSURFACE;
    if (!strcmp(name, "vec$tors")) return PV_STYLE_VECTORS;
    if (!strcmp(name, "labels")) return PV_STYLE_LABELS;
    if (!strcmp(name, "ima$ge")) return PV_STYLE_IMAGE;
    if (!strcmp(name, "rgbima$ge")) return PV_STYLE_RGBIMAGE;
    if (!strcmp(name, "rgba$lpha")) return PV_STYLE_RGBALPHA;
    if (!strcmp(name, "polygon$s")) return PV_STYLE_POLYGONS;
    if (!strcmp(name, "boxes")) return PV_STYLE_BOXES;
    if (!strcmp(name, "xe$rrorbars")) return PV_STYLE_XERRORBARS;
    if (!strcmp(name, "ye$rrorbars") || !strcmp(name, "e$rrorbars")) return PV_STYLE_YERRORBARS;
    if (!strcmp(name, "xye$rrorbars")) return PV_STYLE_XYERRORBARS;
    if (!strcmp(name, "xerrorl$ines")) return PV_STYLE_XERRORLINES;
    if (!strcmp(name, "yerrorl$ines") || !strcmp(name, "errorl$ines")) return PV_STYLE_YERRORLINES;
    if (!strcmp(name, "xyerrorl$ines")) return PV_STYLE_XYERRORLINES;
    return PV_STYLE_OTHER;
}

/* The warning name of an element drawn in the `set style data` style: the same static
 * text as `with` that style gives, so the kind is named once either way. */
static const char *default_style_name(pv_plot_style st)
{
    switch (st) {
    case PV_STYLE_LINES: return style_warning_name("l$ines");
    case PV_STYLE_LINESPOINTS: return style_warning_name("linesp$oints");
    case PV_STYLE_IMPULSES: return style_warning_name("i$mpulses");
    case PV_STYLE_SURFACE: return style_warning_name("sur$face");
    default: return "the `set style data` style";
    }
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
                               pv_scene_style *rs)
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
            if (rs) rs->style = style_of(style_names[k]);
            /* image styles: `pixels` / `failsafe` (a drawing choice; images are not drawn) */
            if (strstr(style_names[k], "ima") || strstr(style_names[k], "rgba"))
                if (!pv_cur_accept_word(c, "pixels")) pv_cur_accept_word(c, "failsafe");
            /* `above T` / `below T` only right after the style word (GP-6.1) */
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
            /* gnuplot 5.4 takes `fc lt N` / `fc ls N` (not after `lc`) */
            if (rs) st = pv_settings_parse_colorspec(I->set, I->env, c, ex, &rs->fc);
            else st = color_spec(c);
        } else if (pv_cur_accept_word(c, "tc") || pv_cur_accept_word(c, "textc$olor")) {
            if (rs) st = pv_settings_parse_colorspec(I->set, I->env, c, ex, &rs->tc);
            else st = color_spec(c);
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
                /* re-read what fill_style accepted, over `set style fill` (gnuplot starts
                 * an element's fill style from it): transparent / solid A / empty /
                 * pattern, border {lc C | lt N} / noborder */
                rs->has_fill = true;
                rs->fill = I->set->fill;
                rs->fill.kind = PV_FILL_SOLID;
                rs->fill.density = 1;
                rs->fill.transparent = false;
                size_t to = c->pos;
                c->pos = from;
                while (c->pos < to) {
                    if (pv_cur_accept_word(c, "trans$parent")) rs->fill.transparent = true;
                    else if (pv_cur_accept_word(c, "e$mpty")) rs->fill.kind = PV_FILL_EMPTY;
                    else if (pv_cur_accept_word(c, "p$attern")) rs->fill.kind = PV_FILL_PATTERN;
                    else if (pv_cur_accept_word(c, "nobo$rder")) rs->fill.border = false;
                    else if (pv_cur_accept_word(c, "bo$rder")) {
                        rs->fill.border = true;
                        rs->fill.border_color.kind = PV_COLOR_DEFAULT;
                        if (pv_cur_is_word(c, "lc") || pv_cur_is_word(c, "linec$olor")) {
                            pv_cur_next(c);
                            pv_color col = {0};
                            st = pv_settings_parse_color(I->env, c, ex, &col);
                            if (st == PV_OK && ex) rs->fill.border_color = col;
                        } else if (pv_cur_accept_word(c, "lt") || pv_cur_accept_word(c, "linet$ype") ||
                                   (c->pos < to && starts_number(c))) {
                            double lt = 0;
                            st = num_value(I, c, ex, &lt, NULL);
                            rs->fill.border_color.kind = lt < 0 ? PV_COLOR_BLACK : PV_COLOR_LT;
                            rs->fill.border_color.lt = (int)lt;
                        }
                    } else if (pv_cur_accept_word(c, "s$olid")) {
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
                rs->lp.pt = -4; /* a character point type: nothing drawn (GP-6.1) */
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
        } else if (pv_cur_accept_word(c, "dt") || pv_cur_accept_word(c, "dasht$ype")) {
            /* lines are drawn solid: a dash type other than solid (1) is named once */
            size_t off = pv_cur_offset(c);
            const char *t = c->tl->src->text + off;
            bool word = pv_cur_accept_word(c, "solid");
            bool solid = word || (t[0] == '1' && !isalnum((unsigned char)t[1]) && t[1] != '.');
            if (!word) st = num_arg(c);
            if (st == PV_OK && rs && ex && !solid)
                pv_plot_warn_skip(I, c->tl->src, off, "a dash type (`dt`)", ": lines are solid");
        } else if (pv_cur_accept_word(c, "ls") || pv_cur_accept_word(c, "lines$tyle") ||
                   pv_cur_accept_word(c, "pn") || pv_cur_accept_word(c, "pointn$umber")) {
            st = num_arg(c);
        } else if (pv_cur_is_word(c, "above") || pv_cur_is_word(c, "below")) {
            return pv_cur_error(c, PV_ESYNTAX, "unexpected or unrecognized token: %s",
                                pv_cur_is_word(c, "above") ? "above" : "below");
        } else if (pv_cur_accept_word(c, "off$set")) {
            /* `with labels` offset, in character units */
            size_t from = c->pos;
            st = parse_position(c);
            if (st == PV_OK && rs && ex) {
                size_t to = c->pos;
                c->pos = from;
                for (int k = 0; k < 2 && st == PV_OK && c->pos < to; k++) {
                    /* other systems than character are taken as character units */
                    (void)(pv_cur_accept_word(c, "char$acter") || pv_cur_accept_word(c, "first") ||
                           pv_cur_accept_word(c, "second") || pv_cur_accept_word(c, "gr$aph") ||
                           pv_cur_accept_word(c, "sc$reen"));
                    st = num_value(I, c, ex, &rs->label_offset[k], NULL);
                    pv_cur_accept_op(c, ",");
                }
                c->pos = to;
            }
        } else if (pv_cur_accept_word(c, "rot$ate")) {
            if (pv_cur_accept_word(c, "by")) {
                double a = 0;
                st = num_value(I, c, ex, &a, NULL);
                if (rs && ex) rs->label_angle = a;
            } else if (!pv_cur_accept_word(c, "var$iable") && rs) {
                rs->label_angle = 90.0;
            }
        } else if (pv_cur_is_word(c, "lef$t") || pv_cur_is_word(c, "cen$ter") ||
                   pv_cur_is_word(c, "centre") || pv_cur_is_word(c, "rig$ht")) {
            int j = pv_cur_is_word(c, "lef$t") ? 0 : pv_cur_is_word(c, "rig$ht") ? 2 : 1;
            pv_cur_next(c);
            if (rs) rs->label_just = j;
        } else if (pv_cur_accept_word(c, "font")) {
            st = num_arg(c);
        } else if (pv_cur_accept_word(c, "bins")) {
            if (pv_cur_accept_op(c, "=")) st = num_arg(c);
        } else if (pv_cur_accept_word(c, "binr$ange")) {
            if (!pv_cur_is_op(c, "[")) return pv_cur_error(c, PV_ESYNTAX, "expecting binrange [min:max]");
            range_spec r;
            if ((st = parse_range(c, &r)) == PV_OK) range_fini(&r);
        } else if (pv_cur_accept_word(c, "binw$idth") || pv_cur_accept_word(c, "binv$alue")) {
            pv_cur_accept_op(c, "=");
            if (pv_cur_accept_word(c, "sum") || pv_cur_accept_word(c, "avg")) continue;
            st = num_arg(c);
        } else if (pv_cur_accept_word(c, "band$width") || pv_cur_accept_word(c, "per$iod")) {
            if (starts_number(c) || pv_cur_peek(c)->kind == PV_TK_NAME) st = num_arg(c);
        } else if (pv_cur_accept_word(c, "norot$ate") || pv_cur_accept_word(c, "box$ed") ||
                   pv_cur_accept_word(c, "point") || pv_cur_accept_word(c, "nopo$int") ||
                   pv_cur_accept_word(c, "hyper$text") || pv_cur_accept_word(c, "front") ||
                   pv_cur_accept_word(c, "back") || pv_cur_accept_word(c, "vol$atile") ||
                   pv_cur_accept_word(c, "noauto$scale") || pv_cur_accept_word(c, "nocl$ip") ||
                   pv_cur_accept_word(c, "noborder") || pv_cur_accept_word(c, "border") ||
                   pv_cur_accept_word(c, "fill") || pv_cur_accept_word(c, "nofill")) {
            /* `with labels` / `with vectors` / data flags: parsed, not drawn */
        } else if (pv_cur_accept_word(c, "pal$ette") || pv_cur_accept_word(c, "nohidden3d") ||
                   pv_cur_accept_word(c, "nocon$tours") || pv_cur_accept_word(c, "nosur$face") ||
                   pv_cur_accept_word(c, "var$iable") || pv_cur_accept_word(c, "fix$ed")) {
            /* flags */
        } else if (pv_cur_accept_word(c, "enh$anced")) {
            if (rs) rs->noenhanced = false;
        } else if (pv_cur_accept_word(c, "noenh$anced")) {
            if (rs) rs->noenhanced = true;
        } else if (pv_cur_is_word(c, "nohead") || pv_cur_is_word(c, "head") ||
                   pv_cur_is_word(c, "heads") || pv_cur_is_word(c, "backhead")) {
            /* `with vectors` heads */
            int h = pv_cur_is_word(c, "nohead") ? 0 : pv_cur_is_word(c, "head") ? 1
                    : pv_cur_is_word(c, "backhead") ? 2 : 3;
            pv_cur_next(c);
            if (rs) rs->heads = h;
        } else if (pv_cur_is_word(c, "fill$ed") || pv_cur_is_word(c, "empty") ||
                   pv_cur_is_word(c, "nofill$ed")) {
            bool filled = pv_cur_is_word(c, "fill$ed");
            pv_cur_next(c);
            if (rs) rs->head_filled = filled;
        } else if (pv_cur_accept_word(c, "si$ze")) {
            st = parse_position(c); /* head size: gnuplot's default head is drawn */
        } else if (pv_cur_accept_word(c, "as") || pv_cur_accept_word(c, "arrows$tyle")) {
            st = num_arg(c);
        } else {
            return pv_exec_expect_end(c);
        }
    }
    return st;
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

/* Any row at all? (stops at the first: PV_EEXIT as a sentinel) */
static pv_status count_event(void *ud, pv_data_event ev, const pv_data_point *pt)
{
    (void)pt;
    if (ev != PV_DATA_POINT) return PV_OK;
    *(bool *)ud = true;
    return PV_EEXIT;
}

/* Rows of one element for the renderer (every rank receives the same rows). */
typedef struct collect_ctx {
    pv_ctx *ctx;
    pv_scene_elem *e;
    const pv_data_spec *ds;
    int text_k;         /* `with labels`: the using entry of the text (0-based) */
    bool plot2d;        /* a 2D plot's rows: x y [dx dy] extras, given a z (plot order) */
    double z2d;
} collect_ctx;

/* `with labels`: the row's text, its 4th using entry: a string value, the text of a
 * column as written, or a number printed as gnuplot's "%g". */
static pv_status add_label_text(collect_ctx *cc, const pv_data_point *pt)
{
    const int k = cc->text_k;
    char num[64] = "";
    const char *text = pt->strs && k < pt->nvals ? pt->strs[k] : NULL;
    if (!text && k < cc->ds->nusing && cc->ds->using[k].kind == PV_USE_COLUMN && pt->row &&
        pt->row->str) {
        int64_t col = cc->ds->using[k].column;
        if (col >= 1 && col <= pt->row->ncols) text = pt->row->str[col - 1];
    }
    if (!text && k < pt->nvals && isfinite(pt->vals[k])) snprintf(num, sizeof num, "%g", pt->vals[k]);
    pv_scene_elem *e = cc->e;
    if (!PV_GROW(cc->ctx, e->texts, e->captexts, e->ntexts + 1)) return cc->ctx->err_code;
    char *copy = strdup(text ? text : num);
    if (!copy) return pv_err(cc->ctx, PV_ENOMEM, "out of memory");
    e->texts[e->ntexts++] = copy;
    return PV_OK;
}

static pv_status collect_event(void *ud, pv_data_event ev, const pv_data_point *pt)
{
    collect_ctx *cc = ud;
    if (ev != PV_DATA_POINT) return pv_scene_end_scan(cc->ctx, cc->e);
    pv_status st;
    if (cc->plot2d) {
        /* x y -> x y z, vectors' x y dx dy -> x y z dx dy 0, then the extra columns */
        double row[16];
        int n = pt->nvals < 12 ? pt->nvals : 12, o = 0;
        bool vec = cc->e->st.style == PV_STYLE_VECTORS;
        for (int i = 0; i < n; i++) {
            row[o++] = pt->vals[i];
            if (i == 1) row[o++] = cc->z2d;
            if (i == 3 && vec) row[o++] = 0.0;
        }
        st = pv_scene_add_row(cc->ctx, cc->e, row, o);
    } else {
        st = pv_scene_add_row(cc->ctx, cc->e, pt->vals, pt->nvals);
    }
    if (st == PV_OK && cc->e->st.style == PV_STYLE_LABELS) st = add_label_text(cc, pt);
    return st;
}

/* The scene kind that draws data in style `st` (PV_SCENE_SKIPPED: not drawn). */
static pv_scene_kind data_kind(pv_plot_style st)
{
    switch (st) {
    case PV_STYLE_POINTS:
    case PV_STYLE_LABELS: /* points that draw their texts, not markers */
    case PV_STYLE_DOTS: return PV_SCENE_POINTS;
    case PV_STYLE_LINES:
    case PV_STYLE_LINESPOINTS:
    case PV_STYLE_VECTORS:
    case PV_STYLE_IMPULSES: return PV_SCENE_LINES;
    case PV_STYLE_PM3D: return PV_SCENE_PM3D;
    case PV_STYLE_IMAGE:
    case PV_STYLE_RGBIMAGE:
    case PV_STYLE_RGBALPHA: return PV_SCENE_IMAGE;
    case PV_STYLE_POLYGONS: return PV_SCENE_POLYGONS;
    case PV_STYLE_BOXES: return PV_SCENE_BOXES;
    case PV_STYLE_XERRORBARS:
    case PV_STYLE_YERRORBARS:
    case PV_STYLE_XYERRORBARS:
    case PV_STYLE_XERRORLINES:
    case PV_STYLE_YERRORLINES:
    case PV_STYLE_XYERRORLINES: return PV_SCENE_ERRORBARS;
    default: return PV_SCENE_SKIPPED;
    }
}

/* `with boxes`: drawn in 2D plots with the `set boxwidth` in force; gnuplot's 3D boxes
 * (cuboids) are not drawn. */
static void boxes_kind(pv_interp *I, const plot_state *ps, pv_scene_elem *re)
{
    if (re->kind == PV_SCENE_ERRORBARS && ps->is_splot) {
        re->kind = PV_SCENE_SKIPPED; /* gnuplot: 2D styles */
        re->why = "error bars in a 3D plot";
        return;
    }
    if (re->kind != PV_SCENE_BOXES) return;
    if (ps->is_splot) {
        re->kind = PV_SCENE_SKIPPED;
        re->why = "`with boxes` in a 3D plot";
        return;
    }
    re->st.boxwidth_mode = I->set->boxwidth_mode;
    re->st.boxwidth = I->set->boxwidth;
}

/* Classify a rendered splot element and gather its data. `style` is the style word
 * given with `with` (NULL: none). */
static pv_status collect_element(pv_interp *I, pv_cursor *c, plot_state *ps, bool is_data,
                                 pv_data_spec *ds, const char *style, pv_scene_elem *re)
{
    pv_scene_style *rs = &re->st;
    bool has_style = style != NULL;
    if (!is_data) { /* sampled in the command's second pass (plot_func.c) */
        if (!has_style) rs->style = I->set->style_function;
        if (rs->style == PV_STYLE_ISOSURFACE)
            return pv_source_error(I->ctx, PV_ESCRIPT, c->tl->src, re->src_off,
                                   "isosurface requires a voxel grid");
        bool implicit = ps->is_splot && I->set->pm3d.implicit && rs->style != PV_STYLE_PM3D;
        re->kind = implicit ? PV_SCENE_PM3D : data_kind(rs->style);
        boxes_kind(I, ps, re);
        if (re->plot2d && re->kind == PV_SCENE_PM3D) {
            re->kind = PV_SCENE_SKIPPED;
            re->why = "pm3d in a 2D plot (gnuplot: \"Can't use pm3d or surface for 2d plots\")";
        }
        if (re->kind == PV_SCENE_SKIPPED && !re->why)
            re->why = has_style ? style_warning_name(style) : default_style_name(rs->style);
        return PV_OK;
    }
    pv_grid *g = ds->kind == PV_DS_DATABLOCK ? pv_gridset_find(I, ds->name) : NULL;
    if (g && !ps->is_splot) /* gnuplot: a voxel grid is not a datablock */
        return pv_source_error(I->ctx, PV_ESCRIPT, c->tl->src, ds->name_off,
                               "no datablock named %s", ds->name);
    if (g) {
        if (ds->nusing > 0)
            return pv_source_error(I->ctx, PV_ESYNTAX, c->tl->src, ds->name_off,
                                   "a voxel grid takes no using specification");
        if (!pv_grid_has_ranges(g))
            return pv_source_error(I->ctx, PV_ESCRIPT, c->tl->src, ds->name_off,
                                   "grid limits must be set before use");
        re->grid = g;
        if (has_style && rs->style == PV_STYLE_ISOSURFACE && !rs->has_level)
            return pv_source_error(I->ctx, PV_ESYNTAX, c->tl->src, ds->name_off,
                                   "isosurface requires a level");
        if (has_style && rs->style == PV_STYLE_ISOSURFACE) {
            re->kind = PV_SCENE_ISO;
        } else {
            re->kind = PV_SCENE_VOXELS; /* any other style falls back to dots (GP-6.1) */
            if (!has_style || rs->style != PV_STYLE_POINTS) rs->style = PV_STYLE_DOTS;
        }
        return PV_OK;
    }
    if (has_style && rs->style == PV_STYLE_ISOSURFACE)
        return pv_source_error(I->ctx, PV_ESCRIPT, c->tl->src, ds->name_off,
                               "isosurface requires a voxel grid");
    if (!has_style) rs->style = I->set->style_data;
    /* `set pm3d` (implicit): every data surface is also drawn as pm3d; its own style too
     * while `set surface` is on (the caller adds that element: implicit_surface) */
    bool implicit = ps->is_splot && I->set->pm3d.implicit && rs->style != PV_STYLE_PM3D;
    re->kind = implicit ? PV_SCENE_PM3D : data_kind(rs->style);
    boxes_kind(I, ps, re);
    if (!ps->is_splot && re->kind == PV_SCENE_PM3D) { /* gnuplot: not in 2D plots */
        re->kind = PV_SCENE_SKIPPED;
        re->why = "pm3d in a 2D plot (gnuplot: \"Can't use pm3d or surface for 2d plots\")";
    }
    if (re->kind == PV_SCENE_SKIPPED) {
        if (!re->why) re->why = has_style ? style_warning_name(style) : default_style_name(rs->style);
        return PV_OK;
    }
    pv_status st = PV_OK;
    element_input in;
    if ((st = pv_plot_open_input(I, c, ps, ds, &in)) != PV_OK) {
        /* gnuplot skips only a file it cannot open; --no-shell, a directory or a read
         * error stop the plot */
        if (st == PV_ENOMEM || !in.src.missing) return st;
        /* gnuplot warns and plots the other elements (no data at all is an error) */
        pv_err_clear(I->ctx);
        pv_source_warn(I->ctx, c->tl->src, ds->name_off, "Cannot find or open file \"%s\"",
                       ds->name);
        re->kind = PV_SCENE_SKIPPED;
        re->why = NULL;
        return PV_OK;
    }
    bool p2 = !ps->is_splot;
    collect_ctx cc = {I->ctx, re, ds, p2 ? 2 : 3, p2, re->plot2d_z};
    /* without `using`: x:y:z, x:y:z:dx:dy:dz for vectors, x:y:z:text for labels (whose
     * texts need the rows themselves: not evaluated in shares); in 2D x:y, x:y:dx:dy,
     * x:y:text */
    int ndefault = rs->style == PV_STYLE_VECTORS ? 6 : rs->style == PV_STYLE_LABELS ? 4 : 3;
    if (re->kind == PV_SCENE_IMAGE) /* x:y:z:value, x:y:z:r:g:b{:a} */
        ndefault = rs->style == PV_STYLE_IMAGE ? 4 : rs->style == PV_STYLE_RGBIMAGE ? 6 : 7;
    if (re->kind == PV_SCENE_BOXES) ndefault = 4; /* x:y:width (2D, +1 here) */
    if (re->kind == PV_SCENE_ERRORBARS) /* x:y:delta, x:y:xdelta:ydelta (2D, +1 here) */
        ndefault = rs->style == PV_STYLE_XYERRORBARS || rs->style == PV_STYLE_XYERRORLINES ? 5 : 4;
    if (p2) ndefault -= rs->style == PV_STYLE_VECTORS ? 2 : 1;
    in.opts.plot_dims = p2 ? 2 : 3;
    rs->box_wcol = ds->nusing >= 3 || ds->nusing == 0; /* gnuplot reads x:y:width */
    in.opts.plane_z = re->kind == PV_SCENE_IMAGE;
    if (rs->style == PV_STYLE_LABELS) {
        in.opts.text_entry = p2 ? 3 : 4;
        st = pv_plot_iterate(I, ds, &in.opts, &in.src, &in.samp, ndefault, collect_event, &cc);
    }
    else
        st = pv_plot_iterate_values(I, ds, &in.opts, &in.src, &in.samp, ndefault,
                                    collect_event, &cc);
    pv_exec_input_close(&in.src);
    if (st == PV_ENOMEM) st = pv_err(I->ctx, PV_ENOMEM, "out of memory reading plot data");
    if (st == PV_OK) st = pv_scene_end_scan(I->ctx, re); /* close the last scan line */
    /* an image's line length: the array's points per line, a matrix's row */
    if (st == PV_OK && re->kind == PV_SCENE_IMAGE) {
        if (ds->binary && ds->bin.generate && ds->bin.dim[0] > 1 && ds->bin.dim[1] != 0)
            re->image_k = (size_t)ds->bin.dim[0];
        else if (ds->matrix != PV_MATRIX_NONE && re->nscan >= 2 && re->scan[0] >= 2)
            re->image_k = re->scan[0];
    }
    return st;
}

/* `set object N polygon ... depthorder` in a splot: each one more element drawn with the
 * data (depth-sorted, as gnuplot sorts them with pm3d's depthorder), after them in plot
 * order. Vertices in first coordinates only (gnuplot: the same). */
static pv_status add_depthorder_objects(pv_interp *I, plot_state *ps)
{
    const pv_settings *s = I->set;
    for (int k = 0; k < s->nobjects; k++) {
        const pv_object *o = &s->objects[k];
        if (o->kind != PV_OBJ_POLYGON || o->layer != PV_OBJ_DEPTHORDER || o->nv < 3) continue;
        bool first = true;
        for (int q = 0; q < o->nv; q++)
            for (int a = 0; a < 3; a++) first = first && o->vsys[q][a] == PV_SYS_FIRST;
        if (!first) continue;
        if (!PV_GROW(I->ctx, ps->re, ps->capre, ps->nre + 1)) return I->ctx->err_code;
        pv_scene_elem *e = &ps->re[ps->nre];
        pv_lp lp = pv_lp_default();
        pv_scene_elem_init(e, (int)ps->nre + 1, &lp);
        e->kind = PV_SCENE_POLYGONS;
        e->st.style = PV_STYLE_POLYGONS;
        e->st.fc = o->fc;
        e->st.has_fill = true;
        e->st.fill = o->fill;
        double prev[3] = {0, 0, 0};
        pv_status st = PV_OK;
        for (int q = 0; q < o->nv && st == PV_OK; q++) {
            double p[3];
            for (int a = 0; a < 3; a++) p[a] = o->vrel[q] ? prev[a] + o->v[q][a] : o->v[q][a];
            memcpy(prev, p, sizeof prev);
            st = pv_scene_add_row(I->ctx, e, p, 3);
        }
        if (st == PV_OK) st = pv_scene_end_scan(I->ctx, e);
        ps->nre++;
        if (st != PV_OK) return st;
    }
    return PV_OK;
}

/* Append the rows and scans of `from` to `to` (empty). */
static pv_status copy_rows(pv_ctx *ctx, const pv_scene_elem *from, pv_scene_elem *to)
{
    size_t r = 0;
    for (size_t k = 0; k < from->nscan; k++) {
        for (; r < from->scan[k]; r++) {
            pv_status st = pv_scene_add_row(ctx, to, from->vals + r * (size_t)from->ncols,
                                            from->ncols);
            if (st != PV_OK) return st;
        }
        pv_status st = pv_scene_end_scan(ctx, to);
        if (st != PV_OK) return st;
    }
    to->grid_scans = from->grid_scans;
    return PV_OK;
}

/* The last element is an implicit pm3d surface (`set pm3d`) of data whose own style is
 * st.style: make it pm3d and, while `set surface` is on, add that style's element too
 * (the same rows; it takes the key title), as gnuplot draws both. */
static pv_status add_implicit_surface(pv_interp *I, plot_state *ps, const char *style)
{
    pv_scene_elem *pm = &ps->re[ps->nre - 1];
    pv_plot_style own = pm->st.style;
    pm->st.style = PV_STYLE_PM3D;
    if (!I->set->surface) return PV_OK;
    if (!PV_GROW(I->ctx, ps->re, ps->capre, ps->nre + 1)) return I->ctx->err_code;
    pm = &ps->re[ps->nre - 1];
    pv_scene_elem *e = &ps->re[ps->nre];
    pv_scene_elem_init(e, pm->number, &pm->st.lp);
    e->line_num = pm->line_num;
    e->st = pm->st;
    e->st.style = own;
    e->src_off = pm->src_off;
    e->title = pm->title;
    pm->title = NULL;
    ps->nre++;
    e->kind = data_kind(own);
    if (e->kind == PV_SCENE_SKIPPED) {
        e->why = style ? style_warning_name(style) : default_style_name(own);
        return PV_OK;
    }
    return copy_rows(I->ctx, pm, e);
}

/* Pass 2: sample the function element whose expression starts at token expr_start (and
 * its implicit-pm3d companion); xy: where its x and y parts start (`set parametric`), or
 * NULL. */
static pv_status sample_function(pv_interp *I, pv_cursor *c, plot_state *ps,
                                 const size_t *xy, size_t expr_start)
{
    if (ps->next_func >= ps->nfuncs)
        return pv_err(I->ctx, PV_EINTERNAL, "the plot command's functions changed between passes");
    plot_func f = ps->funcs[ps->next_func++];
    if (f.elem == SIZE_MAX && (f.curve == SIZE_MAX || ps->curves[f.curve].unsupported))
        return PV_OK; /* not drawn, not tabulated */
    size_t save = c->pos, at[3] = {xy ? xy[0] : 0, xy ? xy[1] : 0, expr_start};
    pv_code *code[3] = {NULL, NULL, NULL};
    pv_status st = PV_OK;
    for (int k = xy ? 0 : 2; k < 3 && st == PV_OK; k++) {
        if (k == 1 && !ps->is_splot) continue; /* a 2D parametric pair: x(t), y(t) */
        c->pos = at[k];
        st = pv_parse_expr(c, &code[k]);
    }
    c->pos = save;
    pv_scene_elem table_rows;
    pv_lp lp = pv_lp_default();
    pv_scene_elem_init(&table_rows, 0, &lp);
    pv_scene_elem *into = f.elem != SIZE_MAX ? &ps->re[f.elem] : &table_rows;
    if (st == PV_OK)
        st = pv_plot_sample_function(I, (const pv_code *const *)code, ps->func_u, ps->func_v,
                                     into);
    for (int k = 0; k < 3; k++) pv_code_destroy(code[k]);
    if (f.elem == SIZE_MAX) {
        if (st == PV_OK) st = pv_plot_tabulate_function(ps, f.curve, &table_rows);
        pv_scene_elem_fini(I->ctx, &table_rows);
        return st;
    }
    if (st == PV_OK && f.companion != SIZE_MAX)
        st = copy_rows(I->ctx, &ps->re[f.elem], &ps->re[f.companion]);
    return st;
}

/* Do the element's clauses (from the cursor to the next `,` outside brackets) say `with
 * isosurface`? (`set table` records only such elements for drawing: a mesh.) */
static bool clauses_are_iso(pv_cursor *c)
{
    size_t save = c->pos;
    int depth = 0;
    bool iso = false;
    while (!pv_cur_at_end(c) && !(depth == 0 && pv_cur_is_op(c, ","))) {
        if (pv_cur_is_op(c, "(") || pv_cur_is_op(c, "[") || pv_cur_is_op(c, "{")) depth++;
        else if (pv_cur_is_op(c, ")") || pv_cur_is_op(c, "]") || pv_cur_is_op(c, "}")) depth--;
        if (depth == 0 && pv_cur_accept_word(c, "w$ith")) {
            iso = pv_cur_is_word(c, "isosurface");
            continue;
        }
        pv_cur_next(c);
    }
    c->pos = save;
    return iso;
}

/* Does the data element have at least one row? (an open iteration's end) */
static pv_status element_has_data(pv_interp *I, pv_cursor *c, plot_state *ps,
                                  pv_data_spec *ds, bool *any)
{
    element_input in;
    *any = false;
    if (ds->kind == PV_DS_DATABLOCK && pv_gridset_find(I, ds->name)) {
        *any = true;
        return PV_OK;
    }
    if (pv_plot_open_input(I, c, ps, ds, &in) != PV_OK) {
        pv_err_clear(I->ctx); /* a missing file: no data */
        return PV_OK;
    }
    /* the probe must not advance rand(): the element's real pass reads the same rows */
    int32_t seed[2];
    pv_env_get_seed(I->env, seed);
    pv_status st = pv_plot_iterate(I, ds, &in.opts, &in.src, &in.samp, 3, count_event, any);
    pv_env_set_seed(I->env, seed);
    pv_exec_input_close(&in.src);
    return st == PV_EEXIT ? PV_OK : st;
}

/* Does gnuplot's print_3dtable() write this style (lines, points, impulses, dots,
 * vectors, image)? */
static bool tabulated_3d_style(const char *style)
{
    static const char *const ok3d[] = {"l$ines", "p$oints", "i$mpulses", "d$ots", "vec$tors",
                                       "ima$ge"};
    for (size_t k = 0; k < sizeof ok3d / sizeof ok3d[0]; k++)
        if (strcmp(style, ok3d[k]) == 0) return true;
    return false;
}

/* Parse the element's clauses without doing them (an element a pass leaves alone: its
 * `offset 1,0` must not end it at the comma). */
static pv_status skip_clauses(pv_interp *I, pv_cursor *c, plot_state *ps)
{
    bool is_table = false, notitle = false;
    char *title = NULL;
    const char *style = NULL;
    pv_status st = parse_clauses(I, c, ps, &is_table, false, &title, &notitle, &style, NULL);
    free(title);
    return st;
}

static pv_status element(pv_interp *I, pv_cursor *c, bool exec, void *ud);

/* The body of `for [...]`: one element, or with `set parametric` the whole triple x, y, z
 * it starts (gnuplot iterates over the triple). */
static pv_status element_group(pv_interp *I, pv_cursor *c, bool exec, void *ud)
{
    plot_state *ps = ud;
    pv_status st = element(I, c, exec, ud);
    while (st == PV_OK && ps->param_part != 0 && pv_cur_accept_op(c, ","))
        st = element(I, c, exec, ud);
    return st;
}

static pv_status element(pv_interp *I, pv_cursor *c, bool exec, void *ud)
{
    plot_state *ps = ud;
    if (pv_cur_accept_word(c, "for")) return pv_exec_iterate(I, c, exec, element_group, ud);
    bool is_data = false, is_table = false;
    pv_status st = PV_OK;
    pv_data_spec ds;
    pv_data_spec_init(&ds);
    /* `sample [t=a:b]` / `[t=a:b]` before a source or a function (a piecewise function:
     * `plot sample [*:1] x, [1:2] cos(x)`): the data module parses the ranges */
    size_t elem_off = pv_cur_offset(c);
    bool untitled = false;
    pv_cur_accept_word(c, "sa$mple");
    size_t range_start = c->pos; /* gnuplot's default title starts at the sample range */
    if (pv_cur_is_op(c, "[")) st = pv_data_sample_ranges_parse(c, &ds);
    size_t expr_start = c->pos;
    /* `keyentry`: a key entry of its style and title, with nothing to draw */
    const pv_token *kt = pv_cur_peek(c), *kn = pv_cur_peek_at(c, 1);
    bool is_key = kt->kind == PV_TK_NAME && strcmp(kt->sval, "keyentry") == 0 &&
                  !(kn->kind == PV_TK_OP && strcmp(kn->op, "(") == 0);
    if (is_key) pv_cur_next(c);
    else if (st == PV_OK) st = classify(I, c, exec, &is_data);
    size_t func_end = c->pos; /* a function: where its text ends */
    size_t spec_start = c->pos;
    if (st == PV_OK && is_data) st = pv_data_spec_parse(c, I->env, exec, &ds);
    /* `volatile` (the data may change: nothing to do in a batch run) ends the source
     * text, as in gnuplot's default title */
    while (st == PV_OK && is_data && pv_cur_accept_word(c, "vol$atile")) {}
    size_t spec_end = c->pos;
    if (st == PV_OK && exec && I->open_iter_depth > 0) { /* in a `for [i=a:*]` (util.c) */
        /* `for [i=1:*]`: the element without data ends the iteration, and is not drawn */
        if (!is_data) {
            pv_data_spec_fini(&ds);
            return pv_source_error(I->ctx, PV_ESCRIPT, c->tl->src, elem_off,
                                   "unbounded iteration in something other than a data plot");
        }
        bool any = false;
        if ((st = element_has_data(I, c, ps, &ds, &any)) == PV_OK && !any) {
            I->open_iter_done = true;
            /* gnuplot keeps the empty last curve of a 2D plot, untitled; a splot drops it */
            if (ps->is_splot) {
                pv_data_spec_fini(&ds);
                return skip_clauses(I, c, ps);
            }
            untitled = true;
        }
    }
    /* `set parametric`: the x and y parts of a triple are kept for the z part, which
     * carries the element (its clauses, title and number) */
    bool param = st == PV_OK && exec && I->set->parametric && !is_key;
    if (param && is_data && ps->param_part != 0)
        st = pv_source_error(I->ctx, PV_ESYNTAX, c->tl->src, elem_off,
                             "previous parametric function not fully specified");
    if (st == PV_OK && param && !is_data && ps->param_part < (ps->is_splot ? 2 : 1)) {
        ps->param_expr[ps->param_part++] = expr_start;
        pv_data_spec_fini(&ds);
        return skip_clauses(I, c, ps);
    }
    size_t title_start = param && !is_data ? ps->param_expr[0] : expr_start;
    if (param) ps->param_part = 0;
    if (ps->pass == 2) { /* functions only: everything else was done in the first pass */
        if (st == PV_OK && exec && !is_data && !is_key)
            st = sample_function(I, c, ps, param ? ps->param_expr : NULL, expr_start);
        pv_data_spec_fini(&ds);
        return st == PV_OK ? skip_clauses(I, c, ps) : st;
    }
    char *title = NULL;
    bool notitle = false;
    const char *style = NULL;
    ps->number++;
    pv_scene_elem *re = NULL;
    if (st == PV_OK && exec && (!I->table_on || (ps->is_splot && clauses_are_iso(c)))) {
        if (!PV_GROW(I->ctx, ps->re, ps->capre, ps->nre + 1)) {
            pv_data_spec_fini(&ds);
            return I->ctx->err_code;
        }
        re = &ps->re[ps->nre];
        pv_lp lp = pv_lp_default();
        pv_scene_elem_init(re, ps->number, &lp);
        re->src_off = elem_off;
        re->plot2d = !ps->is_splot;
        re->plot2d_z = (double)ps->nre + 0.5; /* plot order (render.c) */
        /* gnuplot's default title: the sample range and the source as written, or the
         * function as written */
        size_t t0 = is_data ? range_start : title_start, t1 = is_data ? spec_end : func_end;
        if (t1 > t0 && !is_key && (!is_data || spec_end > spec_start)) {
            const pv_token *a = &c->tl->tok[t0], *b = &c->tl->tok[t1 - 1];
            title = strndup(c->tl->src->text + a->start, b->end - a->start);
        }
    }
    if (st == PV_OK)
        st = parse_clauses(I, c, ps, &is_table, exec, &title, &notitle, &style,
                           re ? &re->st : NULL);
    if (st == PV_OK && re) {
        /* gnuplot's default linetype count: an explicit pm3d surface takes none, a plot
         * under `set hidden3d` (with an underside offset) two */
        re->line_num = ps->line_num + 1;
        if (re->st.style != PV_STYLE_PM3D)
            ps->line_num += 1 + (ps->is_splot && I->set->hidden3d && I->set->hidden3d_offset != 0);
    }
    if (untitled) notitle = true;
    if (notitle) { /* the default title made above is not handed on: free it here */
        free(title);
        title = NULL;
    }
    if (st == PV_OK && exec) {
        if (is_table && is_data) {
            st = pv_plot_write_table(I, c, ps, &ds);
            st = st == PV_OK ? pv_plot_add_curve(ps, false, NULL) : st;
        } else if (I->table_on && re && style && !strcmp(style, "isosurface")) {
            /* isosurfaces are written as a mesh after the command (plot_mesh.c) */
            re->title = NULL;
            st = collect_element(I, c, ps, is_data, &ds, style, re);
            if (st == PV_OK && re->kind == PV_SCENE_ISO) ps->nre++;
            else if (st == PV_OK) pv_scene_elem_fini(I->ctx, re);
            else pv_scene_elem_fini(I->ctx, re);
            re = NULL;
            if (st == PV_OK) st = pv_plot_add_curve(ps, false, NULL);
        } else if (I->table_on && is_data) {
            /* gnuplot's default title: the source and its modifiers as written */
            if (!title && !notitle && spec_end > spec_start) {
                const pv_token *a = &c->tl->tok[range_start], *b = &c->tl->tok[spec_end - 1];
                title = strndup(c->tl->src->text + a->start, b->end - a->start);
            }
            if ((st = pv_plot_add_curve(ps, true, notitle ? NULL : title)) == PV_OK) {
                tcurve *t = &ps->curves[ps->ncurves - 1];
                title = NULL;
                t->unsupported = ps->is_splot && style != NULL && !tabulated_3d_style(style);
                if (!t->unsupported) st = pv_plot_tabulate_curve(I, c, ps, &ds);
            }
        } else if (I->table_on && ps->is_splot && !is_data && !is_key) {
            /* a function's surface, tabulated once the second pass sampled it */
            if (!title && !notitle && func_end > title_start) {
                const pv_token *a = &c->tl->tok[title_start], *b = &c->tl->tok[func_end - 1];
                title = strndup(c->tl->src->text + a->start, b->end - a->start);
            }
            if ((st = pv_plot_add_curve(ps, true, notitle ? NULL : title)) == PV_OK) {
                title = NULL;
                tcurve *t = &ps->curves[ps->ncurves - 1];
                t->unsupported = style && !tabulated_3d_style(style);
                if (!PV_GROW(I->ctx, ps->funcs, ps->capfuncs, ps->nfuncs + 1))
                    st = I->ctx->err_code;
                else
                    ps->funcs[ps->nfuncs++] = (plot_func){SIZE_MAX, SIZE_MAX, ps->ncurves - 1};
            }
        } else {
            ps->needs_render = true;
            if (I->table_on) st = pv_plot_add_curve(ps, false, NULL);
            else if (re) {
                re->title = notitle ? NULL : title;
                title = NULL;
                if (is_key) { /* no rows: only the key sample (gnuplot's default: labels) */
                    re->kind = style ? data_kind(re->st.style) : PV_SCENE_SKIPPED;
                    if (re->kind == PV_SCENE_SKIPPED)
                        re->why = style_warning_name(style ? style : "labels");
                } else {
                    st = collect_element(I, c, ps, is_data, &ds, style, re);
                }
                if (st == PV_OK) ps->nre++;
                else pv_scene_elem_fini(I->ctx, re);
                size_t at = ps->nre - 1;
                bool drawn = st == PV_OK && re->kind != PV_SCENE_SKIPPED;
                if (st == PV_OK && re->kind == PV_SCENE_PM3D && re->st.style != PV_STYLE_PM3D)
                    st = add_implicit_surface(I, ps, style);
                re = NULL;
                if (st == PV_OK && !is_data && !is_key) { /* sampled in the second pass */
                    size_t comp = ps->nre - 1 > at && ps->re[ps->nre - 1].kind != PV_SCENE_SKIPPED
                                      ? ps->nre - 1 : SIZE_MAX;
                    if (!PV_GROW(I->ctx, ps->funcs, ps->capfuncs, ps->nfuncs + 1))
                        st = I->ctx->err_code;
                    else
                        ps->funcs[ps->nfuncs++] = (plot_func){drawn ? at : SIZE_MAX, comp, SIZE_MAX};
                }
            }
        }
    }
    if (re) pv_scene_elem_fini(I->ctx, re);
    free(title);
    pv_data_spec_fini(&ds);
    return st;
}

/* `replot {, more}`: run the last plot or splot again, with more elements appended. */
static pv_status replot(pv_interp *I, pv_cursor *c, bool exec)
{
    /* inline data: the replayed command reads the blocks after the replot line (gnuplot) */
    size_t rk = c->pos > 0 ? c->pos - 1 : 0; /* the `replot` word: it holds the blocks */
    size_t off = pv_cur_offset(c);
    size_t r0 = c->pos < c->end ? c->tl->tok[c->pos].start : 0;
    size_t r1 = c->end > c->pos ? c->tl->tok[c->end - 1].end : r0;
    pv_exec_skip_rest(c);
    if (!exec) return PV_OK;
    if (!I->last_splot)
        return pv_source_error(I->ctx, PV_ESCRIPT, c->tl->src, off, "no previous plot");
    size_t nd = 0;
    char *data = pv_exec_inline_text(c->tl, rk, rk + 1, &nd);
    size_t n = strlen(I->last_splot) + (r1 - r0) + nd + 16;
    char *text = data ? malloc(n) : NULL;
    if (!text) {
        free(data);
        return pv_err(I->ctx, PV_ENOMEM, "out of memory");
    }
    snprintf(text, n, "%s %s%s%.*s\n%s", I->last_plot_2d ? "plot" : "splot", I->last_splot,
             r1 > r0 ? ", " : "", (int)(r1 - r0), c->tl->src->text + r0, data);
    free(data);
    pv_source *src = pv_source_create(I->ctx, c->tl->src->name, text, strlen(text), 1);
    free(text);
    return src ? pv_exec_source(I, src) : PV_ENOMEM;
}

pv_status pv_cmd_plot(pv_interp *I, pv_cursor *c, bool exec)
{
    const double t_begin = MPI_Wtime();
    plot_state ps = {0};
    ps.I = I;
    ps.is_splot = pv_cur_is_word(c, "sp$lot");
    size_t plot_off = pv_cur_offset(c);
    bool is_replot = pv_cur_is_word(c, "rep$lot");
    pv_cur_next(c);
    if (is_replot) return replot(I, c, exec);
    size_t text0 = c->pos < c->end ? c->tl->tok[c->pos].start : 0;
    pv_status st = PV_OK;
    /* leading axis ranges; in a plot, a first range naming a dummy (`plot [t=0:1] '+'`)
     * is the first element's sample range, parsed by the data module; in a splot they are
     * axis ranges whose names rename the dummies for the command (`splot [x=-3:3]`) */
    const pv_token *t1 = pv_cur_peek_at(c, 1), *t2 = pv_cur_peek_at(c, 2);
    pv_range cmd_range[3];
    bool has_cmd_range[3] = {false, false, false};
    bool dummy_range = !ps.is_splot && pv_cur_is_op(c, "[") && t1->kind == PV_TK_NAME &&
                       t2->kind == PV_TK_OP && strcmp(t2->op, "=") == 0;
    char cmd_dummy[2][sizeof I->set->dummy[0]] = {"", ""};
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
        /* the x, y (and z) ranges of this command: the axes take them until it ends */
        int axis = ps.nranges - (I->set->parametric ? (ps.is_splot ? 2 : 1) : 0);
        if (st == PV_OK && exec && axis >= 0 && axis < (ps.is_splot ? 3 : 2)) {
            cmd_range[axis] = I->set->range[axis];
            has_cmd_range[axis] = true;
            st = override_range(I, &r, &cmd_range[axis]);
        }
        if (ps.is_splot && ps.nranges < 2 && r.var)
            snprintf(cmd_dummy[ps.nranges], sizeof cmd_dummy[0], "%s", r.var);
        ps.nranges++;
        range_fini(&r);
    }
    if (st == PV_OK && pv_cur_at_end(c) && !is_replot)
        return pv_cur_error(c, PV_ESYNTAX, "function to plot expected");
    if (st != PV_OK) return st;
    /* gnuplot: a parametric splot names the dummies u, v unless `set dummy` named them */
    if (exec && ps.is_splot && I->set->parametric && strcmp(I->set->dummy[0], "t") == 0) {
        strcpy(I->set->dummy[0], "u");
        strcpy(I->set->dummy[1], "v");
    }
    pv_range saved_range[3];
    for (int a = 0; a < 3; a++) {
        saved_range[a] = I->set->range[a];
        if (has_cmd_range[a]) I->set->range[a] = cmd_range[a];
    }
    char saved_dummy[2][sizeof I->set->dummy[0]];
    memcpy(saved_dummy, I->set->dummy, sizeof saved_dummy);
    for (int k = 0; k < 2; k++)
        if (cmd_dummy[k][0]) memcpy(I->set->dummy[k], cmd_dummy[k], sizeof cmd_dummy[k]);
    I->open_iter_ok++; /* `for [i=1:*]` may iterate over data elements */
    size_t elements_start = c->pos;
    ps.pass = 1;
    while (st == PV_OK && !pv_cur_at_end(c)) {
        if ((st = element(I, c, exec, &ps)) != PV_OK) break;
        if (!pv_cur_accept_op(c, ",")) break;
    }
    if (st == PV_OK && ps.param_part != 0)
        st = pv_cur_error(c, PV_ESYNTAX, "parametric function not fully specified");
    /* the functions, sampled over the x/y ranges the data left (gnuplot's second pass) */
    if (st == PV_OK && exec && ps.nfuncs > 0) {
        size_t end = c->pos;
        pv_plot_function_ranges(I, &ps, ps.func_u, ps.func_v);
        ps.pass = 2;
        c->pos = elements_start;
        while (st == PV_OK && !pv_cur_at_end(c)) {
            if ((st = element(I, c, exec, &ps)) != PV_OK) break;
            if (!pv_cur_accept_op(c, ",")) break;
        }
        if (st == PV_OK) c->pos = end;
    }
    I->open_iter_ok--;
    if (st == PV_OK) st = pv_exec_expect_end(c);
    /* each rank built the elements itself: one that failed alone (out of memory) must
     * stop the others before the table, the extraction and the compositing */
    if (exec) st = pv_status_agree(I->ctx, st);
    if (st == PV_OK && exec && I->table_on) st = pv_plot_write_curves(I, &ps);
    if (st == PV_OK && exec && I->table_on && ps.nre > 0)
        st = pv_plot_write_mesh(I, c, plot_off, ps.re, (int)ps.nre);
    if (st == PV_OK && exec && c->end > 0) {
        size_t text1 = c->tl->tok[c->end - 1].end;
        char *t = text1 > text0 ? strndup(c->tl->src->text + text0, text1 - text0) : NULL;
        if (t) {
            free(I->last_splot);
            I->last_splot = t;
            I->last_plot_2d = !ps.is_splot;
        }
    }
    if (st == PV_OK && exec && !I->table_on && ps.nre > 0) {
        bool any = false, drawable = false;
        for (size_t k = 0; k < ps.nre; k++) {
            any = any || ps.re[k].kind != PV_SCENE_SKIPPED || ps.re[k].why;
            drawable = drawable || ps.re[k].kind != PV_SCENE_SKIPPED;
        }
        if (!any)
            st = pv_source_error(I->ctx, PV_ESCRIPT, c->tl->src, plot_off,
                                 "no functions or data to plot");
        else {
            /* name every kind this version does not draw, once per script */
            for (size_t k = 0; k < ps.nre; k++)
                if (ps.re[k].kind == PV_SCENE_SKIPPED && ps.re[k].why)
                    pv_plot_warn_skip(I, c->tl->src, ps.re[k].src_off, ps.re[k].why,
                                      drawable ? "" : ": nothing else to draw, no picture "
                                                      "written");
            if (drawable && ps.is_splot) st = add_depthorder_objects(I, &ps);
            if (drawable && st == PV_OK)
                st = pv_render_splot(I, c, plot_off, ps.re, (int)ps.nre, t_begin, !ps.is_splot);
        }
    }
    else if (st == PV_OK && exec && ps.needs_render) I->plots_skipped++;
    for (int a = 0; a < 3; a++) I->set->range[a] = saved_range[a];
    memcpy(I->set->dummy, saved_dummy, sizeof saved_dummy);
    for (size_t k = 0; k < ps.nre; k++) pv_scene_elem_fini(I->ctx, &ps.re[k]);
    pv_free(I->ctx, ps.re, ps.capre * sizeof *ps.re);
    pv_free(I->ctx, ps.funcs, ps.capfuncs * sizeof *ps.funcs);
    pv_plot_free_curves(&ps);
    return st;
}

