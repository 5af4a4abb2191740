/*
 * datafile_int.h: what the datafile sources share privately: the `binary` option parser
 * (datafile_binopt.c) and the matrix / binary readers (datafile_matrix.c) that the row
 * iterator (datafile_read.c) walks.
 */
#ifndef PV_DATAFILE_INT_H
#define PV_DATAFILE_INT_H

#include "pvox/datafile.h"

/* Parse the keywords after `binary` (array, record, format, endian, skip, dx, dy, flip,
 * flipx, flipy, transpose, scan, origin, center, rotation, perpendicular, filetype) up to
 * the first other word. exec = false only checks the syntax. */
pv_status pv_df_binary_opts_parse(pv_cursor *c, pv_env *env, bool exec, pv_data_spec *ds);

/* One record of matrix or binary data, as gnuplot's binary reader walks it: nx points per
 * line, ny lines; each point has ncols values (matrix data: x, y, value). */
typedef struct pv_df_record {
    int64_t nx, ny;          /* ny = 1 for a single line; nx or ny may be "until EOF" */
    int ncols;
    double *val;             /* n points x ncols values (n = points actually read) */
    int64_t npoints;
    size_t cap;              /* values allocated (pv_alloc'd through the ctx) */
} pv_df_record;

typedef struct pv_df_records {
    pv_df_record *rec;
    size_t n, cap;
} pv_df_records;

/* Lines of an ASCII source: a file's bytes or a datablock's lines. */
typedef struct pv_df_lines {
    const char *text;        /* file bytes (text, len), or NULL */
    size_t len, pos;
    char *const *lines;      /* datablock lines (nlines), when text is NULL */
    size_t nlines, next;
} pv_df_lines;

/* Read every matrix of an ASCII source (stops at a double blank line unless `index` asks
 * for later ones, as gnuplot 5.4 does). Values are stored as single precision floats, as
 * gnuplot does. */
pv_status pv_df_read_ascii_matrix(pv_ctx *ctx, const pv_data_spec *ds, const pv_data_opts *o,
                                  pv_df_lines *src, pv_df_records *out);

/* Decode binary bytes: gnuplot's binary matrix (ds->bin.general false) or general binary
 * (fields of ds->bin, at least `need` fields per point). */
pv_status pv_df_read_binary(pv_ctx *ctx, const pv_data_spec *ds, const char *bytes, size_t len,
                            int need, pv_df_records *out);

void pv_df_records_fini(pv_ctx *ctx, pv_df_records *r);

/* gnuplot's map of a point's first values: v' = R (v - xc) + xo (z shifted in splot),
 * from rotation, flips (matrix data), origin or centre; on = false: identity. */
typedef struct pv_df_xform {
    bool on, splot;
    double R[2][2], xc[3], xo[3];
} pv_df_xform;

void pv_df_xform_setup(const pv_data_spec *ds, const pv_df_record *rec, bool splot,
                       pv_df_xform *xf);
void pv_df_xform_apply(const pv_df_xform *xf, double *v, int n);

/* The coordinates general binary `array` data generates at point m of line n (splot: also
 * y for a one-dimensional array, and z = the first field); returns their count. */
int pv_df_generated(const pv_data_spec *ds, const double *fields, int64_t m, int64_t n,
                    bool splot, double pre[3]);

/* A number as strtod reads it at s (end: the end of the text; s..end holds no NUL before
 * the number ends), correctly rounded: std::from_chars where it takes the number whole,
 * strtod otherwise (numparse.cc). *stop is set after the number (s: none). */
double pv_parse_double(const char *s, const char *end, char **stop);

/* The kind of a text line s[0..n) (its end of line removed): gnuplot's rule. */
enum { PV_DF_COMMENT, PV_DF_BLANK, PV_DF_DATA };
int pv_df_line_kind(const char *comments, const char *s, size_t n);

/* `every` (ev[6]: point_incr, block_incr, point_start, block_start, point_end, block_end)
 * and `index` (ilo < 0: all) of ds with gnuplot's defaults. */
void pv_df_resolve_selection(const pv_data_spec *ds, int64_t ev[6], int64_t *ilo, int64_t *ihi,
                             int64_t *istep);

/* The fields of a whitespace-separated line s[0..n) as the tokeniser splits them, reading
 * the numbers of the first maxcol fields whose need[k] is set (val[k]; bad[k]: not a
 * number); *nfields is the fields seen (at most maxcol). s[n] must exist and not continue
 * a number (the line's end). false: the line needs the tokeniser (a quoted field, a NUL). */
#define PV_DF_FAST_MAXCOL 64
bool pv_df_fast_fields(const char *s, size_t n, int maxcol, const unsigned char *need, double *val,
                       unsigned char *bad, int *nfields);

#endif /* PV_DATAFILE_INT_H */
