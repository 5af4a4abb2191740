/*
 * exec/fill_array_brick.c: the binary brick reader of the 3D array fill (fill_array.c):
 * element types and byte orders, the size check before anything is read, and boxes of
 * the file read with pread (one per contiguous run) and decoded with the threads.
 */
#include "fill_array_int.h"

#include <errno.h>
#include <fcntl.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

/* =====================================================================================
 * Element types
 * ===================================================================================== */

static const char *type_name(pv_bin_type t)
{
    static const char *const nm[] = {"int8", "uint8", "int16", "uint16", "int32", "uint32",
                                     "int64", "uint64", "int64", "uint64", "float32",
                                     "float64"};
    return nm[t];
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
            out[e * (size_t)nf + (size_t)f] = pv_bin_decode(raw + e * esize + foff[f], type[f], swap, middle);
}

/* =====================================================================================
 * The binary brick reader
 * ===================================================================================== */

void pv_brick_close(void *ud)
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
pv_status pv_brick_box(brick *b, const int64_t lo[3], const int64_t hi[3], double *out)
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

/* The storage axes of a `binary` spec: scan[d] is the axis of storage dimension d. */
static void scan_axes(const pv_data_binary *bin, int scan[3])
{
    scan[0] = 0, scan[1] = 1, scan[2] = 2;
    if (bin->scan[0])
        for (int d = 0; d < 3; d++)
            scan[d] = bin->scan[d] - 'x';
}

/* Open ds's brick on every rank and check its size; located, agreed errors. */
pv_status pv_brick_open(pv_interp *I, pv_cursor *c, const pv_data_spec *ds,
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
            off += pv_bin_type_size(b->type[f]);
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
        pv_brick_close(b);
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
    a->read = pv_brick_read;
    a->close = pv_brick_close;
    return PV_OK;
}

/* pv_array_src.read of a brick: planes [k0, k1) in element order, whatever its storage
 * order. The fill reads bricks box by box through pv_array_fetch() instead; this one serves
 * PVOX_TEST_ARRAY_READ=1, which sends bricks stored x fastest through the reader
 * interface (the path of HDF5 datasets), so the tests cover that path without HDF5. */
pv_status pv_brick_read(void *ud, int64_t k0, int64_t k1, double *out)
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
    pv_status st = pv_brick_box(b, lo, hi, b->tmp);
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

