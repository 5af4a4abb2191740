/*
 * Every bit of a checkpoint's metadata flipped in turn (README "Checksums and failed
 * writes"): each load of the damaged copy is either identical to the original's (same
 * grids in the same order, sizes, range bits, voxel checksums, job_hash and job_state)
 * or refused with an I/O status (exit code 3) and a message naming the file; never a
 * crash, never different content.
 *
 * A checkpoint of three small grids (ranges set, partly set, unset; job_hash and
 * job_state as --checkpoint writes them) is written through the io API; the metadata is
 * every byte of the file outside the grids' voxels (their extents from H5Dget_offset).
 * For each bit: flip it in the file, open + read every grid whole (as vload and --resume
 * do), flip it back. Two worker processes share the cases (a worker that dies of a
 * signal is blamed on its case and replaced: the sweep goes on). One rank (the load at
 * several ranks is tested through pvox itself by run_ckpt_meta.sh).
 * Arguments: [STRIDE]: flip every STRIDE-th bit of the metadata in use (default 3; 1
 * flips every bit: `build/tests/io_test_h5_flip 1`, about 49,000 loads, 4-7 minutes on a
 * busy 2-core machine). Prints the counts and the time.
 */
#define _GNU_SOURCE /* MAP_ANONYMOUS */
#include "pv_test.h"
#include "pvox/checksum.h"
#include "pvox/h5.h"

#include <errno.h>
#include <fcntl.h>
#include <hdf5.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define NGRIDS 3
static const char *const gname[NGRIDS] = {"$alpha", "$b", "$c3"};
static const int64_t gsize[NGRIDS] = {4, 3, 2};
static const char *const JOB_HASH = "0123456789abcdef";
static const char *const JOB_STATE = "changes=6 active=$b";

/* What a load gives: compared field by field. */
typedef struct loaded {
    size_t ngrids;
    char name[NGRIDS][16];
    int64_t n[NGRIDS];
    uint64_t range_bits[NGRIDS][6];
    uint64_t sum[NGRIDS];
    char job_hash[64], job_state[64], script[64];
} loaded;

/* Outcomes a child reports (its exit code). */
enum { SAME = 0, REFUSED = 1, DIFFERENT = 2, WRONG_CODE = 3, SETUP = 4 };

static void copy_str(char *dst, size_t len, const char *src)
{
    snprintf(dst, len, "%s", src ? src : "");
}

/* Open + read every grid at this (one) rank: 0 loaded into *out, else the status. */
static pv_status load(pv_ctx *ctx, const char *path, loaded *out)
{
    memset(out, 0, sizeof *out);
    pv_h5_file *f = pv_h5_open(ctx, path, NULL);
    if (!f)
        return ctx->err_code ? ctx->err_code : PV_EINTERNAL;
    const pv_h5_info *in = pv_h5_file_info(f);
    pv_status st = PV_OK;
    out->ngrids = in->ngrids;
    copy_str(out->job_hash, sizeof out->job_hash, in->job_hash);
    copy_str(out->job_state, sizeof out->job_state, in->job_state);
    copy_str(out->script, sizeof out->script, in->script);
    for (size_t k = 0; k < in->ngrids && st == PV_OK; k++) {
        const pv_h5_entry *e = &in->grids[k];
        if (k >= NGRIDS) { /* more grids than written: different (unless refused below) */
            out->ngrids = NGRIDS + 1;
            break;
        }
        copy_str(out->name[k], sizeof out->name[k], e->name);
        out->n[k] = e->n;
        for (int a = 0; a < 3; a++) {
            memcpy(&out->range_bits[k][2 * a], &e->min[a], 8);
            memcpy(&out->range_bits[k][2 * a + 1], &e->max[a], 8);
        }
        if (e->problem || e->n < 2 || e->n > 64) { /* vload refuses such a grid */
            st = e->problem ? PV_EIO : PV_EINTERNAL;
            if (!e->problem)
                pv_err(ctx, st, "unexpected size %lld", (long long)e->n);
            else
                pv_err(ctx, st, "%s: %s", path, e->problem);
            break;
        }
        size_t count = (size_t)(e->n * e->n * e->n);
        float *buf = malloc(count * sizeof *buf);
        st = buf ? pv_h5_read(ctx, f, e->name, 0, e->n, buf, NULL) : PV_ENOMEM;
        if (st == PV_OK)
            out->sum[k] = pv_checksum_slab(buf, e->n, 0, e->n);
        free(buf);
    }
    pv_h5_close(ctx, f);
    return st;
}

