/*
 * The blending kernels of composite.h against arithmetic done by hand:
 *   - full coverage on both sides: the usual premultiplied "over" (Porter & Duff);
 *   - disjoint coverage: the two simply add (an edge shared between two ranks);
 *   - a front that covers half the samples opaquely: half of the back shows through;
 *   - a front of uneven opacity: the back is weighed sample by sample;
 *   - one side empty: the other passes unchanged; out may alias either input;
 *   - flatten: background, scene and foreground (cairo ARGB32 and float layers) rounded
 *     once to 8 bits, RGB and straight-alpha RGBA; a scene tile smaller than the canvas;
 *   - a seam: a transparent surface whose two parts lie in two slabs, over other surfaces
 *     in the back slab. Blending the two slabs' tiles pixel by pixel (pv_composite_into)
 *     gives the picture of one render of everything within one level, thanks to the back
 *     tile's per-sample colours; without them the seam pixels are off by more than 2.
 */
#include "pv_test.h"
#include "pvox/composite.h"

#include <stdlib.h>
#include <string.h>

#define S PV_RASTER_SAMPLES

static void fill_cover(uint8_t *c, unsigned mask, uint8_t v)
{
    for (int k = 0; k < S; k++) c[k] = ((mask >> k) & 1u) ? v : 0;
}

static void test_over(void)
{
    /* 0: full/full transparent; 1: disjoint halves; 2: opaque half over full; 3: uneven
     * front; 4: empty back; 5: empty front */
    float f[6 * 4] = {0.2f, 0.1f, 0.0f, 0.4f, 0.5f, 0, 0, 0.5f, 0, 0.5f, 0, 0.5f,
                      0.3f, 0.1f, 0.1f, 0.5f, 0.7f, 0.2f, 0.1f, 0.9f, 0, 0, 0, 0};
    float b[6 * 4] = {0.1f, 0.3f, 0.5f, 0.8f, 0, 0, 0.5f, 0.5f, 0.2f, 0.2f, 0.2f, 1.0f,
                      0.0f, 0.4f, 0.0f, 0.4f, 0, 0, 0, 0, 0.1f, 0.1f, 0.1f, 0.2f};
    uint8_t fc[6 * S], bc[6 * S];
    fill_cover(fc + 0 * S, 0xFFFF, 102);
    fill_cover(bc + 0 * S, 0xFFFF, 204);
    fill_cover(fc + 1 * S, 0x00FF, 255);
    fill_cover(bc + 1 * S, 0xFF00, 255);
    fill_cover(fc + 2 * S, 0x0F0F, 255);
    fill_cover(bc + 2 * S, 0xFFFF, 255);
    /* uneven front: 8 samples opaque, 8 at 0.8; back only under the opaque ones plus 4 */
    for (int k = 0; k < S; k++) fc[3 * S + k] = k < 8 ? 255 : 204;
    fill_cover(bc + 3 * S, 0x0FFF, 102);
    fill_cover(fc + 4 * S, 0xFFFF, 230);
    fill_cover(bc + 4 * S, 0, 0);
    fill_cover(fc + 5 * S, 0, 0);
    fill_cover(bc + 5 * S, 0x000F, 204);
    float out[6 * 4];
    uint8_t oc[6 * S];
    pv_composite_over(6, f, fc, b, bc, out, oc);
    /* 0: front alpha is the pixel's 0.4 on every sample: out = f + 0.6 b */
    for (int c = 0; c < 4; c++) PV_CHECK_NEAR(out[c], (double)f[c] + 0.6 * (double)b[c], 1e-6);
    PV_CHECK_EQ(oc[0], 102 + (153 * 204 + 127) / 255);
    /* 1: disjoint: out = f + b, alpha 1, all samples covered */
    for (int c = 0; c < 4; c++) PV_CHECK_NEAR(out[4 + c], f[4 + c] + b[4 + c], 1e-6);
    PV_CHECK_EQ(oc[S + 0], 255);
    PV_CHECK_EQ(oc[S + 15], 255);
    /* 2: opaque on 8 of 16 samples over an opaque back: half the back shows */
    for (int c = 0; c < 4; c++)
        PV_CHECK_NEAR(out[8 + c], (double)f[8 + c] + 0.5 * (double)b[8 + c], 1e-6);
    /* 3: back samples 0..11 at 0.4: 8 under opaque front (weight 0), 4 under 0.8 front
     * (weight 0.2): w = 4 * 0.2 * 0.4 / (12 * 0.4) = 1/15 */
    double w3 = (4 * (51.0 / 255) * 102) / (12 * 102.0);
    for (int c = 0; c < 4; c++)
        PV_CHECK_NEAR(out[12 + c], (double)f[12 + c] + w3 * (double)b[12 + c], 1e-6);
    /* 4, 5: one side empty */
    for (int c = 0; c < 4; c++) PV_CHECK_EQ(out[16 + c], f[16 + c]);
    for (int c = 0; c < 4; c++) PV_CHECK_EQ(out[20 + c], b[20 + c]);
    PV_CHECK_EQ(oc[5 * S + 3], 204);
    PV_CHECK_EQ(oc[5 * S + 4], 0);
    /* aliasing: out over the back array gives the same */
    float b2[6 * 4];
    uint8_t bc2[6 * S];
    memcpy(b2, b, sizeof b);
    memcpy(bc2, bc, sizeof bc);
    pv_composite_over(6, f, fc, b2, bc2, b2, bc2);
    PV_CHECK(memcmp(b2, out, sizeof out) == 0 && memcmp(bc2, oc, sizeof oc) == 0);
}

