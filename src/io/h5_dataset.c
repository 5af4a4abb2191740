/*
 * io/h5_dataset: any program's 3D numeric HDF5 dataset read into a box of voxels
 * (pvox/h5.h "datasets of other programs"; README "Bringing your data").
 *
 * Opening. Rank 0 looks at the file alone (pv_h5_precheck: exists, HDF5 signature), then
 * a child process (pv_h5_child_run, as the checkpoint scan in h5_meta.c: a foreign
 * file's metadata can be damaged too, and libhdf5 may crash on it) finds the dataset,
 * checks its type, shape and filters, and reads where the file places the axes:
 *   - VTKHDF ImageData: /VTKHDF's WholeExtent, Origin and Spacing for an array under
 *     /VTKHDF/PointData (nodes) or /VTKHDF/CellData (cell centres), stored [z][y][x];
 *   - netCDF-4: the coordinate variables (dimension scales, the DIMENSION_LIST
 *     attribute) of the dimensions, when they are uniform;
 *   - vxrange, vyrange, vzrange attributes of the dataset (pvox's own grids).
 * The child sends one fixed-size record through the pipe; the parent broadcasts it, and
 * every rank then opens the file with MPI-IO and the dataset the child found.
 *
 * Reading. A rank's planes [z0, z1) are one hyperslab: the z dimension (wherever the
 * order puts it) restricted to the planes, the others whole. It is read collectively in
 * calls of at most PV_H5_PIPE_BYTES (and max_io) per rank in the file's own type (HDF5
 * then moves bytes only: conversion would make HDF5 1.10 give up collective I/O), and
 * each call's elements are converted and reordered into the caller's layout by the
 * rank's threads. A float32 (or float64, into doubles) dataset in "zyx" order whose box
 * is the caller's is read straight into the caller's buffer.
 */
#define _DEFAULT_SOURCE /* madvise's MADV_HUGEPAGE */
#include <math.h>
#include <omp.h>
#include <stdint.h>
#include <sys/mman.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "h5_int.h"

/* Numeric element types, as read into memory. */
enum { T_I8, T_U8, T_I16, T_U16, T_I32, T_U32, T_I64, T_U64, T_F32, T_F64, T_COUNT };

static hid_t mem_type(int t)
{
    switch (t) {
    case T_I8: return H5T_NATIVE_INT8;
    case T_U8: return H5T_NATIVE_UINT8;
    case T_I16: return H5T_NATIVE_INT16;
    case T_U16: return H5T_NATIVE_UINT16;
    case T_I32: return H5T_NATIVE_INT32;
    case T_U32: return H5T_NATIVE_UINT32;
    case T_I64: return H5T_NATIVE_INT64;
    case T_U64: return H5T_NATIVE_UINT64;
    case T_F32: return H5T_NATIVE_FLOAT;
    default: return H5T_NATIVE_DOUBLE;
    }
}

static const size_t type_size[T_COUNT] = {1, 1, 2, 2, 4, 4, 8, 8, 4, 8};

/* The file's own big-endian type: read as stored (a conversion in H5Dread would make it
 * independent I/O), swapped by swap_bytes. */
static hid_t be_type(int t)
{
    switch (t) {
    case T_I8: return H5T_STD_I8BE;
    case T_U8: return H5T_STD_U8BE;
    case T_I16: return H5T_STD_I16BE;
    case T_U16: return H5T_STD_U16BE;
    case T_I32: return H5T_STD_I32BE;
    case T_U32: return H5T_STD_U32BE;
    case T_I64: return H5T_STD_I64BE;
    case T_U64: return H5T_STD_U64BE;
    case T_F32: return H5T_IEEE_F32BE;
    default: return H5T_IEEE_F64BE;
    }
}

/* Reverse the bytes of `count` elements of `size` bytes (big-endian -> this machine). */
static void swap_bytes(void *buf, size_t count, size_t size, int nthreads)
{
    unsigned char *b = buf;
    if (size == 1)
        return;
#pragma omp parallel for num_threads(nthreads) schedule(static) default(none) shared(b, count, size)
    for (size_t i = 0; i < count; i++) {
        unsigned char *e = b + i * size;
        for (size_t lo = 0, hi = size - 1; lo < hi; lo++, hi--) {
            unsigned char t = e[lo];
            e[lo] = e[hi];
            e[hi] = t;
        }
    }
}

#define MAX_DIM ((int64_t)1 << 20) /* elements per dimension (as pvox's largest grid) */
#define DTEXT 1024                  /* room for a message or a path in the record */

/* What the child found: a plain record, sent as bytes (same program, same layout). */
typedef struct probe {
    int rc;                /* 0 found; 1 an I/O-class error in msg; 2 an HDF5-class one */
    char msg[DTEXT];
    char path[DTEXT];      /* the dataset's path in the file */
    int tcode;             /* T_* */
    char type[16];
    char layout[96];
    int64_t dims[3];
    bool dhas[3];          /* dimension k placed (VTKHDF, netCDF coordinates) */
    double dmin[3], dstep[3];
    char dgeo[32];
    bool ahas[3];          /* axis a placed by v?range attributes */
    double amin[3], amax[3];
    bool allocated;        /* storage exists (else every element is the fill value) */
    double fill;           /* the fill value */
    bool big_endian;       /* stored big-endian: read as such, swapped here */
} probe;

struct pv_h5_dataset {
    char *file;            /* as given, for messages */
    pv_h5_dset_info info;
    int axis[3];           /* axis of dimension k */
    int dim_of[3];         /* dimension of axis a */
    int tcode;
    bool big_endian;
    hid_t fid, dset;
    size_t max_io;
    bool allocated;
    double fill;
};

bool pv_h5_order_parse(const char *order, int axis[3])
{
    if (!order || strlen(order) != 3)
        return false;
    bool seen[3] = {false, false, false};
    for (int k = 0; k < 3; k++) {
        int a = order[k] - 'x';
        if (a < 0 || a > 2 || seen[a])
            return false;
        seen[a] = true;
        axis[k] = a;
    }
    return true;
}

