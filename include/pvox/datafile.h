/*
 * pvox datafile: gnuplot data sources for plots and fills.
 *
 * Reads data files (bytes already broadcast by rank 0) and datablocks, and generates the
 * pseudo-files '+' and '++'; splits lines into columns (whitespace, or `set datafile
 * separator`), honours comments, blank lines (data blocks) and double blank lines (data
 * sets for `index`), missing values; evaluates `using` specs per row; applies `every` and
 * `index`. No MPI: the caller supplies the bytes.
 */
#ifndef PVOX_DATAFILE_H
#define PVOX_DATAFILE_H

#include "pvox/lang.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#define PV_USING_MAX 16

typedef enum pv_ds_kind {
    PV_DS_FILE,       /* a data file: name is its path */
    PV_DS_DATABLOCK,  /* a datablock: name is "$name" */
    PV_DS_PLUS,       /* '+': one sampling variable */
    PV_DS_PLUSPLUS    /* '++': two sampling variables (u, v) */
} pv_ds_kind;

typedef enum pv_using_kind {
    PV_USE_COLUMN,    /* a bare column number: N >= 1, 0 ($0), -1 (block), -2 (data set);
                         or a plain expression (`using c:2`) evaluated once per iteration:
                         an integer is the column, a string a header name */
    PV_USE_EXPR,      /* (expression) */
    PV_USE_HEADER     /* "column header name" */
} pv_using_kind;

typedef struct pv_using_entry {
    pv_using_kind kind;
    pv_code *expr;    /* PV_USE_EXPR, and PV_USE_COLUMN when the number is an expression */
    int64_t column;   /* PV_USE_COLUMN once known */
    char *header;     /* PV_USE_HEADER */
    size_t off;       /* source offset, for messages */
    /* Filled by pv_data_spec_parse from the expression's tokens (gnuplot decides some row
     * skips from the text of the expression, not from its evaluation): */
    int64_t last_dollar; /* the last $N (N >= 1) written in the expression, 0: none */
    int nrefs;           /* entries in refs */
    int64_t refs[8];     /* columns read through $N or column(<integer>), N >= 0 */
    bool vector_ok;      /* no column()/stringcolumn()/valid()/$#/assignment in it */
} pv_using_entry;

/* Sampling for '+' / '++' and `sample [t=a:b]` ranges. Filled by the caller from the
 * settings (samples, isosamples, urange/vrange or, by DEC-4 in docs/GNUPLOT.md, x/y ranges). */
typedef struct pv_sampling {
    int samples1, samples2;        /* set samples s1,s2 (>= 2) */
    int isosamples1, isosamples2;  /* set isosamples i1,i2 (>= 2) */
    double u_min, u_max;           /* range of the first sampling variable ('+': the x
                                      range in plot and splot, '++': urange) */
    double v_min, v_max;           /* range of the second ('++': vrange) */
} pv_sampling;
/* '++' takes samples1 points along u, and isosamples2 scan lines along v; with `set
 * hidden3d` gnuplot takes isosamples1 points along u: the caller passes that as samples1.
 * A step in the sample range (`[u=0:1:0.25]`) replaces the count. */

/* `set datafile ...` options, stored by the settings module and passed by exec. */
typedef struct pv_data_opts {
    const char *separator;         /* NULL: whitespace; else the separator characters
                                      ("," for comma, "\t" for tab) */
    const char *missing;           /* `set datafile missing "X"`; NULL: none */
    const char *commentschars;     /* NULL: "#" */
    bool fortran;                  /* `set datafile fortran`: 1d2, 1D2, 1q2 are numbers */
    const char *dummy[2];          /* '+'/'++': variables bound to u (and v) when the sample
                                      range names none: gnuplot binds its dummies ("x" and
                                      "y" by default) in plot and splot; NULL: none. The
                                      previous values are restored after the iteration. */
    int split_size, split_rank;    /* > 1: evaluate the using expressions only on the rows
                                      of share split_rank of split_size (rows are dealt in
                                      runs of PV_DATA_SPLIT_RUN, counted after gnuplot's
                                      row skips); every other row is still reported, as a
                                      placeholder point (its values NaN). Text, datablock
                                      and '+'/'++' sources only (matrix and binary data
                                      ignore it); 0 or 1: every row. */
    int text_entry;                /* 1-based using entry read as text (`with labels`): a
                                      bare column there that is not a number keeps its row
                                      (its text is in the point's row); 0: none */
    int plot_dims;                 /* 2 (plot) or 3 (splot): the coordinates binary `array`
                                      data generates, the fields before them filling the
                                      ndefault columns without `using` (gnuplot's
                                      df_extend_binary_columns); 0: 3 if ndefault >= 3 */
    bool plane_z;                  /* splot of a 2D `array` in a style with two coordinate
                                      columns (images): z is the plane counter (0), and
                                      every field follows it (else z is the first field) */
} pv_data_opts;

