/*
 * composite/blend.c: the blending kernels of composite.h: mask-aware "over" of two tiles'
 * pixels, and the final flattening of background, scene and foreground into 8-bit rows.
 */
#include "pvox/composite.h"

#include <math.h>
#include <string.h>

/* What a pixel's 16 sample covers hold: none, all full (255), or anything else. Two
 * 8-byte words decide the common cases without a loop over the samples. */
enum { COVER_EMPTY, COVER_MIXED, COVER_FULL };
_Static_assert(PV_RASTER_SAMPLES == 16, "cover_kind reads 16 samples as two words");

static inline int cover_kind(const uint8_t *c)
{
    uint64_t a, b;
    memcpy(&a, c, 8);
    memcpy(&b, c + 8, 8);
    if ((a | b) == 0) return COVER_EMPTY;
    if ((a & b) == ~(uint64_t)0) return COVER_FULL;
    return COVER_MIXED;
}

static inline void copy_px(float *o, uint8_t *oc, const float *src, const uint8_t *srcc)
{
    if (o != src) memcpy(o, src, 4 * sizeof *o);
    if (oc != srcc) memcpy(oc, srcc, PV_RASTER_SAMPLES);
}

#if defined(__GNUC__)
#define BLEND_INLINE __attribute__((always_inline)) inline /* the n-pixel loop drops the
                                                             per-sample paths (all NULL) */
#else
#define BLEND_INLINE inline
#endif

static BLEND_INLINE bool over_one(const float *f, const uint8_t *fc, const pv_rich *fr,
                                  const float *b, const uint8_t *bc, const pv_rich *br,
                                  float *o, uint8_t *oc, pv_rich *orich)
{
    enum { S = PV_RASTER_SAMPLES };
    /* an empty side, or a front opaque on every sample (its alpha is 1, so the general
     * formula below gives the front exactly): a copy */
    const int kf = cover_kind(fc);
    if (kf == COVER_EMPTY) {
        copy_px(o, oc, b, bc);
        if (br && orich) *orich = *br;
        return br != NULL;
    }
    if (kf == COVER_FULL || cover_kind(bc) == COVER_EMPTY) {
        copy_px(o, oc, f, fc);
        if (fr && orich) *orich = *fr;
        return fr != NULL;
    }
    unsigned sb = 0, sfb = 0, same = 0;
    for (int k = 0; k < S; k++) {
        sb += bc[k];
        sfb += (255u - fc[k]) * bc[k];
        same += fc[k] == fc[0];
    }
    float r[4];
    if (br && same != S) {
        /* the back's samples weighed one by one by the front's transparency there */
        float acc[3] = {0.0f, 0.0f, 0.0f};
        for (int k = 0; k < S; k++) {
            float t = (float)(255u - fc[k]) * (1.0f / (255.0f * 255.0f * S));
            for (int j = 0; j < 3; j++) acc[j] += t * (float)br->rgb[k][j];
        }
        float w = (float)sfb / (255.0f * (float)sb);
        for (int c = 0; c < 3; c++) r[c] = f[c] + acc[c];
        r[3] = f[3] + w * b[3];
    } else {
        /* how much of the back shows: its samples weighted by the front's transparency
         * there (a front of one opacity everywhere: exactly 1 - alpha); exact when the
         * back is one colour */
        float w = same == S ? 1.0f - f[3] : (float)sfb / (255.0f * (float)sb);
        for (int c = 0; c < 4; c++) r[c] = f[c] + w * b[c];
    }
    uint8_t rc[S];
    for (int k = 0; k < S; k++) {
        /* (t + 127) / 255 for t <= 255 * 255, without a division */
        unsigned t = (255u - fc[k]) * bc[k] + 127u;
        rc[k] = (uint8_t)(fc[k] + ((t + 1u + (t >> 8)) >> 8));
    }
    /* the samples now see the front on some, the back through it on others: keep their
     * colours where one colour for the pixel would not do */
    bool rich = false;
    if (orich) {
        float cf[S][3], cb[S][3], co[S][3];
        pv_rich_samples(f, fc, fr, cf);
        pv_rich_samples(b, bc, br, cb);
        for (int k = 0; k < S; k++) {
            float t = (float)(255u - fc[k]) * (1.0f / 255.0f);
            for (int j = 0; j < 3; j++) co[k][j] = cf[k][j] + t * cb[k][j];
        }
        rich = pv_rich_from_samples(r, rc, (const float(*)[3])co, orich);
    }
    memcpy(o, r, sizeof r);
    memcpy(oc, rc, sizeof rc);
    return rich;
}

bool pv_composite_over_px(const float *f, const uint8_t *fc, const pv_rich *fr, const float *b,
                          const uint8_t *bc, const pv_rich *br, float *o, uint8_t *oc,
                          pv_rich *orich)
{
    return over_one(f, fc, fr, b, bc, br, o, oc, orich);
}

void pv_composite_over(size_t n, const float *front, const uint8_t *front_cover,
                       const float *back, const uint8_t *back_cover, float *out,
                       uint8_t *out_cover)
{
    enum { S = PV_RASTER_SAMPLES };
    for (size_t i = 0; i < n; i++)
        over_one(front + 4 * i, front_cover + (size_t)S * i, NULL, back + 4 * i,
                 back_cover + (size_t)S * i, NULL, out + 4 * i, out_cover + (size_t)S * i,
                 NULL);
}

