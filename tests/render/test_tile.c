/*
 * Tiles (raster.h): creation checks, clearing, the bounding box of non-empty pixels in
 * canvas coordinates, indexing, and a render into a tile that is a sub-rectangle of the
 * canvas (only its pixels are drawn, at the right place). Per-sample colours: a pixel
 * split between two colours keeps each sample's colour, a pixel of one colour or of
 * layers covering all its samples keeps none; copies carry them, clearing drops them.
 */
#include "pv_test.h"
#include "pvox/raster.h"

static void quad(pv_ctx *ctx, pv_raster *r, float x0, float x1, float z, pv_rgba8 c, uint64_t o)
{
    float x[4] = {x0, x1, x1, x0}, y[4] = {0, 0, 20, 20}, d[4] = {z, z, z, z};
    PV_CHECK_EQ(pv_raster_add_polygon(ctx, r, 4, x, y, d, NULL, 0, c, o), PV_OK);
}

static void test_rich(pv_ctx *ctx)
{
    enum { S = PV_RASTER_SAMPLES };
    float sx[S], sy[S];
    pv_raster_sample_pos(sx, sy);
    pv_raster *r = pv_raster_create(ctx, 40, 20);
    /* opaque red on [0, 10.5), blue on [10.5, 40): pixel 10 is split at its middle; a
     * half-transparent green over red and blue on [20, 30) covers whole pixels */
    quad(ctx, r, 0, 10.5f, 2, (pv_rgba8){255, 0, 0, 255}, 1);
    quad(ctx, r, 10.5f, 40, 2, (pv_rgba8){0, 0, 255, 255}, 2);
    quad(ctx, r, 20, 30, 1, (pv_rgba8){0, 255, 0, 128}, 3);
    pv_tile *t = pv_tile_create(ctx, 40, 20, 0, 0, 40, 20);
    PV_CHECK_EQ(pv_raster_render(ctx, r, t), PV_OK);
    const pv_rich *rich = pv_tile_rich(t, (size_t)pv_tile_index(t, 10, 5));
    PV_CHECK(rich != NULL);
    for (int s = 0; rich && s < S; s++) {
        bool red = sx[s] < 0.5f;
        PV_CHECK_EQ(rich->rgb[s][0], red ? 255 : 0);
        PV_CHECK_EQ(rich->rgb[s][2], red ? 0 : 255);
    }
    PV_CHECK(pv_tile_rich(t, (size_t)pv_tile_index(t, 5, 5)) == NULL);  /* red */
    PV_CHECK(pv_tile_rich(t, (size_t)pv_tile_index(t, 25, 5)) == NULL); /* green over blue */
    PV_CHECK_EQ(t->rich_n, 20); /* one column of 20 pixels */

    /* a copy onto a larger tile keeps them, at the same canvas pixels */
    pv_tile *part = pv_tile_create(ctx, 40, 20, 8, 2, 6, 6);
    pv_tile_clear(part);
    PV_CHECK_EQ(pv_tile_copy_into(ctx, part, t), PV_ERANGE); /* does not fit */
    pv_err_clear(ctx);
    pv_tile *whole = pv_tile_create(ctx, 40, 20, 0, 0, 40, 20);
    pv_tile_clear(whole);
    pv_rich mark;
    memset(&mark, 7, sizeof mark);
    PV_CHECK(pv_tile_set_rich(ctx, whole, 0, &mark)); /* an entry before the copy's */
    PV_CHECK_EQ(pv_tile_copy_into(ctx, whole, t), PV_OK);
    const pv_rich *copied = pv_tile_rich(whole, (size_t)pv_tile_index(whole, 10, 5));
    PV_CHECK(copied != NULL && rich && memcmp(copied, rich, sizeof *rich) == 0);
    PV_CHECK(pv_tile_rich(whole, 0) == NULL); /* the copy's pixel (0,0) has none */
    PV_CHECK_EQ(whole->rich_n, 21);
    /* replacing and dropping one entry */
    size_t i = (size_t)pv_tile_index(whole, 10, 6);
    PV_CHECK(pv_tile_set_rich(ctx, whole, i, &mark));
    PV_CHECK_EQ(whole->rich_n, 21);
    PV_CHECK_EQ(pv_tile_rich(whole, i)->rgb[3][1], 7);
    PV_CHECK(pv_tile_set_rich(ctx, whole, i, NULL));
    PV_CHECK(pv_tile_rich(whole, i) == NULL);
    pv_tile_clear(whole);
    PV_CHECK_EQ(whole->rich_n, 0);
    PV_CHECK(pv_tile_rich(whole, (size_t)pv_tile_index(whole, 10, 5)) == NULL);

    /* the one-colour model and its tolerance */
    float rgba[4] = {0.5f, 0.0f, 0.0f, 0.5f}, c[S][3];
    uint8_t cover[S];
    for (int s = 0; s < S; s++) {
        cover[s] = s < 8 ? 255 : 0;
        c[s][0] = s < 8 ? 1.0f : 0.0f;
        c[s][1] = c[s][2] = 0.0f;
    }
    pv_rich out;
    PV_CHECK(!pv_rich_from_samples(rgba, cover, (const float(*)[3])c, &out)); /* red, half */
    c[15][2] = 0.5f * PV_RICH_EPS;
    PV_CHECK(!pv_rich_from_samples(rgba, cover, (const float(*)[3])c, &out));
    c[15][2] = 2.0f * PV_RICH_EPS;
    PV_CHECK(pv_rich_from_samples(rgba, cover, (const float(*)[3])c, &out));
    PV_CHECK_EQ(out.rgb[0][0], 255);
    PV_CHECK_EQ(out.rgb[15][2], (int)(2.0f * PV_RICH_EPS * 255.0f + 0.5f));
    pv_tile_destroy(ctx, whole);
    pv_tile_destroy(ctx, part);
    pv_tile_destroy(ctx, t);
    pv_raster_destroy(ctx, r);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    pv_options opt;
    pv_options_default(&opt);
    pv_ctx *ctx = pv_ctx_create(MPI_COMM_WORLD, &opt);

    PV_CHECK(pv_tile_create(ctx, 100, 50, 90, 0, 20, 10) == NULL);
    PV_CHECK_EQ(ctx->err_code, PV_ERANGE);
    PV_CHECK_STR(ctx->err_msg, "tile 20x10 at (90,0) does not fit a 100x50 canvas");
    pv_err_clear(ctx);

    pv_tile *t = pv_tile_create(ctx, 100, 50, 30, 10, 40, 20);
    PV_CHECK(t != NULL);
    int x0, y0, x1, y1;
    PV_CHECK(!pv_tile_bbox(t, &x0, &y0, &x1, &y1));
    PV_CHECK_EQ(pv_tile_index(t, 30, 10), 0);
    PV_CHECK_EQ(pv_tile_index(t, 69, 29), 40 * 20 - 1);
    PV_CHECK_EQ(pv_tile_index(t, 70, 29), -1);
    PV_CHECK_EQ(pv_tile_index(t, 29, 12), -1);
    PV_CHECK(isinf(t->depth[5]));

    /* a quad over the whole canvas (red) and one over [0,40)x[0,15) (blue, nearer) */
    pv_raster *r = pv_raster_create(ctx, 100, 50);
    float x[4] = {0, 100, 100, 0}, y[4] = {0, 0, 50, 50}, d[4] = {2, 2, 2, 2};
    float xb[4] = {0, 40, 40, 0}, yb[4] = {0, 0, 15, 15}, db[4] = {1, 1, 1, 1};
    PV_CHECK_EQ(pv_raster_add_polygon(ctx, r, 4, x, y, d, NULL, 0, (pv_rgba8){255, 0, 0, 255}, 1),
                PV_OK);
    PV_CHECK_EQ(pv_raster_add_polygon(ctx, r, 4, xb, yb, db, NULL, 0, (pv_rgba8){0, 0, 255, 255}, 2),
                PV_OK);
    PV_CHECK_EQ(pv_raster_render(ctx, r, t), PV_OK);
    PV_CHECK(pv_tile_bbox(t, &x0, &y0, &x1, &y1));
    PV_CHECK(x0 == 30 && y0 == 10 && x1 == 70 && y1 == 30);
    long i = pv_tile_index(t, 35, 12); /* canvas (35,12): blue */
    PV_CHECK_EQ(t->rgba[4 * i + 2], 1.0f);
    i = pv_tile_index(t, 45, 12); /* right of the blue quad: red */
    PV_CHECK_EQ(t->rgba[4 * i + 0], 1.0f);
    i = pv_tile_index(t, 35, 20); /* below it: red */
    PV_CHECK_EQ(t->rgba[4 * i + 0], 1.0f);
    PV_CHECK_EQ(t->mask[i], PV_RASTER_MASK_FULL);
    PV_CHECK_EQ(t->cover[PV_RASTER_SAMPLES * i + 3], 255);
    PV_CHECK_EQ(t->depth[i], 2.0f);

    /* a tile of another canvas is refused */
    pv_tile *other = pv_tile_create(ctx, 64, 64, 0, 0, 64, 64);
    PV_CHECK_EQ(pv_raster_render(ctx, r, other), PV_ERANGE);
    pv_err_clear(ctx);

    pv_tile_clear(t);
    PV_CHECK(!pv_tile_bbox(t, &x0, &y0, &x1, &y1));
    /* an empty tile renders to nothing without error */
    pv_tile *empty = pv_tile_create(ctx, 100, 50, 0, 0, 0, 0);
    PV_CHECK(empty != NULL);
    if (empty) PV_CHECK_EQ(pv_raster_render(ctx, r, empty), PV_OK);
    pv_tile_destroy(ctx, empty);
    pv_tile_destroy(ctx, other);
    pv_tile_destroy(ctx, t);
    pv_raster_destroy(ctx, r);
    pv_tile_destroy(ctx, NULL);
    pv_raster_destroy(ctx, NULL);
    test_rich(ctx);
    PV_CHECK_EQ(ctx->mem_current, 0);
    pv_ctx_destroy(ctx);
    MPI_Finalize();
    return pv_test_result("test_tile");
}
