/*
 * pvox scene: turning plot elements into this rank's primitives.
 *
 * A plot element travels down once: exec/plot.c parses a `splot` element into a
 * pv_scene_elem (its kind, its grid or data rows, its style clauses), exec/render.c sets
 * up the frame (ranges, view, colour range) and hands each element to pv_scene_draw,
 * which projects this rank's share with the view and adds it to the rasteriser
 * (raster.h). Everything here is plain data in, plain data out; nothing here knows the
 * interpreter or the settings syntax.
 *
 * A primitive belongs to the rank whose world-z slab contains it (ARCH-6,
 * docs/ARCHITECTURE.md): voxel points come from the rank's own planes; polygons that
 * cross a slab boundary are cut there by the rasteriser (raster.h "Slab cuts").
 *
 * Files: scene/elem.c (elements, rows, columns), scene/colormap.c (colours of items),
 * scene/voxpoints.c, scene/points.c, scene/lines.c, scene/pm3d.c (one per kind),
 * scene/slab.c.
 */
#ifndef PVOX_SCENE_H
#define PVOX_SCENE_H

#include "pvox/grid.h"
#include "pvox/raster.h"
#include "pvox/settings.h" /* pv_lp, pv_color, pv_fill, pv_plot_style, pv_palette */
#include "pvox/view.h"

/* =====================================================================================
 * Plot elements (scene/elem.c)
 * ===================================================================================== */

typedef enum pv_scene_kind {
    PV_SCENE_VOXELS = 0,     /* splot $grid with points|dots */
    PV_SCENE_POINTS,         /* data with points|dots */
    PV_SCENE_PM3D,           /* data with pm3d (a '++' sampled surface or gridded data) */
    PV_SCENE_ISO,            /* splot $grid with isosurface level L (drawn by pv_scene_iso) */
    PV_SCENE_LINES,          /* data with lines|linespoints|impulses */
    PV_SCENE_IMAGE,          /* data with image|rgbimage|rgbalpha (scene/image.c) */
    PV_SCENE_POLYGONS,       /* data with polygons, depthorder objects (scene/polygons.c) */
    PV_SCENE_BOXES,          /* 2D data with boxes (scene/boxes.c) */
    PV_SCENE_ERRORBARS,      /* 2D data with x/y/xy error bars or lines (scene/errorbars.c) */
    PV_SCENE_SKIPPED         /* parsed, not drawn by this version: `why` says so */
} pv_scene_kind;

/* Style clauses of one plot element, as given (exec/plot.c fills them when running). */
typedef struct pv_scene_style {
    pv_plot_style style;     /* `with` style (the element's final one once classified) */
    bool has_above;          /* `above T` */
    double above;
    pv_lp lp;                /* lt / lc / lw / pt / ps / pi (pv_lp_default when absent) */
    bool has_level;          /* `level L` (isosurface) */
    double level;
    bool has_fill;           /* `fs ...` on the element */
    pv_fill fill;
    pv_color fc;             /* `fc` / `fillcolor` (stored) */
    int heads;               /* `with vectors`: bit 1 a head at the tip (default), bit 2 at
                                the tail (`nohead` 0, `backhead` 2, `heads` 3) */
    bool head_filled;        /* `filled` (or `noborder`) heads, else the open V */
    /* `with labels`: the text of each row (pv_scene_elem.texts) at its point */
    int label_just;          /* 0 left, 1 centre (default), 2 right */
    double label_angle;      /* `rotate by A` degrees */
    double label_offset[2];  /* `offset` in character units */
    pv_color tc;             /* `tc` (default black) */
    bool noenhanced;         /* `noenhanced`: the title and `with labels` texts as written */
    int boxwidth_mode;       /* `with boxes`: `set boxwidth` when plotted (settings.h) */
    double boxwidth;
    bool box_wcol;           /* a third column is the width (`using x:y:width`, or no
                                `using`: gnuplot reads x:y:width then) */
} pv_scene_style;

