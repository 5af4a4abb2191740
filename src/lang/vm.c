/*
 * Scalar VM: runs the stack bytecode of compile.c. Variables and functions are looked up
 * by name at run time; a user function runs its own body with the arguments as its
 * parameters and sees global variables as they are at call time (gnuplot 5.4). An
 * undefined result (1/0, log(0), ...) ends the evaluation with PV_V_UNDEF, as gnuplot's
 * `undefined` flag does. Runtime errors are located at the offending token of the
 * outermost expression.
 */
#include "builtins_int.h"
#include "lang_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH 250

static pv_status vm_error(pv_vm *vm, const pv_code *code, size_t off, const char *fmt, ...)
    PV_PRINTF(4, 5);

static pv_status vm_error(pv_vm *vm, const pv_code *code, size_t off, const char *fmt, ...)
{
    if (vm->quiet) return PV_ESCRIPT;
    if (vm->loc_code) {
        code = vm->loc_code;
        off = vm->loc_off;
    }
    va_list ap;
    va_start(ap, fmt);
    char *msg = pv_vasprintf(fmt, ap);
    va_end(ap);
    pv_ctx *ctx = vm->env->ctx;
    pv_source_error(ctx, PV_ESCRIPT, code ? code->src : NULL, off, "%s",
                    msg ? msg : "out of memory");
    free(msg);
    return PV_ESCRIPT;
}

pv_status pv_code_error(pv_env *env, const pv_code *code, size_t off, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *msg = pv_vasprintf(fmt, ap);
    va_end(ap);
    pv_source_error(env->ctx, PV_ESCRIPT, code->src, off, "%s", msg ? msg : "out of memory");
    free(msg);
    return PV_ESCRIPT;
}

static bool reserve(pv_vm *vm, size_t n)
{
    if (vm->sp + n <= vm->cap) return true;
    size_t nc = vm->cap ? vm->cap : 64;
    while (nc < vm->sp + n) nc *= 2;
    pv_value *ns = realloc(vm->stack, nc * sizeof *ns);
    if (!ns) return false;
    vm->stack = ns;
    vm->cap = nc;
    return true;
}

/* Make the top value numeric (strings converted as gnuplot does). */
static pv_status need_num(pv_vm *vm, const pv_code *code, size_t off, pv_value *v)
{
    if (v->type == PV_V_INT || v->type == PV_V_CMPLX) return PV_OK;
    if (v->type == PV_V_STR) {
        pv_value num;
        const char *err;
        if (!pv_str_to_num(v->s, &num, &err)) return vm_error(vm, code, off, "%s", err);
        pv_value_free(v);
        *v = num;
        return PV_OK;
    }
    return vm_error(vm, code, off, "undefined value");
}

/* Operators whose string operands are converted to numbers (& | ^ are not: gnuplot
 * reports "non-integer passed to boolean operator" for "1" & 1, but "1" << 1 is 2). */
static bool is_numeric_op(int op)
{
    return op != OP_CAT && op != OP_SEQ && op != OP_SNE && op != OP_BAND && op != OP_BOR &&
           op != OP_XOR;
}

/* Truth of a condition (ternary, && ||). */
static pv_status truth(pv_vm *vm, const pv_code *code, size_t off, pv_value *v, bool boolean,
                       bool *t)
{
    (void)boolean; /* ?: && || ! all need an integer in gnuplot 5.4 */
    if (v->type != PV_V_INT) return vm_error(vm, code, off, "non-integer passed to boolean operator");
    *t = v->i != 0;
    return PV_OK;
}

