/*
 * core/log.c: rank-aware logging to stderr (STYLE-6, after Redis's serverLog).
 *
 * Line format: "[  12.345] r3/64 WARN  grid: message" (seconds since the context was
 * created, rank/ranks, level, module). Info and debug come from rank 0 only unless
 * --log-all-ranks; warnings and errors come from any rank. Each line is formatted into one
 * buffer and written with a single fwrite, so lines from different ranks and threads do
 * not interleave mid-line. The pv_log() macro tests the level before any formatting.
 */
#include "pvox/core.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static const char *const level_names[] = {"ERROR", "WARN", "INFO", "DEBUG"};

/* Write `s` (length n) to stderr in one call and flush. */
static void put(const char *s, size_t n)
{
    fwrite(s, 1, n, stderr);
    fflush(stderr);
}

static void log_line(pv_ctx *ctx, pv_log_level lvl, const char *module, const char *fmt,
                     va_list ap)
{
    char *msg = pv_vasprintf(fmt, ap);
    int il = (int)lvl;
    const char *name = il >= 0 && il <= 3 ? level_names[il] : "?";
    char *line = pv_asprintf("[%8.3f] r%d/%d %-5s %s: %s\n", pv_elapsed(ctx), ctx->rank,
                             ctx->nranks, name, module ? module : "pvox",
                             msg ? msg : fmt);
    if (line) put(line, strlen(line));
    free(line);
    free(msg);
}

void pv_log_write(pv_ctx *ctx, pv_log_level lvl, const char *module, const char *fmt, ...)
{
    if ((int)lvl > (int)ctx->opt.log_level) return;
    if (lvl >= PV_LOG_INFO && ctx->rank != 0 && !ctx->opt.log_all_ranks) return;
    va_list ap;
    va_start(ap, fmt);
    log_line(ctx, lvl, module, fmt, ap);
    va_end(ap);
}

void pv_log_here(pv_ctx *ctx, pv_log_level lvl, const char *module, const char *fmt, ...)
{
    if ((int)lvl > (int)ctx->opt.log_level) return;
    va_list ap;
    va_start(ap, fmt);
    log_line(ctx, lvl, module, fmt, ap);
    va_end(ap);
}

void pv_msg(pv_ctx *ctx, const char *fmt, ...)
{
    if (ctx->rank != 0) return;
    va_list ap;
    va_start(ap, fmt);
    char *msg = pv_vasprintf(fmt, ap);
    va_end(ap);
    if (msg) put(msg, strlen(msg));
    free(msg);
}

void pv_warn_once(pv_ctx *ctx, int bit, const char *fmt, ...)
{
    if (bit >= 0 && bit <= 30) {
        if (ctx->warned_once_bits & (1 << bit)) return;
        ctx->warned_once_bits |= 1 << bit;
    }
    if (ctx->rank != 0 || (int)ctx->opt.log_level < (int)PV_LOG_WARN) return;
    va_list ap;
    va_start(ap, fmt);
    char *msg = pv_vasprintf(fmt, ap);
    va_end(ap);
    pv_msg(ctx, "pvox: warning: %s\n", msg ? msg : fmt);
    free(msg);
}
