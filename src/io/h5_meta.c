/*
 * io/h5_meta: what pvox reads of a checkpoint's metadata, read where a damaged file
 * cannot hurt the run, checked, and covered by one checksum (README "Checksums and
 * failed writes").
 *
 * The scan. libhdf5 trusts the bytes of its object headers, heaps and B-trees: a flipped
 * bit there can crash it (a segmentation fault walking a group) or send it into a loop,
 * and no check pvox could make before calling it covers every structure. So rank 0 reads
 * the metadata in a child process (fork; the child makes no MPI call, opens the file
 * with HDF5's POSIX driver and leaves with _exit). It walks the root attributes, /grids
 * and every grid's dataset and attributes, bounding each read (an attribute's type, size
 * and element count are checked before H5Aread; a dataset's dimensions before they are
 * believed), validates the values, checks the metadata checksum, and sends what it read
 * through a pipe in a plain encoding of its own. The parent decodes it and broadcasts it;
 * only then do the ranks open the file with MPI-IO, walking what the child walked
 * without harm (same bytes, same library). A child that dies of a signal, or does not
 * finish within SCAN_SECONDS, makes the file "damaged": exit 3 on every rank, never a
 * crash.
 *
 * The metadata checksum: 64-bit FNV-1a over a canonical encoding of what pvox reads
 * (meta_hash_*): the root attributes pvox_format, pvox_version, created, script,
 * job_hash and job_state (an absent string as ""), the number of grids, and per grid
 * in order its name, N, the six range ends (their float64 bits, so NaN "unset" as
 * written), whether it has a checksum and the checksum, its voxels' file offset and
 * its storage kind (float32 little-endian, contiguous). Every step of FNV-1a is a
 * bijection of its state for a given byte, so any change of one field of a given
 * length changes the sum. The writer computes it from what it wrote, the reader from
 * what it read: no raw HDF5 bytes are hashed.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__)
#define PV_SCAN_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PV_SCAN_ASAN 1
#endif
#endif
#ifdef PV_SCAN_ASAN
#include <sanitizer/common_interface_defs.h>
#endif

#include "h5_int.h"

/* A scan that takes longer is taken for a loop in damaged metadata (5,000 grids scan in
 * well under a second). */
#define SCAN_SECONDS 300
/* Bounds on what is believed before it is read. */
#define MAX_STRING ((size_t)1 << 16)  /* a string attribute's bytes */
#define MAX_GRIDS ((hsize_t)1 << 24)  /* links under /grids */
#define MAX_N ((int64_t)1 << 20)      /* voxels per axis (N³·4 bytes fits in 63 bits) */

/* ---- the canonical encoding and its checksum ------------------------------------------ */

static void fnv(uint64_t *h, const void *p, size_t len)
{
    const unsigned char *b = p;
    uint64_t x = *h;
    for (size_t i = 0; i < len; i++) {
        x ^= b[i];
        x *= 0x100000001b3ull;
    }
    *h = x;
}

static void fnv_u64(uint64_t *h, uint64_t v)
{
    unsigned char b[8];
    for (int i = 0; i < 8; i++)
        b[i] = (unsigned char)(v >> (8 * i));
    fnv(h, b, 8);
}

static void fnv_str(uint64_t *h, const char *s)
{
    size_t len = s ? strlen(s) : 0;
    fnv_u64(h, len);
    fnv(h, s ? s : "", len);
}

static void fnv_f64(uint64_t *h, double d)
{
    uint64_t bits;
    memcpy(&bits, &d, sizeof bits);
    fnv_u64(h, bits);
}

void pv_h5_meta_head(uint64_t *h, int format, const char *version, const char *created,
                     const char *script, const char *job_hash, const char *job_state,
                     uint64_t ngrids)
{
    *h = 0xcbf29ce484222325ull;
    fnv(h, "pvox-meta-1", 12);
    fnv_u64(h, (uint64_t)(int64_t)format);
    fnv_str(h, version);
    fnv_str(h, created);
    fnv_str(h, script);
    fnv_str(h, job_hash);
    fnv_str(h, job_state);
    fnv_u64(h, ngrids);
}

