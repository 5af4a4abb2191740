/*
 * composite/swap.c: binary-swap compositing across ranks onto any receiving rank
 * (composite.h; Ma, Painter, Hansen, Krogh, "Parallel volume rendering using
 * binary-swap compositing", IEEE CG&A 1994; the fold for non-powers of two, the run
 * encoding of empty pixels and the persistent compositor state follow IceT's practice).
 *
 * Ranks are renumbered by visibility, v = 0 nearest. With P2 the largest power of two
 * <= P, ranks v < 2(P - P2) pair up first: odd v sends its whole picture to v - 1, which
 * keeps "v-1 over v". The P2 survivors (u = 0 .. P2-1, still in visibility order) then
 * run log2(P2) rounds: in round k partners u and u^2^k split their current pixel range
 * in halves, each sends the half it gives up and blends the half it keeps, the partner
 * with the smaller u in front. Each survivor ends with 1/P2 of the picture; the
 * receiving rank computes every survivor's range from the same rule and takes the pieces
 * from them. The association is fixed for a given P, so the result is deterministic and
 * does not depend on which rank receives.
 *
 * Work is done in place in the caller's tile, inside its dirty box, so a frame costs
 * what it draws. Messages stream in chunks of at most CHUNK bytes, so the two chunk
 * buffers are the compositor's only memory whatever the canvas, allocated (and agreed)
 * in pv_compositor_create. Only the tile's store of per-sample colours may grow inside
 * the exchange; a rank that finds no memory for it finishes the exchange (the pixel
 * keeps one colour) and the failure is agreed after it, so no rank waits in vain.
 *
 * A chunk: [u32 last][runs], a run [u32 first][u32 count][count pixels], `first`
 * relative to the start of the range being sent. Swap pixels: 4 floats of premultiplied
 * RGBA, the float depth of the nearest fragment (16-bit colour would flip 0.5% of the
 * 8-bit output values by one level against a one-rank render), a tag byte and the 16
 * sample opacities: none for tag 0 (all 255, the common opaque pixel), one byte for
 * tag 1 (all equal), 16 for tag 2; tag bit 4 adds the pixel's per-sample colours
 * (put_rich). Pieces of the final picture travel as RGBA alone (16 bytes): nothing is
 * blended with them any more.
 */
#include "pvox/composite.h"

#include <math.h>
#include <string.h>

#define NS PV_RASTER_SAMPLES
#define PX_SWAP_MAX (16u + 4u + 1u + NS + 1u + (unsigned)sizeof(pv_rich)) /* colour,
                                     depth, tag, opacities, per-sample colours */
#define TAG_RICH 4u                      /* tag bit: the per-sample colours follow */
#define RICH_PALETTE 4                   /* distinct sample colours sent as a palette */

/* Per-sample colours on the wire: a count n, then for n in 1..4 n colours (3 bytes
 * each) and a 2-bit palette index per sample (4 bytes), for n = 0 the 48 bytes as
 * they are. A pixel split between two surfaces has two or three distinct colours. */
static unsigned char *put_rich(unsigned char *p, const pv_rich *r)
{
    uint8_t pal[RICH_PALETTE][3];
    uint32_t idx = 0;
    int n = 0;
    for (int s = 0; s < NS; s++) {
        int k = 0;
        while (k < n && memcmp(pal[k], r->rgb[s], 3) != 0) k++;
        if (k == n) {
            if (n == RICH_PALETTE) {
                *p++ = 0;
                memcpy(p, r, sizeof *r);
                return p + sizeof *r;
            }
            memcpy(pal[n++], r->rgb[s], 3);
        }
        idx |= (uint32_t)k << (2 * s);
    }
    *p++ = (unsigned char)n;
    memcpy(p, pal, (size_t)n * 3);
    p += (size_t)n * 3;
    memcpy(p, &idx, 4);
    return p + 4;
}

