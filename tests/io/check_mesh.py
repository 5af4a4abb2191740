"""Is a pvox mesh (.vtp or .pvtp, include/pvox/mesh.h) closed, as VTK reads it?

    pvpython check_mesh.py FILE.vtp|FILE.pvtp [--points N] [--cells N] [--allow-empty]

Reads the file with VTK's own XML readers (vtkXMLPolyDataReader, vtkXMLPPolyDataReader),
prints the point and cell counts, then counts boundary edges (used by one polygon) and
non-manifold edges (used by three or more) with vtkFeatureEdges. A closed surface, such as
a sphere isosurface that stays inside the grid, has none of either.

- .vtp: the points must already be merged (pvox merges vertices by edge id over all ranks),
  so the mesh is checked as read; edge ids repeated among the points are reported too.
- .pvtp: each piece repeats the vertices it shares with another rank's piece, so the
  pieces are first stitched by the point array "edge_id" (exact: equal ids are the same
  vertex); without that array, by coincident coordinates (vtkCleanPolyData, tolerance 0).

Exit 0 when there are no boundary or non-manifold edges (and the counts match --points /
--cells if given, and there is at least one cell unless --allow-empty), else 1. Needs
VTK's Python modules: ParaView's pvpython has them (python3-paraview); plain python3 does
where python3-vtk9 is installed.
"""
import argparse
import sys

import numpy as np
from vtkmodules.util.numpy_support import numpy_to_vtk, numpy_to_vtkIdTypeArray, vtk_to_numpy
from vtkmodules.vtkCommonCore import vtkPoints
from vtkmodules.vtkCommonDataModel import vtkCellArray, vtkPolyData
from vtkmodules.vtkFiltersCore import vtkCleanPolyData, vtkFeatureEdges
from vtkmodules.vtkIOXML import vtkXMLPPolyDataReader, vtkXMLPolyDataReader

NO_EDGE = np.uint64(2**64 - 1)


def read(path):
    reader = vtkXMLPPolyDataReader() if path.lower().endswith(".pvtp") else vtkXMLPolyDataReader()
    reader.SetFileName(path)
    reader.Update()
    if reader.GetErrorCode() != 0:
        return None
    return reader.GetOutput()


def edge_ids(poly):
    arr = poly.GetPointData().GetArray("edge_id")
    return None if arr is None else vtk_to_numpy(arr).astype(np.uint64)


def stitch_by_edge_id(poly, ids):
    """Merge points with equal edge ids (ids of NO_EDGE stay separate)."""
    n = len(ids)
    keys = ids.copy()
    free = keys == NO_EDGE
    # give unshared points keys of their own, above every real id
    keys[free] = np.uint64(2**63) + np.arange(np.count_nonzero(free), dtype=np.uint64)
    uniq, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
    pts = vtk_to_numpy(poly.GetPoints().GetData()).reshape(n, 3)
    polys = poly.GetPolys()
    offsets = vtk_to_numpy(polys.GetOffsetsArray()).astype(np.int64)
    conn = vtk_to_numpy(polys.GetConnectivityArray()).astype(np.int64)
    out = vtkPolyData()
    vp = vtkPoints()
    vp.SetData(numpy_to_vtk(np.ascontiguousarray(pts[first]), deep=True))
    out.SetPoints(vp)
    cells = vtkCellArray()
    cells.SetData(numpy_to_vtkIdTypeArray(offsets.copy(), deep=True),
                  numpy_to_vtkIdTypeArray(inverse[conn].astype(np.int64), deep=True))
    out.SetPolys(cells)
    return out, len(uniq)


def count_edges(poly, boundary):
    fe = vtkFeatureEdges()
    fe.SetInputData(poly)
    fe.SetBoundaryEdges(boundary)
    fe.SetNonManifoldEdges(not boundary)
    fe.SetFeatureEdges(False)
    fe.SetManifoldEdges(False)
    fe.Update()
    return fe.GetOutput().GetNumberOfCells()


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("file")
    ap.add_argument("--points", type=int, help="expected point count (after stitching)")
    ap.add_argument("--cells", type=int, help="expected cell count")
    ap.add_argument("--allow-empty", action="store_true", help="a mesh without cells passes")
    a = ap.parse_args()

    poly = read(a.file)
    if poly is None:
        print("FAIL: VTK cannot read %s" % a.file)
        return 1
    npts, ncells = poly.GetNumberOfPoints(), poly.GetNumberOfCells()
    print("read %s: %d points, %d cells (%d polygons)"
          % (a.file, npts, ncells, poly.GetNumberOfPolys()))
    failures = 0
    ids = edge_ids(poly)
    mesh = poly
    if a.file.lower().endswith(".pvtp"):
        if ids is not None:
            mesh, merged = stitch_by_edge_id(poly, ids)
            print("stitched pieces by edge_id: %d points" % merged)
        else:
            clean = vtkCleanPolyData()
            clean.SetInputData(poly)
            clean.SetTolerance(0.0)
            clean.PointMergingOn()
            clean.Update()
            mesh = clean.GetOutput()
            print("stitched pieces by coordinates: %d points" % mesh.GetNumberOfPoints())
    elif ids is not None:
        shared = ids[ids != NO_EDGE]
        repeated = len(shared) - len(np.unique(shared))
        print("repeated edge ids among points: %d" % repeated)
        if repeated:
            print("FAIL: the .vtp is not merged by edge id")
            failures += 1

    nb = count_edges(mesh, True)
    nm = count_edges(mesh, False)
    print("boundary edges: %d" % nb)
    print("non-manifold edges: %d" % nm)
    if nb or nm:
        print("FAIL: the mesh is not closed")
        failures += 1
    if a.points is not None and mesh.GetNumberOfPoints() != a.points:
        print("FAIL: %d points, expected %d" % (mesh.GetNumberOfPoints(), a.points))
        failures += 1
    if a.cells is not None and mesh.GetNumberOfCells() != a.cells:
        print("FAIL: %d cells, expected %d" % (mesh.GetNumberOfCells(), a.cells))
        failures += 1
    if mesh.GetNumberOfCells() == 0 and not a.allow_empty:
        print("FAIL: no cells")
        failures += 1
    if not failures:
        print("ok %s is closed" % a.file)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
