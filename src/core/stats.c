/*
 * core/stats.c: the --stats recorder (pvox/stats.h, README "Statistics (--stats)").
 *
 * Each rank appends a fixed-size binary record per frame to a growing array in tracked
 * memory (ARCH-12); the output names go to one tracked text, NUL-separated. At the end
 * pv_stats_write agrees on the record counts first (a mismatch is an agreed
 * PV_EINTERNAL, never a hang), gathers the ranks' peak memory, then gathers the records
 * to rank 0 in batches of at most BATCH_BYTES (so rank 0's buffer and the MPI counts stay
 * bounded however many frames and ranks there are) and rank 0 streams the JSON into a
 * temporary beside it, renamed into place when complete (ARCH-13), under the output rule
 * of pvox/outfile.h (a regular file or a new name; a link: the file it reaches). Only
 * rank 0 needs the output names: every rank records the same ones (SPMD), so rank 0 uses
 * its own.
 *
 * Parallel shape: no OpenMP; MPI only in pv_stats_write, every step agreed (ARCH-2).
 */
#define _DEFAULT_SOURCE /* getrusage on every libc */
#include "pvox/stats.h"

#include "pvox/outfile.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#define BATCH_BYTES ((size_t)16 << 20) /* rank 0's gather buffer, at most (>= one frame) */

/* One rank's record of one frame, as gathered (plain bytes: every rank runs the same
 * executable, so the layout is the same everywhere). */
typedef struct rec {
    double t[PV_PHASE_COUNT];
    uint64_t bytes_sent, bytes_recv, image_bytes, active_pixels, triangles, points;
    uint64_t name_off; /* offset of the output name in this rank's names */
    int32_t width, height, writer, pad;
} rec;

/* One rank's record of one grid command, as gathered. */
typedef struct cmdrec {
    double s;          /* seconds on this rank */
    uint64_t peak;     /* peak tracked bytes during the command */
    uint64_t name_off; /* offsets in names: the command, then where it was */
    uint64_t where_off;
} cmdrec;

struct pv_stats {
    rec *r;            /* records, in frame order */
    size_t n, cap;     /* used and allocated elements of r */
    cmdrec *c;         /* grid commands, in order */
    size_t nc, capc;
    pv_strbuf names;   /* output names, each followed by its NUL */
};

static const char *const phase_names[PV_PHASE_COUNT] = {"scene",    "raster", "composite",
                                                        "annotate", "encode", "write"};

const char *pv_phase_name(pv_phase ph)
{
    return (unsigned)ph < PV_PHASE_COUNT ? phase_names[ph] : "?";
}

/* ---- recording --------------------------------------------------------------------- */

static struct pv_stats *stats_of(pv_ctx *ctx)
{
    if (!ctx->stats) {
        ctx->stats = pv_calloc(ctx, 1, sizeof *ctx->stats);
        if (ctx->stats) ctx->stats_free = pv_stats_free; /* pv_ctx_destroy frees the rest */
    }
    return ctx->stats;
}

pv_status pv_stats_frame(pv_ctx *ctx, const pv_frame_record *fr)
{
    if (!ctx->opt.stats_path) return PV_OK;
    struct pv_stats *S = stats_of(ctx);
    if (!S) return ctx->err_code ? ctx->err_code : PV_ENOMEM;
    if (!PV_GROW(ctx, S->r, S->cap, S->n + 1)) return ctx->err_code ? ctx->err_code : PV_ENOMEM;
    const char *name = fr->output ? fr->output : "";
    size_t off = S->names.len;
    pv_status st = pv_strbuf_put(ctx, &S->names, name, strlen(name) + 1);
    if (st != PV_OK) return st;
    rec *r = &S->r[S->n++];
    memset(r, 0, sizeof *r);
    for (int k = 0; k < PV_PHASE_COUNT; k++) r->t[k] = fr->t[k];
    r->bytes_sent = fr->bytes_sent;
    r->bytes_recv = fr->bytes_recv;
    r->image_bytes = fr->image_bytes;
    r->active_pixels = fr->active_pixels;
    r->triangles = fr->triangles;
    r->points = fr->points;
    r->name_off = off;
    r->width = fr->width;
    r->height = fr->height;
    r->writer = fr->writer;
    return PV_OK;
}

void pv_stats_command_begin(pv_ctx *ctx, pv_stats_cmd *sc)
{
    sc->t0 = MPI_Wtime();
    sc->run_peak = ctx->mem_peak;
    ctx->mem_peak = ctx->mem_current;
}

