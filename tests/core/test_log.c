/*
 * Logging: the line format "[  12.345] r0/1 INFO  grid: message", level filtering, info
 * from rank 0 only unless --log-all-ranks, warnings from any rank, pv_warn_once, pv_msg,
 * located warnings, and progress bars (drawn only when enabled). stderr is redirected to a
 * file and read back.
 */
#define _POSIX_C_SOURCE 200809L
#include "pv_test.h"
#include "pvox/core.h"

#include <stdlib.h>
#include <unistd.h>

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    static char buf[8192];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

/* Replace the "[%8.3f]" time stamps by "[T]" so the text compares exactly. */
static void untime(char *s)
{
    char *r = s, *w = s;
    while (*r) {
        if (*r == '[' && strlen(r) >= 10 && r[9] == ']' && r[5] == '.') {
            memcpy(w, "[T]", 3);
            w += 3;
            r += 10;
        } else {
            *w++ = *r++;
        }
    }
    *w = '\0';
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    pv_options opt;
    pv_options_default(&opt);
    opt.log_level = PV_LOG_INFO; /* as with -v */
    pv_ctx *ctx = pv_ctx_create(MPI_COMM_SELF, &opt);
    PV_CHECK(ctx != NULL);
    if (!ctx) return 1;
    char path[64];
    snprintf(path, sizeof path, "/tmp/pv_log_%ld.txt", (long)getpid());
    FILE *saved = fdopen(dup(fileno(stderr)), "w");
    PV_CHECK(freopen(path, "w", stderr) != NULL);

    pv_log(ctx, PV_LOG_INFO, "grid", "filled %d voxels", 5);
    pv_log(ctx, PV_LOG_DEBUG, "grid", "not shown at level INFO");
    pv_warn_once(ctx, 3, "said once");
    pv_warn_once(ctx, 3, "said once");
    pv_msg(ctx, "plain %s\n", "text");
    pv_warn_at(ctx, "a.gp", "set grid\n", 9, 1, 4, "%s is not drawn", "grid");
    ctx->rank = 1; /* pretend to be another rank */
    pv_log(ctx, PV_LOG_INFO, "grid", "dropped: info from rank 1");
    pv_log(ctx, PV_LOG_WARN, "io", "warnings come from any rank");
    pv_msg(ctx, "dropped: pv_msg from rank 1\n");
    ctx->opt.log_all_ranks = true;
    pv_log(ctx, PV_LOG_INFO, "grid", "info from rank 1 with --log-all-ranks");
    ctx->rank = 0;
    ctx->opt.log_level = PV_LOG_WARN; /* -q */
    pv_log(ctx, PV_LOG_INFO, "grid", "dropped by -q");
    pv_progress bar;
    pv_progress_begin(ctx, &bar, "fill", 10); /* progress off: draws nothing */
    pv_progress_update(ctx, &bar, 5);
    pv_progress_end(ctx, &bar);
    fflush(stderr);
    char *got = slurp(path);
    PV_CHECK(got != NULL);
    if (got) {
        untime(got);
        PV_CHECK_STR(got, "[T] r0/1 INFO  grid: filled 5 voxels\n"
                          "pvox: warning: said once\n"
                          "plain text\n"
                          "a.gp:1:5: warning: grid is not drawn\nset grid\n    ^\n"
                          "[T] r1/1 WARN  io: warnings come from any rank\n"
                          "[T] r1/1 INFO  grid: info from rank 1 with --log-all-ranks\n");
    }
    /* progress on: a bar that ends at 100% with a newline */
    PV_CHECK(freopen(path, "w", stderr) != NULL);
    ctx->opt.progress = true;
    pv_progress_begin(ctx, &bar, "fill", 10);
    for (int i = 1; i <= 10; i++) pv_progress_update(ctx, &bar, i);
    pv_progress_end(ctx, &bar);
    fflush(stderr);
    got = slurp(path);
    PV_CHECK(got && strstr(got, "\rfill         [") == got);
    PV_CHECK(got && strstr(got, "] 100%") != NULL);
    PV_CHECK(got && got[strlen(got) - 1] == '\n');
    remove(path);

    /* back to the real stderr for the verdict */
    if (saved) {
        dup2(fileno(saved), fileno(stderr));
        fclose(saved);
    }
    pv_ctx_destroy(ctx);
    MPI_Finalize();
    return pv_test_result("core.test_log");
}
