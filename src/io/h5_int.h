/*
 * io/h5 private: helpers shared by h5_write.c, h5_read.c and h5_common.c.
 */
#ifndef PV_IO_H5_INT_H
#define PV_IO_H5_INT_H

#include <hdf5.h>
#include <pthread.h>

#include "pvox/h5.h"

#define PV_H5_GROUP "/grids"

/* Attribute names (README "Checkpoints", pvox/h5.h). */
#define PV_H5_ATTR_FORMAT "pvox_format"
#define PV_H5_ATTR_VERSION "pvox_version"
#define PV_H5_ATTR_CREATED "created"
#define PV_H5_ATTR_SCRIPT "script"
#define PV_H5_ATTR_JOB_HASH "job_hash"
#define PV_H5_ATTR_JOB_STATE "job_state"
#define PV_H5_ATTR_SIZE "size"
#define PV_H5_ATTR_CHECKSUM "checksum"
#define PV_H5_ATTR_META_CHECKSUM "meta_checksum"
extern const char *const pv_h5_range_attr[3]; /* "vxrange", "vyrange", "vzrange" */

/* Write attribute `name` of loc: scalar (rank 0) or a 1-D array of `dim` elements, file
 * type ftype, memory type mtype. <0 on error (the HDF5 error stack kept). */
herr_t pv_h5_attr_write(hid_t loc, const char *name, hid_t ftype, hid_t mtype, int rank,
                        hsize_t dim, const void *val);
/* A fixed-length ASCII string attribute: NUL-terminated (its size counts the NUL), or
 * with `exact` of exactly strlen(value) bytes, NUL-padded, as numpy's fixed strings (VTK
 * 9.2's HDF reader compares all of the attribute's bytes with "ImageData"). <0 on error. */
herr_t pv_h5_attr_fixed(hid_t loc, const char *name, const char *value, bool exact);
#define pv_h5_attr_string(loc, name, value) pv_h5_attr_fixed(loc, name, value, false)

/* Where node 0 of axis `a` (0 x, 1 y, 2 z) sits and the distance between nodes, as pvox
 * maps them: min + i·(max-min)/(n-1); an unset range gives origin 0, spacing 1. Shared
 * by the XDMF sidecar and the /VTKHDF group so both place the grid alike. */
void pv_h5_axis_geometry(const pv_h5_grid *g, int a, double *origin, double *spacing);

/* Collective (metadata): the /VTKHDF group, VTK's HDF ImageData layout (h5_vtkhdf.c),
 * whose PointData members are hard links to the /grids datasets that share the
 * geometry of grid `ref` (the rest are left out). Call after the datasets exist.
 * <0 on error (the HDF5 error stack kept). */
herr_t pv_h5_vtkhdf_write(hid_t file, const pv_h5_grid *g, size_t ng, size_t ref);

/* Silence HDF5's own error printing (we report through pv_err). Call at every entry. */
void pv_h5_quiet(void);
/* The most specific message on HDF5's current error stack ("" if none), into buf. */
void pv_h5_last_error(char *buf, size_t len);
/* Why H5Fopen of `path` failed, in our words where we know the case, from the current
 * error stack (call before any other HDF5 call clears it): a newly allocated message;
 * *io is true for a file cut short (an I/O failure), false for any other HDF5 refusal. */
char *pv_h5_open_failure(const char *path, bool *io);

/* Keep the current error stack across cleanup calls (any HDF5 call clears it):
 * `hid_t e = pv_h5_err_save(); H5Sclose(...); pv_h5_err_restore(e);` */
hid_t pv_h5_err_save(void);
void pv_h5_err_restore(hid_t saved);

/* File access list: MPI-IO over ctx->comm, metadata operations collective, collective
 * buffering off unless `aggregate` (see make_hints in h5_common.c). <0 on error. */
hid_t pv_h5_fapl(pv_ctx *ctx, bool aggregate);

/* Called after each transfer call that moved whole planes [zs, zs + nz) of this rank
 * (at `planes`, inside buf), and told which planes the next call moves (nz_next 0: none),
 * so a reader can hash what it just read while the next planes are fetched. Not called
 * when planes are split into rows (a plane larger than max_io): `whole_planes` false. */
typedef struct pv_h5_hook {
    void (*after)(void *ud, const float *planes, int64_t zs, int64_t nz, int64_t zs_next,
                  int64_t nz_next);
    void *ud;
    bool whole_planes; /* set by pv_h5_transfer: every call moved whole planes */
} pv_h5_hook;

/* Move planes [z0, z1) of an n³ float dataset between `dset` and buf, collectively, in
 * calls of at most max_io bytes per rank; every rank makes the same number of calls.
 * Collective; the status is agreed after every call (ranks stop together). stats
 * accumulates this rank's calls, bytes, io time and io mode. hook may be NULL. */
pv_status pv_h5_transfer(pv_ctx *ctx, hid_t dset, bool write, int64_t n, int64_t z0,
                         int64_t z1, float *buf, size_t max_io, const char *path,
                         const char *name, pv_h5_stats *stats, pv_h5_hook *hook);

/* Bytes per rank per transfer call when a transfer is paired with hashing (reads) or
 * early writeback (writes): small enough that the work on call k overlaps call k+1,
 * large enough that the collective calls cost little (a 1024³ grid at one rank: 64). */
