/*
 * render/raster_bin.c: one 64x64 screen bin of a render, resolved near to far.
 *
 * Per pixel the bin keeps the premultiplied colour gathered so far, the samples already
 * opaque ("filled") and, once a transparent fragment arrived, one transmittance per
 * sample. A fragment (primitive coverage of one pixel: a sample mask, a colour, a depth)
 * adds colour x alpha x (sum of the transmittance of its samples)/16 and multiplies
 * those transmittances by 1 - alpha: the "under" operator per sample, which equals
 * blending far to near with "over" (Porter & Duff) and lets opaque samples stop all
 * further work.
 *
 * Order: flat primitives (points, constant-depth triangles) arrive as items, which the
 * bin sorts near to far. Triangles whose depth varies are cut into per-pixel fragments,
 * buffered (at most frag_capacity), sorted per pixel and merged with the flat stream:
 * before a flat primitive touches a pixel, the fragments of that pixel that are nearer
 * are resolved. When the buffer overflows, only the nearest half is kept and the bin is
 * walked again for the rest (key ranges), so memory stays bounded.
 *
 * Keys: (depth, rank): nearer first, then the later primitive (larger rank) first; a
 * fragment adds its pixel to make keys unique within a batch. A fragment's depth is
 * taken at the mean of its covered samples, so it is never extrapolated outside its
 * triangle. Depth is resolved per pixel, not per sample: where two surfaces cross
 * inside one pixel, the nearer fragment takes all its samples.
 */
#include "raster_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A sample whose transmittance falls below this is treated as opaque: what is behind it
 * could change the pixel by less than 1/4096 of full scale, far below 8-bit output. */
#define RS_T_MIN (1.0f / 8192.0f)

/* ---- scratch layout ------------------------------------------------------------------- */

static size_t align64(size_t n)
{
    return (n + 63u) & ~(size_t)63u;
}

size_t rs_scratch_bytes(size_t cap, size_t sort_cap)
{
    size_t n = align64(sort_cap * sizeof(rs_item));      /* sort_tmp */
    n += align64(RS_BIN_PIX * 4 * sizeof(float));        /* acc */
    n += align64(RS_BIN_PIX * RS_NS * sizeof(float));    /* trans */
    n += align64(RS_BIN_PIX * sizeof(float));            /* depth */
    n += align64(RS_COVER_MAX * sizeof(float));          /* cdepth */
    n += align64((RS_BIN_PIX + 1) * sizeof(uint32_t));   /* fstart */
    n += align64(RS_BIN_PIX * sizeof(uint32_t));         /* fcur */
    n += align64(cap * sizeof(rs_frag)) * 2;             /* frag, frag2 */
    n += align64(RS_BIN_PIX * sizeof(uint16_t)) * 2;     /* filled, cov */
    n += align64(RS_COVER_MAX * sizeof(uint16_t)) * 2;   /* cpix, cmask */
    n += align64(RS_BIN_PIX) * 2;                        /* partial, smode */
    n += align64(RS_BIN_PIX * 3 * sizeof(float));        /* ucol */
    n += align64(RS_BIN_PIX * RS_NS * 3 * sizeof(float)); /* scol */
    return n;
}

void rs_scratch_init(rs_scratch *s, void *block, size_t cap, size_t sort_cap)
{
    char *p = block;
    s->sort_cap = sort_cap;
#define CARVE(field, bytes)                                                                \
    do {                                                                                   \
        s->field = (void *)p;                                                              \
        p += align64(bytes);                                                               \
    } while (0)
    CARVE(sort_tmp, sort_cap * sizeof(rs_item));
    CARVE(acc, RS_BIN_PIX * 4 * sizeof(float));
    CARVE(trans, RS_BIN_PIX * RS_NS * sizeof(float));
    CARVE(depth, RS_BIN_PIX * sizeof(float));
    CARVE(cdepth, RS_COVER_MAX * sizeof(float));
    CARVE(fstart, (RS_BIN_PIX + 1) * sizeof(uint32_t));
    CARVE(fcur, RS_BIN_PIX * sizeof(uint32_t));
    CARVE(frag, cap * sizeof(rs_frag));
    CARVE(frag2, cap * sizeof(rs_frag));
    CARVE(filled, RS_BIN_PIX * sizeof(uint16_t));
    CARVE(cov, RS_BIN_PIX * sizeof(uint16_t));
    CARVE(cpix, RS_COVER_MAX * sizeof(uint16_t));
    CARVE(cmask, RS_COVER_MAX * sizeof(uint16_t));
    CARVE(partial, RS_BIN_PIX);
    CARVE(smode, RS_BIN_PIX);
    CARVE(ucol, RS_BIN_PIX * 3 * sizeof(float));
    CARVE(scol, RS_BIN_PIX * RS_NS * 3 * sizeof(float));
#undef CARVE
}

