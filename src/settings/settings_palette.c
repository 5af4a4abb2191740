/*
 * pvox settings: `set/unset/show palette` (rgbformulae, defined gradients, cubehelix).
 */
#include "settings_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* `defined ( ... )` (or gnuplot's default gradient): the points go to pal->grad, tracked on
 * the settings' ctx (pal->grad_cap allocated). */
static pv_status palette_defined(pv_sp *p, pv_palette *pal)
{
    pv_ctx *ctx = p->s->ctx;
    if (!sp_op(p, "(")) {
        /* gnuplot's default gradient for a bare `set palette defined` */
        static const pv_grad_point def[] = {
            {0.0, 0.05, 0.05, 0.2}, {0.1, 0, 0, 1},  {0.25, 0.7, 0.85, 0.9}, {0.4, 0, 0.75, 0},
            {0.5, 1, 1, 0},        {0.7, 1, 0, 0}, {0.9, 0.6, 0.6, 0.6},   {1.0, 0.95, 0.95, 0.95}};
        if (!p->exec) return PV_OK;
        pv_palette_fini(ctx, pal);
        pal->grad = pv_alloc(ctx, sizeof def);
        if (!pal->grad) return ctx->err_code;
        pal->grad_cap = sizeof def / sizeof def[0];
        memcpy(pal->grad, def, sizeof def);
        pal->ngrad = (int)(sizeof def / sizeof def[0]);
        pal->kind = PV_PAL_DEFINED;
        return PV_OK;
    }
    pv_grad_point *g = NULL;
    int n = 0;
    size_t cap = 0;
    pv_status st = PV_OK;
    size_t first_at = pv_cur_offset(p->c);
    for (;;) {
        if (!PV_GROW(ctx, g, cap, (size_t)n + 1)) {
            pv_free(ctx, g, cap * sizeof *g);
            return ctx->err_code;
        }
        pv_grad_point pt = {0, 0, 0, 0};
        size_t at = pv_cur_offset(p->c);
        if ((st = sp_real(p, &pt.pos)) != PV_OK) break;
        if (pv_cur_peek(p->c)->kind == PV_TK_STRING) {
            size_t cat = pv_cur_offset(p->c);
            char *name = NULL;
            if (!p->exec && sp_lone_string(p)) {
                uint32_t tmp;
                const char *lit = pv_cur_peek(p->c)->sval;
                bool ok = lit[0] == '#' || (lit[0] == '0' && lit[1] == 'x')
                              ? pv_color_parse_string(lit, &tmp) : false;
                if (!ok) {
                    for (int k = 0; k < pv_color_count(); k++)
                        if (strcmp(pv_color_at(k, NULL), lit) == 0) ok = true;
                }
                if (!ok) {
                    st = sp_err(p, PV_ESCRIPT, "unknown color name");
                    break;
                }
            }
            if ((st = sp_string(p, &name)) != PV_OK) break;
            if (p->exec) {
                uint32_t rgb = 0;
                bool ok = false;
                if (name[0] == '#' || (name[0] == '0' && name[1] == 'x'))
                    ok = pv_color_parse_string(name, &rgb);
                else
                    for (int k = 0; k < pv_color_count(); k++)
                        if (strcmp(pv_color_at(k, &rgb), name) == 0) {
                            ok = true;
                            break;
                        }
                free(name);
                if (!ok) {
                    st = pv_source_error(p->c->ctx, PV_ESCRIPT, p->c->tl->src, cat,
                                         "unknown color name");
                    break;
                }
                pt.r = (double)((rgb >> 16) & 255u) / 255.0;
                pt.g = (double)((rgb >> 8) & 255u) / 255.0;
                pt.b = (double)(rgb & 255u) / 255.0;
            }
        } else {
            if ((st = sp_real(p, &pt.r)) != PV_OK) break;
            if ((st = sp_real(p, &pt.g)) != PV_OK) break;
            if ((st = sp_real(p, &pt.b)) != PV_OK) break;
        }
        if (p->exec && n > 0 && pt.pos < g[n - 1].pos) {
            st = pv_source_error(p->c->ctx, PV_ESCRIPT, p->c->tl->src, at,
                                 "palette gradient not monotonic");
            break;
        }
        g[n++] = pt;
        if (sp_op(p, ")")) break;
        if (!sp_op(p, ",")) {
            st = sp_err(p, PV_ESYNTAX, "expected comma");
            break;
        }
    }
    if (st == PV_OK && n < 2)
        st = pv_source_error(p->c->ctx, PV_ESYNTAX, p->c->tl->src, first_at,
                             "invalid palette syntax");
    if (st != PV_OK || !p->exec) {
        pv_free(ctx, g, cap * sizeof *g);
        return st;
    }
    double lo = g[0].pos, hi = g[n - 1].pos;
    for (int k = 0; k < n; k++) g[k].pos = hi > lo ? (g[k].pos - lo) / (hi - lo) : (k ? 1.0 : 0.0);
    pv_palette_fini(ctx, pal);
    pal->grad = g;
    pal->ngrad = n;
    pal->grad_cap = cap;
    pal->kind = PV_PAL_DEFINED;
    return PV_OK;
}

