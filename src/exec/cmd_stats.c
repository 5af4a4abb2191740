/*
 * exec/cmd_stats.c: `stats {[xrange]{[yrange]}} source {using N{:M}} {index|every ...}
 * {name "P"} {output|nooutput}`, gnuplot 5.4's summary statistics of one or two columns.
 *
 * Every rank reads the same rows (rank 0 reads the file, ARCH-1) and computes the same
 * numbers, so the STATS_* (or P_*) variables agree without messages. The report goes to
 * the `set print` destination, laid out as gnuplot lays it out.
 *
 * Counting, as gnuplot 5.4: rows the reader skips (a non-numeric bare column) are not
 * counted; a row with a NaN value is `invalid`; a row outside the ranges is `outofrange`
 * (one column is tested against the y range: gnuplot treats a lone column as y; two
 * columns against x and y); the rest are `records`. `blank` counts blank lines, `blocks`
 * the data sets (separated by two blank lines). Median and quartiles are taken from the
 * sorted values: the middle value (or the mean of the two middle ones); the quartiles are
 * the values a quarter in from each end (the mean of the two around that point when the
 * count is a multiple of 4).
 */
#define _POSIX_C_SOURCE 200809L
#include "exec_int.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct column {
    double *v;       /* values in row order */
    size_t n, cap;
} column;

typedef struct stats_run {
    pv_interp *I;
    int ncol;                /* 1 or 2 */
    column col[2];
    double lo[2], hi[2];     /* ranges; NaN = open end */
    long invalid, outofrange, blank, blocks, columns;
    bool in_block;           /* a point was seen since the last data set end */
} stats_run;

static pv_status on_event(void *ud, pv_data_event ev, const pv_data_point *pt)
{
    stats_run *S = ud;
    if (ev != PV_DATA_POINT) {
        S->blank++;
        if (ev == PV_DATA_SET_END && S->in_block) S->in_block = false;
        return PV_OK;
    }
    if (!S->in_block) S->blocks++, S->in_block = true;
    if (S->columns == 0) S->columns = pt->row ? pt->row->ncols : pt->nvals;
    if (S->ncol == 0) S->ncol = pt->nvals >= 2 ? 2 : 1; /* no using: two columns if there */
    double x[2] = {pt->vals[0], pt->nvals > 1 ? pt->vals[1] : (double)NAN};
    for (int k = 0; k < S->ncol; k++)
        if (isnan(x[k])) {
            S->invalid++;
            return PV_OK;
        }
    for (int k = 0; k < S->ncol; k++) {
        /* one column is y to gnuplot: the y range (index 1) tests it */
        int r = S->ncol == 1 ? 1 : k;
        if ((!isnan(S->lo[r]) && x[k] < S->lo[r]) || (!isnan(S->hi[r]) && x[k] > S->hi[r])) {
            S->outofrange++;
            return PV_OK;
        }
    }
    for (int k = 0; k < S->ncol; k++) {
        column *c = &S->col[k];
        if (!PV_GROW(S->I->ctx, c->v, c->cap, c->n + 1)) return S->I->ctx->err_code;
        c->v[c->n++] = x[k];
    }
    return PV_OK;
}

