/*
 * Vector VM compiler: a compiled expression (pv_code) and a snapshot of the environment
 * become a self-contained vector program (vvm_int.h): inline and bind, fold constants,
 * type and generate the fast-tier register code. Runs on the caller's thread, outside any
 * parallel region. The executor is vvm_exec.c.
 */
#include "vvm_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_INLINE_DEPTH 64
/* Nodes that inlining may create for one expression: a body that uses its parameter twice
 * doubles its argument at every level of a chain (f2(x) = f1(f1(x)), f3(x) = f2(f2(x)),
 * ...: 2^n nodes). Past this the expression runs through the scalar VM. */
#define MAX_INLINE_NODES 20000

enum { T_NO = 0, T_REAL, T_INT, T_NUM };

/* ---- 1. inline and bind ---------------------------------------------------------------- */

typedef struct vctx {
    pv_env *env;
    const pv_code *code;
    int nslots;
    const char *const *slots;
    pv_status st;
    size_t inlined;     /* nodes created by inlining so far */
    bool too_large;     /* ... and they passed MAX_INLINE_NODES */
    const pv_func *inlining[MAX_INLINE_DEPTH]; /* the functions being inlined, outermost
                                                  first (transform's depth entries) */
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

static size_t node_count(const pv_node *n)
{
    size_t count = 1;
    for (int i = 0; i < n->nkids; i++)
        if (n->kid[i]) count += node_count(n->kid[i]);
    return count;
}

/* Count `nodes` more inlined nodes; false once there are too many. */
static bool inline_budget(vctx *V, size_t nodes)
{
    V->inlined += nodes;
    if (V->inlined > MAX_INLINE_NODES) V->too_large = true;
    return !V->too_large;
}

/* A clone of `n` that inlining adds to the expression, or NULL (out of memory or budget). */
static pv_node *inline_clone(vctx *V, const pv_node *n)
{
    return inline_budget(V, node_count(n)) ? pv_node_clone(n) : NULL;
}

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
            return fail_at(V, n->off, "function with side effects cannot run in vector form",
                           d->name);
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
    /* a recursive call never ends at compile time (both branches of a ternary are
     * computed): refuse it at once rather than inline it MAX_INLINE_DEPTH times */
    bool recursive = depth >= MAX_INLINE_DEPTH;
    for (int d = 0; d < depth && !recursive; d++) recursive = V->inlining[d] == f;
    if (recursive)
        return fail_at(V, n->off, "recursive function cannot run in vector form", n->name);
    V->inlining[depth] = f;
    pv_node *body = subst(V, f->body->ast, n->kid, depth + 1);
    if (!body && V->too_large)
        return fail_at(V, n->off, "function too large to inline in vector form", n->name);
    if (!body) return fail_at(V, n->off, "out of memory", NULL);
    transform(V, body, depth + 1);
    /* gnuplot evaluates every argument before the body: an argument that may fail or be
     * undefined is evaluated first (its value dropped), so an unused or conditionally used
     * parameter still makes the call undefined exactly when the scalar call is */
    for (int i = n->nkids - 1; i >= 0 && !V->st; i--) {
        if (safe_arg(n->kid[i])) continue;
        pv_node *g = pv_node_new(N_SERIAL, n->off);
        pv_node *a = inline_clone(V, n->kid[i]);
        if (!g || !a || pv_node_addkid(g, a) != PV_OK || pv_node_addkid(g, body) != PV_OK) {
            pv_node_free(g);
            pv_node_free(a);
            pv_node_free(body);
            if (V->too_large)
                return fail_at(V, n->off, "function too large to inline in vector form", n->name);
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
    if (n->kind == N_PARAM) return inline_clone(V, args[n->ival]);
    pv_node *c = inline_budget(V, 1) ? pv_node_new(n->kind, n->off) : NULL;
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
    bool oom;
} gen;

static int new_reg(gen *G, int kind, double cval, int slot)
{
    pv_vcode *vc = G->vc;
    if (!PV_GROW(vc->ctx, vc->regs, vc->cap_regs, (size_t)vc->nregs + 1)) {
        G->oom = true;
        return 0;
    }
    vc->regs[vc->nregs] = (vregdef){kind, cval, slot};
    if (kind == 0) vc->ntemps++;
    return vc->nregs++;
}

static void add_ins(gen *G, vins I)
{
    pv_vcode *vc = G->vc;
    if (!PV_GROW(vc->ctx, vc->ins, vc->cap_ins, (size_t)vc->nins + 1)) {
        G->oom = true;
        return;
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
            bool is_exp = strcmp(d->name, "exp") == 0;
            add_ins(G, (vins){is_exp ? V_EXP : V_CALL1, *reg, ra, 0, 0, (int)n->ival, 0});
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

/* exp(x) for x <= -746 is below 2^-1076, so a libm exp within 0.75 subnormal ulp returns
 * +0 (glibc's is within 0.511 ulp); the scalar path then gives +0 too (gnuplot's f_exp and
 * cexp both compute exp(x) * cos(0) and exp(x) * sin(0)). Checked here once on this build's
 * scalar VM at a few points; if any differs, V_EXP sends those lanes the slow way. */
static double exp_underflow_bound(const pv_vcode *vc)
{
    int id = -1;
    for (int k = 0; k < vc->nins; k++)
        if (vc->ins[k].op == V_EXP) id = vc->ins[k].aux;
    if (id < 0) return NAN;
    static const double probe[] = {-746.0, -746.5, -800.0, -1e4, -1e300};
    pv_vm vm = {vc->env, NULL, 0, 0, 0, false, true, true, vc->degrees, NULL, 0};
    bool ok = true;
    for (size_t k = 0; k < sizeof probe / sizeof *probe; k++) {
        double y;
        ok = ok && pv_vvm_call_scalar(&vm, id, probe[k], &y) && y == 0.0 && !signbit(y);
    }
    pv_vm_fini(&vm);
    return ok ? -746.0 : (double)NAN;
}

pv_status pv_vcompile(pv_env *env, const pv_code *code, int nslots, const char *const *slots,
                      pv_vcode **out)
{
    *out = NULL;
    vctx V = {env, code, nslots, slots, PV_OK, 0, false, {NULL}};
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
    vc->ctx = env->ctx;
    vc->nslots = nslots;
    vc->degrees = env->degrees;
    vc->code = pv_code_from_ast(env->ctx, ast, code->src, code->start, code->end);
    if (!vc->code) {
        free(vc);
        return env->ctx->err_code ? env->ctx->err_code : PV_ENOMEM;
    }
    gen G = {vc, false};
    int t = vgen(&G, vc->code->ast, &vc->result);
    if (G.oom) {
        pv_vcode_destroy(vc);
        return pv_err(env->ctx, PV_ENOMEM, "out of memory");
    }
    vc->fast = numeric(t);
    vc->exp_zero_below = exp_underflow_bound(vc);
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
    pv_free(vc->ctx, vc->ins, vc->cap_ins * sizeof *vc->ins);
    pv_free(vc->ctx, vc->regs, vc->cap_regs * sizeof *vc->regs);
    free(vc);
}

