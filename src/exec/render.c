/*
 * exec/render.c: the frame driver, one `splot` to one PNG (docs/ARCHITECTURE.md).
 *
 *   1. ranges: autoscaled ends grow over the elements' data and grids, then to tic marks
 *      (view.h); the colour range follows gnuplot's rules (GP-6.3);
 *   2. the view and the frame display list (view.h) from the settings;
 *   3. scene: each element's primitives for this rank (scene.h: its own voxel points, the
 *      data points whose z lies in its world-z slab, pm3d quads), projected and added to
 *      the rasteriser, which renders them into a tile (raster.h);
 *   4. composite: tiles blended "over" in slab visibility order onto rank 0 (composite.h);
 *   5. annotate and png: rank 0 draws the frame layers (annotate.h), puts the scene
 *      between them, rounds to 8 bits once and writes the PNG (png.h) under a temporary
 *      name, renamed when done.
 * Every rank computes steps 1-2 identically from the same data (SPMD), so no ranges travel.
 */
#include "render.h"

#include "ckpt.h"
#include "frames.h"
#include "isopass.h"

#include "pvox/annotate.h"
#include "pvox/composite.h"
#include "pvox/png.h"
#include "pvox/png_async.h"
#include "pvox/raster.h"
#include "pvox/scene.h"
#include "pvox/view.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

typedef struct frame_ranges {
    double min[4], max[4]; /* x y z cb, final */
    double step[4];        /* the automatic tic step chosen while autoscaling (0: none) */
    bool uses_palette;     /* some element is palette-coloured: colour box */
    bool cb_log;           /* `set logscale cb` with a positive colour range */
    double log_base[3];    /* x y z drawn in log space (`set logscale`; min, max and the
                              rows are log_base of the values): the base, else 0 */
    bool log_invalid[3];   /* a log axis whose range is not positive */
} frame_ranges;

/* A value of axis a in the space the frame is drawn in (its log on a log axis; NaN where
 * the log is undefined). */
static double axis_space(const frame_ranges *fr, int a, double v)
{
    if (a > 2 || !(fr->log_base[a] > 1.0)) return v;
    return v > 0.0 ? log(v) / log(fr->log_base[a]) : (double)NAN;
}

/* The value of axis a at position p of the drawing space. */
static double axis_value(const frame_ranges *fr, int a, double p)
{
    return a <= 2 && fr->log_base[a] > 1.0 ? pow(fr->log_base[a], p) : p;
}

/* One axis from the settings and the data extent: autoscaled ends take the data (or
 * gnuplot's [-10:10] when there is none), an empty range is widened, then tics extend the
 * autoscaled ends. */
static void finish_axis(pv_interp *I, int ax, axis_acc acc, frame_ranges *fr, double *lo,
                        double *hi, double *step)
{
    const pv_range *r = &I->set->range[ax];
    double lb = ax <= 2 ? fr->log_base[ax] : 0.0;
    if (lb > 1.0 && acc.lo <= acc.hi) /* the data's extent, back from the log space */
        acc.lo = pow(lb, acc.lo), acc.hi = pow(lb, acc.hi);
    double a, b;
    pv_exec_autoscale_ends(r, acc.lo, acc.hi, &a, &b);
    if (lb > 1.0 && !(acc.lo <= acc.hi) && r->auto_min && r->auto_max)
        a = 0.1, b = 10.0; /* gnuplot's log axis without data (measured) */
    if (lb > 1.0 && !(a > 0.0 && b > 0.0)) { /* an error at the plot command */
        fr->log_invalid[ax] = true;
        a = 0.1, b = 10.0;
    }
    const pv_tics *tc = &I->set->tics[ax];
    pv_tickaxis ta = {0};
    ta.min = a, ta.max = b;
    ta.auto_min = r->auto_min, ta.auto_max = r->auto_max;
    ta.fix_min = r->fix_min, ta.fix_max = r->fix_max;
    ta.tics = tc->on;
    ta.has_incr = tc->has_incr;
    ta.start = tc->start, ta.incr = tc->incr, ta.end = tc->end;
    if (ax == PV_AX_CB && r->log && a > 0 && b > 0) {
        /* gnuplot leaves a log colour axis at its data (no extension to tics) */
        ta.log_base = r->log_base;
        ta.fix_min = ta.fix_max = true;
    }
    if (lb > 1.0) ta.log_base = lb;
    if (a < b) pv_ticks_setup(&ta);
    *lo = ta.min, *hi = ta.max;
    if (lb > 1.0) *lo = log(ta.min) / log(lb), *hi = log(ta.max) / log(lb);
    /* gnuplot keeps the step chosen for the data range (before the ends moved out to it):
     * [-0.98:0.965] has steps of 0.2 on its extended range [-1:1], not 0.5 */
    *step = a < b && tc->on ? ta.step : 0.0;
}

/* The point v (x y z) lies inside the final x, y and z ranges (gnuplot's INRANGE). */
static bool in_ranges(const frame_ranges *fr, const double *v)
{
    for (int a = 0; a < 3; a++)
        if (!(v[a] >= fmin(fr->min[a], fr->max[a]) && v[a] <= fmax(fr->min[a], fr->max[a])))
            return false;
    return true;
}

static void compute_ranges(pv_interp *I, const pv_scene_elem *e, int n, bool plot2d,
                           frame_ranges *fr)
{
    axis_acc acc[4];
    for (int a = 0; a < 4; a++) acc[a].lo = HUGE_VAL, acc[a].hi = -HUGE_VAL;
    bool cb_from_data = false;
    fr->uses_palette = false;
    for (int k = 0; k < n; k++) {
        const pv_scene_elem *el = &e[k];
        if (el->kind == PV_SCENE_VOXELS || el->kind == PV_SCENE_ISO) {
            for (int a = 0; a < 3; a++) {
                acc_add(&acc[a], el->grid->min[a]);
                acc_add(&acc[a], el->grid->max[a]);
            }
            if (el->st.lp.lc.kind == PV_COLOR_PALETTE_Z) fr->uses_palette = true;
            continue;
        }
        if (el->kind == PV_SCENE_IMAGE && plot2d) {
            /* gnuplot autoscales a 2D image to its outer pixel edges (in 3D: to the
             * pixel centres, as other data) */
            pv_image_grid g;
            if (pv_scene_feeds_cb(el)) fr->uses_palette = true;
            if (!pv_scene_image_grid(el, &g)) continue;
            size_t ci[2] = {0, g.K - 1}, cj[2] = {0, g.L - 1};
            for (int u = 0; u < 2; u++)
                for (int w = 0; w < 2; w++) {
                    double px[4][3];
                    pv_scene_image_pixel(&g, ci[u], cj[w], px);
                    for (int q = 0; q < 4; q++)
                        for (int a = 0; a < 3; a++) acc_add(&acc[a], px[q][a]);
                }
            continue;
        }
        if (el->kind == PV_SCENE_ERRORBARS) { /* the points and their bars' ends */
            for (size_t r = 0; r < el->nrows; r++) {
                const double *v = el->vals + r * (size_t)el->ncols;
                if (!isfinite(v[0]) || !isfinite(v[1])) continue;
                double x0, x1, y0, y1;
                pv_scene_error_extent(el, r, &x0, &x1, &y0, &y1);
                double xs[3] = {v[0], x0, x1}, ys[3] = {v[1], y0, y1};
                for (int q = 0; q < 3; q++) {
                    if (isfinite(xs[q])) acc_add(&acc[0], xs[q]);
                    if (isfinite(ys[q])) acc_add(&acc[1], ys[q]);
                }
                acc_add(&acc[2], v[2]);
            }
            continue;
        }
        if (el->kind == PV_SCENE_BOXES) {
            /* the bars' centres and tops, and when a width is set x -+ the width column's
             * half, or -+ the whole `set boxwidth` value, absolute or relative (gnuplot's
             * autoscaling, measured; touching boxes autoscale to the centres) */
            for (size_t r = 0; r < el->nrows; r++) {
                const double *v = el->vals + r * (size_t)el->ncols;
                if (!isfinite(v[0]) || !isfinite(v[1])) continue;
                acc_add(&acc[0], v[0]);
                acc_add(&acc[1], v[1]);
                acc_add(&acc[2], v[2]);
                double half = el->st.box_wcol && el->ncols > 3 && isfinite(v[3]) ? fabs(v[3]) / 2
                              : el->st.boxwidth_mode != 0       ? fabs(el->st.boxwidth)
                                                                : 0.0;
                acc_add(&acc[0], v[0] - half);
                acc_add(&acc[0], v[0] + half);
            }
            continue;
        }
        if (el->kind != PV_SCENE_POINTS && el->kind != PV_SCENE_PM3D &&
            el->kind != PV_SCENE_LINES && el->kind != PV_SCENE_IMAGE &&
            el->kind != PV_SCENE_POLYGONS)
            continue;
        if (pv_scene_feeds_cb(el)) fr->uses_palette = true;
        bool vectors = el->st.style == PV_STYLE_VECTORS && el->ncols >= 6;
        for (size_t r = 0; r < el->nrows; r++) {
            const double *v = el->vals + r * (size_t)el->ncols;
            if (!isfinite(v[0]) || !isfinite(v[1]) || !isfinite(v[2])) continue;
            for (int a = 0; a < 3; a++) acc_add(&acc[a], v[a]);
            for (int a = 0; vectors && a < 3; a++) acc_add(&acc[a], v[a] + v[a + 3]); /* tip */
        }
    }
    for (int a = 0; a < 3; a++) {
        if (a == 2 && plot2d) { /* z orders a 2D plot's elements: element k at k + 0.5 */
            fr->min[2] = 0.0, fr->max[2] = n > 0 ? n : 1;
            fr->step[2] = 0.0;
            continue;
        }
        finish_axis(I, a, acc[a], fr, &fr->min[a], &fr->max[a], &fr->step[a]);
    }
    /* the colour values of the points inside the final x/y/z ranges (gnuplot skips the
     * others when autoscaling cb: a surface cut by the z range colours by what shows);
     * on a log colour axis only positive values count. As in gnuplot every data or
     * function element counts, palette-coloured or not (its colour value: z, or the
     * palette column); those whose colour column holds rgb values or linetypes do not */
    bool cb_log = I->set->range[PV_AX_CB].log;
    for (int k = 0; k < n; k++) {
        const pv_scene_elem *el = &e[k];
        /* rgb pixels: in 3D gnuplot autoscales cb over their red column too */
        bool rgb_image = el->kind == PV_SCENE_IMAGE && !pv_scene_feeds_cb(el);
        if (rgb_image && (plot2d || el->ncols < 4)) continue;
        if (el->kind != PV_SCENE_POINTS && el->kind != PV_SCENE_PM3D &&
            el->kind != PV_SCENE_LINES && el->kind != PV_SCENE_IMAGE)
            continue;
        pv_color_kind lk = el->st.lp.lc.kind;
        if (el->kind != PV_SCENE_PM3D && el->kind != PV_SCENE_IMAGE &&
            (lk == PV_COLOR_RGB_VARIABLE || lk == PV_COLOR_VARIABLE))
            continue;
        pv_scene_cols kc = pv_scene_columns(el);
        if (plot2d && kc.color < 0) continue; /* a 2D curve has a colour value only in a column */
        cb_from_data = true;
        for (size_t r = 0; r < el->nrows; r++) {
            const double *v = el->vals + r * (size_t)el->ncols;
            double cv = rgb_image ? v[3] : kc.color >= 0 ? v[kc.color] : v[2];
            if (in_ranges(fr, v) && (!cb_log || cv > 0)) acc_add(&acc[3], cv);
        }
    }
    /* cb: from the colour data; with none, copied from the final z range (GP-6.3) */
    const pv_range *cr = &I->set->range[PV_AX_CB];
    if (!cb_from_data) {
        int from = plot2d ? 1 : 2; /* 2D: the y range stands in for z */
        acc[3].lo = axis_value(fr, from, fr->min[from]);
        acc[3].hi = axis_value(fr, from, fr->max[from]);
        if (cr->auto_min && cr->auto_max) {
            fr->min[3] = acc[3].lo, fr->max[3] = acc[3].hi;
            fr->step[3] = 0.0; /* gnuplot's cb tics: from the copied range */
            fr->cb_log = cb_log && fr->min[3] > 0 && fr->max[3] > 0;
            return;
        }
    }
    finish_axis(I, PV_AX_CB, acc[3], fr, &fr->min[3], &fr->max[3], &fr->step[3]);
    if (plot2d && !I->set->colorbox.on && acc[3].lo <= acc[3].hi) {
        /* gnuplot extends a 2D plot's cb range to its tics only when it draws the colour
         * box (measured: `unset colorbox` keeps the data's extremes) */
        double lo, hi;
        pv_exec_autoscale_ends(cr, acc[3].lo, acc[3].hi, &lo, &hi);
        if (cr->auto_min) fr->min[3] = lo;
        if (cr->auto_max) fr->max[3] = hi;
    }
    fr->cb_log = cb_log && fr->min[3] > 0 && fr->max[3] > 0;
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
    size_t capkey;           /* entries allocated in key */
    bool cb_log;             /* the colour axis is logarithmic (frame_ranges.cb_log) */
    double minor_pos[4][256]; /* minor tics of log axes (gnuplot's default there) */
    pv_frame_rect *rects;    /* `set object rectangle`s drawn in this frame */
    int nrects, caprects;
    pv_frame_arrow *arrows;  /* `set arrow`s resolved for this frame */
    int narrows;
    pv_frame_label *labels;  /* `set label`s resolved for this frame */
    int nlabels;
} frame_ctx;

