/*
 * datafile.c: parsing of a data source and its clauses, as gnuplot 5.4 reads them in
 * `plot`, `splot` and `vfill`:
 *
 *     {sample [t=a:b{:s}]{[v=c:d{:s}]}} SOURCE {using A:B:...} {every a:b:c:d:e:f}
 *                                         {index n{:m{:s}}} {skip N}
 *                                         {{nonuniform} matrix {columnheaders} {rowheaders}}
 *                                         {binary {binary options}}
 *                                         {dataset "<name>" {order "xyz"}}  (pvox: HDF5)
 *
 * SOURCE is a quoted file name or a string expression (`"data".i.".txt"`), a $datablock,
 * '+', '++' or '-' (inline data: the lexer keeps its block, the caller reads it). The
 * clauses may come in any order; parsing stops before any other word (with, title, ...),
 * which the caller handles. In check mode (exec = false) expressions are compiled and
 * nothing is evaluated; in exec mode the file name and the `every`/`index`/`skip` numbers
 * are evaluated here, `using` expressions later, once per row (datafile_read.c).
 */
#include "datafile_int.h"

#include <stdlib.h>
#include <string.h>

void pv_data_spec_init(pv_data_spec *ds)
{
    memset(ds, 0, sizeof *ds);
    ds->kind = PV_DS_FILE;
    for (int k = 0; k < 6; k++) ds->every[k] = -1;
    ds->index_lo = ds->index_hi = -1;
    ds->index_step = 1;
    ds->inline_tok = SIZE_MAX;
}

void pv_data_spec_fini(pv_data_spec *ds)
{
    if (!ds) return;
    free(ds->name);
    for (int k = 0; k < ds->nusing; k++) {
        pv_code_destroy(ds->using[k].expr);
        free(ds->using[k].header);
    }
    for (int k = 0; k < 2; k++) {
        pv_code_destroy(ds->sample_lo[k]);
        pv_code_destroy(ds->sample_hi[k]);
        pv_code_destroy(ds->sample_step[k]);
        free(ds->sample_var[k]);
    }
    pv_code_destroy(ds->name_expr);
    free(ds->dataset);
    free(ds->order);
    pv_data_spec_init(ds);
}

static char *dupstr(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d) memcpy(d, s, n);
    return d;
}

/* An expression ends a clause field when the next token is ':' or ']' (empty field). */
static bool field_empty(const pv_cursor *c, const char *close)
{
    return pv_cur_at_end(c) || pv_cur_is_op(c, ":") || (close && pv_cur_is_op(c, close));
}

/* ---- sample ranges ------------------------------------------------------------------ */

static pv_status one_range(pv_cursor *c, pv_data_spec *ds, int k)
{
    pv_cur_next(c); /* '[' */
    const pv_token *t = pv_cur_peek(c), *t1 = pv_cur_peek_at(c, 1);
    if (t->kind == PV_TK_NAME && t1->kind == PV_TK_OP && strcmp(t1->op, "=") == 0) {
        if (!(ds->sample_var[k] = dupstr(t->sval)))
            return pv_err(c->ctx, PV_ENOMEM, "out of memory");
        pv_cur_next(c);
        pv_cur_next(c);
    }
    pv_code **dst[3] = {&ds->sample_lo[k], &ds->sample_hi[k], &ds->sample_step[k]};
    for (int f = 0; f < 3; f++) {
        if (f < 2 && pv_cur_is_op(c, "*")) {
            pv_cur_next(c); /* `*`: that end of the axis range */
        } else if (!field_empty(c, "]")) {
            pv_status st = pv_parse_expr(c, dst[f]);
            if (st != PV_OK) return st;
        }
        if (f < 2 && !pv_cur_accept_op(c, ":")) break;
    }
    if (!pv_cur_accept_op(c, "]")) return pv_cur_error(c, PV_ESYNTAX, "expected ']'");
    ds->has_sample_range[k] = true;
    return PV_OK;
}

pv_status pv_data_sample_ranges_parse(pv_cursor *c, pv_data_spec *ds)
{
    for (int k = 0; k < 2 && pv_cur_is_op(c, "["); k++) {
        pv_status st = one_range(c, ds, k);
        if (st != PV_OK) return st;
    }
    if (pv_cur_is_op(c, "[")) return pv_cur_error(c, PV_ESYNTAX, "too many sample ranges");
    return PV_OK;
}

