/*
 * The vector VM's exp kernel and its handling of lanes a math builtin declines.
 *  1. exp(x) lanes against libm's exp(x), bit for bit, over millions of arguments (the
 *     kernel only returns its own value where it is sure libm agrees; the rest must have
 *     been handed to libm): wide and narrow ranges, near 0, the subnormal and overflow
 *     edges, integers and halves.
 *  2. Whole expressions against the scalar VM (pv_eval), lane by lane: Gaussians wide and
 *     narrow (most lanes underflow to +0), exp feeding log/sqrt (complex and undefined
 *     results), sqrt/log/sin on arguments they decline (negative, zero, subnormal).
 */
#include "lt_common.h"

#include <stdint.h>

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static double uniform(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (double)(rng >> 11) * 0x1p-53;
}

static bool same(double a, double b)
{
    return (isnan(a) && isnan(b)) || memcmp(&a, &b, sizeof a) == 0;
}

static pv_code *compile(pv_ctx *ctx, const char *text, pv_source **src, pv_toklist *tl)
{
    *src = pv_source_create(ctx, "v", text, strlen(text), 1);
    if (pv_lex(ctx, *src, tl) != PV_OK) return NULL;
    pv_cursor c = {ctx, tl, 0, tl->ntok};
    pv_code *code = NULL;
    if (pv_parse_expr(&c, &code) != PV_OK) return NULL;
    return code;
}

enum { LANES = 2048 };

/* exp(x) over n lanes drawn by draw(): every lane equals libm's exp(x). */
static long exp_vs_libm(pv_env *env, pv_vcode *vc, pv_vscratch *s, long n, double lo, double hi)
{
    (void)env;
    static double x[LANES], out[LANES];
    long bad = 0;
    for (long done = 0; done < n; done += LANES) {
        for (int i = 0; i < LANES; i++) x[i] = lo + (hi - lo) * uniform();
        pv_vinput in[1] = {{x, 1}};
        pv_veval(vc, s, LANES, in, out);
        for (int i = 0; i < LANES; i++) {
            double want = exp(x[i]);
            /* outside the normal range the scalar VM decides (checked in part 2) */
            if (!(want >= 0x1p-1022 && want <= 0x1.fffffffffffffp1023)) continue;
            if (!same(out[i], want)) {
                if (bad < 5)
                    fprintf(stderr, "exp(%a): vector %a, libm %a\n", x[i], out[i], want);
                bad++;
            }
        }
    }
    return bad;
}

/* Lanes of `text` (slot x) against pv_eval. */
static int vs_scalar(pv_env *env, const char *text, const double *x, int n)
{
    pv_ctx *ctx = pv_env_ctx(env);
    pv_source *src;
    pv_toklist tl;
    pv_code *code = compile(ctx, text, &src, &tl);
    PV_CHECK(code != NULL);
    const char *slots[] = {"x"};
    pv_vcode *vc = NULL;
    int bad = 0;
    PV_CHECK(pv_vcompile(env, code, 1, slots, &vc) == PV_OK);
    if (vc) {
        pv_vscratch *s = pv_vscratch_create(vc, (size_t)n);
        double *out = malloc(sizeof(double) * (size_t)n);
        pv_vinput in[1] = {{x, 1}};
        pv_veval(vc, s, (size_t)n, in, out);
        for (int i = 0; i < n; i++) {
            pv_value xv = pv_real(x[i]), v;
            pv_env_set(env, "x", &xv);
            pv_err_clear(ctx);
            double ref = NAN;
            if (pv_eval(env, code, &v) == PV_OK) {
                if (v.type == PV_V_INT) ref = (double)v.i;
                else if (v.type == PV_V_CMPLX && v.im == 0.0) ref = v.re;
                pv_value_free(&v);
            }
            pv_test_checks++;
            if (!same(ref, out[i])) {
                pv_test_failures++;
                if (bad++ < 3)
                    fprintf(stderr, "%s at x = %a: scalar %a, vector %a\n", text, x[i], ref,
                            out[i]);
            }
        }
        pv_err_clear(ctx);
        free(out);
        pv_vscratch_destroy(s);
        pv_vcode_destroy(vc);
    }
    pv_code_destroy(code);
    pv_toklist_fini(&tl);
    pv_source_destroy(src);
    return bad;
}

