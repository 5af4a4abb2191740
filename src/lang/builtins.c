/*
 * Internal builtin functions (gnuplot 5.4 names and argument rules): the descriptor table
 * (name, arity, flags, the function that evaluates it), lookup and dispatch, and the
 * builtins that read the environment or the data row (rand, exists, value, column and its
 * kin), hsv2rgb and the tm_* time fields. Math builtins are in builtins_math.c, string
 * builtins in builtins_string.c.
 */
#include "builtins_int.h"

#include <math.h>
#include <string.h>

static void bi_rand(PV_BI_ARGS);
static void bi_exists(PV_BI_ARGS);
static void bi_value(PV_BI_ARGS);
static void bi_column(PV_BI_ARGS);
static void bi_hsv2rgb(PV_BI_ARGS);
static void bi_tm(PV_BI_ARGS);

static const pv_builtin_desc table[B_COUNT] = {
    [B_SQRT] = {"sqrt", 1, BF_PURE | BF_REAL1, pv_bi_real1},
    [B_EXP] = {"exp", 1, BF_PURE | BF_REAL1, pv_bi_real1},
    [B_LOG] = {"log", 1, BF_PURE | BF_REAL1, pv_bi_real1},
    [B_LOG10] = {"log10", 1, BF_PURE | BF_REAL1, pv_bi_real1},
    [B_SIN] = {"sin", 1, BF_PURE | BF_REAL1, pv_bi_real1},
    [B_COS] = {"cos", 1, BF_PURE | BF_REAL1, pv_bi_real1},
    [B_TAN] = {"tan", 1, BF_PURE | BF_REAL1, pv_bi_real1},
    [B_ASIN] = {"asin", 1, BF_PURE | BF_REAL1, pv_bi_real1},
    [B_ACOS] = {"acos", 1, BF_PURE | BF_REAL1, pv_bi_real1},
    [B_ATAN] = {"atan", 1, BF_PURE | BF_REAL1, pv_bi_real1},
    [B_SINH] = {"sinh", 1, BF_PURE | BF_REAL1, pv_bi_real1},
    [B_COSH] = {"cosh", 1, BF_PURE | BF_REAL1, pv_bi_real1},
    [B_TANH] = {"tanh", 1, BF_PURE | BF_REAL1, pv_bi_real1},
    [B_ASINH] = {"asinh", 1, BF_PURE | BF_REAL1, pv_bi_real1},
    [B_ACOSH] = {"acosh", 1, BF_PURE | BF_REAL1, pv_bi_real1},
    [B_ATANH] = {"atanh", 1, BF_PURE | BF_REAL1, pv_bi_real1},
    [B_BESJ0] = {"besj0", 1, BF_PURE | BF_REAL1, pv_bi_real1},
    [B_BESJ1] = {"besj1", 1, BF_PURE | BF_REAL1, pv_bi_real1},
    [B_BESY0] = {"besy0", 1, BF_PURE | BF_REAL1, pv_bi_real1},
    [B_BESY1] = {"besy1", 1, BF_PURE | BF_REAL1, pv_bi_real1},
    [B_ERF] = {"erf", 1, BF_PURE | BF_REAL1, pv_bi_real1},
    [B_ERFC] = {"erfc", 1, BF_PURE | BF_REAL1, pv_bi_real1},
    [B_GAMMA] = {"gamma", 1, BF_PURE | BF_REAL1, pv_bi_real1},
    [B_LGAMMA] = {"lgamma", 1, BF_PURE | BF_REAL1, pv_bi_real1},
    [B_INVERF] = {"inverf", 1, BF_PURE | BF_REAL1, pv_bi_real1},
    [B_NORM] = {"norm", 1, BF_PURE | BF_REAL1, pv_bi_real1},
    [B_INVNORM] = {"invnorm", 1, BF_PURE | BF_REAL1, pv_bi_real1},
    [B_ABS] = {"abs", 1, BF_PURE, pv_bi_abs},
    [B_SGN] = {"sgn", 1, BF_PURE, pv_bi_sgn},
    [B_INT] = {"int", 1, BF_PURE, pv_bi_round},
    [B_FLOOR] = {"floor", 1, BF_PURE, pv_bi_round},
    [B_CEIL] = {"ceil", 1, BF_PURE, pv_bi_round},
    [B_REAL] = {"real", 1, BF_PURE, pv_bi_parts},
    [B_IMAG] = {"imag", 1, BF_PURE, pv_bi_parts},
    [B_ARG] = {"arg", 1, BF_PURE, pv_bi_parts},
    [B_ATAN2] = {"atan2", 2, BF_PURE, pv_bi_atan2},
    [B_RAND] = {"rand", 1, 0, bi_rand},
    [B_SPRINTF] = {"sprintf", -1, BF_PURE, pv_bi_sprintf},
    [B_GPRINTF] = {"gprintf", 2, BF_PURE, pv_bi_gprintf},
    [B_STRLEN] = {"strlen", 1, BF_PURE, pv_bi_strlen},
    [B_SUBSTR] = {"substr", 3, BF_PURE, pv_bi_substr},
    [B_STRSTRT] = {"strstrt", 2, BF_PURE, pv_bi_strstrt},
    [B_WORD] = {"word", 2, BF_PURE, pv_bi_word},
    [B_WORDS] = {"words", 1, BF_PURE, pv_bi_words},
    [B_EXISTS] = {"exists", 1, BF_ENV, bi_exists},
    [B_VALUE] = {"value", 1, BF_ENV, bi_value},
    [B_COLUMN] = {"column", 1, BF_COLUMN, bi_column},
    [B_STRINGCOLUMN] = {"stringcolumn", 1, BF_COLUMN, bi_column},
    [B_STRCOL] = {"strcol", 1, BF_COLUMN, bi_column},
    [B_VALID] = {"valid", 1, BF_COLUMN, bi_column},
    [B_IGAMMA] = {"igamma", 2, BF_PURE, pv_bi_special},
    [B_IBETA] = {"ibeta", 3, BF_PURE, pv_bi_special},
    [B_LAMBERTW] = {"lambertw", 1, BF_PURE, pv_bi_special},
    [B_ELLK] = {"EllipticK", 1, BF_PURE, pv_bi_special},
    [B_ELLE] = {"EllipticE", 1, BF_PURE, pv_bi_special},
    [B_TRIM] = {"trim", 1, BF_PURE, pv_bi_trim},
    [B_HSV2RGB] = {"hsv2rgb", 3, BF_PURE, bi_hsv2rgb},
    [B_BESI0] = {"besi0", 1, BF_PURE, pv_bi_bessel},
    [B_BESI1] = {"besi1", 1, BF_PURE, pv_bi_bessel},
    [B_BESJN] = {"besjn", 2, BF_PURE, pv_bi_bessel},
    [B_BESYN] = {"besyn", 2, BF_PURE, pv_bi_bessel},
    [B_EXPINT] = {"expint", 2, BF_PURE, pv_bi_bessel},
    [B_VOIGT] = {"voigt", 2, BF_PURE, pv_bi_special2},
    [B_ELLPI] = {"EllipticPi", 2, BF_PURE, pv_bi_special2},
    [B_TMSEC] = {"tm_sec", 1, BF_PURE, bi_tm},
    [B_TMMIN] = {"tm_min", 1, BF_PURE, bi_tm},
    [B_TMHOUR] = {"tm_hour", 1, BF_PURE, bi_tm},
    [B_TMMDAY] = {"tm_mday", 1, BF_PURE, bi_tm},
    [B_TMMON] = {"tm_mon", 1, BF_PURE, bi_tm},
    [B_TMYEAR] = {"tm_year", 1, BF_PURE, bi_tm},
    [B_TMWDAY] = {"tm_wday", 1, BF_PURE, bi_tm},
    [B_TMYDAY] = {"tm_yday", 1, BF_PURE, bi_tm},
    [B_EXIST] = {"exist", 1, BF_ENV, bi_exists}, /* deprecated spelling gnuplot 5.4 keeps */
    [B_STRFTIME] = {"strftime", 2, BF_PURE, pv_bi_strftime},
    [B_STRPTIME] = {"strptime", 2, BF_PURE, pv_bi_strptime},
    [B_WEEKDATE_ISO] = {"weekdate_iso", 3, BF_PURE, pv_bi_weekdate},
    [B_WEEKDATE_CDC] = {"weekdate_cdc", 3, BF_PURE, pv_bi_weekdate},
    [B_AIRY] = {"airy", 1, BF_PURE, pv_bi_airy},
    [B_BESIN] = {"besin", 2, BF_PURE, pv_bi_bessel},
};