pv_status sp_set_palette(pv_sp *p)
{
    pv_palette pal = p->s->palette; /* shallow: grad stays owned by the settings */
    pv_grad_point *newg = NULL;     /* a new gradient from `defined`, owned here */
    int newn = 0;
    size_t newcap = 0;
    bool to_default = sp_end(p);
    pv_status st = PV_OK;
    while (st == PV_OK && !sp_end(p)) {
        size_t at = pv_cur_offset(p->c);
        if (sp_word(p, "gray") || sp_word(p, "grey")) pal.gray = true;
        else if (sp_word(p, "col$or") || sp_word(p, "colour")) pal.gray = false;
        else if (sp_word(p, "pos$itive")) pal.negative = false;
        else if (sp_word(p, "neg$ative")) pal.negative = true;
        else if (sp_word(p, "nops_allcF") || sp_word(p, "ps_allcF")) { /* postscript only */ }
        else if (sp_word(p, "ga$mma")) {
            st = sp_real(p, &pal.gamma);
            if (st == PV_OK && p->exec && !(pal.gamma > 0))
                st = pv_source_error(p->c->ctx, PV_ESCRIPT, p->c->tl->src, at,
                                     "gamma must be > 0");
        } else if (sp_word(p, "maxc$olors")) {
            st = sp_int(p, &pal.maxcolors);
            if (st == PV_OK && p->exec && pal.maxcolors < 0)
                st = pv_source_error(p->c->ctx, PV_ESCRIPT, p->c->tl->src, at,
                                     "non-negative number required");
        } else if (sp_word(p, "rgb$formulae")) {
            int f[3] = {pal.formulae[0], pal.formulae[1], pal.formulae[2]};
            st = sp_int(p, &f[0]);
            if (st == PV_OK && !sp_op(p, ",")) st = sp_err(p, PV_ESYNTAX, "',' expected");
            if (st == PV_OK) st = sp_int(p, &f[1]);
            if (st == PV_OK && !sp_op(p, ",")) st = sp_err(p, PV_ESYNTAX, "',' expected");
            if (st == PV_OK) st = sp_int(p, &f[2]);
            for (int k = 0; st == PV_OK && p->exec && k < 3; k++)
                if (f[k] < -36 || f[k] > 36)
                    st = pv_source_error(p->c->ctx, PV_ESCRIPT, p->c->tl->src, at,
                                         "color formulae must be in [-36:36]");
            if (st == PV_OK) {
                memcpy(pal.formulae, f, sizeof f);
                pal.kind = PV_PAL_RGBFORMULAE;
                pal.gray = false;
            }
        } else if (sp_word(p, "def$ined") || sp_word(p, "define")) {
            pv_palette tmp;
            memset(&tmp, 0, sizeof tmp);
            st = palette_defined(p, &tmp);
            if (st == PV_OK && p->exec) {
                pv_free(p->s->ctx, newg, newcap * sizeof *newg);
                newg = tmp.grad;
                newn = tmp.ngrad;
                newcap = tmp.grad_cap;
            }
            pal.kind = PV_PAL_DEFINED;
            pal.gray = false;
        } else if (sp_word(p, "cubehelix")) {
            pal.kind = PV_PAL_CUBEHELIX;
            pal.gray = false;
            for (;;) {
                if (sp_word(p, "start")) st = sp_real(p, &pal.ch_start);
                else if (sp_word(p, "cyc$les")) st = sp_real(p, &pal.ch_cycles);
                else if (sp_word(p, "sat$uration")) st = sp_real(p, &pal.ch_saturation);
                else break;
                if (st != PV_OK) break;
            }
        } else if (sp_word(p, "func$tions")) {
            for (int k = 0; k < 3 && st == PV_OK; k++) {
                pv_code *code = NULL;
                st = pv_parse_expr(p->c, &code);
                pv_code_destroy(code);
                if (st == PV_OK && k < 2 && !sp_op(p, ","))
                    st = sp_err(p, PV_ESYNTAX, "expected comma");
            }
            sp_warn_once(p, WARN_PAL_FUNCS, "set palette functions is not supported by pvox: the palette is unchanged");
        } else if (sp_word(p, "file")) {
            sp_warn_once(p, WARN_PAL_FILE, "set palette file is not supported by pvox: the palette is unchanged");
            sp_skip_rest(p);
        } else if (sp_word(p, "mo$del")) {
            if (sp_word(p, "RGB")) pal.model = 0;
            else if (sp_word(p, "HSV")) pal.model = 1;
            else if (sp_word(p, "CMY")) pal.model = 2;
            else if (sp_word(p, "XYZ")) pal.model = 3;
            else st = sp_err(p, PV_ESYNTAX, "unknown color model");
            if (st == PV_OK && sp_word(p, "start")) {
                double d = 0;
                st = sp_real(p, &d);
            }
        } else st = sp_err(p, PV_ESYNTAX, "invalid palette option");
    }
    if (st != PV_OK || !p->exec) {
        pv_free(p->s->ctx, newg, newcap * sizeof *newg);
        return st;
    }
    pv_palette *dst = &p->s->palette;
    if (to_default) {
        pv_palette_fini(p->s->ctx, dst);
        pv_palette_default(dst);
        return PV_OK;
    }
    if (pal.kind == PV_PAL_DEFINED && !newg && !dst->grad) {
        /* `defined` without a list on a palette that never had one: built in exec above */
    }
    if (newg) {
        pv_free(p->s->ctx, dst->grad, dst->grad_cap * sizeof *dst->grad);
        pal.grad = newg;
        pal.ngrad = newn;
        pal.grad_cap = newcap;
    }
    *dst = pal;
    return PV_OK;
}

