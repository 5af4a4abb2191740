/*
 * exec/h5src: an HDF5 dataset as a vfill / vgfill source, `vfill "f.h5" dataset "ez"
 * {order "xyz"} using 1:2:3:(0):4` (README "Bringing your data"): the pv_array_src reader
 * of fill_array.h over io/h5_dataset.c.
 *
 * Element (i, j, k) of the dataset's box (i along x, after the order) is the row x, y, z,
 * value: x = origin + i*delta where the file places the axis (VTKHDF, netCDF coordinates,
 * vxrange attributes; pvox/h5.h pv_h5_dset_info) with increasing coordinates, else the
 * element index (origin 0, delta 1). The sources reach the voxels in the order read()
 * delivers them, x fastest, then y, then z, whatever the dataset's storage order (the
 * fill is the same at any rank count either way; a text file of the same elements
 * written in that order fills the same grid bit for bit). read(k0, k1) is the collective
 * plane read of io/h5_dataset.c into doubles.
 */
#include <stdlib.h>
#include <string.h>

#include "fill_array.h"
#include "h5src.h"
#include "pvox/h5.h"

typedef struct h5src {
    pv_ctx *ctx;
    pv_h5_dataset *d;
    char *name;             /* "f.h5:/ez", for messages */
} h5src;

pv_h5_opts pv_h5src_opts(void)
{
    pv_h5_opts opt = {0};
    const char *max_io = getenv("PVOX_H5_MAX_IO");
    opt.max_io_bytes = max_io ? (size_t)strtoull(max_io, NULL, 10) : 0;
    return opt;
}

bool pv_h5_array_applies(const pv_data_spec *ds)
{
    return ds->kind == PV_DS_FILE && ds->has_dataset;
}

static pv_status src_read(void *ud, int64_t k0, int64_t k1, double *out)
{
    h5src *s = ud;
    const pv_h5_dset_info *in = pv_h5_dataset_info(s->d);
    return pv_h5_dataset_read(s->ctx, s->d, k0, k1, out, true, in->n[0], in->n[1], NULL);
}

/* Closing an HDF5 file opened with MPI-IO is collective: every rank closes its source at
 * the same point (fill_array.c closes on every rank at the end of the fill). */
static void src_close(void *ud)
{
    h5src *s = ud;
    if (!s)
        return;
    pv_h5_dataset_close(s->ctx, s->d);
    free(s->name);
    free(s);
}

pv_status pv_h5_array_open(pv_interp *I, pv_cursor *c, const pv_data_spec *ds,
                           pv_array_src *out)
{
    pv_ctx *ctx = I->ctx;
    memset(out, 0, sizeof *out);
    pv_h5_opts opt = pv_h5src_opts();
    pv_h5_dataset *d = pv_h5_dataset_open(ctx, ds->name, ds->dataset, ds->order, &opt);
    if (!d)
        return pv_exec_locate(I, c, ds->name_off);
    h5src *s = calloc(1, sizeof *s);
    const pv_h5_dset_info *in = pv_h5_dataset_info(d);
    char *name = s ? pv_asprintf("%s:%s", ds->name, in->path) : NULL;
    pv_status st = name ? PV_OK : pv_err(ctx, PV_ENOMEM, "out of memory");
    if ((st = pv_status_agree(ctx, st)) != PV_OK) {
        free(name);
        free(s);
        pv_h5_dataset_close(ctx, d);
        return pv_exec_locate(I, c, ds->name_off);
    }
    *s = (h5src){ctx, d, name};
    for (int a = 0; a < 3; a++) {
        out->n[a] = in->n[a];
        bool placed = in->has_range[a] && in->step[a] > 0;
        out->origin[a] = placed ? in->min[a] : 0.0;
        out->delta[a] = placed ? in->step[a] : 1.0;
        out->scan[a] = a; /* read() delivers x fastest: the sources' order (below) */
        out->flip[a] = false;
    }
    out->nfields = 1;
    out->name = s->name;
    out->ud = s;
    out->read = src_read;
    out->close = src_close;
    return PV_OK;
}