int pv_builtin_lookup(const char *name)
{
    for (int i = 0; i < B_COUNT; i++)
        if (strcmp(table[i].name, name) == 0) return i;
    return -1;
}

const pv_builtin_desc *pv_builtin_desc_get(int id) { return &table[id]; }

void pv_builtin_call(pv_vm *vm, int id, pv_value *args, int nargs, pv_value *out,
                     pv_opres *r)
{
    if (id < 0 || id >= B_COUNT) {
        r->err = "internal error: bad builtin";
        return;
    }
    table[id].call(vm, id, args, nargs, out, r);
}

static void bi_rand(PV_BI_ARGS)
{
    PV_BI_UNUSED();
    pv_value *a = &args[0];
    double v;
    const char *err = NULL;
    if (!pv_barg_num(a, r)) return;
    if (pv_rand(vm->env, a, &v, &err) != PV_OK) {
        r->err = err;
        return;
    }
    *out = pv_real(v);
}

static void bi_exists(PV_BI_ARGS)
{
    PV_BI_UNUSED();
    pv_value *a = &args[0];
    *out = pv_int(a->type == PV_V_STR && (pv_env_get(vm->env, a->s) != NULL ||
                                          pv_env_get_array(vm->env, a->s, NULL) != NULL ||
                                          pv_env_get_datablock(vm->env, a->s, NULL) != NULL ||
                                          (vm->env->exists_hook &&
                                           vm->env->exists_hook(vm->env->exists_ud, a->s))));
}

