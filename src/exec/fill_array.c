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
 */
#include "fill_array.h"
#include "fillrun.h"

#include "pvox/datafile.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define FAST_BOX_BYTES (48u << 20) /* raw + decoded bytes of one fast-path box */
#define GEN_BOX_ELEMS (1u << 17)   /* elements of one general-path box (~100 B each) */
#define NCOLS_MAX PV_USING_MAX

/* =====================================================================================
 * Element types
 * ===================================================================================== */

static size_t type_size(pv_bin_type t)
{
    static const size_t sz[] = {1, 1, 2, 2, 4, 4, 8, 8, 8, 8, 4, 8};
    return sz[t];
}

static const char *type_name(pv_bin_type t)
{
    static const char *const nm[] = {"int8", "uint8", "int16", "uint16", "int32", "uint32",
                                     "int64", "uint64", "int64", "uint64", "float32",
                                     "float64"};
    return nm[t];
}

/* One value: n bytes in the file's order -> host order (`middle`: the bytes of each
 * 16-bit half swapped, as datafile_matrix.c reads pdp order) -> double. */
static inline double decode1(const unsigned char *p, pv_bin_type t, bool swap, bool middle)
{
    unsigned char b[8];
    size_t n = type_size(t);
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

/* n elements of esize bytes at raw -> nf doubles each (OpenMP). The common case, one
 * host-order float, gets its own loop. */
static void decode_elems(const unsigned char *raw, size_t n, size_t esize, int nf,
                         const pv_bin_type *type, const size_t *foff, bool swap, bool middle,
                         double *out)
{
    if (nf == 1 && type[0] == PV_BIN_FLOAT && !swap && !middle && esize == 4 && foff[0] == 0) {
#pragma omp parallel for schedule(static)
        for (size_t e = 0; e < n; e++) {
            float v;
            memcpy(&v, raw + 4 * e, 4);
            out[e] = (double)v;
        }
        return;
    }
#pragma omp parallel for schedule(static)
    for (size_t e = 0; e < n; e++)
        for (int f = 0; f < nf; f++)
            out[e * (size_t)nf + (size_t)f] = decode1(raw + e * esize + foff[f], type[f], swap, middle);
}

/* =====================================================================================
 * The binary brick reader
 * ===================================================================================== */

typedef struct brick {
    pv_ctx *ctx;
    int fd;
    char *path;
    int64_t fn[3];          /* sizes along the storage axes (fn[0] fastest) */
    size_t esize;           /* bytes of one element */
    int nf;
    pv_bin_type type[PV_BIN_FIELDS_MAX];
    size_t foff[PV_BIN_FIELDS_MAX]; /* byte offset of field f in an element */
    bool swap, middle;
    int64_t skip;
    unsigned char *raw;     /* one box's bytes (plain malloc: a read buffer, bounded) */
    size_t rawcap;
    /* for brick_read (the pv_array_src interface): the element layout */
    int64_t n[3];
    int scan[3];
    bool flip[3];
    double *tmp;            /* a box in storage order, before its permutation */
    size_t tmpcap;
} brick;

static void brick_close(void *ud)
{
    brick *b = ud;
    if (!b) return;
    if (b->fd >= 0) close(b->fd);
    free(b->path);
    free(b->raw);
    free(b->tmp);
    free(b);
}

/* Read n bytes at off, all of them. */
static pv_status read_at(brick *b, unsigned char *dst, size_t n, int64_t off)
{
    while (n > 0) {
        size_t want = n > ((size_t)1 << 30) ? (size_t)1 << 30 : n;
        ssize_t got = pread(b->fd, dst, want, (off_t)off);
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) return pv_err(b->ctx, PV_EIO, "cannot read '%s': %s", b->path, strerror(errno));
        if (got == 0)
            return pv_err(b->ctx, PV_EIO, "cannot read '%s': the file ended early", b->path);
        dst += got, n -= (size_t)got, off += got;
    }
    return PV_OK;
}

/* The box lo..hi (storage axes) -> nf doubles per element in storage order. One pread
 * per contiguous run: the whole box when it spans the two fastest axes, a run per slice
 * when it spans the fastest one, a run per row otherwise. */
