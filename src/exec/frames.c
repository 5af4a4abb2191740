/*
 * exec/frames.c: the frame pipeline kept across frames (frames.h).
 */
#include "frames.h"
#include "gridset.h"

#include "pvox/png_async.h"
#include "pvox/stats.h"

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
    pv_png_async_destroy(ctx, F->enc); /* waits for a job in flight */
    F->enc = NULL;
    F->job = false;
    pv_free(ctx, F->bg, F->bg ? px * 4 : 0);
    pv_free(ctx, F->fg, F->fg ? px * 4 : 0);
    for (int k = 0; k < 2; k++) pv_free(ctx, F->rgb[k], F->rgb[k] ? px * 3 : 0);
    F->bg = F->fg = NULL;
    F->rgb[0] = F->rgb[1] = NULL;
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

static void open_fini(pv_frame_open *o)
{
    free(o->path);
    free(o->loc_name);
    free(o->loc_line);
    memset(o, 0, sizeof *o);
}

pv_status pv_frames_prepare(pv_interp *I, int w, int h)
{
    pv_ctx *ctx = I->ctx;
    pv_frames *F = frames_of(I);
    pv_status st = F ? PV_OK : ctx->err_code;
    if (F && (F->w != w || F->h != h || !F->comp)) {
        /* a frame in flight keeps its buffers: agree on it first (collective: every rank
         * knows it is open) */
        if (F->open) st = pv_frames_agree(I, st);
        if (st != PV_OK) return st;
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

int pv_frames_writer(const pv_interp *I, const char *path)
{
    /* frames take turns on the ranks, but a stream (`/dev/stdout`, "| cmd") keeps order */
    if (pv_io_is_stream_name(path)) return 0;
    int P = I->ctx->nranks, fixed = I->ctx->opt.frame_writer;
    if (fixed >= 0) return fixed % P;
    return I->frames ? (int)(I->frames->count % P) : 0;
}

pv_status pv_frames_writer_buffers(pv_interp *I)
{
    pv_frames *F = I->frames;
    if (F->enc) return PV_OK;
    size_t px = (size_t)F->w * (size_t)F->h;
    F->bg = pv_alloc(I->ctx, px * 4);
    F->fg = F->bg ? pv_alloc(I->ctx, px * 4) : NULL;
    F->rgb[0] = F->fg ? pv_alloc(I->ctx, px * 3) : NULL;
    F->rgb[1] = F->rgb[0] ? pv_alloc(I->ctx, px * 3) : NULL;
    F->enc = F->rgb[1] ? pv_png_async_create(I->ctx) : NULL;
    if (F->enc) return PV_OK;
    free_writer(I->ctx, F);
    return I->ctx->err_code ? I->ctx->err_code : PV_ENOMEM;
}

void pv_frames_opened(pv_interp *I, const pv_frame_open *rec, const pv_source *src, size_t off)
{
    pv_frames *F = I->frames;
    open_fini(&F->cur);
    F->cur = *rec;
    F->cur.path = rec->path ? strdup(rec->path) : NULL;
    F->cur.loc_name = NULL;
    F->cur.loc_line = NULL;
    if (src && I->ctx->rank == rec->writer) {
        /* the plot command's line, kept to locate a failed write (the source may be gone
         * by the time the write is agreed) */
        size_t a = off < src->len ? off : src->len, b = a;
        int lo = 0, hi = src->nlines; /* the last line starting at or before a */
        while (hi - lo > 1) {
            int mid = lo + (hi - lo) / 2;
            if (src->line_off[mid] <= a) lo = mid;
            else hi = mid;
        }
        int line = src->first_line + lo;
        a = src->nlines > 0 ? src->line_off[lo] : 0;
        while (b < src->len && src->text[b] != '\n') b++;
        F->cur.loc_name = strdup(src->name ? src->name : "");
        F->cur.loc_line = strndup(src->text + a, b - a);
        F->cur.loc_len = b - a;
        F->cur.loc_col = off - a;
        F->cur.loc_lineno = line;
    }
    F->count++;
    F->open = true;
}

void pv_frames_failed(pv_interp *I, pv_status st)
{
    pv_frames *F = I->frames;
    F->failed = st;
    free(F->failed_msg);
    F->failed_msg = I->ctx->err_msg ? strdup(I->ctx->err_msg) : NULL;
    pv_err_clear(I->ctx);
}

/* Writer: the status of the open frame's PNG, its error recorded located in ctx. */
static pv_status collect_write(pv_interp *I, pv_frames *F)
{
    if (!F->job && F->failed == PV_OK) return PV_OK;
    char *msg = NULL;
    double secs = 0.0;
    pv_status st;
    if (F->job) {
        st = pv_png_async_wait(F->enc, &msg, &secs);
    } else {
        st = F->failed;
        msg = F->failed_msg;
        F->failed_msg = NULL;
    }
    F->job = false;
    F->failed = PV_OK;
    F->cur.t[5] = secs;
    pv_frame_open *o = &F->cur;
    if (st != PV_OK) {
        const char *m = msg ? msg : pv_status_str(st);
        char *full = o->loc_line ? pv_diag_format(o->loc_name, o->loc_line, o->loc_len,
                                                  o->loc_lineno, o->loc_col, "error", m)
                                 : NULL;
        pv_err(I->ctx, st, "%s", full ? full : m);
        I->ctx->err_located = full != NULL;
        free(full);
    } else {
        pv_log_here(I->ctx, PV_LOG_INFO, "render",
                    "wrote %s (%dx%d, %llu points, %llu triangles on rank %d; scene %.3f s, "
                    "raster %.3f s, composite %.3f s, annotate %.3f s, png %.3f s; tracked "
                    "memory peak %.1f MiB)",
                    o->path ? o->path : "?", o->width, o->height,
                    (unsigned long long)o->points, (unsigned long long)o->triangles,
                    I->ctx->rank, o->t[0], o->t[1], o->t[2], o->t[3], o->t[4] + o->t[5],
                    (double)I->ctx->mem_peak / 1048576.0);
    }
    free(msg);
    return st;
}

pv_status pv_frames_agree(pv_interp *I, pv_status st)
{
    pv_frames *F = I->frames;
    if (F && F->open) {
        pv_status ws = collect_write(I, F);
        if (st == PV_OK) st = ws;
        const pv_frame_open *o = &F->cur;
        pv_frame_record rec = {o->path, o->width, o->height, o->writer, {0}, o->bytes_sent,
                               o->bytes_recv, o->image_bytes,
                               o->active_pixels, o->triangles, o->points};
        memcpy(rec.t, o->t, sizeof rec.t);
        pv_status ss = pv_stats_frame(I->ctx, &rec);
        if (st == PV_OK) st = ss;
        F->open = false;
        open_fini(&F->cur);
    }
    return pv_status_agree(I->ctx, st);
}

pv_status pv_frames_settle(pv_interp *I, pv_status st)
{
    if (I->frames && I->frames->bar_loop && I->loop_total == 0) {
        pv_progress_end(I->ctx, &I->frames->bar);
        I->frames->bar_loop = 0;
    }
    if (!I->frames || !I->frames->open) return st;
    return pv_frames_agree(I, st);
}

void pv_frames_progress(pv_interp *I)
{
    pv_frames *F = I->frames;
    if (!F) return;
    bool in_loop = I->loop_total > 0;
    if (F->bar_loop && (!in_loop || F->bar_loop != I->loop_serial)) {
        pv_progress_end(I->ctx, &F->bar);
        F->bar_loop = 0;
    }
    if (!in_loop) return;
    if (!F->bar_loop) {
        pv_progress_begin_units(I->ctx, &F->bar, "frames", I->loop_total, "frames");
        F->bar_loop = I->loop_serial;
    }
    pv_progress_update(I->ctx, &F->bar, I->loop_index + 1);
}

pv_scene_iso_cache *pv_frames_iso_cache(pv_interp *I, int p, int npasses)
{
    pv_frames *F = I->frames;
    size_t budget = I->ctx->opt.iso_cache_bytes;
    if (budget == PV_ISO_CACHE_AUTO) { /* what the rank's grids leave of the allowance */
        size_t grids = 0;
        for (size_t k = 0, n = pv_gridset_count(I); k < n; k++) grids += pv_gridset_at(I, k)->nbytes;
        budget = pv_iso_cache_default(grids);
    }
    if (!F) return NULL;
    /* a statement changed grids: nothing kept is valid; a budget of 0 (the default once
     * the rank's grids reach 1 GiB) keeps nothing either */
    if (F->iso_seq != I->ck.seq || budget == 0) {
        for (int k = 0; k < PV_FRAMES_ISO_CACHES; k++) pv_scene_iso_cache_free(I->ctx, &F->iso[k]);
        F->iso_seq = I->ck.seq;
    }
    if (p >= PV_FRAMES_ISO_CACHES || budget == 0) return NULL;
    F->iso[p].budget = budget / (size_t)(npasses > 0 ? npasses : 1);
    return &F->iso[p];
}

void pv_frames_release(pv_interp *I)
{
    pv_frames *F = I->frames;
    if (!F) return;
    if (F->bar_loop) pv_progress_end(I->ctx, &F->bar);
    for (int k = 0; k < PV_FRAMES_ISO_CACHES; k++) pv_scene_iso_cache_free(I->ctx, &F->iso[k]);
    free_buffers(I->ctx, F);
    open_fini(&F->cur);
    free(F->failed_msg);
    pv_free(I->ctx, F, sizeof *F);
    I->frames = NULL;
}
