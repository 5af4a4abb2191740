#!/usr/bin/env bash
# Text part of bench/bench_ingest.sh: `vfill "f" using 1:2:3:(0):($4)` over a text file of
# every node of an N^3 grid (x y z value, x fastest, radius 0: one update per row), run by
# gnuplot 5.4 (the anchor) and by pvox at 1 and 2 ranks, each rank reading its own share of
# the file (exec/fill_text.c), and once more through the broadcast reader (PVOX_TEXT_SPLIT=0,
# every rank parsing every row: the path before it). Sourced by bench_ingest.sh, which
# calls bench_ingest_text; runnable alone:
#
#   bench/bench_ingest_text.sh [PVOX] [SIZES]        # defaults: build/pvox "128 256"
#
# Per size and run: whole-process wall seconds and peak resident memory of the largest
# process (/usr/bin/time; for mpiexec runs the largest rank), best of REPS (pvox, default 3)
# and GREPS (gnuplot, default 1: it takes minutes at 256^3) runs; pvox's own timers (-v):
# the fill session's kernel seconds ("vfill: ... in T s") and the reader's phases (read and
# scan, parse, exchange, fill). Ratios are gnuplot's wall time over pvox's. The grid
# checksums of all pvox runs of a size must agree. Environment: REPS, GREPS, NP2 (the
# second rank count, 2), BENCH_TMP (where the files go, default a mktemp -d in /tmp: a
# 256^3 file is about 600 MB).

bench_ingest_text_file() { # N PATH: every node of N^3 on [0:10]^3, x fastest
    /usr/bin/python3 - "$1" "$2" <<'EOF'
import sys
import numpy as np
n, path = int(sys.argv[1]), sys.argv[2]
i = np.arange(n, dtype=np.float64)
with open(path, "w") as f:
    for iz in range(n):
        y, x = np.meshgrid(i, i, indexing="ij")
        v = np.sin(x * 0.1) * np.cos(y * 0.07) + iz * 0.01
        z = np.full(x.size, iz / (n - 1) * 10)
        a = np.column_stack([x.ravel() / (n - 1) * 10, y.ravel() / (n - 1) * 10, z, v.ravel()])
        np.savetxt(f, a, fmt="%.6g")
EOF
}

bench_ingest_text() { # PVOX [SIZES]
    local pvox=${1:-build/pvox} sizes=${2:-128 256}
    local reps=${REPS:-3} greps=${GREPS:-1} np2=${NP2:-2}
    command -v gnuplot >/dev/null || { echo "bench_ingest_text: gnuplot not found" >&2; return 1; }
    [ -x "$pvox" ] || { echo "bench_ingest_text: $pvox not built" >&2; return 1; }
    local tmp
    tmp=${BENCH_TMP:-$(mktemp -d)}
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
    export OMPI_MCA_rmaps_base_oversubscribe=1
    local row='%-6s %-26s %9s %10s %8s %9s %s\n'
    printf "$row" size run "wall s" "peak MB" ratio "kernel s" "reader phases (rank 0, s): read+scan / parse / exchange / fill"
    local n
    for n in $sizes; do
        local f="$tmp/grid$n.dat"
        [ -s "$f" ] || bench_ingest_text_file "$n" "$f" || return 1
        printf 'set vgrid $v size %d\nset vxrange [0:10]; set vyrange [0:10]; set vzrange [0:10]\nvfill "%s" using 1:2:3:(0):($4)\n' \
            "$n" "$f" >"$tmp/t$n.gp"
        # gnuplot: whole process, best of greps
        local best="" mem="" k t m
        for ((k = 0; k < greps; k++)); do
            /usr/bin/time -f '%e %M' -o "$tmp/time" gnuplot "$tmp/t$n.gp" >/dev/null 2>&1 ||
                { echo "bench_ingest_text: gnuplot failed at $n" >&2; return 1; }
            read -r t m <"$tmp/time"
            if [ -z "$best" ] || awk -v a="$t" -v b="$best" 'BEGIN{exit !(a<b)}'; then best=$t mem=$m; fi
        done
        local gbest=$best
        printf "$row" "$n^3" "gnuplot 5.4" "$gbest" "$((mem / 1024))" "1.0x" "-" ""
        local sums="" run np env
        for run in "1:1" "$np2:1" "1:0" "$np2:0"; do
            np=${run%%:*} env=${run##*:}
            local label="pvox $np rank(s)"
            [ "$env" = 0 ] && label="$label broadcast"
            local out="" bout=""
            best="" mem=""
            for ((k = 0; k < reps; k++)); do
                out=$(PVOX_TEXT_SPLIT=$env OMP_NUM_THREADS=1 /usr/bin/time -f 'TIME %e %M' \
                      mpiexec --bind-to none -n "$np" "$pvox" -v "$tmp/t$n.gp" 2>&1) ||
                    { echo "bench_ingest_text: pvox failed:" >&2; echo "$out" | tail -5 >&2; return 1; }
                read -r t m <<<"$(echo "$out" | sed -n 's/^TIME //p')"
                if [ -z "$best" ] || awk -v a="$t" -v b="$best" 'BEGIN{exit !(a<b)}'; then
                    best=$t mem=$m bout=$out
                fi
            done
            local kern phases sum
            kern=$(echo "$bout" | sed -n 's/.*vfill: .* in \([0-9.]*\) s (.*/\1/p')
            phases=$(echo "$bout" | sed -n 's/.*read and scan \([0-9.]*\) s, parse \([0-9.]*\) s, exchange \([0-9.]*\) s, fill \([0-9.]*\) s.*/\1 \/ \2 \/ \3 \/ \4/p')
            sum=$(echo "$bout" | sed -n 's/.*checksum \([0-9a-f]*\).*/\1/p')
            sums="$sums $sum"
            printf "$row" "" "$label" "$best" "$((mem / 1024))" \
                "$(awk -v g="$gbest" -v p="$best" 'BEGIN{printf "%.1fx", g / p}')" "$kern" "$phases"
        done
        if [ "$(echo $sums | tr ' ' '\n' | sort -u | wc -l)" != 1 ]; then
            echo "bench_ingest_text: checksums differ at $n^3:$sums" >&2
            return 1
        fi
        echo "       checksums agree:$sums" | awk '{print $1, $2, $3}'
        [ -n "${BENCH_TMP:-}" ] || rm -f "$f"
    done
    [ -n "${BENCH_TMP:-}" ] || rm -rf "$tmp"
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
    set -euo pipefail
    bench_ingest_text "$@"
fi
