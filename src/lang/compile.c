/*
 * Compiler: AST → stack bytecode for the scalar VM. Names are kept as strings and
 * resolved at run time (gnuplot calls by name, so a function may be defined after an
 * expression that uses it is compiled); internal builtins are resolved here. Also the code
 * object around an AST (pv_code_from_ast) and the queries on it (span, columns, names).
 */
#include "lang_int.h"

#include <stdlib.h>
#include <string.h>

typedef struct cbuild {
    pv_ctx *ctx;
    pv_code *code;
    int cap_ins, cap_consts, cap_names;
    int depth;
    bool nomem;
} cbuild;

static int emit(cbuild *B, int op, int32_t a, int32_t b, size_t off, int dstack)
{
    pv_code *c = B->code;
    if (c->nins == B->cap_ins) {
        int nc = B->cap_ins ? B->cap_ins * 2 : 32;
        pv_instr *ni = realloc(c->ins, (size_t)nc * sizeof *ni);
        if (!ni) {
            B->nomem = true;
            return 0;
        }
        c->ins = ni;
        B->cap_ins = nc;
    }
    pv_instr *I = &c->ins[c->nins];
    I->op = (uint8_t)op;
    I->a = a;
    I->b = b;
    I->off = off;
    B->depth += dstack;
    if (B->depth > c->maxstack) c->maxstack = B->depth;
    return c->nins++;
}

static int add_const(cbuild *B, const pv_value *v)
{
    pv_code *c = B->code;
    if (c->nconsts == B->cap_consts) {
        int nc = B->cap_consts ? B->cap_consts * 2 : 8;
        pv_value *nv = realloc(c->consts, (size_t)nc * sizeof *nv);
        if (!nv) {
            B->nomem = true;
            return 0;
        }
        c->consts = nv;
        B->cap_consts = nc;
    }
    c->consts[c->nconsts] = pv_value_copy(v);
    if (v->type == PV_V_STR && c->consts[c->nconsts].type != PV_V_STR) B->nomem = true;
    return c->nconsts++;
}

static int add_name(cbuild *B, const char *s)
{
    pv_code *c = B->code;
    for (int i = 0; i < c->nnames; i++)
        if (strcmp(c->names[i], s) == 0) return i;
    if (c->nnames == B->cap_names) {
        int nc = B->cap_names ? B->cap_names * 2 : 8;
        char **nn = realloc(c->names, (size_t)nc * sizeof *nn);
        if (!nn) {
            B->nomem = true;
            return 0;
        }
        c->names = nn;
        B->cap_names = nc;
    }
    c->names[c->nnames] = pvl_strdup(s);
    if (!c->names[c->nnames]) B->nomem = true;
    return c->nnames++;
}