/* ---- triangle coverage ----------------------------------------------------------------- */

/* Edge P->Q as e(x,y) = A x + B y + C, >= 0 inside a positive-area triangle. Computed
 * relative to the bin origin so floats keep their precision. Every step negates exactly
 * when P and Q swap, so two triangles sharing an edge get e and -e at every sample: a
 * sample is inside exactly one of them (ties go by the sign of (A, B)). */
typedef struct edge {
    float a, b, c;
    bool tie;                /* a sample exactly on the edge belongs to this side */
    bool hard;               /* decided at the pixel centre for all samples */
    float o[RS_NS];          /* a*sx[s] + b*sy[s] */
    float omin, omax;
} edge;

static void edge_setup(edge *e, float px, float py, float qx, float qy, int bx0, int by0,
                       bool hard)
{
    e->hard = hard;
    double a = (double)py - (double)qy;
    double b = (double)qx - (double)px;
    double c = (double)px * (double)qy - (double)qx * (double)py;
    c = c + a * (double)bx0;
    c = c + b * (double)by0;
    e->a = (float)a;
    e->b = (float)b;
    e->c = (float)c;
    e->tie = a > 0.0 || (a == 0.0 && b > 0.0);
    e->omin = INFINITY;
    e->omax = -INFINITY;
    for (int s = 0; s < RS_NS; s++) {
        e->o[s] = e->a * rs_sample_x[s] + e->b * rs_sample_y[s];
        e->omin = rs_minf(e->omin, e->o[s]);
        e->omax = rs_maxf(e->omax, e->o[s]);
    }
}

/* Samples of the pixel with local corner (u, v) inside the edge. Exact shortcuts: the
 * rounded sum is monotone in o, so base + omax < 0 rejects every sample and
 * base + omin > 0 accepts every sample, as the per-sample test would. */
static uint16_t edge_mask(const edge *e, float u, float v)
{
    if (e->hard) { /* the pixel centre decides, with the same tie rule */
        float x = e->a * (u + 0.5f) + e->b * (v + 0.5f) + e->c;
        return (x > 0.0f || (x == 0.0f && e->tie)) ? PV_RASTER_MASK_FULL : 0;
    }
    float base = e->a * u + e->b * v + e->c;
    if (base + e->omax < 0.0f) return 0;
    if (base + e->omin > 0.0f) return PV_RASTER_MASK_FULL;
    uint16_t m = 0;
    for (int s = 0; s < RS_NS; s++) {
        float x = base + e->o[s];
        m |= (uint16_t)((x > 0.0f || (x == 0.0f && e->tie)) << s);
    }
    return m;
}

