/*
 * The mesh writer (pvox/mesh.h) at 1, 2, 3 and 4 ranks, on a known closed mesh.
 *
 * The mesh: a square tube of L layers capped at both ends, as slabs would produce it.
 * Ring j (0 <= j <= L) has four corners at z = j + 0.25 (index space), edge ids 4j + c;
 * layer k holds the four side quads between rings k and k+1; the bottom cap (four
 * triangles around a centre vertex, id 1000) goes with layer 0, the top cap (id 1001) with
 * layer L-1. Layers are split among the ranks like grid slabs, so ring vertices between
 * two ranks' layers carry the same edge id on both: points 4(L+1) + 2, polygons 4L + 8,
 * vertex references 16L + 24; closed, every edge in exactly two polygons.
 *
 * Checks:
 *   - text (file and sinks): exactly the expected lines, in rank order (and element by
 *     element across a flush), with "%g %g %g" user coordinates;
 *   - .vtp: parsed here (XML counts and the appended raw arrays): points merged by edge id
 *     across ranks, each polygon's vertices, offsets, level and surface as added; the file
 *     is byte-identical whether the polygons are split among ranks or all added on rank 0,
 *     and with the edge-id exchange cut into one-item rounds;
 *   - .pvtp: the index names one piece per rank; piece counts match what each rank added
 *     (merged within the rank);
 *   - failures: an unwritable path (NULL on every rank), a caller status or an allocation
 *     failure on one rank (every rank gets the error, no file is left), tracked memory
 *     back to where it started.
 * The same checks run on the surface of a 160^3-cell cube (153602 points, 179200
 * polygons), whose arrays stream in several chunks and whose text spools many.
 * PV_MESH_DIR=dir keeps the files there for the ParaView check (run_mesh_paraview.sh):
 * box.* (L = 5), small.* (L = 2), cube.*, the pieces, and two meshes that check must
 * reject, open.vtp and nonmanifold.vtp; otherwise a temporary directory is used and
 * removed.
 */
#include "pv_test.h"
#include "mesh_int.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAXP 64

typedef struct poly {
    int nv;
    double v[4][3];
    uint64_t e[4];
    double level;
    int32_t surf;
    int layer;
} poly;

static const double corner[4][2] = {{0.5, 0.5}, {2.5, 0.5}, {2.5, 2.5}, {0.5, 2.5}};

/* The global polygon stream of an L-layer tube, in layer order. */
static int make_tube(int L, poly *p)
{
    int n = 0;
    for (int k = 0; k < L; k++) {
        if (k == 0)
            for (int c = 0; c < 4; c++) { /* bottom cap, seen from below */
                int c1 = (c + 1) % 4;
                poly q = {3,
                          {{1.5, 1.5, 0.25},
                           {corner[c][0], corner[c][1], 0.25},
                           {corner[c1][0], corner[c1][1], 0.25}},
                          {1000, (uint64_t)c, (uint64_t)c1},
                          0.5,
                          2,
                          k};
                p[n++] = q;
            }
        for (int c = 0; c < 4; c++) {
            int c1 = (c + 1) % 4;
            double z0 = k + 0.25, z1 = k + 1.25;
            poly q = {4,
                      {{corner[c][0], corner[c][1], z0},
                       {corner[c1][0], corner[c1][1], z0},
                       {corner[c1][0], corner[c1][1], z1},
                       {corner[c][0], corner[c][1], z1}},
                      {(uint64_t)(4 * k + c), (uint64_t)(4 * k + c1), (uint64_t)(4 * k + 4 + c1),
                       (uint64_t)(4 * k + 4 + c)},
                      0.25 * k,
                      1,
                      k};
            p[n++] = q;
        }
        if (k == L - 1)
            for (int c = 0; c < 4; c++) { /* top cap */
                int c1 = (c + 1) % 4;
                double z = L + 0.25;
                poly q = {3,
                          {{1.5, 1.5, z},
                           {corner[c1][0], corner[c1][1], z},
                           {corner[c][0], corner[c][1], z}},
                          {1001, (uint64_t)(4 * L + c1), (uint64_t)(4 * L + c)},
                          0.5,
                          2,
                          k};
                p[n++] = q;
            }
    }
    return n;
}