void pv_h5_meta_grid(uint64_t *h, const char *name, int64_t n, const double min[3],
                     const double max[3], bool has_checksum, uint64_t checksum,
                     uint64_t offset, int kind)
{
    fnv_str(h, name);
    fnv_u64(h, (uint64_t)n);
    for (int a = 0; a < 3; a++) {
        fnv_f64(h, min[a]);
        fnv_f64(h, max[a]);
    }
    fnv_u64(h, has_checksum ? 1 : 0);
    fnv_u64(h, has_checksum ? checksum : 0);
    fnv_u64(h, offset);
    fnv_u64(h, (uint64_t)kind);
}

/* ---- bounded attribute reads ------------------------------------------------------------ */

/* Open attribute `name` of loc if it exists; -1 if absent, -2 if it cannot be opened. */
static hid_t attr_find(hid_t loc, const char *name)
{
    htri_t ex = H5Aexists(loc, name);
    if (ex == 0)
        return -1;
    hid_t a = ex > 0 ? H5Aopen(loc, name, H5P_DEFAULT) : -1;
    return a < 0 ? -2 : a;
}

/* The element count of an attribute's dataspace (-1 if not simple or unreadable). */
static hssize_t attr_count(hid_t a)
{
    hid_t s = H5Aget_space(a);
    if (s < 0)
        return -1;
    hssize_t n = H5Sget_simple_extent_type(s) == H5S_NULL ? 0 : H5Sget_simple_extent_npoints(s);
    H5Sclose(s);
    return n;
}

/* A string attribute: 1 read into *out (malloc'd), 0 absent, -1 present but not one
 * string of at most MAX_STRING bytes. */
static int read_string(hid_t loc, const char *name, char **out)
{
    *out = NULL;
    hid_t a = attr_find(loc, name);
    if (a == -1)
        return 0;
    if (a < 0)
        return -1;
    hid_t t = H5Aget_type(a);
    int rc = -1;
    if (t >= 0 && H5Tget_class(t) == H5T_STRING && attr_count(a) == 1) {
        if (H5Tis_variable_str(t) > 0) {
            char *v = NULL;
            hid_t mt = H5Tcopy(H5T_C_S1);
            if (mt >= 0 && H5Tset_size(mt, H5T_VARIABLE) >= 0 && H5Aread(a, mt, &v) >= 0 && v) {
                if (strnlen(v, MAX_STRING + 1) <= MAX_STRING && (*out = strdup(v)))
                    rc = 1;
                H5free_memory(v);
            }
            if (mt >= 0)
                H5Tclose(mt);
        } else {
            size_t sz = H5Tget_size(t);
            char *buf = sz > 0 && sz <= MAX_STRING ? calloc(sz + 1, 1) : NULL;
            if (buf && H5Aread(a, t, buf) >= 0) {
                *out = buf;
                rc = 1;
            } else {
                free(buf);
            }
        }
    }
    if (t >= 0)
        H5Tclose(t);
    H5Aclose(a);
    return rc;
}

/* A numeric attribute of exactly `count` elements (integer or float, at most 8 bytes
 * each) into out, as double: 1 read, 0 absent, -1 present but not that. */
static int read_doubles(hid_t loc, const char *name, double *out, hssize_t count)
{
    hid_t a = attr_find(loc, name);
    if (a == -1)
        return 0;
    if (a < 0)
        return -1;
    hid_t t = H5Aget_type(a);
    H5T_class_t cl = t < 0 ? H5T_NO_CLASS : H5Tget_class(t);
    bool ok = (cl == H5T_FLOAT || cl == H5T_INTEGER) && H5Tget_size(t) <= 8 &&
              attr_count(a) == count && H5Aread(a, H5T_NATIVE_DOUBLE, out) >= 0;
    if (t >= 0)
        H5Tclose(t);
    H5Aclose(a);
    return ok ? 1 : -1;
}

/* One integer attribute, 64-bit, `sign` as asked (H5T_SGN_NONE, H5T_SGN_2, or
 * H5T_NSGN for either): 1 read, 0 absent, -1 present but not that. */
