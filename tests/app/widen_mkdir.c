/*
 * tests/app/widen_mkdir.c: a test-only LD_PRELOAD library for session_test.sh. After a
 * mkdir() of a directory named "ompi.*" (Open MPI 4's per-user top session directory) it
 * waits 20 ms before returning. Open MPI makes that directory and then its own
 * subdirectory below it, and another job ending in between removes the top directory if
 * it is empty: the wait widens that window from microseconds to milliseconds, so a run
 * that shares the top directory with other jobs fails at once instead of once in
 * thousands (README "Start-up time"). A run with a directory of its own is only slower.
 */
#define _GNU_SOURCE /* RTLD_NEXT */
#include <dlfcn.h>
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

typedef int (*mkdir_fn)(const char *, mode_t);

int mkdir(const char *path, mode_t mode)
{
    static mkdir_fn real;
    if (!real) {
        void *sym = dlsym(RTLD_NEXT, "mkdir");
        memcpy(&real, &sym, sizeof real); /* object to function pointer, as POSIX allows */
        if (!real) {
            errno = ENOSYS;
            return -1;
        }
    }
    int rc = real(path, mode);
    int saved = errno;
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    if (strncmp(base, "ompi.", 5) == 0) {
        struct timespec wait = {0, 20 * 1000 * 1000};
        nanosleep(&wait, NULL);
    }
    errno = saved;
    return rc;
}
