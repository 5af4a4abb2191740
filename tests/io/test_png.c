/*
 * PNG writer (png.h): round trips read back with libpng (RGB and RGBA, a stride wider
 * than a row, an asymmetric pattern that shows flips, transposes and R/B swaps), the
 * same pixels give the same bytes, no temporary file is left behind (nor written
 * through a planted link), and unwritable paths
 * or bad sizes give clear errors and leave no file. Options (`set term ... compression N
 * filter F`): every level, filter and strategy round-trips, the filter asked for is the
 * one in the file's rows (read from the inflated IDAT), out-of-range values mean the
 * default, and the default is no larger than libpng's defaults on pvox's golden pictures.
 * Every file written is also checked strictly (png_strict.h: CRCs, chunk order, the zlib
 * stream's end and Adler-32, the exact image bytes), which libpng's reader does not do:
 * it only warns about a wrong Adler-32. Pictures in pieces: 1 to 12 pieces, empty ones
 * anywhere (also with the zeroed checksum a rank without pixels sends), every level; the
 * strict check itself refuses a flipped checksum, CRC or trailing byte.
 */
#include "pv_test.h"
#include "png_strict.h"
#include "pvox/png.h"

#include <png.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

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
    PV_CHECK_EQ(pv_png_write(ctx, path, w, h, ch, px, stride, NULL), PV_OK);
    PV_CHECK_EQ(pv_png_write(ctx, path2, w, h, ch, px, stride, NULL), PV_OK);
    PV_CHECK(same_file(path, path2));
    PV_CHECK(!pv_test_temp_left(path));
    PV_CHECK_PNG(path);
    /* a link planted under a fixed temporary name is not written through */
    snprintf(tmp, sizeof tmp, "%s.tmp", path2);
    char victim[320];
    snprintf(victim, sizeof victim, "%s/victim", dir);
    FILE *vf = fopen(victim, "w");
    if (vf) fputs("keep", vf), fclose(vf);
    PV_CHECK_EQ(symlink(victim, tmp), 0);
    PV_CHECK_EQ(pv_png_write(ctx, path2, w, h, ch, px, stride, NULL), PV_OK);
    vf = fopen(victim, "r");
    char kept[8] = {0};
    if (vf) (void)!fread(kept, 1, 4, vf), fclose(vf);
    PV_CHECK(strcmp(kept, "keep") == 0);
    unlink(tmp);
    unlink(victim);
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
    pv_png_options o = {.level = 9, .filter = PV_PNG_FILTER_ADAPTIVE};
    PV_CHECK_EQ(pv_png_write(ctx, path2, w, h, ch, px, stride, &o), PV_OK);
    PV_CHECK_PNG(path2);
    free(back);
    back = read_png(path2, &rw, &rh, &rch);
    PV_CHECK(back != NULL && memcmp(back, px, (size_t)w * (size_t)ch) == 0);
    free(back);
    free(px);
    remove(path);
    remove(path2);
}

/* ---- options ----------------------------------------------------------------------- */

static uint8_t *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    rewind(f);
    uint8_t *buf = len > 0 ? malloc((size_t)len) : NULL;
    if (buf && fread(buf, 1, (size_t)len, f) != (size_t)len) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    *n = buf ? (size_t)len : 0;
    return buf;
}

static long file_size(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? (long)st.st_size : -1;
}

/* The filter type byte of each of the h rows of a PNG (inflated IDAT data), into types[].
 * Returns false if the file cannot be read that way. */
static bool row_filters(const char *path, int h, size_t rowbytes, uint8_t *types)
{
    size_t n = 0;
    uint8_t *file = slurp(path, &n);
    if (!file || n < 8) {
        free(file);
        return false;
    }
    uint8_t *idat = malloc(n);
    size_t nidat = 0;
    for (size_t at = 8; at + 12 <= n;) {
        size_t len = (size_t)file[at] << 24 | (size_t)file[at + 1] << 16 |
                     (size_t)file[at + 2] << 8 | file[at + 3];
        if (at + 12 + len > n) break;
        if (memcmp(file + at + 4, "IDAT", 4) == 0) {
            memcpy(idat + nidat, file + at + 8, len);
            nidat += len;
        }
        at += 12 + len;
    }
    uLongf raw_n = (uLongf)((size_t)h * (rowbytes + 1));
    uint8_t *raw = malloc(raw_n);
    bool ok = uncompress(raw, &raw_n, idat, (uLong)nidat) == Z_OK &&
              raw_n == (uLongf)((size_t)h * (rowbytes + 1));
    for (int y = 0; ok && y < h; y++) types[y] = raw[(size_t)y * (rowbytes + 1)];
    free(raw);
    free(idat);
    free(file);
    return ok;
}

