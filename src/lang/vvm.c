/*
 * Vector VM: one expression over many lanes (voxels or data rows).
 *
 * pv_vcompile() snapshots the environment into a self-contained program:
 *   1. user functions are inlined (parameters replaced by the argument expressions),
 *      variables that are not lane inputs become constants, `$N` / column(N) become slots;
 *   2. constant subtrees are folded with the scalar VM (so folding cannot change results);
 *   3. static types are inferred: slots are real, int only from int constants, comparisons
 *      and logic. If every node fits the fast tier (real arithmetic with at least one real
 *      operand, comparisons, ternary selecting per lane, real math functions), the
 *      expression runs as tight loops over double arrays of CHUNK lanes.
 * A lane leaves the fast tier whenever its value might differ from the scalar result
 * (division by zero, a complex or undefined result of ** or a math function): it is then
 * recomputed by the scalar VM on the inlined bytecode. Expressions outside the fast tier
 * run every lane through the scalar VM. Either way each lane equals pv_eval bit for bit.
 * Both ternary branches are computed in the fast tier; that is safe because the program
 * has no side effects (assignments, sum and rand() are rejected at compile time, and so
 * is any external builtin: voxel() is an MPI collective and must not run in threads).
 * Speed: registers are written once, so a result computed from uniform inputs stays one
 * value (folded once per chunk) and a ternary on a uniform condition aliases the chosen
 * register; a ternary on a single-use comparison is fused into one pass; the root writes
 * straight into the caller's output; x**2 uses x*x on the lanes where that is provably
 * pow(x,2.0) (see run_pow); exp, log, sqrt, sin, cos run as plain libm loops.
 */
#include "lang_int.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define CHUNK 512
#define MAX_INLINE_DEPTH 64

enum { T_NO = 0, T_REAL, T_INT, T_NUM };

typedef enum vop {
    V_ADD, V_SUB, V_MUL, V_DIV, V_POW, V_LT, V_LE, V_GT, V_GE, V_EQ, V_NE, V_AND, V_OR,
    V_NEG, V_ABS, V_CALL1, V_SEL, V_SELCMP, V_NOP
} vop;

typedef struct vins {
    int op;
    int dst, a, b, c;   /* registers */
    int aux;            /* builtin id for V_CALL1; V_SELCMP: the comparison (V_LT..V_NE) */
    int e;              /* V_SELCMP: (c CMP e) ? a : b */
} vins;

typedef struct vregdef {
    int kind;           /* 0 temp, 1 const, 2 slot */
    double cval;
    int slot;
} vregdef;

struct pv_vcode {
    pv_env *env;        /* for the scalar VM of slow lanes */
    pv_code *code;      /* inlined, folded bytecode (slow lanes) */
    int nslots;
    bool fast;
    bool degrees;       /* angle mode at compile time */
    vins *ins;
    int nins;
    vregdef *regs;
    int nregs, ntemps, result;
};

struct pv_vscratch {
    size_t max_lanes;
    double *temps;      /* ntemps * CHUNK */
    const double **rp;  /* register pointers for this chunk */
    double *ru;         /* uniform values */
    bool *runi;
    unsigned char slow[CHUNK];
    unsigned char hard[CHUNK];
    double *lane;       /* nslots values of one lane */
    pv_vm vm;
    bool failed;        /* a lane raised a script error (reported by the caller) */
};

/* ---- 1. inline and bind ---------------------------------------------------------------- */

typedef struct vctx {
    pv_env *env;
    const pv_code *code;
    int nslots;
    const char *const *slots;
    pv_status st;
} vctx;

static int slot_of(vctx *V, const char *name)
{
    for (int k = 0; k < V->nslots; k++)
        if (strcmp(V->slots[k], name) == 0) return k;
    return -1;
}

static pv_node *fail_at(vctx *V, size_t off, const char *msg, const char *name)
{
    if (V->st == PV_OK) {
        V->st = name ? pv_code_error(V->env, V->code, off, "%s: %s", msg, name)
                     : pv_code_error(V->env, V->code, off, "%s", msg);
    }
    return NULL;
}

static pv_node *subst(vctx *V, const pv_node *n, pv_node *const *args, int depth);

/* Replace a node in place by another (frees the old contents). */
static void replace(pv_node *dst, pv_node *src)
{
    pv_node tmp = *dst;
    *dst = *src;
    *src = tmp;
    pv_node_free(src);
}

/* An argument that can be neither undefined nor an error (numbers, slots, + - * and
 * comparisons of those). */
