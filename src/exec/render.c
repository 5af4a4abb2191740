/*
 * exec/render.c: one `splot` to one PNG (issue 4; ARCHITECTURE.md "One picture").
 *
 *   1. ranges: autoscaled ends grow over the elements' data and grids, then to tic marks
 *      (view.h); the colour range follows gnuplot's rules (gnuplot-voxel.md §6.3);
 *   2. the view and the frame display list (view.h) from the settings;
 *   3. this rank's primitives: its own voxel points, the data points whose z lies in its
 *      world-z slab, pm3d quads clipped to the slab (scene.h), projected and rasterised
 *      into a tile (raster.h);
 *   4. tiles blended "over" in slab visibility order onto rank 0 (composite.h);
 *   5. rank 0 draws the frame layers (annotate.h), puts the scene between them, rounds to
 *      8 bits once and writes the PNG (png.h) under a temporary name, renamed when done.
 * Every rank computes steps 1-2 identically from the same data (SPMD), so no ranges travel.
 */
#include "render.h"

#include "ckpt.h"

#include "pvox/annotate.h"
#include "pvox/composite.h"
#include "pvox/png.h"
#include "pvox/raster.h"
#include "pvox/scene.h"
#include "pvox/view.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void pv_rstyle_init(pv_rstyle *rs)
{
    memset(rs, 0, sizeof *rs);
    rs->style = PV_STYLE_POINTS;
    rs->lp = pv_lp_default();
}

void pv_relem_fini(pv_relem *e)
{
    free(e->title);
    free(e->vals);
    free(e->scan);
    memset(e, 0, sizeof *e);
}

/* =====================================================================================
 * Ranges
 * ===================================================================================== */

typedef struct axis_acc {
    double lo, hi; /* data extent seen (lo > hi: nothing) */
} axis_acc;

static void acc_add(axis_acc *a, double v)
{
    if (!isfinite(v)) return;
    if (v < a->lo) a->lo = v;
    if (v > a->hi) a->hi = v;
}

/* Columns of a data element: which using value holds what. */
typedef struct elem_cols {
    int ps, pt, color;     /* -1: none */
} elem_cols;

static bool color_is_variable(const pv_color *c)
{
    return c->kind == PV_COLOR_RGB_VARIABLE || c->kind == PV_COLOR_VARIABLE;
}

/* gnuplot's order of extra columns after x:y:z: ps variable, pt variable, colour. */
static elem_cols columns_of(const pv_relem *e)
{
    elem_cols k = {-1, -1, -1};
    int next = 3;
    if (e->kind == PV_RE_POINTS) {
        if (e->rs.lp.ps == -2) k.ps = next++;
        if (e->rs.lp.pt == -3) k.pt = next++;
        if (color_is_variable(&e->rs.lp.lc) ||
            (e->rs.lp.lc.kind == PV_COLOR_PALETTE_Z && e->ncols > next))
            k.color = next++;
    } else if (e->kind == PV_RE_PM3D) {
        if (e->ncols > 3) k.color = 3;
    }
    if (k.ps >= e->ncols) k.ps = -1;
    if (k.pt >= e->ncols) k.pt = -1;
    if (k.color >= e->ncols) k.color = -1;
    return k;
}

/* Does this element colour its items through the palette from its data (so its colour
 * values autoscale cb)? pm3d always; points with `lc palette` (z). */
static bool feeds_cb(const pv_relem *e)
{
    return e->kind == PV_RE_PM3D ||
           (e->kind == PV_RE_POINTS && e->rs.lp.lc.kind == PV_COLOR_PALETTE_Z);
}

typedef struct frame_ranges {
    double min[4], max[4]; /* x y z cb, final */
    bool uses_palette;     /* some element is palette-coloured: colour box */
} frame_ranges;

/* One axis from the settings and the data extent: autoscaled ends take the data (or
 * gnuplot's [-10:10] when there is none), an empty range is widened, then tics extend the
 * autoscaled ends. */
