/*
 * pm3d quads (scene/pm3d.c) from known rows: corners in scan-line order, colour from the
 * mean of the corners' z (or the colour column) through the palette, quads with an
 * undefined corner dropped without renumbering the others, `clip z`, fill alpha; and
 * drawing them adds two triangles per quad.
 */
#include "scene_test.h"

static pv_ctx *ctx;

typedef struct quads {
    pv_scene_quad q[8];
    int n;
} quads;

static pv_status collect(void *ud, const pv_scene_quad *q)
{
    quads *Q = ud;
    if (Q->n < 8) Q->q[Q->n++] = *q;
    return PV_OK;
}

/* three scan lines of three rows (x, y, z); the last row of line 1 undefined */
static const double rows[9][3] = {
    {0, 0, 0}, {1, 0, 1}, {2, 0, 2},
    {0, 1, 1}, {1, 1, 2}, {2, 1, NAN},
    {0, 2, 2}, {1, 2, 3}, {2, 2, 4},
};

static void check_corner(const pv_scene_quad *q, int k, double x, double y, double z)
{
    PV_CHECK(q->v[k][0] == x && q->v[k][1] == y && q->v[k][2] == z);
}

static void test_corners_and_colours(void)
{
    pv_scene_elem e;
    test_elem(ctx, &e, PV_SCENE_PM3D, &rows[0][0], 9, 3, 3);
    PV_CHECK_EQ(e.nscan, 3);
    PV_CHECK_EQ(e.nrows, 9);
    pv_view3d v;
    test_view(&v, 0, 4);
    pv_scene_colors C;
    test_colors(&C, 0, 4);
    pv_scene_frame F;
    test_frame(&F, &v, &C, -10, 10);
    quads Q = {0};
    PV_CHECK_EQ(pv_scene_pm3d_quads(&F, &e, collect, &Q), PV_OK);
    /* items 0 and 2; items 1 and 3 touch the undefined row */
    PV_CHECK_EQ(Q.n, 2);
    const pv_scene_quad *a = &Q.q[0], *b = &Q.q[1];
    PV_CHECK_EQ(a->item, 0);
    PV_CHECK_EQ(a->nv, 4);
    check_corner(a, 0, 0, 0, 0);
    check_corner(a, 1, 1, 0, 1);
    check_corner(a, 2, 1, 1, 2);
    check_corner(a, 3, 0, 1, 1);
    PV_CHECK_EQ(b->item, 2);
    check_corner(b, 0, 0, 1, 1);
    check_corner(b, 1, 1, 1, 2);
    check_corner(b, 2, 1, 2, 3);
    check_corner(b, 3, 0, 2, 2);
    /* mean z 1 and 2 of cb [0, 4]: gray 0.25 and 0.5 of the gray palette */
    PV_CHECK(a->color.r == a->color.g && a->color.g == a->color.b);
    PV_CHECK(a->color.r == 63 || a->color.r == 64);
    PV_CHECK(b->color.r == 127 || b->color.r == 128);
    PV_CHECK_EQ(a->color.a, 255);
    uint32_t want = pv_pal_rgb8(&C.pal, 0.25);
    PV_CHECK_EQ(a->color.r, (want >> 16) & 0xFF);

    /* a fourth column colours instead of z: all 4 gives white */
    pv_scene_elem c4;
    double r4[4][4] = {{0, 0, 0, 4}, {1, 0, 0, 4}, {0, 1, 0, 4}, {1, 1, 0, 4}};
    test_elem(ctx, &c4, PV_SCENE_PM3D, &r4[0][0], 4, 4, 2);
    Q.n = 0;
    PV_CHECK_EQ(pv_scene_pm3d_quads(&F, &c4, collect, &Q), PV_OK);
    PV_CHECK_EQ(Q.n, 1);
    PV_CHECK_EQ(Q.q[0].color.r, 255);
    PV_CHECK_EQ(Q.q[0].color.b, 255);

    /* `fs transparent solid 0.5` on the element; the frame's fill otherwise */
    c4.st.has_fill = true;
    c4.st.fill.kind = PV_FILL_SOLID;
    c4.st.fill.transparent = true;
    c4.st.fill.density = 0.5;
    Q.n = 0;
    PV_CHECK_EQ(pv_scene_pm3d_quads(&F, &c4, collect, &Q), PV_OK);
    PV_CHECK_EQ(Q.q[0].color.a, 128);
    c4.st.has_fill = false;
    F.fill = c4.st.fill;
    F.fill.density = 0;
    Q.n = 0;
    PV_CHECK_EQ(pv_scene_pm3d_quads(&F, &c4, collect, &Q), PV_OK);
    PV_CHECK_EQ(Q.q[0].color.a, 0);
    pv_scene_elem_fini(ctx, &c4);
    pv_scene_elem_fini(ctx, &e);
}

static void test_clip_z(void)
{
    pv_scene_elem e;
    test_elem(ctx, &e, PV_SCENE_PM3D, &rows[0][0], 9, 3, 3);
    pv_view3d v;
    test_view(&v, 0, 4);
    pv_scene_colors C;
    test_colors(&C, 0, 4);
    pv_scene_frame F;
    test_frame(&F, &v, &C, 0, 1.5);
    quads Q = {0};
    PV_CHECK_EQ(pv_scene_pm3d_quads(&F, &e, collect, &Q), PV_OK);
    /* quad 0 (z 0 1 2 1) loses its corner at z = 2: five corners; quad 2 (z >= 1)
     * keeps the part below 1.5 */
    PV_CHECK_EQ(Q.n, 2);
    PV_CHECK_EQ(Q.q[0].nv, 5);
    for (int i = 0; i < Q.n; i++)
        for (int k = 0; k < Q.q[i].nv; k++)
            PV_CHECK(Q.q[i].v[k][2] >= 0 && Q.q[i].v[k][2] <= 1.5);
    check_corner(&Q.q[0], 0, 0, 0, 0);
    check_corner(&Q.q[0], 2, 1, 0.5, 1.5);
    check_corner(&Q.q[0], 3, 0.5, 1, 1.5);
    /* still coloured by the mean of the uncut corners */
    PV_CHECK(Q.q[0].color.r == 63 || Q.q[0].color.r == 64);
    /* everything above the range: nothing */
    F.zmin = 5, F.zmax = 6;
    Q.n = 0;
    PV_CHECK_EQ(pv_scene_pm3d_quads(&F, &e, collect, &Q), PV_OK);
    PV_CHECK_EQ(Q.n, 0);
    pv_scene_elem_fini(ctx, &e);
}

static void test_draw(void)
{
    pv_scene_elem e;
    test_elem(ctx, &e, PV_SCENE_PM3D, &rows[0][0], 9, 3, 3);
    pv_view3d v;
    test_view(&v, 0, 4);
    pv_scene_colors C;
    test_colors(&C, 0, 4);
    pv_scene_frame F;
    test_frame(&F, &v, &C, -10, 10);
    pv_raster *r = pv_raster_create(ctx, 640, 480);
    PV_CHECK_EQ(pv_scene_draw(ctx, &F, &e, r), PV_OK);
    PV_CHECK_EQ(pv_raster_count_tris(r), 4);
    PV_CHECK_EQ(pv_raster_count_points(r), 0);
    pv_raster_destroy(ctx, r);
    pv_scene_elem_fini(ctx, &e);
}

int main(int argc, char **argv)
{
    ctx = test_init(&argc, &argv);
    test_corners_and_colours();
    test_clip_z();
    test_draw();
    return test_end(ctx, "test_pm3d");
}