static bool safe_arg(const pv_node *n)
{
    switch (n->kind) {
    case N_CONST: return n->val.type == PV_V_INT || n->val.type == PV_V_CMPLX;
    case N_SLOT: return true;
    case N_UNARY: return (n->op == '-' || n->op == '+') && safe_arg(n->kid[0]);
    case N_BINARY:
        switch (n->op) {
        case OP_ADD: case OP_SUB: case OP_MUL: case OP_LT: case OP_LE: case OP_GT: case OP_GE:
        case OP_EQ: case OP_NE:
            return safe_arg(n->kid[0]) && safe_arg(n->kid[1]);
        default:
            return false;
        }
    default: return false;
    }
}

static pv_node *transform(vctx *V, pv_node *n, int depth)
{
    if (!n || V->st) return n;
    for (int i = 0; i < n->nkids; i++) {
        if (!n->kid[i]) continue;
        transform(V, n->kid[i], depth);
        if (V->st) return n;
    }
    char buf[32];
    switch (n->kind) {
    case N_VAR: {
        int k = slot_of(V, n->name);
        if (k >= 0) {
            n->kind = N_SLOT;
            n->ival = k;
            return n;
        }
        const pv_value *v = pv_env_get(V->env, n->name);
        if (!v) /* let the scalar path report it where gnuplot would */
            return fail_at(V, n->off, "undefined variable", n->name);
        n->kind = N_CONST;
        n->val = pv_value_copy(v);
        return n;
    }
    case N_COLUMN: {
        snprintf(buf, sizeof buf, "$%lld", (long long)n->ival);
        int k = slot_of(V, buf);
        if (k < 0) return fail_at(V, n->off, "column is not a lane input", buf);
        n->kind = N_SLOT;
        n->ival = k;
        return n;
    }
    case N_ASSIGN:
        return fail_at(V, n->off, "assignment cannot run in vector form", NULL);
    case N_SUM:
        return fail_at(V, n->off, "sum cannot run in vector form", NULL);
    case N_DBCOUNT: {
        size_t nl;
        if (pv_env_get_datablock(V->env, n->name, &nl)) {
            n->kind = N_CONST;
            n->val = pv_int((int64_t)nl);
        }
        return n;
    }
    case N_CALL:
        break;
    default:
        return n;
    }
    if (n->ival >= 0) {
        const pv_builtin_desc *d = pv_builtin_desc_get((int)n->ival);
        if (d->flags & BF_COLUMN) {
            if (strcmp(d->name, "column") == 0 && n->nkids == 1 && n->kid[0]->kind == N_CONST &&
                n->kid[0]->val.type == PV_V_INT) {
                snprintf(buf, sizeof buf, "$%lld", (long long)n->kid[0]->val.i);
                int k = slot_of(V, buf);
                if (k >= 0) {
                    pv_node *s = pv_node_new(N_SLOT, n->off);
                    if (!s) return fail_at(V, n->off, "out of memory", NULL);
                    s->ival = k;
                    replace(n, s);
                    return n;
                }
            }
            return fail_at(V, n->off, "data columns cannot run in vector form", NULL);
        }
        if (!(d->flags & (BF_PURE | BF_ENV)))
            return fail_at(V, n->off, "function with side effects cannot run in vector form", d->name);
        return n;
    }
    if (pv_hash_get(&V->env->exts, n->name)) {
        /* external builtins (voxel() is an MPI collective) must never run in the caller's
         * OpenMP threads: no vector form, and no error recorded (the scalar path is normal) */
        if (V->st == PV_OK) V->st = PV_ESCRIPT;
        return n;
    }
    pv_func *f = pv_hash_get(&V->env->funcs, n->name);
    if (!f) return fail_at(V, n->off, "undefined function", n->name);
    if (f->nparams != n->nkids)
        return fail_at(V, n->off, "wrong number of arguments for function", n->name);
    if (depth >= MAX_INLINE_DEPTH)
        return fail_at(V, n->off, "recursive function cannot run in vector form", n->name);
    pv_node *body = subst(V, f->body->ast, n->kid, depth + 1);
    if (!body) return fail_at(V, n->off, "out of memory", NULL);
    transform(V, body, depth + 1);
    /* gnuplot evaluates every argument before the body: an argument that may fail or be
     * undefined is evaluated first (its value dropped), so an unused or conditionally used
     * parameter still makes the call undefined exactly when the scalar call is */
    for (int i = n->nkids - 1; i >= 0 && !V->st; i--) {
        if (safe_arg(n->kid[i])) continue;
        pv_node *g = pv_node_new(N_SERIAL, n->off);
        pv_node *a = pv_node_clone(n->kid[i]);
        if (!g || !a || pv_node_addkid(g, a) != PV_OK || pv_node_addkid(g, body) != PV_OK) {
            pv_node_free(g);
            pv_node_free(a);
            pv_node_free(body);
            return fail_at(V, n->off, "out of memory", NULL);
        }
        body = g;
    }
    replace(n, body);
    return n;
}

