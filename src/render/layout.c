/*
 * The frame display list: gnuplot 5.4's 3D graph box, tics, labels, key and colour box as
 * lines, texts, markers and a gradient in terminal units (pv_frame_build).
 *
 * Geometry (gnuplot's draw_3d_graphbox / tick callbacks / do_3dkey_layout /
 * draw_color_smooth_box, checked against svg coordinates in tests/render/test_layout.c):
 * - border: base edges at the xyplane, verticals floor..ceiling, top edges; the edges
 *   touching the back corner (and the left/right verticals) are BACK, the others FRONT.
 * - x/y tics: marks along the front (or back, seen from below) base edges; a mark runs
 *   towards the opposite edge for v_tic (x) / h_tic (y) times the tic scale, measured with
 *   the unit vector (opposite - edge) / xyscaler in view space; labels sit one character
 *   (h_char across, v_char up/down) the other way, centred unless the edge runs nearly
 *   horizontally. z tics: h_tic to the right at the left vertical, labels 2 h_tic left,
 *   right-aligned. Tics are drawn with the back layer when rot_x <= 90, else the front.
 * - axis labels: 10 h_tic beyond the middle of the x/y tic edge; zlabel 7 h_char left of
 *   the middle of the left vertical. Title centred over the plot bounds, at
 *   top + title_lines * h_char.
 * - key: entries of v_char (x spacing) in a column right-aligned h_tic inside the top
 *   right corner; text right-justified one h_char left of a sample 4 h_char + h_tic long.
 * - colour box: x from xmiddle + 0.709 xscaler to + 0.778 xscaler, y from ymiddle - 0.147
 *   yscaler to + 0.497 yscaler, filled with 128 bands (see gradient()), framed, tics h_tic
 *   inwards on both
 *   sides, labels h_char right of the box.
 * gnuplot truncates terminal coordinates to integers; so does this file.
 */
#include "layout_int.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define CBOX_STEPS 128 /* gnuplot's smooth colour box: 128 bands */

typedef struct vtx {
    double x, y, z; /* normalised view coordinates */
} vtx;

/* ---- the item list ----------------------------------------------------------------- */

pv_fitem *pv_lay_item(pv_frame *f, pv_fitem_kind kind, pv_frame_layer layer)
{
    if (f->failed) return NULL;
    if (f->n == f->cap) {
        int cap = f->cap ? 2 * f->cap : 64;
        pv_fitem *p = realloc(f->items, (size_t)cap * sizeof *p);
        if (!p) {
            f->failed = true;
            return NULL;
        }
        f->items = p;
        f->cap = cap;
    }
    pv_fitem *it = &f->items[f->n++];
    memset(it, 0, sizeof *it);
    it->kind = kind;
    it->layer = layer;
    it->lw = 1.0;
    return it;
}

void pv_lay_line(pv_frame *f, pv_frame_layer layer, int x1, int y1, int x2, int y2,
                 uint32_t argb, double lw)
{
    pv_fitem *it = pv_lay_item(f, PV_FI_PATH, layer);
    if (!it) return;
    it->n = 2;
    it->x[0] = x1;
    it->y[0] = y1;
    it->x[1] = x2;
    it->y[1] = y2;
    it->argb = argb;
    it->lw = lw;
}

void pv_lay_text(pv_frame *f, pv_frame_layer layer, int x, int y, const char *text,
                 pv_just just, uint32_t argb)
{
    /* gnuplot's put_text takes unsigned coordinates: a text anchored left of or below
     * the canvas lands far outside it and is not seen */
    if (!text || !*text || x < 0 || y < 0) return;
    pv_fitem *it = pv_lay_item(f, PV_FI_TEXT, layer);
    if (!it) return;
    size_t len = strlen(text);
    it->text = malloc(len + 1);
    if (!it->text) {
        f->n--;
        f->failed = true;
        return;
    }
    memcpy(it->text, text, len + 1);
    it->n = 1;
    it->x[0] = x;
    it->y[0] = y;
    it->just = just;
    it->argb = argb;
    it->enhanced = f->enhanced;
}

/* gnuplot's write_multiline: lines go down by v_char from (x, y); a vertically centred
 * block is first moved up by half its extra lines. */
void pv_lay_multiline_rot(pv_frame *f, pv_frame_layer layer, int x, int y, const char *text,
                          pv_just just, bool vcentre, uint32_t argb, double angle)
{
    if (!text) return;
    int lines = 0;
    for (const char *p = text; *p; p++)
        if (*p == '\n') lines++;
    if (vcentre) y += lines * f->term.v_char / 2;
    const char *s = text;
    char buf[1024];
    for (;;) {
        const char *e = strchr(s, '\n');
        size_t len = e ? (size_t)(e - s) : strlen(s);
        if (len >= sizeof buf) len = sizeof buf - 1;
        memcpy(buf, s, len);
        buf[len] = '\0';
        int before = f->n;
        pv_lay_text(f, layer, x, y, buf, just, argb);
        if (f->n > before) f->items[f->n - 1].angle = angle;
        if (!e) break;
        s = e + 1;
        /* the next line: down the text's own direction (gnuplot: only for +-90 degrees) */
        if (angle == 90.0) x += f->term.v_char;
        else if (angle == -90.0 || angle == -270.0) x -= f->term.v_char;
        else y -= f->term.v_char;
    }
}

void pv_lay_multiline(pv_frame *f, pv_frame_layer layer, int x, int y, const char *text,
                      pv_just just, bool vcentre, uint32_t argb)
{
    pv_lay_multiline_rot(f, layer, x, y, text, just, vcentre, argb, 0.0);
}

/* ---- view helpers ------------------------------------------------------------------ */

static vtx map(const pv_view3d *v, double x, double y, double z)
{
    vtx r;
    pv_view_map(v, x, y, z, &r.x, &r.y, &r.z);
    return r;
}

/* (int)d where that is defined; otherwise INT_MIN, as x86 converts NaN and values beyond
 * int. A plot area smaller than its margins (a tiny terminal) has a negative scaler, so
 * xyscaler, the tic directions and the tic ends are NaN, as in gnuplot. */
static int term_int(double d)
{
    return d > -2147483649.0 && d < 2147483648.0 ? (int)d : INT_MIN;
}

/* Line end points: centre + view * scaler truncated to an integer (the sum, measured:
 * it makes our border and tic lines pixel-identical to pngcairo's). */
static void termcoord(const pv_view3d *v, vtx a, int *x, int *y)
{
    *x = term_int(a.x * v->xscaler + v->xmiddle);
    *y = term_int(a.y * v->yscaler + v->ymiddle);
}

/* Text anchors: gnuplot's TERMCOORD truncates the product, then adds the centre (differs
 * from the above by one unit for negative products; measured on a label whose baseline
 * falls on half a pixel). */
static void termcoord_label(const pv_view3d *v, vtx a, int *x, int *y)
{
    *x = term_int(a.x * v->xscaler) + v->xmiddle;
    *y = term_int(a.y * v->yscaler) + v->ymiddle;
}

/* Characters of a UTF-8 string (gnuplot's estimate_strlen for plain text). */
int pv_lay_text_len(const char *s)
{
    int n = 0;
    for (; *s; s++)
        if (((unsigned char)*s & 0xC0) != 0x80) n++;
    return n;
}

static void line3d(pv_frame *f, const pv_view3d *v, pv_frame_layer layer, vtx a, vtx b,
                   const pv_frame_spec *s)
{
    int x1, y1, x2, y2;
    termcoord(v, a, &x1, &y1);
    termcoord(v, b, &x2, &y2);
    pv_lay_line(f, layer, x1, y1, x2, y2, s->border_rgb, s->border_lw * f->term.linewidth);
}

/* ---- border ------------------------------------------------------------------------ */

/* A vertical edge of the box at the corner (x, y): the whole edge if the border has it
 * (`mask`), else gnuplot's corner pole: from the lowest to the highest z of the surfaces'
 * mesh corners there (the base plane included), when x or y tics or a base edge are on. */
static void vertical(pv_frame *f, const pv_frame_spec *s, const pv_view3d *v, pv_frame_layer L,
                     int mask, double x, double y, vtx bottom, vtx top)
{
    if (s->border & mask) {
        line3d(f, v, L, bottom, top, s);
        return;
    }
    if (!s->axis[PV_FAX_X].tics && !s->axis[PV_FAX_Y].tics && !(s->border & 0xF)) return;
    int i = (x - v->xmin) / (v->xmax - v->xmin) > 0.9 ? 1 : 0;
    int j = (y - v->ymin) / (v->ymax - v->ymin) > 0.9 ? 1 : 0;
    double hi = fmax(v->base_z, s->pole_zmax[i][j]), lo = fmin(v->base_z, s->pole_zmin[i][j]);
    if (hi != lo) line3d(f, v, L, map(v, x, y, lo), map(v, x, y, hi), s);
}

