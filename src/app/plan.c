/*
 * app/plan.c: `pvox --plan N` (plan.h; README "Planning a run (--plan)").
 *
 * Memory per rank is rank 0's (it holds the most planes): the slab comes from the grid
 * module's own rule (pv_decomp_slab_bytes, what `set vgrid` checks against the budget),
 * a node's memory from the budget's own sources (pv_mem_node_limit), the image bytes a
 * compositor pixel costs from composite.h; the rest are figures measured on pvox and
 * kept below with how they were measured. Everything is arithmetic on one rank.
 */
#define _POSIX_C_SOURCE 200809L
#include "plan.h"
#include "cli.h"
#include "pvox/composite.h"
#include "pvox/grid.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- measured figures ---------------------------------------------------------------
 * Rates: 1 rank x 1 thread (--threads 1, OMP_NUM_THREADS=1), RelWithDebInfo build (GCC
 * 12), 2-core VM (AMD EPYC, Debian 12) shared with other jobs (load 5-8), 2026-12-07.
 * Wall-clock phase times moved 2-3x with that load, so a phase's cost is its CPU time:
 * user+sys seconds (/usr/bin/time) of the job minus those of the same job without the
 * phase, median of 5 back-to-back pairs:
 *   fill     `pvox -q --threads 1 -e "N=512; S=10; F=0" bench/frames_seq.gp` against the
 *            same script without its vfill line: 0.40 s for 2 x 512^3 updates (the dipole
 *            pair, each voxel within both sources). `pvox -v` prints the wall-clock rate
 *            ("vfill: U voxel updates in T s"): 290-415 M/s here, 633 M/s on a quiet day
 *            (bench/README.md)
 *   extract, raster  `pvox -q --threads 1 --stats S.json -e "N=512" bench/iso_201.gp`
 *            (201 levels, 800x600, 2381130 triangles) against it without its splot line:
 *            2.12 s, split by the --stats share of scene_s (extraction: triangles made,
 *            lit, projected) and raster_s, 0.525; at 256^3 the same gives 105 M voxels/s
 *            and 1.56 M triangles/s (larger triangles). Triangles: 592774 at 256^3,
 *            2381130 at 512^3 (x 4.02: they grow as N^2)
 *   frame    `pvox -q --threads 1 -e "N=256; S=256; F=10; W=1920; H=1080"
 *            bench/frames_seq.gp` against F=0 (a pm3d x-slice of 256x256 "++" samples a
 *            frame, drawn, annotated, encoded and written, as bench_frames.sh job b):
 *            0.161 s a frame
 *   checksum `pvox -v --threads 1 -e 'vload "f.h5"'` of a 512^3 grid: the seconds
 *            between the vload line and the grid checksum line that -v adds (one pass
 *            over 512 MiB), median of 6: 0.556 s (wall clock)
 * Memory: pvox's tracked peak (--stats peak_memory_bytes) minus slab and ghost plane,
 * 1 rank, same machine and day: a pm3d slice frame at 800x600, 1600x1200 and 3200x2400
 * (fit: FRAME_FIXED + FRAME_PX_BYTES a pixel), an isosurface frame (201 levels, 256^3,
 * --iso-cache 0) at 800x600 and 1600x1200 (ISO_PX_BYTES a pixel: a second full-canvas
 * tile for the z steps); an empty job's resident size for BASE_BYTES. */
static const double plan_rate_default[PV_RATE_COUNT] = {
    [PV_RATE_FILL] = 671e6,      /* voxel updates/s */
    [PV_RATE_EXTRACT] = 121e6,   /* voxels/s at 201 levels */
    [PV_RATE_RASTER] = 2.36e6,   /* isosurface triangles/s at 800x600 */
    [PV_RATE_FRAME] = 12.9e6,    /* pixels/s of a pm3d slice frame */
    [PV_RATE_CHECKSUM] = 0.97e9, /* bytes/s */
};
static const char *const plan_rate_name[PV_RATE_COUNT] = {"fill", "extract", "raster", "frame",
                                                          "checksum"};

