/*
 * io/h5_read: opening a checkpoint, reading its metadata, and the collective plane read.
 *
 * Rank 0 first looks at the file alone (exists, readable, HDF5 signature) so the common
 * mistakes get a precise message; then every rank opens it with MPI-IO. Metadata
 * operations are collective (H5Pset_all_coll_metadata_ops): rank 0 reads the small
 * objects and broadcasts them, so all ranks see the same entries in the same order.
 * Each grid's type and shape are checked once, at open, and kept as an entry's
 * "problem" text; a read of that grid reports it. A grid read whole (the ranks' plane
 * ranges tile it) is checked against the checksum the file stores, if it stores one:
 * the ranks hash their planes (pvox/checksum.h) and sum the hashes, so a file damaged
 * on disk is an error, not NaN voxels.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "h5_int.h"
#include "pvox/checksum.h"

struct pv_h5_file {
    char *path;      /* as given, for messages */
    hid_t file;      /* open file */
    hid_t grp;       /* /grids */
    size_t max_io;   /* bytes per rank per transfer call */
    bool verify;     /* check whole-grid reads against stored checksums */
    pv_h5_info info; /* metadata */
};

/* ---- rank 0's look at the file ------------------------------------------------------- */

static pv_status precheck(pv_ctx *ctx, const char *path)
{
    struct stat sb;
    if (stat(path, &sb) != 0)
        return pv_err(ctx, PV_EIO, "%s: %s", path,
                      errno == ENOENT ? "no such file" : strerror(errno));
    if (S_ISDIR(sb.st_mode))
        return pv_err(ctx, PV_EIO, "%s: is a directory", path);
    if (access(path, R_OK) != 0)
        return pv_err(ctx, PV_EIO, "%s: %s", path, strerror(errno));
    htri_t is = H5Fis_hdf5(path);
    if (is <= 0)
        return pv_err(ctx, PV_EIO, "%s: not an HDF5 file", path);
    return PV_OK;
}

/* The open failed: say why, in our words where we know the case. */
static pv_status open_failed(pv_ctx *ctx, const char *path)
{
    char why[256];
    pv_h5_last_error(why, sizeof why);
    long long eof = 0, stored = 0, base = 0;
    /* HDF5 1.10: "truncated file: eof = 1000, sblock->base_addr = 0, stored_eof = 2048" */
    if (strncmp(why, "truncated file", 14) == 0 &&
        sscanf(why, "truncated file: eof = %lld, sblock->base_addr = %lld, stored_eof = %lld",
               &eof, &base, &stored) == 3)
        return pv_err(ctx, PV_EIO, "%s: truncated file (%lld bytes, %lld expected)", path, eof,
                      stored);
    if (strncmp(why, "truncated file", 14) == 0)
        return pv_err(ctx, PV_EIO, "%s: truncated file", path);
    return pv_err(ctx, PV_EHDF5, "%s: cannot open the HDF5 file%s%s", path, why[0] ? ": " : "",
                  why);
}

/* ---- attributes -------------------------------------------------------------------- */

/* A string attribute of loc (fixed or variable length); "" if absent or not a string. */
static char *read_string_attr(hid_t loc, const char *name)
{
    char *out = NULL;
    if (H5Aexists(loc, name) <= 0)
        return strdup("");
    hid_t a = H5Aopen(loc, name, H5P_DEFAULT);
    hid_t t = a < 0 ? -1 : H5Aget_type(a);
    if (t >= 0 && H5Tget_class(t) == H5T_STRING) {
        if (H5Tis_variable_str(t) > 0) {
            char *v = NULL;
            hid_t mt = H5Tcopy(H5T_C_S1);
            H5Tset_size(mt, H5T_VARIABLE);
            if (H5Aread(a, mt, &v) >= 0 && v) {
                out = strdup(v);
                H5free_memory(v);
            }
            H5Tclose(mt);
        } else {
            size_t sz = H5Tget_size(t);
            char *buf = calloc(sz + 1, 1);
            if (buf && H5Aread(a, t, buf) >= 0)
                out = buf;
            else
                free(buf);
        }
    }
    if (t >= 0)
        H5Tclose(t);
    if (a >= 0)
        H5Aclose(a);
    return out ? out : strdup("");
}

/* An open attribute with its dataspace and type (ids < 0 where opening failed). */
typedef struct attr_view {
    hid_t a, space, type;
} attr_view;