static bool same(const loaded *a, const loaded *b)
{
    return memcmp(a, b, sizeof *a) == 0;
}

static float value(int64_t n, int64_t i, int salt) { return (float)(i * 7 + salt) / (float)n; }

static int write_file(pv_ctx *ctx, const char *path)
{
    pv_h5_grid g[NGRIDS];
    float *data[NGRIDS];
    for (int k = 0; k < NGRIDS; k++) {
        int64_t n = gsize[k];
        size_t count = (size_t)(n * n * n);
        data[k] = malloc(count * sizeof(float));
        for (size_t i = 0; i < count; i++)
            data[k][i] = value(n, (int64_t)i, k);
        g[k] = (pv_h5_grid){gname[k], n, {NAN, NAN, NAN}, {NAN, NAN, NAN}, 0, n, data[k]};
    }
    for (int a = 0; a < 3; a++) { /* $alpha all set, $b x only (reversed), $c3 unset */
        g[0].min[a] = -1.5 + a;
        g[0].max[a] = 2.0 + a;
    }
    g[1].min[0] = 5;
    g[1].max[0] = 0;
    pv_h5_opts o = {0};
    o.script = "job.gp";
    o.job_hash = JOB_HASH;
    o.job_state = JOB_STATE;
    o.no_xdmf = true;
    pv_status st = pv_h5_save_all(ctx, path, g, NGRIDS, &o, NULL);
    for (int k = 0; k < NGRIDS; k++)
        free(data[k]);
    return st == PV_OK ? 0 : -1;
}

/* Marks the voxel bytes (not flipped: their damage is the voxel checksum's business,
 * tested by run_h5_damage.sh). */
static int voxel_extents(const char *path, unsigned char *is_voxel, size_t size)
{
    hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
    H5Pset_fapl_sec2(fapl);
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, fapl);
    H5Pclose(fapl);
    if (f < 0)
        return -1;
    for (int k = 0; k < NGRIDS; k++) {
        char p[64];
        snprintf(p, sizeof p, "/grids/%s", gname[k]);
        hid_t d = H5Dopen2(f, p, H5P_DEFAULT);
        haddr_t off = d < 0 ? HADDR_UNDEF : H5Dget_offset(d);
        hsize_t len = d < 0 ? 0 : H5Dget_storage_size(d);
        if (d >= 0)
            H5Dclose(d);
        if (off == HADDR_UNDEF || off + len > size) {
            H5Fclose(f);
            return -1;
        }
        memset(is_voxel + off, 1, (size_t)len);
    }
    H5Fclose(f);
    return 0;
}

/* One past the last non-zero byte outside the voxels, plus a margin: HDF5 allocates the
 * metadata from the start of its 64 KiB block; the zeros after it are referenced by
 * nothing (a sample of them is flipped too). */
static size_t used_end(int fd, const unsigned char *is_voxel, size_t size)
{
    size_t end = 0;
    unsigned char c;
    for (size_t i = 0; i < size; i++)
        if (!is_voxel[i] && pread(fd, &c, 1, (off_t)i) == 1 && c)
            end = i + 1;
    end += 256;
    return end < size ? end : size;
}

static int flip(int fd, size_t byte, int bit)
{
    unsigned char c;
    if (pread(fd, &c, 1, (off_t)byte) != 1)
        return -1;
    c ^= (unsigned char)(1u << bit);
    return pwrite(fd, &c, 1, (off_t)byte) == 1 ? 0 : -1;
}

/* The child: load the damaged copy, compare, say how it went (exit code). */
static int run_case(pv_ctx *ctx, const char *path, const loaded *ref)
{
    loaded got;
    pv_status st = load(ctx, path, &got);
    if (st == PV_OK)
        return same(&got, ref) ? SAME : DIFFERENT;
    /* refused: exit code 3 (I/O, HDF5) with a message that names the file */
    const char *msg = ctx->err_msg;
    bool named = msg && strstr(msg, path) != NULL;
    if (pv_status_exit_code(st) != 3 || !named) {
        fprintf(stderr, "  refused with status %d, exit %d: %s\n", (int)st,
                pv_status_exit_code(st), msg ? msg : "(no message)");
        return WRONG_CODE;
    }
    return REFUSED;
}

