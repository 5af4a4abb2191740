/*
 * pvox settings: everything `set`/`unset`/`show` manage, as plain data for the renderer.
 *
 * The settings module parses the arguments of `set NAME ...`, `unset NAME ...` and
 * `show NAME ...` with a token cursor. Like every command handler it runs in two modes:
 * exec = false only checks the syntax (the whole-script check before running; nothing is
 * evaluated or changed), exec = true evaluates and applies.
 *
 * Names gnuplot 5.4 knows but pvox does not draw are parsed (their arguments skipped) and
 * ignored with one warning per name and run (`unset` of such a name is silent); a name
 * gnuplot does not know is an error naming it (DEC-11). Option names accept
 * gnuplot's abbreviations (`set xr`, `set out`, `set t`), measured on gnuplot 5.4.4. The interpreter handles `set print`, `set table`, `set vgrid` and
 * `set vxrange/vyrange/vzrange` itself before calling these.
 *
 * Reading the struct: every field below is plain data with gnuplot 5.4's fresh-start value
 * after pv_settings_create (pvox's batch defaults where DEC-10 says so). Colours are
 * pv_color values; an `argb` is 0xAARRGGBB with gnuplot's convention that AA is the
 * TRANSPARENCY (0 = opaque, 255 = invisible). Angles are in degrees unless noted.
 * The renderer only reads; it never writes these fields.
 */
#ifndef PVOX_SETTINGS_H
#define PVOX_SETTINGS_H

#include "pvox/lang.h"
#include "pvox/view.h"

typedef struct pv_settings pv_settings; /* the struct is defined below: plain fields */

/* ---- colours ---------------------------------------------------------------------- */

typedef enum pv_color_kind {
    PV_COLOR_DEFAULT = 0,  /* not given: the linetype's / element's own colour */
    PV_COLOR_RGB,          /* `lc rgb "red"` / "#RRGGBB" / "#AARRGGBB" / 0xRRGGBB: argb */
    PV_COLOR_LT,           /* `lc N` / `lt N`: colour of linetype `lt` */
    PV_COLOR_PALETTE_Z,    /* `lc palette` / `lc palette z`: palette(cb of the z value) */
    PV_COLOR_PALETTE_CB,   /* `lc palette cb V`: palette(cb = value) */
    PV_COLOR_PALETTE_FRAC, /* `lc palette frac F`: palette(gray = value) */
    PV_COLOR_VARIABLE,     /* `lc variable`: linetype from the last using column */
    PV_COLOR_RGB_VARIABLE, /* `lc rgb variable`: 0xAARRGGBB from the last using column */
    PV_COLOR_BLACK,        /* `lc black` (gnuplot's lt -1) */
    PV_COLOR_BGND          /* `lc bgnd`: the background colour */
} pv_color_kind;

typedef struct pv_color {
    pv_color_kind kind;
    uint32_t argb;   /* PV_COLOR_RGB: 0xAARRGGBB, AA = transparency (0 opaque) */
    int lt;          /* PV_COLOR_LT: linetype number (1-based) */
    double value;    /* PV_COLOR_PALETTE_CB: cb value; PV_COLOR_PALETTE_FRAC: gray 0..1 */
} pv_color;

/* gnuplot's colour-name table (`show colornames`): exact name first, else the first table
 * name that starts the given text (gnuplot's rule: "redd" is red). Case-sensitive.
 * Returns false if no name matches. *rgb is 0x00RRGGBB. Thread-safe (static table). */
bool pv_color_lookup(const char *name, uint32_t *rgb);
/* The table name of an exact 0xRRGGBB value (first in table order) or NULL. */
const char *pv_color_name(uint32_t rgb);
/* Parse a colour string as gnuplot does: a name, "#RRGGBB", "#AARRGGBB", "0xRRGGBB" or
 * "0xAARRGGBB". Returns false if it is none of those. */
