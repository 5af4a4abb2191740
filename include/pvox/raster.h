/*
 * pvox raster: this rank's 3D primitives -> a premultiplied float RGBA tile (module render).
 *
 * The scene hands over primitives already in screen space: pixel coordinates of the PNG
 * (x right, y DOWN, pixel (i,j) covers [i,i+1)x[j,j+1), centre (i+0.5, j+0.5): the
 * convention of view.h) plus a depth that grows AWAY from the viewer. Three kinds:
 *   - point markers: gnuplot's point types 0 (dot) .. 15 drawn as pngcairo draws them, a
 *     flat sprite at one depth;
 *   - triangles (pm3d quads, isosurface facets) with a flat colour and one depth per
 *     vertex (interpolated across the triangle);
 *   - line segments of a width (butt ends), depth interpolated along the segment.
 * Each has a straight-alpha colour and an order number (see "Order" below).
 *
 * Coverage. Every pixel has PV_RASTER_SAMPLES (16) sample points; a triangle covers the
 * samples inside it. Triangle edges use exact, antisymmetric edge functions with a
 * tie rule, so triangles that share an edge split its samples between them: a mesh has
 * no crack and no double-blended seam, opaque or transparent. Markers instead blend
 * their coverage as opacity over the whole pixel, as cairo draws gnuplot's markers
 * (overlapping antialiased markers look as in gnuplot, and a pixel made of markers is
 * the same on all its samples, which slabs composite exactly). The tile keeps the
 * opacity of every sample (pv_tile.cover) and, where a pixel's samples see different
 * colours, the colour of every sample (pv_rich) for the compositor (composite.h).
 *
 * Slab cuts and hard edges (for the scene). A polygon or line that crosses this rank's
 * slab planes is added whole, with the world z of its vertices, after
 * pv_raster_set_slab(): the raster keeps the pixels whose centre sees the part inside
 * the slab, and in those pixels the samples the whole primitive covers. The neighbour
 * slab keeps exactly the other pixels (same arithmetic, opposite side), so no pixel's
 * samples are split between two ranks and the picture equals the one-rank picture (the
 * cut is aliased, but the surface continues across it). Cutting the geometry instead
 * would leave such pixels half in each rank, which compositing can only approximate.
 * Likewise, a polygon edge may be flagged "hard" (pm3d quads do it for edges lying in
 * one z-plane, whatever the rank count): a hard edge gives each pixel wholly to the side
 * its centre is on, so two large polygons meeting on a slab plane never split a pixel
 * between ranks. It is exact only for polygons larger than a pixel: in a mesh of
 * sub-pixel facets it double-covers or misses samples, so isosurface facets keep every
 * edge soft and let the compositor add the two ranks' disjoint samples (composite.h).
 *
 * Visibility (ARCH-7 and ARCH-8). The fragments of a pixel (a primitive's
 * samples there, one depth taken where those samples are) are resolved in depth order,
 * ties by order number, each sample keeping its own transmittance: opaque fragments hide
 * what is behind them, transparent ones blend with "over". Equivalent to blending far to
 * near; pvox walks near to far, which lets a sample that became opaque ignore everything
 * behind it. Flat primitives (markers, constant-depth triangles) are sorted per screen
 * bin (64x64 pixels); other triangle and line fragments per pixel, in batches of at most
 * `frag_capacity` fragments, so memory stays bounded whatever the depth complexity.
 *
 * Order. Two primitives at the same depth covering the same sample: the one with the
 * larger order number is in front (it is "drawn later"). Give every primitive of a frame
 * a distinct order that does not depend on the rank count (e.g. plot index and item
 * index), and the picture does not depend on how primitives are split among ranks.
 * Primitives with equal order numbers fall back to the order they were added in.
 *
 * Determinism. The same primitives with the same order numbers give the same bits for
 * any thread count and any order of adding them (OpenMP splits the work by screen bin).
 *
 * Usage:
 *     pv_raster *r = pv_raster_create(ctx, 640, 480);
 *     uint32_t st = pv_raster_marker_style(ctx, r, 7, 3.0f * 0.4f, 1.0f); // pt 7 ps 0.4
 *     pv_raster_add_points(ctx, r, pts, n);                           // pts[i].style = st
 *     pv_tile *t = pv_tile_create(ctx, 640, 480, 0, 0, 640, 480);
 *     pv_raster_render(ctx, r, t);
 *
 * Not collective; no MPI. A pv_raster is not thread-safe (render uses threads inside).
 */
#ifndef PVOX_RASTER_H
#define PVOX_RASTER_H

#include "pvox/core.h"

/* Samples per pixel (one bit each in a uint16_t mask). */
#define PV_RASTER_SAMPLES 16
#define PV_RASTER_MASK_FULL 0xFFFFu

