/* Errors: gnuplot's wording, located at the offending token ("t:LINE:COL: error: msg"). */
#include "lt_common.h"

/* Parse and evaluate `text` (one expression); return the first line of the error. */
static char errline[512];
static const char *err_of(pv_env *env, const char *text, pv_status want)
{
    pv_ctx *ctx = pv_env_ctx(env);
    pv_err_clear(ctx);
    pv_source *src = pv_source_create(ctx, "t", text, strlen(text), 1);
    pv_toklist tl;
    pv_status st = pv_lex(ctx, src, &tl);
    if (st == PV_OK) {
        pv_cursor c = {ctx, &tl, 0, tl.ntok};
        /* skip a leading "print" */
        pv_cur_accept_word(&c, "pr$int");
        pv_code *code = NULL;
        st = pv_parse_expr(&c, &code);
        if (st == PV_OK) {
            pv_value v;
            st = pv_eval(env, code, &v);
            pv_value_free(&v);
            pv_code_destroy(code);
        }
        pv_toklist_fini(&tl);
    }
    pv_source_destroy(src);
    PV_CHECK_EQ(st, want);
    snprintf(errline, sizeof errline, "%s", ctx->err_msg ? ctx->err_msg : "");
    errline[strcspn(errline, "\n")] = '\0';
    return errline;
}

#define ERR(text, code, expect) PV_CHECK_STR(err_of(env, text, code), expect)

int main(int argc, char **argv)
{
    pv_ctx *ctx = lt_init(&argc, &argv);
    pv_env *env = pv_env_create(ctx);
    /* syntax */
    ERR("print 1 + (2", PV_ESYNTAX, "t:1:13: error: ')' expected");
    ERR("print sin(1", PV_ESYNTAX, "t:1:12: error: ')' expected");
    ERR("print 1 +", PV_ESYNTAX, "t:1:10: error: invalid expression");
    ERR("print 1 + * 2", PV_ESYNTAX, "t:1:11: error: invalid expression");
    ERR("print 1 ? 2", PV_ESYNTAX, "t:1:12: error: expecting ':'");
    ERR("print {1,a}", PV_ESYNTAX, "t:1:10: error: invalid complex constant");
    ERR("print 1e+", PV_ESYNTAX, "t:1:7: error: expecting exponent");
    /* run time, at the offending token */
    ERR("print 1 + potx", PV_ESCRIPT, "t:1:11: error: undefined variable: potx");
    ERR("print 2 * f(1)", PV_ESCRIPT, "t:1:11: error: undefined function: f");
    ERR("print 1 + \"a\"", PV_ESCRIPT,
        "t:1:9: error: non-numeric string found where a numeric expression was expected");
    ERR("print \"3x\" + 1", PV_ESCRIPT, "t:1:12: error: trailing characters after numeric expression");
    ERR("print 1.5 & 1", PV_ESCRIPT, "t:1:11: error: non-integer passed to boolean operator");
    ERR("print 7 % 2.0", PV_ESCRIPT, "t:1:9: error: non-integer operand for %");
    ERR("print 3.5!", PV_ESCRIPT, "t:1:10: error: factorial (!) argument must be an integer");
    ERR("print 1 . \"a\"", PV_ESCRIPT,
        "t:1:9: error: internal error : STRING operator applied to undefined or non-STRING variable");
    ERR("print sprintf(\"%s\", 3)", PV_ESCRIPT,
        "t:1:7: error: f_sprintf: attempt to print numeric value with string format");
    ERR("print 0.5 ? 1 : 2", PV_ESCRIPT, "t:1:11: error: non-integer passed to boolean operator");
    ERR("1 +\\\n  zz", PV_ESCRIPT, "t:2:3: error: undefined variable: zz");
    /* an error inside a user function is reported at the call */
    pv_source *src = pv_source_create(ctx, "def", "q + 1", 5, 1);
    pv_toklist tl;
    pv_lex(ctx, src, &tl);
    pv_cursor c = {ctx, &tl, 0, tl.ntok};
    pv_code *body;
    PV_CHECK_EQ(pv_parse_expr(&c, &body), PV_OK);
    char **params = malloc(sizeof *params);
    params[0] = malloc(2);
    strcpy(params[0], "x");
    pv_env_define_func(env, "fq", 1, params, body, "fq(x) = q + 1");
    ERR("print 2 + fq(1)", PV_ESCRIPT, "t:1:11: error: undefined variable: q");
    /* undefined values are not errors for pv_eval, but are for the converters */
    pv_err_clear(ctx);
    pv_source *s2 = pv_source_create(ctx, "u", "1/0", 3, 1);
    pv_toklist t2;
    pv_lex(ctx, s2, &t2);
    pv_cursor c2 = {ctx, &t2, 0, t2.ntok};
    pv_code *code;
    PV_CHECK_EQ(pv_parse_expr(&c2, &code), PV_OK);
    pv_value v;
    PV_CHECK_EQ(pv_eval(env, code, &v), PV_OK);
    PV_CHECK_EQ(v.type, PV_V_UNDEF);
    double d;
    PV_CHECK_EQ(pv_eval_real(env, code, &d), PV_ESCRIPT);
    PV_CHECK(strstr(ctx->err_msg, "u:1:1: error: undefined value") != NULL);
    pv_code_destroy(code);
    pv_toklist_fini(&t2);
    pv_source_destroy(s2);
    pv_toklist_fini(&tl);
    pv_env_destroy(env);
    pv_source_destroy(src);
    lt_fini(ctx);
    return pv_test_result("lang_errors");
}
