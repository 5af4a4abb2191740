/*
 * Values, arithmetic and print formatting against gnuplot 5.4.4. Each expected string is
 * what `print <expr>` printed in gnuplot 5.4.4 (errors as "ERR: <message>", undefined
 * values as "UNDEF": gnuplot's print reports "undefined value").
 */
#include "lt_common.h"

static void test_gnuplot_table(pv_env *env)
{
    LT_EXPECT(env, "010, 0x1F, 1e6, .5, 10., 1.0/3, 2.0, 10000000000.0, 1e15, 1e16,123456789012345.0, 0.0001, 0.00001", "8 31 1000000.0 0.5 10.0 0.333333333333333 2.0 10000000000.0 1e+15 1e+16 123456789012345.0 0.0001 1e-05");
    LT_EXPECT(env, "2**62*4, 9223372036854775807+1, -9223372036854775807*3, 2**-1, 0**0", "1.84467440737096e+19 9.22337203685478e+18 -2.76701161105643e+19 0.5 1");
    LT_EXPECT(env, "0**-1", "UNDEF");
    LT_EXPECT(env, "5!, 20!, 21!, 0!, (-1)!", "120 2432902008176640000 5.10909421717094e+19 1 1");
    LT_EXPECT(env, "3.5!", "ERR: factorial (!) argument must be an integer");
    LT_EXPECT(env, "1/0", "UNDEF");
    LT_EXPECT(env, "potx", "ERR: undefined variable: potx");
    LT_EXPECT(env, "f(1)", "ERR: undefined function: f");
    LT_EXPECT(env, "\"a\"+1", "ERR: non-numeric string found where a numeric expression was expected");
    LT_EXPECT(env, "!0, !2, ~5, 1<<3, -8>>1, 5&3, 5|3", "1 0 -6 8 9223372036854775804 1 7");
    LT_EXPECT(env, "\"abc\" eq \"abc\", \"a\" ne \"b\"", "1 1");
    LT_EXPECT(env, "\"a\"==\"a\"", "ERR: non-numeric string found where a numeric expression was expected");
    LT_EXPECT(env, "1?2:3, 2>1, 1.5==1.5", "2 1 1");
    LT_EXPECT(env, "int(-3.7), floor(-3.5), ceil(3.2), abs(-3), abs(-3.5), sgn(-2), sqrt(-1), log(-1), exp(1)", "-3 -4 4 3 3.5 -1 {0.0, 1.0} {0.0, 3.14159265358979} 2.71828182845905");
    LT_EXPECT(env, "(a=2, b=3, a+b)", "5");
    LT_EXPECT(env, "sum [i=1:10] i", "55");
    LT_EXPECT(env, "1.0e300*1e300, -1e300*1e300, sqrt(-1)*0", "inf.0 -inf.0 0.0");
    LT_EXPECT(env, "NaN, pi, -NaN, 1e300*1e300", "NaN 3.14159265358979 NaN inf.0");
    LT_EXPECT(env, "real({1,2}), imag({1,2}), {1,2}*{3,4}, arg({0,1}), abs({3,4})", "1.0 2.0 {-5.0, 10.0} 1.5707963267949 5.0");
    LT_EXPECT(env, "besj0(1), erf(0.5), gamma(5), gamma(5.5), lgamma(3), inverf(0.5), norm(1), invnorm(0.3)", "0.765197686557967 0.520499877813047 24.0 52.3427777845535 0.693147180559945 0.47693627620447 0.841344746068543 -0.524400512708041");
    LT_EXPECT(env, "(x=1.5, \"a\".x)", "ERR: internal error : STRING operator applied to undefined or non-STRING variable");
    LT_EXPECT(env, "(x=1, \"a\".x)", "a1");
    LT_EXPECT(env, "2**3**2, -2**2, !1+1, 1<2<3, 2*3%4", "512 -4 1 1 2");
    LT_EXPECT(env, "\"a\\tb\\x41\\101\\\"\", 'it''s\\\\n'", "a\tbx41A\" it's\\\\n");
    LT_EXPECT(env, "1 ? 2 : 0 ? 4 : 5", "2");
    LT_EXPECT(env, "1&&0||1, 0 && undefinedvar, 1 || undefinedvar", "1 0 1");
    LT_EXPECT(env, "\"a\" . \"b\" eq \"ab\"", "1");
    LT_EXPECT(env, "1+2 . 3", "ERR: internal error : STRING operator applied to undefined or non-STRING variable");
    LT_EXPECT(env, "9223372036854775807 * 2, -9223372036854775807-2, 9223372036854775807 - -1", "1.84467440737096e+19 -9.22337203685478e+18 9.22337203685478e+18");
    LT_EXPECT(env, "-(-9223372036854775807-1), abs(-9223372036854775807-1)", "-9223372036854775808 -9223372036854775808");
    LT_EXPECT(env, "3 % 0.0", "ERR: non-integer operand for %");
    LT_EXPECT(env, "2**62 + 2**62", "9.22337203685478e+18");
    LT_EXPECT(env, "2**3!, -3!, 5!!", "64 -6 6.68950291344913e+198");
    LT_EXPECT(env, "\"2\"*\"3\", \"2.5\"+1, \" 3 \"+1", "6 3.5 4");
    LT_EXPECT(env, "\"3x\"+1", "ERR: trailing characters after numeric expression");
    LT_EXPECT(env, "\"\"+1", "ERR: non-numeric string found where a numeric expression was expected");
    LT_EXPECT(env, "1.5 & 1", "ERR: non-integer passed to boolean operator");
    LT_EXPECT(env, "2 << 64, 1 << -1, 1<<63", "2 -9223372036854775808 -9223372036854775808");
    LT_EXPECT(env, "2.5 < {1,1}, {1,1} == {1,1}", "0 1");
    LT_EXPECT(env, "log(0)", "UNDEF");
    LT_EXPECT(env, "acos(2)", "{0.0, -1.31695789692482}");
    LT_EXPECT(env, "exp(1000)", "UNDEF");
    LT_EXPECT(env, "gamma(0)", "UNDEF");
    LT_EXPECT(env, "sqrt(-4.0), (-1)**0.5, (-8)**(1/3), (-8)**(1./3)", "{0.0, 2.0} {6.12323399573677e-17, 1.0} 1 {1.0, 1.73205080756888}");
    LT_EXPECT(env, "int(1e20), floor(1e20)", "NaN NaN");
    LT_EXPECT(env, "int(NaN)", "UNDEF");
    LT_EXPECT(env, "atan(1e300), tan(pi/2)", "1.5707963267949 1.63312393531954e+16");
    LT_EXPECT(env, "1/1e200, 1e300/1e200, 1/3.0, 0.1/0.7, 1e-200/1e-200", "1e-200 1e+100 0.333333333333333 0.142857142857143 1.0");
    LT_EXPECT(env, "1e200**2", "UNDEF");
    LT_EXPECT(env, "10.0**400", "UNDEF");
    LT_EXPECT(env, "2**-2000", "0.0");
    LT_EXPECT(env, "1.5**2, (-1.5)**2, (-2.0)**0.5, 0.0**0.5, 2**0.5", "2.25 2.25 {8.65956056235493e-17, 1.4142135623731} 0.0 1.4142135623731");
    LT_EXPECT(env, "-0.0*1, 0*-1.0, -0.0", "-0.0 -0.0 -0.0");
    LT_EXPECT(env, "{1,2}/{3,4}, {1,2}**2, {0,0}**0", "{0.44, 0.08} {-3.0, 4.0} 1.0");
    LT_EXPECT(env, "sprintf(\"%.17g %.17g %.17g\", 0.1/0.7, 1.1**1.5, 10**0.3)", "0.14285714285714288 1.1536897329871669 1.9952623149688795");
    LT_EXPECT(env, "sprintf(\"%d\", 3.7), sprintf(\"%5.2f|%x|%o|%e|%g\", 3.14159, 255, 8, 12345.678, 0.0001)", "3  3.14|ff|10|1.234568e+04|0.0001");
    LT_EXPECT(env, "sprintf(\"%s\", 3)", "ERR: f_sprintf: attempt to print numeric value with string format");
    LT_EXPECT(env, "sprintf(\"%d %d\", 1)", "1 %d");
    LT_EXPECT(env, "sprintf(\"%f\", \"a\")", "ERR: f_sprintf: attempt to print string value with numeric format");
    LT_EXPECT(env, "gprintf(\"%.2f\", 3.14159), gprintf(\"%g\", 10), gprintf(\"%x\",255), gprintf('%02g',0), gprintf('%02g', 2.5), gprintf('%02g',1e6), gprintf('%02g',100)", "3.14 10 ff 00 2.5 1e+06 100");
    LT_EXPECT(env, "gprintf(\"%d\", 5.5)", "ERR: bad format character");
    LT_EXPECT(env, "exists(\"pi\"), value(\"pi\"), int(2.5e10), int(\"3\"), exists(\"nope\")", "1 3.14159265358979 25000000000 3 0");
    LT_EXPECT(env, "atan2(1,2), sinh(1), asinh(1), acosh(2), atanh(0.5), besy0(1), besy1(1), besj1(1), erfc(1), log10(1000)", "0.463647609000806 1.1752011936438 0.881373587019543 1.31695789692482 0.549306144334055 0.088256964215677 -0.781212821300289 0.440050585744933 0.157299207050285 3.0");
    LT_EXPECT(env, "\"abc\"[2:3], \"abc\"[2:], strlen(\"héllo\"), substr(\"hello\",2,3), strstrt(\"hello\",\"ll\"), word(\"a b c\",2), words(\"a b c\")", "bc bc 6 el 3 b 3");
    LT_EXPECT(env, "10**6, 10**-1, (-8)**(1./3), 10^6, -7/2, -7%3, 7%-3", "1000000 0.1 {1.0, 1.73205080756888} 12 -3 -1 1");
    LT_EXPECT(env, "sprintf(\"%.17g %.17g %.17g %.17g\", gamma(5), 21!, 30!, 170!)", "24 5.109094217170944e+19 2.652528598121911e+32 7.257415615308004e+306");
    LT_EXPECT(env, "sprintf(\"%.17g %.17g %.17g\", exp(1), log(10), 3**-2)", "2.7182818284590451 2.3025850929940459 0.1111111111111111");
    LT_EXPECT(env, "floor(NaN), ceil(-0.5), int(-0.5), sgn(0.0), sgn(-0.0)", "NaN 0 0 0 0");
    LT_EXPECT(env, "1.5 && 1", "ERR: non-integer passed to boolean operator");
    LT_EXPECT(env, "0.5 ? 1 : 2, NaN ? 1 : 2", "ERR: non-integer passed to boolean operator");
    LT_EXPECT(env, "\"a\" ? 1 : 2", "ERR: non-integer passed to boolean operator");
    LT_EXPECT(env, "\"1\" ? 1 : 2", "ERR: non-integer passed to boolean operator");
}