pv_status pv_stats_command_end(pv_ctx *ctx, const pv_stats_cmd *sc, const char *name,
                               const char *where)
{
    double s = MPI_Wtime() - sc->t0;
    size_t peak = ctx->mem_peak;
    if (sc->run_peak > ctx->mem_peak) ctx->mem_peak = sc->run_peak;
    if (!ctx->opt.stats_path) return PV_OK;
    struct pv_stats *S = stats_of(ctx);
    if (!S || !PV_GROW(ctx, S->c, S->capc, S->nc + 1))
        return ctx->err_code ? ctx->err_code : PV_ENOMEM;
    if (!where) where = "";
    size_t off = S->names.len;
    pv_status st = pv_strbuf_put(ctx, &S->names, name, strlen(name) + 1);
    if (st == PV_OK) st = pv_strbuf_put(ctx, &S->names, where, strlen(where) + 1);
    if (st != PV_OK) return st;
    S->c[S->nc++] = (cmdrec){s, peak, off, off + strlen(name) + 1};
    return PV_OK;
}

size_t pv_stats_count(const pv_ctx *ctx)
{
    return ctx->stats ? ctx->stats->n : 0;
}

void pv_stats_free(pv_ctx *ctx)
{
    if (!ctx || !ctx->stats) return;
    struct pv_stats *S = ctx->stats;
    pv_free(ctx, S->r, S->cap * sizeof *S->r);
    pv_free(ctx, S->c, S->capc * sizeof *S->c);
    pv_strbuf_free(ctx, &S->names);
    pv_free(ctx, S, sizeof *S);
    ctx->stats = NULL;
    ctx->stats_free = NULL;
}

/* ---- JSON -------------------------------------------------------------------------- */

/* Length of the valid UTF-8 sequence at s (1..4), 0 if it is not one. */
static size_t utf8_len(const unsigned char *s)
{
    unsigned c = s[0];
    size_t n;
    unsigned min;
    if (c < 0x80) return 1;
    if (c >= 0xc2 && c <= 0xdf) n = 2, min = 0x80;
    else if (c >= 0xe0 && c <= 0xef) n = 3, min = 0x800;
    else if (c >= 0xf0 && c <= 0xf4) n = 4, min = 0x10000;
    else return 0;
    unsigned cp = c & (0x7fu >> n);
    for (size_t k = 1; k < n; k++) {
        if ((s[k] & 0xc0) != 0x80) return 0;
        cp = (cp << 6) | (s[k] & 0x3fu);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return 0;
    return n;
}

/* A JSON string: quotes, backslashes and control characters escaped; a byte that is not
 * valid UTF-8 is written as the code point of the same number (as Latin-1 would read it),
 * so any file name gives valid JSON. */
static void json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)s; *p;) {
        unsigned c = *p;
        size_t n = utf8_len(p);
        if (c == '"' || c == '\\') {
            fputc('\\', f);
            fputc((int)c, f);
        } else if (c == '\n') {
            fputs("\\n", f);
        } else if (c == '\t') {
            fputs("\\t", f);
        } else if (c == '\r') {
            fputs("\\r", f);
        } else if (c < 0x20 || c == 0x7f || n == 0) {
            fprintf(f, "\\u%04x", c);
        } else {
            fwrite(p, 1, n, f);
            p += n;
            continue;
        }
        p++;
    }
    fputc('"', f);
}

/* Sums over the frames and commands, built while they are written. */
#define MAX_COMMAND_KINDS 16 /* the grid commands' names (pvox/stats.h): a fixed set */
typedef struct totals {
    double t[PV_PHASE_COUNT]; /* per phase: sum over frames of the max over ranks */
    uint64_t bytes_sent, bytes_recv, triangles, points;
    double max_recv_ratio; /* max over frames of writer's bytes_recv / image_bytes */
    struct {
        const char *name;
        size_t count;
        double s; /* sum over the commands of the max over ranks */
    } cmd[MAX_COMMAND_KINDS];
    int ncmd;
} totals;

/* A frame's image_bytes: the writer's figure (the picture is known there only). */
static uint64_t image_bytes_of(const pv_ctx *ctx, const rec *own, const rec *recs,
                               size_t stride)
{
    if (own->writer < 0 || own->writer >= ctx->nranks) return own->image_bytes;
    return recs[(size_t)own->writer * stride].image_bytes;
}

/* Rank 0: one frame: `own` is rank 0's local record (for the output name), `recs` the
 * gathered records, rank r's at recs[r * stride]. */