static int read_u64(hid_t loc, const char *name, H5T_sign_t sign, uint64_t *out)
{
    hid_t a = attr_find(loc, name);
    if (a == -1)
        return 0;
    if (a < 0)
        return -1;
    hid_t t = H5Aget_type(a);
    bool ok = t >= 0 && H5Tget_class(t) == H5T_INTEGER && H5Tget_size(t) <= 8 &&
              (sign == H5T_NSGN || H5Tget_sign(t) == sign) && attr_count(a) == 1 &&
              H5Aread(a, sign == H5T_SGN_2 ? H5T_NATIVE_INT64 : H5T_NATIVE_UINT64, out) >= 0;
    if (t >= 0)
        H5Tclose(t);
    H5Aclose(a);
    return ok ? 1 : -1;
}

/* ---- one grid ----------------------------------------------------------------------- */

static void describe_type(hid_t t, char *buf, size_t len)
{
    size_t bits = H5Tget_size(t) * 8;
    switch (H5Tget_class(t)) {
    case H5T_FLOAT: snprintf(buf, len, "float%zu", bits); break;
    case H5T_INTEGER:
        snprintf(buf, len, "%sint%zu", H5Tget_sign(t) == H5T_SGN_NONE ? "u" : "", bits);
        break;
    case H5T_STRING: snprintf(buf, len, "string"); break;
    case H5T_COMPOUND: snprintf(buf, len, "compound"); break;
    default: snprintf(buf, len, "of an unsupported type"); break;
    }
}

static void describe_shape(int rank, const hsize_t *dims, char *buf, size_t len)
{
    if (rank <= 0) {
        snprintf(buf, len, "scalar");
        return;
    }
    size_t used = 0;
    buf[0] = '\0';
    for (int k = 0; k < rank && used < len; k++)
        used += (size_t)snprintf(buf + used, len - used, "[%llu]", (unsigned long long)dims[k]);
}

/* What the scan keeps of a grid beyond pv_h5_entry: for the metadata checksum. */
typedef struct scan_grid {
    uint64_t offset; /* file offset of the voxels (all ones: none) */
    int kind;        /* 1: float32 little-endian, contiguous; 2: another float32 */
} scan_grid;

/* Check dataset d: float32 [N][N][N], 2 <= N <= MAX_N, its contiguous voxels inside the
 * file (eof bytes). Sets e->n, or e->problem. */
static void check_dataset(hid_t d, uint64_t eof, pv_h5_entry *e, scan_grid *sg)
{
    hid_t t = H5Dget_type(d);
    hid_t s = H5Dget_space(d);
    hsize_t dims[H5S_MAX_RANK];
    int rank = s >= 0 && H5Sget_simple_extent_ndims(s) >= 0 &&
                       H5Sget_simple_extent_ndims(s) <= H5S_MAX_RANK
                   ? H5Sget_simple_extent_dims(s, dims, NULL) : -1;
    bool is_f32 = t >= 0 && H5Tget_class(t) == H5T_FLOAT && H5Tget_size(t) == 4;
    bool cube = rank == 3 && dims[0] == dims[1] && dims[1] == dims[2] && dims[0] >= 2;
    if (is_f32 && cube && dims[0] > (hsize_t)MAX_N) {
        e->problem = pv_asprintf("is [%llu]³, more than pvox's largest grid (N = %lld)",
                                 (unsigned long long)dims[0], (long long)MAX_N);
    } else if (is_f32 && cube) {
        e->n = (int64_t)dims[0];
        hid_t dcpl = H5Dget_create_plist(d);
        bool contiguous = dcpl >= 0 && H5Pget_layout(dcpl) == H5D_CONTIGUOUS;
        if (dcpl >= 0)
            H5Pclose(dcpl);
        sg->kind = H5Tequal(t, H5T_IEEE_F32LE) > 0 && contiguous ? 1 : 2;
        haddr_t off = H5Dget_offset(d);
        uint64_t bytes = (uint64_t)e->n * (uint64_t)e->n * (uint64_t)e->n * sizeof(float);
        sg->offset = off == HADDR_UNDEF ? UINT64_MAX : (uint64_t)off;
        if (off != HADDR_UNDEF && ((uint64_t)off > eof || eof - (uint64_t)off < bytes))
            e->problem = pv_asprintf("has voxels past the end of the file (%llu bytes at "
                                     "offset %llu, the file has %llu): the file is truncated "
                                     "or damaged", (unsigned long long)bytes,
                                     (unsigned long long)off, (unsigned long long)eof);
    } else if (t >= 0 && rank >= 0) {
        char ty[64], sh[128];
        describe_type(t, ty, sizeof ty);
        describe_shape(rank, dims, sh, sizeof sh);
        e->problem = pv_asprintf("is %s %s, expected float32 [N][N][N]%s", ty, sh,
                                 is_f32 && rank == 3 && dims[0] == dims[1] && dims[1] == dims[2]
                                     ? " with N >= 2" : "");
    } else {
        e->problem = strdup("cannot be read (bad type or dataspace)");
    }
    if (t >= 0)
        H5Tclose(t);
    if (s >= 0)
        H5Sclose(s);
}

