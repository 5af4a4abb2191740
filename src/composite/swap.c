/*
 * composite/swap.c: binary-swap compositing across ranks, gathered on rank 0
 * (composite.h; Ma, Painter, Hansen, Krogh, "Parallel volume rendering using
 * binary-swap compositing", IEEE CG&A 1994; the fold for non-powers of two and the run
 * encoding of empty pixels follow IceT's practice).
 *
 * Ranks are renumbered by visibility, v = 0 nearest. With P2 the largest power of two
 * <= P, ranks v < 2(P - P2) pair up first: odd v sends its whole picture to v - 1, which
 * keeps "v-1 over v". The P2 survivors (u = 0 .. P2-1, still in visibility order) then
 * run log2(P2) rounds: in round k partners u and u^2^k split their current pixel range
 * in halves, each sends the half it gives up and blends the half it keeps, the partner
 * with the smaller u in front. Each survivor ends with 1/P2 of the picture, which rank 0
 * gathers. The association is fixed for a given P, so the result is deterministic.
 *
 * Messages: [u32 runs][runs x (u32 first, u32 count)][pixels], pixel offsets relative to
 * the range start, only non-empty pixels (some sample opacity > 0). A pixel is 4 floats
 * of premultiplied RGBA, the float depth of its nearest fragment (16-bit colour would flip 0.5% of the 8-bit output values by
 * one level against a one-rank render), a tag byte and its 16 sample opacities: none for
 * tag 0 (all 255, the common opaque pixel), one byte for tag 1 (all equal), 16 for tag 2. Buffers are
 * allocated before any message so an allocation failure is agreed first.
 */
#include "pvox/composite.h"

#include <math.h>
#include <string.h>

#define NS PV_RASTER_SAMPLES
#define PX_MAX_BYTES (16u + 4u + 1u + NS) /* colour, depth, tag, opacities */

typedef struct work {
    int w, h;
    size_t npix;
    float *rgba;             /* the whole canvas: this rank's current picture */
    uint8_t *cover;          /* npix x NS sample opacities */
    float *depth;            /* npix: depth of the nearest fragment (INFINITY: none) */
    unsigned char *sbuf, *rbuf;
    size_t cap;              /* bytes of each message buffer */
    float *tmp;              /* decoded pixels of one run (npix x 4) */
    uint8_t *tcover;
    float *tdepth;
    pv_composite_stats st;
} work;

static size_t msg_bound(size_t npix)
{
    /* worst case: every other pixel set -> one run per 2 pixels */
    return 4 + (npix / 2 + 1) * 8 + npix * PX_MAX_BYTES;
}

static inline bool empty_px(const uint8_t *c)
{
    uint64_t a, b;
    memcpy(&a, c, 8);
    memcpy(&b, c + 8, 8);
    return (a | b) == 0;
}

/* Encode pixels [lo, hi) of the working picture into w->sbuf; returns the byte count. */
static size_t encode(work *w, size_t lo, size_t hi)
{
    uint32_t nruns = 0;
    for (size_t i = lo; i < hi; i++)
        if (!empty_px(w->cover + NS * i) && (i == lo || empty_px(w->cover + NS * (i - 1))))
            nruns++;
    unsigned char *p = w->sbuf;
    memcpy(p, &nruns, 4);
    unsigned char *runs = p + 4, *px = runs + (size_t)nruns * 8;
    for (size_t i = lo; i < hi;) {
        if (empty_px(w->cover + NS * i)) {
            i++;
            continue;
        }
        size_t j = i;
        for (; j < hi && !empty_px(w->cover + NS * j); j++) {
            const uint8_t *cv = w->cover + NS * j;
            memcpy(px, w->rgba + 4 * j, 4 * sizeof(float));
            px += 4 * sizeof(float);
            memcpy(px, w->depth + j, sizeof(float));
            px += sizeof(float);
            bool same = true;
            for (int k = 1; k < NS; k++) same = same && cv[k] == cv[0];
            if (same && cv[0] == 255) {
                *px++ = 0;
            } else if (same) {
                *px++ = 1;
                *px++ = cv[0];
            } else {
                *px++ = 2;
                memcpy(px, cv, NS);
                px += NS;
            }
        }
        uint32_t run[2] = {(uint32_t)(i - lo), (uint32_t)(j - i)};
        memcpy(runs, run, 8);
        runs += 8;
        i = j;
    }
    return (size_t)(px - p);
}