/* ---- the child: find, check, place ---------------------------------------------------- */

#define FAIL(p, code, ...) (snprintf((p)->msg, DTEXT, __VA_ARGS__), (p)->rc = (code))

/* Object info and the object walk changed their signatures in HDF5 1.12. */
#if H5_VERSION_GE(1, 12, 0)
typedef H5O_info2_t obj_info;
#define OBJ_INFO_BY_NAME(f, p, oi) H5Oget_info_by_name3(f, p, oi, H5O_INFO_BASIC, H5P_DEFAULT)
#define OBJ_VISIT(f, cb, ud) H5Ovisit3(f, H5_INDEX_NAME, H5_ITER_NATIVE, cb, ud, H5O_INFO_BASIC)
#else
typedef H5O_info_t obj_info;
#define OBJ_INFO_BY_NAME(f, p, oi) H5Oget_info_by_name(f, p, oi, H5P_DEFAULT)
#define OBJ_VISIT(f, cb, ud) H5Ovisit(f, H5_INDEX_NAME, H5_ITER_NATIVE, cb, ud)
#endif

/* Does `path` name an object of the file? Each link on the way is checked first (H5Lexists
 * of "a/b" fails when "a" is missing). */
static bool path_exists(hid_t file, const char *path)
{
    char buf[DTEXT];
    if (snprintf(buf, sizeof buf, "%s", path) >= (int)sizeof buf)
        return false;
    for (char *p = buf + (buf[0] == '/'); *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        bool ok = H5Lexists(file, buf, H5P_DEFAULT) > 0;
        *p = '/';
        if (!ok)
            return false;
    }
    return strcmp(buf, "/") != 0 && H5Lexists(file, buf, H5P_DEFAULT) > 0 &&
           H5Oexists_by_name(file, buf, H5P_DEFAULT) > 0;
}

static bool is_dataset(hid_t file, const char *path)
{
    obj_info oi;
    return path_exists(file, path) && OBJ_INFO_BY_NAME(file, path, &oi) >= 0 &&
           oi.type == H5O_TYPE_DATASET;
}

/* Up to a few dataset names of the file, for the message of a missing one. */
typedef struct names {
    char buf[400];
    int count;
} names;

static herr_t list_one(hid_t o, const char *name, const obj_info *info, void *ud)
{
    (void)o;
    names *nl = ud;
    if (info->type != H5O_TYPE_DATASET)
        return 0;
    if (nl->count == 8) {
        strncat(nl->buf, ", ...", sizeof nl->buf - strlen(nl->buf) - 1);
        return 1;
    }
    size_t used = strlen(nl->buf);
    snprintf(nl->buf + used, sizeof nl->buf - used, "%s\"%s\"", nl->count ? ", " : "", name);
    nl->count++;
    return 0;
}

/* Find the dataset: the path as given; in a VTKHDF file a bare name under PointData,
 * then CellData. */
static void resolve(hid_t file, const char *name, probe *p)
{
    if (is_dataset(file, name)) {
        snprintf(p->path, DTEXT, "%s%s", name[0] == '/' ? "" : "/", name);
        return;
    }
    static const char *const vtk[2] = {"/VTKHDF/PointData/", "/VTKHDF/CellData/"};
    for (int k = 0; k < 2 && !strchr(name, '/'); k++) {
        char path[DTEXT];
        if (snprintf(path, sizeof path, "%s%s", vtk[k], name) < (int)sizeof path &&
            is_dataset(file, path)) {
            snprintf(p->path, DTEXT, "%s", path);
            return;
        }
    }
    names nl = {{0}, 0};
    OBJ_VISIT(file, list_one, &nl);
    if (path_exists(file, name))
        FAIL(p, 1, "dataset \"%s\" is a group, not a dataset%s%s%s", name,
             nl.count ? " (datasets in the file: " : "", nl.buf, nl.count ? ")" : "");
    else
        FAIL(p, 1, "no dataset \"%s\"%s%s%s", name,
             nl.count ? " (datasets in the file: " : " (the file has no datasets)", nl.buf,
             nl.count ? ")" : "");
}

/* The element type: p->tcode and p->type, or a failure. */
static void check_type(hid_t t, const char *name, probe *p)
{
    size_t size = H5Tget_size(t);
    H5T_class_t cl = H5Tget_class(t);
    const char *what = NULL;
    switch (cl) {
    case H5T_INTEGER: {
        bool sgn = H5Tget_sign(t) != H5T_SGN_NONE;
        int lg = size == 1 ? 0 : size == 2 ? 1 : size == 4 ? 2 : size == 8 ? 3 : -1;
        if (lg < 0) {
            FAIL(p, 1, "dataset \"%s\" has %zu-byte integers, which pvox does not read (8, 16, "
                 "32 or 64 bits)", name, size);
            return;
        }
        p->tcode = 2 * lg + (sgn ? 0 : 1);
        p->big_endian = H5Tget_order(t) == H5T_ORDER_BE;
        snprintf(p->type, sizeof p->type, "%sint%zu", sgn ? "" : "u", size * 8);
        return;
    }
    case H5T_FLOAT:
        if (size != 4 && size != 8) {
            FAIL(p, 1, "dataset \"%s\" has %zu-byte floating-point numbers, which pvox does not "
                 "read (float32 or float64)", name, size);
            return;
        }
        p->tcode = size == 4 ? T_F32 : T_F64;
        p->big_endian = H5Tget_order(t) == H5T_ORDER_BE;
        snprintf(p->type, sizeof p->type, "float%zu", size * 8);
        return;
    case H5T_STRING: what = "strings"; break;
    case H5T_COMPOUND: what = "compound records"; break;
    case H5T_ENUM: what = "enumerated values"; break;
    case H5T_ARRAY: what = "arrays"; break;
    case H5T_VLEN: what = "variable-length sequences"; break;
    case H5T_REFERENCE: what = "references"; break;
    case H5T_OPAQUE: what = "opaque bytes"; break;
    case H5T_BITFIELD: what = "bit fields"; break;
    default: what = "elements of an unknown type"; break;
    }
    FAIL(p, 1, "dataset \"%s\" holds %s, not numbers", name, what);
}

