/*
 * render/raster_int.h: internals shared by raster.c (primitives, sorting, binning, the
 * render driver), raster_marker.c (marker shapes and sprites) and raster_bin.c (one
 * screen bin: coverage, fragments, near-to-far resolve). Not a public interface.
 */
#ifndef PV_RASTER_INT_H
#define PV_RASTER_INT_H

#include "pvox/raster.h"

#define RS_BIN 64                        /* screen bin edge, pixels */
#define RS_BIN_PIX (RS_BIN * RS_BIN)     /* pixels per bin (fits a uint16_t index) */
#define RS_NS PV_RASTER_SAMPLES
#define RS_MAX_PARTS 4                   /* star: four strokes */
#define RS_COVER_MAX (RS_BIN_PIX * RS_MAX_PARTS) /* coverage entries of one primitive */
#define RS_MAX_HP 12                     /* half-planes of one convex part (pentagon with
                                            bevels: 10) */
#define RS_MAX_STYLES (1u << 20)
#define RS_WCACHE 16                     /* work buffers a raster keeps between renders */

/* ---- marker shapes ------------------------------------------------------------------ */

/* A convex region: the intersection of half-planes nx*x + ny*y + c >= 0 (x, y relative to
 * the marker centre, pixels, y down). */
typedef struct rs_hp {
    int n;
    float nx[RS_MAX_HP], ny[RS_MAX_HP], c[RS_MAX_HP];
} rs_hp;

enum { RS_PART_POLY = 0, RS_PART_RING = 1 };

/* One piece of a marker. gnuplot fills and strokes the pieces of a marker one after
 * another (a filled box is a fill then an outline; a plus is two strokes), so with a
 * transparent colour their overlaps blend twice: the parts are blended in turn too. */
typedef struct rs_part {
    int kind;                /* RS_PART_POLY or RS_PART_RING */
    rs_hp outer;             /* POLY: the region */
    rs_hp inner;             /* POLY: minus this region when inner.n > 0 (an outline) */
    float r_in2, r_out2;     /* RING: r_in^2 < x^2+y^2 <= r_out^2 (r_in2 < 0: a disk) */
} rs_part;

typedef struct rs_style {
    int type;                /* normalised point type 0..15 */
    float size, lw;          /* half-width and stroke width, pixels */
    int nparts;
    rs_part part[RS_MAX_PARTS];
    float ext;               /* every part lies within ext pixels of the centre (box) */
    /* sprite for markers centred on a pixel centre, built by render when used */
    bool has_sprite;         /* spr_* valid for this render */
    int spr_x0, spr_y0;      /* offset of the sprite's first pixel from the centre pixel */
    int spr_w, spr_h;        /* sprite size, pixels (0 when empty) */
    int spr_stride;          /* pixels per sprite row (nparts masks per pixel) */
    size_t spr_off;          /* first mask in pv_raster.sprites */
    size_t npoints;          /* points using the style in this render */
} rs_style;

/* Sample offsets inside a pixel (pv_raster_sample_pos as constant tables). */
extern const float rs_sample_x[RS_NS], rs_sample_y[RS_NS];

/* Build the parts of a style (type normalised, size/lw validated by the caller). */
void rs_style_build(rs_style *st, int type, float size, float lw);
/* Coverage of pixel (px, py) by each part of a style centred at (cx, cy) into
 * m[0..nparts); returns their union. */
uint16_t rs_style_mask(const rs_style *st, float cx, float cy, int px, int py,
                       uint16_t m[RS_MAX_PARTS]);

/* ---- the rasteriser object ---------------------------------------------------------- */

/* Slab cut lines of a primitive: keep pixels whose centre is on the left of each P->Q
 * (edge function >= 0 with the triangle tie rule). */
typedef struct rs_cut {
    int n;                   /* lines: 1 or 2 */
    float px[2], py[2], qx[2], qy[2];
} rs_cut;

