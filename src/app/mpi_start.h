/*
 * app/mpi_start.h: Open MPI settings chosen from the environment before MPI_Init: a
 * private session directory for a singleton, and a fast start (mpi_start.c says what and
 * why).
 */
#ifndef PV_APP_MPI_START_H
#define PV_APP_MPI_START_H

#include <stdbool.h>

typedef enum {
    PV_MPI_TUNE_NONE,      /* launched across nodes: nothing set */
    PV_MPI_TUNE_SINGLETON, /* no launcher: loopback transport only */
    PV_MPI_TUNE_ONE_NODE,  /* mpiexec or srun, every rank on this node: pml ob1 */
    PV_MPI_TUNE_OFF        /* PVOX_MPI_TUNE=0 */
} pv_mpi_tuning;

/* Set the OMPI_MCA_* variables this process's launch allows (never overriding one that is
 * set); a singleton gets a session directory of its own (made here, removed by
 * pv_mpi_session_remove or at exit). Call before MPI_Init. */
pv_mpi_tuning pv_mpi_tune_env(void);
/* Remove what pv_mpi_tune_env set (after MPI_Init has read it). */
void pv_mpi_untune_env(void);
/* The private session directory made by pv_mpi_tune_env, or NULL if none. */
const char *pv_mpi_session_dir(void);
/* Remove the private session directory (after MPI_Finalize; also run at exit). Only the
 * process that made it removes it; a second call does nothing. */
void pv_mpi_session_remove(void);
/* A phrase for the debug log. */
const char *pv_mpi_tuning_name(pv_mpi_tuning t);

#endif