/* Blend a message for pixels starting at `lo` into the working picture: the received
 * pixels go in front of ours if `recv_front`, behind otherwise, unless the depths of the
 * two pixels' nearest fragments say the opposite. Along one view ray slabs never
 * interleave, so for thin primitives the depths agree with the slab order; markers are
 * flat sprites with a width, and two that overlap across a slab plane are ordered by
 * their depths, as one rank orders them. */
static void blend_msg(work *w, const unsigned char *msg, size_t lo, bool recv_front)
{
    uint32_t nruns;
    memcpy(&nruns, msg, 4);
    const unsigned char *runs = msg + 4, *px = runs + (size_t)nruns * 8;
    for (uint32_t r = 0; r < nruns; r++) {
        uint32_t run[2];
        memcpy(run, runs + (size_t)r * 8, 8);
        for (uint32_t k = 0; k < run[1]; k++) {
            memcpy(w->tmp + 4 * k, px, 4 * sizeof(float));
            px += 4 * sizeof(float);
            memcpy(w->tdepth + k, px, sizeof(float));
            px += sizeof(float);
            uint8_t *cv = w->tcover + (size_t)NS * k;
            int tag = *px++;
            if (tag == 2) {
                memcpy(cv, px, NS);
                px += NS;
            } else {
                memset(cv, tag == 0 ? 255 : *px++, NS);
            }
        }
        size_t at = lo + run[0];
        for (uint32_t k = 0; k < run[1]; k++) {
            float *mine = w->rgba + 4 * (at + k);
            uint8_t *mc = w->cover + NS * (at + k);
            float md = w->depth[at + k], rd = w->tdepth[k];
            bool front = recv_front ? !(rd > md) : rd < md;
            if (front)
                pv_composite_over(1, w->tmp + 4 * k, w->tcover + NS * k, mine, mc, mine, mc);
            else
                pv_composite_over(1, mine, mc, w->tmp + 4 * k, w->tcover + NS * k, mine, mc);
            if (rd < md) w->depth[at + k] = rd;
        }
    }
}

/* Send pixels [slo, shi) to `to` and blend what `from` sends for [rlo, rhi). */
static void exchange(pv_ctx *ctx, work *w, int to, size_t slo, size_t shi, int from,
                     size_t rlo, bool recv_front, int tag)
{
    size_t nsend = to >= 0 ? encode(w, slo, shi) : 0;
    MPI_Request req[2];
    int nreq = 0;
    if (from >= 0)
        MPI_Irecv(w->rbuf, (int)w->cap, MPI_BYTE, from, tag, ctx->comm, &req[nreq++]);
    if (to >= 0) MPI_Isend(w->sbuf, (int)nsend, MPI_BYTE, to, tag, ctx->comm, &req[nreq++]);
    MPI_Status sts[2];
    MPI_Waitall(nreq, req, sts);
    w->st.bytes_sent += nsend;
    if (from < 0) return;
    int got = 0;
    MPI_Get_count(&sts[0], MPI_BYTE, &got);
    w->st.bytes_recv += (uint64_t)got;
    blend_msg(w, w->rbuf, rlo, recv_front);
}

static void load_local(work *w, const pv_tile *t)
{
    memset(w->rgba, 0, w->npix * 4 * sizeof(float));
    memset(w->cover, 0, w->npix * NS);
    for (size_t i = 0; i < w->npix; i++) w->depth[i] = (float)INFINITY;
    for (int y = 0; y < t->h; y++) {
        size_t dst = (size_t)(t->y0 + y) * (size_t)w->w + (size_t)t->x0;
        size_t src = (size_t)y * (size_t)t->w;
        memcpy(w->rgba + 4 * dst, t->rgba + 4 * src, (size_t)t->w * 4 * sizeof(float));
        memcpy(w->cover + NS * dst, t->cover + NS * src, (size_t)t->w * NS);
        memcpy(w->depth + dst, t->depth + src, (size_t)t->w * sizeof(float));
    }
}

