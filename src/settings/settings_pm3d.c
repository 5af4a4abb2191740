/*
 * pvox settings: `pm3d`, `samples`, `isosamples`, `isosurface`, `jitter`, `hidden3d`: set,
 * unset and show.
 */
#include "settings_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

pv_status sp_set_pm3d(pv_sp *p)
{
    pv_pm3d m = p->s->pm3d;
    /* gnuplot 5.4.4: a bare `set pm3d` and `set pm3d at ...` make pm3d implicit */
    if (sp_end(p)) m.implicit = true;
    pv_status st = PV_OK;
    while (st == PV_OK && !sp_end(p)) {
        size_t at = pv_cur_offset(p->c);
        if (sp_word(p, "at")) {
            const pv_token *t = pv_cur_peek(p->c);
            if (t->kind != PV_TK_NAME || strlen(t->sval) >= sizeof m.at ||
                strspn(t->sval, "bst") != strlen(t->sval))
                st = sp_err(p, PV_ESYNTAX, "parameter to 'pm3d at' requires combination of up to 6 characters b,s or t");
            else {
                strcpy(m.at, t->sval);
                m.implicit = true;
                pv_cur_next(p->c);
            }
        } else if (sp_word(p, "map")) strcpy(m.at, "b");
        else if (sp_word(p, "i$nterpolate")) {
            st = sp_int(p, &m.interp[0]);
            if (st == PV_OK && !sp_op(p, ",")) st = sp_err(p, PV_ESYNTAX, "',' expected");
            if (st == PV_OK) st = sp_int(p, &m.interp[1]);
            if (st == PV_OK && p->exec && (m.interp[0] <= 0 || m.interp[1] <= 0))
                sp_warn_once(p, WARN_PM3D_QUADS, "pm3d interpolate 0 or less (gnuplot's "
                                                 "automatic steps) is drawn as 1");
        } else if (sp_word(p, "scansa$utomatic")) m.scans = 0;
        else if (sp_word(p, "scansf$orward")) m.scans = 1;
        else if (sp_word(p, "scansb$ackward")) m.scans = 2;
        else if (sp_word(p, "depth$order")) {
            m.depthorder = true;
            m.scans = 3;
            m.depthorder_base = sp_word(p, "base");
        } else if (sp_word(p, "fl$ush")) {
            if (!sp_word(p, "b$egin") && !sp_word(p, "c$enter") && !sp_word(p, "e$nd"))
                st = sp_err(p, PV_ESYNTAX, "expecting flush 'begin', 'center' or 'end'");
        } else if (sp_word(p, "ftr$iangles")) {
            m.ftriangles = true;
            sp_warn_once(p, WARN_PM3D_FTRI, "pm3d ftriangles is read but pvox draws the "
                                            "quads of the data as given");
        }
        else if (sp_word(p, "noftr$iangles")) m.ftriangles = false;
        else if (sp_word(p, "clip1$in") || sp_word(p, "clip4$in")) m.clip_z = false;
        else if (sp_word(p, "clip")) {
            m.clip_z = true;
            sp_word(p, "z");
        } else if (sp_word(p, "clipcb")) m.noclipcb = false;
        else if (sp_word(p, "noclipcb")) m.noclipcb = true;
        else if (sp_word(p, "c2c") || sp_word(p, "corners2c$olor")) {
            static const char *const c2c[] = {"mean", "geomean", "harmean", "rms", "median",
                                              "min", "max", "c1", "c2", "c3", "c4"};
            size_t k = 0;
            for (; k < sizeof c2c / sizeof c2c[0]; k++)
                if (sp_word(p, c2c[k])) break;
            if (k == sizeof c2c / sizeof c2c[0])
                st = sp_err(p, PV_ESYNTAX, "expecting 'mean', 'geomean', 'harmean', 'median', 'min', 'max', 'c1', 'c2', 'c3' or 'c4'");
            else m.corners2color = (pv_c2c)k;
        } else if (sp_word(p, "light$ing")) {
            m.lighting = true;
            for (;;) {
                if (sp_word(p, "primary")) st = sp_real(p, &m.primary);
                else if (sp_word(p, "spec$ular")) st = sp_real(p, &m.specular);
                else if (sp_word(p, "spec2")) st = sp_real(p, &m.spec2);
                else break;
                if (st != PV_OK) break;
            }
            if (p->exec) {
                m.primary = m.primary < 0 ? 0 : m.primary > 1 ? 1 : m.primary;
                m.specular = m.specular < 0 ? 0 : m.specular > 1 ? 1 : m.specular;
                m.spec2 = m.spec2 < 0 ? 0 : m.spec2 > 1 ? 1 : m.spec2;
            }
        } else if (sp_word(p, "nolight$ing")) m.lighting = false;
        else if (sp_word(p, "bo$rder")) {
            m.border_on = true;
            sp_word(p, "retrace"); /* gnuplot retraces only after `border` */
            pv_lp lp = m.border;
            st = sp_lp(p, &lp);
            m.border = lp;
        } else if (sp_word(p, "nobo$rder")) m.border_on = false;
        else if (sp_word(p, "hi$dden3d")) {
            int lt = 0; /* the line style number is optional */
            if (sp_can_expr(p) && pv_cur_peek(p->c)->kind != PV_TK_NAME) st = sp_int(p, &lt);
        } else if (sp_word(p, "nohi$dden3d")) { /* stored nowhere */ }
        else if (sp_word(p, "transp$arent") || sp_word(p, "solid")) { /* gnuplot 4 leftovers */ }
        else if (sp_word(p, "impl$icit")) m.implicit = true;
        else if (sp_word(p, "expl$icit")) m.implicit = false;
        else if (sp_word(p, "noexpl$icit") || sp_word(p, "noimpl$icit")) m.implicit = !m.implicit;
        else {
            (void)at;
            st = sp_err(p, PV_ESYNTAX, "invalid pm3d option");
        }
    }
    if (st == PV_OK && p->exec) p->s->pm3d = m;
    return st;
}

