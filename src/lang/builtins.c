/*
 * Internal builtin functions (gnuplot 5.4 names and argument rules).
 *
 * Math functions with a real argument go through pv_builtin_real1(), which the vector VM
 * also calls, so a lane computes exactly what the scalar VM does. When the real form
 * cannot answer (a complex result such as sqrt(-1), or a libm range/domain error, which
 * gnuplot turns into an undefined value) the scalar path handles it.
 */
#define _XOPEN_SOURCE 700
#include "lang_int.h"

#include <complex.h>
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum {
    B_SQRT, B_EXP, B_LOG, B_LOG10, B_SIN, B_COS, B_TAN, B_ASIN, B_ACOS, B_ATAN, B_SINH,
    B_COSH, B_TANH, B_ASINH, B_ACOSH, B_ATANH, B_BESJ0, B_BESJ1, B_BESY0, B_BESY1, B_ERF,
    B_ERFC, B_GAMMA, B_LGAMMA, B_INVERF, B_NORM, B_INVNORM, B_LAST_REAL1 = B_INVNORM,
    B_ABS, B_SGN, B_INT, B_FLOOR, B_CEIL, B_REAL, B_IMAG, B_ARG, B_ATAN2, B_RAND,
    B_SPRINTF, B_GPRINTF, B_STRLEN, B_SUBSTR, B_STRSTRT, B_WORD, B_WORDS, B_EXISTS,
    B_VALUE, B_COLUMN, B_STRINGCOLUMN, B_STRCOL, B_VALID, B_IGAMMA, B_IBETA, B_LAMBERTW,
    B_ELLK, B_ELLE, B_COUNT
};

static const pv_builtin_desc table[B_COUNT] = {
    [B_SQRT] = {"sqrt", 1, BF_PURE | BF_REAL1}, [B_EXP] = {"exp", 1, BF_PURE | BF_REAL1},
    [B_LOG] = {"log", 1, BF_PURE | BF_REAL1}, [B_LOG10] = {"log10", 1, BF_PURE | BF_REAL1},
    [B_SIN] = {"sin", 1, BF_PURE | BF_REAL1}, [B_COS] = {"cos", 1, BF_PURE | BF_REAL1},
    [B_TAN] = {"tan", 1, BF_PURE | BF_REAL1}, [B_ASIN] = {"asin", 1, BF_PURE | BF_REAL1},
    [B_ACOS] = {"acos", 1, BF_PURE | BF_REAL1}, [B_ATAN] = {"atan", 1, BF_PURE | BF_REAL1},
    [B_SINH] = {"sinh", 1, BF_PURE | BF_REAL1}, [B_COSH] = {"cosh", 1, BF_PURE | BF_REAL1},
    [B_TANH] = {"tanh", 1, BF_PURE | BF_REAL1}, [B_ASINH] = {"asinh", 1, BF_PURE | BF_REAL1},
    [B_ACOSH] = {"acosh", 1, BF_PURE | BF_REAL1}, [B_ATANH] = {"atanh", 1, BF_PURE | BF_REAL1},
    [B_BESJ0] = {"besj0", 1, BF_PURE | BF_REAL1}, [B_BESJ1] = {"besj1", 1, BF_PURE | BF_REAL1},
    [B_BESY0] = {"besy0", 1, BF_PURE | BF_REAL1}, [B_BESY1] = {"besy1", 1, BF_PURE | BF_REAL1},
    [B_ERF] = {"erf", 1, BF_PURE | BF_REAL1}, [B_ERFC] = {"erfc", 1, BF_PURE | BF_REAL1},
    [B_GAMMA] = {"gamma", 1, BF_PURE | BF_REAL1}, [B_LGAMMA] = {"lgamma", 1, BF_PURE | BF_REAL1},
    [B_INVERF] = {"inverf", 1, BF_PURE | BF_REAL1}, [B_NORM] = {"norm", 1, BF_PURE | BF_REAL1},
    [B_INVNORM] = {"invnorm", 1, BF_PURE | BF_REAL1},
    [B_ABS] = {"abs", 1, BF_PURE}, [B_SGN] = {"sgn", 1, BF_PURE}, [B_INT] = {"int", 1, BF_PURE},
    [B_FLOOR] = {"floor", 1, BF_PURE}, [B_CEIL] = {"ceil", 1, BF_PURE},
    [B_REAL] = {"real", 1, BF_PURE}, [B_IMAG] = {"imag", 1, BF_PURE},
    [B_ARG] = {"arg", 1, BF_PURE}, [B_ATAN2] = {"atan2", 2, BF_PURE},
    [B_RAND] = {"rand", 1, 0}, [B_SPRINTF] = {"sprintf", -1, BF_PURE},
    [B_GPRINTF] = {"gprintf", 2, BF_PURE}, [B_STRLEN] = {"strlen", 1, BF_PURE},
    [B_SUBSTR] = {"substr", 3, BF_PURE}, [B_STRSTRT] = {"strstrt", 2, BF_PURE},
    [B_WORD] = {"word", 2, BF_PURE}, [B_WORDS] = {"words", 1, BF_PURE},
    [B_EXISTS] = {"exists", 1, BF_ENV}, [B_VALUE] = {"value", 1, BF_ENV},
    [B_COLUMN] = {"column", 1, BF_COLUMN}, [B_STRINGCOLUMN] = {"stringcolumn", 1, BF_COLUMN},
    [B_STRCOL] = {"strcol", 1, BF_COLUMN}, [B_VALID] = {"valid", 1, BF_COLUMN},
    [B_IGAMMA] = {"igamma", 2, BF_PURE}, [B_IBETA] = {"ibeta", 3, BF_PURE},
    [B_LAMBERTW] = {"lambertw", 1, BF_PURE}, [B_ELLK] = {"EllipticK", 1, BF_PURE},
    [B_ELLE] = {"EllipticE", 1, BF_PURE},
};