/* One flip to try. */
typedef struct flip_case {
    size_t byte;
    int bit;
} flip_case;

/* Shared between the sweep and its workers (MAP_SHARED): each case's outcome (-1: not
 * run) and each worker's current case, so a worker that dies is blamed on its case. */
typedef struct shared {
    long cur[2];
    signed char outcome[];
} shared;

static int copy_file(const char *from, const char *to)
{
    FILE *a = fopen(from, "rb"), *b = fopen(to, "wb");
    int rc = a && b ? 0 : -1;
    char buf[65536];
    size_t n;
    while (rc == 0 && (n = fread(buf, 1, sizeof buf, a)) > 0)
        if (fwrite(buf, 1, n, b) != n)
            rc = -1;
    if (a)
        fclose(a);
    if (b && fclose(b) != 0)
        rc = -1;
    return rc;
}

/* A worker: its own copy of the file, cases w, w + W, ... from `from` on. */
static void worker(pv_ctx *ctx, const char *orig, const char *mine, const flip_case *c,
                   long ncases, int w, int nw, long from, const loaded *ref, shared *sh)
{
    if (copy_file(orig, mine) != 0)
        _exit(SETUP);
    int fd = open(mine, O_RDWR);
    if (fd < 0)
        _exit(SETUP);
    for (long k = from; k < ncases; k += nw) {
        sh->cur[w] = k;
        if (flip(fd, c[k].byte, c[k].bit) != 0)
            _exit(SETUP);
        sh->outcome[k] = (signed char)run_case(ctx, mine, ref);
        if (getenv("FLIP_DEBUG") && sh->outcome[k] == REFUSED)
            fprintf(stderr, "byte %zu bit %d: %s\n", c[k].byte, c[k].bit, ctx->err_msg);
        pv_err_clear(ctx);
        if (flip(fd, c[k].byte, c[k].bit) != 0)
            _exit(SETUP);
    }
    close(fd);
    _exit(0);
}

static pid_t spawn(pv_ctx *ctx, const char *orig, const char *mine, const flip_case *c,
                   long ncases, int w, int nw, long from, const loaded *ref, shared *sh)
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0)
        worker(ctx, orig, mine, c, ncases, w, nw, from, ref, sh);
    return pid;
}

