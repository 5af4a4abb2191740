/*
 * exec/render: drawing a `splot` as a PNG (issue 4). plot.c parses the command and
 * collects each element's data into pv_relem records; pv_render_splot turns them into a
 * picture: autoscaling, the frame (view.h), this rank's primitives (scene.h) rasterised
 * into a tile (raster.h), tiles composited in slab order onto rank 0 (composite.h), the
 * frame drawn around them (annotate.h) and the PNG written (png.h).
 */
#ifndef PV_EXEC_RENDER_H
#define PV_EXEC_RENDER_H

#include "exec_int.h"
#include "pvox/grid.h"

/* Style clauses of one plot element, as given (plot.c fills them when running). */
typedef struct pv_rstyle {
    pv_plot_style style;     /* `with` style; PV_STYLE_OTHER for one pvox does not draw */
    bool has_style;          /* `with` given */
    const char *style_name;  /* the style word as written in gnuplot's spelling */
    bool has_above;          /* `above T` */
    double above;
    pv_lp lp;                /* lt / lc / lw / pt / ps / pi (pv_lp_default when absent) */
    bool has_level;          /* `level L` (isosurface) */
    double level;
    bool has_fill;           /* `fs ...` on the element */
    pv_fill fill;
    pv_color fc;             /* `fc` / `fillcolor` */
} pv_rstyle;

typedef enum pv_re_kind {
    PV_RE_VOXELS = 0,        /* splot $grid with points|dots */
    PV_RE_POINTS,            /* data with points|dots */
    PV_RE_PM3D,              /* data with pm3d (a '++' sampled surface or gridded data) */
    PV_RE_SKIPPED            /* parsed, not drawn by this version: `why` says so */
} pv_re_kind;

typedef struct pv_relem {
    pv_re_kind kind;
    int number;              /* 1-based position in the plot command (default lt / pt) */
    pv_rstyle rs;
    char *title;             /* key title (NULL: none) */
    pv_grid *grid;           /* PV_RE_VOXELS */
    /* data: nrows rows of ncols using values (NaN undefined) */
    double *vals;
    int ncols;
    size_t nrows, cap;
    size_t *scan;            /* end (one past the last row) of each scan line / data block */
    size_t nscan, capscan;
    const char *why;         /* PV_RE_SKIPPED: what is not built */
} pv_relem;

void pv_rstyle_init(pv_rstyle *rs);
void pv_relem_fini(pv_relem *e);

/* Render the elements of one splot (every rank, collective). `off` locates errors. */
pv_status pv_render_splot(pv_interp *I, pv_cursor *c, size_t off, pv_relem *e, int n);

#endif
