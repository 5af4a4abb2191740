/*
 * exec/fill_text.c: `vfill` / `vgfill` from a regular text file, each rank parsing its own
 * share of the bytes (fillrun.h's text reader).
 *
 * The file is read in rounds: round k covers bytes [k*P*C, (k+1)*P*C), cut into P chunks,
 * chunk s for rank s, each boundary moved to the next line start; round order then rank
 * order is file order. Per round each rank
 *   1. preads its chunk and summarises its line structure (lines, blank-line runs, data
 *      set and block ends: pvox/datafile.h, pv_data_text_summary), the summaries are
 *      allgathered and composed into the reader's state at the chunk's first byte (data
 *      set, block, line in block, $0, pending blank lines, lines left to `skip`); with a
 *      partial `every`, $0 takes a second exchange (pv_data_text_datum);
 *   2. parses the chunk from that state with the row reader (pv_data_text_feed, the same
 *      code as every other text source: gnuplot's numbers, batch evaluation of the
 *      x:y:z:radius specs), then fills the rows the last round brought it (one piece of the
 *      fill session, fillrun.h);
 *   3. sends each accepted row inside the grid (x, y, z, radius and the columns the value
 *      reads) to the ranks whose slab its brick may touch (MPI_Alltoallv); a receiver gets
 *      them in sender order, which is file order, with their global file-order numbers,
 *      and keeps them for step 2 of the next round.
 * Load balance: a sorted file sends a whole round's rows to one slab, so its owner has a
 * fill on top of its parse. The chunks are not equal: each rank's share of the next
 * round's bytes is set from the measured parse and fill times (rebalance), so the owner
 * parses less while it fills and no rank waits for it in the next collective.
 * So each voxel adds its sources in file order at any rank count (ARCH-4, ARCH-8), and a
 * rank holds its slab plus one round's buffers whatever the file's size.
 *
 * "number of points input" counts each source once: the rank that parsed it counts it
 * (pv_fill_run_account; every piece is filled with PV_FILL_NO_COUNT). gnuplot's brick
 * lines are printed by rank 0 from the
 * first in-grid sources, gathered until one has a non-empty brick. Every failure (open,
 * read, a using expression, memory) is agreed within the round it happens in, so no rank
 * waits in a collective the others left; the lowest failing rank's message is the first
 * in file order.
 *
 * PVOX_TEXT_CHUNK=BYTES sets C (tests use small chunks so that many rounds and cuts inside
 * blank-line runs happen); PVOX_TEXT_SHARES=skew replaces the load balance's shares by
 * arbitrary ones (tests); PVOX_TEXT_STATE=1 composes the state even where the rows do not
 * need it (rows_stateless; tests); PVOX_TEXT_SPLIT=0 turns this reader off (every rank reads the
 * broadcast rows, gridfill.c).
 */
#include "fillrun.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define ROUND_BYTES (4LL << 20) /* bytes of a round over all ranks, by default */
#define CHUNK_MAX (2LL << 20)
#define CHUNK_MIN (1LL << 20)
#define NSUM 9                   /* int64 fields of a round summary: pv_data_text_sum + status */
#define PV_BALANCE_MAX 4096     /* ranks the load balance serves (more: equal shares) */
#define REC_HEAD 5               /* record: local order, x, y, z, radius; then
                                    $0 if the value reads it, then the kept columns */

/* ---- which sources this reader takes ---------------------------------------------- */

static bool spec_ok(pv_interp *I, const pv_data_spec *ds)
{
    const char *e = getenv("PVOX_TEXT_SPLIT");
    if (e && strcmp(e, "0") == 0) return false;
    if (ds->kind != PV_DS_FILE || ds->inline_data || !ds->name || ds->name[0] == '<' ||
        strcmp(ds->name, "-") == 0 || ds->matrix != PV_MATRIX_NONE || ds->binary ||
        ds->nusing != 5)
        return false;
    for (int k = 0; k < 4; k++) {
        const pv_using_entry *u = &ds->using[k];
        if (u->kind == PV_USE_HEADER || (u->kind == PV_USE_COLUMN && u->expr)) return false;
        /* ranks evaluate different rows: an assignment, rand() or voxel() would differ */
        if (u->kind == PV_USE_EXPR && !pv_code_is_pure(I->env, u->expr, NULL, NULL))
            return false;
    }
    const pv_using_entry *v = &ds->using[4];
    if (v->kind == PV_USE_COLUMN) return !v->expr && v->column >= 1 && v->column <= PV_USING_MAX;
    if (v->kind != PV_USE_EXPR || !v->vector_ok) return false; /* columns known from text */
    for (int r = 0; r < v->nrefs; r++)
        if (v->refs[r] < 0 || v->refs[r] > PV_USING_MAX) return false;
    return true;
}