static pv_status call_user(pv_vm *vm, const pv_code *code, const pv_instr *I, pv_value *out,
                           bool *handled)
{
    pv_env *env = vm->env;
    const char *name = code->names[I->a];
    int nargs = I->b;
    *handled = true;
    pv_ext *x = pv_hash_get(&env->exts, name);
    if (x) {
        if (x->nargs >= 0 && x->nargs != nargs)
            return vm_error(vm, code, I->off, "function %s requires %d variable%s", name,
                            x->nargs, x->nargs == 1 ? "" : "s");
        pv_status st = x->fn(env, x->ud, &vm->stack[vm->sp - (size_t)nargs], nargs, out);
        if (st != PV_OK) {
            /* the builtin recorded its error; keep it, undefined results are NaN lanes */
            return st;
        }
        return PV_OK;
    }
    pv_func *f = pv_hash_get(&env->funcs, name);
    if (!f) return vm_error(vm, code, I->off, "undefined function: %s", name);
    if (f->nparams != nargs)
        return vm_error(vm, code, I->off, "function %s requires %d variable%s", name,
                        f->nparams, f->nparams == 1 ? "" : "s");
    if (vm->depth >= MAX_DEPTH) return vm_error(vm, code, I->off, "recursion depth limit exceeded");
    bool outer = vm->loc_code == NULL;
    if (outer) {
        vm->loc_code = code;
        vm->loc_off = I->off;
    }
    vm->depth++;
    pv_status st = pv_vm_exec(vm, f->body, vm->sp - (size_t)nargs, nargs, NULL, out);
    vm->depth--;
    if (outer) vm->loc_code = NULL;
    return st;
}

static pv_status do_sum_init(pv_vm *vm, const pv_code *code, const pv_instr *I, int *pc)
{
    pv_value *lo = &vm->stack[vm->sp - 2], *hi = &vm->stack[vm->sp - 1];
    pv_status st = need_num(vm, code, I->off, lo);
    if (!st) st = need_num(vm, code, I->off, hi);
    if (st) return st;
    if (lo->type != PV_V_INT || hi->type != PV_V_INT)
        return vm_error(vm, code, I->off, "range specifiers of sum must have integer values");
    int64_t a = lo->i, b = hi->i;
    const char *name = code->names[I->a];
    const pv_value *old = pv_env_get(vm->env, name);
    pv_value saved = old ? pv_value_copy(old) : (pv_value){PV_V_UNDEF, 0, 0.0, 0.0, NULL};
    /* layout: saved acc i hi */
    vm->stack[vm->sp - 2] = saved;
    vm->stack[vm->sp - 1] = pv_int(0);
    vm->stack[vm->sp++] = pv_int(a);
    vm->stack[vm->sp++] = pv_int(b);
    if (a > b) {
        vm->sp -= 2;
        pv_value acc = vm->stack[vm->sp - 1];
        vm->sp--;
        pv_value *sv = &vm->stack[vm->sp - 1];
        if (sv->type == PV_V_UNDEF) pv_env_undefine(vm->env, name);
        else pv_env_set(vm->env, name, sv);
        pv_value_free(sv);
        *sv = acc;
        *pc = I->b;
        return PV_OK;
    }
    pv_value iv = pv_int(a);
    return pv_env_set(vm->env, name, &iv);
}

static pv_status do_sum_step(pv_vm *vm, const pv_code *code, const pv_instr *I, int *pc)
{
    pv_value *body = &vm->stack[vm->sp - 1];
    pv_status st = need_num(vm, code, I->off, body);
    if (st) return st;
    pv_value *acc = &vm->stack[vm->sp - 4];
    pv_opres r = {NULL, false};
    pv_arith_binop(OP_ADD, acc, body, &r);
    vm->sp--;
    if (r.undef) vm->undefined = true;
    int64_t *i = &vm->stack[vm->sp - 2].i, hi = vm->stack[vm->sp - 1].i;
    const char *name = code->names[I->b];
    if (*i < hi) {
        (*i)++;
        pv_value iv = pv_int(*i);
        *pc = I->a;
        return pv_env_set(vm->env, name, &iv);
    }
    vm->sp -= 2;
    pv_value accv = vm->stack[--vm->sp];
    pv_value *sv = &vm->stack[vm->sp - 1];
    if (sv->type == PV_V_UNDEF) pv_env_undefine(vm->env, name);
    else pv_env_set(vm->env, name, sv);
    pv_value_free(sv);
    *sv = accv;
    return PV_OK;
}

