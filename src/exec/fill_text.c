/*
 * exec/fill_text.c: vfill / vgfill from a text file, each rank parsing its own share of
 * the bytes (fillrun.h). Not yet: every text source is read by gridfill.c's reader.
 */
#include "fillrun.h"

bool pv_fill_text_applies(pv_interp *I, const pv_data_spec *ds)
{
    (void)I;
    (void)ds;
    return false;
}

pv_status pv_fill_text_run(pv_interp *I, pv_cursor *c, pv_grid *g, pv_data_spec *ds,
                           pv_code *value, bool grid_units, size_t off)
{
    (void)c, (void)g, (void)ds, (void)value, (void)grid_units, (void)off;
    return pv_err(I->ctx, PV_EINTERNAL, "text files split over the ranks: not built yet");
}
