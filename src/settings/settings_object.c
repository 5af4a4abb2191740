/*
 * pvox settings: `set object`, `unset object`, `show object`.
 *
 * gnuplot 5.4's objects are rectangles, circles, ellipses and polygons. In a 3D plot it
 * draws a rectangle only when both corners (or its centre) are in screen coordinates;
 * pvox stores every object, draws those rectangles, and names the kinds it does not draw
 * in one warning. `set object N` changes only what is given of an existing object.
 */
#include "settings_int.h"

#include <string.h>

/* gnuplot's default rectangle style: back, fill colour background, solid 1 with a black
 * border, lw 1. */
static void object_init(pv_object *o, int tag)
{
    memset(o, 0, sizeof *o);
    o->tag = tag;
    o->rectangle = true;
    o->layer = PV_OBJ_BACK;
    o->fill.kind = PV_FILL_SOLID;
    o->fill.density = 1.0;
    o->fill.border = true;
    o->fill.border_color.kind = PV_COLOR_BLACK;
    o->fc.kind = PV_COLOR_BGND;
    o->lw = 1.0;
}

static int find_object(const pv_settings *s, int tag)
{
    return sp_tag_find(s->objects, s->nobjects, sizeof *s->objects, tag);
}

void pv_objects_fini(pv_settings *s)
{
    pv_free(s->ctx, s->objects, s->objects_cap * sizeof *s->objects);
    s->objects = NULL;
    s->objects_cap = 0;
    s->nobjects = 0;
}

/* Everything after the object kind. */
static pv_status object_options(pv_sp *p, pv_object *o)
{
    pv_status st = PV_OK;
    while (st == PV_OK && !sp_end(p)) {
        if (sp_word(p, "from")) {
            o->centred = false;
            st = sp_position_sys(p, o->p1, o->sys1, PV_SYS_FIRST);
        } else if (sp_word(p, "to") || sp_word(p, "rto")) {
            st = sp_position_sys(p, o->p2, o->sys2, PV_SYS_FIRST);
        } else if (sp_word(p, "cen$ter") || sp_word(p, "at")) {
            o->centred = true;
            st = sp_position_sys(p, o->p1, o->sys1, PV_SYS_FIRST);
        } else if (sp_word(p, "si$ze")) {
            st = sp_position_sys(p, o->p2, o->sys2, PV_SYS_FIRST);
        } else if (sp_word(p, "radius") || sp_word(p, "ang$le") || sp_word(p, "arc") ||
                   sp_word(p, "units")) {
            /* circle / ellipse geometry: stored nowhere (not drawn) */
            if (sp_isop(p, "[")) {
                while (!sp_end(p) && !sp_op(p, "]")) pv_cur_next(p->c);
            } else if (sp_word(p, "xy") || sp_word(p, "xx") || sp_word(p, "yy")) {
            } else {
                double d[3];
                pv_coord_sys sys[3];
                st = sp_position_sys(p, d, sys, PV_SYS_FIRST);
            }
        } else if (sp_word(p, "front")) {
            o->layer = PV_OBJ_FRONT;
        } else if (sp_word(p, "back")) {
            o->layer = PV_OBJ_BACK;
        } else if (sp_word(p, "behind")) {
            o->layer = PV_OBJ_BEHIND;
        } else if (sp_word(p, "depth$order")) {
            o->layer = PV_OBJ_DEPTHORDER;
        } else if (sp_word(p, "clip") || sp_word(p, "noclip") || sp_word(p, "def$ault")) {
            /* screen rectangles are not clipped; `default`: the style already is */
        } else if (sp_word(p, "fc") || sp_word(p, "fillc$olor") || sp_word(p, "fillcolour")) {
            st = sp_color(p, &o->fc);
        } else if (sp_word(p, "fs") || sp_word(p, "fill$style")) {
            o->fill_given = true;
            st = sp_fill_words(p, &o->fill);
        } else if (sp_word(p, "lw") || sp_word(p, "linew$idth")) {
            st = sp_real(p, &o->lw);
        } else if (sp_word(p, "dt") || sp_word(p, "dasht$ype") || sp_word(p, "lt") ||
                   sp_word(p, "linet$ype") || sp_word(p, "lc") || sp_word(p, "linec$olor")) {
            /* `lc` of an object is its border; `lt`/`dt`: read (drawn solid) */
            pv_color col;
            if (sp_isword(p, "rgb$color") || sp_isword(p, "pal$ette")) st = sp_color(p, &col);
            else {
                pv_value v = {0};
                st = sp_value(p, &v);
                pv_value_free(&v);
            }
        } else {
            st = sp_unexpected(p);
        }
    }
    return st;
}

pv_status sp_set_object(pv_sp *p)
{
    pv_settings *s = p->s;
    pv_status st = PV_OK;
    int tag = 0;
    bool have_tag = false;
    if (sp_can_expr(p) && pv_cur_peek(p->c)->kind != PV_TK_NAME) {
        st = sp_int(p, &tag);
        have_tag = true;
    } else if (sp_can_expr(p) && !sp_isword(p, "rect$angle") && !sp_isword(p, "circ$le") &&
               !sp_isword(p, "ell$ipse") && !sp_isword(p, "poly$gon")) {
        st = sp_int(p, &tag); /* a variable holding the tag */
        have_tag = true;
    }
    if (st != PV_OK) return st;
    if (p->exec && have_tag && tag <= 0) return sp_err(p, PV_ESCRIPT, "tag must be > zero");
    int at = have_tag && p->exec ? find_object(s, tag) : -1;
    pv_object o;
    if (at >= 0) o = s->objects[at];
    else {
        int t = tag;
        if (!have_tag && p->exec) /* gnuplot: one more than the highest tag in use */
            for (int k = 0; k < s->nobjects; k++) t = s->objects[k].tag >= t ? s->objects[k].tag + 1 : t;
        object_init(&o, have_tag ? tag : (t > 0 ? t : 1));
    }
    if (sp_word(p, "rect$angle")) o.rectangle = true;
    else if (sp_word(p, "circ$le") || sp_word(p, "ell$ipse") || sp_word(p, "poly$gon")) {
        o.rectangle = false;
        if (p->exec)
            sp_warn_once(p, WARN_OBJECT_KIND,
                         "circles, ellipses and polygons (`set object`) are not drawn by pvox "
                         PV_VERSION_MAJOR_MINOR);
        sp_skip_rest(p); /* their vertices and options: not parsed further */
    }
    st = object_options(p, &o);
    if (st != PV_OK || !p->exec) return st;
    return sp_tag_store(s->ctx, (void **)&s->objects, &s->nobjects, &s->objects_cap,
                        sizeof *s->objects, at, &o);
}

pv_status sp_unset_object(pv_sp *p)
{
    return sp_tag_unset(p, p->s->objects, &p->s->nobjects, sizeof *p->s->objects,
                        pv_objects_fini, NULL);
}

pv_status sp_show_object(pv_sp *p)
{
    const pv_settings *s = p->s;
    static const char *const layer[] = {"behind", "back", "front", "depthorder"};
    if (OUT) {
        for (int k = 0; k < s->nobjects; k++) {
            const pv_object *o = &s->objects[k];
            fprintf(OUT, "\tobject %3d %s %s %g,%g,%g %s %g,%g,%g %s\n", o->tag,
                    o->rectangle ? "rect" : "(circle, ellipse or polygon)",
                    o->centred ? "center" : "from", o->p1[0], o->p1[1], o->p1[2],
                    o->centred ? "size" : "to", o->p2[0], o->p2[1], o->p2[2],
                    layer[o->layer + 1]);
        }
    }
    return sp_done(p);
}
