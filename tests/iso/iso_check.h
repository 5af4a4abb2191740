/*
 * Shared by the tests of module iso: a float field in memory, a polygon collector, a plain
 * per-cell reference extraction written from iso.h's conventions alone (the case decided
 * by direct compares, polygons from the public case table), an order-sensitive hash of a
 * polygon stream, and mesh checks (closure, orientation, Euler characteristic, area).
 */
#ifndef ISO_CHECK_H
#define ISO_CHECK_H

#include "pvox/iso.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- field ------------------------------------------------------------------------------ */

typedef struct tfield {
    int64_t nx, ny, nz;
    float *v;
    int64_t kmin, kmax; /* planes requested (kmin > kmax: none) */
} tfield;

static inline const float *tf_plane(const void *ud, int64_t k)
{
    tfield *t = (tfield *)(uintptr_t)ud; /* the test records what was asked */
    if (k < t->kmin) t->kmin = k;
    if (k > t->kmax) t->kmax = k;
    return t->v + (size_t)(k * t->nx * t->ny);
}

static inline tfield tf_new(int64_t nx, int64_t ny, int64_t nz)
{
    tfield t = {nx, ny, nz, calloc((size_t)(nx * ny * nz), sizeof(float)), INT64_MAX, -1};
    if (!t.v) abort();
    return t;
}

static inline float *tf_at(tfield *t, int64_t i, int64_t j, int64_t k)
{
    return &t->v[(k * t->ny + j) * t->nx + i];
}

static inline pv_iso_field tf_field(tfield *t)
{
    pv_iso_field f = {t->nx, t->ny, t->nz, tf_plane, t};
    return f;
}

/* deterministic pseudo-random in [0, 1) from an index */
static inline double hash01(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    x ^= x >> 31;
    return (double)(x >> 11) / 9007199254740992.0;
}

/* ---- polygon collection and hashing ------------------------------------------------------- */

typedef struct polyvec {
    pv_iso_poly *p;
    size_t n, cap;
    size_t calls, maxbatch;
    int stop_after; /* > 0: return 7 after this many calls */
} polyvec;

static inline void pv_push(polyvec *pv, const pv_iso_poly *p)
{
    if (pv->n == pv->cap) {
        pv->cap = pv->cap ? 2 * pv->cap : 1024;
        pv->p = realloc(pv->p, pv->cap * sizeof *pv->p);
        if (!pv->p) abort();
    }
    pv->p[pv->n++] = *p;
}

static inline int collect(void *ud, const pv_iso_poly *p, size_t n)
{
    polyvec *pv = ud;
    pv->calls++;
    if (n > pv->maxbatch) pv->maxbatch = n;
    for (size_t i = 0; i < n; i++) pv_push(pv, &p[i]);
    if (pv->stop_after > 0 && (int)pv->calls >= pv->stop_after) return 7;
    return 0;
}

static inline void pv_clear(polyvec *pv)
{
    free(pv->p);
    memset(pv, 0, sizeof *pv);
}

static inline bool poly_equal(const pv_iso_poly *a, const pv_iso_poly *b)
{
    if (a->nv != b->nv || a->level != b->level || a->item != b->item) return false;
    for (int s = 0; s < 4; s++) {
        if (a->edge[s] != b->edge[s]) return false;
        if (memcmp(a->v[s], b->v[s], sizeof a->v[s]) != 0) return false;
    }
    return true;
}

/* polygons a[0..n) equal b[0..n) field by field; prints the first difference */
static inline bool polys_equal(const pv_iso_poly *a, size_t na, const pv_iso_poly *b, size_t nb)
{
    if (na != nb) {
        fprintf(stderr, "polygon counts differ: %zu vs %zu\n", na, nb);
        return false;
    }
    for (size_t i = 0; i < na; i++)
        if (!poly_equal(&a[i], &b[i])) {
            fprintf(stderr, "polygon %zu differs (item %llu level %u vs item %llu level %u)\n", i,
                    (unsigned long long)a[i].item, a[i].level, (unsigned long long)b[i].item,
                    b[i].level);
            return false;
        }
    return true;
}

typedef struct hasher {
    uint64_t h, n;
    size_t maxbatch;
} hasher;

static inline uint64_t mix(uint64_t h, uint64_t x)
{
    h ^= x + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
    return h * 0x100000001b3ull;
}

