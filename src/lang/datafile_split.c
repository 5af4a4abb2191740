/*
 * datafile_split.c: the line structure of a text source in parts, so that ranks reading
 * parts of one file give their rows the numbers gnuplot's one reader gives them (`index`,
 * column(-1), $0, `every`, `skip`).
 *
 * A line is a comment (first non-blank character in the comment characters), blank (only
 * white space) or data; pv_df_line_kind is the one rule, also used by the row reader
 * (datafile_read.c). A part's summary is independent of the state at its start; applying
 * it reproduces the counters of datafile_read.c's on_blank and on_data line by line.
 */
#include "datafile_int.h"

#include <ctype.h>
#include <math.h>
#include <string.h>

/* isspace in the C locale pvox runs in (no setlocale), without the table call: these
 * loops see every byte of a data file */
static inline bool blank_byte(char c)
{
    return c == ' ' || (c >= '\t' && c <= '\r');
}

int pv_df_line_kind(const char *comments, const char *s, size_t n)
{
    size_t i = 0;
    while (i < n && (s[i] == ' ' || s[i] == '\t')) i++;
    if (i < n && s[i] != '\0' && strchr(comments, s[i]) != NULL) return PV_DF_COMMENT;
    for (; i < n; i++)
        if (!blank_byte(s[i])) return PV_DF_DATA;
    return PV_DF_BLANK;
}

void pv_df_resolve_selection(const pv_data_spec *ds, int64_t ev[6], int64_t *ilo, int64_t *ihi,
                             int64_t *istep)
{
    static const int64_t def[6] = {1, 1, 0, 0, INT64_MAX, INT64_MAX};
    for (int k = 0; k < 6; k++) ev[k] = ds->every[k] >= 0 ? ds->every[k] : def[k];
    if (ev[0] < 1) ev[0] = 1;
    if (ev[1] < 1) ev[1] = 1;
    *ilo = ds->index_lo;
    *ihi = ds->index_hi >= 0 ? ds->index_hi : *ilo;
    *istep = ds->index_step > 0 ? ds->index_step : 1;
}

void pv_data_state_start(const pv_data_spec *ds, pv_data_state *s)
{
    memset(s, 0, sizeof *s);
    s->skip = ds->skip > 0 ? ds->skip : 0;
}

/* The lines of a part after its first `skip`, one kind at a time. */
typedef struct line_walk {
    const char *p, *e;
    int64_t skip;
    const char *comments;
} line_walk;

static bool next_line(line_walk *L, int *kind)
{
    while (L->p < L->e) {
        const char *nl = memchr(L->p, '\n', (size_t)(L->e - L->p));
        size_t n = nl ? (size_t)(nl - L->p) : (size_t)(L->e - L->p);
        const char *l = L->p;
        L->p += n + (nl != NULL);
        if (L->skip > 0) {
            L->skip--;
            continue;
        }
        while (n > 0 && (l[n - 1] == '\r' || l[n - 1] == '\n')) n--;
        *kind = pv_df_line_kind(L->comments, l, n);
        return true;
    }
    return false;
}

int64_t pv_data_text_lines(const char *text, size_t len)
{
    int64_t n = 0;
    const char *p = text, *e = text + len;
    while (p < e) {
        const char *nl = memchr(p, '\n', (size_t)(e - p));
        n++;
        p = nl ? nl + 1 : e;
    }
    return n;
}

static const char *comments_of(const pv_data_opts *o)
{
    return o && o->commentschars ? o->commentschars : "#";
}

void pv_data_text_summary(const pv_data_opts *o, const char *text, size_t len, int64_t skip,
                          pv_data_text_sum *sum)
{
    memset(sum, 0, sizeof *sum);
    sum->lines = pv_data_text_lines(text, len);
    int64_t run = 0;
    line_walk L = {text, text + len, skip, comments_of(o)};
    int kind;
    while (next_line(&L, &kind)) {
        if (kind == PV_DF_BLANK) {
            if (sum->ndata == 0) sum->lead_blank++;
            else run++;
        } else if (kind == PV_DF_DATA) {
            if (sum->ndata > 0 && run > 0) {
                if (run >= 2) {
                    sum->set_ends++;
                    sum->block_ends = 0;
                    sum->tail_data = 0;
                } else {
                    sum->block_ends++;
                }
                sum->tail_points = 0;
            }
            run = 0;
            sum->ndata++;
            sum->tail_points++;
            sum->tail_data++;
        }
    }
    sum->trail_blank = run;
}

