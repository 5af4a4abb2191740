#!/usr/bin/env bash
# Checkpoints damaged on disk are refused, undamaged ones load bit for bit (README
# "Checkpoints", the checksum attribute of pvox/h5.h).
#   run_h5_damage.sh PVOX MPIEXEC NRANKS
# At NRANKS ranks:
#  1. vsave of two grids (-v logs their checksums) and a --checkpoint of a job;
#  2. the undamaged files: vload logs the same checksums, the grids saved again are
#     identical to the first file (h5diff), --resume runs to the end;
#  3. four bytes flipped in the middle of a grid's voxels (at the dataset's offset,
#     h5py's id.get_offset()): vload exits 3 on every rank with one located message
#     "load.gp:1:7: error: bad.h5: /grids/$a is damaged: ...", and --resume of a damaged
#     --checkpoint file exits 3 with "ck_bad.h5: /grids/$v is damaged: ...";
#  4. a file without the checksum attribute (written before it existed) loads unchecked.
# Needs h5py (python3-h5py) for the offsets: missing, the test skips (77), or fails under
# CI=true. Exit 0 pass, 1 fail.
set -uo pipefail
PVOX=$(realpath "$1") MPIEXEC=$2 NP=$3
export OMPI_ALLOW_RUN_AS_ROOT=${OMPI_ALLOW_RUN_AS_ROOT:-1}
export OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=${OMPI_ALLOW_RUN_AS_ROOT_CONFIRM:-1}
export OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_MCA_odls_base_sigkill_timeout=0

PY=
for p in python3 /usr/bin/python3; do
    if "$p" -c 'import h5py' 2>/dev/null; then PY=$p; break; fi
done
if [ -z "$PY" ]; then
    [ "${CI:-}" = true ] && { echo "FAIL (CI): no python3 with h5py"; exit 1; }
    echo "SKIP: no python3 with h5py"
    exit 77
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/pvox-damage.XXXXXX")
trap '[ -n "${PV_KEEP:-}" ] || rm -rf "$work"' EXIT
cd "$work" || exit 1
status=0
failed() { echo "FAIL (np=$NP): $*"; status=1; }
# run pvox at NP ranks; stderr into $1.log; returns the exit code
runp() {
    local log=$1
    shift
    timeout -k 5 120 "$MPIEXEC" --quiet -n "$NP" "$PVOX" "$@" 2>"$log.log" >/dev/null
}
sums() { grep -o 'grid: \$[a-z]* checksum [0-9a-f]*' "$1.log" | sort -u; }

cat >save.gp <<'EOF'
set vgrid $a size 24
set vxrange [0:1]; set vyrange [0:1]; set vzrange [0:1]
$p << EOD
0.3 0.4 0.6 1
0.7 0.2 0.3 2
EOD
vfill $p using 1:2:3:(0.5):($4*exp(-VoxelDistance**2/0.05))
set vgrid $b size 8
set vxrange [0:1]; set vyrange [0:1]; set vzrange [0:1]
voxel(0.5, 0.5, 0.5) = 42
vsave "d.h5"
EOF
printf 'vload "d.h5"\nvsave "again.h5"\n' >reload.gp
printf 'vload "bad.h5"\n' >load.gp
printf 'vload "old.h5"\nset vgrid $b\nprint voxel(0.5, 0.5, 0.5)\n' >old.gp
cat >job.gp <<'EOF'
set vgrid $v size 20
set vxrange [0:1]; set vyrange [0:1]; set vzrange [0:1]
$c << EOD
0.5 0.5 0.5 1
EOD
vfill $c using 1:2:3:(0.3):($4*exp(-VoxelDistance**2/0.02))
print voxel(0.5, 0.5, 0.5)
EOF

# flip 4 bytes in the middle of a grid's voxels, or drop every checksum attribute
cat >patch.py <<'EOF'
import sys, h5py
path, what = sys.argv[1], sys.argv[2]
if what == "strip":
    with h5py.File(path, "r+") as f:
        for d in f["/grids"].values():
            del d.attrs["checksum"]
        del f.attrs["meta_checksum"]  # files before it have neither
    sys.exit(0)
with h5py.File(path, "r") as f:
    d = f["/grids/" + what]
    off = d.id.get_offset() + d.id.get_storage_size() // 2
with open(path, "r+b") as raw:
    raw.seek(off)
    b = raw.read(4)
    raw.seek(off)
    raw.write(bytes(x ^ 0x5A for x in b))
EOF

# 1. the files
runp save -v save.gp || failed "vsave: $(cat save.log)"
runp ck -q --checkpoint ck.h5 job.gp || failed "--checkpoint: $(cat ck.log)"
[ -f d.h5 ] && [ -f ck.h5 ] || { failed "no files written"; exit 1; }
"$PY" - <<'EOF' || failed "no checksum attribute on the grids"
import h5py
with h5py.File("d.h5", "r") as f:
    for d in f["/grids"].values():
        assert d.attrs["checksum"].dtype == "uint64"
EOF

# 2. undamaged: the same checksums, the same voxels, a resume that runs
runp reload -v reload.gp || failed "vload of the undamaged file: $(cat reload.log)"
[ "$(sums save)" = "$(sums reload)" ] || failed "checksums differ: $(sums save) / $(sums reload)"
h5diff d.h5 again.h5 /grids/\$a /grids/\$a >/dev/null && h5diff d.h5 again.h5 /grids/\$b /grids/\$b >/dev/null ||
    failed "the grids loaded and saved again differ from the file"
runp resume -q --resume ck.h5 job.gp || failed "--resume of the undamaged file: $(cat resume.log)"

# 3. damaged
cp d.h5 bad.h5 && "$PY" patch.py bad.h5 '$a' || failed "patching bad.h5"
runp load -q load.gp
rc=$?
[ "$rc" = 3 ] || failed "vload of a damaged file: exit $rc, expected 3: $(cat load.log)"
grep -q '^load.gp:1:7: error: bad.h5: /grids/\$a is damaged: its voxels have checksum [0-9a-f]\{16\}, the file records [0-9a-f]\{16\}$' load.log ||
    failed "vload of a damaged file: unexpected message: $(cat load.log)"
[ "$(grep -c 'error:' load.log)" = 1 ] || failed "vload: the error is not printed once: $(cat load.log)"
cp ck.h5 ck_bad.h5 && "$PY" patch.py ck_bad.h5 '$v' || failed "patching ck_bad.h5"
runp rbad -q --resume ck_bad.h5 job.gp
rc=$?
[ "$rc" = 3 ] || failed "--resume of a damaged file: exit $rc, expected 3: $(cat rbad.log)"
grep -q 'error: ck_bad.h5: /grids/\$v is damaged: its voxels have checksum' rbad.log ||
    failed "--resume of a damaged file: unexpected message: $(cat rbad.log)"
[ "$(grep -c 'error:' rbad.log)" = 1 ] || failed "--resume: the error is not printed once: $(cat rbad.log)"

# 4. a file from before the checksum attribute: no check
cp d.h5 old.h5 && "$PY" patch.py old.h5 strip || failed "stripping old.h5"
runp old -q old.gp || failed "vload of a file without checksums: $(cat old.log)"
grep -qx '42.0' old.log || failed "vload of a file without checksums: $(cat old.log)"

[ "$status" = 0 ] && echo "ok damaged checkpoints refused, undamaged ones load (np=$NP)"
exit "$status"
