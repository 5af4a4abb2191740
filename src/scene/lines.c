/*
 * scene/lines: data drawn with lines, linespoints and impulses (`splot 'data' with
 * lines`), as gnuplot 5.4 draws them:
 *   - each scan line (a block of rows) is a polyline, broken at undefined rows;
 *   - when every scan has the same number of points (a grid: '++' samples, a gridded
 *     data file), the cross lines through the i-th point of every scan too (a function
 *     surface brings its cross lines as scans of their own: grid_scans);
 *   - segments are clipped to the x, y and z ranges (in 3D, before projection);
 *   - a segment's colour: `lc palette` takes the mean of its two ends' colour values
 *     (z, or the colour column), `lc variable` / `lc rgb variable` its second end's;
 *   - impulses go from z = 0 (or the nearer end of the z range when 0 is outside it)
 *     to the point, clipped to the z range; points outside the x or y range draw none;
 *   - linespoints adds the points (scene/points.c) over the lines;
 *   - `set hidden3d`: a surface (equal scans, or a function's grid) drawn with lines or
 *     linespoints is opaque: its quads are filled with the background colour and its
 *     quads pushed back a hair behind their lines, so what lies behind the surface is hidden
 *     (gnuplot's hidden-line removal; the underside is not drawn in another colour).
 * Segments are added whole with the world z of their ends: the raster cuts them at the
 * rank's slab planes (raster.h "Slab cuts"), so a line crossing slabs is drawn once.
 */
#include "scene_int.h"

#include <math.h>

/* Clip the segment a-b to the box [lo, hi] (Liang-Barsky in 3D). False if nothing of it
 * is inside. */