/* Clone a function body with its parameters replaced by (clones of) the arguments. */
static pv_node *subst(vctx *V, const pv_node *n, pv_node *const *args, int depth)
{
    if (n->kind == N_PARAM) return pv_node_clone(args[n->ival]);
    pv_node *c = pv_node_new(n->kind, n->off);
    if (!c) return NULL;
    c->op = n->op;
    c->ival = n->ival;
    c->val = pv_value_copy(&n->val);
    if (n->name) c->name = pvl_strdup(n->name);
    for (int i = 0; i < n->nkids; i++) {
        pv_node *k = n->kid[i] ? subst(V, n->kid[i], args, depth) : NULL;
        if ((n->kid[i] && !k) || pv_node_addkid(c, k) != PV_OK) {
            pv_node_free(k);
            pv_node_free(c);
            return NULL;
        }
    }
    return c;
}

/* ---- 2. constant folding ---------------------------------------------------------------- */

static bool is_const(const pv_node *n) { return n && n->kind == N_CONST; }

static void fold(vctx *V, pv_node *n)
{
    for (int i = 0; i < n->nkids; i++)
        if (n->kid[i]) fold(V, n->kid[i]);
    if (n->kind == N_TERN && is_const(n->kid[0]) && n->kid[0]->val.type == PV_V_INT) {
        int pick = n->kid[0]->val.i ? 1 : 2;
        pv_node *b = n->kid[pick];
        n->kid[pick] = NULL;
        replace(n, b);
        return;
    }
    if (n->kind == N_SERIAL && is_const(n->kid[0])) {
        pv_node *b = n->kid[1];
        n->kid[1] = NULL;
        replace(n, b);
        return;
    }
    bool foldable = false;
    switch (n->kind) {
    case N_UNARY: case N_BINARY: case N_AND: case N_OR: case N_SUBSTR: case N_TERN:
        foldable = true;
        break;
    case N_CALL:
        foldable = n->ival >= 0 && (pv_builtin_desc_get((int)n->ival)->flags & BF_PURE);
        break;
    default:
        break;
    }
    if (!foldable) return;
    for (int i = 0; i < n->nkids; i++)
        if (n->kid[i] && !is_const(n->kid[i])) return;
    pv_node *cl = pv_node_clone(n);
    if (!cl) return;
    pv_code *code = pv_code_from_ast(V->env->ctx, cl, NULL, 0, 0);
    if (!code) return;
    pv_vm vm = {V->env, NULL, 0, 0, 0, false, true, false, false, NULL, 0};
    pv_value v;
    pv_status st = pv_vm_exec(&vm, code, 0, 0, NULL, &v);
    pv_vm_fini(&vm);
    pv_code_destroy(code);
    if (st != PV_OK || vm.undefined || v.type == PV_V_UNDEF) {
        pv_value_free(&v);
        return; /* errors and undefined values stay for run time */
    }
    for (int i = 0; i < n->nkids; i++) pv_node_free(n->kid[i]);
    free(n->kid);
    n->kid = NULL;
    n->nkids = 0;
    free(n->name);
    n->name = NULL;
    n->kind = N_CONST;
    n->val = v;
}

/* ---- 3. typing and fast-tier code ------------------------------------------------------- */

typedef struct gen {
    pv_vcode *vc;
    int cap_ins, cap_regs;
    bool oom;
} gen;

static int new_reg(gen *G, int kind, double cval, int slot)
{
    pv_vcode *vc = G->vc;
    if (vc->nregs == G->cap_regs) {
        int nc = G->cap_regs ? 2 * G->cap_regs : 16;
        vregdef *nr = realloc(vc->regs, (size_t)nc * sizeof *nr);
        if (!nr) {
            G->oom = true;
            return 0;
        }
        vc->regs = nr;
        G->cap_regs = nc;
    }
    vc->regs[vc->nregs] = (vregdef){kind, cval, slot};
    if (kind == 0) vc->ntemps++;
    return vc->nregs++;
}

static void add_ins(gen *G, vins I)
{
    pv_vcode *vc = G->vc;
    if (vc->nins == G->cap_ins) {
        int nc = G->cap_ins ? 2 * G->cap_ins : 16;
        vins *ni = realloc(vc->ins, (size_t)nc * sizeof *ni);
        if (!ni) {
            G->oom = true;
            return;
        }
        vc->ins = ni;
        G->cap_ins = nc;
    }
    vc->ins[vc->nins++] = I;
}

