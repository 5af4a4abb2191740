/*
 * Interpreter unit tests: small scripts run in one rank, their `print` output captured in
 * a datablock (`set print $out`) and compared with what gnuplot 5.4.4 prints for the same
 * script (each expected text was checked against `gnuplot`).
 */
#define _POSIX_C_SOURCE 200809L
#include "exec_int.h"
#include "pv_test.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static pv_ctx *ctx;

/* Run `script` in a fresh interpreter; returns the status and the printed lines joined by
 * '\n' in *out (malloc'd). */
static pv_status run(const char *script, char **out)
{
    pv_interp *I = pv_interp_create(ctx);
    pv_err_clear(ctx);
    size_t n = strlen(script) + 32;
    char *text = malloc(n);
    snprintf(text, n, "set print $out\n%s", script);
    pv_status st = pv_interp_run_text(I, "t.gp", text, strlen(text));
    free(text);
    size_t nl = 0, len = 0;
    char **lines = pv_env_get_datablock(I->env, "$out", &nl);
    for (size_t i = 0; i < nl; i++) len += strlen(lines[i]) + 1;
    *out = calloc(1, len + 1);
    for (size_t i = 0; i < nl; i++) {
        strcat(*out, lines[i]);
        if (i + 1 < nl) strcat(*out, "\n");
    }
    pv_interp_destroy(I);
    return st;
}

/* Run and compare the output; the status must be PV_OK. */
static void expect(const char *script, const char *want)
{
    char *got = NULL;
    pv_status st = run(script, &got);
    if (st != PV_OK) fprintf(stderr, "script failed: %s\n%s\n", script, ctx->err_msg);
    PV_CHECK_EQ(st, PV_OK);
    PV_CHECK_STR(got, want);
    free(got);
}

/* Run; expect status `code` and an error message starting with `prefix`. */
static void expect_error(const char *script, pv_status code, const char *prefix, const char *out)
{
    char *got = NULL;
    pv_status st = run(script, &got);
    PV_CHECK_EQ(st, code);
    const char *msg = ctx->err_msg ? ctx->err_msg : "";
    if (strncmp(msg, prefix, strlen(prefix)) != 0)
        fprintf(stderr, "message: %s\nwanted prefix: %s\n", msg, prefix);
    PV_CHECK(strncmp(msg, prefix, strlen(prefix)) == 0);
    if (out) PV_CHECK_STR(got, out);
    free(got);
}

static void test_print(void)
{
    expect("print 1, \"a\", 2.5", "1 a 2.5");
    expect("print \"x\" , 3", "x 3");
    expect("a = 3; b = a*2\nprint a, b", "3 6");
    expect("print 1/2, 1/2., -7/2", "0 0.5 -3");
    expect("f(x,y) = x*y + 1\nprint f(3,4)", "13");
    expect("$d << EOD\n1 2\n3 4\nEOD\nprint $d", "1 2\n3 4\n");
    expect("$d << EOD\n0 0 0.75 1\nEOD\nprint |$d|", "1");
}

static void test_loops(void)
{
    expect("n = 0\ndo for [j=0:99] { n = n + 1 }\nprint n, exists(\"j\")", "100 0");
    expect("n = 0\ndo for [j=0:9:3] { n = n + 1 }\nprint n", "4");
    expect("i = 5; do for [i=1:3] { }; print i", "5");
    expect("do for [i=1:3] { j = i }; print j", "3");
    expect("do for [i=3:1:-1] { print i }", "3\n2\n1");
    expect("do for [s in \"a b c\"] { print s }", "a\nb\nc");
    expect("do for [i=1:2] {\n  do for [j=1:2] {\n    print i, j\n  }\n}", "1 1\n1 2\n2 1\n2 2");
    expect("n = 0; while (n < 5) { n = n + 1 }; print n", "5");
    expect("n = 0\nwhile (1) {\n n = n + 1\n if (n >= 4) { break }\n}\nprint n", "4");
    expect("s = 0\ndo for [i=1:5] {\n if (i == 3) { continue }\n s = s + i\n}\nprint s", "12");
    expect("do for [i=1:0] { print i }\nprint \"none\"", "none");
}