static pv_status do_substr(pv_vm *vm, const pv_code *code, const pv_instr *I)
{
    int n = I->b ? 2 : 3;
    pv_value *s = &vm->stack[vm->sp - (size_t)n];
    if (s->type != PV_V_STR)
        return vm_error(vm, code, I->off, "internal error : substring range operator applied to non-STRING type");
    int64_t idx[2] = {0, INT64_MAX};
    for (int k = 1; k < n; k++) {
        pv_value *v = &vm->stack[vm->sp - (size_t)n + (size_t)k];
        pv_status st = need_num(vm, code, I->off, v);
        if (st) return st;
        idx[k - 1] = v->type == PV_V_INT ? v->i : pvl_trunc_i64(v->re);
    }
    int64_t len = (int64_t)strlen(s->s), a = idx[0], b = idx[1];
    if (a < 1) a = 1;
    if (b > len) b = len;
    char *r = (a > b) ? pvl_strdup("") : pvl_strndup(s->s + a - 1, (size_t)(b - a + 1));
    if (!r) return pv_err(vm->env->ctx, PV_ENOMEM, "out of memory");
    free(s->s);
    s->s = r;
    vm->sp -= (size_t)(n - 1);
    return PV_OK;
}

/* A[i] and $d[i] (1-based; a real index is truncated, as gnuplot). */
static pv_status do_index(pv_vm *vm, const pv_code *code, const pv_instr *I)
{
    pv_value *ix = &vm->stack[vm->sp - 1];
    const char *name = code->names[I->a];
    pv_status st = need_num(vm, code, I->off, ix);
    if (st) return st;
    int64_t k = ix->type == PV_V_INT ? ix->i : (ix->re >= -9e18 && ix->re <= 9e18) ? (int64_t)ix->re : 0;
    size_t n;
    if (I->b) {
        char **lines = pv_env_get_datablock(vm->env, name, &n);
        if (!lines) return vm_error(vm, code, I->off, "no such datablock");
        if (k < 1 || (size_t)k > n) return vm_error(vm, code, I->off, "datablock index out of range");
        *ix = pv_str(lines[k - 1]);
        return ix->type == PV_V_STR ? PV_OK : pv_err(vm->env->ctx, PV_ENOMEM, "out of memory");
    }
    pv_value *a = pv_env_get_array(vm->env, name, &n);
    if (!a) {
        if (pv_env_get(vm->env, name))
            return vm_error(vm, code, I->off, "internal error: attempt to index a scalar variable");
        return vm_error(vm, code, I->off, "undefined variable: %s", name);
    }
    if (k < 1 || (size_t)k > n) return vm_error(vm, code, I->off, "array index out of range");
    *ix = pv_value_copy(&a[k - 1]);
    return PV_OK;
}

static pv_status column_value(pv_vm *vm, const pv_code *code, size_t off, int64_t n,
                              pv_value *out)
{
    const pv_row *row = vm->env->row;
    if (!row) return vm_error(vm, code, off, "column() called from invalid context");
    if (n == 0) *out = pv_real((double)row->line);
    else if (n == -1) *out = pv_real((double)row->block);
    else if (n == -2) *out = pv_real((double)row->index);
    else if (n < 1 || n > row->ncols || (row->valid && !row->valid[n - 1])) {
        vm->undefined = true;
        *out = pv_real(NAN);
    } else {
        *out = pv_real(row->val[n - 1]);
    }
    return PV_OK;
}

