/*
 * pvox annotate: draws a frame display list (view.h's pv_frame) with cairo into the two
 * layers that sandwich the data: the background layer (background colour, back border
 * edges, tics for views from above) and the foreground layer (front edges, axis labels,
 * key, colour box, title).
 *
 * The drawing reproduces gnuplot 5.4's pngcairo terminal: terminal units map to pixels as
 * x/200 + 0.5; horizontal and vertical lines longer than a pixel are snapped to pixel
 * centres (its "hinting"); lines are 1 px per line width with butt caps and mitre joins;
 * text is DejaVu Sans at font_pt*96/72 px, vertically centred with the baseline
 * font_pt/2 px below the anchor; the colour box is 128 bands composited with the
 * SATURATE operator (no seams). Measured agreement: tests/frame/.
 *
 * Rank 0 only (or whichever rank owns the final image); no MPI; thread-compatible (one
 * call per buffer at a time).
 */
#ifndef PVOX_ANNOTATE_H
#define PVOX_ANNOTATE_H

#include "pvox/core.h"
#include "pvox/view.h"

typedef struct pv_annot_opts {
    uint32_t background;     /* 0x00RRGGBB, default white (gnuplot `background`) */
    bool transparent;        /* `transparent`: the background layer stays transparent */
    const char *font_family; /* NULL = "DejaVu Sans" (pinned; see README) */
    int rows_y0, rows_y1;    /* y1 > y0: draw rows [y0, y1) only, the others untouched
                                (a rank finishing its band of the picture); else all */
} pv_annot_opts;

/* Defaults: white, opaque, DejaVu Sans. */
void pv_annot_opts_default(pv_annot_opts *o);

/* Draw one layer of `f` into `pixels`: f->term.width x f->term.height pixels of cairo's
 * CAIRO_FORMAT_ARGB32 (native-endian uint32 0xAARRGGBB, premultiplied alpha), rows
 * `stride` bytes apart (at least 4*width; cairo_format_stride_for_width is safe). The
 * whole buffer (or opts' band of rows) is overwritten: PV_FRAME_BACK starts from the background colour (or
 * transparent), PV_FRAME_FRONT from transparent. Errors (cairo failures) are recorded
 * with pv_err and returned; ctx may be NULL (then nothing is recorded). */
pv_status pv_annotate_layer(pv_ctx *ctx, const pv_frame *f, pv_frame_layer layer,
                            const pv_annot_opts *opts, uint32_t *pixels, int stride);

/* Both layers into two buffers of the same geometry (bg gets PV_FRAME_BACK). */
pv_status pv_annotate_frame(pv_ctx *ctx, const pv_frame *f, const pv_annot_opts *opts,
                            uint32_t *bg, uint32_t *fg, int stride);

/* Text width in pixels as the annotation draws it (hinted advances; for tests). */
double pv_annotate_text_width(const pv_frame *f, const pv_annot_opts *opts, const char *text);

#endif /* PVOX_ANNOTATE_H */