/* A smooth diagonal ramp with a flat band: every filter has something to do. */
static void ramp(uint8_t *px, int w, int h)
{
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            uint8_t *p = px + ((size_t)y * (size_t)w + (size_t)x) * 3;
            bool band = y >= h / 3 && y < h / 2;
            p[0] = band ? 255 : (uint8_t)(3 * x + y);
            p[1] = band ? 255 : (uint8_t)(2 * y);
            p[2] = band ? 255 : (uint8_t)(x * y / 8);
        }
}

static bool pixels_equal(const char *path, const uint8_t *px, int w, int h)
{
    PV_CHECK_PNG(path);
    int rw = 0, rh = 0, rch = 0;
    uint8_t *back = read_png(path, &rw, &rh, &rch);
    bool same = back && rw == w && rh == h && rch == 3 &&
                memcmp(back, px, (size_t)w * (size_t)h * 3) == 0;
    free(back);
    return same;
}

static void options(void)
{
    enum { W = 61, H = 37 };
    uint8_t *px = malloc((size_t)W * H * 3);
    ramp(px, W, H);
    char path[300], path2[300];
    snprintf(path, sizeof path, "%s/opt.png", dir);
    snprintf(path2, sizeof path2, "%s/opt2.png", dir);
    uint8_t types[H];

    /* the filter asked for is the filter of the rows (UP, AVERAGE and PAETH may be
     * replaced on the first row, which has no row above) */
    static const int want[] = {PNG_FILTER_VALUE_NONE, PNG_FILTER_VALUE_SUB, PNG_FILTER_VALUE_UP,
                               PNG_FILTER_VALUE_AVG, PNG_FILTER_VALUE_PAETH};
    for (int f = PV_PNG_FILTER_NONE; f <= PV_PNG_FILTER_PAETH; f++) {
        pv_png_options o = {.level = 6, .filter = f};
        PV_CHECK_EQ(pv_png_write(ctx, path, W, H, 3, px, (size_t)W * 3, &o), PV_OK);
        PV_CHECK(pixels_equal(path, px, W, H));
        PV_CHECK(row_filters(path, H, (size_t)W * 3, types));
        int bad = 0;
        for (int y = 1; y < H; y++) bad += types[y] != want[f - PV_PNG_FILTER_NONE];
        PV_CHECK_EQ(bad, 0);
    }
    /* adaptive: libpng picks per row, and on this picture picks more than one kind */
    pv_png_options ad = {.level = 6, .filter = PV_PNG_FILTER_ADAPTIVE};
    PV_CHECK_EQ(pv_png_write(ctx, path, W, H, 3, px, (size_t)W * 3, &ad), PV_OK);
    PV_CHECK(pixels_equal(path, px, W, H));
    PV_CHECK(row_filters(path, H, (size_t)W * 3, types));
    int kinds = 0;
    for (int k = 0; k < 5; k++)
        for (int y = 0; y < H; y++)
            if (types[y] == k) {
                kinds++;
                break;
            }
    PV_CHECK(kinds >= 2);

    /* every level and strategy round-trips; level 0 stores, level 9 compresses */
    for (int level = 0; level <= 9; level++)
        for (int sg = PV_PNG_STRATEGY_AUTO; sg <= PV_PNG_STRATEGY_RLE; sg++) {
            pv_png_options o = {.level = level, .filter = PV_PNG_FILTER_SUB, .strategy = sg};
            PV_CHECK_EQ(pv_png_write(ctx, path, W, H, 3, px, (size_t)W * 3, &o), PV_OK);
            PV_CHECK(pixels_equal(path, px, W, H));
        }
    pv_png_options l0 = {.level = 0}, l9 = {.level = 9};
    PV_CHECK_EQ(pv_png_write(ctx, path, W, H, 3, px, (size_t)W * 3, &l0), PV_OK);
    PV_CHECK_EQ(pv_png_write(ctx, path2, W, H, 3, px, (size_t)W * 3, &l9), PV_OK);
    PV_CHECK(file_size(path) > (long)W * H * 3);
    PV_CHECK(file_size(path2) < file_size(path));
    PV_CHECK_PNG(path);
    PV_CHECK_PNG(path2);

    /* NULL, all-default fields and out-of-range values all mean the default */
    PV_CHECK_EQ(pv_png_write(ctx, path, W, H, 3, px, (size_t)W * 3, NULL), PV_OK);
    pv_png_options dflt = {.level = -1, .filter = PV_PNG_FILTER_DEFAULT};
    PV_CHECK_EQ(pv_png_write(ctx, path2, W, H, 3, px, (size_t)W * 3, &dflt), PV_OK);
    PV_CHECK(same_file(path, path2));
    pv_png_options wild = {.level = 12, .filter = 99, .strategy = -5};
    PV_CHECK_EQ(pv_png_write(ctx, path2, W, H, 3, px, (size_t)W * 3, &wild), PV_OK);
    PV_CHECK(same_file(path, path2));
    free(px);
    remove(path);
    remove(path2);
}

