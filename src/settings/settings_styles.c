/*
 * pvox settings: `set/unset/show style` (fill, data, function, line) and `set/unset/show
 * linetype`.
 */
#include "settings_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static pv_status parse_style_name(pv_sp *p, pv_plot_style *out)
{
    static const struct { const char *pat; pv_plot_style st; } names[] = {
        {"l$ines", PV_STYLE_LINES},       {"p$oints", PV_STYLE_POINTS},
        {"linesp$oints", PV_STYLE_LINESPOINTS}, {"lp", PV_STYLE_LINESPOINTS},
        {"d$ots", PV_STYLE_DOTS},         {"i$mpulses", PV_STYLE_IMPULSES},
        {"pm$3d", PV_STYLE_PM3D},         {"su$rface", PV_STYLE_SURFACE},
        {"isosurface", PV_STYLE_ISOSURFACE}, {"vec$tors", PV_STYLE_VECTORS},
        {"labels", PV_STYLE_LABELS},      {"ima$ge", PV_STYLE_IMAGE},
        {"rgbima$ge", PV_STYLE_RGBIMAGE}, {"rgba$lpha", PV_STYLE_RGBALPHA},
        {"polygon$s", PV_STYLE_POLYGONS}, {"boxes", PV_STYLE_BOXES},
        {"xye$rrorbars", PV_STYLE_XYERRORBARS}, {"xe$rrorbars", PV_STYLE_XERRORBARS},
        {"ye$rrorbars", PV_STYLE_YERRORBARS}, {"e$rrorbars", PV_STYLE_YERRORBARS},
        {"xyerrorl$ines", PV_STYLE_XYERRORLINES}, {"xerrorl$ines", PV_STYLE_XERRORLINES},
        {"yerrorl$ines", PV_STYLE_YERRORLINES}, {"errorl$ines", PV_STYLE_YERRORLINES},
    };
    static const char *const other[] = {
        "boxerrorbars", "boxxyerror", "boxplot", "candlesticks", "circles", "ellipses",
        "filledcurves", "fillsteps", "financebars", "fsteps", "histeps", "histograms",
        "parallelaxes", "spiderplot", "steps", "zerrorfill", "table"};
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
        if (sp_isword(p, names[k].pat)) {
            /* "lines" vs "linespoints": the longer full word wins */
            if (names[k].st == PV_STYLE_LINES && sp_isword(p, "linesp$oints")) continue;
            pv_cur_next(p->c);
            *out = names[k].st;
            return PV_OK;
        }
    }
    if (pv_cur_peek(p->c)->kind == PV_TK_NAME) {
        const char *w = pv_cur_peek(p->c)->sval;
        for (size_t k = 0; k < sizeof other / sizeof other[0]; k++)
            if (strlen(w) >= 3 && strncmp(w, other[k], strlen(w)) == 0) {
                pv_cur_next(p->c);
                *out = PV_STYLE_OTHER;
                return PV_OK;
            }
    }
    return sp_err(p, PV_ESYNTAX, "unrecognized plot type");
}

/* Does a fill's numeric argument follow (a number, or an expression that is not one of
 * the words a fill style or an object goes on with: `pattern o` takes variable o)? */
static bool fill_number_follows(pv_sp *p)
{
    static const char *const words[] = {
        "bo$rder", "nobo$rder", "fc", "fillc$olor", "fillcolour", "lc", "linec$olor", "lt",
        "linet$ype", "lw", "linew$idth", "dt", "dasht$ype", "front", "back", "behind",
        "depth$order", "clip", "noclip", "def$ault", "e$mpty", "s$olid", "p$attern",
        "tr$ansparent", "from", "to", "rto", "at", "cen$ter", "si$ze", "arc", "ang$le",
        "units", "wedge", "nowedge", "title", "t", "w$ith", "notitle", "noti$tle"};
    if (!sp_can_expr(p)) return false;
    if (pv_cur_peek(p->c)->kind != PV_TK_NAME) return true;
    for (size_t k = 0; k < sizeof words / sizeof words[0]; k++)
        if (sp_isword(p, words[k])) return false;
    return true;
}

