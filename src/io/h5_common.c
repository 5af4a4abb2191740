/*
 * io/h5_common: what the checkpoint writer and reader share: HDF5 error handling, the
 * MPI-IO file access list, and the collective plane transfer.
 *
 * The transfer moves a rank's planes [z0, z1) of an n³ contiguous dataset in calls of at
 * most max_io bytes per rank, because single MPI-IO transfers of 2 GiB and more fail in
 * HDF5 1.10 (H5FD__mpio_read checks the size against int; HDFGroup/hdf5#549, fixed only
 * in 1.12.3) and in some MPI-IO layers (open-mpi/ompi#7045, pmodels/mpich#1742). A call is
 * either a group of whole planes or, for planes larger than max_io, a group of rows of
 * one plane, so each call's file selection is one hyperslab. The number of calls is the
 * maximum over ranks; a rank with nothing left selects none and still takes part.
 */
#include "h5_int.h"
#include "pvox/checksum.h"

#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>

const char *const pv_h5_range_attr[3] = {"vxrange", "vyrange", "vzrange"};

void pv_h5_quiet(void) { H5Eset_auto2(H5E_DEFAULT, NULL, NULL); }

typedef struct last_err {
    char *buf;
    size_t len;
    bool found;
} last_err;

static herr_t walk_first(unsigned n, const H5E_error2_t *e, void *ud)
{
    last_err *le = ud;
    (void)n;
    if (!le->found && e->desc && e->desc[0]) {
        snprintf(le->buf, le->len, "%s", e->desc);
        le->found = true;
    }
    return 0;
}

void pv_h5_last_error(char *buf, size_t len)
{
    if (len == 0)
        return;
    buf[0] = '\0';
    last_err le = {buf, len, false};
    /* upward: the most specific entry (where the error was detected) comes first */
    H5Ewalk2(H5E_DEFAULT, H5E_WALK_UPWARD, walk_first, &le);
    /* HDF5's descriptions start with a capital now and then; ours are lowercase */
    if (buf[0] >= 'A' && buf[0] <= 'Z' && !(buf[1] >= 'A' && buf[1] <= 'Z'))
        buf[0] = (char)(buf[0] - 'A' + 'a');
}

char *pv_h5_open_failure(const char *path, bool *io)
{
    char why[256];
    pv_h5_last_error(why, sizeof why);
    long long eof = 0, stored = 0, base = 0;
    *io = strncmp(why, "truncated file", 14) == 0;
    /* HDF5 1.10: "truncated file: eof = 1000, sblock->base_addr = 0, stored_eof = 2048" */
    if (*io && sscanf(why, "truncated file: eof = %lld, sblock->base_addr = %lld, stored_eof = %lld",
                      &eof, &base, &stored) == 3)
        return pv_asprintf("%s: truncated file (%lld bytes, %lld expected)", path, eof, stored);
    if (*io)
        return pv_asprintf("%s: truncated file", path);
    return pv_asprintf("%s: cannot open the HDF5 file%s%s", path, why[0] ? ": " : "", why);
}

hid_t pv_h5_err_save(void) { return H5Eget_current_stack(); }

void pv_h5_err_restore(hid_t saved)
{
    if (saved >= 0)
        H5Eset_current_stack(saved); /* closes `saved` */
}

/* ---- attributes -------------------------------------------------------------------- */

herr_t pv_h5_attr_write(hid_t loc, const char *name, hid_t ftype, hid_t mtype, int rank,
                        hsize_t dim, const void *val)
{
    hid_t space = rank == 0 ? H5Screate(H5S_SCALAR) : H5Screate_simple(1, &dim, NULL);
    if (space < 0)
        return -1;
    hid_t a = H5Acreate2(loc, name, ftype, space, H5P_DEFAULT, H5P_DEFAULT);
    herr_t rc = a < 0 ? -1 : H5Awrite(a, mtype, val);
    hid_t e = rc < 0 ? pv_h5_err_save() : -1;
    if (a >= 0 && H5Aclose(a) < 0)
        rc = -1;
    H5Sclose(space);
    pv_h5_err_restore(e);
    return rc;
}