struct pv_raster {
    int cw, ch;                  /* canvas, pixels */
    pv_raster_options opt;
    rs_style *styles;            /* nstyles used, cap_styles allocated */
    size_t nstyles, cap_styles;
    uint32_t *style_hash;        /* open addressing: style index + 1, 0 = free */
    size_t hash_cap;             /* slots (power of two, > 2 x nstyles) */
    pv_raster_point *pts;        /* npts used, cap_pts allocated */
    size_t npts, cap_pts;
    pv_raster_tri *tris;         /* ntris used, cap_tris allocated */
    size_t ntris, cap_tris;
    uint32_t *tri_cut;           /* per triangle: bits 0..28 0 or 1 + index into cuts,
                                    bits 29..31 its hard edges (edge i from vertex i) */
    size_t cap_tri_cut;
    rs_cut *cuts;                /* ncuts used, cap_cuts allocated */
    size_t ncuts, cap_cuts;
    double slab_lo, slab_hi;     /* pv_raster_set_slab */
    uint16_t *sprites;           /* sprite masks of all styles, nsprite used */
    size_t nsprite, cap_sprite;
    /* work buffers of past renders, kept for the next one (a frame sequence allocates
       and faults in its bins, lists and fragment buffers once, not per frame) */
    void *wcache[RS_WCACHE];
    size_t wcache_n[RS_WCACHE];
};

/* ---- one render: what every bin reads ------------------------------------------------ */

/* Small float helpers that compile inline on baseline x86-64 (libm's fminf, floorf and
 * rintf are calls there). Inputs are never NaN. */
static inline float rs_minf(float a, float b)
{
    return a < b ? a : b;
}
static inline float rs_maxf(float a, float b)
{
    return a > b ? a : b;
}
/* floor(v) as an int, |v| < 2^31 */
static inline int rs_floori(float v)
{
    int i = (int)v;
    return i - (v < (float)i);
}
/* rint(v) in the default rounding mode (to nearest, ties to even), as pngcairo rounds
 * marker centres: adding and removing 1.5 * 2^23 rounds away the fraction. */
static inline float rs_rintf(float v)
{
    if (!(v < 4194304.0f && v > -4194304.0f)) return v;
    float t = v + 12582912.0f;
    return t - 12582912.0f;
}

/* Sort key of a primitive or fragment, ascending = nearer first: depth, then the larger
 * rank (later in order) first. */
static inline uint64_t rs_key(uint32_t dkey, uint32_t rank)
{
    return ((uint64_t)dkey << 32) | (uint64_t)(0xFFFFFFFFu - rank);
}

/* A float depth as an unsigned key with the same order (-0 sorts before +0). */
static inline uint32_t rs_depth_key(float d)
{
    union {
        float f;
        uint32_t u;
    } v = {d};
    return (v.u & 0x80000000u) ? ~v.u : (v.u | 0x80000000u);
}
static inline float rs_key_depth(uint32_t k)
{
    union {
        float f;
        uint32_t u;
    } v;
    v.u = (k & 0x80000000u) ? (k & 0x7FFFFFFFu) : ~k;
    return v.f;
}

/* A flat primitive as binned: everything a bin needs to draw it without touching the
 * primitive arrays (points are drawn in depth order, which would otherwise read them
 * in random order). */
#define RS_ITEM_TRI 0xFFFFFFFFu
typedef struct rs_item {
    uint64_t key;            /* rs_key(depth key, rank): ascending = nearer first */
    union {
        struct {
            float x, y;      /* marker centre as drawn (snapped when snapping) */
        } pt;
        uint64_t tri;        /* style RS_ITEM_TRI: index into pv_raster.tris */
    } u;
    uint32_t style;          /* marker style, or RS_ITEM_TRI for a constant-depth triangle */
    pv_rgba8 color;
} rs_item;

static inline uint32_t rs_item_rank(const rs_item *it)
{
    return 0xFFFFFFFFu - (uint32_t)it->key;
}
static inline float rs_item_depth(const rs_item *it)
{
    return rs_key_depth((uint32_t)(it->key >> 32));
}

/* Everything a bin reads during one render. Triangles are stored with positive area in
 * the y-down sense (pv_raster_add_tris swaps two vertices otherwise). */
