/*
 * exec/fill_array.c: `vfill` / `vgfill` from a 3D array: binary bricks (`binary
 * array=NxMxK`, DIFF-25) and, through pv_array_src, HDF5 datasets (h5src.c).
 *
 * Every rank reads only the part of the array its slab needs, a box at a time (boxes of
 * the file's storage order, at most a few tens of MiB each), never the whole array:
 *
 * - fast path: the array's elements are exactly the grid's nodes (same size per axis, the
 *   ceil rule of GP-3 maps element i to node i on every axis), the radius is the constant
 *   0 (vfill), and the value is column 4 (or an expression of the columns that reads no
 *   VoxelDistance, GridDistance, voxel() or rand() and has a vector form): each voxel
 *   receives exactly its element, voxel = (float)((double)voxel + value) as the kernel
 *   adds, so the values go straight into the slab, and the counts are what the kernel
 *   would count (every element is inside the grid, every one modifies its voxel).
 * - general path: the elements become sources (x, y, z, radius from the using specs,
 *   columns 1:2:3 the element's coordinates and 4.. its values) for the planes whose
 *   bricks can meet the slab, fed to the fill session (fillrun.h) in file order, box by
 *   box. Boxes follow the storage order and each box is walked in it, so every voxel
 *   receives its sources in file order: the grid is bit-identical for any rank and thread
 *   count, and equal to the rows path on the same numbers.
 *
 * A binary brick is checked before the grid is touched: the file opens on every rank and
 * holds exactly skip + elements x element size bytes.
 *
 * Here: the boxes, the fast path and the entry points; the brick reader is in
 * fill_array_brick.c, the using specs and the general path in fill_array_gen.c
 * (fill_array_int.h between them).
 */
#include "fill_array_int.h"

#include <errno.h>
#include <fcntl.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define FAST_BOX_BYTES (48u << 20) /* decoded bytes of one fast-path box (a->read) */

/* =====================================================================================
 * Boxes: the parts of the array a rank reads, in storage order
 * ===================================================================================== */

void pv_array_plan_make(const arr *A, int64_t zlo, int64_t zhi, size_t max_elems, plan *p)
{
    for (int d = 0; d < 3; d++) p->lo[d] = 0, p->hi[d] = A->fn[d];
    /* the element z range -> the storage range of the z axis */
    bool fz = A->a->flip[2];
    int64_t n2 = A->a->n[2];
    p->lo[A->zd] = fz ? n2 - zhi : zlo;
    p->hi[A->zd] = fz ? n2 - zlo : zhi;
    int64_t w0 = p->hi[0] - p->lo[0], w1 = p->hi[1] - p->lo[1], w2 = p->hi[2] - p->lo[2];
    if (w0 <= 0 || w1 <= 0 || w2 <= 0) {
        p->nboxes = 0, p->per2 = 1, p->per1 = 0;
        return;
    }
    double slice = (double)w0 * (double)w1;
    if (slice <= (double)max_elems || !A->b) {
        double per = (double)max_elems / slice;
        p->per2 = per >= (double)w2 ? w2 : per < 1 ? 1 : (int64_t)per;
        p->per1 = 0;
        p->nboxes = (w2 + p->per2 - 1) / p->per2;
    } else {
        p->per2 = 1;
        p->per1 = (int64_t)max_elems / w0;
        if (p->per1 < 1) p->per1 = 1;
        p->nboxes = w2 * ((w1 + p->per1 - 1) / p->per1);
    }
}

void pv_array_plan_box(const plan *p, int64_t k, int64_t lo[3], int64_t hi[3])
{
    lo[0] = p->lo[0], hi[0] = p->hi[0];
    if (p->per1 == 0) {
        lo[1] = p->lo[1], hi[1] = p->hi[1];
        lo[2] = p->lo[2] + k * p->per2;
        hi[2] = lo[2] + p->per2 < p->hi[2] ? lo[2] + p->per2 : p->hi[2];
    } else {
        int64_t nb1 = (p->hi[1] - p->lo[1] + p->per1 - 1) / p->per1;
        lo[2] = p->lo[2] + k / nb1, hi[2] = lo[2] + 1;
        lo[1] = p->lo[1] + (k % nb1) * p->per1;
        hi[1] = lo[1] + p->per1 < p->hi[1] ? lo[1] + p->per1 : p->hi[1];
    }
}

/* Read a box (storage axes) into out, nf doubles per element in storage order. Through
 * a->read every rank must call this the same number of times: a rank with nothing left
 * passes an empty box (lo == hi). */
