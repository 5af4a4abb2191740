/*
 * render/raster_marker.c: gnuplot's point markers as regions, and their sample coverage.
 *
 * Geometry as gnuplot 5.4's cairo terminals draw a point of style `pt` (measured with
 * pngcairo, tests/render/test_raster_markers.c): s = 3 x pointsize pixels, stroke width
 * = linewidth pixels, butt caps, mitred joins (miter limit 3.8, bevel beyond).
 *   0 dot: disk of radius 0.5 px, whatever the size and width
 *   1 plus: strokes (-s,0)-(s,0) and (0,-s)-(0,s); 2 cross: the two diagonals of the
 *   [-s,s] square; 3 star: both
 *   4/5 square [-s,s]^2, 6/7 circle of radius s, 8/9 triangle (0,-s) (s,s-1) (-s,s-1),
 *   10/11 triangle (0,s) (s,-s+1) (-s,-s+1), 12/13 diamond (+-s,0) (0,+-s), 14/15 pentagon
 *   of circumradius s with a vertex at (0,s): outlined, or (odd types) filled and outlined.
 * (y grows down; the "-1" of the triangles is one device pixel, as in gnuplot.)
 *
 * A stroked convex outline is the region between the polygon pushed out by half the
 * width (mitred corners) and pulled in by it; filled-and-stroked is the pushed-out polygon
 * alone. Both are intersections of half-planes, so a sample test is a few dot products.
 */
#include "raster_int.h"

#include <math.h>
#include <string.h>

#define MITER_LIMIT 3.8f

/* Sample pattern: 16 "queens" on a 16x16 grid: every row, column and diagonal of the
 * grid holds at most one sample, so edges at any angle get many distinct coverage levels
 * (a regular or sheared lattice collapses along some diagonal). Chosen among random
 * 16-queens solutions for the smallest coverage error of half-planes over all angles and
 * of 45-degree strokes through pixel centres (crosses and diamonds of snapped markers). */
#define Q(v) ((v) / 16.0f)
const float rs_sample_x[RS_NS] = {Q(11.5f), Q(3.5f), Q(7.5f), Q(2.5f), Q(8.5f), Q(14.5f), Q(0.5f), Q(10.5f), Q(15.5f), Q(4.5f), Q(6.5f), Q(9.5f), Q(13.5f), Q(5.5f), Q(1.5f), Q(12.5f)};
const float rs_sample_y[RS_NS] = {Q(0.5f), Q(1.5f), Q(2.5f), Q(3.5f), Q(4.5f), Q(5.5f), Q(6.5f), Q(7.5f), Q(8.5f), Q(9.5f), Q(10.5f), Q(11.5f), Q(12.5f), Q(13.5f), Q(14.5f), Q(15.5f)};
#undef Q

void pv_raster_sample_pos(float sx[PV_RASTER_SAMPLES], float sy[PV_RASTER_SAMPLES])
{
    memcpy(sx, rs_sample_x, sizeof rs_sample_x);
    memcpy(sy, rs_sample_y, sizeof rs_sample_y);
}

/* ---- building regions --------------------------------------------------------------- */

static void hp_add(rs_hp *h, float nx, float ny, float c)
{
    if (h->n >= RS_MAX_HP) return;
    h->nx[h->n] = nx;
    h->ny[h->n] = ny;
    h->c[h->n] = c;
    h->n++;
}

/* A stroke of half-width d from (px,py) to (qx,qy) with butt ends. */
static void part_segment(rs_part *pt, float px, float py, float qx, float qy, float d)
{
    memset(pt, 0, sizeof *pt);
    pt->kind = RS_PART_POLY;
    float dx = qx - px, dy = qy - py;
    float len = sqrtf(dx * dx + dy * dy);
    if (!(len > 0.0f)) return; /* nothing: an empty region (n stays 0 -> see mask) */
    float ux = dx / len, uy = dy / len;
    float nx = -uy, ny = ux;
    hp_add(&pt->outer, nx, ny, -(nx * px + ny * py) + d);
    hp_add(&pt->outer, -nx, -ny, (nx * px + ny * py) + d);
    hp_add(&pt->outer, ux, uy, -(ux * px + uy * py));
    hp_add(&pt->outer, -ux, -uy, (ux * qx + uy * qy));
}

