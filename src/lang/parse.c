/*
 * Expression parser: tokens → AST, with gnuplot 5.4's precedence (loosest first):
 *   = (inside parentheses, or NAME = at the start), ?: , ||, &&, |, ^, &,
 *   == != eq ne, < <= > >=, << >>, + - . (left), * / %, unary - + ! ~,
 *   ** (right; its right operand is unary, so 2**-1 works and -2**2 = -4),
 *   postfix ! (factorial) and string ranges s[a:b], primaries.
 * `|$name|` is the datablock line count; `sum [i=a:b] expr`; `{re,im}` complex constants.
 */
#include "lang_int.h"

#include <stdlib.h>
#include <string.h>

/* Bounds that keep the parser, the code generator and the tree's own free and clone
 * (all recursive) within the stack: nested sub-expressions (call arguments, `?:`
 * branches, `**` operands; parentheses and unary operators have their own counts), and
 * the height of the tree a chain of operators builds (`1+1+...+1`). Beyond them the
 * expression is a located error. */
#define PV_EXPR_NEST_MAX 400
#define PV_EXPR_HEIGHT_MAX 10000

typedef struct parser {
    pv_cursor *c;
    bool uses_columns;
    int depth;
    int nest;       /* parse_ternary / parse_power recursion */
} parser;

static pv_node *parse_expr(parser *P);
static pv_node *parse_ternary(parser *P);
static pv_node *parse_unary(parser *P);

static pv_node *oom(parser *P)
{
    pv_err(P->c->ctx, PV_ENOMEM, "out of memory");
    return NULL;
}

static pv_node *syntax(parser *P, const char *msg)
{
    pv_cur_error(P->c, PV_ESYNTAX, "%s", msg);
    return NULL;
}

static pv_node *mk2(parser *P, pv_nkind kind, int op, size_t off, pv_node *a, pv_node *b)
{
    pv_node *n = pv_node_new(kind, off);
    if (!n || pv_node_addkid(n, a) != PV_OK || pv_node_addkid(n, b) != PV_OK) {
        if (n && n->nkids == 1) b = (pv_node_free(b), NULL);
        else if (n && n->nkids == 0) {
            pv_node_free(a);
            pv_node_free(b);
        } else if (!n) {
            pv_node_free(a);
            pv_node_free(b);
        }
        pv_node_free(n);
        return oom(P);
    }
    n->op = op;
    return n;
}

static bool is_tok_op(const pv_token *t, const char *op)
{
    return t->kind == PV_TK_OP && strcmp(t->op, op) == 0;
}

/* `(` expr {, expr} `)` already past `(`; allows serial evaluation. */
static pv_node *parse_serial(parser *P)
{
    pv_node *n = parse_expr(P);
    while (n && pv_cur_is_op(P->c, ",")) {
        size_t off = pv_cur_offset(P->c);
        pv_cur_next(P->c);
        pv_node *b = parse_expr(P);
        if (!b) {
            pv_node_free(n);
            return NULL;
        }
        n = mk2(P, N_SERIAL, 0, off, n, b);
    }
    return n;
}

static bool signed_number(parser *P, double *out)
{
    double sign = 1.0;
    if (pv_cur_accept_op(P->c, "-")) sign = -1.0;
    else pv_cur_accept_op(P->c, "+");
    const pv_token *t = pv_cur_peek(P->c);
    if (pv_cur_at_end(P->c)) return false;
    if (t->kind == PV_TK_INT) *out = sign * (double)t->ival;
    else if (t->kind == PV_TK_REAL) *out = sign * t->dval;
    else return false;
    pv_cur_next(P->c);
    return true;
}

static pv_node *parse_complex(parser *P, size_t off)
{
    double re, im;
    if (!signed_number(P, &re)) return syntax(P, "invalid complex constant");
    if (!pv_cur_accept_op(P->c, ",")) return syntax(P, "expected comma");
    if (!signed_number(P, &im)) return syntax(P, "invalid complex constant");
    if (!pv_cur_accept_op(P->c, "}")) return syntax(P, "expected '}'");
    pv_node *n = pv_node_new(N_CONST, off);
    if (!n) return oom(P);
    n->val.type = PV_V_CMPLX;
    n->val.re = re;
    n->val.im = im;
    return n;
}

