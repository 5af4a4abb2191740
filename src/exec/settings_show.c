/*
 * pvox settings: `show NAME`, printed in gnuplot 5.4.4's words and layout where practical
 * (leading tab, blank lines around), so scripts that log their settings read the same.
 * Every handler consumes its statement even when there is nowhere to print (p->out NULL:
 * ranks other than 0, or check mode).
 */
#include "settings_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define OUT p->out

static pv_status done(pv_sp *p)
{
    sp_skip_rest(p);
    return PV_OK;
}

static void color_text(char *buf, size_t n, const pv_color *col)
{
    switch (col->kind) {
    case PV_COLOR_RGB: {
        const char *name = (col->argb >> 24) ? NULL : pv_color_name(col->argb);
        if (name) snprintf(buf, n, "rgb \"%s\" ", name);
        else if (col->argb >> 24) snprintf(buf, n, "rgb \"#%08x\" ", (unsigned)col->argb);
        else snprintf(buf, n, "rgb \"#%06x\" ", (unsigned)col->argb);
        break;
    }
    case PV_COLOR_LT: snprintf(buf, n, "lt %d", col->lt); break;
    case PV_COLOR_PALETTE_Z: snprintf(buf, n, "palette z"); break;
    case PV_COLOR_PALETTE_CB: snprintf(buf, n, "palette cb %g", col->value); break;
    case PV_COLOR_PALETTE_FRAC: snprintf(buf, n, "palette fraction %.2f", col->value); break;
    case PV_COLOR_VARIABLE: snprintf(buf, n, "variable"); break;
    case PV_COLOR_RGB_VARIABLE: snprintf(buf, n, "rgb variable"); break;
    case PV_COLOR_BGND: snprintf(buf, n, "bgnd"); break;
    case PV_COLOR_BLACK:
    case PV_COLOR_DEFAULT:
    default: snprintf(buf, n, "lt -1"); break;
    }
}

static void show_lp(FILE *out, const char *what, int tag, const pv_lp *lp)
{
    char col[64] = "";
    if (lp->lc.kind == PV_COLOR_DEFAULT && lp->lt > 0) {
        pv_color c = {PV_COLOR_LT, 0, lp->lt, 0};
        color_text(col, sizeof col, &c);
    } else if (lp->lc.kind != PV_COLOR_DEFAULT) {
        color_text(col, sizeof col, &lp->lc);
    }
    fprintf(out, "\t%s %d, ", what, tag);
    if (col[0]) fprintf(out, " linecolor %s", col);
    fprintf(out, " linewidth %.3f", lp->lw);
    if (lp->dt) fprintf(out, " dashtype %d", lp->dt);
    else fprintf(out, " dashtype solid");
    if (lp->pt >= 0) fprintf(out, " pointtype %d", lp->pt);
    if (lp->ps >= 0) fprintf(out, " pointsize %.3f", lp->ps);
    else fprintf(out, " pointsize default");
    fprintf(out, "\n");
}

/* ---- ranges ------------------------------------------------------------------------ */

static const char *const axis_names[PV_NAXES] = {"x", "y", "z", "cb", "u", "v", "t"};

static void print_range(FILE *out, const pv_settings *s, int ax)
{
    const pv_range *r = &s->range[ax];
    char lo[32], hi[32];
    if (r->auto_min) snprintf(lo, sizeof lo, "*");
    else snprintf(lo, sizeof lo, "%#g", r->min);
    if (r->auto_max) snprintf(hi, sizeof hi, "*");
    else snprintf(hi, sizeof hi, "%#g", r->max);
    fprintf(out, "\tset %srange [ %s : %s ] %sreverse %swriteback", axis_names[ax], lo, hi,
            r->reverse ? "" : "no", r->writeback ? "" : "no");
    if (r->auto_min || r->auto_max) fprintf(out, "  # (currently [%#g:%#g] )", r->min, r->max);
    fprintf(out, "\n");
}

