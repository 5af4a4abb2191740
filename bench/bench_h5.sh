#!/usr/bin/env bash
# Checkpoint bandwidth against dd on the same file system (target: write and read
# >= 50% of dd). Builds nothing.
#
#   bench/bench_h5.sh PVOX [DIR]
#
#   PVOX   the pvox binary
#   DIR    where the files go (default: the current directory); needs 2 x 4.1 GiB free
# Environment: NPS (rank counts, default "1 2 4"; NP is read too), SIZES (default
# "512 1024"), REPEAT (runs per measurement, the median is reported; default 3), MPIEXEC
# (default mpiexec), OUT (where the figure and its data go, default: this script's
# directory; empty: none). Threads per rank: pvox's default (the cores divided among
# the ranks) unless OMP_NUM_THREADS says otherwise.
#
# For each size N and rank count P: pvox -v runs `set vgrid $g size N; vsave "F"` (the
# write time pvox logs covers create, collective writes, the checksums, close, fsync by
# every rank and the rename), then after dropping the page cache, `vload "F"` (the read
# time covers open, metadata, the collective reads and the checksum check; not the
# allocation of the grid). Back to back with each pvox pair, dd writes the same number
# of bytes with bs=16M oflag=direct conv=fsync and reads them back with iflag=direct
# after a cache drop (the main anchor). A second anchor, dd through the page cache
# (conv=fsync, no O_DIRECT), is what a buffered writer does on a local file system:
# pvox goes through the page cache too. If /proc/sys/vm/drop_caches is not writable the
# reads may come from the page cache, for pvox and dd alike; the script says so.
# Prints MB/s (10^6 bytes/s) side by side and the ratios, then one key=value line per
# size, rank count and operation with every run's figure, and verified=yes if every
# reload had the checksum of the grid written. With OUT set it writes
# OUT/h5_bandwidth.dat and, with gnuplot, OUT/h5_bandwidth.png: pvox over dd (direct
# and buffered) for write and read, per size and rank count.
set -uo pipefail
PVOX=$(realpath "${1:?usage: bench_h5.sh PVOX [DIR]}")
DIR=$(realpath "${2:-.}")
NPS=${NPS:-${NP:-1 2 4}}
SIZES=${SIZES:-512 1024}
REPEAT=${REPEAT:-3}
MPIEXEC=${MPIEXEC:-mpiexec}
OUT=${OUT-$(cd "$(dirname "$0")" && pwd)}
export OMPI_ALLOW_RUN_AS_ROOT=${OMPI_ALLOW_RUN_AS_ROOT:-1}
export OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=${OMPI_ALLOW_RUN_AS_ROOT_CONFIRM:-1}
export OMPI_MCA_rmaps_base_oversubscribe=1

work=$(mktemp -d "$DIR/pvox-bench-h5.XXXXXX")
trap 'rm -rf "$work"' EXIT
fs=$(df -PT "$work" | awk 'NR == 2 {print $2 " on " $1}')

drop_caches() {
    sync
    if [ -w /proc/sys/vm/drop_caches ] && echo 3 >/proc/sys/vm/drop_caches 2>/dev/null; then
        return 0
    fi
    return 1
}
can_drop=yes
drop_caches || can_drop=no

median() { sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }

# pvox: prints MB/s of the vsave or vload just run, from its -v log line; the log is kept
# in $work/LOG.log for the checksum comparison
pvox_run() {
    local script=$1 log=$2
    "$MPIEXEC" --quiet -n "$NP" "$PVOX" -v "$script" >/dev/null 2>"$work/$log.log"
}
pvox_write_mbs() {
    local n=$1
    # a few non-zero voxels, so the checksum comparison sees data, not only zeros
    printf 'set vgrid $g size %d\nset vxrange [0:1]\nset vyrange [0:1]\nset vzrange [0:1]\n' "$n" >"$work/w.gp"
    printf 'do for [k=0:9] { voxel(k/9.0, 1 - k/9.0, k/9.0) = k + 0.5 }\nvsave "%s/g.h5"\n' "$work" >>"$work/w.gp"
    pvox_run "$work/w.gp" w
    sed -n 's/.*INFO  h5: vsave .* (\([0-9.]*\) MB\/s;.*/\1/p' "$work/w.log"
}
pvox_read_mbs() {
    printf 'vload "%s/g.h5"\n' "$work" >"$work/r.gp"
    pvox_run "$work/r.gp" r
    sed -n 's/.*INFO  h5: vload .*; reads [0-9.]* s, \([0-9.]*\) MB\/s,.*/\1/p' "$work/r.log"
}
# the grid read back has the checksum of the grid written
same_checksum() {
    local w r
    w=$(grep -o 'grid: \$g checksum [0-9a-f]*' "$work/w.log")
    r=$(grep -o 'grid: \$g checksum [0-9a-f]*' "$work/r.log")
    [ -n "$w" ] && [ "$w" = "$r" ]
}
# dd: MB/s from its "N bytes (...) copied, S s, ..." line
dd_mbs() {
    dd "$@" 2>&1 | awk '/copied/ {for (i = 1; i <= NF; i++) if ($i == "s,") s = $(i - 1); printf "%.1f\n", $1 / s / 1e6}'
}

