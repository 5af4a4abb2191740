/*
 * Visibility (raster.h, ARCH-7 and ARCH-8), against arithmetic:
 *   - opaque occlusion by depth whatever the order primitives are added in; triangles
 *     that cross in depth switch where their depth planes meet;
 *   - points against triangles, opaque and transparent;
 *   - transparent layers blend far to near: the pixel equals "over" computed by hand,
 *     and the bits do not change when the primitives are added in another order or split
 *     across calls; equal depths go by order number;
 *   - the bounded fragment buffer: 300 transparent layers with the smallest buffer give
 *     the same bits as with a large one;
 *   - thread counts 1, 2 and 3 give the same bits.
 */
#include "pv_test.h"
#include "pvox/raster.h"

#include <stdlib.h>

static pv_ctx *ctx;

static pv_tile *render(pv_raster *r)
{
    int w = 0, h = 0;
    /* all tests draw on a 96 x 80 canvas */
    w = 96;
    h = 80;
    pv_tile *t = pv_tile_create(ctx, w, h, 0, 0, w, h);
    PV_CHECK(t != NULL);
    if (t) PV_CHECK_EQ(pv_raster_render(ctx, r, t), PV_OK);
    return t;
}

static const float *px(const pv_tile *t, int x, int y)
{
    return t->rgba + 4 * ((size_t)y * (size_t)t->w + (size_t)x);
}

static bool same_bits(const pv_tile *a, const pv_tile *b)
{
    size_t n = (size_t)a->w * (size_t)a->h;
    return memcmp(a->rgba, b->rgba, n * 4 * sizeof(float)) == 0 &&
           memcmp(a->mask, b->mask, n * sizeof(uint16_t)) == 0 &&
           memcmp(a->depth, b->depth, n * sizeof(float)) == 0;
}

/* a rectangle as two triangles with a depth plane d0 + gx * x */
static void rect(pv_raster *r, float x0, float y0, float x1, float y1, float d0, float gx,
                 pv_rgba8 c, uint64_t order)
{
    float x[4] = {x0, x1, x1, x0}, y[4] = {y0, y0, y1, y1};
    float d[4] = {d0 + gx * x0, d0 + gx * x1, d0 + gx * x1, d0 + gx * x0};
    PV_CHECK_EQ(pv_raster_add_polygon(ctx, r, 4, x, y, d, NULL, 0, c, order), PV_OK);
}

static void test_occlusion(void)
{
    pv_rgba8 red = {255, 0, 0, 255}, blue = {0, 0, 255, 255};
    for (int flip = 0; flip < 2; flip++) {
        pv_raster *r = pv_raster_create(ctx, 96, 80);
        if (flip) {
            rect(r, 20, 20, 70, 60, 2, 0, blue, 1);
            rect(r, 10, 10, 50, 40, 1, 0, red, 2);
        } else {
            rect(r, 10, 10, 50, 40, 1, 0, red, 2);
            rect(r, 20, 20, 70, 60, 2, 0, blue, 1);
        }
        pv_tile *t = render(r);
        PV_CHECK_EQ(px(t, 30, 30)[0], 1.0f); /* overlap: red in front */
        PV_CHECK_EQ(px(t, 30, 30)[2], 0.0f);
        PV_CHECK_EQ(px(t, 60, 50)[2], 1.0f);
        PV_CHECK_NEAR(t->depth[30 * 96 + 30], 1.0, 0);
        pv_tile_destroy(ctx, t);
        pv_raster_destroy(ctx, r);
    }
    /* crossing: red's depth goes 0 -> 4 across x in [0, 96], blue is flat at 2: red in
     * front left of x = 48, blue right of it (varying depth meets flat: merge path) */
    pv_raster *r = pv_raster_create(ctx, 96, 80);
    rect(r, 0, 10, 96, 30, 0, 4.0f / 96, red, 1);
    rect(r, 0, 10, 96, 30, 2, 0, blue, 2);
    /* two varying planes crossing at x = 48 too (both through the fragment buffer) */
    rect(r, 0, 40, 96, 60, 0, 4.0f / 96, red, 3);
    rect(r, 0, 40, 96, 60, 4, -4.0f / 96, blue, 4);
    pv_tile *t = render(r);
    for (int row = 20; row <= 50; row += 30) {
        PV_CHECK_EQ(px(t, 40, row)[0], 1.0f);
        PV_CHECK_EQ(px(t, 56, row)[2], 1.0f);
        PV_CHECK_EQ(px(t, 46, row)[0], 1.0f);
        PV_CHECK_EQ(px(t, 49, row)[2], 1.0f);
    }
    pv_tile_destroy(ctx, t);
    pv_raster_destroy(ctx, r);
}

