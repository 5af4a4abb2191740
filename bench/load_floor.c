/*
 * bench/load_floor.c: the least a loader can spend putting a file into new memory, the
 * floor under bench_ingest_brick.sh's and bench_ingest_h5.sh's warm figures.
 *
 *   cc -O2 -fopenmp bench/load_floor.c -o /tmp/load_floor
 *   /tmp/load_floor FILE [MODE]
 *
 * dd reads the page cache into one buffer it reuses; a loader must also give the file's
 * bytes pages of their own. With the threads (OMP_NUM_THREADS), on a block of the file's
 * size that nothing has touched (asked for transparent huge pages, as pvox's slabs are):
 *   populate  MADV_POPULATE_WRITE over the block (the kernel zeroes every page), then
 *             pread the file into it in 2 MiB pieces: what pvox's readers do;
 *   faults    pread straight into the untouched block (the pages fault inside the reads);
 *   reuse     the populated block read a second time: the copy alone.
 * MODE: all (default), populate, faults. Prints seconds and MB/s of each step. Not part
 * of pvox; a yardstick for its figures.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define PIECE ((size_t)2 << 20)

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static char *fresh_block(size_t n)
{
    char *p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) {
        perror("mmap");
        exit(1);
    }
    (void)madvise(p, n, MADV_HUGEPAGE);
    return p;
}

static int read_into(int fd, char *p, size_t n)
{
    int bad = 0;
#pragma omp parallel for schedule(dynamic, 4) reduction(| : bad)
    for (size_t o = 0; o < n; o += PIECE) {
        size_t len = n - o < PIECE ? n - o : PIECE, got = 0;
        while (got < len) {
            ssize_t r = pread(fd, p + o + got, len - got, (off_t)(o + got));
            if (r <= 0) {
                bad = 1;
                break;
            }
            got += (size_t)r;
        }
    }
    return bad;
}

static void report(const char *what, double secs, size_t n)
{
    printf("%-9s %7.3f s %9.1f MB/s\n", what, secs, (double)n / secs / 1e6);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s FILE [all|populate|faults]\n", argv[0]);
        return 2;
    }
    const char *mode = argc > 2 ? argv[2] : "all";
    int fd = open(argv[1], O_RDONLY);
    struct stat sb;
    if (fd < 0 || fstat(fd, &sb) != 0) {
        perror(argv[1]);
        return 1;
    }
    size_t n = (size_t)sb.st_size;
    printf("%s: %zu bytes, %d threads\n", argv[1], n, omp_get_max_threads());
    if (strcmp(mode, "all") == 0 || strcmp(mode, "faults") == 0) {
        char *p = fresh_block(n);
        double t0 = now();
        int bad = read_into(fd, p, n);
        report("faults", now() - t0, n);
        munmap(p, n);
        if (bad) return 1;
    }
    if (strcmp(mode, "all") == 0 || strcmp(mode, "populate") == 0) {
        char *p = fresh_block(n);
        double t0 = now();
#pragma omp parallel for schedule(static)
        for (size_t o = 0; o < n; o += (size_t)64 << 20) {
            size_t len = n - o < ((size_t)64 << 20) ? n - o : ((size_t)64 << 20);
            (void)madvise(p + o, len, MADV_POPULATE_WRITE);
        }
        double t1 = now();
        int bad = read_into(fd, p, n);
        double t2 = now();
        report("populate", t1 - t0, n);
        report("+ read", t2 - t1, n);
        report("= total", t2 - t0, n);
        t0 = now();
        bad |= read_into(fd, p, n);
        report("reuse", now() - t0, n);
        munmap(p, n);
        if (bad) return 1;
    }
    close(fd);
    return 0;
}
