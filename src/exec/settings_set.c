/*
 * pvox settings: the `set` and `unset` handlers and the option-name table.
 *
 * Syntax and messages follow gnuplot 5.4.4, checked by running it (the oracle). Each
 * handler is called with the cursor after the option name; in check mode (p->exec false)
 * it parses and compiles expressions but changes nothing. Values are validated when
 * evaluated (exec), with gnuplot's messages ("sampling rate must be > 1; sampling
 * unchanged"). Where gnuplot applies a setting only if the whole statement is valid
 * (view, samples, palette), the handler parses into locals and commits at the end.
 */
#include "settings_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Extra warn-once slots after the option table (see warn_once). */
enum { WARN_LOGSCALE = 0, WARN_PAL_FUNCS, WARN_PAL_FILE, WARN_PARAMETRIC, WARN_POLAR,
       WARN_STYLE_OTHER, /* one slot per ignored `set style` kind follows */
       WARN_NSLOTS = WARN_STYLE_OTHER + 11 };
_Static_assert((int)WARN_NSLOTS <= (int)PV_SETTINGS_EXTRA_WARN, "grow PV_SETTINGS_EXTRA_WARN");

static void warn_once(pv_sp *p, int slot, const char *msg)
{
    if (!p->exec || !p->s) return;
    unsigned char *w = &p->s->warned[pv_nopts + slot];
    if (*w) return;
    *w = 1;
    pv_source_warn(p->c->ctx, p->c->tl->src, p->at, "%s", msg);
}

/* =====================================================================================
 * Colours and line properties
 * ===================================================================================== */

/* A string literal that is a whole expression can be checked in check mode too. */
static bool lone_string(pv_sp *p)
{
    const pv_token *t = pv_cur_peek(p->c);
    if (t->kind != PV_TK_STRING) return false;
    const pv_token *n = pv_cur_peek_at(p->c, 1);
    return !(n->kind == PV_TK_OP && (strcmp(n->op, ".") == 0 || strcmp(n->op, "[") == 0 ||
                                     strcmp(n->op, "?") == 0 || strcmp(n->op, "eq") == 0));
}

static const char bad_color[] =
    "unrecognized color name and not a string \"#AARRGGBB\" or \"0xAARRGGBB\"";

/* `rgb` already consumed: a colour string or an integer 0xAARRGGBB. */
static pv_status parse_rgb_value(pv_sp *p, uint32_t *argb)
{
    if (lone_string(p) && !p->exec) {
        uint32_t v;
        if (!pv_color_parse_string(pv_cur_peek(p->c)->sval, &v))
            return sp_err(p, PV_ESCRIPT, bad_color);
    }
    size_t at = pv_cur_offset(p->c);
    pv_value v = {0};
    pv_status st = sp_value(p, &v);
    if (st != PV_OK || !p->exec) return st;
    if (v.type == PV_V_STR) {
        bool ok = pv_color_parse_string(v.s, argb);
        pv_value_free(&v);
        if (!ok)
            return pv_source_error(p->c->ctx, PV_ESCRIPT, p->c->tl->src, at, "%s", bad_color);
        return PV_OK;
    }
    double d = pv_value_real(&v);
    pv_value_free(&v);
    if (!isfinite(d)) return pv_source_error(p->c->ctx, PV_ESCRIPT, p->c->tl->src, at, "%s", bad_color);
    *argb = (uint32_t)(int64_t)d;
    return PV_OK;
}

static pv_status parse_color(pv_sp *p, pv_color *out)
{
    pv_color col = {PV_COLOR_DEFAULT, 0, 0, 0.0};
    pv_status st = PV_OK;
    if (sp_word(p, "rgb$color")) {
        if (sp_word(p, "var$iable")) {
            col.kind = PV_COLOR_RGB_VARIABLE;
        } else {
            col.kind = PV_COLOR_RGB;
            st = parse_rgb_value(p, &col.argb);
        }
    } else if (sp_word(p, "pal$ette")) {
        col.kind = PV_COLOR_PALETTE_Z;
        if (sp_word(p, "z")) {
            col.kind = PV_COLOR_PALETTE_Z;
        } else if (sp_word(p, "cb")) {
            col.kind = PV_COLOR_PALETTE_CB;
            st = sp_real(p, &col.value);
        } else if (sp_word(p, "frac$tion")) {
            col.kind = PV_COLOR_PALETTE_FRAC;
            st = sp_real(p, &col.value);
        }
    } else if (sp_word(p, "var$iable")) {
        col.kind = PV_COLOR_VARIABLE;
    } else if (sp_word(p, "black")) {
        col.kind = PV_COLOR_BLACK;
    } else if (sp_word(p, "bgnd") || sp_word(p, "background")) {
        col.kind = PV_COLOR_BGND;
    } else if (pv_cur_peek(p->c)->kind == PV_TK_STRING) {
        col.kind = PV_COLOR_RGB;
        st = parse_rgb_value(p, &col.argb);
    } else {
        col.kind = PV_COLOR_LT;
        st = sp_int(p, &col.lt);
        if (st == PV_OK && p->exec && col.lt < 0) col.kind = PV_COLOR_BLACK;
    }
    if (st == PV_OK) *out = col;
    return st;
}

pv_status pv_settings_parse_color(pv_env *env, pv_cursor *c, bool exec, pv_color *out)
{
    pv_sp p = {NULL, env, c, exec, NULL, pv_cur_offset(c)};
    return parse_color(&p, out);
}

/* Copy linestyle `tag` (exec) into *lp. */
static void apply_linestyle(pv_sp *p, int tag, pv_lp *lp)
{
    if (!p->exec || !p->s || tag < 1 || tag >= p->s->nlinestyle) return;
    if (p->s->linestyle[tag].defined) *lp = p->s->linestyle[tag];
}

static pv_status parse_lp(pv_sp *p, pv_lp *lp)
{
    for (;;) {
        pv_status st = PV_OK;
        if (sp_word(p, "lt") || sp_word(p, "linet$ype")) {
            if (sp_word(p, "black")) {
                lp->lt = -1;
                lp->lc.kind = PV_COLOR_BLACK;
            } else if (sp_word(p, "bgnd")) {
                lp->lc.kind = PV_COLOR_BGND;
            } else if (sp_isword(p, "rgb$color") || sp_isword(p, "pal$ette")) {
                st = parse_color(p, &lp->lc);
            } else {
                int lt = lp->lt;
                st = sp_int(p, &lt);
                if (st == PV_OK && p->exec) {
                    lp->lt = lt;
                    lp->lc.kind = lt < 0 ? PV_COLOR_BLACK : PV_COLOR_LT;
                    lp->lc.lt = lt;
                }
            }
        } else if (sp_word(p, "ls") || sp_word(p, "lines$tyle")) {
            int tag = 0;
            st = sp_int(p, &tag);
            if (st == PV_OK) apply_linestyle(p, tag, lp);
        } else if (sp_word(p, "lc") || sp_word(p, "linec$olor") || sp_word(p, "linecolour")) {
            st = parse_color(p, &lp->lc);
        } else if (sp_word(p, "lw") || sp_word(p, "linew$idth")) {
            st = sp_real(p, &lp->lw);
        } else if (sp_word(p, "pt") || sp_word(p, "pointt$ype")) {
            if (sp_word(p, "var$iable")) lp->pt = -3;
            else if (pv_cur_peek(p->c)->kind == PV_TK_STRING) {
                lp->pt = -4;
                pv_cur_next(p->c);
            } else st = sp_int(p, &lp->pt);
        } else if (sp_word(p, "ps") || sp_word(p, "points$ize")) {
            if (sp_word(p, "var$iable")) lp->ps = -2.0;
            else if (sp_word(p, "def$ault")) lp->ps = -1.0;
            else st = sp_real(p, &lp->ps);
        } else if (sp_word(p, "dt") || sp_word(p, "dasht$ype")) {
            if (sp_word(p, "solid")) lp->dt = 0;
            else {
                pv_value v = {0};
                st = sp_value(p, &v);
                if (st == PV_OK && p->exec && v.type != PV_V_STR) lp->dt = (int)pv_value_real(&v);
                pv_value_free(&v);
            }
        } else if (sp_word(p, "pi") || sp_word(p, "pointi$nterval")) {
            st = sp_int(p, &lp->pi);
        } else if (sp_word(p, "pn") || sp_word(p, "pointn$umber")) {
            int dummy = 0;
            st = sp_int(p, &dummy);
        } else {
            return PV_OK;
        }
        if (st != PV_OK) return st;
        lp->defined = true;
    }
}

pv_status pv_settings_parse_lp(pv_settings *s, pv_env *env, pv_cursor *c, bool exec, pv_lp *lp)
{
    pv_sp p = {s, env, c, exec, NULL, pv_cur_offset(c)};
    return parse_lp(&p, lp);
}

static const uint32_t default_lt_rgb[8] = {0x9400d3u, 0x009e73u, 0x56b4e9u, 0xe69f00u,
                                           0xf0e442u, 0x0072b2u, 0xe51e10u, 0x000000u};

uint32_t pv_settings_lt_rgb(const pv_settings *s, int lt)
{
    if (lt <= 0) return 0;
    if (s && lt < s->nlinetype && s->linetype[lt].defined &&
        s->linetype[lt].lc.kind == PV_COLOR_RGB)
        return s->linetype[lt].lc.argb;
    return default_lt_rgb[(lt - 1) % 8];
}

/* Grow a 1-based tag array so that `tag` is a valid index. */
static pv_status grow_lp(pv_sp *p, pv_lp **arr, int *n, int tag)
{
    if (tag < *n) return PV_OK;
    int nn = tag + 8;
    pv_lp *a = realloc(*arr, (size_t)nn * sizeof *a);
    if (!a) return pv_err(p->c->ctx, PV_ENOMEM, "out of memory");
    for (int k = *n; k < nn; k++) {
        a[k] = pv_lp_default();
        a[k].defined = false;
    }
    *arr = a;
    *n = nn;
    return PV_OK;
}

/* `set style line N ...` / `set linetype N ...` */
static pv_status set_lp_tag(pv_sp *p, bool is_linetype)
{
    const char *what = is_linetype ? "set linetype" : "set style line";
    if (is_linetype && sp_word(p, "cy$cle")) {
        int n = 0;
        pv_status st = sp_int(p, &n);
        return st != PV_OK ? st : sp_expect_end(p);
    }
    size_t at = pv_cur_offset(p->c);
    int tag = 0;
    pv_status st = sp_int(p, &tag);
    if (st != PV_OK) return st;
    if (p->exec && tag <= 0) return pv_source_error(p->c->ctx, PV_ESCRIPT, p->c->tl->src, at,
                                                    "tag must be > zero");
    pv_lp lp = pv_lp_default();
    if (!sp_word(p, "def$ault")) {
        st = parse_lp(p, &lp);
        if (st != PV_OK) return st;
    }
    if (!sp_end(p)) return sp_err(p, PV_ESYNTAX, "extraneous arguments to %s", what);
    if (!p->exec) return PV_OK;
    pv_lp **arr = is_linetype ? &p->s->linetype : &p->s->linestyle;
    int *n = is_linetype ? &p->s->nlinetype : &p->s->nlinestyle;
    if ((st = grow_lp(p, arr, n, tag)) != PV_OK) return st;
    lp.defined = true;
    (*arr)[tag] = lp;
    return PV_OK;
}

static pv_status unset_lp_tag(pv_sp *p, bool is_linetype)
{
    pv_lp *arr = is_linetype ? p->s->linetype : p->s->linestyle;
    int n = is_linetype ? p->s->nlinetype : p->s->nlinestyle;
    if (sp_end(p)) {
        if (p->exec)
            for (int k = 0; k < n; k++) arr[k].defined = false;
        return PV_OK;
    }
    int tag = 0;
    pv_status st = sp_int(p, &tag);
    if (st != PV_OK) return st;
    if (p->exec && tag > 0 && tag < n) arr[tag].defined = false;
    return sp_expect_end(p);
}