/* Layout and filters; a filter the library lacks is a failure. */
static void check_layout(hid_t d, const char *name, probe *p)
{
    hid_t dcpl = H5Dget_create_plist(d);
    if (dcpl < 0) {
        FAIL(p, 2, "dataset \"%s\": cannot read its storage properties", name);
        return;
    }
    H5D_layout_t lay = H5Pget_layout(dcpl);
    snprintf(p->layout, sizeof p->layout, "%s",
             lay == H5D_CHUNKED ? "chunked" : lay == H5D_COMPACT ? "compact" : "contiguous");
    int nf = H5Pget_nfilters(dcpl);
    for (int k = 0; k < nf && k < 16 && p->rc == 0; k++) {
        unsigned flags = 0, cd[8];
        size_t ncd = 8;
        char fname[64] = "";
        H5Z_filter_t id = H5Pget_filter2(dcpl, (unsigned)k, &flags, &ncd, cd, sizeof fname,
                                         fname, NULL);
        fname[sizeof fname - 1] = '\0';
        const char *known = id == H5Z_FILTER_DEFLATE ? "deflate" : id == H5Z_FILTER_SHUFFLE
            ? "shuffle" : id == H5Z_FILTER_FLETCHER32 ? "fletcher32" : id == H5Z_FILTER_SZIP
            ? "szip" : id == H5Z_FILTER_NBIT ? "nbit" : id == H5Z_FILTER_SCALEOFFSET
            ? "scaleoffset" : fname[0] ? fname : "unnamed";
        size_t used = strlen(p->layout);
        snprintf(p->layout + used, sizeof p->layout - used, "%s%s", k ? ", " : " (", known);
        if (id < 0 || H5Zfilter_avail(id) <= 0)
            FAIL(p, 1, "dataset \"%s\" uses filter %d (%s), which this HDF5 library lacks",
                 name, (int)id, known);
    }
    if (nf > 0 && p->rc == 0)
        strncat(p->layout, ")", sizeof p->layout - strlen(p->layout) - 1);
    double fv = 0;
    if (H5Pget_fill_value(dcpl, H5T_NATIVE_DOUBLE, &fv) >= 0 && isfinite(fv))
        p->fill = fv;
    H5Pclose(dcpl);
}

/* Up to `count` numbers of a numeric attribute of loc, as doubles: true if read. */
static bool attr_doubles(hid_t loc, const char *name, double *out, hssize_t count)
{
    if (H5Aexists(loc, name) <= 0)
        return false;
    hid_t a = H5Aopen(loc, name, H5P_DEFAULT);
    hid_t t = a < 0 ? -1 : H5Aget_type(a);
    hid_t s = a < 0 ? -1 : H5Aget_space(a);
    H5T_class_t cl = t < 0 ? H5T_NO_CLASS : H5Tget_class(t);
    bool ok = (cl == H5T_FLOAT || cl == H5T_INTEGER) && H5Tget_size(t) <= 8 && s >= 0 &&
              H5Sget_simple_extent_npoints(s) == count &&
              H5Aread(a, H5T_NATIVE_DOUBLE, out) >= 0;
    if (s >= 0)
        H5Sclose(s);
    if (t >= 0)
        H5Tclose(t);
    if (a >= 0)
        H5Aclose(a);
    return ok;
}

/* Is the string attribute `name` of loc `want` (fixed or variable length)? */
static bool attr_is(hid_t loc, const char *name, const char *want, bool prefix)
{
    if (H5Aexists(loc, name) <= 0)
        return false;
    hid_t a = H5Aopen(loc, name, H5P_DEFAULT);
    hid_t t = a < 0 ? -1 : H5Aget_type(a);
    bool ok = false;
    if (t >= 0 && H5Tget_class(t) == H5T_STRING) {
        char buf[256] = "";
        if (H5Tis_variable_str(t) > 0) {
            char *v = NULL;
            hid_t mt = H5Tcopy(H5T_C_S1);
            if (mt >= 0 && H5Tset_size(mt, H5T_VARIABLE) >= 0 && H5Aread(a, mt, &v) >= 0 && v) {
                snprintf(buf, sizeof buf, "%s", v);
                H5free_memory(v);
            }
            if (mt >= 0)
                H5Tclose(mt);
        } else if (H5Tget_size(t) < sizeof buf) {
            if (H5Aread(a, t, buf) < 0)
                buf[0] = '\0';
            buf[H5Tget_size(t)] = '\0';
        }
        ok = prefix ? strncmp(buf, want, strlen(want)) == 0 : strcmp(buf, want) == 0;
    }
    if (t >= 0)
        H5Tclose(t);
    if (a >= 0)
        H5Aclose(a);
    return ok;
}

/* VTKHDF ImageData: WholeExtent, Origin and Spacing of /VTKHDF (x y z), the array stored
 * [z][y][x]; point data sit on the nodes, cell data at the cell centres. */
static void place_vtkhdf(hid_t file, probe *p)
{
    bool cell = strncmp(p->path, "/VTKHDF/CellData/", 17) == 0;
    if (!cell && strncmp(p->path, "/VTKHDF/PointData/", 18) != 0)
        return;
    hid_t g = H5Gopen2(file, "/VTKHDF", H5P_DEFAULT);
    if (g < 0)
        return;
    double ext[6], org[3], sp[3];
    if (attr_is(g, "Type", "ImageData", false) && attr_doubles(g, "WholeExtent", ext, 6) &&
        attr_doubles(g, "Origin", org, 3) && attr_doubles(g, "Spacing", sp, 3)) {
        bool match = true;
        for (int a = 0; a < 3; a++)
            match = match && ext[2 * a + 1] - ext[2 * a] + (cell ? 0 : 1) ==
                             (double)p->dims[2 - a];
        for (int a = 0; a < 3 && match; a++) {
            int k = 2 - a;
            p->dhas[k] = isfinite(org[a]) && isfinite(sp[a]) && sp[a] != 0;
            p->dmin[k] = org[a] + (ext[2 * a] + (cell ? 0.5 : 0.0)) * sp[a];
            p->dstep[k] = sp[a];
        }
        if (match)
            snprintf(p->dgeo, sizeof p->dgeo, "VTKHDF");
    }
    H5Gclose(g);
}

