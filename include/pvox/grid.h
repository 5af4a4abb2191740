/*
 * pvox grid: distributed cubic voxel grids.
 *
 * A grid of N×N×N float voxels is split into z-slabs: rank r owns planes [z0, z1),
 * balanced to within one plane. Storage is x fastest, then y, then z:
 * idx = (iz - z0)·N² + iy·N + ix. Node i on an axis sits at min + i·delta with
 * delta = (max - min)/(N - 1). A coordinate maps to a node with gnuplot's rule
 * ceil((c - min)/delta), inside only if min <= c <= max (GP-3).
 *
 * Sizes are int64_t/size_t: N³ passes 2³¹. The only size limit is memory, checked
 * collectively before allocating (DEC-1).
 */
#ifndef PVOX_GRID_H
#define PVOX_GRID_H

#include "pvox/core.h"

/* ---- slab decomposition (plain arithmetic, no MPI) ---------------------------------- */

/* Planes [*z0, *z1) of rank `rank` among `nranks` for an n-plane grid. The first n % nranks
 * ranks get one extra plane. */
void pv_decomp_slab(int64_t n, int nranks, int rank, int64_t *z0, int64_t *z1);
/* The rank owning plane iz (0 <= iz < n). */
int pv_decomp_owner(int64_t n, int nranks, int64_t iz);
/* Bytes of the float slab rank `rank` holds (what the grid size check asks the memory
 * budget for; rank 0's is the largest). False if the size overflows size_t. */
bool pv_decomp_slab_bytes(int64_t n, int nranks, int rank, size_t *bytes);

/* ---- memory limit ----------------------------------------------------------------- */

/* Bytes this rank may use for grids: the smallest of --max-memory, the cgroup (or SLURM)
 * memory limit divided among this node's ranks, and MemAvailable divided among this node's
 * ranks. Collective (counts the ranks on this node). */
size_t pv_mem_budget(pv_ctx *ctx);
/* The memory of this node that pv_mem_budget shares among the node's `node_ranks` ranks:
 * the smallest of the cgroup limit, the SLURM limit (SLURM_MEM_PER_NODE, or
 * SLURM_MEM_PER_CPU times the CPUs of node_ranks tasks) and MemAvailable; 0 if none can
 * be read. *source (if not NULL) names the one that decided ("cgroup", "SLURM",
 * "MemAvailable"). Not collective. */
size_t pv_mem_node_limit(int node_ranks, const char **source);

/* ---- grids ------------------------------------------------------------------------ */

typedef struct pv_grid {
    char *name;          /* "$name" */
    int64_t n;           /* voxels per axis */
    double min[3];       /* vx/vy/vz range lower ends (NaN: unset) */
    double max[3];       /* upper ends (NaN: unset) */
    double delta[3];     /* (max-min)/(n-1), recomputed whenever ranges or size change */
    int64_t z0, z1;      /* planes owned by this rank */
    float *data;         /* (z1-z0)·n² voxels, x fastest */
    size_t nbytes;       /* bytes allocated for data */
    uint64_t version;    /* bumped by every change of the voxel values (fill, write,
                            clear, resize, load): what was derived from them is stale */
} pv_grid;

static inline size_t pv_grid_local_index(const pv_grid *g, int64_t ix, int64_t iy, int64_t iz)
{
    return ((size_t)(iz - g->z0) * (size_t)g->n + (size_t)iy) * (size_t)g->n + (size_t)ix;
}

/* Create a zeroed grid (ranges unset). Collective: checks the memory budget on every rank
 * first and fails on all ranks (PV_ENOMEM, message naming the ranks needed) if any rank
 * cannot hold its slab. Returns NULL on failure. */
pv_grid *pv_grid_create(pv_ctx *ctx, const char *name, int64_t n);
void pv_grid_destroy(pv_ctx *ctx, pv_grid *g);
/* Change the size; contents become zero, ranges are kept. Collective like create. */
pv_status pv_grid_resize(pv_ctx *ctx, pv_grid *g, int64_t n);
/* Zero all voxels (OpenMP, first-touch schedule). */
void pv_grid_clear(pv_ctx *ctx, pv_grid *g);
/* Set one axis range (0 x, 1 y, 2 z) and recompute delta. */
void pv_grid_set_range(pv_grid *g, int axis, double min, double max);
/* True if all three ranges are set (not NaN). */
bool pv_grid_has_ranges(const pv_grid *g);

/* Map a coordinate to a node index on one axis; false if outside (or ranges unset). */
bool pv_grid_axis_index(const pv_grid *g, int axis, double c, int64_t *i);
/* All three axes. */
bool pv_grid_index(const pv_grid *g, double x, double y, double z, int64_t idx[3]);

/* Collective: the voxel value at (x,y,z), NaN outside; the owning rank broadcasts it. */
pv_status pv_grid_read(pv_ctx *ctx, const pv_grid *g, double x, double y, double z,
                       double *out);
/* Collective batch read: n points (same arrays on every rank); every rank receives all
 * values (NaN outside). One exchange for the whole batch. */
pv_status pv_grid_read_many(pv_ctx *ctx, const pv_grid *g, size_t n, const double *x,
                            const double *y, const double *z, double *out);
/* Store v at (x,y,z) on the owning rank (every rank calls with the same arguments; no
 * message needed). *inside tells whether the point was in the grid. */
void pv_grid_write(pv_grid *g, double x, double y, double z, float v, bool *inside);