typedef struct summary {
    double mean, stddev, ssd, skew, kurt, adev, sum, sumsq, min, max;
    double median, loq, upq, mean_err, stddev_err, skew_err, kurt_err;
    long imin, imax;
} summary;

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static pv_status summarise(pv_ctx *ctx, const column *c, summary *s)
{
    size_t n = c->n;
    memset(s, 0, sizeof *s);
    if (n == 0) return PV_OK;
    s->min = s->max = c->v[0];
    for (size_t i = 0; i < n; i++) {
        double v = c->v[i];
        s->sum += v;
        s->sumsq += v * v;
        if (v < s->min) s->min = v, s->imin = (long)i;
        if (v > s->max) s->max = v, s->imax = (long)i;
    }
    s->mean = s->sum / n;
    double m2 = 0, m3 = 0, m4 = 0, ad = 0;
    for (size_t i = 0; i < n; i++) {
        double d = c->v[i] - s->mean;
        m2 += d * d, m3 += d * d * d, m4 += d * d * d * d, ad += fabs(d);
    }
    s->stddev = sqrt(m2 / n);
    s->ssd = n > 1 ? sqrt(m2 / (n - 1)) : (double)NAN;
    s->skew = s->stddev > 0 ? m3 / n / pow(s->stddev, 3) : (double)NAN;
    s->kurt = s->stddev > 0 ? m4 / n / pow(s->stddev, 4) : (double)NAN;
    s->adev = ad / n;
    s->mean_err = s->stddev / sqrt((double)n);
    s->stddev_err = s->stddev / sqrt(2.0 * n);
    s->skew_err = sqrt(6.0 / n);
    s->kurt_err = sqrt(24.0 / n);
    double *sorted = pv_alloc(ctx, n * sizeof *sorted);
    if (!sorted) return ctx->err_code;
    memcpy(sorted, c->v, n * sizeof *sorted);
    qsort(sorted, n, sizeof *sorted, cmp_double);
    s->median = n % 2 ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]);
    size_t q = n / 4;
    if (n % 4 == 0) {
        s->loq = 0.5 * (sorted[q - 1] + sorted[q]);
        s->upq = 0.5 * (sorted[n - 1 - q] + sorted[n - q]);
    } else {
        s->loq = sorted[q];
        s->upq = sorted[n - 1 - q];
    }
    pv_free(ctx, sorted, n * sizeof *sorted);
    return PV_OK;
}

/* ---- variables ------------------------------------------------------------------------ */

static pv_status set_var(pv_interp *I, const char *prefix, const char *name, const char *sfx,
                         pv_value v)
{
    char key[160];
    snprintf(key, sizeof key, "%s_%s%s", prefix, name, sfx);
    return pv_env_set(I->env, key, &v);
}

static pv_status set_summary(pv_interp *I, const char *p, const summary *s, const char *sfx)
{
    const struct {
        const char *name;
        double v;
    } reals[] = {
        {"mean", s->mean}, {"stddev", s->stddev}, {"ssd", s->ssd}, {"skewness", s->skew},
        {"kurtosis", s->kurt}, {"adev", s->adev}, {"mean_err", s->mean_err},
        {"stddev_err", s->stddev_err}, {"skewness_err", s->skew_err},
        {"kurtosis_err", s->kurt_err}, {"sum", s->sum}, {"sumsq", s->sumsq},
        {"min", s->min}, {"max", s->max}, {"median", s->median},
        {"lo_quartile", s->loq}, {"up_quartile", s->upq},
    };
    pv_status st = PV_OK;
    for (size_t k = 0; k < sizeof reals / sizeof reals[0] && st == PV_OK; k++)
        st = set_var(I, p, reals[k].name, sfx, pv_real(reals[k].v));
    if (st == PV_OK) st = set_var(I, p, "index_min", sfx, pv_int(s->imin));
    if (st == PV_OK) st = set_var(I, p, "index_max", sfx, pv_int(s->imax));
    return st;
}

/* ---- the report ----------------------------------------------------------------------- */

static void fmt_value(char *buf, size_t n, double v)
{
    if (isnan(v)) snprintf(buf, n, "%11s", "undefined");
    else if (fabs(v) >= 1e6) snprintf(buf, n, "%11.5e", v);
    else snprintf(buf, n, "%11.4f", v);
}

