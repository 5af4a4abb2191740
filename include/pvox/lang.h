/*
 * pvox lang: gnuplot 5.4's expression language.
 *
 * Sources and tokens (with byte offsets for diagnostics), values (integer, complex double,
 * string), the environment (variables, user functions, datablocks, builtins), the
 * expression parser and bytecode compiler, the scalar VM and the vector VM.
 *
 * One compiler serves every use: commands and `print` (scalar), `using` specs (one data
 * row at a time, or many rows through the vector form) and fills (runs of voxels through
 * the vector form). Semantics follow gnuplot 5.4 exactly: `1/2` is 0, `-7/2` is -3,
 * `10**6` is an integer, `**` overflowing to double, `^` is xor, strings join with `.`.
 *
 * Nothing here calls MPI: every rank runs the same code on the same input (SPMD).
 */
#ifndef PVOX_LANG_H
#define PVOX_LANG_H

#include "pvox/core.h"

/* =====================================================================================
 * Sources
 * ===================================================================================== */

/* A script or command text with its name and a line map. Immutable once created. */
typedef struct pv_source {
    char *name;        /* file name shown in diagnostics ("job.gp", "-e", "-") */
    char *text;        /* the bytes, NUL-terminated */
    size_t len;        /* bytes in text, excluding the NUL */
    int first_line;    /* line number of text[0]: 1 for files, the origin line for macros */
    size_t *line_off;  /* byte offset of the start of each line */
    int nlines;        /* entries in line_off */
    bool stdin_data;   /* an `eval` string: gnuplot reads inline data '-' from standard
                          input there, so the lexer takes no inline blocks */
    bool expr_only;    /* the text of one expression, not statements: a `!` at the start
                          of a line is the operator, not a shell command */
} pv_source;

/* Copy `text` (len bytes) into a new source. Returns NULL (PV_ENOMEM in ctx) on failure. */
pv_source *pv_source_create(pv_ctx *ctx, const char *name, const char *text, size_t len,
                            int first_line);
void pv_source_destroy(pv_source *src);
/* 1-based line and column (bytes) of offset `off`. */
void pv_source_locate(const pv_source *src, size_t off, int *line, int *col);
/* Record a located error at byte offset `off` of `src` (see pv_diag_at). Returns code. */
pv_status pv_source_error(pv_ctx *ctx, pv_status code, const pv_source *src, size_t off,
                          const char *fmt, ...) PV_PRINTF(5, 6);
void pv_source_warn(pv_ctx *ctx, const pv_source *src, size_t off, const char *fmt, ...)
    PV_PRINTF(4, 5);

/* =====================================================================================
 * Tokens
 * ===================================================================================== */

typedef enum pv_tok_kind {
    PV_TK_EOF = 0,
    PV_TK_NEWLINE,   /* end of a physical line (continuations `\`+newline are joined) */
    PV_TK_SEMI,      /* ; */
    PV_TK_NAME,      /* identifier or keyword: sval */
    PV_TK_INT,       /* integer literal: ival */
    PV_TK_REAL,      /* floating literal: dval */
    PV_TK_STRING,    /* quoted string, escapes decoded: sval (len slen), quote char in op */
    PV_TK_DOLLAR,    /* $name (datablock / grid): sval = "$name" */
    PV_TK_COLUMN,    /* $N column reference: ival = N; `$#` has ival = -1 */
    PV_TK_MACRO,     /* @name: sval = "name" */
    PV_TK_OP,        /* operator or punctuation: op holds it, e.g. "**", "<=", "(", "[" */
    PV_TK_HEREDOC,   /* body of `$name << EOD` up to the terminator line: sval (len slen) */
    PV_TK_INLINE     /* one block of inline data for a '-' source, after the NEWLINE of
                        its command line: sval (len slen) = the data lines, each with its
                        '\n', without the terminator line `e` (see pv_lex) */
} pv_tok_kind;