/* =====================================================================================
 * Text elements: title, x/y/z/cb labels
 * ===================================================================================== */

/* `offset {sys} x {, {sys} y {, {sys} z}}` after the keyword. */
static pv_status parse_position(pv_sp *p, double xyz[3])
{
    static const char *const systems[] = {"first", "second", "gr$aph", "sc$reen", "char$acter"};
    for (int k = 0; k < 3; k++) {
        for (size_t j = 0; j < sizeof systems / sizeof systems[0]; j++)
            if (sp_word(p, systems[j])) break;
        pv_status st = sp_real(p, &xyz[k]);
        if (st != PV_OK) return st;
        if (!sp_op(p, ",")) break;
    }
    return PV_OK;
}

static bool is_text_keyword(pv_sp *p)
{
    static const char *const kw[] = {"off$set", "font", "tc", "textc$olor", "noenh$anced",
                                     "enh$anced", "rot$ate", "norot$ate", "left", "right",
                                     "center", "box$ed", "nobox$ed", "front", "back"};
    for (size_t j = 0; j < sizeof kw / sizeof kw[0]; j++)
        if (sp_isword(p, kw[j])) return true;
    return false;
}

static pv_status set_text(pv_sp *p, pv_text *t, bool allow_rotate)
{
    /* gnuplot changes only what is given; the text itself is always replaced */
    pv_text nt = *t;
    nt.text = NULL;
    nt.font = p->exec ? sp_strdup(t->font) : NULL;
    pv_status st = PV_OK;
    if (sp_can_expr(p) && !is_text_keyword(p)) st = sp_string(p, &nt.text);
    while (st == PV_OK && !sp_end(p)) {
        if (sp_word(p, "off$set")) {
            st = parse_position(p, nt.offset);
        } else if (sp_word(p, "font")) {
            st = sp_string(p, &nt.font);
        } else if (sp_word(p, "tc") || sp_word(p, "textc$olor")) {
            if (sp_word(p, "def$ault")) nt.tc.kind = PV_COLOR_DEFAULT;
            else st = parse_color(p, &nt.tc);
        } else if (sp_word(p, "noenh$anced")) {
            nt.enhanced = false;
        } else if (sp_word(p, "enh$anced")) {
            nt.enhanced = true;
        } else if (allow_rotate && sp_word(p, "rot$ate")) {
            nt.rotate = 90.0;
            if (sp_word(p, "by")) st = sp_real(p, &nt.rotate);
            else if (sp_word(p, "par$allel")) nt.rotate = NAN;
        } else if (allow_rotate && sp_word(p, "norot$ate")) {
            nt.rotate = 0.0;
        } else if (sp_word(p, "left") || sp_word(p, "right") || sp_word(p, "center") ||
                   sp_word(p, "box$ed") || sp_word(p, "nobox$ed") || sp_word(p, "front") ||
                   sp_word(p, "back")) {
            /* justification and boxing: stored nowhere, pvox centres titles */
        } else {
            st = sp_unexpected(p);
        }
    }
    if (st != PV_OK || !p->exec) {
        pv_text_fini(&nt);
        return st;
    }
    pv_text_fini(t);
    *t = nt;
    return PV_OK;
}

static pv_status set_title(pv_sp *p) { return set_text(p, &p->s->title, false); }
static pv_status set_xlabel(pv_sp *p) { return set_text(p, &p->s->label[PV_AX_X], true); }
static pv_status set_ylabel(pv_sp *p) { return set_text(p, &p->s->label[PV_AX_Y], true); }
static pv_status set_zlabel(pv_sp *p) { return set_text(p, &p->s->label[PV_AX_Z], true); }
static pv_status set_cblabel(pv_sp *p) { return set_text(p, &p->s->label[PV_AX_CB], true); }

static pv_status unset_text(pv_sp *p, pv_text *t)
{
    if (p->exec) {
        free(t->text);
        t->text = NULL;
    }
    return sp_expect_end(p);
}
static pv_status unset_title(pv_sp *p) { return unset_text(p, &p->s->title); }
static pv_status unset_xlabel(pv_sp *p) { return unset_text(p, &p->s->label[PV_AX_X]); }
static pv_status unset_ylabel(pv_sp *p) { return unset_text(p, &p->s->label[PV_AX_Y]); }
static pv_status unset_zlabel(pv_sp *p) { return unset_text(p, &p->s->label[PV_AX_Z]); }
static pv_status unset_cblabel(pv_sp *p) { return unset_text(p, &p->s->label[PV_AX_CB]); }

/* =====================================================================================
 * Ranges and autoscale
 * ===================================================================================== */

/* One end of `[a:b]`: `*` (auto), empty (unchanged) or an expression. */
static pv_status range_end(pv_sp *p, const char *stop, double *val, int *state)
{
    *state = 0; /* 0 unchanged, 1 auto, 2 value */
    if (sp_isop(p, stop)) return PV_OK;
    if (sp_isop(p, "*")) {
        const pv_token *n = pv_cur_peek_at(p->c, 1);
        if (n->kind == PV_TK_OP && (strcmp(n->op, ":") == 0 || strcmp(n->op, "]") == 0)) {
            pv_cur_next(p->c);
            *state = 1;
            return PV_OK;
        }
    }
    pv_status st = sp_real(p, val);
    if (st == PV_OK) *state = 2;
    return st;
}

static pv_status set_range(pv_sp *p, int ax)
{
    pv_range r = p->s->range[ax];
    pv_status st = PV_OK;
    if (sp_op(p, "[")) {
        double lo = r.min, hi = r.max;
        int slo = 0, shi = 0;
        if ((st = range_end(p, ":", &lo, &slo)) != PV_OK) return st;
        if (!sp_op(p, ":")) {
            if (sp_isop(p, "]")) return sp_err(p, PV_ESYNTAX, "expecting ':'");
            return sp_err(p, PV_ESYNTAX, sp_end(p) ? "unfinished range" : "expecting ':'");
        }
        if ((st = range_end(p, "]", &hi, &shi)) != PV_OK) return st;
        if (!sp_op(p, "]"))
            return sp_err(p, PV_ESYNTAX, sp_end(p) ? "unfinished range" : "expecting ']'");
        if (slo == 1) r.auto_min = true;
        if (slo == 2) r.auto_min = false, r.min = lo;
        if (shi == 1) r.auto_max = true;
        if (shi == 2) r.auto_max = false, r.max = hi;
        if (p->exec && ((slo == 2 && !isfinite(lo)) || (shi == 2 && !isfinite(hi))))
            return sp_err(p, PV_ESCRIPT, "range limits must be finite numbers");
    }
    while (!sp_end(p)) {
        if (sp_word(p, "rev$erse")) r.reverse = true;
        else if (sp_word(p, "norev$erse")) r.reverse = false;
        else if (sp_word(p, "wr$iteback")) r.writeback = true;
        else if (sp_word(p, "nowri$teback")) r.writeback = false;
        else if (sp_word(p, "ext$end") || sp_word(p, "noext$end")) { /* stored nowhere */ }
        else if (sp_word(p, "re$store")) { /* no writeback values in pvox: unchanged */ }
        else return sp_err(p, PV_ESYNTAX, "unrecognized option");
    }
    if (p->exec) {
        r.user_set = true;
        p->s->range[ax] = r;
    }
    return PV_OK;
}

static pv_status unset_range(pv_sp *p, int ax)
{
    if (p->exec) {
        pv_range *r = &p->s->range[ax];
        /* gnuplot: every range (u and v too) becomes autoscaled, "currently" [-10:10] */
        r->auto_min = r->auto_max = true;
        r->fix_min = r->fix_max = false;
        r->user_set = false;
        if (ax > PV_AX_CB) {
            r->min = -10;
            r->max = 10;
        }
        r->reverse = r->writeback = false;
    }
    return sp_expect_end(p);
}

#define RANGE_FNS(NAME, AX)                                                               \
    static pv_status set_##NAME(pv_sp *p) { return set_range(p, AX); }                    \
    static pv_status unset_##NAME(pv_sp *p) { return unset_range(p, AX); }
RANGE_FNS(xrange, PV_AX_X)
RANGE_FNS(yrange, PV_AX_Y)
RANGE_FNS(zrange, PV_AX_Z)
RANGE_FNS(cbrange, PV_AX_CB)
RANGE_FNS(urange, PV_AX_U)
RANGE_FNS(vrange, PV_AX_V)
RANGE_FNS(trange, PV_AX_T)

/* Axis letters at the start of `word` (autoscale, logscale): a bit per pv_axis. Returns
 * the number of characters used, 0 if none. x2/y2/r are accepted and ignored. */
static size_t axis_prefix(const char *w, unsigned *mask, bool many)
{
    size_t i = 0;
    *mask = 0;
    while (w[i]) {
        if (w[i] == 'c' && w[i + 1] == 'b') { *mask |= 1u << PV_AX_CB; i += 2; }
        else if ((w[i] == 'x' || w[i] == 'y') && w[i + 1] == '2') { i += 2; *mask |= 1u << 31; }
        else if (w[i] == 'x') { *mask |= 1u << PV_AX_X; i++; }
        else if (w[i] == 'y') { *mask |= 1u << PV_AX_Y; i++; }
        else if (w[i] == 'z') { *mask |= 1u << PV_AX_Z; i++; }
        else if (w[i] == 'r') { *mask |= 1u << 31; i++; }
        else if (w[i] == 't') { *mask |= 1u << PV_AX_T; i++; }
        else if (w[i] == 'u') { *mask |= 1u << PV_AX_U; i++; }
        else if (w[i] == 'v') { *mask |= 1u << PV_AX_V; i++; }
        else break;
        if (!many) break;
    }
    return i;
}

static pv_status autoscale_word(pv_sp *p, bool on)
{
    const pv_token *t = pv_cur_peek(p->c);
    if (t->kind != PV_TK_NAME) return sp_err(p, PV_ESYNTAX, "Invalid axis");
    const char *w = t->sval;
    unsigned mask = 0;
    size_t n = axis_prefix(w, &mask, true);
    const char *suf = w + n;
    bool all = false;
    if (n == 0 && (strcmp(w, "fix") == 0 || strcmp(w, "keepfix") == 0 || strcmp(w, "ga") == 0))
        all = true, suf = w;
    else if (n == 0)
        return sp_err(p, PV_ESYNTAX, "Invalid axis");
    int what; /* 0 both, 1 min, 2 max, 3 fix, 4 fixmin, 5 fixmax, 6 keepfix */
    if (!*suf) what = 0;
    else if (strcmp(suf, "min") == 0) what = 1;
    else if (strcmp(suf, "max") == 0) what = 2;
    else if (strcmp(suf, "fix") == 0) what = 3;
    else if (strcmp(suf, "fixmin") == 0) what = 4;
    else if (strcmp(suf, "fixmax") == 0) what = 5;
    else if (strcmp(suf, "keepfix") == 0 && all) what = 6;
    else if (strcmp(suf, "ga") == 0 && all) what = 0;
    else return sp_err(p, PV_ESYNTAX, "Invalid axis");
    if (all) mask = (1u << PV_AX_X) | (1u << PV_AX_Y) | (1u << PV_AX_Z) | (1u << PV_AX_CB);
    pv_cur_next(p->c);
    if (!p->exec) return PV_OK;
    for (int ax = 0; ax < PV_NAXES; ax++) {
        if (!(mask & (1u << ax))) continue;
        pv_range *r = &p->s->range[ax];
        r->user_set = true;
        bool lo = what == 0 || what == 1 || what == 3 || what == 4 || what == 6;
        bool hi = what == 0 || what == 2 || what == 3 || what == 5 || what == 6;
        if (lo) r->auto_min = on;
        if (hi) r->auto_max = on;
        if (!on) continue;
        if (what == 0 || what == 1 || what == 2) {
            if (lo) r->fix_min = false;
            if (hi) r->fix_max = false;
        } else if (what != 6) {
            if (lo) r->fix_min = true;
            if (hi) r->fix_max = true;
        }
    }
    return PV_OK;
}