static uint32_t fixed_argb(const pv_settings *s, const pv_scene_colors *C, const pv_color *c,
                           double cbmin, double cbmax, uint32_t dflt);

static void tics_for(pv_interp *I, frame_ctx *F, const pv_scene_colors *C, int ax, double lo,
                     double hi, double step, double lbase)
{
    const pv_tics *tc = &I->set->tics[ax];
    pv_frame_axis *fa = &F->spec.axis[ax];
    fa->tics = tc->on;
    fa->mirror = tc->mirror;
    fa->on_axis = tc->on_axis;
    fa->tic_in = !tc->outward;
    fa->ticscale = tc->scale_major;
    fa->tic_angle = tc->rotate;
    fa->tic_just = tc->just;
    const pv_text *lab = &I->set->label[ax];
    fa->label = lab->text && lab->text[0] ? lab->text : NULL;
    fa->label_offset[0] = lab->offset[0];
    fa->label_offset[1] = lab->offset[1];
    /* gnuplot's TEXT_VERTICAL (-270, the y label's default) reads as 90 degrees */
    fa->label_angle = lab->rotate == -270.0 ? 90.0 : lab->rotate;
    fa->label_argb = fixed_argb(I->set, C, &lab->tc, 0, 1, 0);
    fa->label_noenhanced = !lab->enhanced;
    if (!tc->on || !(lo < hi)) return;
    pv_tickaxis ta = {0};
    ta.min = lo, ta.max = hi;
    ta.tics = true;
    ta.has_incr = tc->has_incr;
    ta.start = tc->start, ta.incr = tc->incr, ta.end = tc->end;
    if (ax == PV_AX_CB && F->cb_log) {
        ta.log_base = I->set->range[PV_AX_CB].log_base;
        ta.fix_min = ta.fix_max = true;
    }
    if (lbase > 1.0) { /* a log x/y/z axis: its tics from the values, placed at their logs */
        ta.min = pow(lbase, lo), ta.max = pow(lbase, hi);
        ta.log_base = lbase;
        ta.fix_min = ta.fix_max = true;
    }
    pv_ticks_setup(&ta);
    if (step > 0 && !ta.has_incr && !(ax == PV_AX_CB && F->cb_log)) ta.step = step;
    int nt = tc->user_only ? 0 : pv_ticks_list(&ta, F->tic_pos[ax], 64);
    if (nt > 64) nt = 64;
    char fbuf[64];
    const char *fmt = pv_ticks_format(&ta, tc->format ? tc->format : "% h", fbuf, sizeof fbuf);
    for (int k = 0; k < nt; k++) F->tic_text[ax][k] = pv_gprintf(I->ctx, fmt, F->tic_pos[ax][k]);
    /* `set xtics (...)`: the listed major tics inside the range, their labels as given
     * (a label with '%' formats the position); minor ones are not drawn */
    double vlo = fmin(lo, hi), vhi = fmax(lo, hi); /* the range in the axis's values */
    if (lbase > 1.0) vlo = pow(lbase, vlo), vhi = pow(lbase, vhi);
    for (int k = 0; k < tc->nuser && nt < 64; k++) {
        const pv_tic_mark *m = &tc->user[k];
        if (m->level != 0 || !(m->pos >= vlo && m->pos <= vhi)) continue;
        F->tic_pos[ax][nt] = m->pos;
        F->tic_text[ax][nt++] = !m->label              ? pv_gprintf(I->ctx, fmt, m->pos)
                                : strchr(m->label, '%') ? pv_gprintf(I->ctx, m->label, m->pos)
                                                        : strdup(m->label);
    }
    if (lbase > 1.0) { /* positions in the drawing's log space */
        int keep = 0;
        for (int k = 0; k < nt; k++) {
            double p = F->tic_pos[ax][k] > 0.0 ? log(F->tic_pos[ax][k]) / log(lbase) : (double)NAN;
            if (!isfinite(p)) {
                free(F->tic_text[ax][k]);
                continue;
            }
            F->tic_pos[ax][keep] = p;
            F->tic_text[ax][keep++] = F->tic_text[ax][k];
        }
        for (int k = keep; k < nt; k++) F->tic_text[ax][k] = NULL;
        nt = keep;
        int nm = pv_ticks_minor(&ta, F->minor_pos[ax], 256);
        fa->nminor = nm > 256 ? 256 : nm;
        for (int k = 0; k < fa->nminor; k++) F->minor_pos[ax][k] = log(F->minor_pos[ax][k]) / log(lbase);
        fa->minor_pos = F->minor_pos[ax];
        fa->minor_scale = tc->scale_minor;
    }
    if (ax == PV_AX_CB) { /* a log colour axis has gnuplot's default minor tics */
        int nm = pv_ticks_minor(&ta, F->minor_pos[ax], 256);
        fa->nminor = nm > 256 ? 256 : nm;
        fa->minor_pos = F->minor_pos[ax];
        fa->minor_scale = tc->scale_minor;
    }
    fa->ntics = nt;
    fa->tic_pos = F->tic_pos[ax];
    fa->tic_text = (const char *const *)F->tic_text[ax];
}

static void frame_fini(pv_ctx *ctx, frame_ctx *F)
{
    for (int k = 0; k < F->nrects; k++) free((void *)F->rects[k].vx); /* vy: the same block */
    pv_free(ctx, F->labels, (size_t)F->nlabels * sizeof *F->labels);
    pv_free(ctx, F->arrows, (size_t)F->narrows * sizeof *F->arrows);
    pv_free(ctx, F->rects, (size_t)F->caprects * sizeof *F->rects);
    for (int a = 0; a < 4; a++)
        for (int k = 0; k < 64; k++) free(F->tic_text[a][k]);
    pv_free(ctx, F->key, F->capkey * sizeof *F->key);
    pv_frame_fini(&F->frame);
}

/* gnuplot's corner poles (check_corner_height): the z extremes of the first and last
 * point of the first and last scan of every data surface with grid topology (equal scan
 * lengths; a function surface's grid scans), where such a point lies inside the ranges at a corner of the xy box. */
static void corner_poles(const pv_scene_elem *e, int n, const frame_ranges *fr, pv_frame_spec *fs)
{
    for (int k = 0; k < n; k++) {
        const pv_scene_elem *el = &e[k];
        if (el->kind != PV_SCENE_POINTS && el->kind != PV_SCENE_LINES && el->kind != PV_SCENE_PM3D)
            continue;
        size_t nscan = el->grid_scans > 0 && el->grid_scans < el->nscan ? el->grid_scans : el->nscan;
        if (nscan < 2 || el->scan[0] == 0) continue;
        size_t len = el->scan[0];
        bool grid = true;
        for (size_t sc = 1; sc < nscan && grid; sc++) grid = el->scan[sc] - el->scan[sc - 1] == len;
        if (!grid) continue;
        size_t last = el->scan[nscan - 2];
        size_t rows[4] = {0, len - 1, last, last + len - 1};
        for (int c = 0; c < 4; c++) {
            const double *v = el->vals + rows[c] * (size_t)el->ncols;
            if (!in_ranges(fr, v)) continue;
            const double zero = 1e-8; /* gnuplot's `set zero` */
            bool cx = fabs(v[0] - fr->min[0]) < zero || fabs(v[0] - fr->max[0]) < zero;
            bool cy = fabs(v[1] - fr->min[1]) < zero || fabs(v[1] - fr->max[1]) < zero;
            if (!cx || !cy) continue;
            int i = (v[0] - fr->min[0]) / (fr->max[0] - fr->min[0]) > 0.9 ? 1 : 0;
            int j = (v[1] - fr->min[1]) / (fr->max[1] - fr->min[1]) > 0.9 ? 1 : 0;
            fs->pole_zmin[i][j] = fmin(fs->pole_zmin[i][j], v[2]);
            fs->pole_zmax[i][j] = fmax(fs->pole_zmax[i][j], v[2]);
        }
    }
}