static pv_status show_range(pv_sp *p, int ax)
{
    if (OUT) {
        fprintf(OUT, "\n");
        print_range(OUT, p->s, ax);
        fprintf(OUT, "\n");
    }
    return done(p);
}

pv_status sp_show_xrange(pv_sp *p) { return show_range(p, PV_AX_X); }
pv_status sp_show_yrange(pv_sp *p) { return show_range(p, PV_AX_Y); }
pv_status sp_show_zrange(pv_sp *p) { return show_range(p, PV_AX_Z); }
pv_status sp_show_cbrange(pv_sp *p) { return show_range(p, PV_AX_CB); }
pv_status sp_show_urange(pv_sp *p) { return show_range(p, PV_AX_U); }
pv_status sp_show_vrange(pv_sp *p) { return show_range(p, PV_AX_V); }
pv_status sp_show_trange(pv_sp *p) { return show_range(p, PV_AX_T); }

static void auto_text(char *buf, size_t n, const pv_range *r)
{
    if (!r->auto_min && !r->auto_max) snprintf(buf, n, "OFF");
    else snprintf(buf, n, "%s%s%s%s", r->auto_min && !r->auto_max ? "MIN" : "",
                  !r->auto_min && r->auto_max ? "MAX" : r->auto_min && r->auto_max ? "ON" : "",
                  r->fix_min ? " (fixmin)" : "", r->fix_max ? " (fixmax)" : "");
}

pv_status sp_show_autoscale(pv_sp *p)
{
    if (OUT) {
        char x[48], y[48], z[48], cb[48];
        auto_text(x, sizeof x, &p->s->range[PV_AX_X]);
        auto_text(y, sizeof y, &p->s->range[PV_AX_Y]);
        auto_text(z, sizeof z, &p->s->range[PV_AX_Z]);
        auto_text(cb, sizeof cb, &p->s->range[PV_AX_CB]);
        fprintf(OUT, "\n\tautoscaling is \tx: %s, \ty: %s, \n", x, y);
        fprintf(OUT, "\t               \tz: %s, \tcb: %s, \n\n", z, cb);
    }
    return done(p);
}

pv_status sp_show_logscale(pv_sp *p)
{
    if (OUT) {
        fprintf(OUT, "\n\tlogscaling on ");
        bool any = false;
        for (int ax = 0; ax < PV_NAXES; ax++) {
            const pv_range *r = &p->s->range[ax];
            if (!r->log) continue;
            any = true;
            if (r->log_base == 10.0) fprintf(OUT, " %s", axis_names[ax]);
            else fprintf(OUT, " %s (base %g)", axis_names[ax], r->log_base);
        }
        fprintf(OUT, "%s\n\n", any ? "" : "none");
    }
    return done(p);
}

/* ---- view, xyplane, border, key ------------------------------------------------------ */

pv_status sp_show_view(pv_sp *p)
{
    const pv_view *v = &p->s->view;
    if (OUT) {
        if (v->map) {
            fprintf(OUT, "\n\tview is map scale %g\n\n", v->scale);
        } else {
            fprintf(OUT, "\n\tview is %g rot_x, %g rot_z, %g scale, %g scale_z\n", v->rot_x,
                    v->rot_z, v->scale, v->zscale);
            fprintf(OUT, "\t\t%s\n", v->equal == 2 ? "x/y/z axes are on the same scale"
                                     : v->equal == 1 ? "x/y axes are on the same scale"
                                                     : " axes are independently scaled");
            fprintf(OUT, "\t\t azimuth %g\n\n", v->azimuth);
        }
    }
    return done(p);
}

pv_status sp_show_xyplane(pv_sp *p)
{
    if (OUT) {
        if (p->s->xyplane_absolute)
            fprintf(OUT, "\n\txyplane intercepts z axis at %g\n\n", p->s->xyplane_z);
        else
            fprintf(OUT, "\n\txyplane %g\n\n", p->s->xyplane_rel);
    }
    return done(p);
}

