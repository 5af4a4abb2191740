#!/usr/bin/env bash
# Fill benchmark: gnuplot 5.4 and pvox run the same vfill script side by side; prints the
# per-core voxel-update rate of each and their ratio (target: pvox >= 250x gnuplot per core).
#
#   bench/bench_fill.sh [PVOX] [N_GNUPLOT] [N_PVOX]
#
# PVOX defaults to build/pvox. gnuplot runs at N_GNUPLOT^3 (default 128; it cannot go past
# 256), pvox at N_PVOX^3 (default 512) with 1 rank and 1 thread (per-core rate), then with
# 1 rank x 2 threads. Each expression is timed 3 times; the median is reported.
set -euo pipefail
PVOX=${1:-build/pvox}
NG=${2:-128}
NP=${3:-512}
REPS=${REPS:-3}
command -v gnuplot >/dev/null || { echo "bench_fill: gnuplot not found (apt-get install gnuplot-nox)" >&2; exit 1; }
[ -x "$PVOX" ] || { echo "bench_fill: $PVOX not built" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# name | sources datablock | radius | value expression
cases=(
"dipole|0 0 0.75 1;0 0 0.25 -1|2|\$4*pot(VoxelDistance)"
"gauss|0.3 0.4 0.5 1;0.7 0.6 0.5 2|2|\$4*exp(-VoxelDistance**2/0.02)"
"lorentz|0.5 0.5 0.5 3;0.2 0.8 0.1 -1|2|\$4/(1+VoxelDistance**2)"
)

script() { # n sources radius expr
    local n=$1 src=$2 r=$3 expr=$4
    printf 'set xrange [0:1]; set yrange [0:1]; set zrange [0:1]\n'
    printf 'pot(r) = r > 0 ? 1/r : 10**6\n'
    printf '$src << EOD\n%s\nEOD\n' "$(echo "$src" | tr ';' '\n')"
    printf 'set vgrid $v size %d\n' "$n"
    printf 'set vxrange [0:1]; set vyrange [0:1]; set vzrange [0:1]\n'
    printf 'vfill $src using 1:2:3:(%s):(%s)\n' "$r" "$expr"
}
nsrc() { echo "$1" | tr ';' '\n' | wc -l; }

calc() { awk "BEGIN { printf \"%.9f\", $* }"; }

median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

timeit() { # command... ; prints seconds
    local t0 t1
    t0=$(date +%s.%N)
    "$@" >/dev/null 2>&1
    t1=$(date +%s.%N)
    calc "$t1 - $t0"
}

# Time of the script with the vfill line removed (startup + allocation), subtracted.
overhead() { grep -v '^vfill' "$1" > "$1.base"; timeit "${@:2}" "$1.base"; }

export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
printf '%-8s %14s %14s %14s %10s %10s\n' case "gnuplot M/s" "pvox 1c M/s" "pvox 2c M/s" ratio/core target
for c in "${cases[@]}"; do
    IFS='|' read -r name src r expr <<<"$c"
    ns=$(nsrc "$src")
    script "$NG" "$src" "$r" "$expr" > "$tmp/g.gp"
    script "$NP" "$src" "$r" "$expr" > "$tmp/p.gp"
    gt=(); p1=(); p2=()
    gbase=$(overhead "$tmp/g.gp" gnuplot)
    for i in $(seq "$REPS"); do
        t=$(timeit gnuplot "$tmp/g.gp"); gt+=("$(calc "$t - $gbase")")
    done
    pbase=$(overhead "$tmp/p.gp" "$PVOX" -q --threads 1)
    for i in $(seq "$REPS"); do
        t=$(timeit "$PVOX" -q --threads 1 "$tmp/p.gp"); p1+=("$(calc "$t - $pbase")")
        t=$(timeit "$PVOX" -q --threads 2 "$tmp/p.gp"); p2+=("$(calc "$t - $pbase")")
    done
    g=$(printf '%s\n' "${gt[@]}" | median)
    a=$(printf '%s\n' "${p1[@]}" | median)
    b=$(printf '%s\n' "${p2[@]}" | median)
    gr=$(calc "$NG^3 * $ns / $g / 1000000")
    ar=$(calc "$NP^3 * $ns / $a / 1000000")
    br=$(calc "$NP^3 * $ns / $b / 1000000")
    printf '%-8s %14.2f %14.1f %14.1f %9.0fx %10s\n' "$name" "$gr" "$ar" "$br" \
        "$(calc "$ar / $gr")" ">=250x"
done
echo "gnuplot at ${NG}^3, pvox at ${NP}^3 (1 rank); rates are voxel updates per second"

# ---- 1024^3 (BIG=1): the article's dipole on a grid gnuplot cannot hold -------------------
# Every voxel receives both charges (radius 2 on [0:1]^3): 2 x 1024^3 updates into a 4 GiB
# grid. Runs 1 rank x 2 threads and 2 ranks x 1 thread; prints the fill time and rate from
# pvox's own log (-v) and the peak resident memory of rank 0 (from /proc, via -vv).
if [ "${BIG:-0}" = 1 ]; then
    N=${BIG_N:-1024}
    script "$N" "0 0 0.75 1;0 0 0.25 -1" 2 '$4*pot(VoxelDistance)' > "$tmp/big.gp"
    echo "print voxel(0.5,0.5,0.5)" >> "$tmp/big.gp"
    for layout in "1 2" "2 1"; do
        read -r np nt <<<"$layout"
        t0=$(date +%s.%N)
        out=$(OMP_NUM_THREADS=$nt mpiexec --oversubscribe -n "$np" "$PVOX" -vv --threads "$nt" "$tmp/big.gp" 2>&1)
        t1=$(date +%s.%N)
        rate=$(echo "$out" | sed -n 's/.*vfill: .* in \([0-9.]*\) s (\([0-9.]*\) M\/s.*/\1 s, \2 M updates\/s/p')
        peak=$(echo "$out" | sed -n 's/.*peak tracked memory \([0-9]*\) bytes.*/\1/p' | head -1)
        printf 'big %d^3: %d rank(s) x %d thread(s): fill %s; whole job %.1f s; grid memory on rank 0 %.2f GiB\n' \
            "$N" "$np" "$nt" "$rate" "$(calc "$t1 - $t0")" "$(calc "${peak:-0} / 1073741824")"
    done
fi
