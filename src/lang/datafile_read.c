/*
 * datafile_read.c: reading rows the way gnuplot 5.4's df_readline does, and evaluating
 * `using` specs on them.
 *
 * Lines come from a data file's bytes, a datablock's lines, or the generators for '+' and
 * '++'. A line whose first non-blank character is a comment character is ignored (a '#'
 * later in a line is an ordinary field: gnuplot 5.4 has no trailing comments). Blank lines
 * end a data block; the second blank line in a row ends a data set (the `index` unit).
 * Blank lines before the first line are ignored; comment lines between blank lines do not
 * interrupt them. Fields are split at whitespace (a "quoted field" is one field) or at the separator
 * characters. Each field is read with strtod (a numeric prefix is enough: "8#x" is 8):
 * GOOD, UNDEF (reads as NaN), MISSING (the missing string, or an empty separated field)
 * or BAD (not a number). Invariants of the counters (measured with gnuplot 5.4.4):
 * - point: data lines of the current block, for `every` (bad lines count);
 * - datum ($0): lines selected by `every` in the current data set (bad lines count);
 * - block (column(-1)): blocks of the current data set; index (column(-2)): data sets.
 * '+' samples t_i = a + i*step (no snapping of the last sample); '++' samples
 * u_i = a + i*du (last forced to b) and v_j = d - j*dv (descending, last forced to c),
 * one scan line per v, as df_generate_pseudodata does.
 * A data file comes a piece at a time (pv_data_reader: from rank 0's pieces, pvox/instream.h),
 * so only a piece and a line cut by its end are held; a line may span pieces.
 * A text source can also be fed in parts from a given reader state (pv_data_text_*: each
 * rank of exec/fill_text.c reads its share of a file; datafile_split.c composes the
 * states); there, when every using entry is a bare column or a constant, a line's fields
 * are found and only the numbers used are read (fast_row), with the same skips. Numbers
 * are read by pv_parse_double (numparse.cc: std::from_chars, strtod's syntax).
 * Matrix and binary data are first read whole into records (datafile_matrix.c) and then
 * walked point by point (walk_records): a block end after each scan line but none between
 * records, `index` selecting records, `every` counting lines and points per record.
 */
#include "datafile_int.h"

#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { COL_GOOD, COL_UNDEF, COL_MISSING, COL_BAD };
enum { ROW_KEEP, ROW_SKIP };
#define BATCH_LANES 512
#define DNAN ((double)NAN)
#define NO_COLUMN INT64_MIN /* `using "name"` with no such header: NaN values */

/* One tokenised row: owned buffers, reused from line to line. */
typedef struct rowbuf {
    pv_ctx *ctx;      /* the arrays are its tracked memory */
    char *line;       /* working copy of the line (fields are NUL-cut inside it) */
    size_t cap, len;  /* its capacity and length (the numbers are read up to line + len) */
    int ncols;
    double *val;      /* val..st: one entry per column, capacities capv..capst */
    char **str;
    bool *valid;
    unsigned char *st; /* COL_* per column */
    size_t capv, caps, capok, capst;
} rowbuf;

/* Batch buffer: rows waiting for vector evaluation, with the events between them. */
typedef struct batch {
    bool on;
    int nslots;
    char *slotname[PV_USING_MAX * 8 + 2];
    int64_t slotcol[PV_USING_MAX * 8 + 2]; /* column number, or INT64_MIN for dummy k */
    int slotdummy[PV_USING_MAX * 8 + 2];   /* dummy index 0/1 for variable slots, else -1 */
    pv_vcode *vc[PV_USING_MAX];
    pv_vscratch *scr[PV_USING_MAX];
    size_t n;                 /* pending lanes */
    double *in;               /* nslots x BATCH_LANES inputs */
    double *bare;             /* nuse x BATCH_LANES values of bare columns */
    double *out;              /* BATCH_LANES results */
    double *res;              /* nuse x BATCH_LANES results */
    int64_t *meta;            /* 5 x BATCH_LANES: line, block, index, ncols, point */
    unsigned char *ev;        /* events before each lane: bit 0 block end, bit 1 set end */
    unsigned char tail_ev;    /* events after the last pending lane */
} batch;

typedef struct iter {
    pv_env *env;
    pv_ctx *ctx;
    const pv_data_spec *ds;
    const pv_data_opts *opts;
    const char *comments;
    pv_data_event_fn fn;
    void *ud;
    int nuse;
    pv_using_entry use[PV_USING_MAX]; /* copies with resolved columns (exprs borrowed) */
    int64_t ev[6];                    /* resolved every */
    int64_t ilo, ihi, istep;          /* resolved index */
    int64_t index, block, point, datum;
    int64_t cur_point;                /* point index in its block of the row being emitted */
    bool auto_ncols;                  /* no using clause: column count set by the first row */
    int blanks;                       /* blank lines in a row so far */
    bool seen_line;                   /* a non-blank, non-comment line was read */
    bool hdr_pending;                 /* next data line is the column header line */
    double sval[2];                   /* current sample values for the dummy variables */
    const char *dummy[2];             /* dummy variable names bound (NULL: none) */
    pv_value saved[2];                /* their previous values, restored at the end */
    bool had_saved[2];
    rowbuf rb;
    char *carry;                      /* a line cut by the end of a piece (read_pieces) */
    size_t carry_cap;
    double vals[PV_USING_MAX];
    char *strs[PV_USING_MAX];
    batch b;
    /* matrix and binary data, walked record by record (walk_records) */
    bool walk;
    int npre;                         /* generated values put before the using values */
    double pre[3];
    pv_df_xform xf;                   /* gnuplot's linear map of the first values */
    bool split;                       /* opts->split_size > 1 on a row source */
    int64_t split_seq;                /* points reported so far in a split iteration */
    double outv[PV_USING_MAX + 3];
    const char *outs[PV_USING_MAX + 3];
    /* the fast path of a text source fed in parts (pv_data_text_begin): every using entry
     * a bare column or a constant, whitespace-separated fields, no missing string */
    bool fast;
    bool line_nl;                     /* the line being read ends with a newline */
    int fmax;                         /* fields read: the largest column needed */
    unsigned char fneed[PV_DF_FAST_MAXCOL], fbad[PV_DF_FAST_MAXCOL];
    double fv[PV_DF_FAST_MAXCOL];
    double fconst[PV_USING_MAX];      /* the value of a constant entry */
} iter;

/* =====================================================================================
 * Tokenising a line
 * ===================================================================================== */

static bool grow_cols(rowbuf *rb, int need)
{
    size_t n = (size_t)need;
    if (n <= rb->capv && n <= rb->caps && n <= rb->capok && n <= rb->capst) return true;
    return PV_GROW(rb->ctx, rb->val, rb->capv, n) && PV_GROW(rb->ctx, rb->str, rb->caps, n) &&
           PV_GROW(rb->ctx, rb->valid, rb->capok, n) && PV_GROW(rb->ctx, rb->st, rb->capst, n);
}