typedef struct pv_scene_elem {
    pv_scene_kind kind;
    int number;              /* 1-based position in the plot command (order numbers) */
    int line_num;            /* default linetype and point type: gnuplot's count (explicit
                                pm3d takes none, hidden3d two); pv_scene_elem_init: number */
    pv_scene_style st;
    char *title;             /* key title, malloc'd (NULL: none) */
    const pv_grid *grid;     /* PV_SCENE_VOXELS, PV_SCENE_ISO (borrowed) */
    /* data: nrows rows of ncols using values (NaN undefined), tracked memory */
    double *vals;
    int ncols;
    size_t nrows, cap;       /* cap: doubles allocated in vals */
    size_t *scan;            /* end (one past the last row) of each scan line / data block */
    size_t nscan, capscan;
    size_t grid_scans;       /* function surfaces (0: data): the first grid_scans scans
                                form the surface grid (pm3d, corner poles); any after them
                                are its cross lines, drawn as they are (none: the cross lines
                                of equal scans are derived, as for data) */
    bool plot2d;             /* a 2D plot's element: rows x y z with z its plot order
                                (later plots in front), no cross lines, impulses from y=0 */
    double plot2d_z;         /* that z, for rows sampled later (functions) */
    size_t image_k;          /* `with image`: points per image line when the source says
                                (matrix, binary array); 0: found from the coordinates */
    char **texts;            /* `with labels`: one malloc'd text per row (NULL: none) */
    size_t ntexts, captexts;
    const char *why;         /* PV_SCENE_SKIPPED: what is not drawn (static text) */
    size_t src_off;          /* where the element starts in the plot command (warnings) */
} pv_scene_elem;

/* A zeroed element of kind PV_SCENE_SKIPPED, style points with the line properties *lp
 * (the settings' pv_lp_default(): nothing given). */
void pv_scene_elem_init(pv_scene_elem *e, int number, const pv_lp *lp);
/* Free the title and rows; the element is zeroed. */
void pv_scene_elem_fini(pv_ctx *ctx, pv_scene_elem *e);

/* Append one data row of n values (the first row fixes ncols, at least 3; missing values
 * are NaN, extra ones dropped). PV_ENOMEM recorded on failure. */
pv_status pv_scene_add_row(pv_ctx *ctx, pv_scene_elem *e, const double *v, int n);
/* Take the rows to the log space of each axis a with base[a] > 1 (`set logscale`):
 * v -> log_base(v), non-positive values undefined (NaN), vector tips kept at their log
 * position. An element coloured from z on a log z axis first gets the real z as a colour
 * column. PV_ENOMEM recorded on failure. */
pv_status pv_scene_log_axes(pv_ctx *ctx, pv_scene_elem *e, const double base[3]);
/* End the current scan line / data block (nothing if it is empty). */
pv_status pv_scene_end_scan(pv_ctx *ctx, pv_scene_elem *e);

/* Columns of a data element: which using value holds what (-1: none). gnuplot's order of
 * extra columns after x:y:z is ps variable, pt variable, colour; pm3d's colour is the
 * fourth column. */
typedef struct pv_scene_cols {
    int ps, pt, color;
} pv_scene_cols;
pv_scene_cols pv_scene_columns(const pv_scene_elem *e);

/* Does this element colour its items through the palette from its data (so its colour
 * values autoscale cb)? pm3d always; points with `lc palette` (z). */
bool pv_scene_feeds_cb(const pv_scene_elem *e);

/* =====================================================================================
 * Colour mapping (scene/colormap.c)
 * ===================================================================================== */

/* The colour 0x00RRGGBB of linetype lt (the settings' linetype table). */
typedef uint32_t (*pv_scene_lt_fn)(const void *ud, int lt);

typedef struct pv_scene_colors {
    pv_pal pal;              /* from pv_scene_palette */
    double cbmin, cbmax;     /* the final colour range */
    uint32_t background;     /* 0x00RRGGBB, for `lc bgnd` */
    pv_scene_lt_fn lt_rgb;   /* linetype colours */
    const void *lt_ud;
} pv_scene_colors;

/* The renderer's palette for `set palette` (the gradient is borrowed from sp). */
void pv_scene_palette(const pv_palette *sp, pv_pal *p);

/* gnuplot's pngcairo solid fill of density D < 1 without `transparent`: the colour moved
 * toward white by 1 - D (D in whole percent), still opaque. Other fills: unchanged. */
pv_rgba8 pv_scene_fill_lighten(const pv_fill *f, pv_rgba8 c);
/* 0xAARRGGBB (AA = transparency) -> straight-alpha colour. */
pv_rgba8 pv_scene_rgba(uint32_t argb);
/* The colour of an element's item: `cval` is its colour value (voxel value, z or the
 * colour column), `var` the variable column (NaN if none). */
