/*
 * io/png.c: PNG writer on libpng (png.h).
 *
 * libpng reports errors by longjmp to the setjmp in encode(): everything that must be
 * released on that path (the FILE, the libpng structs, the row pointers) is created
 * before setjmp or held in volatile locals, and encode() is the only function here that
 * uses setjmp (STYLE-4). The error text is copied into a buffer the caller owns,
 * then reported through pv_err once libpng is gone.
 *
 * Defaults (no `compression`/`filter` terminal option): zlib level 4, no row filter,
 * Z_DEFAULT_STRATEGY. Measured on gnuplot 5.4.4's own pngcairo pictures of the article
 * scenes (the article's a1-a8 and slfr00, 800x600 and 1920x1080) with their pixels
 * re-encoded: every file is 2-15% smaller than gnuplot's and encodes in 0.29-0.40x the time
 * of libpng's defaults (level 6, adaptive choice among all filters, Z_FILTERED), e.g. at
 * 1920x1080, best of 3:
 *     a2_points  gnuplot 348635 B, libpng 348617 B 71.8 ms, pvox 320978 B 24.8 ms
 *     a3_jitter  gnuplot 437013 B, libpng 436995 B 87.6 ms, pvox 399265 B 29.4 ms
 *     a7_iso     gnuplot 103879 B, libpng 103861 B 46.8 ms, pvox  91957 B 18.2 ms
 *     a8_nested  gnuplot 326767 B, libpng 326749 B 83.6 ms, pvox 312021 B 25.7 ms
 * Frames are flat backgrounds, text and antialiased marks: unfiltered rows let deflate
 * match runs of whole pixels, which SUB/UP/PAETH break up. SUB at level 2, the previous
 * default, was 8-45% larger than gnuplot's; level 5 is up to 6% smaller than level 4 for
 * up to 1.3x its time, level 6 up to 10% for up to 3x (slower than libpng's defaults on
 * a3); Z_RLE is 1.5-2.4x gnuplot's size; masks NONE|UP, NONE|PAETH lose on both counts;
 * Z_FILTERED and memLevel 9 change little. The exception is pvox's own smooth pm3d
 * slices (a4, a5): there the default is up to 7% larger than libpng's defaults, and no
 * setting measured was both smaller and twice as fast; `filter paeth` or `adaptive` suit
 * them.
 */
#include "io_int.h"
#include "pvox/png.h"

#include <errno.h>
#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#define PNG_DEFAULT_LEVEL PV_PNG_DEFAULT_LEVEL
#define PNG_DEFAULT_FILTER PV_PNG_FILTER_NONE
#define PNG_DEFAULT_STRATEGY Z_DEFAULT_STRATEGY

/* libpng's filter masks by pv_png_filter (index PV_PNG_FILTER_NONE ..). */
static const int filter_masks[] = {PNG_FILTER_NONE,  PNG_FILTER_SUB,   PNG_FILTER_UP,
                                   PNG_FILTER_AVG,   PNG_FILTER_PAETH, PNG_ALL_FILTERS};

/* The encoder's settings: opt's choices, pvox's defaults for the rest. */
typedef struct png_params {
    int level;    /* zlib level 0..9 */
    int filters;  /* libpng PNG_FILTER_* mask */
    int strategy; /* Z_* strategy, or -1: libpng's own (Z_FILTERED if rows are filtered) */
} png_params;

static png_params params(const pv_png_options *opt)
{
    bool own_level = opt && opt->level >= 0 && opt->level <= 9;
    bool own_filter = opt && opt->filter >= PV_PNG_FILTER_NONE &&
                      opt->filter <= PV_PNG_FILTER_ADAPTIVE;
    png_params pp;
    pp.level = own_level ? opt->level : PNG_DEFAULT_LEVEL;
    pp.filters = filter_masks[(own_filter ? opt->filter : PNG_DEFAULT_FILTER) -
                              PV_PNG_FILTER_NONE];
    /* the measured default strategy belongs to the measured default pair; a level or
     * filter the user chose is encoded as libpng would encode it */
    pp.strategy = own_level || own_filter ? -1 : PNG_DEFAULT_STRATEGY;
    switch (opt ? opt->strategy : PV_PNG_STRATEGY_AUTO) {
    case PV_PNG_STRATEGY_DEFAULT: pp.strategy = Z_DEFAULT_STRATEGY; break;
    case PV_PNG_STRATEGY_FILTERED: pp.strategy = Z_FILTERED; break;
    case PV_PNG_STRATEGY_RLE: pp.strategy = Z_RLE; break;
    default: break;
    }
    return pp;
}