/* A colour filled with the fill style f as pngcairo draws it, as 0xAARRGGBB: transparent,
 * or lightened toward white (solid D < 1). Key box samples and rectangles. */
static uint32_t fill_argb(const pv_fill *f, pv_rgba8 c)
{
    c = pv_scene_fill_lighten(f, c);
    uint32_t argb = (uint32_t)c.r << 16 | (uint32_t)c.g << 8 | c.b;
    if (f->kind == PV_FILL_SOLID && f->transparent) {
        double d = f->density < 0 ? 0 : f->density > 1 ? 1 : f->density;
        argb |= (uint32_t)lrint(255.0 * (1.0 - d)) << 24;
    }
    return argb;
}

/* gnuplot's key sample of `lc palette` (and, as gnuplot does it, `lc rgb variable`) data:
 * the gray range of the element's colour values at its points inside the x/y/z ranges,
 * clamped to the cb range (no such point: no sample). */
static void key_gradient(const pv_scene_elem *el, const frame_ranges *fr,
                         const pv_scene_colors *C, pv_key_entry *ke)
{
    pv_scene_cols kc = pv_scene_columns(el);
    double lo = HUGE_VAL, hi = -HUGE_VAL;
    for (size_t r = 0; r < el->nrows; r++) {
        const double *v = el->vals + r * (size_t)el->ncols;
        double cv = kc.color >= 0 ? v[kc.color] : v[2];
        if (!in_ranges(fr, v) || !isfinite(cv)) continue;
        lo = fmin(lo, cv), hi = fmax(hi, cv);
    }
    if (lo > hi) {
        ke->sample = PV_KS_NONE;
        return;
    }
    ke->gradient = true;
    if (el->st.lp.lc.kind == PV_COLOR_RGB_VARIABLE) {
        /* gnuplot autoscales its cb axis over the rgb values themselves: the sample runs
         * through the whole palette (an empty range widens around its one value) */
        ke->gray_from = lo < hi ? 0.0 : 0.5;
        ke->gray_to = lo < hi ? 1.0 : 0.5;
        return;
    }
    lo = fmax(lo, fr->min[3]), hi = fmin(hi, fr->max[3]);
    ke->gray_from = pv_pal_gray(&C->pal, lo, fr->min[3], fr->max[3]);
    ke->gray_to = pv_pal_gray(&C->pal, hi, fr->min[3], fr->max[3]);
}

/* A fixed colour (text, label points) as 0xAARRGGBB; `dflt` for the element-dependent
 * kinds. */
static uint32_t fixed_argb(const pv_settings *s, const pv_scene_colors *C, const pv_color *c,
                           double cbmin, double cbmax, uint32_t dflt)
{
    switch (c->kind) {
    case PV_COLOR_RGB: return c->argb;
    case PV_COLOR_LT: return c->lt > 0 ? pv_settings_lt_rgb(s, c->lt) & 0xFFFFFFu : 0;
    case PV_COLOR_PALETTE_FRAC: return pv_pal_rgb8(&C->pal, c->value);
    case PV_COLOR_PALETTE_CB: return pv_pal_color(&C->pal, c->value, cbmin, cbmax);
    case PV_COLOR_BGND: return C->background & 0xFFFFFFu;
    case PV_COLOR_BLACK: return 0;
    default: return dflt;
    }
}

/* One coordinate of a label position in world units (plot systems) or terminal units
 * (screen, character), as gnuplot's map3d_getposition. */
static double coord(const frame_ctx *F, const frame_ranges *fr, int a, pv_coord_sys sys, double v)
{
    switch (sys) {
    case PV_SYS_GRAPH: return fr->min[a] + v * (fr->max[a] - fr->min[a]);
    case PV_SYS_SCREEN: return v * ((a == 0 ? F->term.xmax : F->term.ymax) - 1) + 0.5;
    case PV_SYS_CHARACTER: return v * (a == 0 ? F->term.h_char : F->term.v_char) + 0.5;
    default: return axis_space(fr, a, v);
    }
}

static bool is_2d_sys(pv_coord_sys s) { return s == PV_SYS_SCREEN || s == PV_SYS_CHARACTER; }

/* One position of an object in terminal units. A 2D plot places x and y each in its own
 * system (first on the x or y axis, graph on the plot box, screen, character); in 3D a
 * position is either wholly on the screen (screen, character) or wholly in the plot
 * (first, graph), projected. False where it cannot be placed. */
static bool object_term(const frame_ctx *F, const frame_ranges *fr, bool plot2d, const double p[3],
                        const pv_coord_sys sys[3], double *tx, double *ty)
{
    const pv_termdim *t = &F->term;
    const pv_view3d *v = &F->view;
    double out[2];
    bool flat[2] = {is_2d_sys(sys[0]), is_2d_sys(sys[1])};
    if (!plot2d && flat[0] != flat[1]) return false;
    if (!plot2d && !flat[0]) {
        double w[3];
        for (int a = 0; a < 3; a++) w[a] = coord(F, fr, a, sys[a], p[a]);
        if (!isfinite(w[0]) || !isfinite(w[1]) || !isfinite(w[2])) return false;
        pv_view_term(v, w[0], w[1], w[2], tx, ty);
        return true;
    }
    for (int a = 0; a < 2; a++) {
        double span = a == 0 ? t->xmax - 1 : t->ymax - 1;
        switch (sys[a]) {
        case PV_SYS_SCREEN: out[a] = p[a] * span; break;
        case PV_SYS_CHARACTER: out[a] = p[a] * (a == 0 ? t->h_char : t->v_char); break;
        case PV_SYS_GRAPH:
            out[a] = a == 0 ? v->box2d.xleft + p[a] * (v->box2d.xright - v->box2d.xleft)
                            : v->box2d.ybot + p[a] * (v->box2d.ytop - v->box2d.ybot);
            break;
        default: {
            double w = axis_space(fr, a, p[a]), x, y;
            if (!isfinite(w)) return false;
            pv_view_term(v, a == 0 ? w : fr->min[0], a == 1 ? w : fr->min[1], 0.5, &x, &y);
            out[a] = a == 0 ? x : y;
        }
        }
    }
    *tx = out[0], *ty = out[1];
    return true;
}

/* A length of axis a (x 0, y 1) at position p in terminal units: the first-axis distance
 * from p to p + len (gnuplot's object sizes), or the graph / screen fraction. */
static double object_len(const frame_ctx *F, const frame_ranges *fr, bool plot2d, int a,
                         pv_coord_sys sys, double p, double len)
{
    const pv_termdim *t = &F->term;
    const pv_view3d *v = &F->view;
    switch (sys) {
    case PV_SYS_SCREEN: return len * (a == 0 ? t->xmax - 1 : t->ymax - 1);
    case PV_SYS_CHARACTER: return len * (a == 0 ? t->h_char : t->v_char);
    case PV_SYS_GRAPH:
        if (plot2d)
            return len * (a == 0 ? v->box2d.xright - v->box2d.xleft : v->box2d.ytop - v->box2d.ybot);
        return len * (a == 0 ? v->xscaler : v->yscaler);
    default: {
        double w0 = axis_space(fr, a, p), w1 = axis_space(fr, a, p + len), x0, y0, x1, y1;
        if (!isfinite(w0) || !isfinite(w1)) return NAN;
        double b[3] = {fr->min[0], fr->min[1], fr->min[2]};
        b[a] = w0;
        pv_view_term(v, b[0], b[1], b[2], &x0, &y0);
        b[a] = w1;
        pv_view_term(v, b[0], b[1], b[2], &x1, &y1);
        return hypot(x1 - x0, y1 - y0);
    }
    }
}

/* Clip the polygon (x, y)[0..n) to the box [x0,x1] x [y0,y1] (Sutherland-Hodgman); the
 * result replaces it (n at most doubles: the arrays hold 2 n + 8). */
static int clip_to_box(double *x, double *y, int n, double x0, double y0, double x1, double y1)
{
    double *tx = malloc((size_t)(2 * n + 8) * 2 * sizeof *tx);
    if (!tx) return 0;
    double *ty = tx + 2 * n + 8;
    for (int edge = 0; edge < 4 && n >= 3; edge++) {
        int m = 0;
        for (int k = 0; k < n; k++) {
            double ax = x[k], ay = y[k], bx = x[(k + 1) % n], by = y[(k + 1) % n];
            double da = edge == 0 ? ax - x0 : edge == 1 ? x1 - ax : edge == 2 ? ay - y0 : y1 - ay;
            double db = edge == 0 ? bx - x0 : edge == 1 ? x1 - bx : edge == 2 ? by - y0 : y1 - by;
            if (da >= 0) tx[m] = ax, ty[m++] = ay;
            if ((da >= 0) != (db >= 0)) {
                double u = da / (da - db);
                tx[m] = ax + u * (bx - ax), ty[m++] = ay + u * (by - ay);
            }
        }
        memcpy(x, tx, (size_t)m * sizeof *x);
        memcpy(y, ty, (size_t)m * sizeof *y);
        n = m;
    }
    free(tx);
    return n >= 3 ? n : 0;
}

/* `set object`s as gnuplot draws them: in a 2D plot every kind in any coordinates, the
 * ones given in plot coordinates clipped to the plot box; in 3D rectangles, circles and
 * ellipses placed on the screen, and polygons on the screen or in the plot (projected);
 * each in the behind, back or front layer. Needs the view (F->view). */
