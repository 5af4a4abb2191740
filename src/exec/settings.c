/*
 * pvox settings: lifecycle (create, reset, reset session), the `set`/`unset`/`show`
 * dispatch over gnuplot 5.4's option names, and the parse helpers the handlers share.
 *
 * Invariants: every pv_settings field holds gnuplot 5.4.4's fresh-start value after
 * create/reset_all (decision 10 for the terminal); check mode (exec = false) never changes
 * a field and never evaluates; each handler consumes its whole statement.
 * Option names and their shortest abbreviations were measured by probing gnuplot 5.4.4
 * (`set`/`show` with every prefix of every name listed by `help set`).
 */
#include "settings_int.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* =====================================================================================
 * Parse helpers
 * ===================================================================================== */

bool sp_end(pv_sp *p) { return pv_cur_at_end(p->c); }
bool sp_word(pv_sp *p, const char *pattern) { return pv_cur_accept_word(p->c, pattern); }
bool sp_isword(pv_sp *p, const char *pattern) { return pv_cur_is_word(p->c, pattern); }
bool sp_op(pv_sp *p, const char *op) { return pv_cur_accept_op(p->c, op); }
bool sp_isop(pv_sp *p, const char *op) { return pv_cur_is_op(p->c, op); }

pv_status sp_err(pv_sp *p, pv_status code, const char *fmt, ...)
{
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    return pv_cur_error(p->c, code, "%s", buf);
}

pv_status sp_unexpected(pv_sp *p)
{
    const pv_token *t = pv_cur_peek(p->c);
    const pv_source *src = p->c->tl->src;
    int n = (int)(t->end > t->start ? t->end - t->start : 0);
    if (n > 60) n = 60;
    const char *text = src && t->start < src->len ? src->text + t->start : "";
    return pv_cur_error(p->c, PV_ESYNTAX, "unexpected or unrecognized token: %.*s", n, text);
}

pv_status sp_expect_end(pv_sp *p) { return sp_end(p) ? PV_OK : sp_unexpected(p); }

void sp_skip_rest(pv_sp *p)
{
    while (!sp_end(p)) pv_cur_next(p->c);
}

bool sp_can_expr(pv_sp *p)
{
    if (sp_end(p)) return false;
    return !(sp_isop(p, ",") || sp_isop(p, ":") || sp_isop(p, "]") || sp_isop(p, ")"));
}

static pv_status parse_code(pv_sp *p, pv_code **code)
{
    if (!sp_can_expr(p)) return sp_err(p, PV_ESYNTAX, "constant expression required");
    return pv_parse_expr(p->c, code);
}

pv_status sp_real(pv_sp *p, double *out)
{
    pv_code *code = NULL;
    pv_status st = parse_code(p, &code);
    if (st != PV_OK) return st;
    if (p->exec) {
        double v = 0.0;
        st = pv_eval_real(p->env, code, &v);
        if (st == PV_OK) *out = v;
    }
    pv_code_destroy(code);
    return st;
}

pv_status sp_int(pv_sp *p, int *out)
{
    pv_code *code = NULL;
    pv_status st = parse_code(p, &code);
    if (st != PV_OK) return st;
    if (p->exec) {
        int64_t v = 0;
        st = pv_eval_int(p->env, code, &v);
        if (st == PV_OK) *out = v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : (int)v;
    }
    pv_code_destroy(code);
    return st;
}

pv_status sp_string(pv_sp *p, char **out)
{
    pv_code *code = NULL;
    pv_status st = parse_code(p, &code);
    if (st != PV_OK) return st;
    if (p->exec) {
        char *v = NULL;
        st = pv_eval_string(p->env, code, &v);
        if (st == PV_OK) {
            free(*out);
            *out = v;
        }
    }
    pv_code_destroy(code);
    return st;
}

pv_status sp_value(pv_sp *p, pv_value *out)
{
    pv_code *code = NULL;
    pv_status st = parse_code(p, &code);
    if (st != PV_OK) return st;
    if (p->exec) st = pv_eval(p->env, code, out);
    pv_code_destroy(code);
    return st;
}

char *sp_strdup(const char *s)
{
    if (!s) return NULL;
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d) memcpy(d, s, n);
    return d;
}