/* The surface of a cube of m x m x m cells (lattice nodes (i, j, k), 0..m, at index
 * coordinates + 0.5, edge id (k(m+1) + j)(m+1) + i), in layers 0..m-1 by the lower z of
 * each polygon: quads on the bottom and the sides, the top split into triangles. Points
 * 6m^2 + 2, polygons 7m^2; large enough that the streamed arrays take several chunks. */
static int make_cube(int m, poly *p)
{
    int n = 0;
    uint64_t M = (uint64_t)m + 1;
#define NODE(i, j, k)                                                                              \
    {                                                                                              \
        (i) + 0.5, (j) + 0.5, (k) + 0.5                                                            \
    }
#define ID(i, j, k) (((uint64_t)(k)*M + (uint64_t)(j)) * M + (uint64_t)(i))
    for (int k = 0; k < m; k++) {
        if (k == 0)
            for (int j = 0; j < m; j++)
                for (int i = 0; i < m; i++)
                    p[n++] =
                        (poly){4,
                               {NODE(i, j, 0), NODE(i, j + 1, 0), NODE(i + 1, j + 1, 0),
                                NODE(i + 1, j, 0)},
                               {ID(i, j, 0), ID(i, j + 1, 0), ID(i + 1, j + 1, 0), ID(i + 1, j, 0)},
                               1.5,
                               7,
                               k};
        for (int i = 0; i < m; i++) {
            p[n++] =
                (poly){4,
                       {NODE(i, 0, k), NODE(i + 1, 0, k), NODE(i + 1, 0, k + 1), NODE(i, 0, k + 1)},
                       {ID(i, 0, k), ID(i + 1, 0, k), ID(i + 1, 0, k + 1), ID(i, 0, k + 1)},
                       1.5,
                       7,
                       k};
            p[n++] =
                (poly){4,
                       {NODE(i, m, k), NODE(i, m, k + 1), NODE(i + 1, m, k + 1), NODE(i + 1, m, k)},
                       {ID(i, m, k), ID(i, m, k + 1), ID(i + 1, m, k + 1), ID(i + 1, m, k)},
                       1.5,
                       7,
                       k};
            p[n++] =
                (poly){4,
                       {NODE(0, i, k), NODE(0, i, k + 1), NODE(0, i + 1, k + 1), NODE(0, i + 1, k)},
                       {ID(0, i, k), ID(0, i, k + 1), ID(0, i + 1, k + 1), ID(0, i + 1, k)},
                       1.5,
                       7,
                       k};
            p[n++] =
                (poly){4,
                       {NODE(m, i, k), NODE(m, i + 1, k), NODE(m, i + 1, k + 1), NODE(m, i, k + 1)},
                       {ID(m, i, k), ID(m, i + 1, k), ID(m, i + 1, k + 1), ID(m, i, k + 1)},
                       1.5,
                       7,
                       k};
        }
        if (k == m - 1)
            for (int j = 0; j < m; j++)
                for (int i = 0; i < m; i++) {
                    p[n++] = (poly){3,
                                    {NODE(i, j, m), NODE(i + 1, j, m), NODE(i + 1, j + 1, m)},
                                    {ID(i, j, m), ID(i + 1, j, m), ID(i + 1, j + 1, m)},
                                    1.5,
                                    8,
                                    k};
                    p[n++] = (poly){3,
                                    {NODE(i, j, m), NODE(i + 1, j + 1, m), NODE(i, j + 1, m)},
                                    {ID(i, j, m), ID(i + 1, j + 1, m), ID(i, j + 1, m)},
                                    1.5,
                                    8,
                                    k};
                }
    }
#undef NODE
#undef ID
    return n;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Distinct edge ids of the polygons of layers [k0, k1): the points they make, merged. */
static size_t distinct_ids(const poly *p, int np, int k0, int k1)
{
    uint64_t *ids = malloc((4 * (size_t)np + 1) * sizeof *ids);
    size_t n = 0, d = 0;
    for (int i = 0; i < np; i++)
        if (p[i].layer >= k0 && p[i].layer < k1)
            for (int k = 0; k < p[i].nv; k++) ids[n++] = p[i].e[k];
    qsort(ids, n, sizeof *ids, cmp_u64);
    for (size_t i = 0; i < n; i++) d += i == 0 || ids[i] != ids[i - 1];
    free(ids);
    return d;
}

static size_t total_conn(const poly *p, int np)
{
    size_t n = 0;
    for (int i = 0; i < np; i++) n += (size_t)p[i].nv;
    return n;
}

/* Layers [k0, k1) of rank r among P (the grid's slab rule). */
static void layers(int L, int P, int r, int *k0, int *k1)
{
    int base = L / P, extra = L % P;
    *k0 = r * base + (r < extra ? r : extra);
    *k1 = *k0 + base + (r < extra ? 1 : 0);
}

static const pv_mesh_geom GEOM = {{-1, 2, 10}, {0.5, 0.25, 2}};

static void user_xyz(const double *v, double *x)
{
    for (int a = 0; a < 3; a++) x[a] = GEOM.min[a] + v[a] * GEOM.delta[a];
}

/* Add the polygons of this rank's layers (or all on rank 0 with `all_on_0`) whose index
 * in the stream is in [from, to). */
static pv_status add_mine(pv_ctx *ctx, pv_mesh_writer *w, const poly *p, int np, int L,
                          bool all_on_0, int from, int to)
{
    int k0, k1;
    layers(L, ctx->nranks, ctx->rank, &k0, &k1);
    if (all_on_0) {
        k0 = ctx->rank == 0 ? 0 : 0;
        k1 = ctx->rank == 0 ? L : 0;
    }
    pv_status st = PV_OK;
    for (int i = from; i < to && i < np && st == PV_OK; i++)
        if (p[i].layer >= k0 && p[i].layer < k1)
            st = pv_mesh_add(ctx, w, p[i].nv, p[i].v[0], p[i].e, p[i].level, p[i].surf);
    return st;
}

/* ---- text ------------------------------------------------------------------------ */

typedef struct strbuf {
    char *s;
    size_t n, cap;
} strbuf;

static void sb_add(strbuf *b, const char *s)
{
    size_t m = strlen(s);
    if (b->n + m + 1 > b->cap) {
        b->cap = 2 * (b->n + m + 1);
        b->s = realloc(b->s, b->cap);
    }
    memcpy(b->s + b->n, s, m + 1);
    b->n += m;
}

/* Expected text of stream polygons [from, to) in rank order (each rank's in order). */
static void expect_text(strbuf *b, const poly *p, int np, int L, int P, int from, int to)
{
    for (int r = 0; r < P; r++) {
        int k0, k1;
        layers(L, P, r, &k0, &k1);
        for (int i = from; i < to && i < np; i++) {
            if (p[i].layer < k0 || p[i].layer >= k1) continue;
            char line[128];
            for (int k = 0; k < p[i].nv; k++) {
                double x[3];
                user_xyz(p[i].v[k], x);
                snprintf(line, sizeof line, "%g %g %g\n", x[0], x[1], x[2]);
                sb_add(b, line);
            }
            sb_add(b, "\n");
        }
    }
}

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    size_t got = fread(s, 1, (size_t)n, f);
    fclose(f);
    s[got] = '\0';
    if (len) *len = got;
    return s;
}

