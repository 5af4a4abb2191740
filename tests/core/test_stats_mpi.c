/*
 * The --stats recorder (pvox/stats.h) at 1, 2, 3 and 4 ranks, with synthetic frames:
 * - off (no stats_path): recording and writing do nothing and touch no MPI;
 * - a few frames whose values depend on rank and frame: the JSON is checked by a Python
 *   checker (json.load, every key, per-rank values, totals recomputed) when
 *   /usr/bin/python3 exists, and by a few plain string checks always; output names with
 *   quotes, backslashes, control characters and bytes that are not UTF-8 stay valid JSON;
 * - no frames: an empty "frames" list;
 * - many frames at 3 ranks (more than one gather batch);
 * - ranks holding different record counts: PV_EINTERNAL on every rank, no hang;
 * - an unwritable path: PV_EIO "cannot write '...': ..." on every rank, no file left;
 * - an injected allocation failure: PV_ENOMEM, nothing appended;
 * - the records are freed by the write (tracked memory back where it was).
 */
#define _POSIX_C_SOURCE 200809L
#include "pv_test.h"
#include "pvox/stats.h"

#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- the synthetic frames (the checker below recomputes the same numbers) ---------- */

static const char *const names[] = {"a.png", "dir/b \"q\" \\ c\n\t.png", "\x01\xc3\xa9\xff.png"};

static void make_record(int rank, int nranks, long k, pv_frame_record *fr)
{
    memset(fr, 0, sizeof *fr);
    fr->output = names[k % 3];
    fr->width = 80 + (int)(k % 7);
    fr->height = 60;
    fr->writer = (int)(k % nranks);
    for (int ph = 0; ph < PV_PHASE_COUNT; ph++)
        fr->t[ph] = (double)((k % 5) + 1) * 0.001 * (ph + 1) + rank * 0.0001;
    fr->image_bytes = (uint64_t)fr->width * (uint64_t)fr->height * 4u;
    fr->bytes_sent = 1000u * (uint64_t)k + (uint64_t)rank;
    fr->bytes_recv = rank == fr->writer ? fr->image_bytes * (uint64_t)(k % 3 + 1) / 2u : 7u;
    fr->active_pixels = (uint64_t)(rank + 1) * 10u;
    fr->triangles = (uint64_t)k * 3u + (uint64_t)rank;
    fr->points = (uint64_t)rank * 100u + (uint64_t)k;
}

static const char checker[] =
    "import json, sys\n"
    "path, P, N = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])\n"
    "names = ['a.png', 'dir/b \"q\" \\\\ c\\n\\t.png', '\\x01\\xe9\\xff.png']\n"
    "ph = ['scene', 'raster', 'composite', 'annotate', 'encode', 'write']\n"
    "d = json.load(open(path, encoding='utf-8'))\n"
    "def eq(a, b, what):\n"
    "    if a != b: sys.exit('%s: %r != %r' % (what, a, b))\n"
    "def near(a, b, what):\n"
    "    if abs(a - b) > 2e-6: sys.exit('%s: %r != %r' % (what, a, b))\n"
    "eq(d['pvox_stats'], 1, 'pvox_stats'); eq(d['nranks'], P, 'nranks')\n"
    "eq(isinstance(d['version'], str) and len(d['version']) > 0, True, 'version')\n"
    "eq(d['threads'] >= 1, True, 'threads'); eq(d['wall_s'] >= 0, True, 'wall_s')\n"
    "eq(len(d['frames']), N, 'frame count'); eq(len(d['ranks']), P, 'rank entries')\n"
    "tot = dict((p, 0.0) for p in ph); sent = recv = tri = pts = 0; ratio = 0.0\n"
    "for k, f in enumerate(d['frames']):\n"
    "    w = 80 + k % 7; img = w * 60 * 4; wr = k % P\n"
    "    eq(f['index'], k, 'index'); eq(f['output'], names[k % 3], 'output %d' % k)\n"
    "    eq((f['width'], f['height'], f['writer'], f['image_bytes']), (w, 60, wr, img), 'frame %d' % k)\n"
    "    eq(len(f['ranks']), P, 'ranks of frame %d' % k)\n"
    "    for r, x in enumerate(f['ranks']):\n"
    "        eq(x['rank'], r, 'rank')\n"
    "        for i, p in enumerate(ph):\n"
    "            near(x[p + '_s'], (k % 5 + 1) * 0.001 * (i + 1) + r * 0.0001, '%s_s %d/%d' % (p, k, r))\n"
    "        br = img * (k % 3 + 1) // 2 if r == wr else 7\n"
    "        eq((x['bytes_sent'], x['bytes_recv'], x['active_pixels'], x['triangles'], x['points']),\n"
    "           (1000 * k + r, br, (r + 1) * 10, 3 * k + r, 100 * r + k), 'counts %d/%d' % (k, r))\n"
    "        sent += x['bytes_sent']; recv += x['bytes_recv']; tri += x['triangles']; pts += x['points']\n"
    "    for p in ph: tot[p] += max(x[p + '_s'] for x in f['ranks'])\n"
    "    ratio = max(ratio, f['ranks'][wr]['bytes_recv'] / img)\n"
    "for r, x in enumerate(d['ranks']):\n"
    "    eq(x['rank'], r, 'rank'); eq(x['peak_memory_bytes'] >= 0, True, 'peak memory')\n"
    "    eq(x['peak_rss_bytes'] > 0, True, 'peak rss')\n"
    "t = d['totals']; eq(t['frames'], N, 'totals.frames')\n"
    "for p in ph: near(t[p + '_s'], tot[p], 'totals.' + p)\n"
    "eq((t['bytes_sent'], t['bytes_recv'], t['triangles'], t['points']), (sent, recv, tri, pts), 'totals')\n"
    "near(t['max_bytes_recv_writer_per_image'], ratio, 'max ratio')\n";