/* ---- tiles ------------------------------------------------------------------------- */

/* A rectangle of a canvas: premultiplied float RGBA (background transparent), the
 * covered-sample mask, the opacity of each sample and the nearest depth of each pixel. */
typedef struct pv_tile {
    int canvas_w, canvas_h;  /* the whole picture, pixels */
    int x0, y0;              /* top-left pixel of this tile on the canvas */
    int w, h;                /* tile size in pixels (0 x 0 allowed) */
    float *rgba;             /* w*h*4: premultiplied r, g, b, alpha in [0,1]; row-major, y down */
    uint16_t *mask;          /* w*h: samples that received any fragment (0: empty pixel) */
    uint8_t *cover;          /* w*h*PV_RASTER_SAMPLES: opacity of each sample, 0..255 (at
                                least 1 where the mask bit is set); the pixel's alpha is
                                about their mean. The compositor needs it (composite.h). */
    float *depth;            /* w*h: depth of the nearest fragment, INFINITY if empty */
    uint32_t *rich;          /* w*h: 0, or 1 + the index in rich_px of the pixel's
                                per-sample colours (pv_rich) */
    struct pv_rich *rich_px; /* rich_cap entries, the first rich_n in use */
    size_t rich_n, rich_cap;
    int dx0, dy0, dx1, dy1;  /* dirty box, tile pixels [dx0,dx1) x [dy0,dy1): every pixel
                                outside it is empty. Whoever writes pixels keeps it a
                                superset of what it wrote (pv_tile_touch); a new tile's
                                box is the whole tile, so code that writes the arrays
                                directly after pv_tile_create needs no call. */
} pv_tile;

/* Per-sample colours. Most pixels are one colour on all their covered samples (their
 * premultiplied rgba divided by the alpha, times each sample's opacity). A pixel whose
 * samples see different colours (an edge between two surfaces, a surface seen through
 * another on some samples only) keeps the premultiplied colour of every sample as well,
 * when the colours differ by more than PV_RICH_EPS from that one-colour model: the
 * compositor needs them to blend such a pixel behind a partly covered front exactly, as
 * one rank blends its samples (composite.h). 8 bits a channel: the pixel's rgba stays
 * float and exact, the samples only weigh what shows through the front. */
typedef struct pv_rich {
    uint8_t rgb[PV_RASTER_SAMPLES][3]; /* premultiplied r, g, b of each sample, 0..255 */
} pv_rich;
/* Largest deviation (0..1) of a sample's colour from the pixel's one-colour model that
 * is left out: leaving it out moves the picture by at most one 8-bit level. */
#define PV_RICH_EPS (3.0f / 255.0f)

/* The per-sample colours of pixel i of a tile, or NULL for a one-colour pixel. */
static inline const pv_rich *pv_tile_rich(const pv_tile *t, size_t i)
{
    return t->rich[i] ? &t->rich_px[t->rich[i] - 1u] : NULL;
}
/* Give pixel i the per-sample colours *r (NULL: make it a one-colour pixel). False (error
 * recorded, the pixel left one-colour) when the tile cannot hold more. Not thread-safe. */
bool pv_tile_set_rich(pv_ctx *ctx, pv_tile *t, size_t i, const pv_rich *r);
/* Room for at least n per-sample entries. False (error recorded) on failure. */
bool pv_tile_reserve_rich(pv_ctx *ctx, pv_tile *t, size_t n);
/* Copy every pixel of `src` (any rectangle of the canvas) onto the same pixels of `dst`
 * (same canvas; its rectangle must hold src's), per-sample colours included; grows
 * dst's dirty box. PV_ERANGE or PV_ENOMEM (recorded) on failure. */
pv_status pv_tile_copy_into(pv_ctx *ctx, pv_tile *dst, const pv_tile *src);
/* The premultiplied colour (0..1) of every sample of a pixel of premultiplied colour
 * rgba and sample opacities cover: its per-sample colours r, or with r NULL the
 * one-colour model (rgba / alpha times each sample's opacity). */
void pv_rich_samples(const float rgba[4], const uint8_t cover[PV_RASTER_SAMPLES],
                     const pv_rich *r, float c[PV_RASTER_SAMPLES][3]);
/* Whether per-sample colours c (premultiplied, 0..1, per sample) differ from the
 * one-colour model of a pixel of premultiplied colour rgba and sample opacities cover by
 * more than PV_RICH_EPS; if so, writes them to *out (rounded to 8 bits). */
bool pv_rich_from_samples(const float rgba[4], const uint8_t cover[PV_RASTER_SAMPLES],
                          const float c[PV_RASTER_SAMPLES][3], pv_rich *out);

