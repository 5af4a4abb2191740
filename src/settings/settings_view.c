/*
 * pvox settings: `view`, `xyplane` (and `ticslevel`), `border`, `key` and `colorbox`: set,
 * unset and show.
 */
#include "settings_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Enter map view (gnuplot keeps rot_x/rot_z and the surface's scale apart from the map's
 * scale; the renderer draws s->view.scale, so the surface's is saved). */
static void view_enter_map(pv_view *v, double map_scale)
{
    if (!v->map) v->surface_scale = v->scale;
    v->map = true;
    v->projection = PV_VIEW_PROJ_NONE;
    v->scale = map_scale;
    v->azimuth = 0.0;
    v->equal = 0; /* gnuplot's map forgets `equal` */
}

/* `set view projection xy|xz|yz` after `projection`. gnuplot draws xz with rot 270,0 and
 * yz with 90,90, scale 1, azimuth -90; it writes those angles into the view at the first
 * plot, pvox at once (so a partial `set view ,,2` before any plot starts from them, where
 * gnuplot would start from the angles before the projection). */
static pv_status view_projection(pv_sp *p)
{
    pv_view *v = &p->s->view;
    int proj = -1;
    if (sp_word(p, "xy")) proj = PV_VIEW_PROJ_NONE;
    else if (sp_word(p, "xz")) proj = PV_VIEW_PROJ_XZ;
    else if (sp_word(p, "yz")) proj = PV_VIEW_PROJ_YZ;
    else return sp_err(p, PV_ESYNTAX, "expecting xy or xz or yz");
    pv_status st = sp_expect_end(p);
    if (st != PV_OK || !p->exec) return st;
    if (proj == PV_VIEW_PROJ_NONE) {
        view_enter_map(v, 1.0);
        return PV_OK;
    }
    v->map = false;
    v->projection = proj;
    v->rot_x = proj == PV_VIEW_PROJ_XZ ? 270.0 : 90.0;
    v->rot_z = proj == PV_VIEW_PROJ_XZ ? 0.0 : 90.0;
    v->scale = 1.0;
    v->azimuth = -90.0;
    return PV_OK;
}

pv_status sp_set_view(pv_sp *p)
{
    pv_settings *s = p->s;
    pv_status st = PV_OK;
    if (sp_word(p, "map")) {
        double scale = 1.0;
        if (sp_word(p, "sc$ale")) st = sp_real(p, &scale);
        if (st != PV_OK) return st;
        if ((st = sp_expect_end(p)) != PV_OK || !p->exec) return st;
        view_enter_map(&s->view, scale);
        return PV_OK;
    }
    if (sp_word(p, "proj$ection")) return view_projection(p);
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
    double scale = s->view.map ? s->view.surface_scale : s->view.scale;
    double v[4] = {s->view.rot_x, s->view.rot_z, scale, s->view.zscale};
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
    s->view.projection = PV_VIEW_PROJ_NONE;
    s->view.rot_x = v[0];
    s->view.rot_z = v[1];
    s->view.scale = v[2];
    s->view.zscale = v[3];
    return PV_OK;
}

pv_status sp_unset_view(pv_sp *p)
{
    if (p->exec) {
        p->s->view.map = false;
        p->s->view.projection = PV_VIEW_PROJ_NONE;
        p->s->view.surface_scale = 1.0;
        p->s->view.rot_x = 60.0;
        p->s->view.rot_z = 30.0;
        p->s->view.scale = p->s->view.zscale = 1.0;
        p->s->view.azimuth = 0.0;
        p->s->view.equal = 0;
    }
    return sp_expect_end(p);
}

pv_status sp_set_xyplane(pv_sp *p)
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

