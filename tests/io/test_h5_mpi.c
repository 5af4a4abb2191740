/*
 * HDF5 checkpoints through the io API (pvox/h5.h), run at 1, 2, 3 and 4 ranks.
 *
 * - Round trip: three grids (n = 7, n = 2 so that at 3 and 4 ranks some ranks own no
 *   plane, n = 5 with unset ranges) with voxel values given by a formula, written with
 *   the default transfer size and with a tiny one (rows of a plane per call, and ranks
 *   making more calls than they have data for). Every transfer must report
 *   H5D_MPIO_CONTIGUOUS_COLLECTIVE (H5Pget_mpio_actual_io_mode), every rank the same
 *   call count. Read back with this decomposition, with the reversed one (rank r reads
 *   rank P-1-r's planes) and by rank 0 alone (whole grid): values equal the formula.
 * - Independent check: rank 0 reopens the file with the plain serial HDF5 API and checks
 *   layout (contiguous, no filters), type (IEEE f32 LE), shape, attributes and values.
 * - Metadata: format version, pvox version, script name, creation time shape, order.
 * - Bad input: missing file, not HDF5, truncated, no /grids, missing grid, float64,
 *   non-cube and 2-D datasets, a group in place of a dataset, planes out of range, and
 *   bad save requests; every rank gets the same status and message. No temporary file
 *   is left behind.
 */
#include "pv_test.h"
#include "pvox/h5.h"

#include <dirent.h>
#include <hdf5.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define NGRIDS 3

static const char *const gname[NGRIDS] = {"$a", "$b", "$c"};
static const int64_t gsize[NGRIDS] = {7, 2, 5};

static float value(int64_t n, int64_t ix, int64_t iy, int64_t iz, int salt)
{
    /* exact in float; distinct along every axis, so transposes and flips show */
    return (float)(ix + n * iy + n * n * iz) + 0.5f + (float)(1000 * salt);
}

static void slab(int64_t n, int P, int r, int64_t *z0, int64_t *z1)
{
    int64_t base = n / P, extra = n % P;
    *z0 = r * base + (r < extra ? r : extra);
    *z1 = *z0 + base + (r < extra ? 1 : 0);
}

static float *make_slab(int64_t n, int64_t z0, int64_t z1, int salt)
{
    size_t count = (size_t)((z1 - z0) * n * n);
    float *p = malloc((count ? count : 1) * sizeof *p);
    for (int64_t iz = z0; iz < z1; iz++)
        for (int64_t iy = 0; iy < n; iy++)
            for (int64_t ix = 0; ix < n; ix++)
                p[((iz - z0) * n + iy) * n + ix] = value(n, ix, iy, iz, salt);
    return p;
}

static int check_slab(const float *p, int64_t n, int64_t z0, int64_t z1, int salt)
{
    int bad = 0;
    for (int64_t iz = z0; iz < z1; iz++)
        for (int64_t iy = 0; iy < n; iy++)
            for (int64_t ix = 0; ix < n; ix++)
                if (p[((iz - z0) * n + iy) * n + ix] != value(n, ix, iy, iz, salt))
                    bad++;
    return bad;
}

/* True on every rank iff `v` is the same on every rank. */
static bool same_everywhere(pv_ctx *ctx, long long v)
{
    long long lo = v, hi = v;
    MPI_Allreduce(MPI_IN_PLACE, &lo, 1, MPI_LONG_LONG, MPI_MIN, ctx->comm);
    MPI_Allreduce(MPI_IN_PLACE, &hi, 1, MPI_LONG_LONG, MPI_MAX, ctx->comm);
    return lo == hi;
}

static char *path_in(const char *dir, const char *name)
{
    return pv_asprintf("%s/%s", dir, name);
}

/* Entries of dir whose name contains ".tmp." (leftovers of a save). */
static int count_tmp(const char *dir)
{
    DIR *d = opendir(dir);
    int n = 0;
    if (!d)
        return -1;
    for (struct dirent *e; (e = readdir(d));)
        if (strstr(e->d_name, ".tmp."))
            n++;
    closedir(d);
    return n;
}

/* ---- round trip --------------------------------------------------------------------- */

typedef struct grids {
    pv_h5_grid g[NGRIDS];
    float *data[NGRIDS];
} grids;

