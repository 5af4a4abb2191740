/*
 * Frame fidelity against gnuplot 5.4's pngcairo: for each scene, gnuplot renders the
 * frame of a script whose data is invisible (points with `pt -1`, or outside the ranges),
 * we build the same frame with view.h + annotate.h, composite background and foreground
 * layers and compare pixel by pixel.
 *
 * Tolerance: both pictures come out of the same cairo, and we drive it the way gnuplot's
 * pngcairo does (integer terminal coordinates truncated like gnuplot's, line snapping,
 * pango's ligatures and kerned whole-pixel glyph advances, the colour box's band rule),
 * so geometry, text and colours are identical. What remains is one level of rounding
 * where our foreground layer is composited over the background in premultiplied 8 bits
 * (gnuplot draws on one surface). Asserted per scene: >= 99.5% of pixels identical and
 * every pixel within 2 levels (max over R, G, B). Measured (2026-12): 99.996% to 100%
 * identical, max difference 1 (tests/frame/README.md).
 *
 * Needs `gnuplot` (5.4, pngcairo) on PATH; exits 77 (skip) if it is missing. Set
 * PV_FRAME_OUT=dir to keep gnuplot's, our and a side-by-side diff image per scene.
 */
#include "pv_test.h"

#include "pvox/annotate.h"

#include <cairo.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAXT 64

typedef struct scene {
    const char *name;
    int width, height;
    const char *script; /* gnuplot commands after `set term` / `set output` */
    void (*setup)(pv_view3d_params *p, pv_frame_spec *s, pv_pal *pal);
} scene;

/* ---- tic helpers (the caller's job in pvox: exec formats labels with gprintf) ------- */

typedef struct tics {
    double pos[MAXT];
    char text[MAXT][32];
    const char *ptr[MAXT];
    int n;
} tics;

static tics g_tics[4];

static void make_tics(pv_frame_spec *s, int axis, double *min, double *max, bool autoscale)
{
    pv_tickaxis a = {0};
    a.min = *min;
    a.max = *max;
    a.auto_min = a.auto_max = autoscale;
    a.tics = true;
    pv_ticks_setup(&a);
    *min = a.min;
    *max = a.max;
    tics *t = &g_tics[axis];
    t->n = pv_ticks_list(&a, t->pos, MAXT);
    for (int i = 0; i < t->n; i++) {
        snprintf(t->text[i], sizeof t->text[i], "% g", t->pos[i]); /* "% h" for these */
        t->ptr[i] = t->text[i];
    }
    s->axis[axis].ntics = t->n;
    s->axis[axis].tic_pos = t->pos;
    s->axis[axis].tic_text = t->ptr;
}

static void base_params(pv_view3d_params *p, int w, int h)
{
    memset(p, 0, sizeof *p);
    pv_termdim_pngcairo(&p->term, w, h, 12.0);
    p->rot_x = 60;
    p->rot_z = 30;
    p->scale = p->zscale = 1;
    p->xyplane_rel = 0.5;
    p->base_in_box = true;
}

/* ---- scenes ------------------------------------------------------------------------ */

static const pv_pal_point rwb[3] = {{0, 1, 0, 0}, {0.5, 1, 1, 1}, {1, 0, 0, 1}};

/* a1's frame (article-scenes/common.gp): view 65,40, base plane at -0.1, full box,
 * red-white-blue palette, cb [-1:1] from the charges. */
static void setup_article(pv_view3d_params *p, pv_frame_spec *s, pv_pal *pal)
{
    base_params(p, 800, 600);
    p->rot_x = 65;
    p->rot_z = 40;
    p->xmin = p->ymin = p->zmin = 0;
    p->xmax = p->ymax = p->zmax = 1;
    p->xyplane_absolute = true;
    p->xyplane_z = -0.1;
    pv_frame_spec_default(s);
    s->border = 4095;
    s->key_on = false;
    make_tics(s, PV_FAX_X, &p->xmin, &p->xmax, false);
    make_tics(s, PV_FAX_Y, &p->ymin, &p->ymax, false);
    make_tics(s, PV_FAX_Z, &p->zmin, &p->zmax, false);
    s->cbmin = -1;
    s->cbmax = 1;
    make_tics(s, PV_FAX_CB, &s->cbmin, &s->cbmax, false);
    pv_pal_default(pal);
    pal->kind = PV_PALK_DEFINED;
    pal->grad = rwb;
    pal->ngrad = 3;
    s->colorbox = true;
    s->pal = pal;
}