/* A netCDF-4 coordinate variable: a 1D numeric dimension scale of `len` values (not one
 * of netCDF's bare dimensions, which hold no values); uniform: its first value and step. */
static bool uniform_scale(hid_t s, int64_t len, double *first, double *step)
{
    if (attr_is(s, "NAME", "This is a netCDF dimension but not a netCDF variable", true))
        return false;
    hid_t sp = H5Dget_space(s), t = H5Dget_type(s);
    hsize_t n = 0;
    bool ok = sp >= 0 && t >= 0 && H5Sget_simple_extent_ndims(sp) == 1 &&
              H5Sget_simple_extent_dims(sp, &n, NULL) == 1 && (int64_t)n == len && len >= 2 &&
              (H5Tget_class(t) == H5T_FLOAT || H5Tget_class(t) == H5T_INTEGER);
    double *v = ok ? malloc((size_t)len * sizeof *v) : NULL;
    ok = v && H5Dread(s, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, v) >= 0;
    if (ok) {
        double d = (v[len - 1] - v[0]) / (double)(len - 1);
        ok = isfinite(d) && d != 0;
        for (int64_t i = 0; i < len && ok; i++)
            ok = isfinite(v[i]) && fabs(v[i] - (v[0] + d * (double)i)) <= 1e-6 * fabs(d) * (double)len;
        *first = v ? v[0] : 0;
        *step = d;
    }
    free(v);
    if (t >= 0)
        H5Tclose(t);
    if (sp >= 0)
        H5Sclose(sp);
    return ok;
}

/* netCDF-4: each dimension's coordinate variable through DIMENSION_LIST (one list of
 * object references per dimension, HDF5's dimension scales). */
static void place_netcdf(hid_t d, probe *p)
{
    if (H5Aexists(d, "DIMENSION_LIST") <= 0)
        return;
    hid_t a = H5Aopen(d, "DIMENSION_LIST", H5P_DEFAULT);
    hid_t t = a < 0 ? -1 : H5Aget_type(a);
    hid_t s = a < 0 ? -1 : H5Aget_space(a);
    hid_t mt = H5Tvlen_create(H5T_STD_REF_OBJ);
    hvl_t vl[3];
    bool ok = t >= 0 && s >= 0 && mt >= 0 && H5Tget_class(t) == H5T_VLEN &&
              H5Sget_simple_extent_npoints(s) == 3 && H5Aread(a, mt, vl) >= 0;
    int placed = 0;
    for (int k = 0; k < 3 && ok; k++) {
        if (vl[k].len < 1 || !vl[k].p)
            continue;
        hobj_ref_t ref = ((const hobj_ref_t *)vl[k].p)[0];
        hid_t sc = H5Rdereference2(d, H5P_DEFAULT, H5R_OBJECT, &ref);
        double first, step;
        if (sc >= 0 && H5Iget_type(sc) == H5I_DATASET &&
            uniform_scale(sc, p->dims[k], &first, &step)) {
            p->dhas[k] = true;
            p->dmin[k] = first;
            p->dstep[k] = step;
            placed++;
        }
        if (sc >= 0)
            H5Oclose(sc);
    }
    if (ok)
        H5Dvlen_reclaim(mt, s, H5P_DEFAULT, vl);
    if (placed)
        snprintf(p->dgeo, sizeof p->dgeo, "netCDF coordinates");
    if (mt >= 0)
        H5Tclose(mt);
    if (s >= 0)
        H5Sclose(s);
    if (t >= 0)
        H5Tclose(t);
    if (a >= 0)
        H5Aclose(a);
}

/* pvox's own grids: vxrange, vyrange, vzrange (float64[2], NaN unset). */
static void place_ranges(hid_t d, probe *p)
{
    for (int a = 0; a < 3; a++) {
        double r[2];
        if (attr_doubles(d, pv_h5_range_attr[a], r, 2) && isfinite(r[0]) && isfinite(r[1])) {
            p->ahas[a] = true;
            p->amin[a] = r[0];
            p->amax[a] = r[1];
        }
    }
}

