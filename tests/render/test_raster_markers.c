/*
 * Point markers against gnuplot 5.4's pngcairo (test_raster_markers_ref.h, measured from
 * gnuplot renders by test_raster_markers_gen.py): for every point type 0..15 at several
 * sizes and line widths, the ink area, the ink centroid and the ink spread (second
 * moments) of our marker must match gnuplot's.
 *
 * Tolerances. cairo computes exact-area coverage of curves flattened to polygons, then
 * rounds each pixel to 8 bits; we count 16 samples per pixel. Along an edge our per-pixel
 * coverage is off by at most 1/32 on average and the errors of neighbouring pixels
 * largely cancel; cairo flattens circles (its filled circle of radius 2 px has 3% less
 * area than pi r^2). So: ink within 4% + 0.25 px^2, centroid within 0.06 px + 1% of the
 * marker size, variances within 6% + 0.05 px^2. A wrong shape (a triangle upside down,
 * a box for a diamond, a missing stroke, lw ignored) misses these by far.
 */
#include "pv_test.h"
#include "pvox/raster.h"

#include "test_raster_markers_ref.h"

#include <stdlib.h>

typedef struct ink {
    double s, cx, cy, vxx, vyy;
} ink;

static ink measure(const pv_tile *t)
{
    ink m = {0};
    double sx = 0, sy = 0;
    for (int y = 0; y < t->h; y++)
        for (int x = 0; x < t->w; x++) {
            double a = t->rgba[4 * ((size_t)y * t->w + x) + 3];
            m.s += a;
            sx += a * (x + 0.5);
            sy += a * (y + 0.5);
        }
    m.cx = sx / m.s;
    m.cy = sy / m.s;
    for (int y = 0; y < t->h; y++)
        for (int x = 0; x < t->w; x++) {
            double a = t->rgba[4 * ((size_t)y * t->w + x) + 3];
            m.vxx += a * (x + 0.5 - m.cx) * (x + 0.5 - m.cx);
            m.vyy += a * (y + 0.5 - m.cy) * (y + 0.5 - m.cy);
        }
    m.vxx /= m.s;
    m.vyy /= m.s;
    return m;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    pv_options opt;
    pv_options_default(&opt);
    pv_ctx *ctx = pv_ctx_create(MPI_COMM_WORLD, &opt);
    bool verbose = argc > 1;
    pv_raster *r = pv_raster_create(ctx, 100, 100);
    pv_tile *t = pv_tile_create(ctx, 100, 100, 0, 0, 100, 100);
    PV_CHECK(r && t);
    size_t n = sizeof gp_markers / sizeof gp_markers[0];
    for (size_t i = 0; i < n && r && t; i++) {
        const struct gp_marker *g = &gp_markers[i];
        pv_raster_clear(r);
        uint32_t st = pv_raster_marker_style(ctx, r, g->pt, (float)(3.0 * g->ps), (float)g->lw);
        /* a little off the pixel centre: snapping must bring it to gnuplot's place */
        pv_raster_point p = {.x = (float)GP_MARKER_CX + 0.3f, .y = (float)GP_MARKER_CY - 0.2f,
                             .depth = 1.0f, .style = st, .color = {0, 0, 0, 255}, .order = 1};
        PV_CHECK_EQ(pv_raster_add_points(ctx, r, &p, 1), PV_OK);
        PV_CHECK_EQ(pv_raster_render(ctx, r, t), PV_OK);
        ink m = measure(t);
        double size = 3.0 * g->ps;
        double ctol = 0.06 + 0.01 * size;
        bool ok = fabs(m.s - g->ink) <= 0.04 * g->ink + 0.25 &&
                  fabs(m.cx - GP_MARKER_CX - g->dx) <= ctol &&
                  fabs(m.cy - GP_MARKER_CY - g->dy) <= ctol &&
                  fabs(m.vxx - g->vxx) <= 0.06 * g->vxx + 0.05 &&
                  fabs(m.vyy - g->vyy) <= 0.06 * g->vyy + 0.05;
        if (!ok || verbose)
            fprintf(stderr,
                    "%s pt %2d ps %.1f lw %.0f: ink %7.3f/%7.3f  dx %+.3f/%+.3f dy %+.3f/%+.3f"
                    "  vxx %6.3f/%6.3f vyy %6.3f/%6.3f\n",
                    ok ? "  " : "!!", g->pt, g->ps, g->lw, m.s, g->ink, m.cx - GP_MARKER_CX,
                    g->dx, m.cy - GP_MARKER_CY, g->dy, m.vxx, g->vxx, m.vyy, g->vyy);
        PV_CHECK(ok);
    }
    /* a type beyond 15 wraps like gnuplot's (16 is 1, 30 is 15) */
    if (r) {
        PV_CHECK_EQ(pv_raster_marker_style(ctx, r, 16, 3.0f, 1.0f),
                    pv_raster_marker_style(ctx, r, 1, 3.0f, 1.0f));
        PV_CHECK_EQ(pv_raster_marker_style(ctx, r, 30, 3.0f, 1.0f),
                    pv_raster_marker_style(ctx, r, 15, 3.0f, 1.0f));
        PV_CHECK_EQ(pv_raster_marker_style(ctx, r, -1, 3.0f, 1.0f), PV_RASTER_STYLE_NONE);
    }
    pv_tile_destroy(ctx, t);
    pv_raster_destroy(ctx, r);
    pv_ctx_destroy(ctx);
    MPI_Finalize();
    return pv_test_result("test_raster_markers");
}
