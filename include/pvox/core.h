/*
 * pvox core: the run context, errors, diagnostics, logging and memory accounting.
 *
 * Every function that logs, allocates a large buffer or talks MPI takes a pv_ctx first.
 * There is no global state: main() creates one context and passes it down.
 *
 * Error model (STYLE-4): fallible functions return a pv_status; the first error is
 * recorded in ctx->err_code / ctx->err_msg by pv_err() or pv_diag_at(), once, where it
 * happens. Callers pass the status up. Ranks agree on a status with pv_status_agree()
 * at phase boundaries, so no rank is left waiting in a collective.
 */
#ifndef PVOX_CORE_H
#define PVOX_CORE_H

#include <mpi.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define PV_VERSION_STRING "0.3.0"
#define PV_VERSION_MAJOR_MINOR "0.3" /* as pvox names itself in messages */

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
enum { PV_EXIT_OK = 0, PV_EXIT_SCRIPT = 1, PV_EXIT_USAGE = 2, PV_EXIT_RUNTIME = 3,
       /* stopped early by SIGUSR1/SIGTERM at a safe point, checkpoint saved: run again
          with --resume (sysexits.h's EX_TEMPFAIL; pvox/stop.h) */
       PV_EXIT_STOPPED = 75 };

typedef struct pv_options {
    int nthreads;            /* OpenMP threads per rank; 0 = OMP default */
    bool quiet;              /* -q: no info messages */
    bool progress;           /* --progress */
    bool log_all_ranks;      /* --log-all-ranks: info/debug from every rank */
    pv_log_level log_level;  /* messages above this level are dropped */
    const char *outdir;      /* -o DIR, or NULL for the current directory */
    size_t max_memory;       /* --max-memory in bytes per rank, 0 = no explicit limit */
    long fail_alloc_at;      /* testing: make the N-th pv_alloc fail (0 = never) */
    bool fail_alloc_one_rank; /* testing: ... on one rank only (false: on every rank, so a
                                zero-initialised pv_options means every rank) ... */
    int fail_alloc_rank;     /* ... this one */
    size_t fail_alloc_min;   /* testing: count only allocations of at least this size */
    const char *checkpoint;  /* --checkpoint FILE: save all grids after grid changes */
    double checkpoint_every; /* --checkpoint-every SECONDS: at most one save per interval;
                                PV_CHECKPOINT_AUTO (the default): saves keep to about a
                                tenth of the run's time (exec/ckpt.c) */
    const char *resume;      /* --resume FILE: replay the script from this checkpoint */
    bool resume_if_exists;   /* --resume-if-exists: resume from the --resume FILE, else the
                                --checkpoint FILE, only when it exists (else start afresh) */
    long batch_triangles;    /* --batch-triangles N: triangles a rank rasterises at once
                                before compositing them and going on (0 = default) */
    int frame_writer;        /* --frame-writer: the rank that writes every frame, or -1 to
                                rotate (frame f by rank f mod P; the default) */
    bool frame_encode_writer; /* --frame-encode writer: the writer alone annotates and
                                encodes each frame (default false: every rank its piece) */
    size_t iso_cache_bytes;  /* --iso-cache MIB: isosurface polygons a rank keeps for the
                                next frame of an unchanged grid (0 = none; default
                                PV_ISO_CACHE_AUTO: pv_iso_cache_default) */
    bool check_only;         /* --check: check every statement's syntax, report all errors,
                                run nothing */
    const char *stats_path;  /* --stats FILE: per-frame statistics as JSON at the end of the
                                run (pvox/stats.h), or NULL */
    bool no_shell;           /* --no-shell: every feature that runs a shell command
                                (system, `!`, backquotes, "< cmd", "| cmd") is an error */
} pv_options;

struct pv_stats; /* the --stats records of this rank (core/stats.c) */

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
    long nallocs;            /* pv_alloc calls so far of at least opt.fail_alloc_min bytes
                                (for fault injection) */
    double t_start;          /* MPI_Wtime() at creation */
    int warned_once_bits;    /* pv_warn_once() flags already used */
    bool err_located;        /* err_msg is a located diagnostic (name:line:col: error: ...) */
    bool err_agreed;         /* err_code was agreed by every rank (pv_status_agree) */
    int err_detail;          /* a fact about the error that travels with its message
                                (PV_DETAIL_*; 0 = none) */
    struct pv_stats *stats;  /* --stats records (pv_stats_frame), NULL until the first */
    void (*stats_free)(struct pv_ctx *ctx); /* frees `stats` (set with it by core/stats.c;
                                               a hook, so ctx.c needs nothing of stats.c) */
} pv_ctx;

