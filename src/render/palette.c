/*
 * Palettes: gnuplot 5.4's mapping gray in [0,1] -> colour (`set palette`).
 *
 * Behaviour measured with gnuplot 5.4.4 (`test palette`, svg colour boxes and points):
 * - rgbformulae: 37 functions of gray (`show palette rgbformulae`); a negative number
 *   evaluates the function at 1 - gray; results are clipped to [0,1].
 * - defined: the first gradient point with pos >= gray gives the colour on an exact hit,
 *   else r, g, b are interpolated linearly between it and its predecessor.
 * - cubehelix (D. A. Green 2011, Bull. Astr. Soc. India 39, 289): the angle uses the
 *   plain gray, the brightness gray^(1/gamma) (gamma default 1.5).
 * - gray: gray^(1/gamma).  model HSV / CMY convert the three components afterwards.
 * - negative: applied in cb -> gray (gnuplot's cb2gray), so that the colour box and the
 *   data agree; gray -> colour itself is never reversed.
 * - 8 bits: (unsigned char)(255*c + 0.5) (GP-9).
 * - `set logscale cb`: the position between the ends is taken in log(cb); values at or
 *   below the bottom end (0 included) take the bottom colour.
 */
#include "pvox/view.h"

#include <math.h>

#define PAL_PI 3.14159265358979323846
/* gnuplot's angle factor: its formulae are written in degrees, and evaluating them in the
 * same order gives the same doubles (a colour exactly at a half level rounds alike) */
#define DEG2RAD (PAL_PI / 180.0)

void pv_pal_default(pv_pal *p)
{
    pv_pal d = {0};
    d.kind = PV_PALK_FORMULAE;
    d.model = PV_PALM_RGB;
    d.formulae[0] = 7;
    d.formulae[1] = 5;
    d.formulae[2] = 15;
    d.ch_start = 0.5;
    d.ch_cycles = -1.5;
    d.ch_saturation = 1.0;
    d.gamma = 1.5;
    *p = d;
}

static double clip01(double v)
{
    if (v < 0.0) return 0.0;
    if (v > 1.0) return 1.0;
    return v;
}


double pv_pal_formula(int formula, double x)
{
    if (formula < 0) {
        x = 1.0 - x;
        formula = -formula;
    }
    double v;
    switch (formula) {
    case 0: v = 0.0; break;
    case 1: v = 0.5; break;
    case 2: v = 1.0; break;
    case 3: v = x; break;
    case 4: v = x * x; break;
    case 5: v = x * x * x; break;
    case 6: v = x * x * x * x; break;
    case 7: v = sqrt(x); break;
    case 8: v = sqrt(sqrt(x)); break;
    case 9: v = sin(90 * x * DEG2RAD); break;
    case 10: v = cos(90 * x * DEG2RAD); break;
    case 11: v = fabs(x - 0.5); break;
    case 12: v = (2 * x - 1) * (2.0 * x - 1); break;
    case 13: v = sin(180 * x * DEG2RAD); break;
    case 14: v = fabs(cos(180 * x * DEG2RAD)); break;
    case 15: v = sin(360 * x * DEG2RAD); break;
    case 16: v = cos(360 * x * DEG2RAD); break;
    case 17: v = fabs(sin(360 * x * DEG2RAD)); break;
    case 18: v = fabs(cos(360 * x * DEG2RAD)); break;
    case 19: v = fabs(sin(720 * x * DEG2RAD)); break;
    case 20: v = fabs(cos(720 * x * DEG2RAD)); break;
    case 21: v = 3.0 * x; break;
    case 22: v = 3.0 * x - 1.0; break;
    case 23: v = 3.0 * x - 2.0; break;
    case 24: v = fabs(3.0 * x - 1.0); break;
    case 25: v = fabs(3.0 * x - 2.0); break;
    case 26: v = 1.5 * x - 0.5; break;
    case 27: v = 1.5 * x - 1; break;
    case 28: v = fabs(1.5 * x - 0.5); break;
    case 29: v = fabs(1.5 * x - 1); break;
    case 30: v = x / 0.32 - 0.78125; break;
    case 31: v = 2.0 * x - 0.84; break;
    case 32: /* "4x;1;-2x+1.84;x/0.08-11.5": four pieces */
        if (x <= 0.25) v = 4.0 * x;
        else if (x <= 0.42) v = 1.0;
        else if (x <= 0.92) v = -2.0 * x + 1.84;
        else v = x / 0.08 - 11.5;
        break;
    case 33: v = fabs(2.0 * x - 0.5); break;
    case 34: v = 2.0 * x; break;
    case 35: v = 2.0 * x - 0.5; break;
    case 36: v = 2.0 * x - 1.0; break;
    default: v = 0.0; break;
    }
    return clip01(v);
}

