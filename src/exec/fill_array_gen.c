/*
 * exec/fill_array_gen.c: the general path of the 3D array fill (fill_array.c): the using
 * specs evaluated over boxes of elements (vector VM, scalar fallback), the sources whose
 * bricks can reach this rank's slab fed to the fill session in file order, and gnuplot's
 * brick line from the first sources in file order.
 */
#include "fill_array_int.h"

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define GEN_BOX_ELEMS (1u << 17)   /* elements of one general-path box (~100 B each) */

/* =====================================================================================
 * The using specs of the general path
 * ===================================================================================== */

typedef struct spec {
    int col;                  /* >= 1: a bare column; 0: an expression */
    const pv_code *code;
    pv_vcode *vc;             /* vector form, NULL: scalar evaluation */
    pv_vscratch **scratch;    /* per thread */
    size_t off;               /* for messages */
} spec;

typedef struct specs {
    spec s[4];                /* x, y, z, radius */
    int ncols;                /* 3 + fields */
    int nthreads;
    bool zcol;                /* z is column 3 */
    bool const_r;             /* the radius is a constant ... */
    double r;                 /* ... this one */
} specs;

static void specs_fini(specs *S)
{
    for (int k = 0; k < 4; k++) {
        spec *s = &S->s[k];
        if (s->scratch)
            for (int t = 0; t < S->nthreads; t++) pv_vscratch_destroy(s->scratch[t]);
        free(s->scratch);
        pv_vcode_destroy(s->vc);
    }
}

static pv_status specs_make(pv_interp *I, pv_cursor *c, const pv_data_spec *ds, int ncols,
                            specs *S)
{
    pv_ctx *ctx = I->ctx;
    const pv_source *src = c->tl->src;
    memset(S, 0, sizeof *S);
    S->ncols = ncols;
    S->nthreads = omp_get_max_threads();
    const char *slots[NCOLS_MAX];
    char names[NCOLS_MAX][16]; /* "$" and any int (-Wformat-truncation at -O0/-O1) */
    for (int k = 0; k < ncols; k++) {
        snprintf(names[k], sizeof names[k], "$%d", k + 1);
        slots[k] = names[k];
    }
    for (int k = 0; k < 4; k++) {
        const pv_using_entry *e = &ds->using[k];
        spec *s = &S->s[k];
        s->off = e->off;
        if (e->kind == PV_USE_HEADER)
            return pv_source_error(ctx, PV_ESCRIPT, src, e->off,
                                   "a 3D array has no column headers");
        if (e->kind == PV_USE_COLUMN) {
            int64_t col = e->column;
            if (e->expr) {
                pv_status st = pv_eval_int(I->env, e->expr, &col);
                if (st != PV_OK) return st;
            }
            if (col < 1 || col > ncols)
                return pv_source_error(ctx, PV_ESCRIPT, src, e->off,
                                       "column %lld: a 3D array has columns 1 to %d (x, y, z, "
                                       "then its values)", (long long)col, ncols);
            s->col = (int)col;
            continue;
        }
        for (int r = 0; r < e->nrefs; r++)
            if (e->refs[r] < 1 || e->refs[r] > ncols)
                return pv_source_error(ctx, PV_ESCRIPT, src, e->off,
                                       "column %lld: a 3D array has columns 1 to %d (x, y, z, "
                                       "then its values)", (long long)e->refs[r], ncols);
        s->code = e->expr;
        if (pv_vcompile(I->env, e->expr, ncols, slots, &s->vc) == PV_OK) {
            s->scratch = calloc((size_t)S->nthreads, sizeof *s->scratch);
            bool ok = s->scratch != NULL;
            for (int t = 0; ok && t < S->nthreads; t++)
                ok = (s->scratch[t] = pv_vscratch_create(s->vc, PV_FILL_MAX_LANES)) != NULL;
            if (!ok) return pv_err(ctx, PV_ENOMEM, "out of memory");
        }
        pv_err_clear(ctx); /* no vector form: the scalar VM runs */
    }
    S->zcol = S->s[2].col == 3;
    S->const_r = pv_array_constant_expr(&ds->using[3]);
    if (S->const_r) {
        pv_status st = pv_eval_real(I->env, ds->using[3].expr, &S->r);
        if (st != PV_OK) return st;
    }
    return PV_OK;
}

