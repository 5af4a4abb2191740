#!/usr/bin/env python3
"""Other programs' HDF5 datasets loaded by pvox (README "Bringing your data").

    ext_h5.py --pvox build/pvox --mpiexec mpiexec --np N --part load|errors|vfill

The fixtures are made here, in a scratch folder, by the programs that write such files:
  - a real Meep run (python3-meep: a ring resonator with a source, tests/io/ext_meep.py,
    eps and ez at the end, 40^3 float64 stored x slowest);
  - h5py: a chunked, deflated, shuffled and fletcher32-checked float64 dataset in a
    group, every integer type of 8..64 bits, float32, a VTKHDF ImageData file in VTK's
    layout (point and cell data), a box that is not a cube, and the bad inputs (strings,
    compound records, 2D, float16, a group, a truncated file);
  - ncgen (netcdf-bin) from a CDL text, -k nc4, a variable with uniform coordinate
    variables.
load:   every dataset is vloaded at N ranks, the grids vsaved, and the saved voxels must
        equal h5py's values of the source at every voxel (as float32, transposed for order
        "xyz"; zeros outside the box with `size`), the saved ranges the file's geometry
        (VTKHDF Origin/Spacing, netCDF coordinates) or the script's `set v?range`.
errors: each bad input is one script that must fail with exit 1 (script) or 3 (I/O), a
        located "job.gp:LINE:COL: error: ..." naming the problem, printed once, no crash.
vfill:  `vfill "f.h5" dataset "ez" order "xyz"` onto a grid of another size and ranges
        must equal the same elements written as text rows and vfilled.
Missing tools (h5py, numpy, meep, ncgen) skip (77) unless CI=true, where they fail.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SKIP = 77
PY = "/usr/bin/python3"  # Debian's python3 with h5py, numpy and meep


def skip_or_fail(msg):
    if os.environ.get("CI", "").lower() == "true":
        print("FAIL (CI): " + msg)
        return 1
    print("SKIP: " + msg)
    return SKIP


try:
    import h5py
    import numpy as np
except ImportError as e:  # pragma: no cover
    sys.exit(skip_or_fail("python3-h5py / python3-numpy missing: %s" % e))


# ---- fixtures ---------------------------------------------------------------------------

CDL = """netcdf ocean {
dimensions:
    z = 6 ;
    y = 6 ;
    x = 6 ;
variables:
    double z(z) ;
    double y(y) ;
    double x(x) ;
    float temp(z, y, x) ;
        temp:units = "degC" ;
data:
    z = 0, 10, 20, 30, 40, 50 ;
    y = -1, -0.5, 0, 0.5, 1, 1.5 ;
    x = 2, 2.25, 2.5, 2.75, 3, 3.25 ;
    temp = %s ;
}
"""


def netcdf_values():
    z, y, x = np.meshgrid(np.arange(6), np.arange(6), np.arange(6), indexing="ij")
    return (20.0 - 0.25 * z + 0.125 * y - 0.5 * x + 0.01 * x * y).astype(np.float32)


def make_fixtures(work):
    rng = np.random.default_rng(7)
    with h5py.File(os.path.join(work, "chunked.h5"), "w") as f:
        g = f.create_group("fields")
        v = rng.standard_normal((20, 20, 20))
        g.create_dataset("ez", data=v, chunks=(5, 7, 20), compression="gzip",
                         compression_opts=6, shuffle=True, fletcher32=True)
    with h5py.File(os.path.join(work, "types.h5"), "w") as f:
        shape = (9, 9, 9)
        for t, lo, hi in [("i1", -128, 127), ("u1", 0, 255), ("i2", -32768, 32767),
                          ("u2", 0, 65535), ("i4", -2**31, 2**31 - 1), ("u4", 0, 2**32 - 1),
                          ("i8", -2**62, 2**62), ("u8", 0, 2**63)]:
            f.create_dataset(t, data=rng.integers(lo, hi, shape, dtype=t, endpoint=True))
        f.create_dataset("f4", data=rng.standard_normal(shape).astype("f4"))
        f.create_dataset("be8", data=rng.standard_normal(shape).astype(">f8"))
        f.create_dataset("f2", data=np.ones(shape, dtype="f2"))
        f.create_dataset("text", data=np.array([[[b"ab"] * 3] * 3] * 3, dtype="S2"))
        f.create_dataset("rec", data=np.zeros((3, 3, 3), dtype=[("a", "f4"), ("b", "i4")]))
        f.create_dataset("flat", data=np.zeros((4, 5)))
        f.create_group("grp")
    with h5py.File(os.path.join(work, "box.h5"), "w") as f:
        f.create_dataset("ez", data=rng.standard_normal((8, 10, 12)))  # z y x
    with h5py.File(os.path.join(work, "sim.vtkhdf"), "w") as f:
        v = f.create_group("VTKHDF")
        v.attrs["Version"] = np.array([1, 0], dtype="i8")
        v.attrs.create("Type", np.bytes_("ImageData"))
        v.attrs["WholeExtent"] = np.array([0, 15, 0, 15, 0, 15], dtype="i8")
        v.attrs["Origin"] = np.array([1.0, 2.0, 3.0])
        v.attrs["Spacing"] = np.array([0.1, 0.2, 0.4])
        v.attrs["Direction"] = np.eye(3).reshape(9)
        v.create_group("PointData").create_dataset(
            "rho", data=rng.random((16, 16, 16)).astype("f4"))  # [z][y][x]
        v.create_group("CellData").create_dataset(
            "mu", data=rng.random((15, 15, 15)))
        v.create_group("FieldData")
    cdl = os.path.join(work, "ocean.cdl")
    with open(cdl, "w") as fh:
        fh.write(CDL % ", ".join("%g" % t for t in netcdf_values().reshape(-1)))
    subprocess.run(["ncgen", "-k", "nc4", "-o", os.path.join(work, "ocean.nc"), cdl],
                   check=True)
    subprocess.run([PY, os.path.join(HERE, "ext_meep.py"), "10"], cwd=work, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    data = open(os.path.join(work, "chunked.h5"), "rb").read()
    with open(os.path.join(work, "trunc.h5"), "wb") as fh:
        fh.write(data[: len(data) // 2])


def meep_file(work, field):
    names = [n for n in os.listdir(work) if n.startswith("ring-%s-" % field) and n.endswith(".h5")]
    if len(names) != 1:
        raise RuntimeError("Meep wrote %r for %s" % (names, field))
    return names[0]


# ---- running pvox -----------------------------------------------------------------------

def run_pvox(args, work, script, name="job.gp", verbose=False, env=None):
    with open(os.path.join(work, name), "w") as fh:
        fh.write(script)
    cmd = [args.mpiexec, "--quiet", "-n", str(args.np), args.pvox] + (["-v"] if verbose else []) + [name]
    if env:
        cmd[1:1] = [w for k, v in env.items() for w in ("-x", "%s=%s" % (k, v))]
    p = subprocess.run(cmd, cwd=work, capture_output=True, text=True, timeout=240,
                       env=dict(os.environ, **(env or {})))
    return p.returncode, p.stdout, re.sub(r"^\[warn\] Epoll .*\n", "", p.stderr, flags=re.M)


def grid(path, name):
    with h5py.File(path, "r") as f:
        d = f["/grids/" + name]
        rng = [tuple(d.attrs[a]) for a in ("vxrange", "vyrange", "vzrange")]
        return d[...], rng


def same(a, b):
    return a.shape == b.shape and np.array_equal(a, b)


# ---- parts ------------------------------------------------------------------------------

def part_load(args, work):
    eps, ez = meep_file(work, "eps"), meep_file(work, "ez")
    script = """
