/*
 * app/mpi_start.c: Open MPI settings chosen before MPI_Init to cut start-up time
 * (README "Start-up time").
 *
 * Measured on a 2-core Debian 12 VM with Open MPI 4.1.4, MPI_Init + MPI_Finalize alone:
 *   - a singleton (`./pvox job.gp`, no launcher) took 0.32 s: Open MPI forks a supporting
 *     daemon (orted) and the UCX PML probes the network devices. A singleton has no peer,
 *     so only the loopback transport is loaded (pml ob1, btl self): 0.13 s. Skipping the
 *     daemon too (ess_singleton_isolated) gave 0.03 s, but then every singleton on the
 *     machine uses the same session directory (jf.0), and of 180 started together 3
 *     failed in MPI_Init when another one removed it.
 *   - `mpiexec -n 2` on one node took 0.41-0.48 s, 0.23-0.28 s with pml ob1 (its
 *     shared-memory transport, vader, carries the ranks' messages). Chosen only when the
 *     launcher says every rank is on this node; across nodes the site's choice (UCX for
 *     InfiniBand, ...) stays.
 * A variable the user or the launcher has set is never overridden, and PVOX_MPI_TUNE=0
 * turns all of this off. The variables are removed again once MPI_Init has read them, so
 * that commands the script runs (system(), `!`, pipes) do not inherit them: an mpiexec
 * started there with btl=self could not connect its ranks. Other MPI implementations ignore OMPI_MCA_* variables.
 */
#define _POSIX_C_SOURCE 200809L
#include "mpi_start.h"

#include <stdlib.h>
#include <string.h>

static const char *env(const char *name)
{
    const char *v = getenv(name);
    return v && v[0] ? v : NULL;
}

/* The variables set here, to remove after MPI_Init. */
static const char *set_names[3];
static int nset;

static void set_default(const char *name, const char *value)
{
    if (!env(name) && setenv(name, value, 1) == 0 && nset < 3)
        set_names[nset++] = name;
}

/* No launcher started this process: no Open MPI, PMIx or PMI variables, and not one task
 * of a multi-task srun step. */
static bool is_singleton(void)
{
    static const char *const launched[] = {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK",
                                           "PMI_SIZE", "PMI_FD", "OMPI_MCA_orte_hnp_uri"};
    for (size_t i = 0; i < sizeof launched / sizeof launched[0]; i++)
        if (env(launched[i]))
            return false;
    const char *ntasks = env("SLURM_STEP_NUM_TASKS");
    return !ntasks || strcmp(ntasks, "1") == 0;
}

/* Open MPI's mpiexec started every rank of the job on this node. */
static bool all_ranks_local(void)
{
    const char *size = env("OMPI_COMM_WORLD_SIZE");
    const char *local = env("OMPI_COMM_WORLD_LOCAL_SIZE");
    return size && local && strcmp(size, local) == 0;
}

pv_mpi_tuning pv_mpi_tune_env(void)
{
    const char *off = env("PVOX_MPI_TUNE");
    if (off && strcmp(off, "0") == 0)
        return PV_MPI_TUNE_OFF;
    if (is_singleton()) {
        set_default("OMPI_MCA_pml", "ob1");
        set_default("OMPI_MCA_btl", "self");
        return PV_MPI_TUNE_SINGLETON;
    }
    if (all_ranks_local()) {
        set_default("OMPI_MCA_pml", "ob1");
        return PV_MPI_TUNE_ONE_NODE;
    }
    return PV_MPI_TUNE_NONE;
}

void pv_mpi_untune_env(void)
{
    for (int i = 0; i < nset; i++)
        unsetenv(set_names[i]);
    nset = 0;
}

const char *pv_mpi_tuning_name(pv_mpi_tuning t)
{
    switch (t) {
    case PV_MPI_TUNE_SINGLETON: return "singleton: loopback transport only";
    case PV_MPI_TUNE_ONE_NODE: return "one node: Open MPI's ob1 transport (shared memory)";
    case PV_MPI_TUNE_OFF: return "off (PVOX_MPI_TUNE=0)";
    case PV_MPI_TUNE_NONE: break;
    }
    return "none (ranks on several nodes: the site's MPI settings)";
}
