/*
 * core/mem.c: tracked allocation (STYLE-7).
 *
 * pv_alloc counts the bytes each rank holds and their high-water mark, enforces
 * --max-memory when one is given, and can be told to fail its N-th call
 * (ctx->opt.fail_alloc_at), the way Lua's ltests.h and SQLite's faultsim let tests walk
 * every allocation-failure path. Not thread-safe: allocate outside parallel regions
 * (large buffers are allocated once and reused anyway).
 */
#define _DEFAULT_SOURCE /* madvise, MADV_HUGEPAGE */
#include "pvox/core.h"

#include <omp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

bool pv_mul_size(size_t a, size_t b, size_t *out)
{
    if (a != 0 && b > SIZE_MAX / a) return false;
    *out = a * b;
    return true;
}

size_t pv_iso_cache_default(size_t grid_bytes)
{
    const size_t most = (size_t)128 << 20;
    size_t share = grid_bytes / 8;
    return share >= most ? 0 : most - share;
}

/* The checks every allocation passes: fault injection and the --max-memory limit for
 * `more` additional bytes (`n` is the size reported in the message). */
static bool admit(pv_ctx *ctx, size_t n, size_t more)
{
    if (n >= ctx->opt.fail_alloc_min) ctx->nallocs++;
    if (ctx->opt.fail_alloc_at > 0 && n >= ctx->opt.fail_alloc_min &&
        ctx->nallocs == ctx->opt.fail_alloc_at &&
        (!ctx->opt.fail_alloc_one_rank || ctx->opt.fail_alloc_rank == ctx->rank)) {
        pv_err(ctx, PV_ENOMEM, "out of memory: cannot allocate %zu bytes (injected failure)",
               n);
        return false;
    }
    size_t limit = ctx->opt.max_memory;
    if (limit > 0 && (more > limit || ctx->mem_current > limit - more)) {
        pv_err(ctx, PV_ENOMEM,
               "out of memory: %zu more bytes would exceed the limit of %zu bytes per rank "
               "(--max-memory)",
               more, limit);
        return false;
    }
    return true;
}

/* Big blocks (grid slabs, tiles, raster buffers) ask Linux for transparent huge pages
 * where the system leaves that to the program (THP "madvise" mode, Debian's default): the
 * first touch of a 2 MiB page is one fault instead of 512, which on virtual machines is
 * the main cost of allocating a grid. Only the 2 MiB-aligned interior is advised; the
 * block stays an ordinary malloc block. A hint: failure changes nothing. */
#define PV_HUGE_MIN ((size_t)8 << 20)
static void advise_huge(void *p, size_t n)
{
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (n < PV_HUGE_MIN) return;
    const uintptr_t H = (uintptr_t)2 << 20;
    uintptr_t a = ((uintptr_t)p + H - 1) & ~(H - 1), b = ((uintptr_t)p + n) & ~(H - 1);
    if (b > a) (void)madvise((void *)a, (size_t)(b - a), MADV_HUGEPAGE);
#else
    (void)p, (void)n;
#endif
}

void pv_mem_populate(void *p, size_t n)
{
#if defined(__linux__) && defined(MADV_POPULATE_WRITE)
    const uintptr_t piece = (uintptr_t)64 << 20; /* a thread's share at a time */
    uintptr_t a = (uintptr_t)p & ~(uintptr_t)4095, e = (uintptr_t)p + n;
    if (!p || n == 0) return;
    if (n < piece || omp_in_parallel()) { /* this thread's part of a parallel read */
        (void)madvise((void *)a, (size_t)(e - a), MADV_POPULATE_WRITE);
        return;
    }
    const long npieces = (long)((e - a + piece - 1) / piece);
#pragma omp parallel for schedule(static)
    for (long k = 0; k < npieces; k++) {
        uintptr_t s = a + (uintptr_t)k * piece, t = s + piece < e ? s + piece : e;
        (void)madvise((void *)s, (size_t)(t - s), MADV_POPULATE_WRITE); /* EINVAL: old kernel */
    }
#else
    (void)p, (void)n;
#endif
}

static void account(pv_ctx *ctx, size_t more)
{
    ctx->mem_current += more;
    if (ctx->mem_current > ctx->mem_peak) ctx->mem_peak = ctx->mem_current;
}

/* The one allocation path: fault injection, the limit, accounting. calloc for zeroed
 * blocks keeps the kernel's lazy zero pages (first touch then happens where the caller
 * initialises, STYLE-7). */
static void *alloc(pv_ctx *ctx, size_t n, bool zero)
{
    if (!admit(ctx, n, n)) return NULL;
    void *p = zero ? calloc(1, n ? n : 1) : malloc(n ? n : 1);
    if (!p) {
        pv_err(ctx, PV_ENOMEM, "out of memory: cannot allocate %zu bytes", n);
        return NULL;
    }
    advise_huge(p, n);
    account(ctx, n);
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

/* Grow a tracked block from `old_n` to `new_n` > old_n bytes, keeping its contents. On
 * failure records PV_ENOMEM, returns NULL and leaves the block as it was. */
static void *grow_block(pv_ctx *ctx, void *p, size_t old_n, size_t new_n)
{
    if (!p) return alloc(ctx, new_n, false);
    if (!admit(ctx, new_n, new_n - old_n)) return NULL;
    void *q = realloc(p, new_n);
    if (!q) {
        pv_err(ctx, PV_ENOMEM, "out of memory: cannot allocate %zu bytes", new_n);
        return NULL;
    }
    advise_huge(q, new_n);
    account(ctx, new_n - old_n);
    return q;
}

bool pv_grow(pv_ctx *ctx, void *arrp, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap) return true;
    size_t ncap = *cap < 8 ? 8 : *cap;
    while (ncap < need) {
        if (ncap > SIZE_MAX / 2) {
            ncap = need;
            break;
        }
        ncap *= 2;
    }
    size_t old_n = *cap * elem, new_n;
    if (!pv_mul_size(ncap, elem, &new_n)) {
        pv_err(ctx, PV_ENOMEM, "out of memory: %zu x %zu bytes overflows the address space",
               ncap, elem);
        return false;
    }
    /* arrp is a T **: read and write the pointer through memcpy, so no T * is ever
     * accessed as a void * (both have one representation on every supported target). */
    void *old;
    memcpy(&old, arrp, sizeof old);
    void *p = grow_block(ctx, old, old_n, new_n);
    if (!p) return false;
    memcpy(arrp, &p, sizeof p);
    *cap = ncap;
    return true;
}

pv_status pv_strbuf_put(pv_ctx *ctx, pv_strbuf *b, const char *s, size_t n)
{
    if (!PV_GROW(ctx, b->s, b->cap, b->len + n + 1)) return ctx->err_code;
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = '\0';
    return PV_OK;
}

void pv_strbuf_free(pv_ctx *ctx, pv_strbuf *b)
{
    pv_free(ctx, b->s, b->cap);
    b->s = NULL;
    b->len = b->cap = 0;
}
