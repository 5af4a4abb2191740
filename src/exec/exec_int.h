/*
 * exec private: the interpreter state and the pieces the exec files share. The calls run
 * one way: interp.c (statements, blocks, control flow) -> cmd.c (the command table) ->
 * the command files (cmd_*.c, gridcmd.c, gridfill.c, iocmd.c, plot.c) -> the leaves
 * (util.c, gridset.c, gridio.c). ckpt.c is told of each statement by interp.c.
 *
 * Every command handler is one function `(pv_interp *, pv_cursor *, bool exec)`: with
 * exec = false it only parses (the whole-script check: expressions are compiled and freed,
 * nothing is evaluated or changed); with exec = true it parses, evaluates and acts. The
 * cursor spans exactly one statement; a handler must consume it all.
 */
#ifndef PV_EXEC_INT_H
#define PV_EXEC_INT_H

#include "pvox/datafile.h"
#include "pvox/exec.h"
#include "pvox/lang.h"
#include "pvox/outfile.h"
#include "pvox/settings.h"

/* Control flow raised by break/continue, and by a plain `exit` inside a loaded or called
 * file, which (gnuplot 5.4.4) only leaves that file. Leaving the program travels as the
 * PV_EEXIT status instead. */
typedef enum pv_flow { PV_FLOW_NONE = 0, PV_FLOW_BREAK, PV_FLOW_CONTINUE, PV_FLOW_RETURN } pv_flow;

/* Where `print` (and table output) goes. */
typedef enum pv_out_kind {
    PV_OUT_STDERR = 0, /* gnuplot's default for print */
    PV_OUT_STDOUT,     /* "-" */
    PV_OUT_FILE,       /* a file, open on rank 0 only */
    PV_OUT_DATABLOCK,  /* lines appended to a datablock on every rank */
    PV_OUT_MESH        /* `set table "x.vtp"|"x.pvtp"`: a mesh file written by the mesh
                          writer per splot (isosurfaces only; text lines are dropped) */
} pv_out_kind;

typedef struct pv_out {
    pv_out_kind kind;
    FILE *fp;       /* PV_OUT_FILE: the open file on rank 0 (io.f; NULL elsewhere) */
    char *name;     /* file path or "$name" */
    pv_io_out io;   /* PV_OUT_FILE on rank 0: the output rule's file (pvox/outfile.h): a
                       temporary renamed over the file when closed, a stream, a command */
    int werr;       /* rank 0: the first write error (errno), reported when agreed */
} pv_out;

/* Maximum nesting of load/call/eval/macro sources. */
#define PV_MAX_SOURCE_DEPTH 64
/* Maximum nesting of { } blocks: each level takes a few C frames, and the stack is finite */
#define PV_MAX_BLOCK_DEPTH 2000