bool pv_fill_text_applies(pv_interp *I, const pv_data_spec *ds)
{
    int ok = spec_ok(I, ds);
    if (ok) {
        struct stat sb;
        ok = stat(ds->name, &sb) == 0 && S_ISREG(sb.st_mode);
    }
    int all = 0;
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, I->ctx->comm);
    return all != 0;
}

/* ---- the chunk of a round --------------------------------------------------------- */

static pv_status pread_all(pv_ctx *ctx, int fd, const char *name, char *buf, size_t n,
                           int64_t off)
{
    size_t got = 0;
    while (got < n) {
        ssize_t r = pread(fd, buf + got, n - got, (off_t)(off + (int64_t)got));
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0)
            return pv_err(ctx, PV_EIO, "cannot read '%s': %s", name,
                          r < 0 ? strerror(errno) : "file shrank while being read");
        got += (size_t)r;
    }
    return PV_OK;
}

/* The first line start at or after p (0 and the file size are line starts). */
static pv_status line_start(pv_ctx *ctx, int fd, const char *name, int64_t size, int64_t p,
                            int64_t *out)
{
    if (p <= 0 || p >= size) {
        *out = p <= 0 ? 0 : size;
        return PV_OK;
    }
    char tmp[4096];
    int64_t q = p - 1;
    while (q < size) {
        size_t n = (size_t)(size - q < (int64_t)sizeof tmp ? size - q : (int64_t)sizeof tmp);
        pv_status st = pread_all(ctx, fd, name, tmp, n, q);
        if (st != PV_OK) return st;
        const char *nl = memchr(tmp, '\n', n);
        if (nl) {
            *out = q + (nl - tmp) + 1;
            return PV_OK;
        }
        q += (int64_t)n;
    }
    *out = size;
    return PV_OK;
}

/* ---- the reader's state -------------------------------------------------------------- */

typedef struct text_fill {
    pv_interp *I;
    pv_ctx *ctx;
    pv_grid *g;
    bool grid_units;
    int nkeep;
    int64_t keep[PV_USING_MAX];   /* columns the value reads, sent with each row */
    int ncols;                    /* $1..$ncols of the fill session */
    bool need_line;               /* the value reads $0: records carry it */
    int kat;                      /* the first kept column's place in a record */
    int stride;                   /* doubles per record */
    /* this round's accepted rows (file order): records and the ranks they go to */
    double *rec;
    size_t nrec, caprec;          /* records, capacity in doubles */
    int *dlo, *dhi;               /* first and last destination rank; dhi < dlo: none */
    size_t capdlo, capdhi;
    int64_t accepted;             /* accepted rows of this round (in or out of the grid) */
    int64_t inside;               /* of them inside the grid (counted by this rank) */
    /* brick lines (until a source with a non-empty brick is seen anywhere) */
    bool bricks_done, brick_hit;
    pv_fill_source *pre;          /* in-grid sources up to the first non-empty brick */
    size_t npre, cappre;
    pv_status st;
    double secs[4];               /* read and scan, parse, exchange, fill (for -v) */
    int64_t fill_ns;              /* this rank's fill time in the last round */
    bool skew;                    /* PVOX_TEXT_SHARES=skew: test shares, not the balance */
    bool stateless;               /* rows_stateless: chunks parsed without the state */
    int64_t oz0, oz1;             /* the slab of the last owner found, and its rank */
    int orank;
    int64_t rounds;
} text_fill;

/* The rank owning plane iz (rows come in runs of one slab: the last answer is kept). */
static int owner_of(text_fill *T, int64_t iz)
{
    if (iz < T->oz0 || iz >= T->oz1) {
        T->orank = pv_decomp_owner(T->g->n, T->ctx->nranks, iz);
        pv_decomp_slab(T->g->n, T->ctx->nranks, T->orank, &T->oz0, &T->oz1);
    }
    return T->orank;
}

/* A point of the row reader: accept it as gridfill.c's collect_row does, note where it
 * goes. */
