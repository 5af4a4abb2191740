/*
 * Values and gnuplot 5.4 arithmetic. One implementation serves the scalar VM and the slow
 * lanes of the vector VM, so both agree bit for bit.
 *
 * Measured rules: int op int stays int unless + - * ** overflow (then the real result);
 * 1/2 = 0, -7/2 = -3, -7%3 = -1; x/0 and x%0 are undefined; % needs integers; bit and
 * boolean operators need integers ("non-integer passed to boolean operator"); << masks
 * the count to 6 bits (x86), >> is a logical shift; real op real avoids the complex
 * formulas when both imaginary parts are 0; a real result that overflows in ** is
 * undefined. Strings convert to numbers in arithmetic (" 3 "+1 = 4, "2.5"+1 = 3.5).
 */
#include "lang_int.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

pv_value pv_str(const char *s)
{
    pv_value v = {PV_V_STR, 0, 0.0, 0.0, pvl_strdup(s ? s : "")};
    if (!v.s) v.type = PV_V_UNDEF;
    return v;
}

void pv_value_free(pv_value *v)
{
    if (!v) return;
    if (v->type == PV_V_STR) free(v->s);
    v->s = NULL;
    v->type = PV_V_UNDEF;
}

pv_value pv_value_copy(const pv_value *v)
{
    pv_value r = *v;
    if (v->type == PV_V_STR) {
        r.s = pvl_strdup(v->s);
        if (!r.s) r.type = PV_V_UNDEF;
    }
    return r;
}

double pv_value_real(const pv_value *v)
{
    switch (v->type) {
    case PV_V_INT: return (double)v->i;
    case PV_V_CMPLX: return v->re;
    default: return NAN;
    }
}

static const char *E_BOOL = "non-integer passed to boolean operator";
static const char *E_STROP = "internal error : STRING operator applied to undefined or non-STRING variable";

bool pv_str_to_num(const char *s, pv_value *out, const char **err)
{
    /* measured: "0x10" is 16, "010" is 8, "2.5" and ".5" are real, "inf"/"nan" are read,
     * "1e3" and "08" have trailing characters, "2 3" is 2 (text after a blank ignored) */
    const char *p = s;
    while (isspace((unsigned char)*p)) p++;
    char *e1, *e2;
    errno = 0;
    long long iv = strtoll(p, &e1, 0);
    bool int_ok = errno == 0;
    const char *end;
    if (e1 != p && *e1 != '.' && int_ok) {
        *out = pv_int(iv);
        end = e1;
    } else {
        double dv = strtod(p, &e2);
        if (e2 == p) {
            *err = "non-numeric string found where a numeric expression was expected";
            return false;
        }
        *out = pv_real(dv);
        end = e2;
    }
    if (*end && !isspace((unsigned char)*end)) {
        *err = "trailing characters after numeric expression";
        return false;
    }
    return true;
}

static inline bool is_zero(const pv_value *v)
{
    return v->type == PV_V_INT ? v->i == 0 : (v->re == 0.0 && v->im == 0.0);
}

static inline void to_c(const pv_value *v, double *re, double *im)
{
    if (v->type == PV_V_INT) {
        *re = (double)v->i;
        *im = 0.0;
    } else {
        *re = v->re;
        *im = v->im;
    }
}

static inline void set_c(pv_value *a, double re, double im)
{
    a->type = PV_V_CMPLX;
    a->re = re;
    a->im = im;
    a->i = 0;
}

void pv_pow_real(double a, double b, bool b_int, double *re, double *im, bool *undef)
{
    *im = 0.0;
    if (a == 0.0) {
        if (b == 0.0) *re = 1.0;
        else if (b > 0.0) *re = 0.0;
        else *undef = true;
        return;
    }
    /* gnuplot 5.4 (f_power): |a|**|b| by pow(), inverted for a negative exponent, so
     * x**-2 is 1/pow(x,2), not pow(x,-2) (they differ in the last bit for ~1/4 of x). A
     * negative base with a real exponent goes through the polar form even when the
     * exponent is integral: (-4)**2.0 is {16.0, -3.9e-15} */
    double mag = pow(b_int ? a : fabs(a), fabs(b));
    if (b < 0.0) {
        if (mag == 0.0) {
            *re = 0.0;
            *undef = true;
            return;
        }
        mag = 1.0 / mag;
    }
    if (a > 0.0 || b_int) {
        *re = mag;
    } else {
        double ang = b * PV_PI;
        *re = mag * cos(ang);
        *im = mag * sin(ang);
    }
    if ((isinf(*re) || isinf(*im)) && isfinite(a) && isfinite(b)) *undef = true;
}