pv_status sp_unset_palette(pv_sp *p)
{
    /* gnuplot 5.4 has no `unset palette` effect beyond a message; pvox resets it */
    if (p->exec) {
        pv_palette_fini(p->s->ctx, &p->s->palette);
        pv_palette_default(&p->s->palette);
    }
    return sp_expect_end(p);
}

/* ---- show ------------------------------------------------------------------------ */

static void show_gradient(FILE *out, const pv_palette *pal)
{
    for (int k = 0; k < pal->ngrad; k++) {
        const pv_grad_point *g = &pal->grad[k];
        int r = (int)(255 * g->r + 0.5), gg = (int)(255 * g->g + 0.5), b = (int)(255 * g->b + 0.5);
        fprintf(out, "  %d. gray=%.4f, (r,g,b)=(%.4f,%.4f,%.4f), #%02x%02x%02x = %3d %3d %3d\n", k,
                g->pos, g->r, g->g, g->b, (unsigned)r, (unsigned)gg, (unsigned)b, r, gg, b);
    }
}

pv_status sp_show_palette(pv_sp *p)
{
    const pv_palette *pal = &p->s->palette;
    bool gradient = sp_word(p, "grad$ient");
    if (!OUT) return sp_done(p);
    if (gradient) {
        if (pal->kind == PV_PAL_DEFINED) show_gradient(OUT, pal);
        else fprintf(OUT, "\tcolor mapping *not* sp_done by defined gradient.\n");
        return sp_done(p);
    }
    static const char *const model[] = {"RGB", "HSV", "CMY", "XYZ"};
    fprintf(OUT, "\n\tpalette is %s\n", pal->gray ? "GRAY" : "COLOR");
    if (!pal->gray) {
        switch (pal->kind) {
        case PV_PAL_DEFINED: fprintf(OUT, "\tcolor mapping by defined gradient\n"); break;
        case PV_PAL_CUBEHELIX:
            fprintf(OUT, "\tCubehelix color palette: start %g cycles %g saturation %g\n",
                    pal->ch_start, pal->ch_cycles, pal->ch_saturation);
            break;
        case PV_PAL_FUNCTIONS:
        case PV_PAL_RGBFORMULAE:
        default:
            fprintf(OUT, "\trgb color mapping by rgbformulae are %d,%d,%d\n", pal->formulae[0],
                    pal->formulae[1], pal->formulae[2]);
            break;
        }
    }
    fprintf(OUT, "\tfigure is %s\n", pal->negative ? "NEGATIVE" : "POSITIVE");
    if (pal->maxcolors > 0) fprintf(OUT, "\tallocating %d colors\n", pal->maxcolors);
    else fprintf(OUT, "\tallocating ALL remaining color positions for discrete palette terminals\n");
    fprintf(OUT, "\tColor-Model: %s\n", model[pal->model & 3]);
    fprintf(OUT, "\tgamma is %g\n\n", pal->gamma);
    return sp_done(p);
}