bool pv_color_parse_string(const char *text, uint32_t *argb);
/* Number of names in the table and the k-th one (for `show colornames`). */
int pv_color_count(void);
const char *pv_color_at(int k, uint32_t *rgb);

/* ---- line/point properties (`set style line`, `set linetype`, `lc/lw/pt/ps/dt`) ---- */

typedef struct pv_lp {
    bool defined;    /* this style / linetype slot was defined by the script */
    int lt;          /* `lt N` given: linetype number (0 = not given); `lt -1` black */
    pv_color lc;     /* line colour (PV_COLOR_DEFAULT if not given) */
    double lw;       /* line width, default 1 */
    int pt;          /* point type; -2 not given, -3 `pt variable`, -4 a character `pt "c"` */
    double ps;       /* point size multiplier; -1 not given ("default"), -2 `ps variable` */
    int dt;          /* dash type number, 0 = solid/not given (stored, not drawn) */
    int pi;          /* pointinterval, 0 = not given */
} pv_lp;

/* ---- axes and ranges ---------------------------------------------------------------- */

typedef enum pv_axis {
    PV_AX_X = 0, PV_AX_Y, PV_AX_Z, PV_AX_CB, /* plot axes */
    PV_AX_U, PV_AX_V, PV_AX_T,               /* dummy-variable ranges (`"++"`, parametric) */
    PV_NAXES
} pv_axis;

typedef struct pv_range {
    double min, max;         /* explicit limits (only meaningful where auto_* is false);
                                stored as written: [1:0] keeps min = 1, max = 0 */
    bool auto_min, auto_max; /* the end is autoscaled (`*` or empty, `set autoscale`) */
    bool fix_min, fix_max;   /* `set autoscale xfix{min,max}`: do not extend to tics */
    bool reverse;            /* `reverse` keyword (stored) */
    bool writeback;          /* `writeback` keyword (stored) */
    bool user_set;           /* a `set Xrange` / `set autoscale` touched it since start or
                                reset (DEC-4 asks whether u/v were set) */
    bool log;                /* `set logscale` (stored; pvox draws linear axes) */
    double log_base;         /* its base, default 10 */
} pv_range;

/* One tic of a `set xtics ("label" pos {level}, ...)` list. */
typedef struct pv_tic_mark {
    double pos;
    char *label;             /* owned; NULL: formatted as the automatic tics are; with a
                                '%' it is the format of the position (gnuplot's gprintf) */
    int level;               /* 0 major, 1 minor (no label) */
} pv_tic_mark;

typedef struct pv_tics {
    bool on;                 /* tics drawn on this axis */
    bool mirror;             /* mirrored on the opposite border */
    bool on_axis;            /* `axis`: tics on the zero axis instead of the border */
    bool outward;            /* `out` (default `in`) */
    bool has_incr;           /* `set xtics {start,} incr {,end}` given */
    double start, incr, end; /* with has_incr; start/end NaN when not given */
    char *format;            /* `set format x` / `set xtics format` ("% h" default) */
    double scale_major;      /* `set tics scale` (default 1) */
    double scale_minor;      /* default 0.5 */
    bool minor;              /* `set mxtics` (stored) */
    double rotate;           /* label rotation in degrees (0 = not rotated) */
    int just;                /* `left|center|right` of the labels: 0, 1, 2; -1 automatic */
    char *font;              /* tic label font, NULL = terminal's */
    pv_tic_mark *user;       /* the tics of `set xtics (...)` lists, owned */
    int nuser;
    bool user_only;          /* a list given without `add`: no automatic tics */
} pv_tics;

/* Free a tic list (pv_tics.user) and empty it. */
void pv_tics_user_free(pv_tics *t);

/* Coordinate systems of a position (`first`, `graph`, `screen` ...). */
typedef enum pv_coord_sys {
    PV_SYS_FIRST = 0, PV_SYS_SECOND, PV_SYS_GRAPH, PV_SYS_SCREEN, PV_SYS_CHARACTER,
    PV_SYS_POLAR             /* `polar theta, r`: x = r cos(theta), y = r sin(theta) */
} pv_coord_sys;

