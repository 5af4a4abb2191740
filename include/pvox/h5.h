/*
 * pvox io/h5: HDF5 checkpoints of distributed voxel grids, their XDMF sidecar, and any
 * other program's 3D numeric dataset read into a grid (pv_h5_dataset_*, io/h5_dataset.c:
 * `vload $g "f.h5" dataset "ez"`, vfill's `dataset` sources).
 *
 * File layout (format version 1, ARCH-10):
 *   /                       attributes pvox_format (int32, = PV_H5_FORMAT_VERSION),
 *                           pvox_version, created (UTC, ISO 8601), script (strings),
 *                           meta_checksum (uint64: FNV-1a over what a reader reads,
 *                           io/h5_meta.c); job_hash, job_state with --checkpoint
 *   /grids                  group, links kept in creation order
 *   /grids/$name            float32 dataset [N][N][N] (z slowest, x fastest), contiguous
 *                           layout, no chunking, no filters; attributes vxrange, vyrange,
 *                           vzrange (float64[2], NaN when unset), size (int64, = N) and
 *                           checksum (uint64: the grid checksum of pvox/checksum.h, the
 *                           value `-v` logs)
 *   /VTKHDF                 group in VTK's HDF ImageData layout (io/h5_vtkhdf.c), so
 *                           ParaView's VTKHDFReader opens the file: attributes Version
 *                           (int32[2] = 1,0), Type ("ImageData", 9-byte string),
 *                           WholeExtent (int32[6] = 0,N-1 per axis), Origin, Spacing
 *                           (float64[3], x y z), Direction (float64[9], identity)
 *   /VTKHDF/PointData/$name hard links to /grids/$name (the same dataset) for every grid
 *                           whose size and node positions equal the reference grid's
 *                           (opts->vtk_grid, else the first saved); one ImageData has
 *                           one geometry, so the other grids are only under /grids
 * Grid names keep their '$'. Any rank count reads any file: each rank's planes [z0, z1)
 * are one hyperslab of the contiguous dataset. Files written before the checksum
 * attribute existed have none and are read without a check; likewise files without
 * meta_checksum. Opening reads the metadata on rank 0 in a child process first, where a
 * damaged file cannot crash the run (io/h5_meta.c), and checks every value pvox uses.
 *
 * Parallel contract: every function marked "collective" must be called by every rank of
 * ctx->comm with the same arguments (except the per-rank slab fields). Failures are agreed
 * (pv_status_agree) inside, so every rank returns the same status and the message naming
 * the file and the problem ("run.h5: not an HDF5 file") is recorded on every rank.
 * Transfers are collective MPI-IO (H5FD_MPIO_COLLECTIVE); a rank that owns no planes still
 * takes part with an empty selection. Transfers are split so that no rank moves more
 * than opt->max_io_bytes (default 1 GiB) in one call (HDF5 1.10 and MPI-IO implementations
 * fail on single transfers of 2 GiB and more); every rank makes the same number of calls.
 * Writes and checked whole-grid reads go in calls of at most 64 MiB per rank, so that the
 * checksum (a helper thread) and the kernel's writeback or readahead of one call overlap
 * the next (io/h5_write.c, io/h5_read.c).
 *
 * Writing is atomic: the file is written as "<path>.tmp.<16 random hex digits>" (chosen
 * by rank 0, created exclusively: an existing file or link of that name is never
 * followed) in the same directory, closed, fsync'ed by every rank, and renamed over
 * <path> by rank 0 only when every rank succeeded. On failure the temporary file is
 * removed and an existing <path> is left untouched. The sidecar (pv_h5_xdmf_path) is
 * written by rank 0 the same way (O_EXCL | O_NOFOLLOW). A full disk is caught before any
 * voxel is written where possible: rank 0 compares the file's size with the free space
 * (statvfs) and the file size limit (ulimit -f), then reserves the whole file's blocks
 * (posix_fallocate) once the datasets exist, and the metadata is flushed before the
 * voxels. Where the blocks cannot be reserved, the voxels are read back after the write
 * and their checksums compared before the file is renamed, so a write that failed
 * without an error never replaces a checkpoint.
 */