/* `set view map`: the base edges only, as one outline in the border's layer (gnuplot's
 * draw_3d_graphbox for splot_map). */
static void map_border(pv_frame *f, const pv_frame_spec *s, const pv_view3d *v, bool front)
{
    int b = s->border;
    if (!(b & 15) || front == s->border_back) return;
    pv_frame_layer L = front ? PV_FRAME_FRONT : PV_FRAME_BACK;
    vtx c[5] = {map(v, v->zaxis_x, v->zaxis_y, v->base_z), map(v, v->back_x, v->back_y, v->base_z),
                map(v, v->right_x, v->right_y, v->base_z), map(v, v->front_x, v->front_y, v->base_z)};
    c[4] = c[0];
    if ((b & 15) == 15) { /* gnuplot: one closed path */
        pv_fitem *it = pv_lay_item(f, PV_FI_PATH, L);
        if (!it) return;
        it->n = 4;
        for (int k = 0; k < 4; k++) termcoord(v, c[k], &it->x[k], &it->y[k]);
        it->closed = true;
        it->argb = s->border_rgb;
        it->lw = s->border_lw * f->term.linewidth;
        return;
    }
    static const int bit[4] = {2, 8, 4, 1}; /* left, bottom, right, top edges of the map */
    bool prev = false;
    for (int k = 0; k < 4; k++) {
        if (!(b & bit[k])) {
            prev = false;
            continue;
        }
        line3d(f, v, L, c[k], c[k + 1], s);
        if (!f->failed) f->items[f->n - 1].chain = prev; /* one path, as gnuplot strokes it */
        prev = true;
    }
}

static void border(pv_frame *f, const pv_frame_spec *s, const pv_view3d *v, bool front)
{
    int b = s->border;
    if (!b) return;
    if (v->map) {
        map_border(f, s, v, front);
        return;
    }
    pv_frame_layer L = front ? PV_FRAME_FRONT : PV_FRAME_BACK;
    vtx bl = map(v, v->zaxis_x, v->zaxis_y, v->base_z);
    vtx bb = map(v, v->back_x, v->back_y, v->base_z);
    vtx br = map(v, v->right_x, v->right_y, v->base_z);
    vtx bf = map(v, v->front_x, v->front_y, v->base_z);
    vtx fl = map(v, v->zaxis_x, v->zaxis_y, v->floor_z);
    vtx fb = map(v, v->back_x, v->back_y, v->floor_z);
    vtx fr = map(v, v->right_x, v->right_y, v->floor_z);
    vtx ff = map(v, v->front_x, v->front_y, v->floor_z);
    vtx tl = map(v, v->zaxis_x, v->zaxis_y, v->ceiling_z);
    vtx tb = map(v, v->back_x, v->back_y, v->ceiling_z);
    vtx tr = map(v, v->right_x, v->right_y, v->ceiling_z);
    vtx tf = map(v, v->front_x, v->front_y, v->ceiling_z);
    if (front) {
        if (b & 4) line3d(f, v, L, br, bf, s);
        if (b & 1) line3d(f, v, L, bl, bf, s);
        vertical(f, s, v, L, 0x80, v->front_x, v->front_y, ff, tf);
        if (b & 0x400) line3d(f, v, L, tl, tf, s);
        if (b & 0x800) line3d(f, v, L, tr, tf, s);
    } else {
        if (b & 2) line3d(f, v, L, bl, bb, s);
        if (b & 8) line3d(f, v, L, br, bb, s);
        vertical(f, s, v, L, 0x10, v->zaxis_x, v->zaxis_y, fl, tl);
        vertical(f, s, v, L, 0x20, v->back_x, v->back_y, fb, tb);
        vertical(f, s, v, L, 0x40, v->right_x, v->right_y, fr, tr);
        if (b & 0x100) line3d(f, v, L, tl, tb, s);
        if (b & 0x200) line3d(f, v, L, tr, tb, s);
    }
}

/* ---- x / y tics and labels --------------------------------------------------------- */

typedef struct edge_axis {
    int which;          /* PV_FAX_X or PV_FAX_Y */
    vtx unit;           /* tic unit vector (view space per terminal unit) */
    double other_end;   /* the opposite edge's y (x axis) or x (y axis) */
} edge_axis;

static vtx axis_point(const pv_view3d *v, int which, double place, double across)
{
    return which == PV_FAX_X ? map(v, place, across, v->base_z)
                             : map(v, across, place, v->base_z);
}

static edge_axis edge_setup(const pv_view3d *v, int which)
{
    edge_axis e;
    e.which = which;
    double edge = which == PV_FAX_X ? v->xaxis_y : v->yaxis_x;
    e.other_end = which == PV_FAX_X ? v->ymin + v->ymax - edge : v->xmin + v->xmax - edge;
    double mid = which == PV_FAX_X ? (v->xmax + v->xmin) / 2.0 : (v->ymax + v->ymin) / 2.0;
    vtx a = axis_point(v, which, mid, edge), b = axis_point(v, which, mid, e.other_end);
    e.unit.x = (b.x - a.x) / v->xyscaler;
    e.unit.y = (b.y - a.y) / v->xyscaler;
    e.unit.z = (b.z - a.z) / v->xyscaler;
    return e;
}

static vtx offset(vtx a, vtx u, double k)
{
    vtx r = {a.x + u.x * k, a.y + u.y * k, a.z + u.z * k};
    return r;
}

static bool in_range(double x, double a, double b)
{
    return (x >= a && x <= b) || (x >= b && x <= a);
}

static pv_just edge_just(const pv_view3d *v, const edge_axis *e)
{
    double d = e->unit.x * v->xscaler;
    if (d < -0.9) return PV_JUST_LEFT;
    if (d < 0.9) return PV_JUST_CENTRE;
    return PV_JUST_RIGHT;
}

static void edge_tics(pv_frame *f, const pv_frame_spec *s, const pv_view3d *v, int which,
                      pv_frame_layer L)
{
    const pv_frame_axis *ax = &s->axis[which];
    if (!ax->tics) return;
    const pv_termdim *t = &f->term;
    edge_axis e = edge_setup(v, which);
    double edge = which == PV_FAX_X ? v->xaxis_y : v->yaxis_x;
    double sign = ax->tic_in ? 1.0 : -1.0;
    double len = ax->ticscale * sign * (which == PV_FAX_X ? t->v_tic : t->h_tic);
    pv_just just = edge_just(v, &e);
    /* `set tics axis`: along the zero line of the other axis, if 0 is in its range */
    double olo = which == PV_FAX_X ? v->ymin : v->xmin, ohi = which == PV_FAX_X ? v->ymax : v->xmax;
    double at = ax->on_axis && in_range(0.0, olo, ohi) ? 0.0 : edge;
    for (int i = 0; i < ax->ntics; i++) {
        double place = ax->tic_pos[i];
        vtx v1 = axis_point(v, which, place, at);
        line3d(f, v, L, v1, offset(v1, e.unit, len), s);
        if (ax->mirror) {
            vtx v3 = axis_point(v, which, place, e.other_end);
            line3d(f, v, L, v3, offset(v3, e.unit, -len), s);
        }
        const char *text = ax->tic_text ? ax->tic_text[i] : NULL;
        if (!text) continue;
        vtx v2 = v1;
        v2.x -= e.unit.x * t->h_char;
        v2.y -= e.unit.y * t->v_char;
        if (!ax->tic_in) {
            double out = which == PV_FAX_X ? t->v_tic : t->h_tic;
            v2.x -= e.unit.x * out * ax->ticscale;
            v2.y -= e.unit.y * t->v_tic * ax->ticscale;
        }
        int x2, y2;
        termcoord_label(v, v2, &x2, &y2);
        /* gnuplot rotates (and justifies by hand) 3D tic labels only in a map */
        pv_just j = v->map && ax->tic_just >= 0 ? (pv_just)ax->tic_just : just;
        pv_lay_multiline_rot(f, L, x2, y2, text, j, false, 0, v->map ? ax->tic_angle : 0.0);
    }
    /* minor tics (a log axis's default): the marks at the minor scale, no labels */
    double mlen = len * ax->minor_scale / (ax->ticscale != 0.0 ? ax->ticscale : 1.0);
    for (int i = 0; i < ax->nminor; i++) {
        vtx v1 = axis_point(v, which, ax->minor_pos[i], at);
        line3d(f, v, L, v1, offset(v1, e.unit, mlen), s);
        if (ax->mirror) {
            vtx v3 = axis_point(v, which, ax->minor_pos[i], e.other_end);
            line3d(f, v, L, v3, offset(v3, e.unit, -mlen), s);
        }
    }
}