/* Convex polygon v[0..n) (either winding) offset by +d (outward, mitred, bevelled past the
 * miter limit) into `out`, and by -d (inward) into `in` when `in` is not NULL. */
static void polygon_offsets(const float *vx, const float *vy, int n, float d, rs_hp *out,
                            rs_hp *in)
{
    double area2 = 0.0;
    for (int i = 0; i < n; i++) {
        int j = (i + 1) % n;
        area2 += (double)vx[i] * (double)vy[j] - (double)vx[j] * (double)vy[i];
    }
    /* y down: for area2 > 0 the interior is to the left of each edge in (x right, y down),
     * i.e. the inward normal of edge (dx,dy) is (-dy, dx). */
    float sgn = area2 > 0.0 ? 1.0f : -1.0f;
    float inx[8], iny[8];
    for (int i = 0; i < n; i++) {
        int j = (i + 1) % n;
        float dx = vx[j] - vx[i], dy = vy[j] - vy[i];
        float len = sqrtf(dx * dx + dy * dy);
        inx[i] = sgn * -dy / len;
        iny[i] = sgn * dx / len;
        float c = -(inx[i] * vx[i] + iny[i] * vy[i]);
        hp_add(out, inx[i], iny[i], c + d);
        if (in) hp_add(in, inx[i], iny[i], c - d);
    }
    for (int i = 0; i < n; i++) {
        int prev = (i + n - 1) % n; /* edges prev (ending at v[i]) and i (starting there) */
        float cosphi = inx[prev] * inx[i] + iny[prev] * iny[i]; /* angle between normals */
        float sin_half = sqrtf(fmaxf(0.0f, (1.0f + cosphi) * 0.5f)); /* sin(interior/2) */
        if (sin_half * MITER_LIMIT >= 1.0f) continue;                /* mitred */
        float mx = inx[prev] + inx[i], my = iny[prev] + iny[i];
        float ml = sqrtf(mx * mx + my * my);
        if (!(ml > 0.0f)) continue;
        mx /= ml;
        my /= ml;
        hp_add(out, mx, my, -(mx * vx[i] + my * vy[i]) + d * sin_half);
    }
}

/* An outlined polygon: the stroke band. A filled one: the fill, then the band. */
static void part_polygon(rs_style *st, const float *vx, const float *vy, int n, float d,
                         bool filled)
{
    if (filled) {
        rs_part *fill = &st->part[st->nparts++];
        memset(fill, 0, sizeof *fill);
        fill->kind = RS_PART_POLY;
        polygon_offsets(vx, vy, n, 0.0f, &fill->outer, NULL);
    }
    rs_part *pt = &st->part[st->nparts++];
    memset(pt, 0, sizeof *pt);
    pt->kind = RS_PART_POLY;
    polygon_offsets(vx, vy, n, d, &pt->outer, &pt->inner);
}

static void part_ring(rs_part *pt, float r_in, float r_out)
{
    memset(pt, 0, sizeof *pt);
    pt->kind = RS_PART_RING;
    pt->r_in2 = r_in > 0.0f ? r_in * r_in : -1.0f;
    pt->r_out2 = r_out * r_out;
}