/* Rows a share of a split iteration evaluates in a run (pv_data_opts.split_size). */
#define PV_DATA_SPLIT_RUN 64
/* Does row k of a split iteration (k counts the points it reports) belong to share r? */
static inline bool pv_data_split_owns(int64_t k, int size, int r)
{
    return size <= 1 || (k / PV_DATA_SPLIT_RUN) % size == r;
}

/* `matrix` layouts (GP-x: ASCII matrix data is read whole and then walked as gnuplot's
 * binary reader does: columns 1 and 2 are x and y, 3 the value, $0 the value too,
 * column(-1) the row, column(-2) the matrix). */
typedef enum pv_matrix_kind {
    PV_MATRIX_NONE,
    PV_MATRIX_UNIFORM,    /* `matrix`: x and y are the column and row numbers */
    PV_MATRIX_NONUNIFORM  /* `nonuniform matrix`, `binary` alone: the first row gives x
                             (after a count or a placeholder), the first column y */
} pv_matrix_kind;

/* Element types of general binary fields (`format="%float%uchar"`). */
typedef enum pv_bin_type {
    PV_BIN_CHAR, PV_BIN_UCHAR, PV_BIN_SHORT, PV_BIN_USHORT, PV_BIN_INT, PV_BIN_UINT,
    PV_BIN_LONG, PV_BIN_ULONG, PV_BIN_LONGLONG, PV_BIN_ULONGLONG, PV_BIN_FLOAT,
    PV_BIN_DOUBLE
} pv_bin_type;

#define PV_BIN_FIELDS_MAX 64

/* Bytes of one element of type t. */
static inline size_t pv_bin_type_size(pv_bin_type t)
{
    static const size_t sz[] = {1, 1, 2, 2, 4, 4, 8, 8, 8, 8, 4, 8};
    return sz[t];
}

/* One element's bytes in the file's order -> its value: `swap` reverses them, `middle`
 * then swaps the bytes of each 16-bit half (pdp order). Inline: the 3D array readers call
 * it per element from their threads. */
static inline double pv_bin_decode(const unsigned char *p, pv_bin_type t, bool swap, bool middle)
{
    unsigned char b[8] = {0};
    size_t n = pv_bin_type_size(t);
    for (size_t k = 0; k < n; k++)
        b[k] = swap ? p[n - 1 - k] : p[k];
    if (middle)
        for (size_t k = 0; k + 1 < n; k += 2) {
            unsigned char x = b[k];
            b[k] = b[k + 1], b[k + 1] = x;
        }
    switch (t) {
    case PV_BIN_CHAR: { int8_t v; memcpy(&v, b, 1); return v; }
    case PV_BIN_UCHAR: return b[0];
    case PV_BIN_SHORT: { int16_t v; memcpy(&v, b, 2); return v; }
    case PV_BIN_USHORT: { uint16_t v; memcpy(&v, b, 2); return v; }
    case PV_BIN_INT: { int32_t v; memcpy(&v, b, 4); return v; }
    case PV_BIN_UINT: { uint32_t v; memcpy(&v, b, 4); return v; }
    case PV_BIN_LONG: case PV_BIN_LONGLONG: { int64_t v; memcpy(&v, b, 8); return (double)v; }
    case PV_BIN_ULONG: case PV_BIN_ULONGLONG: { uint64_t v; memcpy(&v, b, 8); return (double)v; }
    case PV_BIN_FLOAT: { float v; memcpy(&v, b, 4); return (double)v; }
    case PV_BIN_DOUBLE: { double v; memcpy(&v, b, 8); return v; }
    }
    return (double)NAN;
}

typedef enum pv_bin_endian {
    PV_ENDIAN_DEFAULT, PV_ENDIAN_LITTLE, PV_ENDIAN_BIG, PV_ENDIAN_SWAP, PV_ENDIAN_MIDDLE
} pv_bin_endian;