typedef struct pv_token {
    pv_tok_kind kind;
    size_t start, end;  /* byte offsets [start, end) in the source text */
    int64_t ival;       /* PV_TK_INT, PV_TK_COLUMN */
    double dval;        /* PV_TK_REAL */
    char *sval;         /* NAME, STRING, DOLLAR, MACRO, HEREDOC (owned by the token list) */
    size_t slen;        /* length of sval (strings may hold NUL bytes) */
    char op[4];         /* PV_TK_OP: the operator text, NUL-terminated */
    size_t data_first;  /* a '-' data source (STRING) or a `replot` (NAME): index of the
                           first PV_TK_INLINE block it reads; 0 = none */
    size_t data_count;  /* the number of blocks it reads (one per iteration) */
} pv_token;

typedef struct pv_toklist {
    const pv_source *src;  /* borrowed; must outlive the list */
    pv_token *tok;         /* ntok tokens, the last one PV_TK_EOF */
    size_t ntok;
} pv_toklist;

/* Tokenise the whole source (comments dropped, `\` continuations joined, datablock bodies
 * captured as one PV_TK_HEREDOC after the `<< EOD` tokens, inline data blocks as
 * PV_TK_INLINE tokens after the line of the command that reads them: see lex.c). Errors (unterminated string,
 * bad character, missing exponent, unterminated datablock) are located; gnuplot would close
 * an unterminated string at the end of its line, pvox refuses it. The heredoc body (sval) is the raw text of the lines between the
 * `$name << EOD` line and the terminator, each line with its '\n'; the terminator is the
 * first line that starts with the word (gnuplot compares a prefix: "EODX" ends "EOD"). */
pv_status pv_lex(pv_ctx *ctx, const pv_source *src, pv_toklist *out);
void pv_toklist_fini(pv_toklist *tl);

/* =====================================================================================
 * Values
 * ===================================================================================== */

typedef enum pv_vtype {
    PV_V_UNDEF = 0, /* no value (undefined result, e.g. 1/0) */
    PV_V_INT,       /* 64-bit integer */
    PV_V_CMPLX,     /* double; imaginary part im (0 for ordinary reals) */
    PV_V_STR        /* string (owned, NUL-terminated) */
} pv_vtype;

typedef struct pv_value {
    pv_vtype type;
    int64_t i;    /* PV_V_INT */
    double re;    /* PV_V_CMPLX real part */
    double im;    /* PV_V_CMPLX imaginary part */
    char *s;      /* PV_V_STR, owned */
} pv_value;

static inline pv_value pv_int(int64_t i) { pv_value v = {PV_V_INT, i, 0.0, 0.0, NULL}; return v; }
static inline pv_value pv_real(double d) { pv_value v = {PV_V_CMPLX, 0, d, 0.0, NULL}; return v; }
/* A new string value holding a copy of s (NULL on allocation failure). */
pv_value pv_str(const char *s);
void pv_value_free(pv_value *v);               /* frees the string; v becomes UNDEF */
pv_value pv_value_copy(const pv_value *v);     /* deep copy */
/* Numeric value as double (int converted; string → NaN). */
double pv_value_real(const pv_value *v);

/* Format a value the way gnuplot's `print` does ("0.333333333333333", "2.0", "1e+20",
 * "{1.0, 1.73205080756888}", strings as they are). Returns a malloc'd string. */
char *pv_value_format(const pv_value *v);
/* gnuplot's gprintf(fmt, x) and sprintf(fmt, args...). Return malloc'd strings or NULL
 * with an error recorded. */
char *pv_gprintf(pv_ctx *ctx, const char *fmt, double x);
char *pv_sprintf(pv_ctx *ctx, const char *fmt, const pv_value *args, int nargs);

/* =====================================================================================
 * Environment: variables, user functions, datablocks, builtins
 * ===================================================================================== */

typedef struct pv_env pv_env;
typedef struct pv_code pv_code;

/* One data row, for `$N`, column(N), stringcolumn(N), valid(N), $0 / column(0). */
typedef struct pv_row {
    int ncols;             /* columns in this row */
    const double *val;     /* val[k] = numeric value of column k+1 (NaN if not numeric) */
    const char *const *str;/* str[k] = text of column k+1 (may be NULL if unavailable) */
    const bool *valid;     /* valid[k]: column k+1 present and numeric (NULL: all valid) */
    int64_t line;          /* $0: index of the row within its data block, from 0 */
    int64_t block;         /* column(-1): data block index */
    int64_t index;         /* column(-2): dataset index */
} pv_row;