static bool numeric(int t) { return t == T_REAL || t == T_INT || t == T_NUM; }

static int vgen(gen *G, const pv_node *n, int *reg);

/* Returns the node's type; *reg receives its register. T_NO: not in the fast tier. */
static int vgen(gen *G, const pv_node *n, int *reg)
{
    int ta, tb, tc, ra, rb, rc;
    switch (n->kind) {
    case N_CONST:
        if (n->val.type == PV_V_INT) {
            *reg = new_reg(G, 1, (double)n->val.i, 0);
            return T_INT;
        }
        if (n->val.type == PV_V_CMPLX && n->val.im == 0.0) {
            *reg = new_reg(G, 1, n->val.re, 0);
            return T_REAL;
        }
        return T_NO;
    case N_SLOT:
        *reg = new_reg(G, 2, 0.0, (int)n->ival);
        return T_REAL;
    case N_UNARY:
        ta = vgen(G, n->kid[0], &ra);
        if (ta != T_REAL || (n->op != '-' && n->op != '+')) return T_NO;
        if (n->op == '+') {
            *reg = ra;
            return T_REAL;
        }
        *reg = new_reg(G, 0, 0.0, 0);
        add_ins(G, (vins){V_NEG, *reg, ra, 0, 0, 0, 0});
        return T_REAL;
    case N_BINARY: {
        static const int map[OP_NBINOP] = {
            [OP_ADD] = V_ADD + 1, [OP_SUB] = V_SUB + 1, [OP_MUL] = V_MUL + 1,
            [OP_DIV] = V_DIV + 1, [OP_POW] = V_POW + 1, [OP_LT] = V_LT + 1,
            [OP_LE] = V_LE + 1, [OP_GT] = V_GT + 1, [OP_GE] = V_GE + 1,
            [OP_EQ] = V_EQ + 1, [OP_NE] = V_NE + 1};
        int op = map[n->op] - 1;
        if (op < 0) return T_NO;
        ta = vgen(G, n->kid[0], &ra);
        tb = vgen(G, n->kid[1], &rb);
        if (!numeric(ta) || !numeric(tb) || (ta != T_REAL && tb != T_REAL)) return T_NO;
        if (op == V_POW && tb == T_NUM) return T_NO; /* exponent kind varies per lane */
        *reg = new_reg(G, 0, 0.0, 0);
        add_ins(G, (vins){op, *reg, ra, rb, 0, op == V_POW && tb == T_INT, 0});
        return op >= V_LT ? T_INT : T_REAL;
    }
    case N_AND: case N_OR:
        ta = vgen(G, n->kid[0], &ra);
        tb = vgen(G, n->kid[1], &rb);
        if (ta != T_INT || tb != T_INT) return T_NO;
        *reg = new_reg(G, 0, 0.0, 0);
        add_ins(G, (vins){n->kind == N_AND ? V_AND : V_OR, *reg, ra, rb, 0, 0, 0});
        return T_INT;
    case N_TERN:
        tc = vgen(G, n->kid[0], &rc);
        ta = vgen(G, n->kid[1], &ra);
        tb = vgen(G, n->kid[2], &rb);
        if (tc != T_INT || !numeric(ta) || !numeric(tb)) return T_NO;
        *reg = new_reg(G, 0, 0.0, 0);
        add_ins(G, (vins){V_SEL, *reg, ra, rb, rc, 0, 0});
        return ta == tb ? ta : T_NUM;
    case N_SERIAL:
        ta = vgen(G, n->kid[0], &ra);
        if (!numeric(ta)) return T_NO;
        return vgen(G, n->kid[1], reg);
    case N_CALL: {
        if (n->ival < 0 || n->nkids != 1) return T_NO;
        const pv_builtin_desc *d = pv_builtin_desc_get((int)n->ival);
        ta = vgen(G, n->kid[0], &ra);
        if (!numeric(ta)) return T_NO;
        if (d->flags & BF_REAL1) {
            *reg = new_reg(G, 0, 0.0, 0);
            add_ins(G, (vins){V_CALL1, *reg, ra, 0, 0, (int)n->ival, 0});
            return T_REAL;
        }
        if (strcmp(d->name, "abs") == 0 && ta == T_REAL) {
            *reg = new_reg(G, 0, 0.0, 0);
            add_ins(G, (vins){V_ABS, *reg, ra, 0, 0, 0, 0});
            return T_REAL;
        }
        return T_NO;
    }
    default:
        return T_NO;
    }
}

