#!/bin/sh
# A short fuzz run for the suite (tests/fuzz/README.md): build the libFuzzer targets with
# clang in BUILD (configured once, rebuilt incrementally), write the seeds, then fuzz each
# target for SECONDS with the seeds and its kept crashers. Exit 0 when no target found
# anything, 1 on a finding or a failed build, 77 when clang cannot link libFuzzer (1 under
# CI=true: the CI image must have it, tools/common.sh PV_TEST_PACKAGES).
#
#   short_run.sh SRCDIR BUILD SECONDS
set -u
[ $# -eq 3 ] || { echo "usage: $0 SRCDIR BUILD SECONDS" >&2; exit 2; }
src=$1
build=$2
secs=$3
here=$(cd "$(dirname "$0")" && pwd)

missing() {
    if [ "${CI:-}" = true ]; then
        echo "short_run: $1 (required under CI=true)" >&2
        exit 1
    fi
    echo "short_run: $1: skipped" >&2
    exit 77
}

command -v clang >/dev/null 2>&1 || missing "no clang"
mkdir -p "$build" || exit 1
probe=$build/probe
printf '#include <stddef.h>\n#include <stdint.h>\nint LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);\nint LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; (void)n; return 0; }\n' \
    > "$probe.c"
clang -fsanitize=fuzzer,address,undefined "$probe.c" -o "$probe" >/dev/null 2>&1 ||
    missing "clang cannot link -fsanitize=fuzzer (libFuzzer: Debian package libclang-rt-14-dev)"

log=$build/build.log
# a build configured before the C++ unit (src/lang/numparse.cc) has g++ or no C++ compiler
if [ -f "$build/CMakeCache.txt" ] && ! grep -q "^CMAKE_CXX_COMPILER:.*clang++" "$build/CMakeCache.txt"; then
    rm -rf "$build"
    mkdir -p "$build" || exit 1
fi
if [ ! -f "$build/CMakeCache.txt" ]; then
    # -O1 and line tables only: half the build time of -O2 -g, and stacks still name lines
    CC=clang CXX=clang++ cmake -S "$src" -B "$build" -DPV_FUZZ=ON -DPV_BUILD_TESTS=OFF \
        -DPV_BUILD_BENCH=OFF -DPV_WERROR=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        "-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O1 -gline-tables-only -DNDEBUG" \
        "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -gline-tables-only -DNDEBUG" >"$log" 2>&1 ||
        { cat "$log" >&2; echo "short_run: configuring with clang failed" >&2; exit 1; }
fi
cmake --build "$build" -j2 --target fuzz_script fuzz_datafile >>"$log" 2>&1 ||
    { tail -50 "$log" >&2; echo "short_run: building the fuzz targets failed" >&2; exit 1; }
sh "$here/make_seeds.sh" "$src" "$build/seeds" || exit 1

status=0
for target in script datafile; do
    corpus=$build/corpus/$target
    artifacts=$build/artifacts/$target
    rm -rf "$corpus"
    mkdir -p "$corpus" "$artifacts" "$build/cwd"
    # the targets write no files; a scratch working directory shows it if one ever does
    if (cd "$build/cwd" && "$build/fuzz/fuzz_$target" "$corpus" "$build/seeds/$target" \
        "$here/crashers/$target" -max_total_time="$secs" -rss_limit_mb=2048 -timeout=20 \
        -close_fd_mask=3 -print_final_stats=1 -artifact_prefix="$artifacts/") \
        >"$build/$target.log" 2>&1; then
        echo "short_run: $target: $(grep -o 'Done [0-9]* runs in [0-9]* second' "$build/$target.log")"
    else
        grep -v '^#\|^INFO' "$build/$target.log" | head -60 >&2
        echo "short_run: $target: a finding (input kept in $artifacts)" >&2
        status=1
    fi
done
exit $status
