/*
 * Multi-level marching-cubes extraction (contract: include/pvox/iso.h; case table:
 * table.c; DEC-7, GP-7.2 in docs/GNUPLOT.md).
 *
 * Classify once for every level. The levels are sorted (ties by caller index) and every
 * node gets q = the number of sorted levels <= its value. For the level of sorted index l a
 * corner is inside (value < level) exactly when q <= l, so a cell is crossed by level l iff
 * min q <= l < max q over its corners: one pass over q rejects almost every cell whatever
 * the number of levels (min q == max q). q must be exact, as it decides the case: each
 * level is replaced by the smallest float >= it (for a float value v, v >= level iff
 * v >= that float), and q is a compare (one level), a sum of compares (a few), an
 * arithmetic guess corrected against the neighbouring thresholds (many, equally spaced) or
 * a binary search. A NaN node gets some q (the compares fail); an active cell with a NaN
 * corner is skipped when its values are read, so a cell with a NaN corner emits nothing.
 * q is 8 bits up to 255 levels, 16 bits up to 65535, else 32.
 *
 * Per cell row (j, k): the column minima/maxima of q over the four nodes (i, j..j+1,
 * k..k+1), then per cell the min/max of two columns and an activity byte (vectorised
 * loops); only active cells are visited, by 8-byte words of activity (a row with none is
 * skipped). An active cell emits,
 * for each crossing level in caller-index order, the polygons of its case. A vertex lies on
 * the edge from its lower node a to the upper node b: t = (L - v_a) / (v_b - v_a), kept
 * strictly inside the edge (cut_at), and point = a + t (b - a) in double, so every cell
 * sharing the edge (and every slab split) computes the same bits, and its id is the grid
 * edge's.
 *
 * Ties: a node equal to the level is not inside (the strict compare), i.e. it counts as
 * an infinitesimal step above the level, for the case and for the crossing alike. An edge
 * from such a node to one below is crossed, and the exact formula puts the vertex ON the
 * node (t = 0 or 1), where the vertices of the node's other crossed edges land too: sheets
 * meeting at one point, and polygons collapsing once coincident points are merged. So t
 * is clamped to [PV_ISO_T_MIN, 1 - PV_ISO_T_MIN] (2^-20 of a cell, iso.h): every vertex
 * lies strictly inside its own edge, vertices of different grid edges never coincide, and
 * the surface is a closed 2-manifold away from the box by position as well as by edge id.
 * The clamp only moves vertices within 2^-20 of a node (by less than that). In pictures
 * it shows only where two sheets used to coincide (the two sides of a layer of nodes equal
 * to the level): the sheet facing the viewer is now in front where depth resolves 2^-20
 * of a cell, instead of whichever the drawing order favoured.
 *
 * q is classified on demand, in blocks of node rows (those of one unit of work, below), by
 * the first thread that needs the block (a compare-and-swap claims it; the others wait for
 * it), into a ring of a few q planes: each plane is classified once and serves both its
 * layers.
 *
 * Parallel shape: a pipeline in one parallel region. The cell rows of [k0, k1) form units
 * of about UNIT_CELLS cells (a block of rows of one layer), handed out in increasing order
 * by an atomic counter, so threads exchange a few cache lines per unit, not per row. A
 * thread writes a unit's polygons into its own ring buffer (RING_POLYS) and publishes its
 * progress; the calling thread (OpenMP's master) emits the units strictly in order, in
 * batches of at most PV_ISO_BATCH straight from the rings (a unit still being computed is
 * emitted FLUSH_MIN polygons or more at a time), and computes units itself whenever nothing
 * is ready, looking after each of its rows whether a thread waits for room. A thread whose
 * ring is full, or that is too far ahead of the emitted units for the record ring or the q
 * ring, waits (spinning, then yielding the core); the calling thread emits while it waits,
 * so the unit everybody waits for can always advance. The order and every bit of the
 * output are independent of the thread count and of how the layers are split into calls;
 * memory is bounded by the rings (never the whole mesh), all allocated before the region.
 *
 * The planes are asked for by the calling thread before the region, in order, and read
 * during the whole call. Memory is plain malloc (the kernel has no ctx, iso.h); an
 * allocation failure returns PV_ENOMEM before anything is emitted.
 */
#include "iso_int.h"

#include "pvox/core.h"

#include <float.h>
#include <math.h>
#include <omp.h>
#include <sched.h>
#include <stdalign.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__)
#define PV_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define PV_CLONES
#endif

#define FLUSH_MIN 1024             /* a running unit is emitted this many at a time */
#define RING_POLYS (4 * FLUSH_MIN) /* polygons per thread ring (590 KiB) */
#define UNIT_CELLS 16384           /* cells per unit of work (at least a row) */
#define QRING_NODES (1 << 16)      /* the q ring has 4 planes plus this many nodes' worth */
#define FEW_LEVELS 16              /* up to this many: q as a sum of compares */

enum { Q_ONE, Q_FEW, Q_SPACED, Q_SEARCH };