pv_status pv_array_fetch(arr *A, const int64_t lo[3], const int64_t hi[3], double *out)
{
    if (A->b) return pv_brick_box(A->b, lo, hi, out);
    const pv_array_src *a = A->a;
    int64_t f0 = lo[2], f1 = hi[2];
    int64_t k0 = a->flip[2] ? a->n[2] - f1 : f0, k1 = a->flip[2] ? a->n[2] - f0 : f1;
    if (k1 <= k0) return a->read(a->ud, 0, 0, out);
    if (!a->flip[0] && !a->flip[1] && !a->flip[2]) return a->read(a->ud, k0, k1, out);
    size_t nf = (size_t)a->nfields, plane = (size_t)a->n[0] * (size_t)a->n[1];
    size_t n = plane * (size_t)(k1 - k0) * nf;
    if (n > A->pcap) {
        double *p = realloc(A->pbuf, n * sizeof *p);
        if (!p) return pv_err(A->ctx, PV_ENOMEM, "out of memory reading '%s'", a->name);
        A->pbuf = p, A->pcap = n;
    }
    pv_status st = a->read(a->ud, k0, k1, A->pbuf);
    if (st != PV_OK) return st;
    int64_t w2 = f1 - f0;
#pragma omp parallel for schedule(static)
    for (int64_t p2 = 0; p2 < w2; p2++)
        for (int64_t p1 = 0; p1 < a->n[1]; p1++)
            for (int64_t p0 = 0; p0 < a->n[0]; p0++) {
                int64_t i = elem_index(a, 0, p0), j = elem_index(a, 1, p1);
                int64_t k = elem_index(a, 2, f0 + p2) - k0;
                const double *s = A->pbuf + (((size_t)k * (size_t)a->n[1] + (size_t)j) * (size_t)a->n[0] + (size_t)i) * nf;
                double *d = out + (((size_t)p2 * (size_t)a->n[1] + (size_t)p1) * (size_t)a->n[0] + (size_t)p0) * nf;
                memcpy(d, s, nf * sizeof *d);
            }
    return PV_OK;
}

/* Collective loop over a plan's boxes. Through a->read every rank makes the same number
 * of steps (the most boxes any rank has, reading empty boxes when it has no more),
 * agreeing the status at each; a brick is read with pread, so each rank reads its own
 * boxes and the status is agreed at the end. */

pv_status pv_array_for_boxes(arr *A, const plan *p, double *buf, box_fn fn, void *ud)
{
    pv_ctx *ctx = A->ctx;
    pv_status st = PV_OK;
    if (A->b) {
        for (int64_t k = 0; k < p->nboxes && st == PV_OK; k++) {
            int64_t lo[3], hi[3];
            pv_array_plan_box(p, k, lo, hi);
            st = pv_array_fetch(A, lo, hi, buf);
            if (st == PV_OK) st = fn(ud, lo, hi);
        }
        return pv_status_agree(ctx, st);
    }
    int64_t steps = p->nboxes;
    MPI_Allreduce(&p->nboxes, &steps, 1, MPI_INT64_T, MPI_MAX, ctx->comm);
    for (int64_t k = 0; k < steps && st == PV_OK; k++) {
        int64_t lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
        if (k < p->nboxes) pv_array_plan_box(p, k, lo, hi);
        st = pv_array_fetch(A, lo, hi, buf);
        if (st == PV_OK && k < p->nboxes) st = fn(ud, lo, hi);
        st = pv_status_agree(ctx, st); /* a failure ends the loop on every rank at once */
    }
    return st;
}

/* =====================================================================================
 * The fast path
 * ===================================================================================== */

/* The value spec is column 4 itself: `4`, `($4)`, `(column(4))`. */
static bool value_is_col4(const pv_cursor *c, const pv_using_entry *v)
{
    if (v->kind == PV_USE_COLUMN) return v->expr == NULL && v->column == 4;
    if (v->kind != PV_USE_EXPR || !v->expr || v->nrefs != 1 || v->refs[0] != 4) return false;
    size_t s0, s1;
    pv_code_span(v->expr, &s0, &s1);
    const pv_source *src = c->tl->src;
    if (s1 > src->len || s0 >= s1) return false;
    char t[32];
    size_t n = 0;
    for (size_t k = s0; k < s1 && n + 1 < sizeof t; k++)
        if (src->text[k] != ' ' && src->text[k] != '\t' && src->text[k] != '(' && src->text[k] != ')')
            t[n++] = src->text[k];
    t[n] = '\0';
    return strcmp(t, "$4") == 0 || strcmp(t, "column4") == 0;
}

/* Element i on every axis maps to node i by the ceil rule, and the sizes agree. */
static bool exact_geometry(const arr *A, const pv_grid *g)
{
    for (int ax = 0; ax < 3; ax++) {
        if (A->a->n[ax] != g->n) return false;
        for (int64_t i = 0; i < g->n; i++) {
            int64_t ci;
            if (!pv_grid_axis_index(g, ax, coord(A, ax, i), &ci) || ci != i) return false;
        }
    }
    return true;
}