static void rowbuf_fini(rowbuf *rb)
{
    pv_free(rb->ctx, rb->line, rb->cap);
    pv_free(rb->ctx, rb->val, rb->capv * sizeof *rb->val);
    pv_free(rb->ctx, rb->str, rb->caps * sizeof *rb->str);
    pv_free(rb->ctx, rb->valid, rb->capok * sizeof *rb->valid);
    pv_free(rb->ctx, rb->st, rb->capst * sizeof *rb->st);
}

static bool is_sep(const pv_data_opts *o, char ch)
{
    return o->separator ? (ch != '\0' && strchr(o->separator, ch) != NULL)
                        : isspace((unsigned char)ch) != 0;
}

/* Numeric reading of one field starting at s, within a line ending at end (gnuplot:
 * strtod's syntax, read by pv_parse_double; fortran exponents). */
static unsigned char read_number(const pv_data_opts *o, const char *s, const char *end_of_line,
                                 double *out)
{
    if (o->missing && *o->missing) {
        size_t m = strlen(o->missing);
        if (strncmp(s, o->missing, m) == 0 &&
            (s[m] == '\0' || s[m] == '"' || is_sep(o, s[m]) || isspace((unsigned char)s[m]))) {
            *out = DNAN;
            return COL_MISSING;
        }
    }
    char *end = NULL;
    double d = pv_parse_double(s, end_of_line, &end);
    if (end == s) {
        *out = DNAN;
        return COL_BAD;
    }
    if (o->fortran && (*end == 'd' || *end == 'D' || *end == 'q' || *end == 'Q')) {
        char tmp[64];
        size_t n = (size_t)(end - s);
        if (n + 40 < sizeof tmp) {
            memcpy(tmp, s, n);
            tmp[n] = 'e';
            size_t k = 1;
            while (k < 30 && (isdigit((unsigned char)end[k]) || (k == 1 && (end[k] == '-' || end[k] == '+'))))
                tmp[n + k] = end[k], k++;
            tmp[n + k] = '\0';
            d = strtod(tmp, NULL);
        }
    }
    *out = d;
    return isnan(d) ? COL_UNDEF : COL_GOOD;
}

/* Split rb->line into fields (whitespace mode). */
static bool split_ws(rowbuf *rb, const pv_data_opts *o)
{
    char *s = rb->line;
    const char *eol = rb->line + rb->len;
    while (isspace((unsigned char)*s)) s++;
    while (*s) {
        if (!grow_cols(rb, rb->ncols + 1)) return false;
        int k = rb->ncols++;
        rb->st[k] = read_number(o, s, eol, &rb->val[k]);
        char *text = s, *end;
        if (*s == '"') { /* "a b": one field, text without the quotes */
            text = ++s;
            while (*s && *s != '"') s++;
            end = s;
            if (*s) s++;
            while (*s && !isspace((unsigned char)*s)) s++;
        } else {
            while (*s && !isspace((unsigned char)*s)) s++;
            end = s;
        }
        bool more = *s != '\0';
        if (more) s++;
        *end = '\0';
        rb->str[k] = text;
        while (isspace((unsigned char)*s)) s++;
        (void)more;
    }
    return true;
}

/* Split rb->line at separator characters (CSV-like mode). */
static bool split_sep(rowbuf *rb, const pv_data_opts *o)
{
    char *s = rb->line;
    const char *eol = rb->line + rb->len;
    for (;;) {
        if (!grow_cols(rb, rb->ncols + 1)) return false;
        int k = rb->ncols++;
        while (*s && !is_sep(o, *s) && isspace((unsigned char)*s)) s++;
        char *text = s, *end;
        if (*s == '\0' || is_sep(o, *s)) { /* empty field: missing */
            rb->st[k] = COL_MISSING;
            rb->val[k] = DNAN;
            end = s;
        } else if (*s == '"') {
            text = ++s;
            rb->st[k] = read_number(o, s, eol, &rb->val[k]);
            while (*s && *s != '"') s++;
            end = s;
            if (*s) s++;
        } else {
            rb->st[k] = read_number(o, s, eol, &rb->val[k]);
            while (*s && !is_sep(o, *s)) s++;
            end = s;
        }
        while (*s && !is_sep(o, *s)) s++;
        bool more = *s != '\0';
        *end = '\0';
        rb->str[k] = text;
        if (!more) break;
        s++;
    }
    return true;
}

static bool tokenise(rowbuf *rb, const pv_data_opts *o, const char *line, size_t n)
{
    if (n + 1 > rb->cap && !PV_GROW(rb->ctx, rb->line, rb->cap, n + 1)) return false;
    memcpy(rb->line, line, n);
    rb->line[n] = '\0';
    rb->len = n;
    rb->ncols = 0;
    bool ok = o->separator ? split_sep(rb, o) : split_ws(rb, o);
    for (int k = 0; ok && k < rb->ncols; k++) {
        rb->valid[k] = rb->st[k] == COL_GOOD;
        if (rb->st[k] == COL_MISSING) rb->str[k][0] = '\0'; /* stringcolumn() gives "" */
    }
    return ok;
}

/* =====================================================================================
 * Evaluating the using specs on one row
 * ===================================================================================== */

static pv_status loc_err(iter *it, pv_status code, size_t off, const char *msg)
{
    if (it->ds->src) return pv_source_error(it->ctx, code, it->ds->src, off, "%s", msg);
    return pv_err(it->ctx, code, "%s", msg);
}

/* Value of a bare column: ROW_SKIP when gnuplot drops the row. */
static int bare_value(const iter *it, const pv_row *row, const unsigned char *st, int64_t col,
                      double *out)
{
    if (col == 0) return *out = (double)row->line, ROW_KEEP;
    if (col == -1) return *out = (double)row->block, ROW_KEEP;
    if (col == -2) return *out = (double)row->index, ROW_KEEP;
    (void)it;
    if (col == NO_COLUMN) return *out = DNAN, ROW_KEEP;
    if (col < 1 || col > row->ncols) return ROW_SKIP;
    unsigned char s = st ? st[col - 1] : COL_GOOD;
    if (s == COL_BAD || s == COL_MISSING) return ROW_SKIP;
    *out = row->val[col - 1];
    return ROW_KEEP;
}

/* The row-level skips gnuplot derives from an expression's text. */
static int expr_precheck(const pv_using_entry *e, const pv_row *row, const unsigned char *st)
{
    if (e->last_dollar > row->ncols) return ROW_SKIP;
    if (!st) return ROW_KEEP;
    for (int k = 0; k < e->nrefs; k++) {
        int64_t c = e->refs[k];
        if (c >= 1 && c <= row->ncols && st[c - 1] == COL_MISSING) return ROW_SKIP;
    }
    return ROW_KEEP;
}

static double string_number(const char *s)
{
    char *end = NULL;
    double d = strtod(s, &end);
    return end == s ? DNAN : d;
}

