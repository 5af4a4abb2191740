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

#define PV_USING_MAX 16

typedef enum pv_ds_kind {
    PV_DS_FILE,       /* a data file: name is its path */
    PV_DS_DATABLOCK,  /* a datablock: name is "$name" */
    PV_DS_PLUS,       /* '+': one sampling variable */
    PV_DS_PLUSPLUS    /* '++': two sampling variables (u, v) */
} pv_ds_kind;

typedef enum pv_using_kind {
    PV_USE_COLUMN,    /* a bare column number (or integer expression evaluated once) */
    PV_USE_EXPR,      /* (expression) */
    PV_USE_HEADER     /* "column header name" */
} pv_using_kind;

typedef struct pv_using_entry {
    pv_using_kind kind;
    pv_code *expr;    /* PV_USE_EXPR, and PV_USE_COLUMN when the number is an expression */
    int64_t column;   /* PV_USE_COLUMN once known */
    char *header;     /* PV_USE_HEADER */
    size_t off;       /* source offset, for messages */
} pv_using_entry;

/* Sampling for '+' / '++' and `sample [t=a:b]` ranges. Filled by the caller from the
 * settings (samples, isosamples, urange/vrange or, by pvox decision 4, x/y ranges). */
typedef struct pv_sampling {
    int samples1, samples2;        /* set samples s1,s2 */
    int isosamples1, isosamples2;  /* set isosamples i1,i2 */
    double u_min, u_max;           /* range of the first sampling variable */
    double v_min, v_max;           /* range of the second */
} pv_sampling;

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
} pv_data_spec;

void pv_data_spec_init(pv_data_spec *ds);
void pv_data_spec_fini(pv_data_spec *ds);

/* Parse the data source at the cursor: a string expression (file name, '+', '++', '-'
 * not supported) or a $datablock, with an optional leading `sample [t=a:b]` range
 * handled by the caller. Then parse any `using`, `every`, `index` clauses that follow, in
 * any order; stops before other keywords (with, title, ...). */
pv_status pv_data_spec_parse(pv_cursor *c, pv_env *env, bool exec, pv_data_spec *ds);

/* Called once per accepted row with the evaluated using values (nvals of them, as doubles;
 * NaN for an undefined value). `row` gives the raw columns. Return PV_OK to continue,
 * anything else to stop (that status is returned by pv_data_iterate). */
typedef pv_status (*pv_row_fn)(void *ud, const double *vals, int nvals, const pv_row *row);

/* Iterate the source. For PV_DS_FILE the caller passes the file's bytes (text, len);
 * datablocks come from env; '+'/'++' from `samp`. Without a using clause the default
 * columns are 1..ndefault. Evaluation errors are located at the using entry. */
pv_status pv_data_iterate(pv_env *env, const pv_data_spec *ds, const char *text, size_t len,
                          const pv_sampling *samp, int ndefault, pv_row_fn fn, void *ud);

#endif /* PVOX_DATAFILE_H */
