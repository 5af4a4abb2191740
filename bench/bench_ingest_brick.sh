#!/usr/bin/env bash
# Loading a 3D binary brick (DIFF-25) against dd reading the same bytes (target: >= 50% of
# dd; peak memory per rank <= 4.2 bytes per local voxel + 256 MB). Builds nothing.
#
#   bench/bench_ingest_brick.sh PVOX [DIR]          standalone
#   . bench/bench_ingest_brick.sh; bench_ingest_brick PVOX DIR   from bench_ingest.sh
#
#   PVOX   the pvox binary
#   DIR    where the brick goes (default: the current directory); needs N^3 x 4 bytes free
#          (4.3 GB for N = 1024)
# Environment: BRICK_N (elements per axis, default 1024), BRICK_NPS (rank counts, default
# "1 2"), REPEAT (runs per measurement, the best is reported; default 3), MPIEXEC
# (default mpiexec). Threads per rank: pvox's default unless OMP_NUM_THREADS says
# otherwise.
#
# The brick is N^3 float32 from /dev/urandom (some are NaN: the load does not care). For
# each rank count P and each cache state (warm: the file read once before; cold: page
# cache dropped before each run, if /proc/sys/vm/drop_caches is writable, else the script
# says "cold=unavailable"), pvox -v runs
#     set vgrid $g size N; set v{x,y,z}range [0:N-1]
#     vfill "brick" binary array=NxNxN format="%float32" using 1:2:3:(0):4
# (the fast path: the elements are the grid's nodes), and reports the load time pvox logs
# ("vfill of ...: ... MB in T s", the slowest rank, from the first byte read to the last
# voxel stored) and the bytes over that time; dd if=brick of=/dev/null bs=16M is timed
# in the same cache state. Every rank runs under /usr/bin/time -v: its "Maximum resident
# set size" is compared with the bound 4.2 B x its voxels + 256 MB (the grid itself is 4 B
# per voxel), and the run's CPU seconds (user + system, all ranks, the whole run) are
# reported: on a shared machine they say what the load costs when the wall time does not.
# Prints one key=value line per rank count and cache state.

bench_ingest_brick() {
    local pvox dir n nps repeat mpiexec work can_drop
    pvox=$(realpath "${1:?usage: bench_ingest_brick PVOX [DIR]}")
    dir=$(realpath "${2:-.}")
    n=${BRICK_N:-1024}
    nps=${BRICK_NPS:-1 2}
    repeat=${REPEAT:-3}
    mpiexec=${MPIEXEC:-mpiexec}
    export OMPI_ALLOW_RUN_AS_ROOT=${OMPI_ALLOW_RUN_AS_ROOT:-1}
    export OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=${OMPI_ALLOW_RUN_AS_ROOT_CONFIRM:-1}
    export OMPI_MCA_rmaps_base_oversubscribe=1
    work=$(mktemp -d "$dir/pvox-bench-brick.XXXXXX") || return 1
    # shellcheck disable=SC2064
    trap "rm -rf '$work'" RETURN
    local bytes=$((n * n * n * 4)) mib=$((n * n * n * 4 / 1048576))
    echo "brick: ${n}^3 float32, $bytes bytes, in $work ($(df -PT "$work" | awk 'NR == 2 {print $2}'))"
    dd if=/dev/urandom of="$work/brick.bin" bs=1M count="$mib" status=none || return 1
    _brick_drop() {
        sync
        [ -w /proc/sys/vm/drop_caches ] && echo 3 >/proc/sys/vm/drop_caches 2>/dev/null
    }
    can_drop=yes
    _brick_drop || can_drop=no
    cat >"$work/load.gp" <<EOF
set vgrid \$g size $n
set vxrange [0:$((n - 1))]; set vyrange [0:$((n - 1))]; set vzrange [0:$((n - 1))]
vfill "$work/brick.bin" binary array=${n}x${n}x${n} format="%float32" using 1:2:3:(0):4
EOF
    local np state r best_p best_d best_cpu cpu secs d rss bound ok
    for np in $nps; do
        for state in warm cold; do
            if [ "$state" = cold ] && [ "$can_drop" = no ]; then
                echo "np=$np cache=cold unavailable (/proc/sys/vm/drop_caches is not writable)"
                continue
            fi
            best_p="" best_d="" rss=0
            for r in $(seq "$repeat"); do
                if [ "$state" = cold ]; then _brick_drop; else cat "$work/brick.bin" >/dev/null; fi
                "$mpiexec" --quiet --bind-to none -n "$np" /usr/bin/time -v "$pvox" -v "$work/load.gp" \
                    >/dev/null 2>"$work/run.log" || { echo "pvox failed:"; tail -5 "$work/run.log"; return 1; }
                secs=$(sed -n 's/.*INFO  grid: vfill of .* MB in \([0-9.]*\) s .*/\1/p' "$work/run.log")
                # the largest rank's peak (KiB)
                d=$(awk '/Maximum resident set size/ {if ($6 > m) m = $6} END {print m + 0}' "$work/run.log")
                # CPU seconds of all ranks (user + system): what the load costs whatever
                # else runs on the machine
                cpu=$(awk '/User time|System time/ {s += $NF} END {print s + 0}' "$work/run.log")
                [ "$d" -gt "$rss" ] && rss=$d
                [ -z "$best_p" ] || awk -v a="$secs" -v b="$best_p" 'BEGIN {exit !(a < b)}' && best_p=$secs best_cpu=$cpu
                if [ "$state" = cold ]; then _brick_drop; else cat "$work/brick.bin" >/dev/null; fi
                local t0 t1
                t0=$(date +%s.%N)
                dd if="$work/brick.bin" of=/dev/null bs=16M status=none
                t1=$(date +%s.%N)
                d=$(awk -v a="$t0" -v b="$t1" 'BEGIN {print b - a}')
                [ -z "$best_d" ] || awk -v a="$d" -v b="$best_d" 'BEGIN {exit !(a < b)}' && best_d=$d
            done
            # the bound for the rank with the most planes
            bound=$(awk -v n="$n" -v p="$np" 'BEGIN {z = int((n + p - 1) / p); print int((4.2 * n * n * z + 256e6) / 1024)}')
            ok=yes
            [ "$rss" -le "$bound" ] || ok=no
            awk -v np="$np" -v st="$state" -v b="$bytes" -v p="$best_p" -v d="$best_d" \
                -v rss="$rss" -v bound="$bound" -v ok="$ok" -v cpu="$best_cpu" 'BEGIN {
                printf "np=%d cache=%s pvox_s=%.3f pvox_MBs=%.0f dd_s=%.3f dd_MBs=%.0f ratio=%.2f pvox_run_cpu_s=%.2f peak_rss_MB=%.0f bound_MB=%.0f memory_ok=%s\n",
                    np, st, p, b / 1e6 / p, d, b / 1e6 / d, d / p, cpu, rss * 1.024e-3, bound * 1.024e-3, ok }'
        done
    done
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
    set -uo pipefail
    bench_ingest_brick "$@"
fi
