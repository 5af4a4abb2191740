"""VTK's vtkFlyingEdges3D on a pvox checkpoint: the anchor of the kernel comparison in
bench/bench_iso.sh (bench/README.md, "Isosurfaces"). Runs under ParaView's Python:

    pvpython bench/iso_vtk.py FILE.h5 [--grid NAME] [--levels SPEC] [--threads LIST]
                              [--reps R] [--reader h5py|xdmf] [--config bare|default]

Reads the float32 [N][N][N] dataset /grids/NAME (default $v; README "Checkpoints") with
h5py, or through the .xmf sidecar beside the .h5 with VTK's XDMF3 reader (--reader xdmf,
also the fallback when h5py is missing), into a vtkImageData once; then, for each entry of
LIST (default "seq 1 2": "seq" is the Sequential SMP backend, a number N is the STDThread
backend with N threads), times vtkFlyingEdges3D.Update() R times (default 3) with the
filter marked modified before each run: the extraction only, not the read. SPEC as in
bench_iso_h5: a comma list ("-3,-1,0,1,3") or FIRST:LAST:STEP ("-100:100:1"); all the
levels go to one filter (SetNumberOfContours + SetValue), which contours them one after
the other over the same input.

--config bare (the default) turns off the normals and the scalars FE computes by default,
so the output is what pvox's kernel emits (merged points and triangles); default keeps
VTK's defaults (normals and scalars on).

Prints one line of key=value pairs per thread setting:
  vtk_iso backend=STDThread threads=2 levels=L config=bare reader=h5py nx=.. ny=.. nz=..
          reps=R best_s=.. median_s=.. voxels_per_s=.. tris=.. points=..
and a first line "vtk_info vtk=9.x default_backend=.. backends=.. h5py=yes|no".
Exit 0, or 1 with a message.
"""
import argparse
import os
import statistics
import sys
import time

from vtkmodules.vtkCommonCore import vtkSMPTools, vtkVersion, vtkFloatArray
from vtkmodules.vtkCommonDataModel import vtkImageData
from vtkmodules.vtkFiltersCore import vtkFlyingEdges3D


def parse_levels(spec):
    if spec.count(":") == 2:
        first, last, step = (float(x) for x in spec.split(":"))
        n = int((last - first) / step + 1e-9) + 1
        return [first + i * step for i in range(n)]
    return [float(x) for x in spec.split(",")]


def read_h5py(path, grid):
    import h5py
    import numpy as np
    from vtkmodules.util import numpy_support

    with h5py.File(path, "r") as f:
        ds = f["grids"][grid]
        data = np.ascontiguousarray(ds[...], dtype=np.float32)  # [z][y][x], x fastest
        ranges = [ds.attrs.get(a) for a in ("vxrange", "vyrange", "vzrange")]
    nz, ny, nx = data.shape
    img = vtkImageData()
    img.SetDimensions(nx, ny, nz)
    origin, spacing = [], []
    for r, n in zip(ranges, (nx, ny, nz)):
        ok = r is not None and all(v == v for v in r)  # NaN when unset
        origin.append(float(r[0]) if ok else 0.0)
        spacing.append(float(r[1] - r[0]) / (n - 1) if ok and n > 1 else 1.0)
    img.SetOrigin(origin)
    img.SetSpacing(spacing)
    arr = numpy_support.numpy_to_vtk(data.ravel(), deep=1, array_type=vtkFloatArray().GetDataType())
    arr.SetName(grid)
    img.GetPointData().SetScalars(arr)
    return img


