/*
 * exec/cmd_misc.c: the small commands: exit/quit, reset, pause, undefine, clear, cd, pwd,
 * break and continue.
 */
#define _POSIX_C_SOURCE 200809L
#include "exec_int.h"
#include "gridset.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static bool next_is_string_start(const pv_cursor *c)
{
    return !pv_cur_at_end(c) && !pv_cur_is_op(c, ",");
}

/* The code of `exit status N`. A process exit code is 8 bits: gnuplot passes N on and
 * the shell sees N mod 256, so `exit status 256` would report success. pvox refuses what
 * does not fit (DIFF-23). */
static pv_status exit_code_of(pv_interp *I, pv_cursor *c, size_t voff, const pv_value *v,
                              int *code)
{
    if (v->type != PV_V_INT && v->type != PV_V_CMPLX)
        return pv_source_error(I->ctx, PV_ESCRIPT, c->tl->src, voff, "expecting integer");
    double n = v->type == PV_V_INT ? (double)v->i : trunc(v->re);
    if (!(n >= 0 && n <= 255))
        return pv_source_error(I->ctx, PV_ESCRIPT, c->tl->src, voff,
                               "exit status %.17g is outside 0..255 (an exit code has 8 "
                               "bits: the shell would see %d)",
                               n, isfinite(n) ? (int)fmod(fmod(n, 256) + 256, 256) : 0);
    *code = (int)n;
    return PV_OK;
}

pv_status pv_cmd_exit(pv_interp *I, pv_cursor *c, bool exec)
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
            st = exit_code_of(I, c, voff, &v, &code);
            pv_value_free(&v);
        }
    } else if (pv_cur_accept_word(c, "error")) {
        st = pv_exec_string_expr(I, c, exec, &msg);
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

pv_status pv_cmd_reset(pv_interp *I, pv_cursor *c, bool exec)
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
        pv_gpval_init(I);
        pv_hostfn_register(I);
        return PV_OK;
    }
    if (pv_cur_accept_word(c, "err$ors") || pv_cur_accept_word(c, "bind"))
        return pv_exec_expect_end(c);
    pv_status st = pv_exec_expect_end(c);
    if (st == PV_OK && exec) {
        pv_settings_reset(I->set);
        pv_env_set_angles_degrees(I->env, false); /* `reset` includes `set angles radians` */
        pv_gpval_settings(I);
    }
    return st;
}

/* pause: batch mode never waits (DEC-10); the optional message is printed. */
pv_status pv_cmd_pause(pv_interp *I, pv_cursor *c, bool exec)
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
    if (st == PV_OK && next_is_string_start(c)) st = pv_exec_string_expr(I, c, exec, &msg);
    if (st == PV_OK) st = pv_exec_expect_end(c);
    if (st == PV_OK && exec && msg) pv_msg(I->ctx, "%s\n", msg);
    free(msg);
    return st;
}

pv_status pv_cmd_undefine(pv_interp *I, pv_cursor *c, bool exec)
{
    pv_cur_next(c);
    while (!pv_cur_at_end(c)) {
        const pv_token *t = pv_cur_peek(c);
        if (t->kind == PV_TK_DOLLAR) {
            /* `undefine $*` (gnuplot 5.4): every datablock; `$name*` is an error there */
            if (exec && !strcmp(t->sval, "$*")) pv_env_remove_datablock(I->env, "$*");
            else if (exec && !pv_gridset_undefine(I, t->sval))
                pv_env_remove_datablock(I->env, t->sval);
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

pv_status pv_cmd_clear(pv_interp *I, pv_cursor *c, bool exec)
{
    (void)I, (void)exec;
    pv_cur_next(c);
    return pv_exec_expect_end(c);
}

pv_status pv_cmd_cd(pv_interp *I, pv_cursor *c, bool exec)
{
    size_t off;
    pv_cur_next(c);
    off = pv_cur_offset(c);
    char *dir = NULL;
    pv_status st = pv_exec_string_expr(I, c, exec, &dir);
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

pv_status pv_cmd_pwd(pv_interp *I, pv_cursor *c, bool exec)
{
    pv_cur_next(c);
    pv_status st = pv_exec_expect_end(c);
    if (st == PV_OK && exec) {
        char buf[4096];
        if (getcwd(buf, sizeof buf)) pv_msg(I->ctx, "%s\n", buf);
    }
    return st;
}

pv_status pv_cmd_break(pv_interp *I, pv_cursor *c, bool exec)
{
    pv_cur_next(c);
    pv_status st = pv_exec_expect_end(c);
    if (st == PV_OK && exec && I->loop_depth > 0) I->flow = PV_FLOW_BREAK;
    return st;
}

pv_status pv_cmd_continue(pv_interp *I, pv_cursor *c, bool exec)
{
    pv_cur_next(c);
    pv_status st = pv_exec_expect_end(c);
    if (st == PV_OK && exec && I->loop_depth > 0) I->flow = PV_FLOW_CONTINUE;
    return st;
}