/* More gnuplot 5.4.4 measurements: precedence, string conversion, overflow edges. */
static void test_gnuplot_table2(pv_env *env)
{
    LT_EXPECT(env, "sum [i=1.5:3] i", "ERR: range specifiers of sum must have integer values");
    LT_EXPECT(env, "sum [i=1:3] sum [j=1:i] j", "10");
    LT_EXPECT(env, "sum [i=1:3] 1/(i-2)", "UNDEF");
    LT_EXPECT(env, "(a = b = 3, a + b)", "6");
    LT_EXPECT(env, "1 ? \"a\" : \"b\"", "a");
    LT_EXPECT(env, "\"ab\" . \"cd\" eq \"abcd\" ? 1 : 0", "1");
    LT_EXPECT(env, "5!=3", "1");
    LT_EXPECT(env, "2 ** 3 ** -1", "1.25992104989487");
    LT_EXPECT(env, "-2 ** -2", "-0.25");
    LT_EXPECT(env, "!!1", "1");
    LT_EXPECT(env, "~~5", "5");
    LT_EXPECT(env, "1 + + 2", "3");
    LT_EXPECT(env, "1 - - 2", "3");
    LT_EXPECT(env, "- \"3\"", "-3");
    LT_EXPECT(env, "\"4\" ** 2", "16");
    LT_EXPECT(env, "\"0x10\" + 1", "17");
    LT_EXPECT(env, "\"1e3\" + 1", "ERR: trailing characters after numeric expression");
    LT_EXPECT(env, "\"010\" + 1", "9");
    LT_EXPECT(env, "\" -2.5e1 \" + 0", "-25.0");
    LT_EXPECT(env, "\"+3\" + 0", "3");
    LT_EXPECT(env, "2 * {1, -2}", "{2.0, -4.0}");
    LT_EXPECT(env, "{-1.5, 2e1}", "{-1.5, 20.0}");
    LT_EXPECT(env, "1 ? 2 : 3 ? 4 : 5", "2");
    LT_EXPECT(env, "(1, 2, 3)", "3");
    LT_EXPECT(env, "!0 + 1 << 2", "8");
    LT_EXPECT(env, "1 < 2 == 1", "1");
    LT_EXPECT(env, "3 & 5 == 5", "1");
    LT_EXPECT(env, "7 ^ 2 | 8", "13");
    LT_EXPECT(env, "1 || 1/0", "1");
    LT_EXPECT(env, "0 && 1/0", "0");
    LT_EXPECT(env, "(1/0) || 1", "UNDEF");
    LT_EXPECT(env, "strlen(1)", "ERR: internal error : strlen of non-STRING argument");
    LT_EXPECT(env, "int(-7/2.0), floor(-7/2.0)", "-3 -4");
    LT_EXPECT(env, "2**62 * 2", "9.22337203685478e+18");
    LT_EXPECT(env, "-2**63", "-9.22337203685478e+18");
    LT_EXPECT(env, "(-2)**63", "-9.22337203685478e+18");
    LT_EXPECT(env, "(-2)**64", "1.84467440737096e+19");
    LT_EXPECT(env, "3**40", "1.21576654590569e+19");
    LT_EXPECT(env, "3**39", "4052555153018976267");
    LT_EXPECT(env, "7 % -3, -7 % -3", "1 -1");
    LT_EXPECT(env, "sgn(NaN), abs(NaN)", "0 NaN");
    LT_EXPECT(env, "\"1.5e3\"+0, \"1.\"+0, \".5\"+0, \"-0x10\"+0, \"2 3\"+0, \"0.5e-1\" + 0, \"inf\"+0, \"nan\"+0", "1500.0 1.0 0.5 -16 2 0.05 inf.0 NaN");
    LT_EXPECT(env, "\"1E3\"+0", "ERR: trailing characters after numeric expression");
    LT_EXPECT(env, "\"1.5x\"+0", "ERR: trailing characters after numeric expression");
    LT_EXPECT(env, "\"-\"+0", "ERR: non-numeric string found where a numeric expression was expected");
    LT_EXPECT(env, "\"08\"+0", "ERR: trailing characters after numeric expression");
    LT_EXPECT(env, "\"0x\"+0", "ERR: trailing characters after numeric expression");
}