static pv_status eval_entry(iter *it, int k, double *out, char **sout)
{
    pv_value v = {PV_V_UNDEF, 0, 0.0, 0.0, NULL};
    pv_status st = pv_eval(it->env, it->use[k].expr, &v);
    if (st != PV_OK) return st;
    switch (v.type) {
    case PV_V_INT: *out = (double)v.i; break;
    case PV_V_CMPLX: *out = v.im != 0.0 ? DNAN : v.re; break;
    case PV_V_STR:
        *out = string_number(v.s);
        *sout = v.s;
        v.s = NULL;
        v.type = PV_V_UNDEF;
        break;
    default: *out = DNAN; break;
    }
    pv_value_free(&v);
    return PV_OK;
}

static void bind_dummies(iter *it)
{
    for (int k = 0; k < 2; k++) {
        if (!it->dummy[k]) continue;
        pv_value v = pv_real(it->sval[k]);
        pv_env_set(it->env, it->dummy[k], &v);
    }
}

static void free_strs(iter *it)
{
    for (int k = 0; k < it->nuse; k++) {
        free(it->strs[k]);
        it->strs[k] = NULL;
    }
}

/* A matrix or binary point: the generated values first, then gnuplot's linear map of the
 * first two (three in splot) values. */
static pv_status emit_walked(iter *it, const pv_row *row)
{
    int n = 0;
    for (int k = 0; k < it->npre; k++) it->outs[n] = NULL, it->outv[n++] = it->pre[k];
    for (int k = 0; k < it->nuse; k++) it->outs[n] = it->strs[k], it->outv[n++] = it->vals[k];
    pv_df_xform_apply(&it->xf, it->outv, n);
    pv_data_point pt = {it->outv, it->outs, n, row, it->cur_point, false};
    return it->fn(it->ud, PV_DATA_POINT, &pt);
}

/* Scalar path: evaluate every entry on `row` and hand the point over. */
static pv_status emit_scalar(iter *it, const pv_row *row, const unsigned char *st)
{
    for (int k = 0; k < it->nuse; k++) {
        const pv_using_entry *e = &it->use[k];
        if (e->kind == PV_USE_EXPR) {
            if (expr_precheck(e, row, st) == ROW_SKIP) return PV_OK;
        } else if (k + 1 == it->opts->text_entry && e->column >= 1 && e->column <= row->ncols) {
            it->vals[k] = row->val[e->column - 1]; /* a text: any field keeps the row */
        } else if (bare_value(it, row, st, e->column, &it->vals[k]) == ROW_SKIP) {
            return PV_OK;
        }
    }
    if (it->split && !pv_data_split_owns(it->split_seq++, it->opts->split_size,
                                         it->opts->split_rank)) {
        /* another share evaluates this row: report its place only */
        for (int k = 0; k < it->nuse; k++) it->vals[k] = DNAN, it->strs[k] = NULL;
        pv_data_point pt = {it->vals, (const char *const *)it->strs, it->nuse, row,
                            it->cur_point, true};
        return it->fn(it->ud, PV_DATA_POINT, &pt);
    }
    pv_status s = PV_OK;
    pv_env_set_row(it->env, row);
    bind_dummies(it);
    for (int k = 0; k < it->nuse && s == PV_OK; k++)
        if (it->use[k].kind == PV_USE_EXPR) s = eval_entry(it, k, &it->vals[k], &it->strs[k]);
    pv_env_set_row(it->env, NULL);
    if (s == PV_OK && it->walk) {
        s = emit_walked(it, row);
    } else if (s == PV_OK) {
        pv_data_point pt = {it->vals, (const char *const *)it->strs, it->nuse, row,
                            it->cur_point, false};
        s = it->fn(it->ud, PV_DATA_POINT, &pt);
    }
    free_strs(it);
    return s;
}

/* =====================================================================================
 * Batch path (vector form)
 * ===================================================================================== */

static void batch_fini(batch *b)
{
    for (int k = 0; k < PV_USING_MAX; k++) {
        pv_vscratch_destroy(b->scr[k]);
        pv_vcode_destroy(b->vc[k]);
    }
    for (int k = 0; k < b->nslots; k++) free(b->slotname[k]);
    free(b->in);
    free(b->bare);
    free(b->out);
    free(b->res);
    free(b->meta);
    free(b->ev);
    memset(b, 0, sizeof *b);
}

static int add_slot(batch *b, const char *name, int64_t col, int dummy)
{
    for (int k = 0; k < b->nslots; k++)
        if (strcmp(b->slotname[k], name) == 0) return k;
    if (b->nslots == (int)(sizeof b->slotname / sizeof b->slotname[0])) return -1;
    size_t n = strlen(name) + 1;
    char *p = malloc(n);
    if (!p) return -1;
    memcpy(p, name, n);
    b->slotname[b->nslots] = p;
    b->slotcol[b->nslots] = col;
    b->slotdummy[b->nslots] = dummy;
    return b->nslots++;
}

/* Try to set up the vector form for every expression; false: use the scalar path. */
static bool batch_init(iter *it, const int64_t *keep, int nkeep)
{
    batch *b = &it->b;
    for (int k = 0; k < nkeep; k++) { /* columns the caller reads from the rows */
        char name[32];
        snprintf(name, sizeof name, "$%lld", (long long)keep[k]);
        if (keep[k] < 1 || add_slot(b, name, keep[k], -1) < 0) return false;
    }
    for (int k = 0; k < it->nuse; k++) {
        const pv_using_entry *e = &it->use[k];
        if (e->kind != PV_USE_EXPR) continue;
        if (!e->vector_ok) return false;
        for (int r = 0; r < e->nrefs; r++) {
            char name[32];
            snprintf(name, sizeof name, "$%lld", (long long)e->refs[r]);
            if (add_slot(b, name, e->refs[r], -1) < 0) return false;
        }
    }
    for (int d = 0; d < 2; d++)
        if (it->dummy[d] && add_slot(b, it->dummy[d], 0, d) < 0) return false;
    bool ok = true;
    pv_err_clear(it->ctx); /* vcompile failures are not errors here: we fall back */
    for (int k = 0; k < it->nuse && ok; k++) {
        if (it->use[k].kind != PV_USE_EXPR) continue;
        ok = pv_vcompile(it->env, it->use[k].expr, b->nslots, (const char *const *)b->slotname,
                         &b->vc[k]) == PV_OK &&
             (b->scr[k] = pv_vscratch_create(b->vc[k], BATCH_LANES)) != NULL;
    }
    pv_err_clear(it->ctx);
    size_t ns = (size_t)(b->nslots ? b->nslots : 1), nu = (size_t)(it->nuse ? it->nuse : 1);
    if (ok) {
        b->in = malloc(ns * BATCH_LANES * sizeof(double));
        b->bare = malloc(nu * BATCH_LANES * sizeof(double));
        b->res = malloc(nu * BATCH_LANES * sizeof(double));
        b->out = malloc(BATCH_LANES * sizeof(double));
        b->meta = malloc(5 * BATCH_LANES * sizeof(int64_t));
        b->ev = calloc(BATCH_LANES, 1);
        ok = b->in && b->bare && b->res && b->out && b->meta && b->ev;
    }
    b->on = ok;
    return ok;
}

