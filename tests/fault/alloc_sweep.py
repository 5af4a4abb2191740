#!/usr/bin/env python3
"""Allocation-failure sweep: make the N-th tracked allocation fail on one rank only
(`--fail-alloc-at N@R`), for every N the job reaches there (a first run counts them),
and check that every run ends cleanly: exit code 3 on every rank (mpiexec reports the
first non-zero code) with an "out of memory" message, or 0 where pvox has a fallback
(a failed vector compile runs the scalar path); no signal, no hang (a run is killed
after --timeout seconds and counts as a hang). Every PNG file a run leaves must pass a
strict decoder (tests/pngcheck.py): a picture is whole or absent, never half written.

    alloc_sweep.py --pvox build/pvox --mpiexec mpiexec --np 3 --rank 0 --rank 2 job.gp
    alloc_sweep.py ... --min-size 4K  only allocations of at least 4 KiB count
    alloc_sweep.py ... --stride 7     every 7th allocation (and the last one), for a
                                      quick pass in the test suite

Exit 0 when every run was clean, 1 otherwise (each bad run is listed with its stderr).
"""
import argparse
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir))
import pngcheck  # noqa: E402  (tests/pngcheck.py: strict PNG decoding)


def run_once(args, script, n, rank, work):
    for name in os.listdir(work):
        p = os.path.join(work, name)
        shutil.rmtree(p) if os.path.isdir(p) else os.unlink(p)
    cmd = [args.mpiexec, "-n", str(args.np), "--oversubscribe", args.pvox, "-q",
           "--fail-alloc-at", f"{n}@{rank}/{args.min_size}", script]
    # a session of its own, so a hung run is killed with all its processes
    p = subprocess.Popen(cmd, cwd=work, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        _, err = p.communicate(timeout=args.timeout)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        _, err = p.communicate()
        return "hang", err
    return p.returncode, err


def png_faults(work):
    """The faults of the PNG files left in work (temporaries aside)."""
    faults = []
    for root, _, files in os.walk(work):
        for f in sorted(files):
            if f.endswith(".png"):
                fault = pngcheck.fault(os.path.join(root, f))
                if fault:
                    faults.append(fault)
    return faults


def judge(rc, err, faults=()):
    """None if the run ended as it must, else what is wrong."""
    if faults:
        return "PNG files a strict decoder refuses: " + "; ".join(faults)
    if rc == "hang":
        return "hang (killed after the timeout)"
    if rc == 0:
        return None
    if rc != 3:
        return f"exit code {rc}, expected 3"
    if "(injected failure)" not in err and "out of memory" not in err:
        return "no out-of-memory message"
    for bad in ("Signal:", "signal ", "MPI_ABORT", "Segmentation", "AddressSanitizer"):
        if bad in err:
            return f"'{bad}' in stderr"
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--pvox", required=True)
    ap.add_argument("--mpiexec", default="mpiexec")
    ap.add_argument("--np", type=int, default=3)
    ap.add_argument("--rank", type=int, action="append", required=True)
    ap.add_argument("--stride", type=int, default=1)
    ap.add_argument("--min-size", default="0", help="count allocations of at least this size")
    ap.add_argument("--timeout", type=float, default=60)
    ap.add_argument("--max", type=int, default=100000, help="give up after N allocations")
    ap.add_argument("script")
    args = ap.parse_args()
    script = os.path.abspath(args.script)
    bad = 0
    work = tempfile.mkdtemp(prefix="pv-sweep-")
    try:
        for rank in args.rank:
            rc, err = run_once(args, script, 1 << 62, rank, work)
            m = re.search(r"rank \d+ made (\d+) counted allocations", err)
            faults = png_faults(work)
            if faults:
                print("FAIL the job's own run: PNG files a strict decoder refuses:\n  " +
                      "\n  ".join(faults))
                return 1
            if rc != 0 or not m:
                print(f"FAIL the job does not run through on its own (exit {rc})\n{err}")
                return 1
            total = int(m.group(1))
            points = sorted(set(range(1, total + 1, args.stride)) | {total} - {0})
            for n in points:
                rc, err = run_once(args, script, n, rank, work)
                what = judge(rc, err, png_faults(work))
                if what:
                    bad += 1
                    print(f"FAIL rank {rank} allocation {n} of {total}: {what}\n"
                          f"{err[-2000:]}", flush=True)
            print(f"rank {rank}: {len(points)} runs over {total} allocations", flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print("all runs ended cleanly" if not bad else f"{bad} bad runs")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