pv_rgba8 pv_scene_item_color(const pv_scene_colors *C, const pv_scene_elem *e, double cval,
                             double var);

/* =====================================================================================
 * This rank's primitives
 * ===================================================================================== */

/* What every element of one frame is drawn with. */
typedef struct pv_scene_frame {
    const pv_view3d *view;   /* projects world coordinates to canvas pixels */
    const pv_scene_colors *colors;
    double zlo, zhi;         /* this rank's world-z slab (pv_scene_slab) */
    double xmin, xmax;       /* the x and y axis ranges (lines are clipped to the box) */
    double ymin, ymax;
    double zmin, zmax;       /* the z axis range (pm3d's `clip z`, lines) */
    double pointsize;        /* `set pointsize` (<= 0: 1) */
    double linewidth;        /* the terminal's linewidth (<= 0: 1) */
    double jitter;           /* `set jitter` spread in voxel spacings (0: off) */
    pv_fill fill;            /* `set style fill` (an element's `fs` overrides it) */
    /* isosurfaces (GP-7) */
    bool iso_mixed;          /* `set isosurface mixed` (default) / `triangles` */
    int iso_inside;          /* `insidecolor N` offset (default 1), 0 = `noinsidecolor` */
    const pv_light *light;   /* `set pm3d lighting` (NULL: unlit) */
    int pm3d_interp[2];      /* `set pm3d interpolate n,m` (<= 1: the quads as given) */
    bool pm3d_noclipcb;      /* `set pm3d noclipcb`: quads coloured outside cb are skipped */
    bool pm3d_border;        /* `set pm3d border`: outline each polygon */
    bool hidden3d;           /* `set hidden3d`: surfaces drawn with lines are opaque */
    char pm3d_at[8];         /* `set pm3d at`: s (surface), b (base plane), t (top of the
                                box), in the order given; "" = "s" */
    pv_rgba8 border_color;   /* its colour and width (pixels) */
    double border_width;
    /* a frame drawn in z steps (isosurfaces): only voxel points of node planes with world
     * z in [vlo, vhi) this step (vclip false: all of the rank's planes) */
    bool vclip;
    double vlo, vhi;
} pv_scene_frame;

/* Order number of item `item` of the element with 1-based position `elem`: later
 * elements and later items are in front at equal depth, whatever the rank count. */
#define PV_SCENE_ORDER(elem, item) \
    (((uint64_t)(elem) << 48) | ((uint64_t)(item) & 0xFFFFFFFFFFFFull))

/* Add this rank's primitives of e (any kind; SKIPPED adds nothing) to r, with order
 * numbers PV_SCENE_ORDER(e->number, item). Not collective. */
pv_status pv_scene_draw(pv_ctx *ctx, const pv_scene_frame *F, const pv_scene_elem *e,
                        pv_raster *r);
pv_status pv_scene_draw_voxels(pv_ctx *ctx, const pv_scene_frame *F, const pv_scene_elem *e,
                               pv_raster *r);
/* Data points whose z lies in the slab [zlo, zhi). */
pv_status pv_scene_draw_points(pv_ctx *ctx, const pv_scene_frame *F, const pv_scene_elem *e,
                               pv_raster *r);
pv_status pv_scene_draw_pm3d(pv_ctx *ctx, const pv_scene_frame *F, const pv_scene_elem *e,
                             pv_raster *r);
/* Data with lines, linespoints or impulses (scene/lines.c): segments clipped to the axis
 * box, cut at the slab planes by the raster. */
pv_status pv_scene_draw_lines(pv_ctx *ctx, const pv_scene_frame *F, const pv_scene_elem *e,
                              pv_raster *r);

/* `with image|rgbimage|rgbalpha` (scene/image.c): the element's pixel grid as gnuplot's
 * process_image finds it (K points a scan line, L lines; pixel (i, j) centred on origin
 * + i*d0 + j*d1, row j*K + i). False if the rows form no 2 x 2 grid. */
typedef struct pv_image_grid {
    size_t K, L;
    double origin[3], d0[3], d1[3];
} pv_image_grid;
bool pv_scene_image_grid(const pv_scene_elem *e, pv_image_grid *g);
/* The four corners of pixel (i, j), in order around it. */
void pv_scene_image_pixel(const pv_image_grid *g, size_t i, size_t j, double corner[4][3]);
pv_status pv_scene_draw_image(pv_ctx *ctx, const pv_scene_frame *F, const pv_scene_elem *e,
                              pv_raster *r);
