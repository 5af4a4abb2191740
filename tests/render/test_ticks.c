/*
 * Tics and autoscaling against gnuplot 5.4:
 * - fixed: gnuplot's measured ranges (GP-6.3: z from vz [0.05:0.93] -> [0:1]; GP-8.2: cb data
 *   0.13..29.3 -> [0:30], `cbfix` keeps it; empty ranges widen as its warnings say);
 * - live: for many data ranges, gnuplot's autoscaled x range (GPVAL_X_MIN/MAX) and its
 *   tic values (svg labels printed with "%.17g") against pv_ticks_setup/pv_ticks_list,
 *   with automatic steps, `set xtics incr`, `set xtics start,incr`, `set autoscale xfix`;
 *   and the default-format precision rule (labels of a tiny range far from zero).
 */
#include "pv_test.h"
#include "test_view_gnuplot.h"

#include "pvox/view.h"

static void test_steps(void)
{
    /* quantize_normal_tics with guide 20 */
    const double r[] = {1, 2, 3, 29.17, 0.88, 49, 55, 100, 0.001, 7, 15, 0.3};
    const double s[] = {0.2, 0.5, 0.5, 5, 0.1, 5, 10, 20, 0.0002, 1, 2, 0.05};
    for (size_t i = 0; i < sizeof r / sizeof r[0]; i++)
        PV_CHECK_NEAR(pv_ticks_step(r[i]), s[i], 1e-15);
}

static pv_tickaxis autoaxis(double lo, double hi)
{
    pv_tickaxis a = {0};
    a.min = lo;
    a.max = hi;
    a.auto_min = a.auto_max = true;
    a.tics = true;
    a.start = a.end = NAN;
    return a;
}

static void test_fixed(void)
{
    pv_tickaxis a = autoaxis(0.05, 0.93); /* GP-6.3 */
    pv_ticks_setup(&a);
    PV_CHECK_NEAR(a.min, 0, 1e-12);
    PV_CHECK_NEAR(a.max, 1, 1e-12);
    a = autoaxis(0.13, 29.3); /* GP-8.2 */
    pv_ticks_setup(&a);
    PV_CHECK_NEAR(a.min, 0, 1e-12);
    PV_CHECK_NEAR(a.max, 30, 1e-12);
    a = autoaxis(0.13, 29.3); /* GP-8.2 with `set autoscale cbfix` */
    a.fix_min = a.fix_max = true;
    pv_ticks_setup(&a);
    PV_CHECK_NEAR(a.min, 0.13, 0);
    PV_CHECK_NEAR(a.max, 29.3, 0);
    double lo = 100, hi = 100; /* "empty cb range [100:100], adjusting to [99:101]" */
    PV_CHECK(pv_ticks_widen_empty(&lo, &hi));
    PV_CHECK_NEAR(lo, 99, 1e-12);
    PV_CHECK_NEAR(hi, 101, 1e-12);
    lo = hi = 0; /* "empty x range [0:0], adjusting to [-1:1]" */
    PV_CHECK(pv_ticks_widen_empty(&lo, &hi));
    PV_CHECK_NEAR(lo, -1, 0);
    PV_CHECK_NEAR(hi, 1, 0);
    lo = hi = -100; /* "[-100:-100], adjusting to [-101:-99]" */
    PV_CHECK(pv_ticks_widen_empty(&lo, &hi));
    PV_CHECK_NEAR(lo, -101, 1e-12);
    PV_CHECK_NEAR(hi, -99, 1e-12);
    lo = 0.3; /* "[0.3:0.3], adjusting to [0.297:0.303]" */
    hi = 0.3;
    PV_CHECK(pv_ticks_widen_empty(&lo, &hi));
    PV_CHECK_NEAR(lo, 0.297, 1e-15);
    PV_CHECK_NEAR(hi, 0.303, 1e-15);
    PV_CHECK(!pv_ticks_widen_empty(&lo, &hi));
    /* tics of [0:1]: 0 0.2 .. 1, the zero exact */
    a = autoaxis(0, 1);
    pv_ticks_setup(&a);
    double pos[16];
    int n = pv_ticks_list(&a, pos, 16);
    PV_CHECK_EQ(n, 6);
    PV_CHECK(pos[0] == 0.0);
    PV_CHECK_NEAR(pos[5], 1.0, 1e-12);
    /* a range crossing zero: -0.3..0.25, step 0.1 accumulated from -0.3, has an exact 0 */
    a = autoaxis(-0.3, 0.25);
    a.auto_min = a.auto_max = false;
    pv_ticks_setup(&a);
    n = pv_ticks_list(&a, pos, 16);
    PV_CHECK_EQ(n, 6);
    bool has_zero = false;
    for (int i = 0; i < n && i < 16; i++) has_zero |= pos[i] == 0.0;
    PV_CHECK(has_zero);
}

