/*
 * pvox settings: `set grid` (gnuplot 5.4's set_grid): which axes get grid lines at their
 * major (`xtics`) or minor (`mxtics`) tics, the layer, and the line properties of the
 * major and minor lines (`lt 0` is gnuplot's dotted axis linetype, the default, with
 * width 0.5). Without an axis named, `set grid` turns on x and y. `unset grid` turns all
 * off; `show grid` prints as gnuplot does.
 */
#include "settings_int.h"

#include <string.h>

/* Axis words in gnuplot's order of matching; k: index into grid.major / grid.minor, or -1
 * for axes pvox stores nowhere (x2, y2, r). */
static const struct {
    const char *on, *off;
    int k;
    bool minor;
} grid_words[] = {
    {"x$tics", "nox$tics", PV_AX_X, false},     {"y$tics", "noy$tics", PV_AX_Y, false},
    {"z$tics", "noz$tics", PV_AX_Z, false},     {"x2$tics", "nox2$tics", -1, false},
    {"y2$tics", "noy2$tics", -1, false},        {"mx$tics", "nomx$tics", PV_AX_X, true},
    {"my$tics", "nomy$tics", PV_AX_Y, true},    {"mz$tics", "nomz$tics", PV_AX_Z, true},
    {"mx2$tics", "nomx2$tics", -1, true},       {"my2$tics", "nomy2$tics", -1, true},
    {"cb$tics", "nocb$tics", PV_AX_CB, false},  {"mcb$tics", "nomcb$tics", PV_AX_CB, true},
    {"r$tics", "nor$tics", -1, false},          {"mr$tics", "nomr$tics", -1, true},
};

static bool axis_word(pv_sp *p, bool *changed)
{
    for (size_t i = 0; i < sizeof grid_words / sizeof grid_words[0]; i++) {
        bool on = sp_word(p, grid_words[i].on);
        if (!on && !sp_word(p, grid_words[i].off)) continue;
        int k = grid_words[i].k;
        if (p->exec && k >= 0) {
            if (grid_words[i].minor) p->s->grid.minor[k] = on;
            else p->s->grid.major[k] = on;
        }
        *changed = true;
        return true;
    }
    return false;
}

pv_status sp_set_grid(pv_sp *p)
{
    bool changed = false;
    pv_status st = PV_OK;
    while (st == PV_OK && !sp_end(p)) {
        if (axis_word(p, &changed)) continue;
        if (sp_word(p, "po$lar")) {
            if (p->exec) p->s->grid.polar = true;
            if (!sp_end(p) && sp_can_expr(p)) { /* in the `set angles` unit */
                double angle = 0;
                st = sp_real(p, &angle);
                if (st == PV_OK && p->exec)
                    p->s->grid.polar_angle =
                        p->s->angles_degrees ? angle * 3.14159265358979323846 / 180.0 : angle;
            }
        } else if (sp_word(p, "nopo$lar")) {
            if (p->exec) p->s->grid.polar = false;
        } else if (sp_word(p, "back")) {
            if (p->exec) p->s->grid.layer = 0;
        } else if (sp_word(p, "front")) {
            if (p->exec) p->s->grid.layer = 1;
        } else if (sp_word(p, "layerd$efault")) {
            if (p->exec) p->s->grid.layer = -1;
        } else if (sp_word(p, "vert$ical")) {
            if (p->exec) p->s->grid.vertical = true;
        } else if (sp_word(p, "novert$ical")) {
            if (p->exec) p->s->grid.vertical = false;
        } else {
            /* line properties of the major lines, then `,` and those of the minor ones
             * (without them the minor lines take the major's) */
            size_t at = p->c->pos;
            pv_lp lp = p->s->grid.lp, mlp = p->s->grid.mlp;
            st = sp_lp(p, &lp);
            bool comma = st == PV_OK && sp_op(p, ",");
            if (comma) st = sp_lp(p, &mlp);
            else if (p->c->pos != at) mlp = lp;
            if (st == PV_OK && p->c->pos == at) st = sp_unexpected(p);
            if (st == PV_OK && p->exec) p->s->grid.lp = lp, p->s->grid.mlp = mlp;
        }
    }
    if (st != PV_OK || !p->exec) return st;
    bool any = p->s->grid.polar; /* gnuplot: `polar` turns on the r axis's grid */
    for (int k = 0; k < 4; k++) any = any || p->s->grid.major[k] || p->s->grid.minor[k];
    if (!changed && !any) p->s->grid.major[PV_AX_X] = p->s->grid.major[PV_AX_Y] = true;
    bool part = p->s->grid.major[PV_AX_CB] || p->s->grid.vertical || p->s->grid.polar;
    for (int k = 0; k < 4; k++) part = part || p->s->grid.minor[k];
    if (part)
        sp_warn_once(p, WARN_GRID_PART, "minor, colour-box, vertical and polar grid lines are "
                                        "not drawn by pvox");
    return PV_OK;
}