static pv_status line(pv_interp *I, const char *fmt, ...) PV_PRINTF(2, 3);
static pv_status line(pv_interp *I, const char *fmt, ...)
{
    char buf[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    return pv_out_line(I, &I->print_out, buf);
}

/* "  Label:        value {[index]}   value {[index]}" */
static pv_status row(pv_interp *I, const char *label, int ncol, const double *v,
                     const long *idx, bool trailing_space)
{
    char out[200], num[64];
    int len = snprintf(out, sizeof out, "  %-15s", label);
    for (int k = 0; k < ncol; k++) {
        if (k == 1) /* the second column's numbers end 18 characters after the first's */
            while (len < 35) out[len++] = ' ';
        fmt_value(num, sizeof num, v[k]);
        len += snprintf(out + len, sizeof out - len, "%s", num);
        if (idx) len += snprintf(out + len, sizeof out - len, " [%ld]", idx[k]);
        else if (trailing_space && ncol == 1) len += snprintf(out + len, sizeof out - len, " ");
    }
    out[len] = '\0';
    return pv_out_line(I, &I->print_out, out);
}

/* NaN prints as "nan" whatever its sign bit (0/0 gives -nan on x86). */
static double plain_nan(double v) { return isnan(v) ? fabs(v) : v; }

static pv_status report(pv_interp *I, const stats_run *S, const summary *s, long records,
                        double slope, double icept, double slope_err, double icept_err,
                        double corr, double sumxy)
{
    pv_status st = line(I, "%s", "");
    if (st == PV_OK) st = line(I, "* FILE: ");
    if (st == PV_OK) st = line(I, "  %-19s%ld", "Records:", records);
    if (st == PV_OK) st = line(I, "  %-19s%ld", "Out of range:", S->outofrange);
    if (st == PV_OK) st = line(I, "  %-19s%ld", "Invalid:", S->invalid);
    if (st == PV_OK) st = line(I, "  %-19s%d", "Header records:", 0);
    if (st == PV_OK) st = line(I, "  %-19s%ld", "Blank:", S->blank);
    if (st == PV_OK) st = line(I, "  %-19s%ld", "Data Blocks:", S->blocks);
    if (st == PV_OK) st = line(I, "%s", "");
    if (st == PV_OK) st = line(I, S->ncol == 1 ? "* COLUMN: " : "* COLUMNS:");
    int n = S->ncol;
#define ROW(label, field, sp)                                                               \
    do {                                                                                    \
        double v_[2] = {s[0].field, n > 1 ? s[1].field : 0};                                \
        if (st == PV_OK) st = row(I, label, n, v_, NULL, sp);                               \
    } while (0)
    ROW("Mean:", mean, false);
    ROW("Std Dev:", stddev, false);
    ROW("Sample StdDev:", ssd, false);
    ROW("Skewness:", skew, false);
    ROW("Kurtosis:", kurt, false);
    ROW("Avg Dev:", adev, false);
    ROW("Sum:", sum, false);
    ROW("Sum Sq.:", sumsq, false);
    if (st == PV_OK) st = line(I, "%s", "");
    ROW("Mean Err.:", mean_err, false);
    ROW("Std Dev Err.:", stddev_err, false);
    ROW("Skewness Err.:", skew_err, false);
    ROW("Kurtosis Err.:", kurt_err, false);
    if (st == PV_OK) st = line(I, "%s", "");
    double vmin[2] = {s[0].min, n > 1 ? s[1].min : 0}, vmax[2] = {s[0].max, n > 1 ? s[1].max : 0};
    long imin[2] = {s[0].imin, n > 1 ? s[1].imin : 0}, imax[2] = {s[0].imax, n > 1 ? s[1].imax : 0};
    if (st == PV_OK) st = row(I, "Minimum:", n, vmin, imin, false);
    if (st == PV_OK) st = row(I, "Maximum:", n, vmax, imax, false);
    ROW("Quartile:", loq, true);
    ROW("Median:", median, true);
    ROW("Quartile:", upq, true);
#undef ROW
    if (st == PV_OK) st = line(I, "%s", "");
    if (n == 2) {
        slope = plain_nan(slope), icept = plain_nan(icept), corr = plain_nan(corr);
        slope_err = plain_nan(slope_err), icept_err = plain_nan(icept_err);
        if (st == PV_OK)
            st = line(I, "  %-20sy = %.4g x %c %.4g", "Linear Model:", slope,
                      icept < 0 ? '-' : '+', fabs(icept));
        if (st == PV_OK) st = line(I, "  %-20s%.4g +- %.4g", "Slope:", slope, slope_err);
        if (st == PV_OK) st = line(I, "  %-20s%.4g +- %.4g", "Intercept:", icept, icept_err);
        if (st == PV_OK) st = line(I, "  %-20sr = %.4g", "Correlation:", corr);
        if (st == PV_OK) st = line(I, "  %-20s%.4g", "Sum xy:", sumxy);
        if (st == PV_OK) st = line(I, "%s", "");
    }
    return st;
}

/* ---- the command ---------------------------------------------------------------------- */

/* `[a:b]` with either end empty or `*`; NaN for an open end. */
static pv_status parse_range(pv_interp *I, pv_cursor *c, bool exec, double *lo, double *hi)
{
    *lo = *hi = NAN;
    pv_cur_next(c); /* [ */
    double *end[2] = {lo, hi};
    for (int k = 0; k < 2; k++) {
        if (k == 1 && !pv_cur_accept_op(c, ":")) return pv_cur_error(c, PV_ESYNTAX, "':' expected");
        if (pv_cur_accept_op(c, "*") || pv_cur_is_op(c, ":") || pv_cur_is_op(c, "]")) continue;
        pv_value v = {0};
        pv_status st = pv_exec_expr(I, c, exec, &v);
        if (st != PV_OK) return st;
        if (exec) *end[k] = v.type == PV_V_INT ? (double)v.i : v.type == PV_V_CMPLX ? v.re : (double)NAN;
        pv_value_free(&v);
    }
    if (!pv_cur_accept_op(c, "]")) return pv_cur_error(c, PV_ESYNTAX, "']' expected");
    return PV_OK;
}

pv_status pv_cmd_stats(pv_interp *I, pv_cursor *c, bool exec)
{
    pv_cur_next(c);
    stats_run S;
    memset(&S, 0, sizeof S);
    S.I = I;
    S.lo[0] = S.lo[1] = S.hi[0] = S.hi[1] = NAN;
    pv_status st = PV_OK;
    /* without ranges on the command, the x and y ranges as set (fixed ends only) */
    for (int k = 0; k < 2; k++) {
        const pv_range *r = &I->set->range[k == 0 ? PV_AX_X : PV_AX_Y];
        if (!r->auto_min) S.lo[k] = fmin(r->min, r->max);
        if (!r->auto_max) S.hi[k] = fmax(r->min, r->max);
    }
    for (int k = 0; k < 2 && pv_cur_is_op(c, "[") && st == PV_OK; k++)
        st = parse_range(I, c, exec, &S.lo[k], &S.hi[k]);
    pv_data_spec ds;
    pv_data_spec_init(&ds);
    if (st == PV_OK) st = pv_data_spec_parse(c, I->env, exec, &ds);
    char *prefix = NULL;
    bool output = true;
    while (st == PV_OK && !pv_cur_at_end(c)) {
        if (pv_cur_accept_word(c, "name")) {
            free(prefix);
            prefix = NULL;
            st = pv_exec_string_expr(I, c, exec, &prefix);
        } else if (pv_cur_accept_word(c, "out$put")) {
            output = true;
        } else if (pv_cur_accept_word(c, "noout$put")) {
            output = false;
        } else {
            st = pv_exec_expect_end(c);
        }
    }
    if (st == PV_OK && ds.nusing > 2)
        st = pv_source_error(I->ctx, PV_ESYNTAX, c->tl->src, ds.name_off,
                             "Too many columns in using specification");
    if (st != PV_OK || !exec) {
        pv_data_spec_fini(&ds);
        free(prefix);
        return st;
    }
    const char *p = prefix && *prefix ? prefix : "STATS";
    pv_exec_input in;
    st = pv_exec_input_open(I, c, &ds, &in);
    pv_sampling samp;
    pv_data_opts opts;
    char sep[2];
    pv_exec_sampling(I, &ds, &samp);
    pv_exec_data_opts(I, &opts, sep);
    /* the number of columns: the using clause, else two when the data has them (decided
     * at the first row) */
    S.ncol = ds.nusing == 0 ? 0 : ds.nusing;
    if (st == PV_OK)
        st = pv_exec_data_pass(I, &in, &ds, &opts, &samp,
                               ds.matrix != PV_MATRIX_NONE ? 1 : 2, /* matrix: the values */
                               false, on_event, &S);
    if (S.ncol == 0) S.ncol = 1;
    if (st == PV_OK) { /* a new stats replaces all of the prefix's variables, even when it
                        * finds no data */
        char pat[160];
        snprintf(pat, sizeof pat, "%s_*", p);
        pv_env_undefine(I->env, pat);
    }
    summary s[2];
    long records = (long)S.col[0].n;
    if (st == PV_OK && records == 0) { /* gnuplot warns and goes on, setting nothing */
        pv_source_warn(I->ctx, c->tl->src, ds.name_off, "%s",
                       S.outofrange > 0 ? "All points out of range"
                                        : "No valid data points found in file");
        output = false;
        S.ncol = 0;
    }
    for (int k = 0; k < S.ncol && st == PV_OK; k++) st = summarise(I->ctx, &S.col[k], &s[k]);
    /* each rank summarised alone (its copy for the median may fail): agree before the
     * next command's collectives */
    st = pv_status_agree(I->ctx, st);
    double slope = 0, icept = 0, slope_err = 0, icept_err = 0, corr = 0, sumxy = 0;
    double pos_min_y = 0, pos_max_y = 0;
    if (st == PV_OK && S.ncol == 2) {
        double sxx = 0, sxy = 0;
        for (size_t i = 0; i < S.col[0].n; i++) {
            double dx = S.col[0].v[i] - s[0].mean, dy = S.col[1].v[i] - s[1].mean;
            sxx += dx * dx, sxy += dx * dy;
            sumxy += S.col[0].v[i] * S.col[1].v[i];
        }
        slope = sxy / sxx;
        icept = s[1].mean - slope * s[0].mean;
        double rss = 0, n = (double)S.col[0].n;
        for (size_t i = 0; i < S.col[0].n; i++) {
            double r = S.col[1].v[i] - (icept + slope * S.col[0].v[i]);
            rss += r * r;
        }
        double s2 = rss / (n - 2);
        slope_err = sqrt(s2 / sxx);
        icept_err = sqrt(s2 * (1.0 / n + s[0].mean * s[0].mean / sxx));
        if (n < 2) {
            slope_err = icept_err = NAN;
            pv_msg(I->ctx, "Warning:  Can't compute errors of slope and intercept. Not enough "
                           "data points.\n");
        } else if (n == 2) {
            slope_err = icept_err = 0;
            pv_msg(I->ctx, "Warning:  Errors of slope and intercept are zero. There are as many "
                           "data points as there are parameters.\n");
        }
        corr = (sxy / n) / (s[0].stddev * s[1].stddev);
        pos_min_y = S.col[0].v[s[1].imin];
        pos_max_y = S.col[0].v[s[1].imax];
    }
    if (st == PV_OK && S.ncol > 0) {
        const struct {
            const char *name;
            long v;
        } counts[] = {{"records", records}, {"invalid", S.invalid}, {"headers", 0},
                      {"blank", S.blank}, {"blocks", S.blocks}, {"outofrange", S.outofrange},
                      {"columns", S.columns}};
        for (size_t k = 0; k < sizeof counts / sizeof counts[0] && st == PV_OK; k++)
            st = set_var(I, p, counts[k].name, "", pv_int(counts[k].v));
    }
    if (st == PV_OK && S.ncol == 1) st = set_summary(I, p, &s[0], "");
    if (st == PV_OK && S.ncol == 2) {
        st = set_summary(I, p, &s[0], "_x");
        if (st == PV_OK) st = set_summary(I, p, &s[1], "_y");
        const struct {
            const char *name;
            double v;
        } fit[] = {{"slope", slope}, {"intercept", icept}, {"slope_err", slope_err},
                   {"intercept_err", icept_err}, {"correlation", corr}, {"sumxy", sumxy},
                   {"pos_min_y", pos_min_y}, {"pos_max_y", pos_max_y}};
        for (size_t k = 0; k < sizeof fit / sizeof fit[0] && st == PV_OK; k++)
            st = set_var(I, p, fit[k].name, "", pv_real(fit[k].v));
    }
    if (st == PV_OK && output)
        st = report(I, &S, s, records, slope, icept, slope_err, icept_err, corr, sumxy);
    for (int k = 0; k < 2; k++) pv_free(I->ctx, S.col[k].v, S.col[k].cap * sizeof *S.col[k].v);
    pv_exec_input_close(&in);
    pv_data_spec_fini(&ds);
    free(prefix);
    return st;
}