static attr_view attr_open(hid_t loc, const char *name)
{
    attr_view v;
    v.a = H5Aopen(loc, name, H5P_DEFAULT);
    v.space = v.a < 0 ? -1 : H5Aget_space(v.a);
    v.type = v.a < 0 ? -1 : H5Aget_type(v.a);
    return v;
}

static void attr_close(attr_view v)
{
    if (v.type >= 0)
        H5Tclose(v.type);
    if (v.space >= 0)
        H5Sclose(v.space);
    if (v.a >= 0)
        H5Aclose(v.a);
}

/* A numeric attribute with `count` elements into out (as double); false if absent. */
static bool read_doubles_attr(hid_t loc, const char *name, double *out, hssize_t count)
{
    if (H5Aexists(loc, name) <= 0)
        return false;
    attr_view v = attr_open(loc, name);
    bool ok = v.space >= 0 && v.type >= 0 && H5Sget_simple_extent_npoints(v.space) == count &&
              (H5Tget_class(v.type) == H5T_FLOAT || H5Tget_class(v.type) == H5T_INTEGER) &&
              H5Aread(v.a, H5T_NATIVE_DOUBLE, out) >= 0;
    attr_close(v);
    return ok;
}

/* The checksum attribute of a grid: 1 read into *out, 0 absent, -1 present but not one
 * unsigned 64-bit integer (or unreadable). */
static int read_checksum_attr(hid_t loc, uint64_t *out)
{
    if (H5Aexists(loc, PV_H5_ATTR_CHECKSUM) <= 0)
        return 0;
    attr_view v = attr_open(loc, PV_H5_ATTR_CHECKSUM);
    bool ok = v.space >= 0 && v.type >= 0 && H5Sget_simple_extent_npoints(v.space) == 1 &&
              H5Tget_class(v.type) == H5T_INTEGER && H5Tget_size(v.type) == 8 &&
              H5Tget_sign(v.type) == H5T_SGN_NONE && H5Aread(v.a, H5T_NATIVE_UINT64, out) >= 0;
    attr_close(v);
    return ok ? 1 : -1;
}

/* ---- entries ----------------------------------------------------------------------- */

static void describe_type(hid_t t, char *buf, size_t len)
{
    size_t bits = H5Tget_size(t) * 8;
    switch (H5Tget_class(t)) {
    case H5T_FLOAT: snprintf(buf, len, "float%zu", bits); break;
    case H5T_INTEGER:
        snprintf(buf, len, "%sint%zu", H5Tget_sign(t) == H5T_SGN_NONE ? "u" : "", bits);
        break;
    case H5T_STRING: snprintf(buf, len, "string"); break;
    case H5T_COMPOUND: snprintf(buf, len, "compound"); break;
    default: snprintf(buf, len, "of an unsupported type"); break;
    }
}

static void describe_shape(hid_t space, char *buf, size_t len)
{
    hsize_t dims[H5S_MAX_RANK];
    int rank = H5Sget_simple_extent_dims(space, dims, NULL);
    if (rank <= 0) {
        snprintf(buf, len, "scalar");
        return;
    }
    size_t used = 0;
    buf[0] = '\0';
    for (int k = 0; k < rank && used < len; k++)
        used += (size_t)snprintf(buf + used, len - used, "[%llu]", (unsigned long long)dims[k]);
}

/* Check dataset `d`: float32 [N][N][N], N >= 2. Sets e->n, or e->problem. */
static void check_dataset(hid_t d, pv_h5_entry *e)
{
    hid_t t = H5Dget_type(d);
    hid_t s = H5Dget_space(d);
    hsize_t dims[H5S_MAX_RANK];
    int rank = s < 0 ? -1 : H5Sget_simple_extent_dims(s, dims, NULL);
    bool is_f32 = t >= 0 && H5Tget_class(t) == H5T_FLOAT && H5Tget_size(t) == 4;
    bool cube = rank == 3 && dims[0] == dims[1] && dims[1] == dims[2] && dims[0] >= 2;
    if (is_f32 && cube) {
        e->n = (int64_t)dims[0];
    } else if (t >= 0 && s >= 0) {
        char ty[64], sh[128];
        describe_type(t, ty, sizeof ty);
        describe_shape(s, sh, sizeof sh);
        e->problem = pv_asprintf("is %s %s, expected float32 [N][N][N]%s", ty, sh,
                                 is_f32 && rank == 3 && dims[0] == dims[1] && dims[1] == dims[2]
                                     ? " with N >= 2" : "");
    } else {
        e->problem = strdup("cannot be read (bad type or dataspace)");
    }
    if (t >= 0)
        H5Tclose(t);
    if (s >= 0)
        H5Sclose(s);
}

