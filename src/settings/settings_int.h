/*
 * settings private: the option table (settings_opts.c) and every handler it names. Each
 * settings_<topic>.c file holds the `set`, `unset` and `show` handlers of its topic;
 * settings.c dispatches to them through pv_opts.
 */
#ifndef PV_SETTINGS_INT_H
#define PV_SETTINGS_INT_H

#include "settings_parse.h"

typedef pv_status (*pv_set_fn)(pv_sp *p);

/* How pvox treats a gnuplot option name. */
typedef enum pv_opt_kind {
    PV_OPT_STORED = 0, /* parsed and stored in pv_settings */
    PV_OPT_IGNORED,    /* parsed (skipped) and ignored with one warning (DEC-11) */
    PV_OPT_INTERP      /* handled by the interpreter before settings is called */
} pv_opt_kind;

typedef struct pv_opt {
    const char *pattern; /* gnuplot abbreviation pattern, probed with gnuplot 5.4.4 */
    pv_opt_kind kind;
    pv_set_fn set;       /* STORED: `set` handler (cursor after the name) */
    pv_set_fn unset;     /* STORED: `unset` handler */
    pv_set_fn show;      /* STORED: `show` handler (p->out may be NULL) */
    const char *why;     /* IGNORED: the reason given in the warning */
} pv_opt;

extern const pv_opt pv_opts[];
extern const int pv_nopts;

/* ---- set/unset handlers (settings_<topic>.c): cursor after the name ---- */
pv_status sp_set_angles(pv_sp *p);
pv_status sp_unset_angles(pv_sp *p);
pv_status sp_set_autoscale(pv_sp *p);
pv_status sp_unset_autoscale(pv_sp *p);
pv_status sp_set_border(pv_sp *p);
pv_status sp_set_format(pv_sp *p);
pv_status sp_unset_format(pv_sp *p);
pv_status sp_show_format(pv_sp *p);
pv_status sp_set_label(pv_sp *p);
pv_status sp_unset_label(pv_sp *p);
pv_status sp_show_label(pv_sp *p);
void pv_labels_fini(pv_settings *s);
pv_status sp_set_object(pv_sp *p);
pv_status sp_unset_object(pv_sp *p);
pv_status sp_show_object(pv_sp *p);
void pv_objects_fini(pv_settings *s);
/* Free the arrow list (settings_arrow.c). */
void pv_arrows_fini(pv_settings *s);
pv_status sp_set_xzeroaxis(pv_sp *p);
pv_status sp_set_yzeroaxis(pv_sp *p);
pv_status sp_set_zzeroaxis(pv_sp *p);
pv_status sp_set_zeroaxis(pv_sp *p);
pv_status sp_unset_xzeroaxis(pv_sp *p);
pv_status sp_unset_yzeroaxis(pv_sp *p);
pv_status sp_unset_zzeroaxis(pv_sp *p);
pv_status sp_unset_zeroaxis(pv_sp *p);
pv_status sp_show_xzeroaxis(pv_sp *p);
pv_status sp_show_yzeroaxis(pv_sp *p);
pv_status sp_show_zzeroaxis(pv_sp *p);
pv_status sp_show_zeroaxis(pv_sp *p);
pv_status sp_unset_border(pv_sp *p);
pv_status sp_set_cblabel(pv_sp *p);
pv_status sp_unset_cblabel(pv_sp *p);
pv_status sp_set_cbrange(pv_sp *p);
pv_status sp_unset_cbrange(pv_sp *p);
pv_status sp_set_cbtics(pv_sp *p);
pv_status sp_unset_cbtics(pv_sp *p);
pv_status sp_set_colorbox(pv_sp *p);
pv_status sp_unset_colorbox(pv_sp *p);
pv_status sp_set_datafile(pv_sp *p);
pv_status sp_unset_datafile(pv_sp *p);
pv_status sp_set_dummy(pv_sp *p);
pv_status sp_unset_dummy(pv_sp *p);
pv_status sp_set_arrow(pv_sp *p);
pv_status sp_unset_arrow(pv_sp *p);
pv_status sp_show_arrow(pv_sp *p);
pv_status sp_set_grid(pv_sp *p);
pv_status sp_unset_grid(pv_sp *p);
pv_status sp_show_grid(pv_sp *p);
pv_status sp_set_hidden3d(pv_sp *p);
pv_status sp_unset_hidden3d(pv_sp *p);
pv_status sp_set_isosamples(pv_sp *p);
pv_status sp_unset_isosamples(pv_sp *p);
pv_status sp_set_isosurface(pv_sp *p);
pv_status sp_unset_isosurface(pv_sp *p);
pv_status sp_set_jitter(pv_sp *p);
pv_status sp_unset_jitter(pv_sp *p);
pv_status sp_set_key(pv_sp *p);
pv_status sp_unset_key(pv_sp *p);
pv_status sp_set_linetype(pv_sp *p);
pv_status sp_unset_linetype(pv_sp *p);
pv_status sp_set_logscale(pv_sp *p);
pv_status sp_unset_logscale(pv_sp *p);
pv_status sp_set_macros(pv_sp *p);
pv_status sp_unset_macros(pv_sp *p);
pv_status sp_set_output(pv_sp *p);
pv_status sp_unset_output(pv_sp *p);
pv_status sp_set_palette(pv_sp *p);
pv_status sp_unset_palette(pv_sp *p);
pv_status sp_set_parametric(pv_sp *p);
pv_status sp_unset_parametric(pv_sp *p);
pv_status sp_set_pm3d(pv_sp *p);
pv_status sp_unset_pm3d(pv_sp *p);
pv_status sp_set_pointintervalbox(pv_sp *p);
pv_status sp_unset_pointintervalbox(pv_sp *p);
pv_status sp_set_pointsize(pv_sp *p);
pv_status sp_unset_pointsize(pv_sp *p);
pv_status sp_set_polar(pv_sp *p);
pv_status sp_unset_polar(pv_sp *p);
pv_status sp_set_samples(pv_sp *p);
pv_status sp_unset_samples(pv_sp *p);
pv_status sp_set_style(pv_sp *p);
pv_status sp_unset_style(pv_sp *p);
pv_status sp_set_surface(pv_sp *p);
pv_status sp_unset_surface(pv_sp *p);
pv_status sp_set_terminal(pv_sp *p);
pv_status sp_unset_terminal(pv_sp *p);
pv_status sp_set_tics(pv_sp *p);
pv_status sp_unset_tics(pv_sp *p);
pv_status sp_set_ticslevel(pv_sp *p); /* unset and show: those of xyplane */
pv_status sp_set_title(pv_sp *p);
pv_status sp_unset_title(pv_sp *p);
pv_status sp_set_trange(pv_sp *p);
pv_status sp_unset_trange(pv_sp *p);
pv_status sp_set_urange(pv_sp *p);
pv_status sp_unset_urange(pv_sp *p);
pv_status sp_set_view(pv_sp *p);
pv_status sp_unset_view(pv_sp *p);
pv_status sp_set_vrange(pv_sp *p);
pv_status sp_unset_vrange(pv_sp *p);
pv_status sp_set_xlabel(pv_sp *p);
pv_status sp_unset_xlabel(pv_sp *p);
pv_status sp_set_xrange(pv_sp *p);
pv_status sp_unset_xrange(pv_sp *p);
pv_status sp_set_xtics(pv_sp *p);
pv_status sp_unset_xtics(pv_sp *p);
pv_status sp_set_xyplane(pv_sp *p);
pv_status sp_set_boxwidth(pv_sp *p);
pv_status sp_unset_boxwidth(pv_sp *p);
pv_status sp_show_boxwidth(pv_sp *p);
pv_status sp_unset_xyplane(pv_sp *p);
pv_status sp_set_ylabel(pv_sp *p);
pv_status sp_unset_ylabel(pv_sp *p);
pv_status sp_set_yrange(pv_sp *p);
pv_status sp_unset_yrange(pv_sp *p);
pv_status sp_set_ytics(pv_sp *p);
pv_status sp_unset_ytics(pv_sp *p);
pv_status sp_set_zlabel(pv_sp *p);
pv_status sp_unset_zlabel(pv_sp *p);
pv_status sp_set_zrange(pv_sp *p);
pv_status sp_unset_zrange(pv_sp *p);
pv_status sp_set_ztics(pv_sp *p);
pv_status sp_unset_ztics(pv_sp *p);

