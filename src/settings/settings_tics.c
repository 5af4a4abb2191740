/*
 * pvox settings: `set/unset/show tics`, `xtics`, `ytics`, `ztics`, `cbtics`.
 */
#include "settings_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void pv_tics_user_free(pv_tics *t)
{
    for (int k = 0; k < t->nuser; k++) free(t->user[k].label);
    free(t->user);
    t->user = NULL;
    t->nuser = 0;
}

/* A tic list `("a" 1, 2, "b" 3 1)`: items `{"label"} pos {level}` separated by commas,
 * appended to *list (exec; check mode only parses). `()` is an empty list: as in gnuplot,
 * the automatic tics are dropped and only tics added later (`set xtics add`) are drawn. */
static pv_status tic_list(pv_sp *p, pv_tic_mark **list, int *n)
{
    pv_cur_next(p->c); /* ( */
    if (sp_op(p, ")")) return PV_OK;
    pv_status st = PV_OK;
    while (st == PV_OK) {
        if (sp_end(p)) return sp_err(p, PV_ESYNTAX, "expecting ')'");
        pv_value v[3];
        int nv = 0;
        /* a quoted label is taken as it stands (gnuplot: `"low" -3` is the label and the
         * position, not a difference) */
        if (pv_cur_peek(p->c)->kind == PV_TK_STRING) {
            memset(&v[0], 0, sizeof v[0]);
            v[0] = pv_str(pv_cur_peek(p->c)->sval ? pv_cur_peek(p->c)->sval : "");
            pv_cur_next(p->c);
            nv = 1;
        }
        while (st == PV_OK && nv < 3 && !sp_isop(p, ",") && !sp_isop(p, ")") && !sp_end(p)) {
            memset(&v[nv], 0, sizeof v[nv]);
            st = sp_value(p, &v[nv]);
            if (st == PV_OK) nv++;
        }
        if (st == PV_OK && nv == 0) st = sp_err(p, PV_ESYNTAX, "expecting tic position");
        if (st == PV_OK && p->exec) {
            bool labelled = v[0].type == PV_V_STR;
            int at = labelled ? 1 : 0;
            if (at >= nv) {
                st = sp_err(p, PV_ESYNTAX, "expecting tic position");
            } else {
                pv_tic_mark m = {pv_value_real(&v[at]), NULL, 0};
                if (at + 1 < nv) m.level = (int)pv_value_real(&v[at + 1]);
                if (labelled) m.label = v[0].s, v[0].s = NULL, v[0].type = PV_V_UNDEF;
                pv_tic_mark *grown = realloc(*list, (size_t)(*n + 1) * sizeof **list);
                if (!grown) {
                    free(m.label);
                    st = sp_err(p, PV_ENOMEM, "out of memory");
                } else {
                    *list = grown;
                    grown[(*n)++] = m;
                }
            }
        }
        for (int k = 0; k < nv; k++) pv_value_free(&v[k]);
        if (st != PV_OK) break;
        if (sp_op(p, ")")) break;
        if (!sp_op(p, ",")) st = sp_err(p, PV_ESYNTAX, "expecting ',' or ')'");
    }
    return st;
}

