/*
 * render/raster.c: the rasteriser object (primitives, marker styles, slab cuts) and the
 * render driver (raster.h). One render:
 *   1. ranks: the place of each primitive when sorted by order number (stable; skipped
 *      when orders never decrease), so ties at equal depth go the same way however the
 *      primitives were split or added;
 *   2. one coverage sprite per marker style in use (marker centres snapped to pixel
 *      centres, as pngcairo does);
 *   3. binning into 64x64 screen bins, two passes over fixed chunks of the primitives
 *      in index order (so every bin's list is the same whatever the thread count): flat
 *      primitives (points, constant-depth triangles) as self-contained items, which
 *      each bin sorts near to far, and the other triangles by rank;
 *   4. bins rendered in parallel (raster_bin.c), each writing only its own pixels.
 * Every step is deterministic: the bits of the tile do not depend on the thread count.
 */
#include "raster_int.h"

#include <math.h>
#include <omp.h>
#include <string.h>

#define RS_DEFAULT_FRAGS ((size_t)1 << 19)
#define RS_MIN_FRAGS ((size_t)8192)
#define RS_MAX_PRIMS ((size_t)0xFFFFFFFEu)
#define RS_SPRITE_MAX_W 256                  /* wider markers are drawn directly */
#define RS_SPRITE_POOL_MAX ((size_t)32 << 20) /* masks kept as sprites per render */
#define RS_COORD_MAX 1.0e9f                  /* coordinates are clamped before int casts */
#define RS_SORT_TMP_MAX ((size_t)1 << 20)   /* items a bin radix-sorts (larger: qsort) */

void pv_raster_options_default(pv_raster_options *o)
{
    memset(o, 0, sizeof *o);
    o->frag_capacity = RS_DEFAULT_FRAGS;
    o->snap_markers = true;
}

pv_raster *pv_raster_create(pv_ctx *ctx, int canvas_w, int canvas_h)
{
    if (canvas_w <= 0 || canvas_h <= 0 || canvas_w > (1 << 20) || canvas_h > (1 << 20)) {
        pv_err(ctx, PV_ERANGE, "canvas %dx%d is out of range", canvas_w, canvas_h);
        return NULL;
    }
    pv_raster *r = pv_calloc(ctx, 1, sizeof *r);
    if (!r) return NULL;
    r->cw = canvas_w;
    r->ch = canvas_h;
    r->slab_lo = -INFINITY;
    r->slab_hi = INFINITY;
    pv_raster_options_default(&r->opt);
    return r;
}

void pv_raster_destroy(pv_ctx *ctx, pv_raster *r)
{
    if (!r) return;
    pv_free(ctx, r->styles, r->cap_styles * sizeof *r->styles);
    pv_free(ctx, r->style_hash, r->hash_cap * sizeof *r->style_hash);
    pv_free(ctx, r->pts, r->cap_pts * sizeof *r->pts);
    pv_free(ctx, r->tris, r->cap_tris * sizeof *r->tris);
    pv_free(ctx, r->tri_cut, r->cap_tri_cut * sizeof *r->tri_cut);
    pv_free(ctx, r->cuts, r->cap_cuts * sizeof *r->cuts);
    pv_free(ctx, r->sprites, r->cap_sprite * sizeof *r->sprites);
    for (int i = 0; i < RS_WCACHE; i++) pv_free(ctx, r->wcache[i], r->wcache_n[i]);
    pv_free(ctx, r, sizeof *r);
}

void pv_raster_set_options(pv_raster *r, const pv_raster_options *o)
{
    r->opt = *o;
    if (r->opt.frag_capacity == 0) r->opt.frag_capacity = RS_DEFAULT_FRAGS;
    if (r->opt.frag_capacity < RS_MIN_FRAGS) r->opt.frag_capacity = RS_MIN_FRAGS;
}

void pv_raster_clear(pv_raster *r)
{
    r->npts = 0;
    r->ntris = 0;
    r->ncuts = 0;
}

void pv_raster_set_slab(pv_raster *r, double zlo, double zhi)
{
    r->slab_lo = zlo;
    r->slab_hi = zhi;
}

size_t pv_raster_count_points(const pv_raster *r)
{
    return r->npts;
}

size_t pv_raster_count_tris(const pv_raster *r)
{
    return r->ntris;
}

/* ---- marker styles ------------------------------------------------------------------------ */

static uint32_t style_hash(int type, float size, float lw)
{
    union {
        float f;
        uint32_t u;
    } a = {size}, b = {lw};
    uint32_t h = 2166136261u;
    uint32_t w[3] = {(uint32_t)type, a.u, b.u};
    for (int i = 0; i < 3; i++) {
        h ^= w[i];
        h *= 16777619u;
        h ^= h >> 15;
    }
    return h;
}

static bool style_rehash(pv_ctx *ctx, pv_raster *r, size_t cap)
{
    uint32_t *nh = pv_calloc(ctx, cap, sizeof *nh);
    if (!nh) return false;
    for (size_t i = 0; i < r->nstyles; i++) {
        const rs_style *st = &r->styles[i];
        size_t j = style_hash(st->type, st->size, st->lw) & (cap - 1);
        while (nh[j]) j = (j + 1) & (cap - 1);
        nh[j] = (uint32_t)i + 1;
    }
    pv_free(ctx, r->style_hash, r->hash_cap * sizeof *r->style_hash);
    r->style_hash = nh;
    r->hash_cap = cap;
    return true;
}