static void gen(cbuild *B, const pv_node *n)
{
    if (B->nomem) return;
    int j1, j2;
    switch (n->kind) {
    case N_CONST: emit(B, I_CONST, add_const(B, &n->val), 0, n->off, 1); break;
    case N_VAR: emit(B, I_VAR, add_name(B, n->name), 0, n->off, 1); break;
    case N_PARAM: emit(B, I_PARAM, (int32_t)n->ival, 0, n->off, 1); break;
    case N_SLOT: emit(B, I_SLOT, (int32_t)n->ival, 0, n->off, 1); break;
    case N_COLUMN: emit(B, I_COLUMN, (int32_t)n->ival, 0, n->off, 1); break;
    case N_DATABLOCK: emit(B, I_DATABLOCK, add_name(B, n->name), 0, n->off, 1); break;
    case N_DBCOUNT: emit(B, I_DBCOUNT, add_name(B, n->name), 0, n->off, 1); break;
    case N_ARRSIZE: emit(B, I_ARRSIZE, add_name(B, n->name), 0, n->off, 1); break;
    case N_INDEX:
        gen(B, n->kid[0]);
        emit(B, I_INDEX, add_name(B, n->name), n->op, n->off, 0);
        break;
    case N_UNARY:
        gen(B, n->kid[0]);
        emit(B, I_UNARY, n->op, 0, n->off, 0);
        break;
    case N_BINARY:
        gen(B, n->kid[0]);
        gen(B, n->kid[1]);
        emit(B, I_BINARY, n->op, 0, n->off, -1);
        break;
    case N_AND:
    case N_OR:
        gen(B, n->kid[0]);
        j1 = emit(B, n->kind == N_AND ? I_ANDTEST : I_ORTEST, 0, 0, n->off, -1);
        gen(B, n->kid[1]);
        emit(B, I_BOOL, 0, 0, n->off, 0);
        if (!B->nomem) B->code->ins[j1].a = B->code->nins;
        break;
    case N_TERN:
        gen(B, n->kid[0]);
        j1 = emit(B, I_JZ, 0, 0, n->off, -1);
        gen(B, n->kid[1]);
        j2 = emit(B, I_JMP, 0, 0, n->off, -1);
        if (!B->nomem) B->code->ins[j1].a = B->code->nins;
        gen(B, n->kid[2]);
        if (!B->nomem) B->code->ins[j2].a = B->code->nins;
        break;
    case N_CALL:
        for (int i = 0; i < n->nkids; i++) gen(B, n->kid[i]);
        if (n->ival >= 0)
            emit(B, I_BUILTIN, (int32_t)n->ival, n->nkids, n->off, 1 - n->nkids);
        else
            emit(B, I_CALL, add_name(B, n->name), n->nkids, n->off, 1 - n->nkids);
        break;
    case N_ASSIGN:
        gen(B, n->kid[0]);
        emit(B, I_ASSIGN, add_name(B, n->name), 0, n->off, 0);
        break;
    case N_SERIAL:
        gen(B, n->kid[0]);
        emit(B, I_POP, 0, 0, n->off, -1);
        gen(B, n->kid[1]);
        break;
    case N_SUM: {
        /* stack: lo hi → saved acc i hi ; body → SUMSTEP loops */
        gen(B, n->kid[0]);
        gen(B, n->kid[1]);
        j1 = emit(B, I_SUMINIT, add_name(B, n->name), 0, n->off, 2);
        int body = B->code->nins;
        gen(B, n->kid[2]);
        emit(B, I_SUMSTEP, body, add_name(B, n->name), n->off, -4);
        if (!B->nomem) B->code->ins[j1].b = B->code->nins;
        break;
    }
    case N_SUBSTR:
        gen(B, n->kid[0]);
        gen(B, n->kid[1]);
        if (n->kid[2]) gen(B, n->kid[2]);
        emit(B, I_SUBSTR, 0, n->kid[2] ? 0 : 1, n->off, n->kid[2] ? -2 : -1);
        break;
    }
}

pv_status pv_code_build(pv_ctx *ctx, pv_code *code)
{
    free(code->ins);
    for (int i = 0; i < code->nconsts; i++) pv_value_free(&code->consts[i]);
    free(code->consts);
    for (int i = 0; i < code->nnames; i++) free(code->names[i]);
    free(code->names);
    code->ins = NULL;
    code->consts = NULL;
    code->names = NULL;
    code->nins = code->nconsts = code->nnames = code->maxstack = 0;
    cbuild B = {ctx, code, 0, 0, 0, 0, false};
    gen(&B, code->ast);
    emit(&B, I_SUBEXPR_END, 0, 0, code->end, 0);
    code->maxstack += 4;
    if (B.nomem) return pv_err(ctx, PV_ENOMEM, "out of memory");
    return PV_OK;
}

void pv_code_destroy(pv_code *code)
{
    if (!code) return;
    pv_node_free(code->ast);
    free(code->ins);
    for (int i = 0; i < code->nconsts; i++) pv_value_free(&code->consts[i]);
    free(code->consts);
    for (int i = 0; i < code->nnames; i++) free(code->names[i]);
    free(code->names);
    free(code);
}

pv_code *pv_code_from_ast(pv_ctx *ctx, pv_node *ast, const pv_source *src, size_t start,
                          size_t end)
{
    pv_code *code = calloc(1, sizeof *code);
    if (!code) {
        pv_node_free(ast);
        pv_err(ctx, PV_ENOMEM, "out of memory");
        return NULL;
    }
    code->ast = ast;
    code->src = src;
    code->start = start;
    code->end = end;
    if (pv_code_build(ctx, code) != PV_OK) {
        pv_code_destroy(code);
        return NULL;
    }
    return code;
}

void pv_code_span(const pv_code *code, size_t *start, size_t *end)
{
    if (start) *start = code->start;
    if (end) *end = code->end;
}

bool pv_code_uses_columns(const pv_code *code) { return code->uses_columns; }

static bool node_uses_name(const pv_node *n, const char *name)
{
    if (!n) return false;
    if ((n->kind == N_VAR || n->kind == N_ASSIGN || n->kind == N_SUM) && n->name &&
        strcmp(n->name, name) == 0)
        return true;
    for (int i = 0; i < n->nkids; i++)
        if (node_uses_name(n->kid[i], name)) return true;
    return false;
}

bool pv_code_uses_name(const pv_code *code, const char *name)
{
    return code && name && node_uses_name(code->ast, name);
}
