/*
 * Global point numbering of a .vtp (mesh.h): vertices with the same edge id on several
 * ranks become one point, numbered in order of first use in the rank-ordered polygon
 * stream.
 *
 * A point first used on rank r is new exactly when no lower rank has its edge id, so the
 * lowest rank holding an id owns it; each rank numbers its owned points in its local
 * (first-use) order after the owned points of the ranks below it (an exclusive scan). This
 * makes the numbering independent of how a stream is cut into rank pieces.
 *
 * The writer knows nothing of slabs, so the lowest holder is found through a distributed
 * table: every shared edge id has a home rank (a hash of the id), which collects who holds
 * it. Four passes, each an all-to-all of words grouped by home, answered by the home:
 *   CLAIM  id            -> home keeps the lowest claiming rank
 *   OWNER  id            -> the home answers that rank
 *   SETIDX id, index     -> owners tell the home the global index
 *   GETIDX id            -> the home answers the global index
 * Each pass runs in rounds of at most round_items / P ids per destination, so message
 * counts stay far below INT_MAX and buffers stay bounded; every rank runs the same number
 * of rounds (agreed by a reduction). A failed allocation is agreed before the exchange that
 * needs the buffer, so no rank waits in an all-to-all another rank skipped.
 */
#include "mesh_int.h"

#include <stdlib.h>
#include <string.h>

enum { CLAIM, OWNER, SETIDX, GETIDX };

typedef struct xch {
    mesh_hash home; /* ids homed here: val[0] lowest holder, val[1] global index */
    size_t nsh;     /* shared (edge id) points of this rank */
    size_t *perm;   /* [nsh] point indices grouped by home rank */
    size_t *start;  /* [P + 1] group starts in perm */
    int *cnt;       /* [4 P]: send counts, send displacements, receive counts and
                          displacements, in words */
    uint64_t *sbuf, *rbuf, *rep, *back;
    size_t capsbuf, caprbuf, caprep, capback;
} xch;

static int home_of(uint64_t id, int nranks)
{
    /* another mixing than the local hash's, so a home's ids do not cluster in its table */
    return (int)(pv_mesh_mix(id ^ 0x9e3779b97f4a7c15ULL) % (uint64_t)nranks);
}

/* Agree that every rank is fine (ok) before a collective that needs it. */
static bool all_ok(pv_ctx *ctx, bool ok)
{
    int in = ok ? 1 : 0, out = 0;
    if (MPI_Allreduce(&in, &out, 1, MPI_INT, MPI_MIN, ctx->comm) != MPI_SUCCESS) return false;
    return out == 1;
}

/* After a failed agreement: the failing rank returns its error, the others PV_OK, so the
 * caller's pv_status_agree carries the failing rank's message. */
static pv_status failed(pv_ctx *ctx, bool ok)
{
    if (ok) return PV_OK;
    return ctx->err_code != PV_OK ? ctx->err_code : PV_ENOMEM;
}

/* The home's side of one item: returns false on allocation failure. */
static bool serve(pv_ctx *ctx, xch *x, int kind, int src, const uint64_t *word, uint64_t *reply)
{
    if (kind == CLAIM) {
        bool isnew;
        int64_t s = pv_mesh_hash_slot(ctx, &x->home, word[0], &isnew);
        if (s < 0) return false;
        if (isnew || src < x->home.val[2 * s]) x->home.val[2 * s] = src;
        return true;
    }
    int64_t s = pv_mesh_hash_find(&x->home, word[0]);
    if (s < 0) { /* cannot happen: every id was claimed first */
        if (reply) *reply = UINT64_MAX;
        return true;
    }
    if (kind == SETIDX) {
        if (word[1] != UINT64_MAX) x->home.val[2 * s + 1] = (int64_t)word[1];
    } else {
        *reply = (uint64_t)x->home.val[2 * s + (kind == GETIDX)];
    }
    return true;
}

