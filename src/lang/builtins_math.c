/*
 * Math builtins: the real forms shared with the vector VM (pv_builtin_real1 and its lane
 * loops), the complex forms, and the numeric builtins (abs, sgn, rounding, parts of a
 * complex number, atan2, special functions, Bessel functions).
 *
 * Math functions with a real argument go through pv_builtin_real1(), which the vector VM
 * also calls, so a lane computes exactly what the scalar VM does. When the real form
 * cannot answer (a complex result such as sqrt(-1), or a libm range/domain error, which
 * gnuplot turns into an undefined value) the complex form handles it.
 */
#define _XOPEN_SOURCE 700
#include "builtins_int.h"

#include <complex.h>
#include <errno.h>
#include <float.h>
#include <math.h>
#include <string.h>

#if !defined(CMPLX) && defined(__clang__)
/* glibc defines CMPLX for GCC >= 4.7 only, and clang calls itself GCC 4.2 */
#define CMPLX(x, y) __builtin_complex((double)(x), (double)(y))
#endif

bool pv_builtin_real1(int id, double x, bool degrees, double *out)
{
    double r;
    if (degrees && pv_takes_angle(id)) x *= DEG2RAD;
    errno = 0;
    switch (id) {
    case B_SQRT: if (x < 0.0) return false; r = sqrt(x); break;
    case B_EXP: r = exp(x); break;
    case B_LOG: if (x < 0.0) return false; r = log(x); break;
    case B_LOG10: if (x < 0.0) return false; r = log10(x); break;
    case B_SIN: r = sin(x); break;
    case B_COS: r = cos(x); break;
    case B_TAN: r = tan(x); break;
    case B_ASIN: if (fabs(x) > 1.0) return false; r = asin(x); break;
    case B_ACOS: if (fabs(x) > 1.0) return false; r = acos(x); break;
    case B_ATAN: r = atan(x); break;
    case B_SINH: r = sinh(x); break;
    case B_COSH: r = cosh(x); break;
    case B_TANH: r = tanh(x); break;
    case B_ASINH: r = asinh(x); break;
    case B_ACOSH: if (x < 1.0) return false; r = acosh(x); break;
    case B_ATANH: if (fabs(x) > 1.0) return false; r = atanh(x); break;
    case B_BESJ0: r = j0(x); break;
    case B_BESJ1: r = j1(x); break;
    case B_BESY0: if (x <= 0.0) return false; r = y0(x); break;
    case B_BESY1: if (x <= 0.0) return false; r = y1(x); break;
    case B_ERF: r = erf(x); break;
    case B_ERFC: r = erfc(x); break;
    case B_GAMMA: r = tgamma(x); break;
    case B_LGAMMA: r = lgamma(x); break;
    case B_INVERF: if (fabs(x) >= 1.0) return false; r = pv_sf_inverf(x); break;
    case B_NORM: r = 0.5 * erfc(-x * sqrt(0.5)); break;
    case B_INVNORM:
        if (x <= 0.0 || x >= 1.0) return false;
        r = pv_sf_ndtri(x);
        break;
    default: return false;
    }
    if (errno == EDOM || errno == ERANGE) return false;
    if (isinf(r) && isfinite(x)) return false;
    if (degrees && pv_gives_angle(id)) r *= RAD2DEG;
    *out = r;
    return true;
}

/* The lane loops of the vector VM. Each libm call is the one pv_builtin_real1 makes; the
 * slow test is a superset of the cases where it sets errno or declines: exp overflows or
 * underflows (result not a normal number), log and sqrt outside their domain or at a pole,
 * sin/cos of an infinite or subnormal argument. */
#if defined(__GNUC__) && !defined(__clang__)
__attribute__((optimize("O3")))
#endif
void pv_builtin_real1_vec(int id, const double *x, bool xuni, size_t m, bool degrees,
                          double *out, unsigned char *slow)
{
    if (xuni) {
        double y;
        bool ok = pv_builtin_real1(id, x[0], degrees, &y);
        for (size_t i = 0; i < m; i++) out[i] = ok ? y : (double)NAN;
        if (!ok) memset(slow, 1, m);
        return;
    }
    switch (id) {
    case B_EXP:
        for (size_t i = 0; i < m; i++) {
            double r = exp(x[i]);
            out[i] = r;
            slow[i] |= (unsigned char)!(r >= DBL_MIN && r <= DBL_MAX);
        }
        return;
    case B_LOG:
        for (size_t i = 0; i < m; i++) {
            double v = x[i];
            out[i] = log(v);
            slow[i] |= (unsigned char)!(v > 0.0);
        }
        return;
    case B_SQRT:
        for (size_t i = 0; i < m; i++) {
            double v = x[i];
            out[i] = sqrt(v);
            slow[i] |= (unsigned char)(v < 0.0);
        }
        return;
    case B_SIN: case B_COS:
        for (size_t i = 0; i < m; i++) {
            double v = degrees ? x[i] * DEG2RAD : x[i];
            out[i] = id == B_SIN ? sin(v) : cos(v);
            slow[i] |= (unsigned char)!(v == 0.0 || (fabs(v) >= DBL_MIN && fabs(v) <= DBL_MAX));
        }
        return;
    default:
        for (size_t i = 0; i < m; i++) {
            double y;
            if (pv_builtin_real1(id, x[i], degrees, &y)) {
                out[i] = y;
            } else {
                out[i] = NAN;
                slow[i] = 1;
            }
        }
        return;
    }
}

