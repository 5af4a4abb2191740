/*
 * Lexer: gnuplot 5.4 tokens with byte offsets.
 *
 * Rules measured against gnuplot 5.4.4: integers with a leading 0 are octal and stop at
 * the first non-octal digit ("08" is 0 then 8), 0x is hex, a number with '.' or an
 * exponent (e/E) is real, ".5" is a number (so `"a".1` is a string then .1); double-quoted
 * strings (an unterminated one is an error; gnuplot closes it at the line end) decode
 * \n \t \r \a \b \f \v \\ \" and \ooo octal, any other escaped character stands for
 * itself; single-quoted strings have no escapes and '' for a quote. A `#` comment runs
 * to the end of the line and a `\` at its end continues it onto the next line.
 * `\`+newline joins lines. A statement `$name << WORD` ends a line whose following
 * raw lines, up to one that starts with WORD (prefix match, as gnuplot), form the datablock
 * body: one PV_TK_HEREDOC token. A line whose commands read inline data '-' (which ones
 * and how many blocks: lex_inline.c) is followed by its blocks, each up to a line whose
 * first non-blank character is 'e' or 'E' (or the end of the source, as gnuplot): one
 * PV_TK_INLINE token per block after the line's NEWLINE; those lines are never lexed.
 */
#include "lang_int.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

typedef struct lexer {
    pv_ctx *ctx;
    const pv_source *src;
    const char *t;
    size_t len, pos;
    pv_token *tok;
    size_t ntok, cap;
    size_t stmt_start;      /* index of the first token of the current statement */
    size_t line_start;      /* index of the first token of the current line */
    int depth;              /* brace depth at the start of the current line */
    size_t last_plot;       /* inline blocks of the last plot/splot (for replot) */
} lexer;

static pv_token *push(lexer *L, pv_tok_kind kind, size_t start, size_t end)
{
    if (L->ntok == L->cap) {
        size_t nc = L->cap ? 2 * L->cap : 64;
        pv_token *nt = realloc(L->tok, nc * sizeof *nt);
        if (!nt) {
            pv_err(L->ctx, PV_ENOMEM, "out of memory");
            return NULL;
        }
        L->tok = nt;
        L->cap = nc;
    }
    pv_token *k = &L->tok[L->ntok++];
    memset(k, 0, sizeof *k);
    k->kind = kind;
    k->start = start;
    k->end = end;
    return k;
}

static pv_status lex_error(lexer *L, size_t off, const char *msg)
{
    return pv_source_error(L->ctx, PV_ESYNTAX, L->src, off, "%s", msg);
}

/* Skip blanks, `\`-newline continuations and comments. */
static void skip_space(lexer *L)
{
    for (;;) {
        char c = L->pos < L->len ? L->t[L->pos] : '\0';
        if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
            L->pos++;
        } else if (c == '\\' && L->pos + 1 < L->len && L->t[L->pos + 1] == '\n') {
            L->pos += 2;
        } else if (c == '\\' && L->pos + 2 < L->len && L->t[L->pos + 1] == '\r' &&
                   L->t[L->pos + 2] == '\n') {
            L->pos += 3;
        } else if (c == '#') {
            while (L->pos < L->len && L->t[L->pos] != '\n') {
                if (L->t[L->pos] == '\\' && L->pos + 1 < L->len && L->t[L->pos + 1] == '\n')
                    L->pos++; /* continued comment */
                else if (L->t[L->pos] == '\\' && L->pos + 2 < L->len &&
                         L->t[L->pos + 1] == '\r' && L->t[L->pos + 2] == '\n')
                    L->pos += 2;
                L->pos++;
            }
        } else {
            return;
        }
    }
}

/* An integer literal; one that overflows int64 becomes the real value of its text read by
 * strtod, with gnuplot's warning (so 0xffffffffffffffff is 1.84467440737096e+19 and an
 * overflowing octal literal is read as decimal digits, as gnuplot does). */