/* The attributes of a grid's dataset; a problem for the first that is wrong. */
static void check_attrs(hid_t d, pv_h5_entry *e)
{
    char *why = NULL;
    for (int a = 0; a < 3 && !why; a++) {
        double r[2];
        int rc = read_doubles(d, pv_h5_range_attr[a], r, 2);
        if (rc < 0)
            why = pv_asprintf("has a %s attribute that is not two numbers", pv_h5_range_attr[a]);
        else if (rc > 0 && !(isnan(r[0]) && isnan(r[1])) && !(isfinite(r[0]) && isfinite(r[1])))
            why = pv_asprintf("has a %s of %g %g: a range is two finite numbers, or NaN NaN "
                              "(unset)", pv_h5_range_attr[a], r[0], r[1]);
        else if (rc > 0) {
            e->min[a] = r[0];
            e->max[a] = r[1];
        }
    }
    uint64_t size = 0;
    int rs = why ? 0 : read_u64(d, PV_H5_ATTR_SIZE, H5T_NSGN, &size);
    if (rs < 0)
        why = strdup("has a size attribute that is not one integer");
    else if (rs > 0 && e->n > 0 && size != (uint64_t)e->n)
        why = pv_asprintf("has a size attribute of %lld, but its dimensions are [%lld]³",
                          (long long)size, (long long)e->n);
    int rc = why ? 0 : read_u64(d, PV_H5_ATTR_CHECKSUM, H5T_SGN_NONE, &e->checksum);
    e->has_checksum = rc == 1;
    if (rc < 0)
        why = strdup("has a checksum attribute that is not one uint64");
    if (why && !e->problem)
        e->problem = why;
    else
        free(why);
}

static void scan_entry(hid_t grp, const char *name, uint64_t eof, pv_h5_entry *e,
                       scan_grid *sg)
{
    for (int a = 0; a < 3; a++)
        e->min[a] = e->max[a] = NAN;
    sg->offset = UINT64_MAX;
    sg->kind = 0;
    hid_t obj = H5Oopen(grp, name, H5P_DEFAULT);
    if (obj < 0 || H5Iget_type(obj) != H5I_DATASET) {
        e->problem = strdup("is not a dataset");
    } else {
        check_dataset(obj, eof, e, sg);
        check_attrs(obj, e);
        if (!e->problem && name[0] != '$')
            e->problem = strdup("is not a grid name (pvox grid names start with $)");
    }
    if (obj >= 0)
        H5Oclose(obj);
}

/* ---- the walk (in the child) ------------------------------------------------------------ */

typedef struct name_list {
    char **name;
    size_t n, cap, max;
    bool oom;
} name_list;

static herr_t collect(hid_t g, const char *name, const H5L_info_t *info, void *ud)
{
    name_list *nl = ud;
    (void)g;
    (void)info;
    if (nl->n >= nl->max)
        return -1; /* more links than the group said it holds */
    if (nl->n == nl->cap) {
        size_t cap = nl->cap ? 2 * nl->cap : 16;
        char **nn = realloc(nl->name, cap * sizeof *nn);
        if (!nn) {
            nl->oom = true;
            return -1;
        }
        nl->name = nn;
        nl->cap = cap;
    }
    if (!(nl->name[nl->n] = strdup(name))) {
        nl->oom = true;
        return -1;
    }
    nl->n++;
    return 0;
}

