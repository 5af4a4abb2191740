/*
 * The 3D view: gnuplot 5.4's plot area for splot and its projection world -> screen.
 *
 * Plot area (gnuplot's boundary3d, measured with GPVAL_TERM_XMIN.. on pngcairo):
 *   left = 2 h_char + h_tic, right = xmax - 2 h_char - h_tic, bottom = 2.5 v_char + 1,
 *   top = ymax - (1.5 + title lines) v_char - 1, all truncated to integer terminal units;
 *   an outside key narrows it. The colour box does not. xscaler = 4/7 of the width and
 *   yscaler = 4/7 of the height (integer division), centred on the area.
 * Projection (GP-10.2, to 0.01 px in svg; tests/render/test_view.c against pngcairo/svg):
 *   X = 2(x-xmin)/(xmax-xmin) - 1, Y likewise, Z = zscale * 2(z - mid)/(ceil - floor) with
 *   the box's floor/ceiling (base plane included when the base is drawn); then rotate
 *   about z by rot_z, about x by rot_x, scale by scale/2 (and turn by azimuth about the
 *   view axis): screen = centre + (vx * xscaler, vy * yscaler), vz towards the viewer.
 * Pixels: x_px = x_term/200 + 0.5, y_px = (ymax - y_term)/200 + 0.5 (pngcairo's device
 *   mapping: terminal 0 is the centre of the first pixel).
 */
#include "pvox/view.h"

#include <math.h>
#include <string.h>

#define VIEW_PI 3.14159265358979323846

/* DejaVu Sans metrics (font units per em 2048): digit advance 1303, ascent 1901,
 * descent 483. gnuplot's pngcairo measures "0123456789" with pango: h_char is the hinted
 * (whole-pixel) digit advance, v_char the unhinted line height. */
#define DV_DIGIT_ADVANCE (1303.0 / 2048.0)
#define DV_LINE_HEIGHT ((1901.0 + 483.0) / 2048.0)

void pv_termdim_pngcairo(pv_termdim *t, int width, int height, double font_pt)
{
    memset(t, 0, sizeof *t);
    if (!(font_pt > 0.0)) font_pt = 12.0;
    /* a font beyond any canvas (1000 pt is 1333 px; canvases end at 65535 px) is drawn at
     * 1000 pt, so the terminal's integer metrics cannot overflow (`font ",1e9"`) */
    if (font_pt > 1000.0) font_pt = 1000.0;
    t->width = width;
    t->height = height;
    t->xmax = (width - 1) * PV_TERM_UNITS_PER_PX;
    t->ymax = (height - 1) * PV_TERM_UNITS_PER_PX;
    t->font_pt = font_pt;
    t->font_px = font_pt * 96.0 / 72.0;
    t->h_char = PV_TERM_UNITS_PER_PX * (int)floor(DV_DIGIT_ADVANCE * t->font_px + 0.5);
    t->v_char = (int)floor(PV_TERM_UNITS_PER_PX * DV_LINE_HEIGHT * t->font_px + 0.5);
    t->h_tic = t->v_tic = (int)(t->v_char / 2.5);
    t->linewidth = 1.0;
}

/* ---- matrices (gnuplot's row-vector convention: v' = v * M) ---------------------- */

static void mat_unit(double m[4][4])
{
    memset(m, 0, 16 * sizeof(double));
    for (int i = 0; i < 4; i++) m[i][i] = 1.0;
}

static void mat_mult(double out[4][4], double a[4][4], double b[4][4])
{
    double r[4][4];
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) {
            double s = 0.0;
            for (int k = 0; k < 4; k++) s += a[i][k] * b[k][j];
            r[i][j] = s;
        }
    memcpy(out, r, sizeof r);
}

static void mat_rot_z(double deg, double m[4][4])
{
    double c = cos(deg * VIEW_PI / 180.0), s = sin(deg * VIEW_PI / 180.0);
    mat_unit(m);
    m[0][0] = c;
    m[0][1] = -s;
    m[1][0] = s;
    m[1][1] = c;
}

