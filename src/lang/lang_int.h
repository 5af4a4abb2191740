/*
 * lang internals shared by the lang sources: AST, bytecode, environment layout, helpers
 * for arithmetic (one implementation used by the scalar VM and the vector VM, so both give
 * the same bits).
 */
#ifndef PV_LANG_INT_H
#define PV_LANG_INT_H

#include "pvox/lang.h"

#include <stdarg.h>
#include <stdlib.h>

#define PV_PI 3.14159265358979323846

/* ---- AST (ast.c) ---------------------------------------------------------------------- */

typedef enum pv_nkind {
    N_CONST,    /* val */
    N_VAR,      /* name */
    N_PARAM,    /* ival = parameter index (inside a user function body) */
    N_SLOT,     /* ival = vector slot index (vector compile only) */
    N_COLUMN,   /* $N: ival (>= 0), or column(expr) with kid[0] */
    N_UNARY,    /* op: '-', '+', '!', '~', 'F' (factorial) */
    N_BINARY,   /* op code (see pv_binop) */
    N_AND, N_OR,/* short-circuit */
    N_TERN,     /* kid[0] ? kid[1] : kid[2] */
    N_CALL,     /* name(kids...): builtin id in ival (>= 0) or -1 user/external */
    N_ASSIGN,   /* name = kid[0] */
    N_SERIAL,   /* kid[0], kid[1] (value of the last) */
    N_SUM,      /* sum [name = kid0 : kid1] kid2 */
    N_DBCOUNT,  /* |$name| */
    N_SUBSTR,   /* kid0[kid1:kid2], kid2 may be NULL (open end) */
    N_DATABLOCK,/* $name used as a value: error in expressions */
    N_INDEX,    /* name[kid0]: array element (op 0) or datablock line (op 1) */
    N_ARRSIZE   /* |name| of an array */
} pv_nkind;

enum pv_binop {
    OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_MOD, OP_POW, OP_CAT, OP_EQ, OP_NE, OP_LT, OP_LE,
    OP_GT, OP_GE, OP_SEQ, OP_SNE, OP_BAND, OP_BOR, OP_XOR, OP_SHL, OP_SHR, OP_NBINOP
};

typedef struct pv_node {
    pv_nkind kind;
    int op;                 /* operator code */
    int nkids;
    struct pv_node **kid;
    pv_value val;           /* N_CONST */
    char *name;             /* N_VAR, N_CALL, N_ASSIGN, N_SUM, N_DBCOUNT */
    int64_t ival;
    size_t off;             /* source offset of the token for messages */
    int height;             /* 1 for a leaf, else 1 + the tallest kid's (parse.c bounds it) */
} pv_node;

pv_node *pv_node_new(pv_nkind kind, size_t off);
void pv_node_free(pv_node *n);
pv_node *pv_node_clone(const pv_node *n);
pv_status pv_node_addkid(pv_node *n, pv_node *k);

/* ---- bytecode ------------------------------------------------------------------------- */

typedef enum pv_opcode {
    I_CONST,   /* a = const index */
    I_VAR,     /* a = name index */
    I_PARAM,   /* a = param index */
    I_SLOT,    /* a = slot */
    I_COLUMN,  /* a = column number (constant) */
    I_COLUMNX, /* pop n: column(n) */
    I_STRCOL,  /* pop n: stringcolumn(n) */
    I_VALID,   /* pop n: valid(n) */
    I_UNARY,   /* a = op char */
    I_BINARY,  /* a = binop */
    I_JZ,      /* pop, jump to a if false (undef propagates: jump to b) */
    I_JMP,     /* jump to a */
    I_ANDTEST, /* peek: if false → replace by 0 and jump a; else pop */
    I_ORTEST,  /* peek: if true → replace by 1 and jump a; else pop */
    I_BOOL,    /* top → 0/1 int (checked boolean) */
    I_BUILTIN, /* a = builtin id, b = nargs */
    I_CALL,    /* a = name index, b = nargs: user function or external builtin */
    I_ASSIGN,  /* a = name index: peek, store */
    I_POP,
    I_SUMINIT, /* pops hi, lo; a = name index; saves var; pushes acc 0; b = jump to end if empty */
    I_SUMSTEP, /* pops body value, adds into acc; next i or jump back to a */
    I_DBCOUNT, /* a = name index */
    I_SUBSTR,  /* b = 1 if open end */
    I_DATABLOCK, /* a = name index: error */
    I_INDEX,   /* a = name index, b = 0 array / 1 datablock: pops the index */
    I_ARRSIZE, /* a = name index */
    I_SUBEXPR_END
} pv_opcode;

