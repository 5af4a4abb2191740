"""Is an isosurface mesh a closed 2-manifold once coincident points are merged, as VTK sees it?

    pvpython check_ties.py FILE.vtp|FILE.pvtp [--euler N]
    pvpython check_ties.py --vtk-reference        (VTK's own extractors, for comparison)

The mesh is read with VTK's XML readers and its points are merged by COORDINATES alone
(vtkStaticCleanPolyData, tolerance 0; the edge_id array pvox writes is not used), the way a
user stitching the pieces would. Then:
  - boundary edges (in one polygon) and non-manifold edges (in three or more), counted by
    vtkFeatureEdges: a surface that stays inside the box has none;
  - cells that collapsed when their points merged (a triangle with a repeated point);
  - the points whose polygons do not form one fan around them (a pinched vertex: two
    sheets touching at a point, which vtkFeatureEdges does not see);
  - the merged point count against the distinct edge ids: equal when no two grid edges'
    vertices share a position;
  - the Euler characteristic V - E + F: even, at most twice the connected pieces (closed
    orientable surfaces), and equal to --euler if given.
Exit 0 when all hold, else 1.

--vtk-reference builds tests/iso/ties.gp's field (the same formula) as vtkImageData and
prints the same counts for vtkFlyingEdges3D, vtkMarchingCubes and vtkContourFilter at the
level 1 (information only: exit 0).
"""
import argparse
import sys

import numpy as np
from vtkmodules.util.numpy_support import numpy_to_vtk, vtk_to_numpy
from vtkmodules.vtkCommonCore import vtkLogger, vtkPoints
from vtkmodules.vtkCommonDataModel import vtkCellArray, vtkImageData, vtkPolyData
from vtkmodules.vtkFiltersCore import (vtkContourFilter, vtkExtractEdges, vtkFeatureEdges,
                                       vtkFlyingEdges3D, vtkMarchingCubes,
                                       vtkPolyDataConnectivityFilter, vtkStaticCleanPolyData,
                                       vtkTriangleFilter)
from vtkmodules.vtkIOXML import vtkXMLPPolyDataReader, vtkXMLPolyDataReader

N = 12  # tests/iso/ties.gp
vtkLogger.SetStderrVerbosity(vtkLogger.VERBOSITY_WARNING)  # not the filters' progress


def ties_value(i, j, k):
    """tests/iso/ties.gp's field: 0 on the box's faces, 0, 1 or 2 inside."""
    if min(i, j, k) == 0 or max(i, j, k) == N - 1:
        return 0
    return ((i * 73856093) ^ (j * 19349663) ^ (k * 83492791)) % 3


def read_text(path):
    """A text mesh (`set table "x.txt"`): one polygon a block of `x y z` lines, a blank line
    between polygons; every vertex a point of its own (merging is the check's job)."""
    pts, cells, poly = vtkPoints(), vtkCellArray(), []
    with open(path) as f:
        for line in list(f) + [""]:
            if line.strip():
                pts.InsertNextPoint(*(float(t) for t in line.split()))
                poly.append(pts.GetNumberOfPoints() - 1)
            elif poly:
                cells.InsertNextCell(len(poly), poly)
                poly = []
    out = vtkPolyData()
    out.SetPoints(pts)
    out.SetPolys(cells)
    return out


def read(path):
    if path.lower().endswith(".txt"):
        return read_text(path)
    reader = vtkXMLPPolyDataReader() if path.lower().endswith(".pvtp") else vtkXMLPolyDataReader()
    reader.SetFileName(path)
    reader.Update()
    if reader.GetErrorCode() != 0:
        return None
    return reader.GetOutput()


def feature_count(poly, boundary):
    fe = vtkFeatureEdges()
    fe.SetInputData(poly)
    fe.SetBoundaryEdges(boundary)
    fe.SetNonManifoldEdges(not boundary)
    fe.SetFeatureEdges(False)
    fe.SetManifoldEdges(False)
    fe.Update()
    return fe.GetOutput().GetNumberOfCells()


def polygons(poly):
    """The polygons as lists of point ids (cells of any other type are counted apart)."""
    cells = poly.GetPolys()
    off = vtk_to_numpy(cells.GetOffsetsArray()).astype(np.int64)
    conn = vtk_to_numpy(cells.GetConnectivityArray()).astype(np.int64)
    return [conn[off[c]:off[c + 1]].tolist() for c in range(len(off) - 1)]