static pv_status autoscale_all(pv_sp *p, bool on)
{
    if (!p->exec) return PV_OK;
    for (int ax = PV_AX_X; ax <= PV_AX_CB; ax++) {
        pv_range *r = &p->s->range[ax];
        r->auto_min = r->auto_max = on;
        if (on) r->fix_min = r->fix_max = false;
        r->user_set = true;
    }
    return PV_OK;
}

static pv_status set_autoscale(pv_sp *p)
{
    if (sp_end(p)) return autoscale_all(p, true);
    while (!sp_end(p)) {
        pv_status st = autoscale_word(p, true);
        if (st != PV_OK) return st;
    }
    return PV_OK;
}

static pv_status unset_autoscale(pv_sp *p)
{
    if (sp_end(p)) return autoscale_all(p, false);
    while (!sp_end(p)) {
        pv_status st = autoscale_word(p, false);
        if (st != PV_OK) return st;
    }
    return PV_OK;
}

/* set logscale {axes} {base}: stored; pvox draws linear axes (one warning). */
static pv_status logscale(pv_sp *p, bool on)
{
    unsigned mask = (1u << PV_AX_X) | (1u << PV_AX_Y) | (1u << PV_AX_Z) | (1u << PV_AX_CB);
    if (!sp_end(p) && pv_cur_peek(p->c)->kind == PV_TK_NAME) {
        const char *w = pv_cur_peek(p->c)->sval;
        size_t n = axis_prefix(w, &mask, true);
        if (n == 0 || w[n]) return sp_err(p, PV_ESYNTAX, "invalid axis");
        pv_cur_next(p->c);
    }
    double base = 10.0;
    if (on && sp_can_expr(p)) {
        size_t at = pv_cur_offset(p->c);
        pv_status st = sp_real(p, &base);
        if (st != PV_OK) return st;
        if (p->exec && !(base > 1.0))
            return pv_source_error(p->c->ctx, PV_ESCRIPT, p->c->tl->src, at,
                                   "log base must be > 1.0; logscale unchanged");
    }
    pv_status st = sp_expect_end(p);
    if (st != PV_OK || !p->exec) return st;
    for (int ax = 0; ax < PV_NAXES; ax++) {
        if (!(mask & (1u << ax))) continue;
        p->s->range[ax].log = on;
        if (on) p->s->range[ax].log_base = base;
    }
    if (on) warn_once(p, WARN_LOGSCALE, "set logscale is stored but pvox draws linear axes");
    return PV_OK;
}
static pv_status set_logscale(pv_sp *p) { return logscale(p, true); }
static pv_status unset_logscale(pv_sp *p) { return logscale(p, false); }

/* =====================================================================================
 * Tics
 * ===================================================================================== */

/* Skip a parenthesised tic list `("a" 1, 2 1)`, balancing parentheses. */
static pv_status skip_parens(pv_sp *p)
{
    int depth = 0;
    do {
        if (sp_end(p)) return sp_err(p, PV_ESYNTAX, "expecting ')'");
        if (sp_isop(p, "(")) depth++;
        else if (sp_isop(p, ")")) depth--;
        pv_cur_next(p->c);
    } while (depth > 0);
    return PV_OK;
}

/* Tic options for the axes in `mask`; `all` = `set tics` (no increments). */
static pv_status tics(pv_sp *p, unsigned mask, bool all)
{
    pv_tics t = p->s->tics[mask & (1u << PV_AX_X) ? PV_AX_X : mask & (1u << PV_AX_Y) ? PV_AX_Y
                                                      : mask & (1u << PV_AX_Z) ? PV_AX_Z : PV_AX_CB];
    t.format = t.font = NULL; /* parsed fresh; the old ones stay owned by the settings */
    bool set_mirror = false, set_out = false, set_incr = false, set_rot = false;
    bool set_scale = false, front = p->s->tics_front, set_front = false;
    pv_status st = PV_OK;
    while (st == PV_OK && !sp_end(p)) {
        if (sp_word(p, "ax$is") || sp_word(p, "bo$rder") || sp_word(p, "add") ||
            sp_word(p, "autof$req") || sp_word(p, "num$eric") || sp_word(p, "time$date") ||
            sp_word(p, "geo$graphic") || sp_word(p, "log$scale") || sp_word(p, "nolog$scale") ||
            sp_word(p, "rangelimit$ed") || sp_word(p, "left") || sp_word(p, "right") ||
            sp_word(p, "center") || sp_word(p, "autojust$ify") || sp_word(p, "enh$anced") ||
            sp_word(p, "noenh$anced") || sp_word(p, "nooff$set")) {
            /* placement and label details: stored nowhere */
        } else if (sp_word(p, "mi$rror")) {
            t.mirror = true, set_mirror = true;
        } else if (sp_word(p, "nomi$rror")) {
            t.mirror = false, set_mirror = true;
        } else if (sp_word(p, "in")) {
            t.outward = false, set_out = true;
        } else if (sp_word(p, "out")) {
            t.outward = true, set_out = true;
        } else if (sp_word(p, "sc$ale")) {
            set_scale = true;
            if (!sp_word(p, "def$ault")) {
                st = sp_real(p, &t.scale_major);
                if (st == PV_OK && sp_op(p, ",")) st = sp_real(p, &t.scale_minor);
            } else {
                t.scale_major = 1.0, t.scale_minor = 0.5;
            }
        } else if (sp_word(p, "rot$ate")) {
            set_rot = true;
            t.rotate = 90.0;
            if (sp_word(p, "by")) st = sp_real(p, &t.rotate);
        } else if (sp_word(p, "norot$ate")) {
            set_rot = true;
            t.rotate = 0.0;
        } else if (sp_word(p, "off$set")) {
            double xyz[3] = {0, 0, 0};
            st = parse_position(p, xyz);
        } else if (sp_word(p, "format") || sp_word(p, "form$at")) {
            st = sp_string(p, &t.format);
        } else if (sp_word(p, "font")) {
            st = sp_string(p, &t.font);
        } else if (sp_word(p, "tc") || sp_word(p, "textc$olor")) {
            pv_color col;
            st = parse_color(p, &col);
        } else if (all && sp_word(p, "front")) {
            front = true, set_front = true;
        } else if (all && sp_word(p, "back")) {
            front = false, set_front = true;
        } else if (all && sp_word(p, "level")) {
            double lv = 0;
            st = sp_real(p, &lv);
        } else if (!all && sp_isop(p, "(")) {
            st = skip_parens(p);
            set_incr = true;
            t.has_incr = false;
        } else if (!all && sp_can_expr(p)) {
            double a = NAN, b = NAN, c = NAN;
            st = sp_real(p, &a);
            if (st == PV_OK && sp_op(p, ",")) st = sp_real(p, &b);
            if (st == PV_OK && sp_op(p, ",")) st = sp_real(p, &c);
            set_incr = true;
            t.has_incr = true;
            if (isnan(b)) t.start = NAN, t.incr = a, t.end = NAN;
            else t.start = a, t.incr = b, t.end = c;
            if (p->exec && !(t.incr != 0.0) )
                st = sp_err(p, PV_ESCRIPT, "tic increment must be non-zero");
        } else {
            st = sp_unexpected(p);
        }
    }
    if (st != PV_OK || !p->exec) {
        free(t.format);
        free(t.font);
        return st;
    }
    for (int ax = PV_AX_X; ax <= PV_AX_CB; ax++) {
        if (!(mask & (1u << ax))) continue;
        pv_tics *d = &p->s->tics[ax];
        d->on = true;
        if (set_mirror) d->mirror = t.mirror;
        if (set_out) d->outward = t.outward;
        if (set_rot) d->rotate = t.rotate;
        if (set_scale) d->scale_major = t.scale_major, d->scale_minor = t.scale_minor;
        if (set_incr) {
            d->has_incr = t.has_incr;
            d->start = t.start, d->incr = t.incr, d->end = t.end;
        }
        if (t.format) sp_setstr(&d->format, t.format);
        if (t.font) sp_setstr(&d->font, t.font);
    }
    if (set_front) p->s->tics_front = front;
    free(t.format);
    free(t.font);
    return PV_OK;
}

static pv_status unset_tics_mask(pv_sp *p, unsigned mask)
{
    if (p->exec)
        for (int ax = PV_AX_X; ax <= PV_AX_CB; ax++)
            if (mask & (1u << ax)) p->s->tics[ax].on = false;
    return sp_expect_end(p);
}

#define ALL_AXES ((1u << PV_AX_X) | (1u << PV_AX_Y) | (1u << PV_AX_Z) | (1u << PV_AX_CB))
static pv_status set_tics(pv_sp *p) { return tics(p, ALL_AXES, true); }
static pv_status unset_tics(pv_sp *p) { return unset_tics_mask(p, ALL_AXES); }
#define TICS_FNS(NAME, AX)                                                                \
    static pv_status set_##NAME(pv_sp *p) { return tics(p, 1u << AX, false); }            \
    static pv_status unset_##NAME(pv_sp *p) { return unset_tics_mask(p, 1u << AX); }
TICS_FNS(xtics, PV_AX_X)
TICS_FNS(ytics, PV_AX_Y)
TICS_FNS(ztics, PV_AX_Z)
TICS_FNS(cbtics, PV_AX_CB)

/* =====================================================================================
 * View, xyplane, border
 * ===================================================================================== */

static pv_status set_view(pv_sp *p)
{
    pv_settings *s = p->s;
    pv_status st = PV_OK;
    if (sp_word(p, "map")) {
        double scale = s->view.scale;
        if (sp_word(p, "sc$ale")) st = sp_real(p, &scale);
        if (st != PV_OK) return st;
        if ((st = sp_expect_end(p)) != PV_OK || !p->exec) return st;
        s->view.map = true;
        s->view.rot_x = 0.0;
        s->view.rot_z = 0.0;
        s->view.scale = scale;
        return PV_OK;
    }
    if (sp_word(p, "noequal")) {
        if (p->exec) s->view.equal = 0;
        return sp_expect_end(p);
    }
    if (sp_word(p, "equal")) {
        int eq = 1;
        if (sp_word(p, "xyz")) eq = 2;
        else sp_word(p, "xy");
        if (p->exec) s->view.equal = eq;
        return sp_expect_end(p);
    }
    if (sp_word(p, "az$imuth")) {
        double az = s->view.azimuth;
        if ((st = sp_real(p, &az)) != PV_OK) return st;
        if (p->exec) s->view.azimuth = az;
        return sp_expect_end(p);
    }
    double v[4] = {s->view.rot_x, s->view.rot_z, s->view.scale, s->view.zscale};
    size_t at[4] = {0, 0, 0, 0};
    for (int k = 0; k < 4; k++) {
        at[k] = pv_cur_offset(p->c);
        if (sp_can_expr(p) && (st = sp_real(p, &v[k])) != PV_OK) return st;
        if (k < 3 && !sp_op(p, ",")) break;
    }
    if (!sp_end(p)) return sp_err(p, PV_ESYNTAX, "',' expected");
    if (!p->exec) return PV_OK;
    static const char *const msg[4] = {"rot_x must be in [0:360] degrees range; view unchanged",
                                       "rot_z must be in [0:360] degrees range; view unchanged",
                                       "scale must be > 0; view unchanged",
                                       "zscale must be > 0; view unchanged"};
    for (int k = 0; k < 4; k++) {
        bool bad = k < 2 ? !(v[k] >= 0.0 && v[k] <= 360.0) : !(v[k] > 0.0);
        if (bad) return pv_source_error(p->c->ctx, PV_ESCRIPT, p->c->tl->src, at[k], "%s", msg[k]);
    }
    s->view.map = false;
    s->view.rot_x = v[0];
    s->view.rot_z = v[1];
    s->view.scale = v[2];
    s->view.zscale = v[3];
    return PV_OK;
}