def read_xdmf(path, grid):
    from vtkmodules.vtkIOXdmf3 import vtkXdmf3Reader

    xmf = os.path.abspath(os.path.splitext(path)[0] + ".xmf")
    if not os.path.exists(xmf):
        raise RuntimeError("no XDMF sidecar %s" % xmf)
    r = vtkXdmf3Reader()
    r.SetFileName(xmf)
    r.Update()
    out = r.GetOutputDataObject(0)
    blocks = []
    if out.IsA("vtkImageData"):
        blocks = [out]
    else:
        it = out.NewIterator()
        it.InitTraversal()
        while not it.IsDoneWithTraversal():
            blocks.append(it.GetCurrentDataObject())
            it.GoToNextItem()
    for b in blocks:
        arr = b.GetPointData().GetArray(grid)
        if arr is not None:
            # a deep copy: the reader's arrays wrap memory that goes with the reader
            img = vtkImageData()
            img.SetDimensions(b.GetDimensions())
            img.SetOrigin(b.GetOrigin())
            img.SetSpacing(b.GetSpacing())
            own = arr.NewInstance()
            own.DeepCopy(arr)
            img.GetPointData().SetScalars(own)
            return img
    raise RuntimeError("no grid %s in %s" % (grid, xmf))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("file")
    ap.add_argument("--grid", default="$v")
    ap.add_argument("--levels", default="1")
    ap.add_argument("--threads", default="seq 1 2")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--reader", choices=("h5py", "xdmf"), default="h5py")
    ap.add_argument("--config", choices=("bare", "default"), default="bare")
    a = ap.parse_args()

    try:
        import h5py  # noqa: F401
        have_h5py = True
    except ImportError:
        have_h5py = False
    reader = a.reader if have_h5py else "xdmf"
    default_backend = vtkSMPTools.GetBackend()
    backends = [b for b in ("Sequential", "STDThread", "OpenMP", "TBB")
                if b in ("Sequential", default_backend) or probe_backend(b)]
    vtkSMPTools.SetBackend(default_backend)
    print("vtk_info vtk=%s default_backend=%s backends=%s h5py=%s" % (
        vtkVersion.GetVTKVersion(), default_backend, ",".join(backends),
        "yes" if have_h5py else "no"), flush=True)

    levels = parse_levels(a.levels)
    try:
        img = read_h5py(a.file, a.grid) if reader == "h5py" else read_xdmf(a.file, a.grid)
    except Exception as e:  # a bad file: say which and stop
        print("iso_vtk: cannot read %s (%s): %s" % (a.file, reader, e), file=sys.stderr)
        return 1
    nx, ny, nz = img.GetDimensions()

    fe = vtkFlyingEdges3D()
    fe.SetInputData(img)
    fe.SetNumberOfContours(len(levels))
    for i, v in enumerate(levels):
        fe.SetValue(i, v)
    if a.config == "bare":
        fe.ComputeNormalsOff()
        fe.ComputeGradientsOff()
        fe.ComputeScalarsOff()
    for t in a.threads.split():
        if t == "seq":
            backend, n = "Sequential", 1
        else:
            backend, n = "STDThread", int(t)
        if not vtkSMPTools.SetBackend(backend):
            print("iso_vtk: SMP backend %s not available" % backend, file=sys.stderr)
            return 1
        vtkSMPTools.Initialize(n)
        got = vtkSMPTools.GetEstimatedNumberOfThreads()
        secs = []
        tris = points = None
        for _ in range(a.reps):
            fe.Modified()
            t0 = time.perf_counter()
            fe.Update()
            secs.append(time.perf_counter() - t0)
            out = fe.GetOutput()
            tr, pt = out.GetNumberOfPolys(), out.GetNumberOfPoints()
            if tris is not None and (tr, pt) != (tris, points):
                print("iso_vtk: runs disagree (%d vs %d triangles)" % (tr, tris), file=sys.stderr)
                return 1
            tris, points = tr, pt
        best = min(secs)
        print("vtk_iso backend=%s threads=%d levels=%d config=%s reader=%s nx=%d ny=%d nz=%d "
              "reps=%d best_s=%.6f median_s=%.6f voxels_per_s=%.6g tris=%d points=%d" % (
                  backend, got, len(levels), a.config, reader, nx, ny, nz, a.reps, best,
                  statistics.median(secs), nx * ny * nz / best, tris, points), flush=True)
    return 0


def probe_backend(name):
    # SetBackend writes a warning to stderr (from C++) and falls back when a backend is not
    # compiled in: keep the probe quiet at the file-descriptor level
    sys.stderr.flush()
    saved = os.dup(2)
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 2)
    try:
        ok = bool(vtkSMPTools.SetBackend(name)) and vtkSMPTools.GetBackend() == name
    finally:
        os.dup2(saved, 2)
        os.close(saved)
        os.close(devnull)
    return ok


if __name__ == "__main__":
    sys.exit(main())
