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
 * a binary search. A NaN node gets q = QMARK (the type's largest value, above every level
 * count), and a cell whose largest q is QMARK is skipped: a cell with a NaN corner emits
 * nothing. q is 8 bits up to 254 levels, 16 bits up to 65534, else 32.
 *
 * Per cell row (j, k): the column minima/maxima of q over the four nodes (i, j..j+1,
 * k..k+1), then per cell the min/max of two columns and an activity byte (vectorised
 * loops); only active cells are visited, by 8-byte words of activity. An active cell emits,
 * for each crossing level in caller-index order, the polygons of its case. A vertex lies on
 * the edge from its lower node a to the upper node b: t = (L - v_a) / (v_b - v_a) and
 * point = a + t (b - a) in double, so every cell sharing the edge (and every slab split)
 * computes the same bits, and its id is the grid edge's.
 *
 * Parallel shape: the cell rows of [k0, k1) are numbered layer by layer (units) and walked
 * in chunks of about CHUNK_CELLS cells. Per chunk the calling thread fetches the planes the
 * chunk reads; one parallel region computes the q planes not yet known (kept in a ring of
 * planes, so each plane is classified once and serves both its layers), then the rows
 * (schedule(dynamic): their cost varies), each thread appending polygons to its own
 * buffer and noting where each row's run starts. After the region the calling thread emits
 * the runs in row order, in batches of at most PV_ISO_BATCH: the order and every bit of the
 * output are independent of the thread count and of how the layers are split into calls.
 * Once a chunk holds POLY_BUDGET polygons its rows not yet started are left out, and the
 * next chunk begins at the first row left out (rows finished after it are recomputed):
 * the buffers hold at most about POLY_BUDGET polygons plus one row per thread, never the
 * whole mesh.
 *
 * Memory is plain malloc (the kernel has no ctx, iso.h); a thread grows its own polygon
 * buffer with realloc inside the region when a chunk outgrows it (glibc's allocator is
 * thread-safe; pv_alloc, which is not, is not used). An allocation failure ends the call
 * with PV_ENOMEM after the region.
 */
#include "iso_int.h"

#include "pvox/core.h"

#include <float.h>
#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__)
#define PV_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define PV_CLONES
#endif

#define CHUNK_CELLS (1 << 20)  /* cells per chunk (one parallel region) */
#define POLY_BUDGET (1 << 17)  /* polygons per chunk (about 18 MiB) before it stops early */
#define FEW_LEVELS 16          /* up to this many: q as a sum of compares */
#define QBLOCK 16384           /* nodes per q work item */

enum { Q_ONE, Q_FEW, Q_SPACED, Q_SEARCH };

typedef struct lvinfo {
    int n;                /* levels */
    int mode;             /* Q_* */
    float *thr;           /* n sorted thresholds: v >= thr[l] iff v >= sorted level l */
    int *orig;            /* sorted index -> caller index */
    int *rank;            /* caller index -> sorted index */
    const double *value;  /* the caller's levels (by caller index) */
    bool identity;        /* orig[l] == l: the caller's levels were sorted */
    float t0, inv_step;   /* Q_SPACED: guess = floor((v - t0) * inv_step) + 1 */
} lvinfo;

typedef struct edgeinfo {
    int a, b;             /* corners, lower node first */
    int axis;             /* 0 x, 1 y, 2 z */
    int off[3];           /* offset of corner a */
} edgeinfo;

typedef struct unitrec {
    int tid;              /* thread whose buffer holds the row's polygons; -1 left out */
    size_t start, count;  /* run in that buffer */
    uint64_t active, tris; /* the row's statistics */
} unitrec;

typedef struct scratch {
    pv_iso_poly *buf;     /* this chunk's polygons of this thread */
    size_t n, cap;
    void *cmin, *cmax;    /* column minima / maxima of q (nx entries) */
    uint8_t *act;         /* cell activity (nx rounded up to 8, zero tail) */
    int *ord;             /* caller indices of one cell's levels (unsorted levels only) */
    uint64_t active, tris;   /* running statistics */
    bool failed;
} scratch;