static pv_node *parse_call(parser *P, const pv_token *name)
{
    pv_node *n = pv_node_new(N_CALL, name->start);
    if (!n || !(n->name = pvl_strdup(name->sval))) {
        pv_node_free(n);
        return oom(P);
    }
    n->ival = pv_builtin_lookup(name->sval);
    if (n->ival >= 0 && (pv_builtin_desc_get((int)n->ival)->flags & BF_COLUMN))
        P->uses_columns = true;
    pv_cur_next(P->c); /* name */
    pv_cur_next(P->c); /* ( */
    if (!pv_cur_accept_op(P->c, ")")) {
        for (;;) {
            pv_node *a = parse_expr(P);
            if (!a || pv_node_addkid(n, a) != PV_OK) {
                if (a) pv_node_free(a), oom(P);
                pv_node_free(n);
                return NULL;
            }
            if (pv_cur_accept_op(P->c, ",")) continue;
            if (pv_cur_accept_op(P->c, ")")) break;
            pv_node_free(n);
            return syntax(P, "')' expected");
        }
    }
    return n;
}

static pv_node *parse_sum(parser *P, size_t off)
{
    pv_cur_next(P->c); /* sum */
    pv_cur_next(P->c); /* [ */
    const pv_token *v = pv_cur_peek(P->c);
    if (pv_cur_at_end(P->c) || v->kind != PV_TK_NAME) return syntax(P, "syntax: sum [var=start:end] expression");
    pv_node *n = pv_node_new(N_SUM, off);
    if (!n || !(n->name = pvl_strdup(v->sval))) {
        pv_node_free(n);
        return oom(P);
    }
    pv_cur_next(P->c);
    if (!pv_cur_accept_op(P->c, "=")) {
        pv_node_free(n);
        return syntax(P, "syntax: sum [var=start:end] expression");
    }
    pv_node *lo = parse_expr(P), *hi = NULL, *body = NULL;
    if (!lo) goto fail;
    if (!pv_cur_accept_op(P->c, ":")) {
        syntax(P, "syntax: sum [var=start:end] expression");
        goto fail;
    }
    if (!(hi = parse_expr(P))) goto fail;
    if (!pv_cur_accept_op(P->c, "]")) {
        syntax(P, "syntax: sum [var=start:end] expression");
        goto fail;
    }
    if (!(body = parse_ternary(P))) goto fail;
    if (pv_node_addkid(n, lo) || pv_node_addkid(n, hi) || pv_node_addkid(n, body)) {
        oom(P);
        goto fail;
    }
    return n;
fail: /* kids already attached are freed with n */
    if (n->nkids < 1) pv_node_free(lo);
    if (n->nkids < 2) pv_node_free(hi);
    if (n->nkids < 3) pv_node_free(body);
    pv_node_free(n);
    return NULL;
}