static inline void hash_poly(hasher *hs, const pv_iso_poly *p)
{
    uint64_t h = mix(hs->h, p->nv);
    h = mix(h, p->level);
    h = mix(h, p->item);
    for (int s = 0; s < 4; s++) {
        h = mix(h, p->edge[s]);
        for (int a = 0; a < 3; a++) {
            uint64_t bits;
            memcpy(&bits, &p->v[s][a], 8);
            h = mix(h, bits);
        }
    }
    hs->h = h;
    hs->n++;
}

static inline int hash_cb(void *ud, const pv_iso_poly *p, size_t n)
{
    hasher *hs = ud;
    if (n > hs->maxbatch) hs->maxbatch = n;
    for (size_t i = 0; i < n; i++) hash_poly(hs, &p[i]);
    return 0;
}

/* ---- reference extraction ---------------------------------------------------------------- */

/* iso.h: t kept strictly inside the edge; undefined (infinite values): the middle */
static inline double ref_edge_t(double t)
{
    if (t != t) return 0.5;
    return t < PV_ISO_T_MIN ? PV_ISO_T_MIN : t > 1.0 - PV_ISO_T_MIN ? 1.0 - PV_ISO_T_MIN : t;
}

/* Cell by cell (k, j, i), levels in caller order, polygons per iso.h: the case from
 * value < level, skipped if a corner is NaN, vertices strictly inside their edges (ties);
 * mixed keeps 4-vertex loops as quads. */
static inline void reference(const tfield *t, int64_t k0, int64_t k1, const double *lv, int nl,
                             bool mixed, pv_iso_emit_fn emit, void *ud)
{
    const pv_iso_case *tab = pv_iso_table();
    int off[8][3], ea[12], eb[12], eax[12];
    for (int c = 0; c < 8; c++) pv_iso_corner_offset(c, off[c]);
    for (int e = 0; e < 12; e++) {
        pv_iso_edge_corners(e, &ea[e], &eb[e]);
        for (int a = 0; a < 3; a++)
            if (off[ea[e]][a] != off[eb[e]][a]) eax[e] = a;
    }
    for (int64_t k = k0; k < k1; k++)
        for (int64_t j = 0; j + 1 < t->ny; j++)
            for (int64_t i = 0; i + 1 < t->nx; i++) {
                float v[8];
                bool nan = false;
                for (int c = 0; c < 8; c++) {
                    v[c] = t->v[((k + off[c][2]) * t->ny + j + off[c][1]) * t->nx + i + off[c][0]];
                    if (v[c] != v[c]) nan = true;
                }
                if (nan) continue;
                uint64_t cell = (uint64_t)((k * t->ny + j) * t->nx + i);
                for (int o = 0; o < nl; o++) {
                    int cs = 0;
                    for (int c = 0; c < 8; c++)
                        if ((double)v[c] < lv[o]) cs |= 1 << c;
                    if (cs == 0 || cs == 255) continue;
                    const pv_iso_case *C = &tab[cs];
                    double pos[12][3];
                    uint64_t id[12];
                    for (int e = 0; e < 12; e++) {
                        double va = (double)v[ea[e]], vb = (double)v[eb[e]];
                        double tt = ref_edge_t((lv[o] - va) / (vb - va));
                        int64_t n[3] = {i + off[ea[e]][0], j + off[ea[e]][1], k + off[ea[e]][2]};
                        for (int a = 0; a < 3; a++) pos[e][a] = (double)n[a];
                        pos[e][eax[e]] += tt;
                        id[e] = (uint64_t)(((n[2] * t->ny + n[1]) * t->nx + n[0]) * 3 + eax[e]);
                    }
                    int np = 0, tr = 0;
                    for (int l = 0; l < C->nloops; l++) {
                        int len = C->loop_len[l];
                        int ntr = len - 2;
                        pv_iso_poly p;
                        memset(&p, 0, sizeof p);
                        p.level = (uint16_t)o;
                        if (mixed && len == 4) {
                            p.nv = 4;
                            p.item = cell * PV_ISO_MAX_POLYS + (uint64_t)np++;
                            for (int s = 0; s < 4; s++) {
                                int e = C->loop[l][s];
                                memcpy(p.v[s], pos[e], sizeof p.v[s]);
                                p.edge[s] = id[e];
                            }
                            emit(ud, &p, 1);
                            tr += ntr;
                            continue;
                        }
                        for (int n = 0; n < ntr; n++, tr++) {
                            p.nv = 3;
                            p.item = cell * PV_ISO_MAX_POLYS + (uint64_t)np++;
                            for (int s = 0; s < 4; s++) {
                                int e = C->tri[tr][s < 3 ? s : 2];
                                memcpy(p.v[s], pos[e], sizeof p.v[s]);
                                p.edge[s] = id[e];
                            }
                            emit(ud, &p, 1);
                        }
                    }
                }
            }
}

