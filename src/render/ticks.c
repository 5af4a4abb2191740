/*
 * Axis tics: gnuplot 5.4's automatic tic step, the extension of autoscaled ranges to tic
 * marks, the list of tic positions and the label format.
 *
 * Rules measured with gnuplot 5.4.4 (GP-6.3, GP-8.2 and tests/render/test_ticks.c against
 * GPVAL_* and svg output):
 * - step: range r = 10^k * m (1 <= m < 10); with p = 20/m tics per decade the step is
 *   0.05, 0.1, 0.2, 0.5, 1 or 2 (p > 40, 20, 10, 4, 2, 0.5) times 10^k, else ceil(m)*10^k.
 * - an autoscaled end that is not `fix` moves outward to a multiple of the step
 *   (floor / ceil of end/step); a `set xtics incr` step is used instead of the automatic
 *   one, and an explicit start (end) keeps the lower (upper) end where the data put it.
 * - tics run from step*floor(min/step) in steps of `step` (accumulated, as gnuplot does)
 *   and are kept within [min, max] widened by 1% of a step; values within 1% of a step of
 *   zero become exactly 0 (no "-1.4e-17" labels).
 * - empty autoscaled ranges widen to [-1:1] around 0, else by 1% of |v| each way.
 * - a log axis (gnuplot 5.4 keeps a hidden linear axis of log_base(v)): the automatic
 *   step is taken on log_base of the range, at least 1; tics are base^(k*step); an
 *   autoscaled end moves out to a whole power of the base.
 */
#include "pvox/view.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define TIC_SIGNIF 0.01 /* gnuplot's tolerance, in tic steps */
#define TIC_GUIDE 20.0  /* gnuplot's fixed "guide" (approximate maximum tic count) */

double pv_ticks_step(double range)
{
    range = fabs(range);
    if (!(range > 0.0) || !isfinite(range)) return 1.0;
    double power = pow(10.0, floor(log10(range)));
    double xnorm = range / power;
    double posns = TIC_GUIDE / xnorm;
    double tics;
    if (posns > 40) tics = 0.05;
    else if (posns > 20) tics = 0.1;
    else if (posns > 10) tics = 0.2;
    else if (posns > 4) tics = 0.5;
    else if (posns > 2) tics = 1;
    else if (posns > 0.5) tics = 2;
    else tics = ceil(xnorm);
    return tics * power;
}

bool pv_ticks_widen_empty(double *min, double *max)
{
    if (*min != *max) return false;
    double v = *min;
    if (v == 0.0) {
        *min = -1.0;
        *max = 1.0;
    } else {
        *min = v - fabs(v) * 0.01;
        *max = v + fabs(v) * 0.01;
    }
    return true;
}

static double round_outward(double step, bool upwards, double v)
{
    return step * (upwards ? ceil(v / step) : floor(v / step));
}

static bool is_log(const pv_tickaxis *a) { return a->log_base > 1.0; }

/* A log axis: its ends in powers of the base (gnuplot's hidden linear "primary" axis). */
static double to_log(const pv_tickaxis *a, double v) { return log(v) / log(a->log_base); }

/* gnuplot's extend_primary_ticrange and make_tics for a log axis: autoscaled ends move
 * out to whole powers, then the step is the automatic step of that range in powers of
 * the base, at least one power (measured: data over 1e-4.3 .. 1e4.3 gives [1e-5:1e5]
 * with tics every second power). */
static void setup_log(pv_tickaxis *a, bool ext_min, bool ext_max)
{
    double lmin = to_log(a, a->min), lmax = to_log(a, a->max);
    bool ascending = a->min < a->max;
    if (ext_min) lmin = ascending ? floor(lmin) : ceil(lmin), a->min = pow(a->log_base, lmin);
    if (ext_max) lmax = ascending ? ceil(lmax) : floor(lmax), a->max = pow(a->log_base, lmax);
    a->step = pv_ticks_step(fabs(lmax - lmin));
    if (a->step < 1.0) a->step = 1.0;
}

void pv_ticks_setup(pv_tickaxis *a)
{
    bool ext_min = a->auto_min && !a->fix_min;
    bool ext_max = a->auto_max && !a->fix_max;
    if (is_log(a) && !(a->has_incr && a->incr != 0.0)) {
        if (a->min > 0.0 && a->max > 0.0) setup_log(a, ext_min, ext_max);
        else a->step = 1.0;
        return;
    }
    if (a->has_incr && a->incr != 0.0) {
        a->step = fabs(a->incr);
        ext_min = ext_min && isnan(a->start);
        ext_max = ext_max && isnan(a->end);
    } else {
        a->step = pv_ticks_step(a->max - a->min);
    }
    if (!a->tics) return;
    bool ascending = a->min < a->max;
    if (ext_min) a->min = round_outward(a->step, !ascending, a->min);
    if (ext_max) a->max = round_outward(a->step, ascending, a->max);
}

