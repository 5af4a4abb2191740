#!/usr/bin/env bash
# Install what is missing (Debian 12), build pvox and its tests, run the whole suite.
#
#   ./test.sh                    everything (ctest -j2)
#   ./test.sh -L core            extra arguments go to ctest (here: only the core label)
#
# Under CI=true warnings are errors and a skipped test counts as a failure.
# Environment: PVOX_BUILD build directory (default ./build, or ./build-asan with
# PVOX_SANITIZE). PVOX_SANITIZE=1: the sanitizer suite (tests/README.md "Sanitizer
# suite": a Debug build with AddressSanitizer, LeakSanitizer and UBSan, the corpus tests
# reduced, as CI runs it); PVOX_SANITIZE=full: the same with the corpus tests whole.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=tools/common.sh
. "$here/tools/common.sh"

cmake_args=(-DPV_BUILD_TESTS=ON)
build=${PVOX_BUILD:-$here/build}
sanitize=${PVOX_SANITIZE:-0}
case $sanitize in
0) ;;
1) cmake_args+=(-DPV_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug -DPV_SANITIZE_CORPUS=REDUCED) ;;
full) cmake_args+=(-DPV_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug -DPV_SANITIZE_CORPUS=FULL) ;;
*) pv_die "PVOX_SANITIZE=$sanitize: use 1 (as CI) or full" ;;
esac
[ "$sanitize" = 0 ] || build=${PVOX_BUILD:-$here/build-asan}
pv_install_packages "${PV_BUILD_PACKAGES[@]}" "${PV_TEST_PACKAGES[@]}"
pv_build "$here" "$build" "${cmake_args[@]}"
pv_mpi_env
if [ "$sanitize" != 0 ]; then
    # ASAN/LSAN/UBSAN_OPTIONS (halt on a report, reports to $build/sanitizer/reports,
    # suppressions from tools/sanitizer/), written by cmake/PvoxTests.cmake, which also
    # sets them in every test's environment; exported here for anything started outside it
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