/* ---- mesh checks ------------------------------------------------------------------------ */

typedef struct side {
    uint64_t lo, hi;
    int dir; /* +1: lo -> hi */
} side;

static inline int cmp_side(const void *pa, const void *pb)
{
    const side *a = pa, *b = pb;
    if (a->lo != b->lo) return a->lo < b->lo ? -1 : 1;
    if (a->hi != b->hi) return a->hi < b->hi ? -1 : 1;
    return a->dir - b->dir;
}

static inline int cmp_u64(const void *pa, const void *pb)
{
    uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;
    return (a > b) - (a < b);
}

typedef struct meshinfo {
    size_t bad_sides; /* undirected sides not shared by exactly two polygons, opposite */
    int64_t V, E, F;  /* vertices (distinct edge ids), sides, polygons */
} meshinfo;

/* Polygons of one level (level < 0: all) as a mesh keyed by edge ids. */
static inline meshinfo mesh_check(const pv_iso_poly *p, size_t n, int level)
{
    meshinfo mi = {0, 0, 0, 0};
    side *s = malloc((4 * n + 1) * sizeof *s);
    uint64_t *ids = malloc((4 * n + 1) * sizeof *ids);
    if (!s || !ids) abort();
    size_t ns = 0, nid = 0;
    for (size_t i = 0; i < n; i++) {
        if (level >= 0 && p[i].level != level) continue;
        mi.F++;
        for (int v = 0; v < p[i].nv; v++) {
            uint64_t a = p[i].edge[v], b = p[i].edge[(v + 1) % p[i].nv];
            ids[nid++] = a;
            s[ns].lo = a < b ? a : b;
            s[ns].hi = a < b ? b : a;
            s[ns++].dir = a < b ? 1 : -1;
        }
    }
    qsort(s, ns, sizeof *s, cmp_side);
    qsort(ids, nid, sizeof *ids, cmp_u64);
    for (size_t i = 0; i < nid; i++)
        if (i == 0 || ids[i] != ids[i - 1]) mi.V++;
    for (size_t i = 0; i < ns;) {
        size_t j = i;
        while (j < ns && s[j].lo == s[i].lo && s[j].hi == s[i].hi) j++;
        mi.E++;
        if (j - i != 2 || s[i].dir != -1 || s[i + 1].dir != 1) mi.bad_sides++;
        i = j;
    }
    free(s);
    free(ids);
    return mi;
}

static inline void cross3(const double *u, const double *w, double *n)
{
    n[0] = u[1] * w[2] - u[2] * w[1];
    n[1] = u[2] * w[0] - u[0] * w[2];
    n[2] = u[0] * w[1] - u[1] * w[0];
}

/* the polygon's triangles (fan from vertex 0): normal vector (twice the area) of tri t */
static inline void poly_tri_normal(const pv_iso_poly *p, int t, double n[3], double ctr[3])
{
    const double *a = p->v[0], *b = p->v[t + 1], *c = p->v[t + 2];
    double u[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
    double w[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
    cross3(u, w, n);
    for (int x = 0; x < 3; x++) ctr[x] = (a[x] + b[x] + c[x]) / 3.0;
}

static inline double mesh_area(const pv_iso_poly *p, size_t n)
{
    double area = 0.0;
    for (size_t i = 0; i < n; i++)
        for (int t = 0; t + 2 < p[i].nv; t++) {
            double nn[3], c[3];
            poly_tri_normal(&p[i], t, nn, c);
            area += 0.5 * sqrt(nn[0] * nn[0] + nn[1] * nn[1] + nn[2] * nn[2]);
        }
    return area;
}

#endif /* ISO_CHECK_H */