/* A builtin implemented outside lang (e.g. voxel() by the grid module). Receives the
 * evaluated arguments; writes the result into *out. Must record errors through ctx. */
typedef pv_status (*pv_builtin_fn)(pv_env *env, void *userdata, const pv_value *args,
                                   int nargs, pv_value *out);

pv_env *pv_env_create(pv_ctx *ctx);
void pv_env_destroy(pv_env *env);
pv_ctx *pv_env_ctx(pv_env *env);

/* Variables. get returns NULL when undefined; set copies the value. */
const pv_value *pv_env_get(const pv_env *env, const char *name);
pv_status pv_env_set(pv_env *env, const char *name, const pv_value *v);
/* Remove variables (gnuplot's `undefine`; a trailing `*` matches a prefix). Returns count. */
int pv_env_undefine(pv_env *env, const char *pattern);
/* Remove every variable, user function and datablock (`reset session`), then recreate the
 * built-in variables (pi, NaN, GPVAL_*...). */
void pv_env_clear(pv_env *env);

/* User functions: `name(p1,...) = body`. Takes ownership of body and params. `text` is the
 * definition as written, for `show functions`. */
pv_status pv_env_define_func(pv_env *env, const char *name, int nparams, char **params,
                             pv_code *body, const char *text);

/* Datablocks: `$name` → lines. set takes ownership of the lines array and its strings. */
pv_status pv_env_set_datablock(pv_env *env, const char *name, char **lines, size_t nlines);
/* NULL if no such datablock. */
char **pv_env_get_datablock(const pv_env *env, const char *name, size_t *nlines);
bool pv_env_remove_datablock(pv_env *env, const char *name);

/* Arrays (gnuplot 5.4 `array A[N]`, ARGV). set creates or replaces `name` with n elements,
 * all PV_V_UNDEF ("<undefined>" when printed). get returns the elements (mutable: store an
 * element with pv_value_free + pv_value_copy; index 1 of the script is element 0) and the
 * count, or NULL if there is no such array. In expressions: A[i], |A|. */
pv_status pv_env_set_array(pv_env *env, const char *name, size_t n);
pv_value *pv_env_get_array(pv_env *env, const char *name, size_t *n);
bool pv_env_remove_array(pv_env *env, const char *name);
/* `print A` of an array: "[1.5,2,\"x\",]" (strings quoted, undefined elements empty).
 * Returns a malloc'd string. */
char *pv_array_format(const pv_value *elems, size_t n);

/* `set angles degrees|radians`: sin/cos/tan take degrees, asin/acos/atan/atan2/arg return
 * degrees (complex arguments and results are scaled as a whole, as gnuplot does). Default
 * radians; pv_env_clear does not change it (exec resets it on `reset`). Vector programs
 * compiled afterwards use the new mode. */
void pv_env_set_angles_degrees(pv_env *env, bool degrees);

/* `show variables [prefix]` and `show functions` in gnuplot's format, written to out:
 * "\n\tUser and default variables:\n\tpi = 3.14159265358979\n...\n" (with a prefix:
 * "\tVariables beginning with a:") and "\n\tUser-Defined Functions:\n\tf(x)=x+1\n...\n".
 * Variables and functions appear in order of first definition; strings are quoted. */
void pv_env_show_variables(pv_env *env, FILE *out, const char *prefix);
void pv_env_show_functions(pv_env *env, FILE *out);

/* rand()'s generator state (two seeds), to save and restore around a trial evaluation. */
void pv_env_get_seed(const pv_env *env, int32_t seed[2]);
void pv_env_set_seed(pv_env *env, const int32_t seed[2]);

/* Names defined outside the environment (voxel grids): exists("$g") asks this hook when
 * no variable, datablock or array has the name. */