pv_status sp_fill_words(pv_sp *p, pv_fill *out)
{
    pv_fill f = *out;
    bool transparent = false, density_given = false, kind_given = false;
    pv_status st = PV_OK;
    for (bool more = true; st == PV_OK && more && !sp_end(p);) {
        if (sp_word(p, "e$mpty")) {
            f.kind = PV_FILL_EMPTY;
            kind_given = true;
        } else if (sp_word(p, "tr$ansparent")) {
            transparent = true;
        } else if (sp_word(p, "s$olid")) {
            f.kind = PV_FILL_SOLID;
            kind_given = true;
            f.density = 1.0;
            if (fill_number_follows(p)) {
                density_given = true;
                st = sp_real(p, &f.density);
            }
        } else if (sp_word(p, "p$attern")) {
            f.kind = PV_FILL_PATTERN;
            kind_given = true;
            if (fill_number_follows(p)) st = sp_int(p, &f.pattern);
        } else if (sp_word(p, "nobo$rder")) {
            f.border = false;
        } else if (sp_word(p, "bo$rder")) {
            f.border = true;
            f.border_color.kind = PV_COLOR_DEFAULT;
            if (sp_word(p, "lt") || sp_word(p, "linet$ype")) {
                f.border_color.kind = PV_COLOR_LT;
                st = sp_int(p, &f.border_color.lt);
                if (st == PV_OK && f.border_color.lt < 0) f.border_color.kind = PV_COLOR_BLACK;
            } else if (sp_word(p, "lc") || sp_word(p, "linec$olor")) {
                st = sp_color(p, &f.border_color);
            } else if (sp_can_expr(p) && pv_cur_peek(p->c)->kind != PV_TK_NAME) {
                f.border_color.kind = PV_COLOR_LT;
                st = sp_int(p, &f.border_color.lt);
                if (st == PV_OK && f.border_color.lt < 0) f.border_color.kind = PV_COLOR_BLACK;
            }
        } else {
            more = false;
        }
    }
    if (st != PV_OK || !p->exec) return st;
    /* gnuplot 5.4.4: `transparent` alone or without a density means solid 0.5; a new
     * `solid`/`pattern` without `transparent` is opaque */
    if (transparent) {
        if (!kind_given || f.kind == PV_FILL_EMPTY) f.kind = PV_FILL_SOLID;
        if (f.kind == PV_FILL_SOLID && !density_given) f.density = 0.5;
        f.transparent = true;
    } else if (kind_given) {
        f.transparent = false;
    }
    f.density = f.density < 0 ? 0 : f.density > 1 ? 1 : f.density;
    *out = f;
    return PV_OK;
}

static pv_status set_style_fill(pv_sp *p)
{
    pv_fill f = p->s->fill;
    pv_status st = sp_fill_words(p, &f);
    if (st == PV_OK) st = sp_expect_end(p);
    if (st == PV_OK && p->exec) p->s->fill = f;
    return st;
}

pv_status sp_set_style(pv_sp *p)
{
    pv_status st;
    if (sp_word(p, "d$ata")) {
        pv_plot_style ps = PV_STYLE_POINTS;
        if ((st = parse_style_name(p, &ps)) != PV_OK) return st;
        if (p->exec) p->s->style_data = ps;
        return sp_expect_end(p);
    }
    if (sp_word(p, "f$unction")) {
        pv_plot_style ps = PV_STYLE_LINES;
        if ((st = parse_style_name(p, &ps)) != PV_OK) return st;
        if (p->exec) p->s->style_function = ps;
        return sp_expect_end(p);
    }
    if (sp_word(p, "fi$ll")) return set_style_fill(p);
    if (sp_word(p, "l$ine")) return sp_set_lp_tag(p, false);
    static const char *const others[] = {"arrow", "boxplot", "circle", "ellipse", "histogram",
                                         "increment", "rectangle", "textbox", "parallelaxis",
                                         "spiderplot", "watchpoint"};
    const pv_token *t = pv_cur_peek(p->c);
    if (t->kind == PV_TK_NAME) {
        for (size_t k = 0; k < sizeof others / sizeof others[0]; k++) {
            if (strlen(t->sval) >= 2 && strncmp(t->sval, others[k], strlen(t->sval)) == 0) {
                char msg[96];
                snprintf(msg, sizeof msg, "set style %s is ignored: pvox does not draw it",
                         others[k]);
                sp_warn_once(p, WARN_STYLE_OTHER + (int)k, msg);
                sp_skip_rest(p);
                return PV_OK;
            }
        }
    }
    return sp_err(p, PV_ESYNTAX, "unrecognized option - see 'help set style'");
}