/* Everything the child does. */
static bool probe_job(const char *path, void *ud, char **out, size_t *len)
{
    const char *name = ud;
    probe *p = calloc(1, sizeof *p);
    if (!p)
        return false;
    pv_h5_quiet();
    hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
    hid_t file = fapl < 0 || H5Pset_fapl_sec2(fapl) < 0 ? -1 : H5Fopen(path, H5F_ACC_RDONLY, fapl);
    if (file < 0) {
        bool io = false;
        char *msg = pv_h5_open_failure(path, &io);
        snprintf(p->msg, DTEXT, "%s", msg ? msg : "cannot open the file");
        p->rc = io ? 1 : 2;
        free(msg);
    }
    if (fapl >= 0)
        H5Pclose(fapl);
    if (file >= 0)
        resolve(file, name, p);
    hid_t d = p->rc == 0 ? H5Dopen2(file, p->path, H5P_DEFAULT) : -1;
    if (p->rc == 0 && d < 0)
        FAIL(p, 2, "cannot open dataset \"%s\"", name);
    hid_t t = d >= 0 ? H5Dget_type(d) : -1;
    if (d >= 0 && t < 0)
        FAIL(p, 2, "dataset \"%s\": cannot read its type", name);
    if (t >= 0)
        check_type(t, name, p);
    hid_t s = p->rc == 0 ? H5Dget_space(d) : -1;
    if (p->rc == 0) {
        hsize_t dims[H5S_MAX_RANK];
        int nd = s < 0 ? -1 : H5Sget_simple_extent_ndims(s);
        if (nd < 0 || nd > H5S_MAX_RANK || H5Sget_simple_extent_dims(s, dims, NULL) != nd) {
            FAIL(p, 2, "dataset \"%s\": cannot read its shape", name);
        } else if (nd != 3) {
            char sh[128] = "";
            for (int k = 0; k < nd; k++)
                snprintf(sh + strlen(sh), sizeof sh - strlen(sh), "%s%llu", k ? "x" : "",
                         (unsigned long long)dims[k]);
            if (nd == 0)
                FAIL(p, 1, "dataset \"%s\" is a scalar, not 3D", name);
            else
                FAIL(p, 1, "dataset \"%s\" is %dD (%s), not 3D", name, nd, sh);
        } else {
            for (int k = 0; k < 3; k++) {
                p->dims[k] = (int64_t)dims[k];
                if (dims[k] < 1 || dims[k] > (hsize_t)MAX_DIM)
                    FAIL(p, 1, "dataset \"%s\" is %llux%llux%llu: each dimension must be "
                         "1 to %lld", name, (unsigned long long)dims[0],
                         (unsigned long long)dims[1], (unsigned long long)dims[2],
                         (long long)MAX_DIM);
            }
        }
    }
    if (p->rc == 0)
        check_layout(d, name, p);
    if (p->rc == 0) {
        H5D_space_status_t status;
        p->allocated = H5Dget_space_status(d, &status) < 0 ||
                       status != H5D_SPACE_STATUS_NOT_ALLOCATED;
        place_vtkhdf(file, p);
        if (!p->dgeo[0])
            place_netcdf(d, p);
        place_ranges(d, p);
    }
    if (s >= 0)
        H5Sclose(s);
    if (t >= 0)
        H5Tclose(t);
    if (d >= 0)
        H5Dclose(d);
    if (file >= 0)
        H5Fclose(file);
    *out = (char *)p;
    *len = sizeof *p;
    return true;
}

/* ---- opening ---------------------------------------------------------------------------- */

/* Collective: rank 0 probes in a child, every rank receives the record. */
static pv_status get_probe(pv_ctx *ctx, const char *file, const char *dataset, probe *p)
{
    pv_status st = PV_OK;
    if (ctx->rank == 0) {
        char *blob = NULL, *why = NULL;
        size_t len = 0;
        int rc = pv_h5_child_run(file, probe_job, (void *)dataset, &blob, &len, &why);
        if (rc == -2)
            st = pv_err(ctx, PV_ENOMEM, "out of memory");
        else if (rc != 0)
            st = pv_err(ctx, PV_EIO, "%s", why ? why : "cannot read the metadata");
        else if (len != sizeof *p)
            st = pv_err(ctx, PV_EIO, "%s: damaged: its HDF5 metadata cannot be read (the "
                        "reading process ended early)", file);
        else
            memcpy(p, blob, sizeof *p);
        free(blob);
        free(why);
    }
    if ((st = pv_status_agree(ctx, st)) != PV_OK)
        return st;
    if (MPI_Bcast(p, (int)sizeof *p, MPI_BYTE, 0, ctx->comm) != MPI_SUCCESS)
        st = pv_err(ctx, PV_EMPI, "MPI_Bcast failed");
    if ((st = pv_status_agree(ctx, st)) != PV_OK)
        return st;
    p->msg[DTEXT - 1] = p->path[DTEXT - 1] = '\0';
    if (p->rc == 1 || p->rc == 2)
        st = pv_err(ctx, p->rc == 1 ? PV_EIO : PV_EHDF5, "%s%s%s",
                    strncmp(p->msg, file, strlen(file)) == 0 ? "" : file,
                    strncmp(p->msg, file, strlen(file)) == 0 ? "" : ": ", p->msg);
    else if (p->rc != 0 || p->tcode < 0 || p->tcode >= T_COUNT)
        st = pv_err(ctx, PV_EIO, "%s: damaged: its HDF5 metadata cannot be read", file);
    return st;
}

/* The info of the opened dataset, through the order. */
static void fill_info(pv_h5_dataset *d, const probe *p)
{
    pv_h5_dset_info *in = &d->info;
    snprintf(in->type, sizeof in->type, "%s", p->type);
    snprintf(in->layout, sizeof in->layout, "%s", p->layout);
    for (int k = 0; k < 3; k++) {
        in->dims[k] = p->dims[k];
        d->dim_of[d->axis[k]] = k;
    }
    bool attrs = false;
    for (int a = 0; a < 3; a++) {
        int k = d->dim_of[a];
        int64_t n = in->n[a] = p->dims[k];
        if (p->ahas[a]) {
            in->has_range[a] = attrs = true;
            in->min[a] = p->amin[a];
            in->max[a] = p->amax[a];
            in->step[a] = n > 1 ? (p->amax[a] - p->amin[a]) / (double)(n - 1) : 0;
        } else if (p->dhas[k]) {
            in->has_range[a] = true;
            in->min[a] = p->dmin[k];
            in->step[a] = p->dstep[k];
            in->max[a] = p->dmin[k] + p->dstep[k] * (double)(n - 1);
        }
    }
    snprintf(in->geometry, sizeof in->geometry, "%s", attrs ? "vxrange attributes" : p->dgeo);
}

