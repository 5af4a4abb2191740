/*
 * io/tmpfile: the temporary files writers fill before renaming them over the output
 * (a reader never sees half a file). The names carry 64 random bits, so they cannot be
 * guessed, and they are created exclusively without following links, so a file or a
 * link planted under that name makes the write fail instead of redirecting it.
 */
#define _DEFAULT_SOURCE /* realpath */
#include "io_int.h"

#include "pvox/core.h"
#include "pvox/png.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/random.h>
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
    return pv_asprintf("%s.tmp.%016llx", path, (unsigned long long)r);
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

static FILE *open_in_place(const char *path, const char *mode)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (fd < 0) return NULL;
    FILE *f = fdopen(fd, mode);
    if (!f) {
        int e = errno;
        close(fd);
        errno = e;
    }
    return f;
}

/* Where the temporary goes and what it replaces: the path itself, or the file a link
 * names; NULL target (errno 0) when the output is to be written in place. */
static char *rename_target(const char *path)
{
    struct stat st;
    errno = 0;
    if (pv_io_is_stream_name(path)) return NULL;
    if (lstat(path, &st) != 0) return errno == ENOENT ? strdup(path) : NULL;
    if (S_ISREG(st.st_mode)) return strdup(path);
    if (!S_ISLNK(st.st_mode)) return NULL; /* device, FIFO, socket, directory */
    char *real = realpath(path, NULL);
    errno = 0;
    if (!real) return NULL; /* a dangling link: opened through, as gnuplot does */
    if (stat(real, &st) == 0 && S_ISREG(st.st_mode)) return real;
    free(real);
    return NULL;
}

bool pv_io_out_open(pv_io_out *o, const char *path, const char *mode)
{
    memset(o, 0, sizeof *o);
    if (path[0] == '|') { /* "| command": the picture goes to the command's input */
        fflush(stdout);
        errno = 0;
        o->f = popen(path + 1, mode[0] == 'w' && mode[1] == 'b' ? "w" : mode);
        o->pipe = o->f != NULL;
        if (!o->f && !errno) errno = ENOMEM;
        return o->f != NULL;
    }
    o->target = rename_target(path);
    if (!o->target) {
        if (errno) return false;
        o->f = open_in_place(path, mode);
        return o->f != NULL;
    }
    o->tmp = pv_io_temp_name(o->target);
    if (o->tmp) o->f = pv_io_fopen_new(o->tmp, mode);
    else errno = ENOMEM;
    if (o->f) return true;
    int e = errno;
    free(o->tmp);
    free(o->target);
    memset(o, 0, sizeof *o);
    errno = e;
    return false;
}

int pv_io_out_close(pv_io_out *o, int werr)
{
    int err = werr;
    if (o->pipe) { /* the command's exit status is its own business, as in gnuplot */
        if (pclose(o->f) == -1 && !err) err = errno ? errno : EIO;
    } else if (fclose(o->f) != 0 && !err) {
        err = errno ? errno : EIO;
    }
    if (o->tmp) {
        if (!err && rename(o->tmp, o->target) != 0) err = errno;
        if (err) remove(o->tmp);
    }
    free(o->tmp);
    free(o->target);
    memset(o, 0, sizeof *o);
    return err;
}
