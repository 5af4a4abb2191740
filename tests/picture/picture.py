#!/usr/bin/env python3
"""Picture tests of pvox's renderer (tests/picture/README.md explains each check).

    picture.py render --pvox P --out DIR SCENE.gp ...
        Render the scenes at 1 rank / 1 thread into DIR (the reference of the next two).
    picture.py determinism --pvox P --mpiexec M --np N [--threads 1,2] [--ref DIR] SCENE...
        Render the scenes at 1 rank / 1 thread (the reference, or take --ref) and at N
        ranks with each thread count; every picture must equal the reference up to a
        channel difference of 2 on at most 0.1% of the pixels.
    picture.py golden --pvox P --golden DIR [--update] [--ref DIR] SCENE.gp ...
        Render at 1 rank (or take --ref) and compare with DIR/<scene>.png: a channel
        difference above 8 is allowed on at most 0.5% of the pixels. --update rewrites
        the goldens (look at them before committing).
    picture.py fidelity --pvox P [--gnuplot G] [--size W,H] CHECK:SCENE.gp ...
        Render each scene with pvox (pngcairo) and with gnuplot 5.4 (svg, and pngcairo as a
        check of the checker); CHECK is one of
          positions  pt 7 markers of each colour (red, blue) and long border edges: pvox's
                     marker centroids and edge lines within 1 px of gnuplot's svg
                     coordinates mapped to PNG pixels
          pm3d       the centre pixel of every svg pm3d polygon has the svg fill colour
                     (blended over white with its fill-opacity) within 3 levels
          counts     as many markers (connected blobs of coloured ink) as svg point
                     markers, each within 1 px, with the svg colour (and opacity) within 3
          lines      red and blue data lines: every straight piece of the svg's paths has
                     ink of its colour along it within 1 px, as wide as gnuplot's PNG's
    picture.py sequence --pvox P --mpiexec M --np N [--threads 1,2] SCENE.gp ...
        Frame sequences: each scene writes <scene>_NN.png. At N ranks every frame must have
        the bytes of the same frame written by rank 0 (--frame-writer 0), whichever rank
        wrote it; equal the 1-rank / 1-thread frame (tolerance as determinism); and the
        run's --stats must show frame f written by rank
        f mod N, with the writer receiving at most two images' worth of compositor bytes.
    picture.py side --pvox P --out DIR SCENE.gp ...
        Review tool: DIR/<scene>_side.png = gnuplot pngcairo | pvox | difference.

Scenes for determinism/golden/side write "<scene>.png" themselves (set term + set out);
fidelity scenes have neither: the checker prepends them. Every run happens in a scratch
copy of the scene's folder. Exit codes: 0 pass, 1 fail, 77 skip (missing numpy/PIL or
gnuplot; a failure instead when the environment has CI=true).
"""
import argparse
import math
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir))
import pngcheck  # noqa: E402  (tests/pngcheck.py: strict PNG decoding)

np = None
Image = None

SKIP = 77


def skip_or_fail(msg):
    if os.environ.get("CI", "").lower() == "true":
        print("FAIL: %s (CI=true: a missing prerequisite is a failure)" % msg)
        return 1
    print("SKIP: %s" % msg)
    return SKIP


def load_imaging():
    """Import numpy and PIL; None on success, else the exit code."""
    global np, Image
    try:
        import numpy
        from PIL import Image as pil_image
    except ImportError as e:
        return skip_or_fail("%s cannot import numpy and PIL (%s)" % (sys.executable, e))
    np, Image = numpy, pil_image
    return None


def read_rgb(path):
    """The picture's RGB pixels; the file must pass the strict check first (PIL does not
    look at the zlib checksum)."""
    fault = pngcheck.fault(path)
    if fault:
        raise RunError("strict PNG check: %s" % fault)
    return np.asarray(Image.open(path).convert("RGB")).astype(np.int16)


# =====================================================================================
# Running pvox and gnuplot
# =====================================================================================

class RunError(Exception):
    pass


def scratch_copy(folder):
    work = tempfile.mkdtemp(prefix="pvox-picture.")
    for name in os.listdir(folder):
        src = os.path.join(folder, name)
        if os.path.isfile(src):
            shutil.copy(src, work)
    return work


def pvox_command(a, nranks, threads):
    """The command line's start for pvox on nranks ranks (mpiexec when given)."""
    cmd = []
    if a.mpiexec:
        cmd += [a.mpiexec, "--oversubscribe", "-n", str(nranks)]
    elif nranks != 1:
        raise RunError("--mpiexec is needed for %d ranks" % nranks)
    return cmd + [a.pvox, "-q", "--threads", str(threads)] + shlex.split(a.pvox_args)


