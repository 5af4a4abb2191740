/*
 * core/instream.c: a data source read by rank 0 one piece at a time and broadcast piece by
 * piece (pvox/instream.h).
 *
 * Each piece costs two collectives: one MPI_Allreduce that carries rank 0's header (the
 * piece's length, whether it is the last, whether the read failed) together with every
 * rank's wish to stop the pass, then the MPI_Bcast of the bytes. A rank whose reader
 * stopped early takes part in that reduction from pv_instream_restart instead, so the
 * others learn at the next piece that the pass is over (and, if it failed, agree on its
 * message with pv_status_agree) instead of waiting for a broadcast.
 */
#define _POSIX_C_SOURCE 200809L
#include "pvox/instream.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

struct pv_instream {
    pv_ctx *ctx;
    FILE *f;         /* rank 0: the file, or the temporary copy of the source */
    char *shown;     /* the source in messages: 'path' or the command */
    char *buf;       /* one piece (tracked memory, cap bytes) */
    size_t cap;
    bool done;       /* the current pass is over on every rank */
};

static size_t piece_size(void)
{
    const char *e = getenv("PVOX_DATA_PIECE"); /* testing hook: tiny pieces */
    if (e && *e) {
        char *end = NULL;
        unsigned long long v = strtoull(e, &end, 10);
        if (end && *end == '\0' && v >= 1 && v <= ((unsigned long long)1 << 30)) return (size_t)v;
    }
    return PV_INSTREAM_PIECE;
}

/* Rank 0: copy all of `in` into an unnamed temporary file, which becomes the source. */
static pv_status spool(pv_instream *s, FILE *in)
{
    pv_ctx *ctx = s->ctx;
    errno = 0;
    FILE *t = tmpfile();
    if (!t)
        return pv_err(ctx, PV_EIO, "cannot create a temporary file for %s: %s", s->shown,
                      strerror(errno ? errno : EIO));
    for (;;) {
        size_t got = fread(s->buf, 1, s->cap, in);
        if (got > 0 && fwrite(s->buf, 1, got, t) != got) {
            int e = errno;
            fclose(t);
            return pv_err(ctx, PV_EIO, "cannot write a temporary file for %s: %s", s->shown,
                          strerror(e ? e : EIO));
        }
        if (got < s->cap) break;
    }
    if (ferror(in)) {
        int e = errno;
        fclose(t);
        return pv_err(ctx, PV_EIO, "cannot read %s: %s", s->shown, strerror(e ? e : EIO));
    }
    if (fflush(t) != 0) {
        int e = errno;
        fclose(t);
        return pv_err(ctx, PV_EIO, "cannot write a temporary file for %s: %s", s->shown,
                      strerror(e ? e : EIO));
    }
    rewind(t);
    s->f = t;
    return PV_OK;
}

/* Rank 0: open the file or run the command. */
static pv_status open_local(pv_instream *s, const char *path, bool command, int *missing)
{
    pv_ctx *ctx = s->ctx;
    s->shown = pv_asprintf("'%s'", path);
    if (!s->shown) return pv_err(ctx, PV_ENOMEM, "out of memory");
    if (command) {
        fflush(stdout);
        fflush(stderr);
        errno = 0;
        FILE *p = popen(path, "r");
        if (!p)
            return pv_err(ctx, PV_EIO, "cannot run '%s': %s", path,
                          strerror(errno ? errno : EAGAIN));
        pv_status st = spool(s, p);
        pclose(p); /* gnuplot does not look at the command's exit status either */
        return st;
    }
    if (strcmp(path, "-") == 0) {
        free(s->shown);
        s->shown = pv_asprintf("standard input");
        return s->shown ? spool(s, stdin) : pv_err(ctx, PV_ENOMEM, "out of memory");
    }
    errno = 0;
    FILE *f = fopen(path, "rb");
    if (!f) {
        *missing = 1;
        return pv_err(ctx, PV_EIO, "cannot open '%s': %s", path, strerror(errno));
    }
    struct stat sb;
    bool known = fstat(fileno(f), &sb) == 0;
    if (known && S_ISDIR(sb.st_mode)) { /* gnuplot's words */
        fclose(f);
        return pv_err(ctx, PV_EIO, "\"%s\" is a directory", path);
    }
    if (known && S_ISREG(sb.st_mode)) {
        s->f = f;
        return PV_OK;
    }
    pv_status st = spool(s, f); /* a pipe, a device, a directory (whose read fails) */
    fclose(f);
    return st;
}