/* Tic options for the axes in `mask`; `all` = `set tics` (no increments). */
static pv_status tics(pv_sp *p, unsigned mask, bool all)
{
    pv_tics t = p->s->tics[mask & (1u << PV_AX_X) ? PV_AX_X : mask & (1u << PV_AX_Y) ? PV_AX_Y
                                                      : mask & (1u << PV_AX_Z) ? PV_AX_Z : PV_AX_CB];
    t.format = t.font = NULL; /* parsed fresh; the old ones stay owned by the settings */
    pv_tic_mark *list = NULL;
    int nlist = 0;
    bool add = false, set_list = false;
    bool set_mirror = false, set_out = false, set_incr = false, set_rot = false, set_just = false;
    bool set_scale = false, front = p->s->tics_front, set_front = false, set_axis = false;
    pv_status st = PV_OK;
    while (st == PV_OK && !sp_end(p)) {
        if (sp_word(p, "ax$is")) {
            t.on_axis = true, set_axis = true;
        } else if (sp_word(p, "bo$rder")) {
            t.on_axis = false, set_axis = true;
        } else if (!all && sp_word(p, "autof$req")) { /* computed tics again */
            set_incr = true;
            t.has_incr = false;
        } else if (sp_word(p, "left") || sp_word(p, "center") || sp_word(p, "centre") ||
                   sp_word(p, "right") || sp_word(p, "autojust$ify")) {
            const char *w = p->c->tl->tok[p->c->pos - 1].sval;
            t.just = w[0] == 'l' ? 0 : w[0] == 'c' ? 1 : w[0] == 'r' ? 2 : -1;
            set_just = true;
        } else if (!all && sp_word(p, "add")) {
            add = true;
        } else if (sp_word(p, "add") ||
            sp_word(p, "autof$req") || sp_word(p, "num$eric") || sp_word(p, "time$date") ||
            sp_word(p, "geo$graphic") || sp_word(p, "log$scale") || sp_word(p, "nolog$scale") ||
            sp_word(p, "rangelimit$ed") || sp_word(p, "norangelimit$ed") || sp_word(p, "enh$anced") ||
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
            st = sp_position(p, xyz);
        } else if (sp_word(p, "format") || sp_word(p, "form$at")) {
            st = sp_string(p, &t.format);
        } else if (sp_word(p, "font")) {
            st = sp_string(p, &t.font);
        } else if (sp_word(p, "tc") || sp_word(p, "textc$olor")) {
            pv_color col;
            st = sp_color(p, &col);
        } else if (all && sp_word(p, "front")) {
            front = true, set_front = true;
        } else if (all && sp_word(p, "back")) {
            front = false, set_front = true;
        } else if (all && sp_word(p, "level")) {
            double lv = 0;
            st = sp_real(p, &lv);
        } else if (!all && sp_isop(p, "(")) {
            st = tic_list(p, &list, &nlist);
            set_list = true;
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
        pv_tics tmp = {0};
        tmp.user = list, tmp.nuser = nlist;
        pv_tics_user_free(&tmp);
        return st;
    }
    for (int ax = PV_AX_X; ax <= PV_AX_CB; ax++) {
        if (!(mask & (1u << ax))) continue;
        pv_tics *d = &p->s->tics[ax];
        d->on = true;
        if (set_mirror) d->mirror = t.mirror;
        if (set_axis) d->on_axis = t.on_axis;
        if (set_out) d->outward = t.outward;
        if (set_rot) d->rotate = t.rotate;
        if (set_just) d->just = t.just;
        if (set_scale) d->scale_major = t.scale_major, d->scale_minor = t.scale_minor;
        if (set_incr) {
            d->has_incr = t.has_incr;
            d->start = t.start, d->incr = t.incr, d->end = t.end;
            /* a new series without `add` replaces a tic list */
            if (!add) pv_tics_user_free(d), d->user_only = false;
        }
        if (set_list) {
            /* without `add` the list replaces every other tic */
            if (!add) pv_tics_user_free(d), d->user_only = !set_incr;
            for (int k = 0; k < nlist; k++) {
                pv_tic_mark *grown = realloc(d->user, (size_t)(d->nuser + 1) * sizeof *d->user);
                if (!grown) break;
                d->user = grown;
                grown[d->nuser] = list[k];
                grown[d->nuser++].label = list[k].label ? sp_strdup(list[k].label) : NULL;
            }
        }
        if (t.format) sp_setstr(&d->format, t.format);
        if (t.font) sp_setstr(&d->font, t.font);
    }
    if (set_front) p->s->tics_front = front;
    free(t.format);
    free(t.font);
    pv_tics tmp = {0};
    tmp.user = list, tmp.nuser = nlist;
    pv_tics_user_free(&tmp);
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
pv_status sp_set_tics(pv_sp *p) { return tics(p, ALL_AXES, true); }
pv_status sp_unset_tics(pv_sp *p) { return unset_tics_mask(p, ALL_AXES); }
#define TICS_FNS(NAME, AX)                                                                \
    pv_status sp_set_##NAME(pv_sp *p) { return tics(p, 1u << AX, false); }            \
    pv_status sp_unset_##NAME(pv_sp *p) { return unset_tics_mask(p, 1u << AX); }
TICS_FNS(xtics, PV_AX_X)
TICS_FNS(ytics, PV_AX_Y)
TICS_FNS(ztics, PV_AX_Z)
TICS_FNS(cbtics, PV_AX_CB)

/* ---- show ------------------------------------------------------------------------ */

static pv_status show_tics_mask(pv_sp *p, unsigned mask)
{
    const pv_settings *s = p->s;
    if (OUT) {
        fprintf(OUT, "\n\ttics are in %s of plot\n", s->tics_front ? "front" : "back");
        for (int ax = PV_AX_X; ax <= PV_AX_CB; ax++) {
            if (!(mask & (1u << ax))) continue;
            const pv_tics *t = &s->tics[ax];
            fprintf(OUT, "\t%s-axis tics are %s, \tmajor ticscale is %g and minor ticscale is %g\n",
                    sp_axis_names[ax], t->outward ? "OUT" : "IN", t->scale_major, t->scale_minor);
            if (!t->on) {
                fprintf(OUT, "\t%s-axis tics:\tOFF\n", sp_axis_names[ax]);
                continue;
            }
            fprintf(OUT, "\t%s-axis tics:\ton %s%s\n", sp_axis_names[ax],
                    t->on_axis ? "axis" : "border",
                    t->mirror ? " and mirrored on opposite border" : "");
            fprintf(OUT, "\t  labels are justified automatically, format \"%s\" and are %s,\n",
                    t->format ? t->format : "% h", t->rotate != 0 ? "rotated" : "not rotated");
            if (!t->has_incr) fprintf(OUT, "\t  intervals computed automatically\n");
            else if (isnan(t->start)) fprintf(OUT, "\t  series from auto by %g until auto\n", t->incr);
            else if (isnan(t->end)) fprintf(OUT, "\t  series from %g by %g until auto\n", t->start, t->incr);
            else fprintf(OUT, "\t  series from %g by %g until %g\n", t->start, t->incr, t->end);
        }
        fprintf(OUT, "\n");
    }
    return sp_done(p);
}

pv_status sp_show_tics(pv_sp *p) { return show_tics_mask(p, 0xFu); }
pv_status sp_show_xtics(pv_sp *p) { return show_tics_mask(p, 1u << PV_AX_X); }
pv_status sp_show_ytics(pv_sp *p) { return show_tics_mask(p, 1u << PV_AX_Y); }
pv_status sp_show_ztics(pv_sp *p) { return show_tics_mask(p, 1u << PV_AX_Z); }
pv_status sp_show_cbtics(pv_sp *p) { return show_tics_mask(p, 1u << PV_AX_CB); }

/* ---- set format ------------------------------------------------------------------- */

/* `set format {x|y|z|cb|x2|y2|r|xy|yx} {"fmt"} {numeric|timedate|geographic}`: the tic
 * label format of the axes named (all without a name); no string restores "% h". */
pv_status sp_set_format(pv_sp *p)
{
    static const char *const other[3] = {"x2", "y2", "r"};
    unsigned mask = 0, omask = 0;
    if (!sp_end(p) && pv_cur_peek(p->c)->kind == PV_TK_NAME) {
        const char *w = pv_cur_peek(p->c)->sval;
        for (int ax = PV_AX_X; ax <= PV_AX_CB; ax++)
            if (strcmp(w, sp_axis_names[ax]) == 0) mask = 1u << ax;
        for (int k = 0; k < 3; k++)
            if (strcmp(w, other[k]) == 0) omask = 1u << k;
        if (strcmp(w, "xy") == 0 || strcmp(w, "yx") == 0) mask = 1u << PV_AX_X | 1u << PV_AX_Y;
        if (mask || omask) pv_cur_next(p->c);
    }
    if (!mask && !omask) mask = 0xFu, omask = 7u;
    char *fmt = NULL;
    pv_status st = PV_OK;
    if (!sp_end(p)) {
        st = sp_string(p, &fmt);
        if (st == PV_OK && !sp_word(p, "num$eric") && (sp_word(p, "time$date") ||
                                                      sp_word(p, "geo$graphic")))
            sp_warn_once(p, WARN_FORMAT_KIND, "time and geographic tic formats are read but "
                                              "pvox prints tic labels as numbers");
        if (st == PV_OK) st = sp_expect_end(p);
    }
    if (st != PV_OK || !p->exec) {
        free(fmt);
        return st;
    }
    for (int ax = PV_AX_X; ax <= PV_AX_CB; ax++)
        if (mask & (1u << ax)) sp_setstr(&p->s->tics[ax].format, fmt);
    for (int k = 0; k < 3; k++)
        if (omask & (1u << k)) sp_setstr(&p->s->format_other[k], fmt);
    free(fmt);
    return PV_OK;
}

pv_status sp_unset_format(pv_sp *p)
{
    pv_status st = sp_expect_end(p);
    if (st != PV_OK || !p->exec) return st;
    for (int ax = PV_AX_X; ax <= PV_AX_CB; ax++) sp_setstr(&p->s->tics[ax].format, NULL);
    for (int k = 0; k < 3; k++) sp_setstr(&p->s->format_other[k], NULL);
    return PV_OK;
}

pv_status sp_show_format(pv_sp *p)
{
    const pv_settings *s = p->s;
    if (OUT) {
        const char *f[7] = {s->tics[PV_AX_X].format, s->tics[PV_AX_Y].format, s->format_other[0],
                            s->format_other[1], s->tics[PV_AX_Z].format,
                            s->tics[PV_AX_CB].format, s->format_other[2]};
        static const char *const names[7] = {"x", "y", "x2", "y2", "z", "cb", "r"};
        fprintf(OUT, "\n\ttic format is:\n");
        for (int k = 0; k < 7; k++)
            fprintf(OUT, "\t  %s-axis: \"%s\"\n", names[k], f[k] ? f[k] : "% h");
        fprintf(OUT, "\n");
    }
    return sp_done(p);
}
