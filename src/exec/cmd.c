/*
 * exec/cmd.c: simple commands (print, assignments, functions, datablocks, load/call/eval,
 * exit, reset, pause, undefine, show, set/unset dispatch, cd/pwd) and output handling.
 *
 * Output (print, tables): rank 0 writes files and streams; a datablock target is updated
 * on every rank so later commands see the same data everywhere. Opening a file can fail
 * on rank 0 only, so it ends with pv_status_agree.
 */
#define _POSIX_C_SOURCE 200809L
#include "exec_int.h"
#include "gridcmd.h"
#include "iocmd.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* =====================================================================================
 * Small helpers
 * ===================================================================================== */

void pv_exec_skip_rest(pv_cursor *c)
{
    c->pos = c->end;
}

static bool at_stmt_end(const pv_cursor *c)
{
    return pv_cur_at_end(c);
}

pv_status pv_exec_expect_end(pv_cursor *c)
{
    if (at_stmt_end(c)) return PV_OK;
    const pv_token *t = pv_cur_peek(c);
    const char *text = c->tl->src->text;
    int n = (int)(t->end - t->start);
    return pv_cur_error(c, PV_ESYNTAX, "unexpected or unrecognized token: %.*s", n,
                        text + t->start);
}

/* An evaluation error recorded without a location (e.g. by an external builtin such as
 * voxel()) is reported at the start of the expression instead. */
static pv_status locate_error(pv_interp *I, pv_cursor *c, const pv_code *code, pv_status st)
{
    if (I->ctx->err_located || !I->ctx->err_msg || st == PV_EEXIT) return st;
    size_t start, end;
    pv_code_span(code, &start, &end);
    char *msg = strdup(I->ctx->err_msg);
    pv_err_clear(I->ctx);
    st = pv_source_error(I->ctx, st, c->tl->src, start, "%s", msg ? msg : "evaluation failed");
    free(msg);
    return st;
}

pv_status pv_exec_expr(pv_interp *I, pv_cursor *c, bool exec, pv_value *out)
{
    pv_code *code = NULL;
    pv_status st = pv_parse_expr(c, &code);
    if (st != PV_OK) return st;
    if (exec) st = pv_eval(I->env, code, out);
    if (st != PV_OK) st = locate_error(I, c, code, st);
    pv_code_destroy(code);
    return st;
}

/* Evaluate a string expression (exec) into *out (malloc'd); check mode only parses. */
static pv_status string_expr(pv_interp *I, pv_cursor *c, bool exec, char **out)
{
    pv_code *code = NULL;
    *out = NULL;
    pv_status st = pv_parse_expr(c, &code);
    if (st != PV_OK) return st;
    if (exec) st = pv_eval_string(I->env, code, out);
    if (st != PV_OK) st = locate_error(I, c, code, st);
    pv_code_destroy(code);
    return st;
}

static bool next_is_string_start(const pv_cursor *c)
{
    return !at_stmt_end(c) && !pv_cur_is_op(c, ",");
}

static bool op_at(const pv_cursor *c, size_t ahead, const char *op)
{
    const pv_token *t = pv_cur_peek_at(c, ahead);
    return t->kind == PV_TK_OP && strcmp(t->op, op) == 0;
}

static int stmt_line(const pv_cursor *c, size_t off)
{
    int line, col;
    pv_source_locate(c->tl->src, off, &line, &col);
    return line;
}

/* =====================================================================================
 * Output
 * ===================================================================================== */

pv_status pv_exec_datablock_append(pv_interp *I, const char *name, const char *line)
{
    size_t n = 0;
    char **old = pv_env_get_datablock(I->env, name, &n);
    char **lines = malloc((n + 1) * sizeof *lines);
    if (!lines) return pv_err(I->ctx, PV_ENOMEM, "out of memory");
    for (size_t i = 0; i < n; i++) lines[i] = strdup(old[i]);
    lines[n] = strdup(line);
    return pv_env_set_datablock(I->env, name, lines, n + 1);
}

pv_status pv_out_line(pv_interp *I, pv_out *o, const char *line)
{
    switch (o->kind) {
    case PV_OUT_STDERR:
        pv_msg(I->ctx, "%s\n", line);
        return PV_OK;
    case PV_OUT_STDOUT:
        if (I->ctx->rank == 0) {
            fputs(line, stdout);
            fputc('\n', stdout);
            fflush(stdout);
        }
        return PV_OK;
    case PV_OUT_FILE:
        if (o->fp) {
            fputs(line, o->fp);
            fputc('\n', o->fp);
        }
        return PV_OK;
    case PV_OUT_DATABLOCK:
        return pv_exec_datablock_append(I, o->name, line);
    }
    return PV_OK;
}

void pv_out_close(pv_interp *I, pv_out *o)
{
    (void)I;
    if (o->fp) fclose(o->fp);
    free(o->name);
    memset(o, 0, sizeof *o);
}

pv_status pv_out_open(pv_interp *I, pv_out *o, pv_out_kind kind, const char *name,
                      bool append, pv_cursor *c, size_t off)
{
    pv_out_close(I, o);
    o->kind = kind;
    if (name) o->name = strdup(name);
    pv_status st = PV_OK;
    if (kind == PV_OUT_FILE) {
        if (I->ctx->rank == 0) {
            o->fp = fopen(name, append ? "a" : "w");
            if (!o->fp)
                st = pv_source_error(I->ctx, PV_EIO, c->tl->src, off, "cannot open '%s': %s",
                                     name, strerror(errno));
        }
        st = pv_status_agree(I->ctx, st);
        if (st != PV_OK) pv_out_close(I, o);
    } else if (kind == PV_OUT_DATABLOCK && !append) {
        char **none = malloc(sizeof(char *));
        st = pv_env_set_datablock(I->env, name, none, 0);
    } else if (kind == PV_OUT_DATABLOCK && !pv_env_get_datablock(I->env, name, &(size_t){0})) {
        char **none = malloc(sizeof(char *));
        st = pv_env_set_datablock(I->env, name, none, 0);
    }
    return st;
}

/* Parse an output target: nothing, a datablock or a string expression, then `append`.
 * Sets the kind and the name (malloc'd) in exec mode. */
