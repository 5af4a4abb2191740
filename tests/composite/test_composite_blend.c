/*
 * The blending kernels of composite.h against arithmetic done by hand:
 *   - full coverage on both sides: the usual premultiplied "over" (Porter & Duff);
 *   - disjoint coverage: the two simply add (an edge shared between two ranks);
 *   - a front that covers half the samples opaquely: half of the back shows through;
 *   - a front of uneven opacity: the back is weighed sample by sample;
 *   - one side empty: the other passes unchanged; out may alias either input;
 *   - flatten: background, scene and foreground (cairo ARGB32 and float layers) rounded
 *     once to 8 bits, RGB and straight-alpha RGBA; a scene tile smaller than the canvas.
 */
#include "pv_test.h"
#include "pvox/composite.h"

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

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    test_over();
    test_flatten();
    MPI_Finalize();
    return pv_test_result("test_composite_blend");
}