static pv_status frame_objects(pv_interp *I, frame_ctx *F, const frame_ranges *fr,
                               const pv_scene_colors *C, bool plot2d)
{
    const pv_settings *s = I->set;
    if (s->nobjects == 0) return PV_OK;
    F->rects = pv_calloc(I->ctx, (size_t)s->nobjects, sizeof *F->rects);
    if (!F->rects) return I->ctx->err_code;
    F->caprects = s->nobjects;
    F->nrects = 0;
    const pv_plot2d_box *b = &F->view.box2d;
    for (int k = 0; k < s->nobjects; k++) {
        const pv_object *o = &s->objects[k];
        if (o->layer == PV_OBJ_DEPTHORDER) continue;
        /* the outline in terminal units */
        int cap = o->kind == PV_OBJ_POLYGON ? o->nv : o->kind == PV_OBJ_RECT ? 4 : 128;
        if (cap < 2) continue;
        double *vx = malloc((size_t)(2 * cap + 8) * 2 * sizeof *vx);
        if (!vx) return pv_err(I->ctx, PV_ENOMEM, "out of memory");
        double *vy = vx + 2 * cap + 8;
        int n = 0;
        bool ok = true, in_plot = false, closed = true;
        if (o->kind == PV_OBJ_RECT) {
            double x0, y0, x1, y1;
            if (o->centred) {
                ok = object_term(F, fr, plot2d, o->p1, o->sys1, &x0, &y0);
                double w = object_len(F, fr, plot2d, 0, o->sys2[0], o->p1[0] - o->p2[0] / 2, o->p2[0]);
                double h = object_len(F, fr, plot2d, 1, o->sys2[1], o->p1[1] - o->p2[1] / 2, o->p2[1]);
                x0 -= w / 2, y0 -= h / 2, x1 = x0 + w, y1 = y0 + h;
                ok = ok && isfinite(w) && isfinite(h);
            } else {
                ok = object_term(F, fr, plot2d, o->p1, o->sys1, &x0, &y0) &&
                     object_term(F, fr, plot2d, o->p2, o->sys2, &x1, &y1);
            }
            /* gnuplot draws 3D rectangles given on the screen only */
            ok = ok && (plot2d || (is_2d_sys(o->sys1[0]) && (o->centred || is_2d_sys(o->sys2[0]))));
            vx[0] = x0, vy[0] = y0, vx[1] = x1, vy[1] = y1;
            n = 2;
        } else if (o->kind == PV_OBJ_CIRCLE || o->kind == PV_OBJ_ELLIPSE) {
            double cx, cy;
            ok = object_term(F, fr, plot2d, o->p1, o->sys1, &cx, &cy) &&
                 (plot2d || is_2d_sys(o->sys1[0]));
            /* circle: the radius along x, round on the screen; ellipse: its axes in plot
             * units, rotated there, then each offset scaled by its axis (units xy, as
             * gnuplot's do_ellipse) or both by x (xx) or y (yy) */
            double ra, rb, sx = 1.0, sy = 1.0;
            if (o->kind == PV_OBJ_CIRCLE) {
                ra = rb = object_len(F, fr, plot2d, 0, o->sys2[0], o->p1[0], o->p2[0]);
            } else {
                ra = o->p2[0] / 2, rb = o->p2[1] / 2;
                double ux = object_len(F, fr, plot2d, 0, o->sys2[0], o->p1[0], 1.0);
                double uy = object_len(F, fr, plot2d, 1, o->sys2[1], o->p1[1], 1.0);
                sx = o->units == 2 ? uy : ux;
                sy = o->units == 1 ? ux : uy;
            }
            ok = ok && isfinite(ra) && isfinite(rb) && isfinite(sx) && isfinite(sy);
            const double deg = 3.14159265358979323846 / 180.0;
            if (o->kind == PV_OBJ_CIRCLE) {
                /* gnuplot's do_arc: an integer centre, a vertex every 3 degrees from
                 * the arc's start and one at its end; a partial arc closes through the
                 * centre (its wedge), which `nowedge` leaves out of the outline */
                double a0 = o->arc[0], a1 = o->arc[1];
                while (a0 < 0) a0 += 360.0;
                while (a1 > 360.0) a1 -= 360.0;
                while (a1 < a0) a1 += 360.0;
                int icx = (int)cx, icy = (int)cy, segs = (int)((a1 - a0) / 3.0);
                if (segs < 1) segs = 1;
                if (segs > 120) segs = 120;
                for (int q = 0; q < segs; q++) {
                    vx[n] = icx + cos(deg * (a0 + q * 3.0)) * ra;
                    vy[n++] = icy + sin(deg * (a0 + q * 3.0)) * ra;
                }
                vx[n] = icx + cos(deg * a1) * ra, vy[n++] = icy + sin(deg * a1) * ra;
                bool full = !(fabs(a1 - a0) > 0.1 && fabs(a1 - a0) < 359.9);
                closed = full || o->wedge;
                if (!full && o->wedge) vx[n] = icx, vy[n++] = icy;
            } else {
                /* gnuplot's do_ellipse: 72 steps of 5 degrees, rotated in plot units */
                double co = cos(deg * o->angle), si = sin(deg * o->angle);
                for (int q = 0; q <= 72; q++) {
                    double t = q * 3.14159265358979323846 / 36.0;
                    double ex = ra * co * cos(t) - rb * si * sin(t);
                    double ey = ra * si * cos(t) + rb * co * sin(t);
                    vx[n] = cx + ex * sx, vy[n++] = cy + ey * sy;
                }
            }
        } else { /* polygon */
            double prev[3] = {0, 0, 0};
            for (int q = 0; q < o->nv && ok; q++) {
                double p[3];
                for (int a = 0; a < 3; a++) p[a] = o->vrel[q] ? prev[a] + o->v[q][a] : o->v[q][a];
                memcpy(prev, p, sizeof prev);
                ok = object_term(F, fr, plot2d, p, o->vsys[q], &vx[n], &vy[n]);
                n++;
            }
        }
        for (int a = 0; a < 2; a++)
            in_plot = in_plot || (!is_2d_sys(o->sys1[a]) && o->kind != PV_OBJ_POLYGON);
        for (int q = 0; q < o->nv && o->kind == PV_OBJ_POLYGON; q++)
            in_plot = in_plot || !is_2d_sys(o->vsys[q][0]) || !is_2d_sys(o->vsys[q][1]);
        if (!ok) {
            free(vx);
            continue;
        }
        /* gnuplot clips a 2D object given in plot coordinates to the plot box */
        if (plot2d && in_plot && o->kind != PV_OBJ_RECT) {
            n = clip_to_box(vx, vy, n, b->xleft, b->ybot, b->xright, b->ytop);
            if (n == 0) {
                free(vx);
                continue;
            }
        }
        pv_frame_rect *r = &F->rects[F->nrects++];
        r->layer = o->layer == PV_OBJ_BEHIND ? -1 : o->layer == PV_OBJ_FRONT ? 1 : 0;
        if (o->kind == PV_OBJ_RECT) {
            r->x0 = vx[0], r->y0 = vy[0], r->x1 = vx[1], r->y1 = vy[1];
            if (plot2d && in_plot) { /* clipped to the box */
                double lx = fmax(fmin(r->x0, r->x1), b->xleft), hx = fmin(fmax(r->x0, r->x1), b->xright);
                double ly = fmax(fmin(r->y0, r->y1), b->ybot), hy = fmin(fmax(r->y0, r->y1), b->ytop);
                r->x0 = lx, r->x1 = hx, r->y0 = ly, r->y1 = hy;
                if (!(lx < hx && ly < hy)) r->x1 = r->x0; /* nothing left */
            }
            free(vx);
        } else {
            r->nv = n;
            r->vx = vx, r->vy = vy;
        }
        const pv_fill *fs = &o->fill;
        /* a rectangle's default fill is the background with a black border; the other
         * kinds are drawn in their `fc` (gnuplot's object colour), border included unless
         * the fill style names its colour */
        uint32_t fc = fixed_argb(s, C, &o->fc, 0, 1, C->background) & 0xFFFFFFu;
        r->fill = fs->kind == PV_FILL_SOLID;
        r->fill_argb = fill_argb(fs, pv_scene_rgba(fc));
        r->border = fs->border;
        r->border_rgb = fixed_argb(s, C, &fs->border_color, 0, 1, 0) & 0xFFFFFFu;
        if (o->kind != PV_OBJ_RECT && fs->border_color.kind == PV_COLOR_DEFAULT)
            r->border_rgb = o->fc.kind == PV_COLOR_BGND ? 0u : fc;
        r->lw = o->lw > 0 ? o->lw : 1.0;
        r->closed = closed;
        r->twice = !r->fill && o->kind != PV_OBJ_RECT; /* measured: darker, as stroked twice */
    }
    F->spec.rects = F->rects;
    F->spec.nrects = F->nrects;
    return PV_OK;
}

/* `set label`s -> frame labels. A label mixing screen or character with plot coordinates
 * is left out with a warning (gnuplot refuses it). */
/* `set arrow`s: ends in terminal units (screen, character) or as world points (first,
 * graph); an end mixing the two, or given by length and angle, is named and left out. */
static pv_status frame_arrows(pv_interp *I, frame_ctx *F, const frame_ranges *fr,
                              const pv_scene_colors *C)
{
    const pv_settings *s = I->set;
    if (s->narrows == 0) return PV_OK;
    F->arrows = pv_calloc(I->ctx, (size_t)s->narrows, sizeof *F->arrows);
    if (!F->arrows) return I->ctx->err_code;
    int n = 0;
    for (int k = 0; k < s->narrows; k++) {
        const pv_arrow *a = &s->arrows[k];
        pv_frame_arrow *o = &F->arrows[n];
        const double *pos[2] = {a->from, a->to};
        const pv_coord_sys *sys[2] = {a->from_sys, a->to_sys};
        bool ok = !a->polar_form;
        for (int e = 0; e < 2 && ok; e++) {
            bool screen = is_2d_sys(sys[e][0]) && is_2d_sys(sys[e][1]);
            bool plot = !is_2d_sys(sys[e][0]) && !is_2d_sys(sys[e][1]) && !is_2d_sys(sys[e][2]);
            ok = screen || plot;
            o->screen[e] = screen;
            for (int ax = 0; ax < 3; ax++) {
                double v = pos[e][ax];
                /* `rto`: an offset in its own system from the start */
                if (e == 1 && a->relative) {
                    double base = F->arrows[n].at[0][ax];
                    if (sys[1][ax] == PV_SYS_GRAPH) v *= fr->max[ax] - fr->min[ax];
                    else if (sys[1][ax] == PV_SYS_SCREEN)
                        v *= (ax == 0 ? F->term.xmax : F->term.ymax) - 1;
                    else if (sys[1][ax] == PV_SYS_CHARACTER)
                        v *= ax == 0 ? F->term.h_char : F->term.v_char;
                    o->at[1][ax] = base + v;
                    continue;
                }
                o->at[e][ax] = coord(F, fr, ax, sys[e][ax], v);
            }
        }
        if (a->relative) o->screen[1] = o->screen[0];
        if (!ok) {
            pv_log(I->ctx, PV_LOG_WARN, "plot", "arrow %d is not drawn: %s", a->tag,
                   a->polar_form ? "it is given by length and angle"
                                 : "an end mixes screen or character coordinates with plot "
                                   "coordinates");
            continue;
        }
        o->heads = a->heads;
        o->fill = a->fill;
        o->head_len = a->head_given ? a->head_size[0] : 0.0;
        o->head_sys = a->head_sys[0] == PV_SYS_GRAPH       ? 1
                      : a->head_sys[0] == PV_SYS_SCREEN    ? 2
                      : a->head_sys[0] == PV_SYS_CHARACTER ? 3 : 0;
        o->head_angle = a->head_angle;
        o->head_back = a->head_back;
        o->argb = fixed_argb(s, C, &a->lp.lc, fr->min[3], fr->max[3], 0) & 0xFFFFFFu;
        o->lw = a->lp.lw > 0 ? a->lp.lw : 1.0;
        o->front = a->front;
        n++;
    }
    F->narrows = s->narrows; /* the allocation's size (pv_free) */
    F->spec.arrows = F->arrows;
    F->spec.narrows = n;
    return PV_OK;
}

