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
 * Where the back's samples see different colours (a surface's two slabs meet in a pixel
 * over another surface: the back has "surface over ground" on some samples and "ground"
 * on the others), one weight is not enough. Such pixels carry the colour of every sample
 * (pv_rich, raster.h), and "over" then sums what shows of the back sample by sample:
 *     out = front + (1/16) sum_s (1 - a_f,s) c_b,s,
 * exactly what one rank computes. The result keeps per-sample colours where the front
 * covers only some samples of a back of another colour, for the next blend.
 *
 * Exchange: binary swap (Ma et al. 1994) over the ranks in visibility order, the ranks
 * beyond a power of two folded into their neighbours first, then the final pieces go to
 * the receiving rank (any rank: a frame sequence rotates it). Only non-empty pixels of
 * each tile's dirty box travel, in runs, streamed in chunks of at most 2 MiB: float
 * premultiplied RGBA, the nearest depth and the sample opacities (1 byte when all 16
 * are equal, else 16) and the per-sample colours of the pixels that have them during the
 * swap, 21 bytes for an opaque pixel; RGBA alone (16 bytes) for the final pieces. The receiving rank gets less than two pictures' worth per
 * frame whatever the rank count. The association of "over" is fixed for a given rank
 * count (and does not depend on the receiving rank); different rank counts differ by
 * float rounding only.
 */
#ifndef PVOX_COMPOSITE_H
#define PVOX_COMPOSITE_H

#include "pvox/core.h"
#include "pvox/raster.h"

/* ---- kernels (no MPI, thread-safe) ---------------------------------------------------- */

/* out = front "over" back for n one-colour pixels (premultiplied RGBA floats and
 * per-sample opacities, PV_RASTER_SAMPLES bytes a pixel, as above). `out`/`out_cover` may
 * alias the front or the back arrays. */
void pv_composite_over(size_t n, const float *front, const uint8_t *front_cover,
                       const float *back, const uint8_t *back_cover, float *out,
                       uint8_t *out_cover);

/* One pixel: the same with per-sample colours (pv_rich, raster.h) on either side (NULL:
 * a one-colour pixel). Where either side has them, what shows of the back is summed
 * sample by sample, so a back whose samples differ blends exactly behind a front that
 * covers only some of them. When `out_rich` is given, returns whether the result needs
 * per-sample colours and writes them there (false: a one-colour pixel); without it,
 * returns false. Any output may alias the matching input. */
bool pv_composite_over_px(const float *front, const uint8_t *front_cover,
                          const pv_rich *front_rich, const float *back,
                          const uint8_t *back_cover, const pv_rich *back_rich, float *out,
                          uint8_t *out_cover, pv_rich *out_rich);
/* Blend one pixel (colour, sample opacities, per-sample colours or NULL) into pixel i of
 * tile t, in front of it when `front`, else behind; keeps t's per-sample colours. The
 * mask and depth are the caller's. False (error recorded; the pixel keeps one colour)
 * when the tile has no room for the per-sample colours. */
bool pv_composite_into(pv_ctx *ctx, pv_tile *t, size_t i, const float *px, const uint8_t *cv,
                       const pv_rich *rich, bool front);

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
/* The same for rows [y0, y1) of the canvas only (out still addresses row 0). */
void pv_composite_flatten_rows(const pv_tile *scene, const pv_layer *bg, const pv_layer *fg,
                               int channels, uint8_t *out, size_t out_stride, int y0, int y1);

/* ---- across ranks ----------------------------------------------------------------------- */

typedef struct pv_composite_stats {
    uint64_t bytes_sent;     /* payload bytes this rank sent (all messages) */
    uint64_t bytes_recv;     /* payload bytes this rank received */
    double t_sec;            /* wall time of the call on this rank */
} pv_composite_stats;

/* Point-to-point tags used on ctx->comm by the compositor (reserve others elsewhere). */
#define PV_TAG_COMPOSITE_FOLD 7100
#define PV_TAG_COMPOSITE_SWAP 7101
#define PV_TAG_COMPOSITE_GATHER 7102

/* Bytes of one picture of `active` non-empty pixels as the swap sends it, every pixel
 * opaque (colour, depth, tag): the unit of "bytes received per frame"
 * (pv_composite_stats). Binary swap gives the receiving rank less than one picture in
 * the swap rounds and one in the final pieces. */
#define PV_COMPOSITE_IMAGE_BYTES(active) ((uint64_t)(active) * 21u)

/* The compositor's state, kept across frames: its two message buffers (IceT keeps its
 * state buffers the same way). Create it once per run of frames. */
typedef struct pv_compositor pv_compositor;

/* Collective (the allocation status is agreed). NULL on failure on every rank. */
pv_compositor *pv_compositor_create(pv_ctx *ctx);
void pv_compositor_destroy(pv_ctx *ctx, pv_compositor *c);

/* Collective over ctx->comm. Blend every rank's `tile` (each a whole-canvas tile of the
 * same canvas) with "over" in slab order, in place: afterwards rank `root`'s tile holds
 * the picture (its rgba; mask non-zero exactly on non-empty pixels; cover and depth are
 * unspecified there), and the other ranks' tiles hold leftovers to be cleared. Only the
 * tiles' dirty boxes are read. `rank0_front`: true when rank 0's slab is nearest the
 * viewer. `stats` may be NULL. Returns the agreed status (PV_ERANGE for mismatched
 * canvases, a tile that is not whole-canvas, or a root out of range). */
pv_status pv_compositor_run(pv_ctx *ctx, pv_compositor *c, pv_tile *tile, bool rank0_front,
                            int root, pv_composite_stats *stats);
/* The same, but the picture stays distributed: afterwards each rank's tile holds the
 * finished pixels [*lo, *hi) of the canvas (row-major pixel indices, y * w + x; empty
 * ranges on ranks without a piece), and nothing else; the pieces of all ranks tile the
 * canvas. Each rank can then finish its own piece (flatten, encode) in parallel. */
pv_status pv_compositor_run_pieces(pv_ctx *ctx, pv_compositor *c, pv_tile *tile,
                                   bool rank0_front, size_t *lo, size_t *hi,
                                   pv_composite_stats *stats);

/* The same for one frame with a compositor of its own (tests, one-off pictures): every
 * rank's `local` tile (all on the same canvas, any rectangle, not modified) and the
 * picture delivered to rank 0's `out`, a tile covering the whole canvas (ignored, may be
 * NULL, on other ranks).
 * `rank0_front`: true when rank 0's slab is nearest the viewer (ascending rank = front to
 * back), false when the last rank's is. `stats` may be NULL. Returns the agreed status:
 * PV_ENOMEM or PV_ERANGE (mismatched canvases, picture too large) on every rank alike. */
pv_status pv_composite_gather(pv_ctx *ctx, const pv_tile *local, bool rank0_front,
                              pv_tile *out, pv_composite_stats *stats);

#endif /* PVOX_COMPOSITE_H */
