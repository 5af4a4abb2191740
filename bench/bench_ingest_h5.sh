#!/usr/bin/env bash
# Ingest of another program's HDF5 dataset: `vload $rho "F" dataset "rho"` against dd of
# the file's bytes and against ParaView's pvbatch reading the same file (targets: >= 0.5x
# dd's rate, >= 2x faster than pvbatch, peak memory <= 4.2 B/voxel + 256 MB per rank).
#
#   bench/bench_ingest_h5.sh PVOX [DIR]      standalone
#   . bench/bench_ingest_h5.sh; bench_ingest_h5 PVOX [DIR]     from bench/bench_ingest.sh
#
#   PVOX   the pvox binary
#   DIR    where the file goes (default: the current directory); needs N^3*4 bytes + 1 GiB
# Environment: N (default 1024), NPS (rank counts, default "1 2"), REPEAT (runs, best
# reported; default 5), MPIEXEC (default mpiexec), PVBATCH (default pvbatch; "" skips it).
#
# The file: an N^3 float32 dataset, contiguous, written by h5py in VTK's HDF ImageData
# layout (/VTKHDF/PointData/rho, [z][y][x], WholeExtent/Origin/Spacing), so pvox and
# ParaView's VTKHDFReader read the same bytes. Timings:
#   dd       `dd if=F of=/dev/null bs=16M`, warm (the file in the page cache) and, when
#            /proc/sys/vm/drop_caches is writable, cold;
#   pvox     the vload's own time (-v "vload ... N bytes in T s": open, the metadata
#            child, grid allocation and the collective reads), warm and cold, and the
#            whole process's wall time; peak RSS of each rank (/usr/bin/time -v);
#   pvbatch  VTKHDFReader(...).UpdatePipeline() timed inside the script (warm), the whole
#            process's wall time and peak RSS (xvfb-run -a).
# Prints one table and key=value lines (kernel=ingest_h5 ...); the file is deleted after.
set -uo pipefail

