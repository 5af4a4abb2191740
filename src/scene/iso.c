/*
 * scene/iso: `splot $grid with isosurface level L` (GP-7): this rank's facets, streamed.
 *
 * The kernel (iso.h) walks the rank's cell layers (its own planes plus the ghost plane of
 * the upper neighbour) for every level of the pass at once and hands over polygons in
 * batches; each is mapped to user coordinates, coloured (GP-7.3), lit (GP-7.6), cut to the
 * z range (`clip z`, GP-7.4), projected and added to the rasteriser. Nothing is kept
 * between batches, so memory does not grow with the triangle count here; the frame
 * driver renders and composites between steps (pv_scene_iso_draw takes a z bound).
 *
 * A facet belongs to the rank (and the step) whose cell produced it: cells lie between
 * two node planes and slab boundaries sit on node planes (pv_scene_slab), so facets never
 * cross a slab and are added without the raster's slab cut. That also keeps a surface
 * lying exactly in a boundary plane (voxels equal to the level) on the one rank that
 * extracted it. Facet edges are all soft (raster.h): each triangle covers exactly the
 * samples inside it, so a mesh of sub-pixel facets (a fine grid) covers every sample once.
 * Hard edges on node planes would give whole pixels to one side of a plane, which is exact
 * for large facets but double-covers or misses samples where several facets share a pixel.
 * Where two ranks (or two z steps) meet, a pixel's samples are then split between two
 * tiles, disjointly, and the compositor's per-sample "over" adds them (composite.h).
 */
#include "pvox/iso.h"
#include "scene_int.h"

#include <math.h>
#include <string.h>

pv_status pv_scene_iso_init(pv_ctx *ctx, pv_scene_iso *it, const pv_grid *g,
                            const pv_grid *slab_grid, const pv_scene_elem *const *elem, int n,
                            const float *ghost)
{
    memset(it, 0, sizeof *it);
    it->grid = g;
    it->ghost = ghost;
    it->cut = slab_grid != g;
    if (n > 65536)
        return pv_err(ctx, PV_ERANGE, "%d isosurfaces of %s in one plot: at most 65536", n,
                      g->name);
    it->elem = pv_alloc(ctx, (size_t)n * sizeof *it->elem);
    it->levels = it->elem ? pv_alloc(ctx, (size_t)n * sizeof *it->levels) : NULL;
    it->nelem = n; /* the sizes fini frees (NULL blocks count nothing) */
    if (!it->levels) {
        pv_scene_iso_fini(ctx, it);
        return ctx->err_code ? ctx->err_code : PV_ENOMEM;
    }
    for (int i = 0; i < n; i++) {
        it->elem[i] = elem[i];
        it->levels[i] = elem[i]->st.level;
    }
    /* layer k reads planes k and k+1: this rank's planes [z0, z1) and the ghost plane z1 */
    it->k_next = g->z0;
    it->k_end = g->z1 < g->n ? (ghost ? g->z1 : g->z1 - 1) : g->n - 1;
    if (it->k_end < it->k_next) it->k_end = it->k_next;
    return PV_OK;
}

void pv_scene_iso_fini(pv_ctx *ctx, pv_scene_iso *it)
{
    pv_free(ctx, (void *)it->elem, (size_t)it->nelem * sizeof *it->elem);
    pv_free(ctx, it->levels, (size_t)it->nelem * sizeof *it->levels);
    it->elem = NULL;
    it->levels = NULL;
    it->nelem = 0;
}

double pv_scene_iso_layer_z(const pv_scene_iso *it, int64_t k)
{
    return it->grid->min[2] + (double)k * it->grid->delta[2];
}

/* ---- per facet -------------------------------------------------------------------------- */

typedef struct iso_draw {
    pv_ctx *ctx;
    const pv_scene_frame *F;
    pv_scene_iso *it;
    pv_raster *r;
    pv_status st;
} iso_draw;

static const float *iso_plane(const void *ud, int64_t k)
{
    const pv_scene_iso *it = ud;
    const pv_grid *g = it->grid;
    if (k >= g->z1) return it->ghost;
    return g->data + (size_t)(k - g->z0) * (size_t)g->n * (size_t)g->n;
}

void pv_scene_iso_field(const pv_scene_iso *it, pv_iso_field *f)
{
    const pv_grid *g = it->grid;
    *f = (pv_iso_field){g->n, g->n, g->n, iso_plane, it};
}

/* Opacity of an element's facets: the fill style, `empty` meaning solid (GP-7.4). */
static uint8_t elem_alpha(const pv_scene_frame *F, const pv_scene_elem *e, uint8_t color_a)
{
    const pv_fill *fill = e->st.has_fill ? &e->st.fill : &F->fill;
    if (fill->kind == PV_FILL_SOLID && fill->transparent) {
        double a = fill->density < 0 ? 0 : fill->density > 1 ? 1 : fill->density;
        return (uint8_t)lrint(255.0 * a);
    }
    return color_a;
}

