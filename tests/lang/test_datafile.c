/*
 * Data input (datafile.h) against gnuplot 5.4.4. Every expected string below was measured
 * with the gnuplot command named in the comment above it, run on the same data, in the form
 *     set table "t.txt"; plot <source and clauses> with table; unset table
 * (or, for '+'/'++' values at full precision, `s = s.sprintf("%.17g ", $1)` inside the
 * using spec, as in GP-8.1). Rows are written here as "v1 v2 ...;" with %g;
 * "|" marks a block end and "||" a data-set end (not printed by gnuplot's 2D table).
 * Every case runs twice, through the scalar path and the batch (vector) path, and both
 * must give the same text.
 */
#include "pvox/datafile.h"
#include "pv_test.h"

#include <stdlib.h>
#include <string.h>

static pv_ctx *ctx;
static pv_env *env;

typedef struct outbuf {
    char *s;
    size_t n, cap;
    bool marks;   /* write block/set marks */
    bool strings; /* write string results as 'text' */
    bool full;    /* %.17g instead of %g */
    bool point;   /* prefix each row with its point index in the block and "@" */
} outbuf;

static void put(outbuf *o, const char *t)
{
    size_t n = strlen(t);
    if (o->n + n + 1 > o->cap) {
        o->cap = 2 * (o->n + n + 1);
        o->s = realloc(o->s, o->cap);
    }
    memcpy(o->s + o->n, t, n + 1);
    o->n += n;
}

static pv_status cb(void *ud, pv_data_event ev, const pv_data_point *pt)
{
    outbuf *o = ud;
    if (ev != PV_DATA_POINT) {
        if (o->marks) put(o, ev == PV_DATA_BLOCK_END ? "|" : "||");
        return PV_OK;
    }
    char num[64];
    if (o->point) {
        snprintf(num, sizeof num, "%lld@", (long long)pt->point);
        put(o, num);
    }
    for (int k = 0; k < pt->nvals; k++) {
        if (k) put(o, " ");
        if (o->strings && pt->strs[k]) {
            put(o, "'");
            put(o, pt->strs[k]);
            put(o, "'");
        } else if (pt->vals[k] != pt->vals[k]) {
            put(o, "nan");
        } else {
            snprintf(num, sizeof num, o->full ? "%.17g" : "%g", pt->vals[k]);
            put(o, num);
        }
    }
    put(o, ";");
    return PV_OK;
}

typedef struct runopts {
    const char *text;         /* file bytes for a quoted file name */
    const pv_data_opts *opts;
    const pv_sampling *samp;
    int ndefault;
    bool marks, strings, full, point;
} runopts;

/* Parse `spec` (exec mode), iterate it, return the rows as text ("ERR" on failure).
 * `batch` selects the vector path. */
static char *run1(const char *spec, const runopts *ro, bool batch)
{
    pv_source *src = pv_source_create(ctx, "t.gp", spec, strlen(spec), 1);
    pv_toklist tl = {0};
    outbuf o = {NULL, 0, 0, ro->marks, ro->strings, ro->full, ro->point};
    put(&o, "");
    pv_data_spec ds;
    pv_data_spec_init(&ds);
    pv_status st = pv_lex(ctx, src, &tl);
    if (st == PV_OK) {
        pv_cursor c = {ctx, &tl, 0, tl.ntok ? tl.ntok - 1 : 0};
        st = pv_data_spec_parse(&c, env, true, &ds);
        if (st == PV_OK && !pv_cur_at_end(&c)) put(&o, "<rest>");
    }
    if (st == PV_OK) {
        const char *t = ro->text;
        st = pv_data_iterate_ex(env, &ds, ro->opts, t, t ? strlen(t) : 0, ro->samp,
                                ro->ndefault ? ro->ndefault : 2, batch, cb, &o);
    }
    if (st != PV_OK) {
        if (getenv("PV_TEST_VERBOSE") && ctx->err_msg) fprintf(stderr, "%s\n", ctx->err_msg);
        free(o.s);
        o.s = malloc(4);
        strcpy(o.s, "ERR");
    }
    pv_err_clear(ctx);
    pv_data_spec_fini(&ds);
    pv_toklist_fini(&tl);
    pv_source_destroy(src);
    return o.s;
}

static int check_case(const char *file, int line, const char *spec, const runopts *ro,
                      const char *want)
{
    int bad = 0;
    for (int b = 0; b < 2; b++) {
        char *got = run1(spec, ro, b == 1);
        pv_test_checks++;
        if (strcmp(got, want) != 0) {
            pv_test_failures++;
            bad = 1;
            fprintf(stderr, "%s:%d: [%s] %s\n  want: %s\n  got:  %s\n", file, line,
                    b ? "batch" : "scalar", spec, want, got);
        }
        free(got);
    }
    return bad;
}
#define CASE(spec, ro, want) check_case(__FILE__, __LINE__, spec, ro, want)

static void set_block(const char *name, const char *text)
{
    size_t n = 0, cap = 8;
    char **lines = malloc(cap * sizeof *lines);
    const char *p = text;
    while (*p) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        if (n == cap) lines = realloc(lines, (cap *= 2) * sizeof *lines);
        lines[n] = malloc(len + 1);
        memcpy(lines[n], p, len);
        lines[n][len] = '\0';
        n++;
        p += len + (nl ? 1 : 0);
    }
    PV_CHECK(pv_env_set_datablock(env, name, lines, n) == PV_OK);
}

