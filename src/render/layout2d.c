/*
 * The frame of a 2D `plot`: gnuplot 5.4's boundary() margins, border, tics, axis labels,
 * key and title (its graphics.c / boundary.c), in terminal units like layout.c.
 *
 * Margins (automatic): the top keeps one line plus, with a title, a line of gap and the
 * title's lines; the bottom the x tic labels (two lines), outward tics and the x label
 * (its lines + 0.2); the left the widest y tic label + 2 characters, the rotated y label
 * (a line per text line) or an outside left key, + half a character; the right two
 * characters (+ a colour box: a tenth of the width and 3 characters) + one. Tic labels
 * sit one character beyond the border (x: a line below, centred; y: right-justified);
 * the key's entries are v_char apart from v_tic below the top, h_char inside the right
 * edge. The key, tics, axis labels and border are drawn before the data (the back
 * layer); the border is drawn again over them, with the title and front labels.
 */
#include "layout_int.h"

#include <math.h>
#include <string.h>

/* gnuplot's label_width: the lines of a text (0 for none) and its widest line. */
static int text_lines(const char *t, int *widest)
{
    if (widest) *widest = 0;
    if (!t || !*t) return 0;
    int lines = 1, len = 0;
    for (const char *p = t;; p++) {
        if (*p == '\n' || !*p) {
            if (widest && len > *widest) *widest = len;
            len = 0;
            if (!*p) break;
            lines++;
        } else if (((unsigned char)*p & 0xC0) != 0x80) {
            len++;
        }
    }
    return lines;
}

static int widest_tic(const pv_frame_axis *a)
{
    int widest = 0;
    for (int i = 0; a->tic_text && i < a->ntics; i++) {
        int w = 0;
        if (a->tic_text[i]) text_lines(a->tic_text[i], &w);
        if (w > widest) widest = w;
    }
    return widest;
}

/* An axis label's angle: `rotate parallel` (NaN; 3D only) keeps the default, 90 degrees
 * for y, 0 for x. */
static double label_angle(const pv_frame_axis *a, bool y)
{
    return isnan(a->label_angle) ? (y ? 90.0 : 0.0) : a->label_angle;
}

/* gnuplot's do_key_layout for the (preliminary) plot box. */
static void key_measure(const pv_frame_spec *s, const pv_termdim *t, int xleft, int xright,
                        int ybot, int ytop, pv_lay_key_geom *k)
{
    memset(k, 0, sizeof *k);
    for (int i = 0; i < s->nkey; i++) {
        if (!s->key[i].title || !*s->key[i].title) continue;
        k->count++;
        int w = 0;
        text_lines(s->key[i].title, &w);
        if (w > k->max_len) k->max_len = w;
    }
    k->sample_width = s->key_samplen >= 0 ? (int)(s->key_samplen * t->h_char + t->h_tic) : 0;
    int sample_height = (int)fmax(1.25 * t->v_tic, t->v_char);
    k->entry_height = (int)(sample_height * (s->key_spacing > 0 ? s->key_spacing : 1.0));
    if (k->entry_height == 0) k->entry_height = 1;
    if (s->key_reverse) {
        k->sample_left = -k->sample_width;
        k->sample_right = 0;
        k->text_left = t->h_char;
        k->text_right = t->h_char * (k->max_len + 1);
        k->size_left = t->h_char - k->sample_left;
        k->size_right = k->text_right;
    } else {
        k->sample_left = 0;
        k->sample_right = k->sample_width;
        k->text_left = -(t->h_char * (k->max_len + 1));
        k->text_right = -t->h_char;
        k->size_left = -k->text_left;
        k->size_right = k->sample_right + t->h_char;
    }
    k->point_offset = (k->sample_left + k->sample_right) / 2;
    k->col_width = k->size_left + k->size_right;
    k->rows = k->count;
    k->cols = 1;
    if (s->key_horizontal) { /* as many columns as fit across, then as few as the rows need */
        k->cols = k->col_width > 0 ? (xright - xleft) / k->col_width : 1;
        if (s->key_maxcols > 0 && k->cols > s->key_maxcols) k->cols = s->key_maxcols;
        if (k->cols == 0) {
            k->cols = 1;
            k->col_width = xright - xleft;
        }
        k->rows = (k->count + k->cols - 1) / k->cols;
        k->cols = k->rows == 0 ? 1 : (k->count + k->rows - 1) / k->rows;
        if (k->cols == 0) k->cols = 1;
    } else {
        int fit = (ytop - ybot) / k->entry_height;
        if (s->key_maxrows > 0 && fit > s->key_maxrows) fit = s->key_maxrows;
        if (fit == 0) fit = 1;
        if (k->count > fit) {
            k->cols = (k->count + fit - 1) / fit;
            k->rows = (k->count + k->cols - 1) / k->cols;
        }
    }
    k->width = k->col_width * k->cols;
    k->height = k->rows * k->entry_height;
}