static pv_status fill_entry(pv_ctx *ctx, hid_t grp, const char *name, pv_h5_entry *e)
{
    e->name = strdup(name);
    for (int a = 0; a < 3; a++)
        e->min[a] = e->max[a] = NAN;
    if (!e->name)
        return pv_err(ctx, PV_ENOMEM, "out of memory");
    hid_t obj = H5Oopen(grp, name, H5P_DEFAULT);
    if (obj < 0 || H5Iget_type(obj) != H5I_DATASET) {
        e->problem = strdup("is not a dataset");
    } else {
        check_dataset(obj, e);
        for (int a = 0; a < 3; a++) {
            double r[2];
            if (read_doubles_attr(obj, pv_h5_range_attr[a], r, 2)) {
                e->min[a] = r[0];
                e->max[a] = r[1];
            }
        }
        int sum = read_checksum_attr(obj, &e->checksum);
        e->has_checksum = sum == 1;
        if (!e->problem && sum < 0)
            e->problem = strdup("has a checksum attribute that is not one uint64");
        if (!e->problem && name[0] != '$')
            e->problem = strdup("is not a grid name (pvox grid names start with $)");
    }
    if (obj >= 0)
        H5Oclose(obj);
    return PV_OK;
}

typedef struct name_list {
    char **name;
    size_t n, cap;
    bool oom;
} name_list;

static herr_t collect(hid_t g, const char *name, const H5L_info_t *info, void *ud)
{
    name_list *nl = ud;
    (void)g;
    (void)info;
    if (nl->n == nl->cap) {
        size_t cap = nl->cap ? 2 * nl->cap : 16;
        char **nn = realloc(nl->name, cap * sizeof *nn);
        if (!nn) {
            nl->oom = true;
            return -1;
        }
        nl->name = nn;
        nl->cap = cap;
    }
    if (!(nl->name[nl->n] = strdup(name))) {
        nl->oom = true;
        return -1;
    }
    nl->n++;
    return 0;
}

/* The link names under /grids, in creation order when the file tracks it. */
static pv_status list_names(pv_ctx *ctx, pv_h5_file *f, name_list *nl)
{
    hsize_t idx = 0;
    if (H5Literate(f->grp, H5_INDEX_CRT_ORDER, H5_ITER_INC, &idx, collect, nl) < 0 && !nl->oom) {
        for (size_t k = 0; k < nl->n; k++)
            free(nl->name[k]);
        nl->n = 0;
        idx = 0;
        if (H5Literate(f->grp, H5_INDEX_NAME, H5_ITER_INC, &idx, collect, nl) < 0 && !nl->oom) {
            char why[256];
            pv_h5_last_error(why, sizeof why);
            return pv_err(ctx, PV_EHDF5, "%s: cannot list " PV_H5_GROUP ": %s", f->path, why);
        }
    }
    if (nl->oom)
        return pv_err(ctx, PV_ENOMEM, "out of memory");
    return PV_OK;
}

static pv_status read_info(pv_ctx *ctx, pv_h5_file *f)
{
    pv_h5_info *in = &f->info;
    double fmt = 0;
    if (read_doubles_attr(f->file, PV_H5_ATTR_FORMAT, &fmt, 1))
        in->format_version = (int)fmt;
    in->pvox_version = read_string_attr(f->file, PV_H5_ATTR_VERSION);
    in->created = read_string_attr(f->file, PV_H5_ATTR_CREATED);
    in->script = read_string_attr(f->file, PV_H5_ATTR_SCRIPT);
    in->job_hash = read_string_attr(f->file, PV_H5_ATTR_JOB_HASH);
    in->job_state = read_string_attr(f->file, PV_H5_ATTR_JOB_STATE);
    if (!in->pvox_version || !in->created || !in->script || !in->job_hash || !in->job_state)
        return pv_err(ctx, PV_ENOMEM, "out of memory");
    if (in->format_version > PV_H5_FORMAT_VERSION)
        return pv_err(ctx, PV_EIO, "%s: checkpoint format %d is newer than this pvox reads (%d)",
                      f->path, in->format_version, PV_H5_FORMAT_VERSION);
    if (H5Lexists(f->file, PV_H5_GROUP, H5P_DEFAULT) <= 0 ||
        (f->grp = H5Gopen2(f->file, PV_H5_GROUP, H5P_DEFAULT)) < 0)
        return pv_err(ctx, PV_EIO, "%s: not a pvox checkpoint (no " PV_H5_GROUP " group)", f->path);
    name_list nl = {0};
    pv_status st = list_names(ctx, f, &nl);
    if (st == PV_OK && nl.n > 0 && !(in->grids = calloc(nl.n, sizeof *in->grids)))
        st = pv_err(ctx, PV_ENOMEM, "out of memory");
    for (size_t k = 0; k < nl.n && st == PV_OK; k++) {
        st = fill_entry(ctx, f->grp, nl.name[k], &in->grids[k]);
        in->ngrids = k + 1;
    }
    for (size_t k = 0; k < nl.n; k++)
        free(nl.name[k]);
    free(nl.name);
    return st;
}