static void write_frame(FILE *f, const pv_ctx *ctx, size_t index, const rec *own,
                        const rec *recs, size_t stride, totals *tot)
{
    fprintf(f, "%s\n    { \"index\": %zu, \"output\": ", index ? "," : "", index);
    json_str(f, ctx->stats->names.s + own->name_off);
    fprintf(f,
            ", \"width\": %" PRId32 ", \"height\": %" PRId32 ", \"writer\": %" PRId32
            ", \"image_bytes\": %" PRIu64 ",\n      \"ranks\": [",
            own->width, own->height, own->writer, image_bytes_of(ctx, own, recs, stride));
    double tmax[PV_PHASE_COUNT] = {0};
    for (int r = 0; r < ctx->nranks; r++) {
        const rec *x = &recs[(size_t)r * stride];
        fprintf(f, "%s\n        { \"rank\": %d", r ? "," : "", r);
        for (int k = 0; k < PV_PHASE_COUNT; k++) {
            fprintf(f, ", \"%s_s\": %.6f", phase_names[k], x->t[k]);
            if (x->t[k] > tmax[k]) tmax[k] = x->t[k];
        }
        fprintf(f,
                ", \"bytes_sent\": %" PRIu64 ", \"bytes_recv\": %" PRIu64
                ", \"active_pixels\": %" PRIu64 ", \"triangles\": %" PRIu64
                ", \"points\": %" PRIu64 " }",
                x->bytes_sent, x->bytes_recv, x->active_pixels, x->triangles, x->points);
        tot->bytes_sent += x->bytes_sent;
        tot->bytes_recv += x->bytes_recv;
        tot->triangles += x->triangles;
        tot->points += x->points;
    }
    fputs(" ] }", f);
    for (int k = 0; k < PV_PHASE_COUNT; k++) tot->t[k] += tmax[k];
    if (own->writer >= 0 && own->writer < ctx->nranks && image_bytes_of(ctx, own, recs, stride) > 0) {
        const rec *w = &recs[(size_t)own->writer * stride];
        double ratio = (double)w->bytes_recv / (double)image_bytes_of(ctx, own, recs, stride);
        if (ratio > tot->max_recv_ratio) tot->max_recv_ratio = ratio;
    }
}

/* Rank 0: one grid command, as write_frame. */
static void write_command(FILE *f, const pv_ctx *ctx, size_t index, const cmdrec *own,
                          const cmdrec *recs, size_t stride, totals *tot)
{
    const char *name = ctx->stats->names.s + own->name_off;
    fprintf(f, "%s\n    { \"index\": %zu, \"command\": ", index ? "," : "", index);
    json_str(f, name);
    fputs(", \"at\": ", f);
    json_str(f, ctx->stats->names.s + own->where_off);
    double smax = 0;
    for (int r = 0; r < ctx->nranks; r++)
        if (recs[(size_t)r * stride].s > smax) smax = recs[(size_t)r * stride].s;
    fprintf(f, ", \"max_s\": %.6f,\n      \"ranks\": [", smax);
    for (int r = 0; r < ctx->nranks; r++) {
        const cmdrec *x = &recs[(size_t)r * stride];
        fprintf(f, "%s\n        { \"rank\": %d, \"s\": %.6f, \"peak_memory_bytes\": %" PRIu64 " }",
                r ? "," : "", r, x->s, x->peak);
    }
    fputs(" ] }", f);
    int k = 0;
    while (k < tot->ncmd && strcmp(tot->cmd[k].name, name) != 0) k++;
    if (k == tot->ncmd && tot->ncmd < MAX_COMMAND_KINDS) tot->cmd[tot->ncmd++].name = name;
    if (k < tot->ncmd) tot->cmd[k].count++, tot->cmd[k].s += smax;
}

static void write_head(FILE *f, const pv_ctx *ctx)
{
    fputs("{\n  \"pvox_stats\": 1,\n  \"version\": ", f);
    json_str(f, PV_VERSION_STRING);
    fprintf(f, ",\n  \"nranks\": %d,\n  \"threads\": %d,\n  \"wall_s\": %.6f,\n  \"frames\": [",
            ctx->nranks, ctx->nthreads, pv_elapsed(ctx));
}

/* Rank 0: the ranks' memory (peaks: two values per rank) and the totals; closes the
 * document. */