static void finish_axis(pv_interp *I, int ax, axis_acc acc, double *lo, double *hi)
{
    const pv_range *r = &I->set->range[ax];
    double a = r->auto_min ? acc.lo : r->min;
    double b = r->auto_max ? acc.hi : r->max;
    if (r->auto_min && !(acc.lo <= acc.hi)) a = r->auto_max ? -10 : fmin(-10, b);
    if (r->auto_max && !(acc.lo <= acc.hi)) b = r->auto_min ? 10 : fmax(10, a);
    if (a > b && (r->auto_min || r->auto_max)) {
        double t = a;
        a = b, b = t;
    }
    if (a == b && (r->auto_min || r->auto_max)) pv_ticks_widen_empty(&a, &b);
    const pv_tics *tc = &I->set->tics[ax];
    pv_tickaxis ta = {0};
    ta.min = a, ta.max = b;
    ta.auto_min = r->auto_min, ta.auto_max = r->auto_max;
    ta.fix_min = r->fix_min, ta.fix_max = r->fix_max;
    ta.tics = tc->on;
    ta.has_incr = tc->has_incr;
    ta.start = tc->start, ta.incr = tc->incr, ta.end = tc->end;
    if (a < b) pv_ticks_setup(&ta);
    *lo = ta.min, *hi = ta.max;
}

static void compute_ranges(pv_interp *I, const pv_relem *e, int n, frame_ranges *fr)
{
    axis_acc acc[4];
    for (int a = 0; a < 4; a++) acc[a].lo = HUGE_VAL, acc[a].hi = -HUGE_VAL;
    bool cb_from_data = false;
    fr->uses_palette = false;
    for (int k = 0; k < n; k++) {
        const pv_relem *el = &e[k];
        if (el->kind == PV_RE_VOXELS) {
            for (int a = 0; a < 3; a++) {
                acc_add(&acc[a], el->grid->min[a]);
                acc_add(&acc[a], el->grid->max[a]);
            }
            if (el->rs.lp.lc.kind == PV_COLOR_PALETTE_Z) fr->uses_palette = true;
            continue;
        }
        if (el->kind != PV_RE_POINTS && el->kind != PV_RE_PM3D) continue;
        if (feeds_cb(el)) fr->uses_palette = true;
        for (size_t r = 0; r < el->nrows; r++) {
            const double *v = el->vals + r * (size_t)el->ncols;
            if (!isfinite(v[0]) || !isfinite(v[1]) || !isfinite(v[2])) continue;
            for (int a = 0; a < 3; a++) acc_add(&acc[a], v[a]);
        }
    }
    for (int a = 0; a < 3; a++) finish_axis(I, a, acc[a], &fr->min[a], &fr->max[a]);
    /* the colour values of the points inside the final x/y/z ranges (gnuplot skips the
     * others when autoscaling cb: a surface cut by the z range colours by what shows) */
    for (int k = 0; k < n; k++) {
        const pv_relem *el = &e[k];
        if (!feeds_cb(el)) continue;
        elem_cols kc = columns_of(el);
        cb_from_data = true;
        for (size_t r = 0; r < el->nrows; r++) {
            const double *v = el->vals + r * (size_t)el->ncols;
            bool in = true;
            for (int a = 0; a < 3 && in; a++) {
                double lo = fmin(fr->min[a], fr->max[a]), hi = fmax(fr->min[a], fr->max[a]);
                in = v[a] >= lo && v[a] <= hi;
            }
            if (in) acc_add(&acc[3], kc.color >= 0 ? v[kc.color] : v[2]);
        }
    }
    /* cb: from the colour data; with none, copied from the final z range (§6.3) */
    const pv_range *cr = &I->set->range[PV_AX_CB];
    if (!cb_from_data) {
        acc[3].lo = fr->min[2];
        acc[3].hi = fr->max[2];
        if (cr->auto_min && cr->auto_max) {
            fr->min[3] = fr->min[2], fr->max[3] = fr->max[2];
            return;
        }
    }
    finish_axis(I, PV_AX_CB, acc[3], &fr->min[3], &fr->max[3]);
}

/* =====================================================================================
 * Palette and colours
 * ===================================================================================== */

static void palette_of(const pv_settings *s, pv_pal *p)
{
    pv_pal_default(p);
    const pv_palette *sp = &s->palette;
    p->formulae[0] = sp->formulae[0];
    p->formulae[1] = sp->formulae[1];
    p->formulae[2] = sp->formulae[2];
    p->negative = sp->negative;
    p->gamma = sp->gamma;
    p->maxcolors = sp->maxcolors;
    p->model = sp->model == 1 ? PV_PALM_HSV : sp->model == 2 ? PV_PALM_CMY : PV_PALM_RGB;
    p->ch_start = sp->ch_start, p->ch_cycles = sp->ch_cycles;
    p->ch_saturation = sp->ch_saturation;
    if (sp->gray) p->kind = PV_PALK_GRAY;
    else if (sp->kind == PV_PAL_DEFINED && sp->ngrad > 0) {
        p->kind = PV_PALK_DEFINED;
        p->grad = sp->grad;
        p->ngrad = sp->ngrad;
    } else if (sp->kind == PV_PAL_CUBEHELIX) p->kind = PV_PALK_CUBEHELIX;
    else p->kind = PV_PALK_FORMULAE;
}

