/*
 * exec/interp.c: the statement runner. A source is lexed whole, split into statements
 * (NEWLINE / `;` at brace depth 0) and compound statements (`do for [..] {}`, `while (c)
 * {}`, `if (c) {} else if (c) {} else {}`, old-style `if (c) cmd; cmd`), then run twice:
 * a CHECK pass (exec = false: syntax only, nothing evaluated) over the whole source so a
 * syntax error anywhere stops the script before any heavy work, then the RUN pass.
 *
 * Statements holding @macro tokens are skipped by the check; when run, the macros are
 * replaced by their string values in the statement's text, which becomes a new source
 * (same name, same line, same column for the text before the first macro).
 *
 * SPMD: every rank runs this over the same tokens, so control flow agrees without
 * messages. Only commands touching files agree a status (see cmd.c).
 */
#define _POSIX_C_SOURCE 200809L
#include "exec_int.h"
#include "gridcmd.h"
#include "ckpt.h"

#include <stdlib.h>
#include <string.h>

static pv_status run_range(pv_interp *I, const pv_toklist *tl, size_t lo, size_t hi, bool exec);

/* =====================================================================================
 * Token helpers
 * ===================================================================================== */

static bool tok_is_op(const pv_token *t, const char *op)
{
    return t->kind == PV_TK_OP && strcmp(t->op, op) == 0;
}

static bool tok_is_name(const pv_token *t, const char *name)
{
    return t->kind == PV_TK_NAME && t->sval && strcmp(t->sval, name) == 0;
}

static bool tok_ends_stmt(const pv_token *t)
{
    return t->kind == PV_TK_NEWLINE || t->kind == PV_TK_SEMI || t->kind == PV_TK_EOF;
}

/* Index of the `}` matching the `{` at `open`, or `hi` if none. */
static size_t match_brace(const pv_toklist *tl, size_t open, size_t hi)
{
    int depth = 0;
    for (size_t i = open; i < hi; i++) {
        const pv_token *t = &tl->tok[i];
        if (tok_is_op(t, "{")) depth++;
        else if (tok_is_op(t, "}") && --depth == 0) return i;
    }
    return hi;
}

/* End of the simple statement starting at p: the first NEWLINE/`;` at brace depth 0.
 * A datablock definition extends to its HEREDOC token. */
static size_t stmt_end(const pv_toklist *tl, size_t p, size_t hi)
{
    if (tl->tok[p].kind == PV_TK_DOLLAR && p + 1 < hi && tok_is_op(&tl->tok[p + 1], "<<")) {
        for (size_t i = p + 2; i < hi && i < p + 6; i++)
            if (tl->tok[i].kind == PV_TK_HEREDOC) return i + 1;
    }
    int depth = 0;
    for (size_t i = p; i < hi; i++) {
        const pv_token *t = &tl->tok[i];
        if (tok_is_op(t, "{")) depth++;
        else if (tok_is_op(t, "}")) depth--;
        else if (depth <= 0 && tok_ends_stmt(t)) return i;
    }
    return hi;
}

static void cursor_init(pv_cursor *c, pv_interp *I, const pv_toklist *tl, size_t pos, size_t end)
{
    c->ctx = I->ctx;
    c->tl = tl;
    c->pos = pos;
    c->end = end;
}

static pv_status tok_error(pv_interp *I, const pv_toklist *tl, size_t i, const char *msg)
{
    return pv_source_error(I->ctx, PV_ESYNTAX, tl->src, tl->tok[i].start, "%s", msg);
}

/* =====================================================================================
 * Iteration: for [i = a:b{:c}] and for [s in "words"]
 * ===================================================================================== */