static const unsigned char *get_rich(const unsigned char *p, pv_rich *r)
{
    int n = *p++;
    if (n == 0 || n > RICH_PALETTE) {
        memcpy(r, p, sizeof *r);
        return p + sizeof *r;
    }
    uint8_t pal[RICH_PALETTE][3];
    memcpy(pal, p, (size_t)n * 3);
    p += (size_t)n * 3;
    uint32_t idx;
    memcpy(&idx, p, 4);
    for (int s = 0; s < NS; s++) memcpy(r->rgb[s], pal[(idx >> (2 * s)) & 3u], 3);
    return p + 4;
}
#define PX_FINAL 16u                     /* colour */
#define RUN_HEAD 8u
#define CHUNK ((size_t)2 << 20)          /* bytes of one message at most */

struct pv_compositor {
    unsigned char *sbuf, *rbuf; /* CHUNK bytes each */
    bool nomem;                 /* a pixel's per-sample colours found no room (this run) */
    pv_composite_stats st;      /* of the current run */
};

pv_compositor *pv_compositor_create(pv_ctx *ctx)
{
    pv_compositor *c = pv_calloc(ctx, 1, sizeof *c);
    if (c) {
        c->sbuf = pv_alloc(ctx, CHUNK);
        c->rbuf = c->sbuf ? pv_alloc(ctx, CHUNK) : NULL;
        if (!c->rbuf) {
            pv_compositor_destroy(ctx, c);
            c = NULL;
        }
    }
    pv_status st = pv_status_agree(ctx, c ? PV_OK : (ctx->err_code ? ctx->err_code : PV_ENOMEM));
    if (st != PV_OK) {
        pv_compositor_destroy(ctx, c);
        return NULL;
    }
    return c;
}

void pv_compositor_destroy(pv_ctx *ctx, pv_compositor *c)
{
    if (!c) return;
    pv_free(ctx, c->sbuf, c->sbuf ? CHUNK : 0);
    pv_free(ctx, c->rbuf, c->rbuf ? CHUNK : 0);
    pv_free(ctx, c, sizeof *c);
}

/* ---- walking the non-empty pixels of a range inside the dirty box -------------------- */

static inline bool empty_px(const uint8_t *cv)
{
    uint64_t a, b;
    memcpy(&a, cv, 8);
    memcpy(&b, cv + 8, 8);
    return (a | b) == 0;
}

/* The first pixel >= i inside the tile's dirty box, or `hi` when none is below hi. */
static size_t next_in_box(const pv_tile *t, size_t i, size_t hi)
{
    size_t W = (size_t)t->w;
    if (t->dx1 <= t->dx0 || t->dy1 <= t->dy0) return hi;
    size_t y = i / W, x = i % W;
    if (y < (size_t)t->dy0) y = (size_t)t->dy0, x = (size_t)t->dx0;
    if (x < (size_t)t->dx0) x = (size_t)t->dx0;
    if (x >= (size_t)t->dx1) y++, x = (size_t)t->dx0;
    if (y >= (size_t)t->dy1) return hi;
    size_t j = y * W + x;
    return j < hi ? j : hi;
}

/* End of the dirty box's row segment that holds pixel i. */
static size_t row_end(const pv_tile *t, size_t i)
{
    size_t W = (size_t)t->w;
    return (i / W) * W + (size_t)t->dx1;
}

/* Fill c->sbuf with the next chunk of pixels [*cur, hi) of the tile (offsets relative
 * to lo); advances *cur. Returns the byte count; *last is set when the range is done. */