typedef struct colorer {
    const pv_settings *set;
    pv_pal pal;
    double cbmin, cbmax;
} colorer;

/* 0xAARRGGBB (AA = transparency) -> straight-alpha colour. */
static pv_rgba8 rgba_of_argb(uint32_t argb)
{
    pv_rgba8 c = {(uint8_t)(argb >> 16), (uint8_t)(argb >> 8), (uint8_t)argb,
                  (uint8_t)(255u - (argb >> 24))};
    return c;
}

/* The colour of an element's item: `cval` is its colour value (voxel value, z or the
 * colour column), `var` the variable column (NaN if none). */
static pv_rgba8 item_color(const colorer *C, const pv_relem *e, double cval, double var)
{
    const pv_color *lc = &e->rs.lp.lc;
    switch (lc->kind) {
    case PV_COLOR_RGB: return rgba_of_argb(lc->argb);
    case PV_COLOR_LT: return rgba_of_argb(pv_settings_lt_rgb(C->set, lc->lt));
    case PV_COLOR_PALETTE_Z:
        return rgba_of_argb(pv_pal_color(&C->pal, cval, C->cbmin, C->cbmax));
    case PV_COLOR_PALETTE_CB:
        return rgba_of_argb(pv_pal_color(&C->pal, lc->value, C->cbmin, C->cbmax));
    case PV_COLOR_PALETTE_FRAC: return rgba_of_argb(pv_pal_rgb8(&C->pal, lc->value));
    case PV_COLOR_RGB_VARIABLE:
        return isfinite(var) ? rgba_of_argb((uint32_t)(int64_t)var)
                             : rgba_of_argb(pv_settings_lt_rgb(C->set, e->number));
    case PV_COLOR_VARIABLE:
        return rgba_of_argb(pv_settings_lt_rgb(C->set, isfinite(var) ? (int)var : e->number));
    case PV_COLOR_BLACK: return rgba_of_argb(0);
    case PV_COLOR_BGND: return rgba_of_argb(C->set->term.background);
    default: break;
    }
    int lt = e->rs.lp.lt > 0 ? e->rs.lp.lt : e->number;
    return rgba_of_argb(pv_settings_lt_rgb(C->set, lt));
}

/* =====================================================================================
 * Frame
 * ===================================================================================== */

typedef struct frame_ctx {
    pv_termdim term;
    pv_view3d view;
    pv_frame_spec spec;
    pv_frame frame;
    double tic_pos[4][64];
    char *tic_text[4][64];
    pv_key_entry *key;
    int nkey;
} frame_ctx;

static void tics_for(pv_interp *I, frame_ctx *F, int ax, double lo, double hi)
{
    const pv_tics *tc = &I->set->tics[ax];
    pv_frame_axis *fa = &F->spec.axis[ax];
    fa->tics = tc->on;
    fa->mirror = tc->mirror;
    fa->tic_in = !tc->outward;
    fa->ticscale = tc->scale_major;
    const pv_text *lab = &I->set->label[ax];
    fa->label = lab->text && lab->text[0] ? lab->text : NULL;
    fa->label_offset[0] = lab->offset[0];
    fa->label_offset[1] = lab->offset[1];
    if (!tc->on || !(lo < hi)) return;
    pv_tickaxis ta = {0};
    ta.min = lo, ta.max = hi;
    ta.tics = true;
    ta.has_incr = tc->has_incr;
    ta.start = tc->start, ta.incr = tc->incr, ta.end = tc->end;
    pv_ticks_setup(&ta);
    int nt = pv_ticks_list(&ta, F->tic_pos[ax], 64);
    if (nt > 64) nt = 64;
    char fbuf[64];
    const char *fmt = pv_ticks_format(&ta, tc->format ? tc->format : "% h", fbuf, sizeof fbuf);
    for (int k = 0; k < nt; k++) F->tic_text[ax][k] = pv_gprintf(I->ctx, fmt, F->tic_pos[ax][k]);
    fa->ntics = nt;
    fa->tic_pos = F->tic_pos[ax];
    fa->tic_text = (const char *const *)F->tic_text[ax];
}