pv_status sp_show_border(pv_sp *p)
{
    const pv_settings *s = p->s;
    if (OUT) {
        if (!s->border) {
            fprintf(OUT, "\n\tborder is not drawn\n\n");
        } else {
            static const char *const layer[] = {"front", "back", "behind"};
            char col[64];
            color_text(col, sizeof col, &s->border_lp.lc);
            fprintf(OUT, "\n\tborder %d (0x%X) is drawn in %s layer with\n\t  %s linewidth %.3f "
                         "dashtype solid\n\n",
                    s->border, (unsigned)s->border, layer[s->border_layer],
                    s->border_lp.lc.kind == PV_COLOR_BLACK ? "lt black" : col, s->border_lp.lw);
        }
    }
    return done(p);
}

pv_status sp_show_key(pv_sp *p)
{
    const pv_key *k = &p->s->key;
    if (OUT) {
        if (!k->on) {
            fprintf(OUT, "\n\tkey is OFF\n\n");
        } else {
            static const char *const pos[] = {"left", "right", "center", "top", "bottom"};
            fprintf(OUT, "\n\tkey is ON, position: %s%s %s %s\n",
                    k->inside ? "" : "outside ", pos[k->vpos], pos[k->hpos],
                    k->vertical ? "vertical" : "horizontal");
            fprintf(OUT, "\tkey is %s justified, %sreversed, %sinverted, enhanced and %s\n",
                    k->left_justify ? "left" : "right", k->reverse ? "" : "not ",
                    k->invert ? "" : "not ", k->box ? "boxed" : "not boxed");
            fprintf(OUT, "\tsample length is %g characters\n", k->samplen);
            fprintf(OUT, "\tvertical spacing is %g characters\n", k->spacing);
            fprintf(OUT, "\tkey title is \"%s\"\n\n", k->title ? k->title : "");
        }
    }
    return done(p);
}

/* ---- text ------------------------------------------------------------------------------ */

static pv_status show_text(pv_sp *p, const char *name, const pv_text *t)
{
    if (OUT) {
        char col[64];
        color_text(col, sizeof col, &t->tc);
        fprintf(OUT, "\n\t%s is \"%s\", offset at (character %g, %g, %g)", name,
                t->text ? t->text : "", t->offset[0], t->offset[1], t->offset[2]);
        if (t->font) fprintf(OUT, ", using font \"%s\"", t->font);
        fprintf(OUT, " textcolor %s\n\n", t->tc.kind == PV_COLOR_DEFAULT ? "lt -1" : col);
    }
    return done(p);
}

pv_status sp_show_title(pv_sp *p) { return show_text(p, "title", &p->s->title); }
pv_status sp_show_xlabel(pv_sp *p) { return show_text(p, "xlabel", &p->s->label[PV_AX_X]); }
pv_status sp_show_ylabel(pv_sp *p) { return show_text(p, "ylabel", &p->s->label[PV_AX_Y]); }
pv_status sp_show_zlabel(pv_sp *p) { return show_text(p, "zlabel", &p->s->label[PV_AX_Z]); }
pv_status sp_show_cblabel(pv_sp *p) { return show_text(p, "cblabel", &p->s->label[PV_AX_CB]); }