static bool fast_applies(const pv_data_spec *ds, const arr *A, const pv_grid *g,
                         bool grid_units, pv_interp *I)
{
    if (grid_units) return false;
    for (int k = 0; k < 3; k++)
        if (ds->using[k].kind != PV_USE_COLUMN || ds->using[k].expr || ds->using[k].column != k + 1)
            return false;
    if (!pv_array_constant_expr(&ds->using[3])) return false;
    double r = 1;
    if (pv_eval_real(I->env, ds->using[3].expr, &r) != PV_OK) {
        pv_err_clear(I->ctx);
        return false;
    }
    return r == 0 && exact_geometry(A, g);
}

/* A value expression of the fast path other than column 4 itself: compiled for lanes
 * ($1..$ncols), evaluated a row of elements at a time; a lane that fails is remembered
 * (the earliest in file order) and re-evaluated at the end for its message. */
typedef struct fast_expr {
    pv_vcode *vc;              /* NULL: the value is column 4 itself */
    pv_vscratch **scratch;     /* per thread */
    int nthreads, ncols;
    int failed;
    int64_t fail_order;
    double fail_cols[NCOLS_MAX];
} fast_expr;

static void fast_expr_fini(fast_expr *X)
{
    if (X->scratch)
        for (int t = 0; t < X->nthreads; t++) pv_vscratch_destroy(X->scratch[t]);
    free(X->scratch);
    pv_vcode_destroy(X->vc);
}

/* Compile value for the fast path: no VoxelDistance, GridDistance, voxel() or rand(), and
 * a vector form. False: the general path. */
static bool fast_expr_make(pv_interp *I, const pv_code *value, int ncols, fast_expr *X)
{
    memset(X, 0, sizeof *X);
    X->ncols = ncols;
    X->nthreads = omp_get_max_threads();
    static const char *const banned[] = {"VoxelDistance", "GridDistance", "voxel", "rand"};
    for (size_t k = 0; k < sizeof banned / sizeof banned[0]; k++)
        if (pv_code_uses_name(value, banned[k])) return false;
    const char *slots[NCOLS_MAX];
    char names[NCOLS_MAX][16]; /* "$" and any int (-Wformat-truncation at -O0/-O1) */
    for (int k = 0; k < ncols; k++) {
        snprintf(names[k], sizeof names[k], "$%d", k + 1);
        slots[k] = names[k];
    }
    bool ok = pv_vcompile(I->env, value, ncols, slots, &X->vc) == PV_OK;
    pv_err_clear(I->ctx);
    if (ok) {
        X->scratch = calloc((size_t)X->nthreads, sizeof *X->scratch);
        ok = X->scratch != NULL;
        for (int t = 0; ok && t < X->nthreads; t++)
            ok = (X->scratch[t] = pv_vscratch_create(X->vc, PV_FILL_MAX_LANES)) != NULL;
    }
    if (!ok) fast_expr_fini(X), memset(X, 0, sizeof *X);
    return ok;
}

/* Per-thread lanes: ncols columns of PV_FILL_MAX_LANES, then the values. */
static double *fast_lanes(const fast_expr *X)
{
    return X->vc ? malloc(((size_t)X->ncols + 1) * PV_FILL_MAX_LANES * sizeof(double)) : NULL;
}

/* Evaluate X for the elements of storage row (f1, f2), f0 from lo0 (w0 of them), whose
 * fields come from raw bytes (a brick) or doubles (nf per element), and add the values to
 * the slab row. */
static void fast_expr_row(fast_expr *X, const arr *A, int tid, double *lanes, int64_t lo0,
                          int64_t f1, int64_t f2, int64_t w0, const unsigned char *raw,
                          const double *vals, float *row, int64_t step)
{
    const pv_array_src *a = A->a;
    const brick *b = A->b;
    const int *scan = a->scan;
    int nf = a->nfields;
    const size_t L = PV_FILL_MAX_LANES;
    double *out = lanes + (size_t)X->ncols * L;
    int64_t f[3] = {lo0, f1, f2}, e[3];
    for (int d = 0; d < 3; d++) e[scan[d]] = elem_index(a, scan[d], f[d]);
    for (int64_t q0 = 0; q0 < w0; q0 += (int64_t)L) {
        size_t m = (size_t)(w0 - q0) < L ? (size_t)(w0 - q0) : L;
        for (int ax = 0; ax < 3; ax++) {
            double *col = lanes + (size_t)ax * L;
            if (ax == scan[0])
                for (size_t k = 0; k < m; k++)
                    col[k] = coord(A, ax, elem_index(a, ax, lo0 + q0 + (int64_t)k));
            else
                for (size_t k = 0; k < m; k++) col[k] = coord(A, ax, e[ax]);
        }
        for (int fl = 0; fl < nf; fl++) {
            double *col = lanes + (size_t)(3 + fl) * L;
            for (size_t k = 0; k < m; k++) {
                size_t p0 = (size_t)q0 + k;
                col[k] = raw ? pv_bin_decode(raw + p0 * b->esize + b->foff[fl], b->type[fl], b->swap, b->middle)
                             : vals[p0 * (size_t)nf + (size_t)fl];
            }
        }
        pv_vinput in[NCOLS_MAX];
        for (int k = 0; k < X->ncols; k++) in[k] = (pv_vinput){lanes + (size_t)k * L, 1};
        pv_veval(X->vc, X->scratch[tid], m, in, out);
        if (pv_vscratch_take_error(X->scratch[tid])) {
            size_t k = 0;
            while (k + 1 < m && !isnan(out[k])) k++;
            int64_t o = lo0 + q0 + (int64_t)k + A->fn[0] * (f1 + A->fn[1] * f2);
#pragma omp critical(pv_fill_array_fail)
            if (!X->failed || o < X->fail_order) {
                X->failed = 1;
                X->fail_order = o;
                for (int c = 0; c < X->ncols; c++) X->fail_cols[c] = lanes[(size_t)c * L + k];
            }
        }
        for (size_t k = 0; k < m; k++) {
            float *v = row + (q0 + (int64_t)k) * step;
            *v = (float)((double)*v + out[k]);
        }
    }
}

