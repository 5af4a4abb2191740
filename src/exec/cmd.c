/*
 * exec/cmd.c: the command table and dispatch (interp.c asks pv_exec_dispatch for the
 * handler of each simple statement), the set/unset/show words that reach other files
 * (grids, tables, print, settings), and the commands that run other sources: load, call
 * and eval.
 *
 * The handlers live by topic: cmd_assign.c (definitions), cmd_print.c (print, output),
 * cmd_misc.c (small commands), gridcmd.c and gridfill.c (voxel grids), iocmd.c
 * (vsave/vload), plot.c (plot/splot/replot, set table).
 */
#define _POSIX_C_SOURCE 200809L
#include "exec_int.h"
#include "gridcmd.h"
#include "iocmd.h"

#include <stdlib.h>
#include <string.h>

static int stmt_line(const pv_cursor *c, size_t off)
{
    int line, col;
    pv_source_locate(c->tl->src, off, &line, &col);
    return line;
}

/* =====================================================================================
 * load, call, eval
 * ===================================================================================== */

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
    pv_status st = pv_exec_string_expr(I, c, exec, &path);
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
    if (t->kind == PV_TK_NAME && !pv_exec_op_at(c, 1, "(") && !pv_env_get(I->env, t->sval))
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
    while (st == PV_OK && !pv_cur_at_end(c)) {
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
    pv_status st = pv_exec_string_expr(I, c, exec, &text);
    if (st == PV_OK) st = pv_exec_expect_end(c);
    if (st == PV_OK && exec) {
        pv_source *src = pv_source_create(I->ctx, c->tl->src->name, text, strlen(text),
                                          stmt_line(c, off));
        if (src) src->stdin_data = true; /* gnuplot's '-' reads stdin in an eval */
        st = src ? pv_exec_source(I, src) : PV_ENOMEM;
    }
    free(text);
    return st;
}

/* =====================================================================================
 * set, unset, show
 * ===================================================================================== */

static pv_status set_body(pv_interp *I, pv_cursor *c, bool exec, void *ud)
{
    (void)ud;
    if (pv_cur_accept_word(c, "vgrid")) return pv_cmd_set_vgrid(I, c, exec);
    if (pv_cur_accept_word(c, "vxr$ange")) return pv_cmd_set_vrange(I, c, exec, 0);
    if (pv_cur_accept_word(c, "vyr$ange")) return pv_cmd_set_vrange(I, c, exec, 1);
    if (pv_cur_accept_word(c, "vzr$ange")) return pv_cmd_set_vrange(I, c, exec, 2);
    if (pv_cur_accept_word(c, "pr$int")) return pv_cmd_set_print(I, c, exec);
    if (pv_cur_is_word(c, "tab$le")) return pv_cmd_set_table(I, c, exec);
    /* gnuplot's old negations `set noprint`, `set notable` */
    if (pv_cur_accept_word(c, "nopr$int")) return pv_cmd_unset_print(I, c, exec);
    if (pv_cur_is_word(c, "notab$le")) return pv_cmd_unset_table(I, c, exec);
    return pv_settings_set(I->set, I->env, c, exec);
}

static pv_status unset_body(pv_interp *I, pv_cursor *c, bool exec, void *ud)
{
    (void)ud;
    if (pv_cur_accept_word(c, "vgrid")) return pv_cmd_unset_vgrid(I, c, exec);
    if (pv_cur_accept_word(c, "pr$int")) return pv_cmd_unset_print(I, c, exec);
    if (pv_cur_is_word(c, "tab$le")) return pv_cmd_unset_table(I, c, exec);
    return pv_settings_unset(I->set, I->env, c, exec);
}

static pv_status cmd_set(pv_interp *I, pv_cursor *c, bool exec)
{
    pv_cur_next(c);
    pv_status st = pv_cur_accept_word(c, "for") ? pv_exec_iterate(I, c, exec, set_body, NULL)
                                                : set_body(I, c, exec, NULL);
    if (st == PV_OK && exec) pv_gpval_settings(I);
    return st;
}

