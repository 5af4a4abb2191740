/*
 * scene/polygons: `splot ... with polygons` and `set object N polygon ... depthorder`:
 * each scan line (a data block) is one filled polygon, depth-sorted with everything
 * else as gnuplot sorts them with pm3d's depthorder. Its colour is the element's `fc`
 * (else its line colour), with the element's fill style (else `set style fill`): solid
 * (lightened below density 1), transparent solid, and pattern fills drawn as transparent
 * solid 0.5 (pvox draws no hatching); an `fs empty` given on the element fills nothing,
 * while `set style fill empty` still fills data polygons, as gnuplot does. `set pm3d lighting` shades
 * it and `set pm3d border` outlines it, as gnuplot does for these polygons. Polygons of
 * more than 16 vertices are drawn as fans of at most 16 (convex polygons, as gnuplot
 * expects).
 */
#include "scene_int.h"

#include <math.h>
#include <stdlib.h>

/* The polygon's colour with the fill's opacity; false if the fill draws nothing. */
static bool polygon_color(const pv_scene_frame *F, const pv_scene_elem *e, pv_rgba8 *out)
{
    const pv_fill *fill = e->st.has_fill ? &e->st.fill : &F->fill;
    pv_scene_elem tmp = *e;
    if (e->st.fc.kind != PV_COLOR_DEFAULT) tmp.st.lp.lc = e->st.fc;
    pv_rgba8 c = pv_scene_item_color(F->colors, &tmp, NAN, NAN);
    double alpha = 1.0;
    /* data polygons are filled even under `set style fill empty` (measured); an object
     * with `fs empty` is not */
    if (fill->kind == PV_FILL_EMPTY && e->st.has_fill) return false;
    if (fill->kind == PV_FILL_PATTERN) alpha = 0.5;
    else if (fill->transparent) alpha = fill->density;
    else c = pv_scene_fill_lighten(fill, c);
    if (alpha < 0) alpha = 0;
    if (alpha > 1) alpha = 1;
    c.a = (uint8_t)lrint(255.0 * alpha);
    *out = c;
    return c.a > 0;
}

pv_status pv_scene_draw_polygons(pv_ctx *ctx, const pv_scene_frame *F, const pv_scene_elem *e,
                                 pv_raster *r)
{
    pv_rgba8 base;
    bool filled = polygon_color(F, e, &base);
    if ((!filled && !F->pm3d_border) || e->nrows == 0) return PV_OK;
    uint64_t order0 = PV_SCENE_ORDER(e->number, 0);
    /* the longest scan bounds the scratch arrays */
    size_t most = 0;
    for (size_t k = 0; k < e->nscan; k++) {
        size_t len = e->scan[k] - (k == 0 ? 0 : e->scan[k - 1]);
        if (len > most) most = len;
    }
    double (*v)[3] = malloc(most * sizeof *v);
    float *xyd = malloc(most * 3 * sizeof *xyd);
    double *wz = malloc(most * sizeof *wz);
    pv_status st = v && xyd && wz ? PV_OK : pv_err(ctx, PV_ENOMEM, "out of memory");
    float *x = xyd, *y = xyd ? xyd + most : NULL, *d = xyd ? xyd + 2 * most : NULL;
    for (size_t k = 0; k < e->nscan && st == PV_OK; k++) {
        size_t first = k == 0 ? 0 : e->scan[k - 1];
        int n = 0;
        for (size_t i = first; i < e->scan[k]; i++) {
            const double *p = e->vals + i * (size_t)e->ncols;
            if (!isfinite(p[0]) || !isfinite(p[1]) || !isfinite(p[2])) continue;
            v[n][0] = p[0], v[n][1] = p[1], v[n][2] = p[2];
            double sx, sy, dd;
            pv_view_project(F->view, p[0], p[1], p[2], &sx, &sy, &dd);
            x[n] = (float)sx, y[n] = (float)sy, d[n] = (float)dd;
            wz[n++] = p[2];
        }
        if (n < 3) continue;
        uint64_t order = order0 | k;
        if (filled) {
            pv_rgba8 c = pv_scene_lit(F, base, (const double(*)[3])v, n);
            /* fans of at most 16 vertices around the first */
            for (int s0 = 1; s0 + 1 < n && st == PV_OK; s0 += 14) {
                int m = n - s0 < 15 ? n - s0 : 15;
                float fx[16], fy[16], fd[16];
                double fz[16];
                fx[0] = x[0], fy[0] = y[0], fd[0] = d[0], fz[0] = wz[0];
                for (int q = 0; q < m; q++)
                    fx[q + 1] = x[s0 + q], fy[q + 1] = y[s0 + q], fd[q + 1] = d[s0 + q],
                    fz[q + 1] = wz[s0 + q];
                st = pv_raster_add_polygon(ctx, r, m + 1, fx, fy, fd, fz, 0u, c, order);
            }
        }
        if (st == PV_OK && F->pm3d_border)
            st = pv_scene_outline_bias(ctx, F, r, n, x, y, d, wz, order, 2e-3f);
    }
    free(v);
    free(xyd);
    free(wz);
    return st;
}
