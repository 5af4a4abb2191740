/*
 * render/tile.c: a rectangle of the canvas holding premultiplied float RGBA, the covered
 * sample mask and the nearest depth of each pixel (raster.h). Plain storage; the
 * rasteriser fills it and the compositor blends tiles of different ranks.
 */
#include "pvox/raster.h"

#include <math.h>
#include <string.h>

static size_t tile_pixels(const pv_tile *t)
{
    return (size_t)t->w * (size_t)t->h;
}

pv_tile *pv_tile_create(pv_ctx *ctx, int canvas_w, int canvas_h, int x0, int y0, int w,
                        int h)
{
    if (canvas_w <= 0 || canvas_h <= 0 || w < 0 || h < 0 || x0 < 0 || y0 < 0 ||
        x0 > canvas_w - w || y0 > canvas_h - h) {
        pv_err(ctx, PV_ERANGE, "tile %dx%d at (%d,%d) does not fit a %dx%d canvas", w, h, x0,
               y0, canvas_w, canvas_h);
        return NULL;
    }
    pv_tile *t = pv_calloc(ctx, 1, sizeof *t);
    if (!t) return NULL;
    t->canvas_w = canvas_w;
    t->canvas_h = canvas_h;
    t->x0 = x0;
    t->y0 = y0;
    t->w = w;
    t->h = h;
    size_t n = tile_pixels(t);
    t->rgba = pv_calloc(ctx, n ? n : 1, 4 * sizeof(float));
    t->mask = t->rgba ? pv_calloc(ctx, n ? n : 1, sizeof(uint16_t)) : NULL;
    t->cover = t->mask ? pv_calloc(ctx, n ? n : 1, PV_RASTER_SAMPLES) : NULL;
    t->depth = t->cover ? pv_calloc(ctx, n ? n : 1, sizeof(float)) : NULL;
    t->rich = t->depth ? pv_calloc(ctx, n ? n : 1, sizeof(uint32_t)) : NULL;
    if (!t->rich) {
        pv_tile_destroy(ctx, t);
        return NULL;
    }
    t->dx1 = w, t->dy1 = h; /* calloc'd: only depth needs setting, clear does it all */
    pv_tile_clear(t);
    t->dx1 = w, t->dy1 = h; /* see pv_tile.dx0: a new tile may be written directly */
    return t;
}

void pv_tile_destroy(pv_ctx *ctx, pv_tile *t)
{
    if (!t) return;
    size_t n = tile_pixels(t);
    if (!n) n = 1;
    pv_free(ctx, t->rgba, n * 4 * sizeof(float));
    pv_free(ctx, t->mask, n * sizeof(uint16_t));
    pv_free(ctx, t->cover, n * PV_RASTER_SAMPLES);
    pv_free(ctx, t->depth, n * sizeof(float));
    pv_free(ctx, t->rich, n * sizeof(uint32_t));
    pv_free(ctx, t->rich_px, t->rich_cap * sizeof(pv_rich));
    pv_free(ctx, t, sizeof *t);
}

void pv_tile_clear(pv_tile *t)
{
    if (t->dx1 > t->dx0 && t->dy1 > t->dy0) {
        size_t w = (size_t)(t->dx1 - t->dx0);
        for (int y = t->dy0; y < t->dy1; y++) {
            size_t i = (size_t)y * (size_t)t->w + (size_t)t->dx0;
            memset(t->rgba + 4 * i, 0, w * 4 * sizeof(float));
            memset(t->mask + i, 0, w * sizeof(uint16_t));
            memset(t->cover + PV_RASTER_SAMPLES * i, 0, w * PV_RASTER_SAMPLES);
            for (size_t x = 0; x < w; x++) t->depth[i + x] = INFINITY;
            if (t->rich_n) memset(t->rich + i, 0, w * sizeof(uint32_t));
        }
    }
    t->rich_n = 0;
    t->dx0 = t->dy0 = t->dx1 = t->dy1 = 0;
}

/* ---- per-sample colours ---------------------------------------------------------------- */

bool pv_tile_reserve_rich(pv_ctx *ctx, pv_tile *t, size_t n)
{
    if (n <= t->rich_cap) return true;
    if (n > UINT32_MAX - 1u) {
        pv_err(ctx, PV_ENOMEM, "out of memory: %zu per-sample pixels in one tile", n);
        return false;
    }
    return PV_GROW(ctx, t->rich_px, t->rich_cap, n);
}

bool pv_tile_set_rich(pv_ctx *ctx, pv_tile *t, size_t i, const pv_rich *r)
{
    if (!r) {
        t->rich[i] = 0; /* its entry stays unused until the tile is cleared */
        return true;
    }
    if (t->rich[i]) {
        t->rich_px[t->rich[i] - 1u] = *r;
        return true;
    }
    if (!pv_tile_reserve_rich(ctx, t, t->rich_n + 1)) return false;
    t->rich_px[t->rich_n++] = *r;
    t->rich[i] = (uint32_t)t->rich_n;
    return true;
}

void pv_rich_samples(const float rgba[4], const uint8_t cover[PV_RASTER_SAMPLES],
                     const pv_rich *r, float c[PV_RASTER_SAMPLES][3])
{
    enum { S = PV_RASTER_SAMPLES };
    if (r) {
        for (int s = 0; s < S; s++)
            for (int k = 0; k < 3; k++) c[s][k] = (float)r->rgb[s][k] * (1.0f / 255.0f);
        return;
    }
    float u[3] = {0.0f, 0.0f, 0.0f}; /* the pixel's straight colour */
    if (rgba[3] > 0.0f)
        for (int k = 0; k < 3; k++) u[k] = rgba[k] / rgba[3];
    for (int s = 0; s < S; s++) {
        float a = (float)cover[s] * (1.0f / 255.0f);
        for (int k = 0; k < 3; k++) c[s][k] = u[k] * a;
    }
}

