/*
 * scene/colormap: the colour of an element's items (`lc` / `lt` / palette) and the
 * renderer's palette for `set palette`.
 */
#include "scene_int.h"

#include <math.h>

void pv_scene_palette(const pv_palette *sp, pv_pal *p)
{
    pv_pal_default(p);
    p->formulae[0] = sp->formulae[0];
    p->formulae[1] = sp->formulae[1];
    p->formulae[2] = sp->formulae[2];
    p->negative = sp->negative;
    p->gamma = sp->gamma;
    p->maxcolors = sp->maxcolors;
    p->model = sp->model == 1 ? PV_PALM_HSV : sp->model == 2 ? PV_PALM_CMY : PV_PALM_RGB;
    p->ch_start = sp->ch_start, p->ch_cycles = sp->ch_cycles;
    p->ch_saturation = sp->ch_saturation;
    if (sp->gray) p->kind = PV_PALK_GRAY;
    else if (sp->kind == PV_PAL_DEFINED && sp->ngrad > 0) {
        p->kind = PV_PALK_DEFINED;
        p->grad = sp->grad;
        p->ngrad = sp->ngrad;
    } else if (sp->kind == PV_PAL_CUBEHELIX) p->kind = PV_PALK_CUBEHELIX;
    else p->kind = PV_PALK_FORMULAE;
}

pv_rgba8 pv_scene_rgba(uint32_t argb)
{
    pv_rgba8 c = {(uint8_t)(argb >> 16), (uint8_t)(argb >> 8), (uint8_t)argb,
                  (uint8_t)(255u - (argb >> 24))};
    return c;
}

static pv_rgba8 lt_color(const pv_scene_colors *C, int lt)
{
    return pv_scene_rgba(C->lt_rgb(C->lt_ud, lt));
}

pv_rgba8 pv_scene_item_color(const pv_scene_colors *C, const pv_scene_elem *e, double cval,
                             double var)
{
    const pv_color *lc = &e->st.lp.lc;
    switch (lc->kind) {
    case PV_COLOR_RGB: return pv_scene_rgba(lc->argb);
    case PV_COLOR_LT: return lt_color(C, lc->lt);
    case PV_COLOR_PALETTE_Z:
        return pv_scene_rgba(pv_pal_color(&C->pal, cval, C->cbmin, C->cbmax));
    case PV_COLOR_PALETTE_CB:
        return pv_scene_rgba(pv_pal_color(&C->pal, lc->value, C->cbmin, C->cbmax));
    case PV_COLOR_PALETTE_FRAC: return pv_scene_rgba(pv_pal_rgb8(&C->pal, lc->value));
    case PV_COLOR_RGB_VARIABLE:
        return isfinite(var) ? pv_scene_rgba((uint32_t)(int64_t)var) : lt_color(C, e->line_num);
    case PV_COLOR_VARIABLE: return lt_color(C, isfinite(var) ? (int)var : e->line_num);
    case PV_COLOR_BLACK: return pv_scene_rgba(0);
    case PV_COLOR_BGND: return pv_scene_rgba(C->background);
    default: break;
    }
    return lt_color(C, e->st.lp.lt > 0 ? e->st.lp.lt : e->line_num);
}

pv_rgba8 pv_scene_lit(const pv_scene_frame *F, pv_rgba8 c, const double (*v)[3], int nv)
{
    if (!F->light) return c;
    uint8_t in[3] = {c.r, c.g, c.b}, out[3];
    pv_light_shade(F->light, v, nv, in, out);
    c.r = out[0], c.g = out[1], c.b = out[2];
    return c;
}

pv_rgba8 pv_scene_fill_lighten(const pv_fill *f, pv_rgba8 c)
{
    if (!f || f->kind != PV_FILL_SOLID || f->transparent) return c;
    int pct = (int)(f->density * 100.0 + 0.5);
    if (pct >= 100 || pct < 0) return c;
    double fact = (100 - pct) / 100.0;
    uint8_t *ch[3] = {&c.r, &c.g, &c.b};
    for (int k = 0; k < 3; k++) {
        /* cairo stores the 8-bit value of the double colour as floor(65535 v + 0.5) >> 8 */
        double v = *ch[k] / 255.0;
        v += (1.0 - v) * fact;
        *ch[k] = (uint8_t)(((unsigned)(65535.0 * v + 0.5)) >> 8);
    }
    return c;
}