static pv_status parse_target(pv_interp *I, pv_cursor *c, bool exec, pv_out_kind deflt,
                              pv_out_kind *kind, char **name, bool *append, size_t *off)
{
    *kind = deflt;
    *name = NULL;
    *append = false;
    *off = pv_cur_offset(c);
    pv_status st = PV_OK;
    if (at_stmt_end(c)) return PV_OK;
    const pv_token *t = pv_cur_peek(c);
    if (t->kind == PV_TK_DOLLAR) {
        *kind = PV_OUT_DATABLOCK;
        if (exec) *name = strdup(t->sval);
        pv_cur_next(c);
    } else if (!pv_cur_is_word(c, "append")) {
        if ((st = string_expr(I, c, exec, name)) != PV_OK) return st;
        if (exec) *kind = strcmp(*name, "-") == 0 ? PV_OUT_STDOUT : PV_OUT_FILE;
    }
    if (pv_cur_accept_word(c, "app$end")) *append = true;
    return pv_exec_expect_end(c);
}

/* =====================================================================================
 * print
 * ===================================================================================== */

static pv_status print_to(pv_interp *I, pv_cursor *c, bool exec, pv_out *out);

static pv_status cmd_print(pv_interp *I, pv_cursor *c, bool exec)
{
    return print_to(I, c, exec, &I->print_out);
}

/* printerr: like print, always to stderr */
static pv_status cmd_printerr(pv_interp *I, pv_cursor *c, bool exec)
{
    pv_out err = {PV_OUT_STDERR, NULL, NULL};
    return print_to(I, c, exec, &err);
}

static pv_status print_to(pv_interp *I, pv_cursor *c, bool exec, pv_out *out)
{
    pv_cur_next(c);
    /* print $block: its lines, then an empty line (gnuplot) */
    const pv_token *t = pv_cur_peek(c);
    if (t->kind == PV_TK_DOLLAR && c->pos + 1 == c->end) {
        pv_cur_next(c);
        if (!exec) return PV_OK;
        size_t n = 0;
        char **lines = pv_env_get_datablock(I->env, t->sval, &n);
        if (!lines)
            return pv_source_error(I->ctx, PV_ESCRIPT, c->tl->src, t->start,
                                   "no datablock named %s", t->sval);
        /* copy first: printing may append to this very datablock (set print $d) */
        char **copy = malloc((n ? n : 1) * sizeof *copy);
        if (!copy) return pv_err(I->ctx, PV_ENOMEM, "out of memory");
        for (size_t i = 0; i < n; i++) copy[i] = strdup(lines[i]);
        pv_status st = PV_OK;
        for (size_t i = 0; i < n && st == PV_OK; i++) st = pv_out_line(I, out, copy[i]);
        for (size_t i = 0; i < n; i++) free(copy[i]);
        free(copy);
        return st == PV_OK ? pv_out_line(I, out, "") : st;
    }
    size_t cap = 128, len = 0;
    char *line = exec ? malloc(cap) : NULL;
    if (exec && !line) return pv_err(I->ctx, PV_ENOMEM, "out of memory");
    if (line) line[0] = '\0';
    pv_status st = PV_OK;
    bool first = true;
    while (st == PV_OK && !at_stmt_end(c)) {
        if (!first && !pv_cur_accept_op(c, ",")) {
            st = pv_exec_expect_end(c);
            break;
        }
        size_t off = pv_cur_offset(c), first_tok = c->pos;
        pv_value v = {0};
        char *s = NULL;
        const pv_token *nt = pv_cur_peek(c), *after = pv_cur_peek_at(c, 1);
        size_t na = 0;
        if (exec && nt->kind == PV_TK_NAME && pv_env_get_array(I->env, nt->sval, &na) &&
            (c->pos + 1 >= c->end || (after->kind == PV_TK_OP && !strcmp(after->op, ",")))) {
            /* print A: the array's content and a newline (gnuplot's save_array_content;
             * no newline in a datablock) */
            char *a = pv_array_format(pv_env_get_array(I->env, nt->sval, NULL), na);
            pv_cur_next(c);
            if (!a) { free(line); return pv_err(I->ctx, PV_ENOMEM, "out of memory"); }
            bool nl = out->kind != PV_OUT_DATABLOCK;
            s = malloc(strlen(a) + 2);
            if (s) sprintf(s, "%s%s", a, nl ? "\n" : "");
            free(a);
        } else if ((st = pv_exec_expr(I, c, exec, &v)) != PV_OK) {
            break;
        } else if (exec && v.type == PV_V_UNDEF) {
            /* an undefined array element prints as <undefined>; 1/0 is an error */
            if (!pv_exec_is_array_element(I, c, first_tok, c->pos)) {
                st = pv_source_error(I->ctx, PV_ESCRIPT, c->tl->src, off, "undefined value");
                break;
            }
            s = strdup("<undefined>");
        } else if (exec) {
            s = pv_value_format(&v);
            pv_value_free(&v);
        }
        if (exec) {
            size_t n = s ? strlen(s) : 0;
            while (len + n + 2 > cap) {
                char *nl = realloc(line, cap *= 2);
                if (!nl) { free(s); free(line); return pv_err(I->ctx, PV_ENOMEM, "out of memory"); }
                line = nl;
            }
            if (!first) line[len++] = ' ';
            if (s) memcpy(line + len, s, n);
            len += n;
            line[len] = '\0';
            free(s);
        }
        first = false;
    }
    if (st == PV_OK && exec) st = pv_out_line(I, out, line);
    free(line);
    return st;
}

/* =====================================================================================
 * Assignments, functions, datablocks
 * ===================================================================================== */

bool pv_exec_is_array_element(pv_interp *I, const pv_cursor *c, size_t lo, size_t hi)
{
    const pv_toklist *tl = c->tl;
    if (hi < lo + 4 || tl->tok[lo].kind != PV_TK_NAME ||
        !pv_env_get_array(I->env, tl->tok[lo].sval, NULL))
        return false;
    if (tl->tok[lo + 1].kind != PV_TK_OP || strcmp(tl->tok[lo + 1].op, "[") != 0) return false;
    int depth = 0;
    for (size_t i = lo + 1; i < hi; i++) {
        const pv_token *t = &tl->tok[i];
        if (t->kind != PV_TK_OP) continue;
        if (!strcmp(t->op, "[")) depth++;
        else if (!strcmp(t->op, "]") && --depth == 0) return i == hi - 1;
    }
    return false;
}