void pv_env_set_exists_hook(pv_env *env, bool (*hook)(void *ud, const char *name), void *ud);

/* gnuplot time (seconds since 1970 UTC) formatted with a strftime() format: C's codes plus
 * %s, %.nS, %tH/%tM/%tS. Returns a malloc'd string, NULL when out of memory. */
char *pv_time_format(const char *fmt, double t);

/* Register an external builtin function (nargs = -1 for variadic). */
pv_status pv_env_register_builtin(pv_env *env, const char *name, int nargs, pv_builtin_fn fn,
                                  void *userdata);

/* The data row seen by `$N` / column() during evaluation (NULL: not in a data context,
 * where column() is an error as in gnuplot). Borrowed. */
void pv_env_set_row(pv_env *env, const pv_row *row);

/* =====================================================================================
 * Token cursor: how commands (exec/) and expressions are parsed
 * ===================================================================================== */

typedef struct pv_cursor {
    pv_ctx *ctx;
    const pv_toklist *tl;  /* borrowed */
    size_t pos;            /* current token */
    size_t end;            /* one past the last token of this statement */
} pv_cursor;

/* Current token (PV_TK_EOF past the end). */
const pv_token *pv_cur_peek(const pv_cursor *c);
const pv_token *pv_cur_peek_at(const pv_cursor *c, size_t ahead);
void pv_cur_next(pv_cursor *c);
bool pv_cur_at_end(const pv_cursor *c);
/* True if the current token is the operator `op`. */
bool pv_cur_is_op(const pv_cursor *c, const char *op);
/* If the current token is `op`, consume it and return true. */
bool pv_cur_accept_op(pv_cursor *c, const char *op);
/* gnuplot-style abbreviations: pattern "ou$tput" matches "ou", "out", ..., "output".
 * is_word tests the current NAME token; accept_word also consumes it. */
bool pv_cur_is_word(const pv_cursor *c, const char *pattern);
bool pv_cur_accept_word(pv_cursor *c, const char *pattern);
bool pv_word_matches(const char *word, const char *pattern);
/* Located error at the current token ("expected ']' near ','" style). Returns code. */
pv_status pv_cur_error(pv_cursor *c, pv_status code, const char *fmt, ...) PV_PRINTF(3, 4);
void pv_cur_warn(pv_cursor *c, const char *fmt, ...) PV_PRINTF(2, 3);
/* Byte offset of the current token (for errors reported later). */
size_t pv_cur_offset(const pv_cursor *c);

/* =====================================================================================
 * Expressions: parse + compile, scalar evaluation
 * ===================================================================================== */

/* Parse one expression at the cursor and compile it to bytecode. Parsing stops before the
 * first token that cannot continue the expression (`,` `:` `]` `)` `;` newline, a keyword
 * such as `using`/`with`...). The ternary `a ? b : c` consumes its own `:`. Inside
 * parentheses, `=` assignments and `,` serial evaluation are allowed as in gnuplot.
 * On a syntax error: located PV_ESYNTAX, *out = NULL. */
pv_status pv_parse_expr(pv_cursor *c, pv_code **out);
void pv_code_destroy(pv_code *code);
/* Source span of the expression (for messages). */
void pv_code_span(const pv_code *code, size_t *start, size_t *end);
/* True if the expression reads a data column ($N, column(), stringcolumn(), valid()). */
bool pv_code_uses_columns(const pv_code *code);
/* True if the expression itself names the variable `name`: reads it, assigns it, or uses it
 * as a sum index. User functions it calls are not looked into (they are bound by name at
 * run time); function names, datablocks and arrays do not count. */
bool pv_code_uses_name(const pv_code *code, const char *name);
/* True if evaluating the expression only computes a value: it assigns no variable, does
 * not call rand(), and calls only internal builtins, user functions that are pure by the
 * same test (as they are defined now; a call chain deeper than 16 counts as impure) and
 * the external builtins named in pure_ext (NULL-terminated; NULL: none). An undefined
 * function makes it impure. *calls_ext (may be NULL) tells whether a listed external
 * builtin is called. Ranks may then evaluate it on different rows and share the values. */
