/*
 * The generated case table (src/iso/table.c, contract include/pvox/iso.h, DEC-7): every
 * case's loops use each crossed edge once and step between edges of a common face, the face
 * rule for ambiguous faces separates the inside corners, the loops' boundary is closed, the
 * triangles triangulate their loop with its orientation and with no diagonal lying in a cube
 * face, the winding points towards the
 * lower values, and two cells sharing a face produce the same face segments in opposite
 * directions, for every pair of cases and all three axes.
 */
#include "pvox/iso.h"
#include "iso_int.h"

#include "pv_test.h"

#include <stdint.h>
#include <stdlib.h>

static int off[8][3];

static bool crossed(int c, int e)
{
    int a, b;
    pv_iso_edge_corners(e, &a, &b);
    return ((c >> a) & 1) != ((c >> b) & 1);
}

/* the faces (2*axis + side) edge e lies on, as a 6-bit mask */
static int edge_faces(int e)
{
    int a, b, m = 0;
    pv_iso_edge_corners(e, &a, &b);
    for (int ax = 0; ax < 3; ax++)
        if (off[a][ax] == off[b][ax]) m |= 1 << (2 * ax + off[a][ax]);
    return m;
}

static void mid2(int e, int p[3]) /* twice the midpoint, integer */
{
    int a, b;
    pv_iso_edge_corners(e, &a, &b);
    for (int ax = 0; ax < 3; ax++) p[ax] = off[a][ax] + off[b][ax];
}

/* gradient of the trilinear interpolant of corner values val at point x */
static void trilinear_grad(const double val[8], const double x[3], double g[3])
{
    g[0] = g[1] = g[2] = 0.0;
    for (int c = 0; c < 8; c++)
        for (int d = 0; d < 3; d++) {
            double w = 1.0;
            for (int a = 0; a < 3; a++) {
                if (a == d)
                    w *= off[c][a] ? 1.0 : -1.0;
                else
                    w *= off[c][a] ? x[a] : 1.0 - x[a];
            }
            g[d] += val[c] * w;
        }
}

static void check_loops(void)
{
    const pv_iso_case *t = pv_iso_table();
    PV_CHECK_EQ(t[0].nloops, 0);
    PV_CHECK_EQ(t[0].ntris, 0);
    PV_CHECK_EQ(t[255].nloops, 0);
    PV_CHECK_EQ(t[255].ntris, 0);
    int maxlen = 0, maxtris = 0, maxloops = 0, bad_face = 0, bad_sep = 0, bad_use = 0;
    for (int c = 0; c < 256; c++) {
        const pv_iso_case *cs = &t[c];
        int used[12] = {0}, ntris = 0;
        PV_CHECK(cs->nloops <= PV_ISO_MAX_LOOPS);
        for (int l = 0; l < cs->nloops; l++) {
            int len = cs->loop_len[l];
            PV_CHECK(len >= 3 && len <= PV_ISO_MAX_LOOP);
            if (len > maxlen) maxlen = len;
            ntris += len - 2;
            for (int v = 0; v < len; v++) {
                int e = cs->loop[l][v], e2 = cs->loop[l][(v + 1) % len];
                used[e]++;
                /* a face segment: both edges on one face */
                int fm = edge_faces(e) & edge_faces(e2);
                if (!fm || (fm & (fm - 1))) bad_face++;
                /* the segment cuts off an inside corner run: on an ambiguous face (four
                 * crossed edges) it joins the two edges of one inside corner */
                int f = 0;
                while (fm && !((fm >> f) & 1)) f++;
                int ncross = 0;
                for (int x = 0; x < 12; x++)
                    if (((edge_faces(x) >> f) & 1) && crossed(c, x)) ncross++;
                if (ncross == 4) {
                    int a1, b1, a2, b2;
                    pv_iso_edge_corners(e, &a1, &b1);
                    pv_iso_edge_corners(e2, &a2, &b2);
                    int common = (a1 == a2 || a1 == b2) ? a1 : (b1 == a2 || b1 == b2) ? b1 : -1;
                    if (common < 0 || !((c >> common) & 1)) bad_sep++;
                }
            }
        }
        for (int e = 0; e < 12; e++)
            if (used[e] != (crossed(c, e) ? 1 : 0)) bad_use++;
        PV_CHECK_EQ(cs->ntris, ntris);
        if (cs->ntris > maxtris) maxtris = cs->ntris;
        if (cs->nloops > maxloops) maxloops = cs->nloops;
    }
    PV_CHECK_EQ(bad_face, 0);
    PV_CHECK_EQ(bad_sep, 0);
    PV_CHECK_EQ(bad_use, 0);
    PV_CHECK(maxtris <= PV_ISO_MAX_TRIS);
    fprintf(stderr, "table: longest loop %d, most triangles %d, most loops %d\n", maxlen, maxtris,
            maxloops);
}

/* Each loop's triangles (consecutive in tri, loop by loop) take vertices in loop order and
 * tile it: every loop side used once in its direction, every diagonal twice, opposite. */
