/*
 * Voxel points (scene/voxpoints.c): which voxels of a small grid become points, where,
 * in which order, with `above`, `pointinterval` and jitter, from a whole grid and from a
 * rank's slab; and drawing them adds one marker per point.
 */
#include "scene_test.h"

static pv_ctx *ctx;

/* A 3^3 grid over [0,2]^3 holding planes [z0, z1), voxel value ix + 10 iy + 100 iz. */
static void make_grid(pv_grid *g, float *data, int64_t z0, int64_t z1)
{
    memset(g, 0, sizeof *g);
    g->n = 3;
    for (int a = 0; a < 3; a++) g->min[a] = 0, g->max[a] = 2, g->delta[a] = 1;
    g->z0 = z0, g->z1 = z1;
    g->data = data;
    for (int64_t iz = z0; iz < z1; iz++)
        for (int64_t iy = 0; iy < 3; iy++)
            for (int64_t ix = 0; ix < 3; ix++)
                data[pv_grid_local_index(g, ix, iy, iz)] = (float)(ix + 10 * iy + 100 * iz);
}

typedef struct collected {
    pv_vpoint p[64];
    size_t n;
    int calls;
} collected;

static pv_status collect(void *ud, const pv_vpoint *p, size_t n)
{
    collected *c = ud;
    c->calls++;
    for (size_t k = 0; k < n && c->n < 64; k++) c->p[c->n++] = p[k];
    return PV_OK;
}

static void test_above_and_order(void)
{
    float data[27];
    pv_grid g;
    make_grid(&g, data, 0, 3);
    collected c = {0};
    PV_CHECK_EQ(pv_scene_voxel_points(&g, 50, 0, 0, collect, &c), PV_OK);
    /* value > 50: the planes iz = 1 and 2, 9 voxels each */
    PV_CHECK_EQ(c.n, 18);
    PV_CHECK_EQ(c.calls, 1);
    /* x outermost, then y, then z: (0,0,1), (0,0,2), (0,1,1), ... */
    PV_CHECK_EQ(c.p[0].x, 0);
    PV_CHECK_EQ(c.p[0].y, 0);
    PV_CHECK_EQ(c.p[0].z, 1);
    PV_CHECK_EQ(c.p[0].value, 100);
    PV_CHECK_EQ(c.p[0].index, 1);
    PV_CHECK_EQ(c.p[1].z, 2);
    PV_CHECK_EQ(c.p[2].y, 1);
    PV_CHECK_EQ(c.p[2].z, 1);
    PV_CHECK_EQ(c.p[17].x, 2);
    PV_CHECK_EQ(c.p[17].y, 2);
    PV_CHECK_EQ(c.p[17].z, 2);
    PV_CHECK_EQ(c.p[17].value, 222);
    PV_CHECK_EQ(c.p[17].index, 26);
    for (size_t k = 0; k < c.n; k++) {
        const pv_vpoint *p = &c.p[k];
        PV_CHECK_EQ(p->index, ((uint64_t)p->x * 3 + (uint64_t)p->y) * 3 + (uint64_t)p->z);
        PV_CHECK_EQ(p->value, p->x + 10 * p->y + 100 * p->z);
        if (k) PV_CHECK(p->index > c.p[k - 1].index);
    }
    /* strictly greater: above 222 leaves nothing, above -1 everything */
    c.n = 0;
    PV_CHECK_EQ(pv_scene_voxel_points(&g, 222, 0, 0, collect, &c), PV_OK);
    PV_CHECK_EQ(c.n, 0);
    PV_CHECK_EQ(pv_scene_voxel_points(&g, -1, 0, 0, collect, &c), PV_OK);
    PV_CHECK_EQ(c.n, 27);
}