static size_t encode_chunk(pv_compositor *c, const pv_tile *t, size_t lo, size_t *cur,
                           size_t hi, bool final, bool *last)
{
    unsigned char *p = c->sbuf + 4, *end = c->sbuf + CHUNK;
    const size_t px_max = final ? PX_FINAL : PX_SWAP_MAX;
    size_t i = next_in_box(t, *cur, hi);
    while (i < hi) {
        size_t stop = row_end(t, i);
        if (stop > hi) stop = hi;
        /* skip empty pixels of this row segment */
        while (i < stop && empty_px(t->cover + NS * i)) i++;
        if (i == stop) {
            i = next_in_box(t, stop, hi);
            continue;
        }
        if ((size_t)(end - p) < RUN_HEAD + px_max) break; /* chunk full */
        unsigned char *head = p;
        p += RUN_HEAD;
        size_t j = i;
        for (; j < stop && !empty_px(t->cover + NS * j) && (size_t)(end - p) >= px_max; j++) {
            memcpy(p, t->rgba + 4 * j, 4 * sizeof(float));
            p += 4 * sizeof(float);
            if (final) continue;
            memcpy(p, t->depth + j, sizeof(float));
            p += sizeof(float);
            const uint8_t *cv = t->cover + NS * j;
            const pv_rich *rich = pv_tile_rich(t, j);
            unsigned char extra = rich ? TAG_RICH : 0;
            bool same = true;
            for (int k = 1; k < NS; k++) same = same && cv[k] == cv[0];
            if (same && cv[0] == 255) {
                *p++ = extra;
            } else if (same) {
                *p++ = 1 | extra;
                *p++ = cv[0];
            } else {
                *p++ = 2 | extra;
                memcpy(p, cv, NS);
                p += NS;
            }
            if (rich) p = put_rich(p, rich);
        }
        uint32_t run[2] = {(uint32_t)(i - lo), (uint32_t)(j - i)};
        memcpy(head, run, RUN_HEAD);
        i = j;
        if (j < stop && !empty_px(t->cover + NS * j)) break; /* chunk full mid-run */
    }
    *cur = i;
    *last = i >= hi;
    uint32_t flag = *last;
    memcpy(c->sbuf, &flag, 4);
    return (size_t)(p - c->sbuf);
}

/* Mark the pixels [at, at+n) dirty. */
static void touch_span(pv_tile *t, size_t at, size_t n)
{
    size_t W = (size_t)t->w;
    int y0 = (int)(at / W), y1 = (int)((at + n - 1) / W);
    if (y0 == y1) pv_tile_touch(t, (int)(at % W), y0, (int)((at + n - 1) % W) + 1, y0 + 1);
    else pv_tile_touch(t, 0, y0, t->w, y1 + 1);
}

static inline uint16_t mask_of(const uint8_t *cv)
{
    unsigned m = 0;
    for (int k = 0; k < NS; k++) m |= (unsigned)(cv[k] != 0) << k;
    return (uint16_t)m;
}

/* Blend a chunk of `len` bytes for the range starting at `lo` into the tile: received
 * pixels go in front of ours if `recv_front`, behind otherwise, unless the depths of the
 * two pixels' nearest fragments say the opposite. Along one view ray slabs never
 * interleave, so for thin primitives the depths agree with the slab order; markers are
 * flat sprites with a width, and two that overlap across a slab plane are ordered by
 * their depths, as one rank orders them. Final pieces (`final`) are written as they are. */
static bool decode_chunk(pv_ctx *ctx, pv_tile *t, const unsigned char *msg, size_t len,
                         size_t lo, bool recv_front, bool final, bool *nomem)
{
    uint32_t last;
    memcpy(&last, msg, 4);
    const unsigned char *p = msg + 4, *end = msg + len;
    while (p + RUN_HEAD <= end) {
        uint32_t run[2];
        memcpy(run, p, RUN_HEAD);
        p += RUN_HEAD;
        size_t at = lo + run[0];
        for (uint32_t k = 0; k < run[1]; k++) {
            size_t i = at + k;
            if (final) {
                memcpy(t->rgba + 4 * i, p, 4 * sizeof(float));
                p += 4 * sizeof(float);
                t->mask[i] = PV_RASTER_MASK_FULL;
                continue;
            }
            float px[4], rd;
            uint8_t cv[NS];
            memcpy(px, p, sizeof px);
            p += sizeof px;
            memcpy(&rd, p, sizeof rd);
            p += sizeof rd;
            int tag = *p++;
            if ((tag & 3) == 2) {
                memcpy(cv, p, NS);
                p += NS;
            } else {
                memset(cv, (tag & 3) == 0 ? 255 : *p++, NS);
            }
            pv_rich rich;
            if (tag & TAG_RICH) p = get_rich(p, &rich);
            float md = t->depth[i];
            bool front = recv_front ? !(rd > md) : rd < md;
            if (!pv_composite_into(ctx, t, i, px, cv, (tag & TAG_RICH) ? &rich : NULL, front))
                *nomem = true;
            if (rd < md) t->depth[i] = rd;
            t->mask[i] |= mask_of(cv);
        }
        if (run[1]) touch_span(t, at, run[1]);
    }
    return last != 0;
}