typedef struct pv_grid_stats {
    double min, max;      /* over non-zero voxels (0, 0 if none) */
    double mean, stddev;  /* over non-zero voxels (NaN if fewer than 2) */
    int64_t nzero;        /* voxels equal to zero */
    int64_t ntotal;       /* n³ */
    uint64_t checksum;    /* order-independent hash of all voxel bits (pvox/checksum.h) */
} pv_grid_stats;
/* Collective statistics (as `show vgrid` prints them) and a checksum. */
pv_status pv_grid_stats_compute(pv_ctx *ctx, const pv_grid *g, pv_grid_stats *st);

/* ---- ghost plane (isosurfaces) ------------------------------------------------------ */

/* Collective: every rank that owns planes [z0, z1) with z1 < n receives plane z1 (n² floats,
 * x fastest) from the rank owning it into buf, and *has is set true; on the rank holding the
 * last plane, and on ranks with no planes, *has is false and buf is untouched (it may be
 * NULL there). One point-to-point exchange per neighbour pair (tag PV_TAG_GRID_GHOST),
 * nonblocking, in messages of at most 2^28 floats; the ranks agree on the status
 * (pv_status_agree), so all return the same one and *has is false on failure. */
#define PV_TAG_GRID_GHOST 7200
pv_status pv_grid_ghost_upper(pv_ctx *ctx, const pv_grid *g, float *buf, bool *has);

/* ---- fill (vfill) ------------------------------------------------------------------ */

/* Most lanes one call of a pv_fill_eval_fn receives. */
#define PV_FILL_MAX_LANES 2048

typedef struct pv_fill_source {
    double x, y, z;      /* point, user units */
    double radius;       /* user units (gnuplot vfill); grid units for vgfill */
} pv_fill_source;

/* Evaluates the value expression for n voxels: dist[k] is VoxelDistance (user units) and
 * gdist[k] GridDistance of voxel k, which belongs to source src[k * step] (an index into
 * the source table, to find its columns): step 0 for a run of one source's voxels, step 1
 * for a batch of one-node sources, one lane each. Writes n values. Called from OpenMP
 * threads with a thread id 0..nthreads-1: it must be thread-safe for distinct tids. */
typedef void (*pv_fill_eval_fn)(void *ud, int tid, const size_t *src, size_t step, size_t n,
                                const double *dist, const double *gdist, double *out);

typedef struct pv_fill_result {
    int64_t points_used;     /* sources inside the grid (all ranks agree) */
    int64_t voxels_modified; /* voxel updates summed over ranks */
    double last_distance;    /* VoxelDistance of the last update in file order */
} pv_fill_result;

/* pv_grid_fill flags */
#define PV_FILL_GRID_UNITS 1u    /* vgfill: radius and inclusion test in grid units (GP-5.4) */
#define PV_FILL_NEED_GRIDDIST 2u /* compute GridDistance lanes for a plain vfill too */

/* Add the value expression over sphere ∩ brick of every source into this rank's slab
 * (GP-5.2; PV_FILL_GRID_UNITS selects vgfill's rule, GP-5.4). Sources are in file
 * order; each voxel receives them in that order whatever the thread count, so the result
 * is bit-identical for any rank and thread count. Collective (reduces the counts). */
pv_status pv_grid_fill(pv_ctx *ctx, pv_grid *g, const pv_fill_source *src, size_t nsrc,
                       unsigned flags, pv_fill_eval_fn eval, void *ud,
                       pv_fill_result *res);

/* ---- fill in pieces (sources spread over the ranks) --------------------------------- */

/* What one rank's pieces of a fill did: counts of this rank only, and its last update in
 * gnuplot's loop order (the source's global file-order number, then the voxel). */
typedef struct pv_fill_local {
    int64_t points_used;     /* sources given to this rank that lie inside the grid */
    int64_t voxels_modified; /* voxel updates in this rank's slab */
    int64_t last_order;      /* file-order number of the last updating source, -1: none */
    int64_t last_key;        /* its last voxel: (ix*n + iy)*n + iz */
    double last_distance;    /* VoxelDistance of that update */
} pv_fill_local;

/* Start an accumulation (no update yet). */
void pv_fill_local_init(pv_fill_local *acc);

/* Fold a piece's accumulation into acc: counts add, the later last update wins. */
void pv_fill_local_merge(pv_fill_local *acc, const pv_fill_local *piece);

/* pv_grid_fill for a piece of the sources, on this rank only (not collective, no
 * progress bar): src[0..nsrc) in file order; order[s] is source s's global file-order
 * number (increasing; NULL: base + s). Counts and the last update are added into *acc, so
 * a fill streamed in pieces, each voxel receiving its sources in file order, ends with
 * the same grid and, after pv_fill_local_reduce, the same result as one pv_grid_fill
 * over all sources. points_used counts every source inside the grid: the caller passes
 * each source to one rank for counting, or sets PV_FILL_NO_COUNT on the others. */
#define PV_FILL_NO_COUNT 4u
#define PV_FILL_PROGRESS 8u /* draw the bar (rank 0) for a large grid: one-piece fills */
pv_status pv_grid_fill_local(pv_ctx *ctx, pv_grid *g, const pv_fill_source *src, size_t nsrc,
                             const int64_t *order, int64_t base, unsigned flags,
                             pv_fill_eval_fn eval, void *ud, pv_fill_local *acc);

/* Collective: the ranks' accumulations -> gnuplot's result (sums, the global last). */
void pv_fill_local_reduce(pv_ctx *ctx, const pv_fill_local *acc, pv_fill_result *res);

#endif /* PVOX_GRID_H */
