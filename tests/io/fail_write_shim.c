/*
 * tests/io/fail_write_shim.c: an LD_PRELOAD library that makes the file system fill up in
 * the middle of a checkpoint write, for run_h5_midwrite.sh and run_h5_tmpname.sh. No
 * privileges needed: it sits between pvox (with its MPI-IO and HDF5 libraries) and the C
 * library, and does nothing unless its variables are set.
 *
 *   PV_FAIL_WRITE_MATCH  substring of a file's path (read from /proc/self/fd) that
 *                        selects the files the other variables act on, e.g. ".h5.tmp."
 *   PV_FAIL_WRITE_PAST   byte offset where such a file's space ends: a write that reaches
 *                        past it is cut there (a short write) and a write that starts at
 *                        or after it fails with ENOSPC, as when the disk fills while the
 *                        file grows; rewriting bytes before it still works, as it does
 *                        on a full disk for blocks the file already has
 *   PV_FAIL_WRITE_RANK   only the process whose OMPI_COMM_WORLD_RANK (or PMI_RANK) is
 *                        this number is affected (default: every process)
 *   PV_FAIL_FALLOCATE    set: fallocate and posix_fallocate on such files report
 *                        EOPNOTSUPP, as file systems that cannot reserve blocks do, so the
 *                        full disk is met by the voxel writes themselves
 *   PV_FIXED_RANDOM      two hex digits: getrandom fills its buffer with that byte, so
 *                        temporary names become predictable and a test can plant a link
 *                        exactly where pvox will create its file
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>

typedef ssize_t (*write_fn)(int, const void *, size_t);
typedef ssize_t (*pwrite_fn)(int, const void *, size_t, off_t);
typedef ssize_t (*writev_fn)(int, const struct iovec *, int);
typedef ssize_t (*pwritev_fn)(int, const struct iovec *, int, off_t);
typedef int (*fallocate_fn)(int, int, off_t, off_t);
typedef int (*posix_fallocate_fn)(int, off_t, off_t);
typedef ssize_t (*getrandom_fn)(void *, size_t, unsigned int);

#define REAL(name, type) ((type)dlsym(RTLD_NEXT, name))

static bool rank_selected(void)
{
    const char *want = getenv("PV_FAIL_WRITE_RANK");
    if (!want)
        return true;
    const char *me = getenv("OMPI_COMM_WORLD_RANK");
    if (!me)
        me = getenv("PMI_RANK");
    return me && atoi(me) == atoi(want);
}

/* Is fd one of the files the test acts on? */
static bool matches(int fd)
{
    const char *pat = getenv("PV_FAIL_WRITE_MATCH");
    if (!pat || !rank_selected())
        return false;
    char link[64], path[4096];
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    ssize_t n = readlink(link, path, sizeof path - 1);
    if (n < 0)
        return false;
    path[n] = '\0';
    return strstr(path, pat) != NULL;
}

/* How many of `want` bytes at offset `off` fit: want, fewer, or -1 with ENOSPC. */
static ssize_t allowance(int fd, off_t off, size_t want)
{
    const char *past = getenv("PV_FAIL_WRITE_PAST");
    if (!past || want == 0 || !matches(fd))
        return (ssize_t)want;
    long long room = atoll(past) - (long long)off;
    if (room <= 0) {
        errno = ENOSPC;
        return -1;
    }
    return (ssize_t)((long long)want < room ? (long long)want : room);
}

/* Vector writes keep the leading buffers that fit (the last one cut short); NULL with
 * *m = 0 when nothing fits. */
static struct iovec *clip(const struct iovec *iov, int n, off_t off, int fd, int *m)
{
    size_t total = 0;
    for (int k = 0; k < n; k++)
        total += iov[k].iov_len;
    ssize_t ok = allowance(fd, off, total);
    *m = 0;
    if (ok < 0)
        return NULL;
    struct iovec *cut = malloc((size_t)(n > 0 ? n : 1) * sizeof *cut);
    if (!cut) {
        errno = ENOMEM;
        return NULL;
    }
    size_t left = (size_t)ok;
    for (; *m < n && (left > 0 || iov[*m].iov_len == 0); (*m)++) {
        cut[*m] = iov[*m];
        if (cut[*m].iov_len > left)
            cut[*m].iov_len = left;
        left -= cut[*m].iov_len;
    }
    return cut;
}

ssize_t write(int fd, const void *buf, size_t count)
{
    ssize_t ok = allowance(fd, lseek(fd, 0, SEEK_CUR), count);
    return ok < 0 ? -1 : REAL("write", write_fn)(fd, buf, (size_t)ok);
}

ssize_t pwrite(int fd, const void *buf, size_t count, off_t off)
{
    ssize_t ok = allowance(fd, off, count);
    return ok < 0 ? -1 : REAL("pwrite", pwrite_fn)(fd, buf, (size_t)ok, off);
}

ssize_t pwrite64(int fd, const void *buf, size_t count, off_t off)
{
    ssize_t ok = allowance(fd, off, count);
    return ok < 0 ? -1 : REAL("pwrite64", pwrite_fn)(fd, buf, (size_t)ok, off);
}

static ssize_t vector(const char *name, int fd, const struct iovec *iov, int n, off_t off,
                      bool positioned)
{
    int m;
    struct iovec *cut = clip(iov, n, positioned ? off : lseek(fd, 0, SEEK_CUR), fd, &m);
    if (!cut)
        return -1;
    ssize_t rc = positioned ? REAL(name, pwritev_fn)(fd, cut, m, off)
                            : REAL(name, writev_fn)(fd, cut, m);
    free(cut);
    return rc;
}

ssize_t writev(int fd, const struct iovec *iov, int n)
{
    return vector("writev", fd, iov, n, 0, false);
}

ssize_t pwritev(int fd, const struct iovec *iov, int n, off_t off)
{
    return vector("pwritev", fd, iov, n, off, true);
}

ssize_t pwritev64(int fd, const struct iovec *iov, int n, off_t off)
{
    return vector("pwritev64", fd, iov, n, off, true);
}

static bool refuse_reserve(int fd) { return getenv("PV_FAIL_FALLOCATE") && matches(fd); }

int fallocate(int fd, int mode, off_t off, off_t len)
{
    if (refuse_reserve(fd)) {
        errno = EOPNOTSUPP;
        return -1;
    }
    return REAL("fallocate", fallocate_fn)(fd, mode, off, len);
}

int fallocate64(int fd, int mode, off_t off, off_t len)
{
    if (refuse_reserve(fd)) {
        errno = EOPNOTSUPP;
        return -1;
    }
    return REAL("fallocate64", fallocate_fn)(fd, mode, off, len);
}

int posix_fallocate(int fd, off_t off, off_t len)
{
    return refuse_reserve(fd) ? EOPNOTSUPP : REAL("posix_fallocate", posix_fallocate_fn)(fd, off, len);
}

int posix_fallocate64(int fd, off_t off, off_t len)
{
    return refuse_reserve(fd) ? EOPNOTSUPP
                              : REAL("posix_fallocate64", posix_fallocate_fn)(fd, off, len);
}

ssize_t getrandom(void *buf, size_t len, unsigned int flags)
{
    const char *fixed = getenv("PV_FIXED_RANDOM");
    if (!fixed)
        return REAL("getrandom", getrandom_fn)(buf, len, flags);
    memset(buf, (int)strtol(fixed, NULL, 16), len);
    return (ssize_t)len;
}
