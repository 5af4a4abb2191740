/*
 * datafile_matrix.c: matrix and binary data read into records, the way gnuplot 5.4 reads
 * them before walking them point by point (datafile_read.c walks the records):
 *
 * - ASCII `matrix`: each line a row of values; a blank or comment line ends a matrix (the
 *   next one starts a new record, the `index` unit); a second blank line ends the reading
 *   unless `index` asks for a later record. Values are kept in single precision, as
 *   gnuplot keeps them. `columnheaders` drops the first row, `rowheaders` the first
 *   column (gnuplot makes tic labels of them). `nonuniform matrix`: the first row holds
 *   the x coordinates after one unused field, the first column the y coordinates.
 * - `binary` alone: gnuplot's binary matrix, the nonuniform layout in 32-bit floats
 *   (first value: the number of columns N; then N x values; then rows of y and N values).
 * - general binary (`array`, `record`, `format`): fields per point as `format` says
 *   (default float), `skip=` bytes first, `endian=` byte order.
 */
#include "datafile_int.h"

#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define DNAN ((double)NAN)

void pv_df_records_fini(pv_ctx *ctx, pv_df_records *r)
{
    for (size_t k = 0; k < r->n; k++)
        pv_free(ctx, r->rec[k].val, r->rec[k].cap * sizeof *r->rec[k].val);
    pv_free(ctx, r->rec, r->cap * sizeof *r->rec);
    memset(r, 0, sizeof *r);
}

static pv_df_record *new_record(pv_ctx *ctx, pv_df_records *r)
{
    if (!PV_GROW(ctx, r->rec, r->cap, r->n + 1)) return NULL;
    pv_df_record *rec = &r->rec[r->n++];
    memset(rec, 0, sizeof *rec);
    return rec;
}

static bool add_point(pv_ctx *ctx, pv_df_record *rec, const double *v)
{
    size_t need = (size_t)(rec->npoints + 1) * (size_t)rec->ncols;
    if (!PV_GROW(ctx, rec->val, rec->cap, need)) return false;
    memcpy(rec->val + (size_t)rec->npoints * (size_t)rec->ncols, v,
           (size_t)rec->ncols * sizeof *v);
    rec->npoints++;
    return true;
}

/* =====================================================================================
 * ASCII matrices
 * ===================================================================================== */

/* Next line (without its end), false at the end. */
static bool next_line(pv_df_lines *s, const char **line, size_t *n)
{
    if (s->text) {
        if (s->pos >= s->len) return false;
        const char *p = s->text + s->pos, *nl = memchr(p, '\n', s->len - s->pos);
        *n = nl ? (size_t)(nl - p) : s->len - s->pos;
        *line = p;
        s->pos += *n + 1;
    } else {
        if (s->next >= s->nlines) return false;
        *line = s->lines[s->next++];
        *n = strlen(*line);
    }
    while (*n > 0 && ((*line)[*n - 1] == '\r' || (*line)[*n - 1] == '\n')) (*n)--;
    return true;
}

typedef struct mat_build {
    pv_ctx *ctx;
    float *v;                /* rows x cols, row-major */
    size_t cap;
    int64_t rows, cols;
    bool warned;
} mat_build;

static bool is_sep(const pv_data_opts *o, char ch)
{
    return o->separator ? ch != '\0' && strchr(o->separator, ch) != NULL
                        : isspace((unsigned char)ch) != 0;
}

/* One field's value: the number at its start, 0 when it is not one (gnuplot reads matrix
 * fields with atof: "Junk" is 0, measured), NaN when it is the missing-data mark. */
static double field_value(const pv_data_opts *o, const char *s, const char *end, bool *bad)
{
    if (o->missing && *o->missing) {
        size_t m = strlen(o->missing);
        if ((size_t)(end - s) == m && strncmp(s, o->missing, m) == 0) return *bad = true, DNAN;
    }
    char buf[128];
    size_t n = (size_t)(end - s) < sizeof buf - 1 ? (size_t)(end - s) : sizeof buf - 1;
    memcpy(buf, s, n);
    buf[n] = '\0';
    char *e = NULL;
    double d = strtod(buf, &e);
    if (e == buf) return 0.0;
    if (isnan(d)) *bad = true;
    return d;
}