static pv_node *parse_primary(parser *P)
{
    pv_cursor *c = P->c;
    if (pv_cur_at_end(c)) return syntax(P, "invalid expression");
    const pv_token *t = pv_cur_peek(c);
    size_t off = t->start;
    pv_node *n = NULL;
    switch (t->kind) {
    case PV_TK_INT:
    case PV_TK_REAL:
        if (!(n = pv_node_new(N_CONST, off))) return oom(P);
        n->val = t->kind == PV_TK_INT ? pv_int(t->ival) : pv_real(t->dval);
        pv_cur_next(c);
        return n;
    case PV_TK_STRING:
        if (!(n = pv_node_new(N_CONST, off))) return oom(P);
        n->val = pv_str(t->sval);
        if (n->val.type != PV_V_STR) {
            pv_node_free(n);
            return oom(P);
        }
        pv_cur_next(c);
        return n;
    case PV_TK_COLUMN:
        if (!(n = pv_node_new(N_COLUMN, off))) return oom(P);
        n->ival = t->ival;
        P->uses_columns = true;
        pv_cur_next(c);
        return n;
    case PV_TK_DOLLAR:
        if (!(n = pv_node_new(N_DATABLOCK, off)) || !(n->name = pvl_strdup(t->sval))) {
            pv_node_free(n);
            return oom(P);
        }
        pv_cur_next(c);
        return n;
    case PV_TK_NAME:
        if (strcmp(t->sval, "sum") == 0 && is_tok_op(pv_cur_peek_at(c, 1), "["))
            return parse_sum(P, off);
        if (is_tok_op(pv_cur_peek_at(c, 1), "(")) return parse_call(P, t);
        if (!(n = pv_node_new(N_VAR, off)) || !(n->name = pvl_strdup(t->sval))) {
            pv_node_free(n);
            return oom(P);
        }
        pv_cur_next(c);
        return n;
    case PV_TK_OP:
        if (is_tok_op(t, "(")) {
            pv_cur_next(c);
            if (++P->depth > 200) return syntax(P, "expression too deeply nested");
            n = parse_serial(P);
            P->depth--;
            if (!n) return NULL;
            if (!pv_cur_accept_op(c, ")")) {
                pv_node_free(n);
                return syntax(P, "')' expected");
            }
            return n;
        }
        if (is_tok_op(t, "{")) {
            pv_cur_next(c);
            return parse_complex(P, off);
        }
        if (is_tok_op(t, "|")) {
            const pv_token *d = pv_cur_peek_at(c, 1);
            if ((d->kind == PV_TK_DOLLAR || d->kind == PV_TK_NAME) &&
                is_tok_op(pv_cur_peek_at(c, 2), "|")) {
                pv_nkind kind = d->kind == PV_TK_DOLLAR ? N_DBCOUNT : N_ARRSIZE;
                if (!(n = pv_node_new(kind, off)) || !(n->name = pvl_strdup(d->sval))) {
                    pv_node_free(n);
                    return oom(P);
                }
                pv_cur_next(c);
                pv_cur_next(c);
                pv_cur_next(c);
                return n;
            }
        }
        break;
    default:
        break;
    }
    return syntax(P, "invalid expression");
}

/* After NAME or $name: is `[` ... `]` an index (no ':' at bracket depth 1)? */
static bool index_follows(parser *P)
{
    int depth = 0;
    for (size_t k = 0;; k++) {
        const pv_token *t = pv_cur_peek_at(P->c, k);
        if (t->kind == PV_TK_EOF || t->kind == PV_TK_NEWLINE || t->kind == PV_TK_SEMI)
            return false;
        if (t->kind != PV_TK_OP) continue;
        if (t->op[0] == '[' || t->op[0] == '(' || t->op[0] == '{') depth++;
        else if (t->op[0] == ']' || t->op[0] == ')' || t->op[0] == '}') {
            if (--depth == 0) return true;
        } else if (t->op[0] == ':' && t->op[1] == '\0' && depth == 1) {
            return false;
        } else if (t->op[0] == '?' && depth == 1) {
            return true; /* a ternary index: its ':' is its own */
        }
    }
}