static void test_points(void)
{
    pv_raster *r = pv_raster_create(ctx, 96, 80);
    uint32_t box = pv_raster_marker_style(ctx, r, PV_MARK_BOX_FILLED, 3.0f, 1.0f);
    pv_rgba8 green = {0, 255, 0, 255}, glass = {255, 255, 255, 102};
    rect(r, 0, 0, 48, 80, 1, 0, (pv_rgba8){0, 0, 255, 255}, 1); /* opaque at depth 1 */
    rect(r, 48, 0, 96, 80, 1, 0.001f, glass, 2);                 /* 40% white glass */
    pv_raster_point p[4] = {
        {.x = 20.5f, .y = 20.5f, .depth = 0.5f, .style = box, .color = green, .order = 3},
        {.x = 20.5f, .y = 60.5f, .depth = 1.5f, .style = box, .color = green, .order = 4},
        {.x = 70.5f, .y = 20.5f, .depth = 0.5f, .style = box, .color = green, .order = 5},
        {.x = 70.5f, .y = 60.5f, .depth = 1.5f, .style = box, .color = green, .order = 6}};
    PV_CHECK_EQ(pv_raster_add_points(ctx, r, p, 4), PV_OK);
    pv_tile *t = render(r);
    PV_CHECK_EQ(px(t, 20, 20)[1], 1.0f); /* in front of the opaque wall */
    PV_CHECK_EQ(px(t, 20, 60)[1], 0.0f); /* hidden behind it */
    PV_CHECK_EQ(px(t, 70, 20)[1], 1.0f); /* in front of the glass */
    /* behind the glass: 0.4 white over green */
    double a = 102 / 255.0;
    PV_CHECK_NEAR(px(t, 70, 60)[0], a, 1e-6);
    PV_CHECK_NEAR(px(t, 70, 60)[1], a + (1 - a), 1e-6);
    PV_CHECK_NEAR(px(t, 70, 60)[3], 1.0, 1e-6);
    PV_CHECK_NEAR(px(t, 80, 40)[3], a, 1e-6); /* glass alone */
    pv_tile_destroy(ctx, t);
    pv_raster_destroy(ctx, r);
}

/* Five transparent layers of different colours at depths 1..5 (some tilted, some
 * points), added in the order given by perm, some in separate calls. */
static pv_tile *layers(const int *perm, int nthreads, size_t cap)
{
    pv_raster *r = pv_raster_create(ctx, 96, 80);
    pv_raster_options o;
    pv_raster_options_default(&o);
    o.nthreads = nthreads;
    o.frag_capacity = cap;
    pv_raster_set_options(r, &o);
    uint32_t dot = pv_raster_marker_style(ctx, r, PV_MARK_CIRCLE_FILLED, 30.0f, 1.0f);
    for (int i = 0; i < 5; i++) {
        int k = perm[i];
        pv_rgba8 c = {(uint8_t)(50 * k), (uint8_t)(250 - 40 * k), (uint8_t)(30 + 20 * k),
                      (uint8_t)(60 + 30 * k)};
        if (k == 2) {
            pv_raster_point p = {.x = 48, .y = 40, .depth = 3, .style = dot, .color = c,
                                 .order = 10};
            pv_raster_add_points(ctx, r, &p, 1);
        } else {
            rect(r, 4, 4, 92, 76, (float)k + 1 - 0.2f, k % 2 ? 0.4f / 96 : 0, c,
                 (uint64_t)(10 * k + 1));
        }
    }
    pv_tile *t = render(r);
    pv_raster_destroy(ctx, r);
    return t;
}