/* One pass (kind); answers go to out[k] for the k-th id in perm order (OWNER, GETIDX). */
static pv_status pass(pv_ctx *ctx, pv_mesh_writer *w, xch *x, int kind, uint64_t *out)
{
    int P = ctx->nranks;
    int width = kind == SETIDX ? 2 : 1;
    bool answers = kind == OWNER || kind == GETIDX;
    size_t q = w->round_items / (size_t)P;
    if (q < 1) q = 1;
    uint64_t need = 0;
    for (int d = 0; d < P; d++) {
        uint64_t n = x->start[d + 1] - x->start[d];
        uint64_t r = (n + q - 1) / q;
        if (r > need) need = r;
    }
    uint64_t rounds = 0;
    if (MPI_Allreduce(&need, &rounds, 1, MPI_UINT64_T, MPI_MAX, ctx->comm) != MPI_SUCCESS)
        return pv_err(ctx, PV_EMPI, "MPI_Allreduce failed in the mesh writer");
    int *scnt = x->cnt, *sdsp = x->cnt + P, *rcnt = x->cnt + 2 * P, *rdsp = x->cnt + 3 * P;
    for (uint64_t t = 0; t < rounds; t++) {
        /* ---- this round's items, grouped by home ---- */
        size_t total = 0;
        for (int d = 0; d < P; d++) {
            size_t n = x->start[d + 1] - x->start[d], lo = (size_t)t * q;
            size_t m = n > lo ? (n - lo < q ? n - lo : q) : 0;
            scnt[d] = (int)m;
            sdsp[d] = (int)total;
            total += m;
        }
        bool ok = PV_GROW(ctx, x->sbuf, x->capsbuf, total * (size_t)width) &&
                  (!answers || PV_GROW(ctx, x->back, x->capback, total));
        if (MPI_Alltoall(scnt, 1, MPI_INT, rcnt, 1, MPI_INT, ctx->comm) != MPI_SUCCESS)
            return pv_err(ctx, PV_EMPI, "MPI_Alltoall failed in the mesh writer");
        size_t rtotal = 0;
        for (int s = 0; s < P; s++) {
            rdsp[s] = (int)rtotal;
            rtotal += (size_t)rcnt[s];
        }
        ok = ok && PV_GROW(ctx, x->rbuf, x->caprbuf, rtotal * (size_t)width) &&
             (!answers || PV_GROW(ctx, x->rep, x->caprep, rtotal));
        if (!all_ok(ctx, ok)) return failed(ctx, ok);
        for (int d = 0; d < P; d++) {
            size_t lo = x->start[d] + (size_t)t * q;
            for (int i = 0; i < scnt[d]; i++) {
                size_t v = x->perm[lo + (size_t)i];
                uint64_t *wd = x->sbuf + (size_t)(sdsp[d] + i) * (size_t)width;
                wd[0] = w->vid[v];
                if (width == 2) wd[1] = w->owned[v] ? (uint64_t)w->gidx[v] : UINT64_MAX;
            }
        }
        /* counts and displacements in words for the request */
        for (int d = 0; d < P; d++) {
            scnt[d] *= width, sdsp[d] *= width, rcnt[d] *= width, rdsp[d] *= width;
        }
        int rc = MPI_Alltoallv(x->sbuf, scnt, sdsp, MPI_UINT64_T, x->rbuf, rcnt, rdsp, MPI_UINT64_T,
                               ctx->comm);
        for (int d = 0; d < P; d++) {
            scnt[d] /= width, sdsp[d] /= width, rcnt[d] /= width, rdsp[d] /= width;
        }
        if (rc != MPI_SUCCESS)
            return pv_err(ctx, PV_EMPI, "MPI_Alltoallv failed in the mesh writer");
        /* ---- the home answers ---- */
        ok = true;
        for (int s = 0; s < P && ok; s++)
            for (int i = 0; i < rcnt[s] && ok; i++) {
                size_t k = (size_t)(rdsp[s] + i);
                ok = serve(ctx, x, kind, s, x->rbuf + k * (size_t)width,
                           answers ? x->rep + k : NULL);
            }
        if (!all_ok(ctx, ok)) return failed(ctx, ok);
        if (!answers) continue;
        if (MPI_Alltoallv(x->rep, rcnt, rdsp, MPI_UINT64_T, x->back, scnt, sdsp, MPI_UINT64_T,
                          ctx->comm) != MPI_SUCCESS)
            return pv_err(ctx, PV_EMPI, "MPI_Alltoallv failed in the mesh writer");
        for (int d = 0; d < P; d++) {
            size_t lo = x->start[d] + (size_t)t * q;
            for (int i = 0; i < scnt[d]; i++) out[lo + (size_t)i] = x->back[sdsp[d] + i];
        }
    }
    return PV_OK;
}

static void xch_free(pv_ctx *ctx, xch *x, int P)
{
    pv_mesh_hash_free(ctx, &x->home);
    pv_free(ctx, x->perm, x->nsh * sizeof *x->perm);
    free(x->start);
    free(x->cnt);
    pv_free(ctx, x->sbuf, x->capsbuf * sizeof *x->sbuf);
    pv_free(ctx, x->rbuf, x->caprbuf * sizeof *x->rbuf);
    pv_free(ctx, x->rep, x->caprep * sizeof *x->rep);
    pv_free(ctx, x->back, x->capback * sizeof *x->back);
    (void)P;
}

