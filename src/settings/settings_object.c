/*
 * pvox settings: `set object`, `unset object`, `show object`.
 *
 * gnuplot 5.4's objects are rectangles, circles, ellipses and polygons, each with its
 * geometry (from/to/rto corners or a centre and size; a circle's radius and arc, an
 * ellipse's angle and units, a polygon's vertices). `set object N` changes only what is
 * given of an existing object. exec/render.c draws them (where gnuplot does).
 */
#include "settings_int.h"

#include <string.h>

/* gnuplot's default rectangle style: back, fill colour background, solid 1 with a black
 * border, lw 1. */
static void object_init(pv_object *o, int tag)
{
    memset(o, 0, sizeof *o);
    o->tag = tag;
    o->kind = PV_OBJ_RECT;
    o->arc[1] = 360.0;
    o->wedge = true;
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
    bool poly = o->kind == PV_OBJ_POLYGON, fresh_vertices = false;
    while (st == PV_OK && !sp_end(p)) {
        if (poly && (sp_isword(p, "from") || sp_isword(p, "to") || sp_isword(p, "rto"))) {
            /* a polygon's vertices: `from` starts the list, each `to`/`rto` adds one */
            bool from = sp_word(p, "from"), rel = !from && sp_word(p, "rto");
            if (!from && !rel) sp_word(p, "to");
            if (from || !fresh_vertices) o->nv = 0, fresh_vertices = true;
            if (o->nv >= PV_OBJ_MAXV)
                return sp_err(p, PV_ERANGE, "a polygon holds at most %d vertices in pvox",
                              PV_OBJ_MAXV);
            int k = o->nv++;
            o->vrel[k] = rel;
            st = sp_position_sys(p, o->v[k], o->vsys[k], k > 0 ? o->vsys[k - 1][0] : PV_SYS_FIRST);
        } else if (sp_word(p, "from")) {
            o->centred = false;
            st = sp_position_sys(p, o->p1, o->sys1, PV_SYS_FIRST);
        } else if (sp_word(p, "to") || sp_word(p, "rto")) {
            bool rel = p->c->tl->tok[p->c->pos - 1].sval[0] == 'r';
            st = sp_position_sys(p, o->p2, o->sys2, PV_SYS_FIRST);
            if (st == PV_OK && rel) /* `rto`: relative to `from`, in its system */
                for (int a = 0; a < 3; a++) o->p2[a] += o->p1[a], o->sys2[a] = o->sys1[a];
        } else if (sp_word(p, "cen$ter") || sp_word(p, "at")) {
            o->centred = true;
            st = sp_position_sys(p, o->p1, o->sys1, PV_SYS_FIRST);
        } else if (sp_word(p, "si$ze") || sp_word(p, "radius")) {
            st = sp_position_sys(p, o->p2, o->sys2, PV_SYS_FIRST);
        } else if (sp_word(p, "ang$le")) {
            st = sp_real(p, &o->angle);
        } else if (sp_word(p, "units")) {
            if (sp_word(p, "xy")) o->units = 0;
            else if (sp_word(p, "xx")) o->units = 1;
            else if (sp_word(p, "yy")) o->units = 2;
            else st = sp_err(p, PV_ESYNTAX, "expecting xy, xx or yy");
        } else if (sp_word(p, "arc")) {
            if (!sp_op(p, "[")) return sp_err(p, PV_ESYNTAX, "expecting '['");
            st = sp_real(p, &o->arc[0]);
            if (st == PV_OK && !sp_op(p, ":")) st = sp_err(p, PV_ESYNTAX, "expecting ':'");
            if (st == PV_OK) st = sp_real(p, &o->arc[1]);
            if (st == PV_OK && !sp_op(p, "]")) st = sp_err(p, PV_ESYNTAX, "expecting ']'");
        } else if (sp_word(p, "wedge")) {
            o->wedge = true;
        } else if (sp_word(p, "nowedge")) {
            o->wedge = false;
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
    pv_object_kind kind = o.kind;
    if (sp_word(p, "rect$angle")) kind = PV_OBJ_RECT;
    else if (sp_word(p, "circ$le")) kind = PV_OBJ_CIRCLE;
    else if (sp_word(p, "ell$ipse")) kind = PV_OBJ_ELLIPSE;
    else if (sp_word(p, "poly$gon")) kind = PV_OBJ_POLYGON;
    if (kind != o.kind) { /* a new kind: gnuplot starts its geometry afresh */
        int keep = o.tag;
        pv_object_layer layer = o.layer;
        object_init(&o, keep);
        o.kind = kind;
        o.layer = layer;
        if (kind == PV_OBJ_CIRCLE || kind == PV_OBJ_ELLIPSE) o.centred = true;
        if (kind == PV_OBJ_CIRCLE) o.p2[0] = 1.0; /* gnuplot's default radius */
        if (kind != PV_OBJ_RECT) { /* gnuplot: empty, outlined in the object's colour */
            o.fill.kind = PV_FILL_EMPTY;
            o.fill.border_color.kind = PV_COLOR_DEFAULT;
        }
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
                    o->kind == PV_OBJ_RECT     ? "rect"
                    : o->kind == PV_OBJ_CIRCLE ? "circle"
                    : o->kind == PV_OBJ_ELLIPSE ? "ellipse"
                                                : "polygon",
                    o->centred ? "center" : "from", o->p1[0], o->p1[1], o->p1[2],
                    o->centred ? "size" : "to", o->p2[0], o->p2[1], o->p2[2],
                    layer[o->layer + 1]);
        }
    }
    return sp_done(p);
}
