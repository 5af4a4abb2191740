#!/usr/bin/env python3
"""Run gnuplot's own demo collection through gnuplot 5.4 and through pvox.

The demos are the `*.dem` scripts of Debian's gnuplot-doc package (examples folder) that
use `splot`. Each is made batch first: `set term pngcairo size 800,600`, a new output
file at every `pause -1` / `pause mouse` (so every picture the demo shows is a file),
`NO_ANIMATION = 1`. The batch script then runs in gnuplot and in pvox at each rank
count, each in its own copy of the examples folder (demos write files next to
themselves). The table lists, per demo, the exit status and the number of pictures
(non-empty PNG files) of each run and the number of pvox warnings; then the totals.
Every picture pvox writes must pass a strict decoder (tests/pngcheck.py: chunk CRCs, the
zlib stream's Adler-32 and end, the exact image bytes); a demo with a picture that fails
it fails, known or not.

A demo passes when gnuplot does not run it to the end (exit status != 0), or when pvox
runs it to the end with exit status 0 at every rank count. The demos named in the
--known file (one per line, `#` comments) are those pvox does not yet run to the end:
their failure is reported as "known", and a known demo that now passes is an error
too, so the list only ever shrinks. Exit status of this script: 0 all pass, 1 some
fail, 77 gnuplot or the demos are missing (a skip).

  demos.py --pvox build/pvox --mpirun mpirun --ranks 1,2 --work DIR [DEMO ...]
"""
import argparse
import concurrent.futures
import os
import re
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir))
import pngcheck  # noqa: E402  (tests/pngcheck.py: strict PNG decoding)

DEMO_DIRS = ["/usr/share/doc/gnuplot/examples", "/usr/share/doc/gnuplot-doc/examples"]
SPLOT = re.compile(r"(^|;)\s*splot\b", re.M)
# `pause -1 "text"`, `pause mouse key "text"`: the end of a picture. The message runs to
# the end of the statement; a `;` inside the quoted text does not end it.
PAUSE = re.compile(r"""\bpause\s+(-1|mouse\b[^;"'\n]*)\s*("[^"\n]*"|'[^'\n]*'|[^;\n]*)""")


def find_demo_dir(given):
    for d in ([given] if given else DEMO_DIRS):
        if d and os.path.isdir(d) and any(f.endswith(".dem") for f in os.listdir(d)):
            return d
    return None


def splot_demos(src):
    out = []
    for f in sorted(os.listdir(src)):
        if not f.endswith(".dem"):
            continue
        with open(os.path.join(src, f), "rb") as fh:
            text = fh.read().decode("latin-1")
        if SPLOT.search(text):
            out.append(f[:-4])
    return out


def make_batch(text, name):
    """The demo as a batch script: pictures numbered in text order."""
    count = [1]

    def new_output(_m):
        count[0] += 1
        return "set output '%s-%03d.png'" % (name, count[0])

    body = PAUSE.sub(new_output, text)
    head = ("set term pngcairo size 800,600\n"
            "NO_ANIMATION = 1\n"
            "set output '%s-001.png'\n" % name)
    return head + body + "\nset output\n"


def pictures(d, name):
    """The number of pictures (non-empty PNG files) the demo wrote in d, and the faults
    the strict check finds in them."""
    n, faults = 0, []
    for f in sorted(os.listdir(d)):
        path = os.path.join(d, f)
        if f.startswith(name + "-") and f.endswith(".png") and os.path.getsize(path) > 0:
            n += 1
            fault = pngcheck.fault(path)
            if fault:
                faults.append(fault)
    return n, faults


def prepare(src, work, tag, demos):
    d = os.path.join(work, tag)
    if os.path.isdir(d):
        shutil.rmtree(d)
    shutil.copytree(src, d)
    for name in demos:
        with open(os.path.join(src, name + ".dem"), "rb") as fh:
            text = fh.read().decode("latin-1")
        with open(os.path.join(d, name + ".batch.gp"), "wb") as fh:
            fh.write(make_batch(text, name).encode("latin-1"))
    return d


def run(cmd, cwd, timeout, env):
    t0 = time.time()
    try:
        p = subprocess.run(cmd, cwd=cwd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, timeout=timeout, env=env)
        rc, err = p.returncode, p.stderr.decode("utf-8", "replace")
    except subprocess.TimeoutExpired as e:
        rc, err = "T", (e.stderr or b"").decode("utf-8", "replace")
    return rc, err, time.time() - t0


