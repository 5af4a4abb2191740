/* What the fuzz targets and their replay share: the entry point libFuzzer calls, and a run
 * context for one rank of one that needs no MPI_Init (tests/fuzz/README.md). */
#ifndef PV_FUZZ_COMMON_H
#define PV_FUZZ_COMMON_H

#include "pvox/core.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A context as pv_ctx_create would make it for rank 0 of 1, without duplicating a
 * communicator: anything that calls MPI through it aborts (MPI is not initialised), which
 * is what the targets want to learn. `--check` mode, messages at error level only. */
static inline void pv_fuzz_ctx_init(pv_ctx *ctx)
{
    memset(ctx, 0, sizeof *ctx);
    ctx->comm = MPI_COMM_NULL;
    ctx->rank = 0;
    ctx->nranks = 1;
    ctx->nthreads = 1;
    ctx->opt.nthreads = 1;
    ctx->opt.quiet = true;
    ctx->opt.log_level = PV_LOG_ERROR;
    ctx->opt.check_only = true;
    ctx->opt.frame_writer = -1;
}

static inline void pv_fuzz_ctx_fini(pv_ctx *ctx)
{
    if (ctx->stats_free) ctx->stats_free(ctx);
    pv_err_clear(ctx);
}

#endif