/* `set boxwidth {w} {absolute|relative}`: no width is auto; a width alone is absolute. */
pv_status sp_set_boxwidth(pv_sp *p)
{
    double w = 0.0;
    bool given = false, relative = false;
    pv_status st = PV_OK;
    if (sp_can_expr(p) && !sp_isword(p, "abs$olute") && !sp_isword(p, "rel$ative")) {
        st = sp_real(p, &w);
        given = true;
    }
    if (st == PV_OK && sp_word(p, "rel$ative")) relative = true;
    else if (st == PV_OK) sp_word(p, "abs$olute");
    if (st == PV_OK) st = sp_expect_end(p);
    if (st != PV_OK || !p->exec) return st;
    p->s->boxwidth_mode = !given ? 0 : relative ? 2 : 1;
    p->s->boxwidth = w;
    return PV_OK;
}

pv_status sp_unset_boxwidth(pv_sp *p)
{
    if (p->exec) p->s->boxwidth_mode = 0;
    return sp_expect_end(p);
}

pv_status sp_show_boxwidth(pv_sp *p)
{
    const pv_settings *s = p->s;
    if (OUT) {
        if (s->boxwidth_mode == 0) fprintf(OUT, "\tboxwidth is auto\n");
        else fprintf(OUT, "\tboxwidth is %g %s\n", s->boxwidth,
                     s->boxwidth_mode == 2 ? "relative" : "absolute");
    }
    return sp_done(p);
}

pv_status sp_set_ticslevel(pv_sp *p)
{
    double v = 0.0;
    pv_status st = sp_real(p, &v);
    if (st == PV_OK) st = sp_expect_end(p);
    if (st != PV_OK || !p->exec) return st;
    p->s->xyplane_absolute = false;
    p->s->xyplane_rel = v;
    return PV_OK;
}

pv_status sp_unset_xyplane(pv_sp *p)
{
    if (p->exec) {
        p->s->xyplane_absolute = false;
        p->s->xyplane_rel = 0.5;
    }
    return sp_expect_end(p);
}

pv_status sp_set_border(pv_sp *p)
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
            st = sp_lp(p, &lp);
            if (st == PV_OK && p->c->pos == before) st = sp_unexpected(p);
        }
    }
    if (st != PV_OK || !p->exec) return st;
    s->border = bits;
    s->border_layer = layer;
    s->border_lp = lp;
    return PV_OK;
}

pv_status sp_unset_border(pv_sp *p)
{
    if (p->exec) p->s->border = 0;
    return sp_expect_end(p);
}

/* ---- key, colorbox ---------------------------------------------------------------- */

/* The margin placements of `set key` and their aliases (above/over = tmargin centred and
 * horizontal, below/under = bmargin centred and horizontal), as gnuplot 5.4 shows them. */
static bool key_margin(pv_sp *p, pv_key *k)
{
    bool centred = false;
    if (sp_word(p, "lmargin")) k->margin = PV_KEYMARGIN_L, k->hpos = PV_KEYPOS_LEFT;
    else if (sp_word(p, "rmargin")) k->margin = PV_KEYMARGIN_R, k->hpos = PV_KEYPOS_RIGHT;
    else if (sp_word(p, "tmargin")) k->margin = PV_KEYMARGIN_T, k->vpos = PV_KEYPOS_TOP;
    else if (sp_word(p, "bmargin")) k->margin = PV_KEYMARGIN_B, k->vpos = PV_KEYPOS_BOTTOM;
    else if (sp_word(p, "above") || sp_word(p, "over"))
        k->margin = PV_KEYMARGIN_T, k->vpos = PV_KEYPOS_TOP, centred = true;
    else if (sp_word(p, "below") || sp_word(p, "under"))
        k->margin = PV_KEYMARGIN_B, k->vpos = PV_KEYPOS_BOTTOM, centred = true;
    else return false;
    if (centred) k->hpos = PV_KEYPOS_CENTER, k->vertical = false;
    k->inside = false, k->user_at = false, k->fixed = false;
    return true;
}

