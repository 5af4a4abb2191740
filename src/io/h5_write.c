/*
 * io/h5_write: pv_h5_save_all, the collective checkpoint writer (layout in pvox/h5.h).
 *
 * Order of work, with an agreement after each step so no rank waits alone in a
 * collective: check the descriptors; rank 0 checks the directory and picks the temporary
 * names (64 random bits, io/tmpfile.c; nothing may exist under them) and the creation
 * time (broadcast); create the temporary file exclusively (MPI-IO); root attributes; per
 * grid: dataset + attributes (the checksum a placeholder of the same size); the /VTKHDF
 * group (h5_vtkhdf.c); rank 0 reserves the whole file's blocks; the metadata is flushed;
 * per grid, the collective plane transfers while a helper thread hashes the slab
 * (pvox/checksum.h, summed over ranks), each call's planes handed to the kernel's
 * writeback at once; the checksums rewritten in place; close; every rank fsyncs the temporary
 * file (delayed-allocation file systems report a full disk only here); if the blocks
 * could not be reserved, the voxels are read back and their checksums compared (Open
 * MPI 4.1's OMPIO reports a collective write that met a full disk on some ranks as a
 * success); rank 0 writes the sidecar to its own temporary name; rank 0 renames both
 * into place and syncs the directory. Any failure: close, rank 0 removes the temporary
 * files, and the old checkpoint (if any) is untouched.
 *
 * The metadata goes first and in one place: HDF5 1.10 writes it collectively, and a
 * write that fails on one rank inside that flush leaves the others waiting (ROMIO) or the
 * library half-closed (a crash at MPI_Finalize). So it is allocated in one block at the
 * start of the file (H5Pset_meta_block_size; more grids than it holds take more blocks),
 * reserved with the voxels, and flushed before any voxel is written; a full disk then
 * meets pvox's own agreed transfers. The grids' checksums and the metadata checksum
 * (meta_checksum, h5_meta.c) are written last, in place of placeholders.
 */
#include "h5_int.h"
#include "io_int.h"
#include "pvox/checksum.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* What all ranks share for one save. */
typedef struct save_names {
    char *tmp;       /* "<path>.tmp.<16 random hex digits>" */
    char *xmf;       /* sidecar, or NULL */
    char *xmf_tmp;   /* "<xmf>.tmp.<16 random hex digits>", or NULL */
    char *created;   /* "2026-12-03T07:30:00Z" */
    uint64_t *sums;  /* each grid's checksum (pvox/checksum.h) */
    bool reserved;   /* rank 0 reserved the file's blocks (else: read back and compare) */
} save_names;

static void names_free(save_names *nm)
{
    free(nm->tmp);
    free(nm->xmf);
    free(nm->xmf_tmp);
    free(nm->created);
    free(nm->sums);
}

/* Where the metadata goes: blocks of this size, the first at the start of the file,
 * holding the root, /grids and a few hundred grids' headers and attributes (see the
 * comment at the top); more grids take more blocks, between the voxels. */
#define META_BLOCK_BYTES ((hsize_t)64 << 10)

/* ---- checks ------------------------------------------------------------------------ */