/* gnuplot's CheckZero: rounding noise next to zero is zero. */
static double snap_zero(double v, double step)
{
    return fabs(v) < step * TIC_SIGNIF ? 0.0 : v;
}

int pv_ticks_list(const pv_tickaxis *a, double *pos, int cap)
{
    /* automatic tics on a log axis: the same series in powers of the base */
    bool logs = is_log(a) && !(a->has_incr && a->incr != 0.0);
    if (logs && !(a->min > 0.0 && a->max > 0.0)) return 0;
    double lmin = logs ? to_log(a, a->min) : a->min, lmax = logs ? to_log(a, a->max) : a->max;
    if (lmax < lmin) {
        double t = lmin;
        lmin = lmax;
        lmax = t;
    }
    double step = fabs(a->step);
    if (!(step > 0.0) || !isfinite(lmin) || !isfinite(lmax)) return 0;
    double start = step * floor(lmin / step);
    double end = step * ceil(lmax / step);
    if (a->has_incr) {
        if (!isnan(a->start)) start = a->start;
        if (!isnan(a->end)) end = a->end;
    }
    if (end < start) {
        double t = end;
        end = start;
        start = t;
    }
    end += TIC_SIGNIF * step;
    double lo = lmin, hi = lmax;
    if (step < fabs(lmax) + fabs(lmin)) {
        lo = lmin - step * TIC_SIGNIF;
        hi = lmax + step * TIC_SIGNIF;
    }
    if ((hi - lo) / step > 1e6) return 0; /* gnuplot: "Too many axis ticks requested" */
    /* count first, exactly as the drawing loop will run (accumulated steps) */
    int nsteps = 0;
    double prev = start - step;
    for (double t = start; t <= end; t += step) {
        if (fabs(t - prev) < step / 4.0) { /* step below the precision of the values */
            step = end - start;
            nsteps = 2;
            break;
        }
        prev = t;
        nsteps++;
    }
    int n = 0;
    double t = start;
    for (; nsteps > 0; t += step, nsteps--) {
        if (t > hi) break;
        if (t >= lo) {
            if (n < cap) pos[n] = logs ? pow(a->log_base, snap_zero(t, step)) : snap_zero(t, step);
            n++;
        }
    }
    return n;
}

int pv_ticks_minor(const pv_tickaxis *a, double *pos, int cap)
{
    if (!is_log(a) || (a->has_incr && a->incr != 0.0) || !(a->min > 0.0 && a->max > 0.0))
        return 0;
    double lmin = to_log(a, a->min), lmax = to_log(a, a->max);
    if (lmax < lmin) {
        double t = lmin;
        lmin = lmax;
        lmax = t;
    }
    double step = fabs(a->step), base = a->log_base;
    if (!(step > 0.0)) return 0;
    double start = step * floor(lmin / step), end = step * ceil(lmax / step);
    double lo = lmin, hi = lmax;
    if (step < fabs(lmax) + fabs(lmin)) {
        lo = lmin - step * TIC_SIGNIF;
        hi = lmax + step * TIC_SIGNIF;
    }
    end += TIC_SIGNIF * step;
    double ministep = step / (base - 1.0), miniend = step;
    int n = 0;
    for (double t = start; t <= end; t += step) {
        if (t > hi) break;
        double major = pow(base, t), next = pow(base, t + step);
        for (double m = ministep; m < miniend; m += ministep) {
            double user = major + m / miniend * (next - major);
            double internal = to_log(a, user);
            if (internal >= lo && internal <= hi && internal >= start - step * TIC_SIGNIF &&
                internal <= end + step * TIC_SIGNIF) {
                if (n < cap) pos[n] = user;
                n++;
            }
        }
    }
    return n;
}

const char *pv_ticks_format(const pv_tickaxis *a, const char *fmt, char *buf, size_t n)
{
    if (!fmt) fmt = "% h";
    snprintf(buf, n, "%s", fmt);
    if (strcmp(fmt, "% h") != 0) return buf;
    double lo = a->min, hi = a->max;
    double span = fabs(hi - lo), mag = fabs(lo);
    double smallest = span < mag ? span : mag;
    if (!(smallest > 0.0)) return buf;
    int precision = (int)ceil(-log10(smallest));
    if (lo * hi > 0 && precision > 4 && precision < 10) snprintf(buf, n, "%%.%df", precision);
    return buf;
}
