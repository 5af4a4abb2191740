/*
 * scene/errorbars: 2D `with xerrorbars|yerrorbars|xyerrorbars` (and `errorbars`, which
 * is yerrorbars) and the `...errorlines` styles, as gnuplot's plot_bars draws them: for
 * each point inside the x and y ranges a bar from the low to the high value, cut at the
 * range, with a cap across each end that lies inside it (half a tic, gnuplot's
 * ERRORBARTIC, on either side), then the point's marker; the errorlines styles also
 * join the points. A row holds x y z(order) and then, for y bars, ydelta or ylow yhigh;
 * for x bars xdelta or xlow xhigh; for xy bars xdelta ydelta or xlow xhigh ylow yhigh.
 * Bar ends go to gnuplot's integer terminal positions (map_x, map_y).
 */
#include "scene_int.h"

#include <math.h>

static bool has_x(pv_plot_style s)
{
    return s == PV_STYLE_XERRORBARS || s == PV_STYLE_XYERRORBARS || s == PV_STYLE_XERRORLINES ||
           s == PV_STYLE_XYERRORLINES;
}

static bool has_y(pv_plot_style s)
{
    return s == PV_STYLE_YERRORBARS || s == PV_STYLE_XYERRORBARS || s == PV_STYLE_YERRORLINES ||
           s == PV_STYLE_XYERRORLINES;
}

void pv_scene_error_extent(const pv_scene_elem *e, size_t i, double *xlo, double *xhi,
                           double *ylo, double *yhi)
{
    const double *v = e->vals + i * (size_t)e->ncols;
    int extra = e->ncols - 3; /* the columns after x y z */
    const double *c = v + 3;
    *xlo = *xhi = v[0];
    *ylo = *yhi = v[1];
    pv_plot_style s = e->st.style;
    bool xs = has_x(s), ys = has_y(s);
    if (xs && ys) {
        if (extra >= 4) *xlo = c[0], *xhi = c[1], *ylo = c[2], *yhi = c[3];
        else if (extra >= 2) *xlo = v[0] - c[0], *xhi = v[0] + c[0], *ylo = v[1] - c[1],
                             *yhi = v[1] + c[1];
    } else if (xs || ys) {
        double lo = NAN, hi = NAN, at = xs ? v[0] : v[1];
        if (extra >= 2) lo = c[0], hi = c[1];
        else if (extra >= 1) lo = at - c[0], hi = at + c[0];
        if (xs) *xlo = lo, *xhi = hi;
        else *ylo = lo, *yhi = hi;
    }
}

typedef struct bar_draw {
    pv_ctx *ctx;
    const pv_scene_frame *F;
    pv_raster *r;
    pv_rgba8 color;
    float width;
    double z;
} bar_draw;

/* A segment between two terminal positions (integers, as gnuplot's) at plot order z;
 * pngcairo puts a horizontal or vertical one longer than a pixel on pixel centres. */
static pv_status term_line(bar_draw *B, int tx0, int ty0, int tx1, int ty1, uint64_t order)
{
    const pv_termdim *t = &B->F->view->term;
    double d;
    pv_view_project(B->F->view, B->F->xmin, B->F->ymin, B->z, NULL, NULL, &d);
    double x0 = pv_term_px_x(t, tx0), y0 = pv_term_px_y(t, ty0);
    double x1 = pv_term_px_x(t, tx1), y1 = pv_term_px_y(t, ty1);
    pv_scene_snap_segment(&x0, &y0, &x1, &y1);
    pv_raster_line l = {(float)x0, (float)y0, (float)d, (float)x1, (float)y1, (float)d,
                        B->width, B->color, order};
    return pv_raster_add_line_cut(B->ctx, B->r, &l, B->z, B->z);
}

static int term_x(const pv_scene_frame *F, double x, double z)
{
    double tx, ty;
    pv_view_term(F->view, x, F->ymin, z, &tx, &ty);
    return (int)floor(tx + 0.5);
}

static int term_y(const pv_scene_frame *F, double y, double z)
{
    double tx, ty;
    pv_view_term(F->view, F->xmin, y, z, &tx, &ty);
    return (int)floor(ty + 0.5);
}

pv_status pv_scene_draw_errorbars(pv_ctx *ctx, const pv_scene_frame *F, const pv_scene_elem *e,
                                  pv_raster *r)
{
    double lw = e->st.lp.lw > 0 ? e->st.lp.lw : 1.0;
    bar_draw B = {ctx, F, r, pv_scene_item_color(F->colors, e, NAN, NAN),
                  (float)(lw * (F->linewidth > 0 ? F->linewidth : 1.0)), 0.0};
    double xlo = fmin(F->xmin, F->xmax), xhi = fmax(F->xmin, F->xmax);
    double ylo = fmin(F->ymin, F->ymax), yhi = fmax(F->ymin, F->ymax);
    int tic = (int)(F->view->term.h_tic / 2); /* gnuplot's ERRORBARTIC */
    if (tic < 1) tic = 1;
    pv_plot_style s = e->st.style;
    uint64_t base = PV_SCENE_ORDER(e->number, 0);
    pv_status st = PV_OK;
    for (size_t i = 0; i < e->nrows && st == PV_OK; i++) {
        const double *v = e->vals + i * (size_t)e->ncols;
        if (!isfinite(v[0]) || !isfinite(v[1])) continue;
        if (v[0] < xlo || v[0] > xhi || v[1] < ylo || v[1] > yhi) continue;
        B.z = v[2];
        double x0, x1, y0, y1;
        pv_scene_error_extent(e, i, &x0, &x1, &y0, &y1);
        int xm = term_x(F, v[0], v[2]), ym = term_y(F, v[1], v[2]);
        uint64_t item = base | ((uint64_t)e->nrows + 4 * i);
        if (has_y(s) && isfinite(y0) && isfinite(y1)) {
            double a = fmax(fmin(y0, y1), ylo), b = fmin(fmax(y0, y1), yhi);
            st = term_line(&B, xm, term_y(F, a, v[2]), xm, term_y(F, b, v[2]), item);
            for (int k = 0; k < 2 && st == PV_OK; k++) {
                double end = k == 0 ? y0 : y1;
                if (end < ylo || end > yhi) continue; /* cut: no cap */
                int ty = term_y(F, end, v[2]);
                st = term_line(&B, xm - tic, ty, xm + tic, ty, item + 1 + (uint64_t)k);
            }
        }
        if (st == PV_OK && has_x(s) && isfinite(x0) && isfinite(x1)) {
            double a = fmax(fmin(x0, x1), xlo), b = fmin(fmax(x0, x1), xhi);
            st = term_line(&B, term_x(F, a, v[2]), ym, term_x(F, b, v[2]), ym, item);
            for (int k = 0; k < 2 && st == PV_OK; k++) {
                double end = k == 0 ? x0 : x1;
                if (end < xlo || end > xhi) continue;
                int tx = term_x(F, end, v[2]);
                st = term_line(&B, tx, ym - tic, tx, ym + tic, item + 1 + (uint64_t)k);
            }
        }
    }
    /* errorlines: the points joined (as lines: items below the bars' numbers) */
    if (st == PV_OK && (s == PV_STYLE_XERRORLINES || s == PV_STYLE_YERRORLINES ||
                        s == PV_STYLE_XYERRORLINES))
        st = pv_scene_draw_lines(ctx, F, e, r);
    if (st == PV_OK) st = pv_scene_draw_points_from(ctx, F, e, r, 5 * (uint64_t)e->nrows);
    return st;
}