static void test_flatten(void)
{
    /* 3x2 canvas; the scene tile covers only column 1..2 of row 0 */
    pv_tile t = {.canvas_w = 3, .canvas_h = 2, .x0 = 1, .y0 = 0, .w = 2, .h = 1};
    float rgba[8] = {0.4f, 0.0f, 0.0f, 0.4f, 0.0f, 0.0f, 0.0f, 0.0f};
    uint16_t mask[2] = {0xFFFF, 0};
    uint8_t cover[2 * S] = {0};
    float depth[2] = {1, 1};
    t.rgba = rgba;
    t.mask = mask;
    t.cover = cover;
    t.depth = depth;
    /* background: opaque white except pixel (2,1) blue; foreground: 44% black on (1,0) */
    uint32_t bg[6], fg[6] = {0};
    for (int i = 0; i < 6; i++) bg[i] = 0xFFFFFFFFu;
    bg[5] = 0xFF0000FFu;
    fg[1] = 0x70000000u;
    pv_layer lb = {bg, 3 * 4, PV_LAYER_ARGB32}, lf = {fg, 3 * 4, PV_LAYER_ARGB32};
    uint8_t out[2 * 3 * 3];
    pv_composite_flatten(&t, &lb, &lf, 3, out, 3 * 3);
    PV_CHECK_EQ(out[0], 255); /* (0,0): white */
    /* (1,0): red 40% over white = (1, .6, .6); then black at 112/255 over it */
    double a = 112 / 255.0;
    PV_CHECK_EQ(out[3], (int)((1 - a) * 255 + 0.5));
    PV_CHECK_EQ(out[4], (int)((1 - a) * 0.6 * 255 + 0.5));
    PV_CHECK_EQ(out[3 * 3 + 6], 0);   /* (2,1): blue background */
    PV_CHECK_EQ(out[3 * 3 + 8], 255);
    /* RGBA without a background: straight alpha */
    uint8_t o4[2 * 3 * 4];
    pv_composite_flatten(&t, NULL, NULL, 4, o4, 3 * 4);
    PV_CHECK_EQ(o4[4], 255); /* red un-premultiplied */
    PV_CHECK_EQ(o4[7], 102); /* alpha 0.4 */
    PV_CHECK_EQ(o4[3], 0);   /* empty pixel */
    /* float layers */
    float fbg[6 * 4];
    for (int i = 0; i < 6; i++) {
        fbg[4 * i] = 0.0f;
        fbg[4 * i + 1] = 0.25f;
        fbg[4 * i + 2] = 0.0f;
        fbg[4 * i + 3] = 1.0f;
    }
    pv_layer lfb = {fbg, 3 * 4 * sizeof(float), PV_LAYER_RGBA_F32};
    pv_composite_flatten(&t, &lfb, NULL, 3, out, 3 * 3);
    PV_CHECK_EQ(out[3], 102); /* 0.4 red + 0.6 * 0 */
    PV_CHECK_EQ(out[4], 38);  /* 0.6 * 0.25 = 0.15 -> 38.25 */
}

static void poly(pv_ctx *ctx, pv_raster *r, int n, const float *xy, float z, pv_rgba8 c,
                 uint64_t order)
{
    float x[8], y[8], d[8];
    for (int k = 0; k < n; k++) x[k] = xy[2 * k], y[k] = xy[2 * k + 1], d[k] = z;
    PV_CHECK_EQ(pv_raster_add_polygon(ctx, r, n, x, y, d, NULL, 0, c, order), PV_OK);
}

