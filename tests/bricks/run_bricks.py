#!/usr/bin/env python3
"""3D binary bricks as vfill/vgfill sources (DIFF-25, exec/fill_array.c).

    run_bricks.py --pvox build/pvox --mpiexec mpiexec [--np 1,2,3] [--threads 1,2] CHECK

CHECK is one of:
  values   bricks of every element type (gnuplot's names), both byte orders, swap and
           default, several scan orders and flips, a skip= header and several fields per
           element, each the size of the grid (the fast path): the voxels read back with
           voxel() equal the values written (as floats); the whole grid equals the text
           rows path on the same numbers (`vfill "f.txt" using 1:2:3:4:5`), checksums.
  general  bricks that are not the grid's nodes (dx=, origin=, center=, other sizes),
           radius > 0, value expressions of VoxelDistance and of two fields, vgfill, and
           scan orders / flips there: equal to the text rows path (checksums, counts,
           VoxelDistance).
  direct   float32 bricks read straight into the slab's zero planes: special values
           (-0, NaNs, infinities, denormals) end as the add gives them (equal to the same
           numbers big-endian through the decoder), fresh grid, a touched plane, twice.
  errors   a truncated brick, a brick larger than its array, a missing file, an unknown
           type, a bad scan=, a 3D array in plot: the located message, the exit code (3
           for I/O, 1 for the script) on every rank, no hang.

--via-read sends the bricks stored x fastest through the reader interface HDF5 datasets
use (fill_array.h), the others still box by box. Every run happens at each --np and
--threads; the checksums (pvox -v) and the script's
output must be the same in all of them. numpy writes the bricks (in the test's own
temporary folder). Exit codes: 0 pass, 1 fail, 77 numpy missing (a failure under CI=true).
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

try:
    import numpy as np
except ImportError:  # pragma: no cover
    np = None

CHECKSUM = re.compile(r"^\[ *[0-9.]+\] r0/[0-9]+ INFO  grid: (\S+) checksum ([0-9a-f]{16})$", re.M)
LOG_LINE = re.compile(r"^\[ *[0-9.]+\] r[0-9]+/[0-9]+ (INFO|DEBUG|WARN) .*\n", re.M)

# gnuplot's type names -> numpy dtypes (long is 8 bytes on the LP64 hosts pvox runs on)
TYPES = {
    "float": "f4", "float32": "f4", "double": "f8", "float64": "f8",
    "int8": "i1", "char": "i1", "uint8": "u1", "uchar": "u1",
    "int16": "i2", "short": "i2", "uint16": "u2", "ushort": "u2",
    "int32": "i4", "int": "i4", "uint32": "u4", "uint": "u4",
    "int64": "i8", "long": "i8", "uint64": "u8", "ulong": "u8",
}

failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL: " + msg)


def store(vals, scan, flips):
    """vals[k][j][i] (element order, x fastest) -> the array in storage order: scan[0] is
    the fastest storage axis; flips reverse an axis."""
    a = vals
    for ax, f in zip("xyz", flips):
        if f:
            a = np.flip(a, axis=2 - "xyz".index(ax))
    # numpy axes of a: (z, y, x); storage wants (slowest, middle, fastest)
    order = [2 - "xyz".index(scan[d]) for d in (2, 1, 0)]
    return np.ascontiguousarray(np.transpose(a, order))


def fmt(v):
    return repr(float(v))


class Case:
    """One fill of a brick and the same fill of its text rows."""

    def __init__(self, name, n, spec, using, values, coords, grid, text_using=None,
                 cmd="vfill", fields=None):
        self.name, self.n, self.spec, self.using = name, n, spec, using
        self.values, self.coords, self.grid, self.cmd = values, coords, grid, cmd
        self.text_using = text_using or using
        self.fields = fields  # extra field arrays (element order), written as columns 5..
        self.fast = False     # the fast path must run (else the general one)


def write_text(path, case, scan="xyz", flips=(False, False, False)):
    """The case's elements as text rows x y z value(s), in the brick's storage order (the
    order a fill must see them in)."""
    nx, ny, nz = case.n
    xs, ys, zs = case.coords
    cols = [case.values] + (case.fields or [])
    kk, jj, ii = np.meshgrid(np.arange(nz), np.arange(ny), np.arange(nx), indexing="ij")
    order = [store(v, scan, flips).ravel() for v in (ii, jj, kk)]
    with open(path, "w") as f:
        for i, j, k in zip(*order):
            f.write("%s %s %s %s\n" % (fmt(xs[i]), fmt(ys[j]), fmt(zs[k]),
                                       " ".join(fmt(c[k, j, i]) for c in cols)))


def grid_cmds(name, g):
    size, lo, hi = g
    return ("set vgrid %s size %d\nset vxrange [%r:%r]; set vyrange [%r:%r]; "
            "set vzrange [%r:%r]\n" % (name, size, lo[0], hi[0], lo[1], hi[1], lo[2], hi[2]))


def run(a, script, cwd, np_, nt, expect_rc=0):
    env = dict(os.environ)
    env["OMP_NUM_THREADS"] = str(nt)
    if a.via_read:  # bricks stored x fastest go through the reader interface (HDF5's path)
        env["PVOX_TEST_ARRAY_READ"] = "1"
    cmd = [a.mpiexec, "-n", str(np_), a.pvox, "-v", script]
    try:
        p = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True,
                           timeout=a.timeout)
    except subprocess.TimeoutExpired:
        fail("%s at np %d threads %d: no end within %d s (hang guard)" % (script, np_, nt, a.timeout))
        return None
    if p.returncode != expect_rc:
        fail("%s at np %d threads %d: exit %d, expected %d\n%s" % (script, np_, nt, p.returncode,
                                                                   expect_rc, p.stderr[-3000:]))
        return None
    return p


def script_runs(a, tmp, name, lines):
    """Write lines as tmp/name and run it at every --np and --threads; yields (np, threads,
    process) for each run that exited as expected (run() reports the others)."""
    script = os.path.join(tmp, name)
    with open(script, "w") as f:
        f.write("".join(lines))
    for np_ in a.np:
        for nt in a.threads:
            p = run(a, script, tmp, np_, nt)
            if p is not None:
                yield np_, nt, p


def check_runs(a, tmp, cases, samples):
    """Write every case's brick and text, run one script at every rank/thread count."""
    lines = []
    for c in cases:
        lines.append(grid_cmds("$b_" + c.name, c.grid))
        lines.append('%s "%s.bin" binary %s using %s\n' % (c.cmd, c.name, c.spec, c.using))
        lines.append('print "%s brick VoxelDistance ", VoxelDistance\n' % c.name)
        for (x, y, z) in samples.get(c.name, []):
            lines.append('print "%s voxel(%r,%r,%r) = ", sprintf("%%.17g", voxel(%r,%r,%r))\n' % (c.name, x, y, z, x, y, z))
        lines.append(grid_cmds("$t_" + c.name, c.grid))
        lines.append('%s "%s.txt" using %s\n' % (c.cmd, c.name, c.text_using))
        lines.append('print "%s text VoxelDistance ", VoxelDistance\n' % c.name)
    ref = None
    for np_, nt, p in script_runs(a, tmp, "job.gp", lines):
        sums = dict(CHECKSUM.findall(p.stderr))
        for c in cases:
            b, t = sums.get("$b_" + c.name), sums.get("$t_" + c.name)
            if b is None or t is None:
                fail("%s: no checksum logged (np %d)" % (c.name, np_))
            elif b != t:
                fail("%s: brick grid %s != text rows grid %s (np %d threads %d)" %
                     (c.name, b, t, np_, nt))
        for c in cases:
            fast = ("vfill of %s.bin: the array's elements are the grid's voxels" % c.name) in p.stderr
            if fast != c.fast:
                fail("%s: the %s path ran, expected the %s path" % (
                    c.name, "fast" if fast else "general", "fast" if c.fast else "general"))
        text = p.stdout + LOG_LINE.sub("", p.stderr)
        # the brick's and the text's reports must agree (counts, VoxelDistance)
        reports = re.findall(r"vfill from (\S+) :\n((?:\t.*\n)*)", text) + \
            re.findall(r"vgfill from (\S+) :\n((?:\t.*\n)*)", text)
        rep = {}
        for src, body in reports:
            rep[src] = body
        for c in cases:
            if rep.get(c.name + ".bin") != rep.get(c.name + ".txt"):
                fail("%s: reports differ:\n%s---\n%s" % (c.name, rep.get(c.name + ".bin"),
                                                        rep.get(c.name + ".txt")))
            vb = re.search(r"^%s brick VoxelDistance (.*)$" % c.name, text, re.M)
            vt = re.search(r"^%s text VoxelDistance (.*)$" % c.name, text, re.M)
            if not vb or not vt or vb.group(1) != vt.group(1):
                fail("%s: VoxelDistance after the fill differs: %s / %s" % (c.name, vb and vb.group(1), vt and vt.group(1)))
        if ref is None:
            ref = (sums, text)
        elif (sums, text) != ref:
            fail("np %d threads %d: output or checksums differ from np %d threads %d" %
                 (np_, nt, a.np[0], a.threads[0]))
    return ref


