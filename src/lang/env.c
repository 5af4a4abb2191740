/*
 * Environment: open-addressing hash tables (FNV-1a, linear probing, tombstones) for
 * variables, user functions, datablocks and external builtins, and the value stack the
 * scalar VM reuses across evaluations.
 */
#include "lang_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static char tomb_key;
#define TOMB (&tomb_key)

static uint64_t hash_str(const char *s)
{
    uint64_t h = 1469598103934665603ull; /* FNV-1a offset basis */
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

static pv_hent *find(const pv_hash *h, const char *key)
{
    if (!h->cap) return NULL;
    size_t m = h->cap - 1, i = (size_t)hash_str(key) & m;
    for (;;) {
        pv_hent *e = &h->e[i];
        if (!e->key) return NULL;
        if (e->key != TOMB && strcmp(e->key, key) == 0) return e;
        i = (i + 1) & m;
    }
}

void *pv_hash_get(const pv_hash *h, const char *key)
{
    pv_hent *e = find(h, key);
    return e ? e->val : NULL;
}

static bool grow(pv_hash *h)
{
    size_t nc = h->cap ? h->cap * 2 : 32;
    pv_hent *ne = calloc(nc, sizeof *ne);
    if (!ne) return false;
    for (size_t i = 0; i < h->cap; i++) {
        pv_hent *e = &h->e[i];
        if (!e->key || e->key == TOMB) continue;
        size_t j = (size_t)hash_str(e->key) & (nc - 1);
        while (ne[j].key) j = (j + 1) & (nc - 1);
        ne[j] = *e;
    }
    free(h->e);
    h->e = ne;
    h->cap = nc;
    h->used = h->n;
    return true;
}

pv_status pv_hash_put(pv_hash *h, const char *key, void *val, void **old)
{
    *old = NULL;
    pv_hent *e = find(h, key);
    if (e) {
        *old = e->val;
        e->val = val;
        return PV_OK;
    }
    if ((h->used + 1) * 4 >= h->cap * 3 && !grow(h)) return PV_ENOMEM;
    char *k = pvl_strdup(key);
    if (!k) return PV_ENOMEM;
    size_t m = h->cap - 1, i = (size_t)hash_str(key) & m;
    while (h->e[i].key && h->e[i].key != TOMB) i = (i + 1) & m;
    if (!h->e[i].key) h->used++;
    h->e[i].key = k;
    h->e[i].val = val;
    h->e[i].seq = h->seq++;
    h->n++;
    return PV_OK;
}

void *pv_hash_del(pv_hash *h, const char *key)
{
    pv_hent *e = find(h, key);
    if (!e) return NULL;
    void *v = e->val;
    free(e->key);
    e->key = TOMB;
    e->val = NULL;
    h->n--;
    return v;
}

static int cmp_seq(const void *a, const void *b)
{
    const pv_hent *x = *(const pv_hent *const *)a, *y = *(const pv_hent *const *)b;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

pv_hent **pv_hash_ordered(const pv_hash *h, size_t *n)
{
    pv_hent **v = malloc((h->n ? h->n : 1) * sizeof *v);
    *n = 0;
    if (!v) return NULL;
    for (size_t i = 0; i < h->cap; i++)
        if (h->e[i].key && h->e[i].key != TOMB) v[(*n)++] = &h->e[i];
    qsort(v, *n, sizeof *v, cmp_seq);
    return v;
}

void pv_hash_fini(pv_hash *h, void (*freeval)(void *))
{
    for (size_t i = 0; i < h->cap; i++) {
        if (!h->e[i].key || h->e[i].key == TOMB) continue;
        if (freeval) freeval(h->e[i].val);
        free(h->e[i].key);
    }
    free(h->e);
    memset(h, 0, sizeof *h);
}

static void free_var(void *p)
{
    pv_value_free(p);
    free(p);
}

static void free_func(void *p)
{
    pv_func *f = p;
    if (!f) return;
    free(f->name);
    for (int i = 0; i < f->nparams; i++) free(f->params[i]);
    free(f->params);
    pv_code_destroy(f->body);
    free(f->text);
    free(f);
}

static void free_block(void *p)
{
    pv_dblock *b = p;
    if (!b) return;
    for (size_t i = 0; i < b->nlines; i++) free(b->lines[i]);
    free(b->lines);
    free(b->name);
    free(b);
}

static void free_array(void *p)
{
    pv_array *a = p;
    if (!a) return;
    for (size_t i = 0; i < a->n; i++) pv_value_free(&a->v[i]);
    free(a->v);
    free(a);
}

static void free_ext(void *p)
{
    pv_ext *x = p;
    if (!x) return;
    free(x->name);
    free(x);
}

static void builtin_vars(pv_env *env)
{
    pv_value v = pv_real(PV_PI);
    pv_env_set(env, "pi", &v);
    v.im = 1.0;
    v.re = 0.0;
    pv_env_set(env, "I", &v);
    v = pv_real(NAN);
    pv_env_set(env, "NaN", &v);
}

pv_env *pv_env_create(pv_ctx *ctx)
{
    pv_env *env = calloc(1, sizeof *env);
    if (!env) {
        pv_err(ctx, PV_ENOMEM, "out of memory");
        return NULL;
    }
    env->ctx = ctx;
    env->vm.env = env;
    env->vm.cap = 256;
    env->vm.stack = calloc(env->vm.cap, sizeof *env->vm.stack);
    if (!env->vm.stack) {
        free(env);
        pv_err(ctx, PV_ENOMEM, "out of memory");
        return NULL;
    }
    env->seed1 = env->seed2 = 1234567890;
    builtin_vars(env);
    return env;
}

void pv_env_destroy(pv_env *env)
{
    if (!env) return;
    pv_hash_fini(&env->vars, free_var);
    pv_hash_fini(&env->funcs, free_func);
    pv_hash_fini(&env->blocks, free_block);
    pv_hash_fini(&env->exts, free_ext);
    pv_hash_fini(&env->arrays, free_array);
    pv_vm_fini(&env->vm);
    free(env);
}

pv_ctx *pv_env_ctx(pv_env *env) { return env->ctx; }

const pv_value *pv_env_get(const pv_env *env, const char *name)
{
    return pv_hash_get(&env->vars, name);
}

pv_status pv_env_set(pv_env *env, const char *name, const pv_value *v)
{
    pv_value *cur = pv_hash_get(&env->vars, name);
    pv_value nv = pv_value_copy(v);
    if (v->type == PV_V_STR && nv.type != PV_V_STR) goto oom;
    if (cur) {
        pv_value_free(cur);
        *cur = nv;
        return PV_OK;
    }
    pv_value *p = malloc(sizeof *p);
    if (!p) goto oom;
    *p = nv;
    void *old;
    if (pv_hash_put(&env->vars, name, p, &old) != PV_OK) {
        free_var(p);
        goto oom;
    }
    return PV_OK;
oom:
    pv_value_free(&nv);
    return pv_err(env->ctx, PV_ENOMEM, "out of memory");
}

int pv_env_undefine(pv_env *env, const char *pattern)
{
    size_t pl = strlen(pattern);
    bool prefix = pl > 0 && pattern[pl - 1] == '*';
    if (!prefix) {
        void *v = pv_hash_del(&env->vars, pattern);
        if (v) free_var(v);
        return v ? 1 : 0;
    }
    int n = 0;
    for (size_t i = 0; i < env->vars.cap; i++) {
        pv_hent *e = &env->vars.e[i];
        if (!e->key || e->key == TOMB || strncmp(e->key, pattern, pl - 1) != 0) continue;
        free_var(e->val);
        free(e->key);
        e->key = TOMB;
        e->val = NULL;
        env->vars.n--;
        n++;
    }
    return n;
}

void pv_env_clear(pv_env *env)
{
    pv_hash_fini(&env->vars, free_var);
    pv_hash_fini(&env->funcs, free_func);
    pv_hash_fini(&env->blocks, free_block);
    pv_hash_fini(&env->arrays, free_array);
    builtin_vars(env);
}

pv_status pv_env_set_array(pv_env *env, const char *name, size_t n)
{
    pv_array *a = calloc(1, sizeof *a);
    if (a) a->v = calloc(n ? n : 1, sizeof *a->v);
    if (!a || !a->v) {
        free(a);
        return pv_err(env->ctx, PV_ENOMEM, "out of memory");
    }
    a->n = n;
    void *old;
    bool existed = pv_hash_get(&env->arrays, name) != NULL;
    if (pv_hash_put(&env->arrays, name, a, &old) != PV_OK) {
        free_array(a);
        return pv_err(env->ctx, PV_ENOMEM, "out of memory");
    }
    free_array(old);
    if (!existed) { /* order among the variables, for `show variables` */
        size_t k;
        pv_hent **v = pv_hash_ordered(&env->arrays, &k);
        for (size_t i = 0; v && i < k; i++)
            if (v[i]->val == a) v[i]->seq = env->vars.seq++;
        free(v);
    }
    return PV_OK;
}

pv_value *pv_env_get_array(pv_env *env, const char *name, size_t *n)
{
    pv_array *a = pv_hash_get(&env->arrays, name);
    if (!a) return NULL;
    if (n) *n = a->n;
    return a->v;
}

bool pv_env_remove_array(pv_env *env, const char *name)
{
    pv_array *a = pv_hash_del(&env->arrays, name);
    free_array(a);
    return a != NULL;
}

/* Rebind references to parameter names inside a function body. */
static void bind_params(pv_node *n, int np, char **params)
{
    if (!n) return;
    if (n->kind == N_VAR) {
        for (int i = np - 1; i >= 0; i--) {
            if (strcmp(n->name, params[i]) == 0) {
                n->kind = N_PARAM;
                n->ival = i;
                return;
            }
        }
    }
    for (int k = 0; k < n->nkids; k++) bind_params(n->kid[k], np, params);
}

pv_status pv_env_define_func(pv_env *env, const char *name, int nparams, char **params,
                             pv_code *body, const char *text)
{
    pv_func *f = calloc(1, sizeof *f);
    if (!f) goto oom;
    f->name = pvl_strdup(name);
    f->nparams = nparams;
    f->params = params;
    f->body = body;
    f->text = pvl_strdup(text ? text : name);
    if (!f->name || !f->text) goto oom;
    bind_params(body->ast, nparams, params);
    if (pv_code_build(env->ctx, body) != PV_OK) {
        free_func(f);
        return env->ctx->err_code ? env->ctx->err_code : PV_ENOMEM;
    }
    void *old;
    if (pv_hash_put(&env->funcs, name, f, &old) != PV_OK) goto oom;
    free_func(old);
    /* gnuplot keeps each definition's text in GPFUN_<name> */
    size_t nl = strlen(name);
    char *var = malloc(nl + 7);
    if (!var) return pv_err(env->ctx, PV_ENOMEM, "out of memory");
    memcpy(var, "GPFUN_", 6);
    memcpy(var + 6, name, nl + 1);
    pv_value tv = pv_str(f->text);
    pv_status st = tv.s ? pv_env_set(env, var, &tv) : pv_err(env->ctx, PV_ENOMEM, "out of memory");
    pv_value_free(&tv);
    free(var);
    return st;
oom:
    if (f) free_func(f);
    else {
        for (int i = 0; i < nparams; i++) free(params[i]);
        free(params);
        pv_code_destroy(body);
    }
    return pv_err(env->ctx, PV_ENOMEM, "out of memory");
}

pv_status pv_env_set_datablock(pv_env *env, const char *name, char **lines, size_t nlines)
{
    pv_dblock *b = calloc(1, sizeof *b);
    if (b) b->name = pvl_strdup(name);
    if (!b || !b->name) {
        free(b);
        for (size_t i = 0; i < nlines; i++) free(lines[i]);
        free(lines);
        return pv_err(env->ctx, PV_ENOMEM, "out of memory");
    }
    b->lines = lines;
    b->nlines = nlines;
    void *old;
    if (pv_hash_put(&env->blocks, name, b, &old) != PV_OK) {
        free_block(b);
        return pv_err(env->ctx, PV_ENOMEM, "out of memory");
    }
    free_block(old);
    return PV_OK;
}

char **pv_env_get_datablock(const pv_env *env, const char *name, size_t *nlines)
{
    pv_dblock *b = pv_hash_get(&env->blocks, name);
    if (!b) return NULL;
    if (nlines) *nlines = b->nlines;
    return b->lines ? b->lines : (char **)&b->lines; /* non-NULL even when empty */
}

bool pv_env_remove_datablock(pv_env *env, const char *name)
{
    size_t nl = strlen(name);
    if (nl == 0 || name[nl - 1] != '*') {
        pv_dblock *b = pv_hash_del(&env->blocks, name);
        free_block(b);
        return b != NULL;
    }
    bool any = false; /* `$*`: every datablock (a trailing `*` is a prefix wildcard) */
    for (size_t i = 0; i < env->blocks.cap; i++) {
        pv_hent *e = &env->blocks.e[i];
        if (!e->key || e->key == TOMB || strncmp(e->key, name, nl - 1) != 0) continue;
        free_block(e->val);
        free(e->key);
        e->key = TOMB;
        e->val = NULL;
        env->blocks.n--;
        any = true;
    }
    return any;
}

void pv_env_get_seed(const pv_env *env, int32_t seed[2])
{
    seed[0] = env->seed1;
    seed[1] = env->seed2;
}

void pv_env_set_seed(pv_env *env, const int32_t seed[2])
{
    env->seed1 = seed[0];
    env->seed2 = seed[1];
}

void pv_env_set_exists_hook(pv_env *env, bool (*hook)(void *ud, const char *name), void *ud)
{
    env->exists_hook = hook;
    env->exists_ud = ud;
}

pv_status pv_env_register_builtin(pv_env *env, const char *name, int nargs, pv_builtin_fn fn,
                                  void *userdata)
{
    pv_ext *x = calloc(1, sizeof *x);
    if (x) x->name = pvl_strdup(name);
    if (!x || !x->name) {
        free(x);
        return pv_err(env->ctx, PV_ENOMEM, "out of memory");
    }
    x->nargs = nargs;
    x->fn = fn;
    x->ud = userdata;
    void *old;
    if (pv_hash_put(&env->exts, name, x, &old) != PV_OK) {
        free_ext(x);
        return pv_err(env->ctx, PV_ENOMEM, "out of memory");
    }
    free_ext(old);
    return PV_OK;
}

void pv_env_set_row(pv_env *env, const pv_row *row) { env->row = row; }

void pv_env_set_angles_degrees(pv_env *env, bool degrees) { env->degrees = degrees; }

static void show_value(FILE *out, const char *name, const pv_value *v)
{
    if (v->type == PV_V_STR) {
        fprintf(out, "\t%s = \"%s\"\n", name, v->s);
        return;
    }
    char *s = pv_value_format(v);
    fprintf(out, "\t%s = %s\n", name, s ? s : "");
    free(s);
}

void pv_env_show_variables(pv_env *env, FILE *out, const char *prefix)
{
    size_t n, na;
    pv_hent **v0 = pv_hash_ordered(&env->vars, &n);
    pv_hent **va = pv_hash_ordered(&env->arrays, &na);
    pv_hent **v = v0 && va ? realloc(v0, (n + na + 1) * sizeof *v) : NULL;
    if (!v) {
        free(v0);
        free(va);
        return;
    }
    for (size_t i = 0; i < na; i++) v[n + i] = va[i];
    n += na;
    qsort(v, n, sizeof *v, cmp_seq);
    bool all = prefix && !*prefix; /* `show variables all`: GPVAL_* too */
    if (prefix && *prefix) fprintf(out, "\n\tVariables beginning with %s:\n", prefix);
    else if (all) fprintf(out, "\n\tAll available variables:\n");
    else fprintf(out, "\n\tUser and default variables:\n");
    size_t pl = prefix ? strlen(prefix) : 0;
    for (size_t i = 0; i < n; i++) {
        if (pl && strncmp(v[i]->key, prefix, pl) != 0) continue;
        /* gnuplot hides its own GPVAL_* and GPFUN_* unless asked for `all` */
        if (!pl && !all && (strncmp(v[i]->key, "GPVAL_", 6) == 0 ||
                            strncmp(v[i]->key, "GPFUN_", 6) == 0)) continue;
        bool is_array = false;
        for (size_t j = 0; j < na; j++) is_array |= va[j] == v[i];
        if (is_array)
            fprintf(out, "\t%s = <%zu element array>\n", v[i]->key, ((pv_array *)v[i]->val)->n);
        else
            show_value(out, v[i]->key, v[i]->val);
    }
    fprintf(out, "\n");
    free(v);
    free(va);
}

void pv_env_show_functions(pv_env *env, FILE *out)
{
    size_t n;
    pv_hent **v = pv_hash_ordered(&env->funcs, &n);
    if (!v) return;
    fprintf(out, "\n\tUser-Defined Functions:\n");
    for (size_t i = 0; i < n; i++) fprintf(out, "\t%s\n", ((pv_func *)v[i]->val)->text);
    fprintf(out, "\n");
    free(v);
}
