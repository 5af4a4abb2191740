/*
 * exec/plot: what the plot command (plot.c), its table output (plot_table.c) and the
 * reading of element data (plot_data.c) share: the state of one plot command.
 */
#ifndef PV_EXEC_PLOT_H
#define PV_EXEC_PLOT_H

#include "exec_int.h"
#include "pvox/scene.h"

/* One curve of `set table` + plot without `with table` (gnuplot's print_table()). */
typedef struct tcurve {
    bool tabulated;   /* false: `with table` (already written) or not tabulated here */
    bool unsupported; /* splot style gnuplot cannot tabulate (pm3d, linespoints...) */
    bool forward;     /* splot blocks in their order (functions; data: the last first) */
    char *title;      /* NULL: no "# Curve title" line */
    char **lines;     /* malloc'd lines; the array is tracked (cap entries) */
    size_t n, cap;
} tcurve;

/* A function element: its scene element and the implicit-pm3d companion that draws it
 * in its own style too (indices into plot_state.re), or the `set table` curve it is
 * tabulated into (index into plot_state.curves); SIZE_MAX: none. */
typedef struct plot_func {
    size_t elem, companion, curve;
} plot_func;

typedef struct plot_state {
    pv_interp *I;
    tcurve *curves;             /* one per element (set table mode), tracked */
    size_t ncurves, capcurves;
    bool is_splot;
    bool needs_render;          /* some element uses a style the renderer would draw */
    int nranges;                /* leading axis ranges parsed */
    bool has_range[2];          /* first two ranges given with both ends (exec) */
    double range[2][2];         /* their values */
    pv_scene_elem *re;          /* splot elements to render (exec), tracked */
    size_t nre, capre;
    int number;                 /* elements seen so far (1-based numbering) */
    int line_num;               /* gnuplot's default linetypes taken so far */
    /* function elements: sampled in a second pass over the command, once the data
     * elements fixed the x/y ranges (as gnuplot does) */
    int pass;                   /* 1: elements and data; 2: functions */
    plot_func *funcs;           /* in command order, tracked */
    size_t nfuncs, capfuncs;
    size_t next_func;           /* pass 2: the next entry of funcs */
    double func_u[2], func_v[2];/* pass 2: the x and y (u and v) sampling ranges */
    int param_part;             /* `set parametric`: parts x, y of the triple seen (0-2) */
    size_t param_expr[2];       /* the token where those parts start */
} plot_state;

/* What reading one element needs: the file's bytes (rank 0 reads, every rank receives),
 * the '+'/'++' sampling and the `set datafile` options. */
typedef struct element_input {
    pv_exec_input src;   /* the data file, "< command" or inline data (datain.c) */
    pv_sampling samp;
    pv_data_opts opts;
    char sep[2];         /* opts.separator points here: do not copy the struct */
} element_input;

/* plot_data.c: open an element's input (pv_exec_input_close(&in->src) when done, also
 * after a failure) and iterate over its
 * points with the voxel() reads of the using specs batched (DEC-1). */
pv_status pv_plot_open_input(pv_interp *I, pv_cursor *c, const plot_state *ps,
                             const pv_data_spec *ds, element_input *in);
pv_status pv_plot_iterate(pv_interp *I, const pv_data_spec *ds, const pv_data_opts *opts,
                          pv_exec_input *src, const pv_sampling *samp, int ndefault,
                          pv_data_event_fn fn, void *ud);
/* Are the element's using expressions pure (pv_code_is_pure, allowing voxel() and
 * palette())? *any_expr: it has one; *calls_ext: one calls voxel() or palette(). */
bool pv_plot_specs_pure(pv_interp *I, const pv_data_spec *ds, bool *any_expr, bool *calls_ext);
/* plot_split.c: pv_plot_iterate for a callback that reads only the values of the points
 * (pt->vals, pt->nvals; pt->row and pt->strs may be NULL) and the block events: with
 * several ranks and pure using expressions, each rank evaluates a share of the rows and
 * the values are shared, so every rank still sees every point, in order. Collective. */
pv_status pv_plot_iterate_values(pv_interp *I, const pv_data_spec *ds,
                                 const pv_data_opts *opts, pv_exec_input *src,
                                 const pv_sampling *samp, int ndefault, pv_data_event_fn fn,
                                 void *ud);

/* plot_func.c: the x and y ranges functions are sampled over, from the settings (with
 * the command's own ranges) and the data elements read so far. */
void pv_plot_function_ranges(pv_interp *I, const plot_state *ps, double u[2], double v[2]);
/* Sample the function code[2] (z) of the dummies over u x v into e (rows x y z, NaN where
 * it is undefined; e->grid_scans set), as gnuplot samples a function surface. With
 * `set parametric`, code[0] and code[1] give x and y (else NULL: x, y are the dummies). */
pv_status pv_plot_sample_function(pv_interp *I, const pv_code *const code[3],
                                  const double u[2], const double v[2], pv_scene_elem *e);

/* plot_table.c: `with table` output of one element, and the print_table() curves of a
 * plot run while `set table` is on (collected per element, written after the command). */
pv_status pv_plot_write_table(pv_interp *I, pv_cursor *c, const plot_state *ps,
                              const pv_data_spec *ds);
/* Append a curve (takes title on success; on failure it stays the caller's). */
pv_status pv_plot_add_curve(plot_state *ps, bool tabulated, char *title);
/* Tabulate the element's points into the last curve. */
pv_status pv_plot_tabulate_curve(pv_interp *I, pv_cursor *c, plot_state *ps,
                                 const pv_data_spec *ds);
pv_status pv_plot_write_curves(pv_interp *I, plot_state *ps);
/* Tabulate the grid scans of a sampled function surface e into curve k (gnuplot prints
 * its isosamples lines along x, in order). */
pv_status pv_plot_tabulate_function(plot_state *ps, size_t k, const pv_scene_elem *e);
void pv_plot_free_curves(plot_state *ps);
/* `set table` + splot of isosurfaces: write the facets of the n isosurface elements e[] to
 * the table destination as a mesh (text, .vtp or .pvtp by its name; plot_mesh.c).
 * Collective. */
pv_status pv_plot_write_mesh(pv_interp *I, pv_cursor *c, size_t off, const pv_scene_elem *e,
                             int n);

#endif