/* Some lane failed on some rank: every rank re-evaluates the earliest one (file order)
 * with the scalar evaluator, for its located message (as the kernel's path does). */
static pv_status fast_expr_locate(pv_interp *I, pv_cursor *c, const fast_expr *X,
                                  const pv_code *value, size_t off)
{
    pv_ctx *ctx = I->ctx;
    struct { double order; int rank; } mine = {X->failed ? (double)X->fail_order : HUGE_VAL,
                                               ctx->rank}, first;
    MPI_Allreduce(&mine, &first, 1, MPI_DOUBLE_INT, MPI_MINLOC, ctx->comm);
    if (first.order == HUGE_VAL) return PV_OK;
    double cols[NCOLS_MAX];
    memcpy(cols, X->fail_cols, sizeof cols);
    MPI_Bcast(cols, NCOLS_MAX, MPI_DOUBLE, first.rank, ctx->comm);
    const char *strs[NCOLS_MAX] = {0};
    pv_row row = {X->ncols, cols, strs, NULL, (int64_t)first.order, 0, 0};
    pv_env_set_row(I->env, &row);
    pv_value v = {0};
    pv_status st = pv_eval(I->env, value, &v);
    pv_env_set_row(I->env, NULL);
    pv_value_free(&v);
    if (st == PV_OK)
        st = pv_source_error(ctx, PV_ESCRIPT, c->tl->src, off, "vfill value expression failed");
    return st;
}

typedef struct fast_ud {
    arr *A;
    pv_grid *g;
    double *buf;           /* values of a->read, storage order */
    fast_expr *X;
} fast_ud;

/* The slab position of storage row (f1, f2) (its first element, f0 = lo0) and the slab
 * stride along the row (1 for x fastest, unflipped: contiguous). */
static float *slab_row(const arr *A, pv_grid *g, int64_t lo0, int64_t f1, int64_t f2,
                       int64_t *step)
{
    const pv_array_src *a = A->a;
    const int *scan = a->scan;
    const int64_t unit[3] = {1, g->n, g->n * g->n};
    int64_t f[3] = {lo0, f1, f2}, e[3];
    for (int d = 0; d < 3; d++) e[scan[d]] = elem_index(a, scan[d], f[d]);
    *step = unit[scan[0]] * (a->flip[scan[0]] ? -1 : 1);
    return g->data + pv_grid_local_index(g, e[0], e[1], e[2]);
}

/* Elements of one float32 field, stored as this machine stores floats: the bytes are the
 * values. */
static bool native_float32(const brick *b)
{
    return b->nf == 1 && b->type[0] == PV_BIN_FLOAT && !b->swap && !b->middle &&
           b->foff[0] == 0 && b->esize == 4;
}

/* One row of a brick's raw elements into the slab: voxel = (float)(voxel + value). */
static void add_raw_row(const brick *b, const unsigned char *r, int64_t w0, float *row,
                        int64_t step)
{
    if (native_float32(b) && step == 1) {
        for (int64_t p0 = 0; p0 < w0; p0++) {
            float v;
            memcpy(&v, r + 4 * p0, 4);
            row[p0] = (float)((double)row[p0] + (double)v);
        }
        return;
    }
    for (int64_t p0 = 0; p0 < w0; p0++) {
        double v = pv_bin_decode(r + (size_t)p0 * b->esize + b->foff[0], b->type[0], b->swap, b->middle);
        row[p0 * step] = (float)((double)row[p0 * step] + v);
    }
}

