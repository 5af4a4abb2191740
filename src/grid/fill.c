/*
 * vfill / vgfill kernel (GP-5.2 and GP-5.4 in docs/GNUPLOT.md).
 *
 * For each source in file order: centre node C by the ceil rule (sources outside the grid
 * are skipped), a brick of half-width floor(r/delta) per axis (floor(r) in grid units for
 * vgfill) around C, clipped to the grid; every node of the brick within distance r, and C
 * always, receives value(VoxelDistance) added to its float.
 *
 * Parallel shape: sources are binned by the planes of this rank's slab that their brick
 * meets (CSR lists in file order); OpenMP threads take whole planes, so no two threads
 * touch one voxel and each voxel receives its sources in file order: the grid is
 * bit-identical for any rank and thread count. Large planes are walked in blocks of rows
 * (all sources of the plane for one block, then the next block) so the block stays in L2
 * while every source adds into it; the order per voxel is unchanged.
 *
 * Row spans: the nodes of one brick row that pass the sphere test form one contiguous run.
 * Every operation in d = sqrt((dx*dx + dy*dy) + dz*dz), dx = (xmin + ix*delta) - px, is
 * monotone, so along a row d falls to a minimum and rises again: {d <= r} is an interval
 * around the node of least dx*dx. In narrow bricks every node of the row is tested in one
 * vector pass (for vfill those are the VoxelDistances); in wide ones the run's ends are
 * found with a few exact tests (a guess from the circle's chord, then galloping), never by
 * rounding-sensitive algebra. C joins the run (or becomes a run of its own: unreachable in
 * practice, kept so the rule holds whatever the rounding). A run's distances are computed
 * in one vectorisable loop (dx*dx per source once per row block), the value expression is
 * evaluated for up to FILL_LANES nodes per call (the caller's vector VM), and the adds into
 * the grid are contiguous loops. VoxelDistance is the same double as the per-voxel formula gives, and
 * each voxel gets (float)((double)voxel + value), as in gnuplot.
 */
#include "pvox/grid.h"

#include <math.h>
#include <omp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define FILL_LANES PV_FILL_MAX_LANES /* lanes per evaluation: its arrays stay in L1/L2 */
#define BLOCK_VOXELS 65536           /* voxels per row block: 256 KiB of floats */
#define SMALL_ROW 64                 /* bricks this narrow test every node of a row */
#define FILL_PROGRESS_VOXELS (256LL * 256 * 256) /* fills this large draw a progress bar */

/* Hot loops get an AVX2 clone next to the baseline one, chosen at load time. The clones
 * never contract a*b+c into an FMA (no "fma" target, and ISO C mode keeps
 * -ffp-contract=off), so every lane is the same IEEE double on any machine. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__)
#define PV_CLONES __attribute__((target_clones("avx2", "default")))
#define PV_INLINE __attribute__((always_inline)) inline /* keeps the loops in the clone */
#else
#define PV_CLONES
#define PV_INLINE inline
#endif

/* Node indices fit 32 bits (a grid of 2^31 nodes a side could not be allocated); the
 * small record keeps a piece's bricks in cache (one per source). */
typedef struct brick {
    int32_t c[3];   /* centre node */
    int32_t lo[3];  /* first node of the brick, clipped */
    int32_t hi[3];  /* last node of the brick, clipped (hi < lo: empty) */
    bool used;      /* the point lies inside the grid */
} brick;

static void make_brick(const pv_grid *g, const pv_fill_source *s, bool grid_units, brick *b)
{
    int64_t c[3];
    b->used = pv_grid_index(g, s->x, s->y, s->z, c);
    if (!b->used)
        return;
    for (int a = 0; a < 3; a++)
        b->c[a] = (int32_t)c[a];
    for (int a = 0; a < 3; a++) {
        double hw = grid_units ? floor(s->radius) : floor(s->radius / g->delta[a]);
        /* Negative radius: empty brick (gnuplot modifies nothing, not even C). */
        if (!(hw >= 0)) {
            b->lo[a] = 1;
            b->hi[a] = 0;
            continue;
        }
        double lo = (double)b->c[a] - hw, hi = (double)b->c[a] + hw;
        b->lo[a] = lo < 0 ? 0 : (int32_t)lo;
        b->hi[a] = hi > (double)(g->n - 1) ? (int32_t)(g->n - 1) : (int32_t)hi;
    }
}

