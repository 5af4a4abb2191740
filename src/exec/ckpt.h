/*
 * exec/ckpt: `pvox --checkpoint FILE` and `pvox --resume FILE` (README "Checkpoints").
 *
 * The interpreter loop hands every statement it runs to pv_ckpt_stmt with the class the
 * command table gives it (exec_int.h pv_ck_class); commands themselves never call here.
 * Grid changes are counted in script order, one per statement (vfill, vgfill, vclear,
 * vload, set vgrid, unset vgrid, set vxrange/vyrange/vzrange, voxel()=). With --checkpoint
 * every grid is saved to FILE (pv_h5_save_all: atomic, collective) after a vfill, vgfill,
 * vclear, vload or resize, and before a splot/replot when grids changed since the last
 * save, at most once per --checkpoint-every seconds (by default, once the run has gone on
 * ten times as long as the last save took); changes whose save was put off are saved
 * when the script ends. The file also records the job script's hash and the count
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
/* Run one statement (exec mode) for the interpreter loop: `run` is its handler, `ck` its
 * class. A grid change is skipped while a resumed run replays the changes its checkpoint
 * holds (parsed only, with I->replaying set), else run and counted, and a checkpoint
 * follows when one is due; a splot/replot first saves grids changed since the last save.
 * `timed` (or NULL) names a grid command --stats records (pvox/stats.h). Collective. */
pv_status pv_ckpt_stmt(pv_interp *I, pv_cursor *c, pv_ck_class ck, pv_cmd_fn run,
                       const char *timed);
/* The end of a top-level script that ran without error: changes not saved yet (put off
 * by the interval, or voxel()= and set v?range, which no save follows) are saved now, so
 * the file holds the script's final grids. Collective. */
pv_status pv_ckpt_finish(pv_interp *I);
/* A resumed run skips a plot whose output file exists (rank 0 looks; all agree). */
bool pv_ckpt_skip_plot(pv_interp *I, const char *path);

#endif
