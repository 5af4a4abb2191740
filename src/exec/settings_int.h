/*
 * settings private: the parse state shared by settings.c (table, dispatch, lifecycle),
 * settings_set.c (the `set`/`unset` handlers), settings_show.c and settings_colors.c.
 */
#ifndef PV_SETTINGS_INT_H
#define PV_SETTINGS_INT_H

#include "pvox/settings.h"

/* One `set`/`unset`/`show` statement being parsed. */
typedef struct pv_sp {
    pv_settings *s;
    pv_env *env;
    pv_cursor *c;
    bool exec;     /* false: syntax check only (compile expressions, change nothing) */
    FILE *out;     /* show: destination or NULL */
    size_t at;     /* byte offset of the option name (for warnings) */
} pv_sp;

typedef pv_status (*pv_set_fn)(pv_sp *p);

/* How pvox treats a gnuplot option name. */
typedef enum pv_opt_kind {
    PV_OPT_STORED = 0, /* parsed and stored in pv_settings */
    PV_OPT_IGNORED,    /* parsed (skipped) and ignored with one warning (decision 11) */
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

/* ---- parse helpers (settings.c) ---- */
bool sp_end(pv_sp *p);
bool sp_word(pv_sp *p, const char *pattern);
bool sp_isword(pv_sp *p, const char *pattern);
bool sp_op(pv_sp *p, const char *op);
bool sp_isop(pv_sp *p, const char *op);
pv_status sp_err(pv_sp *p, pv_status code, const char *fmt, ...) PV_PRINTF(3, 4);
/* "unexpected or unrecognized token: <tok>" at the current token. */
pv_status sp_unexpected(pv_sp *p);
/* Error unless at the statement end. */
pv_status sp_expect_end(pv_sp *p);
void sp_skip_rest(pv_sp *p);
/* True if an expression can start here (not at the end, not `,` `:` `]` `)`). */
bool sp_can_expr(pv_sp *p);
/* Expressions: exec evaluates into *out; check mode leaves *out untouched. */
pv_status sp_real(pv_sp *p, double *out);
pv_status sp_int(pv_sp *p, int *out);
/* String expression: exec stores a malloc'd string in *out (freeing the old one). */
pv_status sp_string(pv_sp *p, char **out);
/* Accept a string or any value: exec gives the value (caller frees). */
pv_status sp_value(pv_sp *p, pv_value *out);
char *sp_strdup(const char *s);
void sp_setstr(char **dst, const char *src);

/* ---- defaults (settings.c) ---- */
void pv_settings_defaults_keep(pv_settings *s); /* what reset restores */
/* Number of warn-once slots after the option table (settings_set.c). */
enum { PV_SETTINGS_EXTRA_WARN = 32 };
void pv_palette_fini(pv_palette *pal);
void pv_palette_default(pv_palette *pal);
void pv_text_fini(pv_text *t);
void pv_text_default(pv_text *t);

/* ---- show handlers (settings_show.c): cursor after the name ---- */
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