/* ---- context ---------------------------------------------------------------------- */

/* Create the run context over `world` (duplicated). MPI must be initialised.
 * Collective over world. Returns NULL only on allocation failure. */
pv_ctx *pv_ctx_create(MPI_Comm world, const pv_options *opt);
/* Free the context and its communicator. NULL is allowed. Collective. */
void pv_ctx_destroy(pv_ctx *ctx);

/* Fill *opt with the defaults: OpenMP's thread count, log level INFO, no limits, no
 * progress, no fault injection. (Added by core.) */
void pv_options_default(pv_options *opt);

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

/* ctx->err_detail values */
#define PV_DETAIL_MISSING 1 /* a file that does not exist or cannot be opened */

/* Forget the recorded error. */
void pv_err_clear(pv_ctx *ctx);

/* Collective over ctx->comm: agree on the worst status of all ranks (MPI_Allreduce MAX).
 * If any rank failed, the message (and ctx->err_detail) of the lowest failing rank is
 * copied to every rank's ctx, so rank 0 can print it. Returns the agreed status.
 * A failure agreed once is not agreed again (the call returns it at once on every rank),
 * so ranks that leave a command by different paths never wait for each other: after an
 * agreed failure, use no other collective than this one. */
pv_status pv_status_agree(pv_ctx *ctx, pv_status st);

/* Exit code for a status (PV_OK → 0, syntax/script/range → 1, usage → 2, else 3).
 * PV_EEXIT gives 0: the caller uses ctx->exit_code, the code the script asked for. */
int pv_status_exit_code(pv_status st);

/* Print the recorded error on rank 0 to stderr (followed by a newline). A located message
 * is printed as is; any other as "pvox: error: <message>". Nothing for PV_OK/PV_EEXIT. */
void pv_err_print(pv_ctx *ctx);

/* ---- logging (stderr; rank 0 only for info/debug unless --log-all-ranks) ------------ */

void pv_log_write(pv_ctx *ctx, pv_log_level lvl, const char *module, const char *fmt, ...)
    PV_PRINTF(4, 5);
#define pv_log(ctx, lvl, module, ...)                                                      \
    do {                                                                                   \
        if ((int)(lvl) <= (int)(ctx)->opt.log_level) pv_log_write(ctx, lvl, module, __VA_ARGS__); \
    } while (0)
/* pv_log from whichever rank calls it, at any level (the rank that wrote a frame reports
 * it); the level filter still applies. */
void pv_log_here(pv_ctx *ctx, pv_log_level lvl, const char *module, const char *fmt, ...)
    PV_PRINTF(4, 5);

/* Print a plain message on rank 0's stderr exactly as given (no prefix), in one write.
 * Not filtered by -q or the log level: use it for what a script asks to print. */
void pv_msg(pv_ctx *ctx, const char *fmt, ...) PV_PRINTF(2, 3);

/* Warn (rank 0, stderr) only the first time `bit` (0..30) is used in this run. Printed as
 * "pvox: warning: <message>\n" (dropped only if the log level is below WARN). Call it on
 * every rank (SPMD) so the flags stay identical. Bits in use: see PV_ONCE_* below. */
void pv_warn_once(pv_ctx *ctx, int bit, const char *fmt, ...) PV_PRINTF(3, 4);

/* Bits for pv_warn_once(): reserve one here (append) rather than picking a number. */
enum {
    PV_ONCE_PLOT_NOT_BUILT = 0, /* an element kind pvox does not draw yet was skipped */
    PV_ONCE_DEFAULT_OUTPUT = 1  /* where frames go when there is no `set output` */
};

/* ---- progress bars (rank 0, stderr, only with opt.progress) ------------------------ */

/* One progress bar, owned by the caller (on the stack is fine). The line drawn reads
 *     fill         [#########                     ]  30%  12/40  3.4 planes/s  8 s left
 * label, bar, percentage, done/total, rate and time left; with the unit "bytes" the amounts and the
 * rate are shown in KiB/MiB/GiB. */
