#!/bin/bash
# --checkpoint / --resume end to end: a job killed after its first fill and plot (exit
# status 3) is resumed on another rank count; the resumed run must print exactly what an
# uninterrupted run prints, skip the plot already written, redraw the missing one
# with the same pixels, and refuse to resume with a different script.
# usage: run_ckpt.sh PVOX MPIEXEC NP_FIRST NP_RESUME
set -u
PVOX=$(realpath "$1") MPIEXEC=$2 NP1=$3 NP2=$4
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/pvox-ckpt.XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
cp "$here/ckpt_job.gp" job.gp
run() { "$MPIEXEC" --quiet --oversubscribe "$@"; }
fail() { echo "FAIL: $*"; exit 1; }

# the reference: one uninterrupted run without checkpoints
mkdir ref && (cd ref && run -n "$NP1" "$PVOX" -q ../job.gp 2>stderr.txt) || fail "reference run failed"

# the interrupted run
run -n "$NP1" "$PVOX" -q --checkpoint ck.h5 -e "crash=1" job.gp 2>/dev/null
rc=$?
[ "$rc" = 3 ] || fail "interrupted run exited $rc, expected 3"
[ -f ck.h5 ] && [ -f ck.xmf ] || fail "no checkpoint written"
[ -f f1.png ] && [ ! -f f2.png ] || fail "unexpected outputs after the interrupted run"
cp f1.png f1.first.png
touch -d '2000-01-01' f1.png

# resume on another rank count
run -n "$NP2" "$PVOX" -v --resume ck.h5 --checkpoint ck.h5 job.gp 2>resume.log
rc=$?
[ "$rc" = 0 ] || { cat resume.log; fail "resumed run exited $rc"; }
grep -q "resuming from ck.h5: 1 grid, skipping the first 5 grid changes" resume.log ||
    { cat resume.log; fail "resume did not report the replayed changes"; }
grep -q "f1.png exists, not drawn again" resume.log || fail "the existing plot was redrawn"
[ "$(stat -c %Y f1.png)" = "$(date -d '2000-01-01' +%s)" ] || fail "f1.png was rewritten"
grep -v -E '^\[|^vfill from' resume.log | grep -v -P '^\t(radius|number of (points|voxels))' |
    diff - ref/stderr.txt || fail "resumed output differs from the uninterrupted run"
# the same pixels (the files' bytes depend on the rank count: with several ranks each
# deflates its own piece of the picture)
/usr/bin/python3 - f2.png ref/f2.png <<'PY' || fail "f2.png differs from the uninterrupted run's"
import sys
from PIL import Image
a, b = (Image.open(p) for p in sys.argv[1:3])
sys.exit(0 if a.size == b.size and a.mode == b.mode and a.tobytes() == b.tobytes() else 1)
PY
# every picture decodes strictly (tests/pngcheck.py: CRCs, the zlib checksum, exact size)
/usr/bin/python3 "$here/../pngcheck.py" f1.png f2.png ref/f1.png ref/f2.png ||
    fail "a picture a strict decoder refuses"

# a different script is refused, on every rank, with exit code 1
echo "# edited" >>job.gp
run -n "$NP2" "$PVOX" -q --resume ck.h5 job.gp 2>refuse.log
rc=$?
[ "$rc" = 1 ] || fail "resume with an edited script exited $rc, expected 1"
grep -q "was written by a different job script" refuse.log || { cat refuse.log; fail "no refusal message"; }
echo "ok: checkpoint at $NP1 ranks, resumed at $NP2"