static void test_interval_and_slab(void)
{
    float data[27];
    pv_grid g;
    make_grid(&g, data, 0, 3);
    collected c = {0};
    /* pointinterval 2: indices 0 and 2 on each axis; above 50 keeps iz = 2 */
    PV_CHECK_EQ(pv_scene_voxel_points(&g, 50, 2, 0, collect, &c), PV_OK);
    PV_CHECK_EQ(c.n, 4);
    static const double xy[4][2] = {{0, 0}, {0, 2}, {2, 0}, {2, 2}};
    for (size_t k = 0; k < 4 && k < c.n; k++) {
        PV_CHECK_EQ(c.p[k].x, xy[k][0]);
        PV_CHECK_EQ(c.p[k].y, xy[k][1]);
        PV_CHECK_EQ(c.p[k].z, 2);
    }
    /* a rank holding planes [1, 3): the same interval starts at its first multiple, 2 */
    float part[18];
    pv_grid h;
    make_grid(&h, part, 1, 3);
    collected d = {0};
    PV_CHECK_EQ(pv_scene_voxel_points(&h, -1, 2, 0, collect, &d), PV_OK);
    PV_CHECK_EQ(d.n, 4);
    for (size_t k = 0; k < d.n; k++) PV_CHECK_EQ(d.p[k].z, 2);
    /* and without interval its own 18 voxels, with the whole grid's indices */
    d.n = 0;
    PV_CHECK_EQ(pv_scene_voxel_points(&h, -1, 0, 0, collect, &d), PV_OK);
    PV_CHECK_EQ(d.n, 18);
    PV_CHECK_EQ(d.p[0].index, 1);
    /* ranges unset: nothing */
    h.min[0] = (double)NAN;
    d.n = 0;
    PV_CHECK_EQ(pv_scene_voxel_points(&h, -1, 0, 0, collect, &d), PV_OK);
    PV_CHECK_EQ(d.n, 0);
}

static void test_jitter(void)
{
    float data[27];
    pv_grid g;
    make_grid(&g, data, 0, 3);
    collected c = {0};
    PV_CHECK_EQ(pv_scene_voxel_points(&g, -1, 0, 0.5, collect, &c), PV_OK);
    PV_CHECK_EQ(c.n, 27);
    bool moved = false;
    for (size_t k = 0; k < c.n; k++) {
        const pv_vpoint *p = &c.p[k];
        double off[3];
        pv_scene_jitter(p->index, off);
        uint64_t ix = p->index / 9, iy = p->index / 3 % 3, iz = p->index % 3;
        PV_CHECK(p->x == (double)ix + 0.5 * off[0]);
        PV_CHECK(p->y == (double)iy + 0.5 * off[1]);
        PV_CHECK(p->z == (double)iz + 0.5 * off[2]);
        for (int a = 0; a < 3; a++) PV_CHECK(off[a] >= -0.5 && off[a] < 0.5);
        moved = moved || off[0] != 0;
    }
    PV_CHECK(moved);
    /* a hash of the index: the same offsets every time */
    double a[3], b[3];
    pv_scene_jitter(12345, a);
    pv_scene_jitter(12345, b);
    PV_CHECK(memcmp(a, b, sizeof a) == 0);
}

static void test_draw(void)
{
    float data[27];
    pv_grid g;
    make_grid(&g, data, 0, 3);
    pv_view3d v;
    test_view(&v, 0, 2);
    pv_scene_colors C;
    test_colors(&C, 0, 222);
    pv_scene_frame F;
    test_frame(&F, &v, &C, 0, 2);
    pv_scene_elem e;
    pv_lp lp = test_lp();
    pv_scene_elem_init(&e, 1, &lp);
    e.kind = PV_SCENE_VOXELS;
    e.grid = &g;
    e.st.style = PV_STYLE_DOTS;
    e.st.has_above = true, e.st.above = 150;
    pv_raster *r = pv_raster_create(ctx, 640, 480);
    PV_CHECK_EQ(pv_scene_draw(ctx, &F, &e, r), PV_OK);
    PV_CHECK_EQ(pv_raster_count_points(r), 9); /* the plane iz = 2 */
    /* a negative point type draws nothing */
    pv_raster_clear(r);
    e.st.style = PV_STYLE_POINTS;
    e.st.lp.pt = -1;
    PV_CHECK_EQ(pv_scene_draw(ctx, &F, &e, r), PV_OK);
    PV_CHECK_EQ(pv_raster_count_points(r), 0);
    pv_raster_destroy(ctx, r);
    pv_scene_elem_fini(ctx, &e);
}

int main(int argc, char **argv)
{
    ctx = test_init(&argc, &argv);
    test_above_and_order();
    test_interval_and_slab();
    test_jitter();
    test_draw();
    return test_end(ctx, "test_voxpoints");
}
