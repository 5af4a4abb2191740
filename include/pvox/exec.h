/*
 * pvox exec: the SPMD interpreter. Every rank runs the same interpreter over the same
 * script text; control flow, variables and settings are therefore identical everywhere
 * without messages. Rank 0 reads files and broadcasts their bytes; only rank 0 prints.
 *
 * A script is lexed and checked as a whole before it runs (syntax errors anywhere stop it
 * before any heavy work), then executed statement by statement.
 */
#ifndef PVOX_EXEC_H
#define PVOX_EXEC_H

#include "pvox/core.h"

typedef struct pv_interp pv_interp;

/* Create an interpreter with gnuplot's fresh-start state and pvox's batch defaults
 * (DEC-10). Collective. */
pv_interp *pv_interp_create(pv_ctx *ctx);
void pv_interp_destroy(pv_interp *I);

/* Run script text (all ranks pass the same bytes). `name` is shown in diagnostics ("-e",
 * "job.gp"). Collective. Returns PV_OK, PV_EEXIT (script ran `exit`; see ctx->exit_code)
 * or the agreed error, with the message recorded in ctx. */
pv_status pv_interp_run_text(pv_interp *I, const char *name, const char *text, size_t len);

/* Rank 0 reads `path` ("-" = stdin), broadcasts it, and runs it. Collective. */
pv_status pv_interp_run_file(pv_interp *I, const char *path);

/* The job's scripts, in command-line order (borrowed: they must outlive I), before the
 * first runs: --checkpoint and --resume hash all of them into the job's hash, so a
 * checkpoint resumes only under the same scripts. Without a call, the first script run
 * is the job. */
void pv_interp_set_job_scripts(pv_interp *I, const char *const *paths, int n);

#endif /* PVOX_EXEC_H */