/* a2/a3's frame: voxel points `lc palette` without a cbrange: cb copies z, [0:1]. */
static void setup_article_points(pv_view3d_params *p, pv_frame_spec *s, pv_pal *pal)
{
    setup_article(p, s, pal);
    s->cbmin = 0;
    s->cbmax = 1;
    make_tics(s, PV_FAX_CB, &s->cbmin, &s->cbmax, false);
}

/* a7/a8's frame: isosurfaces use no palette, so no colour box. */
static void setup_article_iso(pv_view3d_params *p, pv_frame_spec *s, pv_pal *pal)
{
    setup_article(p, s, pal);
    s->colorbox = false;
}

/* Default view, title, axis labels, key with line / point samples, cb label. */
static void setup_labels(pv_view3d_params *p, pv_frame_spec *s, pv_pal *pal)
{
    static const pv_key_entry key[3] = {
        {.title = "a line", .sample = PV_KS_LINE, .ps = 1, .lw = 1, .argb = 0xFF0000},
        {.title = "crosses", .sample = PV_KS_POINT, .pt = 2, .ps = 2, .lw = 1, .argb = 0x0000FF},
        {.title = "dots", .sample = PV_KS_POINT, .pt = 7, .ps = 1, .lw = 1, .argb = 0x00A000},
    };
    base_params(p, 640, 480);
    p->xmin = -2;
    p->xmax = 3;
    p->ymin = 0;
    p->ymax = 10;
    p->zmin = -1;
    p->zmax = 1;
    p->title_lines = 1;
    pv_frame_spec_default(s);
    s->title = "Frame test";
    s->axis[PV_FAX_X].label = "x axis";
    s->axis[PV_FAX_Y].label = "y axis";
    s->axis[PV_FAX_Z].label = "z axis";
    s->axis[PV_FAX_CB].label = "cb label";
    s->key = key;
    s->nkey = 3;
    make_tics(s, PV_FAX_X, &p->xmin, &p->xmax, false);
    make_tics(s, PV_FAX_Y, &p->ymin, &p->ymax, false);
    make_tics(s, PV_FAX_Z, &p->zmin, &p->zmax, false);
    s->cbmin = 0;
    s->cbmax = 5;
    make_tics(s, PV_FAX_CB, &s->cbmin, &s->cbmax, false);
    pv_pal_default(pal);
    s->colorbox = true;
    s->pal = pal;
}

/* Seen from below and behind (tics go to the front layer, corners swap), x/y ranges
 * as autoscaling extends [-0.7:2.3] x [-37:12] (gnuplot gets them set: an autoscaled
 * range would also take the invisible key-only plots), ticslevel 0, border 255,
 * cubehelix, key at the left. */
static void setup_below(pv_view3d_params *p, pv_frame_spec *s, pv_pal *pal)
{
    static const pv_key_entry key[2] = {
        {.title = "box sample", .sample = PV_KS_BOX, .ps = 1, .lw = 1, .argb = 0x808000,
         .box_border = true, .border_argb = 0x000000},
        {.title = "triangles", .sample = PV_KS_POINT, .pt = 8, .ps = 1.5, .lw = 1,
         .argb = 0x800080},
    };
    base_params(p, 600, 450);
    p->rot_x = 120;
    p->rot_z = 300;
    p->xmin = -1;
    p->xmax = 2.5;
    p->ymin = -40;
    p->ymax = 15;
    p->zmin = 0;
    p->zmax = 30;
    p->xyplane_rel = 0;
    pv_frame_spec_default(s);
    s->border = 255;
    s->key = key;
    s->nkey = 2;
    s->key_hpos = PV_KEY_LEFT;
    make_tics(s, PV_FAX_X, &p->xmin, &p->xmax, false);
    make_tics(s, PV_FAX_Y, &p->ymin, &p->ymax, false);
    make_tics(s, PV_FAX_Z, &p->zmin, &p->zmax, false);
    s->cbmin = 0;
    s->cbmax = 30; /* cb copied from z, as for voxel points */
    make_tics(s, PV_FAX_CB, &s->cbmin, &s->cbmax, false);
    pv_pal_default(pal);
    pal->kind = PV_PALK_CUBEHELIX;
    s->colorbox = true;
    s->pal = pal;
}