/* `with boxes` in a 2D plot (scene/boxes.c): a bar from y = 0 to each row's y. */
pv_status pv_scene_draw_boxes(pv_ctx *ctx, const pv_scene_frame *F, const pv_scene_elem *e,
                              pv_raster *r);
/* The x extent of row i's box (boxes.c): its width column, `set boxwidth`, or halfway to
 * the neighbouring rows (gnuplot's boxes touch). */
void pv_scene_box_edges(const pv_scene_elem *e, size_t i, double *x0, double *x1);
/* 2D error bars (scene/errorbars.c): row i's x and y extents of its bars. */
void pv_scene_error_extent(const pv_scene_elem *e, size_t i, double *xlo, double *xhi,
                           double *ylo, double *yhi);
pv_status pv_scene_draw_errorbars(pv_ctx *ctx, const pv_scene_frame *F, const pv_scene_elem *e,
                                  pv_raster *r);
/* `with polygons` (scene/polygons.c): each scan line a filled polygon. */
pv_status pv_scene_draw_polygons(pv_ctx *ctx, const pv_scene_frame *F, const pv_scene_elem *e,
                                 pv_raster *r);

/* ---- voxel points (`splot $grid with points|dots above T`, GP-6) -------------------- */

typedef struct pv_vpoint {
    double x, y, z;      /* node position plus jitter, user units */
    float value;         /* the voxel value */
    uint64_t index;      /* gnuplot's draw order: (ix·N + iy)·N + iz */
} pv_vpoint;

/* Called with up to PV_SCENE_CHUNK points at a time, in increasing index order within a
 * call. Return non-OK to stop. */
#define PV_SCENE_CHUNK 4096
typedef pv_status (*pv_vpoint_fn)(void *ud, const pv_vpoint *p, size_t n);

/* The voxels of this rank's slab whose value is strictly greater than `above`, whose three
 * indices are multiples of `interval` (<= 1: all), displaced by `spread` voxel spacings of
 * jitter on each axis (0: none; uniform in ±spread/2, a hash of the voxel index, so the
 * same for any rank or thread count). Not collective. */
pv_status pv_scene_voxel_points(const pv_grid *g, double above, int interval, double spread,
                                pv_vpoint_fn fn, void *ud);

/* The jitter offsets (each in [-0.5, 0.5)) of the voxel with linear index `index`. */
void pv_scene_jitter(uint64_t index, double off[3]);

/* ---- pm3d quads ------------------------------------------------------------------------ */

/* One pm3d quad after `clip z`: nv (3..8) corners in world coordinates, its colour (the
 * palette colour of the mean of the four corners' colour values, alpha from the fill) and
 * its item number (quads counted over the scan lines, dropped ones included). */
typedef struct pv_scene_quad {
    int nv;
    double v[8][3];
    pv_rgba8 color;
    uint64_t item;
} pv_scene_quad;
typedef pv_status (*pv_quad_fn)(void *ud, const pv_scene_quad *q);

/* The quads between consecutive scan lines of e (gnuplot's pm3d with corners2color mean),
 * cut to zmin <= z <= zmax; quads with an undefined corner are dropped. Not collective. */
pv_status pv_scene_pm3d_quads(const pv_scene_frame *F, const pv_scene_elem *e, pv_quad_fn fn,
                              void *ud);

/* ---- isosurfaces (`splot $grid with isosurface level L`, GP-7) ------------------------ */

/* One extraction pass: every isosurface element of one grid in a plot, so that one pass
 * over the voxels serves all their levels (the article's 201 nested levels). Cell layers
 * are extracted bottom up in steps (pv_scene_iso_draw), each step's facets coloured,
 * lit, clipped to the z range and added to the rasteriser, so the caller can render and
 * composite between steps and never hold every triangle of a big grid. */
/* Polygons of one extraction pass kept for the next frame: a rotating view of an
 * unchanged grid replays them instead of extracting again (the facets are coloured, lit
 * and projected anew, so the picture is the one extraction would give). Kept while they
 * fit `budget` bytes; a pass that outgrows it is streamed as usual and not kept. The key
 * (grid, its version, levels, mode, this rank's layers) is checked by the pass. Owned by
 * the caller (the frame pipeline); pv_scene_iso_cache_free releases it. */