static bool have_python(void)
{
    return access("/usr/bin/python3", X_OK) == 0;
}

/* Rank 0: run the checker on the file (skipped without Python). */
static void check_json(const char *dir, const char *path, int nranks, long nframes)
{
    char *src = NULL, *text = NULL;
    FILE *f = fopen(path, "rb");
    PV_CHECK(f != NULL);
    if (f) {
        struct stat sb;
        size_t size = fstat(fileno(f), &sb) == 0 ? (size_t)sb.st_size : 0;
        text = malloc(size + 1);
        size_t n = text ? fread(text, 1, size, f) : 0;
        if (text) text[n] = '\0';
        fclose(f);
        const char head[] = "{\n  \"pvox_stats\": 1,\n  \"version\": \"" PV_VERSION_STRING "\",";
        PV_CHECK(text && strncmp(text, head, sizeof head - 1) == 0);
        PV_CHECK(text && strstr(text, "\"totals\": { \"frames\": ") != NULL);
        if (nframes > 1)
            PV_CHECK(text && strstr(text, "\"output\": \"dir/b \\\"q\\\" \\\\ c\\n\\t.png\""));
        if (nframes > 2) PV_CHECK(text && strstr(text, "\"output\": \"\\u0001\xc3\xa9\\u00ff.png\""));
        free(text);
    }
    if (!have_python()) return;
    src = pv_asprintf("%s/check.py", dir);
    f = src ? fopen(src, "w") : NULL;
    PV_CHECK(f != NULL);
    if (!f) {
        free(src);
        return;
    }
    fputs(checker, f);
    fclose(f);
    char *cmd = pv_asprintf("/usr/bin/python3 '%s' '%s' %d %ld", src, path, nranks, nframes);
    int rc = cmd ? system(cmd) : -1;
    if (rc != 0) fprintf(stderr, "checker failed on %s (%d frames at %d ranks)\n", path,
                         (int)nframes, nranks);
    PV_CHECK_EQ(rc, 0);
    remove(src);
    free(src);
    free(cmd);
}

static void record(pv_ctx *ctx, long nframes)
{
    for (long k = 0; k < nframes; k++) {
        pv_frame_record fr;
        make_record(ctx->rank, ctx->nranks, k, &fr);
        PV_CHECK_EQ(pv_stats_frame(ctx, &fr), PV_OK);
    }
    PV_CHECK_EQ(pv_stats_count(ctx), nframes);
}

/* ---- cases ------------------------------------------------------------------------- */

static void test_off(pv_ctx *ctx)
{
    const char *keep = ctx->opt.stats_path;
    ctx->opt.stats_path = NULL;
    pv_frame_record fr;
    make_record(ctx->rank, ctx->nranks, 0, &fr);
    PV_CHECK_EQ(pv_stats_frame(ctx, &fr), PV_OK);
    PV_CHECK(ctx->stats == NULL);
    PV_CHECK_EQ(pv_stats_count(ctx), 0);
    /* rank-dependent calls: with stats off nothing is collective, so this cannot hang */
    if (ctx->rank == 0) PV_CHECK_EQ(pv_stats_write(ctx), PV_OK);
    ctx->opt.stats_path = keep;
}

