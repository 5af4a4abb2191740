/*
 * pvox png: write 8-bit RGB or RGBA PNG files with libpng (module io).
 *
 * The file is written to "<path>.tmp" and renamed over <path> only when complete, so a
 * crash or a full disk never leaves a half-written picture under the real name. The
 * bytes depend only on the pixels and the options (no time stamp, no text chunks), so
 * the same picture always gives the same file.
 *
 * Not collective: call it on the rank that holds the picture.
 */
#ifndef PVOX_PNG_H
#define PVOX_PNG_H

#include "pvox/core.h"

/* Row filters (`set term pngcairo filter ...`). The numbers are those of settings.h's
 * pv_png_filter_choice (PV_PNGF_*): png.h and settings.h do not include each other, so
 * the two enums are kept equal by hand and exec passes the number through unchanged. */
typedef enum pv_png_filter {
    PV_PNG_FILTER_DEFAULT = 0, /* pvox's default (png.c) */
    PV_PNG_FILTER_NONE,
    PV_PNG_FILTER_SUB,
    PV_PNG_FILTER_UP,
    PV_PNG_FILTER_AVERAGE,
    PV_PNG_FILTER_PAETH,
    PV_PNG_FILTER_ADAPTIVE     /* libpng chooses among all five, row by row */
} pv_png_filter;

/* zlib strategies; not a terminal option (tests and measurements only). */
typedef enum pv_png_strategy {
    PV_PNG_STRATEGY_AUTO = 0,  /* pvox's default with the default level, else libpng's */
    PV_PNG_STRATEGY_DEFAULT,   /* Z_DEFAULT_STRATEGY */
    PV_PNG_STRATEGY_FILTERED,  /* Z_FILTERED */
    PV_PNG_STRATEGY_RLE        /* Z_RLE */
} pv_png_strategy;

/* zlib level of the default encoding (png.c explains the choice). */
#define PV_PNG_DEFAULT_LEVEL 4

typedef struct pv_png_options {
    int level;               /* zlib level 0..9 (`compression N`); -1 = pvox's default */
    int filter;              /* PV_PNG_FILTER_*; 0 = pvox's default */
    int strategy;            /* PV_PNG_STRATEGY_*; 0 = automatic */
} pv_png_options;

/* True for outputs that are streams: "| command" and the names of devices and open
 * descriptors (`/dev/...`, `/proc/...`, e.g. `/dev/stdout`). Such an output is written
 * in place, in order, by rank 0; decided from the name alone, so every rank decides
 * alike. */
bool pv_io_is_stream_name(const char *path);

/* Write `width` x `height` pixels of `channels` bytes (3: R G B, 4: R G B A with
 * straight, not premultiplied, alpha), rows `stride` bytes apart, top row first, to
 * `path`. `opt` may be NULL (defaults); a level outside 0..9 or an unknown filter or
 * strategy number means the default. Returns PV_OK, PV_ERANGE (bad size or channels),
 * PV_EIO ("cannot write 'out.png': Permission denied") or PV_EPNG (libpng failed), with
 * the message recorded; on failure no file is left under `path` or its temporary. A
 * symbolic link at `path` is followed and kept; devices and FIFOs are written in place;
 * "| command" pipes the picture into the command. */
pv_status pv_png_write(pv_ctx *ctx, const char *path, int width, int height, int channels,
                       const uint8_t *pixels, size_t stride, const pv_png_options *opt);

/* ---- one picture encoded in pieces (png_pieces.c) --------------------------------------
 * Ranks that each hold a part of a picture (pv_compositor_run_pieces) encode their parts
 * at the same time, and one rank writes the file: the image data of an unfiltered PNG
 * is one zlib stream over the rows, each a filter byte 0 and the row's pixels, and
 * deflate streams that end byte-aligned (a sync flush) can be concatenated, their
 * Adler-32 checksums combined. The file holds the same pixels as pv_png_write's with
 * the same level and no filter, a few bytes larger (each piece starts a new window). */

/* Does pv_png_write encode with these options as the pieces do (no row filter, zlib's
 * default strategy)? Then *level is the zlib level it uses. */
bool pv_png_pieces_match(const pv_png_options *opt, int *level);

typedef struct pv_png_piece {
    uint64_t lo, hi;         /* the pixels it holds: [lo, hi) of the picture, row-major */
    uint64_t raw_len;        /* bytes of image data before compression */
    uint32_t adler;          /* their Adler-32 */
    unsigned char *data;     /* deflated (raw deflate, no zlib header), malloc'd */
    size_t len;
} pv_png_piece;

/* Deflate pixels [lo, hi) of a width x height picture (`channels` 3 or 4; `pixels` holds
 * the whole picture's rows, `stride` bytes apart, of which only those rows are read):
 * the last piece (hi = width x height) ends the stream. Not collective. PV_ENOMEM or
 * PV_ERANGE (recorded). Free with pv_png_piece_free. */
pv_status pv_png_piece_deflate(pv_ctx *ctx, const uint8_t *pixels, size_t stride, int width,
                               int height, int channels, uint64_t lo, uint64_t hi, int level,
                               pv_png_piece *out);
void pv_png_piece_free(pv_png_piece *p);

/* Write the PNG of pieces that tile the picture in order (empty pieces allowed) to path,
 * through "<path>.tmp" as pv_png_write. The zlib checksum is the non-empty pieces'
 * Adler-32 values combined: an empty piece (lo == hi, no data, raw_len 0) may carry any
 * adler, e.g. a zeroed one. Pieces out of order, overlapping, leaving a gap or with a
 * raw_len other than their pixels' image bytes are refused. PV_EIO / PV_ERANGE
 * (recorded). */
pv_status pv_png_write_pieces(pv_ctx *ctx, const char *path, int width, int height,
                              int channels, int level, const pv_png_piece *pieces, int n);

#endif /* PVOX_PNG_H */