struct pv_interp {
    pv_ctx *ctx;
    pv_env *env;
    pv_settings *set;
    pv_out print_out;        /* set print */
    bool table_on;           /* set table active */
    pv_out table_out;        /* its destination (PV_OUT_STDOUT for a bare `set table`) */
    pv_flow flow;            /* pending break/continue */
    int loop_depth;          /* nested loops being run */
    int depth;               /* nested sources (load/call/eval/macro) */
    const pv_toklist *brace_tl[PV_MAX_SOURCE_DEPTH]; /* the token list of each source ... */
    size_t *brace_pair[PV_MAX_SOURCE_DEPTH];       /* ... and its brace pairs (interp.c) */
    int block_depth;         /* nested { } blocks being run or checked */
    double last_cb[2];       /* the colour range of the last frame (palette(z)) */
    bool have_last_cb;
    long check_errors;       /* --check: syntax errors reported so far */
    int run_depth;           /* nested pv_interp_run_* calls (the notice is top level) */
    int call_depth;          /* nested `call`s being run */
    int file_depth;          /* nested `load`/`call` files being run */
    long plots_skipped;      /* plot commands not rendered since the last notice */
    char *script_name;       /* the first script run (default frame names, DEC-10) */
    long default_frames;     /* frames written under default names so far */
    char *last_splot;        /* text after `plot`/`splot` of the last plot run (replot) */
    bool last_plot_2d;       /* ... and it was a 2D `plot` */
    int open_iter_ok;        /* > 0: a `for [i=a:*]` may iterate (plot elements) */
    int open_iter_depth;     /* open iterations being run */
    bool open_iter_done;     /* set by a plot element of an open iteration without data */
    const pv_toklist *inline_tl; /* the token list of the last inline block read ... */
    size_t inline_next;      /* ... and the token after it (iterations read in turn) */
    const char *skip_warned[32]; /* element kinds already reported as not drawn (their
                                    static `why` texts): each is named once per script */
    int nskip_warned;
    struct pv_ckpt {         /* --checkpoint / --resume (ckpt.c) */
        int64_t seq;         /* grid changes run so far (replayed ones included) */
        int64_t replay_until;/* --resume: the first this many grid changes are skipped */
        bool dirty;          /* grids changed since the last save */
        bool resumed;        /* grids came from --resume */
        bool started;        /* the first script has been seen */
        bool sweep;          /* remove temporaries an interrupted run left (--resume, or
                                --resume-if-exists starting afresh) */
        const char *from;    /* the checkpoint resumed from (--resume or, with
                                --resume-if-exists, --checkpoint), NULL: none */
        double last_save;    /* MPI_Wtime of the last save (rank 0's clock) */
        double save_seconds; /* how long the last save took (rank 0's clock) */
        char hash[17];       /* FNV-1a 64 of the job script, hex (of several scripts:
                                of their hashes, ckpt.c job_hash) */
        const char *const *scripts; /* the job's scripts (pv_interp_set_job_scripts) */
        int nscripts;
        char *script_names;  /* their names, as the checkpoint's `script` attribute */
        uint64_t *swept;     /* --resume, rank 0: FNV-1a 64 of the paths whose temporaries
                                left by the interrupted run were removed (ckpt.c) */
        size_t nswept, capswept;
    } ck;
    bool replaying;          /* a resumed run replays a grid change: it is parsed, not run
                              * (exec = false), and `set vgrid` only re-activates its grid */
    bool grid_resized;       /* `set vgrid` resized a grid in this statement (ckpt.c saves) */
    struct pv_gridset *grids;/* voxel grids (gridset.c) */
    struct pv_frames *frames;/* the frame pipeline kept across frames (frames.c) */
    int64_t loop_total;      /* iterations of the outermost loop being run (0: none, or
                                open), for the frame progress bar */
    int64_t loop_index;      /* ... the one being run (0-based) */
    int64_t loop_serial;     /* outermost loops started so far */
    pv_source **texts;       /* sources of pv_exec_compile_text, kept for diagnostics */
    size_t ntexts;
};

typedef pv_status (*pv_cmd_fn)(pv_interp *I, pv_cursor *c, bool exec);

/* ---- cmd_other.c: commands read but not carried out, and `system` ------------------- */
pv_status pv_cmd_fit(pv_interp *I, pv_cursor *c, bool exec);
pv_status pv_cmd_update(pv_interp *I, pv_cursor *c, bool exec);
pv_status pv_cmd_test(pv_interp *I, pv_cursor *c, bool exec);
pv_status pv_cmd_interactive(pv_interp *I, pv_cursor *c, bool exec);
pv_status pv_cmd_system(pv_interp *I, pv_cursor *c, bool exec);
pv_status pv_cmd_shell(pv_interp *I, pv_cursor *c, bool exec); /* !command */
/* cmd_stats.c */
pv_status pv_cmd_stats(pv_interp *I, pv_cursor *c, bool exec);

/* ---- backquote.c --------------------------------------------------------------------- */
/* Collective: replace every `command` of the source's text (outside single quotes and
 * comments) by its output; *srcp may be replaced by a new source. */
pv_status pv_exec_backquotes(pv_interp *I, pv_source **srcp);

/* ---- hostfn.c: palette(), system(), time() -------------------------------------------- */
void pv_hostfn_register(pv_interp *I);
/* Collective: rank 0 runs `cmd` through the shell; every rank gets its standard output
 * without the final newline (malloc'd, NUL-terminated) and, in *code (may be NULL), the
 * command's exit status as gnuplot reports it (pv_exec_shell_status). */
pv_status pv_exec_shell_output(pv_interp *I, const char *cmd, char **out, size_t *outlen,
                               int *code);