/* `with labels`: each row's text at its point inside the ranges, in front of the data
 * (gnuplot draws them with their plot, over what was drawn before), after `set label`s
 * (slots from `first`). */
static void data_labels(pv_interp *I, frame_ctx *F, const frame_ranges *fr,
                        const pv_scene_colors *C, const pv_scene_elem *e, int n, int first)
{
    int k = first;
    for (int j = 0; j < n; j++) {
        const pv_scene_elem *el = &e[j];
        if (el->kind != PV_SCENE_POINTS || el->st.style != PV_STYLE_LABELS) continue;
        uint32_t argb = fixed_argb(I->set, C, &el->st.tc, fr->min[3], fr->max[3], 0);
        for (size_t r = 0; r < el->nrows && r < el->ntexts; r++) {
            const double *v = el->vals + r * (size_t)el->ncols;
            if (!in_ranges(fr, v)) continue;
            pv_frame_label *o = &F->labels[k++];
            o->text = el->texts[r];
            for (int a = 0; a < 3; a++) o->at[a] = v[a];
            o->just = el->st.label_just;
            o->angle = el->st.label_angle;
            o->argb = argb;
            o->offset[0] = el->st.label_offset[0];
            o->offset[1] = el->st.label_offset[1];
            o->noenhanced = el->st.noenhanced;
            o->front = true;
            o->pt = -1;
        }
    }
    F->spec.nlabels = k;
}

static pv_status frame_labels(pv_interp *I, frame_ctx *F, const frame_ranges *fr,
                              const pv_scene_colors *C, const pv_scene_elem *e, int n)
{
    const pv_settings *s = I->set;
    size_t total = (size_t)s->nlabels;
    for (int j = 0; j < n; j++)
        if (e[j].kind == PV_SCENE_POINTS && e[j].st.style == PV_STYLE_LABELS)
            total += e[j].ntexts;
    if (total == 0) return PV_OK;
    F->labels = pv_calloc(I->ctx, total, sizeof *F->labels);
    if (!F->labels) return I->ctx->err_code;
    F->nlabels = (int)total;
    for (int k = 0; k < s->nlabels; k++) {
        const pv_label *l = &s->labels[k];
        pv_frame_label *o = &F->labels[k];
        bool screen = is_2d_sys(l->sys[0]) && is_2d_sys(l->sys[1]);
        bool plot = !is_2d_sys(l->sys[0]) && !is_2d_sys(l->sys[1]) && !is_2d_sys(l->sys[2]);
        /* with hidden3d gnuplot paints no surface, so back labels stay visible; pvox's
         * opaque surfaces would cover them: draw them in front */
        o->front = l->front || s->hidden3d;
        o->pt = -1;
        if (!screen && !plot) {
            pv_log(I->ctx, PV_LOG_WARN, "plot", "label %d is not drawn: it mixes screen or character coordinates "
                            "with plot coordinates", l->tag);
            continue;
        }
        o->text = l->text;
        o->screen = screen;
        for (int a = 0; a < 3; a++) o->at[a] = coord(F, fr, a, l->sys[a], l->at[a]);
        if (l->sys[0] == PV_SYS_POLAR) { /* theta, r on the x-y plane */
            double th = l->at[0] * (s->angles_degrees ? 3.14159265358979323846 / 180.0 : 1.0);
            o->at[0] = l->at[1] * cos(th);
            o->at[1] = l->at[1] * sin(th);
        }
        o->just = l->just;
        o->angle = l->rotate;
        o->argb = fixed_argb(s, C, &l->tc, fr->min[3], fr->max[3], 0);
        o->offset[0] = l->offset[0];
        o->offset[1] = l->offset[1];
        o->noenhanced = !l->enhanced;
        if (l->point) {
            const pv_lp *lp = &l->point_lp;
            o->pt = lp->pt >= 0 ? lp->pt : 1; /* gnuplot's label point: pt 1 */
            o->ps = lp->ps > 0 ? lp->ps : 1.0;
            o->point_lw = lp->lw > 0 ? lp->lw : 1.0;
            o->point_argb = fixed_argb(s, C, &lp->lc, fr->min[3], fr->max[3], 0);
        }
    }
    F->spec.labels = F->labels;
    data_labels(I, F, fr, C, e, n, s->nlabels);
    return PV_OK;
}

static pv_status setup_frame(pv_interp *I, const pv_scene_elem *e, int n, const frame_ranges *fr,
                             const pv_scene_colors *C, bool plot2d, frame_ctx *F)
{
    const pv_settings *s = I->set;
    double font_pt = (s->term.font_size > 0 ? s->term.font_size : 12.0) *
                     (s->term.fontscale > 0 ? s->term.fontscale : 1.0);
    pv_termdim_pngcairo(&F->term, s->term.width, s->term.height, font_pt);
    F->term.linewidth = s->term.linewidth > 0 ? s->term.linewidth : 1.0;

    pv_frame_spec *fs = &F->spec;
    pv_frame_spec_default(fs);
    fs->border = s->border;
    fs->border_back = s->border_layer != PV_LAYER_FRONT;
    fs->border_rgb = s->border_lp.lc.kind == PV_COLOR_RGB ? (s->border_lp.lc.argb & 0xFFFFFFu) : 0;
    fs->border_lw = s->border_lp.lw > 0 ? s->border_lp.lw : 1.0;
    for (int a = 0; a < 3; a++) fs->grid.on[a] = s->grid.major[a];
    fs->grid.lw = s->grid.lp.lw > 0 ? s->grid.lp.lw : 0.5;
    fs->grid.dotted = s->grid.lp.lt == 0; /* gnuplot's axis linetype unless lt N given */
    fs->grid.rgb = fixed_argb(s, C, &s->grid.lp.lc, fr->min[3], fr->max[3], 0) & 0xFFFFFFu;
    fs->grid.layer = s->grid.layer;
    for (int a = 0; a < 3; a++) {
        const pv_lp *lp = &s->zeroaxis[a].lp;
        fs->zeroaxis[a].on = s->zeroaxis[a].on;
        fs->zeroaxis[a].lw = lp->lw > 0 ? lp->lw : 1.0;
        fs->zeroaxis[a].dotted = lp->lt == 0; /* gnuplot's axis linetype unless lt given */
        fs->zeroaxis[a].rgb = fixed_argb(s, C, &lp->lc, fr->min[3], fr->max[3], 0) & 0xFFFFFFu;
    }
    /* a zero axis needs a linear axis across it (0 has no place on a log axis) */
    if (fr->log_base[1] > 0.0 || (fr->log_base[2] > 0.0 && !plot2d)) fs->zeroaxis[0].on = false;
    if (fr->log_base[0] > 0.0 || (fr->log_base[2] > 0.0 && !plot2d)) fs->zeroaxis[1].on = false;
    if (fr->log_base[0] > 0.0 || fr->log_base[1] > 0.0) fs->zeroaxis[2].on = false;
    F->cb_log = fr->cb_log;
    if (s->surface && !plot2d) corner_poles(e, n, fr, fs);
    for (int a = 0; a < 4; a++) {
        if (a == PV_AX_Z && plot2d) {
            fs->axis[a].tics = false;
            continue;
        }
        tics_for(I, F, C, a, fr->min[a], fr->max[a], fr->step[a], a <= 2 ? fr->log_base[a] : 0.0);
    }
    fs->title = s->title.text && s->title.text[0] ? s->title.text : NULL;
    fs->title_argb = fixed_argb(s, C, &s->title.tc, fr->min[3], fr->max[3], 0);
    fs->title_noenhanced = !s->title.enhanced;
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
        F->key = pv_calloc(I->ctx, (size_t)n, sizeof *F->key);
        if (!F->key) return I->ctx->err_code;
        F->capkey = (size_t)n;
        for (int k = 0; k < n; k++) {
            const pv_scene_elem *el = &e[k];
            if (el->kind == PV_SCENE_SKIPPED || !el->title || !el->title[0]) continue;
            pv_key_entry *ke = &F->key[F->nkey++];
            ke->title = el->title;
            ke->noenhanced = el->st.noenhanced || !s->key.enhanced;
            for (int j = k; s->view.map && j < n && !ke->behind; j++)
                ke->behind = e[j].kind == PV_SCENE_PM3D || e[j].kind == PV_SCENE_ISO;
            ke->lw = el->st.lp.lw;
            if (el->kind == PV_SCENE_PM3D || el->kind == PV_SCENE_IMAGE) {
                ke->sample = PV_KS_NONE; /* gnuplot 5.4 draws no sample for pm3d, images */
            } else if (el->kind == PV_SCENE_ISO) {
                /* a box in the front colour, outlined in it (gnuplot's isosurface key) */
                ke->sample = PV_KS_BOX;
                pv_rgba8 c = el->st.lp.lc.kind == PV_COLOR_PALETTE_Z
                                 ? pv_scene_rgba(pv_pal_rgb8(&C->pal, 0.5))
                             : s->iso_inside_offset > 0
                                 ? pv_scene_rgba(C->lt_rgb(C->lt_ud, el->st.lp.lt > 0 ? el->st.lp.lt
                                                                                     : el->line_num))
                                 : pv_scene_item_color(C, el, (double)NAN, (double)NAN);
                ke->argb = (uint32_t)c.r << 16 | (uint32_t)c.g << 8 | c.b;
                ke->box_border = true;
                ke->border_argb = ke->argb;
                ke->argb = fill_argb(el->st.has_fill ? &el->st.fill : &s->fill, c);
            } else if (el->kind == PV_SCENE_BOXES) {
                /* a box in the fill (outlined in the line colour), gnuplot's boxes key */
                pv_rgba8 c = pv_scene_item_color(C, el, (double)NAN, (double)NAN);
                const pv_fill *bf = el->st.has_fill ? &el->st.fill : &s->fill;
                ke->sample = PV_KS_BOX;
                ke->argb = bf->kind == PV_FILL_EMPTY ? 0xFF000000u : fill_argb(bf, c);
                ke->box_border = bf->border || bf->kind == PV_FILL_EMPTY;
                pv_rgba8 bc = c;
                if (bf->border_color.kind != PV_COLOR_DEFAULT) {
                    pv_scene_elem tmp = *el;
                    tmp.st.lp.lc = bf->border_color;
                    bc = pv_scene_item_color(C, &tmp, (double)NAN, (double)NAN);
                }
                ke->border_argb = (uint32_t)bc.r << 16 | (uint32_t)bc.g << 8 | bc.b;
            } else if (el->kind == PV_SCENE_POLYGONS) {
                /* a box filled as the polygons are */
                pv_scene_elem tmp = *el;
                if (el->st.fc.kind != PV_COLOR_DEFAULT) tmp.st.lp.lc = el->st.fc;
                pv_rgba8 c = pv_scene_item_color(C, &tmp, (double)NAN, (double)NAN);
                ke->sample = PV_KS_BOX;
                ke->argb = fill_argb(el->st.has_fill ? &el->st.fill : &s->fill, c);
            } else if (el->st.style == PV_STYLE_LABELS) {
                ke->sample = PV_KS_NONE; /* gnuplot: a sample only with `point` */
            } else {
                bool errorlines = el->st.style == PV_STYLE_XERRORLINES ||
                                  el->st.style == PV_STYLE_YERRORLINES ||
                                  el->st.style == PV_STYLE_XYERRORLINES;
                ke->errorbar = el->kind == PV_SCENE_ERRORBARS && el->grid_scans == 0;
                ke->sample = errorlines                            ? PV_KS_LINEPOINT
                             : el->kind != PV_SCENE_LINES            ? PV_KS_POINT
                             : el->st.style == PV_STYLE_LINESPOINTS ? PV_KS_LINEPOINT
                                                                    : PV_KS_LINE;
                ke->pt = el->st.style == PV_STYLE_DOTS ? 0
                         : el->st.lp.pt >= 0 ? el->st.lp.pt : el->st.lp.pt == -2 ? el->line_num : -1;
                ke->ps = el->st.lp.ps > 0 ? el->st.lp.ps : 1.0;
                /* a palette-coloured sample takes gray 0.5, as in gnuplot */
                pv_rgba8 c = el->st.lp.lc.kind == PV_COLOR_PALETTE_Z
                                 ? pv_scene_rgba(pv_pal_rgb8(&C->pal, 0.5))
                                 : pv_scene_item_color(C, el, (double)NAN, (double)NAN);
                ke->argb = (uint32_t)(255 - c.a) << 24 | (uint32_t)c.r << 16 |
                           (uint32_t)c.g << 8 | c.b;
                /* palette-coloured data (not voxels, not impulses): gnuplot's gradient
                 * sample over the element's own colour values inside the box */
                if ((el->st.lp.lc.kind == PV_COLOR_PALETTE_Z ||
                     el->st.lp.lc.kind == PV_COLOR_RGB_VARIABLE) &&
                    (el->kind == PV_SCENE_POINTS || el->kind == PV_SCENE_LINES) &&
                    el->st.style != PV_STYLE_IMPULSES)
                    key_gradient(el, fr, C, ke);
            }
        }
        fs->key = F->key;
        fs->nkey = F->nkey;
    }
    fs->colorbox = fr->uses_palette && s->colorbox.on;
    fs->colorbox_border = s->colorbox.border;
    /* gnuplot draws the colour box bands with the current `set style fill` */
    if (s->fill.kind == PV_FILL_SOLID) {
        int pct = (int)(s->fill.density * 100.0 + 0.5);
        if (s->fill.transparent) fs->cbox_opacity = pct / 100.0;
        else fs->cbox_density = pct / 100.0;
    }
    fs->pal = &C->pal;
    fs->cbmin = fr->min[3];
    fs->cbmax = fr->max[3];

    pv_status ls = frame_labels(I, F, fr, C, e, n);
    if (ls == PV_OK) ls = frame_arrows(I, F, fr, C);
    if (ls != PV_OK) return ls;

    pv_view3d_params vp;
    memset(&vp, 0, sizeof vp);
    vp.term = F->term;
    vp.map = s->view.map;
    vp.map_colorbox = s->view.map && fs->colorbox && !s->colorbox.user;
    vp.rot_x = s->view.rot_x;
    vp.rot_z = s->view.rot_z;
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
    if (vp.xyplane_absolute && fr->log_base[2] > 0.0) { /* `at z` on a log z axis: its log */
        vp.xyplane_z = axis_space(fr, 2, s->xyplane_z);
        if (!isfinite(vp.xyplane_z)) /* not on the axis: at zmin (measured) */
            vp.xyplane_absolute = false, vp.xyplane_rel = 0.0;
    }
    vp.base_in_box = s->tics[PV_AX_X].on || s->tics[PV_AX_Y].on || (s->border & 15) != 0;
    vp.title_lines = pv_frame_title_lines(fs->title);
    fs->enhanced = s->term.enhanced;
    if (plot2d) {
        fs->key_margin = s->key.margin;
        fs->key_horizontal = !s->key.vertical;
        fs->key_maxcols = s->key.maxcols, fs->key_maxrows = s->key.maxrows;
        /* gnuplot's margin for `outside`: from the stacking and the justification */
        if (fs->key_outside && fs->key_margin == PV_KEYMARGIN_NONE) {
            if (!fs->key_horizontal)
                fs->key_margin = fs->key_hpos == PV_KEY_LEFT ? PV_KEYMARGIN_L
                                 : fs->key_hpos == PV_KEY_RIGHT ? PV_KEYMARGIN_R
                                 : fs->key_vpos == PV_KEY_TOP ? PV_KEYMARGIN_T : PV_KEYMARGIN_B;
            else
                fs->key_margin = fs->key_vpos == PV_KEY_TOP ? PV_KEYMARGIN_T
                                 : fs->key_vpos == PV_KEY_BOTTOM ? PV_KEYMARGIN_B
                                 : fs->key_hpos == PV_KEY_LEFT ? PV_KEYMARGIN_L : PV_KEYMARGIN_R;
        }
        vp.plot2d = true;
        pv_plot2d_layout(fs, &F->term, &vp.box2d);
    } else {
        int reserve = pv_frame_key_reserve(fs, &F->term);
        if (fs->key_hpos == PV_KEY_LEFT) vp.key_reserve_left = reserve;
        else vp.key_reserve_right = reserve;
    }
    pv_view3d_setup(&F->view, &vp);
    pv_status os = frame_objects(I, F, fr, C, plot2d);
    if (os != PV_OK) return os;
    if (!pv_frame_build(&F->frame, fs, &F->view))
        return pv_err(I->ctx, PV_ENOMEM, "out of memory building the frame");
    return PV_OK;
}

