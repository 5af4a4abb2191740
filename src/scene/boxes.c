/*
 * scene/boxes: `plot ... with boxes` (2D): a bar from y = 0 to each row's y, as wide as
 * its width column (`using x:y:w`), else `set boxwidth w` (absolute: x units; relative:
 * that fraction of the automatic width), else the automatic width: halfway to the
 * neighbouring rows on each side, the end rows mirrored (gnuplot's touching boxes). Bars
 * are cut at the x and y ranges. The fill is the element's `fs`, else `set style fill`
 * (empty by default: the outline only); the outline is the fill's border colour, else
 * the line colour, unless `noborder`. A bar lies at its plot's order z, so later plots
 * cover it.
 */
#include "scene_int.h"

#include <math.h>

void pv_scene_box_edges(const pv_scene_elem *e, size_t i, double *x0, double *x1)
{
    const double *v = e->vals + i * (size_t)e->ncols;
    double x = v[0];
    /* a 2D plot's rows: x y z(order) {width} */
    if (e->st.box_wcol && e->ncols > 3 && isfinite(v[3])) {
        *x0 = x - v[3] / 2, *x1 = x + v[3] / 2;
        return;
    }
    if (e->st.boxwidth_mode == 1) {
        *x0 = x - e->st.boxwidth / 2, *x1 = x + e->st.boxwidth / 2;
        return;
    }
    double prev = NAN, next = NAN;
    if (i > 0) prev = e->vals[(i - 1) * (size_t)e->ncols];
    if (i + 1 < e->nrows) next = e->vals[(i + 1) * (size_t)e->ncols];
    double left = isfinite(prev) ? (x - prev) / 2 : isfinite(next) ? (next - x) / 2 : 0.5;
    double right = isfinite(next) ? (next - x) / 2 : left;
    if (!isfinite(prev)) left = right;
    double scale = e->st.boxwidth_mode == 2 ? e->st.boxwidth : 1.0;
    *x0 = x - left * scale, *x1 = x + right * scale;
}

pv_status pv_scene_draw_boxes(pv_ctx *ctx, const pv_scene_frame *F, const pv_scene_elem *e,
                              pv_raster *r)
{
    const pv_fill *fill = e->st.has_fill ? &e->st.fill : &F->fill;
    pv_rgba8 lc = pv_scene_item_color(F->colors, e, NAN, NAN);
    pv_rgba8 fc = lc;
    if (e->st.fc.kind != PV_COLOR_DEFAULT) {
        pv_scene_elem tmp = *e;
        tmp.st.lp.lc = e->st.fc;
        fc = pv_scene_item_color(F->colors, &tmp, NAN, NAN);
    }
    bool filled = fill->kind != PV_FILL_EMPTY;
    if (fill->kind == PV_FILL_SOLID && fill->transparent) {
        double a = fill->density < 0 ? 0 : fill->density > 1 ? 1 : fill->density;
        fc.a = (uint8_t)lrint(255.0 * a);
    } else if (fill->kind == PV_FILL_PATTERN) {
        fc.a = 128; /* no hatching: half transparent */
    } else {
        fc = pv_scene_fill_lighten(fill, fc);
    }
    pv_rgba8 border = lc;
    if (fill->border_color.kind != PV_COLOR_DEFAULT) {
        pv_scene_elem tmp = *e;
        tmp.st.lp.lc = fill->border_color;
        border = pv_scene_item_color(F->colors, &tmp, NAN, NAN);
    }
    bool outline = fill->border || !filled;
    double lw = e->st.lp.lw > 0 ? e->st.lp.lw : 1.0;
    float width = (float)(lw * (F->linewidth > 0 ? F->linewidth : 1.0));
    double xlo = fmin(F->xmin, F->xmax), xhi = fmax(F->xmin, F->xmax);
    double ylo = fmin(F->ymin, F->ymax), yhi = fmax(F->ymin, F->ymax);
    uint64_t base = PV_SCENE_ORDER(e->number, 0);
    pv_status st = PV_OK;
    for (size_t i = 0; i < e->nrows && st == PV_OK; i++) {
        const double *v = e->vals + i * (size_t)e->ncols;
        if (!isfinite(v[0]) || !isfinite(v[1])) continue;
        double x0, x1;
        pv_scene_box_edges(e, i, &x0, &x1);
        double y0 = fmin(0.0, v[1]), y1 = fmax(0.0, v[1]);
        double cx0 = fmax(fmin(x0, x1), xlo), cx1 = fmin(fmax(x0, x1), xhi);
        double cy0 = fmax(y0, ylo), cy1 = fmin(y1, yhi);
        if (!(cx0 < cx1) || !(cy0 <= cy1)) continue;
        double wx[4] = {cx0, cx1, cx1, cx0}, wy[4] = {cy0, cy0, cy1, cy1};
        float x[4], y[4], d[4];
        double wz[4];
        for (int k = 0; k < 4; k++) {
            /* gnuplot's map_x/map_y: terminal units rounded to integers */
            double tx, ty, dd;
            pv_view_term(F->view, wx[k], wy[k], v[2], &tx, &ty);
            pv_view_project(F->view, wx[k], wy[k], v[2], NULL, NULL, &dd);
            /* on pixel centres, as pngcairo hints the box's edges */
            x[k] = (float)(rint(pv_term_px_x(&F->view->term, (int)(tx + 0.5)) - 0.5) + 0.5);
            y[k] = (float)(rint(pv_term_px_y(&F->view->term, (int)(ty + 0.5)) - 0.5) + 0.5);
            d[k] = (float)dd;
            wz[k] = v[2];
        }
        if (filled && cy0 < cy1)
            st = pv_raster_add_polygon(ctx, r, 4, x, y, d, wz, 0u, fc, base | (2 * i));
        /* the outline: the sides and top as cut, the base where it is y = 0 */
        for (int k = 0; k < 4 && st == PV_OK && outline; k++) {
            int j = (k + 1) % 4;
            bool cut = (k == 0 && cy0 > y0) || (k == 2 && cy1 < y1) ||
                       (k == 1 && cx1 < fmax(x0, x1)) || (k == 3 && cx0 > fmin(x0, x1));
            if (cut) continue; /* an edge the range cut is not the bar's */
            /* no depth bias: a later box's fill covers this outline, as in gnuplot */
            pv_raster_line l = {x[k], y[k], d[k], x[j], y[j], d[j], width, border,
                                base | (2 * i + 1)};
            st = pv_raster_add_line_cut(ctx, r, &l, wz[k], wz[j]);
        }
    }
    return st;
}
