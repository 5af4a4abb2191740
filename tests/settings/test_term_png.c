/*
 * Tests for `set term png|pngcairo ... compression N filter F` (a pvox extension, README
 * "Plotting"): parsed in check mode (nothing changes) and exec mode, kept when the same
 * terminal is set again and reset when the type changes or by `unset term`, the range of
 * N checked when run with a located error, an unknown filter a located syntax error in
 * check mode, other terminal options still working beside them, and `show term` printing
 * them only when not default.
 */
#include "settings_harness.h"

#include <stdlib.h>
#include <string.h>

/* Check mode first: it must accept the text and change nothing; then exec. */
static pv_status run(pv_settings *s, const char *text)
{
    int level = s->term.png_level, filter = s->term.png_filter;
    pv_status st = run_mode(s, text, false, NULL);
    PV_CHECK(s->term.png_level == level && s->term.png_filter == filter);
    if (st != PV_OK) return st;
    return run_mode(s, text, true, NULL);
}

/* `show term` into a malloc'd string. */
static char *show_term(pv_settings *s)
{
    FILE *f = tmpfile();
    PV_CHECK_EQ(run_mode(s, "show term", true, f), PV_OK);
    long n = ftell(f);
    char *buf = calloc((size_t)(n > 0 ? n : 0) + 1, 1);
    rewind(f);
    if (n > 0 && fread(buf, 1, (size_t)n, f) != (size_t)n) buf[0] = '\0';
    fclose(f);
    return buf;
}

static void test_parse(void)
{
    pv_settings *s = pv_settings_create(ctx);
    PV_CHECK_EQ(s->term.png_level, -1);
    PV_CHECK_EQ(s->term.png_filter, PV_PNGF_DEFAULT);

    PV_CHECK_EQ(run(s, "set term pngcairo size 320,200 compression 9 filter paeth font ',9'"),
                PV_OK);
    PV_CHECK_EQ(s->term.kind, PV_TERM_PNGCAIRO);
    PV_CHECK(s->term.width == 320 && s->term.height == 200);
    PV_CHECK_NEAR(s->term.font_size, 9, 0);
    PV_CHECK_EQ(s->term.png_level, 9);
    PV_CHECK_EQ(s->term.png_filter, PV_PNGF_PAETH);

    /* the same terminal again keeps them, like its other options; a new value replaces */
    PV_CHECK_EQ(run(s, "set term pngcairo enhanced"), PV_OK);
    PV_CHECK(s->term.png_level == 9 && s->term.png_filter == PV_PNGF_PAETH);
    PV_CHECK_EQ(s->term.width, 320);
    PV_CHECK_EQ(run(s, "set term pngcairo filter up compr 0"), PV_OK);
    PV_CHECK(s->term.png_level == 0 && s->term.png_filter == PV_PNGF_UP);

    /* every filter name, in the enum's order */
    static const char *names[] = {"none", "sub", "up", "average", "paeth", "adaptive"};
    for (int i = 0; i < 6; i++) {
        char cmd[80];
        snprintf(cmd, sizeof cmd, "set term pngcairo filter %s", names[i]);
        PV_CHECK_EQ(run(s, cmd), PV_OK);
        PV_CHECK_EQ(s->term.png_filter, PV_PNGF_NONE + i);
    }

    /* an expression for N, as for the other numeric options */
    PV_CHECK_EQ(run(s, "set term pngcairo compression 2*3"), PV_OK);
    PV_CHECK_EQ(s->term.png_level, 6);

    /* another terminal type starts from its defaults; png takes the options too */
    PV_CHECK_EQ(run(s, "set term png"), PV_OK);
    PV_CHECK(s->term.kind == PV_TERM_PNG && s->term.png_level == -1 &&
             s->term.png_filter == PV_PNGF_DEFAULT);
    PV_CHECK_EQ(run(s, "set term png x000000 xffffff compression 1 filter sub truecolor"),
                PV_OK);
    PV_CHECK(s->term.png_level == 1 && s->term.png_filter == PV_PNGF_SUB && s->term.truecolor);
    PV_CHECK_EQ(run(s, "unset term"), PV_OK);
    PV_CHECK(s->term.kind == PV_TERM_PNGCAIRO && s->term.png_level == -1 &&
             s->term.png_filter == PV_PNGF_DEFAULT);

    /* `reset` keeps the terminal (gnuplot's `help reset`) */
    PV_CHECK_EQ(run(s, "set term pngcairo compression 3"), PV_OK);
    pv_settings_reset(s);
    PV_CHECK_EQ(s->term.png_level, 3);
    pv_settings_destroy(s);
}

static void test_errors(void)
{
    pv_settings *s = pv_settings_create(ctx);
    PV_CHECK_EQ(run(s, "set term pngcairo compression 5 filter sub"), PV_OK);
    expect_error(s, "set term pngcairo compression 12", "compression level must be between 0 "
                 "and 9", "t.gp:1:31", false);
    expect_error(s, "set term png compression -1", "compression level must be between 0 and 9",
                 "t.gp:1:26", false);
    expect_error(s, "set term pngcairo filter best", "expecting none, sub, up, average, "
                 "paeth or adaptive", "t.gp:1:26", true);
    expect_error(s, "set term pngcairo filter", "expecting none, sub, up, average, paeth or "
                 "adaptive", "t.gp:1:", true);
    expect_error(s, "set term pngcairo compression", "", "t.gp:1:", true);
    /* a failed `set term` changes nothing */
    PV_CHECK(s->term.png_level == 5 && s->term.png_filter == PV_PNGF_SUB);
    pv_settings_destroy(s);
}

static void test_show(void)
{
    pv_settings *s = pv_settings_create(ctx);
    char *buf = show_term(s);
    PV_CHECK(strstr(buf, "size 640, 480 \n") != NULL);
    PV_CHECK(strstr(buf, "compression") == NULL && strstr(buf, "filter") == NULL);
    free(buf);
    PV_CHECK_EQ(run(s, "set term pngcairo compression 9 filter paeth"), PV_OK);
    buf = show_term(s);
    PV_CHECK(strstr(buf, "size 640, 480 compression 9 filter paeth \n") != NULL);
    free(buf);
    PV_CHECK_EQ(run(s, "set term pngcairo filter adaptive; set term png; set term png filter "
                       "none"),
                PV_OK);
    buf = show_term(s);
    PV_CHECK(strstr(buf, "terminal type is png ") != NULL);
    PV_CHECK(strstr(buf, "size 640, 480 filter none \n") != NULL);
    PV_CHECK(strstr(buf, "compression") == NULL);
    free(buf);
    pv_settings_destroy(s);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    pv_options opt;
    memset(&opt, 0, sizeof opt);
    opt.log_level = PV_LOG_WARN;
    ctx = pv_ctx_create(MPI_COMM_WORLD, &opt);
    env = pv_env_create(ctx);
    if (!ctx || !env) {
        fprintf(stderr, "cannot create context\n");
        MPI_Finalize();
        return 1;
    }
    test_parse();
    test_errors();
    test_show();
    int rc = pv_test_result("test_term_png");
    pv_env_destroy(env);
    pv_ctx_destroy(ctx);
    MPI_Finalize();
    return rc;
}
