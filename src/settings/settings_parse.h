/*
 * settings private: the statement being parsed (pv_sp) and the parse and print helpers
 * every `set`/`unset`/`show` handler shares (settings_parse.c), plus the cross-topic
 * parsers one handler file lends another (colours and line properties, positions).
 */
#ifndef PV_SETTINGS_PARSE_H
#define PV_SETTINGS_PARSE_H

#include "pvox/settings.h"

#include <stdio.h>

/* One `set`/`unset`/`show` statement being parsed. */
typedef struct pv_sp {
    pv_settings *s;
    pv_env *env;
    pv_cursor *c;
    bool exec;     /* false: syntax check only (compile expressions, change nothing) */
    FILE *out;     /* show: destination or NULL */
    size_t at;     /* byte offset of the option name (for warnings) */
} pv_sp;

/* ---- parse helpers (settings_parse.c) ---- */
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

/* Warn-once slots of pv_settings.warned for messages that are not one option name each:
 * they come first, the option table's slots follow (PV_SETTINGS_EXTRA_WARN + index). */
enum { PV_SETTINGS_EXTRA_WARN = 32 };
enum { WARN_UNUSED0 = 0, WARN_PAL_FUNCS, WARN_PAL_FILE, WARN_POLAR,
       WARN_PM3D_QUADS, WARN_PM3D_FTRI, WARN_UNUSED1, WARN_FORMAT_KIND,
       WARN_GRID_PART, WARN_ARROW_POLAR,
       WARN_STYLE_OTHER, /* one slot per ignored `set style` kind follows */
       WARN_NSLOTS = WARN_STYLE_OTHER + 11 };
_Static_assert((int)WARN_NSLOTS <= (int)PV_SETTINGS_EXTRA_WARN, "grow PV_SETTINGS_EXTRA_WARN");
/* Warn `msg` once per run (exec only), located at the option name. */
void sp_warn_once(pv_sp *p, int slot, const char *msg);
/* Fill-style words (`empty`, `transparent`, `solid D`, `pattern N`, `border ...`,
 * `noborder`) into *f, stopping at the first other word (settings_styles.c). */
pv_status sp_fill_words(pv_sp *p, pv_fill *f);
/* A position `{sys} x {, {sys} y {, {sys} z}}` (settings_label.c): a coordinate without a
 * system takes the previous one's (the first: `dflt`); missing ones are 0. */
pv_status sp_position_sys(pv_sp *p, double xyz[3], pv_coord_sys sys[3], pv_coord_sys dflt);

/* ---- show helpers (settings_parse.c); p->out may be NULL ---- */
#define OUT p->out
/* Consume the rest of a `show` statement. */
pv_status sp_done(pv_sp *p);
/* gnuplot's words for a colour ("rgb \"red\" ", "lt 3", "palette z", ...). */
void sp_color_text(char *buf, size_t n, const pv_color *col);
/* One `show style line` / `show linetype` line. */
void sp_print_lp(FILE *out, const char *what, int tag, const pv_lp *lp);
extern const char *const sp_axis_names[PV_NAXES];

/* ---- colours and line properties (settings_lp.c) ---- */
/* A string literal that is a whole expression (checkable in check mode too). */
bool sp_lone_string(pv_sp *p);
/* `rgb` already consumed: a colour string or an integer 0xAARRGGBB. */
pv_status sp_rgb_value(pv_sp *p, uint32_t *argb);
pv_status sp_color(pv_sp *p, pv_color *out);
pv_status sp_lp(pv_sp *p, pv_lp *lp);
/* `set style line N ...` / `set linetype N ...` and their unset. */
pv_status sp_set_lp_tag(pv_sp *p, bool is_linetype);
pv_status sp_unset_lp_tag(pv_sp *p, bool is_linetype);

/* ---- text (settings_text.c) ---- */
/* `offset {sys} x {, {sys} y {, {sys} z}}` after the keyword. */
pv_status sp_position(pv_sp *p, double xyz[3]);
/* True at a keyword of a text element (offset, font, tc, ...). */
bool sp_is_text_keyword(pv_sp *p);

/* ---- defaults and finalisers (settings_defaults.c) ---- */
void pv_settings_defaults_keep(pv_settings *s); /* what reset restores */
/* Free everything `reset` reinitialises. */
void pv_settings_fini_resettable(pv_settings *s);
/* The startup terminal (DEC-10), freeing the old fonts. */
void pv_settings_term_default(pv_settings *s);
void pv_palette_fini(pv_ctx *ctx, pv_palette *pal);
void pv_palette_default(pv_palette *pal);
void pv_text_fini(pv_text *t);
void pv_text_default(pv_text *t);
/* gnuplot's fresh key (title and font NULL: the caller frees the old ones). */
void pv_key_default(pv_key *k);

/* A position as gnuplot's show prints it (settings_label.c). */
void sp_show_position(FILE *out, const double v[3], const pv_coord_sys sys[3], bool fixed5);
/* Tag-ordered lists of numbered items (`set label`, `set object`, `set arrow`): arrays of
 * n items of `size` bytes whose first member is their `int tag`, ascending (tags.c). */
int sp_tag_find(const void *items, int n, size_t size, int tag);   /* index or -1 */
int sp_tag_lowest_free(const void *items, int n, size_t size);     /* gnuplot's free tag */
/* Insert *item in tag order (the array grows, tracked): PV_ENOMEM recorded on failure. */
pv_status sp_tag_insert(pv_ctx *ctx, void **items, int *n, size_t *cap, size_t size,
                        const void *item);
void sp_tag_remove(void *items, int *n, size_t size, int k);
/* Store *item at index `at` (replacing it), or insert it when at < 0. */
pv_status sp_tag_store(pv_ctx *ctx, void **items, int *n, size_t *cap, size_t size, int at,
                       const void *item);
/* `unset label|object|arrow {tag}`: every item (fini_all), or the one with that tag
 * (fini_one frees what it owns first; NULL: nothing). */
pv_status sp_tag_unset(pv_sp *p, void *items, int *n, size_t size,
                       void (*fini_all)(pv_settings *), void (*fini_one)(void *));

#endif /* PV_SETTINGS_PARSE_H */