static pv_status brick_box(brick *b, const int64_t lo[3], const int64_t hi[3], double *out)
{
    int64_t w[3] = {hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]};
    size_t n = (size_t)w[0] * (size_t)w[1] * (size_t)w[2];
    if (n == 0) return PV_OK;
    size_t bytes = n * b->esize;
    if (bytes > b->rawcap) {
        unsigned char *p = realloc(b->raw, bytes);
        if (!p) return pv_err(b->ctx, PV_ENOMEM, "out of memory reading '%s'", b->path);
        b->raw = p, b->rawcap = bytes;
    }
    const size_t es = b->esize;
    pv_status st = PV_OK;
    if (w[0] == b->fn[0] && w[1] == b->fn[1]) {
        st = read_at(b, b->raw, bytes, b->skip + (int64_t)es * (lo[2] * b->fn[1] * b->fn[0]));
    } else if (w[0] == b->fn[0]) {
        size_t run = (size_t)w[1] * (size_t)w[0] * es;
        for (int64_t p2 = 0; p2 < w[2] && st == PV_OK; p2++)
            st = read_at(b, b->raw + (size_t)p2 * run, run,
                         b->skip + (int64_t)es * (((lo[2] + p2) * b->fn[1] + lo[1]) * b->fn[0]));
    } else {
        size_t run = (size_t)w[0] * es;
        for (int64_t p2 = 0; p2 < w[2] && st == PV_OK; p2++)
            for (int64_t p1 = 0; p1 < w[1] && st == PV_OK; p1++)
                st = read_at(b, b->raw + ((size_t)p2 * (size_t)w[1] + (size_t)p1) * run, run,
                             b->skip + (int64_t)es * (((lo[2] + p2) * b->fn[1] + lo[1] + p1) *
                                                          b->fn[0] + lo[0]));
    }
    if (st != PV_OK) return st;
    if (out) decode_elems(b->raw, n, es, b->nf, b->type, b->foff, b->swap, b->middle, out);
    return PV_OK;
}

/* pv_array_src.read for a brick: planes [k0, k1) in element order (x fastest). */
static pv_status brick_read(void *ud, int64_t k0, int64_t k1, double *out);

/* The storage axes of a `binary` spec: scan[d] is the axis of storage dimension d. */
static void scan_axes(const pv_data_binary *bin, int scan[3])
{
    scan[0] = 0, scan[1] = 1, scan[2] = 2;
    if (bin->scan[0])
        for (int d = 0; d < 3; d++)
            scan[d] = bin->scan[d] - 'x';
}

/* Open ds's brick on every rank and check its size; located, agreed errors. */
static pv_status brick_open(pv_interp *I, pv_cursor *c, const pv_data_spec *ds,
                            pv_array_src *a)
{
    pv_ctx *ctx = I->ctx;
    const pv_data_binary *bin = &ds->bin;
    const pv_source *src = c->tl->src;
    memset(a, 0, sizeof *a);
    brick *b = calloc(1, sizeof *b);
    pv_status st = b ? PV_OK : pv_err(ctx, PV_ENOMEM, "out of memory");
    if (st == PV_OK) {
        b->ctx = ctx;
        b->fd = -1;
        b->path = strdup(ds->name);
        if (!b->path) st = pv_err(ctx, PV_ENOMEM, "out of memory");
    }
    /* the fields of one element */
    if (st == PV_OK) {
        const char *ft = bin->filetype;
        if (ft[0] && strcmp(ft, "raw") && strcmp(ft, "bin") && strcmp(ft, "auto"))
            st = pv_source_error(ctx, PV_ESCRIPT, src, ds->name_off,
                                 "binary filetype=%s is not supported by pvox", ft);
        b->nf = bin->nfields ? bin->nfields : 1;
        if (st == PV_OK && 3 + b->nf > NCOLS_MAX)
            st = pv_source_error(ctx, PV_ESCRIPT, src, ds->name_off,
                                 "a 3D array takes at most %d fields per element", NCOLS_MAX - 3);
    }
    if (st == PV_OK) {
        size_t off = 0;
        for (int f = 0; f < b->nf; f++) {
            b->type[f] = bin->nfields ? (pv_bin_type)bin->type[f] : PV_BIN_FLOAT;
            off += bin->nfields ? (size_t)bin->skip_before[f] : 0;
            b->foff[f] = off;
            off += type_size(b->type[f]);
        }
        b->esize = off + (bin->nfields ? (size_t)bin->skip_before[bin->nfields] : 0);
        const uint16_t probe = 1;
        bool host_little = *(const unsigned char *)&probe == 1;
        pv_bin_endian e = bin->endian;
        b->swap = e == PV_ENDIAN_SWAP || (e == PV_ENDIAN_LITTLE && !host_little) ||
                  (e == PV_ENDIAN_BIG && host_little);
        b->middle = e == PV_ENDIAN_MIDDLE;
        b->skip = bin->skip;
        scan_axes(bin, a->scan);
        for (int d = 0; d < 3; d++) b->fn[d] = bin->dim[a->scan[d]];
    }
    /* open and stat on every rank (the file must be visible to all of them) */
    struct stat sb;
    if (st == PV_OK) {
        b->fd = open(b->path, O_RDONLY | O_CLOEXEC);
        if (b->fd < 0 || fstat(b->fd, &sb) != 0)
            st = pv_source_error(ctx, PV_EIO, src, ds->name_off, "cannot open '%s': %s",
                                 b->path, strerror(errno));
        else if (!S_ISREG(sb.st_mode))
            st = pv_source_error(ctx, PV_EIO, src, ds->name_off,
                                 "'%s' is not a regular file: a 3D binary array is read "
                                 "with random access", b->path);
    }
    if (st == PV_OK) {
        /* elements x size, with overflow checks */
        double need_d = (double)bin->skip +
                        (double)bin->dim[0] * (double)bin->dim[1] * (double)bin->dim[2] *
                            (double)b->esize;
        int64_t need = need_d < 9e18 ? bin->skip + bin->dim[0] * bin->dim[1] * bin->dim[2] *
                                                       (int64_t)b->esize
                                     : INT64_MAX;
        if ((int64_t)sb.st_size != need) {
            char what[64];
            if (b->nf == 1)
                snprintf(what, sizeof what, "%s (%zu bytes each)", type_name(b->type[0]), b->esize);
            else
                snprintf(what, sizeof what, "%d fields (%zu bytes each)", b->nf, b->esize);
            st = pv_source_error(ctx, PV_EIO, src, ds->name_off,
                                 "'%s' holds %lld bytes, but array=%lldx%lldx%lld of %s%s%lld "
                                 "needs %lld: %s", b->path, (long long)sb.st_size,
                                 (long long)bin->dim[0], (long long)bin->dim[1],
                                 (long long)bin->dim[2], what, " after skip=",
                                 (long long)bin->skip, (long long)need,
                                 (int64_t)sb.st_size < need ? "the file is truncated or the "
                                 "array is larger than the file" : "the array is smaller than "
                                 "the file (check array=, format= and skip=)");
        }
    }
    st = pv_status_agree(ctx, st);
    if (st != PV_OK) {
        brick_close(b);
        return st;
    }
    for (int k = 0; k < 3; k++) {
        b->n[k] = bin->dim[k], b->scan[k] = a->scan[k], b->flip[k] = bin->flip[k];
        a->n[k] = bin->dim[k];
        a->delta[k] = bin->delta[k] > 0 ? bin->delta[k] : 1.0;
        a->flip[k] = bin->flip[k];
        a->origin[k] = bin->trans == 1 ? bin->trans_pt[k] : 0.0;
    }
    a->nfields = b->nf;
    a->name = b->path;
    a->ud = b;
    a->read = brick_read;
    a->close = brick_close;
    return PV_OK;
}

