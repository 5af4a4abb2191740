/*
 * core/progress.c: progress bars for long phases (fill, isosurface, frames, checkpoints).
 *
 * Rank 0 draws on stderr, only when --progress is on (the default when stderr is a
 * terminal). The line is label, bar, done/total, rate and time left:
 *     frames       [###                           ]  12%  12/100  3.4 frames/s  26 s left
 * It is redrawn in place with '\r' at most ten times a second (when the percentage moves,
 * or once a second so the time left stays current), so a tight loop calling
 * pv_progress_update costs a clock read. A line shorter than the last one is padded with
 * blanks so no stale characters remain (no terminal escapes: --progress also draws into
 * files). Each redraw is one fwrite. The text itself comes from pv_progress_format, which
 * tests call without a terminal.
 */
#include "pvox/core.h"

#include <string.h>

#define WIDTH 30          /* characters in the bar */
#define MIN_INTERVAL 0.1  /* seconds between redraws */
#define MAX_INTERVAL 1.0  /* redraw at least this often while updates come (time left) */
#define LINE_MAX 256      /* bytes of a drawn line */

/* ---- formatting -------------------------------------------------------------------- */

/* Append to buf[*len..n) like snprintf, keeping *len at the text's length (truncated). */
static void put(char *buf, size_t n, size_t *len, const char *fmt, ...) PV_PRINTF(4, 5);
static void put(char *buf, size_t n, size_t *len, const char *fmt, ...)
{
    if (*len + 1 >= n) return;
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(buf + *len, n - *len, fmt, ap);
    va_end(ap);
    if (k < 0) return;
    *len += (size_t)k < n - *len ? (size_t)k : n - *len - 1;
}

/* A byte unit for amounts up to `total`: the largest of KiB..TiB not above it. */
static void byte_unit(int64_t total, const char **name, double *scale)
{
    static const char *const names[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int u = 0;
    double s = 1;
    while (u < 4 && (double)total >= s * 1024.0) {
        s *= 1024.0;
        u++;
    }
    *name = names[u];
    *scale = s;
}

/* An amount of units per second: three significant digits or so, no exponent. */
static void put_rate(char *buf, size_t n, size_t *len, double rate)
{
    if (rate >= 100) put(buf, n, len, "%.0f", rate);
    else if (rate >= 0.1) put(buf, n, len, "%.1f", rate);
    else put(buf, n, len, "%.2g", rate);
}

/* A duration: "26 s", "4 min 05 s", "3 h 12 min". */
static void put_secs(char *buf, size_t n, size_t *len, double secs)
{
    if (!(secs >= 0)) secs = 0;
    if (secs < 60) {
        put(buf, n, len, "%.0f s", secs);
        return;
    }
    if (secs > 359999) secs = 359999; /* 99 h 59 min: beyond it the estimate means little */
    long s = (long)(secs + 0.5);
    if (s < 3600) put(buf, n, len, "%ld min %02ld s", s / 60, s % 60);
    else put(buf, n, len, "%ld h %02ld min", s / 3600, (s % 3600) / 60);
}

size_t pv_progress_format(char *buf, size_t n, const pv_progress *p, int64_t done, double now)
{
    if (n == 0) return 0;
    buf[0] = '\0';
    size_t len = 0;
    int64_t total = p->total > 0 ? p->total : 1;
    if (done < 0) done = 0;
    if (done > total) done = total;
    int full = (int)((double)done * WIDTH / (double)total);
    char bar[WIDTH + 1];
    memset(bar, '#', (size_t)full);
    memset(bar + full, ' ', (size_t)(WIDTH - full));
    bar[WIDTH] = '\0';
    int pct = (int)((double)done * 100.0 / (double)total);
    put(buf, n, &len, "%-12.12s [%s] %3d%%  ", p->label ? p->label : "", bar, pct);

    bool bytes = p->units && strcmp(p->units, "bytes") == 0;
    const char *unit = "";
    double scale = 1;
    if (bytes) {
        byte_unit(total, &unit, &scale);
        int prec = scale > 1 ? 1 : 0;
        put(buf, n, &len, "%.*f/%.*f %s", prec, (double)done / scale, prec,
            (double)total / scale, unit);
    } else {
        int digits = snprintf(NULL, 0, "%lld", (long long)total);
        put(buf, n, &len, "%*lld/%lld", digits, (long long)done, (long long)total);
    }

    double secs = now - p->t_begin;
    if (done > 0 && secs > 0) {
        double rate = (double)done / secs;
        put(buf, n, &len, "  ");
        if (bytes) {
            const char *ru;
            double rs;
            byte_unit((int64_t)rate, &ru, &rs);
            put_rate(buf, n, &len, rate / rs);
            put(buf, n, &len, " %s/s", ru);
        } else {
            put_rate(buf, n, &len, rate);
            if (p->units && *p->units) put(buf, n, &len, " %s/s", p->units);
            else put(buf, n, &len, "/s");
        }
        put(buf, n, &len, "  ");
        if (done >= total) {
            put(buf, n, &len, "in ");
            put_secs(buf, n, &len, secs);
        } else {
            put_secs(buf, n, &len, (double)(total - done) / rate);
            put(buf, n, &len, " left");
        }
    }
    return len;
}

/* ---- drawing ----------------------------------------------------------------------- */

static void draw(pv_ctx *ctx, pv_progress *p, int64_t done, bool final)
{
    char line[LINE_MAX + 2];
    line[0] = '\r';
    size_t len = 1 + pv_progress_format(line + 1, LINE_MAX - 1, p, done, pv_elapsed(ctx));
    size_t text = len - 1;
    while ((int)text < p->last_len && len < LINE_MAX) { /* blank what the last line had */
        line[len++] = ' ';
        text++;
    }
    p->last_len = (int)(len - 1);
    if (final) line[len++] = '\n';
    fwrite(line, 1, len, stderr);
    fflush(stderr);
}

void pv_progress_begin_units(pv_ctx *ctx, pv_progress *p, const char *label, int64_t total,
                             const char *units)
{
    p->label = label;
    p->units = units;
    p->total = total > 0 ? total : 1;
    p->t_begin = pv_elapsed(ctx);
    p->t_drawn = -1;
    p->last_pct = -1;
    p->last_len = 0;
    p->done = 0;
    p->active = ctx->rank == 0 && ctx->opt.progress;
    if (p->active) pv_progress_update(ctx, p, 0);
}

void pv_progress_begin(pv_ctx *ctx, pv_progress *p, const char *label, int64_t total)
{
    pv_progress_begin_units(ctx, p, label, total, NULL);
}

void pv_progress_update(pv_ctx *ctx, pv_progress *p, int64_t done)
{
    if (!p->active) return;
    if (done < 0) done = 0;
    if (done > p->total) done = p->total;
    p->done = done;
    int pct = (int)((double)done * 100.0 / (double)p->total);
    double now = pv_elapsed(ctx);
    if (p->t_drawn >= 0) {
        double since = now - p->t_drawn;
        if (since < MIN_INTERVAL || (pct == p->last_pct && since < MAX_INTERVAL)) return;
    }
    p->t_drawn = now;
    p->last_pct = pct;
    draw(ctx, p, done, false);
}

void pv_progress_end(pv_ctx *ctx, pv_progress *p)
{
    if (!p->active) return;
    draw(ctx, p, p->total, true);
    p->active = false;
}

void pv_progress_stop(pv_ctx *ctx, pv_progress *p)
{
    if (!p->active) return;
    draw(ctx, p, p->done, true);
    p->active = false;
}