int rs_tri_cover(const pv_raster_tri *t, unsigned hard, const rs_cut *cut, int bx0, int by0,
                 int x0, int y0, int x1, int y1, uint16_t *pix, uint16_t *mask, float *depth)
{
    /* clip the box to the rectangle first: vertices may lie far outside */
    float fx0 = rs_minf(t->x[0], rs_minf(t->x[1], t->x[2]));
    float fx1 = rs_maxf(t->x[0], rs_maxf(t->x[1], t->x[2]));
    float fy0 = rs_minf(t->y[0], rs_minf(t->y[1], t->y[2]));
    float fy1 = rs_maxf(t->y[0], rs_maxf(t->y[1], t->y[2]));
    if (fx0 > (float)x0) x0 = rs_floori(fx0);
    if (fy0 > (float)y0) y0 = rs_floori(fy0);
    if (fx1 + 1.0f < (float)x1) x1 = rs_floori(fx1) + 1;
    if (fy1 + 1.0f < (float)y1) y1 = rs_floori(fy1) + 1;
    if (x0 >= x1 || y0 >= y1) return 0;

    edge e[3], ec[2];
    for (int i = 0; i < 3; i++) {
        int j = (i + 1) % 3;
        edge_setup(&e[i], t->x[i], t->y[i], t->x[j], t->y[j], bx0, by0, (hard >> i) & 1u);
    }
    int ncut = cut ? cut->n : 0;
    for (int i = 0; i < ncut; i++)
        edge_setup(&ec[i], cut->px[i], cut->py[i], cut->qx[i], cut->qy[i], bx0, by0, true);
    /* depth plane through the vertices, clamped to their range at pixel centres */
    double vx0 = (double)t->x[0], vy0 = (double)t->y[0], d0 = (double)t->depth[0];
    double ax = (double)t->x[1] - vx0, ay = (double)t->y[1] - vy0;
    double bxv = (double)t->x[2] - vx0, byv = (double)t->y[2] - vy0;
    double ad = (double)t->depth[1] - d0, bd = (double)t->depth[2] - d0;
    double area2 = ax * byv - bxv * ay;
    double gx = (ad * byv - bd * ay) / area2, gy = (ax * bd - bxv * ad) / area2;
    float dmin = rs_minf(t->depth[0], rs_minf(t->depth[1], t->depth[2]));
    float dmax = rs_maxf(t->depth[0], rs_maxf(t->depth[1], t->depth[2]));

    int n = 0;
    for (int y = y0; y < y1; y++) {
        float v = (float)(y - by0);
        for (int x = x0; x < x1; x++) {
            float u = (float)(x - bx0);
            uint16_t m = edge_mask(&e[0], u, v);
            if (m) m &= edge_mask(&e[1], u, v);
            if (m) m &= edge_mask(&e[2], u, v);
            for (int i = 0; i < ncut && m; i++) m &= edge_mask(&ec[i], u, v);
            if (!m) continue;
            /* depth where the triangle is: at the mean of its samples in the pixel (never
             * extrapolated, so a fragment of a slab's piece keeps a depth inside it) */
            double sx = 0.5, sy = 0.5;
            if (m != PV_RASTER_MASK_FULL) {
                float mx = 0.0f, my = 0.0f;
                int cnt = 0;
                for (int k = 0; k < RS_NS; k++) {
                    if (!((m >> k) & 1u)) continue;
                    mx += rs_sample_x[k];
                    my += rs_sample_y[k];
                    cnt++;
                }
                sx = (double)(mx / (float)cnt);
                sy = (double)(my / (float)cnt);
            }
            double d = d0 + gx * ((double)x + sx - vx0) + gy * ((double)y + sy - vy0);
            float df = (float)d;
            pix[n] = (uint16_t)((y - by0) * RS_BIN + (x - bx0));
            mask[n] = m;
            depth[n] = rs_minf(rs_maxf(df, dmin), dmax);
            n++;
        }
    }
    return n;
}

/* ---- resolving fragments ---------------------------------------------------------------- */

static inline int popcount16(unsigned m)
{
    m = m - ((m >> 1) & 0x5555u);
    m = (m & 0x3333u) + ((m >> 2) & 0x3333u);
    m = (m + (m >> 4)) & 0x0F0Fu;
    return (int)((m + (m >> 8)) & 0x1Fu);
}

/* Premultiplied float colour of a straight 8-bit one. */
static inline void premul(pv_rgba8 c, float out[4])
{
    float a = (float)c.a * (1.0f / 255.0f);
    out[0] = (float)c.r * (1.0f / 255.0f) * a;
    out[1] = (float)c.g * (1.0f / 255.0f) * a;
    out[2] = (float)c.b * (1.0f / 255.0f) * a;
    out[3] = a;
}

typedef struct bin {
    rs_scratch *s;
    int bx0, by0;            /* canvas pixel of the bin's corner */
    int bw, bh;              /* bin size inside the tile */
    int nfull;               /* pixels whose samples are all opaque */
} bin;

/* Per-sample colours. A pixel needs them only when its samples saw different colours in
 * different proportions. Until then it is one of two exact cases: every fragment so far
 * covered all its samples (the samples are identical, whatever the colours: SM_SAME), or
 * every fragment had the first one's colour (each sample is that colour times its
 * opacity). When neither holds any more, the colour of every sample is kept from then on
 * (scol, SM_ON), starting from what the exact case gave each sample so far. */
enum { SM_ON = 1, SM_MIXED = 2, SM_SAME = 4 };

static void straight(const float c[4], float u[3])
{
    float inv = c[3] > 0.0f ? 1.0f / c[3] : 0.0f;
    for (int k = 0; k < 3; k++) u[k] = c[k] * inv;
}

