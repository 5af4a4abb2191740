/*
 * exec/iocmd: the commands `vsave {$grid ...} "file.h5"` and `vload {$grid ...}
 * "file.h5"`. Collective: every rank runs them with the same arguments and reads/writes
 * its own slab. The grid<->HDF5 glue they share with checkpoints is gridio.h.
 */
#ifndef PV_EXEC_IOCMD_H
#define PV_EXEC_IOCMD_H

#include "exec_int.h"
#include "gridio.h"

/* Statement handlers (cursor at the command word). */
pv_status pv_cmd_vsave(pv_interp *I, pv_cursor *c, bool exec);
pv_status pv_cmd_vload(pv_interp *I, pv_cursor *c, bool exec);

#endif