set vxrange [-2:2]
set vyrange [-2:2]
set vzrange [-2:2]
vload $eps "%s" dataset "eps" order "xyz"
vload $ez "%s" dataset "ez" order "xyz"
vload $c "chunked.h5" dataset "/fields/ez"
vload $rho "sim.vtkhdf" dataset "rho"
vload $mu "sim.vtkhdf" dataset "mu"
vload $t "ocean.nc" dataset "temp"
vload $box "box.h5" dataset "ez" size 13
vload $boxt "box.h5" dataset "ez" order "xzy" size 12
""" % (eps, ez)
    types = ["i1", "u1", "i2", "u2", "i4", "u4", "i8", "u8", "f4", "be8"]
    for t in types:
        script += 'vload $%s "types.h5" dataset "%s"\n' % (t, t)
    # once in calls of at most 1000 bytes per rank (one index of the slowest dimension a
    # call): the voxels must not change, at any rank count
    rc, out, err = run_pvox(args, work, script + 'vsave "small.h5"\n', verbose=True,
                            env={"PVOX_H5_MAX_IO": "1000"})
    if rc != 0:
        print("FAIL: pvox exit %d (small calls)\n%s" % (rc, err))
        return 1
    script += 'vsave "out.h5"\nshow vgrid\n'
    rc, out, err = run_pvox(args, work, script, verbose=True)
    if rc != 0:
        print("FAIL: pvox exit %d\n%s" % (rc, err))
        return 1
    if "NOT collective" in err:
        print("FAIL: a read was not collective\n" + err)
        return 1
    out5 = os.path.join(work, "out.h5")
    fails = 0

    def check(name, expect, ranges=None):
        nonlocal fails
        got, rng = grid(out5, "$" + name)
        if not same(got, expect):
            bad = "shape %s vs %s" % (got.shape, expect.shape) if got.shape != expect.shape \
                else "%d voxels differ" % int(np.sum(got != expect))
            print("FAIL: $%s: %s" % (name, bad))
            fails += 1
        elif ranges is not None and not np.allclose(np.array(rng), np.array(ranges), rtol=1e-12, atol=1e-12,
                                                 equal_nan=True):
            print("FAIL: $%s: ranges %s, expected %s" % (name, rng, ranges))
            fails += 1
        else:
            print("ok   $%s %s" % (name, got.shape))

    def src(path, ds):
        with h5py.File(os.path.join(work, path), "r") as f:
            return f[ds][...]

    # Meep stores x slowest: the grid [z][y][x] is the transpose
    for name, path in (("eps", eps), ("ez", ez)):
        v = src(path, name)
        # the script's ranges: Meep's files place nothing
        # the script's waiting ranges go to the first new grid (as for set vgrid), the
        # second has none: Meep's files place nothing
        check(name, np.transpose(v, (2, 1, 0)).astype(np.float32),
              [(-2, 2)] * 3 if name == "eps" else [(np.nan, np.nan)] * 3)
    check("c", src("chunked.h5", "/fields/ez").astype(np.float32))
    check("rho", src("sim.vtkhdf", "/VTKHDF/PointData/rho"),
          [(1.0, 1.0 + 15 * 0.1), (2.0, 2.0 + 15 * 0.2), (3.0, 3.0 + 15 * 0.4)])
    check("mu", src("sim.vtkhdf", "/VTKHDF/CellData/mu").astype(np.float32),
          [(1.05, 1.05 + 14 * 0.1), (2.1, 2.1 + 14 * 0.2), (3.2, 3.2 + 14 * 0.4)])
    check("t", netcdf_values(), [(2.0, 3.25), (-1.0, 1.5), (0.0, 50.0)])
    b = src("box.h5", "ez").astype(np.float32)  # [z=8][y=10][x=12]
    e = np.zeros((13, 13, 13), np.float32)
    e[:8, :10, :12] = b
    check("box", e, [(np.nan, np.nan)] * 3)
    # order "xzy": the file's dims are x (8), z (10), y (12): grid [z][y][x]
    e = np.zeros((12, 12, 12), np.float32)
    e[:10, :12, :8] = np.transpose(b, (1, 2, 0))
    check("boxt", e)
    for t in types:
        check(t, src("types.h5", t).astype(np.float32))
    with h5py.File(out5, "r") as f, h5py.File(os.path.join(work, "small.h5"), "r") as g:
        for name in f["grids"]:
            if not same(f["grids"][name][...], g["grids"][name][...]):
                print("FAIL: %s read in small calls differs" % name)
                fails += 1
    print("ok   the same grids read in calls of 1000 bytes")
    # pvox's own grid as another program's dataset: its vxrange... attributes place it
    rc, out, err = run_pvox(args, work, 'vload $again "out.h5" dataset "/grids/$rho"\n'
                            'vsave $again "again.h5"\n')
    if rc != 0:
        print("FAIL: vload of a pvox grid as a dataset: exit %d\n%s" % (rc, err))
        return 1
    a, ra = grid(os.path.join(work, "again.h5"), "$again")
    b, rb = grid(out5, "$rho")
    if not same(a, b) or ra != rb:
        print("FAIL: /grids/$rho as a dataset: ranges %s, expected %s" % (ra, rb))
        fails += 1
    else:
        print("ok   /grids/$rho as a dataset, ranges %s" % (ra,))
    return 1 if fails else 0


ERRORS = [
    # (script line, exit code, words the message must hold)
    ('vload $g "types.h5" dataset "text"', 3, 'types.h5: dataset "text" holds strings, not numbers'),
    ('vload $g "types.h5" dataset "rec"', 3, 'types.h5: dataset "rec" holds compound records, not numbers'),
    ('vload $g "types.h5" dataset "flat"', 3, 'types.h5: dataset "flat" is 2D (4x5), not 3D'),
    ('vload $g "types.h5" dataset "f2"', 3, "2-byte floating-point numbers"),
    ('vload $g "types.h5" dataset "grp"', 3, 'dataset "grp" is a group, not a dataset'),
    ('vload $g "types.h5" dataset "nope"', 3, 'types.h5: no dataset "nope" (datasets in the file: '),
    ('vload $g "missing.h5" dataset "ez"', 3, "missing.h5: no such file"),
    ('vload $g "ocean.cdl" dataset "temp"', 3, "ocean.cdl: not an HDF5 file"),
    ('vload $g "trunc.h5" dataset "/fields/ez"', 3, "trunc.h5: "),
    ('vload $g "chunked.h5" dataset "/fields/ez" order "xyy"', 1,
     'order "xyy" must name the dataset\'s dimensions slowest first'),
    ('vload $g "chunked.h5" dataset "/fields/ez" size 19', 1,
     'size 19: dataset "/fields/ez" is 20x20x20 (x by y by z), the grid must be at least 20'),
    ('vload $g "box.h5" dataset "ez"', 1,
     'box.h5: dataset "ez" is 12x10x8 (x by y by z), not a cube; load it into a cube with '
     '`size 12` (zeros beyond it), or resample it: set vgrid $g size 12; vfill "box.h5" '
     'dataset "ez" using 1:2:3:(0):4'),
    ('vload $g $h "box.h5" dataset "ez"', 1, "a dataset loads into one grid"),
    ('vload $g "box.h5" order "xyz"', 1, "order and size go with dataset"),
    ('splot "chunked.h5" dataset "/fields/ez" using 1:2:3', 1,
     "an HDF5 dataset can only be read by vfill, vgfill and vload"),
    ('stats "chunked.h5" dataset "/fields/ez" using 1 nooutput', 1,
     "an HDF5 dataset can only be read by vfill, vgfill and vload"),
]


def part_errors(args, work):
    fails = 0
    for k, (line, want_rc, words) in enumerate(ERRORS):
        # a grid that exists before must survive a failed load unchanged
        script = ('set vgrid $g size 3\nset vxrange [0:1]\nset vyrange [0:1]\nset vzrange [0:1]\n'
                  'vfill "+" using (1):(1):(1):(5):(7)\n%s\n' % line)
        rc, out, err = run_pvox(args, work, script)
        errs = [l for l in err.splitlines() if ": error: " in l]
        ok = rc == want_rc and len(errs) == 1 and errs[0].startswith("job.gp:6:") and words in errs[0]
        ok = ok and "Segmentation" not in err and "signal" not in err
        print("%s %s -> %d %s" % ("ok  " if ok else "FAIL", line, rc, errs[0] if errs else err.strip()[:300]))
        fails += not ok
    return 1 if fails else 0


def part_vfill(args, work):
    ez = meep_file(work, "ez")
    v = h5py.File(os.path.join(work, ez), "r")["ez"][...]  # [x][y][z]
    n = v.shape
    with open(os.path.join(work, "ez.txt"), "w") as fh:
        # in the order the dataset's elements reach the voxels: x fastest (h5src.c)
        for iz in range(n[2]):
            for iy in range(n[1]):
                for ix in range(n[0]):
                    fh.write("%d %d %d %.17g\n" % (ix, iy, iz, v[ix, iy, iz]))
    script = """