/* Scalar evaluation of one spec for element e (cols: SoA, column k at cols[k*n + e]). */
static pv_status eval_scalar(pv_interp *I, const spec *s, const double *cols, int ncols,
                             size_t n, size_t e, double *out)
{
    double row_v[NCOLS_MAX];
    for (int k = 0; k < ncols; k++) row_v[k] = cols[(size_t)k * n + e];
    const char *strs[NCOLS_MAX] = {0};
    pv_row row = {ncols, row_v, strs, NULL, (int64_t)e, 0, 0};
    pv_env_set_row(I->env, &row);
    pv_value v = {0};
    pv_status st = pv_eval(I->env, s->code, &v);
    pv_env_set_row(I->env, NULL);
    if (st == PV_OK)
        *out = (v.type == PV_V_INT || v.type == PV_V_CMPLX) ? pv_value_real(&v) : (double)NAN;
    pv_value_free(&v);
    return st;
}

/* Evaluate spec s over n elements (SoA columns) into out[n]. */
static pv_status eval_spec(pv_interp *I, pv_cursor *c, const specs *S, const spec *s,
                           const double *cols, size_t n, double *out)
{
    if (s->col > 0) {
        memcpy(out, cols + (size_t)(s->col - 1) * n, n * sizeof *out);
        return PV_OK;
    }
    pv_status st = PV_OK;
    if (s->vc) {
        size_t nchunks = (n + PV_FILL_MAX_LANES - 1) / PV_FILL_MAX_LANES, bad = SIZE_MAX;
#pragma omp parallel for schedule(dynamic)
        for (size_t ch = 0; ch < nchunks; ch++) {
            int tid = omp_get_thread_num();
            size_t e0 = ch * PV_FILL_MAX_LANES;
            size_t m = n - e0 < PV_FILL_MAX_LANES ? n - e0 : PV_FILL_MAX_LANES;
            pv_vinput in[NCOLS_MAX];
            for (int k = 0; k < S->ncols; k++) in[k] = (pv_vinput){cols + (size_t)k * n + e0, 1};
            pv_veval(s->vc, s->scratch[tid], m, in, out + e0);
            if (pv_vscratch_take_error(s->scratch[tid])) {
                size_t k = 0;
                while (k + 1 < m && !isnan(out[e0 + k])) k++;
#pragma omp critical(pv_fill_array_bad)
                if (e0 + k < bad) bad = e0 + k;
            }
        }
        if (bad != SIZE_MAX) { /* the scalar VM gives the message */
            double v;
            st = eval_scalar(I, s, cols, S->ncols, n, bad, &v);
        }
    } else {
        for (size_t e = 0; e < n && st == PV_OK; e++)
            st = eval_scalar(I, s, cols, S->ncols, n, e, &out[e]);
    }
    if (st != PV_OK) {
        const pv_source *src = c->tl->src;
        pv_err_locate(I->ctx, src->name, src->text, src->len, src->first_line, s->off);
    }
    return st;
}

/* An expression that gives the same value for every element: no columns, no rand(). */
bool pv_array_constant_expr(const pv_using_entry *e)
{
    return e->kind == PV_USE_EXPR && e->expr && e->nrefs == 0 && e->last_dollar == 0 &&
           e->vector_ok && !pv_code_uses_name(e->expr, "rand") &&
           !pv_code_uses_name(e->expr, "voxel");
}

/* =====================================================================================
 * The general path
 * ===================================================================================== */

typedef struct gen {
    pv_interp *I;
    pv_cursor *c;
    pv_grid *g;
    arr *A;
    specs *S;
    bool grid_units;
    size_t cap;               /* elements of one box */
    double *vals;             /* nf per element, storage order */
    double *cols;             /* SoA: ncols x cap */
    double *sv;               /* x, y, z, r: 4 x cap */
    pv_fill_source *src;      /* accepted sources */
    double *scols;            /* their columns, ncols each */
    int64_t *order;
    unsigned char *counted;
    size_t nsrc;
} gen;

static void gen_fini(gen *G)
{
    free(G->vals);
    free(G->cols);
    free(G->sv);
    free(G->src);
    free(G->scols);
    free(G->order);
    free(G->counted);
}