static void test_more(pv_env *env)
{
    /* powers (gnuplot 5.4.4) */
    LT_EXPECT(env, "(-1)**-3, 1**-5, (-3)**-3, 0**5, (-2.0)**3, (-1.5)**2",
              "-1.0 1.0 -0.037037037037037 0 -8.0 2.25");
    LT_EXPECT(env, "{0,0}**{1,1}", "UNDEF");
    LT_EXPECT(env, "(-8.0)**(1/3.0), (-1)**0.25, 4**0.5, (-4)**2.0, (-4)**2.5",
              "{1.0, 1.73205080756888} {0.707106781186548, 0.707106781186547} 2.0 "
              "{16.0, -3.91886975727153e-15} {9.79717439317883e-15, 32.0}");
    /* which operators convert strings (gnuplot 5.4.4) */
    LT_EXPECT(env, "\"1\" << 1, \"3\" % 2, \"3\"!, \"3\" ** 2, \"3\" == 3, \"3\" < 4, +\"3\"", "2 1 6 9 1 1 3");
    LT_EXPECT(env, "\"1\" & 1", "ERR: non-integer passed to boolean operator");
    LT_EXPECT(env, "~\"3\"", "ERR: non-integer passed to boolean operator");
    LT_EXPECT(env, "!\"1\"", "ERR: non-integer passed to boolean operator");
    LT_EXPECT(env, "\"1\" && 1", "ERR: non-integer passed to boolean operator");
    LT_EXPECT(env, "-\"a\"", "ERR: non-numeric string found where a numeric expression was expected");
    /* article facts (GP-11) */
    LT_EXPECT(env, "10**6, 10**-1, 2**0.5, 10^6", "1000000 0.1 1.4142135623731 12");
    LT_EXPECT(env, "1 ? 2 : 3 + 10", "2");
    LT_EXPECT(env, "'frame' . gprintf('%02g', 3) . '.png'", "frame03.png");
    LT_EXPECT(env, "2**62, 2**63, 10**20", "4611686018427387904 9.22337203685478e+18 1e+20");
    LT_EXPECT(env, "(y = 3) + 1, y", "4 3");
    LT_EXPECT(env, "1.0/0", "UNDEF");
    LT_EXPECT(env, "(1/0)*0", "UNDEF");
    LT_EXPECT(env, "1 ? 2 : (1/0)", "2");
    LT_EXPECT(env, "1e308*10 - 1e308*10", "NaN");
    LT_EXPECT(env, "sum [k=1:3] k*0.5, exists(\"k\")", "3.0 0");
    LT_EXPECT(env, "(k=7, sum [k=1:3] k), k", "6 7");
    LT_EXPECT(env, "sum [k=3:1] k", "0");
}

