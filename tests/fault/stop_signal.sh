#!/usr/bin/env bash
# SIGUSR1 / SIGTERM stop a job early and resumably (README "Stopping a job early"): every
# rank must exit 75 at the next safe point, leave an intact checkpoint and no temporary
# file, and a second run with --resume-if-exists must finish the job with the grid and
# frames of an uninterrupted run.
#   stop_signal.sh PVOX MPIEXEC NP
# The job is kill_job.gp (a 64³ grid changed by a vfill and drawn as a 480x360 frame in
# each of 24 iterations), run as `pvox --checkpoint ck.h5 --checkpoint-every 3600
# --resume-if-exists` (so the only save of the interrupted run is the one the signal
# asks for), each rank through a wrapper that records its own exit status. Cases:
#   usr1_one   SIGUSR1 to rank 1 only, once f03.png exists
#   term_all   SIGTERM to every rank (as scancel does), once f05.png exists
#   usr1_nock  SIGUSR1 to rank 0 of a run without --checkpoint: still 75, says so
#   repeat     (1 rank, no safe point for 8 s) a second signal within 2 s is ignored, a
#              third 3 s after the first kills pvox (128 + SIGUSR1)
# For each: every rank exits 75 within 60 s (a hang bound, the time is printed); rank 0
# printed "stopped early"; the checkpoint loads (vload checks its checksum) and holds
# fewer grid changes than the whole job; every frame written is byte for byte the
# uninterrupted run's; no "*.tmp.*" file is left; then the same command again resumes
# ("resuming from ck.h5"), exits 0 on every rank, and the final grid (checksum
# attribute and h5diff of a vsave at the end) and all 24 frames equal the uninterrupted run's.
# Exit 0 pass, 1 fail, 77 skip (h5dump, h5diff or pgrep missing; a failure under CI=true).
# PV_KEEP=1 keeps the working directory.
set -uo pipefail
PVOX=$(realpath "$1") MPIEXEC=$2 NP=$3
here=$(cd "$(dirname "$0")" && pwd)
export OMPI_ALLOW_RUN_AS_ROOT=${OMPI_ALLOW_RUN_AS_ROOT:-1}
export OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=${OMPI_ALLOW_RUN_AS_ROOT_CONFIRM:-1}
export OMPI_MCA_rmaps_base_oversubscribe=1
HANG_S=60
ITERS=24
STOPPED=75

# shellcheck source=tests/fault/run_lib.sh
. "$here/run_lib.sh"
fault_need_tools h5dump h5diff pgrep

fault_scratch pvox-stop

# the final grid goes to final.h5: with --checkpoint-every the checkpoint may hold an
# earlier one at the end of a run
{ cat "$here/kill_job.gp"; echo 'vsave "final.h5"'; } >job.gp
# each rank's exit status in rc.<rank> (mpiexec reports only one). Once a rank exits
# non-zero, mpiexec terminates the other processes, which may be wrappers still writing
# their file: with orte_abort_on_non_zero_status=0 every rank ends by itself (then
# mpiexec exits 0), the first two cases; the last keeps mpiexec's default and checks
# its exit status.
cat >rank.sh <<'EOF'
"$@"
rc=$?
echo "$rc" >"rc.$OMPI_COMM_WORLD_RANK"
exit "$rc"
EOF
frames=()
for ((i = 0; i < ITERS; i++)); do frames+=("$(printf 'f%02d.png' "$i")"); done
h5_checksum() {
    # shellcheck disable=SC2016  # the dataset is literally named $v
    h5dump -a '/grids/$v/checksum' "$1" 2>/dev/null | sed -n 's/^ *(0): *\([0-9]*\).*/\1/p' | head -n 1
}
temporaries() { compgen -G '*.tmp.*' | tr '\n' ' '; }
all_ranks_exited() {   # status -> 0 if rc.0 .. rc.NP-1 all hold it
    local r
    for ((r = 0; r < NP; r++)); do
        [ "$(cat "rc.$r" 2>/dev/null)" = "$1" ] || { echo "rank $r exited '$(cat "rc.$r" 2>/dev/null)'"; return 1; }
    done
}
run() {   # pvox args... (in the foreground)
    rm -f rc.*
    OMPI_MCA_orte_abort_on_non_zero_status=0 "$MPIEXEC" --quiet -n "$NP" bash ../rank.sh "$PVOX" "$@"
}

