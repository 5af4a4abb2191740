/*
 * pvox stats: the per-run statistics recorder behind `--stats FILE` (README "Statistics
 * (--stats)"). Each rank appends one record per frame (its phase times, compositor bytes,
 * primitives); at the end of the run the records are gathered to rank 0, which writes one
 * JSON document atomically (ARCH-13).
 *
 * Besides frames, the grid commands are recorded (pv_stats_command: vfill, vgfill, vclear,
 * set vgrid, vload, vsave, stats, and --checkpoint's saves and --resume's load): their
 * seconds and peak tracked memory on each rank, the phases of a job before and between
 * its frames.
 *
 * Parallel contract: pv_stats_frame and pv_stats_command are local (no MPI) and SPMD, so
 * the k-th record of every rank describes frame (command) k; pv_stats_write is collective over ctx->comm. Both do
 * nothing unless ctx->opt.stats_path is set. Records live in tracked memory (ARCH-12).
 */
#ifndef PVOX_STATS_H
#define PVOX_STATS_H

#include "pvox/core.h"

#include <stdint.h>

/* Phases of a frame, in this order; names in the JSON as given by pv_phase_name. */
typedef enum pv_phase {
    PV_PHASE_SCENE,
    PV_PHASE_RASTER,
    PV_PHASE_COMPOSITE,
    PV_PHASE_ANNOTATE,
    PV_PHASE_ENCODE,
    PV_PHASE_WRITE,
    PV_PHASE_COUNT
} pv_phase;
/* JSON names: "scene", "raster", "composite", "annotate", "encode", "write" */

/* One rank's view of one frame. */
typedef struct pv_frame_record {
    const char *output;       /* the PNG path (borrowed; copied by pv_stats_frame) */
    int width, height;        /* canvas pixels */
    int writer;               /* the rank that annotated, encoded and wrote it */
    double t[PV_PHASE_COUNT]; /* seconds on this rank in each phase (0 where it had none) */
    uint64_t bytes_sent, bytes_recv; /* compositor payload bytes this rank sent/received for
                                        this frame */
    uint64_t image_bytes;     /* bytes of one image (the reference for bytes_recv), same on
                                 every rank */
    uint64_t active_pixels;   /* non-empty pixels of this rank's tile */
    uint64_t triangles, points; /* primitives this rank rasterised */
} pv_frame_record;

/* The JSON name of a phase ("scene" ... "write"); "?" for a value out of range. */
const char *pv_phase_name(pv_phase ph);

/* Append this rank's record of the next frame (no MPI). Every rank calls it once per
 * frame, in the same order (SPMD), so frame k is the k-th record on every rank.
 * rec->output is copied (NULL is recorded as ""). No-op (PV_OK) unless
 * ctx->opt.stats_path is set. PV_ENOMEM (error recorded, nothing appended) on failure. */
pv_status pv_stats_frame(pv_ctx *ctx, const pv_frame_record *rec);

/* A grid command's record: `name` ("vfill", "checkpoint", ...) and `where` ("job.gp:12",
 * may be NULL) are copied. pv_stats_command_begin returns the tracked memory so far and
 * starts measuring the command's own peak (ctx->mem_peak restarts from the current
 * figure); pv_stats_command_end records the command with that peak and restores the
 * run's peak. No MPI; no-op unless ctx->opt.stats_path is set (the begin/end pair still
 * keeps ctx->mem_peak right). */
typedef struct pv_stats_cmd {
    double t0;
    size_t run_peak;
} pv_stats_cmd;
void pv_stats_command_begin(pv_ctx *ctx, pv_stats_cmd *sc);
pv_status pv_stats_command_end(pv_ctx *ctx, const pv_stats_cmd *sc, const char *name,
                               const char *where);

/* Frames recorded on this rank so far (0 when --stats is off). No MPI. */
size_t pv_stats_count(const pv_ctx *ctx);

/* Collective at the end of the run: agrees on the record counts (different counts on
 * different ranks give PV_EINTERNAL everywhere instead of a hang), gathers every rank's
 * frame and command records and peak memory to rank 0 in batches of bounded size, and rank 0 writes the
 * JSON to ctx->opt.stats_path atomically (a temporary beside it, then rename, under the
 * output rule of pvox/outfile.h: a device, FIFO or directory is refused). The records are
 * freed afterwards, so a second call writes a document without frames. Returns the agreed
 * status: PV_EIO with "cannot write 'x.json': <reason>" when the file cannot be written,
 * PV_ENOMEM, PV_EMPI. No-op (PV_OK, no MPI) unless ctx->opt.stats_path is set. */
pv_status pv_stats_write(pv_ctx *ctx);

/* Free the records without writing (pv_ctx_destroy calls it through ctx->stats_free).
 * No MPI; NULL-safe. */
void pv_stats_free(pv_ctx *ctx);

#endif /* PVOX_STATS_H */