#ifndef PVOX_H5_H
#define PVOX_H5_H

#include "pvox/core.h"

#define PV_H5_FORMAT_VERSION 1
#define PV_H5_DEFAULT_MAX_IO ((size_t)1 << 30) /* bytes per rank per transfer call */

/* One grid to write (this rank's slab), or the destination of a read. */
typedef struct pv_h5_grid {
    const char *name;    /* "$name": the dataset /grids/$name; no '/', not "." or ".." */
    int64_t n;           /* voxels per axis, >= 2 */
    double min[3];       /* vx/vy/vz range lower ends (NaN: unset) */
    double max[3];       /* upper ends (NaN: unset) */
    int64_t z0, z1;      /* planes held by this rank; the ranks' ranges tile [0, n) */
    const float *slab;   /* (z1-z0)·n² voxels, x fastest; borrowed */
} pv_h5_grid;

/* Options; pass NULL for the defaults (all fields zero). */
typedef struct pv_h5_opts {
    const char *script;    /* job script name stored in the "script" attribute (NULL: "") */
    const char *job_hash;  /* --checkpoint: hash of the job script ("job_hash"; NULL: none) */
    const char *job_state; /* --checkpoint: where the script was ("job_state"; NULL: none) */
    bool no_xdmf;          /* do not write the XDMF sidecar */
    const char *vtk_grid;  /* the grid whose size and ranges the /VTKHDF ImageData takes
                              (NULL or not saved: the first grid saved) */
    size_t max_io_bytes;   /* largest transfer per rank per call (0: PV_H5_DEFAULT_MAX_IO;
                              tests make it small to exercise the split path) */
    bool aggregate;        /* MPI-IO two-phase collective buffering (off by default:
                              each rank's range is contiguous; may help on some parallel
                              file systems) */
    bool skip_space_check; /* testing: do not refuse up front when the file system has
                              less free space than the file needs (statvfs), so the
                              write itself meets the full disk */
    bool no_verify;        /* reading: do not check whole-grid reads against the stored
                              checksums (the writer's read-back sums its own) */
    uint64_t *checksums;   /* saving: if not NULL, receives each grid's checksum as written
                              (ngrids entries, every rank; pvox/checksum.h) */
} pv_h5_opts;

/* What a save or read did (every field may be read on every rank). */
typedef struct pv_h5_stats {
    double seconds;        /* wall time of the whole operation, max over ranks */
    double io_seconds;     /* time inside the data transfer calls, max over ranks */
    uint64_t bytes;        /* voxel bytes moved, summed over ranks */
    int64_t ncalls;        /* collective transfer calls made by each rank */
    bool all_collective;   /* every rank reported every transfer that moved data as
                              collective (H5Pget_mpio_actual_io_mode) */
    int io_mode;           /* this rank's last H5D_mpio_actual_io_mode_t for a call that
                              moved data (-1: none) */
} pv_h5_stats;

/* ---- writing ---------------------------------------------------------------------- */

/* Write `ngrids` grids (in that order) to a new checkpoint at `path` (replacing any file
 * there, atomically) and, unless opt->no_xdmf, the sidecar pv_h5_xdmf_path(path).
 * Collective. `stats` may be NULL. Errors: PV_EIO (file system, full disk), PV_EHDF5,
 * PV_ERANGE (bad descriptor), PV_ENOMEM. */
pv_status pv_h5_save_all(pv_ctx *ctx, const char *path, const pv_h5_grid *grids,
                         size_t ngrids, const pv_h5_opts *opt, pv_h5_stats *stats);

/* ---- reading ---------------------------------------------------------------------- */

