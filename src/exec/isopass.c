/*
 * exec/isopass.c: the isosurface passes of a plot command (isopass.h).
 */
#include "isopass.h"

#include <string.h>

pv_status pv_iso_passes_open(pv_ctx *ctx, pv_iso_passes *P, const pv_scene_elem *e, int n,
                             const pv_grid *slab_grid)
{
    memset(P, 0, sizeof *P);
    pv_status st = PV_OK;
    for (int k = 0; k < n && st == PV_OK; k++) {
        if (e[k].kind != PV_SCENE_ISO) continue;
        bool seen = false;
        for (int p = 0; p < P->n && !seen; p++) seen = P->p[p].it.grid == e[k].grid;
        if (seen) continue;
        if (P->n == PV_ISO_MAX_GRIDS)
            st = pv_err(ctx, PV_ERANGE, "more than %d voxel grids with isosurfaces in one plot",
                        PV_ISO_MAX_GRIDS);
        else
            P->p[P->n++].it.grid = e[k].grid;
    }
    const pv_scene_elem **list = st == PV_OK ? pv_alloc(ctx, (size_t)n * sizeof *list) : NULL;
    if (st == PV_OK && !list) st = ctx->err_code ? ctx->err_code : PV_ENOMEM;
    st = pv_status_agree(ctx, st);
    for (int p = 0; p < P->n && st == PV_OK; p++) {
        const pv_grid *g = P->p[p].it.grid;
        int m = 0;
        for (int k = 0; k < n; k++)
            if (e[k].kind == PV_SCENE_ISO && e[k].grid == g) list[m++] = &e[k];
        P->p[p].ghost_bytes = (size_t)g->n * (size_t)g->n * sizeof(float);
        P->p[p].ghost = pv_alloc(ctx, P->p[p].ghost_bytes);
        st = pv_status_agree(ctx, P->p[p].ghost ? PV_OK : PV_ENOMEM);
        bool has = false;
        if (st == PV_OK) st = pv_grid_ghost_upper(ctx, g, P->p[p].ghost, &has);
        if (st == PV_OK)
            st = pv_scene_iso_init(ctx, &P->p[p].it, g, slab_grid, list, m,
                                   has ? P->p[p].ghost : NULL);
        st = pv_status_agree(ctx, st);
    }
    pv_free(ctx, (void *)list, (size_t)n * sizeof *list);
    return st;
}

void pv_iso_passes_close(pv_ctx *ctx, pv_iso_passes *P)
{
    for (int p = 0; p < P->n; p++) {
        pv_scene_iso_fini(ctx, &P->p[p].it);
        pv_free(ctx, P->p[p].ghost, P->p[p].ghost_bytes);
    }
    P->n = 0;
}
