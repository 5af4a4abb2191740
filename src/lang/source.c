/*
 * Sources: the text of a script or command with its line map, and located diagnostics
 * (through core's pv_diag_at). Also small string helpers used across lang.
 */
#include "lang_int.h"

#include <stdlib.h>
#include <string.h>

char *pvl_strndup(const char *s, size_t n)
{
    char *p = malloc(n + 1);
    if (!p) return NULL;
    memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

char *pvl_strdup(const char *s) { return pvl_strndup(s, strlen(s)); }

pv_source *pv_source_create(pv_ctx *ctx, const char *name, const char *text, size_t len,
                            int first_line)
{
    pv_source *s = calloc(1, sizeof *s);
    if (!s) goto fail;
    s->name = pvl_strdup(name ? name : "-");
    s->text = pvl_strndup(text, len);
    s->len = len;
    s->first_line = first_line;
    size_t n = 1;
    for (size_t i = 0; i < len; i++)
        if (text[i] == '\n') n++;
    s->line_off = malloc(n * sizeof *s->line_off);
    if (!s->name || !s->text || !s->line_off) goto fail;
    s->line_off[0] = 0;
    s->nlines = 1;
    for (size_t i = 0; i < len; i++)
        if (text[i] == '\n') s->line_off[s->nlines++] = i + 1;
    return s;
fail:
    pv_source_destroy(s);
    pv_err(ctx, PV_ENOMEM, "out of memory");
    return NULL;
}

void pv_source_destroy(pv_source *src)
{
    if (!src) return;
    free(src->name);
    free(src->text);
    free(src->line_off);
    free(src);
}

void pv_source_locate(const pv_source *src, size_t off, int *line, int *col)
{
    int lo = 0, hi = src->nlines - 1;
    while (lo < hi) { /* last line start <= off */
        int mid = (lo + hi + 1) / 2;
        if (src->line_off[mid] <= off) lo = mid;
        else hi = mid - 1;
    }
    if (line) *line = src->first_line + lo;
    if (col) *col = (int)(off - src->line_off[lo]) + 1;
}

pv_status pv_source_error(pv_ctx *ctx, pv_status code, const pv_source *src, size_t off,
                          const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *msg = pv_vasprintf(fmt, ap);
    va_end(ap);
    if (src)
        pv_diag_at(ctx, code, src->name, src->text, src->len, src->first_line, off, "%s",
                   msg ? msg : "out of memory");
    else
        pv_err(ctx, code, "%s", msg ? msg : "out of memory");
    free(msg);
    return code;
}

void pv_source_warn(pv_ctx *ctx, const pv_source *src, size_t off, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *msg = pv_vasprintf(fmt, ap);
    va_end(ap);
    if (src)
        pv_warn_at(ctx, src->name, src->text, src->len, src->first_line, off, "%s",
                   msg ? msg : "out of memory");
    else
        pv_msg(ctx, "warning: %s\n", msg ? msg : "out of memory");
    free(msg);
}
