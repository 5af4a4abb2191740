/*
 * Text of values: `print` formatting, gprintf() and sprintf() as gnuplot 5.4 does them.
 *
 * print: integers in decimal; reals with "%.15g" and ".0" appended when the text has
 * neither '.' nor 'e' ("2.0", "inf.0"), NaN as "NaN"; complex as "{re, im}" unless the
 * imaginary part is 0. sprintf: each conversion consumes one argument; when arguments run
 * out the rest of the format is copied unchanged; %d/%x/%o/%c take numbers (reals
 * truncated), %s takes strings only.
 */
#include "lang_int.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static void fmt_real(char *buf, size_t n, double d)
{
    if (isnan(d)) {
        snprintf(buf, n, "NaN");
        return;
    }
    snprintf(buf, n, "%.15g", d);
    if (!strchr(buf, '.') && !strchr(buf, 'e')) strncat(buf, ".0", n - strlen(buf) - 1);
}

char *pv_value_format(const pv_value *v)
{
    char buf[128], a[56], b[56];
    switch (v->type) {
    case PV_V_INT:
        snprintf(buf, sizeof buf, "%lld", (long long)v->i);
        return pvl_strdup(buf);
    case PV_V_CMPLX:
        if (v->im == 0.0) {
            fmt_real(buf, sizeof buf, v->re);
        } else {
            fmt_real(a, sizeof a, v->re);
            fmt_real(b, sizeof b, v->im);
            snprintf(buf, sizeof buf, "{%s, %s}", a, b);
        }
        return pvl_strdup(buf);
    case PV_V_STR:
        return pvl_strdup(v->s);
    default:
        return pvl_strdup("<undefined>");
    }
}

/* Growable output buffer. */
typedef struct sbuf {
    char *p;
    size_t n, cap;
    bool oom;
} sbuf;

static void sb_add(sbuf *b, const char *s, size_t len)
{
    if (b->oom) return;
    if (b->n + len + 1 > b->cap) {
        size_t nc = (b->cap ? b->cap * 2 : 64);
        while (nc < b->n + len + 1) nc *= 2;
        char *np = realloc(b->p, nc);
        if (!np) {
            b->oom = true;
            return;
        }
        b->p = np;
        b->cap = nc;
    }
    memcpy(b->p + b->n, s, len);
    b->n += len;
    b->p[b->n] = '\0';
}

/* Parse one conversion spec starting at '%': copies it into spec (NUL-terminated) and
 * returns its length, or 0 if too long. *conv receives the conversion character. */
static size_t take_spec(const char *f, char *spec, size_t cap, char *conv)
{
    size_t k = 1;
    while (f[k] && strchr("-+ #0", f[k])) k++;
    while (f[k] >= '0' && f[k] <= '9') k++;
    if (f[k] == '.') {
        k++;
        while (f[k] >= '0' && f[k] <= '9') k++;
    }
    while (f[k] == 'l') k++; /* not 'h': gprintf has a %h conversion */
    *conv = f[k];
    if (!f[k]) return 0;
    k++;
    if (k + 4 >= cap) return 0;
    /* drop length modifiers: we add our own */
    size_t o = 0;
    for (size_t i = 0; i < k - 1; i++)
        if (f[i] != 'l') spec[o++] = f[i];
    spec[o] = '\0';
    return k;
}

/* pvl_trunc_i64 for an int: out of range or NaN gives INT_MIN, as on x86-64 */
static int trunc_int(double x)
{
    return x > -2147483649.0 && x < 2147483648.0 ? (int)x : INT_MIN;
}

static void add_fmt(sbuf *b, const char *spec, char conv, const char *lenmod, ...)
{
    char f[80];
    snprintf(f, sizeof f, "%s%s%c", spec, lenmod, conv);
    va_list ap;
    va_start(ap, lenmod);
    char *s = pv_vasprintf(f, ap);
    va_end(ap);
    if (!s) {
        b->oom = true;
        return;
    }
    sb_add(b, s, strlen(s));
    free(s);
}

