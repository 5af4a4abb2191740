/*
 * The 3D view against gnuplot 5.4:
 * - GP-10.2 (probe E06): six voxel points of `set view 65,40; set xyplane at -0.1` in a 1000x1000
 *   svg, written down to 0.01 px;
 * - live svg: points of a datablock under several views (rotations in all quadrants,
 *   scale, zscale, `view equal xyz`, relative and absolute xyplane, a title) read from
 *   gnuplot's svg (gnuplot truncates to 1/100 px there, so 0.011 px tolerance);
 * - live pngcairo metrics: character cell and plot area (GPVAL_TERM_*) for several sizes
 *   and fonts against pv_termdim_pngcairo + pv_view3d_setup;
 * - the depth and the slab facing used by the compositor.
 */
#include "pv_test.h"
#include "test_view_gnuplot.h"

#include "pvox/view.h"

static void setup(pv_view3d *v, const pv_termdim *t, double rx, double rz, double lo,
                  double hi, double base_abs)
{
    pv_view3d_params p = {0};
    p.term = *t;
    p.rot_x = rx;
    p.rot_z = rz;
    p.scale = p.zscale = 1;
    p.xmin = p.ymin = p.zmin = lo;
    p.xmax = p.ymax = p.zmax = hi;
    p.xyplane_absolute = true;
    p.xyplane_z = base_abs;
    p.base_in_box = true;
    pv_view3d_setup(v, &p);
}

static void svg_xy(const pv_view3d *v, double x, double y, double z, double *sx, double *sy)
{
    double tx, ty;
    pv_view_term(v, x, y, z, &tx, &ty);
    /* gnuplot hands the svg terminal point positions rounded to terminal units */
    *sx = floor(tx + 0.5) / 100.0;
    *sy = (v->term.ymax - floor(ty + 0.5)) / 100.0;
}

static void test_e06(void)
{
    pv_termdim t;
    gp_svg_termdim(&t, 1000, 1000);
    pv_view3d v;
    setup(&v, &t, 65, 40, 0, 1, -0.1);
    const double pts[6][3] = {{0, 0, 0}, {0, 0, 1}, {0, 1, 0},
                              {5 / 9.0, 2 / 9.0, 7 / 9.0}, {1, 0, 0}, {1, 1, 1}};
    const double obs[6][2] = {{118.24, 701.41}, {118.24, 264.52}, {466.60, 529.74},
                              {426.30, 403.49}, {533.40, 845.46}, {881.76, 236.90}};
    for (int i = 0; i < 6; i++) { /* the svg's resolution: 0.01 px */
        double tx, ty;
        pv_view_term(&v, pts[i][0], pts[i][1], pts[i][2], &tx, &ty);
        PV_CHECK_NEAR(tx / 100.0, obs[i][0], 0.011);
        PV_CHECK_NEAR((t.ymax - ty) / 100.0, obs[i][1], 0.011);
    }
}

/* ---- live svg views ------------------------------------------------------------------ */

typedef struct view_case {
    const char *set; /* gnuplot settings */
    double rx, rz, scale, zscale;
    int equal;
    double lo[3], hi[3];
    bool absolute;
    double base;      /* xyplane at / relative */
    const char *title;
} view_case;

static const view_case views[] = {
    {"", 60, 30, 1, 1, 0, {0, 0, 0}, {1, 1, 1}, false, 0.5, NULL},
    {"set view 65,40\nset xyplane at -0.1\nset border 4095\n", 65, 40, 1, 1, 0, {0, 0, 0},
     {1, 1, 1}, true, -0.1, NULL},
    {"set view 120,300,1.3,0.7\n", 120, 300, 1.3, 0.7, 0, {-3, 10, -1}, {5, 20, 2}, false, 0.5,
     NULL},
    {"set view 10,350\nset xyplane relative 0\nset title 'two\\nlines'\n", 10, 350, 1, 1, 0,
     {-1, -1, 0}, {1, 1, 4}, false, 0, "two\\nlines"},
    {"set view 80,135\nset xyplane at 5\n", 80, 135, 1, 1, 0, {-2, 0, -1}, {2, 3, 1}, true, 5,
     NULL},
    {"set view 45,200\nset view equal xyz\n", 45, 200, 1, 1, 2, {0, 0, 0}, {4, 1, 2}, false, 0.5,
     NULL},
    {"set view 170,250,0.8\nset xyplane relative 0.25\n", 170, 250, 0.8, 1, 0, {0, 0, 0},
     {1, 2, 3}, false, 0.25, NULL},
};

