/*
 * core/progress.c: progress bars for long phases (fill, isosurface, frames).
 *
 * Rank 0 draws on stderr, only when --progress is on (the default when stderr is a
 * terminal). The bar is redrawn in place with '\r' at most ten times a second, so a
 * tight loop calling pv_progress_update costs a clock read. Each redraw is one fwrite.
 */
#include "pvox/core.h"

#include <string.h>

#define WIDTH 30           /* characters in the bar */
#define MIN_INTERVAL 0.1   /* seconds between redraws */

static void draw(pv_ctx *ctx, const pv_progress *p, int pct, bool final)
{
    char bar[WIDTH + 1];
    int full = pct * WIDTH / 100;
    memset(bar, '#', (size_t)full);
    memset(bar + full, ' ', (size_t)(WIDTH - full));
    bar[WIDTH] = '\0';
    char line[160];
    int n = snprintf(line, sizeof line, "\r%-12.12s [%s] %3d%% %7.1f s%s",
                     p->label ? p->label : "", bar, pct, pv_elapsed(ctx) - p->t_begin,
                     final ? "\n" : "");
    if (n > 0) {
        fwrite(line, 1, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1, stderr);
        fflush(stderr);
    }
}

void pv_progress_begin(pv_ctx *ctx, pv_progress *p, const char *label, int64_t total)
{
    p->label = label;
    p->total = total > 0 ? total : 1;
    p->t_begin = pv_elapsed(ctx);
    p->t_drawn = -1;
    p->last_pct = -1;
    p->active = ctx->rank == 0 && ctx->opt.progress;
    if (p->active) pv_progress_update(ctx, p, 0);
}

void pv_progress_update(pv_ctx *ctx, pv_progress *p, int64_t done)
{
    if (!p->active) return;
    if (done < 0) done = 0;
    if (done > p->total) done = p->total;
    int pct = (int)((double)done * 100.0 / (double)p->total);
    if (pct == p->last_pct) return;
    double now = pv_elapsed(ctx);
    if (p->t_drawn >= 0 && now - p->t_drawn < MIN_INTERVAL) return;
    p->t_drawn = now;
    p->last_pct = pct;
    draw(ctx, p, pct, false);
}

void pv_progress_end(pv_ctx *ctx, pv_progress *p)
{
    if (!p->active) return;
    draw(ctx, p, 100, true);
    p->active = false;
}