/* ---- live ---------------------------------------------------------------------------- */

typedef struct live_case {
    double lo, hi;      /* data x range */
    const char *xtics;  /* `set xtics ...` arguments or NULL */
    bool fix;           /* `set autoscale xfix` */
    double incr, start; /* what pv_tickaxis gets for xtics (incr 0: automatic) */
} live_case;

static const live_case live[] = {
    {0.13, 29.3, NULL, false, 0, NAN},
    {-3.7, 12.2, NULL, false, 0, NAN},
    {0.05, 0.93, NULL, false, 0, NAN},
    {-1e-3, 7e-4, NULL, false, 0, NAN},
    {1234.5, 98765, NULL, false, 0, NAN},
    {-47, -2.5, NULL, false, 0, NAN},
    {0.1, 2.05, "0.3", false, 0.3, NAN},
    {0.1, 2.05, "0.05, 0.3", false, 0.3, 0.05},
    {-0.7, 2.3, NULL, true, 0, NAN},
    {3, 7.01, NULL, false, 0, NAN},
    {-2e5, 3.3e5, NULL, false, 0, NAN},
    {0.61, 0.62, NULL, false, 0, NAN},
};

static int parse_labels(const char *svg, double *out, int cap)
{
    int n = 0;
    for (const char *p = svg; (p = strstr(p, "<tspan font-family=\"Arial\" >")) && n < cap; p++)
        out[n++] = strtod(p + strlen("<tspan font-family=\"Arial\" >"), NULL);
    return n;
}

static void test_live(void)
{
    for (size_t c = 0; c < sizeof live / sizeof live[0]; c++) {
        const live_case *L = &live[c];
        char script[1024], xt[96] = "";
        if (L->xtics) snprintf(xt, sizeof xt, "set xtics %s\n", L->xtics);
        snprintf(script, sizeof script,
                 "set term svg size 2000,200\nset output 'tics.svg'\n%s%s"
                 "unset ytics\nunset key\nset border 1\nset format x '%%.17g'\n"
                 "set yrange [0:1]\nplot '-' using 1:2 with points pt -1\n"
                 "%.17g 0.5\n%.17g 0.5\ne\n"
                 "set print 'range.txt'\n"
                 "print sprintf('%%.17g %%.17g', GPVAL_X_MIN, GPVAL_X_MAX)\n",
                 xt, L->fix ? "set autoscale xfix\n" : "", L->lo, L->hi);
        char *svg = gp_run(script, "tics.svg");
        char *range = gp_read("range.txt");
        PV_CHECK(svg && range);
        if (!svg || !range) {
            free(svg);
            free(range);
            continue;
        }
        double gmin = NAN, gmax = NAN, gpos[64];
        PV_CHECK(sscanf(range, "%lf %lf", &gmin, &gmax) == 2);
        int gn = parse_labels(svg, gpos, 64);
        free(svg);
        free(range);

        pv_tickaxis a = autoaxis(L->lo, L->hi);
        a.fix_min = a.fix_max = L->fix;
        if (L->incr > 0) {
            a.has_incr = true;
            a.incr = L->incr;
            a.start = L->start;
        }
        pv_ticks_setup(&a);
        double pos[64];
        int n = pv_ticks_list(&a, pos, 64);
        double tol = 1e-12 * (fabs(gmax) + fabs(gmin));
        if (fabs(a.min - gmin) > tol || fabs(a.max - gmax) > tol || n != gn)
            fprintf(stderr, "data [%g:%g] xtics %s: ours [%.17g:%.17g] %d tics, gnuplot "
                            "[%.17g:%.17g] %d tics\n",
                    L->lo, L->hi, L->xtics ? L->xtics : "auto", a.min, a.max, n, gmin, gmax, gn);
        PV_CHECK_NEAR(a.min, gmin, tol);
        PV_CHECK_NEAR(a.max, gmax, tol);
        PV_CHECK_EQ(n, gn);
        for (int i = 0; i < n && i < gn; i++) PV_CHECK_NEAR(pos[i], gpos[i], tol);
    }
}