uint32_t pv_raster_marker_style(pv_ctx *ctx, pv_raster *r, int type, float size, float lw)
{
    if (type < 0) return PV_RASTER_STYLE_NONE;
    if (type > 15) type = 1 + (type - 1) % 15;
    if (!isfinite(size) || size < 0.0f || !isfinite(lw) || lw < 0.0f) {
        pv_err(ctx, PV_ERANGE, "point size %g and line width %g must be finite and >= 0",
               (double)size, (double)lw);
        return PV_RASTER_STYLE_NONE;
    }
    if (lw < 0.2f) lw = 0.2f; /* gnuplot's cairo terminals do the same */
    /* markers beyond any canvas (65535 px) are drawn at that size: their pixel
     * arithmetic stays within int (`set pointsize 1e9`) */
    if (size > 65536.0f) size = 65536.0f;
    if (lw > 65536.0f) lw = 65536.0f;
    if (type == PV_MARK_DOT) size = lw = 0.0f;
    if (r->hash_cap < 2 * (r->nstyles + 1) && !style_rehash(ctx, r, r->hash_cap ? 2 * r->hash_cap : 64))
        return PV_RASTER_STYLE_NONE;
    size_t j = style_hash(type, size, lw) & (r->hash_cap - 1);
    for (; r->style_hash[j]; j = (j + 1) & (r->hash_cap - 1)) {
        const rs_style *st = &r->styles[r->style_hash[j] - 1];
        if (st->type == type && st->size == size && st->lw == lw) return r->style_hash[j] - 1;
    }
    if (r->nstyles >= RS_MAX_STYLES) {
        pv_err(ctx, PV_ERANGE, "too many distinct point styles (more than %u)", RS_MAX_STYLES);
        return PV_RASTER_STYLE_NONE;
    }
    if (!PV_GROW(ctx, r->styles, r->cap_styles, r->nstyles + 1)) return PV_RASTER_STYLE_NONE;
    rs_style_build(&r->styles[r->nstyles], type, size, lw);
    r->style_hash[j] = (uint32_t)r->nstyles + 1;
    return (uint32_t)r->nstyles++;
}

uint16_t pv_raster_marker_mask(const pv_raster *r, uint32_t style, float cx, float cy, int px,
                               int py)
{
    if (style >= r->nstyles) return 0;
    uint16_t m[RS_MAX_PARTS];
    return rs_style_mask(&r->styles[style], cx, cy, px, py, m);
}

/* ---- adding primitives -------------------------------------------------------------------- */

static pv_status check_count(pv_ctx *ctx, const pv_raster *r, size_t more)
{
    if (more > RS_MAX_PRIMS || r->npts + r->ntris > RS_MAX_PRIMS - more)
        return pv_err(ctx, PV_ERANGE, "too many primitives in one frame (more than %zu)",
                      RS_MAX_PRIMS);
    return PV_OK;
}

pv_status pv_raster_add_points(pv_ctx *ctx, pv_raster *r, const pv_raster_point *p, size_t n)
{
    pv_status st = check_count(ctx, r, n);
    if (st) return st;
    if (!PV_GROW(ctx, r->pts, r->cap_pts, r->npts + n)) return ctx->err_code;
    for (size_t i = 0; i < n; i++) {
        if (p[i].style >= r->nstyles || !isfinite(p[i].x) || !isfinite(p[i].y) ||
            !isfinite(p[i].depth))
            continue;
        if (r->styles[p[i].style].nparts == 0 || p[i].color.a == 0) continue;
        r->pts[r->npts++] = p[i];
    }
    return PV_OK;
}

/* Store one triangle with positive area (y down), its cut (0 or 1 + index) and hard
 * edges; drop degenerate or non-finite ones. Room must have been reserved. */
static void push_tri(pv_raster *r, const pv_raster_tri *t, uint32_t cut, unsigned hard)
{
    for (int k = 0; k < 3; k++)
        if (!isfinite(t->x[k]) || !isfinite(t->y[k]) || !isfinite(t->depth[k])) return;
    if (t->color.a == 0) return;
    double area2 = ((double)t->x[1] - (double)t->x[0]) * ((double)t->y[2] - (double)t->y[0]) -
                   ((double)t->x[2] - (double)t->x[0]) * ((double)t->y[1] - (double)t->y[0]);
    if (!(area2 != 0.0)) return;
    pv_raster_tri *d = &r->tris[r->ntris];
    *d = *t;
    hard &= 7u;
    if (area2 < 0.0) { /* swap vertices 1 and 2: edges become 0->2, 2->1, 1->0 */
        d->x[1] = t->x[2], d->y[1] = t->y[2], d->depth[1] = t->depth[2];
        d->x[2] = t->x[1], d->y[2] = t->y[1], d->depth[2] = t->depth[1];
        hard = ((hard >> 2) & 1u) | (hard & 2u) | ((hard & 1u) << 2);
    }
    r->tri_cut[r->ntris++] = cut | (uint32_t)hard << RS_HARD_SHIFT;
}

static pv_status reserve_tris(pv_ctx *ctx, pv_raster *r, size_t n)
{
    pv_status st = check_count(ctx, r, n);
    if (st) return st;
    if (!PV_GROW(ctx, r->tris, r->cap_tris, r->ntris + n)) return ctx->err_code;
    if (!PV_GROW(ctx, r->tri_cut, r->cap_tri_cut, r->ntris + n)) return ctx->err_code;
    return PV_OK;
}

pv_status pv_raster_add_tris(pv_ctx *ctx, pv_raster *r, const pv_raster_tri *t, size_t n)
{
    pv_status st = reserve_tris(ctx, r, n);
    if (st) return st;
    for (size_t i = 0; i < n; i++) push_tri(r, &t[i], 0, 0);
    return PV_OK;
}

/* ---- slab cuts ---------------------------------------------------------------------------- */

/* Orient cut line k so that screen point (vx, vy), on the kept side, is on its left. */
static void orient_cut(rs_cut *c, int k, float vx, float vy)
{
    double a = (double)c->py[k] - (double)c->qy[k], b = (double)c->qx[k] - (double)c->px[k];
    double e = a * (double)vx + b * (double)vy +
               ((double)c->px[k] * (double)c->qy[k] - (double)c->qx[k] * (double)c->py[k]);
    if (e >= 0.0) return;
    float tx = c->px[k], ty = c->py[k];
    c->px[k] = c->qx[k], c->py[k] = c->qy[k];
    c->qx[k] = tx, c->qy[k] = ty;
}

