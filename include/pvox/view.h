/*
 * pvox view: everything of a frame that is not the data, as plain data (module render).
 *
 *   1. Terminal metrics: gnuplot's integer terminal units for pngcairo (200 per pixel), the
 *      character cell and tic length of the DejaVu Sans terminal font.
 *   2. Palettes: gray in [0,1] -> RGB as gnuplot 5.4 computes and rounds it.
 *   3. Axis tics: gnuplot's step quantisation, autoscale extension to tic marks, tic lists.
 *   4. The 3D view: gnuplot's plot area, projection world -> screen and depth.
 *   5. The frame display list: border edges, tic marks, tic labels, axis labels, title,
 *      key and colour box as lines / texts / markers / gradient in terminal units, split
 *      into a back layer (drawn behind the data) and a front layer. annotate.h draws it.
 *
 * Nothing here knows settings syntax, MPI or cairo: callers fill the structs. All
 * functions are thread-safe (no global state); none allocates except pv_frame_build.
 *
 * Coordinates. "Terminal units" are gnuplot's: x to the right, y UP, integer steps of 1/200
 * pixel, (0,0) at the centre of the bottom-left pixel. "Pixels" are the PNG's: x to the
 * right, y DOWN, pixel (i,j) covers [i,i+1)x[j,j+1), so its centre is (i+0.5, j+0.5) —
 * cairo's device space. pv_term_px_x/y convert.
 *
 * Making a frame (rank 0 for the annotation; the view is needed on every rank):
 *   1. pv_termdim_pngcairo(&prm.term, w, h, font_pt * fontscale);
 *   2. per axis x y z cb: pv_tickaxis from the data range and settings,
 *      pv_ticks_widen_empty (warn if true), pv_ticks_setup, pv_ticks_list, labels with
 *      gprintf(pv_ticks_format(...), value); cb copies z for voxel points without data;
 *   3. pv_pal from `set palette`; pv_frame_spec from border/tics/labels/title/key/colorbox;
 *   4. prm.title_lines = pv_frame_title_lines(title); prm.key_reserve_right (or _left) =
 *      pv_frame_key_reserve(&spec, &prm.term); pv_view3d_setup(&view, &prm);
 *   5. project the data with pv_view_project / pv_view_term, order slabs with
 *      pv_view_z_facing; pv_frame_build(&frame, &spec, &view);
 *   6. annotate.h: pv_annotate_frame(ctx, &frame, &opts, bg, fg, stride); picture =
 *      fg over (data over bg); pv_frame_fini(&frame).
 *
 * Sources: gnuplot 5.4.4 behaviour measured with its svg and pngcairo terminals
 * (docs/GNUPLOT.md GP-6.3, GP-8.2, GP-9, GP-10, and tests/frame/).
 */
#ifndef PVOX_VIEW_H
#define PVOX_VIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* =====================================================================================
 * 1. Terminal metrics
 * ===================================================================================== */

#define PV_TERM_UNITS_PER_PX 200 /* pngcairo: terminal units per pixel */

typedef struct pv_termdim {
    int width, height;       /* canvas in pixels */
    int xmax, ymax;          /* canvas extent in terminal units: (width-1)*200, (height-1)*200 */
    int h_char, v_char;      /* character cell width / height, terminal units */
    int h_tic, v_tic;        /* major tic length, terminal units */
    double font_pt;          /* font size in points (terminal font size x fontscale) */
    double font_px;          /* the font's em in pixels (pngcairo: font_pt * 96/72) */
    double linewidth;        /* terminal `linewidth` factor (default 1) */
} pv_termdim;

/* gnuplot's pngcairo metrics for a width x height canvas and a DejaVu Sans font of
 * `font_pt` points (12 by default; pass font size times fontscale). Measured: 640x480
 * "sans,12" gives h_char 2000, v_char 3725, h_tic = v_tic = 1490. */
void pv_termdim_pngcairo(pv_termdim *t, int width, int height, double font_pt);

/* Terminal units -> pixel coordinates (y down, pixel centres at +0.5). */
static inline double pv_term_px_x(const pv_termdim *t, double x)
{
    (void)t;
    return x / PV_TERM_UNITS_PER_PX + 0.5;
}
static inline double pv_term_px_y(const pv_termdim *t, double y)
{
    return (t->ymax - y) / PV_TERM_UNITS_PER_PX + 0.5;
}

