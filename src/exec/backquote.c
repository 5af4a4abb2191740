/*
 * exec/backquote.c: gnuplot's command substitution. A `shell command` in backquotes is
 * replaced by the command's output (without its final newline) when the script is read,
 * before it is checked or run, as gnuplot does when it reads a line: inside double-quoted
 * strings too, not inside single-quoted strings or comments.
 *
 * SPMD: rank 0 runs each command once and broadcasts its output (pv_exec_shell_output),
 * so every rank reads the same text.
 */
#define _POSIX_C_SOURCE 200809L
#include "exec_int.h"

#include <stdlib.h>
#include <string.h>

/* Offset of the next substitutable backquote at or after `from`, or len if none. */
static size_t next_backquote(const char *t, size_t len, size_t from, char *quote, bool *comment)
{
    for (size_t i = from; i < len; i++) {
        char ch = t[i];
        if (*comment) {
            if (ch == '\n') *comment = false;
            continue;
        }
        if (*quote == '\'') {
            if (ch == '\'') *quote = 0;
            else if (ch == '\n') *quote = 0; /* unterminated: closes at the line end */
            continue;
        }
        if (*quote == '"') {
            if (ch == '\\' && i + 1 < len) i++;
            else if (ch == '"' || ch == '\n') *quote = 0;
            else if (ch == '`') return i;
            continue;
        }
        if (ch == '#') *comment = true;
        else if (ch == '\'' || ch == '"') *quote = ch;
        else if (ch == '`') return i;
    }
    return len;
}

pv_status pv_exec_backquotes(pv_interp *I, pv_source **srcp)
{
    pv_source *src = *srcp;
    const char *t = src->text;
    size_t len = src->len;
    char quote = 0;
    bool comment = false;
    size_t at = next_backquote(t, len, 0, &quote, &comment);
    if (at == len) return PV_OK;
    pv_strbuf B = {0};
    size_t from = 0;
    pv_status st = PV_OK;
#define PUT(s, n) (st = st == PV_OK ? pv_strbuf_put(I->ctx, &B, (s), (n)) : st)
    while (at < len && st == PV_OK) {
        const char *close = memchr(t + at + 1, '`', len - at - 1);
        const char *eol = memchr(t + at + 1, '\n', len - at - 1);
        if (!close || (eol && eol < close)) {
            st = pv_source_error(I->ctx, PV_ESYNTAX, src, at, "unmatched `");
            break;
        }
        size_t end = (size_t)(close - t);
        PUT(t + from, at - from);
        char *cmd = strndup(t + at + 1, end - at - 1);
        char *out = NULL;
        size_t olen = 0;
        if (!cmd) st = pv_err(I->ctx, PV_ENOMEM, "out of memory");
        if (st == PV_OK) st = pv_exec_shell_gate(I, src, at, "`command`");
        if (st == PV_OK) st = pv_exec_shell_output(I, cmd, &out, &olen, NULL);
        free(cmd);
        PUT(out ? out : "", olen);
        free(out);
        from = end + 1;
        at = next_backquote(t, len, from, &quote, &comment);
    }
    PUT(t + from, len - from);
#undef PUT
    if (st == PV_OK) {
        pv_source *ns = pv_source_create(I->ctx, src->name, B.s, B.len, src->first_line);
        if (!ns) st = I->ctx->err_code ? I->ctx->err_code : PV_ENOMEM;
        else {
            ns->stdin_data = src->stdin_data;
            pv_source_destroy(src);
            *srcp = ns;
        }
    }
    pv_strbuf_free(I->ctx, &B);
    return st;
}