static pv_status gen_alloc(gen *G)
{
    size_t n = G->cap, nc = (size_t)G->S->ncols, nf = (size_t)G->A->a->nfields;
    G->vals = malloc(n * nf * sizeof *G->vals);
    G->cols = malloc(n * nc * sizeof *G->cols);
    G->sv = malloc(n * 4 * sizeof *G->sv);
    G->src = malloc(n * sizeof *G->src);
    G->scols = malloc(n * nc * sizeof *G->scols);
    G->order = malloc(n * sizeof *G->order);
    G->counted = malloc(n);
    if (!G->vals || !G->cols || !G->sv || !G->src || !G->scols || !G->order || !G->counted)
        return pv_err(G->I->ctx, PV_ENOMEM, "out of memory reading a 3D array");
    return PV_OK;
}

/* The sources of a box already fetched into G->vals, in storage order. keep_all: every
 * source with defined values (the brick report); else only those whose brick can meet
 * this rank's slab or that this rank counts. */
static pv_status gen_sources(gen *G, const int64_t lo[3], const int64_t hi[3], bool keep_all)
{
    const arr *A = G->A;
    const pv_array_src *a = A->a;
    const pv_grid *g = G->g;
    size_t w0 = (size_t)(hi[0] - lo[0]), w1 = (size_t)(hi[1] - lo[1]);
    size_t n = w0 * w1 * (size_t)(hi[2] - lo[2]);
    int nf = a->nfields, nc = G->S->ncols;
    const int *scan = a->scan;
    /* columns: the element's coordinates, then its values */
#pragma omp parallel for schedule(static)
    for (size_t e = 0; e < n; e++) {
        int64_t f[3] = {lo[0] + (int64_t)(e % w0), lo[1] + (int64_t)(e / w0 % w1),
                        lo[2] + (int64_t)(e / w0 / w1)};
        for (int d = 0; d < 3; d++) {
            int ax = scan[d];
            G->cols[(size_t)ax * n + e] = coord(A, ax, elem_index(a, ax, f[d]));
        }
        for (int k = 0; k < nf; k++) G->cols[(size_t)(3 + k) * n + e] = G->vals[e * (size_t)nf + (size_t)k];
    }
    for (int k = 0; k < 4; k++) {
        pv_status st = eval_spec(G->I, G->c, G->S, &G->S->s[k], G->cols, n, G->sv + (size_t)k * n);
        if (st != PV_OK) return st;
    }
    int P = G->I->ctx->nranks, me = G->I->ctx->rank;
    size_t m = 0;
    for (size_t e = 0; e < n; e++) {
        double x = G->sv[e], y = G->sv[n + e], z = G->sv[2 * n + e], r = G->sv[3 * n + e];
        if (isnan(x) || isnan(y) || isnan(z) || isnan(r)) continue; /* as the rows path */
        bool counted = false;
        if (!keep_all) {
            int64_t ci[3];
            if (!pv_grid_index(g, x, y, z, ci)) continue; /* the kernel would skip it */
            double hw = G->grid_units ? floor(r) : floor(r / g->delta[2]);
            bool meets = hw >= 0 && (double)ci[2] + hw >= (double)g->z0 &&
                         (double)ci[2] - hw < (double)g->z1;
            counted = pv_decomp_owner(g->n, P, ci[2]) == me;
            if (!meets && !counted) continue;
        }
        int64_t f[3] = {lo[0] + (int64_t)(e % w0), lo[1] + (int64_t)(e / w0 % w1),
                        lo[2] + (int64_t)(e / w0 / w1)};
        G->src[m] = (pv_fill_source){x, y, z, r};
        for (int k = 0; k < nc; k++) G->scols[m * (size_t)nc + (size_t)k] = G->cols[(size_t)k * n + e];
        G->order[m] = f[0] + A->fn[0] * (f[1] + A->fn[1] * f[2]);
        G->counted[m] = counted;
        m++;
    }
    G->nsrc = m;
    return PV_OK;
}

/* Feed the accepted sources to the session: runs of counted / not counted sources. */
static pv_status gen_feed(gen *G, pv_fill_run *run)
{
    size_t nc = (size_t)G->S->ncols;
    for (size_t s = 0; s < G->nsrc;) {
        size_t t = s + 1;
        while (t < G->nsrc && G->counted[t] == G->counted[s]) t++;
        pv_status st = pv_fill_run_piece(run, G->src + s, G->scols + s * nc, t - s,
                                         G->order + s, 0, G->counted[s] ? 0u : PV_FILL_NO_COUNT);
        if (st != PV_OK) return st;
        s = t;
    }
    return PV_OK;
}