static void enter_sample_mode(rs_scratch *s, int p)
{
    float *sc = s->scol + (size_t)RS_NS * 3 * (size_t)p;
    if (s->smode[p] & SM_SAME) { /* identical samples: each is the pixel's colour */
        const float *acc = s->acc + 4 * p;
        for (int k = 0; k < RS_NS; k++)
            for (int j = 0; j < 3; j++) sc[3 * k + j] = acc[j];
    } else { /* one colour: times each sample's opacity */
        const float *u = s->ucol + 3 * p;
        unsigned fl = s->filled[p];
        const float *tr = s->trans + RS_NS * p;
        for (int k = 0; k < RS_NS; k++) {
            float a = s->partial[p] ? 1.0f - tr[k] : (float)((fl >> k) & 1u);
            for (int j = 0; j < 3; j++) sc[3 * k + j] = u[j] * a;
        }
    }
    s->smode[p] = SM_ON;
}

/* Resolve one fragment: mask m of pixel p, premultiplied colour c, depth d. */
static void apply(bin *b, int p, uint16_t m, const float c[4], float d)
{
    rs_scratch *s = b->s;
    m &= (uint16_t)~s->filled[p];
    if (!m) return;
    bool all = m == PV_RASTER_MASK_FULL; /* every sample, none of them opaque yet */
    if (!s->cov[p]) {
        s->depth[p] = d;
        straight(c, s->ucol + 3 * p);
        s->smode[p] = all ? SM_SAME : 0;
    } else if (!(s->smode[p] & SM_ON)) {
        unsigned sm = s->smode[p];
        if (!(sm & SM_MIXED) && c[3] > 0.0f) {
            float u[3];
            straight(c, u);
            const float *u0 = s->ucol + 3 * p;
            float du = fmaxf(fabsf(u[0] - u0[0]), fmaxf(fabsf(u[1] - u0[1]), fabsf(u[2] - u0[2])));
            if (du > PV_RICH_EPS) sm |= SM_MIXED;
        }
        s->smode[p] = (uint8_t)sm;
        if ((sm & SM_MIXED) && !((sm & SM_SAME) && all)) enter_sample_mode(s, p);
        else if (!all) s->smode[p] = (uint8_t)(sm & ~(unsigned)SM_SAME);
    }
    if (s->smode[p] & SM_ON) { /* before the transmittances change */
        float *sc = s->scol + (size_t)RS_NS * 3 * (size_t)p;
        const float *tr = s->trans + RS_NS * p;
        for (int k = 0; k < RS_NS; k++) {
            if (!((m >> k) & 1u)) continue;
            float t = s->partial[p] ? tr[k] : 1.0f;
            for (int j = 0; j < 3; j++) sc[3 * k + j] += t * c[j];
        }
    }
    s->cov[p] |= m;
    float *acc = s->acc + 4 * p;
    bool opaque = c[3] >= 1.0f;
    if (!s->partial[p]) {
        if (opaque) {
            float w = (float)popcount16(m) * (1.0f / RS_NS);
            for (int k = 0; k < 4; k++) acc[k] += w * c[k];
            s->filled[p] |= m;
            if (s->filled[p] == PV_RASTER_MASK_FULL) b->nfull++;
            return;
        }
        float *tr = s->trans + RS_NS * p;
        unsigned fl = s->filled[p];
        for (int k = 0; k < RS_NS; k++) tr[k] = ((fl >> k) & 1u) ? 0.0f : 1.0f;
        s->partial[p] = 1;
    }
    float *tr = s->trans + RS_NS * p;
    float w = 0.0f;
    for (int k = 0; k < RS_NS; k++) w += ((m >> k) & 1u) ? tr[k] : 0.0f;
    w *= 1.0f / RS_NS;
    for (int k = 0; k < 4; k++) acc[k] += w * c[k];
    unsigned fl = s->filled[p];
    float keep = 1.0f - c[3];
    for (int k = 0; k < RS_NS; k++) {
        if (!((m >> k) & 1u)) continue;
        tr[k] *= keep;
        if (tr[k] < RS_T_MIN) {
            tr[k] = 0.0f;
            fl |= 1u << k;
        }
    }
    if (fl != s->filled[p]) {
        s->filled[p] = (uint16_t)fl;
        if (fl == PV_RASTER_MASK_FULL) b->nfull++;
    }
}

/* ---- coverage of a flat primitive -------------------------------------------------------- */