#define TRIS_PER_LEVEL_256 (592774.0 / 201.0) /* the dipole pair at 256^3, levels -100..100 */
#define FRAME_PX_BYTES 58.0                   /* a pm3d frame's buffers per pixel */
#define FRAME_FIXED ((double)(35u << 20))     /* ... and independent of the canvas */
#define ISO_PX_BYTES 101.0                    /* an isosurface frame's buffers per pixel */
#define TRI_BYTES 150.0 /* a batched triangle in the raster (exec/render.c's bound) */
#define BASE_BYTES ((double)(23u << 20)) /* an empty job's resident memory (MPI, libraries) */

/* Checkpoint layout (README "vsave and vload"): the 64 KiB metadata block at the start,
 * then the voxels, which start on a 1 MiB boundary when they are 16 MiB or more (the
 * file's alignment, io/h5_common.c). Checked against vsave's files (tests/app). */
#define CKPT_OFFSET(data) ((data) >= (double)(16u << 20) ? (double)(1u << 20) : (double)(64u << 10))

#define DEFAULT_BANDWIDTH (10.0 * 1073741824.0)
#define DEFAULT_LEVELS 201
#define DEFAULT_FRAMES 100
#define DEFAULT_BATCH 500000
#define MAX_N ((int64_t)1 << 20) /* N^3 floats stay below 2^64 bytes */

/* ---- command line ------------------------------------------------------------------ */

bool pv_plan_wanted(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--")) return false;
        if (!strcmp(argv[i], "--plan") || !strncmp(argv[i], "--plan=", 7)) return true;
    }
    return false;
}

static pv_status plan_usage(char **error, const char *fmt, ...) PV_PRINTF(2, 3);
static pv_status plan_usage(char **error, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (!*error) *error = pv_vasprintf(fmt, ap);
    va_end(ap);
    return PV_EUSAGE;
}

static bool parse_long(const char *s, long lo, long hi, long *out)
{
    errno = 0;
    char *end;
    long v = strtol(s, &end, 10);
    if (end == s || *end || errno || v < lo || v > hi) return false;
    *out = v;
    return true;
}

/* "WxH", both from 1 to 65535 */
static bool parse_canvas(const char *s, int *w, int *h)
{
    char buf[64];
    const char *x = strpbrk(s, "xX");
    long a, b;
    if (!x || (size_t)(x - s) >= sizeof buf) return false;
    memcpy(buf, s, (size_t)(x - s));
    buf[x - s] = '\0';
    if (!parse_long(buf, 1, 65535, &a) || !parse_long(x + 1, 1, 65535, &b)) return false;
    *w = (int)a;
    *h = (int)b;
    return true;
}

/* "NAME=VALUE" with VALUE > 0 (per second, per core) */
static bool parse_rate(const char *s, pv_plan_args *a)
{
    const char *eq = strchr(s, '=');
    if (!eq) return false;
    for (int k = 0; k < PV_RATE_COUNT; k++) {
        size_t len = strlen(plan_rate_name[k]);
        if ((size_t)(eq - s) != len || strncmp(s, plan_rate_name[k], len)) continue;
        errno = 0;
        char *end;
        double v = strtod(eq + 1, &end);
        if (end == eq + 1 || *end || errno || !(v > 0) || !isfinite(v)) return false;
        a->rate[k] = v;
        return true;
    }
    return false;
}

static const char *const plan_options[] = {
    "--plan",   "--ranks", "--ranks-per-node", "--threads",         "--levels",    "--size",
    "--frames", "--mem",   "--bandwidth",      "--batch-triangles", "--iso-cache", "--rate"};
enum {
    O_PLAN,
    O_RANKS,
    O_RPN,
    O_THREADS,
    O_LEVELS,
    O_SIZE,
    O_FRAMES,
    O_MEM,
    O_BW,
    O_BATCH,
    O_CACHE,
    O_RATE,
    O_COUNT
};