/* `A[i] = expr`: a name, `[`, and the matching `]` followed by `=` (gnuplot's
 * is_array_assignment(); `plot [a:b] f` does not have that shape). */
bool pv_exec_is_array_assignment(const pv_cursor *c)
{
    if (pv_cur_peek(c)->kind != PV_TK_NAME || !op_at(c, 1, "[")) return false;
    int depth = 0;
    for (size_t i = c->pos + 1; i < c->end; i++) {
        const pv_token *t = &c->tl->tok[i];
        if (t->kind != PV_TK_OP) continue;
        if (!strcmp(t->op, "[")) depth++;
        else if (!strcmp(t->op, "]") && --depth == 0)
            return i + 1 < c->end && c->tl->tok[i + 1].kind == PV_TK_OP &&
                   !strcmp(c->tl->tok[i + 1].op, "=");
    }
    return false;
}

/* An integer-valued expression (gnuplot's int_expression(): reals truncate). */
static pv_status int_expr(pv_interp *I, pv_cursor *c, bool exec, int64_t *out)
{
    size_t off = pv_cur_offset(c);
    pv_value v = {0};
    pv_status st = pv_exec_expr(I, c, exec, &v);
    if (st != PV_OK || !exec) return st;
    if (v.type == PV_V_INT) *out = v.i;
    else if (v.type == PV_V_CMPLX && v.re > -9.2e18 && v.re < 9.2e18) *out = (int64_t)v.re;
    else st = pv_source_error(I->ctx, PV_ESCRIPT, c->tl->src, off,
                              v.type == PV_V_UNDEF ? "undefined value" : "expecting integer");
    pv_value_free(&v);
    return st;
}

pv_status pv_cmd_array_assign(pv_interp *I, pv_cursor *c, bool exec)
{
    const pv_token *name = pv_cur_peek(c);
    if (exec && !pv_env_get_array(I->env, name->sval, NULL))
        return pv_cur_error(c, PV_ESCRIPT, "Not a known array");
    pv_cur_next(c);
    pv_cur_next(c); /* [ */
    int64_t k = 0;
    pv_status st = int_expr(I, c, exec, &k);
    if (st != PV_OK) return st;
    size_t n = 0;
    if (exec && (pv_env_get_array(I->env, name->sval, &n), k <= 0 || (uint64_t)k > n))
        return pv_cur_error(c, PV_ESCRIPT, "array index out of range");
    if (!pv_cur_is_op(c, "]") || !op_at(c, 1, "="))
        return pv_cur_error(c, PV_ESYNTAX, "Expecting Arrayname[<expr>] = <expr>");
    pv_cur_next(c);
    pv_cur_next(c);
    size_t off = pv_cur_offset(c), first = c->pos;
    pv_value v = {0};
    if ((st = pv_exec_expr(I, c, exec, &v)) != PV_OK) return st;
    if ((st = pv_exec_expect_end(c)) != PV_OK || !exec) {
        pv_value_free(&v);
        return st;
    }
    if (v.type == PV_V_UNDEF && !pv_exec_is_array_element(I, c, first, c->pos))
        return pv_source_error(I->ctx, PV_ESCRIPT, c->tl->src, off, "undefined value");
    pv_value *a = pv_env_get_array(I->env, name->sval, &n); /* the value may have resized it */
    if (!a || (uint64_t)k > n) {
        pv_value_free(&v);
        return pv_source_error(I->ctx, PV_ESCRIPT, c->tl->src, name->start,
                               "array index out of range");
    }
    pv_value_free(&a[k - 1]);
    a[k - 1] = v;
    return PV_OK;
}

/* array A[N] {= [v, , "s", ...]} and array A = [...] (gnuplot 5.4 array_command) */
static pv_status cmd_array(pv_interp *I, pv_cursor *c, bool exec)
{
    pv_cur_next(c);
    const pv_token *name = pv_cur_peek(c);
    if (name->kind != PV_TK_NAME) return pv_cur_error(c, PV_ESYNTAX, "illegal variable name");
    pv_cur_next(c);
    int64_t nsize = 0;
    bool sized = false;
    pv_status st = PV_OK;
    if (pv_cur_accept_op(c, "[")) {
        if ((st = int_expr(I, c, exec, &nsize)) != PV_OK) return st;
        if (!pv_cur_accept_op(c, "]")) return pv_cur_error(c, PV_ESYNTAX, "expecting array[size>0]");
        sized = true;
    } else if (pv_cur_is_op(c, "=") && op_at(c, 1, "[")) {
        /* gnuplot estimates the size by counting the commas up to the first `]` */
        int braces = 0;
        for (size_t i = c->pos + 2; i < c->end; i++) {
            const pv_token *t = &c->tl->tok[i];
            if (t->kind != PV_TK_OP) continue;
            if (!strcmp(t->op, "{")) braces++;
            else if (!strcmp(t->op, "}")) braces--;
            else if (!strcmp(t->op, ",") && braces == 0) nsize++;
            else if (!strcmp(t->op, "]")) {
                nsize++;
                break;
            }
        }
        sized = true;
    }
    size_t prev = c->pos > 0 ? c->tl->tok[c->pos - 1].start : 0;
    if ((!sized || exec) && nsize <= 0)
        return pv_source_error(I->ctx, PV_ESYNTAX, c->tl->src, prev, "expecting array[size>0]");
    if (nsize > 100000000)
        return pv_source_error(I->ctx, PV_ESCRIPT, c->tl->src, prev, "array too large");
    pv_value *vals = exec ? calloc((size_t)nsize, sizeof *vals) : NULL;
    if (exec && !vals) return pv_err(I->ctx, PV_ENOMEM, "out of memory");
    if (pv_cur_accept_op(c, "=")) {
        if (!pv_cur_accept_op(c, "["))
            st = pv_cur_error(c, PV_ESYNTAX, "expecting Array[size] = [x,y,...]");
        for (int64_t i = 0; st == PV_OK && (!exec || i < nsize); i++) {
            if (pv_cur_is_op(c, "]") || pv_cur_at_end(c)) break;
            if (pv_cur_accept_op(c, ",")) continue;
            size_t off = pv_cur_offset(c);
            pv_value v = {0};
            if ((st = pv_exec_expr(I, c, exec, &v)) != PV_OK) break;
            if (exec && v.type == PV_V_UNDEF) {
                st = pv_source_error(I->ctx, PV_ESCRIPT, c->tl->src, off, "undefined value");
                break;
            }
            if (exec) vals[i] = v;
            if (pv_cur_is_op(c, "]")) break;
            if (!pv_cur_accept_op(c, ","))
                st = pv_cur_error(c, PV_ESYNTAX, "expecting Array[size] = [x,y,...]");
        }
        if (st == PV_OK) pv_cur_next(c); /* the `]` (gnuplot steps over one token) */
    }
    if (st == PV_OK) st = pv_exec_expect_end(c);
    if (st == PV_OK && exec) {
        pv_env_undefine(I->env, name->sval); /* a variable of that name becomes the array */
        st = pv_env_set_array(I->env, name->sval, (size_t)nsize);
        pv_value *a = st == PV_OK ? pv_env_get_array(I->env, name->sval, NULL) : NULL;
        for (int64_t i = 0; a && i < nsize; i++) a[i] = vals[i], vals[i] = (pv_value){0};
    }
    for (int64_t i = 0; vals && i < nsize; i++) pv_value_free(&vals[i]);
    free(vals);
    return st;
}