static bool key_shown(const pv_frame_spec *s, const pv_lay_key_geom *k)
{
    return s->key_on && k->count > 0;
}

/* gnuplot's do_key_bounds, once the plot box is final. */
static void key_bounds(const pv_frame_spec *s, const pv_termdim *t, const pv_lay_key_geom *k,
                       pv_plot2d_box *b)
{
    int w = k->width, h = k->height;
    int yt, xl;
    if (!s->key_outside) {
        yt = s->key_vpos == PV_KEY_TOP      ? b->ytop - t->v_tic
             : s->key_vpos == PV_KEY_BOTTOM ? b->ybot + t->v_tic + h
                                            : (b->ybot + b->ytop + h) / 2;
        xl = s->key_hpos == PV_KEY_LEFT    ? b->xleft + t->h_char
             : s->key_hpos == PV_KEY_RIGHT ? b->xright - t->h_char - w
                                           : (b->xright + b->xleft - w) / 2;
    } else {
        if (s->key_margin == 3) yt = t->ymax - t->v_tic;
        else if (s->key_margin == 4) yt = t->v_tic + h;
        else yt = s->key_vpos == PV_KEY_TOP      ? b->ytop
                  : s->key_vpos == PV_KEY_BOTTOM ? b->ybot + h
                                                 : (b->ybot + b->ytop + h) / 2;
        if (s->key_margin == 1) xl = t->h_char;
        else if (s->key_margin == 2) xl = t->xmax - 1 - t->h_char - w;
        else xl = s->key_hpos == PV_KEY_LEFT    ? b->xleft
                  : s->key_hpos == PV_KEY_RIGHT ? b->xright - w
                                                : (b->xright + b->xleft - w) / 2;
    }
    b->key = true;
    b->key_rows = k->rows, b->key_cols = k->cols;
    b->key_xleft = xl, b->key_xright = xl + w;
    b->key_ytop = yt, b->key_ybot = yt - h;
}

/* x tic labels rotated (not by 0): gnuplot's projection of their length downwards. */
static double xtic_projection(const pv_frame_axis *xa)
{
    double proj = xa->tic_angle == 90.0 ? -1.0 : -sin(xa->tic_angle * 3.14159265358979323846 / 180.0);
    int just = xa->tic_just >= 0 ? xa->tic_just : xa->tic_angle == 90.0 ? PV_JUST_RIGHT : PV_JUST_LEFT;
    return just == PV_JUST_RIGHT ? -proj : proj;
}