static void test_if(void)
{
    expect("if (1) print \"y\"; print \"z\"", "y\nz");
    expect("if (0) print \"y\"; print \"z\"\nprint \"w\"", "w");
    expect("x = 2\nif (x == 1) {\n print 1\n} else if (x == 2) {\n print 2\n} else {\n print 3\n}",
           "2");
    expect("if (0) { print 1 } else { print 0 }", "0");
    expect("if (0) print 1; else print 2\nif (1) print 3; else print 4\nprint 5", "2\n3\n5");
}

static void test_macros_eval(void)
{
    expect("v = \"1+2\"\nprint @v", "3");
    expect("v = \"3*\"\nprint @v 4", "12");
    expect("eval \"a = 7\"\nprint a", "7");
    expect("eval sprintf(\"b%d = %d\", 1, 5)\nprint b1", "5");
}

static void test_call_load(void)
{
    char dir[] = "/tmp/pvox_exec_XXXXXX";
    if (!mkdtemp(dir)) return;
    char path[256], script[1024];
    snprintf(path, sizeof path, "%s/c.gp", dir);
    FILE *f = fopen(path, "w");
    fputs("print ARGC, ARG1, \"|\", ARG2, \"|\", exists(\"ARG3\")\n", f);
    fclose(f);
    snprintf(script, sizeof script,
             "x = 5\ncall \"%s\" 7 \"b c\"\ncall \"%s\" x\nprint exists(\"ARG1\")",
             path, path);
    expect(script, "2 7 | b c | 1\n1 5 |  | 1\n0");
    snprintf(path, sizeof path, "%s/l.gp", dir);
    f = fopen(path, "w");
    fputs("q = 42\n", f);
    fclose(f);
    snprintf(script, sizeof script, "load \"%s\"\nprint q", path);
    expect(script, "42");
    /* a plain `exit` in a loaded file only leaves that file (gnuplot 5.4.4) */
    f = fopen(path, "w");
    fputs("q = 1\nif (q == 1) { exit }\nq = 2\n", f);
    fclose(f);
    snprintf(script, sizeof script, "load \"%s\"\nprint q\ndo for [i=1:2] { load \"%s\" }\nprint i = 3",
             path, path);
    expect(script, "1\n3");
    /* nested call: the outer ARG1 comes back after the inner call */
    char inner[256];
    snprintf(inner, sizeof inner, "%s/in.gp", dir);
    f = fopen(inner, "w");
    fputs("print \"in \", ARG1\n", f);
    fclose(f);
    f = fopen(path, "w");
    fprintf(f, "call \"%s\" \"b\"\nprint \"out \", ARG1, ARGC\n", inner);
    fclose(f);
    snprintf(script, sizeof script, "call \"%s\" \"a\" 2\nprint exists(\"ARG1\"), ARGC", path);
    expect(script, "in  b\nout  a 2\n0 0");
    remove(inner);
    /* an error inside a loaded file is located in that file */
    f = fopen(path, "w");
    fputs("q = 1\nfoo bar\n", f);
    fclose(f);
    snprintf(script, sizeof script, "load \"%s\"\nprint q", path);
    char want[512];
    snprintf(want, sizeof want, "%s:2:1: error: invalid command", path);
    expect_error(script, PV_ESYNTAX, want, "");
    remove(path);
    snprintf(path, sizeof path, "%s/c.gp", dir);
    remove(path);
    rmdir(dir);
}

