#!/usr/bin/env bash
# Checkpoint writes that fail half-way, and temporary names that are taken (README
# "Checkpoints"). fail_write_shim.so (LD_PRELOAD, no privileges needed) makes the file
# system fill up at a chosen offset of the temporary file, refuse to reserve blocks, or
# makes the temporary names predictable.
#   run_h5_midwrite.sh PVOX MPIEXEC NRANKS SHIM
# At NRANKS ranks, with a good checkpoint ck.h5 (and ck.xmf) already in place:
#  1. a full disk inside the voxels: vsave of an 80^3 grid whose file cannot grow past
#     1 MB (the metadata is in the first 64 KiB, the voxels run to 2 MB) on a file
#     system that cannot reserve blocks: exit 3, one message ("cannot write $big: ..."
#     where the MPI-IO layer reports the failure, "... read back differently ..." where
#     it reports success: the read-back catches it), no crash, no hang;
#  2. a link planted under the temporary name of the checkpoint, then of the sidecar,
#     pointing at a victim file (and a dangling one): exit 3, "cannot create '...': File
#     exists", the victim and the link untouched;
#  after each: ck.h5 and ck.xmf byte-identical, no temporary file left, ck.h5 reloads.
# Exit 0 pass, 1 fail.
set -uo pipefail
PVOX=$(realpath "$1") MPIEXEC=$2 NP=$3 SHIM=$(realpath "$4")
export OMPI_ALLOW_RUN_AS_ROOT=${OMPI_ALLOW_RUN_AS_ROOT:-1}
export OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=${OMPI_ALLOW_RUN_AS_ROOT_CONFIRM:-1}
export OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_MCA_odls_base_sigkill_timeout=0
export OMP_NUM_THREADS=1

work=$(mktemp -d "${TMPDIR:-/tmp}/pvox-midwrite.XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
status=0
failed() { echo "FAIL (np=$NP): $*"; status=1; }

cat >good.gp <<'EOF'
set vgrid $small size 8
set vxrange [0:1]; set vyrange [0:1]; set vzrange [0:1]
voxel(0.5, 0.5, 0.5) = 42
vsave "ck.h5"
EOF
cat >big.gp <<'EOF'
set vgrid $big size 80
set vxrange [0:1]; set vyrange [0:1]; set vzrange [0:1]
$c << EOD
0.5 0.5 0.5 1
EOD
vfill $c using 1:2:3:(0.5):(1 + VoxelDistance)
vsave "ck.h5"
EOF
printf 'vload "ck.h5"\nprint voxel(0.5, 0.5, 0.5)\n' >load.gp

# run NAME.gp at NP ranks with the shim and the given VAR=VALUE settings; stderr and
# stdout in NAME.log; returns the exit code (124: it hung)
runp() {
    local name=$1
    shift
    local envs=(-x LD_PRELOAD="$SHIM")
    for kv in "$@"; do
        export "${kv?}"
        envs+=(-x "${kv%%=*}")
    done
    timeout -k 5 120 "$MPIEXEC" --quiet -n "$NP" "${envs[@]}" "$PVOX" -q "$name.gp" >"$name.log" 2>&1
    local rc=$?
    for kv in "$@"; do unset "${kv%%=*}"; done
    return "$rc"
}

# one failing save: exit 3, the expected message once, no crash, nothing changed or left
expect_failure() {
    local what=$1 want=$2 rc=$3
    [ "$rc" = 3 ] || failed "$what: exit $rc, expected 3: $(cat big.log)"
    grep -Eq "^big.gp:[0-9]+:7: error: $want" big.log || failed "$what: unexpected message: $(cat big.log)"
    [ "$(grep -c 'error:' big.log)" = 1 ] || failed "$what: the error is not printed once: $(cat big.log)"
    grep -Eq 'Segmentation|signal|core dumped' big.log && failed "$what: a rank crashed: $(cat big.log)"
    cmp -s ck.h5 ck.h5.orig && cmp -s ck.xmf ck.xmf.orig || failed "$what: ck.h5 or ck.xmf changed"
    local left
    left=$(ls | grep '\.tmp\.')
    [ -z "$left" ] || failed "$what: temporary files left: $left"
}

runp good || failed "saving the good checkpoint: $(cat good.log)"
cp ck.h5 ck.h5.orig && cp ck.xmf ck.xmf.orig || { failed "no checkpoint written"; exit 1; }

# 1. the disk fills inside the voxels, nothing reserved
runp big PV_FAIL_WRITE_MATCH=.h5.tmp. PV_FAIL_WRITE_PAST=1000000 PV_FAIL_FALLOCATE=1
expect_failure "disk full in the voxels" \
    'ck.h5: (cannot write \$big: .*|the voxels of \$big written to the file read back differently .*the file was not replaced)$' $?

# 2. links planted under the temporary names (made predictable: 64 bits of 0x41)
echo keep >victim
for target in ck.h5 ck.xmf; do
    for dest in victim missing; do
        ln -s "$dest" "$target.tmp.4141414141414141"
        runp big PV_FIXED_RANDOM=41
        rc=$?
        [ -L "$target.tmp.4141414141414141" ] || failed "link at $target: the planted link is gone"
        rm -f "$target.tmp.4141414141414141"
        expect_failure "link at $target to $dest" \
            "$target: cannot create '$target.tmp.4141414141414141': File exists$" $rc
        [ "$(cat victim)" = keep ] || failed "link at $target: the victim was written"
        [ ! -e missing ] || { failed "link at $target: a file was created through it"; rm -f missing; }
    done
done

timeout -k 5 120 "$MPIEXEC" --quiet -n "$NP" "$PVOX" -q load.gp >load.log 2>&1 ||
    failed "reloading ck.h5: $(cat load.log)"
grep -qx '42.0' load.log || failed "voxel value after reload: $(cat load.log)"

[ "$status" = 0 ] && echo "ok failed writes keep the checkpoint, links are not followed (np=$NP)"
exit "$status"
