/*
 * lex_inline.c: which tokens of a command line read inline data '-', and how many blocks.
 *
 * gnuplot reads the lines after a command whose data source is '-' (plot, splot, replot,
 * stats, fit, vfill, vgfill, `set palette file '-'`) as data, one block per '-' opened, up
 * to a line whose first non-blank character is 'e' or 'E' (measured with gnuplot 5.4.4:
 * "e", "E", " e", "end", "e 1" all end a block; "#e" is a comment; the end of the file
 * ends it too, silently). pvox lexes a whole script before running it (ARCH-11), so the
 * lexer decides from the tokens of the line which sources read a block (DIFF-20):
 *
 * - plot/splot/replot: a quoted '-' at the start of a plot element (after the command,
 *   the leading ranges, a `,`, `for [..]` clauses or `sample`), unless the element says
 *   `binary`; `plot for [i=a:b] '-'` reads one block per iteration, so the bounds must be
 *   integer constants (or a literal string for `for [s in "..."]`);
 * - replot also reads again the blocks of the last plot/splot of the same source, as
 *   gnuplot does when it replays that command (they follow the replot line);
 * - vfill, vgfill: as plot elements (sources separated by commas);
 * - stats: a quoted '-' as the source after optional ranges / `sample`;
 * - fit: the first quoted '-' after the fitted expression;
 * - set palette file '-'.
 *
 * A '-' inside a `{ }` block reads nothing from the script in gnuplot (its data comes
 * from standard input there), so no block is taken for it.
 */
#include "lang_int.h"

#include <string.h>

typedef struct scan {
    pv_ctx *ctx;
    const pv_source *src;
    pv_token *tok;
    size_t hi;          /* one past the last token of the line (its NEWLINE / EOF) */
} scan;

static bool is_op(const pv_token *t, const char *op)
{
    return t->kind == PV_TK_OP && strcmp(t->op, op) == 0;
}

static bool is_word(const pv_token *t, const char *pattern)
{
    return t->kind == PV_TK_NAME && t->sval && pv_word_matches(t->sval, pattern);
}

static bool is_dash(const scan *S, size_t i)
{
    const pv_token *t = &S->tok[i];
    if (t->kind != PV_TK_STRING || t->slen != 1 || t->sval[0] != '-') return false;
    /* '-'.x or '-'[1:2] is an expression, not the source '-' */
    return i + 1 >= S->hi || !(is_op(&S->tok[i + 1], ".") || is_op(&S->tok[i + 1], "["));
}

/* Index just past the bracket group opened at i (`(`, `[` or `{`), or the end. */
static size_t skip_group(const scan *S, size_t i, size_t end)
{
    int depth = 0;
    for (; i < end; i++) {
        const pv_token *t = &S->tok[i];
        if (is_op(t, "(") || is_op(t, "[") || is_op(t, "{")) depth++;
        else if ((is_op(t, ")") || is_op(t, "]") || is_op(t, "}")) && --depth <= 0) return i + 1;
    }
    return end;
}

/* An integer constant at *i (an optional sign, then an INT token). */
static bool const_int(const scan *S, size_t *i, size_t end, int64_t *v)
{
    int sign = 1;
    size_t k = *i;
    if (k < end && (is_op(&S->tok[k], "-") || is_op(&S->tok[k], "+"))) {
        if (is_op(&S->tok[k], "-")) sign = -1;
        k++;
    }
    if (k >= end || S->tok[k].kind != PV_TK_INT) return false;
    *v = sign * S->tok[k].ival;
    *i = k + 1;
    return true;
}

static int64_t count_words(const char *s)
{
    int64_t n = 0;
    bool in = false;
    for (; *s; s++) {
        bool blank = *s == ' ' || *s == '\t' || *s == '\n' || *s == '\r';
        if (!blank && !in) n++;
        in = !blank;
    }
    return n;
}

/* The number of iterations of `for [..]` whose `[` is at i, or -1 when it is not known
 * before running (bounds that are not integer constants). */