typedef struct lvinfo {
    int n;               /* levels */
    int mode;            /* Q_* */
    float *thr;          /* n sorted thresholds: v >= thr[l] iff v >= sorted level l;
                             thr[-1] = -inf, thr[n ... 2n] = NaN (never <= a value) */
    float *pad;          /* thr's allocation */
    int top;             /* largest power of two <= n (binary lifting) */
    int *orig;           /* sorted index -> caller index */
    int *rank;           /* caller index -> sorted index */
    const double *value; /* the caller's levels (by caller index) */
    bool identity;       /* orig[l] == l: the caller's levels were sorted */
    float t0, inv_step;  /* Q_SPACED: guess = floor((v - t0) * inv_step) + 1 */
    float step;          /* Q_SPACED with arith: thr[l] == t0 + (float)l * step exactly */
    bool arith;
} lvinfo;

typedef struct edgeinfo {
    int a, b;   /* corners, lower node first */
    int axis;   /* 0 x, 1 y, 2 z */
    int off[3]; /* offset of corner a */
} edgeinfo;

/* One unit's record (a slot of the record ring, unit u in slot u % nrec). A unit is a block
 * of `urows` cell rows of one layer. */
typedef struct unitrec {
    atomic_int state;      /* 0 free, 1 started (tid, start set), 2 done (all set) */
    int tid;               /* thread whose ring holds the row's polygons */
    int64_t unit;          /* the unit held */
    uint64_t start, count; /* ring positions of its polygons: [start, start + count) */
    uint64_t active, tris; /* the row's statistics */
} unitrec;

/* One thread: its polygon ring and scratch. The ring is written by its thread only and
 * read (emitted) by the calling thread; positions only grow, offset = position % cap. */
typedef struct worker {
    alignas(64) atomic_uint_fast64_t w; /* published write position */
    alignas(64) atomic_uint_fast64_t r; /* everything before it is emitted (master) */
    alignas(64) uint64_t wl;            /* the thread's own write position */
    uint64_t base;                      /* where it last started over at the ring's origin */
    pv_iso_poly *ring;
    uint64_t cap;
    void *cmin, *cmax;     /* column minima / maxima of q (nx entries) */
    uint8_t *act;          /* cell activity (nx rounded up to 8, zero tail) */
    int *ord;              /* caller indices of one cell's levels (unsorted levels only) */
    uint64_t active, tris; /* running statistics */
} worker;

/* The calling thread's emission state. */
typedef struct master {
    int64_t eu; /* earliest row not completely emitted */
    bool begun; /* its polygons are joined to the pending run */
    int pt;     /* pending run: thread (-1 none), ring positions [ps, pe) */
    uint64_t ps, pe;
    uint64_t rows, active, polys, tris; /* statistics of the emitted units */
    int status;
    pv_iso_emit_fn emit;
    void *ud;
} master;

typedef struct job {
    const lvinfo *L;
    const pv_iso_polys *ptab;
    edgeinfo edge[12];
    int64_t cornoff[8]; /* node index offset of each corner */
    int qw;             /* bytes per q */
    int64_t nx, ny, rows;
    int64_t k0, k1;
    const float **vp; /* value planes k0..k1 (index k - k0) */
    /* q planes: a ring of `ring` planes (plane P in slot P % ring), each in qblocks blocks
     * of node rows (block b: node rows b*urows + 1 .. (b+1)*urows, block 0 also row 0: the
     * rows unit b's cells read, except the first, which is the previous block's last);
     * qstate[slot *
     * qblocks + b] = 2P + 1 while block b of plane P is being classified, 2P + 2 once it is
     * ready */
    int ring;
    void *q;
    int64_t qblocks;
    atomic_int_fast64_t *qstate;
    /* the rows */
    /* the units: the cell rows of a layer in blocks of urows, upl blocks per layer */
    int64_t urows, upl;
    int64_t total; /* units of the call: (k1 - k0) * upl */
    int64_t nrec;  /* record slots */
    unitrec *rec;
    atomic_int_fast64_t next;    /* next row to hand out */
    atomic_int_fast64_t emitted; /* rows completely emitted (a prefix) */
    atomic_int stop;             /* the callback stopped the extraction */
    atomic_int starving;         /* threads waiting for room in their ring */
    worker *wk;
} job;

/* what a thread needs while it works: itself, and the master state if it is the caller */
typedef struct tctx {
    job *jb;
    worker *self;
    int tid;
    master *M; /* NULL on the other threads */
} tctx;

/* ---- levels ---------------------------------------------------------------------------- */

static float threshold(double s)
{
    if (s != s || s == -HUGE_VAL) return -INFINITY; /* a NaN level is never crossed */
    if (s > (double)FLT_MAX) return INFINITY;
    if (s < -(double)FLT_MAX) return -FLT_MAX;
    float t = (float)s;
    if ((double)t < s) t = nextafterf(t, INFINITY);
    return t;
}

static double sort_key(double s) { return s != s ? -HUGE_VAL : s; }

