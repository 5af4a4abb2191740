"""ParaView's side of the frame-sequence benchmark (bench/bench_frames.sh; bench/README.md,
"Frame sequences"): the frames of bench/frames_seq.gp rendered by pvbatch from the pvox
checkpoint of the same grid. Runs under ParaView 5.11's pvbatch (it needs a display:
`xvfb-run -a pvbatch`):

    xvfb-run -a pvbatch bench/frames_pvbatch.py FILE.h5 OUTDIR [--frames F] [--size W,H]
                        [--grid NAME] [--reader xdmf|h5py] [--cbrange LO,HI]

Loads the float32 [N][N][N] dataset /grids/NAME (default $v; README "Checkpoints") through
the XDMF sidecar beside the .h5 with ParaView's XDMFReader (--reader xdmf, the default), or
with h5py into a vtkImageData (--reader h5py); then, for j = 0 .. F-1, moves a Slice
filter's x = const plane to x = j/(F-1) of the grid's x range (the frames_seq.gp frame j;
kept a hair inside the box at both ends so the first and last planes cut the grid), colours
it by the value with a red-white-blue map over LO..HI (default -5,5, frames_seq.gp's
cbrange), under the grid's outline and a colour bar, orthographic, from gnuplot's `set view
65,40`, and saves OUTDIR/fNNN.png at W x H (default 800,600) with SaveScreenshot.

Prints one line of key=value pairs:
  pv_frames reader=xdmf nx=.. ny=.. nz=.. frames=F width=W height=H import_s=.. load_s=..
            setup_s=.. frames_s=.. per_frame_ms=.. total_s=.. bytes=..
import_s: importing paraview.simple; load_s: reading the grid (the reader's Update);
setup_s: the pipeline, view and first render; frames_s: the F slices and PNGs;
per_frame_ms = frames_s / F; total_s: from the script's start; bytes: the PNGs' total size.
Exit 0, or 1 with a message.
"""
import time

T0 = time.perf_counter()

import argparse  # noqa: E402
import math  # noqa: E402
import os  # noqa: E402
import sys  # noqa: E402


def parse_pair(s, conv):
    a, b = s.split(",")
    return conv(a), conv(b)


def load_xdmf(pvs, path, grid):
    xmf = os.path.abspath(os.path.splitext(path)[0] + ".xmf")
    if not os.path.exists(xmf):
        raise RuntimeError("no XDMF sidecar %s" % xmf)
    # an absolute path: ParaView 5.11 resolves the HDF reference against the .xmf's
    # directory only when the name has one (README "Checkpoints")
    src = pvs.XDMFReader(FileNames=[xmf])
    src.PointArrayStatus = [grid]
    src.UpdatePipeline()
    return src


