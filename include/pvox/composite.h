/*
 * pvox composite: blending the ranks' tiles into one picture (module composite).
 *
 * Each rank renders the primitives of its z-slab into a tile of the same canvas
 * (raster.h). Slabs never interleave in depth along a view ray (the projection is
 * orthographic), so the picture is the tiles blended with "over" in slab order
 * (ARCH-7): no depth travels between ranks.
 *
 * Pixels shared by two ranks. Where rank A's primitive covers some of a pixel's 16
 * samples and rank B's primitive others (an edge of each, or a surface clipped at the
 * slab plane on both sides), a plain "over" of the two pixels counts the coverage twice
 * (50% over 50% gives 75%). Tiles therefore carry the opacity of every sample
 * (pv_tile.cover), and "over" weighs the back by the front's transparency sample by
 * sample:
 *     out = front + w back,   w = sum_s (1 - a_f,s) a_b,s / sum_s a_b,s,
 *     a_out,s = a_f,s + (1 - a_f,s) a_b,s,
 * the per-sample "over" averaged over the pixel when the back's colour is the same on
 * all its samples. Full coverage gives the usual "over" (w = 1 - alpha_front), disjoint
 * coverage simply adds, so edges shared between ranks blend exactly once.
 *
 * Exchange: binary swap (Ma et al. 1994) over the ranks in visibility order, the ranks
 * beyond a power of two folded into their neighbours first, then a gather of the final
 * pieces on rank 0. Only non-empty pixels travel (runs), as float premultiplied RGBA and
 * the sample opacities (1 byte when all 16 are equal, else 16): 17 bytes for an opaque
 * pixel; rank 0 receives about one picture per frame whatever the rank count. The
 * association of "over" is fixed for a given rank count; different rank counts differ
 * by float rounding only.
 */
#ifndef PVOX_COMPOSITE_H
#define PVOX_COMPOSITE_H

#include "pvox/core.h"
#include "pvox/raster.h"

/* ---- kernels (no MPI, thread-safe) ---------------------------------------------------- */

/* out = front "over" back for n pixels (premultiplied RGBA floats and per-sample
 * opacities, PV_RASTER_SAMPLES bytes a pixel, as above). `out`/`out_cover` may alias the
 * front or the back arrays. */
void pv_composite_over(size_t n, const float *front, const uint8_t *front_cover,
                       const float *back, const uint8_t *back_cover, float *out,
                       uint8_t *out_cover);

/* A full-canvas 2D layer drawn by the annotation (cairo). */
typedef enum pv_layer_format {
    PV_LAYER_ARGB32 = 0,     /* cairo's CAIRO_FORMAT_ARGB32: one native-endian uint32 per
                                pixel, 0xAARRGGBB, premultiplied */
    PV_LAYER_RGBA_F32        /* 4 floats per pixel, premultiplied r, g, b, a in [0,1] */
} pv_layer_format;

typedef struct pv_layer {
    const void *data;        /* top row first; NULL = an empty (transparent) layer */
    size_t stride;           /* bytes between rows */
    pv_layer_format format;
} pv_layer;

/* The final picture: foreground over scene over background, rounded to 8 bits once.
 * `scene` is a tile of a w x h canvas (any rectangle of it; the rest is empty); bg and
 * fg cover the whole canvas (either may be NULL). `channels` 3 writes R G B (the
 * composite's colour, as over a black page: give an opaque background), 4 writes R G B A
 * with straight (not premultiplied) alpha, as PNG wants. `out` has rows of `out_stride`
 * bytes. Rounds to nearest; OpenMP over rows. */
void pv_composite_flatten(const pv_tile *scene, const pv_layer *bg, const pv_layer *fg,
                          int channels, uint8_t *out, size_t out_stride);

/* ---- across ranks ----------------------------------------------------------------------- */

typedef struct pv_composite_stats {
    uint64_t bytes_sent;     /* payload bytes this rank sent (all messages) */
    uint64_t bytes_recv;     /* payload bytes this rank received */
    double t_sec;            /* wall time of the call on this rank */
} pv_composite_stats;

/* Point-to-point tags used on ctx->comm by the compositor (reserve others elsewhere). */
#define PV_TAG_COMPOSITE_FOLD 7100
#define PV_TAG_COMPOSITE_SWAP 7101

/* Collective over ctx->comm. Blend every rank's `local` tile (all on the same canvas,
 * any rectangle) with "over" in slab order and deliver the picture to rank 0's `out`, a
 * tile covering the whole canvas (ignored, may be NULL, on other ranks).
 * `rank0_front`: true when rank 0's slab is nearest the viewer (ascending rank = front to
 * back), false when the last rank's is. `stats` may be NULL. Returns the agreed status:
 * PV_ENOMEM or PV_ERANGE (mismatched canvases, picture too large) on every rank alike. */
pv_status pv_composite_gather(pv_ctx *ctx, const pv_tile *local, bool rank0_front,
                              pv_tile *out, pv_composite_stats *stats);

#endif /* PVOX_COMPOSITE_H */
