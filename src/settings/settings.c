/*
 * pvox settings: lifecycle (create, reset, reset session) and the `set`/`unset`/`show`
 * dispatch over gnuplot 5.4's option names.
 *
 * Invariants: every pv_settings field holds gnuplot 5.4.4's fresh-start value after
 * create/reset_all (DEC-10 for the terminal); check mode (exec = false) never changes
 * a field and never evaluates; each handler consumes its whole statement.
 * Option names and their shortest abbreviations were measured by probing gnuplot 5.4.4
 * (`set`/`show` with every prefix of every name listed by `help set`).
 */
#include "settings_int.h"

#include <stdlib.h>
#include <string.h>

pv_settings *pv_settings_create(pv_ctx *ctx)
{
    pv_settings *s = calloc(1, sizeof *s);
    if (!s) {
        pv_err(ctx, PV_ENOMEM, "out of memory");
        return NULL;
    }
    s->ctx = ctx;
    s->warned = calloc((size_t)pv_nopts + PV_SETTINGS_EXTRA_WARN, 1);
    if (!s->warned) {
        free(s);
        pv_err(ctx, PV_ENOMEM, "out of memory");
        return NULL;
    }
    pv_settings_reset_all(s);
    return s;
}

void pv_settings_destroy(pv_settings *s)
{
    if (!s) return;
    pv_settings_fini_resettable(s);
    free(s->term.font);
    free(s->term.font_name);
    free(s->output);
    pv_free(s->ctx, s->linetype, s->linetype_cap * sizeof *s->linetype);
    free(s->warned);
    free(s);
}

void pv_settings_reset(pv_settings *s) { pv_settings_defaults_keep(s); }

void pv_settings_reset_all(pv_settings *s)
{
    pv_settings_defaults_keep(s);
    pv_settings_term_default(s);
    free(s->output);
    s->output = NULL;
    pv_free(s->ctx, s->linetype, s->linetype_cap * sizeof *s->linetype);
    s->linetype = NULL;
    s->linetype_cap = 0;
    s->nlinetype = 0;
}

/* =====================================================================================
 * Dispatch
 * ===================================================================================== */

static const pv_opt *find_opt(pv_sp *p)
{
    for (int k = 0; k < pv_nopts; k++)
        if (sp_isword(p, pv_opts[k].pattern)) return &pv_opts[k];
    return NULL;
}

/* gnuplot: "unrecognized option - see 'help set'"; pvox names the option (DEC-11). */
static pv_status unknown_name(pv_sp *p, const char *verb)
{
    const pv_token *t = pv_cur_peek(p->c);
    if (sp_end(p) || t->kind != PV_TK_NAME)
        return sp_err(p, PV_ESYNTAX, "unrecognized option - see 'help %s'", verb);
    return sp_err(p, PV_ESYNTAX, "unrecognized option '%s' - see 'help %s'", t->sval, verb);
}

static pv_status interp_only(pv_sp *p, const char *verb)
{
    const pv_token *t = pv_cur_peek(p->c);
    return sp_err(p, PV_ESCRIPT, "'%s %s' is handled by the interpreter, not by settings",
                  verb, t->sval ? t->sval : "?");
}

/* DEC-11: ignored names warn once per name per run, when the statement runs. */
static void warn_ignored(pv_sp *p, const pv_opt *o, const char *verb)
{
    int idx = PV_SETTINGS_EXTRA_WARN + (int)(o - pv_opts);
    if (!p->exec || p->s->warned[idx]) return;
    p->s->warned[idx] = 1;
    const char *name = o->pattern;
    char buf[64];
    size_t j = 0;
    for (size_t i = 0; name[i] && j + 1 < sizeof buf; i++)
        if (name[i] != '$') buf[j++] = name[i];
    buf[j] = '\0';
    pv_source_warn(p->c->ctx, p->c->tl->src, p->at, "%s %s is ignored: %s", verb, buf,
                   o->why ? o->why : "pvox does not draw it");
}

