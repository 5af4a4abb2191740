/*
 * Diagnostics: "name:line:col: error: msg", the source line, and a caret line that keeps
 * tabs so the caret lines up; line/column arithmetic (1-based byte columns) over
 * multi-line text, offsets at the ends, CRLF, UTF-8; first-error-wins; exit codes.
 * No MPI needed: the context is built by hand.
 */
#include "pv_test.h"
#include "pvox/core.h"

#include <stdlib.h>

static void check_fmt(const char *text, size_t off, int first_line, const char *want)
{
    char *got = pv_diag_format("job.gp", text, strlen(text), first_line, off, "error", "boom");
    PV_CHECK_STR(got, want);
    free(got);
}

static void test_format(void)
{
    /* first line, first column */
    check_fmt("print potx\n", 0, 1, "job.gp:1:1: error: boom\nprint potx\n^");
    /* the README's example: line 12, column 9 */
    const char *t = "a=1\nb=2\nc=3\nd=4\ne=5\nf=6\ng=7\nh=8\ni=9\nj=10\nk=11\n"
                    "print   potx\n";
    size_t off = (size_t)(strstr(t, "potx") - t);
    check_fmt(t, off, 1,
              "job.gp:12:9: error: boom\nprint   potx\n        ^");
    /* tabs stay tabs in the caret line */
    check_fmt("x = 1\n\tprint\t\tfoo\n", 14, 1,
              "job.gp:2:9: error: boom\n\tprint\t\tfoo\n\t     \t\t^");
    /* a tab at the error itself */
    check_fmt("\tfoo\n", 0, 1, "job.gp:1:1: error: boom\n\tfoo\n^");
    /* first_line offsets the count (text from inside a datablock or -e) */
    check_fmt("one\ntwo three\n", 8, 40, "job.gp:41:5: error: boom\ntwo three\n    ^");
    /* no trailing newline; offset past the end is clamped to the end */
    check_fmt("abc", 3, 1, "job.gp:1:4: error: boom\nabc\n   ^");
    check_fmt("abc", 99, 1, "job.gp:1:4: error: boom\nabc\n   ^");
    /* end of text that ends in a newline: shown at the end of the last line */
    check_fmt("set x\nplot (\n", 13, 1, "job.gp:2:7: error: boom\nplot (\n      ^");
    /* CRLF line ends: the \r is not printed */
    check_fmt("a\r\nbb cc\r\n", 6, 1, "job.gp:2:4: error: boom\nbb cc\n   ^");
    /* UTF-8: columns count bytes, the caret counts characters */
    check_fmt("print \"\xc3\xa9t\xc3\xa9\" + x\n", 14, 1,
              "job.gp:1:15: error: boom\nprint \"\xc3\xa9t\xc3\xa9\" + x\n      "
              "      ^");
    /* empty text */
    check_fmt("", 0, 1, "job.gp:1:1: error: boom\n\n^");
    /* warning kind, no text */
    char *w = pv_diag_format("a.gp", NULL, 0, 1, 0, "warning", "hm");
    PV_CHECK_STR(w, "a.gp: warning: hm");
    free(w);
}

static void test_locate(void)
{
    const char *t = "ab\ncd\n\nef";
    pv_loc loc;
    pv_locate(t, strlen(t), 1, 4, &loc);
    PV_CHECK_EQ(loc.line, 2);
    PV_CHECK_EQ(loc.col, 2);
    PV_CHECK_EQ(loc.line_start, 3);
    PV_CHECK_EQ(loc.line_len, 2);
    pv_locate(t, strlen(t), 1, 6, &loc); /* the empty line */
    PV_CHECK_EQ(loc.line, 3);
    PV_CHECK_EQ(loc.col, 1);
    PV_CHECK_EQ(loc.line_len, 0);
    pv_locate(t, strlen(t), 1, 2, &loc); /* the newline itself belongs to line 1 */
    PV_CHECK_EQ(loc.line, 1);
    PV_CHECK_EQ(loc.col, 3);
}