/* `set label`: one text label (tag order; gnuplot numbers new labels from the lowest
 * free tag). */
typedef struct pv_label {
    int tag;
    char *text;              /* owned, may be "" */
    double at[3];            /* `at` position (default 0,0,0 first) */
    pv_coord_sys sys[3];     /* a coordinate's system: the previous one's if not given */
    int just;                /* 0 left (default), 1 centre, 2 right */
    double rotate;           /* degrees counter-clockwise, 0 none */
    char *font;              /* "name,size" or NULL (stored; drawn in the terminal font) */
    pv_color tc;             /* text colour, default black */
    bool front;              /* `front` (default `back`) */
    bool point;              /* `point`: a marker at the position */
    pv_lp point_lp;          /* its pt / ps / lc (gnuplot: pt 1, black) */
    double offset[3];        /* `offset` in character units */
    bool enhanced;           /* default true (stored) */
} pv_label;

/* A text element: title, axis labels. */
typedef struct pv_text {
    char *text;              /* NULL or "" = none */
    double offset[3];        /* `offset x,y{,z}` in character units (coordinate systems
                                other than character are stored as numbers) */
    char *font;              /* "name,size" or NULL */
    pv_color tc;             /* `tc`/`textcolor`: fresh PV_COLOR_BLACK (gnuplot's lt -1);
                                PV_COLOR_DEFAULT after `tc default` (drawn black too) */
    double rotate;           /* `rotate by A` degrees; NaN = `rotate parallel`; a bare
                                `rotate` (and the y/cb labels' default) is -270 as in
                                gnuplot, the same direction as 90 */
    bool enhanced;           /* default true */
} pv_text;

/* ---- palette ------------------------------------------------------------------------ */

typedef enum pv_palette_kind {
    PV_PAL_RGBFORMULAE = 0,  /* `rgbformulae r,g,b` (default 7,5,15) */
    PV_PAL_DEFINED,          /* `defined (...)`: gradient below */
    PV_PAL_CUBEHELIX,        /* `cubehelix start s cycles c saturation s` */
    PV_PAL_FUNCTIONS         /* reserved: `set palette functions ...` is parsed and
                                leaves the palette unchanged (one warning) */
} pv_palette_kind;

/* A gradient point of `set palette defined`: the renderer's own type (view.h), so the
 * stored gradient is handed to it as is. */
typedef pv_pal_point pv_grad_point;

typedef struct pv_palette {
    pv_palette_kind kind;
    bool gray;               /* `set palette gray`: gray ramp gray^(1/gamma) for r=g=b,
                                overriding kind (`color` clears it) */
    int formulae[3];         /* rgbformulae numbers (signed, -36..36), default 7,5,15 */
    pv_grad_point *grad;     /* PV_PAL_DEFINED: ngrad points (owned), else NULL */
    int ngrad;
    size_t grad_cap;         /* points allocated (tracked: pv_alloc on the settings' ctx) */
    bool negative;           /* `negative`: gray -> 1 - gray */
    double gamma;            /* default 1.5 (only used by `gray`) */
    int maxcolors;           /* 0 = continuous */
    int model;               /* 0 RGB, 1 HSV, 2 CMY, 3 XYZ (stored; pvox draws RGB only) */
    double ch_start, ch_cycles, ch_saturation; /* cubehelix, default 0.5, -1.5, 1 */
} pv_palette;

/* ---- everything else ---------------------------------------------------------------- */

typedef enum pv_term_kind { PV_TERM_PNGCAIRO = 0, PV_TERM_PNG } pv_term_kind;

typedef enum pv_fill_kind { PV_FILL_EMPTY = 0, PV_FILL_SOLID, PV_FILL_PATTERN } pv_fill_kind;

typedef enum pv_key_pos { PV_KEYPOS_LEFT, PV_KEYPOS_RIGHT, PV_KEYPOS_CENTER, PV_KEYPOS_TOP, PV_KEYPOS_BOTTOM }
    pv_key_pos;