def node_coords(n, lo, hi):
    d = (hi - lo) / (n - 1)
    return [lo + i * d for i in range(n)]


def check_values(a, tmp):
    rng = np.random.default_rng(7)
    n = 11  # odd: uneven slabs at 2 and 3 ranks
    grid = (n, (0.0, 0.0, 0.0), (float(n - 1),) * 3)
    coords = [list(map(float, range(n)))] * 3
    cases, samples, expect = [], {}, {}
    variants = [  # (endian spec, numpy byte order, scan, flips, skip)
        ("", "<", "xyz", (False, False, False), 0),
        ("endian=little", "<", "zyx", (False, False, False), 0),
        ("endian=big", ">", "yzx", (True, False, False), 0),
        ("endian=swap", ">", "xzy", (False, True, True), 16),
        ("endian=default", "<", "zxy", (True, True, True), 3),
        ("endian=big", ">", "xyz", (True, False, True), 8),
    ]
    for t_i, (tname, dt) in enumerate(sorted(TYPES.items())):
        esp, bo, scan, flips, skip = variants[t_i % len(variants)]
        kind = np.dtype(dt).kind
        if kind == "f":
            vals = rng.standard_normal((n, n, n)) * 100
        else:
            info = np.iinfo(np.dtype(dt))
            vals = rng.integers(max(info.min, -(1 << 20)), min(info.max, 1 << 20),
                                size=(n, n, n), endpoint=True)
        vals = vals.astype(np.dtype(bo + dt))
        name = "v_%s" % tname
        stored = store(vals, scan, flips)
        with open(os.path.join(tmp, name + ".bin"), "wb") as f:
            f.write(b"\xa5" * skip)
            f.write(stored.tobytes())
        opts = ["array=%dx%dx%d" % (n, n, n), 'format="%%%s"' % tname]
        if esp:
            opts.append(esp)
        if scan != "xyz":
            opts.append("scan=" + scan)
        fl = "".join(ax for ax, f in zip("xyz", flips) if f)
        if len(fl) == 1:
            opts.append("flip%s" % fl)
        elif fl:
            opts.append("flip=%s" % fl)
        if skip:
            opts.append("skip=%d" % skip)
        value = vals.astype(np.float64)
        c = Case(name, (n, n, n), " ".join(opts), "1:2:3:(0):4" if t_i % 2 else "1:2:3:(0):($4)",
                 value, coords, grid)
        c.fast = True
        write_text(os.path.join(tmp, name + ".txt"), c, scan, flips)
        cases.append(c)
        pts = [(int(i), int(j), int(k)) for i, j, k in rng.integers(0, n, size=(6, 3))]
        pts += [(0, 0, 0), (n - 1, n - 1, n - 1), (0, n - 1, 0)]
        samples[name] = [(float(i), float(j), float(k)) for i, j, k in pts]
        expect[name] = [float(np.float32(value[k, j, i])) for i, j, k in pts]
    # two fields with a skipped one between them: column 4 goes to the grid (fast path)
    name = "v_fields"
    f1 = rng.standard_normal((n, n, n)).astype("<f4")
    f2 = rng.integers(-1000, 1000, size=(n, n, n)).astype("<i2")
    rec = np.zeros((n, n, n), dtype=[("a", "<f4"), ("pad", "<i4"), ("b", "<i2")])
    rec["a"], rec["b"] = f1, f2
    rec.tofile(os.path.join(tmp, name + ".bin"))
    c = Case(name, (n, n, n), 'array=(%d,%d,%d) format="%%float%%*int32%%int16"' % (n, n, n),
             "1:2:3:(0):4", f1.astype(np.float64), coords, grid,
             fields=[f2.astype(np.float64)])
    c.fast = True
    write_text(os.path.join(tmp, name + ".txt"), c)
    cases.append(c)
    samples[name] = [(1.0, 2.0, 3.0), (10.0, 0.0, 5.0)]
    expect[name] = [float(f1[3, 2, 1]), float(f1[5, 0, 10])]
    # value expressions without VoxelDistance also take the fast path (evaluated per
    # element, a row at a time): coordinates under scan= and flips, two fields
    for name, scan, flips, using in [
            ("v_expr", "zyx", (False, True, False), "1:2:3:(0):($4*2+$1-$3/7.0)"),
            ("v_expr2", "xyz", (True, False, True), "1:2:3:(0):(($4-$5)*exp(-$2/5))")]:
        rec = np.zeros((n, n, n), dtype=[("a", ">f8"), ("b", ">i4")])
        rec["a"] = rng.standard_normal((n, n, n))
        rec["b"] = rng.integers(-50, 50, size=(n, n, n))
        with open(os.path.join(tmp, name + ".bin"), "wb") as f:
            f.write(store(rec, scan, flips).tobytes())
        fl = " ".join("flip" + ax for ax, f_ in zip("xyz", flips) if f_)
        c = Case(name, (n, n, n), 'array=%dx%dx%d format="%%double%%int32" endian=big scan=%s %s'
                 % (n, n, n, scan, fl), using, rec["a"].astype(np.float64), coords, grid,
                 fields=[rec["b"].astype(np.float64)])
        c.fast = True
        write_text(os.path.join(tmp, name + ".txt"), c, scan, flips)
        cases.append(c)
        expect[name] = []
        samples[name] = []
    # elements just below the nodes (dx=0.999): the ceil rule still maps element i to node
    # i, so the fast path runs; VoxelDistance after it is the last element's distance
    name = "v_near"
    vals = rng.standard_normal((n, n, n)).astype("<f4")
    vals.tofile(os.path.join(tmp, name + ".bin"))
    near = [i * 0.999 for i in range(n)]
    c = Case(name, (n, n, n), 'array=%dx%dx%d dx=0.999' % (n, n, n), "1:2:3:(0):4",
             vals.astype(np.float64), [near] * 3, grid)
    c.fast = True
    write_text(os.path.join(tmp, name + ".txt"), c)
    cases.append(c)
    samples[name] = [(5.0, 6.0, 7.0)]
    expect[name] = [float(vals[7, 6, 5])]
    ref = check_runs(a, tmp, cases, samples)
    if ref is None:
        return
    if not re.search(r"^v_near brick VoxelDistance +0\.0[0-9]", ref[1], re.M):
        fail("v_near: VoxelDistance after the fill should be the last element's distance")
    out = ref[1]
    for c in cases:
        got = re.findall(r"^%s voxel\(.*\) = (.*)$" % c.name, out, re.M)
        if len(got) != len(expect[c.name]):
            fail("%s: %d sampled voxels printed, expected %d" % (c.name, len(got), len(expect[c.name])))
            continue
        for g, e, p in zip(got, expect[c.name], samples[c.name]):
            if float(g) != e:
                fail("%s: voxel%s = %s, the brick holds %r" % (c.name, p, g, e))