/* =====================================================================================
 * 2. Palettes (gnuplot `set palette`)
 * ===================================================================================== */

typedef enum pv_pal_kind {
    PV_PALK_FORMULAE = 0,    /* `rgbformulae r,g,b` (default 7,5,15) */
    PV_PALK_DEFINED,         /* `defined (...)`: gradient points */
    PV_PALK_CUBEHELIX,       /* `cubehelix start s cycles c saturation s` */
    PV_PALK_GRAY             /* `gray`: r = g = b = gray^(1/gamma) */
} pv_pal_kind;

typedef enum pv_pal_model { PV_PALM_RGB = 0, PV_PALM_HSV, PV_PALM_CMY } pv_pal_model;

typedef struct pv_pal_point {
    double pos;              /* gray position, rescaled to [0,1], non-decreasing */
    double r, g, b;          /* colour components in [0,1] */
} pv_pal_point;

typedef struct pv_pal {
    pv_pal_kind kind;
    pv_pal_model model;      /* colour space the formulae / gradient produce (RGB default) */
    int formulae[3];         /* rgbformulae numbers -36..36 (negative: f(1-gray)) */
    const pv_pal_point *grad;/* PV_PALK_DEFINED: ngrad points, borrowed (must outlive use) */
    int ngrad;
    double ch_start, ch_cycles, ch_saturation; /* cubehelix, default 0.5, -1.5, 1 */
    double gamma;            /* `gamma` (default 1.5): used by gray and cubehelix */
    bool negative;           /* `negative`: cb -> gray is reversed */
    int maxcolors;           /* 0 = continuous, else gray is quantised to n colours */
    bool cb_log;             /* the colour axis is logarithmic (`set logscale cb`): gray
                                follows log(cb) between log(cbmin) and log(cbmax) */
} pv_pal;

/* gnuplot's fresh-start palette: rgbformulae 7,5,15, RGB, positive, gamma 1.5. */
void pv_pal_default(pv_pal *p);

/* Where `cb` lies along the colour axis [cbmin, cbmax], 0 at cbmin and 1 at cbmax, not
 * clamped: linear, or in log(cb) when p->cb_log (then cb <= 0 gives -inf or NaN). */
double pv_pal_cb_frac(const pv_pal *p, double cb, double cbmin, double cbmax);

/* cb value -> gray in [0,1] (gnuplot's cb2gray): clamped to the cb range (so on a log
 * axis a value <= 0 takes the bottom colour, as in gnuplot), reversed when the palette
 * is negative. NaN stays NaN. cbmin < cbmax expected (both > 0 on a log axis). */
double pv_pal_gray(const pv_pal *p, double cb, double cbmin, double cbmax);

/* gray in [0,1] -> colour components in [0,1] (maxcolors quantisation included). */
void pv_pal_rgb(const pv_pal *p, double gray, double rgb[3]);

/* gray -> 0x00RRGGBB rounded as gnuplot does: (unsigned char)(255*c + 0.5) (its svg
 * output and the numbers of GP-9). Note: pngcairo hands cairo the unrounded
 * colour, and cairo stores floor(65535 c + 0.5) >> 8, which differs by one level near
 * x.5/255 (e.g. 3.98/255 gives 3): to match gnuplot's PNG pixels use pv_pal_rgb. */
uint32_t pv_pal_rgb8(const pv_pal *p, double gray);

/* Colour of the value `cb` with the colour range [cbmin, cbmax]: pv_pal_rgb8 of
 * pv_pal_gray. */
uint32_t pv_pal_color(const pv_pal *p, double cb, double cbmin, double cbmax);

/* One of gnuplot's 37 rgbformulae (-36..36) at gray x, clipped to [0,1]. */
double pv_pal_formula(int formula, double x);

/* =====================================================================================
 * 3. Axis tics and autoscaling
 * ===================================================================================== */