/* ---- per-thread work space ------------------------------------------------------------ */

typedef struct span {
    size_t off;     /* local index of the first voxel */
    uint32_t lane;  /* its first lane */
    uint32_t len;   /* voxels (lanes) */
} span;

typedef struct work {
    double dist[FILL_LANES];   /* VoxelDistance */
    double gdist[FILL_LANES];  /* GridDistance */
    double val[FILL_LANES];    /* evaluated values */
    span spans[FILL_LANES];
    size_t n, nspans;          /* lanes and spans in use */
    size_t psrc[FILL_LANES];   /* one-node sources batched: their source and voxel */
    size_t poff[FILL_LANES];
    size_t np;                 /* points in the batch (they use the lanes when n is 0) */
    double *ux2, *gx2;         /* x terms dx*dx (user units), gx*gx (grid units) of the
                                  current source, indexed ix - brick lo; n doubles each */
    double rowd[SMALL_ROW];    /* test distances of one narrow row */
} work;

static void work_free(work *w, int nthreads)
{
    if (!w)
        return;
    for (int t = 0; t < nthreads; t++) {
        free(w[t].ux2);
        free(w[t].gx2);
    }
    free(w);
}

static work *work_alloc(int nthreads, int64_t n)
{
    work *w = calloc((size_t)nthreads, sizeof *w);
    if (!w)
        return NULL;
    for (int t = 0; t < nthreads; t++) {
        w[t].ux2 = malloc((size_t)n * sizeof *w[t].ux2);
        w[t].gx2 = malloc((size_t)n * sizeof *w[t].gx2);
        if (!w[t].ux2 || !w[t].gx2) {
            work_free(w, nthreads);
            return NULL;
        }
    }
    return w;
}

/* ---- one source over one block of rows of one plane ----------------------------------- */

/* What the row loop needs about the source and the grid. */
typedef struct job {
    float *data;
    const pv_grid *g;
    const pv_fill_source *s;
    const brick *b;
    pv_fill_eval_fn eval;
    void *ud;
    int tid;
    size_t src;
    bool grid_units, need_g;
} job;

/* The row being cut: its test metric (user units for vfill, grid units for vgfill). */
typedef struct row {
    const double *t2;   /* x terms of the test metric, index ix - lo */
    double t_yz[2];     /* its y and z terms */
    double r;           /* radius in the test metric */
    int64_t lo;         /* brick's first x node */
} row;

static inline bool passes(const row *R, int64_t ix)
{
    return sqrt(R->t2[ix - R->lo] + R->t_yz[0] + R->t_yz[1]) <= R->r;
}

/* The farthest node from m toward e (inclusive) that passes, given that m passes and that
 * passing is monotone going outward. g is a guess of the answer: it is checked and the
 * search gallops from it, so a good guess costs two tests. */
static PV_INLINE int64_t run_edge(const row *R, int64_t m, int64_t e, int64_t g)
{
    const int64_t dir = e >= m ? 1 : -1;
    if ((g - m) * dir < 0)
        g = m;
    if ((g - e) * dir > 0)
        g = e;
    int64_t in, out, step = 1;
    if (passes(R, g)) {
        in = g;
        for (;;) {
            if (in == e)
                return e;
            int64_t t = in + dir * step;
            if ((t - e) * dir > 0)
                t = e;
            if (!passes(R, t)) {
                out = t;
                break;
            }
            in = t;
            step *= 2;
        }
    } else {
        out = g;
        for (;;) {
            int64_t t = out - dir * step;
            if ((t - m) * dir < 0)
                t = m;
            if (passes(R, t)) {
                in = t;
                break;
            }
            out = t;
            step *= 2;
        }
    }
    while ((out - in) * dir > 1) {
        int64_t mid = in + (out - in) / 2;
        if (passes(R, mid))
            in = mid;
        else
            out = mid;
    }
    return in;
}

/* A guess clamped to [lo, hi] in double (NaN and infinities included) before converting. */
static inline int64_t clamp_index(double x, int64_t lo, int64_t hi, int64_t fallback)
{
    if (x != x)
        return fallback;
    if (x <= (double)lo)
        return lo;
    if (x >= (double)hi)
        return hi;
    return (int64_t)x;
}

