/*
 * Replay of fuzz inputs without libFuzzer (tests/fuzz/README.md): linked with one target's
 * LLVMFuzzerTestOneInput, it runs that function on every file named on the command line
 * and on every file of every directory named (in name order, dot files skipped). A crash
 * or a sanitizer report fails the test; the name of each file is printed before it runs.
 *
 *   fuzz_replay_<target> PATH...
 */
#define _POSIX_C_SOURCE 200809L
#include "fuzz_common.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Read a whole file into an exact-size buffer (so an overrun past the input shows under a
 * sanitizer). Returns false on an I/O error. */
static bool slurp(const char *path, uint8_t **data, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return false;
    size_t cap = 4096, n = 0;
    uint8_t *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            uint8_t *nb = realloc(buf, cap *= 2);
            if (!nb) free(buf);
            buf = nb;
        }
    }
    bool ok = buf && !ferror(f);
    fclose(f);
    if (!ok) {
        free(buf);
        return false;
    }
    uint8_t *exact = malloc(n ? n : 1);
    if (exact) memcpy(exact, buf, n);
    free(buf);
    *data = exact;
    *len = n;
    return exact != NULL;
}

static int replay_file(const char *path)
{
    uint8_t *data;
    size_t len;
    if (!slurp(path, &data, &len)) {
        fprintf(stderr, "replay: cannot read '%s': %s\n", path, strerror(errno));
        return 1;
    }
    printf("replay: %s\n", path);
    fflush(stdout);
    LLVMFuzzerTestOneInput(data, len);
    free(data);
    return 0;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Replay every file of a directory; *count receives the number of files run. */
static int replay_dir(const char *dir, long *count)
{
    DIR *d = opendir(dir);
    if (!d) {
        fprintf(stderr, "replay: cannot open '%s': %s\n", dir, strerror(errno));
        return 1;
    }
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *e;
    int bad = 0;
    while (!bad && (e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.') continue;
        if (n == cap) {
            char **nn = realloc(names, (cap = cap ? 2 * cap : 64) * sizeof *nn);
            if (!nn)
                bad = 1;
            else
                names = nn;
        }
        if (!bad && !(names[n++] = pv_asprintf("%s/%s", dir, e->d_name))) bad = 1;
    }
    closedir(d);
    if (n) qsort(names, n, sizeof *names, by_name);
    for (size_t i = 0; i < n; i++) {
        struct stat st;
        if (!bad && names && names[i] && stat(names[i], &st) == 0 && S_ISREG(st.st_mode)) {
            bad |= replay_file(names[i]);
            (*count)++;
        }
        if (names) free(names[i]);
    }
    free(names);
    return bad;
}

int main(int argc, char **argv)
{
    long count = 0;
    int bad = 0;
    for (int i = 1; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) != 0) {
            fprintf(stderr, "replay: no such file or directory: '%s'\n", argv[i]);
            bad = 1;
        } else if (S_ISDIR(st.st_mode)) {
            bad |= replay_dir(argv[i], &count);
        } else {
            bad |= replay_file(argv[i]);
            count++;
        }
    }
    printf("replay: %ld inputs, %s\n", count, bad ? "FAILED" : "no crash");
    return bad || count == 0 ? 1 : 0;
}