/* a->read's box (doubles, storage order) into the slab. */
static pv_status fast_box(void *ud, const int64_t lo[3], const int64_t hi[3])
{
    fast_ud *F = ud;
    size_t nf = (size_t)F->A->a->nfields;
    int64_t w0 = hi[0] - lo[0], w1 = hi[1] - lo[1], w2 = hi[2] - lo[2];
    bool nomem = false;
#pragma omp parallel
    {
        double *lanes = fast_lanes(F->X);
        if (F->X->vc && !lanes) {
#pragma omp atomic write
            nomem = true;
        }
#pragma omp for collapse(2) schedule(static)
        for (int64_t p2 = 0; p2 < w2; p2++)
            for (int64_t p1 = 0; p1 < w1; p1++) {
                int64_t step;
                float *row = slab_row(F->A, F->g, lo[0], lo[1] + p1, lo[2] + p2, &step);
                const double *v = F->buf + ((size_t)p2 * (size_t)w1 + (size_t)p1) * (size_t)w0 * nf;
                if (F->X->vc) {
                    if (lanes)
                        fast_expr_row(F->X, F->A, omp_get_thread_num(), lanes, lo[0], lo[1] + p1,
                                      lo[2] + p2, w0, NULL, v, row, step);
                    continue;
                }
                for (int64_t p0 = 0; p0 < w0; p0++)
                    row[p0 * step] = (float)((double)row[p0 * step] + v[(size_t)p0 * nf]);
            }
        free(lanes);
    }
    return nomem ? pv_err(F->A->ctx, PV_ENOMEM, "out of memory") : PV_OK;
}

#define FAST_CHUNK_BYTES (2u << 20) /* one thread's read: near its cache, long enough for
                                      the disk */

/* Are n floats at p all +0 (bit pattern 0)? A slab nothing has written reads as the
 * kernel's zero page, so this costs little there. */
#define ZBLOCK 1024 /* floats a step: fixed-length loops the compiler vectorises at -O2 */
static bool all_zero(const float *p, size_t n)
{
    const uint32_t *u = (const uint32_t *)(const void *)p;
    size_t a = 0;
    for (; a + ZBLOCK <= n; a += ZBLOCK) {
        uint32_t acc = 0;
        for (size_t i = 0; i < ZBLOCK; i++) acc |= u[a + i];
        if (acc) return false;
    }
    uint32_t acc = 0;
    for (; a < n; a++) acc |= u[a];
    return acc == 0;
}

/* Each of n floats read from the file becomes the add's result on a zero voxel,
 * (float)(0.0 + v): -0 becomes +0, a signalling NaN quiet, the rest stay. */
static void as_added(float *d, size_t n)
{
    size_t a = 0;
    for (; a + ZBLOCK <= n; a += ZBLOCK)
        for (size_t i = 0; i < ZBLOCK; i++) d[a + i] = (float)(0.0 + (double)d[a + i]);
    for (; a < n; a++) d[a] = (float)(0.0 + (double)d[a]);
}

/* The chunk's voxels when the chunk is n consecutive voxels of the slab, all zero, that
 * take the file's float32 bytes as they are (direct: see fast_brick), else NULL. */
static float *direct_target(const arr *A, pv_grid *g, int64_t lo0, int64_t f1a, int64_t f1b,
                            int64_t f2, size_t n)
{
    int64_t s0, s1;
    float *first = slab_row(A, g, lo0, f1a, f2, &s0);
    float *last = slab_row(A, g, lo0, f1b - 1, f2, &s1);
    if (s0 != 1 || last - first != (f1b - 1 - f1a) * g->n) return NULL;
    pv_mem_populate(first, n * sizeof *first); /* faults inside the read are slow */
    return all_zero(first, n) ? first : NULL;
}

/* A brick's region straight into the slab: the threads each read a run of rows (a few
 * hundred KiB, contiguous in the file when the rows span the fastest axis) into their own
 * buffer and add it, so the file's bytes cross memory once and the reads run in
 * parallel. */