static void cpow_v(pv_value *a, const pv_value *b, pv_opres *r)
{
    double ar, ai, br, bi;
    to_c(a, &ar, &ai);
    to_c(b, &br, &bi);
    if (ai == 0.0 && bi == 0.0) {
        double re, im;
        pv_pow_real(ar, br, b->type == PV_V_INT, &re, &im, &r->undef);
        set_c(a, re, im);
        return;
    }
    if (ar == 0.0 && ai == 0.0) { /* 0 to a complex power */
        r->undef = true;
        return;
    }
    double mod = hypot(ar, ai), arg = atan2(ai, ar);
    double mag = pow(mod, br) / exp(arg * bi);
    double ang = br * arg + bi * log(mod);
    set_c(a, mag * cos(ang), mag * sin(ang));
}

static void ipow(pv_value *a, int64_t b, pv_opres *r)
{
    int64_t x = a->i;
    if (b < 0) { /* always real: 1**-5 is 1.0 */
        if (x == 0) {
            r->undef = true;
            return;
        }
        set_c(a, pow((double)x, (double)b), 0.0);
        return;
    }
    int64_t t = 1;
    for (int64_t k = 0; k < b; k++) {
        /* INT64_MIN counts as overflow too: gnuplot gives (-2)**63 as a real */
        if (__builtin_mul_overflow(t, x, &t) || t == INT64_MIN) {
            double re, im;
            pv_pow_real((double)x, (double)b, true, &re, &im, &r->undef);
            set_c(a, re, im);
            return;
        }
        if (t == 0 || t == 1) break;
        if (t == -1) {
            t = ((b - k - 1) & 1) ? 1 : -1;
            break;
        }
    }
    a->i = t;
}

static int cmp_values(const pv_value *a, const pv_value *b, int op)
{
    if (a->type == PV_V_INT && b->type == PV_V_INT) {
        switch (op) {
        case OP_EQ: return a->i == b->i;
        case OP_NE: return a->i != b->i;
        case OP_LT: return a->i < b->i;
        case OP_LE: return a->i <= b->i;
        case OP_GT: return a->i > b->i;
        default: return a->i >= b->i;
        }
    }
    double ar, ai, br, bi;
    to_c(a, &ar, &ai);
    to_c(b, &br, &bi);
    switch (op) {
    case OP_EQ: return ar == br && ai == bi;
    case OP_NE: return !(ar == br && ai == bi);
    case OP_LT: return ar < br;
    case OP_LE: return ar <= br;
    case OP_GT: return ar > br;
    default: return ar >= br;
    }
}

static void concat(pv_value *a, const pv_value *b, pv_opres *r)
{
    char buf[32];
    const char *bs;
    if (a->type != PV_V_STR) {
        r->err = E_STROP;
        return;
    }
    if (b->type == PV_V_STR) {
        bs = b->s;
    } else if (b->type == PV_V_INT) {
        snprintf(buf, sizeof buf, "%lld", (long long)b->i);
        bs = buf;
    } else {
        r->err = E_STROP;
        return;
    }
    size_t la = strlen(a->s), lb = strlen(bs);
    char *s = realloc(a->s, la + lb + 1);
    if (!s) {
        r->err = "out of memory";
        return;
    }
    memcpy(s + la, bs, lb + 1);
    a->s = s;
}

