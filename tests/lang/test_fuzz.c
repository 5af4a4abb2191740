/* Robustness: random token soup through the lexer, parser, scalar VM and vector compiler
 * must never crash or leak (run under ASan in CI); errors are fine. */
#include "lt_common.h"

#include <stdint.h>

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static unsigned rnd(unsigned n)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (unsigned)(rng % n);
}

int main(int argc, char **argv)
{
    static const char *frag[] = {
        "x", "1", "0", "2.5", "\"s\"", "'t'", "(", ")", "[", "]", "{", "}", ",", ":", "?", "+",
        "-", "*", "/", "%", "**", "!", "~", "==", "!=", "<", ">", "<<", ">>", "&", "|", "^",
        "&&", "||", ".", "=", "eq", "ne", "sin", "f", "sum", "$1", "$d", "|$d|", "@m", "pi",
        "1e", "0x", "\\\n", "#c\n", ";", "\n", "$d << E\n1\nE\n", "rand", "sprintf", "\"%d\"",
        "int", "abs", "column", "strlen", "1/0", "NaN", "{1,2}", "i", "=", "08", ".5"};
    pv_ctx *ctx = lt_init(&argc, &argv);
    pv_env *env = pv_env_create(ctx);
    pv_value one = pv_real(1.0);
    pv_env_set(env, "x", &one);
    char text[512];
    int parsed = 0;
    for (int k = 0; k < 20000; k++) {
        size_t n = 0;
        int nf = 1 + (int)rnd(12);
        text[0] = '\0';
        for (int j = 0; j < nf; j++)
            n += (size_t)snprintf(text + n, sizeof text - n, "%s ",
                                  frag[rnd(sizeof frag / sizeof *frag)]);
        pv_err_clear(ctx);
        pv_source *src = pv_source_create(ctx, "fz", text, n, 1);
        pv_toklist tl;
        if (pv_lex(ctx, src, &tl) == PV_OK) {
            pv_cursor c = {ctx, &tl, 0, tl.ntok};
            pv_code *code;
            if (pv_parse_expr(&c, &code) == PV_OK) {
                parsed++;
                pv_value v;
                if (pv_eval(env, code, &v) == PV_OK) pv_value_free(&v);
                const char *slots[] = {"x"};
                pv_vcode *vc;
                pv_err_clear(ctx);
                if (pv_vcompile(env, code, 1, slots, &vc) == PV_OK) {
                    pv_vscratch *s = pv_vscratch_create(vc, 4);
                    double xs[4] = {0.0, 1.0, -2.0, NAN}, out[4];
                    pv_vinput in = {xs, 1};
                    pv_veval(vc, s, 4, &in, out);
                    pv_vscratch_destroy(s);
                    pv_vcode_destroy(vc);
                }
                pv_code_destroy(code);
            }
            pv_toklist_fini(&tl);
        }
        pv_source_destroy(src);
    }
    PV_CHECK(parsed > 1000);
    fprintf(stderr, "fuzz: %d of 20000 inputs parsed\n", parsed);
    pv_env_destroy(env);
    lt_fini(ctx);
    return pv_test_result("lang_fuzz");
}