typedef enum pv_border_layer { PV_LAYER_FRONT = 0, PV_LAYER_BACK, PV_LAYER_BEHIND } pv_border_layer;

/* Plot styles for `set style data|function` (and `with` in plot commands). */
typedef enum pv_plot_style {
    PV_STYLE_LINES = 0, PV_STYLE_POINTS, PV_STYLE_LINESPOINTS, PV_STYLE_DOTS,
    PV_STYLE_IMPULSES, PV_STYLE_PM3D, PV_STYLE_SURFACE, PV_STYLE_ISOSURFACE,
    PV_STYLE_VECTORS, PV_STYLE_LABELS,
    PV_STYLE_IMAGE, PV_STYLE_RGBIMAGE, PV_STYLE_RGBALPHA, /* pixels from the data's grid */
    PV_STYLE_POLYGONS,       /* each data block a filled polygon */
    PV_STYLE_BOXES,          /* 2D bars from y = 0 */
    PV_STYLE_XERRORBARS, PV_STYLE_YERRORBARS, PV_STYLE_XYERRORBARS, /* 2D points with bars */
    PV_STYLE_XERRORLINES, PV_STYLE_YERRORLINES, PV_STYLE_XYERRORLINES, /* and lines */
    PV_STYLE_OTHER   /* a gnuplot style pvox does not draw (boxes, image, ...) */
} pv_plot_style;

typedef enum pv_c2c {
    PV_C2C_MEAN = 0, PV_C2C_GEOMEAN, PV_C2C_HARMEAN, PV_C2C_RMS, PV_C2C_MEDIAN,
    PV_C2C_MIN, PV_C2C_MAX, PV_C2C_C1, PV_C2C_C2, PV_C2C_C3, PV_C2C_C4
} pv_c2c;

/* `set term png|pngcairo filter ...` (a pvox extension). The numbers are those of png.h's
 * pv_png_filter (PV_PNG_FILTER_*): settings must not include png.h, so the two enums are
 * kept equal by hand and exec passes the number to pv_png_write unchanged. */
typedef enum pv_png_filter_choice {
    PV_PNGF_DEFAULT = 0, PV_PNGF_NONE, PV_PNGF_SUB, PV_PNGF_UP, PV_PNGF_AVERAGE, PV_PNGF_PAETH,
    PV_PNGF_ADAPTIVE         /* libpng chooses among all five, row by row */
} pv_png_filter_choice;

/* set terminal (DEC-10: only png and pngcairo; default pngcairo size 640,480) */
typedef struct pv_term {
    pv_term_kind kind;
    int width, height;       /* pixels */
    char *font;              /* "name,size" as given, NULL = default */
    char *font_name;         /* the part before the comma, NULL = default */
    double font_size;        /* points, 0 = default (12) */
    double fontscale;        /* default 1 */
    uint32_t background;     /* 0x00RRGGBB, default white */
    bool transparent;        /* background transparent */
    bool enhanced;           /* enhanced text (default on) */
    bool crop;               /* png `crop` (stored) */
    bool truecolor;          /* png `truecolor` (stored) */
    double linewidth;        /* `linewidth`/`lw` terminal option, default 1 */
    int png_level;           /* `compression N` (pvox extension): zlib level 0..9,
                                -1 = pvox's default */
    int png_filter;          /* `filter ...` (pvox extension): PV_PNGF_*, 0 = default */
} pv_term;

/* set view rot_x, rot_z {, scale {, zscale}} | map | equal | azimuth */
typedef struct pv_view {
    double rot_x, rot_z;     /* degrees, default 60, 30; both in [0,360] */
    double scale, zscale;    /* default 1, 1; > 0 */
    double azimuth;          /* degrees, default 0 */
    bool map;                /* `set view map`: drawn from above (rot_x, rot_z are kept
                                as gnuplot keeps them; scale is the map's scale) */
    double surface_scale;    /* with map: the scale `set view ,,` returns to */
    int equal;               /* 0 independent, 1 `equal xy`, 2 `equal xyz` */
    int projection;          /* `set view projection xz|yz`: PV_VIEW_PROJ_*; rot_x, rot_z,
                                scale and azimuth then hold the values gnuplot draws with
                                (xz: 270,0; yz: 90,90; scale 1; azimuth -90) */
} pv_view;

