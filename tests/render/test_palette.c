/*
 * Palettes against gnuplot 5.4: the colours measured with gnuplot (GP-9: fixed numbers
 * written down from its svg output; the labels E04, E11, E14, E26 are probe ids, mapped in
 * docs/GNUPLOT.md) and, live, every band of gnuplot's svg colour box (colour as
 * (int)(255 c + 0.5) and extent, 0.01 px) against the colour box our frame builds on the
 * same svg canvas, for every palette kind:
 * rgbformulae (incl. negative numbers), defined gradients (with a step), cubehelix, gray
 * with gamma, negative, maxcolors, HSV and CMY models.
 */
#include "pv_test.h"
#include "test_view_gnuplot.h"

#include "pvox/view.h"

#define RGB(r, g, b) (((uint32_t)(r) << 16) | ((uint32_t)(g) << 8) | (uint32_t)(b))

static void check_rgb(const pv_pal *p, double cb, double lo, double hi, uint32_t want,
                      const char *what)
{
    uint32_t got = pv_pal_color(p, cb, lo, hi);
    if (got != want)
        fprintf(stderr, "%s: cb %g in [%g:%g]: got #%06x, gnuplot #%06x\n", what, cb, lo, hi,
                got, want);
    PV_CHECK_EQ(got, want);
}

/* ---- fixed values from the spec's experiments ----------------------------------------- */

static void test_fixed(void)
{
    pv_pal p;
    pv_pal_default(&p);
    /* GP-9 (E14/E22): default rgbformulae 7,5,15 */
    check_rgb(&p, 0, 0, 1, RGB(0, 0, 0), "default");
    check_rgb(&p, 0.5, 0, 1, RGB(180, 32, 0), "default");
    check_rgb(&p, 1, 0, 1, RGB(255, 255, 0), "default");

    /* GP-9 (E26 a/b): red-white-blue; b's positions -1,0,1 rescale to 0,.5,1 */
    pv_pal_point rwb[3] = {{0, 1, 0, 0}, {0.5, 1, 1, 1}, {1, 0, 0, 1}};
    p.kind = PV_PALK_DEFINED;
    p.grad = rwb;
    p.ngrad = 3;
    const double cbs[6] = {-1, 0, 0.25, 0.5, 1, 2};
    const uint32_t a[6] = {RGB(255, 0, 0),     RGB(255, 0, 0), RGB(255, 128, 128),
                           RGB(255, 255, 255), RGB(0, 0, 255), RGB(0, 0, 255)};
    for (int i = 0; i < 6; i++) check_rgb(&p, cbs[i], 0, 1, a[i], "E26a");
    /* GP-6.3, GP-9 (E04): value 1 of [0:9] */
    check_rgb(&p, 1, 0, 9, RGB(255, 57, 57), "E04");
    /* GP-8.2 (E11): pm3d quad means with cbrange [0:30] */
    check_rgb(&p, 17.5, 0, 30, RGB(212, 212, 255), "E11");
    check_rgb(&p, 22.5, 0, 30, RGB(128, 128, 255), "E11");
    check_rgb(&p, 7.5, 0, 30, RGB(255, 128, 128), "E11");
    check_rgb(&p, 12.5, 0, 30, RGB(255, 213, 213), "E11");

    /* GP-9 (E26 c and d): positions 0, 1, 3 -> 0, 1/3, 1; then `negative` */
    pv_pal_point c3[3] = {{0, 1, 0, 0}, {1.0 / 3.0, 1, 1, 1}, {1, 0, 0, 1}};
    p.grad = c3;
    const uint32_t c[6] = {RGB(255, 0, 0),     RGB(255, 0, 0), RGB(255, 191, 191),
                           RGB(191, 191, 255), RGB(0, 0, 255), RGB(0, 0, 255)};
    for (int i = 0; i < 6; i++) check_rgb(&p, cbs[i], 0, 1, c[i], "E26c");
    p.negative = true;
    const uint32_t d[6] = {RGB(0, 0, 255),     RGB(0, 0, 255), RGB(96, 96, 255),
                           RGB(191, 191, 255), RGB(255, 0, 0), RGB(255, 0, 0)};
    for (int i = 0; i < 6; i++) check_rgb(&p, cbs[i], 0, 1, d[i], "E26d");

    /* cb -> gray clamps; NaN stays NaN */
    p.negative = false;
    PV_CHECK_NEAR(pv_pal_gray(&p, -5, 0, 10), 0.0, 0);
    PV_CHECK_NEAR(pv_pal_gray(&p, 2.5, 0, 10), 0.25, 1e-15);
    PV_CHECK_NEAR(pv_pal_gray(&p, 50, 0, 10), 1.0, 0);
    PV_CHECK(isnan(pv_pal_gray(&p, NAN, 0, 10)));
}

