/*
 * exec/ckpt: `pvox --checkpoint FILE` and `pvox --resume FILE` (README "Checkpoints").
 *
 * Grid changes are counted in script order (vfill, vgfill, vclear, vload, set vgrid,
 * unset vgrid, set vxrange/vyrange/vzrange, voxel()=). With --checkpoint every grid is
 * saved to FILE (pv_h5_save_all: atomic, collective) after a vfill, vgfill, vclear, vload
 * or resize, and before a plot when grids changed since the last save, at most once per
 * --checkpoint-every seconds. The file also records the job script's hash and the count
 * of grid changes it holds. --resume FILE loads those grids when the job script starts,
 * refuses a different script, and replays it: the first `count` grid changes are parsed
 * but not run (the grids already hold their effect), everything else runs, and a plot
 * whose output file already exists is not drawn again.
 */
#ifndef PV_EXEC_CKPT_H
#define PV_EXEC_CKPT_H

#include "exec_int.h"

/* The job script's bytes are known (first script only): hash them and, with --resume,
 * load the checkpoint. Collective. */
pv_status pv_ckpt_script_start(pv_interp *I, const char *text, size_t len);
/* True when the next grid change must be skipped (replaying a resumed run); counts it. */
bool pv_ckpt_skip_change(pv_interp *I);
/* A grid change ran; `save` asks for a checkpoint (vfill, vgfill, vclear, vload, resize).
 * Collective. */
pv_status pv_ckpt_changed(pv_interp *I, bool save);
/* Before a plot: save if grids changed since the last save. Collective. */
pv_status pv_ckpt_before_plot(pv_interp *I);
/* A resumed run skips a plot whose output file exists (rank 0 looks; all agree). */
bool pv_ckpt_skip_plot(pv_interp *I, const char *path);

#endif