herr_t pv_h5_attr_fixed(hid_t loc, const char *name, const char *value, bool exact)
{
    hid_t t = H5Tcopy(H5T_C_S1);
    if (t < 0)
        return -1;
    size_t len = strlen(value);
    herr_t rc = H5Tset_size(t, exact && len > 0 ? len : len + 1);
    if (rc >= 0)
        rc = H5Tset_strpad(t, exact ? H5T_STR_NULLPAD : H5T_STR_NULLTERM);
    if (rc >= 0)
        rc = pv_h5_attr_write(loc, name, t, t, 0, 0, value);
    H5Tclose(t);
    return rc;
}

void pv_h5_axis_geometry(const pv_h5_grid *g, int a, double *origin, double *spacing)
{
    if (isnan(g->min[a]) || isnan(g->max[a])) {
        *origin = 0;
        *spacing = 1;
        return;
    }
    *origin = g->min[a];
    *spacing = (g->max[a] - g->min[a]) / (double)(g->n - 1);
}

/* MPI-IO hints. Each rank's part of a transfer is one contiguous byte range, so
 * two-phase collective buffering (data shipped to aggregator ranks, which write) only
 * adds a copy and a message per byte: it is switched off unless asked for, and the
 * collective call then lets every rank write its own range (measured at 2 ranks on
 * ext4, 512^3: transfers ~1.6x faster). Keys for both MPI-IO layers of Open MPI (OMPIO,
 * ROMIO) and MPICH (ROMIO); a layer ignores keys it does not know. */
static MPI_Info make_hints(bool aggregate)
{
    MPI_Info info = MPI_INFO_NULL;
    if (aggregate || MPI_Info_create(&info) != MPI_SUCCESS)
        return MPI_INFO_NULL;
    MPI_Info_set(info, "collective_buffering", "false"); /* OMPIO */
    MPI_Info_set(info, "romio_cb_write", "disable");      /* ROMIO */
    MPI_Info_set(info, "romio_cb_read", "disable");
    return info;
}

hid_t pv_h5_fapl(pv_ctx *ctx, bool aggregate)
{
    hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
    if (fapl < 0)
        return -1;
    MPI_Info info = make_hints(aggregate);
    if (H5Pset_fapl_mpio(fapl, ctx->comm, info) < 0 ||
        /* metadata read by one rank and broadcast, written collectively: the file system
         * sees one reader of the small objects, not P */
        H5Pset_all_coll_metadata_ops(fapl, true) < 0 || H5Pset_coll_metadata_write(fapl, true) < 0 ||
        /* large datasets start on a 1 MiB boundary (file-system blocks, stripes) */
        H5Pset_alignment(fapl, (hsize_t)16 << 20, (hsize_t)1 << 20) < 0) {
        H5Pclose(fapl);
        fapl = -1;
    }
    if (info != MPI_INFO_NULL)
        MPI_Info_free(&info); /* H5Pset_fapl_mpio keeps its own copy */
    return fapl;
}

/* statvfs of the directory holding `path` (false if it cannot be asked). */
static bool dir_stat(const char *path, struct statvfs *sv)
{
    char *dir = pv_path_dir(path);
    if (!dir)
        return false;
    bool ok = statvfs(dir, sv) == 0;
    free(dir);
    return ok;
}

bool pv_h5_dir_full(const char *path)
{
    struct statvfs sv;
    /* less than 64 KiB left counts as full: HDF5 writes blocks, not bytes */
    return dir_stat(path, &sv) && (uint64_t)sv.f_bavail * sv.f_frsize < ((uint64_t)64 << 10);
}

bool pv_h5_dir_space(const char *path, uint64_t *avail)
{
    struct statvfs sv;
    if (!dir_stat(path, &sv))
        return false;
    *avail = (uint64_t)sv.f_bavail * sv.f_frsize;
    return true;
}

bool pv_h5_name_ok(const char *name)
{
    return name && name[0] && !strchr(name, '/') && strcmp(name, ".") != 0 &&
           strcmp(name, "..") != 0;
}

/* ---- hashing beside a transfer ------------------------------------------------------ */