static pv_node *parse_postfix(parser *P)
{
    pv_node *n = parse_primary(P);
    while (n) {
        size_t off = pv_cur_offset(P->c);
        if (pv_cur_is_op(P->c, "!")) {
            pv_cur_next(P->c);
            pv_node *u = pv_node_new(N_UNARY, off);
            if (!u || pv_node_addkid(u, n) != PV_OK) {
                pv_node_free(u);
                pv_node_free(n);
                return oom(P);
            }
            u->op = 'F';
            n = u;
        } else if (pv_cur_is_op(P->c, "[") && (n->kind == N_VAR || n->kind == N_DATABLOCK) &&
                   index_follows(P)) {
            /* A[i] (array element) or $d[i] (datablock line) */
            pv_cur_next(P->c);
            pv_node *ix = parse_expr(P);
            if (!ix) goto fail;
            if (!pv_cur_accept_op(P->c, "]")) {
                pv_node_free(ix);
                syntax(P, "']' expected");
                goto fail;
            }
            pv_node *e = pv_node_new(N_INDEX, off);
            if (!e || pv_node_addkid(e, ix) != PV_OK) {
                pv_node_free(e);
                pv_node_free(ix);
                pv_node_free(n);
                return oom(P);
            }
            e->op = n->kind == N_DATABLOCK;
            e->name = n->name;
            n->name = NULL;
            pv_node_free(n);
            n = e;
        } else if (pv_cur_is_op(P->c, "[")) {
            pv_cur_next(P->c);
            pv_node *s = pv_node_new(N_SUBSTR, off);
            if (!s || pv_node_addkid(s, n) != PV_OK) {
                pv_node_free(s);
                pv_node_free(n);
                return oom(P);
            }
            n = s;
            pv_node *lo = NULL, *hi = NULL;
            if (pv_cur_is_op(P->c, ":")) {
                if (!(lo = pv_node_new(N_CONST, off))) goto fail;
                lo->val = pv_int(1);
            } else if (!(lo = parse_expr(P))) goto fail;
            if (pv_node_addkid(s, lo) != PV_OK) {
                pv_node_free(lo);
                goto fail;
            }
            if (!pv_cur_accept_op(P->c, ":")) {
                syntax(P, "':' expected");
                goto fail;
            }
            if (!pv_cur_is_op(P->c, "]") && !(hi = parse_expr(P))) goto fail;
            if (pv_node_addkid(s, hi) != PV_OK) {
                pv_node_free(hi);
                goto fail;
            }
            if (!pv_cur_accept_op(P->c, "]")) {
                syntax(P, "']' expected");
                goto fail;
            }
        } else {
            break;
        }
    }
    return n;
fail:
    pv_node_free(n);
    return NULL;
}

static pv_node *parse_power(parser *P)
{
    pv_node *n = parse_postfix(P);
    if (n && pv_cur_is_op(P->c, "**")) {
        size_t off = pv_cur_offset(P->c);
        pv_cur_next(P->c);
        if (++P->nest > PV_EXPR_NEST_MAX) {
            pv_node_free(n);
            return syntax(P, "expression too deeply nested");
        }
        pv_node *b = parse_unary(P);
        P->nest--;
        if (!b) {
            pv_node_free(n);
            return NULL;
        }
        n = mk2(P, N_BINARY, OP_POW, off, n, b);
    }
    return n;
}

static pv_node *parse_unary(parser *P)
{
    static const char ops[] = "-+!~";
    const pv_token *t = pv_cur_peek(P->c);
    if (!pv_cur_at_end(P->c) && t->kind == PV_TK_OP && t->op[1] == '\0' && strchr(ops, t->op[0])) {
        size_t off = t->start;
        int op = t->op[0];
        pv_cur_next(P->c);
        if (++P->depth > 1000) return syntax(P, "expression too deeply nested");
        pv_node *a = parse_unary(P);
        P->depth--;
        if (!a) return NULL;
        pv_node *u = pv_node_new(N_UNARY, off);
        if (!u || pv_node_addkid(u, a) != PV_OK) {
            pv_node_free(u);
            pv_node_free(a);
            return oom(P);
        }
        u->op = op;
        return u;
    }
    return parse_power(P);
}

/* Binary levels, tightest last. */
typedef struct level {
    const char *ops[5];
    int codes[5];
} level;

static const level levels[] = {
    {{"||"}, {-2}},
    {{"&&"}, {-1}},
    {{"|"}, {OP_BOR}},
    {{"^"}, {OP_XOR}},
    {{"&"}, {OP_BAND}},
    {{"==", "!=", "eq", "ne"}, {OP_EQ, OP_NE, OP_SEQ, OP_SNE}},
    {{"<", "<=", ">", ">="}, {OP_LT, OP_LE, OP_GT, OP_GE}},
    {{"<<", ">>"}, {OP_SHL, OP_SHR}},
    {{"+", "-", "."}, {OP_ADD, OP_SUB, OP_CAT}},
    {{"*", "/", "%"}, {OP_MUL, OP_DIV, OP_MOD}},
};
#define NLEVELS ((int)(sizeof levels / sizeof levels[0]))