enum { PV_VIEW_PROJ_NONE = 0, PV_VIEW_PROJ_XZ, PV_VIEW_PROJ_YZ };

/* set key */
typedef struct pv_key {
    bool on;                 /* default true */
    bool inside;             /* inside (default) / outside */
    pv_key_pos hpos;         /* LEFT / RIGHT (default) / CENTER */
    pv_key_pos vpos;         /* TOP (default) / BOTTOM / CENTER */
    bool vertical;           /* default true */
    bool box;                /* default false */
    bool opaque;             /* default false */
    bool reverse, invert;    /* default false */
    bool left_justify;       /* `Left` (default `Right`) */
    char *title;             /* key title or NULL */
    double samplen;          /* default 4 (characters) */
    double spacing;          /* default 1 */
    /* stored, not drawn: */
    int margin;              /* 0 none, else the margin the key sits in: PV_KEYMARGIN_* */
    bool fixed;              /* `fixed` (3D key not moved with the view) */
    bool user_at;            /* `at x,y` given: at[] (coordinate systems not kept) */
    double at[3];
    double width, height;    /* `width`/`height` increments (characters), default 0 */
    int maxcols, maxrows;    /* 0 = auto */
    bool enhanced;           /* default true */
    bool autotitle;          /* default true; `noautotitle` false */
    bool autotitle_columnhead; /* `autotitle columnhead{er}` */
    pv_color tc;             /* `textcolor` (PV_COLOR_DEFAULT if not given) */
    pv_color opaque_fc;      /* `opaque fc ...` (PV_COLOR_DEFAULT = background) */
    pv_lp box_lp;            /* `box {ls|lt|lw|lc|dt ...}` of the key box */
    char *font;              /* `font "name,size"` or NULL */
} pv_key;

enum { PV_KEYMARGIN_NONE = 0, PV_KEYMARGIN_L, PV_KEYMARGIN_R, PV_KEYMARGIN_T, PV_KEYMARGIN_B };

/* set colorbox */
typedef struct pv_colorbox {
    bool on;                 /* default true */
    bool vertical;           /* default true */
    bool user;               /* `user origin .. size ..` given */
    double origin[2], size[2]; /* with user, screen coordinates */
    bool border;             /* default true */
    bool front;              /* default true */
} pv_colorbox;

/* set style fill */
typedef struct pv_fill {
    pv_fill_kind kind;       /* default empty */
    double density;          /* solid density = opacity 0..1, default 1 */
    bool transparent;        /* `transparent solid A` */
    int pattern;             /* pattern number */
    bool border;             /* default true */
    pv_color border_color;   /* `border lc ...` / `border N` (PV_COLOR_LT) / default */
} pv_fill;

/* `set object N rectangle`: what pvox draws of gnuplot's objects (in 3D plots gnuplot
 * draws rectangles given in screen coordinates only). */
typedef enum pv_object_layer {
    PV_OBJ_BEHIND = -1, PV_OBJ_BACK = 0, PV_OBJ_FRONT = 1, PV_OBJ_DEPTHORDER = 2
} pv_object_layer;

typedef enum pv_object_kind {
    PV_OBJ_RECT = 0, PV_OBJ_CIRCLE, PV_OBJ_ELLIPSE, PV_OBJ_POLYGON
} pv_object_kind;

/* Vertices a `set object polygon` keeps (more is an error naming this limit). */
enum { PV_OBJ_MAXV = 128 };

