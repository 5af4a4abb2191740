/*
 * Throughput of the compositor's blending kernel alone (pv_composite_over,
 * include/pvox/composite.h) against memcpy over the same number of bytes
 * (bench/bench_frames.sh; bench/README.md, "Frame sequences").
 *
 * A W x H canvas (default 1920x1080) of realistic pixels: the front tile 60% opaque
 * (uniform cover 255), 6% translucent (uniform cover 102, alpha 0.4), 4% partial edge
 * pixels (some of the 16 samples 255, the others 0), 30% empty; the back tile 80% opaque,
 * 5% edges, 15% empty. The kernel runs row by row as src/exec/render.c calls it, in place
 * (out = back, the accumulating tile; the back is restored between runs, untimed), under
 * an OpenMP parallel-for over rows with 1 and 2 threads, as the compositor could. Bytes
 * per pixel: front, back and out, each 16 bytes of RGBA floats and 16 of sample covers (96
 * bytes; the in-place out is the back written again). memcpy copies 48 bytes a pixel from
 * one buffer to another row by row under the same loop (48 read + 48 written = 96 bytes),
 * so both GB/s count the same traffic. Prints the best of REPS runs of each and blend /
 * memcpy (target >= 50%).
 *
 * Kinds are drawn per pixel (SPAN 1, the default: the branches mispredict at random, the
 * worst case) or in runs of 1..SPAN pixels (mean about SPAN/2), as rasterised tiles hold
 * them: surfaces are spans of one kind with edges between.
 *
 * Usage: bench_blend [W H [REPS [SPAN]]]   (defaults 1920 1080 10 1). Built when PV_BUILD_BENCH=ON;
 * not a test (bench/README.md, STYLE-11).
 */
#include "pvox/composite.h"

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { S = PV_RASTER_SAMPLES };

static uint32_t lcg(uint32_t *s)
{
    *s = *s * 1664525u + 1013904223u;
    return *s >> 8;
}

/* One pixel: kind 0 empty, 1 opaque, 2 translucent (alpha 0.4), 3 edge (some samples). */
static void make_px(float *px, uint8_t *cv, int kind, uint32_t *seed)
{
    float r = (float)(lcg(seed) % 256) / 255.0f, g = (float)(lcg(seed) % 256) / 255.0f,
          b = (float)(lcg(seed) % 256) / 255.0f;
    float a = 0.0f;
    switch (kind) {
    case 1:
        a = 1.0f;
        memset(cv, 255, S);
        break;
    case 2:
        a = 0.4f;
        memset(cv, 102, S);
        break;
    case 3: {
        int k = 1 + (int)(lcg(seed) % (S - 1)), on = 0;
        for (int i = 0; i < S; i++) {
            cv[i] = (uint8_t)(i < k ? 255 : 0);
            on += i < k;
        }
        a = (float)on / (float)S;
        break;
    }
    default:
        memset(cv, 0, S);
    }
    px[0] = r * a;
    px[1] = g * a;
    px[2] = b * a;
    px[3] = a;
}

static void *xmalloc(size_t n)
{
    void *p = malloc(n);
    if (!p) {
        fprintf(stderr, "bench_blend: out of memory\n");
        exit(3);
    }
    memset(p, 0, n); /* touch every page before timing */
    return p;
}

