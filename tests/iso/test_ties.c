/*
 * Ties (include/pvox/iso.h): a node equal to the level counts as above it, and every vertex
 * lies strictly inside its own grid edge, at least PV_ISO_T_MIN from either node. So the
 * surface stays a closed 2-manifold away from the box when its points are merged by
 * POSITION (what a reader of a .vtp or .pvtp does), not only by edge id.
 *
 * Fields of 0, 1 and 2 (random at several sizes, and tests/iso/ties.gp's 12^3 pattern), a
 * constant on the box's faces so every surface closes inside, levels 0.5, 1, 1.5 and 2
 * (node values and not), both modes. The polygons of each level, their vertices merged by
 * the bits of their coordinates, must have:
 *   - as many distinct positions as distinct edge ids, one position per edge id, each on
 *     its edge and at least PV_ISO_T_MIN from both nodes;
 *   - every side in exactly two polygons, in opposite directions (no boundary, no
 *     non-manifold side), no polygon with a repeated point;
 *   - around every point, its polygons in one fan (no two sheets pinched at a point);
 *   - an Euler characteristic V - E + F that is even and at most twice the connected
 *     pieces (closed orientable surfaces).
 * Also: the output equals the reference extraction (iso_check.h) and is bit-identical at
 * 1 and 3 threads with the layers split into slabs; a level at the field's minimum gives
 * nothing; infinite values give finite vertices inside their edges; NaN nodes leave holes
 * but no side in three polygons and no coincident vertices.
 */
#include "iso_check.h"

#include "pv_test.h"

/* ---- merging by position -------------------------------------------------------------- */

typedef struct vkey {
    uint64_t bits[3]; /* the coordinates' bits */
    uint64_t edge;
    size_t at; /* index of the vertex slot: polygon * 4 + s */
} vkey;

static int cmp_vkey(const void *pa, const void *pb)
{
    const vkey *a = pa, *b = pb;
    for (int x = 0; x < 3; x++)
        if (a->bits[x] != b->bits[x]) return a->bits[x] < b->bits[x] ? -1 : 1;
    if (a->edge != b->edge) return a->edge < b->edge ? -1 : 1;
    return (a->at > b->at) - (a->at < b->at);
}

typedef struct corner {
    uint64_t v, prev, next; /* a polygon's point and its neighbours in winding order */
} corner;

static int cmp_corner(const void *pa, const void *pb)
{
    const corner *a = pa, *b = pb;
    if (a->v != b->v) return a->v < b->v ? -1 : 1;
    if (a->prev != b->prev) return a->prev < b->prev ? -1 : 1;
    return (a->next > b->next) - (a->next < b->next);
}

static size_t uf_find(size_t *up, size_t x)
{
    while (up[x] != x) x = up[x] = up[up[x]];
    return x;
}

typedef struct tiecheck {
    size_t polys, positions, edge_ids;
    size_t off_edge;    /* vertices not strictly inside their edge (by PV_ISO_T_MIN) */
    size_t split_edge;  /* edge ids with more than one position */
    size_t collapsed;   /* polygons with a repeated point */
    size_t bad_sides;   /* sides not in exactly two polygons, opposite */
    size_t multi_sides; /* sides in three polygons or more */
    size_t pinched;     /* points whose polygons are not one fan */
    int64_t euler, pieces;
} tiecheck;