typedef struct png_errbuf {
    char msg[256];
    pv_ctx *ctx;
} png_errbuf;

static void on_error(png_structp png, png_const_charp msg)
{
    png_errbuf *eb = png_get_error_ptr(png);
    snprintf(eb->msg, sizeof eb->msg, "%s", msg ? msg : "unknown error");
    png_longjmp(png, 1);
}

static void on_warning(png_structp png, png_const_charp msg)
{
    png_errbuf *eb = png_get_error_ptr(png);
    pv_log(eb->ctx, PV_LOG_WARN, "png", "libpng: %s", msg ? msg : "");
}

/* Encode into an open FILE. Returns 0 on success, -1 with eb->msg set on a libpng error. */
static int encode(FILE *fp, png_errbuf *eb, int width, int height, int channels,
                  const uint8_t *pixels, size_t stride, png_params pp, png_bytep *rows)
{
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, eb, on_error, on_warning);
    if (!png) {
        snprintf(eb->msg, sizeof eb->msg, "cannot create the libpng writer");
        return -1;
    }
    png_infop info = png_create_info_struct(png);
    if (!info) {
        png_destroy_write_struct(&png, NULL);
        snprintf(eb->msg, sizeof eb->msg, "cannot create the libpng info");
        return -1;
    }
    png_structp volatile vpng = png;
    png_infop volatile vinfo = info;
    if (setjmp(png_jmpbuf(png))) {
        png_structp p = vpng;
        png_infop i = vinfo;
        png_destroy_write_struct(&p, &i);
        return -1;
    }
    png_init_io(png, fp);
    png_set_IHDR(png, info, (png_uint_32)width, (png_uint_32)height, 8,
                 channels == 4 ? PNG_COLOR_TYPE_RGB_ALPHA : PNG_COLOR_TYPE_RGB,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_set_compression_level(png, pp.level);
    png_set_filter(png, PNG_FILTER_TYPE_BASE, pp.filters);
    if (pp.strategy >= 0) png_set_compression_strategy(png, pp.strategy);
    for (int y = 0; y < height; y++) rows[y] = (png_bytep)(pixels + (size_t)y * stride);
    png_set_rows(png, info, rows);
    png_write_png(png, info, PNG_TRANSFORM_IDENTITY, NULL);
    png_destroy_write_struct(&png, &info);
    return 0;
}

pv_status pv_png_write(pv_ctx *ctx, const char *path, int width, int height, int channels,
                       const uint8_t *pixels, size_t stride, const pv_png_options *opt)
{
    if (width <= 0 || height <= 0 || width > 1000000 || height > 1000000 ||
        (channels != 3 && channels != 4) || stride < (size_t)width * (size_t)channels)
        return pv_err(ctx, PV_ERANGE, "cannot write '%s': bad image %dx%d with %d channels",
                      path, width, height, channels);
    png_params pp = params(opt);
    png_bytep *rows = pv_calloc(ctx, (size_t)height, sizeof *rows);
    if (!rows) return ctx->err_code ? ctx->err_code : pv_err(ctx, PV_ENOMEM, "out of memory");
    pv_status st = PV_OK;
    pv_io_out out;
    if (!pv_io_out_open(&out, path, "wb")) {
        st = pv_err(ctx, PV_EIO, "cannot write '%s': %s", path, out.why);
    } else {
        png_errbuf eb = {.ctx = ctx};
        int rc = encode(out.f, &eb, width, height, channels, pixels, stride, pp, rows);
        int ioerr = rc != 0 && ferror(out.f) ? (errno ? errno : EIO) : 0; /* say why */
        int err = pv_io_out_close(&out, rc != 0 ? EIO : 0);
        if (ioerr) st = pv_err(ctx, PV_EIO, "cannot write '%s': %s", path, pv_io_strerror(ioerr));
        else if (rc != 0) st = pv_err(ctx, PV_EPNG, "cannot write '%s': libpng: %s", path, eb.msg);
        else if (err) st = pv_err(ctx, PV_EIO, "cannot write '%s': %s", path, pv_io_strerror(err));
    }
    pv_free(ctx, rows, (size_t)height * sizeof *rows);
    return st;
}

bool pv_png_pieces_match(const pv_png_options *opt, int *level)
{
    png_params pp = params(opt);
    *level = pp.level;
    /* libpng deflates unfiltered rows with Z_DEFAULT_STRATEGY unless told otherwise */
    return pp.filters == PNG_FILTER_NONE &&
           (pp.strategy == -1 || pp.strategy == Z_DEFAULT_STRATEGY);
}
