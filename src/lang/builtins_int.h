/*
 * Builtins, private to lang: the ids of the internal builtin functions (indices of the
 * descriptor table in builtins.c), the functions that evaluate each family (math in
 * builtins_math.c, strings in builtins_string.c, the rest in builtins.c), the special
 * functions they use (builtins_special.c) and the argument helpers they share.
 */
#ifndef PV_BUILTINS_INT_H
#define PV_BUILTINS_INT_H

#include "lang_int.h"

#include <math.h>

/* The parameters of a pv_builtin_impl. */
#define PV_BI_ARGS pv_vm *vm, int id, pv_value *args, int nargs, pv_value *out, pv_opres *r
/* For a family function that does not need some of them. */
#define PV_BI_UNUSED() ((void)vm, (void)id, (void)args, (void)nargs, (void)out, (void)r)

enum {
    B_SQRT, B_EXP, B_LOG, B_LOG10, B_SIN, B_COS, B_TAN, B_ASIN, B_ACOS, B_ATAN, B_SINH,
    B_COSH, B_TANH, B_ASINH, B_ACOSH, B_ATANH, B_BESJ0, B_BESJ1, B_BESY0, B_BESY1, B_ERF,
    B_ERFC, B_GAMMA, B_LGAMMA, B_INVERF, B_NORM, B_INVNORM, B_LAST_REAL1 = B_INVNORM,
    B_ABS, B_SGN, B_INT, B_FLOOR, B_CEIL, B_REAL, B_IMAG, B_ARG, B_ATAN2, B_RAND,
    B_SPRINTF, B_GPRINTF, B_STRLEN, B_SUBSTR, B_STRSTRT, B_WORD, B_WORDS, B_EXISTS,
    B_VALUE, B_COLUMN, B_STRINGCOLUMN, B_STRCOL, B_VALID, B_IGAMMA, B_IBETA, B_LAMBERTW,
    B_ELLK, B_ELLE, B_TRIM, B_HSV2RGB, B_BESI0, B_BESI1, B_BESJN, B_BESYN, B_EXPINT, B_VOIGT, B_ELLPI,
    B_TMSEC, B_TMMIN, B_TMHOUR, B_TMMDAY, B_TMMON, B_TMYEAR, B_TMWDAY, B_TMYDAY,
    B_EXIST, B_STRFTIME, B_STRPTIME, B_WEEKDATE_ISO, B_WEEKDATE_CDC, B_AIRY, B_BESIN, B_COUNT
};
/* Angle conversions for `set angles degrees`. */
#define DEG2RAD (PV_PI / 180.0)
#define RAD2DEG (180.0 / PV_PI)

static inline bool pv_takes_angle(int id) { return id == B_SIN || id == B_COS || id == B_TAN; }
static inline bool pv_gives_angle(int id) { return id == B_ASIN || id == B_ACOS || id == B_ATAN; }

/* ---- argument helpers ----------------------------------------------------------------- */

/* A numeric argument (a string converted as gnuplot does); false with r->err or r->undef
 * set when there is none. */
static inline bool pv_barg_num(pv_value *a, pv_opres *r)
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

/* A string argument; false with r->err set otherwise. */
static inline bool pv_barg_str(const pv_value *a, pv_opres *r)
{
    if (a->type != PV_V_STR) {
        r->err = "internal error : STRING operator applied to undefined or non-STRING variable";
        return false;
    }
    return true;
}

static inline int64_t pv_barg_int(const pv_value *v)
{
    return v->type == PV_V_INT ? v->i : pvl_trunc_i64(v->re);
}

/* ---- families ---------------------------------------------------------------------------
 * Each evaluates the builtins of its family (pv_builtin_impl: the id says which one). */

/* builtins_time.c */
void pv_bi_strftime(PV_BI_ARGS);
void pv_bi_strptime(PV_BI_ARGS);
void pv_bi_weekdate(PV_BI_ARGS);   /* weekdate_iso, weekdate_cdc */

/* builtins_math.c */
void pv_bi_real1(PV_BI_ARGS);      /* sqrt .. invnorm: real form, else complex */
void pv_bi_abs(PV_BI_ARGS);
void pv_bi_sgn(PV_BI_ARGS);
void pv_bi_round(PV_BI_ARGS);      /* int, floor, ceil */
void pv_bi_parts(PV_BI_ARGS);      /* real, imag, arg */
void pv_bi_atan2(PV_BI_ARGS);
void pv_bi_special(PV_BI_ARGS);    /* igamma, ibeta, lambertw, EllipticK, EllipticE */
void pv_bi_special2(PV_BI_ARGS);   /* voigt, EllipticPi */
void pv_bi_airy(PV_BI_ARGS);
void pv_bi_bessel(PV_BI_ARGS);     /* besi0, besi1, besjn, besyn, expint */
/* builtins_string.c */
void pv_bi_sprintf(PV_BI_ARGS);
void pv_bi_gprintf(PV_BI_ARGS);
void pv_bi_strlen(PV_BI_ARGS);
void pv_bi_substr(PV_BI_ARGS);
void pv_bi_strstrt(PV_BI_ARGS);
void pv_bi_word(PV_BI_ARGS);
void pv_bi_words(PV_BI_ARGS);
void pv_bi_trim(PV_BI_ARGS);

/* ---- special functions (builtins_special.c): NaN outside their domain ----------------- */
double pv_sf_bes_i(double x, int order);
double pv_sf_expint_n(int n, double x);
double pv_sf_igamma_p(double a, double x);
double pv_sf_ndtri(double p);
double pv_sf_ibeta_i(double a, double b, double x);
double pv_sf_lambert_w(double x);
double pv_sf_ellip(double k, bool second);
double pv_sf_voigt_k(double x, double y);
double pv_sf_ellip_pi(double n, double k);
double pv_sf_inverf(double x);

#endif
