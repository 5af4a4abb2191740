/*
 * pvox mesh: writing polygon meshes (isosurfaces) as a table or as VTK XML PolyData
 * (module io, depends on core only).
 *
 * The writer takes plain polygons, one call each, so it needs no other module's types: the
 * isosurface kernel's polygons (iso.h pv_iso_poly) are passed field by field,
 *
 *     for (size_t k = 0; k < n; k++)
 *         st = pv_mesh_add(ctx, w, p[k].nv, p[k].v[0], p[k].edge, levels[p[k].level],
 *                          element_number);
 *
 * Vertices are in index space (node units, global indices); the writer maps them to user
 * coordinates with the geometry given at open: x = min[0] + i·delta[0], and so on.
 *
 * Formats, chosen by the file name (pv_mesh_format_of):
 *   - text (any name not ending ".vtp" or ".pvtp", and pv_mesh_open_text): one polygon a
 *     block, each vertex a line "x y z" (user coordinates, "%g %g %g"), a blank line after
 *     each polygon. Polygons appear in rank (slab) order, each rank's in the order it added
 *     them. Only rank 0 writes; the other ranks spool their lines to an unlinked temporary
 *     file (in $TMPDIR, else /tmp) and send them to rank 0 in chunks at pv_mesh_flush or
 *     pv_mesh_close, so memory stays bounded whatever the mesh size.
 *   - ".vtp": one VTK XML PolyData file, written by rank 0: Points (Float64, so the
 *     coordinates are exact), Polys (Int64 connectivity and offsets), CellData "level"
 *     (Float64, the polygon's level value) and "surface" (Int32, the caller's number for the
 *     plot element), PointData "edge_id" (UInt64, the vertex's edge id; 2^64-1 for a vertex
 *     given without one). Appended raw binary, UInt64 block headers, native byte order.
 *     Vertices are MERGED by edge id across all ranks (an indexed mesh, not a triangle
 *     soup): a vertex added on two ranks with the same edge id is one point. Points are
 *     numbered in order of first use in the rank-ordered polygon stream, so a mesh whose
 *     polygons are split among ranks in stream order gives the same bytes at any rank count.
 *   - ".pvtp": a VTK XML parallel PolyData index NAME.pvtp written by rank 0 and one piece
 *     NAME_<rank>.vtp per rank beside it (VTK's own naming; every rank writes its piece, so
 *     the directory must be shared by the ranks, as for checkpoints). Each piece is merged
 *     within its rank; vertices shared with another rank's piece are repeated there (normal
 *     for pvtp; "edge_id" tells which points are the same). Ranks without polygons write an
 *     empty piece.
 *
 * Memory: text output holds one chunk at a time. The VTK formats hold this rank's mesh
 * until close (points, polygons, and a hash of edge id -> point index), all counted through
 * pv_alloc (--max-memory); closing a .vtp also hashes every rank's shared edge ids on a
 * home rank chosen by hash (bounded rounds of all-to-all messages), about 24 bytes per
 * vertex, spread over the ranks.
 *
 * Outputs appear whole or not at all (ARCH-13): files are written under "<path>.tmp" and
 * renamed when every rank has succeeded; a text sink (pv_mesh_open_text) cannot be taken
 * back, so what reached it stays.
 *
 * Errors: pv_mesh_add records the first failure in the writer (and ctx) and ignores later
 * polygons; pv_mesh_flush and pv_mesh_close agree on the status across ranks
 * (pv_status_agree), so every rank returns the same one.
 */
#ifndef PVOX_MESH_H
#define PVOX_MESH_H

#include "pvox/core.h"

typedef enum pv_mesh_format {
    PV_MESH_TEXT = 0, /* gnuplot-style table */
    PV_MESH_VTP,      /* VTK XML PolyData, one file */
    PV_MESH_PVTP      /* VTK XML parallel PolyData, an index and one piece per rank */
} pv_mesh_format;

/* The format a file name selects: ".vtp" or ".pvtp" at the end (ASCII case ignored), else
 * text. NULL gives text. No I/O, thread-safe. */
pv_mesh_format pv_mesh_format_of(const char *path);