void pv_plot2d_layout(const pv_frame_spec *s, const pv_termdim *t, pv_plot2d_box *b)
{
    memset(b, 0, sizeof *b);
    const pv_frame_axis *xa = &s->axis[PV_FAX_X], *ya = &s->axis[PV_FAX_Y];
    const char *xlabel = xa->label && *xa->label ? xa->label : NULL;
    const char *ylabel = ya->label && *ya->label ? ya->label : NULL;
    int titlelin = text_lines(s->title, NULL);
    int xlablin = text_lines(xlabel, NULL);
    if (s->enhanced && xlabel && strpbrk(xlabel, "_^")) xlablin++; /* room for sub/superscripts */
    int ylablin = text_lines(ylabel, NULL);

    /* top */
    int title_textheight = 0, title_y = 0;
    if (titlelin) {
        title_textheight = t->v_char;
        title_y = titlelin * t->v_char;
        if (titlelin + s->title_offset[1] > 0) title_textheight += titlelin * t->v_char;
        title_y = (int)(title_y + 0.5 * t->v_char);
    }
    int ytop = (int)(0.5 + (t->ymax - 1)) - (title_textheight + t->v_char);
    int xleft = t->h_char, xright = t->xmax - 1 - 2 * t->h_char;

    /* bottom */
    bool xtics = xa->tics, ytics = ya->tics;
    int xtic_textheight = xtics ? t->v_char * 2 : 0;
    int xtic_height = xtics && !xa->tic_in ? (int)(t->v_tic * xa->ticscale) : 0;
    double xoff_y = xa->label_offset[1] * t->v_char;
    int xlabel_textheight = 0;
    if (xlablin) {
        xlabel_textheight = (int)((xlablin + 0.2) * t->v_char - xoff_y);
        if (!xtics) xlabel_textheight = (int)(xlabel_textheight + 0.5 * t->v_char);
    }
    int ybot = xtic_height + xtic_textheight + (xlabel_textheight > 0 ? xlabel_textheight : 0);
    if (ybot == 0) ybot = 2 * t->h_char;

    /* the key, and the margin an outside key takes */
    pv_lay_key_geom k;
    key_measure(s, t, xleft, xright, ybot, ytop, &k);
    int key_xleft = 0;
    if (key_shown(s, &k) && s->key_outside) {
        int more = k.rows * k.entry_height;
        if (s->key_margin == 4 && ybot + more <= ytop) ybot += more;
        else if (s->key_margin == 3 && ytop - more >= ybot) ytop -= more;
        else if (s->key_margin == 1) key_xleft = k.width;
        else if (s->key_margin == 2 && xright - k.width >= xleft) xright -= k.width;
    }

    /* left */
    int ylabel_textwidth = 0;
    if (ylabel) ylabel_textwidth = label_angle(ya, true) != 0.0 ? ylablin * t->v_char : 3 * t->h_char;
    int ytic_textwidth = ytics ? (int)(t->h_char * (widest_tic(ya) + 2))
                         : ylabel ? 2 * t->h_char : 0;
    int ytic_width = ytics && !ya->tic_in ? (int)(t->h_tic * ya->ticscale) : 0;
    int space = key_xleft > ylabel_textwidth ? key_xleft : ylabel_textwidth;
    xleft = space + ytic_width + ytic_textwidth;
    if (xleft < 2 * t->h_char) xleft = 2 * t->h_char;
    xleft = (int)(xleft + 0.5 * t->h_char);

    /* right */
    int y2tic_width = ytics && ya->mirror && !ya->tic_in ? t->h_tic : 0;
    if (s->colorbox && !s->colorbox_user) {
        xright = (int)(xright - (xright - xleft) * 0.1);
        xright = (int)(xright - t->h_char * 3.0);
    }
    xright -= y2tic_width;
    if (xright > t->xmax - 1 - 2 * t->h_char) xright = t->xmax - 1 - 2 * t->h_char;
    xright = (int)(xright - 1.0 * t->h_char);

    /* rotated x tic labels take their projected length below the axis */
    if (xtics && xa->tic_angle != 0.0) {
        double proj = xtic_projection(xa);
        ybot -= xtic_textheight;
        if (proj > 0.0)
            xtic_textheight = (int)((int)(t->h_char * widest_tic(xa)) * proj + t->v_char);
        ybot += xtic_textheight;
    }
    if (ytop < ybot) {
        int tmp = ytop;
        ytop = ybot;
        ybot = tmp;
    }

    b->xleft = xleft, b->xright = xright, b->ybot = ybot, b->ytop = ytop;
    b->title_y = ytop + title_y;
    b->xlabel_y = (int)(ybot - xtic_height - xtic_textheight - xlabel_textheight +
                        (xlablin + 0.2) * t->v_char);
    b->ylabel_x = xleft - ytic_width - ytic_textwidth - ylabel_textwidth / 2;
    b->xtic_y = ybot - xtic_height - (xa->tic_angle != 0.0 ? t->h_char : t->v_char);
    b->ytic_x = xleft - ytic_width - t->h_char;
    if (ytics && ya->tic_angle != 0.0) b->ytic_x = (int)(b->ytic_x + t->h_char * 2.5);
    if (key_shown(s, &k)) key_bounds(s, t, &k, b);
}