static void test_transparency(void)
{
    const int p0[5] = {0, 1, 2, 3, 4}, p1[5] = {4, 2, 0, 3, 1}, p2[5] = {2, 4, 3, 1, 0};
    pv_tile *a = layers(p0, 1, 0), *b = layers(p1, 1, 0), *c = layers(p2, 2, 0);
    PV_CHECK(same_bits(a, b));
    PV_CHECK(same_bits(a, c));
    /* by hand at the centre: far to near, k = 4 (farthest) .. 0 */
    double acc[4] = {0, 0, 0, 0};
    for (int k = 4; k >= 0; k--) {
        double al = (60 + 30 * k) / 255.0;
        double col[3] = {50 * k / 255.0, (250 - 40 * k) / 255.0, (30 + 20 * k) / 255.0};
        for (int ch = 0; ch < 3; ch++) acc[ch] = col[ch] * al + (1 - al) * acc[ch];
        acc[3] = al + (1 - al) * acc[3];
    }
    for (int ch = 0; ch < 4; ch++) PV_CHECK_NEAR(px(a, 48, 40)[ch], acc[ch], 2e-6);
    pv_tile_destroy(ctx, a);
    pv_tile_destroy(ctx, b);
    pv_tile_destroy(ctx, c);

    /* equal depth: the larger order number is in front, whatever the adding order */
    pv_rgba8 red = {255, 0, 0, 128}, blue = {0, 0, 255, 128};
    for (int flip = 0; flip < 2; flip++) {
        pv_raster *r = pv_raster_create(ctx, 96, 80);
        rect(r, 10, 10, 50, 50, 1, flip ? 0.01f : 0, flip ? blue : red, flip ? 7 : 5);
        rect(r, 10, 10, 50, 50, 1, flip ? 0.01f : 0, flip ? red : blue, flip ? 5 : 7);
        pv_tile *t = render(r);
        double al = 128 / 255.0;
        PV_CHECK_NEAR(px(t, 30, 30)[2], al, 1e-6);            /* blue on top */
        PV_CHECK_NEAR(px(t, 30, 30)[0], (1 - al) * al, 1e-6); /* red below */
        pv_tile_destroy(ctx, t);
        pv_raster_destroy(ctx, r);
    }
}

/* 300 tilted transparent layers over the whole canvas, in a shuffled order. */
static pv_tile *stack(int nthreads, size_t cap)
{
    pv_raster *r = pv_raster_create(ctx, 96, 80);
    pv_raster_options o;
    pv_raster_options_default(&o);
    o.nthreads = nthreads;
    o.frag_capacity = cap;
    pv_raster_set_options(r, &o);
    uint32_t st = pv_raster_marker_style(ctx, r, PV_MARK_CIRCLE_FILLED, 2.0f, 1.0f);
    for (int i = 0; i < 300; i++) {
        int k = (i * 37) % 300;
        pv_rgba8 c = {(uint8_t)(k * 7), (uint8_t)(k * 13), (uint8_t)(k * 3), 20};
        rect(r, (float)(k % 7), (float)(k % 5), 96 - (float)(k % 3), 80 - (float)(k % 4),
             (float)k, (k % 2 ? 1 : -1) * 0.02f, c, (uint64_t)k);
        /* and points between the layers */
        pv_raster_point p = {.x = (float)(k % 90) + 3, .y = (float)(k % 70) + 5,
                             .depth = (float)k + 0.5f, .style = st,
                             .color = {255, 255, 255, 200}, .order = 1000 + (uint64_t)k};
        pv_raster_add_points(ctx, r, &p, 1);
    }
    pv_tile *t = render(r);
    pv_raster_destroy(ctx, r);
    return t;
}

static void test_bounded_and_threads(void)
{
    pv_tile *big = stack(1, (size_t)1 << 22);
    pv_tile *small = stack(1, 8192); /* 96x80 x 300 layers: ~2.3M fragments, 290 batches */
    pv_tile *two = stack(2, 8192);
    pv_tile *three = stack(3, 100000);
    PV_CHECK(same_bits(big, small));
    PV_CHECK(same_bits(big, two));
    PV_CHECK(same_bits(big, three));
    /* not trivially empty: 300 layers of alpha 20/255 are nearly opaque */
    PV_CHECK(px(big, 48, 40)[3] > 0.99f);
    pv_tile_destroy(ctx, big);
    pv_tile_destroy(ctx, small);
    pv_tile_destroy(ctx, two);
    pv_tile_destroy(ctx, three);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    pv_options opt;
    pv_options_default(&opt);
    ctx = pv_ctx_create(MPI_COMM_WORLD, &opt);
    test_occlusion();
    test_points();
    test_transparency();
    test_bounded_and_threads();
    pv_ctx_destroy(ctx);
    MPI_Finalize();
    return pv_test_result("test_raster_depth");
}