typedef struct pv_tickaxis {
    double min, max;         /* the range (in: autoscaled data range or the set range) */
    bool auto_min, auto_max; /* the end is autoscaled */
    bool fix_min, fix_max;   /* `set autoscale xfixmin/xfixmax`: no extension to tics */
    bool tics;               /* the axis has tics (no tics: no extension either) */
    bool has_incr;           /* `set xtics {start,} incr {,end}` */
    double start, incr, end; /* with has_incr; start / end NaN when not given */
    double log_base;         /* > 1: a logarithmic axis (`set logscale`, its base); the
                                automatic step is then whole powers of the base and the
                                range must be > 0. 0: linear */
    double step;             /* out (pv_ticks_setup): the tic step in use (in powers of the
                                base on a log axis) */
} pv_tickaxis;

/* gnuplot's automatic tic step for a range of length `range` (quantize_normal_tics with
 * guide 20): 1, 2 or 5 times a power of ten (0.05 .. 1 and ceil() steps on the way). */
double pv_ticks_step(double range);

/* An empty range [v:v] is widened as gnuplot does for autoscaled axes: [-1:1] around 0,
 * else [v - |v|/100 : v + |v|/100]. Returns true if it changed the range (the caller then
 * warns "empty x range [v:v], adjusting to [a:b]"). */
bool pv_ticks_widen_empty(double *min, double *max);

/* gnuplot's setup_tics: choose a->step (the increment of `set xtics incr`, else the
 * automatic step of the range) and round autoscaled, non-fixed ends outward to a
 * multiple of it (on a log axis: to whole powers of the base, as gnuplot extends the
 * x, y and z axes; pass fix_min/fix_max for the colour axis, which gnuplot leaves at
 * the data). Call after the data range is known (and widened if empty). */
void pv_ticks_setup(pv_tickaxis *a);

/* The tic positions in [min,max] (with gnuplot's 1% tolerance), ascending, values near
 * zero snapped to exactly 0. Writes at most `cap` positions and returns how many tics
 * there are (may exceed cap: call again with a larger array). Call pv_ticks_setup first. */
int pv_ticks_list(const pv_tickaxis *a, double *pos, int cap);

/* The minor tics gnuplot draws by default on a log axis (none on a linear one): between
 * each pair of major tics base^t and base^(t+step), at base^t + k/(base-1) of the way,
 * k = 1, 2, ... (as gnuplot accumulates the fraction), kept within the range. Writes at
 * most `cap` and returns how many there are. Call pv_ticks_setup first. */
int pv_ticks_minor(const pv_tickaxis *a, double *pos, int cap);

/* The format gnuplot uses for the tic labels of this axis: `fmt` (the user format,
 * default "% h") unless fmt is the default and the range is tiny against its values, in
 * which case "%.<n>f" with enough digits. Writes into buf and returns it. Labels are then
 * made with gprintf(format, value) (lang's pv_gprintf). */
const char *pv_ticks_format(const pv_tickaxis *a, const char *fmt, char *buf, size_t n);

/* =====================================================================================
 * 4. The 3D view
 * ===================================================================================== */

/* The layout of a 2D `plot` (gnuplot's boundary()): the plot box and where the tic
 * labels, axis labels and title go, terminal units. */
typedef struct pv_plot2d_box {
    int xleft, xright, ybot, ytop;   /* the plot box */
    int xtic_y, ytic_x;              /* x tic labels' centre line, y tic labels' right end */
    int xlabel_y, ylabel_x;          /* the axis labels' anchors */
    int title_y;                     /* the title's anchor (centred at the box's middle) */
    bool key;                        /* a key with entries: its box below */
    int key_xleft, key_xright, key_ybot, key_ytop;
    int key_rows, key_cols;          /* fixed while the margins were computed */
} pv_plot2d_box;

