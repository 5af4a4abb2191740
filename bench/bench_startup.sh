#!/usr/bin/env bash
# Whole-process start-up and end (bench/README.md, "Start-up"): the time a job that does
# nothing takes, `pvox -e 'print 1'`, as a singleton and under mpiexec at 1 and 2 ranks,
# with pvox's Open MPI start-up settings (README "Start-up time") and without them
# (PVOX_MPI_TUNE=0), beside gnuplot 5.4 running the same line. Pairs run in turn, A B A B
# ..., and the ratio is taken pair by pair (bench/paired.sh); medians are printed.
#
#   bench/bench_startup.sh [PVOX]          # default build/pvox; REPS pairs (default 9)
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
PVOX=$(realpath "${1:-build/pvox}")
REPS=${REPS:-9}
MPIEXEC=${MPIEXEC:-mpiexec}
[ -x "$PVOX" ] || { echo "bench_startup: $PVOX not built" >&2; exit 1; }
command -v gnuplot >/dev/null || { echo "bench_startup: gnuplot not found" >&2; exit 1; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mpi="$MPIEXEC --oversubscribe --bind-to none"
job="-e 'print 1'"

# row LABEL 'TUNED' 'UNTUNED': one table row from a paired run (B = untuned, A = tuned)
row() {
    local out a b r
    out=$("$here/paired.sh" "$REPS" "$2" "$3")
    a=$(awk '/^A wall/ {print $6}' <<<"$out")
    b=$(awk '/^B wall/ {print $6}' <<<"$out")
    r=$(awk '/^B \/ A/ {print $6}' <<<"$out")
    printf '| %s | %s | %s | %s |\n' "$1" "$a" "$b" "$r"
}

echo "start-up and end of a job that prints one line, median of $REPS pairs (wall s)"
echo
echo "| run | pvox (start-up settings) | pvox, PVOX_MPI_TUNE=0 | ratio |"
echo "|---|---|---|---|"
row "singleton \`pvox\`" "$PVOX $job" "PVOX_MPI_TUNE=0 $PVOX $job"
row "\`mpiexec -n 1 pvox\`" "$mpi -n 1 $PVOX $job" "PVOX_MPI_TUNE=0 $mpi -n 1 $PVOX $job"
row "\`mpiexec -n 2 pvox\`" "$mpi -n 2 $PVOX $job" "PVOX_MPI_TUNE=0 $mpi -n 2 $PVOX $job"
echo
out=$("$here/paired.sh" "$REPS" "$PVOX $job" "gnuplot $job")
printf 'singleton pvox %s s, gnuplot %s s (medians)\n' \
    "$(awk '/^A wall/ {print $6}' <<<"$out")" "$(awk '/^B wall/ {print $6}' <<<"$out")"