static int64_t for_count(const scan *S, size_t i, size_t close)
{
    size_t k = i + 1;
    if (k + 1 >= close || S->tok[k].kind != PV_TK_NAME) return -1;
    k++;
    if (is_word(&S->tok[k], "in")) {
        if (k + 2 == close && S->tok[k + 1].kind == PV_TK_STRING)
            return count_words(S->tok[k + 1].sval);
        return -1;
    }
    if (!is_op(&S->tok[k], "=")) return -1;
    k++;
    int64_t lo, hi, step = 1;
    if (!const_int(S, &k, close, &lo) || k >= close || !is_op(&S->tok[k], ":")) return -1;
    k++;
    if (!const_int(S, &k, close, &hi)) return -1;
    if (k < close && is_op(&S->tok[k], ":")) {
        k++;
        if (!const_int(S, &k, close, &step)) return -1;
    }
    if (k != close) return -1;
    if (step > 0) return hi >= lo ? (hi - lo) / step + 1 : 0;
    if (step < 0) return lo >= hi ? (lo - hi) / -step + 1 : 0;
    return 0;
}

/* Index of the end of the plot element starting at i: the next `,` outside brackets. */
static size_t element_end(const scan *S, size_t i, size_t end)
{
    while (i < end) {
        const pv_token *t = &S->tok[i];
        if (is_op(t, "(") || is_op(t, "[") || is_op(t, "{")) i = skip_group(S, i, end);
        else if (is_op(t, ",")) return i;
        else i++;
    }
    return end;
}

/* One plot element [i, e): set the block count of its '-' source; returns the count. */
static pv_status plot_element(scan *S, size_t i, size_t e, int64_t *n)
{
    int64_t iters = 1;
    size_t unknown_for = SIZE_MAX;
    *n = 0;
    for (;;) {
        if (i + 1 < e && is_word(&S->tok[i], "for") && is_op(&S->tok[i + 1], "[")) {
            size_t after = skip_group(S, i + 1, e);
            int64_t k = for_count(S, i + 1, after - 1);
            if (k < 0 && unknown_for == SIZE_MAX) unknown_for = i;
            iters *= k < 0 ? 1 : k;
            i = after;
        } else if (i < e && is_word(&S->tok[i], "sample")) {
            i++;
        } else if (i < e && is_op(&S->tok[i], "[")) {
            i = skip_group(S, i, e);
        } else {
            break;
        }
    }
    if (i >= e || !is_dash(S, i)) return PV_OK;
    for (size_t k = i + 1; k < e; k++)
        if (is_word(&S->tok[k], "bin$ary")) return PV_OK; /* bytes, not lines: not taken */
    if (unknown_for != SIZE_MAX)
        return pv_source_error(S->ctx, PV_ESYNTAX, S->src, S->tok[unknown_for].start,
                               "inline data '-' in an iteration needs constant integer "
                               "bounds in pvox (the data blocks are counted before running)");
    S->tok[i].data_count = (size_t)iters;
    *n = iters;
    return PV_OK;
}

/* plot / splot / replot: the elements of the statement [i, end). */
static pv_status plot_elements(scan *S, size_t i, size_t end, int64_t *n)
{
    *n = 0;
    while (i < end) {
        size_t e = element_end(S, i, end);
        int64_t k = 0;
        pv_status st = plot_element(S, i, e, &k);
        if (st != PV_OK) return st;
        *n += k;
        i = e + 1;
    }
    return PV_OK;
}

/* stats: the source after optional ranges and `sample`. */
static int64_t single_source(scan *S, size_t i, size_t end)
{
    while (i < end && (is_op(&S->tok[i], "[") || is_word(&S->tok[i], "sample")))
        i = is_op(&S->tok[i], "[") ? skip_group(S, i, end) : i + 1;
    if (i >= end || !is_dash(S, i)) return 0;
    S->tok[i].data_count = 1;
    return 1;
}

