/*
 * libFuzzer target: a script text through the lexer, the command parsers and the
 * expression compilers (tests/fuzz/README.md).
 *
 * Two passes over the input, neither of which evaluates a command or touches a file:
 *  1. the interpreter's whole-script check (`pvox --check`, ARCH-11): every statement is
 *     lexed and parsed by its command's handler with exec = false, which compiles every
 *     expression, data source and setting of the script and runs nothing;
 *  2. the expression layer on its own: an expression is parsed at the start of every
 *     statement and after every `=` `(` `,` `[` `:`, compiled for the vector VM and run
 *     on four lanes; `f(a,b) = body` statements define user functions first, so the
 *     vector compiler inlines them.
 * Backquotes are replaced by single quotes before pass 1: the check pass reads a script
 * as gnuplot does, running `shell commands` first.
 *
 * No MPI: the context is built by hand (pv_ctx_create would need MPI_Init), as one rank
 * of one; the check pass must not reach MPI, and would abort in MPI if it did.
 */
#include "fuzz_common.h"

#include "exec_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- pass 1: the whole-script check ---- */

static void check_script(pv_ctx *ctx, const char *text, size_t len)
{
    char *copy = malloc(len + 1);
    if (!copy) return;
    for (size_t i = 0; i < len; i++) copy[i] = text[i] == '`' ? '\'' : text[i];
    pv_interp *I = pv_interp_create(ctx);
    pv_source *src = I ? pv_source_create(ctx, "fuzz.gp", copy, len, 1) : NULL;
    if (src) pv_exec_source(I, src); /* takes src */
    pv_interp_destroy(I);
    pv_err_clear(ctx);
    free(copy);
}

/* ---- pass 2: expressions through the vector compiler ---- */

static const char *const slot_names[] = {"x", "y", "z", "$1", "$2"};
enum { NSLOTS = sizeof slot_names / sizeof *slot_names, NLANES = 4 };

static void run_vector(pv_env *env, const pv_code *code)
{
    pv_vcode *vc = NULL;
    if (pv_vcompile(env, code, NSLOTS, slot_names, &vc) != PV_OK) return;
    static const double lanes[NSLOTS][NLANES] = {{0.0, 1.0, -2.5, (double)NAN},
                                                 {3.0, -0.0, 1e300, 2.0},
                                                 {-1.0, 0.5, 7.0, (double)INFINITY},
                                                 {1.0, 2.0, 3.0, 4.0},
                                                 {0.0, -1.0, (double)NAN, 1e-300}};
    pv_vinput in[NSLOTS];
    for (int k = 0; k < NSLOTS; k++) in[k] = (pv_vinput){lanes[k], 1};
    pv_vscratch *s = pv_vscratch_create(vc, NLANES);
    if (s) {
        double out[NLANES];
        pv_veval(vc, s, NLANES, in, out);
        pv_vscratch_take_error(s);
        pv_vscratch_destroy(s);
    }
    pv_vcode_destroy(vc);
}

static bool is_op(const pv_token *t, const char *op)
{
    return t->kind == PV_TK_OP && strcmp(t->op, op) == 0;
}

/* `name(p1, ..., pn) =` at token p (names at p+2, p+4, ...): the parameter count, or 0. */
static int funcdef_params(const pv_toklist *tl, size_t p)
{
    if (tl->tok[p].kind != PV_TK_NAME || p + 1 >= tl->ntok || !is_op(&tl->tok[p + 1], "("))
        return 0;
    for (int np = 1; np <= 16; np++) {
        size_t name = p + 2 * (size_t)np, after = name + 1;
        if (after + 1 >= tl->ntok || tl->tok[name].kind != PV_TK_NAME) return 0;
        if (is_op(&tl->tok[after], ")")) return is_op(&tl->tok[after + 1], "=") ? np : 0;
        if (!is_op(&tl->tok[after], ",")) return 0;
    }
    return 0;
}

/* Define the function whose definition starts at token p (np parameters). */
static void define_func(pv_env *env, pv_ctx *ctx, const pv_toklist *tl, size_t p, int np)
{
    pv_cursor c = {ctx, tl, p + 2 * (size_t)np + 3, tl->ntok};
    pv_code *body = NULL;
    if (pv_parse_expr(&c, &body) != PV_OK) return;
    char **params = calloc((size_t)np, sizeof *params);
    for (int k = 0; params && k < np; k++) params[k] = strdup(tl->tok[p + 2 + 2 * (size_t)k].sval);
    if (params)
        pv_env_define_func(env, tl->tok[p].sval, np, params, body, "fuzz");
    else
        pv_code_destroy(body);
}

static bool starts_statement(const pv_toklist *tl, size_t p)
{
    if (p == 0) return true;
    const pv_token *t = &tl->tok[p - 1];
    return t->kind == PV_TK_NEWLINE || t->kind == PV_TK_SEMI || is_op(t, "{");
}

/* A statement's start, its second token (after a command word: `print f(x)`), or after
 * one of = ( , [ : */
static bool starts_expression(const pv_toklist *tl, size_t p)
{
    if (starts_statement(tl, p)) return true;
    const pv_token *t = &tl->tok[p - 1];
    return (t->kind == PV_TK_NAME && starts_statement(tl, p - 1)) || is_op(t, "=") ||
           is_op(t, "(") || is_op(t, ",") || is_op(t, "[") || is_op(t, ":");
}

static void define_variables(pv_env *env)
{
    pv_value v = pv_real(2.5);
    pv_env_set(env, "a", &v);
    v = pv_int(3);
    pv_env_set(env, "n", &v);
    v = pv_str("text");
    pv_env_set(env, "s", &v);
    pv_value_free(&v);
    pv_env_set_array(env, "A", 3);
}

static void compile_expressions(pv_ctx *ctx, const char *text, size_t len)
{
    pv_source *src = pv_source_create(ctx, "fuzz.gp", text, len, 1);
    pv_env *env = src ? pv_env_create(ctx) : NULL;
    pv_toklist tl = {0};
    if (env && pv_lex(ctx, src, &tl) == PV_OK) {
        define_variables(env);
        for (size_t p = 0; p + 1 < tl.ntok; p++) {
            pv_err_clear(ctx);
            int np = funcdef_params(&tl, p);
            if (np > 0 && starts_statement(&tl, p)) define_func(env, ctx, &tl, p, np);
            if (!starts_expression(&tl, p)) continue;
            pv_cursor c = {ctx, &tl, p, tl.ntok};
            pv_code *code = NULL;
            if (pv_parse_expr(&c, &code) != PV_OK) continue;
            run_vector(env, code);
            pv_code_destroy(code);
        }
        pv_toklist_fini(&tl);
    }
    pv_err_clear(ctx);
    pv_env_destroy(env);
    pv_source_destroy(src);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    pv_ctx ctx;
    pv_fuzz_ctx_init(&ctx);
    check_script(&ctx, (const char *)data, size);
    compile_expressions(&ctx, (const char *)data, size);
    pv_fuzz_ctx_fini(&ctx);
    return 0;
}