static pv_status show_tics_mask(pv_sp *p, unsigned mask)
{
    const pv_settings *s = p->s;
    if (OUT) {
        fprintf(OUT, "\n\ttics are in %s of plot\n", s->tics_front ? "front" : "back");
        for (int ax = PV_AX_X; ax <= PV_AX_CB; ax++) {
            if (!(mask & (1u << ax))) continue;
            const pv_tics *t = &s->tics[ax];
            fprintf(OUT, "\t%s-axis tics are %s, \tmajor ticscale is %g and minor ticscale is %g\n",
                    axis_names[ax], t->outward ? "OUT" : "IN", t->scale_major, t->scale_minor);
            if (!t->on) {
                fprintf(OUT, "\t%s-axis tics:\tOFF\n", axis_names[ax]);
                continue;
            }
            fprintf(OUT, "\t%s-axis tics:\ton border%s\n", axis_names[ax],
                    t->mirror ? " and mirrored on opposite border" : "");
            fprintf(OUT, "\t  labels are justified automatically, format \"%s\" and are %s,\n",
                    t->format ? t->format : "% h", t->rotate != 0 ? "rotated" : "not rotated");
            if (!t->has_incr) fprintf(OUT, "\t  intervals computed automatically\n");
            else if (isnan(t->start)) fprintf(OUT, "\t  series from auto by %g until auto\n", t->incr);
            else if (isnan(t->end)) fprintf(OUT, "\t  series from %g by %g until auto\n", t->start, t->incr);
            else fprintf(OUT, "\t  series from %g by %g until %g\n", t->start, t->incr, t->end);
        }
        fprintf(OUT, "\n");
    }
    return done(p);
}

pv_status sp_show_tics(pv_sp *p) { return show_tics_mask(p, 0xFu); }
pv_status sp_show_xtics(pv_sp *p) { return show_tics_mask(p, 1u << PV_AX_X); }
pv_status sp_show_ytics(pv_sp *p) { return show_tics_mask(p, 1u << PV_AX_Y); }
pv_status sp_show_ztics(pv_sp *p) { return show_tics_mask(p, 1u << PV_AX_Z); }
pv_status sp_show_cbtics(pv_sp *p) { return show_tics_mask(p, 1u << PV_AX_CB); }

/* ---- palette, colorbox ---------------------------------------------------------------- */

static void show_gradient(FILE *out, const pv_palette *pal)
{
    for (int k = 0; k < pal->ngrad; k++) {
        const pv_grad_point *g = &pal->grad[k];
        int r = (int)(255 * g->r + 0.5), gg = (int)(255 * g->g + 0.5), b = (int)(255 * g->b + 0.5);
        fprintf(out, "  %d. gray=%.4f, (r,g,b)=(%.4f,%.4f,%.4f), #%02x%02x%02x = %3d %3d %3d\n", k,
                g->pos, g->r, g->g, g->b, (unsigned)r, (unsigned)gg, (unsigned)b, r, gg, b);
    }
}

pv_status sp_show_palette(pv_sp *p)
{
    const pv_palette *pal = &p->s->palette;
    bool gradient = sp_word(p, "grad$ient");
    if (!OUT) return done(p);
    if (gradient) {
        if (pal->kind == PV_PAL_DEFINED) show_gradient(OUT, pal);
        else fprintf(OUT, "\tcolor mapping *not* done by defined gradient.\n");
        return done(p);
    }
    static const char *const model[] = {"RGB", "HSV", "CMY", "XYZ"};
    fprintf(OUT, "\n\tpalette is %s\n", pal->gray ? "GRAY" : "COLOR");
    if (!pal->gray) {
        switch (pal->kind) {
        case PV_PAL_DEFINED: fprintf(OUT, "\tcolor mapping by defined gradient\n"); break;
        case PV_PAL_CUBEHELIX:
            fprintf(OUT, "\tCubehelix color palette: start %g cycles %g saturation %g\n",
                    pal->ch_start, pal->ch_cycles, pal->ch_saturation);
            break;
        case PV_PAL_FUNCTIONS:
        case PV_PAL_RGBFORMULAE:
        default:
            fprintf(OUT, "\trgb color mapping by rgbformulae are %d,%d,%d\n", pal->formulae[0],
                    pal->formulae[1], pal->formulae[2]);
            break;
        }
    }
    fprintf(OUT, "\tfigure is %s\n", pal->negative ? "NEGATIVE" : "POSITIVE");
    if (pal->maxcolors > 0) fprintf(OUT, "\tallocating %d colors\n", pal->maxcolors);
    else fprintf(OUT, "\tallocating ALL remaining color positions for discrete palette terminals\n");
    fprintf(OUT, "\tColor-Model: %s\n", model[pal->model & 3]);
    fprintf(OUT, "\tgamma is %g\n\n", pal->gamma);
    return done(p);
}