/* A grid found in a checkpoint. */
typedef struct pv_h5_entry {
    char *name;          /* link name under /grids ("$name") */
    int64_t n;           /* voxels per axis (0 if the dataset is not a valid grid) */
    double min[3];       /* ranges from the attributes (NaN if unset or absent) */
    double max[3];
    char *problem;       /* NULL if loadable, else why not ("is float64 [10][10][10],
                            expected float32 [N][N][N]") */
    bool has_checksum;   /* the file stores the grid's checksum (files before it: false) */
    uint64_t checksum;   /* that checksum (pvox/checksum.h) */
} pv_h5_entry;

typedef struct pv_h5_info {
    int format_version;  /* pvox_format attribute (0 if absent) */
    char *pvox_version;  /* attributes ("" if absent) */
    char *created;
    char *script;
    char *job_hash;      /* "" if absent (files not written by --checkpoint) */
    char *job_state;
    size_t ngrids;
    pv_h5_entry *grids;  /* in creation order (name order for files that do not track it) */
} pv_h5_info;

typedef struct pv_h5_file pv_h5_file;

/* Open a checkpoint for reading and read its metadata. Collective. NULL on failure, with
 * the agreed error: "<path>: no such file", "<path>: not an HDF5 file", "<path>: truncated
 * file (...)", "<path>: not a pvox checkpoint (no /grids group)"... */
pv_h5_file *pv_h5_open(pv_ctx *ctx, const char *path, const pv_h5_opts *opt);
/* Metadata of an open file (same on every rank). Borrowed: valid until pv_h5_close. */
const pv_h5_info *pv_h5_file_info(const pv_h5_file *f);
/* The entry named `name`, or NULL. */
const pv_h5_entry *pv_h5_find(const pv_h5_file *f, const char *name);
/* Read planes [z0, z1) of grid `name` into buf ((z1-z0)·n² floats, x fastest). z0 == z1
 * is allowed (the rank takes part and reads nothing); ranks may read overlapping ranges.
 * When the ranks' ranges tile [0, n) (every plane read by exactly one rank, as a grid's
 * slabs do) and the file stores the grid's checksum, the voxels read are checked
 * against it. Collective. Errors: "<path>: no grid $x", the entry's problem, read
 * failures, PV_EIO "<path>: /grids/$x is damaged: ..." on a checksum mismatch. */
pv_status pv_h5_read(pv_ctx *ctx, pv_h5_file *f, const char *name, int64_t z0, int64_t z1,
                     float *buf, pv_h5_stats *stats);
/* Close the file and free everything. Collective. NULL is allowed. */
void pv_h5_close(pv_ctx *ctx, pv_h5_file *f);

/* ---- datasets of other programs (io/h5_dataset.c) ------------------------------------ */

/* Any 3D numeric dataset of any HDF5 file (Meep's fields, a netCDF-4 variable, a VTKHDF
 * ImageData array, a pvox grid), read as a box of nx·ny·nz elements, README "Bringing your
 * data": float32/64 and signed or unsigned integers of 8 to 64 bits, contiguous or
 * chunked, with any filter the HDF5 library has (deflate, shuffle, fletcher32, szip...).
 * The dataset's dimensions are named slowest first by an order, a permutation of "xyz":
 * "zyx" (the default) is C order with x fastest, as pvox and VTK store grids; Meep
 * writes "xyz". The metadata is read first on rank 0 in a child process (a damaged file
 * cannot crash the run, io/h5_meta.c), then every rank opens the file with MPI-IO and
 * reads its own planes collectively. */

/* What pv_h5_dataset_open found (the same on every rank). */
typedef struct pv_h5_dset_info {
    char *path;           /* the dataset read ("/VTKHDF/PointData/rho" for "rho") */
    int64_t dims[3];      /* its dimensions, slowest first */
    int64_t n[3];         /* elements along x, y, z (dims through the order) */
    char type[16];        /* "float64", "int16", "uint8", ... */
    char layout[96];      /* "contiguous", "chunked (deflate, shuffle)", ... */
    bool has_range[3];    /* the file places axis a: node 0 at min[a], node n[a]-1 at max[a] */
    double min[3], max[3];
    double step[3];       /* the distance between nodes along a placed axis (when n[a] is
                             1, from VTKHDF's Spacing, else (max-min)/(n-1)) */
    char geometry[32];    /* where the placement came from: "VTKHDF", "netCDF coordinates",
                             "vxrange attributes", "" none */
} pv_h5_dset_info;