static pv_status int_token(lexer *L, size_t s, size_t p, int64_t v, bool overflow)
{
    pv_token *k = push(L, overflow ? PV_TK_REAL : PV_TK_INT, s, p);
    if (!k) return PV_ENOMEM;
    L->pos = p;
    if (!overflow) {
        k->ival = v;
        return PV_OK;
    }
    char *buf = pvl_strndup(L->t + s, p - s);
    if (!buf) return pv_err(L->ctx, PV_ENOMEM, "out of memory");
    k->dval = strtod(buf, NULL);
    free(buf);
    pv_source_warn(L->ctx, L->src, s, "integer overflow; changing to floating point");
    return PV_OK;
}

static pv_status lex_number(lexer *L)
{
    const char *t = L->t;
    size_t s = L->pos, p = s;
    if (t[p] == '0' && (t[p + 1] == 'x' || t[p + 1] == 'X') && isxdigit((unsigned char)t[p + 2])) {
        p += 2;
        uint64_t v = 0;
        bool big = false;
        while (isxdigit((unsigned char)t[p])) {
            int d = isdigit((unsigned char)t[p]) ? t[p] - '0' : (tolower((unsigned char)t[p]) - 'a' + 10);
            big |= v > (UINT64_MAX >> 4) || v * 16 + (uint64_t)d > (uint64_t)INT64_MAX;
            v = v * 16 + (uint64_t)d;
            p++;
        }
        return int_token(L, s, p, (int64_t)v, big);
    }
    while (isdigit((unsigned char)t[p])) p++;
    bool real = false;
    if (t[p] == '.') {
        real = true;
        p++;
        while (isdigit((unsigned char)t[p])) p++;
    }
    if (t[p] == 'e' || t[p] == 'E') {
        size_t q = p + 1;
        if (t[q] == '+' || t[q] == '-') q++;
        if (!isdigit((unsigned char)t[q])) return lex_error(L, s, "expecting exponent");
        while (isdigit((unsigned char)t[q])) q++;
        p = q;
        real = true;
    }
    if (real) {
        pv_token *k = push(L, PV_TK_REAL, s, p);
        if (!k) return PV_ENOMEM;
        k->dval = strtod(t + s, NULL);
        L->pos = p;
        return PV_OK;
    }
    if (t[s] == '0') { /* octal: stop at the first non-octal digit */
        p = s + 1;
        uint64_t v = 0;
        bool big = false;
        while (t[p] >= '0' && t[p] <= '7') {
            big |= v > ((uint64_t)INT64_MAX >> 3) || v * 8 + (uint64_t)(t[p] - '0') > (uint64_t)INT64_MAX;
            v = v * 8 + (uint64_t)(t[p++] - '0');
        }
        return int_token(L, s, p, (int64_t)v, big);
    }
    errno = 0;
    long long v = strtoll(t + s, NULL, 10);
    return int_token(L, s, p, v, errno == ERANGE);
}

static pv_status lex_string(lexer *L)
{
    const char *t = L->t;
    size_t s = L->pos, p = s + 1;
    char q = t[s];
    char *buf = malloc(L->len - s + 1);
    size_t n = 0;
    if (!buf) return pv_err(L->ctx, PV_ENOMEM, "out of memory");
    for (;;) {
        if (p >= L->len || t[p] == '\n') break; /* closed at the line end, as gnuplot */
        char c = t[p];
        if (q == '\'') {
            if (c == '\'') {
                if (p + 1 < L->len && t[p + 1] == '\'') {
                    buf[n++] = '\'';
                    p += 2;
                    continue;
                }
                p++;
                break;
            }
            buf[n++] = c;
            p++;
            continue;
        }
        if (c == '"') {
            p++;
            break;
        }
        if (c == '\\' && p + 1 < L->len) {
            char e = t[p + 1];
            p += 2;
            switch (e) {
            case 'n': buf[n++] = '\n'; break;
            case 't': buf[n++] = '\t'; break;
            case 'r': buf[n++] = '\r'; break;
            case 'a': buf[n++] = '\a'; break;
            case 'b': buf[n++] = '\b'; break;
            case 'f': buf[n++] = '\f'; break;
            case 'v': buf[n++] = '\v'; break;
            case '\n': break; /* continuation inside a string */
            default:
                if (e >= '0' && e <= '7') {
                    int v = e - '0', k = 1;
                    while (k < 3 && t[p] >= '0' && t[p] <= '7') {
                        v = v * 8 + (t[p++] - '0');
                        k++;
                    }
                    buf[n++] = (char)v;
                } else {
                    buf[n++] = e;
                }
            }
            continue;
        }
        buf[n++] = c;
        p++;
    }
    buf[n] = '\0';
    pv_token *k = push(L, PV_TK_STRING, s, p);
    if (!k) {
        free(buf);
        return PV_ENOMEM;
    }
    k->sval = buf;
    k->slen = n;
    k->op[0] = q;
    L->pos = p;
    return PV_OK;
}