/* gnuplot 5.4 still reads the old `set noNAME ...` as `unset NAME ...` (silently) when NAME
 * is not itself a `set` option: `set nokey`, `set nomztics`, `set nolog x`. */
static const pv_opt *find_no_opt(pv_sp *p)
{
    const pv_token *t = pv_cur_peek(p->c);
    if (sp_end(p) || t->kind != PV_TK_NAME || strncmp(t->sval, "no", 2) != 0 || !t->sval[2])
        return NULL;
    for (int k = 0; k < pv_nopts; k++)
        if (pv_word_matches(t->sval + 2, pv_opts[k].pattern)) return &pv_opts[k];
    return NULL;
}

static pv_status unset_opt(pv_sp *p, const pv_opt *o)
{
    if (o->kind == PV_OPT_INTERP) return interp_only(p, "unset");
    if (o->kind == PV_OPT_IGNORED) {
        /* unsetting something pvox never draws changes nothing: no warning */
        sp_skip_rest(p);
        return PV_OK;
    }
    pv_cur_next(p->c);
    return o->unset(p);
}

pv_status pv_settings_set(pv_settings *s, pv_env *env, pv_cursor *c, bool exec)
{
    pv_sp p = {s, env, c, exec, NULL, pv_cur_offset(c)};
    const pv_opt *o = find_opt(&p);
    if (!o) {
        const pv_opt *no = find_no_opt(&p);
        return no ? unset_opt(&p, no) : unknown_name(&p, "set");
    }
    if (o->kind == PV_OPT_INTERP) return interp_only(&p, "set");
    if (o->kind == PV_OPT_IGNORED) {
        warn_ignored(&p, o, "set");
        sp_skip_rest(&p);
        return PV_OK;
    }
    pv_cur_next(c);
    return o->set(&p);
}

pv_status pv_settings_unset(pv_settings *s, pv_env *env, pv_cursor *c, bool exec)
{
    pv_sp p = {s, env, c, exec, NULL, pv_cur_offset(c)};
    const pv_opt *o = find_opt(&p);
    if (!o) return unknown_name(&p, "unset");
    return unset_opt(&p, o);
}

pv_status pv_settings_show(pv_settings *s, pv_env *env, pv_cursor *c, bool exec, FILE *out)
{
    pv_sp p = {s, env, c, exec, exec ? out : NULL, pv_cur_offset(c)};
    if (sp_end(&p) || pv_cur_peek(c)->kind != PV_TK_NAME) return unknown_name(&p, "show");
    if (sp_word(&p, "colorn$ames")) return sp_show_colornames(&p);
    if (sp_word(&p, "a$ll")) return sp_show_all(&p);
    if (sp_isword(&p, "var$iables") || sp_isword(&p, "fu$nctions"))
        return interp_only(&p, "show");
    if (sp_word(&p, "vers$ion")) {
        sp_word(&p, "l$ong");
        if (p.out)
            fprintf(p.out, "\n\tpvox " PV_VERSION_STRING ", reading gnuplot 5.4 scripts\n\n");
        return sp_expect_end(&p);
    }
    if (sp_isword(&p, "pl$ot") || sp_isword(&p, "pr$int") || sp_isword(&p, "tab$le")) {
        /* gnuplot shows the last plot command and where print/table output goes; pvox
         * keeps those in the interpreter and does not show them */
        if (p.out) fprintf(p.out, "\n\t%s is not shown by pvox\n\n", pv_cur_peek(c)->sval);
        return sp_done(&p);
    }
    const pv_opt *o = find_opt(&p);
    if (!o) return unknown_name(&p, "show");
    if (o->kind == PV_OPT_INTERP) return interp_only(&p, "show");
    if (o->kind == PV_OPT_IGNORED) {
        const pv_token *t = pv_cur_peek(c);
        if (p.out) fprintf(p.out, "\n\t%s is not used by pvox\n\n", t->sval);
        sp_skip_rest(&p);
        return PV_OK;
    }
    pv_cur_next(c);
    return o->show(&p);
}
