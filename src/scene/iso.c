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
#include <stdlib.h>
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

/* ---- the polygon cache (scene.h) -------------------------------------------------------- */

/* A recorded polygon: what drawing needs of pv_iso_poly (not the edge ids). */
typedef struct pv_iso_rec {
    uint64_t item;
    uint16_t level;
    uint8_t nv;
    double v[4][3];
} pv_iso_rec;

static void cache_drop(pv_ctx *ctx, pv_scene_iso_cache *c)
{
    pv_free(ctx, c->rec, c->cap * sizeof *c->rec);
    pv_free(ctx, c->layer, c->layer ? (size_t)(c->k1 - c->k0 + 1) * sizeof *c->layer : 0);
    c->layer = NULL;
    free(c->levels);
    size_t budget = c->budget;
    memset(c, 0, sizeof *c);
    c->budget = budget;
}

void pv_scene_iso_cache_free(pv_ctx *ctx, pv_scene_iso_cache *c)
{
    if (c) cache_drop(ctx, c);
}

void pv_scene_iso_use_cache(pv_ctx *ctx, pv_scene_iso *it, pv_scene_iso_cache *c, bool mixed)
{
    it->cache = c;
    it->replay = false;
    if (!c) return;
    const pv_grid *g = it->grid;
    bool same = (c->complete || c->too_big) && c->grid == g && c->version == g->version &&
                c->mixed == mixed && c->nlevels == it->nelem && c->k0 == it->k_next &&
                c->k1 == it->k_end;
    for (int i = 0; same && i < it->nelem; i++)
        same = memcmp(&c->levels[i], &it->levels[i], sizeof(double)) == 0;
    if (same) {
        it->replay = c->complete; /* too big: streamed again, not recorded again */
        return;
    }
    cache_drop(ctx, c);
    size_t nl = (size_t)(it->k_end - it->k_next + 1);
    if ((size_t)it->nelem * sizeof(double) + nl * sizeof(size_t) > c->budget) return;
    c->k0 = it->k_next;
    c->k1 = it->k_end;
    c->levels = malloc((size_t)it->nelem * sizeof *c->levels);
    c->layer = c->levels ? pv_alloc(ctx, nl * sizeof *c->layer) : NULL;
    if (!c->layer) {
        pv_err_clear(ctx); /* not keeping polygons is no failure: the pass streams */
        cache_drop(ctx, c);
        return;
    }
    memcpy(c->levels, it->levels, (size_t)it->nelem * sizeof *c->levels);
    c->grid = g;
    c->version = g->version;
    c->mixed = mixed;
    c->nlevels = it->nelem;
    c->k_rec = c->k0;
    c->layer[0] = 0;
    c->recording = true;
}

/* Layer of a polygon (its cell's lower node plane). */
static int64_t poly_layer(const pv_grid *g, uint64_t item)
{
    return (int64_t)(item / PV_ISO_MAX_POLYS / ((uint64_t)g->n * (uint64_t)g->n));
}

/* Record one polygon; stop recording (and drop what was kept) past the budget or out of
 * layer order. */