static pv_status plan_value(pv_plan_args *a, int which, const char *v, char **error)
{
    long l = 0;
    size_t z = 0;
    const char *opt = plan_options[which];
    switch (which) {
    case O_PLAN:
        if (!parse_long(v, 2, (long)MAX_N, &l))
            return plan_usage(error,
                              "invalid grid size '%s' for --plan (expected an integer "
                              "from 2 to %lld)",
                              v, (long long)MAX_N);
        a->n = l;
        return PV_OK;
    case O_RANKS:
    case O_RPN:
        if (!parse_long(v, 1, 1L << 30, &l))
            return plan_usage(error,
                              "invalid rank count '%s' for %s (expected a positive "
                              "integer)",
                              v, opt);
        *(which == O_RANKS ? &a->ranks : &a->ranks_per_node) = l;
        return PV_OK;
    case O_THREADS:
        if (!parse_long(v, 1, 4096, &l))
            return plan_usage(error,
                              "invalid thread count '%s' (expected an integer from 1 "
                              "to 4096)",
                              v);
        a->threads = (int)l;
        return PV_OK;
    case O_LEVELS:
    case O_FRAMES:
        if (!parse_long(v, 0, 1L << 30, &l))
            return plan_usage(error, "invalid count '%s' for %s (expected an integer >= 0)", v,
                              opt);
        *(which == O_LEVELS ? &a->levels : &a->frames) = l;
        return PV_OK;
    case O_SIZE:
        if (!parse_canvas(v, &a->width, &a->height))
            return plan_usage(error, "invalid canvas size '%s' (expected WxH, e.g. 1920x1080)", v);
        return PV_OK;
    case O_MEM:
    case O_BW:
        if (!pv_parse_size(v, &z))
            return plan_usage(error, "invalid size '%s' for %s (expected e.g. 256G, 1.5TiB%s)", v,
                              opt, which == O_BW ? ": bytes per second" : "");
        if (which == O_MEM)
            a->node_mem = z;
        else
            a->bandwidth = (double)z;
        return PV_OK;
    case O_BATCH:
        if (!parse_long(v, 1, LONG_MAX, &l))
            return plan_usage(error,
                              "invalid triangle count '%s' (expected a positive "
                              "integer)",
                              v);
        a->batch_triangles = l;
        return PV_OK;
    case O_CACHE:
        if (!parse_long(v, 0, 1L << 30, &l))
            return plan_usage(error,
                              "invalid size '%s' (expected MiB, e.g. 256; 0 keeps "
                              "none)",
                              v);
        a->iso_cache = (size_t)l << 20;
        return PV_OK;
    case O_RATE:
        if (!parse_rate(v, a))
            return plan_usage(error,
                              "invalid rate '%s' (expected NAME=VALUE per second and "
                              "core, VALUE > 0, NAME one of fill, extract, raster, frame, "
                              "checksum)",
                              v);
        return PV_OK;
    default: return PV_EINTERNAL;
    }
}

pv_status pv_plan_parse(int argc, char **argv, pv_plan_args *a, bool *help, char **error)
{
    memset(a, 0, sizeof *a);
    a->threads = 1;
    a->levels = DEFAULT_LEVELS;
    a->width = 800;
    a->height = 600;
    a->frames = DEFAULT_FRAMES;
    a->bandwidth = DEFAULT_BANDWIDTH;
    a->batch_triangles = DEFAULT_BATCH;
    a->iso_cache = PV_ISO_CACHE_AUTO;
    memcpy(a->rate, plan_rate_default, sizeof a->rate);
    *help = false;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (!strcmp(arg, "-h") || !strcmp(arg, "--help")) {
            *help = true;
            continue;
        }
        if (!strcmp(arg, "--json")) {
            a->json = true;
            continue;
        }
        int which = -1;
        const char *val = NULL;
        for (int k = 0; k < O_COUNT && which < 0; k++) {
            size_t len = strlen(plan_options[k]);
            if (strncmp(arg, plan_options[k], len)) continue;
            if (arg[len] == '=')
                val = arg + len + 1;
            else if (arg[len] != '\0')
                continue;
            else if (i + 1 < argc)
                val = argv[++i];
            else
                return plan_usage(error, "option '%s' needs a value", arg);
            which = k;
        }
        if (which < 0)
            return plan_usage(error,
                              arg[0] == '-' ? "option '%s' is not one of --plan's "
                                              "(pvox --help lists them)"
                                            : "--plan runs no script ('%s')",
                              arg);
        pv_status st = plan_value(a, which, val, error);
        if (st != PV_OK) return st;
    }
    return PV_OK;
}

/* ---- the arithmetic ------------------------------------------------------------------ */

typedef struct plan_mem {
    double slab, ghost, batch, cache, frame, base, total;
} plan_mem;

