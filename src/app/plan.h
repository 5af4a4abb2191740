/*
 * app/plan.h: `pvox --plan N`, the sizing planner (README "Planning a run (--plan)").
 *
 * For an N^3 grid it prints the memory per rank at P ranks (the slab the grid size check
 * asks for, the ghost plane, the isosurface batch and cache, the frame buffers, pvox's own
 * base), the fewest ranks and nodes that fit a node's memory, the checkpoint file's size,
 * and the time of each phase from per-core rates measured on pvox itself. Plain
 * arithmetic: no MPI call, so it runs as fast under mpiexec (rank 0 prints) as alone.
 */
#ifndef PVOX_APP_PLAN_H
#define PVOX_APP_PLAN_H

#include "pvox/core.h"

/* Rates the time estimates use (per core; --rate NAME=VALUE overrides one). */
typedef enum pv_plan_rate {
    PV_RATE_FILL,     /* vfill voxel updates per second */
    PV_RATE_EXTRACT,  /* voxels per second swept by the isosurface extraction (201 levels) */
    PV_RATE_RASTER,   /* isosurface triangles per second rasterised */
    PV_RATE_FRAME,    /* pixels per second of a pm3d slice frame, drawn to written */
    PV_RATE_CHECKSUM, /* bytes per second hashed by the checkpoint checksum */
    PV_RATE_COUNT
} pv_plan_rate;

typedef struct pv_plan_args {
    int64_t n;            /* voxels per axis */
    long ranks;           /* --ranks P (0: the fewest that fit) */
    long ranks_per_node;  /* --ranks-per-node (0: this node's cores) */
    int threads;          /* --threads per rank (default 1) */
    long levels;          /* --levels L isosurface levels (default 201; 0: none) */
    int width, height;    /* --size WxH (default 800x600) */
    long frames;          /* --frames F slice frames (default 100) */
    size_t node_mem;      /* --mem SIZE per node (0: SLURM or this node) */
    double bandwidth;     /* --bandwidth SIZE: file system bytes/s (default 10 GiB/s) */
    long batch_triangles; /* --batch-triangles (default 500000) */
    size_t iso_cache;     /* --iso-cache MIB in bytes (default 256 MiB) */
    bool json;            /* --json */
    double rate[PV_RATE_COUNT];
} pv_plan_args;

/* True if argv holds --plan (then the whole command line is the planner's). */
bool pv_plan_wanted(int argc, char **argv);

/* Parse a --plan command line. Returns PV_OK, or PV_EUSAGE with *error set (malloc'd);
 * *help is set for -h/--help. Not collective. */
pv_status pv_plan_parse(int argc, char **argv, pv_plan_args *a, bool *help, char **error);

/* Compute and print the plan to `out` (a table, or JSON with --json). Not collective:
 * call it on one rank. */
void pv_plan_print(const pv_plan_args *a, FILE *out);

#endif