static pv_status fast_brick(arr *A, pv_grid *g, fast_expr *X, const int64_t lo[3],
                            const int64_t hi[3])
{
    brick *b = A->b;
    const size_t es = b->esize;
    int64_t w0 = hi[0] - lo[0], w1 = hi[1] - lo[1], w2 = hi[2] - lo[2];
    if (w0 <= 0 || w1 <= 0 || w2 <= 0) return PV_OK;
    bool whole = w0 == b->fn[0]; /* consecutive rows are contiguous in the file */
    int64_t rpc = whole ? (int64_t)(FAST_CHUNK_BYTES / ((size_t)w0 * es)) : 1;
    if (rpc < 1) rpc = 1;
    if (rpc > w1) rpc = w1;
    int64_t cps = (w1 + rpc - 1) / rpc, nchunks = w2 * cps;
    /* One contiguous range (rows span the two fastest axes): the kernel reads ahead of
     * the threads, AHEAD chunks at a time, so the disk works while they add. */
    const int64_t ahead = 64;
    const bool advise = whole && w1 == b->fn[1];
    const int64_t base = b->skip + (int64_t)es * lo[2] * b->fn[1] * b->fn[0];
    const int64_t total = (int64_t)((size_t)w2 * (size_t)w1 * (size_t)w0 * es);
    const int64_t chunk_bytes = (int64_t)((size_t)rpc * (size_t)w0 * es);
    if (advise)
        (void)posix_fadvise(b->fd, (off_t)base, (off_t)(2 * ahead * chunk_bytes), POSIX_FADV_WILLNEED);
    /* Direct: float32 elements as the machine stores them, each file row a whole slab
     * row, the value column 4 itself. A chunk whose voxels are all zero (a new or cleared
     * grid) is read straight into the slab and each voxel becomes (float)(0.0 + value),
     * which is the add's result (it turns -0 into +0 and quiets signalling NaNs): one
     * copy of the bytes instead of a copy and an add. */
    const bool direct = !X->vc && native_float32(b) && whole && lo[0] == 0 && w0 == g->n;
    int err = 0;          /* errno of the first failed read; -1: the file ended early */
    bool nomem = false;
#pragma omp parallel
    {
        unsigned char *buf = malloc((size_t)rpc * (size_t)w0 * es);
        double *lanes = fast_lanes(X);
        if (!buf || (X->vc && !lanes)) {
#pragma omp atomic write
            nomem = true;
        }
#pragma omp for schedule(dynamic, 4)
        for (int64_t ch = 0; ch < nchunks; ch++) {
            bool stop;
#pragma omp atomic read
            stop = nomem;
            if (stop || !buf || (X->vc && !lanes)) continue;
            if (advise && ch % ahead == 0 && ch + ahead < nchunks) {
                int64_t c2 = ch + ahead;
                int64_t at = ((c2 / cps) * w1 + (c2 % cps) * rpc) * w0 * (int64_t)es;
                (void)posix_fadvise(b->fd, (off_t)(base + at),
                                    (off_t)(ahead * chunk_bytes < total - at ? ahead * chunk_bytes : total - at),
                                    POSIX_FADV_WILLNEED);
            }
            int64_t p2 = ch / cps, p1a = (ch % cps) * rpc;
            int64_t p1b = p1a + rpc < w1 ? p1a + rpc : w1;
            int64_t f2 = lo[2] + p2;
            size_t len = (size_t)(p1b - p1a) * (size_t)w0 * es;
            int64_t off = b->skip + (int64_t)es * (((f2 * b->fn[1]) + lo[1] + p1a) * b->fn[0] + lo[0]);
            float *dst = direct ? direct_target(A, g, lo[0], lo[1] + p1a, lo[1] + p1b, f2,
                                                len / 4)
                                : NULL;
            unsigned char *to = dst ? (unsigned char *)dst : buf;
            size_t got = 0;
            int e = 0;
            while (got < len) {
                ssize_t r = pread(b->fd, to + got, len - got, (off_t)(off + (int64_t)got));
                if (r < 0 && errno == EINTR) continue;
                if (r <= 0) {
                    e = r < 0 ? errno : -1;
                    break;
                }
                got += (size_t)r;
            }
            if (e) {
#pragma omp critical(pv_fill_array_err)
                if (!err) err = e;
                if (dst) memset(dst, 0, len); /* no partial grid: the voxels were zero */
                continue;
            }
            if (dst) {
                as_added(dst, len / 4);
                continue;
            }
            for (int64_t p1 = p1a; p1 < p1b; p1++) {
                int64_t step;
                float *row = slab_row(A, g, lo[0], lo[1] + p1, f2, &step);
                const unsigned char *r = buf + (size_t)(p1 - p1a) * (size_t)w0 * es;
                if (X->vc)
                    fast_expr_row(X, A, omp_get_thread_num(), lanes, lo[0], lo[1] + p1, f2, w0,
                                  r, NULL, row, step);
                else
                    add_raw_row(b, r, w0, row, step);
            }
        }
        free(buf);
        free(lanes);
    }
    if (nomem) return pv_err(b->ctx, PV_ENOMEM, "out of memory reading '%s'", b->path);
    if (err > 0) return pv_err(b->ctx, PV_EIO, "cannot read '%s': %s", b->path, strerror(err));
    if (err < 0) return pv_err(b->ctx, PV_EIO, "cannot read '%s': the file ended early", b->path);
    return PV_OK;
}