typedef struct pv_view3d_params {
    pv_termdim term;          /* canvas and font metrics */
    double rot_x, rot_z;      /* `set view` degrees (default 60, 30), each in [0,360] */
    double scale, zscale;     /* default 1, 1 */
    double azimuth;           /* default 0 */
    int equal;                /* 0 independent axes, 1 `view equal xy`, 2 `equal xyz` */
    double xmin, xmax, ymin, ymax, zmin, zmax; /* final axis ranges (after autoscaling) */
    bool xyplane_absolute;    /* `set xyplane at h` (true) / `relative r` (false) */
    double xyplane_z;         /* h */
    double xyplane_rel;       /* r, default 0.5 */
    bool base_in_box;         /* the box reaches the base plane: x or y tics on, or any
                                 border bit 0..3 (gnuplot); else the box spans zmin..zmax */
    int title_lines;          /* lines reserved for `set title`: pv_frame_title_lines() */
    int key_reserve_left;     /* terminal units taken by an outside key (pv_frame_key_...) */
    int key_reserve_right;
    bool map;                 /* `set view map`: seen from above (rot_x, rot_z ignored),
                                 scale 1.425 x the map scale, x tics below, y tics left */
    bool map_colorbox;        /* map with the default colour box: the plot area gives up
                                 a tenth of its width on the right */
    bool plot2d;              /* a 2D `plot`: x and y map linearly onto box2d (gnuplot's
                                 map_x/map_y), z only orders the plots (higher in front) */
    pv_plot2d_box box2d;      /* with plot2d: pv_plot2d_layout() */
} pv_view3d_params;

typedef struct pv_view3d {
    pv_termdim term;
    double xmin, xmax, ymin, ymax, zmin, zmax;
    double base_z;            /* height of the base plane (xyplane) */
    double floor_z, ceiling_z;/* z extent of the box */
    double xscale3d, yscale3d, zscale3d;  /* world -> [-1,1] factors */
    double xcenter3d, ycenter3d, zcenter3d;
    double mat[4][4];         /* gnuplot's view matrix (row vector times matrix) */
    int xleft, xright, ybot, ytop; /* plot bounds from the canvas layout, terminal units */
    int xmiddle, ymiddle;     /* centre of the plot bounds */
    int xscaler, yscaler;     /* 4/7 of the plot bounds' width / height */
    double xyscaler;          /* sqrt(xscaler * yscaler) */
    double rot_x, rot_z, azimuth;
    /* the base corners (gnuplot's setup_3d_box_corners): which x/y is where */
    double zaxis_x, zaxis_y;  /* the corner that carries the z axis (left) */
    double right_x, right_y, back_x, back_y, front_x, front_y;
    double xaxis_y, yaxis_x;  /* x tics run along y = xaxis_y, y tics along x = yaxis_x */
    bool map;                 /* `set view map` (pv_view3d_params.map) */
    int map_left, map_right, map_bottom, map_top; /* map: the box in terminal units */
    bool plot2d;              /* pv_view3d_params.plot2d */
    pv_plot2d_box box2d;
} pv_view3d;

/* Compute the plot area and the projection. The ranges must be non-empty. */
void pv_view3d_setup(pv_view3d *v, const pv_view3d_params *p);

/* World (x, y, z) -> normalised view coordinates (gnuplot's map3d_xyz): vx, vy on the
 * screen (y up), vz towards the viewer. */
void pv_view_map(const pv_view3d *v, double x, double y, double z, double *vx, double *vy,
                 double *vz);

/* World -> terminal units (gnuplot's map3d_xy_double, not truncated). */
void pv_view_term(const pv_view3d *v, double x, double y, double z, double *tx, double *ty);

/* World -> pixel coordinates of the PNG (y down, pixel centres at +0.5) and a depth that
 * increases away from the viewer (normalised view units: only its order matters; equal
 * for equal view distance). gnuplot truncates terminal coordinates to integers (1/200
 * px) and its pngcairo terminal draws point markers at rint() pixel centres; this
 * function returns the exact projection. Any of the out pointers may be NULL. */
void pv_view_project(const pv_view3d *v, double x, double y, double z, double *sx, double *sy,
                     double *depth);

/* Depth change per unit of world z (negative: larger z is nearer the viewer). */
double pv_view_depth_per_z(const pv_view3d *v);

/* Slab visibility for the compositor: +1 if the viewer sees +z nearest (z slabs of
 * higher z are in front: composite from the highest slab, front to back), -1 if -z faces
 * the viewer, 0 if the view is exactly horizontal (rot_x 90 or 270: slabs do not
 * overlap in depth along z; any order). */
int pv_view_z_facing(const pv_view3d *v);

/* =====================================================================================
 * 5. The frame display list
 * ===================================================================================== */

