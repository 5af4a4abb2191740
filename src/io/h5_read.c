/*
 * io/h5_read: opening a checkpoint, reading its metadata, and the collective plane read.
 *
 * Rank 0 first looks at the file alone (exists, readable, HDF5 signature) so the common
 * mistakes get a precise message; then it reads, checks and checksums the metadata in a
 * child process (h5_meta.c: libhdf5 may crash on damaged metadata) and broadcasts it, so
 * all ranks see the same entries in the same order; only then does every rank open the
 * file with MPI-IO. Each grid's type, shape and attributes are checked once, in that
 * read, and kept as an entry's "problem" text; a read of that grid reports it. A grid read whole (the ranks' plane
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

/* HDF5's signature at offset 0, 512, 1024, ... (a user block may come first). */
static bool has_signature(const char *path)
{
    static const unsigned char sig[8] = {0x89, 'H', 'D', 'F', '\r', '\n', 0x1a, '\n'};
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return true; /* the open below says why */
    bool found = false;
    unsigned char buf[8];
    for (off_t off = 0; !found && off < ((off_t)1 << 40); off = off ? 2 * off : 512)
        if (pread(fd, buf, 8, off) != 8)
            break;
        else
            found = memcmp(buf, sig, 8) == 0;
    close(fd);
    return found;
}

pv_status pv_h5_precheck(pv_ctx *ctx, const char *path)
{
    struct stat sb;
    if (stat(path, &sb) != 0)
        return pv_err(ctx, PV_EIO, "%s: %s", path,
                      errno == ENOENT ? "no such file" : strerror(errno));
    if (S_ISDIR(sb.st_mode))
        return pv_err(ctx, PV_EIO, "%s: is a directory", path);
    if (access(path, R_OK) != 0)
        return pv_err(ctx, PV_EIO, "%s: %s", path, strerror(errno));
    /* a file that is not HDF5 at all, read with nothing but read(2) (the scan, a child
     * process, has libhdf5 read the rest) */
    if (!has_signature(path))
        return pv_err(ctx, PV_EIO, "%s: not an HDF5 file", path);
    return PV_OK;
}

/* The open failed: say why. */
static pv_status open_failed(pv_ctx *ctx, const char *path)
{
    bool io = false;
    char *msg = pv_h5_open_failure(path, &io);
    pv_status st = pv_err(ctx, io ? PV_EIO : PV_EHDF5, "%s", msg ? msg : path);
    free(msg);
    return st;
}

/* ---- the metadata, read by rank 0's scan (h5_meta.c) ------------------------------------- */

/* Collective: rank 0 scans the file's metadata in a child process and broadcasts what it
 * read; every rank decodes it into f->info. The file's own errors (damaged, not a
 * checkpoint) come back as the scan's message, recorded on every rank. */
static pv_status read_info(pv_ctx *ctx, pv_h5_file *f)
{
    char *blob = NULL;
    size_t len = 0;
    pv_status st = PV_OK;
    if (ctx->rank == 0) {
        char *why = NULL;
        int rc = pv_h5_scan(f->path, &blob, &len, &why);
        if (rc == -2)
            st = pv_err(ctx, PV_ENOMEM, "out of memory");
        else if (rc != 0)
            st = pv_err(ctx, PV_EIO, "%s", why ? why : "cannot read the metadata");
        free(why);
    }
    if ((st = pv_status_agree(ctx, st)) != PV_OK)
        return st;
    if ((st = pv_bcast_bytes(ctx, &blob, &len)) != PV_OK) {
        if (ctx->rank == 0)
            free(blob);
        return st;
    }
    char *err = NULL;
    int rc = pv_h5_scan_decode(blob, len, &f->info, &err);
    free(blob);
    if (rc == 1 || rc == 2)
        st = pv_err(ctx, rc == 1 ? PV_EIO : PV_EHDF5, "%s", err);
    else if (rc == -2)
        st = pv_err(ctx, PV_ENOMEM, "out of memory");
    else if (rc != 0)
        /* a child whose end went unseen (SIGCHLD ignored) but whose report is cut short */
        st = pv_err(ctx, PV_EIO, "%s: damaged: its HDF5 metadata cannot be read (the reading "
                    "process ended early)", f->path);
    free(err);
    return pv_status_agree(ctx, st);
}

/* ---- public ------------------------------------------------------------------------ */

pv_h5_file *pv_h5_open(pv_ctx *ctx, const char *path, const pv_h5_opts *opt)
{
    pv_h5_quiet();
    pv_status st = pv_status_agree(ctx, ctx->rank == 0 ? pv_h5_precheck(ctx, path) : PV_OK);
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
    /* the metadata first, read where damage cannot crash the run (h5_meta.c); the ranks
     * then walk only what that read walked without harm */
    if (read_info(ctx, f) != PV_OK) {
        f->file = -1;
        pv_h5_close(ctx, f);
        return NULL;
    }
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
    if ((f->grp = H5Gopen2(f->file, PV_H5_GROUP, H5P_DEFAULT)) < 0)
        st = pv_err(ctx, PV_EHDF5, "%s: cannot open " PV_H5_GROUP, path);
    if (pv_status_agree(ctx, st) != PV_OK) {
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
    pv_h5_info_free(&f->info);
    free(f->path);
    free(f);
}