static pv_rgba8 lt_rgba(const pv_scene_colors *C, int lt)
{
    return pv_scene_rgba(C->lt_rgb(C->lt_ud, lt));
}

/* The facet's colour before lighting (GP-7.3). sx/sy: its first three projected vertices
 * (canvas pixels, y down); z2: the world z of its second vertex. */
static pv_rgba8 facet_color(const pv_scene_frame *F, const pv_scene_elem *e, const double *sx,
                            const double *sy, double z2)
{
    const pv_scene_colors *C = F->colors;
    const pv_color *lc = &e->st.lp.lc;
    if (lc->kind == PV_COLOR_PALETTE_Z)
        return pv_scene_rgba(pv_pal_color(&C->pal, z2, C->cbmin, C->cbmax));
    int N = e->st.lp.lt > 0 ? e->st.lp.lt : e->number;
    if (F->iso_inside > 0) {
        /* counter-clockwise on the screen (y up) or degenerate: the front colour */
        double cross = (sx[1] - sx[0]) * (sy[2] - sy[0]) - (sy[1] - sy[0]) * (sx[2] - sx[0]);
        return lt_rgba(C, -cross >= 0 ? N : N + F->iso_inside);
    }
    return pv_scene_item_color(C, e, z2, NAN);
}

static void draw_facet(iso_draw *D, const pv_iso_poly *p)
{
    const pv_scene_frame *F = D->F;
    const pv_grid *g = D->it->grid;
    const pv_scene_elem *e = D->it->elem[p->level];
    double w[4][3];
    for (int k = 0; k < p->nv; k++)
        for (int a = 0; a < 3; a++) w[k][a] = g->min[a] + p->v[k][a] * g->delta[a];

    double sx[4], sy[4], dd[4];
    for (int k = 0; k < 3; k++) pv_view_project(F->view, w[k][0], w[k][1], w[k][2], &sx[k], &sy[k], &dd[k]);
    pv_rgba8 c = facet_color(F, e, sx, sy, w[1][2]);
    c.a = elem_alpha(F, e, c.a);
    if (F->light) { /* gnuplot lights a facet by its normal in view coordinates */
        double m[4][3];
        for (int k = 0; k < p->nv; k++)
            pv_view_map(F->view, w[k][0], w[k][1], w[k][2], &m[k][0], &m[k][1], &m[k][2]);
        c = pv_scene_lit(F, c, (const double(*)[3])m, p->nv);
    }

    /* gnuplot's pm3d `clip z`: cut to the z range */
    double cl[8][3];
    int nv = p->nv;
    bool inside = true;
    for (int k = 0; k < nv; k++) inside = inside && w[k][2] >= F->zmin && w[k][2] <= F->zmax;
    if (inside)
        memcpy(cl, w, sizeof(double) * 3 * (size_t)nv);
    else if ((nv = pv_scene_clip_z((const double(*)[3])w, nv, F->zmin, F->zmax, cl)) < 3)
        return;

    float x[8], y[8], d[8];
    double wz[8];
    for (int k = 0; k < nv; k++) {
        double px, py, pd;
        pv_view_project(F->view, cl[k][0], cl[k][1], cl[k][2], &px, &py, &pd);
        x[k] = (float)px, y[k] = (float)py, d[k] = (float)pd;
        wz[k] = cl[k][2];
    }
    uint64_t order = PV_SCENE_ORDER(e->number, p->item);
    /* every edge soft (exact sample coverage): see the file comment */
    D->st = pv_raster_add_polygon(D->ctx, D->r, nv, x, y, d, D->it->cut ? wz : NULL, 0, c,
                                  order);
    if (D->st == PV_OK && F->pm3d_border)
        D->st = pv_scene_outline(D->ctx, F, D->r, nv, x, y, d, D->it->cut ? wz : NULL, order);
    D->it->tris += (uint64_t)(nv - 2);
}

static int emit(void *ud, const pv_iso_poly *p, size_t n)
{
    iso_draw *D = ud;
    for (size_t i = 0; i < n && D->st == PV_OK; i++) draw_facet(D, &p[i]);
    return D->st == PV_OK ? 0 : 1;
}

pv_status pv_scene_iso_draw(pv_ctx *ctx, const pv_scene_frame *F, pv_scene_iso *it, double zhi,
                            pv_raster *r)
{
    int64_t k1 = it->k_next;
    while (k1 < it->k_end && pv_scene_iso_layer_z(it, k1) < zhi) k1++;
    if (k1 == it->k_next) return PV_OK;
    pv_iso_field f;
    pv_scene_iso_field(it, &f);
    pv_iso_opts o = {F->iso_mixed, ctx->nthreads};
    iso_draw D = {ctx, F, it, r, PV_OK};
    int rc = pv_iso_extract(&f, it->k_next, k1, it->levels, it->nelem, &o, emit, &D, NULL);
    it->k_next = k1;
    if (rc != 0 && D.st == PV_OK)
        D.st = pv_err(ctx, PV_ENOMEM, "out of memory extracting isosurfaces");
    return D.st;
}