static char *do_sprintf(const char *fmt, const pv_value *args, int nargs, const char **err)
{
    sbuf b = {NULL, 0, 0, false};
    sb_add(&b, "", 0);
    int ai = 0;
    const char *f = fmt;
    while (*f) {
        if (*f != '%') {
            const char *q = strchr(f, '%');
            size_t l = q ? (size_t)(q - f) : strlen(f);
            sb_add(&b, f, l);
            f += l;
            continue;
        }
        if (f[1] == '%') {
            sb_add(&b, "%", 1);
            f += 2;
            continue;
        }
        if (ai >= nargs) { /* out of arguments: the rest is copied as is */
            sb_add(&b, f, strlen(f));
            break;
        }
        char spec[64], conv;
        size_t k = take_spec(f, spec, sizeof spec, &conv);
        if (!k) {
            free(b.p);
            *err = "bad format in sprintf";
            return NULL;
        }
        const pv_value *a = &args[ai++];
        f += k;
        switch (conv) {
        case 'd': case 'i': case 'x': case 'X': case 'o': case 'u': case 'c': {
            if (a->type == PV_V_STR) goto numeric_err;
            /* reals truncate; out of range or NaN gives INT64_MIN (x86, as gnuplot shows);
             * values that fit an int are printed as int (so %x of -1 is ffffffff) */
            long long v = a->type == PV_V_INT ? (long long)a->i : pvl_trunc_i64(a->re);
            if (conv == 'c' || (v >= INT32_MIN && v <= INT32_MAX)) add_fmt(&b, spec, conv, "", (int)v);
            else add_fmt(&b, spec, conv, "ll", v);
            break;
        }
        case 'e': case 'E': case 'f': case 'F': case 'g': case 'G': case 'a': case 'A':
            if (a->type == PV_V_STR) goto numeric_err;
            add_fmt(&b, spec, conv, "", pv_value_real(a));
            break;
        case 's':
            if (a->type != PV_V_STR) {
                free(b.p);
                *err = "f_sprintf: attempt to print numeric value with string format";
                return NULL;
            }
            add_fmt(&b, spec, conv, "", a->s);
            break;
        default:
            free(b.p);
            *err = "bad format character";
            return NULL;
        }
    }
    if (b.oom) {
        free(b.p);
        *err = "out of memory";
        return NULL;
    }
    return b.p;
numeric_err:
    free(b.p);
    *err = "f_sprintf: attempt to print string value with numeric format";
    return NULL;
}

/* Power (in units of `step` digits of `base`) and mantissa for gprintf's %s %c %b %B. */
static int power_of(double x, double base, int step)
{
    if (x == 0.0 || !isfinite(x)) return 0;
    double l = log(fabs(x)) / log(base);
    return (int)floor(l / step);
}

static double mantissa(double x, double base, int step)
{
    if (x == 0.0 || !isfinite(x)) return x;
    double l = log(fabs(x)) / log(base);
    double m = pow(base, l - step * floor(l / step));
    return x < 0.0 ? -m : m;
}