/* Side of world z against plane zc: -1 below, 0 on it, 1 above. */
static int side_of(double z, double zc)
{
    return z < zc ? -1 : (z > zc ? 1 : 0);
}

/* Which part of a primitive a slab plane keeps. Plane 0 (the slab's bottom zlo) keeps
 * z >= zlo, plane 1 (its top zhi) keeps z < zhi; a primitive lying in the plane belongs
 * to the slab above it. Returns -1 (nothing: not this slab's), 0 (all: no cut) or 1
 * (cut: vertices strictly on both sides). */
static int plane_split(const double *wz, int n, int plane, double zc)
{
    int below = 0, above = 0;
    for (int i = 0; i < n; i++) {
        int sd = side_of(wz[i], zc);
        below += sd < 0;
        above += sd > 0;
    }
    int mine = plane == 0 ? above : below, other = plane == 0 ? below : above;
    if (mine == 0 && other == 0) return plane == 0 ? 0 : -1; /* in the plane */
    if (mine == 0) return -1;
    return other == 0 ? 0 : 1;
}

/* Cut lines of a convex polygon against the slab: -1 if it lies outside, else the number
 * of lines (0..2) in *c. The two crossing points are vertices on the plane or
 * interpolated along edges as given, so the neighbour slab, testing the other side of
 * the same plane, computes the very same points and the opposite orientation. */
static int polygon_cut(const pv_raster *r, int n, const float *x, const float *y,
                       const double *wz, rs_cut *c)
{
    c->n = 0;
    for (int plane = 0; plane < 2; plane++) {
        double zc = plane == 0 ? r->slab_lo : r->slab_hi;
        if (!isfinite(zc)) continue;
        int split = plane_split(wz, n, plane, zc);
        if (split < 0) return -1;
        if (split == 0) continue;
        int k = c->n, found = 0, best = 0;
        float cx[2] = {0, 0}, cy[2] = {0, 0};
        for (int i = 0; i < n && found < 2; i++) {
            int j = (i + 1) % n;
            int si = side_of(wz[i], zc), sj = side_of(wz[j], zc);
            if (fabs(wz[i] - zc) > fabs(wz[best] - zc)) best = i;
            if (si == 0) {
                cx[found] = x[i], cy[found] = y[i];
                found++;
            } else if (sj != 0 && si != sj && found < 2) {
                double t = (zc - wz[i]) / (wz[j] - wz[i]);
                cx[found] = (float)((double)x[i] + t * ((double)x[j] - (double)x[i]));
                cy[found] = (float)((double)y[i] + t * ((double)y[j] - (double)y[i]));
                found++;
            }
        }
        for (int i = 0; i < n; i++)
            if (fabs(wz[i] - zc) > fabs(wz[best] - zc)) best = i;
        if (found < 2 || (cx[0] == cx[1] && cy[0] == cy[1])) continue;
        c->px[k] = cx[0], c->py[k] = cy[0];
        c->qx[k] = cx[1], c->qy[k] = cy[1];
        /* orient with the vertex farthest from the plane, on the side this slab keeps
         * (the farthest vertex overall may be on the other side: pick per side) */
        int keep = -1;
        double far = -1.0;
        for (int i = 0; i < n; i++) {
            int sd = side_of(wz[i], zc);
            if ((plane == 0 && sd <= 0) || (plane == 1 && sd >= 0)) continue;
            if (fabs(wz[i] - zc) > far) far = fabs(wz[i] - zc), keep = i;
        }
        (void)best;
        orient_cut(c, k, x[keep], y[keep]);
        c->n++;
    }
    return c->n;
}

/* Store a cut record; returns 0 (none), 1 + index, or ~0u on failure. */
static uint32_t store_cut(pv_ctx *ctx, pv_raster *r, const rs_cut *c)
{
    if (c->n == 0) return 0;
    if (r->ncuts >= RS_CUT_INDEX - 1) {
        pv_err(ctx, PV_ERANGE, "too many slab cuts in one frame");
        return ~0u;
    }
    if (!PV_GROW(ctx, r->cuts, r->cap_cuts, r->ncuts + 1)) return ~0u;
    r->cuts[r->ncuts] = *c;
    return (uint32_t)++r->ncuts;
}

pv_status pv_raster_add_polygon(pv_ctx *ctx, pv_raster *r, int n, const float *x,
                                const float *y, const float *depth, const double *wz,
                                unsigned hard, pv_rgba8 color, uint64_t order)
{
    if (n < 3 || n > 16) return pv_err(ctx, PV_ERANGE, "polygon of %d vertices", n);
    uint32_t cut = 0;
    if (wz) {
        rs_cut c;
        if (polygon_cut(r, n, x, y, wz, &c) < 0) return PV_OK; /* another slab's */
        cut = store_cut(ctx, r, &c);
        if (cut == ~0u) return ctx->err_code;
    }
    pv_status st = reserve_tris(ctx, r, (size_t)n - 2);
    if (st) return st;
    /* a polygon whose every edge is hard (lying in one node plane) gives each pixel to the
     * triangle its centre is in: its fan edges are hard too. A soft fan edge meeting hard
     * edges at a vertex would let the pixel there be claimed by this polygon's samples
     * beyond its hard edge and by its neighbour's centre test both. */
    bool all_hard = (hard & ((1u << n) - 1u)) == (1u << n) - 1u;
    for (int i = 1; i + 1 < n; i++) {
        pv_raster_tri t = {.x = {x[0], x[i], x[i + 1]},
                           .y = {y[0], y[i], y[i + 1]},
                           .depth = {depth[0], depth[i], depth[i + 1]},
                           .color = color,
                           .order = order};
        /* fan edges: 0->i is the polygon's edge 0 only for i = 1, i+1->0 its last edge
         * only for i+1 = n-1; i->i+1 is always polygon edge i */
        unsigned h = ((hard >> i) & 1u) << 1;
        if (i == 1) h |= hard & 1u;
        if (i + 2 == n) h |= ((hard >> (n - 1)) & 1u) << 2;
        if (all_hard) h = 7u;
        push_tri(r, &t, cut, h);
    }
    return PV_OK;
}