static bool exists(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0;
}

static pv_status sink_line(void *ud, const char *line)
{
    strbuf *b = ud;
    sb_add(b, line);
    sb_add(b, "\n");
    return PV_OK;
}

static void test_text(pv_ctx *ctx, const char *dir, const char *name, const poly *p, int np, int L)
{
    int P = ctx->nranks;
    strbuf want = {0};
    expect_text(&want, p, np, L, P, 0, np);
    char *path = pv_asprintf("%s/%s.txt", dir, name);

    /* a file */
    pv_mesh_writer *w = pv_mesh_open(ctx, path, &GEOM);
    PV_CHECK(w != NULL);
    pv_status st = add_mine(ctx, w, p, np, L, false, 0, np);
    pv_mesh_counts c;
    PV_CHECK(pv_mesh_close_counts(ctx, w, st, &c) == PV_OK);
    PV_CHECK_EQ(c.polys, np);
    PV_CHECK_EQ(c.points, total_conn(p, np));
    if (ctx->rank == 0) {
        char *got = slurp(path, NULL);
        PV_CHECK_STR(got, want.s);
        free(got);
        PV_CHECK(!pv_test_temp_left(path));
    }

    /* a rank-0 sink, with a flush after the first 6 polygons of the stream */
    strbuf got = {0}, two = {0};
    pv_mesh_sink sink = {sink_line, &got, false};
    w = pv_mesh_open_text(ctx, &sink, &GEOM);
    PV_CHECK(w != NULL);
    st = add_mine(ctx, w, p, np, L, false, 0, 6);
    PV_CHECK(pv_mesh_flush(ctx, w) == PV_OK);
    st = add_mine(ctx, w, p, np, L, false, 6, np);
    PV_CHECK(pv_mesh_close(ctx, w, st) == PV_OK);
    expect_text(&two, p, np, L, P, 0, 6);
    expect_text(&two, p, np, L, P, 6, np);
    if (ctx->rank == 0)
        PV_CHECK_STR(got.s, two.s);
    else
        PV_CHECK(got.n == 0);

    /* every rank receives every line */
    free(got.s);
    got = (strbuf){0};
    sink.every_rank = true;
    w = pv_mesh_open_text(ctx, &sink, &GEOM);
    st = add_mine(ctx, w, p, np, L, false, 0, np);
    PV_CHECK(pv_mesh_close(ctx, w, st) == PV_OK);
    PV_CHECK_STR(got.s, want.s);

    free(got.s);
    free(two.s);
    free(want.s);
    free(path);
}

