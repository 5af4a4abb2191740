/*
 * scene/image: `with image|rgbimage|rgbalpha`: one filled parallelogram per data point,
 * as gnuplot's process_image lays them out. The points form a grid of K points per scan
 * line and L lines (K: the run of points sharing the first point's x, if the first two
 * share it, else its y); the pixel of grid point (i, j) is centred on corner0 + i*d0 +
 * j*d1 (d0, d1 the grid steps from the first point to the ends of the first line and
 * of the first column), its corners at the centre +- (d0 + d1)/2 and +- (d0 - d1)/2.
 * Colours: the palette of the value column (image; NaN leaves the pixel out), or r, g,
 * b{, a} columns in 0..255 (gnuplot's default `rgbmax`; a of 0 leaves it out, others
 * are whole percents of opacity, as pngcairo's transparent fill takes them).
 *
 * Where the pixels show: in a 2D plot and in `set view map` they are clipped to the x/y
 * box (gnuplot draws a clipped image there); in 3D a pixel with a corner inside the
 * x/y/z ranges is drawn whole, as gnuplot's polygon fallback does. The edges between
 * pixels are hard (raster.h): neighbours meet without seams and slabs split no pixel;
 * a 3D image's outline is antialiased.
 */
#include "scene_int.h"

#include <math.h>
#include <string.h>

bool pv_scene_image_grid(const pv_scene_elem *e, pv_image_grid *g)
{
    size_t n = e->nrows;
    if (n < 4 || e->ncols < 3) return false; /* gnuplot: "at least 4 points (2 x 2)" */
    const double *p0 = e->vals, *p1 = e->vals + (size_t)e->ncols;
    int axis = p0[0] == p1[0] ? 0 : 1; /* which coordinate stays along the first line */
    size_t K = e->image_k;
    if (K < 2) /* gnuplot: x or y stays the same along the first line */
        for (K = 0; K < n && e->vals[K * (size_t)e->ncols + (size_t)axis] == p0[axis];) K++;
    if (K < 2 || n / K < 2) return false;
    size_t L = n / K;
    const double *pk = e->vals + (K - 1) * (size_t)e->ncols;
    const double *pl = e->vals + (n - K) * (size_t)e->ncols;
    for (int a = 0; a < 3; a++) {
        if (!isfinite(p0[a]) || !isfinite(pk[a]) || !isfinite(pl[a])) {
            /* x and y place the pixels; a z that is a pixel value (`splot 'm' matrix
             * with image`) may be infinite at a corner: the image lies in z = 0 then */
            if (a < 2) return false;
            g->origin[a] = g->d0[a] = g->d1[a] = 0.0;
            continue;
        }
        g->origin[a] = p0[a];
        g->d0[a] = (pk[a] - p0[a]) / (double)(K - 1);
        g->d1[a] = (pl[a] - p0[a]) / (double)(L - 1);
    }
    g->K = K, g->L = L;
    return true;
}

void pv_scene_image_pixel(const pv_image_grid *g, size_t i, size_t j, double corner[4][3])
{
    /* corner (ci, cj) of the lattice of pixel edges, the same arithmetic for every pixel
     * sharing it, so neighbours meet exactly: pixel (i, j) spans ci = i, i + 1 and
     * cj = j, j + 1 (gnuplot's centre +- (d0 + d1)/2, +- (d0 - d1)/2) */
    static const int di[4] = {1, 1, 0, 0}, dj[4] = {1, 0, 0, 1};
    for (int k = 0; k < 4; k++)
        for (int a = 0; a < 3; a++)
            corner[k][a] = g->origin[a] + ((double)(i + (size_t)di[k]) - 0.5) * g->d0[a] +
                           ((double)(j + (size_t)dj[k]) - 0.5) * g->d1[a];
}

/* gnuplot's rgbscale: a colour component clamped to 0..255. */
static double rgb_component(double v)
{
    return v < 0.0 ? 0.0 : v > 255.0 ? 255.0 : v;
}

/* Clip the polygon p[0..n) (x, y, z) to lo <= coordinate a <= hi (Sutherland-Hodgman);
 * returns the vertices left in out (at most n + 2 per pass). */
static int clip_axis(const double (*p)[3], int n, int a, double lo, double hi, double (*out)[3])
{
    double tmp[16][3];
    int m = 0;
    for (int side = 0; side < 2; side++) {
        const double(*src)[3] = side == 0 ? p : (const double(*)[3])tmp;
        double(*dst)[3] = side == 0 ? tmp : out;
        int count = side == 0 ? n : m;
        m = 0;
        for (int k = 0; k < count; k++) {
            const double *u = src[k], *v = src[(k + 1) % count];
            bool uin = side == 0 ? u[a] >= lo : u[a] <= hi;
            bool vin = side == 0 ? v[a] >= lo : v[a] <= hi;
            if (uin && m < 16) memcpy(dst[m++], u, sizeof(double[3]));
            if (uin != vin && m < 16) {
                double edge = side == 0 ? lo : hi, t = (edge - u[a]) / (v[a] - u[a]);
                for (int b = 0; b < 3; b++) dst[m][b] = u[b] + t * (v[b] - u[b]);
                dst[m][a] = edge;
                m++;
            }
        }
        if (m < 3) return 0;
    }
    return m;
}