static void test_exit_errors(void)
{
    char *got = NULL;
    pv_status st = run("print 1\nexit status 3\nprint 2", &got);
    PV_CHECK_EQ(st, PV_EEXIT);
    PV_CHECK_EQ(ctx->exit_code, 3);
    PV_CHECK_STR(got, "1");
    free(got);
    st = run("print 1\nexit\nprint 2", &got);
    PV_CHECK_EQ(st, PV_EEXIT);
    PV_CHECK_EQ(ctx->exit_code, 0);
    free(got);
    expect_error("print 1\nexit error \"boom\"\nprint 2", PV_ESCRIPT, "t.gp:3:1: error: boom",
                 "1");
    /* the check pass runs first: nothing printed before a syntax error further down */
    expect_error("print 1\nfoo bar\n", PV_ESYNTAX, "t.gp:3:1: error: invalid command", "");
    expect_error("print 1\ndo for [i=1:2] {\n  print (\n}\n", PV_ESYNTAX, "t.gp:4:", "");
    expect_error("print 1 2", PV_ESYNTAX,
                 "t.gp:2:9: error: unexpected or unrecognized token: 2", "");
    expect_error("print 7\nprint undefined_v", PV_ESCRIPT, "t.gp:3:7: error: undefined variable",
                 "7");
    expect_error("print $nope", PV_ESCRIPT, "t.gp:2:7: error: no datablock named $nope", "");
}

static void test_misc(void)
{
    expect("pause -1\npause 0 \"\"\npause mouse keypress, button1\nprint 1", "1");
    expect("set for [i=1:3] xrange [0:i]\nprint 2", "2");
    expect("clear\nprint 3", "3");
    expect("print", "");
    expect("# comment only\n\n  ; ;\nprint 4 # trailing", "4");
    expect_error("x", PV_ESYNTAX, "t.gp:2:1: error: invalid command", "");
    expect_error("do for [i=1:3] {\n print i\n", PV_ESYNTAX, "t.gp:2:", "");
    expect_error("print 1\n}\n", PV_ESYNTAX, "t.gp:3:1: error: unexpected '}'", "");
    expect_error("print 1\ndo for [i=1:2] { print i } print 3", PV_ESYNTAX,
                 "t.gp:3:28: error: unexpected or unrecognized token: print", "");
    expect("if (1) { print 1 }; print 2", "1\n2");
}

static void test_undefine_reset(void)
{
    expect("a=1; b1=2; b2=3\nundefine b*\nprint exists(\"b1\"), exists(\"b2\"), exists(\"a\")",
           "0 0 1");
    expect("a=1\nundefine a\nprint exists(\"a\")", "0");
    expect("$d << EOD\n1\nEOD\nundefine $d\nprint exists(\"$d\")", "0");
    expect("a=1\nreset\nprint a", "1");
}

static void test_table(void)
{
    expect("$d << EOD\n1 2 3\n4 5 6\n\n7 8 9\n1e10 -0.5 x\nEOD\n"
           "set table $o\nplot $d using 1:2:(1/0) with table\nunset table\nprint $o",
           " 1 \t 2 \t nan\n 4 \t 5 \t nan\n 7 \t 8 \t nan\n 1e+10 \t -0.5 \t nan\n");
    expect("$d << EOD\n1 2\n3 4\nEOD\nset table $o\nplot $d using 1:($2*1000000) with table\n"
           "unset table\nprint $o",
           " 1 \t 2e+06\n 3 \t 4e+06\n");
    expect("set samples 3\nset isosamples 2\nset table $o\n"
           "plot '++' using 1:2:(0) with table\nunset table\nprint $o",
           " -5 \t 5 \t 0\n 0 \t 5 \t 0\n 5 \t 5 \t 0\n -5 \t -5 \t 0\n 0 \t -5 \t 0\n 5 \t -5 \t 0\n");
    expect("$d << EOD\n1 2 abc\nEOD\nset table $t\nplot $d using 1:(strcol(3)):2 with table\n"
           "unset table\nprint $t",
           " 1 \tabc \t 2\n");
    expect("$d << EOD\n1 2 3 4\n5 6\n7 8 9 10\nEOD\nset table $t\nplot $d with table\n"
           "unset table\nprint $t",
           " 1 \t 2 \t 3 \t 4\n 7 \t 8 \t 9 \t 10\n");
    expect_error("$t << EOD\n1 2\nEOD\nset table $t\nplot $t using 1:2 with table", PV_ESCRIPT,
                 "t.gp:6:6: error: input and output datablock are the same", "");
    expect_error("splot '++' using 1:2:3 with table", PV_ESYNTAX,
                 "t.gp:2:29: error: use `plot with table` rather than `splot with table`", "");
}

