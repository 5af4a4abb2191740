/*
 * scene/draw: one element to this rank's primitives, by kind. The kinds (voxpoints.c,
 * points.c, lines.c, pm3d.c) share elem.c's rows and columns; only this file knows them all.
 */
#include "pvox/scene.h"

pv_status pv_scene_draw(pv_ctx *ctx, const pv_scene_frame *F, const pv_scene_elem *e,
                        pv_raster *r)
{
    switch (e->kind) {
    case PV_SCENE_VOXELS: return pv_scene_draw_voxels(ctx, F, e, r);
    case PV_SCENE_POINTS: return pv_scene_draw_points(ctx, F, e, r);
    case PV_SCENE_PM3D: return pv_scene_draw_pm3d(ctx, F, e, r);
    case PV_SCENE_LINES: return pv_scene_draw_lines(ctx, F, e, r);
    case PV_SCENE_IMAGE: return pv_scene_draw_image(ctx, F, e, r);
    case PV_SCENE_POLYGONS: return pv_scene_draw_polygons(ctx, F, e, r);
    case PV_SCENE_BOXES: return pv_scene_draw_boxes(ctx, F, e, r);
    case PV_SCENE_ERRORBARS: return pv_scene_draw_errorbars(ctx, F, e, r);
    default: return PV_OK;
    }
}