static pv_status cmd_unset(pv_interp *I, pv_cursor *c, bool exec)
{
    pv_cur_next(c);
    pv_status st = pv_cur_accept_word(c, "for") ? pv_exec_iterate(I, c, exec, unset_body, NULL)
                                                : unset_body(I, c, exec, NULL);
    if (st == PV_OK && exec) pv_gpval_settings(I);
    return st;
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
        if (pv_cur_accept_word(c, "all")) {
            prefix = "";
        } else if (pv_cur_peek(c)->kind == PV_TK_NAME) {
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
 * Grid commands (the command word is consumed here; gridcmd.h takes the rest)
 * ===================================================================================== */

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
 * Dispatch
 * ===================================================================================== */

typedef struct pv_cmd {
    const char *pattern;  /* gnuplot abbreviation pattern, e.g. "pr$int" */
    pv_cmd_fn fn;
    pv_ck_class ck;       /* what the command means to checkpoints (set/unset: by word) */
} pv_cmd;

static const pv_cmd cmds[] = {
    {"printerr", pv_cmd_printerr, PV_CK_NONE},  {"pr$int", pv_cmd_print, PV_CK_NONE},
    {"se$t", cmd_set, PV_CK_NONE},              {"uns$et", cmd_unset, PV_CK_NONE},
    {"sh$ow", cmd_show, PV_CK_NONE},            {"p$lot", pv_cmd_plot, PV_CK_NONE},
    {"sp$lot", pv_cmd_plot, PV_CK_PLOT},        {"rep$lot", pv_cmd_plot, PV_CK_PLOT},
    {"l$oad", cmd_load, PV_CK_NONE},            {"ca$ll", cmd_call, PV_CK_NONE},
    {"eval$uate", cmd_eval, PV_CK_NONE},        {"re$set", pv_cmd_reset, PV_CK_NONE},
    {"ex$it", pv_cmd_exit, PV_CK_NONE},         {"q$uit", pv_cmd_exit, PV_CK_NONE},
    {"pa$use", pv_cmd_pause, PV_CK_NONE},       {"undefi$ne", pv_cmd_undefine, PV_CK_NONE},
    {"cl$ear", pv_cmd_clear, PV_CK_NONE},       {"cd", pv_cmd_cd, PV_CK_NONE},
    {"pwd", pv_cmd_pwd, PV_CK_NONE},            {"break", pv_cmd_break, PV_CK_NONE},
    {"continue", pv_cmd_continue, PV_CK_NONE},  {"array", pv_cmd_array, PV_CK_NONE},
    {"vfill", cmd_vfill, PV_CK_CHANGE_SAVE},    {"vgfill", cmd_vgfill, PV_CK_CHANGE_SAVE},
    {"vclear", cmd_vclear, PV_CK_CHANGE_SAVE},  {"vsave", pv_cmd_vsave, PV_CK_NONE},
    {"vload", pv_cmd_vload, PV_CK_CHANGE_SAVE},
    {"stat$s", pv_cmd_stats, PV_CK_NONE},
    {"f$it", pv_cmd_fit, PV_CK_NONE},           {"up$date", pv_cmd_update, PV_CK_NONE},
    {"test", pv_cmd_test, PV_CK_NONE},          {"sy$stem", pv_cmd_system, PV_CK_NONE},
    {"ref$resh", pv_cmd_interactive, PV_CK_NONE}, {"bind", pv_cmd_interactive, PV_CK_NONE},
    {"hi$story", pv_cmd_interactive, PV_CK_NONE}, {"low$er", pv_cmd_interactive, PV_CK_NONE},
    {"ra$ise", pv_cmd_interactive, PV_CK_NONE}, {"toggle", pv_cmd_interactive, PV_CK_NONE},
    {"h$elp", pv_cmd_interactive, PV_CK_NONE},  {"she$ll", pv_cmd_interactive, PV_CK_NONE},
    {"rer$ead", pv_cmd_interactive, PV_CK_NONE}, {"sa$ve", pv_cmd_interactive, PV_CK_NONE},
};

/* set/unset: the grid words are grid changes. `set for [...] vgrid` counts as one change
 * for the whole statement. */
static pv_ck_class set_class(const pv_cursor *c, bool set)
{
    pv_cursor w = *c;
    pv_cur_next(&w); /* set / unset */
    if (pv_cur_is_word(&w, "for") && pv_exec_op_at(&w, 1, "[")) {
        int depth = 0;
        for (pv_cur_next(&w); !pv_cur_at_end(&w); pv_cur_next(&w)) {
            if (pv_cur_is_op(&w, "[")) depth++;
            else if (pv_cur_is_op(&w, "]") && --depth == 0) break;
        }
        pv_cur_next(&w);
    }
    if (pv_cur_is_word(&w, "vgrid")) return set ? PV_CK_VGRID : PV_CK_CHANGE;
    if (set && (pv_cur_is_word(&w, "vxr$ange") || pv_cur_is_word(&w, "vyr$ange") ||
                pv_cur_is_word(&w, "vzr$ange")))
        return PV_CK_CHANGE;
    return PV_CK_NONE;
}

pv_cmd_fn pv_exec_dispatch(const pv_cursor *c, pv_ck_class *ck)
{
    *ck = PV_CK_NONE;
    const pv_token *t = pv_cur_peek(c);
    if (t->kind == PV_TK_DOLLAR && pv_exec_op_at(c, 1, "<<")) return pv_cmd_datablock;
    if (t->kind == PV_TK_OP && strcmp(t->op, "!") == 0 && pv_cur_peek_at(c, 1)->kind == PV_TK_STRING)
        return pv_cmd_shell;
    if (t->kind != PV_TK_NAME) return NULL;
    if (pv_is_voxel_assignment(c)) {
        *ck = PV_CK_CHANGE;
        return pv_cmd_voxel_assign;
    }
    if (pv_exec_is_funcdef(c)) return pv_cmd_funcdef;
    if (pv_exec_is_assignment(c)) return pv_cmd_assign;
    if (pv_exec_is_array_assignment(c)) return pv_cmd_array_assign;
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
        if (!pv_cur_is_word(c, cmds[i].pattern)) continue;
        *ck = cmds[i].fn == cmd_set     ? set_class(c, true)
              : cmds[i].fn == cmd_unset ? set_class(c, false)
                                        : cmds[i].ck;
        return cmds[i].fn;
    }
    return NULL;
}