/* Split a line into values (whitespace or separator fields; "a b" is one field). */
static pv_status split_values(mat_build *m, const pv_data_opts *o, const char *s, size_t n,
                              double **vals, size_t *cap, int64_t *count, bool *bad)
{
    const char *p = s, *e = s + n;
    *count = 0;
    while (p < e) {
        if (!o->separator) {
            while (p < e && isspace((unsigned char)*p)) p++;
            if (p == e) break;
        }
        const char *f = p, *fe;
        if (*p == '"') {
            f = ++p;
            while (p < e && *p != '"') p++;
            fe = p;
            while (p < e && !is_sep(o, *p)) p++;
        } else {
            while (p < e && !is_sep(o, *p)) p++;
            fe = p;
        }
        if (!PV_GROW(m->ctx, *vals, *cap, (size_t)*count + 1)) return m->ctx->err_code;
        (*vals)[(*count)++] = field_value(o, f, fe, bad);
        if (p < e) p++; /* the separator */
        if (o->separator && p == e && is_sep(o, e[-1])) { /* a trailing empty field */
            if (!PV_GROW(m->ctx, *vals, *cap, (size_t)*count + 1)) return m->ctx->err_code;
            (*vals)[(*count)++] = DNAN;
            *bad = true;
        }
    }
    return PV_OK;
}

/* The finished matrix as a record of (x, y, value) points. */
static pv_status flush_matrix(mat_build *m, const pv_data_spec *ds, pv_df_records *out)
{
    if (m->rows == 0) return PV_OK;
    pv_df_record *rec = new_record(m->ctx, out);
    if (!rec) return m->ctx->err_code;
    bool nonuni = ds->matrix == PV_MATRIX_NONUNIFORM;
    int64_t c0 = nonuni || ds->matrix_rowheaders ? 1 : 0, r0 = nonuni ? 1 : 0;
    rec->ncols = 3;
    rec->nx = m->cols - c0;
    rec->ny = m->rows - r0;
    for (int64_t r = r0; r < m->rows; r++)
        for (int64_t c = c0; c < m->cols; c++) {
            double v[3];
            v[0] = nonuni ? (double)m->v[c] : (double)(c - c0);
            v[1] = nonuni ? (double)m->v[r * m->cols] : (double)(r - r0);
            v[2] = (double)m->v[r * m->cols + c];
            if (!add_point(m->ctx, rec, v)) return m->ctx->err_code;
        }
    if (rec->nx <= 0 || rec->ny <= 0) out->n--; /* nothing in it */
    m->rows = m->cols = 0;
    return PV_OK;
}

static pv_status add_row(mat_build *m, const pv_data_spec *ds, const double *vals, int64_t n,
                         bool bad)
{
    if (m->cols && n != m->cols)
        return pv_err(m->ctx, PV_ESCRIPT, "Matrix does not represent a grid");
    m->cols = n;
    size_t need = (size_t)(m->rows + 1) * (size_t)n;
    if (!PV_GROW(m->ctx, m->v, m->cap, need)) return m->ctx->err_code;
    for (int64_t k = 0; k < n; k++) m->v[m->rows * n + k] = (float)vals[k];
    m->rows++;
    /* gnuplot warns once per plot (the first field of a nonuniform matrix is a label) */
    (void)ds;
    (void)bad;
    return PV_OK;
}

pv_status pv_df_read_ascii_matrix(pv_ctx *ctx, const pv_data_spec *ds, const pv_data_opts *o,
                                  pv_df_lines *src, pv_df_records *out)
{
    const char *comments = o->commentschars ? o->commentschars : "#";
    int64_t lower = ds->index_lo < 0 ? 0 : ds->index_lo;
    int64_t skip = ds->skip, cur_index = 0;
    int blanks = 0;
    bool got_headers = false;
    mat_build m = {ctx, NULL, 0, 0, 0, false};
    double *vals = NULL;
    size_t vcap = 0;
    pv_status st = PV_OK;
    const char *line;
    size_t n;
    while (st == PV_OK && next_line(src, &line, &n)) {
        if (skip > 0) {
            skip--;
            continue;
        }
        size_t i = 0;
        while (i < n && isspace((unsigned char)line[i]) && !is_sep(o, line[i])) i++;
        if (i == n || strchr(comments, line[i])) { /* blank or comment: ends a matrix */
            if (++blanks == 1) {
                st = flush_matrix(&m, ds, out);
                continue;
            }
            if (blanks == 2) {
                ++cur_index;
                if (cur_index <= lower) continue;
                break; /* past the last index, or gnuplot's end of reading */
            }
            continue;
        }
        blanks = 0;
        int64_t count = 0;
        bool bad = false;
        st = split_values(&m, o, line + i, n - i, &vals, &vcap, &count, &bad);
        if (st != PV_OK || count == 0) break;
        if (ds->matrix_colheaders && !got_headers && m.rows == 0) {
            got_headers = true; /* the labels row (gnuplot: x tic labels) */
            continue;
        }
        st = add_row(&m, ds, vals, count, bad);
    }
    if (st == PV_OK) st = flush_matrix(&m, ds, out);
    pv_free(ctx, vals, vcap * sizeof *vals);
    pv_free(ctx, m.v, m.cap * sizeof *m.v);
    return st;
}