/* The default against libpng's defaults (level 6, adaptive filters, Z_FILTERED) on
 * pvox's own pictures, tests/picture/golden/ (found beside this file; skipped if the
 * tree is not there). */
static void default_size(void)
{
    static const char *names[] = {"alpha", "below", "clipz", "iso", "iso_nested"};
    char golden[512];
    snprintf(golden, sizeof golden, "%s", __FILE__);
    char *slash = strrchr(golden, '/');
    if (!slash) return;
    int checked = 0;
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        snprintf(slash, sizeof golden - (size_t)(slash - golden), "/../picture/golden/%s.png",
                 names[i]);
        int w = 0, h = 0, ch = 0;
        uint8_t *px = read_png(golden, &w, &h, &ch);
        if (!px) continue;
        char a[300], b[300];
        snprintf(a, sizeof a, "%s/dflt.png", dir);
        snprintf(b, sizeof b, "%s/libpng.png", dir);
        pv_png_options libpng = {.level = 6, .filter = PV_PNG_FILTER_ADAPTIVE,
                                 .strategy = PV_PNG_STRATEGY_FILTERED};
        size_t stride = (size_t)w * (size_t)ch;
        PV_CHECK_EQ(pv_png_write(ctx, a, w, h, ch, px, stride, NULL), PV_OK);
        PV_CHECK_EQ(pv_png_write(ctx, b, w, h, ch, px, stride, &libpng), PV_OK);
        if (file_size(a) > file_size(b))
            fprintf(stderr, "%s: default %ld bytes, libpng's defaults %ld\n", names[i],
                    file_size(a), file_size(b));
        PV_CHECK(file_size(a) <= file_size(b));
        PV_CHECK_PNG(a);
        PV_CHECK_PNG(b);
        checked++;
        free(px);
        remove(a);
        remove(b);
    }
    if (!checked) fprintf(stderr, "test_png: golden pictures not found, size check skipped\n");
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
    PV_CHECK(!pv_test_temp_left(path));
    rmdir(path);
}

/* The strict check can fail: a good file passes, and the same file with its zlib
 * checksum changed (the chunk's CRC made right again), a CRC changed, a byte after IEND,
 * or a row's bytes cut short fails. */
static void strict_check_fails(void)
{
    enum { W = 23, H = 11 };
    uint8_t px[W * H * 3];
    ramp(px, W, H);
    char path[300], why[256];
    snprintf(path, sizeof path, "%s/strict.png", dir);
    PV_CHECK_EQ(pv_png_write(ctx, path, W, H, 3, px, (size_t)W * 3, NULL), PV_OK);
    size_t n = 0;
    uint8_t *good = slurp(path, &n);
    PV_CHECK(good != NULL);
    if (!good) return;
    PV_CHECK(png_strict_check_mem(good, n, why, sizeof why));
    uint8_t *bad = malloc(n + 1);
    /* the last IDAT chunk: its data ends with the Adler-32 */
    size_t last = 0;
    for (size_t at = 8; at + 12 <= n; at += 12 + png_strict_be32(good + at))
        if (memcmp(good + at + 4, "IDAT", 4) == 0) last = at;
    PV_CHECK(last > 0);
    uint32_t len = png_strict_be32(good + last);
    memcpy(bad, good, n);
    bad[last + 8 + len - 1] ^= 1;
    uLong crc = crc32(0L, bad + last + 4, 4 + len);
    for (int i = 0; i < 4; i++) bad[last + 8 + len + (size_t)i] = (uint8_t)(crc >> (24 - 8 * i));
    why[0] = 0;
    PV_CHECK(!png_strict_check_mem(bad, n, why, sizeof why));
    PV_CHECK(strstr(why, "incorrect data check") != NULL);
    memcpy(bad, good, n);
    bad[8 + 8 + 13] ^= 0x80; /* IHDR's CRC */
    PV_CHECK(!png_strict_check_mem(bad, n, why, sizeof why));
    PV_CHECK(strstr(why, "CRC") != NULL);
    memcpy(bad, good, n);
    bad[n] = 0;
    PV_CHECK(!png_strict_check_mem(bad, n + 1, why, sizeof why));
    /* a picture one row taller than its data */
    memcpy(bad, good, n);
    bad[8 + 8 + 7] = H + 1;
    crc = crc32(0L, bad + 8 + 4, 4 + 13);
    for (int i = 0; i < 4; i++) bad[8 + 8 + 13 + (size_t)i] = (uint8_t)(crc >> (24 - 8 * i));
    PV_CHECK(!png_strict_check_mem(bad, n, why, sizeof why));
    free(bad);
    free(good);
    remove(path);
}