/* ---- .vtp parsing ------------------------------------------------------------------ */

typedef struct vtp {
    unsigned long long npoints, npolys;
    double *pts;
    uint64_t *edge;
    int64_t *conn, *off;
    double *level;
    int32_t *surf;
    size_t nconn;
} vtp;

static unsigned long long attr_num(const char *s, const char *name)
{
    const char *a = strstr(s, name);
    return a ? strtoull(a + strlen(name), NULL, 10) : 0;
}

/* Parse a pvox .vtp: the counts from the XML and the six appended arrays in order. */
static bool parse_vtp(const char *path, vtp *v)
{
    memset(v, 0, sizeof *v);
    size_t len;
    char *s = slurp(path, &len);
    if (!s) return false;
    bool ok = strstr(s, "type=\"PolyData\"") && strstr(s, "header_type=\"UInt64\"");
    v->npoints = attr_num(s, "NumberOfPoints=\"");
    v->npolys = attr_num(s, "NumberOfPolys=\"");
    const char *ad = strstr(s, "<AppendedData encoding=\"raw\">");
    const char *u = ad ? strchr(ad, '_') : NULL;
    ok = ok && u;
    void **dst[6] = {(void **)&v->pts, (void **)&v->edge,  (void **)&v->conn,
                     (void **)&v->off, (void **)&v->level, (void **)&v->surf};
    size_t at = u ? (size_t)(u - s) + 1 : len;
    for (int a = 0; a < 6 && ok; a++) {
        uint64_t nb;
        if (at + 8 > len) {
            ok = false;
            break;
        }
        memcpy(&nb, s + at, 8);
        at += 8;
        if (at + nb > len) {
            ok = false;
            break;
        }
        *dst[a] = malloc(nb ? nb : 1);
        memcpy(*dst[a], s + at, nb);
        at += nb;
        if (a == 2) v->nconn = nb / 8;
    }
    ok = ok && strstr(s + (at < len ? at : len), "</AppendedData>") != NULL;
    free(s);
    return ok;
}

