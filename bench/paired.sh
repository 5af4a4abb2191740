#!/usr/bin/env bash
# Paired whole-process timing, the cross-check of bench_iso.sh's "whole" figures
# (bench/README.md, "Isosurfaces"): two shell commands run in turn, A B A B ..., after one
# warm-up run each; each run's wall seconds and peak resident memory come from
# /usr/bin/time. Prints min / median / max of both and the median of the pairwise ratios
# B / A (pairing keeps the ratio meaningful while the shared machine's speed drifts).
#
#   bench/paired.sh RUNS 'COMMAND_A' 'COMMAND_B'
#   bench/paired.sh 5 'mpiexec -n 2 --bind-to none build/pvox -q bench/iso_5.gp -o /tmp/p' \
#                     'gnuplot bench/iso_5.gp'
#
# Commands run through sh -c from the current directory; their output goes to /dev/null.
# Exit 1 if a run fails.
set -uo pipefail
RUNS=${1:?usage: paired.sh RUNS 'COMMAND_A' 'COMMAND_B'}
A=${2:?usage: paired.sh RUNS 'COMMAND_A' 'COMMAND_B'}
B=${3:?usage: paired.sh RUNS 'COMMAND_A' 'COMMAND_B'}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

one() { # COMMAND: prints "seconds KiB"
    /usr/bin/time -f '%e %M' -o "$tmp/t" sh -c "$1" >/dev/null 2>"$tmp/err" ||
        { echo "paired: failed: $1" >&2; tail -5 "$tmp/err" >&2; exit 1; }
    tail -1 "$tmp/t"
}
stats() { sort -g | awk '{v[NR] = $1} END {m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
                                      printf "%s / %s / %s", v[1], m, v[NR]}'; }

one "$A" >/dev/null
one "$B" >/dev/null
: >"$tmp/a"; : >"$tmp/b"; : >"$tmp/r"
for ((i = 0; i < RUNS; i++)); do
    read -r sa ka <<<"$(one "$A")"
    read -r sb kb <<<"$(one "$B")"
    echo "$sa $ka" >>"$tmp/a"
    echo "$sb $kb" >>"$tmp/b"
    awk -v a="$sa" -v b="$sb" 'BEGIN { printf "%.3f\n", (a > 0) ? b / a : 0 }' >>"$tmp/r"
done
echo "paired: $RUNS pairs after one warm-up each; min / median / max"
echo "A wall s     $(cut -d' ' -f1 "$tmp/a" | stats)    peak KiB $(cut -d' ' -f2 "$tmp/a" | stats)"
echo "B wall s     $(cut -d' ' -f1 "$tmp/b" | stats)    peak KiB $(cut -d' ' -f2 "$tmp/b" | stats)"
echo "B / A        $(stats <"$tmp/r")"