static int point_cover_sprite(const rs_frame *f, const bin *b, const rs_style *st,
                              const rs_item *it)
{
    const uint16_t *spr = f->r->sprites + st->spr_off;
    int ox = rs_floori(it->u.pt.x) + st->spr_x0 - b->bx0;
    int oy = rs_floori(it->u.pt.y) + st->spr_y0 - b->by0;
    int xa = ox > 0 ? ox : 0, ya = oy > 0 ? oy : 0;
    int xb = ox + st->spr_w < b->bw ? ox + st->spr_w : b->bw;
    int yb = oy + st->spr_h < b->bh ? oy + st->spr_h : b->bh;
    int n = 0, np = st->nparts;
    for (int y = ya; y < yb; y++) {
        for (int x = xa; x < xb; x++) {
            size_t cell = ((size_t)(y - oy) * (size_t)st->spr_stride + (size_t)(x - ox)) *
                          (size_t)np;
            for (int k = 0; k < np; k++) {
                uint16_t m = spr[cell + (size_t)k];
                if (!m) continue;
                b->s->cpix[n] = (uint16_t)(y * RS_BIN + x);
                b->s->cmask[n] = m;
                n++;
            }
        }
    }
    return n;
}

static int point_cover_direct(const bin *b, const rs_style *st, const rs_item *it)
{
    float cx = it->u.pt.x, cy = it->u.pt.y;
    int xa = rs_floori(cx - st->ext) - b->bx0, xb = rs_floori(cx + st->ext) + 1 - b->bx0;
    int ya = rs_floori(cy - st->ext) - b->by0, yb = rs_floori(cy + st->ext) + 1 - b->by0;
    if (xa < 0) xa = 0;
    if (ya < 0) ya = 0;
    if (xb > b->bw) xb = b->bw;
    if (yb > b->bh) yb = b->bh;
    int n = 0;
    for (int y = ya; y < yb; y++) {
        for (int x = xa; x < xb; x++) {
            uint16_t m[RS_MAX_PARTS];
            if (!rs_style_mask(st, cx, cy, b->bx0 + x, b->by0 + y, m)) continue;
            for (int k = 0; k < st->nparts; k++) {
                if (!m[k]) continue;
                b->s->cpix[n] = (uint16_t)(y * RS_BIN + x);
                b->s->cmask[n] = m[k];
                n++;
            }
        }
    }
    return n;
}

/* Coverage of a flat item into s->cpix/cmask (blending order). */
static int flat_cover(const rs_frame *f, const bin *b, const rs_item *it)
{
    if (it->style == RS_ITEM_TRI)
        return rs_tri_cover(&f->r->tris[it->u.tri], rs_tri_hard(f->r, it->u.tri),
                            rs_tri_cut(f->r, it->u.tri), b->bx0, b->by0, b->bx0, b->by0,
                            b->bx0 + b->bw, b->by0 + b->bh, b->s->cpix, b->s->cmask,
                            b->s->cdepth);
    const rs_style *st = &f->r->styles[it->style];
    return st->has_sprite ? point_cover_sprite(f, b, st, it) : point_cover_direct(b, st, it);
}

/* ---- sorting a bin's flat items near to far ------------------------------------------- */

static int item_cmp(const void *pa, const void *pb)
{
    const rs_item *a = pa, *b = pb;
    return a->key < b->key ? -1 : a->key > b->key;
}

/* Keys are unique (they hold the rank), so any correct sort gives the same order. LSD
 * radix over the key bytes that differ; qsort in place when the bin holds more items
 * than the scratch (memory stays bounded). When the items arrive in increasing rank
 * (orders never decreased), reversing them and sorting stably by the depth half of the
 * key alone gives the same order in fewer passes. */