/* ---- drawing ------------------------------------------------------------------------ */

/* gnuplot's map_x / map_y: rounded terminal units. */
static int map_x(const pv_view3d *v, double x)
{
    return (int)(v->xleft + (x - v->xmin) * ((double)(v->xright - v->xleft) / (v->xmax - v->xmin)) + 0.5);
}

static int map_y(const pv_view3d *v, double y)
{
    return (int)(v->ybot + (y - v->ymin) * ((double)(v->ytop - v->ybot) / (v->ymax - v->ymin)) + 0.5);
}

static bool in_range(double x, double a, double b)
{
    return (x >= a && x <= b) || (x >= b && x <= a);
}

static void grid_segment(pv_frame *f, const pv_frame_spec *s, pv_frame_layer L, int x1, int y1,
                         int x2, int y2)
{
    double lw = s->grid.lw * f->term.linewidth;
    pv_lay_line(f, L, x1, y1, x2, y2, s->grid.rgb, lw);
    if (!f->failed && s->grid.dotted) f->items[f->n - 1].dash = lw > 1.0 ? lw : 1.0;
}

/* A grid line across the box at x (vertical) or y, leaving out the key's box as gnuplot
 * does. */
static void grid_line(pv_frame *f, const pv_frame_spec *s, const pv_view3d *v, pv_frame_layer L,
                      bool vertical, int at)
{
    const pv_plot2d_box *b = &v->box2d;
    if (vertical) {
        if (b->key && at < b->key_xright && at > b->key_xleft && b->key_ytop > b->ybot &&
            b->key_ybot < b->ytop) {
            if (b->key_ybot > b->ybot) grid_segment(f, s, L, at, b->ybot, at, b->key_ybot);
            if (b->key_ytop < b->ytop) grid_segment(f, s, L, at, b->key_ytop, at, b->ytop);
        } else {
            grid_segment(f, s, L, at, b->ybot, at, b->ytop);
        }
        return;
    }
    if (b->key && at < b->key_ytop && at > b->key_ybot && b->key_xleft < b->xright &&
        b->key_xright > b->xleft) {
        if (b->key_xleft > b->xleft) grid_segment(f, s, L, b->xleft, at, b->key_xleft, at);
        if (b->key_xright < b->xright) grid_segment(f, s, L, b->key_xright, at, b->xright, at);
    } else {
        grid_segment(f, s, L, b->xleft, at, b->xright, at);
    }
}

/* gnuplot's axis_output_tics + xtick2d/ytick2d_callback for x (which = PV_FAX_X) or y:
 * per tic the grid line, the mark, its mirror and the label. */
/* A tic mark of `size` at `at` along the axis, from `start` (and mirrored from `mirror`
 * in the other direction, if >= 0); vert: on the y axis. */
static void tic_mark(pv_frame *f, pv_frame_layer L, bool vert, int at, int start, int size,
                     int mirror, uint32_t rgb, double lw)
{
    if (vert) {
        pv_lay_line(f, L, start, at, start + size, at, rgb, lw);
        if (mirror >= 0) pv_lay_line(f, L, mirror, at, mirror - size, at, rgb, lw);
    } else {
        pv_lay_line(f, L, at, start, at, start + size, rgb, lw);
        if (mirror >= 0) pv_lay_line(f, L, at, mirror, at, mirror - size, rgb, lw);
    }
}