/* ---- grid --------------------------------------------------------------------------- */

static void grid_line(pv_frame *f, const pv_frame_spec *s, const pv_view3d *v, pv_frame_layer L,
                      vtx a, vtx b)
{
    int x1, y1, x2, y2;
    termcoord(v, a, &x1, &y1);
    termcoord(v, b, &x2, &y2);
    double lw = s->grid.lw * f->term.linewidth;
    pv_lay_line(f, L, x1, y1, x2, y2, s->grid.rgb, lw);
    if (!f->failed && s->grid.dotted) f->items[f->n - 1].dash = lw > 1.0 ? lw : 1.0;
}

/* gnuplot's grid lines (the tick callbacks draw them before each tic): for x and y across
 * the base plane from the tic's edge to the opposite one, for z from the z axis's corner
 * to the back corner and on to the right one. In layer L only if the grid belongs there
 * (with the tics unless `set grid front|back`). */
static void grid(pv_frame *f, const pv_frame_spec *s, const pv_view3d *v, pv_frame_layer L,
                 pv_frame_layer tic_layer)
{
    pv_frame_layer mine = s->grid.layer < 0 ? tic_layer
                          : s->grid.layer == 0 ? PV_FRAME_BACK : PV_FRAME_FRONT;
    if (mine != L) return;
    for (int which = PV_FAX_X; which <= PV_FAX_Y; which++) {
        const pv_frame_axis *ax = &s->axis[which];
        if (!s->grid.on[which] || !ax->tics) continue;
        double edge = which == PV_FAX_X ? v->xaxis_y : v->yaxis_x;
        double other = which == PV_FAX_X ? v->ymin + v->ymax - edge : v->xmin + v->xmax - edge;
        for (int i = 0; i < ax->ntics; i++)
            grid_line(f, s, v, L, axis_point(v, which, ax->tic_pos[i], edge),
                      axis_point(v, which, ax->tic_pos[i], other));
    }
    const pv_frame_axis *z = &s->axis[PV_FAX_Z];
    if (!s->grid.on[PV_FAX_Z] || !z->tics || v->map) return;
    for (int i = 0; i < z->ntics; i++) {
        double place = z->tic_pos[i];
        vtx a = z->on_axis ? map(v, 0.0, 0.0, place) : map(v, v->zaxis_x, v->zaxis_y, place);
        vtx b = map(v, v->back_x, v->back_y, place), c = map(v, v->right_x, v->right_y, place);
        grid_line(f, s, v, L, a, b);
        grid_line(f, s, v, L, b, c);
    }
}

/* Offset of a label in character units, as gnuplot rounds it. */
void pv_lay_label_offset(const pv_termdim *t, const double off[2], int *dx, int *dy)
{
    *dx = (int)(off[0] * t->h_char + (off[0] >= 0 ? 0.5 : -0.5));
    *dy = (int)(off[1] * t->v_char + (off[1] >= 0 ? 0.5 : -0.5));
}

/* `set view map`: the x label 1.5 lines below its tic labels' baseline, the y label
 * (rotated by its own angle, 90 by default) left of the widest y tic label. */
static void map_edge_label(pv_frame *f, const pv_frame_spec *s, const pv_view3d *v, int which)
{
    const pv_frame_axis *ax = &s->axis[which];
    const pv_termdim *t = &f->term;
    edge_axis e = edge_setup(v, which);
    int x1, y1, dx, dy;
    if (which == PV_FAX_X) {
        vtx v1 = axis_point(v, which, (v->xmax + v->xmin) / 2.0, v->xaxis_y), v2 = v1;
        v2.y -= e.unit.y * t->v_char;
        if (!ax->tic_in) v2.y -= e.unit.y * t->v_tic * ax->ticscale;
        termcoord_label(v, v2, &x1, &y1);
        y1 = (int)(y1 - 1.5 * t->v_char);
    } else {
        const pv_frame_axis *xa = &s->axis[PV_FAX_X];
        vtx v1 = axis_point(v, which, (v->ymax + v->ymin) / 2.0, v->yaxis_x), v2 = v1;
        v2.x -= e.unit.x * t->h_char;
        if (!xa->tic_in) v2.x -= e.unit.x * t->h_tic * xa->ticscale; /* sic: x's tics */
        termcoord_label(v, v2, &x1, &y1);
        int widest = 0;
        for (int i = 0; ax->tics && !ax->on_axis && ax->tic_text && i < ax->ntics; i++)
            if (ax->tic_text[i] && pv_lay_text_len(ax->tic_text[i]) > widest)
                widest = pv_lay_text_len(ax->tic_text[i]);
        x1 = (int)(x1 - (0.5 + widest) * t->h_char);
    }
    pv_lay_label_offset(t, ax->label_offset, &dx, &dy);
    {
        bool enh = pv_lay_noenh(f, ax->label_noenhanced);
        pv_lay_text(f, PV_FRAME_FRONT, x1 + dx, y1 + dy, ax->label, PV_JUST_CENTRE, ax->label_argb);
        f->enhanced = enh;
    }
    if (!f->failed && f->n > 0 && f->items[f->n - 1].kind == PV_FI_TEXT)
        f->items[f->n - 1].angle = ax->label_angle;
}

static void edge_label(pv_frame *f, const pv_frame_spec *s, const pv_view3d *v, int which)
{
    const pv_frame_axis *ax = &s->axis[which];
    if (!ax->label || !*ax->label) return;
    if (v->map) {
        map_edge_label(f, s, v, which);
        return;
    }
    const pv_termdim *t = &f->term;
    edge_axis e = edge_setup(v, which);
    double edge = which == PV_FAX_X ? v->xaxis_y : v->yaxis_x;
    double mid = which == PV_FAX_X ? (v->xmax + v->xmin) / 2.0 : (v->ymax + v->ymin) / 2.0;
    vtx v1;
    if (ax->on_axis) { /* beside the zero axis, on the side the tics point to */
        v1 = axis_point(v, which, mid, 0.0);
        double k = 2.0 * t->h_tic * (ax->tic_in ? 1.0 : -1.0);
        v1.x += k * e.unit.x;
        v1.y += k * e.unit.y;
    } else {
        v1 = axis_point(v, which, mid, edge);
        v1.x -= 10.0 * t->h_tic * e.unit.x;
        v1.y -= 10.0 * t->h_tic * e.unit.y;
    }
    if (!ax->tic_in) {
        double out = which == PV_FAX_X ? t->h_tic : t->v_tic;
        v1.x -= e.unit.x * ax->ticscale * out;
        v1.y -= e.unit.y * ax->ticscale * out;
    }
    int x1, y1, dx, dy;
    termcoord_label(v, v1, &x1, &y1);
    pv_lay_label_offset(t, ax->label_offset, &dx, &dy);
    pv_lay_text_block(f, PV_FRAME_FRONT, x1 + dx, y1 + dy, ax->label, PV_JUST_CENTRE, false,
                      ax->label_argb, 0.0, ax->label_noenhanced);
}

/* ---- z tics and label --------------------------------------------------------------- */

/* A z tic mark of `len` terminal units at `place`: on the z axis, or mirrored on the
 * right edge (pointing the other way). */
static void z_mark(pv_frame *f, const pv_frame_spec *s, const pv_view3d *v, pv_frame_layer L,
                   double place, int len, bool mirror)
{
    const pv_frame_axis *ax = &s->axis[PV_FAX_Z];
    vtx a = mirror ? map(v, v->right_x, v->right_y, place)
            : ax->on_axis ? map(v, 0.0, 0.0, place)
                          : map(v, v->zaxis_x, v->zaxis_y, place);
    vtx b = a;
    b.x += (mirror ? -len : len) / (double)v->xscaler;
    line3d(f, v, L, a, b, s);
}