/* Evaluates the queued lanes and adds them into the grid, one contiguous loop per span. */
static PV_INLINE void flush(job *J, work *W)
{
    if (W->n == 0)
        return;
    J->eval(J->ud, J->tid, &J->src, 0, W->n, W->dist, W->gdist, W->val);
    for (size_t k = 0; k < W->nspans; k++) {
        float *restrict d = J->data + W->spans[k].off;
        const double *restrict v = W->val + W->spans[k].lane;
        size_t len = W->spans[k].len;
        /* gnuplot adds the double value to the float voxel: sum in double, round once */
        for (size_t i = 0; i < len; i++)
            d[i] = (float)((double)d[i] + v[i]);
    }
    W->n = 0;
    W->nspans = 0;
}

/* Queues nodes [a, b] of the row starting at local index `row_off`: their distances are
 * computed here (or copied from `pre`, the row's distances from node lo, when the row test
 * already computed them), the evaluation waits for a full batch. */
static PV_INLINE void queue_run(job *J, work *W, size_t row_off, int64_t lo, int64_t a,
                                int64_t b, const double uyz[2], const double gyz[2],
                                const double *pre)
{
    while (a <= b) {
        if (W->n == FILL_LANES)
            flush(J, W);
        size_t len = (size_t)(b - a + 1), room = FILL_LANES - W->n;
        if (len > room)
            len = room;
        double *restrict dist = W->dist + W->n;
        const double *restrict ux2 = W->ux2 + (a - lo);
        const double uy = uyz[0], uz = uyz[1];
        if (pre)
            memcpy(dist, pre + (a - lo), len * sizeof *dist);
        else
            for (size_t i = 0; i < len; i++)
                dist[i] = sqrt(ux2[i] + uy + uz);
        if (J->need_g) {
            double *restrict gdist = W->gdist + W->n;
            const double *restrict gx2 = W->gx2 + (a - lo);
            const double gy = gyz[0], gz = gyz[1];
            for (size_t i = 0; i < len; i++)
                gdist[i] = sqrt(gx2[i] + gy + gz);
        }
        W->spans[W->nspans++] = (span){row_off + (size_t)a, (uint32_t)W->n, (uint32_t)len};
        W->n += len;
        a += (int64_t)len;
    }
}

/* x terms of the source over the brick's x range; returns the node of least test term
 * (the bottom of every row's distance valley). */
static PV_INLINE int64_t x_terms(const job *J, work *W, double *kc)
{
    const pv_grid *g = J->g;
    const int64_t lo = J->b->lo[0], w = J->b->hi[0] - lo + 1;
    const double xmin = g->min[0], dx = g->delta[0], sx = J->s->x;
    const double gp = (sx - g->min[0]) / g->delta[0];
    double *restrict ux2 = W->ux2, *restrict gx2 = W->gx2;
    for (int64_t k = 0; k < w; k++) {
        double t = (xmin + (double)(lo + k) * dx) - sx;
        ux2[k] = t * t;
    }
    if (J->need_g)
        for (int64_t k = 0; k < w; k++) {
            double t = (double)(lo + k) - gp;
            gx2[k] = t * t;
        }
    const double *t2 = J->grid_units ? gx2 : ux2;
    int64_t m = 0;
    for (int64_t k = 1; k < w; k++)
        if (t2[k] < t2[m])
            m = k;
    *kc = gp; /* the point's position in node units: centre of the guesses */
    return lo + m;
}

/* The source's nodes in rows [y0, y1] of plane iz. Returns the updates queued; raises
 * *last_key to the largest ix*n+iy updated (gnuplot's loop order) with its distance. */