/* =====================================================================================
 * Output name (DEC-10)
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
                     "no `set output`: frames are written as %s, %s ... (README: DIFF-10)",
                     buf, "-NNN.png");
    } else if (dir && name[0] != '/' && name[0] != '|') {
        snprintf(buf, sizeof buf, "%s/%s", dir, name);
    } else {
        snprintf(buf, sizeof buf, "%s", name);
    }
    return strdup(buf);
}

/* =====================================================================================
 * Entry
 * ===================================================================================== */

/* The settings' linetype colours, for the scene's colour mapping. */
static uint32_t lt_rgb(const void *ud, int lt)
{
    return pv_settings_lt_rgb(ud, lt);
}

/* =====================================================================================
 * Isosurface frames: drawn in z steps
 * ===================================================================================== */

static bool has_iso(const pv_scene_elem *e, int n)
{
    for (int k = 0; k < n; k++)
        if (e[k].kind == PV_SCENE_ISO) return true;
    return false;
}

/* Wall time of a frame's drawing phases on this rank (its --stats record; the other
 * phases are timed where they run). */
typedef struct frame_times {
    double scene;     /* primitives: isosurface extraction, projection, adding to the raster */
    double raster;    /* rasterising and blending z steps */
} frame_times;

/* Blend `step` into `acc` (both full-canvas tiles), `step` in front if step_front.
 * PV_ENOMEM when acc has no room for a pixel's per-sample colours. */
static pv_status tile_accumulate(pv_ctx *ctx, pv_tile *acc, const pv_tile *step,
                                 bool step_front)
{
    int bx0, by0, bx1, by1;
    if (!pv_tile_bbox(step, &bx0, &by0, &bx1, &by1)) return PV_OK;
    bool ok = true;
    for (int y = by0; y < by1; y++) {
        size_t i0 = (size_t)y * (size_t)acc->w;
        for (size_t i = i0 + (size_t)bx0; i < i0 + (size_t)bx1; i++) {
            if (!step->mask[i]) continue;
            ok &= pv_composite_into(ctx, acc, i, step->rgba + 4 * i,
                                    step->cover + PV_RASTER_SAMPLES * i,
                                    pv_tile_rich(step, i), step_front);
            acc->mask[i] |= step->mask[i];
            if (step->depth[i] < acc->depth[i]) acc->depth[i] = step->depth[i];
        }
    }
    pv_tile_touch(acc, bx0, by0, bx1, by1);
    return ok ? PV_OK : ctx->err_code;
}

/* The frame with isosurfaces. The rank's slab is drawn in steps along z, one node plane
 * of the slab grid at a time, each step closing when the raster holds the triangle budget:
 * its facets and the other elements' share of that z range are rendered, then blended
 * into the rank's tile in visibility order (steps never interleave in depth, as slabs do
 * not: ARCH-7). Memory stays bounded whatever the triangle count. */