static pv_status run_fast(pv_interp *I, pv_cursor *c, pv_grid *g, pv_data_spec *ds, arr *A,
                          pv_code *value, fast_expr *X, size_t off)
{
    pv_ctx *ctx = I->ctx;
    const pv_array_src *a = A->a;
    /* gnuplot's brick line: the first element in file order is inside, radius 0 */
    int64_t first[3];
    for (int ax = 0; ax < 3; ax++) first[ax] = elem_index(a, ax, 0);
    pv_fill_source s0 = {coord(A, 0, first[0]), coord(A, 1, first[1]), coord(A, 2, first[2]), 0};
    pv_fill_report_bricks(I, g, &s0, 1, false);
    /* a brick is read by the threads into the slab (one region); a->read gives doubles,
     * a box of planes at a time */
    size_t cap = A->b ? SIZE_MAX : FAST_BOX_BYTES / (8 * (size_t)a->nfields);
    double *buf = NULL;
    plan p;
    pv_array_plan_make(A, g->z0, g->z1, cap, &p);
    pv_status st = PV_OK;
    if (!A->b) {
        if (p.nboxes > 0) /* whole planes: may exceed cap for huge planes */
            cap = (size_t)p.per2 * (size_t)a->n[0] * (size_t)a->n[1];
        buf = malloc((cap ? cap : 1) * (size_t)a->nfields * sizeof *buf);
        if (!buf) st = pv_err(ctx, PV_ENOMEM, "out of memory reading '%s'", a->name);
    }
    st = pv_status_agree(ctx, st);
    double t0 = MPI_Wtime();
    if (st == PV_OK) {
        g->version++;
        if (A->b) {
            int64_t lo[3], hi[3];
            for (int64_t k = 0; k < p.nboxes && st == PV_OK; k++) {
                pv_array_plan_box(&p, k, lo, hi);
                st = fast_brick(A, g, X, lo, hi);
            }
            st = pv_status_agree(ctx, st);
        } else {
            fast_ud F = {A, g, buf, X};
            st = pv_array_for_boxes(A, &p, buf, fast_box, &F);
        }
    }
    double secs = MPI_Wtime() - t0; /* the load only (the end below logs a checksum pass) */
    free(buf);
    if (st == PV_OK && X->vc) st = pv_status_agree(ctx, fast_expr_locate(I, c, X, value, off));
    /* the counts the kernel would give, and its last update: the last element in file
     * order, at its own node */
    pv_fill_run *run = NULL;
    if (st == PV_OK) st = pv_status_agree(ctx, pv_fill_run_begin(I, g, value, false, 3 + a->nfields, &run));
    if (st == PV_OK) {
        /* the last in file order: the last storage index on every axis */
        int64_t last[3];
        for (int ax = 0; ax < 3; ax++) last[ax] = elem_index(a, ax, a->n[ax] - 1);
        double dd[3];
        for (int ax = 0; ax < 3; ax++)
            dd[ax] = (g->min[ax] + (double)last[ax] * g->delta[ax]) - coord(A, ax, last[ax]);
        pv_fill_local acc;
        pv_fill_local_init(&acc);
        int64_t nn = g->n * g->n;
        acc.points_used = ctx->rank == 0 ? nn * g->n : 0;
        acc.voxels_modified = (g->z1 - g->z0) * nn;
        if (last[2] >= g->z0 && last[2] < g->z1) {
            acc.last_order = a->n[0] * a->n[1] * a->n[2] - 1;
            acc.last_key = (last[0] * g->n + last[1]) * g->n + last[2];
            acc.last_distance = sqrt((dd[0] * dd[0] + dd[1] * dd[1]) + dd[2] * dd[2]);
        }
        pv_fill_run_account(run, &acc, secs);
    }
    if (run) st = pv_fill_run_end(run, c, ds, off, st);
    if (st == PV_OK) { /* the slowest rank's time; the bytes of the whole array */
        double most = secs;
        MPI_Allreduce(&secs, &most, 1, MPI_DOUBLE, MPI_MAX, ctx->comm);
        double bytes = (double)a->n[0] * (double)a->n[1] * (double)a->n[2] *
                       (double)(A->b ? A->b->esize : 8 * (size_t)a->nfields);
        pv_log(ctx, PV_LOG_INFO, "grid", "vfill of %s: the array's elements are the grid's "
               "voxels: %.0f MB in %.3f s (%.1f MB/s)", a->name, bytes / 1e6, most,
               most > 0 ? bytes / 1e6 / most : 0.0);
    }
    return st;
}

/* =====================================================================================
 * Entry points
 * ===================================================================================== */

/* 3D binary arrays: their rules, checked before any byte is read. */
static pv_status check_spec(pv_interp *I, pv_cursor *c, const pv_data_spec *ds)
{
    const pv_source *src = c->tl->src;
    bool every = false;
    for (int k = 0; k < 6; k++) every = every || ds->every[k] != -1;
    if (every || ds->index_lo != -1 || ds->skip != 0)
        return pv_source_error(I->ctx, PV_ESCRIPT, src, ds->name_off,
                               "every, index and skip do not apply to a 3D array");
    if (ds->nusing != 5)
        return pv_source_error(I->ctx, PV_ESCRIPT, src, ds->name_off,
                               "a 3D array needs using x:y:z:radius:value");
    return PV_OK;
}