pv_status sp_unset_style(pv_sp *p)
{
    pv_settings *s = p->s;
    if (sp_word(p, "l$ine")) return sp_unset_lp_tag(p, false);
    if (sp_word(p, "fi$ll")) {
        if (p->exec) {
            memset(&s->fill, 0, sizeof s->fill);
            s->fill.density = 1.0;
            s->fill.border = true;
        }
        return sp_expect_end(p);
    }
    if (sp_word(p, "d$ata")) {
        if (p->exec) s->style_data = PV_STYLE_POINTS;
        return sp_expect_end(p);
    }
    if (sp_word(p, "f$unction")) {
        if (p->exec) s->style_function = PV_STYLE_LINES;
        return sp_expect_end(p);
    }
    sp_skip_rest(p);
    return PV_OK;
}

pv_status sp_set_linetype(pv_sp *p) { return sp_set_lp_tag(p, true); }
pv_status sp_unset_linetype(pv_sp *p) { return sp_unset_lp_tag(p, true); }

/* ---- show ------------------------------------------------------------------------ */

static const char *style_name(pv_plot_style st)
{
    static const char *const names[] = {"lines", "points", "linespoints", "dots", "impulses",
                                        "pm3d", "surface", "isosurface", "vectors", "labels",
                                        "image", "rgbimage", "rgbalpha", "polygons", "boxes",
                                        "xerrorbars", "yerrorbars", "xyerrorbars",
                                        "xerrorlines", "yerrorlines", "xyerrorlines",
                                        "(not drawn by pvox)"};
    return (unsigned)st < sizeof names / sizeof names[0] ? names[st] : "?";
}

static void show_fill(FILE *out, const pv_fill *f)
{
    char col[64] = "";
    if (f->border_color.kind != PV_COLOR_DEFAULT) sp_color_text(col, sizeof col, &f->border_color);
    const char *tr = f->transparent ? "transparent " : " ";
    switch (f->kind) {
    case PV_FILL_SOLID:
        fprintf(out, "\tFill style uses %ssolid colour with density %.3f", tr, f->density);
        break;
    case PV_FILL_PATTERN:
        fprintf(out, "\tFill style uses %spatterns starting at %d", tr, f->pattern);
        break;
    case PV_FILL_EMPTY:
    default: fprintf(out, "\tFill style is empty"); break;
    }
    if (f->border) fprintf(out, " with border %s\n", col);
    else fprintf(out, " with no border\n");
}

pv_status sp_show_style(pv_sp *p)
{
    const pv_settings *s = p->s;
    if (sp_word(p, "l$ine")) {
        if (OUT) {
            fprintf(OUT, "\n");
            for (int k = 1; k < s->nlinestyle; k++)
                if (s->linestyle[k].defined) sp_print_lp(OUT, "linestyle", k, &s->linestyle[k]);
            fprintf(OUT, "\n");
        }
        return sp_done(p);
    }
    bool all = sp_end(p);
    bool data = all || sp_word(p, "d$ata");
    bool func = all || sp_word(p, "f$unction");
    bool fill = all || sp_word(p, "fi$ll");
    if (OUT) {
        fprintf(OUT, "\n");
        if (data) fprintf(OUT, "\tData are plotted with %s\n", style_name(s->style_data));
        if (func) fprintf(OUT, "\tFunctions are plotted with %s\n", style_name(s->style_function));
        if (fill) show_fill(OUT, &s->fill);
        fprintf(OUT, "\n");
    }
    return sp_done(p);
}

pv_status sp_show_linetype(pv_sp *p)
{
    const pv_settings *s = p->s;
    if (OUT) {
        fprintf(OUT, "\n");
        for (int k = 1; k <= 8; k++) {
            if (k < s->nlinetype && s->linetype[k].defined) {
                sp_print_lp(OUT, "linetype", k, &s->linetype[k]);
                continue;
            }
            uint32_t rgb = pv_settings_lt_rgb(s, k);
            const char *name = pv_color_name(rgb);
            if (name) fprintf(OUT, "\tlinetype %d,  linecolor rgb \"%s\" ", k, name);
            else fprintf(OUT, "\tlinetype %d,  linecolor rgb \"#%06x\" ", k, (unsigned)rgb);
            fprintf(OUT, " linewidth 1.000 dashtype solid pointtype %d pointsize default\n", k);
        }
        for (int k = 9; k < s->nlinetype; k++)
            if (s->linetype[k].defined) sp_print_lp(OUT, "linetype", k, &s->linetype[k]);
        fprintf(OUT, "\tLinetypes repeat every 8 unless explicitly defined\n\n");
    }
    return sp_done(p);
}