pv_instream *pv_instream_open(pv_ctx *ctx, const char *path, bool command, bool *missing)
{
    int gone = 0;
    pv_status st = PV_OK;
    pv_instream *s = calloc(1, sizeof *s);
    if (s) {
        s->ctx = ctx;
        s->cap = piece_size();
        s->buf = pv_alloc(ctx, s->cap);
    }
    if (!s || !s->buf) st = ctx->err_code != PV_OK ? ctx->err_code : pv_err(ctx, PV_ENOMEM, "out of memory");
    if (st == PV_OK && ctx->rank == 0) st = open_local(s, path, command, &gone);
    if (gone) ctx->err_detail = PV_DETAIL_MISSING;
    /* "missing" travels with the agreed message: a rank that failed elsewhere (and is
     * in another agreement) could not take part in a broadcast of its own */
    st = pv_status_agree(ctx, st);
    if (missing) *missing = st != PV_OK && ctx->err_detail == PV_DETAIL_MISSING;
    if (st != PV_OK) {
        pv_instream_close(s);
        return NULL;
    }
    return s;
}

/* The reduction of one piece: in = {stop, failed, length, last}, MAX over the ranks (only
 * rank 0 has a length and a last flag). A failure anywhere is then agreed. */
static pv_status step(pv_instream *s, long long stop, pv_status mine, long long hdr[2])
{
    pv_ctx *ctx = s->ctx;
    long long in[4] = {stop, mine != PV_OK, hdr[0], hdr[1]}, out[4];
    if (MPI_Allreduce(in, out, 4, MPI_LONG_LONG, MPI_MAX, ctx->comm) != MPI_SUCCESS) {
        s->done = true;
        return pv_err(ctx, PV_EMPI, "MPI_Allreduce failed while reading %s",
                      s->shown ? s->shown : "a data file");
    }
    hdr[0] = out[2], hdr[1] = out[3];
    if (out[1]) {
        s->done = true;
        return pv_status_agree(ctx, mine);
    }
    if (out[0]) s->done = true;
    return PV_OK;
}

pv_status pv_instream_next(pv_instream *s, const char **data, size_t *n)
{
    pv_ctx *ctx = s->ctx;
    *data = s->buf;
    *n = 0;
    if (s->done) return PV_OK;
    pv_status mine = PV_OK;
    long long hdr[2] = {0, 0};
    if (ctx->rank == 0) {
        errno = 0;
        size_t got = fread(s->buf, 1, s->cap, s->f);
        if (got < s->cap && ferror(s->f))
            mine = pv_err(ctx, PV_EIO, "cannot read %s: %s", s->shown,
                          strerror(errno ? errno : EIO));
        hdr[0] = (long long)got;
        hdr[1] = got < s->cap;
    }
    pv_status st = step(s, 0, mine, hdr);
    if (st != PV_OK || s->done) return st;
    size_t len = (size_t)hdr[0];
    if (len > 0 && MPI_Bcast(s->buf, (int)len, MPI_CHAR, 0, ctx->comm) != MPI_SUCCESS) {
        s->done = true;
        return pv_err(ctx, PV_EMPI, "MPI_Bcast of %zu bytes of %s failed", len,
                      s->shown ? s->shown : "a data file");
    }
    if (hdr[1]) s->done = true; /* the last piece: the next call ends the pass */
    *n = len;
    return PV_OK;
}

pv_status pv_instream_restart(pv_instream *s, pv_status st)
{
    pv_status out = PV_OK;
    if (!s->done) {
        long long hdr[2] = {0, 0};
        out = step(s, 1, st == PV_OK || st == PV_EEXIT ? PV_OK : st, hdr);
    }
    s->done = false;
    if (s->f) rewind(s->f);
    return out;
}

pv_status pv_instream_slurp(pv_instream *s, char **data, size_t *len)
{
    pv_ctx *ctx = s->ctx;
    char *all = NULL;
    size_t n = 0, cap = 0;
    pv_status st = PV_OK, mine = PV_OK;
    for (;;) {
        const char *p;
        size_t got;
        if ((st = pv_instream_next(s, &p, &got)) != PV_OK || got == 0) break;
        if (mine == PV_OK && n + got + 1 > cap) {
            size_t nc = cap ? cap : 65536;
            while (nc < n + got + 1 && nc <= SIZE_MAX / 2) nc *= 2;
            char *na = nc >= n + got + 1 ? realloc(all, nc) : NULL;
            if (!na) mine = pv_err(ctx, PV_ENOMEM, "out of memory while reading %s", s->shown ? s->shown : "a data file");
            else all = na, cap = nc;
        }
        if (mine != PV_OK) break; /* the others learn it at the next piece */
        memcpy(all + n, p, got);
        n += got;
    }
    if (mine != PV_OK) st = pv_instream_restart(s, mine);
    if (st == PV_OK && !all && !(all = malloc(1))) st = pv_err(ctx, PV_ENOMEM, "out of memory");
    if (st != PV_OK) {
        free(all);
        return st;
    }
    all[n] = '\0';
    *data = all;
    *len = n;
    return PV_OK;
}

void pv_instream_close(pv_instream *s)
{
    if (!s) return;
    if (s->f) fclose(s->f);
    pv_free(s->ctx, s->buf, s->cap);
    free(s->shown);
    free(s);
}