pv_status pv_vm_exec(pv_vm *vm, const pv_code *code, size_t pbase, int nparams,
                     const double *slots, pv_value *out)
{
    pv_env *env = vm->env;
    size_t base = vm->sp;
    pv_status st = PV_OK;
    if (!reserve(vm, (size_t)code->maxstack)) return pv_err(env->ctx, PV_ENOMEM, "out of memory");
    pv_value *S = vm->stack;
#define TOP (S[vm->sp - 1])
    for (int pc = 0;;) {
        const pv_instr *I = &code->ins[pc++];
        switch (I->op) {
        case I_CONST:
            S[vm->sp] = code->consts[I->a];
            if (S[vm->sp].type == PV_V_STR) {
                S[vm->sp].s = pvl_strdup(S[vm->sp].s);
                if (!S[vm->sp].s) goto oom;
            }
            vm->sp++;
            break;
        case I_VAR: {
            const pv_value *v = pv_hash_get(&env->vars, code->names[I->a]);
            if (!v) {
                st = vm_error(vm, code, I->off, "undefined variable: %s", code->names[I->a]);
                goto fail;
            }
            S[vm->sp] = *v;
            if (v->type == PV_V_STR && !(S[vm->sp].s = pvl_strdup(v->s))) goto oom;
            vm->sp++;
            break;
        }
        case I_PARAM: {
            const pv_value *v = &S[pbase + (size_t)I->a];
            (void)nparams;
            S[vm->sp] = *v;
            if (v->type == PV_V_STR && !(S[vm->sp].s = pvl_strdup(v->s))) goto oom;
            vm->sp++;
            break;
        }
        case I_SLOT:
            S[vm->sp++] = pv_real(slots[I->a]);
            break;
        case I_COLUMN:
            if (I->a == -1) {
                if (!env->row) {
                    st = vm_error(vm, code, I->off, "column() called from invalid context");
                    goto fail;
                }
                S[vm->sp++] = pv_int(env->row->ncols);
                break;
            }
            st = column_value(vm, code, I->off, I->a, &S[vm->sp]);
            if (st) goto fail;
            vm->sp++;
            if (vm->undefined) goto undef;
            break;
        case I_UNARY: {
            pv_opres r = {NULL, false};
            if ((I->a == '!' || I->a == '~') && TOP.type == PV_V_STR) {
                st = vm_error(vm, code, I->off, "non-integer passed to boolean operator");
                goto fail;
            }
            if ((st = need_num(vm, code, I->off, &TOP))) goto fail;
            pv_arith_unary(I->a, &TOP, &r);
            if (r.err) {
                st = vm_error(vm, code, I->off, "%s", r.err);
                goto fail;
            }
            break;
        }
        case I_BINARY: {
            pv_opres r = {NULL, false};
            pv_value *a = &S[vm->sp - 2], *b = &S[vm->sp - 1];
            if (is_numeric_op(I->a)) {
                if ((st = need_num(vm, code, I->off, a)) || (st = need_num(vm, code, I->off, b)))
                    goto fail;
            }
            pv_arith_binop(I->a, a, b, &r);
            pv_value_free(b);
            vm->sp--;
            if (r.err) {
                st = vm_error(vm, code, I->off, "%s", r.err);
                goto fail;
            }
            if (r.undef) goto undef;
            break;
        }
        case I_JZ: {
            bool t = false;
            if ((st = truth(vm, code, I->off, &TOP, false, &t))) goto fail;
            pv_value_free(&TOP);
            vm->sp--;
            if (!t) pc = I->a;
            break;
        }
        case I_JMP:
            pc = I->a;
            break;
        case I_ANDTEST:
        case I_ORTEST: {
            bool t = false;
            if ((st = truth(vm, code, I->off, &TOP, true, &t))) goto fail;
            if (I->op == I_ANDTEST ? !t : t) {
                TOP = pv_int(t);
                pc = I->a;
            } else {
                vm->sp--;
            }
            break;
        }
        case I_BOOL: {
            bool t = false;
            if ((st = truth(vm, code, I->off, &TOP, true, &t))) goto fail;
            TOP = pv_int(t);
            break;
        }
        case I_BUILTIN: {
            pv_opres r = {NULL, false};
            pv_value res = {PV_V_UNDEF, 0, 0.0, 0.0, NULL};
            size_t ab = vm->sp - (size_t)I->b;
            const pv_builtin_desc *d = pv_builtin_desc_get(I->a);
            if (d->nargs >= 0 && d->nargs != I->b) {
                st = vm_error(vm, code, I->off, "function %s requires %d variable%s", d->name,
                              d->nargs, d->nargs == 1 ? "" : "s");
                goto fail;
            }
            if (d->nargs == -2 && (I->b < 1 || I->b > 2)) {
                st = vm_error(vm, code, I->off, "function %s requires 1 or 2 variables", d->name);
                goto fail;
            }
            pv_builtin_call(vm, I->a, &S[ab], I->b, &res, &r);
            S = vm->stack;
            for (size_t k = ab; k < vm->sp; k++) pv_value_free(&S[k]);
            vm->sp = ab;
            if (r.err) {
                pv_value_free(&res);
                st = vm_error(vm, code, I->off, "%s", r.err);
                goto fail;
            }
            S[vm->sp++] = res;
            if (r.undef || vm->undefined) goto undef;
            break;
        }
        case I_CALL: {
            pv_value res = {PV_V_UNDEF, 0, 0.0, 0.0, NULL};
            bool handled;
            st = call_user(vm, code, I, &res, &handled);
            S = vm->stack;
            if (st) goto fail;
            size_t ab = vm->sp - (size_t)I->b;
            for (size_t k = ab; k < vm->sp; k++) pv_value_free(&S[k]);
            vm->sp = ab;
            S[vm->sp++] = res;
            if (res.type == PV_V_UNDEF || vm->undefined) goto undef;
            break;
        }
        case I_ASSIGN:
            if ((st = pv_env_set(env, code->names[I->a], &TOP))) goto fail;
            break;
        case I_POP:
            pv_value_free(&TOP);
            vm->sp--;
            break;
        case I_SUMINIT:
            if ((st = do_sum_init(vm, code, I, &pc))) goto fail;
            break;
        case I_SUMSTEP:
            if ((st = do_sum_step(vm, code, I, &pc))) goto fail;
            if (vm->undefined) goto undef;
            break;
        case I_DBCOUNT: {
            size_t nl;
            if (!pv_env_get_datablock(env, code->names[I->a], &nl)) {
                st = vm_error(vm, code, I->off, "no such datablock");
                goto fail;
            }
            S[vm->sp++] = pv_int((int64_t)nl);
            break;
        }
        case I_DATABLOCK:
            st = vm_error(vm, code, I->off, "no datablock named %s", code->names[I->a]);
            goto fail;
        case I_INDEX:
            if ((st = do_index(vm, code, I))) goto fail;
            break;
        case I_ARRSIZE: {
            size_t n;
            if (!pv_env_get_array(env, code->names[I->a], &n)) {
                st = vm_error(vm, code, I->off, "not an array");
                goto fail;
            }
            S[vm->sp++] = pv_int((int64_t)n);
            break;
        }
        case I_SUBSTR:
            if ((st = do_substr(vm, code, I))) goto fail;
            break;
        case I_SUBEXPR_END:
            *out = TOP;
            vm->sp--;
            return PV_OK;
        default:
            st = pv_err(env->ctx, PV_EINTERNAL, "bad bytecode");
            goto fail;
        }
    }
#undef TOP
undef:
    vm->undefined = true;
    for (size_t k = base; k < vm->sp; k++) pv_value_free(&vm->stack[k]);
    vm->sp = base;
    *out = (pv_value){PV_V_UNDEF, 0, 0.0, 0.0, NULL};
    return PV_OK;
oom:
    st = pv_err(env->ctx, PV_ENOMEM, "out of memory");
fail:
    for (size_t k = base; k < vm->sp; k++) pv_value_free(&vm->stack[k]);
    vm->sp = base;
    *out = (pv_value){PV_V_UNDEF, 0, 0.0, 0.0, NULL};
    return st;
}