/* =====================================================================================
 * Line parsing: comments, fields, numbers, missing values
 * ===================================================================================== */

static const char d1[] = "1 2 3\n"
                         "2 4 5 # trailing\n"
                         "3 ? 7\n"
                         "4 NaN 8\n"
                         "5 abc 9\n"
                         "6 \"a b\" 10\n"
                         "7 8#x 9\n"
                         "8 - 9\n"
                         "9\n";

static void test_fields(void)
{
    runopts ro = {d1, NULL, NULL, 0, false, false, false, false};
    /* plot "d1.dat" using 1:2 with table  ('?' and 'abc' are not numbers: row skipped;
     * NaN is kept) */
    CASE("'d1.dat' using 1:2", &ro, "1 2;2 4;4 nan;7 8;");
    /* plot "d1.dat" using 1:3 ("a b" is one column; '#' later in a line is a field) */
    CASE("'d1.dat' using 1:3", &ro, "1 3;2 5;3 7;4 8;5 9;6 10;7 9;8 9;");
    /* plot "d1.dat" using 1:4: warning: Skipping data file with no valid points */
    CASE("'d1.dat' using 1:4", &ro, "");
    /* plot "d1.dat" using 1:($4): only the "# trailing" row has a 4th column ('#') */
    CASE("'d1.dat' using 1:($4)", &ro, "2 nan;");
    /* plot "d1.dat" using 1:(1/0) */
    CASE("'d1.dat' using 1:(1/0)", &ro, "1 nan;2 nan;3 nan;4 nan;5 nan;6 nan;7 nan;8 nan;9 nan;");
    /* plot "d1.dat" using 1:($1>4?1/0:$1) */
    CASE("'d1.dat' using 1:($1>4?1/0:$1)", &ro, "1 1;2 2;3 3;4 4;5 nan;6 nan;7 nan;8 nan;9 nan;");
    /* plot "d1.dat" using 1:(valid(2)):(column(2)) */
    CASE("'d1.dat' using 1:(valid(2)):(column(2))", &ro,
         "1 1 2;2 1 4;3 0 nan;4 0 nan;5 0 nan;6 0 nan;7 1 8;8 0 nan;9 0 nan;");
    /* plot "d1.dat" using 1:(column(4)) / (valid(4)): absent columns give NaN / 0 */
    CASE("'d1.dat' using 1:(column(4))", &ro,
         "1 nan;2 nan;3 nan;4 nan;5 nan;6 nan;7 nan;8 nan;9 nan;");
    CASE("'d1.dat' using 1:(valid(4))", &ro, "1 0;2 0;3 0;4 0;5 0;6 0;7 0;8 0;9 0;");
    /* the last $N written decides: plot "d1.dat" using 1:($4+$1) / ($1+$4) / ($3+$1) /
     * ($1>8 ? 5 : $4) / (sin($4)) */
    CASE("'d1.dat' using 1:($4+$1)", &ro,
         "1 nan;2 nan;3 nan;4 nan;5 nan;6 nan;7 nan;8 nan;9 nan;");
    CASE("'d1.dat' using 1:($1+$4)", &ro, "2 nan;");
    CASE("'d1.dat' using 1:($3+$1)", &ro, "1 4;2 7;3 10;4 12;5 14;6 16;7 16;8 17;9 nan;");
    CASE("'d1.dat' using 1:($1>8 ? 5 : $4)", &ro, "2 nan;");
    CASE("'d1.dat' using 1:(sin($4))", &ro, "2 nan;");
    /* plot "cx.dat" using 1:(sqrt($1)) / (sqrt($1)*0): a complex value is undefined */
    runopts rc = {"1 1\n-4 2\n", NULL, NULL, 0, false, false, false, false};
    CASE("'cx.dat' using 1:(sqrt($1))", &rc, "1 1;-4 nan;");
    CASE("'cx.dat' using 1:(sqrt($1)*0)", &rc, "1 0;-4 0;");
    /* plot "d1.dat" using ($3):1 */
    CASE("'d1.dat' using ($3):1", &ro, "3 1;5 2;7 3;8 4;9 5;10 6;9 7;9 8;");
    /* plot "d1.dat" using 1:(2):($2) */
    CASE("'d1.dat' using 1:(2):($2)", &ro,
         "1 2 2;2 2 4;3 2 nan;4 2 nan;5 2 nan;6 2 nan;7 2 8;8 2 nan;");
}