static void free_info(pv_h5_info *in)
{
    for (size_t k = 0; k < in->ngrids; k++) {
        free(in->grids[k].name);
        free(in->grids[k].problem);
    }
    free(in->grids);
    free(in->pvox_version);
    free(in->created);
    free(in->script);
    free(in->job_hash);
    free(in->job_state);
    memset(in, 0, sizeof *in);
}

/* ---- public ------------------------------------------------------------------------ */

pv_h5_file *pv_h5_open(pv_ctx *ctx, const char *path, const pv_h5_opts *opt)
{
    pv_h5_quiet();
    pv_status st = pv_status_agree(ctx, ctx->rank == 0 ? precheck(ctx, path) : PV_OK);
    if (st != PV_OK)
        return NULL;
    pv_h5_file *f = calloc(1, sizeof *f);
    if (f && !(f->path = strdup(path))) {
        free(f);
        f = NULL;
    }
    if (pv_status_agree(ctx, f ? PV_OK : pv_err(ctx, PV_ENOMEM, "out of memory")) != PV_OK) {
        if (f)
            free(f->path);
        free(f);
        return NULL;
    }
    f->grp = -1;
    f->max_io = opt && opt->max_io_bytes ? opt->max_io_bytes : PV_H5_DEFAULT_MAX_IO;
    f->verify = !(opt && opt->no_verify);
    hid_t fapl = pv_h5_fapl(ctx, opt && opt->aggregate);
    f->file = fapl < 0 ? -1 : H5Fopen(path, H5F_ACC_RDONLY, fapl);
    st = f->file < 0 ? open_failed(ctx, path) : PV_OK; /* before the next call clears the stack */
    if (fapl >= 0)
        H5Pclose(fapl);
    if (pv_status_agree(ctx, st) != PV_OK) {
        /* all ranks failed to open or all close: an open file is closed collectively */
        pv_h5_close(ctx, f);
        return NULL;
    }
    if (pv_status_agree(ctx, read_info(ctx, f)) != PV_OK) {
        pv_h5_close(ctx, f);
        return NULL;
    }
    return f;
}

const pv_h5_info *pv_h5_file_info(const pv_h5_file *f) { return &f->info; }

const pv_h5_entry *pv_h5_find(const pv_h5_file *f, const char *name)
{
    for (size_t k = 0; k < f->info.ngrids; k++)
        if (strcmp(f->info.grids[k].name, name) == 0)
            return &f->info.grids[k];
    return NULL;
}

/* The same checks on every rank, except the plane range (per rank). */
static pv_status check_read(pv_ctx *ctx, pv_h5_file *f, const char *name,
                            const pv_h5_entry *e, int64_t z0, int64_t z1, const float *buf)
{
    if (!e)
        return pv_err(ctx, PV_EIO, "%s: no grid %s", f->path, name);
    if (e->problem)
        return pv_err(ctx, PV_EIO, "%s: " PV_H5_GROUP "/%s %s", f->path, name, e->problem);
    if (z0 < 0 || z1 < z0 || z1 > e->n || (z1 > z0 && !buf))
        return pv_err(ctx, PV_ERANGE, "%s: planes [%lld, %lld) are outside grid %s", f->path,
                      (long long)z0, (long long)z1, name);
    return PV_OK;
}

/* A dataset created but never written (other tools allocate late) has no storage, and
 * HDF5 1.10 answers a collective read of it without the collective calls on ranks that
 * select data but with them on ranks that select none: they would wait forever. Its
 * voxels are the fill value; every rank sees the same metadata and takes this path. */