static void make_grids(pv_ctx *ctx, grids *G)
{
    for (int k = 0; k < NGRIDS; k++) {
        pv_h5_grid *g = &G->g[k];
        g->name = gname[k];
        g->n = gsize[k];
        slab(g->n, ctx->nranks, ctx->rank, &g->z0, &g->z1);
        G->data[k] = make_slab(g->n, g->z0, g->z1, k);
        g->slab = G->data[k];
        for (int a = 0; a < 3; a++) {
            g->min[a] = k == 2 ? (double)NAN : -1.0 - a;
            g->max[a] = k == 2 ? (double)NAN : 2.0 + 3 * a + k;
        }
    }
}

static void free_grids(grids *G)
{
    for (int k = 0; k < NGRIDS; k++)
        free(G->data[k]);
}

static void check_save_stats(pv_ctx *ctx, const pv_h5_stats *s, bool small_io)
{
    PV_CHECK(s->all_collective);
    PV_CHECK(same_everywhere(ctx, s->ncalls));
    PV_CHECK(s->ncalls >= NGRIDS);
    if (small_io)
        PV_CHECK(s->ncalls > 3 * NGRIDS); /* rows per call: many calls */
    /* this rank moved data (every rank owns planes of $a at <= 4 ranks): collective */
    PV_CHECK_EQ(s->io_mode, H5D_MPIO_CONTIGUOUS_COLLECTIVE);
    uint64_t want = 0;
    for (int k = 0; k < NGRIDS; k++)
        want += (uint64_t)(gsize[k] * gsize[k] * gsize[k]) * sizeof(float);
    PV_CHECK_EQ(s->bytes, want);
}

static void check_info(pv_ctx *ctx, pv_h5_file *f)
{
    const pv_h5_info *in = pv_h5_file_info(f);
    PV_CHECK_EQ(in->format_version, PV_H5_FORMAT_VERSION);
    PV_CHECK_STR(in->pvox_version, PV_VERSION_STRING);
    PV_CHECK_STR(in->script, "job.gp");
    /* "YYYY-MM-DDTHH:MM:SSZ" */
    PV_CHECK_EQ(strlen(in->created), 20);
    PV_CHECK(in->created[4] == '-' && in->created[10] == 'T' && in->created[19] == 'Z');
    PV_CHECK_EQ(in->ngrids, NGRIDS);
    for (size_t k = 0; k < in->ngrids && k < NGRIDS; k++) {
        const pv_h5_entry *e = &in->grids[k];
        PV_CHECK_STR(e->name, gname[k]); /* creation order, not name order */
        PV_CHECK_EQ(e->n, gsize[k]);
        PV_CHECK(e->problem == NULL);
        for (int a = 0; a < 3; a++) {
            if (k == 2) {
                PV_CHECK(isnan(e->min[a]) && isnan(e->max[a]));
            } else {
                PV_CHECK_EQ(e->min[a], -1.0 - a);
                PV_CHECK_EQ(e->max[a], 2.0 + 3 * a + (double)k);
            }
        }
    }
    PV_CHECK(pv_h5_find(f, "$b") == &in->grids[1]);
    PV_CHECK(pv_h5_find(f, "$zz") == NULL);
    (void)ctx;
}

/* Read one grid three ways and compare with the formula. */
static void check_reads(pv_ctx *ctx, pv_h5_file *f, int k)
{
    int64_t n = gsize[k], z0, z1;
    int P = ctx->nranks;
    pv_h5_stats s;
    /* this decomposition, then the reversed one */
    for (int pass = 0; pass < 2; pass++) {
        slab(n, P, pass == 0 ? ctx->rank : P - 1 - ctx->rank, &z0, &z1);
        float *buf = malloc((size_t)((z1 - z0 + 1) * n * n) * sizeof *buf);
        PV_CHECK_EQ(pv_h5_read(ctx, f, gname[k], z0, z1, buf, &s), PV_OK);
        PV_CHECK_EQ(check_slab(buf, n, z0, z1, k), 0);
        PV_CHECK(s.all_collective);
        PV_CHECK(same_everywhere(ctx, s.ncalls));
        free(buf);
    }
    /* rank 0 reads everything, the others nothing */
    z0 = 0;
    z1 = ctx->rank == 0 ? n : 0;
    float *all = malloc((size_t)(n * n * n) * sizeof *all);
    PV_CHECK_EQ(pv_h5_read(ctx, f, gname[k], z0, z1, all, &s), PV_OK);
    PV_CHECK_EQ(check_slab(all, n, z0, z1, k), 0);
    free(all);
}