/* Peak memory of rank 0 (the largest slab) at P ranks. false if the slab overflows. */
static bool rank_memory(const pv_plan_args *a, long P, plan_mem *m)
{
    size_t slab;
    if (!pv_decomp_slab_bytes(a->n, (int)P, 0, &slab)) {
        m->slab = m->total = HUGE_VAL; /* beyond size_t: fits nowhere */
        return false;
    }
    double n = (double)a->n, px = (double)a->width * a->height;
    bool iso = a->levels > 0;
    m->slab = (double)slab;
    m->ghost = iso ? n * n * sizeof(float) : 0;
    m->batch = iso ? TRI_BYTES * (double)a->batch_triangles : 0;
    size_t cache = a->iso_cache == PV_ISO_CACHE_AUTO ? pv_iso_cache_default(slab) : a->iso_cache;
    m->cache = iso ? (double)cache : 0;
    double pm3d = FRAME_FIXED + FRAME_PX_BYTES * px, isof = ISO_PX_BYTES * px;
    m->frame = iso && isof > pm3d ? isof : pm3d;
    if (!iso && a->frames == 0) m->frame = 0; /* a fill-and-save job draws nothing */
    m->base = BASE_BYTES;
    m->total = m->slab + m->ghost + m->batch + m->cache + m->frame + m->base;
    return true;
}

/* The memory a rank may use: the node's shared among its ranks (pv_mem_budget's rule). */
static double rank_budget(double node_mem, long P, long R)
{
    return node_mem / (double)(P < R ? P : R);
}

/* The fewest ranks whose rank 0 fits, counting everything (whole) or the slab alone (what
 * `set vgrid` checks); 0 if not even one plane a rank fits. */
static long fewest_ranks(const pv_plan_args *a, double node_mem, long R, bool whole)
{
    for (long P = 1; P <= a->n; P++) {
        plan_mem m;
        if (!rank_memory(a, P, &m)) continue;
        if ((whole ? m.total : m.slab) <= rank_budget(node_mem, P, R)) return P;
    }
    return 0;
}

typedef struct plan_out {
    long P, R, nodes;
    double node_mem;
    const char *mem_source;
    plan_mem mem;
    double budget;
    int64_t planes;
    long fewest, fewest_nodes, grid_fewest;
    double ckpt_data, ckpt_bytes;
    double t_fill, t_sum, t_write, t_read;
    double tris_total, tris_rank, tris_worst, t_extract, t_raster, t_raster_worst;
    double t_frame, comp_sent, comp_pieces;
} plan_out;

static long ceil_div(long a, long b) { return (a + b - 1) / b; }

