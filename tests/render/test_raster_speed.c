/*
 * Rasteriser throughput and thread determinism.
 *
 * A voxel cloud (n^3 points, pt 7 ps 0.4, colour by position, as the article's
 * `splot $v with points pt 7 ps 0.4 lc palette`) and an opaque-plus-transparent
 * triangle mesh (a wavy surface of m x m quads), seen as gnuplot's `set view 65,40`
 * into a 640x480 canvas. Renders with 1 and 2 threads: the tiles must be bit-identical.
 *
 *     test_raster_speed                  small scene (ctest): determinism, timings printed
 *     test_raster_speed --bench [n m]    the benchmark: default n = 200 (8M points),
 *                                        m = 1000 (2M triangles); prints key=value lines
 * Timings are printed, never asserted (the machine is shared).
 */
#include "pv_test.h"
#include "pvox/raster.h"

#include <omp.h>
#include <stdlib.h>
#include <time.h>

#define PI 3.14159265358979323846

static pv_ctx *ctx;

typedef struct view {
    double cz, sz, cx, sx;
} view;

static void project(const view *v, double x, double y, double z, float *px, float *py,
                    float *depth)
{
    double X = 2 * x - 1, Y = 2 * y - 1, Z = 2 * z - 1;
    double X1 = X * v->cz + Y * v->sz, Y1 = -X * v->sz + Y * v->cz;
    double Y2 = Y1 * v->cx + Z * v->sx, D = -Y1 * v->sx + Z * v->cx;
    *px = (float)(320 + 160 * X1);
    *py = (float)(240 - 160 * Y2);
    *depth = (float)-D;
}

static void add_cloud(pv_raster *r, const view *v, int n)
{
    uint32_t st = pv_raster_marker_style(ctx, r, 7, 3 * 0.4f, 1.0f);
    size_t total = (size_t)n * n * n, k = 0;
    pv_raster_point *p = malloc(total * sizeof *p);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            for (int l = 0; l < n; l++) {
                double x = i / (n - 1.0), y = j / (n - 1.0), z = l / (n - 1.0);
                pv_raster_point *q = &p[k];
                project(v, x, y, z, &q->x, &q->y, &q->depth);
                q->style = st;
                q->color = (pv_rgba8){(uint8_t)(255 * x), (uint8_t)(255 * y), (uint8_t)(255 * z),
                                      255};
                q->order = k++;
            }
    PV_CHECK_EQ(pv_raster_add_points(ctx, r, p, total), PV_OK);
    free(p);
}

static void add_surface(pv_raster *r, const view *v, int m, uint64_t order0)
{
    size_t nq = (size_t)m * m, k = 0;
    pv_raster_tri *t = malloc(2 * nq * sizeof *t);
    for (int i = 0; i < m; i++)
        for (int j = 0; j < m; j++) {
            float x[4], y[4], d[4];
            int di[4] = {0, 1, 1, 0}, dj[4] = {0, 0, 1, 1};
            for (int c = 0; c < 4; c++) {
                double u = (i + di[c]) / (double)m, w = (j + dj[c]) / (double)m;
                double z = 0.5 + 0.2 * sin(6 * u) * cos(5 * w);
                project(v, u, w, z, &x[c], &y[c], &d[c]);
            }
            pv_rgba8 col = {(uint8_t)(40 + i % 200), 120, (uint8_t)(200 - j % 150),
                            (uint8_t)((i / 8 + j / 8) % 2 ? 255 : 110)};
            static const int tri[2][3] = {{0, 1, 2}, {0, 2, 3}};
            for (int h = 0; h < 2; h++) {
                pv_raster_tri *q = &t[k++];
                for (int c = 0; c < 3; c++) {
                    q->x[c] = x[tri[h][c]];
                    q->y[c] = y[tri[h][c]];
                    q->depth[c] = d[tri[h][c]];
                }
                q->color = col;
                q->order = order0 + (size_t)i * m + j;
            }
        }
    PV_CHECK_EQ(pv_raster_add_tris(ctx, r, t, 2 * nq), PV_OK);
    free(t);
}