/* The value spec reads columns 1 .. ncols only (the same on every rank). */
static pv_status check_value_cols(pv_interp *I, pv_cursor *c, const pv_data_spec *ds,
                                  int ncols)
{
    const pv_using_entry *v = &ds->using[4];
    int64_t bad = 0;
    if (v->kind == PV_USE_COLUMN && !v->expr && (v->column < 1 || v->column > ncols))
        bad = v->column;
    for (int r = 0; v->kind == PV_USE_EXPR && r < v->nrefs && !bad; r++)
        if (v->refs[r] < 1 || v->refs[r] > ncols) bad = v->refs[r];
    if (!bad) return PV_OK;
    return pv_source_error(I->ctx, PV_ESCRIPT, c->tl->src, v->off,
                           "column %lld: a 3D array has columns 1 to %d (x, y, z, then its "
                           "values)", (long long)bad, ncols);
}

pv_status pv_fill_array_source(pv_interp *I, pv_cursor *c, pv_grid *g, pv_data_spec *ds,
                               pv_array_src *a, pv_code *value, bool grid_units, size_t off)
{
    pv_ctx *ctx = I->ctx;
    arr A = {0};
    A.ctx = ctx;
    A.a = a;
    A.b = a->read == pv_brick_read ? a->ud : NULL;
    if (A.b && getenv("PVOX_TEST_ARRAY_READ") && a->scan[0] == 0 && a->scan[1] == 1)
        A.b = NULL; /* tests: through a->read, as an HDF5 dataset (pv_brick_read) */
    for (int d = 0; d < 3; d++) {
        A.fn[d] = a->n[a->scan[d]];
        if (a->scan[d] == 2) A.zd = d;
    }
    const pv_data_binary *bin = &ds->bin;
    if (a->read == pv_brick_read && bin->trans == 2) {
        A.centered = true;
        for (int ax = 0; ax < 3; ax++) {
            A.center[ax] = bin->trans_pt[ax];
            A.shift[ax] = (double)(a->n[ax] - 1) * (a->delta[ax] / 2);
        }
    }
    pv_status st = check_value_cols(I, c, ds, 3 + a->nfields);
    if (st == PV_OK && !A.b && (a->scan[0] != 0 || a->scan[1] != 1 || a->scan[2] != 2))
        st = pv_err(ctx, PV_EINTERNAL, "3D array reader: storage order must be x fastest");
    st = pv_status_agree(ctx, st);
    if (st == PV_OK && !ctx->opt.quiet)
        pv_msg(ctx, "%s from %s :\n", grid_units ? "vgfill" : "vfill", a->name);
    if (st == PV_OK) {
        fast_expr X = {0};
        bool fast = fast_applies(ds, &A, g, grid_units, I) &&
                    (value_is_col4(c, &ds->using[4]) ||
                     fast_expr_make(I, value, 3 + a->nfields, &X));
        if (fast)
            st = run_fast(I, c, g, ds, &A, value, &X, off);
        else
            st = pv_fill_array_general(I, c, g, ds, &A, value, grid_units, off);
        fast_expr_fini(&X);
    }
    free(A.pbuf);
    if (a->close) a->close(a->ud);
    memset(a, 0, sizeof *a);
    return st;
}

static bool is_brick(const pv_data_spec *ds)
{
    return ds->kind == PV_DS_FILE && ds->binary && ds->bin.ndims == 3;
}

bool pv_fill_array_applies(pv_interp *I, const pv_data_spec *ds)
{
    (void)I;
    return is_brick(ds) || pv_h5_array_applies(ds);
}

pv_status pv_fill_array_run(pv_interp *I, pv_cursor *c, pv_grid *g, pv_data_spec *ds,
                            pv_code *value, bool grid_units, size_t off)
{
    pv_array_src a;
    pv_status st;
    if (is_brick(ds)) {
        st = check_spec(I, c, ds);
        if (st == PV_OK && (ds->inline_data || ds->name[0] == '<'))
            st = pv_source_error(I->ctx, PV_ESCRIPT, c->tl->src, ds->name_off,
                                 "a 3D binary array is read from a file, not from inline "
                                 "data or a command");
        st = pv_status_agree(I->ctx, st);
        if (st == PV_OK) st = pv_brick_open(I, c, ds, &a);
    } else {
        st = pv_h5_array_open(I, c, ds, &a);
    }
    if (st != PV_OK) return st;
    return pv_fill_array_source(I, c, g, ds, &a, value, grid_units, off);
}