static bool levels_init(lvinfo *L, const double *levels, int n)
{
    memset(L, 0, sizeof *L);
    L->n = n;
    L->value = levels;
    L->pad = malloc((size_t)(2 * n + 2) * sizeof *L->pad);
    L->orig = malloc((size_t)n * sizeof *L->orig);
    L->rank = malloc((size_t)n * sizeof *L->rank);
    if (!L->pad || !L->orig || !L->rank) return false;
    L->thr = L->pad + 1;
    L->pad[0] = -INFINITY;
    for (int l = n; l <= 2 * n; l++) L->thr[l] = NAN;
    for (L->top = 1; 2 * L->top <= n; L->top *= 2) continue;
    for (int l = 0; l < n; l++) L->orig[l] = l;
    /* stable sort (ties keep the caller's order), a NaN level counting as -inf: insertion
     * for a few levels, bottom-up merge for many */
    {
        if (n <= 64) {
            for (int l = 1; l < n; l++) {
                int x = L->orig[l], m = l;
                double kx = sort_key(levels[x]);
                while (m > 0) {
                    int y = L->orig[m - 1];
                    double ky = sort_key(levels[y]);
                    if (ky <= kx) break;
                    L->orig[m] = y;
                    m--;
                }
                L->orig[m] = x;
            }
        } else {
            typedef struct {
                double k;
                int i;
            } kv;
            kv *a = malloc((size_t)n * sizeof *a);
            if (!a) return false;
            for (int l = 0; l < n; l++) {
                a[l].k = sort_key(levels[l]);
                a[l].i = l;
            }
            kv *b = malloc((size_t)n * sizeof *b);
            if (!b) {
                free(a);
                return false;
            }
            for (int w = 1; w < n; w *= 2) {
                for (int lo = 0; lo < n; lo += 2 * w) {
                    int mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
                    int p = lo, q = mid, o = lo;
                    while (p < mid && q < hi) b[o++] = a[q].k < a[p].k ? a[q++] : a[p++];
                    while (p < mid) b[o++] = a[p++];
                    while (q < hi) b[o++] = a[q++];
                }
                kv *t = a;
                a = b;
                b = t;
            }
            for (int l = 0; l < n; l++) L->orig[l] = a[l].i;
            free(a);
            free(b);
        }
    }
    L->identity = true;
    for (int l = 0; l < n; l++) {
        L->rank[L->orig[l]] = l;
        L->thr[l] = threshold(levels[L->orig[l]]);
        if (L->orig[l] != l) L->identity = false;
    }
    if (n == 1) {
        L->mode = Q_ONE;
    } else if (n <= FEW_LEVELS) {
        L->mode = Q_FEW;
    } else {
        L->mode = Q_SEARCH;
        double t0 = (double)L->thr[0], t1 = (double)L->thr[n - 1];
        double step = (t1 - t0) / (n - 1);
        if (isfinite(t0) && isfinite(t1) && step > 0.0 && isfinite(1.0 / step)) {
            bool even = true;
            for (int l = 0; l < n && even; l++)
                if (fabs((double)L->thr[l] - (t0 + l * step)) > 0.25 * step) even = false;
            if (even && 1.0 / step < (double)FLT_MAX) {
                L->mode = Q_SPACED;
                L->t0 = L->thr[0];
                L->inv_step = (float)(1.0 / step);
                L->step = (float)step;
                L->arith = true;
                for (int l = 0; l < n; l++)
                    if (L->thr[l] != L->t0 + (float)l * L->step) L->arith = false;
            }
        }
    }
    return true;
}

static void levels_fini(lvinfo *L)
{
    free(L->pad);
    free(L->orig);
    free(L->rank);
}

/* q of one node by binary search (the fallback of the guessing classifiers); v is not NaN */
static inline unsigned q_search(const lvinfo *L, float v)
{
    const float *t = L->thr;
    unsigned lo = 0, len = (unsigned)L->n; /* answer in [lo, lo + len] */
    while (len > 0) {
        unsigned half = len / 2;
        if (v >= t[lo + half]) {
            lo += half + 1;
            len -= half + 1;
        } else {
            len = half;
        }
    }
    return lo;
}

#define QSUB 512 /* nodes per pass of the many-level classifiers (stack arrays) */

/* Many equally spaced levels: g = floor((v - t0) / step) + 1, then one step down or up
 * against the thresholds themselves (gathers); a lane the guess missed by more than one is
 * redone by search. NaN lanes get any value (masked by the caller). */
PV_CLONES static void q_guess(const lvinfo *L, const float *restrict v, int32_t *restrict g,
                              size_t m)
{
    const float *t = L->thr, t0 = L->t0, inv = L->inv_step, nf = (float)L->n;
    const int32_t n = L->n;
    int bad = 0;
    for (size_t i = 0; i < m; i++) { /* written so that it vectorises (gathers) */
        float u = v[i] == v[i] ? v[i] : t0;
        float x = (u - t0) * inv;
        x = x > 0.0f ? x : 0.0f;
        x = x < nf ? x : nf;
        int32_t k = (int32_t)x + 1;
        k = k < n ? k : n;
        int32_t down = u < t[k - 1], up = u >= t[k];
        k = k - down + up;
        g[i] = k;
        bad |= (u < t[k - 1]) | (u >= t[k]);
    }
    if (!bad) return;
    for (size_t i = 0; i < m; i++)
        if (v[i] == v[i] && (v[i] < t[g[i] - 1] || v[i] >= t[g[i]]))
            g[i] = (int32_t)q_search(L, v[i]);
}

/* Many equally spaced levels whose thresholds are t0 + l * step to the bit (float, no
 * contraction): as q_guess with the neighbouring thresholds computed, not gathered. */