pv_h5_dataset *pv_h5_dataset_open(pv_ctx *ctx, const char *file, const char *dataset,
                                  const char *order, const pv_h5_opts *opt)
{
    pv_h5_quiet();
    int axis[3];
    if (!pv_h5_order_parse(order ? order : "zyx", axis)) {
        pv_err(ctx, PV_ESCRIPT, "order \"%s\" is not a permutation of \"xyz\"", order);
        pv_status_agree(ctx, PV_ESCRIPT);
        return NULL;
    }
    pv_status st = pv_status_agree(ctx, ctx->rank == 0 ? pv_h5_precheck(ctx, file) : PV_OK);
    if (st != PV_OK)
        return NULL;
    probe *p = calloc(1, sizeof *p);
    pv_h5_dataset *d = calloc(1, sizeof *d);
    if (d) {
        d->file = strdup(file);
        d->fid = d->dset = -1;
    }
    st = p && d && d->file ? PV_OK : pv_err(ctx, PV_ENOMEM, "out of memory");
    if ((st = pv_status_agree(ctx, st)) == PV_OK)
        st = get_probe(ctx, file, dataset, p);
    if (st == PV_OK) {
        memcpy(d->axis, axis, sizeof axis);
        d->tcode = p->tcode;
        d->big_endian = p->big_endian;
        d->allocated = p->allocated;
        d->fill = p->fill;
        d->max_io = opt && opt->max_io_bytes ? opt->max_io_bytes : PV_H5_DEFAULT_MAX_IO;
        fill_info(d, p);
        if (!(d->info.path = strdup(p->path)))
            st = pv_err(ctx, PV_ENOMEM, "out of memory");
        st = pv_status_agree(ctx, st);
    }
    free(p);
    if (st != PV_OK) {
        pv_h5_dataset_close(ctx, d);
        return NULL;
    }
    /* the child walked this metadata without harm: now every rank opens it */
    hid_t fapl = pv_h5_fapl(ctx, opt && opt->aggregate);
    d->fid = fapl < 0 ? -1 : H5Fopen(file, H5F_ACC_RDONLY, fapl);
    if (d->fid < 0) {
        bool io = false;
        char *msg = pv_h5_open_failure(file, &io);
        st = pv_err(ctx, io ? PV_EIO : PV_EHDF5, "%s", msg ? msg : file);
        free(msg);
    }
    if (fapl >= 0)
        H5Pclose(fapl);
    if (st == PV_OK && (d->dset = H5Dopen2(d->fid, d->info.path, H5P_DEFAULT)) < 0)
        st = pv_err(ctx, PV_EHDF5, "%s: cannot open dataset \"%s\"", file, dataset);
    if (pv_status_agree(ctx, st) != PV_OK) {
        pv_h5_dataset_close(ctx, d);
        return NULL;
    }
    return d;
}

const pv_h5_dset_info *pv_h5_dataset_info(const pv_h5_dataset *d) { return &d->info; }

void pv_h5_dataset_close(pv_ctx *ctx, pv_h5_dataset *d)
{
    (void)ctx;
    if (!d)
        return;
    if (d->dset >= 0)
        H5Dclose(d->dset);
    if (d->fid >= 0)
        H5Fclose(d->fid);
    free(d->info.path);
    free(d->file);
    free(d);
}

/* ---- reading ------------------------------------------------------------------------------ */

/* One call's elements (a box of the file, in file order) -> the caller's layout. */
typedef struct conv {
    int64_t cx, cy, cz;     /* the call's extent along x, y, z */
    int64_t sx, sy, sz;     /* strides of x, y, z in the call's elements */
    int64_t ox, oy, oz;     /* where the call's first element goes in the output */
    int64_t px, py;         /* caller's pitches */
    int nthreads;
} conv;

/* With x fastest in the file, rows (z, y) are shared by the threads. Otherwise columns
 * of 16 x for one y are: each goes through every z, reading 16 runs along the file's
 * faster dimensions (streams the prefetcher follows) and writing a cache line of x per z
 * (4-5x faster than 16 z at a time over every x, tests/io on 512^3 "xyz"). */
#define DEF_CONV(NAME, ST, DT)                                                               \
    static void NAME(const void *rawv, void *outv, const conv *c)                           \
    {                                                                                        \
        const ST *raw = rawv;                                                                \
        DT *out = outv;                                                                      \
        int64_t xblocks = c->sx == 1 ? 1 : (c->cx + 15) / 16;                                \
        int64_t work = c->sx == 1 ? c->cz * c->cy : xblocks * c->cy;                         \
        _Pragma("omp parallel for num_threads(c->nthreads) default(none) shared(raw, out, c, work, xblocks)") \
        for (int64_t w = 0; w < work; w++) {                                                 \
            if (c->sx == 1) {                                                                \
                int64_t y = w % c->cy, z = w / c->cy;                                        \
                const ST *s = raw + z * c->sz + y * c->sy;                                   \
                DT *o = out + ((c->oz + z) * c->py + c->oy + y) * c->px + c->ox;              \
                for (int64_t x = 0; x < c->cx; x++)                                          \
                    o[x] = (DT)s[x];                                                         \
            } else {                                                                         \
                int64_t y = w / xblocks, x0 = (w % xblocks) * 16;                            \
                int64_t x1 = x0 + 16 < c->cx ? x0 + 16 : c->cx;                              \
                for (int64_t z = 0; z < c->cz; z++) {                                        \
                    DT *o = out + ((c->oz + z) * c->py + c->oy + y) * c->px + c->ox;          \
                    const ST *s = raw + z * c->sz + y * c->sy;                               \
                    for (int64_t x = x0; x < x1; x++)                                        \
                        o[x] = (DT)s[x * c->sx];                                             \
                }                                                                            \
            }                                                                                \
        }                                                                                    \
    }

DEF_CONV(cf_i8, int8_t, float)
DEF_CONV(cf_u8, uint8_t, float)
DEF_CONV(cf_i16, int16_t, float)
DEF_CONV(cf_u16, uint16_t, float)
DEF_CONV(cf_i32, int32_t, float)
DEF_CONV(cf_u32, uint32_t, float)
DEF_CONV(cf_i64, int64_t, float)
DEF_CONV(cf_u64, uint64_t, float)
DEF_CONV(cf_f32, float, float)
DEF_CONV(cf_f64, double, float)
DEF_CONV(cd_i8, int8_t, double)
DEF_CONV(cd_u8, uint8_t, double)
DEF_CONV(cd_i16, int16_t, double)
DEF_CONV(cd_u16, uint16_t, double)
DEF_CONV(cd_i32, int32_t, double)
DEF_CONV(cd_u32, uint32_t, double)
DEF_CONV(cd_i64, int64_t, double)
DEF_CONV(cd_u64, uint64_t, double)
DEF_CONV(cd_f32, float, double)
DEF_CONV(cd_f64, double, double)