/* Create a cleared tile for the rectangle [x0, x0+w) x [y0, y0+h) of a canvas_w x
 * canvas_h canvas (the rectangle must lie inside the canvas). NULL on failure (PV_ENOMEM or
 * PV_ERANGE recorded in ctx). */
pv_tile *pv_tile_create(pv_ctx *ctx, int canvas_w, int canvas_h, int x0, int y0, int w,
                        int h);
/* Free a tile; NULL is allowed. */
void pv_tile_destroy(pv_ctx *ctx, pv_tile *t);
/* Make every pixel empty (transparent, mask and cover 0, depth INFINITY). Writes only
 * the dirty box, so clearing costs what the last frame drew, not the canvas. */
void pv_tile_clear(pv_tile *t);
/* Grow the dirty box over the canvas rectangle [x0,x1) x [y0,y1) (clipped to the tile). */
void pv_tile_touch(pv_tile *t, int x0, int y0, int x1, int y1);
/* Non-empty pixels (mask != 0) of the tile. */
size_t pv_tile_active(const pv_tile *t);
/* Bounding box of the non-empty pixels (mask != 0) in canvas pixels: [*bx0, *bx1) x
 * [*by0, *by1). Returns false (and an empty box) when the tile is empty. */
bool pv_tile_bbox(const pv_tile *t, int *bx0, int *by0, int *bx1, int *by1);
/* Pixel (cx, cy) in canvas coordinates: its index in the tile arrays, or -1 if outside. */
static inline long pv_tile_index(const pv_tile *t, int cx, int cy)
{
    if (cx < t->x0 || cy < t->y0 || cx >= t->x0 + t->w || cy >= t->y0 + t->h) return -1;
    return (long)(cy - t->y0) * t->w + (cx - t->x0);
}

/* ---- primitives -------------------------------------------------------------------- */

/* A straight-alpha colour: a = opacity (255 opaque). gnuplot's 0xAARRGGBB has AA =
 * transparency: a = 255 - AA. */
typedef struct pv_rgba8 {
    uint8_t r, g, b, a;
} pv_rgba8;

/* A point marker. Its shape comes from a style (pv_raster_marker_style). */
typedef struct pv_raster_point {
    float x, y;              /* centre, canvas pixels (see snap_markers) */
    float depth;             /* larger = farther; NaN points are dropped */
    uint32_t style;          /* from pv_raster_marker_style */
    pv_rgba8 color;
    uint64_t order;          /* tie-break at equal depth: larger is in front */
} pv_raster_point;

/* A triangle with one depth per vertex. Any winding; degenerate ones draw nothing. */
typedef struct pv_raster_tri {
    float x[3], y[3];        /* vertices, canvas pixels */
    float depth[3];          /* larger = farther */
    pv_rgba8 color;
    uint64_t order;
} pv_raster_tri;

/* A line segment of `width` pixels with butt ends (pngcairo's default cap). Lines drawn
 * on a surface need a small depth bias towards the viewer (their depth is interpolated
 * along the line only, the surface's across it). */
typedef struct pv_raster_line {
    float x0, y0, depth0;    /* first end */
    float x1, y1, depth1;    /* second end */
    float width;             /* pixels (gnuplot pngcairo: linewidth x 1 px, at least 0.2) */
    pv_rgba8 color;
    uint64_t order;
} pv_raster_line;

/* Marker types, gnuplot's `pointtype` numbers as the pngcairo terminal draws them. */
enum {
    PV_MARK_DOT = 0,         /* filled disk of radius 0.5 px; size and width ignored */
    PV_MARK_PLUS = 1,
    PV_MARK_CROSS = 2,
    PV_MARK_STAR = 3,
    PV_MARK_BOX = 4,
    PV_MARK_BOX_FILLED = 5,
    PV_MARK_CIRCLE = 6,
    PV_MARK_CIRCLE_FILLED = 7,
    PV_MARK_TRIANGLE = 8,
    PV_MARK_TRIANGLE_FILLED = 9,
    PV_MARK_TRIANGLE_DOWN = 10,
    PV_MARK_TRIANGLE_DOWN_FILLED = 11,
    PV_MARK_DIAMOND = 12,
    PV_MARK_DIAMOND_FILLED = 13,
    PV_MARK_PENTAGON = 14,
    PV_MARK_PENTAGON_FILLED = 15
};

/* Style whose points draw nothing (negative point types). */
#define PV_RASTER_STYLE_NONE 0xFFFFFFFFu

/* ---- the rasteriser ------------------------------------------------------------------ */

typedef struct pv_raster pv_raster;