static pv_status unset_view(pv_sp *p)
{
    if (p->exec) {
        p->s->view.map = false;
        p->s->view.rot_x = 60.0;
        p->s->view.rot_z = 30.0;
        p->s->view.scale = p->s->view.zscale = 1.0;
        p->s->view.azimuth = 0.0;
        p->s->view.equal = 0;
    }
    return sp_expect_end(p);
}

static pv_status set_xyplane(pv_sp *p)
{
    bool absolute = false;
    if (sp_word(p, "at")) absolute = true;
    else sp_word(p, "rel$ative");
    double v = 0.0;
    pv_status st = sp_real(p, &v);
    if (st == PV_OK) st = sp_expect_end(p);
    if (st != PV_OK || !p->exec) return st;
    p->s->xyplane_absolute = absolute;
    if (absolute) p->s->xyplane_z = v;
    else p->s->xyplane_rel = v;
    return PV_OK;
}

static pv_status set_ticslevel(pv_sp *p)
{
    double v = 0.0;
    pv_status st = sp_real(p, &v);
    if (st == PV_OK) st = sp_expect_end(p);
    if (st != PV_OK || !p->exec) return st;
    p->s->xyplane_absolute = false;
    p->s->xyplane_rel = v;
    return PV_OK;
}

static pv_status unset_xyplane(pv_sp *p)
{
    if (p->exec) {
        p->s->xyplane_absolute = false;
        p->s->xyplane_rel = 0.5;
    }
    return sp_expect_end(p);
}

static pv_status set_border(pv_sp *p)
{
    pv_settings *s = p->s;
    /* gnuplot: a bare `set border` restores the default; otherwise only what is given */
    int bits = s->border;
    pv_border_layer layer = s->border_layer;
    pv_lp lp = s->border_lp;
    pv_status st = PV_OK;
    if (sp_end(p)) {
        bits = 31;
        layer = PV_LAYER_FRONT;
        lp = pv_lp_default();
        lp.lc.kind = PV_COLOR_BLACK;
    }
    if (sp_can_expr(p) && pv_cur_peek(p->c)->kind != PV_TK_NAME) st = sp_int(p, &bits);
    else if (sp_can_expr(p) && !sp_isword(p, "front") && !sp_isword(p, "back") &&
             !sp_isword(p, "behind") && !sp_isword(p, "lt") && !sp_isword(p, "lc") &&
             !sp_isword(p, "lw") && !sp_isword(p, "ls") && !sp_isword(p, "dt") &&
             !sp_isword(p, "linew$idth") && !sp_isword(p, "linec$olor") &&
             !sp_isword(p, "linet$ype") && !sp_isword(p, "lines$tyle") &&
             !sp_isword(p, "dasht$ype") && !sp_isword(p, "pol$ar"))
        st = sp_int(p, &bits);
    while (st == PV_OK && !sp_end(p)) {
        if (sp_word(p, "front")) layer = PV_LAYER_FRONT;
        else if (sp_word(p, "back")) layer = PV_LAYER_BACK;
        else if (sp_word(p, "behind")) layer = PV_LAYER_BEHIND;
        else if (sp_word(p, "pol$ar")) { /* polar border: stored nowhere */ }
        else {
            size_t before = p->c->pos;
            st = parse_lp(p, &lp);
            if (st == PV_OK && p->c->pos == before) st = sp_unexpected(p);
        }
    }
    if (st != PV_OK || !p->exec) return st;
    s->border = bits;
    s->border_layer = layer;
    s->border_lp = lp;
    return PV_OK;
}

static pv_status unset_border(pv_sp *p)
{
    if (p->exec) p->s->border = 0;
    return sp_expect_end(p);
}

/* =====================================================================================
 * Key, colorbox
 * ===================================================================================== */

static pv_status set_key(pv_sp *p)
{
    pv_settings *s = p->s;
    pv_key k = s->key;
    k.title = NULL;
    bool title_set = false, hseen = false;
    pv_status st = PV_OK;
    k.on = true;
    while (st == PV_OK && !sp_end(p)) {
        if (sp_word(p, "on")) k.on = true;
        else if (sp_word(p, "off")) k.on = false;
        else if (sp_word(p, "def$ault")) {
            k.inside = true, k.hpos = PV_KEYPOS_RIGHT, k.vpos = PV_KEYPOS_TOP, k.vertical = true;
            k.box = k.opaque = k.reverse = k.invert = k.left_justify = false;
        }
        else if (sp_word(p, "ins$ide")) k.inside = true;
        else if (sp_word(p, "out$side")) k.inside = false;
        else if (sp_word(p, "lmargin") || sp_word(p, "rmargin") || sp_word(p, "tmargin") ||
                 sp_word(p, "bmargin") || sp_word(p, "fixed") || sp_word(p, "noautot$itle") ||
                 sp_word(p, "enh$anced") || sp_word(p, "noenh$anced"))
            { /* margins, fixed, autotitle, enhanced: stored nowhere */ }
        else if (sp_word(p, "autot$itle")) sp_word(p, "col$umnheader");
        else if (sp_word(p, "at")) {
            double xyz[3] = {0, 0, 0};
            st = parse_position(p, xyz);
        }
        else if (sp_word(p, "l$eft")) k.hpos = PV_KEYPOS_LEFT, hseen = true;
        else if (sp_word(p, "r$ight")) k.hpos = PV_KEYPOS_RIGHT, hseen = true;
        else if (sp_word(p, "t$op")) k.vpos = PV_KEYPOS_TOP;
        else if (sp_word(p, "b$ottom")) k.vpos = PV_KEYPOS_BOTTOM;
        else if (sp_word(p, "c$enter")) {
            if (hseen) k.vpos = PV_KEYPOS_CENTER;
            else k.hpos = PV_KEYPOS_CENTER, hseen = true;
        }
        else if (sp_word(p, "ve$rtical")) k.vertical = true;
        else if (sp_word(p, "ho$rizontal")) k.vertical = false;
        else if (sp_word(p, "Left")) k.left_justify = true;
        else if (sp_word(p, "Right")) k.left_justify = false;
        else if (sp_word(p, "opaque")) k.opaque = true;
        else if (sp_word(p, "noopaque")) k.opaque = false;
        else if (sp_word(p, "rev$erse")) k.reverse = true;
        else if (sp_word(p, "norev$erse")) k.reverse = false;
        else if (sp_word(p, "inv$ert")) k.invert = true;
        else if (sp_word(p, "noinv$ert")) k.invert = false;
        else if (sp_word(p, "sa$mplen")) st = sp_real(p, &k.samplen);
        else if (sp_word(p, "sp$acing")) st = sp_real(p, &k.spacing);
        else if (sp_word(p, "w$idth") || sp_word(p, "h$eight")) {
            double d = 0;
            st = sp_real(p, &d);
        }
        else if (sp_word(p, "maxc$olumns") || sp_word(p, "maxr$ows")) {
            int n = 0;
            if (!sp_word(p, "a$uto")) st = sp_int(p, &n);
        }
        else if (sp_word(p, "font")) {
            char *f = NULL;
            st = sp_string(p, &f);
            free(f);
        }
        else if (sp_word(p, "tc") || sp_word(p, "textc$olor")) {
            pv_color col;
            st = parse_color(p, &col);
        }
        else if (sp_word(p, "tit$le")) {
            title_set = true;
            if (sp_can_expr(p) && pv_cur_peek(p->c)->kind != PV_TK_NAME) st = sp_string(p, &k.title);
            else if (sp_can_expr(p) && !is_text_keyword(p)) st = sp_string(p, &k.title);
        }
        else if (sp_word(p, "notit$le")) title_set = true;
        else if (sp_word(p, "box$ed")) {
            k.box = true;
            pv_lp lp = pv_lp_default();
            st = parse_lp(p, &lp);
        }
        else if (sp_word(p, "nobox$ed")) k.box = false;
        else st = sp_err(p, PV_ESYNTAX, "unknown key option");
    }
    if (st != PV_OK || !p->exec) {
        free(k.title);
        return st;
    }
    if (title_set) {
        free(s->key.title);
    } else {
        k.title = s->key.title;
    }
    s->key = k;
    return PV_OK;
}

static pv_status unset_key(pv_sp *p)
{
    if (p->exec) p->s->key.on = false;
    return sp_expect_end(p);
}

static pv_status set_colorbox(pv_sp *p)
{
    pv_colorbox cb = p->s->colorbox;
    cb.on = true;
    pv_status st = PV_OK;
    while (st == PV_OK && !sp_end(p)) {
        if (sp_word(p, "v$ertical")) cb.vertical = true;
        else if (sp_word(p, "h$orizontal")) cb.vertical = false;
        else if (sp_word(p, "inv$ert") || sp_word(p, "noinv$ert")) { /* stored nowhere */ }
        else if (sp_word(p, "def$ault")) cb.user = false;
        else if (sp_word(p, "u$ser")) cb.user = true;
        else if (sp_word(p, "o$rigin")) {
            double xyz[3] = {cb.origin[0], cb.origin[1], 0};
            st = parse_position(p, xyz);
            cb.origin[0] = xyz[0], cb.origin[1] = xyz[1], cb.user = true;
        } else if (sp_word(p, "s$ize")) {
            double xyz[3] = {cb.size[0], cb.size[1], 0};
            st = parse_position(p, xyz);
            cb.size[0] = xyz[0], cb.size[1] = xyz[1], cb.user = true;
        } else if (sp_word(p, "fr$ont")) cb.front = true;
        else if (sp_word(p, "ba$ck")) cb.front = false;
        else if (sp_word(p, "nobo$rder")) cb.border = false;
        else if (sp_word(p, "bd$efault")) cb.border = true;
        else if (sp_word(p, "bo$rder")) {
            cb.border = true;
            if (sp_can_expr(p)) {
                int lt = 0;
                st = sp_int(p, &lt);
            }
        } else if (sp_word(p, "cbtics")) {
            char *txt = NULL;
            st = sp_string(p, &txt);
            free(txt);
        } else st = sp_err(p, PV_ESYNTAX, "invalid colorbox option");
    }
    if (st == PV_OK && p->exec) p->s->colorbox = cb;
    return st;
}

static pv_status unset_colorbox(pv_sp *p)
{
    if (p->exec) p->s->colorbox.on = false;
    return sp_expect_end(p);
}

/* =====================================================================================
 * Palette
 * ===================================================================================== */

