/*
 * Colours of items (scene/colormap.c) and the data columns and slab of data points
 * (scene/elem.c, scene/points.c): cb values through a palette, every `lc` kind, the
 * linetype fallbacks, which using column holds ps / pt / colour, and which points a
 * rank's slab keeps.
 */
#include "scene_test.h"

static pv_ctx *ctx;

static bool rgba_is(pv_rgba8 c, int r, int g, int b, int a)
{
    return c.r == r && c.g == g && c.b == b && c.a == a;
}

static void test_palette_mapping(void)
{
    pv_scene_colors C;
    test_colors(&C, -2, 2);
    pv_scene_elem e;
    pv_lp lp = test_lp();
    pv_scene_elem_init(&e, 3, &lp);
    e.kind = PV_SCENE_POINTS;
    e.st.lp.lc.kind = PV_COLOR_PALETTE_Z;
    /* cb -2 -> black, 2 -> white, 0 -> middle gray; out of range clamps */
    PV_CHECK(rgba_is(pv_scene_item_color(&C, &e, -2, NAN), 0, 0, 0, 255));
    PV_CHECK(rgba_is(pv_scene_item_color(&C, &e, 2, NAN), 255, 255, 255, 255));
    PV_CHECK(rgba_is(pv_scene_item_color(&C, &e, 7, NAN), 255, 255, 255, 255));
    PV_CHECK(rgba_is(pv_scene_item_color(&C, &e, -9, NAN), 0, 0, 0, 255));
    pv_rgba8 mid = pv_scene_item_color(&C, &e, 0, NAN);
    PV_CHECK(mid.r == mid.g && mid.g == mid.b && (mid.r == 127 || mid.r == 128));
    /* rgbformulae 7,5,15 (gnuplot's default): black to yellow through blue-violet */
    pv_palette sp;
    memset(&sp, 0, sizeof sp);
    sp.formulae[0] = 7, sp.formulae[1] = 5, sp.formulae[2] = 15;
    sp.gamma = 1.5;
    pv_scene_palette(&sp, &C.pal);
    PV_CHECK_EQ(C.pal.kind, PV_PALK_FORMULAE);
    PV_CHECK(rgba_is(pv_scene_item_color(&C, &e, -2, NAN), 0, 0, 0, 255));
    PV_CHECK(rgba_is(pv_scene_item_color(&C, &e, 2, NAN), 255, 255, 0, 255));
    /* `palette cb V` ignores the item's value; `palette frac F` the range too */
    test_colors(&C, 0, 10);
    e.st.lp.lc.kind = PV_COLOR_PALETTE_CB;
    e.st.lp.lc.value = 10;
    PV_CHECK(rgba_is(pv_scene_item_color(&C, &e, 0, NAN), 255, 255, 255, 255));
    e.st.lp.lc.kind = PV_COLOR_PALETTE_FRAC;
    e.st.lp.lc.value = 0;
    PV_CHECK(rgba_is(pv_scene_item_color(&C, &e, 10, NAN), 0, 0, 0, 255));
    /* a defined palette: two gradient points red -> blue */
    pv_grad_point grad[2] = {{0, 1, 0, 0}, {1, 0, 0, 1}};
    sp.kind = PV_PAL_DEFINED;
    sp.grad = grad;
    sp.ngrad = 2;
    pv_scene_palette(&sp, &C.pal);
    PV_CHECK_EQ(C.pal.kind, PV_PALK_DEFINED);
    PV_CHECK(C.pal.grad == grad);
    e.st.lp.lc.kind = PV_COLOR_PALETTE_Z;
    PV_CHECK(rgba_is(pv_scene_item_color(&C, &e, 0, NAN), 255, 0, 0, 255));
    PV_CHECK(rgba_is(pv_scene_item_color(&C, &e, 10, NAN), 0, 0, 255, 255));
    pv_scene_elem_fini(ctx, &e);
}

/* `set logscale cb`: the gray follows log(cb); at or below the bottom (0 too) the bottom
 * colour; points whose colour value is negative are not drawn (gnuplot: undefined). */