static pv_status batch_flush(iter *it)
{
    batch *b = &it->b;
    size_t n = b->n;
    pv_vinput in[PV_USING_MAX * 8 + 2];
    for (int s = 0; s < b->nslots; s++) in[s] = (pv_vinput){b->in + (size_t)s * BATCH_LANES, 1};
    for (int k = 0; k < it->nuse; k++) {
        double *dst = b->res + (size_t)k * BATCH_LANES;
        if (it->use[k].kind == PV_USE_EXPR) {
            if (n) pv_veval(b->vc[k], b->scr[k], n, in, dst);
        } else {
            memcpy(dst, b->bare + (size_t)k * BATCH_LANES, n * sizeof(double));
        }
    }
    pv_status st = PV_OK;
    for (size_t i = 0; i < n && st == PV_OK; i++) {
        if (b->ev[i] & 1) st = it->fn(it->ud, PV_DATA_BLOCK_END, NULL);
        if (st == PV_OK && (b->ev[i] & 2)) st = it->fn(it->ud, PV_DATA_SET_END, NULL);
        if (st != PV_OK) break;
        double rowval[PV_USING_MAX * 8 + 2];
        int64_t maxc = 0;
        for (int s = 0; s < b->nslots; s++)
            if (b->slotdummy[s] < 0 && b->slotcol[s] > maxc) maxc = b->slotcol[s];
        int ncols = (int)b->meta[5 * i + 3];
        if (maxc > ncols) maxc = ncols;
        for (int64_t c = 0; c < maxc; c++) rowval[c] = DNAN;
        for (int s = 0; s < b->nslots; s++)
            if (b->slotdummy[s] < 0 && b->slotcol[s] >= 1 && b->slotcol[s] <= maxc)
                rowval[b->slotcol[s] - 1] = b->in[(size_t)s * BATCH_LANES + i];
        pv_row row = {(int)maxc, rowval, NULL, NULL, b->meta[5 * i], b->meta[5 * i + 1],
                      b->meta[5 * i + 2]};
        for (int k = 0; k < it->nuse; k++) it->vals[k] = b->res[(size_t)k * BATCH_LANES + i];
        pv_data_point pt = {it->vals, (const char *const *)it->strs, it->nuse, &row,
                            b->meta[5 * i + 4], false};
        st = it->fn(it->ud, PV_DATA_POINT, &pt);
    }
    memset(b->ev, 0, BATCH_LANES);
    b->n = 0;
    return st;
}

/* Queue one row (after the bare/precheck skips) for vector evaluation. */
static pv_status emit_batch(iter *it, const pv_row *row, const unsigned char *st)
{
    batch *b = &it->b;
    size_t i = b->n;
    for (int k = 0; k < it->nuse; k++) {
        const pv_using_entry *e = &it->use[k];
        if (e->kind == PV_USE_EXPR) {
            if (expr_precheck(e, row, st) == ROW_SKIP) return PV_OK;
        } else if (bare_value(it, row, st, e->column, &b->bare[(size_t)k * BATCH_LANES + i]) ==
                   ROW_SKIP) {
            return PV_OK;
        }
    }
    for (int s = 0; s < b->nslots; s++) {
        double v;
        if (b->slotdummy[s] >= 0) v = it->sval[b->slotdummy[s]];
        else if (b->slotcol[s] == 0) v = (double)row->line;
        else if (b->slotcol[s] <= row->ncols) v = row->val[b->slotcol[s] - 1];
        else v = DNAN;
        b->in[(size_t)s * BATCH_LANES + i] = v;
    }
    b->meta[5 * i] = row->line;
    b->meta[5 * i + 1] = row->block;
    b->meta[5 * i + 2] = row->index;
    b->meta[5 * i + 3] = row->ncols;
    b->meta[5 * i + 4] = it->cur_point;
    b->ev[i] |= b->tail_ev;
    b->tail_ev = 0;
    b->n++;
    return b->n == BATCH_LANES ? batch_flush(it) : PV_OK;
}

static pv_status emit_event(iter *it, pv_data_event ev)
{
    if (!it->b.on) return it->fn(it->ud, ev, NULL);
    it->b.tail_ev |= ev == PV_DATA_BLOCK_END ? 1 : 2;
    return PV_OK;
}

static pv_status emit_row(iter *it, const pv_row *row, const unsigned char *st)
{
    return it->b.on ? emit_batch(it, row, st) : emit_scalar(it, row, st);
}

/* =====================================================================================
 * Selection (index, every) and counters
 * ===================================================================================== */

static bool index_selected(const iter *it)
{
    if (it->ilo < 0) return true;
    return it->index >= it->ilo && it->index <= it->ihi && (it->index - it->ilo) % it->istep == 0;
}

static bool every_selected(const iter *it, int64_t p, int64_t b)
{
    const int64_t *e = it->ev;
    return p >= e[2] && p <= e[4] && (p - e[2]) % e[0] == 0 && b >= e[3] && b <= e[5] &&
           (b - e[3]) % e[1] == 0;
}

/* A blank line (or the end of a '++' scan). */
static pv_status on_blank(iter *it)
{
    pv_status st = PV_OK;
    if (!it->seen_line) return PV_OK; /* blank lines before the first line: ignored */
    it->blanks++;
    if (it->blanks == 1) {
        if (index_selected(it) && it->point > 0) st = emit_event(it, PV_DATA_BLOCK_END);
        it->block++;
        it->point = 0;
    } else if (it->blanks == 2) {
        if (index_selected(it)) st = emit_event(it, PV_DATA_SET_END);
        it->index++;
        it->block = 0;
        it->datum = 0;
    }
    return st;
}

/* A data line that passed tokenising: apply index/every, then evaluate. */
static pv_status on_data(iter *it, pv_row *row, const unsigned char *st)
{
    it->blanks = 0;
    it->seen_line = true;
    int64_t p = it->point++;
    if (!index_selected(it) || !every_selected(it, p, it->block)) return PV_OK;
    if (it->auto_ncols) { /* gnuplot: without `using`, the first row fixes the columns */
        it->auto_ncols = false;
        if (row->ncols >= 1 && row->ncols < it->nuse) it->nuse = row->ncols;
    }
    it->cur_point = p;
    row->line = it->datum++;
    row->block = it->block;
    row->index = it->index;
    return emit_row(it, row, st);
}

/* =====================================================================================
 * Sources
 * ===================================================================================== */