static pv_status work_alloc(pv_ctx *ctx, work *w, const pv_tile *local)
{
    w->w = local->canvas_w;
    w->h = local->canvas_h;
    w->npix = (size_t)w->w * (size_t)w->h;
    w->cap = msg_bound(w->npix) + 16 * (size_t)ctx->nranks;
    if (w->cap > (size_t)0x7FFFFFFF)
        return pv_err(ctx, PV_ERANGE, "canvas %dx%d is too large to composite", w->w, w->h);
    w->rgba = pv_alloc(ctx, w->npix * 4 * sizeof(float));
    w->cover = w->rgba ? pv_alloc(ctx, w->npix * NS) : NULL;
    w->sbuf = w->cover ? pv_alloc(ctx, w->cap) : NULL;
    w->rbuf = w->sbuf ? pv_alloc(ctx, w->cap) : NULL;
    w->tmp = w->rbuf ? pv_alloc(ctx, w->npix * 4 * sizeof(float)) : NULL;
    w->tcover = w->tmp ? pv_alloc(ctx, w->npix * NS) : NULL;
    w->depth = w->tcover ? pv_alloc(ctx, w->npix * sizeof(float)) : NULL;
    w->tdepth = w->depth ? pv_alloc(ctx, w->npix * sizeof(float)) : NULL;
    return w->tdepth ? PV_OK : ctx->err_code;
}

static void work_free(pv_ctx *ctx, work *w)
{
    pv_free(ctx, w->rgba, w->npix * 4 * sizeof(float));
    pv_free(ctx, w->cover, w->npix * NS);
    pv_free(ctx, w->sbuf, w->cap);
    pv_free(ctx, w->rbuf, w->cap);
    pv_free(ctx, w->tmp, w->npix * 4 * sizeof(float));
    pv_free(ctx, w->tcover, w->npix * NS);
    pv_free(ctx, w->depth, w->npix * sizeof(float));
    pv_free(ctx, w->tdepth, w->npix * sizeof(float));
}

/* Gather every survivor's final range on rank 0 into `out`. */
static pv_status gather(pv_ctx *ctx, work *w, bool survivor, size_t lo, size_t hi,
                        pv_tile *out)
{
    size_t n = survivor && ctx->rank != 0 ? encode(w, lo, hi) : 0;
    uint64_t head[3] = {n, lo, hi};
    int P = ctx->nranks;
    uint64_t *all = NULL;
    int *counts = NULL, *displs = NULL;
    pv_status st = PV_OK;
    if (ctx->rank == 0) {
        all = pv_calloc(ctx, (size_t)P * 3, sizeof *all);
        counts = pv_calloc(ctx, (size_t)P, sizeof *counts);
        displs = pv_calloc(ctx, (size_t)P, sizeof *displs);
        if (!all || !counts || !displs) st = ctx->err_code;
    }
    st = pv_status_agree(ctx, st);
    if (st == PV_OK) {
        MPI_Gather(head, 3, MPI_UINT64_T, all, 3, MPI_UINT64_T, 0, ctx->comm);
        size_t total = 0;
        if (ctx->rank == 0)
            for (int r = 0; r < P; r++) {
                counts[r] = (int)all[3 * r];
                displs[r] = (int)total;
                total += all[3 * r];
            }
        MPI_Gatherv(w->sbuf, (int)n, MPI_BYTE, w->rbuf, counts, displs, MPI_BYTE, 0, ctx->comm);
        w->st.bytes_sent += ctx->rank == 0 ? 0 : n;
        if (ctx->rank == 0) {
            /* rank 0's own piece stays in float; the others are decoded over nothing */
            w->st.bytes_recv += total - n;
            for (size_t i = 0; i < w->npix; i++) {
                bool own = survivor && i >= lo && i < hi;
                if (own) continue;
                memset(w->rgba + 4 * i, 0, 4 * sizeof(float));
                memset(w->cover + NS * i, 0, NS);
                w->depth[i] = (float)INFINITY;
            }
            for (int r = 1; r < P; r++)
                if (counts[r] > 0) blend_msg(w, w->rbuf + displs[r], (size_t)all[3 * r + 1], false);
            memcpy(out->rgba, w->rgba, w->npix * 4 * sizeof(float));
            memcpy(out->cover, w->cover, w->npix * NS);
            for (size_t i = 0; i < w->npix; i++) {
                unsigned m = 0;
                for (int k = 0; k < NS; k++) m |= (unsigned)(w->cover[NS * i + (size_t)k] != 0) << k;
                out->mask[i] = (uint16_t)m;
                out->depth[i] = w->depth[i];
            }
        }
    }
    pv_free(ctx, all, (size_t)P * 3 * sizeof *all);
    pv_free(ctx, counts, (size_t)P * sizeof *counts);
    pv_free(ctx, displs, (size_t)P * sizeof *displs);
    return st;
}