static bool is_name_start(char c) { return isalpha((unsigned char)c) || c == '_' || (c & 0x80); }
static bool is_name_char(char c) { return isalnum((unsigned char)c) || c == '_' || (c & 0x80); }

/* A block token (datablock or inline data) holding the lines [body, p); p starts the
 * terminator line (or is the end of the text): L->pos goes past that line, *eol is its
 * end. */
static pv_status push_block(lexer *L, pv_tok_kind kind, size_t body, size_t p, size_t *eol)
{
    pv_token *k = push(L, kind, body, p);
    if (!k) return PV_ENOMEM;
    k->sval = pvl_strndup(L->t + body, p - body);
    if (!k->sval) return pv_err(L->ctx, PV_ENOMEM, "out of memory");
    k->slen = p - body;
    while (p < L->len && L->t[p] != '\n') p++;
    *eol = p;
    L->pos = p < L->len ? p + 1 : p;
    return PV_OK;
}

/* After a NEWLINE: if the statement just ended was `$name << WORD`, read the body. */
static pv_status maybe_heredoc(lexer *L, size_t nl_index)
{
    size_t first = L->stmt_start;
    if (nl_index - first != 3) return PV_OK;
    pv_token *a = &L->tok[first], *b = a + 1, *c = a + 2;
    if (a->kind != PV_TK_DOLLAR || b->kind != PV_TK_OP || strcmp(b->op, "<<") != 0 ||
        c->kind != PV_TK_NAME)
        return PV_OK;
    const char *word = c->sval;
    size_t wl = strlen(word);
    size_t body = L->pos, p = body;
    for (;;) {
        if (p >= L->len) {
            /* gnuplot ends the datablock at the end of the file silently; a mistyped
             * terminator would have made the rest of the script data, so pvox says so */
            pv_source_warn(L->ctx, L->src, c->start,
                           "datablock runs to the end of the file: no line '%s' ends it", word);
            break;
        }
        if (L->len - p >= wl && memcmp(L->t + p, word, wl) == 0) break;
        while (p < L->len && L->t[p] != '\n') p++;
        if (p < L->len) p++;
    }
    size_t e;
    pv_status st = push_block(L, PV_TK_HEREDOC, body, p, &e);
    if (st != PV_OK) return st;
    if (!push(L, PV_TK_NEWLINE, e, L->pos)) return PV_ENOMEM;
    return PV_OK;
}

/* Is the line at p the end of an inline data block (first non-blank is 'e' or 'E')? */
static bool inline_end_line(const lexer *L, size_t p)
{
    while (p < L->len && (L->t[p] == ' ' || L->t[p] == '\t' || L->t[p] == '\r' ||
                          L->t[p] == '\v' || L->t[p] == '\f'))
        p++;
    return p < L->len && (L->t[p] == 'e' || L->t[p] == 'E');
}

/* One inline block from L->pos: a PV_TK_INLINE token; L->pos goes past its `e` line.
 * *open is set when the source ended before the terminator line. */
static pv_status inline_block(lexer *L, bool *open)
{
    size_t body = L->pos, p = body;
    while (p < L->len && !inline_end_line(L, p)) {
        while (p < L->len && L->t[p] != '\n') p++;
        if (p < L->len) p++;
    }
    *open = p >= L->len;
    size_t e;
    return push_block(L, PV_TK_INLINE, body, p, &e);
}