# ---------------------------------------------------------------- uninterrupted run
mkdir ref
t0=$(now)
(cd ref && cp ../job.gp . && run -v --checkpoint ck.h5 job.gp 2>log.txt)
rc=$?
[ "$rc" = 0 ] || { cat ref/log.txt; fail "the uninterrupted run exited $rc"; }
for f in "${frames[@]}"; do [ -s "ref/$f" ] || fail "the uninterrupted run wrote no $f"; done
# the frames decode strictly (tests/pngcheck.py); the runs below must equal them byte for byte
(cd ref && python3 "$here/../pngcheck.py" "${frames[@]}") || fail "the uninterrupted run wrote PNG files a strict decoder refuses"
ref_sum=$(h5_checksum ref/final.h5)
[ -n "$ref_sum" ] || fail "the uninterrupted run's final.h5 has no checksum attribute"
echo "uninterrupted run: $NP ranks, $(since "$t0") s, final grid checksum $ref_sum"

# ---------------------------------------------------------------- one stop
stop_case() {   # name signal rank|all after-frame with-checkpoint(0/1) abort(0/1)
    local name=$1 sig=$2 who=$3 after=$4 ck=$5 abort=$6 pids=() targets=() w p r t0 waited rc n args
    { mkdir "$name" && cp job.gp "$name/" && cd "$name"; } || fail "cannot set up $name"
    args=(-v)
    [ "$ck" = 1 ] && args+=(--checkpoint ck.h5 --checkpoint-every 3600 --resume-if-exists)
    args+=(job.gp)
    rm -f rc.*
    OMPI_MCA_orte_abort_on_non_zero_status=$abort \
        "$MPIEXEC" --quiet -n "$NP" bash ../rank.sh "$PVOX" "${args[@]}" 2>log.txt &
    MP=$!
    # the pvox processes (children of the wrappers that mpiexec started), found before
    # the signal is due so that it comes right after that frame
    t0=$(now)
    while :; do
        pids=() targets=()
        for w in $(pgrep -P "$MP"); do
            for p in $(pgrep -P "$w"); do
                [ "$(cat "/proc/$p/comm" 2>/dev/null)" = pvox ] || continue
                r=$(tr '\0' '\n' <"/proc/$p/environ" 2>/dev/null | sed -n 's/^OMPI_COMM_WORLD_RANK=//p')
                pids+=("$p")
                { [ "$who" = all ] || [ "$r" = "$who" ]; } && targets+=("$p")
            done
        done
        [ "${#pids[@]}" = "$NP" ] && break
        kill -0 "$MP" 2>/dev/null || { cat log.txt; fail "$name: the job ended before its $NP pvox processes were seen"; }
        [ "$(since "$t0" | cut -d. -f1)" -lt 300 ] || fail "$name: found ${#pids[@]} pvox processes under mpiexec $MP after 300 s, expected $NP"
        sleep 0.02
    done
    [ "${#targets[@]}" -gt 0 ] || fail "$name: no pvox process of rank $who"
    while [ ! -e "$after" ]; do
        kill -0 "$MP" 2>/dev/null || { cat log.txt; fail "$name: the job ended before $after"; }
        [ "$(since "$t0" | cut -d. -f1)" -lt 300 ] || fail "$name: no $after after 300 s"
        sleep 0.01
    done
    kill "-$sig" "${targets[@]}"
    t0=$(now)
    while kill -0 "$MP" 2>/dev/null; do
        if [ "$(since "$t0" | cut -d. -f1)" -ge "$HANG_S" ]; then
            tail -n 20 log.txt
            fail "$name: still running $HANG_S s after $sig (hang)"
        fi
        sleep 0.05
    done
    waited=$(since "$t0")
    wait "$MP"
    rc=$?
    MP=
    n=$(compgen -G 'f*.png' | wc -l)
    if [ "$abort" = 1 ]; then
        [ "$rc" = "$STOPPED" ] || { grep -v '^vfill\|^	' log.txt; fail "$name: mpiexec exited $rc after $sig, expected $STOPPED"; }
        for f in rc.*; do   # the ranks mpiexec did not end first
            # (a wrapper that mpiexec ended while it wrote its file leaves it empty)
            [ -s "$f" ] || continue
            [ "$(cat "$f")" = "$STOPPED" ] || fail "$name: $f holds $(cat "$f"), expected $STOPPED"
        done
    else
        all_ranks_exited "$STOPPED" || { grep -v '^vfill\|^	' log.txt; fail "$name: not every rank exited $STOPPED"; }
    fi
    grep -q "^pvox: SIG$sig: stopped early" log.txt || { cat log.txt; fail "$name: no 'pvox: SIG$sig: stopped early' message"; }
    echo "$name: $sig to rank $who after $after: every rank exited $STOPPED in $waited s, $n frames written; $(grep "^pvox: SIG$sig" log.txt)"
    [ -z "$(temporaries)" ] || fail "$name: temporary files left: $(temporaries)"
    [ "$n" -lt "$ITERS" ] || fail "$name: the job ran to its end ($n frames): the signal did not stop it"
    for f in "${frames[@]}"; do
        [ -e "$f" ] || continue
        cmp -s "$f" "../ref/$f" || fail "$name: $f of the stopped run differs from the uninterrupted run's"
    done
    if [ "$ck" != 1 ]; then
        grep -q 'no checkpoint (no --checkpoint given)' log.txt || fail "$name: the message does not say that no checkpoint was saved"
        cd ..
        return
    fi
    h5dump -H ck.h5 >/dev/null 2>&1 || fail "$name: h5dump cannot read ck.h5"
    "$PVOX" -v -e 'vload "ck.h5"' 2>vload.txt || { cat vload.txt; fail "$name: vload of ck.h5 failed"; }
    # shellcheck disable=SC2016  # the grid is literally named $v
    grep -q 'grid: \$v checksum' vload.txt || { cat vload.txt; fail "$name: vload logged no checksum"; }
    [ "$(h5_checksum ck.h5)" != "$ref_sum" ] || fail "$name: the checkpoint already holds the final grid"

    # the same command again: it resumes and finishes
    t0=$(now)
    run "${args[@]}" 2>resume.txt
    rc=$?
    [ "$rc" = 0 ] || { cat resume.txt; fail "$name: the resumed run exited $rc"; }
    all_ranks_exited 0 || fail "$name: not every rank of the resumed run exited 0"
    grep -q 'ckpt: resuming from ck.h5' resume.txt || { cat resume.txt; fail "$name: no 'resuming from' line"; }
    [ "$(h5_checksum final.h5)" = "$ref_sum" ] || fail "$name: final grid checksum '$(h5_checksum final.h5)' after resuming, uninterrupted $ref_sum"
    # shellcheck disable=SC2016
    h5diff final.h5 ../ref/final.h5 '/grids/$v' '/grids/$v' >h5diff.txt 2>&1 \
        || { cat h5diff.txt; fail "$name: the final voxels differ from the uninterrupted run's"; }
    for f in "${frames[@]}"; do
        cmp -s "$f" "../ref/$f" || fail "$name: $f after resuming differs from the uninterrupted run's (or is missing)"
    done
    [ -z "$(temporaries)" ] || fail "$name: temporary files left after resuming: $(temporaries)"
    echo "$name: resumed in $(since "$t0") s, exit 0 on every rank, final grid and all $ITERS frames as uninterrupted"
    cd ..
}