set vxrange [0:%d]
set vyrange [0:%d]
set vzrange [0:%d]
set vgrid $a size 23
vfill "%s" dataset "ez" order "xyz" using 1:2:3:(1.5):(abs($4))
set vgrid $b size 23
set vxrange [0:%d]
set vyrange [0:%d]
set vzrange [0:%d]
vfill "ez.txt" using 1:2:3:(1.5):(abs($4))
vsave $a $b "fill.h5"
""" % (n[0] - 1, n[1] - 1, n[2] - 1, ez, n[0] - 1, n[1] - 1, n[2] - 1)
    rc, out, err = run_pvox(args, work, script)
    if rc != 0:
        print("FAIL: pvox exit %d\n%s" % (rc, err))
        return 1
    a, _ = grid(os.path.join(work, "fill.h5"), "$a")
    b, _ = grid(os.path.join(work, "fill.h5"), "$b")
    if not np.any(a):
        print("FAIL: the dataset fill left the grid zero")
        return 1
    if not same(a, b):
        print("FAIL: dataset fill and text fill differ at %d voxels (max %g)"
              % (int(np.sum(a != b)), float(np.max(np.abs(a - b)))))
        return 1
    print("ok   vfill from the dataset equals the text fill")
    # the not-a-cube message's resampling route: each element onto the voxel at its
    # index, the same grid as `size 12`
    rc, out, err = run_pvox(args, work, """
