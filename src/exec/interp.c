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
 * Each simple statement's handler comes from cmd.c's table (pv_exec_dispatch); when run,
 * it goes through pv_ckpt_stmt, the one place --checkpoint / --resume hear of statements.
 *
 * SPMD: every rank runs this over the same tokens, so control flow agrees without
 * messages. Only commands touching files agree a status (see cmd_print.c).
 */
#define _POSIX_C_SOURCE 200809L
#include "exec_int.h"
#include "frames.h"
#include "ckpt.h"
#include "gridset.h"

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

/* Pair every `{` of a token list with its `}` (and back) once, before it runs: finding a
 * block's end by scanning at every level made deeply nested blocks quadratic. An
 * unmatched brace is paired with ntok. NULL if memory ran out. */
static size_t *pair_braces(const pv_toklist *tl)
{
    size_t *pair = malloc((tl->ntok + 1) * sizeof *pair);
    size_t *open = malloc((tl->ntok + 1) * sizeof *open);
    if (!pair || !open) {
        free(pair);
        free(open);
        return NULL;
    }
    size_t nopen = 0;
    for (size_t i = 0; i < tl->ntok; i++) {
        pair[i] = tl->ntok;
        if (tok_is_op(&tl->tok[i], "{")) {
            open[nopen++] = i;
        } else if (tok_is_op(&tl->tok[i], "}") && nopen > 0) {
            size_t o = open[--nopen];
            pair[o] = i, pair[i] = o;
        }
    }
    free(open);
    return pair;
}

/* The brace pairs of `tl`, one of the sources being run (pv_exec_source made them). */
static const size_t *pairs_of(const pv_interp *I, const pv_toklist *tl)
{
    for (int k = I->depth - 1; k >= 0; k--)
        if (I->brace_tl[k] == tl) return I->brace_pair[k];
    return NULL; /* not reached: every token list run comes through pv_exec_source */
}

/* Index of the `}` matching the `{` at `open`, or `hi` if none. */
static size_t match_brace(const pv_interp *I, const pv_toklist *tl, size_t open, size_t hi)
{
    const size_t *pair = pairs_of(I, tl);
    return pair[open] < hi ? pair[open] : hi;
}

/* End of the simple statement starting at p: the first NEWLINE/`;` at brace depth 0.
 * A datablock definition extends to its HEREDOC token. */