int main(int argc, char **argv)
{
    pv_ctx *ctx = lt_init(&argc, &argv);
    pv_env *env = pv_env_create(ctx);
    pv_value zero = pv_real(0.0);
    pv_env_set(env, "x", &zero);

    /* ---- 1. exp against libm ---- */
    {
        pv_source *src;
        pv_toklist tl;
        pv_code *code = compile(ctx, "exp(x)", &src, &tl);
        const char *slots[] = {"x"};
        pv_vcode *vc = NULL;
        PV_CHECK(code && pv_vcompile(env, code, 1, slots, &vc) == PV_OK);
        pv_vscratch *s = pv_vscratch_create(vc, LANES);
        static const double ranges[][2] = {{-20, 20}, {-1, 1}, {-1e-3, 1e-3}, {-1e-12, 1e-12},
                                           {-709, 710}, {-746, -700}, {700, 710},
                                           {-0.02, 0.0}, {-150, 0}};
        long bad = 0;
        for (size_t k = 0; k < sizeof ranges / sizeof *ranges; k++)
            bad += exp_vs_libm(env, vc, s, 600000, ranges[k][0], ranges[k][1]);
        /* integers and halves (table index 0 and round-to-even of the reduction) */
        static double x[LANES], out[LANES];
        for (int i = 0; i < LANES; i++) x[i] = (double)(i - LANES / 2) / 4.0;
        pv_vinput in[1] = {{x, 1}};
        pv_veval(vc, s, LANES, in, out);
        for (int i = 0; i < LANES; i++)
            if (exp(x[i]) >= 0x1p-1022 && !same(out[i], exp(x[i]))) bad++;
        PV_CHECK_EQ(bad, 0);
        pv_vscratch_destroy(s);
        pv_vcode_destroy(vc);
        pv_code_destroy(code);
        pv_toklist_fini(&tl);
        pv_source_destroy(src);
    }

    /* ---- 2. expressions against the scalar VM ---- */
    enum { N = 3000 };
    static double xs[N];
    static const double special[] = {0.0, -0.0, 1.0, -1.0, 0x1p-1074, -0x1p-1074, 0x1p-1030,
                                     -746.0, -745.0, -708.5, 709.7, 709.8, 1e300, -1e300,
                                     INFINITY, -INFINITY, NAN, 0.5, 2.0, -0.25};
    const int ns = (int)(sizeof special / sizeof *special);
    for (int i = 0; i < N; i++) {
        double u = uniform();
        xs[i] = i < ns ? special[i] : i % 3 == 0 ? (u - 0.5) * 1600.0 : i % 3 == 1 ? u * 2.0
                                                                             : (u - 0.5) * 40.0;
    }
    static const char *const exprs[] = {
        "exp(x)",
        "2*exp(-x**2/0.02)",
        "exp(-x**2/0.0001)",           /* narrow: most lanes underflow to +0 */
        "exp(-x) * exp(x) + 1",
        "x > 0 ? exp(-x) : exp(x)",
        "log(exp(x) - 1)",             /* undefined at 0, complex below */
        "sqrt(exp(x) - 2)",            /* complex results stay the scalar VM's */
        "sqrt(x) + log(x)",            /* declined lanes of sqrt and log */
        "sin(x) + cos(x/1e300)",       /* subnormal arguments */
        "exp(x/100)**2",
    };
    for (size_t k = 0; k < sizeof exprs / sizeof *exprs; k++)
        vs_scalar(env, exprs[k], xs, N);

    pv_env_destroy(env);
    lt_fini(ctx);
    return pv_test_result("lang_vvm_exp");
}
