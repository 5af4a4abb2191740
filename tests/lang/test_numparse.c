/*
 * The number reader of text rows (numparse.cc, pv_parse_double) against strtod, which
 * gnuplot reads fields with: the same double, bit for bit, and the same end, for the
 * forms from_chars takes (decimal, exponents, inf/nan, long mantissas, halfway cases) and
 * the ones left to strtod (a leading '+' or blank, hexadecimal, out of range, denormals),
 * and for random decimal strings.
 */
#include "datafile_int.h"
#include "pv_test.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int same(const char *s)
{
    char *e1 = NULL, *e2 = NULL;
    double a = strtod(s, &e1);
    double b = pv_parse_double(s, s + strlen(s), &e2);
    uint64_t ua, ub;
    memcpy(&ua, &a, sizeof ua);
    memcpy(&ub, &b, sizeof ub);
    bool ok = e1 == e2 && (ua == ub || (isnan(a) && isnan(b)));
    if (!ok) fprintf(stderr, "differs on \"%s\": strtod %.17g (+%d), pv_parse_double %.17g (+%d)\n",
                     s, a, (int)(e1 - s), b, (int)(e2 - s));
    return ok;
}

int main(void)
{
    static const char *const cases[] = {
        "0", "-0", "1", "1.5", "-2.25e-3", ".5", "5.", "1e", "1e+", "1e+5x", "8#x", "abc", "",
        "inf", "-inf", "Infinity", "nan", "NaN", "-nan", "nan(123)", "+5", " 7", "+.5e2",
        "0x1A", "0X1p3", "-0x10", "1e400", "-1e400", "1e-400", "4.9e-324",
        "2.2250738585072011e-308",
        "1.7976931348623157e308", "1.7976931348623159e308", "9007199254740993",
        "0.1000000000000000055511151231257827021181583404541015625",
        "2.00000000000000011102230246251565404236316680908203125",
        "123456789012345678901234567890e-10", "3.14159265358979323846264338327950288",
        "1,5", "1 2", "12\r", "7\n8", "1d5", "1e5d",
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) PV_CHECK(same(cases[k]));
    /* random decimals: digits, a point, an exponent */
    uint64_t x = 88172645463325252ull;
    char buf[64];
    for (int k = 0; k < 200000; k++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        int nd = 1 + (int)(x % 19), n = 0;
        if (x & 0x100) buf[n++] = '-';
        for (int d = 0; d < nd; d++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            buf[n++] = (char)('0' + x % 10);
            if (d == (int)((x >> 8) % (unsigned)nd)) buf[n++] = '.';
        }
        if (x & 0x200)
            n += snprintf(buf + n, sizeof buf - (size_t)n, "e%d", (int)((x >> 12) % 700) - 350);
        buf[n] = '\0';
        if (!same(buf)) {
            PV_CHECK(false);
            break;
        }
    }
    return pv_test_result("test_numparse");
}