/* The rectangle of a line (butt ends) as two triangles, with a cut. */
static void push_line(pv_raster *r, const pv_raster_line *l, uint32_t cut)
{
    float dx = l->x1 - l->x0, dy = l->y1 - l->y0;
    float len = sqrtf(dx * dx + dy * dy);
    if (!(len > 0.0f) || !(l->width > 0.0f)) return;
    float hw = 0.5f * l->width;
    float nx = -dy / len * hw, ny = dx / len * hw;
    /* rectangle a b c d around the segment; depth varies along it only */
    float x[4] = {l->x0 + nx, l->x1 + nx, l->x1 - nx, l->x0 - nx};
    float y[4] = {l->y0 + ny, l->y1 + ny, l->y1 - ny, l->y0 - ny};
    float d[4] = {l->depth0, l->depth1, l->depth1, l->depth0};
    static const int idx[2][3] = {{0, 1, 2}, {0, 2, 3}};
    for (int k = 0; k < 2; k++) {
        pv_raster_tri t = {.color = l->color, .order = l->order};
        for (int v = 0; v < 3; v++) {
            t.x[v] = x[idx[k][v]];
            t.y[v] = y[idx[k][v]];
            t.depth[v] = d[idx[k][v]];
        }
        push_tri(r, &t, cut, 0);
    }
}

pv_status pv_raster_add_lines(pv_ctx *ctx, pv_raster *r, const pv_raster_line *l, size_t n)
{
    if (n > RS_MAX_PRIMS / 2) return check_count(ctx, r, RS_MAX_PRIMS);
    pv_status st = reserve_tris(ctx, r, 2 * n);
    if (st) return st;
    for (size_t i = 0; i < n; i++) push_line(r, &l[i], 0);
    return PV_OK;
}

pv_status pv_raster_add_line_cut(pv_ctx *ctx, pv_raster *r, const pv_raster_line *l,
                                 double wz0, double wz1)
{
    /* each crossing point, cut across the line (perpendicular to it on the screen) */
    rs_cut c = {0};
    double wz[2] = {wz0, wz1};
    float dx = l->x1 - l->x0, dy = l->y1 - l->y0;
    for (int plane = 0; plane < 2; plane++) {
        double zc = plane == 0 ? r->slab_lo : r->slab_hi;
        if (!isfinite(zc)) continue;
        int split = plane_split(wz, 2, plane, zc);
        if (split < 0) return PV_OK;
        if (split == 0) continue;
        double t = (zc - wz[0]) / (wz[1] - wz[0]);
        float cx = (float)((double)l->x0 + t * (double)dx);
        float cy = (float)((double)l->y0 + t * (double)dy);
        int k = c.n++;
        c.px[k] = cx, c.py[k] = cy;
        c.qx[k] = cx - dy, c.qy[k] = cy + dx;
        bool end0_kept = plane == 0 ? wz0 > zc : wz0 < zc;
        if (end0_kept)
            orient_cut(&c, k, l->x0, l->y0);
        else
            orient_cut(&c, k, l->x1, l->y1);
    }
    uint32_t cut = store_cut(ctx, r, &c);
    if (cut == ~0u) return ctx->err_code;
    pv_status st = reserve_tris(ctx, r, 2);
    if (st) return st;
    push_line(r, l, cut);
    return PV_OK;
}

/* ---- render: working memory ---------------------------------------------------------------- */

#define WORK_MAX 16
/* The buffers of one render. They come from the raster's cache of earlier renders when
 * one is large enough and go back to it at the end, so a sequence of similar frames
 * allocates nothing after its first. */
typedef struct work {
    pv_ctx *ctx;
    pv_raster *r;
    void *p[WORK_MAX];
    size_t n[WORK_MAX];
} work;

/* Take the smallest cached buffer of at least `bytes`, or NULL. */
static void *cache_take(pv_raster *r, size_t bytes, size_t *got)
{
    int best = -1;
    for (int i = 0; i < RS_WCACHE; i++)
        if (r->wcache[i] && r->wcache_n[i] >= bytes &&
            (best < 0 || r->wcache_n[i] < r->wcache_n[best]))
            best = i;
    if (best < 0) return NULL;
    void *p = r->wcache[best];
    *got = r->wcache_n[best];
    r->wcache[best] = NULL;
    r->wcache_n[best] = 0;
    return p;
}

/* Give a buffer back to the cache (freed when the cache is full of larger ones). */
static void cache_put(pv_ctx *ctx, pv_raster *r, void *p, size_t n)
{
    int slot = -1;
    for (int i = 0; i < RS_WCACHE && slot < 0; i++)
        if (!r->wcache[i]) slot = i;
    if (slot < 0) {
        slot = 0;
        for (int i = 1; i < RS_WCACHE; i++)
            if (r->wcache_n[i] < r->wcache_n[slot]) slot = i;
        if (r->wcache_n[slot] >= n) {
            pv_free(ctx, p, n);
            return;
        }
        pv_free(ctx, r->wcache[slot], r->wcache_n[slot]);
    }
    r->wcache[slot] = p;
    r->wcache_n[slot] = n;
}

static void *walloc(work *w, size_t count, size_t elem)
{
    size_t bytes;
    if (!pv_mul_size(count ? count : 1, elem, &bytes)) {
        pv_err(w->ctx, PV_ENOMEM, "out of memory: %zu x %zu bytes", count, elem);
        return NULL;
    }
    for (int i = 0; i < WORK_MAX; i++) {
        if (w->p[i]) continue;
        size_t got = bytes;
        void *p = cache_take(w->r, bytes, &got);
        if (!p) p = pv_alloc(w->ctx, bytes);
        w->p[i] = p;
        w->n[i] = got;
        return p;
    }
    pv_err(w->ctx, PV_EINTERNAL, "raster: too many work buffers");
    return NULL;
}