/* ---- live: gnuplot's svg colour box ------------------------------------------------- */

typedef struct live_case {
    const char *set;  /* gnuplot `set palette ...` arguments */
    void (*setup)(pv_pal *p);
} live_case;

/* "#33e61a" and "#ffff80" become /255 fractions, as gnuplot converts them */
static const pv_pal_point grad4[4] = {{0, 0, 0, 0},
                                      {0.25, 51 / 255.0, 230 / 255.0, 26 / 255.0},
                                      {0.25, 1, 0, 0},
                                      {1, 1, 1, 128 / 255.0}}; /* with a step at 1/4 */
static const pv_pal_point grad_rwb[3] = {{0, 1, 0, 0}, {0.5, 1, 1, 1}, {1, 0, 0, 1}};

static void pal_default(pv_pal *p) { pv_pal_default(p); }
static void pal_f(pv_pal *p, int r, int g, int b)
{
    pv_pal_default(p);
    p->formulae[0] = r;
    p->formulae[1] = g;
    p->formulae[2] = b;
}
static void pal_33_13_10(pv_pal *p) { pal_f(p, 33, 13, 10); }
static void pal_neg(pv_pal *p) { pal_f(p, -7, 2, -30); }
static void pal_30_31_32(pv_pal *p) { pal_f(p, 30, 31, 32); }
static void pal_21_22_23(pv_pal *p) { pal_f(p, 21, 22, 23); }
static void pal_8_9_16(pv_pal *p) { pal_f(p, -8, 9, -16); }
static void pal_rwb(pv_pal *p)
{
    pv_pal_default(p);
    p->kind = PV_PALK_DEFINED;
    p->grad = grad_rwb;
    p->ngrad = 3;
}
static void pal_grad4(pv_pal *p)
{
    pv_pal_default(p);
    p->kind = PV_PALK_DEFINED;
    p->grad = grad4;
    p->ngrad = 4;
}
static void pal_rwb_neg(pv_pal *p)
{
    pal_rwb(p);
    p->negative = true;
}
static void pal_cubehelix(pv_pal *p)
{
    pv_pal_default(p);
    p->kind = PV_PALK_CUBEHELIX;
}
static void pal_cubehelix2(pv_pal *p)
{
    pal_cubehelix(p);
    p->ch_start = 2.0;
    p->ch_cycles = 1.3;
    p->ch_saturation = 0.7;
    p->gamma = 1.0;
}
static void pal_gray(pv_pal *p)
{
    pv_pal_default(p);
    p->kind = PV_PALK_GRAY;
    p->gamma = 2.2;
}
static void pal_maxcolors(pv_pal *p)
{
    pv_pal_default(p);
    p->maxcolors = 7;
}
static void pal_hsv(pv_pal *p)
{
    pal_f(p, 3, 2, 2);
    p->model = PV_PALM_HSV;
}
static void pal_cmy(pv_pal *p)
{
    pal_f(p, 7, 5, 15);
    p->model = PV_PALM_CMY;
}

static const live_case live[] = {
    {"rgbformulae 7,5,15", pal_default},
    {"rgbformulae 33,13,10", pal_33_13_10},
    {"rgbformulae -7,2,-30", pal_neg},
    {"rgbformulae 30,31,32", pal_30_31_32},
    {"rgbformulae 21,22,23", pal_21_22_23},
    {"rgbformulae -8,9,-16", pal_8_9_16},
    {"defined (0 'red', 0.5 'white', 1 'blue')", pal_rwb},
    {"defined (0 'black', 1 '#33e61a', 1 'red', 4 '#ffff80')", pal_grad4},
    {"defined (0 'red', 0.5 'white', 1 'blue') negative", pal_rwb_neg},
    {"cubehelix", pal_cubehelix},
    {"cubehelix start 2 cycles 1.3 saturation 0.7 gamma 1.0", pal_cubehelix2},
    {"gray gamma 2.2", pal_gray},
    {"color model RGB rgbformulae 7,5,15 maxcolors 7", pal_maxcolors},
    {"color model HSV rgbformulae 3,2,2", pal_hsv},
    {"color model CMY rgbformulae 7,5,15", pal_cmy},
};

/* The colour box bands of an svg, bottom first:
 * "<polygon fill = 'rgb(  r,   g,   b)' points = 'x0,y0 x1,y0 x1,y1 x0,y1 '/>". */