# A repeat of the signal within 2 s is the same request (Slurm may deliver one twice); a
# repeat after that kills at once, as without the handler. One rank, busy in a shell
# command (no safe point) for 8 s.
repeat_case() {
    local p rc t
    printf 'x = system("sleep 8")\nprint "not reached"\n' >busy.gp
    "$PVOX" busy.gp >/dev/null 2>busy.txt &
    p=$!
    # until pvox catches SIGUSR1 (bit 9 of SigCgt): before that the signal would kill it
    t=$(now)
    until (( 16#$(sed -n 's/^SigCgt:[[:space:]]*//p' "/proc/$p/status" 2>/dev/null || echo 0) & 0x200 )); do
        kill -0 "$p" 2>/dev/null || fail "repeat: pvox ended before it caught SIGUSR1"
        [ "$(since "$t" | cut -d. -f1)" -lt 60 ] || fail "repeat: pvox catches no SIGUSR1 after 60 s"
        sleep 0.05
    done
    t=$(now)
    kill -USR1 "$p"
    sleep 0.3
    kill -TERM "$p"
    sleep 0.3
    kill -0 "$p" 2>/dev/null || fail "repeat: pvox ended on a second signal $(since "$t") s after the first"
    sleep 2.5
    kill -USR1 "$p"
    wait "$p"
    rc=$?
    [ "$rc" = $((128 + $(kill -l USR1))) ] || { cat busy.txt; fail "repeat: pvox exited $rc on a repeat $(since "$t") s after the first signal, expected death by SIGUSR1"; }
    echo "repeat: a second signal 0.3 s after the first was ignored, a third 3 s after killed pvox (exit $rc)"
}

repeat_case
stop_case usr1_one USR1 1 f03.png 1 0
stop_case term_all TERM all f05.png 1 0
stop_case usr1_nock USR1 0 f03.png 0 1
echo "ok: SIGUSR1/SIGTERM stop every rank with $STOPPED and a usable checkpoint; resumed as uninterrupted"