static void frame_fini(frame_ctx *F)
{
    for (int a = 0; a < 4; a++)
        for (int k = 0; k < 64; k++) free(F->tic_text[a][k]);
    free(F->key);
    pv_frame_fini(&F->frame);
}

static int count_lines(const char *t)
{
    if (!t || !t[0]) return 0;
    int n = 1;
    for (; *t; t++)
        if (*t == '\n') n++;
    return n;
}

static pv_status setup_frame(pv_interp *I, const pv_relem *e, int n, const frame_ranges *fr,
                             const pv_pal *pal, frame_ctx *F)
{
    const pv_settings *s = I->set;
    double font_pt = (s->term.font_size > 0 ? s->term.font_size : 12.0) *
                     (s->term.fontscale > 0 ? s->term.fontscale : 1.0);
    pv_termdim_pngcairo(&F->term, s->term.width, s->term.height, font_pt);
    F->term.linewidth = s->term.linewidth > 0 ? s->term.linewidth : 1.0;

    pv_frame_spec *fs = &F->spec;
    pv_frame_spec_default(fs);
    fs->border = s->border;
    fs->border_rgb = s->border_lp.lc.kind == PV_COLOR_RGB ? (s->border_lp.lc.argb & 0xFFFFFFu) : 0;
    fs->border_lw = s->border_lp.lw > 0 ? s->border_lp.lw : 1.0;
    for (int a = 0; a < 4; a++) tics_for(I, F, a, fr->min[a], fr->max[a]);
    fs->title = s->title.text && s->title.text[0] ? s->title.text : NULL;
    fs->title_offset[0] = s->title.offset[0];
    fs->title_offset[1] = s->title.offset[1];
    fs->pointsize = s->pointsize > 0 ? s->pointsize : 1.0;
    /* key */
    fs->key_on = s->key.on;
    fs->key_hpos = s->key.hpos == PV_KEYPOS_LEFT ? PV_KEY_LEFT
                   : s->key.hpos == PV_KEYPOS_CENTER ? PV_KEY_HCENTER : PV_KEY_RIGHT;
    fs->key_vpos = s->key.vpos == PV_KEYPOS_BOTTOM ? PV_KEY_BOTTOM
                   : s->key.vpos == PV_KEYPOS_CENTER ? PV_KEY_VCENTER : PV_KEY_TOP;
    fs->key_outside = !s->key.inside;
    fs->key_box = s->key.box;
    fs->key_left_just = s->key.left_justify;
    fs->key_reverse = s->key.reverse;
    fs->key_samplen = s->key.samplen;
    fs->key_spacing = s->key.spacing;
    if (s->key.on) {
        F->key = calloc((size_t)n, sizeof *F->key);
        if (!F->key) return pv_err(I->ctx, PV_ENOMEM, "out of memory");
        colorer C = {s, *pal, fr->min[3], fr->max[3]};
        for (int k = 0; k < n; k++) {
            const pv_relem *el = &e[k];
            if (el->kind == PV_RE_SKIPPED || !el->title || !el->title[0]) continue;
            pv_key_entry *ke = &F->key[F->nkey++];
            ke->title = el->title;
            ke->lw = el->rs.lp.lw;
            if (el->kind == PV_RE_PM3D) {
                ke->sample = PV_KS_BOX;
                pv_rgba8 c = rgba_of_argb(pv_pal_rgb8(pal, 0.5));
                ke->argb = (uint32_t)c.r << 16 | (uint32_t)c.g << 8 | c.b;
            } else {
                ke->sample = PV_KS_POINT;
                ke->pt = el->rs.style == PV_STYLE_DOTS ? 0
                         : el->rs.lp.pt >= 0 ? el->rs.lp.pt : el->rs.lp.pt == -2 ? el->number : -1;
                ke->ps = el->rs.lp.ps > 0 ? el->rs.lp.ps : 1.0;
                /* a palette-coloured sample takes gray 0.5 (graph3d.c) */
                pv_rgba8 c = el->rs.lp.lc.kind == PV_COLOR_PALETTE_Z
                                 ? rgba_of_argb(pv_pal_rgb8(pal, 0.5))
                                 : item_color(&C, el, (double)NAN, (double)NAN);
                ke->argb = (uint32_t)(255 - c.a) << 24 | (uint32_t)c.r << 16 |
                           (uint32_t)c.g << 8 | c.b;
            }
        }
        fs->key = F->key;
        fs->nkey = F->nkey;
    }
    fs->colorbox = fr->uses_palette && s->colorbox.on;
    fs->colorbox_border = s->colorbox.border;
    fs->pal = pal;
    fs->cbmin = fr->min[3];
    fs->cbmax = fr->max[3];

    pv_view3d_params vp;
    memset(&vp, 0, sizeof vp);
    vp.term = F->term;
    vp.rot_x = s->view.map ? 0 : s->view.rot_x;
    vp.rot_z = s->view.map ? 0 : s->view.rot_z;
    vp.scale = s->view.scale;
    vp.zscale = s->view.zscale;
    vp.azimuth = s->view.azimuth;
    vp.equal = s->view.equal;
    vp.xmin = fr->min[0], vp.xmax = fr->max[0];
    vp.ymin = fr->min[1], vp.ymax = fr->max[1];
    vp.zmin = fr->min[2], vp.zmax = fr->max[2];
    vp.xyplane_absolute = s->xyplane_absolute;
    vp.xyplane_z = s->xyplane_z;
    vp.xyplane_rel = s->xyplane_rel;
    vp.base_in_box = s->tics[PV_AX_X].on || s->tics[PV_AX_Y].on || (s->border & 15) != 0;
    vp.title_lines = count_lines(fs->title);
    int reserve = pv_frame_key_reserve(fs, &F->term);
    if (fs->key_hpos == PV_KEY_LEFT) vp.key_reserve_left = reserve;
    else vp.key_reserve_right = reserve;
    pv_view3d_setup(&F->view, &vp);
    if (!pv_frame_build(&F->frame, fs, &F->view))
        return pv_err(I->ctx, PV_ENOMEM, "out of memory building the frame");
    return PV_OK;
}