/* Resolve `using "name"` against the header line in rb. */
static pv_status resolve_headers(iter *it)
{
    for (int k = 0; k < it->nuse; k++) {
        pv_using_entry *e = &it->use[k];
        if (e->kind != PV_USE_HEADER) continue;
        e->kind = PV_USE_COLUMN;
        e->column = NO_COLUMN; /* not found: the value is NaN, as in gnuplot */
        for (int c = 0; c < it->rb.ncols; c++)
            if (strcmp(it->rb.str[c], e->header) == 0) {
                e->column = c + 1;
                break;
            }
        if (e->column == NO_COLUMN && it->ds->src)
            pv_source_warn(it->ctx, it->ds->src, e->off, "no column with header \"%s\"",
                           e->header);
    }
    return PV_OK;
}

/* A data line read by the fast path (fields in it->fv): on_data's counters, bare_value's
 * skips, the constants, and the point handed over directly (no batch is pending). */
static pv_status fast_row(iter *it, int nf)
{
    it->blanks = 0;
    it->seen_line = true;
    int64_t p = it->point++;
    it->cur_point = p;
    int64_t line = it->datum++;
    for (int k = 0; k < it->nuse; k++) {
        const pv_using_entry *e = &it->use[k];
        int64_t col = e->column;
        if (e->kind == PV_USE_EXPR) it->vals[k] = it->fconst[k];
        else if (col == 0) it->vals[k] = (double)line;
        else if (col == -1) it->vals[k] = (double)it->block;
        else if (col == -2) it->vals[k] = (double)it->index;
        else if (col > nf || it->fbad[col - 1]) return PV_OK;
        else it->vals[k] = it->fv[col - 1];
    }
    pv_row row = {nf, it->fv, NULL, NULL, line, it->block, it->index};
    pv_data_point pt = {it->vals, (const char *const *)it->strs, it->nuse, &row, p, false};
    return it->fn(it->ud, PV_DATA_POINT, &pt);
}

/* Can the fast path read this iteration? The constants are evaluated once here (pure, no
 * column: the value every row would give). */
static void fast_init(iter *it, const int64_t *keep, int nkeep)
{
    const pv_data_opts *o = it->opts;
    if (o->separator || (o->missing && *o->missing) || o->fortran || o->text_entry ||
        it->hdr_pending || it->auto_ncols || it->dummy[0] || it->dummy[1] || it->split)
        return;
    memset(it->fneed, 0, sizeof it->fneed);
    int maxcol = 0;
    for (int k = 0; k < it->nuse + nkeep; k++) {
        int64_t col;
        if (k < it->nuse) {
            const pv_using_entry *e = &it->use[k];
            if (e->kind == PV_USE_EXPR) {
                if (!e->vector_ok || e->nrefs > 0 || e->last_dollar > 0 ||
                    !pv_code_is_pure(it->env, e->expr, NULL, NULL))
                    return;
                pv_value v = {PV_V_UNDEF, 0, 0.0, 0.0, NULL};
                pv_status st = pv_eval(it->env, e->expr, &v);
                bool num = st == PV_OK && v.type != PV_V_STR;
                it->fconst[k] = v.type == PV_V_INT    ? (double)v.i
                                : v.type == PV_V_CMPLX ? (v.im != 0.0 ? DNAN : v.re)
                                                        : DNAN;
                pv_value_free(&v);
                if (!num) { /* the row by row path reports it */
                    pv_err_clear(it->ctx);
                    return;
                }
                continue;
            }
            if (e->kind != PV_USE_COLUMN || e->column < -2) return;
            col = e->column;
        } else {
            col = keep[k - it->nuse];
        }
        if (col > PV_DF_FAST_MAXCOL) return;
        if (col >= 1) {
            it->fneed[col - 1] = 1;
            if (col > maxcol) maxcol = (int)col;
        }
    }
    it->fmax = maxcol;
    it->fast = true;
}

static pv_status one_line(iter *it, const char *s, size_t n, int64_t *skip)
{
    while (n > 0 && (s[n - 1] == '\r' || s[n - 1] == '\n')) n--;
    if (*skip > 0) {
        (*skip)--;
        return PV_OK;
    }
    int kind = pv_df_line_kind(it->comments, s, n);
    if (kind == PV_DF_COMMENT) return PV_OK;
    if (kind == PV_DF_BLANK) return on_blank(it);
    it->seen_line = true;
    if (!it->hdr_pending && !(index_selected(it) && every_selected(it, it->point, it->block))) {
        it->blanks = 0; /* on_data's counters for a line it would not emit */
        it->point++;
        return PV_OK;
    }
    int nf;
    if (it->fast && it->line_nl &&
        pv_df_fast_fields(s, n, it->fmax, it->fneed, it->fv, it->fbad, &nf))
        return fast_row(it, nf);
    if (!tokenise(&it->rb, it->opts, s, n)) return pv_err(it->ctx, PV_ENOMEM, "out of memory");
    if (it->hdr_pending) {
        it->hdr_pending = false;
        return resolve_headers(it);
    }
    pv_row row = {it->rb.ncols, it->rb.val, (const char *const *)it->rb.str, it->rb.valid,
                  0, 0, 0};
    return on_data(it, &row, it->rb.st);
}

/* A data file's lines, a piece at a time: a line cut by the end of a piece is carried
 * into the next (it->carry); a last line without a newline still counts. */
static pv_status read_pieces(iter *it, const pv_data_reader *rd)
{
    int64_t skip = it->ds->skip;
    size_t cn = 0;
    pv_status st = PV_OK;
    bool past_index = false;
    while (st == PV_OK && !past_index) {
        const char *p = NULL;
        size_t len = 0, pos = 0;
        if ((st = rd->next(rd->ud, &p, &len)) != PV_OK) break;
        if (len == 0) {
            if (cn > 0) st = one_line(it, it->carry, cn, &skip);
            break;
        }
        while (pos < len && st == PV_OK) {
            const char *nl = memchr(p + pos, '\n', len - pos);
            size_t n = nl ? (size_t)(nl - (p + pos)) : len - pos;
            if (cn > 0 || !nl) { /* joins the carried start of the line, or is carried */
                if (cn + n + 1 > it->carry_cap &&
                    !PV_GROW(it->ctx, it->carry, it->carry_cap, cn + n + 1))
                    return pv_err(it->ctx, PV_ENOMEM, "out of memory");
                memcpy(it->carry + cn, p + pos, n);
                cn += n;
                pos += n + (nl != NULL);
                if (!nl) break;
                st = one_line(it, it->carry, cn, &skip);
                cn = 0;
            } else {
                st = one_line(it, p + pos, n, &skip);
                pos += n + 1;
            }
            if (it->ilo >= 0 && it->index > it->ihi) {
                past_index = true; /* the data sets asked for are behind */
                break;
            }
        }
    }
    return st;
}

static pv_status read_block(iter *it)
{
    size_t n = 0;
    char **lines = pv_env_get_datablock(it->env, it->ds->name, &n);
    if (!lines) {
        char msg[300];
        snprintf(msg, sizeof msg, "no datablock named %s", it->ds->name);
        return loc_err(it, PV_ESCRIPT, it->ds->name_off, msg);
    }
    int64_t skip = it->ds->skip;
    pv_status st = PV_OK;
    for (size_t i = 0; i < n && st == PV_OK; i++) {
        st = one_line(it, lines[i], strlen(lines[i]), &skip);
        if (it->ilo >= 0 && it->index > it->ihi) break;
    }
    return st;
}