/* ---- a picture encoded in pieces --------------------------------------------------- */

/* Cut a w x h picture at `cuts` (ascending pixel indices, 0 and w*h implied), deflate
 * the pieces in reverse order (as ranks finish in any order), write, check strictly, read
 * back. With `zero_empty`, an empty piece is all zeros but its range, as a rank that owns
 * no pixels sends it (exec/render.c), checksum 0 included. */
static bool pieces_round_trip(const uint8_t *px, int w, int h, int ch, size_t stride, int level,
                              const uint64_t *cuts, int ncuts, const char *path, bool zero_empty)
{
    pv_png_piece pc[16];
    uint64_t at[18];
    int n = ncuts + 1;
    at[0] = 0;
    for (int k = 0; k < ncuts; k++) at[k + 1] = cuts[k];
    at[n] = (uint64_t)w * (uint64_t)h;
    bool ok = true;
    for (int k = n - 1; k >= 0; k--) {
        ok = pv_png_piece_deflate(ctx, px, stride, w, h, ch, at[k], at[k + 1], level, &pc[k]) ==
                 PV_OK && ok;
        if (zero_empty && at[k] == at[k + 1]) {
            pv_png_piece_free(&pc[k]);
            pc[k].lo = pc[k].hi = at[k];
        }
    }
    ok = ok && pv_png_write_pieces(ctx, path, w, h, ch, level, pc, n) == PV_OK;
    for (int k = 0; k < n; k++) pv_png_piece_free(&pc[k]);
    char why[256] = "";
    if (ok && !png_strict_check(path, why, sizeof why)) {
        fprintf(stderr, "pieces %d, level %d%s: %s\n", n, level,
                zero_empty ? ", zeroed empty pieces" : "", why);
        ok = false;
    }
    int rw = 0, rh = 0, rch = 0;
    uint8_t *back = ok ? read_png(path, &rw, &rh, &rch) : NULL;
    ok = back && rw == w && rh == h && rch == ch;
    for (int y = 0; ok && y < h; y++)
        ok = memcmp(back + (size_t)y * (size_t)w * (size_t)ch, px + (size_t)y * stride,
                    (size_t)w * (size_t)ch) == 0;
    free(back);
    remove(path);
    return ok;
}

