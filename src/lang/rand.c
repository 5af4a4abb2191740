/*
 * rand(): L'Ecuyer's combined multiplicative congruential generator (CACM 31, 1988), as
 * gnuplot 5.4 uses it, reproduced from its published constants and measured behaviour:
 * default seeds 1234567890 for both generators; rand(0) advances; rand(x<0) restores the
 * default seeds; rand(n) for an integer 0 < n <= 2^31-1 seeds both with n; rand({a,b})
 * seeds them with a and b (b = 0: both a); anything else is "illegal seed value". Every
 * call returns the next number.
 */
#include "lang_int.h"

#include <math.h>

#define M1 2147483563
#define M2 2147483399
#define A1 40014
#define A2 40692

static int32_t schrage(int32_t s, int32_t a, int32_t m)
{
    int32_t q = m / a, r = m % a, k = s / q;
    int64_t v = (int64_t)a * (s - k * q) - (int64_t)k * r;
    if (v < 0) v += m;
    return (int32_t)v;
}

double pv_rand_next(int32_t *s1, int32_t *s2)
{
    /* Schrage's decomposition, as in the original: it differs from a plain modulus for
     * seeds above the modulus (e.g. 2^31-1) */
    *s1 = schrage(*s1, A1, M1);
    *s2 = schrage(*s2, A2, M2);
    int64_t z = (int64_t)*s1 - *s2;
    if (z < 1) z += M1 - 1;
    return (double)z * 4.656613057E-10;
}

static bool seed_ok(double x)
{
    return x > 0.0 && x <= 2147483647.0 && x == floor(x);
}

pv_status pv_rand(pv_env *env, const pv_value *arg, double *out, const char **err)
{
    double re = pv_value_real(arg), im = arg->type == PV_V_CMPLX ? arg->im : 0.0;
    if (im == 0.0 && re < 0.0) {
        env->seed1 = env->seed2 = 1234567890;
    } else if (im == 0.0 && re == 0.0) {
        /* advance */
    } else {
        if (!seed_ok(re) || (im != 0.0 && !seed_ok(im))) {
            *err = "illegal seed value";
            return PV_ESCRIPT;
        }
        env->seed1 = (int32_t)re;
        env->seed2 = im != 0.0 ? (int32_t)im : (int32_t)re;
    }
    *out = pv_rand_next(&env->seed1, &env->seed2);
    return PV_OK;
}