/* Key in a box at the bottom, a title of two lines (gnuplot reserves a line per
 * backslash), `view equal xy`, outward x tics of scale 2, no colour box, border 31. */
static void setup_keybox(pv_view3d_params *p, pv_frame_spec *s, pv_pal *pal)
{
    static const pv_key_entry key[2] = {
        {.title = "first entry", .sample = PV_KS_LINE, .ps = 1, .lw = 2, .argb = 0xFF0000},
        {.title = "second", .sample = PV_KS_POINT, .pt = 4, .ps = 1, .lw = 1, .argb = 0x0000FF},
    };
    (void)pal;
    base_params(p, 640, 480);
    p->rot_x = 70;
    p->rot_z = 110;
    p->equal = 1;
    p->xmin = 0;
    p->xmax = 4;
    p->ymin = 0;
    p->ymax = 2;
    p->zmin = 0;
    p->zmax = 1;
    pv_frame_spec_default(s);
    s->title = "Line one\\nLine two"; /* as gnuplot stores 'Line one\nLine two' */
    p->title_lines = pv_frame_title_lines(s->title);
    s->key = key;
    s->nkey = 2;
    s->key_vpos = PV_KEY_BOTTOM;
    s->key_hpos = PV_KEY_HCENTER;
    s->key_box = true;
    s->axis[PV_FAX_X].tic_in = false;
    s->axis[PV_FAX_X].ticscale = 2;
    make_tics(s, PV_FAX_X, &p->xmin, &p->xmax, false);
    make_tics(s, PV_FAX_Y, &p->ymin, &p->ymax, false);
    make_tics(s, PV_FAX_Z, &p->zmin, &p->zmax, false);
}

/* gnuplot's defaults (view 60,30, ticslevel 0.5, border 31) with the key outside. */
static void setup_outside(pv_view3d_params *p, pv_frame_spec *s, pv_pal *pal)
{
    static const pv_key_entry key[1] = {
        {.title = "isosurface", .sample = PV_KS_BOX, .ps = 1, .lw = 1, .argb = 0x9400D3,
         .box_border = true, .border_argb = 0x9400D3},
    };
    (void)pal;
    base_params(p, 640, 480);
    p->xmin = -10;
    p->xmax = 10;
    p->ymin = -10;
    p->ymax = 10;
    p->zmin = 0;
    p->zmax = 1;
    pv_frame_spec_default(s);
    s->key = key;
    s->nkey = 1;
    s->key_outside = true;
    make_tics(s, PV_FAX_X, &p->xmin, &p->xmax, false);
    make_tics(s, PV_FAX_Y, &p->ymin, &p->ymax, false);
    make_tics(s, PV_FAX_Z, &p->zmin, &p->zmax, false);
}

/* A user-placed colour box, rainbow rgbformulae, outward cb tics, no key. */
static void setup_userbox(pv_view3d_params *p, pv_frame_spec *s, pv_pal *pal)
{
    base_params(p, 640, 480);
    p->xmin = p->ymin = p->zmin = -1;
    p->xmax = p->ymax = p->zmax = 1;
    pv_frame_spec_default(s);
    s->key_on = false;
    make_tics(s, PV_FAX_X, &p->xmin, &p->xmax, false);
    make_tics(s, PV_FAX_Y, &p->ymin, &p->ymax, false);
    make_tics(s, PV_FAX_Z, &p->zmin, &p->zmax, false);
    s->cbmin = -3;
    s->cbmax = 7;
    make_tics(s, PV_FAX_CB, &s->cbmin, &s->cbmax, false);
    s->axis[PV_FAX_CB].tic_in = false;
    pv_pal_default(pal);
    pal->formulae[0] = 33;
    pal->formulae[1] = 13;
    pal->formulae[2] = 10;
    s->colorbox = true;
    s->colorbox_user = true;
    s->cb_origin[0] = 0.8;
    s->cb_origin[1] = 0.2;
    s->cb_size[0] = 0.05;
    s->cb_size[1] = 0.6;
    s->pal = pal;
}