/* The first gradient point at or above gray (binary search), as gnuplot picks it. */
static int grad_index(const pv_pal_point *g, int n, double gray)
{
    int lo = 0, hi = n - 1;
    while (lo != hi) {
        int mid = (lo + hi) / 2;
        if (g[mid].pos < gray) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

static void from_gradient(const pv_pal *p, double gray, double c[3])
{
    const pv_pal_point *g = p->grad;
    int n = p->ngrad;
    if (!g || n <= 0) {
        c[0] = c[1] = c[2] = gray;
        return;
    }
    const pv_pal_point *hit = NULL;
    if (gray < 0.0 || n == 1) hit = &g[0];
    else if (gray >= 1.0) hit = &g[n - 1];
    else {
        int i = grad_index(g, n, gray);
        if (gray == g[i].pos || i == 0) hit = &g[i];
        else {
            const pv_pal_point *a = &g[i - 1], *b = &g[i];
            double f = (gray - a->pos) / (b->pos - a->pos);
            c[0] = a->r + f * (b->r - a->r);
            c[1] = a->g + f * (b->g - a->g);
            c[2] = a->b + f * (b->b - a->b);
            return;
        }
    }
    c[0] = hit->r;
    c[1] = hit->g;
    c[2] = hit->b;
}

static void from_cubehelix(const pv_pal *p, double gray, double c[3])
{
    double phi = 2.0 * PAL_PI * (p->ch_start / 3.0 + gray * p->ch_cycles);
    if (p->gamma != 1.0) gray = pow(gray, 1.0 / p->gamma);
    double a = p->ch_saturation * gray * (1.0 - gray) / 2.0;
    double cp = cos(phi), sp = sin(phi);
    c[0] = clip01(gray + a * (-0.14861 * cp + 1.78277 * sp));
    c[1] = clip01(gray + a * (-0.29227 * cp - 0.90649 * sp));
    c[2] = clip01(gray + a * (1.97294 * cp));
}

/* Standard HSV -> RGB with h in [0,1] (one full turn). */
static void hsv_to_rgb(double c[3])
{
    double h = c[0], s = c[1], v = c[2];
    if (s == 0.0) {
        c[0] = c[1] = c[2] = v;
        return;
    }
    double h6 = (h >= 1.0 ? 0.0 : h) * 6.0;
    int i = (int)floor(h6);
    double f = h6 - i;
    double pp = v * (1.0 - s), q = v * (1.0 - s * f), t = v * (1.0 - s * (1.0 - f));
    switch (i) {
    case 0: c[0] = v; c[1] = t; c[2] = pp; break;
    case 1: c[0] = q; c[1] = v; c[2] = pp; break;
    case 2: c[0] = pp; c[1] = v; c[2] = t; break;
    case 3: c[0] = pp; c[1] = q; c[2] = v; break;
    case 4: c[0] = t; c[1] = pp; c[2] = v; break;
    default: c[0] = v; c[1] = pp; c[2] = q; break;
    }
}

/* maxcolors: gray is snapped to one of n evenly spaced levels (floor(gray*n)/(n-1)). */
static double quantise(const pv_pal *p, double gray)
{
    int n = p->maxcolors;
    if (n <= 1) return gray;
    double q = floor(gray * n) / (n - 1);
    return q > 1.0 ? 1.0 : q;
}

void pv_pal_rgb(const pv_pal *p, double gray, double rgb[3])
{
    if (isnan(gray)) {
        rgb[0] = rgb[1] = rgb[2] = 0.0;
        return;
    }
    gray = quantise(p, clip01(gray));
    switch (p->kind) {
    case PV_PALK_DEFINED: from_gradient(p, gray, rgb); break;
    case PV_PALK_CUBEHELIX: from_cubehelix(p, gray, rgb); break;
    case PV_PALK_GRAY: rgb[0] = rgb[1] = rgb[2] = pow(gray, 1.0 / p->gamma); break;
    default:
        for (int k = 0; k < 3; k++) rgb[k] = pv_pal_formula(p->formulae[k], gray);
        break;
    }
    if (p->model == PV_PALM_HSV) hsv_to_rgb(rgb);
    else if (p->model == PV_PALM_CMY)
        for (int k = 0; k < 3; k++) rgb[k] = 1.0 - rgb[k];
    for (int k = 0; k < 3; k++) rgb[k] = clip01(rgb[k]);
}

uint32_t pv_pal_rgb8(const pv_pal *p, double gray)
{
    double c[3];
    pv_pal_rgb(p, gray, c);
    uint32_t out = 0;
    for (int k = 0; k < 3; k++) out = (out << 8) | (unsigned char)(255.0 * c[k] + 0.5);
    return out;
}

double pv_pal_cb_frac(const pv_pal *p, double cb, double cbmin, double cbmax)
{
    if (p->cb_log) return log(cb / cbmin) / log(cbmax / cbmin);
    return (cb - cbmin) / (cbmax - cbmin);
}

double pv_pal_gray(const pv_pal *p, double cb, double cbmin, double cbmax)
{
    if (isnan(cb)) return cb;
    double g;
    if (cb <= cbmin) g = 0.0;
    else if (cb >= cbmax) g = 1.0;
    else g = pv_pal_cb_frac(p, cb, cbmin, cbmax);
    return p->negative ? 1.0 - g : g;
}

uint32_t pv_pal_color(const pv_pal *p, double cb, double cbmin, double cbmax)
{
    return pv_pal_rgb8(p, pv_pal_gray(p, cb, cbmin, cbmax));
}
