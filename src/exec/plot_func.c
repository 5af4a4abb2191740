/*
 * exec/plot_func.c: `splot f(x,y)`: a function surface sampled as gnuplot 5.4 samples it
 * (plot3d.c, calculate_set_of_isolines):
 *   - the sampling ranges are the x and y ranges after the data elements of the same
 *     command were read (autoscaled ends take the data; no data: [-10:10]);
 *   - isosamples[1] lines along x at y = v_min + j (v_max - v_min) / (isosamples[1] - 1),
 *     each of samples[0] points; then isosamples[0] lines along y, each of samples[1]
 *     points. The first set is the surface grid (pm3d, corner poles: grid_scans); the
 *     second only adds lines;
 *   - with `set hidden3d`, isosamples[0] x isosamples[1] points and no second set;
 *   - a value that is undefined (1/0, a complex result) leaves a hole (NaN);
 *   - `set parametric`: three functions of u and v give x, y and z, sampled over the u and
 *     v ranges (autoscaled: [-10:10]).
 * Every rank samples the same points: the rows are identical everywhere.
 */
#include "gridset.h"
#include "plot.h"

#include <math.h>
#include <stdlib.h>

/* The x (axis 0) or y (axis 1) extent of the data elements e[0..n). */
static void data_extent(const pv_scene_elem *e, size_t n, int axis, double *lo, double *hi)
{
    *lo = HUGE_VAL, *hi = -HUGE_VAL;
    for (size_t k = 0; k < n; k++) {
        const pv_scene_elem *el = &e[k];
        if (el->grid_scans > 0) continue; /* another function: not data */
        if (el->kind == PV_SCENE_VOXELS || el->kind == PV_SCENE_ISO) {
            *lo = fmin(*lo, el->grid->min[axis]);
            *hi = fmax(*hi, el->grid->max[axis]);
            continue;
        }
        if (el->kind != PV_SCENE_POINTS && el->kind != PV_SCENE_LINES &&
            el->kind != PV_SCENE_PM3D && el->kind != PV_SCENE_IMAGE &&
            el->kind != PV_SCENE_POLYGONS && el->kind != PV_SCENE_BOXES &&
            el->kind != PV_SCENE_ERRORBARS)
            continue;
        for (size_t r = 0; r < el->nrows; r++) {
            const double *v = el->vals + r * (size_t)el->ncols;
            if (!isfinite(v[0]) || !isfinite(v[1]) || !isfinite(v[2])) continue;
            *lo = fmin(*lo, v[axis]);
            *hi = fmax(*hi, v[axis]);
        }
    }
}

void pv_plot_function_ranges(pv_interp *I, const plot_state *ps, double u[2], double v[2])
{
    double *out[2] = {u, v};
    if (!ps->is_splot && I->set->parametric) { /* 2D: t over the t range (or the first) */
        pv_range r = I->set->range[PV_AX_T];
        if (ps->has_range[0]) {
            r.auto_min = r.auto_max = false;
            r.min = ps->range[0][0], r.max = ps->range[0][1];
        }
        pv_exec_autoscale_ends(&r, HUGE_VAL, -HUGE_VAL, &u[0], &u[1]);
        v[0] = v[1] = 0.0;
        return;
    }
    for (int a = 0; a < 2; a++) {
        if (I->set->parametric) { /* u, v: their own ranges, or the command's first two */
            pv_range r = I->set->range[a == 0 ? PV_AX_U : PV_AX_V];
            if (ps->has_range[a]) {
                r.auto_min = r.auto_max = false;
                r.min = ps->range[a][0], r.max = ps->range[a][1];
            }
            pv_exec_autoscale_ends(&r, HUGE_VAL, -HUGE_VAL, &out[a][0], &out[a][1]);
            continue;
        }
        double lo, hi;
        data_extent(ps->re, ps->nre, a, &lo, &hi);
        pv_exec_autoscale_ends(&I->set->range[a], lo, hi, &out[a][0], &out[a][1]);
    }
}

typedef struct sampler {
    pv_interp *I;
    const pv_code *const *code; /* x y z (x, y NULL: the dummies) */
    const char *name[2]; /* the dummy variables (x, y unless `set dummy`) */
    pv_scene_elem *e;
    bool plot2d;         /* a 2D plot's curve: x (or t) only; rows x y z2d */
    double z2d;          /* its plot order (render.c) */
    double lbase[2];     /* x, y on a log axis: sampled evenly in log_base (as gnuplot
                            samples its hidden linear axis); 0 linear */
} sampler;