static void mat_rot_x(double deg, double m[4][4])
{
    double c = cos(deg * VIEW_PI / 180.0), s = sin(deg * VIEW_PI / 180.0);
    mat_unit(m);
    m[1][1] = c;
    m[1][2] = -s;
    m[2][1] = s;
    m[2][2] = c;
}

static void mat_scale(double sx, double sy, double sz, double m[4][4])
{
    mat_unit(m);
    m[0][0] = sx;
    m[1][1] = sy;
    m[2][2] = sz;
}

/* ---- plot area -------------------------------------------------------------------- */

static void plot_bounds(pv_view3d *v, const pv_view3d_params *p)
{
    const pv_termdim *t = &p->term;
    v->xleft = t->h_char * 2 + t->h_tic + p->key_reserve_left;
    v->xright = t->xmax - t->h_char * 2 - t->h_tic - p->key_reserve_right;
    v->ybot = (int)(t->v_char * 2.5 + 1);
    v->ytop = (int)(t->ymax - t->v_char * (p->title_lines + 1.5) - 1);
    if (p->map && p->map_colorbox) v->xright -= (int)(0.1 * (v->xright - v->xleft));
    if (p->equal > 0) { /* `set view equal`: a square plot area */
        int height = v->ytop - v->ybot, width = v->xright - v->xleft;
        if (height > width) {
            v->ybot += (height - width) / 2;
            v->ytop -= (height - width) / 2;
        } else {
            v->xleft += (width - height) / 2;
            v->xright -= (width - height) / 2;
        }
    }
    v->xmiddle = (v->xright + v->xleft) / 2;
    v->ymiddle = (v->ytop + v->ybot) / 2;
    v->xscaler = (int)(((long)(v->xright - v->xleft) * 4L) / 7L);
    v->yscaler = (int)(((long)(v->ytop - v->ybot) * 4L) / 7L);
    if (v->xscaler == 0) v->xscaler = 1;
    if (v->yscaler == 0) v->yscaler = 1;
    v->xyscaler = sqrt((double)v->xscaler * (double)v->yscaler);
}

/* Which base corner is where for this rot_z / rot_x (gnuplot's setup_3d_box_corners). */
static void box_corners(pv_view3d *v)
{
    int quadrant = (int)(v->rot_z / 90.0);
    if ((quadrant + 1) & 2) {
        v->zaxis_x = v->xmax;
        v->right_x = v->xmin;
        v->back_y = v->ymin;
        v->front_y = v->ymax;
    } else {
        v->zaxis_x = v->xmin;
        v->right_x = v->xmax;
        v->back_y = v->ymax;
        v->front_y = v->ymin;
    }
    if (quadrant & 2) {
        v->zaxis_y = v->ymax;
        v->right_y = v->ymin;
        v->back_x = v->xmax;
        v->front_x = v->xmin;
    } else {
        v->zaxis_y = v->ymin;
        v->right_y = v->ymax;
        v->back_x = v->xmin;
        v->front_x = v->xmax;
    }
    if (v->map) { /* gnuplot's rot_x 180 with the y axis flipped: the same picture */
        v->zaxis_x = v->back_x = v->yaxis_x = v->xmin;
        v->right_x = v->front_x = v->xmax;
        v->zaxis_y = v->front_y = v->ymax;
        v->right_y = v->back_y = v->xaxis_y = v->ymin;
        return;
    }
    quadrant = (int)(v->rot_x / 90.0);
    if (quadrant & 2) { /* seen from below: front and back swap */
        double t = v->front_y;
        v->front_y = v->back_y;
        v->back_y = t;
        t = v->front_x;
        v->front_x = v->back_x;
        v->back_x = t;
    }
    if ((quadrant + 1) & 2) { /* tic labels on the back axes */
        v->yaxis_x = v->back_x;
        v->xaxis_y = v->back_y;
    } else {
        v->yaxis_x = v->front_x;
        v->xaxis_y = v->front_y;
    }
}