typedef void (*conv_fn)(const void *, void *, const conv *);
static const conv_fn conv_float[T_COUNT] = {cf_i8, cf_u8, cf_i16, cf_u16, cf_i32,
                                            cf_u32, cf_i64, cf_u64, cf_f32, cf_f64};
static const conv_fn conv_double[T_COUNT] = {cd_i8, cd_u8, cd_i16, cd_u16, cd_i32,
                                             cd_u32, cd_i64, cd_u64, cd_f32, cd_f64};

/* Zero (or the fill value) over planes [0, nz) of the output, threaded. */
static void set_all(void *buf, bool f64, size_t count, double v, int nthreads)
{
    if (f64) {
        double *b = buf;
#pragma omp parallel for num_threads(nthreads) schedule(static) default(none) shared(b, count, v)
        for (size_t i = 0; i < count; i++)
            b[i] = v;
    } else {
        float *b = buf;
        float fv = (float)v;
#pragma omp parallel for num_threads(nthreads) schedule(static) default(none) shared(b, count, fv)
        for (size_t i = 0; i < count; i++)
            b[i] = fv;
    }
}

/* A large buffer that nothing has touched yet (a new grid's slab, the call buffer): ask Linux for
 * transparent huge pages where it leaves that to the program ("madvise" mode), so a
 * 4 GiB slab faults in 2 MiB pages, not a million 4 KiB ones, which took most of a read
 * from the page cache. Only a hint: no effect elsewhere. */
static void want_huge_pages(void *buf, size_t bytes)
{
#ifdef MADV_HUGEPAGE
    const uintptr_t huge = (uintptr_t)2 << 20;
    uintptr_t lo = ((uintptr_t)buf + huge - 1) & ~(huge - 1);
    uintptr_t hi = ((uintptr_t)buf + bytes) & ~(huge - 1);
    if (bytes >= ((size_t)16 << 20) && hi > lo)
        (void)madvise((void *)lo, (size_t)(hi - lo), MADV_HUGEPAGE);
#else
    (void)buf;
    (void)bytes;
#endif
}

/* One collective read of the box start/count of the file (count NULL: nothing) into dst. */
static pv_status read_call(pv_ctx *ctx, pv_h5_dataset *d, hid_t dxpl, const hsize_t *start,
                           const hsize_t *count, void *dst, hid_t mtype, pv_h5_stats *stats)
{
    static double dummy;
    hid_t fs = H5Dget_space(d->dset), ms = -1;
    pv_status st = PV_OK;
    hsize_t total = 0;
    herr_t rc = fs < 0 ? -1 : 0;
    if (rc >= 0 && count) {
        total = count[0] * count[1] * count[2];
        ms = H5Screate_simple(1, &total, NULL);
        rc = ms < 0 ? -1 : H5Sselect_hyperslab(fs, H5S_SELECT_SET, start, NULL, count, NULL);
    } else if (rc >= 0) {
        hsize_t one = 1;
        ms = H5Screate_simple(1, &one, NULL);
        rc = ms < 0 || H5Sselect_none(ms) < 0 ? -1 : H5Sselect_none(fs);
        dst = &dummy;
    }
    if (rc < 0) {
        st = pv_err(ctx, PV_EHDF5, "%s: cannot select planes of dataset \"%s\"", d->file,
                    d->info.path);
    } else {
        double t0 = MPI_Wtime();
        rc = H5Dread(d->dset, mtype, ms, fs, dxpl, dst);
        stats->io_seconds += MPI_Wtime() - t0;
        if (rc < 0) {
            char why[256];
            pv_h5_last_error(why, sizeof why);
            st = pv_err(ctx, PV_EHDF5, "%s: cannot read dataset \"%s\": %s", d->file,
                        d->info.path, why[0] ? why : "HDF5 error");
        } else if (total) {
            H5D_mpio_actual_io_mode_t mode;
            if (H5Pget_mpio_actual_io_mode(dxpl, &mode) >= 0) {
                stats->io_mode = (int)mode;
                if (mode == H5D_MPIO_NO_COLLECTIVE)
                    stats->all_collective = false;
            }
            stats->bytes += total * type_size[d->tcode];
        }
    }
    if (ms >= 0)
        H5Sclose(ms);
    if (fs >= 0)
        H5Sclose(fs);
    return st;
}