bool pv_exec_is_assignment(const pv_cursor *c)
{
    const pv_token *a = pv_cur_peek(c), *b = pv_cur_peek_at(c, 1);
    return a->kind == PV_TK_NAME && b->kind == PV_TK_OP && strcmp(b->op, "=") == 0;
}

bool pv_exec_is_funcdef(const pv_cursor *c)
{
    if (pv_cur_peek(c)->kind != PV_TK_NAME) return false;
    const pv_token *t = pv_cur_peek_at(c, 1);
    if (t->kind != PV_TK_OP || strcmp(t->op, "(") != 0) return false;
    for (size_t k = 2;; k += 2) {
        if (pv_cur_peek_at(c, k)->kind != PV_TK_NAME) return false;
        t = pv_cur_peek_at(c, k + 1);
        if (t->kind != PV_TK_OP) return false;
        if (strcmp(t->op, ")") == 0) {
            t = pv_cur_peek_at(c, k + 2);
            return t->kind == PV_TK_OP && strcmp(t->op, "=") == 0;
        }
        if (strcmp(t->op, ",") != 0) return false;
    }
}

pv_status pv_cmd_assign(pv_interp *I, pv_cursor *c, bool exec)
{
    const pv_token *name = pv_cur_peek(c);
    pv_cur_next(c);
    pv_cur_next(c); /* = */
    size_t off = pv_cur_offset(c);
    size_t first = c->pos;
    pv_value v = {0};
    pv_status st = pv_exec_expr(I, c, exec, &v);
    if (st == PV_OK) st = pv_exec_expect_end(c);
    if (st == PV_OK && exec) {
        if (v.type == PV_V_UNDEF && pv_exec_is_array_element(I, c, first, c->pos))
            pv_env_undefine(I->env, name->sval); /* gnuplot: x = A[i] of an unset element */
        else if (v.type == PV_V_UNDEF)
            st = pv_source_error(I->ctx, PV_ESCRIPT, c->tl->src, off, "undefined value");
        else if ((st = pv_env_set(I->env, name->sval, &v)) == PV_OK)
            pv_env_remove_array(I->env, name->sval); /* `A = 5` replaces an array A */
    }
    pv_value_free(&v);
    return st;
}

pv_status pv_cmd_funcdef(pv_interp *I, pv_cursor *c, bool exec)
{
    const pv_token *name = pv_cur_peek(c);
    size_t start = name->start;
    pv_cur_next(c);
    pv_cur_next(c); /* ( */
    char *params[16];
    int np = 0;
    pv_status st = PV_OK;
    while (pv_cur_peek(c)->kind == PV_TK_NAME) {
        if (np == 16) {
            st = pv_cur_error(c, PV_ESYNTAX, "too many parameters in function definition");
            goto fail;
        }
        params[np++] = strdup(pv_cur_peek(c)->sval);
        pv_cur_next(c);
        pv_cur_accept_op(c, ",");
    }
    pv_cur_next(c); /* ) */
    pv_cur_next(c); /* = */
    pv_code *body = NULL;
    if ((st = pv_parse_expr(c, &body)) != PV_OK) goto fail;
    if ((st = pv_exec_expect_end(c)) != PV_OK || !exec) {
        pv_code_destroy(body);
        goto fail;
    }
    size_t end = c->tl->tok[c->pos - 1].end;
    const char *text = c->tl->src->text;
    char *def = strndup(text + start, end - start);
    char **pv = malloc((size_t)(np > 0 ? np : 1) * sizeof *pv);
    if (!def || !pv) {
        free(def);
        free(pv);
        pv_code_destroy(body);
        st = pv_err(I->ctx, PV_ENOMEM, "out of memory");
        goto fail;
    }
    memcpy(pv, params, (size_t)np * sizeof *pv);
    st = pv_env_define_func(I->env, name->sval, np, pv, body, def);
    free(def);
    return st;
fail:
    for (int i = 0; i < np; i++) free(params[i]);
    return st;
}

/* Split a heredoc body into lines (the final newline does not start a line). */
static char **split_lines(const char *s, size_t len, size_t *n)
{
    size_t cnt = 0;
    for (size_t i = 0; i < len; i++)
        if (s[i] == '\n') cnt++;
    char **lines = malloc((cnt + 2) * sizeof *lines);
    *n = 0;
    if (!lines) return NULL;
    size_t b = 0;
    for (size_t i = 0; i <= len; i++) {
        if (i == len && i == b) break;
        if (i == len || s[i] == '\n') {
            size_t e = i;
            if (e > b && s[e - 1] == '\r') e--;
            lines[(*n)++] = strndup(s + b, e - b);
            b = i + 1;
        }
    }
    return lines;
}

