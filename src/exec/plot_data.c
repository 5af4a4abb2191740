/*
 * exec/plot_data.c: reading one plot element's data for the plot command (plot.c) and
 * its table output (plot_table.c): the file's pieces (datain.c), '+'/'++' sampling from the settings
 * and the leading plot ranges, `set datafile` options, and the pass over the points with
 * voxel() reads batched.
 */
#include "plot.h"

#include "gridcmd.h"

#include <string.h>

/* `set datafile` and the dummy names, as the data module wants them. */
static void data_opts(pv_interp *I, pv_data_opts *o, char sep[2])
{
    const pv_settings *s = I->set;
    memset(o, 0, sizeof *o);
    sep[0] = s->datafile.separator, sep[1] = '\0';
    o->separator = sep[0] ? sep : NULL;
    o->missing = s->datafile.missing;
    o->commentschars = s->datafile.commentschars;
    o->dummy[0] = s->dummy[0][0] ? s->dummy[0] : NULL;
    o->dummy[1] = s->dummy[1][0] ? s->dummy[1] : NULL;
}

/* Sampling for '+' / '++' from the settings; '+' samples the x range (gnuplot);
 * leading plot ranges override. */
static void fill_sampling(pv_interp *I, const plot_state *ps, const pv_data_spec *ds,
                          pv_sampling *s)
{
    pv_exec_sampling(I, ds, s);
    if (ds->kind == PV_DS_PLUS) { /* plot and splot '+' sample x (gnuplot 5.4.4) */
        const pv_range *x = &I->set->range[PV_AX_X];
        s->u_min = x->auto_min ? -10.0 : x->min; /* gnuplot's autoscaled default */
        s->u_max = x->auto_max ? 10.0 : x->max;
    }
    if (ps->has_range[0]) s->u_min = ps->range[0][0], s->u_max = ps->range[0][1];
    if (ps->has_range[1]) s->v_min = ps->range[1][0], s->v_max = ps->range[1][1];
}

pv_status pv_plot_open_input(pv_interp *I, pv_cursor *c, const plot_state *ps,
                             const pv_data_spec *ds, element_input *in)
{
    memset(in, 0, sizeof *in);
    pv_status st = pv_exec_input_open(I, c, ds, &in->src);
    if (st != PV_OK) return st;
    fill_sampling(I, ps, ds, &in->samp);
    data_opts(I, &in->opts, in->sep);
    return PV_OK;
}

static pv_status ignore_event(void *ud, pv_data_event ev, const pv_data_point *pt)
{
    (void)ud, (void)ev, (void)pt;
    return PV_OK;
}

bool pv_plot_specs_pure(pv_interp *I, const pv_data_spec *ds, bool *any_expr, bool *calls_ext)
{
    static const char *const pure_ext[] = {"voxel", "palette", NULL};
    *any_expr = *calls_ext = false;
    for (int k = 0; k < ds->nusing; k++) {
        if (ds->using[k].kind != PV_USE_EXPR) continue;
        bool calls = false;
        if (!pv_code_is_pure(I->env, ds->using[k].expr, pure_ext, &calls)) return false;
        *calls_ext = *calls_ext || calls;
        *any_expr = true;
    }
    return true;
}

/* pv_data_iterate_ex with the voxel() reads of the using specs batched (DEC-1): a first
 * pass records the points voxel() is asked for, one collective exchange answers them all,
 * and the real pass takes the answers from the batch. Only for pure specs: a spec that
 * assigns a variable or calls rand() must see each row once, so its voxel() calls read
 * one by one (still collective: every rank evaluates every row). */
pv_status pv_plot_iterate(pv_interp *I, const pv_data_spec *ds, const pv_data_opts *opts,
                          pv_exec_input *src, const pv_sampling *samp, int ndefault,
                          pv_data_event_fn fn, void *ud)
{
    bool batched = false, any_expr, calls_ext;
    pv_status st = PV_OK;
    if (pv_gridset_count(I) > 0 && pv_plot_specs_pure(I, ds, &any_expr, &calls_ext) &&
        calls_ext) {
        pv_gridset_batch_begin(I);
        pv_status pst = pv_exec_data_pass(I, src, ds, opts, samp, ndefault, false,
                                          ignore_event, NULL);
        if (pst == PV_OK) st = pv_gridset_batch_fetch(I, &batched);
        else pv_err_clear(I->ctx); /* the real pass reports it */
        if (!batched) pv_gridset_batch_end(I);
    }
    if (st == PV_OK)
        st = pv_exec_data_pass(I, src, ds, opts, samp, ndefault, false, fn, ud);
    if (batched) pv_gridset_batch_end(I);
    return st;
}
