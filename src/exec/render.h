/*
 * exec/render: drawing a `splot` as a PNG. plot.c parses the command and collects each
 * element into a pv_scene_elem (scene.h); pv_render_splot turns them into a picture:
 * autoscaling, the frame (view.h), each element's primitives for this rank (scene.h)
 * rasterised into a tile (raster.h), tiles composited in slab order onto rank 0
 * (composite.h), the frame drawn around them (annotate.h) and the PNG written (png.h).
 */
#ifndef PV_EXEC_RENDER_H
#define PV_EXEC_RENDER_H

#include "exec_int.h"
#include "pvox/scene.h"

/* Render the elements of one splot, or of a 2D plot (plot2d: rows x y and the plot order
 * as z; gnuplot's 2D frame), every rank, collective. `off` locates errors; `t_begin` is
 * MPI_Wtime() when the plot command began (its data counts as scene time). The rows of
 * the elements are taken to the log space of log x/y/z axes (pv_scene_log_axes). */
pv_status pv_render_splot(pv_interp *I, pv_cursor *c, size_t off, pv_scene_elem *e,
                          int n, double t_begin, bool plot2d);

#endif