/* Zero axes (dotted default, `lt -1`, red lw 2), tics on the axes, labels in first, graph
 * and screen coordinates (justified, rotated, with a point and an offset), a log colour
 * box whose label sits by the box (tics on the axis), no border. */
static const pv_frame_label axes_labels[5] = {
    {.text = "X", .at = {4.2, 0, 0}, .pt = -1},
    {.text = "graph", .at = {4, 5, 6}, .just = 2, .pt = -1},
    {.text = "screen", .screen = true, .at = {0.05 * (800 * 200 - 200 - 1) + 0.5,
                                               0.9 * (600 * 200 - 200 - 1) + 0.5},
     .front = true, .pt = -1},
    {.text = "pt", .at = {0, 0, 6}, .pt = 7, .ps = 1.5, .point_lw = 1, .offset = {1, -1}},
    {.text = "rot", .at = {-3, 3, 0}, .just = 1, .angle = 45, .pt = -1},
};

static void setup_axes(pv_view3d_params *p, pv_frame_spec *s, pv_pal *pal)
{
    base_params(p, 800, 600);
    p->rot_x = 70;
    p->rot_z = 40;
    p->scale = 1.2;
    p->xmin = -4, p->xmax = 4;
    p->ymin = -3, p->ymax = 5;
    p->zmin = -2, p->zmax = 6;
    p->xyplane_absolute = true;
    p->xyplane_z = 0;
    pv_frame_spec_default(s);
    s->border = 0;
    s->key_on = false;
    for (int a = 0; a < 4; a++) s->axis[a].on_axis = true, s->axis[a].mirror = false;
    s->zeroaxis[0].on = s->zeroaxis[1].on = s->zeroaxis[2].on = true;
    s->zeroaxis[0].lw = s->zeroaxis[1].lw = 1;
    s->zeroaxis[0].dotted = s->zeroaxis[2].dotted = true; /* lc and lw keep the dots */
    s->zeroaxis[2].rgb = 0xFF0000;
    s->zeroaxis[2].lw = 2;
    make_tics(s, PV_FAX_X, &p->xmin, &p->xmax, false);
    make_tics(s, PV_FAX_Y, &p->ymin, &p->ymax, false);
    make_tics(s, PV_FAX_Z, &p->zmin, &p->zmax, false);
    s->labels = axes_labels;
    s->nlabels = 5;
    /* log cb [1:1e4]: a tic at each power of ten */
    pv_tickaxis a = {0};
    a.min = 1, a.max = 1e4, a.tics = true, a.log_base = 10;
    pv_ticks_setup(&a);
    tics *t = &g_tics[PV_FAX_CB];
    t->n = pv_ticks_list(&a, t->pos, MAXT);
    for (int i = 0; i < t->n; i++) {
        snprintf(t->text[i], sizeof t->text[i], "% g", t->pos[i]);
        t->ptr[i] = t->text[i];
    }
    static double minor[64];
    s->axis[PV_FAX_CB].ntics = t->n;
    s->axis[PV_FAX_CB].tic_pos = t->pos;
    s->axis[PV_FAX_CB].tic_text = t->ptr;
    s->axis[PV_FAX_CB].nminor = pv_ticks_minor(&a, minor, 64);
    s->axis[PV_FAX_CB].minor_pos = minor;
    s->axis[PV_FAX_CB].label = "log cb";
    s->axis[PV_FAX_CB].label_offset[0] = -2;
    s->cbmin = 1, s->cbmax = 1e4;
    pv_pal_default(pal);
    pal->cb_log = true;
    s->colorbox = true;
    s->pal = pal;
}

