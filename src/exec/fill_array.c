/*
 * exec/fill_array.c: vfill / vgfill from a 3D array (binary brick, HDF5 dataset), each rank
 * reading its own planes (fillrun.h). Not yet: such sources are read as rows.
 */
#include "fillrun.h"

bool pv_fill_array_applies(pv_interp *I, const pv_data_spec *ds)
{
    (void)I;
    (void)ds;
    return false;
}

pv_status pv_fill_array_run(pv_interp *I, pv_cursor *c, pv_grid *g, pv_data_spec *ds,
                           pv_code *value, bool grid_units, size_t off)
{
    (void)c, (void)g, (void)ds, (void)value, (void)grid_units, (void)off;
    return pv_err(I->ctx, PV_EINTERNAL, "3D arrays: not built yet");
}