pv_status sp_unset_grid(pv_sp *p)
{
    if (p->exec) {
        for (int k = 0; k < 4; k++) p->s->grid.major[k] = p->s->grid.minor[k] = false;
        p->s->grid.polar = false;
    }
    return sp_expect_end(p);
}

/* gnuplot's line description in `show grid`: the axis linetype as "lt 0 linecolor ...",
 * another linetype by its colour and dash type. */
static void print_grid_lp(FILE *out, const pv_settings *s, const char *what, const pv_lp *lp)
{
    char col[64] = "0";
    if (lp->lc.kind != PV_COLOR_DEFAULT) sp_color_text(col, sizeof col, &lp->lc);
    if (lp->lt > 0) {
        /* gnuplot names a linetype's colour by its rgb value */
        pv_color c = lp->lc;
        if (c.kind == PV_COLOR_LT) {
            c.kind = PV_COLOR_RGB;
            c.argb = pv_settings_lt_rgb(s, c.lt) & 0xFFFFFFu;
        }
        sp_color_text(col, sizeof col, &c);
        fprintf(out, "\t%s grid drawn with linecolor %s linewidth %.3f dashtype solid\n", what,
                col, lp->lw);
    } else {
        /* an explicit `lt 0` reads as colour 0 with a solid dash type */
        bool lt0 = lp->lc.kind == PV_COLOR_LT && lp->lc.lt == 0;
        if (lt0) strcpy(col, "0");
        fprintf(out, "\t%s grid drawn with lt 0 linecolor %s linewidth %.3f%s\n", what, col,
                lp->lw, lt0 ? " dashtype solid" : "");
    }
}

pv_status sp_show_grid(pv_sp *p)
{
    if (!OUT) return sp_done(p);
    const char *names[4] = {"x", "y", "z", "cb"};
    bool any = p->s->grid.polar;
    for (int k = 0; k < 4; k++) any = any || p->s->grid.major[k] || p->s->grid.minor[k];
    if (!any) {
        fprintf(OUT, "\n\tgrid is OFF\n\n");
        return sp_done(p);
    }
    fprintf(OUT, "\n\t%s grid drawn at", p->s->grid.polar ? "Polar" : "Rectangular");
    for (int k = 0; k < 4; k++) {
        if (p->s->grid.major[k]) fprintf(OUT, " %s", names[k]);
        if (p->s->grid.minor[k]) fprintf(OUT, " m%s", names[k]);
    }
    if (p->s->grid.polar) fprintf(OUT, " r");
    fprintf(OUT, " tics\n");
    print_grid_lp(OUT, p->s, "Major", &p->s->grid.lp);
    print_grid_lp(OUT, p->s, "Minor", &p->s->grid.mlp);
    if (p->s->grid.vertical) fprintf(OUT, "\tVertical grid lines in 3D plots\n");
    if (p->s->grid.polar)
        fprintf(OUT, "\tGrid radii drawn every %f %s\n",
                p->s->angles_degrees ? p->s->grid.polar_angle * 180.0 / 3.14159265358979323846
                                     : p->s->grid.polar_angle,
                p->s->angles_degrees ? "degrees" : "radians");
    static const char *const layer[3] = {"default layer", "back", "front"};
    fprintf(OUT, "\tGrid drawn at %s\n\n", layer[p->s->grid.layer + 1]);
    return sp_done(p);
}