static void vtp_free(vtp *v)
{
    free(v->pts), free(v->edge), free(v->conn), free(v->off), free(v->level), free(v->surf);
}

/* The merged .vtp describes exactly the stream: polygons in order, points merged. */
static void check_vtp_content(const vtp *v, const poly *p, int np, int L)
{
    PV_CHECK_EQ(v->npoints, distinct_ids(p, np, 0, L));
    PV_CHECK_EQ(v->npolys, np);
    PV_CHECK_EQ(v->nconn, total_conn(p, np));
    if (v->npolys != (unsigned long long)np) return;
    /* edge ids unique among the points */
    uint64_t *ids = malloc((v->npoints + 1) * sizeof *ids);
    memcpy(ids, v->edge, v->npoints * sizeof *ids);
    qsort(ids, v->npoints, sizeof *ids, cmp_u64);
    int dup = 0;
    for (size_t i = 1; i < v->npoints; i++) dup += ids[i] == ids[i - 1];
    free(ids);
    PV_CHECK_EQ(dup, 0);
    int bad = 0;
    int64_t at = 0;
    for (int i = 0; i < np; i++) {
        if (v->off[i] != at + p[i].nv) bad++;
        for (int k = 0; k < p[i].nv && at + k < (int64_t)v->nconn; k++) {
            int64_t q = v->conn[at + k];
            if (q < 0 || (unsigned long long)q >= v->npoints) {
                bad++;
                continue;
            }
            double x[3];
            user_xyz(p[i].v[k], x);
            if (v->edge[q] != p[i].e[k]) bad++;
            for (int a = 0; a < 3; a++) bad += v->pts[3 * q + a] != x[a];
        }
        at += p[i].nv;
        bad += v->level[i] != p[i].level;
        bad += v->surf[i] != p[i].surf;
    }
    PV_CHECK_EQ(bad, 0);
    /* first-use numbering: point q first appears after points 0..q-1 */
    int64_t next = 0;
    for (size_t k = 0; k < v->nconn; k++) {
        if (v->conn[k] == next)
            next++;
        else if (v->conn[k] > next)
            bad++;
    }
    PV_CHECK_EQ(bad, 0);
}

static void test_vtp(pv_ctx *ctx, const char *dir, const char *name, const poly *p, int np, int L,
                     size_t round_items)
{
    char *path = pv_asprintf("%s/%s.vtp", dir, name);
    char *alt = pv_asprintf("%s/%s_rank0.vtp", dir, name);
    char *rnd = pv_asprintf("%s/%s_rounds.vtp", dir, name);
    size_t mem0 = ctx->mem_current;

    pv_mesh_writer *w = pv_mesh_open(ctx, path, &GEOM);
    PV_CHECK(w != NULL);
    pv_status st = add_mine(ctx, w, p, np, L, false, 0, np);
    pv_mesh_counts c;
    PV_CHECK(pv_mesh_close_counts(ctx, w, st, &c) == PV_OK);
    PV_CHECK_EQ(c.points, distinct_ids(p, np, 0, L));
    PV_CHECK_EQ(c.polys, np);
    PV_CHECK_EQ(c.conn, total_conn(p, np));
    PV_CHECK_EQ(ctx->mem_current, mem0);

    w = pv_mesh_open(ctx, alt, &GEOM);
    st = add_mine(ctx, w, p, np, L, true, 0, np);
    PV_CHECK(pv_mesh_close(ctx, w, st) == PV_OK);

    w = pv_mesh_open(ctx, rnd, &GEOM);
    pv_mesh_set_round_items(w, round_items); /* few ids per round: many rounds */
    st = add_mine(ctx, w, p, np, L, false, 0, np);
    PV_CHECK(pv_mesh_close(ctx, w, st) == PV_OK);

    if (ctx->rank == 0) {
        vtp v;
        PV_CHECK(parse_vtp(path, &v));
        check_vtp_content(&v, p, np, L);
        vtp_free(&v);
        size_t la = 0, lb = 0, lc = 0;
        char *a = slurp(path, &la), *b = slurp(alt, &lb), *d = slurp(rnd, &lc);
        PV_CHECK(a && b && d && la == lb && la == lc && memcmp(a, b, la) == 0 &&
                 memcmp(a, d, la) == 0);
        free(a), free(b), free(d);
        remove(alt);
        remove(rnd);
    }
    free(path), free(alt), free(rnd);
}

