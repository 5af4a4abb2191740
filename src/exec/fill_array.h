/*
 * exec/fill_array: `vfill` / `vgfill` from a 3D array (a binary brick, an HDF5 dataset).
 *
 * A 3D array is n[0] x n[1] x n[2] elements; element (i, j, k) sits at
 *     x = origin[0] + i*delta[0], y = origin[1] + j*delta[1], z = origin[2] + k*delta[2]
 * and the fill sees it as a row whose columns 1:2:3 are x, y, z and whose columns 4.. are
 * its values (one per field; an HDF5 dataset has one). Each rank reads only the planes
 * (k) its slab needs, a batch of planes at a time.
 *
 * "File order" is the order the array is stored in: element (i, j, k) has the file index
 * f[a] = flip[a] ? n[a]-1-idx[a] : idx[a] on axis a, and its order number is
 *     f[scan[0]] + n[scan[0]] * (f[scan[1]] + n[scan[1]] * f[scan[2]])
 * (scan[0] is the axis that varies fastest in storage). Sources reach each voxel in this
 * order, so grids are bit-identical for any rank and thread count.
 *
 * Readers implement pv_array_src: the binary brick reader is in fill_array.c, the HDF5
 * dataset reader in h5src.c.
 */
#ifndef PV_EXEC_FILL_ARRAY_H
#define PV_EXEC_FILL_ARRAY_H

#include "gridcmd.h"

#include <stdbool.h>
#include <stdint.h>

typedef struct pv_array_src {
    int64_t n[3];       /* elements along x, y, z (each >= 1) */
    double origin[3];   /* coordinates of element (0, 0, 0) */
    double delta[3];    /* spacing along x, y, z (> 0) */
    int nfields;        /* values per element (>= 1; columns 4 .. 3+nfields) */
    int scan[3];        /* storage order: scan[0] the fastest axis (0 x, 1 y, 2 z), scan[2]
                           the slowest; {0, 1, 2}: x fastest, z slowest */
    bool flip[3];       /* axis stored from its last element to its first */
    const char *name;   /* for messages (file name, "file.h5:/dataset") */
    void *ud;           /* the reader's state */
    /* Collective: every rank calls it the same number of times, each with its own range
     * (possibly empty, k0 == k1). Writes the values of the elements with z index in
     * [k0, k1): nfields doubles per element, elements x fastest, then y, then z
     * (out[((k-k0)*n[1] + j)*n[0] + i)*nfields + f]). On failure records a message
     * (pv_err) and returns its status on this rank (PV_EIO for I/O); the caller agrees the
     * status over the ranks. */
    pv_status (*read)(void *ud, int64_t k0, int64_t k1, double *out);
    /* Not collective (may be NULL): release ud. */
    void (*close)(void *ud);
} pv_array_src;

/* The file order number of element (i, j, k) (see above). */
static inline int64_t pv_array_order(const pv_array_src *a, int64_t i, int64_t j, int64_t k)
{
    int64_t idx[3] = {i, j, k}, f[3];
    for (int d = 0; d < 3; d++)
        f[d] = a->flip[d] ? a->n[d] - 1 - idx[d] : idx[d];
    return f[a->scan[0]] + a->n[a->scan[0]] * (f[a->scan[1]] + a->n[a->scan[1]] * f[a->scan[2]]);
}

/* ---- the HDF5 dataset reader (h5src.c) ---------------------------------------------- */

/* True if ds names an HDF5 dataset (the same answer on every rank, no I/O). */
bool pv_h5_array_applies(const pv_data_spec *ds);
/* Collective: open ds's dataset as a 3D array into *out. A failure (missing file or
 * dataset, not 3D, unreadable type) is located at the source (pv_source_error at
 * ds->name_off), agreed over the ranks (the same status everywhere: PV_EIO for I/O,
 * PV_ESCRIPT for a dataset that cannot be a 3D array), and leaves nothing open. */
pv_status pv_h5_array_open(pv_interp *I, pv_cursor *c, const pv_data_spec *ds,
                           pv_array_src *out);

/* ---- the fill (fill_array.c) -------------------------------------------------------- */

/* Run a vfill/vgfill whose source is an open 3D array (collective; `a` is closed before
 * returning, whatever happens). ds gives the using specs (x:y:z:radius:value), value the
 * compiled 5th spec. pv_fill_array_run (fillrun.h) opens binary bricks and HDF5
 * datasets and calls this. */
pv_status pv_fill_array_source(pv_interp *I, pv_cursor *c, pv_grid *g, pv_data_spec *ds,
                               pv_array_src *a, pv_code *value, bool grid_units, size_t off);

#endif
