/*
 * The isosurface kernel on a grid read from a pvox checkpoint: the pvox half of the kernel
 * comparison in bench/bench_iso.sh (bench/README.md, "Isosurfaces").
 *
 *   bench_iso_h5 FILE.h5 [--grid NAME] [--levels SPEC] [--threads T] [--reps R] [--mixed]
 *
 * Reads the float32 [N][N][N] dataset /grids/NAME (default $v; README "Checkpoints") with
 * plain serial HDF5 calls, then runs pv_iso_extract over every cell layer R times (default
 * 3) with T OpenMP threads (default 1) and a callback that counts the polygons and sums
 * their vertices (so every emitted vertex is read, as a consumer would). Only the
 * extraction is timed, not the read. SPEC is a comma list of levels ("1", "-3,-1,0,1,3")
 * or a range FIRST:LAST:STEP ("-100:100:1"). Triangles only (the triangle counts compare
 * with other marching-cubes codes); --mixed emits gnuplot's default quads where the kernel
 * merges them.
 *
 * Prints one line of key=value pairs:
 *   pvox_iso file=F grid=NAME nx=.. ny=.. nz=.. levels=L threads=T mode=triangles reps=R
 *   best_s=.. median_s=.. voxels_per_s=.. polys=.. tris=.. active=.. vsum=..
 * voxels_per_s is nx*ny*nz / best_s. Exit 0, or 1 with a message on stderr.
 */
#include <hdf5.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pvox/iso.h"

typedef struct field {
    const float *data;
    int64_t nx, ny;
} field;

static const float *plane(const void *ud, int64_t k)
{
    const field *f = ud;
    return f->data + (size_t)k * (size_t)f->nx * (size_t)f->ny;
}

typedef struct counter {
    uint64_t polys, tris;
    double vsum;
} counter;

