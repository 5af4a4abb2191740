/*
 * pvox settings: gnuplot 5.4.4's fresh-start values (DEC-10 for the terminal) and the
 * finalisers of the owned strings and arrays.
 */
#include "settings_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* =====================================================================================
 * Defaults
 * ===================================================================================== */

pv_lp pv_lp_default(void)
{
    pv_lp lp;
    memset(&lp, 0, sizeof lp);
    lp.lw = 1.0;
    lp.pt = -2;
    lp.ps = -1.0;
    return lp;
}

void pv_text_fini(pv_text *t)
{
    free(t->text);
    free(t->font);
    t->text = NULL;
    t->font = NULL;
}

void pv_key_default(pv_key *k)
{
    memset(k, 0, sizeof *k);
    k->on = true;
    k->inside = true;
    k->fixed = true; /* gnuplot 5.4's fresh key shows as `fixed` */
    k->hpos = PV_KEYPOS_RIGHT;
    k->vpos = PV_KEYPOS_TOP;
    k->vertical = true;
    k->samplen = 4.0;
    k->spacing = 1.0;
    k->enhanced = true;
    k->autotitle = true;
    k->box_lp = pv_lp_default();
}

void pv_text_default(pv_text *t)
{
    memset(t, 0, sizeof *t);
    t->enhanced = true;
    t->tc.kind = PV_COLOR_BLACK; /* gnuplot's fresh text is `lt -1`; `tc default` differs */
}

void pv_palette_fini(pv_ctx *ctx, pv_palette *pal)
{
    pv_free(ctx, pal->grad, pal->grad_cap * sizeof *pal->grad);
    pal->grad = NULL;
    pal->grad_cap = 0;
    pal->ngrad = 0;
}

void pv_palette_default(pv_palette *pal)
{
    memset(pal, 0, sizeof *pal);
    pal->kind = PV_PAL_RGBFORMULAE;
    pal->formulae[0] = 7;
    pal->formulae[1] = 5;
    pal->formulae[2] = 15;
    pal->gamma = 1.5;
    pal->ch_start = 0.5;
    pal->ch_cycles = -1.5;
    pal->ch_saturation = 1.0;
}

void pv_settings_term_default(pv_settings *s)
{
    free(s->term.font);
    free(s->term.font_name);
    memset(&s->term, 0, sizeof s->term);
    s->term.kind = PV_TERM_PNGCAIRO;
    s->term.width = 640;
    s->term.height = 480;
    s->term.fontscale = 1.0;
    s->term.background = 0xFFFFFFu;
    s->term.enhanced = true;
    s->term.linewidth = 1.0;
    s->term.png_level = -1;
    s->term.png_filter = PV_PNGF_DEFAULT;
}

static void range_default(pv_range *r, double lo, double hi, bool autoscaled)
{
    memset(r, 0, sizeof *r);
    r->min = lo;
    r->max = hi;
    r->auto_min = r->auto_max = autoscaled;
    r->log_base = 10.0;
}

static void tics_default(pv_tics *t, bool mirror)
{
    free(t->format);
    free(t->font);
    pv_tics_user_free(t);
    memset(t, 0, sizeof *t);
    t->on = true;
    t->mirror = mirror;
    t->start = t->end = NAN;
    t->format = sp_strdup("% h");
    t->scale_major = 1.0;
    t->scale_minor = 0.5;
    t->just = -1;
}

/* Free everything `reset` reinitialises. */
void pv_settings_fini_resettable(pv_settings *s)
{
    pv_text_fini(&s->title);
    for (int k = 0; k < 4; k++) pv_text_fini(&s->label[k]);
    pv_labels_fini(s);
    pv_objects_fini(s);
    pv_arrows_fini(s);
    free(s->key.title);
    s->key.title = NULL;
    free(s->key.font);
    s->key.font = NULL;
    pv_palette_fini(s->ctx, &s->palette);
    for (int k = 0; k < 3; k++) {
        free(s->format_other[k]);
        s->format_other[k] = NULL;
    }
    for (int k = 0; k < 4; k++) {
        free(s->tics[k].format);
        free(s->tics[k].font);
        s->tics[k].format = s->tics[k].font = NULL;
        pv_tics_user_free(&s->tics[k]);
    }
    pv_free(s->ctx, s->linestyle, s->linestyle_cap * sizeof *s->linestyle);
    s->linestyle = NULL;
    s->linestyle_cap = 0;
    s->nlinestyle = 0;
    free(s->datafile.missing);
    free(s->datafile.commentschars);
    s->datafile.missing = s->datafile.commentschars = NULL;
}