/* The polygons of level `level` (< 0: all) of a field of nx x ny x nz nodes. */
static tiecheck tie_check(const pv_iso_poly *p, size_t n, int level, int64_t nx, int64_t ny)
{
    tiecheck r = {0};
    size_t nv = 0;
    for (size_t i = 0; i < n; i++)
        if (level < 0 || p[i].level == level) nv += p[i].nv;
    vkey *k = malloc((nv + 1) * sizeof *k);
    uint64_t *pid = malloc((4 * n + 1) * sizeof *pid); /* slot -> position number */
    if (!k || !pid) abort();
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        if (level >= 0 && p[i].level != level) continue;
        r.polys++;
        for (int s = 0; s < p[i].nv; s++) {
            memcpy(k[m].bits, p[i].v[s], sizeof k[m].bits);
            k[m].edge = p[i].edge[s];
            k[m].at = 4 * i + (size_t)s;
            m++;
            /* on its edge, strictly inside */
            uint64_t node = p[i].edge[s] / 3;
            int axis = (int)(p[i].edge[s] % 3);
            int64_t c[3] = {(int64_t)(node % (uint64_t)nx),
                            (int64_t)(node / (uint64_t)nx % (uint64_t)ny),
                            (int64_t)(node / (uint64_t)nx / (uint64_t)ny)};
            for (int a = 0; a < 3; a++) {
                double d = p[i].v[s][a] - (double)c[a];
                bool ok = a == axis ? d >= PV_ISO_T_MIN && d <= 1.0 - PV_ISO_T_MIN : d == 0.0;
                if (!ok) r.off_edge++;
            }
        }
    }
    qsort(k, m, sizeof *k, cmp_vkey);
    /* positions; edge ids (an edge id must have one position: count ids per position) */
    uint64_t *ids = malloc((m + 1) * sizeof *ids);
    uint64_t *idpos = malloc((m + 1) * 2 * sizeof *idpos);
    if (!ids || !idpos) abort();
    size_t nids = 0;
    for (size_t a = 0; a < m; a++) {
        bool newpos = a == 0 || memcmp(k[a].bits, k[a - 1].bits, sizeof k[a].bits) != 0;
        if (newpos) r.positions++;
        pid[k[a].at] = r.positions - 1;
        if (newpos || k[a].edge != k[a - 1].edge) {
            idpos[2 * nids] = k[a].edge;
            idpos[2 * nids + 1] = r.positions - 1;
            ids[nids++] = k[a].edge;
        }
    }
    /* (edge, position) pairs are distinct; an edge id in two of them has two positions */
    qsort(ids, nids, sizeof *ids, cmp_u64);
    for (size_t a = 0; a < nids; a++)
        if (a == 0 || ids[a] != ids[a - 1]) r.edge_ids++;
    r.split_edge = nids - r.edge_ids;
    /* sides and corners over position numbers */
    side *sd = malloc((m + 1) * sizeof *sd);
    corner *cn = malloc((m + 1) * sizeof *cn);
    size_t *up = malloc((r.positions + 1) * sizeof *up);
    if (!sd || !cn || !up) abort();
    for (size_t a = 0; a < r.positions; a++) up[a] = a;
    size_t ns = 0, nc = 0;
    for (size_t i = 0; i < n; i++) {
        if (level >= 0 && p[i].level != level) continue;
        int q = p[i].nv;
        bool rep = false;
        for (int s = 0; s < q; s++) {
            uint64_t a = pid[4 * i + (size_t)s], b = pid[4 * i + (size_t)((s + 1) % q)];
            uint64_t z = pid[4 * i + (size_t)((s + q - 1) % q)];
            if (a == b) rep = true;
            sd[ns].lo = a < b ? a : b;
            sd[ns].hi = a < b ? b : a;
            sd[ns++].dir = a < b ? 1 : -1;
            cn[nc].v = a;
            cn[nc].prev = z;
            cn[nc++].next = b;
            size_t ra = uf_find(up, (size_t)a), rb = uf_find(up, (size_t)b);
            if (ra != rb) up[ra] = rb;
        }
        if (rep) r.collapsed++;
    }
    qsort(sd, ns, sizeof *sd, cmp_side);
    int64_t E = 0;
    for (size_t a = 0; a < ns;) {
        size_t b = a;
        while (b < ns && sd[b].lo == sd[a].lo && sd[b].hi == sd[a].hi) b++;
        E++;
        if (b - a != 2 || sd[a].dir != -1 || sd[a + 1].dir != 1) r.bad_sides++;
        if (b - a > 2) r.multi_sides++;
        a = b;
    }
    /* one fan per point: from a corner (prev, v, next), the polygon across side v -> next
     * has the corner (next, v, ...); following that must visit every corner of v once */
    qsort(cn, nc, sizeof *cn, cmp_corner);
    for (size_t a = 0; a < nc;) {
        size_t b = a;
        while (b < nc && cn[b].v == cn[a].v) b++;
        size_t len = b - a, steps = 0, at = a;
        do {
            size_t nx2 = b;
            for (size_t c = a; c < b; c++)
                if (cn[c].prev == cn[at].next) {
                    nx2 = c;
                    break;
                }
            if (nx2 == b) break;
            at = nx2;
            steps++;
        } while (at != a && steps <= len);
        if (at != a || steps != len) r.pinched++;
        a = b;
    }
    for (size_t a = 0; a < r.positions; a++)
        if (uf_find(up, a) == a) r.pieces++;
    r.euler = (int64_t)r.positions - E + (int64_t)r.polys;
    free(k);
    free(pid);
    free(ids);
    free(idpos);
    free(sd);
    free(cn);
    free(up);
    return r;
}

static bool closed_manifold(const tiecheck *r)
{
    return r->positions == r->edge_ids && r->off_edge == 0 && r->split_edge == 0 &&
           r->collapsed == 0 && r->bad_sides == 0 && r->pinched == 0 && r->euler % 2 == 0 &&
           r->euler <= 2 * r->pieces;
}

