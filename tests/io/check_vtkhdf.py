"""ParaView's view of a pvox checkpoint, through /VTKHDF and through the XDMF sidecar
(run by run_h5_vtkhdf.sh under pvbatch, in the checkpoint's directory):

    xvfb-run -a pvbatch check_vtkhdf.py vtkhdf DIR   # VTKHDFReader on DIR/ck.h5, .hdf name
    xvfb-run -a pvbatch check_vtkhdf.py xdmf FILE    # the sidecar, opened as FILE

The checkpoint comes from tests/io/vtkhdf_job.gp. Expected geometry is worked out from
its ranges by hand; expected values are the job's formulas at a few nodes and, at every
node, the dataset's raw values that h5dump wrote to DIR/<name>.bin (little-endian
float32, [z][y][x]), read here without h5py. Prints one line per check; exits 1 on any
failure.
"""
import os
import struct
import sys

from paraview import servermanager as sm
from paraview.simple import OpenDataFile, VTKHDFReader

N = 12
GEOM = dict(extent=(0, N - 1) * 3, origin=(-1.0, 0.0, 10.0), spacing=(0.5, 2.0, 0.25))
SIGN = {"$a": 1.0, "$c": -1.0}
failures = 0


def check(ok, what):
    global failures
    print("%s %s" % ("ok" if ok else "FAIL", what))
    failures += not ok


def raw(name):
    path = os.path.join(os.environ.get("PV_BIN_DIR", "."), name.lstrip("$") + ".bin")
    with open(path, "rb") as f:
        data = f.read()
    return struct.unpack("<%df" % (len(data) // 4), data)


def check_image(img, name, arr):
    """One grid as VTK has it against the formulas and the file's own bytes."""
    check(tuple(img.GetExtent()) == GEOM["extent"], "%s extent %s" % (name, img.GetExtent()))
    check(tuple(img.GetOrigin()) == GEOM["origin"], "%s origin %s" % (name, img.GetOrigin()))
    check(tuple(img.GetSpacing()) == GEOM["spacing"], "%s spacing %s" % (name, img.GetSpacing()))
    for ijk in [(0, 0, 0), (1, 2, 3), (11, 0, 5), (3, 11, 11)]:
        want = SIGN[name] * (ijk[0] + 20 * ijk[1] + 400 * ijk[2] + 0.25)
        got = arr.GetValue(img.ComputePointId(list(ijk)))
        check(got == want, "%s node %s: %s (formula %s)" % (name, ijk, got, want))
    ref = raw(name)
    n = arr.GetNumberOfTuples()
    bad = [i for i in range(min(n, len(ref))) if arr.GetValue(i) != ref[i]]
    check(n == len(ref) and not bad, "%s: %d values equal the dataset's %d (first differences %s)"
          % (name, n, len(ref), bad[:5]))


def vtkhdf(directory):
    r = VTKHDFReader(FileName=[os.path.join(directory, "ck.h5")])
    r.UpdatePipeline()
    img = sm.Fetch(r)
    check(img is not None and img.GetClassName() == "vtkImageData",
          "VTKHDFReader gives %s" % (img.GetClassName() if img else None))
    pd = img.GetPointData()
    names = sorted(pd.GetArrayName(i) for i in range(pd.GetNumberOfArrays()))
    check(names == ["$a", "$c"], "/VTKHDF point arrays %s (expected $a $c, not $s)" % names)
    for name in names:
        if name in SIGN:
            check_image(img, name, pd.GetArray(name))
    # the README's claim: ParaView 5.11 picks this reader by itself for a .hdf name
    alias = os.path.join(directory, "ck.hdf")
    os.symlink("ck.h5", alias)
    rd = OpenDataFile(alias)
    check(rd is not None and rd.GetXMLName() == "HDFReader",
          "OpenDataFile(ck.hdf) picks %s" % (rd.GetXMLName() if rd else None))


def blocks(data):
    it = data.NewIterator()
    it.InitTraversal()
    while not it.IsDoneWithTraversal():
        yield it.GetCurrentDataObject()
        it.GoToNextItem()


def xdmf(path):
    r = OpenDataFile(path)
    check(r is not None, "OpenDataFile(%s)" % path)
    r.UpdatePipeline()
    seen = []
    for b in blocks(sm.Fetch(r)):
        arr = b.GetPointData().GetArray(0)
        seen.append(arr.GetName())
        if arr.GetName() in SIGN:
            check_image(b, arr.GetName(), arr)
    check(sorted(seen) == ["$a", "$c", "$s"], "%s: grids %s" % (path, sorted(seen)))


if __name__ == "__main__":
    if sys.argv[1] == "vtkhdf":
        vtkhdf(sys.argv[2])
    else:
        xdmf(sys.argv[2])
    sys.exit(1 if failures else 0)