pv_status pv_h5_dataset_read(pv_ctx *ctx, pv_h5_dataset *d, int64_t z0, int64_t z1, void *buf,
                             bool f64, int64_t pitch_x, int64_t pitch_y, pv_h5_stats *stats)
{
    pv_h5_stats local;
    if (!stats)
        stats = &local;
    pv_h5_quiet();
    pv_h5_stats_begin(ctx, stats);
    double t0 = MPI_Wtime();
    const pv_h5_dset_info *in = &d->info;
    int64_t nx = in->n[0], ny = in->n[1], nz = in->n[2];
    pv_status st = PV_OK;
    if (z0 < 0 || z1 < z0 || pitch_x < nx || pitch_y < ny || (z1 > z0 && !buf))
        st = pv_err(ctx, PV_ERANGE, "%s: bad read of dataset \"%s\"", d->file, in->path);
    /* the planes with data, [z0, zd) */
    int64_t zd = z1 < nz ? z1 : nz;
    if (zd < z0)
        zd = z0;
    size_t osize = f64 ? sizeof(double) : sizeof(float);
    size_t esize = type_size[d->tcode];
    /* The rank's box: the z dimension cut to [z0, zd). Calls cut it further along the
     * file's slowest dimension: z itself (order "z.."), else x or y with the rank's whole
     * z range in every call, so each call reads runs of zd - z0 elements, not of one. */
    const int64_t *dims = in->dims;
    int kz = d->dim_of[2];
    int64_t nzr = zd - z0;
    int64_t unit = 1; /* elements per index of dimension 0 in a call */
    for (int k = 1; k < 3; k++)
        unit *= k == kz ? nzr : dims[k];
    int64_t total0 = kz == 0 ? nzr : (nzr > 0 ? dims[0] : 0);
    bool direct = d->dim_of[0] == 2 && d->dim_of[1] == 1 && pitch_x == nx && pitch_y == ny &&
                  d->tcode == (f64 ? T_F64 : T_F32) && !d->big_endian;
    /* read straight into buf: calls as large as max_io; else one call's elements are
     * held beside buf: PV_H5_PIPE_BYTES */
    size_t budget = direct || PV_H5_PIPE_BYTES > d->max_io ? d->max_io : PV_H5_PIPE_BYTES;
    int64_t per_call = unit > 0 ? (int64_t)(budget / ((size_t)unit * esize)) : 1;
    if (per_call < 1)
        per_call = 1;
    long long calls = (total0 + per_call - 1) / per_call;
    int64_t mine = total0 < per_call ? total0 : per_call;
    size_t raw_bytes = direct || !d->allocated ? 0 : (size_t)mine * (size_t)unit * esize;
    void *raw = raw_bytes ? pv_alloc(ctx, raw_bytes) : NULL;
    if (st == PV_OK && raw_bytes && !raw)
        st = ctx->err_code;
    if (raw) /* reordering reads it across pages: fewer TLB misses */
        want_huge_pages(raw, raw_bytes);
    if ((st = pv_status_agree(ctx, st)) != PV_OK) {
        pv_free(ctx, raw, raw_bytes);
        pv_h5_stats_end(ctx, stats, t0);
        return st;
    }
    /* outside the box: zero; a dataset never written: its fill value everywhere */
    size_t out_count = (size_t)(z1 - z0) * (size_t)pitch_x * (size_t)pitch_y;
    if (out_count)
        want_huge_pages(buf, out_count * osize);
    if (out_count && direct)
        pv_mem_populate(buf, out_count * osize); /* HDF5 reads into it: fault it first */
    if (!d->allocated || pitch_x != nx || pitch_y != ny || z1 > nz)
        set_all(buf, f64, out_count, 0, ctx->nthreads);
    if (!d->allocated) {
        /* no storage: HDF5 1.10 would answer the collective read without its collective
         * calls on some ranks (h5_read.c); every rank sees the same metadata */
        for (int64_t z = z0; z < zd; z++)
            for (int64_t y = 0; y < ny; y++)
                set_all((char *)buf + ((size_t)(z - z0) * (size_t)pitch_y + (size_t)y) *
                                          (size_t)pitch_x * osize,
                        f64, (size_t)nx, d->fill, 1);
        pv_h5_stats_end(ctx, stats, t0);
        return PV_OK;
    }
    if (MPI_Allreduce(MPI_IN_PLACE, &calls, 1, MPI_LONG_LONG, MPI_MAX, ctx->comm) != MPI_SUCCESS)
        st = pv_err(ctx, PV_EMPI, "MPI_Allreduce failed");
    hid_t dxpl = H5Pcreate(H5P_DATASET_XFER);
    if (dxpl < 0 || H5Pset_dxpl_mpio(dxpl, H5FD_MPIO_COLLECTIVE) < 0)
        st = pv_err(ctx, PV_EHDF5, "%s: cannot set up a collective read", d->file);
    st = pv_status_agree(ctx, st);
    /* a little-endian machine reads big-endian data as stored and swaps it */
    bool swap = d->big_endian && H5Tget_order(H5T_NATIVE_INT) == H5T_ORDER_LE;
    hid_t mtype = swap ? be_type(d->tcode) : mem_type(d->tcode);
    int nthreads = ctx->nthreads > 0 ? ctx->nthreads : 1;
    for (long long k = 0; k < calls && st == PV_OK; k++) {
        int64_t a = k * per_call;
        int64_t n = a < total0 ? (total0 - a < per_call ? total0 - a : per_call) : 0;
        hsize_t start[3] = {0, 0, 0}, count[3];
        for (int j = 0; j < 3; j++)
            count[j] = (hsize_t)dims[j];
        start[kz] = (hsize_t)z0;
        count[kz] = (hsize_t)nzr;
        start[0] += (hsize_t)a;
        count[0] = (hsize_t)n;
        void *dst = direct ? (char *)buf + (size_t)a * (size_t)unit * osize : raw;
        st = read_call(ctx, d, dxpl, start, n > 0 ? count : NULL, dst, mtype, stats);
        if (st == PV_OK && n > 0 && !direct) {
            if (swap)
                swap_bytes(raw, (size_t)n * (size_t)unit, esize, nthreads);
            /* the call's box in file order: strides of its dimensions */
            int64_t stride[3] = {(int64_t)(count[1] * count[2]), (int64_t)count[2], 1};
            conv c = {0};
            int64_t *cnt[3] = {&c.cx, &c.cy, &c.cz}, *str[3] = {&c.sx, &c.sy, &c.sz};
            int64_t *org[3] = {&c.ox, &c.oy, &c.oz};
            for (int ax = 0; ax < 3; ax++) {
                int j = d->dim_of[ax];
                *cnt[ax] = (int64_t)count[j];
                *str[ax] = stride[j];
                *org[ax] = (int64_t)start[j] - (ax == 2 ? z0 : 0);
            }
            c.px = pitch_x;
            c.py = pitch_y;
            c.nthreads = nthreads;
            (f64 ? conv_double : conv_float)[d->tcode](raw, buf, &c);
        }
        st = pv_status_agree(ctx, st);
        stats->ncalls++;
    }
    if (dxpl >= 0)
        H5Pclose(dxpl);
    pv_free(ctx, raw, raw_bytes);
    pv_h5_stats_end(ctx, stats, t0);
    return st;
}
