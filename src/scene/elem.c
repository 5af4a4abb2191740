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
    /* at least x, y, z, which every consumer reads: a source of fewer columns (a single
     * column, whose gnuplot coordinates pvox does not make) gets NaN ones, not drawn */
    if (e->nrows == 0 && e->ncols == 0) e->ncols = n < 3 ? 3 : n;
    size_t nc = (size_t)e->ncols;
    if (!PV_GROW(ctx, e->vals, e->cap, (e->nrows + 1) * nc)) return ctx->err_code;
    double *row = e->vals + e->nrows * nc;
    for (int k = 0; k < e->ncols; k++) row[k] = k < n ? v[k] : (double)NAN;
    e->nrows++;
    return PV_OK;
}

pv_status pv_scene_log_axes(pv_ctx *ctx, pv_scene_elem *e, const double base[3])
{
    if (e->nrows == 0 || e->ncols < 3) return PV_OK;
    if (!(base[0] > 1.0) && !(base[1] > 1.0) && !(base[2] > 1.0)) return PV_OK;
    /* colour from z on a log z axis: keep the real z in an appended colour column */
    pv_scene_cols kc = pv_scene_columns(e);
    bool by_z = base[2] > 1.0 && kc.color < 0 && e->kind != PV_SCENE_IMAGE &&
                (e->kind == PV_SCENE_PM3D || (e->st.lp.lc.kind == PV_COLOR_PALETTE_Z &&
                                              (e->kind == PV_SCENE_POINTS ||
                                               e->kind == PV_SCENE_LINES)));
    size_t nc = (size_t)e->ncols, nn = nc + (by_z ? 1 : 0);
    if (by_z) {
        if (!PV_GROW(ctx, e->vals, e->cap, e->nrows * nn)) return ctx->err_code;
        for (size_t r = e->nrows; r-- > 0;) { /* spread the rows out, last first */
            memmove(e->vals + r * nn, e->vals + r * nc, nc * sizeof *e->vals);
            e->vals[r * nn + nc] = e->vals[r * nn + 2];
        }
        e->ncols = (int)nn;
    }
    bool vectors = e->st.style == PV_STYLE_VECTORS && nn >= 6;
    for (size_t r = 0; r < e->nrows; r++) {
        double *v = e->vals + r * nn;
        for (int a = 0; a < 3; a++) {
            if (!(base[a] > 1.0)) continue;
            double tip = vectors ? v[a] + v[a + 3] : 0.0, lb = log(base[a]);
            v[a] = v[a] > 0.0 ? log(v[a]) / lb : (double)NAN; /* gnuplot: undefined */
            if (vectors) v[a + 3] = tip > 0.0 ? log(tip) / lb - v[a] : (double)NAN;
        }
    }
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