/* `title {"text"} {{no}enhanced} {left|right|center}` after the keyword. */
static pv_status key_title(pv_sp *p, pv_key *k, bool *title_set)
{
    pv_status st = PV_OK;
    *title_set = true;
    if (sp_can_expr(p) && pv_cur_peek(p->c)->kind != PV_TK_NAME) st = sp_string(p, &k->title);
    else if (sp_can_expr(p) && !sp_is_text_keyword(p) && !sp_isword(p, "at") &&
             !sp_isword(p, "box") && !sp_isword(p, "nobox"))
        st = sp_string(p, &k->title);
    while (st == PV_OK && (sp_word(p, "enh$anced") || sp_word(p, "noenh$anced") ||
                           sp_word(p, "left") || sp_word(p, "right") || sp_word(p, "center")))
        ; /* the title's own enhanced mode and justification: stored nowhere */
    return st;
}

/* `box {N | ls|lt|lw|lc|dt ...}` after the keyword. */
static pv_status key_box(pv_sp *p, pv_key *k)
{
    k->box = true;
    pv_status st = PV_OK;
    if (sp_can_expr(p) && pv_cur_peek(p->c)->kind != PV_TK_NAME) {
        int lt = 0; /* gnuplot still takes the old `box <linetype>` */
        st = sp_int(p, &lt);
        if (st == PV_OK && p->exec) k->box_lp.lt = lt;
    }
    return st == PV_OK ? sp_lp(p, &k->box_lp) : st;
}

/* `maxcols|maxrows {N | auto}` after the keyword. */
static pv_status key_max(pv_sp *p, int *n)
{
    if (sp_word(p, "a$uto")) {
        *n = 0;
        return PV_OK;
    }
    int v = 0;
    pv_status st = sp_int(p, &v);
    if (st == PV_OK && p->exec) *n = v < 0 ? 0 : v;
    return st;
}

/* Which justifications one `set key` gave: a `center` applies to whichever of the two
 * the command did not set (both if neither), in any order, as gnuplot 5.4 does. */
typedef struct key_just { bool h, v, center; } key_just;

/* One `set key` placement word; false if it is not one. */
static bool key_placement(pv_sp *p, pv_key *k, key_just *j)
{
    if (key_margin(p, k)) return true;
    bool in = sp_isword(p, "ins$ide"), out = sp_isword(p, "out$side");
    if (in || out || sp_isword(p, "fixed")) {
        pv_cur_next(p->c);
        k->inside = !out, k->fixed = !in && !out;
        k->margin = PV_KEYMARGIN_NONE, k->user_at = false;
    }
    else if (sp_word(p, "l$eft")) k->hpos = PV_KEYPOS_LEFT, j->h = true;
    else if (sp_word(p, "r$ight")) k->hpos = PV_KEYPOS_RIGHT, j->h = true;
    else if (sp_word(p, "t$op")) k->vpos = PV_KEYPOS_TOP, j->v = true;
    else if (sp_word(p, "b$ottom")) k->vpos = PV_KEYPOS_BOTTOM, j->v = true;
    else if (sp_word(p, "c$enter")) j->center = true;
    else if (sp_word(p, "ve$rtical")) k->vertical = true;
    else if (sp_word(p, "ho$rizontal")) k->vertical = false;
    else if (sp_word(p, "Left")) k->left_justify = true;
    else if (sp_word(p, "Right")) k->left_justify = false;
    else return false;
    return true;
}

/* One `set key` flag; false if it is not one. */
static bool key_flag(pv_sp *p, pv_key *k)
{
    if (sp_word(p, "on")) k->on = true;
    else if (sp_word(p, "off")) k->on = false;
    else if (sp_word(p, "noopaque")) k->opaque = false;
    else if (sp_word(p, "rev$erse")) k->reverse = true;
    else if (sp_word(p, "norev$erse")) k->reverse = false;
    else if (sp_word(p, "inv$ert")) k->invert = true;
    else if (sp_word(p, "noinv$ert")) k->invert = false;
    else if (sp_word(p, "enh$anced")) k->enhanced = true;
    else if (sp_word(p, "noenh$anced")) k->enhanced = false;
    else if (sp_word(p, "noautot$itle")) k->autotitle = false, k->autotitle_columnhead = false;
    else if (sp_word(p, "autot$itle")) {
        k->autotitle = true;
        k->autotitle_columnhead = sp_word(p, "col$umnheader");
    }
    else if (sp_word(p, "nobox$ed")) k->box = false;
    else return false;
    return true;
}

