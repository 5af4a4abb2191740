/*
 * exec/frames: the frame pipeline, held by the interpreter across the frames of a run
 * (docs/ARCHITECTURE.md, ARCH-20).
 *
 * A frame sequence (`do for [j=0:99] { set output ...; splot ... }`) draws many pictures
 * of one canvas. What a frame needs beyond its primitives is made once per canvas size
 * and kept: the rasteriser with its work buffers, this rank's tile (cleared only where
 * the last frame drew), the z-step tile of isosurface frames, the compositor's message
 * buffers and, on ranks that write, the annotation layers and the 8-bit image.
 *
 * Rotating writers. Frame f is received by rank f mod P, which annotates, encodes and
 * writes it while the other ranks go on to the next frame; nothing waits for an encoder
 * except the next collective that needs that rank. The status of a write is therefore
 * agreed later: at the next frame's agreement, before a command that runs a shell or
 * reads what frames wrote (pv_frames_settle), or at the end of the run; the error names
 * the plot command that drew the frame. Whether a frame is open is the same on every
 * rank (every rank counts the frames), so settling is a collective exactly when needed.
 */
#ifndef PV_EXEC_FRAMES_H
#define PV_EXEC_FRAMES_H

#include "exec_int.h"
#include "pvox/composite.h"
#include "pvox/raster.h"
#include "pvox/scene.h"

#define PV_FRAMES_ISO_CACHES 16

struct pv_png_async;

/* What a rank knows of the frame in flight until its write is agreed: the figures of
 * --stats and the "wrote" line, and where the plot command was, to locate a failed
 * write. */
typedef struct pv_frame_open {
    char *path;
    int width, height, writer;
    double t[6];             /* seconds in the phases of stats.h: scene, raster, composite,
                                annotate, encode (the 8-bit image), write (PNG compression
                                and file, on the writer's PNG thread) */
    uint64_t bytes_sent, bytes_recv, active_pixels, triangles, points;
    uint64_t image_bytes;    /* writer: its picture's PV_COMPOSITE_IMAGE_BYTES (else 0) */
    char *loc_name, *loc_line; /* the plot command's source name and line */
    size_t loc_len, loc_col;
    int loc_lineno;
} pv_frame_open;

typedef struct pv_frames {
    int w, h;                /* canvas of the buffers below (0: none) */
    pv_raster *raster;
    pv_tile *tile;           /* this rank's tile; on the writer, the picture after compositing */
    pv_tile *step;           /* z steps of isosurface frames (made when first needed) */
    pv_compositor *comp;
    uint32_t *bg, *fg;       /* writer: the annotation's back and front layers */
    uint8_t *rgb[2];         /* writer: 8-bit pictures, alternating (one may be encoding) */
    struct pv_png_async *enc;/* writer: the PNG thread */
    bool job;                /* this rank's PNG thread holds the open frame */
    pv_status failed;        /* writer: the open frame failed before its job (or PV_OK) */
    char *failed_msg;
    int64_t count;           /* frames drawn so far (the same on every rank) */
    bool open;               /* the last frame's write status is not agreed yet */
    pv_frame_open cur;       /* ... and what is known of it */
    /* isosurface polygons kept for the next frame, one cache per pass (scene.h), valid
       while no statement changed a grid (iso_seq: the checkpoint counter of them) */
    pv_scene_iso_cache iso[PV_FRAMES_ISO_CACHES];
    int64_t iso_seq;
    pv_progress bar;         /* frames of the outermost loop (rank 0, --progress) */
    int64_t bar_loop;        /* the loop_serial the bar counts, 0: no bar */
} pv_frames;

/* Advance the frame progress bar (a frame was drawn): inside a loop of known length, the
 * bar shows its iterations; it ends when the loop does. */
void pv_frames_progress(pv_interp *I);

/* The cache for pass p of a frame's isosurfaces (NULL: none), its budget set. */
pv_scene_iso_cache *pv_frames_iso_cache(pv_interp *I, int p, int npasses);

/* Make the buffers for a w x h canvas (kept when the size is the same). Collective; the
 * status is agreed. */
pv_status pv_frames_prepare(pv_interp *I, int w, int h);

/* The rank that receives, annotates and writes the next frame, to `path`: rank 0 for a
 * stream (pv_io_is_stream_name), else --frame-writer's choice. */
int pv_frames_writer(const pv_interp *I, const char *path);

/* The writer's buffers and thread (made on first use). Not collective. */
pv_status pv_frames_writer_buffers(pv_interp *I);

/* Agree on `st` together with the open frame's write status (collective): the writer
 * waits for its PNG thread; the first failure wins, a failed write reports its message
 * located at the plot command. Closes the open frame: its "wrote" line and --stats
 * record. */
pv_status pv_frames_agree(pv_interp *I, pv_status st);

/* pv_frames_agree when a frame is open, else `st` unchanged with no message: the end of
 * a run, or before commands that must see every written frame. Collective. */
pv_status pv_frames_settle(pv_interp *I, pv_status st);

/* Open the frame just composited (every rank): `rec` is copied (path included); `src`
 * and `off` locate the plot command. */
void pv_frames_opened(pv_interp *I, const pv_frame_open *rec, const pv_source *src, size_t off);

/* Writer: the frame could not be handed to the PNG thread; its error (recorded in ctx,
 * then cleared there) is reported when the frame's write is agreed. */
void pv_frames_failed(pv_interp *I, pv_status st);

/* Free every buffer (local, no MPI). The pipeline is made again when next needed. */
void pv_frames_release(pv_interp *I);

#endif