static void write_tail(FILE *f, const pv_ctx *ctx, size_t nframes, const uint64_t *peaks,
                       const totals *tot)
{
    fputs("\n  \"ranks\": [", f);
    for (int r = 0; r < ctx->nranks; r++)
        fprintf(f,
                "%s\n    { \"rank\": %d, \"peak_memory_bytes\": %" PRIu64
                ", \"peak_rss_bytes\": %" PRIu64 " }",
                r ? "," : "", r, peaks[2 * r], peaks[2 * r + 1]);
    fprintf(f, "\n  ],\n  \"totals\": { \"frames\": %zu", nframes);
    for (int k = 0; k < PV_PHASE_COUNT; k++)
        fprintf(f, ", \"%s_s\": %.6f", phase_names[k], tot->t[k]);
    fprintf(f,
            ",\n    \"bytes_sent\": %" PRIu64 ", \"bytes_recv\": %" PRIu64
            ", \"triangles\": %" PRIu64 ", \"points\": %" PRIu64
            ", \"max_bytes_recv_writer_per_image\": %.6f,\n    \"commands\": {",
            tot->bytes_sent, tot->bytes_recv, tot->triangles, tot->points,
            tot->max_recv_ratio);
    for (int k = 0; k < tot->ncmd; k++) {
        fprintf(f, "%s ", k ? "," : "");
        json_str(f, tot->cmd[k].name);
        fprintf(f, ": { \"count\": %zu, \"s\": %.6f }", tot->cmd[k].count, tot->cmd[k].s);
    }
    fputs(tot->ncmd ? " } }\n}\n" : "} }\n}\n", f);
}

/* ---- the collective write ---------------------------------------------------------- */

static uint64_t peak_rss(void)
{
    struct rusage ru;
    if (getrusage(RUSAGE_SELF, &ru) != 0 || ru.ru_maxrss < 0) return 0;
    return (uint64_t)ru.ru_maxrss * 1024u; /* Linux reports KiB */
}

/* Rank 0 after the last batch: finish the file and rename it over the file it replaces
 * (`target`: the path, or the file a link reaches). */
static pv_status finish(pv_ctx *ctx, FILE *f, const char *path, const char *tmp, const char *target)
{
    int e = 0;
    if (fflush(f) != 0 || ferror(f)) e = errno ? errno : EIO;
    if (fclose(f) != 0 && !e) e = errno ? errno : EIO;
    if (!e && rename(tmp, target) != 0) e = errno;
    if (!e) return PV_OK;
    remove(tmp);
    return pv_err(ctx, PV_EIO, "cannot write '%s': %s", path, pv_io_strerror(e));
}

/* Rank 0: open the temporary the output rule (pvox/outfile.h) names for `path`: a regular
 * file or a new name only; *target is what it will replace. */
static pv_status open_out(pv_ctx *ctx, const char *path, char **tmp, char **target, FILE **f)
{
    const char *why = NULL;
    if (pv_io_output_target(path, false, target, &why) == PV_IO_REFUSED)
        return pv_err(ctx, PV_EIO, "--stats: %s: %s%s", path, why,
                      strcmp(why, PV_IO_NOT_REGULAR) == 0
                          ? ": pvox writes statistics only to regular files"
                          : "");
    if (!(*tmp = pv_io_temp_name(*target))) return pv_err(ctx, PV_ENOMEM, "out of memory");
    if (!(*f = pv_io_fopen_new(*tmp, "w")))
        return pv_err(ctx, PV_EIO, "cannot write '%s': %s", path, strerror(errno));
    return PV_OK;
}