typedef struct pv_raster_options {
    int nthreads;            /* OpenMP threads for render; 0 = ctx->nthreads */
    size_t frag_capacity;    /* triangle/line fragments buffered per thread and batch
                                (12 bytes each; default 512K; at least 8192) */
    bool snap_markers;       /* marker centres to pixel centres, rint(x-0.5)+0.5, as
                                pngcairo does (default true) */
} pv_raster_options;

/* Defaults: nthreads 0, frag_capacity 1<<19, snap_markers true. */
void pv_raster_options_default(pv_raster_options *o);

/* A rasteriser for a canvas_w x canvas_h canvas with default options. NULL on failure. */
pv_raster *pv_raster_create(pv_ctx *ctx, int canvas_w, int canvas_h);
/* Free it; NULL is allowed. */
void pv_raster_destroy(pv_ctx *ctx, pv_raster *r);
void pv_raster_set_options(pv_raster *r, const pv_raster_options *o);
/* Drop all primitives (keeps styles and buffers for the next frame). */
void pv_raster_clear(pv_raster *r);

/* A marker style: gnuplot point type `type` (0..15; larger types wrap as gnuplot does,
 * 1 + (type-1) % 15; negative types give PV_RASTER_STYLE_NONE), `size` the half-width in
 * pixels (pngcairo: 3 x pointsize), `lw` the stroke width in pixels (pngcairo:
 * linewidth, at least 0.2). The same arguments return the same id. Returns the id, or
 * PV_RASTER_STYLE_NONE with PV_ERANGE recorded for a size that is not finite or
 * negative, or more than 2^20 distinct styles (check ctx->err_code). */
uint32_t pv_raster_marker_style(pv_ctx *ctx, pv_raster *r, int type, float size, float lw);

/* Add primitives (copied). Points with a style of PV_RASTER_STYLE_NONE and anything with
 * a non-finite coordinate or depth are dropped. PV_ENOMEM on failure; at most 2^32-2
 * primitives per frame (PV_ERANGE beyond). */
pv_status pv_raster_add_points(pv_ctx *ctx, pv_raster *r, const pv_raster_point *p, size_t n);
pv_status pv_raster_add_tris(pv_ctx *ctx, pv_raster *r, const pv_raster_tri *t, size_t n);
pv_status pv_raster_add_lines(pv_ctx *ctx, pv_raster *r, const pv_raster_line *l, size_t n);
/* A convex planar polygon of n (3..16) vertices in order around it (a pm3d quad, an
 * isosurface facet), drawn as the fan (0,i,i+1) with one order number. `wz`: the world
 * z of each vertex, or NULL; with it the polygon is cut at the slab planes set by
 * pv_raster_set_slab (see "Slab cuts"), and dropped when it lies outside the slab.
 * `hard` bit i makes the edge from vertex i to vertex (i+1)%n hard. */
pv_status pv_raster_add_polygon(pv_ctx *ctx, pv_raster *r, int n, const float *x,
                                const float *y, const float *depth, const double *wz,
                                unsigned hard, pv_rgba8 color, uint64_t order);
/* A line whose ends have world z wz0 and wz1, cut at the slab planes like a polygon. */
pv_status pv_raster_add_line_cut(pv_ctx *ctx, pv_raster *r, const pv_raster_line *l,
                                 double wz0, double wz1);
/* This rank's slab of world z: [zlo, zhi) (zhi = +INFINITY for the top slab, zlo =
 * -INFINITY for the bottom one). Default: everything. Used by the two calls above; keep
 * the same values on the neighbouring ranks' shared planes (bit for bit). */
void pv_raster_set_slab(pv_raster *r, double zlo, double zhi);

/* Number of primitives added since the last clear (points, triangles; a line counts as
 * two triangles). */
size_t pv_raster_count_points(const pv_raster *r);
size_t pv_raster_count_tris(const pv_raster *r);

/* Rasterise every primitive into `tile` (cleared first; only the tile's rectangle is
 * drawn). The tile's canvas must be the rasteriser's. Uses OpenMP threads. Returns PV_OK,
 * or PV_ENOMEM / PV_ERANGE with the message recorded; the tile is then undefined. */
pv_status pv_raster_render(pv_ctx *ctx, pv_raster *r, pv_tile *tile);

/* ---- kernels exposed for tests -------------------------------------------------------- */

/* Sample offsets inside a pixel, in [0,1): sample s is at (i + sx[s], j + sy[s]). */
void pv_raster_sample_pos(float sx[PV_RASTER_SAMPLES], float sy[PV_RASTER_SAMPLES]);

/* Coverage mask of one pixel (px, py) by the marker `style` centred at (cx, cy) (no
 * snapping applied). 0 for an unknown style. */
uint16_t pv_raster_marker_mask(const pv_raster *r, uint32_t style, float cx, float cy, int px,
                               int py);

#endif /* PVOX_RASTER_H */
