/*
 * scene/points: data points (`splot 'data' with points|dots`) as markers, and the marker
 * style of any element's items (voxel points use it too).
 */
#include "scene_int.h"

#include <math.h>

static float marker_size(const pv_scene_frame *F, double ps)
{
    return (float)(3.0 * ps * (F->pointsize > 0 ? F->pointsize : 1.0));
}

uint32_t pv_scene_marker(pv_ctx *ctx, const pv_scene_frame *F, const pv_scene_elem *e, int pt,
                         double ps, pv_raster *r)
{
    float lw = (float)(e->st.lp.lw * (F->linewidth > 0 ? F->linewidth : 1.0));
    if (e->st.style == PV_STYLE_DOTS) return pv_raster_marker_style(ctx, r, 0, 1, lw);
    if (pt == -2) pt = e->line_num; /* default: point type of linetype n */
    if (pt < 0) return PV_RASTER_STYLE_NONE;
    return pv_raster_marker_style(ctx, r, pt, marker_size(F, ps), lw < 0.2f ? 0.2f : lw);
}

/* gnuplot draws only the points inside the plot's x, y and z ranges (the others are
 * "outrange"; autoscaled ranges hold all their data anyway). */
static bool in_box(const pv_scene_frame *F, const double *v)
{
    return v[0] >= fmin(F->xmin, F->xmax) && v[0] <= fmax(F->xmin, F->xmax) &&
           v[1] >= fmin(F->ymin, F->ymax) && v[1] <= fmax(F->ymin, F->ymax) &&
           v[2] >= fmin(F->zmin, F->zmax) && v[2] <= fmax(F->zmin, F->zmax);
}

pv_status pv_scene_draw_points(pv_ctx *ctx, const pv_scene_frame *F, const pv_scene_elem *e,
                               pv_raster *r)
{
    if (e->st.style == PV_STYLE_LABELS) return PV_OK; /* texts: the frame draws them */
    return pv_scene_draw_points_from(ctx, F, e, r, 0);
}

pv_status pv_scene_draw_points_from(pv_ctx *ctx, const pv_scene_frame *F,
                                    const pv_scene_elem *e, pv_raster *r, uint64_t item0)
{
    pv_scene_cols kc = pv_scene_columns(e);
    double ps0 = e->st.lp.ps > 0 ? e->st.lp.ps : 1.0;
    bool per_row = kc.ps >= 0 || kc.pt >= 0;
    uint32_t fixed = per_row ? 0 : pv_scene_marker(ctx, F, e, e->st.lp.pt, ps0, r);
    if (!per_row && fixed == PV_RASTER_STYLE_NONE) return ctx->err_code ? PV_ERANGE : PV_OK;
    size_t bytes = PV_SCENE_CHUNK * sizeof(pv_raster_point);
    pv_raster_point *buf = pv_alloc(ctx, bytes);
    if (!buf) return ctx->err_code;
    uint64_t base = PV_SCENE_ORDER(e->number, item0);
    pv_status st = PV_OK;
    size_t nb = 0;
    for (size_t i = 0; i < e->nrows && st == PV_OK; i++) {
        const double *v = e->vals + i * (size_t)e->ncols;
        if (!isfinite(v[0]) || !isfinite(v[1]) || !isfinite(v[2])) continue;
        if (!(v[2] >= F->zlo && v[2] < F->zhi)) continue;
        if (!in_box(F, v)) continue;
        uint32_t style = fixed;
        if (per_row) {
            int pt = kc.pt < 0 ? e->st.lp.pt : isfinite(v[kc.pt]) ? (int)v[kc.pt] : -1;
            double ps = kc.ps >= 0 ? v[kc.ps] : ps0;
            if (!(ps >= 0) || !isfinite(ps)) continue;
            style = pv_scene_marker(ctx, F, e, pt, ps, r);
            if (style == PV_RASTER_STYLE_NONE) continue;
        }
        double cval = kc.color >= 0 && e->st.lp.lc.kind == PV_COLOR_PALETTE_Z ? v[kc.color] : v[2];
        /* a negative colour value on a log colour axis is undefined: gnuplot drops the point */
        if (F->colors->pal.cb_log && e->st.lp.lc.kind == PV_COLOR_PALETTE_Z && cval < 0) continue;
        pv_raster_point *q = &buf[nb++];
        double sx, sy, d;
        pv_view_project(F->view, v[0], v[1], v[2], &sx, &sy, &d);
        q->x = (float)sx, q->y = (float)sy, q->depth = (float)d;
        q->style = style;
        double var = kc.color >= 0 ? v[kc.color] : (double)NAN;
        q->color = pv_scene_item_color(F->colors, e, cval, var);
        q->order = base | i;
        if (nb == PV_SCENE_CHUNK) {
            st = pv_raster_add_points(ctx, r, buf, nb);
            nb = 0;
        }
    }
    if (st == PV_OK && nb) st = pv_raster_add_points(ctx, r, buf, nb);
    pv_free(ctx, buf, bytes);
    return st;
}