static const scene scenes[] = {
    {"axes", 800, 600,
     "set border 0\nset xzeroaxis; set yzeroaxis lt -1; set zzeroaxis lc rgb \"red\" lw 2\n"
     "set tics axis nomirror\nset xyplane at 0\nset view 70, 40, 1.2\n"
     "set xrange [-4:4]; set yrange [-3:5]; set zrange [-2:6]\n"
     "set label 1 \"X\" at 4.2, 0, 0\nset label 2 \"graph\" at graph 1, 1, 1 right\n"
     "set label 3 \"screen\" at screen 0.05, 0.9 front\n"
     "set label 4 \"pt\" at 0, 0, 6 point pt 7 ps 1.5 offset 1, -1\n"
     "set label 5 \"rot\" at -3, 3, 0 rotate by 45 centre\n"
     "set log cb; set cbrange [1:1e4]; set cblabel \"log cb\" offset -2\nunset key\n"
     "splot '-' using 1:2:3:(1) with points pt -1 lc palette\n9 9 9\ne\n",
     setup_axes},
    {"article", 800, 600,
     "set xrange [0:1]; set yrange [0:1]; set zrange [0:1]\n"
     "set view 65,40\nset xyplane at -0.1\nset border 4095\nunset key\n"
     "set palette define (0 \"red\", 0.5 \"white\", 1 \"blue\")\n"
     "set cbrange [-1:1]\n"
     "splot '-' using 1:2:3:4 with points pt -1 lc palette\n0 0 0.75 1\n0 0 0.25 -1\ne\n",
     setup_article},
    {"a2_frame", 800, 600,
     "set xrange [0:1]; set yrange [0:1]; set zrange [0:1]\n"
     "set view 65,40\nset xyplane at -0.1\nset border 4095\nunset key\n"
     "set palette define (0 \"red\", 0.5 \"white\", 1 \"blue\")\n"
     "set vgrid $v size 10\nset vxrange [0:1]; set vyrange [0:1]; set vzrange [0:1]\n"
     "splot $v with points above 1 pt 7 lc palette\n",
     setup_article_points},
    {"a7_frame", 800, 600,
     "set xrange [0:1]; set yrange [0:1]; set zrange [0:1]\n"
     "set view 65,40\nset xyplane at -0.1\nset border 4095\nunset key\n"
     "set vgrid $v size 10\nset vxrange [0:1]; set vyrange [0:1]; set vzrange [0:1]\n"
     "set pm3d depthorder\nsplot $v with isosurface level 1, $v with isosurface level -1\n",
     setup_article_iso},
    {"userbox", 640, 480,
     "unset key\nset palette rgbformulae 33,13,10\nset cbrange [-3:7]\nset cbtics out\n"
     "set colorbox user origin 0.8,0.2 size 0.05,0.6\n"
     "set xrange [-1:1]; set yrange [-1:1]; set zrange [-1:1]\n"
     "splot '-' using 1:2:3:3 with points pt -1 lc palette\n0 0 0\ne\n",
     setup_userbox},
    {"labels", 640, 480,
     "set title \"Frame test\"\n"
     "set xlabel \"x axis\"; set ylabel \"y axis\"; set zlabel \"z axis\"\n"
     "set xrange [-2:3]; set yrange [0:10]; set zrange [-1:1]\n"
     "set cbrange [0:5]; set cblabel \"cb label\"\n"
     "splot '-' using 1:2:3:(1) with points pt 7 lc palette notitle, "
     "'-' with lines lc rgb \"red\" title \"a line\", "
     "'-' with points pt 2 ps 2 lc rgb \"blue\" title \"crosses\", "
     "'-' with points pt 7 lc rgb \"#00a000\" title \"dots\"\n"
     "9 9 9\ne\n9 9 9\n9 9 9\ne\n9 9 9\ne\n9 9 9\ne\n",
     setup_labels},
    {"below", 600, 450,
     "set view 120,300\nset xyplane 0\nset border 255\nset zrange [0:30]\n"
     "set xrange [-1:2.5]; set yrange [-40:15]\n"
     "set key left\nset palette cubehelix\nset style fill solid 1\n"
     "splot '-' using 1:2:3:3 with points pt -1 lc palette notitle, "
     "'-' using 1:2:3 with boxes lc rgb \"#808000\" title \"box sample\", "
     "'-' using 1:2:3 with points pt 8 ps 1.5 lc rgb \"#800080\" title \"triangles\"\n"
     "-0.7 -37 0\n2.3 12 30\ne\n99 0 1\ne\n0 0 99\ne\n",
     setup_below},
    {"keybox", 640, 480,
     "set key bottom center box\nset title 'Line one\\nLine two'\nset view 70,110\n"
     "set view equal xy\nset xtics out scale 2\n"
     "set xrange [0:4]; set yrange [0:2]; set zrange [0:1]\n"
     "splot '-' with lines lw 2 lc rgb \"red\" title \"first entry\", "
     "'-' with points pt 4 lc rgb \"blue\" title \"second\"\n9 9 9\n9 9 9\ne\n9 9 9\ne\n",
     setup_keybox},
    {"outside", 640, 480,
     "set key outside\nset xrange [-10:10]; set yrange [-10:10]; set zrange [0:1]\n"
     "set vgrid $v size 10\nset vxrange [0:1]; set vyrange [0:1]; set vzrange [0:1]\n"
     "splot $v with isosurface level 0.5 title \"isosurface\"\n",
     setup_outside},
};