static void axis_tics(pv_frame *f, const pv_frame_spec *s, const pv_view3d *v, int which,
                      pv_frame_layer L)
{
    const pv_frame_axis *ax = &s->axis[which];
    if (!ax->tics) return;
    const pv_termdim *t = &f->term;
    const pv_plot2d_box *b = &v->box2d;
    bool vert = which == PV_FAX_Y;
    double olo = vert ? v->xmin : v->ymin, ohi = vert ? v->xmax : v->ymax;
    int axis_pos = vert ? b->xleft : b->ybot, mirror_pos = vert ? b->xright : b->ytop;
    int start, dir, mirror = ax->mirror ? mirror_pos : -1, text;
    if (ax->on_axis && in_range(0.0, olo, ohi)) {
        start = vert ? map_x(v, 0.0) : map_y(v, 0.0);
        dir = -1;
        if (ax->mirror) mirror = start;
        if (vert) {
            text = start - axis_pos > 3 * t->h_char || !(s->border & 2) ? start : axis_pos;
            text -= t->h_char;
        } else {
            text = start - axis_pos > 2 * t->v_char || !(s->border & 1)
                       ? (int)(start - ax->ticscale * t->v_tic) : axis_pos;
            text -= t->v_char;
        }
    } else {
        start = axis_pos;
        dir = ax->tic_in ? 1 : -1;
        text = vert ? b->ytic_x : b->xtic_y;
    }
    pv_just just = vert ? PV_JUST_RIGHT : PV_JUST_CENTRE;
    double angle = ax->tic_angle;
    if (angle != 0.0) just = vert ? PV_JUST_RIGHT : angle == 90.0 ? PV_JUST_RIGHT : PV_JUST_LEFT;
    if (ax->tic_just >= 0) just = (pv_just)ax->tic_just;
    int size = dir * (int)((vert ? t->h_tic : t->v_tic) * ax->ticscale);
    pv_frame_layer grid_layer = s->grid.layer == 1 ? PV_FRAME_FRONT : PV_FRAME_BACK;
    double lw = s->border_lw * t->linewidth;
    for (int i = 0; i < ax->ntics; i++) {
        int at = vert ? map_y(v, ax->tic_pos[i]) : map_x(v, ax->tic_pos[i]);
        if (s->grid.on[which] && grid_layer == L) grid_line(f, s, v, L, !vert, at);
        if (!vert && (at < b->xleft || at > b->xright)) continue;
        tic_mark(f, L, vert, at, start, size, mirror, s->border_rgb, lw);
        const char *label = ax->tic_text ? ax->tic_text[i] : NULL;
        if (!label) continue;
        if (vert) pv_lay_multiline_rot(f, L, text, at, label, just, true, 0, angle);
        else pv_lay_multiline_rot(f, L, at, text, label, just, angle != 0.0, 0, angle);
    }
    /* minor tics (a log axis's default): gnuplot's (int) tic length times the minor scale */
    int msize = (int)(dir * (int)(vert ? t->h_tic : t->v_tic) * ax->minor_scale);
    for (int i = 0; i < ax->nminor; i++) {
        int at = vert ? map_y(v, ax->minor_pos[i]) : map_x(v, ax->minor_pos[i]);
        if (vert ? (at < b->ybot || at > b->ytop) : (at < b->xleft || at > b->xright)) continue;
        tic_mark(f, L, vert, at, start, msize, mirror, s->border_rgb, lw);
    }
}