def check_general(a, tmp):
    rng = np.random.default_rng(11)
    cases = []

    def add(name, nxyz, opts, using, grid, origin=(0.0, 0.0, 0.0), delta=(1.0, 1.0, 1.0),
            center=None, scan="xyz", flips=(False, False, False), cmd="vfill", fields=0,
            dtype="<f4", tformat="float32"):
        nx, ny, nz = nxyz
        vals = (rng.standard_normal((nz, ny, nx)) * 10).astype(dtype)
        extra = [(rng.standard_normal((nz, ny, nx)) * 10).astype(dtype) for _ in range(fields)]
        coords = []
        for ax, cnt in enumerate(nxyz):
            d = delta[ax]
            if center is not None:
                coords.append([(i * d - (cnt - 1) * (d / 2)) + center[ax] for i in range(cnt)])
            else:
                coords.append([origin[ax] + i * d for i in range(cnt)])
        if fields:
            rec = np.zeros((nz, ny, nx), dtype=[("f%d" % k, dtype) for k in range(fields + 1)])
            rec["f0"] = vals
            for k in range(fields):
                rec["f%d" % (k + 1)] = extra[k]
            stored = store(rec, scan, flips)
        else:
            stored = store(vals, scan, flips)
        stored.tofile(os.path.join(tmp, name + ".bin"))
        spec = 'array=%dx%dx%d format="%s" %s' % (nx, ny, nz, ("%" + tformat) * (fields + 1), opts)
        if dtype[0] == ">":
            spec += " endian=big"
        if scan != "xyz":
            spec += " scan=" + scan
        for ax, f in zip("xyz", flips):
            if f:
                spec += " flip" + ax
        c = Case(name, nxyz, spec, using, vals.astype(np.float64), coords, grid, cmd=cmd,
                 fields=[e.astype(np.float64) for e in extra])
        write_text(os.path.join(tmp, name + ".txt"), c, scan, flips)
        cases.append(c)

    g16 = (16, (0.0, 0.0, 0.0), (15.0, 15.0, 15.0))
    # the grid's own nodes, but a radius: the kernel (general path)
    add("g_radius", (16, 16, 16), "", "1:2:3:(1.5):($4*VoxelDistance+1)", g16)
    # not the grid's nodes: dx=, origin=, other sizes, some elements outside the grid
    add("g_dx", (13, 9, 11), "dx=1.3 dy=1.7 dz=1.1", "1:2:3:(0):4", g16, delta=(1.3, 1.7, 1.1))
    add("g_origin", (10, 12, 7), "origin=(2.5,-1,3.25) dx=1.5", "1:2:3:(2):(exp(-VoxelDistance)*$4)",
        g16, origin=(2.5, -1.0, 3.25), delta=(1.5, 1.5, 1.5))
    add("g_center", (9, 9, 9), "center=(7.5,7.5,7.5) dx=1.25", "1:2:3:(1.2):4", g16,
        center=(7.5, 7.5, 7.5), delta=(1.25, 1.25, 1.25))
    # scan orders and flips in the general path: each voxel gets sources in file order
    add("g_scan_zyx", (12, 10, 14), "dx=1.2", "1:2:3:(2.5):($4+VoxelDistance)", g16,
        delta=(1.2, 1.2, 1.2), scan="zyx")
    add("g_scan_yzx", (12, 10, 14), "dx=1.2", "1:2:3:(2.5):($4*2)", g16,
        delta=(1.2, 1.2, 1.2), scan="yzx", flips=(True, False, True))
    add("g_flipz", (16, 16, 16), "", "1:2:3:(3):($4*VoxelDistance)", g16, flips=(False, True, True))
    # planes larger than a box of the general path (several boxes per plane; through the
    # reader interface, whole planes)
    add("g_wide", (400, 330, 2), "dx=0.0375 dy=0.045 dz=7", "1:2:3:(0.05):4", g16,
        delta=(0.0375, 0.045, 7.0), flips=(True, False, False))
    # two fields, radius from a column, coordinates as expressions
    add("g_fields", (11, 11, 11), "", "($1+0.25):2:($3*1.2):(abs($5)/4):($4-$5)", g16, fields=1)
    # vgfill (grid units)
    add("g_vgfill", (16, 16, 16), "", "1:2:3:(1.5):($4*GridDistance)", g16, cmd="vgfill")
    add("g_vgfill_scan", (16, 16, 16), "", "1:2:3:(2):4", g16, cmd="vgfill", scan="zxy",
        dtype=">f8", tformat="float64")
    check_runs(a, tmp, cases, {})


