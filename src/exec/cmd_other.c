/*
 * exec/cmd_other.c: gnuplot 5.4 commands pvox reads but does not carry out, and the shell
 * commands (DEC-11: parsed, then ignored with one warning per kind that names it):
 *
 *   fit        parsed whole (ranges, the function, the data source and its modifiers, the
 *              error columns, `via` names or a parameter file); not carried out: the
 *              parameters keep their values, an undefined one is created with 1.0 (the
 *              value gnuplot starts from), `via "file"` loads the file's starting values;
 *              FIT_CONVERGED = 0 and NaN errors (`<name>_err`, FIT_WSSR, ...) say so
 *   update     parsed (file names), nothing written
 *   test       `test`, `test terminal`, `test palette`: no picture
 *   refresh, bind, history, lower, raise, toggle, help, shell, reread, save: interactive
 *              or session commands, parsed and ignored
 *   system "cmd", !cmd  run the command on rank 0 (its output goes to standard output)
 */
#define _POSIX_C_SOURCE 200809L
#include "exec_int.h"
#include "frames.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Warn once per script, at the command's position. */
static void warn_once(pv_interp *I, pv_cursor *c, size_t off, const char *what)
{
    if (pv_plot_first_skip(I, what)) pv_source_warn(I->ctx, c->tl->src, off, "%s", what);
}

/* Step over balanced `[ ... ]` ranges (their contents are expressions or `var=` forms). */
static pv_status skip_ranges(pv_cursor *c)
{
    while (pv_cur_is_op(c, "[")) {
        int depth = 0;
        do {
            if (pv_cur_at_end(c)) return pv_cur_error(c, PV_ESYNTAX, "']' expected");
            if (pv_cur_is_op(c, "[")) depth++;
            else if (pv_cur_is_op(c, "]")) depth--;
            pv_cur_next(c);
        } while (depth > 0);
    }
    return PV_OK;
}

static pv_status set_real(pv_interp *I, const char *name, double x)
{
    pv_value v = pv_real(x);
    return pv_env_set(I->env, name, &v);
}

/* The parameters after `via`: names separated by commas; undefined ones become 1.0, and
 * each gets the `<name>_err` variable `set fit errorvariables` asks for: NaN, since no
 * fit ran. */
static pv_status via_names(pv_interp *I, pv_cursor *c, bool exec)
{
    do {
        const pv_token *t = pv_cur_peek(c);
        if (t->kind != PV_TK_NAME) return pv_cur_error(c, PV_ESYNTAX, "no parameter specified");
        if (exec) {
            pv_status st = PV_OK;
            if (!pv_env_get(I->env, t->sval)) st = set_real(I, t->sval, 1.0);
            char err[256];
            snprintf(err, sizeof err, "%s_err", t->sval);
            if (st == PV_OK) st = set_real(I, err, NAN);
            if (st != PV_OK) return st;
        }
        pv_cur_next(c);
    } while (pv_cur_accept_op(c, ","));
    return PV_OK;
}

/* The FIT_* results gnuplot defines after a fit, saying no fit ran: not converged, no
 * iteration, unknown residuals. */
static pv_status fit_results(pv_interp *I)
{
    pv_value zero = pv_int(0);
    pv_status st = pv_env_set(I->env, "FIT_CONVERGED", &zero);
    if (st == PV_OK) st = pv_env_set(I->env, "FIT_NITER", &zero);
    if (st == PV_OK) st = pv_env_set(I->env, "FIT_NDF", &zero);
    if (st == PV_OK) st = set_real(I, "FIT_WSSR", NAN);
    if (st == PV_OK) st = set_real(I, "FIT_STDFIT", NAN);
    if (st == PV_OK) st = set_real(I, "FIT_P", NAN);
    return st;
}

/* `via "file"`: the file holds `name = value {# FIXED}` lines: run them as a script. */
static pv_status via_file(pv_interp *I, pv_cursor *c, size_t off, const char *path)
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
    return st;
}

pv_status pv_cmd_fit(pv_interp *I, pv_cursor *c, bool exec)
{
    size_t off = pv_cur_offset(c);
    pv_cur_next(c);
    pv_status st = skip_ranges(c);
    pv_value v = {0};
    if (st == PV_OK) st = pv_exec_expr(I, c, false, &v); /* the function: parsed only */
    pv_value_free(&v);
    pv_data_spec ds;
    pv_data_spec_init(&ds);
    if (st == PV_OK) st = pv_data_spec_parse(c, I->env, false, &ds);
    pv_data_spec_fini(&ds);
    if (st != PV_OK) return st;
    /* weights: unitweights | {x|y|z|xy|xyz}error{s} | errors name, name ... */
    if (pv_cur_accept_word(c, "unitweights") || pv_cur_accept_word(c, "yerr$ors") ||
        pv_cur_accept_word(c, "xyerr$ors") || pv_cur_accept_word(c, "zerr$ors") ||
        pv_cur_accept_word(c, "xyzerr$ors")) {
    } else if (pv_cur_accept_word(c, "err$ors")) {
        do {
            if (pv_cur_peek(c)->kind != PV_TK_NAME)
                return pv_cur_error(c, PV_ESYNTAX, "expecting a variable name");
            pv_cur_next(c);
        } while (pv_cur_accept_op(c, ","));
    }
    if (!pv_cur_accept_word(c, "via")) return pv_cur_error(c, PV_ESYNTAX, "need via and either parameter list or file");
    if (pv_cur_peek(c)->kind == PV_TK_NAME && !pv_exec_op_at(c, 1, "(") &&
        !pv_exec_op_at(c, 1, ".")) {
        st = via_names(I, c, exec);
        if (st == PV_OK) st = pv_exec_expect_end(c);
    } else {
        size_t foff = pv_cur_offset(c);
        char *path = NULL;
        st = pv_exec_string_expr(I, c, exec, &path);
        if (st == PV_OK) st = pv_exec_expect_end(c);
        if (st == PV_OK && exec) st = via_file(I, c, foff, path);
        free(path);
    }
    if (st == PV_OK && exec) st = fit_results(I);
    if (st == PV_OK && exec)
        warn_once(I, c, off, "`fit` is not carried out by pvox " PV_VERSION_MAJOR_MINOR
                             ": the parameters keep their starting values");
    return st;
}