static void sort_items(rs_item *a, size_t n, rs_scratch *s, bool rank_ordered)
{
    if (n < 2) return;
    if (n <= 24) {
        for (size_t i = 1; i < n; i++) {
            rs_item x = a[i];
            size_t j = i;
            while (j > 0 && a[j - 1].key > x.key) {
                a[j] = a[j - 1];
                j--;
            }
            a[j] = x;
        }
        return;
    }
    if (n > s->sort_cap) {
        qsort(a, n, sizeof *a, item_cmp);
        return;
    }
    int d0 = 0;
    if (rank_ordered) {
        for (size_t i = 0, j = n - 1; i < j; i++, j--) {
            rs_item t = a[i];
            a[i] = a[j];
            a[j] = t;
        }
        d0 = 4;
    }
    size_t hist[8][256];
    memset(hist, 0, sizeof hist);
    for (size_t i = 0; i < n; i++)
        for (int d = d0; d < 8; d++) hist[d][(a[i].key >> (8 * d)) & 255u]++;
    rs_item *src = a, *dst = s->sort_tmp;
    for (int d = d0; d < 8; d++) {
        size_t *h = hist[d];
        if (h[(a[0].key >> (8 * d)) & 255u] == n) continue; /* byte equal everywhere */
        size_t sum = 0;
        for (int v = 0; v < 256; v++) {
            size_t c = h[v];
            h[v] = sum;
            sum += c;
        }
        for (size_t i = 0; i < n; i++) dst[h[(src[i].key >> (8 * d)) & 255u]++] = src[i];
        rs_item *t = src;
        src = dst;
        dst = t;
    }
    if (src != a) memcpy(a, src, n * sizeof *a);
}

/* ---- fragment batches ------------------------------------------------------------------- */

/* Full fragment key (depth, rank, pixel) as two words for comparisons. */
static inline uint64_t frag_key(const rs_frag *g)
{
    return rs_key(g->dkey, g->rank);
}

static inline bool frag_less(const rs_frag *a, const rs_frag *b)
{
    uint64_t ka = frag_key(a), kb = frag_key(b);
    return ka < kb || (ka == kb && a->pix < b->pix);
}

static int frag_cmp(const void *pa, const void *pb)
{
    const rs_frag *a = pa, *b = pb;
    if (frag_less(a, b)) return -1;
    if (frag_less(b, a)) return 1;
    return 0;
}

static void sort_range(rs_frag *g, size_t n)
{
    if (n > 24) {
        qsort(g, n, sizeof *g, frag_cmp);
        return;
    }
    for (size_t i = 1; i < n; i++) {
        rs_frag x = g[i];
        size_t j = i;
        while (j > 0 && frag_less(&x, &g[j - 1])) {
            g[j] = g[j - 1];
            j--;
        }
        g[j] = x;
    }
}

typedef struct krange {
    bool has_lo, has_hi;
    uint64_t lo_k, hi_k;     /* exclusive lower, inclusive upper bound (key, pixel) */
    uint16_t lo_p, hi_p;
} krange;

static inline bool key_after(uint64_t k, uint16_t p, uint64_t bk, uint16_t bp)
{
    return k > bk || (k == bk && p > bp);
}

/* Cut the varying-depth triangles of the bin into fragments with keys inside kr (which
 * may shrink: the buffer keeps the nearest fragments when it fills). Returns the count. */
static size_t gen_fragments(const rs_frame *f, bin *b, const uint32_t *tl, size_t ntl,
                            krange *kr)
{
    rs_scratch *s = b->s;
    size_t cap = f->frag_capacity, n = 0;
    for (size_t i = 0; i < ntl; i++) {
        uint32_t p = tl[i];
        uint32_t rank = rs_rank(f, p);
        const pv_raster_tri *t = &f->r->tris[p - f->npts];
        /* skip triangles whose whole depth range lies outside the key range */
        float dmin = rs_minf(t->depth[0], rs_minf(t->depth[1], t->depth[2]));
        float dmax = rs_maxf(t->depth[0], rs_maxf(t->depth[1], t->depth[2]));
        if (kr->has_lo && rs_key(rs_depth_key(dmax), rank) < kr->lo_k) continue;
        if (kr->has_hi && rs_key(rs_depth_key(dmin), rank) > kr->hi_k) continue;
        int nc = rs_tri_cover(t, rs_tri_hard(f->r, p - f->npts), rs_tri_cut(f->r, p - f->npts),
                              b->bx0, b->by0, b->bx0, b->by0, b->bx0 + b->bw, b->by0 + b->bh,
                              s->cpix, s->cmask, s->cdepth);
        for (int j = 0; j < nc; j++) {
            uint16_t pix = s->cpix[j];
            uint16_t m = (uint16_t)(s->cmask[j] & ~s->filled[pix]);
            if (!m) continue;
            uint32_t dk = rs_depth_key(s->cdepth[j]);
            uint64_t k = rs_key(dk, rank);
            if (kr->has_lo && !key_after(k, pix, kr->lo_k, kr->lo_p)) continue;
            if (kr->has_hi && key_after(k, pix, kr->hi_k, kr->hi_p)) continue;
            s->frag[n++] = (rs_frag){dk, rank, pix, m};
            if (n < cap) continue;
            /* full: keep the nearest half, the rest waits for the next batch */
            qsort(s->frag, n, sizeof *s->frag, frag_cmp);
            n = cap / 2;
            kr->has_hi = true;
            kr->hi_k = frag_key(&s->frag[n - 1]);
            kr->hi_p = s->frag[n - 1].pix;
        }
    }
    return n;
}

