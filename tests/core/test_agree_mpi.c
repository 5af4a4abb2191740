/*
 * Collective error agreement and file broadcast, run at 1, 2, 3 and 4 ranks:
 * - all ranks OK: agreement is OK and records nothing;
 * - one rank fails: every rank gets its status and its message (so rank 0 can print it);
 * - two ranks fail differently: the worst status wins, the lowest failing rank's message
 *   is the one everybody gets;
 * - `exit` agreement carries the script's exit code;
 * - rank 0 reads a file (with NUL bytes, bigger than one read) and every rank receives
 *   the same bytes; an empty file; a missing file gives the same PV_EIO message everywhere.
 * Every rank reaches the same verdict (the failure count is reduced), so nothing hangs.
 */
#define _POSIX_C_SOURCE 200809L
#include "pv_test.h"
#include "pvox/core.h"

#include <stdlib.h>
#include <unistd.h>

static void test_all_ok(pv_ctx *ctx)
{
    PV_CHECK_EQ(pv_status_agree(ctx, PV_OK), PV_OK);
    PV_CHECK_EQ(ctx->err_code, PV_OK);
    PV_CHECK(ctx->err_msg == NULL);
}

static void test_one_fails(pv_ctx *ctx)
{
    int bad = ctx->nranks - 1;
    pv_status st = PV_OK;
    if (ctx->rank == bad) st = pv_err(ctx, PV_EIO, "rank %d: cannot open 'x.dat'", bad);
    PV_CHECK_EQ(pv_status_agree(ctx, st), PV_EIO);
    PV_CHECK_EQ(ctx->err_code, PV_EIO);
    char want[64];
    snprintf(want, sizeof want, "rank %d: cannot open 'x.dat'", bad);
    PV_CHECK_STR(ctx->err_msg, want);
    PV_CHECK(!ctx->err_located);
    pv_err_clear(ctx);
}

static void test_two_fail(pv_ctx *ctx)
{
    if (ctx->nranks < 3) return;
    pv_status st = PV_OK;
    const char *src = "print\tpotx\n";
    if (ctx->rank == 1)
        st = pv_diag_at(ctx, PV_ENOMEM, "job.gp", src, strlen(src), 1, 6, "from rank 1");
    if (ctx->rank == 2) st = pv_err(ctx, PV_ESCRIPT, "from rank 2");
    PV_CHECK_EQ(pv_status_agree(ctx, st), PV_ESCRIPT); /* worst: ESCRIPT > ENOMEM */
    PV_CHECK_STR(ctx->err_msg, "job.gp:1:7: error: from rank 1\nprint\tpotx\n     \t^");
    PV_CHECK(ctx->err_located);
    pv_err_clear(ctx);
}

static void test_failure_without_message(pv_ctx *ctx)
{
    pv_status st = ctx->rank == 0 ? PV_EHDF5 : PV_OK;
    PV_CHECK_EQ(pv_status_agree(ctx, st), PV_EHDF5);
    PV_CHECK_STR(ctx->err_msg, "HDF5 error");
    pv_err_clear(ctx);
}

static void test_exit(pv_ctx *ctx)
{
    ctx->exit_code = 42;
    PV_CHECK_EQ(pv_status_agree(ctx, PV_EEXIT), PV_EEXIT);
    PV_CHECK_EQ(ctx->exit_code, 42);
    pv_err_clear(ctx);
    ctx->exit_code = 0;
}

static void test_bcast_file(pv_ctx *ctx)
{
    /* rank 0 writes the file; the other ranks never look at the path */
    char path[64] = "/nonexistent";
    size_t n = 3 * 65536 + 17;
    if (ctx->rank == 0) {
        snprintf(path, sizeof path, "/tmp/pv_agree_%ld.bin", (long)getpid());
        FILE *f = fopen(path, "wb");
        PV_CHECK(f != NULL);
        for (size_t i = 0; f && i < n; i++) fputc((int)((i * 7) % 256), f);
        if (f) fclose(f);
    }
    char *data = NULL;
    size_t len = 0;
    PV_CHECK_EQ(pv_read_file_bcast(ctx, path, &data, &len), PV_OK);
    PV_CHECK_EQ(len, n);
    int same = data != NULL && data[n] == '\0';
    for (size_t i = 0; same && i < n; i++) same = (unsigned char)data[i] == (i * 7) % 256;
    PV_CHECK(same);
    free(data);
    if (ctx->rank == 0) {
        FILE *f = fopen(path, "wb"); /* now empty */
        if (f) fclose(f);
    }
    PV_CHECK_EQ(pv_read_file_bcast(ctx, path, &data, &len), PV_OK);
    PV_CHECK_EQ(len, 0);
    PV_CHECK(data != NULL && data[0] == '\0');
    free(data);
    if (ctx->rank == 0) remove(path);
}

static void test_missing_file(pv_ctx *ctx)
{
    char *data = (char *)1;
    size_t len = 99;
    PV_CHECK_EQ(pv_read_file_bcast(ctx, "/nonexistent/job.gp", &data, &len), PV_EIO);
    PV_CHECK(data == NULL);
    PV_CHECK_EQ(len, 0);
    PV_CHECK_EQ(ctx->err_code, PV_EIO);
    PV_CHECK_STR(ctx->err_msg, "cannot open '/nonexistent/job.gp': No such file or directory");
    pv_err_clear(ctx);
    /* a directory opens but does not read */
    PV_CHECK_EQ(pv_read_file_bcast(ctx, "/", &data, &len), PV_EIO);
    PV_CHECK(ctx->err_msg && strstr(ctx->err_msg, "cannot read '/'") == ctx->err_msg);
    pv_err_clear(ctx);
}

static void test_bcast_bytes(pv_ctx *ctx)
{
    char *buf = NULL;
    size_t len = 0;
    if (ctx->rank == 0) {
        buf = malloc(6);
        memcpy(buf, "hello", 6);
        len = 5;
    }
    PV_CHECK_EQ(pv_bcast_bytes(ctx, &buf, &len), PV_OK);
    PV_CHECK_EQ(len, 5);
    PV_CHECK_STR(buf, "hello");
    free(buf);
}

int main(int argc, char **argv)
{
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    pv_options opt;
    pv_options_default(&opt);
    opt.log_level = PV_LOG_WARN;
    pv_ctx *ctx = pv_ctx_create(MPI_COMM_WORLD, &opt);
    PV_CHECK(ctx != NULL);
    if (ctx) {
        int world;
        MPI_Comm_size(MPI_COMM_WORLD, &world);
        PV_CHECK_EQ(ctx->nranks, world);
        PV_CHECK(ctx->comm != MPI_COMM_WORLD);
        test_all_ok(ctx);
        test_one_fails(ctx);
        test_two_fail(ctx);
        test_failure_without_message(ctx);
        test_exit(ctx);
        test_bcast_file(ctx);
        test_missing_file(ctx);
        test_bcast_bytes(ctx);
        test_all_ok(ctx);
    }
    int mine = pv_test_failures, total = 0, rank = 0;
    MPI_Allreduce(&mine, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    pv_ctx_destroy(ctx);
    MPI_Finalize();
    if (mine) fprintf(stderr, "rank %d: %d failed checks\n", rank, mine);
    if (rank == 0) return pv_test_result("core.test_agree_mpi") || total ? 1 : 0;
    return total ? 1 : 0;
}