static void test_missing(void)
{
    pv_data_opts mo = {NULL, "?", NULL, false, {NULL, NULL}, 0, 0, 0, 0, false};
    runopts ro = {d1, &mo, NULL, 0, false, false, false, false};
    /* set datafile missing "?"; plot "d1.dat" using 1:2 */
    CASE("'d1.dat' using 1:2", &ro, "1 2;2 4;4 nan;7 8;");
    /* ...using 1:($2): the missing row is skipped, other non-numbers give NaN */
    CASE("'d1.dat' using 1:($2)", &ro, "1 2;2 4;4 nan;5 nan;6 nan;7 8;8 nan;");
    CASE("'d1.dat' using 1:($2*2)", &ro, "1 4;2 8;4 nan;5 nan;6 nan;7 16;8 nan;");
    CASE("'d1.dat' using 1:(column(2))", &ro, "1 2;2 4;4 nan;5 nan;6 nan;7 8;8 nan;9 nan;");
    CASE("'d1.dat' using 1:(valid(2))", &ro, "1 1;2 1;3 0;4 0;5 0;6 0;7 1;8 0;9 0;");
    CASE("'d1.dat' using 1:($1+$2)", &ro, "1 3;2 6;4 nan;5 nan;6 nan;7 15;8 nan;");
    CASE("'d1.dat' using 1:($2+$1)", &ro, "1 3;2 6;4 nan;5 nan;6 nan;7 15;8 nan;9 nan;");
    CASE("'d1.dat' using 1:2:($2)", &ro, "1 2 2;2 4 4;4 nan nan;7 8 8;");
    /* ...using 1:(stringcolumn(2)): quotes removed, the missing field is "" */
    runopts rs = ro;
    rs.strings = true;
    CASE("'d1.dat' using 1:(stringcolumn(2))", &rs,
         "1 '2';2 '4';3 '';4 'NaN';5 'abc';6 'a b';7 '8#x';8 '-';9 nan;");
}

static void test_numbers(void)
{
    static const char d[] = "# comment\n"
                            "1 2 3\n"
                            "2 4 5 # trailing\n"
                            "\"6\" \"a b\" 10\n"
                            "10 1.5e1x 13\n"
                            "11 +inf 14\n"
                            "12 1e400 15\n"
                            " 13 0x10 16\n"
                            "14 1,5 17\n"
                            "15 .5 18\n"
                            "16 -.5e1 19\n"
                            "17 1d2 20\n";
    runopts ro = {d, NULL, NULL, 0, false, false, false, false};
    /* plot $d using 1:2 with table (a quoted "6" is not a number) */
    CASE("'n.dat' using 1:2", &ro,
         "1 2;2 4;10 15;11 inf;12 inf;13 16;14 1;15 0.5;16 -5;17 1;");
    pv_data_opts fo = {NULL, NULL, NULL, true, {NULL, NULL}, 0, 0, 0, 0, false};
    ro.opts = &fo;
    /* set datafile fortran: 1d2 is 100 */
    CASE("'n.dat' every ::10 using 1:2", &ro, "17 100;");
}

static void test_comments_separator(void)
{
    /* set datafile commentschars "%"; plot "cm.dat" using 1:2 ("#x" is data, bad) */
    pv_data_opts co = {NULL, NULL, "%", false, {NULL, NULL}, 0, 0, 0, 0, false};
    runopts ro = {"1 2\n% c\n3 4\n#x\n5 6\n", &co, NULL, 0, false, false, false, false};
    CASE("'cm.dat' using 1:2", &ro, "1 2;3 4;5 6;");
    /* set datafile separator ","; plot "d4.csv" using 1:2 / 1:($2):3 / stringcolumn(2) */
    static const char csv[] = "1,2,3\n4,,6\n\"7\",\"8 9\",10\n 11 , 12 ,13\n14,?,16\n";
    pv_data_opts so = {",", NULL, NULL, false, {NULL, NULL}, 0, 0, 0, 0, false};
    ro = (runopts){csv, &so, NULL, 0, false, false, false, false};
    CASE("'d4.csv' using 1:2", &ro, "1 2;7 8;11 12;");
    CASE("'d4.csv' using 1:($2):3", &ro, "1 2 3;7 8 10;11 12 13;14 nan 16;");
    ro.strings = true;
    CASE("'d4.csv' using 1:(stringcolumn(2)):3", &ro,
         "1 '2' 3;4 '' 6;7 '8 9' 10;11 '12 ' 13;14 '?' 16;");
    /* ... and set datafile missing "?" */
    pv_data_opts sm = {",", "?", NULL, false, {NULL, NULL}, 0, 0, 0, 0, false};
    ro = (runopts){csv, &sm, NULL, 0, false, false, false, false};
    CASE("'d4.csv' using 1:($2):3", &ro, "1 2 3;7 8 10;11 12 13;");
    ro.strings = true;
    CASE("'d4.csv' using 1:(stringcolumn(2)):3", &ro,
         "1 '2' 3;4 '' 6;7 '8 9' 10;11 '12 ' 13;14 '' 16;");
    ro.strings = false;
    /* CRLF line ends */
    ro = (runopts){"1 2\r\n3 4\r\n", NULL, NULL, 0, false, false, false, false};
    CASE("'crlf.dat' using 1:2", &ro, "1 2;3 4;");
}

static void test_headers(void)
{
    /* plot "h.dat" using "xb":"xc" / 1:"xc" / 1:2 / 1:"zz" (warning, NaN values) */
    runopts ro = {"# c\nxa xb xc\n1 2 3\n4 5 6\n", NULL, NULL, 0, false, false, false, false};
    CASE("'h.dat' using \"xb\":\"xc\"", &ro, "2 3;5 6;");
    CASE("'h.dat' using 1:\"xc\"", &ro, "1 3;4 6;");
    CASE("'h.dat' using 1:2", &ro, "1 2;4 5;");
    CASE("'h.dat' using 1:\"zz\"", &ro, "1 nan;4 nan;");
}

/* =====================================================================================
 * Blocks, data sets, index, every, $0
 * ===================================================================================== */

static const char d2[] = "1 1\n2 2\n3 3\n\n4 4\n5 5\n\n\n6 6\n7 7\n\n8 8\n9 9\n10 10\n\n\n\n"
                         "11 11\n12 12\n";