typedef struct job {
    const pv_iso_field *f;
    const lvinfo *L;
    const pv_iso_polys *ptab;
    edgeinfo edge[12];
    int64_t cornoff[8];   /* node index offset of each corner */
    int qw;               /* bytes per q */
    int64_t nx, ny, rows;
    int64_t k0;
    int ring;             /* planes in the ring */
    void *q;              /* ring of q planes */
    const float **vp;     /* ring of value planes (slot = plane % ring) */
} job;

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
    L->thr = malloc((size_t)n * sizeof *L->thr);
    L->orig = malloc((size_t)n * sizeof *L->orig);
    L->rank = malloc((size_t)n * sizeof *L->rank);
    if (!L->thr || !L->orig || !L->rank) return false;
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
            typedef struct { double k; int i; } kv;
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
            if (even && (float)(1.0 / step) > 0.0f && isfinite((float)(1.0 / step))) {
                L->mode = Q_SPACED;
                L->t0 = L->thr[0];
                L->inv_step = (float)(1.0 / step);
            }
        }
    }
    return true;
}

static void levels_fini(lvinfo *L)
{
    free(L->thr);
    free(L->orig);
    free(L->rank);
}

/* q of one node by search / guess (the scalar modes); v is not NaN */
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

static inline unsigned q_spaced(const lvinfo *L, float v)
{
    const float *t = L->thr;
    int n = L->n, g;
    float x = (v - L->t0) * L->inv_step;
    if (!(x >= 0.0f)) g = 0;
    else if (x >= (float)n) g = n;
    else g = (int)x + 1;
    while (g > 0 && !(v >= t[g - 1])) g--;
    while (g < n && v >= t[g]) g++;
    return (unsigned)g;
}

/* ---- the typed, vectorisable loops: q of a node range, and row activity ----------------- */

#define DEF_QLOOPS(T, S, QMARK)                                                              \
    PV_CLONES static void qnodes_##S(const lvinfo *L, const float *restrict v,               \
                                     T *restrict q, size_t n)                                \
    {                                                                                        \
        switch (L->mode) {                                                                   \
        case Q_ONE: {                                                                        \
            const float t0 = L->thr[0];                                                      \
            for (size_t i = 0; i < n; i++) q[i] = v[i] != v[i] ? (T)QMARK : (T)(v[i] >= t0); \
            break;                                                                           \
        }                                                                                    \
        case Q_FEW:                                                                          \
            for (size_t i = 0; i < n; i++) q[i] = 0;                                         \
            for (int l = 0; l < L->n; l++) {                                                 \
                const float t = L->thr[l];                                                   \
                for (size_t i = 0; i < n; i++) q[i] = (T)(q[i] + (T)(v[i] >= t));            \
            }                                                                                \
            for (size_t i = 0; i < n; i++) q[i] = v[i] != v[i] ? (T)QMARK : q[i];            \
            break;                                                                           \
        case Q_SPACED:                                                                       \
            for (size_t i = 0; i < n; i++)                                                   \
                q[i] = v[i] != v[i] ? (T)QMARK : (T)q_spaced(L, v[i]);                       \
            break;                                                                           \
        default:                                                                             \
            for (size_t i = 0; i < n; i++)                                                   \
                q[i] = v[i] != v[i] ? (T)QMARK : (T)q_search(L, v[i]);                       \
            break;                                                                           \
        }                                                                                    \
    }                                                                                        \
    /* activity of the nx-1 cells between rows a, b (plane k) and c, d (plane k+1) */        \
    PV_CLONES static void rowact_##S(const T *restrict a, const T *restrict b,               \
                                     const T *restrict c, const T *restrict d,               \
                                     T *restrict cmin, T *restrict cmax,                     \
                                     uint8_t *restrict act, size_t nx)                       \
    {                                                                                        \
        for (size_t i = 0; i < nx; i++) {                                                    \
            T x = a[i] < b[i] ? a[i] : b[i], y = c[i] < d[i] ? c[i] : d[i];                  \
            T u = a[i] > b[i] ? a[i] : b[i], w = c[i] > d[i] ? c[i] : d[i];                  \
            cmin[i] = x < y ? x : y;                                                         \
            cmax[i] = u > w ? u : w;                                                         \
        }                                                                                    \
        for (size_t i = 0; i + 1 < nx; i++) {                                                \
            T lo = cmin[i] < cmin[i + 1] ? cmin[i] : cmin[i + 1];                            \
            T hi = cmax[i] > cmax[i + 1] ? cmax[i] : cmax[i + 1];                            \
            act[i] = (uint8_t)((lo < hi) & (hi != (T)QMARK));                                \
        }                                                                                    \
    }

DEF_QLOOPS(uint8_t, u8, UINT8_MAX)
DEF_QLOOPS(uint16_t, u16, UINT16_MAX)
DEF_QLOOPS(uint32_t, u32, UINT32_MAX)

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

/* ---- one cell ----------------------------------------------------------------------- */