pv_status pv_cmd_datablock(pv_interp *I, pv_cursor *c, bool exec)
{
    const pv_token *name = pv_cur_peek(c);
    pv_cur_next(c);
    pv_cur_next(c); /* << */
    /* the lexer gives `$name << EOD` NEWLINE HEREDOC NEWLINE; the statement includes the body */
    while (c->pos < c->end && c->pos + 1 < c->tl->ntok && pv_cur_peek(c)->kind != PV_TK_HEREDOC)
        c->pos++;
    const pv_token *body = pv_cur_peek(c);
    if (body->kind != PV_TK_HEREDOC)
        return pv_cur_error(c, PV_ESYNTAX, "missing datablock body");
    pv_cur_next(c);
    if (!exec) return PV_OK;
    size_t n = 0;
    char **lines = split_lines(body->sval ? body->sval : "", body->sval ? body->slen : 0, &n);
    if (!lines) return pv_err(I->ctx, PV_ENOMEM, "out of memory");
    return pv_env_set_datablock(I->env, name->sval, lines, n);
}

/* =====================================================================================
 * load, call, eval
 * ===================================================================================== */

pv_status pv_exec_read_file(pv_interp *I, pv_cursor *c, size_t off, const char *path,
                            char **data, size_t *len)
{
    pv_status st = pv_read_file_bcast(I->ctx, path, data, len);
    if (st == PV_OK || I->ctx->err_located || !I->ctx->err_msg) return st;
    char *msg = strdup(I->ctx->err_msg); /* the same on every rank: it was agreed */
    pv_err_clear(I->ctx);
    st = pv_source_error(I->ctx, st, c->tl->src, off, "%s", msg ? msg : "cannot read file");
    free(msg);
    return st;
}

static pv_status run_file(pv_interp *I, pv_cursor *c, size_t off, const char *path)
{
    char *data = NULL;
    size_t len = 0;
    pv_status st = pv_exec_read_file(I, c, off, path, &data, &len);
    if (st != PV_OK) return st;
    pv_source *src = pv_source_create(I->ctx, path, data, len, 1);
    free(data);
    if (!src) return I->ctx->err_code ? I->ctx->err_code : PV_ENOMEM;
    I->file_depth++;
    st = pv_exec_source(I, src);
    I->file_depth--;
    if (I->flow == PV_FLOW_RETURN) I->flow = PV_FLOW_NONE;
    return st;
}

static pv_status cmd_load(pv_interp *I, pv_cursor *c, bool exec)
{
    pv_cur_next(c);
    size_t off = pv_cur_offset(c);
    char *path = NULL;
    pv_status st = string_expr(I, c, exec, &path);
    if (st == PV_OK) st = pv_exec_expect_end(c);
    if (st == PV_OK && exec) st = run_file(I, c, off, path);
    free(path);
    return st;
}

#define PV_NARGS 10

/* Check pass: step over one `call` argument without evaluating (the run decides by the
 * variables' types; this only has to count arguments). */
static pv_status call_arg_check(pv_cursor *c)
{
    const pv_token *t = pv_cur_peek(c);
    if (t->kind == PV_TK_NAME || pv_cur_is_op(c, "(")) {
        pv_code *code = NULL;
        pv_status st = pv_parse_expr(c, &code);
        pv_code_destroy(code);
        return st;
    }
    pv_cur_next(c);
    return PV_OK;
}

static bool ends_operand(const pv_token *t)
{
    switch (t->kind) {
    case PV_TK_NAME: case PV_TK_INT: case PV_TK_REAL: case PV_TK_STRING: case PV_TK_DOLLAR:
    case PV_TK_COLUMN:
        return true;
    case PV_TK_OP:
        return strcmp(t->op, ")") == 0 || strcmp(t->op, "]") == 0 || strcmp(t->op, "}") == 0 ||
               strcmp(t->op, "!") == 0;
    default:
        return false;
    }
}

/* gnuplot's try_to_get_string() parses with string_result_only, which stops at a binary
 * `+` or `-` outside brackets (`call "f" s -2` passes s, "-", "2"): the token index where
 * such an expression ends. */
static size_t string_stop(const pv_cursor *c)
{
    int depth = 0;
    for (size_t i = c->pos; i < c->end; i++) {
        const pv_token *t = &c->tl->tok[i];
        if (t->kind != PV_TK_OP) continue;
        if (!strcmp(t->op, "(") || !strcmp(t->op, "[") || !strcmp(t->op, "{")) depth++;
        else if (!strcmp(t->op, ")") || !strcmp(t->op, "]") || !strcmp(t->op, "}")) depth--;
        else if (depth == 0 && i > c->pos && (!strcmp(t->op, "+") || !strcmp(t->op, "-")) &&
                 ends_operand(&c->tl->tok[i - 1]))
            return i;
    }
    return c->end;
}

/* try_to_get_string(): a string-valued expression at the cursor (consumed, *out set), or
 * nothing (cursor unchanged, *out NULL). An undefined variable is not an error here. */
static pv_status try_string(pv_interp *I, pv_cursor *c, char **out)
{
    *out = NULL;
    const pv_token *t = pv_cur_peek(c);
    if (t->kind == PV_TK_NAME && !op_at(c, 1, "(") && !pv_env_get(I->env, t->sval))
        return PV_OK; /* gnuplot evaluates it as NaN: not a string */
    size_t start = c->pos, end = c->end;
    c->end = string_stop(c);
    pv_value v = {0};
    pv_status st = pv_exec_expr(I, c, true, &v);
    c->end = end;
    if (st != PV_OK) return st;
    if (v.type == PV_V_UNDEF)
        return pv_source_error(I->ctx, PV_ESCRIPT, c->tl->src, t->start, "undefined value");
    if (v.type == PV_V_STR) {
        *out = v.s;
        return PV_OK;
    }
    pv_value_free(&v);
    c->pos = start;
    return PV_OK;
}

/* One `call` argument, as gnuplot 5.4.4's prepare_call() takes it: ARGn (*out) and the
 * ARGV element (*val). A string expression as it is; `(` or a numeric variable starts an
 * expression (ARGn "%d" / "%g", ARGV the value); any other token as its text (so `-2`
 * gives "-" and "2"), ARGV a number when the text is one (strtod). */