/* gnuplot's plot_border: anticlockwise from the top left, one closed path when complete. */
static void border(pv_frame *f, const pv_frame_spec *s, const pv_view3d *v, pv_frame_layer L)
{
    int bits = s->border & 15;
    if (!bits) return;
    const pv_plot2d_box *b = &v->box2d;
    double lw = s->border_lw * f->term.linewidth;
    int xs[5] = {b->xleft, b->xleft, b->xright, b->xright, b->xleft};
    int ys[5] = {b->ytop, b->ybot, b->ybot, b->ytop, b->ytop};
    if (bits == 15) {
        pv_fitem *it = pv_lay_item(f, PV_FI_PATH, L);
        if (!it) return;
        it->n = 4;
        for (int k = 0; k < 4; k++) it->x[k] = xs[k], it->y[k] = ys[k];
        it->closed = true;
        it->argb = s->border_rgb;
        it->lw = lw;
        return;
    }
    static const int bit[4] = {2, 1, 8, 4}; /* west, south, east, north */
    bool prev = false;
    for (int k = 0; k < 4; k++) {
        if (!(bits & bit[k])) {
            prev = false;
            continue;
        }
        pv_lay_line(f, L, xs[k], ys[k], xs[k + 1], ys[k + 1], s->border_rgb, lw);
        if (!f->failed) f->items[f->n - 1].chain = prev;
        prev = true;
    }
}

static void zero_axes(pv_frame *f, const pv_frame_spec *s, const pv_view3d *v, pv_frame_layer L)
{
    const pv_plot2d_box *b = &v->box2d;
    for (int ax = PV_FAX_X; ax <= PV_FAX_Y; ax++) {
        if (!s->zeroaxis[ax].on) continue;
        bool along_x = ax == PV_FAX_X;
        if (!in_range(0.0, along_x ? v->ymin : v->xmin, along_x ? v->ymax : v->xmax)) continue;
        double lw = s->zeroaxis[ax].lw * f->term.linewidth;
        if (along_x) {
            int y = map_y(v, 0.0);
            pv_lay_line(f, L, b->xleft, y, b->xright, y, s->zeroaxis[ax].rgb, lw);
        } else {
            int x = map_x(v, 0.0);
            pv_lay_line(f, L, x, b->ybot, x, b->ytop, s->zeroaxis[ax].rgb, lw);
        }
        if (!f->failed && s->zeroaxis[ax].dotted) f->items[f->n - 1].dash = lw > 1.0 ? lw : 1.0;
    }
}

/* gnuplot's draw_titles: the y label (a quarter character right of its anchor), then the
 * x label; both centred, the block's first line at the anchor. */
static void axis_labels(pv_frame *f, const pv_frame_spec *s, const pv_view3d *v)
{
    const pv_termdim *t = &f->term;
    const pv_plot2d_box *b = &v->box2d;
    const pv_frame_axis *ya = &s->axis[PV_FAX_Y], *xa = &s->axis[PV_FAX_X];
    int dx, dy;
    if (ya->label && *ya->label) {
        int x = (int)(b->ylabel_x + t->h_char / 4.0), y = (b->ytop + b->ybot) / 2;
        pv_lay_label_offset(t, ya->label_offset, &dx, &dy);
        pv_lay_text_block(f, PV_FRAME_BACK, x + dx, y + dy, ya->label, PV_JUST_CENTRE, false,
                          ya->label_argb, label_angle(ya, true), ya->label_noenhanced);
    }
    if (xa->label && *xa->label) {
        int x = (b->xright + b->xleft) / 2;
        int y = (int)(b->xlabel_y - t->v_char / 2 - xa->label_offset[1] * t->v_char);
        pv_lay_label_offset(t, xa->label_offset, &dx, &dy);
        pv_lay_text_block(f, PV_FRAME_BACK, x + dx, y + dy, xa->label, PV_JUST_CENTRE, false,
                          xa->label_argb, label_angle(xa, false), xa->label_noenhanced);
    }
}

/* gnuplot's draw_key + do_key_sample; the whole key behind the data (gnuplot draws each
 * entry just before its own plot). */
