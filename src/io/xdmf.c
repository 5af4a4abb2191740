/*
 * io/xdmf: the XDMF sidecar of a checkpoint, so ParaView and VisIt open the HDF5 file
 * directly (XDMF 2 model: www.xdmf.org "XDMF Model and Format").
 *
 * Each grid is a uniform grid with a 3DCoRectMesh topology (a regular lattice given by
 * an origin and a spacing) and one node-centred scalar that points into the HDF5 file.
 * XDMF lists dimensions, origin and spacing slowest axis first: z y x, which matches the
 * dataset's [z][y][x] layout. Node i of an axis sits at min + i·(max-min)/(n-1), as in
 * pvox. A grid with an unset range gets origin 0 and spacing 1 on that axis.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "h5_int.h"
#include "io_int.h"

char *pv_h5_xdmf_path(const char *h5_path)
{
    static const char *const ext[] = {".h5", ".hdf5", ".he5", ".hdf"};
    size_t len = strlen(h5_path);
    const char *slash = strrchr(h5_path, '/');
    const char *base = slash ? slash + 1 : h5_path;
    for (size_t k = 0; k < sizeof ext / sizeof ext[0]; k++) {
        size_t el = strlen(ext[k]);
        /* "dir/.h5" has no stem to keep: append instead */
        if (len > el && strlen(base) > el && strcmp(h5_path + len - el, ext[k]) == 0)
            return pv_asprintf("%.*s.xmf", (int)(len - el), h5_path);
    }
    return pv_asprintf("%s.xmf", h5_path);
}

static void put_grid(FILE *f, const char *h5_name, const pv_h5_grid *g)
{
    double o[3], d[3];
    for (int a = 0; a < 3; a++)
        pv_h5_axis_geometry(g, a, &o[a], &d[a]);
    long long n = g->n;
    fputs("    <Grid Name=\"", f);
    pv_io_put_xml(f, g->name);
    fprintf(f, "\" GridType=\"Uniform\">\n"
               "      <Topology TopologyType=\"3DCoRectMesh\" Dimensions=\"%lld %lld %lld\"/>\n"
               "      <Geometry GeometryType=\"ORIGIN_DXDYDZ\">\n"
               "        <DataItem Name=\"Origin\" Dimensions=\"3\" NumberType=\"Float\" "
               "Precision=\"8\" Format=\"XML\">%.17g %.17g %.17g</DataItem>\n"
               "        <DataItem Name=\"Spacing\" Dimensions=\"3\" NumberType=\"Float\" "
               "Precision=\"8\" Format=\"XML\">%.17g %.17g %.17g</DataItem>\n"
               "      </Geometry>\n"
               "      <Attribute Name=\"",
            n, n, n, o[2], o[1], o[0], d[2], d[1], d[0]);
    pv_io_put_xml(f, g->name);
    fprintf(f, "\" AttributeType=\"Scalar\" Center=\"Node\">\n"
               "        <DataItem Dimensions=\"%lld %lld %lld\" NumberType=\"Float\" "
               "Precision=\"4\" Format=\"HDF\">",
            n, n, n);
    pv_io_put_xml(f, h5_name);
    fputs(":" PV_H5_GROUP "/", f);
    pv_io_put_xml(f, g->name);
    fputs("</DataItem>\n      </Attribute>\n    </Grid>\n", f);
}

pv_status pv_xdmf_write(pv_ctx *ctx, const char *path, const char *h5_name,
                        const pv_h5_grid *grids, size_t ngrids)
{
    FILE *f = pv_io_fopen_new(path, "w"); /* exclusive, never through a link */
    if (!f)
        return pv_err(ctx, PV_EIO, "cannot create '%s': %s", path, strerror(errno));
    fputs("<?xml version=\"1.0\" ?>\n"
          "<!DOCTYPE Xdmf SYSTEM \"Xdmf.dtd\" []>\n"
          "<Xdmf Version=\"2.0\">\n"
          "  <Domain>\n", f);
    for (size_t k = 0; k < ngrids; k++)
        put_grid(f, h5_name, &grids[k]);
    fputs("  </Domain>\n</Xdmf>\n", f);
    int bad = ferror(f);
    if (fclose(f) != 0 || bad)
        return pv_err(ctx, PV_EIO, "cannot write '%s': %s", path, strerror(errno));
    return PV_OK;
}