static void test_log_cb(void)
{
    pv_scene_colors C;
    test_colors(&C, 1, 100);
    C.pal.cb_log = true;
    pv_scene_elem e;
    pv_lp lp = test_lp();
    pv_scene_elem_init(&e, 3, &lp);
    e.kind = PV_SCENE_POINTS;
    e.st.lp.lc.kind = PV_COLOR_PALETTE_Z;
    pv_rgba8 mid = pv_scene_item_color(&C, &e, 10, NAN); /* half way in log: gray 0.5 */
    PV_CHECK(mid.r == mid.g && mid.g == mid.b && (mid.r == 127 || mid.r == 128));
    PV_CHECK(rgba_is(pv_scene_item_color(&C, &e, 0, NAN), 0, 0, 0, 255));
    PV_CHECK(rgba_is(pv_scene_item_color(&C, &e, 100, NAN), 255, 255, 255, 255));
    PV_CHECK(fabs(pv_pal_cb_frac(&C.pal, 1000, 1, 100) - 1.5) < 1e-12);
    /* four points coloured by z in [-1, 1.5]: z = -1 is dropped, z = 0 drawn */
    pv_scene_elem_fini(ctx, &e);
    double rows[4][3] = {{0, 0, -1}, {0, 0, 0}, {1, 1, 1}, {1, 0, 1.5}};
    test_elem(ctx, &e, PV_SCENE_POINTS, &rows[0][0], 4, 3, 0);
    e.st.lp.lc.kind = PV_COLOR_PALETTE_Z;
    pv_view3d v;
    test_view(&v, -1, 2);
    pv_scene_frame F;
    test_frame(&F, &v, &C, -1, 2);
    pv_raster *r = pv_raster_create(ctx, 640, 480);
    PV_CHECK_EQ(pv_scene_draw(ctx, &F, &e, r), PV_OK);
    PV_CHECK_EQ(pv_raster_count_points(r), 3);
    C.pal.cb_log = false;
    pv_raster_clear(r);
    PV_CHECK_EQ(pv_scene_draw(ctx, &F, &e, r), PV_OK);
    PV_CHECK_EQ(pv_raster_count_points(r), 4);
    pv_raster_destroy(ctx, r);
    pv_scene_elem_fini(ctx, &e);
}

static void test_fixed_colours(void)
{
    pv_scene_colors C;
    test_colors(&C, 0, 1);
    pv_scene_elem e;
    pv_lp lp = test_lp();
    pv_scene_elem_init(&e, 3, &lp);
    pv_color *lc = &e.st.lp.lc;
    /* nothing given: the element's linetype (its number); `lt N` overrides */
    PV_CHECK(rgba_is(pv_scene_item_color(&C, &e, 0, NAN), 0, 0, 3, 255));
    e.st.lp.lt = 5;
    PV_CHECK(rgba_is(pv_scene_item_color(&C, &e, 0, NAN), 0, 0, 5, 255));
    lc->kind = PV_COLOR_LT, lc->lt = 7;
    PV_CHECK(rgba_is(pv_scene_item_color(&C, &e, 0, NAN), 0, 0, 7, 255));
    /* rgb with gnuplot's transparency byte: AA = 0x40 -> opacity 0xBF */
    lc->kind = PV_COLOR_RGB, lc->argb = 0x40FF8000u;
    PV_CHECK(rgba_is(pv_scene_item_color(&C, &e, 0, NAN), 255, 128, 0, 0xBF));
    lc->kind = PV_COLOR_BLACK;
    PV_CHECK(rgba_is(pv_scene_item_color(&C, &e, 0, NAN), 0, 0, 0, 255));
    lc->kind = PV_COLOR_BGND;
    PV_CHECK(rgba_is(pv_scene_item_color(&C, &e, 0, NAN), 0xAB, 0xCD, 0xEF, 255));
    /* variable colours from the column, the element's linetype when undefined */
    lc->kind = PV_COLOR_RGB_VARIABLE;
    PV_CHECK(rgba_is(pv_scene_item_color(&C, &e, 0, (double)0x00123456), 0x12, 0x34, 0x56, 255));
    PV_CHECK(rgba_is(pv_scene_item_color(&C, &e, 0, NAN), 0, 0, 3, 255));
    lc->kind = PV_COLOR_VARIABLE;
    PV_CHECK(rgba_is(pv_scene_item_color(&C, &e, 0, 9), 0, 0, 9, 255));
    PV_CHECK(rgba_is(pv_scene_item_color(&C, &e, 0, NAN), 0, 0, 3, 255));
    PV_CHECK(rgba_is(pv_scene_rgba(0xFF000000u), 0, 0, 0, 0));
    pv_scene_elem_fini(ctx, &e);
}