static void names_clear(name_list *nl)
{
    for (size_t k = 0; k < nl->n; k++)
        free(nl->name[k]);
    nl->n = 0;
}

/* The scan's result: the info, or an error (message, I/O rather than HDF5). */
typedef struct scan_out {
    pv_h5_info info;
    scan_grid *sg;
    char *err;
    bool eio;
} scan_out;

#define SCAN_FAIL(o, io, ...)                                                                  \
    do {                                                                                       \
        (o)->err = pv_asprintf(__VA_ARGS__);                                                   \
        (o)->eio = (io);                                                                       \
    } while (0)

/* The open failed: say why. */
static void open_failed(scan_out *o, const char *path)
{
    o->err = pv_h5_open_failure(path, &o->eio);
}

static void scan_root(hid_t file, const char *path, scan_out *o, uint64_t *meta, int *has_meta)
{
    pv_h5_info *in = &o->info;
    double fmt = 0;
    int rf = read_doubles(file, PV_H5_ATTR_FORMAT, &fmt, 1);
    if (rf < 0 || (rf > 0 && !(fmt >= 0 && fmt <= 1e6 && fmt == floor(fmt)))) {
        SCAN_FAIL(o, true, "%s: damaged: the pvox_format attribute is not a format number", path);
        return;
    }
    in->format_version = (int)fmt;
    static const char *const names[5] = {PV_H5_ATTR_VERSION, PV_H5_ATTR_CREATED,
                                         PV_H5_ATTR_SCRIPT, PV_H5_ATTR_JOB_HASH,
                                         PV_H5_ATTR_JOB_STATE};
    char **dst[5] = {&in->pvox_version, &in->created, &in->script, &in->job_hash,
                     &in->job_state};
    for (int k = 0; k < 5; k++) {
        if (read_string(file, names[k], dst[k]) < 0) {
            SCAN_FAIL(o, true, "%s: damaged: the %s attribute is not one string", path, names[k]);
            return;
        }
        if (!*dst[k] && !(*dst[k] = strdup(""))) {
            SCAN_FAIL(o, false, "out of memory");
            return;
        }
    }
    *has_meta = read_u64(file, PV_H5_ATTR_META_CHECKSUM, H5T_SGN_NONE, meta);
    if (*has_meta < 0)
        SCAN_FAIL(o, true, "%s: damaged: the %s attribute is not one uint64", path,
                  PV_H5_ATTR_META_CHECKSUM);
    else if (in->format_version > PV_H5_FORMAT_VERSION)
        SCAN_FAIL(o, true, "%s: checkpoint format %d is newer than this pvox reads (%d)", path,
                  in->format_version, PV_H5_FORMAT_VERSION);
}

static void scan_grids(hid_t file, const char *path, uint64_t eof, scan_out *o)
{
    if (H5Lexists(file, PV_H5_GROUP, H5P_DEFAULT) <= 0) {
        SCAN_FAIL(o, true, "%s: not a pvox checkpoint (no " PV_H5_GROUP " group)", path);
        return;
    }
    hid_t grp = H5Gopen2(file, PV_H5_GROUP, H5P_DEFAULT);
    H5G_info_t gi;
    if (grp < 0 || H5Gget_info(grp, &gi) < 0 || gi.nlinks > MAX_GRIDS) {
        SCAN_FAIL(o, true, "%s: damaged: cannot list " PV_H5_GROUP, path);
        if (grp >= 0)
            H5Gclose(grp);
        return;
    }
    name_list nl = {.max = (size_t)gi.nlinks};
    hsize_t idx = 0;
    herr_t rc = H5Literate(grp, H5_INDEX_CRT_ORDER, H5_ITER_INC, &idx, collect, &nl);
    if (rc < 0 && !nl.oom) { /* files that do not track creation order: name order */
        names_clear(&nl);
        idx = 0;
        rc = H5Literate(grp, H5_INDEX_NAME, H5_ITER_INC, &idx, collect, &nl);
    }
    if (nl.oom)
        SCAN_FAIL(o, false, "out of memory");
    else if (rc < 0 || nl.n != (size_t)gi.nlinks)
        SCAN_FAIL(o, true, "%s: damaged: cannot list " PV_H5_GROUP, path);
    pv_h5_info *in = &o->info;
    if (!o->err && nl.n > 0 &&
        (!(in->grids = calloc(nl.n, sizeof *in->grids)) || !(o->sg = calloc(nl.n, sizeof *o->sg))))
        SCAN_FAIL(o, false, "out of memory");
    for (size_t k = 0; k < nl.n && !o->err; k++) {
        in->grids[k].name = nl.name[k];
        nl.name[k] = NULL;
        in->ngrids = k + 1;
        scan_entry(grp, in->grids[k].name, eof, &in->grids[k], &o->sg[k]);
    }
    names_clear(&nl);
    free(nl.name);
    H5Gclose(grp);
}

