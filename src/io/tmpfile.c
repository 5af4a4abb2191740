/*
 * io/tmpfile: the temporary files writers fill before renaming them over the output
 * (a reader never sees half a file). The names carry 64 random bits, so they cannot be
 * guessed, and they are created exclusively without following links, so a file or a
 * link planted under that name makes the write fail instead of redirecting it.
 */
#include "io_int.h"

#include "pvox/core.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
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