static void compute(const pv_plan_args *a, plan_out *o)
{
    memset(o, 0, sizeof *o);
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    o->R = a->ranks_per_node > 0 ? a->ranks_per_node : (cores > 0 ? cores : 1);
    if (a->node_mem > 0) {
        o->node_mem = (double)a->node_mem;
        o->mem_source = "--mem";
    } else {
        o->node_mem = (double)pv_mem_node_limit((int)o->R, &o->mem_source);
    }
    o->fewest = fewest_ranks(a, o->node_mem, o->R, true);
    o->grid_fewest = fewest_ranks(a, o->node_mem, o->R, false);
    o->fewest_nodes = o->fewest ? ceil_div(o->fewest, o->R) : 0;
    o->P = a->ranks > 0 ? a->ranks : (o->fewest ? o->fewest : a->n);
    o->nodes = ceil_div(o->P, o->R);
    o->budget = rank_budget(o->node_mem, o->P, o->R);
    rank_memory(a, o->P, &o->mem);
    int64_t z0, z1;
    pv_decomp_slab(a->n, (int)o->P, 0, &z0, &z1);
    o->planes = z1 - z0;

    double n = (double)a->n, vox = (double)o->planes * n * n, T = a->threads;
    const double *r = a->rate;
    o->ckpt_data = n * n * n * sizeof(float);
    o->ckpt_bytes = CKPT_OFFSET(o->ckpt_data) + o->ckpt_data;
    o->t_fill = 2.0 * vox / (r[PV_RATE_FILL] * T);
    /* the hashing threads leave one of the rank's cores to the thread doing the I/O */
    o->t_sum = o->mem.slab / (r[PV_RATE_CHECKSUM] * (T > 1 ? T - 1 : 1));
    /* the checksum is computed by a helper thread while the voxels are transferred
     * (io/h5_write.c, h5_read.c): the slower of the two */
    double t_io = o->ckpt_bytes / a->bandwidth;
    o->t_write = t_io > o->t_sum ? t_io : o->t_sum;
    o->t_read = o->t_write;
    o->tris_total = TRIS_PER_LEVEL_256 * (double)a->levels * (n / 256.0) * (n / 256.0);
    o->tris_rank = o->tris_total * (double)o->planes / n;
    if (a->levels > 0) {
        o->t_extract = vox / (r[PV_RATE_EXTRACT] * T);
        o->t_raster = o->tris_rank / (r[PV_RATE_RASTER] * T);
        /* the dipole pair's level 0 is the flat mid-plane: 2 triangles in each of its
         * (N-1)^2 cells, all on the one rank whose cell layer it cuts (measured: 32258 of
         * 146906 triangles on one of 32 ranks at 128^3) */
        double plane = fmin(2.0 * (n - 1) * (n - 1), o->tris_total);
        o->tris_worst = (o->tris_total - plane) * (double)o->planes / n + plane;
        o->t_raster_worst = o->tris_worst / (r[PV_RATE_RASTER] * T);
    }
    double px = (double)a->width * a->height;
    o->t_frame = px / (r[PV_RATE_FRAME] * T);
    /* binary swap (composite/swap.c) over P2 = the largest power of two <= P: a survivor
     * sends half its range each round, (1 - 1/P2) of the picture, then its 1/P2 piece as
     * RGBA (16 bytes a pixel); a folded rank sends its whole picture once. Full canvas,
     * every pixel opaque: an upper bound (only drawn pixels travel). */
    long P2 = 1;
    while (P2 * 2 <= o->P) P2 *= 2;
    double img = (double)PV_COMPOSITE_IMAGE_BYTES((uint64_t)px);
    o->comp_sent = o->P == 1 ? 0 : img * (1.0 - 1.0 / (double)P2) + 16.0 * px / (double)P2;
    if (o->P != P2 && img > o->comp_sent) o->comp_sent = img;
    o->comp_pieces = o->P == 1 ? 0 : 16.0 * px * (1.0 - 1.0 / (double)P2);
}

/* ---- printing -------------------------------------------------------------------------- */