/* n blank lines read from state *s (on_blank's counters). */
static void blank_lines(pv_data_state *s, int64_t n)
{
    if (!s->seen_line) return;
    for (int64_t k = 0; k < n && s->blanks < 2; k++) {
        s->blanks++;
        if (s->blanks == 1) {
            s->block++;
            s->point = 0;
        } else {
            s->index++;
            s->block = 0;
            s->datum = 0;
        }
    }
}

void pv_data_state_advance(pv_data_state *s, const pv_data_text_sum *sum)
{
    s->skip = s->skip > sum->lines ? s->skip - sum->lines : 0;
    blank_lines(s, sum->lead_blank);
    if (sum->ndata == 0) return;
    if (sum->set_ends > 0) {
        s->index += sum->set_ends;
        s->block = sum->block_ends;
        s->point = sum->tail_points;
        s->datum = sum->tail_data;
    } else if (sum->block_ends > 0) {
        s->block += sum->block_ends;
        s->point = sum->tail_points;
        s->datum += sum->ndata;
    } else {
        s->point += sum->ndata;
        s->datum += sum->ndata;
    }
    s->blanks = 0;
    s->seen_line = true;
    blank_lines(s, sum->trail_blank);
}

bool pv_data_every_all(const pv_data_spec *ds)
{
    int64_t ev[6], ilo, ihi, istep;
    pv_df_resolve_selection(ds, ev, &ilo, &ihi, &istep);
    return ev[0] == 1 && ev[1] == 1 && ev[2] == 0 && ev[3] == 0 && ev[4] == INT64_MAX &&
           ev[5] == INT64_MAX;
}

void pv_data_text_datum(const pv_data_spec *ds, const pv_data_opts *o, const pv_data_state *s,
                        const char *text, size_t len, bool *reset, int64_t *count)
{
    int64_t ev[6], ilo, ihi, istep;
    pv_df_resolve_selection(ds, ev, &ilo, &ihi, &istep);
    pv_data_state t = *s;
    *reset = false;
    *count = 0;
    line_walk L = {text, text + len, s->skip, comments_of(o)};
    int kind;
    while (next_line(&L, &kind)) {
        if (kind == PV_DF_BLANK) {
            int64_t before = t.index;
            blank_lines(&t, 1);
            if (t.index != before) *reset = true, *count = 0;
        } else if (kind == PV_DF_DATA) {
            t.blanks = 0;
            t.seen_line = true;
            int64_t p = t.point++, b = t.block;
            bool isel = ilo < 0 ||
                        (t.index >= ilo && t.index <= ihi && (t.index - ilo) % istep == 0);
            if (isel && p >= ev[2] && p <= ev[4] && (p - ev[2]) % ev[0] == 0 && b >= ev[3] &&
                b <= ev[5] && (b - ev[3]) % ev[1] == 0)
                (*count)++;
        }
    }
}

bool pv_df_fast_fields(const char *s, size_t n, int maxcol, const unsigned char *need, double *val,
                       unsigned char *bad, int *nfields)
{
    const char *p = s, *e = s + n;
    while (p < e && blank_byte(*p)) p++;
    int k = 0;
    while (p < e && k < maxcol) {
        if (*p == '"') return false; /* a quoted field: the tokeniser's rules */
        const char *f = p;
        while (p < e && !blank_byte(*p)) {
            if (*p == '\0') return false; /* the tokeniser's copy ends there */
            p++;
        }
        if (need[k]) {
            char *end = NULL;
            double d = pv_parse_double(f, e, &end);
            bad[k] = end == f;
            val[k] = end == f ? (double)NAN : d;
        }
        k++;
        if (p < e) p++;
        while (p < e && blank_byte(*p)) p++;
    }
    *nfields = k;
    return true;
}
