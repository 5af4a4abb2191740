/*
 * scene-private helpers shared by the element kinds (voxpoints.c, points.c).
 */
#ifndef PV_SCENE_INT_H
#define PV_SCENE_INT_H

#include "pvox/scene.h"

/* The marker style of an element's item of point type `pt` (the element's `pt`, or the
 * row's with `pt variable`; -2 = the element's default) and size multiplier `ps`.
 * PV_RASTER_STYLE_NONE for an item that draws nothing (check ctx->err_code). */
uint32_t pv_scene_marker(pv_ctx *ctx, const pv_scene_frame *F, const pv_scene_elem *e, int pt,
                         double ps, pv_raster *r);

#endif
