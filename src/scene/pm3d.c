/*
 * scene/pm3d: `splot 'data' with pm3d`: quads between consecutive scan lines (split into
 * `interpolate n,m` bilinear sub-quads), coloured by the mean of the corners' colour values
 * (corners2color mean; `noclipcb` leaves out those outside the cb range), cut at the z range
 * (`clip z`), lit when `set pm3d lighting` is on and outlined with `set pm3d border`, then
 * added whole: the rasteriser cuts them at this rank's slab planes pixel by pixel
 * (raster.h "Slab cuts").
 */
#include "scene_int.h"

#include <math.h>

pv_status pv_scene_pm3d_quads(const pv_scene_frame *F, const pv_scene_elem *e, pv_quad_fn fn,
                              void *ud)
{
    pv_scene_cols kc = pv_scene_columns(e);
    const pv_scene_colors *C = F->colors;
    const pv_fill *fill = e->st.has_fill ? &e->st.fill : &F->fill;
    double alpha = fill->kind == PV_FILL_SOLID && fill->transparent ? fill->density : 1.0;
    if (alpha < 0) alpha = 0;
    if (alpha > 1) alpha = 1;
    uint8_t a8 = (uint8_t)lrint(255.0 * alpha);
    int ni = F->pm3d_interp[0] > 1 ? F->pm3d_interp[0] : 1;
    int nj = F->pm3d_interp[1] > 1 ? F->pm3d_interp[1] : 1;
    pv_scene_quad q;
    uint64_t next_item = 0; /* each data quad owns ni * nj item numbers */
    /* scan[k] is the end of scan line k (the start of line k + 1) */
    size_t nscan = e->grid_scans > 0 && e->grid_scans < e->nscan ? e->grid_scans : e->nscan;
    for (size_t sc = 0; sc + 1 < nscan; sc++) {
        size_t a0 = sc == 0 ? 0 : e->scan[sc - 1], a1 = e->scan[sc];
        size_t b0 = a1, b1 = e->scan[sc + 1];
        size_t na = a1 - a0, nb = b1 - b0, m = na < nb ? na : nb;
        for (size_t i = 0; i + 1 < m; i++) {
            const double *c4[4] = {e->vals + (a0 + i) * (size_t)e->ncols,
                                   e->vals + (a0 + i + 1) * (size_t)e->ncols,
                                   e->vals + (b0 + i + 1) * (size_t)e->ncols,
                                   e->vals + (b0 + i) * (size_t)e->ncols};
            /* corner k: x y z and the colour value */
            double g[4][4];
            bool ok = true;
            for (int k = 0; k < 4 && ok; k++) {
                for (int a = 0; a < 3; a++) g[k][a] = c4[k][a];
                g[k][3] = kc.color >= 0 ? c4[k][kc.color] : c4[k][2];
                ok = isfinite(g[k][0]) && isfinite(g[k][1]) && isfinite(g[k][2]) &&
                     isfinite(g[k][3]) && !(C->pal.cb_log && g[k][3] < 0); /* undefined on a log cb */
            }
            uint64_t item0 = next_item;
            next_item += (uint64_t)ni * (uint64_t)nj;
            if (!ok) continue;
            /* `pm3d interpolate ni,nj`: ni x nj bilinear sub-quads, ni along the scan line
             * (gnuplot's bl_point grid: its corners 0 and 3 on this line, 1 and 2 on the
             * next); each coloured by the mean of its own corners */
            for (int u = 0; u < ni; u++) {
                for (int w = 0; w < nj; w++) {
                    double poly[4][3], cv = 0;
                    static const int du[4] = {0, 1, 1, 0}, dw[4] = {0, 0, 1, 1};
                    for (int k = 0; k < 4; k++) {
                        double fu = (double)(u + du[k]) / ni, fw = (double)(w + dw[k]) / nj;
                        double p[4];
                        for (int a = 0; a < 4; a++) {
                            double on_a = g[0][a] + (g[1][a] - g[0][a]) * fu;
                            double on_b = g[3][a] + (g[2][a] - g[3][a]) * fu;
                            p[a] = ni == 1 && nj == 1 ? g[k][a] : on_a + (on_b - on_a) * fw;
                        }
                        for (int a = 0; a < 3; a++) poly[k][a] = p[a];
                        cv += p[3];
                    }
                    cv /= 4;
                    q.item = item0 + (uint64_t)u * (uint64_t)nj + (uint64_t)w;
                    /* `pm3d noclipcb`: a quad whose colour is outside the cb range is left out */
                    if (F->pm3d_noclipcb && (cv < C->cbmin || cv > C->cbmax)) continue;
                    /* gnuplot's pm3d `clip z` (the default) */
                    q.nv = pv_scene_clip_z((const double(*)[3])poly, 4, F->zmin, F->zmax, q.v);
                    if (q.nv < 3) continue;
                    q.color = pv_scene_rgba(pv_pal_color(&C->pal, cv, C->cbmin, C->cbmax));
                    q.color.a = a8;
                    pv_status st = fn(ud, &q);
                    if (st != PV_OK) return st;
                }
            }
        }
    }
    return PV_OK;
}