pv_status sp_show_colorbox(pv_sp *p)
{
    const pv_colorbox *cb = &p->s->colorbox;
    if (OUT) {
        if (!cb->on) {
            fprintf(OUT, "\tcolor box %s, DEFAULT line type is NOT drawn\n",
                    cb->border ? "with border" : "without border");
            fprintf(OUT, "\tcolor gradient is %s \n\n", cb->vertical ? "vertical" : "horizontal");
        } else {
            fprintf(OUT, "\tcolor box %s, DEFAULT line type is drawn %s\n",
                    cb->border ? "with border" : "without border", cb->front ? "front" : "back");
            if (cb->user)
                fprintf(OUT, "\tat USER origin: %g, %g\n\t          size: %g, %g\n", cb->origin[0],
                        cb->origin[1], cb->size[0], cb->size[1]);
            else
                fprintf(OUT, "\tat DEFAULT position\n");
            fprintf(OUT, "\tcolor gradient is %s \n\n", cb->vertical ? "vertical" : "horizontal");
        }
    }
    return done(p);
}

/* ---- styles ------------------------------------------------------------------------- */

static const char *style_name(pv_plot_style st)
{
    static const char *const names[] = {"lines", "points", "linespoints", "dots", "impulses",
                                        "pm3d", "surface", "isosurface", "(not drawn by pvox)"};
    return (unsigned)st < sizeof names / sizeof names[0] ? names[st] : "?";
}

static void show_fill(FILE *out, const pv_fill *f)
{
    char col[64] = "";
    if (f->border_color.kind != PV_COLOR_DEFAULT) color_text(col, sizeof col, &f->border_color);
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
                if (s->linestyle[k].defined) show_lp(OUT, "linestyle", k, &s->linestyle[k]);
            fprintf(OUT, "\n");
        }
        return done(p);
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
    return done(p);
}

pv_status sp_show_linetype(pv_sp *p)
{
    const pv_settings *s = p->s;
    if (OUT) {
        fprintf(OUT, "\n");
        for (int k = 1; k <= 8; k++) {
            if (k < s->nlinetype && s->linetype[k].defined) {
                show_lp(OUT, "linetype", k, &s->linetype[k]);
                continue;
            }
            uint32_t rgb = pv_settings_lt_rgb(s, k);
            const char *name = pv_color_name(rgb);
            if (name) fprintf(OUT, "\tlinetype %d,  linecolor rgb \"%s\" ", k, name);
            else fprintf(OUT, "\tlinetype %d,  linecolor rgb \"#%06x\" ", k, (unsigned)rgb);
            fprintf(OUT, " linewidth 1.000 dashtype solid pointtype %d pointsize default\n", k);
        }
        for (int k = 9; k < s->nlinetype; k++)
            if (s->linetype[k].defined) show_lp(OUT, "linetype", k, &s->linetype[k]);
        fprintf(OUT, "\tLinetypes repeat every 8 unless explicitly defined\n\n");
    }
    return done(p);
}