pv_status pv_eval(pv_env *env, const pv_code *code, pv_value *out)
{
    env->vm.env = env;
    env->vm.undefined = false;
    env->vm.depth = 0;
    env->vm.loc_code = NULL;
    pv_status st = pv_vm_exec(&env->vm, code, 0, 0, NULL, out);
    if (st == PV_OK && env->vm.undefined) {
        pv_value_free(out);
        out->type = PV_V_UNDEF;
    }
    return st;
}

pv_status pv_eval_real(pv_env *env, const pv_code *code, double *out)
{
    pv_value v;
    pv_status st = pv_eval(env, code, &v);
    if (st) return st;
    if (v.type == PV_V_STR) {
        pv_value num;
        const char *err;
        bool ok = pv_str_to_num(v.s, &num, &err);
        pv_value_free(&v);
        if (!ok) return pv_code_error(env, code, code->start, "%s", err);
        v = num;
    }
    if (v.type == PV_V_UNDEF) return pv_code_error(env, code, code->start, "undefined value");
    *out = pv_value_real(&v);
    return PV_OK;
}

pv_status pv_eval_int(pv_env *env, const pv_code *code, int64_t *out)
{
    pv_value v;
    pv_status st = pv_eval(env, code, &v);
    if (st) return st;
    if (v.type == PV_V_STR) {
        pv_value num;
        const char *err;
        bool ok = pv_str_to_num(v.s, &num, &err);
        pv_value_free(&v);
        if (!ok) return pv_code_error(env, code, code->start, "%s", err);
        v = num;
    }
    if (v.type == PV_V_UNDEF) return pv_code_error(env, code, code->start, "undefined value");
    if (v.type == PV_V_INT) {
        *out = v.i;
        return PV_OK;
    }
    if (!(v.re >= -9223372036854775808.0 && v.re < 9223372036854775808.0))
        return pv_code_error(env, code, code->start, "integer value out of range");
    *out = (int64_t)v.re;
    return PV_OK;
}