/* Everything the child does: open, walk, check. */
static void scan_file(const char *path, scan_out *o)
{
    pv_h5_quiet();
    struct stat sb;
    uint64_t eof = stat(path, &sb) == 0 ? (uint64_t)sb.st_size : 0;
    hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
    hid_t file = fapl < 0 || H5Pset_fapl_sec2(fapl) < 0 ? -1 : H5Fopen(path, H5F_ACC_RDONLY, fapl);
    if (file < 0)
        open_failed(o, path);
    if (fapl >= 0)
        H5Pclose(fapl);
    if (file < 0)
        return;
    uint64_t meta = 0;
    int has_meta = 0;
    scan_root(file, path, o, &meta, &has_meta);
    if (!o->err)
        scan_grids(file, path, eof, o);
    if (!o->err && has_meta > 0) {
        const pv_h5_info *in = &o->info;
        uint64_t h;
        pv_h5_meta_head(&h, in->format_version, in->pvox_version, in->created, in->script,
                        in->job_hash, in->job_state, in->ngrids);
        for (size_t k = 0; k < in->ngrids; k++) {
            const pv_h5_entry *e = &in->grids[k];
            pv_h5_meta_grid(&h, e->name, e->n, e->min, e->max, e->has_checksum, e->checksum,
                            o->sg[k].offset, o->sg[k].kind);
        }
        if (h != meta)
            SCAN_FAIL(o, true, "%s: damaged: its metadata (grid names, sizes, ranges, "
                      "checksums, job state) has checksum %016llx, the file records %016llx",
                      path, (unsigned long long)h, (unsigned long long)meta);
    }
    H5Fclose(file);
}

/* ---- the encoding sent through the pipe ------------------------------------------------ */

typedef struct wbuf {
    char *p;
    size_t len, cap;
    bool oom;
} wbuf;

static void put(wbuf *b, const void *p, size_t n)
{
    if (b->oom)
        return;
    if (b->len + n > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->len + n)
            cap *= 2;
        char *q = realloc(b->p, cap);
        if (!q) {
            b->oom = true;
            return;
        }
        b->p = q;
        b->cap = cap;
    }
    memcpy(b->p + b->len, p, n);
    b->len += n;
}

static void put_u64(wbuf *b, uint64_t v) { put(b, &v, sizeof v); }

static void put_str(wbuf *b, const char *s)
{
    if (!s) {
        put_u64(b, UINT64_MAX);
        return;
    }
    size_t n = strlen(s);
    put_u64(b, n);
    put(b, s, n);
}

/* 'E' eio message, or 'I' info. */
static void encode(const scan_out *o, wbuf *b)
{
    if (o->err) {
        put(b, o->eio ? "E" : "H", 1);
        put_str(b, o->err);
        return;
    }
    const pv_h5_info *in = &o->info;
    put(b, "I", 1);
    put_u64(b, (uint64_t)(int64_t)in->format_version);
    put_str(b, in->pvox_version);
    put_str(b, in->created);
    put_str(b, in->script);
    put_str(b, in->job_hash);
    put_str(b, in->job_state);
    put_u64(b, in->ngrids);
    for (size_t k = 0; k < in->ngrids; k++) {
        const pv_h5_entry *e = &in->grids[k];
        put_str(b, e->name);
        put_u64(b, (uint64_t)e->n);
        put(b, e->min, sizeof e->min);
        put(b, e->max, sizeof e->max);
        put_str(b, e->problem);
        put_u64(b, e->has_checksum);
        put_u64(b, e->checksum);
    }
}

