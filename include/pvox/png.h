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

typedef struct pv_png_options {
    int level;               /* zlib level 0..9; -1 = default (2: fast, little bigger) */
    int filters;             /* libpng PNG_FILTER_* mask; 0 = default (PNG_FILTER_SUB) */
} pv_png_options;

/* Write `width` x `height` pixels of `channels` bytes (3: R G B, 4: R G B A with
 * straight, not premultiplied, alpha), rows `stride` bytes apart, top row first, to
 * `path`. `opt` may be NULL (defaults). Returns PV_OK, PV_ERANGE (bad size or channels),
 * PV_EIO ("cannot write 'out.png': Permission denied") or PV_EPNG (libpng failed), with
 * the message recorded; on failure no file is left under `path` or "<path>.tmp". */
pv_status pv_png_write(pv_ctx *ctx, const char *path, int width, int height, int channels,
                       const uint8_t *pixels, size_t stride, const pv_png_options *opt);

#endif /* PVOX_PNG_H */