static bool clip_segment(double a[3], double b[3], const double lo[3], const double hi[3])
{
    double t0 = 0.0, t1 = 1.0, d[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
    for (int k = 0; k < 3; k++) {
        double p[2] = {-d[k], d[k]}, q[2] = {a[k] - lo[k], hi[k] - a[k]};
        for (int s = 0; s < 2; s++) {
            if (p[s] == 0.0) {
                if (q[s] < 0.0) return false;
                continue;
            }
            double t = q[s] / p[s];
            if (p[s] < 0.0) {
                if (t > t1) return false;
                if (t > t0) t0 = t;
            } else {
                if (t < t0) return false;
                if (t < t1) t1 = t;
            }
        }
    }
    double a0[3] = {a[0], a[1], a[2]};
    for (int k = 0; k < 3; k++) {
        a[k] = a0[k] + t0 * d[k];
        b[k] = a0[k] + t1 * d[k];
    }
    return true;
}

typedef struct line_draw {
    pv_ctx *ctx;
    const pv_scene_frame *F;
    const pv_scene_elem *e;
    pv_scene_cols kc;
    pv_raster *r;
    float width;
    double lo[3], hi[3];
    uint64_t base;
    pv_rgba8 fixed;          /* the colour when it does not vary by item */
    bool varies;
} line_draw;

static bool finite3(const double *v)
{
    return isfinite(v[0]) && isfinite(v[1]) && isfinite(v[2]);
}

/* The colour value of row v: its colour column if it has one, else z. */
static double cval_of(const line_draw *D, const double *v)
{
    return D->kc.color >= 0 ? v[D->kc.color] : v[2];
}

static pv_status add_segment(line_draw *D, const double *pa, const double *pb,
                             pv_rgba8 color, uint64_t item)
{
    double a[3] = {pa[0], pa[1], pa[2]}, b[3] = {pb[0], pb[1], pb[2]};
    if (!clip_segment(a, b, D->lo, D->hi)) return PV_OK;
    double ax, ay, ad, bx, by, bd;
    pv_view_project(D->F->view, a[0], a[1], a[2], &ax, &ay, &ad);
    pv_view_project(D->F->view, b[0], b[1], b[2], &bx, &by, &bd);
    pv_raster_line l = {(float)ax, (float)ay, (float)ad, (float)bx, (float)by, (float)bd,
                        D->width, color, D->base | item};
    return pv_raster_add_line_cut(D->ctx, D->r, &l, a[2], b[2]);
}

/* The segment between rows i and j (j's colour for `variable`, the mean for palette). */
static pv_status row_segment(line_draw *D, size_t i, size_t j, uint64_t item)
{
    const pv_scene_elem *e = D->e;
    const double *u = e->vals + i * (size_t)e->ncols, *v = e->vals + j * (size_t)e->ncols;
    if (!finite3(u) || !finite3(v)) return PV_OK;
    pv_rgba8 c = D->fixed;
    if (D->varies) {
        double cu = cval_of(D, u), cv = cval_of(D, v);
        double var = D->kc.color >= 0 ? v[D->kc.color] : (double)NAN;
        c = pv_scene_item_color(D->F->colors, e, 0.5 * (cu + cv), var);
    }
    return add_segment(D, u, v, c, item);
}

/* Rows [first, end) of scan k. */
static size_t scan_first(const pv_scene_elem *e, size_t k)
{
    return k == 0 ? 0 : e->scan[k - 1];
}

static bool is_grid(const pv_scene_elem *e)
{
    if (e->nscan < 2 || e->plot2d) return false; /* a 2D plot's curves: no cross lines */
    if (e->grid_scans > 0 && e->grid_scans < e->nscan) return false; /* cross lines given */
    size_t n = e->scan[0];
    for (size_t k = 1; k < e->nscan; k++)
        if (e->scan[k] - e->scan[k - 1] != n) return false;
    return n > 0;
}

static bool inside(const line_draw *D, const double *v)
{
    for (int k = 0; k < 3; k++)
        if (!(v[k] >= D->lo[k] && v[k] <= D->hi[k])) return false;
    return true;
}

/* The join at row j between the segments from row i and to row k of one polyline of a
 * fixed colour: pngcairo strokes such a line as one path with mitred joins (cairo's
 * miter limit 10, a bevel beyond), so the wedge between the two butt ends on the outer
 * side of the turn is filled. It lies wholly in the slab of row j (one rank draws it). */
static pv_status join(line_draw *D, size_t i, size_t j, size_t k, uint64_t item)
{
    const pv_scene_elem *e = D->e;
    const double *u = e->vals + i * (size_t)e->ncols, *p = e->vals + j * (size_t)e->ncols,
                 *v = e->vals + k * (size_t)e->ncols;
    if (!finite3(u) || !finite3(p) || !finite3(v) || !inside(D, u) || !inside(D, p) ||
        !inside(D, v))
        return PV_OK;
    double ux, uy, ud, px, py, pd, vx, vy, vd;
    pv_view_project(D->F->view, u[0], u[1], u[2], &ux, &uy, &ud);
    pv_view_project(D->F->view, p[0], p[1], p[2], &px, &py, &pd);
    pv_view_project(D->F->view, v[0], v[1], v[2], &vx, &vy, &vd);
    double d1x = px - ux, d1y = py - uy, d2x = vx - px, d2y = vy - py;
    double l1 = hypot(d1x, d1y), l2 = hypot(d2x, d2y);
    if (!(l1 > 1e-6) || !(l2 > 1e-6)) return PV_OK;
    d1x /= l1, d1y /= l1, d2x /= l2, d2y /= l2;
    double cross = d1x * d2y - d1y * d2x;
    if (fabs(cross) < 1e-6) return PV_OK; /* straight on (or straight back) */
    double h = 0.5 * (double)D->width;
    /* the outer offsets: away from where the other segment goes */
    double n1x = -d1y, n1y = d1x, n2x = -d2y, n2y = d2x;
    double s1 = n1x * d2x + n1y * d2y < 0.0 ? h : -h;
    double s2 = n2x * d1x + n2y * d1y > 0.0 ? h : -h;
    double ax = px + s1 * n1x, ay = py + s1 * n1y, bx = px + s2 * n2x, by = py + s2 * n2y;
    /* the mitre tip: a + t d1 = b + w d2 */
    double t = ((bx - ax) * d2y - (by - ay) * d2x) / cross;
    double tx = ax + t * d1x, ty = ay + t * d1y;
    float x[4], y[4], dep[4];
    double wz[4];
    int n = 0;
    x[n] = (float)px, y[n++] = (float)py;
    x[n] = (float)ax, y[n++] = (float)ay;
    if (hypot(tx - px, ty - py) <= 10.0 * h) x[n] = (float)tx, y[n++] = (float)ty;
    x[n] = (float)bx, y[n++] = (float)by;
    for (int q = 0; q < n; q++) dep[q] = (float)pd, wz[q] = p[2];
    return pv_raster_add_polygon(D->ctx, D->r, n, x, y, dep, wz, 0u, D->fixed, D->base | item);
}

static pv_status draw_polylines(line_draw *D)
{
    const pv_scene_elem *e = D->e;
    pv_status st = PV_OK;
    /* item numbers: the scans' segments by their first row, then the cross lines after
     * every row (distinct and the same on every rank); a join takes the number of the
     * segment after it (same colour: their order does not change the picture) */
    for (size_t k = 0; k < e->nscan && st == PV_OK; k++)
        for (size_t i = scan_first(e, k); i + 1 < e->scan[k] && st == PV_OK; i++) {
            st = row_segment(D, i, i + 1, i);
            if (st == PV_OK && !D->varies && i > scan_first(e, k))
                st = join(D, i - 1, i, i + 1, i);
        }
    if (st != PV_OK || !is_grid(e)) return st;
    size_t n = e->scan[0];
    for (size_t k = 0; k + 1 < e->nscan && st == PV_OK; k++)
        for (size_t j = 0; j < n && st == PV_OK; j++)
            st = row_segment(D, k * n + j, (k + 1) * n + j, e->nrows + k * n + j);
    return st;
}

/* A vector head at pixel (px, py) with depth pd (world z wz), pointing away from the
 * shaft whose other end is (qx, qy): gnuplot's default head (15 degrees, 0.3 of the
 * shaft kept between 0.3 and 2 tic lengths), an open V or filled. */
static pv_status vector_head(line_draw *D, double px, double py, double pd, double wz,
                             double qx, double qy, pv_rgba8 c, uint64_t item)
{
    const pv_termdim *t = &D->F->view->term;
    double dx = qx - px, dy = qy - py, len = sqrt(dx * dx + dy * dy);
    if (len < 1e-9) return PV_OK;
    double len_tic = (t->h_tic + t->v_tic) / 2.0 / PV_TERM_UNITS_PER_PX;
    double hc = fmax(len_tic * 0.3 / len, fmin(0.3, len_tic * 2.0 / len));
    const double c15 = 0.96593, s15 = 0.25882;
    double x1 = (c15 * dx - s15 * dy) * hc, y1 = (s15 * dx + c15 * dy) * hc;
    double x2 = (c15 * dx + s15 * dy) * hc, y2 = (-s15 * dx + c15 * dy) * hc;
    if (D->e->st.head_filled) {
        float x[4] = {(float)(px + (x1 + x2) / 2), (float)(px + x1), (float)px, (float)(px + x2)};
        float y[4] = {(float)(py + (y1 + y2) / 2), (float)(py + y1), (float)py, (float)(py + y2)};
        float d[4] = {(float)pd, (float)pd, (float)pd, (float)pd};
        double w[4] = {wz, wz, wz, wz};
        pv_status st = pv_raster_add_polygon(D->ctx, D->r, 4, x, y, d, w, 0, c, D->base | item);
        for (int k = 0; k < 4 && st == PV_OK; k++) { /* and its outline, as gnuplot */
            int j = (k + 1) % 4;
            pv_raster_line l = {x[k], y[k], (float)pd, x[j], y[j], (float)pd, D->width, c,
                                D->base | item};
            st = pv_raster_add_line_cut(D->ctx, D->r, &l, wz, wz);
        }
        return st;
    }
    pv_raster_line l[2] = {
        {(float)(px + x1), (float)(py + y1), (float)pd, (float)px, (float)py, (float)pd, D->width,
         c, D->base | item},
        {(float)px, (float)py, (float)pd, (float)(px + x2), (float)(py + y2), (float)pd, D->width,
         c, D->base | item}};
    pv_status st = pv_raster_add_line_cut(D->ctx, D->r, &l[0], wz, wz);
    return st == PV_OK ? pv_raster_add_line_cut(D->ctx, D->r, &l[1], wz, wz) : st;
}

/* `with vectors`: x y z dx dy dz per row, a shaft from (x, y, z) to its tip clipped to
 * the box, and heads at the ends that lie inside it. */
static pv_status draw_vectors(line_draw *D)
{
    const pv_scene_elem *e = D->e;
    pv_status st = PV_OK;
    if (e->ncols < 6) return PV_OK;
    for (size_t i = 0; i < e->nrows && st == PV_OK; i++) {
        const double *v = e->vals + i * (size_t)e->ncols;
        double a[3] = {v[0], v[1], v[2]}, b[3] = {v[0] + v[3], v[1] + v[4], v[2] + v[5]};
        if (!finite3(a) || !finite3(b)) continue;
        pv_rgba8 c = D->fixed;
        if (D->varies)
            c = pv_scene_item_color(D->F->colors, e, cval_of(D, v),
                                    D->kc.color >= 0 ? v[D->kc.color] : (double)NAN);
        bool tail_in = true, tip_in = true;
        for (int k = 0; k < 3; k++) {
            tail_in = tail_in && a[k] >= D->lo[k] && a[k] <= D->hi[k];
            tip_in = tip_in && b[k] >= D->lo[k] && b[k] <= D->hi[k];
        }
        if ((st = add_segment(D, a, b, c, 3 * i)) != PV_OK) break;
        double ax, ay, ad, bx, by, bd;
        pv_view_project(D->F->view, a[0], a[1], a[2], &ax, &ay, &ad);
        pv_view_project(D->F->view, b[0], b[1], b[2], &bx, &by, &bd);
        if ((e->st.heads & 1) && tip_in)
            st = vector_head(D, bx, by, bd, b[2], ax, ay, c, 3 * i + 1);
        if (st == PV_OK && (e->st.heads & 2) && tail_in)
            st = vector_head(D, ax, ay, ad, a[2], bx, by, c, 3 * i + 2);
    }
    return st;
}

static pv_status draw_impulses(line_draw *D)
{
    const pv_scene_elem *e = D->e;
    int ax = e->plot2d ? 1 : 2; /* from z = 0, in 2D from y = 0, inside the range */
    double base = 0.0;
    if (base < D->lo[ax]) base = D->lo[ax];
    if (base > D->hi[ax]) base = D->hi[ax];
    pv_status st = PV_OK;
    for (size_t i = 0; i < e->nrows && st == PV_OK; i++) {
        const double *v = e->vals + i * (size_t)e->ncols;
        if (!finite3(v)) continue;
        bool y_out = v[1] < D->lo[1] || v[1] > D->hi[1]; /* 2D: clipped at the y range */
        if (v[0] < D->lo[0] || v[0] > D->hi[0] || (y_out && !e->plot2d)) continue;
        double a[3] = {v[0], e->plot2d ? base : v[1], e->plot2d ? v[2] : base};
        pv_rgba8 c = D->fixed;
        if (D->varies)
            c = pv_scene_item_color(D->F->colors, e, cval_of(D, v),
                                    D->kc.color >= 0 ? v[D->kc.color] : (double)NAN);
        st = add_segment(D, a, v, c, i);
    }
    return st;
}

/* How far to push a fill polygon back so that the lines on its edges stay in front: a
 * fragment takes one depth per pixel, so the offset is the polygon's steepest depth
 * change over two pixels (OpenGL's polygon offset), plus a little; capped for polygons
 * seen edge-on. */
static float fill_offset(int nv, const float *x, const float *y, const float *d)
{
    double slope = 0.0;
    for (int i = 1; i + 1 < nv; i++) {
        double x1 = x[i] - x[0], y1 = y[i] - y[0], d1 = d[i] - d[0];
        double x2 = x[i + 1] - x[0], y2 = y[i + 1] - y[0], d2 = d[i + 1] - d[0];
        double det = x1 * y2 - x2 * y1;
        if (fabs(det) < 1e-9) continue;
        double a = (d1 * y2 - d2 * y1) / det, b = (d2 * x1 - d1 * x2) / det;
        slope = fmax(slope, fabs(a) + fabs(b));
    }
    return (float)fmin(1e-4 + 2.0 * slope, 0.05);
}

/* `set hidden3d`: the surface's quads in the background colour, opaque, cut to the z range
 * (those reaching outside the x/y ranges left out), edges lying in one z-plane hard (as
 * pm3d quads). Items from 3 nrows on (after the
 * lines and linespoints' points). */
static pv_status draw_fill(line_draw *D)
{
    const pv_scene_elem *e = D->e;
    size_t nscan = e->grid_scans > 0 && e->grid_scans < e->nscan ? e->grid_scans : e->nscan;
    size_t n = e->scan[0];
    uint32_t bg = D->F->colors->background;
    pv_rgba8 c = {(uint8_t)(bg >> 16), (uint8_t)(bg >> 8), (uint8_t)bg, 255};
    pv_status st = PV_OK;
    for (size_t k = 0; k + 1 < nscan && st == PV_OK; k++) {
        for (size_t i = 0; i + 1 < n && st == PV_OK; i++) {
            size_t rows[4] = {k * n + i, k * n + i + 1, (k + 1) * n + i + 1, (k + 1) * n + i};
            double poly[4][3], cut[8][3];
            bool ok = true;
            for (int j = 0; j < 4 && ok; j++) {
                const double *v = e->vals + rows[j] * (size_t)e->ncols;
                ok = finite3(v);
                for (int a = 0; a < 3; a++) poly[j][a] = v[a];
                /* a quad reaching outside the x/y ranges hides nothing (its lines are
                 * clipped there) */
                for (int a = 0; a < 2 && ok; a++) ok = v[a] >= D->lo[a] && v[a] <= D->hi[a];
            }
            if (!ok) continue;
            int nv = pv_scene_clip_z((const double(*)[3])poly, 4, D->lo[2], D->hi[2], cut);
            if (nv < 3) continue;
            float x[8], y[8], d[8];
            double wz[8];
            unsigned hard = 0;
            for (int j = 0; j < nv; j++) {
                double sx, sy, dd;
                pv_view_project(D->F->view, cut[j][0], cut[j][1], cut[j][2], &sx, &sy, &dd);
                x[j] = (float)sx, y[j] = (float)sy, d[j] = (float)dd;
                wz[j] = cut[j][2];
                if (cut[j][2] == cut[(j + 1) % nv][2]) hard |= 1u << j;
            }
            float back = fill_offset(nv, x, y, d);
            for (int j = 0; j < nv; j++) d[j] += back;
            st = pv_raster_add_polygon(D->ctx, D->r, nv, x, y, d, wz, hard, c,
                                       D->base | (3 * (uint64_t)e->nrows + k * n + i));
        }
    }
    return st;
}

pv_status pv_scene_draw_lines(pv_ctx *ctx, const pv_scene_frame *F, const pv_scene_elem *e,
                              pv_raster *r)
{
    line_draw D = {ctx, F, e, pv_scene_columns(e), r, 1.0f, {0}, {0}, 0, {0}, false};
    double lw = e->st.lp.lw > 0 ? e->st.lp.lw : 1.0;
    D.width = (float)(lw * (F->linewidth > 0 ? F->linewidth : 1.0));
    if (D.width < 0.2f) D.width = 0.2f;
    D.lo[0] = F->xmin, D.hi[0] = F->xmax;
    D.lo[1] = F->ymin, D.hi[1] = F->ymax;
    D.lo[2] = F->zmin, D.hi[2] = F->zmax;
    for (int k = 0; k < 3; k++)
        if (D.lo[k] > D.hi[k]) {
            double t = D.lo[k];
            D.lo[k] = D.hi[k], D.hi[k] = t;
        }
    /* lines first, then linespoints' points over them (larger order numbers) */
    D.base = PV_SCENE_ORDER(e->number, 0);
    pv_color_kind ck = e->st.lp.lc.kind;
    D.varies = ck == PV_COLOR_PALETTE_Z || ck == PV_COLOR_VARIABLE || ck == PV_COLOR_RGB_VARIABLE;
    if (!D.varies) D.fixed = pv_scene_item_color(F->colors, e, (double)NAN, (double)NAN);
    pv_status st = PV_OK;
    bool surface = e->st.style != PV_STYLE_VECTORS && (e->grid_scans > 1 || is_grid(e));
    if (F->hidden3d && e->st.style != PV_STYLE_IMPULSES && surface) {
        st = draw_fill(&D); /* pushed back so the lines on it stay in front */
    }
    if (st == PV_OK)
        st = e->st.style == PV_STYLE_IMPULSES  ? draw_impulses(&D)
             : e->st.style == PV_STYLE_VECTORS ? draw_vectors(&D)
                                               : draw_polylines(&D);
    if (st == PV_OK && e->st.style == PV_STYLE_LINESPOINTS)
        st = pv_scene_draw_points_from(ctx, F, e, r, 2 * (uint64_t)e->nrows);
    return st;
}