static void z_tics(pv_frame *f, const pv_frame_spec *s, const pv_view3d *v, pv_frame_layer L)
{
    const pv_frame_axis *ax = &s->axis[PV_FAX_Z];
    if (!ax->tics || v->rot_x == 0.0) return;
    const pv_termdim *t = &f->term;
    int len = (int)(ax->ticscale * (ax->tic_in ? 1 : -1) * t->h_tic);
    for (int i = 0; i < ax->ntics; i++) {
        double place = ax->tic_pos[i];
        vtx v1 = ax->on_axis ? map(v, 0.0, 0.0, place) : map(v, v->zaxis_x, v->zaxis_y, place);
        z_mark(f, s, v, L, place, len, false);
        const char *text = ax->tic_text ? ax->tic_text[i] : NULL;
        if (text) {
            int x1, y1;
            termcoord_label(v, v1, &x1, &y1);
            x1 -= t->h_tic * 2;
            if (!ax->tic_in) x1 -= (int)(t->h_tic * ax->ticscale);
            pv_lay_multiline(f, L, x1, y1, text, PV_JUST_RIGHT, true, 0);
        }
        if (ax->mirror) z_mark(f, s, v, L, place, len, true);
    }
    /* minor tics (a log axis's default): the marks at the minor scale, no labels */
    int mlen = (int)(ax->minor_scale * (ax->tic_in ? 1 : -1) * t->h_tic);
    for (int i = 0; i < ax->nminor; i++) {
        z_mark(f, s, v, L, ax->minor_pos[i], mlen, false);
        if (ax->mirror) z_mark(f, s, v, L, ax->minor_pos[i], mlen, true);
    }
}

static void z_label(pv_frame *f, const pv_frame_spec *s, const pv_view3d *v)
{
    const pv_frame_axis *ax = &s->axis[PV_FAX_Z];
    if (!ax->label || !*ax->label || v->map) return;
    const pv_termdim *t = &f->term;
    double mid = (v->zmax + v->zmin) / 2.0;
    vtx v1 = ax->on_axis ? map(v, 0.0, 0.0, mid) : map(v, v->zaxis_x, v->zaxis_y, mid);
    int x, y, dx, dy;
    termcoord_label(v, v1, &x, &y);
    x -= (ax->on_axis ? 5 : 7) * t->h_char;
    pv_lay_label_offset(t, ax->label_offset, &dx, &dy);
    pv_lay_text_block(f, PV_FRAME_FRONT, x + dx, y + dy, ax->label, PV_JUST_CENTRE, false,
                      ax->label_argb, 0.0, ax->label_noenhanced);
}

/* ---- zero axes ---------------------------------------------------------------------- */

static void zero_line(pv_frame *f, const pv_frame_spec *s, const pv_view3d *v, pv_frame_layer L,
                      int ax, vtx a, vtx b)
{
    int x1, y1, x2, y2;
    termcoord(v, a, &x1, &y1);
    termcoord(v, b, &x2, &y2);
    double lw = s->zeroaxis[ax].lw * f->term.linewidth;
    pv_lay_line(f, L, x1, y1, x2, y2, s->zeroaxis[ax].rgb, lw);
    if (!f->failed && s->zeroaxis[ax].dotted) f->items[f->n - 1].dash = lw > 1.0 ? lw : 1.0;
}

/* gnuplot draws the zero axes with both the back and the front part of the box (so they
 * show over the data): y, z, then x; the x and y ones on the base plane. */
static void zero_axes(pv_frame *f, const pv_frame_spec *s, const pv_view3d *v, pv_frame_layer L)
{
    bool x0 = in_range(0.0, v->xmin, v->xmax), y0 = in_range(0.0, v->ymin, v->ymax);
    if (s->zeroaxis[PV_FAX_Y].on && x0)
        zero_line(f, s, v, L, PV_FAX_Y, map(v, 0.0, v->ymin, v->base_z),
                  map(v, 0.0, v->ymax, v->base_z));
    if (s->zeroaxis[PV_FAX_Z].on && x0)
        zero_line(f, s, v, L, PV_FAX_Z, map(v, 0.0, 0.0, v->zmin), map(v, 0.0, 0.0, v->zmax));
    if (s->zeroaxis[PV_FAX_X].on && y0)
        zero_line(f, s, v, L, PV_FAX_X, map(v, v->xmin, 0.0, v->base_z),
                  map(v, v->xmax, 0.0, v->base_z));
}

/* ---- arrows ------------------------------------------------------------------------- */

static pv_fitem *arrow_path(pv_frame *f, pv_frame_layer L, const pv_frame_arrow *a, int n,
                            const int *xs, const int *ys, pv_fitem_kind kind)
{
    pv_fitem *it = pv_lay_item(f, kind, L);
    if (!it) return NULL;
    it->n = n;
    memcpy(it->x, xs, (size_t)n * sizeof *xs);
    memcpy(it->y, ys, (size_t)n * sizeof *ys);
    it->argb = a->argb;
    it->lw = a->lw * f->term.linewidth;
    return it;
}

/* One head at (px, py) with its corner offsets (x1, y1), (x2, y2) and back point (xm, ym),
 * as gnuplot's do_arrow draws it: filled, then outlined (5 points) or the open V. */
static void arrow_head(pv_frame *f, pv_frame_layer L, const pv_frame_arrow *a, int px, int py,
                       int x1, int y1, int x2, int y2, int xm, int ym)
{
    int xs[5] = {px + xm, px + x1, px, px + x2, px + xm};
    int ys[5] = {py + ym, py + y1, py, py + y2, py + ym};
    if (a->fill == 1 || a->fill == 3) arrow_path(f, L, a, 5, xs, ys, PV_FI_FILL);
    if (a->fill == 0) arrow_path(f, L, a, 3, xs + 1, ys + 1, PV_FI_PATH);
    else if (a->fill != 3) arrow_path(f, L, a, 5, xs, ys, PV_FI_PATH);
}

/* An arrow end in terminal units (a world point projected as gnuplot's map3d_position). */
static void arrow_end(const pv_view3d *v, const pv_frame_arrow *a, int k, double *x, double *y)
{
    if (a->screen[k]) {
        *x = a->at[k][0], *y = a->at[k][1];
        return;
    }
    vtx p = map(v, a->at[k][0], a->at[k][1], a->at[k][2]);
    *x = p.x * v->xscaler + v->xmiddle;
    *y = p.y * v->yscaler + v->ymiddle;
}

/* gnuplot 5.4's do_arrow: the heads first, then the shaft (shortened to the back of a
 * closed head). Default head: 15 degrees, 0.3 of the arrow's length kept between 0.3
 * and 2 tic lengths. */
void pv_lay_arrows(pv_frame *f, const pv_frame_spec *s, const pv_view3d *v, bool front)
{
    const pv_termdim *t = &f->term;
    const double deg = 3.14159265358979323846 / 180.0;
    for (int i = 0; i < s->narrows; i++) {
        const pv_frame_arrow *a = &s->arrows[i];
        if (a->front != front) continue;
        pv_frame_layer L = front ? PV_FRAME_FRONT : PV_FRAME_BACK;
        double fx, fy, tx, ty;
        arrow_end(v, a, 0, &fx, &fy);
        arrow_end(v, a, 1, &tx, &ty);
        int sx = (int)fx, sy = (int)fy, ex = (int)tx, ey = (int)ty;
        double dx = sx - ex, dy = sy - ey, len = sqrt(dx * dx + dy * dy);
        int xm = 0, ym = 0;
        if (a->heads && len >= 2.2e-16) {
            int x1, y1, x2, y2;
            if (a->head_len <= 0.0) {
                double len_tic = (t->h_tic + t->v_tic) / 2.0;
                double shortest = len_tic * 0.3 / len, longest = len_tic * 2.0 / len;
                double hc = fmax(shortest, fmin(0.3, longest));
                const double c15 = 0.96593, s15 = 0.25882;
                x1 = (int)((c15 * dx - s15 * dy) * hc);
                y1 = (int)((s15 * dx + c15 * dy) * hc);
                x2 = (int)((c15 * dx + s15 * dy) * hc);
                y2 = (int)((-s15 * dx + c15 * dy) * hc);
                xm = (x1 + x2) / 2;
                ym = (y1 + y2) / 2;
            } else {
                double hl = a->head_len; /* terminal units */
                if (a->head_sys == 0) { /* x-axis units: their length across the plot */
                    double x0, y0, x9, y9;
                    pv_view_term(v, v->xmin, v->ymin, v->base_z, &x0, &y0);
                    pv_view_term(v, v->xmax, v->ymin, v->base_z, &x9, &y9);
                    hl *= hypot(x9 - x0, y9 - y0) / (v->xmax - v->xmin);
                } else if (a->head_sys == 1) {
                    hl *= v->xright - v->xleft;
                } else if (a->head_sys == 2) {
                    hl *= t->xmax - 1;
                } else {
                    hl *= t->h_char;
                }
                double alpha = a->head_angle * deg, beta = a->head_back * deg;
                double phi = atan2(-dy, -dx), eff = hl;
                if (hl > len / 2.0) {
                    eff = len / 2.0;
                    alpha = atan(tan(alpha) * (hl / eff));
                    beta = atan(tan(beta) * (hl / eff));
                }
                double backlen = sin(alpha) / sin(beta);
                x1 = -(int)(eff * cos(alpha - phi));
                y1 = (int)(eff * sin(alpha - phi));
                double dx2 = -eff * cos(phi + alpha), dy2 = -eff * sin(phi + alpha);
                x2 = (int)dx2;
                y2 = (int)dy2;
                xm = (int)(dx2 + backlen * eff * cos(phi + beta));
                ym = (int)(dy2 + backlen * eff * sin(phi + beta));
            }
            if (a->heads & 1) arrow_head(f, L, a, ex, ey, x1, y1, x2, y2, xm, ym);
            if (a->heads & 2) arrow_head(f, L, a, sx, sy, -x1, -y1, -x2, -y2, -xm, -ym);
            if ((a->heads & 2) && a->fill != 0) sx -= xm, sy -= ym;
            if ((a->heads & 1) && a->fill != 0) ex += xm, ey += ym;
        }
        int xs[2] = {sx, ex}, ys[2] = {sy, ey};
        arrow_path(f, L, a, 2, xs, ys, PV_FI_PATH);
    }
}