PV_CLONES
static int64_t fill_rows(job *J, work *W, int64_t iz, int64_t y0, int64_t y1, int64_t *last_key,
                         double *last_dist)
{
    const pv_grid *g = J->g;
    const brick *b = J->b;
    const pv_fill_source *s = J->s;
    const int64_t n = g->n, lo = b->lo[0], hi = b->hi[0];
    double kc;
    const int64_t m = x_terms(J, W, &kc);
    const double gz = (double)iz - (s->z - g->min[2]) / g->delta[2];
    const double dz = (g->min[2] + (double)iz * g->delta[2]) - s->z;
    const double gpy = (s->y - g->min[1]) / g->delta[1];
    /* test units per node along x, for the guesses */
    const double unit = J->grid_units ? 1.0 : fabs(g->delta[0]);
    row R = {J->grid_units ? W->gx2 : W->ux2, {0, 0}, s->radius, lo};
    const int64_t width = hi - lo + 1;
    const bool narrow = width <= SMALL_ROW;
    int64_t count = 0;
    for (int64_t iy = y0; iy <= y1; iy++) {
        const double dy = (g->min[1] + (double)iy * g->delta[1]) - s->y;
        const double gy = (double)iy - gpy;
        const double uyz[2] = {dy * dy, dz * dz}, gyz[2] = {gy * gy, gz * gz};
        R.t_yz[0] = J->grid_units ? gyz[0] : uyz[0];
        R.t_yz[1] = J->grid_units ? gyz[1] : uyz[1];
        int64_t a = 1, e = 0; /* the run [a, e], empty */
        const double *pre = NULL;
        if (narrow) {
            /* a few nodes: test them all in one vector pass; for vfill the test distances
             * are the VoxelDistances */
            double *restrict td = W->rowd;
            const double *restrict t2 = R.t2;
            const double ty = R.t_yz[0], tz = R.t_yz[1];
            for (int64_t k = 0; k < width; k++)
                td[k] = sqrt(t2[k] + ty + tz);
            int64_t ka = 0, ke = width - 1;
            while (ka <= ke && !(td[ka] <= R.r))
                ka++;
            while (ke >= ka && !(td[ke] <= R.r))
                ke--;
            a = lo + ka;
            e = lo + ke;
            pre = J->grid_units ? NULL : td;
        } else if (passes(&R, m)) {
            double w2 = R.r * R.r - (R.t_yz[0] + R.t_yz[1]);
            double half = (w2 > 0 ? sqrt(w2) : 0.0) / unit; /* the chord's half, in nodes */
            a = run_edge(&R, m, lo, clamp_index(ceil(kc - half), lo, m, m));
            e = run_edge(&R, m, hi, clamp_index(floor(kc + half), m, hi, m));
        }
        const size_t row_off = pv_grid_local_index(g, 0, iy, iz);
        int64_t cx = -1; /* C on its own (not next to the run) */
        if (iy == b->c[1] && iz == b->c[2]) {
            if (a > e)
                a = e = b->c[0];
            else if (b->c[0] == a - 1)
                a--;
            else if (b->c[0] == e + 1)
                e++;
            else if (b->c[0] < a || b->c[0] > e)
                cx = b->c[0];
        }
        if (a > e)
            continue;
        queue_run(J, W, row_off, lo, a, e, uyz, gyz, pre);
        int64_t top = e;
        if (cx >= 0) {
            queue_run(J, W, row_off, lo, cx, cx, uyz, gyz, pre);
            top = cx > e ? cx : e;
        }
        count += e - a + 1 + (cx >= 0);
        int64_t key = top * n + iy;
        if (key > *last_key) {
            *last_key = key;
            *last_dist = sqrt(W->ux2[top - lo] + uyz[0] + uyz[1]);
        }
    }
    flush(J, W);
    return count;
}

/* ---- one-node sources ------------------------------------------------------------------ */

/* A brick of the centre node alone (a radius below one node spacing: a data file's point
 * samples) is one update. Such sources are batched across sources, one lane each, so the
 * evaluation runs over full batches; each lane is added in queue order, which is the
 * plane's file order, so a voxel hit twice still sums in file order. */
static inline bool one_node(const brick *b)
{
    return b->lo[0] == b->hi[0] && b->lo[1] == b->hi[1] && b->lo[2] == b->hi[2];
}

static PV_INLINE void flush_points(const job *J, work *W)
{
    if (W->np == 0)
        return;
    J->eval(J->ud, J->tid, W->psrc, 1, W->np, W->dist, W->gdist, W->val);
    float *restrict d = J->data;
    for (size_t i = 0; i < W->np; i++)
        d[W->poff[i]] = (float)((double)d[W->poff[i]] + W->val[i]);
    W->np = 0;
}

/* Queues source s, whose brick is its centre node C in plane iz: C's distances are the
 * ones fill_rows computes for it, term by term. Returns the voxel's x*n+y key (gnuplot's
 * loop order) and its VoxelDistance. */