/* Send pixels [slo, shi) to `to` and blend what `from` sends for the range starting at
 * rlo, chunk by chunk in both directions at once (to or from may be -1). */
static void exchange(pv_ctx *ctx, pv_compositor *c, pv_tile *t, int to, size_t slo,
                     size_t shi, int from, size_t rlo, bool recv_front, bool final, int tag)
{
    bool nomem = false;
    bool send_done = to < 0, recv_done = from < 0;
    size_t cur = slo;
    while (!send_done || !recv_done) {
        MPI_Request req[2];
        MPI_Status sts[2];
        int nreq = 0, irecv = -1;
        size_t nsend = 0;
        bool last = false;
        if (!recv_done) {
            irecv = nreq;
            MPI_Irecv(c->rbuf, (int)CHUNK, MPI_BYTE, from, tag, ctx->comm, &req[nreq++]);
        }
        if (!send_done) {
            nsend = encode_chunk(c, t, slo, &cur, shi, final, &last);
            MPI_Isend(c->sbuf, (int)nsend, MPI_BYTE, to, tag, ctx->comm, &req[nreq++]);
        }
        MPI_Waitall(nreq, req, sts);
        if (!send_done) {
            c->st.bytes_sent += nsend;
            send_done = last;
        }
        if (irecv >= 0) {
            int got = 0;
            MPI_Get_count(&sts[irecv], MPI_BYTE, &got);
            c->st.bytes_recv += (uint64_t)got;
            recv_done = decode_chunk(ctx, t, c->rbuf, (size_t)got, rlo, recv_front, final,
                                     &nomem);
        }
    }
    if (nomem) c->nomem = true;
}

/* Make the pixels of the tile outside [lo, hi) empty and shrink the dirty box to the
 * rows that still hold something. */
static void keep_only(pv_tile *t, size_t lo, size_t hi)
{
    if (t->dx1 <= t->dx0 || t->dy1 <= t->dy0) return;
    size_t W = (size_t)t->w;
    int dx0 = t->dx0, dx1 = t->dx1, dy0 = t->dy0, dy1 = t->dy1;
    int ky0 = dy1, ky1 = dy0; /* rows of [lo, hi) inside the box */
    for (int y = dy0; y < dy1; y++) {
        size_t a = (size_t)y * W + (size_t)dx0, b = (size_t)y * W + (size_t)dx1;
        size_t ka = a > lo ? a : lo, kb = b < hi ? b : hi;
        if (ka < kb) {
            if (y < ky0) ky0 = y;
            ky1 = y + 1;
        } else {
            ka = kb = a;
        }
        /* clear [a, ka) and [kb, b) */
        size_t seg[2][2] = {{a, ka}, {kb > a ? kb : a, b}};
        for (int s = 0; s < 2; s++) {
            size_t s0 = seg[s][0], n = seg[s][1] > s0 ? seg[s][1] - s0 : 0;
            if (!n) continue;
            memset(t->rgba + 4 * s0, 0, n * 4 * sizeof(float));
            memset(t->mask + s0, 0, n * sizeof(uint16_t));
            memset(t->cover + NS * s0, 0, n * NS);
            memset(t->rich + s0, 0, n * sizeof(uint32_t));
            for (size_t i = 0; i < n; i++) t->depth[s0 + i] = (float)INFINITY;
        }
    }
    if (ky0 < ky1) t->dy0 = ky0, t->dy1 = ky1;
    else t->dx0 = t->dy0 = t->dx1 = t->dy1 = 0;
}