typedef struct pv_object {
    int tag;
    pv_object_kind kind;
    bool centred;            /* `center|at P size W,H` (else `from P to Q`) */
    double p1[3], p2[3];     /* from / to, or centre / size (circle: p2[0] the radius) */
    pv_coord_sys sys1[3], sys2[3];
    double arc[2];           /* circle `arc [a:b]` degrees, default [0:360] */
    bool wedge;              /* an arc drawn as a pie slice (gnuplot's default) */
    double angle;            /* ellipse `angle` degrees */
    int units;               /* ellipse `units xy` (0, default), `xx` (1), `yy` (2) */
    int nv;                  /* polygon: `from P to P ...` vertices */
    double v[PV_OBJ_MAXV][3];
    pv_coord_sys vsys[PV_OBJ_MAXV][3];
    bool vrel[PV_OBJ_MAXV];  /* `rto`: relative to the previous vertex */
    pv_object_layer layer;   /* default back */
    bool fill_given;         /* `fs ...` given, else gnuplot's rectangle style */
    pv_fill fill;            /* default solid 1, border black */
    pv_color fc;             /* fill colour (default the background) */
    double lw;               /* border width, default 1 */
} pv_object;

/* `set arrow N`: a line between two positions with heads (gnuplot's arrow_def). */
enum { PV_ARROW_NOHEAD = 0, PV_ARROW_HEAD = 1, PV_ARROW_BACKHEAD = 2 }; /* heads: bits */
enum { PV_ARROW_NOFILL = 0, PV_ARROW_FILLED, PV_ARROW_EMPTY, PV_ARROW_NOBORDER };
typedef struct pv_arrow {
    int tag;
    double from[3], to[3];
    pv_coord_sys from_sys[3], to_sys[3];
    bool relative;           /* `rto`: `to` is an offset from `from` */
    bool polar_form;         /* `length`/`angle` given (stored, not drawn) */
    int heads;               /* PV_ARROW_HEAD | PV_ARROW_BACKHEAD bits, default head */
    int fill;                /* PV_ARROW_NOFILL (default) ... */
    bool head_given;         /* `size L,A{,B}` given (else gnuplot's default head) */
    double head_size[3];     /* L, A, B as written */
    pv_coord_sys head_sys[3];/* L's coordinate system */
    double head_angle, head_back; /* degrees (default 15, 90) */
    bool head_fixed;         /* `fixed` (stored) */
    bool front;              /* default back */
    pv_lp lp;                /* lt / lc / lw (default black, 1) */
} pv_arrow;

/* set pm3d */
typedef struct pv_pm3d {
    bool implicit;           /* any `set pm3d` makes it implicit (gnuplot), `explicit` not */
    char at[8];              /* "s" (default) / "b" / "t" / combination, as given */
    bool depthorder;         /* accepted; depth is always resolved (DEC-8) */
    bool depthorder_base;    /* `depthorder base` */
    bool border_on;          /* `border {lc..} {lw..}`: outline each polygon */
    pv_lp border;            /* its line properties */
    bool lighting;           /* `lighting` */
    double primary, specular, spec2; /* defaults 0.5, 0.2, 0; clamped to [0,1] */
    int interp[2];           /* `interpolate n,m`, default 1,1 */
    bool noclipcb;           /* `noclipcb`: quads coloured outside the cb range are skipped */
    pv_c2c corners2color;    /* default mean */
    bool clip_z;             /* `clip z` (default true); false = clip1in/clip4in */
    bool ftriangles;         /* stored */
    int scans;               /* 0 auto, 1 forward, 2 backward, 3 depthorder (stored) */
} pv_pm3d;

/* set jitter */
typedef struct pv_jitter {
    bool on;                 /* default false */
    double spread;           /* default 1 (s <= 0 becomes 1) */
    double overlap;          /* in character units, default 1 (stored) */
    double wrap;             /* 0 = no wrap (stored) */
    int style;               /* 0 swarm, 1 square, 2 vertical (stored) */
} pv_jitter;

/* set datafile */
typedef struct pv_datafile {
    char separator;          /* 0 = whitespace (default), else the character */
    char *missing;           /* missing-value string or NULL */
    char *commentschars;     /* default "#" */
} pv_datafile;