/* =====================================================================================
 * Boxes: the parts of the array a rank reads, in storage order
 * ===================================================================================== */

typedef struct arr {
    pv_ctx *ctx;
    pv_array_src *a;
    brick *b;              /* a binary brick: any box; NULL: a->read, whole planes */
    int64_t fn[3];         /* sizes along the storage axes */
    int zd;                /* the storage axis that is z */
    double center[3];      /* center= of a brick: coordinates are (i*d - shift) + center */
    double shift[3];
    bool centered;
    double *pbuf;          /* planes from a->read (element order), for a permutation */
    size_t pcap;
} arr;

/* A plan of boxes: ranges per storage axis, boxes along the slowest axes. */
typedef struct plan {
    int64_t lo[3], hi[3];  /* the region */
    int64_t per2;          /* slices of the slowest axis per box (>= 1) */
    int64_t per1;          /* rows per box when a box is one slice (0: whole slices) */
    int64_t nboxes;
} plan;

static void plan_make(const arr *A, int64_t zlo, int64_t zhi, size_t max_elems, plan *p)
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

static void plan_box(const plan *p, int64_t k, int64_t lo[3], int64_t hi[3])
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

/* Element index on axis `ax` of storage index f. */
static inline int64_t elem_index(const pv_array_src *a, int ax, int64_t f)
{
    return a->flip[ax] ? a->n[ax] - 1 - f : f;
}

static inline double coord(const arr *A, int ax, int64_t i)
{
    double d = A->a->delta[ax];
    if (A->centered) return ((double)i * d - A->shift[ax]) + A->center[ax];
    return A->a->origin[ax] + (double)i * d;
}

/* Read a box (storage axes) into out, nf doubles per element in storage order. Through
 * a->read every rank must call this the same number of times: a rank with nothing left
 * passes an empty box (lo == hi). */