def load_h5py(pvs, path, grid):
    import h5py
    import numpy as np
    from vtkmodules.vtkCommonCore import vtkFloatArray
    from vtkmodules.vtkCommonDataModel import vtkImageData
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
    arr = numpy_support.numpy_to_vtk(data.ravel(), deep=1,
                                     array_type=vtkFloatArray().GetDataType())
    arr.SetName(grid)
    img.GetPointData().SetScalars(arr)
    src = pvs.PVTrivialProducer()
    src.GetClientSideObject().SetOutput(img)
    src.UpdatePipeline()
    return src


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("file")
    ap.add_argument("outdir")
    ap.add_argument("--frames", type=int, default=100)
    ap.add_argument("--size", default="800,600")
    ap.add_argument("--grid", default="$v")
    ap.add_argument("--reader", choices=("xdmf", "h5py"), default="xdmf")
    ap.add_argument("--cbrange", default="-5,5")
    a = ap.parse_args()
    w, h = parse_pair(a.size, int)
    lo, hi = parse_pair(a.cbrange, float)
    os.makedirs(a.outdir, exist_ok=True)

    t = time.perf_counter()
    import paraview.simple as pvs
    t_import = time.perf_counter() - t

    t = time.perf_counter()
    try:
        src = load_xdmf(pvs, a.file, a.grid) if a.reader == "xdmf" else load_h5py(pvs, a.file, a.grid)
    except Exception as e:  # a bad file: say which and stop
        print("frames_pvbatch: cannot read %s (%s): %s" % (a.file, a.reader, e), file=sys.stderr)
        return 1
    t_load = time.perf_counter() - t
    info = src.GetDataInformation()
    ext = info.GetExtent()
    nx, ny, nz = ext[1] - ext[0] + 1, ext[3] - ext[2] + 1, ext[5] - ext[4] + 1
    bounds = info.GetBounds()
    if nx * ny * nz <= 1:
        print("frames_pvbatch: %s has no grid %s" % (a.file, a.grid), file=sys.stderr)
        return 1

    t = time.perf_counter()
    x0, x1 = bounds[0], bounds[1]
    cy, cz = (bounds[2] + bounds[3]) / 2, (bounds[4] + bounds[5]) / 2
    eps = (x1 - x0) * 1e-6
    sl = pvs.Slice(Input=src)
    sl.SliceType = "Plane"
    sl.SliceType.Normal = [1.0, 0.0, 0.0]
    sl.SliceType.Origin = [x0 + eps, cy, cz]

    view = pvs.CreateView("RenderView")
    view.ViewSize = [w, h]
    view.OrientationAxesVisibility = 0
    view.Background = [1.0, 1.0, 1.0]
    try:  # 5.10+: the palette's background unless told otherwise
        view.UseColorPaletteForBackground = 0
    except AttributeError:
        pass
    outline = pvs.Show(src, view)
    outline.SetRepresentationType("Outline")
    outline.AmbientColor = outline.DiffuseColor = [0.0, 0.0, 0.0]
    outline.ColorArrayName = [None, ""]
    disp = pvs.Show(sl, view)
    pvs.ColorBy(disp, ("POINTS", a.grid))
    lut = pvs.GetColorTransferFunction(a.grid)
    lut.AutomaticRescaleRangeMode = "Never"
    lut.ColorSpace = "RGB"
    lut.RGBPoints = [lo, 1.0, 0.0, 0.0, (lo + hi) / 2, 1.0, 1.0, 1.0, hi, 0.0, 0.0, 1.0]
    lut.RescaleTransferFunction(lo, hi)
    disp.Ambient, disp.Diffuse = 1.0, 0.0  # flat colours, as gnuplot's pm3d
    disp.SetScalarBarVisibility(view, True)
    bar = pvs.GetScalarBar(lut, view)
    bar.Title, bar.ComponentTitle = "", ""
    bar.TitleColor = bar.LabelColor = [0.0, 0.0, 0.0]

    # gnuplot's `set view 65,40`: 25 degrees above the xy plane, turned 40 degrees about z
    # from looking along +y; orthographic
    rx, rz = math.radians(65.0), math.radians(40.0)
    d = [math.sin(rz) * math.sin(rx), -math.cos(rz) * math.sin(rx), math.cos(rx)]
    c = [(bounds[0] + bounds[1]) / 2, cy, cz]
    view.CameraFocalPoint = c
    view.CameraPosition = [c[i] + 4.0 * d[i] for i in range(3)]
    view.CameraViewUp = [0.0, 0.0, 1.0]
    view.CameraParallelProjection = 1
    view.ResetCamera()
    pvs.Render(view)
    t_setup = time.perf_counter() - t

    t = time.perf_counter()
    nbytes = 0
    for j in range(a.frames):
        x = x0 + (x1 - x0) * (j / (a.frames - 1.0) if a.frames > 1 else 0.0)
        sl.SliceType.Origin = [min(max(x, x0 + eps), x1 - eps), cy, cz]
        out = os.path.join(a.outdir, "f%03d.png" % j)
        pvs.SaveScreenshot(out, view, ImageResolution=[w, h])
        nbytes += os.path.getsize(out)
    t_frames = time.perf_counter() - t

    print("pv_frames reader=%s nx=%d ny=%d nz=%d frames=%d width=%d height=%d import_s=%.3f "
          "load_s=%.3f setup_s=%.3f frames_s=%.3f per_frame_ms=%.1f total_s=%.3f bytes=%d" % (
              a.reader, nx, ny, nz, a.frames, w, h, t_import, t_load, t_setup, t_frames,
              1000.0 * t_frames / max(a.frames, 1), time.perf_counter() - T0, nbytes), flush=True)
    return 0


if __name__ == "__main__":
    rc = main()
    sys.stdout.flush()
    sys.stderr.flush()
    # skip the interpreter's teardown: under xvfb-run, ParaView 5.11's render window fails
    # GLXMakeCurrent while being destroyed at exit and the X error turns the exit status to
    # 1 after all the work is done and written
    os._exit(rc)