/* Bucket fragments by pixel into frag2 (fstart/fcur) and sort each pixel's run. */
static void bucket_fragments(bin *b, size_t n)
{
    rs_scratch *s = b->s;
    memset(s->fstart, 0, (RS_BIN_PIX + 1) * sizeof(uint32_t));
    for (size_t i = 0; i < n; i++) s->fstart[s->frag[i].pix + 1]++;
    for (int p = 0; p < RS_BIN_PIX; p++) s->fstart[p + 1] += s->fstart[p];
    memcpy(s->fcur, s->fstart, RS_BIN_PIX * sizeof(uint32_t));
    for (size_t i = 0; i < n; i++) s->frag2[s->fcur[s->frag[i].pix]++] = s->frag[i];
    for (int p = 0; p < RS_BIN_PIX; p++) {
        s->fcur[p] = s->fstart[p];
        sort_range(s->frag2 + s->fstart[p], s->fstart[p + 1] - s->fstart[p]);
    }
}

/* Resolve the buffered fragments of pixel p nearer than key `k` (all of them if `all`). */
static void flush_pixel(const rs_frame *f, bin *b, int p, uint64_t k, bool all)
{
    rs_scratch *s = b->s;
    uint32_t end = s->fstart[p + 1];
    while (s->fcur[p] < end) {
        const rs_frag *g = &s->frag2[s->fcur[p]];
        if (!all && frag_key(g) >= k) break;
        s->fcur[p]++;
        const pv_raster_tri *t = &f->r->tris[rs_prim_of_rank(f, g->rank) - f->npts];
        float c[4];
        premul(t->color, c);
        apply(b, p, g->mask, c, rs_key_depth(g->dkey));
    }
}

/* Resolve a flat item (its coverage), first flushing nearer fragments if `merge`.
 *
 * Markers blend their coverage as opacity over the whole pixel (a quarter-covered pixel
 * gets a quarter of the colour on every sample), as cairo draws gnuplot's markers:
 * overlapping antialiased markers then look as in gnuplot, and a pixel made of markers
 * is the same on all its samples, so slabs composite it exactly (composite.h). Triangles
 * keep their exact sample coverage: meshes must not show seams. */
static void resolve_flat(const rs_frame *f, bin *b, const rs_item *it, bool merge)
{
    float c[4];
    premul(it->color, c);
    float d = rs_item_depth(it);
    int n = flat_cover(f, b, it);
    bool marker = it->style != RS_ITEM_TRI;
    for (int i = 0; i < n; i++) {
        int pix = b->s->cpix[i];
        uint16_t m = b->s->cmask[i];
        if (merge) flush_pixel(f, b, pix, it->key, false);
        if (!marker || m == PV_RASTER_MASK_FULL) {
            apply(b, pix, m, c, d);
            continue;
        }
        float k = (float)popcount16(m) * (1.0f / RS_NS), ck[4];
        for (int j = 0; j < 4; j++) ck[j] = c[j] * k;
        apply(b, pix, PV_RASTER_MASK_FULL, ck, d);
    }
}

/* ---- the bin ------------------------------------------------------------------------------ */

static void bin_reset(bin *b)
{
    rs_scratch *s = b->s;
    memset(s->acc, 0, RS_BIN_PIX * 4 * sizeof(float));
    memset(s->filled, 0, RS_BIN_PIX * sizeof(uint16_t));
    memset(s->cov, 0, RS_BIN_PIX * sizeof(uint16_t));
    memset(s->partial, 0, RS_BIN_PIX);
    memset(s->smode, 0, RS_BIN_PIX);
    for (int i = 0; i < RS_BIN_PIX; i++) s->depth[i] = INFINITY;
    b->nfull = 0;
}