static bool reserve(scratch *ts, size_t more)
{
    if (ts->n + more <= ts->cap) return true;
    size_t cap = ts->cap ? ts->cap : 1024;
    while (cap < ts->n + more) cap *= 2;
    pv_iso_poly *nb = realloc(ts->buf, cap * sizeof *nb);
    if (!nb) return false;
    memset(nb + ts->cap, 0, (cap - ts->cap) * sizeof *nb); /* padding bytes stay zero */
    ts->buf = nb;
    ts->cap = cap;
    return true;
}

/* The polygons of sorted level l (caller index o) in the cell at node index `cell`. */
static void cell_level(const job *jb, scratch *ts, uint64_t cell, const int64_t ijk[3],
                       const unsigned q[8], const float v[8], unsigned l, int o)
{
    unsigned cs = 0;
    for (int b = 0; b < 8; b++) cs |= (unsigned)(q[b] <= l) << b;
    const pv_iso_polys *P = &jb->ptab[cs];
    if (!P->npolys) return;
    if (!reserve(ts, P->npolys)) {
        ts->failed = true;
        return;
    }
    const double L = jb->L->value[o];
    double pos[12][3];
    uint64_t id[12];
    for (unsigned m = P->emask; m; m &= m - 1) {
        int e = __builtin_ctz(m);
        const edgeinfo *E = &jb->edge[e];
        double va = (double)v[E->a], vb = (double)v[E->b];
        double t = (L - va) / (vb - va);
        for (int a = 0; a < 3; a++) pos[e][a] = (double)(ijk[a] + E->off[a]);
        pos[e][E->axis] += t;
        id[e] = (cell + (uint64_t)jb->cornoff[E->a]) * 3u + (uint64_t)E->axis;
    }
    pv_iso_poly *out = ts->buf + ts->n;
    for (int p = 0; p < P->npolys; p++) {
        pv_iso_poly *y = &out[p];
        y->nv = P->nv[p];
        y->level = (uint16_t)o;
        y->item = cell * PV_ISO_MAX_POLYS + (uint64_t)p;
        for (int s = 0; s < 4; s++) {
            int e = P->e[p][s];
            y->v[s][0] = pos[e][0];
            y->v[s][1] = pos[e][1];
            y->v[s][2] = pos[e][2];
            y->edge[s] = id[e];
        }
    }
    ts->n += P->npolys;
    ts->active++;
    ts->tris += P->ntris;
}

static void cell_all(const job *jb, scratch *ts, uint64_t cell, const int64_t ijk[3],
                     const unsigned q[8], const float v[8])
{
    unsigned lo = q[0], hi = q[0];
    for (int b = 1; b < 8; b++) {
        lo = q[b] < lo ? q[b] : lo;
        hi = q[b] > hi ? q[b] : hi;
    }
    const lvinfo *L = jb->L;
    if (L->identity) {
        for (unsigned l = lo; l < hi; l++) cell_level(jb, ts, cell, ijk, q, v, l, (int)l);
        return;
    }
    /* emit in caller-index order */
    int n = (int)(hi - lo), *ord = ts->ord;
    for (int m = 0; m < n; m++) {
        int x = L->orig[lo + (unsigned)m], p = m;
        while (p > 0 && ord[p - 1] > x) {
            ord[p] = ord[p - 1];
            p--;
        }
        ord[p] = x;
    }
    for (int m = 0; m < n; m++)
        cell_level(jb, ts, cell, ijk, q, v, (unsigned)L->rank[ord[m]], ord[m]);
}

/* ---- one cell row --------------------------------------------------------------------- */

