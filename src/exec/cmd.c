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
        size_t off = pv_cur_offset(c);
        pv_value v = {0};
        if ((st = pv_exec_expr(I, c, exec, &v)) != PV_OK) break;
        if (exec) {
            if (v.type == PV_V_UNDEF) {
                st = pv_source_error(I->ctx, PV_ESCRIPT, c->tl->src, off, "undefined value");
                break;
            }
            char *s = pv_value_format(&v);
            pv_value_free(&v);
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
    pv_value v = {0};
    pv_status st = pv_exec_expr(I, c, exec, &v);
    if (st == PV_OK) st = pv_exec_expect_end(c);
    if (st == PV_OK && exec) {
        if (v.type == PV_V_UNDEF)
            st = pv_source_error(I->ctx, PV_ESCRIPT, c->tl->src, off, "undefined value");
        else st = pv_env_set(I->env, name->sval, &v);
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

/* One `call` argument, as gnuplot 5.4.4 takes them: a string constant as it is; a number
 * as written ("1.50", "0x10"); a name or `(` starts an expression whose value is used
 * (integers as %d, reals as %g, strings as they are); any other token as its text (so
 * `-2` gives the two arguments "-" and "2"). */
static pv_status call_arg(pv_interp *I, pv_cursor *c, bool exec, char **out)
{
    const pv_token *t = pv_cur_peek(c);
    const char *text = c->tl->src->text;
    *out = NULL;
    if (t->kind == PV_TK_STRING) {
        if (exec) *out = strndup(t->sval, t->slen);
        pv_cur_next(c);
        return PV_OK;
    }
    if (t->kind == PV_TK_NAME || pv_cur_is_op(c, "(")) {
        pv_value v = {0};
        pv_status st = pv_exec_expr(I, c, exec, &v);
        if (st != PV_OK || !exec) return st;
        char buf[64];
        if (v.type == PV_V_STR) *out = strdup(v.s);
        else if (v.type == PV_V_INT) snprintf(buf, sizeof buf, "%lld", (long long)v.i), *out = strdup(buf);
        else if (v.type == PV_V_CMPLX && v.im == 0.0) snprintf(buf, sizeof buf, "%g", v.re), *out = strdup(buf);
        else *out = pv_value_format(&v);
        pv_value_free(&v);
        return PV_OK;
    }
    if (exec) *out = strndup(text + t->start, t->end - t->start);
    pv_cur_next(c);
    return PV_OK;
}

static pv_status cmd_call(pv_interp *I, pv_cursor *c, bool exec)
{
    pv_cur_next(c);
    size_t off = pv_cur_offset(c);
    char *path = NULL, *args[PV_NARGS] = {NULL};
    int nargs = 0;
    pv_status st = PV_OK;
    const pv_token *t = pv_cur_peek(c);
    if (t->kind == PV_TK_STRING && !op_at(c, 1, ".")) {
        /* a quoted name stands alone: `call "f.gp" -x` passes "-" and x (gnuplot) */
        if (exec) path = strndup(t->sval, t->slen);
        pv_cur_next(c);
    } else {
        st = string_expr(I, c, exec, &path);
    }
    while (st == PV_OK && !at_stmt_end(c)) {
        if (nargs == PV_NARGS - 1) {
            st = pv_cur_error(c, PV_ESYNTAX, "too many arguments to call (at most 9)");
            break;
        }
        st = call_arg(I, c, exec, &args[1 + nargs]);
        nargs++;
    }
    if (st != PV_OK || !exec) goto done;
    /* save ARG0..ARG9 and ARGC, bind the new ones, run, restore */
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
    I->call_depth++;
    st = run_file(I, c, off, path);
    I->call_depth--;
    /* gnuplot 5.4.4 restores ARG0 and ARGC; ARG1..ARG9 come back inside an outer call but
     * are left undefined when returning to the top level */
    for (int k = 0; k <= PV_NARGS; k++) {
        bool keep = k == 0 || k == PV_NARGS || I->call_depth > 0;
        if (had[k] && keep) pv_env_set(I->env, names[k], &saved[k]);
        else pv_env_undefine(I->env, names[k]);
        pv_value_free(&saved[k]);
    }
done:
    free(path);
    for (int k = 0; k < PV_NARGS; k++) free(args[k]);
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
    {"break", cmd_break},        {"continue", cmd_continue},
    /* grid commands (next issue) */
    {"vfill", cmd_vfill},        {"vgfill", cmd_vgfill},    {"vclear", cmd_vclear},
    {"vsave", pv_cmd_grid_hook}, {"vload", pv_cmd_grid_hook}, /* HDF5 issue */
};

pv_cmd_fn pv_exec_find_cmd(const pv_cursor *c)
{
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++)
        if (pv_cur_is_word(c, cmds[i].pattern)) return cmds[i].fn;
    return NULL;
}