/* ---- the source ------------------------------------------------------------------- */

/* tok: the index of the quoted source token, SIZE_MAX when it came from an expression */
static pv_status set_name(pv_cursor *c, pv_data_spec *ds, const char *name, size_t tok)
{
    if (strcmp(name, "-") == 0) { /* inline data: a file whose text the lexer kept */
        ds->inline_data = true;
        ds->inline_tok = tok;
    }
    if (strcmp(name, "+") == 0) {
        ds->kind = PV_DS_PLUS;
        return PV_OK;
    }
    if (strcmp(name, "++") == 0) {
        ds->kind = PV_DS_PLUSPLUS;
        return PV_OK;
    }
    /* a string naming a datablock is that datablock (plot f where f = "$d") */
    ds->kind = name[0] == '$' && name[1] ? PV_DS_DATABLOCK : PV_DS_FILE;
    free(ds->name);
    if (!(ds->name = dupstr(name))) return pv_err(c->ctx, PV_ENOMEM, "out of memory");
    return PV_OK;
}

static pv_status parse_source(pv_cursor *c, pv_env *env, bool exec, pv_data_spec *ds)
{
    const pv_token *t = pv_cur_peek(c);
    ds->name_off = t->start;
    if (t->kind == PV_TK_DOLLAR) {
        ds->kind = PV_DS_DATABLOCK;
        if (!(ds->name = dupstr(t->sval))) return pv_err(c->ctx, PV_ENOMEM, "out of memory");
        pv_cur_next(c);
        return PV_OK;
    }
    const pv_token *t1 = pv_cur_peek_at(c, 1);
    bool more = t1->kind == PV_TK_OP && (strcmp(t1->op, ".") == 0 || strcmp(t1->op, "[") == 0);
    if (t->kind == PV_TK_STRING && !more) {
        size_t tok = c->pos;
        pv_cur_next(c);
        return set_name(c, ds, t->sval, tok);
    }
    if (t->kind == PV_TK_EOF || t->kind == PV_TK_NEWLINE || t->kind == PV_TK_SEMI)
        return pv_cur_error(c, PV_ESYNTAX, "expected a data source");
    pv_status st = pv_parse_expr(c, &ds->name_expr);
    if (st != PV_OK) return st;
    if (!exec) return PV_OK;
    char *name = NULL;
    st = pv_eval_string(env, ds->name_expr, &name);
    if (st != PV_OK) return st;
    st = set_name(c, ds, name, SIZE_MAX);
    free(name);
    return st;
}

/* ---- using ------------------------------------------------------------------------ */

static void add_ref(pv_using_entry *e, int64_t col)
{
    for (int k = 0; k < e->nrefs; k++)
        if (e->refs[k] == col) return;
    if (e->nrefs < (int)(sizeof e->refs / sizeof e->refs[0])) e->refs[e->nrefs++] = col;
    else e->vector_ok = false; /* too many distinct columns for the slot list */
}

/* Static facts about an expression, from its tokens [first, end). */
static void scan_columns(const pv_toklist *tl, size_t first, size_t end, pv_using_entry *e)
{
    static const char *const rowfuncs[] = {"column", "stringcolumn", "strcol", "valid",
                                           "columnhead", "columnheader", "timecolumn"};
    e->vector_ok = true;
    for (size_t i = first; i < end && i < tl->ntok; i++) {
        const pv_token *t = &tl->tok[i];
        if (t->kind == PV_TK_COLUMN) {
            if (t->ival < 0) e->vector_ok = false; /* $# */
            else add_ref(e, t->ival);
            if (t->ival >= 1) e->last_dollar = t->ival;
        } else if (t->kind == PV_TK_NAME) {
            for (size_t k = 0; k < sizeof rowfuncs / sizeof rowfuncs[0]; k++)
                if (strcmp(t->sval, rowfuncs[k]) == 0) e->vector_ok = false;
            if (strcmp(t->sval, "column") == 0 && i + 3 < end && tl->tok[i + 2].kind == PV_TK_INT &&
                tl->tok[i + 1].kind == PV_TK_OP && strcmp(tl->tok[i + 1].op, "(") == 0 &&
                tl->tok[i + 3].kind == PV_TK_OP && strcmp(tl->tok[i + 3].op, ")") == 0)
                add_ref(e, tl->tok[i + 2].ival);
        } else if (t->kind == PV_TK_OP && strcmp(t->op, "=") == 0) {
            e->vector_ok = false;
        } else if (t->kind == PV_TK_STRING) {
            e->vector_ok = false;
        }
    }
}