struct pv_settings {
    pv_ctx *ctx;

    pv_term term;            /* set terminal */
    char *output;            /* `set output "file"`; NULL = none (DEC-10 naming) */

    pv_range range[PV_NAXES];/* x, y, z, cb, u, v, t (index = pv_axis) */
    pv_tics tics[4];         /* x, y, z, cb tics (index = pv_axis) */
    bool tics_front;         /* `set tics front` */
    char *format_other[3];   /* `set format x2|y2|r` (stored, shown; NULL = "% h") */

    pv_view view;            /* set view */

    /* set xyplane (= ticslevel) */
    bool xyplane_absolute;   /* true: `at z`, false: `relative r` */
    double xyplane_z;        /* the `at` height */
    int boxwidth_mode;       /* `set boxwidth`: 0 auto (boxes touch), 1 absolute (x
                                units), 2 relative (a fraction of the auto width) */
    double boxwidth;
    double xyplane_rel;      /* the relative value r, default 0.5 */

    /* set border */
    int border;              /* bits (default 31); 0 = `unset border` */
    pv_border_layer border_layer;   /* front (default) / back / behind */
    pv_lp border_lp;         /* lw / lc / lt / dt of the border (lc default black) */

    /* set grid: lines at the tics of the axes chosen, across the base plane (x, y) and
     * the back walls (z) */
    struct {
        bool major[4], minor[4]; /* x y z cb: at the major / minor tics */
        int layer;               /* -1 `layerdefault` (with the tics), 0 `back`, 1 `front` */
        bool vertical;           /* `vertical` (stored, not drawn) */
        bool polar;              /* `polar` (stored, not drawn): also the r axis */
        double polar_angle;      /* its radii every this many radians (default pi/6) */
        pv_lp lp, mlp;           /* major / minor lines; lt 0: gnuplot's axis linetype */
    } grid;

    /* set xzeroaxis / yzeroaxis / zzeroaxis / zeroaxis: a line through 0 along each axis,
     * drawn with gnuplot's axis linetype (black dots) unless lt/lc/lw say otherwise */
    struct {
        bool on;
        pv_lp lp;            /* lt 0 (not given): dotted; other lt: solid in their colour */
    } zeroaxis[3];

    pv_key key;              /* set key */
    pv_text title;           /* set title */
    pv_object *objects;      /* set object: nobjects, ascending tags */
    int nobjects;
    size_t objects_cap;
    pv_arrow *arrows;        /* set arrow: narrows, ascending tags */
    int narrows;
    size_t arrows_cap;
    pv_label *labels;        /* set label: nlabels, ascending tags */
    int nlabels;
    size_t labels_cap;
    pv_text label[4];        /* label[PV_AX_X..PV_AX_CB]: xlabel ylabel zlabel cblabel */
    pv_palette palette;      /* set palette */
    pv_colorbox colorbox;    /* set colorbox */
    pv_fill fill;            /* set style fill */
    pv_plot_style style_data;     /* default points */
    pv_plot_style style_function; /* default lines */
    pv_pm3d pm3d;            /* set pm3d */

    int samples[2];          /* set samples s1{,s2}, default 100,100 */
    int isosamples[2];       /* set isosamples i1{,i2}, default 10,10 */
    bool hidden3d;           /* set hidden3d: line surfaces opaque, "++" sample counts */
    int hidden3d_offset;     /* `offset N` (default 1): each plot takes N + 1 linetypes */
    bool surface;            /* set surface (default true, stored) */
    pv_jitter jitter;        /* set jitter */

    /* set isosurface */
    bool iso_triangles;      /* `triangles` (default mixed) */
    int iso_inside_offset;   /* `insidecolor N` (default 1), 0 = `noinsidecolor` */

    double pointsize;        /* default 1 */
    double pointintervalbox; /* default 1 */