static pv_status on_event(void *ud, pv_data_event ev, const pv_data_point *pt)
{
    text_fill *T = ud;
    if (ev != PV_DATA_POINT || pt->nvals < 4) return PV_OK;
    for (int k = 0; k < 4; k++)
        if (isnan(pt->vals[k])) return PV_OK; /* rows with undefined coordinates are skipped */
    int64_t local = T->accepted++;
    const pv_grid *g = T->g;
    int64_t c[3];
    if (!pv_grid_index(g, pt->vals[0], pt->vals[1], pt->vals[2], c)) return PV_OK;
    T->inside++;
    double r = pt->vals[3];
    if (!T->bricks_done && !T->brick_hit) {
        if (!PV_GROW(T->ctx, T->pre, T->cappre, T->npre + 1)) return PV_ENOMEM;
        T->pre[T->npre++] = (pv_fill_source){pt->vals[0], pt->vals[1], pt->vals[2], r};
        bool nonempty = true;
        for (int a = 0; a < 3; a++)
            nonempty = nonempty && 2 * floor(T->grid_units ? r : r / g->delta[a]) + 1 > 0;
        T->brick_hit = nonempty;
    }
    size_t need = (T->nrec + 1) * (size_t)T->stride;
    if (!PV_GROW(T->ctx, T->rec, T->caprec, need) ||
        !PV_GROW(T->ctx, T->dlo, T->capdlo, T->nrec + 1) ||
        !PV_GROW(T->ctx, T->dhi, T->capdhi, T->nrec + 1))
        return PV_ENOMEM;
    /* the planes the brick may touch (the kernel's rule, GP-5.2, widened by one plane:
     * a source sent to a rank whose slab it misses modifies nothing there) */
    int own = owner_of(T, c[2]);
    int lo = own, hi = own;
    double hw = T->grid_units ? floor(r) : floor(r / g->delta[2]);
    if (hw >= 0) {
        double zlo = (double)c[2] - hw - 1, zhi = (double)c[2] + hw + 1;
        int64_t ilo = zlo < 0 ? 0 : (int64_t)zlo;
        int64_t ihi = zhi > (double)(g->n - 1) ? g->n - 1 : (int64_t)zhi;
        if (ilo < T->oz0) lo = pv_decomp_owner(g->n, T->ctx->nranks, ilo);
        if (ihi >= T->oz1) hi = pv_decomp_owner(g->n, T->ctx->nranks, ihi);
    }
    double *q = T->rec + T->nrec * (size_t)T->stride;
    q[0] = (double)local;
    q[1] = pt->vals[0], q[2] = pt->vals[1], q[3] = pt->vals[2], q[4] = r;
    const pv_row *row = pt->row;
    if (T->need_line) q[REC_HEAD] = row ? (double)row->line : 0.0;
    for (int k = 0; k < T->nkeep; k++) {
        int64_t col = T->keep[k];
        q[T->kat + k] = row && col <= row->ncols ? row->val[col - 1] : (double)NAN;
    }
    T->dlo[T->nrec] = lo;
    T->dhi[T->nrec] = hi;
    T->nrec++;
    return PV_OK;
}

/* ---- one round ------------------------------------------------------------------------- */

typedef struct round_io {
    int fd;
    const char *name;
    int64_t size, chunk;
    char *buf;                  /* this rank's chunk (tracked: capbuf bytes) */
    size_t capbuf, len;
    int64_t *all;               /* P x NSUM: the gathered summaries, then other tables */
    double *send, *recv;
    size_t capsend, caprecv;
    int *scount, *sdispl, *rcount, *rdispl; /* P each (malloc'd together) */
    int64_t *tab;               /* 3 x P: per-rank numbers of the round */
    double *share;              /* P: each rank's share of a round's bytes (sum 1) */
    pv_fill_source *src;        /* received sources, their columns and file-order numbers */
    double *cols;
    int64_t *order;
    int64_t *line;              /* their $0 when the value reads it */
    size_t capsrc, capcols, caporder, capline;
    size_t pending;             /* received sources not filled yet */
} round_io;

static pv_status read_chunk(text_fill *T, round_io *R, int64_t off)
{
    pv_ctx *ctx = T->ctx;
    const int P = ctx->nranks;
    const double bytes = (double)R->chunk * P;
    double before = 0;
    for (int s = 0; s < ctx->rank; s++) before += R->share[s];
    int64_t a = off + (int64_t)(bytes * before);
    int64_t b = ctx->rank == P - 1 ? off + R->chunk * P
                                   : off + (int64_t)(bytes * (before + R->share[ctx->rank]));
    if (a > R->size) a = R->size;
    if (b > R->size) b = R->size;
    int64_t s0, s1;
    pv_status st = line_start(ctx, R->fd, R->name, R->size, a, &s0);
    if (st == PV_OK) st = line_start(ctx, R->fd, R->name, R->size, b, &s1);
    R->len = 0;
    if (st != PV_OK || s1 <= s0) return st;
    size_t n = (size_t)(s1 - s0);
    if (!PV_GROW(ctx, R->buf, R->capbuf, n)) return PV_ENOMEM;
    st = pread_all(ctx, R->fd, R->name, R->buf, n, s0);
    if (st == PV_OK) R->len = n;
    return st;
}

/* Allgather of k <= NSUM int64 per rank into R->all (P x k, allocated at the start: no
 * rank may leave this collective for want of memory). */
static pv_status gather(text_fill *T, round_io *R, const int64_t *mine, int k)
{
    pv_ctx *ctx = T->ctx;
    if (MPI_Allgather(mine, k, MPI_INT64_T, R->all, k, MPI_INT64_T, ctx->comm) != MPI_SUCCESS)
        return pv_err(ctx, PV_EMPI, "MPI_Allgather failed while reading '%s'", R->name);
    return PV_OK;
}