static void *hasher_main(void *ud)
{
    pv_h5_hasher *h = ud;
    omp_set_num_threads(h->nthreads); /* a new thread starts from the environment's count */
    pthread_mutex_lock(&h->mu);
    for (;;) {
        while (!h->job && !h->quit)
            pthread_cond_wait(&h->cv, &h->mu);
        if (!h->job)
            break;
        const float *p = h->job;
        int64_t z0 = h->job_z0, nz = h->job_nz;
        pthread_mutex_unlock(&h->mu);
        uint64_t s = pv_checksum_slab(p, h->n, z0, z0 + nz);
        pthread_mutex_lock(&h->mu);
        h->sum += s;
        h->job = NULL;
        pthread_cond_broadcast(&h->cv);
    }
    pthread_mutex_unlock(&h->mu);
    return NULL;
}

void pv_h5_hasher_start(pv_h5_hasher *h, int64_t n, int nthreads)
{
    memset(h, 0, sizeof *h);
    h->n = n;
    /* one core stays with the thread doing the I/O: hashing threads that outnumber the
     * cores preempt it and wait for each other at OpenMP's barriers */
    h->nthreads = nthreads > 1 ? nthreads - 1 : 1;
    if (pthread_mutex_init(&h->mu, NULL) != 0)
        return;
    if (pthread_cond_init(&h->cv, NULL) != 0) {
        pthread_mutex_destroy(&h->mu);
        return;
    }
    h->threaded = pthread_create(&h->tid, NULL, hasher_main, h) == 0;
    if (!h->threaded) {
        pthread_cond_destroy(&h->cv);
        pthread_mutex_destroy(&h->mu);
    }
}

/* Wait until no block is pending (h->mu held). */
static void hasher_wait(pv_h5_hasher *h)
{
    while (h->job)
        pthread_cond_wait(&h->cv, &h->mu);
}

void pv_h5_hasher_push(pv_h5_hasher *h, const float *planes, int64_t z0, int64_t nz)
{
    if (nz <= 0)
        return;
    if (!h->threaded) {
        h->sum += pv_checksum_slab(planes, h->n, z0, z0 + nz);
        return;
    }
    pthread_mutex_lock(&h->mu);
    hasher_wait(h);
    h->job = planes;
    h->job_z0 = z0;
    h->job_nz = nz;
    pthread_cond_broadcast(&h->cv);
    pthread_mutex_unlock(&h->mu);
}

uint64_t pv_h5_hasher_take(pv_h5_hasher *h)
{
    if (h->threaded) {
        pthread_mutex_lock(&h->mu);
        hasher_wait(h);
    }
    uint64_t s = h->sum;
    h->sum = 0;
    if (h->threaded)
        pthread_mutex_unlock(&h->mu);
    return s;
}

pv_status pv_h5_sum_ranks(pv_ctx *ctx, pv_status st, uint64_t mine, uint64_t *sum)
{
    if (st == PV_OK &&
        MPI_Allreduce(&mine, sum, 1, MPI_UINT64_T, MPI_SUM, ctx->comm) != MPI_SUCCESS)
        st = pv_err(ctx, PV_EMPI, "MPI_Allreduce failed");
    return pv_status_agree(ctx, st);
}

uint64_t pv_h5_hasher_stop(pv_h5_hasher *h)
{
    uint64_t s = pv_h5_hasher_take(h);
    if (!h->threaded)
        return s;
    pthread_mutex_lock(&h->mu);
    h->quit = true;
    pthread_cond_broadcast(&h->cv);
    pthread_mutex_unlock(&h->mu);
    pthread_join(h->tid, NULL);
    pthread_cond_destroy(&h->cv);
    pthread_mutex_destroy(&h->mu);
    h->threaded = false;
    return s;
}

/* ---- stats ------------------------------------------------------------------------- */

void pv_h5_stats_begin(pv_ctx *ctx, pv_h5_stats *st)
{
    (void)ctx;
    memset(st, 0, sizeof *st);
    st->all_collective = true;
    st->io_mode = -1;
}