typedef struct rs_frame {
    const pv_raster *r;
    pv_tile *tile;
    int nbx, nby;                /* bins across and down the tile */
    size_t npts;                 /* primitive index p < npts: point p; else triangle p-npts */
    const uint32_t *rank;        /* rank of primitive p (its place by order), NULL: rank = p */
    const uint32_t *byrank;      /* primitive of rank k, NULL: identity */
    /* bin lists: flat primitives (each bin sorts its own slice near to far), and the
       triangles whose depth varies, by rank */
    const size_t *flat_start;    /* nbins+1 offsets into flat_items */
    rs_item *flat_items;
    const size_t *tri_start;     /* nbins+1 offsets into tri_list */
    const uint32_t *tri_list;
    size_t frag_capacity;
    uint8_t *bin_short;          /* nbins: the bin found no room for per-sample colours */
} rs_frame;

static inline uint32_t rs_rank(const rs_frame *f, uint32_t p)
{
    return f->rank ? f->rank[p] : p;
}
static inline uint32_t rs_prim_of_rank(const rs_frame *f, uint32_t k)
{
    return f->byrank ? f->byrank[k] : k;
}

/* Per-thread working memory of one bin. */
typedef struct rs_frag {
    uint32_t dkey;           /* rs_depth_key of the depth at the pixel centre */
    uint32_t rank;           /* the primitive's rank */
    uint16_t pix;            /* pixel index in the bin, y * RS_BIN + x */
    uint16_t mask;           /* covered samples */
} rs_frag;

typedef struct rs_scratch {
    float *acc;              /* RS_BIN_PIX x 4: premultiplied colour gathered so far */
    float *trans;            /* RS_BIN_PIX x RS_NS: per-sample transmittance (partial pixels) */
    uint16_t *filled;        /* samples already opaque */
    uint16_t *cov;           /* samples that received anything */
    uint8_t *partial;        /* trans[] is in use for the pixel */
    uint8_t *smode;          /* scol[] is in use for the pixel (its samples' colours differ) */
    float *ucol;             /* RS_BIN_PIX x 3: straight colour of the pixel's first fragment */
    float *scol;             /* RS_BIN_PIX x RS_NS x 3: premultiplied colour of each sample */
    float *depth;            /* nearest depth */
    uint32_t *fstart;        /* RS_BIN_PIX + 1: fragments of pixel p in frag[fstart[p]..] */
    uint32_t *fcur;          /* next fragment of pixel p to resolve */
    rs_frag *frag, *frag2;   /* frag_capacity each */
    uint16_t *cpix, *cmask;  /* RS_COVER_MAX: one primitive's coverage inside the bin, in
                                blending order (a pixel may come once per marker part) */
    float *cdepth;           /* RS_COVER_MAX */
    rs_item *sort_tmp;       /* sort_cap items: radix sort of a bin's flat items */
    size_t sort_cap;
} rs_scratch;

/* Bytes of one rs_scratch for a fragment capacity and a sort buffer of sort_cap items. */
size_t rs_scratch_bytes(size_t frag_capacity, size_t sort_cap);
/* Lay out a scratch in a block of rs_scratch_bytes() bytes. */
void rs_scratch_init(rs_scratch *s, void *block, size_t frag_capacity, size_t sort_cap);

/* Render bin (bx, by) of the frame into its tile. Thread-safe for distinct bins. */
void rs_bin_render(const rs_frame *f, rs_scratch *s, int bx, int by);

/* Coverage of triangle t inside the pixel rectangle [x0,x1) x [y0,y1): pixels (as
 * (y-y0)*RS_BIN + (x-x0) relative to (bx0, by0)), masks and depths (at the mean position
 * of the covered samples). Returns the count. */
int rs_tri_cover(const pv_raster_tri *t, unsigned hard, const rs_cut *cut, int bx0, int by0,
                 int x0, int y0, int x1, int y1, uint16_t *pix, uint16_t *mask, float *depth);

#define RS_CUT_INDEX 0x1FFFFFFFu
#define RS_HARD_SHIFT 29

/* The cut lines of triangle i, or NULL; its hard-edge bits. */
static inline const rs_cut *rs_tri_cut(const pv_raster *r, size_t i)
{
    uint32_t c = r->tri_cut[i] & RS_CUT_INDEX;
    return c ? &r->cuts[c - 1] : NULL;
}
static inline unsigned rs_tri_hard(const pv_raster *r, size_t i)
{
    return r->tri_cut[i] >> RS_HARD_SHIFT;
}

#endif /* PV_RASTER_INT_H */