/* A sample position back from the space it was stepped in. */
static double sample_value(const sampler *S, int k, double p)
{
    return S->lbase[k] > 1.0 ? pow(S->lbase[k], p) : p;
}

/* One function value: NaN where it is undefined or complex (gnuplot's `zero` bounds the
 * imaginary part) or not a number. */
static pv_status value_at(sampler *S, const pv_code *code, double *out)
{
    pv_value r = {PV_V_UNDEF, 0, 0.0, 0.0, NULL};
    pv_status st = pv_eval(S->I->env, code, &r);
    *out = NAN;
    if (st == PV_OK && r.type == PV_V_INT) *out = (double)r.i;
    else if (st == PV_OK && r.type == PV_V_CMPLX && fabs(r.im) <= 1e-8) *out = r.re;
    pv_value_free(&r);
    return st;
}

/* A 2D curve's point at x (or t): x, f(x) (parametric: x(t), y(t)) and the plot order. */
static pv_status sample_point_2d(sampler *S, double u)
{
    u = sample_value(S, 0, u);
    pv_value vu = pv_real(u);
    pv_env_set(S->I->env, S->name[0], &vu);
    double row[3] = {u, NAN, S->z2d};
    pv_status st = PV_OK;
    if (S->code[0]) st = value_at(S, S->code[0], &row[0]);
    if (st == PV_OK) st = value_at(S, S->code[2], &row[1]);
    if (st == PV_OK && isnan(row[0])) row[1] = NAN; /* one hole */
    return st == PV_OK ? pv_scene_add_row(S->I->ctx, S->e, row, 3) : st;
}

static pv_status sample_point(sampler *S, double u, double v)
{
    u = sample_value(S, 0, u), v = sample_value(S, 1, v);
    pv_value vu = pv_real(u), vv = pv_real(v);
    pv_env_set(S->I->env, S->name[0], &vu);
    pv_env_set(S->I->env, S->name[1], &vv);
    double row[3] = {u, v, NAN};
    pv_status st = PV_OK;
    for (int k = 0; k < 3 && st == PV_OK; k++)
        if (S->code[k]) st = value_at(S, S->code[k], &row[k]);
    if (st == PV_OK && (isnan(row[0]) || isnan(row[1]))) row[2] = NAN; /* one hole */
    return st == PV_OK ? pv_scene_add_row(S->I->ctx, S->e, row, 3) : st;
}

/* One set of iso lines: n_iso lines at iso = iso0 + j * diso, each of n_sam points at
 * sam = sam0 + i * dsam; cross: the iso value is x (lines along y). */
static pv_status iso_lines(sampler *S, bool cross, double iso0, double diso, int n_iso,
                           double sam0, double dsam, int n_sam)
{
    pv_status st = PV_OK;
    for (int j = 0; j < n_iso && st == PV_OK; j++) {
        double iso = iso0 + j * diso;
        for (int i = 0; i < n_sam && st == PV_OK; i++) {
            double sam = sam0 + i * dsam;
            st = cross ? sample_point(S, iso, sam) : sample_point(S, sam, iso);
        }
        if (st == PV_OK) st = pv_scene_end_scan(S->I->ctx, S->e);
    }
    return st;
}

