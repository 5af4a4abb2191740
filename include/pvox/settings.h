/*
 * pvox settings: everything `set`/`unset`/`show` manage, as plain data for the renderer.
 *
 * The settings module parses the arguments of `set NAME ...`, `unset NAME ...` and
 * `show NAME ...` with a token cursor. Like every command handler it runs in two modes:
 * exec = false only checks the syntax (the whole-script check before running; nothing is
 * evaluated or changed), exec = true evaluates and applies.
 *
 * Names gnuplot 5.4 knows but pvox does not draw are parsed (their arguments skipped) and
 * ignored with one warning per name; a name gnuplot does not know is an error naming it
 * (pvox decision 11). The interpreter handles `set print`, `set table`, `set vgrid` and
 * `set vxrange/vyrange/vzrange` itself before calling these.
 */
#ifndef PVOX_SETTINGS_H
#define PVOX_SETTINGS_H

#include "pvox/lang.h"

typedef struct pv_settings pv_settings; /* the struct is defined below: plain fields */

pv_settings *pv_settings_create(pv_ctx *ctx);
void pv_settings_destroy(pv_settings *s);
/* `reset`: back to gnuplot's defaults except terminal, output and what `reset` keeps. */
void pv_settings_reset(pv_settings *s);
/* `reset session`: everything back to the fresh-start state. */
void pv_settings_reset_all(pv_settings *s);

/* The cursor is just after `set` / `unset` / `show` (an optional `for [..]` iteration is
 * handled by the caller). Consumes the rest of the statement. */
pv_status pv_settings_set(pv_settings *s, pv_env *env, pv_cursor *c, bool exec);
pv_status pv_settings_unset(pv_settings *s, pv_env *env, pv_cursor *c, bool exec);
/* `show` writes to `out` (the caller passes stderr on rank 0, NULL elsewhere). */
pv_status pv_settings_show(pv_settings *s, pv_env *env, pv_cursor *c, bool exec, FILE *out);

#endif /* PVOX_SETTINGS_H */