static void test_live_views(void)
{
    for (size_t c = 0; c < sizeof views / sizeof views[0]; c++) {
        const view_case *V = &views[c];
        /* eight corners and a few inner points, set ranges, pt 7 = svg's gpPt6 */
        double pts[12][3];
        int np = 0;
        for (int k = 0; k < 8; k++, np++)
            for (int a = 0; a < 3; a++) pts[np][a] = (k >> a) & 1 ? V->hi[a] : V->lo[a];
        const double fr[4][3] = {
            {0.3, 0.6, 0.9}, {0.5, 0.5, 0.5}, {0.9, 0.1, 0.4}, {0.2, 0.8, 0.05}};
        for (int k = 0; k < 4; k++, np++)
            for (int a = 0; a < 3; a++) pts[np][a] = V->lo[a] + fr[k][a] * (V->hi[a] - V->lo[a]);
        char script[4096];
        int len = snprintf(script, sizeof script,
                           "set term svg size 700,500\nset output 'view.svg'\nunset key\n%s"
                           "set xrange [%g:%g]; set yrange [%g:%g]; set zrange [%g:%g]\n"
                           "splot '-' with points pt 7\n",
                           V->set, V->lo[0], V->hi[0], V->lo[1], V->hi[1], V->lo[2], V->hi[2]);
        for (int i = 0; i < np; i++)
            len += snprintf(script + len, sizeof script - (size_t)len, "%.17g %.17g %.17g\n",
                            pts[i][0], pts[i][1], pts[i][2]);
        snprintf(script + len, sizeof script - (size_t)len, "e\n");
        char *svg = gp_run(script, "view.svg");
        PV_CHECK(svg != NULL);
        if (!svg) continue;

        pv_view3d_params p = {0};
        gp_svg_termdim(&p.term, 700, 500);
        p.rot_x = V->rx;
        p.rot_z = V->rz;
        p.scale = V->scale;
        p.zscale = V->zscale;
        p.equal = V->equal;
        p.xmin = V->lo[0];
        p.xmax = V->hi[0];
        p.ymin = V->lo[1];
        p.ymax = V->hi[1];
        p.zmin = V->lo[2];
        p.zmax = V->hi[2];
        p.xyplane_absolute = V->absolute;
        p.xyplane_z = V->base;
        p.xyplane_rel = V->base;
        p.base_in_box = true;
        p.title_lines = pv_frame_title_lines(V->title);
        pv_view3d v;
        pv_view3d_setup(&v, &p);

        int i = 0, bad = 0;
        for (const char *q = svg; (q = strstr(q, "#gpPt6' transform='translate(")) && i < np; q++) {
            double gx, gy, sx, sy;
            if (sscanf(q, "#gpPt6' transform='translate(%lf,%lf)", &gx, &gy) != 2) continue;
            svg_xy(&v, pts[i][0], pts[i][1], pts[i][2], &sx, &sy);
            if ((fabs(sx - gx) > 0.011 || fabs(sy - gy) > 0.011) && bad++ < 3)
                fprintf(stderr, "view %zu point %d: ours %.3f,%.3f gnuplot %.2f,%.2f\n", c, i, sx,
                        sy, gx, gy);
            i++;
        }
        PV_CHECK_EQ(i, np);
        PV_CHECK_EQ(bad, 0);
        free(svg);
    }
}

/* ---- live pngcairo metrics ------------------------------------------------------------- */