typedef struct rbuf {
    const char *p;
    size_t len, pos;
    bool bad;
} rbuf;

static void get(rbuf *b, void *out, size_t n)
{
    if (b->bad || b->len - b->pos < n) {
        b->bad = true;
        memset(out, 0, n);
        return;
    }
    memcpy(out, b->p + b->pos, n);
    b->pos += n;
}

static uint64_t get_u64(rbuf *b)
{
    uint64_t v;
    get(b, &v, sizeof v);
    return v;
}

/* A string (NULL for none, or when out of memory: *oom). */
static char *get_str(rbuf *b, bool *oom)
{
    uint64_t n = get_u64(b);
    if (b->bad || n == UINT64_MAX)
        return NULL;
    if (n > b->len - b->pos) {
        b->bad = true;
        return NULL;
    }
    char *s = malloc((size_t)n + 1);
    if (!s) {
        *oom = true;
        b->bad = true;
        return NULL;
    }
    memcpy(s, b->p + b->pos, (size_t)n);
    s[n] = '\0';
    b->pos += (size_t)n;
    return s;
}

void pv_h5_info_free(pv_h5_info *in)
{
    for (size_t k = 0; k < in->ngrids; k++) {
        free(in->grids[k].name);
        free(in->grids[k].problem);
    }
    free(in->grids);
    free(in->pvox_version);
    free(in->created);
    free(in->script);
    free(in->job_hash);
    free(in->job_state);
    memset(in, 0, sizeof *in);
}

int pv_h5_scan_decode(const char *blob, size_t len, pv_h5_info *in, char **err)
{
    rbuf b = {blob, len, 0, false};
    bool oom = false;
    memset(in, 0, sizeof *in);
    *err = NULL;
    char tag = 0;
    get(&b, &tag, 1);
    if (tag == 'E' || tag == 'H') {
        *err = get_str(&b, &oom);
        return *err ? (tag == 'E' ? 1 : 2) : -1;
    }
    if (tag != 'I')
        return -1;
    in->format_version = (int)(int64_t)get_u64(&b);
    in->pvox_version = get_str(&b, &oom);
    in->created = get_str(&b, &oom);
    in->script = get_str(&b, &oom);
    in->job_hash = get_str(&b, &oom);
    in->job_state = get_str(&b, &oom);
    uint64_t n = get_u64(&b);
    if (!b.bad && n > 0 && n <= len && !(in->grids = calloc((size_t)n, sizeof *in->grids)))
        oom = true;
    for (uint64_t k = 0; k < n && in->grids && !b.bad; k++) {
        pv_h5_entry *e = &in->grids[k];
        in->ngrids = (size_t)k + 1;
        e->name = get_str(&b, &oom);
        e->n = (int64_t)get_u64(&b);
        get(&b, e->min, sizeof e->min);
        get(&b, e->max, sizeof e->max);
        e->problem = get_str(&b, &oom);
        e->has_checksum = get_u64(&b) != 0;
        e->checksum = get_u64(&b);
        if (!e->name)
            b.bad = true;
    }
    if (b.bad || (n > 0 && !in->grids) || b.pos != len || !in->pvox_version || !in->created ||
        !in->script || !in->job_hash || !in->job_state) {
        pv_h5_info_free(in);
        return oom ? -2 : -1;
    }
    return 0;
}

/* ---- the child ------------------------------------------------------------------------ */

static bool write_all(int fd, const char *p, size_t len)
{
    while (len > 0) {
        ssize_t w = write(fd, p, len);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return false;
        p += w;
        len -= (size_t)w;
    }
    return true;
}

/* In an AddressSanitizer build (the sanitizer suite, tests/README.md) the faults libhdf5
 * makes reading a damaged file inside the child are what the child is for: they are
 * reported under LOG_PATH.contained.<pid> beside the suite's other reports (log_path of
 * ASAN_OPTIONS), where tools/sanitizer/reports.sh accepts one whose fault lies in
 * libhdf5 and fails one whose fault lies in pvox's own code. */