def pinched_points(polys, npts):
    """Points whose incident polygons do not form a single fan (closed or open) around
    them: each polygon at point p contributes the link segment between p's neighbours in
    it; a manifold point's segments form one path or one cycle."""
    link = [[] for _ in range(npts)]
    for p in polys:
        n = len(p)
        for s in range(n):
            link[p[s]].append((p[s - 1], p[(s + 1) % n]))
    bad = 0
    for segs in link:
        if not segs:
            continue
        adj = {}
        for a, b in segs:
            adj.setdefault(a, []).append(b)
            adj.setdefault(b, []).append(a)
        if any(len(v) > 2 for v in adj.values()):
            bad += 1
            continue
        # connected?
        start = next(iter(adj))
        seen, todo = {start}, [start]
        while todo:
            x = todo.pop()
            for y in adj[x]:
                if y not in seen:
                    seen.add(y)
                    todo.append(y)
        if len(seen) != len(adj):
            bad += 1
    return bad


def analyse(poly, label, edge_ids=None):
    """Merge by coordinates and count; returns (report dict)."""
    clean = vtkStaticCleanPolyData()
    clean.SetInputData(poly)
    clean.SetTolerance(0.0)
    clean.SetAbsoluteTolerance(0.0)
    clean.ToleranceIsAbsoluteOn()
    clean.Update()
    m = clean.GetOutput()
    # a polygon with a repeated point is dropped or becomes a line or a vertex
    collapsed = poly.GetNumberOfPolys() - m.GetNumberOfPolys()
    tri = vtkTriangleFilter()  # V - E + F on triangles (quads in `mixed` mode split)
    tri.SetInputData(m)
    tri.PassLinesOff()
    tri.PassVertsOff()
    tri.Update()
    t = tri.GetOutput()
    ee = vtkExtractEdges()
    ee.SetInputData(t)
    ee.Update()
    V, E, F = t.GetNumberOfPoints(), ee.GetOutput().GetNumberOfLines(), t.GetNumberOfPolys()
    conn = vtkPolyDataConnectivityFilter()
    conn.SetInputData(t)
    conn.SetExtractionModeToAllRegions()
    conn.Update()
    r = {
        "points": m.GetNumberOfPoints(),
        "boundary": feature_count(m, True),
        "nonmanifold": feature_count(m, False),
        "collapsed": collapsed,
        "pinched": pinched_points(polygons(m), m.GetNumberOfPoints()),
        "V": V, "E": E, "F": F, "euler": V - E + F,
        "pieces": conn.GetNumberOfExtractedRegions(),
    }
    if edge_ids is not None:
        r["edge_ids"] = len(np.unique(edge_ids))
    print("%s: %d points after merging by coordinates%s; boundary edges %d, non-manifold "
          "edges %d, collapsed cells %d, pinched points %d; V %d E %d F %d Euler %d, "
          "%d pieces"
          % (label, r["points"],
             " (%d distinct edge ids)" % r["edge_ids"] if edge_ids is not None else "",
             r["boundary"], r["nonmanifold"], r["collapsed"], r["pinched"], V, E, F,
             r["euler"], r["pieces"]))
    return r


def reference():
    img = vtkImageData()
    img.SetDimensions(N, N, N)
    vals = np.array([ties_value(i, j, k) for k in range(N) for j in range(N) for i in range(N)],
                    dtype=np.float32)
    arr = numpy_to_vtk(vals, deep=True)
    arr.SetName("v")
    img.GetPointData().SetScalars(arr)
    for name, cls in (("vtkFlyingEdges3D", vtkFlyingEdges3D), ("vtkMarchingCubes",
                                                              vtkMarchingCubes),
                      ("vtkContourFilter", vtkContourFilter)):
        f = cls()
        f.SetInputData(img)
        f.SetValue(0, 1.0)
        f.Update()
        analyse(f.GetOutput(), name)
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("file", nargs="?")
    ap.add_argument("--euler", type=int, help="expected Euler characteristic")
    ap.add_argument("--vtk-reference", action="store_true")
    a = ap.parse_args()
    if a.vtk_reference:
        return reference()
    poly = read(a.file)
    if poly is None or poly.GetNumberOfPolys() == 0:
        print("FAIL: VTK cannot read %s, or it has no polygons" % a.file)
        return 1
    arr = poly.GetPointData().GetArray("edge_id")
    ids = vtk_to_numpy(arr).astype(np.uint64) if arr is not None else None
    r = analyse(poly, a.file, ids)
    fails = []
    for key in ("boundary", "nonmanifold", "collapsed", "pinched"):
        if r[key]:
            fails.append("%d %s" % (r[key], key))
    if ids is not None and r["points"] != r["edge_ids"]:
        fails.append("%d points but %d edge ids" % (r["points"], r["edge_ids"]))
    if r["euler"] % 2 or r["euler"] > 2 * r["pieces"]:
        fails.append("Euler characteristic %d with %d pieces" % (r["euler"], r["pieces"]))
    if a.euler is not None and r["euler"] != a.euler:
        fails.append("Euler characteristic %d, expected %d" % (r["euler"], a.euler))
    if fails:
        print("FAIL: " + "; ".join(fails))
        return 1
    print("ok %s: a closed 2-manifold" % a.file)
    return 0


if __name__ == "__main__":
    sys.exit(main())