set vgrid $r size 12
set vxrange [0:11]
set vyrange [0:11]
set vzrange [0:11]
vfill "box.h5" dataset "ez" using 1:2:3:(0):4
vload $s "box.h5" dataset "ez" size 12
vsave $r $s "box_fill.h5"
""")
    r = grid(os.path.join(work, "box_fill.h5"), "$r")[0] if rc == 0 else None
    s_ = grid(os.path.join(work, "box_fill.h5"), "$s")[0] if rc == 0 else None
    if rc != 0 or not np.any(r) or not same(r, s_):
        print("FAIL: resampling box.h5 with vfill: exit %d\n%s" % (rc, err))
        return 1
    print("ok   box.h5 resampled with vfill equals vload ... size 12")
    # a bad source: located at the file name, exit 3, nothing filled
    rc, out, err = run_pvox(args, work, 'set vgrid $a size 5\nset vxrange [0:1]\n'
                            'set vyrange [0:1]\nset vzrange [0:1]\n'
                            'vfill "chunked.h5" dataset "nope" using 1:2:3:(0):4\n')
    errs = [l for l in err.splitlines() if ": error: " in l]
    if rc != 3 or len(errs) != 1 or not errs[0].startswith("job.gp:5:7: error: chunked.h5: no dataset \"nope\""):
        print("FAIL: vfill of a missing dataset: exit %d\n%s" % (rc, err))
        return 1
    print("ok   " + errs[0])
    return 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pvox", required=True)
    ap.add_argument("--mpiexec", default="mpiexec")
    ap.add_argument("--np", type=int, default=1)
    ap.add_argument("--part", choices=["load", "errors", "vfill"], required=True)
    args = ap.parse_args()
    args.pvox = os.path.abspath(args.pvox)
    if not shutil.which("ncgen"):
        return skip_or_fail("ncgen not found (Debian: netcdf-bin)")
    if subprocess.run([PY, "-c", "import meep"], capture_output=True).returncode != 0:
        return skip_or_fail("%s cannot import meep (Debian: python3-meep)" % PY)
    os.environ.setdefault("OMPI_ALLOW_RUN_AS_ROOT", "1")
    os.environ.setdefault("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
    os.environ["OMPI_MCA_rmaps_base_oversubscribe"] = "1"
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    work = tempfile.mkdtemp(prefix="pvox-ext-h5.")
    try:
        make_fixtures(work)
        return {"load": part_load, "errors": part_errors, "vfill": part_vfill}[args.part](args, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