typedef struct pv_instr {
    uint8_t op;
    int32_t a, b;
    size_t off;             /* source offset for errors */
} pv_instr;

struct pv_code {
    pv_node *ast;
    pv_instr *ins;
    int nins;
    pv_value *consts;
    int nconsts;
    char **names;
    int nnames;
    int maxstack;
    size_t start, end;      /* source span */
    const pv_source *src;   /* borrowed, for located errors */
    bool uses_columns;
};

/* Build the bytecode of code->ast (replaces any previous one). */
pv_status pv_code_build(pv_ctx *ctx, pv_code *code);
/* Code wrapping an AST (takes ownership). */
pv_code *pv_code_from_ast(pv_ctx *ctx, pv_node *ast, const pv_source *src, size_t start,
                          size_t end);

/* ---- environment ---------------------------------------------------------------------- */

typedef struct pv_func {
    char *name;
    int nparams;
    char **params;
    pv_code *body;
    char *text;
} pv_func;

typedef struct pv_ext {
    char *name;
    int nargs;
    pv_builtin_fn fn;
    void *ud;
} pv_ext;

typedef struct pv_array {
    pv_value *v;
    size_t n;
} pv_array;

typedef struct pv_dblock {
    char *name;
    char **lines;
    size_t nlines;
} pv_dblock;

typedef struct pv_hent {
    char *key;              /* NULL = empty; tombstones use key == &tomb */
    void *val;
    uint64_t seq;           /* insertion order (for `show`) */
} pv_hent;

typedef struct pv_hash {
    pv_hent *e;
    size_t cap, n, used;
    uint64_t seq;
} pv_hash;

/* Live entries in insertion order (malloc'd array of pointers into the table, *n set). */
pv_hent **pv_hash_ordered(const pv_hash *h, size_t *n);

void *pv_hash_get(const pv_hash *h, const char *key);
pv_status pv_hash_put(pv_hash *h, const char *key, void *val, void **old);
void *pv_hash_del(pv_hash *h, const char *key);
void pv_hash_fini(pv_hash *h, void (*freeval)(void *));

typedef struct pv_frame {
    const pv_value *args;   /* parameters of the running user function */
    int nargs;
} pv_frame;

/* Scalar VM state: a value stack, reused across evaluations (no allocation per numeric
 * evaluation once grown). The environment owns one; each vector scratch owns another. */
typedef struct pv_vm {
    pv_env *env;
    pv_value *stack;
    size_t cap, sp;
    int depth;              /* user function nesting */
    bool undefined;         /* gnuplot's `undefined` flag for the running evaluation */
    bool quiet;             /* record no errors (vector lanes in threads) */
    bool fixed_deg;         /* use `deg` instead of env->degrees (vector snapshot) */
    bool deg;
    const pv_code *loc_code;/* where errors are reported (outermost call) */
    size_t loc_off;
} pv_vm;

struct pv_env {
    pv_ctx *ctx;
    pv_hash vars;           /* name → pv_value* */
    pv_hash funcs;          /* name → pv_func* */
    pv_hash blocks;         /* name ("$x") → pv_dblock* */
    pv_hash exts;           /* name → pv_ext* */
    pv_hash arrays;         /* name → pv_array* (seq shared with vars, for `show`) */
    const pv_row *row;
    pv_vm vm;               /* the scalar VM used by pv_eval */
    int32_t seed1, seed2;   /* rand() state */
    bool degrees;           /* set angles degrees */
    bool (*exists_hook)(void *ud, const char *name); /* names the interpreter owns (grids) */
    void *exists_ud;
};

static inline bool pv_vm_degrees(const pv_vm *vm)
{
    return vm->fixed_deg ? vm->deg : vm->env->degrees;
}

/* ---- values and arithmetic (value.c) -------------------------------------------------- */

/* Result of an operation: PV_OK, or an error message (static string) in *err, or the
 * undefined flag. */
typedef struct pv_opres {
    const char *err;        /* non-NULL: runtime error with this gnuplot message */
    bool undef;             /* result is an undefined value */
} pv_opres;

/* a = a OP b for numeric / string operands (strings already converted where needed).
 * Frees nothing of b; b must not hold a string on numeric ops. */
void pv_arith_binop(int op, pv_value *a, const pv_value *b, pv_opres *r);
void pv_arith_unary(int op, pv_value *a, pv_opres *r);
/* Convert a string operand to a number as gnuplot does for arithmetic. */
bool pv_str_to_num(const char *s, pv_value *out, const char **err);
/* Power of real numbers, used by both VMs; b_int: the exponent is an integer value type
 * (a negative base then gives a real result). */
