/*
 * Memory accounting: pv_mul_size overflow, peak tracking, the --max-memory limit, and
 * fault injection (the N-th allocation fails, the others do not; the error is recorded).
 */
#include "pv_test.h"
#include "pvox/core.h"

#include <stdint.h>
#include <stdlib.h>

static void fresh(pv_ctx *ctx)
{
    memset(ctx, 0, sizeof *ctx);
    pv_options_default(&ctx->opt);
    ctx->nranks = 1;
    ctx->rank = 1; /* quiet */
}

static void test_mul_size(void)
{
    size_t r = 12345;
    PV_CHECK(pv_mul_size(0, SIZE_MAX, &r) && r == 0);
    PV_CHECK(pv_mul_size(SIZE_MAX, 1, &r) && r == SIZE_MAX);
    PV_CHECK(pv_mul_size(4096, 4096, &r) && r == (size_t)4096 * 4096);
    r = 7;
    PV_CHECK(!pv_mul_size(SIZE_MAX, 2, &r));
    PV_CHECK_EQ(r, 7); /* untouched on overflow */
    PV_CHECK(!pv_mul_size((size_t)1 << (sizeof(size_t) * 4), (size_t)1 << (sizeof(size_t) * 4), &r));
    PV_CHECK(pv_mul_size(((size_t)1 << (sizeof(size_t) * 4)) - 1, (size_t)1 << (sizeof(size_t) * 4), &r));
    /* a 4096^3 float grid: 2^38 bytes, past 2^31 */
    size_t n3;
    PV_CHECK(pv_mul_size((size_t)4096 * 4096, 4096, &n3) && pv_mul_size(n3, sizeof(float), &r));
    PV_CHECK(r == ((size_t)1 << 38));
}

static void test_peak(void)
{
    pv_ctx ctx;
    fresh(&ctx);
    char *a = pv_alloc(&ctx, 1000);
    char *b = pv_calloc(&ctx, 10, 100);
    PV_CHECK(a && b);
    PV_CHECK_EQ(b[999], 0);
    PV_CHECK_EQ(ctx.mem_current, 2000);
    pv_free(&ctx, a, 1000);
    PV_CHECK_EQ(ctx.mem_current, 1000);
    char *c = pv_alloc(&ctx, 500);
    PV_CHECK_EQ(ctx.mem_peak, 2000);
    pv_free(&ctx, b, 1000);
    pv_free(&ctx, c, 500);
    pv_free(&ctx, NULL, 0);
    PV_CHECK_EQ(ctx.mem_current, 0);
    PV_CHECK_EQ(ctx.nallocs, 3);
    PV_CHECK_EQ(ctx.err_code, PV_OK);
    /* calloc overflow is refused before any allocation */
    PV_CHECK(pv_calloc(&ctx, SIZE_MAX / 2, 4) == NULL);
    PV_CHECK_EQ(ctx.err_code, PV_ENOMEM);
    pv_err_clear(&ctx);
}

static void test_limit(void)
{
    pv_ctx ctx;
    fresh(&ctx);
    ctx.opt.max_memory = 1000;
    void *a = pv_alloc(&ctx, 600);
    PV_CHECK(a != NULL);
    PV_CHECK(pv_alloc(&ctx, 401) == NULL);
    PV_CHECK_EQ(ctx.err_code, PV_ENOMEM);
    PV_CHECK(strstr(ctx.err_msg, "--max-memory") != NULL);
    pv_err_clear(&ctx);
    void *b = pv_alloc(&ctx, 400); /* exactly at the limit is fine */
    PV_CHECK(b != NULL);
    PV_CHECK(pv_alloc(&ctx, SIZE_MAX) == NULL);
    pv_err_clear(&ctx);
    pv_free(&ctx, a, 600);
    pv_free(&ctx, b, 400);
}

/* Walk every allocation of a small "job" failing each in turn: each run must fail cleanly
 * at exactly that allocation, record PV_ENOMEM once, and leak nothing it tracked. */
static int job(pv_ctx *ctx)
{
    void *p[5] = {NULL};
    int got = 0;
    for (int i = 0; i < 5; i++) {
        p[i] = pv_alloc(ctx, (size_t)(i + 1) * 64);
        if (!p[i]) break;
        got++;
    }
    for (int i = got - 1; i >= 0; i--) pv_free(ctx, p[i], (size_t)(i + 1) * 64);
    return got;
}

static void test_fault_injection(void)
{
    for (long n = 1; n <= 6; n++) {
        pv_ctx ctx;
        fresh(&ctx);
        ctx.opt.fail_alloc_at = n;
        int got = job(&ctx);
        if (n <= 5) {
            PV_CHECK_EQ(got, n - 1);
            PV_CHECK_EQ(ctx.err_code, PV_ENOMEM);
            PV_CHECK(ctx.err_msg && strstr(ctx.err_msg, "out of memory") == ctx.err_msg);
        } else {
            PV_CHECK_EQ(got, 5);
            PV_CHECK_EQ(ctx.err_code, PV_OK);
        }
        PV_CHECK_EQ(ctx.mem_current, 0);
        pv_err_clear(&ctx);
    }
}

/* The growable array: doubling from 8, contents kept, tracked bytes equal to the
 * capacity, and a refused growth (limit, injected failure) leaves the array as it was. */
static void test_grow(void)
{
    pv_ctx ctx;
    fresh(&ctx);
    int *a = NULL;
    size_t cap = 0;
    for (int i = 0; i < 100; i++) {
        PV_CHECK(PV_GROW(&ctx, a, cap, (size_t)i + 1));
        a[i] = i * i;
    }
    PV_CHECK_EQ(cap, 128);
    PV_CHECK_EQ(ctx.mem_current, 128 * sizeof(int));
    int sum_ok = 1;
    for (int i = 0; i < 100; i++) sum_ok &= a[i] == i * i;
    PV_CHECK(sum_ok);
    PV_CHECK(PV_GROW(&ctx, a, cap, 5)); /* never shrinks */
    PV_CHECK_EQ(cap, 128);
    PV_CHECK(PV_GROW(&ctx, a, cap, 1000)); /* jumps straight past a large need */
    PV_CHECK_EQ(cap, 1024);
    PV_CHECK_EQ(a[99], 99 * 99);

    ctx.opt.max_memory = ctx.mem_current + 100;
    int *keep = a;
    PV_CHECK(!PV_GROW(&ctx, a, cap, 1025));
    PV_CHECK_EQ(ctx.err_code, PV_ENOMEM);
    PV_CHECK(a == keep && cap == 1024);
    pv_err_clear(&ctx);
    ctx.opt.max_memory = 0;
    ctx.opt.fail_alloc_at = ctx.nallocs + 1;
    PV_CHECK(!PV_GROW(&ctx, a, cap, 1025));
    PV_CHECK(a == keep && cap == 1024 && a[50] == 2500);
    pv_err_clear(&ctx);
    PV_CHECK(!PV_GROW(&ctx, a, cap, SIZE_MAX / 2)); /* bytes overflow */
    PV_CHECK_EQ(ctx.err_code, PV_ENOMEM);
    pv_err_clear(&ctx);
    pv_free(&ctx, a, cap * sizeof *a);
    PV_CHECK_EQ(ctx.mem_current, 0);
}

int main(void)
{
    test_mul_size();
    test_peak();
    test_limit();
    test_fault_injection();
    test_grow();
    return pv_test_result("core.test_mem");
}
