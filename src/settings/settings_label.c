/*
 * pvox settings: text labels (`set label`, `unset label`, `show label`).
 *
 * gnuplot 5.4's rules: `set label {tag} {"text"} {options}` creates the label `tag` (or
 * the lowest free tag) or changes only what is given of an existing one; the text may
 * stand before or after the options. A position is `{sys} x, {sys} y {, {sys} z}`: a
 * coordinate without a system keyword takes the previous one's (x: first); missing y or
 * z is 0 in the system of the coordinate before it.
 */
#include "settings_int.h"

#include <stdlib.h>
#include <string.h>

static bool coord_sys(pv_sp *p, pv_coord_sys *sys)
{
    static const struct { const char *pat; pv_coord_sys sys; } names[] = {
        {"first", PV_SYS_FIRST}, {"second", PV_SYS_SECOND}, {"gr$aph", PV_SYS_GRAPH},
        {"sc$reen", PV_SYS_SCREEN}, {"char$acter", PV_SYS_CHARACTER}, {"pol$ar", PV_SYS_POLAR}};
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++)
        if (sp_word(p, names[k].pat)) {
            *sys = names[k].sys;
            return true;
        }
    return false;
}

/* `{sys} x {, {sys} y {, {sys} z}}` into xyz / sys (default system `dflt`). */
pv_status sp_position_sys(pv_sp *p, double xyz[3], pv_coord_sys sys[3], pv_coord_sys dflt)
{
    pv_coord_sys cur = dflt;
    double v[3] = {0, 0, 0};
    pv_coord_sys s3[3];
    int k = 0;
    for (; k < 3; k++) {
        coord_sys(p, &cur);
        s3[k] = cur;
        pv_status st = sp_real(p, &v[k]);
        if (st != PV_OK) return st;
        if (k == 2 || !sp_op(p, ",")) break;
    }
    for (int j = k + 1; j < 3; j++) s3[j] = cur, v[j] = 0.0;
    for (int j = 0; j < 3; j++) xyz[j] = v[j], sys[j] = s3[j];
    return PV_OK;
}

static void label_init(pv_label *l, int tag)
{
    memset(l, 0, sizeof *l);
    l->tag = tag;
    l->tc.kind = PV_COLOR_BLACK;
    l->point_lp = pv_lp_default();
    l->enhanced = true;
}

static void label_fini(pv_label *l)
{
    free(l->text);
    free(l->font);
    l->text = l->font = NULL;
}

void pv_labels_fini(pv_settings *s)
{
    for (int k = 0; k < s->nlabels; k++) label_fini(&s->labels[k]);
    pv_free(s->ctx, s->labels, s->labels_cap * sizeof *s->labels);
    s->labels = NULL;
    s->labels_cap = 0;
    s->nlabels = 0;
}

static int find_label(const pv_settings *s, int tag)
{
    return sp_tag_find(s->labels, s->nlabels, sizeof *s->labels, tag);
}

static bool is_option(pv_sp *p)
{
    static const char *const kw[] = {"at", "left", "right", "cent$er", "centre", "rot$ate",
                                     "norot$ate", "font", "noenh$anced", "enh$anced",
                                     "front", "back", "tc", "textc$olor", "po$int",
                                     "nopo$int", "off$set", "nooff$set", "box$ed",
                                     "nobox$ed", "hyper$text", "nohyper$text"};
    for (size_t j = 0; j < sizeof kw / sizeof kw[0]; j++)
        if (sp_isword(p, kw[j])) return true;
    return false;
}

/* The options of `set label` (and the text, where it stands) into l. */
static pv_status label_options(pv_sp *p, pv_label *l, bool *have_text)
{
    pv_status st = PV_OK;
    while (st == PV_OK && !sp_end(p)) {
        if (sp_word(p, "at")) {
            st = sp_position_sys(p, l->at, l->sys, PV_SYS_FIRST);
        } else if (sp_word(p, "left")) {
            l->just = 0;
        } else if (sp_word(p, "cent$er") || sp_word(p, "centre")) {
            l->just = 1;
        } else if (sp_word(p, "right")) {
            l->just = 2;
        } else if (sp_word(p, "rot$ate")) {
            l->rotate = 90.0;
            if (sp_word(p, "by")) st = sp_real(p, &l->rotate);
        } else if (sp_word(p, "norot$ate")) {
            l->rotate = 0.0;
        } else if (sp_word(p, "font")) {
            st = sp_string(p, &l->font);
        } else if (sp_word(p, "noenh$anced")) {
            l->enhanced = false;
        } else if (sp_word(p, "enh$anced")) {
            l->enhanced = true;
        } else if (sp_word(p, "front")) {
            l->front = true;
        } else if (sp_word(p, "back")) {
            l->front = false;
        } else if (sp_word(p, "tc") || sp_word(p, "textc$olor")) {
            if (sp_word(p, "def$ault")) l->tc.kind = PV_COLOR_BLACK;
            else st = sp_color(p, &l->tc);
        } else if (sp_word(p, "po$int")) {
            l->point = true;
            st = sp_lp(p, &l->point_lp);
        } else if (sp_word(p, "nopo$int")) {
            l->point = false;
        } else if (sp_word(p, "off$set")) {
            pv_coord_sys sys[3];
            st = sp_position_sys(p, l->offset, sys, PV_SYS_CHARACTER);
        } else if (sp_word(p, "nooff$set")) {
            l->offset[0] = l->offset[1] = l->offset[2] = 0.0;
        } else if (sp_word(p, "box$ed")) {
            if (sp_word(p, "bs")) {
                int bs = 0;
                st = sp_int(p, &bs);
            }
        } else if (sp_word(p, "nobox$ed") || sp_word(p, "hyper$text") ||
                   sp_word(p, "nohyper$text")) {
            /* text boxes and hypertext: not drawn */
        } else if (!*have_text && sp_can_expr(p)) {
            st = sp_string(p, &l->text);
            *have_text = true;
        } else {
            st = sp_unexpected(p);
        }
    }
    return st;
}