ERRORS = [
    # name, brick bytes (None: no file), spec, expected rc, message part
    ("e_short", 7 * 7 * 7 * 4 - 4, 'array=7x7x7 format="%float32"', 3,
     "holds 1368 bytes, but array=7x7x7 of float32 (4 bytes each) after skip=0 needs 1372"),
    ("e_long", 7 * 7 * 7 * 4 + 8, 'array=7x7x7 format="%float32"', 3, "the array is smaller than the file"),
    ("e_skip", 7 * 7 * 7 * 2, 'array=7x7x7 format="%int16" skip=2', 3, "the file is truncated"),
    ("e_missing", None, 'array=7x7x7 format="%float32"', 3, "cannot open 'e_missing.bin'"),
    ("e_type", 7 * 7 * 7 * 4, 'array=7x7x7 format="%float16"', 1,
     "Unrecognized binary format specification"),
    ("e_scan", 7 * 7 * 7 * 4, 'array=7x7x7 scan=xxz', 1, "scan= of a 3D array must be a permutation of xyz"),
    ("e_scan2", 7 * 7 * 7 * 4, 'array=7x7x7 scan=yx', 1, "scan= of a 3D array must be a permutation of xyz"),
    ("e_dims", 7 * 7 * 7 * 4, 'array=7x7x0', 1, "the sizes of a 3D array must be positive"),
    ("e_col", 7 * 7 * 7 * 4, 'array=7x7x7', 1, "column 5: a 3D array has columns 1 to 4"),
]