static void key(pv_frame *f, const pv_frame_spec *s, const pv_view3d *v)
{
    const pv_plot2d_box *b = &v->box2d;
    if (!b->key) return;
    const pv_termdim *t = &f->term;
    pv_lay_key_geom k;
    key_measure(s, t, b->xleft, b->xright, b->ybot, b->ytop, &k);
    k.rows = b->key_rows, k.cols = b->key_cols; /* as the margins were computed */
    if (s->key_box) {
        pv_fitem *it = pv_lay_item(f, PV_FI_PATH, PV_FRAME_BACK);
        if (it) {
            int xs[4] = {b->key_xleft, b->key_xleft, b->key_xright, b->key_xright};
            int ys[4] = {b->key_ybot, b->key_ytop, b->key_ytop, b->key_ybot};
            it->n = 4;
            for (int j = 0; j < 4; j++) it->x[j] = xs[j], it->y[j] = ys[j];
            it->closed = true;
            it->argb = s->border_rgb;
            it->lw = s->border_lw * t->linewidth;
        }
    }
    int yl_ref = b->key_ytop - k.entry_height / 2;
    int xl = b->key_xleft + k.size_left, yl = yl_ref, count = 0;
    for (int i = 0; i < s->nkey; i++) {
        const pv_key_entry *e = &s->key[i];
        if (!e->title || !*e->title) continue;
        bool enh = pv_lay_noenh(f, e->noenhanced);
        if (s->key_left_just)
            pv_lay_multiline(f, PV_FRAME_BACK, xl + k.text_left, yl, e->title, PV_JUST_LEFT, true, 0);
        else
            pv_lay_multiline(f, PV_FRAME_BACK, xl + k.text_right, yl, e->title, PV_JUST_RIGHT, true,
                             0);
        f->enhanced = enh;
        int first = f->n;
        pv_lay_key_sample(f, s, &k, e, xl, yl);
        for (int j = first; !f->failed && j < f->n; j++) f->items[j].layer = PV_FRAME_BACK;
        if (++count >= k.rows) {
            yl = yl_ref;
            xl += k.col_width;
            count = 0;
        } else {
            yl -= k.entry_height;
        }
    }
}

static void title(pv_frame *f, const pv_frame_spec *s, const pv_view3d *v)
{
    if (!s->title || !*s->title) return;
    const pv_plot2d_box *b = &v->box2d;
    int dx, dy;
    pv_lay_label_offset(&f->term, s->title_offset, &dx, &dy);
    pv_lay_text_block(f, PV_FRAME_FRONT, (b->xleft + b->xright) / 2 + dx, b->title_y + dy,
                      s->title, PV_JUST_CENTRE, false, s->title_argb, 0.0, s->title_noenhanced);
}

void pv_lay_build_2d(pv_frame *f, const pv_frame_spec *s, const pv_view3d *v)
{
    bool grid_front = s->grid.layer == 1;
    pv_lay_rects(f, s, -1);
    if (!grid_front) {
        axis_tics(f, s, v, PV_FAX_Y, PV_FRAME_BACK);
        axis_tics(f, s, v, PV_FAX_X, PV_FRAME_BACK);
    }
    zero_axes(f, s, v, PV_FRAME_BACK);
    border(f, s, v, PV_FRAME_BACK);
    pv_lay_rects(f, s, 0);
    pv_lay_labels(f, s, v, false);
    pv_lay_arrows(f, s, v, false);
    axis_labels(f, s, v);
    key(f, s, v);

    if (grid_front) {
        axis_tics(f, s, v, PV_FAX_Y, PV_FRAME_FRONT);
        axis_tics(f, s, v, PV_FAX_X, PV_FRAME_FRONT);
        zero_axes(f, s, v, PV_FRAME_FRONT);
    }
    if (!s->border_back) border(f, s, v, PV_FRAME_FRONT);
    pv_lay_colorbox(f, s, v);
    pv_lay_rects(f, s, 1);
    pv_lay_labels(f, s, v, true);
    pv_lay_arrows(f, s, v, true);
    title(f, s, v);
}