def exec_pvox(a, cmd, work, threads):
    """Run cmd in work with OMP_NUM_THREADS=threads; a failure or a hang removes work and
    raises RunError."""
    env = dict(os.environ)
    env["OMP_NUM_THREADS"] = str(threads)
    env.setdefault("OMPI_ALLOW_RUN_AS_ROOT", "1")
    env.setdefault("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
    try:
        p = subprocess.run(cmd, cwd=work, env=env, capture_output=True, text=True,
                           timeout=a.timeout)
    except subprocess.TimeoutExpired:
        shutil.rmtree(work)
        raise RunError("pvox timed out after %d s (hang?): %s" % (a.timeout, " ".join(cmd)))
    if p.returncode != 0:
        shutil.rmtree(work)
        raise RunError("pvox failed (exit %d): %s\n%s%s" % (p.returncode, " ".join(cmd),
                                                            p.stdout, p.stderr))
    check_pngs(a, work, cmd)
    return p


def check_pngs(a, work, cmd):
    """Every PNG in work (what pvox wrote, and the copied inputs) must pass the strict
    check (tests/pngcheck.py); else the faulty files go to --keep, work is removed and
    RunError raised."""
    faults = []
    for root, _, files in os.walk(work):
        for f in sorted(files):
            if f.endswith(".png"):
                msg = pngcheck.fault(os.path.join(root, f))
                if msg:
                    faults.append(msg)
                    if a.keep:
                        os.makedirs(a.keep, exist_ok=True)
                        shutil.copy(os.path.join(root, f), a.keep)
    if faults:
        shutil.rmtree(work)
        raise RunError("pvox wrote PNG files a strict decoder refuses (%s):\n  %s"
                       % (" ".join(cmd), "\n  ".join(faults)))


def run_pvox(a, folder, scenes, nranks=1, threads=1, pre=None):
    """Run the scenes (one pvox session, `reset session` between them) on nranks ranks in
    a scratch copy of `folder`; returns the scratch directory. pre(scene) gives commands
    run just before each scene (or None)."""
    work = scratch_copy(folder)
    try:
        cmd = pvox_command(a, nranks, threads)
    except RunError:
        shutil.rmtree(work)
        raise
    for i, s in enumerate(scenes):
        if i:
            cmd += ["-e", "reset session"]
        if pre:
            cmd += ["-e", pre(s)]
        cmd.append(s + ".gp")
    p = exec_pvox(a, cmd, work, threads)
    for s in scenes:
        if not os.path.isfile(os.path.join(work, s + ".png")):
            shutil.rmtree(work)
            raise RunError("pvox wrote no %s.png: %s\n%s" % (s, " ".join(cmd), p.stderr))
    return work


GPVAL_PRINT = ("set out; print 'GPVAL', GPVAL_TERM_XMIN, GPVAL_TERM_XMAX, GPVAL_TERM_YMIN, "
               "GPVAL_TERM_YMAX, GPVAL_TERM_XSIZE, GPVAL_TERM_YSIZE, GPVAL_TERM_SCALE")


class TermBounds:
    """gnuplot's 3D plot bounds and canvas in terminal units (GPVAL_TERM_*)."""

    def __init__(self, line):
        v = [float(x) for x in line.split()[1:]]
        scale = v[6]
        self.scale = scale
        self.xleft, self.xright = round(v[0] * scale), round(v[1] * scale)
        self.ybot, self.ytop = round(v[2] * scale), round(v[3] * scale)
        self.xsize, self.ysize = round(v[4]), round(v[5])
        # graph3d.c's layout arithmetic (integer division of positive ints)
        self.xmiddle = (self.xleft + self.xright) // 2
        self.ymiddle = (self.ytop + self.ybot) // 2
        self.xscaler = (self.xright - self.xleft) * 4 // 7
        self.yscaler = (self.ytop - self.ybot) * 4 // 7


def run_gnuplot(a, work, scene, term, out):
    """gnuplot `term` -> `out` for scene.gp in work; returns its TermBounds."""
    cmd = [a.gnuplot, "-e", "set term %s; set out '%s'" % (term, out), scene + ".gp",
           "-e", GPVAL_PRINT]
    try:
        p = subprocess.run(cmd, cwd=work, capture_output=True, text=True, timeout=a.timeout)
    except subprocess.TimeoutExpired:
        raise RunError("gnuplot timed out: %s" % " ".join(cmd))
    lines = [l for l in p.stderr.splitlines() if l.startswith("GPVAL")]
    if p.returncode != 0 or not lines or not os.path.isfile(os.path.join(work, out)):
        raise RunError("gnuplot failed (exit %d): %s\n%s" % (p.returncode, " ".join(cmd),
                                                             p.stderr))
    return TermBounds(lines[-1])


# =====================================================================================
# Image comparison
# =====================================================================================

def compare(got, ref, tol):
    """(max channel difference, number of pixels whose difference exceeds tol)."""
    if got.shape != ref.shape:
        return None, None
    d = np.abs(got - ref).max(axis=2)
    return int(d.max()), int((d > tol).sum())


def diff_image(got, ref):
    """White where equal, pink for 1..8 levels, red above: for looking at failures."""
    d = np.abs(got - ref).max(axis=2)
    out = np.full(got.shape, 255, dtype=np.uint8)
    out[d > 0] = (255, 190, 190)
    out[d > 8] = (220, 0, 0)
    return out


def save_failure(a, name, got, ref):
    if not a.keep:
        return
    os.makedirs(a.keep, exist_ok=True)
    if ref is not None and got.shape == ref.shape:
        row = np.concatenate([ref, got, diff_image(got, ref)], axis=1)
    else:
        row = got
    path = os.path.join(a.keep, name + "_fail.png")
    Image.fromarray(row.astype(np.uint8)).save(path)
    print("   wrote %s (reference | got | difference)" % path)


def scene_names(paths):
    folders = {os.path.dirname(os.path.abspath(p)) for p in paths}
    if len(folders) != 1:
        raise RunError("all scenes must be in one folder")
    return folders.pop(), [os.path.splitext(os.path.basename(p))[0] for p in paths]


def reference_dir(a, folder, scenes):
    """The 1-rank 1-thread pictures: --ref DIR (made by `render`) or a fresh render.
    Returns (directory, whether it is a scratch directory to remove)."""
    if a.ref:
        for s in scenes:
            if not os.path.isfile(os.path.join(a.ref, s + ".png")):
                raise RunError("no reference picture %s/%s.png (run `picture.py render`)"
                               % (a.ref, s))
        return a.ref, False
    return run_pvox(a, folder, scenes, 1, 1), True


def cmd_render(a):
    folder, scenes = scene_names(a.scenes)
    if os.path.isdir(a.out):
        shutil.rmtree(a.out)
    work = run_pvox(a, folder, scenes, 1, 1)
    os.makedirs(a.out)
    for s in scenes:
        shutil.copy(os.path.join(work, s + ".png"), a.out)
    shutil.rmtree(work)
    print("rendered %d scenes at 1 rank, 1 thread into %s" % (len(scenes), a.out))
    return 0


def cmd_determinism(a):
    folder, scenes = scene_names(a.scenes)
    ref_dir, scratch = reference_dir(a, folder, scenes)
    refs = {s: read_rgb(os.path.join(ref_dir, s + ".png")) for s in scenes}
    if scratch:
        shutil.rmtree(ref_dir)
    failed = 0
    for nt in a.threads:
        if a.np == 1 and nt == 1:
            continue
        work = run_pvox(a, folder, scenes, a.np, nt)
        for s in scenes:
            got = read_rgb(os.path.join(work, s + ".png"))
            mx, nbad = compare(got, refs[s], 2)
            if mx is None:
                print("FAIL %s np %d threads %d: size %s, reference %s" %
                      (s, a.np, nt, got.shape, refs[s].shape))
                failed += 1
                continue
            limit = 0.001 * got.shape[0] * got.shape[1]
            ok = nbad <= limit
            print("%s %s np %d threads %d: max difference %d, %d pixels > 2 (%.3f%%, "
                  "limit 0.1%%)" % ("ok  " if ok else "FAIL", s, a.np, nt, mx, nbad,
                                   100.0 * nbad / (got.shape[0] * got.shape[1])))
            if not ok:
                failed += 1
                save_failure(a, "%s_np%d_t%d" % (s, a.np, nt), got, refs[s])
        shutil.rmtree(work)
    return 1 if failed else 0


def run_sequence(a, folder, scene, nranks, threads, stats=None, extra=()):
    """Run a frame-sequence scene (it writes <scene>_NN.png); returns (scratch dir, the
    sorted frame names)."""
    work = scratch_copy(folder)
    cmd = pvox_command(a, nranks, threads) + list(extra)
    if stats:
        cmd += ["--stats", stats]
    cmd.append(scene + ".gp")
    exec_pvox(a, cmd, work, threads)
    frames = sorted(f for f in os.listdir(work)
                    if f.startswith(scene + "_") and f.endswith(".png"))
    if not frames:
        shutil.rmtree(work)
        raise RunError("pvox wrote no %s_NN.png frames: %s" % (scene, " ".join(cmd)))
    return work, frames


def check_stats(path, nranks, nframes):
    """--stats of a sequence: frame f written by rank f mod P, every rank reported, and the
    writer received at most two pictures' worth of compositor bytes. Returns failures."""
    import json
    with open(path) as fp:
        doc = json.load(fp)
    bad = 0
    frames = doc.get("frames", [])
    if doc.get("nranks") != nranks or len(frames) != nframes:
        print("FAIL stats: %s ranks, %d frames (expected %d, %d)" %
              (doc.get("nranks"), len(frames), nranks, nframes))
        return 1
    worst = 0.0
    for f in frames:
        w = f["writer"]
        ranks = {r["rank"]: r for r in f["ranks"]}
        if w != f["index"] % nranks or sorted(ranks) != list(range(nranks)):
            print("FAIL stats frame %d: writer %d, ranks %s" % (f["index"], w, sorted(ranks)))
            bad += 1
            continue
        ratio = ranks[w]["bytes_recv"] / float(f["image_bytes"])
        worst = max(worst, ratio)
        if ratio > 2.0:
            print("FAIL stats frame %d: the writer (rank %d) received %d bytes, %.2f images"
                  % (f["index"], w, ranks[w]["bytes_recv"], ratio))
            bad += 1
        if nranks > 1 and ranks[w]["bytes_recv"] == 0 and any(
                r["active_pixels"] for k, r in ranks.items() if k != w):
            print("FAIL stats frame %d: other ranks drew but the writer received nothing"
                  % f["index"])
            bad += 1
    print("%s stats np %d: writers rotate, the writer received at most %.2f images a frame "
          "(limit 2)" % ("ok  " if not bad else "FAIL", nranks, worst))
    return bad


def cmd_sequence(a):
    folder, scenes = scene_names(a.scenes)
    failed = 0
    for scene in scenes:
        ref, frames = run_sequence(a, folder, scene, 1, 1)
        # every frame written by rank 0: the rotating writers must give the same bytes
        one, _ = run_sequence(a, folder, scene, a.np, a.threads[0], None,
                              ["--frame-writer", "0"])
        # the writer encoding alone: the same pixels as the ranks' pieces
        whole, _ = run_sequence(a, folder, scene, a.np, a.threads[0], None,
                                ["--frame-encode", "writer"])
        for fr in frames:
            same = (read_rgb(os.path.join(whole, fr)) == read_rgb(os.path.join(one, fr))).all()
            print("%s %s np %d: pixels encoded in pieces %s those the writer encodes alone" %
                  ("ok  " if same else "FAIL", fr, a.np, "equal" if same else "differ from"))
            failed += 0 if same else 1
        shutil.rmtree(whole)
        for nt in a.threads:
            stats = os.path.join(tempfile.gettempdir(), "pvox-seq-%d.json" % os.getpid())
            work, got = run_sequence(a, folder, scene, a.np, nt, stats)
            if got != frames:
                print("FAIL %s np %d threads %d: frames %s, reference %s" %
                      (scene, a.np, nt, got, frames))
                failed += 1
            for fr in frames:
                writer = frames.index(fr) % a.np
                with open(os.path.join(work, fr), "rb") as f1, \
                        open(os.path.join(one, fr), "rb") as f2:
                    same = f1.read() == f2.read()
                if nt == a.threads[0] and not same:
                    print("FAIL %s np %d threads %d: written by rank %d, not the bytes rank 0 "
                          "writes" % (fr, a.np, nt, writer))
                    failed += 1
                g = read_rgb(os.path.join(work, fr))
                r = read_rgb(os.path.join(ref, fr))
                mx, nbad = compare(g, r, 2)
                limit = 0.001 * g.shape[0] * g.shape[1]
                ok = mx is not None and nbad <= limit
                print("%s %s np %d threads %d (written by rank %d): max difference %s, %s "
                      "pixels > 2 (limit 0.1%%)" % ("ok  " if ok else "FAIL", fr, a.np, nt,
                                                     writer, mx, nbad))
                if not ok:
                    failed += 1
                    if mx is not None:
                        save_failure(a, "%s_np%d_t%d" % (fr[:-4], a.np, nt), g, r)
            failed += check_stats(stats, a.np, len(frames))
            os.remove(stats)
            shutil.rmtree(work)
        shutil.rmtree(one)
        shutil.rmtree(ref)
    return 1 if failed else 0


def cmd_golden(a):
    folder, scenes = scene_names(a.scenes)
    work, scratch = reference_dir(a, folder, scenes)
    failed = 0
    for s in scenes:
        png = os.path.join(work, s + ".png")
        gold = os.path.join(a.golden, s + ".png")
        if a.update:
            shutil.copy(png, gold)
            print("updated %s (%d bytes)" % (gold, os.path.getsize(gold)))
            continue
        if not os.path.isfile(gold):
            print("FAIL %s: no golden image %s" % (s, gold))
            failed += 1
            continue
        got, ref = read_rgb(png), read_rgb(gold)
        mx, nbad = compare(got, ref, 8)
        if mx is None:
            print("FAIL %s: size %s, golden %s" % (s, got.shape, ref.shape))
            failed += 1
            continue
        limit = 0.005 * got.shape[0] * got.shape[1]
        ok = nbad <= limit
        print("%s %s: max difference %d, %d pixels > 8 (%.3f%%, limit 0.5%%)" %
              ("ok  " if ok else "FAIL", s, mx, nbad,
               100.0 * nbad / (got.shape[0] * got.shape[1])))
        if not ok:
            failed += 1
            save_failure(a, s, got, ref)
    if scratch:
        shutil.rmtree(work)
    return 1 if failed else 0


def cmd_side(a):
    folder, scenes = scene_names(a.scenes)
    work = run_pvox(a, folder, scenes, 1, 1)
    gwork = scratch_copy(folder)
    os.makedirs(a.out, exist_ok=True)
    for s in scenes:
        p = subprocess.run([a.gnuplot, s + ".gp"], cwd=gwork, capture_output=True,
                           text=True, timeout=a.timeout)
        gpng = os.path.join(gwork, s + ".png")
        if p.returncode != 0 or not os.path.isfile(gpng):
            print("gnuplot failed on %s:\n%s" % (s, p.stderr))
            continue
        got, ref = read_rgb(os.path.join(work, s + ".png")), read_rgb(gpng)
        if got.shape != ref.shape:
            print("%s: sizes differ" % s)
            continue
        gap = np.full((got.shape[0], 4, 3), 128, dtype=np.int16)
        row = np.concatenate([ref, gap, got, gap, diff_image(got, ref)], axis=1)
        path = os.path.join(a.out, s + "_side.png")
        Image.fromarray(row.astype(np.uint8)).save(path)
        mx, nbad = compare(got, ref, 8)
        print("%s: gnuplot | pvox | diff -> %s (%d pixels differ by more than 8)" %
              (s, path, nbad))
    shutil.rmtree(work)
    shutil.rmtree(gwork)
    return 0


# =====================================================================================
# gnuplot's svg -> PNG pixels
# =====================================================================================

def svg_to_png(svg_b, png_b, sx, sy):
    """An svg position (its pixels) -> PNG pixel coordinates (x right, y down, pixel
    centres at +0.5). Both terminals put a projected point at middle + v * scaler (graph3d.c)
    with their own plot bounds: recover v from the svg terminal units, apply the pngcairo
    bounds, then pngcairo's terminal -> pixel rule (units / 200, y flipped, +0.5)."""
    tx = sx * svg_b.scale
    ty = svg_b.ysize - sy * svg_b.scale
    vx = (tx - svg_b.xmiddle) / svg_b.xscaler
    vy = (ty - svg_b.ymiddle) / svg_b.yscaler
    px = png_b.xmiddle + vx * png_b.xscaler
    py = png_b.ymiddle + vy * png_b.yscaler
    return px / png_b.scale + 0.5, (png_b.ysize - py) / png_b.scale + 0.5


RE_POINT = re.compile(r"<use xlink:href='#gpPt(\d+)' transform='translate\(([-\d.]+),([-\d.]+)\)"
                      r"(?: scale\(([\d.]+)\))?' color='rgb\(\s*(\d+),\s*(\d+),\s*(\d+)\)'"
                      r"(?: opacity='([\d.]+)')?")
RE_POLY = re.compile(r"<polygon fill = 'rgb\(\s*(\d+),\s*(\d+),\s*(\d+)\)'"
                     r"(?: fill-opacity = '([\d.]+)')? points = '([^']*)'")
RE_EDGE = re.compile(r"<path stroke='black'\s+d='M([-\d.]+),([-\d.]+) L([-\d.]+),([-\d.]+)\s*'")


def svg_points(text):
    pts = []
    for m in RE_POINT.finditer(text):
        pts.append({"pt": int(m.group(1)) + 1, "x": float(m.group(2)), "y": float(m.group(3)),
                    "scale": float(m.group(4) or 1),
                    "rgb": (int(m.group(5)), int(m.group(6)), int(m.group(7))),
                    "opacity": float(m.group(8)) if m.group(8) else 1.0})
    return pts


def svg_polygons(text):
    out = []
    for m in RE_POLY.finditer(text):
        xy = [tuple(map(float, p.split(","))) for p in m.group(5).split()]
        out.append({"rgb": (int(m.group(1)), int(m.group(2)), int(m.group(3))),
                    "opacity": float(m.group(4)) if m.group(4) else 1.0, "xy": xy})
    return out


def svg_edges(text, min_len):
    out = []
    for m in RE_EDGE.finditer(text):
        x0, y0, x1, y1 = map(float, m.groups())
        if math.hypot(x1 - x0, y1 - y0) >= min_len:
            out.append((x0, y0, x1, y1))
    return out


# =====================================================================================
# Finding markers and lines in a PNG
# =====================================================================================

def components(mask):
    """8-connected components of a boolean image: list of (ys, xs) index arrays."""
    h, w = mask.shape
    seen = np.zeros_like(mask, dtype=bool)
    comps = []
    for y0, x0 in zip(*np.nonzero(mask)):
        if seen[y0, x0]:
            continue
        stack = [(y0, x0)]
        seen[y0, x0] = True
        ys, xs = [], []
        while stack:
            y, x = stack.pop()
            ys.append(y)
            xs.append(x)
            for dy in (-1, 0, 1):
                for dx in (-1, 0, 1):
                    yy, xx = y + dy, x + dx
                    if 0 <= yy < h and 0 <= xx < w and mask[yy, xx] and not seen[yy, xx]:
                        seen[yy, xx] = True
                        stack.append((yy, xx))
        comps.append((np.array(ys), np.array(xs)))
    return comps


def colour_weight(img, rgb):
    """How much of the saturated colour rgb a pixel holds, for markers on white: e.g. for
    red, R - max(G, B). Black and grey frame pixels weigh 0."""
    r, g, b = img[..., 0], img[..., 1], img[..., 2]
    if rgb == (255, 0, 0):
        return r - np.maximum(g, b)
    if rgb == (0, 0, 255):
        return b - np.maximum(r, g)
    raise RunError("no colour weight for %s" % (rgb,))


def blobs(weight, thresh):
    """Connected blobs of weight > thresh with their weighted centroids (pixel centres at
    +0.5): list of dicts cx, cy, n, ys, xs."""
    out = []
    for ys, xs in components(weight > thresh):
        w = weight[ys, xs].astype(float)
        out.append({"cx": float((w * (xs + 0.5)).sum() / w.sum()),
                    "cy": float((w * (ys + 0.5)).sum() / w.sum()), "n": len(ys),
                    "ys": ys, "xs": xs})
    return out


def match(points, found):
    """Pair each expected point (px, py) with the nearest blob; returns the list of
    (point, blob, distance) and whether the pairing is one-to-one."""
    pairs, used = [], set()
    for p in points:
        best = min(range(len(found)), key=lambda i: math.hypot(found[i]["cx"] - p["px"],
                                                                found[i]["cy"] - p["py"]))
        used.add(best)
        b = found[best]
        pairs.append((p, b, math.hypot(b["cx"] - p["px"], b["cy"] - p["py"])))
    return pairs, len(used) == len(points)


def line_offset(img, x0, y0, x1, y1, ink=None):
    """Median signed distance of the dark ink (or of `ink`, an image of weights 0..255) near
    the segment from the segment itself (PNG pixels), sampled across its middle 60%; None
    if no ink was found."""
    prof = line_profile(img, x0, y0, x1, y1, ink)
    return None if prof is None else prof[0]


def line_profile(img, x0, y0, x1, y1, ink=None):
    """(median offset, median width) of the ink across the segment's middle 60%: the
    width is the ink summed across the line per pixel of length, in pixels of full ink."""
    dark = 255.0 - img.mean(axis=2) if ink is None else ink.astype(float)
    h, w = dark.shape
    L = math.hypot(x1 - x0, y1 - y0)
    ux, uy = (x1 - x0) / L, (y1 - y0) / L
    nx, ny = -uy, ux
    offs, widths = [], []
    steps = max(4, int(L / 3))
    for i in range(steps + 1):
        t = 0.2 + 0.6 * i / steps
        cx, cy = x0 + t * (x1 - x0), y0 + t * (y1 - y0)
        acc = wsum = 0.0
        for yy in range(int(cy) - 4, int(cy) + 5):
            for xx in range(int(cx) - 4, int(cx) + 5):
                if not (0 <= yy < h and 0 <= xx < w) or dark[yy, xx] < 20:
                    continue
                rx, ry = xx + 0.5 - cx, yy + 0.5 - cy
                along, across = rx * ux + ry * uy, rx * nx + ry * ny
                if abs(along) > 0.75 or abs(across) > 3.5:
                    continue
                acc += dark[yy, xx] * across
                wsum += dark[yy, xx]
        if wsum > 0:
            offs.append(acc / wsum)
            widths.append(wsum / 255.0 / 1.5)  # the window is 1.5 px long
    if len(offs) < steps // 2:
        return None
    offs.sort()
    widths.sort()
    return offs[len(offs) // 2], widths[len(widths) // 2]


# =====================================================================================
# Fidelity checks
# =====================================================================================

# Label of gnuplot's own pngcairo picture in the checks: it is checked first, against the
# svg (which checks the checker), then pvox's markers are also compared with it (same
# terminal, same snapping of marker centres to pixel centres). A marker centred on another
# pixel than gnuplot's (more than 0.25 px away) is reported; the test fails on more than
# one pixel (1.05 px), the svg's limit.
GNUPLOT_PNG = "gnuplot-png"
NEAR_GNUPLOT_PNG = 0.25
FAR_GNUPLOT_PNG = 1.05


def near_report(pairs):
    """(worst distance from gnuplot's PNG markers, how many are on another pixel)."""
    d = [math.hypot(b["cx"] - p["gx"], b["cy"] - p["gy"]) for p, b, _ in pairs if "gx" in p]
    return max(d, default=0.0), sum(1 for v in d if v > NEAR_GNUPLOT_PNG)


def print_misplaced(pairs, limit):
    for p, b, d in pairs:
        gd = math.hypot(b["cx"] - p["gx"], b["cy"] - p["gy"]) if "gx" in p else 0.0
        if d > limit or gd > FAR_GNUPLOT_PNG:
            print("   svg (%.2f,%.2f) -> png (%.2f,%.2f); found (%.2f,%.2f)%s" %
                  (p["x"], p["y"], p["px"], p["py"], b["cx"], b["cy"],
                   "; gnuplot's PNG (%.2f,%.2f)" % (p["gx"], p["gy"]) if "gx" in p else ""))


def check_positions(a, name, svg, sb, pngs):
    """pngs: list of (label, image, bounds, limit) to check against the svg."""
    bad = 0
    for colour in ((255, 0, 0), (0, 0, 255)):
        pts = [p for p in svg_points(svg) if p["rgb"] == colour and p["pt"] == 7]
        if not pts:
            continue
        for label, img, pb, limit in pngs:
            for p in pts:
                p["px"], p["py"] = svg_to_png(sb, pb, p["x"], p["y"])
            found = blobs(colour_weight(img, colour), 60)
            if len(found) != len(pts):
                print("FAIL %s %s: %d markers of colour %s, gnuplot's svg has %d" %
                      (name, label, len(found), colour, len(pts)))
                bad += 1
                continue
            pairs, one_to_one = match(pts, found)
            worst = max(d for _, _, d in pairs)
            ok = one_to_one and worst <= limit
            extra = ""
            if label == GNUPLOT_PNG:
                for p, b, _ in pairs:
                    p["gx"], p["gy"] = b["cx"], b["cy"]
            else:
                near, moved = near_report(pairs)
                ok = ok and near <= FAR_GNUPLOT_PNG
                extra = "; %d on another pixel than in gnuplot's PNG" % moved
            print("%s %s %s: %d markers rgb%s, worst centroid distance %.2f px (limit %.2g)%s" %
                  ("ok  " if ok else "FAIL", name, label, len(pts), colour, worst, limit, extra))
            if not ok:
                bad += 1
                print_misplaced(pairs, limit)
    edges = svg_edges(svg, 30.0)
    gnuplot_off = {}
    for label, img, pb, limit in pngs:
        worst = near = 0.0
        for e in edges:
            x0, y0 = svg_to_png(sb, pb, e[0], e[1])
            x1, y1 = svg_to_png(sb, pb, e[2], e[3])
            off = line_offset(img, x0, y0, x1, y1)
            if off is None:
                print("FAIL %s %s: no line near the border edge (%.1f,%.1f)-(%.1f,%.1f)" %
                      (name, label, x0, y0, x1, y1))
                bad += 1
                continue
            worst = max(worst, abs(off))
            if label == GNUPLOT_PNG:
                gnuplot_off[e] = off
            elif e in gnuplot_off:
                near = max(near, abs(off - gnuplot_off[e]))
        if edges:
            ok = worst <= limit and near <= FAR_GNUPLOT_PNG
            print("%s %s %s: %d border edges, worst line offset %.2f px (limit %.2g)%s" %
                  ("ok  " if ok else "FAIL", name, label, len(edges), worst, limit,
                   "" if label == GNUPLOT_PNG else
                   "; %.2f px from gnuplot's PNG" % near))
            bad += not ok
    return bad


def pixel_at(img, x, y):
    return img[int(math.floor(y)), int(math.floor(x))]


def expected_over_white(rgb, opacity):
    return tuple(opacity * c + (1 - opacity) * 255.0 for c in rgb)


def check_pm3d(a, name, svg, sb, pngs):
    polys = svg_polygons(svg)
    if not polys:
        print("FAIL %s: gnuplot's svg has no pm3d polygon" % name)
        return 1
    bad = 0
    for label, img, pb, limit in pngs:
        worst, where = 0.0, None
        for q in polys:
            cx = sum(x for x, _ in q["xy"]) / len(q["xy"])
            cy = sum(y for _, y in q["xy"]) / len(q["xy"])
            px, py = svg_to_png(sb, pb, cx, cy)
            want = expected_over_white(q["rgb"], q["opacity"])
            got = pixel_at(img, px, py)
            d = max(abs(float(g) - w) for g, w in zip(got, want))
            if d > worst:
                worst, where = d, (px, py, tuple(int(v) for v in got), want)
        ok = worst <= limit
        print("%s %s %s: %d quads, worst colour difference %.1f levels (limit %g)" %
              ("ok  " if ok else "FAIL", name, label, len(polys), worst, limit))
        if not ok:
            bad += 1
            print("   at (%.1f,%.1f): got %s, svg says %s" % (where[0], where[1], where[2],
                                                              tuple(round(v, 1) for v in where[3])))
    return bad


def chroma(img):
    return img.max(axis=2) - img.min(axis=2)


def check_counts(a, name, svg, sb, pngs):
    pts = svg_points(svg)
    bad = 0
    # the scene must keep markers apart, or counting blobs means nothing
    sep = min((math.hypot(p["x"] - q["x"], p["y"] - q["y"])
               for i, p in enumerate(pts) for q in pts[i + 1:]), default=1e9)
    rad = max((p["scale"] for p in pts), default=0)
    if sep < 2 * rad + 2:
        print("FAIL %s: scene unsuited, svg markers only %.1f px apart" % (name, sep))
        return 1
    for label, img, pb, limit in pngs:
        for p in pts:
            p["px"], p["py"] = svg_to_png(sb, pb, p["x"], p["y"])
        c = chroma(img).astype(float)
        found = blobs(c, 12)
        if len(found) != len(pts):
            print("FAIL %s %s: %d markers drawn, gnuplot's svg has %d" %
                  (name, label, len(found), len(pts)))
            bad += 1
            continue
        if not pts:
            print("ok   %s %s: no marker, as in gnuplot's svg" % (name, label))
            continue
        pairs, one_to_one = match(pts, found)
        worst = max(d for _, _, d in pairs)
        near, moved = 0.0, 0
        for p, b, _ in pairs:
            if label == GNUPLOT_PNG:
                p["gx"], p["gy"] = b["cx"], b["cy"]
        if label != GNUPLOT_PNG:
            near, moved = near_report(pairs)
        cworst, cwhere = 0.0, None
        for p, b, _ in pairs:
            # the marker's colour: the pixel under its centroid (fully covered by the
            # fill; translucent markers are darker on the rim, where pngcairo's outline
            # stroke overlaps the fill)
            got = pixel_at(img, b["cx"], b["cy"])
            want = expected_over_white(p["rgb"], p["opacity"])
            d = max(abs(float(g) - w) for g, w in zip(got, want))
            if d > cworst:
                cworst, cwhere = d, (p, tuple(int(v) for v in got), want)
        ok = one_to_one and worst <= limit and cworst <= 3 and near <= FAR_GNUPLOT_PNG
        print("%s %s %s: %d markers, worst position %.2f px (limit %.2g)%s, worst colour %.1f "
              "levels (limit 3)" % ("ok  " if ok else "FAIL", name, label, len(pts), worst,
                                    limit, "" if label == GNUPLOT_PNG else
                                    " (%d on another pixel than in gnuplot's PNG)" % moved,
                                    cworst))
        if not ok:
            bad += 1
            print_misplaced(pairs, limit)
            if cworst > 3:
                p, got, want = cwhere
                print("   marker at svg (%.2f,%.2f): got %s, svg says %s" %
                      (p["x"], p["y"], got, tuple(round(v, 1) for v in want)))
    return bad


RE_STROKE = re.compile(r"<path stroke='rgb\(\s*(\d+),\s*(\d+),\s*(\d+)\)'\s+d='([^']*)'")
RE_MOVE = re.compile(r"([ML])([-\d.]+),([-\d.]+)")


def svg_strokes(text, rgb, min_len):
    """Straight pieces (x0, y0, x1, y1) of the svg paths stroked in colour rgb, at least
    min_len svg pixels long."""
    out = []
    for m in RE_STROKE.finditer(text):
        if tuple(int(m.group(k)) for k in (1, 2, 3)) != rgb:
            continue
        cur = None
        for t in RE_MOVE.finditer(m.group(4)):
            x, y = float(t.group(2)), float(t.group(3))
            if t.group(1) == "L" and cur and math.hypot(x - cur[0], y - cur[1]) >= min_len:
                out.append((cur[0], cur[1], x, y))
            cur = (x, y)
    return out


def check_lines(a, name, svg, sb, pngs):
    """Data lines of pure red and pure blue (no key): every straight piece of gnuplot's svg
    path of that colour has ink of that colour along it in the PNG, its centre line within
    1 px of the svg's and of gnuplot's own PNG, and about as wide as in gnuplot's PNG."""
    bad = 0
    checked = 0
    for colour in ((255, 0, 0), (0, 0, 255)):
        segs = svg_strokes(svg, colour, 12.0)
        if not segs:
            continue
        checked += len(segs)
        ref = {}
        for label, img, pb, limit in pngs:
            ink = np.clip(colour_weight(img, colour), 0, 255)
            worst = near = 0.0
            ratio = []
            for e in segs:
                x0, y0 = svg_to_png(sb, pb, e[0], e[1])
                x1, y1 = svg_to_png(sb, pb, e[2], e[3])
                prof = line_profile(img, x0, y0, x1, y1, ink)
                if prof is None:
                    print("FAIL %s %s: no %s line along (%.1f,%.1f)-(%.1f,%.1f)" %
                          (name, label, colour, x0, y0, x1, y1))
                    bad += 1
                    continue
                worst = max(worst, abs(prof[0]))
                if label == GNUPLOT_PNG:
                    ref[e] = prof
                elif e in ref:
                    near = max(near, abs(prof[0] - ref[e][0]))
                    ratio.append(prof[1] / ref[e][1] if ref[e][1] > 0 else 0.0)
            ratio.sort()
            width = ratio[len(ratio) // 2] if ratio else 1.0
            ok = worst <= limit and near <= FAR_GNUPLOT_PNG and 0.7 <= width <= 1.4
            print("%s %s %s: %d line pieces rgb%s, worst offset %.2f px (limit %.2g)%s" %
                  ("ok  " if ok else "FAIL", name, label, len(segs), colour, worst, limit,
                   "" if label == GNUPLOT_PNG else
                   "; %.2f px from gnuplot's PNG, width %.2fx gnuplot's" % (near, width)))
            bad += not ok
    if not checked:
        print("FAIL %s: no red or blue line piece of 12 px or more in gnuplot's svg" % name)
        bad += 1
    return bad


def check_pixels(a, name, svg, sb, pngs):
    """The whole picture against gnuplot's pngcairo one, pixel by pixel: for scenes pvox
    draws as pngcairo does (frame, labels, zero axes, colour box, key samples, points on
    pixel centres), at most 0.2% of the pixels may differ by more than 2 levels."""
    gp = [img for label, img, _, _ in pngs if label == GNUPLOT_PNG][0]
    pv = [img for label, img, _, _ in pngs if label != GNUPLOT_PNG][0]
    if gp.shape != pv.shape:
        print("FAIL %s: picture size %s, gnuplot's %s" % (name, pv.shape, gp.shape))
        return 1
    d = abs(gp.astype(int) - pv.astype(int)).max(axis=2)
    frac = float((d > 2).mean())
    ok = frac <= 0.002
    print("%s %s pixels: %.3f%% differ from gnuplot's PNG by more than 2 levels (limit 0.2%%), "
          "max %d" % ("ok  " if ok else "FAIL", name, 100 * frac, int(d.max())))
    return 0 if ok else 1


CHECKS = {"positions": check_positions, "pm3d": check_pm3d, "counts": check_counts,
          "lines": check_lines, "pixels": check_pixels}


def cmd_fidelity(a):
    if not a.gnuplot or shutil.which(a.gnuplot) is None:
        return skip_or_fail("gnuplot not found")
    w, h = a.size
    items = []
    for spec in a.scenes:
        kind, _, path = spec.partition(":")
        if kind not in CHECKS:
            raise RunError("unknown check %r (positions, pm3d, counts, lines, pixels)" % kind)
        items.append((kind, path))
    folder, scenes = scene_names([p for _, p in items])
    term = "pngcairo size %d,%d" % (w, h)
    work = run_pvox(a, folder, scenes, a.np, 1,
                    pre=lambda s: "set term %s; set out '%s.png'" % (term, s))
    try:
        return fidelity_checks(a, work, items, scenes, w, h, term)
    finally:
        shutil.rmtree(work)


def fidelity_checks(a, work, items, scenes, w, h, term):
    bad = 0
    for (kind, _), s in zip(items, scenes):
        sb = run_gnuplot(a, work, s, "svg size %d,%d" % (w, h), s + ".svg")
        gb = run_gnuplot(a, work, s, term, s + ".gnuplot.png")
        # gnuplot writes {/Symbol} bytes into the SVG as they are (not UTF-8)
        with open(os.path.join(work, s + ".svg"), encoding="utf-8", errors="replace") as f:
            svg = f.read()
        pvox_img = read_rgb(os.path.join(work, s + ".png"))
        gp_img = read_rgb(os.path.join(work, s + ".gnuplot.png"))
        # gnuplot's own PNG checks the checker (svg mapping, blob finding); pvox's layout
        # must equal pngcairo's, so both use gnuplot's pngcairo bounds
        limit = {"positions": 1.0, "pm3d": 3.0, "counts": 1.0, "lines": 1.0, "pixels": 2.0}[kind]
        nbad = CHECKS[kind](a, s, svg, sb, [(GNUPLOT_PNG, gp_img, gb, limit),
                                            ("pvox", pvox_img, gb, limit)])
        bad += nbad
        if nbad and a.keep:
            os.makedirs(a.keep, exist_ok=True)
            for f in (s + ".svg", s + ".gnuplot.png", s + ".png"):
                shutil.copy(os.path.join(work, f), a.keep)
            print("   kept %s.svg, %s.gnuplot.png and %s.png in %s" % (s, s, s, a.keep))
    return 1 if bad else 0


def int_list(s):
    return [int(v) for v in s.split(",")]


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("command", choices=["render", "determinism", "golden", "fidelity", "side",
                                        "sequence"])
    ap.add_argument("scenes", nargs="+")
    ap.add_argument("--pvox", required=True)
    ap.add_argument("--mpiexec", default=None)
    ap.add_argument("--np", type=int, default=1)
    ap.add_argument("--threads", type=int_list, default=[1, 2])
    ap.add_argument("--golden")
    ap.add_argument("--ref", help="reference pictures made by `render` (else rendered here)")
    ap.add_argument("--update", action="store_true")
    ap.add_argument("--pvox-args", default="",
                    help="extra pvox options for every run (e.g. --batch-triangles 300)")
    ap.add_argument("--gnuplot", default=shutil.which("gnuplot"))
    ap.add_argument("--size", type=int_list, default=[400, 300])
    ap.add_argument("--out", default="picture-side")
    ap.add_argument("--keep", default=os.environ.get("PV_PICTURE_KEEP"),
                    help="folder for failure images (default $PV_PICTURE_KEEP)")
    ap.add_argument("--timeout", type=int, default=120)
    a = ap.parse_args()
    rc = load_imaging()
    if rc is not None:
        return rc
    a.pvox = os.path.abspath(a.pvox)
    if a.command == "side" and (not a.gnuplot or shutil.which(a.gnuplot) is None):
        return skip_or_fail("gnuplot not found")
    try:
        if a.command == "render":
            return cmd_render(a)
        if a.command == "determinism":
            if not a.mpiexec:
                raise RunError("determinism needs --mpiexec")
            return cmd_determinism(a)
        if a.command == "golden":
            if not a.golden:
                raise RunError("golden needs --golden DIR")
            return cmd_golden(a)
        if a.command == "fidelity":
            return cmd_fidelity(a)
        if a.command == "sequence":
            return cmd_sequence(a)
        return cmd_side(a)
    except RunError as e:
        print("FAIL: %s" % e)
        return 1


if __name__ == "__main__":
    sys.exit(main())