/* ---- special functions (textbook algorithms) ------------------------------------------ */

/* Regularized lower incomplete gamma P(a, x): series below a+1, Lentz's continued fraction
 * for Q above. NaN outside a > 0, x >= 0. */
static double igamma_p(double a, double x)
{
    if (!(a > 0.0) || !(x >= 0.0)) return NAN;
    if (x == 0.0) return 0.0;
    double lg = lgamma(a);
    if (x < a + 1.0) {
        double ap = a, sum = 1.0 / a, del = sum;
        for (int n = 0; n < 1000; n++) {
            ap += 1.0;
            del *= x / ap;
            sum += del;
            if (fabs(del) < fabs(sum) * 1e-17) break;
        }
        return sum * exp(-x + a * log(x) - lg);
    }
    double b = x + 1.0 - a, c = 1.0 / 1e-300, d = 1.0 / b, h = d;
    for (int i = 1; i < 1000; i++) {
        double an = -i * (i - a);
        b += 2.0;
        d = an * d + b;
        if (fabs(d) < 1e-300) d = 1e-300;
        c = b + an / c;
        if (fabs(c) < 1e-300) c = 1e-300;
        d = 1.0 / d;
        double del = d * c;
        h *= del;
        if (fabs(del - 1.0) < 1e-17) break;
    }
    return 1.0 - exp(-x + a * log(x) - lg) * h;
}

/* Continued fraction of the incomplete beta function (modified Lentz). */
static double betacf(double a, double b, double x)
{
    double qab = a + b, qap = a + 1.0, qam = a - 1.0, c = 1.0, d = 1.0 - qab * x / qap;
    if (fabs(d) < 1e-300) d = 1e-300;
    d = 1.0 / d;
    double h = d;
    for (int m = 1; m <= 1000; m++) {
        int m2 = 2 * m;
        double aa = m * (b - m) * x / ((qam + m2) * (a + m2));
        d = 1.0 + aa * d;
        if (fabs(d) < 1e-300) d = 1e-300;
        c = 1.0 + aa / c;
        if (fabs(c) < 1e-300) c = 1e-300;
        d = 1.0 / d;
        h *= d * c;
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
        d = 1.0 + aa * d;
        if (fabs(d) < 1e-300) d = 1e-300;
        c = 1.0 + aa / c;
        if (fabs(c) < 1e-300) c = 1e-300;
        d = 1.0 / d;
        double del = d * c;
        h *= del;
        if (fabs(del - 1.0) < 1e-17) break;
    }
    return h;
}

