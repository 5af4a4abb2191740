/*
 * exec/fillrun: one `vfill` / `vgfill` as a session that source readers feed in pieces.
 *
 * The value expression is compiled once (vector VM, or the scalar VM one source at a time
 * when the vector VM cannot take it); each piece is a run of this rank's sources, in file
 * order, with `ncols` column values each and their global file-order numbers, filled into
 * this rank's slab by the grid kernel (pv_grid_fill_local). The end is collective: the
 * ranks agree on the status, a failing value expression is re-evaluated at its earliest
 * source (file order) so every rank reports the scalar evaluator's located error, and
 * gnuplot's "number of points input / voxels modified" lines are printed.
 *
 * Readers:
 *   gridfill.c   rows read on every rank (datablocks, pipes, inline data, '+', '++');
 *   fill_text.c  text files, each rank parsing its own share of the bytes;
 *   fill_array.c 3D arrays (binary bricks, HDF5 datasets), each rank reading its planes.
 */
#ifndef PV_EXEC_FILLRUN_H
#define PV_EXEC_FILLRUN_H

#include "gridcmd.h"

typedef struct pv_fill_run pv_fill_run;

/* Start a fill of g with `value` ($1..$ncols are the source's columns, ncols <=
 * PV_USING_MAX; VoxelDistance and GridDistance its lanes). Not collective. */
pv_status pv_fill_run_begin(pv_interp *I, pv_grid *g, pv_code *value, bool grid_units,
                            int ncols, pv_fill_run **out);

/* Fill n of this rank's sources: cols holds ncols values per source (NaN: absent);
 * order[s] is source s's global file-order number (increasing), or NULL: base + s.
 * flags: PV_FILL_NO_COUNT when another rank counts these sources for "number of points
 * input", PV_FILL_PROGRESS for a one-piece fill of a large grid. Not collective; a
 * failure of the value expression is remembered for pv_fill_run_end, not returned. */
pv_status pv_fill_run_piece(pv_fill_run *r, const pv_fill_source *src, const double *cols,
                            size_t n, const int64_t *order, int64_t base, unsigned flags);

/* Before a piece: lines[s] is source s's $0, the number gnuplot's reader gave its row,
 * which the value expression reads; without it (NULL) $0 is the file-order number. For
 * the next pv_fill_run_piece only. */
void pv_fill_run_lines(pv_fill_run *r, const int64_t *lines);

/* Collective: agree on `st` (a reader's status), check the value expression did not call
 * voxel(), locate a failing lane, print the result lines (ds names the source in the
 * warning for a file with no valid points), and free the session. Returns the agreed
 * status. */
pv_status pv_fill_run_end(pv_fill_run *r, pv_cursor *c, const pv_data_spec *ds, size_t off,
                          pv_status st);

/* Fold counts and a last update made without the kernel into the session (a reader that
 * stores values itself, e.g. a 3D array whose elements are the grid's voxels): acc as
 * pv_grid_fill_local would have left it for this rank, and the seconds that work took
 * (the session's -v line reports them with the kernel's). Not collective. */
void pv_fill_run_account(pv_fill_run *r, const pv_fill_local *acc, double secs);

/* Whether the session compiled the value for the vector VM (for logs and tests). */
bool pv_fill_run_vector(const pv_fill_run *r);

/* gnuplot's brick line for each source in the grid until one whose brick is not empty
 * (rank 0 prints). Returns true once such a source was reached: a reader streaming its
 * sources calls it piece by piece, in file order, until then. */
bool pv_fill_report_bricks(pv_interp *I, const pv_grid *g, const pv_fill_source *src,
                           size_t n, bool grid_units);

/* The readers gridfill.c dispatches to. Each `applies` is the same on every rank. A run
 * reads the sources, feeds a session and ends it (all collective). */
bool pv_fill_text_applies(pv_interp *I, const pv_data_spec *ds);
pv_status pv_fill_text_run(pv_interp *I, pv_cursor *c, pv_grid *g, pv_data_spec *ds,
                           pv_code *value, bool grid_units, size_t off);
bool pv_fill_array_applies(pv_interp *I, const pv_data_spec *ds);
pv_status pv_fill_array_run(pv_interp *I, pv_cursor *c, pv_grid *g, pv_data_spec *ds,
                            pv_code *value, bool grid_units, size_t off);

#endif
