/*
 * pvox stop requests: SIGUSR1 and SIGTERM ask a running job to stop early and resumably
 * (README "Stopping a job early"). Slurm sends them before a time limit (`--signal`),
 * on `scancel` and on preemption.
 *
 * The handler only records the signal (an async-signal-safe flag); the interpreter looks
 * at it at its safe points, where every rank meets (exec/ckpt.c), saves a checkpoint
 * and ends the run with PV_EXIT_STOPPED on every rank. A repeat of a signal more than
 * PV_STOP_REPEAT_S seconds after the first kills the process as the default action
 * would (an impatient user, or a job that cannot reach a safe point); repeats within that
 * time are taken as one request (Slurm may deliver one scancel to a task twice: through
 * the step and through srun).
 *
 * The flag is the one process-wide state in core: a signal handler can reach no other.
 */
#ifndef PVOX_STOP_H
#define PVOX_STOP_H

#define PV_STOP_REPEAT_S 2

/* Install the handlers for SIGUSR1 and SIGTERM (after MPI_Init, so that they replace
 * whatever the MPI library set). Not collective. */
void pv_stop_install(void);

/* The signal that asked this process to stop (SIGUSR1 or SIGTERM), 0 if none. */
int pv_stop_signal(void);

/* "SIGUSR1", "SIGTERM", else "signal N" (static storage for known names). */
const char *pv_stop_signal_name(int sig, char buf[24]);

#endif