/* Sampling: bounds and count of variable k from the sample range or `samp`. */
static pv_status sample_axis(iter *it, const pv_sampling *samp, int k, int ndefault,
                             double *lo, double *hi, double *step, int64_t *n)
{
    const pv_data_spec *ds = it->ds;
    *lo = k ? samp->v_min : samp->u_min;
    *hi = k ? samp->v_max : samp->u_max;
    *step = 0.0;
    pv_status st = PV_OK;
    if (ds->has_sample_range[k]) {
        if (ds->sample_lo[k]) st = pv_eval_real(it->env, ds->sample_lo[k], lo);
        if (st == PV_OK && ds->sample_hi[k]) st = pv_eval_real(it->env, ds->sample_hi[k], hi);
        if (st == PV_OK && ds->sample_step[k])
            st = pv_eval_real(it->env, ds->sample_step[k], step);
        if (st != PV_OK) return st;
    }
    if (*step != 0.0) {
        double q = floor((*hi - *lo) / *step);
        *n = isfinite(q) && q >= 0 ? (int64_t)q + 1 : 1;
    } else {
        *n = ndefault;
        *step = *n > 1 ? (*hi - *lo) / (double)(*n - 1) : 0.0;
    }
    return PV_OK;
}

static pv_status read_plus(iter *it, const pv_sampling *samp)
{
    double lo, hi, step, val[1];
    int64_t n;
    pv_status st = sample_axis(it, samp, 0, samp->samples1, &lo, &hi, &step, &n);
    for (int64_t i = 0; i < n && st == PV_OK; i++) {
        val[0] = it->sval[0] = lo + (double)i * step;
        pv_row row = {1, val, NULL, NULL, 0, 0, 0};
        st = on_data(it, &row, NULL);
    }
    return st;
}

static pv_status read_plusplus(iter *it, const pv_sampling *samp)
{
    double u0, u1, du, v0, v1, dv, val[2];
    int64_t nu, nv;
    pv_status st = sample_axis(it, samp, 0, samp->samples1, &u0, &u1, &du, &nu);
    if (st == PV_OK) st = sample_axis(it, samp, 1, samp->isosamples2, &v0, &v1, &dv, &nv);
    for (int64_t j = 0; j < nv && st == PV_OK; j++) {
        if (j > 0) st = on_blank(it);
        double v = j == nv - 1 ? v0 : v1 - (double)j * dv;
        for (int64_t i = 0; i < nu && st == PV_OK; i++) {
            double u = i == nu - 1 ? u1 : u0 + (double)i * du;
            val[0] = it->sval[0] = u;
            val[1] = it->sval[1] = v;
            pv_row row = {2, val, NULL, NULL, 0, 0, 0};
            st = on_data(it, &row, NULL);
        }
    }
    return st;
}

/* =====================================================================================
 * Matrix and binary data: records walked as gnuplot's binary reader walks them
 * ===================================================================================== */

/* Without `using`: matrix data gives x:y:value (plot: x:value); general binary its first
 * field (coordinates generated by `array`) or the first ndefault fields. */
static void walk_default_columns(iter *it, int ndefault)
{
    const pv_data_spec *ds = it->ds;
    int n = 0;
    int64_t cols[3] = {1, 2, 3};
    if (ds->matrix != PV_MATRIX_NONE) {
        n = ndefault >= 3 ? 3 : ndefault == 2 ? 2 : 1;
        if (n == 2) cols[1] = 3;
        if (n == 1) cols[0] = 3;
    } else if (ds->bin.generate && it->opts && it->opts->plot_dims > 0) {
        /* the fields after the generated coordinates fill the style's columns */
        n = ndefault - it->opts->plot_dims;
        if (n < 1) n = 1;
        if (n > PV_USING_MAX) n = PV_USING_MAX;
    } else {
        n = ds->bin.generate ? 1 : ndefault < 1 ? 1 : ndefault > 3 ? 3 : ndefault;
    }
    it->nuse = n;
    it->auto_ncols = false;
    for (int k = 0; k < n; k++) {
        memset(&it->use[k], 0, sizeof it->use[k]);
        it->use[k].kind = PV_USE_COLUMN;
        it->use[k].column = k < 3 ? cols[k] : k + 1;
    }
}

/* The largest column the using entries read (general binary reads that many fields). */
static int max_column(const iter *it)
{
    int64_t m = 0;
    for (int k = 0; k < it->nuse; k++) {
        const pv_using_entry *e = &it->use[k];
        if (e->kind == PV_USE_COLUMN && e->column > m) m = e->column;
        for (int r = 0; r < e->nrefs; r++)
            if (e->refs[r] > m) m = e->refs[r];
    }
    return m > PV_BIN_FIELDS_MAX ? PV_BIN_FIELDS_MAX : (int)m;
}

static pv_status walk_one(iter *it, const pv_df_record *rec, int64_t r, bool splot)
{
    pv_status st = PV_OK;
    bool selected = it->ilo < 0 || (r >= it->ilo && r <= it->ihi &&
                                    (r - it->ilo) % it->istep == 0);
    int64_t line = 0, point = -1;
    bool any = false;
    pv_df_xform_setup(it->ds, rec, splot, &it->xf);
    for (int64_t p = 0; p < rec->npoints && st == PV_OK; p++) {
        int64_t m = rec->nx > 0 ? p % rec->nx : p, n = rec->nx > 0 ? p / rec->nx : 0;
        if (m == 0 && p > 0) { /* a new scan line: gnuplot's single blank line */
            line++, point = -1;
            if (any) st = emit_event(it, PV_DATA_BLOCK_END);
            any = false;
        }
        if (!selected || st != PV_OK) continue;
        const int64_t *e = it->ev;
        if (line < e[3] || line > e[5] || (line - e[3]) % e[1] != 0) continue;
        ++point;
        if (point < e[2] || point > e[4] || (point - e[2]) % e[0] != 0) continue;
        const double *v = rec->val + (size_t)p * (size_t)rec->ncols;
        bool mat = it->ds->matrix != PV_MATRIX_NONE;
        /* $0: the point in its line; matrix data: the value as gnuplot's int counter */
        int64_t zero = point;
        if (mat) zero = v[2] > -2147483648.0 && v[2] < 2147483648.0 ? (int64_t)v[2] : INT32_MIN;
        pv_row row = {rec->ncols, v, NULL, NULL, zero, line, r};
        it->npre = pv_df_generated(it->ds, v, m, n, splot, it->pre);
        if (splot && it->opts && it->opts->plane_z && it->npre == 3 && it->ds->bin.dim[1] != 0)
            it->pre[2] = 0.0; /* gnuplot's third scan counter: one plane */
        it->cur_point = point;
        st = emit_row(it, &row, NULL);
        any = true;
    }
    return st;
}