static char *do_gprintf(const char *fmt, double x, const char **err)
{
    sbuf b = {NULL, 0, 0, false};
    sb_add(&b, "", 0);
    const char *f = fmt;
    while (*f) {
        if (*f != '%') {
            const char *q = strchr(f, '%');
            size_t l = q ? (size_t)(q - f) : strlen(f);
            sb_add(&b, f, l);
            f += l;
            continue;
        }
        if (f[1] == '%') {
            sb_add(&b, "%", 1);
            f += 2;
            continue;
        }
        char spec[64], conv;
        size_t k = take_spec(f, spec, sizeof spec, &conv);
        if (!k) goto bad;
        f += k;
        switch (conv) {
        case 'e': case 'E': case 'f': case 'F': case 'g': case 'G':
            add_fmt(&b, spec, conv, "", x);
            break;
        case 'x': case 'X': case 'o': case 'O':
            add_fmt(&b, spec, conv == 'O' ? 'o' : conv, "ll", (long long)pvl_trunc_i64(x));
            break;
        case 't': { /* mantissa of the power-of-ten form */
            double m = 0.0;
            if (x != 0.0) {
                double l = log10(fabs(x));
                m = pow(10.0, l - floor(l));
                if (x < 0.0) m = -m;
            }
            add_fmt(&b, spec, 'f', "", m);
            break;
        }
        case 'T': {
            int p = x != 0.0 ? trunc_int(floor(log10(fabs(x)))) : 0;
            add_fmt(&b, spec, 'd', "", p);
            break;
        }
        case 'P': /* multiple of pi */
            add_fmt(&b, spec, 'f', "", x / PV_PI);
            break;
        case 'h': /* %g; the x10^{} form is for enhanced text only */
            add_fmt(&b, spec, 'g', "", x);
            break;
        case 's': /* engineering mantissa (power a multiple of 3) */
            add_fmt(&b, spec, 'f', "", mantissa(x, 10.0, 3));
            break;
        case 'b': /* mantissa to base 1024: a division, so 3000 gives 2.9296875 exactly */
            add_fmt(&b, spec, 'f', "", x / pow(1024.0, power_of(x, 2.0, 10)));
            break;
        case 'c': case 'B': {
            static const char *const si[] = {"y", "z", "a", "f", "p", "n", "u", "m", "",
                                             "k", "M", "G", "T", "P", "E", "Z", "Y"};
            static const char *const bin[] = {"", "ki", "Mi", "Gi", "Ti", "Pi", "Ei", "Zi", "Yi"};
            int p = conv == 'c' ? power_of(x, 10.0, 3) : power_of(x, 2.0, 10);
            const char *pre = "";
            if (conv == 'c' && p >= -8 && p <= 8) pre = si[p + 8];
            else if (conv == 'B' && p >= 0 && p <= 8) pre = bin[p];
            add_fmt(&b, spec, 's', "", pre);
            break;
        }
        default:
            goto bad;
        }
    }
    if (b.oom) {
        free(b.p);
        *err = "out of memory";
        return NULL;
    }
    return b.p;
bad:
    free(b.p);
    *err = "bad format character";
    return NULL;
}

char *pv_sprintf_msg(const char *fmt, const pv_value *args, int nargs, const char **err)
{
    return do_sprintf(fmt, args, nargs, err);
}

char *pv_gprintf_msg(const char *fmt, double x, const char **err)
{
    return do_gprintf(fmt, x, err);
}

char *pv_sprintf(pv_ctx *ctx, const char *fmt, const pv_value *args, int nargs)
{
    const char *err = NULL;
    char *s = do_sprintf(fmt, args, nargs, &err);
    if (!s) pv_err(ctx, strcmp(err, "out of memory") ? PV_ESCRIPT : PV_ENOMEM, "%s", err);
    return s;
}

char *pv_gprintf(pv_ctx *ctx, const char *fmt, double x)
{
    const char *err = NULL;
    char *s = do_gprintf(fmt, x, &err);
    if (!s) pv_err(ctx, strcmp(err, "out of memory") ? PV_ESCRIPT : PV_ENOMEM, "%s", err);
    return s;
}

char *pv_array_format(const pv_value *elems, size_t n)
{
    sbuf b = {NULL, 0, 0, false};
    sb_add(&b, "[", 1);
    for (size_t i = 0; i < n; i++) {
        if (i) sb_add(&b, ",", 1);
        const pv_value *v = &elems[i];
        if (v->type == PV_V_UNDEF) continue;
        if (v->type == PV_V_STR) {
            /* gnuplot 5.4.4 escapes like a double-quoted string: \\ \" \n \t \001 */
            sb_add(&b, "\"", 1);
            for (const unsigned char *q = (const unsigned char *)v->s; *q; q++) {
                char e[8];
                int k = 0;
                if (*q == '\\' || *q == '"') e[k++] = '\\', e[k++] = (char)*q;
                else if (*q == '\n') e[k++] = '\\', e[k++] = 'n';
                else if (*q == '\t') e[k++] = '\\', e[k++] = 't';
                else if (*q == '\r') e[k++] = '\\', e[k++] = 'r';
                else if (*q < 0x20) k = snprintf(e, sizeof e, "\\%03o", *q);
                else e[k++] = (char)*q;
                sb_add(&b, e, (size_t)k);
            }
            sb_add(&b, "\"", 1);
            continue;
        }
        char *s = pv_value_format(v);
        if (!s) {
            b.oom = true;
            break;
        }
        sb_add(&b, s, strlen(s));
        free(s);
    }
    sb_add(&b, "]", 1);
    if (b.oom) {
        free(b.p);
        return NULL;
    }
    return b.p;
}
