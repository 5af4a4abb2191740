/*
 * Vector VM, private to lang: the program representation shared by its compiler
 * (vvm_compile.c) and its executor (vvm_exec.c). One expression over many lanes (voxels or
 * data rows).
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
 * pow(x,2.0) (see run_pow); exp has its own vector kernel that hands libm only the lanes
 * where it cannot prove it matches libm's result (see vexp_lanes); log, sqrt, sin, cos run
 * as plain libm loops. A lane a math builtin declines (exp underflow, sin of a subnormal)
 * asks the scalar VM's builtin call for that one node and stays in the fast tier when the
 * answer is real, instead of recomputing the whole expression. The loops are compiled
 * twice (baseline and AVX2, picked at load time): IEEE operations give the same bits.
 */
#ifndef PV_VVM_INT_H
#define PV_VVM_INT_H

#include "lang_int.h"

#include <stdint.h>

#define CHUNK 512

typedef enum vop {
    V_ADD, V_SUB, V_MUL, V_DIV, V_POW, V_LT, V_LE, V_GT, V_GE, V_EQ, V_NE, V_AND, V_OR,
    V_NEG, V_ABS, V_CALL1, V_SEL, V_SELCMP, V_NOP, V_EXP
} vop;

typedef struct vins {
    int op;
    int dst, a, b, c;   /* registers */
    int aux;            /* builtin id for V_CALL1, V_EXP; V_SELCMP: the comparison (V_LT..V_NE) */
    int e;              /* V_SELCMP: (c CMP e) ? a : b */
} vins;

typedef struct vregdef {
    int kind;           /* 0 temp, 1 const, 2 slot */
    double cval;
    int slot;
} vregdef;

struct pv_vcode {
    pv_env *env;        /* for the scalar VM of slow lanes */
    pv_ctx *ctx;        /* ins and regs are its tracked memory (cap_ins, cap_regs) */
    pv_code *code;      /* inlined, folded bytecode (slow lanes) */
    int nslots;
    bool fast;
    bool degrees;       /* angle mode at compile time */
    vins *ins;
    int nins;
    size_t cap_ins, cap_regs;
    vregdef *regs;
    int nregs, ntemps, result;
    double exp_zero_below; /* V_EXP: exp(x) is +0 for x <= this (NaN: not checked) */
};

struct pv_vscratch {
    size_t max_lanes;
    double *temps;      /* ntemps * CHUNK */
    const double **rp;  /* register pointers for this chunk */
    double *ru;         /* uniform values */
    bool *runi;
    unsigned char slow[CHUNK];
    uint64_t hard[CHUNK];      /* lane flags as wide as the doubles (keeps the vector loops
                                  at 4 lanes per AVX2 register, no spills) */
    unsigned short hard_list[CHUNK];
    unsigned char declined[CHUNK]; /* lanes a real builtin loop declined */
    double *lane;       /* nslots values of one lane */
    pv_vm vm;
    bool failed;        /* a lane raised a script error (reported by the caller) */
};

/* The scalar VM's own builtin call on one real argument: true and *y when the result is a
 * real number (imaginary part +0, no error, not undefined), i.e. a value the fast tier can
 * carry on with exactly as the scalar VM would (vvm_exec.c). */
bool pv_vvm_call_scalar(pv_vm *vm, int id, double x, double *y);

#endif