def first_error(err):
    for line in err.splitlines():
        if "error" in line:
            return line.strip()[:150]
    lines = [l for l in err.splitlines() if l.strip()]
    return lines[-1].strip()[:150] if lines else ""


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pvox", required=True)
    ap.add_argument("--gnuplot", default="gnuplot")
    ap.add_argument("--mpirun", default="mpirun")
    ap.add_argument("--ranks", default="1,2")
    ap.add_argument("--demo-dir", default=None)
    ap.add_argument("--work", required=True)
    ap.add_argument("--timeout", type=float, default=600)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--log", default=None, help="write every run's stderr here")
    ap.add_argument("--keep-going", action="store_true",
                    help="do not stop at a missing gnuplot (report only pvox)")
    ap.add_argument("--known", default=None,
                    help="file naming the demos pvox does not yet run to the end")
    ap.add_argument("--exclude", default="",
                    help="demos not to run, comma-separated (the sanitizer suite's reduced set)")
    ap.add_argument("demos", nargs="*")
    a = ap.parse_args()

    ci = os.environ.get("CI") == "true"
    src = find_demo_dir(a.demo_dir)
    if not src or not shutil.which(a.gnuplot):
        print("gnuplot-doc demos or gnuplot missing (apt-get install gnuplot-doc gnuplot-nox)")
        return 1 if ci else 77
    demos = a.demos or splot_demos(src)
    excluded = [d for d in a.exclude.split(",") if d]
    if excluded:
        print("not run (--exclude): %s" % " ".join(excluded))
        demos = [d for d in demos if d not in excluded]
    known = set()
    if a.known:
        for line in open(a.known):
            line = line.split("#", 1)[0].strip()
            if line:
                known.add(line)
    ranks = [int(r) for r in a.ranks.split(",") if r]
    pvox = os.path.abspath(a.pvox)
    os.makedirs(a.work, exist_ok=True)

    env = dict(os.environ)
    env.update(OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               OMPI_MCA_rmaps_base_oversubscribe="1", GNUTERM="pngcairo")
    env.pop("DISPLAY", None)

    tags = ["gnuplot"] + ["pvox%d" % r for r in ranks]
    dirs = {t: prepare(src, a.work, t, demos) for t in tags}

    def command(tag, name):
        script = name + ".batch.gp"
        if tag == "gnuplot":
            return [a.gnuplot, script]
        r = int(tag[4:])
        return [a.mpirun, "-n", str(r), "--oversubscribe", "--bind-to", "none",
                pvox, "--threads", "1", "-q", script]

    jobs = [(t, n) for n in demos for t in tags]
    res = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=a.jobs) as ex:
        fut = {ex.submit(run, command(t, n), dirs[t], a.timeout, env): (t, n)
               for t, n in jobs}
        for f in concurrent.futures.as_completed(fut):
            t, n = fut[f]
            rc, err, secs = f.result()
            pics, faults = pictures(dirs[t], n)
            res[t, n] = (rc, pics, err, secs, faults if t != "gnuplot" else [])

    log = open(a.log, "w") if a.log else None
    head = "%-22s %8s" % ("demo", "gnuplot") + "".join(" %8s" % t for t in tags[1:]) + \
        " %5s  %s" % ("warn", "verdict")
    print(head)
    print("-" * len(head))
    tot = {t: [0, 0] for t in tags}   # runs to the end, pictures
    failed = []
    fixed = []
    known_failing = []
    png_failed = []
    for n in demos:
        cells = []
        for t in tags:
            rc, pics, err, secs, _ = res[t, n]
            cells.append("%s/%d" % ("ok" if rc == 0 else rc, pics))
            if rc == 0:
                tot[t][0] += 1
            tot[t][1] += pics
            if log:
                log.write("=== %s %s rc=%s pictures=%d %.1fs\n%s\n" % (n, t, rc, pics, secs, err))
        w = res[tags[1], n][2].count("warning")
        gp_ok = res["gnuplot", n][0] == 0
        bad = [t for t in tags[1:] if res[t, n][0] != 0]
        png_bad = [f for t in tags[1:] for f in res[t, n][4]]
        verdict = "pass" if (not gp_ok or not bad) else "FAIL"
        if png_bad:
            png_failed.append(n)
            verdict = "FAIL  %d pictures a strict decoder refuses, e.g. %s" % (
                len(png_bad), png_bad[0])
        elif verdict == "FAIL" and n in known:
            known_failing.append(n)
            verdict = "known  " + first_error(res[bad[0], n][2])
        elif verdict == "FAIL":
            failed.append(n)
            verdict += "  " + first_error(res[bad[0], n][2])
        elif n in known and gp_ok:
            fixed.append(n)
            verdict = "pass, but listed as known: remove it from the list"
        elif not gp_ok:
            verdict = "pass (gnuplot stops: %s)" % first_error(res["gnuplot", n][2])
        print("%-22s %8s" % (n, cells[0]) + "".join(" %8s" % c for c in cells[1:]) +
              " %5d  %s" % (w, verdict))
    print("-" * len(head))
    print("%-22s %8s" % ("runs to the end", "%d" % tot["gnuplot"][0]) +
          "".join(" %8d" % tot[t][0] for t in tags[1:]) + "   of %d demos" % len(demos))
    print("%-22s %8s" % ("pictures", "%d" % tot["gnuplot"][1]) +
          "".join(" %8d" % tot[t][1] for t in tags[1:]))
    if known_failing:
        print("known: demos gnuplot runs to the end that pvox does not yet: %d: %s" %
              (len(known_failing), " ".join(known_failing)))
    if fixed:
        print("listed as known but pvox now runs them to the end (shrink the list): %d: %s"
              % (len(fixed), " ".join(fixed)))
    if failed:
        print("demos gnuplot runs to the end that pvox does not: %d: %s" %
              (len(failed), " ".join(failed)))
    if png_failed:
        print("demos with pictures pvox wrote that a strict decoder refuses: %d: %s" %
              (len(png_failed), " ".join(png_failed)))
    if failed or fixed or png_failed:
        return 1
    if known_failing:
        print("every other demo gnuplot runs to the end, pvox runs to the end")
    else:
        print("every demo gnuplot runs to the end, pvox runs to the end")
    return 0


if __name__ == "__main__":
    sys.exit(main())