static pv_status palette_defined(pv_sp *p, pv_palette *pal)
{
    if (!sp_op(p, "(")) {
        /* gnuplot's default gradient for a bare `set palette defined` */
        static const pv_grad_point def[] = {
            {0.0, 0.05, 0.05, 0.2}, {0.1, 0, 0, 1},  {0.25, 0.7, 0.85, 0.9}, {0.4, 0, 0.75, 0},
            {0.5, 1, 1, 0},        {0.7, 1, 0, 0}, {0.9, 0.6, 0.6, 0.6},   {1.0, 0.95, 0.95, 0.95}};
        if (!p->exec) return PV_OK;
        pv_palette_fini(pal);
        pal->grad = malloc(sizeof def);
        if (!pal->grad) return pv_err(p->c->ctx, PV_ENOMEM, "out of memory");
        memcpy(pal->grad, def, sizeof def);
        pal->ngrad = (int)(sizeof def / sizeof def[0]);
        pal->kind = PV_PAL_DEFINED;
        return PV_OK;
    }
    pv_grad_point *g = NULL;
    int n = 0, cap = 0;
    pv_status st = PV_OK;
    size_t first_at = pv_cur_offset(p->c);
    for (;;) {
        if (n == cap) {
            cap = cap ? 2 * cap : 8;
            pv_grad_point *ng = realloc(g, (size_t)cap * sizeof *g);
            if (!ng) {
                free(g);
                return pv_err(p->c->ctx, PV_ENOMEM, "out of memory");
            }
            g = ng;
        }
        pv_grad_point pt = {0, 0, 0, 0};
        size_t at = pv_cur_offset(p->c);
        if ((st = sp_real(p, &pt.pos)) != PV_OK) break;
        if (pv_cur_peek(p->c)->kind == PV_TK_STRING) {
            size_t cat = pv_cur_offset(p->c);
            char *name = NULL;
            if (!p->exec && lone_string(p)) {
                uint32_t tmp;
                const char *lit = pv_cur_peek(p->c)->sval;
                bool ok = lit[0] == '#' || (lit[0] == '0' && lit[1] == 'x')
                              ? pv_color_parse_string(lit, &tmp) : false;
                if (!ok) {
                    for (int k = 0; k < pv_color_count(); k++)
                        if (strcmp(pv_color_at(k, NULL), lit) == 0) ok = true;
                }
                if (!ok) {
                    st = sp_err(p, PV_ESCRIPT, "unknown color name");
                    break;
                }
            }
            if ((st = sp_string(p, &name)) != PV_OK) break;
            if (p->exec) {
                uint32_t rgb = 0;
                bool ok = false;
                if (name[0] == '#' || (name[0] == '0' && name[1] == 'x'))
                    ok = pv_color_parse_string(name, &rgb);
                else
                    for (int k = 0; k < pv_color_count(); k++)
                        if (strcmp(pv_color_at(k, &rgb), name) == 0) {
                            ok = true;
                            break;
                        }
                free(name);
                if (!ok) {
                    st = pv_source_error(p->c->ctx, PV_ESCRIPT, p->c->tl->src, cat,
                                         "unknown color name");
                    break;
                }
                pt.r = (double)((rgb >> 16) & 255u) / 255.0;
                pt.g = (double)((rgb >> 8) & 255u) / 255.0;
                pt.b = (double)(rgb & 255u) / 255.0;
            }
        } else {
            if ((st = sp_real(p, &pt.r)) != PV_OK) break;
            if ((st = sp_real(p, &pt.g)) != PV_OK) break;
            if ((st = sp_real(p, &pt.b)) != PV_OK) break;
        }
        if (p->exec && n > 0 && pt.pos < g[n - 1].pos) {
            st = pv_source_error(p->c->ctx, PV_ESCRIPT, p->c->tl->src, at,
                                 "palette gradient not monotonic");
            break;
        }
        g[n++] = pt;
        if (sp_op(p, ")")) break;
        if (!sp_op(p, ",")) {
            st = sp_err(p, PV_ESYNTAX, "expected comma");
            break;
        }
    }
    if (st == PV_OK && n < 2)
        st = pv_source_error(p->c->ctx, PV_ESYNTAX, p->c->tl->src, first_at,
                             "invalid palette syntax");
    if (st != PV_OK || !p->exec) {
        free(g);
        return st;
    }
    double lo = g[0].pos, hi = g[n - 1].pos;
    for (int k = 0; k < n; k++) g[k].pos = hi > lo ? (g[k].pos - lo) / (hi - lo) : (k ? 1.0 : 0.0);
    pv_palette_fini(pal);
    pal->grad = g;
    pal->ngrad = n;
    pal->kind = PV_PAL_DEFINED;
    return PV_OK;
}

static pv_status set_palette(pv_sp *p)
{
    pv_palette pal = p->s->palette; /* shallow: grad stays owned by the settings */
    pv_grad_point *newg = NULL;     /* a new gradient from `defined`, owned here */
    int newn = 0;
    bool to_default = sp_end(p);
    pv_status st = PV_OK;
    while (st == PV_OK && !sp_end(p)) {
        size_t at = pv_cur_offset(p->c);
        if (sp_word(p, "gray") || sp_word(p, "grey")) pal.gray = true;
        else if (sp_word(p, "col$or") || sp_word(p, "colour")) pal.gray = false;
        else if (sp_word(p, "pos$itive")) pal.negative = false;
        else if (sp_word(p, "neg$ative")) pal.negative = true;
        else if (sp_word(p, "nops_allcF") || sp_word(p, "ps_allcF")) { /* postscript only */ }
        else if (sp_word(p, "ga$mma")) {
            st = sp_real(p, &pal.gamma);
            if (st == PV_OK && p->exec && !(pal.gamma > 0))
                st = pv_source_error(p->c->ctx, PV_ESCRIPT, p->c->tl->src, at,
                                     "gamma must be > 0");
        } else if (sp_word(p, "maxc$olors")) {
            st = sp_int(p, &pal.maxcolors);
            if (st == PV_OK && p->exec && pal.maxcolors < 0)
                st = pv_source_error(p->c->ctx, PV_ESCRIPT, p->c->tl->src, at,
                                     "non-negative number required");
        } else if (sp_word(p, "rgb$formulae")) {
            int f[3] = {pal.formulae[0], pal.formulae[1], pal.formulae[2]};
            st = sp_int(p, &f[0]);
            if (st == PV_OK && !sp_op(p, ",")) st = sp_err(p, PV_ESYNTAX, "',' expected");
            if (st == PV_OK) st = sp_int(p, &f[1]);
            if (st == PV_OK && !sp_op(p, ",")) st = sp_err(p, PV_ESYNTAX, "',' expected");
            if (st == PV_OK) st = sp_int(p, &f[2]);
            for (int k = 0; st == PV_OK && p->exec && k < 3; k++)
                if (f[k] < -36 || f[k] > 36)
                    st = pv_source_error(p->c->ctx, PV_ESCRIPT, p->c->tl->src, at,
                                         "color formulae must be in [-36:36]");
            if (st == PV_OK) {
                memcpy(pal.formulae, f, sizeof f);
                pal.kind = PV_PAL_RGBFORMULAE;
                pal.gray = false;
            }
        } else if (sp_word(p, "def$ined") || sp_word(p, "define")) {
            pv_palette tmp;
            memset(&tmp, 0, sizeof tmp);
            st = palette_defined(p, &tmp);
            if (st == PV_OK && p->exec) {
                free(newg);
                newg = tmp.grad;
                newn = tmp.ngrad;
            }
            pal.kind = PV_PAL_DEFINED;
            pal.gray = false;
        } else if (sp_word(p, "cubehelix")) {
            pal.kind = PV_PAL_CUBEHELIX;
            pal.gray = false;
            for (;;) {
                if (sp_word(p, "start")) st = sp_real(p, &pal.ch_start);
                else if (sp_word(p, "cyc$les")) st = sp_real(p, &pal.ch_cycles);
                else if (sp_word(p, "sat$uration")) st = sp_real(p, &pal.ch_saturation);
                else break;
                if (st != PV_OK) break;
            }
        } else if (sp_word(p, "func$tions")) {
            for (int k = 0; k < 3 && st == PV_OK; k++) {
                pv_code *code = NULL;
                st = pv_parse_expr(p->c, &code);
                pv_code_destroy(code);
                if (st == PV_OK && k < 2 && !sp_op(p, ","))
                    st = sp_err(p, PV_ESYNTAX, "expected comma");
            }
            warn_once(p, WARN_PAL_FUNCS, "set palette functions is not supported by pvox: the palette is unchanged");
        } else if (sp_word(p, "file")) {
            warn_once(p, WARN_PAL_FILE, "set palette file is not supported by pvox: the palette is unchanged");
            sp_skip_rest(p);
        } else if (sp_word(p, "mo$del")) {
            if (sp_word(p, "RGB")) pal.model = 0;
            else if (sp_word(p, "HSV")) pal.model = 1;
            else if (sp_word(p, "CMY")) pal.model = 2;
            else if (sp_word(p, "XYZ")) pal.model = 3;
            else st = sp_err(p, PV_ESYNTAX, "unknown color model");
            if (st == PV_OK && sp_word(p, "start")) {
                double d = 0;
                st = sp_real(p, &d);
            }
        } else st = sp_err(p, PV_ESYNTAX, "invalid palette option");
    }
    if (st != PV_OK || !p->exec) {
        free(newg);
        return st;
    }
    pv_palette *dst = &p->s->palette;
    if (to_default) {
        pv_palette_fini(dst);
        pv_palette_default(dst);
        return PV_OK;
    }
    if (pal.kind == PV_PAL_DEFINED && !newg && !dst->grad) {
        /* `defined` without a list on a palette that never had one: built in exec above */
    }
    if (newg) {
        free(dst->grad);
        pal.grad = newg;
        pal.ngrad = newn;
    }
    *dst = pal;
    return PV_OK;
}

static pv_status unset_palette(pv_sp *p)
{
    /* gnuplot 5.4 has no `unset palette` effect beyond a message; pvox resets it */
    if (p->exec) {
        pv_palette_fini(&p->s->palette);
        pv_palette_default(&p->s->palette);
    }
    return sp_expect_end(p);
}

/* =====================================================================================
 * Styles: fill, data/function, line, linetype
 * ===================================================================================== */

static pv_status parse_style_name(pv_sp *p, pv_plot_style *out)
{
    static const struct { const char *pat; pv_plot_style st; } names[] = {
        {"l$ines", PV_STYLE_LINES},       {"p$oints", PV_STYLE_POINTS},
        {"linesp$oints", PV_STYLE_LINESPOINTS}, {"lp", PV_STYLE_LINESPOINTS},
        {"d$ots", PV_STYLE_DOTS},         {"i$mpulses", PV_STYLE_IMPULSES},
        {"pm$3d", PV_STYLE_PM3D},         {"su$rface", PV_STYLE_SURFACE},
        {"isosurface", PV_STYLE_ISOSURFACE},
    };
    static const char *const other[] = {
        "boxes", "boxerrorbars", "boxxyerror", "boxplot", "candlesticks", "circles", "ellipses",
        "errorbars", "errorlines", "filledcurves", "fillsteps", "financebars", "fsteps",
        "histeps", "histograms", "image", "labels", "parallelaxes", "rgbalpha", "rgbimage",
        "spiderplot", "steps", "vectors", "xerrorbars", "xerrorlines", "xyerrorbars",
        "xyerrorlines", "yerrorbars", "yerrorlines", "zerrorfill", "table", "polygons"};
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
        if (sp_isword(p, names[k].pat)) {
            /* "lines" vs "linespoints": the longer full word wins */
            if (names[k].st == PV_STYLE_LINES && sp_isword(p, "linesp$oints")) continue;
            pv_cur_next(p->c);
            *out = names[k].st;
            return PV_OK;
        }
    }
    if (pv_cur_peek(p->c)->kind == PV_TK_NAME) {
        const char *w = pv_cur_peek(p->c)->sval;
        for (size_t k = 0; k < sizeof other / sizeof other[0]; k++)
            if (strlen(w) >= 3 && strncmp(w, other[k], strlen(w)) == 0) {
                pv_cur_next(p->c);
                *out = PV_STYLE_OTHER;
                return PV_OK;
            }
    }
    return sp_err(p, PV_ESYNTAX, "unrecognized plot type");
}