static pv_status call_arg(pv_interp *I, pv_cursor *c, char **out, pv_value *val)
{
    const pv_token *t = pv_cur_peek(c);
    const char *text = c->tl->src->text;
    *val = (pv_value){0};
    pv_status st = try_string(I, c, out);
    if (st != PV_OK || *out) {
        if (*out) *val = pv_str(*out);
        return st;
    }
    const pv_value *var = t->kind == PV_TK_NAME ? pv_env_get(I->env, t->sval) : NULL;
    if (pv_cur_is_op(c, "(") || (var && (var->type == PV_V_INT || var->type == PV_V_CMPLX))) {
        pv_value v = {0};
        if ((st = pv_exec_expr(I, c, true, &v)) != PV_OK) return st;
        char buf[64];
        if (v.type == PV_V_INT) snprintf(buf, sizeof buf, "%lld", (long long)v.i);
        else if (v.type == PV_V_CMPLX) snprintf(buf, sizeof buf, "%g", v.re);
        else {
            pv_value_free(&v);
            return pv_source_error(I->ctx, PV_ESCRIPT, c->tl->src, t->start,
                                   v.type == PV_V_UNDEF ? "undefined value"
                                                        : "Unrecognized argument type");
        }
        *out = strdup(buf);
        *val = v;
        return PV_OK;
    }
    *out = strndup(text + t->start, t->end - t->start);
    pv_cur_next(c);
    if (!*out) return pv_err(I->ctx, PV_ENOMEM, "out of memory");
    char *e;
    double d = strtod(*out, &e);
    *val = e != *out && *e == '\0' ? pv_real(d) : pv_str(*out);
    return PV_OK;
}

static pv_status cmd_call(pv_interp *I, pv_cursor *c, bool exec)
{
    pv_cur_next(c);
    size_t off = pv_cur_offset(c);
    char *path = NULL, *args[PV_NARGS] = {NULL};
    pv_value vals[PV_NARGS];
    memset(vals, 0, sizeof vals);
    int nargs = 0;
    pv_status st = PV_OK;
    if (!exec) {
        size_t end = c->end;
        c->end = string_stop(c);
        pv_code *code = NULL;
        st = pv_parse_expr(c, &code);
        pv_code_destroy(code);
        c->end = end;
    } else {
        st = try_string(I, c, &path);
        if (st == PV_OK && !path) st = pv_cur_error(c, PV_ESCRIPT, "expecting filename");
    }
    while (st == PV_OK && !at_stmt_end(c)) {
        if (nargs == PV_NARGS - 1) {
            st = pv_cur_error(c, PV_ESYNTAX, "too many arguments to call (at most 9)");
            break;
        }
        if (exec) st = call_arg(I, c, &args[1 + nargs], &vals[1 + nargs]);
        else st = call_arg_check(c);
        nargs++;
    }
    if (st != PV_OK || !exec) goto done;
    /* save ARG0..ARG9, ARGC and ARGV, bind the new ones, run, restore */
    static const char *const names[PV_NARGS + 1] = {"ARG0", "ARG1", "ARG2", "ARG3", "ARG4",
                                                    "ARG5", "ARG6", "ARG7", "ARG8", "ARG9",
                                                    "ARGC"};
    pv_value saved[PV_NARGS + 1];
    bool had[PV_NARGS + 1];
    for (int k = 0; k <= PV_NARGS; k++) {
        const pv_value *old = pv_env_get(I->env, names[k]);
        had[k] = old != NULL;
        saved[k] = old ? pv_value_copy(old) : (pv_value){0};
        pv_value nv = k == PV_NARGS ? pv_int(nargs)
                                    : pv_str(k == 0 ? path : (args[k] ? args[k] : ""));
        pv_env_set(I->env, names[k], &nv);
        pv_value_free(&nv);
    }
    size_t nold = 0;
    pv_value *argv = pv_env_get_array(I->env, "ARGV", &nold);
    pv_value *oldv = calloc(nold ? nold : 1, sizeof *oldv);
    bool had_argv = argv != NULL;
    for (size_t k = 0; argv && oldv && k < nold; k++) oldv[k] = pv_value_copy(&argv[k]);
    if ((st = pv_env_set_array(I->env, "ARGV", (size_t)nargs)) == PV_OK) {
        argv = pv_env_get_array(I->env, "ARGV", NULL);
        for (int k = 0; k < nargs; k++) argv[k] = pv_value_copy(&vals[1 + k]);
        I->call_depth++;
        st = run_file(I, c, off, path);
        I->call_depth--;
    }
    /* gnuplot 5.4.4 restores ARG0, ARGC and ARGV; ARG1..ARG9 come back inside an outer
     * call but are left undefined when returning to the top level */
    for (int k = 0; k <= PV_NARGS; k++) {
        bool keep = k == 0 || k == PV_NARGS || I->call_depth > 0;
        if (had[k] && keep) pv_env_set(I->env, names[k], &saved[k]);
        else pv_env_undefine(I->env, names[k]);
        pv_value_free(&saved[k]);
    }
    if (had_argv && oldv && pv_env_set_array(I->env, "ARGV", nold) == PV_OK) {
        argv = pv_env_get_array(I->env, "ARGV", NULL);
        for (size_t k = 0; k < nold; k++) argv[k] = oldv[k];
    } else {
        for (size_t k = 0; oldv && k < nold; k++) pv_value_free(&oldv[k]);
        if (!had_argv) pv_env_remove_array(I->env, "ARGV");
    }
    free(oldv);
done:
    free(path);
    for (int k = 0; k < PV_NARGS; k++) {
        free(args[k]);
        pv_value_free(&vals[k]);
    }
    return st;
}

static pv_status cmd_eval(pv_interp *I, pv_cursor *c, bool exec)
{
    size_t off = pv_cur_offset(c);
    pv_cur_next(c);
    char *text = NULL;
    pv_status st = string_expr(I, c, exec, &text);
    if (st == PV_OK) st = pv_exec_expect_end(c);
    if (st == PV_OK && exec) {
        pv_source *src = pv_source_create(I->ctx, c->tl->src->name, text, strlen(text),
                                          stmt_line(c, off));
        st = src ? pv_exec_source(I, src) : PV_ENOMEM;
    }
    free(text);
    return st;
}

/* =====================================================================================
 * exit, reset, pause, undefine, clear, cd, pwd, break, continue
 * ===================================================================================== */

