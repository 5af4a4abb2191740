/*
 * pvox settings: text elements (`set/unset/show title`, `xlabel`, `ylabel`, `zlabel`,
 * `cblabel`) and the `offset` position parser that tics and key share.
 */
#include "settings_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* `offset {sys} x {, {sys} y {, {sys} z}}` after the keyword. */
pv_status sp_position(pv_sp *p, double xyz[3])
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

bool sp_is_text_keyword(pv_sp *p)
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
    if (sp_can_expr(p) && !sp_is_text_keyword(p)) st = sp_string(p, &nt.text);
    while (st == PV_OK && !sp_end(p)) {
        if (sp_word(p, "off$set")) {
            st = sp_position(p, nt.offset);
        } else if (sp_word(p, "font")) {
            st = sp_string(p, &nt.font);
        } else if (sp_word(p, "tc") || sp_word(p, "textc$olor")) {
            if (sp_word(p, "def$ault")) nt.tc.kind = PV_COLOR_DEFAULT;
            else st = sp_color(p, &nt.tc);
        } else if (sp_word(p, "noenh$anced")) {
            nt.enhanced = false;
        } else if (sp_word(p, "enh$anced")) {
            nt.enhanced = true;
        } else if (allow_rotate && sp_word(p, "rot$ate")) {
            nt.rotate = -270.0; /* gnuplot's bare `rotate`: vertical, shown as -270 */
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

pv_status sp_set_title(pv_sp *p) { return set_text(p, &p->s->title, false); }
pv_status sp_set_xlabel(pv_sp *p) { return set_text(p, &p->s->label[PV_AX_X], true); }
pv_status sp_set_ylabel(pv_sp *p) { return set_text(p, &p->s->label[PV_AX_Y], true); }
pv_status sp_set_zlabel(pv_sp *p) { return set_text(p, &p->s->label[PV_AX_Z], true); }
pv_status sp_set_cblabel(pv_sp *p) { return set_text(p, &p->s->label[PV_AX_CB], true); }

/* gnuplot's `unset title|Xlabel` restores the whole element (offset, font, colour,
 * rotation), not only the text. */
static pv_status unset_text(pv_sp *p, pv_text *t)
{
    if (p->exec) {
        pv_text_fini(t);
        pv_text_default(t);
        if (t == &p->s->label[PV_AX_Y] || t == &p->s->label[PV_AX_CB]) t->rotate = -270.0;
    }
    return sp_expect_end(p);
}
pv_status sp_unset_title(pv_sp *p) { return unset_text(p, &p->s->title); }
pv_status sp_unset_xlabel(pv_sp *p) { return unset_text(p, &p->s->label[PV_AX_X]); }
pv_status sp_unset_ylabel(pv_sp *p) { return unset_text(p, &p->s->label[PV_AX_Y]); }
pv_status sp_unset_zlabel(pv_sp *p) { return unset_text(p, &p->s->label[PV_AX_Z]); }
pv_status sp_unset_cblabel(pv_sp *p) { return unset_text(p, &p->s->label[PV_AX_CB]); }

/* ---- show ------------------------------------------------------------------------ */

static pv_status show_text(pv_sp *p, const char *name, const pv_text *t)
{
    if (OUT) {
        char col[64];
        sp_color_text(col, sizeof col, &t->tc);
        fprintf(OUT, "\n\t%s is \"%s\", offset at (character %g, %g, %g)", name,
                t->text ? t->text : "", t->offset[0], t->offset[1], t->offset[2]);
        if (isnan(t->rotate)) fprintf(OUT, ", parallel to axis in 3D plots");
        else if (t->rotate != 0.0) fprintf(OUT, ", rotated by %g degrees in 2D plots", t->rotate);
        if (t->font) fprintf(OUT, ", using font \"%s\"", t->font);
        if (t->tc.kind != PV_COLOR_DEFAULT) fprintf(OUT, " textcolor %s", col);
        fprintf(OUT, "\n\n");
    }
    return sp_done(p);
}

pv_status sp_show_title(pv_sp *p) { return show_text(p, "title", &p->s->title); }
pv_status sp_show_xlabel(pv_sp *p) { return show_text(p, "xlabel", &p->s->label[PV_AX_X]); }
pv_status sp_show_ylabel(pv_sp *p) { return show_text(p, "ylabel", &p->s->label[PV_AX_Y]); }
pv_status sp_show_zlabel(pv_sp *p) { return show_text(p, "zlabel", &p->s->label[PV_AX_Z]); }
pv_status sp_show_cblabel(pv_sp *p) { return show_text(p, "cblabel", &p->s->label[PV_AX_CB]); }