/* The pixel range survivor u holds after the swap rounds, of a picture of npix pixels. */
static void final_range(int u, int p2, size_t npix, size_t *lo, size_t *hi)
{
    *lo = 0, *hi = npix;
    for (int bit = 1; bit < p2; bit <<= 1) {
        size_t mid = *lo + (*hi - *lo) / 2;
        if ((u & bit) == 0) *hi = mid;
        else *lo = mid;
    }
}

/* root >= 0: deliver to root; root < 0: every survivor keeps its piece ([*plo, *phi)). */
static pv_status run(pv_ctx *ctx, pv_compositor *c, pv_tile *tile, bool rank0_front, int root,
                     size_t *plo, size_t *phi, pv_composite_stats *stats)
{
    double t0 = MPI_Wtime();
    memset(&c->st, 0, sizeof c->st);
    c->nomem = false;
    pv_status st = PV_OK;
    int dims[4] = {tile->canvas_w, tile->canvas_h, -tile->canvas_w, -tile->canvas_h}, dmin[4];
    MPI_Allreduce(dims, dmin, 4, MPI_INT, MPI_MIN, ctx->comm);
    if (dmin[0] != -dmin[2] || dmin[1] != -dmin[3])
        st = pv_err(ctx, PV_ERANGE, "ranks composite tiles of different canvases");
    else if (tile->x0 || tile->y0 || tile->w != tile->canvas_w || tile->h != tile->canvas_h)
        st = pv_err(ctx, PV_ERANGE, "the compositor needs whole-canvas tiles");
    else if (root >= ctx->nranks)
        st = pv_err(ctx, PV_ERANGE, "no rank %d receives the picture", root);
    st = pv_status_agree(ctx, st);
    if (st) goto done;

    int P = ctx->nranks;
    size_t npix = (size_t)tile->w * (size_t)tile->h;
    int v = rank0_front ? ctx->rank : P - 1 - ctx->rank;
#define RANK_OF(vv) (rank0_front ? (vv) : P - 1 - (vv))
#define VIS_OF_SURVIVOR(uu) ((uu) < extra ? 2 * (uu) : (uu) + extra)
    int p2 = 1;
    while (p2 * 2 <= P) p2 *= 2;
    int extra = P - p2;
    bool survivor = true;
    int u = v >= 2 * extra ? v - extra : v / 2;
    if (v < 2 * extra) {
        if (v % 2) {
            exchange(ctx, c, tile, RANK_OF(v - 1), 0, npix, -1, 0, false, false,
                     PV_TAG_COMPOSITE_FOLD);
            survivor = false;
        } else {
            exchange(ctx, c, tile, -1, 0, 0, RANK_OF(v + 1), 0, false, false,
                     PV_TAG_COMPOSITE_FOLD);
        }
    }
    size_t lo = 0, hi = npix;
    if (survivor) {
        for (int bit = 1; bit < p2; bit <<= 1) {
            int pu = u ^ bit;
            int pv = VIS_OF_SURVIVOR(pu);
            size_t mid = lo + (hi - lo) / 2;
            bool keep_low = (u & bit) == 0;
            size_t slo = keep_low ? mid : lo, shi = keep_low ? hi : mid;
            size_t klo = keep_low ? lo : mid, khi = keep_low ? mid : hi;
            exchange(ctx, c, tile, RANK_OF(pv), slo, shi, RANK_OF(pv), klo, pu < u, false,
                     PV_TAG_COMPOSITE_SWAP);
            lo = klo;
            hi = khi;
        }
    }
    /* the pieces of the final picture stay, or go to the receiving rank */
    if (root < 0) {
        if (!survivor) lo = hi = 0;
        keep_only(tile, lo, hi);
        *plo = lo, *phi = hi;
    } else if (ctx->rank == root) {
        if (survivor) keep_only(tile, lo, hi);
        else keep_only(tile, 0, 0);
        for (int su = 0; su < p2; su++) {
            int from = RANK_OF(VIS_OF_SURVIVOR(su));
            if (from == root) continue;
            size_t flo, fhi;
            final_range(su, p2, npix, &flo, &fhi);
            exchange(ctx, c, tile, -1, 0, 0, from, flo, false, true, PV_TAG_COMPOSITE_GATHER);
        }
    } else if (survivor) {
        exchange(ctx, c, tile, root, lo, hi, -1, 0, false, true, PV_TAG_COMPOSITE_GATHER);
    }
#undef RANK_OF
#undef VIS_OF_SURVIVOR
    /* a rank that ran out of memory for per-sample colours fails the frame on every rank */
    st = pv_status_agree(ctx, c->nomem ? (ctx->err_code ? ctx->err_code : PV_ENOMEM) : PV_OK);
done:
    c->st.t_sec = MPI_Wtime() - t0;
    if (stats) *stats = c->st;
    return st;
}

