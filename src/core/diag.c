/*
 * core/diag.c: error state, compiler-style diagnostics and the collective agreement on a
 * status.
 *
 * The first error since the last pv_err_clear() is kept in ctx->err_code / ctx->err_msg
 * (SQLite's pParse->rc / zErrMsg): the place that detects a problem reports it once, the
 * callers only pass the status up. Located messages follow compilers (and jq's
 * locfile_locate):
 *
 *     job.gp:12:9: error: undefined variable: potx
 *     print potx + 1
 *           ^
 *
 * Line and column are computed only when a message is made: the caller keeps byte offsets.
 * Columns are 1-based byte counts. The caret line copies tabs from the source line so the
 * caret sits under the right character whatever the tab width; UTF-8 continuation bytes
 * take no column on screen, so they add nothing to the caret line.
 */
#include "pvox/core.h"

#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* Longest message pv_status_agree() carries between ranks (bytes). */
#define PV_MSG_MAX 16384

const char *pv_status_str(pv_status st)
{
    switch (st) {
    case PV_OK: return "success";
    case PV_ENOMEM: return "out of memory";
    case PV_EIO: return "input/output error";
    case PV_ESYNTAX: return "syntax error";
    case PV_ESCRIPT: return "script error";
    case PV_ERANGE: return "value out of range";
    case PV_EMPI: return "MPI error";
    case PV_EHDF5: return "HDF5 error";
    case PV_EPNG: return "PNG error";
    case PV_EINTERNAL: return "internal error";
    case PV_EEXIT: return "exit requested by the script";
    case PV_EUSAGE: return "bad command line";
    }
    return "unknown error";
}

/* ---- recording errors --------------------------------------------------------------- */

/* Keep `msg` (takes ownership) as the recorded error unless one is recorded already. */
static pv_status record(pv_ctx *ctx, pv_status code, char *msg, bool located)
{
    if (ctx->err_code != PV_OK) {
        free(msg);
        return code;
    }
    ctx->err_code = code;
    free(ctx->err_msg);
    ctx->err_msg = msg ? msg : pv_asprintf("%s", pv_status_str(code));
    ctx->err_located = located;
    return code;
}

pv_status pv_err(pv_ctx *ctx, pv_status code, const char *fmt, ...)
{
    if (ctx->err_code != PV_OK) return code;
    va_list ap;
    va_start(ap, fmt);
    char *msg = pv_vasprintf(fmt, ap);
    va_end(ap);
    return record(ctx, code, msg, false);
}

void pv_err_clear(pv_ctx *ctx)
{
    ctx->err_code = PV_OK;
    free(ctx->err_msg);
    ctx->err_msg = NULL;
    ctx->err_located = false;
    ctx->err_agreed = false;
    ctx->err_detail = 0;
}

/* ---- locating ----------------------------------------------------------------------- */

void pv_locate(const char *text, size_t len, int first_line, size_t off, pv_loc *loc)
{
    if (off > len) off = len;
    /* An offset at the very end of text that ends in a newline ("unexpected end of
     * input") is shown at the end of the last line, not on an empty line after it. */
    if (off == len && len > 0 && text[len - 1] == '\n') off = len - 1;
    int line = first_line;
    size_t start = 0;
    for (size_t i = 0; i < off; i++) {
        if (text[i] == '\n') {
            line++;
            start = i + 1;
        }
    }
    size_t end = off;
    while (end < len && text[end] != '\n') end++;
    size_t shown = end;
    if (shown > start && text[shown - 1] == '\r') shown--;
    loc->line = line;
    loc->col = off - start + 1;
    loc->line_start = start;
    loc->line_len = shown - start;
    loc->off = off;
}

char *pv_diag_format(const char *name, const char *text, size_t len, int first_line,
                     size_t off, const char *kind, const char *msg)
{
    if (!name) name = "<input>";
    if (!kind) kind = "error";
    if (!msg) msg = "";
    if (!text) return pv_asprintf("%s: %s: %s", name, kind, msg);
    pv_loc loc;
    pv_locate(text, len, first_line, off, &loc);
    /* caret line: at most one byte per source byte before the column, plus '^' */
    size_t ncaret = loc.off - loc.line_start;
    char *caret = malloc(ncaret + 2);
    if (!caret) return NULL;
    size_t k = 0;
    for (size_t i = loc.line_start; i < loc.off; i++) {
        unsigned char c = (unsigned char)text[i];
        if (c == '\t') {
            caret[k++] = '\t';
        } else if (c < 0x80 || c >= 0xC0) { /* skip UTF-8 continuation bytes */
            caret[k++] = ' ';
        }
    }
    caret[k++] = '^';
    caret[k] = '\0';
    if (loc.line_len > INT_MAX) loc.line_len = INT_MAX;
    char *s = pv_asprintf("%s:%d:%zu: %s: %s\n%.*s\n%s", name, loc.line, loc.col, kind, msg,
                          (int)loc.line_len, text + loc.line_start, caret);
    free(caret);
    return s;
}

pv_status pv_diag_at(pv_ctx *ctx, pv_status code, const char *name, const char *text,
                     size_t len, int first_line, size_t off, const char *fmt, ...)
{
    if (ctx->err_code != PV_OK) return code;
    va_list ap;
    va_start(ap, fmt);
    char *msg = pv_vasprintf(fmt, ap);
    va_end(ap);
    char *full = pv_diag_format(name, text, len, first_line, off, "error", msg ? msg : "");
    free(msg);
    return record(ctx, code, full, true);
}