static pv_status cmd_exit(pv_interp *I, pv_cursor *c, bool exec)
{
    size_t off = pv_cur_offset(c);
    pv_cur_next(c);
    pv_status st = PV_OK;
    int code = 0;
    char *msg = NULL;
    bool plain = false; /* `exit`/`quit` alone */
    if (pv_cur_accept_word(c, "status")) {
        pv_value v = {0};
        size_t voff = pv_cur_offset(c);
        if ((st = pv_exec_expr(I, c, exec, &v)) == PV_OK && exec) {
            if (v.type == PV_V_INT) code = (int)v.i;
            else if (v.type == PV_V_CMPLX) code = (int)v.re;
            else st = pv_source_error(I->ctx, PV_ESCRIPT, c->tl->src, voff, "expecting integer");
            pv_value_free(&v);
        }
    } else if (pv_cur_accept_word(c, "error")) {
        st = string_expr(I, c, exec, &msg);
    } else {
        plain = !pv_cur_accept_word(c, "gnuplot");
    }
    if (st == PV_OK) st = pv_exec_expect_end(c);
    if (st == PV_OK && exec) {
        if (msg) st = pv_source_error(I->ctx, PV_ESCRIPT, c->tl->src, off, "%s", msg);
        else if (plain && I->file_depth > 0) I->flow = PV_FLOW_RETURN; /* leaves the file */
        else {
            I->ctx->exit_code = code;
            st = PV_EEXIT;
        }
    }
    free(msg);
    return st;
}

static pv_status cmd_reset(pv_interp *I, pv_cursor *c, bool exec)
{
    pv_cur_next(c);
    if (pv_cur_accept_word(c, "sess$ion")) {
        if (!exec) return pv_exec_expect_end(c);
        pv_status st = pv_exec_expect_end(c);
        if (st != PV_OK) return st;
        pv_env_clear(I->env);
        pv_env_set_angles_degrees(I->env, false);
        pv_settings_reset_all(I->set);
        pv_gridset_reset(I);
        return PV_OK;
    }
    if (pv_cur_accept_word(c, "err$ors") || pv_cur_accept_word(c, "bind"))
        return pv_exec_expect_end(c);
    pv_status st = pv_exec_expect_end(c);
    if (st == PV_OK && exec) {
        pv_settings_reset(I->set);
        pv_env_set_angles_degrees(I->env, false); /* `reset` includes `set angles radians` */
    }
    return st;
}

/* pause: batch mode never waits (decision 10); the optional message is printed. */
static pv_status cmd_pause(pv_interp *I, pv_cursor *c, bool exec)
{
    pv_cur_next(c);
    pv_status st = PV_OK;
    if (pv_cur_accept_word(c, "mouse")) {
        while (pv_cur_peek(c)->kind == PV_TK_NAME || pv_cur_is_op(c, ",")) {
            if (pv_cur_is_op(c, ",")) {
                pv_cur_next(c);
                if (pv_cur_peek(c)->kind != PV_TK_NAME) break;
            }
            pv_cur_next(c);
        }
    } else {
        pv_value v = {0};
        st = pv_exec_expr(I, c, false, &v);
    }
    char *msg = NULL;
    if (st == PV_OK && next_is_string_start(c)) st = string_expr(I, c, exec, &msg);
    if (st == PV_OK) st = pv_exec_expect_end(c);
    if (st == PV_OK && exec && msg) pv_msg(I->ctx, "%s\n", msg);
    free(msg);
    return st;
}

static pv_status cmd_undefine(pv_interp *I, pv_cursor *c, bool exec)
{
    pv_cur_next(c);
    while (!at_stmt_end(c)) {
        const pv_token *t = pv_cur_peek(c);
        if (t->kind == PV_TK_DOLLAR) {
            if (exec && !pv_gridset_undefine(I, t->sval)) pv_env_remove_datablock(I->env, t->sval);
            pv_cur_next(c);
            continue;
        }
        if (t->kind != PV_TK_NAME) return pv_exec_expect_end(c);
        pv_cur_next(c);
        const pv_token *star = pv_cur_peek(c);
        bool wild = star->kind == PV_TK_OP && strcmp(star->op, "*") == 0 && star->start == t->end;
        if (wild) pv_cur_next(c);
        if (exec) {
            size_t n = strlen(t->sval);
            char *pat = malloc(n + 2);
            if (!pat) return pv_err(I->ctx, PV_ENOMEM, "out of memory");
            memcpy(pat, t->sval, n);
            pat[n] = wild ? '*' : '\0';
            pat[n + 1] = '\0';
            pv_env_undefine(I->env, pat);
            if (!wild) pv_env_remove_array(I->env, pat);
            free(pat);
        }
    }
    return PV_OK;
}

static pv_status cmd_clear(pv_interp *I, pv_cursor *c, bool exec)
{
    (void)I, (void)exec;
    pv_cur_next(c);
    return pv_exec_expect_end(c);
}

static pv_status cmd_cd(pv_interp *I, pv_cursor *c, bool exec)
{
    size_t off;
    pv_cur_next(c);
    off = pv_cur_offset(c);
    char *dir = NULL;
    pv_status st = string_expr(I, c, exec, &dir);
    if (st == PV_OK) st = pv_exec_expect_end(c);
    if (st == PV_OK && exec) {
        if (chdir(dir) != 0)
            st = pv_source_error(I->ctx, PV_EIO, c->tl->src, off, "can't change to directory '%s'",
                                 dir);
        st = pv_status_agree(I->ctx, st);
    }
    free(dir);
    return st;
}

static pv_status cmd_pwd(pv_interp *I, pv_cursor *c, bool exec)
{
    pv_cur_next(c);
    pv_status st = pv_exec_expect_end(c);
    if (st == PV_OK && exec) {
        char buf[4096];
        if (getcwd(buf, sizeof buf)) pv_msg(I->ctx, "%s\n", buf);
    }
    return st;
}

static pv_status cmd_break(pv_interp *I, pv_cursor *c, bool exec)
{
    pv_cur_next(c);
    pv_status st = pv_exec_expect_end(c);
    if (st == PV_OK && exec && I->loop_depth > 0) I->flow = PV_FLOW_BREAK;
    return st;
}

static pv_status cmd_continue(pv_interp *I, pv_cursor *c, bool exec)
{
    pv_cur_next(c);
    pv_status st = pv_exec_expect_end(c);
    if (st == PV_OK && exec && I->loop_depth > 0) I->flow = PV_FLOW_CONTINUE;
    return st;
}