bool pv_composite_into(pv_ctx *ctx, pv_tile *t, size_t i, const float *px, const uint8_t *cv,
                       const pv_rich *rich, bool front)
{
    float *mine = t->rgba + 4 * i;
    uint8_t *mc = t->cover + PV_RASTER_SAMPLES * i;
    const pv_rich *mr = pv_tile_rich(t, i);
    pv_rich out;
    bool keep = front ? pv_composite_over_px(px, cv, rich, mine, mc, mr, mine, mc, &out)
                      : pv_composite_over_px(mine, mc, mr, px, cv, rich, mine, mc, &out);
    return pv_tile_set_rich(ctx, t, i, keep ? &out : NULL);
}

/* Premultiplied RGBA of pixel (x, y) of a layer, or 0 if the layer is absent. */
static inline void layer_px(const pv_layer *l, int x, int y, float px[4])
{
    if (!l || !l->data) {
        px[0] = px[1] = px[2] = px[3] = 0.0f;
        return;
    }
    const unsigned char *row = (const unsigned char *)l->data + (size_t)y * l->stride;
    if (l->format == PV_LAYER_RGBA_F32) {
        memcpy(px, row + (size_t)x * 4 * sizeof(float), 4 * sizeof(float));
        return;
    }
    uint32_t v;
    memcpy(&v, row + (size_t)x * 4, 4);
    const float s = 1.0f / 255.0f;
    px[0] = (float)((v >> 16) & 255u) * s;
    px[1] = (float)((v >> 8) & 255u) * s;
    px[2] = (float)(v & 255u) * s;
    px[3] = (float)(v >> 24) * s;
}

static inline uint8_t to8(float v)
{
    if (!(v > 0.0f)) return 0;
    if (v >= 1.0f) return 255;
    return (uint8_t)(v * 255.0f + 0.5f);
}

void pv_composite_flatten(const pv_tile *scene, const pv_layer *bg, const pv_layer *fg,
                          int channels, uint8_t *out, size_t out_stride)
{
    pv_composite_flatten_rows(scene, bg, fg, channels, out, out_stride, 0, scene->canvas_h);
}

void pv_composite_flatten_rows(const pv_tile *scene, const pv_layer *bg, const pv_layer *fg,
                               int channels, uint8_t *out, size_t out_stride, int y0, int y1)
{
    int w = scene->canvas_w;
    if (y0 < 0) y0 = 0;
    if (y1 > scene->canvas_h) y1 = scene->canvas_h;
#pragma omp parallel for schedule(static) default(none) \
    shared(scene, bg, fg, channels, out, out_stride, w, y0, y1)
    for (int y = y0; y < y1; y++) {
        uint8_t *o = out + (size_t)y * out_stride;
        const uint32_t *brow = bg && bg->data && bg->format == PV_LAYER_ARGB32
                                   ? (const uint32_t *)((const unsigned char *)bg->data +
                                                        (size_t)y * bg->stride)
                                   : NULL;
        const uint32_t *frow = fg && fg->data && fg->format == PV_LAYER_ARGB32
                                   ? (const uint32_t *)((const unsigned char *)fg->data +
                                                        (size_t)y * fg->stride)
                                   : NULL;
        bool in_scene = y >= scene->y0 + scene->dy0 && y < scene->y0 + scene->dy1;
        int sx0 = in_scene ? scene->x0 + scene->dx0 : w, sx1 = in_scene ? scene->x0 + scene->dx1 : w;
        for (int x = 0; x < w; x++) {
            /* the common pixels, exactly as the general blend rounds them: an opaque
             * foreground, or an opaque background under no scene and no foreground */
            if (channels == 3 && frow && (frow[x] >> 24) == 255u) {
                o[3 * x] = (uint8_t)(frow[x] >> 16), o[3 * x + 1] = (uint8_t)(frow[x] >> 8);
                o[3 * x + 2] = (uint8_t)frow[x];
                continue;
            }
            if (channels == 3 && brow && (brow[x] >> 24) == 255u && (x < sx0 || x >= sx1) &&
                (!frow || frow[x] == 0)) {
                o[3 * x] = (uint8_t)(brow[x] >> 16), o[3 * x + 1] = (uint8_t)(brow[x] >> 8);
                o[3 * x + 2] = (uint8_t)brow[x];
                continue;
            }
            float b[4], f[4], s[4] = {0, 0, 0, 0}, c[4];
            layer_px(bg, x, y, b);
            layer_px(fg, x, y, f);
            long i = pv_tile_index(scene, x, y);
            if (i >= 0) memcpy(s, scene->rgba + 4 * i, sizeof s);
            for (int k = 0; k < 4; k++) c[k] = s[k] + (1.0f - s[3]) * b[k];
            for (int k = 0; k < 4; k++) c[k] = f[k] + (1.0f - f[3]) * c[k];
            if (channels == 4) {
                float inv = c[3] > 0.0f ? 1.0f / c[3] : 0.0f;
                for (int k = 0; k < 3; k++) o[4 * x + k] = to8(c[k] * inv);
                o[4 * x + 3] = to8(c[3]);
            } else {
                for (int k = 0; k < 3; k++) o[3 * x + k] = to8(c[k]);
            }
        }
    }
}