pv_status pv_err_locate(pv_ctx *ctx, const char *name, const char *text, size_t len,
                        int first_line, size_t off)
{
    if (ctx->err_code == PV_OK || ctx->err_code == PV_EEXIT || ctx->err_located)
        return ctx->err_code;
    char *full = pv_diag_format(name, text, len, first_line, off, "error",
                                ctx->err_msg ? ctx->err_msg : pv_status_str(ctx->err_code));
    if (full) {
        free(ctx->err_msg);
        ctx->err_msg = full;
        ctx->err_located = true;
    }
    return ctx->err_code;
}

void pv_warn_at(pv_ctx *ctx, const char *name, const char *text, size_t len, int first_line,
                size_t off, const char *fmt, ...)
{
    if (ctx->rank != 0 || (int)ctx->opt.log_level < (int)PV_LOG_WARN) return;
    va_list ap;
    va_start(ap, fmt);
    char *msg = pv_vasprintf(fmt, ap);
    va_end(ap);
    char *full = pv_diag_format(name, text, len, first_line, off, "warning", msg ? msg : "");
    free(msg);
    if (full) pv_msg(ctx, "%s\n", full);
    free(full);
}

/* ---- agreement ---------------------------------------------------------------------- */

pv_status pv_status_agree(pv_ctx *ctx, pv_status st)
{
    /* A failure every rank has agreed already needs no second round: the ranks leave by
     * different paths (one from the command, the others from a read inside it) and may
     * meet different numbers of agreement points on the way out; they must not wait for
     * each other there. */
    if (ctx->err_agreed && ctx->err_code != PV_OK) return ctx->err_code;
    /* The error recorded first is the cause; a caller may return another code after it
     * (an allocation fails, then its caller reports a script error): the exit code
     * follows the message. */
    if (st != PV_OK && st != PV_EEXIT && ctx->err_code != PV_OK && ctx->err_code != PV_EEXIT)
        st = ctx->err_code;
    /* One reduction finds both the worst status and the lowest failing rank (as the
     * largest -rank): two ints, MAX, no derived types. */
    int in[2] = {(int)st, st != PV_OK ? -ctx->rank : INT_MIN};
    int out[2];
    if (MPI_Allreduce(in, out, 2, MPI_INT, MPI_MAX, ctx->comm) != MPI_SUCCESS) {
        pv_err_clear(ctx);
        return pv_err(ctx, PV_EMPI, "MPI_Allreduce failed while agreeing on a status");
    }
    if (out[0] == PV_OK) return PV_OK;
    int root = -out[1];
    /* header: status of the root, script exit code, located flag, message length, detail */
    long long hdr[5] = {0, 0, 0, 0, 0};
    if (ctx->rank == root) {
        if (ctx->err_code == PV_OK || !ctx->err_msg) {
            pv_err_clear(ctx);
            record(ctx, st, NULL, false);
        }
        size_t n = ctx->err_msg ? strlen(ctx->err_msg) : 0;
        hdr[0] = st;
        hdr[1] = ctx->exit_code;
        hdr[2] = ctx->err_located;
        hdr[3] = (long long)(n < PV_MSG_MAX ? n : PV_MSG_MAX); /* longer ones are cut */
        hdr[4] = ctx->err_detail;
    }
    if (MPI_Bcast(hdr, 5, MPI_LONG_LONG, root, ctx->comm) != MPI_SUCCESS) goto mpi_fail;
    /* A fixed-size buffer on the stack: receivers cannot fail to allocate mid-collective. */
    char buf[PV_MSG_MAX + 1];
    if (ctx->rank == root && hdr[3] > 0) memcpy(buf, ctx->err_msg, (size_t)hdr[3]);
    if (hdr[3] > 0 && MPI_Bcast(buf, (int)hdr[3], MPI_CHAR, root, ctx->comm) != MPI_SUCCESS)
        goto mpi_fail;
    buf[hdr[3]] = '\0';
    if (ctx->rank != root) {
        free(ctx->err_msg);
        ctx->err_msg = pv_asprintf("%s", hdr[3] > 0 ? buf : pv_status_str((pv_status)hdr[0]));
        ctx->err_located = hdr[2] != 0;
        ctx->exit_code = (int)hdr[1];
        ctx->err_detail = (int)hdr[4];
    }
    ctx->err_code = (pv_status)out[0];
    ctx->err_agreed = true;
    return ctx->err_code;
mpi_fail:
    pv_err_clear(ctx);
    return pv_err(ctx, PV_EMPI, "MPI_Bcast failed while agreeing on a status");
}

int pv_status_exit_code(pv_status st)
{
    switch (st) {
    case PV_OK:
    case PV_EEXIT: return PV_EXIT_OK;
    case PV_ESYNTAX:
    case PV_ESCRIPT:
    case PV_ERANGE: return PV_EXIT_SCRIPT;
    case PV_EUSAGE: return PV_EXIT_USAGE;
    default: return PV_EXIT_RUNTIME;
    }
}

void pv_err_print(pv_ctx *ctx)
{
    if (ctx->rank != 0 || ctx->err_code == PV_OK || ctx->err_code == PV_EEXIT) return;
    const char *msg = ctx->err_msg ? ctx->err_msg : pv_status_str(ctx->err_code);
    if (ctx->err_located)
        pv_msg(ctx, "%s\n", msg);
    else
        pv_msg(ctx, "pvox: error: %s\n", msg);
}
