/*
 * composite/blend.c: the blending kernels of composite.h: mask-aware "over" of two tiles'
 * pixels, and the final flattening of background, scene and foreground into 8-bit rows.
 */
#include "pvox/composite.h"

#include <math.h>
#include <string.h>

void pv_composite_over(size_t n, const float *front, const uint8_t *front_cover,
                       const float *back, const uint8_t *back_cover, float *out,
                       uint8_t *out_cover)
{
    const int S = PV_RASTER_SAMPLES;
    for (size_t i = 0; i < n; i++) {
        const uint8_t *fc = front_cover + (size_t)S * i, *bc = back_cover + (size_t)S * i;
        const float *f = front + 4 * i, *b = back + 4 * i;
        float *o = out + 4 * i;
        uint8_t *oc = out_cover + (size_t)S * i;
        unsigned sf = 0, sb = 0, sfb = 0;
        bool f_uniform = true;
        for (int k = 0; k < S; k++) {
            sf += fc[k];
            sb += bc[k];
            sfb += (255u - fc[k]) * bc[k];
            f_uniform = f_uniform && fc[k] == fc[0];
        }
        if (!sb || !sf) { /* one side is empty */
            const float *src = sb ? b : f;
            const uint8_t *srcc = sb ? bc : fc;
            if (o != src) memcpy(o, src, 4 * sizeof *o);
            if (oc != srcc) memcpy(oc, srcc, (size_t)S);
            continue;
        }
        /* how much of the back shows: its samples weighted by the front's transparency
         * there (a front of one opacity everywhere: exactly 1 - alpha) */
        float w = f_uniform ? 1.0f - f[3] : (float)sfb / (255.0f * (float)sb);
        float r[4];
        for (int c = 0; c < 4; c++) r[c] = f[c] + w * b[c];
        uint8_t rc[PV_RASTER_SAMPLES];
        for (int k = 0; k < S; k++)
            rc[k] = (uint8_t)(fc[k] + ((255u - fc[k]) * bc[k] + 127u) / 255u);
        memcpy(o, r, sizeof r);
        memcpy(oc, rc, sizeof rc);
    }
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
    int w = scene->canvas_w, h = scene->canvas_h;
#pragma omp parallel for schedule(static) default(none) \
    shared(scene, bg, fg, channels, out, out_stride, w, h)
    for (int y = 0; y < h; y++) {
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