PV_CLONES static void q_arith(const lvinfo *L, const float *restrict v, int32_t *restrict g,
                              size_t m)
{
    const float t0 = L->t0, h = L->step, inv = L->inv_step, nf = (float)L->n;
    const int32_t n = L->n;
    int bad = 0;
    for (size_t i = 0; i < m; i++) {
        float u = v[i] == v[i] ? v[i] : t0;
        float x = (u - t0) * inv;
        x = x > 0.0f ? x : 0.0f;
        x = x < nf ? x : nf;
        int32_t k = (int32_t)x + 1;
        k = k < n ? k : n; /* 1 <= k <= n: thr[k - 1] exists */
        int32_t down = u < t0 + (float)(k - 1) * h;
        int32_t up = (k < n) & (u >= t0 + (float)k * h);
        k = k - down + up;
        g[i] = k;
        bad |= ((k > 0) & (u < t0 + (float)(k - 1) * h)) | ((k < n) & (u >= t0 + (float)k * h));
    }
    if (!bad) return;
    const float *t = L->thr;
    for (size_t i = 0; i < m; i++)
        if (v[i] == v[i] && (v[i] < t[g[i] - 1] || v[i] >= t[g[i]]))
            g[i] = (int32_t)q_search(L, v[i]);
}

/* Many levels, any spacing: branchless binary lifting, one gather per step and lane. */
PV_CLONES static void q_lift(const lvinfo *L, const float *restrict v, int32_t *restrict g,
                             size_t m)
{
    const float *t = L->thr;
    for (size_t i = 0; i < m; i++) g[i] = 0;
    for (int32_t step = L->top; step > 0; step /= 2)
        for (size_t i = 0; i < m; i++) g[i] += v[i] >= t[g[i] + step - 1] ? step : 0;
}

/* ---- the typed, vectorisable loops: q of a node range, and row activity ----------------- */

#define DEF_QLOOPS(T, S)                                                                           \
    PV_CLONES static void qnodes_##S(const lvinfo *L, const float *restrict v, T *restrict q,      \
                                     size_t n)                                                     \
    {                                                                                              \
        switch (L->mode) {                                                                         \
        case Q_ONE: {                                                                              \
            const float t0 = L->thr[0];                                                            \
            for (size_t i = 0; i < n; i++) q[i] = (T)(v[i] >= t0);                                 \
            break;                                                                                 \
        }                                                                                          \
        case Q_FEW:                                                                                \
            for (size_t i = 0; i < n; i++) q[i] = 0;                                               \
            for (int l = 0; l < L->n; l++) {                                                       \
                const float t = L->thr[l];                                                         \
                for (size_t i = 0; i < n; i++) q[i] = (T)(q[i] + (T)(v[i] >= t));                  \
            }                                                                                      \
            break;                                                                                 \
        case Q_SPACED:                                                                             \
        default:                                                                                   \
            for (size_t i0 = 0; i0 < n; i0 += QSUB) {                                              \
                size_t m = n - i0 < QSUB ? n - i0 : QSUB;                                          \
                int32_t g[QSUB];                                                                   \
                if (L->mode == Q_SPACED && L->arith)                                               \
                    q_arith(L, v + i0, g, m);                                                      \
                else if (L->mode == Q_SPACED)                                                      \
                    q_guess(L, v + i0, g, m);                                                      \
                else                                                                               \
                    q_lift(L, v + i0, g, m);                                                       \
                for (size_t i = 0; i < m; i++) q[i0 + i] = (T)g[i];                                \
            }                                                                                      \
            break;                                                                                 \
        }                                                                                          \
    }                                                                                              \
    /* activity of the nx-1 cells between rows a, b (plane k) and c, d (plane k+1); returns \
     * whether any cell is active */      \
    PV_CLONES static int rowact_##S(const T *restrict a, const T *restrict b, const T *restrict c, \
                                    const T *restrict d, T *restrict cmin, T *restrict cmax,       \
                                    uint8_t *restrict act, size_t nx)                              \
    {                                                                                              \
        uint8_t any = 0;                                                                           \
        for (size_t i = 0; i < nx; i++) {                                                          \
            T x = a[i] < b[i] ? a[i] : b[i], y = c[i] < d[i] ? c[i] : d[i];                        \
            T u = a[i] > b[i] ? a[i] : b[i], w = c[i] > d[i] ? c[i] : d[i];                        \
            cmin[i] = x < y ? x : y;                                                               \
            cmax[i] = u > w ? u : w;                                                               \
        }                                                                                          \
        for (size_t i = 0; i + 1 < nx; i++) {                                                      \
            T lo = cmin[i] < cmin[i + 1] ? cmin[i] : cmin[i + 1];                                  \
            T hi = cmax[i] > cmax[i + 1] ? cmax[i] : cmax[i + 1];                                  \
            act[i] = (uint8_t)(lo < hi);                                                           \
            any |= act[i];                                                                         \
        }                                                                                          \
        return any;                                                                                \
    }

DEF_QLOOPS(uint8_t, u8)
DEF_QLOOPS(uint16_t, u16)
DEF_QLOOPS(uint32_t, u32)

static void qnodes(const job *jb, const float *v, void *q, size_t n)
{
    switch (jb->qw) {
    case 1: qnodes_u8(jb->L, v, q, n); break;
    case 2: qnodes_u16(jb->L, v, q, n); break;
    default: qnodes_u32(jb->L, v, q, n); break;
    }
}

static inline unsigned qget(const void *p, int w, int64_t i)
{
    if (w == 1) return ((const uint8_t *)p)[i];
    if (w == 2) return ((const uint16_t *)p)[i];
    return ((const uint32_t *)p)[i];
}

/* ---- waiting -------------------------------------------------------------------------- */

static void master_step(job *jb, master *M);