static pv_status draw_in_steps(pv_interp *I, pv_scene_frame *SF, const pv_scene_elem *e, int n,
                               const pv_grid *sg, pv_raster *r, pv_tile *tile, pv_status st,
                               uint64_t *ntris, frame_times *T)
{
    pv_ctx *ctx = I->ctx;
    pv_iso_passes P;
    pv_status sp = pv_iso_passes_open(ctx, &P, e, n, sg);
    if (st == PV_OK) st = sp;
    for (int p = 0; p < P.n && st == PV_OK; p++) /* a rotating view replays its polygons */
        pv_scene_iso_use_cache(ctx, &P.p[p].it, pv_frames_iso_cache(I, p, P.n), SF->iso_mixed);
    pv_frames *FR = I->frames;
    if (st == PV_OK && !FR->step) {
        FR->step = pv_tile_create(ctx, tile->canvas_w, tile->canvas_h, 0, 0, tile->w, tile->h);
        if (!FR->step) st = ctx->err_code ? ctx->err_code : PV_ENOMEM;
    }
    pv_tile *step = FR->step;
    if (st == PV_OK) pv_tile_clear(tile);
    /* the default keeps the raster's arrays (about 150 bytes a triangle while rendering)
     * under 2^19 entries, about 100 MB: well within what a rank may use beyond its slab */
    size_t budget = ctx->opt.batch_triangles > 0 ? (size_t)ctx->opt.batch_triangles : 500000;
    bool step_front = pv_view_z_facing(SF->view) >= 0; /* higher z nearer: later steps in front */
    double zlo = SF->zlo, zhi = SF->zhi, zcur = zlo;
    int64_t kk = sg->z0;
    bool first = true;
    while (st == PV_OK) {
        double t0 = MPI_Wtime();
        pv_raster_clear(r);
        double zb;
        do {
            /* the next node plane of the slab grid, or the end of the rank's slab */
            kk++;
            zb = kk < sg->z1 ? sg->min[2] + (double)kk * sg->delta[2] : zhi;
            if (zb > zhi) zb = zhi;
            /* the last step takes what remains (layers of another grid beyond the slab) */
            double bound = zb < zhi ? zb : HUGE_VAL;
            for (int p = 0; p < P.n && st == PV_OK; p++)
                st = pv_scene_iso_draw(ctx, SF, &P.p[p].it, bound, r);
        } while (st == PV_OK && zb < zhi && pv_raster_count_tris(r) < budget);
        if (st != PV_OK) break;
        bool last = !(zb < zhi);
        /* the other elements' share of [zcur, zb) */
        pv_scene_frame S2 = *SF;
        S2.zlo = zcur;
        S2.zhi = zb;
        S2.vclip = true;
        S2.vlo = first ? -HUGE_VAL : zcur;
        S2.vhi = last ? HUGE_VAL : zb;
        pv_raster_set_slab(r, zcur, zb);
        for (int k = 0; k < n && st == PV_OK; k++)
            if (e[k].kind != PV_SCENE_ISO) st = pv_scene_draw(ctx, &S2, &e[k], r);
        *ntris += pv_raster_count_tris(r);
        double t1 = MPI_Wtime();
        if (st == PV_OK) st = pv_raster_render(ctx, r, first ? tile : step);
        if (st == PV_OK && !first) st = tile_accumulate(ctx, tile, step, step_front);
        T->scene += t1 - t0;
        T->raster += MPI_Wtime() - t1;
        first = false;
        zcur = zb;
        if (last) break;
    }
    pv_iso_passes_close(ctx, &P);
    return st;
}

/* The writer's part of a frame: the frame layers drawn around the composited scene,
 * one 8-bit image, handed to the PNG thread (ARCH-13, frames.h). Not collective. */
static pv_status write_frame(pv_interp *I, const frame_ctx *F, const char *path, double *t_annot,
                             double *t_encode)
{
    pv_ctx *ctx = I->ctx;
    pv_frames *FR = I->frames;
    int W = F->term.width, H = F->term.height;
    double t0 = MPI_Wtime();
    pv_status st = pv_frames_writer_buffers(I);
    pv_annot_opts ao;
    pv_annot_opts_default(&ao);
    ao.background = I->set->term.background;
    if (st == PV_OK) st = pv_annotate_frame(ctx, &F->frame, &ao, FR->bg, FR->fg, W * 4);
    double t1 = MPI_Wtime();
    if (st == PV_OK) {
        /* the buffer the frame before last used: its job has ended (one job at a time) */
        uint8_t *rgb = FR->rgb[FR->count % 2];
        pv_layer lb = {FR->bg, (size_t)W * 4, PV_LAYER_ARGB32};
        pv_layer lf = {FR->fg, (size_t)W * 4, PV_LAYER_ARGB32};
        pv_composite_flatten(FR->tile, &lb, &lf, 3, rgb, (size_t)W * 3);
        /* settings.h's PV_PNGF_* numbers are png.h's PV_PNG_FILTER_* */
        pv_png_options po = {.level = I->set->term.png_level, .filter = I->set->term.png_filter,
                             .strategy = PV_PNG_STRATEGY_AUTO};
        st = pv_png_async_submit(ctx, FR->enc, path, W, H, 3, rgb, (size_t)W * 3, &po);
        FR->job = st == PV_OK;
    }
    *t_annot = t1 - t0;
    *t_encode = MPI_Wtime() - t1;
    return st;
}

/* A piece's figures as the writer gathers them: lo, hi, raw bytes, Adler-32, bytes,
 * non-empty pixels. */
#define PIECE_META 6

/* Every rank finishes its own piece of the composited picture at the same time (the
 * annotation's band of rows, 8 bits, deflate), and the writer gathers the deflated pieces
 * and writes the file (ARCH-22). Collective. Returns the agreed status of the pieces;
 * *ws is the writer's file status (PV_OK elsewhere), agreed with the next frame. */
static pv_status write_frame_pieces(pv_interp *I, const frame_ctx *F, const char *path,
                                    uint64_t lo, uint64_t hi, int level, pv_frame_open *rec,
                                    pv_status *ws)
{
    pv_ctx *ctx = I->ctx;
    pv_frames *FR = I->frames;
    int W = F->term.width, H = F->term.height, P = ctx->nranks, writer = rec->writer;
    bool mine = lo < hi, w = ctx->rank == writer;
    int y0 = mine ? (int)(lo / (uint64_t)W) : 0, y1 = mine ? (int)((hi - 1) / (uint64_t)W) + 1 : 0;
    *ws = PV_OK;
    double t0 = MPI_Wtime();
    pv_status st = pv_frames_writer_buffers(I);
    if (st == PV_OK && mine) {
        pv_annot_opts ao;
        pv_annot_opts_default(&ao);
        ao.background = I->set->term.background;
        ao.rows_y0 = y0, ao.rows_y1 = y1;
        st = pv_annotate_frame(ctx, &F->frame, &ao, FR->bg, FR->fg, W * 4);
    }
    double t1 = MPI_Wtime();
    pv_png_piece pc;
    memset(&pc, 0, sizeof pc);
    pc.lo = pc.hi = lo;
    if (st == PV_OK && mine) {
        /* the buffer the frame before last used: a job of this rank has ended there */
        uint8_t *rgb = FR->rgb[FR->count % 2];
        pv_layer lb = {FR->bg, (size_t)W * 4, PV_LAYER_ARGB32};
        pv_layer lf = {FR->fg, (size_t)W * 4, PV_LAYER_ARGB32};
        pv_composite_flatten_rows(FR->tile, &lb, &lf, 3, rgb, (size_t)W * 3, y0, y1);
        st = pv_png_piece_deflate(ctx, rgb, (size_t)W * 3, W, H, 3, lo, hi, level, &pc);
    }
    uint64_t *meta = w ? malloc((size_t)P * PIECE_META * sizeof *meta) : NULL;
    int *cnt = w ? malloc(2 * (size_t)P * sizeof *cnt) : NULL;
    if (st == PV_OK && w && !(meta && cnt)) st = pv_err(ctx, PV_ENOMEM, "out of memory");
    if (st == PV_OK && pc.len > INT_MAX) st = pv_err(ctx, PV_ERANGE, "a PNG piece over 2 GiB");
    st = pv_status_agree(ctx, st);
    unsigned char *buf = NULL;
    size_t total = 0;
    if (st == PV_OK) {
        uint64_t mine_meta[PIECE_META] = {pc.lo, pc.hi, pc.raw_len, pc.adler, pc.len,
                                          (uint64_t)pv_tile_active(FR->tile)};
        MPI_Gather(mine_meta, PIECE_META, MPI_UINT64_T, meta, PIECE_META, MPI_UINT64_T, writer,
                   ctx->comm);
        if (w) {
            uint64_t active = 0;
            for (int r = 0; r < P; r++) {
                active += meta[(size_t)r * PIECE_META + 5];
                cnt[r] = (int)meta[(size_t)r * PIECE_META + 4];
                cnt[P + r] = (int)total;
                total += (size_t)cnt[r];
            }
            rec->image_bytes = PV_COMPOSITE_IMAGE_BYTES(active);
            buf = total <= INT_MAX ? malloc(total ? total : 1) : NULL;
            if (!buf) st = pv_err(ctx, PV_ENOMEM, "out of memory gathering the PNG pieces");
        }
        st = pv_status_agree(ctx, st);
    }
    if (st == PV_OK) {
        MPI_Gatherv(pc.data, (int)pc.len, MPI_BYTE, buf, cnt, cnt ? cnt + P : NULL, MPI_BYTE,
                    writer, ctx->comm);
        if (w) rec->bytes_recv += total - pc.len;
        else rec->bytes_sent += pc.len;
    }
    double t2 = MPI_Wtime();
    if (st == PV_OK && w) {
        /* the pieces in picture order (pixel ranges; a rank without a piece is empty) */
        pv_png_piece *all = calloc((size_t)P, sizeof *all);
        if (!all) {
            *ws = pv_err(ctx, PV_ENOMEM, "out of memory");
        } else {
            for (int r = 0; r < P; r++) {
                const uint64_t *m = meta + (size_t)r * PIECE_META;
                pv_png_piece p = {m[0], m[1], m[2], (uint32_t)m[3], buf + cnt[P + r],
                                  (size_t)m[4]};
                int k = r;
                while (k > 0 && all[k - 1].lo > p.lo) all[k] = all[k - 1], k--;
                all[k] = p;
            }
            *ws = pv_png_write_pieces(ctx, path, W, H, 3, level, all, P);
            free(all);
        }
    }
    rec->t[3] = t1 - t0, rec->t[4] = t2 - t1, rec->t[5] = MPI_Wtime() - t2;
    pv_png_piece_free(&pc);
    free(buf);
    free(meta);
    free(cnt);
    return st;
}

/* Rank 0 checks that the output's directory takes a file before the frame is drawn, so
 * the common failure stops the script at its plot command, as when one rank wrote every
 * frame; what can still fail while writing is reported when the frame's write is agreed. */
static pv_status check_output(pv_ctx *ctx, const char *path)
{
    if (ctx->rank != 0) return PV_OK;
    char *dir = pv_path_dir(path);
    if (!dir) return pv_err(ctx, PV_ENOMEM, "out of memory");
    pv_status st = PV_OK;
    if (access(dir, W_OK | X_OK) != 0)
        st = pv_err(ctx, PV_EIO, "cannot write '%s': %s", path, strerror(errno));
    free(dir);
    return st;
}

/* Which of x, y, z are drawn in log space: `set logscale` (in 2D x and y only). Voxel
 * grids and isosurfaces are placed on linear axes: with one in the plot the log scales
 * are named in a warning and left linear. The rows go to log space. */
static pv_status log_axes(pv_interp *I, pv_cursor *c, size_t off, pv_scene_elem *e, int n,
                          bool plot2d, frame_ranges *fr)
{
    bool any = false, grids = false;
    for (int a = 0; a < 3; a++) {
        const pv_range *r = &I->set->range[a];
        fr->log_base[a] = r->log && (a < 2 || !plot2d) && r->log_base > 1.0 ? r->log_base : 0.0;
        any = any || fr->log_base[a] > 0.0;
    }
    for (int k = 0; k < n; k++) grids = grids || e[k].kind == PV_SCENE_VOXELS || e[k].kind == PV_SCENE_ISO;
    if (any && grids) {
        pv_plot_warn_skip(I, c->tl->src, off, "a log x, y or z axis with a voxel grid",
                          ": the axes are drawn linear");
        for (int a = 0; a < 3; a++) fr->log_base[a] = 0.0;
        return PV_OK;
    }
    for (int k = 0; k < n && any; k++) {
        pv_status st = pv_scene_log_axes(I->ctx, &e[k], fr->log_base);
        if (st != PV_OK) return st;
    }
    return PV_OK;
}