static void test_columns(void)
{
    pv_scene_elem e;
    double row[6] = {1, 2, 3, 4, 5, 6};
    test_elem(ctx, &e, PV_SCENE_POINTS, row, 1, 6, 0);
    pv_scene_cols k = pv_scene_columns(&e);
    PV_CHECK(k.ps == -1 && k.pt == -1 && k.color == -1);
    PV_CHECK(!pv_scene_feeds_cb(&e));
    /* ps variable, pt variable, colour: in gnuplot's order after x:y:z */
    e.st.lp.ps = -2;
    e.st.lp.pt = -3;
    e.st.lp.lc.kind = PV_COLOR_RGB_VARIABLE;
    k = pv_scene_columns(&e);
    PV_CHECK(k.ps == 3 && k.pt == 4 && k.color == 5);
    e.st.lp.ps = 1;
    e.st.lp.lc.kind = PV_COLOR_PALETTE_Z; /* an extra column colours through the palette */
    k = pv_scene_columns(&e);
    PV_CHECK(k.ps == -1 && k.pt == 3 && k.color == 4);
    PV_CHECK(pv_scene_feeds_cb(&e));
    e.kind = PV_SCENE_PM3D;
    k = pv_scene_columns(&e);
    PV_CHECK(k.color == 3);
    PV_CHECK(pv_scene_feeds_cb(&e));
    pv_scene_elem_fini(ctx, &e);
    /* rows shorter than the first are padded with NaN */
    double r2[3] = {7, 8, 9};
    test_elem(ctx, &e, PV_SCENE_POINTS, row, 1, 4, 0);
    PV_CHECK_EQ(pv_scene_add_row(ctx, &e, r2, 3), PV_OK);
    PV_CHECK_EQ(e.nrows, 2);
    PV_CHECK(e.vals[4] == 7 && isnan(e.vals[7]));
    /* an empty scan line is not recorded twice */
    size_t ns = e.nscan;
    PV_CHECK_EQ(pv_scene_end_scan(ctx, &e), PV_OK);
    PV_CHECK_EQ(pv_scene_end_scan(ctx, &e), PV_OK);
    PV_CHECK_EQ(e.nscan, ns + 1);
    pv_scene_elem_fini(ctx, &e);
}

static void test_points_slab(void)
{
    double rows[6][3] = {{0, 0, 0}, {1, 1, 1}, {1, 0, 2}, {0, 1, 3}, {0, 0, NAN}, {1, 1, 1.5}};
    pv_scene_elem e;
    test_elem(ctx, &e, PV_SCENE_POINTS, &rows[0][0], 6, 3, 0);
    pv_view3d v;
    test_view(&v, 0, 3);
    pv_scene_colors C;
    test_colors(&C, 0, 3);
    pv_scene_frame F;
    test_frame(&F, &v, &C, 0, 3);
    pv_raster *r = pv_raster_create(ctx, 640, 480);
    PV_CHECK_EQ(pv_scene_draw(ctx, &F, &e, r), PV_OK);
    PV_CHECK_EQ(pv_raster_count_points(r), 5); /* the undefined row is dropped */
    /* a point outside the x range is not drawn (gnuplot's "outrange") */
    F.xmax = 0.5;
    pv_raster_clear(r);
    PV_CHECK_EQ(pv_scene_draw(ctx, &F, &e, r), PV_OK);
    PV_CHECK_EQ(pv_raster_count_points(r), 2); /* x = 0: (0,0,0) and (0,1,3) */
    F.xmax = 3;
    /* the slab [1, 2) keeps z = 1 and 1.5; the next one [2, +inf) z = 2 and 3 */
    pv_raster_clear(r);
    F.zlo = 1, F.zhi = 2;
    PV_CHECK_EQ(pv_scene_draw(ctx, &F, &e, r), PV_OK);
    PV_CHECK_EQ(pv_raster_count_points(r), 2);
    pv_raster_clear(r);
    F.zlo = 2, F.zhi = HUGE_VAL;
    PV_CHECK_EQ(pv_scene_draw(ctx, &F, &e, r), PV_OK);
    PV_CHECK_EQ(pv_raster_count_points(r), 2);
    /* a skipped element adds nothing */
    pv_raster_clear(r);
    e.kind = PV_SCENE_SKIPPED;
    PV_CHECK_EQ(pv_scene_draw(ctx, &F, &e, r), PV_OK);
    PV_CHECK_EQ(pv_raster_count_points(r), 0);
    pv_raster_destroy(ctx, r);
    pv_scene_elem_fini(ctx, &e);
}

int main(int argc, char **argv)
{
    ctx = test_init(&argc, &argv);
    test_palette_mapping();
    test_fixed_colours();
    test_columns();
    test_points_slab();
    test_log_cb();
    return test_end(ctx, "test_colormap");
}