/* =====================================================================================
 * This rank's primitives
 * ===================================================================================== */

typedef struct scene_ctx {
    pv_interp *I;
    pv_raster *r;
    const pv_view3d *view;
    const colorer *C;
    const pv_relem *e;
    uint32_t style;           /* marker style of the element (constant size) */
    uint64_t order_base;
    double zlo, zhi;          /* this rank's world-z slab */
    double zmin, zmax;        /* the z axis range */
    pv_raster_point *buf;
    size_t nbuf;
} scene_ctx;

#define ORDER(elem, item) (((uint64_t)(elem) << 48) | ((uint64_t)(item) & 0xFFFFFFFFFFFFull))

static float marker_size(const pv_settings *s, double ps)
{
    return (float)(3.0 * ps * (s->pointsize > 0 ? s->pointsize : 1.0));
}

/* The marker style of an element's item of point type `pt` (the element's `pt`, or the
 * row's with `pt variable`) and size multiplier `ps`. */
static uint32_t element_marker(scene_ctx *S, const pv_relem *e, int pt, double ps)
{
    const pv_settings *s = S->I->set;
    float lw = (float)(e->rs.lp.lw * (s->term.linewidth > 0 ? s->term.linewidth : 1.0));
    if (e->rs.style == PV_STYLE_DOTS) return pv_raster_marker_style(S->I->ctx, S->r, 0, 1, lw);
    if (pt == -2) pt = e->number;      /* default: point type of linetype n */
    if (pt < 0) return PV_RASTER_STYLE_NONE;
    return pv_raster_marker_style(S->I->ctx, S->r, pt, marker_size(s, ps), lw < 0.2f ? 0.2f : lw);
}

static pv_status add_vpoints(void *ud, const pv_vpoint *p, size_t n)
{
    scene_ctx *S = ud;
    for (size_t k = 0; k < n; k++) {
        pv_raster_point *q = &S->buf[k];
        double sx, sy, d;
        pv_view_project(S->view, p[k].x, p[k].y, p[k].z, &sx, &sy, &d);
        q->x = (float)sx, q->y = (float)sy, q->depth = (float)d;
        q->style = S->style;
        q->color = item_color(S->C, S->e, (double)p[k].value, (double)NAN);
        q->order = S->order_base | p[k].index;
    }
    return pv_raster_add_points(S->I->ctx, S->r, S->buf, n);
}