/* The reader's state at this rank's chunk and after the round (step 1 of the header).
 * *failed: some rank's status (T->st) was not PV_OK: the caller agrees on it. */
static pv_status compose(text_fill *T, round_io *R, const pv_data_spec *ds,
                         const pv_data_opts *o, pv_data_state *round, pv_data_state *mine,
                         bool *failed)
{
    pv_ctx *ctx = T->ctx;
    int P = ctx->nranks;
    /* lines left to skip at this chunk: the earlier chunks' line counts */
    int64_t skip = 0;
    if (round->skip > 0) {
        int64_t lines = pv_data_text_lines(R->buf, R->len);
        pv_status st = gather(T, R, &lines, 1);
        if (st != PV_OK) return st;
        skip = round->skip;
        for (int s = 0; s < ctx->rank; s++) skip -= R->all[s];
        if (skip < 0) skip = 0;
    }
    int64_t v[NSUM];
    pv_data_text_sum sum;
    pv_data_text_summary(o, R->buf, R->len, skip, &sum);
    int64_t f[8] = {sum.lines, sum.ndata, sum.lead_blank, sum.trail_blank, sum.set_ends,
                    sum.block_ends, sum.tail_points, sum.tail_data};
    memcpy(v, f, sizeof f);
    v[8] = T->st;
    pv_status st = gather(T, R, v, NSUM);
    if (st != PV_OK) return st;
    *failed = false;
    for (int s = 0; s < P; s++)
        if (R->all[(size_t)s * NSUM + 8] != PV_OK) *failed = true;
    if (*failed) return PV_OK;
    int64_t datum = round->datum; /* exact at the round's first byte */
    for (int s = 0; s < P; s++) {
        const int64_t *a = R->all + (size_t)s * NSUM;
        pv_data_text_sum u = {a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7]};
        if (s == ctx->rank) *mine = *round;
        pv_data_state_advance(round, &u);
    }
    if (pv_data_every_all(ds)) return PV_OK;
    /* a partial `every`: $0 counts the selected rows, known from the exact states */
    bool reset;
    int64_t count, d[2];
    pv_data_text_datum(ds, o, mine, R->buf, R->len, &reset, &count);
    d[0] = reset, d[1] = count;
    if ((st = gather(T, R, d, 2)) != PV_OK) return st;
    for (int s = 0; s < P; s++) {
        if (s == ctx->rank) mine->datum = datum;
        datum = R->all[2 * s] ? R->all[2 * s + 1] : datum + R->all[2 * s + 1];
    }
    round->datum = datum;
    return PV_OK;
}

/* Agree whether any rank's status is not PV_OK (its own stays in T->st). */
static bool any_failed(text_fill *T)
{
    int mine = T->st != PV_OK, any = 0;
    MPI_Allreduce(&mine, &any, 1, MPI_INT, MPI_MAX, T->ctx->comm);
    return any != 0;
}

/* Send the round's records to the ranks they go to; fill the received ones (step 3).
 * first[s]: file-order number of rank s's first accepted row of the round. */
