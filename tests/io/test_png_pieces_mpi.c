/*
 * One PNG encoded in pieces by every rank (png.h, "one picture encoded in pieces"), as
 * exec/render.c does for a frame at several ranks: each rank deflates its own pixels, the
 * writer gathers the pieces' figures and bytes and writes the file. Checked on the writer
 * with a strict decoder (png_strict.h: CRCs, the zlib stream's end and Adler-32, the exact
 * image bytes) and against the pixels, for several ways to share the picture: even
 * bands, cuts inside rows, rank 0 or the last rank without pixels, one rank holding it
 * all, every other rank empty. A rank without pixels sends what render.c sends: a piece
 * all zeros but its range, checksum 0 included. Every rank takes a turn as the writer.
 */
#include "pv_test.h"
#include "png_strict.h"
#include "pvox/png.h"

#include <mpi.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { W = 41, H = 29, CH = 3, META = 5 };

/* The pixels [lo, hi) of rank r of P in sharing `how`. */
static void share(int how, int r, int P, uint64_t *lo, uint64_t *hi)
{
    uint64_t n = (uint64_t)W * H;
    uint64_t a = n * (uint64_t)r / (uint64_t)P, b = n * (uint64_t)(r + 1) / (uint64_t)P;
    switch (how) {
    case 0: /* whole rows, as even as may be */
        a = (uint64_t)(H * r / P) * W, b = (uint64_t)(H * (r + 1) / P) * W;
        break;
    case 1: /* cuts inside rows */ break;
    case 2: /* rank 0 owns nothing, the others share */
        if (P > 1) {
            a = r == 0 ? 0 : n * (uint64_t)(r - 1) / (uint64_t)(P - 1);
            b = r == 0 ? 0 : n * (uint64_t)r / (uint64_t)(P - 1);
        }
        break;
    case 3: /* the last rank owns nothing */
        if (P > 1) {
            a = r == P - 1 ? n : n * (uint64_t)r / (uint64_t)(P - 1);
            b = r == P - 1 ? n : n * (uint64_t)(r + 1) / (uint64_t)(P - 1);
        }
        break;
    case 4: /* the middle rank holds it all */ a = 0, b = r == P / 2 ? n : 0; break;
    default: { /* the odd ranks own nothing, the even ones share */
        int owners = (P + 1) / 2, k = r / 2;
        a = r % 2 ? 0 : n * (uint64_t)k / (uint64_t)owners;
        b = r % 2 ? 0 : n * (uint64_t)(k + 1) / (uint64_t)owners;
    }
    }
    *lo = a, *hi = b;
}
#define NSHARES 6

int main(int argc, char **argv)
{
    int prov;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &prov);
    pv_options opt = {0};
    opt.log_level = PV_LOG_WARN;
    pv_ctx *ctx = pv_ctx_create(MPI_COMM_WORLD, &opt);
    int P = ctx->nranks, me = ctx->rank;

    /* smooth runs and noise, so deflate has both */
    uint8_t *px = malloc((size_t)W * H * CH);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W * CH; x++)
            px[(size_t)y * W * CH + (size_t)x] =
                (uint8_t)(x < 50 ? (unsigned)(5 * y + x / CH)
                                 : ((unsigned)x * 2654435761u + (unsigned)y * 40503u) >> 9);

    char dir[256] = {0};
    if (me == 0) {
        snprintf(dir, sizeof dir, "%s/pvox-png-pieces.XXXXXX",
                 getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
        if (!mkdtemp(dir)) dir[0] = '\0';
    }
    MPI_Bcast(dir, sizeof dir, MPI_CHAR, 0, MPI_COMM_WORLD);
    PV_CHECK(dir[0] != '\0');

    for (int how = 0; how < NSHARES && dir[0]; how++)
        for (int level = 1; level <= 9; level += 4) {
            int writer = (how + level) % P;
            uint64_t lo, hi;
            share(how, me, P, &lo, &hi);
            pv_png_piece pc;
            memset(&pc, 0, sizeof pc); /* a rank without pixels sends this, as render.c */
            pc.lo = pc.hi = lo;
            if (lo < hi)
                PV_CHECK_EQ(
                    pv_png_piece_deflate(ctx, px, (size_t)W * CH, W, H, CH, lo, hi, level, &pc),
                    PV_OK);
            uint64_t mine[META] = {pc.lo, pc.hi, pc.raw_len, pc.adler, pc.len};
            uint64_t *meta = me == writer ? malloc((size_t)P * META * sizeof *meta) : NULL;
            MPI_Gather(mine, META, MPI_UINT64_T, meta, META, MPI_UINT64_T, writer, MPI_COMM_WORLD);
            int *cnt = NULL, *at = NULL, total = 0;
            unsigned char *buf = NULL;
            if (me == writer) {
                cnt = malloc((size_t)P * sizeof *cnt), at = malloc((size_t)P * sizeof *at);
                for (int r = 0; r < P; r++) {
                    cnt[r] = (int)meta[(size_t)r * META + 4], at[r] = total;
                    total += cnt[r];
                }
                buf = malloc(total ? (size_t)total : 1);
            }
            MPI_Gatherv(pc.data, (int)pc.len, MPI_BYTE, buf, cnt, at, MPI_BYTE, writer,
                        MPI_COMM_WORLD);
            if (me == writer) {
                /* the pieces in picture order */
                pv_png_piece *all = calloc((size_t)P, sizeof *all);
                for (int r = 0; r < P; r++) {
                    const uint64_t *m = meta + (size_t)r * META;
                    pv_png_piece p = {m[0], m[1], m[2], (uint32_t)m[3], buf + at[r], (size_t)m[4]};
                    int k = r;
                    while (k > 0 && all[k - 1].lo > p.lo) all[k] = all[k - 1], k--;
                    all[k] = p;
                }
                char path[300], why[256] = "";
                snprintf(path, sizeof path, "%s/s%d_l%d.png", dir, how, level);
                PV_CHECK_EQ(pv_png_write_pieces(ctx, path, W, H, CH, level, all, P), PV_OK);
                unsigned char *raw = NULL;
                bool ok = png_strict_read(path, why, sizeof why, &raw);
                if (!ok)
                    fprintf(stderr, "%d ranks, sharing %d, level %d, writer %d: %s\n", P, how,
                            level, writer, why);
                PV_CHECK(ok);
                int bad = 0;
                for (int y = 0; raw && y < H; y++)
                    bad += raw[(size_t)y * (W * CH + 1)] != 0 ||
                           memcmp(raw + (size_t)y * (W * CH + 1) + 1, px + (size_t)y * W * CH,
                                  (size_t)W * CH) != 0;
                PV_CHECK_EQ(bad, 0);
                free(raw);
                remove(path);
                free(all);
            }
            free(buf);
            free(cnt);
            free(at);
            free(meta);
            pv_png_piece_free(&pc);
        }

    MPI_Barrier(MPI_COMM_WORLD);
    if (me == 0 && dir[0]) PV_CHECK(rmdir(dir) == 0); /* nothing left behind */
    free(px);
    int fails = pv_test_failures, all = 0;
    MPI_Allreduce(&fails, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    int rc = me == 0 ? pv_test_result("io_png_pieces_mpi") : (all ? 1 : 0);
    pv_ctx_destroy(ctx);
    MPI_Finalize();
    return all ? 1 : rc;
}