/* 8-bit RGB over black of a whole-canvas tile */
static void flat_rgb(const pv_tile *t, uint8_t *out)
{
    pv_composite_flatten(t, NULL, NULL, 3, out, (size_t)t->canvas_w * 3);
}

static void test_seam(void)
{
    enum { CW = 64, CH = 48 };
    pv_options opt;
    pv_options_default(&opt);
    pv_ctx *ctx = pv_ctx_create(MPI_COMM_WORLD, &opt);
    /* a slanted seam line shared by the surface's two parts (the same vertices, opposite
     * directions: its samples are split between them) */
    const float front[8] = {-1, -1, 20.3f, -1, 38.1f, 49, -1, 49};
    const float back[8] = {20.3f, -1, 65, -1, 65, 49, 38.1f, 49};
    const float yellow[6] = {10, 5, 60, 20, 15, 45};
    const float ground[8] = {-1, -1, 65, -1, 65, 49, -1, 49};
    const pv_rgba8 red = {220, 30, 30, 128}, yel = {240, 220, 20, 150}, blue = {30, 90, 200, 255};
    pv_raster *r = pv_raster_create(ctx, CW, CH);
    pv_tile *tf = pv_tile_create(ctx, CW, CH, 0, 0, CW, CH);
    pv_tile *tb = pv_tile_create(ctx, CW, CH, 0, 0, CW, CH);
    pv_tile *one = pv_tile_create(ctx, CW, CH, 0, 0, CW, CH);
    /* the front slab: the surface's left part */
    poly(ctx, r, 4, front, 1, red, 1);
    PV_CHECK_EQ(pv_raster_render(ctx, r, tf), PV_OK);
    /* the back slab: its right part, then a transparent and an opaque surface behind */
    pv_raster_clear(r);
    poly(ctx, r, 4, back, 1.5f, red, 2);
    poly(ctx, r, 3, yellow, 3, yel, 3);
    poly(ctx, r, 4, ground, 5, blue, 4);
    PV_CHECK_EQ(pv_raster_render(ctx, r, tb), PV_OK);
    PV_CHECK(tb->rich_n > 0);
    /* everything in one render */
    poly(ctx, r, 4, front, 1, red, 1);
    PV_CHECK_EQ(pv_raster_render(ctx, r, one), PV_OK);

    static uint8_t a[CW * CH * 3], b[CW * CH * 3], c[CW * CH * 3];
    flat_rgb(one, a);
    /* the back tile once more, without its per-sample colours */
    pv_tile *tb0 = pv_tile_create(ctx, CW, CH, 0, 0, CW, CH);
    pv_tile_clear(tb0);
    PV_CHECK_EQ(pv_tile_copy_into(ctx, tb0, tb), PV_OK);
    for (size_t i = 0; i < (size_t)CW * CH; i++) {
        const pv_rich *fr = pv_tile_rich(tf, i);
        PV_CHECK(pv_composite_into(ctx, tb, i, tf->rgba + 4 * i, tf->cover + 16 * i, fr, true));
        PV_CHECK(pv_tile_set_rich(ctx, tb0, i, NULL));
        float o[4];
        uint8_t oc[16];
        pv_composite_over_px(tf->rgba + 4 * i, tf->cover + 16 * i, NULL, tb0->rgba + 4 * i,
                             tb0->cover + 16 * i, NULL, o, oc, NULL);
        memcpy(tb0->rgba + 4 * i, o, sizeof o);
    }
    flat_rgb(tb, b);
    flat_rgb(tb0, c);
    int worst = 0, worst0 = 0;
    for (int i = 0; i < CW * CH * 3; i++) {
        int d = abs((int)a[i] - (int)b[i]), d0 = abs((int)a[i] - (int)c[i]);
        worst = d > worst ? d : worst;
        worst0 = d0 > worst0 ? d0 : worst0;
    }
    printf("seam: largest difference %d with per-sample colours, %d without\n", worst, worst0);
    PV_CHECK(worst <= 1);
    PV_CHECK(worst0 > 2);
    pv_tile_destroy(ctx, tb0);
    pv_tile_destroy(ctx, one);
    pv_tile_destroy(ctx, tb);
    pv_tile_destroy(ctx, tf);
    pv_raster_destroy(ctx, r);
    PV_CHECK_EQ(ctx->mem_current, 0);
    pv_ctx_destroy(ctx);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    test_over();
    test_flatten();
    test_seam();
    MPI_Finalize();
    return pv_test_result("test_composite_blend");
}