void sp_setstr(char **dst, const char *src)
{
    char *d = sp_strdup(src);
    free(*dst);
    *dst = d;
}

/* =====================================================================================
 * Defaults
 * ===================================================================================== */

pv_lp pv_lp_default(void)
{
    pv_lp lp;
    memset(&lp, 0, sizeof lp);
    lp.lw = 1.0;
    lp.pt = -2;
    lp.ps = -1.0;
    return lp;
}

void pv_text_fini(pv_text *t)
{
    free(t->text);
    free(t->font);
    t->text = NULL;
    t->font = NULL;
}

void pv_text_default(pv_text *t)
{
    memset(t, 0, sizeof *t);
    t->enhanced = true;
}

void pv_palette_fini(pv_palette *pal)
{
    free(pal->grad);
    pal->grad = NULL;
    pal->ngrad = 0;
}

void pv_palette_default(pv_palette *pal)
{
    memset(pal, 0, sizeof *pal);
    pal->kind = PV_PAL_RGBFORMULAE;
    pal->formulae[0] = 7;
    pal->formulae[1] = 5;
    pal->formulae[2] = 15;
    pal->gamma = 1.5;
    pal->ch_start = 0.5;
    pal->ch_cycles = -1.5;
    pal->ch_saturation = 1.0;
}

static void term_default(pv_settings *s)
{
    free(s->term.font);
    free(s->term.font_name);
    memset(&s->term, 0, sizeof s->term);
    s->term.kind = PV_TERM_PNGCAIRO;
    s->term.width = 640;
    s->term.height = 480;
    s->term.fontscale = 1.0;
    s->term.background = 0xFFFFFFu;
    s->term.enhanced = true;
    s->term.linewidth = 1.0;
}

static void range_default(pv_range *r, double lo, double hi, bool autoscaled)
{
    memset(r, 0, sizeof *r);
    r->min = lo;
    r->max = hi;
    r->auto_min = r->auto_max = autoscaled;
    r->log_base = 10.0;
}

static void tics_default(pv_tics *t, bool mirror)
{
    free(t->format);
    free(t->font);
    memset(t, 0, sizeof *t);
    t->on = true;
    t->mirror = mirror;
    t->start = t->end = NAN;
    t->format = sp_strdup("% h");
    t->scale_major = 1.0;
    t->scale_minor = 0.5;
}

/* Free everything `reset` reinitialises. */
static void fini_resettable(pv_settings *s)
{
    pv_text_fini(&s->title);
    for (int k = 0; k < 4; k++) pv_text_fini(&s->label[k]);
    free(s->key.title);
    s->key.title = NULL;
    pv_palette_fini(&s->palette);
    for (int k = 0; k < 4; k++) {
        free(s->tics[k].format);
        free(s->tics[k].font);
        s->tics[k].format = s->tics[k].font = NULL;
    }
    free(s->linestyle);
    s->linestyle = NULL;
    s->nlinestyle = 0;
    free(s->datafile.missing);
    free(s->datafile.commentschars);
    s->datafile.missing = s->datafile.commentschars = NULL;
}