static void row_cells(const job *jb, scratch *ts, int64_t k, int64_t j)
{
    const int64_t nx = jb->nx, np = nx * jb->ny;
    const int w = jb->qw;
    const int s0 = (int)(k % jb->ring), s1 = (int)((k + 1) % jb->ring);
    const char *q0 = (const char *)jb->q + (size_t)s0 * (size_t)np * (size_t)w;
    const char *q1 = (const char *)jb->q + (size_t)s1 * (size_t)np * (size_t)w;
    const void *qa = q0 + (size_t)(j * nx) * (size_t)w, *qb = q0 + (size_t)((j + 1) * nx) * (size_t)w;
    const void *qc = q1 + (size_t)(j * nx) * (size_t)w, *qd = q1 + (size_t)((j + 1) * nx) * (size_t)w;
    switch (w) {
    case 1: rowact_u8(qa, qb, qc, qd, ts->cmin, ts->cmax, ts->act, (size_t)nx); break;
    case 2: rowact_u16(qa, qb, qc, qd, ts->cmin, ts->cmax, ts->act, (size_t)nx); break;
    default: rowact_u32(qa, qb, qc, qd, ts->cmin, ts->cmax, ts->act, (size_t)nx); break;
    }
    const float *va = jb->vp[s0] + j * nx, *vb = va + nx;
    const float *vc = jb->vp[s1] + j * nx, *vd = vc + nx;
    const int64_t ncell = nx - 1;
    const uint64_t rowbase = (uint64_t)((k * jb->ny + j) * nx);
    for (int64_t i0 = 0; i0 < ncell; i0 += 8) {
        uint64_t word;
        memcpy(&word, ts->act + i0, 8);
        if (!word) continue;
        for (int64_t i = i0; i < i0 + 8 && i < ncell; i++) {
            if (!ts->act[i]) continue;
            unsigned q[8] = {qget(qa, w, i), qget(qa, w, i + 1), qget(qb, w, i + 1),
                             qget(qb, w, i),  qget(qc, w, i),     qget(qc, w, i + 1),
                             qget(qd, w, i + 1), qget(qd, w, i)};
            float v[8] = {va[i], va[i + 1], vb[i + 1], vb[i], vc[i], vc[i + 1], vd[i + 1], vd[i]};
            int64_t ijk[3] = {i, j, k};
            cell_all(jb, ts, rowbase + (uint64_t)i, ijk, q, v);
            if (ts->failed) return;
        }
    }
}

/* ---- driver ---------------------------------------------------------------------------- */

static int emit_runs(const scratch *scr, const unitrec *rec, int64_t nunits, pv_iso_emit_fn emit,
                     void *ud)
{
    int64_t u = 0;
    while (u < nunits) {
        int tid = rec[u].tid;
        size_t start = rec[u].start, end = start + rec[u].count;
        int64_t v = u + 1;
        while (v < nunits && rec[v].tid == tid && rec[v].start == end) end += rec[v++].count;
        for (size_t s = start; s < end; s += PV_ISO_BATCH) {
            size_t n = end - s < PV_ISO_BATCH ? end - s : PV_ISO_BATCH;
            int rc = emit(ud, scr[tid].buf + s, n);
            if (rc) return rc;
        }
        u = v;
    }
    return 0;
}

