/*
 * scene-private helpers shared by the element kinds (voxpoints.c, points.c).
 */
#ifndef PV_SCENE_INT_H
#define PV_SCENE_INT_H

#include "pvox/scene.h"

#include <math.h>

/* The marker style of an element's item of point type `pt` (the element's `pt`, or the
 * row's with `pt variable`; -2 = the element's default) and size multiplier `ps`.
 * PV_RASTER_STYLE_NONE for an item that draws nothing (check ctx->err_code). */
uint32_t pv_scene_marker(pv_ctx *ctx, const pv_scene_frame *F, const pv_scene_elem *e, int pt,
                         double ps, pv_raster *r);

/* Data points with item numbers from item0 (row i is item item0 + i): linespoints puts
 * its points after its lines. */
pv_status pv_scene_draw_points_from(pv_ctx *ctx, const pv_scene_frame *F,
                                    const pv_scene_elem *e, pv_raster *r, uint64_t item0);

/* c shaded by `set pm3d lighting` (F->light; c itself when it is off) for a polygon whose
 * vertices v[0..nv) are in the coordinates gnuplot lights that kind by: view coordinates
 * for isosurface facets, user coordinates for pm3d quads (GP-7.6). Alpha is kept. */
pv_rgba8 pv_scene_lit(const pv_scene_frame *F, pv_rgba8 c, const double (*v)[3], int nv);

/* `set pm3d border`: the outline of a projected polygon (canvas x, y, depth), drawn on it
 * with a small depth bias towards the viewer, with F's border colour and width; cut at
 * the slab planes like the polygon when wz (world z of the vertices) is given. */
/* pngcairo's hinting of a segment in pixel coordinates: a vertical or horizontal one
 * longer than a pixel goes to pixel centres (rint(v - 0.5) + 0.5), ends included. */
static inline void pv_scene_snap_segment(double *x0, double *y0, double *x1, double *y1)
{
    if (*x0 == *x1 && fabs(*y1 - *y0) > 1.0) {
        *x0 = *x1 = rint(*x0 - 0.5) + 0.5;
        *y0 = rint(*y0 - 0.5) + 0.5, *y1 = rint(*y1 - 0.5) + 0.5;
    } else if (*y0 == *y1 && fabs(*x1 - *x0) > 1.0) {
        *y0 = *y1 = rint(*y0 - 0.5) + 0.5;
        *x0 = rint(*x0 - 0.5) + 0.5, *x1 = rint(*x1 - 0.5) + 0.5;
    }
}

/* The same with a depth bias of `bias` (large polygons need more: their fill's depth,
 * interpolated across them, strays further from the edge's). */
pv_status pv_scene_outline_bias(pv_ctx *ctx, const pv_scene_frame *F, pv_raster *r, int nv,
                                const float *x, const float *y, const float *d,
                                const double *wz, uint64_t order, float bias);
pv_status pv_scene_outline(pv_ctx *ctx, const pv_scene_frame *F, pv_raster *r, int nv,
                           const float *x, const float *y, const float *d, const double *wz,
                           uint64_t order);

#endif