echo "bench_h5: ranks $NPS, sizes $SIZES, median of $REPEAT runs, $fs ($DIR), $(date -u +%F)"
[ "$can_drop" = yes ] || echo "note: cannot drop the page cache (not root?): reads may be cached"
printf '%-6s %-5s %-6s %10s %10s %7s %12s %7s\n' size ranks op "pvox MB/s" "dd MB/s" ratio \
    "dd-buf MB/s" ratio
summary=() rows=()
for n in $SIZES; do
    bytes=$((n * n * n * 4))
    count=$(((bytes + (16 << 20) - 1) / (16 << 20)))
    for NP in $NPS; do
        pw=() pr=() dw=() dr=() bw=() br=() verified=yes
        for ((r = 0; r < REPEAT; r++)); do
            rm -f "$work"/g.h5 "$work"/g.xmf "$work"/dd.bin
            drop_caches
            pw+=("$(pvox_write_mbs "$n")")
            drop_caches
            pr+=("$(pvox_read_mbs)")
            same_checksum || verified=no
            rm -f "$work"/g.h5 "$work"/g.xmf
            drop_caches
            dw+=("$(dd_mbs if=/dev/zero of="$work/dd.bin" bs=16M count="$count" oflag=direct conv=fsync)")
            drop_caches
            dr+=("$(dd_mbs if="$work/dd.bin" of=/dev/null bs=16M iflag=direct)")
            rm -f "$work"/dd.bin
            drop_caches
            bw+=("$(dd_mbs if=/dev/zero of="$work/dd.bin" bs=16M count="$count" conv=fsync)")
            drop_caches
            br+=("$(dd_mbs if="$work/dd.bin" of=/dev/null bs=16M)")
            rm -f "$work"/dd.bin
        done
        for op in write read; do
            if [ "$op" = write ]; then
                p=$(printf '%s\n' "${pw[@]}" | median)
                d=$(printf '%s\n' "${dw[@]}" | median)
                b=$(printf '%s\n' "${bw[@]}" | median)
                samples="pvox_runs=$(IFS=,; echo "${pw[*]}") dd_runs=$(IFS=,; echo "${dw[*]}") ddbuf_runs=$(IFS=,; echo "${bw[*]}")"
            else
                p=$(printf '%s\n' "${pr[@]}" | median)
                d=$(printf '%s\n' "${dr[@]}" | median)
                b=$(printf '%s\n' "${br[@]}" | median)
                samples="pvox_runs=$(IFS=,; echo "${pr[*]}") dd_runs=$(IFS=,; echo "${dr[*]}") ddbuf_runs=$(IFS=,; echo "${br[*]}")"
            fi
            ratio=$(awk -v p="$p" -v d="$d" 'BEGIN {printf "%.2f", (d > 0) ? p / d : 0}')
            bratio=$(awk -v p="$p" -v d="$b" 'BEGIN {printf "%.2f", (d > 0) ? p / d : 0}')
            printf '%-6s %-5s %-6s %10s %10s %7s %12s %7s\n' "${n}^3" "$NP" "$op" "$p" "$d" \
                "$ratio" "$b" "$bratio"
            rows+=("$n $NP $op $ratio $bratio")
            summary+=("kernel=h5_$op ranks=$NP size=$n bytes=$bytes pvox_MBps=$p dd_MBps=$d ratio=$ratio ddbuf_MBps=$b ratio_buf=$bratio runs=${REPEAT} $samples cache_dropped=$can_drop verified=$verified")
        done
    done
done
printf '%s\n' "${summary[@]}"
[ -n "$OUT" ] || exit 0

# The figure's data: one line per size and rank count, pvox over dd.
ratio_of() { printf '%s\n' "${rows[@]}" | awk -v n="$1" -v p="$2" -v op="$3" -v c="$4" '$1 == n && $2 == p && $3 == op {print $c}'; }
dat="$OUT/h5_bandwidth.dat"
{
    echo "# bench_h5.sh $(date -u +%FT%TZ), $fs, median of $REPEAT: pvox MB/s over dd MB/s"
    echo "# label write/direct read/direct write/buffered read/buffered"
    for n in $SIZES; do
        for NP in $NPS; do
            echo "\"${n}^3, ${NP} rank$([ "$NP" = 1 ] || echo s)\" $(ratio_of "$n" "$NP" write 4)" \
                "$(ratio_of "$n" "$NP" read 4) $(ratio_of "$n" "$NP" write 5) $(ratio_of "$n" "$NP" read 5)"
        done
    done
} >"$dat"
echo "data: $dat"
command -v gnuplot >/dev/null || exit 0
gnuplot -e "dat='$dat'; png='$OUT/h5_bandwidth.png'" \
    -e "title='pvox vsave / vload over dd, $fs, $(date -u +%F), median of $REPEAT'" \
    "$(dirname "$0")/h5_bandwidth.gp"
echo "figure: $OUT/h5_bandwidth.png"
