#!/usr/bin/env bash
# A full disk must not cost the checkpoint already there (tests/io/tests.cmake).
#   run_h5_fulldisk.sh PVOX MPIEXEC NRANKS
# Mounts a 1 MiB tmpfs (needs root or CAP_SYS_ADMIN) and, at NRANKS ranks:
#  1. saves a small good checkpoint ck.h5 ($small, 8^3, one voxel 42) and notes its
#     checksum, and the bytes of ck.h5 and ck.xmf;
#  2. `vsave` of an 80^3 grid (2 MB) to ck.h5: refused up front (statvfs), exit 3,
#     "ck.h5: no space left on device: the checkpoint needs ...";
#  3. the same with PVOX_H5_NO_SPACE_CHECK=1 (no statvfs check), so the file system
#     itself says ENOSPC: when the file's blocks are reserved before the voxels are
#     written ("ck.h5: no space left on device: cannot reserve ..."), or, where the file
#     system cannot reserve, inside the write ("ck.h5: cannot write $big: no space left
#     on device"); exit 3, the message printed once, no crash;
#  4. ck.h5 and ck.xmf are byte-identical to step 1, no temporary file is left, and a
#     vload of ck.h5 gives the same checksum and voxel value.
# Without the right to mount, falls back to a file size limit (ulimit -f, SIGXFSZ
# ignored, applied to the ranks only) and checks steps 1, 2 (the limit is refused up
# front: "more than the file size limit") and 4; it says so. Exit 0 pass, 1 fail.
set -uo pipefail
PVOX=$(realpath "$1") MPIEXEC=$2 NP=$3
export OMPI_ALLOW_RUN_AS_ROOT=${OMPI_ALLOW_RUN_AS_ROOT:-1}
export OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=${OMPI_ALLOW_RUN_AS_ROOT_CONFIRM:-1}
export OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_MCA_odls_base_sigkill_timeout=0
export OMP_NUM_THREADS=1

work=$(mktemp -d "${TMPDIR:-/tmp}/pvox-fulldisk.XXXXXX")
mnt=$work/disk
mkdir -p "$mnt"
mode=tmpfs
cleanup() {
    [ "$mode" = tmpfs ] && umount "$mnt" 2>/dev/null
    rm -rf "$work"
}
trap cleanup EXIT
# PV_FULLDISK_MODE=ulimit forces the fallback (to test it where mounting works)
if [ "${PV_FULLDISK_MODE:-}" = ulimit ] || ! mount -t tmpfs -o size=1m tmpfs "$mnt" 2>/dev/null; then
    mode=ulimit
    echo "note: cannot mount a tmpfs here; simulating a full disk with ulimit -f"
fi

cat >"$work/good.gp" <<'EOF'
set vgrid $small size 8
set vxrange [0:1]
set vyrange [0:1]
set vzrange [0:1]
voxel(0.5, 0.5, 0.5) = 42
vsave "ck.h5"
EOF
cat >"$work/big.gp" <<'EOF'
set vgrid $big size 80
set vxrange [0:1]
set vyrange [0:1]
set vzrange [0:1]
vsave "ck.h5"
EOF
cat >"$work/load.gp" <<'EOF'
vload "ck.h5"
print voxel(0.5, 0.5, 0.5)
EOF

status=0
failed() { echo "FAIL ($mode, np=$NP): $*"; status=1; }

# run NAME.gp in the disk folder with -v; stdout+stderr in $work/NAME.log; returns exit code
runp() {
    local name=$1
    shift
    if [ "$mode" = ulimit ]; then
        # the limit applies to the ranks only (mpirun needs bigger files for its own
        # shared memory); TCP between ranks for the same reason
        (cd "$mnt" && OMPI_MCA_btl=self,tcp timeout -k 5 120 "$MPIEXEC" --quiet -n "$NP" \
            "$@" bash -c "ulimit -f 512; trap '' XFSZ; exec '$PVOX' -v '$work/$name.gp'") \
            >"$work/$name.log" 2>&1
    else
        (cd "$mnt" && timeout -k 5 120 "$MPIEXEC" --quiet -n "$NP" "$@" "$PVOX" -v \
            "$work/$name.gp") >"$work/$name.log" 2>&1
    fi
}
checksum() { grep -o 'grid: \$small checksum [0-9a-f]*' "$1"; }

# 1. a good checkpoint
runp good || failed "saving the good checkpoint: $(cat "$work/good.log")"
sum=$(checksum "$work/good.log")
[ -n "$sum" ] || failed "no checksum logged by vsave"
cp "$mnt/ck.h5" "$work/ck.h5.orig" && cp "$mnt/ck.xmf" "$work/ck.xmf.orig" ||
    failed "ck.h5/ck.xmf not written"

# 2. refused up front
runp big
rc=$?
[ "$rc" = 3 ] || failed "step 2: exit $rc, expected 3"
if [ "$mode" = tmpfs ]; then
    want='ck.h5: no space left on device: the checkpoint needs'
else
    want='ck.h5: the checkpoint needs .* more than the file size limit'
fi
grep -q "error: $want" "$work/big.log" || failed "step 2: no '$want' in: $(cat "$work/big.log")"

# 3. the write itself meets the full disk
if [ "$mode" = tmpfs ]; then
    PVOX_H5_NO_SPACE_CHECK=1 runp big -x PVOX_H5_NO_SPACE_CHECK
    rc=$?
    [ "$rc" = 3 ] || failed "step 3: exit $rc, expected 3: $(cat "$work/big.log")"
    grep -Eq 'error: ck.h5: (cannot write (\$big|the file): )?no space left on device' \
        "$work/big.log" || failed "step 3: unexpected message: $(cat "$work/big.log")"
    if grep -Eq 'Segmentation|signal|core dumped' "$work/big.log"; then
        failed "step 3: a rank crashed: $(cat "$work/big.log")"
    fi
    [ "$(grep -c 'error:' "$work/big.log")" = 1 ] || failed "step 3: error not printed once"
fi

# 4. the old checkpoint survived, nothing left behind, and it still loads
cmp -s "$mnt/ck.h5" "$work/ck.h5.orig" || failed "ck.h5 changed"
cmp -s "$mnt/ck.xmf" "$work/ck.xmf.orig" || failed "ck.xmf changed"
left=$(ls "$mnt" | grep '\.tmp\.')
[ -z "$left" ] || failed "temporary files left: $left"
runp load || failed "reloading: $(cat "$work/load.log")"
[ "$(checksum "$work/load.log")" = "$sum" ] || failed "reloaded checksum differs: $(cat "$work/load.log")"
grep -qx '42.0' "$work/load.log" || failed "voxel value after reload: $(cat "$work/load.log")"

[ "$status" = 0 ] && echo "ok full disk ($mode, np=$NP)"
exit "$status"
