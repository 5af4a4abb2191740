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

#include "isopass.h"

#include "pvox/iso.h"
#include "pvox/mesh.h"

#include <math.h>
#include <string.h>

typedef struct mesh_pass {
    pv_ctx *ctx;
    pv_mesh_writer *w;
    const pv_scene_iso *it;
    uint64_t tag;               /* pass number << 56, or'ed into edge ids */
    pv_status st;
} mesh_pass;

static int mesh_emit(void *ud, const pv_iso_poly *p, size_t n)
{
    mesh_pass *M = ud;
    const pv_grid *g = M->it->grid;
    for (size_t i = 0; i < n && M->st == PV_OK; i++) {
        double v[4 * 3];
        uint64_t edge[4];
        for (int k = 0; k < p[i].nv; k++) {
            for (int a = 0; a < 3; a++) v[3 * k + a] = g->min[a] + p[i].v[k][a] * g->delta[a];
            edge[k] = p[i].edge[k] | M->tag;
        }
        const pv_scene_elem *e = M->it->elem[p[i].level];
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
    /* every element is an isosurface; the first grid bounds the slabs */
    pv_iso_passes P;
    pv_status st = pv_iso_passes_open(ctx, &P, e, n, n > 0 ? e[0].grid : NULL);
    for (int p = 0; p < P.n && st == PV_OK; p++) {
        const pv_scene_iso *it = &P.p[p].it;
        mesh_pass M = {ctx, w, it, (uint64_t)p << 56, PV_OK};
        pv_iso_field f;
        pv_scene_iso_field(it, &f);
        pv_iso_opts o = {!I->set->iso_triangles, ctx->nthreads};
        int rc = it->k_end > it->k_next ? pv_iso_extract(&f, it->k_next, it->k_end, it->levels,
                                                         it->nelem, &o, mesh_emit, &M, NULL)
                                        : 0;
        st = M.st;
        if (rc != 0 && st == PV_OK)
            st = pv_err(ctx, PV_ENOMEM, "out of memory extracting isosurfaces");
        /* the text table keeps elements grid by grid */
        pv_status fs = out->kind != PV_OUT_MESH ? pv_mesh_flush(ctx, w) : PV_OK;
        st = pv_status_agree(ctx, st != PV_OK ? st : fs);
    }
    pv_iso_passes_close(ctx, &P);
    pv_mesh_counts cnt = {0};
    st = pv_mesh_close_counts(ctx, w, st, &cnt);
    if (st != PV_OK) /* a write that failed (a full disk, `ulimit -f`): at the plot */
        (void)pv_exec_locate(I, c, off);
    if (st == PV_OK)
        pv_log(ctx, PV_LOG_INFO, "table", "isosurface mesh: %llu polygons, %llu points%s%s",
               (unsigned long long)cnt.polys, (unsigned long long)cnt.points,
               out->kind == PV_OUT_MESH ? " -> " : "", out->kind == PV_OUT_MESH ? out->name : "");
    return st;
}
