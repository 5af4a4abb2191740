/*
 * core/ctx.c: the run context (pv_ctx). One per run, created by main() after MPI_Init and
 * passed first to everything that logs, allocates large buffers or talks MPI.
 *
 * Invariants: ctx->comm is a private duplicate of the world communicator with
 * MPI_ERRORS_RETURN, so an MPI failure comes back as a status (PV_EMPI) instead of aborting,
 * and our collectives never collide with a library's traffic on MPI_COMM_WORLD (IceT does
 * the same). Nothing here is global: two contexts may coexist (tests do that).
 */
#define _DEFAULT_SOURCE /* sysconf(_SC_NPROCESSORS_ONLN) */
#include "pvox/core.h"

#include <omp.h>
#include <stdlib.h>
#include <unistd.h>

/* Threads per rank when neither --threads nor OMP_NUM_THREADS says: the cores this rank may
 * run on, shared with the other ranks of the node when they may all run everywhere
 * (`mpirun --bind-to none`); a rank bound to some cores (Open MPI's default binding,
 * SLURM's --cpus-per-task) keeps its own. Collective over comm (counts the node's ranks). */
static int default_threads(MPI_Comm comm)
{
    int procs = omp_get_num_procs();
    MPI_Comm node;
    int local = 1;
    if (MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node) ==
        MPI_SUCCESS) {
        MPI_Comm_size(node, &local);
        MPI_Comm_free(&node);
    }
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    if (local > 1 && online > 0 && procs >= online) procs /= local;
    return procs < 1 ? 1 : procs;
}

pv_ctx *pv_ctx_create(MPI_Comm world, const pv_options *opt)
{
    pv_ctx *ctx = calloc(1, sizeof *ctx);
    if (!ctx) return NULL;
    if (opt) {
        ctx->opt = *opt;
    } else {
        pv_options_default(&ctx->opt);
    }
    if (MPI_Comm_dup(world, &ctx->comm) != MPI_SUCCESS) {
        free(ctx);
        return NULL;
    }
    MPI_Comm_set_errhandler(ctx->comm, MPI_ERRORS_RETURN);
    MPI_Comm_rank(ctx->comm, &ctx->rank);
    MPI_Comm_size(ctx->comm, &ctx->nranks);
    if (ctx->opt.nthreads > 0) omp_set_num_threads(ctx->opt.nthreads);
    else if (!getenv("OMP_NUM_THREADS")) omp_set_num_threads(default_threads(ctx->comm));
    ctx->nthreads = omp_get_max_threads();
    ctx->err_code = PV_OK;
    ctx->t_start = MPI_Wtime();
    return ctx;
}

void pv_ctx_destroy(pv_ctx *ctx)
{
    if (!ctx) return;
    if (ctx->stats_free) ctx->stats_free(ctx); /* --stats records not written */
    if (ctx->comm != MPI_COMM_NULL) MPI_Comm_free(&ctx->comm);
    free(ctx->err_msg);
    free(ctx);
}

void pv_options_default(pv_options *opt)
{
    *opt = (pv_options){
        .nthreads = 0,
        .quiet = false,
        .progress = false,
        .log_all_ranks = false,
        .log_level = PV_LOG_WARN, /* stderr carries what gnuplot prints; -v adds info */
        .outdir = NULL,
        .max_memory = 0,
        .fail_alloc_at = 0,
        .iso_cache_bytes = PV_ISO_CACHE_AUTO,
        .frame_writer = -1,
        .checkpoint_every = PV_CHECKPOINT_AUTO,
    };
}

double pv_elapsed(const pv_ctx *ctx)
{
    return MPI_Wtime() - ctx->t_start;
}