static void wfree(work *w, void *p)
{
    for (int i = 0; i < WORK_MAX; i++) {
        if (w->p[i] != p || !p) continue;
        cache_put(w->ctx, w->r, p, w->n[i]);
        w->p[i] = NULL;
    }
}

static void wfree_all(work *w)
{
    for (int i = 0; i < WORK_MAX; i++) wfree(w, w->p[i]);
}

/* ---- render: ranks ---------------------------------------------------------------------------- */

/* Stable LSD radix sort of (key, val) pairs by 32-bit key, over nc fixed chunks (the
 * result does not depend on the thread count). hist holds nc*256 counters. Bytes that
 * are equal in every key are skipped. */
static void radix_u32(uint32_t *k, uint32_t *v, uint32_t *tk, uint32_t *tv, size_t n, int nc,
                      size_t *hist)
{
    uint32_t *ks = k, *vs = v, *kd = tk, *vd = tv;
    for (int shift = 0; shift < 32; shift += 8) {
#pragma omp parallel for schedule(static) num_threads(nc) default(none) \
    shared(ks, n, nc, hist, shift)
        for (int c = 0; c < nc; c++) {
            size_t *h = hist + 256 * (size_t)c;
            memset(h, 0, 256 * sizeof *h);
            for (size_t i = n * (size_t)c / (size_t)nc; i < n * (size_t)(c + 1) / (size_t)nc; i++)
                h[(ks[i] >> shift) & 255u]++;
        }
        size_t total = 0;
        bool one_bucket = false;
        for (int b = 0; b < 256; b++) {
            size_t sum = 0;
            for (int c = 0; c < nc; c++) sum += hist[256 * (size_t)c + (size_t)b];
            if (sum == n) one_bucket = true;
        }
        if (one_bucket) continue;
        for (int b = 0; b < 256; b++) {
            for (int c = 0; c < nc; c++) {
                size_t *h = &hist[256 * (size_t)c + (size_t)b];
                size_t cnt = *h;
                *h = total;
                total += cnt;
            }
        }
#pragma omp parallel for schedule(static) num_threads(nc) default(none) \
    shared(ks, vs, kd, vd, n, nc, hist, shift)
        for (int c = 0; c < nc; c++) {
            size_t *h = hist + 256 * (size_t)c;
            for (size_t i = n * (size_t)c / (size_t)nc; i < n * (size_t)(c + 1) / (size_t)nc;
                 i++) {
                size_t pos = h[(ks[i] >> shift) & 255u]++;
                kd[pos] = ks[i];
                vd[pos] = vs[i];
            }
        }
        uint32_t *t = ks;
        ks = kd;
        kd = t;
        t = vs;
        vs = vd;
        vd = t;
    }
    if (ks != k) {
        memcpy(k, ks, n * sizeof *k);
        memcpy(v, vs, n * sizeof *v);
    }
}

static uint64_t prim_order(const pv_raster *r, size_t p)
{
    return p < r->npts ? r->pts[p].order : r->tris[p - r->npts].order;
}

/* Ranks by order number (stable). Leaves f->rank/byrank NULL when orders never decrease
 * in the order primitives were added (then rank = index). */
static pv_status compute_ranks(work *w, const pv_raster *r, rs_frame *f, int nc, size_t *hist)
{
    size_t n = r->npts + r->ntris;
    bool mono = true;
    for (size_t p = 1; p < n && mono; p++) mono = prim_order(r, p) >= prim_order(r, p - 1);
    if (mono) return PV_OK;
    uint32_t *k = walloc(w, n, 4), *v = walloc(w, n, 4), *tk = walloc(w, n, 4),
             *rank = walloc(w, n, 4);
    uint32_t *tv = rank; /* rank doubles as the value scratch until the end */
    if (!k || !v || !tk || !rank) return w->ctx->err_code;
    for (size_t p = 0; p < n; p++) {
        k[p] = (uint32_t)prim_order(r, p);
        v[p] = (uint32_t)p;
    }
    radix_u32(k, v, tk, tv, n, nc, hist);
    for (size_t i = 0; i < n; i++) k[i] = (uint32_t)(prim_order(r, v[i]) >> 32);
    radix_u32(k, v, tk, tv, n, nc, hist);
    for (size_t i = 0; i < n; i++) rank[v[i]] = (uint32_t)i;
    wfree(w, k);
    wfree(w, tk);
    f->byrank = v;
    f->rank = rank;
    return PV_OK;
}

static bool tri_is_flat(const pv_raster_tri *t)
{
    return t->depth[0] == t->depth[1] && t->depth[1] == t->depth[2];
}

/* ---- render: markers ------------------------------------------------------------------------ */

/* The centre a point is drawn at: pngcairo's rint() pixel centre when snapping. */
static void point_centre(const pv_raster *r, const pv_raster_point *pt, float *cx, float *cy)
{
    if (!r->opt.snap_markers) {
        *cx = pt->x;
        *cy = pt->y;
        return;
    }
    float x = rs_minf(rs_maxf(pt->x, -RS_COORD_MAX), RS_COORD_MAX);
    float y = rs_minf(rs_maxf(pt->y, -RS_COORD_MAX), RS_COORD_MAX);
    *cx = rs_rintf(x - 0.5f) + 0.5f;
    *cy = rs_rintf(y - 0.5f) + 0.5f;
}

/* Pixel range of the sprite of a style centred on pixel (0,0): [*a, *b). */
static void sprite_range(const rs_style *st, int *a, int *b)
{
    *a = rs_floori(0.5f - st->ext);
    *b = rs_floori(0.5f + st->ext) + 1;
}

