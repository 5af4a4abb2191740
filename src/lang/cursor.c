/*
 * Token cursor used by the command parser (exec) and the expression parser, with
 * gnuplot's abbreviation rule: pattern "ou$tput" accepts any prefix of "output" that is at
 * least "ou" long.
 */
#include "lang_int.h"

#include <stdlib.h>
#include <string.h>

static const pv_token eof_tok = {PV_TK_EOF, 0, 0, 0, 0.0, NULL, 0, {0}, 0, 0};

const pv_token *pv_cur_peek_at(const pv_cursor *c, size_t ahead)
{
    size_t p = c->pos + ahead;
    size_t end = c->end < c->tl->ntok ? c->end : c->tl->ntok;
    if (p >= end) {
        /* the EOF-like token sits at the statement end for offsets */
        if (end < c->tl->ntok) return &c->tl->tok[end];
        return c->tl->ntok ? &c->tl->tok[c->tl->ntok - 1] : &eof_tok;
    }
    return &c->tl->tok[p];
}

const pv_token *pv_cur_peek(const pv_cursor *c) { return pv_cur_peek_at(c, 0); }

void pv_cur_next(pv_cursor *c)
{
    if (c->pos < c->end) c->pos++;
}

bool pv_cur_at_end(const pv_cursor *c)
{
    if (c->pos >= c->end || c->pos >= c->tl->ntok) return true;
    pv_tok_kind k = c->tl->tok[c->pos].kind;
    return k == PV_TK_EOF || k == PV_TK_NEWLINE || k == PV_TK_SEMI;
}

bool pv_cur_is_op(const pv_cursor *c, const char *op)
{
    if (pv_cur_at_end(c)) return false;
    const pv_token *t = pv_cur_peek(c);
    return t->kind == PV_TK_OP && strcmp(t->op, op) == 0;
}

bool pv_cur_accept_op(pv_cursor *c, const char *op)
{
    if (!pv_cur_is_op(c, op)) return false;
    pv_cur_next(c);
    return true;
}

bool pv_word_matches(const char *word, const char *pattern)
{
    /* chars before '$' are required; after it, the word may stop anywhere */
    bool optional = false;
    const char *w = word, *p = pattern;
    for (; *p; p++) {
        if (*p == '$') {
            optional = true;
            continue;
        }
        if (*w == '\0') return optional;
        if (*w != *p) return false;
        w++;
    }
    return *w == '\0';
}

bool pv_cur_is_word(const pv_cursor *c, const char *pattern)
{
    if (pv_cur_at_end(c)) return false;
    const pv_token *t = pv_cur_peek(c);
    return t->kind == PV_TK_NAME && pv_word_matches(t->sval, pattern);
}

bool pv_cur_accept_word(pv_cursor *c, const char *pattern)
{
    if (!pv_cur_is_word(c, pattern)) return false;
    pv_cur_next(c);
    return true;
}

size_t pv_cur_offset(const pv_cursor *c) { return pv_cur_peek(c)->start; }

pv_status pv_cur_error(pv_cursor *c, pv_status code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *msg = pv_vasprintf(fmt, ap);
    va_end(ap);
    pv_source_error(c->ctx, code, c->tl->src, pv_cur_offset(c), "%s", msg ? msg : "out of memory");
    free(msg);
    return code;
}

void pv_cur_warn(pv_cursor *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *msg = pv_vasprintf(fmt, ap);
    va_end(ap);
    pv_source_warn(c->ctx, c->tl->src, pv_cur_offset(c), "%s", msg ? msg : "out of memory");
    free(msg);
}