void pv_arith_binop(int op, pv_value *a, const pv_value *b, pv_opres *r)
{
    if (op == OP_CAT) {
        concat(a, b, r);
        return;
    }
    if (op == OP_SEQ || op == OP_SNE) {
        if (a->type != PV_V_STR || b->type != PV_V_STR) {
            r->err = E_STROP;
            return;
        }
        int eq = strcmp(a->s, b->s) == 0;
        pv_value_free(a);
        *a = pv_int(op == OP_SEQ ? eq : !eq);
        return;
    }
    bool ii = a->type == PV_V_INT && b->type == PV_V_INT;
    int64_t x = a->i, y = b->i, z;
    double ar, ai, br, bi;
    switch (op) {
    case OP_ADD:
        if (ii) {
            if (__builtin_add_overflow(x, y, &z)) set_c(a, (double)x + (double)y, 0.0);
            else a->i = z;
            return;
        }
        to_c(a, &ar, &ai);
        to_c(b, &br, &bi);
        set_c(a, ar + br, ai + bi);
        return;
    case OP_SUB:
        if (ii) {
            if (__builtin_sub_overflow(x, y, &z)) set_c(a, (double)x - (double)y, 0.0);
            else a->i = z;
            return;
        }
        to_c(a, &ar, &ai);
        to_c(b, &br, &bi);
        set_c(a, ar - br, ai - bi);
        return;
    case OP_MUL:
        if (ii) {
            if (__builtin_mul_overflow(x, y, &z)) set_c(a, (double)x * (double)y, 0.0);
            else a->i = z;
            return;
        }
        to_c(a, &ar, &ai);
        to_c(b, &br, &bi);
        if (ai == 0.0 && bi == 0.0) set_c(a, ar * br, 0.0);
        else set_c(a, ar * br - ai * bi, ar * bi + ai * br);
        return;
    case OP_DIV:
        if (is_zero(b)) {
            r->undef = true;
            return;
        }
        if (ii) {
            if (x == INT64_MIN && y == -1) set_c(a, -(double)x, 0.0);
            else a->i = x / y;
            return;
        }
        to_c(a, &ar, &ai);
        to_c(b, &br, &bi);
        if (ai == 0.0 && bi == 0.0) {
            set_c(a, ar / br, 0.0);
        } else {
            double sq = br * br + bi * bi;
            set_c(a, (ar * br + ai * bi) / sq, (ai * br - ar * bi) / sq);
        }
        return;
    case OP_MOD:
        if (!ii) {
            r->err = "non-integer operand for %";
            return;
        }
        if (y == 0) {
            r->undef = true;
            return;
        }
        a->i = (y == -1) ? 0 : x % y;
        return;
    case OP_POW:
        if (ii) ipow(a, y, r);
        else cpow_v(a, b, r);
        return;
    case OP_EQ: case OP_NE: case OP_LT: case OP_LE: case OP_GT: case OP_GE: {
        int c = cmp_values(a, b, op);
        *a = pv_int(c);
        return;
    }
    default:
        break;
    }
    if (!ii) { /* also strings: & | ^ do not convert them */
        r->err = E_BOOL;
        return;
    }
    switch (op) {
    case OP_BAND: a->i = x & y; break;
    case OP_BOR: a->i = x | y; break;
    case OP_XOR: a->i = x ^ y; break;
    case OP_SHL: a->i = (int64_t)((uint64_t)x << (y & 63)); break;
    case OP_SHR: a->i = (int64_t)((uint64_t)x >> (y & 63)); break;
    default: r->err = "internal error: bad operator"; break;
    }
}

static void factorial(pv_value *a, pv_opres *r)
{
    if (a->type != PV_V_INT) {
        r->err = "factorial (!) argument must be an integer";
        return;
    }
    int64_t n = a->i, t = 1;
    int64_t k = 2;
    for (; k <= n; k++)
        if (__builtin_mul_overflow(t, k, &t)) break;
    if (k > n) {
        a->i = t;
        return;
    }
    double d = 1.0;
    /* once the product is infinite it stays so: stop there (n may be 10^18) */
    for (int64_t j = n; j > 1 && !isinf(d); j--) d *= (double)j;
    set_c(a, d, 0.0);
}

void pv_arith_unary(int op, pv_value *a, pv_opres *r)
{
    switch (op) {
    case '-':
        if (a->type == PV_V_INT) a->i = (int64_t)(0u - (uint64_t)a->i);
        else set_c(a, -a->re, -a->im);
        return;
    case '+':
        return;
    case '!':
        if (a->type != PV_V_INT) r->err = E_BOOL;
        else a->i = !a->i;
        return;
    case '~':
        if (a->type != PV_V_INT) r->err = E_BOOL;
        else a->i = ~a->i;
        return;
    case 'F':
        factorial(a, r);
        return;
    default:
        r->err = "internal error: bad operator";
    }
}