static pv_status parse_using_entry(pv_cursor *c, pv_using_entry *e)
{
    const pv_token *t = pv_cur_peek(c);
    e->off = t->start;
    if (t->kind == PV_TK_STRING) { /* "column header" */
        e->kind = PV_USE_HEADER;
        if (!(e->header = dupstr(t->sval))) return pv_err(c->ctx, PV_ENOMEM, "out of memory");
        pv_cur_next(c);
        return PV_OK;
    }
    if (t->kind == PV_TK_INT) {
        const pv_token *t1 = pv_cur_peek_at(c, 1);
        bool alone = t1->kind != PV_TK_OP || strcmp(t1->op, ":") == 0 || strcmp(t1->op, ",") == 0;
        if (alone) { /* the common case: a bare column number */
            e->kind = PV_USE_COLUMN;
            e->column = t->ival;
            pv_cur_next(c);
            return PV_OK;
        }
    }
    if (field_empty(c, NULL) || pv_cur_peek(c)->kind == PV_TK_NEWLINE ||
        pv_cur_peek(c)->kind == PV_TK_SEMI)
        return pv_cur_error(c, PV_ESYNTAX, "Column number or datablock line expected");
    e->kind = pv_cur_is_op(c, "(") ? PV_USE_EXPR : PV_USE_COLUMN;
    e->column = -1000; /* resolved at iteration time for a computed column number */
    size_t first = c->pos;
    pv_status st = pv_parse_expr(c, &e->expr);
    if (st == PV_OK) scan_columns(c->tl, first, c->pos, e);
    return st;
}

static pv_status parse_using(pv_cursor *c, pv_data_spec *ds)
{
    if (ds->nusing > 0)
        return pv_cur_error(c, PV_ESYNTAX, "duplicated or contradicting arguments in datafile options");
    do {
        if (ds->nusing == PV_USING_MAX)
            return pv_cur_error(c, PV_ESYNTAX, "too many using specs (at most %d)", PV_USING_MAX);
        pv_using_entry *e = &ds->using[ds->nusing++];
        memset(e, 0, sizeof *e);
        pv_status st = parse_using_entry(c, e);
        if (st != PV_OK) return st;
    } while (pv_cur_accept_op(c, ":"));
    return PV_OK;
}

/* ---- every / index / skip: colon-separated optional integers -------------------------- */

static pv_status int_fields(pv_cursor *c, pv_env *env, bool exec, int nmax, int64_t *out,
                            int *nfields, bool allow_empty)
{
    int n = 0;
    do {
        if (n == nmax) return pv_cur_error(c, PV_ESYNTAX, "too many fields");
        if (field_empty(c, NULL) || pv_cur_peek(c)->kind == PV_TK_NEWLINE ||
            pv_cur_peek(c)->kind == PV_TK_SEMI) {
            if (!allow_empty) return pv_cur_error(c, PV_ESYNTAX, "expected an integer");
            out[n++] = -1;
            continue;
        }
        pv_code *code = NULL;
        size_t off = pv_cur_offset(c);
        pv_status st = pv_parse_expr(c, &code);
        if (st != PV_OK) return st;
        int64_t v = -1;
        if (exec) st = pv_eval_int(env, code, &v);
        pv_code_destroy(code);
        if (st != PV_OK) return st;
        if (exec && v < 0)
            return pv_source_error(c->ctx, PV_ESCRIPT, c->tl->src, off,
                                   "expected a non-negative integer");
        out[n++] = v;
    } while (pv_cur_accept_op(c, ":"));
    *nfields = n;
    return PV_OK;
}

static pv_status parse_every(pv_cursor *c, pv_env *env, bool exec, pv_data_spec *ds)
{
    int64_t f[6];
    int n = 0;
    pv_status st = int_fields(c, env, exec, 6, f, &n, true);
    if (st != PV_OK) return st;
    for (int k = 0; k < n; k++) ds->every[k] = f[k];
    if (exec && (ds->every[0] == 0 || ds->every[1] == 0))
        return pv_cur_error(c, PV_ESCRIPT, "Expected positive integer");
    return PV_OK;
}