static void test_frames(pv_ctx *ctx, const char *dir, const char *path, long nframes)
{
    size_t before = ctx->mem_current;
    record(ctx, nframes);
    PV_CHECK(nframes == 0 || ctx->mem_current > before);
    PV_CHECK_EQ(pv_stats_write(ctx), PV_OK);
    PV_CHECK_EQ(ctx->err_code, PV_OK);
    PV_CHECK(ctx->stats == NULL);
    PV_CHECK_EQ(ctx->mem_current, before);
    if (ctx->rank == 0) {
        check_json(dir, path, ctx->nranks, nframes);
        char *tmp = pv_asprintf("%s.tmp", path);
        PV_CHECK(tmp && access(tmp, F_OK) != 0); /* renamed away */
        free(tmp);
        remove(path);
    }
    MPI_Barrier(ctx->comm);
}

static void test_count_mismatch(pv_ctx *ctx, const char *path)
{
    if (ctx->nranks < 2) return;
    record(ctx, 2);
    if (ctx->rank == ctx->nranks - 1) {
        pv_frame_record fr;
        make_record(ctx->rank, ctx->nranks, 2, &fr);
        PV_CHECK_EQ(pv_stats_frame(ctx, &fr), PV_OK);
    }
    PV_CHECK_EQ(pv_stats_write(ctx), PV_EINTERNAL);
    PV_CHECK_STR(ctx->err_msg, "--stats: ranks recorded from 2 to 3 frames");
    PV_CHECK(ctx->stats == NULL);
    if (ctx->rank == 0) PV_CHECK(access(path, F_OK) != 0);
    pv_err_clear(ctx);
}

static void test_unwritable(pv_ctx *ctx)
{
    const char *keep = ctx->opt.stats_path;
    ctx->opt.stats_path = "/nonexistent/dir/s.json";
    record(ctx, 2);
    PV_CHECK_EQ(pv_stats_write(ctx), PV_EIO);
    PV_CHECK_STR(ctx->err_msg,
                 "cannot write '/nonexistent/dir/s.json': No such file or directory");
    PV_CHECK(ctx->stats == NULL);
    pv_err_clear(ctx);
    ctx->opt.stats_path = keep;
}

static void test_alloc_failure(pv_ctx *ctx, const char *path)
{
    pv_frame_record fr;
    make_record(ctx->rank, ctx->nranks, 0, &fr);
    PV_CHECK_EQ(pv_stats_frame(ctx, &fr), PV_OK);
    make_record(ctx->rank, ctx->nranks, 1, &fr);
    /* fail the first, second and third allocation from here (the record array and the
     * name text both grow): the frame that meets it is not recorded, the others are */
    for (long at = 1; at <= 3; at++) {
        ctx->opt.fail_alloc_at = ctx->nallocs + at;
        size_t n0 = pv_stats_count(ctx), ok = 0;
        pv_status st = PV_OK;
        for (int k = 0; k < 5000 && st == PV_OK; k++) {
            st = pv_stats_frame(ctx, &fr);
            if (st == PV_OK) ok++;
        }
        ctx->opt.fail_alloc_at = 0;
        PV_CHECK_EQ(st, PV_ENOMEM);
        PV_CHECK_EQ(pv_stats_count(ctx), n0 + ok);
        pv_err_clear(ctx);
    }
    /* what was recorded before the failures is still consistent on every rank */
    PV_CHECK_EQ(pv_stats_write(ctx), PV_OK);
    if (ctx->rank == 0) remove(path);
    MPI_Barrier(ctx->comm);
}

int main(int argc, char **argv)
{
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    int wrank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    char dir[64] = "/tmp/pv_stats_XXXXXX";
    if (wrank == 0 && !mkdtemp(dir)) dir[0] = '\0';
    MPI_Bcast(dir, sizeof dir, MPI_CHAR, 0, MPI_COMM_WORLD);
    if (!dir[0]) {
        MPI_Finalize();
        return 1;
    }
    char path[96];
    snprintf(path, sizeof path, "%s/s.json", dir);
    pv_options opt;
    pv_options_default(&opt);
    opt.stats_path = path;
    pv_ctx *ctx = pv_ctx_create(MPI_COMM_WORLD, &opt);

    test_off(ctx);
    MPI_Barrier(ctx->comm);
    test_frames(ctx, dir, path, 0);
    test_frames(ctx, dir, path, 7);
    if (ctx->nranks == 3) test_frames(ctx, dir, path, 50000); /* two gather batches */
    test_count_mismatch(ctx, path);
    test_unwritable(ctx);
    test_alloc_failure(ctx, path);
    /* records left at the end are freed with the context */
    record(ctx, 3);

    pv_ctx_destroy(ctx);
    if (wrank == 0) rmdir(dir);
    MPI_Finalize();
    return pv_test_result("core.test_stats_mpi");
}