typedef struct pm3d_draw {
    pv_ctx *ctx;
    const pv_scene_frame *F;
    const pv_view3d *view;
    pv_raster *r;
    uint64_t order_base;
    const pv_fill *fill;     /* the element's fill style (lightens a solid of density < 1) */
    bool flat;               /* `pm3d at b|t`: every corner at flat_z, unlit */
    double flat_z;
} pm3d_draw;

/* Project a quad and add it; edges lying in one z-plane are hard. */
static pv_status add_quad(void *ud, const pv_scene_quad *q)
{
    pm3d_draw *D = ud;
    float x[8], y[8], d[8];
    double wz[8];
    unsigned hard = 0;
    int nv = q->nv;
    for (int k = 0; k < nv; k++) {
        double sx, sy, dd, z = D->flat ? D->flat_z : q->v[k][2];
        pv_view_project(D->view, q->v[k][0], q->v[k][1], z, &sx, &sy, &dd);
        x[k] = (float)sx, y[k] = (float)sy, d[k] = (float)dd;
        wz[k] = z;
        if (D->flat || q->v[k][2] == q->v[(k + 1) % nv][2]) hard |= 1u << k;
    }
    /* gnuplot lights a pm3d surface by its normal in user coordinates (not its
     * projections on the base or the top) */
    pv_rgba8 c = D->flat ? q->color : pv_scene_lit(D->F, q->color, (const double(*)[3])q->v, nv);
    c = pv_scene_fill_lighten(D->fill, c);
    uint64_t order = D->order_base | q->item;
    pv_status st = pv_raster_add_polygon(D->ctx, D->r, nv, x, y, d, wz, hard, c, order);
    if (st == PV_OK && D->F->pm3d_border)
        st = pv_scene_outline(D->ctx, D->F, D->r, nv, x, y, d, wz, order);
    return st;
}

pv_status pv_scene_outline(pv_ctx *ctx, const pv_scene_frame *F, pv_raster *r, int nv,
                           const float *x, const float *y, const float *d, const double *wz,
                           uint64_t order)
{
    return pv_scene_outline_bias(ctx, F, r, nv, x, y, d, wz, order, 1e-5f);
}

pv_status pv_scene_outline_bias(pv_ctx *ctx, const pv_scene_frame *F, pv_raster *r, int nv,
                                const float *x, const float *y, const float *d,
                                const double *wz, uint64_t order, float bias)
{
    pv_status st = PV_OK;
    for (int k = 0; k < nv && st == PV_OK; k++) {
        int j = (k + 1) % nv;
        /* drawn on the surface: a small bias towards the viewer wins the depth test */
        pv_raster_line l = {x[k], y[k], d[k] - bias, x[j], y[j], d[j] - bias,
                            (float)F->border_width, F->border_color, order};
        st = wz ? pv_raster_add_line_cut(ctx, r, &l, wz[k], wz[j])
                : pv_raster_add_lines(ctx, r, &l, 1);
    }
    return st;
}

pv_status pv_scene_draw_pm3d(pv_ctx *ctx, const pv_scene_frame *F, const pv_scene_elem *e,
                             pv_raster *r)
{
    pm3d_draw D = {ctx, F, F->view, r, PV_SCENE_ORDER(e->number, 0),
                   e->st.has_fill ? &e->st.fill : &F->fill, false, 0.0};
    const char *at = F->pm3d_at[0] ? F->pm3d_at : "s";
    pv_status st = PV_OK;
    for (int k = 0; at[k] && st == PV_OK; k++) {
        /* `at b|t`: the whole surface flattened onto the base plane or the box's top
         * (not cut at the z range first), as gnuplot projects it */
        pv_scene_frame Fk = *F;
        D.flat = at[k] != 's';
        D.flat_z = at[k] == 'b' ? F->view->base_z : F->view->ceiling_z;
        if (D.flat) Fk.zmin = -HUGE_VAL, Fk.zmax = HUGE_VAL;
        st = pv_scene_pm3d_quads(&Fk, e, add_quad, &D);
    }
    return st;
}