/* Regularized incomplete beta I_x(a, b). */
static double ibeta_i(double a, double b, double x)
{
    if (!(a > 0.0) || !(b > 0.0) || !(x >= 0.0 && x <= 1.0)) return NAN;
    if (x == 0.0 || x == 1.0) return x;
    double bt = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x));
    if (x < (a + 1.0) / (a + b + 2.0)) return bt * betacf(a, b, x) / a;
    return 1.0 - bt * betacf(b, a, 1.0 - x) / b;
}

/* Principal branch of Lambert's W by Halley's iteration. */
static double lambert_w(double x)
{
    if (x < -1.0 / exp(1.0)) return NAN;
    if (x == 0.0) return 0.0;
    double w = x < 1.0 ? (x > -0.3 ? x * (1.0 - x) : -1.0 + sqrt(2.0 * (1.0 + exp(1.0) * x)))
                       : log(x) - log(log(x) + 1.0);
    for (int i = 0; i < 100; i++) {
        double e = exp(w), f = w * e - x;
        double dw = f / (e * (w + 1.0) - (w + 2.0) * f / (2.0 * w + 2.0));
        w -= dw;
        if (fabs(dw) <= 1e-16 * (1.0 + fabs(w))) break;
    }
    return w;
}

/* Complete elliptic integrals of modulus k by the arithmetic-geometric mean. */
static double ellip(double k, bool second)
{
    if (!(fabs(k) < 1.0)) return NAN;
    double a = 1.0, g = sqrt(1.0 - k * k), c = fabs(k), sum = 0.5 * c * c, pw = 0.5;
    for (int i = 0; i < 60 && fabs(c) > 1e-17; i++) {
        double an = 0.5 * (a + g);
        c = 0.5 * (a - g);
        g = sqrt(a * g);
        a = an;
        pw *= 2.0;
        sum += pw * c * c;
    }
    double K = PV_PI / (2.0 * a);
    return second ? K * (1.0 - sum) : K;
}

int pv_builtin_lookup(const char *name)
{
    for (int i = 0; i < B_COUNT; i++)
        if (strcmp(table[i].name, name) == 0) return i;
    return -1;
}

const pv_builtin_desc *pv_builtin_desc_get(int id) { return &table[id]; }

/* Normal quantile: Wichura's algorithm AS241 (PPND16, Appl. Statist. 37, 1988), accurate
 * to about 1e-16; published coefficients. */
static double poly8(const double *c, double x)
{
    double v = 0.0;
    for (int k = 7; k >= 0; k--) v = v * x + c[k];
    return v;
}