/* Everything `reset` restores (not terminal, output, linetypes: gnuplot's `help reset`). */
void pv_settings_defaults_keep(pv_settings *s)
{
    pv_settings_fini_resettable(s);
    for (int ax = PV_AX_X; ax <= PV_AX_CB; ax++) range_default(&s->range[ax], -10, 10, true);
    range_default(&s->range[PV_AX_U], -5, 5, false);
    range_default(&s->range[PV_AX_V], -5, 5, false);
    range_default(&s->range[PV_AX_T], -5, 5, false);
    for (int k = 0; k < 4; k++) tics_default(&s->tics[k], k != PV_AX_Z);
    s->tics_front = false;

    s->view.rot_x = 60.0;
    s->view.rot_z = 30.0;
    s->view.scale = s->view.zscale = 1.0;
    s->view.azimuth = 0.0;
    s->view.map = false;
    s->view.surface_scale = 1.0;
    s->view.equal = 0;
    s->view.projection = PV_VIEW_PROJ_NONE;
    s->xyplane_absolute = false;
    s->xyplane_z = 0.0;
    s->xyplane_rel = 0.5;
    s->boxwidth_mode = 0; /* auto: boxes touch */
    s->boxwidth = 0.0;

    s->border = 31;
    s->border_layer = PV_LAYER_FRONT;
    s->border_lp = pv_lp_default();
    memset(&s->grid, 0, sizeof s->grid);
    s->grid.layer = -1;
    s->grid.polar_angle = 3.14159265358979323846 / 6.0;
    s->grid.lp = pv_lp_default();
    s->grid.lp.lw = 0.5;
    s->grid.mlp = s->grid.lp;
    s->border_lp.lc.kind = PV_COLOR_BLACK;

    for (int ax = 0; ax < 3; ax++) {
        s->zeroaxis[ax].on = false;
        s->zeroaxis[ax].lp = pv_lp_default();
    }

    pv_key_default(&s->key);

    pv_text_default(&s->title);
    for (int k = 0; k < 4; k++) pv_text_default(&s->label[k]);
    /* gnuplot's y and cb labels start vertical (its `rotate`, shown as -270 degrees) */
    s->label[PV_AX_Y].rotate = s->label[PV_AX_CB].rotate = -270.0;
    pv_palette_default(&s->palette);

    memset(&s->colorbox, 0, sizeof s->colorbox);
    s->colorbox.on = s->colorbox.vertical = s->colorbox.border = s->colorbox.front = true;

    memset(&s->fill, 0, sizeof s->fill);
    s->fill.kind = PV_FILL_EMPTY;
    s->fill.density = 1.0;
    s->fill.border = true;
    s->style_data = PV_STYLE_POINTS;
    s->style_function = PV_STYLE_LINES;

    memset(&s->pm3d, 0, sizeof s->pm3d);
    strcpy(s->pm3d.at, "s");
    s->pm3d.border = pv_lp_default();
    s->pm3d.primary = 0.5;
    s->pm3d.specular = 0.2;
    s->pm3d.interp[0] = s->pm3d.interp[1] = 1;
    s->pm3d.corners2color = PV_C2C_MEAN;
    s->pm3d.clip_z = true;

    s->samples[0] = s->samples[1] = 100;
    s->isosamples[0] = s->isosamples[1] = 10;
    s->hidden3d = false;
    s->hidden3d_offset = 1;
    s->surface = true;

    memset(&s->jitter, 0, sizeof s->jitter);
    s->jitter.spread = 1.0;
    s->jitter.overlap = 1.0;
    s->iso_triangles = false;
    s->iso_inside_offset = 1;
    s->pointsize = 1.0;
    s->pointintervalbox = 1.0;

    s->datafile.separator = 0;
    s->datafile.commentschars = sp_strdup("#");
    strcpy(s->dummy[0], "x");
    strcpy(s->dummy[1], "y");
    s->angles_degrees = false;
    s->parametric = s->polar = false;
    s->macros = true;
    s->clip_points = false;
}