/* Peephole: a ternary whose condition is a comparison used nowhere else tests the
 * comparison's operands directly (one pass over the lanes instead of two). */
static pv_status fuse_selects(pv_vcode *vc)
{
    int *uses = calloc((size_t)vc->nregs + 1, sizeof *uses);
    int *def = malloc(((size_t)vc->nregs + 1) * sizeof *def);
    if (!uses || !def) {
        free(uses);
        free(def);
        return PV_ENOMEM;
    }
    for (int r = 0; r < vc->nregs; r++) def[r] = -1;
    for (int k = 0; k < vc->nins; k++) {
        const vins *I = &vc->ins[k];
        def[I->dst] = k;
        uses[I->a]++;
        if (I->op <= V_OR || I->op == V_SEL) uses[I->b]++; /* binary ops and V_SEL */
        if (I->op == V_SEL) uses[I->c]++;
    }
    uses[vc->result]++;
    for (int k = 0; k < vc->nins; k++) {
        vins *I = &vc->ins[k];
        if (I->op != V_SEL || uses[I->c] != 1 || def[I->c] < 0) continue;
        vins *C = &vc->ins[def[I->c]];
        if (C->op < V_LT || C->op > V_NE) continue;
        I->op = V_SELCMP;
        I->aux = C->op;
        I->c = C->a;
        I->e = C->b;
        C->op = V_NOP;
    }
    free(uses);
    free(def);
    return PV_OK;
}

pv_status pv_vcompile(pv_env *env, const pv_code *code, int nslots, const char *const *slots,
                      pv_vcode **out)
{
    *out = NULL;
    vctx V = {env, code, nslots, slots, PV_OK};
    pv_node *ast = pv_node_clone(code->ast);
    if (!ast) return pv_err(env->ctx, PV_ENOMEM, "out of memory");
    transform(&V, ast, 0);
    if (V.st) {
        pv_node_free(ast);
        return V.st;
    }
    fold(&V, ast);
    pv_vcode *vc = calloc(1, sizeof *vc);
    if (!vc) {
        pv_node_free(ast);
        return pv_err(env->ctx, PV_ENOMEM, "out of memory");
    }
    vc->env = env;
    vc->nslots = nslots;
    vc->degrees = env->degrees;
    vc->code = pv_code_from_ast(env->ctx, ast, code->src, code->start, code->end);
    if (!vc->code) {
        free(vc);
        return env->ctx->err_code ? env->ctx->err_code : PV_ENOMEM;
    }
    gen G = {vc, 0, 0, false};
    int t = vgen(&G, vc->code->ast, &vc->result);
    if (G.oom) {
        pv_vcode_destroy(vc);
        return pv_err(env->ctx, PV_ENOMEM, "out of memory");
    }
    vc->fast = numeric(t);
    if (vc->fast && fuse_selects(vc) != PV_OK) {
        pv_vcode_destroy(vc);
        return pv_err(env->ctx, PV_ENOMEM, "out of memory");
    }
    *out = vc;
    return PV_OK;
}

void pv_vcode_destroy(pv_vcode *vc)
{
    if (!vc) return;
    pv_code_destroy(vc->code);
    free(vc->ins);
    free(vc->regs);
    free(vc);
}

pv_vscratch *pv_vscratch_create(const pv_vcode *vc, size_t max_lanes)
{
    pv_vscratch *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->max_lanes = max_lanes;
    int nr = vc->nregs > 0 ? vc->nregs : 1;
    s->temps = malloc((size_t)(vc->ntemps > 0 ? vc->ntemps : 1) * CHUNK * sizeof(double));
    s->rp = calloc((size_t)nr, sizeof *s->rp);
    s->ru = calloc((size_t)nr, sizeof *s->ru);
    s->runi = calloc((size_t)nr, sizeof *s->runi);
    s->lane = calloc((size_t)(vc->nslots > 0 ? vc->nslots : 1), sizeof *s->lane);
    s->vm.env = vc->env;
    s->vm.quiet = true;
    s->vm.fixed_deg = true;
    s->vm.deg = vc->degrees;
    if (!s->temps || !s->rp || !s->ru || !s->runi || !s->lane) {
        pv_vscratch_destroy(s);
        return NULL;
    }
    return s;
}

bool pv_vscratch_take_error(pv_vscratch *s)
{
    bool f = s->failed;
    s->failed = false;
    return f;
}

