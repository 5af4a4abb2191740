/*
 * core/bcast.c: rank 0 reads, everyone receives (ARCH-1).
 *
 * Only rank 0 touches script and data files; the bytes travel by MPI_Bcast in chunks below
 * 2^31 (MPI counts are int). Every step that can fail on one rank (opening the file on
 * rank 0, allocating the copy on a receiver) is followed by pv_status_agree, so a failure
 * never leaves a rank waiting in a broadcast that will not come.
 */
#include "pvox/core.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* Largest piece sent in one MPI_Bcast (bytes). */
#define CHUNK ((size_t)1 << 30)

/* Rank 0: read all of `f` into a malloc'd NUL-terminated buffer. */
static pv_status slurp(pv_ctx *ctx, FILE *f, const char *shown, char **data, size_t *len)
{
    size_t cap = 65536, n = 0;
    char *buf = malloc(cap);
    if (!buf) return pv_err(ctx, PV_ENOMEM, "out of memory while reading %s", shown);
    for (;;) {
        if (cap - n < 2) {
            char *nb = cap <= SIZE_MAX / 2 ? realloc(buf, cap * 2) : NULL;
            if (!nb) {
                free(buf);
                return pv_err(ctx, PV_ENOMEM, "out of memory while reading %s", shown);
            }
            buf = nb;
            cap *= 2;
        }
        size_t got = fread(buf + n, 1, cap - n - 1, f);
        n += got;
        if (got == 0) break;
    }
    if (ferror(f)) {
        int e = errno;
        free(buf);
        return pv_err(ctx, PV_EIO, "cannot read %s: %s", shown, strerror(e));
    }
    buf[n] = '\0';
    *data = buf;
    *len = n;
    return PV_OK;
}

static pv_status read_local(pv_ctx *ctx, const char *path, char **data, size_t *len)
{
    if (strcmp(path, "-") == 0) return slurp(ctx, stdin, "standard input", data, len);
    errno = 0;
    FILE *f = fopen(path, "rb");
    if (!f) return pv_err(ctx, PV_EIO, "cannot open '%s': %s", path, strerror(errno));
    char *shown = pv_asprintf("'%s'", path);
    pv_status st = slurp(ctx, f, shown ? shown : path, data, len);
    free(shown);
    fclose(f);
    return st;
}

pv_status pv_read_file_bcast(pv_ctx *ctx, const char *path, char **data, size_t *len)
{
    *data = NULL;
    *len = 0;
    pv_status st = PV_OK;
    if (ctx->rank == 0) st = read_local(ctx, path, data, len);
    st = pv_status_agree(ctx, st);
    if (st != PV_OK) return st;
    return pv_bcast_bytes(ctx, data, len);
}

pv_status pv_bcast_bytes(pv_ctx *ctx, char **data, size_t *len)
{
    unsigned long long n = ctx->rank == 0 ? (unsigned long long)*len : 0;
    if (MPI_Bcast(&n, 1, MPI_UNSIGNED_LONG_LONG, 0, ctx->comm) != MPI_SUCCESS)
        return pv_err(ctx, PV_EMPI, "MPI_Bcast of a buffer size failed");
    pv_status st = PV_OK;
    if (ctx->rank != 0) {
        *data = NULL;
        *len = 0;
        if (n >= SIZE_MAX || !(*data = malloc((size_t)n + 1)))
            st = pv_err(ctx, PV_ENOMEM, "out of memory: cannot receive %llu bytes", n);
    }
    st = pv_status_agree(ctx, st);
    if (st != PV_OK) {
        if (ctx->rank != 0) free(*data);
        if (ctx->rank != 0) *data = NULL;
        return st;
    }
    for (size_t done = 0; done < (size_t)n;) {
        size_t piece = (size_t)n - done < CHUNK ? (size_t)n - done : CHUNK;
        if (MPI_Bcast(*data + done, (int)piece, MPI_CHAR, 0, ctx->comm) != MPI_SUCCESS) {
            st = pv_err(ctx, PV_EMPI, "MPI_Bcast of %llu bytes failed", n);
            break;
        }
        done += piece;
    }
    if (ctx->rank != 0 && *data) {
        (*data)[n] = '\0';
        *len = (size_t)n;
    }
    return st;
}