static pv_status scene_voxels(scene_ctx *S, const pv_relem *e)
{
    double ps = e->rs.lp.ps > 0 ? e->rs.lp.ps : 1.0;
    S->style = element_marker(S, e, e->rs.lp.pt, ps);
    if (S->style == PV_RASTER_STYLE_NONE) return S->I->ctx->err_code ? PV_ERANGE : PV_OK;
    const pv_settings *s = S->I->set;
    double spread = s->jitter.on ? (s->jitter.spread > 0 ? s->jitter.spread : 1.0) : 0.0;
    double above = e->rs.has_above ? e->rs.above : 0.0;
    return pv_scene_voxel_points(e->grid, above, e->rs.lp.pi, spread, add_vpoints, S);
}

static pv_status scene_points(scene_ctx *S, const pv_relem *e)
{
    elem_cols kc = columns_of(e);
    double ps0 = e->rs.lp.ps > 0 ? e->rs.lp.ps : 1.0;
    uint32_t fixed = kc.ps < 0 && kc.pt < 0 ? element_marker(S, e, e->rs.lp.pt, ps0) : 0;
    if (kc.ps < 0 && kc.pt < 0 && fixed == PV_RASTER_STYLE_NONE)
        return S->I->ctx->err_code ? PV_ERANGE : PV_OK;
    size_t nb = 0;
    for (size_t r = 0; r < e->nrows; r++) {
        const double *v = e->vals + r * (size_t)e->ncols;
        if (!isfinite(v[0]) || !isfinite(v[1]) || !isfinite(v[2])) continue;
        if (!(v[2] >= S->zlo && v[2] < S->zhi)) continue;
        uint32_t style = fixed;
        if (kc.ps >= 0 || kc.pt >= 0) {
            int pt = kc.pt < 0 ? e->rs.lp.pt : isfinite(v[kc.pt]) ? (int)v[kc.pt] : -1;
            double ps = kc.ps >= 0 ? v[kc.ps] : ps0;
            if (!(ps >= 0) || !isfinite(ps)) continue;
            style = element_marker(S, e, pt, ps);
            if (style == PV_RASTER_STYLE_NONE) continue;
        }
        pv_raster_point *q = &S->buf[nb++];
        double sx, sy, d;
        pv_view_project(S->view, v[0], v[1], v[2], &sx, &sy, &d);
        q->x = (float)sx, q->y = (float)sy, q->depth = (float)d;
        q->style = style;
        double cval = kc.color >= 0 && e->rs.lp.lc.kind == PV_COLOR_PALETTE_Z ? v[kc.color] : v[2];
        double var = kc.color >= 0 ? v[kc.color] : (double)NAN;
        q->color = item_color(S->C, e, cval, var);
        q->order = S->order_base | r;
        if (nb == PV_SCENE_CHUNK) {
            pv_status st = pv_raster_add_points(S->I->ctx, S->r, S->buf, nb);
            if (st != PV_OK) return st;
            nb = 0;
        }
    }
    return nb ? pv_raster_add_points(S->I->ctx, S->r, S->buf, nb) : PV_OK;
}

/* pm3d: quads between consecutive scan lines, coloured by the mean of the corners'
 * colour values (corners2color mean), clipped to this rank's slab. */