static void cache_add(pv_ctx *ctx, pv_scene_iso_cache *c, const pv_grid *g, const pv_iso_poly *p)
{
    int64_t k = poly_layer(g, p->item);
    if (k < c->k_rec || k >= c->k1) {
        c->recording = false;
        return;
    }
    /* layer[k - k0] is where layer k starts; k_rec is the layer being recorded */
    while (c->k_rec < k) c->layer[++c->k_rec - c->k0] = c->n;
    if (c->n == c->cap) {
        size_t nc = c->cap ? 2 * c->cap : 4096;
        size_t fixed = (size_t)c->nlevels * sizeof(double) +
                       (size_t)(c->k1 - c->k0 + 1) * sizeof(size_t);
        if (nc * sizeof *c->rec + fixed > c->budget) {
            c->recording = false;
            return;
        }
        pv_iso_rec *nr = pv_alloc(ctx, nc * sizeof *nr);
        if (!nr) {
            pv_err_clear(ctx);
            c->recording = false;
            return;
        }
        if (c->n) memcpy(nr, c->rec, c->n * sizeof *nr);
        pv_free(ctx, c->rec, c->cap * sizeof *c->rec);
        c->rec = nr;
        c->cap = nc;
    }
    pv_iso_rec *r = &c->rec[c->n++];
    r->item = p->item;
    r->level = p->level;
    r->nv = p->nv;
    memcpy(r->v, p->v, sizeof r->v);
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
    int N = e->st.lp.lt > 0 ? e->st.lp.lt : e->line_num;
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
    c = pv_scene_fill_lighten(e->st.has_fill ? &e->st.fill : &F->fill, c);

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
    /* edges soft (exact sample coverage: see the file comment), except edges lying in a
     * plane this rank's slab shares with a neighbour: there the facets of the two ranks
     * meet, and a hard edge gives each pixel wholly to one of them, so no pixel is split
     * between two tiles (a split pixel composites exactly only through its per-sample
     * colours, composite.h, which cost bytes on the wire).
     * Only for opaque facets: where facets are small, a hard edge may also cover samples
     * of the neighbour's next facets, which an opaque surface hides but a transparent one
     * would blend twice. */
    unsigned hard = 0;
    if (inside && !D->it->cut && c.a == 255) {
        const pv_grid *gg = D->it->grid;
        double lo = gg->z0 > 0 ? (double)gg->z0 : -1.0;
        double hi = gg->z1 < gg->n ? (double)gg->z1 : -1.0;
        for (int k = 0; k < nv; k++) {
            double za = p->v[k][2], zb = p->v[(k + 1) % nv][2];
            if (za == zb && (za == lo || za == hi)) hard |= 1u << k;
        }
    }
    D->st = pv_raster_add_polygon(D->ctx, D->r, nv, x, y, d, D->it->cut ? wz : NULL, hard, c,
                                  order);
    if (D->st == PV_OK && F->pm3d_border)
        D->st = pv_scene_outline(D->ctx, F, D->r, nv, x, y, d, D->it->cut ? wz : NULL, order);
    D->it->tris += (uint64_t)(nv - 2);
}

static int emit(void *ud, const pv_iso_poly *p, size_t n)
{
    iso_draw *D = ud;
    pv_scene_iso_cache *c = D->it->cache;
    for (size_t i = 0; i < n && D->st == PV_OK; i++) {
        if (c && c->recording) cache_add(D->ctx, c, D->it->grid, &p[i]);
        draw_facet(D, &p[i]);
    }
    return D->st == PV_OK ? 0 : 1;
}

/* Draw the recorded polygons of layers [k0, k1). */
static void replay(iso_draw *D, int64_t k0, int64_t k1)
{
    const pv_scene_iso_cache *c = D->it->cache;
    pv_iso_poly p;
    memset(&p, 0, sizeof p);
    for (size_t i = c->layer[k0 - c->k0]; i < c->layer[k1 - c->k0] && D->st == PV_OK; i++) {
        const pv_iso_rec *r = &c->rec[i];
        p.item = r->item;
        p.level = r->level;
        p.nv = r->nv;
        memcpy(p.v, r->v, sizeof p.v);
        draw_facet(D, &p);
    }
}

pv_status pv_scene_iso_draw(pv_ctx *ctx, const pv_scene_frame *F, pv_scene_iso *it, double zhi,
                            pv_raster *r)
{
    int64_t k1 = it->k_next;
    while (k1 < it->k_end && pv_scene_iso_layer_z(it, k1) < zhi) k1++;
    if (k1 == it->k_next) return PV_OK;
    iso_draw D = {ctx, F, it, r, PV_OK};
    if (it->replay) {
        replay(&D, it->k_next, k1);
        it->k_next = k1;
        return D.st;
    }
    pv_iso_field f;
    pv_scene_iso_field(it, &f);
    pv_iso_opts o = {F->iso_mixed, ctx->nthreads};
    int rc = pv_iso_extract(&f, it->k_next, k1, it->levels, it->nelem, &o, emit, &D, NULL);
    it->k_next = k1;
    if (rc != 0 && D.st == PV_OK)
        D.st = pv_err(ctx, PV_ENOMEM, "out of memory extracting isosurfaces");
    pv_scene_iso_cache *c = it->cache;
    if (c && c->recording) {
        /* layers without polygons up to k1 */
        while (c->k_rec < k1) c->layer[++c->k_rec - c->k0] = c->n;
        if (k1 == c->k1 && D.st == PV_OK) {
            c->recording = false;
            c->complete = true;
        }
    }
    if (c && !c->recording && !c->complete && !c->too_big) {
        /* outgrown: keep only the key, so the next frames do not try again */
        pv_free(ctx, c->rec, c->cap * sizeof *c->rec);
        pv_free(ctx, c->layer, (size_t)(c->k1 - c->k0 + 1) * sizeof *c->layer);
        c->rec = NULL;
        c->layer = NULL;
        c->n = c->cap = 0;
        c->too_big = true;
    }
    return D.st;
}
