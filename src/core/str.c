/*
 * core/str.c: printf into a freshly allocated string (a leaf of core: diagnostics and
 * logging both format their messages through it), and the directory part of a path.
 */
#include "pvox/core.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *pv_vasprintf(const char *fmt, va_list ap)
{
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    if (n < 0) return NULL;
    char *s = malloc((size_t)n + 1);
    if (!s) return NULL;
    vsnprintf(s, (size_t)n + 1, fmt, ap);
    return s;
}

char *pv_asprintf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = pv_vasprintf(fmt, ap);
    va_end(ap);
    return s;
}

char *pv_path_dir(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash) return strdup(".");
    return strndup(path, (size_t)(slash - path) + (slash == path)); /* "/" keeps its slash */
}
