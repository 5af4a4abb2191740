#!/usr/bin/env bash
# Golden test for one pvox script (tests/scripts/tests.cmake registers every case):
#   run_case.sh PVOX MPIEXEC NRANKS CASES_DIR NAME
# Runs CASES_DIR/NAME.gp on NRANKS ranks and compares, byte for byte:
#   NAME.out  expected stdout            (missing file = must be empty)
#   NAME.err  expected stderr            (missing file = must be empty)
#   NAME.rc   expected exit code         (missing file = 0)
# Optional inputs:
#   NAME.args command-line options used instead of the default "-q" (one line)
#   NAME.in   fed to standard input (else /dev/null)
# The whole cases folder is copied to a scratch directory and the script runs there as
# "NAME.gp", so diagnostics read "NAME.gp:LINE:COL" and files it writes land in scratch.
# A hang guard (PV_CASE_TIMEOUT seconds, default 120) turns a deadlock into a failure.
# PV_GOLDEN_UPDATE=1 rewrites NAME.out/.err/.rc from this run instead of comparing.
# Every PNG file the run leaves in scratch must also pass tests/pngcheck.py (a strict
# decoder: chunk CRCs, the zlib stream's Adler-32 and end, the exact image bytes).
set -uo pipefail

PVOX=$1 MPIEXEC=$2 NP=$3 CASES=$4 NAME=$5
export OMPI_ALLOW_RUN_AS_ROOT=${OMPI_ALLOW_RUN_AS_ROOT:-1}
export OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=${OMPI_ALLOW_RUN_AS_ROOT_CONFIRM:-1}
export OMPI_MCA_rmaps_base_oversubscribe=${OMPI_MCA_rmaps_base_oversubscribe:-1}
# no extra wait before mpirun reaps ranks that exit non-zero (error cases)
export OMPI_MCA_odls_base_sigkill_timeout=${OMPI_MCA_odls_base_sigkill_timeout:-0}
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-1}

[ -f "$CASES/$NAME.gp" ] || { echo "no such case: $CASES/$NAME.gp"; exit 1; }
PNGCHECK=$(realpath "$(dirname "${BASH_SOURCE[0]}")/../pngcheck.py")
# the run happens in a scratch directory: make relative paths absolute first
CASES=$(realpath "$CASES")
case $PVOX in
/*) ;;
*/*) PVOX=$(realpath "$PVOX") ;;
esac
work=$(mktemp -d "${TMPDIR:-/tmp}/pvox-golden.XXXXXX")
trap 'rm -rf "$work"' EXIT
cp -R "$CASES/." "$work/"
cd "$work" || exit 1

args=(-q)
if [ -f "$NAME.args" ]; then
    read -r -a args <"$NAME.args" || true
fi
input=/dev/null
[ -f "$NAME.in" ] && input="$NAME.in"

# --quiet: Open MPI's own banner about non-zero exit codes would otherwise land in stderr
timeout -k 10 "${PV_CASE_TIMEOUT:-120}" \
    "$MPIEXEC" --quiet --oversubscribe -n "$NP" "$PVOX" "${args[@]}" "$NAME.gp" \
    <"$input" >"$work/.stdout" 2>"$work/.stderr"
rc=$?
# Open MPI 4.1's libevent sometimes reports a closed descriptor while mpirun tears down a
# job whose ranks exited non-zero ("[warn] Epoll MOD(1) on fd 26 failed ..."): that line is
# mpirun's, not pvox's, and comes and goes with machine load.
sed -i '/^\[warn\] Epoll [A-Z]*([0-9]*) on fd [0-9]* failed/d' "$work/.stderr"
if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
    echo "FAIL $NAME (np=$NP): timed out after ${PV_CASE_TIMEOUT:-120} s (hang?)"
    cat "$work/.stderr"
    exit 1
fi

if [ "${PV_GOLDEN_UPDATE:-0}" = 1 ]; then
    cp "$work/.stdout" "$CASES/$NAME.out"
    cp "$work/.stderr" "$CASES/$NAME.err"
    echo "$rc" >"$CASES/$NAME.rc"
    echo "updated $NAME (rc=$rc)"
    exit 0
fi

want_rc=0
[ -f "$CASES/$NAME.rc" ] && want_rc=$(tr -d ' \n' <"$CASES/$NAME.rc")
status=0
if [ "$rc" != "$want_rc" ]; then
    echo "FAIL $NAME (np=$NP): exit code $rc, expected $want_rc"
    status=1
fi
for stream in out err; do
    want="$CASES/$NAME.$stream"
    [ -f "$want" ] || want=/dev/null
    if ! cmp -s "$want" "$work/.std$stream"; then
        echo "FAIL $NAME (np=$NP): std$stream differs (--- expected, +++ got):"
        diff -u "$want" "$work/.std$stream" | head -60
        status=1
    fi
done
mapfile -t pngs < <(find . -name '*.png' -type f | sort)
if [ "${#pngs[@]}" -gt 0 ] && ! bad=$(python3 "$PNGCHECK" "${pngs[@]}"); then
    echo "FAIL $NAME (np=$NP): PNG files a strict decoder refuses:"
    echo "$bad"
    status=1
fi
[ "$status" = 0 ] && echo "ok $NAME (np=$NP)"
exit "$status"