static void check_triangulation(void)
{
    const pv_iso_case *t = pv_iso_table();
    int bad = 0;
    for (int c = 0; c < 256; c++) {
        const pv_iso_case *cs = &t[c];
        int tr = 0;
        for (int l = 0; l < cs->nloops; l++) {
            int len = cs->loop_len[l], pos[12], cnt[12][12] = {{0}};
            for (int e = 0; e < 12; e++) pos[e] = -1;
            for (int v = 0; v < len; v++) pos[cs->loop[l][v]] = v;
            for (int n = 0; n < len - 2; n++, tr++) {
                int p[3];
                for (int v = 0; v < 3; v++) p[v] = pos[cs->tri[tr][v]];
                if (p[0] < 0 || p[1] < 0 || p[2] < 0) {
                    bad++;
                    continue;
                }
                /* cyclic order of the loop kept: p0 < p1 < p2 up to rotation */
                int rises = (p[1] > p[0]) + (p[2] > p[1]) + (p[0] > p[2]);
                if (rises != 2) bad++;
                for (int v = 0; v < 3; v++) {
                    cnt[p[v]][p[(v + 1) % 3]]++;
                    /* a diagonal never joins two edges of one face (it would lie in it) */
                    int d = abs(p[v] - p[(v + 1) % 3]);
                    if (d != 1 && d != len - 1 &&
                        (edge_faces(cs->tri[tr][v]) & edge_faces(cs->tri[tr][(v + 1) % 3])))
                        bad++;
                }
            }
            for (int a = 0; a < len; a++)
                for (int b = 0; b < len; b++) {
                    if (a == b) continue;
                    if (b == (a + 1) % len) {
                        if (cnt[a][b] != 1 || cnt[b][a] != 0) bad++;
                    } else if (a == (b + 1) % len) {
                        continue;
                    } else if (cnt[a][b] != cnt[b][a] || cnt[a][b] > 1) {
                        bad++;
                    }
                }
        }
    }
    PV_CHECK_EQ(bad, 0);
    /* neither diagonal of a 4-vertex loop (a `mixed` quad) lies in a face: whoever splits
     * the quad, either way, keeps the surface away from the neighbour's */
    int quads = 0, bad_quads = 0;
    for (int c = 0; c < 256; c++)
        for (int l = 0; l < t[c].nloops; l++) {
            const uint8_t *L = t[c].loop[l];
            if (t[c].loop_len[l] != 4) continue;
            quads++;
            if ((edge_faces(L[0]) & edge_faces(L[2])) || (edge_faces(L[1]) & edge_faces(L[3])))
                bad_quads++;
        }
    PV_CHECK(quads > 0);
    PV_CHECK_EQ(bad_quads, 0);
}

/* Winding: with corner values -1 (inside) and +1 (outside) the vertices sit at the edge
 * midpoints; every triangle's normal (v1-v0)x(v2-v0) must point down the gradient of the
 * trilinear interpolant at its centroid, i.e. towards the lower values. */
static void check_winding(void)
{
    const pv_iso_case *t = pv_iso_table();
    int bad = 0, total = 0;
    for (int c = 1; c < 255; c++) {
        double val[8];
        for (int k = 0; k < 8; k++) val[k] = ((c >> k) & 1) ? -1.0 : 1.0;
        for (int n = 0; n < t[c].ntris; n++) {
            double p[3][3];
            for (int v = 0; v < 3; v++) {
                int m[3];
                mid2(t[c].tri[n][v], m);
                for (int a = 0; a < 3; a++) p[v][a] = 0.5 * m[a];
            }
            double u[3], w[3], nrm[3], ctr[3], g[3];
            for (int a = 0; a < 3; a++) {
                u[a] = p[1][a] - p[0][a];
                w[a] = p[2][a] - p[0][a];
                ctr[a] = (p[0][a] + p[1][a] + p[2][a]) / 3.0;
            }
            nrm[0] = u[1] * w[2] - u[2] * w[1];
            nrm[1] = u[2] * w[0] - u[0] * w[2];
            nrm[2] = u[0] * w[1] - u[1] * w[0];
            trilinear_grad(val, ctr, g);
            double d = nrm[0] * g[0] + nrm[1] * g[1] + nrm[2] * g[2];
            total++;
            if (!(d < 0.0)) {
                bad++;
                fprintf(stderr, "case %d triangle %d: normal . gradient = %g\n", c, n, d);
            }
        }
    }
    PV_CHECK(total > 0);
    PV_CHECK_EQ(bad, 0);
    /* case 1 (only c0 inside): one triangle whose normal points at c0, (-1,-1,-1) */
    PV_CHECK_EQ(t[1].ntris, 1);
    int q[3][3];
    for (int v = 0; v < 3; v++) mid2(t[1].tri[0][v], q[v]);
    int u0 = q[1][0] - q[0][0], u1 = q[1][1] - q[0][1], u2 = q[1][2] - q[0][2];
    int w0 = q[2][0] - q[0][0], w1 = q[2][1] - q[0][1], w2 = q[2][2] - q[0][2];
    PV_CHECK(u1 * w2 - u2 * w1 < 0 && u2 * w0 - u0 * w2 < 0 && u0 * w1 - u1 * w0 < 0);
}