/* gnuplot's view matrix: rotate about z, then x, scale by scale/2, turn by azimuth. */
static void view_matrix(pv_view3d *v, const pv_view3d_params *p)
{
    double scale = p->scale > 0.0 ? p->scale : 1.0;
    double m[4][4];
    mat_rot_z(p->rot_z, v->mat);
    mat_rot_x(p->rot_x, m);
    mat_mult(v->mat, v->mat, m);
    mat_scale(scale / 2.0, scale / 2.0, scale / 2.0, m);
    mat_mult(v->mat, v->mat, m);
    if (p->azimuth != 0.0) {
        mat_rot_z(p->azimuth, m);
        mat_mult(v->mat, v->mat, m);
    }
}

/* The base plane and the z extent of the box (floor..ceiling). */
static void box_z_extent(pv_view3d *v, const pv_view3d_params *p)
{
    v->base_z = p->xyplane_absolute ? p->xyplane_z
                                    : p->zmin - (p->zmax - p->zmin) * p->xyplane_rel;
    if (!p->base_in_box) {
        v->floor_z = p->zmin;
        v->ceiling_z = p->zmax;
    } else if (p->zmin > p->zmax) {
        v->floor_z = fmax(p->zmin, v->base_z);
        v->ceiling_z = fmin(p->zmax, v->base_z);
    } else {
        v->floor_z = fmin(p->zmin, v->base_z);
        v->ceiling_z = fmax(p->zmax, v->base_z);
    }
}

/* World -> [-1,1] factors; `view equal xy(z)` draws the longer axis shorter. */
static void scale_factors(pv_view3d *v, const pv_view3d_params *p)
{
    double zscale = p->zscale > 0.0 ? p->zscale : 1.0;
    v->zscale3d = 2.0 / (v->ceiling_z - v->floor_z) * zscale;
    v->yscale3d = 2.0 / (p->ymax - p->ymin);
    v->xscale3d = 2.0 / (p->xmax - p->xmin);
    if (p->equal >= 1) {
        if (v->yscale3d > v->xscale3d) {
            v->ycenter3d = 1.0 - v->xscale3d / v->yscale3d;
            v->yscale3d = v->xscale3d;
        } else if (v->xscale3d > v->yscale3d) {
            v->xcenter3d = 1.0 - v->yscale3d / v->xscale3d;
            v->xscale3d = v->yscale3d;
        }
        if (p->equal >= 2) v->zscale3d = v->xscale3d;
    }
    v->zcenter3d = -(v->ceiling_z - v->floor_z) / 2.0 * v->zscale3d + 1.0;
}

void pv_view3d_setup(pv_view3d *v, const pv_view3d_params *p)
{
    memset(v, 0, sizeof *v);
    v->term = p->term;
    v->xmin = p->xmin;
    v->xmax = p->xmax;
    v->ymin = p->ymin;
    v->ymax = p->ymax;
    v->zmin = p->zmin;
    v->zmax = p->zmax;
    v->map = p->map;
    if (p->plot2d) { /* linear: see pv_view_map */
        v->plot2d = true;
        v->box2d = p->box2d;
        v->xleft = p->box2d.xleft, v->xright = p->box2d.xright;
        v->ybot = p->box2d.ybot, v->ytop = p->box2d.ytop;
        v->map_left = v->xleft, v->map_right = v->xright;
        v->map_bottom = v->ybot, v->map_top = v->ytop;
        v->xmiddle = (v->xleft + v->xright) / 2;
        v->ymiddle = (v->ybot + v->ytop) / 2;
        v->xscaler = v->xright - v->xleft > 0 ? v->xright - v->xleft : 1;
        v->yscaler = v->ytop - v->ybot > 0 ? v->ytop - v->ybot : 1;
        v->xyscaler = sqrt((double)v->xscaler * (double)v->yscaler);
        v->floor_z = v->base_z = p->zmin;
        v->ceiling_z = p->zmax;
        v->zscale3d = 2.0 / (p->zmax - p->zmin);
        v->xscale3d = 2.0 / (p->xmax - p->xmin);
        v->yscale3d = 2.0 / (p->ymax - p->ymin);
        mat_unit(v->mat);
        v->zaxis_x = v->back_x = v->yaxis_x = p->xmin;
        v->right_x = v->front_x = p->xmax;
        v->zaxis_y = v->front_y = p->ymax;
        v->right_y = v->back_y = v->xaxis_y = p->ymin;
        return;
    }
    pv_view3d_params q = *p;
    if (p->map) { /* looking down z; gnuplot's rot_x 180 and flipped y give the same x, y */
        q.rot_x = q.rot_z = q.azimuth = 0.0;
        q.scale = 1.425 * (p->scale > 0.0 ? p->scale : 1.0);
        q.equal = 0;
    }
    v->rot_x = q.rot_x;
    v->rot_z = q.rot_z;
    v->azimuth = q.azimuth;
    view_matrix(v, &q);
    box_z_extent(v, &q);
    plot_bounds(v, &q);
    scale_factors(v, &q);
    box_corners(v);
    if (v->map) { /* the box, as gnuplot's map3d_xy truncates it */
        double tx, ty;
        pv_view_term(v, v->xmin, v->ymin, v->base_z, &tx, &ty);
        v->map_left = (int)tx, v->map_bottom = (int)ty;
        pv_view_term(v, v->xmax, v->ymax, v->base_z, &tx, &ty);
        v->map_right = (int)tx, v->map_top = (int)ty;
    }
}

