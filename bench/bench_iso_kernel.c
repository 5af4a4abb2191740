/*
 * Speed of the isosurface kernel alone (include/pvox/iso.h): a dipole-like field
 * 1/r1 - 1/r2 on N^3 nodes over [0,1]^3 (charges at (0,0,0.75) and (0,0,0.25)), extracted
 * at 1 level (1), 5 levels (-2 -1 0 1 2) and 201 levels (-100..100 step 1), at 1 and 2
 * threads, into a callback that only counts. Prints the best of REPS runs as M voxels/s
 * (N^3 nodes per second). Usage: bench_iso_kernel [N [REPS [MODE]]], MODE mixed|triangles.
 * Built when PV_BUILD_BENCH=ON; not a test (bench/README.md, STYLE-11).
 */
#include "pvox/iso.h"

#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct grid {
    int64_t n;
    float *v;
} grid;

static const float *plane(const void *ud, int64_t k)
{
    const grid *g = ud;
    return g->v + (size_t)k * (size_t)(g->n * g->n);
}

static int count(void *ud, const pv_iso_poly *p, size_t n)
{
    (void)p;
    *(uint64_t *)ud += n;
    return 0;
}

int main(int argc, char **argv)
{
    int64_t n = argc > 1 ? atoll(argv[1]) : 256;
    int reps = argc > 2 ? atoi(argv[2]) : 5;
    bool mixed = !(argc > 3 && strcmp(argv[3], "triangles") == 0);
    if (n < 2 || reps < 1) {
        fprintf(stderr, "usage: bench_iso_kernel [N >= 2 [REPS [mixed|triangles]]]\n");
        return 2;
    }
    grid g = {n, malloc((size_t)(n * n * n) * sizeof(float))};
    if (!g.v) return 3;
    double h = 1.0 / (double)(n - 1);
#pragma omp parallel for schedule(static) default(none) shared(g, n, h)
    for (int64_t k = 0; k < n; k++)
        for (int64_t j = 0; j < n; j++)
            for (int64_t i = 0; i < n; i++) {
                double x = (double)i * h, y = (double)j * h, z = (double)k * h;
                double r1 = sqrt(x * x + y * y + (z - 0.75) * (z - 0.75));
                double r2 = sqrt(x * x + y * y + (z - 0.25) * (z - 0.25));
                g.v[(k * n + j) * n + i] = (float)(1.0 / r1 - 1.0 / r2);
            }
    pv_iso_field f = {n, n, n, plane, &g};
    double lv201[201], lv5[5] = {-2, -1, 0, 1, 2}, lv1[1] = {1};
    for (int l = 0; l < 201; l++) lv201[l] = l - 100;
    struct {
        const char *name;
        const double *lv;
        int n;
    } sets[3] = {{"1 level", lv1, 1}, {"5 levels", lv5, 5}, {"201 levels", lv201, 201}};
    printf("iso kernel, %lld^3 dipole, %s, best of %d\n", (long long)n,
           mixed ? "mixed" : "triangles", reps);
    for (int s = 0; s < 3; s++)
        for (int nt = 1; nt <= 2; nt++) {
            pv_iso_opts o = {mixed, nt};
            double best = 1e30;
            pv_iso_stats st;
            for (int r = 0; r < reps; r++) {
                uint64_t got = 0;
                memset(&st, 0, sizeof st);
                double t0 = omp_get_wtime();
                pv_iso_extract(&f, 0, n - 1, sets[s].lv, sets[s].n, &o, count, &got, &st);
                double t = omp_get_wtime() - t0;
                if (t < best) best = t;
                if (got != st.polys) fprintf(stderr, "polygon count mismatch\n");
            }
            printf("%-11s %d thread%s  %8.1f M voxels/s  %7.2f ms  polys %llu  tris %llu\n",
                   sets[s].name, nt, nt > 1 ? "s" : " ", (double)(n * n * n) / best / 1e6,
                   best * 1e3, (unsigned long long)st.polys, (unsigned long long)st.tris);
        }
    free(g.v);
    return 0;
}