pv_status pv_mesh_number(pv_ctx *ctx, pv_mesh_writer *w, uint64_t *npoints)
{
    int P = ctx->nranks;
    pv_status st = PV_OK;
    size_t nv = w->nvert;
    w->gidx = nv ? pv_alloc(ctx, nv * sizeof *w->gidx) : NULL;
    w->owned = nv ? pv_alloc(ctx, nv * sizeof *w->owned) : NULL;
    if (nv && (!w->gidx || !w->owned)) st = ctx->err_code ? ctx->err_code : PV_ENOMEM;
    for (size_t v = 0; st == PV_OK && v < nv; v++) w->owned[v] = true;

    /* ---- shared points grouped by home (counting sort) ---- */
    xch x;
    memset(&x, 0, sizeof x);
    uint64_t *answer = NULL;
    if (P > 1 && st == PV_OK) {
        for (size_t v = 0; v < nv; v++) x.nsh += w->vid[v] != PV_MESH_NO_EDGE;
        x.start = calloc((size_t)P + 1, sizeof *x.start);
        x.cnt = calloc(4 * (size_t)P, sizeof *x.cnt);
        x.perm = x.nsh ? pv_alloc(ctx, x.nsh * sizeof *x.perm) : NULL;
        answer = x.nsh ? pv_alloc(ctx, x.nsh * sizeof *answer) : NULL;
        if (!x.start || !x.cnt || (x.nsh && (!x.perm || !answer)) ||
            !pv_mesh_hash_init(ctx, &x.home, 64))
            st = ctx->err_code ? ctx->err_code : pv_err(ctx, PV_ENOMEM, "out of memory");
        if (st == PV_OK) {
            for (size_t v = 0; v < nv; v++)
                if (w->vid[v] != PV_MESH_NO_EDGE) x.start[home_of(w->vid[v], P) + 1]++;
            for (int d = 0; d < P; d++) x.start[d + 1] += x.start[d];
            size_t *fill = calloc((size_t)P, sizeof *fill);
            if (!fill) {
                st = pv_err(ctx, PV_ENOMEM, "out of memory");
            } else {
                for (size_t v = 0; v < nv; v++) {
                    if (w->vid[v] == PV_MESH_NO_EDGE) continue;
                    int d = home_of(w->vid[v], P);
                    x.perm[x.start[d] + fill[d]++] = v;
                }
                free(fill);
            }
        }
    }
    st = pv_status_agree(ctx, st);

    /* ---- who owns each shared point ---- */
    if (P > 1 && st == PV_OK) st = pv_status_agree(ctx, pass(ctx, w, &x, CLAIM, NULL));
    if (P > 1 && st == PV_OK) st = pv_status_agree(ctx, pass(ctx, w, &x, OWNER, answer));
    if (P > 1 && st == PV_OK)
        for (size_t k = 0; k < x.nsh; k++) w->owned[x.perm[k]] = answer[k] == (uint64_t)ctx->rank;

    /* ---- number the owned points after the lower ranks' ---- */
    uint64_t nown = 0, base = 0, total = 0;
    if (st == PV_OK) {
        for (size_t v = 0; v < nv; v++) nown += w->owned[v];
        if (MPI_Exscan(&nown, &base, 1, MPI_UINT64_T, MPI_SUM, ctx->comm) != MPI_SUCCESS ||
            MPI_Allreduce(&nown, &total, 1, MPI_UINT64_T, MPI_SUM, ctx->comm) != MPI_SUCCESS)
            st = pv_err(ctx, PV_EMPI, "MPI_Exscan failed in the mesh writer");
        if (ctx->rank == 0) base = 0; /* MPI_Exscan leaves rank 0's result undefined */
        uint64_t next = base;
        for (size_t v = 0; v < nv; v++) w->gidx[v] = w->owned[v] ? (int64_t)next++ : -1;
        st = pv_status_agree(ctx, st);
    }

    /* ---- the others learn the owners' numbers ---- */
    if (P > 1 && st == PV_OK) st = pv_status_agree(ctx, pass(ctx, w, &x, SETIDX, NULL));
    if (P > 1 && st == PV_OK) st = pv_status_agree(ctx, pass(ctx, w, &x, GETIDX, answer));
    if (P > 1 && st == PV_OK)
        for (size_t k = 0; k < x.nsh; k++)
            if (!w->owned[x.perm[k]]) w->gidx[x.perm[k]] = (int64_t)answer[k];

    pv_free(ctx, answer, x.nsh * sizeof *answer);
    xch_free(ctx, &x, P);
    *npoints = total;
    return st;
}
