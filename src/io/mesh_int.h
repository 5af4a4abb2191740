/*
 * Private to the mesh writer (src/io/mesh*.c) and its tests.
 */
#ifndef PVOX_MESH_INT_H
#define PVOX_MESH_INT_H

#include "pvox/mesh.h"

/* Bytes of one streamed chunk: a multiple of every element size written (24, 8, 4). */
#define PV_MESH_CHUNK ((size_t)3 << 20)
/* Bytes of one text chunk (a stack buffer: sending text never allocates). */
#define PV_MESH_TEXT_CHUNK ((size_t)1 << 16)

/* Items per destination in one round of the edge-id exchange (divided by the rank count). */
#define PV_MESH_ROUND_ITEMS ((size_t)1 << 22)

/* Open-addressing table of uint64 keys (never PV_MESH_NO_EDGE) to two values. */
typedef struct mesh_hash {
    uint64_t *key; /* PV_MESH_NO_EDGE: empty slot */
    int64_t *val;  /* [2 * cap]: two values a slot */
    size_t cap;    /* slots, a power of two (0: not allocated) */
    size_t n;      /* keys held */
} mesh_hash;

struct pv_mesh_writer {
    pv_mesh_format format;
    pv_mesh_geom geom;
    pv_status st;     /* first error of this rank (sticky) */
    char *path;       /* target file (NULL for a text sink) */
    char *commit[2];  /* final names of the files this rank writes (NULL: none) */
    char *tmpname[2]; /* their temporary names, "<name>.tmp" */

    /* ---- text ---- */
    pv_mesh_sink sink; /* with has_sink */
    bool has_sink;
    FILE *out;            /* rank 0: the temporary file of a text path */
    FILE *spool;          /* ranks that cannot emit now: their lines so far */
    uint64_t spooled;     /* bytes in spool */
    uint64_t text_points; /* vertex lines added on this rank */
    uint64_t text_polys;

    /* ---- mesh (VTK formats) ---- */
    uint64_t *vid; /* [nvert] edge id of each point (PV_MESH_NO_EDGE: unshared) */
    double *xyz;   /* [3 * nvert] user coordinates */
    size_t nvert, capvid, capxyz;
    int64_t *conn; /* [nconn] local point indices */
    size_t nconn, capconn;
    int64_t *off;  /* [npoly] end offset of each polygon into conn */
    double *level; /* [npoly] */
    int32_t *surf; /* [npoly] */
    size_t npoly, capoff, caplevel, capsurf;
    mesh_hash local; /* edge id -> point index (val[0]) */

    /* set at close for .vtp */
    int64_t *gidx;      /* [nvert] global point index */
    bool *owned;        /* [nvert] this rank writes the point */
    size_t round_items; /* PV_MESH_ROUND_ITEMS unless a test changed it */
};

/* Tests: items per destination per round of the edge-id exchange (>= 1, the same on every
 * rank), to exercise several rounds with a small mesh. */
void pv_mesh_set_round_items(pv_mesh_writer *w, size_t items);

/* ---- hash (mesh_hash.c) ---- */
bool pv_mesh_hash_init(pv_ctx *ctx, mesh_hash *h, size_t cap);
void pv_mesh_hash_free(pv_ctx *ctx, mesh_hash *h);
/* The slot of key (inserted with val = {-1, -1} if new, *isnew set); -1 on allocation
 * failure (error recorded). Growing keeps the load below one half. */
int64_t pv_mesh_hash_slot(pv_ctx *ctx, mesh_hash *h, uint64_t key, bool *isnew);
/* The slot of key, or -1 if absent. */
int64_t pv_mesh_hash_find(const mesh_hash *h, uint64_t key);
uint64_t pv_mesh_mix(uint64_t x);

/* ---- merge (mesh_merge.c) ---- */
/* Collective: number the points of a .vtp across ranks: fills w->owned and w->gidx (global
 * index in order of first use in the rank-ordered stream). *npoints is the global count.
 * Returns the agreed status. */
pv_status pv_mesh_number(pv_ctx *ctx, pv_mesh_writer *w, uint64_t *npoints);

/* ---- VTK XML (mesh_vtk.c) ---- */
/* Collective: write the .vtp (rank 0) or the pieces and index of a .pvtp to their
 * temporary names. Returns this rank's status (not agreed); *counts as in the header. */
pv_status pv_mesh_write_vtk(pv_ctx *ctx, pv_mesh_writer *w, pv_mesh_counts *counts);
/* "<base>_<rank>.vtp" for a .pvtp path, "<path>_<rank>.vtp" for another name (a link's
 * target), malloc'd, NULL on failure. */
char *pv_mesh_piece_path(const char *path, int rank);

#endif /* PVOX_MESH_INT_H */