pv_status sp_unset_pm3d(pv_sp *p)
{
    if (p->exec) {
        p->s->pm3d.implicit = false;
        strcpy(p->s->pm3d.at, "s");
    }
    sp_skip_rest(p);
    return PV_OK;
}

static pv_status two_counts(pv_sp *p, int out[2])
{
    size_t at = pv_cur_offset(p->c);
    int a = out[0], b = -1;
    pv_status st = sp_int(p, &a);
    if (st == PV_OK && sp_op(p, ",")) st = sp_int(p, &b);
    if (st == PV_OK && !sp_end(p)) st = sp_err(p, PV_ESYNTAX, "',' expected");
    if (st != PV_OK || !p->exec) return st;
    if (b < 0) b = a;
    if (a < 2 || b < 2)
        return pv_source_error(p->c->ctx, PV_ESCRIPT, p->c->tl->src, at,
                               "sampling rate must be > 1; sampling unchanged");
    out[0] = a;
    out[1] = b;
    return PV_OK;
}

pv_status sp_set_samples(pv_sp *p) { return two_counts(p, p->s->samples); }
pv_status sp_set_isosamples(pv_sp *p) { return two_counts(p, p->s->isosamples); }
pv_status sp_unset_samples(pv_sp *p)
{
    if (p->exec) p->s->samples[0] = p->s->samples[1] = 100;
    return sp_expect_end(p);
}
pv_status sp_unset_isosamples(pv_sp *p)
{
    if (p->exec) p->s->isosamples[0] = p->s->isosamples[1] = 10;
    return sp_expect_end(p);
}

pv_status sp_set_isosurface(pv_sp *p)
{
    bool tri = p->s->iso_triangles;
    int off = p->s->iso_inside_offset;
    pv_status st = PV_OK;
    /* gnuplot 5.4.4 takes exactly one keyword per statement */
    if (sp_word(p, "mix$ed")) tri = false;
    else if (sp_word(p, "tri$angles")) tri = true;
    else if (sp_word(p, "noin$sidecolor")) off = 0;
    else if (sp_word(p, "in$sidecolor")) {
        off = 1;
        if (sp_can_expr(p)) st = sp_int(p, &off);
    } else return sp_err(p, PV_ESYNTAX, "unrecognized option");
    if (st == PV_OK && !sp_end(p)) st = sp_err(p, PV_ESYNTAX, "unrecognized option");
    if (st == PV_OK && p->exec) {
        p->s->iso_triangles = tri;
        p->s->iso_inside_offset = off;
    }
    return st;
}

pv_status sp_unset_isosurface(pv_sp *p)
{
    if (p->exec) {
        p->s->iso_triangles = false;
        p->s->iso_inside_offset = 1;
    }
    sp_skip_rest(p);
    return PV_OK;
}

pv_status sp_set_jitter(pv_sp *p)
{
    pv_jitter j = p->s->jitter;
    j.on = true;
    j.spread = 1.0;
    j.overlap = 1.0;
    j.wrap = 0.0;
    j.style = 0;
    pv_status st = PV_OK;
    while (st == PV_OK && !sp_end(p)) {
        if (sp_word(p, "over$lap")) {
            static const char *const sys[] = {"first", "second", "gr$aph", "sc$reen", "char$acter"};
            for (size_t k = 0; k < sizeof sys / sizeof sys[0]; k++)
                if (sp_word(p, sys[k])) break;
            st = sp_real(p, &j.overlap);
        } else if (sp_word(p, "spread")) {
            st = sp_real(p, &j.spread);
        } else if (sp_word(p, "wrap")) {
            st = sp_real(p, &j.wrap);
        } else if (sp_word(p, "swarm")) j.style = 0;
        else if (sp_word(p, "square")) j.style = 1;
        else if (sp_word(p, "vert$ical")) j.style = 2;
        else st = sp_err(p, PV_ESYNTAX, "unrecognized keyword");
    }
    if (st == PV_OK && p->exec) {
        if (!(j.spread > 0.0)) j.spread = 1.0;
        p->s->jitter = j;
    }
    return st;
}