static void test_blocks(void)
{
    runopts ro = {d2, NULL, NULL, 0, false, false, false, false};
    /* plot "d2.dat" using 1:($0):(column(-1)):(column(-2)): $0 runs on across a single
     * blank line and restarts with each data set */
    CASE("'d2.dat' using 1:($0):(column(-1)):(column(-2))", &ro,
         "1 0 0 0;2 1 0 0;3 2 0 0;4 3 1 0;5 4 1 0;6 0 0 1;7 1 0 1;8 2 1 1;9 3 1 1;10 4 1 1;"
         "11 0 0 2;12 1 0 2;");
    CASE("'d2.dat' using 1:0:-1:-2", &ro,
         "1 0 0 0;2 1 0 0;3 2 0 0;4 3 1 0;5 4 1 0;6 0 0 1;7 1 0 1;8 2 1 1;9 3 1 1;10 4 1 1;"
         "11 0 0 2;12 1 0 2;");
    /* plot "d2.dat" index 1 / index 1:2 / index 0:2:2 / index 2 */
    CASE("'d2.dat' index 1", &ro, "6 6;7 7;8 8;9 9;10 10;");
    CASE("'d2.dat' index 1:2", &ro, "6 6;7 7;8 8;9 9;10 10;11 11;12 12;");
    CASE("'d2.dat' index 0:2:2", &ro, "1 1;2 2;3 3;4 4;5 5;11 11;12 12;");
    CASE("'d2.dat' i 2", &ro, "11 11;12 12;");
    /* plot "d2.dat" every 2 / ::1 / :2 / ::1::1 / :::1::1 / 2:2:1:0:5:3 / :::1 */
    CASE("'d2.dat' every 2", &ro, "1 1;3 3;4 4;6 6;8 8;10 10;11 11;");
    CASE("'d2.dat' every ::1", &ro, "2 2;3 3;5 5;7 7;9 9;10 10;12 12;");
    CASE("'d2.dat' every :2", &ro, "1 1;2 2;3 3;6 6;7 7;11 11;12 12;");
    CASE("'d2.dat' every ::1::1", &ro, "2 2;5 5;7 7;9 9;12 12;");
    CASE("'d2.dat' every :::1::1", &ro, "4 4;5 5;8 8;9 9;10 10;");
    CASE("'d2.dat' every 2:2:1:0:5:3", &ro, "2 2;7 7;12 12;");
    CASE("'d2.dat' every :::1", &ro, "4 4;5 5;8 8;9 9;10 10;");
    /* plot "d2.dat" every 2 using 1:0: $0 counts the rows every selects */
    CASE("'d2.dat' every 2 using 1:0", &ro, "1 0;3 1;4 2;6 0;8 1;10 2;11 0;");
    /* clauses in any order, stopping before other words */
    CASE("'d2.dat' every 2 using 1:0 index 1", &ro, "6 0;8 1;10 2;");
    /* block and set marks */
    ro.marks = true;
    CASE("'d2.dat' using 1", &ro, "1;2;3;|4;5;|||6;7;|8;9;10;|||11;12;");
    /* plot "d3.dat" every 2 using 1:0 / every ::1::2 using 1:0 (bad rows count) */
    runopts r3 = {"1 1\nx x\n3 3\n4 4\n5 5\n", NULL, NULL, 0, false, false, false, false};
    CASE("'d3.dat' every 2 using 1:0", &r3, "1 0;3 1;5 2;");
    CASE("'d3.dat' every ::1::2 using 1:0", &r3, "3 1;");
    /* plot "bl.dat" using 1:(column(-1)):(column(-2)): whitespace-only lines are blank */
    runopts rb = {"1 2\n  \n3 4\n\t\n\n5 6\n", NULL, NULL, 0, false, false, false, false};
    CASE("'bl.dat' using 1:(column(-1)):(column(-2))", &rb, "1 0 0;3 1 0;5 0 1;");
    /* plot "cb.dat" / "lb.dat" using 1:(column(-1)):(column(-2)):0 : a comment between
     * blank lines does not interrupt them; blank lines at the start are ignored */
    runopts rcb = {"1 1\n\n# c\n\n2 2\n#x\n\n3 3\n", NULL, NULL, 0, false, false, false, false};
    CASE("'cb.dat' using 1:(column(-1)):(column(-2)):0", &rcb, "1 0 0 0;2 0 1 0;3 1 1 1;");
    runopts rlb = {"\n\n1 1\n2 2\n", NULL, NULL, 0, false, false, false, false};
    CASE("'lb.dat' using 1:(column(-1)):(column(-2)):0", &rlb, "1 0 0 0;2 0 0 1;");
    /* set datafile separator ","; plot "wb.dat" ...: a whitespace line is blank */
    pv_data_opts so = {",", NULL, NULL, false, {NULL, NULL}, 0, 0, 0, 0, false};
    runopts rwb = {"1 1\n \t \n2 2\n", &so, NULL, 0, false, false, false, false};
    CASE("'wb.dat' using 1:(column(-1)):(column(-2)):0", &rwb, "1 0 0 0;2 1 0 1;");
    /* plot "m.dat" / "one.dat" with table (no using: the first row fixes the columns) */
    runopts rm = {"1 2\n3\n5 6 7\nx 1\n", NULL, NULL, 0, false, false, false, false};
    CASE("'m.dat'", &rm, "1 2;5 6;");
    runopts r1 = {"4\n5\n\n6\n", NULL, NULL, 0, false, false, false, false};
    CASE("'one.dat'", &r1, "4;5;6;");
    /* splot "one.dat": x = point in block, y = block: (0,0,4) (1,0,5) (0,1,6) */
    r1.point = true;
    CASE("'one.dat' using 1:-1", &r1, "0@4 0;1@5 0;0@6 1;");
    /* plot "sk.dat" skip 1 using 1:2 */
    runopts rk = {"1 1\n2 2\n1e2 3\n", NULL, NULL, 0, false, false, false, false};
    CASE("'sk.dat' skip 1 using 1:2", &rk, "2 2;100 3;");
    /* datablock source, default columns */
    set_block("$d2", d2);
    runopts rd = {NULL, NULL, NULL, 0, false, false, false, false};
    CASE("$d2 index 2", &rd, "11 11;12 12;");
    /* f = "$d2"; plot f index 2 / plot "$d2" index 2: a string naming a datablock */
    pv_value fv = pv_str("$d2");
    pv_env_set(env, "f", &fv);
    pv_value_free(&fv);
    CASE("f index 2", &rd, "11 11;12 12;");
    CASE("\"$d\".\"2\" index 2", &rd, "11 11;12 12;");
    /* plot $d using $1:$2: column() called from invalid context */
    CASE("$d2 using $1:$2", &rd, "ERR");
}