def check_direct(a, tmp):
    """float32 bricks in the machine's byte order read straight into zero planes of the
    slab (fill_array.c, fast_brick): special values (-0, signalling and quiet NaNs,
    infinities, denormals) must end as the add gives them, as when the same numbers come
    big-endian through the decoder; into a fresh grid, into one with a nonzero voxel
    (its plane takes the add), and added a second time."""
    n = 16
    rng = np.random.default_rng(5)
    bits = (rng.standard_normal((n, n, n)) * 50).astype("<f4").view("<u4")
    special = [0x80000000, 0x7f800001, 0xff800123, 0x7fc00000, 0xffc00001, 0x7f800000,
               0xff800000, 0x00000001, 0x80000001, 0x00000000]
    flat = bits.reshape(-1)
    for k, v in enumerate(special * 20):
        flat[(k * 977) % flat.size] = v
    bits.astype("<u4").tofile(os.path.join(tmp, "d_le.bin"))
    bits.astype(">u4").tofile(os.path.join(tmp, "d_be.bin"))
    spec = 'binary array=%dx%dx%d format="%%float32"' % (n, n, n)
    lines = ["$pt << EOD\n3 5 9\nEOD\n"]
    for tag, pre in (("fresh", ""), ("touched", "vfill $pt using 1:2:3:(0):(2.5)\n")):
        for f, extra in (("d_le", ""), ("d_be", " endian=big")):
            g = "$%s_%s" % (tag, f[2:])
            lines.append(grid_cmds(g, (n, (0.0, 0.0, 0.0), (float(n - 1),) * 3)))
            lines.append(pre)
            lines.append('vfill "%s.bin" %s%s using 1:2:3:(0):4\n' % (f, spec, extra))
            lines.append('vfill "%s.bin" %s%s using 1:2:3:(0):4\n' % (f, spec, extra))
    seen = None
    for np_, nt, p in script_runs(a, tmp, "direct.gp", lines):
        sums = CHECKSUM.findall(p.stderr)
        if len(sums) != 10:
            fail("direct: %d checksums logged, expected 10 (np %d)" % (len(sums), np_))
            continue
        # logged in order: fresh le (once, twice), fresh be (once, twice), touched le
        # (the point, once, twice), touched be (the same); le (direct) == be (decoder)
        for i, j in ((0, 2), (1, 3), (5, 8), (6, 9)):
            if sums[i][1] != sums[j][1]:
                fail("direct: %s %s != %s %s (np %d threads %d)" % (
                    sums[i] + sums[j] + (np_, nt)))
        if seen is None:
            seen = sums
        elif sums != seen:
            fail("direct: checksums differ at np %d threads %d" % (np_, nt))


