/* Shared helpers for the lang tests: a context, and "print"-style evaluation of a
 * comma-separated expression list to the text gnuplot would print. */
#ifndef LT_COMMON_H
#define LT_COMMON_H

#include "pv_test.h"
#include "pvox/lang.h"

#include <stdlib.h>
#include <string.h>

static inline pv_ctx *lt_init(int *argc, char ***argv)
{
    MPI_Init(argc, argv);
    pv_options opt;
    memset(&opt, 0, sizeof opt);
    opt.quiet = true;
    opt.log_level = PV_LOG_ERROR;
    return pv_ctx_create(MPI_COMM_WORLD, &opt);
}

static inline void lt_fini(pv_ctx *ctx)
{
    pv_ctx_destroy(ctx);
    MPI_Finalize();
}

/* Message part of the recorded error ("undefined variable: x"), after "error: ". */
static inline const char *lt_errmsg(pv_ctx *ctx)
{
    static char buf[512];
    if (!ctx->err_msg) return "";
    const char *p = strstr(ctx->err_msg, "error: ");
    p = p ? p + 7 : ctx->err_msg;
    size_t n = strcspn(p, "\n");
    if (n >= sizeof buf) n = sizeof buf - 1;
    memcpy(buf, p, n);
    buf[n] = '\0';
    return buf;
}

/* Evaluate "e1, e2, ..." (one statement) as gnuplot's print would; returns a malloc'd
 * string: the values joined by " ", or "ERR: <message>" or "UNDEF". */
static inline char *lt_print(pv_env *env, const char *text)
{
    pv_ctx *ctx = pv_env_ctx(env);
    pv_err_clear(ctx);
    pv_source *src = pv_source_create(ctx, "t", text, strlen(text), 1);
    if (src) src->expr_only = true; /* "!0, ..." is an expression, not `!command` */
    pv_toklist tl;
    char *res = NULL;
    size_t cap = 4096, n = 0;
    if (pv_lex(ctx, src, &tl) != PV_OK) {
        char *r = malloc(600);
        snprintf(r, 600, "ERR: %s", lt_errmsg(ctx));
        pv_source_destroy(src);
        return r;
    }
    pv_cursor c = {ctx, &tl, 0, tl.ntok};
    res = malloc(cap);
    res[0] = '\0';
    bool first = true;
    for (;;) {
        pv_code *code;
        pv_value v;
        if (pv_parse_expr(&c, &code) != PV_OK) {
            snprintf(res, cap, "ERR: %s", lt_errmsg(ctx));
            break;
        }
        pv_status st = pv_eval(env, code, &v);
        pv_code_destroy(code);
        if (st != PV_OK) {
            snprintf(res, cap, "ERR: %s", lt_errmsg(ctx));
            break;
        }
        if (v.type == PV_V_UNDEF) {
            snprintf(res, cap, "UNDEF");
            break;
        }
        char *s = pv_value_format(&v);
        pv_value_free(&v);
        n += (size_t)snprintf(res + n, cap - n, "%s%s", first ? "" : " ", s);
        first = false;
        free(s);
        if (!pv_cur_accept_op(&c, ",")) break;
    }
    if (!pv_cur_at_end(&c) && strncmp(res, "ERR", 3) != 0)
        snprintf(res, cap, "ERR: trailing tokens");
    pv_toklist_fini(&tl);
    pv_source_destroy(src);
    return res;
}

#define LT_EXPECT(env, text, expected)                                                     \
    do {                                                                                   \
        char *lt_r_ = lt_print(env, text);                                                 \
        pv_test_checks++;                                                                  \
        if (strcmp(lt_r_, expected) != 0) {                                                \
            pv_test_failures++;                                                            \
            fprintf(stderr, "%s:%d: print %s\n   got: %s\n  want: %s\n", __FILE__,        \
                    __LINE__, text, lt_r_, expected);                                      \
        }                                                                                  \
        free(lt_r_);                                                                       \
    } while (0)

#endif