pv_status pv_compositor_run(pv_ctx *ctx, pv_compositor *c, pv_tile *tile, bool rank0_front,
                            int root, pv_composite_stats *stats)
{
    if (root < 0) /* agreed like any other bad root */
        root = ctx->nranks;
    return run(ctx, c, tile, rank0_front, root, NULL, NULL, stats);
}

pv_status pv_compositor_run_pieces(pv_ctx *ctx, pv_compositor *c, pv_tile *tile,
                                   bool rank0_front, size_t *lo, size_t *hi,
                                   pv_composite_stats *stats)
{
    *lo = *hi = 0;
    return run(ctx, c, tile, rank0_front, -1, lo, hi, stats);
}

pv_status pv_composite_gather(pv_ctx *ctx, const pv_tile *local, bool rank0_front,
                              pv_tile *out, pv_composite_stats *stats)
{
    pv_status st = PV_OK;
    if (ctx->rank == 0 && (!out || out->x0 || out->y0 || out->w != local->canvas_w ||
                           out->h != local->canvas_h))
        st = pv_err(ctx, PV_ERANGE, "the composite needs a whole-canvas tile on rank 0");
    st = pv_status_agree(ctx, st);
    if (st) return st;
    /* a whole-canvas copy of the local tile to work in */
    int W = local->canvas_w, H = local->canvas_h;
    pv_tile *t = pv_tile_create(ctx, W, H, 0, 0, W, H);
    pv_compositor *c = pv_status_agree(ctx, t ? PV_OK : ctx->err_code) == PV_OK
                           ? pv_compositor_create(ctx)
                           : NULL;
    if (!c) {
        pv_tile_destroy(ctx, t);
        return ctx->err_code ? ctx->err_code : PV_ENOMEM;
    }
    pv_tile_clear(t);
    st = pv_status_agree(ctx, pv_tile_copy_into(ctx, t, local));
    if (st == PV_OK) st = pv_compositor_run(ctx, c, t, rank0_front, 0, stats);
    if (st == PV_OK && ctx->rank == 0) {
        /* the picture on the whole canvas (its pieces carry no per-sample colours) */
        pv_tile_clear(out);
        memset(t->rich, 0, (size_t)W * (size_t)H * sizeof(uint32_t));
        t->rich_n = 0;
        t->dx0 = 0, t->dy0 = 0, t->dx1 = W, t->dy1 = H;
        st = pv_tile_copy_into(ctx, out, t); /* same rectangle, nothing to allocate */
    }
    pv_compositor_destroy(ctx, c);
    pv_tile_destroy(ctx, t);
    return st;
}