static pv_status exchange(text_fill *T, round_io *R, pv_fill_run *run, const int64_t *first,
                          bool *failed)
{
    pv_ctx *ctx = T->ctx;
    const int P = ctx->nranks, w = T->stride;
    *failed = false;
    memset(R->scount, 0, (size_t)P * sizeof *R->scount);
    for (size_t i = 0; i < T->nrec; i++)
        for (int d = T->dlo[i]; d <= T->dhi[i]; d++) R->scount[d] += w;
    /* this rank's own rows are read from T->rec, not sent */
    const size_t nself = (size_t)R->scount[ctx->rank] / (size_t)w;
    R->scount[ctx->rank] = 0;
    size_t total = 0;
    for (int d = 0; d < P; d++) {
        R->sdispl[d] = (int)total;
        total += (size_t)R->scount[d];
    }
    if (total > INT32_MAX) T->st = pv_err(ctx, PV_ENOMEM, "a round of '%s' is too large", R->name);
    else if (!PV_GROW(ctx, R->send, R->capsend, total ? total : 1)) T->st = PV_ENOMEM;
    if (T->st == PV_OK) {
        int *pos = R->rdispl; /* scratch until the receive displacements */
        memcpy(pos, R->sdispl, (size_t)P * sizeof *pos);
        for (size_t i = 0; i < T->nrec; i++)
            for (int d = T->dlo[i]; d <= T->dhi[i]; d++) {
                if (d == ctx->rank) continue;
                memcpy(R->send + pos[d], T->rec + i * (size_t)w, (size_t)w * sizeof(double));
                pos[d] += w;
            }
    }
    MPI_Alltoall(R->scount, 1, MPI_INT, R->rcount, 1, MPI_INT, ctx->comm);
    size_t rtotal = 0;
    for (int s = 0; s < P; s++) {
        R->rdispl[s] = (int)rtotal;
        rtotal += (size_t)R->rcount[s];
    }
    size_t n = rtotal / (size_t)w + nself;
    if (T->st == PV_OK && rtotal > INT32_MAX)
        T->st = pv_err(ctx, PV_ENOMEM, "a round of '%s' is too large", R->name);
    if (T->st == PV_OK &&
        (!PV_GROW(ctx, R->recv, R->caprecv, rtotal ? rtotal : 1) ||
         !PV_GROW(ctx, R->src, R->capsrc, n ? n : 1) ||
         !PV_GROW(ctx, R->order, R->caporder, n ? n : 1) ||
         (T->need_line && !PV_GROW(ctx, R->line, R->capline, n ? n : 1)) ||
         !PV_GROW(ctx, R->cols, R->capcols, (n ? n : 1) * (size_t)(T->ncols ? T->ncols : 1))))
        T->st = PV_ENOMEM;
    if ((*failed = any_failed(T))) return PV_OK;
    if (MPI_Alltoallv(R->send, R->scount, R->sdispl, MPI_DOUBLE, R->recv, R->rcount, R->rdispl,
                      MPI_DOUBLE, ctx->comm) != MPI_SUCCESS)
        return pv_err(ctx, PV_EMPI, "MPI_Alltoallv failed while reading '%s'", R->name);
    /* unpack in sender order: file order */
    size_t i = 0;
    for (int s = 0; s < P; s++) {
        bool self = s == ctx->rank;
        size_t m = self ? T->nrec : (size_t)R->rcount[s] / (size_t)w;
        const double *q = self ? T->rec : R->recv + R->rdispl[s];
        for (size_t k = 0; k < m; k++, q += w) {
            if (self && (T->dlo[k] > s || T->dhi[k] < s)) continue;
            R->src[i] = (pv_fill_source){q[1], q[2], q[3], q[4]};
            R->order[i] = first[s] + (int64_t)q[0];
            double *cl = R->cols + i * (size_t)T->ncols;
            for (int c = 0; c < T->ncols; c++) cl[c] = (double)NAN;
            for (int c = 0; c < T->nkeep; c++) cl[T->keep[c] - 1] = q[T->kat + c];
            if (T->need_line) R->line[i] = (int64_t)q[REC_HEAD];
            i++;
        }
    }
    R->pending = n; /* filled in the next round, while the other ranks parse */
    if (T->inside == 0) return PV_OK;
    /* "number of points input": the in-grid rows this rank parsed (no voxel, no last
     * update) */
    pv_fill_local acc;
    pv_fill_local_init(&acc);
    acc.points_used = T->inside;
    T->inside = 0;
    pv_fill_run_account(run, &acc, 0.0); /* counting only: no fill time */
    return PV_OK;
}

/* Fill the rows the last exchange brought (one piece of the session, in file order). */
static pv_status fill_pending(text_fill *T, round_io *R, pv_fill_run *run)
{
    double t0 = MPI_Wtime();
    pv_status st = PV_OK;
    if (R->pending > 0) {
        if (T->need_line) pv_fill_run_lines(run, R->line); /* $0 in the value, as gnuplot */
        st = pv_fill_run_piece(run, R->src, R->cols, R->pending, R->order, 0, PV_FILL_NO_COUNT);
    }
    R->pending = 0;
    double dt = MPI_Wtime() - t0;
    T->secs[3] += dt;
    T->fill_ns = (int64_t)(dt * 1e9);
    return st;
}

/* Rank 0 prints gnuplot's brick lines from the sources gathered in file order, until one
 * has a non-empty brick anywhere (then no rank gathers again). */
static pv_status report_bricks(text_fill *T, round_io *R, const int64_t *npre,
                               const int64_t *hit)
{
    pv_ctx *ctx = T->ctx;
    const int P = ctx->nranks;
    int *cnt = R->rcount, *dsp = R->rdispl;
    size_t total = 0;
    for (int s = 0; s < P; s++) {
        cnt[s] = (int)(npre[s] * 4);
        dsp[s] = (int)total;
        total += (size_t)cnt[s];
    }
    pv_fill_source *all = NULL;
    size_t cap = 0;
    int ok = ctx->rank != 0 || PV_GROW(ctx, all, cap, total / 4 + 1);
    int allok = 0;
    MPI_Allreduce(&ok, &allok, 1, MPI_INT, MPI_MIN, ctx->comm);
    if (!allok) {
        T->st = ok ? PV_OK : PV_ENOMEM;
        return PV_ENOMEM;
    }
    MPI_Gatherv(T->pre, (int)(T->npre * 4), MPI_DOUBLE, all, cnt, dsp, MPI_DOUBLE, 0, ctx->comm);
    if (ctx->rank == 0) pv_fill_report_bricks(T->I, T->g, all, total / 4, T->grid_units);
    pv_free(ctx, all, cap * sizeof *all);
    for (int s = 0; s < P; s++)
        if (hit[s]) T->bricks_done = true;
    return PV_OK;
}