typedef struct pv_progress {
    const char *label;   /* borrowed; shown before the bar ("fill") */
    const char *units;   /* borrowed; the unit word of the rate ("frames"), NULL for none */
    int64_t total;       /* units of work in the phase (> 0) */
    double t_begin;      /* pv_elapsed() at begin */
    double t_drawn;      /* pv_elapsed() when last drawn */
    int last_pct;        /* percentage last drawn, -1 before the first */
    bool active;         /* drawing on this rank */
    int last_len;        /* characters of the line last drawn (a shorter one pads to it) */
    int64_t done;        /* units last reported by pv_progress_update */
} pv_progress;

/* Start a bar for `total` units. Draws only on rank 0 and only if ctx->opt.progress.
 * Not collective; call outside parallel regions (count inside, update after). */
void pv_progress_begin(pv_ctx *ctx, pv_progress *p, const char *label, int64_t total);
/* The same, naming the unit of work for the rate ("frames", "planes", "bytes"; borrowed). */
void pv_progress_begin_units(pv_ctx *ctx, pv_progress *p, const char *label, int64_t total,
                             const char *units);
/* Report `done` units finished (0..total). Redraws at most ten times a second, when the
 * percentage changes or at least once a second (so the time left stays current). */
void pv_progress_update(pv_ctx *ctx, pv_progress *p, int64_t done);
/* Finish the bar (draws total/total with the rate and the elapsed time, ends the line). */
void pv_progress_end(pv_ctx *ctx, pv_progress *p);
/* Finish the bar where it stands (after a failure: the units last reported, not 100%). */
void pv_progress_stop(pv_ctx *ctx, pv_progress *p);
/* Format the line of `p` with `done` units finished at time `now` (pv_elapsed seconds)
 * into buf (n bytes, NUL-terminated, truncated to fit; no "\r" or "\n"). Once done
 * reaches p->total the time left becomes the elapsed time ("in 3.5 s"); before any unit
 * is done (or time has passed) there is no rate and no time left. Returns the length
 * written (< n, 0 if n is 0). Thread-safe, no MPI, draws nothing. */
size_t pv_progress_format(char *buf, size_t n, const pv_progress *p, int64_t done, double now);

/* ---- memory ----------------------------------------------------------------------- */

/* Allocate n bytes, tracked per rank. On failure records PV_ENOMEM and returns NULL.
 * Fails when the rank would hold more than opt.max_memory bytes (if set) and, for tests,
 * on the opt.fail_alloc_at-th call. Not thread-safe: call outside parallel regions.
 * pv_calloc checks count*size for overflow and returns zeroed memory. */
void *pv_alloc(pv_ctx *ctx, size_t n);
void *pv_calloc(pv_ctx *ctx, size_t count, size_t size);
/* Map every page of [p, p+n) writable now, values unchanged, with the threads (the
 * calling thread alone inside a parallel region) (MADV_POPULATE_WRITE; nothing where the
 * kernel lacks it). A fresh block's first touch
 * costs a fault and a page of zeros; taken inside a read(2) into the block those faults
 * are slow and one at a time, so readers that read files straight into a new slab
 * populate it first (at 1024^3: 0.25 s for 4 GiB here, against about 0.9 s of faults in
 * the reads). */
void pv_mem_populate(void *p, size_t n);
/* Free a block from pv_alloc; `n` must be the size it was allocated with. NULL is allowed. */
void pv_free(pv_ctx *ctx, void *p, size_t n);
/* *out = a*b; false (and *out untouched) on overflow. */
bool pv_mul_size(size_t a, size_t b, size_t *out);

/* --iso-cache's default: the isosurface polygon cache takes part of the fixed 256 MiB of
 * the memory target (bench/README.md, "A 1024^3 job end to end"; the frame buffers,
 * isosurface batch and pvox itself take some 80-110 MiB of it) and shrinks as the rank's
 * grid memory grows: 128 MiB less an eighth of `grid_bytes`, nothing from 1 GiB of grid
 * up. A big grid's polygons would not fit a cache of that size anyway (a 1024^3 frame of
 * 201 levels has 9.5 M triangles). */