/* The default format: "% h" unless the range is tiny against its values. */
/* `set logscale cb` (gnuplot 5.4.4 svg): data 3..40 keeps [3:40] (the colour axis is not
 * extended) with the one tic 10; [1:1e5] has a tic at every power of ten. An autoscaled
 * log x/y/z axis extends to whole powers. */
static void test_log(void)
{
    double pos[16];
    pv_tickaxis a = autoaxis(3, 40);
    a.log_base = 10;
    a.fix_min = a.fix_max = true;
    pv_ticks_setup(&a);
    PV_CHECK_NEAR(a.min, 3, 0);
    PV_CHECK_NEAR(a.max, 40, 0);
    PV_CHECK_EQ(pv_ticks_list(&a, pos, 16), 1);
    PV_CHECK_NEAR(pos[0], 10, 1e-12);
    a = autoaxis(1, 1e5);
    a.auto_min = a.auto_max = false;
    a.log_base = 10;
    pv_ticks_setup(&a);
    PV_CHECK_NEAR(a.step, 1, 0);
    PV_CHECK_EQ(pv_ticks_list(&a, pos, 16), 6);
    PV_CHECK_NEAR(pos[0], 1, 1e-12);
    PV_CHECK_NEAR(pos[5], 1e5, 1e-6);
    a = autoaxis(3, 40);
    a.log_base = 10;
    pv_ticks_setup(&a);
    PV_CHECK_NEAR(a.min, 1, 1e-12);
    PV_CHECK_NEAR(a.max, 100, 1e-12);
    a = autoaxis(-1, 40); /* not a log range: no tics, no change */
    a.log_base = 10;
    pv_ticks_setup(&a);
    PV_CHECK_EQ(pv_ticks_list(&a, pos, 16), 0);
}

static void test_format(void)
{
    char buf[32];
    pv_tickaxis a = autoaxis(0, 1);
    pv_ticks_setup(&a);
    PV_CHECK_STR(pv_ticks_format(&a, NULL, buf, sizeof buf), "% h");
    PV_CHECK_STR(pv_ticks_format(&a, "%.2f", buf, sizeof buf), "%.2f");
    a = autoaxis(1000.001, 1000.002); /* precision 3: not tiny enough, "% h" stays */
    pv_ticks_setup(&a);
    PV_CHECK_STR(pv_ticks_format(&a, "% h", buf, sizeof buf), "% h");
    a = autoaxis(1000.00001, 1000.00002); /* span 1e-5 in floating point: "%.6f" */
    pv_ticks_setup(&a);
    PV_CHECK_STR(pv_ticks_format(&a, "% h", buf, sizeof buf), "%.6f");
    /* gnuplot's labels for that range are "%.6f" of the tics: check against it */
    char *svg = gp_run("set term svg size 2000,200\nset output 'fmt.svg'\nunset ytics\n"
                       "unset key\nset border 1\nset yrange [0:1]\n"
                       "plot '-' using 1:2 with points pt -1\n1000.00001 0.5\n1000.00002 0.5\n"
                       "e\n",
                       "fmt.svg");
    PV_CHECK(svg != NULL);
    if (!svg) return;
    double pos[16];
    int n = pv_ticks_list(&a, pos, 16), k = 0;
    const char *p = svg;
    for (; (p = strstr(p, "<tspan font-family=\"Arial\" >")) != NULL; p++, k++) {
        char want[64], got[32];
        sscanf(p + strlen("<tspan font-family=\"Arial\" >"), "%63[^<]", want);
        if (k < n) {
            snprintf(got, sizeof got, "%.6f", pos[k]); /* buf, checked above */
            PV_CHECK_STR(got, want);
        }
    }
    PV_CHECK_EQ(k, n);
    free(svg);
}

int main(void)
{
    test_steps();
    test_fixed();
    if (!gp_have()) {
        fprintf(stderr, "gnuplot not found: live checks skipped\n");
        return 77;
    }
    test_live();
    test_format();
    test_log();
    gp_cleanup();
    return pv_test_result("ticks");
}