pv_status sp_set_key(pv_sp *p)
{
    pv_settings *s = p->s;
    pv_key k = s->key;
    k.title = NULL;
    k.font = NULL;
    bool title_set = false, font_set = false;
    key_just just = {false, false, false};
    pv_status st = PV_OK;
    k.on = true;
    while (st == PV_OK && !sp_end(p)) {
        if (key_placement(p, &k, &just) || key_flag(p, &k)) continue;
        if (sp_word(p, "def$ault")) {
            pv_key d;
            pv_key_default(&d);
            free(k.title), free(k.font);
            k = d;
            title_set = font_set = true;
        }
        else if (sp_word(p, "at")) {
            k.user_at = true, k.inside = true, k.margin = 0, k.fixed = false;
            st = sp_position(p, k.at);
        }
        else if (sp_word(p, "opaque")) {
            k.opaque = true;
            if (sp_word(p, "fc") || sp_word(p, "fillc$olor")) st = sp_color(p, &k.opaque_fc);
        }
        else if (sp_word(p, "sa$mplen")) st = sp_real(p, &k.samplen);
        else if (sp_word(p, "sp$acing")) st = sp_real(p, &k.spacing);
        else if (sp_word(p, "w$idth")) st = sp_real(p, &k.width);
        else if (sp_word(p, "h$eight")) st = sp_real(p, &k.height);
        else if (sp_word(p, "maxc$olumns") || sp_word(p, "maxcols")) st = key_max(p, &k.maxcols);
        else if (sp_word(p, "maxr$ows")) st = key_max(p, &k.maxrows);
        else if (sp_word(p, "font")) {
            font_set = true;
            st = sp_string(p, &k.font);
        }
        else if (sp_word(p, "tc") || sp_word(p, "textc$olor")) st = sp_color(p, &k.tc);
        else if (sp_word(p, "tit$le")) st = key_title(p, &k, &title_set);
        else if (sp_word(p, "notit$le")) title_set = true;
        else if (sp_word(p, "box$ed")) st = key_box(p, &k);
        else st = sp_err(p, PV_ESYNTAX, "unknown key option");
    }
    if (st != PV_OK || !p->exec) {
        free(k.title);
        free(k.font);
        return st;
    }
    if (just.center && !just.h) k.hpos = PV_KEYPOS_CENTER;
    if (just.center && !just.v) k.vpos = PV_KEYPOS_CENTER;
    if (title_set) free(s->key.title);
    else k.title = s->key.title;
    if (font_set) free(s->key.font);
    else k.font = s->key.font;
    s->key = k;
    return PV_OK;
}

pv_status sp_unset_key(pv_sp *p)
{
    if (p->exec) p->s->key.on = false;
    return sp_expect_end(p);
}