/* =====================================================================================
 * '+' and '++'
 * ===================================================================================== */

static void test_plus(void)
{
    pv_sampling s5 = {5, 5, 10, 10, -10.0, 10.0, -5.0, 5.0};
    pv_data_opts dx = {NULL, NULL, NULL, false, {"x", "y"}, 0, 0, 0, 0, false};
    runopts ro = {NULL, &dx, &s5, 0, false, false, false, false};
    /* set samples 5; plot '+' using 1:($1*2) (x range [-10:10]) */
    CASE("'+' using 1:($1*2)", &ro, "-10 -20;-5 -10;0 0;5 10;10 20;");
    /* plot sample [t=0:1] '+' using (t):($1*2) */
    CASE("sample [t=0:1] '+' using (t):($1*2)", &ro, "0 0;0.25 0.5;0.5 1;0.75 1.5;1 2;");
    /* plot sample [0:1] '+' using 1:(x): the default dummy is bound */
    CASE("sample [0:1] '+' using 1:(x)", &ro, "0 0;0.25 0.25;0.5 0.5;0.75 0.75;1 1;");
    /* plot sample [t=0:1:0.3] '+' using 1:($0) */
    CASE("sample [t=0:1:0.3] '+' using 1:($0)", &ro, "0 0;0.3 1;0.6 2;0.9 3;");
    /* plot sample [t=1:0] '+' using 1:($0) */
    CASE("sample [t=1:0] '+' using 1:($0)", &ro, "1 0;0.75 1;0.5 2;0.25 3;0 4;");
    /* plot sample [t=0:1:-0.25] '+' ... : one sample */
    CASE("sample [t=0:1:-0.25] '+' using 1", &ro, "0;");
    /* plot '+' using 1:2:3: warning: Skipping data file with no valid points */
    CASE("'+' using 1:2:3", &ro, "");
    /* plot '+' using 1:(column(-1)):(column(-2)) */
    CASE("'+' using 1:(column(-1)):(column(-2))", &ro, "-10 0 0;-5 0 0;0 0 0;5 0 0;10 0 0;");
    /* full precision: set samples 4; plot sample [t=0:0.9] '+' using (s=s.sprintf("%.17g ",
     * $1), $1):1 with table; print s  (no snapping of the last sample) */
    pv_sampling s4 = {4, 4, 4, 4, -10.0, 10.0, -5.0, 5.0};
    runopts rf = {NULL, NULL, &s4, 0, false, false, true, false};
    rf.ndefault = 1;
    CASE("sample [t=0:0.9] '+'", &rf,
         "0;0.29999999999999999;0.59999999999999998;0.89999999999999991;");
    CASE("sample [t=0:0.3:0.1] '+'", &rf, "0;0.10000000000000001;0.20000000000000001;");
    CASE("sample [t=0.1:0.7:0.2] '+'", &rf, "0.10000000000000001;0.30000000000000004;0.5;");
    CASE("sample [t=0:1:0.3] '+'", &rf,
         "0;0.29999999999999999;0.59999999999999998;0.89999999999999991;");
    /* the dummy variable is restored afterwards */
    pv_value v = pv_int(42);
    pv_env_set(env, "t", &v);
    CASE("sample [t=0:1] '+' using (t)", &ro, "0;0.25;0.5;0.75;1;");
    const pv_value *t = pv_env_get(env, "t");
    PV_CHECK(t && t->type == PV_V_INT && t->i == 42);
}