/* Axis index for pv_frame_spec.axis[] (same order as settings.h's pv_axis). */
enum { PV_FAX_X = 0, PV_FAX_Y = 1, PV_FAX_Z = 2, PV_FAX_CB = 3 };

typedef struct pv_frame_axis {
    bool tics;               /* tic marks and labels drawn (default on for x y z cb) */
    bool mirror;             /* mirrored marks (gnuplot default: x y cb mirror, z not) */
    bool tic_in;             /* marks point inwards (default) */
    double ticscale;         /* major tic scale, default 1 */
    int ntics;
    const double *tic_pos;   /* ntics positions in axis units (pv_ticks_list), borrowed */
    const char *const *tic_text; /* ntics labels (NULL entry: no label), borrowed */
    int nminor;              /* minor tics (cb only: a log axis's default 2..9 per power) */
    const double *minor_pos; /* nminor positions in axis units, borrowed */
    double minor_scale;      /* their length against a major tic, default 0.5 */
    bool on_axis;            /* `set tics axis`: tics along the zero axis (where 0 is in
                                the other axis's range; z: always at x = y = 0) */
    const char *label;       /* `set xlabel` text or NULL */
    double label_angle;      /* degrees; used in `set view map` (the y label's default 90) */
    double tic_angle;        /* tic labels' `rotate by`: drawn in `set view map` only, as
                                gnuplot does */
    int tic_just;            /* `left|center|right` tic labels (map only): 0-2, -1 auto */
    double label_offset[2];  /* its `offset` in character units */
    uint32_t label_argb;     /* its `tc` colour (0: black) */
    bool label_noenhanced;   /* the label's `noenhanced` */
} pv_frame_axis;

typedef enum pv_key_sample_kind {
    PV_KS_NONE = 0,          /* title only */
    PV_KS_POINT,             /* one point marker (points, dots, voxel points) */
    PV_KS_LINE,              /* a line of the sample length */
    PV_KS_LINEPOINT,         /* that line with a point marker in its middle (linespoints) */
    PV_KS_BOX                /* a filled box (pm3d, isosurface) */
} pv_key_sample_kind;

typedef struct pv_key_entry {
    const char *title;       /* borrowed; NULL/"" entries are skipped (notitle) */
    pv_key_sample_kind sample;
    int pt;                  /* point type, gnuplot numbering: 0 dot, 1 plus, 2 cross,
                                3 star, 4 box, 5 filled box, 6 circle, 7 filled circle,
                                8/9 triangle, 10/11 down triangle, 12/13 diamond,
                                14/15 pentagon (open/filled); negative: no marker */
    double ps;               /* point size multiplier (times pv_frame_spec.pointsize) */
    double lw;               /* line width */
    uint32_t argb;           /* 0xAARRGGBB, AA = transparency as in gnuplot (0 opaque) */
    bool box_border;         /* PV_KS_BOX: outline the box (isosurface: yes, in its own
                                colour; boxes with a fill border: yes, border colour) */
    uint32_t border_argb;    /* the outline's colour */
    bool gradient;           /* `lc palette` data: gnuplot draws the line sample in up to
                                24 segments and the point sample as a row of points,
                                coloured from gray_from to gray_to (pv_frame_spec.pal) */
    double gray_from, gray_to;
    bool behind;             /* drawn behind the data: in a map, gnuplot draws an entry
                                just before its plot, so a pm3d surface from it on covers
                                it */
    bool noenhanced;         /* the plot's (or the key's) `noenhanced` */
    bool errorbar;           /* error bars: gnuplot's sample line with a cap at each end
                                (half a tic up and down) before the point */
} pv_key_entry;

typedef enum pv_key_hpos { PV_KEY_RIGHT = 0, PV_KEY_LEFT, PV_KEY_HCENTER } pv_key_hpos;
typedef enum pv_key_vpos { PV_KEY_TOP = 0, PV_KEY_BOTTOM, PV_KEY_VCENTER } pv_key_vpos;

/* `set label`: text at a position, in the back or front layer (gnuplot's layers: labels
 * are not depth-sorted with the data). */
