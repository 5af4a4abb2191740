/*
 * PNG encoding of one frame: pvox's writer (pv_png_write with its default options,
 * include/pvox/png.h) against libpng's defaults (png_set_IHDR and nothing else: zlib
 * level Z_DEFAULT_COMPRESSION, libpng's default filter heuristic and strategy), the same
 * pixels, each written to a file in DIR (default /dev/shm, else /tmp) and closed
 * (bench/bench_frames.sh; bench/README.md, "Frame sequences").
 *
 * The frame is a PNG read with libpng (a frame pvox or gnuplot wrote; RGB, or RGBA when
 * the file has alpha), or without FILE a synthetic 1920x1080 RGB frame like
 * frames_seq.gp's (white page, box lines, a shaded red-white-blue plane). Prints the best
 * of REPS runs of each in ms, pvox / libpng (target <= 0.5x) and both file sizes.
 *
 * Usage: bench_png [FILE.png|-] [REPS [DIR]]   (defaults: synthetic, 10, /dev/shm).
 * Built when PV_BUILD_BENCH=ON; not a test (bench/README.md, STYLE-11).
 */
#include "pvox/core.h"
#include "pvox/png.h"

#include <omp.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static uint8_t *read_png(const char *path, int *w, int *h, int *ch)
{
    png_image img;
    memset(&img, 0, sizeof img);
    img.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_file(&img, path)) return NULL;
    *ch = (img.format & PNG_FORMAT_FLAG_ALPHA) ? 4 : 3;
    img.format = *ch == 4 ? PNG_FORMAT_RGBA : PNG_FORMAT_RGB;
    uint8_t *buf = malloc(PNG_IMAGE_SIZE(img));
    if (!buf || !png_image_finish_read(&img, NULL, buf, 0, NULL)) {
        free(buf);
        png_image_free(&img);
        return NULL;
    }
    *w = (int)img.width;
    *h = (int)img.height;
    return buf;
}

/* A frames_seq.gp-like frame: white, a box outline, a plane shaded red-white-blue. */
static uint8_t *synthetic(int w, int h)
{
    uint8_t *px = malloc((size_t)w * (size_t)h * 3);
    if (!px) return NULL;
    memset(px, 255, (size_t)w * (size_t)h * 3);
    for (int y = h / 6; y < h * 5 / 6; y++)
        for (int x = w / 3; x < w * 2 / 3; x++) {
            int yy = y - (x - w / 3) / 3; /* a slanted quad */
            if (yy < h / 6 || yy > h * 4 / 6) continue;
            double t = (double)(yy - h / 6) / (double)(h / 2); /* 0 top .. 1 bottom */
            uint8_t *p = px + ((size_t)y * (size_t)w + (size_t)x) * 3;
            double v = t < 0.5 ? 1.0 - 2.0 * t : 2.0 * t - 1.0; /* 0 white at the middle */
            v *= 0.15 + 0.1 * (double)(x - w / 3) / (double)(w / 3);
            uint8_t lo = (uint8_t)(255.0 * (1.0 - v) + 0.5);
            if (t < 0.5) p[0] = p[1] = lo, p[2] = 255; /* blue above */
            else p[0] = 255, p[1] = p[2] = lo;          /* red below */
        }
    for (int k = 0; k < 4; k++) { /* box edges */
        int y = h / 8 + k * (h * 3 / 4) / 3;
        memset(px + ((size_t)y * (size_t)w + (size_t)(w / 8)) * 3, 0, (size_t)(w * 3 / 4) * 3);
    }
    return px;
}

static int libpng_write(const char *path, int w, int h, int ch, const uint8_t *px)
{
    FILE *f = fopen(path, "wb");
    if (!f) return -1;
    png_structp p = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = p ? png_create_info_struct(p) : NULL;
    if (!info || setjmp(png_jmpbuf(p))) {
        png_destroy_write_struct(&p, &info);
        fclose(f);
        return -1;
    }
    png_init_io(p, f);
    png_set_IHDR(p, info, (png_uint_32)w, (png_uint_32)h, 8,
                 ch == 4 ? PNG_COLOR_TYPE_RGB_ALPHA : PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(p, info);
    for (int y = 0; y < h; y++)
        png_write_row(p, px + (size_t)y * (size_t)w * (size_t)ch);
    png_write_end(p, info);
    png_destroy_write_struct(&p, &info);
    return fclose(f) == 0 ? 0 : -1;
}

static long file_size(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? (long)st.st_size : -1;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    const char *in = argc > 1 && strcmp(argv[1], "-") != 0 ? argv[1] : NULL;
    int reps = argc > 2 ? atoi(argv[2]) : 10;
    const char *dir = argc > 3 ? argv[3] : access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
    int w = 1920, h = 1080, ch = 3, rc = 0;
    uint8_t *px = in ? read_png(in, &w, &h, &ch) : synthetic(w, h);
    if (!px || reps < 1) {
        fprintf(stderr, in ? "bench_png: cannot read '%s'\n" : "bench_png: usage\n", in);
        MPI_Finalize();
        return 2;
    }
    pv_options opt;
    pv_options_default(&opt);
    opt.log_level = PV_LOG_ERROR;
    pv_ctx *ctx = pv_ctx_create(MPI_COMM_WORLD, &opt);
    char pa[512], pb[512];
    snprintf(pa, sizeof pa, "%s/bench_png_pvox_%d.png", dir, (int)getpid());
    snprintf(pb, sizeof pb, "%s/bench_png_libpng_%d.png", dir, (int)getpid());
    double best_pv = 1e30, best_lib = 1e30;
    for (int r = 0; r < reps && ctx; r++) { /* alternate: both see the same machine */
        double t0 = omp_get_wtime();
        if (pv_png_write(ctx, pa, w, h, ch, px, (size_t)w * (size_t)ch, NULL) != PV_OK) {
            pv_err_print(ctx);
            rc = 3;
            break;
        }
        double t = omp_get_wtime() - t0;
        if (t < best_pv) best_pv = t;
        t0 = omp_get_wtime();
        if (libpng_write(pb, w, h, ch, px) != 0) {
            fprintf(stderr, "bench_png: libpng could not write '%s'\n", pb);
            rc = 3;
            break;
        }
        t = omp_get_wtime() - t0;
        if (t < best_lib) best_lib = t;
    }
    if (!ctx) rc = 3;
    if (rc == 0)
        printf("png: %dx%d %s from %s, best of %d, into %s\n"
               "png pv_png_write %8.2f ms %9ld bytes  libpng defaults %8.2f ms %9ld bytes  "
               "ratio %.2fx  size ratio %.2f  (target <= 0.5x)\n",
               w, h, ch == 4 ? "RGBA" : "RGB", in ? in : "a synthetic frame", reps, dir,
               best_pv * 1e3, file_size(pa), best_lib * 1e3, file_size(pb), best_pv / best_lib,
               (double)file_size(pa) / (double)file_size(pb));
    unlink(pa);
    unlink(pb);
    free(px);
    pv_ctx_destroy(ctx);
    MPI_Finalize();
    return rc;
}