/* Everything `reset` restores (not terminal, output, linetypes: gnuplot's `help reset`). */
void pv_settings_defaults_keep(pv_settings *s)
{
    fini_resettable(s);
    for (int ax = PV_AX_X; ax <= PV_AX_CB; ax++) range_default(&s->range[ax], -10, 10, true);
    range_default(&s->range[PV_AX_U], -5, 5, false);
    range_default(&s->range[PV_AX_V], -5, 5, false);
    range_default(&s->range[PV_AX_T], -5, 5, false);
    for (int k = 0; k < 4; k++) tics_default(&s->tics[k], k != PV_AX_Z);
    s->tics_front = false;

    s->view.rot_x = 60.0;
    s->view.rot_z = 30.0;
    s->view.scale = s->view.zscale = 1.0;
    s->view.azimuth = 0.0;
    s->view.map = false;
    s->view.equal = 0;
    s->xyplane_absolute = false;
    s->xyplane_z = 0.0;
    s->xyplane_rel = 0.5;

    s->border = 31;
    s->border_layer = PV_LAYER_FRONT;
    s->border_lp = pv_lp_default();
    s->border_lp.lc.kind = PV_COLOR_BLACK;

    memset(&s->key, 0, sizeof s->key);
    s->key.on = true;
    s->key.inside = true;
    s->key.hpos = PV_KEYPOS_RIGHT;
    s->key.vpos = PV_KEYPOS_TOP;
    s->key.vertical = true;
    s->key.samplen = 4.0;
    s->key.spacing = 1.0;

    pv_text_default(&s->title);
    for (int k = 0; k < 4; k++) pv_text_default(&s->label[k]);
    pv_palette_default(&s->palette);

    memset(&s->colorbox, 0, sizeof s->colorbox);
    s->colorbox.on = s->colorbox.vertical = s->colorbox.border = s->colorbox.front = true;

    memset(&s->fill, 0, sizeof s->fill);
    s->fill.kind = PV_FILL_EMPTY;
    s->fill.density = 1.0;
    s->fill.border = true;
    s->style_data = PV_STYLE_POINTS;
    s->style_function = PV_STYLE_LINES;

    memset(&s->pm3d, 0, sizeof s->pm3d);
    strcpy(s->pm3d.at, "s");
    s->pm3d.border = pv_lp_default();
    s->pm3d.primary = 0.5;
    s->pm3d.specular = 0.2;
    s->pm3d.interp[0] = s->pm3d.interp[1] = 1;
    s->pm3d.corners2color = PV_C2C_MEAN;
    s->pm3d.clip_z = true;

    s->samples[0] = s->samples[1] = 100;
    s->isosamples[0] = s->isosamples[1] = 10;
    s->hidden3d = false;
    s->surface = true;

    memset(&s->jitter, 0, sizeof s->jitter);
    s->jitter.spread = 1.0;
    s->jitter.overlap = 1.0;
    s->iso_triangles = false;
    s->iso_inside_offset = 1;
    s->pointsize = 1.0;
    s->pointintervalbox = 1.0;

    s->datafile.separator = 0;
    s->datafile.commentschars = sp_strdup("#");
    strcpy(s->dummy[0], "x");
    strcpy(s->dummy[1], "y");
    s->angles_degrees = false;
    s->parametric = s->polar = false;
    s->macros = true;
    s->clip_points = false;
}

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
    fini_resettable(s);
    free(s->term.font);
    free(s->term.font_name);
    free(s->output);
    free(s->linetype);
    free(s->warned);
    free(s);
}

void pv_settings_reset(pv_settings *s) { pv_settings_defaults_keep(s); }

void pv_settings_reset_all(pv_settings *s)
{
    pv_settings_defaults_keep(s);
    term_default(s);
    free(s->output);
    s->output = NULL;
    free(s->linetype);
    s->linetype = NULL;
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

/* gnuplot: "unrecognized option - see 'help set'"; pvox names the option (decision 11). */
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

/* Decision 11: ignored names warn once per name per run, when the statement runs. */
static void warn_ignored(pv_sp *p, const pv_opt *o, const char *verb)
{
    int idx = (int)(o - pv_opts);
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

pv_status pv_settings_set(pv_settings *s, pv_env *env, pv_cursor *c, bool exec)
{
    pv_sp p = {s, env, c, exec, NULL, pv_cur_offset(c)};
    const pv_opt *o = find_opt(&p);
    if (!o) return unknown_name(&p, "set");
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
    if (o->kind == PV_OPT_INTERP) return interp_only(&p, "unset");
    if (o->kind == PV_OPT_IGNORED) {
        /* unsetting something pvox never draws changes nothing: no warning */
        sp_skip_rest(&p);
        return PV_OK;
    }
    pv_cur_next(c);
    return o->unset(&p);
}

pv_status pv_settings_show(pv_settings *s, pv_env *env, pv_cursor *c, bool exec, FILE *out)
{
    pv_sp p = {s, env, c, exec, exec ? out : NULL, pv_cur_offset(c)};
    if (sp_end(&p) || pv_cur_peek(c)->kind != PV_TK_NAME) return unknown_name(&p, "show");
    if (sp_word(&p, "colorn$ames")) return sp_show_colornames(&p);
    if (sp_word(&p, "a$ll")) return sp_show_all(&p);
    if (sp_isword(&p, "var$iables") || sp_isword(&p, "fu$nctions") ||
        sp_isword(&p, "vers$ion") || sp_isword(&p, "pl$ot"))
        return interp_only(&p, "show");
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
