#!/usr/bin/env python3
"""gnuplot 5.4 oracle: run each case with gnuplot and with pvox, compare the text.

    run_oracle.py --pvox build/pvox [--np 2] [--mpiexec mpiexec] cases/e01_int_arith.gp ...

For every case the whole cases/ folder (the case and its helper files: inc_*.gp, *.dat)
is copied into two scratch folders; `gnuplot CASE.gp` runs in one, `pvox CASE.gp` (or
`mpiexec --oversubscribe -n NP pvox CASE.gp`) in the other. Compared exactly: exit code,
stderr (where `print` goes), stdout, and every file the run created or changed (set print
"file", set table "file"). Standard library only.

Exit codes: 0 all cases agree, 1 a difference or an error, 77 gnuplot missing (skip)
unless CI=true, where a missing gnuplot is a failure.
"""
import argparse
import difflib
import os
import re
import shutil
import subprocess
import sys
import tempfile

SKIP = 77
# pvox's own log lines ("[   0.001] r0/2 INFO  grid: ..."): timings, not script output.
# Warnings and errors are kept.
LOG_LINE = re.compile(rb"^\[ *[0-9.]+\] r[0-9]+/[0-9]+ (INFO|DEBUG) .*\n", re.M)


def snapshot(d):
    """{relative path: (size, mtime_ns)} of every file under d."""
    out = {}
    for root, _, files in os.walk(d):
        for f in files:
            p = os.path.join(root, f)
            st = os.stat(p)
            out[os.path.relpath(p, d)] = (st.st_size, st.st_mtime_ns)
    return out


def run_one(cmd, cwd, env, timeout):
    before = snapshot(cwd)
    try:
        r = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, timeout=timeout)
        rc, out, err = r.returncode, r.stdout, r.stderr
    except subprocess.TimeoutExpired as e:
        rc = "timeout after %ds" % timeout
        out, err = e.stdout or b"", e.stderr or b""
    after = snapshot(cwd)
    changed = sorted(p for p, v in after.items() if before.get(p) != v)
    files = {}
    for p in changed:
        with open(os.path.join(cwd, p), "rb") as f:
            files[p] = f.read()
    return {"rc": rc, "stdout": out, "stderr": err, "files": files}


def text(b):
    return b.decode("utf-8", errors="replace")


def diff(name, a, b, limit):
    lines = list(difflib.unified_diff(text(a).splitlines(True), text(b).splitlines(True),
                                      "gnuplot " + name, "pvox " + name, n=1))
    if len(lines) > limit:
        lines = lines[:limit] + ["... (%d more diff lines)\n" % (len(lines) - limit)]
    return "".join(l if l.endswith("\n") else l + "\n\\ no newline\n" for l in lines)


def compare(g, p, limit):
    msgs = []
    if g["rc"] != p["rc"]:
        msgs.append("exit code: gnuplot %s, pvox %s\n" % (g["rc"], p["rc"]))
    for stream in ("stderr", "stdout"):
        if g[stream] != p[stream]:
            msgs.append(diff(stream, g[stream], p[stream], limit))
    for f in sorted(set(g["files"]) | set(p["files"])):
        if f not in p["files"]:
            msgs.append("file %s: written by gnuplot, not by pvox\n" % f)
        elif f not in g["files"]:
            msgs.append("file %s: written by pvox, not by gnuplot\n" % f)
        elif g["files"][f] != p["files"][f]:
            msgs.append(diff("file " + f, g["files"][f], p["files"][f], limit))
    return msgs


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pvox", required=True, help="path of the pvox executable")
    ap.add_argument("--gnuplot", default="gnuplot")
    ap.add_argument("--np", type=int, default=0, help="run pvox under mpiexec with NP ranks")
    ap.add_argument("--mpiexec", default="mpiexec")
    ap.add_argument("--pvox-args", default="", help="extra pvox options, e.g. \"-q\"")
    ap.add_argument("--timeout", type=int, default=120)
    ap.add_argument("--diff-lines", type=int, default=60)
    ap.add_argument("--keep", action="store_true", help="keep the scratch folders")
    ap.add_argument("cases", nargs="+")
    a = ap.parse_args()

    gnuplot = shutil.which(a.gnuplot)
    if gnuplot is None:
        msg = "gnuplot (Debian gnuplot-nox) not found: cannot run the oracle"
        if os.environ.get("CI", "").lower() == "true":
            print("error: " + msg, file=sys.stderr)
            return 1
        print("skip: " + msg, file=sys.stderr)
        return SKIP
    pvox = os.path.abspath(a.pvox)
    if not os.access(pvox, os.X_OK):
        print("error: pvox not found at %s" % pvox, file=sys.stderr)
        return 1

    pcmd = [pvox] + a.pvox_args.split()
    if a.np > 0:
        mpiexec = shutil.which(a.mpiexec)
        if mpiexec is None:
            print("error: %s not found" % a.mpiexec, file=sys.stderr)
            return 1
        pcmd = [mpiexec, "--oversubscribe", "-n", str(a.np)] + pcmd

    failed = 0
    for case in a.cases:
        case = os.path.abspath(case)
        casedir, name = os.path.dirname(case), os.path.basename(case)
        scratch = tempfile.mkdtemp(prefix="pvox-oracle-")
        results = {}
        for who, cmd in (("gnuplot", [gnuplot]), ("pvox", pcmd)):
            work = os.path.join(scratch, who)
            shutil.copytree(casedir, work)
            env = dict(os.environ)
            for k in ("DISPLAY", "GNUTERM", "GNUPLOT_LIB", "GNUPLOT_DRIVER_DIR"):
                env.pop(k, None)
            # A private HOME: no ~/.gnuplot init file, no ~/.gnuplot_history.
            env.update({"HOME": work, "LC_ALL": "C.UTF-8", "OMP_NUM_THREADS": "1",
                        "OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
                        "OMPI_MCA_rmaps_base_oversubscribe": "1"})
            results[who] = run_one(cmd + [name], work, env, a.timeout)
            if who == "pvox":
                results[who]["stderr"] = LOG_LINE.sub(b"", results[who]["stderr"])
        msgs = compare(results["gnuplot"], results["pvox"], a.diff_lines)
        tag = name + (" (np %d)" % a.np if a.np else "")
        if msgs:
            failed += 1
            print("FAIL %s" % tag)
            for m in msgs:
                sys.stdout.write(m)
        else:
            print("ok   %s" % tag)
        if a.keep:
            print("     scratch: %s" % scratch)
        else:
            shutil.rmtree(scratch, ignore_errors=True)
    print("%d of %d cases differ" % (failed, len(a.cases)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
