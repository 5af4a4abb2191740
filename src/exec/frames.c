/*
 * exec/frames.c: the frame pipeline kept across frames (frames.h).
 */
#include "frames.h"

#include <stdlib.h>
#include <string.h>

static pv_frames *frames_of(pv_interp *I)
{
    if (!I->frames) I->frames = pv_calloc(I->ctx, 1, sizeof *I->frames);
    return I->frames;
}

static void free_writer(pv_ctx *ctx, pv_frames *F)
{
    size_t px = (size_t)F->w * (size_t)F->h;
    pv_free(ctx, F->bg, F->bg ? px * 4 : 0);
    pv_free(ctx, F->fg, F->fg ? px * 4 : 0);
    pv_free(ctx, F->rgb, F->rgb ? px * 3 : 0);
    F->bg = F->fg = NULL;
    F->rgb = NULL;
}

static void free_buffers(pv_ctx *ctx, pv_frames *F)
{
    free_writer(ctx, F);
    pv_raster_destroy(ctx, F->raster);
    pv_tile_destroy(ctx, F->tile);
    pv_tile_destroy(ctx, F->step);
    pv_compositor_destroy(ctx, F->comp);
    F->raster = NULL;
    F->tile = F->step = NULL;
    F->comp = NULL;
    F->w = F->h = 0;
}

pv_status pv_frames_prepare(pv_interp *I, int w, int h)
{
    pv_ctx *ctx = I->ctx;
    pv_frames *F = frames_of(I);
    pv_status st = F ? PV_OK : ctx->err_code;
    if (F && (F->w != w || F->h != h || !F->comp)) {
        free_buffers(ctx, F);
        F->raster = pv_raster_create(ctx, w, h);
        F->tile = F->raster ? pv_tile_create(ctx, w, h, 0, 0, w, h) : NULL;
        if (!F->tile) st = ctx->err_code ? ctx->err_code : PV_ENOMEM;
        st = pv_status_agree(ctx, st);
        if (st == PV_OK) {
            F->comp = pv_compositor_create(ctx); /* collective, agreed */
            if (!F->comp) st = ctx->err_code ? ctx->err_code : PV_ENOMEM;
        }
        if (st == PV_OK) F->w = w, F->h = h;
        else free_buffers(ctx, F);
        return st;
    }
    return pv_status_agree(ctx, st);
}

int pv_frames_writer(const pv_interp *I)
{
    return I->frames ? (int)(I->frames->count % I->ctx->nranks) : 0;
}

pv_status pv_frames_writer_buffers(pv_interp *I)
{
    pv_frames *F = I->frames;
    if (F->rgb) return PV_OK;
    size_t px = (size_t)F->w * (size_t)F->h;
    F->bg = pv_alloc(I->ctx, px * 4);
    F->fg = F->bg ? pv_alloc(I->ctx, px * 4) : NULL;
    F->rgb = F->fg ? pv_alloc(I->ctx, px * 3) : NULL;
    if (F->rgb) return PV_OK;
    free_writer(I->ctx, F);
    return I->ctx->err_code ? I->ctx->err_code : PV_ENOMEM;
}

void pv_frames_defer(pv_interp *I, pv_status st)
{
    pv_frames *F = I->frames;
    F->pending = st;
    free(F->pending_msg);
    F->pending_msg = NULL;
    if (st != PV_OK) {
        F->pending_msg = I->ctx->err_msg ? strdup(I->ctx->err_msg) : NULL;
        pv_err_clear(I->ctx);
    }
}

void pv_frames_drawn(pv_interp *I, const char *path)
{
    pv_frames *F = I->frames;
    F->count++;
    F->open = true;
    free(F->last_path);
    F->last_path = path ? strdup(path) : NULL;
}

pv_status pv_frames_agree(pv_interp *I, pv_status st)
{
    pv_frames *F = I->frames;
    if (F && F->open && F->pending != PV_OK && st == PV_OK) {
        /* the message was located when the write failed */
        st = pv_err(I->ctx, F->pending, "%s", F->pending_msg ? F->pending_msg
                                                            : pv_status_str(F->pending));
        I->ctx->err_located = true;
    }
    if (F) {
        F->open = false;
        F->pending = PV_OK;
        free(F->pending_msg);
        F->pending_msg = NULL;
    }
    return pv_status_agree(I->ctx, st);
}

pv_status pv_frames_settle(pv_interp *I, pv_status st)
{
    if (!I->frames || !I->frames->open) return st;
    return pv_frames_agree(I, st);
}

void pv_frames_release(pv_interp *I)
{
    pv_frames *F = I->frames;
    if (!F) return;
    free_buffers(I->ctx, F);
    free(F->pending_msg);
    free(F->last_path);
    pv_free(I->ctx, F, sizeof *F);
    I->frames = NULL;
}