/* Collective: rank 0's wait status `wstatus` of a shell command (from system() or
 * pclose(), -1 when it could not run) as gnuplot reports it: the exit code, or errno when
 * the command could not run. Sets GPVAL_SYSTEM_ERRNO and GPVAL_SYSTEM_ERRMSG on every
 * rank and returns the code. */
int pv_exec_shell_status(pv_interp *I, int wstatus, int err);

/* ---- gpval.c: the GPVAL_* variables -------------------------------------------------- */

/* All of them, at interpreter start and after `reset session`. */
void pv_gpval_init(pv_interp *I);
/* Terminal, output, view: after every set/unset/reset. */
void pv_gpval_settings(pv_interp *I);
/* After a frame: GPVAL_LAST_PLOT (`cmd`, may be NULL), GPVAL_PLOT/SPLOT and the x, y, z, cb
 * ranges the frame used (min/max NULL: the ranges as set). */
void pv_gpval_frame(pv_interp *I, const char *cmd, bool is_splot, const double min[4],
                    const double max[4]);

/* ---- interp.c ------------------------------------------------------------------------ */

/* Lex, check and run a source (takes ownership of `src`). Used for scripts, load, call,
 * eval, replot and macro-expanded statements. */
pv_status pv_exec_source(pv_interp *I, pv_source *src);

/* ---- util.c (a leaf: calls no other exec file) --------------------------------------- */

/* Parse `for [var = a:b{:c}]` or `for [var in "words"]` at the cursor (just after `for`)
 * and, for each iteration, bind the variable and call fn(ud, c, exec). The cursor is left
 * after the body as parsed by the last call; the variable's previous value is restored. */
typedef pv_status (*pv_iter_body)(pv_interp *I, pv_cursor *c, bool exec, void *ud);
pv_status pv_exec_iterate(pv_interp *I, pv_cursor *c, bool exec, pv_iter_body body, void *ud);

/* The ends of an axis with settings r before tics extend it: autoscaled ends take the data
 * extent [lo, hi] (lo > hi: no data, gnuplot's [-10:10]); an autoscaled range comes out
 * ordered and, when empty, widened (pv_ticks_widen_empty). */
void pv_exec_autoscale_ends(const pv_range *r, double lo, double hi, double *a, double *b);
/* The fixed range of plot axis 0/1/2 (x/y/z): false if either end is autoscaled. */
bool pv_exec_axis_fixed_range(pv_interp *I, int axis, double *lo, double *hi);
/* Sampling for '+' / '++' from the settings (samples, isosamples, hidden3d, u/v ranges,
 * DEC-4: u/v follow fixed x/y ranges unless set urange/vrange was given). */
void pv_exec_sampling(pv_interp *I, const pv_data_spec *ds, pv_sampling *out);
/* The reader options `set datafile` gives (separator, missing, comments, dummies); sep is
 * the caller's storage for the separator string. */
void pv_exec_data_opts(pv_interp *I, pv_data_opts *o, char sep[2]);
/* Compile an expression given as text (e.g. "$4"). NULL with an error recorded on failure.
 * The caller destroys the code; the text's source lives as long as the interpreter. */
pv_code *pv_exec_compile_text(pv_interp *I, const char *text);

/* Skip to the end of the statement. */
void pv_exec_skip_rest(pv_cursor *c);
/* Error unless the cursor is at the end of the statement (gnuplot's wording). */
pv_status pv_exec_expect_end(pv_cursor *c);
/* Parse one expression; in exec mode evaluate it into *out (which the caller frees). */
pv_status pv_exec_expr(pv_interp *I, pv_cursor *c, bool exec, pv_value *out);
/* A string expression: evaluated (exec) into *out (malloc'd); check mode only parses. */
pv_status pv_exec_string_expr(pv_interp *I, pv_cursor *c, bool exec, char **out);
/* True if the token `ahead` of the cursor is the operator `op`. */
bool pv_exec_op_at(const pv_cursor *c, size_t ahead, const char *op);
/* Locate the recorded, not yet located error (a lower layer's: no source position) at
 * byte `off` of the statement's source (core's pv_err_locate). Returns ctx->err_code. */