/* ---- objects ------------------------------------------------------------------------ */

/* gnuplot's do_rectangle: corners truncated to integers, the box filled, then its outline
 * from the lower left corner up, right, down and closed. */
/* A polygon of n vertices (terminal units, truncated as gnuplot's integer coordinates):
 * filled, or its outline (closed or not) of width lw. */
static void poly_item(pv_frame *f, pv_frame_layer L, int n, const double *x, const double *y,
                      bool fill, bool closed, uint32_t argb, double lw)
{
    pv_fitem *it = pv_lay_item(f, fill ? PV_FI_FILL : PV_FI_PATH, L);
    if (!it) return;
    int *px = it->x, *py = it->y;
    if (n > 5) {
        it->vx = malloc((size_t)n * 2 * sizeof *it->vx);
        if (!it->vx) {
            f->n--;
            f->failed = true;
            return;
        }
        it->vy = it->vx + n;
        px = it->vx, py = it->vy;
    }
    for (int k = 0; k < n; k++) px[k] = (int)x[k], py[k] = (int)y[k];
    it->n = n;
    it->closed = closed;
    it->argb = argb;
    it->lw = lw;
}

void pv_lay_rects(pv_frame *f, const pv_frame_spec *s, int layer)
{
    pv_frame_layer L = layer > 0 ? PV_FRAME_FRONT : PV_FRAME_BACK;
    for (int k = 0; k < s->nrects; k++) {
        const pv_frame_rect *r = &s->rects[k];
        if (r->layer != layer) continue;
        if (r->nv > 0) { /* circle, ellipse, polygon: filled, then outlined */
            if (r->fill && r->nv >= 3)
                poly_item(f, L, r->nv, r->vx, r->vy, true, true, r->fill_argb, 0.0);
            for (int t = 0; t < (r->twice ? 2 : 1) && r->border; t++)
                poly_item(f, L, r->nv, r->vx, r->vy, false, r->closed, r->border_rgb,
                          r->lw * f->term.linewidth);
            continue;
        }
        double x1 = fmin(r->x0, r->x1), x2 = fmax(r->x0, r->x1);
        double y1 = fmin(r->y0, r->y1), y2 = fmax(r->y0, r->y1);
        int x = (int)x1, y = (int)y1;
        unsigned w = (unsigned)(x2 - x1), h = (unsigned)(y2 - y1);
        if (w == 0 || h == 0) continue;
        if (r->fill) {
            pv_fitem *it = pv_lay_item(f, PV_FI_BOX, L);
            if (!it) return;
            it->n = 2;
            it->x[0] = x, it->y[0] = y;
            it->x[1] = x + (int)w, it->y[1] = y + (int)h;
            it->argb = r->fill_argb;
        }
        if (r->border) {
            pv_fitem *it = pv_lay_item(f, PV_FI_PATH, L);
            if (!it) return;
            it->n = 4;
            it->x[0] = x, it->y[0] = y;
            it->x[1] = x, it->y[1] = y + (int)h;
            it->x[2] = x + (int)w, it->y[2] = y + (int)h;
            it->x[3] = x + (int)w, it->y[3] = y;
            it->closed = true;
            it->argb = r->border_rgb;
            it->lw = r->lw * f->term.linewidth;
        }
    }
}

/* ---- labels ------------------------------------------------------------------------- */

/* gnuplot's write_label: the text at the position plus its offset (and, with a point,
 * half a tic further), top-justified, lines stepping down the text's own direction; the
 * point itself at the position. */
static void label(pv_frame *f, const pv_frame_spec *s, const pv_view3d *v, pv_frame_layer L,
                  const pv_frame_label *l)
{
    const pv_termdim *t = &f->term;
    int x, y;
    if (l->screen) {
        x = (int)l->at[0];
        y = (int)l->at[1];
    } else {
        /* gnuplot's map3d_position: TERMCOORD, the product truncated */
        termcoord_label(v, map(v, l->at[0], l->at[1], l->at[2]), &x, &y);
    }
    double ps = s->pointsize > 0 ? s->pointsize : 1.0;
    int dx = l->pt >= 0 ? (int)(ps * t->h_tic * 0.5) : 0;
    int dy = l->pt >= 0 ? (int)(ps * t->v_tic * 0.5) : 0;
    dx += (int)(l->offset[0] * t->h_char + 0.5);
    dy += (int)(l->offset[1] * t->v_char + 0.5);
    static const pv_just justs[3] = {PV_JUST_LEFT, PV_JUST_CENTRE, PV_JUST_RIGHT};
    pv_just just = justs[l->just >= 0 && l->just <= 2 ? l->just : 0];
    pv_lay_text_block(f, L, x + dx, y + dy, l->text ? l->text : "", just, false, l->argb,
                      l->angle, l->noenhanced);
    if (l->pt >= 0) {
        pv_fitem *it = pv_lay_item(f, PV_FI_POINT, L);
        if (!it) return;
        it->n = 1;
        it->x[0] = x;
        it->y[0] = y;
        it->pt = l->pt;
        it->ps = (l->ps > 0 ? l->ps : 1.0) * ps;
        it->argb = l->point_argb;
        it->lw = l->point_lw > 0 ? l->point_lw : 1.0;
    }
}

void pv_lay_labels(pv_frame *f, const pv_frame_spec *s, const pv_view3d *v, bool front)
{
    for (int k = 0; k < s->nlabels; k++)
        if (s->labels[k].front == front)
            label(f, s, v, front ? PV_FRAME_FRONT : PV_FRAME_BACK, &s->labels[k]);
}

/* ---- key ----------------------------------------------------------------------------- */


static void key_measure(const pv_frame_spec *s, const pv_termdim *t, int ybot, int ytop,
                        pv_lay_key_geom *k)
{
    memset(k, 0, sizeof *k);
    for (int i = 0; i < s->nkey; i++) {
        const char *title = s->key[i].title;
        if (!title || !*title) continue;
        k->count++;
        int len = pv_lay_text_len(title);
        if (len > k->max_len) k->max_len = len;
    }
    double samplen = s->key_samplen;
    double spacing = s->key_spacing > 0 ? s->key_spacing : 1.0;
    k->sample_width = samplen >= 0 ? (int)(samplen * t->h_char + t->h_tic) : 0;
    k->entry_height = (int)(t->v_tic * 1.25 * spacing);
    if (k->entry_height < t->v_char) k->entry_height = (int)(t->v_char * spacing);
    k->col_width = (k->max_len + 4) * t->h_char + k->sample_width;
    k->rows = k->count;
    k->cols = 1;
    int fit = (ytop - ybot) / t->v_char - 1;
    if (fit <= 0) fit = 1;
    if (k->count > fit) {
        k->cols = (k->count - 1) / fit + 1;
        k->rows = (k->count - 1) / k->cols + 1;
    }
    if (s->key_reverse) {
        k->sample_left = -k->sample_width;
        k->sample_right = 0;
        k->text_left = t->h_char;
        k->text_right = t->h_char * (k->max_len + 1);
        k->size_right = t->h_char * (k->max_len + 2);
        k->size_left = t->h_char + k->sample_width;
    } else {
        k->sample_left = 0;
        k->sample_right = k->sample_width;
        k->text_left = -(t->h_char * (k->max_len + 1));
        k->text_right = -t->h_char;
        k->size_left = t->h_char * (k->max_len + 2);
        k->size_right = t->h_char + k->sample_width;
    }
    k->point_offset = (k->sample_left + k->sample_right) / 2;
    k->width = k->col_width * (k->cols - 1) + k->size_right + k->size_left;
    k->height = k->entry_height * k->rows;
}