/* Directed segments a case puts on face f, as twice-midpoint coordinate pairs shifted by
 * `shift` (the cell's position). Returns the count. */
static int face_segments(int c, int f, const int shift[3], int seg[][2][3])
{
    const pv_iso_case *cs = &pv_iso_table()[c];
    int n = 0;
    for (int l = 0; l < cs->nloops; l++)
        for (int v = 0; v < cs->loop_len[l]; v++) {
            int e = cs->loop[l][v], e2 = cs->loop[l][(v + 1) % cs->loop_len[l]];
            if (!((edge_faces(e) & edge_faces(e2)) >> f & 1)) continue;
            mid2(e, seg[n][0]);
            mid2(e2, seg[n][1]);
            for (int a = 0; a < 3; a++) {
                seg[n][0][a] += 2 * shift[a];
                seg[n][1][a] += 2 * shift[a];
            }
            n++;
        }
    return n;
}

static bool same3(const int a[3], const int b[3])
{
    return a[0] == b[0] && a[1] == b[1] && a[2] == b[2];
}

/* Cell A at the origin, cell B at +axis: for every A case and every B case whose shared
 * face corners agree, A's segments on its face (axis, 1) equal B's on (axis, 0) reversed. */
static void check_neighbours(void)
{
    int pairs = 0, bad = 0;
    for (int ax = 0; ax < 3; ax++) {
        int shiftA[3] = {0, 0, 0}, shiftB[3] = {0, 0, 0};
        shiftB[ax] = 1;
        for (int a = 0; a < 256; a++)
            for (int b = 0; b < 256; b++) {
                bool agree = true;
                for (int k = 0; k < 8 && agree; k++) {
                    if (off[k][ax] != 1) continue;
                    int p[3] = {off[k][0], off[k][1], off[k][2]};
                    p[ax] = 0;
                    int kb = -1;
                    for (int m = 0; m < 8; m++)
                        if (same3(off[m], p)) kb = m;
                    if (((a >> k) & 1) != ((b >> kb) & 1)) agree = false;
                }
                if (!agree) continue;
                pairs++;
                int sa[12][2][3], sb[12][2][3];
                int na = face_segments(a, 2 * ax + 1, shiftA, sa);
                int nb = face_segments(b, 2 * ax, shiftB, sb);
                if (na != nb) {
                    bad++;
                    continue;
                }
                for (int i = 0; i < na; i++) {
                    int found = 0;
                    for (int j = 0; j < nb; j++)
                        if (same3(sa[i][0], sb[j][1]) && same3(sa[i][1], sb[j][0])) found++;
                    if (found != 1) bad++;
                }
            }
    }
    PV_CHECK_EQ(pairs, 3 * 256 * 16);
    PV_CHECK_EQ(bad, 0);
}

/* Conventions: edge corners per iso.h, lower corner first; complementary cases have the
 * same crossed edges; the derived polygon lists match the table. */
static void check_conventions(void)
{
    static const int ends[12][2] = {{0, 1}, {1, 2}, {2, 3}, {3, 0}, {4, 5}, {5, 6},
                                    {6, 7}, {7, 4}, {0, 4}, {1, 5}, {2, 6}, {3, 7}};
    for (int e = 0; e < 12; e++) {
        int a, b, d = 0, axis = -1;
        pv_iso_edge_corners(e, &a, &b);
        PV_CHECK((a == ends[e][0] && b == ends[e][1]) || (a == ends[e][1] && b == ends[e][0]));
        for (int x = 0; x < 3; x++) {
            d += abs(off[b][x] - off[a][x]);
            if (off[b][x] != off[a][x]) axis = x;
        }
        PV_CHECK_EQ(d, 1);
        PV_CHECK_EQ(off[b][axis] - off[a][axis], 1);
    }
    const pv_iso_case *t = pv_iso_table();
    for (int m = 0; m < 2; m++) {
        const pv_iso_polys *ps = pv_iso_polys_table(m == 1);
        int bad = 0;
        for (int c = 0; c < 256; c++) {
            int tris = 0, quads = 0, mask = 0;
            for (int l = 0; l < t[c].nloops; l++) {
                if (m == 1 && t[c].loop_len[l] == 4)
                    quads++;
                else
                    tris += t[c].loop_len[l] - 2;
                for (int v = 0; v < t[c].loop_len[l]; v++) mask |= 1 << t[c].loop[l][v];
            }
            if (ps[c].npolys != tris + quads || ps[c].ntris != t[c].ntris || ps[c].emask != mask)
                bad++;
            if (ps[c].npolys > PV_ISO_MAX_POLYS) bad++;
        }
        PV_CHECK_EQ(bad, 0);
    }
}

int main(void)
{
    for (int c = 0; c < 8; c++) pv_iso_corner_offset(c, off[c]);
    PV_CHECK(off[6][0] == 1 && off[6][1] == 1 && off[6][2] == 1);
    PV_CHECK(off[3][0] == 0 && off[3][1] == 1 && off[3][2] == 0);
    check_conventions();
    check_loops();
    check_triangulation();
    check_winding();
    check_neighbours();
    return pv_test_result("iso.test_table");
}
