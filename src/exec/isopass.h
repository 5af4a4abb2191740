/*
 * exec/isopass: the isosurface passes of one plot command, shared by drawing
 * (render.c) and mesh output (plot_mesh.c): one pass per voxel grid with isosurface
 * elements, in order of first appearance (the same on every rank), each with the ghost
 * plane of this rank's upper neighbour (pv_grid_ghost_upper) and its scene pass
 * (pv_scene_iso: levels, cell layers).
 */
#ifndef PV_EXEC_ISOPASS_H
#define PV_EXEC_ISOPASS_H

#include "exec_int.h"
#include "pvox/scene.h"

#define PV_ISO_MAX_GRIDS 16

typedef struct pv_iso_passes {
    int n;
    struct {
        pv_scene_iso it;
        float *ghost;        /* tracked, ghost_bytes */
        size_t ghost_bytes;
    } p[PV_ISO_MAX_GRIDS];
} pv_iso_passes;

/* Set up the passes of the PV_SCENE_ISO elements among e[0..n) (others are ignored);
 * `slab_grid` bounds the ranks' slabs (pv_scene_slab). Collective (the ghost exchange);
 * returns the agreed status. P must be closed in any case. */
pv_status pv_iso_passes_open(pv_ctx *ctx, pv_iso_passes *P, const pv_scene_elem *e, int n,
                             const pv_grid *slab_grid);
void pv_iso_passes_close(pv_ctx *ctx, pv_iso_passes *P);

#endif