/* The next round's shares of the bytes (the load balance). A rank's round costs its parse
 * (its bytes at its measured seconds per byte) plus its fill of the rows it receives; a
 * sorted file sends a whole round's rows to one slab, so its owner would fill while the
 * others wait. The shares are set so that parse plus the last round's fill take the same
 * time on every rank, half way from the current shares (the timings are noisy). every
 * rank computes the same shares from the same gathered numbers; the rows and the grid
 * do not depend on them (the reader's state is exact at any byte). tm: per rank, `stride`
 * int64 apart: parse nanoseconds, bytes parsed, fill nanoseconds. */
static void rebalance(double *share, int P, const int64_t *tm, int stride)
{
    if (P > PV_BALANCE_MAX) return;
    double rsum = 0, fsum = 0, bytes = 0, rate[PV_BALANCE_MAX], want[PV_BALANCE_MAX];
    for (int s = 0; s < P; s++) {
        const int64_t *m = tm + (size_t)s * (size_t)stride;
        if (m[0] <= 0 || m[1] <= 0) return; /* no measure yet */
        rate[s] = (double)m[0] / (double)m[1]; /* ns a byte */
        rsum += 1.0 / rate[s];
        fsum += (double)m[2] / rate[s];
        bytes += (double)m[1];
    }
    double t = (bytes + fsum) / rsum, total = 0;
    for (int s = 0; s < P; s++) {
        want[s] = (t - (double)tm[(size_t)s * (size_t)stride + 2]) / rate[s] / bytes;
        if (want[s] < 0.1 / P) want[s] = 0.1 / P; /* every rank keeps some bytes */
        total += want[s];
    }
    for (int s = 0; s < P; s++) share[s] = 0.5 * share[s] + 0.5 * want[s] / total;
}

/* Do the rows depend on the lines before them? Only through `skip`, `index`, `every`, $0
 * and column(-1)/(-2) (data set and block numbers); without them every data line is a
 * point whatever came before, so a rank parses its chunk without the composed state (no
 * summary pass, no gather before the parse). */
static bool rows_stateless(const pv_data_spec *ds, const text_fill *T)
{
    if (ds->skip > 0 || ds->index_lo >= 0 || !pv_data_every_all(ds) || T->need_line) return false;
    for (int k = 0; k < 4; k++) {
        const pv_using_entry *u = &ds->using[k];
        if (u->kind == PV_USE_COLUMN && !u->expr && u->column >= 1) continue;
        if (u->kind != PV_USE_EXPR || !u->vector_ok) return false;
        for (int r = 0; r < u->nrefs; r++)
            if (u->refs[r] < 1) return false;
    }
    return true;
}

/* PVOX_TEXT_SHARES=skew (tests): shares drawn per round from a fixed sequence, some of
 * them zero, so cuts fall anywhere and some ranks read nothing in a round. */
static void skew_shares(double *share, int P, int64_t round)
{
    uint64_t h = 0x9e3779b97f4a7c15ull * (uint64_t)(round + 1);
    double total = 0;
    for (int s = 0; s < P; s++) {
        h ^= h >> 29;
        h *= 0xbf58476d1ce4e5b9ull;
        h ^= h >> 32;
        share[s] = (h % 4 == 0) ? 0.0 : (double)(h % 1000) + 1.0;
        total += share[s];
    }
    for (int s = 0; s < P; s++) share[s] = total > 0 ? share[s] / total : 1.0 / P;
}

/* ---- the reader ------------------------------------------------------------------------- */

static int64_t chunk_bytes(int P)
{
    const char *e = getenv("PVOX_TEXT_CHUNK");
    if (e && *e) {
        char *end = NULL;
        long long v = strtoll(e, &end, 10);
        if (end && *end == '\0' && v >= 1) return v;
    }
    int64_t c = ROUND_BYTES / P;
    return c < CHUNK_MIN ? CHUNK_MIN : c > CHUNK_MAX ? CHUNK_MAX : c;
}

/* The value's columns: a bare column, or the $N / column(N) of its text. */
static void value_columns(const pv_using_entry *v, text_fill *T)
{
    T->nkeep = 0;
    T->need_line = false;
    if (v->kind == PV_USE_COLUMN) {
        T->keep[T->nkeep++] = v->column;
    } else {
        for (int r = 0; r < v->nrefs; r++) {
            if (v->refs[r] >= 1 && T->nkeep < PV_USING_MAX) T->keep[T->nkeep++] = v->refs[r];
            if (v->refs[r] == 0) T->need_line = true;
        }
    }
    T->ncols = 0;
    for (int k = 0; k < T->nkeep; k++)
        if (T->keep[k] > T->ncols) T->ncols = (int)T->keep[k];
    T->kat = REC_HEAD + T->need_line;
    T->stride = T->kat + T->nkeep;
}