static void test_plot_syntax(void)
{
    /* parsed fully; not rendered in this version */
    expect("splot \"++\" using (0.2):1:2:(0.2*$1) with pm3d\nprint 1", "1");
    expect("splot for [j=0:9] \"++\" using (j/10.):1:2:(j) with pm3d\nprint 2", "2");
    expect("$c << EOD\n0 0 0.75 1\nEOD\n"
           "splot $c using 1:2:3:4 with points pointtype 7 pointsize 5 linecolor palette\nprint 3",
           "3");
    expect("splot [0:1][0:1] '+' using 1:1:1 with points pt 7 ps 0.4 lc rgb \"red\" title \"t\", "
           "x*y with lines lw 2 notitle\nprint 4",
           "4");
    expect_error("splot '++' with bogus", PV_ESYNTAX, "t.gp:2:17: error: unrecognized plot type",
                 "");
}

static void test_set_print(void)
{
    char path[] = "/tmp/pvox_print_XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0) return;
    close(fd);
    char script[512];
    snprintf(script, sizeof script,
             "set print \"%s\"\nprint 1, 2\nset print \"%s\" append\nprint \"x\"\nunset print",
             path, path);
    char *got = NULL;
    PV_CHECK_EQ(run(script, &got), PV_OK);
    free(got);
    FILE *f = fopen(path, "r");
    char buf[64] = {0};
    size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
    if (f) fclose(f);
    buf[n] = '\0';
    PV_CHECK_STR(buf, "1 2\nx\n");
    remove(path);
    expect("set print $p\nprint 5\nset print $out append\nprint $p", "5\n");
    expect_error("set print \"/nonexistent-dir/x\"", PV_EIO, "t.gp:2:11: error: cannot open", "");
}

static void test_arrays(void)
{
    expect("array A[3]\nprint A", "[,,]"); /* captured in a datablock: no newline */
    expect("array A[3] = [1, \"two\", 3.0]\nA[1] = A[1] + 1\nprint A, |A|", "[2,\"two\",3.0] 3");
    expect("array A = [4, 5]\nprint A[2], A[1]", "5 4");
    expect("array A[2]\nprint A[2]", "<undefined>");
    expect("array A[2]\nx = A[1]\nprint exists(\"x\")", "0");
    expect("x = 1\narray x[4]\nprint |x|", "4");
    expect("array A[2]\nA = 5\nprint A", "5");
    expect("print |ARGV|", "0");
    expect_error("array A[3]\nA[4] = 1", PV_ESCRIPT, "t.gp:3:4: error: array index out of range", NULL);
    expect_error("array A[0]", PV_ESYNTAX, "t.gp:2:10: error: expecting array[size>0]", NULL);
    expect_error("array A[2]\nA[1] = 1/0", PV_ESCRIPT, "t.gp:3:8: error: undefined value", NULL);
    expect_error("do for [i = 1:1/0] { print i }", PV_ESCRIPT, "t.gp:2:15: error: undefined value", NULL);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    pv_options opt = {0};
    opt.quiet = true;
    ctx = pv_ctx_create(MPI_COMM_WORLD, &opt);
    test_print();
    test_loops();
    test_if();
    test_macros_eval();
    test_call_load();
    test_exit_errors();
    test_undefine_reset();
    test_misc();
    test_table();
    test_plot_syntax();
    test_set_print();
    test_arrays();
    pv_ctx_destroy(ctx);
    int rc = pv_test_result("exec_interp");
    MPI_Finalize();
    return rc;
}
