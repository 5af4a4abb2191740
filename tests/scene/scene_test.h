/*
 * Shared fixtures of the scene tests: a context, a view, colours with a gray palette and
 * a linetype table, elements built by hand (no interpreter).
 */
#ifndef PV_SCENE_TEST_H
#define PV_SCENE_TEST_H

#include "pv_test.h"
#include "pvox/scene.h"

#include <mpi.h>
#include <stdlib.h>

/* Linetype colours of the fixture: lt N is 0x0000NN (distinct, easy to check). */
static inline uint32_t test_lt_rgb(const void *ud, int lt)
{
    (void)ud;
    return lt <= 0 ? 0 : (uint32_t)lt;
}

/* Gray palette r = g = b = gray (gamma 1) over cb [cbmin, cbmax]. */
static inline void test_colors(pv_scene_colors *C, double cbmin, double cbmax)
{
    pv_palette sp;
    memset(&sp, 0, sizeof sp);
    sp.gray = true;
    sp.gamma = 1.0;
    sp.formulae[0] = 7, sp.formulae[1] = 5, sp.formulae[2] = 15;
    memset(C, 0, sizeof *C);
    pv_scene_palette(&sp, &C->pal);
    C->cbmin = cbmin, C->cbmax = cbmax;
    C->background = 0xABCDEF;
    C->lt_rgb = test_lt_rgb;
}

/* gnuplot's "nothing given" line properties (the settings' pv_lp_default). */
static inline pv_lp test_lp(void)
{
    pv_lp lp;
    memset(&lp, 0, sizeof lp);
    lp.lw = 1.0;
    lp.pt = -2;
    lp.ps = -1.0;
    return lp;
}

/* A 640x480 view of the cube [lo, hi]^3 at gnuplot's default angles. */
static inline void test_view(pv_view3d *v, double lo, double hi)
{
    pv_view3d_params p;
    memset(&p, 0, sizeof p);
    pv_termdim_pngcairo(&p.term, 640, 480, 12.0);
    p.rot_x = 60, p.rot_z = 30;
    p.scale = p.zscale = 1;
    p.xmin = p.ymin = p.zmin = lo;
    p.xmax = p.ymax = p.zmax = hi;
    p.xyplane_rel = 0.5;
    p.base_in_box = true;
    pv_view3d_setup(v, &p);
}

/* A frame over everything (one rank), the box [lo, hi]^3. */
static inline void test_frame(pv_scene_frame *F, const pv_view3d *v, const pv_scene_colors *C,
                       double lo, double hi)
{
    memset(F, 0, sizeof *F);
    F->view = v;
    F->colors = C;
    F->zlo = -HUGE_VAL, F->zhi = HUGE_VAL;
    F->xmin = F->ymin = F->zmin = lo;
    F->xmax = F->ymax = F->zmax = hi;
    F->pointsize = 1, F->linewidth = 1;
}

/* An element of `kind` with the rows of `v` (nrows x ncols), one scan line per `per`
 * rows (0: one line). */
static inline void test_elem(pv_ctx *ctx, pv_scene_elem *e, pv_scene_kind kind, const double *v,
                      size_t nrows, int ncols, size_t per)
{
    pv_lp lp = test_lp();
    pv_scene_elem_init(e, 1, &lp);
    e->kind = kind;
    for (size_t r = 0; r < nrows; r++) {
        PV_CHECK_EQ(pv_scene_add_row(ctx, e, v + r * (size_t)ncols, ncols), PV_OK);
        if (per && (r + 1) % per == 0) PV_CHECK_EQ(pv_scene_end_scan(ctx, e), PV_OK);
    }
    PV_CHECK_EQ(pv_scene_end_scan(ctx, e), PV_OK);
}

static inline pv_ctx *test_init(int *argc, char ***argv)
{
    MPI_Init(argc, argv);
    pv_options opt;
    pv_options_default(&opt);
    return pv_ctx_create(MPI_COMM_WORLD, &opt);
}

static inline int test_end(pv_ctx *ctx, const char *name)
{
    PV_CHECK_EQ(ctx->mem_current, 0); /* every scene buffer was tracked and freed */
    pv_ctx_destroy(ctx);
    MPI_Finalize();
    return pv_test_result(name);
}

#endif