pv_status pv_exec_locate(pv_interp *I, const pv_cursor *c, size_t off);
/* datain.c: read a whole file (collective) for a command (load, call, fit's via file); a
 * name starting with '<' is a shell command whose output is read. A failure is reported
 * at byte `off` of the command's source (the file name) instead of unlocated. */
pv_status pv_exec_read_file(pv_interp *I, pv_cursor *c, size_t off, const char *path,
                            char **data, size_t *len);
/* datain.c: PV_OK, or with --no-shell the located error (PV_ESCRIPT) that `what` (e.g.
 * "system()") runs a shell command; src NULL: not located. Same answer on every rank. */
pv_status pv_exec_shell_gate(pv_interp *I, const pv_source *src, size_t off, const char *what);

/* The data of a source being read (datain.c): a data file or "< command" read by rank 0
 * a piece at a time and broadcast (never held whole), or the text of inline data. */
typedef struct pv_exec_input {
    char *text;                  /* inline data '-': its block (malloc'd), else NULL */
    size_t len;
    struct pv_instream *stream;  /* a data file or "< command" (pvox/instream.h) */
    bool missing;                /* after a failed open: the file could not be opened at
                                    all (plot skips it with a warning, as gnuplot) */
} pv_exec_input;
/* Open the input of a data source (kinds other than PV_DS_FILE need none: in is zeroed).
 * Collective; a failure is located at the source's name. Close it on every path. */
pv_status pv_exec_input_open(pv_interp *I, pv_cursor *c, const pv_data_spec *ds,
                             pv_exec_input *in);
void pv_exec_input_close(pv_exec_input *in);
/* pv_data_iterate_ex over the input (in NULL or empty: the source's own rows); may be
 * called again for another pass over the same rows. Collective: a rank whose callback
 * stops the pass early (an error, or PV_EEXIT) leaves the others no broadcast to wait
 * for; a read error on rank 0 is agreed and located at the source's name. */
pv_status pv_exec_data_pass(pv_interp *I, pv_exec_input *in, const pv_data_spec *ds,
                          const pv_data_opts *opts, const pv_sampling *samp, int ndefault,
                          bool batch, pv_data_event_fn fn, void *ud);
/* The same for a callback of points only (pv_data_iterate's). */
pv_status pv_exec_data_rows(pv_interp *I, pv_exec_input *in, const pv_data_spec *ds,
                               const pv_sampling *samp, int ndefault, pv_row_fn fn, void *ud);
/* The text of a data source of kind PV_DS_FILE: the file (pv_exec_read_file), or for '-'
 * a copy of its next inline data block (one per use: `plot for [i=1:2] '-'` reads two). */
pv_status pv_exec_read_source(pv_interp *I, pv_cursor *c, const pv_data_spec *ds,
                              char **data, size_t *len);

/* The inline data blocks read by tokens [lo, hi) of tl, each followed by a line `e`: the
 * text that follows a command run again from its text (replot, a macro statement), so it
 * reads the same blocks. malloc'd ("" when none), *n its length; NULL when out of memory. */
char *pv_exec_inline_text(const pv_toklist *tl, size_t lo, size_t hi, size_t *n);

/* ---- cmd.c: dispatch ----------------------------------------------------------------- */

/* What a statement means to --checkpoint / --resume (ckpt.h). */
typedef enum pv_ck_class {
    PV_CK_NONE = 0,    /* not a grid change */
    PV_CK_CHANGE,      /* a grid change (counted; skipped while a resume replays) */
    PV_CK_CHANGE_SAVE, /* a grid change after which a checkpoint is due */
    PV_CK_VGRID,       /* `set vgrid`: a change; a checkpoint is due if it resized a grid */
    PV_CK_PLOT         /* splot / replot: grids changed since the last save are saved first */
} pv_ck_class;

/* The handler of the simple statement at the cursor (not consumed) and its checkpoint
 * class, or NULL (not a command). */
pv_cmd_fn pv_exec_dispatch(const pv_cursor *c, pv_ck_class *ck);

/* ---- cmd_assign.c -------------------------------------------------------------------- */