static pv_status set_style_fill(pv_sp *p)
{
    pv_fill f = p->s->fill;
    bool transparent = false, density_given = false, kind_given = false;
    pv_status st = PV_OK;
    while (st == PV_OK && !sp_end(p)) {
        if (sp_word(p, "e$mpty")) {
            f.kind = PV_FILL_EMPTY;
            kind_given = true;
        } else if (sp_word(p, "tr$ansparent")) {
            transparent = true;
        } else if (sp_word(p, "s$olid")) {
            f.kind = PV_FILL_SOLID;
            kind_given = true;
            f.density = 1.0;
            if (sp_can_expr(p) && pv_cur_peek(p->c)->kind != PV_TK_NAME) {
                density_given = true;
                st = sp_real(p, &f.density);
            }
        } else if (sp_word(p, "p$attern")) {
            f.kind = PV_FILL_PATTERN;
            kind_given = true;
            if (sp_can_expr(p) && pv_cur_peek(p->c)->kind != PV_TK_NAME) st = sp_int(p, &f.pattern);
        } else if (sp_word(p, "nobo$rder")) {
            f.border = false;
        } else if (sp_word(p, "bo$rder")) {
            f.border = true;
            f.border_color.kind = PV_COLOR_DEFAULT;
            if (sp_word(p, "lt") || sp_word(p, "linet$ype")) {
                f.border_color.kind = PV_COLOR_LT;
                st = sp_int(p, &f.border_color.lt);
                if (st == PV_OK && f.border_color.lt < 0) f.border_color.kind = PV_COLOR_BLACK;
            } else if (sp_word(p, "lc") || sp_word(p, "linec$olor")) {
                st = parse_color(p, &f.border_color);
            } else if (sp_can_expr(p) && pv_cur_peek(p->c)->kind != PV_TK_NAME) {
                f.border_color.kind = PV_COLOR_LT;
                st = sp_int(p, &f.border_color.lt);
                if (st == PV_OK && f.border_color.lt < 0) f.border_color.kind = PV_COLOR_BLACK;
            }
        } else st = sp_unexpected(p);
    }
    if (st != PV_OK || !p->exec) return st;
    /* gnuplot 5.4.4: `transparent` alone or without a density means solid 0.5; a new
     * `solid`/`pattern` without `transparent` is opaque */
    if (transparent) {
        if (!kind_given || f.kind == PV_FILL_EMPTY) f.kind = PV_FILL_SOLID;
        if (f.kind == PV_FILL_SOLID && !density_given) f.density = 0.5;
        f.transparent = true;
    } else if (kind_given) {
        f.transparent = false;
    }
    f.density = f.density < 0 ? 0 : f.density > 1 ? 1 : f.density;
    p->s->fill = f;
    return PV_OK;
}

static pv_status set_style(pv_sp *p)
{
    pv_status st;
    if (sp_word(p, "d$ata")) {
        pv_plot_style ps = PV_STYLE_POINTS;
        if ((st = parse_style_name(p, &ps)) != PV_OK) return st;
        if (p->exec) p->s->style_data = ps;
        return sp_expect_end(p);
    }
    if (sp_word(p, "f$unction")) {
        pv_plot_style ps = PV_STYLE_LINES;
        if ((st = parse_style_name(p, &ps)) != PV_OK) return st;
        if (p->exec) p->s->style_function = ps;
        return sp_expect_end(p);
    }
    if (sp_word(p, "fi$ll")) return set_style_fill(p);
    if (sp_word(p, "l$ine")) return set_lp_tag(p, false);
    static const char *const others[] = {"arrow", "boxplot", "circle", "ellipse", "histogram",
                                         "increment", "rectangle", "textbox", "parallelaxis",
                                         "spiderplot", "watchpoint"};
    const pv_token *t = pv_cur_peek(p->c);
    if (t->kind == PV_TK_NAME) {
        for (size_t k = 0; k < sizeof others / sizeof others[0]; k++) {
            if (strlen(t->sval) >= 2 && strncmp(t->sval, others[k], strlen(t->sval)) == 0) {
                char msg[96];
                snprintf(msg, sizeof msg, "set style %s is ignored: pvox does not draw it",
                         others[k]);
                warn_once(p, WARN_STYLE_OTHER + (int)k, msg);
                sp_skip_rest(p);
                return PV_OK;
            }
        }
    }
    return sp_err(p, PV_ESYNTAX, "unrecognized option - see 'help set style'");
}

static pv_status unset_style(pv_sp *p)
{
    pv_settings *s = p->s;
    if (sp_word(p, "l$ine")) return unset_lp_tag(p, false);
    if (sp_word(p, "fi$ll")) {
        if (p->exec) {
            memset(&s->fill, 0, sizeof s->fill);
            s->fill.density = 1.0;
            s->fill.border = true;
        }
        return sp_expect_end(p);
    }
    if (sp_word(p, "d$ata")) {
        if (p->exec) s->style_data = PV_STYLE_POINTS;
        return sp_expect_end(p);
    }
    if (sp_word(p, "f$unction")) {
        if (p->exec) s->style_function = PV_STYLE_LINES;
        return sp_expect_end(p);
    }
    sp_skip_rest(p);
    return PV_OK;
}

static pv_status set_linetype(pv_sp *p) { return set_lp_tag(p, true); }
static pv_status unset_linetype(pv_sp *p) { return unset_lp_tag(p, true); }

/* =====================================================================================
 * pm3d, samples, isosamples, isosurface, jitter, hidden3d
 * ===================================================================================== */

static pv_status set_pm3d(pv_sp *p)
{
    pv_pm3d m = p->s->pm3d;
    /* gnuplot 5.4.4: a bare `set pm3d` and `set pm3d at ...` make pm3d implicit */
    if (sp_end(p)) m.implicit = true;
    pv_status st = PV_OK;
    while (st == PV_OK && !sp_end(p)) {
        size_t at = pv_cur_offset(p->c);
        if (sp_word(p, "at")) {
            const pv_token *t = pv_cur_peek(p->c);
            if (t->kind != PV_TK_NAME || strlen(t->sval) >= sizeof m.at ||
                strspn(t->sval, "bst") != strlen(t->sval))
                st = sp_err(p, PV_ESYNTAX, "parameter to 'pm3d at' requires combination of up to 6 characters b,s or t");
            else {
                strcpy(m.at, t->sval);
                m.implicit = true;
                pv_cur_next(p->c);
            }
        } else if (sp_word(p, "map")) strcpy(m.at, "b");
        else if (sp_word(p, "i$nterpolate")) {
            st = sp_int(p, &m.interp[0]);
            if (st == PV_OK && !sp_op(p, ",")) st = sp_err(p, PV_ESYNTAX, "',' expected");
            if (st == PV_OK) st = sp_int(p, &m.interp[1]);
        } else if (sp_word(p, "scansa$utomatic")) m.scans = 0;
        else if (sp_word(p, "scansf$orward")) m.scans = 1;
        else if (sp_word(p, "scansb$ackward")) m.scans = 2;
        else if (sp_word(p, "depth$order")) {
            m.depthorder = true;
            m.scans = 3;
            m.depthorder_base = sp_word(p, "base");
        } else if (sp_word(p, "fl$ush")) {
            if (!sp_word(p, "b$egin") && !sp_word(p, "c$enter") && !sp_word(p, "e$nd"))
                st = sp_err(p, PV_ESYNTAX, "expecting flush 'begin', 'center' or 'end'");
        } else if (sp_word(p, "ftr$iangles")) m.ftriangles = true;
        else if (sp_word(p, "noftr$iangles")) m.ftriangles = false;
        else if (sp_word(p, "clip1$in") || sp_word(p, "clip4$in")) m.clip_z = false;
        else if (sp_word(p, "clip")) {
            m.clip_z = true;
            sp_word(p, "z");
        } else if (sp_word(p, "clipcb") || sp_word(p, "noclipcb")) { /* stored nowhere */ }
        else if (sp_word(p, "c2c") || sp_word(p, "corners2c$olor")) {
            static const char *const c2c[] = {"mean", "geomean", "harmean", "rms", "median",
                                              "min", "max", "c1", "c2", "c3", "c4"};
            size_t k = 0;
            for (; k < sizeof c2c / sizeof c2c[0]; k++)
                if (sp_word(p, c2c[k])) break;
            if (k == sizeof c2c / sizeof c2c[0])
                st = sp_err(p, PV_ESYNTAX, "expecting 'mean', 'geomean', 'harmean', 'median', 'min', 'max', 'c1', 'c2', 'c3' or 'c4'");
            else m.corners2color = (pv_c2c)k;
        } else if (sp_word(p, "light$ing")) {
            m.lighting = true;
            for (;;) {
                if (sp_word(p, "primary")) st = sp_real(p, &m.primary);
                else if (sp_word(p, "spec$ular")) st = sp_real(p, &m.specular);
                else if (sp_word(p, "spec2")) st = sp_real(p, &m.spec2);
                else break;
                if (st != PV_OK) break;
            }
            if (p->exec) {
                m.primary = m.primary < 0 ? 0 : m.primary > 1 ? 1 : m.primary;
                m.specular = m.specular < 0 ? 0 : m.specular > 1 ? 1 : m.specular;
                m.spec2 = m.spec2 < 0 ? 0 : m.spec2 > 1 ? 1 : m.spec2;
            }
        } else if (sp_word(p, "nolight$ing")) m.lighting = false;
        else if (sp_word(p, "bo$rder")) {
            m.border_on = true;
            pv_lp lp = m.border;
            st = parse_lp(p, &lp);
            m.border = lp;
        } else if (sp_word(p, "nobo$rder")) m.border_on = false;
        else if (sp_word(p, "hi$dden3d")) {
            int lt = 0;
            st = sp_int(p, &lt);
        } else if (sp_word(p, "nohi$dden3d")) { /* stored nowhere */ }
        else if (sp_word(p, "impl$icit")) m.implicit = true;
        else if (sp_word(p, "expl$icit")) m.implicit = false;
        else if (sp_word(p, "noexpl$icit") || sp_word(p, "noimpl$icit")) m.implicit = !m.implicit;
        else {
            (void)at;
            st = sp_err(p, PV_ESYNTAX, "invalid pm3d option");
        }
    }
    if (st == PV_OK && p->exec) p->s->pm3d = m;
    return st;
}

static pv_status unset_pm3d(pv_sp *p)
{
    if (p->exec) {
        p->s->pm3d.implicit = false;
        strcpy(p->s->pm3d.at, "s");
    }
    sp_skip_rest(p);
    return PV_OK;
}

static pv_status two_counts(pv_sp *p, int out[2])
{
    size_t at = pv_cur_offset(p->c);
    int a = out[0], b = -1;
    pv_status st = sp_int(p, &a);
    if (st == PV_OK && sp_op(p, ",")) st = sp_int(p, &b);
    if (st == PV_OK && !sp_end(p)) st = sp_err(p, PV_ESYNTAX, "',' expected");
    if (st != PV_OK || !p->exec) return st;
    if (b < 0) b = a;
    if (a < 2 || b < 2)
        return pv_source_error(p->c->ctx, PV_ESCRIPT, p->c->tl->src, at,
                               "sampling rate must be > 1; sampling unchanged");
    out[0] = a;
    out[1] = b;
    return PV_OK;
}

static pv_status set_samples(pv_sp *p) { return two_counts(p, p->s->samples); }
static pv_status set_isosamples(pv_sp *p) { return two_counts(p, p->s->isosamples); }
static pv_status unset_samples(pv_sp *p)
{
    if (p->exec) p->s->samples[0] = p->s->samples[1] = 100;
    return sp_expect_end(p);
}
static pv_status unset_isosamples(pv_sp *p)
{
    if (p->exec) p->s->isosamples[0] = p->s->isosamples[1] = 10;
    return sp_expect_end(p);
}

static pv_status set_isosurface(pv_sp *p)
{
    bool tri = p->s->iso_triangles;
    int off = p->s->iso_inside_offset;
    pv_status st = PV_OK;
    /* gnuplot 5.4.4 takes exactly one keyword per statement */
    if (sp_word(p, "mix$ed")) tri = false;
    else if (sp_word(p, "tri$angles")) tri = true;
    else if (sp_word(p, "noin$sidecolor")) off = 0;
    else if (sp_word(p, "in$sidecolor")) {
        off = 1;
        if (sp_can_expr(p)) st = sp_int(p, &off);
    } else return sp_err(p, PV_ESYNTAX, "unrecognized option");
    if (st == PV_OK && !sp_end(p)) st = sp_err(p, PV_ESYNTAX, "unrecognized option");
    if (st == PV_OK && p->exec) {
        p->s->iso_triangles = tri;
        p->s->iso_inside_offset = off;
    }
    return st;
}