/* The element z range whose sources can reach this rank's slab (or that it counts):
 * known when z is column 3 and the radius a constant; else every plane. */
static void gen_window(const gen *G, int64_t *k0, int64_t *k1)
{
    const pv_array_src *a = G->A->a;
    const pv_grid *g = G->g;
    *k0 = 0, *k1 = a->n[2];
    if (!G->S->zcol || !G->S->const_r || isnan(G->S->r)) return;
    double r = G->S->r;
    double hw = G->grid_units ? floor(r) : floor(r / g->delta[2]);
    if (!(hw >= 0)) hw = 0; /* empty bricks: only the counting rank needs them */
    int64_t first = -1, last = -2;
    for (int64_t k = 0; k < a->n[2]; k++) {
        int64_t cz;
        if (!pv_grid_axis_index(g, 2, coord(G->A, 2, k), &cz)) continue;
        if ((double)cz + hw >= (double)g->z0 && (double)cz - hw < (double)g->z1) {
            if (first < 0) first = k;
            last = k;
        }
    }
    *k0 = first < 0 ? 0 : first;
    *k1 = first < 0 ? 0 : last + 1;
}

typedef struct report_ud {
    gen *G;
    bool done;
} report_ud;

static pv_status report_box(void *ud, const int64_t lo[3], const int64_t hi[3])
{
    report_ud *R = ud;
    if (R->done) return PV_OK;
    pv_status st = gen_sources(R->G, lo, hi, true);
    if (st == PV_OK)
        R->done = pv_fill_report_bricks(R->G->I, R->G->g, R->G->src, R->G->nsrc, R->G->grid_units);
    return st;
}

typedef struct fill_ud {
    gen *G;
    pv_fill_run *run;
} fill_ud;

static pv_status fill_box(void *ud, const int64_t lo[3], const int64_t hi[3])
{
    fill_ud *F = ud;
    pv_status st = gen_sources(F->G, lo, hi, false);
    return st == PV_OK ? gen_feed(F->G, F->run) : st;
}

pv_status pv_fill_array_general(pv_interp *I, pv_cursor *c, pv_grid *g, pv_data_spec *ds,
                             arr *A, pv_code *value, bool grid_units, size_t off)
{
    pv_ctx *ctx = I->ctx;
    specs S;
    gen G = {0};
    G.I = I, G.c = c, G.g = g, G.A = A, G.S = &S, G.grid_units = grid_units, G.cap = GEN_BOX_ELEMS;
    size_t plane = (size_t)A->a->n[0] * (size_t)A->a->n[1];
    if (!A->b && plane > G.cap) G.cap = plane; /* a->read gives whole planes */
    int ncols = 3 + A->a->nfields;
    pv_status st = specs_make(I, c, ds, ncols, &S);
    if (st == PV_OK) st = gen_alloc(&G);
    st = pv_status_agree(ctx, st);
    /* gnuplot's brick line: the first sources in file order, the same on every rank */
    if (st == PV_OK && !ctx->opt.quiet) {
        plan all;
        pv_array_plan_make(A, 0, A->a->n[2], G.cap, &all);
        report_ud R = {&G, false};
        /* stop as soon as it is printed: the same step on every rank */
        for (int64_t k = 0; k < all.nboxes && st == PV_OK && !R.done; k++) {
            int64_t lo[3], hi[3];
            pv_array_plan_box(&all, k, lo, hi);
            st = pv_array_fetch(A, lo, hi, G.vals);
            if (st == PV_OK) st = report_box(&R, lo, hi);
            st = pv_status_agree(ctx, st);
        }
    }
    pv_fill_run *run = NULL;
    if (st == PV_OK) st = pv_status_agree(ctx, pv_fill_run_begin(I, g, value, grid_units, ncols, &run));
    if (st == PV_OK) {
        int64_t k0, k1;
        gen_window(&G, &k0, &k1);
        plan p;
        pv_array_plan_make(A, k0, k1, G.cap, &p);
        fill_ud F = {&G, run};
        st = pv_array_for_boxes(A, &p, G.vals, fill_box, &F);
    }
    if (run) st = pv_fill_run_end(run, c, ds, off, st);
    specs_fini(&S);
    gen_fini(&G);
    return st;
}