static double ppnd16(double p)
{
    static const double a[8] = {3.3871328727963666080, 1.3314166789178437745E+2,
        1.9715909503065514427E+3, 1.3731693765509461125E+4, 4.5921953931549871457E+4,
        6.7265770927008700853E+4, 3.3430575583588128105E+4, 2.5090809287301226727E+3};
    static const double b[8] = {1.0, 4.2313330701600911252E+1, 6.8718700749205790830E+2,
        5.3941960214247511077E+3, 2.1213794301586595867E+4, 3.9307895800092710610E+4,
        2.8729085735721942674E+4, 5.2264952788528545610E+3};
    static const double c[8] = {1.42343711074968357734, 4.63033784615654529590,
        5.76949722146069140550, 3.64784832476320460504, 1.27045825245236838258,
        2.41780725177450611770E-1, 2.27238449892691845833E-2, 7.74545014278341407640E-4};
    static const double d[8] = {1.0, 2.05319162663775882187, 1.67638483018380384940,
        6.89767334985100004550E-1, 1.48103976427480074590E-1, 1.51986665636164571966E-2,
        5.47593808499534494600E-4, 1.05075007164441684324E-9};
    static const double e[8] = {6.65790464350110377720, 5.46378491116411436990,
        1.78482653991729133580, 2.96560571828504891230E-1, 2.65321895265761230930E-2,
        1.24266094738807843860E-3, 2.71155556874348757815E-5, 2.01033439929228813265E-7};
    static const double f[8] = {1.0, 5.99832206555887937690E-1, 1.36929880922735805310E-1,
        1.48753612908506148525E-2, 7.86869131145613259100E-4, 1.84631831751005468180E-5,
        1.42151175831644588870E-7, 2.04426310338993978564E-15};
    double q = p - 0.5;
    if (fabs(q) <= 0.425) {
        double r = 0.180625 - q * q;
        return q * poly8(a, r) / poly8(b, r);
    }
    double r = sqrt(-log(q < 0.0 ? p : 1.0 - p)), v;
    if (r <= 5.0) {
        r -= 1.6;
        v = poly8(c, r) / poly8(d, r);
    } else {
        r -= 5.0;
        v = poly8(e, r) / poly8(f, r);
    }
    return q < 0.0 ? -v : v;
}

/* Inverse error function: the normal quantile, refined by one Newton step on erf (erfc
 * in the tails, where erf has no precision left). */
static double inverf(double x)
{
    double y = ppnd16((x + 1.0) * 0.5) * sqrt(0.5);
    double g = 2.0 / sqrt(PV_PI) * exp(-y * y);
    if (fabs(x) <= 0.5) y -= (erf(y) - x) / g;
    else if (x > 0.0) y += (erfc(y) - (1.0 - x)) / g;
    else y -= (erfc(-y) - (1.0 + x)) / g;
    return y;
}

/* Angle conversions for `set angles degrees`. */
#define DEG2RAD (PV_PI / 180.0)
#define RAD2DEG (180.0 / PV_PI)

static bool takes_angle(int id) { return id == B_SIN || id == B_COS || id == B_TAN; }
static bool gives_angle(int id) { return id == B_ASIN || id == B_ACOS || id == B_ATAN; }

bool pv_builtin_real1(int id, double x, bool degrees, double *out)
{
    double r;
    if (degrees && takes_angle(id)) x *= DEG2RAD;
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
    case B_INVERF: if (fabs(x) >= 1.0) return false; r = inverf(x); break;
    case B_NORM: r = 0.5 * erfc(-x * sqrt(0.5)); break;
    case B_INVNORM:
        if (x <= 0.0 || x >= 1.0) return false;
        r = ppnd16(x);
        break;
    default: return false;
    }
    if (errno == EDOM || errno == ERANGE) return false;
    if (isinf(r) && isfinite(x)) return false;
    if (degrees && gives_angle(id)) r *= RAD2DEG;
    *out = r;
    return true;
}