static void build_sprite(pv_raster *r, rs_style *st)
{
    int a, b;
    sprite_range(st, &a, &b);
    int wdt = b - a, np = st->nparts;
    uint16_t *m = r->sprites + st->spr_off;
    int cmin = wdt, cmax = -1, rmin = wdt, rmax = -1;
    for (int j = 0; j < wdt; j++) {
        for (int i = 0; i < wdt; i++) {
            uint16_t *cell = m + ((size_t)j * (size_t)wdt + (size_t)i) * (size_t)np;
            uint16_t part[RS_MAX_PARTS];
            uint16_t v = rs_style_mask(st, 0.5f, 0.5f, a + i, a + j, part);
            memcpy(cell, part, (size_t)np * sizeof *cell);
            if (!v) continue;
            if (i < cmin) cmin = i;
            if (i > cmax) cmax = i;
            if (j < rmin) rmin = j;
            if (j > rmax) rmax = j;
        }
    }
    st->spr_stride = wdt;
    if (cmax < 0) { /* nothing visible */
        st->spr_w = st->spr_h = 0;
        st->spr_x0 = st->spr_y0 = 0;
        return;
    }
    st->spr_x0 = a + cmin;
    st->spr_y0 = a + rmin;
    st->spr_w = cmax - cmin + 1;
    st->spr_h = rmax - rmin + 1;
    st->spr_off += ((size_t)rmin * (size_t)wdt + (size_t)cmin) * (size_t)np;
}

/* Count points per style; give sprites to styles used more than once (snapped only:
 * then every marker of a style covers the same samples around its pixel). */
static pv_status build_sprites(pv_ctx *ctx, pv_raster *r, int nt)
{
    for (size_t s = 0; s < r->nstyles; s++) {
        r->styles[s].npoints = 0;
        r->styles[s].has_sprite = false;
    }
    for (size_t p = 0; p < r->npts; p++) r->styles[r->pts[p].style].npoints++;
    if (!r->opt.snap_markers) return PV_OK;
    size_t total = 0;
    for (size_t s = 0; s < r->nstyles; s++) {
        rs_style *st = &r->styles[s];
        int a, b;
        sprite_range(st, &a, &b);
        size_t area = (size_t)(b - a) * (size_t)(b - a) * (size_t)st->nparts;
        if (st->npoints < 2 || b - a > RS_SPRITE_MAX_W || total + area > RS_SPRITE_POOL_MAX)
            continue;
        st->has_sprite = true;
        st->spr_off = total;
        total += area;
    }
    if (!PV_GROW(ctx, r->sprites, r->cap_sprite, total)) return ctx->err_code;
    r->nsprite = total;
    long nstyles = (long)r->nstyles;
#pragma omp parallel for schedule(dynamic, 1) num_threads(nt) default(none) shared(r, nstyles)
    for (long s = 0; s < nstyles; s++)
        if (r->styles[s].has_sprite) build_sprite(r, &r->styles[s]);
    return PV_OK;
}

/* ---- render: binning ----------------------------------------------------------------------- */

/* floor of a coordinate, clamped so that it fits an int */
static int clampi(float v)
{
    return rs_floori(rs_minf(rs_maxf(v, -RS_COORD_MAX), RS_COORD_MAX));
}

static void tri_box(const pv_raster_tri *t, int *x0, int *y0, int *x1, int *y1)
{
    *x0 = clampi(rs_minf(t->x[0], rs_minf(t->x[1], t->x[2])));
    *y0 = clampi(rs_minf(t->y[0], rs_minf(t->y[1], t->y[2])));
    *x1 = clampi(rs_maxf(t->x[0], rs_maxf(t->x[1], t->x[2]))) + 1;
    *y1 = clampi(rs_maxf(t->y[0], rs_maxf(t->y[1], t->y[2]))) + 1;
}

/* Pixel bounding box [x0,x1) x [y0,y1) of a point drawn at (cx, cy). */
static void point_box(const rs_style *st, float cx, float cy, int *x0, int *y0, int *x1,
                      int *y1)
{
    if (st->has_sprite) {
        *x0 = clampi(cx) + st->spr_x0;
        *y0 = clampi(cy) + st->spr_y0;
        *x1 = *x0 + st->spr_w;
        *y1 = *y0 + st->spr_h;
        return;
    }
    *x0 = clampi(cx - st->ext);
    *y0 = clampi(cy - st->ext);
    *x1 = clampi(cx + st->ext) + 1;
    *y1 = clampi(cy + st->ext) + 1;
}

/* Bins [*bx0,*bx1) x [*by0,*by1) touched by the pixel box; false if none. */
static bool box_bins(const rs_frame *f, int x0, int y0, int x1, int y1, int *bx0, int *by0,
                     int *bx1, int *by1)
{
    const pv_tile *t = f->tile;
    if (x0 < t->x0) x0 = t->x0;
    if (y0 < t->y0) y0 = t->y0;
    if (x1 > t->x0 + t->w) x1 = t->x0 + t->w;
    if (y1 > t->y0 + t->h) y1 = t->y0 + t->h;
    if (x0 >= x1 || y0 >= y1) return false;
    *bx0 = (x0 - t->x0) / RS_BIN;
    *by0 = (y0 - t->y0) / RS_BIN;
    *bx1 = (x1 - 1 - t->x0) / RS_BIN + 1;
    *by1 = (y1 - 1 - t->y0) / RS_BIN + 1;
    return true;
}

/* Flat primitive p as a bin item (false: p is not flat, or off the tile) and its bins. */
static bool flat_item(const rs_frame *f, uint32_t p, rs_item *it, int *bx0, int *by0,
                      int *bx1, int *by1)
{
    const pv_raster *r = f->r;
    int x0, y0, x1, y1;
    float depth;
    if (p < f->npts) {
        const pv_raster_point *pt = &r->pts[p];
        point_centre(r, pt, &it->u.pt.x, &it->u.pt.y);
        it->style = pt->style;
        it->color = pt->color;
        depth = pt->depth;
        point_box(&r->styles[pt->style], it->u.pt.x, it->u.pt.y, &x0, &y0, &x1, &y1);
    } else {
        const pv_raster_tri *t = &r->tris[p - f->npts];
        if (!tri_is_flat(t)) return false;
        it->u.tri = p - f->npts;
        it->style = RS_ITEM_TRI;
        it->color = t->color;
        depth = t->depth[0];
        tri_box(t, &x0, &y0, &x1, &y1);
    }
    it->key = rs_key(rs_depth_key(depth), rs_rank(f, p));
    return box_bins(f, x0, y0, x1, y1, bx0, by0, bx1, by1);
}