static bool allocated(hid_t dset)
{
    H5D_space_status_t status;
    return H5Dget_space_status(dset, &status) < 0 || status != H5D_SPACE_STATUS_NOT_ALLOCATED;
}

static pv_status read_fill(pv_ctx *ctx, pv_h5_file *f, hid_t dset, int64_t n, int64_t z0,
                           int64_t z1, float *buf)
{
    float fv = 0;
    hid_t dcpl = H5Dget_create_plist(dset);
    if (dcpl < 0 || H5Pget_fill_value(dcpl, H5T_NATIVE_FLOAT, &fv) < 0)
        fv = 0;
    if (dcpl >= 0)
        H5Pclose(dcpl);
    size_t count = (size_t)(z1 - z0) * (size_t)n * (size_t)n;
    for (size_t i = 0; i < count; i++)
        buf[i] = fv;
    (void)ctx;
    (void)f;
    return PV_OK;
}

/* Collective: do the ranks' ranges [z0, z1) tile [0, n), each plane read by one rank? */
static pv_status reads_tile(pv_ctx *ctx, int64_t n, int64_t z0, int64_t z1, bool *tile)
{
    long long mine[2] = {z0, z1};
    long long *all = malloc((size_t)ctx->nranks * sizeof mine);
    pv_status st = all ? PV_OK : pv_err(ctx, PV_ENOMEM, "out of memory");
    if ((st = pv_status_agree(ctx, st)) != PV_OK)
        return st;
    if (MPI_Allgather(mine, 2, MPI_LONG_LONG, all, 2, MPI_LONG_LONG, ctx->comm) != MPI_SUCCESS)
        st = pv_err(ctx, PV_EMPI, "MPI_Allgather failed");
    /* disjoint and n planes in all: each plane is read by one rank */
    long long planes = 0;
    *tile = true;
    for (int r = 0; r < ctx->nranks && st == PV_OK; r++) {
        planes += all[2 * r + 1] - all[2 * r];
        for (int q = 0; q < r; q++)
            if (all[2 * q] < all[2 * r + 1] && all[2 * r] < all[2 * q + 1])
                *tile = false;
    }
    *tile = *tile && planes == n;
    free(all);
    return pv_status_agree(ctx, st);
}

static pv_status damaged(pv_ctx *ctx, pv_h5_file *f, const pv_h5_entry *e, uint64_t sum);

/* Collective: the planes read (tiling the grid) against the stored checksum, in a pass
 * of their own (grids never written, planes split into rows). */
static pv_status verify(pv_ctx *ctx, pv_h5_file *f, const pv_h5_entry *e, int64_t z0,
                        int64_t z1, const float *buf)
{
    uint64_t sum = 0;
    pv_status st = pv_checksum_grid(ctx, buf, e->n, z0, z1, &sum);
    if (st == PV_OK && sum != e->checksum) /* the same sums on every rank */
        st = damaged(ctx, f, e, sum);
    return st;
}

/* ---- hashing while reading ------------------------------------------------------------ */

/* A whole grid with a stored checksum is hashed as it is read, not in a second pass: the
 * read goes in calls of PV_H5_PIPE_BYTES per rank, the hasher thread (pv_h5_hasher) hashes
 * the planes of call k while the main thread reads call k+1, and the kernel is asked to
 * fetch call k+1's bytes as soon as call k is in (POSIX_FADV_WILLNEED). The read then
 * costs about the longer of reading and hashing instead of their sum. */
typedef struct read_hash {
    int fd;            /* the file, for readahead hints (-1: none) */
    uint64_t base;     /* file offset of the dataset's first voxel */
    uint64_t plane;    /* bytes per plane */
    pv_h5_hasher *hs;  /* hashes the planes read */
} read_hash;

static void hash_after_read(void *ud, const float *planes, int64_t zs, int64_t nz,
                            int64_t zs_next, int64_t nz_next)
{
    read_hash *h = ud;
    if (h->fd >= 0 && nz_next > 0) /* the disk works on the next planes while we hash */
        (void)posix_fadvise(h->fd, (off_t)(h->base + (uint64_t)zs_next * h->plane),
                            (off_t)((uint64_t)nz_next * h->plane), POSIX_FADV_WILLNEED);
    pv_h5_hasher_push(h->hs, planes, zs, nz);
}

/* Collective: read planes [z0, z1) of a contiguous dataset and hash them call by call;
 * the sum over ranks into *sum, or *hashed false when the transfer split planes into
 * rows (then the caller hashes the buffer). */