def check_errors(a, tmp):
    for name, size, spec, rc, msg in ERRORS:
        if size is not None:
            with open(os.path.join(tmp, name + ".bin"), "wb") as f:
                f.write(bytes(size))
        using = "1:2:3:(0):5" if name == "e_col" else "1:2:3:(0):4"
        script = os.path.join(tmp, name + ".gp")
        with open(script, "w") as f:
            f.write(grid_cmds("$g", (7, (0.0,) * 3, (6.0,) * 3)))
            f.write('voxel(1,1,1) = 5\n')
            f.write('vfill "%s.bin" binary %s using %s\n' % (name, spec, using))
            f.write('print "not reached"\n')
        for np_ in a.np:
            p = run(a, script, tmp, np_, 1, expect_rc=rc)
            if p is None:
                continue
            want = "%s.gp:4:" % name
            if want not in p.stderr or ": error: " not in p.stderr or msg not in p.stderr:
                fail("%s (np %d): expected a located error '%s...%s', got:\n%s" %
                     (name, np_, want, msg, p.stderr))
            if p.stderr.count(": error: ") != 1:
                fail("%s (np %d): the error is printed %d times" % (name, np_, p.stderr.count(": error: ")))
            if "not reached" in p.stdout:
                fail("%s: the script went on" % name)
    # a 3D array anywhere but vfill/vgfill is refused
    with open(os.path.join(tmp, "e_plot.bin"), "wb") as f:
        f.write(bytes(4 * 8))
    script = os.path.join(tmp, "e_plot.gp")
    with open(script, "w") as f:
        f.write('set table "e_plot.tab"\nplot "e_plot.bin" binary array=2x2x2 using 1:2\n')
    for np_ in a.np[:1]:
        p = run(a, script, tmp, np_, 1, expect_rc=1)
        if p is not None and "can only be read by vfill and vgfill" not in p.stderr:
            fail("e_plot: expected the refusal, got:\n%s" % p.stderr)


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pvox", required=True)
    ap.add_argument("--mpiexec", default="mpiexec")
    ap.add_argument("--np", default="1,2,3")
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--timeout", type=int, default=120)
    ap.add_argument("--via-read", action="store_true",
                    help="read bricks stored x fastest through the pv_array_src interface "
                         "(PVOX_TEST_ARRAY_READ=1), the path HDF5 datasets take")
    ap.add_argument("check", choices=["values", "general", "direct", "errors"])
    a = ap.parse_args()
    if np is None:  # the suite's Python may lack numpy: Debian's has it
        for py in ["/usr/bin/python3", shutil.which("python3")]:
            if py and os.path.exists(py) and os.path.realpath(py) != os.path.realpath(sys.executable):
                if subprocess.run([py, "-c", "import numpy"], stdout=subprocess.DEVNULL,
                                  stderr=subprocess.DEVNULL).returncode == 0:
                    os.execv(py, [py] + sys.argv)
        if os.environ.get("CI", "").lower() == "true":
            print("FAIL (CI): numpy is missing")
            return 1
        print("SKIP: numpy is missing")
        return 77
    a.pvox = os.path.abspath(a.pvox)
    a.mpiexec = shutil.which(a.mpiexec) or a.mpiexec
    a.np = [int(v) for v in a.np.split(",")]
    a.threads = [int(v) for v in a.threads.split(",")]
    with tempfile.TemporaryDirectory(prefix="pv-bricks-") as tmp:
        {"values": check_values, "general": check_general, "direct": check_direct, "errors": check_errors}[a.check](a, tmp)
    if failures:
        print("%d failure(s)" % len(failures))
        return 1
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