pv_status pv_stats_write(pv_ctx *ctx)
{
    const char *path = ctx->opt.stats_path;
    if (!path) return PV_OK;
    struct pv_stats *S = ctx->stats;
    size_t n = S ? S->n : 0, nc = S ? S->nc : 0;

    /* ---- agree on the record counts: every rank must have the same ---- */
    long long mm[4] = {(long long)n, -(long long)n, (long long)nc, -(long long)nc};
    pv_status st = PV_OK;
    if (MPI_Allreduce(MPI_IN_PLACE, mm, 4, MPI_LONG_LONG, MPI_MAX, ctx->comm) != MPI_SUCCESS)
        st = pv_err(ctx, PV_EMPI, "--stats: cannot agree on the frame count");
    else if (mm[0] != -mm[1])
        st = pv_err(ctx, PV_EINTERNAL, "--stats: ranks recorded from %lld to %lld frames",
                    -mm[1], mm[0]);
    else if (mm[2] != -mm[3])
        st = pv_err(ctx, PV_EINTERNAL, "--stats: ranks recorded from %lld to %lld commands",
                    -mm[3], mm[2]);
    if ((st = pv_status_agree(ctx, st)) != PV_OK) {
        pv_stats_free(ctx);
        return st;
    }

    /* ---- peak memory of every rank, before rank 0 allocates its gather buffer ---- */
    uint64_t mine[2] = {(uint64_t)ctx->mem_peak, peak_rss()};
    uint64_t *peaks = NULL;
    if (ctx->rank == 0) {
        peaks = calloc((size_t)ctx->nranks * 2, sizeof *peaks);
        if (!peaks) st = pv_err(ctx, PV_ENOMEM, "out of memory");
    }
    if ((st = pv_status_agree(ctx, st)) != PV_OK) {
        pv_stats_free(ctx);
        return st;
    }
    if (MPI_Gather(mine, 2, MPI_UINT64_T, peaks, 2, MPI_UINT64_T, 0, ctx->comm) != MPI_SUCCESS)
        st = pv_err(ctx, PV_EMPI, "--stats: cannot gather the peak memory");

    /* ---- rank 0 opens the temporary file and its gather buffer ---- */
    size_t per = (size_t)ctx->nranks * sizeof(rec); /* one frame of every rank */
    size_t batch = BATCH_BYTES / per ? BATCH_BYTES / per : 1;
    if (batch > n) batch = n ? n : 1;
    size_t perc = (size_t)ctx->nranks * sizeof(cmdrec); /* one command of every rank */
    size_t batchc = BATCH_BYTES / perc ? BATCH_BYTES / perc : 1;
    if (batchc > nc) batchc = nc ? nc : 1;
    rec *buf = NULL;
    cmdrec *bufc = NULL;
    FILE *f = NULL;
    char *tmp = NULL, *target = NULL;
    if (ctx->rank == 0 && st == PV_OK) {
        if ((st = open_out(ctx, path, &tmp, &target, &f)) != PV_OK) {
            /* reported */
        } else if ((n > 0 && !(buf = pv_alloc(ctx, batch * per))) ||
                   (nc > 0 && !(bufc = pv_alloc(ctx, batchc * perc)))) {
            st = ctx->err_code;
        }
    }
    if ((st = pv_status_agree(ctx, st)) != PV_OK) {
        if (f) {
            fclose(f);
            remove(tmp);
        }
        free(tmp);
        free(target);
        free(peaks);
        pv_stats_free(ctx);
        return st;
    }

    /* ---- the frames, a batch at a time (every rank runs the same iterations) ---- */
    totals tot;
    memset(&tot, 0, sizeof tot);
    if (f) write_head(f, ctx);
    for (size_t k0 = 0; k0 < n; k0 += batch) {
        size_t kb = n - k0 < batch ? n - k0 : batch;
        int nbytes = (int)(kb * sizeof(rec));
        if (MPI_Gather(&S->r[k0], nbytes, MPI_BYTE, buf, nbytes, MPI_BYTE, 0, ctx->comm) !=
                MPI_SUCCESS &&
            st == PV_OK)
            st = pv_err(ctx, PV_EMPI, "--stats: cannot gather the frame records");
        if (f && st == PV_OK)
            for (size_t j = 0; j < kb; j++)
                write_frame(f, ctx, k0 + j, &S->r[k0 + j], &buf[j], kb, &tot);
    }
    /* ---- the grid commands, likewise ---- */
    if (f) fputs(n ? "\n  ],\n  \"commands\": [" : "],\n  \"commands\": [", f);
    for (size_t k0 = 0; k0 < nc; k0 += batchc) {
        size_t kb = nc - k0 < batchc ? nc - k0 : batchc;
        int nbytes = (int)(kb * sizeof(cmdrec));
        if (MPI_Gather(&S->c[k0], nbytes, MPI_BYTE, bufc, nbytes, MPI_BYTE, 0, ctx->comm) !=
                MPI_SUCCESS &&
            st == PV_OK)
            st = pv_err(ctx, PV_EMPI, "--stats: cannot gather the command records");
        if (f && st == PV_OK)
            for (size_t j = 0; j < kb; j++)
                write_command(f, ctx, k0 + j, &S->c[k0 + j], &bufc[j], kb, &tot);
    }
    if (f) fputs(nc ? "\n  ]," : "],", f);
    if (f) {
        if (st == PV_OK) {
            write_tail(f, ctx, n, peaks, &tot);
            st = finish(ctx, f, path, tmp, target);
        } else {
            fclose(f);
            remove(tmp);
        }
    }
    pv_free(ctx, buf, batch * per);
    pv_free(ctx, bufc, batchc * perc);
    free(tmp);
    free(target);
    free(peaks);
    pv_stats_free(ctx);
    return pv_status_agree(ctx, st);
}
