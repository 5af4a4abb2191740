/*
 * pvox settings: colours and line properties (`lc`, `lt`, `lw`, `pt`, `ps`, `dt`), the
 * linetype colours, and `set style line N` / `set linetype N` slots (shown with
 * `show style line` / `show linetype` in settings_styles.c).
 */
#include "settings_parse.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A string literal that is a whole expression can be checked in check mode too. */
bool sp_lone_string(pv_sp *p)
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
pv_status sp_rgb_value(pv_sp *p, uint32_t *argb)
{
    if (sp_lone_string(p) && !p->exec) {
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

/* `tc|lc|fc lt N`: gnuplot takes the linetype's colour when the command is read (a later
 * `set linetype N` does not change it); lt -1 is black, lt -2 `nodraw` (kept as a fully
 * transparent colour), lt 0 stays linetype 0. Without settings (plot options) it stays
 * PV_COLOR_LT and the renderer resolves it. */
static pv_status color_from_lt(pv_sp *p, pv_color *col)
{
    int lt = 0;
    pv_status st = sp_int(p, &lt);
    if (st != PV_OK || !p->exec) return st;
    col->lt = lt;
    if (lt == -2) {
        col->kind = PV_COLOR_RGB;
        col->argb = 0xFF000000u;
    } else if (lt < 0) {
        col->kind = PV_COLOR_BLACK;
    } else if (lt > 0 && p->s) {
        col->kind = PV_COLOR_RGB;
        col->argb = pv_settings_lt_rgb(p->s, lt);
    } else {
        col->kind = PV_COLOR_LT;
    }
    return PV_OK;
}

/* `tc|lc|fc ls N`: the colour of line style N, else (no such style) of linetype N, as
 * gnuplot falls back to the linetype. Resolved when read (gnuplot resolves at drawing). */
static pv_status color_from_ls(pv_sp *p, pv_color *col)
{
    int tag = 0;
    pv_status st = sp_int(p, &tag);
    if (st != PV_OK || !p->exec) return st;
    col->kind = PV_COLOR_LT;
    col->lt = tag;
    const pv_settings *s = p->s;
    if (!s || tag < 1 || tag >= s->nlinestyle || !s->linestyle[tag].defined) return PV_OK;
    const pv_lp *ls = &s->linestyle[tag];
    if (ls->lc.kind != PV_COLOR_DEFAULT) *col = ls->lc;
    else if (ls->lt > 0) col->lt = ls->lt;
    else if (ls->lt < 0) col->kind = PV_COLOR_BLACK;
    return PV_OK;
}

pv_status sp_color(pv_sp *p, pv_color *out)
{
    pv_color col = {PV_COLOR_DEFAULT, 0, 0, 0.0};
    pv_status st = PV_OK;
    if (sp_word(p, "rgb$color")) {
        if (sp_word(p, "var$iable")) {
            col.kind = PV_COLOR_RGB_VARIABLE;
        } else {
            col.kind = PV_COLOR_RGB;
            st = sp_rgb_value(p, &col.argb);
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
    } else if (sp_word(p, "lt") || sp_word(p, "linet$ype")) {
        st = color_from_lt(p, &col);
    } else if (sp_word(p, "ls") || sp_word(p, "lines$tyle")) {
        st = color_from_ls(p, &col);
    } else if (sp_word(p, "def$ault")) {
        col.kind = PV_COLOR_DEFAULT;
    } else if (sp_word(p, "var$iable")) {
        col.kind = PV_COLOR_VARIABLE;
    } else if (sp_word(p, "black")) {
        col.kind = PV_COLOR_BLACK;
    } else if (sp_word(p, "bgnd") || sp_word(p, "background")) {
        col.kind = PV_COLOR_BGND;
    } else if (pv_cur_peek(p->c)->kind == PV_TK_STRING) {
        col.kind = PV_COLOR_RGB;
        st = sp_rgb_value(p, &col.argb);
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
    return sp_color(&p, out);
}

pv_status pv_settings_parse_colorspec(const pv_settings *s, pv_env *env, pv_cursor *c,
                                      bool exec, pv_color *out)
{
    /* sp_color only reads the settings (linetype and line-style colours) */
    pv_sp p = {(pv_settings *)s, env, c, exec, NULL, pv_cur_offset(c)};
    return sp_color(&p, out);
}

/* Copy linestyle `tag` (exec) into *lp. */
static void apply_linestyle(pv_sp *p, int tag, pv_lp *lp)
{
    if (!p->exec || !p->s || tag < 1 || tag >= p->s->nlinestyle) return;
    if (p->s->linestyle[tag].defined) *lp = p->s->linestyle[tag];
}

pv_status sp_lp(pv_sp *p, pv_lp *lp)
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
                st = sp_color(p, &lp->lc);
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
            st = sp_color(p, &lp->lc);
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
    return sp_lp(&p, lp);
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

/* Grow a 1-based tag array (tracked, capacity *cap) so that `tag` is a valid index: *n
 * becomes tag + 8 slots, the new ones "not defined". */
static pv_status grow_lp(pv_sp *p, pv_lp **arr, size_t *cap, int *n, int tag)
{
    if (tag < *n) return PV_OK;
    if (tag > INT32_MAX - 8) return pv_err(p->s->ctx, PV_ENOMEM, "out of memory");
    int nn = tag + 8;
    if (!pv_grow(p->s->ctx, arr, cap, (size_t)nn, sizeof **arr)) return p->s->ctx->err_code;
    pv_lp *a = *arr;
    for (int k = *n; k < nn; k++) {
        a[k] = pv_lp_default();
        a[k].defined = false;
    }
    *n = nn;
    return PV_OK;
}

/* `set style line N ...` / `set linetype N ...` */
pv_status sp_set_lp_tag(pv_sp *p, bool is_linetype)
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
        st = sp_lp(p, &lp);
        if (st != PV_OK) return st;
    }
    if (!sp_end(p)) return sp_err(p, PV_ESYNTAX, "extraneous arguments to %s", what);
    if (!p->exec) return PV_OK;
    pv_lp **arr = is_linetype ? &p->s->linetype : &p->s->linestyle;
    size_t *cap = is_linetype ? &p->s->linetype_cap : &p->s->linestyle_cap;
    int *n = is_linetype ? &p->s->nlinetype : &p->s->nlinestyle;
    if ((st = grow_lp(p, arr, cap, n, tag)) != PV_OK) return st;
    lp.defined = true;
    (*arr)[tag] = lp;
    return PV_OK;
}

pv_status sp_unset_lp_tag(pv_sp *p, bool is_linetype)
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