pv_status pv_eval_string(pv_env *env, const pv_code *code, char **out)
{
    pv_value v;
    pv_status st = pv_eval(env, code, &v);
    if (st) return st;
    if (v.type != PV_V_STR) {
        bool undef = v.type == PV_V_UNDEF;
        return pv_code_error(env, code, code->start, undef ? "undefined value" : "expecting string");
    }
    *out = v.s;
    return PV_OK;
}

/* ---- purity --------------------------------------------------------------------------- */

/* User functions are bound by name at run time, so the walk follows the current
 * definitions; a chain deeper than this (recursion included) is treated as impure. */
#define PURE_MAX_DEPTH 16

static bool code_pure(const pv_env *env, const pv_code *code, const char *const *pure_ext,
                      bool *calls_ext, int depth)
{
    if (depth > PURE_MAX_DEPTH) return false;
    for (int k = 0; k < code->nins; k++) {
        const pv_instr *I = &code->ins[k];
        if (I->op == I_ASSIGN) return false;
        if (I->op == I_BUILTIN && I->a == B_RAND) return false; /* advances the seed */
        if (I->op != I_CALL) continue;
        const char *name = code->names[I->a];
        if (pv_hash_get(&env->exts, name)) {
            bool listed = false;
            for (int e = 0; pure_ext && pure_ext[e]; e++)
                if (strcmp(pure_ext[e], name) == 0) listed = true;
            if (!listed) return false;
            *calls_ext = true;
            continue;
        }
        const pv_func *f = pv_hash_get(&env->funcs, name);
        if (!f || !code_pure(env, f->body, pure_ext, calls_ext, depth + 1)) return false;
    }
    return true;
}

bool pv_code_is_pure(const pv_env *env, const pv_code *code, const char *const *pure_ext,
                     bool *calls_ext)
{
    bool calls = false;
    bool pure = code && code_pure(env, code, pure_ext, &calls, 0);
    if (calls_ext) *calls_ext = calls;
    return pure;
}