static void test_pvtp(pv_ctx *ctx, const char *dir, const char *name, const poly *p, int np, int L)
{
    char *path = pv_asprintf("%s/%s.pvtp", dir, name);
    pv_mesh_writer *w = pv_mesh_open(ctx, path, &GEOM);
    PV_CHECK(w != NULL);
    pv_status st = add_mine(ctx, w, p, np, L, false, 0, np);
    pv_mesh_counts c;
    PV_CHECK(pv_mesh_close_counts(ctx, w, st, &c) == PV_OK);
    PV_CHECK_EQ(c.polys, np);
    MPI_Barrier(ctx->comm);
    if (ctx->rank == 0) {
        char *idx = slurp(path, NULL);
        PV_CHECK(idx && strstr(idx, "type=\"PPolyData\""));
        unsigned long long sum_pts = 0, sum_polys = 0;
        for (int r = 0; r < ctx->nranks; r++) {
            char *piece = pv_mesh_piece_path(path, r);
            const char *base = strrchr(piece, '/') + 1;
            char *src = pv_asprintf("<Piece Source=\"%s\"/>", base);
            PV_CHECK(idx && strstr(idx, src));
            /* what rank r added: its polygons, points merged within it */
            int k0, k1, npr = 0, nconn = 0;
            layers(L, ctx->nranks, r, &k0, &k1);
            for (int i = 0; i < np; i++) {
                if (p[i].layer < k0 || p[i].layer >= k1) continue;
                npr++;
                nconn += p[i].nv;
            }
            size_t nid = distinct_ids(p, np, k0, k1);
            vtp v;
            PV_CHECK(parse_vtp(piece, &v));
            PV_CHECK_EQ(v.npolys, npr);
            PV_CHECK_EQ(v.npoints, nid);
            PV_CHECK_EQ(v.nconn, nconn);
            sum_pts += v.npoints;
            sum_polys += v.npolys;
            vtp_free(&v);
            free(src);
            free(piece);
        }
        PV_CHECK_EQ(sum_polys, np);
        PV_CHECK_EQ(c.points, sum_pts);
        free(idx);
    }
    free(path);
}

/* ---- failures ---------------------------------------------------------------------- */