typedef struct pv_frame_label {
    const char *text;        /* borrowed; may hold '\n' */
    bool screen;             /* at[0], at[1] are terminal units (screen / character
                                coordinates); else at[] is a world point, projected */
    double at[3];
    int just;                /* 0 left, 1 centre, 2 right */
    double angle;            /* degrees counter-clockwise */
    uint32_t argb;           /* text colour */
    bool front;              /* front layer (else back) */
    int pt;                  /* a point marker at the position (gnuplot numbering), or -1 */
    double ps;               /* its size multiplier (times pv_frame_spec.pointsize) */
    uint32_t point_argb;
    double point_lw;
    double offset[2];        /* `offset` in character units */
    bool noenhanced;         /* `noenhanced`: printed as written */
} pv_frame_label;

/* `set arrow`: a shaft between two ends with gnuplot's heads (term.c do_arrow). */
typedef struct pv_frame_arrow {
    bool screen[2];          /* end k: at[k][0..1] in terminal units; else a world point */
    double at[2][3];
    int heads;               /* bit 1: a head at the end, bit 2: at the start */
    int fill;                /* 0 open V, 1 filled and outlined, 2 outlined, 3 filled */
    double head_len;         /* `size` length (<= 0: gnuplot's default head) */
    int head_sys;            /* its units: 0 x axis, 1 graph, 2 screen, 3 character */
    double head_angle, head_back; /* degrees */
    uint32_t argb;           /* 0x00RRGGBB */
    double lw;
    bool front;              /* front layer, else back (under the data) */
} pv_frame_arrow;

/* `set object rectangle` in screen coordinates: a filled and/or outlined box in gnuplot's
 * layer `behind` (under everything), `back` or `front`. */
typedef struct pv_frame_rect {
    int layer;               /* -1 behind, 0 back, 1 front */
    double x0, y0, x1, y1;   /* corners, terminal units */
    int nv;                  /* > 0: instead a polygon of nv vertices vx, vy (terminal
                                units, borrowed): circles, ellipses, polygons */
    const double *vx, *vy;
    bool closed;             /* the polygon's outline closes (an arc without its wedge
                                does not) */
    bool twice;              /* the outline is stroked twice: gnuplot draws an unfilled
                                circle, ellipse or polygon as its outline, then retraces
                                the border (measured: a darker antialiased line) */
    bool fill;
    uint32_t fill_argb;      /* 0xAARRGGBB, AA = transparency */
    bool border;
    uint32_t border_rgb;
    double lw;
} pv_frame_rect;

