/*
 * core/outfile.c: the one rule for every file pvox writes (pvox/outfile.h has it in full;
 * README "When things go wrong"): what an output path may be, the temporary a regular
 * file is written to before the rename, and the stream a device or FIFO is written as.
 *
 * Temporary names carry 64 random bits, so they cannot be guessed, and they are created
 * exclusively without following links, so a file or a link planted under that name makes
 * the write fail instead of redirecting it.
 */
#define _GNU_SOURCE /* strndup, readlink, getrandom */
#include "pvox/outfile.h"

#include "pvox/core.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

char *pv_io_temp_name(const char *path)
{
    uint64_t r = 0;
    if (getrandom(&r, sizeof r, 0) != (ssize_t)sizeof r) { /* no entropy source: mix */
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        r = ((uint64_t)ts.tv_nsec << 32) ^ (uint64_t)ts.tv_sec ^ ((uint64_t)getpid() << 16) ^
            (uint64_t)(uintptr_t)&r;
    }
    return pv_asprintf("%s" PV_IO_TEMP_MARK "%016llx", path, (unsigned long long)r);
}

char *pv_io_temp_target(const char *tmp)
{
    size_t n = strlen(tmp), tail = strlen(PV_IO_TEMP_MARK) + 16;
    if (n <= tail || strncmp(tmp + n - tail, PV_IO_TEMP_MARK, strlen(PV_IO_TEMP_MARK)) != 0) {
        errno = EINVAL;
        return NULL;
    }
    char *t = strndup(tmp, n - tail);
    if (!t) errno = ENOMEM;
    return t;
}

FILE *pv_io_fopen_new(const char *tmp, const char *mode)
{
    int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd < 0) return NULL;
    FILE *f = fdopen(fd, mode);
    if (!f) {
        int e = errno;
        close(fd);
        unlink(tmp);
        errno = e;
    }
    return f;
}

bool pv_io_is_stream_name(const char *path)
{
    return path[0] == '|' || strncmp(path, "/dev/", 5) == 0 || strncmp(path, "/proc/", 6) == 0;
}

const char *pv_io_strerror(int e)
{
    if (e == EFBIG) return "file too large (ulimit -f)";
    return strerror(e);
}

/* ---- the rule ---------------------------------------------------------------------- */

/* Follow `path` through symbolic links to the name it finally reaches (malloc'd), with
 * that name's lstat in *st, or errno ENOENT in *missing when nothing is there (a new
 * name, or a dangling link's target). NULL with errno on failure (ELOOP, EACCES...). */
static char *follow(const char *path, struct stat *st, bool *missing)
{
    char *cur = strdup(path);
    *missing = false;
    for (int hop = 0; cur && hop < 40; hop++) { /* Linux's own limit */
        if (lstat(cur, st) != 0) {
            if (errno != ENOENT) break;
            *missing = true;
            return cur;
        }
        if (!S_ISLNK(st->st_mode)) return cur;
        char buf[PATH_MAX];
        ssize_t n = readlink(cur, buf, sizeof buf - 1);
        if (n < 0) break;
        buf[n] = '\0';
        char *next;
        if (buf[0] == '/') {
            next = strdup(buf);
        } else { /* relative to the link's directory */
            const char *slash = strrchr(cur, '/');
            next = slash ? pv_asprintf("%.*s/%s", (int)(slash - cur), cur, buf) : strdup(buf);
        }
        free(cur);
        cur = next;
        if (hop == 39) errno = ELOOP;
    }
    int e = cur ? errno : ENOMEM;
    free(cur);
    errno = e;
    return NULL;
}

pv_io_target pv_io_output_target(const char *path, bool stream_ok, char **target, const char **why)
{
    *target = NULL;
    *why = NULL;
    struct stat st;
    if (!*path) {
        *why = strerror(ENOENT);
        return PV_IO_REFUSED;
    }
    if (path[0] == '|' && stream_ok) return PV_IO_STREAM;
    if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode) && pv_io_is_stream_name(path)) {
        /* a descriptor name: what it reaches is the caller's (a terminal, a pipe, the file
         * the shell redirected to); written in place, never replaced */
        if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
            *why = "is a directory";
            return PV_IO_REFUSED;
        }
        if (stream_ok) return PV_IO_STREAM;
        *why = PV_IO_NOT_REGULAR;
        return PV_IO_REFUSED;
    }
    bool missing;
    char *name = follow(path, &st, &missing);
    if (!name) {
        *why = strerror(errno);
        return PV_IO_REFUSED;
    }
    if (missing || S_ISREG(st.st_mode)) {
        *target = name;
        return PV_IO_REPLACE;
    }
    free(name);
    if (S_ISDIR(st.st_mode)) {
        *why = "is a directory";
        return PV_IO_REFUSED;
    }
    if (stream_ok && (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode))) return PV_IO_STREAM;
    *why = stream_ok ? "not a regular file, a character device or a FIFO" : PV_IO_NOT_REGULAR;
    return PV_IO_REFUSED;
}

FILE *pv_io_fopen_stream(const char *path, const char *mode)
{
    int flags = O_WRONLY | O_CREAT | O_CLOEXEC | (mode[0] == 'a' ? O_APPEND : O_TRUNC);
    int fd = open(path, flags, 0666);
    if (fd < 0) return NULL;
    FILE *f = fdopen(fd, mode);
    if (!f) {
        int e = errno;
        close(fd);
        errno = e;
    }
    return f;
}
