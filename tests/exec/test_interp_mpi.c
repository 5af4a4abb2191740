/*
 * SPMD interpreter test: the same script at 1..N ranks gives the same state on every rank
 * (printed lines collected in a datablock, which every rank updates), and an error that
 * happens on one rank only (rank 0 opening an output file) is agreed: every rank returns
 * the same status with the message.
 */
#define _POSIX_C_SOURCE 200809L
#include "exec_int.h"
#include "pv_test.h"

#include <stdlib.h>
#include <string.h>

static const char *const script =
    "set print $out\n"
    "f(x) = x > 0 ? 1/x : 10**6\n"
    "$d << EOD\n1 2\n3 4\nEOD\n"
    "s = 0\n"
    "do for [i=1:10] { s = s + i; if (i % 3 == 0) { print i, s } }\n"
    "v = \"f(2.)\"\n"
    "print @v, f(0), gprintf('%02g', 5)\n"
    "set table $t\nplot $d using 1:($2*10) with table\nunset table\n"
    "print $t\n"
    "n = 0; while (n < 3) { n = n + 1 }\n"
    "print n\n";

/* FNV-1a over the lines, so ranks can compare with one reduction. */
static uint64_t hash_lines(char **lines, size_t n)
{
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++) {
        for (const char *p = lines[i]; *p; p++) h = (h ^ (unsigned char)*p) * 1099511628211ull;
        h = (h ^ '\n') * 1099511628211ull;
    }
    return h;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    pv_options opt = {0};
    opt.quiet = true;
    pv_ctx *ctx = pv_ctx_create(MPI_COMM_WORLD, &opt);

    /* same output everywhere */
    pv_interp *I = pv_interp_create(ctx);
    pv_status st = pv_interp_run_text(I, "job.gp", script, strlen(script));
    PV_CHECK_EQ(st, PV_OK);
    size_t n = 0;
    char **lines = pv_env_get_datablock(I->env, "$out", &n);
    PV_CHECK_EQ(n, 8);
    if (n >= 1) PV_CHECK_STR(lines[0], "3 6");
    if (n >= 4) PV_CHECK_STR(lines[3], "0.5 1000000 05");
    if (n >= 5) PV_CHECK_STR(lines[4], " 1 \t 20");
    uint64_t h = lines ? hash_lines(lines, n) : 0, hmin, hmax;
    MPI_Allreduce(&h, &hmin, 1, MPI_UINT64_T, MPI_MIN, ctx->comm);
    MPI_Allreduce(&h, &hmax, 1, MPI_UINT64_T, MPI_MAX, ctx->comm);
    PV_CHECK(hmin == hmax);
    pv_interp_destroy(I);

    /* an error on rank 0 only (it alone opens the file) is agreed by every rank */
    pv_err_clear(ctx);
    I = pv_interp_create(ctx);
    const char *bad = "print 1\nset print \"/nonexistent-dir/x.txt\"\nprint 2\n";
    st = pv_interp_run_text(I, "bad.gp", bad, strlen(bad));
    PV_CHECK_EQ(st, PV_EIO);
    PV_CHECK(ctx->err_msg && strstr(ctx->err_msg, "bad.gp:2:11: error: cannot open"));
    int s = (int)st, smin, smax;
    MPI_Allreduce(&s, &smin, 1, MPI_INT, MPI_MIN, ctx->comm);
    MPI_Allreduce(&s, &smax, 1, MPI_INT, MPI_MAX, ctx->comm);
    PV_CHECK(smin == smax);
    pv_interp_destroy(I);

    /* exit status is the same everywhere */
    pv_err_clear(ctx);
    I = pv_interp_create(ctx);
    const char *ex = "do for [i=1:5] { if (i == 2) { exit status 4 } }\n";
    st = pv_interp_run_text(I, "exit.gp", ex, strlen(ex));
    PV_CHECK_EQ(st, PV_EEXIT);
    PV_CHECK_EQ(ctx->exit_code, 4);
    pv_interp_destroy(I);

    pv_ctx_destroy(ctx);
    int fails = pv_test_failures, total;
    MPI_Allreduce(&fails, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    int rc = pv_test_result("exec_interp_mpi");
    MPI_Finalize();
    return total ? 1 : rc;
}
