/*
 * numparse.cc: the number reader of text data rows, correctly rounded and fast.
 *
 * libstdc++'s std::from_chars (GCC 12: a correctly rounded decimal parser) reads the
 * common forms; everything it does not take whole falls back to strtod, so the accepted
 * syntax is exactly strtod's (gnuplot reads fields with strtod): a leading '+' or blank,
 * hexadecimal ("0x1A"), and values out of range (strtod's HUGE_VAL or denormal rounding).
 * The only C++ unit of pvox (docs/STYLE.md, STYLE-12); called from datafile_read.c.
 */
#include <charconv>
#include <cstdlib>
#include <system_error>

extern "C" double pv_parse_double(const char *s, const char *end, char **stop);

extern "C" double pv_parse_double(const char *s, const char *end, char **stop)
{
    double d = 0.0;
    std::from_chars_result r = std::from_chars(s, end, d, std::chars_format::general);
    /* strtod would read further after "0" of "0x..": hexadecimal */
    if (r.ec == std::errc() && !(r.ptr < end && (*r.ptr == 'x' || *r.ptr == 'X'))) {
        *stop = const_cast<char *>(r.ptr);
        return d;
    }
    return std::strtod(s, stop);
}