typedef struct band {
    uint32_t rgb;
    double ylo, yhi; /* svg pixels (y down) */
} band;

static int parse_bands(const char *svg, band *out, int cap)
{
    int n = 0;
    for (const char *p = svg; (p = strstr(p, "polygon fill = 'rgb(")) != NULL && n < cap; p++) {
        int r, g, b;
        double x0, y0, x1, y1;
        if (sscanf(p, "polygon fill = 'rgb(%d,%d,%d)' points = '%lf,%lf %lf,%lf", &r, &g, &b,
                   &x0, &y0, &x1, &y1) == 7) {
            const char *q = strstr(p, "points = '");
            double xs[4], ys[4];
            if (q && sscanf(q, "points = '%lf,%lf %lf,%lf %lf,%lf %lf,%lf", &xs[0], &ys[0], &xs[1],
                            &ys[1], &xs[2], &ys[2], &xs[3], &ys[3]) == 8) {
                out[n].rgb = RGB(r, g, b);
                out[n].ylo = ys[0];
                out[n].yhi = ys[2];
                n++;
            }
        }
    }
    return n;
}

/* The colour box our frame builds for this palette, on gnuplot's svg canvas. */
static const pv_fitem *our_gradient(pv_frame *f, const pv_pal *pal)
{
    pv_view3d_params p = {0};
    gp_svg_termdim(&p.term, 400, 300);
    p.rot_x = 60;
    p.rot_z = 30;
    p.scale = p.zscale = 1;
    p.xmax = p.ymax = p.zmax = 1;
    p.xyplane_rel = 0.5;
    p.base_in_box = true;
    pv_view3d v;
    pv_view3d_setup(&v, &p);
    pv_frame_spec s;
    pv_frame_spec_default(&s);
    s.colorbox = true;
    s.pal = pal;
    s.cbmin = 0;
    s.cbmax = 1;
    if (!pv_frame_build(f, &s, &v)) return NULL;
    for (int i = 0; i < f->n; i++)
        if (f->items[i].kind == PV_FI_GRADIENT) return &f->items[i];
    return NULL;
}

static uint32_t rgb8(const double *c)
{
    uint32_t out = 0;
    for (int k = 0; k < 3; k++) out = (out << 8) | (unsigned char)(255.0 * c[k] + 0.5);
    return out;
}

static void test_live(void)
{
    for (size_t c = 0; c < sizeof live / sizeof live[0]; c++) {
        char script[1024];
        snprintf(script, sizeof script,
                 "set term svg size 400,300\nset output 'pal.svg'\nset palette %s\n"
                 "set cbrange [0:1]\nunset key\n"
                 "splot '-' using 1:2:3:3 with points pt -1 lc palette\n0 0 0\n1 1 1\ne\n",
                 live[c].set);
        char *svg = gp_run(script, "pal.svg");
        PV_CHECK(svg != NULL);
        if (!svg) continue;
        band bands[512];
        int n = parse_bands(svg, bands, 512);
        free(svg);
        pv_pal p;
        live[c].setup(&p);
        pv_frame f = {0};
        const pv_fitem *g = our_gradient(&f, &p);
        PV_CHECK(g != NULL);
        if (!g) continue;
        PV_CHECK_EQ(g->ncolors, n);
        int bad = 0;
        for (int i = 0; i < n && i < g->ncolors; i++) {
            uint32_t got = rgb8(&g->colors[3 * i]);
            double ylo = (f.term.ymax - g->bands[2 * i]) / 100.0;
            double yhi = (f.term.ymax - g->bands[2 * i + 1]) / 100.0;
            bool ok = got == bands[i].rgb && fabs(ylo - bands[i].ylo) < 0.006 &&
                      fabs(yhi - bands[i].yhi) < 0.006;
            if (!ok && bad++ < 3)
                fprintf(stderr, "palette %s: band %d: got #%06x %.2f..%.2f, gnuplot #%06x "
                                "%.2f..%.2f\n",
                        live[c].set, i, got, ylo, yhi, bands[i].rgb, bands[i].ylo, bands[i].yhi);
        }
        PV_CHECK_EQ(bad, 0);
        pv_frame_fini(&f);
    }
}

int main(void)
{
    test_fixed();
    if (gp_have()) {
        test_live();
        gp_cleanup();
    } else {
        fprintf(stderr, "gnuplot not found: live palette checks skipped\n");
        return 77;
    }
    return pv_test_result("palette");
}