/* Index space -> user coordinates: x = min[a] + i·delta[a] per axis a (0 x, 1 y, 2 z). */
typedef struct pv_mesh_geom {
    double min[3];   /* user coordinate of node 0 */
    double delta[3]; /* node spacing, user units */
} pv_mesh_geom;

/* Point-to-point tags of the mesh writer (ctx->comm, STYLE-8). */
#define PV_TAG_MESH_TEXT 7300 /* text chunks, rank r -> rank 0 */
#define PV_TAG_MESH_VTP 7301  /* .vtp array chunks, rank r -> rank 0 */

/* Vertex id meaning "not shared": such a vertex is never merged with another. */
#define PV_MESH_NO_EDGE UINT64_MAX

typedef struct pv_mesh_writer pv_mesh_writer;

/* Receives one line of text output (without its newline; "" for the blank line that ends a
 * polygon). Returns PV_OK, or a status recorded with pv_err, which ends the output. */
typedef pv_status (*pv_mesh_line_fn)(void *ud, const char *line);

typedef struct pv_mesh_sink {
    pv_mesh_line_fn line; /* called on rank 0 only, or on every rank with every_rank */
    void *ud;             /* passed to line; borrowed */
    bool every_rank;      /* every rank receives every line, in the same order (for an
                             output every rank keeps, such as a datablock): each rank's
                             lines are then broadcast from it at flush and close */
} pv_mesh_sink;

/* Open a writer for `path` in the format its name selects (pv_mesh_format_of). Collective;
 * every rank passes the same path and geometry. For text rank 0 creates "<path>.tmp" now;
 * the VTK formats create their files at close. Returns NULL on failure (agreed: all ranks
 * get NULL, the error is in ctx). */
pv_mesh_writer *pv_mesh_open(pv_ctx *ctx, const char *path, const pv_mesh_geom *geom);

/* Open a text writer that hands its lines to `sink` (copied) instead of a file, e.g. to
 * the interpreter's `set table` output. Collective. Returns NULL on failure (agreed). */
pv_mesh_writer *pv_mesh_open_text(pv_ctx *ctx, const pv_mesh_sink *sink, const pv_mesh_geom *geom);

/* Add one polygon of nv >= 3 vertices: v holds 3·nv doubles, vertex k at v[3k..3k+3)
 * (index space x y z, in winding order), lying on the grid edges edge[0..nv) (global edge
 * ids: equal ids are the same vertex; edge may be NULL, or an entry PV_MESH_NO_EDGE, for
 * vertices that are never merged). `level` is the polygon's level value, `surface` the
 * caller's number for its plot element (VTK cell data; text output ignores both). Not
 * collective, no MPI; any rank may add any number of polygons, including none. Text output
 * on rank 0 may call the sink from here. Returns PV_OK or the writer's recorded error. */
pv_status pv_mesh_add(pv_ctx *ctx, pv_mesh_writer *w, int nv, const double *v, const uint64_t *edge,
                      double level, int32_t surface);

/* Text: write what the ranks have added so far, in rank order (call it between plot
 * elements to keep the table element by element). VTK formats: nothing to do. Collective;
 * returns the agreed status. */
pv_status pv_mesh_flush(pv_ctx *ctx, pv_mesh_writer *w);

/* Finish: write (VTK formats) or flush (text) everything, commit the files if every rank's
 * `st` (the caller's own status, so a failure elsewhere discards the output) and every
 * writer step succeeded, else remove them; then free the writer. Collective; returns the
 * agreed status. NULL w is allowed on every rank (returns the agreed st). */
pv_status pv_mesh_close(pv_ctx *ctx, pv_mesh_writer *w, pv_status st);

typedef struct pv_mesh_counts {
    uint64_t points; /* points written (.vtp: merged over ranks; .pvtp: summed pieces) */
    uint64_t polys;  /* polygons over all ranks */
    uint64_t conn;   /* vertex references over all ranks (sum of nv) */
} pv_mesh_counts;

/* Like pv_mesh_close, and on success fills *counts (same on every rank; text output counts
 * the points as vertex lines). counts may be NULL. */
pv_status pv_mesh_close_counts(pv_ctx *ctx, pv_mesh_writer *w, pv_status st,
                               pv_mesh_counts *counts);

#endif /* PVOX_MESH_H */
