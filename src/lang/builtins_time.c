/*
 * Time builtins (gnuplot 5.4): strftime(fmt, t), strptime(fmt, s), weekdate_iso(y, w, d),
 * weekdate_cdc(y, w, d), and the formatter time("fmt") shares (pv_time_format). gnuplot's
 * time is seconds since 1970-01-01 00:00 UTC, no time zone, no leap seconds; its format
 * codes are C's plus %s (seconds since the epoch), %.nS (seconds with n decimals) and the
 * elapsed-time forms %tH %tM %tS (hours, minutes, seconds of a duration, not wrapped).
 */
#define _GNU_SOURCE /* strptime, timegm */
#include "builtins_int.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Append n bytes to a growing buffer (on failure *buf becomes NULL). */
static void put(char **buf, size_t *len, size_t *cap, const char *s, size_t n)
{
    if (!*buf) return;
    if (*len + n + 1 > *cap) {
        size_t nc = (*len + n + 1) * 2;
        char *nb = realloc(*buf, nc);
        if (!nb) {
            free(*buf);
            *buf = NULL;
            return;
        }
        *buf = nb, *cap = nc;
    }
    memcpy(*buf + *len, s, n);
    *len += n;
    (*buf)[*len] = '\0';
}

char *pv_time_format(const char *fmt, double t)
{
    size_t len = 0, cap = 64;
    char *buf = malloc(cap);
    if (!buf) return NULL;
    buf[0] = '\0';
    double whole = floor(t);
    time_t tt = (time_t)whole;
    struct tm tm;
    if (!gmtime_r(&tt, &tm)) memset(&tm, 0, sizeof tm);
    bool seen_h = false, seen_m = false, seen_neg = false;
    for (const char *p = fmt; *p && buf; p++) {
        if (*p != '%' || !p[1]) {
            put(&buf, &len, &cap, p, 1);
            continue;
        }
        char piece[128];
        int n = 0;
        const char *q = p + 1;
        if (*q == 's') {
            n = snprintf(piece, sizeof piece, "%.0f", whole);
        } else if (*q == '.' && q[1] >= '0' && q[1] <= '9' && q[2] == 'S') {
            int dec = q[1] - '0';
            double sec = tm.tm_sec + (t - whole);
            n = snprintf(piece, sizeof piece, "%0*.*f", dec > 0 ? dec + 3 : 2, dec, sec);
            q += 2;
        } else if (*q == 't' && (q[1] == 'H' || q[1] == 'M' || q[1] == 'S')) {
            /* elapsed time: a unit wraps only when a larger one was printed before it */
            double a = fabs(t), v;
            bool wrap = (q[1] == 'M' && seen_h) || (q[1] == 'S' && seen_m);
            if (q[1] == 'H') v = floor(a / 3600), seen_h = true;
            else if (q[1] == 'M') v = floor((seen_h ? fmod(a, 3600) : a) / 60), seen_m = true;
            else v = floor(seen_m ? fmod(a, 60) : a);
            n = snprintf(piece, sizeof piece, wrap ? "%s%02.0f" : "%s%.0f",
                         t < 0 && !seen_neg ? "-" : "", v);
            seen_neg = seen_neg || t < 0;
            q++;
        } else {
            char one[3] = {'%', *q, '\0'}; /* one C code at a time */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
            n = (int)strftime(piece, sizeof piece, one, &tm);
#pragma GCC diagnostic pop
        }
        if (n > 0) put(&buf, &len, &cap, piece, (size_t)(n < (int)sizeof piece ? n : (int)sizeof piece - 1));
        p = q;
    }
    return buf;
}

void pv_bi_strftime(PV_BI_ARGS)
{
    PV_BI_UNUSED();
    if (!pv_barg_str(&args[0], r) || !pv_barg_num(&args[1], r)) return;
    double t = pv_value_real(&args[1]);
    if (!isfinite(t)) {
        r->undef = true;
        return;
    }
    char *s = pv_time_format(args[0].s, t);
    if (!s) {
        r->err = "out of memory";
        return;
    }
    *out = (pv_value){PV_V_STR, 0, 0.0, 0.0, s};
}

void pv_bi_strptime(PV_BI_ARGS)
{
    PV_BI_UNUSED();
    if (!pv_barg_str(&args[0], r) || !pv_barg_str(&args[1], r)) return;
    const char *fmt = args[0].s, *s = args[1].s;
    if (!strcmp(fmt, "%s")) {
        *out = pv_real(strtod(s, NULL));
        return;
    }
    struct tm tm;
    memset(&tm, 0, sizeof tm);
    tm.tm_mday = 1;
    if (!strptime(s, fmt, &tm)) {
        r->undef = true; /* gnuplot: a string that does not match gives an undefined value */
        return;
    }
    *out = pv_real((double)timegm(&tm));
}

/* Days from 1970-01-01 to year-01-01. */
static double days_to_year(int year)
{
    struct tm tm;
    memset(&tm, 0, sizeof tm);
    tm.tm_year = year - 1900;
    tm.tm_mday = 1;
    return (double)timegm(&tm) / 86400.0;
}

void pv_bi_weekdate(PV_BI_ARGS)
{
    PV_BI_UNUSED();
    for (int k = 0; k < 3; k++)
        if (!pv_barg_num(&args[k], r)) return;
    /* gnuplot casts the year to int (NaN or out of range: INT_MIN on x86); here the lowest
     * year a struct tm holds */
    double y = pv_value_real(&args[0]);
    int year = y > INT_MIN + 1900.0 && y < INT_MAX + 1.0 ? (int)y : INT_MIN + 1900;
    double week = pv_value_real(&args[1]), day = pv_value_real(&args[2]);
    double jan4 = days_to_year(year) + 3;
    int wday = (int)fmod(fmod(jan4 + 4, 7) + 7, 7); /* 1970-01-01 was a Thursday; 0 = Sunday */
    double start;
    if (id == B_WEEKDATE_ISO) start = jan4 - (wday == 0 ? 6 : wday - 1); /* Monday */
    else start = jan4 - wday;                                            /* Sunday */
    if (day < 1) day = 1;
    *out = pv_real((start + (week - 1) * 7 + (day - 1)) * 86400.0);
}
