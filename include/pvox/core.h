/*
 * pvox core: the run context, errors, diagnostics, logging and memory accounting.
 *
 * Every function that logs, allocates a large buffer or talks MPI takes a pv_ctx first.
 * There is no global state: main() creates one context and passes it down.
 *
 * Error model (STYLE.md §4): fallible functions return a pv_status; the first error is
 * recorded in ctx->err_code / ctx->err_msg by pv_err() or pv_diag_at(), once, where it
 * happens. Callers pass the status up. Ranks agree on a status with pv_status_agree()
 * at phase boundaries, so no rank is left waiting in a collective.
 */
#ifndef PVOX_CORE_H
#define PVOX_CORE_H

#include <mpi.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define PV_VERSION_STRING "0.1.0"

#if defined(__GNUC__)
#define PV_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define PV_PRINTF(a, b)
#endif

typedef enum pv_status {
    PV_OK = 0,
    PV_ENOMEM,    /* allocation failed or the memory check refused */
    PV_EIO,       /* file system or data file problem */
    PV_ESYNTAX,   /* script does not parse */
    PV_ESCRIPT,   /* script parses but a command fails at run time */
    PV_ERANGE,    /* a value is out of its allowed range */
    PV_EMPI,      /* an MPI call failed */
    PV_EHDF5,     /* an HDF5 call failed */
    PV_EPNG,      /* libpng failed */
    PV_EINTERNAL, /* a bug in pvox */
    PV_EEXIT,     /* not an error: the script ran `exit`; ctx->exit_code holds its code */
    PV_EUSAGE     /* bad command line */
} pv_status;

typedef enum pv_log_level {
    PV_LOG_ERROR = 0,
    PV_LOG_WARN = 1,
    PV_LOG_INFO = 2,
    PV_LOG_DEBUG = 3
} pv_log_level;

/* Process exit codes (README "Exit codes"). */
enum { PV_EXIT_OK = 0, PV_EXIT_SCRIPT = 1, PV_EXIT_USAGE = 2, PV_EXIT_RUNTIME = 3 };

typedef struct pv_options {
    int nthreads;            /* OpenMP threads per rank; 0 = OMP default */
    bool quiet;              /* -q: no info messages */
    bool progress;           /* --progress */
    bool log_all_ranks;      /* --log-all-ranks: info/debug from every rank */
    pv_log_level log_level;  /* messages above this level are dropped */
    const char *outdir;      /* -o DIR, or NULL for the current directory */
    size_t max_memory;       /* --max-memory in bytes per rank, 0 = no explicit limit */
    long fail_alloc_at;      /* testing: make the N-th pv_alloc fail (0 = never) */
} pv_options;

typedef struct pv_ctx {
    MPI_Comm comm;           /* private duplicate of the world communicator */
    int rank;                /* this rank, 0..nranks-1 */
    int nranks;              /* ranks in comm */
    int nthreads;            /* OpenMP threads actually used per rank */
    pv_options opt;          /* command-line options */
    pv_status err_code;      /* first error since the last pv_err_clear(), PV_OK if none */
    char *err_msg;           /* its full text (may span lines: location, source, caret) */
    int exit_code;           /* with PV_EEXIT: the code the script asked for */
    size_t mem_current;      /* bytes held through pv_alloc on this rank */
    size_t mem_peak;         /* high-water mark of mem_current */
    long nallocs;            /* pv_alloc calls so far (for fault injection) */
    double t_start;          /* MPI_Wtime() at creation */
    int warned_once_bits;    /* pv_warn_once() flags already used */
} pv_ctx;

/* ---- context ---------------------------------------------------------------------- */

/* Create the run context over `world` (duplicated). MPI must be initialised.
 * Collective over world. Returns NULL only on allocation failure. */
pv_ctx *pv_ctx_create(MPI_Comm world, const pv_options *opt);
/* Free the context and its communicator. NULL is allowed. Collective. */
void pv_ctx_destroy(pv_ctx *ctx);

/* ---- errors ----------------------------------------------------------------------- */

/* Record an error (if none is recorded yet) and return `code`. The message is one line,
 * lowercase, no final period ("cannot open 'x.dat': No such file or directory"). */