static void test_failures(pv_ctx *ctx, const char *dir, const poly *p, int np, int L)
{
    size_t mem0 = ctx->mem_current;
    /* an unwritable place: every rank gets NULL and the same error */
    const char *paths[3] = {"/nonexistent-pvox-dir/m.txt", "/nonexistent-pvox-dir/m.vtp",
                            "/nonexistent-pvox-dir/m.pvtp"};
    for (int k = 0; k < 3; k++) {
        pv_mesh_writer *w = pv_mesh_open(ctx, paths[k], &GEOM);
        if (k == 0) {
            PV_CHECK(w == NULL);
            PV_CHECK(ctx->err_code == PV_EIO);
            PV_CHECK(ctx->err_msg && strstr(ctx->err_msg, "cannot open '/nonexistent-pvox-dir"));
        } else { /* VTK files are created at close */
            PV_CHECK(w != NULL);
            pv_status st = add_mine(ctx, w, p, np, L, false, 0, np);
            PV_CHECK(pv_mesh_close(ctx, w, st) == PV_EIO);
            PV_CHECK(ctx->err_msg && strstr(ctx->err_msg, "cannot open '/nonexistent-pvox-dir"));
        }
        pv_err_clear(ctx);
    }

    /* the caller fails on the last rank: nothing is written, in every format */
    const char *names[3] = {"fail.txt", "fail.vtp", "fail.pvtp"};
    for (int k = 0; k < 3; k++) {
        char *path = pv_asprintf("%s/%s", dir, names[k]);
        pv_mesh_writer *w = pv_mesh_open(ctx, path, &GEOM);
        pv_status st = add_mine(ctx, w, p, np, L, false, 0, np);
        if (ctx->rank == ctx->nranks - 1) st = pv_err(ctx, PV_ESCRIPT, "caller failed");
        PV_CHECK(pv_mesh_close(ctx, w, st) == PV_ESCRIPT);
        PV_CHECK(ctx->err_msg && strcmp(ctx->err_msg, "caller failed") == 0);
        pv_err_clear(ctx);
        MPI_Barrier(ctx->comm);
        PV_CHECK(!exists(path) && !pv_test_temp_left(path));
        char *piece = pv_mesh_piece_path(path, ctx->rank);
        PV_CHECK(!exists(piece) && !pv_test_temp_left(piece));
        free(path), free(piece);
    }

    /* an allocation fails on the last rank while adding: every rank reports it */
    char *path = pv_asprintf("%s/nomem.vtp", dir);
    pv_mesh_writer *w = pv_mesh_open(ctx, path, &GEOM);
    if (ctx->rank == ctx->nranks - 1) ctx->opt.fail_alloc_at = ctx->nallocs + 2;
    int k0, k1;
    layers(L, ctx->nranks, ctx->rank, &k0, &k1);
    pv_status st = add_mine(ctx, w, p, np, L, false, 0, np);
    bool had = k1 > k0;
    if (ctx->rank == ctx->nranks - 1 && had) PV_CHECK(st == PV_ENOMEM);
    ctx->opt.fail_alloc_at = 0;
    int any = 0, mine = ctx->rank == ctx->nranks - 1 && had;
    MPI_Allreduce(&mine, &any, 1, MPI_INT, MPI_MAX, ctx->comm);
    pv_status cs = pv_mesh_close(ctx, w, PV_OK);
    PV_CHECK(any ? cs == PV_ENOMEM : cs == PV_OK);
    pv_err_clear(ctx);
    MPI_Barrier(ctx->comm);
    if (any) PV_CHECK(!exists(path));
    remove(path);
    free(path);

    /* a NULL writer closes to the agreed caller status */
    PV_CHECK(pv_mesh_close(ctx, NULL, PV_OK) == PV_OK);
    PV_CHECK_EQ(ctx->mem_current, mem0);
}

/* Meshes the ParaView check must reject: open.vtp lacks the last polygon (a triangle of the
 * top cap: 3 boundary edges), nonmanifold.vtp has one side quad twice (its 4 edges in three
 * polygons each). */
static void write_broken(pv_ctx *ctx, const char *dir, const poly *p, int np)
{
    for (int k = 0; k < 2; k++) {
        char *path = pv_asprintf("%s/%s", dir, k ? "nonmanifold.vtp" : "open.vtp");
        pv_mesh_writer *w = pv_mesh_open(ctx, path, &GEOM);
        pv_status st = add_mine(ctx, w, p, np - (k ? 0 : 1), 5, false, 0, np - (k ? 0 : 1));
        if (k && ctx->rank == 0 && st == PV_OK)
            st = pv_mesh_add(ctx, w, p[4].nv, p[4].v[0], p[4].e, p[4].level, p[4].surf);
        PV_CHECK(pv_mesh_close(ctx, w, st) == PV_OK);
        free(path);
    }
}