int pv_frame_key_reserve(const pv_frame_spec *s, const pv_termdim *t)
{
    if (!s->key_on || !s->key_outside) return 0;
    pv_lay_key_geom k;
    int ybot = (int)(t->v_char * 2.5 + 1);
    int ytop = (int)(t->ymax - t->v_char * (pv_frame_title_lines(s->title) + 1.5) - 1);
    key_measure(s, t, ybot, ytop, &k);
    if (k.count == 0) return 0;
    return k.col_width * k.cols - 2 * t->h_char;
}

/* gnuplot's key_sample_line_pm3d: min(24, width) segments, segment i (1-based) in the
 * colour of gray_from + i * (gray_to - gray_from) / steps (the last exactly gray_to). */
static void gradient_line(pv_frame *f, const pv_frame_spec *s, const pv_lay_key_geom *k,
                          const pv_key_entry *e, int xl, int yl)
{
    int width = k->sample_right - k->sample_left;
    int steps = abs(width) < 24 ? abs(width) : 24;
    if (steps <= 0 || !s->pal) return;
    double step = (double)width / steps, gstep = (e->gray_to - e->gray_from) / steps;
    int x1 = xl + k->sample_left, x2 = x1;
    for (int i = 1; i <= steps; i++) {
        double gray = i == steps ? e->gray_to : e->gray_from + i * gstep;
        int xa = x2;
        x2 = i == steps ? xl + k->sample_right : x1 + (int)(i * step + 0.5);
        pv_lay_line(f, PV_FRAME_FRONT, xa, yl, x2, yl, pv_pal_rgb8(s->pal, gray),
                 e->lw > 0 ? e->lw : 1.0);
    }
}

/* gnuplot's key_sample_point_pm3d: points every 3 characters (times (1 + (pointsize-1)/2);
 * every character for dots), at least 2 steps, from gray_from to gray_to. */
static void gradient_points(pv_frame *f, const pv_frame_spec *s, const pv_lay_key_geom *k,
                            const pv_key_entry *e, int xl, int yl)
{
    if (!s->pal) return;
    double ps = s->pointsize > 0 ? s->pointsize : 1.0;
    int width = k->sample_right - k->sample_left;
    double step = f->term.h_char * (e->pt == 0 ? 1.0 : 3.0 * (1.0 + (ps - 1.0) / 2.0));
    int steps = (int)(width / step + 0.5);
    if (steps < 2) steps = 2;
    step = (double)width / steps;
    double gstep = (e->gray_to - e->gray_from) / steps;
    int x1 = xl + k->sample_left;
    for (int i = 0; i <= steps; i++) {
        double gray = i == steps ? e->gray_to : e->gray_from + i * gstep;
        pv_fitem *it = pv_lay_item(f, PV_FI_POINT, PV_FRAME_FRONT);
        if (!it) return;
        it->n = 1;
        it->x[0] = i == 0 ? x1 : i == steps ? xl + k->sample_right : x1 + (int)(i * step + 0.5);
        it->y[0] = yl;
        it->pt = e->pt;
        it->ps = e->ps * ps;
        it->argb = pv_pal_rgb8(s->pal, gray);
        it->lw = e->lw > 0 ? e->lw : 1.0;
    }
}

void pv_lay_key_sample(pv_frame *f, const pv_frame_spec *s, const pv_lay_key_geom *k,
                       const pv_key_entry *e, int xl, int yl)
{
    pv_fitem *it;
    if (e->gradient && e->sample != PV_KS_BOX) {
        if (e->sample == PV_KS_LINE || e->sample == PV_KS_LINEPOINT)
            gradient_line(f, s, k, e, xl, yl);
        if (e->sample == PV_KS_POINT || e->sample == PV_KS_LINEPOINT)
            gradient_points(f, s, k, e, xl, yl);
        return;
    }
    if (e->sample == PV_KS_LINEPOINT) /* the line, then the point over it */
        pv_lay_line(f, PV_FRAME_FRONT, xl + k->sample_left, yl, xl + k->sample_right, yl, e->argb,
                 e->lw > 0 ? e->lw : 1.0);
    if (e->errorbar) { /* the bar and its end caps (ERRORBARTIC: half a tic) */
        double lw = e->lw > 0 ? e->lw : 1.0;
        int tic = f->term.h_tic / 2 > 1 ? f->term.h_tic / 2 : 1;
        int x0 = xl + k->sample_left, x1 = xl + k->sample_right;
        pv_lay_line(f, PV_FRAME_FRONT, x0, yl, x1, yl, e->argb, lw);
        pv_lay_line(f, PV_FRAME_FRONT, x0, yl + tic, x0, yl - tic, e->argb, lw);
        pv_lay_line(f, PV_FRAME_FRONT, x1, yl + tic, x1, yl - tic, e->argb, lw);
    }
    switch (e->sample) {
    case PV_KS_LINEPOINT:
    case PV_KS_POINT:
        it = pv_lay_item(f, PV_FI_POINT, PV_FRAME_FRONT);
        if (!it) return;
        it->n = 1;
        it->x[0] = xl + k->point_offset;
        it->y[0] = yl;
        it->pt = e->pt;
        it->ps = e->ps * (s->pointsize > 0 ? s->pointsize : 1.0);
        it->argb = e->argb;
        it->lw = e->lw > 0 ? e->lw : 1.0;
        break;
    case PV_KS_LINE:
        pv_lay_line(f, PV_FRAME_FRONT, xl + k->sample_left, yl, xl + k->sample_right, yl, e->argb,
                 e->lw > 0 ? e->lw : 1.0);
        break;
    case PV_KS_BOX:
        if (k->sample_right - k->sample_left <= 0) return;
        it = pv_lay_item(f, PV_FI_BOX, PV_FRAME_FRONT);
        if (!it) return;
        it->n = 2;
        it->x[0] = xl + k->sample_left;
        it->y[0] = yl - k->entry_height / 4;
        it->x[1] = it->x[0] + (k->sample_right - k->sample_left);
        it->y[1] = it->y[0] + k->entry_height / 2;
        it->argb = e->argb;
        if (e->box_border) { /* gnuplot: four separate lines, not a closed path */
            int xs[5] = {it->x[0], it->x[1], it->x[1], it->x[0], it->x[0]};
            int ys[5] = {it->y[0], it->y[0], it->y[1], it->y[1], it->y[0]};
            double lw = e->lw > 0 ? e->lw : 1.0;
            for (int j = 0; j < 4; j++) {
                pv_lay_line(f, PV_FRAME_FRONT, xs[j], ys[j], xs[j + 1], ys[j + 1], e->border_argb, lw);
                if (!f->failed) f->items[f->n - 1].chain = j > 0;
            }
        }
        break;
    default:
        break;
    }
}