void pv_h5_stats_end(pv_ctx *ctx, pv_h5_stats *st, double t0)
{
    double t[2] = {MPI_Wtime() - t0, st->io_seconds};
    unsigned long long bytes = st->bytes;
    int coll = st->all_collective ? 1 : 0;
    MPI_Allreduce(MPI_IN_PLACE, t, 2, MPI_DOUBLE, MPI_MAX, ctx->comm);
    MPI_Allreduce(MPI_IN_PLACE, &bytes, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, ctx->comm);
    MPI_Allreduce(MPI_IN_PLACE, &coll, 1, MPI_INT, MPI_MIN, ctx->comm);
    st->seconds = t[0];
    st->io_seconds = t[1];
    st->bytes = bytes;
    st->all_collective = coll != 0;
}

/* ---- transfer ---------------------------------------------------------------------- */

/* How a rank's planes are cut into calls (identical arithmetic on every rank). */
typedef struct plan {
    int64_t n;               /* voxels per axis */
    int64_t z0, nplanes;     /* this rank's planes */
    int64_t planes_per_call; /* whole planes per call (1 when rows are split) */
    int64_t rows_per_call;   /* rows per call: n, unless a plane exceeds max_io */
    int64_t groups;          /* calls per plane when rows are split, else 1 */
    int64_t ncalls;          /* this rank's calls with data */
} plan;

static void make_plan(plan *p, int64_t n, int64_t z0, int64_t z1, size_t max_io)
{
    int64_t row_bytes = n * (int64_t)sizeof(float);
    int64_t rows = (int64_t)(max_io / (size_t)row_bytes);
    if (rows < 1)
        rows = 1;
    p->n = n;
    p->z0 = z0;
    p->nplanes = z1 - z0;
    if (rows >= n) {
        p->planes_per_call = rows / n;
        p->rows_per_call = n;
        p->groups = 1;
        p->ncalls = (p->nplanes + p->planes_per_call - 1) / p->planes_per_call;
    } else {
        p->planes_per_call = 1;
        p->rows_per_call = rows;
        p->groups = (n + rows - 1) / rows;
        p->ncalls = p->nplanes * p->groups;
    }
}

/* The k-th call's block: planes [*zs, *zs + *nz), rows [*ys, *ys + *ny). */
static void plan_block(const plan *p, int64_t k, int64_t *zs, int64_t *nz, int64_t *ys,
                       int64_t *ny)
{
    if (p->groups == 1) {
        *zs = p->z0 + k * p->planes_per_call;
        *nz = p->z0 + p->nplanes - *zs;
        if (*nz > p->planes_per_call)
            *nz = p->planes_per_call;
        *ys = 0;
        *ny = p->n;
    } else {
        *zs = p->z0 + k / p->groups;
        *nz = 1;
        *ys = (k % p->groups) * p->rows_per_call;
        *ny = p->n - *ys;
        if (*ny > p->rows_per_call)
            *ny = p->rows_per_call;
    }
}

/* Select this call's block (or nothing) in the file and memory spaces. */
static herr_t select_block(const plan *p, int64_t k, hid_t fspace, hid_t *mspace,
                           size_t *off, hsize_t *count_out)
{
    *mspace = -1;
    *off = 0;
    *count_out = 0;
    if (k >= p->ncalls) {
        hsize_t one = 1;
        *mspace = H5Screate_simple(1, &one, NULL);
        if (*mspace < 0 || H5Sselect_none(*mspace) < 0)
            return -1;
        return H5Sselect_none(fspace);
    }
    int64_t zs, nz, ys, ny;
    plan_block(p, k, &zs, &nz, &ys, &ny);
    hsize_t start[3] = {(hsize_t)zs, (hsize_t)ys, 0};
    hsize_t count[3] = {(hsize_t)nz, (hsize_t)ny, (hsize_t)p->n};
    hsize_t total = count[0] * count[1] * count[2];
    *mspace = H5Screate_simple(1, &total, NULL);
    if (*mspace < 0)
        return -1;
    *off = ((size_t)(zs - p->z0) * (size_t)p->n + (size_t)ys) * (size_t)p->n;
    *count_out = total;
    return H5Sselect_hyperslab(fspace, H5S_SELECT_SET, start, NULL, count, NULL);
}