static void test_plusplus(void)
{
    /* GP-8.1: set samples 4; set isosamples 3; splot '++' (u, v in [-5:5]); read order */
    pv_sampling s43 = {4, 4, 3, 3, -5.0, 5.0, -5.0, 5.0};
    pv_data_opts dxy = {NULL, NULL, NULL, false, {"x", "y"}, 0, 0, 0, 0, false};
    runopts ro = {NULL, &dxy, &s43, 0, true, false, false, false};
    CASE("'++' using 1:2", &ro,
         "-5 5;-1.66667 5;1.66667 5;5 5;|-5 0;-1.66667 0;1.66667 0;5 0;|"
         "-5 -5;-1.66667 -5;1.66667 -5;5 -5;");
    /* GP-8.1: urange/vrange [0:1]; samples 4,5 isosamples 3,2 (v count = isosamples_2) */
    pv_sampling s32 = {4, 5, 3, 2, 0.0, 1.0, 0.0, 1.0};
    ro.samp = &s32;
    ro.marks = false;
    CASE("'++' using 1:2", &ro, "0 1;0.333333 1;0.666667 1;1 1;0 0;0.333333 0;0.666667 0;1 0;");
    /* GP-8.1: with hidden3d the caller passes isosamples_1 (3) as the u count */
    pv_sampling sh = {3, 5, 3, 2, 0.0, 1.0, 0.0, 1.0};
    ro.samp = &sh;
    CASE("'++' using 1:2", &ro, "0 1;0.5 1;1 1;0 0;0.5 0;1 0;");
    /* GP-8.1: splot sample [u=0:1:0.5][v=0:1:0.25] '++' */
    CASE("sample [u=0:1:0.5][v=0:1:0.25] '++' using 1:2", &ro,
         "0 1;0.5 1;1 1;0 0.75;0.5 0.75;1 0.75;0 0.5;0.5 0.5;1 0.5;0 0.25;0.5 0.25;1 0.25;"
         "0 0;0.5 0;1 0;");
    /* set samples 3; set isosamples 2; splot '++' using 1:2:(x*10+y) */
    pv_sampling s32b = {3, 3, 2, 2, -5.0, 5.0, -5.0, 5.0};
    ro.samp = &s32b;
    CASE("'++' using 1:2:(x*10+y)", &ro, "-5 5 -45;0 5 5;5 5 55;-5 -5 -55;0 -5 -5;5 -5 45;");
    /* splot sample [s=0:1][t=5:6] '++' using 1:2:(s*10+t) */
    CASE("sample [s=0:1][t=5:6] '++' using 1:2:(s*10+t)", &ro,
         "0 6 6;0.5 6 11;1 6 16;0 5 5;0.5 5 10;1 5 15;");
    /* splot sample [0:1:0.5][2:3] '++' using 1:2:($0) ; ... using 1:2:(column(-1)) */
    CASE("sample [0:1:0.5][2:3] '++' using 1:2:($0)", &ro, "0 3 0;0.5 3 1;1 3 2;0 2 3;0.5 2 4;1 2 5;");
    CASE("'++' using 1:2:(column(-1))", &ro, "-5 5 0;0 5 0;5 5 0;-5 -5 1;0 -5 1;5 -5 1;");
    /* full precision (set samples 4; set isosamples 4): the last u and v are snapped */
    pv_sampling s44 = {4, 4, 4, 4, 0.0, 1.0, 0.0, 1.0};
    runopts rf = {NULL, NULL, &s44, 0, false, false, true, false};
    CASE("sample [u=0:1:0.3][v=0:1:0.3] '++' every 1:1:0:0:3:0", &rf,
         "0 1;0.29999999999999999 1;0.59999999999999998 1;1 1;");
    CASE("sample [u=0:1:0.3][v=0:1:0.3] '++' every 4 using 2", &rf,
         "1;0.69999999999999996;0.40000000000000002;0;");
    CASE("sample [u=0:0.9][v=0:0.9] '++' every 4 using 2", &rf,
         "0.90000000000000002;0.60000000000000009;0.30000000000000004;0;");
    CASE("sample [u=0:0.3:0.1][v=0.1:0.7:0.2] '++' every 3 using 1:2", &rf,
         "0 0.69999999999999996;0 0.49999999999999994;0 0.10000000000000001;");
    CASE("sample [u=0:0.3:0.1] '++' every ::2::2 using 1", &rf,
         "0.29999999999999999;0.29999999999999999;0.29999999999999999;0.29999999999999999;");
}

/* =====================================================================================
 * Errors, parsing, vector/scalar equivalence on a larger input
 * ===================================================================================== */