/* Rank 0, serial HDF5 (not our reader): the documented layout and the values. */
static void check_serial(const char *path)
{
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    PV_CHECK(f >= 0);
    if (f < 0)
        return;
    int fmt = 0;
    hid_t a = H5Aopen(f, "pvox_format", H5P_DEFAULT);
    PV_CHECK(a >= 0 && H5Aread(a, H5T_NATIVE_INT, &fmt) >= 0);
    PV_CHECK_EQ(fmt, 1);
    H5Aclose(a);
    for (int k = 0; k < NGRIDS; k++) {
        char name[32];
        snprintf(name, sizeof name, "/grids/%s", gname[k]);
        hid_t d = H5Dopen2(f, name, H5P_DEFAULT);
        PV_CHECK(d >= 0);
        if (d < 0)
            continue;
        hid_t t = H5Dget_type(d), s = H5Dget_space(d), dcpl = H5Dget_create_plist(d);
        PV_CHECK(H5Tequal(t, H5T_IEEE_F32LE) > 0);
        hsize_t dims[3] = {0, 0, 0};
        PV_CHECK_EQ(H5Sget_simple_extent_ndims(s), 3);
        H5Sget_simple_extent_dims(s, dims, NULL);
        PV_CHECK(dims[0] == (hsize_t)gsize[k] && dims[1] == dims[0] && dims[2] == dims[0]);
        PV_CHECK_EQ(H5Pget_layout(dcpl), H5D_CONTIGUOUS);
        PV_CHECK_EQ(H5Pget_nfilters(dcpl), 0);
        long long size = 0;
        hid_t sa = H5Aopen(d, "size", H5P_DEFAULT);
        PV_CHECK(sa >= 0 && H5Aread(sa, H5T_NATIVE_LLONG, &size) >= 0);
        PV_CHECK_EQ(size, gsize[k]);
        H5Aclose(sa);
        double r[2] = {0, 0};
        hid_t ra = H5Aopen(d, "vyrange", H5P_DEFAULT);
        PV_CHECK(ra >= 0 && H5Aread(ra, H5T_NATIVE_DOUBLE, r) >= 0);
        if (k < 2)
            PV_CHECK(r[0] == -2.0 && r[1] == 5.0 + k);
        else
            PV_CHECK(isnan(r[0]) && isnan(r[1]));
        H5Aclose(ra);
        int64_t n = gsize[k];
        float *buf = malloc((size_t)(n * n * n) * sizeof *buf);
        PV_CHECK(H5Dread(d, H5T_NATIVE_FLOAT, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf) >= 0);
        PV_CHECK_EQ(check_slab(buf, n, 0, n, k), 0);
        free(buf);
        H5Pclose(dcpl);
        H5Sclose(s);
        H5Tclose(t);
        H5Dclose(d);
    }
    H5Fclose(f);
}

static void check_sidecar(const char *xmf)
{
    FILE *fp = fopen(xmf, "r");
    PV_CHECK(fp != NULL);
    if (!fp)
        return;
    char buf[8192];
    size_t len = fread(buf, 1, sizeof buf - 1, fp);
    buf[len] = '\0';
    fclose(fp);
    PV_CHECK(strstr(buf, "<Xdmf Version=\"2.0\">") != NULL);
    PV_CHECK(strstr(buf, "TopologyType=\"3DCoRectMesh\" Dimensions=\"7 7 7\"") != NULL);
    PV_CHECK(strstr(buf, "Format=\"HDF\">rt.h5:/grids/$a</DataItem>") != NULL);
    PV_CHECK(strstr(buf, "Format=\"HDF\">rt.h5:/grids/$c</DataItem>") != NULL);
    /* $a: origin z y x = -3 -2 -1, spacing z = (8 - -3)/6 */
    PV_CHECK(strstr(buf, "Format=\"XML\">-3 -2 -1</DataItem>") != NULL);
}