pv_status pv_render_splot(pv_interp *I, pv_cursor *c, size_t off, pv_scene_elem *e, int n,
                          double t_begin, bool plot2d)
{
    const double t_render = MPI_Wtime();
    pv_ctx *ctx = I->ctx;
    char *path = output_path(I);
    if (!path) return pv_status_agree(ctx, pv_err(ctx, PV_ENOMEM, "out of memory"));
    if (path[0] == '|') { /* --no-shell: located at the plot that would open the pipe */
        pv_status gst = pv_exec_shell_gate(I, c->tl->src, off, "set output \"| command\"");
        if (gst != PV_OK) {
            free(path);
            return gst; /* the same answer on every rank */
        }
    }
    if (pv_ckpt_skip_plot(I, path)) {
        free(path);
        return PV_OK;
    }
    frame_ranges fr;
    memset(&fr, 0, sizeof fr);
    pv_status lst = log_axes(I, c, off, e, n, plot2d, &fr);
    if (lst == PV_OK) {
        compute_ranges(I, e, n, plot2d, &fr);
        static const char *const names[3] = {"x", "y", "z"};
        for (int a = 0; a < 3 && lst == PV_OK; a++)
            if (fr.log_invalid[a]) /* gnuplot's words */
                lst = pv_source_error(ctx, PV_ESCRIPT, c->tl->src, off,
                                      "logscaled axis must have positive range (%s)", names[a]);
    }
    if (lst != PV_OK) {
        free(path);
        return pv_status_agree(ctx, lst);
    }
    {
        size_t end = c->end > 0 ? c->tl->tok[c->end - 1].end : off;
        char *cmd = end > off ? strndup(c->tl->src->text + off, end - off) : NULL;
        double gmin[4], gmax[4]; /* the values, not their logs */
        for (int a = 0; a < 4; a++)
            gmin[a] = axis_value(&fr, a, fr.min[a]), gmax[a] = axis_value(&fr, a, fr.max[a]);
        pv_gpval_frame(I, cmd, !plot2d, gmin, gmax);
        free(cmd);
    }
    pv_scene_colors C;
    memset(&C, 0, sizeof C);
    pv_scene_palette(&I->set->palette, &C.pal);
    C.cbmin = fr.min[3], C.cbmax = fr.max[3];
    C.pal.cb_log = fr.cb_log;
    C.background = I->set->term.background;
    C.lt_rgb = lt_rgb;
    C.lt_ud = I->set;
    frame_ctx F;
    memset(&F, 0, sizeof F);
    pv_status st = setup_frame(I, e, n, &fr, &C, plot2d, &F);
    int W = F.term.width, H = F.term.height;
    /* the same output as the frame in flight: its write must end first */
    if (I->frames && I->frames->open && I->frames->cur.path && !strcmp(I->frames->cur.path, path))
        st = pv_frames_agree(I, st);
    /* the pipeline's buffers for this canvas (collective, agreed) */
    pv_status sp = pv_frames_prepare(I, W, H);
    if (sp != PV_OK) {
        free(path);
        frame_fini(ctx, &F);
        pv_exec_locate(I, c, off); /* the canvas is this plot's: an agreed message */
        return sp;
    }
    pv_frames *FR = I->frames;
    int writer = pv_frames_writer(I, path);

    /* this rank's slab: the first voxel grid of the plot defines it */
    const pv_grid *sg = NULL;
    for (int k = 0; k < n && !sg; k++)
        if (e[k].kind == PV_SCENE_VOXELS || e[k].kind == PV_SCENE_ISO) sg = e[k].grid;
    const pv_settings *s = I->set;
    pv_scene_frame SF;
    memset(&SF, 0, sizeof SF);
    SF.view = &F.view;
    SF.colors = &C;
    if (plot2d) { /* whole elements per rank, in plot order: slab bounds between them */
        SF.zlo = ctx->rank == 0 ? -HUGE_VAL : floor((double)n * ctx->rank / ctx->nranks);
        SF.zhi = ctx->rank == ctx->nranks - 1 ? HUGE_VAL
                                              : floor((double)n * (ctx->rank + 1) / ctx->nranks);
    } else {
        pv_scene_slab(sg, fr.min[2], fr.max[2], ctx->nranks, ctx->rank, &SF.zlo, &SF.zhi);
    }
    SF.xmin = fr.min[0], SF.xmax = fr.max[0];
    SF.ymin = fr.min[1], SF.ymax = fr.max[1];
    SF.zmin = fr.min[2], SF.zmax = fr.max[2];
    SF.pointsize = s->pointsize;
    SF.linewidth = s->term.linewidth;
    SF.jitter = s->jitter.on ? (s->jitter.spread > 0 ? s->jitter.spread : 1.0) : 0.0;
    SF.fill = s->fill;

    /* scene -> render: this rank's primitives into its tile */
    pv_raster *r = FR->raster;
    pv_tile *tile = FR->tile;
    pv_raster_clear(r);
    pv_light light;
    if (s->pm3d.lighting) {
        pv_light_setup(&light, &F.view, s->pm3d.primary, s->pm3d.specular, s->pm3d.spec2);
        SF.light = &light;
    }
    SF.iso_mixed = !s->iso_triangles;
    SF.iso_inside = s->iso_inside_offset;
    SF.pm3d_interp[0] = s->pm3d.interp[0];
    SF.pm3d_interp[1] = s->pm3d.interp[1];
    SF.pm3d_noclipcb = s->pm3d.noclipcb;
    SF.pm3d_border = s->pm3d.border_on;
    SF.hidden3d = s->hidden3d && !plot2d;
    snprintf(SF.pm3d_at, sizeof SF.pm3d_at, "%s", s->pm3d.at);
    if (SF.pm3d_border) {
        pv_scene_elem be;
        pv_scene_elem_init(&be, 1, &s->pm3d.border);
        SF.border_color = pv_scene_item_color(&C, &be, 0, NAN);
        SF.border_width = (s->pm3d.border.lw > 0 ? s->pm3d.border.lw : 1.0) *
                          (s->term.linewidth > 0 ? s->term.linewidth : 1.0);
        pv_scene_elem_fini(ctx, &be);
    }
    uint64_t ntris = 0;
    frame_times T = {0};
    if (has_iso(e, n)) { /* collective (ghost planes) whatever st is */
        st = draw_in_steps(I, &SF, e, n, sg, r, tile, st, &ntris, &T);
    } else if (st == PV_OK) {
        double t0 = MPI_Wtime();
        pv_raster_set_slab(r, SF.zlo, SF.zhi);
        for (int k = 0; k < n && st == PV_OK; k++) st = pv_scene_draw(ctx, &SF, &e[k], r);
        double t1 = MPI_Wtime();
        if (st == PV_OK) st = pv_raster_render(ctx, r, tile);
        ntris = pv_raster_count_tris(r);
        T.scene = t1 - t0;
        T.raster = MPI_Wtime() - t1;
    }
    if (st == PV_OK) st = check_output(ctx, path);
    /* agreed with the previous frame's write (frames.h) */
    st = pv_frames_agree(I, st);
    if (st != PV_OK) {
        if (st != PV_ENOMEM && !ctx->err_located) {
            /* a failure without a location (the output): name the plot command */
            const pv_source *src = c->tl->src;
            st = pv_err_locate(ctx, src->name, src->text, src->len, src->first_line, off);
        }
        free(path);
        frame_fini(ctx, &F);
        return st;
    }

    /* composite in slab visibility order onto the writer, which writes the PNG while
     * the other ranks go on (frames.h) */
    pv_frame_open rec;
    memset(&rec, 0, sizeof rec);
    rec.path = path;
    rec.width = W, rec.height = H, rec.writer = writer;
    rec.active_pixels = pv_tile_active(tile);
    rec.triangles = ntris;
    rec.points = pv_raster_count_points(r);
    pv_composite_stats cst = {0};
    /* several ranks and an unfiltered PNG: every rank finishes and deflates its own piece
     * of the picture (ARCH-22); else the writer does it all, on its PNG thread */
    pv_png_options po = {.level = I->set->term.png_level, .filter = I->set->term.png_filter,
                         .strategy = PV_PNG_STRATEGY_AUTO};
    int level = 0;
    bool pieces = ctx->nranks > 1 && !ctx->opt.frame_encode_writer && pv_png_pieces_match(&po, &level);
    uint64_t plo = 0, phi = 0;
    if (pieces) {
        size_t a = 0, b = 0;
        st = pv_compositor_run_pieces(ctx, FR->comp, tile, pv_view_z_facing(&F.view) < 0, &a,
                                      &b, &cst);
        plo = a, phi = b;
    } else {
        st = pv_compositor_run(ctx, FR->comp, tile, pv_view_z_facing(&F.view) < 0, writer,
                               &cst);
    }
    /* scene time counts the plot command's data too (samples, files, voxel()) */
    rec.t[0] = (t_render - t_begin) + T.scene, rec.t[1] = T.raster, rec.t[2] = cst.t_sec;
    rec.bytes_sent = cst.bytes_sent, rec.bytes_recv = cst.bytes_recv;
    if (st == PV_OK && pieces) {
        pv_status ws = PV_OK;
        st = write_frame_pieces(I, &F, path, plo, phi, level, &rec, &ws);
        if (st == PV_OK) {
            pv_frames_opened(I, &rec, c->tl->src, off);
            pv_frames_progress(I);
            if (ws != PV_OK) pv_frames_failed(I, ws); /* agreed with the next frame */
        }
    } else if (st == PV_OK) {
        pv_status ws = PV_OK;
        if (ctx->rank == writer) {
            rec.image_bytes = PV_COMPOSITE_IMAGE_BYTES(pv_tile_active(tile));
            ws = write_frame(I, &F, path, &rec.t[3], &rec.t[4]);
        }
        pv_frames_opened(I, &rec, c->tl->src, off);
        pv_frames_progress(I);
        if (ws != PV_OK) pv_frames_failed(I, ws); /* agreed with the frame's write */
    }
    pv_log(ctx, PV_LOG_DEBUG, "render",
           "frame %lld: %llu active pixels; composite %llu bytes sent, %llu received, %.3f s",
           (long long)FR->count - 1, (unsigned long long)rec.active_pixels,
           (unsigned long long)cst.bytes_sent, (unsigned long long)cst.bytes_recv, cst.t_sec);
    free(path);
    frame_fini(ctx, &F);
    return st;
}