int pv_iso_extract(const pv_iso_field *f, int64_t k0, int64_t k1, const double *levels,
                   int nlevels, const pv_iso_opts *o, pv_iso_emit_fn emit, void *ud,
                   pv_iso_stats *stats)
{
    if (k0 < 0) k0 = 0;
    if (k1 > f->nz - 1) k1 = f->nz - 1;
    if (f->nx < 2 || f->ny < 2 || k1 <= k0 || nlevels <= 0) return 0;
    const int64_t nx = f->nx, ny = f->ny, rows = ny - 1, np = nx * ny;
    const int64_t nunits_all = (k1 - k0) * rows;

    job jb;
    memset(&jb, 0, sizeof jb);
    lvinfo L;
    int nt = o && o->nthreads > 0 ? o->nthreads : omp_get_max_threads();
    if (nt < 1) nt = 1;
    int status = 0;
    scratch *scr = NULL;
    unitrec *rec = NULL;
    bool ok = levels_init(&L, levels, nlevels);
    jb.f = f;
    jb.L = &L;
    jb.ptab = pv_iso_polys_table(o ? o->mixed : false);
    for (int e = 0; e < 12; e++) {
        edgeinfo *E = &jb.edge[e];
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
        jb.cornoff[c] = off[0] + off[1] * nx + off[2] * np;
    }
    jb.qw = nlevels <= 254 ? 1 : nlevels <= 65534 ? 2 : 4;
    jb.nx = nx;
    jb.ny = ny;
    jb.rows = rows;
    jb.k0 = k0;

    int64_t cu_max = CHUNK_CELLS / (nx - 1); /* rows per chunk */
    if (cu_max < 1) cu_max = 1;
    if (cu_max > nunits_all) cu_max = nunits_all;
    jb.ring = (int)(cu_max / rows + 3);
    if (ok) {
        jb.q = malloc((size_t)jb.ring * (size_t)np * (size_t)jb.qw);
        jb.vp = calloc((size_t)jb.ring, sizeof *jb.vp);
        scr = calloc((size_t)nt, sizeof *scr);
        rec = malloc((size_t)cu_max * sizeof *rec);
        ok = jb.q && jb.vp && scr && rec;
    }
    size_t rowbytes = ((size_t)nx + 8) * 4;
    for (int t = 0; ok && t < nt; t++) {
        scr[t].cmin = malloc(rowbytes);
        scr[t].cmax = malloc(rowbytes);
        scr[t].act = calloc((size_t)nx + 8, 1);
        scr[t].ord = L.identity ? NULL : malloc((size_t)nlevels * sizeof(int));
        ok = scr[t].cmin && scr[t].cmax && scr[t].act && (L.identity || scr[t].ord);
    }
    if (!ok) status = PV_ENOMEM;

    /* q planes known: [max(k0, qhi - ring + 1), qhi]; a chunk's planes span at most `ring`,
     * so computing up to its last plane overwrites only planes before its first */
    int64_t qhi = k0 - 1;
    uint64_t cells = 0, active = 0, npolys = 0, ntris = 0;
    for (int64_t u0 = 0, done; status == 0 && u0 < nunits_all; u0 += done) {
        int64_t u1 = u0 + cu_max < nunits_all ? u0 + cu_max : nunits_all;
        int64_t nunits = u1 - u0;
        int64_t ka = k0 + u0 / rows, kb = k0 + (u1 - 1) / rows;
        for (int64_t p = ka; p <= kb + 1; p++) jb.vp[p % jb.ring] = f->plane(f->ud, p);
        int64_t pfirst = qhi >= ka ? qhi + 1 : ka;
        int64_t nqp = kb + 1 - pfirst + 1;
        int64_t qblocks = (np + QBLOCK - 1) / QBLOCK;
        int64_t nqitems = nqp > 0 ? nqp * qblocks : 0;
        int64_t grain = nunits / ((int64_t)nt * 16);
        if (grain < 1) grain = 1;
        for (int t = 0; t < nt; t++) scr[t].n = 0;
        uint64_t produced = 0; /* polygons of this chunk so far */
        const job *J = &jb;
#pragma omp parallel num_threads(nt) default(none)                                          \
    shared(J, scr, rec, u0, nunits, pfirst, qblocks, nqitems, grain, np, rows, produced)
        {
            int tid = omp_get_thread_num();
            scratch *ts = &scr[tid];
#pragma omp for schedule(static)
            for (int64_t it = 0; it < nqitems; it++) {
                int64_t p = pfirst + it / qblocks, b0 = (it % qblocks) * QBLOCK;
                int64_t b1 = b0 + QBLOCK < np ? b0 + QBLOCK : np;
                int s = (int)(p % J->ring);
                qnodes(J, J->vp[s] + b0,
                       (char *)J->q + ((size_t)s * (size_t)np + (size_t)b0) * (size_t)J->qw,
                       (size_t)(b1 - b0));
            }
            /* Rows start in increasing order; once the chunk holds POLY_BUDGET polygons the
             * rows not started yet are left for the next chunk (row 0 always runs, so every
             * chunk advances). */
#pragma omp for schedule(dynamic, grain)
            for (int64_t u = 0; u < nunits; u++) {
                uint64_t sofar;
#pragma omp atomic read
                sofar = produced;
                unitrec *r = &rec[u];
                if (ts->failed || (u > 0 && sofar > POLY_BUDGET)) {
                    r->tid = -1;
                    continue;
                }
                size_t start = ts->n;
                uint64_t a0 = ts->active, t0 = ts->tris;
                int64_t g = J->k0 * rows + u0 + u;
                row_cells(J, ts, g / rows, g % rows);
                r->tid = tid;
                r->start = start;
                r->count = ts->n - start;
                r->active = ts->active - a0;
                r->tris = ts->tris - t0;
#pragma omp atomic
                produced += r->count;
            }
        }
        if (nqp > 0) qhi = kb + 1;
        bool failed = false;
        for (int t = 0; t < nt; t++) failed |= scr[t].failed;
        if (failed) {
            status = PV_ENOMEM;
            break;
        }
        /* the rows before the first one left out are complete: emit them */
        done = 0;
        while (done < nunits && rec[done].tid >= 0) {
            active += rec[done].active;
            npolys += rec[done].count;
            ntris += rec[done].tris;
            done++;
        }
        cells += (uint64_t)done * (uint64_t)(nx - 1);
        status = emit_runs(scr, rec, done, emit, ud);
    }
    if (scr)
        for (int t = 0; t < nt; t++) {
            free(scr[t].buf);
            free(scr[t].cmin);
            free(scr[t].cmax);
            free(scr[t].act);
            free(scr[t].ord);
        }
    if (stats) {
        stats->cells += cells;
        stats->active += active;
        stats->polys += npolys;
        stats->tris += ntris;
    }
    free(scr);
    free(rec);
    free(jb.q);
    free(jb.vp);
    levels_fini(&L);
    return status;
}