/* Bins of the varying-depth triangle p (false if it is flat or off the tile). */
static bool tri_bins(const rs_frame *f, uint32_t p, int *bx0, int *by0, int *bx1, int *by1)
{
    const pv_raster_tri *t = &f->r->tris[p - f->npts];
    if (tri_is_flat(t)) return false;
    int x0, y0, x1, y1;
    tri_box(t, &x0, &y0, &x1, &y1);
    return box_bins(f, x0, y0, x1, y1, bx0, by0, bx1, by1);
}

/* Offsets of per-(chunk, bin) slots from per-(chunk, bin) counts; start[b] per bin. */
static size_t bin_offsets(size_t *cnt, size_t nbins, int nc, size_t *start)
{
    size_t total = 0;
    for (size_t b = 0; b < nbins; b++) {
        start[b] = total;
        for (int c = 0; c < nc; c++) {
            size_t k = cnt[(size_t)c * nbins + b];
            cnt[(size_t)c * nbins + b] = total;
            total += k;
        }
    }
    start[nbins] = total;
    return total;
}

/* Bin the flat primitives as items, read in index order (fixed chunks: every bin's
 * slice comes out in index order whatever the thread count; bins sort it later). */
static pv_status bin_flat(work *w, rs_frame *f, int nc, size_t *max_len)
{
    size_t n = f->npts + f->r->ntris, nbins = (size_t)f->nbx * (size_t)f->nby;
    size_t *cnt = walloc(w, (size_t)nc * nbins, sizeof(size_t));
    size_t *start = walloc(w, nbins + 1, sizeof(size_t));
    if (!cnt || !start) return w->ctx->err_code;
    memset(cnt, 0, (size_t)nc * nbins * sizeof *cnt);
    int nbx = f->nbx;
    const rs_frame *cf = f;
#pragma omp parallel for schedule(static) num_threads(nc) default(none) \
    shared(cf, n, nc, cnt, nbins, nbx)
    for (int c = 0; c < nc; c++) {
        size_t *h = cnt + (size_t)c * nbins;
        for (size_t i = n * (size_t)c / (size_t)nc; i < n * (size_t)(c + 1) / (size_t)nc; i++) {
            rs_item it;
            int bx0, by0, bx1, by1;
            if (!flat_item(cf, (uint32_t)i, &it, &bx0, &by0, &bx1, &by1)) continue;
            for (int by = by0; by < by1; by++)
                for (int bx = bx0; bx < bx1; bx++) h[(size_t)by * (size_t)nbx + (size_t)bx]++;
        }
    }
    size_t total = bin_offsets(cnt, nbins, nc, start);
    rs_item *items = walloc(w, total, sizeof(rs_item));
    if (!items) return w->ctx->err_code;
#pragma omp parallel for schedule(static) num_threads(nc) default(none) \
    shared(cf, n, nc, cnt, nbins, nbx, items)
    for (int c = 0; c < nc; c++) {
        size_t *h = cnt + (size_t)c * nbins;
        for (size_t i = n * (size_t)c / (size_t)nc; i < n * (size_t)(c + 1) / (size_t)nc; i++) {
            rs_item it;
            int bx0, by0, bx1, by1;
            if (!flat_item(cf, (uint32_t)i, &it, &bx0, &by0, &bx1, &by1)) continue;
            for (int by = by0; by < by1; by++)
                for (int bx = bx0; bx < bx1; bx++)
                    items[h[(size_t)by * (size_t)nbx + (size_t)bx]++] = it;
        }
    }
    wfree(w, cnt);
    *max_len = 0;
    for (size_t b = 0; b < nbins; b++)
        if (start[b + 1] - start[b] > *max_len) *max_len = start[b + 1] - start[b];
    f->flat_start = start;
    f->flat_items = items;
    return PV_OK;
}

/* Bin the varying-depth triangles by rank (each bin's list stays in rank order). */
static pv_status bin_tris(work *w, rs_frame *f, int nc, size_t *ntri)
{
    size_t n = f->npts + f->r->ntris, nbins = (size_t)f->nbx * (size_t)f->nby;
    size_t *cnt = walloc(w, (size_t)nc * nbins, sizeof(size_t));
    size_t *start = walloc(w, nbins + 1, sizeof(size_t));
    if (!cnt || !start) return w->ctx->err_code;
    memset(cnt, 0, (size_t)nc * nbins * sizeof *cnt);
    int nbx = f->nbx;
    const rs_frame *cf = f;
#pragma omp parallel for schedule(static) num_threads(nc) default(none) \
    shared(cf, n, nc, cnt, nbins, nbx)
    for (int c = 0; c < nc; c++) {
        size_t *h = cnt + (size_t)c * nbins;
        for (size_t k = n * (size_t)c / (size_t)nc; k < n * (size_t)(c + 1) / (size_t)nc; k++) {
            uint32_t p = rs_prim_of_rank(cf, (uint32_t)k);
            int bx0, by0, bx1, by1;
            if (p < cf->npts || !tri_bins(cf, p, &bx0, &by0, &bx1, &by1)) continue;
            for (int by = by0; by < by1; by++)
                for (int bx = bx0; bx < bx1; bx++) h[(size_t)by * (size_t)nbx + (size_t)bx]++;
        }
    }
    size_t total = bin_offsets(cnt, nbins, nc, start);
    uint32_t *list = walloc(w, total, sizeof(uint32_t));
    if (!list) return w->ctx->err_code;
#pragma omp parallel for schedule(static) num_threads(nc) default(none) \
    shared(cf, n, nc, cnt, nbins, nbx, list)
    for (int c = 0; c < nc; c++) {
        size_t *h = cnt + (size_t)c * nbins;
        for (size_t k = n * (size_t)c / (size_t)nc; k < n * (size_t)(c + 1) / (size_t)nc; k++) {
            uint32_t p = rs_prim_of_rank(cf, (uint32_t)k);
            int bx0, by0, bx1, by1;
            if (p < cf->npts || !tri_bins(cf, p, &bx0, &by0, &bx1, &by1)) continue;
            for (int by = by0; by < by1; by++)
                for (int bx = bx0; bx < bx1; bx++)
                    list[h[(size_t)by * (size_t)nbx + (size_t)bx]++] = p;
        }
    }
    wfree(w, cnt);
    f->tri_start = start;
    f->tri_list = list;
    *ntri = total;
    return PV_OK;
}

