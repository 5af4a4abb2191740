"""ParaView's view of a pvox checkpoint (run by run_h5_paraview.sh under pvbatch):

    xvfb-run -a pvbatch check_xdmf.py /abs/path/p.xmf

The file comes from tests/io/h5_save.gp; the expected numbers below are its formulas,
worked out by hand, not pvox output:
  $a: 9x9x9 nodes, x [-1:1] y [0:4] z [10:12]: origin (-1, 0, 10), spacing
      (0.25, 0.5, 0.25); node (i,j,k) holds i + 10j + 100k + 0.5: range [0.5, 888.5]
  $b: 6x6x6 nodes, x [0:5] y [0:10] z [-5:0]: origin (0, 0, -5), spacing (1, 2, 1);
      range [-7.25, 1e6], node (1,2,3) holds -7.25
  $u: 4x4x4 nodes, ranges unset: origin 0, spacing 1, all 0
Prints one line per check; exits 1 on any failure. (The path must be absolute: ParaView
5.11's Xdmf3 reader joins a bare file name with the HDF5 name without a separator.)
"""
import sys

from paraview import servermanager as sm
from paraview.simple import OpenDataFile

EXPECT = {
    "$a": dict(dims=(9, 9, 9), origin=(-1.0, 0.0, 10.0), spacing=(0.25, 0.5, 0.25),
               range=(0.5, 888.5),
               points={(0, 0, 0): 0.5, (1, 2, 3): 321.5, (8, 0, 5): 508.5, (2, 7, 1): 172.5}),
    "$b": dict(dims=(6, 6, 6), origin=(0.0, 0.0, -5.0), spacing=(1.0, 2.0, 1.0),
               range=(-7.25, 1e6), points={(1, 2, 3): -7.25, (5, 5, 5): 1e6, (3, 1, 2): 0.0}),
    "$u": dict(dims=(4, 4, 4), origin=(0.0, 0.0, 0.0), spacing=(1.0, 1.0, 1.0),
               range=(0.0, 0.0), points={(3, 2, 1): 0.0}),
}


def blocks(data):
    it = data.NewIterator()
    it.InitTraversal()
    while not it.IsDoneWithTraversal():
        yield it.GetCurrentDataObject()
        it.GoToNextItem()


def main():
    reader = OpenDataFile(sys.argv[1])
    if reader is None:
        print("FAIL: ParaView cannot open %s" % sys.argv[1])
        return 1
    reader.UpdatePipeline()
    data = sm.Fetch(reader)
    failures = 0
    seen = set()
    for b in blocks(data):
        pd = b.GetPointData()
        if pd.GetNumberOfArrays() != 1:
            print("FAIL: a block with %d point arrays" % pd.GetNumberOfArrays())
            failures += 1
            continue
        arr = pd.GetArray(0)
        name = arr.GetName()
        want = EXPECT.get(name)
        if want is None:
            print("FAIL: unexpected array %s" % name)
            failures += 1
            continue
        seen.add(name)
        got = dict(dims=tuple(b.GetDimensions()), origin=tuple(b.GetOrigin()),
                   spacing=tuple(b.GetSpacing()), range=tuple(arr.GetRange()))
        for key in ("dims", "origin", "spacing", "range"):
            ok = got[key] == want[key]
            print("%s %s %s: %s (expected %s)" % ("ok" if ok else "FAIL", name, key, got[key],
                                                 want[key]))
            failures += not ok
        for ijk, v in want["points"].items():
            got_v = arr.GetValue(b.ComputePointId(list(ijk)))
            ok = got_v == v
            print("%s %s node %s: %s (expected %s)" % ("ok" if ok else "FAIL", name, ijk, got_v, v))
            failures += not ok
    for name in sorted(set(EXPECT) - seen):
        print("FAIL: ParaView shows no grid %s" % name)
        failures += 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