static void test_pngcairo_metrics(void)
{
    const struct {
        int w, h;
        double pt;
        const char *opt;
        const char *title;
    } cases[] = {{640, 480, 12, "", NULL},
                 {800, 600, 12, "", "a\\\\nb"},
                 {300, 200, 8, "font 'sans,8'", NULL},
                 {1000, 700, 14, "font 'sans,14'", "T"},
                 {640, 480, 18, "fontscale 1.5", NULL}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        char script[512], title[64] = "";
        if (cases[c].title) snprintf(title, sizeof title, "set title '%s'\n", cases[c].title);
        snprintf(script, sizeof script,
                 "set term pngcairo size %d,%d %s\nset output 'm.png'\n%sunset key\nsplot x*y\n"
                 "set print 'm.txt'\nprint sprintf('%%d %%d %%d %%d %%.0f %%.0f %%.0f %%.0f', "
                 "GPVAL_TERM_XSIZE, GPVAL_TERM_YSIZE, GPVAL_TERM_HCHAR, GPVAL_TERM_VCHAR, "
                 "GPVAL_TERM_XMIN*200, GPVAL_TERM_XMAX*200, GPVAL_TERM_YMIN*200, "
                 "GPVAL_TERM_YMAX*200)\n",
                 cases[c].w, cases[c].h, cases[c].opt, title);
        free(gp_run(script, "m.png"));
        char *txt = gp_read("m.txt");
        PV_CHECK(txt != NULL);
        if (!txt) continue;
        int xs, ys, hc, vc;
        double xl, xr, yb, yt;
        PV_CHECK(sscanf(txt, "%d %d %d %d %lf %lf %lf %lf", &xs, &ys, &hc, &vc, &xl, &xr, &yb,
                        &yt) == 8);
        free(txt);
        pv_view3d_params p = {0};
        pv_termdim_pngcairo(&p.term, cases[c].w, cases[c].h, cases[c].pt);
        p.rot_x = 60;
        p.rot_z = 30;
        p.scale = p.zscale = 1;
        p.xmin = p.ymin = -10;
        p.xmax = p.ymax = 10;
        p.zmin = -100;
        p.zmax = 100;
        p.xyplane_rel = 0.5;
        p.base_in_box = true;
        p.title_lines = pv_frame_title_lines(cases[c].title);
        pv_view3d v;
        pv_view3d_setup(&v, &p);
        PV_CHECK_EQ(p.term.xmax, xs);
        PV_CHECK_EQ(p.term.ymax, ys);
        PV_CHECK_EQ(p.term.h_char, hc);
        PV_CHECK_NEAR(p.term.v_char, vc, 1); /* 1/200 px: pango's unit rounding */
        PV_CHECK_NEAR(v.xleft, xl, 1);
        PV_CHECK_NEAR(v.xright, xr, 1);
        PV_CHECK_NEAR(v.ybot, yb, 3);
        PV_CHECK_NEAR(v.ytop, yt, 3);
    }
}

/* ---- depth and slab order -------------------------------------------------------------- */

static void test_depth(void)
{
    pv_termdim t;
    pv_termdim_pngcairo(&t, 640, 480, 12);
    pv_view3d v;
    setup(&v, &t, 60, 30, 0, 1, -0.5);
    double d0, d1, sx, sy;
    pv_view_project(&v, 0.5, 0.5, 0, NULL, NULL, &d0);
    pv_view_project(&v, 0.5, 0.5, 1, &sx, &sy, &d1);
    PV_CHECK(d1 < d0); /* seen from above: the top is nearer */
    PV_CHECK_EQ(pv_view_z_facing(&v), 1);
    PV_CHECK(pv_view_depth_per_z(&v) < 0);
    PV_CHECK_NEAR(d1 - d0, pv_view_depth_per_z(&v), 1e-12);
    /* pixel = terminal/200 + 0.5, y down */
    double tx, ty;
    pv_view_term(&v, 0.5, 0.5, 1, &tx, &ty);
    PV_CHECK_NEAR(sx, tx / 200 + 0.5, 1e-12);
    PV_CHECK_NEAR(sy, (t.ymax - ty) / 200 + 0.5, 1e-12);
    setup(&v, &t, 120, 30, 0, 1, -0.5);
    PV_CHECK_EQ(pv_view_z_facing(&v), -1);
    setup(&v, &t, 90, 30, 0, 1, -0.5);
    PV_CHECK_EQ(pv_view_z_facing(&v), 0);
    setup(&v, &t, 300, 30, 0, 1, -0.5);
    PV_CHECK_EQ(pv_view_z_facing(&v), 1);
    /* the front corner (x max, y min at rot_z 30) is nearer than the back corner */
    setup(&v, &t, 60, 30, 0, 1, -0.5);
    pv_view_project(&v, 1, 0, 0, NULL, NULL, &d0);
    pv_view_project(&v, 0, 1, 0, NULL, NULL, &d1);
    PV_CHECK(d0 < d1);
    PV_CHECK_NEAR(v.front_x, 1, 0);
    PV_CHECK_NEAR(v.front_y, 0, 0);
}

int main(void)
{
    test_e06();
    test_depth();
    if (!gp_have()) {
        fprintf(stderr, "gnuplot not found: live checks skipped\n");
        return 77;
    }
    test_live_views();
    test_pngcairo_metrics();
    gp_cleanup();
    return pv_test_result("view");
}