/* Assignments and function definitions: true if the statement at c has that shape. */
bool pv_exec_is_assignment(const pv_cursor *c);
bool pv_exec_is_funcdef(const pv_cursor *c);
pv_status pv_cmd_assign(pv_interp *I, pv_cursor *c, bool exec);
/* `A[i] = expr` (array element assignment). */
bool pv_exec_is_array_assignment(const pv_cursor *c);
pv_status pv_cmd_array_assign(pv_interp *I, pv_cursor *c, bool exec);
/* Tokens [lo, hi) are exactly `A[expr]` with A an array (an unset element prints as
 * <undefined> where 1/0 is an "undefined value" error). */
bool pv_exec_is_array_element(pv_interp *I, const pv_cursor *c, size_t lo, size_t hi);
pv_status pv_cmd_funcdef(pv_interp *I, pv_cursor *c, bool exec);
pv_status pv_cmd_datablock(pv_interp *I, pv_cursor *c, bool exec);
pv_status pv_cmd_array(pv_interp *I, pv_cursor *c, bool exec);

/* ---- cmd_print.c --------------------------------------------------------------------- */

/* Output helpers. `line` has no trailing newline. Rank 0 writes; datablocks on all ranks. */
pv_status pv_out_line(pv_interp *I, pv_out *o, const char *line);
pv_status pv_out_open(pv_interp *I, pv_out *o, pv_out_kind kind, const char *name,
                      bool append, pv_cursor *c, size_t off);
void pv_out_close(pv_interp *I, pv_out *o);
/* Collective: close `o` (the file renamed into place unless a write failed) and agree
 * the outcome: PV_EIO "cannot write 'f': <reason>" on every rank. */
pv_status pv_out_finish(pv_interp *I, pv_out *o);
/* Collective: flush rank 0's print and table files and agree on their write errors (the
 * end of a run: a file size limit met by a print is an error, exit 3). */
pv_status pv_out_check(pv_interp *I);
/* Append one line to datablock `name` (creating it). */
pv_status pv_exec_datablock_append(pv_interp *I, const char *name, const char *line);

pv_status pv_cmd_print(pv_interp *I, pv_cursor *c, bool exec);
pv_status pv_cmd_printerr(pv_interp *I, pv_cursor *c, bool exec);
/* After `set print` / `unset print` (cursor just after `print`). */
pv_status pv_cmd_set_print(pv_interp *I, pv_cursor *c, bool exec);
pv_status pv_cmd_unset_print(pv_interp *I, pv_cursor *c, bool exec);

/* ---- cmd_misc.c ---------------------------------------------------------------------- */

pv_status pv_cmd_exit(pv_interp *I, pv_cursor *c, bool exec);
pv_status pv_cmd_reset(pv_interp *I, pv_cursor *c, bool exec);
pv_status pv_cmd_pause(pv_interp *I, pv_cursor *c, bool exec);
pv_status pv_cmd_undefine(pv_interp *I, pv_cursor *c, bool exec);
pv_status pv_cmd_clear(pv_interp *I, pv_cursor *c, bool exec);
pv_status pv_cmd_cd(pv_interp *I, pv_cursor *c, bool exec);
pv_status pv_cmd_pwd(pv_interp *I, pv_cursor *c, bool exec);
pv_status pv_cmd_break(pv_interp *I, pv_cursor *c, bool exec);
pv_status pv_cmd_continue(pv_interp *I, pv_cursor *c, bool exec);

/* ---- plot.c -------------------------------------------------------------------------- */

pv_status pv_cmd_plot(pv_interp *I, pv_cursor *c, bool exec);
pv_status pv_cmd_set_table(pv_interp *I, pv_cursor *c, bool exec);
pv_status pv_cmd_unset_table(pv_interp *I, pv_cursor *c, bool exec);

/* True the first time an element kind (its static `why` text) is skipped in this run:
 * each kind pvox does not draw is named once per script (exec/util.c). */
bool pv_plot_first_skip(pv_interp *I, const char *why);
/* The first time `what` (static text, e.g. "`with lines`") is skipped: the warning
 * "`what` is not drawn by pvox 0.x`also`" at off of src. */
void pv_plot_warn_skip(pv_interp *I, const pv_source *src, size_t off, const char *what,
                       const char *also);

#endif /* PV_EXEC_INT_H */
