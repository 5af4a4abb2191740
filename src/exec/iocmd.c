/*
 * exec/iocmd: vsave / vload (placeholder until the HDF5 module lands: says so at run time).
 */
#include "iocmd.h"

pv_status pv_cmd_vsave(pv_interp *I, pv_cursor *c, bool exec) { return pv_cmd_grid_hook(I, c, exec); }
pv_status pv_cmd_vload(pv_interp *I, pv_cursor *c, bool exec) { return pv_cmd_grid_hook(I, c, exec); }