static void test_errors(void)
{
    runopts ro = {NULL, NULL, NULL, 0, false, false, false, false};
    CASE("$nosuch using 1:2", &ro, "ERR");
    CASE("'x.dat' using 1:", &ro, "ERR");
    CASE("'x.dat' using 1:2 using 1:2", &ro, "ERR");
    /* check mode compiles and evaluates nothing */
    const char *spec = "sample [t=a:b] '+' using 1:(undefined_var*2) every n index m";
    pv_source *src = pv_source_create(ctx, "t.gp", spec, strlen(spec), 1);
    pv_toklist tl = {0};
    PV_CHECK(pv_lex(ctx, src, &tl) == PV_OK);
    pv_cursor c = {ctx, &tl, 0, tl.ntok - 1};
    pv_data_spec ds;
    pv_data_spec_init(&ds);
    PV_CHECK(pv_data_spec_parse(&c, env, false, &ds) == PV_OK);
    PV_CHECK(pv_cur_at_end(&c));
    PV_CHECK_EQ(ds.kind, PV_DS_PLUS);
    PV_CHECK_EQ(ds.nusing, 2);
    PV_CHECK_EQ(ds.using[1].kind, PV_USE_EXPR);
    PV_CHECK_STR(ds.sample_var[0], "t");
    pv_data_spec_fini(&ds);
    pv_toklist_fini(&tl);
    pv_source_destroy(src);
    /* stops before `with` */
    spec = "$d2 u 1:($2*2) ev 2 with lines";
    src = pv_source_create(ctx, "t.gp", spec, strlen(spec), 1);
    PV_CHECK(pv_lex(ctx, src, &tl) == PV_OK);
    c = (pv_cursor){ctx, &tl, 0, tl.ntok - 1};
    pv_data_spec_init(&ds);
    PV_CHECK(pv_data_spec_parse(&c, env, true, &ds) == PV_OK);
    PV_CHECK(pv_cur_is_word(&c, "with"));
    PV_CHECK_EQ(ds.kind, PV_DS_DATABLOCK);
    PV_CHECK_STR(ds.name, "$d2");
    PV_CHECK_EQ(ds.every[0], 2);
    pv_data_spec_fini(&ds);
    pv_toklist_fini(&tl);
    pv_source_destroy(src);
    /* '-' is inline data: a file the caller reads from the block linked to the token */
    spec = "'-' using 1:2";
    src = pv_source_create(ctx, "t.gp", spec, strlen(spec), 1);
    PV_CHECK(pv_lex(ctx, src, &tl) == PV_OK);
    c = (pv_cursor){ctx, &tl, 0, tl.ntok - 1};
    pv_data_spec_init(&ds);
    PV_CHECK(pv_data_spec_parse(&c, env, true, &ds) == PV_OK);
    PV_CHECK_EQ(ds.kind, PV_DS_FILE);
    PV_CHECK(ds.inline_data);
    PV_CHECK_EQ(ds.inline_tok, 0);
    PV_CHECK_STR(ds.name, "-");
    pv_data_spec_fini(&ds);
    pv_toklist_fini(&tl);
    pv_source_destroy(src);
}

static pv_status simple_row(void *ud, const double *vals, int nvals, const pv_row *row)
{
    double *sum = ud;
    for (int k = 0; k < nvals; k++) sum[k] += vals[k];
    sum[2] += (double)row->ncols;
    return PV_OK;
}

/* The original interface: points only, no options. */
/* A data spec parsed in exec mode from its text, with the source and tokens it borrows. */
typedef struct parsed_spec {
    pv_source *src;
    pv_toklist tl;
    pv_data_spec ds;
} parsed_spec;

static void spec_parse(parsed_spec *p, const char *spec)
{
    p->src = pv_source_create(ctx, "t.gp", spec, strlen(spec), 1);
    memset(&p->tl, 0, sizeof p->tl);
    PV_CHECK(pv_lex(ctx, p->src, &p->tl) == PV_OK);
    pv_cursor c = {ctx, &p->tl, 0, p->tl.ntok - 1};
    pv_data_spec_init(&p->ds);
    PV_CHECK(pv_data_spec_parse(&c, env, true, &p->ds) == PV_OK);
}

static void spec_fini(parsed_spec *p)
{
    pv_data_spec_fini(&p->ds);
    pv_toklist_fini(&p->tl);
    pv_source_destroy(p->src);
}

static void test_simple_iterate(void)
{
    parsed_spec p;
    spec_parse(&p, "'x.dat' using 1:($2*10)");
    static const char text[] = "1 2\n\n3 4 5\n# c\n";
    double sum[3] = {0, 0, 0};
    PV_CHECK(pv_data_iterate(env, &p.ds, text, strlen(text), NULL, 2, simple_row, sum) == PV_OK);
    PV_CHECK_NEAR(sum[0], 4.0, 0.0);
    PV_CHECK_NEAR(sum[1], 60.0, 0.0);
    PV_CHECK_NEAR(sum[2], 5.0, 0.0);
    spec_fini(&p);
}

static void test_vector_equivalence(void)
{
    /* 3000 rows with blocks, NaNs, bad fields and a missing value: the batch path must
     * reproduce the scalar path bit for bit (%.17g). */
    size_t cap = 200000, n = 0;
    char *text = malloc(cap);
    uint64_t x = 88172645463325252ULL;
    for (int i = 0; i < 3000; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        double a = (double)(x % 100000) / 997.0 - 50.0, b = (double)((x >> 20) % 1000) / 7.0;
        if (i % 97 == 0) n += (size_t)snprintf(text + n, cap - n, "\n");
        if (i % 211 == 0) n += (size_t)snprintf(text + n, cap - n, "%d NaN %g\n", i, b);
        else if (i % 307 == 0) n += (size_t)snprintf(text + n, cap - n, "%d ? %g\n", i, b);
        else if (i % 401 == 0) n += (size_t)snprintf(text + n, cap - n, "%d %.17g\n", i, a);
        else n += (size_t)snprintf(text + n, cap - n, "%d %.17g %.17g\n", i, a, b);
    }
    pv_data_opts mo = {NULL, "?", NULL, false, {NULL, NULL}, 0, 0, 0, 0, false};
    runopts ro = {text, &mo, NULL, 0, true, false, true, false};
    const char *specs[] = {"'v.dat' using 1:(sin($2)*$3 + $3**2/7):($1/7)",
                           "'v.dat' using ($0):(sqrt($3) - log(abs($2))):2",
                           "'v.dat' every 3 using (floor($2)*2):($3 > 50 ? 1/0 : $2*$3)",
                           "'v.dat' using 1:($2 ** 2 + $1 / 3)"};
    for (size_t k = 0; k < sizeof specs / sizeof specs[0]; k++) {
        char *s = run1(specs[k], &ro, false), *v = run1(specs[k], &ro, true);
        PV_CHECK(strlen(s) > 1000);
        PV_CHECK_STR(v, s);
        free(s);
        free(v);
    }
    free(text);
}