static void print_check(const char *what, double level, bool mixed, const tiecheck *r)
{
    fprintf(stderr,
            "%s level %g %s: %zu polygons, %zu positions / %zu edge ids, off-edge %zu, "
            "split %zu, collapsed %zu, bad sides %zu, pinched %zu, Euler %lld, %lld pieces\n",
            what, level, mixed ? "mixed" : "triangles", r->polys, r->positions, r->edge_ids,
            r->off_edge, r->split_edge, r->collapsed, r->bad_sides, r->pinched, (long long)r->euler,
            (long long)r->pieces);
}

/* ---- fields --------------------------------------------------------------------------- */

static bool on_box(const tfield *t, int64_t i, int64_t j, int64_t k)
{
    return i == 0 || j == 0 || k == 0 || i == t->nx - 1 || j == t->ny - 1 || k == t->nz - 1;
}

/* random in {0, 1, 2} inside, `pad` on the box's faces */
static tfield random012(int64_t nx, int64_t ny, int64_t nz, uint64_t seed, float pad)
{
    tfield t = tf_new(nx, ny, nz);
    for (int64_t k = 0; k < nz; k++)
        for (int64_t j = 0; j < ny; j++)
            for (int64_t i = 0; i < nx; i++)
                *tf_at(&t, i, j, k) =
                    on_box(&t, i, j, k)
                        ? pad
                        : (float)(int)(3.0 *
                                       hash01(seed * 1000003u + (uint64_t)((k * ny + j) * nx + i)));
    return t;
}

/* tests/iso/ties.gp's field (and check_ties.py's) */
static tfield ties_gp(void)
{
    tfield t = tf_new(12, 12, 12);
    for (int64_t k = 0; k < 12; k++)
        for (int64_t j = 0; j < 12; j++)
            for (int64_t i = 0; i < 12; i++)
                *tf_at(&t, i, j, k) =
                    on_box(&t, i, j, k)
                        ? 0.0f
                        : (float)(((i * 73856093) ^ (j * 19349663) ^ (k * 83492791)) % 3);
    return t;
}

static int ref_collect(void *ud, const pv_iso_poly *p, size_t n)
{
    polyvec *pv = ud;
    for (size_t i = 0; i < n; i++) pv_push(pv, &p[i]);
    return 0;
}

/* Every level of lv closed and manifold by position, in both modes; the output equal to
 * the reference and the same at 1 and 3 threads with the layers in three slabs. Returns the
 * number of (level, mode) surfaces with polygons. */
static int check_field(const char *what, tfield *t, const double *lv, int nl)
{
    int nonempty = 0;
    pv_iso_field f = tf_field(t);
    for (int m = 0; m < 2; m++) {
        pv_iso_opts o = {m == 1, 1};
        polyvec one = {0}, want = {0};
        PV_CHECK_EQ(pv_iso_extract(&f, 0, t->nz - 1, lv, nl, &o, collect, &one, NULL), 0);
        reference(t, 0, t->nz - 1, lv, nl, m == 1, ref_collect, &want);
        PV_CHECK(polys_equal(one.p, one.n, want.p, want.n));
        for (int nt = 1; nt <= 3; nt += 2) {
            pv_iso_opts o2 = {m == 1, nt};
            polyvec got = {0};
            int64_t cut[4] = {0, t->nz / 3, t->nz / 3 + 1, t->nz - 1};
            for (int c = 0; c < 3; c++)
                PV_CHECK_EQ(
                    pv_iso_extract(&f, cut[c], cut[c + 1], lv, nl, &o2, collect, &got, NULL), 0);
            PV_CHECK(polys_equal(one.p, one.n, got.p, got.n));
            pv_clear(&got);
        }
        for (int l = 0; l < nl; l++) {
            tiecheck r = tie_check(one.p, one.n, l, t->nx, t->ny);
            if (r.polys) nonempty++;
            bool ok = closed_manifold(&r);
            PV_CHECK(ok);
            if (!ok || (m == 0 && strcmp(what, "ties.gp") == 0))
                print_check(what, lv[l], m == 1, &r);
        }
        pv_clear(&one);
        pv_clear(&want);
    }
    return nonempty;
}

static void random_fields(void)
{
    static const int64_t size[][3] = {
        {4, 4, 4}, {5, 6, 7}, {12, 12, 12}, {17, 13, 9}, {24, 20, 22}};
    const double lv[4] = {0.5, 1.0, 1.5, 2.0};
    int nonempty = 0;
    for (size_t s = 0; s < sizeof size / sizeof size[0]; s++)
        for (uint64_t seed = 1; seed <= 4; seed++) {
            /* the box's faces below every level, or equal to the top one (a tie there too) */
            float pad = seed % 2 ? 0.0f : 2.0f;
            tfield t = random012(size[s][0], size[s][1], size[s][2], seed, pad);
            char what[64];
            snprintf(what, sizeof what, "random %lldx%lldx%lld seed %llu pad %g", (long long)t.nx,
                     (long long)t.ny, (long long)t.nz, (unsigned long long)seed, (double)pad);
            /* all levels at once, and each alone */
            nonempty += check_field(what, &t, lv, 4);
            for (int l = 0; l < 4; l++) check_field(what, &t, &lv[l], 1);
            free(t.v);
        }
    PV_CHECK(nonempty > 100);
}