/* Complex forms (and real-argument cases the real form declined). */
static void complex1(int id, double re, double im, bool degrees, pv_value *out, pv_opres *r)
{
    if (degrees && pv_takes_angle(id)) {
        re *= DEG2RAD;
        im *= DEG2RAD;
    }
    double complex z = CMPLX(re, im), w;
    switch (id) {
    case B_SQRT:
        if (im == 0.0 && re < 0.0) w = CMPLX(0.0, sqrt(-re)); /* also for im = -0 */
        else w = csqrt(z);
        break;
    case B_EXP: w = cexp(z); break;
    case B_LOG:
    case B_LOG10:
        if (re == 0.0 && im == 0.0) {
            r->undef = true;
            return;
        }
        w = clog(z);
        if (id == B_LOG10) w /= log(10.0);
        break;
    case B_SIN: w = csin(z); break;
    case B_COS: w = ccos(z); break;
    case B_TAN: w = ctan(z); break;
    case B_ASIN: w = casin(z); break;
    case B_ACOS: w = cacos(z); break;
    case B_ATAN: w = catan(z); break;
    case B_SINH: w = csinh(z); break;
    case B_COSH: w = ccosh(z); break;
    case B_TANH: w = ctanh(z); break;
    case B_ASINH: w = casinh(z); break;
    case B_ACOSH: w = cacosh(z); break;
    case B_ATANH:
        if (im == 0.0) { /* gnuplot 5.4: undefined outside [-1:1] for real arguments */
            r->undef = true;
            return;
        }
        w = catanh(z);
        break;
    default:
        if (im != 0.0) {
            r->err = "non-real argument";
            return;
        }
        r->undef = true; /* real argument outside the function's domain */
        return;
    }
    if (!isfinite(creal(w)) || !isfinite(cimag(w))) {
        r->undef = true;
        return;
    }
    out->type = PV_V_CMPLX;
    out->re = creal(w);
    out->im = cimag(w);
    if (degrees && pv_gives_angle(id)) {
        out->re *= RAD2DEG;
        out->im *= RAD2DEG;
    }
}

void pv_bi_real1(PV_BI_ARGS)
{
    (void)nargs;
    pv_value *a = &args[0];
    if (!pv_barg_num(a, r)) return;
    if (a->type == PV_V_INT || a->im == 0.0) {
        double x = pv_value_real(a), y;
        if (pv_builtin_real1(id, x, pv_vm_degrees(vm), &y)) {
            *out = pv_real(y);
            return;
        }
        complex1(id, x, 0.0, pv_vm_degrees(vm), out, r);
        return;
    }
    complex1(id, a->re, a->im, pv_vm_degrees(vm), out, r);
}

void pv_bi_abs(PV_BI_ARGS)
{
    PV_BI_UNUSED();
    pv_value *a = &args[0];
    if (!pv_barg_num(a, r)) return;
    if (a->type == PV_V_INT) *out = pv_int(a->i < 0 ? (int64_t)(0u - (uint64_t)a->i) : a->i);
    else *out = pv_real(a->im == 0.0 ? fabs(a->re) : hypot(a->re, a->im));
}

void pv_bi_sgn(PV_BI_ARGS)
{
    PV_BI_UNUSED();
    pv_value *a = &args[0];
    if (!pv_barg_num(a, r)) return;
    if (a->type == PV_V_INT) *out = pv_int((a->i > 0) - (a->i < 0));
    else *out = pv_int((a->re > 0.0) - (a->re < 0.0));
}

/* floor/ceil/int of a real: int when representable, else NaN (gnuplot 5.4). */
static void round_like(int id, pv_value *a, pv_value *out, pv_opres *r)
{
    if (a->type == PV_V_INT) {
        *out = *a;
        return;
    }
    double x = a->re;
    if (isnan(x)) {
        if (id == B_INT) r->undef = true;
        else *out = pv_real(NAN);
        return;
    }
    double y = id == B_FLOOR ? floor(x) : id == B_CEIL ? ceil(x) : trunc(x);
    if (y >= -9223372036854775808.0 && y < 9223372036854775808.0) *out = pv_int((int64_t)y);
    else *out = pv_real(NAN);
}