/* =====================================================================================
 * Commands not built yet (vsave/vload: the HDF5 issue)
 * ===================================================================================== */

pv_status pv_cmd_grid_hook(pv_interp *I, pv_cursor *c, bool exec)
{
    size_t off = pv_cur_offset(c);
    const pv_token *t = pv_cur_peek(c);
    const char *text = c->tl->src->text;
    int n = (int)(t->end - t->start);
    pv_exec_skip_rest(c);
    if (!exec) return PV_OK;
    return pv_source_error(I->ctx, PV_ESCRIPT, c->tl->src, off,
                           "'%.*s' is not available in this version of pvox", n,
                           text + t->start);
}

static pv_status cmd_vfill(pv_interp *I, pv_cursor *c, bool exec)
{
    pv_cur_next(c);
    return pv_cmd_vfill(I, c, exec);
}

static pv_status cmd_vgfill(pv_interp *I, pv_cursor *c, bool exec)
{
    pv_cur_next(c);
    return pv_cmd_vgfill(I, c, exec);
}

static pv_status cmd_vclear(pv_interp *I, pv_cursor *c, bool exec)
{
    pv_cur_next(c);
    return pv_cmd_vclear(I, c, exec);
}

/* =====================================================================================
 * set, unset, show
 * ===================================================================================== */

static pv_status set_print(pv_interp *I, pv_cursor *c, bool exec)
{
    pv_out_kind kind;
    char *name = NULL;
    bool append;
    size_t off;
    pv_status st = parse_target(I, c, exec, PV_OUT_STDERR, &kind, &name, &append, &off);
    if (st == PV_OK && exec) st = pv_out_open(I, &I->print_out, kind, name, append, c, off);
    free(name);
    return st;
}

static pv_status set_body(pv_interp *I, pv_cursor *c, bool exec, void *ud)
{
    (void)ud;
    if (pv_cur_accept_word(c, "vgrid")) return pv_cmd_set_vgrid(I, c, exec);
    if (pv_cur_accept_word(c, "vxr$ange")) return pv_cmd_set_vrange(I, c, exec, 0);
    if (pv_cur_accept_word(c, "vyr$ange")) return pv_cmd_set_vrange(I, c, exec, 1);
    if (pv_cur_accept_word(c, "vzr$ange")) return pv_cmd_set_vrange(I, c, exec, 2);
    if (pv_cur_accept_word(c, "pr$int")) return set_print(I, c, exec);
    if (pv_cur_is_word(c, "tab$le")) return pv_cmd_set_table(I, c, exec);
    return pv_settings_set(I->set, I->env, c, exec);
}

static pv_status unset_body(pv_interp *I, pv_cursor *c, bool exec, void *ud)
{
    (void)ud;
    if (pv_cur_accept_word(c, "vgrid")) return pv_cmd_unset_vgrid(I, c, exec);
    if (pv_cur_accept_word(c, "pr$int")) {
        pv_status st = pv_exec_expect_end(c);
        if (st == PV_OK && exec) pv_out_close(I, &I->print_out);
        return st;
    }
    if (pv_cur_is_word(c, "tab$le")) return pv_cmd_unset_table(I, c, exec);
    return pv_settings_unset(I->set, I->env, c, exec);
}

static pv_status cmd_set(pv_interp *I, pv_cursor *c, bool exec)
{
    pv_cur_next(c);
    if (pv_cur_accept_word(c, "for")) return pv_exec_iterate(I, c, exec, set_body, NULL);
    return set_body(I, c, exec, NULL);
}

static pv_status cmd_unset(pv_interp *I, pv_cursor *c, bool exec)
{
    pv_cur_next(c);
    if (pv_cur_accept_word(c, "for")) return pv_exec_iterate(I, c, exec, unset_body, NULL);
    return unset_body(I, c, exec, NULL);
}

static pv_status cmd_show(pv_interp *I, pv_cursor *c, bool exec)
{
    pv_cur_next(c);
    if (pv_cur_accept_word(c, "vg$rid")) return pv_cmd_show_vgrid(I, c, exec);
    FILE *out = I->ctx->rank == 0 ? stderr : NULL;
    if (pv_cur_accept_word(c, "fu$nctions")) {
        pv_status st = pv_exec_expect_end(c);
        if (st == PV_OK && exec && out) pv_env_show_functions(I->env, out);
        return st;
    }
    if (pv_cur_accept_word(c, "v$ariables")) {
        const char *prefix = NULL;
        if (!pv_cur_accept_word(c, "all") && pv_cur_peek(c)->kind == PV_TK_NAME) {
            prefix = pv_cur_peek(c)->sval;
            pv_cur_next(c);
        }
        pv_status st = pv_exec_expect_end(c);
        if (st == PV_OK && exec && out) pv_env_show_variables(I->env, out, prefix);
        return st;
    }
    return pv_settings_show(I->set, I->env, c, exec, out);
}

/* =====================================================================================
 * Dispatch table
 * ===================================================================================== */

static const pv_cmd cmds[] = {
    {"printerr", cmd_printerr}, {"pr$int", cmd_print},       {"se$t", cmd_set},         {"uns$et", cmd_unset},
    {"sh$ow", cmd_show},         {"p$lot", pv_cmd_plot},    {"sp$lot", pv_cmd_plot},
    {"rep$lot", pv_cmd_plot},    {"l$oad", cmd_load},       {"ca$ll", cmd_call},
    {"eval$uate", cmd_eval},     {"re$set", cmd_reset},     {"ex$it", cmd_exit},
    {"q$uit", cmd_exit},         {"pa$use", cmd_pause},     {"undefi$ne", cmd_undefine},
    {"cl$ear", cmd_clear},       {"cd", cmd_cd},            {"pwd", cmd_pwd},
    {"break", cmd_break},        {"continue", cmd_continue}, {"array", cmd_array},
    /* grid commands (next issue) */
    {"vfill", cmd_vfill},        {"vgfill", cmd_vgfill},    {"vclear", cmd_vclear},
    {"vsave", pv_cmd_vsave},     {"vload", pv_cmd_vload},
};

pv_cmd_fn pv_exec_find_cmd(const pv_cursor *c)
{
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++)
        if (pv_cur_is_word(c, cmds[i].pattern)) return cmds[i].fn;
    return NULL;
}