pv_status sp_set_colorbox(pv_sp *p)
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
            st = sp_position(p, xyz);
            cb.origin[0] = xyz[0], cb.origin[1] = xyz[1], cb.user = true;
        } else if (sp_word(p, "s$ize")) {
            double xyz[3] = {cb.size[0], cb.size[1], 0};
            st = sp_position(p, xyz);
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

pv_status sp_unset_colorbox(pv_sp *p)
{
    if (p->exec) p->s->colorbox.on = false;
    return sp_expect_end(p);
}

/* ---- show ------------------------------------------------------------------------ */

pv_status sp_show_view(pv_sp *p)
{
    const pv_view *v = &p->s->view;
    if (OUT) {
        if (v->map) {
            fprintf(OUT, "\n\tview is map scale %g\n\n", v->scale);
        } else {
            if (v->projection)
                fprintf(OUT, "\n\tview is %s projection\n",
                        v->projection == PV_VIEW_PROJ_XZ ? "xz" : "yz");
            else
                fprintf(OUT, "\n\tview is %g rot_x, %g rot_z, %g scale, %g scale_z\n",
                        v->rot_x, v->rot_z, v->scale, v->zscale);
            fprintf(OUT, "\t\t%s\n", v->equal == 2 ? "x/y/z axes are on the same scale"
                                     : v->equal == 1 ? "x/y axes are on the same scale"
                                                     : " axes are independently scaled");
            fprintf(OUT, "\t\t azimuth %g\n\n", v->azimuth);
        }
    }
    return sp_done(p);
}

pv_status sp_show_xyplane(pv_sp *p)
{
    if (OUT) {
        if (p->s->xyplane_absolute)
            fprintf(OUT, "\n\txyplane intercepts z axis at %g\n\n", p->s->xyplane_z);
        else
            fprintf(OUT, "\n\txyplane %g\n\n", p->s->xyplane_rel);
    }
    return sp_done(p);
}

pv_status sp_show_border(pv_sp *p)
{
    const pv_settings *s = p->s;
    if (OUT) {
        if (!s->border) {
            fprintf(OUT, "\n\tborder is not drawn\n\n");
        } else {
            static const char *const layer[] = {"front", "back", "behind"};
            char col[64];
            sp_color_text(col, sizeof col, &s->border_lp.lc);
            fprintf(OUT, "\n\tborder %d (0x%X) is drawn in %s layer with\n\t  %s linewidth %.3f "
                         "dashtype solid\n\n",
                    s->border, (unsigned)s->border, layer[s->border_layer],
                    s->border_lp.lc.kind == PV_COLOR_BLACK ? "lt black" : col, s->border_lp.lw);
        }
    }
    return sp_done(p);
}

/* gnuplot 5.4's `show key` position line: a margin key omits the justification along its
 * margin, a centred key says `center` once. */
static void show_key_position(FILE *out, const pv_key *k)
{
    if (k->user_at) {
        fprintf(out, "\tkey is at (%.5f, %.5f)\n", k->at[0], k->at[1]);
        return;
    }
    bool tb = k->margin == PV_KEYMARGIN_T || k->margin == PV_KEYMARGIN_B;
    bool lr = k->margin == PV_KEYMARGIN_L || k->margin == PV_KEYMARGIN_R;
    fprintf(out, "\tkey is ON, position: ");
    if (!tb)
        fprintf(out, "%s", k->vpos == PV_KEYPOS_TOP ? "top"
                           : k->vpos == PV_KEYPOS_BOTTOM ? "bottom" : "center");
    if (!lr) {
        if (k->hpos == PV_KEYPOS_LEFT) fprintf(out, " left");
        else if (k->hpos == PV_KEYPOS_RIGHT) fprintf(out, " right");
        else if (k->vpos != PV_KEYPOS_CENTER) fprintf(out, " center");
    }
    fprintf(out, " %s", k->vertical ? "vertical" : "horizontal");
    static const char *const margin[] = {"", " lmargin", " rmargin", " tmargin", " bmargin"};
    if (k->margin) fprintf(out, "%s\n", margin[k->margin]);
    else fprintf(out, " %s\n", !k->inside ? "outside" : k->fixed ? "fixed" : "inside");
}

/* The key box's line: `lt black` or the linetype's colour, width, dash type. */
static void show_key_box(pv_sp *p, const pv_key *k)
{
    const pv_lp *lp = &k->box_lp;
    char col[64] = "";
    pv_color c = lp->lc;
    if (c.kind == PV_COLOR_LT && c.lt > 0) {
        c.kind = PV_COLOR_RGB;
        c.argb = pv_settings_lt_rgb(p->s, c.lt);
    } else if (c.kind == PV_COLOR_DEFAULT && lp->lt > 0) {
        c.kind = PV_COLOR_RGB;
        c.argb = pv_settings_lt_rgb(p->s, lp->lt);
    }
    if (c.kind == PV_COLOR_DEFAULT || c.kind == PV_COLOR_BLACK) {
        snprintf(col, sizeof col, "lt black");
    } else {
        char t[48];
        sp_color_text(t, sizeof t, &c);
        snprintf(col, sizeof col, "linecolor %s", t);
    }
    char dt[24] = "solid";
    if (lp->dt) snprintf(dt, sizeof dt, "%d", lp->dt);
    fprintf(OUT, "\twith  %s linewidth %.3f dashtype %s\n", col, lp->lw, dt);
}

pv_status sp_show_key(pv_sp *p)
{
    const pv_key *k = &p->s->key;
    if (!OUT) return sp_done(p);
    if (!k->on) {
        fprintf(OUT, "\n\tkey is OFF\n\n");
        return sp_done(p);
    }
    fprintf(OUT, "\n");
    show_key_position(OUT, k);
    fprintf(OUT, "\tkey is %s justified, %sreversed, %sinverted, %senhanced and %s\n",
            k->left_justify ? "left" : "right", k->reverse ? "" : "not ", k->invert ? "" : "not ",
            k->enhanced ? "" : "not ", k->box ? "boxed" : "not boxed");
    if (k->box) show_key_box(p, k);
    if (k->opaque) {
        char col[48] = "";
        if (k->opaque_fc.kind != PV_COLOR_DEFAULT) {
            sp_color_text(col, sizeof col, &k->opaque_fc);
            strcat(col, " ");
        }
        fprintf(OUT, "\tkey box is opaque %s\n", col);
    }
    fprintf(OUT, "\tsample length is %g characters\n", k->samplen);
    fprintf(OUT, "\tvertical spacing is %g characters\n", k->spacing);
    fprintf(OUT, "\twidth adjustment is %g characters\n", k->width);
    fprintf(OUT, "\theight adjustment is %g characters\n", k->height);
    const char *autotitle = !k->autotitle ? "not automatically titled "
                            : k->autotitle_columnhead ? "automatically titled with column header"
                                                      : "automatically titled with filename";
    fprintf(OUT, "\tcurves are %s\n", autotitle);
    if (k->maxcols > 0)
        fprintf(OUT, "\tmaximum number of columns is %d for horizontal alignment\n", k->maxcols);
    else
        fprintf(OUT, "\tmaximum number of columns is calculated automatically\n");
    if (k->maxrows > 0)
        fprintf(OUT, "\tmaximum number of rows is %d for vertical alignment\n", k->maxrows);
    else
        fprintf(OUT, "\tmaximum number of rows is calculated automatically\n");
    if (k->font) fprintf(OUT, "\t  font \"%s\"\n", k->font);
    if (k->tc.kind != PV_COLOR_DEFAULT) {
        char col[64];
        sp_color_text(col, sizeof col, &k->tc);
        fprintf(OUT, "\t  textcolor %s\n", col);
    }
    fprintf(OUT, "\n\tkey title is \"%s\"\n\n", k->title ? k->title : "");
    return sp_done(p);
}

pv_status sp_show_colorbox(pv_sp *p)
{
    const pv_colorbox *cb = &p->s->colorbox;
    if (OUT) {
        if (!cb->on) {
            fprintf(OUT, "\tcolor box %s, DEFAULT line type is NOT drawn\n",
                    cb->border ? "with border" : "without border");
            fprintf(OUT, "\tcolor gradient is %s \n\n", cb->vertical ? "vertical" : "horizontal");
        } else {
            fprintf(OUT, "\tcolor box %s, DEFAULT line type is drawn %s\n",
                    cb->border ? "with border" : "without border", cb->front ? "front" : "back");
            if (cb->user)
                fprintf(OUT, "\tat USER origin: %g, %g\n\t          size: %g, %g\n", cb->origin[0],
                        cb->origin[1], cb->size[0], cb->size[1]);
            else
                fprintf(OUT, "\tat DEFAULT position\n");
            fprintf(OUT, "\tcolor gradient is %s \n\n", cb->vertical ? "vertical" : "horizontal");
        }
    }
    return sp_done(p);
}

/* ---- set xzeroaxis / yzeroaxis / zzeroaxis / zeroaxis -------------------------------- */

/* Axes in `mask` get a zero axis with the line properties given (gnuplot starts from its
 * axis linetype each time: lt 0, lw 1). */
static pv_status zeroaxis(pv_sp *p, unsigned mask, bool on)
{
    pv_lp lp = pv_lp_default();
    pv_status st = on ? sp_lp(p, &lp) : PV_OK;
    if (st == PV_OK) st = sp_expect_end(p);
    if (st != PV_OK || !p->exec) return st;
    for (int ax = 0; ax < 3; ax++) {
        if (!(mask & (1u << ax))) continue;
        p->s->zeroaxis[ax].on = on;
        if (on) p->s->zeroaxis[ax].lp = lp;
    }
    return PV_OK;
}

pv_status sp_set_xzeroaxis(pv_sp *p) { return zeroaxis(p, 1u << PV_AX_X, true); }
pv_status sp_set_yzeroaxis(pv_sp *p) { return zeroaxis(p, 1u << PV_AX_Y, true); }
pv_status sp_set_zzeroaxis(pv_sp *p) { return zeroaxis(p, 1u << PV_AX_Z, true); }
pv_status sp_set_zeroaxis(pv_sp *p) { return zeroaxis(p, 7u, true); }
pv_status sp_unset_xzeroaxis(pv_sp *p) { return zeroaxis(p, 1u << PV_AX_X, false); }
pv_status sp_unset_yzeroaxis(pv_sp *p) { return zeroaxis(p, 1u << PV_AX_Y, false); }
pv_status sp_unset_zzeroaxis(pv_sp *p) { return zeroaxis(p, 1u << PV_AX_Z, false); }
pv_status sp_unset_zeroaxis(pv_sp *p) { return zeroaxis(p, 7u, false); }

static void show_zeroaxis(pv_sp *p, int ax)
{
    const pv_lp *lp = &p->s->zeroaxis[ax].lp;
    if (!p->s->zeroaxis[ax].on) {
        fprintf(OUT, "\t%szeroaxis is OFF\n", sp_axis_names[ax]);
        return;
    }
    char col[64];
    sp_color_text(col, sizeof col, &lp->lc);
    if (lp->lt == 0 && lp->lc.kind == PV_COLOR_DEFAULT)
        fprintf(OUT, "\t%szeroaxis is drawn with\t linetype 0 linewidth %.3f\n", sp_axis_names[ax],
                lp->lw);
    else
        fprintf(OUT, "\t%szeroaxis is drawn with\t %s linewidth %.3f\n", sp_axis_names[ax], col,
                lp->lw);
}

pv_status sp_show_xzeroaxis(pv_sp *p) { if (OUT) show_zeroaxis(p, PV_AX_X); return sp_done(p); }
pv_status sp_show_yzeroaxis(pv_sp *p) { if (OUT) show_zeroaxis(p, PV_AX_Y); return sp_done(p); }
pv_status sp_show_zzeroaxis(pv_sp *p) { if (OUT) show_zeroaxis(p, PV_AX_Z); return sp_done(p); }
pv_status sp_show_zeroaxis(pv_sp *p)
{
    if (OUT)
        for (int ax = 0; ax < 3; ax++) show_zeroaxis(p, ax);
    return sp_done(p);
}