/* After the line [L->line_start, hi): take the inline blocks its commands read and link
 * each '-' source (or replot) to its first block. */
static pv_status maybe_inline(lexer *L, size_t hi)
{
    size_t lo = L->line_start, n = 0;
    if (L->src->stdin_data) return PV_OK;
    pv_status st = pvl_inline_scan(L->ctx, L->src, L->tok, lo, hi, &L->depth, &L->last_plot, &n);
    if (st != PV_OK || n == 0) return st;
    size_t next = L->ntok;
    bool open = false;
    for (size_t k = 0; k < n; k++)
        if ((st = inline_block(L, &open)) != PV_OK) return st;
    size_t reader = hi;
    for (size_t i = lo; i < hi; i++) {
        if (L->tok[i].data_count == 0) continue;
        if (reader == hi) reader = i;
        L->tok[i].data_first = next;
        next += L->tok[i].data_count;
    }
    /* gnuplot ends the data at the end of the file silently; a forgotten `e` would have
     * made the rest of the script data, so pvox says so */
    if (open)
        pv_source_warn(L->ctx, L->src, L->tok[reader].start,
                       "inline data runs to the end of the file: no line 'e' ends it");
    return PV_OK;
}

static const char *const ops2[] = {"**", "==", "!=", "<=", ">=", "<<", ">>", "&&", "||", NULL};

/* `!command` at the start of a line: gnuplot hands the rest of the line to the shell as it
 * is (a `#` or `;` in it is the shell's), continuation lines joined. Tokens: the operator
 * `!`, then the command as one string. */
static pv_status lex_shell(lexer *L)
{
    size_t s = L->pos, p = s + 1;
    pv_token *bang = push(L, PV_TK_OP, s, p);
    if (!bang) return PV_ENOMEM;
    bang->op[0] = '!';
    size_t n = 0, cap = 64;
    char *cmd = malloc(cap);
    if (!cmd) return pv_err(L->ctx, PV_ENOMEM, "out of memory");
    while (p < L->len && L->t[p] != '\n') {
        if (L->t[p] == '\\' && p + 1 < L->len && L->t[p + 1] == '\n') {
            p += 2; /* a continued line */
            continue;
        }
        if (L->t[p] == '\\' && p + 2 < L->len && L->t[p + 1] == '\r' && L->t[p + 2] == '\n') {
            p += 3;
            continue;
        }
        if (n + 2 > cap) {
            char *nc = realloc(cmd, cap * 2);
            if (!nc) {
                free(cmd);
                return pv_err(L->ctx, PV_ENOMEM, "out of memory");
            }
            cmd = nc, cap *= 2;
        }
        cmd[n++] = L->t[p++];
    }
    while (n > 0 && cmd[n - 1] == '\r') n--;
    cmd[n] = '\0';
    pv_token *k = push(L, PV_TK_STRING, s + 1, p);
    if (!k) {
        free(cmd);
        return PV_ENOMEM;
    }
    k->sval = cmd;
    k->slen = n;
    k->op[0] = '"';
    L->pos = p;
    return PV_OK;
}

