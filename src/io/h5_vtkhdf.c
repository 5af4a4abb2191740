/*
 * io/h5_vtkhdf: the /VTKHDF group of a checkpoint, so ParaView (5.11 and later, VTK's
 * vtkHDFReader) opens the file itself, without the XDMF sidecar.
 *
 * VTK's HDF format, ImageData flavour: a root group "VTKHDF" with attributes Version
 * (int[2] = 1, 0), Type (fixed-length ASCII "ImageData"), WholeExtent (int[6]: x0 x1 y0
 * y1 z0 z1), Origin, Spacing (float64[3], x y z) and Direction (float64[9], row-major
 * identity), and a group PointData whose datasets are the node values. VTK reads a
 * C-order array with its dimensions reversed against the extent, i.e. [z][y][x], which
 * is how /grids/$name is stored; so each PointData member is a hard link to the grid's
 * dataset (the same object under two names, no voxel stored twice) and the whole
 * extent is 0..n-1 on each axis.
 *
 * One ImageData has one geometry: the grids whose size and node positions equal those
 * of the reference grid are linked; the others are only under /grids (and in the
 * sidecar, which describes every grid).
 */
#include "h5_int.h"

#include <stdlib.h>

#define VTKHDF_GROUP "/VTKHDF"
#define VTKHDF_POINTS VTKHDF_GROUP "/PointData"

/* Do grids a and b put their nodes at the same places? */
static bool same_geometry(const pv_h5_grid *a, const pv_h5_grid *b)
{
    if (a->n != b->n)
        return false;
    for (int ax = 0; ax < 3; ax++) {
        double oa, sa, ob, sb;
        pv_h5_axis_geometry(a, ax, &oa, &sa);
        pv_h5_axis_geometry(b, ax, &ob, &sb);
        if (oa != ob || sa != sb)
            return false;
    }
    return true;
}

static herr_t image_attrs(hid_t grp, const pv_h5_grid *ref)
{
    int version[2] = {1, 0};
    int extent[6];
    double origin[3], spacing[3];
    double direction[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
    for (int ax = 0; ax < 3; ax++) {
        extent[2 * ax] = 0;
        extent[2 * ax + 1] = (int)(ref->n - 1);
        pv_h5_axis_geometry(ref, ax, &origin[ax], &spacing[ax]);
    }
    if (pv_h5_attr_write(grp, "Version", H5T_STD_I32LE, H5T_NATIVE_INT, 1, 2, version) < 0 ||
        pv_h5_attr_fixed(grp, "Type", "ImageData", true) < 0 ||
        pv_h5_attr_write(grp, "WholeExtent", H5T_STD_I32LE, H5T_NATIVE_INT, 1, 6, extent) < 0 ||
        pv_h5_attr_write(grp, "Origin", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, 1, 3, origin) < 0 ||
        pv_h5_attr_write(grp, "Spacing", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, 1, 3, spacing) < 0 ||
        pv_h5_attr_write(grp, "Direction", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, 1, 9, direction) < 0)
        return -1;
    return 0;
}

herr_t pv_h5_vtkhdf_write(hid_t file, const pv_h5_grid *g, size_t ng, size_t ref)
{
    hid_t grp = H5Gcreate2(file, VTKHDF_GROUP, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    if (grp < 0)
        return -1;
    herr_t rc = image_attrs(grp, &g[ref]);
    hid_t pts = rc < 0 ? -1 : H5Gcreate2(file, VTKHDF_POINTS, H5P_DEFAULT, H5P_DEFAULT,
                                         H5P_DEFAULT);
    if (pts < 0)
        rc = -1;
    for (size_t k = 0; k < ng && rc >= 0; k++) {
        if (!same_geometry(&g[k], &g[ref]))
            continue;
        char *target = pv_asprintf(PV_H5_GROUP "/%s", g[k].name);
        rc = target ? H5Lcreate_hard(file, target, pts, g[k].name, H5P_DEFAULT, H5P_DEFAULT)
                    : -1;
        free(target);
    }
    hid_t e = rc < 0 ? pv_h5_err_save() : -1;
    if (pts >= 0 && H5Gclose(pts) < 0)
        rc = -1;
    if (H5Gclose(grp) < 0)
        rc = -1;
    pv_h5_err_restore(e);
    return rc;
}