/* Opacity of each sample of pixel p, 0..255, at least 1 where something arrived. */
static void sample_cover(const rs_scratch *s, int p, uint8_t *out)
{
    unsigned cov = s->cov[p], fl = s->filled[p];
    if (!s->partial[p]) {
        for (int k = 0; k < RS_NS; k++) out[k] = ((fl >> k) & 1u) ? 255 : 0;
        return;
    }
    const float *tr = s->trans + RS_NS * p;
    for (int k = 0; k < RS_NS; k++) {
        int v = (int)((1.0f - tr[k]) * 255.0f + 0.5f);
        if (v < 1 && ((cov >> k) & 1u)) v = 1;
        out[k] = (uint8_t)v;
    }
}

/* Keep the per-sample colours of tile pixel i when the one-colour model misses them.
 * Bins run in parallel: the entry is taken with an atomic count; past the tile's
 * capacity the bin is marked short, and drawn again once the tile has room. */
static void store_rich(pv_tile *t, size_t i, const float *sc, uint8_t *short_flag)
{
    pv_rich r;
    if (!pv_rich_from_samples(t->rgba + 4 * i, t->cover + RS_NS * i,
                              (const float(*)[3])sc, &r))
        return;
    size_t k;
#pragma omp atomic capture
    k = t->rich_n++;
    if (k < t->rich_cap) {
        t->rich_px[k] = r;
        t->rich[i] = (uint32_t)(k + 1u);
    } else {
        *short_flag = 1;
    }
}

static void bin_store(const rs_frame *f, const bin *b)
{
    pv_tile *t = f->tile;
    const rs_scratch *s = b->s;
    size_t bi = (size_t)((b->by0 - t->y0) / RS_BIN) * (size_t)f->nbx +
                (size_t)((b->bx0 - t->x0) / RS_BIN);
    for (int y = 0; y < b->bh; y++) {
        size_t row = (size_t)(b->by0 - t->y0 + y) * (size_t)t->w + (size_t)(b->bx0 - t->x0);
        for (int x = 0; x < b->bw; x++) {
            int p = y * RS_BIN + x;
            size_t i = row + (size_t)x;
            memcpy(t->rgba + 4 * i, s->acc + 4 * p, 4 * sizeof(float));
            t->mask[i] = s->cov[p];
            t->depth[i] = s->depth[p];
            t->rich[i] = 0;
            if (s->cov[p])
                sample_cover(s, p, t->cover + RS_NS * i);
            else
                memset(t->cover + RS_NS * i, 0, RS_NS);
            if (s->smode[p] & SM_ON)
                store_rich(t, i, s->scol + (size_t)RS_NS * 3 * (size_t)p, &f->bin_short[bi]);
        }
    }
}

void rs_bin_render(const rs_frame *f, rs_scratch *s, int bx, int by)
{
    const pv_tile *t = f->tile;
    bin b = {.s = s, .bx0 = t->x0 + bx * RS_BIN, .by0 = t->y0 + by * RS_BIN};
    b.bw = t->x0 + t->w - b.bx0 < RS_BIN ? t->x0 + t->w - b.bx0 : RS_BIN;
    b.bh = t->y0 + t->h - b.by0 < RS_BIN ? t->y0 + t->h - b.by0 : RS_BIN;
    bin_reset(&b);
    size_t bi = (size_t)by * (size_t)f->nbx + (size_t)bx;
    rs_item *fl = f->flat_items + f->flat_start[bi];
    size_t nfl = f->flat_start[bi + 1] - f->flat_start[bi];
    const uint32_t *tl = f->tri_list + f->tri_start[bi];
    size_t ntl = f->tri_start[bi + 1] - f->tri_start[bi];
    int npix = b.bw * b.bh;
    sort_items(fl, nfl, s, f->rank == NULL);

    if (ntl == 0) {
        for (size_t i = 0; i < nfl && b.nfull < npix; i++) resolve_flat(f, &b, &fl[i], false);
        bin_store(f, &b);
        return;
    }
    krange kr = {0};
    size_t next = 0; /* first flat item not resolved yet */
    for (;;) {
        size_t n = gen_fragments(f, &b, tl, ntl, &kr);
        bucket_fragments(&b, n);
        for (; next < nfl && b.nfull < npix; next++) {
            if (kr.has_hi && fl[next].key > kr.hi_k) break;
            resolve_flat(f, &b, &fl[next], true);
        }
        for (int p = 0; p < RS_BIN_PIX; p++) flush_pixel(f, &b, p, 0, true);
        if (!kr.has_hi || b.nfull >= npix) break;
        kr.has_lo = true;
        kr.lo_k = kr.hi_k;
        kr.lo_p = kr.hi_p;
        kr.has_hi = false;
    }
    bin_store(f, &b);
}