static int match_level(parser *P, int lv)
{
    if (pv_cur_at_end(P->c)) return -100;
    const pv_token *t = pv_cur_peek(P->c);
    for (int i = 0; i < 5 && levels[lv].ops[i]; i++) {
        const char *o = levels[lv].ops[i];
        if ((o[0] == 'e' || o[0] == 'n') ? (t->kind == PV_TK_NAME && strcmp(t->sval, o) == 0)
                                         : is_tok_op(t, o))
            return levels[lv].codes[i];
    }
    return -100;
}

static pv_node *parse_level(parser *P, int lv)
{
    if (lv == NLEVELS) return parse_unary(P);
    pv_node *n = parse_level(P, lv + 1);
    int code;
    while (n && (code = match_level(P, lv)) != -100) {
        size_t off = pv_cur_offset(P->c);
        pv_cur_next(P->c);
        pv_node *b = parse_level(P, lv + 1);
        if (!b) {
            pv_node_free(n);
            return NULL;
        }
        if (code == -2) n = mk2(P, N_OR, 0, off, n, b);
        else if (code == -1) n = mk2(P, N_AND, 0, off, n, b);
        else n = mk2(P, N_BINARY, code, off, n, b);
        if (n && n->height > PV_EXPR_HEIGHT_MAX) {
            pv_node_free(n);
            return syntax(P, "expression too deeply nested");
        }
    }
    return n;
}

static pv_node *parse_ternary_body(parser *P);

/* Every nested sub-expression passes here: bounded (PV_EXPR_NEST_MAX). */
static pv_node *parse_ternary(parser *P)
{
    if (++P->nest > PV_EXPR_NEST_MAX) return syntax(P, "expression too deeply nested");
    pv_node *n = parse_ternary_body(P);
    P->nest--;
    return n;
}

static pv_node *parse_ternary_body(parser *P)
{
    pv_node *n = parse_level(P, 0);
    if (!n || !pv_cur_is_op(P->c, "?")) return n;
    size_t off = pv_cur_offset(P->c);
    pv_cur_next(P->c);
    pv_node *t = pv_node_new(N_TERN, off);
    if (!t || pv_node_addkid(t, n) != PV_OK) {
        pv_node_free(t);
        pv_node_free(n);
        return oom(P);
    }
    pv_node *a = parse_ternary(P);
    if (!a || pv_node_addkid(t, a) != PV_OK) goto fail_a;
    if (!pv_cur_accept_op(P->c, ":")) {
        syntax(P, "expecting ':'");
        goto fail;
    }
    pv_node *b = parse_ternary(P);
    if (!b || pv_node_addkid(t, b) != PV_OK) {
        pv_node_free(b);
        goto fail;
    }
    return t;
fail_a:
    pv_node_free(a);
fail:
    pv_node_free(t);
    return NULL;
}

static pv_node *parse_expr(parser *P)
{
    const pv_token *t = pv_cur_peek(P->c);
    if (!pv_cur_at_end(P->c) && t->kind == PV_TK_NAME && is_tok_op(pv_cur_peek_at(P->c, 1), "=")) {
        size_t off = t->start;
        pv_node *n = pv_node_new(N_ASSIGN, off);
        if (!n || !(n->name = pvl_strdup(t->sval))) {
            pv_node_free(n);
            return oom(P);
        }
        pv_cur_next(P->c);
        pv_cur_next(P->c);
        pv_node *v = parse_expr(P);
        if (!v || pv_node_addkid(n, v) != PV_OK) {
            pv_node_free(v);
            pv_node_free(n);
            return NULL;
        }
        return n;
    }
    return parse_ternary(P);
}

pv_status pv_parse_expr(pv_cursor *c, pv_code **out)
{
    *out = NULL;
    parser P = {c, false, 0, 0};
    size_t start = pv_cur_offset(c);
    pv_node *ast = parse_expr(&P);
    if (!ast) return c->ctx->err_code ? c->ctx->err_code : PV_ESYNTAX;
    size_t end = c->pos > 0 ? c->tl->tok[c->pos - 1].end : start;
    pv_code *code = pv_code_from_ast(c->ctx, ast, c->tl->src, start, end);
    if (!code) return c->ctx->err_code ? c->ctx->err_code : PV_ENOMEM;
    code->uses_columns = P.uses_columns;
    *out = code;
    return PV_OK;
}