static void key(pv_frame *f, const pv_frame_spec *s, const pv_view3d *v)
{
    if (!s->key_on) return;
    const pv_termdim *t = &f->term;
    pv_lay_key_geom k;
    /* the plot bounds; in a map, gnuplot's 2D-like bounds: the map's box */
    int bl = v->xleft, br = v->xright, bb = v->ybot, bt = v->ytop;
    if (v->map) bl = v->map_left, br = v->map_right, bb = v->map_bottom, bt = v->map_top;
    key_measure(s, t, bb, bt, &k);
    if (k.count == 0) return;
    int ytop, xleft;
    if (s->key_vpos == PV_KEY_TOP) ytop = bt - t->v_tic;
    else ytop = bb + t->v_tic + k.height;
    if (s->key_outside && s->key_hpos == PV_KEY_LEFT) xleft = bl - t->h_tic - k.width;
    else if (s->key_outside) xleft = br + t->h_tic;
    else if (s->key_hpos == PV_KEY_LEFT) xleft = bl + t->h_tic;
    else xleft = br - t->h_tic - k.width;
    if (s->key_box) { /* gnuplot: four clipped lines from the bottom left, clockwise */
        int xs[5] = {xleft, xleft, xleft + k.width, xleft + k.width, xleft};
        int ys[5] = {ytop - k.height, ytop, ytop, ytop - k.height, ytop - k.height};
        for (int j = 0; j < 4; j++) {
            pv_lay_line(f, PV_FRAME_FRONT, xs[j], ys[j], xs[j + 1], ys[j + 1], s->border_rgb,
                     s->border_lw * t->linewidth);
            if (!f->failed) f->items[f->n - 1].chain = j > 0;
        }
        /* gnuplot also rules off the (here empty) key title: a second top edge */
        pv_lay_line(f, PV_FRAME_FRONT, xleft, ytop, xleft + k.width, ytop, s->border_rgb,
                 s->border_lw * t->linewidth);
    }
    int xl = xleft + k.size_left;
    int yl = ytop - k.entry_height / 2, yl_ref = yl, count = 0;
    for (int i = 0; i < s->nkey; i++) {
        const pv_key_entry *e = &s->key[i];
        if (!e->title || !*e->title) continue;
        int first = f->n;
        bool enh = pv_lay_noenh(f, e->noenhanced);
        if (s->key_left_just)
            pv_lay_multiline(f, PV_FRAME_FRONT, xl + k.text_left, yl, e->title, PV_JUST_LEFT, false,
                          0);
        else
            pv_lay_multiline(f, PV_FRAME_FRONT, xl + k.text_right, yl, e->title, PV_JUST_RIGHT,
                          false, 0);
        f->enhanced = enh;
        pv_lay_key_sample(f, s, &k, e, xl, yl);
        for (int j = first; e->behind && !f->failed && j < f->n; j++)
            f->items[j].layer = PV_FRAME_BACK;
        if (++count >= k.rows) {
            yl = yl_ref;
            xl += k.col_width;
            count = 0;
        } else {
            yl -= k.entry_height;
        }
    }
}

/* ---- colour box -------------------------------------------------------------------- */

/* gnuplot 5.4's colour box bands: 128 bands of (int) steps, each overlapping the next by
 * one terminal unit, coloured with gray = (1 + band start - box start) / box length (not
 * i/128: measured on svg and pngcairo); a band that crosses a point of a defined
 * gradient is split there. */
static bool gradient(pv_frame *f, const pv_pal *pal, int x0, int y0, int x1, int y1,
                     double opacity, double density)
{
    pv_fitem *it = pv_lay_item(f, PV_FI_GRADIENT, PV_FRAME_FRONT);
    if (!it) return false;
    if (opacity < 1.0) it->argb = (uint32_t)(255.0 * (1.0 - opacity) + 0.5) << 24;
    int steps = CBOX_STEPS;
    int cap = steps + (pal->kind == PV_PALK_DEFINED ? pal->ngrad : 0) + 1;
    it->colors = malloc(3 * (size_t)cap * sizeof *it->colors);
    it->bands = malloc(2 * (size_t)cap * sizeof *it->bands);
    if (!it->colors || !it->bands) {
        free(it->colors);
        free(it->bands);
        f->n--;
        f->failed = true;
        return false;
    }
    it->n = 2;
    it->x[0] = x0;
    it->y[0] = y0;
    it->x[1] = x1;
    it->y[1] = y1;
    double range = y1 - y0, step = range / steps;
    int nb = 0, jmin = 0, ya, yb = y0;
    for (int i = 0; i < steps && nb < cap; i++) {
        ya = yb;
        yb = y0 + (int)(step * (i + 1));
        double gray = (1.0 + ya - y0) / range;
        if (pal->negative) gray = 1.0 - gray;
        if (pal->kind == PV_PALK_DEFINED) {
            for (int j = jmin; j < pal->ngrad; j++) {
                int boundary = y0 + (int)(pal->grad[j].pos * range);
                if (ya >= boundary) {
                    jmin = j;
                } else if (yb > boundary) {
                    yb = boundary; /* split: this band ends here, redo step i after it */
                    i--;
                    break;
                }
                if (yb < boundary) break;
            }
        }
        double *c = &it->colors[3 * nb];
        pv_pal_rgb(pal, gray, c);
        if (density < 1.0) /* pngcairo's solid fill of density < 1: toward white */
            for (int k = 0; k < 3; k++) c[k] += (1.0 - c[k]) * (1.0 - density);
        it->bands[2 * nb] = ya;
        it->bands[2 * nb + 1] = yb + 1 < y1 ? yb + 1 : y1;
        nb++;
    }
    it->ncolors = nb;
    return true;
}

/* The default 3D box position (fractions of the 4/7 scalers around the plot centre),
 * moved right by outward mirrored cb or y tics. */
static void colorbox_bounds(const pv_frame_spec *s, const pv_view3d *v, int *x0, int *y0,
                            int *x1, int *y1)
{
    const pv_termdim *t = &v->term;
    if (s->colorbox_user) { /* 3D: screen coordinates only; measured: (max - 1) scale */
        *x0 = (int)(s->cb_origin[0] * (t->xmax - 1) + 0.5);
        *y0 = (int)(s->cb_origin[1] * (t->ymax - 1) + 0.5);
        *x1 = *x0 + (int)(s->cb_size[0] * (t->xmax - 1) + 0.5);
        *y1 = *y0 + (int)(s->cb_size[1] * (t->ymax - 1) + 0.5);
        if (*y0 > *y1) {
            int tmp = *y0;
            *y0 = *y1;
            *y1 = tmp;
        }
        return;
    }
    if (v->plot2d) { /* graph position (1.025, 0), size (0.05, 1) */
        const pv_plot2d_box *b = &v->box2d;
        double w = b->xright - b->xleft, h = b->ytop - b->ybot;
        *x0 = (int)(b->xleft + 1.025 * w);
        *y0 = b->ybot;
        *x1 = (int)(0.05 * w + *x0);
        *y1 = (int)(h + *y0);
    } else if (v->map) { /* as in 2D: graph position (1.025, 0), size (0.05, 1) of the map's box */
        double w = v->map_right - v->map_left, h = v->map_top - v->map_bottom;
        *x0 = (int)(v->map_left + 1.025 * w) + t->h_char; /* gnuplot 5.4.4: one char more */
        *y0 = v->map_bottom;
        *x1 = (int)(0.05 * w + *x0);
        *y1 = (int)(h + *y0);
    } else {
        *x0 = (int)(v->xmiddle + 0.709 * v->xscaler);
        *x1 = (int)(v->xmiddle + 0.778 * v->xscaler);
        *y0 = (int)(v->ymiddle - 0.147 * v->yscaler);
        *y1 = (int)(v->ymiddle + 0.497 * v->yscaler);
    }
    static const int movers[2] = {PV_FAX_CB, PV_FAX_Y};
    for (int k = 0; k < 2; k++) {
        const pv_frame_axis *ax = &s->axis[movers[k]];
        int len = (int)((ax->tic_in ? -1 : 1) * ax->ticscale * t->h_tic);
        if (len > 0 && ax->mirror && ax->tics) {
            *x0 += len;
            *x1 += len;
        }
    }
}

/* Tic marks (inside by default, mirrored on the left edge) and labels right of the box. */
static void colorbox_tics(pv_frame *f, const pv_frame_spec *s, int x0, int y0, int x1, int y1,
                          int cblen)
{
    const pv_termdim *t = &f->term;
    const pv_frame_axis *cb = &s->axis[PV_FAX_CB];
    double lw = s->border_lw * t->linewidth;
    for (int i = 0; i < cb->ntics; i++) {
        double place = pv_pal_cb_frac(s->pal, cb->tic_pos[i], s->cbmin, s->cbmax);
        int y = (int)(y0 + place * (y1 - y0));
        pv_lay_line(f, PV_FRAME_FRONT, x1, y, x1 + cblen, y, s->border_rgb, lw);
        const char *text = cb->tic_text ? cb->tic_text[i] : NULL;
        if (text) {
            int x3 = x1 + t->h_char + (cblen > 0 ? cblen : 0);
            pv_lay_multiline(f, PV_FRAME_FRONT, x3, y, text, PV_JUST_LEFT, true, 0);
        }
        if (cb->mirror) pv_lay_line(f, PV_FRAME_FRONT, x0, y, x0 - cblen, y, s->border_rgb, lw);
    }
    /* minor tics (gnuplot's default on a log axis): the same marks, shorter, no labels */
    int mlen = (int)((cb->tic_in ? -1 : 1) * cb->minor_scale * t->h_tic);
    for (int i = 0; i < cb->nminor; i++) {
        double place = pv_pal_cb_frac(s->pal, cb->minor_pos[i], s->cbmin, s->cbmax);
        int y = (int)(y0 + place * (y1 - y0));
        pv_lay_line(f, PV_FRAME_FRONT, x1, y, x1 + mlen, y, s->border_rgb, lw);
        if (cb->mirror) pv_lay_line(f, PV_FRAME_FRONT, x0, y, x0 - mlen, y, s->border_rgb, lw);
    }
}