bench_ingest_h5() {
    local PVOX DIR work
    PVOX=$(realpath "${1:?usage: bench_ingest_h5 PVOX [DIR]}")
    DIR=$(realpath "${2:-.}")
    local N=${N:-1024} NPS=${NPS:-1 2} REPEAT=${REPEAT:-5} MPIEXEC=${MPIEXEC:-mpiexec}
    local PVBATCH=${PVBATCH-pvbatch}
    export OMPI_ALLOW_RUN_AS_ROOT=${OMPI_ALLOW_RUN_AS_ROOT:-1}
    export OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=${OMPI_ALLOW_RUN_AS_ROOT_CONFIRM:-1}
    export OMPI_MCA_rmaps_base_oversubscribe=1
    local bytes=$((N * N * N * 4))
    local avail
    avail=$(df -PB1 "$DIR" | awk 'NR == 2 {print $4}')
    if [ "$avail" -lt $((bytes + (1 << 30))) ]; then
        echo "bench_ingest_h5: $DIR has $avail bytes free, needs $((bytes + (1 << 30)))"
        return 1
    fi
    work=$(mktemp -d "$DIR/pvox-bench-ingest.XXXXXX")
    # shellcheck disable=SC2064 # expand now: the function's locals are gone at exit
    trap "rm -rf '$work'" EXIT
    local F=$work/sim.vtkhdf
    /usr/bin/python3 - "$F" "$N" <<'EOF'
import sys, h5py, numpy as np
path, n = sys.argv[1], int(sys.argv[2])
with h5py.File(path, "w") as f:
    v = f.create_group("VTKHDF")
    v.attrs["Version"] = np.array([1, 0], dtype="i8")
    v.attrs.create("Type", np.bytes_("ImageData"))
    v.attrs["WholeExtent"] = np.array([0, n - 1] * 3, dtype="i8")
    v.attrs["Origin"] = np.zeros(3)
    v.attrs["Spacing"] = np.full(3, 1.0 / (n - 1))
    v.attrs["Direction"] = np.eye(3).reshape(9)
    d = v.create_group("PointData").create_dataset("rho", (n, n, n), dtype="f4")
    x = np.linspace(-1, 1, n, dtype="f4")
    for z0 in range(0, n, 64):  # a smooth field, 64 planes at a time
        z = x[z0:z0 + 64, None, None]
        d[z0:z0 + 64] = np.exp(-(x[None, None, :] ** 2 + x[None, :, None] ** 2 + z ** 2) * 4)
    v.create_group("FieldData")
EOF
    local can_drop=no
    if [ -w /proc/sys/vm/drop_caches ] && sync && echo 3 >/proc/sys/vm/drop_caches 2>/dev/null; then
        can_drop=yes
    fi
    drop() { [ "$can_drop" = yes ] && sync && echo 3 >/proc/sys/vm/drop_caches; }
    dd_mbs() { dd if="$F" of=/dev/null bs=16M 2>&1 |
        awk '/copied/ {for (i = 1; i <= NF; i++) if ($i == "s,") s = $(i - 1); printf "%.1f\n", $1 / s / 1e6}'; }
    best() { sort -g | tail -1; }
    least() { sort -g | head -1; }
    printf 'vload $rho "%s" dataset "rho"\n' "$F" >"$work/load.gp"
    # pvox: MB/s of the vload from its -v line; wall seconds; the largest rank's peak RSS
    pvox_run() {
        local np=$1
        rm -f "$work"/mem.*
        local t0 t1
        t0=$(date +%s.%N)
        "$MPIEXEC" --quiet -n "$np" sh -c \
            '/usr/bin/time -v -o "$0/mem.${OMPI_COMM_WORLD_RANK:-0}" "$1" -v "$0/load.gp"' \
            "$work" "$PVOX" >/dev/null 2>"$work/pvox.log"
        t1=$(date +%s.%N)
        local mbs rss
        mbs=$(sed -n 's/.*INFO  h5: vload .* bytes in [0-9.]* s (\([0-9.]*\) MB\/s;.*/\1/p' "$work/pvox.log")
        rss=$(cat "$work"/mem.* | awk '/Maximum resident/ {if ($6 > m) m = $6} END {print m}')
        echo "$mbs $(awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.2f", b - a}') $rss"
    }
    cat "$F" >/dev/null
    local ddw=() ddc=()
    for ((r = 0; r < REPEAT; r++)); do
        ddw+=("$(dd_mbs)")
        if [ "$can_drop" = yes ]; then
            drop
            ddc+=("$(dd_mbs)")
        fi
    done
    local dd_warm dd_cold=n/a
    dd_warm=$(printf '%s\n' "${ddw[@]}" | best)
    [ "$can_drop" = yes ] && dd_cold=$(printf '%s\n' "${ddc[@]}" | best)
    # pvbatch: the reader's UpdatePipeline seconds, wall seconds, peak RSS (KiB)
    local pv_secs=n/a pv_wall=n/a pv_rss=n/a
    if [ -n "$PVBATCH" ] && command -v "$PVBATCH" >/dev/null && command -v xvfb-run >/dev/null; then
        cat >"$work/pv.py" <<EOF