pv_status sp_unset_jitter(pv_sp *p)
{
    if (p->exec) p->s->jitter.on = false;
    return sp_expect_end(p);
}

/* `offset N` (the underside's linetype offset; it also reserves linetypes: gnuplot gives
 * each plot N + 1 of them) is kept across `set hidden3d` commands until `defaults`; the
 * other options only shape gnuplot's hidden-line removal: accepted, not stored. */
pv_status sp_set_hidden3d(pv_sp *p)
{
    pv_status st = PV_OK;
    int offset = p->s->hidden3d_offset;
    while (st == PV_OK && !sp_end(p)) {
        if (sp_word(p, "def$aults")) offset = 1;
        else if (sp_word(p, "nooff$set")) offset = 0;
        else if (sp_word(p, "off$set")) st = sp_int(p, &offset);
        else pv_cur_next(p->c);
    }
    if (st == PV_OK && p->exec) p->s->hidden3d = true, p->s->hidden3d_offset = offset;
    return st;
}

pv_status sp_unset_hidden3d(pv_sp *p)
{
    if (p->exec) p->s->hidden3d = false;
    return sp_expect_end(p);
}

/* ---- show ------------------------------------------------------------------------ */

pv_status sp_show_pm3d(pv_sp *p)
{
    const pv_pm3d *m = &p->s->pm3d;
    if (OUT) {
        static const char *const c2c[] = {"averaged 4 corners", "geometrical mean of 4 corners",
                                          "harmonic mean of 4 corners", "rms of 4 corners",
                                          "median of 4 corners", "minimum of 4 corners",
                                          "maximum of 4 corners", "corner 1", "corner 2",
                                          "corner 3", "corner 4"};
        fprintf(OUT, "\n\tpm3d style is %s\n", m->implicit
                ? "implicit (pm3d draw for all surfaces)"
                : "explicit (draw pm3d surface according to style)");
        fprintf(OUT, "\tpm3d plotted at %s\n", strcmp(m->at, "s") == 0 ? "SURFACE"
                                               : strcmp(m->at, "b") == 0 ? "BOTTOM"
                                               : strcmp(m->at, "t") == 0 ? "TOP" : m->at);
        fprintf(OUT, "\t%s\n", m->depthorder ? "true depth ordering"
                                             : "taking scans direction automatically");
        fprintf(OUT, "\tclipping: %s\n", m->clip_z ? "smooth clip to zrange" : "all 4 points in");
        if (m->border_on) fprintf(OUT, "\tpm3d quadrangles will have a border\n");
        else fprintf(OUT, "\tpm3d quadrangles will have no border\n");
        fprintf(OUT, "\tsteps for bilinear interpolation: %d,%d\n", m->interp[0], m->interp[1]);
        fprintf(OUT, "\tquadrangle color according to %s\n", c2c[m->corners2color]);
        if (m->lighting)
            fprintf(OUT, "\tlighting primary %g specular %g spec2 %g\n", m->primary, m->specular,
                    m->spec2);
        fprintf(OUT, "\n");
    }
    return sp_done(p);
}

pv_status sp_show_samples(pv_sp *p)
{
    if (OUT) fprintf(OUT, "\n\tsampling rate is %d, %d\n\n", p->s->samples[0], p->s->samples[1]);
    return sp_done(p);
}

pv_status sp_show_isosamples(pv_sp *p)
{
    if (OUT)
        fprintf(OUT, "\n\tiso sampling rate is %d, %d\n\n", p->s->isosamples[0],
                p->s->isosamples[1]);
    return sp_done(p);
}

pv_status sp_show_isosurface(pv_sp *p)
{
    if (OUT) {
        fprintf(OUT, "\n\tisosurfaces will use %s\n", p->s->iso_triangles
                ? "triangles only" : "a mixture of triangles and quadrangles");
        fprintf(OUT, "\tinside surface linetype offset by %d\n\n", p->s->iso_inside_offset);
    }
    return sp_done(p);
}

pv_status sp_show_jitter(pv_sp *p)
{
    const pv_jitter *j = &p->s->jitter;
    if (OUT) {
        if (!j->on) {
            fprintf(OUT, "\tno jitter\n");
        } else {
            static const char *const style[] = {"swarm", "square", "vertical"};
            fprintf(OUT, "\toverlap criterion  %g character  coords\n", j->overlap);
            fprintf(OUT, "\tspread multiplier on x (or y): %g\n", j->spread);
            if (j->wrap > 0) fprintf(OUT, "\twrap at %g character widths\n", j->wrap);
            fprintf(OUT, "\tstyle: %s\n", style[j->style % 3]);
        }
    }
    return sp_done(p);
}

pv_status sp_show_hidden3d(pv_sp *p)
{
    if (OUT) fprintf(OUT, "\n\thidden surface is %s\n\n", p->s->hidden3d ? "removed" : "drawn");
    return sp_done(p);
}
