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

typedef struct pv_frames {
    int w, h;                /* canvas of the buffers below (0: none) */
    pv_raster *raster;
    pv_tile *tile;           /* this rank's tile; on the writer, the picture after compositing */
    pv_tile *step;           /* z steps of isosurface frames (made when first needed) */
    pv_compositor *comp;
    uint32_t *bg, *fg;       /* writer: the annotation's back and front layers */
    uint8_t *rgb;            /* writer: the 8-bit picture */
    int64_t count;           /* frames drawn so far (the same on every rank) */
    bool open;               /* the last frame's write status is not agreed yet */
    pv_status pending;       /* writer: status of its last write */
    char *pending_msg;       /* ... and its located message */
    char *last_path;         /* output of the last frame */
} pv_frames;

/* Make the buffers for a w x h canvas (kept when the size is the same). Collective; the
 * status is agreed. */
pv_status pv_frames_prepare(pv_interp *I, int w, int h);

/* The rank that receives, annotates and writes the next frame. */
int pv_frames_writer(const pv_interp *I);

/* The writer's buffers (allocated on first use). Not collective. */
pv_status pv_frames_writer_buffers(pv_interp *I);

/* Agree on `st` together with the open frame's write status (collective): the first
 * failure wins, a failed write reports the message its writer recorded. Closes the open
 * frame. */
pv_status pv_frames_agree(pv_interp *I, pv_status st);

/* pv_frames_agree when a frame is open, else `st` unchanged with no message: the end of
 * a run, or before commands that must see every written frame. Collective. */
pv_status pv_frames_settle(pv_interp *I, pv_status st);

/* Writer: keep the status of the write just done (its error located and recorded in
 * ctx), clearing ctx's error state so the run goes on until the status is agreed. */
void pv_frames_defer(pv_interp *I, pv_status st);

/* Count a drawn frame: it is open until agreed; `path` is its output. */
void pv_frames_drawn(pv_interp *I, const char *path);

/* Free every buffer (local, no MPI). The pipeline is made again when next needed. */
void pv_frames_release(pv_interp *I);

#endif