static const char *bytes_h(double b, char *buf, size_t len)
{
    const char *unit[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    int u = 0;
    while (b >= 1024.0 && u < 6) {
        b /= 1024.0;
        u++;
    }
    snprintf(buf, len, u ? "%.1f %s" : "%.0f %s", b, unit[u]);
    return buf;
}

static const char *secs_h(double s, char *buf, size_t len)
{
    if (s < 1)
        snprintf(buf, len, "%.0f ms", s * 1e3);
    else if (s < 600)
        snprintf(buf, len, "%.1f s", s);
    else if (s < 36000)
        snprintf(buf, len, "%.1f min", s / 60);
    else
        snprintf(buf, len, "%.1f h", s / 3600);
    return buf;
}

static void print_json(const pv_plan_args *a, const plan_out *o, FILE *f)
{
    const plan_mem *m = &o->mem;
    fprintf(f,
            "{\"n\": %lld, \"ranks\": %ld, \"ranks_per_node\": %ld, \"nodes\": %ld, "
            "\"threads\": %d, \"levels\": %ld, \"width\": %d, \"height\": %d, "
            "\"frames\": %ld,\n",
            (long long)a->n, o->P, o->R, o->nodes, a->threads, a->levels, a->width, a->height,
            a->frames);
    fprintf(f,
            " \"node_memory_bytes\": %.0f, \"node_memory_source\": \"%s\", "
            "\"budget_per_rank_bytes\": %.0f,\n",
            o->node_mem, o->mem_source, o->budget);
    fprintf(f,
            " \"planes_per_rank\": %lld, \"memory_per_rank\": {\"slab\": %.0f, "
            "\"ghost\": %.0f, \"iso_batch\": %.0f, \"iso_cache\": %.0f, \"frame\": %.0f, "
            "\"base\": %.0f, \"total\": %.0f},\n",
            (long long)o->planes, m->slab, m->ghost, m->batch, m->cache, m->frame, m->base,
            m->total);
    fprintf(f,
            " \"grid_check_bytes\": %.0f, \"fits\": %s, \"fewest_ranks\": %ld, "
            "\"fewest_nodes\": %ld, \"fewest_ranks_grid_check\": %ld,\n",
            m->slab, m->total <= o->budget ? "true" : "false", o->fewest, o->fewest_nodes,
            o->grid_fewest);
    fprintf(f,
            " \"checkpoint_bytes\": %.0f, \"checkpoint_voxel_bytes\": %.0f, "
            "\"bandwidth_bytes_per_s\": %.0f,\n",
            o->ckpt_bytes, o->ckpt_data, a->bandwidth);
    fprintf(f,
            " \"seconds\": {\"fill\": %.6g, \"checkpoint_write\": %.6g, "
            "\"checkpoint_read\": %.6g, \"iso_extract\": %.6g, \"iso_raster\": %.6g, "
            "\"iso_raster_midplane_rank\": %.6g, \"frame\": %.6g, \"frames\": %.6g},\n",
            o->t_fill, o->t_write, o->t_read, o->t_extract, o->t_raster, o->t_raster_worst,
            o->t_frame, o->t_frame * (double)a->frames);
    fprintf(f,
            " \"triangles_total\": %.0f, \"triangles_per_rank\": %.0f, "
            "\"triangles_midplane_rank\": %.0f, "
            "\"composite_bytes_sent_per_rank_per_frame\": %.0f,\n",
            o->tris_total, o->tris_rank, o->tris_worst, o->comp_sent);
    fprintf(f, " \"rates_per_core\": {");
    for (int k = 0; k < PV_RATE_COUNT; k++)
        fprintf(f, "%s\"%s\": %.6g", k ? ", " : "", plan_rate_name[k], a->rate[k]);
    fprintf(f, "}}\n");
}

static void print_table(const pv_plan_args *a, const plan_out *o, FILE *f)
{
    char b1[32], b2[32], b3[32];
    const plan_mem *m = &o->mem;
    long long n = (long long)a->n;
    fprintf(f,
            "pvox --plan: a %lld^3 float grid (%s) on %ld rank%s, %ld per node (%ld "
            "node%s), %d thread%s per rank\n\n",
            n, bytes_h(o->ckpt_data, b1, sizeof b1), o->P, o->P == 1 ? "" : "s", o->R, o->nodes,
            o->nodes == 1 ? "" : "s", a->threads, a->threads == 1 ? "" : "s");
    fprintf(f, "memory per rank (rank 0: %lld plane%s of %lld^2)\n", (long long)o->planes,
            o->planes == 1 ? "" : "s", n);
    fprintf(f,
            "  grid slab         %12s  what `set vgrid` checks: --max-memory %.0f is "
            "just enough\n",
            bytes_h(m->slab, b1, sizeof b1), m->slab);
    if (a->levels > 0) {
        fprintf(f, "  ghost plane       %12s  the neighbour's plane for isosurfaces\n",
                bytes_h(m->ghost, b1, sizeof b1));
        fprintf(f, "  isosurface batch  %12s  --batch-triangles %ld x %.0f B\n",
                bytes_h(m->batch, b1, sizeof b1), a->batch_triangles, TRI_BYTES);
        fprintf(f, "  isosurface cache  %12s  --iso-cache (at most; default 128 MiB less an eighth\n"
                   "                                of the slab)\n",
                bytes_h(m->cache, b1, sizeof b1));
    }
    if (m->frame > 0)
        fprintf(f, "  frame buffers     %12s  %dx%d canvas, tiles, compositor, writer\n",
                bytes_h(m->frame, b1, sizeof b1), a->width, a->height);
    fprintf(f, "  pvox base         %12s  MPI and libraries, resident\n",
            bytes_h(m->base, b1, sizeof b1));
    fprintf(f, "  total             %12s  budget %s (%s %s / %ld rank%s): %s\n\n",
            bytes_h(m->total, b1, sizeof b1), bytes_h(o->budget, b2, sizeof b2), o->mem_source,
            bytes_h(o->node_mem, b3, sizeof b3), o->P < o->R ? o->P : o->R,
            (o->P < o->R ? o->P : o->R) == 1 ? "" : "s",
            m->total <= o->budget ? "fits" : "DOES NOT FIT");
    if (o->fewest)
        fprintf(f,
                "fewest ranks that fit: %ld (%ld node%s of %s, up to %ld ranks a node); the "
                "grid check alone (the slab) passes at %ld\n",
                o->fewest, o->fewest_nodes, o->fewest_nodes == 1 ? "" : "s",
                bytes_h(o->node_mem, b1, sizeof b1), o->R, o->grid_fewest);
    else
        fprintf(f, "fewest ranks that fit: none (not even one plane a rank fits in %s)\n",
                bytes_h(o->budget, b1, sizeof b1));
    fprintf(f,
            "checkpoint: %s, %.0f bytes (the voxels after a 64 KiB metadata block, "
            "aligned to 1 MiB)\n\n",
            bytes_h(o->ckpt_bytes, b1, sizeof b1), o->ckpt_bytes);

    fprintf(f, "time per phase (rank 0)\n");
    fprintf(f, "  fill             %10s  dipole-like source pair: %.3g voxel updates\n",
            secs_h(o->t_fill, b1, sizeof b1),
            2.0 * (double)o->planes * (double)a->n * (double)a->n);
    fprintf(f, "  checkpoint write %10s  at %s/s for the file system; checksum %s beside it\n",
            secs_h(o->t_write, b1, sizeof b1), bytes_h(a->bandwidth, b2, sizeof b2),
            secs_h(o->t_sum, b3, sizeof b3));
    fprintf(f, "  checkpoint read  %10s  the same, the checksum checked beside it\n",
            secs_h(o->t_read, b1, sizeof b1));
    if (a->levels > 0) {
        fprintf(f,
                "  isosurfaces      %10s  %ld levels: extraction %s, rasterising %s; "
                "%.3g triangles (%.3g on rank 0, an even share)\n",
                secs_h(o->t_extract + o->t_raster, b1, sizeof b1), a->levels,
                secs_h(o->t_extract, b2, sizeof b2), secs_h(o->t_raster, b3, sizeof b3),
                o->tris_total, o->tris_rank);
        if (o->P > 1)
            fprintf(f,
                    "  iso, mid-plane   %10s  rasterising on the rank holding the dipole's flat "
                    "level 0: %.3g triangles\n",
                    secs_h(o->t_raster_worst, b1, sizeof b1), o->tris_worst);
    }
    if (a->frames > 0)
        fprintf(f, "  slice frame      %10s  pm3d at %dx%d; %ld frames %s\n",
                secs_h(o->t_frame, b1, sizeof b1), a->width, a->height, a->frames,
                secs_h(o->t_frame * (double)a->frames, b2, sizeof b2));
    if (a->frames > 0 || a->levels > 0)
        fprintf(f,
                "  compositing      %10s  sent per rank per frame (at most: full opaque "
                "canvas, binary swap)\n",
                bytes_h(o->comp_sent, b1, sizeof b1));
    fputc('\n', f);

    fprintf(f, "assumptions: rates per core measured on pvox (CPU time, 1 rank x 1 thread, "
               "256^3-512^3 grids, 2-core VM, 2026-12-07):");
    for (int k = 0; k < PV_RATE_COUNT; k++)
        fprintf(f, "%s %s=%.3g", k ? "," : "", plan_rate_name[k], a->rate[k]);
    fprintf(f,
            "/s (--rate NAME=VALUE to change); threads scale linearly; the fill is 2 "
            "updates a voxel (two sources covering the grid); triangles grow as N^2 and "
            "in proportion to the levels (%.0f a level at 256^3, the dipole pair's "
            "levels -100..100), spread evenly over the slabs but for the mid-plane; the file "
            "system's bandwidth is shared by "
            "all ranks; frame buffers and base are measured figures.\n",
            TRIS_PER_LEVEL_256);
}

void pv_plan_print(const pv_plan_args *a, FILE *out)
{
    plan_out o;
    compute(a, &o);
    if (a->json)
        print_json(a, &o, out);
    else
        print_table(a, &o, out);
    fflush(out);
}