/* One round of waiting: the calling thread emits what it can (it may be the one everybody
 * waits for), the others spin a little and then yield the core. */
static void pause_once(tctx *c, int *spins)
{
    if (c->M) {
        master_step(c->jb, c->M);
        if (++*spins > 16) sched_yield();
        return;
    }
    if (++*spins > 64) sched_yield();
}

static bool stopped(const job *jb)
{
    return atomic_load_explicit(&jb->stop, memory_order_relaxed) != 0;
}

/* ---- one cell ----------------------------------------------------------------------- */

/* Room for `more` polygons in the thread's ring; false if the extraction was stopped. */
static bool room(tctx *c, uint64_t more)
{
    worker *me = c->self;
    int spins = 0;
    bool told = false;
    for (;;) {
        /* in use: from what is not emitted yet, or from the last restart at the origin
         * (everything before it was emitted; the gap holds nothing) */
        uint64_t r = atomic_load_explicit(&me->r, memory_order_acquire);
        if (me->wl + more - (r > me->base ? r : me->base) <= me->cap) break;
        if (!told && !c->M) atomic_fetch_add(&c->jb->starving, 1);
        told = !c->M;
        if (stopped(c->jb)) break;
        pause_once(c, &spins);
    }
    if (told) atomic_fetch_sub(&c->jb->starving, 1);
    return !stopped(c->jb);
}

static inline void put_head(pv_iso_poly *y, uint8_t nv, uint16_t level, uint64_t item)
{
    /* the first 8 bytes (nv, level and the padding between) as one store: every byte of
     * an emitted polygon is defined */
    pv_iso_poly h;
    memset(&h, 0, offsetof(pv_iso_poly, item));
    h.nv = nv;
    h.level = level;
    memcpy(y, &h, offsetof(pv_iso_poly, item));
    y->item = item;
}

/* Where level L cuts the edge from node a (value va) to node b (vb), crossed by the case
 * (one end below L, the other not), as a fraction of the edge from a: strictly inside the
 * edge (see the header: ties), a function of (L, va, vb) alone. An undefined quotient
 * (infinite values at both ends, or an infinite end and level) puts it in the middle. */
static inline double cut_at(double L, double va, double vb)
{
    double t = (L - va) / (vb - va);
    if (t != t) return 0.5;
    if (t < PV_ISO_T_MIN) return PV_ISO_T_MIN;
    if (t > 1.0 - PV_ISO_T_MIN) return 1.0 - PV_ISO_T_MIN;
    return t;
}

/* The polygons of sorted level l (caller index o) in the cell at node index `cell`. */
static bool cell_level(tctx *c, uint64_t cell, const int64_t ijk[3], const unsigned q[8],
                       const float v[8], unsigned l, int o)
{
    const job *jb = c->jb;
    unsigned cs = 0;
    for (int b = 0; b < 8; b++) cs |= (unsigned)(q[b] <= l) << b;
    const pv_iso_polys *P = &jb->ptab[cs];
    if (!P->npolys) return true;
    if (!room(c, P->npolys)) return false;
    const double L = jb->L->value[o];
    double pos[12][3];
    uint64_t id[12];
    for (unsigned m = P->emask; m; m &= m - 1) {
        int e = __builtin_ctz(m);
        const edgeinfo *E = &jb->edge[e];
        double va = (double)v[E->a], vb = (double)v[E->b];
        double t = cut_at(L, va, vb);
        for (int a = 0; a < 3; a++) pos[e][a] = (double)(ijk[a] + E->off[a]);
        pos[e][E->axis] += t;
        id[e] = (cell + (uint64_t)jb->cornoff[E->a]) * 3u + (uint64_t)E->axis;
    }
    worker *me = c->self;
    uint64_t off = me->wl % me->cap;
    for (int p = 0; p < P->npolys; p++) {
        pv_iso_poly *y = &me->ring[off];
        if (++off == me->cap) off = 0;
        put_head(y, P->nv[p], (uint16_t)o, cell * PV_ISO_MAX_POLYS + (uint64_t)p);
        for (int s = 0; s < 4; s++) {
            int e = P->e[p][s];
            y->v[s][0] = pos[e][0];
            y->v[s][1] = pos[e][1];
            y->v[s][2] = pos[e][2];
            y->edge[s] = id[e];
        }
    }
    me->wl += P->npolys;
    atomic_store_explicit(&me->w, me->wl, memory_order_release);
    me->active++;
    me->tris += P->ntris;
    return true;
}

static bool cell_all(tctx *c, uint64_t cell, const int64_t ijk[3], const unsigned q[8],
                     const float v[8])
{
    unsigned lo = q[0], hi = q[0];
    for (int b = 1; b < 8; b++) {
        lo = q[b] < lo ? q[b] : lo;
        hi = q[b] > hi ? q[b] : hi;
    }
    const lvinfo *L = c->jb->L;
    if (L->identity) {
        for (unsigned l = lo; l < hi; l++)
            if (!cell_level(c, cell, ijk, q, v, l, (int)l)) return false;
        return true;
    }
    /* emit in caller-index order */
    int n = (int)(hi - lo), *ord = c->self->ord;
    for (int m = 0; m < n; m++) {
        int x = L->orig[lo + (unsigned)m], p = m;
        while (p > 0 && ord[p - 1] > x) {
            ord[p] = ord[p - 1];
            p--;
        }
        ord[p] = x;
    }
    for (int m = 0; m < n; m++)
        if (!cell_level(c, cell, ijk, q, v, (unsigned)L->rank[ord[m]], ord[m])) return false;
    return true;
}

