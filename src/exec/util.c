/*
 * exec/util.c: the helpers every command file shares (exec_int.h "util.c"): statement
 * ends, expressions, `for [...]` iteration, plot-axis ranges and '+'/'++' sampling, text
 * compiled as an expression, reading a file for a command, and which skipped element kinds
 * were already reported. A leaf: it calls no other exec file, so command files can use it
 * without tying themselves to the interpreter.
 */
#define _POSIX_C_SOURCE 200809L
#include "exec_int.h"
#include "pvox/view.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* =====================================================================================
 * Statements and expressions
 * ===================================================================================== */

void pv_exec_skip_rest(pv_cursor *c)
{
    c->pos = c->end;
}

pv_status pv_exec_expect_end(pv_cursor *c)
{
    if (pv_cur_at_end(c)) return PV_OK;
    const pv_token *t = pv_cur_peek(c);
    const char *text = c->tl->src->text;
    int n = (int)(t->end - t->start);
    return pv_cur_error(c, PV_ESYNTAX, "unexpected or unrecognized token: %.*s", n,
                        text + t->start);
}

pv_status pv_exec_locate(pv_interp *I, const pv_cursor *c, size_t off)
{
    const pv_source *s = c->tl->src;
    return pv_err_locate(I->ctx, s->name, s->text, s->len, s->first_line, off);
}

/* An evaluation error recorded without a location (e.g. by an external builtin such as
 * voxel()) is reported at the start of the expression instead. */
static pv_status locate_eval_error(pv_interp *I, pv_cursor *c, const pv_code *code,
                                   pv_status st)
{
    if (I->ctx->err_located || !I->ctx->err_msg || st == PV_EEXIT) return st;
    size_t start, end;
    pv_code_span(code, &start, &end);
    pv_exec_locate(I, c, start);
    return st;
}

pv_status pv_exec_expr(pv_interp *I, pv_cursor *c, bool exec, pv_value *out)
{
    pv_code *code = NULL;
    pv_status st = pv_parse_expr(c, &code);
    if (st != PV_OK) return st;
    if (exec) st = pv_eval(I->env, code, out);
    if (st != PV_OK) st = locate_eval_error(I, c, code, st);
    pv_code_destroy(code);
    return st;
}

pv_status pv_exec_string_expr(pv_interp *I, pv_cursor *c, bool exec, char **out)
{
    pv_code *code = NULL;
    *out = NULL;
    pv_status st = pv_parse_expr(c, &code);
    if (st != PV_OK) return st;
    if (exec) st = pv_eval_string(I->env, code, out);
    if (st != PV_OK) st = locate_eval_error(I, c, code, st);
    pv_code_destroy(code);
    return st;
}

bool pv_exec_op_at(const pv_cursor *c, size_t ahead, const char *op)
{
    const pv_token *t = pv_cur_peek_at(c, ahead);
    return t->kind == PV_TK_OP && strcmp(t->op, op) == 0;
}

/* The block for this use of a '-' token: the first one, or the next after the last one
 * read when that was one of the token's own (the iterations of a `plot for` in turn). */
static const pv_token *inline_block(pv_interp *I, const pv_toklist *tl, const pv_token *t)
{
    size_t k = t->data_first;
    if (I->inline_tl == tl && I->inline_next > k && I->inline_next < k + t->data_count)
        k = I->inline_next;
    I->inline_tl = tl;
    I->inline_next = k + 1;
    return &tl->tok[k];
}

pv_status pv_exec_read_source(pv_interp *I, pv_cursor *c, const pv_data_spec *ds,
                              char **data, size_t *len)
{
    if (!ds->inline_data) return pv_exec_read_file(I, c, ds->name_off, ds->name, data, len);
    const pv_toklist *tl = c->tl;
    const pv_token *t = ds->inline_tok < tl->ntok ? &tl->tok[ds->inline_tok] : NULL;
    if (!t)
        return pv_source_error(I->ctx, PV_ESCRIPT, tl->src, ds->name_off,
                               "inline data '-' given by an expression: pvox reads inline "
                               "data only for a quoted '-' in the command");
    if (t->data_count == 0 && ds->binary)
        return pv_source_error(I->ctx, PV_ESCRIPT, tl->src, ds->name_off,
                               "binary inline data '-' is not supported by pvox");
    if (t->data_count == 0)
        return pv_source_error(I->ctx, PV_ESCRIPT, tl->src, ds->name_off,
                               "inline data '-' inside a { } block or an eval: gnuplot "
                               "reads it from standard input there, pvox does not");
    const pv_token *b = inline_block(I, tl, t);
    *len = b->slen;
    *data = malloc(b->slen + 1);
    if (!*data) return pv_err(I->ctx, PV_ENOMEM, "out of memory");
    memcpy(*data, b->sval, b->slen + 1);
    return PV_OK;
}