static pv_status fetch(arr *A, const int64_t lo[3], const int64_t hi[3], double *out)
{
    if (A->b) return brick_box(A->b, lo, hi, out);
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

/* pv_array_src.read of a brick: planes [k0, k1) in element order, whatever its storage
 * order. The fill reads bricks box by box through fetch() instead; this one serves
 * PVOX_TEST_ARRAY_READ=1, which sends bricks stored x fastest through the reader
 * interface (the path of HDF5 datasets), so the tests cover that path without HDF5. */
static pv_status brick_read(void *ud, int64_t k0, int64_t k1, double *out)
{
    brick *b = ud;
    if (k1 <= k0) return PV_OK;
    int64_t lo[3], hi[3];
    int zd = 0;
    for (int d = 0; d < 3; d++) {
        lo[d] = 0, hi[d] = b->fn[d];
        if (b->scan[d] == 2) zd = d;
    }
    lo[zd] = b->flip[2] ? b->n[2] - k1 : k0;
    hi[zd] = b->flip[2] ? b->n[2] - k0 : k1;
    size_t nf = (size_t)b->nf, n = (size_t)b->n[0] * (size_t)b->n[1] * (size_t)(k1 - k0);
    if (n * nf > b->tmpcap) {
        double *p = realloc(b->tmp, n * nf * sizeof *p);
        if (!p) return pv_err(b->ctx, PV_ENOMEM, "out of memory reading '%s'", b->path);
        b->tmp = p, b->tmpcap = n * nf;
    }
    pv_status st = brick_box(b, lo, hi, b->tmp);
    if (st != PV_OK) return st;
    size_t w0 = (size_t)(hi[0] - lo[0]), w1 = (size_t)(hi[1] - lo[1]);
#pragma omp parallel for schedule(static)
    for (size_t q = 0; q < n; q++) {
        int64_t f[3] = {lo[0] + (int64_t)(q % w0), lo[1] + (int64_t)(q / w0 % w1),
                        lo[2] + (int64_t)(q / w0 / w1)}, e[3];
        for (int d = 0; d < 3; d++) {
            int ax = b->scan[d];
            e[ax] = b->flip[ax] ? b->n[ax] - 1 - f[d] : f[d];
        }
        size_t o = ((size_t)(e[2] - k0) * (size_t)b->n[1] + (size_t)e[1]) * (size_t)b->n[0] + (size_t)e[0];
        memcpy(out + o * nf, b->tmp + q * nf, nf * sizeof *out);
    }
    return PV_OK;
}

/* =====================================================================================
 * The using specs of the general path
 * ===================================================================================== */

typedef struct spec {
    int col;                  /* >= 1: a bare column; 0: an expression */
    const pv_code *code;
    pv_vcode *vc;             /* vector form, NULL: scalar evaluation */
    pv_vscratch **scratch;    /* per thread */
    size_t off;               /* for messages */
} spec;

typedef struct specs {
    spec s[4];                /* x, y, z, radius */
    int ncols;                /* 3 + fields */
    int nthreads;
    bool zcol;                /* z is column 3 */
    bool const_r;             /* the radius is a constant ... */
    double r;                 /* ... this one */
} specs;

static void specs_fini(specs *S)
{
    for (int k = 0; k < 4; k++) {
        spec *s = &S->s[k];
        if (s->scratch)
            for (int t = 0; t < S->nthreads; t++) pv_vscratch_destroy(s->scratch[t]);
        free(s->scratch);
        pv_vcode_destroy(s->vc);
    }
}

/* An expression that gives the same value for every element: no columns, no rand(). */
static bool constant_expr(const pv_using_entry *e)
{
    return e->kind == PV_USE_EXPR && e->expr && e->nrefs == 0 && e->last_dollar == 0 &&
           e->vector_ok && !pv_code_uses_name(e->expr, "rand") &&
           !pv_code_uses_name(e->expr, "voxel");
}

static pv_status specs_make(pv_interp *I, pv_cursor *c, const pv_data_spec *ds, int ncols,
                            specs *S)
{
    pv_ctx *ctx = I->ctx;
    const pv_source *src = c->tl->src;
    memset(S, 0, sizeof *S);
    S->ncols = ncols;
    S->nthreads = omp_get_max_threads();
    const char *slots[NCOLS_MAX];
    char names[NCOLS_MAX][16]; /* "$" and any int (-Wformat-truncation at -O0/-O1) */
    for (int k = 0; k < ncols; k++) {
        snprintf(names[k], sizeof names[k], "$%d", k + 1);
        slots[k] = names[k];
    }
    for (int k = 0; k < 4; k++) {
        const pv_using_entry *e = &ds->using[k];
        spec *s = &S->s[k];
        s->off = e->off;
        if (e->kind == PV_USE_HEADER)
            return pv_source_error(ctx, PV_ESCRIPT, src, e->off,
                                   "a 3D array has no column headers");
        if (e->kind == PV_USE_COLUMN) {
            int64_t col = e->column;
            if (e->expr) {
                pv_status st = pv_eval_int(I->env, e->expr, &col);
                if (st != PV_OK) return st;
            }
            if (col < 1 || col > ncols)
                return pv_source_error(ctx, PV_ESCRIPT, src, e->off,
                                       "column %lld: a 3D array has columns 1 to %d (x, y, z, "
                                       "then its values)", (long long)col, ncols);
            s->col = (int)col;
            continue;
        }
        for (int r = 0; r < e->nrefs; r++)
            if (e->refs[r] < 1 || e->refs[r] > ncols)
                return pv_source_error(ctx, PV_ESCRIPT, src, e->off,
                                       "column %lld: a 3D array has columns 1 to %d (x, y, z, "
                                       "then its values)", (long long)e->refs[r], ncols);
        s->code = e->expr;
        if (pv_vcompile(I->env, e->expr, ncols, slots, &s->vc) == PV_OK) {
            s->scratch = calloc((size_t)S->nthreads, sizeof *s->scratch);
            bool ok = s->scratch != NULL;
            for (int t = 0; ok && t < S->nthreads; t++)
                ok = (s->scratch[t] = pv_vscratch_create(s->vc, PV_FILL_MAX_LANES)) != NULL;
            if (!ok) return pv_err(ctx, PV_ENOMEM, "out of memory");
        }
        pv_err_clear(ctx); /* no vector form: the scalar VM runs */
    }
    S->zcol = S->s[2].col == 3;
    S->const_r = constant_expr(&ds->using[3]);
    if (S->const_r) {
        pv_status st = pv_eval_real(I->env, ds->using[3].expr, &S->r);
        if (st != PV_OK) return st;
    }
    return PV_OK;
}

/* Scalar evaluation of one spec for element e (cols: SoA, column k at cols[k*n + e]). */
static pv_status eval_scalar(pv_interp *I, const spec *s, const double *cols, int ncols,
                             size_t n, size_t e, double *out)
{
    double row_v[NCOLS_MAX];
    for (int k = 0; k < ncols; k++) row_v[k] = cols[(size_t)k * n + e];
    const char *strs[NCOLS_MAX] = {0};
    pv_row row = {ncols, row_v, strs, NULL, (int64_t)e, 0, 0};
    pv_env_set_row(I->env, &row);
    pv_value v = {0};
    pv_status st = pv_eval(I->env, s->code, &v);
    pv_env_set_row(I->env, NULL);
    if (st == PV_OK)
        *out = (v.type == PV_V_INT || v.type == PV_V_CMPLX) ? pv_value_real(&v) : (double)NAN;
    pv_value_free(&v);
    return st;
}

/* Evaluate spec s over n elements (SoA columns) into out[n]. */
static pv_status eval_spec(pv_interp *I, pv_cursor *c, const specs *S, const spec *s,
                           const double *cols, size_t n, double *out)
{
    if (s->col > 0) {
        memcpy(out, cols + (size_t)(s->col - 1) * n, n * sizeof *out);
        return PV_OK;
    }
    pv_status st = PV_OK;
    if (s->vc) {
        size_t nchunks = (n + PV_FILL_MAX_LANES - 1) / PV_FILL_MAX_LANES, bad = SIZE_MAX;
#pragma omp parallel for schedule(dynamic)
        for (size_t ch = 0; ch < nchunks; ch++) {
            int tid = omp_get_thread_num();
            size_t e0 = ch * PV_FILL_MAX_LANES;
            size_t m = n - e0 < PV_FILL_MAX_LANES ? n - e0 : PV_FILL_MAX_LANES;
            pv_vinput in[NCOLS_MAX];
            for (int k = 0; k < S->ncols; k++) in[k] = (pv_vinput){cols + (size_t)k * n + e0, 1};
            pv_veval(s->vc, s->scratch[tid], m, in, out + e0);
            if (pv_vscratch_take_error(s->scratch[tid])) {
                size_t k = 0;
                while (k + 1 < m && !isnan(out[e0 + k])) k++;
#pragma omp critical(pv_fill_array_bad)
                if (e0 + k < bad) bad = e0 + k;
            }
        }
        if (bad != SIZE_MAX) { /* the scalar VM gives the message */
            double v;
            st = eval_scalar(I, s, cols, S->ncols, n, bad, &v);
        }
    } else {
        for (size_t e = 0; e < n && st == PV_OK; e++)
            st = eval_scalar(I, s, cols, S->ncols, n, e, &out[e]);
    }
    if (st != PV_OK) {
        const pv_source *src = c->tl->src;
        pv_err_locate(I->ctx, src->name, src->text, src->len, src->first_line, s->off);
    }
    return st;
}

/* =====================================================================================
 * The general path
 * ===================================================================================== */

typedef struct gen {
    pv_interp *I;
    pv_cursor *c;
    pv_grid *g;
    arr *A;
    specs *S;
    bool grid_units;
    size_t cap;               /* elements of one box */
    double *vals;             /* nf per element, storage order */
    double *cols;             /* SoA: ncols x cap */
    double *sv;               /* x, y, z, r: 4 x cap */
    pv_fill_source *src;      /* accepted sources */
    double *scols;            /* their columns, ncols each */
    int64_t *order;
    unsigned char *counted;
    size_t nsrc;
} gen;

static void gen_fini(gen *G)
{
    free(G->vals);
    free(G->cols);
    free(G->sv);
    free(G->src);
    free(G->scols);
    free(G->order);
    free(G->counted);
}

static pv_status gen_alloc(gen *G)
{
    size_t n = G->cap, nc = (size_t)G->S->ncols, nf = (size_t)G->A->a->nfields;
    G->vals = malloc(n * nf * sizeof *G->vals);
    G->cols = malloc(n * nc * sizeof *G->cols);
    G->sv = malloc(n * 4 * sizeof *G->sv);
    G->src = malloc(n * sizeof *G->src);
    G->scols = malloc(n * nc * sizeof *G->scols);
    G->order = malloc(n * sizeof *G->order);
    G->counted = malloc(n);
    if (!G->vals || !G->cols || !G->sv || !G->src || !G->scols || !G->order || !G->counted)
        return pv_err(G->I->ctx, PV_ENOMEM, "out of memory reading a 3D array");
    return PV_OK;
}

/* The sources of a box already fetched into G->vals, in storage order. keep_all: every
 * source with defined values (the brick report); else only those whose brick can meet
 * this rank's slab or that this rank counts. */
static pv_status gen_sources(gen *G, const int64_t lo[3], const int64_t hi[3], bool keep_all)
{
    const arr *A = G->A;
    const pv_array_src *a = A->a;
    const pv_grid *g = G->g;
    size_t w0 = (size_t)(hi[0] - lo[0]), w1 = (size_t)(hi[1] - lo[1]);
    size_t n = w0 * w1 * (size_t)(hi[2] - lo[2]);
    int nf = a->nfields, nc = G->S->ncols;
    const int *scan = a->scan;
    /* columns: the element's coordinates, then its values */
#pragma omp parallel for schedule(static)
    for (size_t e = 0; e < n; e++) {
        int64_t f[3] = {lo[0] + (int64_t)(e % w0), lo[1] + (int64_t)(e / w0 % w1),
                        lo[2] + (int64_t)(e / w0 / w1)};
        for (int d = 0; d < 3; d++) {
            int ax = scan[d];
            G->cols[(size_t)ax * n + e] = coord(A, ax, elem_index(a, ax, f[d]));
        }
        for (int k = 0; k < nf; k++) G->cols[(size_t)(3 + k) * n + e] = G->vals[e * (size_t)nf + (size_t)k];
    }
    for (int k = 0; k < 4; k++) {
        pv_status st = eval_spec(G->I, G->c, G->S, &G->S->s[k], G->cols, n, G->sv + (size_t)k * n);
        if (st != PV_OK) return st;
    }
    int P = G->I->ctx->nranks, me = G->I->ctx->rank;
    size_t m = 0;
    for (size_t e = 0; e < n; e++) {
        double x = G->sv[e], y = G->sv[n + e], z = G->sv[2 * n + e], r = G->sv[3 * n + e];
        if (isnan(x) || isnan(y) || isnan(z) || isnan(r)) continue; /* as the rows path */
        bool counted = false;
        if (!keep_all) {
            int64_t ci[3];
            if (!pv_grid_index(g, x, y, z, ci)) continue; /* the kernel would skip it */
            double hw = G->grid_units ? floor(r) : floor(r / g->delta[2]);
            bool meets = hw >= 0 && (double)ci[2] + hw >= (double)g->z0 &&
                         (double)ci[2] - hw < (double)g->z1;
            counted = pv_decomp_owner(g->n, P, ci[2]) == me;
            if (!meets && !counted) continue;
        }
        int64_t f[3] = {lo[0] + (int64_t)(e % w0), lo[1] + (int64_t)(e / w0 % w1),
                        lo[2] + (int64_t)(e / w0 / w1)};
        G->src[m] = (pv_fill_source){x, y, z, r};
        for (int k = 0; k < nc; k++) G->scols[m * (size_t)nc + (size_t)k] = G->cols[(size_t)k * n + e];
        G->order[m] = f[0] + A->fn[0] * (f[1] + A->fn[1] * f[2]);
        G->counted[m] = counted;
        m++;
    }
    G->nsrc = m;
    return PV_OK;
}

/* Feed the accepted sources to the session: runs of counted / not counted sources. */
static pv_status gen_feed(gen *G, pv_fill_run *run)
{
    size_t nc = (size_t)G->S->ncols;
    for (size_t s = 0; s < G->nsrc;) {
        size_t t = s + 1;
        while (t < G->nsrc && G->counted[t] == G->counted[s]) t++;
        pv_status st = pv_fill_run_piece(run, G->src + s, G->scols + s * nc, t - s,
                                         G->order + s, 0, G->counted[s] ? 0u : PV_FILL_NO_COUNT);
        if (st != PV_OK) return st;
        s = t;
    }
    return PV_OK;
}

/* The element z range whose sources can reach this rank's slab (or that it counts):
 * known when z is column 3 and the radius a constant; else every plane. */
static void gen_window(const gen *G, int64_t *k0, int64_t *k1)
{
    const pv_array_src *a = G->A->a;
    const pv_grid *g = G->g;
    *k0 = 0, *k1 = a->n[2];
    if (!G->S->zcol || !G->S->const_r || isnan(G->S->r)) return;
    double r = G->S->r;
    double hw = G->grid_units ? floor(r) : floor(r / g->delta[2]);
    if (!(hw >= 0)) hw = 0; /* empty bricks: only the counting rank needs them */
    int64_t first = -1, last = -2;
    for (int64_t k = 0; k < a->n[2]; k++) {
        int64_t cz;
        if (!pv_grid_axis_index(g, 2, coord(G->A, 2, k), &cz)) continue;
        if ((double)cz + hw >= (double)g->z0 && (double)cz - hw < (double)g->z1) {
            if (first < 0) first = k;
            last = k;
        }
    }
    *k0 = first < 0 ? 0 : first;
    *k1 = first < 0 ? 0 : last + 1;
}

/* Collective loop over a plan's boxes. Through a->read every rank makes the same number
 * of steps (the most boxes any rank has, reading empty boxes when it has no more),
 * agreeing the status at each; a brick is read with pread, so each rank reads its own
 * boxes and the status is agreed at the end. */
typedef pv_status (*box_fn)(void *ud, const int64_t lo[3], const int64_t hi[3]);

static pv_status for_boxes(arr *A, const plan *p, double *buf, box_fn fn, void *ud)
{
    pv_ctx *ctx = A->ctx;
    pv_status st = PV_OK;
    if (A->b) {
        for (int64_t k = 0; k < p->nboxes && st == PV_OK; k++) {
            int64_t lo[3], hi[3];
            plan_box(p, k, lo, hi);
            st = fetch(A, lo, hi, buf);
            if (st == PV_OK) st = fn(ud, lo, hi);
        }
        return pv_status_agree(ctx, st);
    }
    int64_t steps = p->nboxes;
    MPI_Allreduce(&p->nboxes, &steps, 1, MPI_INT64_T, MPI_MAX, ctx->comm);
    for (int64_t k = 0; k < steps && st == PV_OK; k++) {
        int64_t lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
        if (k < p->nboxes) plan_box(p, k, lo, hi);
        st = fetch(A, lo, hi, buf);
        if (st == PV_OK && k < p->nboxes) st = fn(ud, lo, hi);
        st = pv_status_agree(ctx, st); /* a failure ends the loop on every rank at once */
    }
    return st;
}

typedef struct report_ud {
    gen *G;
    bool done;
} report_ud;

static pv_status report_box(void *ud, const int64_t lo[3], const int64_t hi[3])
{
    report_ud *R = ud;
    if (R->done) return PV_OK;
    pv_status st = gen_sources(R->G, lo, hi, true);
    if (st == PV_OK)
        R->done = pv_fill_report_bricks(R->G->I, R->G->g, R->G->src, R->G->nsrc, R->G->grid_units);
    return st;
}

typedef struct fill_ud {
    gen *G;
    pv_fill_run *run;
} fill_ud;

static pv_status fill_box(void *ud, const int64_t lo[3], const int64_t hi[3])
{
    fill_ud *F = ud;
    pv_status st = gen_sources(F->G, lo, hi, false);
    return st == PV_OK ? gen_feed(F->G, F->run) : st;
}

static pv_status run_general(pv_interp *I, pv_cursor *c, pv_grid *g, pv_data_spec *ds,
                             arr *A, pv_code *value, bool grid_units, size_t off)
{
    pv_ctx *ctx = I->ctx;
    specs S;
    gen G = {0};
    G.I = I, G.c = c, G.g = g, G.A = A, G.S = &S, G.grid_units = grid_units, G.cap = GEN_BOX_ELEMS;
    size_t plane = (size_t)A->a->n[0] * (size_t)A->a->n[1];
    if (!A->b && plane > G.cap) G.cap = plane; /* a->read gives whole planes */
    int ncols = 3 + A->a->nfields;
    pv_status st = specs_make(I, c, ds, ncols, &S);
    if (st == PV_OK) st = gen_alloc(&G);
    st = pv_status_agree(ctx, st);
    /* gnuplot's brick line: the first sources in file order, the same on every rank */
    if (st == PV_OK && !ctx->opt.quiet) {
        plan all;
        plan_make(A, 0, A->a->n[2], G.cap, &all);
        report_ud R = {&G, false};
        /* stop as soon as it is printed: the same step on every rank */
        for (int64_t k = 0; k < all.nboxes && st == PV_OK && !R.done; k++) {
            int64_t lo[3], hi[3];
            plan_box(&all, k, lo, hi);
            st = fetch(A, lo, hi, G.vals);
            if (st == PV_OK) st = report_box(&R, lo, hi);
            st = pv_status_agree(ctx, st);
        }
    }
    pv_fill_run *run = NULL;
    if (st == PV_OK) st = pv_status_agree(ctx, pv_fill_run_begin(I, g, value, grid_units, ncols, &run));
    if (st == PV_OK) {
        int64_t k0, k1;
        gen_window(&G, &k0, &k1);
        plan p;
        plan_make(A, k0, k1, G.cap, &p);
        fill_ud F = {&G, run};
        st = for_boxes(A, &p, G.vals, fill_box, &F);
    }
    if (run) st = pv_fill_run_end(run, c, ds, off, st);
    specs_fini(&S);
    gen_fini(&G);
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
    if (!constant_expr(&ds->using[3])) return false;
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
                col[k] = raw ? decode1(raw + p0 * b->esize + b->foff[fl], b->type[fl], b->swap, b->middle)
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

/* One row of a brick's raw elements into the slab: voxel = (float)(voxel + value). */
static void add_raw_row(const brick *b, const unsigned char *r, int64_t w0, float *row,
                        int64_t step)
{
    if (b->type[0] == PV_BIN_FLOAT && !b->swap && !b->middle && b->foff[0] == 0 &&
        b->esize == 4 && step == 1) {
        for (int64_t p0 = 0; p0 < w0; p0++) {
            float v;
            memcpy(&v, r + 4 * p0, 4);
            row[p0] = (float)((double)row[p0] + (double)v);
        }
        return;
    }
    for (int64_t p0 = 0; p0 < w0; p0++) {
        double v = decode1(r + (size_t)p0 * b->esize + b->foff[0], b->type[0], b->swap, b->middle);
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
            size_t got = 0;
            int e = 0;
            while (got < len) {
                ssize_t r = pread(b->fd, buf + got, len - got, (off_t)(off + (int64_t)got));
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
    plan_make(A, g->z0, g->z1, cap, &p);
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
                plan_box(&p, k, lo, hi);
                st = fast_brick(A, g, X, lo, hi);
            }
            st = pv_status_agree(ctx, st);
        } else {
            fast_ud F = {A, g, buf, X};
            st = for_boxes(A, &p, buf, fast_box, &F);
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
        pv_fill_run_account(run, &acc);
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
    A.b = a->read == brick_read ? a->ud : NULL;
    if (A.b && getenv("PVOX_TEST_ARRAY_READ") && a->scan[0] == 0 && a->scan[1] == 1)
        A.b = NULL; /* tests: through a->read, as an HDF5 dataset (brick_read) */
    for (int d = 0; d < 3; d++) {
        A.fn[d] = a->n[a->scan[d]];
        if (a->scan[d] == 2) A.zd = d;
    }
    const pv_data_binary *bin = &ds->bin;
    if (a->read == brick_read && bin->trans == 2) {
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
            st = run_general(I, c, g, ds, &A, value, grid_units, off);
        fast_expr_fini(&X);
    }
    free(A.pbuf);
    if (a->close) a->close(a->ud);
    memset(a, 0, sizeof *a);
    return st;
}

/* Until h5src.c (the HDF5 dataset reader) is linked in: no dataset sources. */
__attribute__((weak)) bool pv_h5_array_applies(const pv_data_spec *ds)
{
    (void)ds;
    return false;
}

__attribute__((weak)) pv_status pv_h5_array_open(pv_interp *I, pv_cursor *c,
                                                 const pv_data_spec *ds, pv_array_src *out)
{
    (void)c, (void)ds, (void)out;
    return pv_err(I->ctx, PV_EINTERNAL, "no HDF5 dataset reader");
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
        if (st == PV_OK) st = brick_open(I, c, ds, &a);
    } else {
        st = pv_h5_array_open(I, c, ds, &a);
    }
    if (st != PV_OK) return st;
    return pv_fill_array_source(I, c, g, ds, &a, value, grid_units, off);
}