/* ---- show handlers (settings_<topic>.c): cursor after the name ---- */
pv_status sp_show_angles(pv_sp *p);
pv_status sp_show_autoscale(pv_sp *p);
pv_status sp_show_border(pv_sp *p);
pv_status sp_show_cblabel(pv_sp *p);
pv_status sp_show_cbrange(pv_sp *p);
pv_status sp_show_colorbox(pv_sp *p);
pv_status sp_show_datafile(pv_sp *p);
pv_status sp_show_dummy(pv_sp *p);
pv_status sp_show_hidden3d(pv_sp *p);
pv_status sp_show_isosamples(pv_sp *p);
pv_status sp_show_isosurface(pv_sp *p);
pv_status sp_show_jitter(pv_sp *p);
pv_status sp_show_key(pv_sp *p);
pv_status sp_show_linetype(pv_sp *p);
pv_status sp_show_logscale(pv_sp *p);
pv_status sp_show_macros(pv_sp *p);
pv_status sp_show_output(pv_sp *p);
pv_status sp_show_palette(pv_sp *p);
pv_status sp_show_parametric(pv_sp *p);
pv_status sp_show_pm3d(pv_sp *p);
pv_status sp_show_pointintervalbox(pv_sp *p);
pv_status sp_show_pointsize(pv_sp *p);
pv_status sp_show_polar(pv_sp *p);
pv_status sp_show_samples(pv_sp *p);
pv_status sp_show_style(pv_sp *p);
pv_status sp_show_surface(pv_sp *p);
pv_status sp_show_terminal(pv_sp *p);
pv_status sp_show_tics(pv_sp *p);
pv_status sp_show_xtics(pv_sp *p);
pv_status sp_show_ytics(pv_sp *p);
pv_status sp_show_ztics(pv_sp *p);
pv_status sp_show_cbtics(pv_sp *p);
pv_status sp_show_title(pv_sp *p);
pv_status sp_show_trange(pv_sp *p);
pv_status sp_show_urange(pv_sp *p);
pv_status sp_show_vrange(pv_sp *p);
pv_status sp_show_view(pv_sp *p);
pv_status sp_show_xlabel(pv_sp *p);
pv_status sp_show_xrange(pv_sp *p);
pv_status sp_show_xyplane(pv_sp *p);
pv_status sp_show_ylabel(pv_sp *p);
pv_status sp_show_yrange(pv_sp *p);
pv_status sp_show_zlabel(pv_sp *p);
pv_status sp_show_zrange(pv_sp *p);
pv_status sp_show_colornames(pv_sp *p);
pv_status sp_show_all(pv_sp *p);

#endif /* PV_SETTINGS_INT_H */
