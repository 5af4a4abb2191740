/*
 * exec/cmd_assign.c: statements that define things: `x = expr`, `A[i] = expr`, `array A[N]
 * {= [...]}`, `f(x, y) = expr` and datablocks (`$name << EOD` ... `EOD`).
 */
#define _POSIX_C_SOURCE 200809L
#include "exec_int.h"

#include <stdlib.h>
#include <string.h>

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
    if (pv_cur_peek(c)->kind != PV_TK_NAME || !pv_exec_op_at(c, 1, "[")) return false;
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
    if (!pv_cur_is_op(c, "]") || !pv_exec_op_at(c, 1, "="))
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
pv_status pv_cmd_array(pv_interp *I, pv_cursor *c, bool exec)
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
    } else if (pv_cur_is_op(c, "=") && pv_exec_op_at(c, 1, "[")) {
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
