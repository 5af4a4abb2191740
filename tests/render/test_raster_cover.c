/*
 * Coverage and antialiasing of triangles (raster.h), against arithmetic:
 *   - summed alpha of a filled polygon = its area (shoelace), exactly for edges on the
 *     1/16-pixel sample lattice, within 1e-3 relative for large shapes at any offset or
 *     angle (16 samples per pixel: an edge pixel is off by at most 1/32, and those errors
 *     cancel along slanted edges);
 *   - a mesh of triangles with shared edges (jittered grid, both windings) has no crack
 *     and no double-blended seam: opaque, every pixel inside has alpha exactly 1; at
 *     alpha 0.5, exactly 0.5 (any overlap would give 0.75, any gap less);
 *   - two triangles of different colours on one edge split each edge pixel's samples:
 *     alpha stays 1 and the colour is a mix in steps of 1/16;
 *   - lines: a horizontal segment of width 1 on pixel centres fills one pixel row.
 */
#include "pv_test.h"
#include "pvox/raster.h"

#include <stdlib.h>

static pv_ctx *ctx;

static pv_tile *render(pv_raster *r, int w, int h)
{
    pv_tile *t = pv_tile_create(ctx, w, h, 0, 0, w, h);
    PV_CHECK(t != NULL);
    if (t) PV_CHECK_EQ(pv_raster_render(ctx, r, t), PV_OK);
    return t;
}

static double alpha_sum(const pv_tile *t)
{
    double s = 0;
    for (size_t i = 0; i < (size_t)t->w * t->h; i++) s += (double)t->rgba[4 * i + 3];
    return s;
}

static const pv_rgba8 RED = {255, 0, 0, 255}, BLUE = {0, 0, 255, 255};

static void add_polygon(pv_raster *r, int n, const double *x, const double *y, pv_rgba8 c,
                        uint64_t order)
{
    for (int i = 1; i + 1 < n; i++) {
        pv_raster_tri t = {.x = {(float)x[0], (float)x[i], (float)x[i + 1]},
                           .y = {(float)y[0], (float)y[i], (float)y[i + 1]},
                           .depth = {1, 1, 1},
                           .color = c,
                           .order = order};
        pv_raster_add_tris(ctx, r, &t, 1);
    }
}

static double shoelace(int n, const double *x, const double *y)
{
    double a = 0;
    for (int i = 0; i < n; i++) a += x[i] * y[(i + 1) % n] - x[(i + 1) % n] * y[i];
    return fabs(a) / 2;
}

static void test_area(void)
{
    pv_raster *r = pv_raster_create(ctx, 256, 256);
    /* edges on the 1/16 lattice: every edge pixel exact (one sample per 1/16 column and
     * row); only the four corner pixels may be off, by a sample or two each */
    double x1[4] = {10.25, 30.0625, 30.0625, 10.25}, y1[4] = {5.5, 5.5, 25.1875, 25.1875};
    add_polygon(r, 4, x1, y1, RED, 1);
    pv_tile *t = render(r, 256, 256);
    PV_CHECK_NEAR(alpha_sum(t), shoelace(4, x1, y1), 4 * 2 / 16.0);
    PV_CHECK_EQ(t->rgba[4 * (15 * 256 + 10) + 3] * 16, 12); /* left edge: 0.75 */
    PV_CHECK_EQ(t->rgba[4 * (15 * 256 + 30) + 3] * 16, 1);  /* right edge: 0.0625 */
    PV_CHECK_EQ(t->rgba[4 * (5 * 256 + 20) + 3] * 16, 8);   /* top edge: 0.5 */
    PV_CHECK_EQ(t->rgba[4 * (25 * 256 + 20) + 3] * 16, 3);  /* bottom edge: 0.1875 */
    PV_CHECK_EQ(t->rgba[4 * (15 * 256 + 20) + 3] * 16, 16);
    pv_tile_destroy(ctx, t);

    /* a large rectangle at arbitrary offsets */
    pv_raster_clear(r);
    double x2[4] = {13.37, 213.91, 213.91, 13.37}, y2[4] = {20.123, 20.123, 190.777, 190.777};
    add_polygon(r, 4, x2, y2, RED, 1);
    t = render(r, 256, 256);
    double a2 = shoelace(4, x2, y2);
    PV_CHECK_NEAR(alpha_sum(t) / a2, 1.0, 1e-3);
    pv_tile_destroy(ctx, t);

    /* a square turned by 30 degrees, and a thin sliver */
    pv_raster_clear(r);
    double x3[4], y3[4];
    for (int k = 0; k < 4; k++) {
        double ang = 0.5235987755982988 + k * 1.5707963267948966;
        x3[k] = 128.3 + 80.0 * cos(ang);
        y3[k] = 127.9 + 80.0 * sin(ang);
    }
    add_polygon(r, 4, x3, y3, RED, 1);
    t = render(r, 256, 256);
    PV_CHECK_NEAR(alpha_sum(t) / shoelace(4, x3, y3), 1.0, 1e-3);
    pv_tile_destroy(ctx, t);

    pv_raster_clear(r);
    double x4[3] = {3.1, 250.7, 3.1}, y4[3] = {100.2, 120.9, 103.4};
    add_polygon(r, 3, x4, y4, RED, 1);
    t = render(r, 256, 256);
    PV_CHECK_NEAR(alpha_sum(t) / shoelace(3, x4, y4), 1.0, 1e-2);
    pv_tile_destroy(ctx, t);
    pv_raster_destroy(ctx, r);
}