static pv_status walk_records(iter *it, const char *text, size_t len, int ndefault)
{
    const pv_data_spec *ds = it->ds;
    bool splot = it->opts && it->opts->plot_dims > 0 ? it->opts->plot_dims == 3 : ndefault >= 3;
    if (ds->nusing == 0) walk_default_columns(it, ndefault);
    pv_df_records R = {NULL, 0, 0};
    pv_status st = PV_OK;
    if (ds->binary) {
        if (!text) return loc_err(it, PV_EIO, ds->name_off, "no data for the data file");
        st = pv_df_read_binary(it->ctx, ds, text, len, max_column(it), &R);
    } else {
        pv_df_lines L = {text, len, 0, NULL, 0, 0};
        if (ds->kind == PV_DS_DATABLOCK) {
            size_t n = 0;
            char **lines = pv_env_get_datablock(it->env, ds->name, &n);
            if (!lines) {
                char msg[300];
                snprintf(msg, sizeof msg, "no datablock named %s", ds->name);
                return loc_err(it, PV_ESCRIPT, ds->name_off, msg);
            }
            L.lines = lines, L.nlines = n;
        } else if (!text) {
            return loc_err(it, PV_EIO, ds->name_off, "no data for the data file");
        }
        st = pv_df_read_ascii_matrix(it->ctx, ds, it->opts, &L, &R);
    }
    if (st != PV_OK && st != PV_ENOMEM && ds->src) { /* locate the reader's message */
        char *msg = strdup(it->ctx->err_msg);
        pv_err_clear(it->ctx);
        st = loc_err(it, st, ds->name_off, msg ? msg : "bad matrix data");
        free(msg);
    }
    it->walk = true;
    for (size_t r = 0; r < R.n && st == PV_OK; r++) st = walk_one(it, &R.rec[r], (int64_t)r, splot);
    pv_df_records_fini(it->ctx, &R);
    return st;
}

/* =====================================================================================
 * Entry points
 * ===================================================================================== */

static pv_status resolve_columns(iter *it, int ndefault)
{
    const pv_data_spec *ds = it->ds;
    if (ds->nusing == 0) {
        it->nuse = ndefault < 0 ? 0 : ndefault > PV_USING_MAX ? PV_USING_MAX : ndefault;
        for (int k = 0; k < it->nuse; k++) {
            memset(&it->use[k], 0, sizeof it->use[k]);
            it->use[k].kind = PV_USE_COLUMN;
            it->use[k].column = k + 1;
        }
        it->auto_ncols = ds->kind == PV_DS_FILE || ds->kind == PV_DS_DATABLOCK;
        return PV_OK;
    }
    it->nuse = ds->nusing;
    for (int k = 0; k < it->nuse; k++) {
        pv_using_entry *e = &it->use[k];
        *e = ds->using[k];
        if (e->kind == PV_USE_HEADER) it->hdr_pending = true;
        if (e->kind != PV_USE_COLUMN || !e->expr) continue;
        pv_value v = {PV_V_UNDEF, 0, 0.0, 0.0, NULL};
        pv_status st = pv_eval(it->env, e->expr, &v);
        if (st != PV_OK) return st;
        if (v.type == PV_V_STR) { /* using col where col = "name": a header name */
            e->kind = PV_USE_HEADER;
            e->header = v.s; /* borrowed until the end of the iteration; freed there */
            it->hdr_pending = true;
            continue;
        }
        double d = pv_value_real(&v);
        pv_value_free(&v);
        /* a row has at most INT_MAX columns (and a larger real has no int64_t value) */
        if (!(d >= -2.0 && d <= INT_MAX) || d != floor(d))
            return loc_err(it, PV_ESCRIPT, e->off, "Column number or datablock line expected");
        e->column = (int64_t)d;
    }
    return PV_OK;
}

static void resolve_selection(iter *it)
{
    pv_df_resolve_selection(it->ds, it->ev, &it->ilo, &it->ihi, &it->istep);
}

static void bind_names(iter *it)
{
    int nvar = it->ds->kind == PV_DS_PLUSPLUS ? 2 : it->ds->kind == PV_DS_PLUS ? 1 : 0;
    for (int k = 0; k < nvar; k++) {
        it->dummy[k] = it->ds->sample_var[k] ? it->ds->sample_var[k] : it->opts->dummy[k];
        if (!it->dummy[k]) continue;
        const pv_value *old = pv_env_get(it->env, it->dummy[k]);
        if (old) {
            it->saved[k] = pv_value_copy(old);
            it->had_saved[k] = true;
        }
    }
}

static void restore_names(iter *it)
{
    for (int k = 0; k < 2; k++) {
        if (!it->dummy[k]) continue;
        if (it->had_saved[k]) {
            pv_env_set(it->env, it->dummy[k], &it->saved[k]);
            pv_value_free(&it->saved[k]);
        } else {
            pv_env_undefine(it->env, it->dummy[k]);
        }
    }
}

/* The whole text of a reader (matrix and binary data are decoded whole). */
static pv_status gather(iter *it, const pv_data_reader *rd, char **text, size_t *len,
                        size_t *cap)
{
    *text = NULL;
    *len = *cap = 0;
    for (;;) {
        const char *p = NULL;
        size_t n = 0;
        pv_status st = rd->next(rd->ud, &p, &n);
        if (st != PV_OK) return st;
        if (!PV_GROW(it->ctx, *text, *cap, *len + n + 1))
            return pv_err(it->ctx, PV_ENOMEM, "out of memory");
        memcpy(*text + *len, p, n);
        *len += n;
        (*text)[*len] = '\0';
        if (n == 0) return PV_OK;
    }
}

/* A whole text as a reader of one piece. */
typedef struct whole {
    const char *text;
    size_t len;
    bool given;
} whole;

static pv_status whole_next(void *ud, const char **data, size_t *n)
{
    whole *w = ud;
    *data = w->text;
    *n = w->given ? 0 : w->len;
    w->given = true;
    return PV_OK;
}

static pv_status read_file_source(iter *it, const char *text, size_t len,
                                  const pv_data_reader *rd, bool walked, int ndefault)
{
    if (!text && !rd) return loc_err(it, PV_EIO, it->ds->name_off, "no data for the data file");
    if (!walked) {
        whole w = {text, len, false};
        pv_data_reader one = {whole_next, &w};
        return read_pieces(it, rd ? rd : &one);
    }
    if (!rd) return walk_records(it, text, len, ndefault);
    char *all = NULL;
    size_t n = 0, cap = 0;
    pv_status st = gather(it, rd, &all, &n, &cap);
    if (st == PV_OK) st = walk_records(it, all, n, ndefault);
    pv_free(it->ctx, all, cap);
    return st;
}

/* An iteration's set-up: options, selection, columns, dummies, the batch path. *it is
 * always set (NULL only when it could not be allocated); close it with iter_close. */