/* `binary` options (one record: the first of a `:`-separated list). */
typedef struct pv_data_binary {
    bool general;            /* array/record/format/filetype given: general binary */
    bool generate;           /* `array`: x (and y) generated from the point counters */
    int nfields;             /* fields in `format` (skipped `%*type` not counted) */
    unsigned char type[PV_BIN_FIELDS_MAX];          /* pv_bin_type of each field */
    int64_t skip_before[PV_BIN_FIELDS_MAX + 1];     /* bytes skipped before field k (and
                                                       after the last, at nfields) */
    int64_t dim[3];          /* array/record sizes: points per line, lines, planes (a 3D
                                array: elements along x, y, z whatever `scan` says);
                                0 none, -1 Inf */
    int ndims;               /* sizes given in array=/record= (3: a 3D array, DIFF-25) */
    double delta[3];         /* dx, dy, dz (0: 1) */
    bool has_delta[3];
    bool flip[3];            /* flipx / flipy / flipz / flip=x|y|z */
    bool transpose;          /* transpose / scan=yx */
    char scan[4];            /* scan= as written (lower case), "" none; a 3D array takes a
                                permutation of xyz, its first letter the fastest axis */
    int trans;               /* 0 default, 1 origin=, 2 center= */
    double trans_pt[3];      /* the origin or centre */
    double rotation;         /* radians */
    int64_t skip;            /* skip= bytes before the record */
    pv_bin_endian endian;
    char filetype[8];        /* "" none, else the filetype= name (lower case) */
} pv_data_binary;

typedef struct pv_data_spec {
    pv_ds_kind kind;
    char *name;                    /* file path or "$name"; NULL for '+'/'++' */
    size_t name_off;               /* source offset of the source token */
    int nusing;                    /* entries in using[], 0 = no using clause */
    pv_using_entry using[PV_USING_MAX];
    int64_t every[6];              /* point_incr, block_incr, point_start, block_start,
                                      point_end, block_end; -1 = default */
    int64_t index_lo, index_hi, index_step; /* `index` selection; lo = -1: all */
    bool has_sample_range[2];      /* `[t=a:b]` given for u (and v) */
    pv_code *sample_lo[2], *sample_hi[2]; /* their bounds, evaluated at iteration time */
    char *sample_var[2];           /* dummy variable names bound per sample (NULL: none) */
    pv_code *sample_step[2];       /* `[t=a:b:step]` increment, NULL: use the sample counts */
    int64_t skip;                  /* `skip N`: lines skipped at the start, 0 = none */
    const pv_source *src;          /* source of the command (borrowed; must outlive the spec),
                                      for messages at iteration time */
    pv_code *name_expr;            /* source given as a string expression (check mode, or
                                      before evaluation); name is filled in exec mode */
    bool inline_data;              /* the source is '-' (kind PV_DS_FILE, name "-"): the
                                      caller passes the text of its inline block */
    size_t inline_tok;             /* the '-' token (its data_first/data_count link the
                                      blocks); SIZE_MAX: '-' came from an expression */
    pv_matrix_kind matrix;         /* `matrix` / `nonuniform matrix` / `binary` matrix */
    bool matrix_explicit;          /* the word `matrix` was given */
    bool matrix_colheaders;        /* `matrix columnheaders`: the first row is labels */
    bool matrix_rowheaders;        /* `matrix rowheaders`: the first column is labels */
    bool binary;                   /* `binary`: the file's bytes are binary data */
    pv_data_binary bin;            /* `binary` options */
    bool has_dataset;              /* `dataset "<name>"` given: the file is HDF5 and the
                                      source is that 3D dataset (vfill; README "Bringing
                                      your data") */
    char *dataset;                 /* its name or path ("ez", "/fields/ez"); exec only */
    size_t dataset_off;            /* source offset of the name expression */
    char *order;                   /* `order "xyz"`: the dataset's dimensions slowest
                                      first, a permutation of "xyz" (NULL: "zyx"); exec */
    size_t order_off;              /* source offset of the order expression (0: none) */
} pv_data_spec;

void pv_data_spec_init(pv_data_spec *ds);
void pv_data_spec_fini(pv_data_spec *ds);

/* Parse the data source at the cursor: an optional `sample` keyword followed by one or two
 * ranges `[t=a:b{:step}]` / `[a:b]`, then a string expression (file name, '+', '++', '-'
 * for inline data: see inline_data) or a $datablock. Then parse any `using`, `every`,
 * `index`, `skip` clauses that follow, in any order; stops before other keywords (with,
 * title, ...).
 * ranges `[t=a:b{:step}]` / `[a:b]`, then a string expression (file name, '+', '++'; '-'
 * is an error) or a $datablock. Then parse any `using`, `every`, `index`, `skip`,
 * `matrix`, `nonuniform`, `columnheaders`, `rowheaders`, `binary {options}` clauses that
 * follow, in any order; stops before other keywords (with, title, ...).
 * exec = false compiles the expressions and evaluates nothing; exec = true also evaluates
 * the file name, `every`, `index` and `skip` numbers. Errors are located (PV_ESYNTAX /
 * PV_ESCRIPT). On error ds may be partly filled: pv_data_spec_fini it anyway. */