static PV_INLINE int64_t queue_point(const job *J, work *W, size_t s, int64_t iz, double *dist)
{
    if (W->np == FILL_LANES)
        flush_points(J, W);
    const pv_grid *g = J->g;
    const brick *b = J->b;
    const pv_fill_source *p = J->s;
    const int64_t cx = b->c[0], cy = b->c[1];
    const double tx = (g->min[0] + (double)cx * g->delta[0]) - p->x;
    const double ty = (g->min[1] + (double)cy * g->delta[1]) - p->y;
    const double tz = (g->min[2] + (double)iz * g->delta[2]) - p->z;
    const size_t k = W->np++;
    W->dist[k] = sqrt(tx * tx + ty * ty + tz * tz);
    if (J->need_g) {
        const double gx = (double)cx - (p->x - g->min[0]) / g->delta[0];
        const double gy = (double)cy - (p->y - g->min[1]) / g->delta[1];
        const double gz = (double)iz - (p->z - g->min[2]) / g->delta[2];
        W->gdist[k] = sqrt(gx * gx + gy * gy + gz * gz);
    }
    W->psrc[k] = s;
    W->poff[k] = pv_grid_local_index(g, cx, cy, iz);
    *dist = W->dist[k];
    return cx * g->n + cy;
}

/* ---- driver ------------------------------------------------------------------------------ */

/* CSR lists of the sources whose brick meets each local plane, in file order. */
static pv_status bin_sources(pv_ctx *ctx, const pv_grid *g, const pv_fill_source *src,
                             size_t nsrc, bool grid_units, brick *bricks, size_t *start,
                             size_t **list_out, int64_t *used)
{
    const int64_t nplanes = g->z1 - g->z0;
    *used = 0;
    for (size_t s = 0; s < nsrc; s++) {
        make_brick(g, &src[s], grid_units, &bricks[s]);
        if (!bricks[s].used)
            continue;
        (*used)++;
        int64_t lo = bricks[s].lo[2] > g->z0 ? bricks[s].lo[2] : g->z0;
        int64_t hi = bricks[s].hi[2] < g->z1 - 1 ? bricks[s].hi[2] : g->z1 - 1;
        for (int64_t iz = lo; iz <= hi; iz++)
            start[iz - g->z0 + 1]++;
    }
    for (int64_t p = 0; p < nplanes; p++)
        start[p + 1] += start[p];
    size_t total = start[nplanes];
    size_t *list = malloc((total ? total : 1) * sizeof *list);
    size_t *fillpos = calloc((size_t)nplanes + 1, sizeof *fillpos);
    if (!list || !fillpos) {
        free(list);
        free(fillpos);
        return pv_err(ctx, PV_ENOMEM, "out of memory");
    }
    for (size_t s = 0; s < nsrc; s++) {
        if (!bricks[s].used)
            continue;
        int64_t lo = bricks[s].lo[2] > g->z0 ? bricks[s].lo[2] : g->z0;
        int64_t hi = bricks[s].hi[2] < g->z1 - 1 ? bricks[s].hi[2] : g->z1 - 1;
        for (int64_t iz = lo; iz <= hi; iz++) {
            size_t p = (size_t)(iz - g->z0);
            list[start[p] + fillpos[p]++] = s;
        }
    }
    free(fillpos);
    *list_out = list;
    return PV_OK;
}

/* The global last update in gnuplot's loop order (sources in file order, then x, y, z):
 * its VoxelDistance. Collective. */
static double last_distance(pv_ctx *ctx, const pv_grid *g, const int64_t *last_src,
                            const int64_t *last_key, const double *last_d)
{
    int64_t key[2] = {-1, -1};
    double dist = 0;
    for (int64_t p = 0; p < g->z1 - g->z0; p++) {
        if (last_src[p] < 0)
            continue;
        int64_t k1 = last_key[p] * g->n + (g->z0 + p);
        if (last_src[p] > key[0] || (last_src[p] == key[0] && k1 > key[1])) {
            key[0] = last_src[p];
            key[1] = k1;
            dist = last_d[p];
        }
    }
    int64_t gsrc = -1;
    MPI_Allreduce(&key[0], &gsrc, 1, MPI_INT64_T, MPI_MAX, ctx->comm);
    int64_t mypos = key[0] == gsrc ? key[1] : -1, gpos = -1;
    MPI_Allreduce(&mypos, &gpos, 1, MPI_INT64_T, MPI_MAX, ctx->comm);
    double mine = (gsrc >= 0 && mypos == gpos) ? dist : -HUGE_VAL, out = 0;
    MPI_Allreduce(&mine, &out, 1, MPI_DOUBLE, MPI_MAX, ctx->comm);
    return gsrc < 0 ? 0 : out;
}