static void round_fini(pv_ctx *ctx, round_io *R)
{
    pv_free(ctx, R->buf, R->capbuf);
    free(R->all);
    pv_free(ctx, R->send, R->capsend * sizeof *R->send);
    pv_free(ctx, R->recv, R->caprecv * sizeof *R->recv);
    pv_free(ctx, R->src, R->capsrc * sizeof *R->src);
    pv_free(ctx, R->cols, R->capcols * sizeof *R->cols);
    pv_free(ctx, R->order, R->caporder * sizeof *R->order);
    pv_free(ctx, R->line, R->capline * sizeof *R->line);
    free(R->scount);
    free(R->tab);
    free(R->share);
    if (R->fd >= 0) close(R->fd);
}

static void text_fini(text_fill *T)
{
    pv_free(T->ctx, T->rec, T->caprec * sizeof *T->rec);
    pv_free(T->ctx, T->dlo, T->capdlo * sizeof *T->dlo);
    pv_free(T->ctx, T->dhi, T->capdhi * sizeof *T->dhi);
    pv_free(T->ctx, T->pre, T->cappre * sizeof *T->pre);
}

/* A failure of this rank, located at the file name unless located already. */
static pv_status located(text_fill *T, const pv_data_spec *ds, pv_status st)
{
    pv_ctx *ctx = T->ctx;
    if (st != PV_OK && st != PV_ENOMEM && !ctx->err_located && ctx->err_msg && ds->src)
        pv_err_locate(ctx, ds->src->name, ds->src->text, ds->src->len, ds->src->first_line,
                      ds->name_off);
    return st;
}

/* The rounds (the file is open on every rank, the session begun). */
static void read_rounds(text_fill *T, round_io *R, pv_fill_run *run, pv_data_text *txt,
                        const pv_data_spec *ds, const pv_data_opts *o)
{
    pv_ctx *ctx = T->ctx;
    const int P = ctx->nranks;
    pv_data_state round, mine;
    pv_data_state_start(ds, &round);
    int64_t order_base = 0;
    const int64_t ilo = ds->index_lo, ihi = ds->index_hi >= 0 ? ds->index_hi : ilo;
    for (int64_t off = 0; off < R->size; off += (int64_t)P * R->chunk) {
        double t0 = MPI_Wtime();
        T->rounds++;
        if (T->st == PV_OK) T->st = located(T, ds, read_chunk(T, R, off));
        bool failed = false;
        pv_status st = PV_OK;
        if (T->stateless) /* a read failure is agreed after the parse (the gather below) */
            pv_data_state_start(ds, &mine);
        else
            st = compose(T, R, ds, o, &round, &mine, &failed);
        double t1 = MPI_Wtime();
        T->secs[0] += t1 - t0;
        if (st != PV_OK) T->st = st;
        if (failed || st != PV_OK) return;
        T->nrec = 0;
        T->npre = 0;
        T->accepted = 0;
        T->brick_hit = false;
        if (T->st == PV_OK && !(ilo >= 0 && mine.index > ihi))
            T->st = pv_data_text_feed(txt, &mine, R->buf, R->len);
        double t2 = MPI_Wtime();
        T->secs[1] += t2 - t1;
        const int64_t parse_ns = (int64_t)((t2 - t1) * 1e9);
        /* the last round's rows: a sorted file sends them all to one slab, whose owner fills
         * them now, with a smaller share of this round to parse (rebalance) */
        if (T->st == PV_OK) T->st = fill_pending(T, R, run);
        else R->pending = 0;
        t2 = MPI_Wtime();
        /* accepted rows and brick lines of every rank, with the statuses and the timings
         * (parse, its bytes, fill) rebalance reads */
        int64_t v[7] = {T->accepted, (int64_t)T->npre, T->brick_hit, T->st, parse_ns,
                        (int64_t)R->len, T->fill_ns};
        if ((st = gather(T, R, v, 7)) != PV_OK) {
            T->st = st;
            return;
        }
        int64_t *first = R->tab, *npre = first + P, *hit = npre + P;
        bool bad = false;
        int64_t base = order_base;
        for (int s = 0; s < P; s++) {
            const int64_t *a = R->all + 7 * (size_t)s;
            first[s] = base;
            base += a[0];
            npre[s] = a[1];
            hit[s] = a[2];
            bad = bad || a[3] != PV_OK;
        }
        if (bad) return;
        if (P > 1 && T->skew) skew_shares(R->share, P, T->rounds);
        else if (P > 1) rebalance(R->share, P, R->all + 4, 7);
        order_base = base;
        if (!T->bricks_done && !ctx->opt.quiet && report_bricks(T, R, npre, hit) != PV_OK) return;
        if (ctx->opt.quiet) T->bricks_done = true;
        if ((st = exchange(T, R, run, first, &failed)) != PV_OK) T->st = st;
        T->secs[2] += MPI_Wtime() - t2;
        if (failed) return;
        if (ilo >= 0 && round.index > ihi) break; /* the data sets asked for are behind */
    }
    if (T->st == PV_OK) T->st = fill_pending(T, R, run);
}