/* ---- render ------------------------------------------------------------------------------------ */

static pv_status run_bins(work *w, rs_frame *f, int nt, bool need_frags,
                          size_t max_flat)
{
    size_t cap = need_frags ? f->frag_capacity : 0;
    size_t sort_cap = max_flat < RS_SORT_TMP_MAX ? max_flat : RS_SORT_TMP_MAX;
    size_t bytes = rs_scratch_bytes(cap, sort_cap);
    char *block = walloc(w, (size_t)nt, bytes);
    rs_scratch *scr = walloc(w, (size_t)nt, sizeof *scr);
    if (!block || !scr) return w->ctx->err_code;
    for (int t = 0; t < nt; t++)
        rs_scratch_init(&scr[t], block + (size_t)t * bytes, cap, sort_cap);
    /* only bins that received something: the tile was cleared, the others stay empty */
    int nbins = f->nbx * f->nby, nbx = f->nbx, nlive = 0;
    int *live = walloc(w, (size_t)nbins, sizeof(int));
    uint8_t *bin_short = live ? walloc(w, (size_t)nbins, 1) : NULL;
    if (!bin_short) return w->ctx->err_code;
    memset(bin_short, 0, (size_t)nbins);
    f->bin_short = bin_short;
    for (int i = 0; i < nbins; i++)
        if (f->flat_start[i + 1] > f->flat_start[i] || f->tri_start[i + 1] > f->tri_start[i])
            live[nlive++] = i;
    pv_tile *t = f->tile;
    const int *todo = live;
    int ntodo = nlive;
    for (int pass = 0; pass < 2 && ntodo > 0; pass++) {
#pragma omp parallel for schedule(dynamic, 1) num_threads(nt) default(none) \
    shared(f, scr, todo, ntodo, nbx)
        for (int k = 0; k < ntodo; k++)
            rs_bin_render(f, &scr[omp_get_thread_num()], todo[k] % nbx, todo[k] / nbx);
        if (t->rich_n <= t->rich_cap) break;
        /* bins that found no room for per-sample colours: make room for every entry
         * asked for (the room stays: the next frames reuse it) and draw them again; the
         * entries they stored the first time are left unused */
        size_t asked = t->rich_n, used = t->rich_cap;
        int *redo = pass == 0 ? walloc(w, (size_t)ntodo, sizeof(int)) : NULL;
        if (pass == 0 && (!redo || !pv_tile_reserve_rich(w->ctx, t, used + asked)))
            return w->ctx->err_code;
        t->rich_n = used;
        int n = 0;
        for (int k = 0; redo && k < ntodo; k++)
            if (bin_short[todo[k]]) redo[n++] = todo[k];
        if (n == 0)
            return pv_err(w->ctx, PV_EINTERNAL, "raster: per-sample colours found no room");
        memset(bin_short, 0, (size_t)nbins);
        todo = redo;
        ntodo = n;
    }
    for (int k = 0; k < nlive; k++) {
        int bx = t->x0 + (live[k] % nbx) * RS_BIN, by = t->y0 + (live[k] / nbx) * RS_BIN;
        pv_tile_touch(t, bx, by, bx + RS_BIN, by + RS_BIN);
    }
    return PV_OK;
}

pv_status pv_raster_render(pv_ctx *ctx, pv_raster *r, pv_tile *tile)
{
    if (tile->canvas_w != r->cw || tile->canvas_h != r->ch)
        return pv_err(ctx, PV_ERANGE, "tile canvas %dx%d differs from the raster's %dx%d",
                      tile->canvas_w, tile->canvas_h, r->cw, r->ch);
    pv_tile_clear(tile);
    if (tile->w == 0 || tile->h == 0 || r->npts + r->ntris == 0) return PV_OK;
    int nt = r->opt.nthreads > 0 ? r->opt.nthreads
                                 : (ctx->nthreads > 0 ? ctx->nthreads : omp_get_max_threads());
    if (nt < 1) nt = 1;
    if (nt > 256) nt = 256;
    rs_frame f = {.r = r, .tile = tile, .npts = r->npts, .frag_capacity = r->opt.frag_capacity};
    f.nbx = (tile->w + RS_BIN - 1) / RS_BIN;
    f.nby = (tile->h + RS_BIN - 1) / RS_BIN;
    work w = {.ctx = ctx, .r = r};
    size_t *hist = walloc(&w, (size_t)nt * 256, sizeof(size_t));
    size_t max_flat = 0, ntri = 0;
    pv_status st = hist ? PV_OK : ctx->err_code;
    if (!st) st = compute_ranks(&w, r, &f, nt, hist);
    if (!st) st = build_sprites(ctx, r, nt);
    if (!st) st = bin_flat(&w, &f, nt, &max_flat);
    if (!st) st = bin_tris(&w, &f, nt, &ntri);
    /* room for per-sample colours on a few percent of the pixels (edges where colours
     * meet), so that usually no bin is drawn twice (run_bins) */
    if (!st && !pv_tile_reserve_rich(ctx, tile, (size_t)tile->w * (size_t)tile->h / 32))
        st = ctx->err_code;
    if (!st) st = run_bins(&w, &f, nt, ntri > 0, max_flat);
    wfree_all(&w);
    return st;
}