static void test_format(void)
{
    pv_value v = pv_real(1e20);
    char *s = pv_value_format(&v);
    PV_CHECK_STR(s, "1e+20");
    free(s);
    v = pv_real(-0.0);
    s = pv_value_format(&v);
    PV_CHECK_STR(s, "-0.0");
    free(s);
    v.type = PV_V_CMPLX;
    v.re = 1.0;
    v.im = -2.5;
    s = pv_value_format(&v);
    PV_CHECK_STR(s, "{1.0, -2.5}");
    free(s);
    v = pv_int(-42);
    s = pv_value_format(&v);
    PV_CHECK_STR(s, "-42");
    free(s);
    pv_value str = pv_str("a b");
    s = pv_value_format(&str);
    PV_CHECK_STR(s, "a b");
    free(s);
    pv_value cp = pv_value_copy(&str);
    pv_value_free(&str);
    PV_CHECK_STR(cp.s, "a b");
    pv_value_free(&cp);
    PV_CHECK(cp.type == PV_V_UNDEF);
}

int main(int argc, char **argv)
{
    pv_ctx *ctx = lt_init(&argc, &argv);
    pv_env *env = pv_env_create(ctx);
    test_gnuplot_table(env);
    test_gnuplot_table2(env);
    test_more(env);
    test_format();
    pv_env_destroy(env);
    lt_fini(ctx);
    return pv_test_result("lang_values");
}