void pv_bi_round(PV_BI_ARGS)
{
    PV_BI_UNUSED();
    pv_value *a = &args[0];
    if (!pv_barg_num(a, r)) return;
    round_like(id, a, out, r);
}

void pv_bi_parts(PV_BI_ARGS)
{
    PV_BI_UNUSED();
    pv_value *a = &args[0];
    if (!pv_barg_num(a, r)) return;
    if (id == B_REAL) *out = pv_real(pv_value_real(a));
    else if (id == B_IMAG) *out = pv_real(a->type == PV_V_INT ? 0.0 : a->im);
    else if (a->type == PV_V_INT || a->im == 0.0) /* gnuplot's angle(): 0 or pi */
        *out = pv_real(pv_value_real(a) >= 0.0 ? 0.0 : PV_PI);
    else *out = pv_real(atan2(a->im, a->re));
    if (id == B_ARG && pv_vm_degrees(vm)) out->re *= RAD2DEG;
}

void pv_bi_atan2(PV_BI_ARGS)
{
    PV_BI_UNUSED();
    pv_value *a = &args[0];
    if (!pv_barg_num(a, r) || !pv_barg_num(&args[1], r)) return;
    *out = pv_real(atan2(pv_value_real(a), pv_value_real(&args[1])));
    if (pv_vm_degrees(vm)) out->re *= RAD2DEG;
}

void pv_bi_special(PV_BI_ARGS)
{
    PV_BI_UNUSED();
    pv_value *a = &args[0];
    for (int k = 0; k < nargs; k++)
        if (!pv_barg_num(&args[k], r)) return;
    double x = pv_value_real(a), y;
    if (id == B_IGAMMA) y = pv_sf_igamma_p(x, pv_value_real(&args[1]));
    else if (id == B_IBETA) y = pv_sf_ibeta_i(x, pv_value_real(&args[1]), pv_value_real(&args[2]));
    else if (id == B_LAMBERTW) y = pv_sf_lambert_w(x);
    else y = pv_sf_ellip(x, id == B_ELLE);
    if (isnan(y)) r->undef = true;
    else *out = pv_real(y);
}

void pv_bi_special2(PV_BI_ARGS)
{
    PV_BI_UNUSED();
    pv_value *a = &args[0];
    if (!pv_barg_num(a, r) || !pv_barg_num(&args[1], r)) return;
    if (id == B_VOIGT) {
        *out = pv_real(pv_sf_voigt_k(pv_value_real(a), pv_value_real(&args[1])));
    } else {
        double y = pv_sf_ellip_pi(pv_value_real(a), pv_value_real(&args[1]));
        if (isnan(y)) r->undef = true;
        else *out = pv_real(y);
    }
}

/* I_n(x), the modified Bessel function of integer order n: its power series
 * sum_k (x/2)^(2k+n) / (k! (k+n)!), whose terms are all positive (no cancellation);
 * I_-n = I_n and I_n(-x) = (-1)^n I_n(x). */
static double bes_in(int64_t n, double x)
{
    if (n < 0) n = -n;
    double ax = fabs(x), h = ax / 2, q = h * h;
    double t = 1.0;
    for (int64_t k = 1; k <= n; k++) {
        t *= h / (double)k;
        if (t == 0.0) return 0.0;
    }
    double sum = t;
    for (int64_t k = 1; k < 100000; k++) {
        t *= q / ((double)k * (double)(k + n));
        sum += t;
        if (t <= sum * 1e-17 || !isfinite(sum)) break;
    }
    return (x < 0 && (n & 1)) ? -sum : sum;
}

void pv_bi_bessel(PV_BI_ARGS)
{
    PV_BI_UNUSED();
    pv_value *a = &args[0];
    for (int k = 0; k < nargs; k++)
        if (!pv_barg_num(&args[k], r)) return;
    double y;
    if (id == B_BESI0 || id == B_BESI1) {
        double x = pv_value_real(a);
        y = pv_sf_bes_i(fabs(x), id == B_BESI1);
        if (id == B_BESI1 && x < 0.0) y = -y;
    } else {
        if (a->type != PV_V_INT) {
            r->err = "order must be an integer";
            return;
        }
        double x = pv_value_real(&args[1]);
        if (id == B_BESJN) y = jn((int)a->i, x);
        else if (id == B_BESIN) y = bes_in(a->i, x);
        else if (id == B_BESYN) y = x > 0.0 ? yn((int)a->i, x) : (double)NAN;
        else y = pv_sf_expint_n((int)a->i, x);
    }
    if (!isfinite(y)) r->undef = true;
    else *out = pv_real(y);
}