static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Best wall time of `reps` renders; *cpu gets the process CPU time of that render (on
 * a shared machine the CPU time of one thread is the steadier figure). */
static double timed_render(pv_raster *r, int nthreads, pv_tile *t, int reps, double *cpu)
{
    pv_raster_options o;
    pv_raster_options_default(&o);
    o.nthreads = nthreads;
    pv_raster_set_options(r, &o);
    PV_CHECK_EQ(pv_raster_render(ctx, r, t), PV_OK); /* warm-up */
    double best = 1e30;
    for (int i = 0; i < reps; i++) {
        double t0 = omp_get_wtime(), c0 = cpu_now();
        PV_CHECK_EQ(pv_raster_render(ctx, r, t), PV_OK);
        double dt = omp_get_wtime() - t0;
        if (dt < best) {
            best = dt;
            *cpu = cpu_now() - c0;
        }
    }
    return best;
}

static uint64_t checksum(const pv_tile *t)
{
    uint64_t h = 1469598103934665603ull;
    const unsigned char *b = (const unsigned char *)t->rgba;
    for (size_t i = 0; i < (size_t)t->w * t->h * 4 * sizeof(float); i++) {
        h ^= b[i];
        h *= 1099511628211ull;
    }
    return h;
}

/* Render `what` (1 points, 2 triangles, 3 both) at 1 and 2 threads; check equal bits. */
static void run(const char *label, int n, int m, int what, int reps, bool bench)
{
    view v = {cos(40 * PI / 180), sin(40 * PI / 180), cos(65 * PI / 180),
              sin(65 * PI / 180)};
    pv_raster *r = pv_raster_create(ctx, 640, 480);
    if (what & 1) add_cloud(r, &v, n);
    if (what & 2) add_surface(r, &v, m, (uint64_t)1 << 40);
    pv_tile *t1 = pv_tile_create(ctx, 640, 480, 0, 0, 640, 480);
    pv_tile *t2 = pv_tile_create(ctx, 640, 480, 0, 0, 640, 480);
    double c1 = 0, c2 = 0;
    double s1 = timed_render(r, 1, t1, reps, &c1), s2 = timed_render(r, 2, t2, reps, &c2);
    size_t np = pv_raster_count_points(r), nt = pv_raster_count_tris(r);
    PV_CHECK(memcmp(t1->rgba, t2->rgba, 640 * 480 * 4 * sizeof(float)) == 0);
    PV_CHECK(memcmp(t1->mask, t2->mask, 640 * 480 * sizeof(uint16_t)) == 0);
    const char *unit = what == 2 ? "triangles" : "points";
    double items = what == 2 ? (double)nt : (double)np;
    printf("%skernel=raster scene=%s points=%zu triangles=%zu threads=1 seconds=%.4f "
           "cpu_seconds=%.4f %s_per_s=%.3g\n",
           bench ? "" : "# ", label, np, nt, s1, c1, unit, items / s1);
    printf("%skernel=raster scene=%s points=%zu triangles=%zu threads=2 seconds=%.4f "
           "cpu_seconds=%.4f %s_per_s=%.3g checksum=%016llx\n",
           bench ? "" : "# ", label, np, nt, s2, c2, unit, items / s2,
           (unsigned long long)checksum(t1));
    pv_tile_destroy(ctx, t1);
    pv_tile_destroy(ctx, t2);
    pv_raster_destroy(ctx, r);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    pv_options opt;
    pv_options_default(&opt);
    ctx = pv_ctx_create(MPI_COMM_WORLD, &opt);
    bool bench = argc > 1 && strcmp(argv[1], "--bench") == 0;
    int n = bench ? 200 : 40, m = bench ? 1000 : 120;
    if (bench && argc > 3) {
        n = atoi(argv[2]);
        m = atoi(argv[3]);
    }
    int reps = bench ? 3 : 1;
    run("cloud", n, m, 1, reps, bench);
    run("surface", n, m, 2, reps, bench);
    run("both", n, m, 3, reps, bench);
    pv_ctx_destroy(ctx);
    MPI_Finalize();
    return pv_test_result("test_raster_speed");
}