/* ---- q planes, classified on demand ------------------------------------------------------ */

/* Block b of plane P classified; false if stopped. The slot's previous plane P - ring was
 * read by the rows of layers P - ring - 1 and P - ring, which must all be emitted first. */
static bool need_q(tctx *c, int64_t P, int64_t b)
{
    job *jb = c->jb;
    int spins = 0;
    int64_t old = P - jb->ring; /* last layer reading the slot's previous plane */
    if (old >= jb->k0) {
        int64_t need = (old - jb->k0 + 1) * jb->upl;
        while (atomic_load_explicit(&jb->emitted, memory_order_acquire) < need) {
            if (stopped(jb)) return false;
            pause_once(c, &spins);
        }
    }
    int slot = (int)(P % jb->ring);
    atomic_int_fast64_t *st = &jb->qstate[(int64_t)slot * jb->qblocks + b];
    for (;;) {
        int_fast64_t x = atomic_load_explicit(st, memory_order_acquire);
        if (x == 2 * P + 2) return true;
        if (x != 2 * P + 1 && atomic_compare_exchange_strong(st, &x, 2 * P + 1)) {
            const int64_t np = jb->nx * jb->ny;
            int64_t r0 = b == 0 ? 0 : b * jb->urows + 1, r1 = (b + 1) * jb->urows + 1;
            int64_t n0 = r0 * jb->nx, n1 = (r1 < jb->ny ? r1 : jb->ny) * jb->nx;
            qnodes(jb, jb->vp[P - jb->k0] + n0,
                   (char *)jb->q + ((size_t)slot * (size_t)np + (size_t)n0) * (size_t)jb->qw,
                   (size_t)(n1 - n0));
            atomic_store_explicit(st, 2 * P + 2, memory_order_release);
            return true;
        }
        if (stopped(jb)) return false;
        pause_once(c, &spins);
    }
}

/* ---- one cell row --------------------------------------------------------------------- */

static bool row_cells(tctx *c, int64_t k, int64_t j)
{
    const job *jb = c->jb;
    worker *me = c->self;
    const int64_t nx = jb->nx, np = nx * jb->ny;
    const int w = jb->qw;
    const int s0 = (int)(k % jb->ring), s1 = (int)((k + 1) % jb->ring);
    const char *q0 = (const char *)jb->q + (size_t)s0 * (size_t)np * (size_t)w;
    const char *q1 = (const char *)jb->q + (size_t)s1 * (size_t)np * (size_t)w;
    const void *qa = q0 + (size_t)(j * nx) * (size_t)w,
               *qb = q0 + (size_t)((j + 1) * nx) * (size_t)w;
    const void *qc = q1 + (size_t)(j * nx) * (size_t)w,
               *qd = q1 + (size_t)((j + 1) * nx) * (size_t)w;
    int any;
    switch (w) {
    case 1: any = rowact_u8(qa, qb, qc, qd, me->cmin, me->cmax, me->act, (size_t)nx); break;
    case 2: any = rowact_u16(qa, qb, qc, qd, me->cmin, me->cmax, me->act, (size_t)nx); break;
    default: any = rowact_u32(qa, qb, qc, qd, me->cmin, me->cmax, me->act, (size_t)nx); break;
    }
    if (!any) return true;
    const float *va = jb->vp[k - jb->k0] + j * nx, *vb = va + nx;
    const float *vc = jb->vp[k + 1 - jb->k0] + j * nx, *vd = vc + nx;
    const int64_t ncell = nx - 1;
    const uint64_t rowbase = (uint64_t)((k * jb->ny + j) * nx);
    for (int64_t i0 = 0; i0 < ncell; i0 += 8) {
        uint64_t word;
        memcpy(&word, me->act + i0, 8);
        if (!word) continue;
        for (int64_t i = i0; i < i0 + 8 && i < ncell; i++) {
            if (!me->act[i]) continue;
            unsigned q[8] = {qget(qa, w, i),     qget(qa, w, i + 1), qget(qb, w, i + 1),
                             qget(qb, w, i),     qget(qc, w, i),     qget(qc, w, i + 1),
                             qget(qd, w, i + 1), qget(qd, w, i)};
            float v[8] = {va[i], va[i + 1], vb[i + 1], vb[i], vc[i], vc[i + 1], vd[i + 1], vd[i]};
            bool nan = false;
            for (int b = 0; b < 8; b++) nan |= v[b] != v[b];
            if (nan) continue; /* a NaN corner: the cell emits nothing */
            int64_t ijk[3] = {i, j, k};
            if (!cell_all(c, rowbase + (uint64_t)i, ijk, q, v)) return false;
        }
    }
    return true;
}

/* Unit u of the call: wait for its record slot and q blocks, then its rows. Its rows read
 * the node rows of its own q block and the last node row of the previous block, claimed by
 * the previous unit's thread (which started first, so it is usually ready). */