bool pv_rich_from_samples(const float rgba[4], const uint8_t cover[PV_RASTER_SAMPLES],
                          const float c[PV_RASTER_SAMPLES][3], pv_rich *out)
{
    enum { S = PV_RASTER_SAMPLES };
    float model[S][3];
    pv_rich_samples(rgba, cover, NULL, model);
    float dev = 0.0f;
    for (int s = 0; s < S; s++) {
        for (int k = 0; k < 3; k++) {
            float d = fabsf(c[s][k] - model[s][k]);
            if (d > dev) dev = d;
        }
    }
    if (!(dev > PV_RICH_EPS)) return false;
    for (int s = 0; s < S; s++) {
        for (int k = 0; k < 3; k++) {
            float v = c[s][k] * 255.0f + 0.5f;
            out->rgb[s][k] = (uint8_t)(v <= 0.0f ? 0 : v >= 255.0f ? 255 : (int)v);
        }
    }
    return true;
}

pv_status pv_tile_copy_into(pv_ctx *ctx, pv_tile *dst, const pv_tile *src)
{
    if (dst->canvas_w != src->canvas_w || dst->canvas_h != src->canvas_h ||
        src->x0 < dst->x0 || src->y0 < dst->y0 || src->x0 + src->w > dst->x0 + dst->w ||
        src->y0 + src->h > dst->y0 + dst->h)
        return pv_err(ctx, PV_ERANGE, "tile %dx%d at (%d,%d) does not fit in tile %dx%d at (%d,%d)",
                      src->w, src->h, src->x0, src->y0, dst->w, dst->h, dst->x0, dst->y0);
    size_t base = dst->rich_n;
    if (src->rich_n && !pv_tile_reserve_rich(ctx, dst, base + src->rich_n))
        return ctx->err_code;
    if (src->rich_n) memcpy(dst->rich_px + base, src->rich_px, src->rich_n * sizeof(pv_rich));
    dst->rich_n = base + src->rich_n;
    size_t w = (size_t)src->w;
    for (int y = 0; y < src->h; y++) {
        size_t d = (size_t)(src->y0 - dst->y0 + y) * (size_t)dst->w + (size_t)(src->x0 - dst->x0);
        size_t s = (size_t)y * w;
        memcpy(dst->rgba + 4 * d, src->rgba + 4 * s, w * 4 * sizeof(float));
        memcpy(dst->mask + d, src->mask + s, w * sizeof(uint16_t));
        memcpy(dst->cover + PV_RASTER_SAMPLES * d, src->cover + PV_RASTER_SAMPLES * s,
               w * PV_RASTER_SAMPLES);
        memcpy(dst->depth + d, src->depth + s, w * sizeof(float));
        for (size_t x = 0; x < w; x++)
            dst->rich[d + x] = src->rich[s + x] ? src->rich[s + x] + (uint32_t)base : 0u;
    }
    pv_tile_touch(dst, src->x0, src->y0, src->x0 + src->w, src->y0 + src->h);
    return PV_OK;
}

void pv_tile_touch(pv_tile *t, int x0, int y0, int x1, int y1)
{
    x0 -= t->x0, x1 -= t->x0, y0 -= t->y0, y1 -= t->y0;
    if (x0 < 0) x0 = 0;
    if (y0 < 0) y0 = 0;
    if (x1 > t->w) x1 = t->w;
    if (y1 > t->h) y1 = t->h;
    if (x1 <= x0 || y1 <= y0) return;
    if (t->dx1 <= t->dx0 || t->dy1 <= t->dy0) {
        t->dx0 = x0, t->dy0 = y0, t->dx1 = x1, t->dy1 = y1;
        return;
    }
    if (x0 < t->dx0) t->dx0 = x0;
    if (y0 < t->dy0) t->dy0 = y0;
    if (x1 > t->dx1) t->dx1 = x1;
    if (y1 > t->dy1) t->dy1 = y1;
}

size_t pv_tile_active(const pv_tile *t)
{
    size_t n = 0;
    for (int y = t->dy0; y < t->dy1; y++) {
        const uint16_t *row = t->mask + (size_t)y * (size_t)t->w;
        for (int x = t->dx0; x < t->dx1; x++) n += row[x] != 0;
    }
    return n;
}

bool pv_tile_bbox(const pv_tile *t, int *bx0, int *by0, int *bx1, int *by1)
{
    int xa = t->w, ya = t->h, xb = 0, yb = 0;
    for (int y = t->dy0; y < t->dy1; y++) {
        const uint16_t *row = t->mask + (size_t)y * (size_t)t->w;
        int first = -1, last = -1;
        for (int x = t->dx0; x < t->dx1; x++) {
            if (row[x]) {
                if (first < 0) first = x;
                last = x;
            }
        }
        if (first < 0) continue;
        if (first < xa) xa = first;
        if (last + 1 > xb) xb = last + 1;
        if (y < ya) ya = y;
        yb = y + 1;
    }
    if (xb <= xa || yb <= ya) {
        *bx0 = *by0 = *bx1 = *by1 = 0;
        return false;
    }
    *bx0 = t->x0 + xa;
    *by0 = t->y0 + ya;
    *bx1 = t->x0 + xb;
    *by1 = t->y0 + yb;
    return true;
}