static pv_status parse_index(pv_cursor *c, pv_env *env, bool exec, pv_data_spec *ds)
{
    if (pv_cur_peek(c)->kind == PV_TK_STRING)
        return pv_cur_error(c, PV_ESYNTAX, "index by name is not supported");
    int64_t f[3];
    int n = 0;
    size_t off = pv_cur_offset(c);
    pv_status st = int_fields(c, env, exec, 3, f, &n, false);
    if (st != PV_OK) return st;
    if (!exec) return PV_OK;
    ds->index_lo = f[0];
    ds->index_hi = n > 1 ? f[1] : f[0];
    ds->index_step = n > 2 ? f[2] : 1;
    if (ds->index_hi < ds->index_lo || ds->index_step < 1)
        return pv_source_error(c->ctx, PV_ESCRIPT, c->tl->src, off,
                               "incorrect range specified for index");
    return PV_OK;
}

/* ---- matrix / binary --------------------------------------------------------------- */

static pv_status dup_error(pv_cursor *c)
{
    return pv_cur_error(c, PV_ESYNTAX, "duplicated or contradicting arguments in datafile options");
}

/* `binary {options}`: gnuplot's binary matrix unless a general binary keyword follows. */
static pv_status parse_binary(pv_cursor *c, pv_env *env, bool exec, pv_data_spec *ds)
{
    if (ds->kind == PV_DS_DATABLOCK) return pv_cur_error(c, PV_ESYNTAX, "data blocks cannot be binary");
    if (ds->kind == PV_DS_PLUS || ds->kind == PV_DS_PLUSPLUS)
        return pv_cur_error(c, PV_ESYNTAX, "pseudofiles '+' and '++' cannot be binary");
    pv_cur_next(c);
    if (ds->binary || ds->skip > 0) return dup_error(c);
    ds->binary = true;
    pv_status st = pv_df_binary_opts_parse(c, env, exec, ds);
    if (st == PV_OK)
        ds->matrix = ds->bin.general ? PV_MATRIX_NONE : PV_MATRIX_NONUNIFORM;
    return st;
}

/* matrix, nonuniform, columnheaders, rowheaders: 1 when one was parsed, 0 none, -1 error */
static int parse_matrix_word(pv_cursor *c, pv_data_spec *ds, pv_status *st)
{
    if (pv_cur_accept_word(c, "mat$rix")) {
        if (ds->matrix_explicit) return *st = dup_error(c), -1;
        if (ds->binary && ds->bin.general)
            return *st = pv_cur_error(c, PV_ESYNTAX,
                                      "Conflict between some matrix binary and general binary keywords"),
                   -1;
        ds->matrix_explicit = true;
        if (ds->matrix == PV_MATRIX_NONE) ds->matrix = PV_MATRIX_UNIFORM;
        return 1;
    }
    if (pv_cur_accept_word(c, "nonuni$form")) {
        ds->matrix = PV_MATRIX_NONUNIFORM;
        if (ds->matrix_colheaders || ds->matrix_rowheaders) return *st = dup_error(c), -1;
        return 1;
    }
    bool col = pv_cur_is_word(c, "columnhead$ers"), row = pv_cur_is_word(c, "rowhead$ers");
    if (!col && !row) return 0;
    pv_cur_next(c);
    if (ds->matrix == PV_MATRIX_NONUNIFORM || !ds->matrix_explicit) return *st = dup_error(c), -1;
    if (col) ds->matrix_colheaders = true;
    else ds->matrix_rowheaders = true;
    return 1;
}

/* ---- dataset "<name>" / order "xyz": an HDF5 dataset as the source ------------------- */

/* A string expression after the word: evaluated in exec mode into *out. */
static pv_status string_clause(pv_cursor *c, pv_env *env, bool exec, char **out, size_t *off)
{
    pv_cur_next(c);
    *off = pv_cur_offset(c);
    pv_code *code = NULL;
    pv_status st = pv_parse_expr(c, &code);
    if (st == PV_OK && exec) st = pv_eval_string(env, code, out);
    pv_code_destroy(code);
    return st;
}

