#!/usr/bin/env bash
# Fill benchmark: gnuplot 5.4 and pvox run the same vfill script side by side; prints the
# per-core voxel-update rate of each and their ratio (target: pvox >= 250x gnuplot per core,
# about 300 M updates/s/core).
#
#   bench/bench_fill.sh [PVOX] [N_GNUPLOT] [N_PVOX]
#   BIG=1 bench/bench_fill.sh          also the 1024^3 dipole (4 GiB grid)
#
# PVOX defaults to build/pvox. gnuplot runs at N_GNUPLOT^3 (default 128; it cannot go past
# 256), pvox at N_PVOX^3 (default 512). Every case puts 2 sources with radius 2 on [0:1]^3,
# so every voxel receives both: 2 N^3 updates.
#   gnuplot: wall time of the script minus the same script without its vfill line (startup),
#            best of GREPS runs (default 3);
#   pvox:    the fill time pvox logs itself (-v: "vfill: U voxel updates in T s"), best of
#            REPS runs (default 5), at 1 rank x 1 thread (the per-core rate) and 1 rank x 2
#            threads. The grid checksums at 1 and 2 threads must agree (bit-identical fill).
# Best-of rather than median: the machine is shared and slow runs are other agents' load.
# BIG=1: the article's dipole at BIG_N^3 (default 1024) at 1 rank x 2 threads and 2 ranks x
# 1 thread: fill time and rate, whole-job time, tracked peak memory on rank 0. mpiexec runs
# with --bind-to none: Open MPI binds each rank to one core by default, which would put both
# threads of a 1-rank run on the same core.
set -euo pipefail
PVOX=${1:-build/pvox}
NG=${2:-128}
NP=${3:-512}
REPS=${REPS:-5}
GREPS=${GREPS:-3}
command -v gnuplot >/dev/null || { echo "bench_fill: gnuplot not found (apt-get install gnuplot-nox)" >&2; exit 1; }
[ -x "$PVOX" ] || { echo "bench_fill: $PVOX not built" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

# name | sources (x y z charge; ...) | value expression
cases=(
"dipole|0 0 0.75 1;0 0 0.25 -1|\$4*pot(VoxelDistance)"
"gauss|0.3 0.4 0.5 1;0.7 0.6 0.5 2|\$4*exp(-VoxelDistance**2/0.02)"
"lorentz|0.5 0.5 0.5 3;0.2 0.8 0.1 -1|\$4/(1+VoxelDistance**2)"
)

script() { # n sources expr
    local n=$1 src=$2 expr=$3
    printf 'set xrange [0:1]; set yrange [0:1]; set zrange [0:1]\n'
    printf 'pot(r) = r > 0 ? 1/r : 10**6\n'
    printf '$src << EOD\n%s\nEOD\n' "$(echo "$src" | tr ';' '\n')"
    printf 'set vgrid $v size %d\n' "$n"
    printf 'set vxrange [0:1]; set vyrange [0:1]; set vzrange [0:1]\n'
    printf 'vfill $src using 1:2:3:(2):(%s)\n' "$expr"
}

calc() { awk "BEGIN { printf \"%.9f\", $* }"; }
best_min() { sort -g | head -1; }
best_max() { sort -g | tail -1; }

walltime() { # command... ; prints seconds
    local t0 t1
    t0=$(date +%s.%N)
    "$@" >/dev/null 2>&1
    t1=$(date +%s.%N)
    calc "$t1 - $t0"
}

# pvox_fill THREADS SCRIPT: prints "rate checksum" from pvox's own log
pvox_fill() {
    local out
    out=$("$PVOX" -v --threads "$1" "$2" 2>&1) || fail "pvox failed on $2" "$out"
    echo "$(rate_of "$out") $(checksum_of "$out")"
}
fail() { echo "bench_fill: $1:" >&2; echo "$2" >&2; exit 1; }
rate_of() { echo "$1" | sed -n 's/.*vfill: .* (\([0-9.]*\) M\/s.*/\1/p'; }
secs_of() { echo "$1" | sed -n 's/.*vfill: .* in \([0-9.]*\) s (.*/\1/p'; }
checksum_of() { echo "$1" | sed -n 's/.*checksum \([0-9a-f]*\).*/\1/p'; }
peak_of() { echo "$1" | sed -n 's/.*peak tracked memory \([0-9]*\) bytes.*/\1/p' | head -1; }

row='%-8s %12s %12s %12s %11s %8s %s\n'
printf "$row" case gnuplot "pvox 1 thr" "pvox 2 thr" ratio/core target identical
printf "$row" "" "M upd/s" "M upd/s" "M upd/s" "" "" "1 vs 2 thr"
for c in "${cases[@]}"; do
    IFS='|' read -r name src expr <<<"$c"
    script "$NG" "$src" "$expr" > "$tmp/g.gp"
    script "$NP" "$src" "$expr" > "$tmp/p.gp"
    grep -v '^vfill' "$tmp/g.gp" > "$tmp/g0.gp"
    g0=(); g1=(); p1=(); p2=(); sums=()
    for _ in $(seq "$GREPS"); do
        g0+=("$(walltime gnuplot "$tmp/g0.gp")")
        g1+=("$(walltime gnuplot "$tmp/g.gp")")
    done
    for _ in $(seq "$REPS"); do
        read -r r s <<<"$(pvox_fill 1 "$tmp/p.gp")"; p1+=("$r"); sums+=("$s")
        read -r r s <<<"$(pvox_fill 2 "$tmp/p.gp")"; p2+=("$r"); sums+=("$s")
    done
    gsec=$(calc "$(printf '%s\n' "${g1[@]}" | best_min) - $(printf '%s\n' "${g0[@]}" | best_min)")
    gr=$(calc "2 * $NG^3 / $gsec / 1000000")
    a=$(printf '%s\n' "${p1[@]}" | best_max)
    b=$(printf '%s\n' "${p2[@]}" | best_max)
    same=yes
    [ "$(printf '%s\n' "${sums[@]}" | sort -u | wc -l)" = 1 ] || same=NO
    printf '%-8s %12.2f %12.1f %12.1f %10.0fx %8s %s\n' "$name" "$gr" "$a" "$b" \
        "$(calc "$a / $gr")" ">=250x" "$same"
done
echo "gnuplot at ${NG}^3 (best of $GREPS), pvox at ${NP}^3 (1 rank, best of $REPS);" \
    "2 sources, every voxel updated by both"

# ---- BIG=1: the article's dipole on a grid gnuplot cannot hold -------------------------
if [ "${BIG:-0}" = 1 ]; then
    N=${BIG_N:-1024}
    script "$N" "0 0 0.75 1;0 0 0.25 -1" '$4*pot(VoxelDistance)' > "$tmp/big.gp"
    echo "print voxel(0.5,0.5,0.5)" >> "$tmp/big.gp"
    big='%-22s %10s %12s %10s %12s %s\n'
    printf "\n$big" "${N}^3 dipole" "fill s" "M upd/s" "job s" "rank-0 GiB" checksum
    for layout in "1 2" "2 1"; do
        read -r np nt <<<"$layout"
        best=""
        for _ in $(seq "${BIG_REPS:-2}"); do
            t0=$(date +%s.%N)
            out=$(OMP_NUM_THREADS=$nt mpiexec --bind-to none --oversubscribe -n "$np" \
                "$PVOX" -vv --threads "$nt" "$tmp/big.gp" 2>&1) || fail "pvox failed at ${N}^3" "$out"
            t1=$(date +%s.%N)
            secs=$(secs_of "$out")
            if [ -z "$best" ] || awk "BEGIN { exit !($secs < $best) }"; then
                best=$secs
                line=$(printf "$big" "$np rank(s) x $nt thr" "$secs" "$(rate_of "$out")" \
                    "$(calc "$t1 - $t0" | cut -c1-5)" "$(calc "$(peak_of "$out") / 1073741824" |
                    cut -c1-4)" "$(checksum_of "$out")")
            fi
        done
        echo "$line"
    done
    echo "best of ${BIG_REPS:-2} runs each; job s = whole mpiexec run (allocation, fill, checksum)"
fi
