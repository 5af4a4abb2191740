/* pv_code_reads_name (pvox/lang_query.h): which variables a compiled expression may
 * read, as vfill asks before computing GridDistance lanes. */
#include "lt_common.h"
#include "pvox/lang_query.h"

/* Compile `text` as one expression (NULL on a syntax error). */
static pv_code *compile(pv_ctx *ctx, pv_source **src, const char *text)
{
    *src = pv_source_create(ctx, "t", text, strlen(text), 1);
    pv_toklist tl;
    pv_code *code = NULL;
    if (pv_lex(ctx, *src, &tl) != PV_OK) return NULL;
    pv_cursor c = {ctx, &tl, 0, tl.ntok ? tl.ntok - 1 : 0};
    if (pv_parse_expr(&c, &code) != PV_OK) code = NULL;
    pv_toklist_fini(&tl);
    return code;
}

static bool reads(pv_ctx *ctx, const char *text, const char *name)
{
    pv_source *src = NULL;
    pv_code *code = compile(ctx, &src, text);
    PV_CHECK(code != NULL);
    bool r = pv_code_reads_name(code, name);
    pv_code_destroy(code);
    pv_source_destroy(src);
    return r;
}

int main(int argc, char **argv)
{
    pv_ctx *ctx = lt_init(&argc, &argv);
    PV_CHECK(reads(ctx, "GridDistance", "GridDistance"));
    PV_CHECK(reads(ctx, "$4*exp(-GridDistance**2/0.02)", "GridDistance"));
    PV_CHECK(reads(ctx, "VoxelDistance < 1 ? 0 : GridDistance", "GridDistance"));
    PV_CHECK(reads(ctx, "value(\"GridDistance\")", "GridDistance"));
    PV_CHECK(!reads(ctx, "$4*exp(-VoxelDistance**2/0.02)", "GridDistance"));
    PV_CHECK(!reads(ctx, "10", "GridDistance"));
    PV_CHECK(!reads(ctx, "GridDist + 1", "GridDistance"));
    PV_CHECK(reads(ctx, "VoxelDistance", "VoxelDistance"));
    PV_CHECK(!pv_code_reads_name(NULL, "GridDistance"));
    lt_fini(ctx);
    return pv_test_result("lang_code_query");
}
