/*
 * Tiles (raster.h): creation checks, clearing, the bounding box of non-empty pixels in
 * canvas coordinates, indexing, and a render into a tile that is a sub-rectangle of the
 * canvas (only its pixels are drawn, at the right place).
 */
#include "pv_test.h"
#include "pvox/raster.h"

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
    PV_CHECK_EQ(ctx->mem_current, 0);
    pv_ctx_destroy(ctx);
    MPI_Finalize();
    return pv_test_result("test_tile");
}
