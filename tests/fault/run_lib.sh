#!/usr/bin/env bash
# Shared by the fault scripts that run whole jobs under mpiexec (kill_rank.sh,
# stop_signal.sh); sourced, not run.
#   fault_need_tools CMD...   skip (77) when one is missing, fail under CI=true
#   fault_scratch PREFIX      a scratch directory (the cwd from then on) removed at exit
#                             with the mpiexec in $MP and its children (PV_KEEP=1 keeps it)
#   fail MSG, now, since T0   fail the test; the time; seconds since T0 (2 decimals)

fault_need_tools() {
    local cmd
    for cmd in "$@"; do
        if ! command -v "$cmd" >/dev/null 2>&1; then
            [ "${CI:-}" = true ] && { echo "FAIL (CI): '$cmd' not found (hdf5-tools, procps)"; exit 1; }
            echo "SKIP: '$cmd' not found"
            exit 77
        fi
    done
}

MP=   # the mpiexec running in the background, if any
fault_cleanup() {
    if [ -n "$MP" ] && kill -0 "$MP" 2>/dev/null; then
        # shellcheck disable=SC2046  # one PID per word
        kill -9 $(pgrep -P "$MP") "$MP" 2>/dev/null
    fi
    if [ -n "${PV_KEEP:-}" ]; then echo "kept $work"; else rm -rf "$work"; fi
}

fault_scratch() {
    work=$(mktemp -d "${TMPDIR:-/tmp}/$1.XXXXXX")
    trap fault_cleanup EXIT
    cd "$work" || exit 1
}

fail() { echo "FAIL: $*"; exit 1; }
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.2f", b - a }'; }
