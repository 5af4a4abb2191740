/*
 * pvox settings: ranges (`set xrange` ... `trange`), `autoscale` and `logscale`, set and
 * show.
 */
#include "settings_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

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
    pv_status sp_set_##NAME(pv_sp *p) { return set_range(p, AX); }                    \
    pv_status sp_unset_##NAME(pv_sp *p) { return unset_range(p, AX); }
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
    if (n == 0 && strcmp(w, "noextend") == 0) /* gnuplot: the same as `fix` */
        all = true, suf = "fix";
    else if (n == 0 && (strcmp(w, "fix") == 0 || strcmp(w, "keepfix") == 0 || strcmp(w, "ga") == 0))
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

pv_status sp_set_autoscale(pv_sp *p)
{
    if (sp_end(p)) return autoscale_all(p, true);
    while (!sp_end(p)) {
        pv_status st = autoscale_word(p, true);
        if (st != PV_OK) return st;
    }
    return PV_OK;
}

pv_status sp_unset_autoscale(pv_sp *p)
{
    if (sp_end(p)) return autoscale_all(p, false);
    while (!sp_end(p)) {
        pv_status st = autoscale_word(p, false);
        if (st != PV_OK) return st;
    }
    return PV_OK;
}

/* set logscale {axes} {base}: the colour axis is drawn logarithmic; x, y and z are stored
 * but drawn linear (one warning). */
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
    return PV_OK;
}
pv_status sp_set_logscale(pv_sp *p) { return logscale(p, true); }
pv_status sp_unset_logscale(pv_sp *p) { return logscale(p, false); }

/* ---- show ------------------------------------------------------------------------ */

static void print_range(FILE *out, const pv_settings *s, int ax)
{
    const pv_range *r = &s->range[ax];
    char lo[32], hi[32];
    if (r->auto_min) snprintf(lo, sizeof lo, "*");
    else snprintf(lo, sizeof lo, "%#g", r->min);
    if (r->auto_max) snprintf(hi, sizeof hi, "*");
    else snprintf(hi, sizeof hi, "%#g", r->max);
    fprintf(out, "\tset %srange [ %s : %s ] %sreverse %swriteback", sp_axis_names[ax], lo, hi,
            r->reverse ? "" : "no", r->writeback ? "" : "no");
    if (r->auto_min || r->auto_max) fprintf(out, "  # (currently [%#g:%#g] )", r->min, r->max);
    fprintf(out, "\n");
}

static pv_status show_range(pv_sp *p, int ax)
{
    if (OUT) {
        fprintf(OUT, "\n");
        print_range(OUT, p->s, ax);
        fprintf(OUT, "\n");
    }
    return sp_done(p);
}

pv_status sp_show_xrange(pv_sp *p) { return show_range(p, PV_AX_X); }
pv_status sp_show_yrange(pv_sp *p) { return show_range(p, PV_AX_Y); }
pv_status sp_show_zrange(pv_sp *p) { return show_range(p, PV_AX_Z); }
pv_status sp_show_cbrange(pv_sp *p) { return show_range(p, PV_AX_CB); }
pv_status sp_show_urange(pv_sp *p) { return show_range(p, PV_AX_U); }
pv_status sp_show_vrange(pv_sp *p) { return show_range(p, PV_AX_V); }
pv_status sp_show_trange(pv_sp *p) { return show_range(p, PV_AX_T); }

static void auto_text(char *buf, size_t n, const pv_range *r)
{
    if (!r->auto_min && !r->auto_max) snprintf(buf, n, "OFF");
    else snprintf(buf, n, "%s%s%s%s", r->auto_min && !r->auto_max ? "MIN" : "",
                  !r->auto_min && r->auto_max ? "MAX" : r->auto_min && r->auto_max ? "ON" : "",
                  r->fix_min ? " (fixmin)" : "", r->fix_max ? " (fixmax)" : "");
}

pv_status sp_show_autoscale(pv_sp *p)
{
    if (OUT) {
        char x[48], y[48], z[48], cb[48];
        auto_text(x, sizeof x, &p->s->range[PV_AX_X]);
        auto_text(y, sizeof y, &p->s->range[PV_AX_Y]);
        auto_text(z, sizeof z, &p->s->range[PV_AX_Z]);
        auto_text(cb, sizeof cb, &p->s->range[PV_AX_CB]);
        fprintf(OUT, "\n\tautoscaling is \tx: %s, \ty: %s, \n", x, y);
        fprintf(OUT, "\t               \tz: %s, \tcb: %s, \n\n", z, cb);
    }
    return sp_done(p);
}

pv_status sp_show_logscale(pv_sp *p)
{
    if (OUT) {
        fprintf(OUT, "\n\tlogscaling on ");
        bool any = false;
        for (int ax = 0; ax < PV_NAXES; ax++) {
            const pv_range *r = &p->s->range[ax];
            if (!r->log) continue;
            any = true;
            if (r->log_base == 10.0) fprintf(OUT, " %s", sp_axis_names[ax]);
            else fprintf(OUT, " %s (base %g)", sp_axis_names[ax], r->log_base);
        }
        fprintf(OUT, "%s\n\n", any ? "" : "none");
    }
    return sp_done(p);
}
