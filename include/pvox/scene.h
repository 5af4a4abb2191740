/*
 * pvox scene: turning plot elements into this rank's primitives (world coordinates).
 *
 * Everything here is plain data in, plain data out: the interpreter (exec/render.c)
 * projects the primitives with the view and hands them to the rasteriser. A primitive
 * belongs to the rank whose world-z slab contains it (ARCHITECTURE.md decision 6):
 * voxel points come from the rank's own planes; polygons that cross a slab boundary are
 * cut there by the rasteriser (raster.h "Slab cuts").
 */
#ifndef PVOX_SCENE_H
#define PVOX_SCENE_H

#include "pvox/grid.h"

/* ---- voxel points (`splot $grid with points|dots above T`, gnuplot-voxel.md §6) ---- */

typedef struct pv_vpoint {
    double x, y, z;      /* node position plus jitter, user units */
    float value;         /* the voxel value */
    uint64_t index;      /* gnuplot's draw order: (ix·N + iy)·N + iz */
} pv_vpoint;

/* Called with up to PV_SCENE_CHUNK points at a time, in increasing index order within a
 * call. Return non-OK to stop. */
#define PV_SCENE_CHUNK 4096
typedef pv_status (*pv_vpoint_fn)(void *ud, const pv_vpoint *p, size_t n);

/* The voxels of this rank's slab whose value is strictly greater than `above`, whose three
 * indices are multiples of `interval` (<= 1: all), displaced by `spread` voxel spacings of
 * jitter on each axis (0: none; uniform in ±spread/2, a hash of the voxel index, so the
 * same for any rank or thread count). Not collective. */
pv_status pv_scene_voxel_points(const pv_grid *g, double above, int interval, double spread,
                                pv_vpoint_fn fn, void *ud);

/* The jitter offsets (each in [-0.5, 0.5)) of the voxel with linear index `index`. */
void pv_scene_jitter(uint64_t index, double off[3]);

/* ---- slab clipping ------------------------------------------------------------------- */

/* Cut the convex polygon in[0..n-1] (x, y, z triples, n <= 6) to zmin <= z <= zmax
 * (pm3d's `clip z`). Writes at most n + 2 vertices to out and returns their count; fewer
 * than 3 means nothing is left. */
int pv_scene_clip_z(const double (*in)[3], int n, double zmin, double zmax, double (*out)[3]);

/* World-z slab of rank `rank` among `nranks`: [*zlo, *zhi). With a grid (g != NULL) the
 * boundaries sit at the nodes of the first plane each rank owns, so voxel points need no
 * forwarding; otherwise [zmin, zmax] is split evenly. The first slab starts at -inf, the
 * last ends at +inf. */
void pv_scene_slab(const pv_grid *g, double zmin, double zmax, int nranks, int rank,
                   double *zlo, double *zhi);

#endif /* PVOX_SCENE_H */