static void contain_sanitizer_reports(void)
{
#ifdef PV_SCAN_ASAN
    const char *opts = getenv("ASAN_OPTIONS");
    const char *lp = opts ? strstr(opts, "log_path=") : NULL;
    if (!lp)
        return;
    lp += 9;
    size_t n = strcspn(lp, ":");
    char *path = pv_asprintf("%.*s.contained", (int)n, lp);
    if (path)
        __sanitizer_set_report_path(path); /* copied by the runtime */
    free(path);
#endif
}

/* The scan as a child job: its encoded result into *out. */
static bool scan_job(const char *path, void *ud, char **out, size_t *len)
{
    (void)ud;
    scan_out o;
    memset(&o, 0, sizeof o);
    scan_file(path, &o);
    wbuf b = {0};
    encode(&o, &b);
    pv_h5_info_free(&o.info);
    free(o.sg);
    free(o.err);
    if (b.oom) {
        free(b.p);
        return false;
    }
    *out = b.p;
    *len = b.len;
    return true;
}

static void child_main(const char *path, pv_h5_child_fn fn, void *ud, int fd)
{
    contain_sanitizer_reports();
    /* a loop in damaged metadata ends here; libc's own complaints (a corrupted heap)
     * stay out of the run's output: the parent reports the failure */
    signal(SIGALRM, SIG_DFL);
    alarm(SCAN_SECONDS);
    int null = open("/dev/null", O_WRONLY | O_CLOEXEC);
    if (null >= 0) {
        dup2(null, STDERR_FILENO);
        dup2(null, STDOUT_FILENO);
        close(null);
    }
    char *out = NULL;
    size_t len = 0;
    bool ok = fn(path, ud, &out, &len) && write_all(fd, out, len);
    close(fd);
    _exit(ok ? 0 : 1); /* no atexit handlers: HDF5's and MPI's belong to the parent */
}

/* PVOX_H5_SCAN=inline: the job in the process itself, for sites where a process that
 * uses an RDMA network must not fork (old kernels and verbs stacks); a damaged file may
 * then crash the run. */
static int run_inline(const char *path, pv_h5_child_fn fn, void *ud, char **blob, size_t *len,
                      char **why)
{
    if (!fn(path, ud, blob, len)) {
        *why = strdup("out of memory");
        return -2;
    }
    return 0;
}

int pv_h5_child_run(const char *path, pv_h5_child_fn fn, void *ud, char **blob, size_t *len,
                    char **why)
{
    *blob = NULL;
    *len = 0;
    *why = NULL;
    const char *mode = getenv("PVOX_H5_SCAN");
    if (mode && strcmp(mode, "inline") == 0)
        return run_inline(path, fn, ud, blob, len, why);
    int pfd[2];
    if (pipe(pfd) != 0) {
        *why = pv_asprintf("%s: cannot read the metadata: pipe: %s", path, strerror(errno));
        return -1;
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        *why = pv_asprintf("%s: cannot read the metadata: fork: %s", path, strerror(errno));
        close(pfd[0]);
        close(pfd[1]);
        return -1;
    }
    if (pid == 0) {
        close(pfd[0]);
        child_main(path, fn, ud, pfd[1]);
    }
    close(pfd[1]);
    wbuf b = {0};
    char chunk[65536];
    for (;;) {
        ssize_t r = read(pfd[0], chunk, sizeof chunk);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        put(&b, chunk, (size_t)r);
    }
    close(pfd[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (b.oom) {
        free(b.p);
        *why = strdup("out of memory");
        return -2;
    }
    if (WIFSIGNALED(status) || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        free(b.p);
        int sig = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
        if (sig == SIGALRM)
            *why = pv_asprintf("%s: damaged: reading its HDF5 metadata did not end within %d s",
                               path, SCAN_SECONDS);
        else if (sig)
            *why = pv_asprintf("%s: damaged: its HDF5 metadata cannot be read (the HDF5 library "
                               "failed on it with signal %d, in a process of its own)", path, sig);
        else
            *why = pv_asprintf("%s: cannot read the metadata (the reading process failed)", path);
        return -1;
    }
    *blob = b.p;
    *len = b.len;
    return 0;
}

int pv_h5_scan(const char *path, char **blob, size_t *len, char **why)
{
    return pv_h5_child_run(path, scan_job, NULL, blob, len, why);
}