void pv_vscratch_destroy(pv_vscratch *s)
{
    if (!s) return;
    free(s->temps);
    free(s->rp);
    free(s->ru);
    free(s->runi);
    free(s->lane);
    pv_vm_fini(&s->vm);
    free(s);
}

/* ---- evaluation ------------------------------------------------------------------------- */

static double lane_scalar(const pv_vcode *vc, pv_vscratch *s, size_t i, const pv_vinput *in)
{
    for (int k = 0; k < vc->nslots; k++) s->lane[k] = in[k].p[in[k].stride ? i : 0];
    pv_value v;
    s->vm.undefined = false;
    s->vm.depth = 0;
    s->vm.loc_code = NULL;
    pv_status st = pv_vm_exec(&s->vm, vc->code, 0, 0, s->lane, &v);
    if (st != PV_OK) s->failed = true;
    double r = NAN;
    if (st == PV_OK && !s->vm.undefined) {
        if (v.type == PV_V_INT) r = (double)v.i;
        else if (v.type == PV_V_CMPLX && v.im == 0.0) r = v.re;
    }
    pv_value_free(&v);
    return r;
}

/* Binary loops with a uniform (scalar) or per-lane operand on each side. */
#define BINLOOP(EXPR)                                                                      \
    do {                                                                                   \
        if (ua && ub) { /* uniform operands: one value, a uniform result */                \
            double x = A[0], y = B[0];                                                     \
            D[0] = (EXPR);                                                                 \
            s->runi[I->dst] = true;                                                        \
        } else if (ua) {                                                                   \
            double x = A[0];                                                               \
            for (size_t i = 0; i < m; i++) { double y = B[i]; D[i] = (EXPR); }             \
        } else if (ub) {                                                                   \
            double y = B[0];                                                               \
            for (size_t i = 0; i < m; i++) { double x = A[i]; D[i] = (EXPR); }             \
        } else {                                                                           \
            for (size_t i = 0; i < m; i++) { double x = A[i], y = B[i]; D[i] = (EXPR); }   \
        }                                                                                  \
    } while (0)

/* x**2 and x**-2 (int exponent) are pow(x, 2.0) (inverted) in gnuplot, and pow() is not
 * x*x: glibc's pow is accurate to 0.52 ulp but not correctly rounded, and differs from
 * x*x for ~0.1% of x. So a lane takes x*x only when no other double can be pow's answer:
 * the exact square x*x + e lies within 0.46 ulp of p = x*x (e computed exactly), so every
 * other double is more than 0.54 ulp away; p is not a power of two (the double below would
 * be only half an ulp away); |x| is far from overflow and underflow. Other lanes (~8%)
 * call pow() through pv_pow_real like the scalar VM. */
static inline bool square_is_exact_pow(double x, double p)
{
    double e;
#ifdef __FP_FAST_FMA
    e = __builtin_fma(x, x, -p);
#else
    double c = 134217729.0 * x, hi = c - (c - x), lo = x - hi; /* Veltkamp split */
    e = ((hi * hi - p) + 2.0 * hi * lo) + lo * lo;            /* Dekker: x*x - p exactly */
#endif
    uint64_t bits;
    memcpy(&bits, &p, sizeof bits);
    uint64_t ebits = bits & 0x7ff0000000000000u;
    double pw;
    memcpy(&pw, &ebits, sizeof pw); /* 2^exponent(p) */
    double ax = fabs(x);
    return ax > 0x1p-400 && ax < 0x1p400 && (bits & 0x000fffffffffffffu) != 0 &&
           fabs(e) < 0.46 * 0x1p-52 * pw;
}

#if defined(__GNUC__) && !defined(__clang__)
__attribute__((optimize("O3")))
#endif
static void run_pow(pv_vscratch *s, const vins *I, size_t m)
{
    double *D = (double *)s->rp[I->dst];
    const double *A = s->rp[I->a], *B = s->rp[I->b];
    bool ua = s->runi[I->a], ub = s->runi[I->b], bint = I->aux != 0;
    unsigned char *slow = s->slow;
    if (ua && ub) {
        double re, im;
        bool undef = false;
        pv_pow_real(A[0], B[0], bint, &re, &im, &undef);
        D[0] = re;
        s->runi[I->dst] = true;
        if (undef || im != 0.0) memset(slow, 1, m);
        return;
    }
    if (ub && bint && (B[0] == 2.0 || B[0] == -2.0)) {
        unsigned char *hard = s->hard;
        unsigned any = 0;
        for (size_t i = 0; i < m; i++) {
            double x = A[i], p = x * x;
            bool ok = square_is_exact_pow(x, p);
            D[i] = p;
            hard[i] = (unsigned char)!ok;
            any |= hard[i];
        }
        if (B[0] < 0.0)
            for (size_t i = 0; i < m; i++) D[i] = 1.0 / D[i];
        if (any)
            for (size_t i = 0; i < m; i++) {
                if (!hard[i]) continue;
                double re, im;
                bool undef = false;
                pv_pow_real(A[i], B[0], true, &re, &im, &undef);
                D[i] = re;
                if (undef || im != 0.0) slow[i] = 1;
            }
        return;
    }
    for (size_t i = 0; i < m; i++) {
        double re, im;
        bool undef = false;
        pv_pow_real(A[ua ? 0 : i], B[ub ? 0 : i], bint, &re, &im, &undef);
        D[i] = re;
        if (undef || im != 0.0) slow[i] = 1;
    }
}

