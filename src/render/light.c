/*
 * render/light.c: gnuplot's pm3d lighting model for filled polygons (GP-7.6).
 *
 * Ambient light 1, a diffuse term from one light at fixed angles relative to the viewer
 * and a Phong highlight of exponent 5, all as gnuplot 5.4 computes them, including two
 * quirks that change colours and are therefore kept: the light's azimuth adds 90 to an
 * angle already in radians, and the normal's components are weighted by products of the
 * axis scale factors before it is normalised.
 */
#include "pvox/view.h"

#include <math.h>

static double clamp01(double v)
{
    return v < 0 ? 0 : v > 1 ? 1 : v;
}

void pv_light_setup(pv_light *L, const pv_view3d *v, double primary, double specular,
                    double spec2)
{
    const double D = 3.14159265358979323846 / 180.0;
    L->primary = clamp01(primary);
    L->specular = clamp01(specular);
    L->spec2 = clamp01(spec2);
    L->ambient = 1.0;
    L->phong = 5.0;
    double a = 45.0 * D, b = -45.0 * D;
    double theta = -(b + 90.0); /* sic: 90 added in radians (GP-7.6) */
    L->l[0] = cos(-a) * cos(theta);
    L->l[1] = sin(-a);
    L->l[2] = cos(-a) * sin(theta);
    L->psi = -v->rot_z * D;
    L->phi = -v->rot_x * D;
    double sx = v->xscale3d, sy = v->yscale3d, sz = v->zscale3d;
    L->w[0] = sy * sz;
    L->w[1] = sx * sz;
    L->w[2] = sx * sy;
}

/* Weighted normal of triangle (a, b, c); false if degenerate. */
static bool tri_normal(const pv_light *L, const double *a, const double *b, const double *c,
                       double n[3])
{
    double d1[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
    double d2[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
    n[0] = (d1[1] * d2[2] - d1[2] * d2[1]) * L->w[0];
    n[1] = (d1[2] * d2[0] - d1[0] * d2[2]) * L->w[1];
    n[2] = (d1[0] * d2[1] - d1[1] * d2[0]) * L->w[2];
    double len = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    if (!(len > 0)) return false;
    for (int k = 0; k < 3; k++) n[k] /= len;
    return true;
}

void pv_light_shade(const pv_light *L, const double (*v)[3], int nv, const uint8_t rgb[3],
                    uint8_t out[3])
{
    double n[3];
    bool ok = nv >= 3 && tri_normal(L, v[0], v[1], v[2], n);
    if (!ok && nv >= 4) ok = tri_normal(L, v[0], v[1], v[3], n);
    if (!ok) {
        for (int k = 0; k < 3; k++) out[k] = rgb[k];
        return;
    }
    /* the fixed light: rotate the normal back by the view angles */
    double cp = cos(L->psi), sp = sin(L->psi), cf = cos(L->phi), sf = sin(L->phi);
    double m0 = cp * n[0] - sp * n[1], m1 = sp * n[0] + cp * n[1], m2 = n[2];
    n[0] = m0;
    n[1] = cf * m1 - sf * m2;
    n[2] = sf * m1 + cf * m2;
    if (n[2] < 0)
        for (int k = 0; k < 3; k++) n[k] = -n[k];
    double d = n[0] * L->l[0] + n[1] * L->l[1] + n[2] * L->l[2];
    double diffuse = d < 0 ? -d : 0;
    double f = L->ambient - L->primary + diffuse * L->primary;
    double c[3];
    for (int k = 0; k < 3; k++) c[k] = rgb[k] / 255.0 * f;
    if (L->specular > 0 || L->spec2 > 0) {
        double r[3], len = 0;
        for (int k = 0; k < 3; k++) {
            r[k] = -L->l[k] + 2 * d * n[k];
            len += r[k] * r[k];
        }
        len = sqrt(len);
        double q = len > 0 ? -r[2] / len : 0;
        double s = pow(fabs(q), L->phong);
        if (q > 0 && L->specular > 0)
            for (int k = 0; k < 3; k++) c[k] += L->specular * s;
        else if (q < 0 && L->spec2 > 0)
            c[0] += L->spec2 * s;
    }
    for (int k = 0; k < 3; k++) out[k] = (uint8_t)(int)(clamp01(c[k]) * 255.0);
}
