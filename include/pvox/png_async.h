/*
 * pvox png_async: a PNG writer thread, so encoding one frame overlaps drawing the next
 * (module io).
 *
 * One job at a time: pv_png_async_submit hands over an 8-bit picture and returns at once
 * (after the previous job has finished); the thread encodes and writes it with
 * pv_png_write (png.h: temporary name, renamed when whole). pv_png_async_wait returns the
 * job's status and error message. The caller keeps the pixels unchanged until then, so a
 * frame sequence alternates between two picture buffers.
 *
 * The thread makes no MPI calls (MPI_THREAD_FUNNELED is enough) and touches nothing of
 * the caller's pv_ctx: it writes with a private copy whose error state it hands back;
 * the few bytes libpng's row table takes are not counted in the caller's memory totals.
 */
#ifndef PVOX_PNG_ASYNC_H
#define PVOX_PNG_ASYNC_H

#include "pvox/core.h"
#include "pvox/png.h"

typedef struct pv_png_async pv_png_async;

/* Start the thread. NULL (PV_ENOMEM or PV_EINTERNAL recorded) on failure. */
pv_png_async *pv_png_async_create(pv_ctx *ctx);
/* Wait for the job in flight, stop the thread, free. NULL is allowed. */
void pv_png_async_destroy(pv_ctx *ctx, pv_png_async *a);

/* Queue a picture (arguments as pv_png_write; `path` and `opt` are copied, `pixels` is
 * not: keep it until pv_png_async_wait). Waits for the previous job first: its result
 * must have been taken with pv_png_async_wait. */
pv_status pv_png_async_submit(pv_ctx *ctx, pv_png_async *a, const char *path, int width,
                              int height, int channels, const uint8_t *pixels, size_t stride,
                              const pv_png_options *opt);

/* Wait for the job in flight, if any. Returns its status (PV_OK when there was none);
 * `*msg` (may be NULL) receives its error message (malloc'd, or NULL) and `*seconds` (may
 * be NULL) the time the thread spent on it. */
pv_status pv_png_async_wait(pv_png_async *a, char **msg, double *seconds);

#endif /* PVOX_PNG_ASYNC_H */