/* A jittered grid mesh over [x0,x0+n*step]^2; every quad split along a diagonal that
 * alternates, half the triangles given clockwise. */
static void add_mesh(pv_raster *r, int n, double x0, double step, pv_rgba8 c, float depth,
                     double jitter)
{
    double *vx = malloc(sizeof(double) * (size_t)(n + 1) * (size_t)(n + 1));
    double *vy = malloc(sizeof(double) * (size_t)(n + 1) * (size_t)(n + 1));
    unsigned seed = 12345;
    for (int j = 0; j <= n; j++)
        for (int i = 0; i <= n; i++) {
            double jx = 0, jy = 0;
            if (i > 0 && i < n && j > 0 && j < n && jitter > 0) {
                seed = seed * 1103515245u + 12345u;
                jx = (((seed >> 16) % 1000) / 1000.0 - 0.5) * jitter;
                seed = seed * 1103515245u + 12345u;
                jy = (((seed >> 16) % 1000) / 1000.0 - 0.5) * jitter;
            }
            vx[j * (n + 1) + i] = x0 + step * (i + jx);
            vy[j * (n + 1) + i] = x0 + step * (j + jy);
        }
    uint64_t order = 1;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) {
            int a = j * (n + 1) + i, b = a + 1, d = a + n + 1, e = d + 1;
            int tri[2][3];
            if ((i + j) % 2) {
                int t0[3] = {a, b, e}, t1[3] = {a, d, e}; /* second one clockwise */
                memcpy(tri[0], t0, sizeof t0);
                memcpy(tri[1], t1, sizeof t1);
            } else {
                int t0[3] = {a, b, d}, t1[3] = {b, e, d};
                memcpy(tri[0], t0, sizeof t0);
                memcpy(tri[1], t1, sizeof t1);
            }
            for (int k = 0; k < 2; k++) {
                pv_raster_tri t = {.color = c, .order = order++};
                for (int v = 0; v < 3; v++) {
                    t.x[v] = (float)vx[tri[k][v]];
                    t.y[v] = (float)vy[tri[k][v]];
                    /* depth varies over the mesh: a tilted plane */
                    t.depth[v] = depth + 0.001f * t.x[v] + 0.002f * t.y[v];
                }
                pv_raster_add_tris(ctx, r, &t, 1);
            }
        }
    free(vx);
    free(vy);
}

/* x0 + k * step: with x0 = 20 + 1/32 and an integer step, every vertical and horizontal
 * edge runs exactly through a column or row of samples: the tie rule must give each such
 * sample to exactly one side. */