static void test_roundtrip(pv_ctx *ctx, const char *dir, size_t max_io)
{
    grids G;
    make_grids(ctx, &G);
    char *path = path_in(dir, "rt.h5");
    pv_h5_opts opt = {.script = "job.gp", .max_io_bytes = max_io};
    pv_h5_stats s;
    PV_CHECK_EQ(pv_h5_save_all(ctx, path, G.g, NGRIDS, &opt, &s), PV_OK);
    check_save_stats(ctx, &s, max_io != 0);
    if (ctx->rank == 0)
        PV_CHECK_EQ(count_tmp(dir), 0);
    pv_h5_file *f = pv_h5_open(ctx, path, &opt);
    PV_CHECK(f != NULL);
    if (f) {
        check_info(ctx, f);
        for (int k = 0; k < NGRIDS; k++)
            check_reads(ctx, f, k);
        pv_h5_close(ctx, f);
    }
    if (ctx->rank == 0) {
        check_serial(path);
        char *xmf = path_in(dir, "rt.xmf");
        check_sidecar(xmf);
        free(xmf);
    }
    MPI_Barrier(ctx->comm);
    free(path);
    free_grids(&G);
}

/* ---- bad input ---------------------------------------------------------------------- */

/* Every rank must hold status `want` and a message starting with `prefix`. */
static void expect_err(pv_ctx *ctx, pv_status got, pv_status want, const char *prefix)
{
    PV_CHECK_EQ(got, want);
    PV_CHECK(ctx->err_msg != NULL);
    if (ctx->err_msg && strncmp(ctx->err_msg, prefix, strlen(prefix)) != 0) {
        fprintf(stderr, "rank %d: message \"%s\" does not start with \"%s\"\n", ctx->rank,
                ctx->err_msg, prefix);
        PV_CHECK(!"message");
    }
    pv_err_clear(ctx);
}

static void expect_open_fails(pv_ctx *ctx, const char *path, const char *what)
{
    pv_h5_file *f = pv_h5_open(ctx, path, NULL);
    PV_CHECK(f == NULL);
    char *want = pv_asprintf("%s: %s", path, what);
    expect_err(ctx, ctx->err_code, PV_EIO, want);
    free(want);
    pv_h5_close(ctx, f);
}

static void write_bytes(const char *path, const void *p, size_t n)
{
    FILE *fp = fopen(path, "wb");
    if (fp) {
        fwrite(p, 1, n, fp);
        fclose(fp);
    }
}

