/*
 * Data read a piece at a time by rank 0 and broadcast (pvox/instream.h), at 1-4 ranks:
 * - every rank gets the file's bytes, in pieces of any size (PVOX_DATA_PIECE), with the
 *   end marked by an empty piece; a second pass after pv_instream_restart reads them again;
 * - a pass that every rank ends early (a reader that has seen enough) and one that only
 *   the last rank ends early with an error: the others learn it at their next piece, with
 *   that rank's message, and nobody waits for a broadcast;
 * - "< command" reads the command's output (run once, then read twice);
 * - a missing file (flagged missing), a directory (not missing) fail on every rank alike.
 */
#define _POSIX_C_SOURCE 200809L
#include "pv_test.h"
#include "pvox/instream.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Read one whole pass; returns the bytes (malloc'd) and their count. */
static char *read_pass(pv_instream *s, size_t *len, int *npieces)
{
    char *all = malloc(1);
    size_t n = 0;
    *npieces = 0;
    for (;;) {
        const char *p;
        size_t got;
        PV_CHECK_EQ(pv_instream_next(s, &p, &got), PV_OK);
        if (got == 0) break;
        all = realloc(all, n + got + 1);
        memcpy(all + n, p, got);
        n += got;
        ++*npieces;
    }
    all[n] = '\0';
    *len = n;
    return all;
}

static void test_pieces(pv_ctx *ctx, const char *path, const char *want, size_t wlen)
{
    const char *sizes[] = {"1", "3", "7", "64", "100000"};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        setenv("PVOX_DATA_PIECE", sizes[k], 1);
        bool missing = true;
        pv_instream *s = pv_instream_open(ctx, path, false, &missing);
        PV_CHECK(s != NULL);
        PV_CHECK(!missing);
        if (!s) continue;
        for (int pass = 0; pass < 2; pass++) {
            size_t n;
            int np;
            char *got = read_pass(s, &n, &np);
            PV_CHECK_EQ(n, wlen);
            PV_CHECK(memcmp(got, want, wlen) == 0);
            size_t piece = (size_t)atoi(sizes[k]);
            PV_CHECK_EQ((size_t)np, (wlen + piece - 1) / piece);
            free(got);
            PV_CHECK_EQ(pv_instream_restart(s, PV_OK), PV_OK);
        }
        pv_instream_close(s);
    }
    unsetenv("PVOX_DATA_PIECE");
}

static void test_early_stops(pv_ctx *ctx, const char *path)
{
    setenv("PVOX_DATA_PIECE", "5", 1);
    pv_instream *s = pv_instream_open(ctx, path, false, NULL);
    PV_CHECK(s != NULL);
    if (!s) return;
    const char *p;
    size_t n;
    /* everybody stops after two pieces, on purpose */
    PV_CHECK_EQ(pv_instream_next(s, &p, &n), PV_OK);
    PV_CHECK_EQ(pv_instream_next(s, &p, &n), PV_OK);
    PV_CHECK_EQ(pv_instream_restart(s, PV_EEXIT), PV_OK);
    /* the last rank fails at its first piece; the others read on */
    int bad = ctx->nranks - 1;
    pv_status st = PV_OK;
    int pieces = 0;
    if (ctx->rank == bad) {
        PV_CHECK_EQ(pv_instream_next(s, &p, &n), PV_OK);
        PV_CHECK_EQ(n, (size_t)5);
        st = pv_instream_restart(s, pv_err(ctx, PV_ESCRIPT, "rank %d: bad row", bad));
    } else {
        while ((st = pv_instream_next(s, &p, &n)) == PV_OK && n > 0) pieces++;
        PV_CHECK_EQ(pieces, 1); /* the piece before the failure was heard of */
        PV_CHECK_EQ(pv_instream_restart(s, st), PV_OK);
    }
    PV_CHECK_EQ(st, PV_ESCRIPT);
    char want[64];
    snprintf(want, sizeof want, "rank %d: bad row", bad);
    PV_CHECK_STR(ctx->err_msg, want);
    pv_err_clear(ctx);
    /* after the failure the stream reads from the start again */
    PV_CHECK_EQ(pv_instream_next(s, &p, &n), PV_OK);
    PV_CHECK(n == 5 && memcmp(p, "line ", 5) == 0);
    PV_CHECK_EQ(pv_instream_restart(s, PV_OK), PV_OK);
    pv_instream_close(s);
    unsetenv("PVOX_DATA_PIECE");
}

static void test_command(pv_ctx *ctx)
{
    pv_instream *s = pv_instream_open(ctx, "printf 'a b\\n'; exit 3", true, NULL);
    PV_CHECK(s != NULL);
    if (!s) return;
    for (int pass = 0; pass < 2; pass++) {
        size_t n;
        int np;
        char *got = read_pass(s, &n, &np);
        PV_CHECK_STR(got, "a b\n");
        free(got);
        PV_CHECK_EQ(pv_instream_restart(s, PV_OK), PV_OK);
    }
    pv_instream_close(s);
}

static void test_failures(pv_ctx *ctx)
{
    bool missing = false;
    PV_CHECK(pv_instream_open(ctx, "/nonexistent/x.dat", false, &missing) == NULL);
    PV_CHECK(missing);
    PV_CHECK_STR(ctx->err_msg, "cannot open '/nonexistent/x.dat': No such file or directory");
    pv_err_clear(ctx);
    PV_CHECK(pv_instream_open(ctx, "/", false, &missing) == NULL);
    PV_CHECK(!missing);
    PV_CHECK_STR(ctx->err_msg, "\"/\" is a directory");
    pv_err_clear(ctx);
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
    char path[64];
    snprintf(path, sizeof path, "/tmp/pv_instream_%ld.txt", (long)getpid());
    if (ctx) {
        MPI_Bcast(path, sizeof path, MPI_CHAR, 0, ctx->comm);
        const char text[] = "line one\nline two\n\n\nend without newline";
        if (ctx->rank == 0) {
            FILE *f = fopen(path, "wb");
            PV_CHECK(f != NULL);
            if (f) fwrite(text, 1, sizeof text - 1, f), fclose(f);
        }
        MPI_Barrier(ctx->comm);
        test_pieces(ctx, path, text, sizeof text - 1);
        test_early_stops(ctx, path);
        test_command(ctx);
        test_failures(ctx);
        MPI_Barrier(ctx->comm);
        if (ctx->rank == 0) unlink(path);
    }
    int mine = pv_test_failures, total = 0, rank = 0;
    MPI_Allreduce(&mine, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    pv_ctx_destroy(ctx);
    MPI_Finalize();
    if (mine) fprintf(stderr, "rank %d: %d failed checks\n", rank, mine);
    if (rank == 0) return pv_test_result("core.test_instream_mpi") || total ? 1 : 0;
    return total ? 1 : 0;
}