static void bi_value(PV_BI_ARGS)
{
    PV_BI_UNUSED();
    pv_value *a = &args[0];
    if (!pv_barg_str(a, r)) return;
    const pv_value *v = pv_env_get(vm->env, a->s);
    *out = v ? pv_value_copy(v) : pv_real(NAN); /* gnuplot: NaN for an unknown name */
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
    int64_t n = pv_barg_int(a);
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

static void bi_column(PV_BI_ARGS)
{
    PV_BI_UNUSED();
    pv_value *a = &args[0];
    if (a->type != PV_V_STR && !pv_barg_num(a, r)) return;
    column_fn(vm, id == B_STRCOL ? B_STRINGCOLUMN : id, a, out, r);
}

/* gnuplot clamps each argument of hsv2rgb to [0, 1]; a NaN passes (comparisons fail) */
static double clamp01(double x)
{
    return x < 0.0 ? 0.0 : x > 1.0 ? 1.0 : x;
}

/* A colour channel in [0, 1] (or NaN) as 0..255: gnuplot's cast gives 0 for NaN on x86. */
static int64_t channel(double c)
{
    return c >= 0.0 ? (int64_t)(c * 255.0) : 0;
}

static void bi_hsv2rgb(PV_BI_ARGS)
{
    PV_BI_UNUSED();
    pv_value *a = &args[0];
    for (int k = 0; k < 3; k++)
        if (!pv_barg_num(&args[k], r)) return;
    double h = clamp01(pv_value_real(a)), sa = clamp01(pv_value_real(&args[1])),
           v = clamp01(pv_value_real(&args[2]));
    /* a NaN hue is INT_MIN for gnuplot's cast, which its switch sends to the last sector */
    int i = isnan(h) ? 5 : (int)floor(h * 6.0);
    double f = h * 6.0 - i, p = v * (1 - sa), q = v * (1 - sa * f), t = v * (1 - sa * (1 - f));
    double rgb[6][3] = {{v, t, p}, {q, v, p}, {p, v, t}, {p, q, v}, {t, p, v}, {v, p, q}};
    const double *c = rgb[i % 6];
    *out = pv_int((channel(c[0]) << 16) + (channel(c[1]) << 8) + channel(c[2]));
}

/* Broken-down UTC time of gnuplot's time value t (seconds since 1970-01-01). */
static double tm_field(int id, double t)
{
    /* gnuplot refuses times past 1e12 s ("time value out of range") and returns what its
     * tm held; a day count there would not fit the integer arithmetic below */
    if (!(fabs(t) <= 1e12)) return NAN;
    double days = floor(t / 86400.0), sec = t - days * 86400.0;
    int64_t z = (int64_t)days + 719468; /* civil-from-days (proleptic Gregorian) */
    int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    int64_t doe = z - era * 146097;
    int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    int64_t mp = (5 * doy + 2) / 153;
    int64_t d = doy - (153 * mp + 2) / 5 + 1, m = mp < 10 ? mp + 3 : mp - 9;
    int64_t y = yoe + era * 400 + (m <= 2);
    switch (id) {
    case B_TMSEC: return floor(sec) - 60.0 * floor(sec / 60.0);
    case B_TMMIN: return floor(sec / 60.0) - 60.0 * floor(sec / 3600.0);
    case B_TMHOUR: return floor(sec / 3600.0);
    case B_TMMDAY: return (double)d;
    case B_TMMON: return (double)(m - 1);
    case B_TMYEAR: return (double)y;
    case B_TMWDAY: {
        int64_t w = ((int64_t)days + 4) % 7;
        return (double)(w < 0 ? w + 7 : w);
    }
    default: { /* B_TMYDAY */
        bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
        static const int cum[12] = {0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334};
        return (double)(cum[m - 1] + d - 1 + (leap && m > 2));
    }
    }
}

static void bi_tm(PV_BI_ARGS)
{
    PV_BI_UNUSED();
    pv_value *a = &args[0];
    if (!pv_barg_num(a, r)) return;
    double t = pv_value_real(a);
    if (!isfinite(t)) r->undef = true;
    else *out = pv_real(tm_field(id, t));
}