/* Rank 0, serial HDF5: a file with bad datasets under /grids. */
static void make_bad_file(const char *path)
{
    hid_t f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    hid_t g = H5Gcreate2(f, "/grids", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    struct { const char *name; hid_t type; int rank; hsize_t dims[3]; } ds[] = {
        {"$d", H5T_IEEE_F64LE, 3, {4, 4, 4}},
        {"$s", H5T_IEEE_F32LE, 3, {4, 4, 5}},
        {"$t", H5T_IEEE_F32LE, 2, {4, 4, 0}},
        {"$one", H5T_IEEE_F32LE, 3, {1, 1, 1}},
        {"$ok", H5T_IEEE_F32LE, 3, {3, 3, 3}},
        {"plain", H5T_IEEE_F32LE, 3, {3, 3, 3}},
    };
    for (size_t k = 0; k < sizeof ds / sizeof ds[0]; k++) {
        hid_t s = H5Screate_simple(ds[k].rank, ds[k].dims, NULL);
        hid_t d = H5Dcreate2(g, ds[k].name, ds[k].type, s, H5P_DEFAULT, H5P_DEFAULT,
                             H5P_DEFAULT);
        H5Dclose(d);
        H5Sclose(s);
    }
    hid_t sub = H5Gcreate2(g, "$grp", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    H5Gclose(sub);
    H5Gclose(g);
    H5Fclose(f);
    /* a valid HDF5 file that is not a checkpoint */
}

static void make_plain_file(const char *path)
{
    hid_t f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    hid_t g = H5Gcreate2(f, "/other", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    H5Gclose(g);
    H5Fclose(f);
}

static void test_bad_files(pv_ctx *ctx, const char *dir)
{
    char *missing = path_in(dir, "missing.h5"), *text = path_in(dir, "text.h5");
    char *trunc = path_in(dir, "trunc.h5"), *bad = path_in(dir, "bad.h5");
    char *plain = path_in(dir, "plain.h5"), *good = path_in(dir, "rt.h5");
    if (ctx->rank == 0) {
        write_bytes(text, "not hdf5 at all\n", 16);
        FILE *fp = fopen(good, "rb");
        char *buf = malloc(1 << 20);
        size_t n = fp ? fread(buf, 1, 1 << 20, fp) : 0;
        if (fp)
            fclose(fp);
        write_bytes(trunc, buf, n / 2);
        free(buf);
        make_bad_file(bad);
        make_plain_file(plain);
    }
    MPI_Barrier(ctx->comm);
    expect_open_fails(ctx, missing, "no such file");
    expect_open_fails(ctx, text, "not an HDF5 file");
    expect_open_fails(ctx, trunc, "truncated file (");
    expect_open_fails(ctx, plain, "not a pvox checkpoint (no /grids group)");
    expect_open_fails(ctx, dir, "is a directory");

    pv_h5_file *f = pv_h5_open(ctx, bad, NULL);
    PV_CHECK(f != NULL);
    if (f) {
        float buf[64];
        struct { const char *name; const char *msg; } cases[] = {
            {"$zz", "no grid $zz"},
            {"$d", "/grids/$d is float64 [4][4][4], expected float32 [N][N][N]"},
            {"$s", "/grids/$s is float32 [4][4][5], expected float32 [N][N][N]"},
            {"$t", "/grids/$t is float32 [4][4], expected float32 [N][N][N]"},
            {"$one", "/grids/$one is float32 [1][1][1], expected float32 [N][N][N] with N >= 2"},
            {"$grp", "/grids/$grp is not a dataset"},
            {"plain", "/grids/plain is not a grid name (pvox grid names start with $)"},
        };
        for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
            char *want = pv_asprintf("%s: %s", bad, cases[k].msg);
            pv_status st = pv_h5_read(ctx, f, cases[k].name, 0, 0, buf, NULL);
            PV_CHECK_EQ(st, PV_EIO);
            PV_CHECK_STR(ctx->err_msg, want);
            pv_err_clear(ctx);
            free(want);
        }
        /* a good grid, but planes outside it on the last rank only: agreed anyway */
        int64_t z1 = ctx->rank == ctx->nranks - 1 ? 4 : 1;
        pv_status st = pv_h5_read(ctx, f, "$ok", 0, z1, buf, NULL);
        expect_err(ctx, st, PV_ERANGE, bad);
        /* and the file is still usable afterwards; $ok was never written (no storage):
         * its voxels are the fill value, 0, and the ranks that read nothing do not hang */
        for (int k = 0; k < 27; k++)
            buf[k] = -1;
        PV_CHECK_EQ(pv_h5_read(ctx, f, "$ok", 0, ctx->rank == 0 ? 3 : 0, buf, NULL), PV_OK);
        if (ctx->rank == 0)
            for (int k = 0; k < 27; k++)
                PV_CHECK_EQ(buf[k], 0);
        pv_h5_close(ctx, f);
    }
    free(missing);
    free(text);
    free(trunc);
    free(bad);
    free(plain);
    free(good);
}

static void test_bad_saves(pv_ctx *ctx, const char *dir)
{
    char *path = path_in(dir, "save.h5"), *nodir = path_in(dir, "nodir/x.h5");
    float v[8] = {0};
    pv_h5_grid g = {"$g", 2, {0, 0, 0}, {1, 1, 1}, 0, 0, v};
    if (ctx->rank == 0)
        g.z1 = 2;
    char *want;

    expect_err(ctx, pv_h5_save_all(ctx, path, &g, 0, NULL, NULL), PV_ERANGE, path);
    pv_h5_grid two[2] = {g, g};
    expect_err(ctx, pv_h5_save_all(ctx, path, two, 2, NULL, NULL), PV_ERANGE, path);
    pv_h5_grid slash = g;
    slash.name = "$a/b";
    expect_err(ctx, pv_h5_save_all(ctx, path, &slash, 1, NULL, NULL), PV_ERANGE, path);
    pv_h5_grid gap = g;
    gap.z1 = ctx->rank == 0 ? 1 : 0; /* planes [1, 2) belong to nobody */
    expect_err(ctx, pv_h5_save_all(ctx, path, &gap, 1, NULL, NULL), PV_EINTERNAL, path);
    want = pv_asprintf("%s: cannot write in directory", nodir);
    expect_err(ctx, pv_h5_save_all(ctx, nodir, &g, 1, NULL, NULL), PV_EIO, want);
    free(want);
    /* a directory where the sidecar goes: refused before anything is written */
    char *xmfdir = path_in(dir, "side.xmf"), *side = path_in(dir, "side.h5");
    if (ctx->rank == 0)
        PV_CHECK_EQ(mkdir(xmfdir, 0755), 0);
    MPI_Barrier(ctx->comm);
    want = pv_asprintf("%s: is a directory", xmfdir);
    expect_err(ctx, pv_h5_save_all(ctx, side, &g, 1, NULL, NULL), PV_EIO, want);
    free(want);
    if (ctx->rank == 0) {
        PV_CHECK(access(side, F_OK) != 0);
        PV_CHECK_EQ(count_tmp(dir), 0);
        rmdir(xmfdir);
    }
    free(xmfdir);
    free(side);
    free(path);
    free(nodir);
}

static void test_xdmf_names(void)
{
    struct { const char *in, *out; } c[] = {
        {"run.h5", "run.xmf"},      {"d/run.hdf5", "d/run.xmf"}, {"a.b/c.he5", "a.b/c.xmf"},
        {"x.hdf", "x.xmf"},         {"ck", "ck.xmf"},            {"dir/.h5", "dir/.h5.xmf"},
        {"run.h5.bak", "run.h5.bak.xmf"},
    };
    for (size_t k = 0; k < sizeof c / sizeof c[0]; k++) {
        char *p = pv_h5_xdmf_path(c[k].in);
        PV_CHECK_STR(p, c[k].out);
        free(p);
    }
}

/* ---- main ------------------------------------------------------------------------- */

static char *make_dir(pv_ctx *ctx)
{
    char *dir = NULL;
    size_t len = 0;
    if (ctx->rank == 0) {
        const char *tmp = getenv("TMPDIR");
        char *tmpl = pv_asprintf("%s/pvox-h5test.XXXXXX", tmp && tmp[0] ? tmp : "/tmp");
        dir = mkdtemp(tmpl) ? tmpl : NULL;
        if (!dir)
            free(tmpl);
        len = dir ? strlen(dir) : 0;
    }
    if (pv_status_agree(ctx, ctx->rank == 0 && !dir ? PV_EIO : PV_OK) != PV_OK)
        return NULL;
    pv_bcast_bytes(ctx, &dir, &len);
    return dir;
}

static void remove_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    for (struct dirent *e; (e = readdir(d));) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        char *p = pv_asprintf("%s/%s", dir, e->d_name);
        unlink(p);
        free(p);
    }
    closedir(d);
    rmdir(dir);
}