int main(int argc, char **argv)
{
    int prov;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &prov);
    pv_options opt = {0};
    opt.log_level = PV_LOG_WARN;
    pv_ctx *ctx = pv_ctx_create(MPI_COMM_WORLD, &opt);

    PV_CHECK(pv_mesh_format_of("a/b.vtp") == PV_MESH_VTP);
    PV_CHECK(pv_mesh_format_of("B.VTP") == PV_MESH_VTP);
    PV_CHECK(pv_mesh_format_of("s.pvtp") == PV_MESH_PVTP);
    PV_CHECK(pv_mesh_format_of("s.vtp.txt") == PV_MESH_TEXT);
    PV_CHECK(pv_mesh_format_of("vtp") == PV_MESH_TEXT);
    PV_CHECK(pv_mesh_format_of(".vtp") == PV_MESH_VTP);
    PV_CHECK(pv_mesh_format_of(NULL) == PV_MESH_TEXT);
    char *piece = pv_mesh_piece_path("out/s.pvtp", 12);
    PV_CHECK_STR(piece, "out/s_12.vtp");
    free(piece);

    /* a directory every rank sees */
    const char *keep = getenv("PV_MESH_DIR");
    char dir[256] = {0};
    if (keep && *keep) {
        snprintf(dir, sizeof dir, "%s", keep);
    } else if (ctx->rank == 0) {
        snprintf(dir, sizeof dir, "%s/pvox-mesh-test.XXXXXX",
                 getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
        if (!mkdtemp(dir)) dir[0] = '\0';
    }
    MPI_Bcast(dir, sizeof dir, MPI_CHAR, 0, MPI_COMM_WORLD);
    PV_CHECK(dir[0] != '\0');

    /* L = 5: every rank has layers at up to 4 ranks; L = 2 leaves ranks empty at 3+; the
     * cube (160 layers) streams several chunks and spools many text chunks */
    enum { CUBE = 160 };
    poly *p = malloc(7 * CUBE * CUBE * sizeof *p);
    const int Ls[3] = {5, 2, CUBE};
    const char *names[3] = {"box", "small", "cube"};
    for (int t = 0; t < 3 && dir[0]; t++) {
        int L = Ls[t];
        int np = t < 2 ? make_tube(L, p) : make_cube(L, p);
        PV_CHECK_EQ(np, t < 2 ? 4 * L + 8 : 7 * L * L);
        if (t == 2) PV_CHECK_EQ(distinct_ids(p, np, 0, L), 6 * L * L + 2);
        test_text(ctx, dir, names[t], p, np, L);
        test_vtp(ctx, dir, names[t], p, np, L, t < 2 ? 1 : 4096);
        test_pvtp(ctx, dir, names[t], p, np, L);
        if (t == 0) test_failures(ctx, dir, p, np, L);
    }
    if (dir[0]) write_broken(ctx, dir, p, make_tube(5, p));

    MPI_Barrier(MPI_COMM_WORLD);
    if (!(keep && *keep) && ctx->rank == 0 && dir[0]) {
        const char *files[] = {"box.txt",   "box.vtp",    "box.pvtp",       "small.txt",
                               "small.vtp", "small.pvtp", "cube.txt",       "cube.vtp",
                               "cube.pvtp", "open.vtp",   "nonmanifold.vtp"};
        for (size_t k = 0; k < sizeof files / sizeof *files; k++) {
            char *f = pv_asprintf("%s/%s", dir, files[k]);
            remove(f);
            free(f);
        }
        for (int r = 0; r < ctx->nranks; r++)
            for (int t = 0; t < 3; t++) {
                char *f = pv_asprintf("%s/%s_%d.vtp", dir, names[t], r);
                remove(f);
                free(f);
            }
        PV_CHECK(rmdir(dir) == 0); /* nothing else was left behind */
    }
    free(p);

    int fails = pv_test_failures, all = 0;
    MPI_Allreduce(&fails, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    int rc = ctx->rank == 0 ? pv_test_result("io_mesh_mpi") : (all ? 1 : 0);
    pv_ctx_destroy(ctx);
    MPI_Finalize();
    return all ? 1 : rc;
}