pv_status pv_data_spec_parse(pv_cursor *c, pv_env *env, bool exec, pv_data_spec *ds);

/* Parse one or two sample ranges `[t=a:b{:step}]` / `[a:b]` at the cursor into ds (the
 * caller uses this when ranges precede the source without the `sample` keyword, as in
 * `plot [t=0:1] '+'`). A range with no name leaves sample_var NULL; an empty bound leaves
 * its code NULL (the value then comes from pv_sampling). */
pv_status pv_data_sample_ranges_parse(pv_cursor *c, pv_data_spec *ds);

/* Called once per accepted row with the evaluated using values (nvals of them, as doubles;
 * NaN for an undefined value). `row` gives the raw columns. Return PV_OK to continue,
 * anything else to stop (that status is returned by pv_data_iterate). */
typedef pv_status (*pv_row_fn)(void *ud, const double *vals, int nvals, const pv_row *row);

/* Iterate the source. For PV_DS_FILE the caller passes the file's bytes (text, len);
 * datablocks come from env; '+'/'++' from `samp`. Without a using clause the default
 * columns are 1..ndefault, or fewer when the first data row has fewer columns (as gnuplot
 * does: a one-column file gives nvals = 1, the caller then uses $0 = row->line as x);
 * later rows with fewer columns are skipped. Evaluation errors are located at the using
 * entry. */
pv_status pv_data_iterate(pv_env *env, const pv_data_spec *ds, const char *text, size_t len,
                          const pv_sampling *samp, int ndefault, pv_row_fn fn, void *ud);

/* ---- extended iteration: options, block boundaries, string results, batch mode ------ */

typedef enum pv_data_event {
    PV_DATA_POINT,     /* an accepted point (pt is set) */
    PV_DATA_BLOCK_END, /* a blank line ended a data block / a '++' scan line (pt NULL) */
    PV_DATA_SET_END    /* a second blank line ended a data set (`index` unit) (pt NULL) */
} pv_data_event;

typedef struct pv_data_point {
    const double *vals;        /* nvals using values; NaN: undefined (1/0, NaN in the data,
                                  a non-numeric string) */
    const char *const *strs;   /* strs[k]: the string when entry k evaluated to a string
                                  (vals[k] is then its numeric reading or NaN), else NULL */
    int nvals;
    const pv_row *row;         /* raw columns; in batch mode only numeric values (str NULL) */
    int64_t point;             /* index of the line within its data block (`every` counts;
                                  splot of a single column uses it as x) */
    bool placeholder;          /* a split iteration's row of another share: not evaluated,
                                  vals are NaN and strs NULL */
} pv_data_point;

typedef pv_status (*pv_data_event_fn)(void *ud, pv_data_event ev, const pv_data_point *pt);

/* What gnuplot 5.4 does with a row (measured with `plot ... with table`):
 * - a bare column that is absent, non-numeric or the missing string: row skipped;
 *   a bare column holding NaN: kept, value NaN;
 * - (expr): $N / column(N) of a non-numeric column give NaN (row kept); of a column equal
 *   to the missing string (or an empty CSV field): row skipped; the last $N written in the
 *   expression must exist in the row, else the row is skipped; an undefined result (1/0)
 *   gives NaN (row kept);
 * - $0 counts the rows selected by `every` within a data set (bad rows included);
 *   column(-1) is the block within the data set, column(-2) the data set.
 * opts NULL = gnuplot's defaults. batch = true evaluates expressions over many rows with the
 * vector form (pv_vcompile with slots "$N" and the dummy variables) when every expression
 * compiles for it, else falls back to pv_eval; the values are identical. The batch path
 * calls fn after a chunk of rows has been read. */
pv_status pv_data_iterate_ex(pv_env *env, const pv_data_spec *ds, const pv_data_opts *opts,
                             const char *text, size_t len, const pv_sampling *samp,
                             int ndefault, bool batch, pv_data_event_fn fn, void *ud);

/* A data file's text a piece at a time: next() gives the next piece (*n == 0 at the end;
 * the piece stays valid until the next call); lines may be cut between pieces. exec
 * passes rank 0's broadcast pieces (pvox/instream.h), so a file is never held whole. */
typedef struct pv_data_reader {
    pv_status (*next)(void *ud, const char **data, size_t *n);
    void *ud;
} pv_data_reader;