/* The whole surface (2D: curve) into S->e. */
static pv_status sample_all(sampler *S, const double ur[2], const double vr[2])
{
    const pv_settings *s = S->I->set;
    double u[2] = {ur[0], ur[1]}, v[2] = {vr[0], vr[1]};
    for (int k = 0; k < 2; k++) { /* log axes: step in the log space */
        double *r = k == 0 ? u : v;
        if (!(S->lbase[k] > 1.0)) continue;
        if (!(r[0] > 0.0 && r[1] > 0.0)) {
            S->lbase[k] = 0.0; /* not a log range: render.c reports it */
            continue;
        }
        r[0] = log(r[0]) / log(S->lbase[k]), r[1] = log(r[1]) / log(S->lbase[k]);
    }
    if (S->plot2d) { /* gnuplot's plot2d: samples[0] points over the x (t) range */
        int n = s->samples[0];
        double step = (u[1] - u[0]) / (n - 1);
        pv_status st = PV_OK;
        for (int i = 0; i < n && st == PV_OK; i++) st = sample_point_2d(S, u[0] + i * step);
        return st == PV_OK ? pv_scene_end_scan(S->I->ctx, S->e) : st;
    }
    int s1 = s->samples[0], s2 = s->samples[1];
    int i1 = s->isosamples[0], i2 = s->isosamples[1];
    double u_iso = (u[1] - u[0]) / (i1 - 1), v_iso = (v[1] - v[0]) / (i2 - 1);
    pv_status st;
    if (s->hidden3d) {
        st = iso_lines(S, false, v[0], v_iso, i2, u[0], u_iso, i1);
        S->e->grid_scans = S->e->nscan;
    } else {
        double u_step = (u[1] - u[0]) / (s1 - 1), v_step = (v[1] - v[0]) / (s2 - 1);
        st = iso_lines(S, false, v[0], v_iso, i2, u[0], u_step, s1);
        S->e->grid_scans = S->e->nscan;
        if (st == PV_OK) st = iso_lines(S, true, u[0], u_iso, i1, v[0], v_step, s2);
    }
    return st;
}

/* Do the functions call voxel() and nothing impure (assignments, rand())? */
static bool batchable(pv_interp *I, const pv_code *const code[3])
{
    static const char *const pure_ext[] = {"voxel", "palette", NULL};
    bool any = false;
    for (int k = 0; k < 3; k++) {
        bool calls = false;
        if (!code[k]) continue;
        if (!pv_code_is_pure(I->env, code[k], pure_ext, &calls)) return false;
        any = any || calls;
    }
    return any;
}

pv_status pv_plot_sample_function(pv_interp *I, const pv_code *const code[3],
                                  const double u[2], const double v[2], pv_scene_elem *e)
{
    const pv_settings *s = I->set;
    int s1 = s->samples[0], s2 = s->samples[1];
    int i1 = s->isosamples[0], i2 = s->isosamples[1];
    if (s1 < 2 || s2 < 2 || i1 < 2 || i2 < 2)
        return pv_err(I->ctx, PV_ESCRIPT, "samples or iso_samples < 2. Must be at least 2.");
    sampler S = {I, code, {s->dummy[0][0] ? s->dummy[0] : "x", s->dummy[1][0] ? s->dummy[1] : "y"},
                 e, e->plot2d, e->plot2d_z, {0.0, 0.0}};
    if (S.plot2d) i1 = i2 = s2 = 2; /* only samples[0] counts */
    for (int k = 0; k < 2 && !s->parametric; k++)
        if (s->range[k].log && s->range[k].log_base > 1.0) S.lbase[k] = s->range[k].log_base;
    /* the dummies shadow variables of the same name while sampling (gnuplot's dummy_values) */
    pv_value saved[2];
    bool had[2];
    for (int k = 0; k < 2; k++) {
        const pv_value *old = pv_env_get(I->env, S.name[k]);
        had[k] = old != NULL;
        if (had[k]) saved[k] = pv_value_copy(old);
    }
    /* voxel() in pure functions: a recording pass, one collective exchange, then the
     * real pass takes its answers (as data elements read them: plot_data.c) */
    bool batched = false;
    pv_status st = PV_OK;
    if (pv_gridset_count(I) > 0 && batchable(I, code)) {
        pv_scene_elem scratch;
        pv_scene_elem_init(&scratch, 0, &e->st.lp);
        S.e = &scratch;
        pv_gridset_batch_begin(I);
        pv_status pst = sample_all(&S, u, v);
        pv_scene_elem_fini(I->ctx, &scratch);
        S.e = e;
        if (pst == PV_OK) st = pv_gridset_batch_fetch(I, &batched);
        else if (pst == PV_ENOMEM) st = pst;
        else pv_err_clear(I->ctx); /* the real pass reports it */
        if (!batched) pv_gridset_batch_end(I);
    }
    if (st == PV_OK) st = sample_all(&S, u, v);
    if (batched) pv_gridset_batch_end(I);
    for (int k = 0; k < 2; k++) {
        if (had[k]) {
            pv_env_set(I->env, S.name[k], &saved[k]);
            pv_value_free(&saved[k]);
        } else {
            pv_env_undefine(I->env, S.name[k]);
        }
    }
    return st;
}