static bool run_unit(tctx *c, int64_t u)
{
    job *jb = c->jb;
    worker *me = c->self;
    int spins = 0;
    while (u - atomic_load_explicit(&jb->emitted, memory_order_acquire) >= jb->nrec) {
        if (stopped(jb)) return false;
        pause_once(c, &spins);
    }
    int64_t k = jb->k0 + u / jb->upl, b = u % jb->upl;
    int64_t j0 = b * jb->urows, j1 = j0 + jb->urows < jb->rows ? j0 + jb->urows : jb->rows;
    if (!need_q(c, k, b) || !need_q(c, k + 1, b)) return false;
    if (b > 0 && (!need_q(c, k, b - 1) || !need_q(c, k + 1, b - 1))) return false;
    /* an empty ring starts over at its origin: the pages in use stay few */
    if (atomic_load_explicit(&me->r, memory_order_acquire) == me->wl && me->wl % me->cap) {
        me->wl += me->cap - me->wl % me->cap;
        me->base = me->wl;
    }
    unitrec *r = &jb->rec[u % jb->nrec];
    r->unit = u;
    r->tid = c->tid;
    r->start = me->wl;
    uint64_t a0 = me->active, t0 = me->tris;
    atomic_store_explicit(&me->w, me->wl, memory_order_release);
    atomic_store_explicit(&r->state, 1, memory_order_release);
    for (int64_t j = j0; j < j1; j++) {
        if (!row_cells(c, k, j)) return false;
        /* the calling thread drains the rings of threads waiting for room */
        if (c->M && atomic_load_explicit(&jb->starving, memory_order_relaxed))
            master_step(jb, c->M);
    }
    r->count = me->wl - r->start;
    r->active = me->active - a0;
    r->tris = me->tris - t0;
    atomic_store_explicit(&r->state, 2, memory_order_release);
    return true;
}

/* ---- emission (the calling thread only) ------------------------------------------------ */

/* Emit the pending run: all of it, or (full_only) while at least FLUSH_MIN polygons are
 * pending (a thread's ring holds more than FLUSH_MIN + a cell's polygons, so a running unit
 * that filled its ring can always be drained). */
static void flush(job *jb, master *M, bool full_only)
{
    if (M->pt < 0 || M->status) return;
    worker *t = &jb->wk[M->pt];
    while (M->pe > M->ps) {
        uint64_t n = M->pe - M->ps;
        if (n < FLUSH_MIN && full_only) break;
        if (n > PV_ISO_BATCH) n = PV_ISO_BATCH;
        uint64_t off = M->ps % t->cap;
        if (off + n > t->cap) n = t->cap - off; /* up to the ring's end */
        int rc = M->emit(M->ud, t->ring + off, (size_t)n);
        M->ps += n;
        atomic_store_explicit(&t->r, M->ps, memory_order_release);
        if (rc) {
            M->status = rc;
            atomic_store_explicit(&jb->stop, 1, memory_order_relaxed);
            return;
        }
    }
}

/* Emit what is ready, in row order: completed rows, and whole batches of the earliest
 * row still being computed. */
static void master_step(job *jb, master *M)
{
    while (M->eu < jb->total && !M->status) {
        unitrec *r = &jb->rec[M->eu % jb->nrec];
        int st = atomic_load_explicit(&r->state, memory_order_acquire);
        if (st == 0 || r->unit != M->eu) return; /* not started */
        if (!M->begun) {
            if (M->pt != r->tid || M->pe != r->start) {
                flush(jb, M, false);
                if (M->status) return;
                M->pt = r->tid;
                M->ps = M->pe = r->start;
                atomic_store_explicit(&jb->wk[r->tid].r, r->start, memory_order_release);
            }
            M->begun = true;
        }
        if (st == 1) { /* in progress: its polygons so far */
            /* w read before the state again: if the row is still running, w is its own
             * (the thread publishes "done" before it writes its next row) */
            uint64_t w = atomic_load_explicit(&jb->wk[r->tid].w, memory_order_acquire);
            if (atomic_load_explicit(&r->state, memory_order_acquire) == 1) {
                M->pe = w;
                flush(jb, M, true);
                return;
            }
        }
        M->pe = r->start + r->count;
        int64_t b = M->eu % jb->upl, j0 = b * jb->urows;
        M->rows += (uint64_t)((j0 + jb->urows < jb->rows ? j0 + jb->urows : jb->rows) - j0);
        M->active += r->active;
        M->polys += r->count;
        M->tris += r->tris;
        atomic_store_explicit(&r->state, 0, memory_order_relaxed);
        M->eu++;
        M->begun = false;
        atomic_store_explicit(&jb->emitted, M->eu, memory_order_release);
        flush(jb, M, true);
    }
}

/* ---- driver ---------------------------------------------------------------------------- */

static void thread_main(job *jb, master *M, int tid)
{
    tctx c = {jb, &jb->wk[tid], tid, tid == 0 ? M : NULL};
    for (;;) {
        if (c.M) master_step(jb, M);
        if (stopped(jb)) break;
        int64_t u = atomic_fetch_add(&jb->next, 1);
        if (u >= jb->total || !run_unit(&c, u)) break;
    }
    if (!c.M) return;
    /* the rows handed out are finished by their threads: emit them all */
    int spins = 0;
    while (M->eu < jb->total && !stopped(jb)) {
        master_step(jb, M);
        if (M->eu < jb->total) pause_once(&c, &spins);
    }
    flush(jb, M, false);
}