typedef struct pv_h5_dataset pv_h5_dataset;

/* Parse an order string: a permutation of "xyz" naming the dimensions slowest first.
 * axis[k] receives the axis (0 x, 1 y, 2 z) of dimension k. False if it is not one. No
 * MPI. */
bool pv_h5_order_parse(const char *order, int axis[3]);

/* Open dataset `dataset` of the HDF5 file `file` (a path, groups allowed: "/fields/ez";
 * in a VTKHDF ImageData file a bare name is looked up in /VTKHDF/PointData, then
 * CellData), its dimensions named by `order` (NULL: "zyx"; must pass pv_h5_order_parse).
 * Collective. NULL on failure with the agreed error on every rank, PV_EIO for the file
 * ("f.h5: no such file", "f.h5: not an HDF5 file", "f.h5: no dataset \"ez\"",
 * "f.h5: dataset \"s\" is a string, not numeric", "... is 2D [96][80], not 3D",
 * "... uses filter 32001 (blosc), which this HDF5 library lacks"). opt may be NULL (its
 * max_io_bytes is used). */
pv_h5_dataset *pv_h5_dataset_open(pv_ctx *ctx, const char *file, const char *dataset,
                                  const char *order, const pv_h5_opts *opt);
/* Its metadata (same on every rank). Borrowed: valid until pv_h5_dataset_close. */
const pv_h5_dset_info *pv_h5_dataset_info(const pv_h5_dataset *d);
/* Read the elements with z index in [z0, z1) into buf, as float (f64 false) or double,
 * laid out [z - z0][y][x] with x fastest in rows of pitch_x elements and pitch_y rows per
 * plane (pitch_x >= n[0], pitch_y >= n[1]): the element (x, y, z) of the box at
 * buf[((z - z0)·pitch_y + y)·pitch_x + x], everything outside the box (x >= n[0],
 * y >= n[1], z >= n[2]) zero. z0 == z1 is allowed (the rank takes part and reads nothing).
 * Each rank reads its planes' hyperslab collectively in calls of at most 64 MiB (and
 * max_io bytes) per rank, converting and reordering the elements of one call with the
 * rank's threads; memory beyond buf: one call's elements. Collective (every rank, each
 * with its own range). Errors agreed: read failures (PV_EHDF5), PV_ENOMEM. */
pv_status pv_h5_dataset_read(pv_ctx *ctx, pv_h5_dataset *d, int64_t z0, int64_t z1, void *buf,
                             bool f64, int64_t pitch_x, int64_t pitch_y, pv_h5_stats *stats);
/* Close and free. Collective. NULL is allowed. */
void pv_h5_dataset_close(pv_ctx *ctx, pv_h5_dataset *d);

/* ---- XDMF sidecar ----------------------------------------------------------------- */

/* The sidecar name for a checkpoint: "run.h5" → "run.xmf" (also for .hdf5, .he5, .hdf),
 * any other name gets ".xmf" appended. Returns a malloc'd string (NULL: out of memory). */
char *pv_h5_xdmf_path(const char *h5_path);

/* Write an XDMF 2 description of `grids` (one uniform 3DCoRectMesh grid each, node-centred
 * scalar "$name" pointing at "<h5_name>:/grids/$name") to `path`. `h5_name` is stored as
 * given (use the checkpoint's base name so the pair can be moved together). `path` is
 * created exclusively and never through a link: it must not exist (pass a temporary
 * name). Not collective, no MPI: rank 0 calls it. Only name, n, min and max of grids
 * are used. */
pv_status pv_xdmf_write(pv_ctx *ctx, const char *path, const char *h5_name,
                        const pv_h5_grid *grids, size_t ngrids);

#endif /* PVOX_H5_H */