/* BINLOOP with a per-lane condition array in scope (Cc). */
#define BINLOOP_SEL(EXPR)                                                                  \
    do {                                                                                   \
        if (ua && ub) {                                                                    \
            double x = A[0], y = B[0];                                                     \
            for (size_t i = 0; i < m; i++) D[i] = (EXPR);                                  \
        } else if (ua) {                                                                   \
            double x = A[0];                                                               \
            for (size_t i = 0; i < m; i++) { double y = B[i]; D[i] = (EXPR); }             \
        } else if (ub) {                                                                   \
            double y = B[0];                                                               \
            for (size_t i = 0; i < m; i++) { double x = A[i]; D[i] = (EXPR); }             \
        } else {                                                                           \
            for (size_t i = 0; i < m; i++) { double x = A[i], y = B[i]; D[i] = (EXPR); }   \
        }                                                                                  \
    } while (0)

/* The chunk loops are the hot path of voxel fills: ask GCC for full vectorisation here even
 * in -O2 builds (its -O2 cost model skips most of these loops). No fast-math: results must
 * stay bit-identical to the scalar VM. */
#if defined(__GNUC__) && !defined(__clang__)
__attribute__((optimize("O3")))
#endif
static void run_chunk(const pv_vcode *vc, pv_vscratch *s, size_t off, size_t m,
                      const pv_vinput *in, double *outp)
{
    /* bind registers */
    int tnext = 0;
    for (int r = 0; r < vc->nregs; r++) {
        const vregdef *d = &vc->regs[r];
        if (d->kind == 1) {
            s->ru[r] = d->cval;
            s->rp[r] = &s->ru[r];
            s->runi[r] = true;
        } else if (d->kind == 2) {
            const pv_vinput *v = &in[d->slot];
            s->runi[r] = v->stride == 0;
            s->rp[r] = v->stride ? v->p + off : v->p;
        } else {
            /* the result register is the caller's output (saves a copy pass) */
            s->rp[r] = r == vc->result ? outp : s->temps + (size_t)tnext * CHUNK;
            tnext++;
            s->runi[r] = false;
        }
    }
    unsigned char *slow = s->slow;
    memset(slow, 0, m);
    for (int k = 0; k < vc->nins; k++) {
        const vins *I = &vc->ins[k];
        double *D = (double *)s->rp[I->dst];
        const double *A = s->rp[I->a], *B = s->rp[I->b];
        bool ua = s->runi[I->a], ub = s->runi[I->b];
        switch (I->op) {
        case V_ADD: BINLOOP(x + y); break;
        case V_SUB: BINLOOP(x - y); break;
        case V_MUL: BINLOOP(x * y); break;
        case V_DIV: {
            /* x/0 is undefined in gnuplot: such lanes go to the scalar VM. The zero test is
             * a reduction (vectorises), the per-lane flags are only set when one is hit. */
            bool anyz = false;
            if (ub) {
                BINLOOP(x / y);
                anyz = B[0] == 0.0;
            } else if (ua) {
                double x = A[0];
                for (size_t i = 0; i < m; i++) {
                    D[i] = x / B[i];
                    anyz |= B[i] == 0.0;
                }
            } else {
                for (size_t i = 0; i < m; i++) {
                    D[i] = A[i] / B[i];
                    anyz |= B[i] == 0.0;
                }
            }
            if (anyz) {
                if (ub) memset(slow, 1, m);
                else
                    for (size_t i = 0; i < m; i++) slow[i] |= (unsigned char)(B[i] == 0.0);
            }
            break;
        }
        case V_POW:
            run_pow(s, I, m);
            break;
        case V_LT: BINLOOP(x < y ? 1.0 : 0.0); break;
        case V_LE: BINLOOP(x <= y ? 1.0 : 0.0); break;
        case V_GT: BINLOOP(x > y ? 1.0 : 0.0); break;
        case V_GE: BINLOOP(x >= y ? 1.0 : 0.0); break;
        case V_EQ: BINLOOP(x == y ? 1.0 : 0.0); break;
        case V_NE: BINLOOP(x != y ? 1.0 : 0.0); break;
        case V_AND: BINLOOP((x != 0.0 && y != 0.0) ? 1.0 : 0.0); break;
        case V_OR: BINLOOP((x != 0.0 || y != 0.0) ? 1.0 : 0.0); break;
        case V_NEG:
            if (ua) {
                D[0] = -A[0];
                s->runi[I->dst] = true;
            } else {
                for (size_t i = 0; i < m; i++) D[i] = -A[i];
            }
            break;
        case V_ABS:
            if (ua) {
                D[0] = fabs(A[0]);
                s->runi[I->dst] = true;
            } else {
                for (size_t i = 0; i < m; i++) D[i] = fabs(A[i]);
            }
            break;
        case V_CALL1:
            if (ua) { /* uniform argument: one call, a uniform result */
                double y;
                if (pv_builtin_real1(I->aux, A[0], vc->degrees, &y)) {
                    D[0] = y;
                    s->runi[I->dst] = true;
                } else {
                    for (size_t i = 0; i < m; i++) D[i] = NAN;
                    memset(slow, 1, m);
                }
            } else {
                pv_builtin_real1_vec(I->aux, A, false, m, vc->degrees, D, slow);
            }
            break;
        case V_NOP:
            break;
        case V_SELCMP: {
            const double *X = s->rp[I->c], *Y = s->rp[I->e];
            bool ux = s->runi[I->c], uy = s->runi[I->e];
            if (ux && uy) {
                double xv = X[0], yv = Y[0];
                bool t;
                switch (I->aux) {
                case V_LT: t = xv < yv; break;
                case V_LE: t = xv <= yv; break;
                case V_GT: t = xv > yv; break;
                case V_GE: t = xv >= yv; break;
                case V_EQ: t = xv == yv; break;
                default: t = xv != yv; break;
                }
                s->rp[I->dst] = t ? A : B;
                s->runi[I->dst] = t ? ua : ub;
                break;
            }
#define SELCMP(CMP)                                                                        \
    do {                                                                                   \
        if (ux) {                                                                          \
            double xv = X[0];                                                              \
            BINLOOP_SEL((xv CMP Y[i]) ? x : y);                                            \
        } else if (uy) {                                                                   \
            double yv = Y[0];                                                              \
            BINLOOP_SEL((X[i] CMP yv) ? x : y);                                            \
        } else {                                                                           \
            BINLOOP_SEL((X[i] CMP Y[i]) ? x : y);                                          \
        }                                                                                  \
    } while (0)
            switch (I->aux) {
            case V_LT: SELCMP(<); break;
            case V_LE: SELCMP(<=); break;
            case V_GT: SELCMP(>); break;
            case V_GE: SELCMP(>=); break;
            case V_EQ: SELCMP(==); break;
            default: SELCMP(!=); break;
            }
#undef SELCMP
            break;
        }
        case V_SEL: {
            const double *C = s->rp[I->c];
            if (s->runi[I->c]) { /* registers are written once: alias the chosen one */
                bool t = C[0] != 0.0;
                s->rp[I->dst] = t ? A : B;
                s->runi[I->dst] = t ? ua : ub;
            } else {
                const double *Cc = C;
                BINLOOP_SEL(Cc[i] != 0.0 ? x : y);
            }
            break;
        }
        }
    }
}

void pv_veval(const pv_vcode *vc, pv_vscratch *s, size_t n, const pv_vinput *in, double *out)
{
    for (size_t off = 0; off < n; off += CHUNK) {
        size_t m = n - off < CHUNK ? n - off : CHUNK;
        if (!vc->fast) {
            for (size_t i = 0; i < m; i++) out[off + i] = lane_scalar(vc, s, off + i, in);
            continue;
        }
        run_chunk(vc, s, off, m, in, out + off);
        const double *R = s->rp[vc->result];
        if (s->runi[vc->result]) {
            double r = R[0];
            for (size_t i = 0; i < m; i++) out[off + i] = r;
        } else if (R != out + off) {
            memcpy(out + off, R, m * sizeof *out);
        }
        unsigned any = 0;
        for (size_t i = 0; i < m; i++) any |= s->slow[i];
        if (any)
            for (size_t i = 0; i < m; i++)
                if (s->slow[i]) out[off + i] = lane_scalar(vc, s, off + i, in);
    }
}