static pv_status read_hashed(pv_ctx *ctx, pv_h5_file *f, hid_t dset, const pv_h5_entry *e,
                             int64_t z0, int64_t z1, float *buf, pv_h5_stats *stats,
                             uint64_t *sum, bool *hashed)
{
    pv_h5_hasher hs;
    pv_h5_hasher_start(&hs, e->n, ctx->nthreads);
    read_hash h = {-1, 0, (uint64_t)e->n * (uint64_t)e->n * sizeof(float), &hs};
    haddr_t off = H5Dget_offset(dset);
    if (off != HADDR_UNDEF) {
        h.base = (uint64_t)off;
        h.fd = open(f->path, O_RDONLY | O_CLOEXEC);
    }
    pv_h5_hook hook = {hash_after_read, &h, false};
    /* calls of PV_H5_PIPE_BYTES, but at least one whole plane (N > 4096: a plane is more
     * than 64 MiB), so that the planes are hashed as they come */
    size_t plane = (size_t)h.plane, chunk = PV_H5_PIPE_BYTES > plane ? PV_H5_PIPE_BYTES : plane;
    if (chunk > f->max_io)
        chunk = f->max_io;
    pv_status st = pv_h5_transfer(ctx, dset, false, e->n, z0, z1, buf, chunk, f->path, e->name,
                                  stats, &hook);
    uint64_t mine = pv_h5_hasher_stop(&hs);
    if (h.fd >= 0)
        close(h.fd);
    *hashed = hook.whole_planes;
    if (st != PV_OK || !*hashed)
        return st;
    return pv_h5_sum_ranks(ctx, st, mine, sum);
}

static pv_status damaged(pv_ctx *ctx, pv_h5_file *f, const pv_h5_entry *e, uint64_t sum)
{
    return pv_err(ctx, PV_EIO, "%s: " PV_H5_GROUP "/%s is damaged: its voxels have checksum "
                  "%016llx, the file records %016llx", f->path, e->name,
                  (unsigned long long)sum, (unsigned long long)e->checksum);
}

pv_status pv_h5_read(pv_ctx *ctx, pv_h5_file *f, const char *name, int64_t z0, int64_t z1,
                     float *buf, pv_h5_stats *stats)
{
    pv_h5_stats local;
    if (!stats)
        stats = &local;
    pv_h5_quiet();
    pv_h5_stats_begin(ctx, stats);
    double t0 = MPI_Wtime();
    const pv_h5_entry *e = pv_h5_find(f, name);
    pv_status st = pv_status_agree(ctx, check_read(ctx, f, name, e, z0, z1, buf));
    hid_t dset = -1;
    if (st == PV_OK) {
        dset = H5Dopen2(f->grp, name, H5P_DEFAULT);
        if (dset < 0)
            st = pv_err(ctx, PV_EHDF5, "%s: cannot open " PV_H5_GROUP "/%s", f->path, name);
        st = pv_status_agree(ctx, st);
    }
    /* a whole grid with a stored checksum is hashed as it is read (no second pass) */
    bool check = false, hashed = false;
    uint64_t sum = 0;
    if (st == PV_OK && e->has_checksum && f->verify)
        st = reads_tile(ctx, e->n, z0, z1, &check);
    if (st == PV_OK && !allocated(dset))
        st = pv_status_agree(ctx, read_fill(ctx, f, dset, e->n, z0, z1, buf));
    else if (st == PV_OK && check)
        st = read_hashed(ctx, f, dset, e, z0, z1, buf, stats, &sum, &hashed);
    else if (st == PV_OK)
        st = pv_h5_transfer(ctx, dset, false, e->n, z0, z1, buf, f->max_io, f->path, name,
                            stats, NULL);
    if (dset >= 0)
        H5Dclose(dset);
    if (st == PV_OK && check && hashed && sum != e->checksum) /* the same sum on every rank */
        st = damaged(ctx, f, e, sum);
    else if (st == PV_OK && check && !hashed)
        st = verify(ctx, f, e, z0, z1, buf);
    pv_h5_stats_end(ctx, stats, t0);
    return st;
}

void pv_h5_close(pv_ctx *ctx, pv_h5_file *f)
{
    (void)ctx;
    if (!f)
        return;
    if (f->grp >= 0)
        H5Gclose(f->grp);
    if (f->file >= 0)
        H5Fclose(f->file);
    free_info(&f->info);
    free(f->path);
    free(f);
}
