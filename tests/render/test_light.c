/*
 * pm3d lighting (GP-7.6) against gnuplot 5.4: a horizontal isosurface plane at z = 4.5 in
 * a [0:9] box, `lc rgb "#8040C0"`, three lightings and views whose facet colours gnuplot's
 * svg terminal wrote (all 81 facets of the plane the same colour):
 *   view 65,40, `set pm3d lighting`                    -> rgb(64, 32, 96)
 *   view 65,40, `lighting primary 0.8 specular 0.0`    -> rgb(25, 12, 38)
 *   view 30,120, `lighting primary 0.5 specular 0.6`   -> rgb(134, 78, 190)
 * Both windings and both triangle choices give the same colour; a degenerate polygon is
 * left unlit. Ordinary pm3d surfaces are lit by their normal in user coordinates (not view
 * coordinates); gnuplot's svg colours of `"++" using 1:2:Z:(1) with pm3d`, a one-colour
 * palette #8040C0, u/v [0:9]:
 *   Z = 4.5, view 65,40, `set pm3d lighting`                       -> rgb(123, 61, 184)
 *   Z = 0.5*x+2, view 65,40, `set pm3d lighting`                   -> rgb(119, 59, 179)
 *   Z = 0.5*x+2, view 30,120, `lighting primary 0.5 specular 0.6`  -> rgb(135, 73, 196)
 */
#include "pv_test.h"

#include "pvox/view.h"

static void setup(pv_view3d *v, double rx, double rz)
{
    pv_view3d_params p = {0};
    pv_termdim_pngcairo(&p.term, 400, 400, 12);
    p.rot_x = rx;
    p.rot_z = rz;
    p.scale = p.zscale = 1;
    p.xmin = p.ymin = p.zmin = 0;
    p.xmax = p.ymax = p.zmax = 9;
    p.xyplane_absolute = false;
    p.xyplane_rel = 0.5;
    p.base_in_box = true;
    pv_view3d_setup(v, &p);
}

static void shade(double rx, double rz, double pr, double sp, bool flip, const int want[3])
{
    pv_view3d v;
    setup(&v, rx, rz);
    pv_light L;
    pv_light_setup(&L, &v, pr, sp, 0);
    double w[4][3] = {{2, 3, 4.5}, {3, 3, 4.5}, {3, 4, 4.5}, {2, 4, 4.5}};
    double m[4][3];
    for (int k = 0; k < 4; k++) {
        int s = flip ? 3 - k : k;
        pv_view_map(&v, w[s][0], w[s][1], w[s][2], &m[k][0], &m[k][1], &m[k][2]);
    }
    uint8_t base[3] = {0x80, 0x40, 0xC0}, out[3];
    pv_light_shade(&L, (const double(*)[3])m, 4, base, out);
    for (int k = 0; k < 3; k++) PV_CHECK_EQ(out[k], want[k]);
}

/* A pm3d quad in user coordinates with z = a*x + b. */
static void shade_user(double rx, double rz, double pr, double sp, double a, double b,
                       const int want[3])
{
    pv_view3d v;
    setup(&v, rx, rz);
    pv_light L;
    pv_light_setup(&L, &v, pr, sp, 0);
    double w[4][3] = {{0, 0, 0}, {3, 0, 0}, {3, 3, 0}, {0, 3, 0}};
    for (int k = 0; k < 4; k++) w[k][2] = a * w[k][0] + b;
    uint8_t base[3] = {0x80, 0x40, 0xC0}, out[3];
    pv_light_shade(&L, (const double(*)[3])w, 4, base, out);
    for (int k = 0; k < 3; k++) PV_CHECK_EQ(out[k], want[k]);
}

int main(void)
{
    shade_user(65, 40, 0.5, 0.2, 0, 4.5, (const int[3]){123, 61, 184});
    shade_user(65, 40, 0.5, 0.2, 0.5, 2, (const int[3]){119, 59, 179});
    shade_user(30, 120, 0.5, 0.6, 0.5, 2, (const int[3]){135, 73, 196});
    for (int f = 0; f < 2; f++) {
        shade(65, 40, 0.5, 0.2, f, (const int[3]){64, 32, 96});
        shade(65, 40, 0.8, 0.0, f, (const int[3]){25, 12, 38});
        shade(30, 120, 0.5, 0.6, f, (const int[3]){134, 78, 190});
    }
    /* degenerate: unlit */
    pv_view3d v;
    setup(&v, 65, 40);
    pv_light L;
    pv_light_setup(&L, &v, 0.5, 0.2, 0);
    double d[3][3] = {{0.1, 0.1, 0.1}, {0.1, 0.1, 0.1}, {0.2, 0.2, 0.2}};
    uint8_t base[3] = {10, 20, 30}, out[3];
    pv_light_shade(&L, (const double(*)[3])d, 3, base, out);
    for (int k = 0; k < 3; k++) PV_CHECK_EQ(out[k], base[k]);
    return pv_test_result("test_light");
}