#define PV_H5_PIPE_BYTES ((size_t)64 << 20)

/* A helper thread that hashes planes (pvox/checksum.h, with the rank's OpenMP threads)
 * while the caller's thread goes on with MPI (which stays on the main thread:
 * MPI_THREAD_FUNNELED). One block pending at a time: push waits for the previous block.
 * If the thread cannot be created, push hashes on the caller's thread. No MPI. */
typedef struct pv_h5_hasher {
    int64_t n;        /* voxels per axis */
    int nthreads;     /* OpenMP threads for hashing */
    uint64_t sum;     /* hashes of the planes done so far */
    bool threaded;
    pthread_t tid;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    const float *job; /* planes pending (NULL: none) */
    int64_t job_z0, job_nz;
    bool quit;
} pv_h5_hasher;

void pv_h5_hasher_start(pv_h5_hasher *h, int64_t n, int nthreads);
/* Hash planes [z0, z0 + nz) at `planes` (which must stay valid and unchanged until the
 * next push, take or stop). */
void pv_h5_hasher_push(pv_h5_hasher *h, const float *planes, int64_t z0, int64_t nz);
/* Wait for the pending block; the sum of everything pushed since the last take. */
uint64_t pv_h5_hasher_take(pv_h5_hasher *h);
/* Take, then end the thread. */
uint64_t pv_h5_hasher_stop(pv_h5_hasher *h);

/* Collective: a grid's checksum, the sum over ranks of each rank's part `mine`, into *sum
 * when `st` (the step that hashed, agreed) is PV_OK; returns the agreed status. */
pv_status pv_h5_sum_ranks(pv_ctx *ctx, pv_status st, uint64_t mine, uint64_t *sum);

/* Start/finish a stats record: begin zeroes it and notes the time; end reduces times
 * (max), bytes (sum) and the collective flag (and) over ranks. Collective (end). */
void pv_h5_stats_begin(pv_ctx *ctx, pv_h5_stats *st);
void pv_h5_stats_end(pv_ctx *ctx, pv_h5_stats *st, double t0);

/* The file system holding `path` (its directory) is full / has *avail bytes free for
 * unprivileged writes (false if statvfs fails). */
bool pv_h5_dir_full(const char *path);
bool pv_h5_dir_space(const char *path, uint64_t *avail);

/* True if `name` can be a link under /grids: non-empty, no '/', not "." or "..". */
bool pv_h5_name_ok(const char *name);

/* ---- the metadata checksum and the metadata scan (h5_meta.c) ---- */

/* The metadata checksum: start it with the root's fields, then add each grid in order
 * (offset: the file offset of its voxels, UINT64_MAX for none; kind: 1 for float32
 * little-endian contiguous, what pvox writes). The writer and the reader compute it
 * from the values they wrote and read. */
void pv_h5_meta_head(uint64_t *h, int format, const char *version, const char *created,
                     const char *script, const char *job_hash, const char *job_state,
                     uint64_t ngrids);
void pv_h5_meta_grid(uint64_t *h, const char *name, int64_t n, const double min[3],
                     const double max[3], bool has_checksum, uint64_t checksum,
                     uint64_t offset, int kind);

/* A job run in a child process where a damaged file cannot crash the run (fork; the
 * child makes no MPI call, its stdout and stderr go to /dev/null, it is stopped after
 * SCAN_SECONDS, it leaves with _exit). fn reads the file at `path` and returns its
 * result as bytes (*out malloc'd): false for out of memory. pv_h5_child_run returns 0
 * with the bytes in *blob, *len (malloc'd), -1 with *why (malloc'd) when the child died
 * or failed (the file is damaged), -2 out of memory. PVOX_H5_SCAN=inline runs fn in the
 * process itself. Rank 0 alone, no MPI. */
typedef bool (*pv_h5_child_fn)(const char *path, void *ud, char **out, size_t *len);
int pv_h5_child_run(const char *path, pv_h5_child_fn fn, void *ud, char **blob, size_t *len,
                    char **why);

/* Rank 0's look at a file before HDF5 opens it (exists, readable, not a directory, has
 * HDF5's signature): the agreed wording ("<path>: no such file", "<path>: not an HDF5
 * file"). h5_read.c. No MPI. */
pv_status pv_h5_precheck(pv_ctx *ctx, const char *path);

/* Rank 0 alone, no MPI: read and check the metadata of the file at `path` in a child
 * process (a damaged file may crash libhdf5), into an encoded blob (*blob, *len,
 * malloc'd) for pv_h5_scan_decode. 0 on success (the blob may still hold the file's
 * error), -1 with *why (malloc'd) when the child failed (the file is damaged), -2 out of
 * memory. */
int pv_h5_scan(const char *path, char **blob, size_t *len, char **why);
/* Decode a blob of pv_h5_scan into *in: 0 ok; 1 the file's error in *err (an I/O or
 * damage error), 2 likewise but an HDF5 error; -1 a malformed blob; -2 out of memory. */
int pv_h5_scan_decode(const char *blob, size_t len, pv_h5_info *in, char **err);
void pv_h5_info_free(pv_h5_info *in);

#endif