typedef struct pv_frame_spec {
    int border;              /* `set border` bits (default 31), 0 = none */
    bool border_back;        /* `set border back|behind` (map: the box under the data) */
    uint32_t border_rgb;     /* 0x00RRGGBB, default black */
    double border_lw;        /* default 1 */
    pv_frame_axis axis[4];   /* x, y, z, cb (PV_FAX_*) */
    double pole_zmin[2][2];  /* gnuplot's corner poles: the lowest / highest z of the
                                surfaces' mesh corners at each xy corner of the box,
                                [x at its max][y at its max]; +inf / -inf: none */
    double pole_zmax[2][2];
    struct {                 /* `set xzeroaxis` ...: a line through 0 along x, y, z */
        bool on;
        uint32_t rgb;        /* 0x00RRGGBB */
        double lw;
        bool dotted;         /* gnuplot's axis linetype (lt 0, the default) */
    } zeroaxis[3];
    struct {                 /* `set grid`: lines at the major tics of x, y (across the
                                base plane) and z (along the back walls) */
        bool on[3];
        uint32_t rgb;        /* 0x00RRGGBB */
        double lw;
        bool dotted;         /* gnuplot's axis linetype (lt 0, the default) */
        int layer;           /* -1 with the tics, 0 back, 1 front */
    } grid;
    const char *title;       /* `set title` or NULL */
    double title_offset[2];  /* character units */
    uint32_t title_argb;     /* the title's `tc` colour (0: black) */
    bool title_noenhanced;   /* the title's `noenhanced` */
    /* key */
    bool key_on;
    pv_key_hpos key_hpos;
    pv_key_vpos key_vpos;
    bool key_outside;        /* `outside`: the key sits in the right (or left) margin */
    bool key_box;            /* draw a box around the key */
    bool key_left_just;      /* `Left` text justification (default `Right`) */
    bool key_reverse;        /* sample left of the text */
    double key_samplen;      /* sample length in characters, default 4 */
    double key_spacing;      /* default 1 */
    int key_margin;          /* an outside key's margin in a 2D plot: 0 none, 1 left,
                                2 right, 3 top, 4 bottom (PV_KEYMARGIN_* of settings.h) */
    bool key_horizontal;     /* 2D: entries fill rows across (`horizontal`, `below`) */
    int key_maxcols, key_maxrows; /* 2D: 0 auto */
    const pv_key_entry *key; /* nkey entries, borrowed */
    int nkey;
    double pointsize;        /* `set pointsize`, default 1 */
    /* colour box */
    bool colorbox;           /* draw it (the caller decides: gnuplot draws it when a plot
                                uses the palette and `set colorbox` is on) */
    bool colorbox_border;    /* default true */
    bool colorbox_user;      /* `set colorbox user origin ox,oy size sx,sy` (screen) */
    double cb_origin[2], cb_size[2]; /* with colorbox_user, fractions of the canvas */
    const pv_frame_rect *rects; /* nrects, borrowed */
    int nrects;
    const pv_frame_arrow *arrows; /* narrows, borrowed */
    int narrows;
    const pv_frame_label *labels; /* nlabels, borrowed */
    int nlabels;
    double cbox_opacity;     /* the colour box bands' opacity (gnuplot draws them with
                                `set style fill`: `transparent solid A` gives A), 1 opaque */
    double cbox_density;     /* `solid D` without transparent: the colours are mixed
                                toward white by 1 - D, as pngcairo does; 1 = as they are */
    bool enhanced;           /* the terminal's enhanced text (2D: an x label with `^` or
                                `_` takes an extra line, as gnuplot reserves) */
    const pv_pal *pal;       /* borrowed, needed when colorbox */
    double cbmin, cbmax;     /* colour range (for the cb tics) */
} pv_frame_spec;

/* A fresh spec with gnuplot's defaults (border 31, tics on, mirror on x/y/cb, key on at
 * top right inside, samplen 4, colour box off until the caller switches it on). */
void pv_frame_spec_default(pv_frame_spec *s);

/* The layout of a 2D `plot` (gnuplot's boundary(), automatic margins) for the spec's
 * tic labels, axis labels, title, key and colour box on the terminal t. */
void pv_plot2d_layout(const pv_frame_spec *s, const pv_termdim *t, pv_plot2d_box *b);

/* Lines gnuplot reserves for `set title` in a 3D plot (pv_view3d_params.title_lines):
 * 0 without a title, else 1 + the number of backslashes in the text (gnuplot 5.4 counts
 * '\\' characters, so a title with a real newline from "a\nb" still reserves one line;
 * measured). */
int pv_frame_title_lines(const char *title);

/* Terminal units an outside key takes from the plot width (0 if the key is inside or
 * off). Put it in pv_view3d_params.key_reserve_right (key_hpos RIGHT/HCENTER) or
 * key_reserve_left (LEFT) before pv_view3d_setup. */
int pv_frame_key_reserve(const pv_frame_spec *s, const pv_termdim *t);

typedef enum pv_frame_layer {
    PV_FRAME_BACK = 0,       /* behind the data: back border edges, tics (for rot_x <= 90) */
    PV_FRAME_FRONT = 1       /* over the data: front edges, axis labels, key, colour box,
                                title */
} pv_frame_layer;

typedef enum pv_fitem_kind {
    PV_FI_PATH = 0,          /* polyline through x[0..n-1], y[..] (closed if `closed`) */
    PV_FI_TEXT,              /* text centred vertically on (x[0], y[0]) */
    PV_FI_POINT,             /* point marker `pt` of size `ps` at (x[0], y[0]) */
    PV_FI_BOX,               /* filled rectangle from (x[0], y[0]) to (x[1], y[1]) */
    PV_FI_FILL,              /* filled polygon x[0..n-1], y[..] (arrow heads) */
    PV_FI_GRADIENT           /* colour box: ncolors bands from (x[0],y[0]) to (x[1],y[1]) */
} pv_fitem_kind;

typedef enum pv_just { PV_JUST_LEFT = 0, PV_JUST_CENTRE, PV_JUST_RIGHT } pv_just;