int pv_iso_extract(const pv_iso_field *f, int64_t k0, int64_t k1, const double *levels, int nlevels,
                   const pv_iso_opts *o, pv_iso_emit_fn emit, void *ud, pv_iso_stats *stats)
{
    if (k0 < 0) k0 = 0;
    if (k1 > f->nz - 1) k1 = f->nz - 1;
    if (f->nx < 2 || f->ny < 2 || k1 <= k0 || nlevels <= 0) return 0;
    const int64_t nx = f->nx, ny = f->ny, rows = ny - 1, np = nx * ny;

    job *jb = calloc(1, sizeof *jb);
    lvinfo L;
    memset(&L, 0, sizeof L);
    if (!jb) return PV_ENOMEM;
    int nt = o && o->nthreads > 0 ? o->nthreads : omp_get_max_threads();
    if (nt < 1) nt = 1;
    bool ok = levels_init(&L, levels, nlevels);
    jb->L = &L;
    jb->ptab = pv_iso_polys_table(o ? o->mixed : false);
    for (int e = 0; e < 12; e++) {
        edgeinfo *E = &jb->edge[e];
        int off[3], offb[3];
        pv_iso_edge_corners(e, &E->a, &E->b);
        pv_iso_corner_offset(E->a, off);
        pv_iso_corner_offset(E->b, offb);
        for (int a = 0; a < 3; a++) {
            E->off[a] = off[a];
            if (offb[a] != off[a]) E->axis = a;
        }
    }
    for (int c = 0; c < 8; c++) {
        int off[3];
        pv_iso_corner_offset(c, off);
        jb->cornoff[c] = off[0] + off[1] * nx + off[2] * np;
    }
    jb->qw = nlevels <= 255 ? 1 : nlevels <= 65535 ? 2 : 4;
    jb->nx = nx;
    jb->ny = ny;
    jb->rows = rows;
    jb->k0 = k0;
    jb->k1 = k1;
    /* units of about UNIT_CELLS cells: a thread talks to the others once per unit */
    jb->urows = UNIT_CELLS / (nx - 1);
    if (jb->urows < 1) jb->urows = 1;
    if (jb->urows > rows) jb->urows = rows;
    jb->upl = (rows + jb->urows - 1) / jb->urows;
    jb->total = (k1 - k0) * jb->upl;
    jb->qblocks = jb->upl;
    jb->ring = (int)(4 + QRING_NODES / np);
    if (jb->ring > 64) jb->ring = 64;
    jb->nrec = (jb->ring + 1) * jb->upl + 4 * (int64_t)nt + 16;
    atomic_init(&jb->next, 0);
    atomic_init(&jb->emitted, 0);
    atomic_init(&jb->stop, 0);
    atomic_init(&jb->starving, 0);
    size_t wsize = (size_t)nt * sizeof(worker);
    if (ok) {
        jb->vp = malloc((size_t)(k1 - k0 + 1) * sizeof *jb->vp);
        jb->q = malloc((size_t)jb->ring * (size_t)np * (size_t)jb->qw);
        jb->qstate = malloc((size_t)jb->ring * (size_t)jb->qblocks * sizeof *jb->qstate);
        jb->rec = malloc((size_t)jb->nrec * sizeof *jb->rec);
        jb->wk = aligned_alloc(alignof(worker), wsize);
        ok = jb->vp && jb->q && jb->qstate && jb->rec && jb->wk;
    }
    if (ok) {
        for (int64_t i = 0; i < jb->ring * jb->qblocks; i++) atomic_init(&jb->qstate[i], 0);
        for (int64_t i = 0; i < jb->nrec; i++) {
            atomic_init(&jb->rec[i].state, 0);
            jb->rec[i].unit = -1;
        }
        memset(jb->wk, 0, wsize);
        for (int t = 0; t < nt; t++) {
            worker *w = &jb->wk[t];
            atomic_init(&w->w, 0);
            atomic_init(&w->r, 0);
            w->cap = RING_POLYS;
            w->ring = malloc(RING_POLYS * sizeof *w->ring);
            w->cmin = malloc(((size_t)nx + 8) * 4);
            w->cmax = malloc(((size_t)nx + 8) * 4);
            w->act = calloc((size_t)nx + 8, 1);
            w->ord = L.identity ? NULL : malloc((size_t)nlevels * sizeof(int));
            ok = ok && w->ring && w->cmin && w->cmax && w->act && (L.identity || w->ord);
        }
    }
    int status = ok ? 0 : PV_ENOMEM;
    master M = {0, false, -1, 0, 0, 0, 0, 0, 0, 0, emit, ud};
    if (ok) {
        /* the planes, asked for by the calling thread, in order */
        for (int64_t p = k0; p <= k1; p++) jb->vp[p - k0] = f->plane(f->ud, p);
#pragma omp parallel num_threads(nt) default(none) shared(jb, M)
        thread_main(jb, &M, omp_get_thread_num());
        status = M.status;
        if (stats) {
            stats->cells += M.rows * (uint64_t)(nx - 1);
            stats->active += M.active;
            stats->polys += M.polys;
            stats->tris += M.tris;
        }
    }
    if (jb->wk)
        for (int t = 0; t < nt; t++) {
            free(jb->wk[t].ring);
            free(jb->wk[t].cmin);
            free(jb->wk[t].cmax);
            free(jb->wk[t].act);
            free(jb->wk[t].ord);
        }
    free(jb->wk);
    free(jb->rec);
    free(jb->qstate);
    free(jb->q);
    free(jb->vp);
    free(jb);
    levels_fini(&L);
    return status;
}