int main(int argc, char **argv)
{
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    /* STRIDE OFFSET: the bits of the metadata in use whose index is OFFSET modulo STRIDE
     * (1 0: all; the default 3 0, 3 coprime to 8, flips each byte at 2 or 3 bit positions,
     * every position in turn; the suite runs 3 0, 3 1 and 3 2 as three tests, which
     * together flip every bit; the sanitizer build, ten times slower, runs STRIDE 17 from
     * the environment's PV_FLIP_STRIDE); the unused rest of the block: every 509th bit,
     * with OFFSET 0 */
    const char *env_stride = getenv("PV_FLIP_STRIDE");
    long stride = argc > 1 ? strtol(argv[1], NULL, 10) : env_stride ? strtol(env_stride, NULL, 10) : 3;
    if (stride < 1)
        stride = 1;
    long offset = argc > 2 ? strtol(argv[2], NULL, 10) : 0;
    if (offset < 0 || offset >= stride)
        offset = 0;
    pv_options opt;
    pv_options_default(&opt);
    opt.log_level = PV_LOG_ERROR;
    /* one thread: libgomp's thread pool does not survive fork (a child would wait for it) */
    opt.nthreads = 1;
    pv_ctx *ctx = pv_ctx_create(MPI_COMM_SELF, &opt);
    PV_CHECK(ctx != NULL);
    char dir[] = "/tmp/pvox-flip.XXXXXX";
    PV_CHECK(mkdtemp(dir) != NULL);
    char path[128], wpath[2][128];
    snprintf(path, sizeof path, "%s/ck.h5", dir);
    for (int w = 0; w < 2; w++)
        snprintf(wpath[w], sizeof wpath[w], "%s/w%d.h5", dir, w);
    PV_CHECK_EQ(write_file(ctx, path), 0);
    loaded ref;
    PV_CHECK_EQ(load(ctx, path, &ref), PV_OK);
    PV_CHECK_EQ(ref.ngrids, NGRIDS);
    PV_CHECK(strcmp(ref.job_state, JOB_STATE) == 0);

    struct stat sb;
    PV_CHECK_EQ(stat(path, &sb), 0);
    size_t size = (size_t)sb.st_size;
    unsigned char *is_voxel = calloc(size, 1);
    PV_CHECK_EQ(voxel_extents(path, is_voxel, size), 0);
    int fd = open(path, O_RDONLY);
    PV_CHECK(fd >= 0);
    size_t used = used_end(fd, is_voxel, size);
    close(fd);
    flip_case *c = malloc(size * 8 * sizeof *c);
    long ncases = 0, nused = 0;
    for (size_t byte = 0; byte < size; byte++)
        for (int bit = 0; bit < 8 && !is_voxel[byte]; bit++) {
            size_t every = byte < used ? (size_t)stride : 509;
            size_t want = byte < used ? (size_t)offset : offset == 0 ? 0 : every;
            if ((byte * 8 + (size_t)bit) % every == want) {
                c[ncases++] = (flip_case){byte, bit};
                nused += byte < used;
            }
        }
    shared *sh = mmap(NULL, sizeof *sh + (size_t)ncases, PROT_READ | PROT_WRITE,
                      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    PV_CHECK(sh != MAP_FAILED);
    memset(sh->outcome, -1, (size_t)ncases);
    double t0 = MPI_Wtime();
    /* two workers (the machine's cores); one that dies is blamed on its case and a new
     * one goes on after it */
    pid_t pid[2];
    int running = 0;
    for (int w = 0; w < 2; w++, running++)
        pid[w] = spawn(ctx, path, wpath[w], c, ncases, w, 2, w, &ref, sh);
    long counts[5] = {0}, signals = 0;
    while (running > 0) {
        int status = 0;
        pid_t p = wait(&status);
        if (p < 0 && errno == EINTR)
            continue;
        if (p < 0)
            break;
        int w = p == pid[0] ? 0 : p == pid[1] ? 1 : -1;
        if (w < 0)
            continue;
        if (WIFSIGNALED(status)) {
            long k = sh->cur[w];
            signals++;
            fprintf(stderr, "FAIL: byte %zu bit %d: the load died of signal %d\n", c[k].byte,
                    c[k].bit, WTERMSIG(status));
            pv_test_failures++;
            sh->outcome[k] = SETUP + 1;
            pid[w] = spawn(ctx, path, wpath[w], c, ncases, w, 2, k + 2, &ref, sh);
        } else {
            if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
                PV_CHECK(!"a worker could not run its cases");
            running--;
        }
    }
    pv_test_checks += (int)ncases;
    for (long k = 0; k < ncases; k++) {
        int oc = sh->outcome[k];
        if (oc == SETUP + 1)
            continue; /* a signal, counted above */
        counts[oc >= 0 && oc < 5 ? oc : SETUP]++;
        if (oc != SAME && oc != REFUSED) {
            fprintf(stderr, "FAIL: byte %zu bit %d: %s\n", c[k].byte, c[k].bit,
                    oc == DIFFERENT ? "loaded with different content"
                    : oc == WRONG_CODE ? "refused without exit code 3 and the file named"
                                       : "not run");
            pv_test_failures++;
        }
    }
    printf("flipped %ld bits: %ld of the %zu bytes of metadata in use (bits %ld modulo %ld), "
           "%ld of the rest of the %zu-byte file outside the voxels (every 509th): %ld "
           "identical, %ld refused (exit 3), %ld different, %ld wrong status, %ld signals; "
           "%.1f s\n", ncases, nused, used, offset, stride, ncases - nused, size, counts[SAME],
           counts[REFUSED], counts[DIFFERENT], counts[WRONG_CODE], signals, MPI_Wtime() - t0);
    /* the original is untouched and still loads */
    loaded again;
    PV_CHECK_EQ(load(ctx, path, &again), PV_OK);
    PV_CHECK(same(&again, &ref));
    munmap(sh, sizeof *sh + (size_t)ncases);
    for (int w = 0; w < 2; w++)
        unlink(wpath[w]);
    unlink(path);
    rmdir(dir);
    free(c);
    free(is_voxel);
    pv_ctx_destroy(ctx);
    MPI_Finalize();
    return pv_test_result("test_h5_flip");
}