int main(int argc, char **argv)
{
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    pv_options opt;
    pv_options_default(&opt);
    opt.log_level = PV_LOG_WARN;
    pv_ctx *ctx = pv_ctx_create(MPI_COMM_WORLD, &opt);
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    char *dir = ctx ? make_dir(ctx) : NULL;
    PV_CHECK(dir != NULL);
    if (dir) {
        test_xdmf_names();
        test_roundtrip(ctx, dir, 0);
        /* 3 rows of 7 floats per call: planes are split into row groups */
        test_roundtrip(ctx, dir, 3 * 7 * sizeof(float));
        test_bad_files(ctx, dir);
        test_bad_saves(ctx, dir);
        MPI_Barrier(ctx->comm);
        if (ctx->rank == 0) {
            PV_CHECK_EQ(count_tmp(dir), 0);
            remove_dir(dir);
        }
        free(dir);
    }
    int mine = pv_test_failures, total = 0, rank = 0;
    MPI_Allreduce(&mine, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    pv_ctx_destroy(ctx);
    MPI_Finalize();
    if (mine)
        fprintf(stderr, "rank %d: %d failed checks\n", rank, mine);
    if (rank == 0)
        return pv_test_result("io.test_h5_mpi") || total ? 1 : 0;
    return total ? 1 : 0;
}