static pv_status iter_open(pv_env *env, const pv_data_spec *ds, const pv_data_opts *opts,
                           int ndefault, bool use_batch, bool allow_fast, const int64_t *keep,
                           int nkeep, pv_data_event_fn fn, void *ud, iter **out)
{
    static const pv_data_opts defaults = {NULL, NULL, NULL, false, {NULL, NULL}, 0, 0, 0, 0, false};
    iter *it = calloc(1, sizeof *it);
    pv_ctx *ctx = pv_env_ctx(env);
    *out = it;
    if (!it) return pv_err(ctx, PV_ENOMEM, "out of memory");
    it->env = env;
    it->ctx = ctx;
    it->rb.ctx = ctx;
    it->ds = ds;
    it->opts = opts ? opts : &defaults;
    it->comments = it->opts->commentschars ? it->opts->commentschars : "#";
    it->fn = fn;
    it->ud = ud;
    resolve_selection(it);
    pv_status st = resolve_columns(it, ndefault);
    if (st == PV_OK) bind_names(it);
    bool walked = ds->matrix != PV_MATRIX_NONE || ds->binary;
    it->split = !walked && it->opts->split_size > 1;
    if (st == PV_OK && allow_fast && !walked) fast_init(it, keep, nkeep);
    if (st == PV_OK && use_batch && !walked && !it->split && !it->fast) batch_init(it, keep, nkeep);
    return st;
}

static void iter_close(iter *it)
{
    if (!it) return;
    restore_names(it);
    for (int k = 0; k < it->nuse; k++)
        if (it->use[k].header && it->use[k].header != it->ds->using[k].header)
            free(it->use[k].header);
    batch_fini(&it->b);
    rowbuf_fini(&it->rb);
    pv_free(it->ctx, it->carry, it->carry_cap);
    free(it);
}

static pv_status iterate(pv_env *env, const pv_data_spec *ds, const pv_data_opts *opts,
                         const char *text, size_t len, const pv_data_reader *rd,
                         const pv_sampling *samp, int ndefault, bool use_batch,
                         pv_data_event_fn fn, void *ud)
{
    static const pv_sampling nosamp = {100, 100, 10, 10, -10.0, 10.0, -5.0, 5.0};
    iter *it = NULL;
    pv_status st = iter_open(env, ds, opts, ndefault, use_batch, false, NULL, 0, fn, ud, &it);
    if (!it) return st;
    if (!samp) samp = &nosamp;
    bool walked = ds->matrix != PV_MATRIX_NONE || ds->binary;
    if (st == PV_OK && ds->has_dataset) /* README "HDF5 datasets": exec/h5src.c reads them */
        st = loc_err(it, PV_ESCRIPT, ds->dataset_off,
                     "an HDF5 dataset can only be read by vfill, vgfill and vload");
    else if (st == PV_OK && walked && ds->kind != PV_DS_FILE) {
        st = walk_records(it, text, len, ndefault);
    } else if (st == PV_OK) {
        switch (ds->kind) {
        case PV_DS_FILE: st = read_file_source(it, text, len, rd, walked, ndefault); break;
        case PV_DS_DATABLOCK: st = read_block(it); break;
        case PV_DS_PLUS: st = read_plus(it, samp); break;
        case PV_DS_PLUSPLUS: st = read_plusplus(it, samp); break;
        }
    }
    if (st == PV_OK && it->b.on) st = batch_flush(it);
    iter_close(it);
    return st;
}

/* ---- a text source fed part by part (pvox/datafile.h) ---- */

struct pv_data_text {
    iter *it;
};

pv_status pv_data_text_begin(pv_env *env, const pv_data_spec *ds, const pv_data_opts *opts,
                             bool use_batch, const int64_t *keep, int nkeep,
                             pv_data_event_fn fn, void *ud, pv_data_text **out)
{
    *out = NULL;
    pv_data_text *t = calloc(1, sizeof *t);
    if (!t) return pv_err(pv_env_ctx(env), PV_ENOMEM, "out of memory");
    bool allow_fast = !getenv("PVOX_TEXT_SLOW"); /* tests compare the two paths */
    pv_status st = iter_open(env, ds, opts, 0, use_batch, allow_fast, keep, nkeep, fn, ud, &t->it);
    if (st != PV_OK) {
        iter_close(t->it);
        free(t);
        return st;
    }
    *out = t;
    return PV_OK;
}

pv_status pv_data_text_feed(pv_data_text *t, const pv_data_state *at, const char *text,
                            size_t len)
{
    iter *it = t->it;
    it->index = at->index;
    it->block = at->block;
    it->point = at->point;
    it->datum = at->datum;
    it->blanks = at->blanks;
    it->seen_line = at->seen_line;
    int64_t skip = at->skip;
    pv_status st = PV_OK;
    const char *p = text, *e = text + len;
    while (p < e && st == PV_OK) {
        if (it->ilo >= 0 && it->index > it->ihi) break; /* the data sets asked for are behind */
        const char *nl = memchr(p, '\n', (size_t)(e - p));
        size_t n = nl ? (size_t)(nl - p) : (size_t)(e - p);
        it->line_nl = nl != NULL;
        st = one_line(it, p, n, &skip);
        p += n + (nl != NULL);
    }
    if (st == PV_OK && it->b.on) st = batch_flush(it);
    return st;
}

void pv_data_text_end(pv_data_text *t)
{
    if (!t) return;
    iter_close(t->it);
    free(t);
}

pv_status pv_data_iterate_ex(pv_env *env, const pv_data_spec *ds, const pv_data_opts *opts,
                             const char *text, size_t len, const pv_sampling *samp,
                             int ndefault, bool use_batch, pv_data_event_fn fn, void *ud)
{
    return iterate(env, ds, opts, text, len, NULL, samp, ndefault, use_batch, fn, ud);
}

pv_status pv_data_iterate_rd(pv_env *env, const pv_data_spec *ds, const pv_data_opts *opts,
                             const pv_data_reader *rd, const pv_sampling *samp, int ndefault,
                             bool use_batch, pv_data_event_fn fn, void *ud)
{
    return iterate(env, ds, opts, NULL, 0, rd, samp, ndefault, use_batch, fn, ud);
}

pv_status pv_data_rows_event(void *rows, pv_data_event ev, const pv_data_point *pt)
{
    const pv_data_rows *r = rows;
    if (ev != PV_DATA_POINT) return PV_OK;
    return r->fn(r->ud, pt->vals, pt->nvals, pt->row);
}

/* The simple interface: points only, NaN for undefined values. */
pv_status pv_data_iterate(pv_env *env, const pv_data_spec *ds, const char *text, size_t len,
                          const pv_sampling *samp, int ndefault, pv_row_fn fn, void *ud)
{
    pv_data_rows r = {fn, ud};
    return pv_data_iterate_ex(env, ds, NULL, text, len, samp, ndefault, false, pv_data_rows_event,
                              &r);
}
