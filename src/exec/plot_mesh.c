/*
 * exec/plot_mesh.c: `set table` + `splot $grid with isosurface level L`: the facets written
 * as a mesh (a pvox extension; gnuplot 5.4 has no table output for this style).
 *
 * The destination's name picks the format (io/mesh.h): text into the table output (one
 * polygon a block, one vertex `x y z` a line, a blank line after each polygon), or a VTK
 * file (.vtp: one merged mesh; .pvtp: one piece per rank). Each rank extracts its own cell
 * layers (its planes plus the ghost plane of its upper neighbour, as for drawing) for all
 * levels of a grid in one pass and streams the polygons into the writer, in user
 * coordinates. Vertices carry their grid-edge id (the grid's pass number in the top byte,
 * so two grids of one plot never share a vertex), which the writer merges on.
 */
#include "plot.h"

#include "pvox/iso.h"
#include "pvox/mesh.h"

#include <math.h>
#include <string.h>

typedef struct mesh_pass {
    pv_ctx *ctx;
    pv_mesh_writer *w;
    const pv_grid *g;
    const float *ghost;
    const pv_scene_elem **elem; /* level i comes from elem[i] */
    uint64_t tag;               /* pass number << 56, or'ed into edge ids */
    pv_status st;
} mesh_pass;

static const float *mesh_plane(const void *ud, int64_t k)
{
    const mesh_pass *M = ud;
    const pv_grid *g = M->g;
    if (k >= g->z1) return M->ghost;
    return g->data + (size_t)(k - g->z0) * (size_t)g->n * (size_t)g->n;
}

static int mesh_emit(void *ud, const pv_iso_poly *p, size_t n)
{
    mesh_pass *M = ud;
    const pv_grid *g = M->g;
    for (size_t i = 0; i < n && M->st == PV_OK; i++) {
        double v[4 * 3];
        uint64_t edge[4];
        for (int k = 0; k < p[i].nv; k++) {
            for (int a = 0; a < 3; a++) v[3 * k + a] = g->min[a] + p[i].v[k][a] * g->delta[a];
            edge[k] = p[i].edge[k] | M->tag;
        }
        const pv_scene_elem *e = M->elem[p[i].level];
        M->st = pv_mesh_add(M->ctx, M->w, p[i].nv, v, edge, e->st.level, e->number);
    }
    return M->st == PV_OK ? 0 : 1;
}

/* Text lines of the mesh into the `set table` destination. */
static pv_status mesh_line(void *ud, const char *line)
{
    pv_interp *I = ud;
    return pv_out_line(I, &I->table_out, line);
}

pv_status pv_plot_write_mesh(pv_interp *I, pv_cursor *c, size_t off, const pv_scene_elem *e,
                             int n)
{
    pv_ctx *ctx = I->ctx;
    pv_out *out = &I->table_out;
    /* user coordinates are passed in: the writer's geometry is the identity */
    pv_mesh_geom geom = {{0, 0, 0}, {1, 1, 1}};
    pv_mesh_writer *w;
    if (out->kind == PV_OUT_MESH) {
        w = pv_mesh_open(ctx, out->name, &geom);
    } else {
        pv_mesh_sink sink = {mesh_line, I, out->kind == PV_OUT_DATABLOCK};
        w = pv_mesh_open_text(ctx, &sink, &geom);
    }
    if (!w) {
        const pv_source *src = c->tl->src;
        return pv_err_locate(ctx, src->name, src->text, src->len, src->first_line, off);
    }
    const pv_scene_elem **list = pv_alloc(ctx, (size_t)n * sizeof *list);
    double *levels = list ? pv_alloc(ctx, (size_t)n * sizeof *levels) : NULL;
    pv_status st = pv_status_agree(ctx, levels ? PV_OK : PV_ENOMEM);
    /* one pass per grid, in order of first appearance (the same on every rank) */
    int pass = 0;
    for (int k = 0; k < n && st == PV_OK; k++) {
        const pv_grid *g = e[k].grid;
        bool seen = false;
        for (int j = 0; j < k && !seen; j++) seen = e[j].grid == g;
        if (seen) continue;
        int m = 0;
        for (int j = k; j < n; j++)
            if (e[j].grid == g) {
                list[m] = &e[j];
                levels[m++] = e[j].st.level;
            }
        if (m > 65536) {
            st = pv_status_agree(ctx, pv_err(ctx, PV_ERANGE, "%d isosurfaces of %s in one "
                                                             "plot: at most 65536", m, g->name));
            break;
        }
        size_t gbytes = (size_t)g->n * (size_t)g->n * sizeof(float);
        float *ghost = pv_alloc(ctx, gbytes);
        st = pv_status_agree(ctx, ghost ? PV_OK : PV_ENOMEM);
        bool has = false;
        if (st == PV_OK) st = pv_grid_ghost_upper(ctx, g, ghost, &has);
        if (st == PV_OK) {
            mesh_pass M = {ctx, w, g, has ? ghost : NULL, list, (uint64_t)pass << 56, PV_OK};
            int64_t k0 = g->z0;
            int64_t k1 = g->z1 < g->n ? (has ? g->z1 : g->z1 - 1) : g->n - 1;
            pv_iso_field f = {g->n, g->n, g->n, mesh_plane, &M};
            pv_iso_opts o = {!I->set->iso_triangles, ctx->nthreads};
            int rc = k1 > k0 ? pv_iso_extract(&f, k0, k1, levels, m, &o, mesh_emit, &M, NULL) : 0;
            st = M.st;
            if (rc != 0 && st == PV_OK)
                st = pv_err(ctx, PV_ENOMEM, "out of memory extracting isosurfaces");
            /* the text table keeps elements grid by grid */
            if (out->kind != PV_OUT_MESH) st = pv_mesh_flush(ctx, w);
            else st = pv_status_agree(ctx, st);
        }
        pv_free(ctx, ghost, gbytes);
        pass++;
    }
    pv_free(ctx, levels, (size_t)n * sizeof *levels);
    pv_free(ctx, (void *)list, (size_t)n * sizeof *list);
    pv_mesh_counts cnt = {0};
    st = pv_mesh_close_counts(ctx, w, st, &cnt);
    if (st == PV_OK)
        pv_log(ctx, PV_LOG_INFO, "table", "isosurface mesh: %llu polygons, %llu points%s%s",
               (unsigned long long)cnt.polys, (unsigned long long)cnt.points,
               out->kind == PV_OUT_MESH ? " -> " : "", out->kind == PV_OUT_MESH ? out->name : "");
    return st;
}