static size_t stmt_end(const pv_interp *I, const pv_toklist *tl, size_t p, size_t hi)
{
    if (tl->tok[p].kind == PV_TK_DOLLAR && p + 1 < hi && tok_is_op(&tl->tok[p + 1], "<<")) {
        for (size_t i = p + 2; i < hi && i < p + 6; i++)
            if (tl->tok[i].kind == PV_TK_HEREDOC) return i + 1;
    }
    const size_t *pair = pairs_of(I, tl);
    int depth = 0;
    for (size_t i = p; i < hi; i++) {
        const pv_token *t = &tl->tok[i];
        if (depth == 0 && tok_is_op(t, "{") && pair[i] < hi) i = pair[i]; /* skip */
        else if (tok_is_op(t, "{")) depth++;
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
 * Compound statements
 * ===================================================================================== */

/* Expect `{` at c->pos; find its `}`; run or check the block; leave c after `}`. */
static pv_status block_at(pv_interp *I, pv_cursor *c, bool run, bool check)
{
    const pv_toklist *tl = c->tl;
    if (!pv_cur_is_op(c, "{")) return pv_cur_error(c, PV_ESYNTAX, "expecting '{'");
    size_t open = c->pos;
    size_t close = match_brace(I, tl, open, c->end);
    if (close >= c->end) return tok_error(I, tl, open, "unmatched '{'");
    if (I->block_depth >= PV_MAX_BLOCK_DEPTH)
        return pv_source_error(I->ctx, PV_ESYNTAX, tl->src, tl->tok[open].start,
                               "blocks nested too deeply (more than %d)", PV_MAX_BLOCK_DEPTH);
    pv_status st = PV_OK;
    I->block_depth++;
    if (check) st = run_range(I, tl, open + 1, close, false);
    else if (run) st = run_range(I, tl, open + 1, close, true);
    I->block_depth--;
    c->pos = close + 1;
    return st;
}

/* The body of `do for [..]`: the block, or a further `for [..]` (gnuplot nests them:
 * `do for [i=1:3] for [j=i:3] { }`; the inner header is read again in every outer
 * iteration, so its bounds may use the outer variable). */
static pv_status do_body(pv_interp *I, pv_cursor *c, bool exec, void *ud)
{
    if (pv_cur_accept_word(c, "for")) return pv_exec_iterate(I, c, exec, do_body, ud);
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
    pv_strbuf B = {0};
    pv_status st = PV_OK;
#define PUT(s, n) (st = st == PV_OK ? pv_strbuf_put(I->ctx, &B, (s), (n)) : st)
    for (int k = 1; k < col; k++) PUT(" ", 1); /* keep columns for the text before a macro */
    size_t from = tl->tok[p].start;
    for (size_t i = p; i < e && st == PV_OK; i++) {
        const pv_token *t = &tl->tok[i];
        if (t->kind != PV_TK_MACRO) continue;
        PUT(src->text + from, t->start - from);
        const pv_value *v = pv_env_get(I->env, t->sval);
        if (!v || v->type != PV_V_STR) {
            pv_strbuf_free(I->ctx, &B);
            return pv_source_error(I->ctx, PV_ESCRIPT, src, t->start,
                                   v ? "macro '@%s' is not a string variable"
                                     : "undefined macro '@%s'", t->sval);
        }
        PUT(v->s, strlen(v->s));
        from = t->end;
    }
    size_t last = e > p ? tl->tok[e - 1].end : from;
    if (last > from) PUT(src->text + from, last - from);
    /* the inline data blocks the statement reads follow it again, each ended by `e` */
    size_t nd = 0;
    char *data = pv_exec_inline_text(tl, p, e, &nd);
    if (!data && st == PV_OK) st = pv_err(I->ctx, PV_ENOMEM, "out of memory");
    if (nd > 0) {
        PUT("\n", 1);
        PUT(data, nd);
    }
    free(data);
    PUT("", 0); /* B.s exists (an empty text) even when nothing was appended */
#undef PUT
    pv_source *ms = st == PV_OK ? pv_source_create(I->ctx, src->name, B.s, B.len, line) : NULL;
    pv_strbuf_free(I->ctx, &B);
    if (st != PV_OK) return st;
    if (!ms) return I->ctx->err_code ? I->ctx->err_code : PV_ENOMEM;
    return pv_exec_source(I, ms);
}

/* =====================================================================================
 * Statements
 * ===================================================================================== */

/* The grid commands --stats times (pvox/stats.h), by the statement's first word. */
static const char *stats_command_name(const pv_cursor *c, pv_ck_class ck)
{
    static const char *const grid_cmds[] = {"vfill", "vgfill", "vclear", "vload", "vsave"};
    const pv_token *t = &c->tl->tok[c->pos];
    if (t->kind != PV_TK_NAME || !t->sval) return NULL;
    for (size_t i = 0; i < sizeof grid_cmds / sizeof grid_cmds[0]; i++)
        if (strcmp(t->sval, grid_cmds[i]) == 0) return grid_cmds[i];
    if (ck == PV_CK_VGRID) return "set vgrid";
    if (pv_word_matches(t->sval, "stat$s")) return "stats";
    return NULL;
}

static pv_status simple_stmt(pv_interp *I, pv_cursor *c, bool exec)
{
    pv_ck_class ck;
    pv_cmd_fn fn = pv_exec_dispatch(c, &ck);
    if (!fn) return pv_cur_error(c, PV_ESYNTAX, "invalid command");
    if (!exec) return fn(I, c, false);
    return pv_ckpt_stmt(I, c, ck, fn, I->ctx->opt.stats_path ? stats_command_name(c, ck) : NULL);
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
    size_t e = stmt_end(I, tl, p, hi);
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
        if (t->kind == PV_TK_NEWLINE || t->kind == PV_TK_SEMI || t->kind == PV_TK_INLINE) {
            p++; /* inline data blocks are read by their command (pv_exec_read_source) */
            continue;
        }
        if (tok_is_op(t, "}")) return tok_error(I, tl, p, "unexpected '}'");
        size_t next = p + 1;
        pv_status st = run_stmt(I, tl, p, hi, exec, &next);
        if (st != PV_OK && !exec && I->ctx->opt.check_only && st != PV_ENOMEM) {
            /* --check: report this error, go on with the next statement */
            pv_err_print(I->ctx);
            pv_err_clear(I->ctx);
            I->check_errors++;
            st = PV_OK;
        }
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
    pv_status st = pv_exec_backquotes(I, &src); /* `cmd` substitution, as gnuplot reads */
    if (st == PV_OK) st = pv_lex(I->ctx, src, &tl);
    size_t *pairs = st == PV_OK ? pair_braces(&tl) : NULL;
    if (st == PV_OK && !pairs) st = pv_err(I->ctx, PV_ENOMEM, "out of memory");
    if (st == PV_OK) {
        I->brace_tl[I->depth] = &tl;
        I->brace_pair[I->depth] = pairs;
        I->depth++;
        st = run_range(I, &tl, 0, tl.ntok, false);
        if (st == PV_OK && I->ctx->opt.check_only && I->check_errors > 0)
            st = pv_err(I->ctx, PV_ESYNTAX, "%ld syntax error%s", I->check_errors,
                        I->check_errors == 1 ? "" : "s");
        else if (st == PV_OK && !I->ctx->opt.check_only)
            st = run_range(I, &tl, 0, tl.ntok, true);
        I->depth--;
        free(I->brace_pair[I->depth]);
        I->brace_pair[I->depth] = NULL;
        I->brace_tl[I->depth] = NULL;
        if (I->depth == 0) I->flow = PV_FLOW_NONE;
    }
    if (I->inline_tl == &tl) I->inline_tl = NULL;
    pv_toklist_fini(&tl);
    pv_source_destroy(src);
    return st;
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
    pv_gpval_init(I);
    pv_hostfn_register(I);
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
    pv_frames_release(I);
    free(I->script_name);
    free(I->last_splot);
    free(I->ck.swept);
    free(I->ck.script_names);
    pv_settings_destroy(I->set);
    pv_env_destroy(I->env);
    free(I);
}

static pv_status finish_run(pv_interp *I, pv_status st)
{
    if (--I->run_depth > 0) return st;
    if (I->plots_skipped > 0) {
        pv_msg(I->ctx, "pvox: 2D `plot` is not drawn by pvox " PV_VERSION_MAJOR_MINOR
               ": %ld plot command%s skipped\n", I->plots_skipped,
               I->plots_skipped == 1 ? "" : "s");
        I->plots_skipped = 0;
    }
    /* script errors are deterministic, but agree anyway so no rank can be left behind;
     * the last frame's write is agreed with them (frames.h) */
    pv_status agreed = pv_frames_agree(I, st == PV_EEXIT ? PV_OK : st);
    if (agreed == PV_OK) agreed = pv_ckpt_finish(I); /* saves the interval put off */
    /* print and table files: a write that failed (a file size limit, a full disk) */
    pv_status ost = pv_out_check(I);
    if (agreed == PV_OK && ost != PV_OK) agreed = ost;
    pv_frames_progress(I); /* no loop runs now: the bar ends */
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
