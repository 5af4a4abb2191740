#!/usr/bin/env python3
"""Rank/thread determinism of grid fills: run one script at several rank and thread counts
and require identical grids.

    run_checksum.py --pvox build/pvox [--np 1,2,3,4] [--threads 1,2] [--mpiexec mpiexec]
                    [--min-checksums N] SCRIPT.gp

pvox -v logs "<grid> checksum <16 hex digits>" after every vfill (a hash of every voxel's
bits, src/exec/gridcmd.c). Each run's checksum lines, and its script output (stdout, and
stderr without pvox's log lines: vfill reports, show vgrid statistics), must equal those
of the first run (np 1, 1 thread). At least --min-checksums checksum lines are required,
so a lost log line fails instead of passing vacuously. Standard library only.
Exit codes: 0 identical, 1 a difference or an error.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

LOG_LINE = re.compile(r"^\[ *[0-9.]+\] r[0-9]+/[0-9]+ (INFO|DEBUG) .*$", re.M)
CHECKSUM = re.compile(r"^\[ *[0-9.]+\] r0/[0-9]+ INFO  grid: (\S+ checksum [0-9a-f]{16})$", re.M)


def int_list(s):
    try:
        out = [int(v) for v in s.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError("expected a comma-separated list of integers: %r" % s)
    if not out or any(v < 1 for v in out):
        raise argparse.ArgumentTypeError("expected counts >= 1: %r" % s)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pvox", required=True)
    ap.add_argument("--np", type=int_list, default=[1, 2, 3, 4])
    ap.add_argument("--threads", type=int_list, default=[1, 2])
    ap.add_argument("--mpiexec", default="mpiexec")
    ap.add_argument("--min-checksums", type=int, default=1)
    ap.add_argument("--timeout", type=int, default=120)
    ap.add_argument("script")
    a = ap.parse_args()

    pvox = os.path.abspath(a.pvox)
    mpiexec = shutil.which(a.mpiexec)
    if mpiexec is None:
        print("error: %s not found" % a.mpiexec, file=sys.stderr)
        return 1
    script = os.path.abspath(a.script)
    ref = None
    failed = 0
    for np in a.np:
        for nt in a.threads:
            tag = "np %d, threads %d" % (np, nt)
            env = dict(os.environ)
            env.update({"OMP_NUM_THREADS": str(nt), "LC_ALL": "C.UTF-8",
                        "OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
                        "OMPI_MCA_rmaps_base_oversubscribe": "1"})
            # ranks x threads oversubscribe the cores: idle threads sleep, not spin
            env.setdefault("OMP_WAIT_POLICY", "PASSIVE")
            bind = ["--bind-to", "none"] if nt > 1 else []
            cmd = [mpiexec, "--oversubscribe"] + bind + ["-n", str(np), pvox, "-v",
                                                        "--no-progress", script]
            work = tempfile.mkdtemp(prefix="pvox-checksum-")
            try:
                r = subprocess.run(cmd, cwd=work, env=env, capture_output=True,
                                   timeout=a.timeout)
            except subprocess.TimeoutExpired:
                print("FAIL %s: timed out after %d s" % (tag, a.timeout))
                failed += 1
                continue
            finally:
                shutil.rmtree(work, ignore_errors=True)
            err = r.stderr.decode("utf-8", "replace")
            got = {"exit code": str(r.returncode),
                   "checksums": "\n".join(CHECKSUM.findall(err)),
                   "stdout": r.stdout.decode("utf-8", "replace"),
                   "stderr": LOG_LINE.sub("", err)}
            n = len(CHECKSUM.findall(err))
            if r.returncode != 0 or n < a.min_checksums:
                print("FAIL %s: exit code %d, %d checksum lines (want >= %d)"
                      % (tag, r.returncode, n, a.min_checksums))
                sys.stdout.write(err[-3000:])
                failed += 1
                continue
            if ref is None:
                ref, reftag = got, tag
                print("ok   %s: %d checksums (reference)" % (tag, n))
                for line in got["checksums"].splitlines():
                    print("     " + line)
                continue
            bad = [k for k in ("exit code", "checksums", "stdout", "stderr") if got[k] != ref[k]]
            if bad:
                failed += 1
                print("FAIL %s differs from %s in %s" % (tag, reftag, ", ".join(bad)))
                for k in bad:
                    print("--- %s (%s)\n%s\n+++ %s (%s)\n%s" % (k, reftag, ref[k][-2000:], k, tag,
                                                                got[k][-2000:]))
            else:
                print("ok   %s" % tag)
    print("%d runs differ or failed" % failed)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
