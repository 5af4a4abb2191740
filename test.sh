#!/usr/bin/env bash
# Install what is missing (Debian 12), build pvox and its tests, run the whole suite.
#
#   ./test.sh                    everything (ctest -j2)
#   ./test.sh -L core            extra arguments go to ctest (here: only the core label)
#
# Under CI=true warnings are errors and a skipped test counts as a failure.
# Environment: PVOX_BUILD build directory (default ./build, or ./build-asan with
# PVOX_SANITIZE=1, which builds Debug with AddressSanitizer and UBSan).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=tools/common.sh
. "$here/tools/common.sh"

cmake_args=(-DPV_BUILD_TESTS=ON)
build=${PVOX_BUILD:-$here/build}
if [ "${PVOX_SANITIZE:-0}" = 1 ]; then
    build=${PVOX_BUILD:-$here/build-asan}
    cmake_args+=(-DPV_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug)
fi
pv_install_packages "${PV_BUILD_PACKAGES[@]}" "${PV_TEST_PACKAGES[@]}"
pv_build "$here" "$build" "${cmake_args[@]}"
pv_mpi_env
if [ "${PVOX_SANITIZE:-0}" = 1 ]; then
    # ASAN/LSAN/UBSAN_OPTIONS (halt on a report, reports to $build/sanitizer/reports,
    # suppressions from tools/sanitizer/) for whatever the tests start outside ctest's
    # per-test environment, such as the SLURM jobs; written by cmake/PvoxTests.cmake
    # shellcheck source=/dev/null
    . "$build/sanitizer/env.sh"
fi

log=$build/ctest-output.log
pv_say "ctest --output-on-failure -j2 $*"
set +e
(cd "$build" && ctest --output-on-failure --no-tests=error -j2 "$@") 2>&1 | tee "$log"
rc=${PIPESTATUS[0]}
set -e
if [ "$rc" -ne 0 ]; then
    pv_say "tests failed (ctest exit $rc); the log is $log"
    exit "$rc"
fi
if [ "${CI:-}" = true ] && grep -qE '\*\*\*Skipped|Not Run' "$log"; then
    grep -E '\*\*\*Skipped|Not Run' "$log" >&2
    pv_say "CI=true: skipped tests count as failures"
    exit 1
fi
pv_say "all tests passed"