/* =====================================================================================
 * Binary
 * ===================================================================================== */

/* One element in the file's byte order `e` (pvox/datafile.h pv_bin_decode). */
static double decode(const unsigned char *p, pv_bin_type t, pv_bin_endian e)
{
    const uint16_t probe = 1;
    bool host_little = *(const unsigned char *)&probe == 1;
    bool swap = e == PV_ENDIAN_SWAP || (e == PV_ENDIAN_LITTLE && !host_little) ||
                (e == PV_ENDIAN_BIG && host_little);
    return pv_bin_decode(p, t, swap, e == PV_ENDIAN_MIDDLE);
}

/* gnuplot's binary matrix: N, x[N], then rows of y and N values (32-bit floats). */
static pv_status read_gpbin(pv_ctx *ctx, const pv_data_spec *ds, const unsigned char *p,
                            size_t len, pv_df_records *out)
{
    pv_bin_endian e = ds->bin.endian;
    size_t nf = len / 4;
    if (nf < 1) return pv_err(ctx, PV_ESCRIPT, "Read grid of zero width");
    double nd = decode(p, PV_BIN_FLOAT, e);
    if (!(nd >= 1.0)) return pv_err(ctx, PV_ESCRIPT, "Read grid of zero width");
    if (nd > 1e8) return pv_err(ctx, PV_ESCRIPT, "Read grid width too large");
    size_t nc = (size_t)nd, nr = nf / (nc + 1);
    if (nr * (nc + 1) != nf) return pv_err(ctx, PV_ESCRIPT, "File doesn't factorize into full matrix");
    pv_df_record *rec = new_record(ctx, out);
    if (!rec) return ctx->err_code;
    rec->ncols = 3;
    rec->nx = (int64_t)nc;
    rec->ny = (int64_t)nr - 1;
    for (size_t r = 1; r < nr; r++) {
        const unsigned char *row = p + r * (nc + 1) * 4;
        double y = decode(row, PV_BIN_FLOAT, e);
        for (size_t c = 0; c < nc; c++) {
            double v[3] = {decode(p + (c + 1) * 4, PV_BIN_FLOAT, e), y,
                           decode(row + (c + 1) * 4, PV_BIN_FLOAT, e)};
            if (!add_point(ctx, rec, v)) return ctx->err_code;
        }
    }
    return PV_OK;
}

/* General binary: points of nfields values until the record (or the bytes) end. */
static pv_status read_general(pv_ctx *ctx, const pv_data_spec *ds, const unsigned char *p,
                              size_t len, int need, pv_df_records *out)
{
    const pv_data_binary *b = &ds->bin;
    int nf = b->nfields > need ? b->nfields : need;
    if (nf < 1) nf = 1;
    if (nf > PV_BIN_FIELDS_MAX) return pv_err(ctx, PV_ESCRIPT, "too many binary fields");
    pv_bin_type types[PV_BIN_FIELDS_MAX];
    for (int k = 0; k < nf; k++)
        types[k] = k < b->nfields ? (pv_bin_type)b->type[k]
                   : b->nfields ? (pv_bin_type)b->type[b->nfields - 1] : PV_BIN_FLOAT;
    pv_df_record *rec = new_record(ctx, out);
    if (!rec) return ctx->err_code;
    rec->ncols = nf;
    rec->nx = b->dim[0] != 0 ? b->dim[0] : -1;
    rec->ny = b->dim[1] != 0 ? b->dim[1] : 1;
    if (b->transpose && b->dim[1] > 0) rec->nx = b->dim[1], rec->ny = b->dim[0];
    int64_t total = rec->nx < 0 || rec->ny < 0 ? INT64_MAX : rec->nx * rec->ny;
    size_t pos = (size_t)b->skip;
    double v[PV_BIN_FIELDS_MAX];
    for (int64_t i = 0; i < total; i++) {
        size_t q = pos;
        bool full = true;
        for (int k = 0; k < nf && full; k++) {
            q += (size_t)(k < b->nfields || k == 0 ? b->skip_before[k] : 0);
            size_t sz = pv_bin_type_size(types[k]);
            if (q + sz > len) full = false;
            else v[k] = decode(p + q, types[k], b->endian), q += sz;
        }
        if (!full) break; /* the end of the bytes */
        q += (size_t)(nf <= b->nfields ? b->skip_before[nf] : 0);
        if (!add_point(ctx, rec, v)) return ctx->err_code;
        pos = q;
    }
    return PV_OK;
}

