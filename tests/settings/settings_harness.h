/*
 * The harness the settings tests share: a context and an environment set up by the test's
 * main, and script text run through pv_settings_set/unset/show statement by statement.
 * Included by one test file per executable (its statics are that test's own).
 */
#ifndef PV_TESTS_SETTINGS_HARNESS_H
#define PV_TESTS_SETTINGS_HARNESS_H

#include "pv_test.h"

#include <stdio.h>
#include <string.h>

#include "pvox/settings.h"
#include "settings_int.h"

static pv_ctx *ctx;
static pv_env *env;

/* Run every `set`/`unset`/`show` statement of `text`; returns the first failure.
 * `show` output goes to `out` (may be NULL). */
static pv_status run_mode(pv_settings *s, const char *text, bool exec, FILE *out)
{
    pv_source *src = pv_source_create(ctx, "t.gp", text, strlen(text), 1);
    if (!src) return PV_ENOMEM;
    pv_toklist tl;
    pv_status st = pv_lex(ctx, src, &tl);
    if (st != PV_OK) {
        pv_source_destroy(src);
        return st;
    }
    size_t i = 0;
    while (st == PV_OK && i < tl.ntok && tl.tok[i].kind != PV_TK_EOF) {
        size_t j = i;
        while (j < tl.ntok && tl.tok[j].kind != PV_TK_EOF && tl.tok[j].kind != PV_TK_SEMI &&
               tl.tok[j].kind != PV_TK_NEWLINE)
            j++;
        if (j > i && tl.tok[i].kind == PV_TK_NAME) {
            pv_cursor c = {ctx, &tl, i + 1, j};
            const char *cmd = tl.tok[i].sval;
            if (strcmp(cmd, "set") == 0) st = pv_settings_set(s, env, &c, exec);
            else if (strcmp(cmd, "unset") == 0) st = pv_settings_unset(s, env, &c, exec);
            else if (strcmp(cmd, "show") == 0) st = pv_settings_show(s, env, &c, exec, out);
            if (st == PV_OK && !pv_cur_at_end(&c)) {
                fprintf(stderr, "statement not consumed: %s\n", text);
                st = PV_EINTERNAL;
            }
        }
        i = j + 1;
    }
    pv_toklist_fini(&tl);
    pv_source_destroy(src);
    return st;
}

/* Expect an error from exec (after check) containing `msg` at line:col. */
static void expect_error(pv_settings *s, const char *text, const char *msg, const char *where,
                         bool in_check)
{
    pv_err_clear(ctx);
    pv_status st = run_mode(s, text, false, NULL);
    if (!in_check) {
        PV_CHECK_EQ(st, PV_OK);
        pv_err_clear(ctx);
        st = run_mode(s, text, true, NULL);
    }
    PV_CHECK(st != PV_OK);
    PV_CHECK(ctx->err_msg != NULL);
    if (ctx->err_msg) {
        if (!strstr(ctx->err_msg, msg) || !strstr(ctx->err_msg, where))
            fprintf(stderr, "for '%s' got: %s\n", text, ctx->err_msg);
        PV_CHECK(strstr(ctx->err_msg, msg) != NULL);
        PV_CHECK(strstr(ctx->err_msg, where) != NULL);
    }
    pv_err_clear(ctx);
}

#endif