import time
from paraview.simple import VTKHDFReader
t0 = time.time()
r = VTKHDFReader(FileName=["$F"])
r.UpdatePipeline()
print("pvbatch_read_s %.3f" % (time.time() - t0))
EOF
        cat "$F" >/dev/null
        local s=() w=() m=()
        for ((r = 0; r < REPEAT; r++)); do
            local t0 t1
            t0=$(date +%s.%N)
            env -u OMPI_COMM_WORLD_SIZE -u OMPI_COMM_WORLD_RANK -u PMIX_RANK \
                /usr/bin/time -v -o "$work/pvmem" xvfb-run -a "$PVBATCH" "$work/pv.py" \
                >"$work/pv.log" 2>&1
            t1=$(date +%s.%N)
            s+=("$(sed -n 's/^pvbatch_read_s //p' "$work/pv.log")")
            w+=("$(awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.2f", b - a}')")
            m+=("$(awk '/Maximum resident/ {print $6}' "$work/pvmem")")
        done
        pv_secs=$(printf '%s\n' "${s[@]}" | least)
        pv_wall=$(printf '%s\n' "${w[@]}" | least)
        pv_rss=$(printf '%s\n' "${m[@]}" | least)
    fi
    # the target per rank: 4.2 bytes per voxel of the rank's slab + 256 MB
    limit_kib() { awk -v n="$N" -v p="$1" 'BEGIN {printf "%d", (n * n * n / p * 4.2 + 256e6) / 1024}'; }
    echo "bench_ingest_h5: ${N}^3 float32 ($bytes bytes), best of $REPEAT, $(df -PT "$work" | awk 'NR == 2 {print $2 " on " $1}'), $(date -u +%F)"
    echo "dd: warm $dd_warm MB/s, cold $dd_cold MB/s; pvbatch: read ${pv_secs} s ($(awk -v s="$pv_secs" -v b="$bytes" 'BEGIN {if (s + 0 > 0) printf "%.1f", b / s / 1e6; else print "n/a"}') MB/s), wall $pv_wall s, peak ${pv_rss} KiB"
    printf '%-5s %-5s %10s %8s %10s %10s %9s %12s\n' ranks cache "pvox MB/s" "x dd" "vs pvbatch" "wall s" "peak KiB" "limit KiB/rank"
    local np cache
    for np in $NPS; do
        for cache in warm cold; do
            [ "$cache" = cold ] && [ "$can_drop" != yes ] && continue
            local runs=() walls=() rsss=() out
            for ((r = 0; r < REPEAT; r++)); do
                if [ "$cache" = cold ]; then drop; else cat "$F" >/dev/null; fi
                out=$(pvox_run "$np")
                runs+=("$(echo "$out" | awk '{print $1}')")
                walls+=("$(echo "$out" | awk '{print $2}')")
                rsss+=("$(echo "$out" | awk '{print $3}')")
            done
            local mbs wall rss ref ratio speed
            mbs=$(printf '%s\n' "${runs[@]}" | best)
            wall=$(printf '%s\n' "${walls[@]}" | least)
            rss=$(printf '%s\n' "${rsss[@]}" | least)
            ref=$([ "$cache" = warm ] && echo "$dd_warm" || echo "$dd_cold")
            ratio=$(awk -v p="$mbs" -v d="$ref" 'BEGIN {printf "%.2f", (d > 0) ? p / d : 0}')
            speed=$(awk -v p="$mbs" -v s="$pv_secs" -v b="$bytes" \
                'BEGIN {if (s + 0 > 0 && p > 0) printf "%.1fx", s / (b / (p * 1e6)); else print "n/a"}')
            printf '%-5s %-5s %10s %8s %10s %10s %9s %12s\n' "$np" "$cache" "$mbs" "$ratio" "$speed" "$wall" "$rss" "$(limit_kib "$np")"
            echo "kernel=ingest_h5 size=$N ranks=$np cache=$cache bytes=$bytes pvox_MBps=$mbs dd_MBps=$ref ratio_dd=$ratio pvbatch_read_s=$pv_secs speedup_pvbatch=$speed pvox_wall_s=$wall pvbatch_wall_s=$pv_wall pvox_peak_kib=$rss pvbatch_peak_kib=$pv_rss limit_kib=$(limit_kib "$np") runs=$(IFS=,; echo "${runs[*]}")" >>"$work/summary"
        done
    done
    cat "$work/summary"
    rm -rf "$work"
    trap - EXIT
}

# run directly (not sourced): the function on the command line's arguments
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
    bench_ingest_h5 "$@"
fi