/* fit: the first '-' at bracket depth 0 that follows an operand (the fitted expression). */
static int64_t fit_source(scan *S, size_t i, size_t end)
{
    size_t first = i;
    while (i < end) {
        const pv_token *t = &S->tok[i];
        if (is_word(t, "via")) return 0;
        if (is_op(t, "(") || is_op(t, "[") || is_op(t, "{")) {
            i = skip_group(S, i, end);
            continue;
        }
        if (i > first && is_dash(S, i)) {
            const pv_token *p = &S->tok[i - 1];
            if (p->kind != PV_TK_OP || is_op(p, ")") || is_op(p, "]") || is_op(p, "}")) {
                S->tok[i].data_count = 1;
                return 1;
            }
        }
        i++;
    }
    return 0;
}

/* set palette ... file '-' */
static int64_t palette_source(scan *S, size_t i, size_t end)
{
    if (i >= end || !is_word(&S->tok[i], "pal$ette")) return 0;
    for (i++; i + 1 < end; i++) {
        if (is_word(&S->tok[i], "file") && is_dash(S, i + 1)) {
            S->tok[i + 1].data_count = 1;
            return 1;
        }
    }
    return 0;
}

/* One statement [i, end) at brace depth `depth` (0: the script level). */
static pv_status statement(scan *S, size_t i, size_t end, int depth, size_t *last_plot,
                           int64_t *n)
{
    *n = 0;
    for (;;) { /* old-style `if (c) cmd` and `else cmd` run their command from the file */
        if (i + 1 < end && is_word(&S->tok[i], "if") && is_op(&S->tok[i + 1], "("))
            i = skip_group(S, i + 1, end);
        else if (i < end && is_word(&S->tok[i], "else"))
            i++;
        else
            break;
    }
    if (i >= end || depth > 0 || S->tok[i].kind != PV_TK_NAME) return PV_OK;
    pv_token *cmd = &S->tok[i];
    pv_status st = PV_OK;
    if (is_word(cmd, "p$lot") || is_word(cmd, "sp$lot")) {
        st = plot_elements(S, i + 1, end, n);
        if (st == PV_OK) *last_plot = (size_t)*n;
    } else if (is_word(cmd, "rep$lot")) {
        int64_t own = 0;
        st = plot_elements(S, i + 1, end, &own);
        /* the replayed command reads all its blocks from the lines after the replot */
        for (size_t k = i + 1; k < end; k++) S->tok[k].data_count = 0;
        *n = (int64_t)*last_plot + own;
        cmd->data_count = (size_t)*n;
        *last_plot = (size_t)*n;
    } else if (is_word(cmd, "vfill") || is_word(cmd, "vgfill")) {
        st = plot_elements(S, i + 1, end, n); /* sources separated by commas, as plot */
    } else if (is_word(cmd, "stat$s")) {
        *n = single_source(S, i + 1, end);
    } else if (is_word(cmd, "f$it")) {
        *n = fit_source(S, i + 1, end);
    } else if (is_word(cmd, "se$t")) {
        *n = palette_source(S, i + 1, end);
    }
    return st;
}

pv_status pvl_inline_scan(pv_ctx *ctx, const pv_source *src, pv_token *tok, size_t lo,
                          size_t hi, int *depth, size_t *last_plot, size_t *nblocks)
{
    scan S = {ctx, src, tok, hi};
    *nblocks = 0;
    size_t s = lo;
    int stmt_depth = *depth; /* brace depth at the statement's first token */
    for (size_t i = lo; i <= hi; i++) {
        if (i == hi || tok[i].kind == PV_TK_SEMI) {
            int64_t n = 0;
            pv_status st = statement(&S, s, i, stmt_depth, last_plot, &n);
            if (st != PV_OK) return st;
            *nblocks += (size_t)n;
            s = i + 1;
            stmt_depth = *depth;
            continue;
        }
        if (is_op(&tok[i], "{")) ++*depth;
        else if (is_op(&tok[i], "}") && *depth > 0) --*depth;
    }
    return PV_OK;
}