static bool corner_visible(const pv_scene_frame *F, const double *c, bool flat)
{
    return c[0] >= fmin(F->xmin, F->xmax) && c[0] <= fmax(F->xmin, F->xmax) &&
           c[1] >= fmin(F->ymin, F->ymax) && c[1] <= fmax(F->ymin, F->ymax) &&
           (flat || (c[2] >= fmin(F->zmin, F->zmax) && c[2] <= fmax(F->zmin, F->zmax)));
}

pv_status pv_scene_draw_image(pv_ctx *ctx, const pv_scene_frame *F, const pv_scene_elem *e,
                              pv_raster *r)
{
    pv_image_grid g;
    if (!pv_scene_image_grid(e, &g)) return PV_OK;
    const pv_scene_colors *C = F->colors;
    pv_plot_style style = e->st.style;
    /* image: x y z value, or x y z coloured by z (splot of three columns) */
    int need = style == PV_STYLE_IMAGE ? 3 : style == PV_STYLE_RGBIMAGE ? 6 : 7;
    if (e->ncols < need) return PV_OK;
    int vcol = e->ncols > 3 ? 3 : 2;
    /* a 2D plot and a map show the image clipped to the x/y box */
    bool flat = e->plot2d || F->view->map;
    uint64_t base = PV_SCENE_ORDER(e->number, 0);
    for (size_t j = 0; j < g.L; j++) {
        for (size_t i = 0; i < g.K; i++) {
            size_t row = j * g.K + i;
            const double *v = e->vals + row * (size_t)e->ncols;
            pv_rgba8 c;
            if (style == PV_STYLE_IMAGE) {
                if (isnan(v[vcol])) continue;
                /* a value a log colour axis cannot take gets the palette's bottom (as
                 * gnuplot draws it) */
                double cv = C->pal.cb_log && !(v[vcol] > 0.0) ? C->cbmin : v[vcol];
                c = pv_scene_rgba(pv_pal_color(&C->pal, cv, C->cbmin, C->cbmax));
            } else {
                if (!isfinite(v[3]) || !isfinite(v[4]) || !isfinite(v[5])) continue;
                c.r = (uint8_t)rgb_component(v[3]);
                c.g = (uint8_t)rgb_component(v[4]);
                c.b = (uint8_t)rgb_component(v[5]);
                c.a = 255;
                if (style == PV_STYLE_RGBALPHA) {
                    int pct = (int)(rgb_component(v[6]) * 100.0 / 255.0);
                    if (!isfinite(v[6]) || pct <= 0) continue;
                    c.a = (uint8_t)lrint(pct * 2.55);
                }
            }
            double poly[4][3], clipped[16][3];
            pv_scene_image_pixel(&g, i, j, poly);
            bool any = false;
            for (int k = 0; k < 4 && !any; k++) any = corner_visible(F, poly[k], flat);
            if (!any) continue;
            const double(*pts)[3] = (const double(*)[3])poly;
            int n = 4;
            if (flat) {
                double once[16][3];
                n = clip_axis(pts, 4, 0, fmin(F->xmin, F->xmax), fmax(F->xmin, F->xmax), once);
                if (n >= 3)
                    n = clip_axis((const double(*)[3])once, n, 1, fmin(F->ymin, F->ymax),
                                  fmax(F->ymin, F->ymax), clipped);
                if (n < 3) continue;
                pts = (const double(*)[3])clipped;
            }
            float x[16], y[16], d[16];
            double wz[16];
            for (int k = 0; k < n; k++) {
                double sx, sy, dd;
                pv_view_project(F->view, pts[k][0], pts[k][1], pts[k][2], &sx, &sy, &dd);
                x[k] = (float)sx, y[k] = (float)sy, d[k] = (float)dd;
                wz[k] = pts[k][2];
            }
            /* hard edges inside the image; in 3D its outline stays antialiased */
            unsigned hard = (1u << n) - 1u;
            if (!flat) {
                /* corner k to k+1: 0-1 on ci = i+1, 1-2 on cj = j, 2-3 on ci = i, 3-0 on
                 * cj = j+1 */
                if (i + 1 == g.K) hard &= ~1u;
                if (j == 0) hard &= ~2u;
                if (i == 0) hard &= ~4u;
                if (j + 1 == g.L) hard &= ~8u;
            }
            pv_status st = pv_raster_add_polygon(ctx, r, n, x, y, d, wz, hard, c, base | row);
            if (st != PV_OK) return st;
        }
    }
    return PV_OK;
}