pv_status sp_show_pm3d(pv_sp *p)
{
    const pv_pm3d *m = &p->s->pm3d;
    if (OUT) {
        static const char *const c2c[] = {"averaged 4 corners", "geometrical mean of 4 corners",
                                          "harmonic mean of 4 corners", "rms of 4 corners",
                                          "median of 4 corners", "minimum of 4 corners",
                                          "maximum of 4 corners", "corner 1", "corner 2",
                                          "corner 3", "corner 4"};
        fprintf(OUT, "\n\tpm3d style is %s\n", m->implicit
                ? "implicit (pm3d draw for all surfaces)"
                : "explicit (draw pm3d surface according to style)");
        fprintf(OUT, "\tpm3d plotted at %s\n", strcmp(m->at, "s") == 0 ? "SURFACE"
                                               : strcmp(m->at, "b") == 0 ? "BOTTOM"
                                               : strcmp(m->at, "t") == 0 ? "TOP" : m->at);
        fprintf(OUT, "\t%s\n", m->depthorder ? "true depth ordering"
                                             : "taking scans direction automatically");
        fprintf(OUT, "\tclipping: %s\n", m->clip_z ? "smooth clip to zrange" : "all 4 points in");
        if (m->border_on) fprintf(OUT, "\tpm3d quadrangles will have a border\n");
        else fprintf(OUT, "\tpm3d quadrangles will have no border\n");
        fprintf(OUT, "\tsteps for bilinear interpolation: %d,%d\n", m->interp[0], m->interp[1]);
        fprintf(OUT, "\tquadrangle color according to %s\n", c2c[m->corners2color]);
        if (m->lighting)
            fprintf(OUT, "\tlighting primary %g specular %g spec2 %g\n", m->primary, m->specular,
                    m->spec2);
        fprintf(OUT, "\n");
    }
    return done(p);
}

/* ---- simple values -------------------------------------------------------------------- */

pv_status sp_show_samples(pv_sp *p)
{
    if (OUT) fprintf(OUT, "\n\tsampling rate is %d, %d\n\n", p->s->samples[0], p->s->samples[1]);
    return done(p);
}

pv_status sp_show_isosamples(pv_sp *p)
{
    if (OUT)
        fprintf(OUT, "\n\tiso sampling rate is %d, %d\n\n", p->s->isosamples[0],
                p->s->isosamples[1]);
    return done(p);
}

pv_status sp_show_isosurface(pv_sp *p)
{
    if (OUT) {
        fprintf(OUT, "\n\tisosurfaces will use %s\n", p->s->iso_triangles
                ? "triangles only" : "a mixture of triangles and quadrangles");
        fprintf(OUT, "\tinside surface linetype offset by %d\n\n", p->s->iso_inside_offset);
    }
    return done(p);
}

pv_status sp_show_jitter(pv_sp *p)
{
    const pv_jitter *j = &p->s->jitter;
    if (OUT) {
        if (!j->on) {
            fprintf(OUT, "\tno jitter\n");
        } else {
            static const char *const style[] = {"swarm", "square", "vertical"};
            fprintf(OUT, "\toverlap criterion  %g character  coords\n", j->overlap);
            fprintf(OUT, "\tspread multiplier on x (or y): %g\n", j->spread);
            if (j->wrap > 0) fprintf(OUT, "\twrap at %g character widths\n", j->wrap);
            fprintf(OUT, "\tstyle: %s\n", style[j->style % 3]);
        }
    }
    return done(p);
}

pv_status sp_show_hidden3d(pv_sp *p)
{
    if (OUT) fprintf(OUT, "\n\thidden surface is %s\n\n", p->s->hidden3d ? "removed" : "drawn");
    return done(p);
}

pv_status sp_show_pointsize(pv_sp *p)
{
    if (OUT) fprintf(OUT, "\n\tpointsize is %g\n\n", p->s->pointsize);
    return done(p);
}

pv_status sp_show_pointintervalbox(pv_sp *p)
{
    if (OUT) fprintf(OUT, "\n\tpointintervalbox is %g\n\n", p->s->pointintervalbox);
    return done(p);
}

pv_status sp_show_datafile(pv_sp *p)
{
    const pv_datafile *d = &p->s->datafile;
    if (OUT) {
        fprintf(OUT, "\n");
        if (d->missing) fprintf(OUT, "\tMissing data string set to \"%s\"\n", d->missing);
        else fprintf(OUT, "\tNo missing data string set for datafile\n");
        if (!d->separator) fprintf(OUT, "\tdatafile fields separated by whitespace\n");
        else if (d->separator == '\t') fprintf(OUT, "\tdatafile fields separated by tab\n");
        else fprintf(OUT, "\tdatafile fields separated by \"%c\"\n", d->separator);
        fprintf(OUT, "\tComments chars are \"%s\"\n\n", d->commentschars ? d->commentschars : "");
    }
    return done(p);
}