/* Split `s` into whitespace-separated words (gnuplot's word()); quotes group words. */
static char **split_words(const char *s, int *n)
{
    size_t cap = 8;
    char **w = malloc(cap * sizeof *w);
    *n = 0;
    if (!w) return NULL;
    while (*s) {
        while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r') s++;
        if (!*s) break;
        const char *b = s;
        char q = 0;
        if (*s == '"' || *s == '\'') q = *s++, b = s;
        while (*s && (q ? *s != q : !(*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r'))) s++;
        size_t len = (size_t)(s - b);
        if (q && *s) s++;
        if ((size_t)*n == cap) {
            char **nw = realloc(w, 2 * cap * sizeof *w);
            if (!nw) break;
            w = nw, cap *= 2;
        }
        char *word = malloc(len + 1);
        if (!word) break;
        memcpy(word, b, len);
        word[len] = '\0';
        w[(*n)++] = word;
    }
    return w;
}

static void free_words(char **w, int n)
{
    for (int i = 0; i < n; i++) free(w[i]);
    free(w);
}

/* Run one iteration's body and consume break/continue. Returns true to stop the loop. */
static bool iter_step(pv_interp *I, pv_cursor *c, size_t body_pos, pv_iter_body body, void *ud,
                      pv_status *st)
{
    c->pos = body_pos;
    *st = body(I, c, true, ud);
    if (*st != PV_OK || I->flow == PV_FLOW_RETURN) return true;
    if (I->flow == PV_FLOW_BREAK) {
        I->flow = PV_FLOW_NONE;
        return true;
    }
    if (I->flow == PV_FLOW_CONTINUE) I->flow = PV_FLOW_NONE;
    return false;
}

/* Parse the header; fills the bounds (exec) or the word list. */
typedef struct iter_hdr {
    char *var;
    bool is_in;
    int64_t a, b, step;
    char **words;
    int nwords;
} iter_hdr;

static pv_status parse_iter_header(pv_interp *I, pv_cursor *c, bool exec, iter_hdr *h)
{
    memset(h, 0, sizeof *h);
    h->step = 1;
    if (!pv_cur_accept_op(c, "[")) return pv_cur_error(c, PV_ESYNTAX, "expecting '['");
    const pv_token *t = pv_cur_peek(c);
    if (t->kind != PV_TK_NAME) return pv_cur_error(c, PV_ESYNTAX, "expecting iteration variable");
    h->var = strdup(t->sval);
    pv_cur_next(c);
    pv_status st = PV_OK;
    pv_value v = {0};
    if (pv_cur_accept_word(c, "in")) {
        h->is_in = true;
        if ((st = pv_exec_expr(I, c, exec, &v)) != PV_OK) return st;
        if (exec) {
            if (v.type != PV_V_STR) {
                pv_value_free(&v);
                return pv_cur_error(c, PV_ESCRIPT, "expecting string for 'in' iteration");
            }
            h->words = split_words(v.s, &h->nwords);
            pv_value_free(&v);
        }
    } else {
        if (!pv_cur_accept_op(c, "=")) return pv_cur_error(c, PV_ESYNTAX, "expecting '=' or 'in'");
        int64_t *dst[3] = {&h->a, &h->b, &h->step};
        for (int k = 0; k < 3; k++) {
            if (k > 0 && !pv_cur_accept_op(c, ":")) {
                if (k == 2) break;
                return pv_cur_error(c, PV_ESYNTAX, "expecting ':'");
            }
            size_t off = pv_cur_offset(c);
            if ((st = pv_exec_expr(I, c, exec, &v)) != PV_OK) return st;
            if (exec) {
                if (v.type == PV_V_INT) *dst[k] = v.i;
                else if (v.type == PV_V_CMPLX) *dst[k] = (int64_t)v.re;
                else {
                    bool undef = v.type == PV_V_UNDEF;
                    pv_value_free(&v);
                    return pv_source_error(I->ctx, PV_ESCRIPT, c->tl->src, off,
                                           undef ? "undefined value" : "expecting integer");
                }
                pv_value_free(&v);
            }
        }
        if (exec && h->step == 0)
            return pv_cur_error(c, PV_ESCRIPT, "iteration step must not be zero");
    }
    if (!pv_cur_accept_op(c, "]")) return pv_cur_error(c, PV_ESYNTAX, "expecting ']'");
    return PV_OK;
}

pv_status pv_exec_iterate(pv_interp *I, pv_cursor *c, bool exec, pv_iter_body body, void *ud)
{
    iter_hdr h;
    pv_status st = parse_iter_header(I, c, exec, &h);
    if (st != PV_OK || !exec) {
        if (st == PV_OK) st = body(I, c, false, ud);
        free(h.var);
        free_words(h.words, h.nwords);
        return st;
    }
    size_t body_pos = c->pos;
    const pv_value *old = pv_env_get(I->env, h.var);
    bool had_old = old != NULL;
    pv_value saved = had_old ? pv_value_copy(old) : (pv_value){0};
    long n = 0;
    I->loop_depth++;
    if (h.is_in) {
        for (int k = 0; k < h.nwords; k++, n++) {
            pv_value w = pv_str(h.words[k]);
            st = pv_env_set(I->env, h.var, &w);
            pv_value_free(&w);
            if (st != PV_OK || iter_step(I, c, body_pos, body, ud, &st)) break;
        }
    } else {
        for (int64_t i = h.a; h.step > 0 ? i <= h.b : i >= h.b; i += h.step, n++) {
            pv_value w = pv_int(i);
            if ((st = pv_env_set(I->env, h.var, &w)) != PV_OK) break;
            if (iter_step(I, c, body_pos, body, ud, &st)) break;
        }
    }
    I->loop_depth--;
    if (st == PV_OK && n == 0) { /* no iteration: still step over the body */
        c->pos = body_pos;
        st = body(I, c, false, ud);
    }
    /* gnuplot restores the loop variable: undefined again if it was undefined */
    if (had_old) pv_env_set(I->env, h.var, &saved);
    else pv_env_undefine(I->env, h.var);
    pv_value_free(&saved);
    free(h.var);
    free_words(h.words, h.nwords);
    return st;
}

/* =====================================================================================
 * Compound statements
 * ===================================================================================== */

/* Expect `{` at c->pos; find its `}`; run or check the block; leave c after `}`. */
static pv_status block_at(pv_interp *I, pv_cursor *c, bool run, bool check)
{
    const pv_toklist *tl = c->tl;
    if (!pv_cur_is_op(c, "{")) return pv_cur_error(c, PV_ESYNTAX, "expecting '{'");
    size_t open = c->pos;
    size_t close = match_brace(tl, open, c->end);
    if (close >= c->end) return tok_error(I, tl, open, "unmatched '{'");
    pv_status st = PV_OK;
    if (check) st = run_range(I, tl, open + 1, close, false);
    else if (run) st = run_range(I, tl, open + 1, close, true);
    c->pos = close + 1;
    return st;
}

static pv_status do_body(pv_interp *I, pv_cursor *c, bool exec, void *ud)
{
    (void)ud;
    return block_at(I, c, exec, !exec);
}

/* Evaluate a condition (exec) or just parse it. */
static pv_status cond_expr(pv_interp *I, pv_cursor *c, bool exec, bool *truth)
{
    size_t off = pv_cur_offset(c);
    pv_value v = {0};
    pv_status st = pv_exec_expr(I, c, exec, &v);
    if (st != PV_OK || !exec) return st;
    if (v.type == PV_V_INT) *truth = v.i != 0;
    else if (v.type == PV_V_CMPLX) *truth = v.re != 0.0 || v.im != 0.0;
    else st = pv_source_error(I->ctx, PV_ESCRIPT, c->tl->src, off,
                              v.type == PV_V_STR ? "non-numeric string found where a numeric "
                                                   "expression was expected"
                                                 : "undefined value");
    pv_value_free(&v);
    return st;
}

static pv_status stmt_do(pv_interp *I, pv_cursor *c, bool exec)
{
    pv_cur_next(c); /* do */
    if (!pv_cur_accept_word(c, "for"))
        return pv_cur_error(c, PV_ESYNTAX, "expecting 'for' after 'do'");
    return pv_exec_iterate(I, c, exec, do_body, NULL);
}

static pv_status stmt_while(pv_interp *I, pv_cursor *c, bool exec)
{
    pv_cur_next(c); /* while */
    size_t cond_pos = c->pos;
    bool truth = false;
    pv_status st;
    if (!exec) {
        if ((st = cond_expr(I, c, false, &truth)) != PV_OK) return st;
        return block_at(I, c, false, true);
    }
    I->loop_depth++;
    for (;;) {
        c->pos = cond_pos;
        if ((st = cond_expr(I, c, true, &truth)) != PV_OK) break;
        if ((st = block_at(I, c, truth, false)) != PV_OK || !truth) break;
        if (I->flow == PV_FLOW_RETURN) break;
        if (I->flow == PV_FLOW_BREAK) {
            I->flow = PV_FLOW_NONE;
            break;
        }
        I->flow = PV_FLOW_NONE;
    }
    I->loop_depth--;
    return st;
}

static pv_status stmt_if(pv_interp *I, pv_cursor *c, bool exec, size_t hi)
{
    const pv_toklist *tl = c->tl;
    bool taken = false;
    pv_status st;
    for (;;) {
        pv_cur_next(c); /* if */
        bool truth = false;
        if ((st = cond_expr(I, c, exec && !taken, &truth)) != PV_OK) return st;
        if (!pv_cur_is_op(c, "{")) {
            /* old style: the rest of the line belongs to the if */
            size_t eol = c->pos;
            while (eol < hi && tl->tok[eol].kind != PV_TK_NEWLINE && tl->tok[eol].kind != PV_TK_EOF)
                eol++;
            /* `if (c) cmd; cmd; else cmd; cmd` (old style, deprecated in 5.4 but accepted) */
            size_t els = eol;
            for (size_t i = c->pos + 1; i < eol; i++)
                if (tok_is_name(&tl->tok[i], "else") && tl->tok[i - 1].kind == PV_TK_SEMI) {
                    els = i;
                    break;
                }
            if (!exec) {
                st = run_range(I, tl, c->pos, els, false);
                if (st == PV_OK && els < eol) st = run_range(I, tl, els + 1, eol, false);
            } else if (!taken && truth) {
                st = run_range(I, tl, c->pos, els, true);
            } else if (!taken && els < eol) {
                st = run_range(I, tl, els + 1, eol, true);
            }
            c->pos = eol;
            return st;
        }
        bool run = exec && !taken && truth;
        if ((st = block_at(I, c, run, !exec)) != PV_OK) return st;
        taken = taken || run;
        if (!pv_cur_accept_word(c, "else")) return PV_OK;
        if (pv_cur_is_word(c, "if")) continue;
        return block_at(I, c, exec && !taken, !exec);
    }
}

/* =====================================================================================
 * Macros
 * ===================================================================================== */

static pv_status run_macro_stmt(pv_interp *I, const pv_toklist *tl, size_t p, size_t e)
{
    const pv_source *src = tl->src;
    int line, col;
    pv_source_locate(src, tl->tok[p].start, &line, &col);
    size_t cap = 256, len = 0;
    char *buf = malloc(cap);
    if (!buf) return pv_err(I->ctx, PV_ENOMEM, "out of memory");
#define PUT(s, n)                                                                          \
    do {                                                                                   \
        size_t n_ = (n);                                                                   \
        while (len + n_ + 1 > cap) {                                                       \
            char *nb_ = realloc(buf, cap * 2);                                             \
            if (!nb_) { free(buf); return pv_err(I->ctx, PV_ENOMEM, "out of memory"); }    \
            buf = nb_, cap *= 2;                                                           \
        }                                                                                  \
        memcpy(buf + len, (s), n_);                                                        \
        len += n_;                                                                         \
    } while (0)
    for (int k = 1; k < col; k++) PUT(" ", 1); /* keep columns for the text before a macro */
    size_t from = tl->tok[p].start;
    for (size_t i = p; i < e; i++) {
        const pv_token *t = &tl->tok[i];
        if (t->kind != PV_TK_MACRO) continue;
        PUT(src->text + from, t->start - from);
        const pv_value *v = pv_env_get(I->env, t->sval);
        if (!v || v->type != PV_V_STR) {
            free(buf);
            return pv_source_error(I->ctx, PV_ESCRIPT, src, t->start,
                                   v ? "macro '@%s' is not a string variable"
                                     : "undefined macro '@%s'", t->sval);
        }
        PUT(v->s, strlen(v->s));
        from = t->end;
    }
    size_t last = e > p ? tl->tok[e - 1].end : from;
    if (last > from) PUT(src->text + from, last - from);
#undef PUT
    buf[len] = '\0';
    pv_source *ms = pv_source_create(I->ctx, src->name, buf, len, line);
    free(buf);
    if (!ms) return I->ctx->err_code ? I->ctx->err_code : PV_ENOMEM;
    return pv_exec_source(I, ms);
}

/* =====================================================================================
 * Statements
 * ===================================================================================== */

static pv_status simple_stmt(pv_interp *I, pv_cursor *c, bool exec)
{
    const pv_token *t = pv_cur_peek(c);
    if (t->kind == PV_TK_DOLLAR && tok_is_op(pv_cur_peek_at(c, 1), "<<"))
        return pv_cmd_datablock(I, c, exec);
    if (t->kind == PV_TK_NAME) {
        if (pv_is_voxel_assignment(c)) return pv_cmd_voxel_assign(I, c, exec);
        if (pv_exec_is_funcdef(c)) return pv_cmd_funcdef(I, c, exec);
        if (pv_exec_is_assignment(c)) return pv_cmd_assign(I, c, exec);
        if (pv_exec_is_array_assignment(c)) return pv_cmd_array_assign(I, c, exec);
        pv_cmd_fn fn = pv_exec_find_cmd(c);
        if (fn) return fn(I, c, exec);
    }
    return pv_cur_error(c, PV_ESYNTAX, "invalid command");
}

/* Run (or check) the statement starting at token p; *next receives the token after it. */
static pv_status run_stmt(pv_interp *I, const pv_toklist *tl, size_t p, size_t hi, bool exec,
                          size_t *next)
{
    const pv_token *t = &tl->tok[p];
    pv_cursor c;
    pv_status st;
    if (t->kind == PV_TK_NAME &&
        (tok_is_name(t, "do") || tok_is_name(t, "while") || tok_is_name(t, "if"))) {
        cursor_init(&c, I, tl, p, hi);
        if (tok_is_name(t, "do")) st = stmt_do(I, &c, exec);
        else if (tok_is_name(t, "while")) st = stmt_while(I, &c, exec);
        else st = stmt_if(I, &c, exec, hi);
        *next = c.pos;
        if (st == PV_OK && c.pos < hi && !tok_ends_stmt(&tl->tok[c.pos]))
            st = pv_exec_expect_end(&c); /* `} print x` is an error, as in gnuplot */
        return st;
    }
    size_t e = stmt_end(tl, p, hi);
    *next = e;
    for (size_t i = p; i < e; i++) {
        if (tl->tok[i].kind == PV_TK_MACRO) return exec ? run_macro_stmt(I, tl, p, e) : PV_OK;
    }
    cursor_init(&c, I, tl, p, e);
    st = simple_stmt(I, &c, exec);
    if (st == PV_OK && !pv_cur_at_end(&c)) st = pv_exec_expect_end(&c);
    return st;
}

static pv_status run_range(pv_interp *I, const pv_toklist *tl, size_t lo, size_t hi, bool exec)
{
    size_t p = lo;
    while (p < hi) {
        const pv_token *t = &tl->tok[p];
        if (t->kind == PV_TK_EOF) break;
        if (t->kind == PV_TK_NEWLINE || t->kind == PV_TK_SEMI) {
            p++;
            continue;
        }
        if (tok_is_op(t, "}")) return tok_error(I, tl, p, "unexpected '}'");
        size_t next = p + 1;
        pv_status st = run_stmt(I, tl, p, hi, exec, &next);
        if (st != PV_OK) return st;
        if (exec && I->flow != PV_FLOW_NONE) return PV_OK;
        p = next > p ? next : p + 1;
    }
    return PV_OK;
}

pv_status pv_exec_source(pv_interp *I, pv_source *src)
{
    if (I->depth >= PV_MAX_SOURCE_DEPTH) {
        pv_source_destroy(src);
        return pv_err(I->ctx, PV_ESCRIPT, "too many nested load/call/eval levels (%d)",
                      PV_MAX_SOURCE_DEPTH);
    }
    pv_toklist tl = {0};
    pv_status st = pv_lex(I->ctx, src, &tl);
    if (st == PV_OK) {
        I->depth++;
        st = run_range(I, &tl, 0, tl.ntok, false);
        if (st == PV_OK) st = run_range(I, &tl, 0, tl.ntok, true);
        I->depth--;
        if (I->depth == 0) I->flow = PV_FLOW_NONE;
    }
    pv_toklist_fini(&tl);
    pv_source_destroy(src);
    return st;
}

/* =====================================================================================
 * Services for other exec files (gridcmd.c, plot.c)
 * ===================================================================================== */

bool pv_exec_axis_fixed_range(pv_interp *I, int axis, double *lo, double *hi)
{
    if (axis < 0 || axis >= PV_NAXES) return false;
    const pv_range *r = &I->set->range[axis];
    if (r->auto_min || r->auto_max) return false;
    *lo = r->min;
    *hi = r->max;
    return true;
}

/* u (k = 0) or v (k = 1) sampling range: `set urange/vrange` wins; otherwise a fixed x/y
 * range (decision 4); otherwise the u/v defaults. */
static void uv_range(pv_interp *I, int k, double *lo, double *hi)
{
    const pv_range *uv = &I->set->range[k == 0 ? PV_AX_U : PV_AX_V];
    *lo = uv->min;
    *hi = uv->max;
    if (!uv->user_set) pv_exec_axis_fixed_range(I, k == 0 ? PV_AX_X : PV_AX_Y, lo, hi);
}

void pv_exec_sampling(pv_interp *I, const pv_data_spec *ds, pv_sampling *out)
{
    const pv_settings *s = I->set;
    out->samples1 = s->samples[0];
    out->samples2 = s->samples[1];
    out->isosamples1 = s->isosamples[0];
    out->isosamples2 = s->isosamples[1];
    if (ds && ds->kind == PV_DS_PLUSPLUS && s->hidden3d) out->samples1 = s->isosamples[0];
    uv_range(I, 0, &out->u_min, &out->u_max);
    uv_range(I, 1, &out->v_min, &out->v_max);
}

pv_code *pv_exec_compile_text(pv_interp *I, const char *text)
{
    pv_source **nt = realloc(I->texts, (I->ntexts + 1) * sizeof *nt);
    if (!nt) {
        pv_err(I->ctx, PV_ENOMEM, "out of memory");
        return NULL;
    }
    I->texts = nt;
    pv_source *src = pv_source_create(I->ctx, "(internal)", text, strlen(text), 1);
    if (!src) return NULL;
    I->texts[I->ntexts++] = src;
    pv_toklist tl = {0};
    pv_code *code = NULL;
    if (pv_lex(I->ctx, src, &tl) == PV_OK) {
        pv_cursor c = {I->ctx, &tl, 0, tl.ntok ? tl.ntok - 1 : 0};
        if (pv_parse_expr(&c, &code) == PV_OK && !pv_cur_at_end(&c)) {
            pv_code_destroy(code);
            code = NULL;
            pv_cur_error(&c, PV_ESYNTAX, "unexpected text after expression");
        }
    }
    pv_toklist_fini(&tl);
    return code;
}

/* =====================================================================================
 * Public API
 * ===================================================================================== */

/* gnuplot starts with ARGC = 0, ARG0..ARG9 = "" and an empty ARGV (`show variables`). */
static void define_call_args(pv_interp *I)
{
    char name[8];
    pv_value empty = pv_str(""), zero = pv_int(0);
    pv_env_set(I->env, "ARGC", &zero);
    for (int k = 0; k <= 9; k++) {
        snprintf(name, sizeof name, "ARG%d", k);
        pv_env_set(I->env, name, &empty);
        if (k == 0) pv_env_set_array(I->env, "ARGV", 0); /* shown after ARG0, as gnuplot */
    }
    pv_value_free(&empty);
}

pv_interp *pv_interp_create(pv_ctx *ctx)
{
    pv_interp *I = calloc(1, sizeof *I);
    if (!I) {
        pv_err(ctx, PV_ENOMEM, "out of memory");
        return NULL;
    }
    I->ctx = ctx;
    I->env = pv_env_create(ctx);
    I->set = pv_settings_create(ctx);
    if (!I->env || !I->set || !pv_gridset_create(I)) {
        pv_interp_destroy(I);
        return NULL;
    }
    define_call_args(I);
    return I;
}

void pv_interp_destroy(pv_interp *I)
{
    if (!I) return;
    pv_out_close(I, &I->print_out);
    pv_out_close(I, &I->table_out);
    for (size_t i = 0; i < I->ntexts; i++) pv_source_destroy(I->texts[i]);
    free(I->texts);
    if (I->grids) pv_gridset_destroy(I, I->grids);
    free(I->script_name);
    free(I->last_splot);
    pv_settings_destroy(I->set);
    pv_env_destroy(I->env);
    free(I);
}

static pv_status finish_run(pv_interp *I, pv_status st)
{
    if (--I->run_depth > 0) return st;
    if (I->plots_skipped > 0) {
        pv_msg(I->ctx, "pvox: plotting is not built yet; %ld plot command%s skipped\n",
               I->plots_skipped, I->plots_skipped == 1 ? "" : "s");
        I->plots_skipped = 0;
    }
    /* script errors are deterministic, but agree anyway so no rank can be left behind */
    pv_status agreed = pv_status_agree(I->ctx, st == PV_EEXIT ? PV_OK : st);
    if (agreed != PV_OK) return agreed;
    return st;
}

pv_status pv_interp_run_text(pv_interp *I, const char *name, const char *text, size_t len)
{
    I->run_depth++;
    pv_source *src = pv_source_create(I->ctx, name, text, len, 1);
    pv_status st = src ? pv_exec_source(I, src) : (I->ctx->err_code ? I->ctx->err_code : PV_ENOMEM);
    return finish_run(I, st);
}

pv_status pv_interp_run_file(pv_interp *I, const char *path)
{
    char *data = NULL;
    size_t len = 0;
    I->run_depth++;
    if (!I->script_name) I->script_name = strdup(path);
    pv_status st = pv_read_file_bcast(I->ctx, path, &data, &len);
    if (st == PV_OK) {
        pv_value a0 = pv_str(path); /* gnuplot sets ARG0 to the script's name */
        pv_env_set(I->env, "ARG0", &a0);
        pv_value_free(&a0);
        st = pv_ckpt_script_start(I, data, len); /* hash; --resume loads its grids */
        pv_source *src = st == PV_OK ? pv_source_create(I->ctx, path, data, len, 1) : NULL;
        if (st == PV_OK)
            st = src ? pv_exec_source(I, src) : (I->ctx->err_code ? I->ctx->err_code : PV_ENOMEM);
    }
    free(data);
    return finish_run(I, st);
}