static pv_status unset_isosurface(pv_sp *p)
{
    if (p->exec) {
        p->s->iso_triangles = false;
        p->s->iso_inside_offset = 1;
    }
    sp_skip_rest(p);
    return PV_OK;
}

static pv_status set_jitter(pv_sp *p)
{
    pv_jitter j = p->s->jitter;
    j.on = true;
    j.spread = 1.0;
    j.overlap = 1.0;
    j.wrap = 0.0;
    j.style = 0;
    pv_status st = PV_OK;
    while (st == PV_OK && !sp_end(p)) {
        if (sp_word(p, "over$lap")) {
            static const char *const sys[] = {"first", "second", "gr$aph", "sc$reen", "char$acter"};
            for (size_t k = 0; k < sizeof sys / sizeof sys[0]; k++)
                if (sp_word(p, sys[k])) break;
            st = sp_real(p, &j.overlap);
        } else if (sp_word(p, "spread")) {
            st = sp_real(p, &j.spread);
        } else if (sp_word(p, "wrap")) {
            st = sp_real(p, &j.wrap);
        } else if (sp_word(p, "swarm")) j.style = 0;
        else if (sp_word(p, "square")) j.style = 1;
        else if (sp_word(p, "vert$ical")) j.style = 2;
        else st = sp_err(p, PV_ESYNTAX, "unrecognized keyword");
    }
    if (st == PV_OK && p->exec) {
        if (!(j.spread > 0.0)) j.spread = 1.0;
        p->s->jitter = j;
    }
    return st;
}

static pv_status unset_jitter(pv_sp *p)
{
    if (p->exec) p->s->jitter.on = false;
    return sp_expect_end(p);
}

/* hidden3d options only shape gnuplot's hidden-line removal: accepted, not stored. */
static pv_status set_hidden3d(pv_sp *p)
{
    if (p->exec) p->s->hidden3d = true;
    sp_skip_rest(p);
    return PV_OK;
}

static pv_status unset_hidden3d(pv_sp *p)
{
    if (p->exec) p->s->hidden3d = false;
    return sp_expect_end(p);
}

/* =====================================================================================
 * Single values and flags
 * ===================================================================================== */

static pv_status positive_or_one(pv_sp *p, double *dst)
{
    double v = 1.0;
    pv_status st = PV_OK;
    if (!sp_end(p)) st = sp_real(p, &v);
    if (st == PV_OK) st = sp_expect_end(p);
    if (st == PV_OK && p->exec) *dst = v > 0.0 ? v : 1.0;
    return st;
}
static pv_status set_pointsize(pv_sp *p) { return positive_or_one(p, &p->s->pointsize); }
static pv_status set_pointintervalbox(pv_sp *p) { return positive_or_one(p, &p->s->pointintervalbox); }
static pv_status unset_pointsize(pv_sp *p)
{
    if (p->exec) p->s->pointsize = 1.0;
    return sp_expect_end(p);
}
static pv_status unset_pointintervalbox(pv_sp *p)
{
    if (p->exec) p->s->pointintervalbox = 1.0;
    return sp_expect_end(p);
}

static pv_status set_flag(pv_sp *p, bool *dst, bool v)
{
    pv_status st = sp_expect_end(p);
    if (st == PV_OK && p->exec) *dst = v;
    return st;
}
static pv_status set_parametric(pv_sp *p)
{
    warn_once(p, WARN_PARAMETRIC, "set parametric is stored but pvox plots only data and grids");
    return set_flag(p, &p->s->parametric, true);
}
static pv_status unset_parametric(pv_sp *p) { return set_flag(p, &p->s->parametric, false); }
static pv_status set_polar(pv_sp *p)
{
    warn_once(p, WARN_POLAR, "set polar is stored but pvox draws 3D plots only");
    return set_flag(p, &p->s->polar, true);
}
static pv_status unset_polar(pv_sp *p) { return set_flag(p, &p->s->polar, false); }
static pv_status set_surface(pv_sp *p)
{
    (void)(sp_word(p, "impl$icit") || sp_word(p, "expl$icit"));
    return set_flag(p, &p->s->surface, true);
}
static pv_status unset_surface(pv_sp *p) { return set_flag(p, &p->s->surface, false); }
static pv_status set_macros(pv_sp *p) { return set_flag(p, &p->s->macros, true); }
static pv_status unset_macros(pv_sp *p) { return set_flag(p, &p->s->macros, true); }

static pv_status set_angles(pv_sp *p)
{
    bool deg = false;
    if (sp_word(p, "d$egrees")) deg = true;
    else if (!sp_end(p) && !sp_word(p, "r$adians"))
        return sp_err(p, PV_ESYNTAX, "expecting 'radians' or 'degrees'");
    return set_flag(p, &p->s->angles_degrees, deg);
}
static pv_status unset_angles(pv_sp *p) { return set_flag(p, &p->s->angles_degrees, false); }

static pv_status set_dummy(pv_sp *p)
{
    char names[2][32];
    memcpy(names, p->s->dummy, sizeof names);
    for (int k = 0; k < 2 && !sp_end(p); k++) {
        if (sp_op(p, ",")) continue;
        const pv_token *t = pv_cur_peek(p->c);
        if (t->kind != PV_TK_NAME) return sp_err(p, PV_ESYNTAX, "set dummy: expecting a variable name");
        snprintf(names[k], sizeof names[k], "%s", t->sval);
        pv_cur_next(p->c);
        if (!sp_op(p, ",")) break;
    }
    sp_skip_rest(p); /* gnuplot accepts and ignores further names */
    if (p->exec) memcpy(p->s->dummy, names, sizeof names);
    return PV_OK;
}
static pv_status unset_dummy(pv_sp *p)
{
    if (p->exec) {
        strcpy(p->s->dummy[0], "x");
        strcpy(p->s->dummy[1], "y");
    }
    return sp_expect_end(p);
}

static pv_status set_datafile(pv_sp *p)
{
    pv_settings *s = p->s;
    pv_status st = PV_OK;
    if (sp_word(p, "sep$arators")) {
        char sep = 0;
        if (sp_end(p) || sp_word(p, "white$space")) sep = 0;
        else if (sp_word(p, "tab")) sep = '\t';
        else if (sp_word(p, "comma")) sep = ',';
        else {
            char *str = NULL;
            if ((st = sp_string(p, &str)) != PV_OK) return st;
            if (str) sep = str[0] == '\\' && str[1] == 't' ? '\t' : str[0];
            free(str);
        }
        if (p->exec) s->datafile.separator = sep;
        return sp_expect_end(p);
    }
    if (sp_word(p, "miss$ing")) {
        char *str = NULL;
        if (sp_word(p, "NaN")) {
            str = sp_strdup("NaN");
        } else if (!sp_end(p) && (st = sp_string(p, &str)) != PV_OK) {
            return st;
        }
        if (p->exec) {
            free(s->datafile.missing);
            s->datafile.missing = str;
        } else free(str);
        return sp_expect_end(p);
    }
    if (sp_word(p, "com$mentschars")) {
        char *str = sp_strdup("#");
        if (!sp_end(p) && (st = sp_string(p, &str)) != PV_OK) {
            free(str);
            return st;
        }
        if (p->exec) {
            free(s->datafile.commentschars);
            s->datafile.commentschars = str;
        } else free(str);
        return sp_expect_end(p);
    }
    if (sp_word(p, "fortran") || sp_word(p, "nofortran") || sp_word(p, "fpe_trap") ||
        sp_word(p, "nofpe_trap") || sp_word(p, "columnhead$ers") ||
        sp_word(p, "nocolumnhead$ers") || sp_word(p, "bin$ary") || sp_word(p, "noext$end")) {
        sp_skip_rest(p);
        return PV_OK;
    }
    return sp_err(p, PV_ESYNTAX, "expecting datafile modifier");
}

static pv_status unset_datafile(pv_sp *p)
{
    pv_settings *s = p->s;
    bool all = sp_end(p);
    bool sep = all || sp_word(p, "sep$arators");
    bool miss = all || sp_word(p, "miss$ing");
    bool com = all || sp_word(p, "com$mentschars");
    if (!sep && !miss && !com) {
        sp_skip_rest(p);
        return PV_OK;
    }
    if (p->exec) {
        if (sep) s->datafile.separator = 0;
        if (miss) {
            free(s->datafile.missing);
            s->datafile.missing = NULL;
        }
        if (com) sp_setstr(&s->datafile.commentschars, "#");
    }
    return sp_expect_end(p);
}

/* =====================================================================================
 * Terminal and output (decision 10)
 * ===================================================================================== */

static void term_reset(pv_term *t, pv_term_kind kind)
{
    free(t->font);
    free(t->font_name);
    memset(t, 0, sizeof *t);
    t->kind = kind;
    t->width = 640;
    t->height = 480;
    t->fontscale = 1.0;
    t->background = 0xFFFFFFu;
    t->enhanced = true;
    t->linewidth = 1.0;
}

static void split_font(pv_term *t)
{
    free(t->font_name);
    t->font_name = NULL;
    t->font_size = 0.0;
    if (!t->font) return;
    const char *comma = strchr(t->font, ',');
    size_t n = comma ? (size_t)(comma - t->font) : strlen(t->font);
    if (n > 0) {
        t->font_name = malloc(n + 1);
        if (t->font_name) {
            memcpy(t->font_name, t->font, n);
            t->font_name[n] = '\0';
        }
    }
    if (comma) t->font_size = atof(comma + 1);
}

static double size_unit(pv_sp *p)
{
    if (sp_word(p, "in")) return 72.0;
    if (sp_word(p, "cm")) return 72.0 / 2.54;
    sp_word(p, "px");
    return 1.0;
}

static pv_status term_size(pv_sp *p, int *w, int *h)
{
    double dw = *w, dh = *h;
    size_t at = pv_cur_offset(p->c);
    pv_status st = sp_real(p, &dw);
    if (st != PV_OK) return st;
    double unit = size_unit(p);
    if (sp_op(p, ",")) {
        if ((st = sp_real(p, &dh)) != PV_OK) return st;
        unit = size_unit(p);
    }
    if (!p->exec) return PV_OK;
    dw *= unit, dh *= unit;
    if (!(dw >= 1.0 && dh >= 1.0 && dw <= 65535.0 && dh <= 65535.0))
        return pv_source_error(p->c->ctx, PV_ESCRIPT, p->c->tl->src, at,
                               "terminal size must be between 1 and 65535 pixels");
    *w = (int)dw, *h = (int)dh;
    return PV_OK;
}

static bool legacy_color(pv_sp *p)
{
    const pv_token *tk = pv_cur_peek(p->c);
    if (sp_end(p) || tk->kind != PV_TK_NAME || tk->sval[0] != 'x' || strlen(tk->sval) != 7)
        return false;
    return strspn(tk->sval + 1, "0123456789abcdefABCDEF") == 6;
}

