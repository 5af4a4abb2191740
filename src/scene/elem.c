/*
 * scene/elem: plot elements as plain data: their life cycle, their data rows (tracked
 * memory) and which using column holds what.
 */
#include "pvox/scene.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void pv_scene_elem_init(pv_scene_elem *e, int number, const pv_lp *lp)
{
    memset(e, 0, sizeof *e);
    e->kind = PV_SCENE_SKIPPED;
    e->number = number;
    e->line_num = number;
    e->st.style = PV_STYLE_POINTS;
    e->st.lp = *lp;
    e->st.heads = 1;
    e->st.label_just = 1;
    e->st.tc.kind = PV_COLOR_BLACK;
}

void pv_scene_elem_fini(pv_ctx *ctx, pv_scene_elem *e)
{
    free(e->title);
    for (size_t k = 0; k < e->ntexts; k++) free(e->texts[k]);
    pv_free(ctx, e->texts, e->captexts * sizeof *e->texts);
    pv_free(ctx, e->vals, e->cap * sizeof *e->vals);
    pv_free(ctx, e->scan, e->capscan * sizeof *e->scan);
    memset(e, 0, sizeof *e);
}

pv_status pv_scene_add_row(pv_ctx *ctx, pv_scene_elem *e, const double *v, int n)
{
    if (e->nrows == 0 && e->ncols == 0) e->ncols = n;
    size_t nc = (size_t)e->ncols;
    if (!PV_GROW(ctx, e->vals, e->cap, (e->nrows + 1) * nc)) return ctx->err_code;
    double *row = e->vals + e->nrows * nc;
    for (int k = 0; k < e->ncols; k++) row[k] = k < n ? v[k] : (double)NAN;
    e->nrows++;
    return PV_OK;
}

pv_status pv_scene_end_scan(pv_ctx *ctx, pv_scene_elem *e)
{
    if (e->nscan > 0 && e->scan[e->nscan - 1] == e->nrows) return PV_OK; /* empty block */
    if (!PV_GROW(ctx, e->scan, e->capscan, e->nscan + 1)) return ctx->err_code;
    e->scan[e->nscan++] = e->nrows;
    return PV_OK;
}

static bool color_is_variable(const pv_color *c)
{
    return c->kind == PV_COLOR_RGB_VARIABLE || c->kind == PV_COLOR_VARIABLE;
}

pv_scene_cols pv_scene_columns(const pv_scene_elem *e)
{
    pv_scene_cols k = {-1, -1, -1};
    int next = e->st.style == PV_STYLE_VECTORS ? 6 : 3; /* vectors: x y z dx dy dz */
    if (e->kind == PV_SCENE_POINTS || e->kind == PV_SCENE_LINES) {
        if (e->st.lp.ps == -2) k.ps = next++;
        if (e->st.lp.pt == -3) k.pt = next++;
        if (color_is_variable(&e->st.lp.lc) ||
            (e->st.lp.lc.kind == PV_COLOR_PALETTE_Z && e->ncols > next))
            k.color = next++;
    } else if (e->kind == PV_SCENE_PM3D || (e->kind == PV_SCENE_IMAGE &&
                                            e->st.style == PV_STYLE_IMAGE)) {
        if (e->ncols > 3) k.color = 3;
    }
    if (k.ps >= e->ncols) k.ps = -1;
    if (k.pt >= e->ncols) k.pt = -1;
    if (k.color >= e->ncols) k.color = -1;
    return k;
}

bool pv_scene_feeds_cb(const pv_scene_elem *e)
{
    return e->kind == PV_SCENE_PM3D ||
           (e->kind == PV_SCENE_IMAGE && e->st.style == PV_STYLE_IMAGE) ||
           ((e->kind == PV_SCENE_POINTS || e->kind == PV_SCENE_LINES) &&
            e->st.lp.lc.kind == PV_COLOR_PALETTE_Z);
}