pv_status pv_cmd_update(pv_interp *I, pv_cursor *c, bool exec)
{
    size_t off = pv_cur_offset(c);
    pv_cur_next(c);
    char *a = NULL, *b = NULL;
    pv_status st = pv_exec_string_expr(I, c, exec, &a);
    if (st == PV_OK && !pv_cur_at_end(c)) st = pv_exec_string_expr(I, c, exec, &b);
    if (st == PV_OK) st = pv_exec_expect_end(c);
    free(a);
    free(b);
    if (st == PV_OK && exec)
        warn_once(I, c, off, "`update` writes nothing in pvox (`fit` is not carried out)");
    return st;
}

pv_status pv_cmd_test(pv_interp *I, pv_cursor *c, bool exec)
{
    size_t off = pv_cur_offset(c);
    pv_cur_next(c);
    if (!pv_cur_accept_word(c, "term$inal")) pv_cur_accept_word(c, "pal$ette");
    pv_status st = pv_exec_expect_end(c);
    if (st == PV_OK && exec)
        warn_once(I, c, off, "`test` draws no test picture in pvox (ignored)");
    return st;
}

/* Interactive and session commands: the rest of the statement is their arguments. */
pv_status pv_cmd_interactive(pv_interp *I, pv_cursor *c, bool exec)
{
    size_t off = pv_cur_offset(c);
    const char *name = pv_cur_peek(c)->sval ? pv_cur_peek(c)->sval : "";
    size_t n = strlen(name);
    pv_cur_next(c);
    while (!pv_cur_at_end(c)) pv_cur_next(c);
    if (!exec) return PV_OK;
    /* one warning per command name: the texts are interned in a small static table */
    static const char *const texts[] = {
        "`refresh` is an interactive command: ignored by pvox (use `replot`)",
        "`bind` is an interactive command: ignored by pvox",
        "`history` is an interactive command: ignored by pvox",
        "`lower` is an interactive command: ignored by pvox",
        "`raise` is an interactive command: ignored by pvox",
        "`toggle` is an interactive command: ignored by pvox",
        "`help` is an interactive command: ignored by pvox",
        "`shell` is an interactive command: ignored by pvox",
        "`reread` is not supported by pvox (deprecated in gnuplot): ignored",
        "`save` writes nothing in pvox: ignored",
    };
    for (size_t k = 0; k < sizeof texts / sizeof texts[0]; k++) {
        if (n > 0 && !strncmp(texts[k] + 1, name, n)) { /* the name as written may be short */
            warn_once(I, c, off, texts[k]);
            return PV_OK;
        }
    }
    return PV_OK;
}

/* Run `cmd` through the shell on rank 0 (its output goes to standard output), as
 * gnuplot's `system "cmd"` and `!cmd`: the script goes on whatever the command's status,
 * which lands in GPVAL_SYSTEM_ERRNO and GPVAL_SYSTEM_ERRMSG. */
static pv_status run_shell(pv_interp *I, const char *cmd)
{
    pv_status st = pv_frames_settle(I, PV_OK); /* it may read written frames */
    if (st != PV_OK) return st;
    int wstatus = 0, err = 0;
    if (I->ctx->rank == 0) {
        fflush(stdout);
        fflush(stderr);
        errno = 0;
        wstatus = system(cmd);
        err = errno;
    }
    pv_exec_shell_status(I, wstatus, err);
    return PV_OK;
}

pv_status pv_cmd_system(pv_interp *I, pv_cursor *c, bool exec)
{
    size_t off = pv_cur_offset(c);
    pv_cur_next(c);
    char *cmd = NULL;
    pv_status st = pv_exec_string_expr(I, c, exec, &cmd);
    if (st == PV_OK) st = pv_exec_expect_end(c);
    if (st == PV_OK && exec) st = pv_exec_shell_gate(I, c->tl->src, off, "system \"command\"");
    if (st == PV_OK && exec) st = run_shell(I, cmd);
    free(cmd);
    return st;
}

/* `!command`: the lexer gives the rest of the line (continuations joined) as one string
 * token after the `!` at the start of a line, as gnuplot passes it to the shell. */
pv_status pv_cmd_shell(pv_interp *I, pv_cursor *c, bool exec)
{
    size_t off = pv_cur_offset(c);
    pv_cur_next(c); /* ! */
    const pv_token *t = pv_cur_peek(c);
    if (t->kind != PV_TK_STRING) return pv_cur_error(c, PV_ESYNTAX, "invalid command");
    pv_cur_next(c);
    pv_status st = pv_exec_expect_end(c);
    if (st == PV_OK && exec) st = pv_exec_shell_gate(I, c->tl->src, off, "!command");
    if (st == PV_OK && exec) st = run_shell(I, t->sval);
    return st;
}
