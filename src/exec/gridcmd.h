/*
 * exec/gridcmd: the voxel-grid commands of the language (GP-1 to GP-5): set/unset/show
 * vgrid, set vxrange/vyrange/vzrange, vclear and voxel(x,y,z) = expr (gridcmd.c), vfill
 * and vgfill (gridfill.c). Grids live distributed (grid/); every rank runs these commands
 * with the same arguments (SPMD). The grid table and voxel() are in gridset.h, included
 * here for the files that use both.
 */
#ifndef PV_EXEC_GRIDCMD_H
#define PV_EXEC_GRIDCMD_H

#include "exec_int.h"
#include "gridset.h"
#include "pvox/grid.h"

/* Statement handlers (cursor just after the command word, or at `voxel` for the
 * assignment). */
pv_status pv_cmd_set_vgrid(pv_interp *I, pv_cursor *c, bool exec);
pv_status pv_cmd_unset_vgrid(pv_interp *I, pv_cursor *c, bool exec);
pv_status pv_cmd_show_vgrid(pv_interp *I, pv_cursor *c, bool exec);
/* axis 0, 1, 2 for vxrange, vyrange, vzrange */
pv_status pv_cmd_set_vrange(pv_interp *I, pv_cursor *c, bool exec, int axis);
pv_status pv_cmd_vclear(pv_interp *I, pv_cursor *c, bool exec);
/* True if the statement at c is `voxel ( ... ) = ...`. */
bool pv_is_voxel_assignment(const pv_cursor *c);
pv_status pv_cmd_voxel_assign(pv_interp *I, pv_cursor *c, bool exec);

/* gridfill.c */
pv_status pv_cmd_vfill(pv_interp *I, pv_cursor *c, bool exec);
pv_status pv_cmd_vgfill(pv_interp *I, pv_cursor *c, bool exec);

#endif
