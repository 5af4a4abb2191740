/*
 * pvox settings: the parse helpers every handler shares (words, operators, errors,
 * expressions, strings), the warn-once slots, and the small printers `show` shares.
 */
#include "settings_parse.h"

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

void sp_warn_once(pv_sp *p, int slot, const char *msg)
{
    if (!p->exec || !p->s) return;
    unsigned char *w = &p->s->warned[slot];
    if (*w) return;
    *w = 1;
    pv_source_warn(p->c->ctx, p->c->tl->src, p->at, "%s", msg);
}

/* ---- show helpers ---- */

pv_status sp_done(pv_sp *p)
{
    sp_skip_rest(p);
    return PV_OK;
}

void sp_color_text(char *buf, size_t n, const pv_color *col)
{
    switch (col->kind) {
    case PV_COLOR_RGB: {
        const char *name = (col->argb >> 24) ? NULL : pv_color_name(col->argb);
        if (name) snprintf(buf, n, "rgb \"%s\" ", name);
        else if (col->argb >> 24) snprintf(buf, n, "rgb \"#%08x\" ", (unsigned)col->argb);
        else snprintf(buf, n, "rgb \"#%06x\" ", (unsigned)col->argb);
        break;
    }
    case PV_COLOR_LT: snprintf(buf, n, "lt %d", col->lt); break;
    case PV_COLOR_PALETTE_Z: snprintf(buf, n, "palette z"); break;
    case PV_COLOR_PALETTE_CB: snprintf(buf, n, "palette cb %g", col->value); break;
    case PV_COLOR_PALETTE_FRAC: snprintf(buf, n, "palette fraction %.2f", col->value); break;
    case PV_COLOR_VARIABLE: snprintf(buf, n, "variable"); break;
    case PV_COLOR_RGB_VARIABLE: snprintf(buf, n, "rgb variable"); break;
    case PV_COLOR_BGND: snprintf(buf, n, "bgnd"); break;
    case PV_COLOR_BLACK:
    case PV_COLOR_DEFAULT:
    default: snprintf(buf, n, "lt -1"); break;
    }
}

void sp_print_lp(FILE *out, const char *what, int tag, const pv_lp *lp)
{
    char col[64] = "";
    if (lp->lc.kind == PV_COLOR_DEFAULT && lp->lt > 0) {
        pv_color c = {PV_COLOR_LT, 0, lp->lt, 0};
        sp_color_text(col, sizeof col, &c);
    } else if (lp->lc.kind != PV_COLOR_DEFAULT) {
        sp_color_text(col, sizeof col, &lp->lc);
    }
    fprintf(out, "\t%s %d, ", what, tag);
    if (col[0]) fprintf(out, " linecolor %s", col);
    fprintf(out, " linewidth %.3f", lp->lw);
    if (lp->dt) fprintf(out, " dashtype %d", lp->dt);
    else fprintf(out, " dashtype solid");
    if (lp->pt >= 0) fprintf(out, " pointtype %d", lp->pt);
    if (lp->ps >= 0) fprintf(out, " pointsize %.3f", lp->ps);
    else fprintf(out, " pointsize default");
    fprintf(out, "\n");
}

const char *const sp_axis_names[PV_NAXES] = {"x", "y", "z", "cb", "u", "v", "t"};