static void test_error_state(void)
{
    pv_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    pv_options_default(&ctx.opt);
    ctx.nranks = 1;
    ctx.rank = 1; /* not rank 0: nothing is printed */
    PV_CHECK_EQ(pv_err(&ctx, PV_EIO, "cannot open '%s': %s", "x.dat", "gone"), PV_EIO);
    PV_CHECK_STR(ctx.err_msg, "cannot open 'x.dat': gone");
    PV_CHECK(!ctx.err_located);
    /* the first error wins */
    PV_CHECK_EQ(pv_err(&ctx, PV_ENOMEM, "later"), PV_ENOMEM);
    PV_CHECK_EQ(ctx.err_code, PV_EIO);
    PV_CHECK_STR(ctx.err_msg, "cannot open 'x.dat': gone");
    /* locating a plain error at the command that caused it */
    const char *src = "vfill \"x.dat\" using 1:2:3:4:5\n";
    PV_CHECK_EQ(pv_err_locate(&ctx, "job.gp", src, strlen(src), 3, 6), PV_EIO);
    PV_CHECK_STR(ctx.err_msg, "job.gp:3:7: error: cannot open 'x.dat': gone\n"
                              "vfill \"x.dat\" using 1:2:3:4:5\n      ^");
    PV_CHECK(ctx.err_located);
    pv_err_clear(&ctx);
    PV_CHECK_EQ(ctx.err_code, PV_OK);
    PV_CHECK(ctx.err_msg == NULL);
    /* pv_diag_at */
    const char *s2 = "x = 1\nprint potx\n";
    PV_CHECK_EQ(pv_diag_at(&ctx, PV_ESCRIPT, "job.gp", s2, strlen(s2), 1, 12,
                           "undefined variable: %s", "potx"),
                PV_ESCRIPT);
    PV_CHECK_STR(ctx.err_msg,
                 "job.gp:2:7: error: undefined variable: potx\nprint potx\n      ^");
    PV_CHECK(ctx.err_located);
    pv_err_clear(&ctx);
}

static void test_exit_codes(void)
{
    PV_CHECK_EQ(pv_status_exit_code(PV_OK), 0);
    PV_CHECK_EQ(pv_status_exit_code(PV_ESYNTAX), 1);
    PV_CHECK_EQ(pv_status_exit_code(PV_ESCRIPT), 1);
    PV_CHECK_EQ(pv_status_exit_code(PV_ERANGE), 1);
    PV_CHECK_EQ(pv_status_exit_code(PV_EUSAGE), 2);
    PV_CHECK_EQ(pv_status_exit_code(PV_EIO), 3);
    PV_CHECK_EQ(pv_status_exit_code(PV_ENOMEM), 3);
    PV_CHECK_EQ(pv_status_exit_code(PV_EMPI), 3);
    PV_CHECK_EQ(pv_status_exit_code(PV_EINTERNAL), 3);
    PV_CHECK_EQ(pv_status_exit_code(PV_EEXIT), 0);
    for (int s = PV_OK; s <= PV_EUSAGE; s++) PV_CHECK(pv_status_str((pv_status)s)[0] != '\0');
}

/* The directory part of a path, as the output and checkpoint checks use it. */
static void test_path_dir(void)
{
    static const char *const cases[][2] = {
        {"a/b/c.png", "a/b"}, {"/c.png", "/"}, {"c.png", "."}, {"/x/y", "/x"}, {"d/", "d"}};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char *d = pv_path_dir(cases[i][0]);
        PV_CHECK(d != NULL);
        if (d) PV_CHECK_STR(d, cases[i][1]);
        free(d);
    }
}

int main(void)
{
    test_path_dir();
    test_format();
    test_locate();
    test_error_state();
    test_exit_codes();
    return pv_test_result("core.test_diag");
}
