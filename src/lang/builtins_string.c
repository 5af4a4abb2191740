/*
 * String builtins: sprintf, gprintf, strlen, substr, strstrt, word, words, trim
 * (gnuplot 5.4 names and argument rules).
 */
#include "builtins_int.h"

#include <ctype.h>
#include <stdint.h>
#include <string.h>

void pv_bi_sprintf(PV_BI_ARGS)
{
    PV_BI_UNUSED();
    pv_value *a = &args[0];
    if (nargs < 1 || !pv_barg_str(a, r)) {
        if (nargs < 1) r->err = "sprintf requires a format string";
        return;
    }
    char *s = pv_sprintf_msg(a->s, args + 1, nargs - 1, &r->err);
    if (!s) return;
    *out = (pv_value){PV_V_STR, 0, 0.0, 0.0, s};
}

void pv_bi_gprintf(PV_BI_ARGS)
{
    PV_BI_UNUSED();
    pv_value *a = &args[0];
    if (!pv_barg_str(a, r) || !pv_barg_num(&args[1], r)) return;
    char *s = pv_gprintf_msg(a->s, pv_value_real(&args[1]), &r->err);
    if (!s) return;
    *out = (pv_value){PV_V_STR, 0, 0.0, 0.0, s};
}

void pv_bi_strlen(PV_BI_ARGS)
{
    PV_BI_UNUSED();
    pv_value *a = &args[0];
    if (a->type != PV_V_STR) {
        r->err = "internal error : strlen of non-STRING argument";
        return;
    }
    *out = pv_int((int64_t)strlen(a->s));
}

void pv_bi_substr(PV_BI_ARGS)
{
    PV_BI_UNUSED();
    pv_value *a = &args[0];
    if (!pv_barg_str(a, r) || !pv_barg_num(&args[1], r) || !pv_barg_num(&args[2], r)) return;
    int64_t len = (int64_t)strlen(a->s), i = pv_barg_int(&args[1]), j = pv_barg_int(&args[2]);
    if (i < 1) i = 1;
    if (j > len) j = len;
    *out = i > j ? pv_str("")
                 : (pv_value){PV_V_STR, 0, 0.0, 0.0, pvl_strndup(a->s + i - 1, (size_t)(j - i + 1))};
}

void pv_bi_strstrt(PV_BI_ARGS)
{
    PV_BI_UNUSED();
    pv_value *a = &args[0];
    if (!pv_barg_str(a, r) || !pv_barg_str(&args[1], r)) return;
    const char *p = strstr(a->s, args[1].s);
    *out = pv_int(p ? (int64_t)(p - a->s) + 1 : 0);
}

static void str_word(const char *s, int64_t n, pv_value *out, int64_t *count)
{
    int64_t k = 0;
    const char *p = s;
    for (;;) {
        while (isspace((unsigned char)*p)) p++;
        if (!*p) break;
        const char *st = p;
        while (*p && !isspace((unsigned char)*p)) p++;
        if (++k == n && out) {
            *out = (pv_value){PV_V_STR, 0, 0.0, 0.0, pvl_strndup(st, (size_t)(p - st))};
            return;
        }
    }
    if (count) *count = k;
    if (out) *out = pv_str("");
}

void pv_bi_word(PV_BI_ARGS)
{
    PV_BI_UNUSED();
    pv_value *a = &args[0];
    if (!pv_barg_str(a, r) || !pv_barg_num(&args[1], r)) return;
    str_word(a->s, pv_barg_int(&args[1]), out, NULL);
}

void pv_bi_words(PV_BI_ARGS)
{
    PV_BI_UNUSED();
    pv_value *a = &args[0];
    if (!pv_barg_str(a, r)) return;
    int64_t n = 0;
    str_word(a->s, INT64_MAX, NULL, &n);
    *out = pv_int(n);
}

void pv_bi_trim(PV_BI_ARGS)
{
    PV_BI_UNUSED();
    pv_value *a = &args[0];
    if (!pv_barg_str(a, r)) return;
    const char *p = a->s, *e = a->s + strlen(a->s);
    while (*p && isspace((unsigned char)*p)) p++;
    while (e > p && isspace((unsigned char)e[-1])) e--;
    *out = (pv_value){PV_V_STR, 0, 0.0, 0.0, pvl_strndup(p, (size_t)(e - p))};
}