    /* set style line N / set linetype N (index = tag; slot 0 unused; check .defined) */
    pv_lp *linestyle;        /* nlinestyle slots */
    int nlinestyle;
    size_t linestyle_cap;    /* slots allocated (tracked; >= nlinestyle) */
    pv_lp *linetype;         /* user-defined linetypes (kept by `reset`) */
    int nlinetype;
    size_t linetype_cap;     /* slots allocated (tracked; >= nlinetype) */

    pv_datafile datafile;    /* set datafile */
    char dummy[2][32];       /* dummy variable names, default "x", "y" */
    bool angles_degrees;     /* `set angles degrees` (trig is the lang module's job) */
    bool parametric;         /* stored (warned: not drawn) */
    bool polar;              /* stored (warned: not drawn) */
    bool macros;             /* stored; macros are always on in 5.4 */
    bool clip_points;        /* stored */

    unsigned char *warned;   /* internal: warn-once flags of this run (not reset) */
};

pv_settings *pv_settings_create(pv_ctx *ctx);
void pv_settings_destroy(pv_settings *s);
/* `reset`: back to gnuplot's defaults except terminal, output and what `reset` keeps. */
void pv_settings_reset(pv_settings *s);
/* `reset session`: everything back to the fresh-start state. */
void pv_settings_reset_all(pv_settings *s);

/* The cursor is just after `set` / `unset` / `show` (an optional `for [..]` iteration is
 * handled by the caller). Consumes the rest of the statement. */
pv_status pv_settings_set(pv_settings *s, pv_env *env, pv_cursor *c, bool exec);
pv_status pv_settings_unset(pv_settings *s, pv_env *env, pv_cursor *c, bool exec);
/* `show` writes to `out` (the caller passes stderr on rank 0, NULL elsewhere). */
pv_status pv_settings_show(pv_settings *s, pv_env *env, pv_cursor *c, bool exec, FILE *out);

/* ---- helpers for plot commands (exec/plot.c) ---------------------------------------- */

/* Parse a colour spec at the cursor, just AFTER `lc`/`linecolor`/`tc`/`fc`: `rgb "red"`,
 * `rgb 0xRRGGBB`, `rgb variable`, `"red"`, `N`, `palette {z|cb V|frac F}`, `variable`,
 * `black`, `bgnd`. exec = false only compiles. Located errors with gnuplot's wording. */
pv_status pv_settings_parse_color(pv_env *env, pv_cursor *c, bool exec, pv_color *out);
/* Parse a full gnuplot colour spec at the cursor, just AFTER `lc`/`linecolor`/`tc`/
 * `textcolor`/`fc`/`fillcolor`: everything pv_settings_parse_color takes plus `lt N` /
 * `linetype N` (the colour of linetype N when read: PV_COLOR_RGB with `s`, PV_COLOR_LT
 * without; lt -1 black, lt -2 nodraw = fully transparent), `ls N` / `linestyle N` (the
 * colour of line style N in `s`, else of linetype N) and `default` (PV_COLOR_DEFAULT).
 * `s` is only read and may be NULL. exec = false only compiles. */
pv_status pv_settings_parse_colorspec(const pv_settings *s, pv_env *env, pv_cursor *c,
                                      bool exec, pv_color *out);
/* Parse line/point properties (`lt ls lc lw pt ps dt pi` and long forms) until a word that
 * is not one of them; fills only what was given into *lp (linestyles from `s` when `ls N`).
 * Returns PV_OK having consumed nothing if no property is present. */
pv_status pv_settings_parse_lp(pv_settings *s, pv_env *env, pv_cursor *c, bool exec, pv_lp *lp);
/* The effective colour 0x00RRGGBB of linetype `lt` (1-based; user `set linetype` first,
 * then gnuplot's default cycle of 8). lt <= 0 gives black. */
uint32_t pv_settings_lt_rgb(const pv_settings *s, int lt);
/* A fresh pv_lp with "not given" values. */
pv_lp pv_lp_default(void);

#endif /* PVOX_SETTINGS_H */