/* ---- running gnuplot ----------------------------------------------------------------- */

static bool have_gnuplot(void)
{
    return system("gnuplot -e 'exit' >/dev/null 2>&1") == 0;
}

static bool run_gnuplot(const char *dir, const scene *sc)
{
    char path[512], cmd[1024];
    snprintf(path, sizeof path, "%s/%s.gp", dir, sc->name);
    FILE *f = fopen(path, "w");
    if (!f) return false;
    fprintf(f, "set term pngcairo size %d,%d\nset output '%s/%s_gnuplot.png'\n%s", sc->width,
            sc->height, dir, sc->name, sc->script);
    fclose(f);
    snprintf(cmd, sizeof cmd, "gnuplot '%s' >'%s/%s.log' 2>&1", path, dir, sc->name);
    return system(cmd) == 0;
}

/* ---- comparison -------------------------------------------------------------------- */

typedef struct stats {
    long total, same, within2;
    int maxd;
} stats;

static int pixel_diff(uint32_t a, uint32_t b)
{
    int m = 0;
    for (int k = 0; k < 24; k += 8) {
        int d = abs((int)((a >> k) & 255) - (int)((b >> k) & 255));
        if (d > m) m = d;
    }
    return m;
}

static void save_side_by_side(const char *out, const scene *sc, cairo_surface_t *ours,
                              cairo_surface_t *ref, cairo_surface_t *diff)
{
    char path[512];
    int w = sc->width, h = sc->height;
    cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 3 * w, h);
    cairo_t *cr = cairo_create(s);
    cairo_surface_t *src[3] = {ref, ours, diff};
    for (int i = 0; i < 3; i++) {
        cairo_set_source_surface(cr, src[i], i * w, 0);
        cairo_paint(cr);
    }
    cairo_destroy(cr);
    snprintf(path, sizeof path, "%s/%s_side.png", out, sc->name);
    cairo_surface_write_to_png(s, path);
    snprintf(path, sizeof path, "%s/%s_pvox.png", out, sc->name);
    cairo_surface_write_to_png(ours, path);
    cairo_surface_destroy(s);
}

static stats compare(const scene *sc, cairo_surface_t *ours, cairo_surface_t *ref,
                     const char *out)
{
    stats st = {0};
    int w = sc->width, h = sc->height;
    cairo_surface_t *diff = cairo_image_surface_create(CAIRO_FORMAT_RGB24, w, h);
    cairo_surface_flush(ours);
    cairo_surface_flush(ref);
    cairo_surface_flush(diff);
    const unsigned char *a = cairo_image_surface_get_data(ours);
    const unsigned char *b = cairo_image_surface_get_data(ref);
    unsigned char *d = cairo_image_surface_get_data(diff);
    int sa = cairo_image_surface_get_stride(ours), sb = cairo_image_surface_get_stride(ref);
    int sd = cairo_image_surface_get_stride(diff);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            int m = pixel_diff(((const uint32_t *)(a + y * sa))[x],
                               ((const uint32_t *)(b + y * sb))[x]);
            st.total++;
            st.same += m == 0;
            st.within2 += m <= 2;
            if (m > st.maxd) st.maxd = m;
            uint32_t c = m == 0 ? 0xFFFFFF : m <= 2 ? 0xFFB0B0 : m <= 64 ? 0xFF5050 : 0xC00000;
            ((uint32_t *)(d + y * sd))[x] = c;
        }
    cairo_surface_mark_dirty(diff);
    if (out) save_side_by_side(out, sc, ours, ref, diff);
    cairo_surface_destroy(diff);
    return st;
}