pv_status sp_show_dummy(pv_sp *p)
{
    if (OUT) fprintf(OUT, "\n\tdummy variables are %s %s \n\n", p->s->dummy[0], p->s->dummy[1]);
    return done(p);
}

pv_status sp_show_angles(pv_sp *p)
{
    if (OUT)
        fprintf(OUT, "\n\tAngles are in %s\n\n", p->s->angles_degrees ? "degrees" : "radians");
    return done(p);
}

pv_status sp_show_macros(pv_sp *p)
{
    if (OUT) fprintf(OUT, "\n\tcommand line macros will be expanded\n\n");
    return done(p);
}

pv_status sp_show_parametric(pv_sp *p)
{
    if (OUT) fprintf(OUT, "\n\tparametric is %s\n\n", p->s->parametric ? "ON" : "OFF");
    return done(p);
}

pv_status sp_show_polar(pv_sp *p)
{
    if (OUT) fprintf(OUT, "\n\tpolar is %s\n\n", p->s->polar ? "ON" : "OFF");
    return done(p);
}

pv_status sp_show_surface(pv_sp *p)
{
    if (OUT) fprintf(OUT, "\n\tsurface is %sdrawn\n\n", p->s->surface ? "" : "not ");
    return done(p);
}

pv_status sp_show_terminal(pv_sp *p)
{
    const pv_term *t = &p->s->term;
    if (OUT) {
        fprintf(OUT, "\n   terminal type is %s ", t->kind == PV_TERM_PNG ? "png" : "pngcairo");
        if (t->transparent) fprintf(OUT, " transparent");
        else fprintf(OUT, " background \"#%06x\"", (unsigned)t->background);
        fprintf(OUT, " %senhanced", t->enhanced ? "" : "no");
        if (t->font) fprintf(OUT, " font \"%s\"", t->font);
        fprintf(OUT, " fontscale %.1f size %d, %d \n\n", t->fontscale, t->width, t->height);
    }
    return done(p);
}

pv_status sp_show_output(pv_sp *p)
{
    if (OUT) {
        if (p->s->output) fprintf(OUT, "\n\toutput is sent to '%s'\n\n", p->s->output);
        else fprintf(OUT, "\n\toutput is not set: plots go to numbered files\n\n");
    }
    return done(p);
}

pv_status sp_show_colornames(pv_sp *p)
{
    if (OUT) {
        fprintf(OUT, "\tThere are %d predefined color names:\n", pv_color_count());
        for (int k = 0; k < pv_color_count(); k++) {
            uint32_t rgb = 0;
            const char *name = pv_color_at(k, &rgb);
            fprintf(OUT, "  %-18s #%06x = %3u %3u %3u\n", name, (unsigned)rgb,
                    (unsigned)((rgb >> 16) & 255u), (unsigned)((rgb >> 8) & 255u),
                    (unsigned)(rgb & 255u));
        }
    }
    return done(p);
}

pv_status sp_show_all(pv_sp *p)
{
    pv_set_fn all[] = {sp_show_terminal, sp_show_output, sp_show_xrange, sp_show_yrange,
                       sp_show_zrange, sp_show_cbrange, sp_show_urange, sp_show_vrange,
                       sp_show_autoscale, sp_show_view, sp_show_xyplane, sp_show_border,
                       sp_show_key, sp_show_title, sp_show_tics, sp_show_palette,
                       sp_show_colorbox, sp_show_style, sp_show_pm3d, sp_show_samples,
                       sp_show_isosamples, sp_show_isosurface, sp_show_jitter,
                       sp_show_hidden3d, sp_show_pointsize, sp_show_pointintervalbox,
                       sp_show_datafile, sp_show_dummy, sp_show_angles, sp_show_logscale};
    pv_status st = sp_expect_end(p);
    if (st != PV_OK) return st;
    for (size_t k = 0; k < sizeof all / sizeof all[0]; k++) all[k](p);
    return PV_OK;
}