void pv_view_map(const pv_view3d *v, double x, double y, double z, double *vx, double *vy,
                 double *vz)
{
    if (v->plot2d) { /* terminal x = xleft + (x - xmin) * (xright - xleft) / (xmax - xmin) */
        double tx = v->xleft + (x - v->xmin) * (v->xright - v->xleft) / (v->xmax - v->xmin);
        double ty = v->ybot + (y - v->ymin) * (v->ytop - v->ybot) / (v->ymax - v->ymin);
        *vx = (tx - v->xmiddle) / v->xscaler;
        *vy = (ty - v->ymiddle) / v->yscaler;
        *vz = (z - v->floor_z) * v->zscale3d - 1.0;
        return;
    }
    double V[4] = {(x - v->xmin) * v->xscale3d + v->xcenter3d - 1.0,
                   (y - v->ymin) * v->yscale3d + v->ycenter3d - 1.0,
                   (z - v->floor_z) * v->zscale3d + v->zcenter3d - 1.0, 1.0};
    double r[4];
    for (int j = 0; j < 4; j++) {
        double s = 0.0;
        for (int i = 0; i < 4; i++) s += V[i] * v->mat[i][j];
        r[j] = s;
    }
    if (r[3] != 1.0 && r[3] != 0.0) {
        r[0] /= r[3];
        r[1] /= r[3];
        r[2] /= r[3];
    }
    *vx = r[0];
    *vy = r[1];
    *vz = r[2];
}

void pv_view_term(const pv_view3d *v, double x, double y, double z, double *tx, double *ty)
{
    double vx, vy, vz;
    pv_view_map(v, x, y, z, &vx, &vy, &vz);
    *tx = vx * v->xscaler + v->xmiddle;
    *ty = vy * v->yscaler + v->ymiddle;
}

void pv_view_project(const pv_view3d *v, double x, double y, double z, double *sx, double *sy,
                     double *depth)
{
    double vx, vy, vz;
    pv_view_map(v, x, y, z, &vx, &vy, &vz);
    if (sx) *sx = pv_term_px_x(&v->term, vx * v->xscaler + v->xmiddle);
    if (sy) *sy = pv_term_px_y(&v->term, vy * v->yscaler + v->ymiddle);
    if (depth) *depth = -vz;
}

double pv_view_depth_per_z(const pv_view3d *v)
{
    return -v->zscale3d * v->mat[2][2];
}

int pv_view_z_facing(const pv_view3d *v)
{
    double d = pv_view_depth_per_z(v);
    if (fabs(d) < 1e-12) return 0;
    return d < 0.0 ? 1 : -1;
}