pv_status pv_composite_gather(pv_ctx *ctx, const pv_tile *local, bool rank0_front,
                              pv_tile *out, pv_composite_stats *stats)
{
    double t0 = MPI_Wtime();
    work w = {0};
    pv_status st = PV_OK;
    int dims[2] = {local->canvas_w, local->canvas_h}, dmin[2], dmax[2];
    MPI_Allreduce(dims, dmin, 2, MPI_INT, MPI_MIN, ctx->comm);
    MPI_Allreduce(dims, dmax, 2, MPI_INT, MPI_MAX, ctx->comm);
    if (dmin[0] != dmax[0] || dmin[1] != dmax[1])
        st = pv_err(ctx, PV_ERANGE, "ranks composite tiles of different canvases");
    else if (ctx->rank == 0 && (!out || out->x0 || out->y0 || out->w != local->canvas_w ||
                                out->h != local->canvas_h))
        st = pv_err(ctx, PV_ERANGE, "the composite needs a whole-canvas tile on rank 0");
    if (!st) st = work_alloc(ctx, &w, local);
    st = pv_status_agree(ctx, st);
    if (st) goto done;
    load_local(&w, local);

    int P = ctx->nranks;
    int v = rank0_front ? ctx->rank : P - 1 - ctx->rank;
#define RANK_OF(vv) (rank0_front ? (vv) : P - 1 - (vv))
    int p2 = 1;
    while (p2 * 2 <= P) p2 *= 2;
    int extra = P - p2;
    bool survivor = true;
    int u = v >= 2 * extra ? v - extra : v / 2;
    if (v < 2 * extra) {
        if (v % 2) {
            exchange(ctx, &w, RANK_OF(v - 1), 0, w.npix, -1, 0, false, PV_TAG_COMPOSITE_FOLD);
            survivor = false;
        } else {
            exchange(ctx, &w, -1, 0, 0, RANK_OF(v + 1), 0, false, PV_TAG_COMPOSITE_FOLD);
        }
    }
    size_t lo = 0, hi = w.npix;
    if (survivor) {
        for (int bit = 1; bit < p2; bit <<= 1) {
            int pu = u ^ bit;
            int pv = pu < extra ? 2 * pu : pu + extra; /* the partner's visibility index */
            size_t mid = lo + (hi - lo) / 2;
            bool keep_low = (u & bit) == 0;
            size_t slo = keep_low ? mid : lo, shi = keep_low ? hi : mid;
            size_t klo = keep_low ? lo : mid, khi = keep_low ? mid : hi;
            exchange(ctx, &w, RANK_OF(pv), slo, shi, RANK_OF(pv), klo, pu < u,
                     PV_TAG_COMPOSITE_SWAP);
            lo = klo;
            hi = khi;
        }
    }
#undef RANK_OF
    st = gather(ctx, &w, survivor, lo, hi, out);
done:
    work_free(ctx, &w);
    w.st.t_sec = MPI_Wtime() - t0;
    if (stats) *stats = w.st;
    return st;
}
