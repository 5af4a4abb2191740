#!/usr/bin/env bash
# A rank killed mid-job (SIGKILL, as the kernel's OOM killer or a failed node does it):
# the other ranks and mpiexec must end within 60 s with a non-zero exit code, the
# --checkpoint file must be intact, and `--resume` must finish the job with the grid and
# frames of an uninterrupted run (README "--checkpoint and --resume").
#   kill_rank.sh PVOX MPIEXEC NP RANK...
# The job, kill_job.gp: a 64³ grid changed by a vfill and drawn as a 480x360 frame in each
# of 24 iterations, with --checkpoint ck.h5 --checkpoint-every 0 (a save after every vfill). For each RANK:
#  1. run at NP ranks; once f03.png exists, SIGKILL that rank's process (found as a child
#     of our mpiexec by its OMPI_COMM_WORLD_RANK), aimed at a checkpoint being written:
#     while its temporary HDF5 file exists (every rank takes part in the collective
#     write; rank 0 creates the file, then writes the sidecar and renames both); if no
#     temporary is seen before f20.png, the kill comes then, unaimed. (A frame's
#     temporary PNG lives for a millisecond or less, too short to aim at: the test
#     plants one instead, see 4.)
#  2. the survivors and mpiexec exit within 60 s (the time taken is printed) with a
#     non-zero code;
#  3. ck.h5 is intact: h5dump reads it, it has the checksum attribute, and pvox's vload
#     of it (which checks the checksum) succeeds; every frame present is byte for byte
#     the uninterrupted run's;
#  4. a temporary PNG of the first missing frame is planted, as a kill during its write
#     leaves one, with a decoy that is not a pvox temporary name; --resume ck.h5
#     --checkpoint ck.h5 at NP ranks exits 0, removes the temporaries the killed run left
#     and the planted one but not the decoy, and the final grid (the checkpoint's checksum
#     attribute and its voxels, h5diff) and all 24 frames (bytes: same rank count) equal
#     those of the uninterrupted run.
# Exit 0 pass, 1 fail, 77 skip (h5dump, h5diff or pgrep missing; a failure under CI=true).
# PV_KEEP=1 keeps the working directory.
set -uo pipefail
PVOX=$(realpath "$1") MPIEXEC=$2 NP=$3
here=$(cd "$(dirname "$0")" && pwd)
shift 3
RANKS=("$@")
[ "${#RANKS[@]}" -gt 0 ] || { echo "usage: kill_rank.sh PVOX MPIEXEC NP RANK..."; exit 1; }
export OMPI_ALLOW_RUN_AS_ROOT=${OMPI_ALLOW_RUN_AS_ROOT:-1}
export OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=${OMPI_ALLOW_RUN_AS_ROOT_CONFIRM:-1}
export OMPI_MCA_rmaps_base_oversubscribe=1
HANG_S=60     # the survivors' bound (a hang, not a speed limit)
ITERS=24   # the frames of kill_job.gp

# shellcheck source=tests/fault/run_lib.sh
. "$here/run_lib.sh"
fault_need_tools h5dump h5diff pgrep

fault_scratch pvox-kill

cp "$here/kill_job.gp" job.gp
ARGS=(-v --checkpoint ck.h5 --checkpoint-every 0 job.gp)
frames=()
for ((i = 0; i < ITERS; i++)); do frames+=("$(printf 'f%02d.png' "$i")"); done

h5_checksum() {   # file -> the checksum attribute of /grids/$v (the -v grid checksum)
    h5dump -a '/grids/$v/checksum' "$1" 2>/dev/null | sed -n 's/^ *(0): *\([0-9]*\).*/\1/p' | head -n 1
}
writing() { compgen -G 'ck.h5.tmp.*' >/dev/null; }   # is a checkpoint being written?
running() {   # pid... -> 0 if one of them is a live pvox (not a zombie)
    local p
    for p in "$@"; do
        [ "$(cat "/proc/$p/comm" 2>/dev/null)" = pvox ] || continue
        [ "$(awk '{ print $3 }' "/proc/$p/stat" 2>/dev/null)" = Z ] || return 0
    done
    return 1
}
temporaries() { compgen -G '*.tmp.*' | tr '\n' ' '; }

# ---------------------------------------------------------------- uninterrupted run
mkdir ref
t0=$(now)
cp job.gp ref/
(cd ref && "$MPIEXEC" --quiet -n "$NP" "$PVOX" "${ARGS[@]}" 2>log.txt)
rc=$?
[ "$rc" = 0 ] || { cat ref/log.txt; fail "the uninterrupted run exited $rc"; }
for f in "${frames[@]}"; do [ -s "ref/$f" ] || fail "the uninterrupted run wrote no $f"; done
# the frames decode strictly (tests/pngcheck.py); the runs below must equal them byte for byte
(cd ref && python3 "$here/../pngcheck.py" "${frames[@]}") || fail "the uninterrupted run wrote PNG files a strict decoder refuses"
ref_sum=$(h5_checksum ref/ck.h5)
[ -n "$ref_sum" ] || fail "the uninterrupted run's ck.h5 has no checksum attribute"
echo "uninterrupted run: ${NP} ranks, $(since "$t0") s, final grid checksum $ref_sum"