static int by_name(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static pv_status check_grids(pv_ctx *ctx, const char *path, const pv_h5_grid *g, size_t ng)
{
    if (ng == 0)
        return pv_err(ctx, PV_ERANGE, "%s: no grids to save", path);
    for (size_t k = 0; k < ng; k++) {
        if (!pv_h5_name_ok(g[k].name))
            return pv_err(ctx, PV_ERANGE, "%s: '%s' cannot be a grid name in HDF5", path,
                          g[k].name ? g[k].name : "");
        if (g[k].n < 2 || g[k].z0 < 0 || g[k].z1 < g[k].z0 || g[k].z1 > g[k].n ||
            (g[k].z1 > g[k].z0 && !g[k].slab))
            return pv_err(ctx, PV_ERANGE, "%s: bad slab for grid %s", path, g[k].name);
    }
    /* names sorted, so that thousands of grids are checked in N log N, not N² */
    const char **names = malloc(ng * sizeof *names);
    if (!names)
        return pv_err(ctx, PV_ENOMEM, "out of memory");
    for (size_t k = 0; k < ng; k++)
        names[k] = g[k].name;
    qsort(names, ng, sizeof *names, by_name);
    pv_status st = PV_OK;
    for (size_t k = 1; k < ng && st == PV_OK; k++)
        if (strcmp(names[k - 1], names[k]) == 0)
            st = pv_err(ctx, PV_ERANGE, "%s: grid %s given twice", path, names[k]);
    free(names);
    return st;
}

/* Collective: the ranks' slabs of each grid must add up to n planes. */
static pv_status check_tiling(pv_ctx *ctx, const char *path, const pv_h5_grid *g, size_t ng)
{
    long long *sum = malloc(ng * sizeof *sum);
    pv_status st = PV_OK;
    if (!sum)
        st = pv_err(ctx, PV_ENOMEM, "out of memory");
    if (pv_status_agree(ctx, st) != PV_OK) {
        free(sum);
        return ctx->err_code;
    }
    for (size_t k = 0; k < ng; k++)
        sum[k] = g[k].z1 - g[k].z0;
    MPI_Allreduce(MPI_IN_PLACE, sum, (int)ng, MPI_LONG_LONG, MPI_SUM, ctx->comm);
    for (size_t k = 0; k < ng && st == PV_OK; k++)
        if (sum[k] != g[k].n)
            st = pv_err(ctx, PV_EINTERNAL, "%s: the slabs of grid %s cover %lld of %lld planes",
                        path, g[k].name, sum[k], (long long)g[k].n);
    free(sum);
    return st;
}

/* Bytes the file will take: voxels, plus metadata, plus alignment padding (see
 * pv_h5_fapl: datasets of 16 MiB and more start on a 1 MiB boundary). */
static uint64_t file_bytes(const pv_h5_grid *g, size_t ng)
{
    uint64_t total = (uint64_t)64 << 10;
    for (size_t k = 0; k < ng; k++) {
        uint64_t n = (uint64_t)g[k].n, data = n * n * n * sizeof(float);
        total += data + (data >= ((uint64_t)16 << 20) ? ((uint64_t)1 << 20) : 4096);
    }
    return total;
}

static pv_status check_space(pv_ctx *ctx, const char *path, const pv_h5_grid *g, size_t ng)
{
    uint64_t avail, need = file_bytes(g, ng);
    struct rlimit rl;
    if (getrlimit(RLIMIT_FSIZE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
        (uint64_t)rl.rlim_cur < need)
        return pv_err(ctx, PV_EIO,
                      "%s: the checkpoint needs %.1f MiB, more than the file size limit of "
                      "%.1f MiB (ulimit -f)", path, (double)need / 1048576.0,
                      (double)rl.rlim_cur / 1048576.0);
    if (!pv_h5_dir_space(path, &avail) || avail >= need)
        return PV_OK;
    return pv_err(ctx, PV_EIO,
                  "%s: no space left on device: the checkpoint needs %.1f MiB, %.1f MiB free "
                  "(an old file is replaced only once the new one is complete)",
                  path, (double)need / 1048576.0, (double)avail / 1048576.0);
}

/* Rank 0: the directory must exist and be writable, and neither the file nor its
 * sidecar may be a directory (found now, not when renaming at the end). */
static pv_status check_target(pv_ctx *ctx, const char *path, const char *xmf)
{
    struct stat sb;
    if (stat(path, &sb) == 0 && S_ISDIR(sb.st_mode))
        return pv_err(ctx, PV_EIO, "%s: is a directory", path);
    if (xmf && stat(xmf, &sb) == 0 && S_ISDIR(sb.st_mode))
        return pv_err(ctx, PV_EIO, "%s: is a directory", xmf);
    char *dir = pv_path_dir(path);
    if (!dir)
        return pv_err(ctx, PV_ENOMEM, "out of memory");
    pv_status st = PV_OK;
    if (access(dir, W_OK | X_OK) != 0)
        st = pv_err(ctx, PV_EIO, "%s: cannot write in directory '%s': %s", path, dir,
                    strerror(errno));
    free(dir);
    return st;
}

/* ---- names ------------------------------------------------------------------------- */

static char *utc_now(void)
{
    time_t t = time(NULL);
    struct tm tm;
    char buf[32];
    if (!gmtime_r(&t, &tm) || strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
        snprintf(buf, sizeof buf, "unknown");
    return strdup(buf);
}

/* Rank 0: nothing may exist under a temporary name (not even a dangling link), so the
 * exclusive creation below cannot meet something planted there. */
static pv_status check_free(pv_ctx *ctx, const char *path, const char *tmp)
{
    struct stat sb;
    if (tmp && lstat(tmp, &sb) == 0)
        return pv_err(ctx, PV_EIO, "%s: cannot create '%s': %s", path, tmp, strerror(EEXIST));
    return PV_OK;
}

/* Rank 0: check the target (and the free space), choose the temporary names and the
 * creation time; "<tmp>\n<xmf tmp or empty>\n<created>" into *blob. */
static pv_status names_rank0(pv_ctx *ctx, const char *path, const pv_h5_grid *g, size_t ng,
                             const pv_h5_opts *o, char **blob)
{
    char *xmf = o->no_xdmf ? NULL : pv_h5_xdmf_path(path);
    char *tmp = NULL, *xmf_tmp = NULL; /* the output rule (io_int.h): regular files only */
    char *now = utc_now();
    pv_status st = pv_io_regular_temp(ctx, path, "checkpoints", &tmp);
    if (st == PV_OK && xmf)
        st = pv_io_regular_temp(ctx, xmf, "checkpoints", &xmf_tmp);
    if (st == PV_OK && (!now || (!o->no_xdmf && !xmf)))
        st = pv_err(ctx, PV_ENOMEM, "out of memory");
    if (st == PV_OK)
        st = check_target(ctx, path, xmf);
    if (st == PV_OK && !o->skip_space_check)
        st = check_space(ctx, path, g, ng);
    if (st == PV_OK && (st = check_free(ctx, path, tmp)) == PV_OK)
        st = check_free(ctx, xmf, xmf_tmp);
    if (st == PV_OK && !(*blob = pv_asprintf("%s\n%s\n%s", tmp, xmf_tmp ? xmf_tmp : "", now)))
        st = pv_err(ctx, PV_ENOMEM, "out of memory");
    free(xmf);
    free(tmp);
    free(xmf_tmp);
    free(now);
    return st;
}

/* The next line of *cursor (its newline replaced), or "" past the end. */
static const char *next_line(char **cursor)
{
    char *line = *cursor, *nl = strchr(line, '\n');
    if (nl) {
        *nl = '\0';
        *cursor = nl + 1;
    } else {
        *cursor = line + strlen(line);
    }
    return line;
}

/* Collective: every rank gets rank 0's names (random bits chosen once, broadcast). */
static pv_status make_names(pv_ctx *ctx, const char *path, const pv_h5_grid *g, size_t ng,
                            const pv_h5_opts *o, save_names *nm)
{
    memset(nm, 0, sizeof *nm);
    char *blob = NULL;
    size_t len = 0;
    pv_status st = ctx->rank == 0 ? names_rank0(ctx, path, g, ng, o, &blob) : PV_OK;
    len = blob ? strlen(blob) : 0;
    if ((st = pv_status_agree(ctx, st)) != PV_OK) {
        free(blob);
        return st;
    }
    if ((st = pv_bcast_bytes(ctx, &blob, &len)) != PV_OK) {
        if (ctx->rank == 0)
            free(blob);
        return st;
    }
    char *cursor = blob;
    const char *tmp = next_line(&cursor), *xmf_tmp = next_line(&cursor);
    nm->tmp = strdup(tmp);
    nm->created = strdup(next_line(&cursor));
    if (!o->no_xdmf) {
        nm->xmf = pv_h5_xdmf_path(path);
        nm->xmf_tmp = strdup(xmf_tmp);
    }
    free(blob);
    st = PV_OK;
    if (!nm->tmp || !nm->created || (!o->no_xdmf && (!nm->xmf || !nm->xmf_tmp)))
        st = pv_err(ctx, PV_ENOMEM, "out of memory");
    return pv_status_agree(ctx, st);
}

/* ---- attributes -------------------------------------------------------------------- */

static herr_t root_attrs(hid_t file, const save_names *nm, const char *script,
                         const pv_h5_opts *o)
{
    if (o->job_hash && pv_h5_attr_string(file, PV_H5_ATTR_JOB_HASH, o->job_hash) < 0)
        return -1;
    if (o->job_state && pv_h5_attr_string(file, PV_H5_ATTR_JOB_STATE, o->job_state) < 0)
        return -1;
    int format = PV_H5_FORMAT_VERSION;
    if (pv_h5_attr_write(file, PV_H5_ATTR_FORMAT, H5T_STD_I32LE, H5T_NATIVE_INT, 0, 0,
                         &format) < 0 ||
        pv_h5_attr_string(file, PV_H5_ATTR_VERSION, PV_VERSION_STRING) < 0 ||
        pv_h5_attr_string(file, PV_H5_ATTR_CREATED, nm->created) < 0 ||
        pv_h5_attr_string(file, PV_H5_ATTR_SCRIPT, script ? script : "") < 0)
        return -1;
    /* a placeholder of the same size, rewritten in place by store_checksums */
    uint64_t zero = 0;
    return pv_h5_attr_write(file, PV_H5_ATTR_META_CHECKSUM, H5T_STD_U64LE, H5T_NATIVE_UINT64,
                            0, 0, &zero);
}

static herr_t grid_attrs(hid_t dset, const pv_h5_grid *g, uint64_t checksum)
{
    for (int a = 0; a < 3; a++) {
        double r[2] = {g->min[a], g->max[a]};
        if (pv_h5_attr_write(dset, pv_h5_range_attr[a], H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, 1, 2,
                             r) < 0)
            return -1;
    }
    long long n = g->n;
    if (pv_h5_attr_write(dset, PV_H5_ATTR_SIZE, H5T_STD_I64LE, H5T_NATIVE_LLONG, 0, 0, &n) < 0)
        return -1;
    return pv_h5_attr_write(dset, PV_H5_ATTR_CHECKSUM, H5T_STD_U64LE, H5T_NATIVE_UINT64, 0, 0,
                      &checksum);
}

/* ---- datasets ---------------------------------------------------------------------- */

/* /grids, tracking creation order so a load sees the grids in the order they were saved. */
static hid_t make_group(hid_t file)
{
    hid_t gcpl = H5Pcreate(H5P_GROUP_CREATE);
    if (gcpl < 0)
        return -1;
    hid_t grp = -1;
    if (H5Pset_link_creation_order(gcpl, H5P_CRT_ORDER_TRACKED | H5P_CRT_ORDER_INDEXED) >= 0)
        grp = H5Gcreate2(file, PV_H5_GROUP, H5P_DEFAULT, gcpl, H5P_DEFAULT);
    hid_t e = grp < 0 ? pv_h5_err_save() : -1;
    H5Pclose(gcpl);
    pv_h5_err_restore(e);
    return grp;
}

/* Contiguous, no filters, allocated at creation, never filled (every voxel is written). */
static hid_t make_dataset(hid_t grp, const pv_h5_grid *g)
{
    hsize_t dims[3] = {(hsize_t)g->n, (hsize_t)g->n, (hsize_t)g->n};
    hid_t space = H5Screate_simple(3, dims, NULL);
    hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
    hid_t dset = -1;
    if (space >= 0 && dcpl >= 0 && H5Pset_layout(dcpl, H5D_CONTIGUOUS) >= 0 &&
        H5Pset_alloc_time(dcpl, H5D_ALLOC_TIME_EARLY) >= 0 &&
        H5Pset_fill_time(dcpl, H5D_FILL_TIME_NEVER) >= 0)
        dset = H5Dcreate2(grp, g->name, H5T_IEEE_F32LE, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    hid_t e = dset < 0 ? pv_h5_err_save() : -1;
    if (dcpl >= 0)
        H5Pclose(dcpl);
    if (space >= 0)
        H5Sclose(space);
    pv_h5_err_restore(e);
    return dset;
}

static pv_status hdf5_fail(pv_ctx *ctx, pv_status code, const char *path, const char *what)
{
    char why[256];
    pv_h5_last_error(why, sizeof why);
    return pv_err(ctx, code, "%s: %s%s%s", path, what, why[0] ? ": " : "", why);
}

/* Collective: one grid's dataset (allocated now: early allocation) and attributes. */
static pv_status create_grid(pv_ctx *ctx, const char *path, hid_t grp, const pv_h5_grid *g,
                             uint64_t checksum, hid_t *dset)
{
    pv_status st = PV_OK;
    *dset = make_dataset(grp, g);
    if (*dset < 0)
        st = hdf5_fail(ctx, PV_EIO, path, "cannot create the dataset");
    else if (grid_attrs(*dset, g, checksum) < 0)
        st = hdf5_fail(ctx, PV_EHDF5, path, "cannot write attributes");
    return pv_status_agree(ctx, st);
}

/* Rank 0: reserve the file's blocks before any voxel is written. A full disk then shows
 * up here, cleanly, instead of inside a collective write: Open MPI 4.1's OMPIO reported
 * an ENOSPC met by an aggregator during a collective write as success (seen at 3 ranks
 * on a full tmpfs), which would publish a checkpoint with holes. The whole file is
 * reserved, metadata included (HDF5's end of allocated space, past the last dataset).
 * posix_fallocate allocates extents without writing them on ext4, xfs and tmpfs;
 * elsewhere glibc emulates it, or it is refused (EINVAL, EOPNOTSUPP) and we go on
 * unreserved (*reserved false: the voxels are read back after the write). */
static pv_status reserve_space(pv_ctx *ctx, const char *path, const char *tmp, hid_t file,
                               const hid_t *dset, size_t ng, bool *reserved)
{
    *reserved = false;
    hsize_t size = 0;
    uint64_t end = 0;
    if (H5Fget_filesize(file, &size) >= 0) {
        end = (uint64_t)size;
    } else {
        /* HDF5's MPI-IO driver forgets the file's size after its first write, which the
         * metadata cache makes once it evicts entries (a few thousand grids), and
         * H5Fget_eoa is only for SWMR drivers: the size so far plus the metadata block
         * HDF5 may be filling (below; the datasets' ends are added next) */
        struct stat sb;
        if (stat(tmp, &sb) != 0)
            return pv_err(ctx, PV_EIO, "%s: cannot find the size of '%s': %s", path, tmp,
                          strerror(errno));
        end = (uint64_t)sb.st_size + META_BLOCK_BYTES;
    }
    for (size_t k = 0; k < ng; k++) {
        haddr_t off = H5Dget_offset(dset[k]);
        if (off == HADDR_UNDEF)
            return hdf5_fail(ctx, PV_EHDF5, path, "cannot locate a dataset in the file");
        uint64_t e = (uint64_t)off + (uint64_t)H5Dget_storage_size(dset[k]);
        if (e > end)
            end = e;
    }
    int fd = open(tmp, O_WRONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return pv_err(ctx, PV_EIO, "%s: cannot open '%s': %s", path, tmp, strerror(errno));
    int rc = posix_fallocate(fd, 0, (off_t)end);
    close(fd);
    if (rc == EINVAL || rc == EOPNOTSUPP)
        return PV_OK;
    *reserved = rc == 0;
    if (rc == 0)
        return PV_OK;
    if (rc == ENOSPC || rc == EFBIG)
        return pv_err(ctx, PV_EIO, "%s: %s: cannot reserve %.1f MiB for the file", path,
                      rc == ENOSPC ? "no space left on device" : "file too large",
                      (double)end / 1048576.0);
    return pv_err(ctx, PV_EIO, "%s: cannot reserve %.1f MiB for the file: %s", path,
                  (double)end / 1048576.0, strerror(rc));
}

/* Collective: reserve (rank 0; every rank learns whether it worked), then flush the
 * metadata so that none is left to write once the voxels go out. */
static pv_status prepare_voxels(pv_ctx *ctx, const char *path, const save_names *nm,
                                hid_t file, const hid_t *dset, size_t ng, bool *reserved)
{
    int ok = 0;
    pv_status st = PV_OK;
    if (ctx->rank == 0) {
        bool r = false;
        st = reserve_space(ctx, path, nm->tmp, file, dset, ng, &r);
        ok = r;
    }
    if ((st = pv_status_agree(ctx, st)) != PV_OK)
        return st;
    MPI_Bcast(&ok, 1, MPI_INT, 0, ctx->comm);
    *reserved = ok != 0;
    if (H5Fflush(file, H5F_SCOPE_GLOBAL) < 0)
        st = hdf5_fail(ctx, PV_EIO, path, "cannot write the file's metadata");
    return pv_status_agree(ctx, st);
}

/* Writeback as the voxels go out: after each call, the kernel is told to start writing
 * the planes just written and to drop those of the call before, written by then
 * (POSIX_FADV_DONTNEED starts writeback of dirty pages and frees clean ones). The disk
 * works from the first call instead of from the dirty-memory threshold or the fsync,
 * and the file does not fill the page cache. */
typedef struct write_kick {
    int fd;          /* the temporary file (-1: no hints) */
    uint64_t base;   /* file offset of the dataset's first voxel */
    uint64_t plane;  /* bytes per plane */
    int64_t prev_z, prev_nz;
} write_kick;

static void kick_after_write(void *ud, const float *planes, int64_t zs, int64_t nz,
                             int64_t zs_next, int64_t nz_next)
{
    write_kick *w = ud;
    (void)planes;
    (void)zs_next;
    (void)nz_next;
    if (w->fd < 0)
        return;
    (void)posix_fadvise(w->fd, (off_t)(w->base + (uint64_t)zs * w->plane),
                        (off_t)((uint64_t)nz * w->plane), POSIX_FADV_DONTNEED);
    if (w->prev_nz > 0)
        (void)posix_fadvise(w->fd, (off_t)(w->base + (uint64_t)w->prev_z * w->plane),
                            (off_t)((uint64_t)w->prev_nz * w->plane), POSIX_FADV_DONTNEED);
    w->prev_z = zs;
    w->prev_nz = nz;
}

/* Collective: one grid's voxels, hashed by the hasher thread while they are written (the
 * checksum is stored after the transfers, store_checksums); the sum over ranks into
 * *sum. */
static pv_status write_one(pv_ctx *ctx, const char *path, int fd, hid_t dset,
                           const pv_h5_grid *g, pv_h5_hasher *hs, uint64_t *sum,
                           const pv_h5_opts *o, pv_h5_stats *stats)
{
    hs->n = g->n;
    pv_h5_hasher_push(hs, g->slab, g->z0, g->z1 - g->z0);
    haddr_t off = H5Dget_offset(dset);
    write_kick w = {off == HADDR_UNDEF ? -1 : fd, off == HADDR_UNDEF ? 0 : (uint64_t)off,
                    (uint64_t)g->n * (uint64_t)g->n * sizeof(float), 0, 0};
    pv_h5_hook hook = {kick_after_write, &w, false};
    size_t max_io = o->max_io_bytes ? o->max_io_bytes : PV_H5_DEFAULT_MAX_IO;
    if (max_io > PV_H5_PIPE_BYTES)
        max_io = PV_H5_PIPE_BYTES;
    pv_status st = pv_h5_transfer(ctx, dset, true, g->n, g->z0, g->z1, (float *)g->slab,
                                  max_io, path, g->name, stats, &hook);
    return pv_h5_sum_ranks(ctx, st, pv_h5_hasher_take(hs), sum);
}

/* Rewrite attribute `name` of loc, created with a placeholder of the same size. */
static herr_t rewrite_u64(hid_t loc, const char *name, uint64_t v)
{
    hid_t a = H5Aopen(loc, name, H5P_DEFAULT);
    herr_t rc = a < 0 ? -1 : H5Awrite(a, H5T_NATIVE_UINT64, &v);
    if (a >= 0 && H5Aclose(a) < 0)
        rc = -1;
    return rc;
}

/* Collective: the grids' checksums and the metadata checksum (h5_meta.c: what a reader
 * will read, here from what was written) into the attributes created with placeholders
 * (same size: rewritten in place in the metadata block, flushed by the close). */
static pv_status store_checksums(pv_ctx *ctx, const char *path, hid_t file, const hid_t *dset,
                                 const save_names *nm, const pv_h5_grid *g, size_t ng,
                                 const pv_h5_opts *o)
{
    pv_status st = PV_OK;
    uint64_t meta;
    pv_h5_meta_head(&meta, PV_H5_FORMAT_VERSION, PV_VERSION_STRING, nm->created,
                    o->script ? o->script : "", o->job_hash ? o->job_hash : "",
                    o->job_state ? o->job_state : "", ng);
    for (size_t k = 0; k < ng && st == PV_OK; k++) {
        haddr_t off = H5Dget_offset(dset[k]);
        pv_h5_meta_grid(&meta, g[k].name, g[k].n, g[k].min, g[k].max, true, nm->sums[k],
                        off == HADDR_UNDEF ? UINT64_MAX : (uint64_t)off, 1);
        if (rewrite_u64(dset[k], PV_H5_ATTR_CHECKSUM, nm->sums[k]) < 0)
            st = hdf5_fail(ctx, PV_EHDF5, path, "cannot write attributes");
    }
    if (st == PV_OK && rewrite_u64(file, PV_H5_ATTR_META_CHECKSUM, meta) < 0)
        st = hdf5_fail(ctx, PV_EHDF5, path, "cannot write attributes");
    return pv_status_agree(ctx, st);
}

/* The grid whose geometry the /VTKHDF ImageData takes: o->vtk_grid if saved, else the
 * first. */
static size_t vtk_reference(const pv_h5_grid *g, size_t ng, const pv_h5_opts *o)
{
    for (size_t k = 0; o->vtk_grid && k < ng; k++)
        if (strcmp(g[k].name, o->vtk_grid) == 0)
            return k;
    return 0;
}

/* Collective: datasets and attributes of every grid, the /VTKHDF view of them, the space
 * reserved, then the voxels. */
static pv_status write_grids(pv_ctx *ctx, const char *path, hid_t file, hid_t grp,
                             save_names *nm, const pv_h5_grid *grids, size_t ng,
                             const pv_h5_opts *o, pv_h5_stats *stats)
{
    hid_t *dset = malloc(ng * sizeof *dset);
    pv_status st = pv_status_agree(ctx, dset ? PV_OK : pv_err(ctx, PV_ENOMEM, "out of memory"));
    if (st != PV_OK)
        return st;
    size_t made = 0;
    for (; made < ng && st == PV_OK; made++)
        st = create_grid(ctx, path, grp, &grids[made], nm->sums[made], &dset[made]);
    if (st == PV_OK && pv_h5_vtkhdf_write(file, grids, ng, vtk_reference(grids, ng, o)) < 0)
        st = hdf5_fail(ctx, PV_EHDF5, path, "cannot write the /VTKHDF group");
    st = pv_status_agree(ctx, st);
    if (st == PV_OK)
        st = prepare_voxels(ctx, path, nm, file, dset, ng, &nm->reserved);
    /* progress in bytes of the whole file's voxels (rank 0 draws; the transfers are
     * collective, so its share advances with everybody's), updated after each grid */
    int64_t total = 0, done = 0;
    for (size_t k = 0; k < ng; k++)
        total += (int64_t)grids[k].n * grids[k].n * grids[k].n * (int64_t)sizeof(float);
    pv_progress bar;
    pv_progress_begin_units(ctx, &bar, "save grids", total, "bytes");
    pv_h5_hasher hs;
    pv_h5_hasher_start(&hs, 2, ctx->nthreads);
    int fd = st == PV_OK ? open(nm->tmp, O_WRONLY | O_NOFOLLOW | O_CLOEXEC) : -1;
    for (size_t k = 0; k < ng && st == PV_OK; k++) {
        st = write_one(ctx, path, fd, dset[k], &grids[k], &hs, &nm->sums[k], o, stats);
        done += (int64_t)grids[k].n * grids[k].n * grids[k].n * (int64_t)sizeof(float);
        pv_progress_update(ctx, &bar, done);
    }
    pv_h5_hasher_stop(&hs);
    if (fd >= 0)
        close(fd);
    if (st == PV_OK)
        st = store_checksums(ctx, path, file, dset, nm, grids, ng, o);
    if (st == PV_OK)
        pv_progress_end(ctx, &bar);
    else
        pv_progress_stop(ctx, &bar);
    for (size_t k = 0; k < made; k++)
        if (dset[k] >= 0 && H5Dclose(dset[k]) < 0 && st == PV_OK)
            st = hdf5_fail(ctx, PV_EIO, path, "cannot close the dataset");
    free(dset);
    return pv_status_agree(ctx, st);
}

/* After a failed write (every rank has returned from it: the failure was agreed), give
 * the space of the doomed temporary file back before H5Fclose flushes its metadata: on a
 * full disk that flush could fail too, and when H5Fclose fails HDF5 1.10 leaves a
 * half-destroyed file object that crashes the library's own clean-up at MPI_Finalize
 * (seen with a file size limit). The metadata lands in a sparse file removed right after. */
static void free_space(const char *tmp)
{
    int fd = open(tmp, O_WRONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return; /* nothing more to do: the file is removed after the close anyway */
    if (ftruncate(fd, 0) != 0) {
        /* likewise */
    }
    close(fd);
}


/* Collective: the temporary file, created exclusively (an existing file or link of that
 * name is an error, never followed or truncated). */
static hid_t create_tmp(pv_ctx *ctx, const char *path, const save_names *nm,
                        const pv_h5_opts *o, pv_status *st)
{
    hid_t fapl = pv_h5_fapl(ctx, o->aggregate);
    hid_t file = -1;
    if (fapl >= 0 && H5Pset_meta_block_size(fapl, META_BLOCK_BYTES) >= 0)
        file = H5Fcreate(nm->tmp, H5F_ACC_EXCL, H5P_DEFAULT, fapl);
    *st = PV_OK;
    if (file < 0) /* before the next HDF5 call clears the error stack */
        *st = hdf5_fail(ctx, PV_EIO, path, "cannot create the file");
    if (fapl >= 0)
        H5Pclose(fapl);
    return file;
}

/* Collective: create the temporary file and write everything into it, then close it. */
static pv_status write_file(pv_ctx *ctx, const char *path, save_names *nm,
                            const pv_h5_grid *grids, size_t ng, const pv_h5_opts *o,
                            pv_h5_stats *stats)
{
    pv_status st;
    hid_t file = create_tmp(ctx, path, nm, o, &st);
    if ((st = pv_status_agree(ctx, st)) != PV_OK)
        return st;
    hid_t grp = -1;
    if (root_attrs(file, nm, o->script, o) < 0)
        st = hdf5_fail(ctx, PV_EIO, path, "cannot write attributes");
    else if ((grp = make_group(file)) < 0)
        st = hdf5_fail(ctx, PV_EIO, path, "cannot create " PV_H5_GROUP);
    st = pv_status_agree(ctx, st);
    if (st == PV_OK)
        st = write_grids(ctx, path, file, grp, nm, grids, ng, o, stats);
    if (grp >= 0 && H5Gclose(grp) < 0 && st == PV_OK)
        st = hdf5_fail(ctx, PV_EIO, path, "cannot close " PV_H5_GROUP);
    if (st != PV_OK && ctx->rank == 0)
        free_space(nm->tmp);
    /* closing rewrites the superblock in place (its blocks are the file's already) */
    if (H5Fclose(file) < 0 && st == PV_OK)
        st = hdf5_fail(ctx, PV_EIO, path, "cannot write the file");
    return pv_status_agree(ctx, st);
}

/* ---- finishing --------------------------------------------------------------------- */

/* fsync a file (or directory) by name; ENOSPC and EIO of delayed writes show up here.
 * `flags` adds O_NOFOLLOW for temporary files. */
static int sync_path(const char *p, int flags)
{
    int fd = open(p, O_RDONLY | O_CLOEXEC | flags);
    if (fd < 0)
        return -1;
    int rc = fsync(fd);
    int e = errno;
    close(fd);
    errno = e;
    return rc;
}

/* Collective: every rank flushes what it wrote (on a parallel file system each node's
 * cache holds its own part). */
static pv_status sync_all(pv_ctx *ctx, const char *path, const save_names *nm)
{
    pv_status st = PV_OK;
    if (sync_path(nm->tmp, O_NOFOLLOW) != 0)
        st = pv_err(ctx, PV_EIO, "%s: cannot write the file: %s", path, strerror(errno));
    return pv_status_agree(ctx, st);
}

/* Rank 0: write the sidecar under its temporary name and flush it. */
static pv_status write_sidecar(pv_ctx *ctx, const char *path, const save_names *nm,
                               const pv_h5_grid *grids, size_t ng)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    pv_status st = pv_xdmf_write(ctx, nm->xmf_tmp, base, grids, ng);
    if (st == PV_OK && sync_path(nm->xmf_tmp, O_NOFOLLOW) != 0)
        st = PV_EIO;
    if (st != PV_OK) {
        int e = errno;
        pv_err_clear(ctx); /* name the sidecar, not its temporary name */
        st = pv_err(ctx, PV_EIO, "%s: cannot write: %s", nm->xmf, strerror(e));
    }
    return st;
}

static void sync_dir_of(const char *path)
{
    char *dir = pv_path_dir(path);
    if (!dir)
        return;
    (void)sync_path(dir, 0); /* best effort: not every file system allows it */
    free(dir);
}

/* Rank 0: move the finished files into place (checkpoint first: it is what matters). */
static pv_status publish(pv_ctx *ctx, const char *path, const save_names *nm)
{
    if (pv_io_rename_temp(nm->tmp) != 0) /* over the file a link reaches */
        return pv_err(ctx, PV_EIO, "%s: cannot rename '%s' into place: %s", path, nm->tmp,
                      strerror(errno));
    pv_status st = PV_OK;
    if (nm->xmf && pv_io_rename_temp(nm->xmf_tmp) != 0)
        st = pv_err(ctx, PV_EIO, "%s: cannot rename '%s' into place: %s", nm->xmf,
                    nm->xmf_tmp, strerror(errno));
    sync_dir_of(path);
    return st;
}

/* ---- checksums --------------------------------------------------------------------- */

/* Collective: room for each grid's checksum (zero until the voxels are written). */
static pv_status alloc_sums(pv_ctx *ctx, size_t ng, uint64_t **out)
{
    *out = calloc(ng, sizeof **out);
    return pv_status_agree(ctx, *out ? PV_OK : pv_err(ctx, PV_ENOMEM, "out of memory"));
}

/* Voxels read back per rank per step, at most (one plane if a plane is larger). */
#define READ_BACK_BYTES ((size_t)64 << 20)

/* Collective: read one grid's planes back in steps (every rank makes the same number of
 * reads) and sum their hashes; the sum over ranks into *sum. */
static pv_status read_back(pv_ctx *ctx, pv_h5_file *f, const pv_h5_grid *g, uint64_t *sum)
{
    size_t plane = (size_t)g->n * (size_t)g->n;
    int64_t step = (int64_t)(READ_BACK_BYTES / (plane * sizeof(float)));
    if (step < 1)
        step = 1;
    int64_t mine = g->z1 - g->z0;
    long long steps = (mine + step - 1) / step;
    MPI_Allreduce(MPI_IN_PLACE, &steps, 1, MPI_LONG_LONG, MPI_MAX, ctx->comm);
    size_t nbytes = (size_t)(mine < step ? mine : step) * plane * sizeof(float);
    float *buf = nbytes ? pv_alloc(ctx, nbytes) : NULL;
    pv_status st = pv_status_agree(ctx, nbytes && !buf ? ctx->err_code : PV_OK);
    uint64_t local = 0;
    for (long long k = 0; k < steps && st == PV_OK; k++) {
        int64_t zs = g->z0 + k * step, ze = zs + step;
        if (zs > g->z1)
            zs = g->z1;
        if (ze > g->z1)
            ze = g->z1;
        st = pv_h5_read(ctx, f, g->name, zs, ze, buf, NULL);
        if (st == PV_OK)
            local += pv_checksum_slab(buf, g->n, zs, ze);
    }
    pv_free(ctx, buf, nbytes);
    return pv_h5_sum_ranks(ctx, st, local, sum);
}

/* Collective: where the blocks were not reserved, a full disk may have been met inside a
 * collective write that reported success (see the top): read the voxels back from the
 * temporary file and compare their checksums before it replaces anything. */
static pv_status verify_written(pv_ctx *ctx, const char *path, const save_names *nm,
                                const pv_h5_grid *grids, size_t ng)
{
    pv_h5_opts ro = {.no_verify = true};
    pv_h5_file *f = pv_h5_open(ctx, nm->tmp, &ro);
    if (!f)
        return ctx->err_code ? ctx->err_code : PV_EIO;
    pv_status st = PV_OK;
    for (size_t k = 0; k < ng && st == PV_OK; k++) {
        uint64_t sum = 0;
        st = read_back(ctx, f, &grids[k], &sum);
        if (st == PV_OK && sum != nm->sums[k]) /* the same sums on every rank */
            st = pv_err(ctx, PV_EIO, "%s: the voxels of %s written to the file read back "
                        "differently (checksum %016llx, expected %016llx): a write failed "
                        "unreported, probably a full disk; the file was not replaced", path,
                        grids[k].name, (unsigned long long)sum, (unsigned long long)nm->sums[k]);
    }
    pv_h5_close(ctx, f);
    return st;
}

pv_status pv_h5_save_all(pv_ctx *ctx, const char *path, const pv_h5_grid *grids,
                         size_t ngrids, const pv_h5_opts *opt, pv_h5_stats *stats)
{
    pv_h5_opts o = {0};
    if (opt)
        o = *opt;
    pv_h5_stats local;
    if (!stats)
        stats = &local;
    pv_h5_quiet();
    pv_h5_stats_begin(ctx, stats);
    double t0 = MPI_Wtime();
    save_names nm = {0};
    pv_status st = pv_status_agree(ctx, check_grids(ctx, path, grids, ngrids));
    if (st == PV_OK)
        st = check_tiling(ctx, path, grids, ngrids);
    if (st == PV_OK)
        st = make_names(ctx, path, grids, ngrids, &o, &nm);
    bool created = st == PV_OK;
    if (st == PV_OK) /* the checksums are computed while the voxels are written */
        st = alloc_sums(ctx, ngrids, &nm.sums);
    double t1 = MPI_Wtime();
    if (st == PV_OK)
        st = write_file(ctx, path, &nm, grids, ngrids, &o, stats);
    double t2 = MPI_Wtime();
    if (st == PV_OK)
        st = sync_all(ctx, path, &nm);
    double t3 = MPI_Wtime();
    if (st == PV_OK && !nm.reserved)
        st = verify_written(ctx, path, &nm, grids, ngrids);
    pv_log(ctx, PV_LOG_DEBUG, "h5", "vsave %s: prepare %.3f s, write and checksums %.3f s "
           "(transfers %.3f s), fsync %.3f s, read back %.3f s", path, t1 - t0, t2 - t1,
           stats->io_seconds, t3 - t2, MPI_Wtime() - t3);
    if (st == PV_OK && nm.xmf) {
        pv_status s0 = ctx->rank == 0 ? write_sidecar(ctx, path, &nm, grids, ngrids) : PV_OK;
        st = pv_status_agree(ctx, s0);
    }
    if (st == PV_OK)
        st = pv_status_agree(ctx, ctx->rank == 0 ? publish(ctx, path, &nm) : PV_OK);
    if (st == PV_OK && o.checksums)
        memcpy(o.checksums, nm.sums, ngrids * sizeof *nm.sums);
    if (st != PV_OK && created && ctx->rank == 0) {
        /* every rank has closed the file (the last step agreed); after a rename these
         * names are gone and unlink does nothing */
        unlink(nm.tmp);
        if (nm.xmf_tmp)
            unlink(nm.xmf_tmp);
    }
    names_free(&nm);
    pv_h5_stats_end(ctx, stats, t0);
    return st;
}