static pv_status lex_one(lexer *L)
{
    const char *t = L->t;
    size_t s = L->pos;
    char c = t[s];
    if (c == '\n') {
        size_t idx = L->ntok;
        if (!push(L, PV_TK_NEWLINE, s, s + 1)) return PV_ENOMEM;
        L->pos++;
        pv_status st = maybe_heredoc(L, idx);
        if (st == PV_OK && L->ntok == idx + 1) st = maybe_inline(L, idx);
        L->stmt_start = L->line_start = L->ntok;
        return st;
    }
    if (c == '!' && L->line_start == L->ntok && !L->src->expr_only) return lex_shell(L);
    if (isdigit((unsigned char)c) || (c == '.' && isdigit((unsigned char)t[s + 1])))
        return lex_number(L);
    if (c == '"' || c == '\'') return lex_string(L);
    if (is_name_start(c)) {
        size_t p = s;
        while (is_name_char(t[p])) p++;
        pv_token *k = push(L, PV_TK_NAME, s, p);
        if (!k) return PV_ENOMEM;
        k->sval = pvl_strndup(t + s, p - s);
        k->slen = p - s;
        L->pos = p;
        return k->sval ? PV_OK : pv_err(L->ctx, PV_ENOMEM, "out of memory");
    }
    if (c == '$' || c == '@') {
        size_t p = s + 1;
        if (c == '$' && isdigit((unsigned char)t[p])) {
            int64_t v = 0;
            while (isdigit((unsigned char)t[p]) && v <= INT_MAX) v = v * 10 + (t[p++] - '0');
            if (v > INT_MAX) return lex_error(L, s, "column number too large");
            pv_token *k = push(L, PV_TK_COLUMN, s, p);
            if (!k) return PV_ENOMEM;
            k->ival = v;
            L->pos = p;
            return PV_OK;
        }
        if (c == '$' && t[p] == '#') {
            pv_token *k = push(L, PV_TK_COLUMN, s, p + 1);
            if (!k) return PV_ENOMEM;
            k->ival = -1;
            L->pos = p + 1;
            return PV_OK;
        }
        if (c == '$' && t[p] == '*') p++; /* `undefine $*`: every datablock */
        else if (!is_name_start(t[p])) return lex_error(L, s, "unexpected or unrecognized token");
        while (is_name_char(t[p])) p++;
        pv_token *k = push(L, c == '$' ? PV_TK_DOLLAR : PV_TK_MACRO, s, p);
        if (!k) return PV_ENOMEM;
        k->sval = c == '$' ? pvl_strndup(t + s, p - s) : pvl_strndup(t + s + 1, p - s - 1);
        k->slen = strlen(k->sval ? k->sval : "");
        L->pos = p;
        return k->sval ? PV_OK : pv_err(L->ctx, PV_ENOMEM, "out of memory");
    }
    for (int i = 0; ops2[i]; i++) {
        if (c == ops2[i][0] && t[s + 1] == ops2[i][1]) {
            pv_token *k = push(L, PV_TK_OP, s, s + 2);
            if (!k) return PV_ENOMEM;
            memcpy(k->op, ops2[i], 3);
            L->pos = s + 2;
            return PV_OK;
        }
    }
    if (strchr("+-*/%!~<>=&|^?:,;()[]{}.", c) && c != '\0') {
        pv_token *k = push(L, c == ';' ? PV_TK_SEMI : PV_TK_OP, s, s + 1);
        if (!k) return PV_ENOMEM;
        k->op[0] = c;
        L->pos = s + 1;
        if (c == ';') L->stmt_start = L->ntok;
        return PV_OK;
    }
    return lex_error(L, s, "unexpected or unrecognized token");
}

pv_status pv_lex(pv_ctx *ctx, const pv_source *src, pv_toklist *out)
{
    lexer L = {ctx, src, src->text, src->len, 0, NULL, 0, 0, 0, 0, 0, 0};
    pv_status st = PV_OK;
    for (;;) {
        skip_space(&L);
        if (L.pos >= L.len) break;
        st = lex_one(&L);
        if (st != PV_OK) break;
    }
    /* a last line without a newline: its '-' sources get empty blocks */
    if (st == PV_OK && L.line_start < L.ntok) st = maybe_inline(&L, L.ntok);
    if (st == PV_OK && !push(&L, PV_TK_EOF, L.len, L.len)) st = PV_ENOMEM;
    out->src = src;
    out->tok = L.tok;
    out->ntok = L.ntok;
    if (st != PV_OK) pv_toklist_fini(out);
    return st;
}

void pv_toklist_fini(pv_toklist *tl)
{
    if (!tl) return;
    for (size_t i = 0; i < tl->ntok; i++) free(tl->tok[i].sval);
    free(tl->tok);
    tl->tok = NULL;
    tl->ntok = 0;
}