static pv_status parse_dataset(pv_cursor *c, pv_env *env, bool exec, pv_data_spec *ds)
{
    if (ds->kind != PV_DS_FILE || ds->inline_data)
        return pv_cur_error(c, PV_ESYNTAX, "dataset reads an HDF5 file, not %s",
                            ds->kind == PV_DS_DATABLOCK ? "a datablock" : "this source");
    if (ds->has_dataset) return dup_error(c);
    ds->has_dataset = true;
    return string_clause(c, env, exec, &ds->dataset, &ds->dataset_off);
}

static pv_status parse_order(pv_cursor *c, pv_env *env, bool exec, pv_data_spec *ds)
{
    if (ds->order_off) return dup_error(c);
    pv_status st = string_clause(c, env, exec, &ds->order, &ds->order_off);
    if (st != PV_OK || !exec) return st;
    bool seen[3] = {false, false, false}, ok = strlen(ds->order) == 3;
    for (int k = 0; k < 3 && ok; k++) {
        int a = ds->order[k] - 'x';
        ok = a >= 0 && a <= 2 && !seen[a];
        if (ok) seen[a] = true;
    }
    if (!ok)
        return pv_source_error(c->ctx, PV_ESCRIPT, c->tl->src, ds->order_off,
                               "order \"%s\" must name the dataset's dimensions slowest first: "
                               "a permutation of \"xyz\" (\"zyx\": x fastest, the default)",
                               ds->order);
    return PV_OK;
}

pv_status pv_data_spec_parse(pv_cursor *c, pv_env *env, bool exec, pv_data_spec *ds)
{
    ds->src = c->tl->src;
    pv_status st = PV_OK;
    if (pv_cur_accept_word(c, "sa$mple")) {
        if (!pv_cur_is_op(c, "[")) return pv_cur_error(c, PV_ESYNTAX, "expected '['");
        st = pv_data_sample_ranges_parse(c, ds);
    }
    if (st == PV_OK) st = parse_source(c, env, exec, ds);
    bool seen_every = false, seen_index = false, seen_skip = false;
    while (st == PV_OK) {
        bool *seen = NULL;
        int which = 0;
        int m = parse_matrix_word(c, ds, &st);
        if (m < 0) return st;
        if (m > 0) continue;
        if (pv_cur_is_word(c, "bin$ary")) {
            st = parse_binary(c, env, exec, ds);
            continue;
        }
        if (pv_cur_is_word(c, "dataset")) {
            st = parse_dataset(c, env, exec, ds);
            continue;
        }
        if (pv_cur_is_word(c, "order")) {
            st = parse_order(c, env, exec, ds);
            continue;
        }
        if (pv_cur_is_word(c, "u$sing")) which = 1;
        else if (pv_cur_is_word(c, "ev$ery")) which = 2, seen = &seen_every;
        else if (pv_cur_is_word(c, "i$ndex")) which = 3, seen = &seen_index;
        else if (pv_cur_is_word(c, "sk$ip")) {
            if (ds->binary) return dup_error(c);
            which = 4, seen = &seen_skip;
        }
        else break;
        if (seen && *seen)
            return pv_cur_error(c, PV_ESYNTAX,
                                "duplicated or contradicting arguments in datafile options");
        if (seen) *seen = true;
        pv_cur_next(c);
        if (which == 1) st = parse_using(c, ds);
        else if (which == 2) st = parse_every(c, env, exec, ds);
        else if (which == 3) st = parse_index(c, env, exec, ds);
        else {
            int64_t v = 0;
            int n = 0;
            st = int_fields(c, env, exec, 1, &v, &n, false);
            ds->skip = exec ? v : 0;
        }
    }
    if (st == PV_OK && ds->has_dataset && (ds->binary || ds->matrix_explicit))
        st = pv_source_error(c->ctx, PV_ESYNTAX, c->tl->src, ds->dataset_off,
                             "a dataset is read as HDF5 says: binary and matrix do not apply");
    if (st == PV_OK && ds->order_off && !ds->has_dataset)
        st = pv_source_error(c->ctx, PV_ESYNTAX, c->tl->src, ds->order_off,
                             "order goes with dataset: \"<file>\" dataset \"<name>\" order \"xyz\"");
    return st;
}