static int count(void *ud, const pv_iso_poly *p, size_t n)
{
    counter *c = ud;
    for (size_t i = 0; i < n; i++) {
        c->polys++;
        c->tris += (uint64_t)(p[i].nv - 2);
        for (int v = 0; v < p[i].nv; v++)
            c->vsum += p[i].v[v][0] + p[i].v[v][1] + p[i].v[v][2];
    }
    return 0;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* "a,b,c" or "first:last:step"; returns the count (0 on a bad spec), *out malloc'ed */
static int parse_levels(const char *spec, double **out)
{
    double first, last, step;
    char tail;
    *out = NULL;
    if (sscanf(spec, "%lf:%lf:%lf%c", &first, &last, &step, &tail) == 3) {
        if (!(step > 0) || last < first || (last - first) / step > 65535)
            return 0;
        int n = (int)((last - first) / step + 1e-9) + 1;
        *out = malloc((size_t)n * sizeof **out);
        if (!*out)
            return 0;
        for (int i = 0; i < n; i++)
            (*out)[i] = first + i * step;
        return n;
    }
    int n = 1;
    for (const char *s = spec; *s; s++)
        n += *s == ',';
    if (n > 65536 || !(*out = malloc((size_t)n * sizeof **out)))
        return 0;
    const char *s = spec;
    for (int i = 0; i < n; i++) {
        char *end;
        (*out)[i] = strtod(s, &end);
        if (end == s || (*end != ',' && *end != '\0')) {
            free(*out);
            *out = NULL;
            return 0;
        }
        s = end + 1;
    }
    return n;
}

/* the whole dataset, serial HDF5; *dims[3] = nz, ny, nx */
static float *read_grid(const char *path, const char *name, hsize_t dims[3])
{
    float *data = NULL;
    hid_t file = -1, dset = -1, space = -1;
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    if (file < 0) {
        fprintf(stderr, "bench_iso_h5: cannot open '%s' as HDF5\n", path);
        goto done;
    }
    char dpath[512];
    snprintf(dpath, sizeof dpath, "/grids/%s", name);
    dset = H5Dopen2(file, dpath, H5P_DEFAULT);
    if (dset < 0) {
        fprintf(stderr, "bench_iso_h5: no dataset '%s' in '%s'\n", dpath, path);
        goto done;
    }
    space = H5Dget_space(dset);
    if (space < 0 || H5Sget_simple_extent_ndims(space) != 3) {
        fprintf(stderr, "bench_iso_h5: '%s' is not a 3-d dataset\n", dpath);
        goto done;
    }
    H5Sget_simple_extent_dims(space, dims, NULL);
    size_t n = (size_t)dims[0] * (size_t)dims[1] * (size_t)dims[2];
    data = malloc(n * sizeof *data);
    if (!data) {
        fprintf(stderr, "bench_iso_h5: out of memory for %zu voxels\n", n);
        goto done;
    }
    if (H5Dread(dset, H5T_NATIVE_FLOAT, H5S_ALL, H5S_ALL, H5P_DEFAULT, data) < 0) {
        fprintf(stderr, "bench_iso_h5: cannot read '%s'\n", dpath);
        free(data);
        data = NULL;
    }
done:
    if (space >= 0)
        H5Sclose(space);
    if (dset >= 0)
        H5Dclose(dset);
    if (file >= 0)
        H5Fclose(file);
    return data;
}

static int usage(void)
{
    fprintf(stderr, "usage: bench_iso_h5 FILE.h5 [--grid NAME] [--levels SPEC] [--threads T] "
                    "[--reps R] [--mixed]\n");
    return 1;
}

int main(int argc, char **argv)
{
    const char *path = NULL, *grid = "$v", *spec = "1";
    int threads = 1, reps = 3;
    bool mixed = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        bool more = i + 1 < argc;
        if (!strcmp(a, "--grid") && more)
            grid = argv[++i];
        else if (!strcmp(a, "--levels") && more)
            spec = argv[++i];
        else if (!strcmp(a, "--threads") && more)
            threads = atoi(argv[++i]);
        else if (!strcmp(a, "--reps") && more)
            reps = atoi(argv[++i]);
        else if (!strcmp(a, "--mixed"))
            mixed = true;
        else if (a[0] != '-' && !path)
            path = a;
        else
            return usage();
    }
    if (!path || threads < 1 || reps < 1)
        return usage();
    double *levels;
    int nlevels = parse_levels(spec, &levels);
    if (nlevels < 1) {
        fprintf(stderr, "bench_iso_h5: bad level list '%s'\n", spec);
        return 1;
    }
    hsize_t dims[3];
    float *data = read_grid(path, grid, dims);
    if (!data) {
        free(levels);
        return 1;
    }
    field fd = {data, (int64_t)dims[2], (int64_t)dims[1]};
    pv_iso_field f = {(int64_t)dims[2], (int64_t)dims[1], (int64_t)dims[0], plane, &fd};
    pv_iso_opts o = {.mixed = mixed, .nthreads = threads};
    double *secs = malloc((size_t)reps * sizeof *secs);
    counter c = {0, 0, 0.0};
    pv_iso_stats st = {0, 0, 0, 0};
    int rc = secs ? 0 : 1;
    for (int r = 0; r < reps && rc == 0; r++) {
        counter cr = {0, 0, 0.0};
        pv_iso_stats sr = {0, 0, 0, 0};
        double t0 = now();
        rc = pv_iso_extract(&f, 0, f.nz - 1, levels, nlevels, &o, count, &cr, &sr);
        secs[r] = now() - t0;
        if (r > 0 && (cr.polys != c.polys || cr.tris != c.tris || sr.tris != st.tris)) {
            fprintf(stderr, "bench_iso_h5: run %d emitted a different surface\n", r + 1);
            rc = 1;
        }
        c = cr;
        st = sr;
    }
    if (rc == 0 && (st.polys != c.polys || st.tris != c.tris)) {
        fprintf(stderr, "bench_iso_h5: stats (%llu polygons) disagree with the callback (%llu)\n",
                (unsigned long long)st.polys, (unsigned long long)c.polys);
        rc = 1;
    }
    if (rc == 0) {
        qsort(secs, (size_t)reps, sizeof *secs, by_value);
        double best = secs[0];
        double median = reps % 2 ? secs[reps / 2] : 0.5 * (secs[reps / 2 - 1] + secs[reps / 2]);
        double voxels = (double)dims[0] * (double)dims[1] * (double)dims[2];
        printf("pvox_iso file=%s grid=%s nx=%llu ny=%llu nz=%llu levels=%d threads=%d mode=%s "
               "reps=%d best_s=%.6f median_s=%.6f voxels_per_s=%.6g polys=%llu tris=%llu "
               "active=%llu vsum=%.17g\n",
               path, grid, (unsigned long long)dims[2], (unsigned long long)dims[1],
               (unsigned long long)dims[0], nlevels, threads, mixed ? "mixed" : "triangles", reps,
               best, median, voxels / best, (unsigned long long)c.polys,
               (unsigned long long)c.tris, (unsigned long long)st.active, c.vsum);
    } else if (secs) {
        fprintf(stderr, "bench_iso_h5: extraction failed (%d)\n", rc);
    }
    free(secs);
    free(data);
    free(levels);
    return rc == 0 ? 0 : 1;
}
