/*
 * Queries on compiled expressions: pv_code_uses_name (which variables an expression
 * names), pv_code_uses_columns and pv_code_is_pure.
 */
#include "lt_common.h"

/* Parse `text` into *code; the source and tokens are returned for the caller to free. */
static pv_code *parse(pv_ctx *ctx, const char *text, pv_source **src, pv_toklist *tl)
{
    *src = pv_source_create(ctx, "q", text, strlen(text), 1);
    PV_CHECK(*src != NULL);
    PV_CHECK_EQ(pv_lex(ctx, *src, tl), PV_OK);
    pv_cursor c = {ctx, tl, 0, tl->ntok};
    pv_code *code = NULL;
    PV_CHECK_EQ(pv_parse_expr(&c, &code), PV_OK);
    return code;
}

static void check(pv_ctx *ctx, const char *text, const char *name, bool expected, bool cols)
{
    pv_source *src;
    pv_toklist tl;
    pv_code *code = parse(ctx, text, &src, &tl);
    if (code) {
        PV_CHECK_EQ(pv_code_uses_name(code, name), expected);
        PV_CHECK_EQ(pv_code_uses_columns(code), cols);
    }
    pv_code_destroy(code);
    pv_toklist_fini(&tl);
    pv_source_destroy(src);
}

static pv_status ext_stub(pv_env *env, void *ud, const pv_value *args, int nargs,
                         pv_value *out)
{
    (void)env, (void)ud, (void)args, (void)nargs;
    *out = pv_real(0);
    return PV_OK;
}

/* pv_code_is_pure: expected purity and whether a listed external builtin is called */
static void check_pure(pv_ctx *ctx, pv_env *env, const char *text, bool pure, bool calls)
{
    static const char *const ok_ext[] = {"voxel", NULL};
    pv_source *src;
    pv_toklist tl;
    pv_code *code = parse(ctx, text, &src, &tl);
    bool got_calls = !calls;
    PV_CHECK_EQ(pv_code_is_pure(env, code, ok_ext, &got_calls), pure);
    if (pure) PV_CHECK_EQ(got_calls, calls);
    pv_code_destroy(code);
    pv_toklist_fini(&tl);
    pv_source_destroy(src);
}

/* Define a user function from `name(params) = body` text. */
static void define(pv_ctx *ctx, pv_env *env, const char *name, const char *param,
                   const char *body)
{
    pv_source *src;
    pv_toklist tl;
    pv_code *code = parse(ctx, body, &src, &tl);
    char **params = malloc(sizeof *params); /* the environment takes both */
    params[0] = malloc(strlen(param) + 1);
    strcpy(params[0], param);
    PV_CHECK_EQ(pv_env_define_func(env, name, 1, params, code, body), PV_OK);
    pv_toklist_fini(&tl);
    pv_source_destroy(src);
}

static void test_pure(pv_ctx *ctx)
{
    pv_env *env = pv_env_create(ctx);
    pv_env_register_builtin(env, "voxel", 3, ext_stub, NULL);
    pv_env_register_builtin(env, "system", 1, ext_stub, NULL);
    define(ctx, env, "f", "x", "x > 0 ? sin(x)/x : 1");
    define(ctx, env, "g", "x", "f(x) + voxel(x, 0, 0)");
    define(ctx, env, "h", "x", "(n = n + 1, x)");
    define(ctx, env, "r", "x", "x > 0 ? r(x - 1) : 0"); /* recursion: not followed */
    check_pure(ctx, env, "$1 * 2 + sprintf('%g', $2) . 'x'", true, false);
    check_pure(ctx, env, "f($1) + sum [k = 1:3] k*$2", true, false);
    check_pure(ctx, env, "voxel($1, $2, 0.5)", true, true);
    check_pure(ctx, env, "g($1)", true, true); /* through a user function */
    check_pure(ctx, env, "(a = 3, $1)", false, false);
    check_pure(ctx, env, "h($1)", false, false);
    check_pure(ctx, env, "rand(0) + $1", false, false);
    check_pure(ctx, env, "system('date') . $1", false, false);
    check_pure(ctx, env, "nosuch($1)", false, false);
    check_pure(ctx, env, "r($1)", false, false);
    PV_CHECK(!pv_code_is_pure(env, NULL, NULL, NULL));
    pv_env_destroy(env);
}

int main(int argc, char **argv)
{
    pv_ctx *ctx = lt_init(&argc, &argv);
    check(ctx, "GridDistance < 2 ? 1 : 0", "GridDistance", true, false);
    check(ctx, "VoxelDistance*2 + $3", "GridDistance", false, true);
    check(ctx, "exp(-GridDistance**2)", "GridDistance", true, false);
    check(ctx, "\"GridDistance\" . \"x\"", "GridDistance", false, false);
    check(ctx, "GridDistance(1)", "GridDistance", false, false); /* a function name */
    check(ctx, "(GridDistance = 3, 1)", "GridDistance", true, false);
    check(ctx, "sum [GridDistance = 1:3] 1", "GridDistance", true, false);
    check(ctx, "GridDistances + gridDistance", "GridDistance", false, false);
    check(ctx, "1 + f(2, GridDistance)", "GridDistance", true, false);
    PV_CHECK(!pv_code_uses_name(NULL, "x"));
    test_pure(ctx);
    lt_fini(ctx);
    return pv_test_result("lang_code_query");
}
