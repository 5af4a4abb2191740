/*
 * Queries on compiled expressions: pv_code_uses_name (which variables an expression
 * names) and pv_code_uses_columns.
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
    lt_fini(ctx);
    return pv_test_result("lang_code_query");
}