/* A split iteration's points, one line each ("P" for another share's placeholder), with
 * "|" for a block end. */
typedef struct split_out {
    char *s;
    size_t n, cap;
    int64_t points;
} split_out;

static pv_status split_cb(void *ud, pv_data_event ev, const pv_data_point *pt)
{
    split_out *o = ud;
    char line[256];
    int len = 0;
    if (ev != PV_DATA_POINT) len = snprintf(line, sizeof line, "|\n");
    else if (pt->placeholder) len = snprintf(line, sizeof line, "P\n");
    else
        for (int k = 0; k < pt->nvals; k++)
            len += snprintf(line + len, sizeof line - (size_t)len, "%.17g%c", pt->vals[k],
                            k + 1 < pt->nvals ? ' ' : '\n');
    if (ev == PV_DATA_POINT) o->points++;
    if (o->n + (size_t)len + 1 > o->cap) {
        o->cap = (o->n + (size_t)len + 1) * 2;
        o->s = realloc(o->s, o->cap);
    }
    memcpy(o->s + o->n, line, (size_t)len + 1);
    o->n += (size_t)len;
    return PV_OK;
}

/* The next line of *p (advancing it), into buf. */
static void next_line(const char **p, char *buf, size_t cap)
{
    size_t n = strcspn(*p, "\n");
    if (n >= cap) n = cap - 1;
    memcpy(buf, *p, n);
    buf[n] = '\0';
    *p += strcspn(*p, "\n");
    if (**p) (*p)++;
}

static void test_split(void)
{
    /* 500 rows in blocks, bad and missing fields (gnuplot's row skips happen before the
     * rows are dealt): each share evaluates its runs of PV_DATA_SPLIT_RUN rows, reports
     * the others as placeholders, and the shares together give the whole iteration. */
    size_t cap = 40000, n = 0;
    char *text = malloc(cap);
    for (int i = 0; i < 500; i++) {
        if (i % 90 == 0) n += (size_t)snprintf(text + n, cap - n, "\n");
        if (i % 37 == 0) n += (size_t)snprintf(text + n, cap - n, "%d ? 1\n", i);
        else if (i % 41 == 0) n += (size_t)snprintf(text + n, cap - n, "%d\n", i);
        else n += (size_t)snprintf(text + n, cap - n, "%d %g %g\n", i, i * 0.37, i % 7 * 1.5);
    }
    parsed_spec p;
    spec_parse(&p, "'s.dat' using 1:($2*$3 + sin($1)):(column(-1))");
    enum { SHARES = 3 };
    split_out whole = {0}, part[SHARES] = {{0}};
    pv_data_opts o = {NULL, "?", NULL, false, {NULL, NULL}, 0, 0, 0, 0, false};
    PV_CHECK(pv_data_iterate_ex(env, &p.ds, &o, text, n, NULL, 3, false, split_cb, &whole) ==
             PV_OK);
    for (int r = 0; r < SHARES; r++) {
        o.split_size = SHARES, o.split_rank = r;
        PV_CHECK(pv_data_iterate_ex(env, &p.ds, &o, text, n, NULL, 3, false, split_cb,
                                    &part[r]) == PV_OK);
        PV_CHECK_EQ(part[r].points, whole.points);
    }
    PV_CHECK(whole.points > 3 * PV_DATA_SPLIT_RUN);
    /* merge: point k from the share that owns it; the others must say "P" there */
    const char *w = whole.s, *q[SHARES];
    for (int r = 0; r < SHARES; r++) q[r] = part[r].s;
    int64_t k = 0, bad = 0;
    char lw[256], lr[256];
    while (*w) {
        next_line(&w, lw, sizeof lw);
        bool point = strcmp(lw, "|") != 0;
        for (int r = 0; r < SHARES; r++) {
            next_line(&q[r], lr, sizeof lr);
            const char *want = !point || pv_data_split_owns(k, SHARES, r) ? lw : "P";
            if (strcmp(lr, want) != 0) bad++;
        }
        k += point;
    }
    PV_CHECK_EQ(bad, 0);
    for (int r = 0; r < SHARES; r++) {
        PV_CHECK_EQ(*q[r], '\0');
        free(part[r].s);
    }
    free(whole.s);
    free(text);
    spec_fini(&p);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    pv_options opt = {0};
    opt.log_level = PV_LOG_WARN;
    opt.quiet = true;
    ctx = pv_ctx_create(MPI_COMM_WORLD, &opt);
    env = pv_env_create(ctx);
    test_fields();
    test_missing();
    test_numbers();
    test_comments_separator();
    test_headers();
    test_blocks();
    test_plus();
    test_plusplus();
    test_errors();
    test_simple_iterate();
    test_vector_equivalence();
    test_split();
    pv_env_destroy(env);
    pv_ctx_destroy(ctx);
    MPI_Finalize();
    return pv_test_result("test_datafile");
}