void rs_style_build(rs_style *st, int type, float size, float lw)
{
    memset(st, 0, sizeof *st);
    st->type = type;
    st->size = size;
    st->lw = lw;
    float s = size, d = 0.5f * lw;
    rs_part *p = st->part;
    switch (type) {
    case PV_MARK_DOT:
        part_ring(&p[0], 0.0f, 0.5f);
        st->nparts = 1;
        st->ext = 0.5f;
        return;
    case PV_MARK_PLUS:
    case PV_MARK_STAR:
        part_segment(&p[st->nparts++], -s, 0.0f, s, 0.0f, d);
        part_segment(&p[st->nparts++], 0.0f, -s, 0.0f, s, d);
        if (type == PV_MARK_PLUS) break;
        /* the star adds the cross */
        /* fall through */
    case PV_MARK_CROSS:
        part_segment(&p[st->nparts++], -s, -s, s, s, d);
        part_segment(&p[st->nparts++], -s, s, s, -s, d);
        break;
    case PV_MARK_BOX:
    case PV_MARK_BOX_FILLED: {
        const float vx[4] = {-s, -s, s, s}, vy[4] = {-s, s, s, -s};
        part_polygon(st, vx, vy, 4, d, type == PV_MARK_BOX_FILLED);
        break;
    }
    case PV_MARK_CIRCLE:
        part_ring(&p[st->nparts++], s - d, s + d);
        break;
    case PV_MARK_CIRCLE_FILLED:
        part_ring(&p[st->nparts++], 0.0f, s);
        part_ring(&p[st->nparts++], s - d, s + d);
        break;
    case PV_MARK_TRIANGLE:
    case PV_MARK_TRIANGLE_FILLED: {
        const float vx[3] = {-s, 0.0f, s}, vy[3] = {s - 1.0f, -s, s - 1.0f};
        part_polygon(st, vx, vy, 3, d, type == PV_MARK_TRIANGLE_FILLED);
        break;
    }
    case PV_MARK_TRIANGLE_DOWN:
    case PV_MARK_TRIANGLE_DOWN_FILLED: {
        const float vx[3] = {-s, 0.0f, s}, vy[3] = {-s + 1.0f, s, -s + 1.0f};
        part_polygon(st, vx, vy, 3, d, type == PV_MARK_TRIANGLE_DOWN_FILLED);
        break;
    }
    case PV_MARK_DIAMOND:
    case PV_MARK_DIAMOND_FILLED: {
        const float vx[4] = {-s, 0.0f, s, 0.0f}, vy[4] = {0.0f, s, 0.0f, -s};
        part_polygon(st, vx, vy, 4, d, type == PV_MARK_DIAMOND_FILLED);
        break;
    }
    case PV_MARK_PENTAGON:
    case PV_MARK_PENTAGON_FILLED: {
        const float vx[5] = {0.5878f * s, -0.5878f * s, -0.9511f * s, 0.0f, 0.9511f * s};
        const float vy[5] = {-0.8090f * s, -0.8090f * s, 0.3090f * s, s, 0.3090f * s};
        part_polygon(st, vx, vy, 5, d, type == PV_MARK_PENTAGON_FILLED);
        break;
    }
    default:
        break;
    }
    /* Every part lies within the square of half-side s + d * miter limit (+1 for the
     * triangles' one-pixel shift). */
    st->ext = s + d * MITER_LIMIT + 1.0f;
    if (size <= 0.0f) st->nparts = 0; /* gnuplot draws nothing visible at size 0 */
}

/* ---- sample coverage ------------------------------------------------------------------ */

/* Samples of the pixel whose corner is (ox, oy) relative to the centre inside hp. */
static uint16_t hp_mask(const rs_hp *h, float ox, float oy, const float *sx, const float *sy,
                        bool strict)
{
    if (h->n == 0) return 0;
    uint16_t m = PV_RASTER_MASK_FULL;
    for (int k = 0; k < h->n && m; k++) {
        float base = h->nx[k] * ox + h->ny[k] * oy + h->c[k];
        uint16_t mk = 0;
        for (int s = 0; s < RS_NS; s++) {
            float e = base + h->nx[k] * sx[s] + h->ny[k] * sy[s];
            mk |= (uint16_t)((strict ? e > 0.0f : e >= 0.0f) << s);
        }
        m &= mk;
    }
    return m;
}

static uint16_t ring_mask(const rs_part *pt, float ox, float oy, const float *sx,
                          const float *sy)
{
    uint16_t m = 0;
    for (int s = 0; s < RS_NS; s++) {
        float x = ox + sx[s], y = oy + sy[s];
        float r2 = x * x + y * y;
        m |= (uint16_t)((r2 <= pt->r_out2 && r2 > pt->r_in2) << s);
    }
    return m;
}

uint16_t rs_style_mask(const rs_style *st, float cx, float cy, int px, int py,
                       uint16_t part_mask[RS_MAX_PARTS])
{
    const float *sx = rs_sample_x, *sy = rs_sample_y;
    float ox = (float)px - cx, oy = (float)py - cy;
    uint16_t m = 0;
    for (int i = 0; i < st->nparts; i++) {
        const rs_part *pt = &st->part[i];
        if (pt->kind == RS_PART_RING) {
            part_mask[i] = ring_mask(pt, ox, oy, sx, sy);
        } else {
            uint16_t mo = hp_mask(&pt->outer, ox, oy, sx, sy, false);
            if (mo && pt->inner.n) mo &= (uint16_t)~hp_mask(&pt->inner, ox, oy, sx, sy, true);
            part_mask[i] = mo;
        }
        m |= part_mask[i];
    }
    return m;
}