pv_status sp_set_label(pv_sp *p)
{
    pv_settings *s = p->s;
    pv_status st = PV_OK;
    int tag = 0;
    bool have_tag = false, have_text = false;
    pv_label nl;
    label_init(&nl, 0);
    /* a leading expression is the tag, unless it is a string (then it is the text) */
    if (sp_can_expr(p) && !is_option(p)) {
        pv_value v = {0};
        st = sp_value(p, &v);
        if (st == PV_OK && p->exec) {
            if (v.type == PV_V_STR) {
                nl.text = sp_strdup(v.s);
                have_text = true;
            } else {
                tag = (int)pv_value_real(&v);
                have_tag = true;
            }
        }
        pv_value_free(&v);
    }
    if (st != PV_OK) return st;
    if (!p->exec) { /* syntax check */
        st = label_options(p, &nl, &have_text);
        label_fini(&nl);
        return st;
    }
    if (have_tag && tag <= 0) {
        label_fini(&nl);
        return sp_err(p, PV_ESCRIPT, "tag must be > zero");
    }
    int at = have_tag ? find_label(s, tag) : -1;
    pv_label l;
    if (at >= 0) { /* change what is given of the existing label */
        l = s->labels[at];
        l.text = sp_strdup(l.text);
        l.font = sp_strdup(l.font);
        if (have_text) {
            free(l.text);
            l.text = nl.text;
            nl.text = NULL;
        }
    } else {
        l = nl;
        nl.text = NULL;
        l.tag = have_tag ? tag : sp_tag_lowest_free(s->labels, s->nlabels, sizeof *s->labels);
    }
    label_fini(&nl);
    st = label_options(p, &l, &have_text);
    if (st != PV_OK) {
        label_fini(&l);
        return st;
    }
    if (!l.text) l.text = sp_strdup("");
    if (at >= 0) {
        label_fini(&s->labels[at]);
        s->labels[at] = l;
        return PV_OK;
    }
    st = sp_tag_insert(s->ctx, (void **)&s->labels, &s->nlabels, &s->labels_cap,
                       sizeof *s->labels, &l);
    if (st != PV_OK) label_fini(&l);
    return st;
}

static void label_fini_item(void *l) { label_fini(l); }

pv_status sp_unset_label(pv_sp *p)
{
    return sp_tag_unset(p, p->s->labels, &p->s->nlabels, sizeof *p->s->labels, pv_labels_fini,
                        label_fini_item);
}

/* gnuplot's save_position: first coordinates as "%#g" (labels) or "%.5f" (arrows:
 * fixed5), others named where the system changes. */
void sp_show_position(FILE *out, const double v[3], const pv_coord_sys sys[3], bool fixed5)
{
    static const char *const names[] = {"first ", "second ", "graph ", "screen ",
                                        "character ", "polar "};
    fputc('(', out);
    for (int k = 0; k < 3; k++) {
        if (k) fputs(", ", out);
        bool named = k == 0 ? sys[k] != PV_SYS_FIRST : sys[k] != sys[k - 1];
        if (named) fputs(names[sys[k]], out);
        if (sys[k] == PV_SYS_FIRST && fixed5) fprintf(out, "%.5f", v[k]);
        else if (sys[k] == PV_SYS_FIRST) fprintf(out, "%#g", v[k]);
        else fprintf(out, "%g", v[k]);
    }
    fputc(')', out);
}

pv_status sp_show_label(pv_sp *p)
{
    const pv_settings *s = p->s;
    int only = 0;
    if (!sp_end(p)) {
        pv_status st = sp_int(p, &only);
        if (st != PV_OK) return st;
    }
    if (OUT) {
        static const char *const just[] = {" left", " centre", " right"};
        fputc('\n', OUT);
        for (int k = 0; k < s->nlabels; k++) {
            const pv_label *l = &s->labels[k];
            if (only > 0 && l->tag != only) continue;
            fprintf(OUT, "\tlabel %d \"%s\" at ", l->tag, l->text ? l->text : "");
            sp_show_position(OUT, l->at, l->sys, false);
            fputs(just[l->just], OUT);
            if ((int)l->rotate) fprintf(OUT, " rotated by %d degrees (if possible)", (int)l->rotate);
            else fputs(" not rotated", OUT);
            fprintf(OUT, " %s ", l->front ? "front" : "back");
            if (l->font) fprintf(OUT, " font \"%s\"", l->font);
            if (!l->enhanced) fputs(" noenhanced", OUT);
            fputs(l->point ? " point" : " nopoint", OUT);
            fputc('\n', OUT);
        }
        fputc('\n', OUT);
    }
    return sp_done(p);
}