char *pv_exec_inline_text(const pv_toklist *tl, size_t lo, size_t hi, size_t *n)
{
    size_t cap = 1;
    for (size_t i = lo; i < hi; i++)
        for (size_t k = 0; k < tl->tok[i].data_count; k++)
            cap += tl->tok[tl->tok[i].data_first + k].slen + 3;
    char *text = malloc(cap);
    if (!text) return NULL;
    size_t len = 0;
    for (size_t i = lo; i < hi; i++) {
        for (size_t k = 0; k < tl->tok[i].data_count; k++) {
            const pv_token *b = &tl->tok[tl->tok[i].data_first + k];
            memcpy(text + len, b->sval, b->slen);
            len += b->slen;
            if (b->slen > 0 && b->sval[b->slen - 1] != '\n') text[len++] = '\n'; /* the file's last line */
            memcpy(text + len, "e\n", 2);
            len += 2;
        }
    }
    text[len] = '\0';
    *n = len;
    return text;
}

/* =====================================================================================
 * Iteration: for [i = a:b{:c}] and for [s in "words"]
 * ===================================================================================== */

/* Split `s` into whitespace-separated words (gnuplot's word()); quotes group words.
 * The array has *cap slots (tracked memory); the words are malloc'd. */
static char **split_words(pv_ctx *ctx, const char *s, int *n, size_t *cap)
{
    char **w = NULL;
    *n = 0;
    *cap = 0;
    while (*s) {
        while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r') s++;
        if (!*s) break;
        const char *b = s;
        char q = 0;
        if (*s == '"' || *s == '\'') q = *s++, b = s;
        while (*s && (q ? *s != q : !(*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r'))) s++;
        size_t len = (size_t)(s - b);
        if (q && *s) s++;
        if (!PV_GROW(ctx, w, *cap, (size_t)*n + 1)) break;
        char *word = malloc(len + 1);
        if (!word) break;
        memcpy(word, b, len);
        word[len] = '\0';
        w[(*n)++] = word;
    }
    return w;
}

static void free_words(pv_ctx *ctx, char **w, int n, size_t cap)
{
    for (int i = 0; i < n; i++) free(w[i]);
    pv_free(ctx, w, cap * sizeof *w);
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
    bool open_end;  /* `for [i=a:*]`: until a plot element finds no data */
    int64_t a, b, step;
    char **words;
    int nwords;
    size_t capwords;
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
            h->words = split_words(I->ctx, v.s, &h->nwords, &h->capwords);
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
            if (k == 1 && pv_cur_is_op(c, "*")) {
                if (I->open_iter_ok <= 0)
                    return pv_cur_error(c, PV_ESYNTAX, "unbounded iteration not accepted here");
                pv_cur_next(c);
                h->open_end = true;
                continue;
            }
            if ((st = pv_exec_expr(I, c, exec, &v)) != PV_OK) return st;
            if (exec) {
                if (v.type == PV_V_INT) *dst[k] = v.i;
                else if (v.type == PV_V_CMPLX && isfinite(v.re) && v.re >= -9223372036854775808.0 &&
                         v.re < 9223372036854775808.0)
                    *dst[k] = (int64_t)v.re; /* truncated, as gnuplot takes 1.7 as 1 */
                else if (v.type == PV_V_CMPLX) {
                    pv_value_free(&v);
                    return pv_source_error(I->ctx, PV_ESCRIPT, c->tl->src, off,
                                           "iteration limit is not a finite number within the "
                                           "64-bit integers");
                } else {
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

static void iter_hdr_fini(pv_interp *I, iter_hdr *h)
{
    free(h->var);
    free_words(I->ctx, h->words, h->nwords, h->capwords);
}

pv_status pv_exec_iterate(pv_interp *I, pv_cursor *c, bool exec, pv_iter_body body, void *ud)
{
    iter_hdr h;
    pv_status st = parse_iter_header(I, c, exec, &h);
    if (st != PV_OK || !exec) {
        if (st == PV_OK) st = body(I, c, false, ud);
        iter_hdr_fini(I, &h);
        return st;
    }
    size_t body_pos = c->pos;
    const pv_value *old = pv_env_get(I->env, h.var);
    bool had_old = old != NULL;
    pv_value saved = had_old ? pv_value_copy(old) : (pv_value){0};
    long n = 0;
    bool outermost = I->loop_depth == 0;
    if (outermost) { /* the frame progress bar counts its iterations */
        I->loop_serial++;
        I->loop_index = 0;
        I->loop_total = h.is_in ? h.nwords
                        : h.open_end ? 0
                        : (h.step > 0 ? h.b >= h.a : h.b <= h.a) ? (h.b - h.a) / h.step + 1
                                                                 : 0;
    }
    I->loop_depth++;
    if (h.is_in) {
        for (int k = 0; k < h.nwords; k++, n++) {
            if (outermost) I->loop_index = n;
            pv_value w = pv_str(h.words[k]);
            st = pv_env_set(I->env, h.var, &w);
            pv_value_free(&w);
            if (st != PV_OK || iter_step(I, c, body_pos, body, ud, &st)) break;
        }
    } else {
        /* an open iteration ends when its body says: a plot element that finds no data */
        bool outer_done = I->open_iter_done;
        if (h.open_end) I->open_iter_done = false, I->open_iter_depth++;
        for (int64_t i = h.a; h.open_end ? !I->open_iter_done : h.step > 0 ? i <= h.b : i >= h.b;
             n++) {
            if (h.open_end && n >= 1000000) { /* e.g. '+' never runs out of rows */
                st = pv_cur_error(c, PV_ESCRIPT, "open iteration still finds data after %ld "
                                  "steps", n);
                break;
            }
            if (outermost) I->loop_index = n;
            pv_value w = pv_int(i);
            if ((st = pv_env_set(I->env, h.var, &w)) != PV_OK) break;
            if (iter_step(I, c, body_pos, body, ud, &st)) break;
            /* the next value, unless it would leave the 64-bit integers (the limit was
             * the last representable one: [2^63-2 : 2^63-1] runs twice and ends) */
            if (h.step > 0 ? i > INT64_MAX - h.step : i < INT64_MIN - h.step) break;
            i += h.step;
        }
        if (h.open_end) I->open_iter_done = outer_done, I->open_iter_depth--;
    }
    I->loop_depth--;
    if (outermost) I->loop_total = 0;
    if (st == PV_OK && n == 0) { /* no iteration: still step over the body */
        c->pos = body_pos;
        st = body(I, c, false, ud);
    }
    /* gnuplot restores the loop variable: undefined again if it was undefined */
    if (had_old) pv_env_set(I->env, h.var, &saved);
    else pv_env_undefine(I->env, h.var);
    pv_value_free(&saved);
    iter_hdr_fini(I, &h);
    return st;
}

/* =====================================================================================
 * Plot ranges and sampling
 * ===================================================================================== */

void pv_exec_autoscale_ends(const pv_range *r, double lo, double hi, double *a, double *b)
{
    *a = r->auto_min ? lo : r->min;
    *b = r->auto_max ? hi : r->max;
    if (r->auto_min && !(lo <= hi)) *a = r->auto_max ? -10 : fmin(-10, *b);
    if (r->auto_max && !(lo <= hi)) *b = r->auto_min ? 10 : fmax(10, *a);
    if (*a > *b && (r->auto_min || r->auto_max)) {
        double t = *a;
        *a = *b, *b = t;
    }
    if (*a == *b && (r->auto_min || r->auto_max)) pv_ticks_widen_empty(a, b);
}

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
 * range (DEC-4); otherwise the u/v defaults. */
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

/* =====================================================================================
 * Text compiled as an expression
 * ===================================================================================== */

pv_code *pv_exec_compile_text(pv_interp *I, const char *text)
{
    /* untracked (malloc): the sources live as long as the interpreter, and tracked memory
     * would count against the grids' memory check */
    pv_source **nt = realloc(I->texts, (I->ntexts + 1) * sizeof *nt);
    if (!nt) {
        pv_err(I->ctx, PV_ENOMEM, "out of memory");
        return NULL;
    }
    I->texts = nt;
    pv_source *src = pv_source_create(I->ctx, "(internal)", text, strlen(text), 1);
    if (!src) return NULL;
    src->expr_only = true;
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

void pv_exec_data_opts(pv_interp *I, pv_data_opts *o, char sep[2])
{
    const pv_settings *s = I->set;
    memset(o, 0, sizeof *o);
    sep[0] = s->datafile.separator, sep[1] = '\0';
    o->separator = sep[0] ? sep : NULL;
    o->missing = s->datafile.missing;
    o->commentschars = s->datafile.commentschars;
    o->dummy[0] = s->dummy[0][0] ? s->dummy[0] : NULL;
    o->dummy[1] = s->dummy[1][0] ? s->dummy[1] : NULL;
}

void pv_plot_warn_skip(pv_interp *I, const pv_source *src, size_t off, const char *what,
                       const char *also)
{
    if (!pv_plot_first_skip(I, what)) return;
    pv_source_warn(I->ctx, src, off, "%s is not drawn by pvox " PV_VERSION_MAJOR_MINOR "%s", what,
                   also ? also : "");
}

bool pv_plot_first_skip(pv_interp *I, const char *why)
{
    for (int k = 0; k < I->nskip_warned; k++)
        if (I->skip_warned[k] == why) return false;
    if (I->nskip_warned < (int)(sizeof I->skip_warned / sizeof I->skip_warned[0]))
        I->skip_warned[I->nskip_warned++] = why;
    return true;
}