/* This piece's last update (file order of its source, then the voxel) folded into acc. */
static void local_last(const pv_grid *g, const int64_t *last_src, const int64_t *last_key,
                       const double *last_d, const int64_t *order, int64_t base,
                       pv_fill_local *acc)
{
    for (int64_t p = 0; p < g->z1 - g->z0; p++) {
        if (last_src[p] < 0)
            continue;
        pv_fill_local plane = {0, 0, order ? order[last_src[p]] : base + last_src[p],
                               last_key[p] * g->n + (g->z0 + p), last_d[p]};
        pv_fill_local_merge(acc, &plane);
    }
}

/* The kernel. collective: all ranks hold every source (pv_grid_fill): agree on failures,
 * draw the bar, reduce into *res. Otherwise (pv_grid_fill_local) this rank's piece only:
 * the last update and the counts go to *acc. */
static pv_status fill_core(pv_ctx *ctx, pv_grid *g, const pv_fill_source *src, size_t nsrc,
                           const int64_t *order, int64_t base, unsigned flags,
                           pv_fill_eval_fn eval, void *ud, bool collective,
                           pv_fill_result *res, pv_fill_local *acc)
{
    const bool grid_units = flags & PV_FILL_GRID_UNITS;
    const bool need_g = grid_units || (flags & PV_FILL_NEED_GRIDDIST);
    if (res) memset(res, 0, sizeof *res);
    int64_t used = 0;
    g->version++;
    const int64_t nplanes = g->z1 - g->z0;
    const int nthreads = omp_get_max_threads();
    brick *bricks = malloc((nsrc ? nsrc : 1) * sizeof *bricks);
    size_t *start = calloc((size_t)nplanes + 2, sizeof *start);
    size_t *list = NULL;
    /* last update per plane: (source, ix*n+iy, its distance) */
    int64_t *last_src = malloc(((size_t)nplanes + 1) * sizeof *last_src);
    int64_t *last_key = malloc(((size_t)nplanes + 1) * sizeof *last_key);
    double *last_d = malloc(((size_t)nplanes + 1) * sizeof *last_d);
    work *W = work_alloc(nthreads, g->n);
    pv_status st = (bricks && start && last_src && last_key && last_d && W)
                       ? PV_OK
                       : pv_err(ctx, PV_ENOMEM, "out of memory");
    if (st == PV_OK)
        st = bin_sources(ctx, g, src, nsrc, grid_units, bricks, start, &list, &used);
    if (collective)
        st = pv_status_agree(ctx, st);
    int64_t modified = 0;
    if (st == PV_OK) {
        float *data = g->data;
        /* a bar for fills of gnuplot's largest grid and up, drawn by rank 0's thread 0 from
         * the planes its rank has finished (the slabs are equal, so its share stands for
         * the whole) */
        pv_progress bar;
        int64_t planes_done = 0;
        const bool show = (collective || (flags & PV_FILL_PROGRESS)) &&
                          g->n * g->n * g->n >= FILL_PROGRESS_VOXELS;
        if (show) pv_progress_begin_units(ctx, &bar, "vfill", nplanes, "planes");
        const int64_t block_rows = g->n >= BLOCK_VOXELS ? 1 : BLOCK_VOXELS / g->n;
#pragma omp parallel default(none)                                                        \
    shared(g, src, bricks, start, list, nplanes, W, data, eval, ud, grid_units, need_g,     \
           last_src, last_key, last_d, block_rows, show, bar, planes_done, ctx)             \
    reduction(+ : modified)
        {
            job J = {data, g, NULL, NULL, eval, ud, omp_get_thread_num(), 0, grid_units,
                     need_g};
            work *my = &W[J.tid];
            my->n = my->nspans = my->np = 0;
#pragma omp for schedule(dynamic, 1)
            for (int64_t p = 0; p < nplanes; p++) {
                const int64_t iz = g->z0 + p;
                last_src[p] = -1;
                /* a plane of one-node sources only is walked in one block */
                int64_t rows = g->n;
                for (size_t k = start[p]; k < start[p + 1] && rows > block_rows; k++)
                    if (!one_node(&bricks[list[k]]))
                        rows = block_rows;
                for (int64_t y0 = 0; y0 < g->n; y0 += rows) {
                    const int64_t y1 = y0 + rows - 1;
                    for (size_t k = start[p]; k < start[p + 1]; k++) {
                        const size_t s = list[k];
                        const brick *b = &bricks[s];
                        int64_t ya = b->lo[1] > y0 ? b->lo[1] : y0;
                        int64_t yb = b->hi[1] < y1 ? b->hi[1] : y1;
                        if (ya > yb || b->lo[0] > b->hi[0])
                            continue;
                        J.s = &src[s];
                        J.b = b;
                        J.src = s;
                        int64_t key = -1;
                        double dist = 0;
                        int64_t c = 1;
                        if (one_node(b)) {
                            key = queue_point(&J, my, s, iz, &dist);
                        } else {
                            flush_points(&J, my); /* its voxels get the earlier sources first */
                            c = fill_rows(&J, my, iz, ya, yb, &key, &dist);
                        }
                        modified += c;
                        if (c > 0 && ((int64_t)s > last_src[p] ||
                                      ((int64_t)s == last_src[p] && key > last_key[p]))) {
                            last_src[p] = (int64_t)s;
                            last_key[p] = key;
                            last_d[p] = dist;
                        }
                    }
                    flush_points(&J, my);
                }
                if (show) {
                    int64_t done;
#pragma omp atomic capture
                    done = ++planes_done;
                    if (J.tid == 0) pv_progress_update(ctx, &bar, done);
                }
            }
        }
        if (show) pv_progress_end(ctx, &bar);
        if (collective) {
            res->points_used = used;
            res->last_distance = last_distance(ctx, g, last_src, last_key, last_d);
            MPI_Allreduce(&modified, &res->voxels_modified, 1, MPI_INT64_T, MPI_SUM,
                          ctx->comm);
        } else {
            if (!(flags & PV_FILL_NO_COUNT))
                acc->points_used += used;
            acc->voxels_modified += modified;
            local_last(g, last_src, last_key, last_d, order, base, acc);
        }
    }
    work_free(W, nthreads);
    free(last_src);
    free(last_key);
    free(last_d);
    free(bricks);
    free(start);
    free(list);
    return st;
}