#define PV_ISO_CACHE_AUTO SIZE_MAX
/* --checkpoint-every's default: a save is due once the run has gone on for ten times as
 * long as the last save took (exec/ckpt.c maybe_save), so saves take about a tenth of
 * the run whatever the number of grids; 0 saves after every change. */
#define PV_CHECKPOINT_AUTO (-1.0)
#define PV_CHECKPOINT_AUTO_RATIO 10.0
size_t pv_iso_cache_default(size_t grid_bytes);

/* The growable array: make room for at least `need` elements of `elem` bytes in the
 * array whose address is `arrp` (a `T **`) and whose capacity in elements is *cap,
 * doubling (at least 8 elements). Capacity only grows; free the array with
 * pv_free(ctx, arr, cap * elem). False (error recorded, array unchanged) on failure or
 * size overflow. Use it through PV_GROW:
 *
 *     if (!PV_GROW(ctx, a->item, a->cap, a->n + 1)) return ctx->err_code;
 *     a->item[a->n++] = x;
 */
bool pv_grow(pv_ctx *ctx, void *arrp, size_t *cap, size_t need, size_t elem);
/* The capacity test is inline: per-row appends do not pay a call (need is evaluated twice:
 * no side effects in it). */
#define PV_GROW(ctx, arr, cap, need)                                                          \
    ((size_t)(need) <= (cap) || pv_grow((ctx), &(arr), &(cap), (need), sizeof *(arr)))

/* A text built by appending, in tracked memory: s holds len bytes and a NUL (cap bytes
 * allocated; s is NULL until the first append). */
typedef struct pv_strbuf {
    char *s;
    size_t len, cap;
} pv_strbuf;
/* Append n bytes of s. PV_ENOMEM (error recorded, the text unchanged) on failure. */
pv_status pv_strbuf_put(pv_ctx *ctx, pv_strbuf *b, const char *s, size_t n);
/* Free the text (zeroed). */
void pv_strbuf_free(pv_ctx *ctx, pv_strbuf *b);

/* ---- broadcast helpers ------------------------------------------------------------ */

/* Collective: rank 0 reads the whole file `path` and broadcasts its bytes. On success every
 * rank gets a malloc'd, NUL-terminated copy in *data (length *len, excluding the NUL).
 * On failure every rank returns PV_EIO with the same message recorded. */
pv_status pv_read_file_bcast(pv_ctx *ctx, const char *path, char **data, size_t *len);

/* Collective: broadcast a byte buffer from rank 0 (receivers get a malloc'd copy). */
pv_status pv_bcast_bytes(pv_ctx *ctx, char **data, size_t *len);

/* Seconds since the context was created. */
double pv_elapsed(const pv_ctx *ctx);

/* ---- small helpers (added by core) ------------------------------------------------ */

/* A byte offset resolved to a line and column (see pv_locate). */
typedef struct pv_loc {
    int line;          /* line number, counting from first_line */
    size_t col;        /* 1-based byte column */
    size_t line_start; /* offset of the first byte of that line */
    size_t line_len;   /* bytes in the line, without "\n" or "\r\n" */
    size_t off;        /* the offset actually used (clamped into the text) */
} pv_loc;

/* Resolve `off` in text[0..len) to line and column. An offset past the end is clamped;
 * one at the end of text ending in "\n" points at the end of the last line. Thread-safe. */
void pv_locate(const char *text, size_t len, int first_line, size_t off, pv_loc *loc);

/* Turn the recorded, not yet located error into a located one at `off` (for a callee's
 * pv_err, e.g. "cannot open 'x.dat'", seen from the command that caused it). Does nothing
 * if no error is recorded or it is located already. Returns ctx->err_code. */
pv_status pv_err_locate(pv_ctx *ctx, const char *name, const char *text, size_t len,
                        int first_line, size_t off);

/* Short lowercase description of a status ("out of memory"). Never NULL. */
const char *pv_status_str(pv_status st);

/* printf into a malloc'd string (NULL on failure). Thread-safe. */
char *pv_asprintf(const char *fmt, ...) PV_PRINTF(1, 2);
char *pv_vasprintf(const char *fmt, va_list ap) PV_PRINTF(1, 0);

/* The directory part of a file path, malloc'd (NULL if out of memory): "a/b" of "a/b/c",
 * "/" of "/c", "." of "c". */
char *pv_path_dir(const char *path);

#endif /* PVOX_CORE_H */
