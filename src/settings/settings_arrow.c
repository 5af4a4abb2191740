/*
 * pvox settings: `set arrow`, `unset arrow`, `show arrow` (gnuplot 5.4's set_arrow).
 *
 * `set arrow {tag} {from P} {to Q | rto D} {nohead|head|backhead|heads}
 * {size L,A{,B}} {fixed} {filled|empty|nofilled|noborder} {front|back} {lt|lc|lw|dt ...}`
 * creates arrow `tag` (or the lowest free one) or changes only what is given of an
 * existing one. Positions take coordinate systems as `set label` does. gnuplot's default:
 * a head at the end, not filled, back, black, width 1.
 */
#include "settings_int.h"

#include <string.h>

static void arrow_init(pv_arrow *a, int tag)
{
    memset(a, 0, sizeof *a);
    a->tag = tag;
    a->heads = PV_ARROW_HEAD;
    a->head_angle = 15.0;
    a->head_back = 90.0;
    a->lp = pv_lp_default();
}

void pv_arrows_fini(pv_settings *s)
{
    pv_free(s->ctx, s->arrows, s->arrows_cap * sizeof *s->arrows);
    s->arrows = NULL;
    s->arrows_cap = 0;
    s->narrows = 0;
}

static pv_status arrow_options(pv_sp *p, pv_arrow *a)
{
    pv_status st = PV_OK;
    while (st == PV_OK && !sp_end(p)) {
        if (sp_word(p, "from")) {
            st = sp_position_sys(p, a->from, a->from_sys, PV_SYS_FIRST);
        } else if (sp_word(p, "to")) {
            a->relative = false;
            st = sp_position_sys(p, a->to, a->to_sys, PV_SYS_FIRST);
        } else if (sp_word(p, "rto")) {
            a->relative = true;
            st = sp_position_sys(p, a->to, a->to_sys, PV_SYS_FIRST);
        } else if (sp_word(p, "len$gth") || sp_word(p, "ang$le")) {
            pv_coord_sys sys[3];
            double xyz[3];
            st = sp_position_sys(p, xyz, sys, PV_SYS_FIRST);
            if (st == PV_OK && p->exec)
                sp_warn_once(p, WARN_ARROW_POLAR, "arrows given by length and angle are not "
                                                  "drawn by pvox");
            a->polar_form = true;
        } else if (sp_word(p, "nohead")) {
            a->heads = PV_ARROW_NOHEAD;
        } else if (sp_word(p, "head")) {
            a->heads = PV_ARROW_HEAD;
        } else if (sp_word(p, "backhead")) {
            a->heads = PV_ARROW_BACKHEAD;
        } else if (sp_word(p, "heads")) {
            a->heads = PV_ARROW_HEAD | PV_ARROW_BACKHEAD;
        } else if (sp_word(p, "size")) {
            st = sp_position_sys(p, a->head_size, a->head_sys, PV_SYS_FIRST);
            if (st == PV_OK) {
                a->head_angle = a->head_size[1] != 0.0 ? a->head_size[1] : 15.0;
                if (a->head_size[2] != 0.0) a->head_back = a->head_size[2];
                a->head_given = true;
            }
        } else if (sp_word(p, "fix$ed")) {
            a->head_fixed = true;
        } else if (sp_word(p, "fill$ed")) {
            a->fill = PV_ARROW_FILLED;
        } else if (sp_word(p, "empty")) {
            a->fill = PV_ARROW_EMPTY;
        } else if (sp_word(p, "nofill$ed")) {
            a->fill = PV_ARROW_NOFILL;
        } else if (sp_word(p, "nobor$der")) {
            a->fill = PV_ARROW_NOBORDER;
        } else if (sp_word(p, "front")) {
            a->front = true;
        } else if (sp_word(p, "back") || sp_word(p, "behind")) {
            a->front = false;
        } else if (sp_word(p, "as") || sp_word(p, "arrows$tyle")) {
            int style = 0;
            st = sp_int(p, &style); /* `set style arrow` is not kept: the defaults stand */
        } else {
            size_t at = p->c->pos;
            st = sp_lp(p, &a->lp);
            if (st == PV_OK && p->c->pos == at) st = sp_unexpected(p);
        }
    }
    return st;
}

pv_status sp_set_arrow(pv_sp *p)
{
    pv_settings *s = p->s;
    pv_status st = PV_OK;
    int tag = 0;
    bool have_tag = false;
    if (sp_can_expr(p) && !sp_isword(p, "from") && !sp_isword(p, "to") && !sp_isword(p, "rto")) {
        st = sp_int(p, &tag);
        have_tag = true;
    }
    if (st != PV_OK) return st;
    if (p->exec && have_tag && tag <= 0) return sp_err(p, PV_ESCRIPT, "tag must be > zero");
    int at = have_tag && p->exec ? sp_tag_find(s->arrows, s->narrows, sizeof *s->arrows, tag) : -1;
    pv_arrow a;
    if (at >= 0) a = s->arrows[at];
    else
        arrow_init(&a, have_tag ? tag : sp_tag_lowest_free(s->arrows, s->narrows, sizeof *s->arrows));
    st = arrow_options(p, &a);
    if (st != PV_OK || !p->exec) return st;
    return sp_tag_store(s->ctx, (void **)&s->arrows, &s->narrows, &s->arrows_cap,
                        sizeof *s->arrows, at, &a);
}

pv_status sp_unset_arrow(pv_sp *p)
{
    return sp_tag_unset(p, p->s->arrows, &p->s->narrows, sizeof *p->s->arrows, pv_arrows_fini,
                        NULL);
}

pv_status sp_show_arrow(pv_sp *p)
{
    const pv_settings *s = p->s;
    int only = 0;
    if (!sp_end(p)) {
        pv_status st = sp_int(p, &only);
        if (st != PV_OK) return st;
    }
    if (!OUT) return sp_done(p);
    static const char *const heads[] = {"nohead", "head", "backhead", "heads"};
    static const char *const fills[] = {"nofilled", "filled", "empty", "noborder"};
    fputc('\n', OUT);
    for (int k = 0; k < s->narrows; k++) {
        const pv_arrow *a = &s->arrows[k];
        if (only > 0 && a->tag != only) continue;
        fprintf(OUT, "\tarrow %d, %s %s %s ", a->tag, heads[a->heads], fills[a->fill],
                a->front ? "front" : "back");
        if (a->lp.lc.kind != PV_COLOR_DEFAULT) {
            char col[64];
            pv_color c = a->lp.lc;
            if (c.kind == PV_COLOR_LT && c.lt > 0) { /* gnuplot names it by its rgb */
                c.kind = PV_COLOR_RGB;
                c.argb = pv_settings_lt_rgb(s, c.lt) & 0xFFFFFFu;
            }
            sp_color_text(col, sizeof col, &c);
            fprintf(OUT, "linecolor %s ", col);
        }
        fprintf(OUT, "linewidth %.3f dashtype solid\n\t  from ", a->lp.lw);
        sp_show_position(OUT, a->from, a->from_sys, true);
        fputs(a->relative ? " rto " : " to ", OUT);
        sp_show_position(OUT, a->to, a->to_sys, true);
        fputc('\n', OUT);
        if (a->head_given)
            fprintf(OUT, "\t  arrow head: length %g, angle %g deg, backangle %g deg\n",
                    a->head_size[0], a->head_angle, a->head_back);
    }
    fputc('\n', OUT);
    return sp_done(p);
}