typedef struct pv_fitem {
    pv_fitem_kind kind;
    pv_frame_layer layer;
    int n;                   /* vertices used in x[], y[] (or vx, vy) */
    int x[5], y[5];          /* terminal units (gnuplot's integer coordinates) */
    int *vx, *vy;            /* PV_FI_PATH, PV_FI_FILL of more than 5 vertices: owned
                                (vy in the same block), x[] and y[] unused */
    bool closed;             /* PV_FI_PATH: end with a segment back to the first vertex
                                (gnuplot's closepath: no join at the first vertex) */
    bool chain;              /* PV_FI_PATH: drawn without new line properties, so a start
                                at the current point continues the previous polyline */
    uint32_t argb;           /* 0xAARRGGBB, AA = transparency (0 opaque) */
    double lw;               /* line width (1 = one pixel) */
    double dash;             /* PV_FI_PATH: 0 solid; > 0 gnuplot's axis linetype (lt 0),
                                dots of 0.4 px every 4.4 px times this scale */
    char *text;              /* PV_FI_TEXT: owned copy */
    pv_just just;            /* PV_FI_TEXT: horizontal justification */
    double angle;            /* PV_FI_TEXT: degrees counter-clockwise */
    bool enhanced;           /* PV_FI_TEXT: gnuplot's enhanced-text markup (x^2, E_0,
                                {/Symbol a}, ...) is typeset, as pngcairo does by default */
    int pt;                  /* PV_FI_POINT */
    double ps;               /* PV_FI_POINT: size multiplier */
    double *colors;          /* PV_FI_GRADIENT: ncolors bands, r g b in [0,1] each (owned),
                                drawn with the transparency in argb's AA */
    int *bands;              /* PV_FI_GRADIENT: 2 per band, its y from / to (owned); x from
                                x[0] to x[1]; the box is y[0]..y[1] */
    int ncolors;
} pv_fitem;

typedef struct pv_frame {
    pv_termdim term;
    pv_fitem *items;         /* in drawing order */
    int n, cap;
    bool failed;             /* an allocation failed while building (items incomplete) */
    bool enhanced;           /* texts added now are enhanced (the terminal's mode, off
                                while a `noenhanced` text is laid out) */
} pv_frame;

/* Build the frame of `s` for the view `v` into f (which must be zero-initialised or
 * finished). Returns false if memory ran out (f is then finished and empty). The spec's
 * borrowed pointers are only read during the call. */
bool pv_frame_build(pv_frame *f, const pv_frame_spec *s, const pv_view3d *v);

/* Free the items. f can be reused (or zero-initialised) afterwards. */
void pv_frame_fini(pv_frame *f);

/* =====================================================================================
 * 6. Lighting (`set pm3d lighting`, GP-7.6), a shading step for filled polygons
 * ===================================================================================== */

typedef struct pv_light {
    double primary, specular, spec2; /* clamped to [0,1] */
    double ambient, phong;           /* gnuplot's fixed 1 and 5 */
    double l[3];                     /* unit light vector (fixed light angles 45, -45) */
    double psi, phi;                 /* -rot_z, -rot_x in radians */
    double w[3];                     /* normal component weights (sy*sz, sx*sz, sx*sy) */
} pv_light;

/* The light of `set pm3d lighting primary p specular s spec2 s2` for the view v. */
void pv_light_setup(pv_light *L, const pv_view3d *v, double primary, double specular,
                    double spec2);

/* The lit colour of a polygon whose first vertices are v[0..nv-1]: in normalised view
 * coordinates (pv_view_map) for isosurface facets, in user coordinates for ordinary pm3d
 * surfaces, as gnuplot computes them (the normal of
 * the first triangle, weighted and rotated back to the fixed light; if that triangle is
 * degenerate, vertices 0, 1, 3; if that is degenerate too, the colour is returned
 * unlit). rgb is 0..255 per channel, the result truncated to 8 bits as gnuplot does;
 * alpha is kept. */
void pv_light_shade(const pv_light *L, const double (*v)[3], int nv, const uint8_t rgb[3],
                    uint8_t out[3]);

#endif /* PVOX_VIEW_H */