/* cblabel of the vertical box: rotated 90 degrees, (widest tic label + 1.5) characters
 * right of the box (measured: the widest label counts its leading space). */
static void colorbox_label(pv_frame *f, const pv_frame_spec *s, bool tics, int x1, int ymid,
                           int cblen)
{
    const pv_termdim *t = &f->term;
    const pv_frame_axis *cb = &s->axis[PV_FAX_CB];
    if (!cb->label || !*cb->label) return;
    int widest = 0;
    /* gnuplot counts the tic labels only for tics on the border (not `set tics axis`) */
    for (int i = 0; tics && !cb->on_axis && cb->tic_text && i < cb->ntics; i++)
        if (cb->tic_text[i] && pv_lay_text_len(cb->tic_text[i]) > widest)
            widest = pv_lay_text_len(cb->tic_text[i]);
    int dx, dy;
    pv_lay_label_offset(t, cb->label_offset, &dx, &dy);
    int x = x1 + (int)((widest + 1.5) * t->h_char) + (cblen > 0 ? cblen : 0);
    {
        bool enh = pv_lay_noenh(f, cb->label_noenhanced);
        pv_lay_text(f, PV_FRAME_FRONT, x + dx, ymid + dy, cb->label, PV_JUST_CENTRE, cb->label_argb);
        f->enhanced = enh;
    }
    if (!f->failed && f->n > 0 && f->items[f->n - 1].kind == PV_FI_TEXT)
        f->items[f->n - 1].angle = 90.0;
}

void pv_lay_colorbox(pv_frame *f, const pv_frame_spec *s, const pv_view3d *v)
{
    if (!s->colorbox || !s->pal) return;
    const pv_frame_axis *cb = &s->axis[PV_FAX_CB];
    int x0, y0, x1, y1;
    colorbox_bounds(s, v, &x0, &y0, &x1, &y1);
    int cblen = (int)((cb->tic_in ? -1 : 1) * cb->ticscale * f->term.h_tic);
    if (!gradient(f, s->pal, x0, y0, x1, y1, s->cbox_opacity, s->cbox_density)) return;
    if (s->colorbox_border) { /* one polyline from the bottom left, not closed by a join */
        pv_fitem *b = pv_lay_item(f, PV_FI_PATH, PV_FRAME_FRONT);
        if (b) {
            int xs[4] = {x0, x1, x1, x0}, ys[4] = {y0, y0, y1, y1};
            b->n = 4;
            memcpy(b->x, xs, sizeof xs);
            memcpy(b->y, ys, sizeof ys);
            b->closed = true;
            b->argb = s->border_rgb;
            b->lw = s->border_lw * f->term.linewidth;
        }
    }
    bool tics = cb->tics && s->cbmax != s->cbmin;
    if (tics) colorbox_tics(f, s, x0, y0, x1, y1, cblen);
    colorbox_label(f, s, tics, x1, (y0 + y1) / 2, cblen);
}

/* ---- title ------------------------------------------------------------------------- */

static void title(pv_frame *f, const pv_frame_spec *s, const pv_view3d *v)
{
    if (!s->title || !*s->title) return;
    int lines = pv_frame_title_lines(s->title);
    int x = (v->xleft + v->xright) / 2;
    int y = v->ytop + lines * f->term.h_char;
    if (v->map) { /* above the map's box and any outward mirrored x tics */
        const pv_frame_axis *xa = &s->axis[PV_FAX_X];
        int tics_len = 0;
        if (xa->tics && xa->mirror) {
            tics_len = (int)(xa->ticscale * (xa->tic_in ? -1 : 1) * f->term.v_tic);
            if (tics_len < 0) tics_len = 0;
        }
        x = (v->map_left + v->map_right) / 2;
        y = (int)(v->map_top + tics_len + (lines + 0.5) * f->term.v_char);
    }
    int dx, dy;
    pv_lay_label_offset(&f->term, s->title_offset, &dx, &dy);
    pv_lay_text_block(f, PV_FRAME_FRONT, x + dx, y + dy, s->title, PV_JUST_CENTRE, false,
                      s->title_argb, 0.0, s->title_noenhanced);
}

/* ---- public ------------------------------------------------------------------------ */

int pv_frame_title_lines(const char *title)
{
    if (!title || !*title) return 0;
    int lines = 1;
    for (const char *p = title; *p; p++)
        if (*p == '\\') lines++;
    return lines;
}

void pv_frame_spec_default(pv_frame_spec *s)
{
    memset(s, 0, sizeof *s);
    s->border = 31;
    s->border_rgb = 0x000000;
    s->border_lw = 1.0;
    for (int a = 0; a < 4; a++) {
        s->axis[a].tics = true;
        s->axis[a].mirror = a != PV_FAX_Z;
        s->axis[a].tic_in = true;
        s->axis[a].ticscale = 1.0;
        s->axis[a].minor_scale = 0.5;
    }
    s->key_on = true;
    s->key_hpos = PV_KEY_RIGHT;
    s->key_vpos = PV_KEY_TOP;
    s->key_samplen = 4.0;
    s->key_spacing = 1.0;
    s->pointsize = 1.0;
    s->colorbox = false;
    s->colorbox_border = true;
    s->cbox_opacity = 1.0;
    s->cbox_density = 1.0;
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++) s->pole_zmin[i][j] = HUGE_VAL, s->pole_zmax[i][j] = -HUGE_VAL;
}

void pv_frame_fini(pv_frame *f)
{
    for (int i = 0; i < f->n; i++) {
        free(f->items[i].text);
        free(f->items[i].vx);
        free(f->items[i].colors);
        free(f->items[i].bands);
    }
    free(f->items);
    memset(f, 0, sizeof *f);
}

bool pv_frame_build(pv_frame *f, const pv_frame_spec *s, const pv_view3d *v)
{
    pv_frame_fini(f);
    f->term = v->term;
    f->enhanced = s->enhanced;
    if (f->term.linewidth <= 0.0) f->term.linewidth = 1.0;
    if (v->plot2d) {
        pv_lay_build_2d(f, s, v);
        if (f->failed) pv_frame_fini(f);
        return !f->failed;
    }
    /* gnuplot puts tics with the back part for views from above, else with the front */
    pv_frame_layer tic_layer = v->rot_x <= 90.0 ? PV_FRAME_BACK : PV_FRAME_FRONT;
    if (v->map) tic_layer = PV_FRAME_FRONT; /* as in 2D: with the (default front) grid layer */

    pv_lay_rects(f, s, -1);
    border(f, s, v, false);
    grid(f, s, v, PV_FRAME_BACK, tic_layer);
    if (tic_layer == PV_FRAME_BACK) {
        edge_tics(f, s, v, PV_FAX_X, PV_FRAME_BACK);
        edge_tics(f, s, v, PV_FAX_Y, PV_FRAME_BACK);
    }
    z_tics(f, s, v, PV_FRAME_BACK);
    zero_axes(f, s, v, PV_FRAME_BACK);
    pv_lay_rects(f, s, 0);
    pv_lay_arrows(f, s, v, false);
    pv_lay_labels(f, s, v, false);

    /* in a map the key sits inside the box: gnuplot draws each entry before its plot,
     * so the data cover it (pvox: the whole key behind the data) */
    key(f, s, v);
    border(f, s, v, true);
    grid(f, s, v, PV_FRAME_FRONT, tic_layer);
    if (tic_layer == PV_FRAME_FRONT) edge_tics(f, s, v, PV_FAX_X, PV_FRAME_FRONT);
    edge_label(f, s, v, PV_FAX_X);
    if (tic_layer == PV_FRAME_FRONT) edge_tics(f, s, v, PV_FAX_Y, PV_FRAME_FRONT);
    edge_label(f, s, v, PV_FAX_Y);
    zero_axes(f, s, v, PV_FRAME_FRONT);
    z_label(f, s, v);
    pv_lay_colorbox(f, s, v);
    pv_lay_rects(f, s, 1);
    pv_lay_arrows(f, s, v, true);
    pv_lay_labels(f, s, v, true);
    title(f, s, v);

    if (f->failed) {
        pv_frame_fini(f);
        return false;
    }
    return true;
}