/* the VTK check's field (tests/iso/run_ties_vtk.sh) */
static void ties_field(void)
{
    tfield t = ties_gp();
    const double lv[4] = {1.0, 0.5, 1.5, 2.0};
    PV_CHECK_EQ(check_field("ties.gp", &t, lv, 4), 8);
    /* before the clamp the vertices at the level-1 nodes coincided: many fewer positions
     * than edge ids; now one each */
    pv_iso_field f = tf_field(&t);
    pv_iso_opts o = {false, 2};
    polyvec pv = {0};
    PV_CHECK_EQ(pv_iso_extract(&f, 0, 11, lv, 1, &o, collect, &pv, NULL), 0);
    tiecheck r = tie_check(pv.p, pv.n, 0, 12, 12);
    PV_CHECK(r.polys > 1000);
    PV_CHECK_EQ(r.positions, r.edge_ids);
    pv_clear(&pv);
    free(t.v);
}

/* levels at the minimum (nothing: no node is below) and the maximum (small closed
 * surfaces around the nodes equal to it) */
static void extremes(void)
{
    tfield t = random012(9, 8, 7, 11, 0.0f);
    const double lo = 0.0, hi = 2.0;
    pv_iso_field f = tf_field(&t);
    pv_iso_opts o = {false, 2};
    polyvec pv = {0};
    PV_CHECK_EQ(pv_iso_extract(&f, 0, t.nz - 1, &lo, 1, &o, collect, &pv, NULL), 0);
    PV_CHECK_EQ(pv.n, 0);
    PV_CHECK(check_field("maximum", &t, &hi, 1) == 2);
    /* a single node equal to the level in a field below it: a tiny closed octahedron */
    tfield s = tf_new(5, 5, 5);
    *tf_at(&s, 2, 2, 2) = 1.0f;
    const double one = 1.0;
    PV_CHECK_EQ(check_field("one node", &s, &one, 1), 2);
    pv_iso_field fs = tf_field(&s);
    PV_CHECK_EQ(pv_iso_extract(&fs, 0, 4, &one, 1, &o, collect, &pv, NULL), 0);
    tiecheck r = tie_check(pv.p, pv.n, 0, 5, 5);
    PV_CHECK_EQ(r.polys, 8);
    PV_CHECK_EQ(r.positions, 6);
    PV_CHECK_EQ(r.euler, 2);
    PV_CHECK(mesh_area(pv.p, pv.n) > 0.0 && mesh_area(pv.p, pv.n) < 1e-10);
    pv_clear(&pv);
    free(s.v);
    free(t.v);
}

/* infinite values: vertices stay finite and inside their edges; NaN nodes: holes, but no
 * side in three polygons and no two edges' vertices at one position */
static void nonfinite(void)
{
    tfield t = random012(10, 9, 8, 21, 0.0f);
    for (int64_t i = 0; i < 10 * 9 * 8; i += 7)
        if (!on_box(&t, i % 10, i / 10 % 9, i / 90)) t.v[i] = (i / 7) % 2 ? INFINITY : -INFINITY;
    const double lv[2] = {1.0, 0.5};
    PV_CHECK(check_field("infinite", &t, lv, 2) > 0);
    for (int64_t i = 3; i < 10 * 9 * 8; i += 11) t.v[i] = NAN;
    pv_iso_field f = tf_field(&t);
    pv_iso_opts o = {true, 2};
    polyvec pv = {0};
    PV_CHECK_EQ(pv_iso_extract(&f, 0, t.nz - 1, lv, 2, &o, collect, &pv, NULL), 0);
    PV_CHECK(pv.n > 0);
    for (int l = 0; l < 2; l++) {
        tiecheck r = tie_check(pv.p, pv.n, l, 10, 9);
        PV_CHECK_EQ(r.positions, r.edge_ids);
        PV_CHECK_EQ(r.off_edge, 0);
        PV_CHECK_EQ(r.collapsed, 0);
        PV_CHECK_EQ(r.multi_sides, 0); /* holes leave sides in one polygon, never three */
        PV_CHECK(r.bad_sides > 0);     /* there are holes */
    }
    pv_clear(&pv);
    free(t.v);
}

int main(void)
{
    ties_field();
    random_fields();
    extremes();
    nonfinite();
    return pv_test_result("iso.test_ties");
}