/* One collective call; returns this rank's status. */
static pv_status one_call(pv_ctx *ctx, hid_t dset, hid_t dxpl, bool write, const plan *p,
                          int64_t k, float *buf, const char *path, const char *name,
                          pv_h5_stats *stats)
{
    static const float dummy = 0;
    hid_t fspace = H5Dget_space(dset);
    hid_t mspace = -1;
    size_t off;
    hsize_t count;
    pv_status st = PV_OK;
    if (fspace < 0 || select_block(p, k, fspace, &mspace, &off, &count) < 0) {
        st = pv_err(ctx, PV_EHDF5, "%s: cannot select planes of %s", path, name);
        goto out;
    }
    float *ptr = count ? buf + off : (float *)&dummy; /* never written through */
    double t0 = MPI_Wtime();
    herr_t rc = write ? H5Dwrite(dset, H5T_NATIVE_FLOAT, mspace, fspace, dxpl, ptr)
                      : H5Dread(dset, H5T_NATIVE_FLOAT, mspace, fspace, dxpl, ptr);
    stats->io_seconds += MPI_Wtime() - t0;
    if (rc < 0) {
        char why[256];
        pv_h5_last_error(why, sizeof why);
        /* HDF5 1.10 drops the MPI-IO error class: name the usual cause ourselves */
        if (write && pv_h5_dir_full(path))
            snprintf(why, sizeof why, "no space left on device");
        st = pv_err(ctx, write ? PV_EIO : PV_EHDF5, "%s: cannot %s %s: %s", path,
                    write ? "write" : "read", name, why[0] ? why : "HDF5 error");
        goto out;
    }
    if (count) {
        H5D_mpio_actual_io_mode_t mode;
        if (H5Pget_mpio_actual_io_mode(dxpl, &mode) >= 0) {
            stats->io_mode = (int)mode;
            if (mode == H5D_MPIO_NO_COLLECTIVE)
                stats->all_collective = false;
        }
        stats->bytes += count * sizeof(float);
    }
out:
    if (mspace >= 0)
        H5Sclose(mspace);
    if (fspace >= 0)
        H5Sclose(fspace);
    return st;
}

pv_status pv_h5_transfer(pv_ctx *ctx, hid_t dset, bool write, int64_t n, int64_t z0,
                         int64_t z1, float *buf, size_t max_io, const char *path,
                         const char *name, pv_h5_stats *stats, pv_h5_hook *hook)
{
    plan p;
    make_plan(&p, n, z0, z1, max_io ? max_io : PV_H5_DEFAULT_MAX_IO);
    if (hook)
        hook->whole_planes = p.groups == 1;
    long long calls = p.ncalls;
    if (MPI_Allreduce(MPI_IN_PLACE, &calls, 1, MPI_LONG_LONG, MPI_MAX, ctx->comm) != MPI_SUCCESS)
        return pv_status_agree(ctx, pv_err(ctx, PV_EMPI, "MPI_Allreduce failed"));
    hid_t dxpl = H5Pcreate(H5P_DATASET_XFER);
    pv_status st = PV_OK;
    if (dxpl < 0 || H5Pset_dxpl_mpio(dxpl, H5FD_MPIO_COLLECTIVE) < 0)
        st = pv_err(ctx, PV_EHDF5, "%s: cannot set up a collective transfer", path);
    st = pv_status_agree(ctx, st);
    /* every rank makes `calls` calls; stop together after the first failing one */
    for (long long k = 0; k < calls && st == PV_OK; k++) {
        st = one_call(ctx, dset, dxpl, write, &p, k, buf, path, name, stats);
        if (st == PV_OK && hook && p.groups == 1 && k < p.ncalls) {
            int64_t zs, nz, ys, ny, zn = 0, nn = 0;
            plan_block(&p, k, &zs, &nz, &ys, &ny);
            if (k + 1 < p.ncalls)
                plan_block(&p, k + 1, &zn, &nn, &ys, &ny);
            hook->after(hook->ud, buf + (size_t)(zs - p.z0) * (size_t)p.n * (size_t)p.n, zs,
                        nz, zn, nn);
        }
        st = pv_status_agree(ctx, st);
        stats->ncalls++;
    }
    if (dxpl >= 0)
        H5Pclose(dxpl);
    return st;
}