int main(int argc, char **argv)
{
    int w = argc > 2 ? atoi(argv[1]) : 1920, h = argc > 2 ? atoi(argv[2]) : 1080;
    int reps = argc > 3 ? atoi(argv[3]) : 10;
    int span = argc > 4 ? atoi(argv[4]) : 1;
    if (w < 1 || h < 1 || reps < 1 || span < 1) {
        fprintf(stderr, "usage: bench_blend [W H [REPS [SPAN]]]\n");
        return 2;
    }
    size_t n = (size_t)w * (size_t)h;
    float *front = xmalloc(n * 16), *back = xmalloc(n * 16), *back0 = xmalloc(n * 16);
    uint8_t *fcv = xmalloc(n * S), *bcv = xmalloc(n * S), *bcv0 = xmalloc(n * S);
    uint8_t *src = xmalloc(n * 48), *dst = xmalloc(n * 48);
    uint32_t seed = 12345u;
    size_t kinds[2][4] = {{0}};
    int kf = 0, kb = 0;
    for (size_t i = 0; i < n; i++) {
        /* a new kind starts where a run ends: with SPAN 1 every pixel draws its own
         * (the worst case for the branches), with SPAN > 1 runs of 1..SPAN pixels, as a
         * rasterised frame has them (surfaces in spans, edges between) */
        if (span <= 1 || lcg(&seed) % (unsigned)span == 0) {
            unsigned u = lcg(&seed) % 100;
            kf = u < 30 ? 0 : u < 90 ? 1 : u < 96 ? 2 : 3;
        }
        if (span <= 1 || lcg(&seed) % (unsigned)span == 0) {
            unsigned u = lcg(&seed) % 100;
            kb = u < 15 ? 0 : u < 95 ? 1 : 3;
        }
        make_px(front + 4 * i, fcv + S * i, kf, &seed);
        make_px(back0 + 4 * i, bcv0 + S * i, kb, &seed);
        kinds[0][kf]++;
        kinds[1][kb]++;
    }
    for (size_t i = 0; i < n * 48; i++) src[i] = (uint8_t)lcg(&seed);
    double bytes = 96.0 * (double)n;
    printf("blend: %dx%d canvas, front %.0f%% opaque %.0f%% translucent %.0f%% edge %.0f%% "
           "empty, back %.0f%% opaque %.0f%% edge %.0f%% empty, kinds in runs of 1..%d pixels; "
           "96 bytes/pixel; best of %d\n",
           w, h, 100.0 * (double)kinds[0][1] / (double)n, 100.0 * (double)kinds[0][2] / (double)n,
           100.0 * (double)kinds[0][3] / (double)n, 100.0 * (double)kinds[0][0] / (double)n,
           100.0 * (double)kinds[1][1] / (double)n, 100.0 * (double)kinds[1][3] / (double)n,
           100.0 * (double)kinds[1][0] / (double)n, span, reps);
    double check = 0.0;
    for (int nt = 1; nt <= 2; nt++) {
        double best_blend = 1e30, best_copy = 1e30;
        for (int r = 0; r < reps; r++) {
            memcpy(back, back0, n * 16);
            memcpy(bcv, bcv0, n * S);
            double t0 = omp_get_wtime();
#pragma omp parallel for num_threads(nt) schedule(static) default(none) \
    shared(front, fcv, back, bcv, w, h)
            for (int y = 0; y < h; y++) {
                size_t i = (size_t)y * (size_t)w;
                pv_composite_over((size_t)w, front + 4 * i, fcv + S * i, back + 4 * i,
                                  bcv + S * i, back + 4 * i, bcv + S * i);
            }
            double t = omp_get_wtime() - t0;
            if (t < best_blend) best_blend = t;
            t0 = omp_get_wtime();
#pragma omp parallel for num_threads(nt) schedule(static) default(none) shared(src, dst, w, h)
            for (int y = 0; y < h; y++) {
                size_t o = (size_t)y * (size_t)w * 48;
                memcpy(dst + o, src + o, (size_t)w * 48);
            }
            t = omp_get_wtime() - t0;
            if (t < best_copy) best_copy = t;
        }
        for (size_t i = 0; i < n; i += 997) check += (double)back[4 * i + 3] + dst[48 * i];
        double gb_blend = bytes / best_blend / 1e9, gb_copy = bytes / best_copy / 1e9;
        printf("blend %d thread%s  pv_composite_over %7.2f GB/s %7.2f ms  memcpy %7.2f GB/s "
               "%7.2f ms  ratio %5.1f%%  (target >= 50%%)\n",
               nt, nt > 1 ? "s" : " ", gb_blend, best_blend * 1e3, gb_copy, best_copy * 1e3,
               100.0 * gb_blend / gb_copy);
    }
    if (check < 0.0) printf("%g\n", check); /* keeps the results alive */
    free(front);
    free(back);
    free(back0);
    free(fcv);
    free(bcv);
    free(bcv0);
    free(src);
    free(dst);
    return 0;
}
