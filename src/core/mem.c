/*
 * core/mem.c: tracked allocation (STYLE.md §7).
 *
 * pv_alloc counts the bytes each rank holds and their high-water mark, enforces
 * --max-memory when one is given, and can be told to fail its N-th call
 * (ctx->opt.fail_alloc_at), the way Lua's ltests.h and SQLite's faultsim let tests walk
 * every allocation-failure path. Not thread-safe: allocate outside parallel regions
 * (large buffers are allocated once and reused anyway).
 */
#include "pvox/core.h"

#include <stdlib.h>

bool pv_mul_size(size_t a, size_t b, size_t *out)
{
    if (a != 0 && b > SIZE_MAX / a) return false;
    *out = a * b;
    return true;
}

/* The one allocation path: fault injection, the limit, accounting. calloc for zeroed
 * blocks keeps the kernel's lazy zero pages (first touch then happens where the caller
 * initialises, STYLE.md §7). */
static void *alloc(pv_ctx *ctx, size_t n, bool zero)
{
    ctx->nallocs++;
    if (ctx->opt.fail_alloc_at > 0 && ctx->nallocs == ctx->opt.fail_alloc_at) {
        pv_err(ctx, PV_ENOMEM, "out of memory: cannot allocate %zu bytes (injected failure)",
               n);
        return NULL;
    }
    size_t limit = ctx->opt.max_memory;
    if (limit > 0 && (n > limit || ctx->mem_current > limit - n)) {
        pv_err(ctx, PV_ENOMEM,
               "out of memory: %zu more bytes would exceed the limit of %zu bytes per rank "
               "(--max-memory)",
               n, limit);
        return NULL;
    }
    void *p = zero ? calloc(1, n ? n : 1) : malloc(n ? n : 1);
    if (!p) {
        pv_err(ctx, PV_ENOMEM, "out of memory: cannot allocate %zu bytes", n);
        return NULL;
    }
    ctx->mem_current += n;
    if (ctx->mem_current > ctx->mem_peak) ctx->mem_peak = ctx->mem_current;
    return p;
}

void *pv_alloc(pv_ctx *ctx, size_t n)
{
    return alloc(ctx, n, false);
}

void *pv_calloc(pv_ctx *ctx, size_t count, size_t size)
{
    size_t n;
    if (!pv_mul_size(count, size, &n)) {
        pv_err(ctx, PV_ENOMEM, "out of memory: %zu x %zu bytes overflows the address space",
               count, size);
        return NULL;
    }
    return alloc(ctx, n, true);
}

void pv_free(pv_ctx *ctx, void *p, size_t n)
{
    if (!p) return;
    free(p);
    ctx->mem_current = n <= ctx->mem_current ? ctx->mem_current - n : 0;
}
