#!/usr/bin/env bash
# --checkpoint with many grids (bench/README.md, "Checkpoints of many grids"): a job that
# makes N small grids one by one (set vgrid, vclear: two grid changes each) run whole
# with --checkpoint, once saving after every change (--checkpoint-every 0) and once with
# the default interval (auto: a save is due once the run has gone on ten times as long
# as the last save took); also one vsave and one vload of the N grids. Prints the whole
# process's wall seconds (median of REPS) and how many saves the run made.
#
#   bench/bench_ckpt_grids.sh [PVOX]     # NS="200 400 800 3000" REPS=3; every=0 stops
#                                        # past EVERY0_MAX grids (default 800)
set -euo pipefail
PVOX=$(realpath "${1:-build/pvox}")
NS=${NS:-200 400 800 3000} REPS=${REPS:-3} EVERY0_MAX=${EVERY0_MAX:-800}
work=$(mktemp -d "${TMPDIR:-/tmp}/pvox-ckgrids.XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work"
cat >job.gp <<'END'
do for [i=1:N] {
    name = sprintf("$g%d", i)
    set vgrid @name size 4
    vclear @name
}
END
# median LIST...: the middle value
median() { printf '%s\n' "$@" | sort -g | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
# timed ARGS...: wall seconds of one whole pvox run (its -v log in run.log)
timed() {
    local t0 t1
    t0=$(date +%s.%N)
    "$PVOX" -v "$@" 2>run.log >/dev/null
    t1=$(date +%s.%N)
    awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.3f", b - a}'
}
printf '| grids | every change: s (saves) | auto: s (saves) | vsave s | vload s |\n'
printf '|---|---|---|---|---|\n'
for n in $NS; do
    row="| $n |"
    for every in 0 auto; do
        if [ "$every" = 0 ] && [ "$n" -gt "$EVERY0_MAX" ]; then row="$row skipped |"; continue; fi
        ts=()
        for _ in $(seq "$REPS"); do
            rm -f ck.h5 ck.xmf
            ts+=("$(timed --checkpoint ck.h5 --checkpoint-every "$every" -e "N=$n" job.gp)")
        done
        row="$row $(median "${ts[@]}") ($(grep -c 'checkpoint ck.h5:' run.log)) |"
    done
    ts=() tl=()
    for _ in $(seq "$REPS"); do
        rm -f many.h5 many.xmf
        ts+=("$(timed -e "N=$n" -e 'load "job.gp"; vsave "many.h5"')")
        tl+=("$(timed -e 'vload "many.h5"')")
    done
    printf '%s %s | %s |\n' "$row" "$(median "${ts[@]}")" "$(median "${tl[@]}")"
done
