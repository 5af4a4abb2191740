/*
 * scene/voxpoints: the voxel points of `splot $grid with points|dots above T`.
 *
 * gnuplot draws the nodes with x outermost, then y, then z (GP-6.1); the index
 * (ix·N + iy)·N + iz keeps that order for ties at equal depth. Jitter (GP-6.4) is a hash
 * of that index, not a random stream, so the picture does not depend on how the grid is
 * split (DEC-9).
 */
#include "scene_int.h"

#include <math.h>

/* splitmix64: a well-mixed 64-bit hash of the index. */
static uint64_t mix64(uint64_t x)
{
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

void pv_scene_jitter(uint64_t index, double off[3])
{
    for (int a = 0; a < 3; a++) {
        uint64_t h = mix64(index * 3u + (uint64_t)a);
        off[a] = (double)(h >> 11) * 0x1.0p-53 - 0.5; /* 53 random bits in [0,1) */
    }
}

pv_status pv_scene_voxel_points(const pv_grid *g, double above, int interval, double spread,
                                pv_vpoint_fn fn, void *ud)
{
    if (!g->data || !pv_grid_has_ranges(g))
        return PV_OK;
    int64_t n = g->n, step = interval > 1 ? interval : 1;
    pv_vpoint buf[PV_SCENE_CHUNK];
    size_t k = 0;
    int64_t z0 = g->z0 + ((step - g->z0 % step) % step);
    for (int64_t ix = 0; ix < n; ix += step)
        for (int64_t iy = 0; iy < n; iy += step)
            for (int64_t iz = z0; iz < g->z1; iz += step) {
                float v = g->data[pv_grid_local_index(g, ix, iy, iz)];
                if (!((double)v > above))
                    continue;
                pv_vpoint *p = &buf[k++];
                p->index = ((uint64_t)ix * (uint64_t)n + (uint64_t)iy) * (uint64_t)n +
                           (uint64_t)iz;
                p->x = g->min[0] + (double)ix * g->delta[0];
                p->y = g->min[1] + (double)iy * g->delta[1];
                p->z = g->min[2] + (double)iz * g->delta[2];
                p->value = v;
                if (spread > 0) {
                    double off[3];
                    pv_scene_jitter(p->index, off);
                    p->x += spread * g->delta[0] * off[0];
                    p->y += spread * g->delta[1] * off[1];
                    p->z += spread * g->delta[2] * off[2];
                }
                if (k == PV_SCENE_CHUNK) {
                    pv_status st = fn(ud, buf, k);
                    if (st != PV_OK)
                        return st;
                    k = 0;
                }
            }
    return k ? fn(ud, buf, k) : PV_OK;
}

/* ---- drawing: the voxel points projected and added as markers ------------------------ */

typedef struct vox_draw {
    pv_ctx *ctx;
    const pv_scene_frame *F;
    const pv_scene_elem *e;
    pv_raster *r;
    uint32_t style;
    uint64_t order_base;
    pv_raster_point *buf;
} vox_draw;

static pv_status add_vpoints(void *ud, const pv_vpoint *p, size_t n)
{
    vox_draw *D = ud;
    const pv_grid *g = D->e->grid;
    size_t m = 0;
    for (size_t k = 0; k < n; k++) {
        if (D->F->vclip) {
            double nz = g->min[2] + (double)(p[k].index % (uint64_t)g->n) * g->delta[2];
            if (!(nz >= D->F->vlo && nz < D->F->vhi)) continue;
        }
        pv_raster_point *q = &D->buf[m++];
        double sx, sy, d;
        pv_view_project(D->F->view, p[k].x, p[k].y, p[k].z, &sx, &sy, &d);
        q->x = (float)sx, q->y = (float)sy, q->depth = (float)d;
        q->style = D->style;
        q->color = pv_scene_item_color(D->F->colors, D->e, (double)p[k].value, (double)NAN);
        q->order = D->order_base | p[k].index;
    }
    return pv_raster_add_points(D->ctx, D->r, D->buf, m);
}

pv_status pv_scene_draw_voxels(pv_ctx *ctx, const pv_scene_frame *F, const pv_scene_elem *e,
                               pv_raster *r)
{
    double ps = e->st.lp.ps > 0 ? e->st.lp.ps : 1.0;
    vox_draw D = {ctx, F, e, r, 0, PV_SCENE_ORDER(e->number, 0), NULL};
    D.style = pv_scene_marker(ctx, F, e, e->st.lp.pt, ps, r);
    if (D.style == PV_RASTER_STYLE_NONE) return ctx->err_code ? PV_ERANGE : PV_OK;
    size_t bytes = PV_SCENE_CHUNK * sizeof *D.buf;
    if (!(D.buf = pv_alloc(ctx, bytes))) return ctx->err_code;
    double above = e->st.has_above ? e->st.above : 0.0;
    pv_status st = pv_scene_voxel_points(e->grid, above, e->st.lp.pi, F->jitter, add_vpoints, &D);
    pv_free(ctx, D.buf, bytes);
    return st;
}