void pv_pow_real(double a, double b, bool b_int, double *re, double *im, bool *undef);

/* ---- builtins (builtins.c, the table; families in builtins_*.c) ---------------------- */

typedef enum pv_bflags {
    BF_PURE = 1,            /* no side effects, result depends on arguments only */
    BF_REAL1 = 2,           /* one numeric argument, has a real→real fast form */
    BF_COLUMN = 4,          /* reads the data row */
    BF_ENV = 8              /* needs the environment (exists, value, ...) */
} pv_bflags;

/* Evaluates builtin `id` on args (nargs): result into *out, or r->err / r->undef set. One
 * function may serve several builtins of a family (the id says which). */
typedef void (*pv_builtin_impl)(pv_vm *vm, int id, pv_value *args, int nargs, pv_value *out,
                                pv_opres *r);

typedef struct pv_builtin_desc {
    const char *name;
    int nargs;              /* -1 variadic, -2: one or two */
    int flags;
    pv_builtin_impl call;
} pv_builtin_desc;

int pv_builtin_lookup(const char *name);
const pv_builtin_desc *pv_builtin_desc_get(int id);
/* Evaluate builtin `id` on args (nargs); result into *out. */
void pv_builtin_call(pv_vm *vm, int id, pv_value *args, int nargs, pv_value *out,
                     pv_opres *r);
/* Real fast form for BF_REAL1 builtins: returns false if the lane must take the slow path
 * (the result is not real, or an error or undefined value occurs). */
bool pv_builtin_real1(int id, double x, bool degrees, double *out);
/* pv_builtin_real1 over m lanes (x uniform when xuni): out[i] for every lane, slow[i] |= 1
 * where pv_builtin_real1 would decline (or might: a lane flagged slow is recomputed by the
 * scalar VM, so flagging more is safe). Tight libm loops for exp, log, sqrt, sin, cos. */
void pv_builtin_real1_vec(int id, const double *x, bool xuni, size_t m, bool degrees,
                          double *out, unsigned char *slow);
/* rand() */
pv_status pv_rand(pv_env *env, const pv_value *arg, double *out, const char **err);
double pv_rand_next(int32_t *s1, int32_t *s2);

/* sprintf/gprintf reporting the error text instead of recording it (format.c). */
char *pv_sprintf_msg(const char *fmt, const pv_value *args, int nargs, const char **err);
char *pv_gprintf_msg(const char *fmt, double x, const char **err);

/* Inline data (lex_inline.c): for the tokens [lo, hi) of one command line (hi: its
 * NEWLINE or EOF), set data_count on each token that reads '-' blocks and return their
 * sum in *nblocks. *depth is the brace depth at the line start, updated to its end;
 * *last_plot is the block count of the last plot/splot (replot reads it again). An
 * iteration with bounds that are not constants over a '-' source is a located error. */
pv_status pvl_inline_scan(pv_ctx *ctx, const pv_source *src, pv_token *tok, size_t lo,
                          size_t hi, int *depth, size_t *last_plot, size_t *nblocks);

/* ---- misc ----------------------------------------------------------------------------- */
char *pvl_strdup(const char *s);
char *pvl_strndup(const char *s, size_t n);
/* A real truncated to an integer as x86-64 does it, where gnuplot casts: NaN or out of
 * range gives INT64_MIN (a plain cast would be undefined there). */
static inline int64_t pvl_trunc_i64(double x)
{
    return x > -9223372036854775808.0 && x < 9223372036854775808.0 ? (int64_t)x : INT64_MIN;
}
pv_status pv_code_error(pv_env *env, const pv_code *code, size_t off, const char *fmt, ...)
    PV_PRINTF(4, 5);

/* Scalar VM entry (pv_eval, user functions, vector fallback lanes). Parameters are the
 * nparams values at vm->stack[pbase...]; slots are lane inputs for I_SLOT. */
pv_status pv_vm_exec(pv_vm *vm, const pv_code *code, size_t pbase, int nparams,
                     const double *slots, pv_value *out);
/* Release a VM's value stack. Inline here so the environment (which owns one VM) and the
 * vector scratch free their VMs without depending on the VM's file. */
static inline void pv_vm_fini(pv_vm *vm)
{
    for (size_t i = 0; i < vm->sp; i++) pv_value_free(&vm->stack[i]);
    free(vm->stack);
    vm->stack = NULL;
    vm->cap = vm->sp = 0;
}

#endif