static void test_mesh(float alpha, double x0, double step, double jitter)
{
    pv_raster *r = pv_raster_create(ctx, 200, 200);
    pv_rgba8 c = {40, 200, 90, (uint8_t)(alpha * 255 + 0.5f)};
    add_mesh(r, 12, x0, step, c, 5.0f, jitter);
    pv_tile *t = render(r, 200, 200);
    double a = c.a / 255.0;
    int bad = 0;
    /* pixels well inside the outer square [x0, x0 + 12 step] */
    for (int y = (int)x0 + 2; y < (int)(x0 + 12 * step) - 2; y++)
        for (int x = (int)x0 + 2; x < (int)(x0 + 12 * step) - 2; x++) {
            const float *p = t->rgba + 4 * ((size_t)y * 200 + x);
            if (fabs((double)p[3] - a) > 1e-6 || fabs((double)p[1] - a * 200 / 255.0) > 1e-5) bad++;
        }
    PV_CHECK_EQ(bad, 0);
    double side = 12 * step;
    PV_CHECK_NEAR(alpha_sum(t) / (side * side * a), 1.0, 1e-3);
    pv_tile_destroy(ctx, t);
    pv_raster_destroy(ctx, r);
}

static void test_shared_edge(void)
{
    pv_raster *r = pv_raster_create(ctx, 64, 64);
    /* a square split along a slanted diagonal into a red and a blue triangle */
    pv_raster_tri a = {.x = {8.3f, 55.1f, 8.3f}, .y = {7.7f, 7.7f, 56.2f},
                       .depth = {1, 1, 1}, .color = RED, .order = 1};
    pv_raster_tri b = {.x = {55.1f, 55.1f, 8.3f}, .y = {7.7f, 56.2f, 56.2f},
                       .depth = {1, 1, 1}, .color = BLUE, .order = 2};
    pv_raster_add_tris(ctx, r, &a, 1);
    pv_raster_add_tris(ctx, r, &b, 1);
    pv_tile *t = render(r, 64, 64);
    int bad = 0, mixed = 0;
    for (int y = 9; y < 55; y++)
        for (int x = 10; x < 54; x++) {
            const float *p = t->rgba + 4 * ((size_t)y * 64 + x);
            /* alpha exactly 1, red + blue = 1, each a multiple of 1/16 */
            double red16 = p[0] * 16, blue16 = p[2] * 16;
            if (p[3] != 1.0f || fabs(p[0] + p[2] - 1) > 1e-6 || fabs(red16 - rint(red16)) > 1e-4 ||
                fabs(blue16 - rint(blue16)) > 1e-4 || t->mask[y * 64 + x] != PV_RASTER_MASK_FULL)
                bad++;
            if (p[0] > 0 && p[2] > 0) mixed++;
        }
    PV_CHECK_EQ(bad, 0);
    PV_CHECK(mixed >= 40); /* the diagonal crosses ~47 rows with mixed pixels */
    pv_tile_destroy(ctx, t);
    pv_raster_destroy(ctx, r);
}

static void test_line(void)
{
    pv_raster *r = pv_raster_create(ctx, 64, 32);
    pv_raster_line l = {.x0 = 10.0f, .y0 = 16.5f, .depth0 = 1, .x1 = 50.0f, .y1 = 16.5f,
                        .depth1 = 3, .width = 1.0f, .color = RED, .order = 1};
    PV_CHECK_EQ(pv_raster_add_lines(ctx, r, &l, 1), PV_OK);
    PV_CHECK_EQ(pv_raster_count_tris(r), 2);
    pv_tile *t = render(r, 64, 32);
    int bad = 0;
    for (int y = 0; y < 32; y++)
        for (int x = 0; x < 64; x++) {
            float want = (y == 16 && x >= 10 && x < 50) ? 1.0f : 0.0f;
            if (t->rgba[4 * (y * 64 + x) + 3] != want) bad++;
        }
    PV_CHECK_EQ(bad, 0);
    /* depth along the line: 1 + 2 (x - 10) / 40, taken where the samples of one of its
     * two triangles lie in the pixel (within half a pixel of the centre) */
    PV_CHECK_NEAR(t->depth[16 * 64 + 30], 1 + 2 * 20.5 / 40, 2 * 0.5 / 40);
    pv_tile_destroy(ctx, t);
    pv_raster_destroy(ctx, r);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    pv_options opt;
    pv_options_default(&opt);
    ctx = pv_ctx_create(MPI_COMM_WORLD, &opt);
    test_area();
    test_mesh(1.0f, 20.0, 13.7, 0.6);
    test_mesh(0.5f, 20.0, 13.7, 0.6);
    test_mesh(1.0f, 20.03125, 13.0, 0.0);
    test_mesh(0.5f, 20.03125, 13.0, 0.0);
    test_shared_edge();
    test_line();
    pv_ctx_destroy(ctx);
    MPI_Finalize();
    return pv_test_result("test_raster_cover");
}
