#!/usr/bin/env bash
# Thousands of grids in one checkpoint (README "Checkpoints"):
#   run_h5_many.sh PVOX MPIEXEC
# 5,000 grids of sizes 2, 3 and 4 with their own ranges and values: vsave at 2 ranks,
# vload at 1 and 2 ranks; the -v checksums of every grid and the values printed after the
# load equal those before the save; the ranges and shapes in the file (h5py) are those set.
# The same job with --checkpoint: the file it leaves holds every grid and every change.
set -uo pipefail
PVOX=$(realpath "$1") MPIEXEC=$2
export OMPI_ALLOW_RUN_AS_ROOT=${OMPI_ALLOW_RUN_AS_ROOT:-1}
export OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=${OMPI_ALLOW_RUN_AS_ROOT_CONFIRM:-1}
export OMPI_MCA_rmaps_base_oversubscribe=1
work=$(mktemp -d "${TMPDIR:-/tmp}/pvox-many.XXXXXX")
trap '[ -n "${PV_KEEP:-}" ] || rm -rf "$work"' EXIT
cd "$work" || exit 1
status=0
failed() { echo "FAIL: $*"; status=1; }
runp() {
    local np=$1 log=$2
    shift 2
    timeout -k 5 300 "$MPIEXEC" --quiet -n "$np" "$PVOX" "$@" 2>"$log.log" >"$log.out" </dev/null
}
sums() { grep -o 'grid: \$g[0-9]* checksum [0-9a-f]*' "$1.log" | sort -u; }
N=5000
cat >save.gp <<END
do for [i=1:$N] {
  name = sprintf("\$g%d", i)
  set vgrid @name size 2 + i % 3
  set vxrange [0:i]; set vyrange [-i:0]; set vzrange [0:1]
  voxel(0, 0, 0) = i
}
vsave "many.h5"
END
cat >check.gp <<END
s = 0
do for [i=1:$N] {
  name = sprintf("\$g%d", i)
  set vgrid @name
  s = s + voxel(0, 0, 0) * i + i % 3
}
print s
END
# the values as saved, and as loaded
cat save.gp check.gp >before.gp
printf 'vload "many.h5"\n' | cat - check.gp >after.gp
runp 2 save -v before.gp || failed "vsave of $N grids: $(tail -3 save.log)"
[ "$(sums save | wc -l)" = $N ] || failed "vsave: $(sums save | wc -l) checksums logged, expected $N"
for np in 1 2; do
    runp $np load$np -v after.gp || { failed "vload of $N grids at $np ranks: $(tail -3 load$np.log)"; continue; }
    [ "$(sums save)" = "$(sums load$np)" ] || failed "vload at $np ranks: the checksums differ"
    cmp -s save.out load$np.out || failed "vload at $np ranks: prints $(cat load$np.out), expected $(cat save.out)"
done
# --checkpoint of the same job (grids made one by one, 5 changes each): by default saves
# are put off while they would take more than a tenth of the run, and the one put off
# last is made when the script ends, so the file holds every grid and every change
grep -v '^vsave' save.gp >ckjob.gp
runp 2 ck -v --checkpoint ck.h5 ckjob.gp || failed "--checkpoint of $N grids: $(tail -3 ck.log)"
echo "--checkpoint of $N grids, $((5 * N)) changes: $(grep -c 'checkpoint ck.h5:' ck.log) saves"
printf 'vload "ck.h5"\n' | cat - check.gp >ckload.gp
runp 1 ckload ckload.gp || failed "vload of the checkpoint: $(tail -3 ckload.log)"
cmp -s save.out ckload.out || failed "the checkpoint's grids print $(cat ckload.out), expected $(cat save.out)"
if /usr/bin/python3 -c 'import h5py' 2>/dev/null; then
    /usr/bin/python3 - $N <<'PY' || failed "the checkpoint's job_state"
import sys, h5py
n = int(sys.argv[1])
with h5py.File("ck.h5", "r") as f:
    s = f.attrs["job_state"]
    s = s.decode() if isinstance(s, bytes) else s
    assert s == "changes=%d active=$g%d" % (5 * n, n), s
PY
fi
# the ranges and shapes in the file, where h5py is installed
if /usr/bin/python3 -c 'import h5py' 2>/dev/null; then
    /usr/bin/python3 - $N <<'PY' || failed "the ranges in the file"
import sys, h5py
n = int(sys.argv[1])
with h5py.File("many.h5", "r") as f:
    g = f["/grids"]
    assert len(g) == n, len(g)
    for i in (1, 2, 3, n // 2, n):
        d = g["$g%d" % i]
        assert list(d.attrs["vxrange"]) == [0, i] and list(d.attrs["vyrange"]) == [-i, 0]
        assert d.shape == (2 + i % 3,) * 3
PY
fi
exit $status