typedef struct pv_scene_iso_cache {
    const pv_grid *grid;
    uint64_t version;        /* pv_grid.version when recorded */
    double *levels;          /* nlevels (plain malloc) */
    int nlevels;
    bool mixed;
    int64_t k0, k1;          /* layers recorded: [k0, k1) */
    struct pv_iso_rec *rec;  /* n recorded polygons, cap allocated (tracked) */
    size_t n, cap;
    size_t *layer;           /* k1-k0+1 offsets into rec: layer k's polygons (tracked) */
    size_t budget;           /* bytes at most */
    bool complete;           /* every layer of the pass is recorded: replayable */
    bool recording;          /* the pass in progress records (nothing dropped so far) */
    bool too_big;            /* the pass of this key outgrew the budget: stream it */
    int64_t k_rec;           /* next layer to record */
} pv_scene_iso_cache;

void pv_scene_iso_cache_free(pv_ctx *ctx, pv_scene_iso_cache *c);

typedef struct pv_scene_iso {
    const pv_grid *grid;
    pv_scene_iso_cache *cache; /* NULL, or the pipeline's cache for this grid */
    bool replay;             /* the cache holds this pass: no extraction */
    const float *ghost;      /* plane z1 of the grid from the upper neighbour, or NULL */
    int nelem;
    const pv_scene_elem **elem; /* the elements (tracked, nelem), level i = elem[i] */
    double *levels;          /* nelem levels (tracked) */
    int64_t k_next, k_end;   /* next cell layer to extract, one past this rank's last */
    bool cut;                /* the grid is not the slab grid: let the raster cut facets */
    uint64_t tris;           /* triangles added so far */
} pv_scene_iso;

/* Set up a pass over the `n` isosurface elements elem[] (all of grid g) with g's ghost
 * plane (NULL on the rank holding the grid's last plane). `slab_grid` is the grid whose
 * planes bound the ranks' slabs (pv_scene_slab). PV_ENOMEM recorded on failure. */
pv_status pv_scene_iso_init(pv_ctx *ctx, pv_scene_iso *it, const pv_grid *g,
                            const pv_grid *slab_grid, const pv_scene_elem *const *elem, int n,
                            const float *ghost);
/* Use `cache` for the pass (after init): replay it when it holds this very pass, else
 * record into it (what it held is dropped). `mixed` is the frame's iso_mixed. */
void pv_scene_iso_use_cache(pv_ctx *ctx, pv_scene_iso *it, pv_scene_iso_cache *cache,
                            bool mixed);
void pv_scene_iso_fini(pv_ctx *ctx, pv_scene_iso *it);
/* The kernel's view of the pass's grid: this rank's planes and the ghost plane (iso.h).
 * The pass's cell layers are [k_next, k_end), its levels `levels`, level i from elem[i]. */
struct pv_iso_field;
void pv_scene_iso_field(const pv_scene_iso *it, struct pv_iso_field *f);
/* World z of the lower node plane of cell layer k. */
double pv_scene_iso_layer_z(const pv_scene_iso *it, int64_t k);
/* Extract this rank's next cell layers whose lower node plane lies below world z `zhi`
 * (+INFINITY: all that remain), adding their facets to r. Not collective. */
pv_status pv_scene_iso_draw(pv_ctx *ctx, const pv_scene_frame *F, pv_scene_iso *it, double zhi,
                            pv_raster *r);

/* ---- slab clipping ------------------------------------------------------------------- */

/* Cut the convex polygon in[0..n-1] (x, y, z triples, n <= 6) to zmin <= z <= zmax
 * (pm3d's `clip z`). Writes at most n + 2 vertices to out and returns their count; fewer
 * than 3 means nothing is left. */
int pv_scene_clip_z(const double (*in)[3], int n, double zmin, double zmax, double (*out)[3]);

/* World-z slab of rank `rank` among `nranks`: [*zlo, *zhi). With a grid (g != NULL) the
 * boundaries sit at the nodes of the first plane each rank owns, so voxel points need no
 * forwarding; otherwise [zmin, zmax] is split evenly. The first slab starts at -inf, the
 * last ends at +inf. */
void pv_scene_slab(const pv_grid *g, double zmin, double zmax, int nranks, int rank,
                   double *zlo, double *zhi);

#endif /* PVOX_SCENE_H */