/* ---- one scene --------------------------------------------------------------------- */

static cairo_surface_t *render_ours(const scene *sc)
{
    pv_view3d_params p;
    pv_frame_spec s;
    pv_pal pal;
    sc->setup(&p, &s, &pal);
    p.key_reserve_right = pv_frame_key_reserve(&s, &p.term);
    pv_view3d v;
    pv_view3d_setup(&v, &p);
    pv_frame f = {0};
    if (!pv_frame_build(&f, &s, &v)) return NULL;
    int w = sc->width, h = sc->height;
    cairo_surface_t *bg = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, w, h);
    cairo_surface_t *fg = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, w, h);
    int stride = cairo_image_surface_get_stride(bg);
    cairo_surface_flush(bg);
    cairo_surface_flush(fg);
    pv_status st = pv_annotate_frame(NULL, &f, NULL, (uint32_t *)cairo_image_surface_get_data(bg),
                                     (uint32_t *)cairo_image_surface_get_data(fg), stride);
    pv_frame_fini(&f);
    cairo_surface_mark_dirty(bg);
    cairo_surface_mark_dirty(fg);
    if (st != PV_OK) {
        cairo_surface_destroy(bg);
        cairo_surface_destroy(fg);
        return NULL;
    }
    /* the data would go here; the foreground goes over it */
    cairo_t *cr = cairo_create(bg);
    cairo_set_source_surface(cr, fg, 0, 0);
    cairo_paint(cr);
    cairo_destroy(cr);
    cairo_surface_destroy(fg);
    return bg;
}

static void check_scene(const char *dir, const char *out, const scene *sc)
{
    PV_CHECK(run_gnuplot(dir, sc));
    char path[512];
    snprintf(path, sizeof path, "%s/%s_gnuplot.png", dir, sc->name);
    cairo_surface_t *ref = cairo_image_surface_create_from_png(path);
    PV_CHECK(cairo_surface_status(ref) == CAIRO_STATUS_SUCCESS);
    cairo_surface_t *ours = render_ours(sc);
    PV_CHECK(ours != NULL);
    if (cairo_surface_status(ref) != CAIRO_STATUS_SUCCESS || !ours) {
        cairo_surface_destroy(ref);
        if (ours) cairo_surface_destroy(ours);
        return;
    }
    PV_CHECK_EQ(cairo_image_surface_get_width(ref), sc->width);
    PV_CHECK_EQ(cairo_image_surface_get_height(ref), sc->height);
    stats st = compare(sc, ours, ref, out);
    double same = 100.0 * st.same / st.total, w2 = 100.0 * st.within2 / st.total;
    fprintf(stderr, "%-8s %dx%d: identical %.3f%%, within 2 levels %.3f%%, max diff %d\n",
            sc->name, sc->width, sc->height, same, w2, st.maxd);
    PV_CHECK(same >= 99.5);
    PV_CHECK(st.maxd <= 2);
    cairo_surface_destroy(ref);
    cairo_surface_destroy(ours);
}

int main(void)
{
    if (!have_gnuplot()) {
        fprintf(stderr, "gnuplot not found: skipped\n");
        return 77;
    }
    char dir[] = "/tmp/pv_frame_XXXXXX";
    if (!mkdtemp(dir)) return 1;
    const char *out = getenv("PV_FRAME_OUT");
    for (size_t i = 0; i < sizeof scenes / sizeof scenes[0]; i++)
        check_scene(dir, out, &scenes[i]);
    if (!getenv("PV_FRAME_KEEP")) {
        char cmd[600];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
        if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", dir);
    } else {
        fprintf(stderr, "gnuplot files kept in %s\n", dir);
    }
    return pv_test_result("frame_gnuplot");
}
