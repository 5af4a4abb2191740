/*
 * Ghost plane exchange for isosurfaces: a rank owning planes [z0, z1) with z1 < n needs
 * plane z1 to close the cell layer z1-1 (iso.h reads planes k and k+1).
 *
 * Who talks to whom is plain decomposition arithmetic (ARCH-3), so no rank asks: the owner
 * of z1 is pv_decomp_owner(n, P, z1); a rank whose first plane z0 > 0 sends it to the owner
 * of z0 - 1. Ranks with no planes (n < P) take no part beyond the status agreement. With the
 * slabs contiguous and ordered by rank, each rank receives from at most one rank and sends
 * to at most one, never itself.
 *
 * A plane is n² floats, which passes INT_MAX elements at n = 46341: it travels in messages
 * of at most PV_GHOST_CHUNK floats, all with tag PV_TAG_GRID_GHOST; MPI keeps their order
 * between one pair of ranks on one communicator, so the pieces land in place.
 *
 * Errors (STYLE-4): a local problem found before any message (no buffer, no memory for the
 * requests) is agreed first, so no rank posts a receive its partner will never match; MPI
 * failures of the exchange itself (ctx->comm returns errors) are agreed afterwards.
 */
#include "grid_int.h"

#include <stdlib.h>

pv_status pv_grid_ghost_upper_chunked(pv_ctx *ctx, const pv_grid *g, float *buf, bool *has,
                                      size_t chunk)
{
    *has = false;
    int64_t n = g->n;
    bool owns = g->z1 > g->z0;
    int from = owns && g->z1 < n ? pv_decomp_owner(n, ctx->nranks, g->z1) : -1;
    int to = owns && g->z0 > 0 ? pv_decomp_owner(n, ctx->nranks, g->z0 - 1) : -1;
    size_t count = (size_t)n * (size_t)n;
    size_t nmsg = chunk ? (count + chunk - 1) / chunk : 0;
    size_t nreq = ((from >= 0) + (to >= 0)) * nmsg;

    /* ---- local checks, agreed before any message ---- */
    pv_status st = PV_OK;
    MPI_Request *req = NULL;
    if (chunk == 0)
        st = pv_err(ctx, PV_EINTERNAL, "ghost plane exchange with a zero chunk size");
    else if (from >= 0 && !buf)
        st = pv_err(ctx, PV_EINTERNAL, "ghost plane exchange without a receive buffer");
    else if (nreq && !(req = malloc(nreq * sizeof *req)))
        st = pv_err(ctx, PV_ENOMEM, "out of memory");
    st = pv_status_agree(ctx, st);
    if (st != PV_OK) {
        free(req);
        return st;
    }

    /* ---- exchange: post every receive and send, then wait for all ---- */
    int rc = MPI_SUCCESS;
    size_t k = 0;
    for (size_t off = 0; from >= 0 && off < count && rc == MPI_SUCCESS; off += chunk) {
        int len = (int)(count - off < chunk ? count - off : chunk);
        rc = MPI_Irecv(buf + off, len, MPI_FLOAT, from, PV_TAG_GRID_GHOST, ctx->comm, &req[k++]);
    }
    /* the first owned plane is the start of the slab */
    for (size_t off = 0; to >= 0 && off < count && rc == MPI_SUCCESS; off += chunk) {
        int len = (int)(count - off < chunk ? count - off : chunk);
        rc = MPI_Isend(g->data + off, len, MPI_FLOAT, to, PV_TAG_GRID_GHOST, ctx->comm, &req[k++]);
    }
    if (rc != MPI_SUCCESS) {
        /* Requests already posted must still complete before buf or req go away; a
         * failed post leaves its partner unmatched, which the agreement below cannot
         * rescue either, so cancel what was posted and report. */
        for (size_t i = 0; i + 1 < k; i++) {
            MPI_Cancel(&req[i]);
            MPI_Request_free(&req[i]);
        }
        st = pv_err(ctx, PV_EMPI, "MPI_Isend/MPI_Irecv failed in the ghost plane exchange");
    } else if (k && MPI_Waitall((int)k, req, MPI_STATUSES_IGNORE) != MPI_SUCCESS) {
        st = pv_err(ctx, PV_EMPI, "MPI_Waitall failed in the ghost plane exchange");
    }
    free(req);
    st = pv_status_agree(ctx, st);
    if (st == PV_OK) *has = from >= 0;
    return st;
}

pv_status pv_grid_ghost_upper(pv_ctx *ctx, const pv_grid *g, float *buf, bool *has)
{
    return pv_grid_ghost_upper_chunked(ctx, g, buf, has, PV_GHOST_CHUNK);
}