# ---------------------------------------------------------------- one kill
kill_case() {
    local rank=$1 dir=kill_r$1 aim='a checkpoint write' pids=() victim='' p r t0 waited rc seen
    { mkdir "$dir" && cp job.gp "$dir/" && cd "$dir"; } || fail "cannot set up $dir"
    "$MPIEXEC" --quiet -n "$NP" "$PVOX" "${ARGS[@]}" 2>log.txt &
    MP=$!
    # wait for f03.png, then for the temporary (not past f20.png: the kill must come
    # mid-run, aimed or not)
    t0=$(now)
    while [ ! -e f03.png ]; do
        kill -0 "$MP" 2>/dev/null || { cat log.txt; fail "rank $rank case: the job ended before f03.png"; }
        [ "$(since "$t0" | cut -d. -f1)" -lt 300 ] || fail "rank $rank case: no f03.png after 300 s"
        sleep 0.02
    done
    for p in $(pgrep -P "$MP"); do
        r=$(tr '\0' '\n' <"/proc/$p/environ" 2>/dev/null | sed -n 's/^OMPI_COMM_WORLD_RANK=//p')
        [ -n "$r" ] || continue
        pids+=("$p")
        [ "$r" = "$rank" ] && victim=$p
    done
    [ "${#pids[@]}" = "$NP" ] || fail "rank $rank case: found ${#pids[@]} rank processes under mpiexec $MP, expected $NP"
    [ -n "$victim" ] || fail "rank $rank case: no process of rank $rank under mpiexec $MP"
    until writing; do
        [ -e f20.png ] && { aim="no checkpoint write (none seen before f20.png)"; break; }
        sleep 0.005
    done
    kill -9 "$victim"
    t0=$(now)
    seen=$(compgen -G 'f*.png' | wc -l)
    # until mpiexec and every rank process have exited (a zombie has exited: once
    # mpiexec is gone, its children are reaped by whoever adopts them, if anybody)
    while kill -0 "$MP" 2>/dev/null || running "${pids[@]}"; do
        if [ "$(since "$t0" | cut -d. -f1)" -ge "$HANG_S" ]; then
            ps -o pid,stat,etime,cmd -p "${pids[*]}" "$MP" 2>/dev/null
            tail -n 20 log.txt
            fail "rank $rank case: mpiexec or surviving ranks still run $HANG_S s after rank $rank was killed (hang)"
        fi
        sleep 0.05
    done
    waited=$(since "$t0")
    wait "$MP"
    rc=$?
    MP=
    [ "$rc" != 0 ] || fail "rank $rank case: mpiexec exited 0 after rank $rank was killed"
    echo "rank $rank of $NP killed after $seen frames, during $aim: mpiexec and the other ranks exited in $waited s, exit code $rc; left: $(temporaries)"

    # the checkpoint is intact: HDF5, the checksum attribute, vload (which verifies it)
    h5dump -H ck.h5 >/dev/null 2>&1 || fail "rank $rank case: h5dump cannot read ck.h5"
    [ -n "$(h5_checksum ck.h5)" ] || fail "rank $rank case: ck.h5 has no checksum attribute"
    [ -s ck.xmf ] || fail "rank $rank case: ck.xmf missing"
    "$PVOX" -v -e 'vload "ck.h5"' 2>vload.txt || { cat vload.txt; fail "rank $rank case: vload of ck.h5 failed"; }
    grep -q 'grid: \$v checksum' vload.txt || { cat vload.txt; fail "rank $rank case: vload logged no checksum"; }
    local n=0
    for f in "${frames[@]}"; do
        [ -e "$f" ] || continue
        cmp -s "$f" "../ref/$f" || fail "rank $rank case: $f of the killed run differs from the uninterrupted run's"
        n=$((n + 1))
    done
    [ "$n" -ge 4 ] || fail "rank $rank case: only $n frames before the kill"

    # a temporary PNG of the first missing frame, and a decoy
    local missing planted decoy
    for f in "${frames[@]}"; do [ -e "$f" ] || { missing=$f; break; }; done
    planted=$missing.tmp.0123456789abcdef decoy=$missing.tmp.0123456789abcdeg
    echo partial >"$planted"
    echo unrelated >"$decoy"

    # resume at the same rank count
    t0=$(now)
    "$MPIEXEC" --quiet -n "$NP" "$PVOX" --resume ck.h5 "${ARGS[@]}" 2>resume.txt
    rc=$?
    [ "$rc" = 0 ] || { cat resume.txt; fail "rank $rank case: the resumed run exited $rc"; }
    grep -q 'ckpt: resuming from ck.h5' resume.txt || { cat resume.txt; fail "rank $rank case: no 'resuming from' line"; }
    local sum
    sum=$(h5_checksum ck.h5)
    [ "$sum" = "$ref_sum" ] || fail "rank $rank case: final grid checksum '$sum' after resuming, uninterrupted $ref_sum"
    h5diff ck.h5 ../ref/ck.h5 '/grids/$v' '/grids/$v' >h5diff.txt 2>&1 \
        || { cat h5diff.txt; fail "rank $rank case: the final voxels differ from the uninterrupted run's"; }
    for f in "${frames[@]}"; do
        cmp -s "$f" "../ref/$f" || fail "rank $rank case: $f after resuming differs from the uninterrupted run's (or is missing)"
    done
    [ -e "$decoy" ] || fail "rank $rank case: resuming removed $decoy, not a pvox temporary"
    rm -f "$decoy"
    [ -z "$(temporaries)" ] || fail "rank $rank case: temporary files left after resuming: $(temporaries)"
    echo "rank $rank case: resumed in $(since "$t0") s ($n frames kept, $((ITERS - n)) drawn), exit 0, final grid and all $ITERS frames as uninterrupted"
    cd ..
}

for r in "${RANKS[@]}"; do
    { [ "$r" -ge 0 ] && [ "$r" -lt "$NP" ]; } || fail "rank $r is not one of $NP"
    kill_case "$r"
done
echo "ok: ranks ${RANKS[*]} of $NP killed, no hang, checkpoint intact, resumed as uninterrupted"