pv_status pv_err(pv_ctx *ctx, pv_status code, const char *fmt, ...) PV_PRINTF(3, 4);

/* Record a located script error:
 *     <name>:<line>:<col>: error: <message>
 *     <the source line>
 *          ^
 * `text` is the whole source text of `name` (length len), `off` a byte offset into it,
 * `first_line` the line number of text[0] (1 for a file). Returns `code`. */
pv_status pv_diag_at(pv_ctx *ctx, pv_status code, const char *name, const char *text,
                     size_t len, int first_line, size_t off, const char *fmt, ...)
    PV_PRINTF(8, 9);

/* Print a located warning in the same format (rank 0 only, "warning:"). */
void pv_warn_at(pv_ctx *ctx, const char *name, const char *text, size_t len, int first_line,
                size_t off, const char *fmt, ...) PV_PRINTF(7, 8);

/* Format "<name>:<line>:<col>: <kind>: <msg>\n<line>\n<caret>" into a malloc'd string. */
char *pv_diag_format(const char *name, const char *text, size_t len, int first_line,
                     size_t off, const char *kind, const char *msg);

/* Forget the recorded error. */
void pv_err_clear(pv_ctx *ctx);

/* Collective over ctx->comm: agree on the worst status of all ranks (MPI_Allreduce MAX).
 * If any rank failed, the message of the lowest failing rank is copied to every rank's
 * ctx->err_msg, so rank 0 can print it. Returns the agreed status. */
pv_status pv_status_agree(pv_ctx *ctx, pv_status st);

/* Exit code for a status (PV_OK → 0, syntax/script/range → 1, usage → 2, else 3). */
int pv_status_exit_code(pv_status st);

/* Print the recorded error on rank 0 to stderr (followed by a newline). */
void pv_err_print(pv_ctx *ctx);

/* ---- logging (stderr; rank 0 only for info/debug unless --log-all-ranks) ------------ */

void pv_log_write(pv_ctx *ctx, pv_log_level lvl, const char *module, const char *fmt, ...)
    PV_PRINTF(4, 5);
#define pv_log(ctx, lvl, module, ...)                                                      \
    do {                                                                                   \
        if ((int)(lvl) <= (int)(ctx)->opt.log_level) pv_log_write(ctx, lvl, module, __VA_ARGS__); \
    } while (0)

/* Print a plain message on rank 0's stderr exactly as given (no prefix), in one write. */
void pv_msg(pv_ctx *ctx, const char *fmt, ...) PV_PRINTF(2, 3);

/* Warn (rank 0, stderr) only the first time `bit` (0..30) is used in this run. */
void pv_warn_once(pv_ctx *ctx, int bit, const char *fmt, ...) PV_PRINTF(3, 4);

/* ---- memory ----------------------------------------------------------------------- */

/* Allocate n bytes, tracked per rank. On failure records PV_ENOMEM and returns NULL. */
void *pv_alloc(pv_ctx *ctx, size_t n);
void *pv_calloc(pv_ctx *ctx, size_t count, size_t size);
/* Free a block from pv_alloc; `n` must be the size it was allocated with. NULL is allowed. */
void pv_free(pv_ctx *ctx, void *p, size_t n);
/* *out = a*b; false (and *out untouched) on overflow. */
bool pv_mul_size(size_t a, size_t b, size_t *out);

/* ---- broadcast helpers ------------------------------------------------------------ */

/* Collective: rank 0 reads the whole file `path` and broadcasts its bytes. On success every
 * rank gets a malloc'd, NUL-terminated copy in *data (length *len, excluding the NUL).
 * On failure every rank returns PV_EIO with the same message recorded. */
pv_status pv_read_file_bcast(pv_ctx *ctx, const char *path, char **data, size_t *len);

/* Collective: broadcast a byte buffer from rank 0 (receivers get a malloc'd copy). */
pv_status pv_bcast_bytes(pv_ctx *ctx, char **data, size_t *len);

/* Seconds since the context was created. */
double pv_elapsed(const pv_ctx *ctx);

#endif /* PVOX_CORE_H */
