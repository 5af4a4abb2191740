/*
 * Progress lines (core/progress.c): the text of pv_progress_format at chosen times, so no
 * terminal and no clock are involved: label, bar, percentage, done/total, rate with its
 * unit word, time left in seconds, minutes and hours, the final "in X s", byte amounts in
 * KiB..GiB, no rate before any unit is done, truncation to the buffer; then drawing into a
 * file: one line ended by a newline, a shorter line padded over a longer one,
 * pv_progress_stop ending where the bar stood, nothing drawn on other ranks.
 */
#define _POSIX_C_SOURCE 200809L
#include "pv_test.h"
#include "pvox/core.h"

#include <stdlib.h>
#include <unistd.h>

static pv_progress bar(const char *label, const char *units, int64_t total)
{
    pv_progress p;
    memset(&p, 0, sizeof p);
    p.label = label;
    p.units = units;
    p.total = total;
    p.t_begin = 10.0;
    return p;
}

static void check_line(const pv_progress *p, int64_t done, double now, const char *want)
{
    char buf[256];
    size_t n = pv_progress_format(buf, sizeof buf, p, done, now);
    PV_CHECK_STR(buf, want);
    PV_CHECK_EQ(n, strlen(want));
}

static void test_format(void)
{
    pv_progress p = bar("frames", "frames", 100);
    /* 12 frames in 12/3.4 s: 3.4 frames/s, 88 left take 25.9 s */
    check_line(&p, 12, 10.0 + 12 / 3.4,
               "frames       [###                           ]  12%   12/100  3.4 frames/s  "
               "26 s left");
    check_line(&p, 0, 10.5, "frames       [                              ]   0%    0/100");
    check_line(&p, 5, 10.0, "frames       [#                             ]   5%    5/100");
    check_line(&p, 100, 30.0,
               "frames       [##############################] 100%  100/100  5.0 frames/s  "
               "in 20 s");
    check_line(&p, 150, 30.0, /* clamped to the total */
               "frames       [##############################] 100%  100/100  5.0 frames/s  "
               "in 20 s");
    /* minutes and hours left; slow and fast rates */
    pv_progress q = bar("fill", "planes", 1000);
    check_line(&q, 1, 11.0,
               "fill         [                              ]   0%     1/1000  1.0 planes/s  "
               "16 min 39 s left");
    check_line(&q, 1, 110.0,
               "fill         [                              ]   0%     1/1000  0.01 planes/s  "
               "27 h 45 min left");
    check_line(&q, 999, 10.5,
               "fill         [############################# ]  99%   999/1000  1998 planes/s  "
               "0 s left");
    /* no unit word; a label longer than 12 characters is cut */
    pv_progress r = bar("isosurface extraction", NULL, 8);
    check_line(&r, 4, 12.0, "isosurface e [###############               ]  50%  4/8  2.0/s  2 s left");
    /* bytes: amounts and rate in binary units */
    pv_progress b = bar("save grids", "bytes", (int64_t)4 << 30);
    check_line(&b, (int64_t)1 << 30, 12.0,
               "save grids   [#######                       ]  25%  1.0/4.0 GiB  512 MiB/s  "
               "6 s left");
    pv_progress s = bar("save grids", "bytes", 1000);
    check_line(&s, 1000, 11.0,
               "save grids   [##############################] 100%  1000/1000 B  1000 B/s  in 1 s");
    /* truncation: always NUL-terminated, length below the buffer size */
    char small[10];
    PV_CHECK_EQ(pv_progress_format(small, sizeof small, &p, 12, 12.0), 9);
    PV_CHECK_STR(small, "frames   ");
    PV_CHECK_EQ(pv_progress_format(small, 0, &p, 12, 12.0), 0);
}

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

static bool starts(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

static void test_draw(pv_ctx *ctx, const char *path)
{
    PV_CHECK(freopen(path, "w", stderr) != NULL);
    ctx->opt.progress = true;
    pv_progress p;
    pv_progress_begin_units(ctx, &p, "frames", 3, "frames");
    PV_CHECK(p.active);
    pv_progress_update(ctx, &p, 1);
    pv_progress_end(ctx, &p);
    PV_CHECK(!p.active);
    pv_progress_end(ctx, &p); /* a second end draws nothing */
    /* an old-style bar: no unit word */
    pv_progress_begin(ctx, &p, "fill", 10);
    PV_CHECK(p.units == NULL);
    pv_progress_update(ctx, &p, 4);
    pv_progress_stop(ctx, &p);
    /* another rank draws nothing */
    ctx->rank = 1;
    pv_progress_begin_units(ctx, &p, "hidden", 3, "frames");
    PV_CHECK(!p.active);
    pv_progress_end(ctx, &p);
    ctx->rank = 0;
    fflush(stderr);
    char *got = slurp(path);
    PV_CHECK(got != NULL);
    if (!got) return;
    /* two lines, each drawn with '\r' and ended once */
    char *nl = strchr(got, '\n');
    PV_CHECK(got[0] == '\r' && nl != NULL);
    if (!nl) return;
    *nl = '\0';
    const char *last = strrchr(got, '\r');
    PV_CHECK(starts(last, "\rframes       [##############################] 100%  3/3  "));
    PV_CHECK(strstr(last, " frames/s  in ") != NULL);
    char *second = nl + 1;
    PV_CHECK(second[0] == '\r' && second[strlen(second) - 1] == '\n');
    PV_CHECK(strstr(second, "\rfill         [            ") != NULL);
    const char *stop = strrchr(second, '\r');
    /* stopped where it stood, not at 100% */
    PV_CHECK(starts(stop, "\rfill         [############                  ]  40%   4/10  "));
    PV_CHECK(strstr(got, "hidden") == NULL && strstr(second, "hidden") == NULL);
    /* padding: every redraw of a bar is at least as long as the one before */
    size_t prev = 0;
    for (char *q = second; (q = strchr(q, '\r')) != NULL; q++) {
        size_t len = strcspn(q + 1, "\r\n");
        PV_CHECK(len >= prev);
        prev = len;
    }
}

int main(int argc, char **argv)
{
    test_format();

    MPI_Init(&argc, &argv);
    pv_options opt;
    pv_options_default(&opt);
    pv_ctx *ctx = pv_ctx_create(MPI_COMM_SELF, &opt);
    PV_CHECK(ctx != NULL);
    if (ctx) {
        char path[64];
        snprintf(path, sizeof path, "/tmp/pv_progress_%ld.txt", (long)getpid());
        FILE *saved = fdopen(dup(fileno(stderr)), "w");
        test_draw(ctx, path);
        remove(path);
        if (saved) {
            dup2(fileno(saved), fileno(stderr));
            fclose(saved);
        }
        pv_ctx_destroy(ctx);
    }
    MPI_Finalize();
    return pv_test_result("core.test_progress");
}