pv_status pv_fill_text_run(pv_interp *I, pv_cursor *c, pv_grid *g, pv_data_spec *ds,
                           pv_code *value, bool grid_units, size_t off)
{
    pv_ctx *ctx = I->ctx;
    text_fill T = {0};
    T.I = I, T.ctx = ctx, T.g = g, T.grid_units = grid_units;
    const char *shares = getenv("PVOX_TEXT_SHARES");
    T.skew = shares && strcmp(shares, "skew") == 0;
    value_columns(&ds->using[4], &T);
    const char *st_env = getenv("PVOX_TEXT_STATE");
    T.stateless = rows_stateless(ds, &T) && !(st_env && strcmp(st_env, "1") == 0);
    round_io R = {0};
    R.fd = -1;
    R.name = ds->name;
    R.chunk = chunk_bytes(ctx->nranks);
    /* every rank opens the file; rank 0's size is the file's */
    errno = 0;
    R.fd = open(ds->name, O_RDONLY);
    if (R.fd < 0) {
        T.st = pv_err(ctx, PV_EIO, "cannot open '%s': %s", ds->name, strerror(errno));
    } else {
        struct stat sb;
        if (fstat(R.fd, &sb) != 0)
            T.st = pv_err(ctx, PV_EIO, "cannot read '%s': %s", ds->name, strerror(errno));
        else
            R.size = (int64_t)sb.st_size;
    }
    R.scount = malloc(4 * (size_t)ctx->nranks * sizeof *R.scount);
    R.tab = malloc(3 * (size_t)ctx->nranks * sizeof *R.tab);
    R.share = malloc((size_t)ctx->nranks * sizeof *R.share);
    for (int s = 0; R.share && s < ctx->nranks; s++) R.share[s] = 1.0 / ctx->nranks;
    R.all = malloc(NSUM * (size_t)ctx->nranks * sizeof *R.all);
    if ((!R.scount || !R.tab || !R.share || !R.all) && T.st == PV_OK)
        T.st = pv_err(ctx, PV_ENOMEM, "out of memory");
    T.st = located(&T, ds, T.st);
    pv_status st = pv_status_agree(ctx, T.st);
    MPI_Bcast(&R.size, 1, MPI_INT64_T, 0, ctx->comm);
    if (st != PV_OK) {
        round_fini(ctx, &R);
        return st;
    }
    if (!ctx->opt.quiet) pv_msg(ctx, "%s from %s :\n", grid_units ? "vgfill" : "vfill", ds->name);
    R.sdispl = R.scount + ctx->nranks;
    R.rcount = R.sdispl + ctx->nranks;
    R.rdispl = R.rcount + ctx->nranks;
    /* the reader evaluates the four coordinate specs; the value runs per voxel */
    pv_data_spec coords = *ds;
    coords.nusing = 4;
    pv_data_opts o;
    char sep[2];
    pv_exec_data_opts(I, &o, sep);
    pv_data_text *txt = NULL;
    pv_fill_run *run = NULL;
    st = pv_data_text_begin(I->env, &coords, &o, true, T.keep, T.nkeep, on_event, &T, &txt);
    if (st == PV_OK) st = pv_fill_run_begin(I, g, value, grid_units, T.ncols, &run);
    st = pv_status_agree(ctx, st);
    if (st != PV_OK) {
        if (run) pv_fill_run_end(run, c, ds, off, st); /* agreed already: frees it */
    } else {
        T.st = PV_OK;
        read_rounds(&T, &R, run, txt, &coords, &o);
        double smin = 1, smax = 0;
        for (int s = 0; s < ctx->nranks; s++) {
            if (R.share[s] < smin) smin = R.share[s];
            if (R.share[s] > smax) smax = R.share[s];
        }
        pv_log(ctx, PV_LOG_INFO, "grid",
               "%s: %lld rounds of %lld bytes a rank (last shares %.2f..%.2f): read and scan "
               "%.3f s, parse %.3f s, exchange %.3f s, fill %.3f s (this rank); memory peak "
               "%.1f MB",
               ds->name, (long long)T.rounds, (long long)R.chunk, smin * ctx->nranks,
               smax * ctx->nranks, T.secs[0], T.secs[1], T.secs[2], T.secs[3],
               (double)ctx->mem_peak / 1e6);
        st = pv_fill_run_end(run, c, ds, off, T.st);
    }
    pv_data_text_end(txt);
    text_fini(&T);
    round_fini(ctx, &R);
    return st;
}