/* pv_data_iterate_ex for a PV_DS_FILE source read through `rd` (the other kinds ignore
 * it). Text rows are read as the pieces come; matrix and binary data are gathered whole
 * first. A status other than PV_OK from rd->next ends the iteration with it. */
pv_status pv_data_iterate_rd(pv_env *env, const pv_data_spec *ds, const pv_data_opts *opts,
                             const pv_data_reader *rd, const pv_sampling *samp, int ndefault,
                             bool batch, pv_data_event_fn fn, void *ud);

/* Points only, for the pv_row_fn interface: pass pv_data_rows_event as the event function
 * and a pv_data_rows {fn, ud} as its ud; other events are ignored. */
typedef struct pv_data_rows {
    pv_row_fn fn;
    void *ud;
} pv_data_rows;
pv_status pv_data_rows_event(void *rows, pv_data_event ev, const pv_data_point *pt);

/* ---- a text file read in parts (exec/fill_text.c: each rank parses its own bytes) ----
 * Parts are runs of whole lines in file order. Reading a part needs the reader's counters
 * at its first byte; a part's summary (its line structure, which does not depend on those
 * counters) lets the caller compose them from the earlier parts' summaries without reading
 * them. `skip` applies to the file's first lines; comment lines count for it. */

/* gnuplot's reader state between two lines of a text source. */
typedef struct pv_data_state {
    int64_t skip;        /* lines still to skip (`skip N`) */
    int64_t index;       /* data set (column(-2)) */
    int64_t block;       /* block within the data set (column(-1)) */
    int64_t point;       /* data lines so far in the block (`every` counts them) */
    int64_t datum;       /* rows selected so far in the data set ($0) */
    int blanks;          /* blank lines in a row so far (0, 1, 2: more count as 2) */
    bool seen_line;      /* a data line was read (blank lines before it are ignored) */
} pv_data_state;

/* The state at the start of ds's text (skip = ds->skip). */
void pv_data_state_start(const pv_data_spec *ds, pv_data_state *s);

/* The line structure of a part (whole lines; a last line without a newline counts). */
typedef struct pv_data_text_sum {
    int64_t lines;       /* physical lines, skipped ones included */
    int64_t ndata;       /* data lines (neither blank nor comment, after the skip) */
    int64_t lead_blank;  /* blank lines before the first data line (all, when ndata is 0) */
    int64_t trail_blank; /* blank lines after the last data line */
    int64_t set_ends;    /* runs of >= 2 blank lines between two data lines */
    int64_t block_ends;  /* runs of 1 blank line between data lines after the last of those */
    int64_t tail_points; /* data lines after the last run of blank lines between data lines */
    int64_t tail_data;   /* data lines after the last set end between data lines */
} pv_data_text_sum;

/* Physical lines of text[0..len). */
int64_t pv_data_text_lines(const char *text, size_t len);

/* Summarise text[0..len) whose first `skip` lines are skipped (o: comment characters). */
void pv_data_text_summary(const pv_data_opts *o, const char *text, size_t len, int64_t skip,
                          pv_data_text_sum *sum);

/* The state after a part with summary `sum` read from state *s. datum assumes every row
 * is selected (pv_data_every_all); otherwise pv_data_text_datum gives it. */
void pv_data_state_advance(pv_data_state *s, const pv_data_text_sum *sum);

/* Does ds select every line (no `every`, or one that selects all)? */
bool pv_data_every_all(const pv_data_spec *ds);

/* The datum ($0) change over a part read from the exact state *s: *reset when a data set
 * ended in it (the datum at its end is then *count), else the datum grew by *count. */
void pv_data_text_datum(const pv_data_spec *ds, const pv_data_opts *o, const pv_data_state *s,
                        const char *text, size_t len, bool *reset, int64_t *count);

/* A text iteration fed part by part (rows as pv_data_iterate_ex gives them). keep[0..nkeep)
 * are columns (>= 1) the caller reads from each point's row besides the using values: the
 * batch path carries them too. Not for matrix or binary data, header names (`using
 * "name"`), or columns given as expressions. */
typedef struct pv_data_text pv_data_text;
pv_status pv_data_text_begin(pv_env *env, const pv_data_spec *ds, const pv_data_opts *opts,
                             bool batch, const int64_t *keep, int nkeep, pv_data_event_fn fn,
                             void *ud, pv_data_text **out);
/* Read the whole lines text[0..len) from state *at; every point is handed over before it
 * returns. */
pv_status pv_data_text_feed(pv_data_text *t, const pv_data_state *at, const char *text,
                            size_t len);
void pv_data_text_end(pv_data_text *t);

#endif /* PVOX_DATAFILE_H */
