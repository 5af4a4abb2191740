# shellcheck shell=bash disable=SC2154,SC2034 # case_name comes from the sourcing script; its helpers are used there
# Shared by the command-line test scripts of tests/app (cli_test.sh, plan_test.sh):
# sourced after they set case_name, PVOX and MPIEXEC. Makes a scratch directory (removed
# at exit) the current one and defines run/fail/expect_* helpers; `fails` counts failures.
# Open MPI refuses root and more ranks than cores unless told (CI runs as root on 2 cores)
export OMPI_ALLOW_RUN_AS_ROOT=${OMPI_ALLOW_RUN_AS_ROOT:-1}
export OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=${OMPI_ALLOW_RUN_AS_ROOT_CONFIRM:-1}
export OMPI_MCA_rmaps_base_oversubscribe=${OMPI_MCA_rmaps_base_oversubscribe:-1}
# no extra wait before mpirun reaps ranks that exit non-zero (error cases)
export OMPI_MCA_odls_base_sigkill_timeout=${OMPI_MCA_odls_base_sigkill_timeout:-0}
case $PVOX in
/*) ;;
*/*) PVOX=$(realpath "$PVOX") ;; # the checks run in a scratch directory
esac
pv_pngcheck=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/pngcheck.py
work=$(mktemp -d "${TMPDIR:-/tmp}/pvox-app.XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1

fails=0
out=; err=; rc=
# run CMD...: capture stdout, stderr and exit code; 120 s hang guard
run() {
    timeout 120 "$@" >"$work/out" 2>"$work/err" </dev/null
    rc=$?
    out=$(cat "$work/out")
    err=$(cat "$work/err")
}
# run_in INPUT CMD...: the same with INPUT on stdin
run_in() {
    local input=$1
    shift
    printf '%s' "$input" | timeout 120 "$@" >"$work/out" 2>"$work/err"
    rc=$?
    out=$(cat "$work/out")
    err=$(cat "$work/err")
}
fail() {
    echo "FAIL [$case_name]: $*"
    echo "  exit code: $rc"
    echo "  stdout: $(printf '%s' "$out" | head -20)"
    echo "  stderr: $(printf '%s' "$err" | head -20)"
    fails=$((fails + 1))
}
expect_rc() { [ "$rc" = "$1" ] || fail "exit code $rc, expected $1"; }
expect_out() { [ "$out" = "$1" ] || fail "stdout differs; expected: $1"; }
expect_err() { [ "$err" = "$1" ] || fail "stderr differs; expected: $1"; }
expect_err_has() { grep -qF -- "$1" <<<"$err" || fail "stderr lacks: $1"; }
expect_out_has() { grep -qF -- "$1" <<<"$out" || fail "stdout lacks: $1"; }
# count_in TEXT PATTERN: number of lines of TEXT containing PATTERN
count_in() { grep -cF -- "$2" <<<"$1"; }
# mpiexec's --quiet drops its own banner about non-zero exit codes; the rank count follows
mpi_n=("$MPIEXEC" --quiet --oversubscribe -n)
# check_pngs: every PNG file left in the scratch directory must pass tests/pngcheck.py (a
# strict decoder: chunk CRCs, the zlib stream's Adler-32 and end, the exact image bytes)
check_pngs() {
    local pngs bad
    mapfile -t pngs < <(find "$work" -name '*.png' -type f | sort)
    [ "${#pngs[@]}" = 0 ] && return 0
    bad=$(python3 "$pv_pngcheck" "${pngs[@]}") || fail "PNG files a strict decoder refuses: $bad"
}