pv_status pv_df_read_binary(pv_ctx *ctx, const pv_data_spec *ds, const char *bytes, size_t len,
                            int need, pv_df_records *out)
{
    const unsigned char *p = (const unsigned char *)bytes;
    const char *ft = ds->bin.filetype;
    if (ft[0] && strcmp(ft, "raw") && strcmp(ft, "bin") && strcmp(ft, "rgb") && strcmp(ft, "auto"))
        return pv_err(ctx, PV_ESCRIPT, "binary filetype=%s is not supported by pvox", ft);
    if (ds->bin.ndims == 3) /* DIFF-25: exec/fill_array.c reads them, plane by plane */
        return pv_err(ctx, PV_ESCRIPT, "a 3D binary array (array=NxMxK) can only be read by "
                                       "vfill and vgfill");
    if (!ds->bin.general) return read_gpbin(ctx, ds, p, len, out);
    return read_general(ctx, ds, p, len, need, out);
}

/* =====================================================================================
 * Walking: generated coordinates and the linear map
 * ===================================================================================== */

/* gnuplot's map of the first values: rotation, flips (matrix data), origin or centre. */
void pv_df_xform_setup(const pv_data_spec *ds, const pv_df_record *rec, bool splot,
                       pv_df_xform *xf)
{
    const pv_data_binary *b = &ds->bin;
    double a = fabs(b->rotation) < 0.001 ? 0.0 : b->rotation;
    xf->R[0][0] = cos(a), xf->R[0][1] = -sin(a), xf->R[1][0] = sin(a), xf->R[1][1] = cos(a);
    bool any = a != 0.0;
    xf->xc[2] = 0.0;
    xf->xo[2] = b->trans ? b->trans_pt[2] : 0.0;
    if (ds->matrix != PV_MATRIX_NONE) {
        double lo[2] = {0.0, 0.0}, hi[2] = {0.0, 0.0}; /* the corners (binary matrix) */
        if (ds->binary && rec->npoints > 0) {
            const double *last = rec->val + (size_t)(rec->npoints - 1) * 3;
            lo[0] = rec->val[0], lo[1] = rec->val[1], hi[0] = last[0], hi[1] = last[1];
        }
        for (int i = 0; i < 2; i++) {
            double mid = (lo[i] + hi[i]) / 2;
            xf->xo[i] = b->trans ? b->trans_pt[i] : mid;
            xf->xc[i] = b->trans == 1 ? lo[i] : mid;
            if (b->flip[i]) xf->R[i][0] = -xf->R[i][0], xf->R[i][1] = -xf->R[i][1];
        }
    } else {
        for (int i = 0; i < 2; i++) {
            int64_t size = b->dim[i] > 0 ? b->dim[i] : 0;
            double d = (b->has_delta[i] ? b->delta[i] : 1.0) * (b->flip[i] ? -1.0 : 1.0);
            xf->xo[i] = b->trans ? b->trans_pt[i] : size > 0 ? (double)(size - 1) * fabs(d) / 2 : 0.0;
            if (b->trans == 1) xf->xc[i] = size > 0 && d < 0 ? (double)(size - 1) * d : 0.0;
            else xf->xc[i] = size > 0 ? (double)(size - 1) * (d / 2) : 0.0;
        }
    }
    for (int i = 0; i < 3; i++) any = any || xf->xc[i] != xf->xo[i];
    xf->on = any;
    xf->splot = splot;
}

/* The generated coordinates of general binary `array` data at point m of line n. */
int pv_df_generated(const pv_data_spec *ds, const double *fields, int64_t m, int64_t n,
                    bool splot, double pre[3])
{
    const pv_data_binary *b = &ds->bin;
    int npre = 0;
    if (!b->generate) return 0;
    int dims = b->dim[1] != 0 ? 2 : 1;
    for (int i = 0; i < dims; i++) {
        int64_t cnt = b->transpose ? (i ? m : n) : (i ? n : m);
        double d = (b->has_delta[i] ? b->delta[i] : 1.0) * (b->flip[i] ? -1.0 : 1.0);
        pre[npre++] = (double)cnt * d;
    }
    if (splot) { /* gnuplot: y from the line counter, z the first field */
        if (dims < 2) pre[npre++] = (double)n;
        pre[npre++] = fields[0];
    }
    return npre;
}

void pv_df_xform_apply(const pv_df_xform *xf, double *v, int n)
{
    if (!xf->on || n < 2) return;
    double x = v[0] - xf->xc[0], y = v[1] - xf->xc[1];
    v[0] = xf->R[0][0] * x + xf->R[0][1] * y + xf->xo[0];
    v[1] = xf->R[1][0] * x + xf->R[1][1] * y + xf->xo[1];
    if (xf->splot && n >= 3) v[2] += xf->xo[2] - xf->xc[2];
}