/* Complex forms (and real-argument cases the real form declined). */
static void complex1(int id, double re, double im, bool degrees, pv_value *out, pv_opres *r)
{
    if (degrees && takes_angle(id)) {
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
    if (degrees && gives_angle(id)) {
        out->re *= RAD2DEG;
        out->im *= RAD2DEG;
    }
}

static bool num_arg(pv_value *a, pv_opres *r)
{
    if (a->type == PV_V_STR) {
        pv_value n;
        const char *err;
        if (!pv_str_to_num(a->s, &n, &err)) {
            r->err = err;
            return false;
        }
        pv_value_free(a);
        *a = n;
    }
    if (a->type == PV_V_UNDEF) {
        r->undef = true;
        return false;
    }
    return true;
}

static bool str_arg(const pv_value *a, pv_opres *r)
{
    if (a->type != PV_V_STR) {
        r->err = "internal error : STRING operator applied to undefined or non-STRING variable";
        return false;
    }
    return true;
}

static int64_t to_i(const pv_value *v) { return v->type == PV_V_INT ? v->i : (int64_t)v->re; }

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

static void str_word(const char *s, int64_t n, pv_value *out, int64_t *count)
{
    int64_t k = 0;
    const char *p = s;
    for (;;) {
        while (isspace((unsigned char)*p)) p++;
        if (!*p) break;
        const char *st = p;
        while (*p && !isspace((unsigned char)*p)) p++;
        if (++k == n && out) {
            *out = (pv_value){PV_V_STR, 0, 0.0, 0.0, pvl_strndup(st, (size_t)(p - st))};
            return;
        }
    }
    if (count) *count = k;
    if (out) *out = pv_str("");
}

static void column_fn(pv_vm *vm, int id, pv_value *a, pv_value *out, pv_opres *r)
{
    const pv_row *row = vm->env->row;
    if (!row) {
        if (id == B_VALID) *out = pv_int(0); /* gnuplot 5.4: 0 outside a data context */
        else r->err = "column() called from invalid context";
        return;
    }
    if (a->type == PV_V_STR) {
        r->err = "column(\"name\") is not supported";
        return;
    }
    int64_t n = to_i(a);
    if (id == B_VALID) {
        *out = pv_int(n >= 1 && n <= row->ncols && (!row->valid || row->valid[n - 1]));
        return;
    }
    if (id == B_COLUMN) {
        if (n == 0) *out = pv_real((double)row->line);
        else if (n == -1) *out = pv_real((double)row->block);
        else if (n == -2) *out = pv_real((double)row->index);
        else if (n < 1 || n > row->ncols || (row->valid && !row->valid[n - 1])) r->undef = true;
        else *out = pv_real(row->val[n - 1]);
        return;
    }
    if (n < 1 || n > row->ncols || !row->str || !row->str[n - 1]) {
        r->undef = true;
        return;
    }
    *out = pv_str(row->str[n - 1]);
}

void pv_builtin_call(pv_vm *vm, int id, pv_value *args, int nargs, pv_value *out,
                     pv_opres *r)
{
    pv_value *a = &args[0];
    if (id <= B_LAST_REAL1) {
        if (!num_arg(a, r)) return;
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
        return;
    }
    switch (id) {
    case B_ABS:
        if (!num_arg(a, r)) return;
        if (a->type == PV_V_INT) *out = pv_int(a->i < 0 ? (int64_t)(0u - (uint64_t)a->i) : a->i);
        else *out = pv_real(a->im == 0.0 ? fabs(a->re) : hypot(a->re, a->im));
        return;
    case B_SGN:
        if (!num_arg(a, r)) return;
        if (a->type == PV_V_INT) *out = pv_int((a->i > 0) - (a->i < 0));
        else *out = pv_int((a->re > 0.0) - (a->re < 0.0));
        return;
    case B_INT: case B_FLOOR: case B_CEIL:
        if (!num_arg(a, r)) return;
        round_like(id, a, out, r);
        return;
    case B_REAL: case B_IMAG: case B_ARG:
        if (!num_arg(a, r)) return;
        if (id == B_REAL) *out = pv_real(pv_value_real(a));
        else if (id == B_IMAG) *out = pv_real(a->type == PV_V_INT ? 0.0 : a->im);
        else if (a->type == PV_V_INT || a->im == 0.0) /* gnuplot's angle(): 0 or pi */
            *out = pv_real(pv_value_real(a) >= 0.0 ? 0.0 : PV_PI);
        else *out = pv_real(atan2(a->im, a->re));
        if (id == B_ARG && pv_vm_degrees(vm)) out->re *= RAD2DEG;
        return;
    case B_ATAN2:
        if (!num_arg(a, r) || !num_arg(&args[1], r)) return;
        *out = pv_real(atan2(pv_value_real(a), pv_value_real(&args[1])));
        if (pv_vm_degrees(vm)) out->re *= RAD2DEG;
        return;
    case B_RAND: {
        double v;
        const char *err = NULL;
        if (!num_arg(a, r)) return;
        if (pv_rand(vm->env, a, &v, &err) != PV_OK) {
            r->err = err;
            return;
        }
        *out = pv_real(v);
        return;
    }
    case B_SPRINTF: {
        if (nargs < 1 || !str_arg(a, r)) {
            if (nargs < 1) r->err = "sprintf requires a format string";
            return;
        }
        char *s = pv_sprintf_msg(a->s, args + 1, nargs - 1, &r->err);
        if (!s) return;
        *out = (pv_value){PV_V_STR, 0, 0.0, 0.0, s};
        return;
    }
    case B_GPRINTF: {
        if (!str_arg(a, r) || !num_arg(&args[1], r)) return;
        char *s = pv_gprintf_msg(a->s, pv_value_real(&args[1]), &r->err);
        if (!s) return;
        *out = (pv_value){PV_V_STR, 0, 0.0, 0.0, s};
        return;
    }
    case B_STRLEN:
        if (a->type != PV_V_STR) {
            r->err = "internal error : strlen of non-STRING argument";
            return;
        }
        *out = pv_int((int64_t)strlen(a->s));
        return;
    case B_SUBSTR: {
        if (!str_arg(a, r) || !num_arg(&args[1], r) || !num_arg(&args[2], r)) return;
        int64_t len = (int64_t)strlen(a->s), i = to_i(&args[1]), j = to_i(&args[2]);
        if (i < 1) i = 1;
        if (j > len) j = len;
        *out = i > j ? pv_str("") : (pv_value){PV_V_STR, 0, 0.0, 0.0, pvl_strndup(a->s + i - 1, (size_t)(j - i + 1))};
        return;
    }
    case B_STRSTRT: {
        if (!str_arg(a, r) || !str_arg(&args[1], r)) return;
        const char *p = strstr(a->s, args[1].s);
        *out = pv_int(p ? (int64_t)(p - a->s) + 1 : 0);
        return;
    }
    case B_WORD:
        if (!str_arg(a, r) || !num_arg(&args[1], r)) return;
        str_word(a->s, to_i(&args[1]), out, NULL);
        return;
    case B_WORDS: {
        if (!str_arg(a, r)) return;
        int64_t n = 0;
        str_word(a->s, INT64_MAX, NULL, &n);
        *out = pv_int(n);
        return;
    }
    case B_EXISTS:
        *out = pv_int(a->type == PV_V_STR && (pv_env_get(vm->env, a->s) != NULL ||
                                              pv_env_get_array(vm->env, a->s, NULL) != NULL));
        return;
    case B_VALUE: {
        if (!str_arg(a, r)) return;
        const pv_value *v = pv_env_get(vm->env, a->s);
        *out = v ? pv_value_copy(v) : pv_real(NAN); /* gnuplot: NaN for an unknown name */
        return;
    }
    case B_IGAMMA: case B_IBETA: case B_LAMBERTW: case B_ELLK: case B_ELLE: {
        for (int k = 0; k < nargs; k++)
            if (!num_arg(&args[k], r)) return;
        double x = pv_value_real(a), y;
        if (id == B_IGAMMA) y = igamma_p(x, pv_value_real(&args[1]));
        else if (id == B_IBETA) y = ibeta_i(x, pv_value_real(&args[1]), pv_value_real(&args[2]));
        else if (id == B_LAMBERTW) y = lambert_w(x);
        else y = ellip(x, id == B_ELLE);
        if (isnan(y)) r->undef = true;
        else *out = pv_real(y);
        return;
    }
    case B_COLUMN: case B_STRINGCOLUMN: case B_STRCOL: case B_VALID:
        if (a->type != PV_V_STR && !num_arg(a, r)) return;
        column_fn(vm, id == B_STRCOL ? B_STRINGCOLUMN : id, a, out, r);
        return;
    default:
        r->err = "internal error: bad builtin";
    }
}
