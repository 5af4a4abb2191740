#!/usr/bin/env python3
"""gnuplot 5.4 oracle: run each case with gnuplot and with pvox, compare the text.

    run_oracle.py --pvox build/pvox [--np 2 | --np 1,2,3,4] [--threads 1,2]
                  [--mpiexec mpiexec] cases/e01_int_arith.gp ...

For every case the whole cases/ folder (the case and its helper files: inc_*.gp, *.dat)
is copied into scratch folders; `gnuplot CASE.gp` runs in one, `pvox CASE.gp` (or
`mpiexec --oversubscribe -n NP pvox CASE.gp`) in another, once for every rank count NP
and OpenMP thread count T asked for (OMP_NUM_THREADS=T; default 1), each compared with
the one gnuplot run. Compared exactly: exit code, stderr (where `print` goes), stdout,
and every file the run created or changed (set print "file", set table "file").
Standard library only.

Rank and thread lists: `--np` / `--threads` on the command line win; a dimension not
given there comes from the case's own line `# oracle: np=1,2,3,4 threads=1,2` (either
key may be left out); otherwise pvox runs once without mpiexec and with one thread.
NP 0 means "without mpiexec".

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

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir))
import pngcheck  # noqa: E402  (tests/pngcheck.py: strict PNG decoding)

SKIP = 77
# pvox's own log lines ("[   0.001] r0/2 INFO  grid: ..."): timings, not script output.
# Warnings and errors are kept.
LOG_LINE = re.compile(rb"^\[ *[0-9.]+\] r[0-9]+/[0-9]+ (INFO|DEBUG) .*\n", re.M)
# "# oracle: np=1,2,3 threads=1,2" in a case: the rank and thread counts it runs with
DIRECTIVE = re.compile(r"^# oracle:.*$", re.M)
DIRECTIVE_KEY = re.compile(r"\b(np|threads)=([0-9]+(?:,[0-9]+)*)")


def int_list(s):
    """"1,2,3" -> [1, 2, 3] (argparse type)."""
    try:
        out = [int(v) for v in s.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError("expected a comma-separated list of integers: %r" % s)
    if not out or any(v < 0 for v in out):
        raise argparse.ArgumentTypeError("expected counts >= 0: %r" % s)
    return out


def directive(case):
    """{"np": [...], "threads": [...]} from the case's "# oracle:" lines (keys present only)."""
    with open(case, encoding="utf-8", errors="replace") as f:
        src = f.read()
    found = {}
    for line in DIRECTIVE.findall(src):
        for key, vals in DIRECTIVE_KEY.findall(line):
            found[key] = [int(v) for v in vals.split(",")]
    return found


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
        # a PNG pvox wrote must pass a strict decoder (CRCs, the zlib checksum, the exact
        # image bytes), whatever gnuplot wrote
        if f in p["files"] and p["files"][f][:8] == pngcheck.SIGNATURE:
            try:
                pngcheck.info_bytes(p["files"][f])
            except pngcheck.PngError as e:
                msgs.append("file %s: pvox wrote a PNG a strict decoder refuses: %s\n" % (f, e))
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
    ap.add_argument("--np", type=int_list, default=None,
                    help="run pvox under mpiexec with NP ranks (a list: 1,2,3,4; 0: no mpiexec)")
    ap.add_argument("--threads", type=int_list, default=None,
                    help="OMP_NUM_THREADS for pvox (a list: 1,2; default 1)")
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

    mpiexec = None  # found on first use

    def pvox_cmd(np, threads):
        cmd = [pvox] + a.pvox_args.split()
        if np > 0:
            # threads: do not pin a rank (and all its threads) to one core
            bind = ["--bind-to", "none"] if threads > 1 else []
            cmd = [mpiexec, "--oversubscribe"] + bind + ["-n", str(np)] + cmd
        return cmd

    def environment(work, threads):
        env = dict(os.environ)
        for k in ("DISPLAY", "GNUTERM", "GNUPLOT_LIB", "GNUPLOT_DRIVER_DIR"):
            env.pop(k, None)
        # A private HOME: no ~/.gnuplot init file, no ~/.gnuplot_history.
        env.update({"HOME": work, "LC_ALL": "C.UTF-8", "OMP_NUM_THREADS": str(threads),
                    "OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
                    "OMPI_MCA_rmaps_base_oversubscribe": "1"})
        # ranks x threads oversubscribe the cores: idle threads sleep instead of spinning
        env.setdefault("OMP_WAIT_POLICY", "PASSIVE")
        return env

    failed = 0
    total = 0
    for case in a.cases:
        case = os.path.abspath(case)
        casedir, name = os.path.dirname(case), os.path.basename(case)
        want = directive(case)
        nps = a.np if a.np is not None else want.get("np", [0])
        threads = a.threads if a.threads is not None else want.get("threads", [1])
        if mpiexec is None and any(n > 0 for n in nps):
            mpiexec = shutil.which(a.mpiexec)
            if mpiexec is None:
                print("error: %s not found" % a.mpiexec, file=sys.stderr)
                return 1
        scratch = tempfile.mkdtemp(prefix="pvox-oracle-")
        work = os.path.join(scratch, "gnuplot")
        shutil.copytree(casedir, work)
        ref = run_one([gnuplot, name], work, environment(work, 1), a.timeout)
        for np in nps:
            for nt in threads:
                work = os.path.join(scratch, "pvox-np%d-t%d" % (np, nt))
                shutil.copytree(casedir, work)
                got = run_one(pvox_cmd(np, nt) + [name], work, environment(work, nt),
                              a.timeout)
                got["stderr"] = LOG_LINE.sub(b"", got["stderr"])
                msgs = compare(ref, got, a.diff_lines)
                tags = []
                if np:
                    tags.append("np %d" % np)
                if nt != 1 or len(threads) > 1:
                    tags.append("threads %d" % nt)
                tag = name + (" (%s)" % ", ".join(tags) if tags else "")
                total += 1
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
    print("%d of %d runs differ" % (failed, total))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