pv_status pv_grid_fill(pv_ctx *ctx, pv_grid *g, const pv_fill_source *src, size_t nsrc,
                       unsigned flags, pv_fill_eval_fn eval, void *ud, pv_fill_result *res)
{
    return fill_core(ctx, g, src, nsrc, NULL, 0, flags, eval, ud, true, res, NULL);
}

void pv_fill_local_init(pv_fill_local *acc)
{
    *acc = (pv_fill_local){0, 0, -1, -1, 0.0};
}

void pv_fill_local_merge(pv_fill_local *acc, const pv_fill_local *piece)
{
    acc->points_used += piece->points_used;
    acc->voxels_modified += piece->voxels_modified;
    if (piece->last_order > acc->last_order ||
        (piece->last_order == acc->last_order && piece->last_key > acc->last_key)) {
        acc->last_order = piece->last_order;
        acc->last_key = piece->last_key;
        acc->last_distance = piece->last_distance;
    }
}

pv_status pv_grid_fill_local(pv_ctx *ctx, pv_grid *g, const pv_fill_source *src, size_t nsrc,
                             const int64_t *order, int64_t base, unsigned flags,
                             pv_fill_eval_fn eval, void *ud, pv_fill_local *acc)
{
    return fill_core(ctx, g, src, nsrc, order, base, flags, eval, ud, false, NULL, acc);
}

void pv_fill_local_reduce(pv_ctx *ctx, const pv_fill_local *acc, pv_fill_result *res)
{
    memset(res, 0, sizeof *res);
    MPI_Allreduce(&acc->points_used, &res->points_used, 1, MPI_INT64_T, MPI_SUM, ctx->comm);
    MPI_Allreduce(&acc->voxels_modified, &res->voxels_modified, 1, MPI_INT64_T, MPI_SUM,
                  ctx->comm);
    int64_t gsrc = -1, gkey = -1;
    MPI_Allreduce(&acc->last_order, &gsrc, 1, MPI_INT64_T, MPI_MAX, ctx->comm);
    int64_t mykey = acc->last_order == gsrc ? acc->last_key : -1;
    MPI_Allreduce(&mykey, &gkey, 1, MPI_INT64_T, MPI_MAX, ctx->comm);
    double mine = (gsrc >= 0 && mykey == gkey) ? acc->last_distance : -HUGE_VAL, out = 0;
    MPI_Allreduce(&mine, &out, 1, MPI_DOUBLE, MPI_MAX, ctx->comm);
    res->last_distance = gsrc < 0 ? 0 : out;
}