static pv_status term_options(pv_sp *p, pv_term *t)
{
    pv_status st = PV_OK;
    while (st == PV_OK && !sp_end(p)) {
        if (sp_word(p, "si$ze")) st = term_size(p, &t->width, &t->height);
        else if (sp_word(p, "font") || sp_word(p, "fn")) st = sp_string(p, &t->font);
        else if (sp_word(p, "fontscale")) st = sp_real(p, &t->fontscale);
        else if (sp_word(p, "backg$round")) {
            uint32_t argb = t->background;
            sp_word(p, "rgb$color");
            st = parse_rgb_value(p, &argb);
            if (st == PV_OK) t->background = argb & 0xFFFFFFu;
        } else if (sp_word(p, "transp$arent")) t->transparent = true;
        else if (sp_word(p, "notransp$arent")) t->transparent = false;
        else if (sp_word(p, "enh$anced")) t->enhanced = true;
        else if (sp_word(p, "noenh$anced")) t->enhanced = false;
        else if (sp_word(p, "crop")) t->crop = true;
        else if (sp_word(p, "nocrop")) t->crop = false;
        else if (sp_word(p, "true$color")) t->truecolor = true;
        else if (sp_word(p, "notrue$color")) t->truecolor = false;
        else if (sp_word(p, "lw") || sp_word(p, "linew$idth")) st = sp_real(p, &t->linewidth);
        else if (sp_word(p, "dl") || sp_word(p, "dashl$ength") || sp_word(p, "pointscale") ||
                 sp_word(p, "ps")) {
            double d = 0;
            st = sp_real(p, &d);
        } else if (sp_word(p, "mono$chrome") || sp_word(p, "col$or") || sp_word(p, "colour") ||
                   sp_word(p, "rounded") || sp_word(p, "butt") || sp_word(p, "square") ||
                   sp_word(p, "interlace") || sp_word(p, "nointerlace") || sp_word(p, "tiny") ||
                   sp_word(p, "small") || sp_word(p, "medium") || sp_word(p, "large") ||
                   sp_word(p, "giant") || sp_word(p, "dashed") || sp_word(p, "solid")) {
            /* accepted; nothing pvox draws depends on them */
        } else if (t->kind == PV_TERM_PNG && legacy_color(p)) {
            pv_cur_next(p->c); /* png's old `xRRGGBB` colour list: accepted, unused */
        } else st = sp_err(p, PV_ESYNTAX, "unrecognized terminal option");
    }
    return st;
}

static pv_status set_terminal(pv_sp *p)
{
    pv_settings *s = p->s;
    if (sp_end(p)) {
        if (p->exec)
            pv_msg(p->c->ctx, "\nAvailable terminal types:\n"
                              "           png  PNG images (pvox renders with cairo)\n"
                              "      pngcairo  png terminal based on cairo\n\n");
        return PV_OK;
    }
    if (sp_word(p, "push") || sp_word(p, "pop")) return sp_expect_end(p); /* one terminal */
    pv_term_kind kind;
    if (sp_word(p, "pngc$airo")) kind = PV_TERM_PNGCAIRO;
    else if (sp_word(p, "png")) kind = PV_TERM_PNG;
    else {
        const pv_token *t = pv_cur_peek(p->c);
        if (t->kind == PV_TK_NAME)
            return sp_err(p, PV_ESCRIPT, "terminal '%s' is not supported by pvox; "
                          "supported terminals: png, pngcairo", t->sval);
        return sp_err(p, PV_ESYNTAX, "unknown or ambiguous terminal type; "
                      "supported terminals: png, pngcairo");
    }
    /* parse into a copy; switching the terminal type starts from its defaults */
    pv_term t = s->term;
    t.font = sp_strdup(s->term.font);
    t.font_name = NULL;
    if (kind != s->term.kind) term_reset(&t, kind);
    pv_status st = term_options(p, &t);
    if (st != PV_OK || !p->exec) {
        free(t.font);
        free(t.font_name);
        return st;
    }
    split_font(&t);
    free(s->term.font);
    free(s->term.font_name);
    s->term = t;
    return PV_OK;
}

static pv_status unset_terminal(pv_sp *p)
{
    /* gnuplot: back to the startup terminal, pvox's default (decision 10) */
    if (p->exec) term_reset(&p->s->term, PV_TERM_PNGCAIRO);
    return sp_expect_end(p);
}

static pv_status set_output(pv_sp *p)
{
    char *name = NULL;
    pv_status st = PV_OK;
    if (!sp_end(p)) st = sp_string(p, &name);
    if (st == PV_OK) st = sp_expect_end(p);
    if (st != PV_OK || !p->exec) {
        free(name);
        return st;
    }
    free(p->s->output);
    p->s->output = name && name[0] ? name : NULL;
    if (name && !name[0]) free(name);
    return PV_OK;
}

static pv_status unset_output(pv_sp *p)
{
    if (p->exec) {
        free(p->s->output);
        p->s->output = NULL;
    }
    return sp_expect_end(p);
}

/* =====================================================================================
 * The option table
 * ===================================================================================== */

#define S(pat, name) {pat, PV_OPT_STORED, set_##name, unset_##name, sp_show_##name, NULL}
#define I(pat, why) {pat, PV_OPT_IGNORED, NULL, NULL, NULL, why}
#define X(pat) {pat, PV_OPT_INTERP, NULL, NULL, NULL, NULL}

/* shared show handlers live in settings_show.c */
#define sp_show_ticslevel sp_show_xyplane
#define unset_ticslevel unset_xyplane

static const char no_text[] = "pvox does not draw text annotations";
static const char no_axis2[] = "pvox has no secondary axes";
static const char no_2d[] = "pvox draws 3D plots only";

/* Order matters only where gnuplot's shortest prefixes overlap (none do after probing). */
const pv_opt pv_opts[] = {
    S("an$gles", angles),
    I("ar$row", "pvox does not draw arrows"),
    S("au$toscale", autoscale),
    I("b$ars", "pvox does not draw error bars"),
    I("bmar$gin", "pvox computes its own margins"),
    S("bor$der", border),
    I("boxdepth", "pvox does not draw boxes"),
    I("box$width", "pvox does not draw boxes"),
    I("cbda$ta", "pvox has no time axes"),
    I("cbdti$cs", "pvox has no time axes"),
    S("cbl$abel", cblabel),
    I("cbmti$cs", "pvox does not draw minor tics"),
    S("cbr$ange", cbrange),
    S("cbti$cs", cbtics),
    I("cl$abel", "pvox does not draw contours"),
    I("cli$p", "pvox clips as gnuplot's defaults do"),
    I("cntrl$abel", "pvox does not draw contours"),
    I("cntrp$aram", "pvox does not draw contours"),
    I("color", "pvox always draws in colour"),
    S("colorb$ox", colorbox),
    I("colors$equence", "pvox uses gnuplot's default linetype colours"),
    I("cont$our", "pvox does not draw contours"),
    I("dasht$ype", "pvox draws solid lines"),
    S("dataf$ile", datafile),
    I("dec$imalsign", "pvox prints numbers with a decimal point"),
    I("dg$rid3d", "pvox does not grid scattered data"),
    S("du$mmy", dummy),
    I("enc$oding", "pvox writes UTF-8 text"),
    I("errorbars", "pvox does not draw error bars"),
    I("fit", "pvox has no fit command"),
    I("font$path", "pvox uses the system fonts"),
    I("form$at", "pvox draws tic labels in its own format"),
    I("g$rid", "pvox does not draw grids"),
    S("hid$den3d", hidden3d),
    I("his$tory", "pvox is not interactive"),
    I("historysize", "pvox is not interactive"),
    S("is$osamples", isosamples),
    S("isosurf$ace", isosurface),
    S("jitter", jitter),
    S("k$ey", key),
    I("la$bel", no_text),
    S("linetype", linetype),
    I("link", no_axis2),
    I("lmar$gin", "pvox computes its own margins"),
    I("loa$dpath", "pvox loads files by the given path"),
    I("loc$ale", "pvox uses the C locale"),
    S("log$scale", logscale),
    S("mac$ros", macros),
    I("map$ping", "pvox uses cartesian coordinates"),
    I("mar$gin", "pvox computes its own margins"),
    I("mar$gins", "pvox computes its own margins"),
    I("micro", "pvox prints ASCII text"),
    I("minus$sign", "pvox prints ASCII text"),
    I("mono$chrome", "pvox always draws in colour"),
    I("mo$use", "pvox is not interactive"),
    I("mtt$ics", no_2d),
    I("multi$plot", "pvox draws one plot per image"),
    I("mx2t$ics", no_axis2),
    I("mxt$ics", "pvox does not draw minor tics"),
    I("my2t$ics", no_axis2),
    I("myt$ics", "pvox does not draw minor tics"),
    I("mzt$ics", "pvox does not draw minor tics"),
    I("nonlinear", "pvox draws linear axes"),
    I("obj$ect", "pvox does not draw objects"),
    I("of$fsets", no_2d),
    I("or$igin", "pvox draws one plot per image"),
    S("o$utput", output),
    I("overflow", "pvox follows gnuplot's default integer overflow rule"),
    S("pal$ette", palette),
    S("pa$rametric", parametric),
    I("paxis", no_2d),
    I("pixmap", "pvox does not draw pixmaps"),
    S("pm$3d", pm3d),
    S("pointint$ervalbox", pointintervalbox),
    S("poi$ntsize", pointsize),
    S("pol$ar", polar),
    X("pr$int"),
    I("psdir", "pvox writes PNG only"),
    I("rax$is", no_2d),
    I("rgbmax", "pvox does not draw images"),
    I("rlabel", no_2d),
    I("rmar$gin", "pvox computes its own margins"),
    I("rr$ange", no_2d),
    I("rti$cs", no_2d),
    S("sa$mples", samples),
    I("si$ze", "pvox sizes the plot to the terminal"),
    I("spider$plot", no_2d),
    S("st$yle", style),
    S("su$rface", surface),
    X("table"),
    S("t$erminal", terminal),
    I("termopt$ion", "use set terminal options instead"),
    I("theta", no_2d),
    S("tic$s", tics),
    I("ticsc$ale", "use set tics scale"),
    S("ticsl$evel", ticslevel),
    I("timef$mt", "pvox has no time axes"),
    I("times$tamp", no_text),
    S("tit$le", title),
    I("tmar$gin", "pvox computes its own margins"),
    S("tr$ange", trange),
    I("tti$cs", no_2d),
    S("ur$ange", urange),
    X("vgrid"),
    S("vi$ew", view),
    S("vr$ange", vrange),
    X("vxr$ange"),
    X("vyr$ange"),
    X("vzr$ange"),
    I("wall$s", "pvox does not draw walls"),
    I("x2da$ta", no_axis2),
    I("x2dti$cs", no_axis2),
    I("x2l$abel", no_axis2),
    I("x2mti$cs", no_axis2),
    I("x2r$ange", no_axis2),
    I("x2ti$cs", no_axis2),
    I("x2zeroa$xis", no_axis2),
    I("xda$ta", "pvox has no time axes"),
    I("xdti$cs", "pvox has no time axes"),
    S("xl$abel", xlabel),
    I("xmti$cs", "pvox does not draw minor tics"),
    S("xr$ange", xrange),
    S("xti$cs", xtics),
    S("xyp$lane", xyplane),
    I("xzeroa$xis", "pvox does not draw zero axes"),
    I("y2da$ta", no_axis2),
    I("y2dti$cs", no_axis2),
    I("y2l$abel", no_axis2),
    I("y2mti$cs", no_axis2),
    I("y2r$ange", no_axis2),
    I("y2ti$cs", no_axis2),
    I("y2zeroa$xis", no_axis2),
    I("yda$ta", "pvox has no time axes"),
    I("ydti$cs", "pvox has no time axes"),
    S("yl$abel", ylabel),
    I("ymti$cs", "pvox does not draw minor tics"),
    S("yr$ange", yrange),
    S("yti$cs", ytics),
    I("yzeroa$xis", "pvox does not draw zero axes"),
    I("zda$ta", "pvox has no time axes"),
    I("zdti$cs", "pvox has no time axes"),
    I("z$ero", "pvox uses gnuplot's default zero threshold"),
    I("zeroa$xis", "pvox does not draw zero axes"),
    S("zl$abel", zlabel),
    I("zmti$cs", "pvox does not draw minor tics"),
    S("zr$ange", zrange),
    S("zti$cs", ztics),
    I("zzeroa$xis", "pvox does not draw zero axes"),
};

const int pv_nopts = (int)(sizeof pv_opts / sizeof pv_opts[0]);