bool pv_code_is_pure(const pv_env *env, const pv_code *code, const char *const *pure_ext,
                     bool *calls_ext);

/* Evaluate. Runtime errors (undefined variable, type mismatch, `column()` outside a data
 * context ...) are located at the offending token (inside a user function: at its call).
 * A result that gnuplot calls an "undefined value" (e.g. 1/0, log(0), exp(1000), a
 * missing column) gives PV_V_UNDEF with PV_OK: as gnuplot's flag, it spoils the whole
 * expression; callers decide whether that is an error (print: yes, a using spec: the point
 * is skipped). Numeric evaluation allocates nothing once the value stack has grown. */
pv_status pv_eval(pv_env *env, const pv_code *code, pv_value *out);

/* Convenience: evaluate and convert. Errors name what was expected. */
pv_status pv_eval_real(pv_env *env, const pv_code *code, double *out);
pv_status pv_eval_int(pv_env *env, const pv_code *code, int64_t *out);   /* truncates */
pv_status pv_eval_string(pv_env *env, const pv_code *code, char **out);  /* malloc'd */

/* =====================================================================================
 * Vector form: one expression over many lanes (data rows or voxels)
 * =====================================================================================
 *
 * pv_vcompile snapshots the environment: user functions are inlined and variables that are
 * not lane inputs become constants, so the program is self-contained and thread-safe.
 * Lane inputs are named slots: a variable name (e.g. "VoxelDistance") or a column "$4".
 * Each evaluation supplies, per slot, a pointer and a stride (0: one value for all lanes,
 * 1: one value per lane). Results are doubles; a lane whose value is undefined (1/0) or a
 * string gives NaN. Every lane's result equals, bit for bit, pv_eval of the same
 * expression with the same inputs converted to double.
 *
 * Real arithmetic, comparisons, ternaries (both branches computed, then selected per lane),
 * and real math functions run as loops over double arrays; a lane whose
 * value might differ there (division by zero, a complex, int or undefined intermediate) is
 * recomputed by the scalar VM, and expressions outside that subset (int arithmetic such as
 * int(x)/2, strings) run every lane through the scalar VM (correct, ~10x slower).
 * Expressions calling an external builtin (pv_env_register_builtin, e.g. voxel(), an MPI
 * collective) have no vector form, so pv_veval never calls one from OpenMP threads.
 */
typedef struct pv_vcode pv_vcode;
typedef struct pv_vscratch pv_vscratch;

typedef struct pv_vinput {
    const double *p;   /* values */
    size_t stride;     /* 0 = uniform, 1 = per lane */
} pv_vinput;

/* Compile `code` for lanes. slots[k] names input k ("VoxelDistance", "x", "$4", ...).
 * Fails (PV_ESCRIPT, located) if the expression cannot run in vector form: assignments,
 * sum, rand(), a column that is not a slot, or a variable / function not defined yet (so
 * the scalar path reports it as gnuplot would); callers then fall back to pv_eval. A call
 * of an external builtin also fails (PV_ESCRIPT) but records no error in the context. String
 * results and int arithmetic compile but run lane by lane through the scalar VM. */
pv_status pv_vcompile(pv_env *env, const pv_code *code, int nslots, const char *const *slots,
                      pv_vcode **out);
void pv_vcode_destroy(pv_vcode *vc);
/* Per-thread scratch for up to max_lanes lanes per call. */
pv_vscratch *pv_vscratch_create(const pv_vcode *vc, size_t max_lanes);
void pv_vscratch_destroy(pv_vscratch *s);
/* True if a lane evaluated with s raised a script error (its output is NaN; the vector VM
 * records no message from threads: the caller re-evaluates that lane with pv_eval to
 * report it). Clears the flag. */
bool pv_vscratch_take_error(pv_vscratch *s);
/* Evaluate n lanes (n <= max_lanes). Thread-safe given distinct scratch. */
void pv_veval(const pv_vcode *vc, pv_vscratch *s, size_t n, const pv_vinput *in, double *out);

#endif /* PVOX_LANG_H */