static pv_status scene_pm3d(scene_ctx *S, const pv_relem *e)
{
    elem_cols kc = columns_of(e);
    const pv_settings *s = S->I->set;
    const pv_fill *fill = e->rs.has_fill ? &e->rs.fill : &s->fill;
    double alpha = fill->kind == PV_FILL_SOLID && fill->transparent ? fill->density : 1.0;
    if (alpha < 0) alpha = 0;
    if (alpha > 1) alpha = 1;
    uint64_t item = 0;
    /* scan[k] is the end of scan line k (the start of line k + 1) */
    for (size_t sc = 0; sc + 1 < e->nscan; sc++) {
        size_t a0 = sc == 0 ? 0 : e->scan[sc - 1], a1 = e->scan[sc];
        size_t b0 = a1, b1 = e->scan[sc + 1];
        size_t na = a1 - a0, nb = b1 - b0, m = na < nb ? na : nb;
        for (size_t i = 0; i + 1 < m; i++, item++) {
            const double *c4[4] = {e->vals + (a0 + i) * (size_t)e->ncols,
                                   e->vals + (a0 + i + 1) * (size_t)e->ncols,
                                   e->vals + (b0 + i + 1) * (size_t)e->ncols,
                                   e->vals + (b0 + i) * (size_t)e->ncols};
            double poly[4][3], cv = 0;
            bool ok = true;
            for (int k = 0; k < 4 && ok; k++) {
                for (int a = 0; a < 3; a++) poly[k][a] = c4[k][a];
                double v = kc.color >= 0 ? c4[k][kc.color] : c4[k][2];
                ok = isfinite(poly[k][0]) && isfinite(poly[k][1]) && isfinite(poly[k][2]) &&
                     isfinite(v);
                cv += v;
            }
            if (!ok) continue;
            /* gnuplot's pm3d `clip z` (the default): the quad is cut to the z range; then
             * added whole: the raster cuts it at this rank's slab planes pixel by pixel
             * (raster.h "Slab cuts"); edges lying in one z-plane are hard */
            double cut[8][3];
            int nv = pv_scene_clip_z((const double(*)[3])poly, 4, S->zmin, S->zmax, cut);
            if (nv < 3) continue;
            pv_rgba8 col = rgba_of_argb(pv_pal_color(&S->C->pal, cv / 4, S->C->cbmin, S->C->cbmax));
            col.a = (uint8_t)lrint(255.0 * alpha);
            float x[8], y[8], d[8];
            double wz[8];
            unsigned hard = 0;
            for (int k = 0; k < nv; k++) {
                double sx, sy, dd;
                pv_view_project(S->view, cut[k][0], cut[k][1], cut[k][2], &sx, &sy, &dd);
                x[k] = (float)sx, y[k] = (float)sy, d[k] = (float)dd;
                wz[k] = cut[k][2];
                if (cut[k][2] == cut[(k + 1) % nv][2]) hard |= 1u << k;
            }
            pv_status st = pv_raster_add_polygon(S->I->ctx, S->r, nv, x, y, d, wz, hard, col,
                                                 S->order_base | item);
            if (st != PV_OK) return st;
        }
    }
    return PV_OK;
}

/* =====================================================================================
 * Output name (decision 10) and the final image
 * ===================================================================================== */

static char *output_path(pv_interp *I)
{
    const char *dir = I->ctx->opt.outdir;
    const char *name = I->set->output;
    char buf[4096];
    if (!name) {
        const char *script = I->script_name ? I->script_name : "pvox";
        const char *base = strrchr(script, '/');
        base = base ? base + 1 : script;
        size_t bl = strlen(base);
        if (bl > 3 && strcmp(base + bl - 3, ".gp") == 0) bl -= 3;
        I->default_frames++;
        snprintf(buf, sizeof buf, "%s%s%.*s-%03ld.png", dir ? dir : "", dir ? "/" : "",
                 (int)bl, base, I->default_frames);
        pv_warn_once(I->ctx, PV_ONCE_DEFAULT_OUTPUT,
                     "no `set output`: frames are written as %s, %s ... (pvox decision 10)",
                     buf, "-NNN.png");
    } else if (dir && name[0] != '/') {
        snprintf(buf, sizeof buf, "%s/%s", dir, name);
    } else {
        snprintf(buf, sizeof buf, "%s", name);
    }
    return strdup(buf);
}

/* =====================================================================================
 * Entry
 * ===================================================================================== */

