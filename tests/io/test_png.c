/*
 * PNG writer (png.h): round trips read back with libpng (RGB and RGBA, a stride wider
 * than a row, an asymmetric pattern that shows flips, transposes and R/B swaps), the
 * same pixels give the same bytes, no "<path>.tmp" is left behind, and unwritable paths
 * or bad sizes give clear errors and leave no file.
 */
#include "pv_test.h"
#include "pvox/png.h"

#include <png.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static pv_ctx *ctx;
static char dir[256];

/* Read a PNG with libpng into *w x *h pixels of *ch channels (malloc'd). */
static uint8_t *read_png(const char *path, int *w, int *h, int *ch)
{
    png_image img;
    memset(&img, 0, sizeof img);
    img.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_file(&img, path)) return NULL;
    *ch = (img.format & PNG_FORMAT_FLAG_ALPHA) ? 4 : 3;
    img.format = *ch == 4 ? PNG_FORMAT_RGBA : PNG_FORMAT_RGB;
    uint8_t *buf = malloc(PNG_IMAGE_SIZE(img));
    if (!png_image_finish_read(&img, NULL, buf, 0, NULL)) {
        free(buf);
        return NULL;
    }
    *w = (int)img.width;
    *h = (int)img.height;
    return buf;
}

static bool same_file(const char *a, const char *b)
{
    FILE *fa = fopen(a, "rb"), *fb = fopen(b, "rb");
    bool same = fa && fb;
    while (same) {
        int ca = fgetc(fa), cb = fgetc(fb);
        if (ca != cb) same = false;
        if (ca == EOF || cb == EOF) break;
    }
    if (fa) fclose(fa);
    if (fb) fclose(fb);
    return same;
}

/* An "F" in red on blue, 7 x 9, with a green corner and alpha varying by column. */
static void pattern(uint8_t *px, int w, int h, int ch, size_t stride)
{
    static const char *F[9] = {".......", ".#####.", ".#.....", ".#.....", ".####..",
                               ".#.....", ".#.....", ".#.....", "......G"};
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            uint8_t *p = px + (size_t)y * stride + (size_t)x * (size_t)ch;
            char c = F[y][x];
            p[0] = c == '#' ? 255 : 0;
            p[1] = c == 'G' ? 255 : 0;
            p[2] = c == '.' ? 255 : 0;
            if (ch == 4) p[3] = (uint8_t)(255 - 30 * x);
        }
}

static void round_trip(int ch)
{
    int w = 7, h = 9;
    size_t stride = (size_t)w * (size_t)ch + 5;
    uint8_t *px = calloc((size_t)h, stride);
    pattern(px, w, h, ch, stride);
    char path[300], path2[300], tmp[310];
    snprintf(path, sizeof path, "%s/f%d.png", dir, ch);
    snprintf(path2, sizeof path2, "%s/g%d.png", dir, ch);
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    PV_CHECK_EQ(pv_png_write(ctx, path, w, h, ch, px, stride, NULL), PV_OK);
    PV_CHECK_EQ(pv_png_write(ctx, path2, w, h, ch, px, stride, NULL), PV_OK);
    PV_CHECK(same_file(path, path2));
    PV_CHECK(access(tmp, F_OK) != 0);
    int rw = 0, rh = 0, rch = 0;
    uint8_t *back = read_png(path, &rw, &rh, &rch);
    PV_CHECK(back != NULL);
    if (back) {
        PV_CHECK(rw == w && rh == h && rch == ch);
        int bad = 0;
        for (int y = 0; y < h; y++)
            if (memcmp(back + (size_t)y * (size_t)w * (size_t)ch, px + (size_t)y * stride,
                       (size_t)w * (size_t)ch) != 0)
                bad++;
        PV_CHECK_EQ(bad, 0);
        /* the F's top-left stroke pixel is red, the corner green */
        PV_CHECK_EQ(back[(1 * w + 1) * ch + 0], 255);
        PV_CHECK_EQ(back[(8 * w + 6) * ch + 1], 255);
    }
    /* options: another level and filter still round-trip */
    pv_png_options o = {.level = 9, .filters = PNG_ALL_FILTERS};
    PV_CHECK_EQ(pv_png_write(ctx, path2, w, h, ch, px, stride, &o), PV_OK);
    free(back);
    back = read_png(path2, &rw, &rh, &rch);
    PV_CHECK(back != NULL && memcmp(back, px, (size_t)w * (size_t)ch) == 0);
    free(back);
    free(px);
    remove(path);
    remove(path2);
}

static void errors(void)
{
    uint8_t px[12] = {0};
    char path[300];
    snprintf(path, sizeof path, "%s/no/such/dir/x.png", dir);
    PV_CHECK_EQ(pv_png_write(ctx, path, 2, 2, 3, px, 6, NULL), PV_EIO);
    char want[400];
    snprintf(want, sizeof want, "cannot write '%s': No such file or directory", path);
    PV_CHECK_STR(ctx->err_msg, want);
    pv_err_clear(ctx);
    snprintf(path, sizeof path, "%s/bad.png", dir);
    PV_CHECK_EQ(pv_png_write(ctx, path, 2, 2, 2, px, 6, NULL), PV_ERANGE);
    pv_err_clear(ctx);
    PV_CHECK_EQ(pv_png_write(ctx, path, 0, 2, 3, px, 6, NULL), PV_ERANGE);
    pv_err_clear(ctx);
    PV_CHECK(access(path, F_OK) != 0);
    /* a directory in the way of the final name: the rename fails, nothing is left */
    snprintf(path, sizeof path, "%s/adir", dir);
    mkdir(path, 0755);
    PV_CHECK_EQ(pv_png_write(ctx, path, 2, 2, 3, px, 6, NULL), PV_EIO);
    pv_err_clear(ctx);
    char tmp[310];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    PV_CHECK(access(tmp, F_OK) != 0);
    rmdir(path);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    pv_options opt;
    pv_options_default(&opt);
    ctx = pv_ctx_create(MPI_COMM_WORLD, &opt);
    snprintf(dir, sizeof dir, "/tmp/pv_test_png.XXXXXX");
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    round_trip(3);
    round_trip(4);
    errors();
    PV_CHECK_EQ(ctx->mem_current, 0);
    rmdir(dir);
    pv_ctx_destroy(ctx);
    MPI_Finalize();
    return pv_test_result("test_png");
}