static void pieces(void)
{
    int w = 53, h = 17;
    for (int ch = 3; ch <= 4; ch++) {
        size_t stride = (size_t)w * (size_t)ch + 3;
        uint8_t *px = calloc((size_t)h, stride);
        for (int y = 0; y < h; y++) /* smooth runs and noise, so deflate has both */
            for (int x = 0; x < w; x++)
                for (int c = 0; c < ch; c++)
                    px[(size_t)y * stride + (size_t)x * (size_t)ch + (size_t)c] =
                        (uint8_t)(x < 30 ? (unsigned)(9 * y + c)
                                   : ((unsigned)x * 2654435761u + (unsigned)y * 40503u) >> (8 + c));
        char path[300];
        snprintf(path, sizeof path, "%s/pieces%d.png", dir, ch);
        uint64_t npix = (uint64_t)w * (uint64_t)h;
        /* mid-row cuts, a cut at a row start, empty pieces, a one-pixel piece */
        const uint64_t c1[] = {1, 52, 53, 53, 400, 401, 700, npix - 1};
        const uint64_t c2[] = {npix / 2};
        const uint64_t c3[] = {0, 0, npix, npix}; /* empty pieces at both ends */
        for (int level = 0; level <= 9; level += 3)
            for (int z = 0; z <= 1; z++) {
                PV_CHECK(pieces_round_trip(px, w, h, ch, stride, level, c1, 8, path, z));
                PV_CHECK(pieces_round_trip(px, w, h, ch, stride, level, c2, 1, path, z));
                PV_CHECK(pieces_round_trip(px, w, h, ch, stride, level, NULL, 0, path, z));
            }
        for (int z = 0; z <= 1; z++)
            PV_CHECK(pieces_round_trip(px, w, h, ch, stride, 4, c3, 4, path, z));
        /* 1 to 12 pieces of near-equal size (as ranks share a picture), and the same with
         * the first, a middle or the last one empty */
        for (int n = 1; n <= 12; n++)
            for (int empty = -1; empty < 3 && empty < n; empty++)
                for (int z = 0; z <= 1; z++) {
                    uint64_t cuts[15];
                    for (int k = 1; k < n; k++) cuts[k - 1] = npix * (uint64_t)k / (uint64_t)n;
                    int e = empty == 0 ? 0 : empty == 1 ? n / 2 : n - 1; /* the empty one */
                    if (empty >= 0 && n > 1) {
                        if (e == 0) cuts[0] = 0;
                        else if (e == n - 1) cuts[n - 2] = npix;
                        else cuts[e] = cuts[e - 1];
                        for (int k = 1; k < n - 1; k++) /* keep them ascending */
                            if (cuts[k] < cuts[k - 1]) cuts[k] = cuts[k - 1];
                    }
                    int level = n % 10;
                    PV_CHECK(pieces_round_trip(px, w, h, ch, stride, level, cuts, n - 1, path,
                                               z));
                }
        /* a raw length that does not match the piece's pixels is refused */
        pv_png_piece two[2];
        PV_CHECK_EQ(pv_png_piece_deflate(ctx, px, stride, w, h, ch, 0, 100, 4, &two[0]), PV_OK);
        PV_CHECK_EQ(pv_png_piece_deflate(ctx, px, stride, w, h, ch, 100, npix, 4, &two[1]),
                    PV_OK);
        two[0].raw_len++;
        PV_CHECK_EQ(pv_png_write_pieces(ctx, path, w, h, ch, 4, two, 2), PV_ERANGE);
        pv_err_clear(ctx);
        PV_CHECK(access(path, F_OK) != 0);
        pv_png_piece_free(&two[0]);
        pv_png_piece_free(&two[1]);
        /* pieces that do not tile the picture are refused; a bad range too */
        pv_png_piece one;
        PV_CHECK_EQ(pv_png_piece_deflate(ctx, px, stride, w, h, ch, 0, 10, 4, &one), PV_OK);
        PV_CHECK_EQ(pv_png_write_pieces(ctx, path, w, h, ch, 4, &one, 1), PV_ERANGE);
        PV_CHECK(access(path, F_OK) != 0);
        pv_png_piece_free(&one);
        PV_CHECK_EQ(pv_png_piece_deflate(ctx, px, stride, w, h, ch, 5, npix + 1, 4, &one),
                    PV_ERANGE);
        pv_err_clear(ctx);
        free(px);
    }
    /* which options the pieces reproduce */
    int level = -1;
    PV_CHECK(pv_png_pieces_match(NULL, &level) && level == PV_PNG_DEFAULT_LEVEL);
    pv_png_options o = {.level = 9, .filter = PV_PNG_FILTER_NONE};
    PV_CHECK(pv_png_pieces_match(&o, &level) && level == 9);
    o.filter = PV_PNG_FILTER_PAETH;
    PV_CHECK(!pv_png_pieces_match(&o, &level));
    o = (pv_png_options){.level = -1, .strategy = PV_PNG_STRATEGY_RLE};
    PV_CHECK(!pv_png_pieces_match(&o, &level));
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
    options();
    default_size();
    errors();
    strict_check_fails();
    pieces();
    PV_CHECK_EQ(ctx->mem_current, 0);
    rmdir(dir);
    pv_ctx_destroy(ctx);
    MPI_Finalize();
    return pv_test_result("test_png");
}
