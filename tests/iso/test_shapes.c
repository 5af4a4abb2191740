/*
 * Whole surfaces from pv_iso_extract (include/pvox/iso.h, DEC-7): a sphere of radius 22
 * voxels from a 1/r field in a 64^3 grid is closed (every side shared by two polygons in
 * opposite directions), has Euler characteristic 2, the area 4 pi r^2 within 1%, vertices
 * on the sphere and every normal pointing to the lower values (outwards); a torus has Euler
 * characteristic 0 and its area 4 pi^2 R r within 2%; both tessellation modes.
 */
#include "iso_check.h"

#include "pv_test.h"

#define N 64
#define PI 3.14159265358979323846

static void sphere(bool mixed)
{
    tfield t = tf_new(N, N, N);
    const double c[3] = {31.3, 32.6, 31.9}, r = 22.0;
    for (int64_t k = 0; k < N; k++)
        for (int64_t j = 0; j < N; j++)
            for (int64_t i = 0; i < N; i++) {
                double d = sqrt((i - c[0]) * (i - c[0]) + (j - c[1]) * (j - c[1]) +
                                (k - c[2]) * (k - c[2]));
                *tf_at(&t, i, j, k) = (float)(1.0 / d);
            }
    pv_iso_field f = tf_field(&t);
    double level = 1.0 / r;
    pv_iso_opts o = {mixed, 2};
    polyvec pv = {0};
    pv_iso_stats st = {0};
    PV_CHECK_EQ(pv_iso_extract(&f, 0, N - 1, &level, 1, &o, collect, &pv, &st), 0);
    PV_CHECK(pv.n > 1000);
    PV_CHECK_EQ(st.polys, pv.n);
    meshinfo mi = mesh_check(pv.p, pv.n, -1);
    PV_CHECK_EQ(mi.bad_sides, 0);
    PV_CHECK_EQ(mi.V - mi.E + mi.F, 2);
    double area = mesh_area(pv.p, pv.n), want = 4.0 * PI * r * r;
    PV_CHECK_NEAR(area / want, 1.0, 0.01);
    int bad_normal = 0, bad_radius = 0, quads = 0;
    for (size_t i = 0; i < pv.n; i++) {
        const pv_iso_poly *p = &pv.p[i];
        if (p->nv == 4) quads++;
        for (int tr = 0; tr + 2 < p->nv; tr++) {
            double n[3], ctr[3];
            poly_tri_normal(p, tr, n, ctr);
            double len = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
            if (len < 1e-9) continue; /* degenerate: no direction */
            double d = n[0] * (ctr[0] - c[0]) + n[1] * (ctr[1] - c[1]) + n[2] * (ctr[2] - c[2]);
            if (!(d > 0.0)) bad_normal++;
        }
        for (int v = 0; v < p->nv; v++) {
            double dx = p->v[v][0] - c[0], dy = p->v[v][1] - c[1], dz = p->v[v][2] - c[2];
            if (fabs(sqrt(dx * dx + dy * dy + dz * dz) - r) > 0.05) bad_radius++;
        }
    }
    PV_CHECK_EQ(bad_normal, 0);
    PV_CHECK_EQ(bad_radius, 0);
    if (mixed)
        PV_CHECK(quads > 0);
    else
        PV_CHECK_EQ(quads, 0);
    fprintf(stderr, "sphere (%s): %zu polygons, area %.2f of %.2f, V-E+F = %lld\n",
            mixed ? "mixed" : "triangles", pv.n, area, want, (long long)(mi.V - mi.E + mi.F));
    pv_clear(&pv);
    free(t.v);
}

static void torus(bool mixed)
{
    tfield t = tf_new(N, N, 40);
    const double c[3] = {31.6, 32.3, 19.7}, R = 18.0, r = 7.0;
    for (int64_t k = 0; k < 40; k++)
        for (int64_t j = 0; j < N; j++)
            for (int64_t i = 0; i < N; i++) {
                double q = sqrt((i - c[0]) * (i - c[0]) + (j - c[1]) * (j - c[1])) - R;
                *tf_at(&t, i, j, k) = (float)(q * q + (k - c[2]) * (k - c[2]));
            }
    pv_iso_field f = tf_field(&t);
    double level = r * r;
    pv_iso_opts o = {mixed, 1};
    polyvec pv = {0};
    PV_CHECK_EQ(pv_iso_extract(&f, 0, 39, &level, 1, &o, collect, &pv, NULL), 0);
    meshinfo mi = mesh_check(pv.p, pv.n, -1);
    PV_CHECK_EQ(mi.bad_sides, 0);
    PV_CHECK_EQ(mi.V - mi.E + mi.F, 0);
    double area = mesh_area(pv.p, pv.n), want = 4.0 * PI * PI * R * r;
    PV_CHECK_NEAR(area / want, 1.0, 0.02);
    /* lower values inside the tube: normals point towards the core circle */
    int bad = 0;
    for (size_t i = 0; i < pv.n; i++)
        for (int tr = 0; tr + 2 < pv.p[i].nv; tr++) {
            double n[3], ctr[3];
            poly_tri_normal(&pv.p[i], tr, n, ctr);
            if (sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]) < 1e-9) continue;
            double dx = ctr[0] - c[0], dy = ctr[1] - c[1], rho = sqrt(dx * dx + dy * dy);
            double core[3] = {c[0] + dx / rho * R, c[1] + dy / rho * R, c[2]};
            double d =
                n[0] * (core[0] - ctr[0]) + n[1] * (core[1] - ctr[1]) + n[2] * (core[2] - ctr[2]);
            if (!(d > 0.0)) bad++;
        }
    PV_CHECK_EQ(bad, 0);
    fprintf(stderr, "torus (%s): %zu polygons, area %.2f of %.2f, V-E+F = %lld\n",
            mixed ? "mixed" : "triangles", pv.n, area, want, (long long)(mi.V - mi.E + mi.F));
    pv_clear(&pv);
    free(t.v);
}

int main(void)
{
    sphere(false);
    sphere(true);
    torus(false);
    torus(true);
    return pv_test_result("iso.test_shapes");
}
