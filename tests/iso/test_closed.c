/*
 * Watertight surfaces on random data (DEC-7, include/pvox/iso.h): a random interior padded
 * with a large constant, so every surface lies inside the grid, gives a closed mesh (each
 * side, a pair of vertex edge ids, shared by exactly two polygons in opposite directions)
 * for every level, in both modes, at several thread counts and with the layers split into
 * separate calls (slabs); so does an integer-valued field whose nodes often equal the level.
 * The orientation is consistent with the values: with the constant outside, the signed
 * volume enclosed by the normals (which point to lower values, i.e. into the region below
 * the level) is negative.
 */
#include "iso_check.h"

#include "pv_test.h"

#define N 34

static tfield padded(uint64_t seed, bool integer)
{
    tfield t = tf_new(N, N - 3, N - 5);
    for (int64_t k = 0; k < t.nz; k++)
        for (int64_t j = 0; j < t.ny; j++)
            for (int64_t i = 0; i < t.nx; i++) {
                bool inner =
                    i >= 2 && j >= 2 && k >= 2 && i < t.nx - 2 && j < t.ny - 2 && k < t.nz - 2;
                double r = hash01(seed * 7919u + (uint64_t)((k * t.ny + j) * t.nx + i));
                float v = integer ? (float)(int)(3.0 * r) : (float)r;
                *tf_at(&t, i, j, k) = inner ? v : 5.0f;
            }
    return t;
}

/* signed volume sum (v0 . (v1 x v2)) / 6 over the polygons' fan triangles */
static double signed_volume(const pv_iso_poly *p, size_t n, int level)
{
    double vol = 0.0;
    for (size_t i = 0; i < n; i++) {
        if (p[i].level != level) continue;
        for (int t = 0; t + 2 < p[i].nv; t++) {
            double c[3];
            cross3(p[i].v[t + 1], p[i].v[t + 2], c);
            vol += (p[i].v[0][0] * c[0] + p[i].v[0][1] * c[1] + p[i].v[0][2] * c[2]) / 6.0;
        }
    }
    return vol;
}

static void check_closed(tfield *t, const double *lv, int nl)
{
    pv_iso_field f = tf_field(t);
    for (int m = 0; m < 2; m++)
        for (int nt = 1; nt <= 2; nt++) {
            pv_iso_opts o = {m == 1, nt};
            polyvec pv = {0};
            /* three slabs, as ranks would extract them */
            int64_t cut[4] = {0, t->nz / 3, t->nz / 3 + 1, t->nz - 1};
            for (int c = 0; c < 3; c++)
                PV_CHECK_EQ(pv_iso_extract(&f, cut[c], cut[c + 1], lv, nl, &o, collect, &pv, NULL),
                            0);
            for (int l = 0; l < nl; l++) {
                meshinfo mi = mesh_check(pv.p, pv.n, l);
                PV_CHECK(mi.F > 100);
                PV_CHECK_EQ(mi.bad_sides, 0);
                PV_CHECK(signed_volume(pv.p, pv.n, l) < 0.0);
                if (m == 0 && nt == 1)
                    fprintf(stderr, "level %g: %lld polygons, V-E+F = %lld, volume %.1f\n", lv[l],
                            (long long)mi.F, (long long)(mi.V - mi.E + mi.F),
                            signed_volume(pv.p, pv.n, l));
            }
            pv_clear(&pv);
        }
}

int main(void)
{
    tfield a = padded(1, false);
    double lv[3] = {0.5, 0.2, 0.8};
    check_closed(&a, lv, 3);
    free(a.v);
    /* integer values 0..2, levels equal to node values */
    tfield b = padded(2, true);
    double iv[2] = {1.0, 2.0};
    check_closed(&b, iv, 2);
    free(b.v);
    return pv_test_result("iso.test_closed");
}