pv_status pv_render_splot(pv_interp *I, pv_cursor *c, size_t off, pv_relem *e, int n)
{
    pv_ctx *ctx = I->ctx;
    for (int k = 0; k < n; k++)
        if (e[k].kind == PV_RE_SKIPPED && e[k].why)
            pv_warn_once(ctx, PV_ONCE_PLOT_NOT_BUILT,
                         "%s are not drawn by this version of pvox (skipped)", e[k].why);
    pv_status st0 = pv_ckpt_before_plot(I);
    if (st0 != PV_OK) return st0;
    char *path = output_path(I);
    if (!path) return pv_status_agree(ctx, pv_err(ctx, PV_ENOMEM, "out of memory"));
    if (pv_ckpt_skip_plot(I, path)) {
        free(path);
        return PV_OK;
    }
    frame_ranges fr;
    compute_ranges(I, e, n, &fr);
    pv_pal pal;
    palette_of(I->set, &pal);
    colorer C = {I->set, pal, fr.min[3], fr.max[3]};
    frame_ctx F;
    memset(&F, 0, sizeof F);
    pv_status st = setup_frame(I, e, n, &fr, &C.pal, &F);
    int W = F.term.width, H = F.term.height;

    /* this rank's slab: the first voxel grid of the plot defines it */
    const pv_grid *sg = NULL;
    for (int k = 0; k < n && !sg; k++)
        if (e[k].kind == PV_RE_VOXELS) sg = e[k].grid;
    double zlo, zhi;
    pv_scene_slab(sg, fr.min[2], fr.max[2], ctx->nranks, ctx->rank, &zlo, &zhi);

    pv_raster *r = NULL;
    pv_tile *tile = NULL;
    pv_raster_point *buf = NULL;
    if (st == PV_OK) {
        r = pv_raster_create(ctx, W, H);
        tile = r ? pv_tile_create(ctx, W, H, 0, 0, W, H) : NULL;
        buf = malloc(PV_SCENE_CHUNK * sizeof *buf);
        if (!r || !tile || !buf) st = ctx->err_code ? ctx->err_code : pv_err(ctx, PV_ENOMEM, "out of memory");
    }
    if (r) pv_raster_set_slab(r, zlo, zhi);
    scene_ctx S = {I, r, &F.view, &C, NULL, 0, 0, zlo, zhi, fr.min[2], fr.max[2], buf, 0};
    for (int k = 0; k < n && st == PV_OK; k++) {
        S.e = &e[k];
        S.order_base = ORDER(k + 1, 0);
        if (e[k].kind == PV_RE_VOXELS) st = scene_voxels(&S, &e[k]);
        else if (e[k].kind == PV_RE_POINTS) st = scene_points(&S, &e[k]);
        else if (e[k].kind == PV_RE_PM3D) st = scene_pm3d(&S, &e[k]);
    }
    if (st == PV_OK) st = pv_raster_render(ctx, r, tile);
    st = pv_status_agree(ctx, st);

    /* composite in slab visibility order onto rank 0 */
    pv_tile *scene = NULL;
    if (st == PV_OK && ctx->rank == 0) {
        scene = pv_tile_create(ctx, W, H, 0, 0, W, H);
        if (!scene) st = ctx->err_code ? ctx->err_code : PV_ENOMEM;
    }
    st = pv_status_agree(ctx, st);
    pv_composite_stats cst = {0};
    if (st == PV_OK)
        st = pv_composite_gather(ctx, tile, pv_view_z_facing(&F.view) < 0, scene, &cst);
    if (st == PV_OK && ctx->rank == 0) {
        size_t px = (size_t)W * (size_t)H;
        uint32_t *bg = malloc(px * 4), *fg = malloc(px * 4);
        uint8_t *rgb = malloc(px * 3);
        if (!bg || !fg || !rgb || !path) st = pv_err(ctx, PV_ENOMEM, "out of memory");
        pv_annot_opts ao;
        pv_annot_opts_default(&ao);
        ao.background = I->set->term.background;
        if (st == PV_OK) st = pv_annotate_frame(ctx, &F.frame, &ao, bg, fg, W * 4);
        if (st == PV_OK) {
            pv_layer lb = {bg, (size_t)W * 4, PV_LAYER_ARGB32};
            pv_layer lf = {fg, (size_t)W * 4, PV_LAYER_ARGB32};
            pv_composite_flatten(scene, &lb, &lf, 3, rgb, (size_t)W * 3);
            st = pv_png_write(ctx, path, W, H, 3, rgb, (size_t)W * 3, NULL);
        }
        free(bg);
        free(fg);
        free(rgb);
    }
    st = pv_status_agree(ctx, st);
    if (st != PV_OK && st != PV_ENOMEM && ctx->err_msg && !strchr(ctx->err_msg, '\n')) {
        /* a failure without a location (writing the PNG): name the plot command */
        char *msg = strdup(ctx->err_msg);
        pv_status code = st;
        pv_err_clear(ctx);
        st = pv_source_error(ctx, code, c->tl->src, off, "%s", msg ? msg : "plot failed");
        free(msg);
    }
    if (st == PV_OK)
        pv_log(ctx, PV_LOG_INFO, "render", "wrote %s (%dx%d, %zu points, %zu triangles on rank 0)",
               path ? path : "?", W, H, r ? pv_raster_count_points(r) : 0,
               r ? pv_raster_count_tris(r) : 0);
    pv_log(ctx, PV_LOG_DEBUG, "render", "composite: %llu bytes sent, %llu received, %.3f s",
           (unsigned long long)cst.bytes_sent, (unsigned long long)cst.bytes_recv, cst.t_sec);
    free(path);
    pv_tile_destroy(ctx, scene);
    free(buf);
    pv_tile_destroy(ctx, tile);
    pv_raster_destroy(ctx, r);
    frame_fini(&F);
    return st;
}
